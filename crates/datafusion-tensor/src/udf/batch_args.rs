//! Data arguments evaluated for a batch as the kernels read them: a literal's one value serves
//! every row (row length 0), a column's values are read row by row; the row NULLs each
//! brings (a NULL literal: every row). For the functions that broadcast fixed-shape tensors,
//! columns and literals together (`tensor_choose`).

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, FixedSizeListArray};
use arrow::buffer::NullBuffer;
use datafusion::error::Result;
use datafusion::logical_expr::ColumnarValue;

/// One evaluated data argument: its values for the batch and how rows map onto them.
pub(crate) struct BatchArg {
    pub array: ArrayRef,
    /// Whether one value (a literal) serves every row.
    pub literal: bool,
}

/// An argument's values for a batch of `rows` rows: a literal as its one value (or, with
/// `expand`, repeated for every row), a column as it is.
pub(crate) fn evaluate(value: &ColumnarValue, rows: usize, expand: bool) -> Result<BatchArg> {
    Ok(match value {
        ColumnarValue::Array(array) => BatchArg {
            array: Arc::clone(array),
            literal: false,
        },
        ColumnarValue::Scalar(scalar) if expand => BatchArg {
            array: scalar.to_array_of_size(rows)?,
            literal: false,
        },
        ColumnarValue::Scalar(scalar) => BatchArg {
            array: scalar.to_array_of_size(1)?,
            literal: true,
        },
    })
}

/// The row NULLs of an argument: a literal NULL makes every row NULL.
pub(crate) fn row_nulls(arg: &BatchArg, rows: usize) -> Option<NullBuffer> {
    if arg.literal {
        arg.array.is_null(0).then(|| NullBuffer::new_null(rows))
    } else {
        arg.array.logical_nulls()
    }
}

/// The element values (for a tensor: the FixedSizeList's child) and elements per row (0 for a
/// literal); `name` is the function's, in errors.
pub(crate) fn elements(
    name: &str,
    operand_is_tensor: bool,
    arg: &BatchArg,
) -> Result<(ArrayRef, usize)> {
    if operand_is_tensor {
        let list = arg
            .array
            .as_any()
            .downcast_ref::<FixedSizeListArray>()
            .ok_or_else(|| {
                datafusion::common::exec_datafusion_err!(
                    "{name}: expected a tensor at run time, got {}",
                    arg.array.data_type()
                )
            })?;
        let size = usize::try_from(list.value_length()).unwrap_or(0);
        Ok((
            Arc::clone(list.values()),
            if arg.literal { 0 } else { size },
        ))
    } else {
        Ok((Arc::clone(&arg.array), usize::from(!arg.literal)))
    }
}
