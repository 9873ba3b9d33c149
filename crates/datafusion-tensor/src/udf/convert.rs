//! `tensor_to_variable(t)` and `tensor_to_fixed(t [, shape])`: between fixed-shape and
//! variable-shape tensor columns, the stored values kept as they are (permutation and dim
//! names included).

use std::sync::Arc;

use arrow::array::{Array, ArrayRef};
use arrow::datatypes::{DataType, FieldRef};
use datafusion::common::plan_err;
use datafusion::error::Result;
use datafusion::logical_expr::ColumnarValue;
use datafusion_macros::user_doc;

use super::{PlanArgs, TensorFunction, literal_int_list, map_arrays, tensor_array, variable_array};
use crate::kernels::layout;
use crate::kernels::ragged;
use crate::shape::format_shape;
use crate::tensor_type::TensorType;
use crate::variable_shape::{AnyTensorType, VariableShapeType};

/// `tensor_to_variable(t)`.
#[user_doc(
    doc_section(label = "Tensor Functions"),
    description = "Returns a tensor column as an arrow.variable_shape_tensor: each row with its own shape, here all the input's, which the type records as uniform (uniform_shape); element type, dim names and permutation kept. A variable-shape tensor is returned as it is. NULL for a NULL tensor.",
    syntax_example = "tensor_to_variable(t)",
    sql_example = r"```sql
> SELECT tensor_shape(tensor_to_variable(tensor([1, 2, 3, 4, 5, 6], [2, 3]))) AS s;
+--------+
| s      |
+--------+
| [2, 3] |
+--------+
```",
    argument(
        name = "t",
        description = "A tensor (arrow.fixed_shape_tensor, arrow.variable_shape_tensor or FixedSizeList) expression."
    )
)]
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct TensorToVariable {}

registered_function!(TensorToVariable);

/// How `tensor_to_variable` makes its output.
#[derive(Debug, PartialEq, Eq, Hash)]
pub enum ToVariablePlan {
    /// A fixed-shape input, as this variable-shape type.
    Convert(TensorType, VariableShapeType),
    /// A variable-shape input, returned as it is.
    Unchanged(VariableShapeType),
}

impl TensorFunction for TensorToVariable {
    type Plan = ToVariablePlan;

    function_metadata!("tensor_to_variable", ["t"], required = 1);

    fn tensor_arguments(&self, _arg_types: &[DataType]) -> Vec<usize> {
        vec![0]
    }

    fn plan(&self, args: &PlanArgs<'_>) -> Result<ToVariablePlan> {
        Ok(match args.any_tensor(0, "t")? {
            AnyTensorType::Variable(tensor) => ToVariablePlan::Unchanged(tensor),
            AnyTensorType::Fixed(tensor) => {
                let variable = VariableShapeType::of_fixed(&tensor)?;
                ToVariablePlan::Convert(tensor, variable)
            }
        })
    }

    fn return_field(&self, plan: &ToVariablePlan) -> FieldRef {
        let (ToVariablePlan::Convert(_, tensor) | ToVariablePlan::Unchanged(tensor)) = plan;
        Arc::new(tensor.to_field(self.name()))
    }

    fn invoke(
        &self,
        plan: &ToVariablePlan,
        args: &[ColumnarValue],
        number_rows: usize,
    ) -> Result<ColumnarValue> {
        let ToVariablePlan::Convert(fixed, variable) = plan else {
            return Ok(args[0].clone());
        };
        map_arrays(args, &[0], number_rows, |arrays| {
            widen(self.name(), fixed, variable, &arrays[0])
        })
    }
}

/// A batch of fixed-shape tensors (`fixed`) as the variable-shape tensors of `variable` (its
/// `VariableShapeType::of_fixed`), for the function `name`.
pub(super) fn widen(
    name: &str,
    fixed: &TensorType,
    variable: &VariableShapeType,
    array: &ArrayRef,
) -> Result<ArrayRef> {
    let input = tensor_array(name, array)?;
    let out = ragged::fixed_to_variable(
        variable,
        input.values(),
        fixed.physical_shape(),
        input.len(),
        input.nulls().cloned(),
    )
    .map_err(|e| e.in_function(name))?;
    Ok(Arc::new(out))
}

/// `tensor_to_fixed(t [, shape])`.
#[user_doc(
    doc_section(label = "Tensor Functions"),
    description = "Returns a variable-shape tensor column as an arrow.fixed_shape_tensor of one shape: `shape` (the logical shape), or the shape its type fixes in every row (uniform_shape) when `shape` is not given. A row of another shape is an error naming it. Element type, dim names and permutation kept; a fixed-shape tensor is returned as it is. NULL for a NULL tensor.",
    syntax_example = "tensor_to_fixed(t [, shape])",
    sql_example = r"```sql
> SELECT tensor_to_fixed(tensor_to_variable(tensor([1, 2, 3, 4], [2, 2])), [2, 2]) AS t;
+------------------+
| t                |
+------------------+
| [[1, 2], [3, 4]] |
+------------------+
```",
    argument(
        name = "t",
        description = "A tensor (arrow.variable_shape_tensor, arrow.fixed_shape_tensor or FixedSizeList) expression."
    ),
    argument(
        name = "shape",
        description = "Optional literal list: the logical shape every row has, e.g. `[3, 32, 32]`."
    )
)]
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct TensorToFixed {}

registered_function!(TensorToFixed);

/// How `tensor_to_fixed` makes its output.
#[derive(Debug, PartialEq, Eq, Hash)]
pub enum ToFixedPlan {
    /// A variable-shape input whose rows all have this fixed type's shape.
    Convert(VariableShapeType, TensorType),
    /// A fixed-shape input, returned as it is.
    Unchanged(TensorType),
}

impl TensorToFixed {
    /// The logical shape every row must have: the literal `shape`, which must agree with the
    /// type's uniform dimensions, or those dimensions when all are known.
    fn logical_shape(&self, tensor: &VariableShapeType, args: &PlanArgs<'_>) -> Result<Vec<usize>> {
        let uniform = tensor.logical_uniform_shape();
        if args.fields.len() < 2 {
            return match uniform.iter().copied().collect::<Option<Vec<usize>>>() {
                Some(shape) => Ok(shape),
                None => plan_err!(
                    "{}: the shape of {tensor} is not known when the query is planned: give the shape every row has, e.g. tensor_to_fixed(t, [{}])",
                    self.name(),
                    uniform
                        .iter()
                        .map(|d| d.map_or_else(|| "n".to_string(), |d| d.to_string()))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            };
        }
        let shape = args
            .literal(1)
            .and_then(literal_int_list)
            .and_then(|s| s.iter().map(|&d| usize::try_from(d).ok()).collect::<Option<Vec<_>>>())
            .ok_or_else(|| {
                datafusion::common::plan_datafusion_err!(
                    "{}: argument shape must be a literal list of non-negative integers such as [3, 32, 32]",
                    self.name()
                )
            })?;
        let fits = shape.len() == uniform.len()
            && shape
                .iter()
                .zip(&uniform)
                .all(|(&d, u)| u.is_none_or(|u| u == d));
        if !fits {
            return plan_err!(
                "{}: shape {} does not fit {tensor}",
                self.name(),
                format_shape(&shape)
            );
        }
        Ok(shape)
    }
}

impl TensorFunction for TensorToFixed {
    type Plan = ToFixedPlan;

    function_metadata!("tensor_to_fixed", ["t", "shape"], required = 1);

    fn tensor_arguments(&self, _arg_types: &[DataType]) -> Vec<usize> {
        vec![0]
    }

    fn plan(&self, args: &PlanArgs<'_>) -> Result<ToFixedPlan> {
        let tensor = match args.any_tensor(0, "t")? {
            AnyTensorType::Variable(tensor) => tensor,
            AnyTensorType::Fixed(tensor) => {
                if args.fields.len() > 1 {
                    let shape = args.literal(1).and_then(literal_int_list);
                    let logical: Vec<i64> =
                        tensor.logical_shape().iter().map(|&d| d as i64).collect();
                    if shape.as_ref() != Some(&logical) {
                        return plan_err!(
                            "{}: argument t is already a fixed-shape tensor, {tensor}; reshape it with tensor_reshape",
                            self.name()
                        );
                    }
                }
                return Ok(ToFixedPlan::Unchanged(tensor));
            }
        };
        let logical = self.logical_shape(&tensor, args)?;
        // The stored layout is kept: physical dimension permutation[i] is logical dimension i.
        let mut physical = vec![0; logical.len()];
        for (i, &d) in logical.iter().enumerate() {
            physical[tensor.permutation().map_or(i, |p| p[i])] = d;
        }
        let fixed = tensor.row_type(&physical)?;
        Ok(ToFixedPlan::Convert(tensor, fixed))
    }

    fn return_field(&self, plan: &ToFixedPlan) -> FieldRef {
        let (ToFixedPlan::Convert(_, tensor) | ToFixedPlan::Unchanged(tensor)) = plan;
        Arc::new(tensor.to_field(self.name()))
    }

    fn invoke(
        &self,
        plan: &ToFixedPlan,
        args: &[ColumnarValue],
        number_rows: usize,
    ) -> Result<ColumnarValue> {
        let ToFixedPlan::Convert(variable, fixed) = plan else {
            return Ok(args[0].clone());
        };
        map_arrays(args, &[0], number_rows, |arrays| {
            let view = variable_array(self.name(), variable, &arrays[0])?;
            let values = ragged::variable_to_fixed(&view, fixed.physical_shape())
                .map_err(|e| e.in_function(self.name()))?;
            let out = layout::tensor_array(fixed, values, view.nulls().cloned(), view.len())?;
            Ok(Arc::new(out) as ArrayRef)
        })
    }
}

/// `tensor_ascontiguousarray(t)`.
#[user_doc(
    doc_section(label = "Tensor Functions"),
    description = "Returns each tensor written out in its logical row-major order, as numpy's ascontiguousarray: the same values, shape and element type, stored without a permutation (dim names follow their dimensions). A tensor already stored row-major is returned as it is (no copy). Works on fixed- and variable-shape tensors; NULL for a NULL tensor. A UNION of tensors stored in different layouts applies it to the branches for you.",
    syntax_example = "tensor_ascontiguousarray(t)",
    sql_example = r"```sql
> SELECT tensor_type(tensor_ascontiguousarray(tensor_transpose(tensor([1, 2, 3, 4, 5, 6], [2, 3])))) AS t;
+-----------------------------------------+
| t                                       |
+-----------------------------------------+
| arrow.fixed_shape_tensor<Int64, [3, 2]> |
+-----------------------------------------+
```",
    argument(
        name = "t",
        description = "A tensor (arrow.fixed_shape_tensor, arrow.variable_shape_tensor or FixedSizeList) expression."
    )
)]
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct TensorAscontiguousarray {}

registered_function!(TensorAscontiguousarray);

/// How `tensor_ascontiguousarray` makes its output.
#[derive(Debug, PartialEq, Eq, Hash)]
pub enum ContiguousPlan {
    /// A row-major input, returned as it is (its storage type as it came, list items named
    /// `element` in a Parquet file's columns).
    Unchanged(AnyTensorType, DataType),
    /// A permuted fixed-shape input and its row-major type.
    Fixed(TensorType, TensorType),
    /// A permuted variable-shape input and its row-major type.
    Variable(VariableShapeType, VariableShapeType),
}

impl TensorFunction for TensorAscontiguousarray {
    type Plan = ContiguousPlan;

    function_metadata!("tensor_ascontiguousarray", ["t"], required = 1);

    fn tensor_arguments(&self, _arg_types: &[DataType]) -> Vec<usize> {
        vec![0]
    }

    fn plan(&self, args: &PlanArgs<'_>) -> Result<ContiguousPlan> {
        Ok(match args.any_tensor(0, "t")? {
            AnyTensorType::Fixed(tensor) if tensor.is_permuted() => {
                let output = tensor.to_row_major();
                ContiguousPlan::Fixed(tensor, output)
            }
            AnyTensorType::Variable(tensor) if tensor.is_permuted() => {
                let output = tensor.to_row_major();
                ContiguousPlan::Variable(tensor, output)
            }
            tensor => ContiguousPlan::Unchanged(tensor, args.fields[0].data_type().clone()),
        })
    }

    fn return_field(&self, plan: &ContiguousPlan) -> FieldRef {
        Arc::new(match plan {
            ContiguousPlan::Unchanged(tensor, storage) => {
                tensor.to_field(self.name()).with_data_type(storage.clone())
            }
            ContiguousPlan::Fixed(_, output) => output.to_field(self.name()),
            ContiguousPlan::Variable(_, output) => output.to_field(self.name()),
        })
    }

    fn invoke(
        &self,
        plan: &ContiguousPlan,
        args: &[ColumnarValue],
        number_rows: usize,
    ) -> Result<ColumnarValue> {
        let name = self.name();
        match plan {
            ContiguousPlan::Unchanged(..) => Ok(args[0].clone()),
            ContiguousPlan::Fixed(input, output) => map_arrays(args, &[0], number_rows, |arrays| {
                let list = tensor_array(name, &arrays[0])?;
                let values = layout::row_major_values(input, list)?;
                let out = layout::tensor_array(output, values, list.nulls().cloned(), list.len())?;
                Ok(Arc::new(out) as ArrayRef)
            }),
            ContiguousPlan::Variable(input, output) => {
                map_arrays(args, &[0], number_rows, |arrays| {
                    let view = variable_array(name, input, &arrays[0])?;
                    let out =
                        ragged::to_row_major(&view, output).map_err(|e| e.in_function(name))?;
                    Ok(Arc::new(out) as ArrayRef)
                })
            }
        }
    }
}
