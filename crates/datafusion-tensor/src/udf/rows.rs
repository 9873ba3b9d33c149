//! Tensor arguments of either kind read row by row, for the functions that broadcast per row
//! once an argument is variable-shape (`tensor_choose`, `tensor_take_along_axis`,
//! `tensor_put_along_axis`): a batch viewed and read as [`RowTensor`]s, and the checks and
//! result type that need no row: the dimensions every row has, their broadcast, the result
//! type they fix.

use std::sync::Arc;

use arrow::array::ArrayRef;
use arrow::datatypes::DataType;
use datafusion::common::{exec_err, plan_err};
use datafusion::error::Result;

use super::{tensor_array, variable_array};
use crate::kernels::rows::RowTensor;
use crate::shape::known_broadcast;
use crate::tensor_type::TensorType;
use crate::variable_shape::{AnyTensorType, VariableShapeArray, VariableShapeType};

/// The logical dimensions of a tensor type that are the same in every row (all of a
/// fixed-shape one's).
pub(crate) fn known_shape(tensor: &AnyTensorType) -> Vec<Option<usize>> {
    match tensor {
        AnyTensorType::Fixed(t) => t.logical_shape().into_iter().map(Some).collect(),
        AnyTensorType::Variable(t) => t.logical_uniform_shape(),
    }
}

/// A shape with `?` for the dimensions that differ between rows, as numpy writes shapes.
pub(crate) fn format_known(shape: &[Option<usize>]) -> String {
    let dims: Vec<String> = shape
        .iter()
        .map(|d| d.map_or_else(|| "?".to_string(), |d| d.to_string()))
        .collect();
    if dims.len() == 1 {
        format!("({},)", dims[0])
    } else {
        format!("({})", dims.join(", "))
    }
}

/// The result type of rows whose logical dimensions are `known` where every row has the same
/// length: fixed-shape when all are, else variable-shape.
pub(crate) fn output_of_known(
    element: &DataType,
    known: &[Option<usize>],
    dim_names: Option<Vec<String>>,
) -> Result<AnyTensorType> {
    Ok(
        match known.iter().copied().collect::<Option<Vec<usize>>>() {
            Some(shape) => AnyTensorType::Fixed(
                TensorType::new(element.clone(), shape)?.with_dim_names(dim_names)?,
            ),
            None => AnyTensorType::Variable(
                VariableShapeType::new(element.clone(), known.len())?
                    .with_dim_names(dim_names)?
                    .with_uniform_shape(Some(known.to_vec()))?,
            ),
        },
    )
}

/// numpy's broadcast of the dimensions every row has (`None`: differs between rows), or the
/// plan error (naming the function `name`) when two of them cannot broadcast.
pub(crate) fn broadcast_known(
    name: &str,
    known: &[Vec<Option<usize>>],
) -> Result<Vec<Option<usize>>> {
    let refs: Vec<&[Option<usize>]> = known.iter().map(Vec::as_slice).collect();
    match known_broadcast(&refs) {
        Some(shape) => Ok(shape),
        None => {
            let shapes: Vec<String> = known.iter().map(|s| format_known(s)).collect();
            plan_err!(
                "{name}: shape mismatch: objects cannot be broadcast to a single shape: the dimensions every row has, {}, do not broadcast",
                shapes.join(", ")
            )
        }
    }
}

/// A tensor argument's batch viewed as variable-shape rows (`None` for a fixed-shape one).
pub(crate) fn view_of<'a>(
    name: &str,
    tensor: &AnyTensorType,
    array: &'a ArrayRef,
) -> Result<Option<VariableShapeArray<'a>>> {
    match tensor {
        AnyTensorType::Variable(t) => variable_array(name, t, array).map(Some),
        AnyTensorType::Fixed(_) => Ok(None),
    }
}

/// A tensor argument's batch read row by row (`view` from [`view_of`]), as stored or as a
/// row-major copy; a 0-d type of a non-tensor array is one number per row.
pub(crate) fn row_tensor<'a>(
    name: &str,
    tensor: &AnyTensorType,
    array: &'a ArrayRef,
    view: Option<&'a VariableShapeArray<'a>>,
    row_major: bool,
) -> Result<RowTensor<'a>> {
    Ok(match (tensor, view) {
        (_, Some(view)) if row_major => RowTensor::variable_row_major(view)?,
        (_, Some(view)) => RowTensor::variable(view),
        (AnyTensorType::Fixed(t), None)
            if t.ndim() == 0 && !matches!(array.data_type(), DataType::FixedSizeList(..)) =>
        {
            RowTensor::scalars(Arc::clone(array))
        }
        (AnyTensorType::Fixed(t), None) => {
            RowTensor::fixed(t, tensor_array(name, array)?, row_major)?
        }
        (AnyTensorType::Variable(_), None) => {
            return exec_err!("{name}: a variable-shape argument was not viewed");
        }
    })
}
