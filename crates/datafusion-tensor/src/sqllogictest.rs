//! sqllogictest suites with the tensor functions: [`TensorDb`], the `sqllogictest` crate's
//! [`AsyncDB`](sqllogictest::AsyncDB) over a DataFusion context (feature `sqllogictest`).
//!
//! A downstream team's harness embeds it in a few lines, as this repository's own suites do:
//!
//! ```no_run
//! # async fn suite() -> Result<(), String> {
//! use datafusion_tensor::sqllogictest::{RunOptions, run_file};
//! run_file("tests/tensors.slt".as_ref(), &RunOptions::default(), || {
//!     datafusion_tensor::tensor_session_context()
//! })
//! .await
//! # }
//! ```
//!
//! Statements run as the CLI runs them ([`crate::TensorSql::tensor_sql`]: keyword arguments in
//! any order, `SET tensor.*`). Values print as DataFusion's CLI prints them, tensors as nested
//! lists; NULL as `NULL`, the empty string as `(empty)`. Integer columns are of type `I`,
//! floating-point ones `R`, all others `T`.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use arrow::array::{Array, RecordBatch};
use arrow::datatypes::DataType;
use arrow::util::display::{ArrayFormatter, ArrayFormatterFactory, FormatOptions};
use datafusion::catalog::Session;
use datafusion::error::DataFusionError;
use datafusion::logical_expr::extension_types::DFArrayFormatterFactory;
use datafusion::prelude::SessionContext;
use sqllogictest::{DBOutput, DefaultColumnType};

use crate::TensorSql;

/// A sqllogictest database: one DataFusion context with the tensor functions.
pub struct TensorDb {
    ctx: SessionContext,
}

impl std::fmt::Debug for TensorDb {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TensorDb")
            .field("session_id", &self.ctx.session_id())
            .finish()
    }
}

impl TensorDb {
    /// The database over `ctx` (a context with the tensor functions registered:
    /// [`crate::tensor_session_context`], or your own after [`crate::register_all`]).
    pub fn new(ctx: SessionContext) -> Self {
        Self { ctx }
    }

    /// The context the statements run on.
    pub fn context(&self) -> &SessionContext {
        &self.ctx
    }
}

#[async_trait::async_trait]
impl sqllogictest::AsyncDB for TensorDb {
    type Error = DataFusionError;
    type ColumnType = DefaultColumnType;

    async fn run(&mut self, sql: &str) -> Result<DBOutput<DefaultColumnType>, DataFusionError> {
        let df = self.ctx.tensor_sql(sql).await?;
        let schema = Arc::clone(df.schema().inner());
        let batches = df.collect().await?;
        let is_statement = schema.fields().is_empty()
            || (schema.fields().len() == 1 && schema.field(0).name() == "count" && is_copy(sql));
        if is_statement {
            return Ok(DBOutput::StatementComplete(0));
        }
        let types = schema
            .fields()
            .iter()
            .map(|field| match field.data_type() {
                t if t.is_integer() => DefaultColumnType::Integer,
                t if t.is_floating() => DefaultColumnType::FloatingPoint,
                _ => DefaultColumnType::Text,
            })
            .collect();
        Ok(DBOutput::Rows {
            types,
            rows: format_rows(&self.ctx, &batches)?,
        })
    }

    fn engine_name(&self) -> &'static str {
        "datafusion-tensor"
    }

    async fn sleep(dur: Duration) {
        tokio::time::sleep(dur).await;
    }

    async fn shutdown(&mut self) {}
}

/// `COPY ... TO` returns a `count` row; suites treat it as a statement.
fn is_copy(sql: &str) -> bool {
    sql.trim_start().to_ascii_uppercase().starts_with("COPY")
}

/// The rows of `batches` as the suites print them (module docs).
///
/// # Errors
/// When a value does not format.
pub fn format_rows(
    ctx: &SessionContext,
    batches: &[RecordBatch],
) -> Result<Vec<Vec<String>>, DataFusionError> {
    let state = ctx.state();
    let factory = DFArrayFormatterFactory::new(Arc::clone(state.extension_type_registry()));
    let options = FormatOptions::default()
        .with_null("NULL")
        .with_formatter_factory(Some(&factory));
    let mut rows = Vec::new();
    for batch in batches {
        let schema = batch.schema();
        let formatters = batch
            .columns()
            .iter()
            .zip(schema.fields())
            .map(|(column, field)| {
                match factory.create_array_formatter(column.as_ref(), &options, Some(field))? {
                    Some(formatter) => Ok(formatter),
                    None => ArrayFormatter::try_new(column.as_ref(), &options),
                }
            })
            .collect::<Result<Vec<_>, _>>()?;
        for row in 0..batch.num_rows() {
            let mut cells = Vec::with_capacity(formatters.len());
            for (formatter, column) in formatters.iter().zip(batch.columns()) {
                let text = formatter.value(row).try_to_string()?;
                let text = if text.is_empty() && column.is_valid(row) && is_text(column.data_type())
                {
                    "(empty)".to_string()
                } else {
                    text
                };
                cells.push(text);
            }
            rows.push(cells);
        }
    }
    Ok(rows)
}

fn is_text(data_type: &DataType) -> bool {
    matches!(
        data_type,
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View
    )
}

/// How [`run_file`] runs a suite.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    /// Rewrite the file's expected results with what the engine returns, instead of checking
    /// them (`--complete`).
    pub complete: bool,
    /// Labels: records marked `skipif LABEL` are skipped, `onlyif LABEL` run.
    pub labels: Vec<String>,
}

/// Runs (or, with [`RunOptions::complete`], rewrites) the suite at `path`, each of its
/// connections on a context `context` makes.
///
/// # Errors
/// The first failing record, as sqllogictest reports it (the record, the expected and the
/// actual result), or why the file could not be read.
pub async fn run_file(
    path: &Path,
    options: &RunOptions,
    context: impl Fn() -> Result<SessionContext, DataFusionError> + Clone + Send + Sync + 'static,
) -> Result<(), String> {
    let mut runner = sqllogictest::Runner::new(move || {
        let context = context.clone();
        async move { Ok(TensorDb::new(context()?)) }
    });
    for label in &options.labels {
        runner.add_label(label);
    }
    runner.with_column_validator(sqllogictest::default_column_validator);
    if options.complete {
        runner
            .update_test_file(
                path,
                " ",
                sqllogictest::default_validator,
                sqllogictest::default_normalizer,
                sqllogictest::strict_column_validator,
            )
            .await
            .map_err(|e| e.to_string())
    } else {
        runner.run_file_async(path).await.map_err(|e| e.to_string())
    }
}
