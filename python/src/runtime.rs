//! Where queries run: one multi-threaded tokio runtime for the process, awaited with the GIL
//! released, polling for signals so that Ctrl-C interrupts a long query.

use std::future::Future;
use std::sync::OnceLock;
use std::time::Duration;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use tokio::runtime::Runtime;

use crate::errors::to_py;

/// How often a waiting query looks for a pending signal (Ctrl-C).
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// The process's runtime, built on first use.
pub(crate) fn runtime() -> PyResult<&'static Runtime> {
    static RUNTIME: OnceLock<Result<Runtime, String>> = OnceLock::new();
    RUNTIME
        .get_or_init(|| {
            tokio::runtime::Builder::new_multi_thread()
                .thread_name("datafusion-tensor")
                .enable_all()
                .build()
                .map_err(|err| err.to_string())
        })
        .as_ref()
        .map_err(|err| PyRuntimeError::new_err(format!("cannot start the tokio runtime: {err}")))
}

/// Runs `future` to completion on the runtime with the GIL released. Every [`SIGNAL_POLL`] it
/// takes the GIL to run Python's signal handlers: when one raises (`KeyboardInterrupt` for
/// Ctrl-C), the future is dropped, which cancels the query, and the exception is returned.
pub(crate) fn wait_for<F, T>(py: Python<'_>, future: F) -> PyResult<T>
where
    F: Future<Output = datafusion::error::Result<T>> + Send,
    T: Send,
{
    let runtime = runtime()?;
    py.detach(|| {
        runtime.block_on(async {
            let mut future = std::pin::pin!(future);
            loop {
                tokio::select! {
                    result = &mut future => return result.map_err(|err| to_py(&err)),
                    () = tokio::time::sleep(SIGNAL_POLL) => {
                        check_signals()?;
                    }
                }
            }
        })
    })
}

/// Takes the GIL and runs Python's pending signal handlers.
// The method path `Python::check_signals` is not general enough over the GIL's lifetime for
// `attach`, which clippy's suggestion would need.
#[allow(clippy::redundant_closure_for_method_calls)]
fn check_signals() -> PyResult<()> {
    Python::attach(|py| py.check_signals())
}
