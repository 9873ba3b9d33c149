//! Registering the functions, and the ready-made session every entry point (CLI, tests,
//! embedders) starts from.

use std::sync::Arc;

use arrow::datatypes::{DataType, Field};
use datafusion::catalog::Session;
use datafusion::common::Column;
use datafusion::dataframe::DataFrame;
use datafusion::error::Result;
use datafusion::execution::FunctionRegistry;
use datafusion::execution::SessionStateBuilder;
use datafusion::functions::core::expr_fn::{get_field, named_struct};
use datafusion::logical_expr::expr::ScalarFunction;
use datafusion::logical_expr::planner::ExprPlanner;
use datafusion::logical_expr::{Expr, ScalarUDF, cast, lit, when};
use datafusion::prelude::{SessionConfig, SessionContext};

use crate::config::TensorOptions;
use crate::display::{tensor_extension_type, variable_shape_extension_type};
use crate::nearest::NearestNeighbourJoin;
use crate::parquet::TensorParquetFormatFactory;
use crate::rules::{
    FilterBeforeComputedProjection, FreezeLiteralArguments, LiteralListPlanner, ProjectSortKeys,
    RefuseDistinctAggregates, RefuseStoredComparisons, SessionLimits, TensorOperatorPlanner,
    TensorOperators, TensorUnionLayouts, TensorUnionRelations, WeakLambdaLiterals,
};
use crate::tensor_type::has_tensor_extension;
use crate::udf::{
    TensorToList, TensorToString, TensorUdf, aggregate_functions, all_functions, variadic_functions,
};
use crate::variable_shape::AnyTensorType;
use datafusion::optimizer::AnalyzerRule;
use datafusion::physical_optimizer::PhysicalOptimizerRule;

/// Registers every tensor function on `registry` (a `SessionContext`, a `SessionState`, ...).
///
/// Prefer [`register_all`] on a `SessionContext`: it also installs the nested display and the
/// planner that makes list literals such as a shape `[2, 3]` literal values at planning time
/// ([`LiteralListPlanner`], which must come before DataFusion's own planners). Without it,
/// shapes and other list arguments must be given as literal `ScalarValue`s (DataFrame API).
///
/// # Errors
/// Whatever the registry returns when a registration fails.
pub fn register_functions(registry: &mut dyn FunctionRegistry) -> Result<()> {
    for udf in all_functions() {
        registry.register_udf(Arc::new(udf))?;
    }
    for udf in variadic_functions() {
        registry.register_higher_order_function(Arc::new(udf))?;
    }
    for udaf in aggregate_functions() {
        registry.register_udaf(Arc::new(udaf))?;
    }
    Ok(())
}

/// Registers every tensor function on `ctx`, and the `arrow.fixed_shape_tensor` extension type
/// so that `DataFrame::to_string` / `show` print tensor columns nested.
///
/// Of the session's configuration it only adds this crate's settings ([`TensorOptions`],
/// `tensor.*`, at their defaults) when they are missing; to read tensor metadata from Parquet
/// the session needs `datafusion.execution.parquet.skip_metadata = false`, which
/// [`session_config`] sets.
///
/// # Errors
/// When a registration fails.
///
/// # Example
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> datafusion::error::Result<()> {
/// use datafusion::prelude::SessionContext;
/// let ctx = SessionContext::new_with_config(datafusion_tensor::session_config());
/// datafusion_tensor::register_all(&ctx)?;
/// let df = ctx.sql("SELECT tensor_shape(tensor([1, 2, 3, 4, 5, 6], [2, 3])) AS s").await?;
/// assert!(df.to_string().await?.contains("[2, 3]"));
/// # Ok(())
/// # }
/// ```
pub fn register_all(ctx: &SessionContext) -> Result<()> {
    register_session_functions(ctx);
    // read_npy, read_npz, read_safetensors; STORED AS NPY...; COPY TO .npy/.safetensors.
    crate::files::register_tensor_files(ctx)?;
    ctx.state()
        .extension_type_registry()
        .add_extension_type_registration(tensor_extension_type())?;
    ctx.state()
        .extension_type_registry()
        .add_extension_type_registration(variable_shape_extension_type())?;
    // The literal-list planner must run before DataFusion's own array-literal planner, and
    // `register_expr_planner` appends: rebuild the planner list with it first.
    let state = ctx.state_ref();
    let mut state = state.write();
    // `SET tensor.fast_parquet = ...` and friends.
    TensorOptions::ensure_in(state.config_mut().options_mut());
    // Parquet tables whose errors name file and column, with tensor metadata checked across
    // files (`parquet::format`).
    state.register_file_format(Arc::new(TensorParquetFormatFactory::new()), true)?;
    // `tensor_choose`'s result type must not change when the optimizer folds an argument
    // into a literal (`FreezeLiteralArguments`), and a WHERE clause must run before the
    // functions whose rows it drops (`FilterBeforeComputedProjection`). Each is added once,
    // however often `register_all` is called.
    let planner_missing = !state
        .expr_planners()
        .iter()
        .any(|planner| format!("{planner:?}") == format!("{LiteralListPlanner:?}"));
    let freeze = FreezeLiteralArguments;
    let freeze_missing = analyzer_missing(&state, freeze.name());
    // Operators on tensors (`x * 2.0`) in plans built without SQL: before DataFusion's type
    // coercion, which refuses them.
    let operators = TensorOperators::default();
    let operators_missing = analyzer_missing(&state, operators.name());
    let distinct = RefuseDistinctAggregates;
    let distinct_missing = analyzer_missing(&state, distinct.name());
    let session_limits = SessionLimits;
    let session_limits_missing = analyzer_missing(&state, session_limits.name());
    let stored = RefuseStoredComparisons;
    let stored_missing = analyzer_missing(&state, stored.name());
    // One tensor type per UNION column (`rules::union`): after the operators, before type
    // coercion; and a relation planner for unions in FROM clauses.
    let unions = TensorUnionLayouts;
    let unions_missing = analyzer_missing(&state, unions.name());
    let relations_missing = !state
        .relation_planners()
        .iter()
        .any(|planner| format!("{planner:?}") == format!("{TensorUnionRelations:?}"));
    // Sort keys computed by tensor functions, once, below the sort (`rules::sort_keys`).
    let sort_keys = ProjectSortKeys;
    let sort_keys_missing = !state
        .optimizer()
        .rules
        .iter()
        .any(|rule| rule.name() == datafusion::optimizer::OptimizerRule::name(&sort_keys));
    let filters_first = FilterBeforeComputedProjection;
    let filters_first_missing = !state
        .physical_optimizers()
        .iter()
        .any(|rule| rule.name() == filters_first.name());
    // The k-nearest-neighbour join (`nearest`): after every rule of DataFusion's, on the
    // plan as it will run.
    let nearest = NearestNeighbourJoin;
    let nearest_missing = !state
        .physical_optimizers()
        .iter()
        .any(|rule| rule.name() == nearest.name());
    if planner_missing
        || nearest_missing
        || freeze_missing
        || filters_first_missing
        || operators_missing
        || distinct_missing
        || session_limits_missing
        || stored_missing
        || sort_keys_missing
        || unions_missing
        || relations_missing
    {
        let mut builder = SessionStateBuilder::new_from_existing(state.clone());
        if operators_missing || unions_missing {
            let mut rules: Vec<Arc<dyn AnalyzerRule + Send + Sync>> = Vec::new();
            if operators_missing {
                rules.push(Arc::new(operators));
            }
            let existing = state.analyzer().rules.iter().cloned();
            if unions_missing {
                // Right after the operators rule, wherever it is.
                let mut existing: Vec<_> = existing.collect();
                let after = existing
                    .iter()
                    .position(|rule| rule.name() == TensorOperators::default().name())
                    .map_or(0, |i| i + 1);
                existing.insert(after, Arc::new(unions));
                rules.extend(existing);
            } else {
                rules.extend(existing);
            }
            builder = builder.with_analyzer_rules(rules);
        }
        if relations_missing {
            let mut planners: Vec<Arc<dyn datafusion::logical_expr::planner::RelationPlanner>> =
                vec![Arc::new(TensorUnionRelations)];
            planners.extend(state.relation_planners().iter().cloned());
            builder = builder.with_relation_planners(planners);
        }
        if planner_missing {
            let mut planners: Vec<Arc<dyn ExprPlanner>> = vec![
                Arc::new(LiteralListPlanner),
                Arc::new(WeakLambdaLiterals),
                Arc::new(TensorOperatorPlanner::default()),
            ];
            planners.extend(state.expr_planners().iter().cloned());
            builder = builder.with_expr_planners(planners);
        }
        if freeze_missing {
            builder = builder.with_analyzer_rule(Arc::new(freeze));
        }
        if distinct_missing {
            builder = builder.with_analyzer_rule(Arc::new(distinct));
        }
        if session_limits_missing {
            builder = builder.with_analyzer_rule(Arc::new(session_limits));
        }
        if stored_missing {
            builder = builder.with_analyzer_rule(Arc::new(stored));
        }
        if sort_keys_missing {
            builder = builder.with_optimizer_rule(Arc::new(sort_keys));
        }
        if filters_first_missing {
            builder = builder.with_physical_optimizer_rule(Arc::new(filters_first));
        }
        if nearest_missing {
            builder = builder.with_physical_optimizer_rule(Arc::new(nearest));
        }
        *state = builder.build();
    }
    Ok(())
}

/// Registers every tensor function on `ctx`, each instance holding the session's limits
/// (`crate::limits`): DataFusion renews the scalar functions' when a setting changes, and
/// [`SessionLimits`] gives aggregate calls theirs.
fn register_session_functions(ctx: &SessionContext) {
    let options = Arc::clone(ctx.state().config().options());
    let limits = crate::limits::Limits::of(&options);
    for udf in all_functions() {
        ctx.register_udf(udf.inner().with_updated_config(&options).unwrap_or(udf));
    }
    for udf in variadic_functions() {
        let udf = crate::udf::registry::higher_order_with_limits(&udf, limits).unwrap_or(udf);
        ctx.register_higher_order_function(Arc::new(udf));
    }
    for udaf in aggregate_functions() {
        ctx.register_udaf(udaf);
    }
}

/// Whether `state` has no analyzer rule named `name`.
fn analyzer_missing(state: &datafusion::execution::SessionState, name: &str) -> bool {
    !state
        .analyzer()
        .rules
        .iter()
        .any(|rule| rule.name() == name)
}

/// The configuration every context of this crate uses: DataFusion's defaults, plus
/// - `datafusion.execution.parquet.skip_metadata = false`, without which the Parquet reader
///   drops the field metadata that makes a column a tensor (spec.md §1);
/// - the information schema, so `SHOW FUNCTIONS` lists the tensor functions with their docs;
/// - this crate's settings ([`TensorOptions`], `tensor.*`).
pub fn session_config() -> SessionConfig {
    let mut config = SessionConfig::new()
        .with_information_schema(true)
        .with_option_extension(TensorOptions::default());
    config.options_mut().execution.parquet.skip_metadata = false;
    // Lambdas (`tensor_at_apply(x, idx, v -> v * 2 + 1)`) parse under the DuckDB dialect; the
    // generic one reads `->` as a JSON operator that DataFusion itself does not implement.
    config.options_mut().sql_parser.dialect = datafusion::config::Dialect::DuckDB;
    config
}

/// A `SessionContext` with [`session_config`] and every tensor function registered.
///
/// # Errors
/// When a registration fails.
pub fn tensor_session_context() -> Result<SessionContext> {
    tensor_session_context_with_config(session_config())
}

/// As [`tensor_session_context`], starting from the caller's configuration; the Parquet
/// metadata setting of [`session_config`] is applied on top.
///
/// # Errors
/// When a registration fails.
pub fn tensor_session_context_with_config(mut config: SessionConfig) -> Result<SessionContext> {
    config.options_mut().execution.parquet.skip_metadata = false;
    let ctx = SessionContext::new_with_config(config);
    register_all(&ctx)?;
    Ok(ctx)
}

/// How [`display_tensor_columns`] shows a tensor column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TensorDisplay {
    /// Nested lists (`tensor_to_list`): for table and JSON output.
    NestedList,
    /// Nested text (`tensor_to_string`): for CSV and TSV, which have no nested values; plain
    /// list columns become their display text too.
    Text,
    /// For people reading a table: nested lists, but a tensor column of more elements than
    /// the summary's threshold as numpy prints it, summarised (`[[0, 1, 2, ..., 49], ...]`).
    Summarized(crate::display::Summary),
}

/// `df` with every tensor column replaced by its nested list (`tensor_to_list`) or text
/// (`tensor_to_string`), names kept: for printers that format storage values directly rather
/// than through DataFusion's extension type registry (the CLI's table, CSV and JSON writers).
/// Outside CSV and TSV, the tensor fields of a struct column (`tensor_topk`, `tensor_divmod`)
/// are replaced the same way, inside the struct.
///
/// # Errors
/// When projecting fails (it does not for a valid `DataFrame`).
pub fn display_tensor_columns(df: DataFrame, display: TensorDisplay) -> Result<DataFrame> {
    let schema = df.schema().clone();
    let conversion = |field: &Field| -> Option<Conversion> {
        let (tensor, size) = match AnyTensorType::from_field(field) {
            Ok(Some(AnyTensorType::Fixed(tensor))) => (true, Some(tensor.size())),
            Ok(Some(AnyTensorType::Variable(_))) => {
                // Each row its own size: the text is summarised row by row.
                return Some(match display {
                    TensorDisplay::NestedList => Conversion::ToList,
                    TensorDisplay::Text | TensorDisplay::Summarized(_) => Conversion::ToText,
                });
            }
            _ => (false, None),
        };
        match display {
            TensorDisplay::Summarized(summary)
                if tensor && size.is_some_and(|size| size > summary.threshold) =>
            {
                Some(Conversion::ToText)
            }
            TensorDisplay::NestedList | TensorDisplay::Summarized(_)
                if tensor && has_tensor_extension(field) =>
            {
                Some(Conversion::ToList)
            }
            TensorDisplay::Text if tensor => Some(Conversion::ToText),
            // CSV cannot hold lists (tensor_shape, tensor_to_list): their display text.
            TensorDisplay::Text
                if matches!(
                    field.data_type(),
                    DataType::List(_) | DataType::LargeList(_)
                ) =>
            {
                Some(Conversion::CastToText)
            }
            _ => None,
        }
    };
    // A struct of tensors (`tensor_divmod`, `tensor_topk`, `tensor_unique_all`, the parts of
    // `tensor_split`): its tensor fields are shown the same way.
    let converts = |field: &Field| {
        conversion(field).is_some()
            // Text (CSV, TSV) has no nested values: structs stay as DataFusion writes them.
            || display != TensorDisplay::Text
                && matches!(field.data_type(), DataType::Struct(children)
                    if children.iter().any(|child| conversion(child).is_some()))
    };
    if !schema.fields().iter().any(|field| converts(field)) {
        return Ok(df);
    }
    let to_list = Arc::new(ScalarUDF::from(TensorUdf::new(TensorToList::new())));
    let to_text = Arc::new(ScalarUDF::from(TensorUdf::new(match display {
        TensorDisplay::Summarized(summary) => TensorToString::summarized(summary),
        _ => TensorToString::new(),
    })));
    let exprs: Vec<Expr> = schema
        .iter()
        .map(|(qualifier, field)| {
            let column = Expr::Column(Column::from((qualifier, field)));
            let apply = |expr: Expr, conversion: Conversion| match conversion {
                Conversion::ToList => {
                    Expr::ScalarFunction(ScalarFunction::new_udf(Arc::clone(&to_list), vec![expr]))
                }
                Conversion::ToText => {
                    Expr::ScalarFunction(ScalarFunction::new_udf(Arc::clone(&to_text), vec![expr]))
                }
                Conversion::CastToText => cast(expr, DataType::Utf8),
            };
            let converted = match (conversion(field), field.data_type()) {
                (Some(conversion), _) => apply(column, conversion),
                (None, DataType::Struct(children)) if converts(field) => {
                    let mut parts = Vec::with_capacity(2 * children.len());
                    for child in children {
                        let value = get_field(column.clone(), child.name().as_str());
                        parts.push(lit(child.name().as_str()));
                        parts.push(match conversion(child) {
                            Some(conversion) => apply(value, conversion),
                            None => value,
                        });
                    }
                    // NULL where the struct is (CASE without ELSE: a NULL of its type).
                    when(column.clone().is_not_null(), named_struct(parts)).end()?
                }
                (None, _) => return Ok(column),
            };
            Ok(converted.alias_qualified(qualifier.cloned(), field.name()))
        })
        .collect::<Result<_>>()?;
    df.select(exprs)
}

/// How one output column is shown by [`display_tensor_columns`].
#[derive(Debug, Clone, Copy)]
enum Conversion {
    /// Through `tensor_to_list`.
    ToList,
    /// Through `tensor_to_string` (summarised for [`TensorDisplay::Summarized`]).
    ToText,
    /// A plain list, cast to its display text.
    CastToText,
}
