//! Variable-shape tensor batches (`arrow.variable_shape_tensor`): per-row shapes, logical
//! row-major values and nested lists, built once per batch from the values buffer.
//!
//! Rows of one physical shape share one compiled layout (a [`ShapePlans`] entry), so a batch
//! of images in a few sizes compiles a few gather lists, not one per row.

use std::collections::HashMap;
use std::sync::Arc;

use arrow::array::{Array, ArrayRef, Int64Array, ListArray, UInt32Array};
use arrow::buffer::OffsetBuffer;
use arrow::compute::take;
use arrow::datatypes::{DataType, Field};

use crate::error::{Result, TensorError};
use crate::kernels::layout::with_row_nulls;
use crate::shape::strided_offsets;
use crate::variable_shape::VariableShapeArray;

/// Compiled per-shape plans, keyed by a row's physical shape.
#[derive(Debug)]
pub struct ShapePlans<P> {
    plans: HashMap<Vec<usize>, P>,
    key: Vec<usize>,
}

impl<P> Default for ShapePlans<P> {
    fn default() -> Self {
        Self {
            plans: HashMap::new(),
            key: Vec::new(),
        }
    }
}

impl<P> ShapePlans<P> {
    /// The plan for a row of physical shape `shape`, compiled by `compile` the first time the
    /// shape is seen.
    pub fn get(
        &mut self,
        shape: impl Iterator<Item = usize>,
        compile: impl FnOnce(&[usize]) -> Result<P>,
    ) -> Result<&P> {
        self.key.clear();
        self.key.extend(shape);
        if !self.plans.contains_key(&self.key) {
            let plan = compile(&self.key)?;
            self.plans.insert(self.key.clone(), plan);
        }
        Ok(&self.plans[&self.key])
    }
}

/// Each row's logical shape, as `tensor_shape` returns it (`List<Int64>`, NULL for NULL rows).
pub fn logical_shapes(view: &VariableShapeArray<'_>) -> Result<ListArray> {
    let ndim = view.tensor().ndim();
    let values = Int64Array::from_iter_values(
        (0..view.len()).flat_map(|row| view.logical_shape(row).map(|d| d as i64)),
    );
    Ok(ListArray::try_new(
        Arc::new(Field::new_list_field(DataType::Int64, true)),
        OffsetBuffer::from_lengths(std::iter::repeat_n(ndim, view.len())),
        Arc::new(values),
        view.nulls().cloned(),
    )?)
}

/// Each row's number of elements (NULL for NULL rows).
pub fn sizes(view: &VariableShapeArray<'_>) -> Int64Array {
    let sizes = (0..view.len()).map(|row| view.value_range(row).len() as i64);
    Int64Array::new(sizes.collect(), view.nulls().cloned())
}

/// The values of every non-NULL row in logical row-major order, concatenated (NULL rows
/// contribute nothing); a row-major batch whose NULL rows hold no values is returned as it is
/// stored (no copy).
pub fn row_major_values(view: &VariableShapeArray<'_>) -> Result<ArrayRef> {
    if !view.tensor().is_permuted() && !view.null_rows_hold_values() {
        return Ok(view.batch_values().0);
    }
    let total: usize = (0..view.len()).map(|row| view.value_range(row).len()).sum();
    if u32::try_from(view.values().len()).is_err() {
        return Err(TensorError::Data(format!(
            "{total} tensor elements in one batch exceed what this kernel indexes; use a smaller batch size"
        )));
    }
    let mut plans = ShapePlans::default();
    let mut indices = Vec::with_capacity(total);
    for row in 0..view.len() {
        if view.is_null(row) {
            continue;
        }
        let offsets = plans.get(view.physical_shape(row), |physical| {
            let (shape, strides) = view.tensor().logical_layout(physical);
            Ok(strided_offsets(&shape, &strides))
        })?;
        let start = view.value_range(row).start;
        indices.extend(offsets.iter().map(|&k| (start + k) as u32));
    }
    Ok(take(
        view.values().as_ref(),
        &UInt32Array::from(indices),
        None,
    )?)
}

/// The rows as nested lists in logical order, each in its own shape: a row of shape [2, 3]
/// becomes a list of two lists of three. A 0-d tensor becomes its element.
pub fn to_nested_list(view: &VariableShapeArray<'_>) -> Result<ArrayRef> {
    let ndim = view.tensor().ndim();
    let rows = view.len();
    if ndim == 0 {
        // One element per row: NULL rows take a NULL index.
        let indices: UInt32Array = (0..rows)
            .map(|row| (!view.is_null(row)).then(|| view.value_range(row).start as u32))
            .collect();
        let values = take(view.values().as_ref(), &indices, None)?;
        return Ok(with_row_nulls(values, view.nulls())?);
    }
    let values = row_major_values(view)?;
    // Logical shapes, a NULL row's all zeros so that it holds no lists.
    let mut shapes = Vec::with_capacity(rows * ndim);
    for row in 0..rows {
        if view.is_null(row) {
            shapes.extend(std::iter::repeat_n(0, ndim));
        } else {
            shapes.extend(view.logical_shape(row));
        }
    }
    // From the innermost dimension out: at axis `a`, row r holds prod(shape_r[..a]) lists of
    // shape_r[a] items each.
    let mut current = values;
    for axis in (0..ndim).rev() {
        let lengths = shapes.chunks_exact(ndim).flat_map(|shape| {
            let lists: usize = shape[..axis].iter().product();
            std::iter::repeat_n(shape[axis], lists)
        });
        let nulls = if axis == 0 {
            view.nulls().cloned()
        } else {
            None
        };
        let field = Arc::new(Field::new_list_field(current.data_type().clone(), true));
        current = Arc::new(ListArray::try_new(
            field,
            OffsetBuffer::from_lengths(lengths),
            current,
            nulls,
        )?);
    }
    Ok(current)
}
