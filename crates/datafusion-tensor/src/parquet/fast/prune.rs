//! Row groups and pages ruled out before anything is fetched, as DataFusion's reader rules them
//! out: by row-group statistics, by bloom filters and by the page index's column statistics.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use arrow::array::{ArrayRef, BooleanArray, BooleanBufferBuilder, UInt64Array};
use arrow::buffer::BooleanBuffer;
use arrow::datatypes::{Schema, SchemaRef};
use datafusion::common::pruning::PruningStatistics;
use datafusion::common::{Result, ScalarValue};
use datafusion::datasource::physical_plan::parquet::{
    BloomFilterStatistics, PagePruningAccessPlanFilter, ParquetAccessPlan, ParquetFileMetrics,
    RowGroupAccess,
};
use datafusion::object_store::ObjectStore;
use datafusion::object_store::ObjectStoreExt;
use datafusion::object_store::path::Path;
use datafusion::parquet::arrow::arrow_reader::ArrowReaderMetadata;
use datafusion::parquet::arrow::arrow_reader::statistics::StatisticsConverter;
use datafusion::parquet::arrow::parquet_column;
use datafusion::parquet::bloom_filter::Sbbf;
use datafusion::parquet::file::metadata::{ColumnChunkMetaData, RowGroupMetaData};
use datafusion::parquet::schema::types::SchemaDescriptor;
use datafusion::physical_expr::PhysicalExpr;
use datafusion::physical_expr::utils::{collect_columns, reassign_expr_columns};
use datafusion::physical_optimizer::pruning::{PruningPredicate, PruningPredicateBuilder};
use datafusion::physical_plan::metrics::ExecutionPlanMetricsSet;

use super::Shared;
use super::fetched::Fetched;
use super::located;

/// The most rows of a row group whose page-index selection is kept as a mask (16 MiB of it);
/// a larger row group (or a footer that says so) is read whole, the predicate evaluated on
/// every row.
const MAX_MASK_ROWS: usize = 1 << 27;

/// The row groups among `candidates` that keep rows once pages whose column-index statistics
/// rule `predicate` out are dropped, and the rows they keep where pages are dropped, as
/// DataFusion's reader prunes pages (`PagePruningAccessPlanFilter`, its own code); every
/// candidate whole when the file has no page index.
pub(super) fn pruned_by_page_index(
    predicate: &Arc<dyn PhysicalExpr>,
    metadata: &ArrowReaderMetadata,
    candidates: Vec<usize>,
) -> Result<(Vec<usize>, HashMap<usize, BooleanBuffer>)> {
    let file = metadata.metadata();
    let schema = metadata.schema();
    let Some(expr) = reassign_expr_columns(Arc::clone(predicate), schema)
        .ok()
        .filter(|_| file.column_index().is_some() && file.offset_index().is_some())
    else {
        return Ok((candidates, HashMap::new()));
    };
    let filter = PagePruningAccessPlanFilter::new(&expr, Arc::clone(schema));
    if filter.filter_number() > 0 {
        // The pruning counts the rows of the pages of the predicate's columns by their first
        // rows (and panics where they fall): checked first.
        let parquet_schema = metadata.parquet_schema();
        let roots: HashSet<usize> = collect_columns(&expr)
            .iter()
            .map(datafusion::physical_expr::expressions::Column::index)
            .collect();
        let leaves: Vec<usize> = (0..parquet_schema.num_columns())
            .filter(|&leaf| roots.contains(&parquet_schema.get_column_root_idx(leaf)))
            .collect();
        located::refuse_falling(file, &leaves, &candidates)?;
    }
    let mut plan = ParquetAccessPlan::new_none(file.num_row_groups());
    for &index in &candidates {
        plan.scan(index);
    }
    // Its metrics are the scan's own business: counted here into a set nobody reads.
    let metrics = ParquetFileMetrics::new(0, "", &ExecutionPlanMetricsSet::new());
    let plan =
        filter.prune_plan_with_page_index(plan, schema, metadata.parquet_schema(), file, &metrics);
    let mut kept = Vec::with_capacity(candidates.len());
    let mut selections = HashMap::new();
    for index in candidates {
        match &plan.inner()[index] {
            RowGroupAccess::Skip => {}
            RowGroupAccess::Scan => kept.push(index),
            RowGroupAccess::Selection(selection) => {
                let rows = usize::try_from(file.row_group(index).num_rows()).unwrap_or(0);
                // A selection of other than the row group's rows: read whole (the predicate
                // is evaluated on every row all the same). Counted before the mask is built:
                // its rows come from the footer and the offset index, which may lie.
                let selected = selection.iter().try_fold(0usize, |total, selector| {
                    total.checked_add(selector.row_count)
                });
                if selected != Some(rows) || rows > MAX_MASK_ROWS {
                    kept.push(index);
                    continue;
                }
                let mut mask = BooleanBufferBuilder::new(rows);
                for selector in selection.iter() {
                    mask.append_n(selector.row_count, !selector.skip);
                }
                let mask = mask.finish();
                if mask.count_set_bits() > 0 {
                    kept.push(index);
                    selections.insert(index, mask);
                }
            }
        }
    }
    Ok((kept, selections))
}

/// The row groups among `candidates` that may hold rows the scan's predicate (`pruning`) holds
/// for, by their statistics, as DataFusion's reader prunes them (`RowGroupAccessPlanFilter::
/// prune_by_statistics`, whose statistics adapter this repeats: it is not public); all of them
/// when the statistics cannot tell.
pub(super) fn pruned_by_statistics(
    pruning: &PruningPredicate,
    metadata: &ArrowReaderMetadata,
    candidates: Vec<usize>,
) -> Vec<usize> {
    let schema = metadata.schema();
    let statistics = RowGroupStatistics {
        parquet_schema: metadata.parquet_schema(),
        arrow_schema: schema,
        groups: candidates
            .iter()
            .map(|&index| metadata.metadata().row_group(index))
            .collect(),
    };
    match pruning.prune(&statistics) {
        Ok(keep) => candidates
            .into_iter()
            .zip(keep)
            .filter_map(|(index, keep)| keep.then_some(index))
            .collect(),
        Err(_) => candidates,
    }
}

/// `predicate` over the file's `schema` as DataFusion's pruning evaluates it; `None` when it
/// cannot prune.
pub(super) fn pruning_predicate(
    predicate: &Arc<dyn PhysicalExpr>,
    max_in_list_size: usize,
    schema: &SchemaRef,
) -> Option<PruningPredicate> {
    let expr = reassign_expr_columns(Arc::clone(predicate), schema).ok()?;
    PruningPredicateBuilder::new()
        .with_file_schema(Arc::clone(schema))
        .with_max_in_list_size(max_in_list_size)
        .build(expr)
        .map(Arc::unwrap_or_clone)
}

/// The file's row groups (those its statistics left) whose bloom filters may hold the values
/// the scan's predicate compares columns with, as DataFusion's reader prunes them after the
/// statistics (`RowGroupAccessPlanFilter::prune_by_bloom_filters`, with filters read as its
/// opener reads them); a filter that cannot be read rules nothing out.
pub(super) async fn pruned_by_bloom_filters(
    shared: &Shared,
    metadata: &ArrowReaderMetadata,
    pruning: Option<&PruningPredicate>,
    candidates: Vec<usize>,
    location: &Path,
    size: u64,
) -> Vec<usize> {
    let scan = &shared.scan;
    let schema = metadata.schema();
    let Some(pruning) = pruning.filter(|_| scan.bloom_filters && !candidates.is_empty()) else {
        return candidates;
    };
    let parquet_schema = metadata.parquet_schema();
    let columns: Vec<(String, usize)> = pruning
        .literal_columns()
        .into_iter()
        .filter_map(|name| {
            let (leaf, _) = parquet_column(parquet_schema, schema, &name)?;
            Some((name, leaf))
        })
        .collect();
    let mut kept = Vec::with_capacity(candidates.len());
    for group in candidates {
        let chunks = metadata.metadata().row_group(group).columns();
        let mut filters = BloomFilterStatistics::with_capacity(columns.len());
        for (name, leaf) in &columns {
            if let Some(filter) =
                read_bloom_filter(&shared.store, location, size, &chunks[*leaf]).await
            {
                let descr = parquet_schema.column(*leaf);
                filters.insert(name, filter, descr.physical_type(), descr.type_length());
            }
        }
        let holds = pruning
            .prune(&filters)
            .map_or(true, |holds| holds.first().copied().unwrap_or(true));
        if holds {
            kept.push(group);
        }
    }
    kept
}

/// A column chunk's bloom filter, when the footer gives its offset and length (every writer
/// since parquet-format 2.10 does; without a length, none is read: it rules nothing out) and it
/// reads.
pub(super) async fn read_bloom_filter(
    store: &Arc<dyn ObjectStore>,
    location: &Path,
    size: u64,
    chunk: &ColumnChunkMetaData,
) -> Option<Sbbf> {
    let start = u64::try_from(chunk.bloom_filter_offset()?).ok()?;
    let end = start.checked_add(u64::try_from(chunk.bloom_filter_length()?).ok()?)?;
    if end > size {
        return None;
    }
    let bytes = store.get_range(location, start..end).await.ok()?;
    let fetched = Fetched {
        size,
        chunks: vec![(start, bytes)],
    };
    // A filter of no blocks would make every lookup index past its end.
    Sbbf::read_from_column_chunk(chunk, &fetched)
        .ok()?
        .filter(|filter| filter.num_blocks() > 0)
}

/// Row groups' column statistics, as DataFusion's pruning asks for them.
pub(super) struct RowGroupStatistics<'a> {
    pub(super) parquet_schema: &'a SchemaDescriptor,
    pub(super) arrow_schema: &'a Schema,
    pub(super) groups: Vec<&'a RowGroupMetaData>,
}

impl RowGroupStatistics<'_> {
    pub(super) fn converter(
        &self,
        column: &datafusion::common::Column,
    ) -> Option<StatisticsConverter<'_>> {
        // A missing null count means none, as DataFusion reads older writers' statistics.
        StatisticsConverter::try_new(&column.name, self.arrow_schema, self.parquet_schema)
            .ok()
            .map(|converter| converter.with_missing_null_counts_as_zero(true))
    }
}

impl PruningStatistics for RowGroupStatistics<'_> {
    fn min_values(&self, column: &datafusion::common::Column) -> Option<ArrayRef> {
        self.converter(column)?
            .row_group_mins(self.groups.iter().copied())
            .ok()
    }

    fn max_values(&self, column: &datafusion::common::Column) -> Option<ArrayRef> {
        self.converter(column)?
            .row_group_maxes(self.groups.iter().copied())
            .ok()
    }

    fn num_containers(&self) -> usize {
        self.groups.len()
    }

    fn null_counts(&self, column: &datafusion::common::Column) -> Option<ArrayRef> {
        let counts = self
            .converter(column)?
            .row_group_null_counts(self.groups.iter().copied())
            .ok()?;
        Some(Arc::new(counts))
    }

    fn row_counts(&self) -> Option<ArrayRef> {
        let counts: UInt64Array = self
            .groups
            .iter()
            .map(|group| u64::try_from(group.num_rows()).ok())
            .collect();
        Some(Arc::new(counts))
    }

    fn contained(
        &self,
        _column: &datafusion::common::Column,
        _values: &HashSet<ScalarValue>,
    ) -> Option<BooleanArray> {
        None
    }
}
