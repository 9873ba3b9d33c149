//! `tensor_take_along_axis(t, idx, axis)` and `tensor_put_along_axis(t, idx, values, axis)`:
//! numpy's `take_along_axis` / `put_along_axis` (MegEngine's gather / scatter), per row.
//!
//! `t` and `idx` have the same number of dimensions; off `axis` their shapes broadcast, along
//! it `idx` says which elements. The plan compiles, for every position of the broadcast index,
//! where it sits in `idx`'s row and where (but for the axis term) it reads or writes in `t`'s
//! row; each row then only adds the checked index times the axis stride.

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, AsArray, BooleanBufferBuilder, PrimitiveArray, UInt64Array};
use arrow::buffer::{BooleanBuffer, NullBuffer, ScalarBuffer};
use arrow::compute::{cast, cast_with_options, take};
use arrow::datatypes::{ArrowPrimitiveType, DataType, FieldRef, Int64Type};
use datafusion::common::{ScalarValue, exec_err, plan_err};
use datafusion::error::Result;
use datafusion::logical_expr::{ColumnarValue, Signature};
use datafusion_macros::user_doc;

use super::{PlanArgs, TensorFunction, map_arrays, tensor_array};
use crate::dtype::strict_cast;
use crate::index::wrap_index;
use crate::kernels::layout;
use crate::shape::{broadcast_strides, format_shape, strided_offsets};
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
    /// For each broadcast position: offset in `idx`'s row.
    index_offsets: Vec<u32>,
    /// For each broadcast position: offset in `t`'s row without the axis term.
    input_offsets: Vec<u32>,
    /// For put: offset of each broadcast position in `values`' row (broadcast), and its type.
    values: Option<(TensorType, Vec<u32>)>,
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
    let axis = match args.literal(axis_arg) {
        _ if flatten => 0,
        Some(value) if value.data_type().is_integer() && !value.is_null() => {
            let value = match value.cast_to(&DataType::Int64)? {
                ScalarValue::Int64(Some(v)) => v,
                _ => 0,
            };
            let adjusted = if value < 0 {
                value + ndim as i64
            } else {
                value
            };
            if adjusted < 0 || adjusted >= ndim as i64 {
                // numpy: AxisError: axis 2 is out of bounds for array of dimension 2
                return plan_err!(
                    "{name}: axis {value} is out of bounds for array of dimension {ndim}"
                );
            }
            adjusted as usize
        }
        _ => {
            return plan_err!(
                "{name}: argument axis must be a literal integer (or NULL: numpy's axis=None)"
            );
        }
    };
    let t_shape = input.logical_shape();
    let t_strides = input.logical_strides();
    let i_shape = index.logical_shape();
    let i_strides = index.logical_strides();
    // Off the axis, t and idx broadcast; along it, idx's length.
    let mut shape = Vec::with_capacity(ndim);
    for d in 0..ndim {
        if d == axis {
            shape.push(i_shape[d]);
        } else if t_shape[d] == i_shape[d] || i_shape[d] == 1 {
            shape.push(t_shape[d]);
        } else if t_shape[d] == 1 {
            shape.push(i_shape[d]);
        } else {
            return plan_err!(
                "{name}: shape mismatch: indexing arrays could not be broadcast together with shapes {} {} ",
                format_shape(&t_shape),
                format_shape(&i_shape)
            );
        }
    }
    let index_offsets: Vec<u32> =
        strided_offsets(&shape, &broadcast_strides(&i_shape, &i_strides, &shape))
            .into_iter()
            .map(|o| o as u32)
            .collect();
    // t read through the broadcast shape, the axis term left out (added per element).
    let mut t_like = t_shape.clone();
    t_like[axis] = 1;
    let mut t_axis_free = t_strides.clone();
    t_axis_free[axis] = 0;
    let input_offsets: Vec<u32> =
        strided_offsets(&shape, &broadcast_strides(&t_like, &t_axis_free, &shape))
            .into_iter()
            .map(|o| o as u32)
            .collect();
    let values = match values_arg {
        None => None,
        Some(i) => {
            let values = match super::tensor_of(&args.fields[i])? {
                Some(tensor) => tensor,
                None if args.fields[i].data_type().is_numeric()
                    || *args.fields[i].data_type() == DataType::Boolean =>
                {
                    TensorType::new(args.fields[i].data_type().clone(), vec![])?
                }
                // A NULL literal: every row NULL.
                None if *args.fields[i].data_type() == DataType::Null => {
                    TensorType::new(input.element_type().clone(), vec![])?
                }
                None => {
                    return plan_err!(
                        "{name}: argument values must be a tensor or a number, got {}",
                        args.fields[i].data_type()
                    );
                }
            };
            let offsets = super::broadcast_values_offsets(name, &values.logical_shape(), &shape)?
                .into_iter()
                .map(|o| o as u32)
                .collect();
            Some((values, offsets))
        }
    };
    let output = if values.is_some() {
        stored.to_row_major()
    } else {
        TensorType::new(input.element_type().clone(), shape.clone())?
    };
    Ok(AlongAxisPlan {
        stored,
        input,
        index,
        axis,
        shape,
        index_offsets,
        input_offsets,
        values,
        output,
    })
}

/// For each row, the offset of every broadcast position into the batch's values of `t` laid
/// out as `plan.input` is (`row_major` false: as stored, or flattened for axis=None; the take
/// reads them so) or in row-major (logical) order (`row_major`: the put writes a row-major
/// copy), its axis index checked, and the rows' NULLs with those of rows whose `idx` has a
/// NULL element (it names no position). NULL rows hold placeholders (0) that the kernels never
/// read (an empty `t` has no element 0). Errors name the row and value with numpy's wording.
fn element_offsets(
    name: &str,
    plan: &AlongAxisPlan,
    idx: &ArrayRef,
    rows: usize,
    nulls: Option<NullBuffer>,
    row_major: bool,
) -> Result<(Vec<u64>, Option<NullBuffer>)> {
    let idx_list = tensor_array(name, idx)?;
    let idx_len = plan.index.size();
    let nulls =
        layout::null_rows_of_elements(nulls, idx_list.values(), rows, |r| (r * idx_len, idx_len));
    // A UInt64 index past i64::MAX is out of bounds for any axis: an error, not a NULL.
    let values = cast_with_options(idx_list.values(), &DataType::Int64, &strict_cast()).map_err(|_| {
        datafusion::common::exec_datafusion_err!(
            "{name}: argument idx holds an index too large for a 64-bit signed integer: out of bounds for axis {} with size {}",
            plan.axis,
            plan.input.logical_shape()[plan.axis]
        )
    })?;
    let values = values.as_primitive::<Int64Type>().values();
    let dim = plan.input.logical_shape()[plan.axis];
    let stride = plan.input.logical_strides()[plan.axis];
    let in_len = plan.input.size();
    let n = plan.index_offsets.len();
    let logical_of_stored = if row_major {
        logical_of_stored(plan)
    } else {
        None
    };
    let mut out = vec![0u64; rows * n];
    for row in 0..rows {
        if nulls.as_ref().is_some_and(|nulls| nulls.is_null(row)) {
            continue;
        }
        let idx_row = &values[row * idx_len..(row + 1) * idx_len];
        let base = row * in_len;
        for (k, target) in out[row * n..(row + 1) * n].iter_mut().enumerate() {
            let value = idx_row[plan.index_offsets[k] as usize];
            let Some(position) = wrap_index(value, dim) else {
                return exec_err!(
                    "{name}: index {value} is out of bounds for axis {} with size {dim} at row {row} of its batch",
                    plan.axis
                );
            };
            let stored = plan.input_offsets[k] as usize + position * stride;
            let logical = logical_of_stored
                .as_ref()
                .map_or(stored, |table| table[stored]);
            *target = (base + logical) as u64;
        }
    }
    Ok((out, nulls))
}

/// Where a put writes: the batch offset of each of the `n` index positions of every row.
struct Scatter<'a> {
    offsets: &'a [u64],
    n: usize,
    rows: usize,
    nulls: Option<&'a NullBuffer>,
}

/// `input`'s values with the writes of `scatter` done in order (numpy assigns in order: the
/// last write to a position wins); each write also copies the value's validity when either
/// side has NULL elements.
fn put_typed<P: ArrowPrimitiveType>(
    input: &ArrayRef,
    scatter: &Scatter<'_>,
    values: &ArrayRef,
    value_len: usize,
    value_offsets: &[u32],
) -> ArrayRef {
    let input = input.as_primitive::<P>();
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
        let offsets = &scatter.offsets[row * n..(row + 1) * n];
        let from = row * value_len;
        match validity.as_mut() {
            None => {
                for (&o, &v) in offsets.iter().zip(value_offsets) {
                    out[o as usize] = values.value(from + v as usize);
                }
            }
            Some(bits) => {
                for (&o, &v) in offsets.iter().zip(value_offsets) {
                    let v = from + v as usize;
                    out[o as usize] = values.value(v);
                    bits.set_bit(o as usize, values.is_valid(v));
                }
            }
        }
    }
    let nulls = validity.map(|mut bits| NullBuffer::new(bits.finish()));
    Arc::new(PrimitiveArray::<P>::new(ScalarBuffer::from(out), nulls))
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
            let (offsets, nulls) =
                element_offsets(self.name(), plan, &arrays[1], rows, nulls, false)?;
            // t laid out as the offsets address it: as stored (no row-major copy of a permuted
            // t), or for axis=None its logical values flattened.
            let values = if plan.input == plan.stored {
                Arc::clone(input.values())
            } else {
                layout::row_major_values(&plan.stored, input)?
            };
            // arrow's take over every element at once (all types, NULL elements kept); a NULL
            // row's positions are NULL indices, never read.
            let n = plan.index_offsets.len();
            let index_nulls = nulls.as_ref().map(|nulls| {
                NullBuffer::new(BooleanBuffer::collect_bool(rows * n, |i| {
                    nulls.is_valid(i / n)
                }))
            });
            let indices = UInt64Array::new(ScalarBuffer::from(offsets), index_nulls);
            let out = take(&values, &indices, None)?;
            Ok(Arc::new(layout::tensor_array(&plan.output, out, nulls, rows)?) as ArrayRef)
        })
    }
}

/// For a permuted `t`, the row-major (logical) offset of each stored offset: offsets are
/// computed with `t`'s stored strides, the kernels read and write its row-major values.
/// `None` when the two layouts are the same.
fn logical_of_stored(plan: &AlongAxisPlan) -> Option<Vec<usize>> {
    if !plan.input.is_permuted() {
        return None;
    }
    let logical = plan.input.logical_shape();
    let stored_of_logical = strided_offsets(&logical, &plan.input.logical_strides());
    let mut inverse = vec![0usize; stored_of_logical.len()];
    for (logical_offset, &stored) in stored_of_logical.iter().enumerate() {
        inverse[stored] = logical_offset;
    }
    Some(inverse)
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
            let (offsets, nulls) =
                element_offsets(self.name(), plan, &arrays[1], rows, nulls, true)?;
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
            let boolean = *element == DataType::Boolean;
            let work_type = if boolean {
                DataType::UInt8
            } else {
                element.clone()
            };
            // Values must fit t's type (no silent wraparound).
            let strict = strict_cast();
            let value_values = if boolean {
                cast(
                    &cast_with_options(&value_values, &DataType::Boolean, &strict)?,
                    &DataType::UInt8,
                )?
            } else {
                cast_with_options(&value_values, &work_type, &strict).map_err(|e| {
                    datafusion::common::exec_datafusion_err!(
                        "{}: values do not fit {element}: {e}",
                        self.name()
                    )
                })?
            };
            let base = layout::row_major_values(&plan.stored, input)?;
            let base = if boolean {
                cast(&base, &DataType::UInt8)?
            } else {
                base
            };
            let scatter = Scatter {
                offsets: &offsets,
                n: plan.index_offsets.len(),
                rows,
                nulls: nulls.as_ref(),
            };
            let out = crate::with_primitive_type!(&work_type, P => put_typed::<P>(&base, &scatter, &value_values, value_len, value_offsets),
                _ => return exec_err!("{}: unsupported element type {}", self.name(), work_type));
            let out = if boolean {
                cast(&out, &DataType::Boolean)?
            } else {
                out
            };
            Ok(Arc::new(layout::tensor_array(&plan.output, out, nulls, rows)?) as ArrayRef)
        })
    }
}
