//! Fetching and scheduling: a file's row groups as morsels ([`RowGroups`], one row group's I/O
//! running while the one before it is decoded), the fetched column chunks ([`Fetched`]), and
//! DataFusion's own reader for a row group this one leaves ([`Fallback`]).

use std::collections::VecDeque;
use std::fmt;
use std::sync::Arc;

use arrow::array::RecordBatch;
use bytes::Buf;
use bytes::Bytes;
use datafusion::common::Result;
use datafusion::datasource::listing::PartitionedFile;
use datafusion::datasource::physical_plan::parquet::ParquetAccessPlan;
use datafusion::parquet::errors::ParquetError;
use datafusion::parquet::file::metadata::RowGroupMetaData;
use datafusion::parquet::file::reader::{ChunkReader, Length};
use datafusion_datasource::morsel::{
    Morsel, MorselPlan, MorselPlanner, Morselizer, PendingMorselPlanner,
};
use futures::StreamExt;
use futures::stream::{self, BoxStream};

use super::open::FilePlan;
use super::{MAX_DECODED_ROW_GROUP_BYTES, MAX_DECODED_VARIABLE_ROW_GROUP_BYTES, Shared};

/// The row groups of a file still to read.
#[derive(Debug)]
pub(super) struct RowGroups {
    pub(super) file: Arc<FilePlan>,
    pub(super) queue: VecDeque<usize>,
    pub(super) shared: Arc<Shared>,
    pub(super) fallback: Fallback,
}

impl RowGroups {
    /// The I/O of the next row group (its column chunks), as a pending planner.
    pub(super) fn fetch_next(mut self) -> Option<MorselPlan> {
        let row_group = self.queue.pop_front()?;
        Some(MorselPlan::new().with_pending_planner(async move {
            let group = self.file.metadata.metadata().row_group(row_group);
            let ranges: Vec<std::ops::Range<u64>> = self
                .file
                .fetched_leaves
                .iter()
                .map(|&leaf| {
                    let (start, len) = group.column(leaf).byte_range();
                    start..start.saturating_add(len)
                })
                .collect();
            // A failed read (a footer whose offsets point past the file) is left to
            // DataFusion's reader, as a failed decode is; so is a row group too large to
            // decode at once (this reader holds a row group's values whole, DataFusion's one
            // batch of them).
            let rows = u64::try_from(group.num_rows()).unwrap_or(u64::MAX);
            let columns = self.shared.scan.columns.iter();
            let decoded =
                columns
                    .zip(&self.file.variable_leaves)
                    .fold(0u64, |total, (column, leaves)| {
                        let bytes = match (&column.tensor, &column.variable, leaves) {
                            (Some(tensor), _, _) => {
                                rows.saturating_mul(tensor.size as u64 * tensor.element.width())
                            }
                            // A level per element (the footer's count), and the shapes.
                            (_, Some(variable), Some((data, _))) => {
                                u64::try_from(group.column(*data).num_values())
                                    .unwrap_or(u64::MAX)
                                    .saturating_mul(variable.element.width())
                                    .saturating_add(rows.saturating_mul(variable.ndim as u64 * 4))
                            }
                            _ => 0,
                        };
                        total.saturating_add(bytes)
                    });
            let limit = if self.file.variable_leaves.iter().any(Option::is_some) {
                MAX_DECODED_VARIABLE_ROW_GROUP_BYTES
            } else {
                MAX_DECODED_ROW_GROUP_BYTES
            };
            let data = if decoded <= limit {
                self.shared
                    .store
                    .get_ranges(&self.file.location, &ranges)
                    .await
                    .ok()
            } else {
                None
            };
            let chunks = data.map(|data| Fetched {
                size: self.file.size,
                chunks: ranges.iter().map(|r| r.start).zip(data).collect(),
            });
            Ok(Box::new(Fetch {
                morsel: RowGroupMorsel {
                    file: Arc::clone(&self.file),
                    shared: Arc::clone(&self.shared),
                    fallback: self.fallback.clone(),
                    row_group,
                    chunks,
                },
                rest: self,
            }) as Box<dyn MorselPlanner>)
        }))
    }
}

impl MorselPlanner for RowGroups {
    fn plan(self: Box<Self>) -> Result<Option<MorselPlan>> {
        Ok(self.fetch_next())
    }
}

/// A fetched row group, and the row groups after it.
#[derive(Debug)]
pub(super) struct Fetch {
    pub(super) morsel: RowGroupMorsel,
    pub(super) rest: RowGroups,
}

impl MorselPlanner for Fetch {
    fn plan(self: Box<Self>) -> Result<Option<MorselPlan>> {
        let Self { morsel, rest } = *self;
        let morsels = vec![Box::new(morsel) as Box<dyn Morsel>];
        // The next row group's I/O runs while this one is decoded.
        Ok(Some(
            rest.fetch_next().unwrap_or_default().with_morsels(morsels),
        ))
    }
}

/// A row group's fetched column chunks: the byte ranges of the file a reader may ask for.
#[derive(Clone)]
pub(super) struct Fetched {
    pub(super) size: u64,
    /// (file offset, bytes) of each column chunk.
    pub(super) chunks: Vec<(u64, Bytes)>,
}

impl fmt::Debug for Fetched {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Fetched")
            .field("size", &self.size)
            .field("chunks", &self.chunks.len())
            .finish()
    }
}

impl Fetched {
    pub(super) fn slice(&self, start: u64, length: Option<usize>) -> Result<Bytes, ParquetError> {
        for (offset, bytes) in &self.chunks {
            let end = offset.saturating_add(bytes.len() as u64);
            // A read at the end of one chunk is the start of the next (adjacent chunks).
            if start >= *offset && (start < end || (start == end && length == Some(0))) {
                let from = (start - offset) as usize;
                let to = match length {
                    Some(length) => from.checked_add(length).filter(|&to| to <= bytes.len()),
                    None => Some(bytes.len()),
                };
                if let Some(to) = to {
                    return Ok(bytes.slice(from..to));
                }
            }
        }
        Err(ParquetError::General(format!(
            "read of bytes {start}..{} outside the column chunks fetched",
            length.map_or("end".to_string(), |l| start
                .saturating_add(l as u64)
                .to_string())
        )))
    }
}

impl Length for Fetched {
    fn len(&self) -> u64 {
        self.size
    }
}

impl ChunkReader for Fetched {
    type T = bytes::buf::Reader<Bytes>;

    fn get_read(&self, start: u64) -> Result<Self::T, ParquetError> {
        Ok(self.slice(start, None)?.reader())
    }

    fn get_bytes(&self, start: u64, length: usize) -> Result<Bytes, ParquetError> {
        self.slice(start, Some(length))
    }
}

/// One row group, fetched, to decode.
#[derive(Debug)]
pub(super) struct RowGroupMorsel {
    pub(super) file: Arc<FilePlan>,
    pub(super) shared: Arc<Shared>,
    pub(super) fallback: Fallback,
    pub(super) row_group: usize,
    /// The column chunks; `None` when they could not be read or were too large to read.
    pub(super) chunks: Option<Fetched>,
}

impl Morsel for RowGroupMorsel {
    fn into_stream(self: Box<Self>) -> BoxStream<'static, Result<RecordBatch>> {
        stream::once(async move {
            match self.chunks.as_ref().map(|chunks| self.read(chunks)) {
                Some(Ok(Some(batches))) => {
                    self.shared.fast.add(1);
                    stream::iter(batches.into_iter().map(Ok)).boxed()
                }
                // Anything but plain full tensors, or an error: DataFusion's reader reads the
                // row group again (and words the error if there is one).
                None | Some(Ok(None) | Err(_)) => {
                    self.shared.fallback.add(1);
                    let groups = self.file.metadata.metadata().num_row_groups();
                    self.fallback.row_group(self.row_group, groups)
                }
            }
        })
        .flatten()
        .boxed()
    }
}

/// DataFusion's own reader, for one row group of a file.
#[derive(Debug, Clone)]
pub(super) struct Fallback {
    pub(super) inner: Arc<dyn Morselizer>,
    pub(super) file: PartitionedFile,
}

impl Fallback {
    /// Row group `index` of the file's `count` as DataFusion's reader reads it: the whole file
    /// with an access plan that scans only that row group. (Not a byte range holding only its
    /// first page: a corrupt footer can give two row groups one offset, which would read a row
    /// group twice, or an offset no range can hold, which would read nothing.)
    pub(super) fn row_group(
        &self,
        index: usize,
        count: usize,
    ) -> BoxStream<'static, Result<RecordBatch>> {
        let mut plan = ParquetAccessPlan::new_none(count);
        plan.scan(index);
        let mut file = self.file.clone();
        file.range = None;
        file.extensions.insert(plan);
        match self.inner.plan_file(file) {
            Ok(planner) => drive(planner),
            Err(err) => stream::iter([Err(err)]).boxed(),
        }
    }
}

/// Where a row group starts for DataFusion's assignment of row groups to byte ranges
/// (`prune_by_range`): the first page, dictionary or data, of its first column.
pub(super) fn first_page_offset(group: &RowGroupMetaData) -> i64 {
    let first = group.column(0);
    first
        .dictionary_page_offset()
        .unwrap_or_else(|| first.data_page_offset())
}

/// Work left in [`drive`], last to do first.
pub(super) enum Work {
    Planner(Box<dyn MorselPlanner>),
    Pending(PendingMorselPlanner),
    Batches(BoxStream<'static, Result<RecordBatch>>),
}

/// All batches of a morsel planner, in its logical order: a plan's morsels, then its ready
/// planners, then its pending planner.
pub(super) fn drive(planner: Box<dyn MorselPlanner>) -> BoxStream<'static, Result<RecordBatch>> {
    stream::unfold(vec![Work::Planner(planner)], |mut work| async move {
        loop {
            match work.pop()? {
                Work::Batches(mut batches) => {
                    if let Some(batch) = batches.next().await {
                        work.push(Work::Batches(batches));
                        return Some((batch, work));
                    }
                }
                Work::Planner(planner) => match planner.plan() {
                    Ok(None) => {}
                    Ok(Some(mut plan)) => {
                        if let Some(pending) = plan.take_pending_planner() {
                            work.push(Work::Pending(pending));
                        }
                        let planners = plan.take_ready_planners();
                        work.extend(planners.into_iter().rev().map(Work::Planner));
                        let morsels = plan.take_morsels();
                        work.extend(
                            morsels
                                .into_iter()
                                .rev()
                                .map(|morsel| Work::Batches(morsel.into_stream())),
                        );
                    }
                    Err(err) => return Some((Err(err), Vec::new())),
                },
                Work::Pending(pending) => match pending.await {
                    Ok(planner) => work.push(Work::Planner(planner)),
                    Err(err) => return Some((Err(err), Vec::new())),
                },
            }
        }
    })
    .boxed()
}
