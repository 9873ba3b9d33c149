//! numpy's `take_along_axis` / `put_along_axis` over a whole batch.
//!
//! The plan ([`AxisOffsets`]) holds, for every position of the broadcast index, where it sits
//! in `idx`'s row and where (but for the axis term) it reads or writes in `t`'s row; a batch
//! then only adds each checked index times the axis stride ([`element_positions`]), and the
//! take or put moves the elements at those positions of the batch's values buffer.
//!
//! On rows of their own shapes (a variable-shape argument, read as [`RowTensor`]s), the same
//! offsets are compiled once per combination of row shapes ([`along_positions`]).

use std::sync::Arc;

use arrow::array::{
    Array, ArrayRef, AsArray, BooleanBufferBuilder, PrimitiveArray, UInt32Array, UInt64Array,
};
use arrow::buffer::{BooleanBuffer, NullBuffer, ScalarBuffer};
use arrow::compute::take;
use arrow::datatypes::{ArrowPrimitiveType, DataType};
use arrow::error::ArrowError;

use super::rows::{RowPlans, RowTensor};
use super::{from_storage, to_storage};
use crate::error::{Result, TensorError};
use crate::index::wrap_index;
use crate::limits::Limits;
use crate::shape::{assignment_offsets, broadcast_along_axis, broadcast_offsets};

/// Where each position of the broadcast index reads or writes, compiled from the shapes.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AxisOffsets {
    /// For each broadcast position: offset in `idx`'s row.
    pub index: Vec<u32>,
    /// For each broadcast position: offset in `t`'s row without the axis term.
    pub input: Vec<u32>,
    /// Elements per row of `idx`.
    pub index_len: usize,
    /// Elements per row of `t`.
    pub input_len: usize,
    /// `t`'s length along the axis (what an index is checked against).
    pub dim: usize,
    /// `t`'s stride along the axis.
    pub stride: usize,
    /// For a permuted `t` whose row-major copy is addressed (the put writes one): the
    /// row-major offset of each stored offset ([`crate::shape::logical_of_stored`]).
    pub logical_of_stored: Option<Vec<usize>>,
}

impl AxisOffsets {
    /// The offsets of `t` (logical `t_shape` read through `t_strides`) indexed along `axis` by
    /// `idx` (logical `i_shape` through `i_strides`), and the broadcast index shape (numpy's
    /// `take_along_axis` result shape); numpy's error when the shapes do not broadcast off
    /// the axis, or broadcast to more elements than `limits` allow (checked before the
    /// offsets are allocated). `logical_of_stored` is left out (`None`).
    pub fn compile(
        t_shape: &[usize],
        t_strides: &[usize],
        i_shape: &[usize],
        i_strides: &[usize],
        axis: usize,
        limits: &Limits,
    ) -> Result<(Vec<usize>, Self)> {
        let shape = broadcast_along_axis(t_shape, i_shape, axis)?;
        limits.checked_size(&shape)?;
        let index = broadcast_offsets(i_shape, i_strides, &shape);
        // t read through the broadcast shape, the axis term left out (added per element).
        let mut t_like = t_shape.to_vec();
        t_like[axis] = 1;
        let mut t_axis_free = t_strides.to_vec();
        t_axis_free[axis] = 0;
        let input = broadcast_offsets(&t_like, &t_axis_free, &shape);
        let offsets = Self {
            index,
            input,
            index_len: i_shape.iter().product(),
            input_len: t_shape.iter().product(),
            dim: t_shape[axis],
            stride: t_strides[axis],
            logical_of_stored: None,
        };
        Ok((shape, offsets))
    }

    /// Positions per row: the broadcast index's size.
    pub fn len(&self) -> usize {
        self.index.len()
    }

    /// Whether the broadcast index is empty (nothing is read or written).
    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }
}

/// For each of `rows` rows, the offset into the batch's values of `t` of every broadcast
/// position: `idx`'s element there wrapped (negative from the end) and checked, times the axis
/// stride, plus the position's offset off the axis. `idx` holds `rows * plan.index_len`
/// values. NULL rows (`nulls`) are not checked and hold placeholders (0) that the take and put
/// never read (an empty `t` has no element 0).
pub fn element_positions(
    plan: &AxisOffsets,
    idx: &[i64],
    rows: usize,
    nulls: Option<&NullBuffer>,
    axis: usize,
) -> Result<Vec<u64>> {
    let n = plan.len();
    let mut out = vec![0u64; rows * n];
    for row in 0..rows {
        if nulls.is_some_and(|nulls| nulls.is_null(row)) {
            continue;
        }
        let idx_row = &idx[row * plan.index_len..(row + 1) * plan.index_len];
        let target = &mut out[row * n..(row + 1) * n];
        row_positions(plan, idx_row, row * plan.input_len, axis, row, target)?;
    }
    Ok(out)
}

/// One row of [`element_positions`]: `idx_row` is the row's index values (read at
/// `plan.index`), `base` the row's start in `t`'s values, `out` the row's `plan.len()`
/// positions; an index out of bounds is numpy's error naming `row`.
pub fn row_positions(
    plan: &AxisOffsets,
    idx_row: &[i64],
    base: usize,
    axis: usize,
    row: usize,
    out: &mut [u64],
) -> Result<()> {
    for (k, target) in out.iter_mut().enumerate() {
        let value = idx_row[plan.index[k] as usize];
        let Some(position) = wrap_index(value, plan.dim) else {
            // numpy: IndexError: index 3 is out of bounds for axis 1 with size 3
            return Err(TensorError::OutOfBounds {
                value,
                axis,
                size: plan.dim,
                row: Some(row),
            });
        };
        let stored = plan.input[k] as usize + position * plan.stride;
        let logical = plan
            .logical_of_stored
            .as_ref()
            .map_or(stored, |table| table[stored]);
        *target = (base + logical) as u64;
    }
    Ok(())
}

/// The take: the elements of `values` at `positions`, `n` per row, every element type, NULL
/// elements kept; a NULL row's positions become NULL indices and are never read.
pub fn take_along_axis(
    values: &ArrayRef,
    positions: Vec<u64>,
    n: usize,
    rows: usize,
    nulls: Option<&NullBuffer>,
) -> Result<ArrayRef, ArrowError> {
    let index_nulls = nulls.map(|nulls| {
        NullBuffer::new(BooleanBuffer::collect_bool(rows * n, |i| {
            nulls.is_valid(i / n)
        }))
    });
    let indices = UInt64Array::new(ScalarBuffer::from(positions), index_nulls);
    take(values, &indices, None)
}

/// The values a put writes: `values` holds `value_len` elements per row (1 for a number), read
/// at `offsets` (one per broadcast position) in each row.
#[derive(Debug, Clone, Copy)]
pub struct PutValues<'a> {
    /// The values, already of `t`'s element type.
    pub values: &'a ArrayRef,
    /// Elements per row.
    pub value_len: usize,
    /// For each broadcast position: offset in the row.
    pub offsets: &'a [usize],
}

/// The put: `base` (the batch's row-major values of `t`) with `values` written at `positions`
/// (`n` per row) in order, NULL rows skipped. numpy assigns in order: where a position is
/// named twice, the last write wins. Each write also copies the value's validity when either
/// side has NULL elements. Booleans are written as 0/1 bytes.
pub fn put_along_axis(
    base: &ArrayRef,
    positions: &[u64],
    n: usize,
    rows: usize,
    nulls: Option<&NullBuffer>,
    values: PutValues<'_>,
) -> Result<ArrayRef, ArrowError> {
    if *base.data_type() == DataType::Boolean {
        let bytes = to_storage(values.values)?;
        let values = PutValues {
            values: &bytes,
            ..values
        };
        let out = put_along_axis(&to_storage(base)?, positions, n, rows, nulls, values)?;
        return from_storage(out, &DataType::Boolean);
    }
    let scatter = Scatter {
        positions,
        n,
        rows,
        nulls,
    };
    super::with_primitive_type!(base.data_type(), P => Ok(put_typed::<P>(base, &scatter, values)),
    _ => Err(ArrowError::InvalidArgumentError(format!(
        "unsupported element type {}",
        base.data_type()
    ))))
}

/// Where a put writes: the batch offset of each of the `n` index positions of every row.
struct Scatter<'a> {
    positions: &'a [u64],
    n: usize,
    rows: usize,
    nulls: Option<&'a NullBuffer>,
}

fn put_typed<P: ArrowPrimitiveType>(
    input: &ArrayRef,
    scatter: &Scatter<'_>,
    values: PutValues<'_>,
) -> ArrayRef {
    let input = input.as_primitive::<P>();
    let PutValues {
        values,
        value_len,
        offsets: value_offsets,
    } = values;
    let values = values.as_primitive::<P>();
    let mut out = input.values().to_vec();
    let mut validity = (input.null_count() > 0 || values.null_count() > 0).then(|| {
        let mut bits = BooleanBufferBuilder::new(out.len());
        match input.nulls() {
            Some(nulls) => bits.append_buffer(nulls.inner()),
            None => bits.append_n(out.len(), true),
        }
        bits
    });
    let n = scatter.n;
    for row in 0..scatter.rows {
        if n == 0 || scatter.nulls.is_some_and(|nulls| nulls.is_null(row)) {
            continue;
        }
        let positions = &scatter.positions[row * n..(row + 1) * n];
        let from = row * value_len;
        match validity.as_mut() {
            None => {
                for (&o, &v) in positions.iter().zip(value_offsets) {
                    out[o as usize] = values.value(from + v);
                }
            }
            Some(bits) => {
                for (&o, &v) in positions.iter().zip(value_offsets) {
                    let v = from + v;
                    out[o as usize] = values.value(v);
                    bits.set_bit(o as usize, values.is_valid(v));
                }
            }
        }
    }
    let nulls = validity.map(|mut bits| NullBuffer::new(bits.finish()));
    Arc::new(PrimitiveArray::<P>::new(ScalarBuffer::from(out), nulls))
}

/// One row's compiled take or put along an axis.
#[derive(Debug)]
struct AlongPlan {
    offsets: AxisOffsets,
    /// The broadcast index shape (the take's result shape).
    shape: Vec<usize>,
    /// For a put: the offset in the row's values of each broadcast position.
    value_offsets: Vec<usize>,
}

/// numpy's `take_along_axis` / `put_along_axis` on rows of their own shapes.
#[derive(Debug, Clone, Copy)]
pub struct AlongRows<'a> {
    /// The tensor taken from (as stored) or put into (row-major).
    pub t: &'a RowTensor<'a>,
    /// The index tensor.
    pub idx: &'a RowTensor<'a>,
    /// `idx`'s values as `Int64`.
    pub idx_values: &'a [i64],
    /// For a put: the values (row-major), broadcast to the index's shape.
    pub values: Option<&'a RowTensor<'a>>,
    /// The axis, normalised.
    pub axis: usize,
    /// The session's limits, which each row's broadcast index shape is checked against.
    pub limits: &'a Limits,
}

/// Where a batch's take reads or put writes.
#[derive(Debug, Default)]
pub struct AlongPositions {
    /// Each broadcast position's offset in `t`'s values, row after row (NULL rows: none).
    pub positions: Vec<u64>,
    /// For a put: each position's offset in the values' values.
    pub value_positions: Vec<usize>,
    /// Each row's broadcast index shape (NULL rows: zeros).
    pub shapes: Vec<i32>,
    /// Each row's number of positions (NULL rows: 0).
    pub lengths: Vec<usize>,
}

/// Every row's positions of a take or put along an axis, rows NULL in `nulls` left out: each
/// row's shapes broadcast (numpy's error naming the row when they do not), its indices wrapped
/// and checked (numpy's `IndexError` naming the row), one compiled plan per combination of
/// row shapes.
pub fn along_positions(
    spec: &AlongRows<'_>,
    rows: usize,
    nulls: Option<&NullBuffer>,
) -> Result<AlongPositions> {
    let mut tensors = vec![spec.t, spec.idx];
    tensors.extend(spec.values);
    let ndim = spec.idx.ndim();
    let mut plans: RowPlans<AlongPlan> = RowPlans::default();
    let mut out = AlongPositions::default();
    for row in 0..rows {
        if nulls.is_some_and(|n| n.is_null(row)) {
            out.shapes.extend(std::iter::repeat_n(0, ndim));
            out.lengths.push(0);
            continue;
        }
        let plan = plans.get(&tensors, row, |layouts| {
            let [(t_shape, t_strides), (i_shape, i_strides), rest @ ..] = layouts else {
                return Err(TensorError::Internal("along-axis operands".to_string()));
            };
            let (shape, offsets) =
                AxisOffsets::compile(
                t_shape,
                t_strides,
                i_shape,
                i_strides,
                spec.axis,
                spec.limits,
            )?;
            let value_offsets = match rest.first() {
                Some((v_shape, _)) => assignment_offsets(v_shape, &shape)?,
                None => Vec::new(),
            };
            Ok(AlongPlan {
                offsets,
                shape,
                value_offsets,
            })
        })?;
        let n = plan.offsets.len();
        let (idx_start, _) = spec.idx.span(row);
        let (t_start, _) = spec.t.span(row);
        let from = out.positions.len();
        out.positions.resize(from + n, 0);
        let idx_row = spec.idx_values.get(idx_start..).unwrap_or(&[]);
        row_positions(
            &plan.offsets,
            idx_row,
            t_start,
            spec.axis,
            row,
            &mut out.positions[from..],
        )?;
        if let Some(values) = spec.values {
            let (v_start, _) = values.span(row);
            out.value_positions
                .extend(plan.value_offsets.iter().map(|&o| v_start + o));
        }
        out.shapes.extend(plan.shape.iter().map(|&d| d as i32));
        out.lengths.push(n);
    }
    Ok(out)
}

/// The values of `values` at `positions` (a batch's take).
pub fn take_positions(values: &ArrayRef, positions: Vec<u64>) -> Result<ArrayRef> {
    if let Ok(positions) = positions
        .iter()
        .map(|&p| u32::try_from(p))
        .collect::<Result<Vec<u32>, _>>()
    {
        return Ok(take(values.as_ref(), &UInt32Array::from(positions), None)?);
    }
    let indices = UInt64Array::new(ScalarBuffer::from(positions), None);
    Ok(take(values.as_ref(), &indices, None)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::ragged::from_rows;
    use crate::tensor_type::TensorType;
    use crate::variable_shape::{VariableShapeArray, VariableShapeType};
    use arrow::array::{FixedSizeListArray, Int32Array, Int64Array, StructArray};
    use arrow::datatypes::{Field, Int32Type};

    /// `t` of shape [2, 3], `idx` of shape [2, 1], axis 1 (row-major, not permuted).
    fn plan() -> AxisOffsets {
        AxisOffsets {
            index: vec![0, 1],
            input: vec![0, 3],
            index_len: 2,
            input_len: 6,
            dim: 3,
            stride: 1,
            logical_of_stored: None,
        }
    }

    #[test]
    fn takes_and_puts_along_an_axis() {
        // np.take_along_axis([[10, 30, 20], [60, 40, 50]], [[2], [-3]], 1) == [[20], [60]]
        let positions = element_positions(&plan(), &[2, -3], 1, None, 1).unwrap();
        assert_eq!(positions, vec![2, 3]);
        let t: ArrayRef = Arc::new(Int32Array::from(vec![10, 30, 20, 60, 40, 50]));
        let taken = take_along_axis(&t, positions.clone(), 2, 1, None).unwrap();
        assert_eq!(taken.as_primitive::<Int32Type>().values(), &[20, 60]);
        let zero: ArrayRef = Arc::new(Int32Array::from(vec![0]));
        let values = PutValues {
            values: &zero,
            value_len: 1,
            offsets: &[0, 0],
        };
        let put = put_along_axis(&t, &positions, 2, 1, None, values).unwrap();
        assert_eq!(
            put.as_primitive::<Int32Type>().values(),
            &[10, 30, 0, 0, 40, 50]
        );
    }

    #[test]
    fn out_of_bounds_names_the_row() {
        let nulls = NullBuffer::from(vec![false, true]);
        // Row 0 is NULL and not checked; row 1's 3 is out of bounds for size 3.
        let err = element_positions(&plan(), &[9, 9, 0, 3], 2, Some(&nulls), 1).unwrap_err();
        assert!(matches!(
            err,
            TensorError::OutOfBounds {
                value: 3,
                row: Some(1),
                ..
            }
        ));
    }

    /// A variable-shape Int64 index: row 0 of shape (1, 1), row 1 of shape (2, 2).
    fn index(values: Vec<i64>) -> (VariableShapeType, StructArray) {
        let tensor = VariableShapeType::new(DataType::Int64, 2).unwrap();
        let array = from_rows(
            &tensor,
            Arc::new(Int64Array::from(values)),
            &[1, 4],
            vec![1, 1, 2, 2],
            None,
        )
        .unwrap();
        (tensor, array)
    }

    #[test]
    fn along_positions_follow_each_rows_shapes_and_name_the_row() {
        // t: two fixed-shape rows [[0, 1, 2], [3, 4, 5]] and [[6, 7, 8], [9, 10, 11]].
        let t_type = TensorType::new(DataType::Int32, vec![2, 3]).unwrap();
        let list = FixedSizeListArray::new(
            Arc::new(Field::new_list_field(DataType::Int32, true)),
            3 * 2,
            Arc::new(Int32Array::from_iter_values(0..12)),
            None,
        );
        let t = RowTensor::fixed(&t_type, &list, false).unwrap();
        let take = |values: Vec<i64>| {
            let (i_type, array) = index(values);
            let view = VariableShapeArray::try_new(&i_type, &array).unwrap();
            let idx = RowTensor::variable(&view);
            let idx_values = idx.values().as_primitive::<arrow::datatypes::Int64Type>();
            let spec = AlongRows {
                t: &t,
                idx: &idx,
                idx_values: idx_values.values(),
                values: None,
                axis: 1,
                limits: &Limits::default(),
            };
            along_positions(&spec, 2, None).map(|p| {
                let taken = take_positions(t.values(), p.positions).unwrap();
                let taken = taken.as_primitive::<Int32Type>().values().to_vec();
                (taken, p.shapes, p.lengths)
            })
        };
        // np.take_along_axis(t[0], [[-1]], 1) == [[2], [5]];
        // np.take_along_axis(t[1], [[0, 2], [1, 1]], 1) == [[6, 8], [10, 10]].
        let (taken, shapes, lengths) = take(vec![-1, 0, 2, 1, 1]).unwrap();
        assert_eq!(taken, vec![2, 5, 6, 8, 10, 10]);
        assert_eq!(shapes, vec![2, 1, 2, 2]);
        assert_eq!(lengths, vec![2, 4]);
        let err = take(vec![-1, 0, 3, 1, 1]).unwrap_err().to_string();
        assert_eq!(
            err,
            "index 3 is out of bounds for axis 1 with size 3 at row 1 of its batch"
        );
    }
}
