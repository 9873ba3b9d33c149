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
//! This reader asks arrow-rs's column reader for the values and the levels only
//! (`ColumnReaderImpl::read_records`: the same page, dictionary and level decoding), checks
//! them in one pass (a value for every level, so no NULL tensor or element; every list exactly
//! the tensor's size, from the repetition levels), and puts the values buffer under a `FixedSizeListArray` as it is. A row
//! group whose levels say anything else (a NULL tensor or element, a list of another length) is
//! read again by arrow-rs's own reader from the bytes already fetched, so the result is always
//! arrow-rs's.
//!
//! It serves a scan only when nothing else is asked of it: no pushed-down filter, no limit, no
//! partition or virtual columns, and every projected column a tensor (`FixedSizeList`) of
//! float32, float64, int32 or int64 whose Parquet leaf stores exactly that type, with the
//! file's type equal to the table's. A file that fails these checks is read by DataFusion's
//! Parquet reader as before; so is every scan when the environment variable
//! `DATAFUSION_TENSOR_ARROW_SCAN` is set (to compare the two).
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
use datafusion::datasource::listing::{FileRange, PartitionedFile};
use datafusion::datasource::physical_plan::{FileScanConfig, FileSource, ParquetSource};
use datafusion::object_store::path::Path;
use datafusion::object_store::{ObjectStore, ObjectStoreExt};
use datafusion::parquet::arrow::arrow_reader::{ArrowReaderMetadata, ArrowReaderOptions};
use datafusion::parquet::basic::{ConvertedType, LogicalType, Type as PhysicalType};
use datafusion::parquet::column::reader::get_typed_column_reader;
use datafusion::parquet::data_type::{self as pq, DataType as ParquetDataType};
use datafusion::parquet::errors::ParquetError;
use datafusion::parquet::file::metadata::{ParquetMetaDataReader, RowGroupMetaData};
use datafusion::parquet::file::properties::ReaderProperties;
use datafusion::parquet::file::reader::{ChunkReader, Length, RowGroupReader};
use datafusion::parquet::file::serialized_reader::SerializedRowGroupReader;
use datafusion::physical_expr::expressions::Column;
use datafusion::physical_plan::metrics::{Count, MetricBuilder};
use datafusion_datasource::morsel::{
    Morsel, MorselPlan, MorselPlanner, Morselizer, PendingMorselPlanner,
};
use futures::StreamExt;
use futures::stream::{self, BoxStream};

/// The environment variable that turns this reader off (any value).
pub const ARROW_SCAN_VARIABLE: &str = "DATAFUSION_TENSOR_ARROW_SCAN";

/// Records read per `read_records` call: bounds the level buffers (two `i16` per element).
const LEVEL_CHUNK_ROWS: usize = 8192;

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
                let first = group.column(0);
                let offset = first
                    .dictionary_page_offset()
                    .unwrap_or_else(|| first.data_page_offset());
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
            let data = self
                .shared
                .store
                .get_ranges(&self.file.location, &ranges)
                .await?;
            let chunks = Fetched {
                size: self.file.size,
                chunks: ranges.iter().map(|r| r.start).zip(data).collect(),
            };
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
            let end = offset + bytes.len() as u64;
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
            length.map_or("end".to_string(), |l| (start + l as u64).to_string())
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
    chunks: Fetched,
}

impl Morsel for RowGroupMorsel {
    fn into_stream(self: Box<Self>) -> BoxStream<'static, Result<RecordBatch>> {
        stream::once(async move {
            match self.read() {
                Ok(Some(batches)) => {
                    self.shared.fast.add(1);
                    stream::iter(batches.into_iter().map(Ok)).boxed()
                }
                // Anything but plain full tensors, or an error: DataFusion's reader reads the
                // row group again (and words the error if there is one).
                Ok(None) | Err(_) => {
                    self.shared.fallback.add(1);
                    let group = self.file.metadata.metadata().row_group(self.row_group);
                    self.fallback.row_group(group)
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
    /// The row group's batches as DataFusion's reader reads them: the file with a byte range
    /// that holds only the row group's first page, which is how DataFusion assigns row groups
    /// to ranges (`prune_by_range`).
    fn row_group(&self, group: &RowGroupMetaData) -> BoxStream<'static, Result<RecordBatch>> {
        let first = group.column(0);
        let offset = first
            .dictionary_page_offset()
            .unwrap_or_else(|| first.data_page_offset());
        let mut file = self.file.clone();
        file.range = Some(FileRange {
            start: offset,
            end: offset + 1,
        });
        match self.inner.plan_file(file) {
            Ok(planner) => drive(planner),
            Err(err) => stream::iter([Err(err)]).boxed(),
        }
    }
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
    fn read(&self) -> Result<Option<Vec<RecordBatch>>> {
        let group = self.file.metadata.metadata().row_group(self.row_group);
        let rows = usize::try_from(group.num_rows()).map_err(|_| {
            DataFusionError::Execution(format!(
                "row group {} has {} rows",
                self.row_group,
                group.num_rows()
            ))
        })?;
        let reader = SerializedRowGroupReader::new(
            Arc::new(self.chunks.clone()),
            group,
            None,
            Arc::new(ReaderProperties::builder().build()),
        )?;
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
                    read_values::<pq::FloatType, Float32Type>(&reader, leaf, column, rows)?
                }
                Element::Float64 => {
                    read_values::<pq::DoubleType, Float64Type>(&reader, leaf, column, rows)?
                }
                Element::Int32 => {
                    read_values::<pq::Int32Type, Int32Type>(&reader, leaf, column, rows)?
                }
                Element::Int64 => {
                    read_values::<pq::Int64Type, Int64Type>(&reader, leaf, column, rows)?
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
/// every list has the tensor's size (checked on the levels); `None` otherwise.
fn read_values<P, A>(
    reader: &SerializedRowGroupReader<'_, Fetched>,
    leaf: usize,
    column: &OutputColumn,
    rows: usize,
) -> Result<Option<ArrayRef>>
where
    P: ParquetDataType,
    A: ArrowPrimitiveType<Native = P::T>,
    P::T: arrow::datatypes::ArrowNativeType,
{
    let size = column.size;
    let mut reader = get_typed_column_reader::<P>(reader.get_column_reader(leaf)?);
    let mut values: Vec<P::T> = Vec::with_capacity(rows.saturating_mul(size));
    let (mut def, mut rep) = (Vec::new(), Vec::new());
    let mut read = 0;
    while read < rows {
        def.clear();
        rep.clear();
        let want = LEVEL_CHUNK_ROWS.min(rows - read);
        let (records, values_read, levels) =
            reader.read_records(want, Some(&mut def), Some(&mut rep), &mut values)?;
        if records == 0 {
            return Err(DataFusionError::Execution(format!(
                "column '{}' ends after {read} of the row group's {rows} rows",
                column.name
            )));
        }
        // A value is read for each definition level at the maximum only: as many values as
        // levels means no NULL tensor and no NULL element. The lists' lengths are in the
        // repetition levels: 0 starts a list, 1 continues it.
        if levels != records * size
            || values_read != levels
            || !rep
                .chunks_exact(size)
                .all(|list| list[0] == 0 && list[1..].iter().all(|&r| r == 1))
        {
            return Ok(None);
        }
        read += records;
    }
    Ok(Some(Arc::new(PrimitiveArray::<A>::new(
        ScalarBuffer::from(values),
        None,
    ))))
}
