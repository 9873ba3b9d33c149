//! A table over tensor files ([`TensorFileTable`]) and its scan ([`TensorFileExec`]): the rows
//! a query asks for, split into one contiguous share per partition, read a batch at a time
//! when the partition's stream is polled (a `LIMIT` reads only its rows; filters on names,
//! dtypes and shapes choose the rows before any value is read).

use std::fmt;
use std::ops::Range;
use std::sync::Arc;

use arrow::array::{AsArray, RecordBatch};
use arrow::datatypes::SchemaRef;
use async_trait::async_trait;
use datafusion::catalog::Session;
use datafusion::common::DFSchema;
use datafusion::datasource::{TableProvider, TableType};
use datafusion::error::Result;
use datafusion::execution::{SendableRecordBatchStream, TaskContext};
use datafusion::logical_expr::utils::conjunction;
use datafusion::logical_expr::{Expr, TableProviderFilterPushDown};
use datafusion::physical_expr::{EquivalenceProperties, PhysicalSortExpr};
use datafusion::physical_plan::execution_plan::{Boundedness, EmissionType};
use datafusion::physical_plan::metrics::{BaselineMetrics, ExecutionPlanMetricsSet, MetricsSet};
use datafusion::physical_plan::stream::RecordBatchStreamAdapter;
use datafusion::physical_plan::{
    DisplayAs, DisplayFormatType, ExecutionPlan, Partitioning, PlanProperties,
};

use super::source::TensorFile;

/// A batch holds at most this many bytes of values, or one row that is larger.
const BATCH_BYTES: usize = 64 << 20;

/// A table of tensor files, as a table function or `CREATE EXTERNAL TABLE` makes it.
#[derive(Debug)]
pub(crate) struct TensorFileTable {
    function: &'static str,
    schema: SchemaRef,
    files: Vec<Arc<dyn TensorFile>>,
    /// The columns a file's header gives (filters on them choose rows before reading).
    header_columns: &'static [&'static str],
    /// Whether column 0 is each row's index in its file (`row_index`): comparisons of it with
    /// numbers bound the rows read, and each partition is in its order.
    row_index: bool,
}

impl TensorFileTable {
    pub(crate) fn new(
        function: &'static str,
        schema: SchemaRef,
        files: Vec<Arc<dyn TensorFile>>,
        header_columns: &'static [&'static str],
    ) -> Self {
        Self {
            function,
            schema,
            files,
            header_columns,
            row_index: false,
        }
    }

    /// The same table, its column 0 the rows' index in their file.
    pub(crate) fn with_row_index(mut self) -> Self {
        self.row_index = true;
        self
    }

    /// Whether `filter` bounds `row_index`.
    fn bounds_rows(&self, filter: &Expr) -> bool {
        self.row_index && row_bounds(std::slice::from_ref(filter)) != (0..usize::MAX)
    }

    /// Whether `filter` reads only header columns.
    fn on_header(&self, filter: &Expr) -> bool {
        !self.header_columns.is_empty()
            && filter
                .column_refs()
                .iter()
                .all(|column| self.header_columns.contains(&column.name.as_str()))
    }

    /// Each file's rows that `filters` keep (all rows without filters).
    fn selected(&self, state: &dyn Session, filters: &[Expr]) -> Result<Vec<Vec<Range<usize>>>> {
        let bounds = if self.row_index {
            row_bounds(filters)
        } else {
            0..usize::MAX
        };
        let all = |f: &Arc<dyn TensorFile>| {
            let range = bounds.start.min(f.rows())..bounds.end.min(f.rows());
            vec![range]
        };
        let pushed: Vec<Expr> = filters
            .iter()
            .filter(|f| self.on_header(f))
            .cloned()
            .collect();
        let Some(predicate) = conjunction(pushed) else {
            return Ok(self.files.iter().map(all).collect());
        };
        let df_schema = DFSchema::try_from(Arc::clone(&self.schema))?;
        let predicate = state.create_physical_expr(predicate, &df_schema)?;
        let mut selected = Vec::with_capacity(self.files.len());
        for file in &self.files {
            let Some(header) = file.header(&self.schema) else {
                selected.push(all(file));
                continue;
            };
            let header: RecordBatch = header?;
            let keep = predicate.evaluate(&header)?.into_array(header.num_rows())?;
            let keep = keep.as_boolean();
            let mut ranges: Vec<Range<usize>> = Vec::new();
            for row in 0..keep.len() {
                if arrow::array::Array::is_valid(keep, row) && keep.value(row) {
                    match ranges.last_mut() {
                        Some(last) if last.end == row => last.end += 1,
                        _ => ranges.push(row..row + 1),
                    }
                }
            }
            selected.push(ranges);
        }
        Ok(selected)
    }
}

/// The rows that comparisons of `row_index` with integer literals in `filters` allow
/// (`row_index >= 10 AND row_index < 20`, `BETWEEN`, `=`; either side); `0..usize::MAX` when
/// none bounds it.
fn row_bounds(filters: &[Expr]) -> Range<usize> {
    use datafusion::logical_expr::{Between, BinaryExpr, Operator};
    let mut bounds = 0..usize::MAX;
    // Integer literals only: a float bound cast to an integer would move it.
    let literal = |e: &Expr| match e {
        Expr::Literal(value, _) if value.data_type().is_integer() => value
            .cast_to(&arrow::datatypes::DataType::Int64)
            .ok()
            .and_then(|v| match v {
                datafusion::common::ScalarValue::Int64(Some(v)) => Some(v),
                _ => None,
            }),
        _ => None,
    };
    let is_index = |e: &Expr| matches!(e, Expr::Column(c) if c.name == super::source::ROW_INDEX);
    let clamp = |v: i64| usize::try_from(v.max(0)).unwrap_or(usize::MAX);
    let apply = |op: Operator, v: i64, bounds: &mut Range<usize>| match op {
        Operator::Eq => {
            bounds.start = bounds.start.max(clamp(v));
            bounds.end = bounds.end.min(clamp(v.saturating_add(1)));
        }
        Operator::Gt => bounds.start = bounds.start.max(clamp(v.saturating_add(1))),
        Operator::GtEq => bounds.start = bounds.start.max(clamp(v)),
        Operator::Lt => bounds.end = bounds.end.min(clamp(v)),
        Operator::LtEq => bounds.end = bounds.end.min(clamp(v.saturating_add(1))),
        _ => {}
    };
    let mut stack: Vec<&Expr> = filters.iter().collect();
    while let Some(filter) = stack.pop() {
        match filter {
            Expr::BinaryExpr(BinaryExpr {
                left,
                op: Operator::And,
                right,
            }) => {
                stack.push(left);
                stack.push(right);
            }
            Expr::BinaryExpr(BinaryExpr { left, op, right }) => {
                if is_index(left)
                    && let Some(v) = literal(right)
                {
                    apply(*op, v, &mut bounds);
                } else if is_index(right)
                    && let Some(v) = literal(left)
                    && let Some(op) = op.swap()
                {
                    apply(op, v, &mut bounds);
                }
            }
            Expr::Between(Between {
                expr,
                negated: false,
                low,
                high,
            }) if is_index(expr) => {
                if let (Some(low), Some(high)) = (literal(low), literal(high)) {
                    apply(Operator::GtEq, low, &mut bounds);
                    apply(Operator::LtEq, high, &mut bounds);
                }
            }
            _ => {}
        }
    }
    if bounds.start > bounds.end {
        bounds.end = bounds.start;
    }
    bounds
}

#[async_trait]
impl TableProvider for TensorFileTable {
    fn schema(&self) -> SchemaRef {
        Arc::clone(&self.schema)
    }

    fn table_type(&self) -> TableType {
        TableType::Base
    }

    fn supports_filters_pushdown(
        &self,
        filters: &[&Expr],
    ) -> Result<Vec<TableProviderFilterPushDown>> {
        // Inexact: the filter also runs above the scan, on what it returns.
        Ok(filters
            .iter()
            .map(|f| {
                if self.on_header(f) || self.bounds_rows(f) {
                    TableProviderFilterPushDown::Inexact
                } else {
                    TableProviderFilterPushDown::Unsupported
                }
            })
            .collect())
    }

    async fn scan(
        &self,
        state: &dyn Session,
        projection: Option<&Vec<usize>>,
        filters: &[Expr],
        limit: Option<usize>,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        let projection: Vec<usize> = projection
            .cloned()
            .unwrap_or_else(|| (0..self.schema.fields().len()).collect());
        let schema = Arc::new(self.schema.project(&projection)?);
        // The rows read, in file order, cut at the limit.
        let mut units: Vec<(usize, Range<usize>)> = Vec::new();
        let mut left = limit.unwrap_or(usize::MAX);
        for (file, ranges) in self.selected(state, filters)?.into_iter().enumerate() {
            for range in ranges {
                if left == 0 {
                    break;
                }
                let take = range.len().min(left);
                left -= take;
                units.push((file, range.start..range.start + take));
            }
        }
        // One contiguous share of the rows per partition, ending on a chunk boundary where the
        // file has chunks; one partition (file order) when reading copies nothing.
        let total: usize = units.iter().map(|(_, r)| r.len()).sum();
        // Rows of no bytes (a dimension of 0) are no work to share either (and arrow 59's
        // merge of fixed-size lists of size 0 loses their length).
        let copies = units.iter().any(|(file, range)| {
            self.files[*file].copies() && self.files[*file].row_bytes(range.start) > 0
        });
        let partitions = if copies {
            state.config().target_partitions().clamp(1, total.max(1))
        } else {
            1
        };
        let share = total.div_ceil(partitions).max(1);
        let mut shares: Vec<Vec<(usize, Range<usize>)>> = vec![Vec::new()];
        let mut in_share = 0;
        for (file, mut range) in units {
            let chunk = self.files[file].chunk_rows().max(1);
            while !range.is_empty() {
                if in_share >= share {
                    shares.push(Vec::new());
                    in_share = 0;
                }
                let mut take = range.len().min(share - in_share);
                if take < range.len() {
                    let end = (range.start + take).next_multiple_of(chunk).min(range.end);
                    take = end - range.start;
                }
                shares
                    .last_mut()
                    .expect("one share")
                    .push((file, range.start..range.start + take));
                in_share += take;
                range.start += take;
            }
        }
        // Each partition's rows are in file order: sorted by row_index within one file.
        let ordered = self.row_index && self.files.len() == 1;
        let ordering = projection.iter().position(|&c| c == 0).filter(|_| ordered);
        Ok(Arc::new(TensorFileExec::new(
            self.function,
            schema,
            ordering,
            self.files.clone(),
            projection,
            shares,
            state.config().batch_size(),
        )))
    }
}

/// The scan of a [`TensorFileTable`].
#[derive(Debug)]
pub(crate) struct TensorFileExec {
    function: &'static str,
    schema: SchemaRef,
    files: Vec<Arc<dyn TensorFile>>,
    projection: Vec<usize>,
    shares: Vec<Vec<(usize, Range<usize>)>>,
    batch_rows: usize,
    properties: Arc<PlanProperties>,
    metrics: ExecutionPlanMetricsSet,
}

impl TensorFileExec {
    fn new(
        function: &'static str,
        schema: SchemaRef,
        ordering: Option<usize>,
        files: Vec<Arc<dyn TensorFile>>,
        projection: Vec<usize>,
        shares: Vec<Vec<(usize, Range<usize>)>>,
        batch_rows: usize,
    ) -> Self {
        let mut equivalences = EquivalenceProperties::new(Arc::clone(&schema));
        if let Some(column) = ordering {
            let name = schema.field(column).name();
            equivalences.add_orderings([[PhysicalSortExpr::new_default(Arc::new(
                datafusion::physical_expr::expressions::Column::new(name, column),
            ))]]);
        }
        let properties = PlanProperties::new(
            equivalences,
            Partitioning::UnknownPartitioning(shares.len()),
            EmissionType::Incremental,
            Boundedness::Bounded,
        );
        Self {
            function,
            schema,
            files,
            projection,
            shares,
            batch_rows: batch_rows.max(1),
            properties: Arc::new(properties),
            metrics: ExecutionPlanMetricsSet::new(),
        }
    }
}

impl DisplayAs for TensorFileExec {
    fn fmt_as(&self, t: DisplayFormatType, f: &mut fmt::Formatter) -> fmt::Result {
        let rows: usize = self.shares.iter().flatten().map(|(_, r)| r.len()).sum();
        if matches!(t, DisplayFormatType::TreeRender) {
            return write!(
                f,
                "function={}\nfiles={}\nrows={rows}\npartitions={}",
                self.function,
                self.files.len(),
                self.shares.len()
            );
        }
        write!(
            f,
            "TensorFileExec: {}, files={}, rows={rows}, partitions={}",
            self.function,
            self.files.len(),
            self.shares.len()
        )
    }
}

impl ExecutionPlan for TensorFileExec {
    fn name(&self) -> &'static str {
        "TensorFileExec"
    }

    fn properties(&self) -> &Arc<PlanProperties> {
        &self.properties
    }

    fn children(&self) -> Vec<&Arc<dyn ExecutionPlan>> {
        Vec::new()
    }

    fn apply_expressions(
        &self,
        _f: &mut dyn FnMut(
            &Arc<dyn datafusion::physical_expr::PhysicalExpr>,
        ) -> Result<datafusion::common::tree_node::TreeNodeRecursion>,
    ) -> Result<datafusion::common::tree_node::TreeNodeRecursion> {
        Ok(datafusion::common::tree_node::TreeNodeRecursion::Continue)
    }

    fn with_new_children(
        self: Arc<Self>,
        _children: Vec<Arc<dyn ExecutionPlan>>,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        Ok(self)
    }

    fn metrics(&self) -> Option<MetricsSet> {
        Some(self.metrics.clone_inner())
    }

    /// The rows read, exactly (a `count(*)` is answered from them, reading nothing).
    fn partition_statistics(
        &self,
        partition: Option<usize>,
    ) -> Result<Arc<datafusion::common::Statistics>> {
        use datafusion::common::stats::Precision;
        let rows: usize = match partition {
            Some(p) => self
                .shares
                .get(p)
                .map_or(0, |share| share.iter().map(|(_, r)| r.len()).sum()),
            None => self.shares.iter().flatten().map(|(_, r)| r.len()).sum(),
        };
        let mut statistics = datafusion::common::Statistics::new_unknown(&self.schema);
        statistics.num_rows = Precision::Exact(rows);
        Ok(Arc::new(statistics))
    }

    fn execute(
        &self,
        partition: usize,
        _context: Arc<TaskContext>,
    ) -> Result<SendableRecordBatchStream> {
        let share = self.shares.get(partition).cloned().unwrap_or_default();
        let files = self.files.clone();
        let projection = self.projection.clone();
        let schema = Arc::clone(&self.schema);
        let batch_rows = self.batch_rows;
        let metrics = BaselineMetrics::new(&self.metrics, partition);
        // Each unit cut into batches of at most `batch_rows` rows and `BATCH_BYTES` bytes.
        let batches = share.into_iter().flat_map(move |(file, range)| {
            let file = Arc::clone(&files[file]);
            let mut start = range.start;
            std::iter::from_fn(move || {
                if start >= range.end {
                    return None;
                }
                let mut end = start;
                let mut bytes = 0;
                // A row that would take the batch past BATCH_BYTES starts the next one (a
                // larger row is a batch of its own).
                while end < range.end
                    && end - start < batch_rows
                    && (end == start || bytes + file.row_bytes(end) <= BATCH_BYTES)
                {
                    bytes += file.row_bytes(end);
                    end += 1;
                }
                // A batch of a chunked file ends on a chunk boundary: the last whole chunk's,
                // or, within a chunk longer than a batch, the chunk's end while the bytes allow
                // (up to 16 batches' rows).
                let chunk = file.chunk_rows();
                if chunk > 1 && end < range.end && !end.is_multiple_of(chunk) {
                    let down = end / chunk * chunk;
                    let up = end.next_multiple_of(chunk).min(range.end);
                    if down > start {
                        end = down;
                    } else if up - start <= batch_rows.saturating_mul(16)
                        && (start..up)
                            .try_fold(0usize, |bytes, row| {
                                Some(bytes + file.row_bytes(row)).filter(|&b| b <= BATCH_BYTES)
                            })
                            .is_some()
                    {
                        end = up;
                    }
                }
                let rows = start..end;
                start = end;
                Some((Arc::clone(&file), rows))
            })
        });
        let out_schema = Arc::clone(&schema);
        let stream = futures::stream::iter(batches.map(move |(file, rows)| {
            let timer = metrics.elapsed_compute().timer();
            let batch = file.batch(rows, &projection, &schema);
            timer.done();
            if let Ok(batch) = &batch {
                metrics.record_output(batch.num_rows());
            }
            batch
        }));
        Ok(Box::pin(RecordBatchStreamAdapter::new(out_schema, stream)))
    }
}
