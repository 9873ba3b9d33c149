//! What the functions that take a lambda over a tensor's elements share (`tensor_at_apply`,
//! `tensor_map`): the tensor argument, and the lambda's one parameter.

use arrow::datatypes::{Field, FieldRef};
use datafusion::common::plan_err;
use datafusion::error::Result;

use crate::variable_shape::AnyTensorType;

/// The tensor type of argument `x` of `name`; a plan error unless it is a tensor.
pub(crate) fn tensor_argument(name: &str, x: &Field) -> Result<AnyTensorType> {
    match AnyTensorType::from_field(x).map_err(|e| e.in_function(name))? {
        Some(tensor) => Ok(tensor),
        None => plan_err!("{name}: argument x must be a tensor, got {}", x.data_type()),
    }
}

/// The lambda's parameter: one element of the tensor `x`. Its number literals are weakly
/// typed ([`crate::rules::weak`]), as JAX types a Python scalar.
pub(crate) fn element_parameter(name: &str, x: &Field) -> Result<FieldRef> {
    let x = tensor_argument(name, x)?;
    Ok(crate::rules::weak::lambda_parameter(x.element_type()))
}
