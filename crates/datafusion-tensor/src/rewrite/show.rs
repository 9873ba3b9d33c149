//! `SHOW FUNCTIONS` with the tensor functions.
//!
//! DataFusion 55 lists a function in `SHOW FUNCTIONS` only when `information_schema.parameters`
//! has rows for it, which it derives from example argument types of the signature: functions
//! with user-defined signatures (every tensor function: their types depend on the tensor
//! metadata) get none, and higher-order functions (`tensor_choose`, `tensor_at_apply`) are not
//! in the information schema at all. On the paths this crate owns, `SHOW FUNCTIONS [LIKE ...]`
//! is DataFusion's listing followed by one row per tensor function (the aggregates included;
//! the SQL rewrite's `tensor_typed` left out), from its documentation: its description,
//! syntax example and parameter names.
//!
//! `information_schema.routines` lists the scalar tensor functions (DataFusion derives their
//! rows from the registry) but not the higher-order ones. On the same paths, a reference to
//! that table is read as DataFusion's rows followed by one row per higher-order tensor
//! function ([`list_higher_order_routines`]), in the catalog and schema DataFusion reports.

use std::sync::Arc;

use arrow::array::{
    ArrayRef, ListBuilder, RecordBatch, StringArray, StringBuilder, new_null_array,
};
use arrow::compute::cast;
use datafusion::dataframe::DataFrame;
use datafusion::error::Result;
use datafusion::logical_expr::{Documentation, col, lit};
use datafusion::prelude::SessionContext;
use datafusion::sql::parser::Statement as DFStatement;
use datafusion::sql::sqlparser::ast::{
    Ident, ObjectNamePart, ShowStatementFilter, Statement, TableAlias, TableFactor, VisitMut,
    VisitorMut,
};
use datafusion::sql::sqlparser::dialect::GenericDialect;
use datafusion::sql::sqlparser::parser::Parser;
use std::ops::ControlFlow;

use super::keywords::normalize;
use crate::udf::variadic_functions;

/// The `LIKE` pattern of a `SHOW FUNCTIONS` statement (`Some(None)`: no filter); `None` for
/// any other statement (or a filter other than `LIKE`, left to DataFusion).
pub fn show_functions_filter(statement: &DFStatement) -> Option<Option<String>> {
    let DFStatement::Statement(statement) = statement else {
        return None;
    };
    match statement.as_ref() {
        Statement::ShowFunctions { filter: None } => Some(None),
        Statement::ShowFunctions {
            filter: Some(ShowStatementFilter::Like(pattern)),
        } => Some(Some(pattern.clone())),
        _ => None,
    }
}

/// `SHOW FUNCTIONS [LIKE pattern]`: DataFusion's rows, then one per tensor function (see the
/// module docs).
///
/// # Errors
/// When DataFusion's own `SHOW FUNCTIONS` fails (no information schema).
pub async fn show_functions(ctx: &SessionContext, pattern: Option<&str>) -> Result<DataFrame> {
    let like = pattern.map_or_else(String::new, |p| {
        format!(" LIKE '{}'", p.replace('\'', "''"))
    });
    let listed = ctx.sql(&format!("SHOW FUNCTIONS{like}")).await?;
    let schema = Arc::clone(listed.schema().inner());

    let state = ctx.state();
    let tensor = |name: &str, doc: &Documentation| {
        name.starts_with("tensor")
            && doc.doc_section.label == "Tensor Functions"
            // `tensor_typed` is the SQL rewrite's, not written by hand.
            && crate::udf::registry::keyword_parameters(name).is_some()
    };
    let mut functions: Vec<(&String, &Documentation, &str)> = state
        .scalar_functions()
        .iter()
        .filter_map(|(name, udf)| Some((name, udf.documentation()?, "SCALAR")))
        .chain(
            state
                .higher_order_functions()
                .iter()
                .filter_map(|(name, udf)| Some((name, udf.documentation()?, "SCALAR"))),
        )
        .chain(
            state
                .aggregate_functions()
                .iter()
                .filter_map(|(name, udaf)| Some((name, udaf.documentation()?, "AGGREGATE"))),
        )
        .filter(|(name, doc, _)| tensor(name, doc))
        .collect();
    functions.sort_by_key(|(name, _, _)| *name);

    let names = StringArray::from_iter_values(functions.iter().map(|(name, _, _)| name.as_str()));
    let mut parameters = ListBuilder::new(StringBuilder::new());
    for (_, doc, _) in &functions {
        for (arg, _) in doc.arguments.iter().flatten() {
            parameters.values().append_value(arg);
        }
        parameters.append(true);
    }
    let text = |f: fn(&Documentation) -> &str| -> ArrayRef {
        Arc::new(StringArray::from_iter_values(
            functions.iter().map(|(_, doc, _)| f(doc)),
        ))
    };
    let rows = functions.len();
    let columns: Vec<ArrayRef> = schema
        .fields()
        .iter()
        .map(|field| {
            let array: ArrayRef = match field.name().as_str() {
                "function_name" => Arc::new(names.clone()),
                "parameters" => Arc::new(parameters.finish_cloned()),
                "function_type" => Arc::new(StringArray::from_iter_values(
                    functions.iter().map(|(_, _, kind)| *kind),
                )),
                "description" => text(|doc| &doc.description),
                "syntax_example" => text(|doc| &doc.syntax_example),
                // The types depend on the tensor arguments' metadata.
                _ => new_null_array(field.data_type(), rows),
            };
            Ok(cast(&array, field.data_type())?)
        })
        .collect::<Result<_>>()?;
    let ours = ctx.read_batch(RecordBatch::try_new(Arc::clone(&schema), columns)?)?;
    let ours = match pattern {
        Some(pattern) => ours.filter(col("function_name").like(lit(pattern)))?,
        None => ours,
    };
    listed.union(ours)
}

/// Reads every `information_schema.routines` in `node` as DataFusion's rows followed by one
/// row per higher-order tensor function (`tensor_choose`, `tensor_at_apply`), which DataFusion
/// 55's information schema leaves out; whether any reference was rewritten.
pub(super) fn list_higher_order_routines<V: VisitMut>(node: &mut V) -> bool {
    let mut visitor = RoutinesVisitor { changed: false };
    let _ = node.visit(&mut visitor);
    visitor.changed
}

struct RoutinesVisitor {
    changed: bool,
}

impl VisitorMut for RoutinesVisitor {
    type Break = ();

    // After the children, so that the reference inside the replacement is not visited again.
    fn post_visit_table_factor(&mut self, factor: &mut TableFactor) -> ControlFlow<()> {
        let TableFactor::Table {
            name,
            alias,
            args: None,
            ..
        } = factor
        else {
            return ControlFlow::Continue(());
        };
        let parts: Vec<String> = name
            .0
            .iter()
            .map(|part| match part {
                ObjectNamePart::Identifier(ident) => normalize(ident),
                ObjectNamePart::Function(_) => String::new(),
            })
            .collect();
        if !parts.ends_with(&["information_schema".to_string(), "routines".to_string()]) {
            return ControlFlow::Continue(());
        }
        let Some(subquery) = routines_query(&name.to_string()) else {
            return ControlFlow::Continue(());
        };
        let alias = alias.take().unwrap_or(TableAlias {
            explicit: true,
            name: Ident::new("routines"),
            columns: vec![],
            at: None,
        });
        *factor = TableFactor::Derived {
            lateral: false,
            subquery,
            alias: Some(alias),
            sample: None,
        };
        self.changed = true;
        ControlFlow::Continue(())
    }
}

/// `table` (DataFusion's `information_schema.routines`, as written) with a row per
/// higher-order tensor function, in the catalog and schema of DataFusion's own rows.
fn routines_query(table: &str) -> Option<Box<datafusion::sql::sqlparser::ast::Query>> {
    let quote = |text: &str| format!("'{}'", text.replace('\'', "''"));
    let rows: Vec<String> = variadic_functions()
        .iter()
        .map(|udf| {
            let doc = udf.documentation();
            let text = |f: fn(&Documentation) -> &str| doc.map_or("NULL".into(), |d| quote(f(d)));
            format!(
                "({}, {}, {})",
                quote(udf.name()),
                text(|d| &d.description),
                text(|d| &d.syntax_example)
            )
        })
        .collect();
    // A higher-order function's result type depends on its arguments: no `data_type`, as for
    // the scalar tensor functions. Every tensor function is deterministic.
    let sql = format!(
        "SELECT * FROM {table} UNION ALL \
         SELECT s.routine_catalog AS specific_catalog, s.routine_schema AS specific_schema, \
                f.name AS specific_name, s.routine_catalog, s.routine_schema, \
                f.name AS routine_name, 'FUNCTION' AS routine_type, true AS is_deterministic, \
                CAST(NULL AS VARCHAR) AS data_type, 'SCALAR' AS function_type, f.description, \
                f.syntax_example \
         FROM (SELECT routine_catalog, routine_schema FROM {table} LIMIT 1) AS s \
         CROSS JOIN (VALUES {}) AS f(name, description, syntax_example)",
        rows.join(", ")
    );
    Parser::new(&GenericDialect {})
        .try_with_sql(&sql)
        .and_then(|mut parser| parser.parse_query())
        .ok()
}
