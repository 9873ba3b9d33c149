//! `tensor_choose(a, choices..., mode => 'raise')`: numpy's `choose` (spec.md §3).
//!
//! Three forms of choices, as numpy accepts them:
//! - several arguments, each a tensor, a numeric column or a literal (freely mixed);
//! - one tensor whose outermost dimension enumerates the choices (numpy's "abuse"), or one
//!   nested list literal, planned as the tensor numpy makes of it;
//! - one list, literal or column, of scalar choices.
//!
//! `a` and every choice broadcast together (numpy's rules); the result has the choices'
//! common element type (weak literals, checked). The plan compiles each input's offsets into
//! the broadcast result once; the kernels in [`crate::kernels::choose`] run over whole batches.
//!
//! Once `a` or a choice is variable-shape ([`VariableChoosePlan`]), `a` and the tensor
//! choices (of either kind) broadcast row by row, one plan per combination of row shapes
//! ([`crate::kernels::choose::ragged::choose_rows`]); the result is fixed-shape when the
//! dimensions known in every row fix it.
//!
//! [`args`]: what each argument is and the result element type; [`fixed`]: the plan and batch
//! of fixed-shape arguments; [`variable`]: those of variable-shape ones.

mod args;
mod fixed;
mod variable;

use std::sync::Arc;

use arrow::datatypes::{DataType, FieldRef};
use datafusion::common::{ScalarValue, plan_err};
use datafusion::error::Result;
use datafusion::logical_expr::ColumnarValue;
use datafusion_macros::user_doc;

use self::args::parse_mode;
pub use self::fixed::ChoosePlan;
use self::fixed::{choose_batch, plan_fixed};
pub use self::variable::VariableChoosePlan;
use self::variable::{choose_variable, plan_variable};
use super::{PlanArgs, TensorFunction};
use crate::kernels::choose::ChooseMode;
use crate::variable_shape::has_variable_shape_extension;

/// `tensor_choose`.
#[user_doc(
    doc_section(label = "Tensor Functions"),
    description = "numpy's choose: builds a tensor from an index tensor `a` and a set of choices. `a` and every choice are broadcast (numpy rules) to one shape; at each position the result takes the value of the choice that `a` names there. Choices are several arguments (tensors, numeric columns, literals), one tensor whose outer dimension enumerates them (or one nested list literal, the array numpy makes of it), or one list of scalar choices. mode 'raise' (default) fails on an index outside [0, n-1], 'wrap' takes it modulo n, 'clip' clamps it. The result has the choices' common type; literals take the tensors' type and must fit it. A NULL in any argument gives a NULL row.",
    syntax_example = "tensor_choose(a, choice0, choice1 [, ...] [, mode])",
    sql_example = r"```sql
> SELECT tensor_choose(tensor([2, 3, 1, 0], [4]), tensor([0, 1, 2, 3], [4]), tensor([10, 11, 12, 13], [4]), tensor([20, 21, 22, 23], [4]), tensor([30, 31, 32, 33], [4])) AS r;
+-----------------+
| r               |
+-----------------+
| [20, 31, 12, 3] |
+-----------------+
> SELECT tensor_choose(tensor([2, 4, 1, 0], [4]), tensor(range(16), [4, 4]), mode => 'wrap') AS r;
+--------------+
| r            |
+--------------+
| [8, 1, 6, 3] |
+--------------+
```",
    argument(
        name = "a",
        description = "Index tensor (or integer column or literal) of an integer or boolean type."
    ),
    argument(
        name = "choices",
        description = "Two or more choices (tensors, numeric columns, literals), or one tensor (or nested list literal) whose outer dimension enumerates the choices, or one list of scalar choices."
    ),
    argument(
        name = "mode",
        description = "'raise' (default), 'wrap' or 'clip': how an index outside [0, n-1] is treated. Given by name (mode => 'clip') or as the last argument."
    )
)]
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct TensorChoose {}

registered_function!(TensorChoose);

/// The function's name, in errors.
const NAME: &str = "tensor_choose";

/// A compiled `tensor_choose` call.
#[derive(Debug, PartialEq, Eq, Hash)]
pub enum ChooseCall {
    /// Fixed-shape (or scalar) arguments only.
    Fixed(ChoosePlan),
    /// A variable-shape `a` or choice.
    Variable(VariableChoosePlan),
}

/// A list of lists (`[[0, 1], [2, 3]]`): an n-d array to numpy.
fn is_nested_list(data_type: &DataType) -> bool {
    matches!(
        data_type,
        DataType::List(item) | DataType::LargeList(item)
            if matches!(item.data_type(), DataType::List(_) | DataType::LargeList(_))
    )
}

impl TensorFunction for TensorChoose {
    type Plan = ChooseCall;

    function_metadata!(
        "tensor_choose",
        crate::udf::Parameters::Variadic { options: &["mode"] }
    );

    /// Numbers are read as this function's own operands.
    fn numbers_as_tensors(&self) -> bool {
        false
    }

    fn tensor_arguments(&self, arg_types: &[DataType]) -> Vec<usize> {
        let n_args = arg_types.len();
        let data_args = match arg_types.last() {
            Some(last) if last.is_string() => n_args - 1,
            _ => n_args,
        };
        // a, and every choice when there are several: one list alone is the sequence of
        // choices, as numpy reads `np.choose(a, [1, 2, 3])`; one nested list is the array
        // numpy makes of it, whose outer dimension enumerates the choices (numpy's own test:
        // `np.choose([2, 0, 1], [[0, 1, 2], [3, 4, 5], [5, 6, 7]])`).
        if data_args > 2 {
            (0..data_args).collect()
        } else if data_args == 2 && is_nested_list(&arg_types[1]) {
            vec![0, 1]
        } else {
            vec![0]
        }
    }

    fn list_column_length(&self, plan: &ChooseCall, _i: usize) -> Option<usize> {
        let ChooseCall::Fixed(plan) = plan else {
            return None;
        };
        // The other arguments must fix the length: a last dimension of 1 would let each row's
        // list decide the result's shape.
        plan.shape.last().copied().filter(|&n| n != 1)
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        if arg_types.len() < 2 {
            return plan_err!(
                "tensor_choose function requires an index argument a and at least one choice, got {} arguments",
                arg_types.len()
            );
        }
        Ok(arg_types.to_vec())
    }

    fn plan(&self, args: &PlanArgs<'_>) -> Result<ChooseCall> {
        let n_args = args.fields.len();
        // A trailing string is the mode (positional or `mode => ...`).
        let (data_args, mode) = if args.fields[n_args - 1].data_type().is_string() {
            (n_args - 1, parse_mode(args.literal(n_args - 1))?)
        } else {
            (n_args, ChooseMode::Raise)
        };
        if data_args < 2 {
            return plan_err!("tensor_choose: at least one choice is needed after a");
        }
        let variable = (0..data_args).any(|i| has_variable_shape_extension(&args.fields[i]));
        if variable {
            return plan_variable(args, data_args, mode).map(ChooseCall::Variable);
        }
        plan_fixed(args, data_args, mode).map(ChooseCall::Fixed)
    }

    fn return_field(&self, plan: &ChooseCall) -> FieldRef {
        match plan {
            ChooseCall::Fixed(plan) => Arc::new(plan.output_field(self.name())),
            ChooseCall::Variable(plan) => Arc::new(plan.output_field(self.name())),
        }
    }

    fn invoke(
        &self,
        plan: &ChooseCall,
        args: &[ColumnarValue],
        number_rows: usize,
    ) -> Result<ColumnarValue> {
        let data_args = match plan {
            ChooseCall::Fixed(plan) => plan.data_args,
            ChooseCall::Variable(plan) => plan.data_args,
        };
        let data = &args[..data_args];
        let all_scalar = data.iter().all(|a| matches!(a, ColumnarValue::Scalar(_)));
        let rows = if all_scalar { 1 } else { number_rows };
        let out = match plan {
            ChooseCall::Fixed(plan) => choose_batch(plan, data, rows)?,
            ChooseCall::Variable(plan) => choose_variable(plan, data, rows)?,
        };
        if all_scalar {
            Ok(ColumnarValue::Scalar(ScalarValue::try_from_array(&out, 0)?))
        } else {
            Ok(ColumnarValue::Array(out))
        }
    }
}
