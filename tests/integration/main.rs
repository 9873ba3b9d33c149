//! The integration tests, in one test binary: each test binary links all of DataFusion, so one
//! link serves them all. New tests go in a module here; a file directly under `tests/` would
//! be a binary of its own.
//!
//! `cargo test --test integration` runs them all; `cargo test --test integration -- slt::` the
//! sqllogictest suites of `sql/` (one test per file, see [`slt`]); `-- properties::` the
//! property tests, and so on: test names are `module::test`.

#[cfg(feature = "ballista")]
mod ballista;
mod cli;
mod docs;
mod fast_scan;
mod fuzz_replay;
mod interop;
mod interop_varshape;
mod limits;
mod nearest;
mod operators;
mod properties;
mod properties_aggregate;
mod properties_array_api;
mod properties_identities;
mod properties_linalg;
mod properties_math;
mod properties_search;
mod slt;
mod slt_runner;
mod sort_keys;

use std::alloc::{GlobalAlloc, Layout, System};

/// The most one allocation of this test binary may take. A reader that trusts a corrupt
/// file's counts (a page claiming 2^31 values, a row group of 2^40 rows, a byte range of 6 GB)
/// asks for more in one allocation; refused, the test fails at once ("memory allocation of N
/// bytes failed") instead of taking the machine's memory. No test needs more.
const MAX_ALLOCATION: usize = 1 << 30;

/// The system's allocator, refusing any one allocation past [`MAX_ALLOCATION`].
struct Bounded;

// SAFETY: every call is the system allocator's, or a refusal (a null pointer) that the
// `GlobalAlloc` contract allows.
unsafe impl GlobalAlloc for Bounded {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if layout.size() > MAX_ALLOCATION {
            return std::ptr::null_mut();
        }
        // SAFETY: the caller's layout, passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if layout.size() > MAX_ALLOCATION {
            return std::ptr::null_mut();
        }
        // SAFETY: the caller's layout, passed on.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System` with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > MAX_ALLOCATION {
            return std::ptr::null_mut();
        }
        // SAFETY: `ptr` was allocated by `System` with `layout`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Bounded = Bounded;
