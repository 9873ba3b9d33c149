//! This crate's settings ([`crate::config::TensorOptions`]) by the names users write.
//!
//! DataFusion keys a configuration extension by its prefix alone (`tensor.fast_parquet`):
//! every `datafusion.*` key is one of its own, and `SET datafusion.tensor.fast_parquet = false`
//! fails there. On the paths this crate owns, `SET`, `SHOW` and `RESET` of a
//! `datafusion.tensor.NAME` are read as of `tensor.NAME`. DataFusion 55 resets only its own
//! settings (`RESET tensor.fast_parquet`: "Could not find config namespace"), so a `RESET` of
//! a tensor setting is a `SET` to its default.

use datafusion::sql::parser::{ResetStatement, Statement as DFStatement};
use datafusion::sql::sqlparser::ast::{
    Expr, Ident, ObjectName, ObjectNamePart, Set, Statement, Value,
};

use crate::config::TensorOptions;
use datafusion::common::config::ConfigExtension;

/// Rewrites a `SET`, `SHOW` or `RESET` of a tensor setting (module docs); whether it did.
pub(super) fn rewrite_settings(statement: &mut DFStatement) -> bool {
    match statement {
        DFStatement::Statement(inner) => match inner.as_mut() {
            Statement::Set(Set::SingleAssignment { variable, .. }) => {
                drop_datafusion_prefix(&mut variable.0, |part| match part {
                    ObjectNamePart::Identifier(ident) => Some(ident),
                    ObjectNamePart::Function(_) => None,
                })
            }
            Statement::ShowVariable { variable } => {
                drop_datafusion_prefix(variable, |ident| Some(ident))
            }
            _ => false,
        },
        DFStatement::Reset(ResetStatement::Variable(name)) => {
            drop_datafusion_prefix(&mut name.0, |part| match part {
                ObjectNamePart::Identifier(ident) => Some(ident),
                ObjectNamePart::Function(_) => None,
            });
            let Some(default) = tensor_setting(name)
                .as_deref()
                .and_then(TensorOptions::default_value)
            else {
                return false;
            };
            *statement = DFStatement::Statement(Box::new(Statement::Set(Set::SingleAssignment {
                scope: None,
                hivevar: false,
                variable: name.clone(),
                values: vec![Expr::value(Value::SingleQuotedString(default))],
            })));
            true
        }
        _ => false,
    }
}

/// Removes the leading `datafusion` of `datafusion.tensor.NAME` from `parts`; whether it did.
fn drop_datafusion_prefix<T>(parts: &mut Vec<T>, ident: impl Fn(&T) -> Option<&Ident>) -> bool {
    let is = |part: Option<&T>, word: &str| {
        part.and_then(&ident)
            .is_some_and(|ident| ident.value.eq_ignore_ascii_case(word))
    };
    if parts.len() > 2 && is(parts.first(), "datafusion") && is(parts.get(1), TensorOptions::PREFIX)
    {
        parts.remove(0);
        return true;
    }
    false
}

/// The setting's name within the tensor settings (`fast_parquet`) when `name` is
/// `tensor.NAME`.
fn tensor_setting(name: &ObjectName) -> Option<String> {
    let parts: Vec<String> = name
        .0
        .iter()
        .map(|part| match part {
            ObjectNamePart::Identifier(ident) => Some(ident.value.to_ascii_lowercase()),
            ObjectNamePart::Function(_) => None,
        })
        .collect::<Option<_>>()?;
    match parts.split_first() {
        Some((prefix, rest)) if prefix == TensorOptions::PREFIX && !rest.is_empty() => {
            Some(rest.join("."))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use datafusion::sql::parser::DFParser;

    fn rewritten(sql: &str) -> String {
        let mut statements = DFParser::parse_sql(sql).unwrap();
        let mut statement = statements.pop_front().unwrap();
        rewrite_settings(&mut statement);
        statement.to_string()
    }

    #[test]
    fn datafusion_tensor_names_are_tensor_names() {
        assert_eq!(
            rewritten("SET datafusion.tensor.fast_parquet = false"),
            "SET tensor.fast_parquet = false"
        );
        assert_eq!(
            rewritten("SHOW datafusion.tensor.fast_parquet"),
            "SHOW tensor fast_parquet"
        );
        assert_eq!(
            rewritten("SET datafusion.execution.batch_size = 10"),
            "SET datafusion.execution.batch_size = 10"
        );
        assert_eq!(
            rewritten("RESET datafusion.execution.batch_size"),
            "RESET datafusion.execution.batch_size"
        );
    }

    #[test]
    fn reset_of_a_tensor_setting_sets_its_default() {
        let default = TensorOptions::default_value("fast_parquet").unwrap();
        let want = format!("SET tensor.fast_parquet = '{default}'");
        assert_eq!(rewritten("RESET tensor.fast_parquet"), want);
        assert_eq!(rewritten("RESET datafusion.tensor.fast_parquet"), want);
        assert_eq!(rewritten("RESET tensor.nothing"), "RESET tensor.nothing");
    }
}
