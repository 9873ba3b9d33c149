//! The session's limits for the tensor aggregates (`crate::limits`).
//!
//! DataFusion gives a scalar function its session's configuration when it runs a batch, but
//! an aggregate's accumulator none (`AccumulatorArgs`). `tensor_agg_stack`, as a window
//! function, checks the bytes of its results against `tensor.max_batch_bytes`: this analyzer
//! rule gives each tensor aggregate call, in `GROUP BY` and window alike, an instance holding
//! the session's limits. Being part of the plan, they travel with it (the Ballista codecs
//! carry them).

use std::any::Any;
use std::sync::Arc;

use datafusion::common::config::ConfigOptions;
use datafusion::common::tree_node::{Transformed, TreeNode};
use datafusion::error::Result;
use datafusion::logical_expr::expr::{AggregateFunction, WindowFunction};
use datafusion::logical_expr::{AggregateUDF, Expr, LogicalPlan, WindowFunctionDefinition};
use datafusion::optimizer::AnalyzerRule;

use crate::limits::Limits;
use crate::udf::TensorAggregate;

/// The analyzer rule giving the tensor aggregate calls their session's limits.
/// [`crate::register_all`] and the crate's contexts install it.
#[derive(Debug, Default)]
pub struct SessionLimits;

impl AnalyzerRule for SessionLimits {
    fn name(&self) -> &'static str {
        "tensor_session_limits"
    }

    fn analyze(&self, plan: LogicalPlan, config: &ConfigOptions) -> Result<LogicalPlan> {
        let limits = Limits::of(config);
        Ok(plan
            .transform_up_with_subqueries(|node| {
                node.map_expressions(|expr| expr.transform_up(|expr| Ok(with_limits(expr, limits))))
            })?
            .data)
    }
}

/// `udaf` under `limits`, when it is a tensor aggregate under others.
fn limited(udaf: &Arc<AggregateUDF>, limits: Limits) -> Option<Arc<AggregateUDF>> {
    let tensor = (udaf.inner().as_ref() as &dyn Any).downcast_ref::<TensorAggregate>()?;
    (tensor.limits() != limits)
        .then(|| Arc::new(AggregateUDF::new_from_impl(tensor.with_limits(limits))))
}

fn with_limits(expr: Expr, limits: Limits) -> Transformed<Expr> {
    match expr {
        Expr::AggregateFunction(call) => match limited(&call.func, limits) {
            Some(func) => Transformed::yes(Expr::AggregateFunction(AggregateFunction {
                func,
                params: call.params,
            })),
            None => Transformed::no(Expr::AggregateFunction(call)),
        },
        Expr::WindowFunction(call) => match &call.fun {
            WindowFunctionDefinition::AggregateUDF(udaf) => match limited(udaf, limits) {
                Some(func) => {
                    let WindowFunction { params, .. } = *call;
                    Transformed::yes(Expr::WindowFunction(Box::new(WindowFunction {
                        fun: WindowFunctionDefinition::AggregateUDF(func),
                        params,
                    })))
                }
                None => Transformed::no(Expr::WindowFunction(call)),
            },
            WindowFunctionDefinition::WindowUDF(_) => Transformed::no(Expr::WindowFunction(call)),
        },
        other => Transformed::no(other),
    }
}
