//! Tensor arguments read row by row, each row in its own shape: a variable-shape column, a
//! fixed-shape one, or one number per row. Functions that broadcast several arguments per row
//! (`tensor_choose`, `tensor_take_along_axis`, `tensor_put_along_axis`) read them through
//! [`RowTensor`] once one of them is variable-shape; the rows of one combination of shapes
//! share one compiled plan ([`RowPlans`], keyed by every argument's physical shape). Their
//! broadcast is [`super::broadcast`]'s, the along-axis positions [`super::along_axis`]'s; the
//! results' NULL rows are padded here ([`pad_null_rows`]).

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, FixedSizeListArray, UInt64Array};
use arrow::buffer::NullBuffer;
use arrow::compute::take;

use super::layout;
use super::ragged::row_major_values;
use super::shape_plans::ShapePlans;
use crate::error::{Result, TensorError};
use crate::shape::row_major_strides;
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
    /// Every row is the batch's one row (a literal): `n` values from 0.
    Repeated(usize),
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

    /// The batch's one row (a literal's) read as each of `rows` rows, without copying it; a
    /// NULL one makes every row NULL.
    #[must_use]
    pub fn repeated(mut self, rows: usize) -> Self {
        let (_, n) = self.span(0);
        self.nulls = self
            .nulls
            .as_ref()
            .is_some_and(|nulls| nulls.is_null(0))
            .then(|| NullBuffer::new_null(rows));
        self.starts = Starts::Repeated(n);
        self
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

    /// The number of dimensions every row has (1 when read flattened).
    pub fn ndim(&self) -> usize {
        match &self.layout {
            _ if self.flat => 1,
            RowLayout::Variable { view, .. } => view.tensor().ndim(),
            RowLayout::Fixed { shape, .. } => shape.len(),
        }
    }

    /// How far apart consecutive rows start when they are evenly spaced (a fixed-shape
    /// column; 0 for one value serving every row); `None` for variable-shape rows.
    pub fn row_step(&self) -> Option<usize> {
        match &self.starts {
            Starts::Every(n) => Some(*n),
            Starts::Repeated(_) => Some(0),
            Starts::Offsets(_) => None,
        }
    }

    /// Where `row` starts in [`Self::values`], and how many values it holds there.
    pub fn span(&self, row: usize) -> (usize, usize) {
        match &self.starts {
            Starts::Every(n) => (row * n, *n),
            Starts::Offsets(offsets) => (offsets[row], offsets[row + 1] - offsets[row]),
            Starts::Repeated(n) => (0, *n),
        }
    }

    /// Appends what decides `row`'s layout (a variable row's physical shape) to `key`.
    pub fn push_key(&self, row: usize, key: &mut Vec<usize>) {
        if let RowLayout::Variable { view, .. } = &self.layout {
            let row = if matches!(self.starts, Starts::Repeated(_)) {
                0
            } else {
                row
            };
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

#[cfg(test)]
mod tests {
    use super::*;
    use arrow::array::{AsArray, Int32Array};
    use arrow::datatypes::Int32Type;

    #[test]
    fn a_literal_row_serves_every_row() {
        let reader = RowTensor::scalars(Arc::new(Int32Array::from(vec![7]))).repeated(3);
        assert_eq!(reader.span(2), (0, 1));
        assert!(reader.nulls().is_none());
        let reader = RowTensor::scalars(Arc::new(Int32Array::from(vec![None::<i32>]))).repeated(3);
        assert_eq!(reader.span(1), (0, 1));
        assert_eq!(reader.nulls().map(NullBuffer::null_count), Some(3));
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
}
