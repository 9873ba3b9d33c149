//! Tensor types through `CASE`, `COALESCE`, `NULLIF`, `IFNULL`/`NVL`, `NVL2`, `CAST` and
//! `arrow_cast`.
//!
//! DataFusion 55 types these expressions without field metadata, so a tensor passed through
//! them arrives as a plain `FixedSizeList` (a 1-d tensor): `tensor_shape(COALESCE(x, x))` says
//! `[4]` for a `[2, 2]` tensor. The SQL planner has no hook for them, so the rewrite wraps each
//! such expression `e` in `tensor_typed(e, v1, v2, ...)` where `v1, v2, ...` are the values it
//! may return (the `THEN` and `ELSE` results, `COALESCE`'s arguments, the cast's input; number
//! and string literals left out). [`crate::udf::TensorTyped`] gives `e`'s own field the tensor
//! type those values share, or fails naming the two types when they differ (`NVL` and `IFNULL`
//! become the `COALESCE` they are, DataFusion's `nvl` turning lists into strings: the wrapper
//! then also carries the name they were written with, `tensor_typed(coalesce(a, b), 'nvl', a,
//! b)`, so that the column is still named `nvl(a,b)`); the optimizer then
//! drops the extra arguments (they are never evaluated) and the wrapper itself where no tensor
//! type was found. The wrapper's column name is `e`'s.

use std::ops::ControlFlow;

use datafusion::sql::sqlparser::ast::{
    Expr, Function, FunctionArg, FunctionArgExpr, FunctionArgumentList, FunctionArguments, Ident,
    ObjectName, ObjectNamePart, Value, VisitMut, visit_expressions_mut,
};

use super::keywords::normalize;
use crate::udf::TENSOR_TYPED;

/// Wraps every expression that drops tensor metadata (see the module docs); whether any was.
pub(super) fn keep_tensor_types<V: VisitMut>(node: &mut V) -> bool {
    let mut changed = false;
    let _ = visit_expressions_mut(node, |expr| {
        let renamed = nvl_as_coalesce(expr);
        changed |= renamed.is_some();
        let values = result_values(expr);
        if !values.is_empty() {
            let inner = std::mem::replace(expr, Expr::Identifier(Ident::new("")));
            // The name the call was written with, when it was rewritten (the column's name).
            let name = renamed.map(|name| Expr::value(Value::SingleQuotedString(name)));
            let args = std::iter::once(inner)
                .chain(name)
                .chain(values)
                .map(|e| FunctionArg::Unnamed(FunctionArgExpr::Expr(e)))
                .collect();
            *expr = Expr::Function(Function {
                name: ObjectName::from(vec![Ident::new(TENSOR_TYPED)]),
                uses_odbc_syntax: false,
                parameters: FunctionArguments::None,
                args: FunctionArguments::List(FunctionArgumentList {
                    duplicate_treatment: None,
                    args,
                    clauses: vec![],
                }),
                filter: None,
                null_treatment: None,
                over: None,
                within_group: vec![],
            });
            changed = true;
        }
        ControlFlow::<()>::Continue(())
    });
    changed
}

/// `NVL(a, b)` and `IFNULL(a, b)` as `COALESCE(a, b)`, which they are (DataFusion's `nvl`
/// coerces list arguments to strings); the name they were written with.
fn nvl_as_coalesce(expr: &mut Expr) -> Option<String> {
    let Expr::Function(function) = expr else {
        return None;
    };
    let [ObjectNamePart::Identifier(ident)] = function.name.0.as_mut_slice() else {
        return None;
    };
    let name = normalize(ident);
    if !matches!(name.as_str(), "nvl" | "ifnull") {
        return None;
    }
    *ident = Ident::new("coalesce");
    Some(name)
}

/// The values `expr` may return, for an expression that drops field metadata; empty for any
/// other expression, and when every value is a literal.
fn result_values(expr: &Expr) -> Vec<Expr> {
    let values: Vec<&Expr> = match expr {
        Expr::Case {
            conditions,
            else_result,
            ..
        } => conditions
            .iter()
            .map(|when| &when.result)
            .chain(else_result.as_deref())
            .collect(),
        Expr::Cast { expr, .. } => vec![expr.as_ref()],
        Expr::Function(function) => function_values(function),
        _ => vec![],
    };
    values
        .into_iter()
        .filter(|value| !matches!(value, Expr::Value(_)))
        .cloned()
        .collect()
}

/// The arguments a metadata-dropping function may return.
fn function_values(function: &Function) -> Vec<&Expr> {
    let [ObjectNamePart::Identifier(ident)] = function.name.0.as_slice() else {
        return vec![];
    };
    let FunctionArguments::List(list) = &function.args else {
        return vec![];
    };
    if function.over.is_some() || function.filter.is_some() {
        return vec![];
    }
    let args: Vec<&Expr> = list
        .args
        .iter()
        .filter_map(|arg| match arg {
            FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) => Some(e),
            _ => None,
        })
        .collect();
    match normalize(ident).as_str() {
        "coalesce" => args,
        "nullif" | "arrow_cast" | "arrow_try_cast" => args.into_iter().take(1).collect(),
        "nvl2" => args.into_iter().skip(1).collect(),
        _ => vec![],
    }
}

#[cfg(test)]
mod tests {
    use super::super::rewrite_sql;

    #[test]
    fn wraps_what_drops_metadata() {
        let sql = rewrite_sql(
            "SELECT CASE WHEN c THEN x ELSE y END, COALESCE(x, NULL), nullif(x, y), CAST(x AS INT), 1 + 2, nvl(x, y) FROM t",
            "duckdb",
        )
        .unwrap();
        assert_eq!(
            sql,
            "SELECT tensor_typed(CASE WHEN c THEN x ELSE y END, x, y), tensor_typed(COALESCE(x, NULL), x), tensor_typed(nullif(x, y), x), tensor_typed(CAST(x AS INT), x), 1 + 2, tensor_typed(coalesce(x, y), 'nvl', x, y) FROM t"
        );
        // Literal values alone: nothing to keep.
        let plain = "SELECT CASE WHEN c THEN 1 ELSE 2 END FROM t";
        assert_eq!(rewrite_sql(plain, "duckdb").unwrap(), plain);
    }
}
