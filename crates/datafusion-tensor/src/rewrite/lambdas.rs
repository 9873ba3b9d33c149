//! A lambda (`tensor_map(x, v -> ...)`, `tensor_at_apply(x, idx, v -> ...)`) runs once per
//! element of a tensor: a window or aggregate function inside it has no rows to run over.
//!
//! DataFusion's SQL planner lifts such a call out of the lambda and computes it over the
//! query's rows, so `v -> row_number() OVER ()` would quietly read a row number. Refused here,
//! while the statement is still SQL (the planner leaves no trace of where the call stood), as
//! `DuckDB` refuses aggregates in its lambdas.

use std::ops::ControlFlow;

use datafusion::common::plan_err;
use datafusion::error::Result;
use datafusion::sql::sqlparser::ast::{
    Expr, FunctionArg, FunctionArgExpr, FunctionArguments, Visit, visit_expressions,
};

/// Refuses a window function, and a function `is_aggregate` names, inside a lambda argument of
/// any function call in `node`.
///
/// # Errors
/// A plan error naming the function that takes the lambda and the call inside it.
pub fn refuse_window_and_aggregate_calls<V: Visit>(
    node: &V,
    is_aggregate: &dyn Fn(&str) -> bool,
) -> Result<()> {
    let mut found: Option<(String, String, &'static str)> = None;
    let _ = visit_expressions(node, |expr| {
        let Expr::Function(outer) = expr else {
            return ControlFlow::Continue(());
        };
        let FunctionArguments::List(list) = &outer.args else {
            return ControlFlow::Continue(());
        };
        for arg in &list.args {
            let (FunctionArg::Unnamed(FunctionArgExpr::Expr(Expr::Lambda(lambda)))
            | FunctionArg::Named {
                arg: FunctionArgExpr::Expr(Expr::Lambda(lambda)),
                ..
            }
            | FunctionArg::ExprNamed {
                arg: FunctionArgExpr::Expr(Expr::Lambda(lambda)),
                ..
            }) = arg
            else {
                continue;
            };
            let inner = visit_expressions(&*lambda.body, |e| match e {
                Expr::Function(call) if call.over.is_some() => {
                    ControlFlow::Break((call.to_string(), "a window function"))
                }
                Expr::Function(call) if is_aggregate(&call.name.to_string().to_lowercase()) => {
                    ControlFlow::Break((call.to_string(), "an aggregate function"))
                }
                _ => ControlFlow::Continue(()),
            });
            if let ControlFlow::Break((call, kind)) = inner {
                found = Some((outer.name.to_string(), call, kind));
                return ControlFlow::Break(());
            }
        }
        ControlFlow::Continue(())
    });
    match found {
        Some((function, call, kind)) => plan_err!(
            "{function}: a lambda runs once per element and cannot call {kind} ({call}); compute it in a subquery and read its column in the lambda"
        ),
        None => Ok(()),
    }
}

/// [`refuse_window_and_aggregate_calls`] over a parsed DataFusion statement (its query, the
/// statement an `EXPLAIN` explains, a `COPY`'s query).
///
/// # Errors
/// As [`refuse_window_and_aggregate_calls`].
pub fn refuse_in_statement(
    statement: &datafusion::sql::parser::Statement,
    is_aggregate: &dyn Fn(&str) -> bool,
) -> Result<()> {
    use datafusion::sql::parser::{CopyToSource, Statement};
    match statement {
        Statement::Statement(statement) => {
            refuse_window_and_aggregate_calls(statement.as_ref(), is_aggregate)
        }
        Statement::Explain(explain) => refuse_in_statement(&explain.statement, is_aggregate),
        Statement::CopyTo(copy) => match &copy.source {
            CopyToSource::Query(query) => {
                refuse_window_and_aggregate_calls(query.as_ref(), is_aggregate)
            }
            CopyToSource::Relation(_) => Ok(()),
        },
        _ => Ok(()),
    }
}
