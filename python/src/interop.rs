//! The functions and the tensor Parquet table for datafusion-python 55, through datafusion-ffi
//! (`__datafusion_scalar_udf__`, `__datafusion_aggregate_udf__`,
//! `__datafusion_table_provider__` capsules).
//!
//! What datafusion-ffi 55.2 carries of a scalar function: its name, aliases, volatility,
//! argument coercion, return field (from argument fields and literal arguments) and invoke.
//! What it does not carry, and what follows (see docs/src/python.md):
//! - `simplify`: calls are not replaced by planned instances; each batch plans its call again
//!   (the plan is cheap next to a batch);
//! - parameter names and documentation: no keyword arguments (`mode => 'clip'`), nothing in
//!   `SHOW FUNCTIONS`; options go positionally;
//! - literal arguments at run time: invoke gets every argument as an array of the batch's
//!   length ([`FfiTensorUdf`] recovers them);
//! - higher-order functions: `tensor_choose`, `tensor_at_apply` and `tensor_map` (lambdas,
//!   variadic options) are not scalar UDFs and cannot cross;
//! - expression planners and analyzer / physical optimizer rules: list literals such as a
//!   shape `[2, 3]` are `make_array` calls, not literals, when datafusion-python plans them.

use std::cmp::Ordering;
use std::sync::Arc;

use arrow::array::{Array, ArrayRef, make_comparator, new_empty_array};
use arrow::compute::SortOptions;
use arrow::datatypes::{DataType, FieldRef};
use datafusion::catalog::TableProvider;
use datafusion::common::{ScalarValue, exec_err};
use datafusion::error::Result;
use datafusion::logical_expr::{
    AggregateUDF, ColumnarValue, ReturnFieldArgs, ScalarFunctionArgs, ScalarUDF, ScalarUDFImpl,
    Signature,
};
use datafusion_ffi::proto::logical_extension_codec::FFI_LogicalExtensionCodec;
use datafusion_ffi::table_provider::FFI_TableProvider;
use datafusion_ffi::udaf::FFI_AggregateUDF;
use datafusion_ffi::udf::FFI_ScalarUDF;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyCapsule;

use crate::context::register_tensor_parquet;
use crate::runtime::{runtime, wait_for};

/// A tensor function as it crosses datafusion-ffi.
///
/// datafusion-ffi expands literal arguments to arrays before invoking (`ForeignScalarUDF`),
/// while the functions read index strings, modes, shapes and options from literals. The
/// return field was planned with the literals (the FFI forwards them there); at invoke, each
/// argument that is not a tensor and holds one value in every row is taken as that literal
/// again, and the call is run so if planning it that way gives the same return field as the
/// call was planned for. Otherwise (a column that happens to be constant where it changes the
/// plan) the arguments are taken as written.
#[derive(Debug, PartialEq, Eq, Hash)]
struct FfiTensorUdf {
    inner: Arc<ScalarUDF>,
}

impl FfiTensorUdf {
    /// The call planned with `args`' scalars as literals, if it returns `return_field`.
    fn plans_as(
        &self,
        arg_fields: &[FieldRef],
        args: &[ColumnarValue],
        return_field: &FieldRef,
    ) -> bool {
        let scalars: Vec<Option<&ScalarValue>> = args
            .iter()
            .map(|arg| match arg {
                ColumnarValue::Scalar(value) => Some(value),
                ColumnarValue::Array(_) => None,
            })
            .collect();
        self.inner
            .return_field_from_args(ReturnFieldArgs {
                arg_fields,
                scalar_arguments: &scalars,
            })
            .is_ok_and(|field| field.data_type() == return_field.data_type())
    }
}

/// The value of every row of `array` when they are all equal (NULLs equal), else `None`.
fn constant_value(array: &ArrayRef) -> Option<ScalarValue> {
    if array.is_empty() || matches!(array.data_type(), DataType::FixedSizeList(..)) {
        return None;
    }
    let compare = make_comparator(array.as_ref(), array.as_ref(), SortOptions::default()).ok()?;
    (1..array.len())
        .all(|row| compare(0, row) == Ordering::Equal)
        .then(|| ScalarValue::try_from_array(array, 0).ok())
        .flatten()
}

impl ScalarUDFImpl for FfiTensorUdf {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn signature(&self) -> &Signature {
        self.inner.signature()
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        self.inner.coerce_types(arg_types)
    }

    fn return_type(&self, arg_types: &[DataType]) -> Result<DataType> {
        self.inner.return_type(arg_types)
    }

    fn return_field_from_args(&self, args: ReturnFieldArgs) -> Result<FieldRef> {
        self.inner.return_field_from_args(args)
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        if args.number_rows == 0 {
            return Ok(ColumnarValue::Array(new_empty_array(
                args.return_field.data_type(),
            )));
        }
        let literals: Vec<ColumnarValue> = args
            .args
            .iter()
            .map(|arg| match arg {
                ColumnarValue::Array(array) => match constant_value(array) {
                    Some(value) => ColumnarValue::Scalar(value),
                    None => arg.clone(),
                },
                ColumnarValue::Scalar(_) => arg.clone(),
            })
            .collect();
        let candidates = [literals, args.args.clone()];
        let Some(chosen) = candidates
            .into_iter()
            .find(|candidate| self.plans_as(&args.arg_fields, candidate, &args.return_field))
        else {
            // Planning it again fails: the error says why.
            let scalars = vec![None; args.args.len()];
            self.inner.return_field_from_args(ReturnFieldArgs {
                arg_fields: &args.arg_fields,
                scalar_arguments: &scalars,
            })?;
            return exec_err!(
                "{}: the call no longer plans to {}",
                self.name(),
                args.return_field.data_type()
            );
        };
        self.inner.invoke_with_args(ScalarFunctionArgs {
            args: chosen,
            ..args
        })
    }
}

/// One tensor function for datafusion-python:
/// `ctx.register_udf(datafusion.ScalarUDF.from_pycapsule(f))`.
#[pyclass(
    name = "TensorScalarUDF",
    module = "datafusion_tensor._internal",
    frozen
)]
pub(crate) struct PyTensorScalarUdf {
    udf: Arc<ScalarUDF>,
}

#[pymethods]
impl PyTensorScalarUdf {
    /// The SQL name.
    #[getter]
    fn name(&self) -> &str {
        self.udf.name()
    }

    fn __datafusion_scalar_udf__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyCapsule>> {
        PyCapsule::new_with_value(
            py,
            FFI_ScalarUDF::from(Arc::clone(&self.udf)),
            c"datafusion_scalar_udf",
        )
    }

    fn __repr__(&self) -> String {
        format!("TensorScalarUDF({})", self.udf.name())
    }
}

/// Every scalar tensor function, ready for datafusion-python's FFI (the higher-order
/// `tensor_choose` and `tensor_at_apply` are not scalar functions).
#[pyfunction]
pub(crate) fn scalar_udfs() -> Vec<PyTensorScalarUdf> {
    datafusion_tensor::udf::all_functions()
        .into_iter()
        .map(|udf| PyTensorScalarUdf {
            udf: Arc::new(ScalarUDF::new_from_impl(FfiTensorUdf {
                inner: Arc::new(udf),
            })),
        })
        .collect()
}

/// One tensor aggregate (`tensor_agg_sum`, ...) for datafusion-python:
/// `ctx.register_udaf(datafusion.AggregateUDF.from_pycapsule(f))`.
///
/// datafusion-ffi 55.2 carries an aggregate whole (return field from the argument fields,
/// accumulators, the groups accumulator, state fields, ordering): the only things lost are
/// its documentation and the analyzer rule refusing DISTINCT early; a DISTINCT call is
/// still refused, when its accumulator is made.
#[pyclass(
    name = "TensorAggregateUDF",
    module = "datafusion_tensor._internal",
    frozen
)]
pub(crate) struct PyTensorAggregateUdf {
    udaf: Arc<AggregateUDF>,
}

#[pymethods]
impl PyTensorAggregateUdf {
    /// The SQL name.
    #[getter]
    fn name(&self) -> &str {
        self.udaf.name()
    }

    fn __datafusion_aggregate_udf__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        PyCapsule::new_with_value(
            py,
            FFI_AggregateUDF::from(Arc::clone(&self.udaf)),
            c"datafusion_aggregate_udf",
        )
    }

    fn __repr__(&self) -> String {
        format!("TensorAggregateUDF({})", self.udaf.name())
    }
}

/// Every tensor aggregate, ready for datafusion-python's FFI.
#[pyfunction]
pub(crate) fn aggregate_udfs() -> Vec<PyTensorAggregateUdf> {
    datafusion_tensor::udf::aggregate_functions()
        .into_iter()
        .map(|udaf| PyTensorAggregateUdf {
            udaf: Arc::new(udaf),
        })
        .collect()
}

/// A Parquet table read by the tensor Parquet format (tensor metadata kept, files checked
/// against each other), for `datafusion.SessionContext.register_table(name, table)`.
#[pyclass(
    name = "TensorParquetTable",
    module = "datafusion_tensor._internal",
    frozen
)]
pub(crate) struct PyTensorParquetTable {
    table: Arc<dyn TableProvider>,
}

#[pymethods]
impl PyTensorParquetTable {
    #[new]
    #[pyo3(signature = (path, file_extension = ".parquet"))]
    fn new(py: Python<'_>, path: &str, file_extension: &str) -> PyResult<Self> {
        // Built by a tensor session of its own: its options are the ones the format needs.
        let ctx = datafusion_tensor::tensor_session_context()
            .map_err(|err| crate::errors::to_py(&err))?;
        let table = wait_for(py, async {
            register_tensor_parquet(&ctx, "t", path, file_extension).await?;
            ctx.table_provider("t").await
        })?;
        Ok(Self { table })
    }

    fn __datafusion_table_provider__<'py>(
        &self,
        py: Python<'py>,
        session: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        let codec = session_codec(session)?;
        let provider = FFI_TableProvider::new_with_ffi_codec(
            Arc::clone(&self.table),
            false,
            Some(runtime()?.handle().clone()),
            codec,
        );
        PyCapsule::new_with_value(py, provider, c"datafusion_table_provider")
    }
}

/// The logical extension codec of a datafusion-python session (its
/// `__datafusion_logical_extension_codec__` capsule, or that capsule itself).
fn session_codec(session: &Bound<'_, PyAny>) -> PyResult<FFI_LogicalExtensionCodec> {
    let attr = "__datafusion_logical_extension_codec__";
    let capsule = if session.hasattr(attr)? {
        session.call_method0(attr)?
    } else {
        session.clone()
    };
    let capsule = capsule.cast::<PyCapsule>().map_err(|_| {
        PyTypeError::new_err(
            "expected a datafusion.SessionContext (or its logical extension codec capsule)",
        )
    })?;
    let pointer = capsule.pointer_checked(Some(c"datafusion_logical_extension_codec"))?;
    // SAFETY: a capsule of that name holds an `FFI_LogicalExtensionCodec` (datafusion-python's
    // contract, checked by name above); it is cloned, not moved, so the capsule keeps its own.
    let codec = unsafe { pointer.cast::<FFI_LogicalExtensionCodec>().as_ref() };
    Ok(codec.clone())
}
