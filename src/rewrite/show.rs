//! `SHOW FUNCTIONS` with the tensor functions.
//!
//! DataFusion 55 lists a function in `SHOW FUNCTIONS` only when `information_schema.parameters`
//! has rows for it, which it derives from example argument types of the signature: functions
//! with user-defined signatures (every tensor function: their types depend on the tensor
//! metadata) get none, and higher-order functions (`tensor_choose`, `tensor_at_apply`) are not
//! in the information schema at all. On the paths this crate owns, `SHOW FUNCTIONS [LIKE ...]`
//! is DataFusion's listing followed by one row per tensor function, from its documentation:
//! its description, syntax example and parameter names.

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
use datafusion::sql::sqlparser::ast::{ShowStatementFilter, Statement};

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
    let mut functions: Vec<(&String, &Documentation)> = state
        .scalar_functions()
        .iter()
        .filter_map(|(name, udf)| Some((name, udf.documentation()?)))
        .chain(
            state
                .higher_order_functions()
                .iter()
                .filter_map(|(name, udf)| Some((name, udf.documentation()?))),
        )
        .filter(|(name, doc)| {
            name.starts_with("tensor") && doc.doc_section.label == "Tensor Functions"
        })
        .collect();
    functions.sort_by_key(|(name, _)| *name);

    let names = StringArray::from_iter_values(functions.iter().map(|(name, _)| name.as_str()));
    let mut parameters = ListBuilder::new(StringBuilder::new());
    for (_, doc) in &functions {
        for (arg, _) in doc.arguments.iter().flatten() {
            parameters.values().append_value(arg);
        }
        parameters.append(true);
    }
    let text = |f: fn(&Documentation) -> &str| -> ArrayRef {
        Arc::new(StringArray::from_iter_values(
            functions.iter().map(|(_, doc)| f(doc)),
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
                "function_type" => Arc::new(StringArray::from(vec!["SCALAR"; rows])),
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
