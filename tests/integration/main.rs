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
mod fast_scan;
mod fuzz_replay;
mod interop;
mod interop_varshape;
mod limits;
mod operators;
mod properties;
mod properties_aggregate;
mod properties_linalg;
mod properties_math;
mod slt;
mod slt_runner;
