//! `tensor_agg_sum(DISTINCT x)` and the other tensor aggregates with DISTINCT: a plan error.
//!
//! The check must come before the optimizer: DataFusion's `SingleDistinctToGroupBy` rewrites
//! a query whose aggregates are all DISTINCT over one argument into a GROUP BY on it and plain
//! aggregates, after which the aggregate never sees that it was DISTINCT. So it is an analyzer
//! rule, and it covers plans built without SQL too.

use std::any::Any;

use datafusion::common::config::ConfigOptions;
use datafusion::common::plan_err;
use datafusion::common::tree_node::{TreeNode, TreeNodeRecursion};
use datafusion::error::Result;
use datafusion::logical_expr::{Expr, LogicalPlan};
use datafusion::optimizer::AnalyzerRule;

use crate::udf::TensorAggregate;
use crate::udf::aggregate::distinct_message;

/// The analyzer rule refusing DISTINCT calls of the tensor aggregates. [`crate::register_all`]
/// and the crate's contexts install it.
#[derive(Debug, Default)]
pub struct RefuseDistinctAggregates;

impl AnalyzerRule for RefuseDistinctAggregates {
    fn name(&self) -> &'static str {
        "tensor_refuse_distinct_aggregates"
    }

    fn analyze(&self, plan: LogicalPlan, _config: &ConfigOptions) -> Result<LogicalPlan> {
        plan.apply_with_subqueries(|node| {
            node.apply_expressions(|expr| {
                expr.apply(|expr| {
                    if let Expr::AggregateFunction(call) = expr
                        && call.params.distinct
                        && (call.func.inner().as_ref() as &dyn Any).is::<TensorAggregate>()
                    {
                        return plan_err!("{}", distinct_message(call.func.name()));
                    }
                    Ok(TreeNodeRecursion::Continue)
                })
            })
        })?;
        Ok(plan)
    }
}
