//! `tensor_reshape(t, shape)`: the same elements in a new shape (numpy `reshape`, C order).

use std::sync::Arc;

use arrow::array::{Array, ArrayRef};
use arrow::datatypes::{DataType, FieldRef};
use datafusion::common::plan_err;
use datafusion::error::Result;
use datafusion::logical_expr::ColumnarValue;
use datafusion_macros::user_doc;

use super::{PlanArgs, TensorFunction, literal_int_list, map_arrays, tensor_array, variable_array};
use crate::kernels::{layout, ragged};
use crate::shape::resolve_reshape;
use crate::tensor_type::TensorType;
use crate::variable_shape::{AnyTensorType, VariableShapeArray, VariableShapeType};

/// `tensor_reshape(t, shape)`.
#[user_doc(
    doc_section(label = "Tensor Functions"),
    description = "Returns the tensor's elements, read in logical row-major order, in a new shape with the same number of elements (numpy reshape). One dimension may be -1: it is inferred. The result is row-major and has no dim_names. On a variable-shape tensor each row is reshaped (a row whose size does not fit is an error naming it); with a -1 the result is variable-shape, each row's unknown dimension its own.",
    syntax_example = "tensor_reshape(t, shape)",
    sql_example = r"```sql
> SELECT tensor_reshape(tensor([1, 2, 3, 4, 5, 6], [2, 3]), [3, -1]) AS r;
+--------------------------+
| r                        |
+--------------------------+
| [[1, 2], [3, 4], [5, 6]] |
+--------------------------+
```",
    argument(
        name = "t",
        description = "A tensor (arrow.fixed_shape_tensor, arrow.variable_shape_tensor or FixedSizeList) expression."
    ),
    argument(
        name = "shape",
        description = "A literal list of integers, e.g. `[3, -1]`; one may be -1 (unknown)."
    )
)]
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct TensorReshape {}

registered_function!(TensorReshape);

/// A compiled reshape: the input's type and the output's.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct ReshapePlan {
    input: TensorType,
    output: TensorType,
}

/// A compiled `tensor_reshape` call on a variable-shape tensor.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct VariableReshapePlan {
    input: VariableShapeType,
    requested: Vec<i64>,
    /// Without an unknown dimension every row becomes this fixed shape; with one, each row
    /// its own.
    output: AnyTensorType,
}

/// A compiled `tensor_reshape` call on either kind of tensor.
#[derive(Debug, PartialEq, Eq, Hash)]
pub enum ReshapeCall {
    /// On a fixed-shape tensor.
    Fixed(ReshapePlan),
    /// On a variable-shape tensor: sizes checked row by row.
    Variable(VariableReshapePlan),
}

impl TensorFunction for TensorReshape {
    type Plan = ReshapeCall;

    function_metadata!("tensor_reshape", ["t", "shape"], required = 2);

    fn tensor_arguments(&self, _arg_types: &[DataType]) -> Vec<usize> {
        vec![0]
    }

    fn plan(&self, args: &PlanArgs<'_>) -> Result<ReshapeCall> {
        let input = args.any_tensor(0, "t")?;
        let Some(requested) = args.literal(1).and_then(literal_int_list) else {
            return plan_err!(
                "tensor_reshape: argument shape must be a literal list of integers such as [3, -1]"
            );
        };
        let input = match input {
            AnyTensorType::Fixed(input) => input,
            AnyTensorType::Variable(input) => {
                return plan_variable(input, requested).map(ReshapeCall::Variable);
            }
        };
        let shape = match resolve_reshape(input.size(), &requested) {
            Ok(shape) => shape,
            Err(message) => return plan_err!("tensor_reshape: {message}"),
        };
        let output = TensorType::new(input.element_type().clone(), shape)?;
        Ok(ReshapeCall::Fixed(ReshapePlan { input, output }))
    }

    fn return_field(&self, plan: &ReshapeCall) -> FieldRef {
        Arc::new(match plan {
            ReshapeCall::Fixed(plan) => plan.output.to_field(self.name()),
            ReshapeCall::Variable(plan) => plan.output.to_field(self.name()),
        })
    }

    fn invoke(
        &self,
        plan: &ReshapeCall,
        args: &[ColumnarValue],
        number_rows: usize,
    ) -> Result<ColumnarValue> {
        let plan = match plan {
            ReshapeCall::Fixed(plan) => plan,
            ReshapeCall::Variable(plan) => {
                return map_arrays(args, &[0], number_rows, |arrays| {
                    let view = variable_array(self.name(), &plan.input, &arrays[0])?;
                    reshape_variable(plan, &view).map_err(|e| e.in_function(self.name()))
                });
            }
        };
        map_arrays(args, &[0], number_rows, |arrays| {
            let input = tensor_array(self.name(), &arrays[0])?;
            // Row-major inputs keep their values buffer: a reshape is only a new type.
            let values = layout::row_major_values(&plan.input, input)?;
            let out =
                layout::tensor_array(&plan.output, values, input.nulls().cloned(), input.len())?;
            Ok(Arc::new(out) as ArrayRef)
        })
    }
}

/// Plans a reshape of variable-shape rows: without an unknown dimension the result is the
/// fixed shape requested (each row's size checked when rows arrive); with one, a
/// variable-shape result whose other dimensions are known.
fn plan_variable(input: VariableShapeType, requested: Vec<i64>) -> Result<VariableReshapePlan> {
    let element = input.element_type().clone();
    let unknown = requested.iter().filter(|&&d| d < 0).count();
    let output = if unknown == 0 {
        let shape = requested.iter().map(|&d| d as usize).collect();
        AnyTensorType::Fixed(TensorType::new(element, shape)?)
    } else {
        // The errors of the shape itself (two unknown dimensions), whatever the row.
        if unknown > 1 {
            let message = resolve_reshape(0, &requested).err().unwrap_or_default();
            return plan_err!("tensor_reshape: {message}");
        }
        let known = requested.iter().map(|&d| usize::try_from(d).ok()).collect();
        AnyTensorType::Variable(
            VariableShapeType::new(element, requested.len())?.with_uniform_shape(Some(known))?,
        )
    };
    Ok(VariableReshapePlan {
        input,
        requested,
        output,
    })
}

fn reshape_variable(
    plan: &VariableReshapePlan,
    view: &VariableShapeArray<'_>,
) -> crate::error::Result<ArrayRef> {
    let nulls = view.nulls().cloned();
    match &plan.output {
        AnyTensorType::Fixed(output) => {
            let rows = ragged::reshape(view, &plan.requested, Some(output.size()))?;
            Ok(Arc::new(layout::tensor_array(
                output,
                rows.values,
                nulls,
                view.len(),
            )?))
        }
        AnyTensorType::Variable(output) => {
            let rows = ragged::reshape(view, &plan.requested, None)?;
            let out = ragged::from_rows(output, rows.values, &rows.lengths, rows.shapes, nulls)?;
            Ok(Arc::new(out))
        }
    }
}
