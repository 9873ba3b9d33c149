//! Fetching and scheduling: a file's row groups as morsels ([`RowGroups`], one row group's I/O
//! running while the one before it is decoded), the fetched column chunks ([`Fetched`]), and
//! DataFusion's own reader for a row group this one leaves ([`Fallback`]).

use std::collections::VecDeque;
use std::fmt;
use std::sync::Arc;

use arrow::array::RecordBatch;
use datafusion::common::{DataFusionError, Result};
use datafusion::datasource::listing::PartitionedFile;
use datafusion::datasource::physical_plan::parquet::{ParquetAccessPlan, RowGroupAccess};
use datafusion::execution::memory_pool::{MemoryConsumer, MemoryReservation};
use datafusion::parquet::arrow::arrow_reader::{RowSelection, RowSelector};
use datafusion::parquet::file::metadata::RowGroupMetaData;
use datafusion::physical_plan::metrics::Count;
use datafusion_datasource::morsel::{
    Morsel, MorselPlan, MorselPlanner, Morselizer, PendingMorselPlanner,
};
use futures::StreamExt;
use futures::stream::{self, BoxStream};

use super::fetched::{Fetched, corrupt_message};
use super::mapped::MappedFile;
use super::open::{FilePlan, read_metadata};
use super::row_group::RowGroupReader;
use super::{MAX_DECODED_ROW_GROUP_BYTES, MAX_DECODED_VARIABLE_ROW_GROUP_BYTES, Shared};

/// The first step for a file: read its footer, then decide.
#[derive(Debug)]
pub(super) struct OpenFile {
    pub(super) file: PartitionedFile,
    pub(super) inner: Arc<dyn Morselizer>,
    pub(super) shared: Arc<Shared>,
}

impl MorselPlanner for OpenFile {
    fn plan(self: Box<Self>) -> Result<Option<MorselPlan>> {
        let Self {
            file,
            inner,
            shared,
        } = *self;
        Ok(Some(MorselPlan::new().with_pending_planner(async move {
            let location = file.object_meta.location.clone();
            let metadata = read_metadata(
                &shared.store,
                &location,
                file.object_meta.size,
                shared.scan.page_index,
            )
            .await;
            let file_plan = match metadata {
                Ok(metadata) => FilePlan::new(&shared, metadata, &file, location)?,
                // The footer could not be fetched: the scan's error. DataFusion's reader would
                // fail on it too, and where it succeeded it would assign this partition other
                // row groups than the partitions that read the file here (`middle_byte`).
                Err(err) if is_io_error(&err) => return Err(err),
                Err(_) => None,
            };
            let Some(mut file_plan) = file_plan else {
                // Not a file this reader serves, or a footer it could not read: DataFusion's
                // reader reads it all (and words any error as it always does).
                return inner.plan_file(file);
            };
            file_plan.prune_by_bloom_filters(&shared).await;
            let mapped = if shared.map_files && !file_plan.row_groups.is_empty() {
                MappedFile::open(&file_plan.location, file_plan.size).map(Arc::new)
            } else {
                None
            };
            Ok(Box::new(RowGroups {
                queue: file_plan.row_groups.iter().copied().collect(),
                file: Arc::new(file_plan),
                mapped,
                shared,
                fallback: Fallback { inner, file },
            }) as Box<dyn MorselPlanner>)
        })))
    }
}

/// Whether `err` is (or wraps) the object store's: a read that failed, not bytes that are not
/// a Parquet footer.
fn is_io_error(err: &DataFusionError) -> bool {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(err);
    while let Some(error) = source {
        if error
            .downcast_ref::<datafusion::object_store::Error>()
            .is_some()
        {
            return true;
        }
        source = error.source();
    }
    false
}

/// The row groups of a file still to read.
#[derive(Debug)]
pub(super) struct RowGroups {
    pub(super) file: Arc<FilePlan>,
    pub(super) queue: VecDeque<usize>,
    /// The file mapped into memory, when it is a local file the session lets this reader map
    /// (module [`super::mapped`]): its row groups are slices of the map, not fetched.
    pub(super) mapped: Option<Arc<MappedFile>>,
    pub(super) shared: Arc<Shared>,
    pub(super) fallback: Fallback,
}

impl RowGroups {
    /// The I/O of the next row group (its column chunks), as a pending planner.
    pub(super) fn fetch_next(mut self) -> Option<MorselPlan> {
        let row_group = self.queue.pop_front()?;
        Some(MorselPlan::new().with_pending_planner(async move {
            let group = self.file.metadata.metadata().row_group(row_group);
            // Byte ranges past the file's end (a corrupt footer's offset or size: 6e9 bytes in
            // a file of 3 KB) are refused before they are fetched: the object store would
            // allocate the whole range, and so would DataFusion's reader.
            let ranges: Vec<std::ops::Range<u64>> = self
                .file
                .fetched_leaves
                .iter()
                .map(|&leaf| chunk_range(group, leaf, row_group, self.file.size))
                .collect::<Result<_>>()?;
            // A row group whose footer row count its column chunks do not bear out, or whose
            // values late materialisation would hold whole beyond the limits (the columns the
            // predicate reads, and variable-shape columns, are read whole first), is left to
            // DataFusion's reader unfetched; so is one whose read fails.
            let held = if rows_match_chunks(&self.shared, &self.file, group) {
                match &self.shared.scan.late {
                    Some(late) => held_whole(&self.shared, &self.file, group, &late.first),
                    None => 0,
                }
            } else {
                u64::MAX
            };
            let limit = if self.file.variable_leaves.iter().any(Option::is_some) {
                MAX_DECODED_VARIABLE_ROW_GROUP_BYTES
            } else {
                MAX_DECODED_ROW_GROUP_BYTES
            };
            let mut reservation = None;
            let data = if held <= limit {
                let bytes: u64 = ranges.iter().map(|r| r.end - r.start).sum();
                let mapped = match &self.mapped {
                    Some(file) => {
                        if self.shared.prefault {
                            file.populate(&ranges).await;
                        }
                        file.ranges(&ranges)
                    }
                    None => None,
                };
                // What this reader holds while it decodes the row group: its column chunks
                // when fetched (mapped ones are the page cache's), and what late
                // materialisation reads whole, counted in the session's memory pool. A pool
                // too small for them fails the query, as DataFusion's operators fail.
                if let Some(pool) = &self.shared.memory_pool {
                    let fetched = if mapped.is_some() { 0 } else { bytes };
                    let row_group_memory = MemoryConsumer::new("TensorParquetScan").register(pool);
                    row_group_memory.try_grow(
                        usize::try_from(fetched.saturating_add(held)).unwrap_or(usize::MAX),
                    )?;
                    reservation = Some(row_group_memory);
                }
                let (data, read) = match mapped {
                    Some(mapped) => (Some(mapped), &self.shared.mapped_bytes),
                    None => {
                        let timer = self.shared.fetch_time.timer();
                        let fetched = self.shared.store.get_ranges(&self.file.location, &ranges);
                        let fetched = fetched.await.ok();
                        timer.done();
                        (fetched, &self.shared.fetched_bytes)
                    }
                };
                if data.is_some() {
                    read.add(usize::try_from(bytes).unwrap_or(usize::MAX));
                }
                data
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
                    reservation,
                },
                rest: self,
            }) as Box<dyn MorselPlanner>)
        }))
    }
}

/// The byte range of column chunk `leaf` of row group `group` (number `row_group`) in a file
/// of `size` bytes; an error when the footer puts it anywhere but inside the file. Checked
/// before arrow-rs's `byte_range` (which panics on a negative offset or size) is trusted.
fn chunk_range(
    group: &RowGroupMetaData,
    leaf: usize,
    row_group: usize,
    size: u64,
) -> Result<std::ops::Range<u64>> {
    let column = group.column(leaf);
    let start = column
        .dictionary_page_offset()
        .unwrap_or_else(|| column.data_page_offset());
    let range = u64::try_from(start).ok().and_then(|start| {
        let len = u64::try_from(column.compressed_size()).ok()?;
        Some(start..start.checked_add(len)?)
    });
    match range {
        Some(range) if range.end <= size => Ok(range),
        _ => Err(DataFusionError::Execution(format!(
            "corrupt Parquet footer: the column chunk of column '{}' in row group {row_group} is said to start at byte {start} and hold {} bytes, outside the file's {size} bytes",
            column.column_path().string(),
            column.compressed_size(),
        ))),
    }
}

/// Whether the footer's row count of `group` is what its column chunks read by the scan hold:
/// a value (or level) per row of a column that is not a list, at least one per row of a list,
/// a tensor's elements per row of a tensor column. A footer that says otherwise (`num_rows` of
/// 2^40 over 8 rows, or of 1 over 13) is not trusted here: the buffers of a row group's read
/// are sized by it, and DataFusion's reader reads the rows the pages hold.
fn rows_match_chunks(shared: &Shared, file: &FilePlan, group: &RowGroupMetaData) -> bool {
    let Ok(rows) = u64::try_from(group.num_rows()) else {
        return false;
    };
    let values = |leaf: usize| u64::try_from(group.column(leaf).num_values()).ok();
    let tensors_match = file
        .leaves
        .iter()
        .zip(&shared.scan.columns)
        .all(|(leaf, column)| match (leaf, &column.tensor) {
            (Some(leaf), Some(tensor)) => values(*leaf) == rows.checked_mul(tensor.size as u64),
            _ => true,
        });
    tensors_match
        && file.fetched_leaves.iter().all(|&leaf| {
            let repeated = group.column(leaf).column_descr().max_rep_level() > 0;
            values(leaf).is_some_and(|values| {
                if repeated {
                    values >= rows
                } else {
                    values == rows
                }
            })
        })
}

/// Bytes of decoded values late materialisation reads whole from row group `group`: the
/// fixed-shape tensor columns the predicate reads (`first`), and the variable-shape ones (a
/// level per element, the footer's count, and the shapes); and, for every row, a bit of the
/// predicate's result and 8 bytes a column of the other columns read (an estimate: those
/// buffers are sized by the footer's row count, bounded here).
fn held_whole(shared: &Shared, file: &FilePlan, group: &RowGroupMetaData, first: &[usize]) -> u64 {
    let rows = u64::try_from(group.num_rows()).unwrap_or(u64::MAX);
    let others = (file.other_roots.len() as u64).saturating_mul(8);
    let per_row = rows.saturating_mul(others).saturating_add(rows.div_ceil(8));
    let columns = shared.scan.columns.iter().enumerate();
    columns
        .zip(&file.variable_leaves)
        .fold(per_row, |total, ((index, column), leaves)| {
            let bytes = match (&column.tensor, &column.variable, leaves) {
                (Some(tensor), _, _) if first.contains(&index) => {
                    rows.saturating_mul(tensor.size as u64 * tensor.element.width())
                }
                (_, Some(variable), Some((data, _))) => {
                    u64::try_from(group.column(*data).num_values())
                        .unwrap_or(u64::MAX)
                        .saturating_mul(variable.element.width())
                        .saturating_add(rows.saturating_mul(variable.ndim as u64 * 4))
                }
                _ => 0,
            };
            total.saturating_add(bytes)
        })
}

impl MorselPlanner for RowGroups {
    fn plan(self: Box<Self>) -> Result<Option<MorselPlan>> {
        Ok(self.fetch_next())
    }
}

/// The largest fetched row group (its column chunks' bytes) during whose decoding the next
/// one is read ahead. pyarrow's row groups of 65,536 rows of float32 [768] are 201 MB per
/// column chunk: with the read-ahead, each partition held two, and a `GROUP BY` over 1M such
/// rows peaked at 1,146 megabytes (MiB) where `DuckDB`'s peaked at 855
/// (`benches/compare/aggregate.py`; without it: 594).
/// Below the limit (the float32 [16, 16] pair of `tensor_math.py`: 2 x 64 MiB a row group)
/// the read-ahead keeps I/O and decoding overlapped.
const MAX_READ_AHEAD_BYTES: u64 = 160 << 20;

/// A fetched row group, and the row groups after it.
#[derive(Debug)]
pub(super) struct Fetch {
    pub(super) morsel: RowGroupMorsel,
    pub(super) rest: RowGroups,
}

impl MorselPlanner for Fetch {
    fn plan(self: Box<Self>) -> Result<Option<MorselPlan>> {
        let Self { morsel, rest } = *self;
        let fetched: u64 = morsel.chunks.as_ref().map_or(0, |fetched| {
            fetched
                .chunks
                .iter()
                .map(|(_, bytes)| bytes.len() as u64)
                .sum()
        });
        let morsels = vec![Box::new(morsel) as Box<dyn Morsel>];
        if fetched > MAX_READ_AHEAD_BYTES && rest.mapped.is_none() && !rest.queue.is_empty() {
            // A large fetched row group is decoded before the next one is fetched (mapped
            // ones hold no memory of the process): DataFusion's file stream plans a ready
            // planner only once its morsels are read.
            return Ok(Some(
                MorselPlan::new()
                    .with_morsels(morsels)
                    .with_planners(vec![Box::new(rest) as Box<dyn MorselPlanner>]),
            ));
        }
        // The next row group's I/O runs while this one is decoded.
        Ok(Some(
            rest.fetch_next().unwrap_or_default().with_morsels(morsels),
        ))
    }
}

/// One row group, fetched, to decode.
pub(super) struct RowGroupMorsel {
    pub(super) file: Arc<FilePlan>,
    pub(super) shared: Arc<Shared>,
    pub(super) fallback: Fallback,
    pub(super) row_group: usize,
    /// The column chunks; `None` when they could not be read or were too large to read.
    pub(super) chunks: Option<Fetched>,
    /// Their memory, and what is read whole, in the session's pool (freed with the morsel's
    /// stream).
    pub(super) reservation: Option<MemoryReservation>,
}

impl fmt::Debug for RowGroupMorsel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RowGroupMorsel")
            .field("row_group", &self.row_group)
            .field("chunks", &self.chunks)
            .finish_non_exhaustive()
    }
}

/// Counts a row group in the scan's metrics once its stream ends (read to its end, or left
/// once a limit is met): `tensor_row_groups_fast` unless DataFusion's reader read any of it.
struct Tally {
    fast: Count,
    fallback: Count,
    fell_back: bool,
}

impl Tally {
    fn fall_back(&mut self) {
        if !self.fell_back {
            self.fell_back = true;
            self.fallback.add(1);
        }
    }
}

impl Drop for Tally {
    fn drop(&mut self) {
        if !self.fell_back {
            self.fast.add(1);
        }
    }
}

/// Where a row group's stream stands.
enum Progress {
    /// Read here, a batch at a time.
    Reading(Box<RowGroupReader>),
    /// A page held anything but full tensors: the batches made before it, then DataFusion's
    /// reader from the first row whose output was not made.
    Resuming(
        VecDeque<RecordBatch>,
        BoxStream<'static, Result<RecordBatch>>,
    ),
    /// Read by DataFusion's reader.
    Falling(BoxStream<'static, Result<RecordBatch>>),
    /// Ended by an error.
    Failed,
}

/// A row group's stream: where it stands, and what it needs to hand the row group over.
struct RowGroupStream {
    progress: Progress,
    tally: Tally,
    fallback: Fallback,
    row_group: usize,
    /// The file's row groups, and this one's rows.
    groups: usize,
    rows: usize,
    /// Held as long as the stream: what the row group's read holds, in the memory pool.
    _reservation: Option<MemoryReservation>,
}

impl RowGroupStream {
    /// The next batch, and the stream after it.
    async fn next(mut self) -> Option<(Result<RecordBatch>, Self)> {
        loop {
            match std::mem::replace(&mut self.progress, Progress::Failed) {
                Progress::Reading(mut reader) => match reader.next_batch() {
                    Ok(Some(batch)) => {
                        self.progress = Progress::Reading(reader);
                        return Some((Ok(batch), self));
                    }
                    Ok(None) => return None,
                    // A file found corrupt where DataFusion's reader would panic: the scan's
                    // error, as it is.
                    Err(err) if corrupt_message(&err).is_some() => {
                        return Some((Err(corrupt_error(&err, self.row_group)), self));
                    }
                    // A page of anything but full tensors, or an error: DataFusion's reader
                    // reads the rest of the row group (and words the error if there is one).
                    Err(_) => {
                        self.tally.fall_back();
                        let (from, drop) = match reader.resume() {
                            Ok(resume) => resume,
                            // The rows already made could not be given: no row is dropped
                            // silently.
                            Err(err) => return Some((Err(err), self)),
                        };
                        let (groups, rows) = (self.groups, self.rows);
                        let rest =
                            self.fallback
                                .row_group(self.row_group, groups, from, rows, drop);
                        self.progress = Progress::Resuming(reader.take_ready(), rest);
                    }
                },
                Progress::Resuming(mut ready, rest) => match ready.pop_front() {
                    Some(batch) => {
                        self.progress = Progress::Resuming(ready, rest);
                        return Some((Ok(batch), self));
                    }
                    None => self.progress = Progress::Falling(rest),
                },
                Progress::Falling(mut rest) => {
                    let batch = rest.next().await?;
                    self.progress = Progress::Falling(rest);
                    return Some((batch, self));
                }
                Progress::Failed => return None,
            }
        }
    }
}

impl Morsel for RowGroupMorsel {
    fn into_stream(self: Box<Self>) -> BoxStream<'static, Result<RecordBatch>> {
        let Self {
            file,
            shared,
            fallback,
            row_group,
            chunks,
            reservation,
        } = *self;
        let groups = file.metadata.metadata().num_row_groups();
        let rows =
            usize::try_from(file.metadata.metadata().row_group(row_group).num_rows()).unwrap_or(0);
        let opened = chunks.as_ref().map(|chunks| {
            RowGroupReader::open(Arc::clone(&file), Arc::clone(&shared), row_group, chunks)
        });
        let mut tally = Tally {
            fast: shared.fast.clone(),
            fallback: shared.fallback.clone(),
            fell_back: false,
        };
        let progress = match opened {
            Some(Ok(reader)) => Progress::Reading(Box::new(reader)),
            Some(Err(err)) if corrupt_message(&err).is_some() => {
                let err = corrupt_error(&err, row_group);
                return stream::iter([Err(err)]).boxed();
            }
            // Anything but plain full tensors, or an error: DataFusion's reader reads the row
            // group again (and words the error if there is one).
            None | Some(Err(_)) => {
                tally.fall_back();
                Progress::Falling(fallback.row_group(row_group, groups, 0, rows, None))
            }
        };
        let state = RowGroupStream {
            progress,
            tally,
            fallback,
            row_group,
            groups,
            rows,
            _reservation: reservation,
        };
        stream::unfold(state, RowGroupStream::next).boxed()
    }
}

/// The scan's error for a [`super::fetched::Corrupt`] file, naming the row group.
fn corrupt_error(err: &DataFusionError, row_group: usize) -> DataFusionError {
    let message = corrupt_message(err).unwrap_or_default();
    DataFusionError::Execution(format!(
        "corrupt Parquet data in row group {row_group}: {message}"
    ))
}

/// DataFusion's own reader, for one row group of a file.
#[derive(Debug, Clone)]
pub(super) struct Fallback {
    pub(super) inner: Arc<dyn Morselizer>,
    pub(super) file: PartitionedFile,
}

impl Fallback {
    /// Row group `index` of the file's `count` (of `rows` rows) from row `from` on, as
    /// DataFusion's reader reads it: the whole file with an access plan that scans only those
    /// rows. (Not a byte range holding only its first page: a corrupt footer can give two row
    /// groups one offset, which would read a row group twice, or an offset no range can hold,
    /// which would read nothing.)
    ///
    /// With `drop` (how many of the rows DataFusion's reader gives for the row group, read
    /// whole, lie before `from`: [`RowGroupReader::resume`]), the row group is read whole and
    /// those rows dropped here, not skipped by a row selection: arrow-rs skips records on
    /// other code than it reads them with, and on a corrupt page the two differ (a definition
    /// level past the column's maximum gave other values once skipped over, a corrupt page
    /// header skipped unread gave rows, than DataFusion's reader gives reading the file).
    pub(super) fn row_group(
        &self,
        index: usize,
        count: usize,
        from: usize,
        rows: usize,
        drop: Option<usize>,
    ) -> BoxStream<'static, Result<RecordBatch>> {
        let mut plan = ParquetAccessPlan::new_none(count);
        if from >= rows {
            return stream::empty().boxed();
        }
        let drop = if from == 0 { Some(0) } else { drop };
        if drop.is_some() {
            plan.scan(index);
        } else {
            let selection = RowSelection::from(vec![
                RowSelector::skip(from),
                RowSelector::select(rows - from),
            ]);
            plan.set(index, RowGroupAccess::Selection(selection));
        }
        let mut file = self.file.clone();
        file.range = None;
        file.extensions.insert(plan);
        let batches = match self.inner.plan_file(file) {
            Ok(planner) => drive(planner),
            Err(err) => return stream::iter([Err(err)]).boxed(),
        };
        let drop = match drop {
            Some(drop) if drop > 0 => drop,
            _ => return batches,
        };
        // The first `drop` rows given dropped.
        batches
            .scan(drop, |left, batch| {
                let batch = batch.map(|batch| {
                    let drop = (*left).min(batch.num_rows());
                    *left -= drop;
                    batch.slice(drop, batch.num_rows() - drop)
                });
                futures::future::ready(Some(batch))
            })
            .filter(|batch| {
                futures::future::ready(batch.as_ref().map_or(true, |b| b.num_rows() > 0))
            })
            .boxed()
    }
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
