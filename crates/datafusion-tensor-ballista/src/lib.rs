//! The same SQL on an [Apache Ballista] cluster (feature `ballista`).
//!
//! - [`remote_context`]: a `SessionContext` whose queries run on the cluster whose scheduler
//!   is at `df://HOST:PORT`, with every tensor function, the extension type, the tensor Parquet
//!   format and the planner rules of [`datafusion_tensor::register_all`]; [`standalone_context`] starts a
//!   scheduler and executors in this process first.
//! - Queries are planned by the client, as locally, and the physical plan is submitted
//!   ([`TensorQueryPlanner`]): every rule of `register_all` (the `WHERE` guard
//!   `FilterBeforeComputedProjection`, `FreezeLiteralArguments`, the list-literal planners)
//!   runs exactly as it does locally, whatever the scheduler's own optimizer list (Ballista's
//!   adaptive planner replaces the physical rules with its own) — the scheduler plans
//!   physical submissions with its static planner, stage splitting only.
//! - [`TensorPhysicalCodec`] and [`TensorLogicalCodec`] wrap Ballista's codecs and carry each
//!   tensor call's planning state ([`datafusion_tensor::udf::call_state`]); on decoding, the physical codec
//!   restores tensor return fields and the tensor Parquet scan ([`plan::restore_plan`]).
//! - [`cluster`]: a scheduler and executors in this process ([`LocalCluster`]) and the
//!   configurations of the two binaries.
//!
//! The scheduler's own session ([`tensor_session_state`], for plans submitted as logical
//! plans by other Ballista clients) registers the same functions and rules, with adaptive
//! planning off so that the session's physical rules are the ones applied.
//!
//! [Apache Ballista]: https://datafusion.apache.org/ballista/

pub mod cluster;
pub mod codec;
pub mod plan;
pub mod process;

use std::sync::Arc;

use ballista_core::extension::SessionConfigExt;
use ballista_core::registry::BallistaFunctionRegistry;
use datafusion::error::{DataFusionError, Result};
use datafusion::execution::{SessionState, SessionStateBuilder};
use datafusion::physical_optimizer::PhysicalOptimizerRule;
use datafusion::prelude::{SessionConfig, SessionContext};

pub use cluster::{LocalCluster, LocalClusterOptions};
pub use codec::{TensorLogicalCodec, TensorPhysicalCodec};
pub use plan::{RemoteExec, TensorPlanRoot, TensorQueryPlanner};

/// The session configuration of every process of a tensor cluster: [`datafusion_tensor::session_config`]
/// with Ballista's settings, the tensor codecs, and adaptive planning off (see the module
/// docs).
pub fn tensor_ballista_config() -> SessionConfig {
    with_tensor_settings(datafusion_tensor::session_config())
}

/// `config` with Ballista's settings and what the tensor functions need: Parquet field
/// metadata read, the tensor codecs, adaptive planning off.
///
/// Ballista's opinionated DataFusion defaults (`SessionConfigExt::upgrade_for_ballista`) are
/// not taken: the client plans a query exactly as a local session does (the same optimizer
/// settings, so the same plan, batches and result types; Ballista's shuffle takes round-robin
/// partitioning).
fn with_tensor_settings(config: SessionConfig) -> SessionConfig {
    let ballista = config.ballista_config();
    let mut config = config.with_option_extension(ballista);
    config.options_mut().execution.parquet.skip_metadata = false;
    // Ballista 55's scheduler re-runs its join selection on a stage once the stages below it
    // have run (their sizes known); a hash join it swaps then may already hold the dynamic
    // filter DataFusion planned for it, the swap fails ("Cannot swap HashJoinExec inputs
    // after dynamic filters have been constructed"), and the scheduler, failing to take the
    // task's status, never finishes the job: the query hangs. The filters could not cross a
    // shuffle between stages anyway.
    config
        .options_mut()
        .optimizer
        .enable_join_dynamic_filter_pushdown = false;
    config
        .with_ballista_adaptive_query_planner(false)
        .with_ballista_logical_extension_codec(Arc::new(TensorLogicalCodec::new()))
        .with_ballista_physical_extension_codec(Arc::new(TensorPhysicalCodec::new()))
}

/// The scheduler's and executors' session for a client's configuration: every tensor
/// function, the extension type, the format and planner rules of [`datafusion_tensor::register_all`].
///
/// # Errors
/// When a registration fails.
pub fn tensor_session_state(config: SessionConfig) -> Result<SessionState> {
    let config = with_tensor_settings(config);
    let ctx = datafusion_tensor::tensor_session_context_with_config(config)?;
    without_nearest_join(&ctx);
    // A lambda's checked integer operators travel by name.
    for udf in datafusion_tensor::rules::weak::checked_functions() {
        ctx.register_udf(udf);
    }
    Ok(ctx.state())
}

/// The executors' function registry: DataFusion's and the tensor functions (scalar and
/// higher-order), for calls that travel by name.
pub fn function_registry() -> BallistaFunctionRegistry {
    match tensor_session_state(tensor_ballista_config()) {
        Ok(state) => BallistaFunctionRegistry::from(&state),
        // Registration does not fail on a fresh state; Ballista's own registry then.
        Err(_) => BallistaFunctionRegistry::default(),
    }
}

/// The scheduler URL (`http://HOST:PORT`) of a Ballista URL `df://HOST:PORT` (port 50050 when
/// left out, as Ballista's clients default).
///
/// # Errors
/// When `url` is not a `df://` URL with a host.
pub fn scheduler_url(url: &str) -> Result<String> {
    let parsed = url::Url::parse(url)
        .map_err(|e| DataFusionError::Configuration(format!("scheduler URL '{url}': {e}")))?;
    if parsed.scheme() != "df" {
        return Err(DataFusionError::Configuration(format!(
            "scheduler URL '{url}': expected df://HOST:PORT"
        )));
    }
    let host = parsed
        .host_str()
        .ok_or_else(|| DataFusionError::Configuration(format!("scheduler URL '{url}': no host")))?;
    Ok(format!("http://{host}:{}", parsed.port().unwrap_or(50050)))
}

/// A `SessionContext` whose queries run on the Ballista cluster whose scheduler is at `url`
/// (`df://HOST:PORT`), with everything [`datafusion_tensor::register_all`] installs (module docs).
/// Tables are registered on this context, as locally; their files must be readable by the
/// executors at the same paths.
///
/// # Errors
/// When `url` is not a `df://` URL or a registration fails. The scheduler is first contacted
/// by the first query.
pub fn remote_context(url: &str) -> Result<SessionContext> {
    remote_context_with_config(url, tensor_ballista_config())
}

/// As [`remote_context`], starting from the caller's configuration.
///
/// # Errors
/// As [`remote_context`].
pub fn remote_context_with_config(url: &str, config: SessionConfig) -> Result<SessionContext> {
    let ctx = datafusion_tensor::tensor_session_context_with_config(config)?;
    make_remote(&ctx, url)?;
    Ok(ctx)
}

/// Turns `ctx` (with [`datafusion_tensor::register_all`] done) into a context whose queries run on the
/// cluster at `url` (`df://HOST:PORT`): Ballista's settings and the tensor codecs added to its
/// configuration, its query planner replaced by [`TensorQueryPlanner`]. Everything else
/// (tables, functions, catalogs, runtime) is kept; the CLI's `--remote` uses it.
///
/// # Errors
/// When `url` is not a `df://` URL.
pub fn make_remote(ctx: &SessionContext, url: &str) -> Result<()> {
    let scheduler = scheduler_url(url)?;
    let state = ctx.state_ref();
    let mut state = state.write();
    let config = with_tensor_settings(state.config().clone());
    *state = SessionStateBuilder::new_from_existing(state.clone())
        .with_config(config)
        .with_query_planner(Arc::new(TensorQueryPlanner::new(scheduler)))
        .with_physical_optimizer_rules(rules_for_the_cluster(&state))
        .build();
    Ok(())
}

/// The session's physical rules but the k-nearest-neighbour join's
/// ([`datafusion_tensor::nearest`]): the codecs do not carry its operator, so a cluster runs
/// DataFusion's plan (the same results).
fn rules_for_the_cluster(
    state: &SessionState,
) -> Vec<Arc<dyn PhysicalOptimizerRule + Send + Sync>> {
    let nearest = datafusion_tensor::nearest::NearestNeighbourJoin;
    state
        .physical_optimizers()
        .iter()
        .filter(|rule| rule.name() != nearest.name())
        .cloned()
        .collect()
}

/// Removes the k-nearest-neighbour join's rule from `ctx` ([`rules_for_the_cluster`]).
fn without_nearest_join(ctx: &SessionContext) {
    let state = ctx.state_ref();
    let mut state = state.write();
    let rules = rules_for_the_cluster(&state);
    *state = SessionStateBuilder::new_from_existing(state.clone())
        .with_physical_optimizer_rules(rules)
        .build();
}

/// A scheduler and executors started in this process (two executors of two task slots), and
/// a [`remote_context`] on them; the cluster runs until the returned [`LocalCluster`] is
/// dropped.
///
/// # Errors
/// When the servers cannot start.
pub async fn standalone_context() -> Result<(SessionContext, LocalCluster)> {
    let cluster = LocalCluster::start(LocalClusterOptions::default()).await?;
    let ctx = remote_context(&cluster.url())?;
    Ok((ctx, cluster))
}
