//! The operands of the linear-algebra functions for one batch, fixed-shape, variable-shape or
//! numbers alike, read row by row as [`RowTensor`]s (each row's start in its values, its
//! logical shape and strides through [`crate::kernels::rows::RowPlans`]; a literal's one row
//! serves every row, uncopied); their values cast to the computing type once per batch; and a
//! variable-shape result from its values and each row's shape.

use std::sync::Arc;

use arrow::array::ArrayRef;
use arrow::buffer::NullBuffer;
use arrow::compute::cast;
use arrow::datatypes::DataType;
use datafusion::common::exec_err;
use datafusion::error::Result;
use datafusion::logical_expr::ColumnarValue;

use crate::kernels::ragged::from_values_and_shapes;
use crate::kernels::rows::RowTensor;
use crate::udf::batch_args::{BatchArg, evaluate};
use crate::udf::rows::{row_tensor, view_of};
use crate::variable_shape::{AnyTensorType, VariableShapeArray, VariableShapeType};

/// The batch of each operand (at argument positions `data` of `args`): a column as it is, a
/// literal as its one row.
pub(crate) fn batch_args(
    name: &str,
    args: &[ColumnarValue],
    data: &[usize],
) -> Result<Vec<BatchArg>> {
    data.iter()
        .map(|&i| match args.get(i) {
            Some(value) => evaluate(value, 1, false),
            None => exec_err!("{name}: argument {i} is missing"),
        })
        .collect()
}

/// The variable-shape operands' batches viewed (their row shapes checked), `None` for the
/// others.
pub(crate) fn views<'a>(
    name: &str,
    operands: &[AnyTensorType],
    batches: &'a [BatchArg],
) -> Result<Vec<Option<VariableShapeArray<'a>>>> {
    operands
        .iter()
        .zip(batches)
        .map(|(operand, batch)| view_of(name, operand, &batch.array))
        .collect()
}

/// Each operand read row by row over `rows` rows (a literal's one row for every row; a number
/// a 0-d tensor per row), and the rows NULL in any of them.
pub(crate) fn readers<'a>(
    name: &str,
    operands: &[AnyTensorType],
    batches: &'a [BatchArg],
    views: &'a [Option<VariableShapeArray<'a>>],
    rows: usize,
) -> Result<(Vec<RowTensor<'a>>, Option<NullBuffer>)> {
    let mut readers = Vec::with_capacity(operands.len());
    let mut nulls: Option<NullBuffer> = None;
    for ((operand, batch), view) in operands.iter().zip(batches).zip(views) {
        let reader = row_tensor(name, operand, &batch.array, view.as_ref(), false)?;
        let reader = if batch.literal {
            reader.repeated(rows)
        } else {
            reader
        };
        nulls = NullBuffer::union(nulls.as_ref(), reader.nulls());
        readers.push(reader);
    }
    Ok((readers, nulls))
}

/// `nulls` with every row that holds a NULL element in one of `readers` made NULL: for the
/// functions whose result depends on the whole row (a decomposition, a norm), as numpy's NaN
/// would spread through it. `nulls` itself where no reader has NULL elements.
pub(crate) fn with_null_element_rows(
    readers: &[RowTensor<'_>],
    nulls: Option<NullBuffer>,
    rows: usize,
) -> Option<NullBuffer> {
    let mut out = nulls;
    for reader in readers {
        let Some(elements) = reader.values().nulls().filter(|n| n.null_count() > 0) else {
            continue;
        };
        let valid: Vec<bool> = (0..rows)
            .map(|row| {
                let (start, len) = reader.span(row);
                (start..start + len).all(|i| elements.is_valid(i))
            })
            .collect();
        out = NullBuffer::union(out.as_ref(), Some(&NullBuffer::from(valid)));
    }
    out
}

/// A reader's values in `to` (borrowed when they are of that type).
pub(crate) fn values_as(reader: &RowTensor<'_>, to: &DataType) -> Result<ArrayRef> {
    let values = reader.values();
    if values.data_type() == to {
        Ok(Arc::clone(values))
    } else {
        Ok(cast(values, to)?)
    }
}

/// A variable-shape result from its values, row-major, and each row's shape (`ndim` dims per
/// row; a NULL row's are zeros and it holds no values).
pub(crate) fn variable_result(
    name: &str,
    variable: &VariableShapeType,
    values: &ArrayRef,
    shapes: &[usize],
    nulls: Option<&NullBuffer>,
    rows: usize,
) -> Result<ArrayRef> {
    let ndim = variable.ndim();
    let mut offsets = Vec::with_capacity(rows + 1);
    offsets.push(0usize);
    for row in 0..rows {
        let size: usize = shapes[row * ndim..(row + 1) * ndim].iter().product();
        offsets.push(offsets[row] + size);
    }
    let shapes: Vec<i64> = shapes.iter().map(|&d| d as i64).collect();
    let array = from_values_and_shapes(variable, values, &offsets, nulls, &shapes, None)
        .map_err(|e| e.in_function(name))?;
    Ok(Arc::new(array))
}
