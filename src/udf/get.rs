//! `tensor_get(t, 'index')` and `tensor_get(t, i, j, ...)`: numpy indexing (SPEC §4).
//!
//! Static form: the index string is parsed and normalised against the tensor's logical shape
//! when the query is planned, and compiled into a [`GatherPlan`] applied to every row.
//! Dynamic form: integer columns index the leading axes row by row (bounds-checked, naming the
//! row); the remaining sub-tensor is copied with the plan of a full slice.

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, FixedSizeListArray};
use arrow::buffer::NullBuffer;
use arrow::datatypes::{DataType, Field, FieldRef};
use datafusion::common::{plan_datafusion_err, plan_err};
use datafusion::error::Result;
use datafusion::logical_expr::{ColumnarValue, Signature};
use datafusion_macros::user_doc;

use super::{PlanArgs, TensorFunction, is_string, string_literal, tensor_array};
use crate::index::{GatherPlan, IndexExpr, Selection, normalize, parse_index, too_many_indices};
use crate::kernels::gather::{gather_at_indices, gather_values};
use crate::kernels::layout;
use crate::tensor_type::TensorType;

/// `tensor_get`.
#[user_doc(
    doc_section(label = "Tensor Functions"),
    description = "numpy indexing and slicing, as copies (MegEngine semantics). With an index string, numpy's full grammar: integers (negative from the end) remove an axis, slices start:stop:step keep it (Python clamping, negative steps), `...`, None/newaxis, integer lists (advanced indices, nested for multi-dimensional) and boolean lists (masks), in any mix; parsed once when the query is planned. With integer columns instead, they index the leading axes row by row. A result with no axes left is a plain value.",
    syntax_example = "tensor_get(t, index) | tensor_get(t, i [, j, ...])",
    sql_example = r"```sql
> SELECT tensor_get(tensor(range(16), [4, 4]), '1:3, ::2') AS r;
+------------------+
| r                |
+------------------+
| [[4, 6], [8, 10]] |
+------------------+
```",
    argument(name = "t", description = "A tensor expression."),
    argument(
        name = "index",
        description = "A literal index string in numpy syntax, e.g. '1:3, ..., ::2', '[0, 2], None', '[True, False, True]'; or one or more integer expressions for the leading axes."
    )
)]
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct TensorGet {
    signature: Signature,
}

registered_function!(TensorGet, []);

/// A compiled `tensor_get` call.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct GetPlan {
    input: TensorType,
    /// The parsed index (static form), for display.
    index: Option<IndexExpr>,
    /// Number of integer index columns (dynamic form).
    dynamic: usize,
    gather: GatherPlan,
    /// The result type: a tensor, or `None` for a 0-d result (a plain value).
    output: Option<TensorType>,
}

/// The output tensor type of a selection: dim names survive when every output dimension is one
/// input dimension.
fn output_type(input: &TensorType, selection: &Selection) -> Result<Option<TensorType>> {
    if selection.shape.is_empty() {
        return Ok(None);
    }
    Ok(Some(input.selection(
        input.element_type().clone(),
        selection.shape.clone(),
        &selection.source_axes,
    )?))
}

impl TensorFunction for TensorGet {
    type Plan = GetPlan;

    function_metadata!("tensor_get");

    fn tensor_arguments(&self, _arg_types: &[DataType]) -> Vec<usize> {
        vec![0]
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        if arg_types.len() < 2 {
            return plan_err!(
                "tensor_get function requires a tensor and an index (a string, or integer expressions), got {} arguments",
                arg_types.len()
            );
        }
        Ok(arg_types.to_vec())
    }

    fn plan(&self, args: &PlanArgs<'_>) -> Result<GetPlan> {
        let input = args.tensor(0, "t")?;
        let shape = input.logical_shape();
        let strides = input.logical_strides();
        if args.fields.len() == 2 && is_string(args.fields[1].data_type()) {
            let Some(text) = args.literal(1).and_then(string_literal) else {
                return plan_err!(
                    "tensor_get: argument index must be a literal string such as '1:3, ::2' (or integer expressions for the leading axes)"
                );
            };
            let index = parse_index(text).map_err(|e| plan_datafusion_err!("tensor_get: {e}"))?;
            let selection = normalize(&index, &shape, &strides)
                .map_err(|e| plan_datafusion_err!("tensor_get: {e}"))?;
            return Ok(GetPlan {
                output: output_type(&input, &selection)?,
                gather: GatherPlan::new(&selection, input.size()),
                input,
                index: Some(index),
                dynamic: 0,
            });
        }
        // Dynamic: integer expressions for the leading axes.
        let dynamic = args.fields.len() - 1;
        for (i, field) in args.fields[1..].iter().enumerate() {
            if !field.data_type().is_integer() && *field.data_type() != DataType::Null {
                return plan_err!(
                    "tensor_get: index argument {} must be an integer expression (or the only index argument a literal index string), got {}",
                    i + 1,
                    field.data_type()
                );
            }
        }
        if dynamic > shape.len() {
            return Err(too_many_indices(shape.len(), dynamic).in_function("tensor_get"));
        }
        // The rest of the tensor, from the indexed element on: a full slice of the remaining
        // axes.
        let rest = Selection {
            shape: shape[dynamic..].to_vec(),
            base: 0,
            components: shape[dynamic..]
                .iter()
                .zip(&strides[dynamic..])
                .map(|(&len, &stride)| crate::index::Component::Strided {
                    len,
                    start: 0,
                    step: stride as isize,
                })
                .collect(),
            source_axes: (dynamic..shape.len()).map(Some).collect(),
            dropped: false,
        };
        Ok(GetPlan {
            output: output_type(&input, &rest)?,
            gather: GatherPlan::new(&rest, input.size()),
            input,
            index: None,
            dynamic,
        })
    }

    fn return_field(&self, plan: &GetPlan) -> FieldRef {
        match &plan.output {
            Some(tensor) => Arc::new(tensor.to_field(self.name())),
            None => Arc::new(Field::new(
                self.name(),
                plan.input.element_type().clone(),
                true,
            )),
        }
    }

    fn invoke(
        &self,
        plan: &GetPlan,
        args: &[ColumnarValue],
        number_rows: usize,
    ) -> Result<ColumnarValue> {
        let data: Vec<usize> = if plan.dynamic == 0 {
            vec![0]
        } else {
            (0..=plan.dynamic).collect()
        };
        super::map_arrays(args, &data, number_rows, |arrays| {
            let input = tensor_array(self.name(), &arrays[0])?;
            get(plan, input, &arrays[1..])
        })
    }
}

fn get(plan: &GetPlan, input: &FixedSizeListArray, indices: &[ArrayRef]) -> Result<ArrayRef> {
    let rows = input.len();
    let mut nulls = input.logical_nulls();
    let values = Arc::clone(input.values());
    let out = if plan.dynamic == 0 {
        gather_values(&values, rows, &plan.gather, None)?
    } else {
        for column in indices {
            nulls = NullBuffer::union(nulls.as_ref(), column.logical_nulls().as_ref());
        }
        gather_at_indices(&values, &plan.input, indices, nulls.as_ref(), &plan.gather)
            .map_err(|e| e.in_function("tensor_get"))?
    };
    Ok(layout::output_rows(plan.output.as_ref(), out, nulls, rows)?)
}
