//! Tensor arguments read row by row, each row in its own shape: a variable-shape column, a
//! fixed-shape one, or one number per row. Functions that broadcast several arguments per row
//! (`tensor_choose`, `tensor_take_along_axis`, `tensor_put_along_axis`) read them through
//! [`RowTensor`] once one of them is variable-shape; the rows of one combination of shapes
//! share one compiled plan ([`RowPlans`], keyed by every argument's physical shape).

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, FixedSizeListArray, UInt32Array, UInt64Array};
use arrow::buffer::{NullBuffer, ScalarBuffer};
use arrow::compute::take;

use super::along_axis::{AxisOffsets, row_positions};
use super::layout;
use super::ragged::{ShapePlans, row_major_values};
use crate::error::{Result, TensorError};
use crate::shape::{assignment_offsets, row_major_strides};
use crate::tensor_type::TensorType;
use crate::variable_shape::VariableShapeArray;

/// How a row's elements are laid out in [`RowTensor::values`].
#[derive(Debug)]
enum RowLayout<'a> {
    /// Each row its own physical shape (read as stored, or from a row-major copy).
    Variable {
        view: &'a VariableShapeArray<'a>,
        row_major: bool,
    },
    /// One logical shape and strides for every row (a number per row: 0-d).
    Fixed {
        shape: Vec<usize>,
        strides: Vec<usize>,
    },
}

/// Where each row starts in [`RowTensor::values`].
#[derive(Debug)]
enum Starts {
    /// Row `r` holds `n` values from `r * n`.
    Every(usize),
    /// Row `r` holds `offsets[r]..offsets[r + 1]`.
    Offsets(Vec<usize>),
}

/// One tensor argument of a batch, read row by row in its own logical shape.
#[derive(Debug)]
pub struct RowTensor<'a> {
    layout: RowLayout<'a>,
    values: ArrayRef,
    starts: Starts,
    nulls: Option<NullBuffer>,
    /// Read as numpy's flattened array (a 1-d row of its size; row-major layouts only).
    flat: bool,
}

impl<'a> RowTensor<'a> {
    /// A variable-shape batch read as stored (no copy).
    pub fn variable(view: &'a VariableShapeArray<'a>) -> Self {
        let (values, _) = view.batch_values();
        let mut offsets = Vec::with_capacity(view.len() + 1);
        offsets.push(0);
        for row in 0..view.len() {
            offsets.push(offsets[row] + view.stored_len(row));
        }
        Self {
            layout: RowLayout::Variable {
                view,
                row_major: false,
            },
            values,
            starts: Starts::Offsets(offsets),
            nulls: view.nulls().cloned(),
            flat: false,
        }
    }

    /// A variable-shape batch as a row-major copy of its logical rows (NULL rows hold none).
    pub fn variable_row_major(view: &'a VariableShapeArray<'a>) -> Result<Self> {
        let values = row_major_values(view)?;
        let mut offsets = Vec::with_capacity(view.len() + 1);
        offsets.push(0);
        for row in 0..view.len() {
            offsets.push(offsets[row] + view.value_range(row).len());
        }
        Ok(Self {
            layout: RowLayout::Variable {
                view,
                row_major: true,
            },
            values,
            starts: Starts::Offsets(offsets),
            nulls: view.nulls().cloned(),
            flat: false,
        })
    }

    /// A fixed-shape batch of type `tensor`, read as stored, or (`row_major`) from a
    /// row-major copy of its logical rows.
    pub fn fixed(tensor: &TensorType, list: &FixedSizeListArray, row_major: bool) -> Result<Self> {
        let shape = tensor.logical_shape();
        let (values, strides) = if row_major {
            let strides = row_major_strides(&shape);
            (layout::row_major_values(tensor, list)?, strides)
        } else {
            (Arc::clone(list.values()), tensor.logical_strides())
        };
        Ok(Self {
            layout: RowLayout::Fixed { shape, strides },
            values,
            starts: Starts::Every(tensor.size()),
            nulls: list.logical_nulls(),
            flat: false,
        })
    }

    /// One number per row (a 0-d tensor per row).
    pub fn scalars(values: ArrayRef) -> Self {
        Self {
            layout: RowLayout::Fixed {
                shape: Vec::new(),
                strides: Vec::new(),
            },
            nulls: values.logical_nulls(),
            values,
            starts: Starts::Every(1),
            flat: false,
        }
    }

    /// The same rows read as numpy's flattened arrays (for a row-major layout).
    #[must_use]
    pub fn flattened(mut self) -> Self {
        self.flat = true;
        self
    }

    /// The values rows read from.
    pub fn values(&self) -> &ArrayRef {
        &self.values
    }

    /// The NULL rows.
    pub fn nulls(&self) -> Option<&NullBuffer> {
        self.nulls.as_ref()
    }

    /// Where `row` starts in [`Self::values`], and how many values it holds there.
    pub fn span(&self, row: usize) -> (usize, usize) {
        match &self.starts {
            Starts::Every(n) => (row * n, *n),
            Starts::Offsets(offsets) => (offsets[row], offsets[row + 1] - offsets[row]),
        }
    }

    /// Appends what decides `row`'s layout (a variable row's physical shape) to `key`.
    pub fn push_key(&self, row: usize, key: &mut Vec<usize>) {
        if let RowLayout::Variable { view, .. } = &self.layout {
            key.extend(view.physical_shape(row));
        }
    }

    /// The logical shape and strides of a row, from the part of a [`RowPlans`] key that
    /// [`Self::push_key`] wrote (taken off the front of `key`).
    pub fn layout(&self, key: &mut &[usize]) -> (Vec<usize>, Vec<usize>) {
        let (shape, strides) = match &self.layout {
            RowLayout::Variable { view, row_major } => {
                let ndim = view.tensor().ndim().min(key.len());
                let (physical, rest) = key.split_at(ndim);
                *key = rest;
                let (shape, strides) = view.tensor().logical_layout(physical);
                if *row_major {
                    let strides = row_major_strides(&shape);
                    (shape, strides)
                } else {
                    (shape, strides)
                }
            }
            RowLayout::Fixed { shape, strides } => (shape.clone(), strides.clone()),
        };
        if self.flat {
            (vec![shape.iter().product()], vec![1])
        } else {
            (shape, strides)
        }
    }
}

/// Compiled plans keyed by the physical shapes of every [`RowTensor`] of a call.
#[derive(Debug)]
pub struct RowPlans<P> {
    plans: ShapePlans<P>,
    key: Vec<usize>,
}

impl<P> Default for RowPlans<P> {
    fn default() -> Self {
        Self {
            plans: ShapePlans::default(),
            key: Vec::new(),
        }
    }
}

impl<P> RowPlans<P> {
    /// The plan for `row`, compiled by `compile` from each tensor's logical shape and strides
    /// (in the order of `tensors`) the first time their shapes are seen; its errors name the
    /// row.
    pub fn get(
        &mut self,
        tensors: &[&RowTensor<'_>],
        row: usize,
        compile: impl FnOnce(&[(Vec<usize>, Vec<usize>)]) -> Result<P>,
    ) -> Result<&P> {
        self.key.clear();
        for tensor in tensors {
            tensor.push_key(row, &mut self.key);
        }
        self.plans.get(self.key.iter().copied(), |mut key| {
            let layouts: Vec<_> = tensors.iter().map(|t| t.layout(&mut key)).collect();
            compile(&layouts).map_err(|e| match e {
                TensorError::Shape(message) | TensorError::Index(message) => {
                    TensorError::Data(format!("{} at row {row} of its batch", message.trim_end()))
                }
                other => other,
            })
        })
    }
}

/// numpy's broadcast of dimensions known when a query is planned (`None`: differs between
/// rows), right-aligned: a dimension is known when every input's is, or when one input's is a
/// length other than 1 (the others must then be 1 or it, or the row fails). `None` when two
/// known lengths cannot broadcast.
pub fn known_broadcast(shapes: &[&[Option<usize>]]) -> Option<Vec<Option<usize>>> {
    let ndim = shapes.iter().map(|s| s.len()).max().unwrap_or(0);
    let mut out = Vec::with_capacity(ndim);
    for axis in 0..ndim {
        let dims = shapes
            .iter()
            .filter_map(|s| (axis + s.len()).checked_sub(ndim).map(|i| s[i]));
        let (mut known, mut unknown) = (1usize, false);
        for dim in dims {
            match dim {
                None => unknown = true,
                Some(1) => {}
                Some(d) if known == 1 || known == d => known = d,
                Some(_) => return None,
            }
        }
        out.push(if unknown && known == 1 {
            None
        } else {
            Some(known)
        });
    }
    Some(out)
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
    let ndim = match &spec.idx.layout {
        RowLayout::Variable { view, .. } => view.tensor().ndim(),
        RowLayout::Fixed { shape, .. } => shape.len(),
    };
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
                AxisOffsets::compile(t_shape, t_strides, i_shape, i_strides, spec.axis)?;
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

/// The values of `rows` rows, each of `n` values (NULL rows in `nulls` holding none), with
/// every NULL row padded to `n` NULLs: a fixed-shape output's values.
pub fn pad_null_rows(
    values: ArrayRef,
    n: usize,
    rows: usize,
    nulls: Option<&NullBuffer>,
) -> Result<ArrayRef> {
    let Some(nulls) = nulls.filter(|nulls| nulls.null_count() > 0 && n > 0) else {
        return Ok(values);
    };
    let mut next = 0u64;
    let indices: UInt64Array = (0..rows)
        .flat_map(|row| {
            let valid = nulls.is_valid(row);
            let start = next;
            if valid {
                next += n as u64;
            }
            (0..n as u64).map(move |k| valid.then_some(start + k))
        })
        .collect();
    Ok(take(values.as_ref(), &indices, None)?)
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
    use crate::variable_shape::VariableShapeType;
    use arrow::array::{AsArray, Int32Array, Int64Array, StructArray};
    use arrow::datatypes::{DataType, Field, Int32Type};

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

    #[test]
    fn null_rows_are_padded() {
        let values: ArrayRef = Arc::new(Int32Array::from(vec![1, 2]));
        let nulls = NullBuffer::from(vec![false, true]);
        let padded = pad_null_rows(values, 2, 2, Some(&nulls)).unwrap();
        let padded = padded.as_primitive::<Int32Type>();
        assert_eq!(padded.null_count(), 2);
        assert_eq!(&padded.values()[2..], &[1, 2]);
    }

    #[test]
    fn known_dimensions_broadcast() {
        let (a, b, c) = (
            [Some(3), None, Some(1)],
            [None, Some(1), Some(4)],
            [Some(5), Some(4)],
        );
        assert_eq!(
            known_broadcast(&[&a, &b]),
            Some(vec![Some(3), None, Some(4)])
        );
        // Right-aligned: c's 5 meets a's None and b's 1.
        assert_eq!(
            known_broadcast(&[&a, &b, &c]),
            Some(vec![Some(3), Some(5), Some(4)])
        );
        assert_eq!(known_broadcast(&[&[Some(2)], &[Some(3)]]), None);
    }
}
