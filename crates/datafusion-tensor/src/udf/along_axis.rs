//! `tensor_take_along_axis(t, idx, axis)` and `tensor_put_along_axis(t, idx, values, axis)`:
//! numpy's `take_along_axis` / `put_along_axis` (MegEngine's gather / scatter), per row.
//!
//! `t` and `idx` have the same number of dimensions; off `axis` their shapes broadcast
//! ([`crate::shape::broadcast_along_axis`]), along it `idx` says which elements. The plan
//! compiles the offsets of every position of the broadcast index once
//! ([`crate::kernels::along_axis::AxisOffsets`]); the kernels there run over whole batches.
//!
//! When `t`, `idx` or the put's values is variable-shape ([`VariableAlongPlan`]), the same
//! offsets are compiled once per combination of row shapes in a batch
//! ([`crate::kernels::rows`]) and every row's positions gathered into one take or put. The
//! take's result is fixed-shape when the dimensions known in every row fix it; the put keeps
//! `t`'s shape (fixed-shape when `t`'s `uniform_shape` fixes every dimension).

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, AsArray, FixedSizeListArray};
use arrow::buffer::NullBuffer;
use arrow::compute::cast_with_options;
use arrow::datatypes::{DataType, Field, FieldRef, Int64Type};
use datafusion::common::{ScalarValue, exec_err, plan_err};
use datafusion::error::Result;
use datafusion::logical_expr::ColumnarValue;
use datafusion_macros::user_doc;

use super::rows::{format_known, known_shape, output_of_known, row_tensor, view_of};
use super::{PlanArgs, TensorFunction, map_arrays, tensor_array};
use crate::dtype::strict_cast;
use crate::index::wrap_index;
use crate::kernels::along_axis::{
    AlongRows, AxisOffsets, PutValues, along_positions, element_positions, put_along_axis,
    take_along_axis, take_positions,
};
use crate::kernels::rows::pad_null_rows;
use crate::kernels::{layout, ragged};
use crate::limits::Limits;
use crate::shape::{assignment_offsets, known_broadcast, logical_of_stored};
use crate::tensor_type::TensorType;
use crate::variable_shape::{AnyTensorType, has_variable_shape_extension};

/// A compiled take/put along an axis.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct AlongAxisPlan {
    /// `t`'s type as stored (read through it).
    stored: TensorType,
    /// `t` as indexed: the stored type, or with `axis => NULL` (numpy's `axis=None`) its
    /// flattened logical values as a 1-d tensor.
    input: TensorType,
    index: TensorType,
    /// The axis, normalised.
    axis: usize,
    /// The broadcast index shape (the take's output shape).
    shape: Vec<usize>,
    /// Where each broadcast position reads or writes (for put: in `t`'s row-major copy).
    offsets: AxisOffsets,
    /// For put: offset of each broadcast position in `values`' row (broadcast), and its type.
    values: Option<(TensorType, Vec<usize>)>,
    output: TensorType,
}

fn plan_along_axis(
    args: &PlanArgs<'_>,
    name: &str,
    values_arg: Option<usize>,
    axis_arg: usize,
) -> Result<AlongAxisPlan> {
    let stored = args.tensor(0, "t")?;
    let index = args.tensor(1, "idx")?;
    check_index_type(name, index.element_type())?;
    let flatten = axis_is_none(args, axis_arg);
    let input = if flatten {
        if index.ndim() != 1 {
            return plan_err!("{name}: when axis=None, `indices` must have a single dimension.");
        }
        TensorType::new(stored.element_type().clone(), vec![stored.size()])?
    } else {
        stored.clone()
    };
    let ndim = input.ndim();
    if index.ndim() != ndim {
        // numpy: ValueError: `indices` and `arr` must have the same number of dimensions
        return plan_err!(
            "{name}: `indices` and `arr` must have the same number of dimensions (idx has {}, t has {ndim})",
            index.ndim()
        );
    }
    let axis = if flatten {
        0
    } else {
        plan_axis(args.literal(axis_arg), name, ndim)?
    };
    let t_shape = input.logical_shape();
    let t_strides = input.logical_strides();
    let (shape, mut offsets) = AxisOffsets::compile(
        &t_shape,
        &t_strides,
        &index.logical_shape(),
        &index.logical_strides(),
        axis,
        &args.limits,
    )
    .map_err(|e| datafusion::common::plan_datafusion_err!("{name}: {e}"))?;
    let values = match values_arg {
        None => None,
        Some(i) => {
            let values = plan_values(&args.fields[i], name, input.element_type())?;
            let offsets = assignment_offsets(&values.logical_shape(), &shape)
                .map_err(|e| e.in_function(name))?;
            Some((values, offsets))
        }
    };
    let output = if values.is_some() {
        stored.to_row_major()
    } else {
        TensorType::new(input.element_type().clone(), shape.clone())?
    };
    // The take reads t as stored (or flattened); the put writes a row-major copy, which a
    // permuted t's stored offsets are mapped into.
    offsets.logical_of_stored =
        (values.is_some() && input.is_permuted()).then(|| logical_of_stored(&t_shape, &t_strides));
    Ok(AlongAxisPlan {
        stored,
        input,
        index,
        axis,
        shape,
        offsets,
        values,
        output,
    })
}

/// `idx` must hold integers.
fn check_index_type(name: &str, element: &DataType) -> Result<()> {
    if element.is_integer() {
        Ok(())
    } else {
        plan_err!("{name}: argument idx must hold integers, got {element}")
    }
}

/// Whether the axis argument is NULL: numpy's axis=None, the flattened array (logical
/// row-major order) indexed by a 1-d index.
fn axis_is_none(args: &PlanArgs<'_>, axis_arg: usize) -> bool {
    args.literal(axis_arg).is_some_and(ScalarValue::is_null)
        || args
            .fields
            .get(axis_arg)
            .is_some_and(|f| *f.data_type() == DataType::Null)
}

/// A compiled take/put along an axis on either kind of tensor.
#[derive(Debug, PartialEq, Eq, Hash)]
pub enum AlongCall {
    /// Every argument fixed-shape: one plan for every row.
    Fixed(Box<AlongAxisPlan>),
    /// Some argument variable-shape: one plan per combination of row shapes.
    Variable(Box<VariableAlongPlan>),
}

/// A compiled take/put along an axis where `t`, `idx` or the put's values is variable-shape.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct VariableAlongPlan {
    t: AnyTensorType,
    index: AnyTensorType,
    /// For put: the values (a number is a 0-d fixed-shape tensor).
    values: Option<AnyTensorType>,
    /// The axis, normalised (0 with `flatten`).
    axis: usize,
    /// numpy's axis=None: each row of `t` flattened.
    flatten: bool,
    /// Fixed-shape when every row's result shape is known when the query is planned.
    output: AnyTensorType,
    /// The session's limits, which each row's broadcast index shape is checked against.
    limits: Limits,
}

fn plan_call(
    args: &PlanArgs<'_>,
    name: &str,
    values_arg: Option<usize>,
    axis_arg: usize,
) -> Result<AlongCall> {
    let variable = [Some(0), Some(1), values_arg]
        .into_iter()
        .flatten()
        .any(|i| {
            args.fields
                .get(i)
                .is_some_and(|f| has_variable_shape_extension(f))
        });
    if variable {
        plan_variable(args, name, values_arg, axis_arg)
            .map(|plan| AlongCall::Variable(Box::new(plan)))
    } else {
        plan_along_axis(args, name, values_arg, axis_arg)
            .map(|plan| AlongCall::Fixed(Box::new(plan)))
    }
}

/// Plans a take/put along an axis with a variable-shape argument: the checks that need no row
/// (types, number of dimensions, axis, the dimensions known in every row), the result type.
fn plan_variable(
    args: &PlanArgs<'_>,
    name: &str,
    values_arg: Option<usize>,
    axis_arg: usize,
) -> Result<VariableAlongPlan> {
    let t = args.any_tensor(0, "t")?;
    let index = args.any_tensor(1, "idx")?;
    check_index_type(name, index.element_type())?;
    let flatten = axis_is_none(args, axis_arg);
    let t_known = known_shape(&t);
    let i_known = known_shape(&index);
    let input_known = if flatten {
        if i_known.len() != 1 {
            return plan_err!("{name}: when axis=None, `indices` must have a single dimension.");
        }
        let size = t_known
            .iter()
            .copied()
            .collect::<Option<Vec<usize>>>()
            .map(|dims| dims.iter().product());
        vec![size]
    } else {
        t_known.clone()
    };
    let ndim = input_known.len();
    if i_known.len() != ndim {
        return plan_err!(
            "{name}: `indices` and `arr` must have the same number of dimensions (idx has {}, t has {ndim})",
            i_known.len()
        );
    }
    let axis = if flatten {
        0
    } else {
        plan_axis(args.literal(axis_arg), name, ndim)?
    };
    let element = t.element_type().clone();
    let values = match values_arg {
        None => None,
        Some(i) => Some(match super::variable_of(&args.fields[i])? {
            Some(values) => AnyTensorType::Variable(values),
            None => AnyTensorType::Fixed(plan_values(&args.fields[i], name, &element)?),
        }),
    };
    let output = if values.is_some() {
        // The put keeps t's shape.
        match &t {
            AnyTensorType::Fixed(t) => AnyTensorType::Fixed(t.to_row_major()),
            AnyTensorType::Variable(v) => {
                output_of_known(&element, &t_known, v.logical_dim_names())?
            }
        }
    } else {
        let mut known = Vec::with_capacity(ndim);
        for (d, (&t_dim, &i_dim)) in input_known.iter().zip(&i_known).enumerate() {
            if d == axis {
                known.push(i_dim);
                continue;
            }
            match known_broadcast(&[&[t_dim], &[i_dim]]) {
                Some(dim) => known.extend(dim),
                None => {
                    return plan_err!(
                        "{name}: shape mismatch: indexing arrays could not be broadcast together with shapes {} {}",
                        format_known(&input_known),
                        format_known(&i_known)
                    );
                }
            }
        }
        output_of_known(&element, &known, None)?
    };
    Ok(VariableAlongPlan {
        t,
        index,
        values,
        axis,
        flatten,
        output,
        limits: args.limits,
    })
}

/// `idx`'s values as `Int64`: a `UInt64` index past `i64::MAX` is out of bounds for any axis (of
/// length `dim` when every row has the same), an error, not a NULL.
fn index_values(
    name: &str,
    values: &ArrayRef,
    axis: usize,
    dim: Option<usize>,
) -> Result<ArrayRef> {
    let size = dim.map_or_else(String::new, |dim| format!(" with size {dim}"));
    cast_with_options(values, &DataType::Int64, &strict_cast()).map_err(|_| {
        datafusion::common::exec_datafusion_err!(
            "{name}: argument idx holds an index too large for a 64-bit signed integer: out of bounds for axis {axis}{size}"
        )
    })
}

/// `values` cast to `t`'s element type `element`, which they must fit (no silent wraparound).
fn put_values(name: &str, values: &ArrayRef, element: &DataType) -> Result<ArrayRef> {
    let strict = strict_cast();
    if *element == DataType::Boolean {
        return Ok(cast_with_options(values, element, &strict)?);
    }
    cast_with_options(values, element, &strict).map_err(|e| {
        datafusion::common::exec_datafusion_err!("{name}: values do not fit {element}: {e}")
    })
}

/// One batch of a take (`values` absent) or put along an axis with a variable-shape argument.
fn along_variable(name: &str, plan: &VariableAlongPlan, arrays: &[ArrayRef]) -> Result<ArrayRef> {
    let rows = arrays[0].len();
    let put = plan.values.is_some();
    let t_view = view_of(name, &plan.t, &arrays[0])?;
    let i_view = view_of(name, &plan.index, &arrays[1])?;
    // The take reads t as stored; the put writes a row-major copy; axis=None reads it flat.
    let mut t = row_tensor(
        name,
        &plan.t,
        &arrays[0],
        t_view.as_ref(),
        put || plan.flatten,
    )?;
    if plan.flatten {
        t = t.flattened();
    }
    let idx = row_tensor(name, &plan.index, &arrays[1], i_view.as_ref(), false)?;
    let v_view = match &plan.values {
        Some(values) => view_of(name, values, &arrays[2])?,
        None => None,
    };
    let values = match &plan.values {
        Some(values) => Some(row_tensor(name, values, &arrays[2], v_view.as_ref(), true)?),
        None => None,
    };
    let mut nulls = NullBuffer::union(t.nulls(), idx.nulls());
    if let Some(values) = &values {
        nulls = NullBuffer::union(nulls.as_ref(), values.nulls());
    }
    // An index row with a NULL element names no position: a NULL row.
    let nulls = layout::null_rows_of_elements(nulls, idx.values().as_ref(), rows, |r| idx.span(r));
    let idx_values = index_values(name, idx.values(), plan.axis, None)?;
    let spec = AlongRows {
        t: &t,
        idx: &idx,
        idx_values: idx_values.as_primitive::<Int64Type>().values(),
        values: values.as_ref(),
        axis: plan.axis,
        limits: &plan.limits,
    };
    let found = along_positions(&spec, rows, nulls.as_ref()).map_err(|e| e.in_function(name))?;
    let out = match &values {
        None => take_positions(t.values(), found.positions)?,
        Some(values) => {
            let cast = put_values(name, values.values(), plan.t.element_type())?;
            let values = PutValues {
                values: &cast,
                value_len: 0,
                offsets: &found.value_positions,
            };
            let n = found.positions.len();
            put_along_axis(t.values(), &found.positions, n, 1, None, values)?
        }
    };
    match (&plan.output, &t_view) {
        (AnyTensorType::Fixed(output), _) => {
            // The take's NULL rows hold nothing; so do the put's where t's row is NULL.
            let (out, skipped) = match (put, &t_view) {
                (false, _) => (out, nulls.as_ref()),
                (true, Some(view)) => (out, view.nulls()),
                (true, None) => (out, None),
            };
            let out = pad_null_rows(out, output.size(), rows, skipped)?;
            Ok(Arc::new(layout::tensor_array(output, out, nulls, rows)?))
        }
        (AnyTensorType::Variable(output), Some(view)) if put => {
            // Each row keeps t's shape (a row NULL in another argument keeps its values).
            let mut shapes = Vec::with_capacity(rows * output.ndim());
            let mut lengths = Vec::with_capacity(rows);
            for row in 0..rows {
                if view.is_null(row) {
                    shapes.extend(std::iter::repeat_n(0, output.ndim()));
                    lengths.push(0);
                } else {
                    shapes.extend(view.logical_shape(row).map(|d| d as i32));
                    lengths.push(view.value_range(row).len());
                }
            }
            Ok(Arc::new(ragged::from_rows(
                output, out, &lengths, shapes, nulls,
            )?))
        }
        (AnyTensorType::Variable(output), _) => Ok(Arc::new(ragged::from_rows(
            output,
            out,
            &found.lengths,
            found.shapes,
            nulls,
        )?)),
    }
}

/// The axis argument, a literal integer normalised against `ndim` (negative from the end).
fn plan_axis(literal: Option<&ScalarValue>, name: &str, ndim: usize) -> Result<usize> {
    match literal {
        Some(value) if value.data_type().is_integer() && !value.is_null() => {
            let value = match value.cast_to(&DataType::Int64)? {
                ScalarValue::Int64(Some(v)) => v,
                _ => 0,
            };
            match wrap_index(value, ndim) {
                Some(axis) => Ok(axis),
                // numpy: AxisError: axis 2 is out of bounds for array of dimension 2
                None => {
                    plan_err!("{name}: axis {value} is out of bounds for array of dimension {ndim}")
                }
            }
        }
        _ => plan_err!(
            "{name}: argument axis must be a literal integer (or NULL: numpy's axis=None)"
        ),
    }
}

/// The put's values argument as a tensor type: a tensor, a number (0-d), or a NULL literal
/// (0-d of `t`'s `element` type; every row NULL).
fn plan_values(field: &Field, name: &str, element: &DataType) -> Result<TensorType> {
    let data_type = field.data_type();
    match super::tensor_of(field)? {
        Some(tensor) => Ok(tensor),
        None if data_type.is_numeric() || *data_type == DataType::Boolean => {
            Ok(TensorType::new(data_type.clone(), vec![])?)
        }
        None if *data_type == DataType::Null => Ok(TensorType::new(element.clone(), vec![])?),
        None => plan_err!("{name}: argument values must be a tensor or a number, got {data_type}"),
    }
}

/// For each row, the offset of every broadcast position into the batch's values of `t` (see
/// [`element_positions`]: as stored for the take, in a row-major copy for the put), and the
/// rows' NULLs with those of rows whose `idx` has a NULL element (it names no position).
/// Errors name the row and value with numpy's wording.
fn element_offsets(
    name: &str,
    plan: &AlongAxisPlan,
    idx: &ArrayRef,
    rows: usize,
    nulls: Option<NullBuffer>,
) -> Result<(Vec<u64>, Option<NullBuffer>)> {
    let idx_list = tensor_array(name, idx)?;
    let idx_len = plan.offsets.index_len;
    let nulls =
        layout::null_rows_of_elements(nulls, idx_list.values(), rows, |r| (r * idx_len, idx_len));
    let dim = plan.offsets.dim;
    let values = index_values(name, idx_list.values(), plan.axis, Some(dim))?;
    let values = values.as_primitive::<Int64Type>().values();
    let positions = element_positions(&plan.offsets, values, rows, nulls.as_ref(), plan.axis)
        .map_err(|e| e.in_function(name))?;
    Ok((positions, nulls))
}

impl AlongCall {
    /// The result's field.
    fn output_field(&self, name: &str) -> FieldRef {
        Arc::new(match self {
            Self::Fixed(plan) => plan.output.to_field(name),
            Self::Variable(plan) => plan.output.to_field(name),
        })
    }

    /// A call over `args` (its data arguments at `columns`, `t` and `idx` first): rows of
    /// variable shape through [`along_variable`]; rows of fixed shape through `fixed`, given
    /// `t`, the arrays, the element positions `idx` names and the NULL rows (a NULL in any
    /// argument, or in an `idx` row), which returns the result's values.
    fn invoke(
        &self,
        name: &str,
        args: &[ColumnarValue],
        columns: &[usize],
        number_rows: usize,
        fixed: impl FnOnce(
            &AlongAxisPlan,
            &FixedSizeListArray,
            &[ArrayRef],
            Vec<u64>,
            Option<&NullBuffer>,
        ) -> Result<ArrayRef>,
    ) -> Result<ColumnarValue> {
        map_arrays(args, columns, number_rows, |arrays| match self {
            Self::Variable(plan) => along_variable(name, plan, arrays),
            Self::Fixed(plan) => {
                let input = tensor_array(name, &arrays[0])?;
                let rows = input.len();
                let nulls = arrays[1..]
                    .iter()
                    .fold(input.logical_nulls(), |nulls, array| {
                        NullBuffer::union(nulls.as_ref(), array.logical_nulls().as_ref())
                    });
                let (positions, nulls) = element_offsets(name, plan, &arrays[1], rows, nulls)?;
                let out = fixed(plan, input, arrays, positions, nulls.as_ref())?;
                Ok(Arc::new(layout::tensor_array(&plan.output, out, nulls, rows)?) as ArrayRef)
            }
        })
    }
}

/// `tensor_take_along_axis`.
#[user_doc(
    doc_section(label = "Tensor Functions"),
    description = "numpy's take_along_axis (MegEngine's gather): along `axis`, the elements of `t` that `idx` names; off the axis, `t` and `idx` broadcast. `idx` has as many dimensions as `t`; negative indices count from the end; an index out of bounds fails the query naming the row. NULL elements of `t` are taken as NULL; an `idx` row with a NULL element gives a NULL row.",
    syntax_example = "tensor_take_along_axis(t, idx, axis)",
    sql_example = r"```sql
> SELECT tensor_take_along_axis(tensor([10, 30, 20, 60, 40, 50], [2, 3]), tensor([0, 2, 1, 0], [2, 2]), 1) AS r;
+----------------------+
| r                    |
+----------------------+
| [[10, 20], [40, 60]] |
+----------------------+
```",
    argument(name = "t", description = "A tensor."),
    argument(
        name = "idx",
        description = "An integer tensor with as many dimensions as t."
    ),
    argument(
        name = "axis",
        description = "A literal axis (negative from the end), or NULL for numpy's axis=None (the flattened tensor, a 1-d idx)."
    )
)]
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct TensorTakeAlongAxis {}

registered_function!(TensorTakeAlongAxis);

impl TensorFunction for TensorTakeAlongAxis {
    type Plan = AlongCall;

    function_metadata!("tensor_take_along_axis", ["t", "idx", "axis"], required = 3);

    fn tensor_arguments(&self, _arg_types: &[DataType]) -> Vec<usize> {
        vec![0, 1]
    }

    fn plan(&self, args: &PlanArgs<'_>) -> Result<AlongCall> {
        plan_call(args, self.name(), None, 2)
    }

    fn return_field(&self, plan: &AlongCall) -> FieldRef {
        plan.output_field(self.name())
    }

    fn invoke(
        &self,
        plan: &AlongCall,
        args: &[ColumnarValue],
        number_rows: usize,
    ) -> Result<ColumnarValue> {
        plan.invoke(
            self.name(),
            args,
            &[0, 1],
            number_rows,
            |plan, input, _, positions, nulls| {
                // t laid out as the offsets address it: as stored (no row-major copy of a permuted
                // t), or for axis=None its logical values flattened.
                let values = if plan.input == plan.stored {
                    Arc::clone(input.values())
                } else {
                    layout::row_major_values(&plan.stored, input)?
                };
                let n = plan.offsets.len();
                Ok(take_along_axis(&values, positions, n, input.len(), nulls)?)
            },
        )
    }
}

/// `tensor_put_along_axis`.
#[user_doc(
    doc_section(label = "Tensor Functions"),
    description = "numpy's put_along_axis (MegEngine's scatter), as a copy: `t` with the elements that `idx` names along `axis` replaced by `values` (broadcast to idx's shape). Where idx names a position twice, the last write wins, as in numpy. NULL elements of `values` are written as NULL; an `idx` row with a NULL element gives a NULL row.",
    syntax_example = "tensor_put_along_axis(t, idx, values, axis)",
    sql_example = r"```sql
> SELECT tensor_put_along_axis(tensor([10, 30, 20, 60, 40, 50], [2, 3]), tensor([1, 0], [2, 1]), 99, 1) AS r;
+------------------------------+
| r                            |
+------------------------------+
| [[10, 99, 20], [99, 40, 50]] |
+------------------------------+
```",
    argument(name = "t", description = "A tensor."),
    argument(
        name = "idx",
        description = "An integer tensor with as many dimensions as t."
    ),
    argument(
        name = "values",
        description = "A tensor or number, broadcast to idx's shape; cast to t's type (it must fit)."
    ),
    argument(
        name = "axis",
        description = "A literal axis (negative from the end), or NULL for numpy's axis=None (the flattened tensor, a 1-d idx)."
    )
)]
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct TensorPutAlongAxis {}

registered_function!(TensorPutAlongAxis);

impl TensorFunction for TensorPutAlongAxis {
    type Plan = AlongCall;

    function_metadata!(
        "tensor_put_along_axis",
        ["t", "idx", "values", "axis"],
        required = 4
    );

    fn tensor_arguments(&self, _arg_types: &[DataType]) -> Vec<usize> {
        vec![0, 1, 2]
    }

    fn list_column_length(&self, plan: &AlongCall, i: usize) -> Option<usize> {
        // values broadcast into the index's shape.
        if let (2, AlongCall::Fixed(plan)) = (i, plan) {
            plan.shape.last().copied()
        } else {
            None
        }
    }

    fn plan(&self, args: &PlanArgs<'_>) -> Result<AlongCall> {
        plan_call(args, self.name(), Some(2), 3)
    }

    fn return_field(&self, plan: &AlongCall) -> FieldRef {
        plan.output_field(self.name())
    }

    fn invoke(
        &self,
        plan: &AlongCall,
        args: &[ColumnarValue],
        number_rows: usize,
    ) -> Result<ColumnarValue> {
        let name = self.name();
        plan.invoke(
            name,
            args,
            &[0, 1, 2],
            number_rows,
            |plan, input, arrays, positions, nulls| {
                let Some((value_type, value_offsets)) = &plan.values else {
                    return exec_err!("{name}: values missing from the plan");
                };
                let (value_values, value_len) = if value_type.ndim() == 0
                    && !matches!(arrays[2].data_type(), DataType::FixedSizeList(..))
                {
                    (Arc::clone(&arrays[2]), 1)
                } else {
                    let list = tensor_array(name, &arrays[2])?;
                    (
                        layout::row_major_values(value_type, list)?,
                        value_type.size(),
                    )
                };
                let value_values = put_values(name, &value_values, plan.input.element_type())?;
                let base = layout::row_major_values(&plan.stored, input)?;
                let values = PutValues {
                    values: &value_values,
                    value_len,
                    offsets: value_offsets,
                };
                let n = plan.offsets.len();
                Ok(put_along_axis(
                    &base,
                    &positions,
                    n,
                    input.len(),
                    nulls,
                    values,
                )?)
            },
        )
    }
}
