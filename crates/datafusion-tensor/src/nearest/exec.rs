//! [`NearestCandidatesExec`]: the cross join's rows that can be among the `k` best of their
//! group, for the window above it to rank.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use arrow::array::{Array, ArrayRef, AsArray, RecordBatch, UInt32Array, UInt64Array};
use arrow::compute::{cast, concat_batches, take, take_record_batch};
use arrow::datatypes::{DataType, SchemaRef};
use arrow::row::{RowConverter, SortField};
use datafusion::common::tree_node::TreeNodeRecursion;
use datafusion::common::{Result, exec_err};
use datafusion::execution::memory_pool::{MemoryConsumer, MemoryReservation};
use datafusion::execution::{SendableRecordBatchStream, TaskContext};
use datafusion::physical_expr::PhysicalExpr;
use datafusion::physical_plan::coalesce_partitions::CoalescePartitionsExec;
use datafusion::physical_plan::joins::CrossJoinExec;
use datafusion::physical_plan::metrics::{
    BaselineMetrics, Count, ExecutionPlanMetricsSet, MetricBuilder, MetricsSet,
};
use datafusion::physical_plan::stream::RecordBatchStreamAdapter;
use datafusion::physical_plan::{
    DisplayAs, DisplayFormatType, ExecutionPlan, ExecutionPlanProperties, PlanProperties, collect,
};
use futures::{StreamExt, TryStreamExt};
use tokio::sync::OnceCell;

use crate::kernels::linalg::similarity::Measure;
use crate::kernels::nearest::{
    Bounds, ComputeType, Dots, PairKind, Prefilter, Ranking, RowState, Selection, Vectors,
    dot_block, null_key, value_key,
};

/// Items measured per matrix product (1,024 items x the queries: the product packs the
/// queries once per call).
const BLOCK: usize = 1024;

/// What the rule recognised: the measure, its order, and its operands on each side.
#[derive(Debug)]
pub struct NearestSpec {
    /// The function's name (for the plan's display).
    pub function: String,
    /// The measure.
    pub measure: Measure,
    /// The function's result type (float16, float32 or float64).
    pub result: DataType,
    /// `ORDER BY ... DESC`.
    pub descending: bool,
    /// NULLs first.
    pub nulls_first: bool,
    /// How many pairs per group the window keeps, and its ties.
    pub ranking: Ranking,
    /// The function call over the join's columns.
    pub metric: Arc<dyn PhysicalExpr>,
    /// The function's operand over the build side's columns.
    pub build_vector: Arc<dyn PhysicalExpr>,
    /// The function's operand over the stream side's columns.
    pub stream_vector: Arc<dyn PhysicalExpr>,
    /// The window's `PARTITION BY` over the build side's columns.
    pub partition_by: Vec<Arc<dyn PhysicalExpr>>,
    /// Whether the build side (collected once) is the join's left input.
    pub build_is_left: bool,
}

/// The build side, collected once for every stream partition.
#[derive(Debug)]
struct BuildSide {
    batch: RecordBatch,
    vectors: Vectors,
    group_of: Vec<u32>,
    groups: usize,
    /// Each group's build rows.
    group_rows: Vec<Vec<u32>>,
    /// The pairs' bounds and their prefilter (the vectors' length and types fix them).
    prefilter: Prefilter,
    /// Per build row: its squared norm, norm and inverse norm.
    query_terms: Vec<(f64, f64, f64)>,
    _reservation: MemoryReservation,
}

/// A cross join that emits only the pairs that can rank among the `k` best of their group
/// (`crate::nearest`); its schema, partitioning and equivalences are the cross join's.
#[derive(Debug)]
pub struct NearestCandidatesExec {
    left: Arc<dyn ExecutionPlan>,
    right: Arc<dyn ExecutionPlan>,
    spec: Arc<NearestSpec>,
    properties: Arc<PlanProperties>,
    build: Arc<OnceCell<Arc<BuildSide>>>,
    metrics: ExecutionPlanMetricsSet,
}

impl NearestCandidatesExec {
    /// The join of `left` and `right` (the cross join's inputs, the stream side already with
    /// the cross join's number of partitions) selected by `spec`.
    pub fn new(
        left: Arc<dyn ExecutionPlan>,
        right: Arc<dyn ExecutionPlan>,
        spec: Arc<NearestSpec>,
    ) -> Self {
        let join = CrossJoinExec::new(Arc::clone(&left), Arc::clone(&right));
        let mut properties = join.properties().as_ref().clone();
        if !spec.build_is_left {
            // The left side streams: its partitions are the output's.
            properties.partitioning = datafusion::physical_plan::Partitioning::UnknownPartitioning(
                left.output_partitioning().partition_count(),
            );
        }
        Self {
            left,
            right,
            spec,
            properties: Arc::new(properties),
            build: Arc::new(OnceCell::new()),
            metrics: ExecutionPlanMetricsSet::new(),
        }
    }

    /// What the rule recognised.
    pub fn spec(&self) -> &NearestSpec {
        &self.spec
    }

    fn sides(&self) -> (&Arc<dyn ExecutionPlan>, &Arc<dyn ExecutionPlan>) {
        if self.spec.build_is_left {
            (&self.left, &self.right)
        } else {
            (&self.right, &self.left)
        }
    }
}

impl DisplayAs for NearestCandidatesExec {
    fn fmt_as(&self, t: DisplayFormatType, f: &mut fmt::Formatter) -> fmt::Result {
        let spec = &self.spec;
        let order = format!(
            "{} {} NULLS {}",
            spec.metric,
            if spec.descending { "DESC" } else { "ASC" },
            if spec.nulls_first { "FIRST" } else { "LAST" }
        );
        let side = if spec.build_is_left { "left" } else { "right" };
        let ties = if spec.ranking.ties { ", ties kept" } else { "" };
        match t {
            DisplayFormatType::Default | DisplayFormatType::Verbose => write!(
                f,
                "NearestCandidatesExec: k={}{ties}, order_by=[{order}], build={side}, partition_by=[{}]",
                spec.ranking.k,
                spec.partition_by
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            DisplayFormatType::TreeRender => {
                writeln!(f, "k={}{ties}", spec.ranking.k)?;
                writeln!(f, "order_by={order}")?;
                write!(f, "build={side}")
            }
        }
    }
}

impl ExecutionPlan for NearestCandidatesExec {
    fn name(&self) -> &'static str {
        "NearestCandidatesExec"
    }

    fn properties(&self) -> &Arc<PlanProperties> {
        &self.properties
    }

    fn children(&self) -> Vec<&Arc<dyn ExecutionPlan>> {
        vec![&self.left, &self.right]
    }

    fn apply_expressions(
        &self,
        f: &mut dyn FnMut(&Arc<dyn PhysicalExpr>) -> Result<TreeNodeRecursion>,
    ) -> Result<TreeNodeRecursion> {
        let spec = &self.spec;
        for expr in [&spec.metric, &spec.build_vector, &spec.stream_vector]
            .into_iter()
            .chain(&spec.partition_by)
        {
            if f(expr)? == TreeNodeRecursion::Stop {
                return Ok(TreeNodeRecursion::Stop);
            }
        }
        Ok(TreeNodeRecursion::Continue)
    }

    fn with_new_children(
        self: Arc<Self>,
        children: Vec<Arc<dyn ExecutionPlan>>,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        let [left, right]: [Arc<dyn ExecutionPlan>; 2] = match children.try_into() {
            Ok(children) => children,
            Err(_) => return exec_err!("NearestCandidatesExec has two children"),
        };
        Ok(Arc::new(Self::new(left, right, Arc::clone(&self.spec))))
    }

    fn reset_state(self: Arc<Self>) -> Result<Arc<dyn ExecutionPlan>> {
        Ok(Arc::new(Self::new(
            Arc::clone(&self.left),
            Arc::clone(&self.right),
            Arc::clone(&self.spec),
        )))
    }

    fn metrics(&self) -> Option<MetricsSet> {
        Some(self.metrics.clone_inner())
    }

    fn execute(
        &self,
        partition: usize,
        context: Arc<TaskContext>,
    ) -> Result<SendableRecordBatchStream> {
        let (build_plan, stream_plan) = self.sides();
        let stream = stream_plan.execute(partition, Arc::clone(&context))?;
        let build_plan = Arc::clone(build_plan);
        let cell = Arc::clone(&self.build);
        let spec = Arc::clone(&self.spec);
        let schema = self.schema();
        let out_schema = Arc::clone(&schema);
        let metrics = PairMetrics::new(&self.metrics, partition);
        let reservation = MemoryConsumer::new(format!("NearestCandidatesExec[{partition}]"))
            .register(context.memory_pool());
        let batch_size = context.session_config().batch_size();
        let task = async move {
            let build = cell
                .get_or_try_init(|| collect_build(build_plan, Arc::clone(&context), &spec))
                .await?;
            let mut run = Run {
                spec: &spec,
                build,
                schema: &schema,
                selection: Selection::new(spec.ranking, build.group_of.clone(), build.groups),
                dots: Dots::F32(Vec::new()),
                pre_thresholds: vec![f64::INFINITY; build.vectors.rows],
                store: Vec::new(),
                stored: 0,
                reservation,
                metrics,
            };
            let mut stream = stream;
            while let Some(batch) = stream.next().await {
                run.batch(&batch?)?;
            }
            run.finish(batch_size)
        };
        let batches = futures::stream::once(task)
            .map_ok(|batches| futures::stream::iter(batches.into_iter().map(Ok)))
            .try_flatten();
        Ok(Box::pin(RecordBatchStreamAdapter::new(out_schema, batches)))
    }
}

/// The operator's metrics: pairs, pairs bounded one by one (the rest the prefilter dropped),
/// pairs the function measured, rows out.
struct PairMetrics {
    baseline: BaselineMetrics,
    pairs: Count,
    bounded: Count,
    measured: Count,
}

impl PairMetrics {
    fn new(set: &ExecutionPlanMetricsSet, partition: usize) -> Self {
        Self {
            baseline: BaselineMetrics::new(set, partition),
            pairs: MetricBuilder::new(set).counter("pairs", partition),
            bounded: MetricBuilder::new(set).counter("pairs_bounded", partition),
            measured: MetricBuilder::new(set).counter("pairs_measured", partition),
        }
    }
}

/// A fixed-size list column's array, or an error naming what was found.
fn vectors(
    expr: &Arc<dyn PhysicalExpr>,
    batch: &RecordBatch,
    spec: &NearestSpec,
) -> Result<Vectors> {
    let array = expr.evaluate(batch)?.into_array(batch.num_rows())?;
    let Some(list) = array.as_fixed_size_list_opt() else {
        return exec_err!(
            "{}: nearest-neighbour join: operand {expr} is {}, not a fixed-shape tensor",
            spec.function,
            array.data_type()
        );
    };
    let Some(compute) = ComputeType::for_result(&spec.result) else {
        return exec_err!(
            "{}: result type {} is not a float",
            spec.function,
            spec.result
        );
    };
    Ok(Vectors::new(list, compute, spec.measure)?)
}

/// Collects the build side, its vectors and its groups (equal `PARTITION BY` values).
async fn collect_build(
    plan: Arc<dyn ExecutionPlan>,
    context: Arc<TaskContext>,
    spec: &NearestSpec,
) -> Result<Arc<BuildSide>> {
    let schema = plan.schema();
    let plan: Arc<dyn ExecutionPlan> = if plan.output_partitioning().partition_count() > 1 {
        Arc::new(CoalescePartitionsExec::new(plan))
    } else {
        plan
    };
    let reservation =
        MemoryConsumer::new("NearestCandidatesExec[build]").register(context.memory_pool());
    let batches = collect(plan, context).await?;
    let batch = concat_batches(&schema, &batches)?;
    reservation.try_grow(batch.get_array_memory_size())?;
    let vectors = vectors(&spec.build_vector, &batch, spec)?;
    let rows = batch.num_rows();
    let (group_of, groups) = if spec.partition_by.is_empty() {
        (vec![0; rows], 1)
    } else {
        let keys = spec
            .partition_by
            .iter()
            .map(|e| e.evaluate(&batch)?.into_array(rows))
            .collect::<Result<Vec<ArrayRef>>>()?;
        let converter = RowConverter::new(
            keys.iter()
                .map(|k| SortField::new(k.data_type().clone()))
                .collect(),
        )?;
        let converted = converter.convert_columns(&keys)?;
        let mut ids: HashMap<&[u8], u32> = HashMap::new();
        let mut group_of = Vec::with_capacity(rows);
        for row in 0..rows {
            let next = u32::try_from(ids.len()).unwrap_or(u32::MAX);
            group_of.push(*ids.entry(converted.row(row).data()).or_insert(next));
        }
        let groups = ids.len();
        (group_of, groups)
    };
    let mut group_rows = vec![Vec::new(); groups];
    for (row, &g) in group_of.iter().enumerate() {
        #[allow(clippy::cast_possible_truncation)]
        group_rows[g as usize].push(row as u32);
    }
    let compute = ComputeType::for_result(&spec.result).unwrap_or(ComputeType::F64);
    let bounds = Bounds::new(
        spec.measure,
        spec.descending,
        vectors.len,
        compute,
        &spec.result,
    );
    let query_terms = (0..vectors.rows)
        .map(|j| (vectors.squares[j], vectors.norms[j], 1.0 / vectors.norms[j]))
        .collect();
    Ok(Arc::new(BuildSide {
        batch,
        vectors,
        group_of,
        groups,
        group_rows,
        prefilter: Prefilter::new(bounds),
        query_terms,
        _reservation: reservation,
    }))
}

/// One stream partition's selection.
struct Run<'a> {
    spec: &'a NearestSpec,
    build: &'a BuildSide,
    schema: &'a SchemaRef,
    selection: Selection,
    /// The products' buffer, reused from batch to batch.
    dots: Dots,
    /// Per build row: the prefilter's threshold (its group's).
    pre_thresholds: Vec<f64>,
    /// The stream rows candidates refer to (items number rows across these batches).
    store: Vec<RecordBatch>,
    stored: u64,
    reservation: MemoryReservation,
    metrics: PairMetrics,
}

impl Run<'_> {
    /// Offers every pair of `batch`'s rows with the build rows.
    fn batch(&mut self, batch: &RecordBatch) -> Result<()> {
        let rows = batch.num_rows();
        if rows == 0 || self.build.batch.num_rows() == 0 {
            return Ok(());
        }
        let time = self.metrics.baseline.elapsed_compute().clone();
        let timer = time.timer();
        let spec = self.spec;
        let items = vectors(&spec.stream_vector, batch, spec)?;
        let queries = &self.build.vectors;
        if items.len != queries.len {
            return exec_err!(
                "{}: vectors of {} and {} values (nearest-neighbour join)",
                spec.function,
                items.len,
                queries.len
            );
        }
        let base = self.stored;
        let mut exact: Vec<(u32, u32)> = Vec::new();
        let mut dots = std::mem::replace(&mut self.dots, Dots::F32(Vec::new()));
        let mut looked = 0;
        for start in (0..rows).step_by(BLOCK) {
            let block = start..(start + BLOCK).min(rows);
            dot_block(&items, block.clone(), queries, &mut dots);
            looked += match &dots {
                Dots::F32(d) => self.scan_block(d, &items, block, base, &mut exact),
                Dots::F64(d) => self.scan_block(d, &items, block, base, &mut exact),
            };
        }
        self.dots = dots;
        self.metrics.pairs.add(rows * queries.rows);
        self.metrics.bounded.add(looked);
        self.metrics.measured.add(exact.len());
        for chunk in exact.chunks(8192) {
            self.measure_exactly(batch, chunk, base)?;
        }
        self.keep_rows(batch, base)?;
        timer.done();
        Ok(())
    }

    /// Offers the pairs of items `block` whose products are `dots` (block rows x build
    /// rows) that pass the prefilter; returns how many were bounded one by one.
    fn scan_block<T: Copy + Into<f64>>(
        &mut self,
        dots: &[T],
        items: &Vectors,
        block: std::ops::Range<usize>,
        base: u64,
        exact: &mut Vec<(u32, u32)>,
    ) -> usize {
        let pre = self.build.prefilter;
        // One loop per measure and order (`Prefilter::value_of`'s kinds), the prefilter's
        // branch out of it.
        macro_rules! scan {
            ($kind:literal) => {
                self.scan_rows(dots, items, block, base, exact, |d, i, q| {
                    pre.value_of::<$kind>(d, i, q)
                })
            };
        }
        match (self.spec.measure, self.spec.descending) {
            (Measure::L2Distance, false) => scan!(0),
            (Measure::L2Distance, true) => scan!(1),
            (Measure::InnerProduct, false) => scan!(2),
            (Measure::InnerProduct, true) => scan!(3),
            (Measure::CosineSimilarity, false) => scan!(4),
            (Measure::CosineSimilarity, true) => scan!(5),
        }
    }

    #[inline(always)]
    fn scan_rows<T: Copy + Into<f64>>(
        &mut self,
        dots: &[T],
        items: &Vectors,
        block: std::ops::Range<usize>,
        base: u64,
        exact: &mut Vec<(u32, u32)>,
        value: impl Fn(f64, (f64, f64, f64), (f64, f64, f64)) -> f64,
    ) -> usize {
        let m = self.build.vectors.rows;
        let mut looked = 0;
        for (r, i) in block.enumerate() {
            let row = &dots[r * m..(r + 1) * m];
            let item = base + i as u64;
            if items.state[i] == RowState::Safe {
                let terms = (items.squares[i], items.norms[i], 1.0 / items.norms[i]);
                for (j, &dot) in row.iter().enumerate() {
                    let dot = dot.into();
                    if value(dot, terms, self.build.query_terms[j]) > self.pre_thresholds[j] {
                        continue;
                    }
                    looked += 1;
                    self.bound(j, i, dot, items, item, exact);
                }
            } else {
                for (j, &dot) in row.iter().enumerate() {
                    self.bound(j, i, dot.into(), items, item, exact);
                }
            }
        }
        looked
    }

    /// Offers the pair of build row `j` and item row `i` by its bounds.
    fn bound(
        &mut self,
        j: usize,
        i: usize,
        dot: f64,
        items: &Vectors,
        item: u64,
        exact: &mut Vec<(u32, u32)>,
    ) {
        let bounds = self.build.prefilter.bounds();
        let (lo, hi) = match bounds.pair(dot, items, i, &self.build.vectors, j) {
            PairKind::Bounded(lo, hi) => (value_key(lo), value_key(hi)),
            PairKind::Null => {
                let null = null_key(self.spec.nulls_first);
                (null, null)
            }
            PairKind::Exact => {
                #[allow(clippy::cast_possible_truncation)]
                exact.push((j as u32, i as u32));
                return;
            }
        };
        if self.selection.admits(j, lo) && self.selection.offer(j, lo, hi, item) {
            self.refresh(j);
        }
    }

    /// The prefilter thresholds of build row `j`'s group, after its threshold changed.
    fn refresh(&mut self, j: usize) {
        let g = self.selection.group_of(j);
        let threshold = self.build.prefilter.threshold(self.selection.threshold(g));
        let vectors = &self.build.vectors;
        for &row in &self.build.group_rows[g] {
            let row = row as usize;
            if vectors.state[row] == RowState::Safe {
                self.pre_thresholds[row] = threshold;
            }
        }
    }

    /// Offers `pairs` (build row, batch row) measured by the function itself.
    fn measure_exactly(
        &mut self,
        batch: &RecordBatch,
        pairs: &[(u32, u32)],
        base: u64,
    ) -> Result<()> {
        let builds = UInt32Array::from_iter_values(pairs.iter().map(|p| p.0));
        let items = UInt32Array::from_iter_values(pairs.iter().map(|p| p.1));
        let joined = self.joined(
            &take_record_batch(&self.build.batch, &builds)?,
            &take_record_batch(batch, &items)?,
        )?;
        let values = self
            .spec
            .metric
            .evaluate(&joined)?
            .into_array(pairs.len())?;
        let values = cast(&values, &DataType::Float64)?;
        let values = values.as_primitive::<arrow::datatypes::Float64Type>();
        let null = null_key(self.spec.nulls_first);
        for (n, &(j, i)) in pairs.iter().enumerate() {
            let key = if values.is_null(n) {
                null
            } else {
                value_key(self.build.prefilter.bounds().rank(values.value(n)))
            };
            if self
                .selection
                .offer(j as usize, key, key, base + u64::from(i))
            {
                self.refresh(j as usize);
            }
        }
        Ok(())
    }

    /// The join's row of each build row and stream row (in the join's column order).
    fn joined(&self, build: &RecordBatch, stream: &RecordBatch) -> Result<RecordBatch> {
        let (left, right) = if self.spec.build_is_left {
            (build, stream)
        } else {
            (stream, build)
        };
        let columns = left
            .columns()
            .iter()
            .chain(right.columns())
            .cloned()
            .collect();
        Ok(RecordBatch::try_new(Arc::clone(self.schema), columns)?)
    }

    /// Stores the rows of `batch` that candidates refer to, renumbering those candidates;
    /// compacts the store when most of it is no longer referred to.
    fn keep_rows(&mut self, batch: &RecordBatch, base: u64) -> Result<()> {
        let mut used = vec![u32::MAX; batch.num_rows()];
        for item in self.selection.items_mut() {
            if *item >= base {
                used[usize::try_from(*item - base).unwrap_or(0)] = 0;
            }
        }
        let mut kept = Vec::new();
        for (row, slot) in used.iter_mut().enumerate() {
            if *slot == 0 {
                #[allow(clippy::cast_possible_truncation)]
                {
                    *slot = kept.len() as u32;
                    kept.push(row as u32);
                }
            }
        }
        if kept.is_empty() {
            return Ok(());
        }
        for item in self.selection.items_mut() {
            if *item >= base {
                *item = base + u64::from(used[usize::try_from(*item - base).unwrap_or(0)]);
            }
        }
        let taken = take_record_batch(batch, &UInt32Array::from(kept))?;
        self.reservation.try_grow(taken.get_array_memory_size())?;
        self.stored += taken.num_rows() as u64;
        self.store.push(taken);
        let live = self.selection.len() as u64;
        if self.stored > 2 * live + 65_536 {
            self.compact()?;
        }
        Ok(())
    }

    /// Keeps only the stored rows candidates still refer to.
    fn compact(&mut self) -> Result<()> {
        self.selection.prune();
        let mut live: Vec<u64> = self.selection.items_mut().map(|i| *i).collect();
        live.sort_unstable();
        live.dedup();
        let all = concat_batches(&self.store_schema(), &self.store)?;
        let taken = take_record_batch(&all, &UInt64Array::from(live.clone()))?;
        for item in self.selection.items_mut() {
            *item = live.binary_search(item).unwrap_or(0) as u64;
        }
        self.reservation.try_resize(taken.get_array_memory_size())?;
        self.stored = taken.num_rows() as u64;
        self.store = vec![taken];
        Ok(())
    }

    fn store_schema(&self) -> SchemaRef {
        self.store.first().map_or_else(
            || Arc::new(arrow::datatypes::Schema::empty()),
            RecordBatch::schema,
        )
    }

    /// The joined rows of the candidates, in item order, in batches of `batch_size` rows.
    fn finish(mut self, batch_size: usize) -> Result<Vec<RecordBatch>> {
        let pairs = self.selection.finish();
        let metrics = &self.metrics;
        if pairs.is_empty() {
            metrics.baseline.done();
            return Ok(Vec::new());
        }
        let stream = concat_batches(&self.store_schema(), &self.store)?;
        let mut out = Vec::new();
        for chunk in pairs.chunks(batch_size.max(1)) {
            let items = UInt64Array::from_iter_values(chunk.iter().map(|p| p.0));
            let builds = UInt32Array::from_iter_values(chunk.iter().map(|p| p.1));
            let stream_rows: Vec<ArrayRef> = stream
                .columns()
                .iter()
                .map(|c| take(c, &items, None))
                .collect::<std::result::Result<_, _>>()?;
            let build_rows = take_record_batch(&self.build.batch, &builds)?;
            let stream_rows = RecordBatch::try_new(stream.schema(), stream_rows)?;
            let batch = self.joined(&build_rows, &stream_rows)?;
            metrics.baseline.record_output(batch.num_rows());
            out.push(batch);
        }
        metrics.baseline.done();
        Ok(out)
    }
}
