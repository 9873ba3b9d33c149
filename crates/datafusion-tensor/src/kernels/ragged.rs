//! Variable-shape tensor batches (`arrow.variable_shape_tensor`): per-row shapes, logical
//! row-major values and nested lists, built once per batch from the values buffer.
//!
//! Rows of one physical shape share one compiled layout (a [`ShapePlans`] entry), so a batch
//! of images in a few sizes compiles a few gather lists, not one per row.

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
use crate::kernels::layout::{self, with_row_nulls};
use crate::kernels::shape_plans::ShapePlans;
use crate::limits::Limits;
use crate::shape::{checked_size, format_shape, resolve_reshape, strided_offsets};
use crate::tensor_type::{ITEM_FIELD_NAME, TensorType};
use crate::variable_shape::{VariableShapeArray, VariableShapeType};

// Positions into a batch's values are `u32`: a `List<T>`'s offsets are `i32`, so every value
// a row holds lies below 2^31.

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

/// The rows of `view` written out in logical row-major order, as tensors of `output` (the
/// view's type made row-major: numpy's `ascontiguousarray` of each row). NULL rows stay NULL
/// and hold no values.
pub fn to_row_major(
    view: &VariableShapeArray<'_>,
    output: &VariableShapeType,
) -> Result<StructArray> {
    let values = row_major_values(view)?;
    let ndim = output.ndim();
    let mut offsets = Vec::with_capacity(view.len() + 1);
    let mut shapes = Vec::with_capacity(view.len() * ndim);
    let mut end = 0;
    offsets.push(0);
    for row in 0..view.len() {
        if view.is_null(row) {
            shapes.extend(std::iter::repeat_n(0, ndim));
        } else {
            end += view.value_range(row).len();
            shapes.extend(view.logical_shape(row).map(|d| d as i64));
        }
        offsets.push(end);
    }
    from_values_and_shapes(output, &values, &offsets, view.nulls(), &shapes, None)
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
    limits: &Limits,
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
            let selection = normalize(index, &shape, &strides, limits)
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
    let mut rows = get_index(
        view,
        &IndexExpr::default(),
        view.tensor().ndim(),
        pad,
        // Each whole row, which is in memory.
        &Limits::NONE,
    )?;
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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::index::parse_index;
    use arrow::array::{AsArray, Int16Array};
    use arrow::datatypes::Int16Type;

    /// Rows [[0, 1, 2], [3, 4, 5]] (2 x 3), NULL, [[6], [7]] (2 x 1), stored transposed
    /// (permutation [1, 0]).
    pub(crate) fn permuted_batch() -> (VariableShapeType, StructArray) {
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
        let err = get_index(&view, &index, 1, None, &Limits::default())
            .unwrap_err()
            .to_string();
        assert_eq!(
            err,
            "index 2 is out of bounds for axis 1 with size 1 at row 2 of its batch"
        );
        let index = parse_index(":, -1").unwrap();
        let rows = get_index(&view, &index, 1, None, &Limits::default()).unwrap();
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
}
