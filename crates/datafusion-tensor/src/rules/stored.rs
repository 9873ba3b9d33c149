//! DataFusion's comparisons of tensors by their stored values, where they would not compare
//! what the tensors hold: a plan error. An analyzer rule, so that plans built without SQL are
//! checked too.
//!
//! - `min(x)`, `max(x)`, `greatest(x, y)` and `least(x, y)` of tensors. DataFusion orders lists
//!   lexicographically by their stored values, so these pick a whole row by the order its
//!   values happen to be stored in (a permuted tensor and its row-major copy compare
//!   differently), and return it as a flat list without its tensor type. numpy has no such
//!   ordering of arrays: `np.min(x, axis=0)` and `np.maximum(x, y)` are elementwise, and so are
//!   `tensor_agg_min` and `tensor_maximum`. The error names them. Plain `FixedSizeList` columns
//!   (no tensor extension type) are lists to SQL and are left alone.
//! - `nullif(a, b)` of one logical tensor type stored in two layouts (a tensor and its
//!   `tensor_transpose`): DataFusion compares the stored values, which are in different orders.
//!   The error says to write both out row-major (`tensor_ascontiguousarray`). (`CASE`,
//!   `COALESCE` and `UNION` of two layouts write them out row-major themselves: they only move
//!   values, [`crate::udf::TensorTyped`].)

use std::borrow::Cow;

use arrow::datatypes::DataType;
use datafusion::common::config::ConfigOptions;
use datafusion::common::tree_node::{TreeNode, TreeNodeRecursion};
use datafusion::common::{DFSchema, plan_err};
use datafusion::error::Result;
use datafusion::logical_expr::{Expr, ExprSchemable, LogicalPlan};
use datafusion::optimizer::AnalyzerRule;

use crate::rules::union::{same_layout, same_logical_type};
use crate::variable_shape::AnyTensorType;
use crate::variable_shape::has_any_tensor_extension;

/// The analyzer rule refusing DataFusion's comparisons of tensors by stored values. [`crate::register_all`]
/// and the crate's contexts install it.
#[derive(Debug, Default)]
pub struct RefuseStoredComparisons;

/// The tensor functions to use instead of DataFusion's `name` on tensors, and numpy's.
fn instead(name: &str) -> Option<&'static str> {
    Some(match name {
        "min" => "tensor_agg_min(x) (numpy's np.min(x, axis=0))",
        "max" => "tensor_agg_max(x) (numpy's np.max(x, axis=0))",
        "greatest" => "tensor_maximum(a, b) (numpy's np.maximum)",
        "least" => "tensor_minimum(a, b) (numpy's np.minimum)",
        _ => return None,
    })
}

/// The tensor type of `arg` in `schema`, when it has a tensor extension type. A plain
/// FixedSizeList is left to DataFusion: a list column is ordered as SQL orders lists. An
/// argument that cannot be typed here is for DataFusion's own checks to report.
fn tensor_of(arg: &Expr, schema: &DFSchema) -> Option<AnyTensorType> {
    // Type coercion (before this rule) casts one list to the other's storage type, dropping
    // its tensor type: what is compared is the value cast.
    let arg = match arg {
        Expr::Cast(cast) if matches!(cast.field.data_type(), DataType::FixedSizeList(..)) => {
            &cast.expr
        }
        other => other,
    };
    let (_, field) = arg.to_field(schema).ok()?;
    if !has_any_tensor_extension(&field) {
        return None;
    }
    AnyTensorType::from_field(&field).ok().flatten()
}

/// An error when the call `name` of `args` compares tensors by their stored values.
fn check(name: &str, args: &[Expr], schema: &DFSchema) -> Result<()> {
    if name == "nullif"
        && let [a, b] = args
        && let (Some(a), Some(b)) = (tensor_of(a, schema), tensor_of(b, schema))
        && same_logical_type(&a, &b)
        && !same_layout(&a, &b)
    {
        return plan_err!(
            "nullif: its arguments hold one logical tensor type in two layouts, {} and {}; nullif compares stored values, which are in different orders: write both out row-major with tensor_ascontiguousarray",
            a.type_name(),
            b.type_name()
        );
    }
    let Some(instead) = instead(name) else {
        return Ok(());
    };
    for (i, arg) in args.iter().enumerate() {
        if let Some(tensor) = tensor_of(arg, schema) {
            return plan_err!(
                "{name}: argument {} is a tensor ({}); {name} orders tensors as flat lists of their stored values, not as numpy does: use {instead}",
                i + 1,
                tensor.type_name()
            );
        }
    }
    Ok(())
}

impl AnalyzerRule for RefuseStoredComparisons {
    fn name(&self) -> &'static str {
        "tensor_refuse_stored_comparisons"
    }

    fn analyze(&self, plan: LogicalPlan, _config: &ConfigOptions) -> Result<LogicalPlan> {
        plan.apply_with_subqueries(|node| {
            let inputs = node.inputs();
            // The schema a node's expressions are typed in: its input's, a join's two.
            let schema = match (node, inputs.as_slice()) {
                (_, [input]) => Cow::Borrowed(input.schema().as_ref()),
                (LogicalPlan::Join(_), [left, right]) => match left.schema().join(right.schema()) {
                    Ok(schema) => Cow::Owned(schema),
                    Err(_) => return Ok(TreeNodeRecursion::Continue),
                },
                _ => return Ok(TreeNodeRecursion::Continue),
            };
            node.apply_expressions(|expr| {
                expr.apply(|expr| {
                    match expr {
                        Expr::AggregateFunction(call) => {
                            check(call.func.name(), &call.params.args, &schema)?;
                        }
                        Expr::WindowFunction(call) => {
                            check(call.fun.name(), &call.params.args, &schema)?;
                        }
                        Expr::ScalarFunction(call) => check(call.name(), &call.args, &schema)?,
                        _ => {}
                    }
                    Ok(TreeNodeRecursion::Continue)
                })
            })
        })?;
        Ok(plan)
    }
}
