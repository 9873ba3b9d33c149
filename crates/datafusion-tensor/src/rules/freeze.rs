//! Which arguments of a tensor function were literals, fixed when the query is analysed.
//!
//! Which arguments are literals decides a tensor function's result type (numpy's weak literals:
//! `tensor_where(c, x, 0.5)` keeps a float32 `x`'s type, a float64 column would not),
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
use datafusion::logical_expr::expr::{HigherOrderFunction, ScalarFunction};
use datafusion::logical_expr::{Expr, HigherOrderUDF, LogicalPlan, ScalarUDF};
use datafusion::optimizer::AnalyzerRule;

use crate::udf::registry::registry;
use crate::udf::{TensorChoose, VariadicTensorUdf};

/// The analyzer rule that gives each call of a scalar tensor function ([`crate::udf::TensorUdf`])
/// or a [`VariadicTensorUdf`] its own instance,
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
                    Expr::ScalarFunction(call) => Ok(match freeze_scalar(&call) {
                        Some(frozen) => Transformed::yes(Expr::ScalarFunction(
                            ScalarFunction::new_udf(Arc::new(frozen), call.args),
                        )),
                        None => Transformed::no(Expr::ScalarFunction(call)),
                    }),
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

/// The call's own instance, for a registered (not yet frozen or planned) scalar tensor
/// function.
fn freeze_scalar(call: &ScalarFunction) -> Option<ScalarUDF> {
    let view = registry().scalar_call(&call.func)?;
    let literal: Vec<bool> = call
        .args
        .iter()
        .map(|arg| matches!(arg, Expr::Literal(..)))
        .collect();
    // Nothing to remember when every argument is a literal.
    if literal.iter().all(|&l| l) {
        return None;
    }
    view.frozen(&literal)
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
