//! Physical plans on their way to a Ballista cluster and back.
//!
//! This crate's client plans a query where it is written, with every rule of
//! [`datafusion_tensor::register_all`] (the `WHERE` guard among them), and submits the physical plan
//! ([`TensorQueryPlanner`]). Before it leaves, [`pin_plan`] pins each higher-order tensor
//! call to the argument fields and literals it was planned with (a `tensor_choose` of a
//! constant tensor keeps its shape, which the literal's metadata held) and marks the root
//! ([`TensorPlanRoot`]). Where it arrives (scheduler, then each executor's stage),
//! [`restore_plan`] puts back what DataFusion's serialisation dropped: tensor calls' return
//! fields (their `arrow.fixed_shape_tensor` metadata, which the next call and the result
//! schema carry) and the tensor Parquet scan ([`datafusion_tensor::parquet::scan::NamingSource`]: errors
//! naming their file, the fast tensor reader).

use std::fmt;
use std::sync::Arc;

use arrow::datatypes::DataType;
use arrow::datatypes::SchemaRef;
use ballista_core::config::BallistaConfig;
use ballista_core::execution_plans::execute_physical_plan;
use ballista_core::extension::SessionConfigExt;
use datafusion::common::ScalarValue;
use datafusion::common::tree_node::{Transformed, TransformedResult, TreeNode, TreeNodeRecursion};
use datafusion::datasource::physical_plan::FileScanConfig;
use datafusion::datasource::source::DataSourceExec;
use datafusion::error::DataFusionError;
use datafusion::error::Result;
use datafusion::execution::context::QueryPlanner;
use datafusion::execution::{SendableRecordBatchStream, TaskContext};
use datafusion::logical_expr::{LogicalPlan, ValueOrLambda};
use datafusion::physical_expr::aggregate::{AggregateExprBuilder, AggregateFunctionExpr};
use datafusion::physical_expr::expressions::{CastExpr, LambdaExpr, Literal};
use datafusion::physical_expr::projection::ProjectionExpr;
use datafusion::physical_expr::{HigherOrderFunctionExpr, PhysicalExpr};
use datafusion::physical_expr::{PhysicalSortExpr, ScalarFunctionExpr};
use datafusion::physical_optimizer::PhysicalOptimizerRule;
use datafusion::physical_plan::aggregates::AggregateExec;
use datafusion::physical_plan::filter::{FilterExec, FilterExecBuilder};
use datafusion::physical_plan::projection::ProjectionExec;
use datafusion::physical_plan::stream::RecordBatchStreamAdapter;
use datafusion::physical_plan::{
    DisplayAs, DisplayFormatType, ExecutionPlan, Partitioning, PlanProperties,
};
use datafusion::physical_planner::{DefaultPhysicalPlanner, PhysicalPlanner};
use datafusion_proto::protobuf::PhysicalPlanNode;
use futures::TryStreamExt;

use datafusion_tensor::udf::call_state::CallState;
use datafusion_tensor::udf::registry::{
    is_tensor_function, is_tensor_higher_order_function, pin_higher_order, scalar_with_state,
};

/// An expression rebuilt, or `None` when it stays as it is.
type Rebuilt = Result<Option<Arc<dyn PhysicalExpr>>>;

/// A higher-order call's argument fields (a lambda by its result field) and literals.
type HigherOrderInputs = (
    Vec<ValueOrLambda<arrow::datatypes::FieldRef, arrow::datatypes::FieldRef>>,
    Vec<Option<datafusion::common::ScalarValue>>,
);

/// `expr` with each tensor call rebuilt by `rebuild` (children first).
fn map_tensor_calls(
    expr: &Arc<dyn PhysicalExpr>,
    rebuild: &dyn Fn(&Arc<dyn PhysicalExpr>) -> Rebuilt,
) -> Result<Transformed<Arc<dyn PhysicalExpr>>> {
    Arc::clone(expr).transform_up(|expr| {
        Ok(match rebuild(&expr)? {
            Some(rebuilt) => Transformed::yes(rebuilt),
            None => Transformed::no(expr),
        })
    })
}

/// `plan` with the expressions of its projections, filters and aggregates' filters rebuilt by `rebuild`, over
/// inputs rebuilt first (a node's schema derives from its input's).
fn map_plan_calls(
    plan: Arc<dyn ExecutionPlan>,
    rebuild: &dyn Fn(&Arc<dyn PhysicalExpr>, &arrow::datatypes::Schema) -> Rebuilt,
    scan: &dyn Fn(Arc<dyn ExecutionPlan>) -> Arc<dyn ExecutionPlan>,
) -> Result<Arc<dyn ExecutionPlan>> {
    plan.transform_up(|node| {
        if node.downcast_ref::<DataSourceExec>().is_some() {
            let wrapped = scan(Arc::clone(&node));
            return Ok(if Arc::ptr_eq(&wrapped, &node) {
                Transformed::no(node)
            } else {
                Transformed::yes(wrapped)
            });
        }
        if let Some(projection) = node.downcast_ref::<ProjectionExec>() {
            let schema = projection.input().schema();
            let exprs = projection
                .expr()
                .iter()
                .map(|e| {
                    let mapped = map_tensor_calls(&e.expr, &|x| rebuild(x, &schema))?;
                    Ok(ProjectionExpr {
                        expr: mapped.data,
                        alias: e.alias.clone(),
                    })
                })
                .collect::<Result<Vec<_>>>()?;
            // Rebuilt even when no expression changed: `with_new_children` keeps the output
            // schema it had, and the input's fields may have changed below.
            let rebuilt = ProjectionExec::try_new(exprs, Arc::clone(projection.input()))?;
            return Ok(Transformed::yes(Arc::new(rebuilt) as Arc<dyn ExecutionPlan>));
        }
        if let Some(filter) = node.downcast_ref::<FilterExec>() {
            let schema = filter.input().schema();
            let mapped = map_tensor_calls(filter.predicate(), &|x| rebuild(x, &schema))?;
            if !mapped.transformed {
                return Ok(Transformed::no(node));
            }
            let rebuilt = FilterExecBuilder::from(filter)
                .with_predicate(mapped.data)
                .build()?;
            return Ok(Transformed::yes(Arc::new(rebuilt) as Arc<dyn ExecutionPlan>));
        }
        if let Some(aggregate) = node.downcast_ref::<AggregateExec>() {
            // Each aggregate's arguments and ORDER BY (`tensor_agg_sum(tensor(v, [2, 3],
            // NULL, [1, 0]))`: the call's tensor type is its argument field, and the
            // accumulator is planned from it), and its `FILTER (WHERE ...)` (`count(*)
            // FILTER (WHERE tensor_choose(...) ...)`), as a filter's.
            let schema = aggregate.input_schema();
            let mut changed = false;
            let aggregates = aggregate
                .aggr_expr()
                .iter()
                .map(|function| {
                    let rebuilt = rebuild_aggregate(function, &schema, rebuild)?;
                    changed |= rebuilt.is_some();
                    Ok(rebuilt.unwrap_or_else(|| Arc::clone(function)))
                })
                .collect::<Result<Vec<_>>>()?;
            let filters = aggregate
                .filter_expr()
                .iter()
                .map(|filter| {
                    filter
                        .as_ref()
                        .map(|f| {
                            let mapped = map_tensor_calls(f, &|x| rebuild(x, &schema))?;
                            changed |= mapped.transformed;
                            Ok(mapped.data)
                        })
                        .transpose()
                })
                .collect::<Result<Vec<_>>>()?;
            if !changed {
                return Ok(Transformed::no(node));
            }
            let rebuilt = AggregateExec::try_new(
                *aggregate.mode(),
                aggregate.group_expr().clone(),
                aggregates,
                filters,
                Arc::clone(aggregate.input()),
                schema,
            )?
            .with_limit_options(aggregate.limit_options());
            return Ok(Transformed::yes(Arc::new(rebuilt) as Arc<dyn ExecutionPlan>));
        }
        Ok(Transformed::no(node))
    })
    .data()
}

/// `function` built again over its arguments and ORDER BY with their calls rebuilt by
/// `rebuild`, so its argument fields are the rebuilt calls' (`with_new_expressions` keeps the
/// old ones); `None` when no call changed.
fn rebuild_aggregate(
    function: &Arc<AggregateFunctionExpr>,
    schema: &SchemaRef,
    rebuild: &dyn Fn(&Arc<dyn PhysicalExpr>, &arrow::datatypes::Schema) -> Rebuilt,
) -> Result<Option<Arc<AggregateFunctionExpr>>> {
    let mut changed = false;
    let mut map = |expr: &Arc<dyn PhysicalExpr>| -> Result<Arc<dyn PhysicalExpr>> {
        let mapped = map_tensor_calls(expr, &|x| rebuild(x, schema))?;
        changed |= mapped.transformed;
        Ok(mapped.data)
    };
    let args = function
        .expressions()
        .iter()
        .map(&mut map)
        .collect::<Result<Vec<_>>>()?;
    let order_bys = function
        .order_bys()
        .iter()
        .map(|sort| {
            Ok(PhysicalSortExpr {
                expr: map(&sort.expr)?,
                options: sort.options,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    if !changed {
        return Ok(None);
    }
    let mut builder = AggregateExprBuilder::new(Arc::new(function.fun().clone()), args)
        .schema(Arc::clone(schema))
        .alias(function.name())
        .order_by(order_bys)
        .with_ignore_nulls(function.ignore_nulls())
        .with_distinct(function.is_distinct())
        .with_reversed(function.is_reversed());
    if let Some(display) = function.human_display() {
        builder = builder.human_display(display);
    }
    Ok(Some(Arc::new(builder.build()?)))
}

/// The argument fields of a higher-order call as DataFusion computes them (a lambda by its
/// body's result field), and its literal arguments.
fn higher_order_inputs(
    call: &HigherOrderFunctionExpr,
    schema: &arrow::datatypes::Schema,
) -> Result<HigherOrderInputs> {
    let mut fields = Vec::with_capacity(call.args().len());
    let mut scalars = Vec::with_capacity(call.args().len());
    for arg in call.args() {
        match arg.downcast_ref::<LambdaExpr>() {
            Some(lambda) => {
                fields.push(ValueOrLambda::Lambda(lambda.body().return_field(schema)?));
                scalars.push(None);
            }
            None => {
                fields.push(ValueOrLambda::Value(arg.return_field(schema)?));
                scalars.push(
                    arg.downcast_ref::<Literal>()
                        .map(|literal| literal.value().clone()),
                );
            }
        }
    }
    Ok((fields, scalars))
}

/// `plan` with every higher-order tensor call in its projections and filters pinned to the
/// argument fields and literals it has here (module docs), under a [`TensorPlanRoot`].
///
/// # Errors
/// When a call does not rebuild (it was built from the same arguments).
pub fn pin_plan(plan: Arc<dyn ExecutionPlan>) -> Result<Arc<dyn ExecutionPlan>> {
    let pin = |expr: &Arc<dyn PhysicalExpr>, schema: &arrow::datatypes::Schema| -> Rebuilt {
        let Some(call) = expr.downcast_ref::<HigherOrderFunctionExpr>() else {
            return Ok(None);
        };
        if !is_tensor_higher_order_function(call.fun()) {
            return Ok(None);
        }
        let (fields, scalars) = higher_order_inputs(call, schema)?;
        let refs: Vec<Option<&datafusion::common::ScalarValue>> =
            scalars.iter().map(Option::as_ref).collect();
        let Some(pinned) = pin_higher_order(call.fun(), &fields, &refs)? else {
            return Ok(None);
        };
        Ok(Some(Arc::new(
            HigherOrderFunctionExpr::try_new_with_schema(
                Arc::new(pinned),
                call.args().to_vec(),
                schema,
                Arc::new(call.config_options().clone()),
            )?,
        )))
    };
    let pinned = map_plan_calls(plan, &pin, &|scan| scan)?;
    let typed = pinned
        .transform_up(|node| {
            let Some(projection) = node.downcast_ref::<ProjectionExec>() else {
                return Ok(Transformed::no(node));
            };
            let schema = projection.input().schema();
            let mut changed = false;
            let exprs = projection
                .expr()
                .iter()
                .map(|e| {
                    let expr = match type_literals(&e.expr, &schema, false)? {
                        Some(expr) => {
                            changed = true;
                            expr
                        }
                        None => Arc::clone(&e.expr),
                    };
                    Ok(ProjectionExpr {
                        expr,
                        alias: e.alias.clone(),
                    })
                })
                .collect::<Result<Vec<_>>>()?;
            if !changed {
                return Ok(Transformed::no(node));
            }
            let rebuilt = ProjectionExec::try_new(exprs, Arc::clone(projection.input()))?;
            Ok(Transformed::yes(Arc::new(rebuilt) as Arc<dyn ExecutionPlan>))
        })
        .data()?;
    Ok(Arc::new(TensorPlanRoot::new(typed)))
}

/// `expr` with each tensor literal that is not an argument of a tensor call (those carry
/// their arguments' types themselves) given its type by a `tensor_typed` call: serialisation
/// drops a literal's metadata, and the call's state carries it. `None`: nothing to change.
fn type_literals(
    expr: &Arc<dyn PhysicalExpr>,
    schema: &arrow::datatypes::Schema,
    in_tensor_call: bool,
) -> Result<Option<Arc<dyn PhysicalExpr>>> {
    if !in_tensor_call && let Some(literal) = expr.downcast_ref::<Literal>() {
        // datafusion-proto writes a Float16 scalar as a Float32 one (its value, exactly), and
        // reads back a Float32: a cast to Float16 keeps the type (`tensor_l2_distance` of two
        // float16 literals, folded to `Float16(5)`).
        if let ScalarValue::Float16(Some(value)) = literal.value() {
            return Ok(Some(Arc::new(CastExpr::new(
                Arc::new(Literal::new(ScalarValue::Float32(Some(value.to_f32())))),
                DataType::Float16,
                None,
            ))));
        }
        let field = literal.return_field(schema)?;
        // Fixed- and variable-shape tensor literals (a plain list is not a tensor here).
        if !datafusion_tensor::tensor_type::has_tensor_extension(&field)
            && !datafusion_tensor::variable_shape::has_variable_shape_extension(&field)
        {
            return Ok(None);
        }
        let Ok(Some(tensor)) = datafusion_tensor::variable_shape::AnyTensorType::from_field(&field)
        else {
            return Ok(None);
        };
        let typed = scalar_with_state(
            datafusion_tensor::udf::TENSOR_TYPED,
            CallState::Typed {
                tensor: Some(tensor),
                name: None,
            },
        )?;
        return Ok(Some(Arc::new(ScalarFunctionExpr::try_new(
            Arc::new(typed),
            vec![Arc::new(Literal::new(literal.value().clone()))],
            schema,
            Arc::new(datafusion::config::ConfigOptions::default()),
        )?)));
    }
    let is_call = expr
        .downcast_ref::<ScalarFunctionExpr>()
        .is_some_and(|call| is_tensor_function(call.fun()))
        || expr
            .downcast_ref::<HigherOrderFunctionExpr>()
            .is_some_and(|call| is_tensor_higher_order_function(call.fun()));
    let mut changed = false;
    let children = expr
        .children()
        .into_iter()
        .map(|child| {
            Ok(match type_literals(child, schema, is_call)? {
                Some(typed) => {
                    changed = true;
                    typed
                }
                None => Arc::clone(child),
            })
        })
        .collect::<Result<Vec<_>>>()?;
    if !changed {
        return Ok(None);
    }
    Ok(Some(Arc::clone(expr).with_new_children(children)?))
}

/// `plan` as it was before serialisation dropped metadata (module docs): tensor calls'
/// return fields recomputed from their carried plans, the nodes above them rebuilt, and
/// Parquet scans wrapped in the tensor scan, with the fast tensor reader as `options` (the
/// session's settings where the plan is decoded: on an executor, the client's) say
/// (`tensor.fast_parquet`), counting what it holds in `memory_pool` (the decoding context's).
///
/// # Errors
/// When a rebuilt node does not build (it did where the plan was made).
pub fn restore_plan(
    plan: Arc<dyn ExecutionPlan>,
    options: &datafusion::config::ConfigOptions,
    memory_pool: Option<&Arc<dyn datafusion::execution::memory_pool::MemoryPool>>,
) -> Result<Arc<dyn ExecutionPlan>> {
    let rebuild = |expr: &Arc<dyn PhysicalExpr>, schema: &arrow::datatypes::Schema| -> Rebuilt {
        if let Some(call) = expr.downcast_ref::<ScalarFunctionExpr>() {
            if !is_tensor_function(call.fun()) {
                return Ok(None);
            }
            return Ok(Some(Arc::new(
                ScalarFunctionExpr::try_new(
                    Arc::new(call.fun().clone()),
                    call.args().to_vec(),
                    schema,
                    Arc::new(call.config_options().clone()),
                )?
                .with_nullable(call.nullable()),
            )));
        }
        if let Some(call) = expr.downcast_ref::<HigherOrderFunctionExpr>() {
            if !is_tensor_higher_order_function(call.fun()) {
                return Ok(None);
            }
            return Ok(Some(Arc::new(
                HigherOrderFunctionExpr::try_new_with_schema(
                    Arc::new(call.fun().clone()),
                    call.args().to_vec(),
                    schema,
                    Arc::new(call.config_options().clone()),
                )?,
            )));
        }
        Ok(None)
    };
    let scan = |plan: Arc<dyn ExecutionPlan>| {
        let is_parquet = plan
            .downcast_ref::<DataSourceExec>()
            .and_then(|exec| exec.data_source().downcast_ref::<FileScanConfig>())
            .is_some_and(|config| config.file_source.file_type() == "parquet");
        if is_parquet {
            datafusion_tensor::parquet::scan::name_files_in_errors(
                plan,
                options,
                memory_pool.cloned(),
            )
        } else {
            plan
        }
    };
    let restored = map_plan_calls(plan, &rebuild, &scan)?;
    // The WHERE guard again: Ballista's stage planner may have moved a projection below a
    // filter after the client planned the query.
    datafusion_tensor::rules::FilterBeforeComputedProjection
        .optimize(restored, &datafusion::config::ConfigOptions::default())
}

/// The root of a plan this crate's client submits: passes its input through; marks the plan
/// so that the scheduler restores it when decoding ([`restore_plan`]).
#[derive(Debug)]
pub struct TensorPlanRoot {
    input: Arc<dyn ExecutionPlan>,
}

impl TensorPlanRoot {
    /// The marker over `input`.
    pub fn new(input: Arc<dyn ExecutionPlan>) -> Self {
        Self { input }
    }
}

impl DisplayAs for TensorPlanRoot {
    fn fmt_as(&self, _t: DisplayFormatType, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "TensorPlanRoot")
    }
}

impl ExecutionPlan for TensorPlanRoot {
    fn name(&self) -> &'static str {
        "TensorPlanRoot"
    }

    fn properties(&self) -> &Arc<PlanProperties> {
        self.input.properties()
    }

    fn children(&self) -> Vec<&Arc<dyn ExecutionPlan>> {
        vec![&self.input]
    }

    fn apply_expressions(
        &self,
        _f: &mut dyn FnMut(&Arc<dyn PhysicalExpr>) -> Result<TreeNodeRecursion>,
    ) -> Result<TreeNodeRecursion> {
        Ok(TreeNodeRecursion::Continue)
    }

    fn with_new_children(
        self: Arc<Self>,
        children: Vec<Arc<dyn ExecutionPlan>>,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        match <[_; 1]>::try_from(children) {
            Ok([input]) => Ok(Arc::new(Self::new(input))),
            Err(_) => datafusion::common::internal_err!("TensorPlanRoot takes one input"),
        }
    }

    fn execute(
        &self,
        partition: usize,
        context: Arc<TaskContext>,
    ) -> Result<SendableRecordBatchStream> {
        self.input.execute(partition, context)
    }
}

/// A query planned here and run on a Ballista cluster: the physical plan is submitted to the
/// scheduler when the result is asked for (one output partition).
pub struct RemoteExec {
    plan: Arc<dyn ExecutionPlan>,
    scheduler_url: String,
    session_id: String,
    session_config: datafusion::prelude::SessionConfig,
    properties: Arc<PlanProperties>,
}

impl fmt::Debug for RemoteExec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RemoteExec")
            .field("scheduler_url", &self.scheduler_url)
            .finish_non_exhaustive()
    }
}

impl RemoteExec {
    fn new(
        plan: Arc<dyn ExecutionPlan>,
        scheduler_url: String,
        state: &dyn datafusion::catalog::Session,
    ) -> Self {
        let properties = PlanProperties::new(
            datafusion::physical_expr::EquivalenceProperties::new(plan.schema()),
            Partitioning::UnknownPartitioning(1),
            datafusion::physical_plan::execution_plan::EmissionType::Incremental,
            datafusion::physical_plan::execution_plan::Boundedness::Bounded,
        );
        Self {
            plan,
            scheduler_url,
            session_id: state.session_id().to_string(),
            session_config: state.config().clone(),
            properties: Arc::new(properties),
        }
    }

    /// The plan submitted.
    pub fn plan(&self) -> &Arc<dyn ExecutionPlan> {
        &self.plan
    }
}

impl DisplayAs for RemoteExec {
    fn fmt_as(&self, _t: DisplayFormatType, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "RemoteExec: scheduler={}", self.scheduler_url)
    }
}

impl ExecutionPlan for RemoteExec {
    fn name(&self) -> &'static str {
        "RemoteExec"
    }

    fn properties(&self) -> &Arc<PlanProperties> {
        &self.properties
    }

    fn children(&self) -> Vec<&Arc<dyn ExecutionPlan>> {
        // The submitted plan runs on the cluster: nothing below runs here, and local
        // optimizer passes must not rewrite it.
        vec![]
    }

    fn apply_expressions(
        &self,
        _f: &mut dyn FnMut(&Arc<dyn PhysicalExpr>) -> Result<TreeNodeRecursion>,
    ) -> Result<TreeNodeRecursion> {
        Ok(TreeNodeRecursion::Continue)
    }

    fn with_new_children(
        self: Arc<Self>,
        _children: Vec<Arc<dyn ExecutionPlan>>,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        Ok(self)
    }

    fn execute(
        &self,
        partition: usize,
        _context: Arc<TaskContext>,
    ) -> Result<SendableRecordBatchStream> {
        if partition != 0 {
            return datafusion::common::internal_err!(
                "RemoteExec has one partition, asked for {partition}"
            );
        }
        let plan = pin_plan(Arc::clone(&self.plan))?;
        let schema = self.plan.schema();
        let url = self.scheduler_url.clone();
        let session_id = self.session_id.clone();
        let config = self.session_config.clone();
        let ballista: BallistaConfig = config.ballista_config();
        let codec = super::TensorPhysicalCodec::new();
        let stream = futures::stream::once(async move {
            execute_physical_plan::<PhysicalPlanNode>(
                url, &ballista, plan, &codec, session_id, config,
            )
            .await
        })
        .try_flatten()
        .map_err(remote_error);
        Ok(Box::pin(RecordBatchStreamAdapter::new(schema, stream)))
    }
}

/// How a task error's variant is made from its message.
type Make = fn(String) -> DataFusionError;

/// An error from the cluster as the query gives it locally: Ballista reports a failed task
/// as `Job ... failed: ... DataFusionError(Shared(External(DataFusionError(Execution("...")))))`,
/// the task's error in Rust's debug notation. The innermost execution or planning error is
/// taken out of it (its message as the function wrote it), and the job's words follow it.
fn remote_error(err: DataFusionError) -> DataFusionError {
    let text = err.to_string();
    if !text.contains("Job failed") {
        return err;
    }
    let job = text.split(": Job failed").next().unwrap_or_default();
    let job = job.trim_start_matches("Execution error: ");
    task_error(&text, &format!(" ({job} on the cluster)")).unwrap_or(err)
}

/// The task error in Ballista's text: a `Context("...", inner)` (a Parquet file's name) around
/// the innermost execution or planning error, or the first message of another kind (an Arrow
/// or Parquet error) as an execution error; `suffix` follows the innermost message.
fn task_error(text: &str, suffix: &str) -> Option<DataFusionError> {
    const CONTEXT: &str = "Context(\"";
    if let Some(start) = text.find(CONTEXT) {
        let (message, rest) = debug_string(&text[start + CONTEXT.len()..])?;
        let inner = task_error(rest, suffix)?;
        return Some(DataFusionError::Context(message, Box::new(inner)));
    }
    let variants: [(&str, Make); 2] = [
        ("Execution(\"", DataFusionError::Execution),
        ("Plan(\"", DataFusionError::Plan),
    ];
    for (variant, make) in variants {
        if let Some(start) = text.rfind(variant)
            && let Some((message, _)) = debug_string(&text[start + variant.len()..])
        {
            return Some(make(format!("{message}{suffix}")));
        }
    }
    let start = text.find("(\"")?;
    let (message, _) = debug_string(&text[start + 2..])?;
    Some(DataFusionError::Execution(format!("{message}{suffix}")))
}

/// The text of a Rust debug-formatted string whose opening quote has been read, up to its
/// closing quote, and what follows; `None` if it does not close.
fn debug_string(rest: &str) -> Option<(String, &str)> {
    let mut out = String::new();
    let mut chars = rest.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Some((out, &rest[i + 1..])),
            '\\' => match chars.next()?.1 {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                'r' => out.push('\r'),
                '0' => out.push('\0'),
                'u' => {
                    let hex: String = chars
                        .by_ref()
                        .map(|(_, c)| c)
                        .skip_while(|&c| c == '{')
                        .take_while(|&c| c != '}')
                        .collect();
                    out.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?);
                }
                other => out.push(other),
            },
            c => out.push(c),
        }
    }
    None
}

/// The client's query planner: plans each query here, with the session's rules, and runs
/// it on the cluster ([`RemoteExec`]); plans that read only `information_schema`, and
/// statements without a table (`SELECT 1`), run here as Ballista's own planner runs them.
pub struct TensorQueryPlanner {
    scheduler_url: String,
    local: DefaultPhysicalPlanner,
}

impl fmt::Debug for TensorQueryPlanner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TensorQueryPlanner")
            .field("scheduler_url", &self.scheduler_url)
            .finish_non_exhaustive()
    }
}

impl TensorQueryPlanner {
    /// A planner submitting to the scheduler at `scheduler_url` (`http://host:port`).
    pub fn new(scheduler_url: impl Into<String>) -> Self {
        Self {
            scheduler_url: scheduler_url.into(),
            local: DefaultPhysicalPlanner::default(),
        }
    }
}

/// Whether a plan runs here: it reads `information_schema` (which lives in this session; the
/// crate's `SHOW FUNCTIONS` joins it with a table of the higher-order functions), or it is an
/// `EXPLAIN` (planned, not run).
fn runs_locally(plan: &LogicalPlan) -> Result<bool> {
    if matches!(
        plan,
        LogicalPlan::Explain(_) | LogicalPlan::EmptyRelation(_)
    ) {
        return Ok(true);
    }
    let mut information_schema = false;
    plan.apply_with_subqueries(|node| {
        if let LogicalPlan::TableScan(scan) = node
            && scan.table_name.schema() == Some("information_schema")
        {
            information_schema = true;
            return Ok(TreeNodeRecursion::Stop);
        }
        Ok(TreeNodeRecursion::Continue)
    })?;
    Ok(information_schema)
}

#[async_trait::async_trait]
impl QueryPlanner for TensorQueryPlanner {
    async fn create_physical_plan(
        &self,
        logical_plan: &LogicalPlan,
        session_state: &dyn datafusion::catalog::Session,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        let plan = self
            .local
            .create_physical_plan(logical_plan, session_state)
            .await?;
        if runs_locally(logical_plan)? {
            return Ok(plan);
        }
        Ok(Arc::new(RemoteExec::new(
            plan,
            self.scheduler_url.clone(),
            session_state,
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A plan through the codecs as a stage travels (pinned, encoded, decoded, restored) gives
    /// what it gives locally, metadata included.
    #[tokio::test]
    async fn a_round_trip_through_the_codec_keeps_variable_shape_metadata() {
        let ctx = datafusion::prelude::SessionContext::new_with_state(
            crate::tensor_session_state(crate::tensor_ballista_config()).unwrap(),
        )
        .enable_url_table();
        let sql = "SELECT id, arrow_metadata(tensor_to_variable(f32)) AS v, tensor_to_variable(f32) AS w \
                   FROM '../../tests/data/pyarrow_tensors.parquet' ORDER BY id";
        let df = ctx.sql(sql).await.unwrap();
        let plan = df.create_physical_plan().await.unwrap();
        let want = datafusion::physical_plan::collect(Arc::clone(&plan), ctx.task_ctx())
            .await
            .unwrap();
        let pinned = pin_plan(plan).unwrap();
        let codec = crate::codec::TensorPhysicalCodec::new();
        let bytes =
            datafusion_proto::bytes::physical_plan_to_bytes_with_extension_codec(pinned, &codec)
                .unwrap();
        let decoded = datafusion_proto::bytes::physical_plan_from_bytes_with_extension_codec(
            &bytes,
            &ctx.task_ctx(),
            &codec,
        )
        .unwrap();
        let got = datafusion::physical_plan::collect(decoded, ctx.task_ctx())
            .await
            .unwrap();
        let text = |b: &[arrow::array::RecordBatch]| {
            format!(
                "{}\n{:?}",
                arrow::util::pretty::pretty_format_batches(b).unwrap(),
                b[0].schema()
                    .field(2)
                    .metadata()
                    .iter()
                    .collect::<std::collections::BTreeMap<_, _>>()
            )
        };
        assert_eq!(text(&got), text(&want));
    }

    #[test]
    fn a_task_error_is_given_as_it_was_raised() {
        let ballista = DataFusionError::Execution(
            "Job 038GGS1430000 failed: Job failed due to stage 1 failed: Task failed due to runtime execution error: DataFusionError(Shared(External(DataFusionError(Execution(\"tensor_get: index 7 is out of bounds for axis 0 with size 3 at row 1 of its batch \\\"q\\\" \\u{e9}\")))))".to_string(),
        );
        assert_eq!(
            remote_error(ballista).to_string(),
            "Execution error: tensor_get: index 7 is out of bounds for axis 0 with size 3 at row 1 of its batch \"q\" \u{e9} (Job 038GGS1430000 failed on the cluster)"
        );
        let other = DataFusionError::Execution("connection refused".to_string());
        assert_eq!(
            remote_error(other).to_string(),
            "Execution error: connection refused"
        );
        let unclosed =
            DataFusionError::Execution("Job 1 failed: Job failed x Execution(\"abc".to_string());
        assert_eq!(
            remote_error(unclosed).to_string(),
            "Execution error: Job 1 failed: Job failed x Execution(\"abc"
        );
        let parquet = DataFusionError::Execution(
            "Job 2 failed: Job failed due to stage 1 failed: Task failed due to runtime execution error: DataFusionError(Shared(External(DataFusionError(Context(\"in Parquet file '/t/c.parquet'\", ArrowError(ParquetError(\"Parquet error: Unexpected struct field type 15\"), Some(\"\")))))))".to_string(),
        );
        assert_eq!(
            remote_error(parquet).to_string(),
            "in Parquet file '/t/c.parquet'\ncaused by\nExecution error: Parquet error: Unexpected struct field type 15 (Job 2 failed on the cluster)"
        );
    }
}
