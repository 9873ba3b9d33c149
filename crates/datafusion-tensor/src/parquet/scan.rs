//! Errors of a Parquet scan that name the file they come from.
//!
//! DataFusion's Parquet scan reports a corrupt page or a file that changed since planning with
//! the decoder's words only ("Parquet error: Unexpected struct field type 15"); a table of many
//! files leaves the user guessing which. [`name_files_in_errors`] puts the scan's own
//! `FileSource` inside [`NamingSource`], which asks it for everything and adds
//! "in Parquet file '...'" to each error its planners and streams give.
//!
//! Nothing else changes: the wrapped source is asked the same questions (filters, projection,
//! sort and limit push-down, repartitioning, display) and every source it returns is wrapped
//! again, so the optimizer sees the same scan. The cost is one `map_err` per batch.
//!
//! The same wrapper puts the fast tensor reader ([`super::fast`]) in front of the wrapped
//! source's, unless the session that planned the scan has `tensor.fast_parquet = false`
//! ([`crate::config::TensorOptions`], read once, when the scan is wrapped).
//!
//! A panic in the reader of one file (arrow-rs trusts some footer fields: apache/arrow-rs#6255)
//! is caught at the same place and becomes that file's error, so a malformed file fails its
//! query and does not take the process down.

use std::any::Any;
use std::fmt;
use std::sync::Arc;

use arrow::array::RecordBatch;
use datafusion::common::Result;
use datafusion::common::config::ConfigOptions;
use datafusion::common::tree_node::TreeNodeRecursion;
use datafusion::datasource::listing::PartitionedFile;
use datafusion::datasource::physical_plan::{FileOpener, FileScanConfig, FileSource};
use datafusion::datasource::source::DataSourceExec;
use datafusion::datasource::table_schema::TableSchema;
use datafusion::error::DataFusionError;
use datafusion::execution::memory_pool::MemoryPool;
use datafusion::object_store::ObjectStore;
use datafusion::physical_expr::projection::ProjectionExprs;
use datafusion::physical_expr::{
    EquivalenceProperties, LexOrdering, PhysicalExpr, PhysicalSortExpr,
};
use datafusion::physical_plan::filter_pushdown::FilterPushdownPropagation;
use datafusion::physical_plan::metrics::ExecutionPlanMetricsSet;
use datafusion::physical_plan::sort_pushdown::SortOrderPushdownResult;
use datafusion::physical_plan::{DisplayFormatType, ExecutionPlan};
use datafusion_datasource::morsel::{Morsel, MorselPlan, MorselPlanner, Morselizer};
use futures::StreamExt;
use futures::stream::BoxStream;

use super::bounded::BoundedStore;
use crate::config::TensorOptions;

/// `plan` with its file scan's errors naming their file, and the fast tensor reader in front
/// of it unless the session (`options`) turned it off (`tensor.fast_parquet`); any other plan
/// as it is. The fast reader counts what it holds in `memory_pool` (the session's) when given
/// one.
pub fn name_files_in_errors(
    plan: Arc<dyn ExecutionPlan>,
    options: &ConfigOptions,
    memory_pool: Option<Arc<dyn MemoryPool>>,
) -> Arc<dyn ExecutionPlan> {
    let Some(exec) = plan.downcast_ref::<DataSourceExec>() else {
        return plan;
    };
    let Some(config) = exec.data_source().downcast_ref::<FileScanConfig>() else {
        return plan;
    };
    if config.file_source.downcast_ref::<NamingSource>().is_some() {
        return plan;
    }
    let options = TensorOptions::from_config(options);
    let mut config = config.clone();
    config.file_source = NamingSource::wrap(
        Arc::clone(&config.file_source),
        (options.fast_parquet, options.map_files),
        memory_pool,
    );
    DataSourceExec::from_data_source(config)
}

fn in_file(err: DataFusionError, path: &str) -> DataFusionError {
    err.context(format!("in Parquet file '{path}'"))
}

/// How errors print a file: the absolute path of a local file, the URL of any other.
fn file_name(store: &str, location: &str) -> Arc<str> {
    if store == "file:///" {
        format!("/{location}").into()
    } else {
        format!("{store}{location}").into()
    }
}

/// A `FileSource` whose errors name their file (module docs).
pub struct NamingSource {
    inner: Arc<dyn FileSource>,
    /// The scan's batch size, once DataFusion has resolved it for the run (`with_batch_size`,
    /// the session's setting unless the plan set one): the fast reader's batches are of it, as
    /// the inner source's are.
    batch_size: Option<usize>,
    /// Whether the fast tensor reader may serve the scan (`tensor.fast_parquet` of the session
    /// that planned it).
    fast_parquet: bool,
    /// Whether it may map local files into memory (`tensor.map_files`).
    map_files: bool,
    /// The session's memory pool, for the fast reader.
    memory_pool: Option<Arc<dyn MemoryPool>>,
}

impl NamingSource {
    fn wrap(
        inner: Arc<dyn FileSource>,
        (fast_parquet, map_files): (bool, bool),
        memory_pool: Option<Arc<dyn MemoryPool>>,
    ) -> Arc<dyn FileSource> {
        Arc::new(Self {
            inner,
            batch_size: None,
            fast_parquet,
            map_files,
            memory_pool,
        })
    }

    /// `inner` (a source the wrapped one returned) wrapped with this one's settings.
    fn rewrap(&self, inner: Arc<dyn FileSource>) -> Arc<dyn FileSource> {
        Self::wrap(
            inner,
            (self.fast_parquet, self.map_files),
            self.memory_pool.clone(),
        )
    }
}

impl fmt::Debug for NamingSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("NamingSource")
            .field("file_type", &self.inner.file_type())
            .finish_non_exhaustive()
    }
}

impl FileSource for NamingSource {
    fn create_file_opener(
        &self,
        object_store: Arc<dyn ObjectStore>,
        base_config: &FileScanConfig,
        partition: usize,
    ) -> Result<Arc<dyn FileOpener>> {
        // Only reached for sources without a morselizer; their errors stay as they are.
        self.inner
            .create_file_opener(object_store, base_config, partition)
    }

    fn create_morselizer(
        &self,
        object_store: Arc<dyn ObjectStore>,
        base_config: &FileScanConfig,
        partition: usize,
    ) -> Result<Box<dyn Morselizer>> {
        // Reads of the scan's files past their ends (a corrupt footer's offsets) fail at once,
        // in DataFusion's reader and the fast one alike (`super::bounded`).
        let original_store = Arc::clone(&object_store);
        let object_store = BoundedStore::wrap(
            object_store,
            base_config
                .file_groups
                .iter()
                .flat_map(datafusion_datasource::file_groups::FileGroup::iter)
                .map(|file| &file.object_meta),
        );
        let inner =
            self.inner
                .create_morselizer(Arc::clone(&object_store), base_config, partition)?;
        let inner = if self.fast_parquet {
            let map_files = self.map_files
                && super::fast::is_local_root(
                    original_store.as_ref(),
                    base_config.object_store_url.as_str(),
                );
            let options = super::fast::ReadOptions {
                batch_size: self.batch_size.or(base_config.batch_size),
                memory_pool: self.memory_pool.clone(),
                map_files,
                prefault: map_files
                    && base_config.file_groups.len()
                        < std::thread::available_parallelism().map_or(1, usize::from),
                partition,
            };
            super::fast::maybe_fast(
                inner,
                self.inner.as_ref(),
                object_store,
                base_config,
                options,
            )
        } else {
            inner
        };
        Ok(Box::new(NamingMorselizer {
            inner,
            store: base_config.object_store_url.as_str().to_string(),
        }))
    }

    fn table_schema(&self) -> &TableSchema {
        self.inner.table_schema()
    }

    fn with_batch_size(&self, batch_size: usize) -> Arc<dyn FileSource> {
        Arc::new(Self {
            inner: self.inner.with_batch_size(batch_size),
            batch_size: Some(batch_size),
            fast_parquet: self.fast_parquet,
            map_files: self.map_files,
            memory_pool: self.memory_pool.clone(),
        })
    }

    fn filter(&self) -> Option<Arc<dyn PhysicalExpr>> {
        self.inner.filter()
    }

    fn projection(&self) -> Option<&ProjectionExprs> {
        self.inner.projection()
    }

    fn metrics(&self) -> &ExecutionPlanMetricsSet {
        self.inner.metrics()
    }

    fn file_type(&self) -> &str {
        self.inner.file_type()
    }

    fn fmt_extra(&self, t: DisplayFormatType, f: &mut fmt::Formatter) -> fmt::Result {
        self.inner.fmt_extra(t, f)
    }

    fn supports_repartitioning(&self) -> bool {
        self.inner.supports_repartitioning()
    }

    fn repartitioned(
        &self,
        target_partitions: usize,
        repartition_file_min_size: usize,
        output_ordering: Option<LexOrdering>,
        config: &FileScanConfig,
    ) -> Result<Option<FileScanConfig>> {
        // `config` holds this source; the inner one returns a copy of it with new groups.
        self.inner.repartitioned(
            target_partitions,
            repartition_file_min_size,
            output_ordering,
            config,
        )
    }

    fn try_pushdown_filters(
        &self,
        filters: Vec<Arc<dyn PhysicalExpr>>,
        config: &ConfigOptions,
    ) -> Result<FilterPushdownPropagation<Arc<dyn FileSource>>> {
        let mut result = self.inner.try_pushdown_filters(filters, config)?;
        result.updated_node = result.updated_node.map(|inner| self.rewrap(inner));
        Ok(result)
    }

    fn try_pushdown_sort(
        &self,
        order: &[PhysicalSortExpr],
        eq_properties: &EquivalenceProperties,
    ) -> Result<SortOrderPushdownResult<Arc<dyn FileSource>>> {
        Ok(self.wrap_sort(self.inner.try_pushdown_sort(order, eq_properties)?))
    }

    #[allow(deprecated)]
    fn try_reverse_output(
        &self,
        order: &[PhysicalSortExpr],
        eq_properties: &EquivalenceProperties,
    ) -> Result<SortOrderPushdownResult<Arc<dyn FileSource>>> {
        Ok(self.wrap_sort(self.inner.try_reverse_output(order, eq_properties)?))
    }

    fn reorder_files(&self, files: Vec<PartitionedFile>) -> Vec<PartitionedFile> {
        self.inner.reorder_files(files)
    }

    /// Declined for a projection that calls one of this crate's functions: its return field
    /// (a tensor type's metadata) would travel inside the scan, where a plan codec keeps the
    /// data type only and nothing restores it (a Ballista executor's `tensor_to_variable(x)`
    /// lost its `arrow.variable_shape_tensor` type). The call then runs in the projection
    /// above the scan, which the codecs restore; the work is the same.
    fn try_pushdown_projection(
        &self,
        projection: &ProjectionExprs,
    ) -> Result<Option<Arc<dyn FileSource>>> {
        if projection
            .iter()
            .any(|projected| calls_a_tensor_function(&projected.expr))
        {
            return Ok(None);
        }
        Ok(self
            .inner
            .try_pushdown_projection(projection)?
            .map(|inner| self.rewrap(inner)))
    }

    fn apply_expressions(
        &self,
        f: &mut dyn FnMut(&Arc<dyn PhysicalExpr>) -> Result<TreeNodeRecursion>,
    ) -> Result<TreeNodeRecursion> {
        self.inner.apply_expressions(f)
    }

    /// Serialised as the wrapped source (a plan sent to a Ballista cluster); the receiving
    /// side wraps it again (the `datafusion-tensor-ballista` codecs).
    #[cfg(feature = "proto")]
    fn try_to_proto(
        &self,
        base: &FileScanConfig,
        ctx: &datafusion::physical_plan::proto::ExecutionPlanEncodeCtx<'_>,
    ) -> Result<Option<datafusion_proto::protobuf::PhysicalPlanNode>> {
        self.inner.try_to_proto(base, ctx)
    }
}

impl NamingSource {
    fn wrap_sort(
        &self,
        result: SortOrderPushdownResult<Arc<dyn FileSource>>,
    ) -> SortOrderPushdownResult<Arc<dyn FileSource>> {
        match result {
            SortOrderPushdownResult::Exact { inner } => SortOrderPushdownResult::Exact {
                inner: self.rewrap(inner),
            },
            SortOrderPushdownResult::Inexact { inner } => SortOrderPushdownResult::Inexact {
                inner: self.rewrap(inner),
            },
            other @ SortOrderPushdownResult::Unsupported => other,
        }
    }
}

#[derive(Debug)]
struct NamingMorselizer {
    inner: Box<dyn Morselizer>,
    /// The object store's URL (`file:///`).
    store: String,
}

impl Morselizer for NamingMorselizer {
    fn plan_file(&self, file: PartitionedFile) -> Result<Box<dyn MorselPlanner>> {
        let path = file_name(&self.store, file.object_meta.location.as_ref());
        let inner = self
            .inner
            .plan_file(file)
            .map_err(|err| in_file(err, &path))?;
        Ok(Box::new(NamingPlanner { inner, path }))
    }
}

#[derive(Debug)]
struct NamingPlanner {
    inner: Box<dyn MorselPlanner>,
    path: Arc<str>,
}

impl NamingPlanner {
    fn wrap(inner: Box<dyn MorselPlanner>, path: &Arc<str>) -> Box<dyn MorselPlanner> {
        Box::new(Self {
            inner,
            path: Arc::clone(path),
        })
    }
}

impl MorselPlanner for NamingPlanner {
    fn plan(self: Box<Self>) -> Result<Option<MorselPlan>> {
        let path = self.path;
        let inner = self.inner;
        let planned = crate::quiet::catch(move || inner.plan())
            .unwrap_or_else(|panic| Err(reader_panic(panic.as_ref())));
        let Some(mut plan) = planned.map_err(|err| in_file(err, &path))? else {
            return Ok(None);
        };
        let morsels = plan
            .take_morsels()
            .into_iter()
            .map(|inner| {
                Box::new(NamingMorsel {
                    inner,
                    path: Arc::clone(&path),
                }) as Box<dyn Morsel>
            })
            .collect();
        let planners = plan
            .take_ready_planners()
            .into_iter()
            .map(|inner| NamingPlanner::wrap(inner, &path))
            .collect();
        let mut named = MorselPlan::new()
            .with_morsels(morsels)
            .with_planners(planners);
        if let Some(pending) = plan.take_pending_planner() {
            named.set_pending_planner(async move {
                match crate::quiet::catch_future(pending).await {
                    Ok(Ok(inner)) => Ok(NamingPlanner::wrap(inner, &path)),
                    Ok(Err(err)) => Err(in_file(err, &path)),
                    Err(panic) => Err(in_file(reader_panic(panic.as_ref()), &path)),
                }
            });
        }
        Ok(Some(named))
    }
}

#[derive(Debug)]
struct NamingMorsel {
    inner: Box<dyn Morsel>,
    path: Arc<str>,
}

impl Morsel for NamingMorsel {
    fn into_stream(self: Box<Self>) -> BoxStream<'static, Result<RecordBatch>> {
        let path = self.path;
        // A panic inside the Parquet reader (arrow-rs trusts some footer fields, such as a
        // column chunk's offset and size: apache/arrow-rs#6255) becomes this file's error, and
        // the stream ends there; the reader's state is dropped with it.
        crate::quiet::catch_stream(self.inner.into_stream())
            .map(move |batch| match batch {
                Ok(batch) => batch.map_err(|err| in_file(err, &path)),
                Err(panic) => Err(in_file(reader_panic(panic.as_ref()), &path)),
            })
            .boxed()
    }
}

/// A panic caught in the Parquet reader, as an error.
pub(super) fn reader_panic(panic: &(dyn Any + Send)) -> DataFusionError {
    let message = panic
        .downcast_ref::<&str>()
        .map(ToString::to_string)
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".to_string());
    DataFusionError::Execution(format!(
        "the Parquet reader failed on a malformed file: {message}"
    ))
}

/// Whether `expr` calls one of this crate's functions anywhere in it.
fn calls_a_tensor_function(expr: &Arc<dyn PhysicalExpr>) -> bool {
    use datafusion::common::tree_node::TreeNode;
    use datafusion::physical_expr::{HigherOrderFunctionExpr, ScalarFunctionExpr};
    let mut found = false;
    // The visit does not fail: the closure returns no error.
    let _ = expr.apply(|node| {
        found = node
            .downcast_ref::<ScalarFunctionExpr>()
            .is_some_and(|call| crate::udf::registry::is_tensor_function(call.fun()))
            || node
                .downcast_ref::<HigherOrderFunctionExpr>()
                .is_some_and(|call| {
                    crate::udf::registry::is_tensor_higher_order_function(call.fun())
                });
        Ok(if found {
            TreeNodeRecursion::Stop
        } else {
            TreeNodeRecursion::Continue
        })
    });
    found
}
