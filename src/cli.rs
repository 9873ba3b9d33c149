//! The bundled command-line client: `datafusion-cli` with the tensor functions registered.
//!
//! The flags and their behaviour are datafusion-cli 55.2's (this is its `main.rs`, adapted,
//! under the Apache License 2.0): the REPL, `-c SQL`, `-f FILE`, `--format`, `-q`, local and
//! object-store paths in `FROM 'file.parquet'`. The differences:
//! - the session is [`datafusion_tensor::session_config`]'s (Parquet field metadata kept) with every tensor
//!   function registered;
//! - tensor columns print nested (`[[1, 2], [3, 4]]`): the CLI's printers format storage
//!   values directly, so each query's tensor columns are shown through `tensor_to_list`
//!   (`tensor_to_string` for CSV and TSV, which cannot hold nested values); in tables, a
//!   tensor of more than `--tensor-threshold` elements (1000) prints summarised, as numpy
//!   prints it;
//! - tensor function calls take keyword arguments in any subset and order
//!   ([`datafusion_tensor::rewrite`]): the file, `-c` and REPL loops are datafusion-cli's, adapted to
//!   rewrite each statement first;
//! - `\\h name` prints the documentation of any registered function, the tensor functions
//!   included (datafusion-cli's knows only a fixed list of its built-ins).

use std::env;
use std::fmt::Write;
use std::num::NonZeroUsize;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

use clap::Parser;
use datafusion::common::config_err;
use datafusion::config::ConfigOptions;
use datafusion::dataframe::DataFrame;
use datafusion::error::{DataFusionError, Result};
use datafusion::execution::TaskContext;
use datafusion::execution::context::SessionState;
use datafusion::execution::disk_manager::{DiskManagerBuilder, DiskManagerMode};
use datafusion::execution::memory_pool::{
    FairSpillPool, GreedyMemoryPool, MemoryPool, TrackConsumersPool,
};
use datafusion::execution::runtime_env::RuntimeEnvBuilder;
use datafusion::logical_expr::{ExplainFormat, LogicalPlan};
use datafusion::object_store::ObjectStore;
use datafusion::prelude::{SessionConfig, SessionContext};
use datafusion_cli::catalog::DynamicObjectStoreCatalog;
use datafusion_cli::cli_context::CliSessionContext;
use datafusion_cli::command::{Command, OutputFormat};
use datafusion_cli::functions::{
    ListFilesCacheFunc, MetadataCacheFunc, ParquetMetadataFunc, StatisticsCacheFunc,
};
use datafusion_cli::helper::CliHelper;
use datafusion_cli::object_storage::instrumented::{
    InstrumentedObjectStoreMode, InstrumentedObjectStoreRegistry,
};
use datafusion_cli::object_storage::{StdinCarriesCommands, is_stdin_location};
use datafusion_cli::pool_type::PoolType;
use datafusion_cli::print_format::PrintFormat;
use datafusion_cli::print_options::{MaxRows, PrintOptions};
use datafusion_cli::{DATAFUSION_CLI_VERSION, exec};

use datafusion::sql::parser::{DFParser, Statement};
use datafusion::sql::sqlparser::dialect::dialect_from_str;
use datafusion_tensor::TensorOptions;
use datafusion_tensor::context::{
    TensorDisplay, display_tensor_columns, register_all, session_config,
};
use datafusion_tensor::display::Summary;
use datafusion_tensor::rewrite::rewrite_statement;
use datafusion_tensor::rewrite::show::{show_functions, show_functions_filter};
use futures::StreamExt;

/// Command-line arguments (datafusion-cli's).
#[derive(Debug, Parser, PartialEq)]
#[clap(
    name = "datafusion-tensor",
    version,
    about = "DataFusion CLI with numpy/JAX tensor functions over arrow.fixed_shape_tensor columns",
    long_about = None
)]
struct Args {
    #[clap(
        short = 'p',
        long,
        help = "Path to your data, default to current directory",
        value_parser(parse_valid_data_dir)
    )]
    data_path: Option<String>,

    #[clap(
        short = 'b',
        long,
        help = "The batch size of each query, or use DataFusion default",
        value_parser(parse_batch_size)
    )]
    batch_size: Option<usize>,

    #[clap(
        short = 'c',
        long,
        num_args = 0..,
        help = "Execute the given command string(s), then exit. Commands are expected to be non empty.",
        value_parser(parse_command)
    )]
    command: Vec<String>,

    #[clap(
        short = 'm',
        long,
        help = "The memory pool limitation (e.g. '10g'), default to None (no limit)",
        value_parser(extract_memory_pool_size)
    )]
    memory_limit: Option<usize>,

    #[clap(
        short,
        long,
        num_args = 0..,
        help = "Execute commands from file(s), then exit",
        value_parser(parse_valid_file)
    )]
    file: Vec<String>,

    #[clap(
        short = 'r',
        long,
        num_args = 0..,
        help = "Run the provided files on startup instead of ~/.datafusionrc",
        value_parser(parse_valid_file),
        conflicts_with = "file"
    )]
    rc: Option<Vec<String>>,

    #[clap(
        long,
        default_value = "automatic",
        help = "Output format [possible values: csv, tsv, table, json, ndjson (or nd-json), automatic]",
        value_parser(parse_format)
    )]
    format: PrintFormat,

    #[clap(
        short,
        long,
        help = "Reduce printing other than the results and work quietly"
    )]
    quiet: bool,

    #[clap(
        long,
        help = "Specify the memory pool type 'greedy' or 'fair'",
        default_value_t = PoolType::Greedy
    )]
    mem_pool_type: PoolType,

    #[clap(
        long,
        help = "The number of top memory consumers to display when query fails due to memory exhaustion. To disable memory consumer tracking, set this value to 0",
        default_value = "3"
    )]
    top_memory_consumers: usize,

    #[clap(
        long,
        help = "The max number of rows to display for 'Table' format\n[possible values: numbers(0/10/...), inf(no limit)]",
        default_value = "40"
    )]
    maxrows: MaxRows,

    #[clap(long, help = "Enables console syntax highlighting")]
    color: bool,

    #[clap(
        short = 'd',
        long,
        help = "Available disk space for spilling queries (e.g. '10g'), default to None (uses DataFusion's default value of '100g')",
        value_parser(extract_disk_limit)
    )]
    disk_limit: Option<usize>,

    #[clap(
        long,
        help = "Specify the default object_store_profiling mode, defaults to 'disabled'.\n[possible values: disabled, summary, trace]",
        default_value_t = InstrumentedObjectStoreMode::Disabled
    )]
    object_store_profiling: InstrumentedObjectStoreMode,

    #[clap(
        long,
        help = "Tensors of more elements print summarised in tables, as numpy prints them (numpy's threshold; 'inf': every element). CSV, TSV and JSON output is always complete",
        default_value = "1000",
        value_parser(parse_tensor_threshold)
    )]
    tensor_threshold: usize,

    #[cfg(feature = "ballista")]
    #[clap(
        long,
        value_name = "df://HOST:PORT",
        help = "Run every query on the Apache Ballista cluster whose scheduler is at this URL (datafusion-tensor-scheduler and datafusion-tensor-executor; files are read by the executors, at the same paths), or on a scheduler and two executors started in this process ('standalone')"
    )]
    remote: Option<String>,
}

impl Args {
    /// Without -c/-f the CLI enters the REPL, which reads its SQL from stdin.
    fn repl_mode(&self) -> bool {
        self.command.is_empty() && self.file.is_empty()
    }

    /// Whether stdin carries the session's SQL (REPL, or `-f /dev/stdin`).
    fn reads_sql_from_stdin(&self) -> bool {
        self.repl_mode() || self.file.iter().any(|f| is_stdin_location(f))
    }
}

/// The CLI's session: a `SessionContext` whose query results show tensor columns nested.
struct TensorCliContext {
    ctx: SessionContext,
    display: TensorDisplay,
}

#[async_trait::async_trait]
impl CliSessionContext for TensorCliContext {
    fn task_ctx(&self) -> Arc<TaskContext> {
        self.ctx.task_ctx()
    }

    fn session_state(&self) -> SessionState {
        self.ctx.state()
    }

    fn register_object_store(
        &self,
        url: &url::Url,
        object_store: Arc<dyn ObjectStore>,
    ) -> Option<Arc<dyn ObjectStore + 'static>> {
        self.ctx.register_object_store(url, object_store)
    }

    fn register_table_options_extension_from_scheme(&self, scheme: &str) {
        CliSessionContext::register_table_options_extension_from_scheme(&self.ctx, scheme);
    }

    async fn execute_logical_plan(&self, plan: LogicalPlan) -> Result<DataFrame> {
        // One tensor type per UNION column (`rules::union`), before the plan's schema is read
        // for display: for statements planned here and by datafusion-cli alike.
        let plan = datafusion_tensor::rules::reconcile_union_layouts(plan)?.data;
        let df = match &plan {
            // Tensor columns by their tensor types, not their storage alone.
            LogicalPlan::DescribeTable(describe) => {
                self.ctx
                    .read_batch(datafusion_tensor::display::describe_batch(
                        &describe.schema,
                        Arc::clone(describe.output_schema.inner()),
                    )?)?
            }
            _ => self.ctx.execute_logical_plan(plan).await?,
        };
        display_tensor_columns(df, self.display)
    }
}

/// Runs the CLI; the process exit code.
pub async fn main() -> ExitCode {
    if let Err(e) = main_inner().await {
        match &e {
            // The statements' own errors went to stderr as they failed: the count goes there.
            DataFusionError::External(inner) if inner.is::<ScriptFailed>() => {
                eprintln!("Error: {inner}");
            }
            _ => println!("Error: {e}"),
        }
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

async fn main_inner() -> Result<()> {
    env_logger::init();
    let args = Args::parse();

    if !args.quiet {
        println!(
            "DataFusion CLI v{DATAFUSION_CLI_VERSION} with datafusion-tensor v{}",
            env!("CARGO_PKG_VERSION")
        );
    }

    if let Some(ref path) = args.data_path {
        env::set_current_dir(Path::new(path))?;
    }

    let session_config = get_session_config(&args)?;

    let mut rt_builder = RuntimeEnvBuilder::new();
    if let Some(memory_limit) = args.memory_limit {
        let top = NonZeroUsize::new(args.top_memory_consumers);
        let pool: Arc<dyn MemoryPool> = match (&args.mem_pool_type, top) {
            (PoolType::Fair, None) => Arc::new(FairSpillPool::new(memory_limit)),
            (PoolType::Fair, Some(top)) => Arc::new(TrackConsumersPool::new(
                FairSpillPool::new(memory_limit),
                top,
            )),
            (PoolType::Greedy, None) => Arc::new(GreedyMemoryPool::new(memory_limit)),
            (PoolType::Greedy, Some(top)) => Arc::new(TrackConsumersPool::new(
                GreedyMemoryPool::new(memory_limit),
                top,
            )),
        };
        rt_builder = rt_builder.with_memory_pool(pool);
    }

    if let Some(disk_limit) = args.disk_limit {
        let builder = DiskManagerBuilder::default()
            .with_mode(DiskManagerMode::OsTmpDirectory)
            .with_max_temp_directory_size(disk_limit as u64);
        rt_builder = rt_builder.with_disk_manager_builder(builder);
    }

    let instrumented_registry = Arc::new(
        InstrumentedObjectStoreRegistry::new().with_profile_mode(args.object_store_profiling),
    );
    rt_builder = rt_builder.with_object_store_registry(instrumented_registry.clone());
    let runtime_env = rt_builder.build_arc()?;

    // Dynamic file queries (`FROM 'file.parquet'`), as in datafusion-cli.
    let ctx = SessionContext::new_with_config_rt(session_config, runtime_env).enable_url_table();
    ctx.refresh_catalogs().await?;
    ctx.register_catalog_list(Arc::new(DynamicObjectStoreCatalog::new(
        ctx.state().catalog_list().clone(),
        ctx.state_weak_ref(),
    )));
    ctx.register_udtf("parquet_metadata", Arc::new(ParquetMetadataFunc {}));
    let cache_manager = ctx.task_ctx().runtime_env().cache_manager.clone();
    ctx.register_udtf(
        "metadata_cache",
        Arc::new(MetadataCacheFunc::new(cache_manager.clone())),
    );
    ctx.register_udtf(
        "statistics_cache",
        Arc::new(StatisticsCacheFunc::new(cache_manager.clone())),
    );
    ctx.register_udtf(
        "list_files_cache",
        Arc::new(ListFilesCacheFunc::new(cache_manager)),
    );
    register_all(&ctx)?;
    #[cfg(feature = "ballista")]
    let _cluster = remote(&ctx, args.remote.as_deref()).await?;
    // CSV and TSV have no nested values: tensors print as their nested text there. Tables
    // are read by people: large tensors print summarised, as numpy prints them.
    let display = match args.format {
        PrintFormat::Csv | PrintFormat::Tsv => TensorDisplay::Text,
        PrintFormat::Table | PrintFormat::Automatic => TensorDisplay::Summarized(Summary {
            threshold: args.tensor_threshold,
            ..Summary::NUMPY
        }),
        _ => TensorDisplay::NestedList,
    };
    let ctx = TensorCliContext { ctx, display };

    let mut print_options = PrintOptions {
        format: args.format,
        quiet: args.quiet,
        maxrows: args.maxrows,
        color: args.color,
        instrumented_registry: Arc::clone(&instrumented_registry),
    };

    let repl_mode = args.repl_mode();
    let commands = args.command;
    let files = args.file;
    let rc = match args.rc {
        Some(files) => files,
        None => dirs::home_dir()
            .map(|home| home.join(".datafusionrc"))
            .filter(|rc| rc.exists())
            .and_then(|rc| rc.into_os_string().into_string().ok())
            .into_iter()
            .collect(),
    };

    if repl_mode {
        if !rc.is_empty() {
            // A failing statement of the rc files is reported; the REPL starts all the same.
            exec_from_files(&ctx, rc, &print_options).await?;
        }
        return exec_from_repl(&ctx, &mut print_options)
            .await
            .map_err(|e| DataFusionError::External(Box::new(e)));
    }
    if !files.is_empty() {
        // Every statement runs (as psql and sqlite3 run a script), and the run fails when one
        // did (as sqlite3 and DuckDB exit 1), so that scripts and CI jobs see it.
        let run = exec_from_files(&ctx, files, &print_options).await?;
        if run.failed > 0 {
            return Err(ScriptFailed(run).into());
        }
    }
    for command in commands {
        ctx.exec_and_print(&print_options, &command).await?;
    }
    Ok(())
}

/// The error of a `-f` run in which statements failed (each was reported as it failed).
#[derive(Debug)]
struct ScriptFailed(FileRun);

impl std::fmt::Display for ScriptFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let FileRun { statements, failed } = self.0;
        write!(f, "{failed} of {statements} statements failed")
    }
}

impl std::error::Error for ScriptFailed {}

impl From<ScriptFailed> for DataFusionError {
    fn from(err: ScriptFailed) -> Self {
        DataFusionError::External(Box::new(err))
    }
}

/// With `--remote`: `ctx` turned into a context on that cluster, or on a scheduler and two
/// executors started here (`standalone`, kept running while the returned value lives).
#[cfg(feature = "ballista")]
async fn remote(
    ctx: &SessionContext,
    remote: Option<&str>,
) -> Result<Option<datafusion_tensor_ballista::LocalCluster>> {
    match remote {
        Some("standalone") => {
            let cluster = datafusion_tensor_ballista::LocalCluster::start(
                datafusion_tensor_ballista::LocalClusterOptions::default(),
            )
            .await?;
            datafusion_tensor_ballista::make_remote(ctx, &cluster.url())?;
            Ok(Some(cluster))
        }
        Some(url) => {
            datafusion_tensor_ballista::make_remote(ctx, url)?;
            Ok(None)
        }
        None => Ok(None),
    }
}

impl TensorCliContext {
    /// Runs the statements of `sql` as datafusion-cli does, rewritten first for the tensor
    /// functions ([`datafusion_tensor::rewrite`]: keyword arguments in any order, tensor types through
    /// `CASE`, `SHOW FUNCTIONS` listing them). Text that needs no rewrite goes to
    /// datafusion-cli as it is; text that does is planned here from the rewritten statements
    /// (never printed back to SQL: sqlparser does not print every statement as it reads it)
    /// and printed as datafusion-cli prints results.
    async fn exec_and_print(&self, print_options: &PrintOptions, sql: &str) -> Result<()> {
        // `--maxrows` bounds the table format only, as its help says: datafusion-cli 55 stops
        // keeping a result's batches past it in every format, so a CSV of many batches lost
        // rows while the count printed said all of them.
        let unbounded;
        let print_options = if matches!(
            print_options.format,
            PrintFormat::Table | PrintFormat::Automatic
        ) {
            print_options
        } else {
            unbounded = PrintOptions {
                maxrows: MaxRows::Unlimited,
                ..print_options.clone()
            };
            &unbounded
        };
        let dialect = self.ctx.state().config().options().sql_parser.dialect;
        let Some(parser) = dialect_from_str(dialect.as_ref()) else {
            return exec::exec_from_commands(self, vec![sql.to_string()], print_options).await;
        };
        let sql = &*datafusion_tensor::rewrite::keywords::quote_keyword_argument_names(
            sql,
            parser.as_ref(),
        );
        // What does not parse goes to datafusion-cli, which reports why.
        let Ok(mut statements) = DFParser::parse_sql_with_dialect(sql, parser.as_ref()) else {
            return exec::exec_from_commands(self, vec![sql.to_string()], print_options).await;
        };
        let mut rewrite = false;
        let state = self.ctx.state();
        for statement in &mut statements {
            rewrite |= show_functions_filter(statement).is_some();
            rewrite |= rewrite_statement(statement)?;
            datafusion_tensor::rewrite::lambdas::refuse_in_statement(statement, &|name| {
                state.aggregate_functions().contains_key(name)
            })?;
        }
        if !rewrite {
            return exec::exec_from_commands(self, vec![sql.to_string()], print_options).await;
        }
        for statement in statements {
            self.run_statement(print_options, statement).await?;
        }
        Ok(())
    }

    /// Plans, runs and prints one rewritten statement as datafusion-cli's statement executor
    /// does (at most `--maxrows` rows kept for printing, all counted; EXPLAIN whole; tables
    /// when no format was chosen).
    async fn run_statement(
        &self,
        print_options: &PrintOptions,
        statement: Statement,
    ) -> Result<()> {
        let now = datafusion::common::instant::Instant::now();
        let mut options = print_options.clone();
        let df = match show_functions_filter(&statement) {
            // Printed as any other result: its list columns as text in CSV and TSV.
            Some(pattern) => display_tensor_columns(
                show_functions(&self.ctx, pattern.as_deref()).await?,
                self.display,
            )?,
            None => {
                let state = self.ctx.state();
                let plan = state.statement_to_plan(statement).await?;
                // As datafusion-cli: these print whole.
                if matches!(
                    plan,
                    LogicalPlan::Explain(_)
                        | LogicalPlan::DescribeTable(_)
                        | LogicalPlan::Analyze(_)
                ) {
                    options.maxrows = MaxRows::Unlimited;
                }
                CliSessionContext::execute_logical_plan(self, plan).await?
            }
        };
        // As datafusion-cli: a bounded result prints as a table unless a format was chosen.
        if options.format == PrintFormat::Automatic {
            options.format = PrintFormat::Table;
        }
        let schema = Arc::clone(df.schema().inner());
        let mut stream = df.execute_stream().await?;
        let max_rows = match options.maxrows {
            MaxRows::Limited(n) => n,
            MaxRows::Unlimited => usize::MAX,
        };
        let mut batches = Vec::new();
        let mut rows = 0usize;
        while let Some(batch) = stream.next().await {
            let batch = batch?;
            if rows < max_rows {
                batches.push(batch.clone());
            }
            rows += batch.num_rows();
        }
        let task_ctx = self.ctx.task_ctx();
        let format = &task_ctx.session_config().options().format;
        options.print_batches(schema, &batches, now, rows, format)
    }
}

/// How many statements of the files a run read, and how many of them failed.
#[derive(Debug, Default, Clone, Copy)]
struct FileRun {
    statements: usize,
    failed: usize,
}

/// datafusion-cli's `exec_from_files`: each file's statements, split at a `;` that ends a line,
/// `--` and `#!` lines skipped; a failing statement is reported on stderr and the next one
/// runs. The caller turns failures into the exit code (`FileRun`).
async fn exec_from_files(
    ctx: &TensorCliContext,
    files: Vec<String>,
    print_options: &PrintOptions,
) -> Result<FileRun> {
    let mut run = FileRun::default();
    for file in files {
        let text = std::fs::read_to_string(&file)
            .map_err(|e| DataFusionError::Execution(format!("Error opening {file:?} {e}")))?;
        let mut query = String::new();
        for line in text.lines() {
            if line.starts_with("#!") || line.starts_with("--") {
                continue;
            }
            let line = line.trim_end();
            query.push_str(line);
            if line.ends_with(';') {
                run.statements += 1;
                if let Err(err) = ctx.exec_and_print(print_options, &query).await {
                    run.failed += 1;
                    eprintln!("{err}");
                }
                query.clear();
            } else {
                query.push('\n');
            }
        }
        // The last statement may lack its `;`.
        if query.contains(|c| c != '\n') {
            run.statements += 1;
            if let Err(err) = ctx.exec_and_print(print_options, &query).await {
                run.failed += 1;
                eprintln!("{err}");
            }
        }
    }
    Ok(run)
}

/// datafusion-cli's REPL, with this crate's keyword rewrite and `\h name` for every registered
/// function with documentation (datafusion-cli's `\h` knows only a fixed list of built-ins).
async fn exec_from_repl(
    ctx: &TensorCliContext,
    print_options: &mut PrintOptions,
) -> rustyline::Result<()> {
    let dialect = || ctx.ctx.state().config().options().sql_parser.dialect;
    let mut rl = rustyline::Editor::new()?;
    rl.set_helper(Some(CliHelper::new(&dialect(), print_options.color)));
    rl.load_history(".history").ok();
    loop {
        match rl.readline("> ") {
            Ok(line) if line.starts_with('\\') => {
                rl.add_history_entry(line.trim_end())?;
                let command = line.split_whitespace().collect::<Vec<_>>().join(" ");
                if !repl_command(ctx, print_options, &command[1..]).await {
                    break;
                }
            }
            Ok(line) => {
                rl.add_history_entry(line.trim_end())?;
                tokio::select! {
                    res = ctx.exec_and_print(print_options, &line) => if let Err(err) = res {
                        eprintln!("{err}");
                    },
                    _ = tokio::signal::ctrl_c() => println!("^C"),
                }
                // The dialect may have changed.
                if let Some(helper) = rl.helper_mut() {
                    helper.set_dialect(&dialect());
                }
            }
            Err(rustyline::error::ReadlineError::Interrupted) => {
                println!("^C");
                if let Some(helper) = rl.helper() {
                    helper.reset_hint();
                }
            }
            Err(rustyline::error::ReadlineError::Eof) => {
                println!("\\q");
                break;
            }
            Err(err) => {
                eprintln!("Unknown error happened {err:?}");
                break;
            }
        }
    }
    rl.save_history(".history")
}

/// Runs one backslash command of the REPL (without its `\\`); `false` for `\\q`.
async fn repl_command(
    ctx: &TensorCliContext,
    print_options: &mut PrintOptions,
    line: &str,
) -> bool {
    let Ok(command) = line.parse::<Command>() else {
        eprintln!("'\\{line}' is not a valid command, you can use '\\?' to see all commands");
        return true;
    };
    let result = match &command {
        Command::Quit => return false,
        Command::OutputFormat(None) => {
            println!("Output format is {:?}.", print_options.format);
            Ok(())
        }
        Command::OutputFormat(Some(format)) => match format.parse::<OutputFormat>() {
            Ok(format) => format.execute(print_options),
            Err(()) => {
                eprintln!(
                    "'\\{line}' is not a valid command, you can use '\\?' to see all commands"
                );
                Ok(())
            }
        },
        Command::SearchFunctions(name) => match function_help(&ctx.ctx, name) {
            Some(help) => {
                println!("{help}");
                Ok(())
            }
            None => command.execute(ctx, print_options).await,
        },
        _ => command.execute(ctx, print_options).await,
    };
    if let Err(err) = result {
        eprintln!("{err}");
    }
    true
}

/// The documentation of the registered function `name` (scalar, higher-order or aggregate) as `\\h`
/// prints it; `None` when there is no such function or it has no documentation.
pub fn function_help(ctx: &SessionContext, name: &str) -> Option<String> {
    let state = ctx.state();
    let name = name.trim().trim_end_matches(';').to_ascii_lowercase();
    let doc = if let Some(udf) = state.scalar_functions().get(&name) {
        udf.documentation()?.clone()
    } else if let Some(udf) = state.higher_order_functions().get(&name) {
        udf.documentation()?.clone()
    } else {
        state
            .aggregate_functions()
            .get(&name)?
            .documentation()?
            .clone()
    };
    let mut text = format!(
        "{name}\n\n{}\n\nSyntax: {}\n",
        doc.description, doc.syntax_example
    );
    if let Some(arguments) = &doc.arguments {
        text.push_str("\nArguments:\n");
        for (arg, description) in arguments {
            let _ = writeln!(text, "  {arg}: {description}");
        }
    }
    if let Some(example) = &doc.sql_example {
        let _ = writeln!(text, "\nExample:\n{example}");
    }
    Some(text)
}

/// The session configuration: environment and flags over [`session_config`].
fn get_session_config(args: &Args) -> Result<SessionConfig> {
    let mut config_options = ConfigOptions::from_env()?;
    if let Some(batch_size) = args.batch_size {
        if batch_size == 0 {
            return config_err!("batch_size must be greater than 0");
        }
        config_options.execution.batch_size =
            datafusion::common::config::ConfigNonZeroUsize::try_new(batch_size)?;
    }
    if env::var_os("DATAFUSION_EXPLAIN_FORMAT").is_none() {
        config_options.explain.format = ExplainFormat::Tree;
    }
    if env::var_os("DATAFUSION_FORMAT_NULL").is_none() {
        config_options.format.null = String::from("NULL");
    }
    // What every context of this crate sets (Parquet field metadata kept).
    config_options.execution.parquet.skip_metadata =
        session_config().options().execution.parquet.skip_metadata;
    // Lambdas parse out of the box (the DuckDB dialect), unless the environment picks one.
    if env::var_os("DATAFUSION_SQL_PARSER_DIALECT").is_none() {
        config_options.sql_parser.dialect = session_config().options().sql_parser.dialect;
    }
    let mut config = SessionConfig::from(config_options)
        .with_information_schema(true)
        .with_option_extension(tensor_options_from_env());
    if args.reads_sql_from_stdin() {
        config = config.with_extension(Arc::new(StdinCarriesCommands));
    }
    Ok(config)
}

/// The tensor settings the CLI's session starts from: the defaults, and one environment
/// variable, as datafusion-cli reads `DATAFUSION_*` (the library reads none):
/// `DATAFUSION_TENSOR_ARROW_SCAN` (any value) starts it with `tensor.fast_parquet = false`, for
/// the benches that compare the two Parquet readers process by process. Every other setting is
/// set with `SET` (or `-c "SET ..."`, or a `.datafusionrc`).
fn tensor_options_from_env() -> TensorOptions {
    let mut options = TensorOptions::default();
    if env::var_os("DATAFUSION_TENSOR_ARROW_SCAN").is_some() {
        options.fast_parquet = false;
    }
    options
}

/// datafusion-cli's formats; `ndjson` is also accepted for its `nd-json`.
fn parse_format(format: &str) -> Result<PrintFormat, String> {
    if format.eq_ignore_ascii_case("ndjson") {
        return Ok(PrintFormat::NdJson);
    }
    format.parse::<PrintFormat>()
}

fn parse_valid_file(file: &str) -> Result<String, String> {
    if Path::new(file).is_file() {
        Ok(file.to_string())
    } else {
        Err(format!("Invalid file '{file}'"))
    }
}

fn parse_valid_data_dir(dir: &str) -> Result<String, String> {
    if Path::new(dir).is_dir() {
        Ok(dir.to_string())
    } else {
        Err(format!("Invalid data directory '{dir}'"))
    }
}

/// `--tensor-threshold`: a number of elements, or `inf` (never summarise).
fn parse_tensor_threshold(threshold: &str) -> Result<usize, String> {
    if threshold.eq_ignore_ascii_case("inf") {
        return Ok(usize::MAX);
    }
    threshold.parse::<usize>().map_err(|_| {
        format!("Invalid tensor threshold '{threshold}': a number of elements or 'inf'")
    })
}

fn parse_batch_size(size: &str) -> Result<usize, String> {
    match size.parse::<usize>() {
        Ok(size) if size > 0 => Ok(size),
        _ => Err(format!("Invalid batch size '{size}'")),
    }
}

fn parse_command(command: &str) -> Result<String, String> {
    if command.is_empty() {
        Err("-c flag expects only non empty commands".to_string())
    } else {
        Ok(command.to_string())
    }
}

/// `10g`, `512m`, `1024` (bytes): datafusion-cli's size syntax.
fn parse_size_string(size: &str, label: &str) -> Result<usize, String> {
    let lower = size.to_lowercase();
    let digits = lower
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(lower.len());
    let (number, suffix) = lower.split_at(digits);
    let number: usize = number
        .parse()
        .map_err(|_| format!("Invalid numeric value in {label} '{size}'"))?;
    let shift = match suffix {
        "" | "b" => 0,
        "k" | "kb" => 10,
        "m" | "mb" => 20,
        "g" | "gb" => 30,
        "t" | "tb" => 40,
        _ => return Err(format!("Invalid {label} '{size}'")),
    };
    number
        .checked_mul(1usize << shift)
        .ok_or_else(|| format!("{label} '{size}' is too large"))
}

fn extract_memory_pool_size(size: &str) -> Result<usize, String> {
    parse_size_string(size, "memory pool size")
}

fn extract_disk_limit(size: &str) -> Result<usize, String> {
    parse_size_string(size, "disk limit")
}

#[cfg(test)]
mod tests {
    use super::parse_size_string;

    #[test]
    fn sizes() {
        assert_eq!(parse_size_string("10g", "x").unwrap(), 10 << 30);
        assert_eq!(parse_size_string("512MB", "x").unwrap(), 512 << 20);
        assert_eq!(parse_size_string("7", "x").unwrap(), 7);
        assert!(parse_size_string("-1", "x").is_err());
        assert!(parse_size_string("1q", "x").is_err());
        assert!(parse_size_string("99999999999999999999t", "x").is_err());
    }
}
