//! Keyword arguments as numpy and JAX users write them: any subset, in any order.
//!
//! `tensor_at_add(x, '[0, 0, 1]', 1.0, unique_indices => false)` is JAX's
//! `x.at[[0, 0, 1]].add(1.0, unique_indices=False)`. DataFusion 55 cannot plan it: its SQL
//! planner resolves named arguments only as a prefix of the signature
//! (`datafusion_expr::arguments::resolve_function_arguments`, called from `datafusion-sql`'s
//! function planner, with no extension hook in between: no `ExprPlanner` method sees a
//! function call's arguments), and it drops the names of higher-order functions
//! (`tensor_choose`, `tensor_at_apply`). So this crate rewrites the parsed statement before
//! DataFusion plans it: every call of a tensor function with keyword arguments becomes the
//! positional call it means, a skipped option passed as `NULL` (which every option reads as
//! its default) and `tensor_choose`'s `mode` moved to the end, where that function reads it.
//!
//! Where the rewrite runs: see [`crate::rewrite`].
//!
//! Errors are Python's, as a call `f(**kwargs)` reports them, plus the list of valid names:
//! an unknown name, a name given twice, a name that repeats a positional argument, a positional
//! argument after a keyword one, a required argument left out.

use std::borrow::Cow;
use std::ops::ControlFlow;

use datafusion::error::{DataFusionError, Result};
use datafusion::sql::sqlparser::ast::{
    Expr, Function, FunctionArg, FunctionArgExpr, FunctionArguments, Ident, ObjectNamePart, Value,
    VisitMut, visit_expressions_mut,
};

use datafusion::sql::sqlparser::dialect::Dialect;
use datafusion::sql::sqlparser::keywords::Keyword;
use datafusion::sql::sqlparser::tokenizer::{Location, Token, Tokenizer};

use crate::udf::{AtOp, ReduceFunction, is_unary_function, unary_parameter_names};

/// `sql` with every SQL keyword written as an argument name (`values => [1, 2]`) quoted
/// (`"values" => [1, 2]`), so that it parses as the name it is: sqlparser reads `VALUES` after
/// a comma as the start of a `VALUES` list and rejects the call (`tensor(shape => [2],
/// values => [1, 2])`, `tensor_put_along_axis(x, idx, axis => 0, values => [9])`). `sql`
/// itself when there is none, or when it does not tokenize (the parser then reports why).
pub fn quote_keyword_argument_names<'a>(sql: &'a str, dialect: &dyn Dialect) -> Cow<'a, str> {
    let Ok(tokens) = Tokenizer::new(dialect, sql).tokenize_with_location() else {
        return Cow::Borrowed(sql);
    };
    let mut words: Vec<(Location, Location, String)> = Vec::new();
    let mut significant = tokens
        .iter()
        .filter(|t| !matches!(t.token, Token::Whitespace(_)))
        .peekable();
    while let Some(token) = significant.next() {
        if let Token::Word(word) = &token.token
            && word.keyword != Keyword::NoKeyword
            && word.quote_style.is_none()
            && significant
                .peek()
                .is_some_and(|next| next.token == Token::RArrow)
        {
            // Lower-cased, as SQL reads the unquoted name.
            words.push((token.span.start, token.span.end, word.value.to_lowercase()));
        }
    }
    if words.is_empty() {
        return Cow::Borrowed(sql);
    }
    // Locations are 1-based lines and columns (in characters): byte offsets of each line.
    let line_starts: Vec<usize> = std::iter::once(0)
        .chain(sql.match_indices('\n').map(|(at, _)| at + 1))
        .collect();
    let offset = |at: Location| -> Option<usize> {
        let start = *line_starts.get(usize::try_from(at.line).ok()?.checked_sub(1)?)?;
        let column = usize::try_from(at.column).ok()?.checked_sub(1)?;
        let line = &sql[start..];
        Some(
            start
                + line
                    .char_indices()
                    .nth(column)
                    .map_or(line.len(), |(i, _)| i),
        )
    };
    let mut quoted = sql.to_string();
    for (start, end, name) in words.into_iter().rev() {
        let (Some(start), Some(end)) = (offset(start), offset(end)) else {
            return Cow::Borrowed(sql);
        };
        quoted.replace_range(start..end, &format!("\"{name}\""));
    }
    Cow::Owned(quoted)
}

/// How a tensor function takes its arguments.
#[derive(Debug, Clone, Copy)]
enum Parameters {
    /// Named parameters in order; the first `required` must be given.
    Fixed {
        names: &'static [&'static str],
        required: usize,
    },
    /// `tensor_choose(a, choices..., mode)`: positional data, then the keyword options, which
    /// go last.
    Variadic { options: &'static [&'static str] },
}

impl Parameters {
    fn names(self) -> &'static [&'static str] {
        match self {
            Self::Fixed { names, .. } => names,
            Self::Variadic { options } => options,
        }
    }
}

/// The keyword rules of the tensor function `name` (already normalised); `None` for any other
/// function.
fn parameters(name: &str) -> Option<Parameters> {
    const T: &[&str] = &["t"];
    let fixed = |names, required| Some(Parameters::Fixed { names, required });
    match name {
        "tensor" => fixed(&["values", "shape", "dim_names", "permutation"], 2),
        "tensor_shape" | "tensor_ndim" | "tensor_size" | "tensor_to_list" | "tensor_to_string" => {
            fixed(T, 1)
        }
        "tensor_reshape" => fixed(&["t", "shape"], 2),
        // Positional only: `tensor_get(t, 'index')` or `tensor_get(t, i, j, ...)`.
        "tensor_get" => fixed(&[], 0),
        "tensor_take_along_axis" => fixed(&["t", "idx", "axis"], 3),
        "tensor_put_along_axis" => fixed(&["t", "idx", "values", "axis"], 4),
        "tensor_choose" => Some(Parameters::Variadic { options: &["mode"] }),
        _ if let Some(f) = ReduceFunction::ALL
            .iter()
            .find(|f| f.function_name() == name) =>
        {
            fixed(f.parameter_names(), 1)
        }
        _ if is_unary_function(name) => fixed(unary_parameter_names(name), 1),
        _ => {
            let op = AtOp::ALL.iter().find(|op| op.function_name() == name)?;
            // x, idx and (but for get) y or fn.
            let required = if *op == AtOp::Get { 2 } else { 3 };
            fixed(op.parameter_names(), required)
        }
    }
}

/// Rewrites every tensor function call with keyword arguments in `node` into its positional
/// form (see the module docs); whether anything changed.
///
/// # Errors
/// A plan error for a keyword argument the function does not take, given twice, or given
/// with a positional one for the same parameter.
pub(super) fn rewrite_keywords<V: VisitMut>(node: &mut V) -> Result<bool> {
    let mut changed = false;
    let flow = visit_expressions_mut(node, |expr| {
        if let Expr::Function(function) = expr {
            match rewrite_call(function) {
                Ok(rewritten) => changed |= rewritten,
                Err(err) => return ControlFlow::Break(err),
            }
        }
        ControlFlow::Continue(())
    });
    match flow {
        ControlFlow::Break(err) => Err(err),
        ControlFlow::Continue(()) => Ok(changed),
    }
}

/// An identifier as DataFusion normalises it: lower case unless quoted.
pub(super) fn normalize(ident: &Ident) -> String {
    if ident.quote_style.is_some() {
        ident.value.clone()
    } else {
        ident.value.to_ascii_lowercase()
    }
}

/// Rewrites one call if it is a tensor function's with keyword arguments.
fn rewrite_call(function: &mut Function) -> Result<bool> {
    let [ObjectNamePart::Identifier(ident)] = function.name.0.as_slice() else {
        return Ok(false);
    };
    let name = normalize(ident);
    let Some(parameters) = parameters(&name) else {
        return Ok(false);
    };
    let FunctionArguments::List(list) = &mut function.args else {
        return Ok(false);
    };
    if !list.args.iter().any(|arg| keyword_name(arg).is_some()) {
        return Ok(false);
    }
    let mut positional = Vec::new();
    let mut keywords: Vec<(String, FunctionArgExpr)> = Vec::new();
    for arg in std::mem::take(&mut list.args) {
        match (keyword_name(&arg), arg) {
            (Some(key), FunctionArg::Named { arg, .. } | FunctionArg::ExprNamed { arg, .. }) => {
                if keywords.iter().any(|(k, _)| *k == key) {
                    return Err(keyword_error(
                        &name,
                        parameters,
                        &format!("keyword argument repeated: {key}"),
                    ));
                }
                keywords.push((key, arg));
            }
            (_, FunctionArg::Unnamed(arg)) if keywords.is_empty() => positional.push(arg),
            (_, _) => {
                return Err(keyword_error(
                    &name,
                    parameters,
                    "positional argument follows keyword argument",
                ));
            }
        }
    }
    list.args = match parameters {
        Parameters::Fixed { names, required } => {
            fixed_arguments(&name, parameters, names, required, positional, keywords)?
        }
        Parameters::Variadic { options } => {
            let mut args: Vec<FunctionArg> =
                positional.into_iter().map(FunctionArg::Unnamed).collect();
            for option in options {
                if let Some(i) = keywords.iter().position(|(k, _)| k == option) {
                    args.push(FunctionArg::Unnamed(keywords.remove(i).1));
                }
            }
            if let Some((key, _)) = keywords.first() {
                return Err(unexpected(&name, parameters, key));
            }
            args
        }
    };
    Ok(true)
}

/// The positional arguments of a call with fixed parameters: each keyword argument at its
/// parameter's place, `NULL` in the places of options skipped before the last one given.
fn fixed_arguments(
    name: &str,
    parameters: Parameters,
    names: &[&str],
    required: usize,
    positional: Vec<FunctionArgExpr>,
    keywords: Vec<(String, FunctionArgExpr)>,
) -> Result<Vec<FunctionArg>> {
    let mut slots: Vec<Option<FunctionArgExpr>> = positional.into_iter().map(Some).collect();
    for (key, arg) in keywords {
        let Some(i) = names.iter().position(|n| *n == key) else {
            return Err(unexpected(name, parameters, &key));
        };
        if slots.len() <= i {
            slots.resize_with(i + 1, || None);
        }
        if slots[i].is_some() {
            return Err(keyword_error(
                name,
                parameters,
                &format!("got multiple values for argument '{key}'"),
            ));
        }
        slots[i] = Some(arg);
    }
    let missing: Vec<String> = (0..required.min(slots.len()))
        .filter(|&i| slots[i].is_none())
        .map(|i| format!("'{}'", names[i]))
        .collect();
    if !missing.is_empty() {
        return Err(keyword_error(
            name,
            parameters,
            &format!(
                "missing {} required argument{}: {}",
                missing.len(),
                if missing.len() == 1 { "" } else { "s" },
                missing.join(" and ")
            ),
        ));
    }
    Ok(slots
        .into_iter()
        .map(|slot| {
            FunctionArg::Unnamed(
                slot.unwrap_or_else(|| FunctionArgExpr::Expr(Expr::value(Value::Null))),
            )
        })
        .collect())
}

/// The normalised name of a keyword argument; `None` for a positional one.
fn keyword_name(arg: &FunctionArg) -> Option<String> {
    match arg {
        FunctionArg::Named { name, .. } => Some(normalize(name)),
        FunctionArg::ExprNamed { name, .. } => match name {
            Expr::Identifier(ident) => Some(normalize(ident)),
            other => Some(other.to_string()),
        },
        FunctionArg::Unnamed(_) => None,
    }
}

fn unexpected(name: &str, parameters: Parameters, key: &str) -> DataFusionError {
    keyword_error(
        name,
        parameters,
        &format!("got an unexpected keyword argument '{key}'"),
    )
}

/// A plan error about a call's keyword arguments, listing the names it takes.
fn keyword_error(name: &str, parameters: Parameters, message: &str) -> DataFusionError {
    let names = parameters.names();
    let valid = if names.is_empty() {
        "it takes positional arguments only".to_string()
    } else {
        format!("valid keyword arguments: {}", names.join(", "))
    };
    DataFusionError::Plan(format!("{name}: {message} ({valid})"))
}

#[cfg(test)]
mod tests {
    use super::super::rewrite_sql;

    fn rewrite(sql: &str) -> String {
        rewrite_sql(sql, "duckdb").unwrap()
    }

    fn error(sql: &str) -> String {
        rewrite_sql(sql, "duckdb").unwrap_err().to_string()
    }

    #[test]
    fn keywords_become_positional() {
        assert_eq!(
            rewrite("SELECT tensor_at_add(x, '[0, 0, 1]', 1.0, unique_indices => false)"),
            "SELECT tensor_at_add(x, '[0, 0, 1]', 1.0, NULL, NULL, NULL, false)"
        );
        assert_eq!(
            rewrite("SELECT tensor_at_get(x, '[5]', fill_value => -1, mode => 'fill') FROM t"),
            "SELECT tensor_at_get(x, '[5]', 'fill', -1) FROM t"
        );
        assert_eq!(
            rewrite("SELECT tensor_choose(a, c0, c1, MODE => 'clip')"),
            "SELECT tensor_choose(a, c0, c1, 'clip')"
        );
        // Nested calls and subqueries are rewritten too; other functions are left alone.
        assert_eq!(
            rewrite(
                "SELECT f(x => 1), (SELECT tensor_at_apply(y, '0', v -> v * 2, indices_are_sorted => true) FROM t)"
            ),
            "SELECT f(x => 1), (SELECT tensor_at_apply(y, '0', v -> v * 2, NULL, NULL, true) FROM t)"
        );
        // Without keyword arguments the text is returned as it was.
        let plain = "select  tensor_get(x, '0')  from t";
        assert_eq!(rewrite(plain), plain);
    }

    #[test]
    fn python_errors_with_the_valid_names() {
        let message = error("SELECT tensor_at_set(x, '0', 1, bogus => 1)");
        assert!(
            message.contains("tensor_at_set: got an unexpected keyword argument 'bogus' (valid keyword arguments: x, idx, y, mode, wrap_negative_indices, indices_are_sorted, unique_indices)"),
            "{message}"
        );
        let message = error("SELECT tensor_at_set(x, '0', 1, mode => 'clip', mode => 'drop')");
        assert!(
            message.contains("keyword argument repeated: mode"),
            "{message}"
        );
        let message = error("SELECT tensor_at_set(x, '0', 1, 'clip', mode => 'drop')");
        assert!(
            message.contains("got multiple values for argument 'mode'"),
            "{message}"
        );
        let message = error("SELECT tensor_at_set(x, mode => 'drop', '0', 1)");
        assert!(
            message.contains("positional argument follows keyword argument"),
            "{message}"
        );
        let message = error("SELECT tensor_at_set(x, y => 1)");
        assert!(
            message.contains("missing 1 required argument: 'idx'"),
            "{message}"
        );
        let message = error("SELECT tensor_choose(a, c0, clip => 'x')");
        assert!(
            message.contains("unexpected keyword argument 'clip' (valid keyword arguments: mode)"),
            "{message}"
        );
        let message = error("SELECT tensor_get(x, index => '0')");
        assert!(
            message.contains("(it takes positional arguments only)"),
            "{message}"
        );
    }
}
