//! `tensor_to_list(t)`: a tensor as nested lists in logical order.

use std::sync::Arc;

use arrow::array::ArrayRef;
use arrow::datatypes::{DataType, Field, FieldRef};
use datafusion::error::Result;
use datafusion::logical_expr::ColumnarValue;
use datafusion_macros::user_doc;

use super::{PlanArgs, TensorFunction, map_arrays, tensor_array, variable_array};
use crate::kernels::layout::to_nested_list;
use crate::kernels::ragged;
use crate::variable_shape::AnyTensorType;

/// `tensor_to_list(t)`: nested lists, as numpy's `tolist()`.
#[user_doc(
    doc_section(label = "Tensor Functions"),
    description = "Returns a tensor as nested lists in logical order (its permutation applied), as numpy's tolist(): a [2, 3] tensor becomes a list of two lists of three values; a 0-d tensor becomes its value; a variable-shape tensor's rows each in their own shape. NULL for a NULL tensor.",
    syntax_example = "tensor_to_list(t)",
    sql_example = r"```sql
> SELECT tensor_to_list(tensor([1, 2, 3, 4, 5, 6], [2, 3], NULL, [1, 0])) AS l;
+--------------------------+
| l                        |
+--------------------------+
| [[1, 4], [2, 5], [3, 6]] |
+--------------------------+
```",
    argument(
        name = "t",
        description = "A tensor (arrow.fixed_shape_tensor, arrow.variable_shape_tensor or FixedSizeList) expression."
    )
)]
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct TensorToList {}

registered_function!(TensorToList);

/// The nested list type of a tensor of `ndim` dimensions holding `element`s.
pub fn nested_list_type(element: &DataType, ndim: usize) -> DataType {
    (0..ndim).fold(element.clone(), |inner, _| {
        DataType::List(Arc::new(Field::new_list_field(inner, true)))
    })
}

impl TensorFunction for TensorToList {
    type Plan = AnyTensorType;

    function_metadata!("tensor_to_list", ["t"], required = 1);

    fn tensor_arguments(&self, _arg_types: &[DataType]) -> Vec<usize> {
        vec![0]
    }

    fn plan(&self, args: &PlanArgs<'_>) -> Result<AnyTensorType> {
        args.any_tensor(0, "t")
    }

    fn return_field(&self, plan: &AnyTensorType) -> FieldRef {
        let ndim = match plan {
            AnyTensorType::Fixed(tensor) => tensor.ndim(),
            AnyTensorType::Variable(tensor) => tensor.ndim(),
        };
        let data_type = nested_list_type(plan.element_type(), ndim);
        Arc::new(Field::new(self.name(), data_type, true))
    }

    fn invoke(
        &self,
        plan: &AnyTensorType,
        args: &[ColumnarValue],
        number_rows: usize,
    ) -> Result<ColumnarValue> {
        map_arrays(args, &[0], number_rows, |arrays| match plan {
            AnyTensorType::Fixed(tensor) => {
                let input = tensor_array(self.name(), &arrays[0])?;
                Ok(to_nested_list(tensor, input)? as ArrayRef)
            }
            AnyTensorType::Variable(tensor) => {
                let input = variable_array(self.name(), tensor, &arrays[0])?;
                ragged::to_nested_list(&input).map_err(|e| e.in_function(self.name()))
            }
        })
    }
}
