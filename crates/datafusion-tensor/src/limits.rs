//! Resource limits: how large one tensor, and one batch of results, may be.
//!
//! A shape whose element count overflows is always an error ([`crate::shape::checked_size`]).
//! Below that, a query can still ask for more memory than the machine has: an index whose
//! arrays broadcast to millions of elements, a `tensor_choose` whose arguments broadcast to a
//! huge shape, a shape literal with large dimensions. Allocating that would abort the process;
//! instead every shape is checked against [`max_tensor_elements`] when it is computed (so at
//! planning time, before anything is allocated), and every tensor result against
//! [`max_batch_bytes`] before its batch is allocated.
//!
//! Both are session settings, `tensor.max_tensor_elements` and `tensor.max_batch_bytes`
//! ([`crate::TensorOptions`]: `SET tensor.max_batch_bytes = 1048576`). A session's values apply
//! wherever DataFusion hands a function its session configuration: when the optimizer plans a
//! call (`simplify`), when a batch runs, and around the whole planning of a statement on the
//! paths this crate owns (the CLI, [`crate::TensorSql::tensor_sql`], Python), which enter them
//! with [`scope`] / [`sync_scope`]. Elsewhere (DataFusion's own `SessionContext::sql` asks a
//! function's result type before any configuration is at hand) the process defaults apply: the
//! environment variables `DATAFUSION_TENSOR_MAX_ELEMENTS` / `DATAFUSION_TENSOR_MAX_BATCH_BYTES`
//! (read once), or what [`set_max_tensor_elements`] / [`set_max_batch_bytes`] set; they are also
//! the defaults of the session settings.

use std::future::Future;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use datafusion::common::config::ConfigOptions;

/// Default [`max_tensor_elements`]: 2^26 = 67,108,864 elements (256 MiB of float32) per tensor.
pub const DEFAULT_MAX_TENSOR_ELEMENTS: usize = 1 << 26;
/// Default [`max_batch_bytes`]: 8 GiB for one function's result over one batch.
pub const DEFAULT_MAX_BATCH_BYTES: usize = 1 << 33;

const UNSET: usize = usize::MAX;
static MAX_ELEMENTS: AtomicUsize = AtomicUsize::new(UNSET);
static MAX_BATCH: AtomicUsize = AtomicUsize::new(UNSET);

fn from_env(var: &str, default: usize, cell: &'static OnceLock<usize>) -> usize {
    *cell.get_or_init(|| {
        std::env::var(var)
            .ok()
            .and_then(|v| v.trim().replace('_', "").parse::<usize>().ok())
            .unwrap_or(default)
    })
}

/// The limits of one session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// [`max_tensor_elements`].
    pub max_tensor_elements: usize,
    /// [`max_batch_bytes`].
    pub max_batch_bytes: usize,
}

impl Limits {
    /// The limits a session's configuration sets (its [`crate::TensorOptions`]; the process
    /// defaults when it has none).
    ///
    /// Read for every batch: the two values are taken from the extension where it is, without
    /// cloning it or building its defaults (which read the environment) where it is not.
    pub fn of(options: &ConfigOptions) -> Self {
        match options.extensions.get::<crate::TensorOptions>() {
            Some(tensor) => Self {
                max_tensor_elements: tensor.max_tensor_elements,
                max_batch_bytes: tensor.max_batch_bytes,
            },
            None => Self {
                max_tensor_elements: default_max_tensor_elements(),
                max_batch_bytes: default_max_batch_bytes(),
            },
        }
    }
}

tokio::task_local! {
    /// The session limits in force on this task (or, for [`sync_scope`], this call).
    static SESSION: Limits;
}

/// Runs `future` with `limits` in force (on the paths that plan a whole statement).
pub async fn scope<F: Future>(limits: Limits, future: F) -> F::Output {
    SESSION.scope(limits, future).await
}

/// Runs `f` with `limits` in force (planning one call, running one batch).
pub fn sync_scope<T>(limits: Limits, f: impl FnOnce() -> T) -> T {
    SESSION.sync_scope(limits, f)
}

/// The limits in force: the session's inside a [`scope`], else the process defaults.
fn in_force() -> Option<Limits> {
    SESSION.try_with(|limits| *limits).ok()
}

/// The most elements one tensor (one row of a tensor column, or one index array) may have.
pub fn max_tensor_elements() -> usize {
    in_force().map_or_else(default_max_tensor_elements, |l| l.max_tensor_elements)
}

/// The process default of [`max_tensor_elements`] (and of the session setting).
pub fn default_max_tensor_elements() -> usize {
    static ENV: OnceLock<usize> = OnceLock::new();
    match MAX_ELEMENTS.load(Ordering::Relaxed) {
        UNSET => from_env(
            "DATAFUSION_TENSOR_MAX_ELEMENTS",
            DEFAULT_MAX_TENSOR_ELEMENTS,
            &ENV,
        ),
        n => n,
    }
}

/// The most bytes one function's tensor result over one batch may take.
pub fn max_batch_bytes() -> usize {
    in_force().map_or_else(default_max_batch_bytes, |l| l.max_batch_bytes)
}

/// The process default of [`max_batch_bytes`] (and of the session setting).
pub fn default_max_batch_bytes() -> usize {
    static ENV: OnceLock<usize> = OnceLock::new();
    match MAX_BATCH.load(Ordering::Relaxed) {
        UNSET => from_env(
            "DATAFUSION_TENSOR_MAX_BATCH_BYTES",
            DEFAULT_MAX_BATCH_BYTES,
            &ENV,
        ),
        n => n,
    }
}

/// Sets the process default of [`max_tensor_elements`] (sessions created afterwards start with
/// it; so does planning outside any session scope).
pub fn set_max_tensor_elements(n: usize) {
    MAX_ELEMENTS.store(n.min(UNSET - 1), Ordering::Relaxed);
}

/// Sets the process default of [`max_batch_bytes`].
pub fn set_max_batch_bytes(n: usize) {
    MAX_BATCH.store(n.min(UNSET - 1), Ordering::Relaxed);
}

/// The running size of a variable-shape result over one batch, refused past
/// [`max_batch_bytes`] as its rows' shapes become known, before their values
/// are computed (`udf::check_batch_bytes` does this at once for fixed-shape results, whose size
/// the type gives).
#[derive(Debug)]
pub(crate) struct ResultBudget<'a> {
    name: &'a str,
    element: &'a arrow::datatypes::DataType,
    width: usize,
    limit: usize,
    elements: usize,
}

impl<'a> ResultBudget<'a> {
    /// A budget for the result of `name`, of `element`s, under the session's limit.
    pub(crate) fn new(name: &'a str, element: &'a arrow::datatypes::DataType) -> Self {
        Self {
            name,
            element,
            width: element.primitive_width().unwrap_or(1),
            limit: max_batch_bytes(),
            elements: 0,
        }
    }

    /// Counts `elements` more (the result's values up to `row` of the batch).
    pub(crate) fn add(&mut self, elements: usize, row: usize) -> datafusion::error::Result<()> {
        self.elements = self.elements.saturating_add(elements);
        let bytes = self.elements.saturating_mul(self.width);
        if bytes <= self.limit {
            return Ok(());
        }
        datafusion::common::exec_err!(
            "{}: the result of this batch would take more than {} bytes ({} {} elements up to row {row} of its batch), more than the limit of {} bytes per batch; lower datafusion.execution.batch_size, or raise the limit with SET tensor.max_batch_bytes, or DATAFUSION_TENSOR_MAX_BATCH_BYTES",
            self.name,
            self.limit,
            self.elements,
            self.element,
            self.limit
        )
    }
}
