//! sqllogictest runner: every `sql/**/*.slt` against the project's ready-made context.
//!
//! `cargo test --test slt` runs them all, one result line per file, in libtest's format;
//! `cargo test --test slt -- choose` runs the files whose path contains `choose`;
//! `cargo test --test slt -- --complete [filter]` rewrites the expected output of those files
//! from what the engine returns (review the diff: expected values must come from numpy/JAX or
//! the spec, not be taken on trust).
//!
//! Each file gets a fresh context. Values print as DataFusion's CLI prints them, tensors
//! nested; NULL as `NULL`, the empty string as `(empty)`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use arrow::array::{Array, RecordBatch};
use arrow::datatypes::DataType;
use arrow::util::display::{ArrayFormatter, ArrayFormatterFactory, FormatOptions};
use datafusion::catalog::Session;
use datafusion::error::DataFusionError;
use datafusion::logical_expr::extension_types::DFArrayFormatterFactory;
use datafusion::prelude::SessionContext;
use sqllogictest::{DBOutput, DefaultColumnType};

struct TensorDb {
    ctx: SessionContext,
}

#[async_trait::async_trait]
impl sqllogictest::AsyncDB for TensorDb {
    type Error = DataFusionError;
    type ColumnType = DefaultColumnType;

    async fn run(&mut self, sql: &str) -> Result<DBOutput<DefaultColumnType>, DataFusionError> {
        let df = self.ctx.sql(sql).await?;
        let schema = Arc::clone(df.schema().inner());
        let batches = df.collect().await?;
        let is_statement = schema.fields().is_empty()
            || (schema.fields().len() == 1 && schema.field(0).name() == "count" && is_ddl(sql));
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

/// `COPY ... TO` returns a `count` row; the suites treat it as a statement.
fn is_ddl(sql: &str) -> bool {
    sql.trim_start().to_ascii_uppercase().starts_with("COPY")
}

fn format_rows(
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

fn slt_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            slt_files(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "slt") {
            out.push(path);
        }
    }
}

async fn run_file(path: &Path, complete: bool) -> Result<(), String> {
    let mut runner = sqllogictest::Runner::new(|| async {
        // `FROM 'file.parquet'` as in the CLI.
        Ok(TensorDb {
            ctx: datafusion_tensor::tensor_session_context()?.enable_url_table(),
        })
    });
    runner.with_column_validator(sqllogictest::default_column_validator);
    if complete {
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

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let complete = args.iter().any(|a| a == "--complete");
    let list = args.iter().any(|a| a == "--list");
    let exact = args.iter().any(|a| a == "--exact");
    let ignored_only = args.iter().any(|a| a == "--ignored");
    // libtest flags that take a value; their values are not filters.
    let valued = ["--format", "--test-threads", "--skip", "--color", "-Z"];
    let mut filters = Vec::new();
    let mut skip_next = false;
    for arg in &args {
        if skip_next {
            skip_next = false;
        } else if valued.contains(&arg.as_str()) {
            skip_next = true;
        } else if !arg.starts_with('-') {
            filters.push(arg.clone());
        }
    }

    let mut files = Vec::new();
    slt_files(Path::new("sql"), &mut files);
    let name = |path: &Path| path.to_string_lossy().replace('\\', "/");
    let total = files.len();
    files.retain(|path| {
        let name = name(path);
        filters.is_empty()
            || filters.iter().any(|f| {
                if exact {
                    name == *f
                } else {
                    name.contains(f.as_str())
                }
            })
    });
    let filtered_out = total - files.len();

    if list {
        // The listing protocol cargo-nextest uses.
        if !ignored_only {
            for path in &files {
                println!("{}: test", name(path));
            }
        }
        return ExitCode::SUCCESS;
    }
    if ignored_only {
        files.clear();
    }

    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("cannot start tokio: {e}");
            return ExitCode::FAILURE;
        }
    };
    let start = Instant::now();
    println!("\nrunning {} tests", files.len());
    let mut failures = Vec::new();
    for path in &files {
        let result = runtime.block_on(run_file(path, complete));
        match result {
            Ok(()) => println!("test {} ... ok", name(path)),
            Err(e) => {
                println!("test {} ... FAILED", name(path));
                failures.push((name(path), e));
            }
        }
    }
    if !failures.is_empty() {
        println!("\nfailures:\n");
        for (name, error) in &failures {
            println!("---- {name} ----\n{error}\n");
        }
        println!("failures:");
        for (name, _) in &failures {
            println!("    {name}");
        }
    }
    let passed = files.len() - failures.len();
    println!(
        "\ntest result: {}. {passed} passed; {} failed; 0 ignored; 0 measured; {filtered_out} filtered out; finished in {:.2}s\n",
        if failures.is_empty() { "ok" } else { "FAILED" },
        failures.len(),
        start.elapsed().as_secs_f64()
    );
    if failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
