//! Moving whole batches of tensors between layouts: permuted storage to row-major values,
//! flat values to tensor arrays, tensors to nested lists.
//!
//! All of these work on the batch's whole values buffer at once. Where elements must move (a
//! permuted layout), the per-tensor gather offsets are computed once and arrow's `take`
//! applies them to every row; it handles every element type, bit-packed booleans and element
//! NULLs alike.

use std::sync::Arc;

use arrow::array::{
    Array, ArrayRef, AsArray, FixedSizeListArray, GenericListArray, Int64Array, ListArray,
    OffsetSizeTrait, UInt32Array, UInt64Array,
};
use arrow::buffer::{BooleanBuffer, NullBuffer, OffsetBuffer};
use arrow::compute::take;
use arrow::datatypes::{DataType, Field};
use arrow::error::ArrowError;

use crate::error::TensorError;
use crate::shape::{format_shape, strided_offsets};
use crate::tensor_type::TensorType;

/// The values of every row of `array` (of type `tensor`) in logical row-major order,
/// concatenated: `array.len() * tensor.size()` elements.
///
/// Row-major tensors are returned as they are stored (no copy); permuted ones are gathered.
pub fn row_major_values(
    tensor: &TensorType,
    array: &FixedSizeListArray,
) -> Result<ArrayRef, ArrowError> {
    let values = Arc::clone(array.values());
    if !tensor.is_permuted() {
        return Ok(values);
    }
    let offsets = strided_offsets(&tensor.logical_shape(), &tensor.logical_strides());
    gather_rows(&values, array.len(), tensor.size(), &offsets)
}

/// For each of `rows` consecutive blocks of `block` elements in `values`, the elements at
/// `offsets` within the block, in order.
pub fn gather_rows(
    values: &ArrayRef,
    rows: usize,
    block: usize,
    offsets: &[usize],
) -> Result<ArrayRef, ArrowError> {
    let total = rows
        .checked_mul(block)
        .ok_or_else(|| ArrowError::ComputeError("tensor batch too large".to_string()))?;
    // u32 indices halve the index buffer where they suffice.
    if u32::try_from(total).is_ok() {
        let indices = UInt32Array::from_iter_values((0..rows).flat_map(|row| {
            let base = row * block;
            offsets.iter().map(move |&k| (base + k) as u32)
        }));
        take(values.as_ref(), &indices, None)
    } else {
        let indices = UInt64Array::from_iter_values((0..rows).flat_map(|row| {
            let base = row * block;
            offsets.iter().map(move |&k| (base + k) as u64)
        }));
        take(values.as_ref(), &indices, None)
    }
}

/// A tensor array of type `tensor` from `len` rows of row-major `values` and the rows' NULLs.
pub fn tensor_array(
    tensor: &TensorType,
    values: ArrayRef,
    nulls: Option<NullBuffer>,
    len: usize,
) -> Result<FixedSizeListArray, ArrowError> {
    FixedSizeListArray::try_new_with_length(
        tensor.item_field(),
        tensor.list_size(),
        values,
        nulls,
        len,
    )
}

/// `values` with `nulls` added to its own (a NULL row makes a NULL value).
pub fn with_row_nulls(
    values: ArrayRef,
    nulls: Option<&NullBuffer>,
) -> Result<ArrayRef, ArrowError> {
    if nulls.is_none() {
        return Ok(values);
    }
    let nulls = NullBuffer::union(nulls, values.logical_nulls().as_ref());
    let data = values.to_data().into_builder().nulls(nulls).build()?;
    Ok(arrow::array::make_array(data))
}

/// The values of a `List` or `LargeList` array and its offsets as `usize` (one more than
/// rows: row `r` is `offsets[r]..offsets[r + 1]`); `None` for any other type.
pub fn list_parts(list: &dyn Array) -> Option<(ArrayRef, Vec<usize>)> {
    if let Some(list) = list.as_list_opt::<i32>() {
        let offsets = list.value_offsets().iter().map(|&o| o as usize).collect();
        return Some((Arc::clone(list.values()), offsets));
    }
    let list = list.as_list_opt::<i64>()?;
    let offsets = list.value_offsets().iter().map(|&o| o as usize).collect();
    Some((Arc::clone(list.values()), offsets))
}

/// `nulls` with every row also NULL that has a NULL among its elements of `values`
/// (`span(row)`: the row's start and length in `values`). An index with a NULL element names
/// no position, so its row has no result.
pub fn null_rows_of_elements(
    nulls: Option<NullBuffer>,
    values: &dyn Array,
    rows: usize,
    span: impl Fn(usize) -> (usize, usize),
) -> Option<NullBuffer> {
    let Some(element_nulls) = values.logical_nulls().filter(|n| n.null_count() > 0) else {
        return nulls;
    };
    let valid = BooleanBuffer::collect_bool(rows, |r| {
        let (start, len) = span(r);
        nulls.as_ref().is_none_or(|n| n.is_valid(r))
            && (start..start + len).all(|i| element_nulls.is_valid(i))
    });
    Some(NullBuffer::new(valid))
}

/// A function's output rows from their row-major `values`: tensors of type `output` with the
/// rows' NULLs, or, for a 0-d output (`None`), the values themselves, NULL where a row is.
pub fn output_rows(
    output: Option<&TensorType>,
    values: ArrayRef,
    nulls: Option<NullBuffer>,
    rows: usize,
) -> Result<ArrayRef, ArrowError> {
    match output {
        Some(tensor) => Ok(Arc::new(tensor_array(tensor, values, nulls, rows)?)),
        None => with_row_nulls(values, nulls.as_ref()),
    }
}

/// `rows` copies of `shape` as a `List<Int64>` column (`tensor_shape`), NULL where `nulls`
/// says.
pub fn repeated_shape(
    shape: &[usize],
    rows: usize,
    nulls: Option<NullBuffer>,
) -> Result<ListArray, ArrowError> {
    let values =
        Int64Array::from_iter_values((0..rows).flat_map(|_| shape.iter().map(|&d| d as i64)));
    let offsets = OffsetBuffer::from_lengths(std::iter::repeat_n(shape.len(), rows));
    ListArray::try_new(
        Arc::new(Field::new_list_field(DataType::Int64, true)),
        offsets,
        Arc::new(values),
        nulls,
    )
}

/// The rows of `array` as nested lists in logical order: a `[2, 3]` tensor becomes
/// `List<List<T>>` with two inner lists of three. A 0-d tensor becomes its element.
pub fn to_nested_list(
    tensor: &TensorType,
    array: &FixedSizeListArray,
) -> Result<ArrayRef, ArrowError> {
    let values = row_major_values(tensor, array)?;
    let shape = tensor.logical_shape();
    let rows = array.len();
    if shape.is_empty() {
        // A 0-d tensor's one element is the value; a NULL tensor is a NULL value.
        return with_row_nulls(values, array.nulls());
    }
    let total = rows.saturating_mul(tensor.size());
    if i32::try_from(total).is_err() {
        return Err(ArrowError::ComputeError(format!(
            "{total} tensor elements in one batch exceed what an Arrow List holds; use a smaller batch size"
        )));
    }
    // Build from the innermost dimension out: at axis `a` there are rows * prod(shape[..a])
    // lists of shape[a] items each.
    let mut current = values;
    for axis in (0..shape.len()).rev() {
        let lists = shape[..axis].iter().product::<usize>() * rows;
        let offsets = OffsetBuffer::from_lengths(std::iter::repeat_n(shape[axis], lists));
        let nulls = if axis == 0 {
            array.nulls().cloned()
        } else {
            None
        };
        let field = Arc::new(Field::new_list_field(current.data_type().clone(), true));
        current = Arc::new(ListArray::try_new(field, offsets, current, nulls)?);
    }
    Ok(current)
}

/// A tensor array of type `tensor` from a list column of flat row-major values: checks that
/// every non-NULL row holds `tensor.size()` values and lays them out as tensors.
pub fn from_list<O: OffsetSizeTrait>(
    tensor: &TensorType,
    list: &GenericListArray<O>,
) -> crate::error::Result<FixedSizeListArray> {
    let size = tensor.size();
    let offsets = list.value_offsets();
    let mut all_full = true;
    for (row, window) in offsets.windows(2).enumerate() {
        let len = (window[1] - window[0]).as_usize();
        if len != size {
            if list.is_valid(row) {
                return Err(TensorError::Data(format!(
                    "row {row} of its batch holds {len} values, but shape {} needs {size}",
                    format_shape(tensor.physical_shape())
                )));
            }
            all_full = false;
        }
    }
    let rows = list.len();
    let start = offsets[0].as_usize();
    if all_full {
        // Every row, NULL ones included, is exactly one tensor long: reuse the values.
        let values = list.values().slice(start, rows * size);
        return Ok(tensor_array(tensor, values, list.nulls().cloned(), rows)?);
    }
    // Some NULL rows are shorter: gather the valid rows, NULL placeholders for the others.
    let indices: UInt64Array = offsets
        .windows(2)
        .enumerate()
        .flat_map(|(row, window)| {
            let first = window[0].as_usize() as u64;
            let valid = list.is_valid(row);
            (0..size as u64).map(move |k| valid.then_some(first + k))
        })
        .collect();
    let values = take(list.values().as_ref(), &indices, None)?;
    Ok(tensor_array(tensor, values, list.nulls().cloned(), rows)?)
}

/// A nested list value (one row of a `List`/`LargeList` array, e.g. the literal `[[1, 2], [3, 4]]`)
/// as numpy's `np.array` reads it: the tensor type (shape from the regular nesting, element
/// type from the innermost values; `[]` is an empty Float64 tensor, as in numpy) and its
/// row-major values. `None` when `list` is not a list or its innermost values are not tensor
/// elements (strings, structs); a NULL sub-list or a ragged nesting is numpy's
/// "inhomogeneous shape" error.
pub fn nested_list_tensor(
    list: &dyn Array,
    row: usize,
) -> crate::error::Result<Option<(TensorType, ArrayRef)>> {
    let Some((values, offsets)) = list_parts(list) else {
        return Ok(None);
    };
    let (mut start, mut end) = (offsets[row], offsets[row + 1]);
    let mut shape = vec![end - start];
    let mut current = values;
    while let Some((values, offsets)) = list_parts(current.as_ref()) {
        // Every sub-list of this level must be valid and as long as the first.
        let count = end - start;
        let len = if count == 0 {
            0
        } else {
            offsets[start + 1] - offsets[start]
        };
        let ragged = (start..end).any(|i| current.is_null(i) || offsets[i + 1] - offsets[i] != len);
        if ragged {
            return Err(TensorError::Shape(format!(
                "setting an array element with a sequence. The requested array has an inhomogeneous shape after {} dimensions. The detected shape was {} + inhomogeneous part.",
                shape.len(),
                format_shape(&shape)
            )));
        }
        (start, end) = (offsets[start], offsets[end]);
        shape.push(len);
        current = values;
    }
    let flat = current.slice(start, end - start);
    let flat = match flat.data_type() {
        DataType::Null => arrow::array::new_null_array(&DataType::Float64, flat.len()),
        t if crate::tensor_type::is_element_type(t) => flat,
        _ => return Ok(None),
    };
    let tensor = TensorType::new(flat.data_type().clone(), shape)?;
    Ok(Some((tensor, flat)))
}

/// A list column as a `FixedSizeList` of `length` (a 1-d tensor per row), numpy's broadcasting
/// of each row: a row of `length` values as it is, a row of one value repeated; a NULL row
/// stays NULL. Any other length is an error naming the row.
pub fn broadcast_list(list: &dyn Array, length: usize) -> crate::error::Result<FixedSizeListArray> {
    let Some((values, offsets)) = list_parts(list) else {
        return Err(TensorError::Internal(format!(
            "a list column was expected, got {}",
            list.data_type()
        )));
    };
    let mut indices = Vec::with_capacity(list.len() * length);
    for row in 0..list.len() {
        let (start, len) = (offsets[row], offsets[row + 1] - offsets[row]);
        if list.is_null(row) {
            indices.extend(std::iter::repeat_n(None, length));
        } else if len == length {
            indices.extend((start..start + len).map(|i| Some(i as u64)));
        } else if len == 1 {
            indices.extend(std::iter::repeat_n(Some(start as u64), length));
        } else {
            return Err(TensorError::Data(format!(
                "row {row} of its batch: operands could not be broadcast together with shapes ({len},) ({length},)"
            )));
        }
    }
    let values = take(values.as_ref(), &UInt64Array::from(indices), None)?;
    let field = Arc::new(Field::new_list_field(values.data_type().clone(), true));
    let size = i32::try_from(length)
        .map_err(|_| TensorError::Internal(format!("list length {length} too large")))?;
    Ok(FixedSizeListArray::try_new(
        field,
        size,
        values,
        list.nulls().cloned(),
    )?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_rows_broadcast_to_a_length() {
        let list = ListArray::from_iter_primitive::<arrow::datatypes::Int64Type, _, _>(vec![
            Some(vec![Some(1), Some(2), Some(3)]),
            Some(vec![Some(7)]),
            None,
            Some(vec![Some(4), None, Some(6)]),
        ]);
        let fixed = broadcast_list(&list, 3).unwrap();
        assert_eq!(fixed.value_length(), 3);
        assert!(fixed.is_null(2));
        let values = fixed.values().as_primitive::<arrow::datatypes::Int64Type>();
        let row = |r: usize| {
            (0..3)
                .map(|k| values.is_valid(r * 3 + k).then(|| values.value(r * 3 + k)))
                .collect::<Vec<_>>()
        };
        assert_eq!(row(0), [Some(1), Some(2), Some(3)]);
        assert_eq!(row(1), [Some(7), Some(7), Some(7)]);
        assert_eq!(row(3), [Some(4), None, Some(6)]);
        let err = broadcast_list(&list, 2).unwrap_err().to_string();
        assert!(
            err.contains(
                "row 0 of its batch: operands could not be broadcast together with shapes (3,) (2,)"
            ),
            "{err}"
        );
    }
    use arrow::array::{BooleanArray, Int32Array};
    use arrow::datatypes::DataType;
    use arrow::util::display::{ArrayFormatter, FormatOptions};

    fn show(array: &dyn Array) -> Vec<String> {
        let formatter = ArrayFormatter::try_new(array, &FormatOptions::default()).unwrap();
        (0..array.len())
            .map(|i| formatter.value(i).to_string())
            .collect()
    }

    #[test]
    fn permuted_values_come_out_in_logical_order() {
        // physical [2, 3] = [[0, 1, 2], [3, 4, 5]], permutation [1, 0]: logical is the
        // transpose [[0, 3], [1, 4], [2, 5]] (numpy: np.arange(6).reshape(2, 3).T).
        let tensor = TensorType::new(DataType::Int32, vec![2, 3])
            .unwrap()
            .with_permutation(Some(vec![1, 0]))
            .unwrap();
        let values: ArrayRef = Arc::new(Int32Array::from_iter_values(0..12));
        let array = tensor_array(&tensor, values, None, 2).unwrap();
        let out = row_major_values(&tensor, &array).unwrap();
        assert_eq!(
            show(out.as_ref()),
            ["0", "3", "1", "4", "2", "5", "6", "9", "7", "10", "8", "11"]
        );
        let nested = to_nested_list(&tensor, &array).unwrap();
        assert_eq!(
            show(nested.as_ref()),
            ["[[0, 3], [1, 4], [2, 5]]", "[[6, 9], [7, 10], [8, 11]]"]
        );
    }

    #[test]
    fn nested_lists_keep_nulls_and_empty_dims() {
        let tensor = TensorType::new(DataType::Boolean, vec![2, 0]).unwrap();
        let values: ArrayRef = Arc::new(BooleanArray::from(Vec::<bool>::new()));
        let nulls = NullBuffer::from(vec![true, false]);
        let array = tensor_array(&tensor, values, Some(nulls), 2).unwrap();
        let nested = to_nested_list(&tensor, &array).unwrap();
        assert_eq!(show(nested.as_ref()), ["[[], []]", ""]);
        assert!(nested.is_null(1));
    }

    #[test]
    fn zero_dimensional_tensors_become_scalars() {
        let tensor = TensorType::new(DataType::Int32, vec![]).unwrap();
        let values: ArrayRef = Arc::new(Int32Array::from(vec![Some(7), None, Some(9)]));
        let nulls = NullBuffer::from(vec![true, true, false]);
        let array = tensor_array(&tensor, values, Some(nulls), 3).unwrap();
        let out = to_nested_list(&tensor, &array).unwrap();
        assert_eq!(out.data_type(), &DataType::Int32);
        assert_eq!(show(out.as_ref()), ["7", "", ""]);
        assert_eq!(out.null_count(), 2);
    }
}

#[cfg(test)]
mod from_list_tests {
    use super::*;
    use arrow::array::{Int32Array, ListArray};
    use arrow::buffer::{NullBuffer, OffsetBuffer};
    use arrow::datatypes::{DataType, Field};

    #[test]
    fn short_null_rows_get_placeholders() {
        let tensor = TensorType::new(DataType::Int32, vec![2]).unwrap();
        let list = ListArray::new(
            Arc::new(Field::new_list_field(DataType::Int32, true)),
            OffsetBuffer::from_lengths([2, 0, 2]),
            Arc::new(Int32Array::from(vec![1, 2, 3, 4])),
            Some(NullBuffer::from(vec![true, false, true])),
        );
        let out = from_list(&tensor, &list).unwrap();
        assert_eq!(out.len(), 3);
        assert!(out.is_null(1));
        let values = out.values().as_primitive::<arrow::datatypes::Int32Type>();
        assert_eq!(values.value(0), 1);
        assert_eq!(values.value(4), 3);
        assert_eq!(values.value(5), 4);
    }

    #[test]
    fn wrong_length_names_the_row() {
        let tensor = TensorType::new(DataType::Int32, vec![2]).unwrap();
        let list = ListArray::new(
            Arc::new(Field::new_list_field(DataType::Int32, true)),
            OffsetBuffer::from_lengths([2, 3]),
            Arc::new(Int32Array::from(vec![1, 2, 3, 4, 5])),
            None,
        );
        let err = from_list(&tensor, &list).unwrap_err().to_string();
        assert!(
            err.contains("row 1 of its batch holds 3 values, but shape (2,) needs 2"),
            "{err}"
        );
    }
}
