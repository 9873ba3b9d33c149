//! Variable-shape tensor batches (`arrow.variable_shape_tensor`): per-row shapes, logical
//! row-major values and nested lists, built once per batch from the values buffer.
//!
//! Rows of one physical shape share one compiled layout (a [`ShapePlans`] entry), so a batch
//! of images in a few sizes compiles a few gather lists, not one per row.

use std::collections::HashMap;
use std::sync::Arc;

use arrow::array::{
    Array, ArrayRef, FixedSizeListArray, Int32Array, Int64Array, ListArray, PrimitiveArray,
    StructArray, UInt32Array,
};
use arrow::array::{AsArray, BooleanBufferBuilder};
use arrow::buffer::{NullBuffer, OffsetBuffer};
use arrow::compute::take;
use arrow::datatypes::{ArrowPrimitiveType, DataType, Field};

use crate::error::{Result, TensorError};
use crate::index::{IndexExpr, normalize, wrap_index};
use crate::kernels::choose::{
    ChoiceInputs, ChoiceSpan, ChooseBatch, ChooseMode, Input, choose, ragged_choice_indices,
};
use crate::kernels::layout::{self, with_row_nulls};
use crate::kernels::rows::{RowPlans, RowTensor};
use crate::kernels::to_storage;
use crate::shape::{
    broadcast_labelled, broadcast_offsets, checked_size, format_shape, resolve_reshape,
    strided_offsets,
};
use crate::tensor_type::{ITEM_FIELD_NAME, TensorType};
use crate::variable_shape::{VariableShapeArray, VariableShapeType};

// Positions into a batch's values are `u32`: a `List<T>`'s offsets are `i32`, so every value
// a row holds lies below 2^31.

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
    row_major_values_except(view, None)
}

/// [`row_major_values`] of the rows that are not NULL in `view` nor in `nulls`: the values of
/// several arguments of one row shape, aligned element by element.
pub fn row_major_values_except(
    view: &VariableShapeArray<'_>,
    nulls: Option<&NullBuffer>,
) -> Result<ArrayRef> {
    let skip = |row: usize| view.is_null(row) || nulls.is_some_and(|n| n.is_null(row));
    let total: usize = (0..view.len())
        .filter(|&row| !skip(row))
        .map(|row| view.value_range(row).len())
        .sum();
    let mut plans = ShapePlans::default();
    let mut indices = Vec::with_capacity(total);
    for row in 0..view.len() {
        if skip(row) {
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

/// The variable-shape tensors of type `tensor` whose rows are `lengths` values each, of
/// `values` in order, with physical shapes `shapes`.
pub fn from_rows(
    tensor: &VariableShapeType,
    values: ArrayRef,
    lengths: &[usize],
    shapes: Vec<i32>,
    nulls: Option<NullBuffer>,
) -> Result<StructArray> {
    let data = data_list(tensor, lengths.iter().copied(), values, nulls.clone())?;
    variable_shape_array(tensor, data, shapes, nulls)
}

/// The storage of a variable-shape tensor column of type `tensor` whose rows are `data`
/// (stored, row-major values) and `shapes` (physical shapes, `ndim` per row), NULL where
/// `nulls` says.
pub fn variable_shape_array(
    tensor: &VariableShapeType,
    data: ListArray,
    shapes: Vec<i32>,
    nulls: Option<NullBuffer>,
) -> Result<StructArray> {
    let DataType::Struct(fields) = tensor.storage_type() else {
        return Err(TensorError::Internal(
            "a variable-shape storage type is a struct".to_string(),
        ));
    };
    let ndim = i32::try_from(tensor.ndim()).unwrap_or(i32::MAX);
    let shape = FixedSizeListArray::try_new(
        Arc::new(Field::new_list_field(DataType::Int32, true)),
        ndim,
        Arc::new(Int32Array::from(shapes)),
        nulls.clone(),
    )?;
    Ok(StructArray::try_new(
        fields,
        vec![Arc::new(data), Arc::new(shape)],
        nulls,
    )?)
}

/// `data` as the `data` field of a variable-shape storage: `List<T>` with a nullable `item`.
fn data_list(
    tensor: &VariableShapeType,
    lengths: impl Iterator<Item = usize>,
    values: ArrayRef,
    nulls: Option<NullBuffer>,
) -> Result<ListArray> {
    Ok(ListArray::try_new(
        Arc::new(Field::new(
            ITEM_FIELD_NAME,
            tensor.element_type().clone(),
            true,
        )),
        OffsetBuffer::from_lengths(lengths),
        values,
        nulls,
    )?)
}

/// Variable-shape tensors of type `tensor` from flat row-major values (`values`, rows at
/// `offsets`) and each row's physical shape (`shapes`, `ndim` integers per row, NULL rows at
/// `shape_nulls`): a row is NULL when its values or its shape are; every other row must hold
/// exactly prod(shape) values.
pub fn from_values_and_shapes(
    tensor: &VariableShapeType,
    values: &ArrayRef,
    offsets: &[usize],
    value_nulls: Option<&NullBuffer>,
    shapes: &[i64],
    shape_nulls: Option<&NullBuffer>,
) -> Result<StructArray> {
    let ndim = tensor.ndim();
    let rows = offsets.len() - 1;
    let nulls = NullBuffer::union(value_nulls, shape_nulls);
    let is_null = |row: usize| nulls.as_ref().is_some_and(|n| n.is_null(row));
    let mut physical = Vec::with_capacity(rows * ndim);
    let mut lengths = Vec::with_capacity(rows);
    let mut contiguous = true;
    for row in 0..rows {
        let held = offsets[row + 1] - offsets[row];
        if is_null(row) {
            physical.extend(std::iter::repeat_n(0, ndim));
            lengths.push(0);
            contiguous &= held == 0;
            continue;
        }
        let shape = &shapes[row * ndim..(row + 1) * ndim];
        let dims = shape
            .iter()
            .map(|&d| usize::try_from(d).ok().filter(|_| i32::try_from(d).is_ok()))
            .collect::<Option<Vec<usize>>>()
            .ok_or_else(|| {
                TensorError::Data(format!(
                    "row {row} of its batch has shape {shape:?}: dimensions must be non-negative integers that fit an Int32"
                ))
            })?;
        let size = checked_size(&dims)?;
        if size != held {
            return Err(TensorError::Data(format!(
                "row {row} of its batch holds {held} values, but shape {} needs {size}",
                format_shape(&dims)
            )));
        }
        physical.extend(dims.iter().map(|&d| d as i32));
        lengths.push(size);
    }
    let data = if contiguous {
        values.slice(offsets[0], offsets[rows] - offsets[0])
    } else {
        let indices: UInt32Array = (0..rows)
            .filter(|&row| !is_null(row))
            .flat_map(|row| offsets[row]..offsets[row + 1])
            .map(|i| i as u32)
            .collect();
        take(values.as_ref(), &indices, None)?
    };
    let data = data_list(tensor, lengths.into_iter(), data, nulls.clone())?;
    let out = variable_shape_array(tensor, data, physical, nulls)?;
    // The type's own checks (uniform dimensions) on what was built.
    VariableShapeArray::try_new(tensor, &out)?;
    Ok(out)
}

/// Fixed-shape tensors (`rows` rows of `size` stored values each, physical shape `physical`)
/// as the variable-shape tensors of type `tensor`: the same values, no copy.
pub fn fixed_to_variable(
    tensor: &VariableShapeType,
    values: &ArrayRef,
    physical: &[usize],
    rows: usize,
    nulls: Option<NullBuffer>,
) -> Result<StructArray> {
    let size: usize = physical.iter().product();
    let shape: Vec<i32> = physical.iter().map(|&d| d as i32).collect();
    let shapes = shape.repeat(rows);
    let data = data_list(
        tensor,
        std::iter::repeat_n(size, rows),
        values.slice(0, rows * size),
        nulls.clone(),
    )?;
    variable_shape_array(tensor, data, shapes, nulls)
}

/// The rows of `view` as fixed-shape tensors of physical shape `physical`: their stored values,
/// `prod(physical)` per row (NULL rows padded with NULLs); an error naming the first
/// non-NULL row of another shape, in the logical terms the user sees.
pub fn variable_to_fixed(view: &VariableShapeArray<'_>, physical: &[usize]) -> Result<ArrayRef> {
    let size: usize = physical.iter().product();
    let mut every_row_full = true;
    for row in 0..view.len() {
        if view.is_null(row) {
            every_row_full &= view.stored_len(row) == size;
        } else if !view.physical_shape(row).eq(physical.iter().copied()) {
            let got: Vec<usize> = view.logical_shape(row).collect();
            let (want, _) = view.tensor().logical_layout(physical);
            return Err(TensorError::Data(format!(
                "row {row} of its batch has shape {}, not {}: every row of a fixed-shape tensor has one shape",
                format_shape(&got),
                format_shape(&want)
            )));
        }
    }
    if every_row_full {
        return Ok(view.batch_values().0);
    }
    let indices: UInt32Array = (0..view.len())
        .flat_map(|row| {
            let start = view.value_range(row).start;
            let valid = !view.is_null(row);
            (0..size).map(move |k| valid.then(|| (start + k) as u32))
        })
        .collect();
    Ok(take(view.values().as_ref(), &indices, None)?)
}

/// A static index applied to the rows of one physical shape: the stored offset of each output
/// element (row-relative), and the output shape.
#[derive(Debug)]
struct RowGather {
    offsets: Vec<u32>,
    shape: Vec<usize>,
}

/// The rows of a batch indexed by a static index: values in output order, and each row's
/// output shape (`out_ndim` per row, zeros for NULL rows) and number of elements.
#[derive(Debug)]
pub struct IndexedRows {
    /// The output values, row after row.
    pub values: ArrayRef,
    /// Each row's output shape.
    pub shapes: Vec<i32>,
    /// Each row's number of output elements (NULL rows: `pad`, or 0).
    pub lengths: Vec<usize>,
}

/// numpy's `x[index]` on every row of `view`, each row normalised against its own logical
/// shape (one compiled gather per distinct shape); an index that does not fit a row (numpy's
/// `IndexError`) is an error naming the row. A NULL row gives `pad` NULL elements when `pad`
/// is given (a fixed-shape output), none otherwise.
pub fn get_index(
    view: &VariableShapeArray<'_>,
    index: &IndexExpr,
    out_ndim: usize,
    pad: Option<usize>,
) -> Result<IndexedRows> {
    let mut out = RowsBuilder::new(view.values(), pad, out_ndim, view.nulls().is_some());
    let mut plans: ShapePlans<RowGather> = ShapePlans::default();
    for row in 0..view.len() {
        if view.is_null(row) {
            out.push_null();
            continue;
        }
        let plan = plans.get(view.physical_shape(row), |physical| {
            let (shape, strides) = view.tensor().logical_layout(physical);
            let selection = normalize(index, &shape, &strides)
                .map_err(|e| TensorError::Data(format!("{e} at row {row} of its batch")))?;
            Ok(RowGather {
                offsets: selection.offsets().iter().map(|&o| o as u32).collect(),
                shape: selection.shape,
            })
        })?;
        out.push(view.value_range(row).start, &plan.offsets, &plan.shape)?;
    }
    out.finish()
}

/// Builds [`IndexedRows`]: each row's values (read from the batch's values at positions the
/// row's plan gives), output shape and number of elements.
struct RowsBuilder<'v> {
    values: RowValues<'v>,
    /// Element validity, when NULL rows are padded with NULLs.
    validity: Option<BooleanBufferBuilder>,
    shapes: Vec<i32>,
    lengths: Vec<usize>,
    pad: Option<usize>,
    out_ndim: usize,
}

/// How [`RowsBuilder`] reads the rows' values.
enum RowValues<'v> {
    /// Copied as each row is pushed, in the values' primitive type: no position per element
    /// (with a `u32` position per element and arrow's `take`, a flip of 100,000 uint8 images
    /// wrote and read four bytes of positions for each byte it copied).
    Copied(Box<dyn CopyRows + 'v>),
    /// Each element's position, applied with arrow's `take` at the end: booleans, and values
    /// with NULL elements (whose validity `take` carries).
    Positions(Vec<u32>, &'v ArrayRef),
}

/// A row-by-row copy of a batch's primitive values.
trait CopyRows {
    /// The values at `base` plus each of `offsets`.
    fn push(&mut self, base: usize, offsets: &[u32]) -> Result<()>;
    /// `n` placeholders (a NULL row's padding).
    fn push_default(&mut self, n: usize);
    fn finish(self: Box<Self>, nulls: Option<NullBuffer>) -> Result<ArrayRef>;
}

struct Copied<'v, P: ArrowPrimitiveType> {
    values: &'v PrimitiveArray<P>,
    out: Vec<P::Native>,
}

impl<P: ArrowPrimitiveType> CopyRows for Copied<'_, P> {
    fn push(&mut self, base: usize, offsets: &[u32]) -> Result<()> {
        let row = self.values.values().get(base..).unwrap_or_default();
        let end = offsets.iter().map(|&o| o as usize + 1).max().unwrap_or(0);
        let Some(row) = row.get(..end) else {
            return Err(TensorError::Internal(format!(
                "a row's plan reads past its values ({end} from {base})"
            )));
        };
        // In bounds: every offset is below `end`.
        self.out.extend(offsets.iter().map(|&o| row[o as usize]));
        Ok(())
    }

    fn push_default(&mut self, n: usize) {
        self.out
            .extend(std::iter::repeat_n(P::Native::default(), n));
    }

    fn finish(self: Box<Self>, nulls: Option<NullBuffer>) -> Result<ArrayRef> {
        let out = PrimitiveArray::<P>::new(self.out.into(), nulls)
            .with_data_type(self.values.data_type().clone());
        Ok(Arc::new(out))
    }
}

impl<'v> RowsBuilder<'v> {
    fn new(values: &'v ArrayRef, pad: Option<usize>, out_ndim: usize, some_null: bool) -> Self {
        let copied: Option<Box<dyn CopyRows + 'v>> = if values.null_count() > 0 {
            None
        } else {
            crate::kernels::with_primitive_type!(values.data_type(), P => {
                values.as_primitive_opt::<P>().map(|values| {
                    Box::new(Copied { values, out: Vec::new() }) as Box<dyn CopyRows + 'v>
                })
            }, _ => None)
        };
        Self {
            values: match copied {
                Some(copied) => RowValues::Copied(copied),
                None => RowValues::Positions(Vec::new(), values),
            },
            validity: pad
                .filter(|_| some_null)
                .map(|_| BooleanBufferBuilder::new(0)),
            shapes: Vec::new(),
            lengths: Vec::new(),
            pad,
            out_ndim,
        }
    }

    /// A NULL row: `pad` NULL elements, or none.
    fn push_null(&mut self) {
        let len = self.pad.unwrap_or(0);
        match &mut self.values {
            RowValues::Copied(copied) => copied.push_default(len),
            RowValues::Positions(positions, _) => {
                positions.extend(std::iter::repeat_n(0, len));
            }
        }
        if let Some(valid) = self.validity.as_mut() {
            valid.append_n(len, false);
        }
        self.shapes.extend(std::iter::repeat_n(0, self.out_ndim));
        self.lengths.push(len);
    }

    /// A row reading the values at `base` plus each of `offsets`, of output `shape`.
    fn push(&mut self, base: usize, offsets: &[u32], shape: &[usize]) -> Result<()> {
        match &mut self.values {
            RowValues::Copied(copied) => copied.push(base, offsets)?,
            RowValues::Positions(positions, _) => {
                let base = base as u32;
                positions.extend(offsets.iter().map(|&o| base + o));
            }
        }
        if let Some(valid) = self.validity.as_mut() {
            valid.append_n(offsets.len(), true);
        }
        self.shapes.extend(shape.iter().map(|&d| d as i32));
        self.lengths.push(offsets.len());
        Ok(())
    }

    fn finish(mut self) -> Result<IndexedRows> {
        let nulls = self.validity.as_mut().map(|v| NullBuffer::new(v.finish()));
        let values = match self.values {
            RowValues::Copied(copied) => copied.finish(nulls)?,
            RowValues::Positions(positions, values) => {
                let positions = UInt32Array::new(positions.into(), nulls);
                take(values.as_ref(), &positions, None)?
            }
        };
        Ok(IndexedRows {
            values,
            shapes: self.shapes,
            lengths: self.lengths,
        })
    }
}

/// numpy's `reshape(requested)` on every row of `view`: each row's values in logical
/// row-major order (NULL rows: `pad` NULLs when given) and its new shape, one unknown
/// dimension inferred from the row's size; a row whose size does not fit is numpy's
/// `ValueError`, naming the row.
pub fn reshape(
    view: &VariableShapeArray<'_>,
    requested: &[i64],
    pad: Option<usize>,
) -> Result<IndexedRows> {
    // The empty index selects the whole tensor, in logical order.
    let mut rows = get_index(view, &IndexExpr::default(), view.tensor().ndim(), pad)?;
    rows.shapes.clear();
    for (row, &len) in rows.lengths.iter().enumerate() {
        if view.is_null(row) {
            rows.shapes.extend(std::iter::repeat_n(0, requested.len()));
            continue;
        }
        let shape = resolve_reshape(len, requested)
            .map_err(|e| TensorError::Data(format!("{e} at row {row} of its batch")))?;
        rows.shapes.extend(shape.iter().map(|&d| d as i32));
    }
    Ok(rows)
}

/// A row shape's layout for integer indices on its leading axes: its logical shape and
/// strides, and the offsets of the sub-tensor left after `k` leading axes.
#[derive(Debug)]
struct LeadingAxes {
    shape: Vec<usize>,
    strides: Vec<usize>,
    rest: Vec<u32>,
}

/// numpy's `x[i, j, ...]` with one integer per leading axis per row (`indices`, one `Int64`
/// column per axis): each row's sub-tensor there, in logical order. Rows NULL in `nulls` (a
/// NULL tensor or integer) give `pad` NULL elements when given (a fixed-shape output), none
/// otherwise; an integer outside its axis is numpy's `IndexError`, naming the row.
pub fn get_at_integers(
    view: &VariableShapeArray<'_>,
    indices: &[&[i64]],
    nulls: Option<&NullBuffer>,
    pad: Option<usize>,
) -> Result<IndexedRows> {
    let k = indices.len();
    let out_ndim = view.tensor().ndim() - k;
    let mut out = RowsBuilder::new(view.values(), pad, out_ndim, nulls.is_some());
    let mut plans: ShapePlans<LeadingAxes> = ShapePlans::default();
    for row in 0..view.len() {
        if nulls.is_some_and(|n| n.is_null(row)) {
            out.push_null();
            continue;
        }
        let plan = plans.get(view.physical_shape(row), |physical| {
            let (shape, strides) = view.tensor().logical_layout(physical);
            let rest = strided_offsets(&shape[k..], &strides[k..]);
            Ok(LeadingAxes {
                rest: rest.iter().map(|&o| o as u32).collect(),
                shape,
                strides,
            })
        })?;
        let mut base = view.value_range(row).start;
        for (axis, column) in indices.iter().enumerate() {
            let value = column[row];
            let size = plan.shape[axis];
            let Some(position) = wrap_index(value, size) else {
                return Err(TensorError::OutOfBounds {
                    value,
                    axis,
                    size,
                    row: Some(row),
                });
            };
            base += position * plan.strides[axis];
        }
        out.push(base, &plan.rest, &plan.shape[k..])?;
    }
    out.finish()
}

/// The rows `rows` of `view`, every one of physical shape `tensor`'s, as fixed-shape tensors
/// of type `tensor`: their stored values, in the order of `rows` (no NULL among them).
pub fn rows_to_fixed(
    view: &VariableShapeArray<'_>,
    rows: &[usize],
    tensor: &TensorType,
) -> Result<FixedSizeListArray> {
    let indices: UInt32Array = rows
        .iter()
        .flat_map(|&row| view.value_range(row))
        .map(|i| i as u32)
        .collect();
    let values = take(view.values().as_ref(), &indices, None)?;
    Ok(layout::tensor_array(tensor, values, None, rows.len())?)
}

/// The results of some rows of a batch, all of one shape.
#[derive(Debug)]
pub struct GroupRows<'a> {
    /// The rows of the batch, in order.
    pub rows: &'a [usize],
    /// Their results' values, row after row, `prod(shape)` each.
    pub values: ArrayRef,
    /// Each result's shape.
    pub shape: Vec<usize>,
    /// The results that are NULL (indexed as `rows`).
    pub nulls: Option<NullBuffer>,
}

/// The results of groups of rows put back in the batch's order: each row's values, shape
/// (`ndim` per row) and length, and the rows' NULLs. A row in no group, or NULL in its group,
/// is NULL: `pad` NULL elements when given (a fixed-shape output), none otherwise.
pub fn merge_groups(
    groups: &[GroupRows<'_>],
    rows: usize,
    ndim: usize,
    pad: Option<usize>,
    element: &DataType,
) -> Result<(IndexedRows, Option<NullBuffer>)> {
    let mut place: Vec<Option<(usize, usize)>> = vec![None; rows];
    for (g, group) in groups.iter().enumerate() {
        for (j, &row) in group.rows.iter().enumerate() {
            place[row] = Some((g, j));
        }
    }
    let mut bases = Vec::with_capacity(groups.len());
    let mut total = 0usize;
    for group in groups {
        bases.push(total);
        total += group.values.len();
    }
    if u32::try_from(total).is_err() {
        return Err(TensorError::Data(format!(
            "the results hold more than {} values in one batch; lower datafusion.execution.batch_size",
            u32::MAX
        )));
    }
    let values = if groups.is_empty() {
        arrow::array::new_empty_array(element)
    } else {
        let parts: Vec<&dyn Array> = groups.iter().map(|g| g.values.as_ref()).collect();
        arrow::compute::concat(&parts)?
    };
    let mut positions: Vec<Option<u32>> = Vec::new();
    let mut shapes = Vec::with_capacity(rows * ndim);
    let mut lengths = Vec::with_capacity(rows);
    let mut valid = BooleanBufferBuilder::new(rows);
    for slot in place {
        let found = slot.filter(|&(g, j)| groups[g].nulls.as_ref().is_none_or(|n| n.is_valid(j)));
        match found {
            Some((g, j)) => {
                let group = &groups[g];
                let len: usize = group.shape.iter().product();
                let start = bases[g] + j * len;
                positions.extend((start..start + len).map(|p| Some(p as u32)));
                shapes.extend(group.shape.iter().map(|&d| d as i32));
                lengths.push(len);
                valid.append(true);
            }
            None => {
                let len = pad.unwrap_or(0);
                positions.extend(std::iter::repeat_n(None, len));
                shapes.extend(std::iter::repeat_n(0, ndim));
                lengths.push(len);
                valid.append(false);
            }
        }
    }
    let nulls = Some(NullBuffer::new(valid.finish())).filter(|n| n.null_count() > 0);
    let values = take(values.as_ref(), &UInt32Array::from(positions), None)?;
    Ok((
        IndexedRows {
            values,
            shapes,
            lengths,
        },
        nulls,
    ))
}

/// One choice of numpy's `choose` read row by row.
#[derive(Debug, Clone, Copy)]
pub enum RaggedChoice<'a> {
    /// A tensor (variable- or fixed-shape, read as stored), broadcast in each row.
    Tensor(&'a RowTensor<'a>),
    /// One value per row (a numeric column).
    Column(&'a ArrayRef),
    /// One value for every row (a literal, already of the result type).
    Literal(&'a ArrayRef),
}

/// One combination of row shapes of `choose`: the broadcast shape, and for `a` and each
/// tensor choice (in order) the offset in its row of each position of it.
#[derive(Debug)]
struct RowChoose {
    shape: Vec<usize>,
    offsets: Vec<Vec<u32>>,
}

/// numpy's `choose(a, choices, mode)` on every row, `a` and the choices row tensors
/// ([`RowTensor`], at least one variable-shape): each row's `a` and tensor choices broadcast
/// together (numpy's rules; the row's result has that shape), and each position reads the
/// choice `a` names there (a tensor choice at its broadcast position, a column's value of the
/// row, a literal). Rows NULL in `nulls` (a NULL in any argument) hold nothing. Shapes that do
/// not broadcast, and an index `raise` rejects, are numpy's errors naming the row.
pub fn choose_rows(
    a: &RowTensor<'_>,
    choices: &[RaggedChoice<'_>],
    mode: ChooseMode,
    element: &DataType,
    nulls: Option<&NullBuffer>,
    rows: usize,
    out_ndim: usize,
) -> Result<IndexedRows> {
    let mut tensors = vec![a];
    let mut labels = vec!["a".to_string()];
    if u32::try_from(a.values().len()).is_err() {
        return Err(too_many_values("a"));
    }
    for (i, choice) in choices.iter().enumerate() {
        if let RaggedChoice::Tensor(tensor) = choice {
            if u32::try_from(tensor.values().len()).is_err() {
                return Err(too_many_values(&format!("choice {i}")));
            }
            tensors.push(tensor);
            labels.push(format!("choice {i}"));
        }
    }
    let mut lengths = Vec::with_capacity(rows);
    let mut shapes = Vec::with_capacity(rows * out_ndim);
    // Where each row's elements end in the batch's (to name a row), each element's row (for
    // per-row choices) and, for `a` and each tensor choice, each element's position in its
    // values.
    let mut row_ends = Vec::with_capacity(rows);
    let per_row = choices.iter().any(|c| matches!(c, RaggedChoice::Column(_)));
    let mut row_of: Vec<u32> = Vec::new();
    let mut positions: Vec<Vec<u32>> = vec![Vec::new(); tensors.len()];
    let mut plans: RowPlans<RowChoose> = RowPlans::default();
    let mut total = 0usize;
    // A row whose shapes do not broadcast: its error, once the rows before it are checked.
    let mut mismatch = None;
    for row in 0..rows {
        if nulls.is_some_and(|n| n.is_null(row)) {
            lengths.push(0);
            shapes.extend(std::iter::repeat_n(0, out_ndim));
            row_ends.push(total);
            continue;
        }
        let compiled = plans.get(&tensors, row, |layouts| {
            // numpy broadcasts the choices first, then a (its error names them so).
            let order: Vec<usize> = (1..layouts.len()).chain([0]).collect();
            let labelled: Vec<(&str, &[usize])> = order
                .iter()
                .map(|&k| (labels[k].as_str(), layouts[k].0.as_slice()))
                .collect();
            let shape = broadcast_labelled(&labelled)?;
            let offsets = layouts
                .iter()
                .map(|(s, strides)| broadcast_offsets(s, strides, &shape))
                .collect();
            Ok(RowChoose { shape, offsets })
        });
        let plan = match compiled {
            Ok(plan) => plan,
            Err(e) => {
                mismatch = Some(e);
                break;
            }
        };
        for ((tensor, offsets), out) in tensors.iter().zip(&plan.offsets).zip(&mut positions) {
            let start = tensor.span(row).0 as u32;
            out.extend(offsets.iter().map(|&o| start + o));
        }
        let len = plan.offsets[0].len();
        lengths.push(len);
        shapes.extend(plan.shape.iter().map(|&d| d as i32));
        if per_row {
            row_of.extend(std::iter::repeat_n(row as u32, len));
        }
        total += len;
        row_ends.push(total);
    }
    let a_values = take(
        a.values().as_ref(),
        &UInt32Array::from(positions.remove(0)),
        None,
    )?;
    let zeros = vec![
        0u32;
        if choices
            .iter()
            .any(|c| matches!(c, RaggedChoice::Literal(_)))
        {
            total
        } else {
            0
        }
    ];
    let inputs = choice_inputs(choices, &positions, &row_of, &zeros);
    let batch = ChooseBatch {
        a: Input {
            valid: a_values.logical_nulls(),
            values: Arc::clone(&a_values),
            row_len: total,
            offsets: None,
        },
        choices: ChoiceInputs::Each(inputs),
        mode,
        element: element.clone(),
        rows: 1,
        out_row_len: total,
        row_nulls: None,
    };
    let values = match choose(&batch) {
        Err(TensorError::InvalidChoice { value, count, .. }) => {
            // The batch ran as one row: the row is the one holding the first index `raise`
            // rejects (the cold path).
            let position = first_invalid_choice(&a_values, count)?;
            let row = row_ends.partition_point(|&end| end <= position);
            return Err(TensorError::InvalidChoice { row, value, count });
        }
        other => other?,
    };
    if let Some(e) = mismatch {
        return Err(e);
    }
    Ok(IndexedRows {
        values,
        shapes,
        lengths,
    })
}

/// The choices of numpy's `choose` when each row enumerates its own: their number may differ
/// between rows.
#[derive(Debug, Clone, Copy)]
pub enum EnumeratedChoices<'a> {
    /// One tensor per row (variable- or fixed-shape, read as stored) whose outer logical axis
    /// enumerates the row's choices, as numpy's `choose(a, c)` reads an array `c`: choice `k`
    /// is `c[k]`, broadcast with `a`.
    Stacked(&'a RowTensor<'a>),
    /// A `List` or `LargeList` column: each row's scalar choices.
    List(&'a ArrayRef),
}

/// One combination of row shapes of [`choose_enumerated`]: the broadcast shape, `a`'s offset
/// in its row of each position, and one choice's (a stacked tensor's `c[0]`: choice `k` lies
/// `k * stride` further on).
#[derive(Debug)]
struct RowEnumerated {
    shape: Vec<usize>,
    a_offsets: Vec<u32>,
    choice_offsets: Vec<u32>,
    count: usize,
    stride: usize,
}

/// The plan of one combination of row shapes of [`choose_enumerated`], from `a`'s logical
/// shape and strides and (a stacked tensor) the choices'.
fn plan_enumerated(layouts: &[(Vec<usize>, Vec<usize>)]) -> Result<RowEnumerated> {
    let (a_shape, a_strides) = &layouts[0];
    let Some((c_shape, c_strides)) = layouts.get(1) else {
        return Ok(RowEnumerated {
            a_offsets: broadcast_offsets(a_shape, a_strides, a_shape),
            choice_offsets: Vec::new(),
            shape: a_shape.clone(),
            count: 0,
            stride: 1,
        });
    };
    let (Some((&count, rest)), Some((&stride, rest_strides))) =
        (c_shape.split_first(), c_strides.split_first())
    else {
        return Err(TensorError::Internal(
            "a 0-d tensor cannot enumerate choices".to_string(),
        ));
    };
    if count == 0 {
        // numpy rejects no choices before it broadcasts them.
        return Ok(RowEnumerated {
            shape: Vec::new(),
            a_offsets: Vec::new(),
            choice_offsets: Vec::new(),
            count,
            stride,
        });
    }
    // numpy broadcasts the choices first, then a.
    let shape = broadcast_labelled(&[("choices[i]", rest), ("a", a_shape)])?;
    Ok(RowEnumerated {
        a_offsets: broadcast_offsets(a_shape, a_strides, &shape),
        choice_offsets: broadcast_offsets(rest, rest_strides, &shape),
        shape,
        count,
        stride,
    })
}

/// numpy's `choose(a, choices, mode)` on every row where each row enumerates its own choices
/// ([`EnumeratedChoices`]): a stacked tensor's `c[1:]` shape broadcasts with `a` in each row
/// (a list's scalars take `a`'s shape), and each position reads the choice `a` names there
/// among the row's own number of them. Rows NULL in `nulls` (a NULL in any argument) hold
/// nothing; an element NULL in `a` is NULL in the result. Rows are checked in order: shapes
/// that do not broadcast, a row with no choices (numpy's `0-length sequence`, whatever `a`
/// holds) and an index `raise` rejects are numpy's errors naming the first row with one.
pub fn choose_enumerated(
    a: &RowTensor<'_>,
    choices: EnumeratedChoices<'_>,
    mode: ChooseMode,
    nulls: Option<&NullBuffer>,
    rows: usize,
    out_ndim: usize,
) -> Result<IndexedRows> {
    let (choice_values, list_starts) = match choices {
        EnumeratedChoices::Stacked(tensor) => (Arc::clone(tensor.values()), None),
        EnumeratedChoices::List(list) => match layout::list_parts(list.as_ref()) {
            Some((values, starts)) => (values, Some(starts)),
            None => {
                return Err(TensorError::Data(format!(
                    "expected a list of choices at run time, got {}",
                    list.data_type()
                )));
            }
        },
    };
    if u32::try_from(a.values().len()).is_err() {
        return Err(too_many_values("a"));
    }
    if u32::try_from(choice_values.len()).is_err() {
        return Err(too_many_values("the choices"));
    }
    let tensors = match choices {
        EnumeratedChoices::Stacked(tensor) => vec![a, tensor],
        EnumeratedChoices::List(_) => vec![a],
    };
    let mut lengths = Vec::with_capacity(rows);
    let mut shapes = Vec::with_capacity(rows * out_ndim);
    // For each element: where its `a` lies, and where its row's choice 0 lies (the chosen
    // one's position once pass 1 has numbered them). For each row: its span and stride.
    let mut a_positions: Vec<u32> = Vec::new();
    let mut positions: Vec<u32> = Vec::new();
    let mut spans = Vec::with_capacity(rows);
    let mut strides = Vec::with_capacity(rows);
    let mut plans: RowPlans<RowEnumerated> = RowPlans::default();
    // The first row whose shapes do not broadcast or that has no choices: its error, once
    // the rows before it are checked.
    let mut pending = None;
    for row in 0..rows {
        if nulls.is_some_and(|n| n.is_null(row)) {
            lengths.push(0);
            shapes.extend(std::iter::repeat_n(0, out_ndim));
            continue;
        }
        let compiled = plans.get(&tensors, row, plan_enumerated);
        let plan = match compiled {
            Ok(plan) => plan,
            Err(e) => {
                pending = Some(e);
                break;
            }
        };
        let (count, base, stride) = match (&list_starts, choices) {
            (Some(starts), _) => (starts[row + 1] - starts[row], starts[row], 1),
            (None, EnumeratedChoices::Stacked(tensor)) => {
                (plan.count, tensor.span(row).0, plan.stride)
            }
            (None, EnumeratedChoices::List(_)) => {
                return Err(TensorError::Internal("a list without offsets".to_string()));
            }
        };
        if count == 0 {
            pending = Some(TensorError::InvalidChoice {
                row,
                value: String::new(),
                count,
            });
            break;
        }
        let a_start = a.span(row).0 as u32;
        a_positions.extend(plan.a_offsets.iter().map(|&o| a_start + o));
        // Below u32::MAX: checked above, and every position lies in the row's values.
        let base = base as u32;
        if list_starts.is_some() {
            positions.extend(std::iter::repeat_n(base, plan.a_offsets.len()));
        } else {
            positions.extend(plan.choice_offsets.iter().map(|&o| base + o));
        }
        lengths.push(plan.a_offsets.len());
        shapes.extend(plan.shape.iter().map(|&d| d as i32));
        spans.push(ChoiceSpan {
            row,
            end: a_positions.len(),
            count,
        });
        strides.push(stride as u32);
    }
    let a_values = take(a.values().as_ref(), &UInt32Array::from(a_positions), None)?;
    let a_valid = a_values.logical_nulls();
    // Booleans index as 0/1 (numpy reads them as integers).
    let numbers = ragged_choice_indices(&to_storage(&a_values)?, &spans, mode, a_valid.as_ref())?;
    if let Some(e) = pending {
        return Err(e);
    }
    let mut start = 0;
    for (span, &stride) in spans.iter().zip(&strides) {
        for (position, &k) in positions[start..span.end]
            .iter_mut()
            .zip(&numbers[start..span.end])
        {
            // Choice k of the row lies k strides on, inside the row's values (k < count).
            *position += k * stride;
        }
        start = span.end;
    }
    // An index NULL in `a` names no choice: its (unchecked) position is not read.
    let positions = UInt32Array::new(positions.into(), a_valid);
    let values = take(choice_values.as_ref(), &positions, None)?;
    Ok(IndexedRows {
        values,
        shapes,
        lengths,
    })
}

/// A batch argument too large for the `u32` positions the kernels use.
fn too_many_values(what: &str) -> TensorError {
    TensorError::Data(format!(
        "{what} holds more than {} values in one batch; lower datafusion.execution.batch_size",
        u32::MAX
    ))
}

/// The choices as [`choose`] reads them when the batch's elements run as one row: a tensor
/// choice at `positions` (one list per tensor choice, in order), a column's value at its row
/// (`row_of`), a literal at `zeros`.
fn choice_inputs<'a>(
    choices: &[RaggedChoice<'_>],
    positions: &'a [Vec<u32>],
    row_of: &'a [u32],
    zeros: &'a [u32],
) -> Vec<Input<'a>> {
    let mut tensor_positions = positions.iter();
    choices
        .iter()
        .map(|choice| match choice {
            RaggedChoice::Tensor(tensor) => Input {
                values: Arc::clone(tensor.values()),
                row_len: tensor.values().len(),
                offsets: tensor_positions.next().map(Vec::as_slice),
                valid: tensor.values().logical_nulls(),
            },
            // A column's value is read at its row's position.
            RaggedChoice::Column(values) => Input {
                values: Arc::clone(values),
                row_len: values.len(),
                offsets: Some(row_of),
                valid: None,
            },
            RaggedChoice::Literal(value) => Input {
                values: Arc::clone(value),
                row_len: 0,
                offsets: Some(zeros),
                valid: value.logical_nulls(),
            },
        })
        .collect()
}

/// The position of the first valid index in `a` outside `[0, count)`.
fn first_invalid_choice(a: &ArrayRef, count: usize) -> Result<usize> {
    let a = arrow::compute::cast(a, &DataType::Int64)?;
    let a = a.as_primitive::<arrow::datatypes::Int64Type>();
    let count = i64::try_from(count).unwrap_or(i64::MAX);
    (0..a.len())
        .find(|&i| a.is_valid(i) && !(0..count).contains(&a.value(i)))
        .ok_or_else(|| TensorError::Internal("no rejected choice index found".to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::parse_index;
    use arrow::array::{AsArray, Int16Array};
    use arrow::datatypes::Int16Type;

    #[test]
    fn rows_of_one_shape_share_one_plan() {
        let mut plans = ShapePlans::default();
        let mut compiled = 0;
        for shape in [[2, 3], [1, 1], [2, 3], [2, 3], [1, 1]] {
            let plan = plans
                .get(shape.into_iter(), |s| {
                    compiled += 1;
                    Ok(s.to_vec())
                })
                .unwrap();
            assert_eq!(plan, &shape);
        }
        assert_eq!(compiled, 2);
    }

    /// Rows [[0, 1, 2], [3, 4, 5]] (2 x 3), NULL, [[6], [7]] (2 x 1), stored transposed
    /// (permutation [1, 0]).
    fn permuted_batch() -> (VariableShapeType, StructArray) {
        let tensor = VariableShapeType::new(DataType::Int16, 2)
            .unwrap()
            .with_permutation(Some(vec![1, 0]))
            .unwrap();
        // Stored shapes are the logical ones transposed: (3, 2) and (1, 2).
        let values = Int16Array::from(vec![0, 3, 1, 4, 2, 5, 6, 7]);
        let nulls = NullBuffer::from(vec![true, false, true]);
        let array = from_rows(
            &tensor,
            Arc::new(values),
            &[6, 0, 2],
            vec![3, 2, 0, 0, 1, 2],
            Some(nulls),
        )
        .unwrap();
        (tensor, array)
    }

    #[test]
    fn logical_order_and_shapes_follow_the_permutation() {
        let (tensor, array) = permuted_batch();
        let view = VariableShapeArray::try_new(&tensor, &array).unwrap();
        let values = row_major_values(&view).unwrap();
        assert_eq!(
            values.as_primitive::<Int16Type>().values().to_vec(),
            vec![0, 1, 2, 3, 4, 5, 6, 7]
        );
        let shapes = logical_shapes(&view).unwrap();
        assert_eq!(
            shapes
                .value(2)
                .as_primitive::<arrow::datatypes::Int64Type>()
                .values()
                .to_vec(),
            vec![2, 1]
        );
        assert!(shapes.is_null(1));
    }

    #[test]
    fn an_index_that_does_not_fit_a_row_names_it() {
        let (tensor, array) = permuted_batch();
        let view = VariableShapeArray::try_new(&tensor, &array).unwrap();
        // x[:, 2]: row 0 gives [2, 5]; row 2 (2 x 1) has no column 2.
        let index = parse_index(":, 2").unwrap();
        let err = get_index(&view, &index, 1, None).unwrap_err().to_string();
        assert_eq!(
            err,
            "index 2 is out of bounds for axis 1 with size 1 at row 2 of its batch"
        );
        let index = parse_index(":, -1").unwrap();
        let rows = get_index(&view, &index, 1, None).unwrap();
        assert_eq!(
            rows.values.as_primitive::<Int16Type>().values().to_vec(),
            vec![2, 5, 6, 7]
        );
        assert_eq!(rows.shapes, vec![2, 0, 2]);
        assert_eq!(rows.lengths, vec![2, 0, 2]);
    }

    #[test]
    fn groups_of_rows_go_back_in_row_order() {
        // Rows 0 and 3 of shape (2,), row 2 of shape (1,) (NULL in its group), row 1 in none.
        let first = [0, 3];
        let second = [2];
        let groups = [
            GroupRows {
                rows: &first,
                values: Arc::new(Int16Array::from(vec![1, 2, 3, 4])),
                shape: vec![2],
                nulls: None,
            },
            GroupRows {
                rows: &second,
                values: Arc::new(Int16Array::from(vec![5])),
                shape: vec![1],
                nulls: Some(NullBuffer::from(vec![false])),
            },
        ];
        let (rows, nulls) = merge_groups(&groups, 4, 1, None, &DataType::Int16).unwrap();
        assert_eq!(
            rows.values.as_primitive::<Int16Type>().values().to_vec(),
            vec![1, 2, 3, 4]
        );
        assert_eq!(rows.lengths, vec![2, 0, 0, 2]);
        assert_eq!(rows.shapes, vec![2, 0, 0, 2]);
        let valid: Vec<bool> = nulls.unwrap().iter().collect();
        assert_eq!(valid, vec![true, false, false, true]);
        // A fixed-shape result pads the NULL rows.
        let (rows, _) = merge_groups(&groups[..1], 4, 1, Some(2), &DataType::Int16).unwrap();
        assert_eq!(rows.lengths, vec![2, 2, 2, 2]);
        assert_eq!(rows.values.null_count(), 4);
        let (rows, nulls) = merge_groups(&[], 2, 1, None, &DataType::Int16).unwrap();
        assert_eq!((rows.values.len(), nulls.unwrap().null_count()), (0, 2));
    }

    #[test]
    fn choose_reads_each_rows_own_index_and_names_the_rejected_row() {
        let (tensor, array) = permuted_batch();
        let view = VariableShapeArray::try_new(&tensor, &array).unwrap();
        let ten: ArrayRef = Arc::new(Int16Array::from(vec![10]));
        let per_row: ArrayRef = Arc::new(Int16Array::from(vec![100, 200, 300]));
        let choices = [RaggedChoice::Literal(&ten), RaggedChoice::Column(&per_row)];
        let a = RowTensor::variable(&view);
        let rows = choose_rows(
            &a,
            &choices,
            ChooseMode::Clip,
            &DataType::Int16,
            view.nulls(),
            3,
            2,
        )
        .unwrap();
        assert_eq!(
            rows.values.as_primitive::<Int16Type>().values().to_vec(),
            vec![10, 100, 100, 100, 100, 100, 300, 300]
        );
        assert_eq!(rows.shapes, vec![2, 3, 0, 0, 2, 1]);
        // raise: row 0 is left out (NULL), so row 2's 6 is the first index rejected.
        let nulls = NullBuffer::from(vec![false, false, true]);
        let err = choose_rows(
            &a,
            &choices,
            ChooseMode::Raise,
            &DataType::Int16,
            Some(&nulls),
            3,
            2,
        )
        .unwrap_err()
        .to_string();
        assert_eq!(
            err,
            "invalid entry in choice array: a = 6 at row 2 of its batch is not in [0, 1] (mode 'raise'; there are 2 choices)"
        );
    }
}
