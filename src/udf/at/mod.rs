//! `tensor_at_set`, `_add`, `_subtract`, `_multiply`, `_divide`, `_power`, `_min`, `_max`,
//! `_apply` and `_get`: JAX's `x.at[idx].op(y)` (SPEC §5).
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

use std::sync::Arc;

use arrow::array::{Array, ArrayRef};
use arrow::buffer::NullBuffer;
use arrow::datatypes::{DataType, Field, FieldRef};
use datafusion::common::ScalarValue;
use datafusion::error::Result;
use datafusion::logical_expr::{ColumnarValue, Documentation, Signature};

pub use apply::TensorAtApply;
pub use options::{ApplyFn, AtOp};
pub use plan::{AtPlan, ValuesPlan, VariableAtPlan};

use super::{PlanArgs, TensorFunction, map_arrays, tensor_array, variable_array, variable_of};
use crate::error::TensorError;
use crate::index::ScatterPlan;
use crate::kernels::layout;
use crate::kernels::ragged::{self, RaggedUpdate};
use crate::kernels::update::{self, Lambda, Update};
use docs::documentation;
use options::apply_by_name;
use plan::{plan_at, plan_at_variable};

/// Runs a planned call over one batch: `args` are x, then idx when dynamic, then y when a
/// column.
pub fn invoke_at(
    plan: &AtPlan,
    args: &[ColumnarValue],
    number_rows: usize,
    lambda: Option<&Lambda<'_>>,
) -> Result<ColumnarValue> {
    if matches!(plan.values, ValuesPlan::Literal(None)) {
        // A NULL y: every row NULL.
        let field = match &plan.output {
            Some(t) => t.storage_type(),
            None => plan.output_element.clone(),
        };
        return Ok(ColumnarValue::Scalar(ScalarValue::try_from(&field)?));
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
        run_batch(plan, &arrays[0], idx, y, lambda)
    })
}

/// One batch of arrays: `x`, the index column when dynamic, `y` when a column.
fn run_batch(
    plan: &AtPlan,
    x: &ArrayRef,
    idx: Option<&ArrayRef>,
    y: Option<&ArrayRef>,
    lambda: Option<&Lambda<'_>>,
) -> Result<ArrayRef> {
    let name = plan.op.function_name();
    let x = tensor_array(name, x)?;
    let rows = x.len();
    let mut nulls = x.logical_nulls();
    if let Some(y) = y {
        nulls = NullBuffer::union(nulls.as_ref(), y.logical_nulls().as_ref());
    }
    let in_function = |e: TensorError| e.in_function(name);
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

/// Runs a planned update of a variable-shape tensor over one batch: `args` are x, the index
/// (a literal the plan has read), then y.
fn invoke_variable(
    plan: &VariableAtPlan,
    args: &[ColumnarValue],
    number_rows: usize,
) -> Result<ColumnarValue> {
    if matches!(plan.values, ValuesPlan::Literal(None)) {
        // A NULL y: every row NULL.
        let storage = plan.output.storage_type();
        return Ok(ColumnarValue::Scalar(ScalarValue::try_from(&storage)?));
    }
    let name = plan.op.function_name();
    let data = if y_is_column(&plan.values) {
        vec![0, 2]
    } else {
        vec![0]
    };
    map_arrays(args, &data, number_rows, |arrays| {
        let view = variable_array(name, &plan.x, &arrays[0])?;
        let y = arrays.get(1);
        let mut nulls = view.nulls().cloned();
        if let Some(y) = y {
            nulls = NullBuffer::union(nulls.as_ref(), y.logical_nulls().as_ref());
        }
        let y_values = y_values(name, &plan.values, &plan.work, y)?;
        let spec = RaggedUpdate {
            index: &plan.index,
            rule: plan.rule,
            combine: plan.combine,
            work: &plan.work,
            output_element: plan.output.element_type(),
            y_shape: &plan.y_shape,
        };
        let rows = ragged::update_index(
            &view,
            &spec,
            y_values.as_ref().map(|(values, _)| values),
            y_scalar(&plan.values)?.as_ref(),
            nulls.as_ref(),
        )
        .map_err(|e| e.in_function(name))?;
        let out = ragged::from_rows(&plan.output, rows.values, &rows.lengths, rows.shapes, nulls)?;
        Ok(Arc::new(out) as ArrayRef)
    })
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
    signature: Signature,
    documentation: Documentation,
}

impl TensorAt {
    /// The registered instance of `op`.
    pub fn new(op: AtOp) -> Self {
        Self {
            op,
            signature: super::named_signature(op.parameter_names()),
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
}

impl TensorFunction for TensorAt {
    type Plan = AtCall;

    fn name(&self) -> &'static str {
        self.op.function_name()
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn documentation(&self) -> Option<&Documentation> {
        Some(&self.documentation)
    }

    fn tensor_arguments(&self, _arg_types: &[DataType]) -> Vec<usize> {
        match self.op {
            // x; idx keeps its own reading of lists (indices, coordinates).
            AtOp::Get | AtOp::Apply => vec![0],
            // and y.
            _ => vec![0, 2],
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

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        super::check_arity(
            self.name(),
            arg_types,
            self.op.positional(),
            self.op.parameter_names().len(),
        )?;
        Ok(arg_types.to_vec())
    }

    fn plan(&self, args: &PlanArgs<'_>) -> Result<AtCall> {
        if let Some(x) = variable_of(&args.fields[0])? {
            return plan_at_variable(args, self.op, x).map(|plan| AtCall::Variable(Box::new(plan)));
        }
        let apply = if self.op == AtOp::Apply {
            Some(apply_by_name(args)?)
        } else {
            None
        };
        plan_at(args, self.op, apply).map(|plan| AtCall::Fixed(Box::new(plan)))
    }

    fn return_field(&self, plan: &AtCall) -> FieldRef {
        let plan = match plan {
            AtCall::Fixed(plan) => plan,
            AtCall::Variable(plan) => return Arc::new(plan.output.to_field(self.name())),
        };
        match &plan.output {
            Some(tensor) => Arc::new(tensor.to_field(self.name())),
            None => Arc::new(Field::new(self.name(), plan.output_element.clone(), true)),
        }
    }

    fn invoke(
        &self,
        plan: &AtCall,
        args: &[ColumnarValue],
        number_rows: usize,
    ) -> Result<ColumnarValue> {
        match plan {
            AtCall::Fixed(plan) => invoke_at(plan, args, number_rows, None),
            AtCall::Variable(plan) => invoke_variable(plan, args, number_rows),
        }
    }
}
