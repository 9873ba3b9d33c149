//! The rows of a stack (`np.stack`): a batch's valid rows, all of one shape, and their values
//! put in an order.

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, FixedSizeListArray, UInt32Array, UInt64Array};
use arrow::compute::take;
use arrow::datatypes::Field;

use super::AggregateInput;
use crate::error::{Result, TensorError};
use crate::shape::format_shape;

/// The valid rows of `input` (their indices) and their row-major values, one after another;
/// every row's logical shape must be `shape`'s (set from the first row when `None`).
///
/// # Errors
/// A row of another shape, naming the row and both shapes (numpy's `np.stack` requires one).
pub fn stack_rows(
    input: &AggregateInput<'_>,
    shape: &mut Option<Vec<usize>>,
) -> Result<(UInt32Array, ArrayRef)> {
    let mut rows = Vec::new();
    let mut elements: Vec<u64> = Vec::new();
    // The kept rows' values, when they follow one another: (start, end).
    let mut contiguous: Option<(usize, usize)> = None;
    let mut gap = false;
    let mut row_shape = Vec::new();
    for row in 0..input.len() {
        if !input.is_valid(row) {
            continue;
        }
        let range = input.row(row, &mut row_shape);
        match shape {
            Some(first) if *first == row_shape => {}
            Some(first) => return Err(shape_mismatch(row, &row_shape, first)),
            None => *shape = Some(row_shape.clone()),
        }
        contiguous = match contiguous {
            None => Some((range.start, range.end)),
            Some((start, end)) if end == range.start => Some((start, range.end)),
            Some(whole) => {
                gap = true;
                Some(whole)
            }
        };
        let row = u32::try_from(row)
            .map_err(|_| TensorError::Data("too many rows in one batch".to_string()))?;
        rows.push(row);
        elements.extend(range.start as u64..range.end as u64);
    }
    let values = match contiguous {
        Some((start, end)) if !gap => input.values().slice(start, end - start),
        None => input.values().slice(0, 0),
        Some(_) => take(input.values().as_ref(), &UInt64Array::from(elements), None)?,
    };
    Ok((UInt32Array::from(rows), values))
}

/// The error of a row (of its batch) whose logical shape is not the stacked rows' `first`.
pub fn shape_mismatch(row: usize, row_shape: &[usize], first: &[usize]) -> TensorError {
    TensorError::Data(format!(
        "row {row} of its batch has shape {}, but the stacked rows have shape {} (all input arrays must have the same shape)",
        format_shape(row_shape),
        format_shape(first)
    ))
}

/// `values` (rows of `size` values each) with the rows in the order `order`.
///
/// # Errors
/// An Arrow error (values that are not whole rows).
pub fn reorder_rows(values: &ArrayRef, size: usize, order: &UInt32Array) -> Result<ArrayRef> {
    // `order` is a permutation of every row.
    let rows = order.len();
    let list = FixedSizeListArray::try_new_with_length(
        Arc::new(Field::new_list_field(values.data_type().clone(), true)),
        i32::try_from(size).map_err(|_| TensorError::Data("tensor too large".to_string()))?,
        Arc::clone(values),
        None,
        rows,
    )?;
    let taken = take(&list, order, None)?;
    let taken = taken
        .as_any()
        .downcast_ref::<FixedSizeListArray>()
        .ok_or_else(|| TensorError::Internal("take of a FixedSizeList".to_string()))?;
    Ok(Arc::clone(taken.values()))
}
