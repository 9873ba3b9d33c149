//! A file's first step: its footer (and page index) read, and whether this reader serves it
//! ([`FilePlan`]: where each column read is, the row groups of the partition's byte range that
//! pruning leaves).

use std::collections::HashMap;
use std::sync::Arc;

use arrow::buffer::BooleanBuffer;
use bytes::Bytes;
use datafusion::common::{DataFusionError, Result};
use datafusion::datasource::listing::PartitionedFile;
use datafusion::object_store::ObjectStore;
use datafusion::object_store::ObjectStoreExt;
use datafusion::object_store::path::Path;
use datafusion::parquet::arrow::arrow_reader::{ArrowReaderMetadata, ArrowReaderOptions};
use datafusion::parquet::arrow::async_reader::MetadataFetch;
use datafusion::parquet::errors::ParquetError;
use datafusion::parquet::file::metadata::{
    PageIndexPolicy, ParquetMetaDataReader, RowGroupMetaData,
};
use datafusion::physical_optimizer::pruning::PruningPredicate;
use futures::FutureExt;
use futures::future::BoxFuture;

use super::Shared;
use super::columns::Element;
use super::fetched::Fetched;
use super::located;
use super::plan::PageIndex;
use super::prune::{
    pruned_by_bloom_filters, pruned_by_page_index, pruned_by_statistics, pruning_predicate,
};

/// The footer of a file of `size` bytes, with its Arrow schema: one read of its last 64 KiB,
/// and a second when the metadata is longer; the part of its page index `page_index` asks for,
/// when it has one (a third read; one that fails is this function's error).
pub(super) async fn read_metadata(
    store: &Arc<dyn ObjectStore>,
    location: &Path,
    size: u64,
    page_index: PageIndex,
) -> Result<ArrowReaderMetadata> {
    const FOOTER: u64 = 8;
    let tail_start = size.saturating_sub(64 * 1024);
    let mut tail = store.get_range(location, tail_start..size).await?;
    let footer_len = tail.len().checked_sub(FOOTER as usize).and_then(|at| {
        let bytes: [u8; 4] = tail.get(at..at + 4)?.try_into().ok()?;
        Some(u64::from(u32::from_le_bytes(bytes)) + FOOTER)
    });
    let Some(footer_len) = footer_len.filter(|&len| len <= size) else {
        return Err(DataFusionError::Execution(
            "not a Parquet footer".to_string(),
        ));
    };
    let start = size - footer_len;
    if start < tail_start {
        tail = store.get_range(location, start..size).await?;
    }
    let fetched = Fetched {
        size,
        chunks: vec![(start.min(tail_start), tail)],
    };
    let mut metadata = ParquetMetaDataReader::new().parse_and_finish(&fetched)?;
    if page_index != PageIndex::Neither {
        let reader = ParquetMetaDataReader::new_with_metadata(metadata);
        let mut reader = if page_index == PageIndex::Both {
            reader.with_page_index_policy(PageIndexPolicy::Optional)
        } else {
            reader.with_offset_index_policy(PageIndexPolicy::Optional)
        };
        // An index that cannot be read (a bit flipped in it, an offset past the file's end)
        // leaves the file to DataFusion's reader: it fails on such an index where it reads
        // one (to prune pages), and reads the file where it does not.
        reader
            .load_page_index(StoreFetch {
                store,
                location,
                size,
            })
            .await?;
        metadata = reader.finish()?;
    }
    Ok(ArrowReaderMetadata::try_new(
        Arc::new(metadata),
        ArrowReaderOptions::new(),
    )?)
}

/// Ranges of a file of `size` bytes, fetched from its store (the page index's).
pub(super) struct StoreFetch<'a> {
    pub(super) store: &'a Arc<dyn ObjectStore>,
    pub(super) location: &'a Path,
    pub(super) size: u64,
}

impl MetadataFetch for StoreFetch<'_> {
    /// A range past the file's end (a corrupt footer's index offset: 2^40 in a file of 3 KB)
    /// is refused unfetched: the object store would allocate the whole range.
    fn fetch(&mut self, range: std::ops::Range<u64>) -> BoxFuture<'_, Result<Bytes, ParquetError>> {
        async move {
            if range.start > range.end || range.end > self.size {
                return Err(ParquetError::General(format!(
                    "page index at bytes {}..{} outside the file's {} bytes",
                    range.start, range.end, self.size
                )));
            }
            self.store
                .get_range(self.location, range)
                .await
                .map_err(|err| ParquetError::External(Box::new(err)))
        }
        .boxed()
    }
}

/// A file this reader reads: where each column read is.
#[derive(Debug)]
pub(super) struct FilePlan {
    pub(super) location: Path,
    pub(super) size: u64,
    pub(super) metadata: ArrowReaderMetadata,
    /// The Parquet leaf of each read column that is a tensor (`None` for the others).
    pub(super) leaves: Vec<Option<usize>>,
    /// The `data` and `shape` leaves of each read column that is a variable-shape tensor.
    pub(super) variable_leaves: Vec<Option<(usize, usize)>>,
    /// The root (top-level) column of each other column, in read order.
    pub(super) other_roots: Vec<usize>,
    /// The leaves whose column chunks a row group's read fetches.
    pub(super) fetched_leaves: Vec<usize>,
    /// Its row groups in the partition's byte range, in file order.
    pub(super) row_groups: Vec<usize>,
    /// The scan's predicate as DataFusion's pruning evaluates it over the file's schema (by
    /// the statistics, then the bloom filters).
    pub(super) pruning: Option<PruningPredicate>,
    /// The rows of a row group its page index leaves (pages whose statistics rule the
    /// predicate out dropped), for the row groups where it drops any.
    pub(super) page_selections: HashMap<usize, BooleanBuffer>,
}

impl FilePlan {
    /// Its row groups (those its statistics left) less those whose bloom filters rule the
    /// scan's predicate out ([`pruned_by_bloom_filters`]).
    pub(super) async fn prune_by_bloom_filters(&mut self, shared: &Shared) {
        let candidates = std::mem::take(&mut self.row_groups);
        self.row_groups = pruned_by_bloom_filters(
            shared,
            &self.metadata,
            self.pruning.as_ref(),
            candidates,
            &self.location,
            self.size,
        )
        .await;
    }

    pub(super) fn new(
        shared: &Shared,
        metadata: ArrowReaderMetadata,
        file: &PartitionedFile,
        location: Path,
    ) -> Result<Option<Self>> {
        let arrow_schema = metadata.schema();
        let parquet_schema = metadata.parquet_schema();
        let mut leaves = Vec::new();
        let mut variable_leaves = Vec::new();
        let mut other_roots = Vec::new();
        let mut fetched_leaves = Vec::new();
        for column in &shared.scan.columns {
            // The file's type must be the table's: DataFusion's reader would cast it.
            let Some((root, field)) = arrow_schema.column_with_name(&column.name) else {
                return Ok(None);
            };
            if field.data_type() != &column.data_type {
                return Ok(None);
            }
            let root_leaves: Vec<usize> = (0..parquet_schema.num_columns())
                .filter(|&index| parquet_schema.get_column_root_idx(index) == root)
                .collect();
            fetched_leaves.extend(root_leaves.iter().copied());
            if let Some(variable) = &column.variable {
                // The struct's two lists, in its field order: each a list of one level of
                // repetition, of the element type and of Int32 as arrow-rs reads them.
                let [data, shape] = root_leaves[..] else {
                    return Ok(None);
                };
                let (data_descr, shape_descr) =
                    (parquet_schema.column(data), parquet_schema.column(shape));
                if data_descr.max_rep_level() != 1
                    || shape_descr.max_rep_level() != 1
                    || !variable.element.stored_in(&data_descr)
                    || !Element::Int32.stored_in(&shape_descr)
                {
                    return Ok(None);
                }
                leaves.push(None);
                variable_leaves.push(Some((data, shape)));
                continue;
            }
            variable_leaves.push(None);
            let Some(tensor) = &column.tensor else {
                leaves.push(None);
                other_roots.push(root);
                continue;
            };
            let [leaf] = root_leaves[..] else {
                return Ok(None);
            };
            let descr = parquet_schema.column(leaf);
            if descr.max_rep_level() != 1 || !tensor.element.stored_in(&descr) {
                return Ok(None);
            }
            leaves.push(Some(leaf));
        }
        fetched_leaves.sort_unstable();
        fetched_leaves.dedup();
        let row_groups = metadata
            .metadata()
            .row_groups()
            .iter()
            .enumerate()
            .filter(|(_, group)| {
                let Some(range) = &file.range else {
                    return true;
                };
                let middle = middle_byte(group, file.object_meta.size);
                middle >= range.start && middle < range.end
            })
            .map(|(index, _)| index)
            .collect();
        let pruning = shared.scan.predicate.as_ref().and_then(|predicate| {
            pruning_predicate(predicate, shared.scan.max_in_list_size, metadata.schema())
        });
        let row_groups = match &pruning {
            Some(pruning) => pruned_by_statistics(pruning, &metadata, row_groups),
            None => row_groups,
        };
        let (row_groups, page_selections) = match &shared.scan.predicate {
            Some(predicate) if shared.scan.page_index == PageIndex::Both => {
                pruned_by_page_index(predicate, &metadata, row_groups)?
            }
            _ => (row_groups, HashMap::new()),
        };
        // An offset index arrow-rs would panic on is the query's error before it is used
        // (`located`): first rows that fall in a row group pruned in part (rows are skipped by
        // them), a page outside its chunk in any other (the chunk is sliced by it; where rows
        // are skipped, the pages read are fetched from the file one by one).
        let (pruned_in_part, read_whole): (Vec<usize>, Vec<usize>) =
            row_groups.iter().copied().partition(|index| {
                page_selections
                    .get(index)
                    .is_some_and(|rows| rows.count_set_bits() < rows.len())
            });
        located::refuse_falling(metadata.metadata(), &fetched_leaves, &pruned_in_part)?;
        located::refuse_outside(metadata.metadata(), &fetched_leaves, &read_whole)?;
        Ok(Some(Self {
            location,
            size: file.object_meta.size,
            metadata,
            leaves,
            variable_leaves,
            other_roots,
            fetched_leaves,
            row_groups,
            pruning,
            page_selections,
        }))
    }
}

/// The byte that assigns a row group to a scan partition: the middle of the bytes its column
/// chunks span (from the first chunk's first page to the last chunk's end), so that a row
/// group goes to the partition whose byte range holds most of it.
///
/// DataFusion's reader (`prune_by_range`) assigns a row group by its first page instead. Its
/// byte ranges are the file cut in equal parts, and a row group starts a few bytes after the
/// row groups before it end: the cut falls just after the start, and the row group goes to
/// the partition before, so partitions get uneven shares (measured:
/// docs/src/benchmarks/choices.md). Every partition of a scan that this reader serves uses this rule, and one whose file
/// it does not serve is DataFusion's for every partition (the reasons are the file's, not the
/// partition's; an I/O error reading the footer is the scan's error, not a fallback:
/// [`super::fetch::OpenFile`]), so each row group is read once.
///
/// The span is cut to the file's `size` bytes: a corrupt footer's chunk of 6e9 bytes (or at
/// byte 2^40) in a file of a few KB still belongs to a partition, which finds it outside the
/// file (the scan's error) instead of no partition reading it.
fn middle_byte(group: &RowGroupMetaData, size: u64) -> i64 {
    let spans = group.columns().iter().map(|column| {
        let start = column
            .dictionary_page_offset()
            .unwrap_or_else(|| column.data_page_offset());
        (start, start.saturating_add(column.compressed_size().max(0)))
    });
    let (start, end) = spans.fold((i64::MAX, i64::MIN), |(start, end), (s, e)| {
        (start.min(s), end.max(e))
    });
    let last = i64::try_from(size)
        .unwrap_or(i64::MAX)
        .saturating_sub(1)
        .max(0);
    let start = start.clamp(0, last);
    let end = end.clamp(start, last);
    start + (end - start) / 2
}
