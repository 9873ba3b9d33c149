//! DataFusion errors as Python exceptions, with the message the CLI prints for them.

use datafusion::error::DataFusionError as Error;
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;

create_exception!(
    datafusion_tensor,
    DataFusionError,
    PyException,
    "A query failed; the message is the one the datafusion-tensor CLI prints."
);
create_exception!(
    datafusion_tensor,
    PlanError,
    DataFusionError,
    "What is wrong with the query: SQL syntax, unknown names, invalid arguments, a malformed index."
);
create_exception!(
    datafusion_tensor,
    ExecutionError,
    DataFusionError,
    "What is wrong with the data, found while the query ran (an index out of bounds in a row, an unreadable file)."
);

/// The exception for `err`: its class from the root cause, its message the error's whole text.
pub(crate) fn to_py(err: &Error) -> PyErr {
    let message = err.to_string();
    match err.find_root() {
        Error::Plan(_) | Error::SQL(..) | Error::SchemaError(..) | Error::NotImplemented(_) => {
            PlanError::new_err(message)
        }
        Error::Execution(_)
        | Error::ExecutionJoin(_)
        | Error::ArrowError(..)
        | Error::ParquetError(_)
        | Error::IoError(_)
        | Error::ObjectStore(_)
        | Error::ResourcesExhausted(_)
        | Error::External(_) => ExecutionError::new_err(message),
        _ => DataFusionError::new_err(message),
    }
}

/// Adds the exception classes to the module.
pub(crate) fn add_to_module(module: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = module.py();
    module.add("DataFusionError", py.get_type::<DataFusionError>())?;
    module.add("PlanError", py.get_type::<PlanError>())?;
    module.add("ExecutionError", py.get_type::<ExecutionError>())?;
    Ok(())
}
