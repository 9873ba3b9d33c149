//! `tensor_take_along_axis(t, idx, axis)` and `tensor_put_along_axis(t, idx, values, axis)`:
//! numpy's `take_along_axis` / `put_along_axis` (MegEngine's gather / scatter), per row.
//!
//! `t` and `idx` have the same number of dimensions; off `axis` their shapes broadcast
//! ([`crate::shape::broadcast_along_axis`]), along it `idx` says which elements. The plan
//! compiles the offsets of every position of the broadcast index once
//! ([`crate::kernels::along_axis::AxisOffsets`]); the kernels there run over whole batches.

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, AsArray};
use arrow::buffer::NullBuffer;
use arrow::compute::cast_with_options;
use arrow::datatypes::{DataType, Field, FieldRef, Int64Type};
use datafusion::common::{ScalarValue, exec_err, plan_err};
use datafusion::error::Result;
use datafusion::logical_expr::{ColumnarValue, Signature};
use datafusion_macros::user_doc;

use super::{PlanArgs, TensorFunction, map_arrays, tensor_array};
use crate::dtype::strict_cast;
use crate::index::wrap_index;
use crate::kernels::along_axis::{
    AxisOffsets, PutValues, element_positions, put_along_axis, take_along_axis,
};
use crate::kernels::layout;
use crate::shape::{
    assignment_offsets, broadcast_along_axis, broadcast_offsets, logical_of_stored,
};
use crate::tensor_type::TensorType;

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
    if !index.element_type().is_integer() {
        return plan_err!(
            "{name}: argument idx must hold integers, got {}",
            index.element_type()
        );
    }
    // numpy's axis=None: the flattened array (logical row-major order), a 1-d index.
    let flatten = args.literal(axis_arg).is_some_and(ScalarValue::is_null)
        || args
            .fields
            .get(axis_arg)
            .is_some_and(|f| *f.data_type() == DataType::Null);
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
    let i_shape = index.logical_shape();
    let shape = broadcast_along_axis(&t_shape, &i_shape, axis)
        .map_err(|e| datafusion::common::plan_datafusion_err!("{name}: {e}"))?;
    let index_offsets = broadcast_offsets(&i_shape, &index.logical_strides(), &shape);
    // t read through the broadcast shape, the axis term left out (added per element).
    let mut t_like = t_shape.clone();
    t_like[axis] = 1;
    let mut t_axis_free = t_strides.clone();
    t_axis_free[axis] = 0;
    let input_offsets = broadcast_offsets(&t_like, &t_axis_free, &shape);
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
    let logical_of_stored =
        (values.is_some() && input.is_permuted()).then(|| logical_of_stored(&t_shape, &t_strides));
    let offsets = AxisOffsets {
        index: index_offsets,
        input: input_offsets,
        index_len: index.size(),
        input_len: input.size(),
        dim: t_shape[axis],
        stride: t_strides[axis],
        logical_of_stored,
    };
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
    // A UInt64 index past i64::MAX is out of bounds for any axis: an error, not a NULL.
    let values = cast_with_options(idx_list.values(), &DataType::Int64, &strict_cast()).map_err(|_| {
        datafusion::common::exec_datafusion_err!(
            "{name}: argument idx holds an index too large for a 64-bit signed integer: out of bounds for axis {} with size {dim}",
            plan.axis
        )
    })?;
    let values = values.as_primitive::<Int64Type>().values();
    let positions = element_positions(&plan.offsets, values, rows, nulls.as_ref(), plan.axis)
        .map_err(|e| e.in_function(name))?;
    Ok((positions, nulls))
}

/// `tensor_take_along_axis`.
#[user_doc(
    doc_section(label = "Tensor Functions"),
    description = "numpy's take_along_axis (MegEngine's gather): along `axis`, the elements of `t` that `idx` names; off the axis, `t` and `idx` broadcast. `idx` has as many dimensions as `t`; negative indices count from the end; an index out of bounds fails the query naming the row. NULL elements of `t` are taken as NULL; an `idx` row with a NULL element gives a NULL row.",
    syntax_example = "tensor_take_along_axis(t, idx, axis)",
    sql_example = r"```sql
> SELECT tensor_take_along_axis(tensor([10, 30, 20, 60, 40, 50], [2, 3]), tensor([0, 2, 1, 0], [2, 2]), 1) AS r;
+--------------------+
| r                  |
+--------------------+
| [[10, 20], [40, 60]] |
+--------------------+
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
pub struct TensorTakeAlongAxis {
    signature: Signature,
}

registered_function!(TensorTakeAlongAxis, ["t", "idx", "axis"]);

impl TensorFunction for TensorTakeAlongAxis {
    type Plan = AlongAxisPlan;

    function_metadata!("tensor_take_along_axis");

    fn tensor_arguments(&self, _arg_types: &[DataType]) -> Vec<usize> {
        vec![0, 1]
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        super::check_arity(self.name(), arg_types, 3, 3)?;
        Ok(arg_types.to_vec())
    }

    fn plan(&self, args: &PlanArgs<'_>) -> Result<AlongAxisPlan> {
        plan_along_axis(args, self.name(), None, 2)
    }

    fn return_field(&self, plan: &AlongAxisPlan) -> FieldRef {
        Arc::new(plan.output.to_field(self.name()))
    }

    fn invoke(
        &self,
        plan: &AlongAxisPlan,
        args: &[ColumnarValue],
        number_rows: usize,
    ) -> Result<ColumnarValue> {
        map_arrays(args, &[0, 1], number_rows, |arrays| {
            let input = tensor_array(self.name(), &arrays[0])?;
            let rows = input.len();
            let nulls = NullBuffer::union(
                input.logical_nulls().as_ref(),
                arrays[1].logical_nulls().as_ref(),
            );
            let (positions, nulls) = element_offsets(self.name(), plan, &arrays[1], rows, nulls)?;
            // t laid out as the offsets address it: as stored (no row-major copy of a permuted
            // t), or for axis=None its logical values flattened.
            let values = if plan.input == plan.stored {
                Arc::clone(input.values())
            } else {
                layout::row_major_values(&plan.stored, input)?
            };
            let n = plan.offsets.len();
            let out = take_along_axis(&values, positions, n, rows, nulls.as_ref())?;
            Ok(Arc::new(layout::tensor_array(&plan.output, out, nulls, rows)?) as ArrayRef)
        })
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
pub struct TensorPutAlongAxis {
    signature: Signature,
}

registered_function!(TensorPutAlongAxis, ["t", "idx", "values", "axis"]);

impl TensorFunction for TensorPutAlongAxis {
    type Plan = AlongAxisPlan;

    function_metadata!("tensor_put_along_axis");

    fn tensor_arguments(&self, _arg_types: &[DataType]) -> Vec<usize> {
        vec![0, 1, 2]
    }

    fn list_column_length(&self, plan: &AlongAxisPlan, i: usize) -> Option<usize> {
        // values broadcast into the index's shape.
        if i == 2 {
            plan.shape.last().copied()
        } else {
            None
        }
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        super::check_arity(self.name(), arg_types, 4, 4)?;
        Ok(arg_types.to_vec())
    }

    fn plan(&self, args: &PlanArgs<'_>) -> Result<AlongAxisPlan> {
        plan_along_axis(args, self.name(), Some(2), 3)
    }

    fn return_field(&self, plan: &AlongAxisPlan) -> FieldRef {
        Arc::new(plan.output.to_field(self.name()))
    }

    fn invoke(
        &self,
        plan: &AlongAxisPlan,
        args: &[ColumnarValue],
        number_rows: usize,
    ) -> Result<ColumnarValue> {
        map_arrays(args, &[0, 1, 2], number_rows, |arrays| {
            let input = tensor_array(self.name(), &arrays[0])?;
            let rows = input.len();
            let mut nulls = NullBuffer::union(
                input.logical_nulls().as_ref(),
                arrays[1].logical_nulls().as_ref(),
            );
            nulls = NullBuffer::union(nulls.as_ref(), arrays[2].logical_nulls().as_ref());
            let (positions, nulls) = element_offsets(self.name(), plan, &arrays[1], rows, nulls)?;
            let Some((value_type, value_offsets)) = &plan.values else {
                return exec_err!("{}: values missing from the plan", self.name());
            };
            let (value_values, value_len) = if value_type.ndim() == 0
                && !matches!(arrays[2].data_type(), DataType::FixedSizeList(..))
            {
                (Arc::clone(&arrays[2]), 1)
            } else {
                let list = tensor_array(self.name(), &arrays[2])?;
                (
                    layout::row_major_values(value_type, list)?,
                    value_type.size(),
                )
            };
            let element = plan.input.element_type();
            // Values must fit t's type (no silent wraparound).
            let strict = strict_cast();
            let value_values = if *element == DataType::Boolean {
                cast_with_options(&value_values, element, &strict)?
            } else {
                cast_with_options(&value_values, element, &strict).map_err(|e| {
                    datafusion::common::exec_datafusion_err!(
                        "{}: values do not fit {element}: {e}",
                        self.name()
                    )
                })?
            };
            let base = layout::row_major_values(&plan.stored, input)?;
            let values = PutValues {
                values: &value_values,
                value_len,
                offsets: value_offsets,
            };
            let n = plan.offsets.len();
            let out = put_along_axis(&base, &positions, n, rows, nulls.as_ref(), values)?;
            Ok(Arc::new(layout::tensor_array(&plan.output, out, nulls, rows)?) as ArrayRef)
        })
    }
}
