//! Keeps a `WHERE` clause in front of the expressions it guards.
//!
//! DataFusion 55's physical `ProjectionPushdown` moves a projection below a filter whenever the
//! projection has fewer columns than the filter's input (`FilterExec::try_swapping_with_projection`),
//! whatever the projection computes. The filter then runs after the projection: in
//! `SELECT tensor_get(x, i) FROM t WHERE i < 3` the function sees, and fails on, the rows the
//! query filtered out (an index out of bounds, `tensor_choose`'s `raise`), and does the work of
//! every dropped row. [`FilterBeforeComputedProjection`] puts such filters back below the
//! projection, as the logical plan had them.

use std::sync::Arc;

use datafusion::common::config::ConfigOptions;
use datafusion::common::tree_node::{Transformed, TreeNode};
use datafusion::error::Result;
use datafusion::physical_expr::expressions::{Column, Literal};
use datafusion::physical_expr::projection::update_expr;
use datafusion::physical_expr::utils::collect_columns;
use datafusion::physical_optimizer::PhysicalOptimizerRule;
use datafusion::physical_plan::ExecutionPlan;
use datafusion::physical_plan::execution_plan::{ChildrenPropertiesMode, ReplaceChildrenOptions};
use datafusion::physical_plan::filter::{FilterExec, FilterExecBuilder};
use datafusion::physical_plan::projection::ProjectionExec;

/// Rewrites `FilterExec(ProjectionExec(input))` into `ProjectionExec(FilterExec(input))` when
/// the projection computes something (any expression other than a column or a literal) and
/// the filter reads only columns the projection passes through unchanged. A filter on a
/// computed column stays where it is: that column only exists above the projection.
#[derive(Debug, Default)]
pub struct FilterBeforeComputedProjection;

impl PhysicalOptimizerRule for FilterBeforeComputedProjection {
    fn optimize(
        &self,
        plan: Arc<dyn ExecutionPlan>,
        _config: &ConfigOptions,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        plan.transform_down(|node| {
            let Some(swapped) = filter_below_projection(&node)? else {
                return Ok(Transformed::no(node));
            };
            Ok(Transformed::yes(swapped))
        })
        .map(|transformed| transformed.data)
    }

    fn name(&self) -> &'static str {
        "tensor_filter_before_computed_projection"
    }

    fn schema_check(&self) -> bool {
        true
    }
}

fn filter_below_projection(
    node: &Arc<dyn ExecutionPlan>,
) -> Result<Option<Arc<dyn ExecutionPlan>>> {
    let Some(filter) = node.downcast_ref::<FilterExec>() else {
        return Ok(None);
    };
    let Some(projection) = filter.input().downcast_ref::<ProjectionExec>() else {
        return Ok(None);
    };
    if filter.projection().is_some() {
        return Ok(None);
    }
    let exprs = projection.expr();
    let computes = exprs.iter().any(|e| {
        e.expr.downcast_ref::<Column>().is_none() && e.expr.downcast_ref::<Literal>().is_none()
    });
    let passed_through = collect_columns(filter.predicate()).iter().all(|column| {
        exprs
            .get(column.index())
            .is_some_and(|e| e.expr.downcast_ref::<Column>().is_some())
    });
    if !computes || !passed_through {
        return Ok(None);
    }
    let Some(predicate) = update_expr(filter.predicate(), exprs, true)? else {
        return Ok(None);
    };
    let below = FilterExecBuilder::from(filter)
        .with_input(Arc::clone(projection.input()))
        .with_predicate(predicate)
        .build()?;
    Ok(Some(Arc::clone(filter.input()).replace_children(
        vec![Arc::new(below)],
        ReplaceChildrenOptions::new(ChildrenPropertiesMode::Recompute),
    )?))
}
