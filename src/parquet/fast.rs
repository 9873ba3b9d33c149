//! A faster read of tensor columns from Parquet.
//!
//! A tensor column is stored in Parquet as a list of its elements: one repetition and one
//! definition level per element besides the value. arrow-rs reads such a column as a general
//! nested list: it decodes both levels, builds a validity bitmap of the elements from the
//! definition levels, walks the levels once more to find the lists and check their lengths, and
//! builds a second bitmap for the lists. Profiled over a 1,000,000-row 4x4 float32 column
//! (`benches/compare/`), those bitmaps and walks were a third of the whole scan
//! (`build_filtered_validity_bitmap` 17%, `FixedSizeListArrayReader::consume_batch` 15%), and
//! they find nothing in the common case: no NULL tensor and no NULL element.
//!
//! This reader checks the levels where they lie, page by page, in their RLE/bit-packed
//! encoding (module `levels`: a run of the maximum definition level is one comparison; the
//! repetition levels are compared with the mask of list starts 64 at a time), and hands
//! arrow-rs's column reader each page's values alone, as pages of a required column: arrow-rs
//! decodes the values (plain, dictionary, every encoding it knows) straight into one buffer,
//! which becomes the `FixedSizeListArray`'s values as it is. Measured on the file of
//! `benches/compare/` (CLI, 2 cores): the 4x4 float32 column in 0.031 s instead of 0.088 s,
//! four such columns in 0.087 s instead of 0.337 s. (A first version asked arrow-rs's column
//! reader for the levels as `i16`s and checked those: 0.066 s and 0.258 s, the level decoding
//! 40% of its profile.)
//!
//! A row group whose levels say anything but full tensors (a NULL tensor or element, a list of
//! another length), or that fails to read at all, is read again by DataFusion's own reader
//! (the file with an access plan that scans that row group alone), so NULLs, corrupt pages and
//! their errors are DataFusion's.
//!
//! It serves a scan only when nothing else is asked of it: no pushed-down filter, no limit, no
//! partition or virtual columns, no access plan or other extension on the file, and every
//! projected column a tensor (`FixedSizeList`) of float32, float64, int32 or int64 whose
//! Parquet leaf stores exactly that type, with the file's type equal to the table's. A file
//! that fails these checks is read by DataFusion's Parquet reader as before; so is every scan
//! when the environment variable `DATAFUSION_TENSOR_ARROW_SCAN` is set (to compare the two).
//!
//! Row groups are assigned to a scan partition as DataFusion assigns them (the first page's
//! offset lies in the partition's byte range), so a file's row groups are read on all cores.

use std::collections::VecDeque;
use std::fmt;
use std::sync::Arc;

use arrow::array::{
    ArrayRef, ArrowPrimitiveType, FixedSizeListArray, PrimitiveArray, RecordBatch,
    RecordBatchOptions,
};
use arrow::buffer::ScalarBuffer;
use arrow::datatypes::{
    DataType, FieldRef, Float32Type, Float64Type, Int32Type, Int64Type, SchemaRef,
};
use bytes::{Buf, Bytes};
use datafusion::common::{DataFusionError, Result};
use datafusion::datasource::listing::PartitionedFile;
use datafusion::datasource::physical_plan::parquet::ParquetAccessPlan;
use datafusion::datasource::physical_plan::{FileScanConfig, FileSource, ParquetSource};
use datafusion::object_store::path::Path;
use datafusion::object_store::{ObjectStore, ObjectStoreExt};
use datafusion::parquet::arrow::arrow_reader::{ArrowReaderMetadata, ArrowReaderOptions};
use datafusion::parquet::basic::{
    ConvertedType, Encoding, LogicalType, Repetition, Type as PhysicalType,
};
use datafusion::parquet::column::page::{Page, PageMetadata, PageReader};
use datafusion::parquet::column::reader::ColumnReaderImpl;
use datafusion::parquet::data_type::{self as pq, DataType as ParquetDataType};
use datafusion::parquet::errors::ParquetError;
use datafusion::parquet::file::metadata::{ParquetMetaDataReader, RowGroupMetaData};
use datafusion::parquet::file::reader::{ChunkReader, Length};
use datafusion::parquet::file::serialized_reader::SerializedPageReader;
use datafusion::parquet::schema::types::{ColumnDescriptor, Type as SchemaType};
use datafusion::physical_expr::expressions::Column;
use datafusion::physical_plan::metrics::{Count, MetricBuilder};
use datafusion_datasource::morsel::{
    Morsel, MorselPlan, MorselPlanner, Morselizer, PendingMorselPlanner,
};
use futures::StreamExt;
use futures::stream::{self, BoxStream};

use super::levels::full_tensor_levels;

/// The largest row group (its projected tensor values, decoded) this reader reads; larger
/// ones are DataFusion's reader's. A 131,072-row group of four 4x4 float32 tensors is 32 MiB.
const MAX_DECODED_ROW_GROUP_BYTES: u64 = 256 << 20;

/// The environment variable that turns this reader off (any value).
pub const ARROW_SCAN_VARIABLE: &str = "DATAFUSION_TENSOR_ARROW_SCAN";

/// The element types read here, with their Parquet physical type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Element {
    Float32,
    Float64,
    Int32,
    Int64,
}

impl Element {
    fn of(data_type: &DataType) -> Option<Self> {
        match data_type {
            DataType::Float32 => Some(Self::Float32),
            DataType::Float64 => Some(Self::Float64),
            DataType::Int32 => Some(Self::Int32),
            DataType::Int64 => Some(Self::Int64),
            _ => None,
        }
    }

    fn physical(self) -> PhysicalType {
        match self {
            Self::Float32 => PhysicalType::FLOAT,
            Self::Float64 => PhysicalType::DOUBLE,
            Self::Int32 => PhysicalType::INT32,
            Self::Int64 => PhysicalType::INT64,
        }
    }
}

/// One output column: a tensor column of the table.
#[derive(Debug, Clone)]
struct OutputColumn {
    /// Its name in the file (the table's field name).
    name: String,
    /// The table's `FixedSizeList` type.
    data_type: DataType,
    child: FieldRef,
    size: usize,
    element: Element,
}

/// `inner` (the Parquet source's own morselizer), or this reader in front of it when the scan
/// qualifies (module docs).
pub fn maybe_fast(
    inner: Box<dyn Morselizer>,
    source: &dyn FileSource,
    object_store: Arc<dyn ObjectStore>,
    config: &FileScanConfig,
) -> Box<dyn Morselizer> {
    match plan_columns(source, config) {
        Some((columns, schema)) if std::env::var_os(ARROW_SCAN_VARIABLE).is_none() => {
            Box::new(FastMorselizer {
                inner: Arc::from(inner),
                shared: Arc::new(Shared {
                    store: object_store,
                    columns,
                    schema,
                    batch_size: config.batch_size.unwrap_or(8192).max(1),
                    fast: MetricBuilder::new(source.metrics())
                        .global_counter("tensor_row_groups_fast"),
                    fallback: MetricBuilder::new(source.metrics())
                        .global_counter("tensor_row_groups_fallback"),
                }),
            })
        }
        _ => inner,
    }
}

/// The output columns and schema, when the scan is one this reader serves.
fn plan_columns(
    source: &dyn FileSource,
    config: &FileScanConfig,
) -> Option<(Vec<OutputColumn>, SchemaRef)> {
    let parquet = source.downcast_ref::<ParquetSource>()?;
    let crypto = &parquet.table_parquet_options().crypto;
    if source.filter().is_some()
        || config.limit.is_some()
        || crypto.file_decryption.is_some()
        || crypto.factory_id.is_some()
    {
        return None;
    }
    let table = source.table_schema();
    if !table.table_partition_cols().is_empty() || !table.virtual_columns().is_empty() {
        return None;
    }
    let table_schema = table.table_schema();
    let projection = source.projection()?;
    let schema = Arc::new(projection.project_schema(table_schema).ok()?);
    let mut columns = Vec::new();
    for expr in projection.iter() {
        let column = expr.expr.downcast_ref::<Column>()?;
        let field = table_schema.fields().get(column.index())?;
        let DataType::FixedSizeList(child, size) = field.data_type() else {
            return None;
        };
        columns.push(OutputColumn {
            name: field.name().clone(),
            data_type: field.data_type().clone(),
            child: Arc::clone(child),
            size: usize::try_from(*size).ok().filter(|&s| s > 0)?,
            element: Element::of(child.data_type())?,
        });
    }
    if columns.is_empty() {
        return None;
    }
    Some((columns, schema))
}

/// What every planner and morsel of one scan partition shares.
#[derive(Debug)]
struct Shared {
    store: Arc<dyn ObjectStore>,
    columns: Vec<OutputColumn>,
    schema: SchemaRef,
    batch_size: usize,
    /// Row groups read here, and read again by DataFusion's reader (the scan's metrics).
    fast: Count,
    fallback: Count,
}

#[derive(Debug)]
struct FastMorselizer {
    inner: Arc<dyn Morselizer>,
    shared: Arc<Shared>,
}

impl Morselizer for FastMorselizer {
    fn plan_file(&self, file: PartitionedFile) -> Result<Box<dyn MorselPlanner>> {
        if !file.extensions.is_empty() {
            // A caller's access plan, row selection or anything else attached to the file:
            // DataFusion's reader honours them, this one would not.
            return self.inner.plan_file(file);
        }
        Ok(Box::new(OpenFile {
            file,
            inner: Arc::clone(&self.inner),
            shared: Arc::clone(&self.shared),
        }))
    }
}

/// The first step for a file: read its footer, then decide.
#[derive(Debug)]
struct OpenFile {
    file: PartitionedFile,
    inner: Arc<dyn Morselizer>,
    shared: Arc<Shared>,
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
            let metadata = read_metadata(&shared.store, &location, file.object_meta.size).await;
            let Some(file_plan) = metadata
                .ok()
                .and_then(|metadata| FilePlan::new(&shared, metadata, &file, location))
            else {
                // Not a file this reader serves, or a footer it could not read: DataFusion's
                // reader reads it all (and words any error as it always does).
                return inner.plan_file(file);
            };
            Ok(Box::new(RowGroups {
                queue: file_plan.row_groups.iter().copied().collect(),
                file: Arc::new(file_plan),
                shared,
                fallback: Fallback { inner, file },
            }) as Box<dyn MorselPlanner>)
        })))
    }
}

/// The footer of a file of `size` bytes, with its Arrow schema: one read of its last 64 KiB,
/// and a second when the metadata is longer.
async fn read_metadata(
    store: &Arc<dyn ObjectStore>,
    location: &Path,
    size: u64,
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
    let metadata = ParquetMetaDataReader::new().parse_and_finish(&fetched)?;
    Ok(ArrowReaderMetadata::try_new(
        Arc::new(metadata),
        ArrowReaderOptions::new(),
    )?)
}

/// A file this reader reads: where each output column is.
#[derive(Debug)]
struct FilePlan {
    location: Path,
    size: u64,
    metadata: ArrowReaderMetadata,
    /// The Parquet leaf column of each output column.
    leaves: Vec<usize>,
    /// Its row groups in the partition's byte range, in file order.
    row_groups: Vec<usize>,
}

impl FilePlan {
    fn new(
        shared: &Shared,
        metadata: ArrowReaderMetadata,
        file: &PartitionedFile,
        location: Path,
    ) -> Option<Self> {
        let arrow_schema = metadata.schema();
        let parquet_schema = metadata.parquet_schema();
        let mut leaves = Vec::new();
        for column in &shared.columns {
            let (root, field) = arrow_schema.column_with_name(&column.name)?;
            if field.data_type() != &column.data_type {
                return None;
            }
            let mut leaf = None;
            for index in 0..parquet_schema.num_columns() {
                if parquet_schema.get_column_root_idx(index) == root {
                    if leaf.is_some() {
                        return None;
                    }
                    leaf = Some(index);
                }
            }
            let leaf = leaf?;
            let descr = parquet_schema.column(leaf);
            let plain_type = match descr.logical_type_ref() {
                None => descr.converted_type() == ConvertedType::NONE,
                Some(LogicalType::Integer(int)) => {
                    int.is_signed
                        && ((column.element == Element::Int32 && int.bit_width == 32)
                            || (column.element == Element::Int64 && int.bit_width == 64))
                }
                Some(_) => false,
            };
            if descr.max_rep_level() != 1
                || descr.physical_type() != column.element.physical()
                || !plain_type
            {
                return None;
            }
            leaves.push(leaf);
        }
        let row_groups = metadata
            .metadata()
            .row_groups()
            .iter()
            .enumerate()
            .filter(|(_, group)| {
                // DataFusion's rule (`prune_by_range`): the first page of the first column.
                let Some(range) = &file.range else {
                    return true;
                };
                let offset = first_page_offset(group);
                offset >= range.start && offset < range.end
            })
            .map(|(index, _)| index)
            .collect();
        Some(Self {
            location,
            size: file.object_meta.size,
            metadata,
            leaves,
            row_groups,
        })
    }
}

/// The row groups of a file still to read.
#[derive(Debug)]
struct RowGroups {
    file: Arc<FilePlan>,
    queue: VecDeque<usize>,
    shared: Arc<Shared>,
    fallback: Fallback,
}

impl RowGroups {
    /// The I/O of the next row group (its column chunks), as a pending planner.
    fn fetch_next(mut self) -> Option<MorselPlan> {
        let row_group = self.queue.pop_front()?;
        Some(MorselPlan::new().with_pending_planner(async move {
            let group = self.file.metadata.metadata().row_group(row_group);
            let ranges: Vec<std::ops::Range<u64>> = self
                .file
                .leaves
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
            let decoded = self.shared.columns.iter().fold(0u64, |total, column| {
                let element = column.child.data_type().primitive_width().unwrap_or(8) as u64;
                total.saturating_add(rows.saturating_mul(column.size as u64 * element))
            });
            let data = if decoded <= MAX_DECODED_ROW_GROUP_BYTES {
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
struct Fetch {
    morsel: RowGroupMorsel,
    rest: RowGroups,
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
struct Fetched {
    size: u64,
    /// (file offset, bytes) of each column chunk.
    chunks: Vec<(u64, Bytes)>,
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
    fn slice(&self, start: u64, length: Option<usize>) -> Result<Bytes, ParquetError> {
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
struct RowGroupMorsel {
    file: Arc<FilePlan>,
    shared: Arc<Shared>,
    fallback: Fallback,
    row_group: usize,
    /// The column chunks; `None` when they could not be read or were too large to read.
    chunks: Option<Fetched>,
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
struct Fallback {
    inner: Arc<dyn Morselizer>,
    file: PartitionedFile,
}

impl Fallback {
    /// Row group `index` of the file's `count` as DataFusion's reader reads it: the whole file
    /// with an access plan that scans only that row group. (Not a byte range holding only its
    /// first page: a corrupt footer can give two row groups one offset, which would read a row
    /// group twice, or an offset no range can hold, which would read nothing.)
    fn row_group(&self, index: usize, count: usize) -> BoxStream<'static, Result<RecordBatch>> {
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
fn first_page_offset(group: &RowGroupMetaData) -> i64 {
    let first = group.column(0);
    first
        .dictionary_page_offset()
        .unwrap_or_else(|| first.data_page_offset())
}

/// Work left in [`drive`], last to do first.
enum Work {
    Planner(Box<dyn MorselPlanner>),
    Pending(PendingMorselPlanner),
    Batches(BoxStream<'static, Result<RecordBatch>>),
}

/// All batches of a morsel planner, in its logical order: a plan's morsels, then its ready
/// planners, then its pending planner.
fn drive(planner: Box<dyn MorselPlanner>) -> BoxStream<'static, Result<RecordBatch>> {
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

impl RowGroupMorsel {
    /// The row group as batches of the scan's batch size, when all its tensors are plain.
    fn read(&self, chunks: &Fetched) -> Result<Option<Vec<RecordBatch>>> {
        let group = self.file.metadata.metadata().row_group(self.row_group);
        let rows = usize::try_from(group.num_rows()).map_err(|_| {
            DataFusionError::Execution(format!(
                "row group {} has {} rows",
                self.row_group,
                group.num_rows()
            ))
        })?;
        let mut columns: Vec<ArrayRef> = Vec::with_capacity(self.shared.columns.len());
        for (column, &leaf) in self.shared.columns.iter().zip(&self.file.leaves) {
            // A column named twice in the projection is read once.
            if let Some(i) = self.file.leaves[..columns.len()]
                .iter()
                .position(|&l| l == leaf)
            {
                columns.push(Arc::clone(&columns[i]));
                continue;
            }
            let values = match column.element {
                Element::Float32 => {
                    read_values::<pq::FloatType, Float32Type>(chunks, group, rows, leaf, column)?
                }
                Element::Float64 => {
                    read_values::<pq::DoubleType, Float64Type>(chunks, group, rows, leaf, column)?
                }
                Element::Int32 => {
                    read_values::<pq::Int32Type, Int32Type>(chunks, group, rows, leaf, column)?
                }
                Element::Int64 => {
                    read_values::<pq::Int64Type, Int64Type>(chunks, group, rows, leaf, column)?
                }
            };
            let Some(values) = values else {
                return Ok(None);
            };
            columns.push(Arc::new(FixedSizeListArray::try_new(
                Arc::clone(&column.child),
                column.size as i32,
                values,
                None,
            )?));
        }
        let batch = RecordBatch::try_new_with_options(
            Arc::clone(&self.shared.schema),
            columns,
            &RecordBatchOptions::new().with_row_count(Some(rows)),
        )?;
        let size = self.shared.batch_size;
        Ok(Some(
            (0..rows)
                .step_by(size)
                .map(|start| batch.slice(start, size.min(rows - start)))
                .collect(),
        ))
    }
}

/// The values of a tensor column's chunk when every tensor and element in it is non-NULL and
/// every list has the tensor's size; `None` when the levels say otherwise.
///
/// The levels are checked page by page as encoded ([`FullTensorPages`]), and arrow-rs's column
/// reader decodes the values alone: it reads the column as if it were a required column of
/// plain values, from pages that no longer hold levels. Decoding the levels to `i16`s instead
/// (`read_records` with level buffers) and checking those took 40% of a 4-column scan.
fn read_values<P, A>(
    chunks: &Fetched,
    group: &RowGroupMetaData,
    rows: usize,
    leaf: usize,
    column: &OutputColumn,
) -> Result<Option<ArrayRef>>
where
    P: ParquetDataType,
    A: ArrowPrimitiveType<Native = P::T>,
    P::T: arrow::datatypes::ArrowNativeType,
{
    let chunk = group.column(leaf);
    // A chunk of full tensors holds a level for each element of each row; anything else (or a
    // footer that says so) is not read here.
    let Some(total) = rows.checked_mul(column.size) else {
        return Ok(None);
    };
    if usize::try_from(chunk.num_values()).ok() != Some(total) {
        return Ok(None);
    }
    let descr = chunk.column_descr();
    let pages = FullTensorPages {
        inner: SerializedPageReader::new(Arc::new(chunks.clone()), chunk, rows, None)?,
        size: column.size as u64,
        max_def: descr.max_def_level(),
        level: 0,
    };
    let values_only = Arc::new(ColumnDescriptor::new(
        Arc::new(
            SchemaType::primitive_type_builder(descr.name(), descr.physical_type())
                .with_repetition(Repetition::REQUIRED)
                .build()?,
        ),
        0,
        0,
        descr.path().clone(),
    ));
    let mut reader = ColumnReaderImpl::<P>::new(values_only, Box::new(pages));
    // Reserved up front only as far as the footer's sizes can vouch for (a corrupt footer must
    // not make this allocate beyond what the pages hold); the reader grows it past that.
    let vouched = usize::try_from(chunk.uncompressed_size())
        .unwrap_or(0)
        .saturating_mul(8);
    let mut values: Vec<P::T> = Vec::with_capacity(total.min(vouched / size_of::<P::T>()));
    let (_, read, _) = reader.read_records(total, None, None, &mut values)?;
    if read != total {
        return Ok(None);
    }
    Ok(Some(Arc::new(PrimitiveArray::<A>::new(
        ScalarBuffer::from(values),
        None,
    ))))
}

/// A tensor column chunk's pages, each checked to hold full tensors (every definition level
/// the maximum, a repetition level 0 exactly at the start of every `size` levels) and handed on
/// as a page of its values alone. A page that holds anything else is an error (the row group
/// is then read by DataFusion's reader).
struct FullTensorPages {
    inner: SerializedPageReader<Fetched>,
    size: u64,
    max_def: i16,
    /// Levels checked so far in the chunk.
    level: u64,
}

fn not_full() -> ParquetError {
    ParquetError::General("not a column of full tensors".to_string())
}

impl FullTensorPages {
    /// `levels` levels: repetition levels `rep`, definition levels `def`, RLE/bit-packed hybrid.
    fn check(&mut self, rep: &[u8], def: &[u8], levels: usize) -> Result<(), ParquetError> {
        if !full_tensor_levels(rep, def, levels, self.level, self.size, self.max_def) {
            return Err(not_full());
        }
        self.level += levels as u64;
        Ok(())
    }
}

impl Iterator for FullTensorPages {
    type Item = Result<Page, ParquetError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.get_next_page().transpose()
    }
}

impl PageReader for FullTensorPages {
    fn get_next_page(&mut self) -> Result<Option<Page>, ParquetError> {
        let page = match self.inner.get_next_page()? {
            Some(Page::DataPage {
                buf,
                num_values,
                encoding,
                def_level_encoding: Encoding::RLE,
                rep_level_encoding: Encoding::RLE,
                ..
            }) => {
                // Repetition then definition levels, each after its 4-byte length.
                let section = |at: usize| -> Result<(usize, usize), ParquetError> {
                    let len: [u8; 4] = buf
                        .get(at..at + 4)
                        .and_then(|b| b.try_into().ok())
                        .ok_or_else(not_full)?;
                    let end = (at + 4)
                        .checked_add(u32::from_le_bytes(len) as usize)
                        .filter(|&end| end <= buf.len())
                        .ok_or_else(not_full)?;
                    Ok((at + 4, end))
                };
                let rep = section(0)?;
                let def = section(rep.1)?;
                self.check(&buf[rep.0..rep.1], &buf[def.0..def.1], num_values as usize)?;
                values_page(buf.slice(def.1..), num_values, encoding)
            }
            Some(Page::DataPageV2 {
                buf,
                num_values,
                encoding,
                num_nulls: 0,
                def_levels_byte_len,
                rep_levels_byte_len,
                ..
            }) => {
                let rep_end = rep_levels_byte_len as usize;
                let def_end = rep_end
                    .checked_add(def_levels_byte_len as usize)
                    .filter(|&end| end <= buf.len())
                    .ok_or_else(not_full)?;
                self.check(&buf[..rep_end], &buf[rep_end..def_end], num_values as usize)?;
                values_page(buf.slice(def_end..), num_values, encoding)
            }
            Some(page @ Page::DictionaryPage { .. }) => page,
            Some(_) => return Err(not_full()),
            None => return Ok(None),
        };
        Ok(Some(page))
    }

    fn peek_next_page(&mut self) -> Result<Option<PageMetadata>, ParquetError> {
        self.inner.peek_next_page()
    }

    fn skip_next_page(&mut self) -> Result<(), ParquetError> {
        self.inner.skip_next_page()
    }
}

/// A version-1 data page of values only (a required column's page has no level sections).
fn values_page(buf: Bytes, num_values: u32, encoding: Encoding) -> Page {
    Page::DataPage {
        buf,
        num_values,
        encoding,
        def_level_encoding: Encoding::RLE,
        rep_level_encoding: Encoding::RLE,
        statistics: None,
    }
}
