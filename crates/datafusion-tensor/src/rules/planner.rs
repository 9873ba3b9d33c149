//! SQL planning support: list literals such as `[2, 3]` become literal values.
//!
//! A tensor function's output type depends on literal arguments (a shape, an index string),
//! and DataFusion hands `return_field_from_args` only arguments that are `Expr::Literal`. Its
//! own planner turns `[2, 3]` into a call `make_array(2, 3)`, which is folded into a literal
//! only later, by the optimizer, after the output type was needed. This planner, consulted
//! before DataFusion's, folds a list of literals of one type into the same `List` literal right
//! away (`make_array`'s type: `List` of a nullable `item`); any other list (mixed types, NULLs,
//! column references) is left to DataFusion's planner.

use arrow::datatypes::DataType;
use datafusion::common::{DFSchema, Result, ScalarValue};
use datafusion::logical_expr::Expr;
use datafusion::logical_expr::planner::{ExprPlanner, PlannerResult};

/// Folds list literals of literals into `List` literals (see the module docs).
#[derive(Debug, Default)]
pub struct LiteralListPlanner;

impl ExprPlanner for LiteralListPlanner {
    fn plan_array_literal(
        &self,
        exprs: Vec<Expr>,
        _schema: &DFSchema,
    ) -> Result<PlannerResult<Vec<Expr>>> {
        Ok(match literal_list(&exprs) {
            Some(list) => PlannerResult::Planned(list),
            None => PlannerResult::Original(exprs),
        })
    }
}

/// The `List` literal of `exprs` when each is a non-NULL literal and all are of one type (an
/// empty list: of the Null type, as `make_array()` returns); `None` otherwise (mixed types
/// need `make_array`'s coercion, column references its evaluation).
pub fn literal_list(exprs: &[Expr]) -> Option<Expr> {
    let values: Vec<ScalarValue> = exprs
        .iter()
        .map(|expr| match expr {
            Expr::Literal(value, None) if !value.is_null() => Some(value.clone()),
            _ => None,
        })
        .collect::<Option<_>>()?;
    let data_type = values
        .first()
        .map_or(DataType::Null, ScalarValue::data_type);
    if values.iter().any(|v| v.data_type() != data_type) {
        return None;
    }
    let list = ScalarValue::new_list_nullable(&values, &data_type);
    Some(Expr::Literal(ScalarValue::List(list), None))
}

/// `expr` with every `make_array` call of literals (innermost first) folded into its `List`
/// literal, as the SQL planner folds `[2, 3]` ([`LiteralListPlanner`]): what a call built
/// outside SQL (`make_array(vec![lit(2), lit(3)])`) needs where a tensor function reads a
/// literal list (a shape, axes).
pub fn fold_literal_lists(expr: Expr) -> Expr {
    match expr {
        Expr::ScalarFunction(mut call) if call.func.name() == "make_array" => {
            call.args = call.args.into_iter().map(fold_literal_lists).collect();
            literal_list(&call.args).unwrap_or(Expr::ScalarFunction(call))
        }
        other => other,
    }
}
