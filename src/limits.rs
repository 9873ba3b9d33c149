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
//! Both are process-wide (the planner calls that compute result types see no session
//! configuration): set them with [`set_max_tensor_elements`] / [`set_max_batch_bytes`], or the
//! environment variables `DATAFUSION_TENSOR_MAX_ELEMENTS` / `DATAFUSION_TENSOR_MAX_BATCH_BYTES`
//! (read once, at the first check).

use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

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

/// The most elements one tensor (one row of a tensor column, or one index array) may have.
pub fn max_tensor_elements() -> usize {
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

/// Sets [`max_tensor_elements`] for the process (queries planned afterwards see it).
pub fn set_max_tensor_elements(n: usize) {
    MAX_ELEMENTS.store(n.min(UNSET - 1), Ordering::Relaxed);
}

/// Sets [`max_batch_bytes`] for the process.
pub fn set_max_batch_bytes(n: usize) {
    MAX_BATCH.store(n.min(UNSET - 1), Ordering::Relaxed);
}
