//! SQL as numpy and JAX users write it, on the paths this crate owns.
//!
//! DataFusion's SQL planner has no hook for two things numpy and JAX users write all the time,
//! so this crate rewrites the parsed statement before DataFusion plans it:
//! - [`keywords`]: keyword arguments of the tensor functions in any subset and order
//!   (`tensor_at_add(x, idx, y, unique_indices => false)`);
//! - [`tensor_types`]: `CASE`, `COALESCE`, `NULLIF`, `IFNULL`/`NVL`, `NVL2` and `arrow_cast`
//!   keep the tensor type of their values (DataFusion drops field metadata there);
//! - [`show`]: `SHOW FUNCTIONS` lists the tensor functions (DataFusion's listing needs
//!   example argument types that their signatures do not have), and
//!   `information_schema.routines` lists the higher-order ones (`tensor_choose`,
//!   `tensor_at_apply`), which DataFusion's leaves out;
//! - [`lambdas`]: a window or aggregate function inside a lambda is refused (it has no rows to
//!   run over);
//! - [`unions`]: a `WITH` query that is a `UNION` is read through a `FROM` clause, where its
//!   tensor columns get one type ([`crate::rules::union`]);
//! - [`settings`]: `SET`, `SHOW` and `RESET` of this crate's settings also by the names
//!   `datafusion.tensor.*`, and `RESET tensor.*`, which DataFusion 55 does not do.
//!
//! The rewrite runs in [`TensorSql::tensor_sql`] on a `SessionContext` (embedders, the
//! sqllogictest suites), in the CLI (files, `-c`, the REPL) and in [`rewrite_sql`] for anything
//! that parses its own SQL. `SessionContext::sql` itself keeps DataFusion's rules (keyword
//! arguments only as a prefix of the signature; CASE and COALESCE give plain lists).

pub mod keywords;
pub mod lambdas;
pub mod settings;
pub mod show;
pub mod tensor_types;
pub mod unions;

use std::sync::Arc;

use datafusion::common::config::Dialect;
use datafusion::dataframe::DataFrame;
use datafusion::error::Result;
use datafusion::execution::context::SQLOptions;
use datafusion::prelude::SessionContext;
use datafusion::sql::parser::{CopyToSource, DFParser, Statement as DFStatement};
use datafusion::sql::sqlparser::ast::VisitMut;
use datafusion::sql::sqlparser::dialect::dialect_from_str;

/// Rewrites `statement` for the tensor functions (see the module docs); whether anything
/// changed.
///
/// # Errors
/// A plan error for a keyword argument a function does not take, gives twice, or gives with
/// a positional one for the same parameter.
pub fn rewrite_statement(statement: &mut DFStatement) -> Result<bool> {
    if settings::rewrite_settings(statement) {
        return Ok(true);
    }
    match statement {
        DFStatement::Statement(statement) => rewrite_ast(statement.as_mut()),
        DFStatement::Explain(explain) => rewrite_statement(explain.statement.as_mut()),
        DFStatement::CopyTo(copy) => match &mut copy.source {
            CopyToSource::Query(query) => rewrite_ast(query.as_mut()),
            CopyToSource::Relation(_) => Ok(false),
        },
        DFStatement::CreateExternalTable(_) | DFStatement::Reset(_) => Ok(false),
    }
}

/// Both rewrites over one sqlparser node.
fn rewrite_ast<V: VisitMut>(node: &mut V) -> Result<bool> {
    let keywords = keywords::rewrite_keywords(node)?;
    let types = tensor_types::keep_tensor_types(node);
    let routines = show::list_higher_order_routines(node);
    let unions = unions::read_with_unions_from(node);
    Ok(keywords || types || routines || unions)
}

/// `sql` rewritten ([`rewrite_statement`]) and printed back as SQL in `dialect` (a DataFusion
/// dialect name such as `duckdb`); `sql` itself when nothing needs rewriting, or when it does
/// not parse (DataFusion then reports the parse error).
///
/// The printing is sqlparser's, which does not give back every statement as written (sqlparser
/// 0.62 prints `COPY ... TO 'file'` without the quotes of its target): where you can, plan the
/// rewritten statement itself (`rewrite_statement`, then `SessionState::statement_to_plan`),
/// as [`TensorSql::tensor_sql`] and the CLI do.
///
/// # Errors
/// A plan error for invalid keyword arguments (see [`rewrite_statement`]).
pub fn rewrite_sql(sql: &str, dialect: &str) -> Result<String> {
    let Some(parser_dialect) = dialect_from_str(dialect) else {
        return Ok(sql.to_string());
    };
    let quoted = keywords::quote_keyword_argument_names(sql, parser_dialect.as_ref());
    let Ok(mut statements) = DFParser::parse_sql_with_dialect(&quoted, parser_dialect.as_ref())
    else {
        return Ok(sql.to_string());
    };
    let mut changed = false;
    for statement in &mut statements {
        changed |= rewrite_statement(statement)?;
    }
    if !changed {
        return Ok(sql.to_string());
    }
    Ok(statements
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(";\n"))
}

/// `SessionContext::sql` with the SQL rewrite of this module: keyword arguments in any order,
/// tensor types through `CASE` and friends, `SHOW FUNCTIONS` listing the tensor functions.
#[async_trait::async_trait]
pub trait TensorSql {
    /// Plans and runs `sql` as `SessionContext::sql` does, rewritten first (see the module
    /// docs).
    ///
    /// # Errors
    /// As `SessionContext::sql`, and the keyword errors of [`rewrite_statement`].
    async fn tensor_sql(&self, sql: &str) -> Result<DataFrame>;

    /// [`Self::tensor_sql`] with `SessionContext::sql_with_options`' checks.
    ///
    /// # Errors
    /// As [`Self::tensor_sql`], and when the plan is not allowed by `options`.
    async fn tensor_sql_with_options(&self, sql: &str, options: SQLOptions) -> Result<DataFrame>;
}

#[async_trait::async_trait]
impl TensorSql for SessionContext {
    async fn tensor_sql(&self, sql: &str) -> Result<DataFrame> {
        self.tensor_sql_with_options(sql, SQLOptions::new()).await
    }

    async fn tensor_sql_with_options(&self, sql: &str, options: SQLOptions) -> Result<DataFrame> {
        let state = self.state();
        let dialect: Dialect = state.config().options().sql_parser.dialect;
        let sql = match dialect_from_str(dialect) {
            Some(parser) => keywords::quote_keyword_argument_names(sql, parser.as_ref()),
            None => std::borrow::Cow::Borrowed(sql),
        };
        let mut statement = state.sql_to_statement(&sql, &dialect)?;
        if let Some(pattern) = show::show_functions_filter(&statement) {
            return show::show_functions(self, pattern.as_deref()).await;
        }
        rewrite_statement(&mut statement)?;
        lambdas::refuse_in_statement(&statement, &|name| {
            state.aggregate_functions().contains_key(name)
        })?;
        let plan = state.statement_to_plan(statement).await?;
        // One tensor type per UNION column, before the DataFrame takes the plan's schema.
        let plan = crate::rules::reconcile_union_layouts(plan)?.data;
        options.verify_plan(&plan)?;
        if let datafusion::logical_expr::LogicalPlan::DescribeTable(describe) = &plan {
            // Tensor columns by their tensor types, not their storage alone.
            let batch = crate::display::describe_batch(
                &describe.schema,
                Arc::clone(describe.output_schema.inner()),
            )?;
            return self.read_batch(batch);
        }
        self.execute_logical_plan(plan).await
    }
}
