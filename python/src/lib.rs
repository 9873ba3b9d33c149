//! `datafusion_tensor._internal`, the native half of the Python package `datafusion_tensor`.
//!
//! A thin layer over the crate: the ready-made tensor session ([`context`]), its `DataFrame`s
//! ([`dataframe`]), Arrow data in and out through the Arrow C stream interface's capsules
//! ([`arrow_io`]: no per-row Python objects, no pyarrow dependency on the Rust side), the
//! functions and the tensor Parquet table for datafusion-python's FFI ([`interop`]), errors as
//! Python exceptions ([`errors`]) and queries run off the GIL and interruptible ([`runtime`]).
//! Docstrings and typing live in the pure-Python package on top (`python/datafusion_tensor`).

mod arrow_io;
mod context;
mod dataframe;
mod errors;
mod expr;
mod interop;
mod runtime;

use pyo3::prelude::*;

/// The allocator the CLI uses (see Cargo.toml): every Rust allocation of the module, Arrow
/// buffers handed to pyarrow included (they are freed through their release callbacks, by
/// this module).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The module `datafusion_tensor._internal`.
#[pymodule]
fn _internal(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<context::PySessionContext>()?;
    module.add_class::<dataframe::PyDataFrame>()?;
    module.add_class::<interop::PyTensorScalarUdf>()?;
    module.add_class::<interop::PyTensorAggregateUdf>()?;
    module.add_class::<interop::PyTensorParquetTable>()?;
    module.add_function(wrap_pyfunction!(interop::scalar_udfs, module)?)?;
    module.add_function(wrap_pyfunction!(interop::aggregate_udfs, module)?)?;
    expr::add_to_module(module)?;
    errors::add_to_module(module)?;
    Ok(())
}
