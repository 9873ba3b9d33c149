//! `tensor_clip` with a bound that is not a bare number literal: a numeric column, or a typed
//! literal (`CAST(2 AS REAL)`, `CAST('NaN' AS DOUBLE)`). numpy's `clip` as numpy 2 types and
//! computes it, `minimum(maximum(x, min), max)`: each step one broadcast binary call
//! ([`super::binary`]), the bounds strong (their own types, NEP 50: a float64 column bound
//! makes a float32 `x` float64) and NaN propagating (a NaN bound gives NaN). A bare literal
//! beside such a bound stays weak; a NULL literal is no bound; a NULL row of a column bound
//! gives a NULL row (SQL's NULL, where the literal NULL stands for numpy's `None`).

use std::sync::Arc;

use arrow::datatypes::{DataType, Field, FieldRef};
use datafusion::common::ScalarValue;
use datafusion::error::Result;
use datafusion::logical_expr::ColumnarValue;

use super::binary::{BinaryPlan, invoke_binary, plan_binary};
use crate::kernels::elementwise::BinaryOp;
use crate::udf::PlanArgs;

/// The steps of a clip: each a binary call of the running result with the bound at argument
/// `bound`.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct ClipSteps {
    steps: Vec<(BinaryPlan, usize)>,
}

/// Whether argument `i` of a clip call is a bound at all (not absent, not NULL).
fn is_bound(args: &PlanArgs<'_>, i: usize) -> bool {
    args.fields
        .get(i)
        .is_some_and(|f| *f.data_type() != DataType::Null)
        && !args.literal(i).is_some_and(ScalarValue::is_null)
}

/// The steps of a clip call whose bounds are not all bare literals (`None`: they are, and the
/// unary kernel clips with them exactly).
pub(crate) fn plan_clip(args: &PlanArgs<'_>) -> Result<Option<ClipSteps>> {
    let general = [1, 2]
        .iter()
        .any(|&i| is_bound(args, i) && args.literal(i).is_none());
    if !general {
        return Ok(None);
    }
    let mut field: FieldRef = Arc::clone(&args.fields[0]);
    let mut scalar = args.literal(0);
    let mut steps = Vec::new();
    for (i, op) in [(1, BinaryOp::Maximum), (2, BinaryOp::Minimum)] {
        if !is_bound(args, i) {
            continue;
        }
        let fields = [Arc::clone(&field), Arc::clone(&args.fields[i])];
        let scalars = [scalar, args.literal(i)];
        let plan = plan_binary(
            &PlanArgs {
                name: args.name,
                fields: &fields,
                scalars: &scalars,
                limits: args.limits,
            },
            op,
        )?;
        field = Arc::new(plan.output_field("x"));
        scalar = None;
        steps.push((plan, i));
    }
    Ok(Some(ClipSteps { steps }))
}

impl ClipSteps {
    /// The result's field, named `name`.
    pub(crate) fn output_field(&self, name: &str) -> Field {
        match self.steps.last() {
            Some((plan, _)) => plan.output_field(name),
            None => Field::new(name, DataType::Null, true),
        }
    }

    /// Runs the steps over one batch.
    pub(crate) fn invoke(
        &self,
        name: &str,
        args: &[ColumnarValue],
        number_rows: usize,
    ) -> Result<ColumnarValue> {
        let mut current = args[0].clone();
        for (plan, i) in &self.steps {
            current = invoke_binary(name, plan, &[current, args[*i].clone()], number_rows)?;
        }
        Ok(current)
    }
}
