//! Which arguments of a variadic tensor function were literals, fixed when the query is
//! analysed.
//!
//! Which arguments are literals decides `tensor_choose`'s result type (numpy's weak literals),
//! and DataFusion turns arguments into literals after the type was fixed: the optimizer folds
//! `1 + 1` into `2`, and the Parquet reader replaces a column whose statistics say it is
//! constant in a file with that value. [`FreezeLiteralArguments`] (an analyzer rule, run before
//! either) therefore gives every call an instance of its [`VariadicTensorUdf`] that remembers
//! which of its arguments were literals as written; an argument that becomes a literal later is
//! still planned as the expression it was.

use std::any::Any;
use std::sync::Arc;

use datafusion::common::config::ConfigOptions;
use datafusion::common::tree_node::{Transformed, TreeNode};
use datafusion::error::Result;
use datafusion::logical_expr::expr::HigherOrderFunction;
use datafusion::logical_expr::{Expr, HigherOrderUDF, LogicalPlan};
use datafusion::optimizer::AnalyzerRule;

use crate::udf::{TensorChoose, VariadicTensorUdf};

/// The analyzer rule that gives each call of a [`VariadicTensorUdf`] its own instance,
/// remembering which of its arguments are literals as the query was written (see the module
/// docs). [`crate::register_all`] and the crate's contexts install it.
#[derive(Debug, Default)]
pub struct FreezeLiteralArguments;

impl AnalyzerRule for FreezeLiteralArguments {
    fn name(&self) -> &'static str {
        "tensor_freeze_literal_arguments"
    }

    fn analyze(&self, plan: LogicalPlan, _config: &ConfigOptions) -> Result<LogicalPlan> {
        plan.transform_up_with_subqueries(|plan| {
            plan.map_expressions(|expr| {
                expr.transform_up(|expr| match expr {
                    Expr::HigherOrderFunction(call) => Ok(match freeze(&call) {
                        Some(frozen) => Transformed::yes(Expr::HigherOrderFunction(
                            HigherOrderFunction::new(Arc::new(frozen), call.args),
                        )),
                        None => Transformed::no(Expr::HigherOrderFunction(call)),
                    }),
                    other => Ok(Transformed::no(other)),
                })
            })
        })
        .map(|transformed| transformed.data)
    }
}

/// The call's own instance, for a registered (not yet frozen) variadic tensor function.
fn freeze(call: &HigherOrderFunction) -> Option<HigherOrderUDF> {
    let inner: &dyn Any = call.func.inner().as_ref();
    let registered = inner.downcast_ref::<VariadicTensorUdf<TensorChoose>>()?;
    if registered.literal_arguments.is_some() {
        // A call's own instance already.
        return None;
    }
    let literal = call
        .args
        .iter()
        .map(|arg| matches!(arg, Expr::Literal(..)))
        .collect();
    Some(HigherOrderUDF::new_from_impl(registered.frozen(literal)))
}
