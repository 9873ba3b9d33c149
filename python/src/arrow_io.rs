//! Arrow data across the boundary through the Arrow `PyCapsule` interface: a stream in from
//! anything with `__arrow_c_stream__` (pyarrow tables and readers, polars, pandas through
//! pyarrow), a stream or a schema out to pyarrow. Extension types travel as the field
//! metadata the C data interface carries, so `arrow.fixed_shape_tensor` columns arrive as
//! tensors and leave as `pyarrow.FixedShapeTensorType`.

use std::ffi::CStr;

use arrow::array::{RecordBatch, RecordBatchIterator, RecordBatchReader};
use arrow::datatypes::SchemaRef;
use arrow::error::ArrowError;
use arrow::ffi::FFI_ArrowSchema;
use arrow::ffi_stream::{ArrowArrayStreamReader, FFI_ArrowArrayStream};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyCapsule;

use crate::errors::to_py;

/// The capsule names of the Arrow `PyCapsule` interface.
const STREAM_CAPSULE: &CStr = c"arrow_array_stream";
const SCHEMA_CAPSULE: &CStr = c"arrow_schema";

/// An Arrow error as the exception the DataFusion error around it would give.
pub(crate) fn arrow_error(err: ArrowError) -> PyErr {
    to_py(&datafusion::error::DataFusionError::ArrowError(
        Box::new(err),
        None,
    ))
}

/// Reads every batch of `data`'s Arrow C stream (`data.__arrow_c_stream__()`).
pub(crate) fn read_stream(data: &Bound<'_, PyAny>) -> PyResult<(SchemaRef, Vec<RecordBatch>)> {
    if !data.hasattr("__arrow_c_stream__")? {
        return Err(PyTypeError::new_err(format!(
            "expected Arrow data with __arrow_c_stream__ (a pyarrow Table or RecordBatchReader, a polars DataFrame, ...), got {}",
            data.get_type().name()?
        )));
    }
    let capsule = data.call_method0("__arrow_c_stream__")?;
    let capsule = capsule
        .cast::<PyCapsule>()
        .map_err(|_| PyTypeError::new_err("__arrow_c_stream__ did not return a PyCapsule"))?;
    let pointer = capsule.pointer_checked(Some(STREAM_CAPSULE))?;
    // SAFETY: a capsule named `arrow_array_stream` holds an `ArrowArrayStream` (the Arrow
    // PyCapsule interface). `from_raw` moves the stream out and leaves a released one behind,
    // which the capsule's destructor then skips, as the interface requires of a consumer.
    let reader = unsafe {
        ArrowArrayStreamReader::from_raw(pointer.as_ptr().cast::<FFI_ArrowArrayStream>())
    }
    .map_err(arrow_error)?;
    let schema = reader.schema();
    let batches = reader
        .collect::<Result<Vec<_>, ArrowError>>()
        .map_err(arrow_error)?;
    Ok((schema, batches))
}

/// `batches` as an `arrow_array_stream` capsule (what `__arrow_c_stream__` returns).
pub(crate) fn stream_capsule(
    py: Python<'_>,
    schema: SchemaRef,
    batches: Vec<RecordBatch>,
) -> PyResult<Bound<'_, PyCapsule>> {
    let reader: Box<dyn RecordBatchReader + Send> = Box::new(RecordBatchIterator::new(
        batches.into_iter().map(Ok),
        schema,
    ));
    // The capsule owns the stream; a consumer moves it out, and dropping what is left releases
    // a stream nobody consumed.
    PyCapsule::new_with_value(py, FFI_ArrowArrayStream::new(reader), STREAM_CAPSULE)
}

/// `schema` as an `arrow_schema` capsule (what `__arrow_c_schema__` returns).
pub(crate) fn schema_capsule<'py>(
    py: Python<'py>,
    schema: &SchemaRef,
) -> PyResult<Bound<'py, PyCapsule>> {
    let schema = FFI_ArrowSchema::try_from(schema.as_ref())
        .map_err(|err| PyValueError::new_err(err.to_string()))?;
    PyCapsule::new_with_value(py, schema, SCHEMA_CAPSULE)
}
