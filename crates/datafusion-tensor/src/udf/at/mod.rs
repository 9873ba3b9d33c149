//! `tensor_at_set`, `_add`, `_subtract`, `_multiply`, `_divide`, `_power`, `_min`, `_max`,
//! `_apply` and `_get`: JAX's `x.at[idx].op(y)` (spec.md §5).
//!
//! The family's rooms: [`options`] (operations, modes, option parsing), [`plan`] (the index
//! compiled into an [`crate::index::ScatterPlan`], `y` and the types, once per query),
//! [`docs`], [`apply`] (`tensor_at_apply`, a higher-order function for lambdas) and here the
//! glue that runs a plan over a batch: the element work is
//! [`crate::kernels::update`]'s.

mod apply;
mod docs;
mod options;
mod plan;
mod variable;

use std::sync::Arc;

use arrow::array::{Array, ArrayRef};
use arrow::buffer::NullBuffer;
use arrow::datatypes::{DataType, Field, FieldRef};
use datafusion::common::ScalarValue;
use datafusion::error::{DataFusionError, Result};
use datafusion::logical_expr::{ColumnarValue, Documentation};

pub use apply::TensorAtApply;
pub use options::{ApplyFn, AtOp};
pub use plan::{AtPlan, ValuesPlan};
pub use variable::VariableAtPlan;

use super::convert::widen;
use super::{PlanArgs, TensorFunction, map_arrays, tensor_array, tensor_of, variable_of};
use crate::error::TensorError;
use crate::index::ScatterPlan;
use crate::kernels::layout;
use crate::kernels::update::{self, Lambda, Update};
use crate::tensor_type::TensorType;
use crate::variable_shape::{VariableShapeType, has_variable_shape_extension};
use docs::documentation;
use options::apply_by_name;
use plan::plan_at;
use variable::{invoke_variable, plan_at_variable};

/// Runs a planned call over one batch: `args` are x, then idx when dynamic, then y when a
/// column.
pub fn invoke_at(
    plan: &AtPlan,
    args: &[ColumnarValue],
    number_rows: usize,
    lambda: Option<&Lambda<'_>>,
) -> Result<ColumnarValue> {
    let name = plan.op.function_name();
    let output = match &plan.output {
        Some(t) => t.storage_type(),
        None => plan.output_element.clone(),
    };
    map_call(plan, &output, args, number_rows, |x, idx, y| {
        run_batch_in_row_order(plan, x, idx, y, lambda, &|e| e.in_function(name))
    })
}

/// [`run_batch`], failing with the error of the first row that fails, as a row-by-row run
/// would: a batch's indices are all checked before any update is applied, so an index error at
/// row k would hide an update's error (an integer overflow, a negative power) at an earlier
/// row. On an error naming row k > 0 the rows before k run again on their own, and their
/// error, if any, is the one reported. Only the failing path runs twice.
fn run_batch_in_row_order(
    plan: &AtPlan,
    x: &ArrayRef,
    idx: Option<&ArrayRef>,
    y: Option<&ArrayRef>,
    lambda: Option<&Lambda<'_>>,
    in_function: &dyn Fn(TensorError) -> DataFusionError,
) -> Result<ArrayRef> {
    let failed = std::cell::Cell::new(None);
    let record = |e: TensorError| {
        failed.set(e.row());
        in_function(e)
    };
    let err = match run_batch(plan, x, idx, y, lambda, &record) {
        Ok(out) => return Ok(out),
        Err(err) => err,
    };
    let rows = x.len();
    let Some(k) = failed.get().filter(|&k| k > 0 && k < rows) else {
        return Err(err);
    };
    let before = |a: &ArrayRef| {
        if a.len() == rows {
            a.slice(0, k)
        } else {
            Arc::clone(a)
        }
    };
    let (x, idx, y) = (before(x), idx.map(before), y.map(before));
    match run_batch_in_row_order(plan, &x, idx.as_ref(), y.as_ref(), lambda, in_function) {
        Err(earlier) => Err(earlier),
        Ok(_) => Err(err),
    }
}

/// Runs `kernel` on one batch of the arguments a call planned as `plan` reads: x, the index
/// column when dynamic, y when a column. A NULL y literal makes every row NULL, of type
/// `output`.
fn map_call(
    plan: &AtPlan,
    output: &DataType,
    args: &[ColumnarValue],
    number_rows: usize,
    kernel: impl FnOnce(&ArrayRef, Option<&ArrayRef>, Option<&ArrayRef>) -> Result<ArrayRef>,
) -> Result<ColumnarValue> {
    if matches!(plan.values, ValuesPlan::Literal(None)) {
        return Ok(ColumnarValue::Scalar(ScalarValue::try_from(output)?));
    }
    let dynamic = matches!(plan.index, ScatterPlan::Dynamic { .. });
    let y_column = y_is_column(&plan.values);
    let mut data = vec![0];
    if dynamic {
        data.push(1);
    }
    if y_column {
        data.push(2);
    }
    map_arrays(args, &data, number_rows, |arrays| {
        let y = if y_column { arrays.last() } else { None };
        let idx = if dynamic { Some(&arrays[1]) } else { None };
        kernel(&arrays[0], idx, y)
    })
}

/// One batch of arrays: `x`, the index column when dynamic, `y` when a column. `in_function`
/// makes the kernels' errors the function's.
fn run_batch(
    plan: &AtPlan,
    x: &ArrayRef,
    idx: Option<&ArrayRef>,
    y: Option<&ArrayRef>,
    lambda: Option<&Lambda<'_>>,
    in_function: &dyn Fn(TensorError) -> DataFusionError,
) -> Result<ArrayRef> {
    let name = plan.op.function_name();
    let x = tensor_array(name, x)?;
    let rows = x.len();
    let mut nulls = x.logical_nulls();
    if let Some(y) = y {
        nulls = NullBuffer::union(nulls.as_ref(), y.logical_nulls().as_ref());
    }
    let windows = match (&plan.index, idx) {
        (ScatterPlan::Dynamic { kind, index, .. }, Some(idx)) => {
            let (values, spans, with_idx) =
                update::index_values(*kind, index.as_ref(), idx, rows, nulls.as_ref())
                    .map_err(in_function)?;
            nulls = with_idx;
            let windows = plan
                .index
                .windows(
                    &plan.x.logical_shape(),
                    plan.rule,
                    update::int64_values(&values),
                    &spans,
                    |row| nulls.as_ref().is_some_and(|n| n.is_null(row)),
                )
                .map_err(in_function)?;
            Some(windows)
        }
        _ => None,
    };
    let x_values = layout::row_major_values(&plan.x, x)?;
    let in_len = plan.x.size();
    let out = if plan.op == AtOp::Get {
        let fill = plan.fill.clone().unwrap_or(ScalarValue::Null);
        let fill = fill.to_array_of_size(1)?;
        update::get(
            &plan.index,
            windows.as_ref(),
            &x_values,
            in_len,
            rows,
            &fill,
        )
        .map_err(in_function)?
    } else {
        let y_values = y_values(name, &plan.values, &plan.work, y)?;
        if let (Some(windows), Some(n)) = (&windows, plan.index.y_windows()) {
            windows
                .check_y_windows(n, |row| nulls.as_ref().is_none_or(|n| n.is_valid(row)))
                .map_err(in_function)?;
        }
        let y_scalar = y_scalar(&plan.values)?;
        let spec = Update {
            combine: plan.combine,
            x: &plan.x,
            work: &plan.work,
            output_element: &plan.output_element,
        };
        let targets = update::targets(&plan.index, windows.as_ref()).map_err(in_function)?;
        update::update(
            &spec,
            &x_values,
            rows,
            nulls.as_ref(),
            targets,
            y_values.as_ref().map(|(values, len)| (values, *len)),
            y_scalar.as_ref(),
            lambda,
        )
        .map_err(in_function)?
    };
    Ok(layout::output_rows(plan.output.as_ref(), out, nulls, rows)?)
}

/// Whether `y` is a column (one value or tensor per row).
fn y_is_column(values: &ValuesPlan) -> bool {
    matches!(values, ValuesPlan::Column(_) | ValuesPlan::Tensor(_))
}

/// A literal `y` as a one-element array.
fn y_scalar(values: &ValuesPlan) -> Result<Option<ArrayRef>> {
    match values {
        ValuesPlan::Literal(Some(value)) => Ok(Some(value.to_array_of_size(1)?)),
        _ => Ok(None),
    }
}

/// `y`'s values in the work type with their number per row (`None`: a literal).
fn y_values(
    name: &str,
    values: &ValuesPlan,
    work: &DataType,
    y: Option<&ArrayRef>,
) -> Result<Option<(ArrayRef, usize)>> {
    let Some(y) = y else { return Ok(None) };
    let (values, len) = match values {
        ValuesPlan::Tensor(t) => {
            let list = tensor_array(name, y)?;
            (layout::row_major_values(t, list)?, t.size())
        }
        ValuesPlan::Column(_) => (Arc::clone(y), 1),
        _ => return Ok(None),
    };
    let values = update::y_values(&values, work).map_err(|e| e.in_function(name))?;
    Ok(Some((values, len)))
}

/// A `tensor_at_*` scalar function (all but `apply`, which takes lambdas).
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct TensorAt {
    op: AtOp,
    documentation: Documentation,
}

impl TensorAt {
    /// The registered instance of `op`.
    pub fn new(op: AtOp) -> Self {
        Self {
            op,
            documentation: documentation(op),
        }
    }
}

/// A compiled `tensor_at_*` call on either kind of tensor.
#[derive(Debug, PartialEq, Eq, Hash)]
pub enum AtCall {
    /// On a fixed-shape tensor.
    Fixed(Box<AtPlan>),
    /// On a variable-shape tensor: the index normalised per distinct row shape.
    Variable(Box<VariableAtPlan>),
    /// On a fixed-shape tensor with a variable-shape `y`: `x` read as a variable-shape tensor
    /// whose every dimension is uniform, so that `y` broadcasts row by row and the result is
    /// fixed-shape.
    Widened(Box<WidenedAt>),
}

/// A `tensor_at_*` call on a fixed-shape `x` of type `fixed`, planned as on its variable-shape
/// type (`plan.x()`).
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct WidenedAt {
    plan: VariableAtPlan,
    fixed: TensorType,
}

impl TensorFunction for TensorAt {
    type Plan = AtCall;

    fn name(&self) -> &'static str {
        self.op.function_name()
    }

    fn parameters(&self) -> super::Parameters {
        self.op.parameters()
    }

    fn documentation(&self) -> Option<&Documentation> {
        Some(&self.documentation)
    }

    /// Numbers are read as this function's own operands.
    fn numbers_as_tensors(&self) -> bool {
        false
    }

    fn tensor_arguments(&self, _arg_types: &[DataType]) -> Vec<usize> {
        match self.op {
            // x; idx keeps its own reading of lists (indices, coordinates).
            AtOp::Get | AtOp::Apply => vec![0],
            // and y.
            AtOp::Update(_) => vec![0, 2],
        }
    }

    fn list_column_length(&self, plan: &AtCall, i: usize) -> Option<usize> {
        // y broadcasts into x[idx], whose shape a literal index fixes.
        if let (2, AtCall::Fixed(plan)) = (i, plan) {
            plan.y_target.as_ref()?.last().copied()
        } else {
            None
        }
    }

    fn plan(&self, args: &PlanArgs<'_>) -> Result<AtCall> {
        let apply = if self.op == AtOp::Apply {
            Some(apply_by_name(args)?)
        } else {
            None
        };
        plan_call(args, self.op, apply)
    }

    fn return_field(&self, plan: &AtCall) -> FieldRef {
        plan.return_field(self.name())
    }

    fn invoke(
        &self,
        plan: &AtCall,
        args: &[ColumnarValue],
        number_rows: usize,
    ) -> Result<ColumnarValue> {
        plan.invoke(args, number_rows, None)
    }
}

/// Compiles a `tensor_at_*` call on either kind of tensor (`apply` given by the caller, which
/// knows lambdas).
pub(super) fn plan_call(args: &PlanArgs<'_>, op: AtOp, apply: Option<ApplyFn>) -> Result<AtCall> {
    if let Some(x) = variable_of(&args.fields[0])? {
        return plan_at_variable(args, op, apply, x).map(|plan| AtCall::Variable(Box::new(plan)));
    }
    if op.has_y()
        && let Some(y) = args.fields.get(2)
        && has_variable_shape_extension(y)
        && let Some(fixed) = tensor_of(&args.fields[0])?
    {
        let widened = VariableShapeType::of_fixed(&fixed)?;
        let mut fields = args.fields.to_vec();
        fields[0] = Arc::new(widened.to_field(args.fields[0].name()));
        let args = PlanArgs {
            fields: &fields,
            ..*args
        };
        return plan_at_variable(&args, op, apply, widened)
            .map(|plan| AtCall::Widened(Box::new(WidenedAt { plan, fixed })));
    }
    plan_at(args, op, apply).map(|plan| AtCall::Fixed(Box::new(plan)))
}

impl AtCall {
    /// The result field of the function `name`.
    pub(super) fn return_field(&self, name: &str) -> FieldRef {
        let plan = match self {
            Self::Fixed(plan) => plan,
            Self::Variable(plan) => return plan.output.to_field(name),
            Self::Widened(call) => return call.plan.output.to_field(name),
        };
        match &plan.output {
            Some(tensor) => Arc::new(tensor.to_field(name)),
            None => Arc::new(Field::new(name, plan.output_element.clone(), true)),
        }
    }

    /// Runs the call over one batch; `lambda` evaluates a `tensor_at_apply` lambda.
    pub(super) fn invoke(
        &self,
        args: &[ColumnarValue],
        number_rows: usize,
        lambda: Option<&Lambda<'_>>,
    ) -> Result<ColumnarValue> {
        match self {
            Self::Fixed(plan) => invoke_at(plan, args, number_rows, lambda),
            Self::Variable(plan) => invoke_variable(plan, args, number_rows, lambda),
            Self::Widened(call) => {
                let name = call.plan.function_name();
                let x = widen(
                    name,
                    &call.fixed,
                    call.plan.x(),
                    &args[0].to_array(number_rows)?,
                )?;
                let mut args = args.to_vec();
                args[0] = ColumnarValue::Array(x);
                invoke_variable(&call.plan, &args, number_rows, lambda)
            }
        }
    }

    /// The element type of the result.
    pub(super) fn output_element(&self) -> &DataType {
        match self {
            Self::Fixed(plan) => &plan.output_element,
            Self::Variable(plan) => plan.output_element(),
            Self::Widened(call) => call.plan.output_element(),
        }
    }
}
