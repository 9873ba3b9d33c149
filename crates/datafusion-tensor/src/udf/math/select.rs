//! `tensor_where(condition, x, y)`: numpy's `where`, the element of `x` where the condition is
//! true (non-zero) and of `y` elsewhere; the three broadcast together (numpy's rules), the
//! result has `x` and `y`'s common type (number literals weak and checked: numpy 2 wraps a
//! literal that does not fit silently, spec.md §9 makes it an error).

use std::sync::Arc;

use arrow::array::new_null_array;
use arrow::buffer::NullBuffer;
use arrow::datatypes::{DataType, Field, FieldRef};
use datafusion::error::Result;
use datafusion::logical_expr::ColumnarValue;
use datafusion_macros::user_doc;

use super::operands::{Operand, all_scalar, batch_input, broadcast, finish, result_dim_names};
use super::promote::{cast_weak, common_type};
use super::ragged;
use crate::kernels::elementwise::{self, Runs};
use crate::kernels::layout::output_rows;
use crate::limits::Limits;
use crate::tensor_type::TensorType;
use crate::udf::{PlanArgs, TensorFunction};
use crate::variable_shape::VariableShapeType;
use datafusion::common::exec_err;

/// `tensor_where`.
#[user_doc(
    doc_section(label = "Tensor Functions"),
    description = "numpy's where: the element of x where condition is true (non-zero), of y elsewhere. condition, x and y are tensors, list literals, numeric columns or literals, broadcast by numpy's rules; the result has x and y's common type (number literals are weak, and must fit it). A NULL row of any argument gives a NULL row.",
    syntax_example = "tensor_where(condition, x, y)",
    sql_example = r"```sql
> SELECT tensor_where(tensor([true, false, true], [3]), tensor([1, 2, 3], [3]), 0) AS r;
+-----------+
| r         |
+-----------+
| [1, 0, 3] |
+-----------+
```",
    argument(
        name = "condition",
        description = "Where to take x: a tensor, list, column or literal of any element type (its truth values)."
    ),
    argument(name = "x", description = "The values where condition is true."),
    argument(name = "y", description = "The values where condition is false.")
)]
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct TensorWhere {}

registered_function!(TensorWhere);

/// A compiled `tensor_where` call.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct WherePlan {
    operands: [Operand; 3],
    element: DataType,
    shape: Vec<usize>,
    runs: Runs,
    output: Option<TensorType>,
    /// The result type when an operand is variable-shape (broadcast row by row).
    variable: Option<VariableShapeType>,
    /// The session's limits, which each row's broadcast shape is checked against.
    limits: Limits,
}

impl WherePlan {
    fn output_type(&self) -> DataType {
        if let Some(variable) = &self.variable {
            return variable.storage_type();
        }
        match &self.output {
            Some(tensor) => tensor.storage_type(),
            None => self.element.clone(),
        }
    }
}

impl TensorFunction for TensorWhere {
    type Plan = WherePlan;

    function_metadata!("tensor_where", ["condition", "x", "y"], required = 3);

    /// Numbers are read as this function's own operands.
    fn numbers_as_tensors(&self) -> bool {
        false
    }

    fn tensor_arguments(&self, _arg_types: &[DataType]) -> Vec<usize> {
        vec![0, 1, 2]
    }

    fn list_column_length(&self, plan: &WherePlan, _i: usize) -> Option<usize> {
        plan.shape.last().copied().filter(|&n| n != 1)
    }

    fn plan(&self, args: &PlanArgs<'_>) -> Result<WherePlan> {
        let condition = Operand::plan(args, 0, "condition")?;
        let x = Operand::plan(args, 1, "x")?;
        let y = Operand::plan(args, 2, "y")?;
        let element = common_type(&[&x, &y]);
        let cast = |operand: Operand| -> Result<Operand> {
            match operand {
                Operand::Literal(value) => {
                    Ok(Operand::Literal(cast_weak(args.name, &value, &element)?))
                }
                other => Ok(other),
            }
        };
        let (x, y) = (cast(x)?, cast(y)?);
        if ragged::any_variable(&[&condition, &x, &y]) {
            let variable = ragged::output_type(args.name, element.clone(), &[&x, &y, &condition])?;
            return Ok(WherePlan {
                operands: [condition, x, y],
                element,
                shape: Vec::new(),
                runs: ragged::element_runs(3),
                output: None,
                variable: Some(variable),
                limits: args.limits,
            });
        }
        let (shape, runs) = broadcast(args.name, &[&condition, &x, &y], &args.limits)?;
        let output = if shape.is_empty() {
            None
        } else {
            let names = result_dim_names(&[&x, &y, &condition], &shape);
            Some(
                TensorType::new(element.clone(), shape.clone())
                    .and_then(|t| t.with_dim_names(names))
                    .map_err(|e| e.in_function(args.name))?,
            )
        };
        Ok(WherePlan {
            operands: [condition, x, y],
            element,
            shape,
            runs,
            output,
            variable: None,
            limits: args.limits,
        })
    }

    fn return_field(&self, plan: &WherePlan) -> FieldRef {
        if let Some(variable) = &plan.variable {
            return Arc::new(variable.to_field(self.name()));
        }
        Arc::new(match &plan.output {
            Some(tensor) => tensor.to_field(self.name()),
            None => Field::new(self.name(), plan.element.clone(), true),
        })
    }

    fn invoke(
        &self,
        plan: &WherePlan,
        args: &[ColumnarValue],
        number_rows: usize,
    ) -> Result<ColumnarValue> {
        let name = self.name();
        let scalar = all_scalar(&args[..3]);
        let rows = if scalar { 1 } else { number_rows };
        if plan.operands.contains(&Operand::Null) {
            return finish(new_null_array(&plan.output_type(), rows), scalar);
        }
        let [condition, x, y] = &plan.operands;
        if let Some(variable) = &plan.variable {
            let element = Some(&plan.element);
            let gathered = ragged::gather(
                name,
                &[condition, x, y],
                &args[..3],
                rows,
                &[None, element, element],
                variable.ndim(),
                &plan.limits,
            )?;
            let [c, x, y] = &gathered.inputs[..] else {
                return exec_err!("{name}: three operands expected");
            };
            let total = gathered.lengths.iter().sum();
            let values =
                elementwise::select(&plan.runs, total, c, x, y).map_err(|e| e.in_function(name))?;
            return finish(gathered.finish(variable, values)?, scalar);
        }
        let (c, c_nulls) = batch_input(name, condition, &args[0], rows, None)?;
        let (x, x_nulls) = batch_input(name, x, &args[1], rows, Some(&plan.element))?;
        let (y, y_nulls) = batch_input(name, y, &args[2], rows, Some(&plan.element))?;
        let nulls = NullBuffer::union(
            NullBuffer::union(c_nulls.as_ref(), x_nulls.as_ref()).as_ref(),
            y_nulls.as_ref(),
        );
        let values =
            elementwise::select(&plan.runs, rows, &c, &x, &y).map_err(|e| e.in_function(name))?;
        let out = output_rows(plan.output.as_ref(), values, nulls, rows)?;
        finish(out, scalar)
    }
}
