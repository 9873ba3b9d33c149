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
        let values: Option<Vec<ScalarValue>> = exprs
            .iter()
            .map(|expr| match expr {
                Expr::Literal(value, None) if !value.is_null() => Some(value.clone()),
                _ => None,
            })
            .collect();
        let Some(values) = values else {
            return Ok(PlannerResult::Original(exprs));
        };
        let Some(first) = values.first() else {
            // `[]`: an empty list of the Null type, as make_array() returns.
            let list = ScalarValue::new_list_nullable(&[], &DataType::Null);
            return Ok(PlannerResult::Planned(Expr::Literal(
                ScalarValue::List(list),
                None,
            )));
        };
        let data_type = first.data_type();
        if values.iter().any(|v| v.data_type() != data_type) {
            // Mixed types need make_array's type coercion.
            return Ok(PlannerResult::Original(exprs));
        }
        let list = ScalarValue::new_list_nullable(&values, &data_type);
        Ok(PlannerResult::Planned(Expr::Literal(
            ScalarValue::List(list),
            None,
        )))
    }
}
