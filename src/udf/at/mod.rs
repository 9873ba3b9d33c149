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
pub use plan::{AtPlan, ValuesPlan};

use super::{PlanArgs, TensorFunction, map_arrays, tensor_array};
use crate::error::TensorError;
use crate::index::ScatterPlan;
use crate::kernels::layout;
use crate::kernels::update::{self, Lambda, Update};
use docs::documentation;
use options::apply_by_name;
use plan::plan_at;

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
    let y_column = matches!(plan.values, ValuesPlan::Column(_) | ValuesPlan::Tensor(_));
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
        let y_values = y_values(name, plan, y)?;
        if let (Some(windows), Some(n)) = (&windows, plan.index.y_windows()) {
            windows
                .check_y_windows(n, |row| nulls.as_ref().is_none_or(|n| n.is_valid(row)))
                .map_err(in_function)?;
        }
        let y_scalar = match &plan.values {
            ValuesPlan::Literal(Some(value)) => Some(value.to_array_of_size(1)?),
            _ => None,
        };
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

/// `y`'s values in the work type with their number per row (`None`: a literal).
fn y_values(name: &str, plan: &AtPlan, y: Option<&ArrayRef>) -> Result<Option<(ArrayRef, usize)>> {
    let Some(y) = y else { return Ok(None) };
    let (values, len) = match &plan.values {
        ValuesPlan::Tensor(t) => {
            let list = tensor_array(name, y)?;
            (layout::row_major_values(t, list)?, t.size())
        }
        ValuesPlan::Column(_) => (Arc::clone(y), 1),
        _ => return Ok(None),
    };
    let values = update::y_values(&values, &plan.work).map_err(|e| e.in_function(name))?;
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

impl TensorFunction for TensorAt {
    type Plan = AtPlan;

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

    fn list_column_length(&self, plan: &AtPlan, i: usize) -> Option<usize> {
        // y broadcasts into x[idx], whose shape a literal index fixes.
        if i == 2 {
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

    fn plan(&self, args: &PlanArgs<'_>) -> Result<AtPlan> {
        let apply = if self.op == AtOp::Apply {
            Some(apply_by_name(args)?)
        } else {
            None
        };
        plan_at(args, self.op, apply)
    }

    fn return_field(&self, plan: &AtPlan) -> FieldRef {
        match &plan.output {
            Some(tensor) => Arc::new(tensor.to_field(self.name())),
            None => Arc::new(Field::new(self.name(), plan.output_element.clone(), true)),
        }
    }

    fn invoke(
        &self,
        plan: &AtPlan,
        args: &[ColumnarValue],
        number_rows: usize,
    ) -> Result<ColumnarValue> {
        invoke_at(plan, args, number_rows, None)
    }
}
