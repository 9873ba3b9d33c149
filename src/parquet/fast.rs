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
//! What it serves: every projected or filtered column a plain column of the table whose type
//! in the file is the table's, at least one of them a tensor (`FixedSizeList`) of any element
//! type the crate supports (every integer type, Float16/32/64, Boolean) stored as arrow-rs
//! reads it; no partition or virtual columns, no encryption, no access plan or other extension
//! on the file. A file that fails these checks is read by DataFusion's Parquet reader as
//! before; so is every scan of a session with `tensor.fast_parquet = false`
//! ([`crate::config::TensorOptions`]; the scan, `super::scan`, does not call [`maybe_fast`]
//! then), to compare the two.
//!
//! - The other columns of the scan (a label, an id) are read by arrow-rs's own reader from the
//!   same fetched row group, into the same batches.
//! - A scan with a predicate (a `WHERE` on the scanned columns) returns only the rows it holds
//!   for: the predicate is evaluated on each row group as read, and its rows filtered before
//!   they leave the scan, whether or not DataFusion pushed the filter down (without push-down
//!   its `FilterExec` above finds every row holding). A volatile predicate (`random()`) is left
//!   to DataFusion's reader: evaluated twice it would filter twice.
//! - A scan with a limit and no predicate reads at most that many rows of a row group, and
//!   DataFusion's file stream stops asking for row groups once it has them; with a predicate
//!   (DataFusion gives the scan the limit only when the filter is pushed down), late
//!   materialisation decodes the tensors of at most that many of the rows it holds for.
//!
//! Row groups that a predicate rules out by their statistics or bloom filters are skipped, as
//! DataFusion's reader skips them. In the rest the predicate is evaluated first, on the columns
//! it reads (read whole), and the other tensor columns are gathered for the rows it holds for
//! alone (late materialisation): the values of the other rows are not copied, and a row group
//! where it holds for no row decodes no tensor. With `pushdown_filters` (where DataFusion's
//! reader applies a filter's rows to the other columns) a page holding no such row is not
//! decoded either (its levels still checked), nor even read when the file's offset index
//! locates it (`enable_page_index`: the pages read must then hold the rows the index gives
//! them, so a wrong index is caught where it would misplace values); without it every page is
//! decoded, as DataFusion's reader decodes it (a corrupt page it would fail on fails here too).
//!
//! Row groups are assigned to a scan partition as DataFusion assigns them (the first page's
//! offset lies in the partition's byte range), so a file's row groups are read on all cores.
//!
//! Variable-shape tensor columns (`arrow.variable_shape_tensor`, storage `Struct<data:
//! List<T>, shape: FixedSizeList<Int32>[ndim]>`, the same element types) are read here too.
//! arrow-rs reads them as nested lists, decoding both levels of every element and building
//! validity bitmaps of the struct, of both lists and of their items. Here the `data` chunk's
//! levels are checked page by page as encoded, as a fixed-shape tensor's are, and its lists'
//! offsets found in its repetition levels run by run (`levels::list_starts`: a run of 1s
//! lengthens the current list, a 0 starts the next; a variable-shape image's levels are a few
//! runs); its values are decoded as a fixed-shape tensor's are, into one buffer per row group
//! that the batches' lists slice, and the `shape` chunk is read as a fixed-shape tensor of
//! `ndim` Int32s. The struct is assembled with the table's types (field metadata, the
//! extension's, is the schema's). Measured on `benches/compare/varshape.py`'s file (100,000
//! uint8 images 3 x (16..64) x (16..64), one 480 MB row group written by pyarrow; CLI, the
//! 2-core machine under other builds' load): `count(img)` in 1.45 s instead of 11.52 s with
//! DataFusion's reader (pyarrow's read 7.60 s). A row group where any tensor is NULL, its
//! `data` or `shape` list NULL, an element NULL or a tensor of no elements (an empty list) is
//! DataFusion's, as above. What differs from fixed-shape columns:
//!
//! - With a predicate and a fixed-shape tensor column that it does not read, a variable-shape
//!   column is read whole with the columns it reads and then filtered to its rows (not
//!   decoded late): where its rows' values lie is known only once its levels are read.
//! - With a limit, the levels of the rows read are read first to count their values; only
//!   those values are then decoded.
//! - A row group is read here up to 1 GiB of decoded tensor values when the scan reads a
//!   variable-shape column (pyarrow writes row groups of up to 1,048,576 images); 256 MiB
//!   otherwise.

use std::collections::{HashMap, HashSet, VecDeque};
use std::fmt;
use std::sync::{Arc, Mutex};

use arrow::array::{
    Array, ArrayRef, ArrowPrimitiveType, AsArray, BooleanArray, BooleanBufferBuilder,
    FixedSizeListArray, ListArray, PrimitiveArray, RecordBatch, RecordBatchOptions,
    RecordBatchReader, StructArray, UInt64Array, new_empty_array,
};
use arrow::buffer::{BooleanBuffer, Buffer, OffsetBuffer, ScalarBuffer};
use arrow::compute::kernels::coalesce::BatchCoalescer;
use arrow::compute::{FilterBuilder, concat, concat_batches};
use arrow::datatypes::{
    DataType, FieldRef, Fields, Float16Type, Float32Type, Float64Type, Int8Type, Int16Type,
    Int32Type, Int64Type, Schema, SchemaRef, UInt8Type, UInt16Type, UInt32Type, UInt64Type,
};
use bytes::{Buf, Bytes};
use datafusion::common::pruning::PruningStatistics;
use datafusion::common::{DataFusionError, Result, ScalarValue};
use datafusion::datasource::listing::PartitionedFile;
use datafusion::datasource::physical_plan::parquet::{
    BloomFilterStatistics, PagePruningAccessPlanFilter, ParquetAccessPlan, ParquetFileMetrics,
    RowGroupAccess,
};
use datafusion::datasource::physical_plan::{FileScanConfig, FileSource, ParquetSource};
use datafusion::object_store::path::Path;
use datafusion::object_store::{ObjectStore, ObjectStoreExt};
use datafusion::parquet::arrow::arrow_reader::statistics::StatisticsConverter;
use datafusion::parquet::arrow::arrow_reader::{
    ArrowReaderMetadata, ArrowReaderOptions, ParquetRecordBatchReaderBuilder,
};
use datafusion::parquet::arrow::async_reader::MetadataFetch;
use datafusion::parquet::arrow::{ProjectionMask, parquet_column};
use datafusion::parquet::basic::{
    ConvertedType, Encoding, LogicalType, Repetition, Type as PhysicalType,
};
use datafusion::parquet::bloom_filter::Sbbf;
use datafusion::parquet::column::page::{Page, PageMetadata, PageReader};
use datafusion::parquet::column::reader::ColumnReaderImpl;
use datafusion::parquet::data_type::{self as pq, DataType as ParquetDataType};
use datafusion::parquet::errors::ParquetError;
use datafusion::parquet::file::metadata::{
    ColumnChunkMetaData, PageIndexPolicy, ParquetMetaDataReader, RowGroupMetaData,
};
use datafusion::parquet::file::page_index::offset_index::PageLocation;
use datafusion::parquet::file::reader::{ChunkReader, Length};
use datafusion::parquet::file::serialized_reader::SerializedPageReader;
use datafusion::parquet::schema::types::{ColumnDescriptor, SchemaDescriptor, Type as SchemaType};
use datafusion::physical_expr::PhysicalExpr;
use datafusion::physical_expr::utils::{collect_columns, reassign_expr_columns};
use datafusion::physical_expr_common::physical_expr::is_volatile;
use datafusion::physical_optimizer::pruning::{PruningPredicate, PruningPredicateBuilder};
use datafusion::physical_plan::metrics::{Count, ExecutionPlanMetricsSet, MetricBuilder};
use datafusion_datasource::morsel::{
    Morsel, MorselPlan, MorselPlanner, Morselizer, PendingMorselPlanner,
};
use futures::future::BoxFuture;
use futures::stream::{self, BoxStream};
use futures::{FutureExt, StreamExt};

use super::levels::{
    Dictionary, dictionary_values, full_tensor_levels, hybrid_values, list_starts,
    selected_dictionary_values,
};
use crate::variable_shape::{DATA_FIELD_NAME, SHAPE_FIELD_NAME, has_variable_shape_extension};

/// The largest row group (its projected tensor values, decoded) this reader reads; larger
/// ones are DataFusion's reader's. A 131,072-row group of four 4x4 float32 tensors is 32 MiB.
const MAX_DECODED_ROW_GROUP_BYTES: u64 = 256 << 20;

/// The same limit for a scan that reads a variable-shape tensor column. pyarrow writes row
/// groups of up to 1,048,576 rows: 100,000 images of 3 x (16..64) x (16..64) uint8 are one row
/// group of 480 MB. DataFusion's reader holds such a row group's fetched column chunk whole
/// too (as large as the decoded values for dictionary-encoded bytes), so this reader holds
/// about twice what it holds, not more.
const MAX_DECODED_VARIABLE_ROW_GROUP_BYTES: u64 = 1 << 30;

/// The element types read here. Each is read from one Parquet physical type, converted as
/// arrow-rs converts it (`parquet::arrow::array_reader::primitive_array`): the narrower
/// integers from INT32 by a truncating `as` cast (arrow-rs checks no range), the unsigned
/// 32- and 64-bit ones by reinterpreting the bits, Float16 from 2-byte fixed-length arrays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Element {
    Float16,
    Float32,
    Float64,
    Int8,
    Int16,
    Int32,
    Int64,
    UInt8,
    UInt16,
    UInt32,
    UInt64,
    Boolean,
}

impl Element {
    fn of(data_type: &DataType) -> Option<Self> {
        Some(match data_type {
            DataType::Float16 => Self::Float16,
            DataType::Float32 => Self::Float32,
            DataType::Float64 => Self::Float64,
            DataType::Int8 => Self::Int8,
            DataType::Int16 => Self::Int16,
            DataType::Int32 => Self::Int32,
            DataType::Int64 => Self::Int64,
            DataType::UInt8 => Self::UInt8,
            DataType::UInt16 => Self::UInt16,
            DataType::UInt32 => Self::UInt32,
            DataType::UInt64 => Self::UInt64,
            DataType::Boolean => Self::Boolean,
            _ => return None,
        })
    }

    /// Whether the leaf `descr` stores this element as arrow-rs reads it: its physical type,
    /// and a logical (or legacy converted) type that asks for no conversion but those above.
    fn stored_in(self, descr: &ColumnDescriptor) -> bool {
        let logical = descr.logical_type_ref();
        let converted = descr.converted_type();
        let plain = logical.is_none() && converted == ConvertedType::NONE;
        // An integer of `bits` bits, `signed` or not; plain INT32/INT64 are the signed ones.
        let integer = |bits: i8, signed: bool| match logical {
            Some(LogicalType::Integer(int)) => int.bit_width == bits && int.is_signed == signed,
            Some(_) => false,
            None => {
                let legacy = match converted {
                    ConvertedType::INT_8 => Some((8, true)),
                    ConvertedType::INT_16 => Some((16, true)),
                    ConvertedType::INT_32 => Some((32, true)),
                    ConvertedType::INT_64 => Some((64, true)),
                    ConvertedType::UINT_8 => Some((8, false)),
                    ConvertedType::UINT_16 => Some((16, false)),
                    ConvertedType::UINT_32 => Some((32, false)),
                    ConvertedType::UINT_64 => Some((64, false)),
                    ConvertedType::NONE if signed && (bits == 32 || bits == 64) => {
                        Some((bits, true))
                    }
                    _ => None,
                };
                legacy == Some((bits, signed))
            }
        };
        let physical = descr.physical_type();
        match self {
            Self::Float16 => {
                physical == PhysicalType::FIXED_LEN_BYTE_ARRAY
                    && descr.type_length() == 2
                    && matches!(logical, Some(LogicalType::Float16))
            }
            Self::Float32 => physical == PhysicalType::FLOAT && plain,
            Self::Float64 => physical == PhysicalType::DOUBLE && plain,
            Self::Boolean => physical == PhysicalType::BOOLEAN && plain,
            Self::Int8 => physical == PhysicalType::INT32 && integer(8, true),
            Self::Int16 => physical == PhysicalType::INT32 && integer(16, true),
            Self::Int32 => physical == PhysicalType::INT32 && integer(32, true),
            Self::UInt8 => physical == PhysicalType::INT32 && integer(8, false),
            Self::UInt16 => physical == PhysicalType::INT32 && integer(16, false),
            Self::UInt32 => physical == PhysicalType::INT32 && integer(32, false),
            Self::Int64 => physical == PhysicalType::INT64 && integer(64, true),
            Self::UInt64 => physical == PhysicalType::INT64 && integer(64, false),
        }
    }

    /// Bytes of one decoded element (a Boolean's bit counted as a byte).
    fn width(self) -> u64 {
        match self {
            Self::Int8 | Self::UInt8 | Self::Boolean => 1,
            Self::Float16 | Self::Int16 | Self::UInt16 => 2,
            Self::Float32 | Self::Int32 | Self::UInt32 => 4,
            Self::Float64 | Self::Int64 | Self::UInt64 => 8,
        }
    }
}

/// A column the scan reads: a tensor column, read here, or any other column, read by
/// arrow-rs's reader from the same fetched bytes.
#[derive(Debug, Clone)]
struct ReadColumn {
    /// Its name in the file (the table's field name).
    name: String,
    /// The table's type of it.
    data_type: DataType,
    /// `Some` for a tensor column.
    tensor: Option<TensorColumn>,
    /// `Some` for a variable-shape tensor column.
    variable: Option<VariableColumn>,
}

impl ReadColumn {
    /// Whether it is read by arrow-rs's reader (neither kind of tensor).
    fn is_other(&self) -> bool {
        self.tensor.is_none() && self.variable.is_none()
    }
}

/// A tensor column's `FixedSizeList` layout.
#[derive(Debug, Clone)]
struct TensorColumn {
    child: FieldRef,
    size: usize,
    element: Element,
}

/// A variable-shape tensor column's storage layout, `Struct<data: List<T>, shape:
/// FixedSizeList<Int32>[ndim]>`: its struct fields as the table types them.
#[derive(Debug, Clone)]
struct VariableColumn {
    fields: Fields,
    /// The `data` list's item field, and the `shape` list's.
    item: FieldRef,
    shape_item: FieldRef,
    ndim: usize,
    element: Element,
}

impl VariableColumn {
    /// The layout of `field`, when it is an `arrow.variable_shape_tensor` of a supported
    /// element type and at least one dimension (`None` for any other field).
    fn of(field: &arrow::datatypes::Field) -> Option<Self> {
        let DataType::Struct(fields) = field.data_type() else {
            return None;
        };
        if !has_variable_shape_extension(field) {
            return None;
        }
        let [data, shape] = &fields[..] else {
            return None;
        };
        let (DataType::List(item), DataType::FixedSizeList(shape_item, ndim)) =
            (data.data_type(), shape.data_type())
        else {
            return None;
        };
        if data.name() != DATA_FIELD_NAME
            || shape.name() != SHAPE_FIELD_NAME
            || shape_item.data_type() != &DataType::Int32
        {
            return None;
        }
        Some(Self {
            fields: fields.clone(),
            item: Arc::clone(item),
            shape_item: Arc::clone(shape_item),
            ndim: usize::try_from(*ndim).ok().filter(|&n| n > 0)?,
            element: Element::of(item.data_type())?,
        })
    }
}

/// `inner` (the Parquet source's own morselizer), or this reader in front of it when the scan
/// qualifies (module docs).
pub fn maybe_fast(
    inner: Box<dyn Morselizer>,
    source: &dyn FileSource,
    object_store: Arc<dyn ObjectStore>,
    config: &FileScanConfig,
    batch_size: Option<usize>,
) -> Box<dyn Morselizer> {
    let Some(scan) = plan_scan(source, config) else {
        return inner;
    };
    Box::new(FastMorselizer {
        inner: Arc::from(inner),
        shared: Arc::new(Shared {
            store: object_store,
            scan,
            batch_size: batch_size.unwrap_or(8192).max(1),
            fast: MetricBuilder::new(source.metrics()).global_counter("tensor_row_groups_fast"),
            fallback: MetricBuilder::new(source.metrics())
                .global_counter("tensor_row_groups_fallback"),
        }),
    })
}

/// What a scan this reader serves reads and returns.
#[derive(Debug)]
struct ScanPlan {
    /// The columns read: the projected ones, then those only the predicate reads.
    columns: Vec<ReadColumn>,
    /// Their schema (the table's fields).
    read_schema: SchemaRef,
    /// The scan's output: its projection's expressions over `read_schema` (columns, or
    /// expressions DataFusion pushed into the scan), and its schema.
    output: Vec<Arc<dyn PhysicalExpr>>,
    schema: SchemaRef,
    /// The scan's predicate over `read_schema`; rows it does not hold are not returned.
    predicate: Option<Arc<dyn PhysicalExpr>>,
    /// How a predicate is evaluated before the tensor columns it does not read are decoded.
    late: Option<LateMaterialisation>,
    /// Rows a row group need give at most (the scan's limit, when it has no predicate).
    limit: Option<usize>,
    /// Rows the predicate holds for that a row group need give at most (the scan's limit, when
    /// it has one: DataFusion gives a scan a limit only when the scan applies its filters).
    matches_limit: Option<usize>,
    /// The longest `IN (...)` list statistics pruning reads (the session's setting).
    max_in_list_size: usize,
    /// Whether row groups are pruned by their bloom filters too (`bloom_filter_on_read`).
    bloom_filters: bool,
    /// What of a file's page index is read (`enable_page_index`).
    page_index: PageIndex,
    /// Whether late materialisation leaves pages holding no wanted row undecoded
    /// (`pushdown_filters`); without it they are decoded, their values dropped.
    skip_unwanted_pages: bool,
}

/// The scan's plan, when it is one this reader serves: plain columns of the table, at least
/// one a tensor of a supported element type; no partition or virtual columns; no encryption;
/// a predicate only if it is deterministic (it is evaluated here, and again above the scan
/// unless DataFusion pushed it down: a volatile one would then filter twice).
fn plan_scan(source: &dyn FileSource, config: &FileScanConfig) -> Option<ScanPlan> {
    let parquet = source.downcast_ref::<ParquetSource>()?;
    let crypto = &parquet.table_parquet_options().crypto;
    if crypto.file_decryption.is_some() || crypto.factory_id.is_some() {
        return None;
    }
    let predicate = source.filter();
    if predicate.as_ref().is_some_and(is_volatile) {
        return None;
    }
    let table = source.table_schema();
    if !table.table_partition_cols().is_empty() || !table.virtual_columns().is_empty() {
        return None;
    }
    let table_schema = table.table_schema();
    let projection = source.projection()?;
    let schema = Arc::new(projection.project_schema(table_schema).ok()?);
    // The table columns read: those the projection reads, then the predicate's others, each
    // once. (DataFusion may push expressions of the projection into the scan, such as
    // `tensor_to_string(x)`: they are evaluated here, as its reader does.)
    let mut names: Vec<String> = Vec::new();
    let exprs = projection
        .iter()
        .map(|expr| Arc::clone(&expr.expr))
        .chain(predicate.iter().cloned());
    for expr in exprs {
        let mut read: Vec<String> = collect_columns(&expr)
            .into_iter()
            .map(|column| column.name().to_string())
            .collect();
        // The order of a set: sorted, so that every partition reads alike.
        read.sort();
        for name in read {
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    let indices: Vec<usize> = names
        .iter()
        .map(|name| table_schema.index_of(name).ok())
        .collect::<Option<_>>()?;
    let mut columns = Vec::with_capacity(indices.len());
    let mut fields = Vec::with_capacity(indices.len());
    for &index in &indices {
        let field = table_schema.fields().get(index)?;
        let tensor = match field.data_type() {
            DataType::FixedSizeList(child, size) => Some(TensorColumn {
                child: Arc::clone(child),
                size: usize::try_from(*size).ok().filter(|&s| s > 0)?,
                element: Element::of(child.data_type())?,
            }),
            _ => None,
        };
        // A variable-shape tensor of a layout not read here (0 dimensions, an element type
        // not supported) leaves the scan to DataFusion's reader.
        let variable = if has_variable_shape_extension(field) {
            Some(VariableColumn::of(field)?)
        } else {
            None
        };
        columns.push(ReadColumn {
            name: field.name().clone(),
            data_type: field.data_type().clone(),
            tensor,
            variable,
        });
        fields.push(Arc::clone(field));
    }
    if columns.iter().all(ReadColumn::is_other) {
        return None;
    }
    let read_schema = Arc::new(Schema::new(fields));
    let predicate = match predicate {
        Some(predicate) => Some(reassign_expr_columns(predicate, &read_schema).ok()?),
        None => None,
    };
    let output = projection
        .iter()
        .map(|expr| reassign_expr_columns(Arc::clone(&expr.expr), &read_schema).ok())
        .collect::<Option<_>>()?;
    let late = predicate
        .as_ref()
        .and_then(|predicate| LateMaterialisation::new(predicate, &columns, &read_schema));
    // Pages holding no row the predicate holds for are left undecoded (and unread where the
    // offset index locates them) only as DataFusion's reader leaves them: when it applies a
    // pushed-down filter's rows to the other columns. Without `pushdown_filters` its reader
    // decodes every page (and fails on a corrupt one), and so does this one.
    let pushdown = parquet.table_parquet_options().global.pushdown_filters;
    Some(ScanPlan {
        page_index: match parquet.table_parquet_options().global.enable_page_index {
            true if predicate.is_some() => PageIndex::Both,
            true if late.is_some() && pushdown => PageIndex::Offsets,
            _ => PageIndex::Neither,
        },
        skip_unwanted_pages: pushdown,
        late,
        limit: config.limit.filter(|_| predicate.is_none()),
        matches_limit: config.limit.filter(|_| predicate.is_some()),
        max_in_list_size: parquet.max_in_list_size(),
        bloom_filters: parquet.table_parquet_options().global.bloom_filter_on_read,
        columns,
        read_schema,
        output,
        schema,
        predicate,
    })
}

/// What of a file's page index a scan reads, when the file has one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PageIndex {
    Neither,
    /// The offset index: to pass over the pages of tensors that late materialisation wants no
    /// row of without reading them.
    Offsets,
    /// The column index too: to prune pages by their statistics, as DataFusion's reader
    /// prunes them (a scan with a predicate).
    Both,
}

/// A predicate evaluated first, on the columns it reads, so that the tensor columns it does not
/// read are decoded for the rows it holds for alone (late materialisation): a page of theirs
/// holding no such row is not decoded, and no value of a row dropped is copied.
#[derive(Debug)]
struct LateMaterialisation {
    /// The read columns (indices into `ScanPlan::columns`) the predicate reads, in read order.
    first: Vec<usize>,
    /// Their schema, and the predicate over it.
    schema: SchemaRef,
    predicate: Arc<dyn PhysicalExpr>,
}

impl LateMaterialisation {
    /// `None` when every tensor column read is one the predicate reads (nothing to decode
    /// later).
    fn new(
        predicate: &Arc<dyn PhysicalExpr>,
        columns: &[ReadColumn],
        read_schema: &SchemaRef,
    ) -> Option<Self> {
        let names: HashSet<String> = collect_columns(predicate)
            .into_iter()
            .map(|column| column.name().to_string())
            .collect();
        let first: Vec<usize> = (0..columns.len())
            .filter(|&index| names.contains(&columns[index].name))
            .collect();
        let later = columns
            .iter()
            .any(|column| column.tensor.is_some() && !names.contains(&column.name));
        if !later {
            return None;
        }
        let schema = Arc::new(read_schema.project(&first).ok()?);
        let predicate = reassign_expr_columns(Arc::clone(predicate), &schema).ok()?;
        Some(Self {
            first,
            schema,
            predicate,
        })
    }
}

/// The rows of a row group a predicate holds for, as runs of consecutive rows.
#[derive(Debug)]
struct Selection {
    runs: Vec<std::ops::Range<usize>>,
    rows: usize,
}

impl Selection {
    fn new(holds: &BooleanBuffer) -> Self {
        Self {
            runs: holds.set_slices().map(|(start, end)| start..end).collect(),
            rows: holds.count_set_bits(),
        }
    }
}

/// What every planner and morsel of one scan partition shares.
#[derive(Debug)]
struct Shared {
    store: Arc<dyn ObjectStore>,
    scan: ScanPlan,
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
            let metadata = read_metadata(
                &shared.store,
                &location,
                file.object_meta.size,
                shared.scan.page_index,
            )
            .await;
            let Some(mut file_plan) = metadata
                .ok()
                .and_then(|metadata| FilePlan::new(&shared, metadata, &file, location))
            else {
                // Not a file this reader serves, or a footer it could not read: DataFusion's
                // reader reads it all (and words any error as it always does).
                return inner.plan_file(file);
            };
            file_plan.row_groups = pruned_by_bloom_filters(&shared, &file_plan).await;
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
/// and a second when the metadata is longer; the part of its page index `page_index` asks for,
/// when it has one (a third read; one that fails is left out).
async fn read_metadata(
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
        let reader = ParquetMetaDataReader::new_with_metadata(metadata.clone());
        let mut reader = if page_index == PageIndex::Both {
            reader.with_page_index_policy(PageIndexPolicy::Optional)
        } else {
            reader.with_offset_index_policy(PageIndexPolicy::Optional)
        };
        if reader
            .load_page_index(StoreFetch { store, location })
            .await
            .is_ok()
            && let Ok(indexed) = reader.finish()
        {
            metadata = indexed;
        }
    }
    Ok(ArrowReaderMetadata::try_new(
        Arc::new(metadata),
        ArrowReaderOptions::new(),
    )?)
}

/// Ranges of a file, fetched from its store (the offset index's).
struct StoreFetch<'a> {
    store: &'a Arc<dyn ObjectStore>,
    location: &'a Path,
}

impl MetadataFetch for StoreFetch<'_> {
    fn fetch(&mut self, range: std::ops::Range<u64>) -> BoxFuture<'_, Result<Bytes, ParquetError>> {
        async move {
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
struct FilePlan {
    location: Path,
    size: u64,
    metadata: ArrowReaderMetadata,
    /// The Parquet leaf of each read column that is a tensor (`None` for the others).
    leaves: Vec<Option<usize>>,
    /// The `data` and `shape` leaves of each read column that is a variable-shape tensor.
    variable_leaves: Vec<Option<(usize, usize)>>,
    /// The root (top-level) column of each other column, in read order.
    other_roots: Vec<usize>,
    /// The leaves whose column chunks a row group's read fetches.
    fetched_leaves: Vec<usize>,
    /// Its row groups in the partition's byte range, in file order.
    row_groups: Vec<usize>,
    /// The scan's predicate as DataFusion's pruning evaluates it over the file's schema (by
    /// the statistics, then the bloom filters).
    pruning: Option<PruningPredicate>,
    /// The rows of a row group its page index leaves (pages whose statistics rule the
    /// predicate out dropped), for the row groups where it drops any.
    page_selections: HashMap<usize, BooleanBuffer>,
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
        let mut variable_leaves = Vec::new();
        let mut other_roots = Vec::new();
        let mut fetched_leaves = Vec::new();
        for column in &shared.scan.columns {
            // The file's type must be the table's: DataFusion's reader would cast it.
            let (root, field) = arrow_schema.column_with_name(&column.name)?;
            if field.data_type() != &column.data_type {
                return None;
            }
            let root_leaves: Vec<usize> = (0..parquet_schema.num_columns())
                .filter(|&index| parquet_schema.get_column_root_idx(index) == root)
                .collect();
            fetched_leaves.extend(root_leaves.iter().copied());
            if let Some(variable) = &column.variable {
                // The struct's two lists, in its field order: each a list of one level of
                // repetition, of the element type and of Int32 as arrow-rs reads them.
                let [data, shape] = root_leaves[..] else {
                    return None;
                };
                let (data_descr, shape_descr) =
                    (parquet_schema.column(data), parquet_schema.column(shape));
                if data_descr.max_rep_level() != 1
                    || shape_descr.max_rep_level() != 1
                    || !variable.element.stored_in(&data_descr)
                    || !Element::Int32.stored_in(&shape_descr)
                {
                    return None;
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
                return None;
            };
            let descr = parquet_schema.column(leaf);
            if descr.max_rep_level() != 1 || !tensor.element.stored_in(&descr) {
                return None;
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
                // DataFusion's rule (`prune_by_range`): the first page of the first column.
                let Some(range) = &file.range else {
                    return true;
                };
                let offset = first_page_offset(group);
                offset >= range.start && offset < range.end
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
                pruned_by_page_index(predicate, &metadata, row_groups)
            }
            _ => (row_groups, HashMap::new()),
        };
        Some(Self {
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
        })
    }
}

/// The row groups among `candidates` that keep rows once pages whose column-index statistics
/// rule `predicate` out are dropped, and the rows they keep where pages are dropped, as
/// DataFusion's reader prunes pages (`PagePruningAccessPlanFilter`, its own code); every
/// candidate whole when the file has no page index.
fn pruned_by_page_index(
    predicate: &Arc<dyn PhysicalExpr>,
    metadata: &ArrowReaderMetadata,
    candidates: Vec<usize>,
) -> (Vec<usize>, HashMap<usize, BooleanBuffer>) {
    let file = metadata.metadata();
    let schema = metadata.schema();
    let Some(expr) = reassign_expr_columns(Arc::clone(predicate), schema)
        .ok()
        .filter(|_| file.column_index().is_some() && file.offset_index().is_some())
    else {
        return (candidates, HashMap::new());
    };
    let filter = PagePruningAccessPlanFilter::new(&expr, Arc::clone(schema));
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
                let mut mask = BooleanBufferBuilder::new(rows);
                for selector in selection.iter() {
                    mask.append_n(selector.row_count, !selector.skip);
                }
                // A selection of other than the row group's rows: read whole (the predicate
                // is evaluated on every row all the same).
                if mask.len() != rows {
                    kept.push(index);
                    continue;
                }
                let mask = mask.finish();
                if mask.count_set_bits() > 0 {
                    kept.push(index);
                    selections.insert(index, mask);
                }
            }
        }
    }
    (kept, selections)
}

/// The row groups among `candidates` that may hold rows the scan's predicate (`pruning`) holds
/// for, by their statistics, as DataFusion's reader prunes them (`RowGroupAccessPlanFilter::
/// prune_by_statistics`, whose statistics adapter this repeats: it is not public); all of them
/// when the statistics cannot tell.
fn pruned_by_statistics(
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
fn pruning_predicate(
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
async fn pruned_by_bloom_filters(shared: &Shared, file: &FilePlan) -> Vec<usize> {
    let candidates = file.row_groups.clone();
    let scan = &shared.scan;
    let schema = file.metadata.schema();
    let Some(pruning) = file
        .pruning
        .as_ref()
        .filter(|_| scan.bloom_filters && !candidates.is_empty())
    else {
        return candidates;
    };
    let parquet_schema = file.metadata.parquet_schema();
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
        let chunks = file.metadata.metadata().row_group(group).columns();
        let mut filters = BloomFilterStatistics::with_capacity(columns.len());
        for (name, leaf) in &columns {
            if let Some(filter) = read_bloom_filter(&shared.store, file, &chunks[*leaf]).await {
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
async fn read_bloom_filter(
    store: &Arc<dyn ObjectStore>,
    file: &FilePlan,
    chunk: &ColumnChunkMetaData,
) -> Option<Sbbf> {
    let start = u64::try_from(chunk.bloom_filter_offset()?).ok()?;
    let end = start.checked_add(u64::try_from(chunk.bloom_filter_length()?).ok()?)?;
    if end > file.size {
        return None;
    }
    let bytes = store.get_range(&file.location, start..end).await.ok()?;
    let fetched = Fetched {
        size: file.size,
        chunks: vec![(start, bytes)],
    };
    // A filter of no blocks would make every lookup index past its end.
    Sbbf::read_from_column_chunk(chunk, &fetched)
        .ok()?
        .filter(|filter| filter.num_blocks() > 0)
}

/// Row groups' column statistics, as DataFusion's pruning asks for them.
struct RowGroupStatistics<'a> {
    parquet_schema: &'a SchemaDescriptor,
    arrow_schema: &'a Schema,
    groups: Vec<&'a RowGroupMetaData>,
}

impl RowGroupStatistics<'_> {
    fn converter(&self, column: &datafusion::common::Column) -> Option<StatisticsConverter<'_>> {
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
    /// The row group as batches of the scan's batch size (its rows the predicate holds for),
    /// when all its tensors are full.
    fn read(&self, chunks: &Fetched) -> Result<Option<Vec<RecordBatch>>> {
        let scan = &self.shared.scan;
        let batch_size = self.shared.batch_size;
        let group = self.file.metadata.metadata().row_group(self.row_group);
        let rows = usize::try_from(group.num_rows()).map_err(|_| {
            DataFusionError::Execution(format!(
                "row group {} has {} rows",
                self.row_group,
                group.num_rows()
            ))
        })?;
        if let Some(late) = &scan.late {
            return self.read_late(chunks, rows, late);
        }
        // With a limit and no predicate, the rows after the limit are never returned.
        let read_rows = scan.limit.map_or(rows, |limit| rows.min(limit));
        let Some(mut others) = self.read_others(chunks, read_rows)? else {
            return Ok(None);
        };
        // Each column read, as arrays of the scan's batch size: decoded a batch at a time, so
        // that the values of a row group are never one allocation (a fresh 200 MiB buffer
        // per row group of images cost more in page faults than the decoding).
        let mut columns: Vec<std::vec::IntoIter<ArrayRef>> = Vec::with_capacity(scan.columns.len());
        for (index, column) in scan.columns.iter().enumerate() {
            let arrays = if column.tensor.is_some() {
                match self.read_tensor(chunks, index, rows, read_rows, None)? {
                    Some(arrays) => arrays,
                    None => return Ok(None),
                }
            } else if column.variable.is_some() {
                match self.read_variable(chunks, index, rows, read_rows, batch_size)? {
                    Some(arrays) => arrays,
                    None => return Ok(None),
                }
            } else {
                let array = others.next().ok_or_else(|| {
                    DataFusionError::Internal("a column missing from arrow-rs's read".into())
                })?;
                batch_slices(&array, batch_size)
            };
            columns.push(arrays.into_iter());
        }
        let mut batches = Vec::new();
        // A predicate's rows, gathered back into batches of the batch size.
        let mut coalescer = scan
            .predicate
            .as_ref()
            .map(|_| BatchCoalescer::new(Arc::clone(&scan.read_schema), batch_size));
        for start in (0..read_rows).step_by(batch_size) {
            let batch = next_batch(
                &scan.read_schema,
                &mut columns,
                batch_size.min(read_rows - start),
            )?;
            match (&scan.predicate, &mut coalescer) {
                (Some(predicate), Some(coalescer)) => {
                    let mut holds = evaluate_predicate(predicate, &batch)?;
                    // Rows on pages the page index ruled out: DataFusion's reader never reads
                    // them.
                    if let Some(pages) = self.file.page_selections.get(&self.row_group) {
                        let len = batch.num_rows();
                        holds = BooleanArray::new(holds.values() & &pages.slice(start, len), None);
                    }
                    coalescer.push_batch_with_filter(batch, &holds)?;
                    while let Some(batch) = coalescer.next_completed_batch() {
                        batches.push(self.project(&batch)?);
                    }
                }
                _ => batches.push(self.project(&batch)?),
            }
        }
        if let Some(coalescer) = &mut coalescer {
            coalescer.finish_buffered_batch()?;
            while let Some(batch) = coalescer.next_completed_batch() {
                batches.push(self.project(&batch)?);
            }
        }
        Ok(Some(batches))
    }

    /// [`Self::read`] with a predicate evaluated first ([`LateMaterialisation`]): the columns
    /// it reads are read whole and it is evaluated on them; the other tensor columns are then
    /// decoded for the rows it holds for alone, and the columns read whole filtered to them.
    fn read_late(
        &self,
        chunks: &Fetched,
        rows: usize,
        late: &LateMaterialisation,
    ) -> Result<Option<Vec<RecordBatch>>> {
        let scan = &self.shared.scan;
        let batch_size = self.shared.batch_size;
        let Some(mut others) = self.read_others(chunks, rows)? else {
            return Ok(None);
        };
        // The columns read whole (`None`: a tensor column read later). A variable-shape
        // tensor is read whole too, then filtered as the other columns are: its rows' values
        // are not where its footer says, so its pages cannot be passed over.
        let mut whole: Vec<Option<ArrayRef>> = Vec::with_capacity(scan.columns.len());
        for (index, column) in scan.columns.iter().enumerate() {
            whole.push(if column.variable.is_some() {
                let Some(arrays) = self.read_variable(chunks, index, rows, rows, rows.max(1))?
                else {
                    return Ok(None);
                };
                Some(match &arrays[..] {
                    [array] => Arc::clone(array),
                    _ => new_empty_array(&column.data_type),
                })
            } else if column.tensor.is_none() {
                Some(others.next().ok_or_else(|| {
                    DataFusionError::Internal("a column missing from arrow-rs's read".into())
                })?)
            } else if late.first.contains(&index) {
                let Some(arrays) = self.read_tensor(chunks, index, rows, rows, None)? else {
                    return Ok(None);
                };
                let arrays: Vec<&dyn arrow::array::Array> =
                    arrays.iter().map(AsRef::as_ref).collect();
                Some(concat(&arrays)?)
            } else {
                None
            });
        }
        let mut holds = BooleanBufferBuilder::new(rows);
        for start in (0..rows).step_by(batch_size) {
            let len = batch_size.min(rows - start);
            let arrays = late
                .first
                .iter()
                .map(|&index| {
                    let array = whole[index].as_ref().ok_or_else(|| {
                        DataFusionError::Internal("a predicate column not read".into())
                    })?;
                    Ok(array.slice(start, len))
                })
                .collect::<Result<Vec<_>>>()?;
            let batch = RecordBatch::try_new_with_options(
                Arc::clone(&late.schema),
                arrays,
                &RecordBatchOptions::new().with_row_count(Some(len)),
            )?;
            holds.append_buffer(evaluate_predicate(&late.predicate, &batch)?.values());
        }
        let mut holds = holds.finish();
        // Rows on pages the page index ruled out: DataFusion's reader never reads them.
        if let Some(pages) = self.file.page_selections.get(&self.row_group) {
            holds = &holds & pages;
        }
        // The first rows it holds for, as many as the limit asks for: the tensors of the rest
        // are not decoded.
        if let Some(limit) = scan.matches_limit
            && let Some(last) = holds.set_indices().nth(limit.saturating_sub(1))
        {
            let mut first = BooleanBufferBuilder::new(rows);
            first.append_buffer(&holds.slice(0, last + 1));
            first.append_n(rows - last - 1, false);
            holds = first.finish();
        }
        let selection = Selection::new(&holds);
        if selection.rows == 0 {
            return Ok(Some(Vec::new()));
        }
        let filter = FilterBuilder::new(&BooleanArray::new(holds, None))
            .optimize()
            .build();
        let mut columns = Vec::with_capacity(whole.len());
        for (index, array) in whole.into_iter().enumerate() {
            let arrays = match array {
                Some(array) => batch_slices(&filter.filter(&array)?, batch_size),
                None => match self.read_tensor(chunks, index, rows, rows, Some(&selection))? {
                    Some(arrays) => arrays,
                    None => return Ok(None),
                },
            };
            columns.push(arrays.into_iter());
        }
        (0..selection.rows)
            .step_by(batch_size)
            .map(|start| {
                let len = batch_size.min(selection.rows - start);
                self.project(&next_batch(&scan.read_schema, &mut columns, len)?)
            })
            .collect::<Result<_>>()
            .map(Some)
    }

    /// Read column `index` (a tensor column) of the row group's `rows`, its first `read_rows`
    /// or the rows of `selection` among them, as arrays of the scan's batch size; `None` when
    /// its levels say anything but full tensors.
    fn read_tensor(
        &self,
        chunks: &Fetched,
        index: usize,
        rows: usize,
        read_rows: usize,
        selection: Option<&Selection>,
    ) -> Result<Option<Vec<ArrayRef>>> {
        let (Some(tensor), Some(leaf)) = (
            &self.shared.scan.columns[index].tensor,
            self.file.leaves[index],
        ) else {
            return Err(DataFusionError::Internal(
                "a tensor column without its leaf".into(),
            ));
        };
        let metadata = self.file.metadata.metadata();
        let locations = metadata
            .offset_index()
            .and_then(|index| index.get(self.row_group)?.get(leaf))
            .map(|index| index.page_locations().as_slice());
        let chunk = Chunk {
            fetched: chunks,
            group: metadata.row_group(self.row_group),
            rows,
            read_rows,
            selection,
            locations,
            decode_unwanted: !self.shared.scan.skip_unwanted_pages,
            batch_rows: self.shared.batch_size,
            leaf,
            size: tensor.size,
            lists: None,
        };
        let Some(values) = read_tensor_values(&chunk, tensor.element)? else {
            return Ok(None);
        };
        values
            .into_iter()
            .map(|values| {
                let list = FixedSizeListArray::try_new(
                    Arc::clone(&tensor.child),
                    tensor.size as i32,
                    values,
                    None,
                )?;
                Ok(Arc::new(list) as ArrayRef)
            })
            .collect::<Result<Vec<_>>>()
            .map(Some)
    }

    /// Read column `index` (a variable-shape tensor column) of the row group's `rows`, its
    /// first `read_rows`, as arrays of `batch_rows` rows each; `None` when its levels say
    /// anything but non-NULL tensors of at least one element each.
    ///
    /// The `shape` lists are read as a fixed-shape tensor column of `ndim` Int32s; the
    /// `data` lists' offsets are their repetition levels' list starts ([`list_starts`],
    /// found as the pages are read) and their values are decoded as a tensor column's are,
    /// into one buffer that the batches' lists slice.
    fn read_variable(
        &self,
        chunks: &Fetched,
        index: usize,
        rows: usize,
        read_rows: usize,
        batch_rows: usize,
    ) -> Result<Option<Vec<ArrayRef>>> {
        let (Some(variable), Some((data_leaf, shape_leaf))) = (
            &self.shared.scan.columns[index].variable,
            self.file.variable_leaves[index],
        ) else {
            return Err(DataFusionError::Internal(
                "a variable-shape tensor column without its leaves".into(),
            ));
        };
        let group = self.file.metadata.metadata().row_group(self.row_group);
        // The shapes: `ndim` Int32s per row, read as a fixed-shape tensor column.
        let shape_chunk = Chunk {
            fetched: chunks,
            group,
            rows,
            read_rows,
            selection: None,
            locations: None,
            decode_unwanted: true,
            batch_rows,
            leaf: shape_leaf,
            size: variable.ndim,
            lists: None,
        };
        let Some(shapes) = read_tensor_values(&shape_chunk, Element::Int32)? else {
            return Ok(None);
        };
        let Ok(total) = usize::try_from(group.column(data_leaf).num_values()) else {
            return Ok(None);
        };
        let mut lists = VariableLists {
            elements: total,
            found: Arc::default(),
        };
        // With a limit, the values of the rows read alone: their levels are read first to
        // count them.
        if read_rows < rows {
            let data_chunk = Chunk {
                leaf: data_leaf,
                lists: Some(&lists),
                ..shape_chunk
            };
            match values_of_lists(&data_chunk, read_rows)? {
                Some(elements) => lists.elements = elements,
                None => return Ok(None),
            }
        }
        let data_chunk = Chunk {
            leaf: data_leaf,
            lists: Some(&lists),
            ..shape_chunk
        };
        let Some(values) = read_tensor_values(&data_chunk, variable.element)? else {
            return Ok(None);
        };
        let values = match &values[..] {
            [] => new_empty_array(variable.item.data_type()),
            [values] => Arc::clone(values),
            _ => {
                return Err(DataFusionError::Internal(
                    "values in several batches".into(),
                ));
            }
        };
        let Ok(mut found) = lists.found.lock() else {
            return Ok(None);
        };
        let found = std::mem::take(&mut *found);
        let Some(starts) = found.offsets(read_rows, read_rows == rows, values.len()) else {
            return Ok(None);
        };
        let mut shapes = shapes.into_iter();
        let mut arrays = Vec::with_capacity(read_rows.div_ceil(batch_rows.max(1)));
        for first in (0..read_rows).step_by(batch_rows.max(1)) {
            let end = (first + batch_rows).min(read_rows);
            let base = starts[first];
            let Ok(offsets) = starts[first..=end]
                .iter()
                .map(|&start| i32::try_from(start - base))
                .collect::<Result<Vec<i32>, _>>()
            else {
                return Ok(None);
            };
            // `offsets` rise from 0 (checked by `ListsFound::offsets`): this does not panic.
            let offsets = OffsetBuffer::new(ScalarBuffer::from(offsets));
            let len = (starts[end] - base) as usize;
            let data = ListArray::try_new(
                Arc::clone(&variable.item),
                offsets,
                values.slice(base as usize, len),
                None,
            )?;
            let shape = shapes.next().ok_or_else(|| {
                DataFusionError::Internal("fewer batches of shapes than of rows".into())
            })?;
            let shape = FixedSizeListArray::try_new(
                Arc::clone(&variable.shape_item),
                variable.ndim as i32,
                shape,
                None,
            )?;
            arrays.push(Arc::new(StructArray::try_new(
                variable.fields.clone(),
                vec![Arc::new(data), Arc::new(shape)],
                None,
            )?) as ArrayRef);
        }
        Ok(Some(arrays))
    }

    /// The scan's output of a batch of the columns read: its projection's expressions, as
    /// DataFusion's reader evaluates them.
    fn project(&self, batch: &RecordBatch) -> Result<RecordBatch> {
        let scan = &self.shared.scan;
        let columns = scan
            .output
            .iter()
            .map(|expr| expr.evaluate(batch)?.into_array(batch.num_rows()))
            .collect::<Result<_>>()?;
        Ok(RecordBatch::try_new_with_options(
            Arc::clone(&scan.schema),
            columns,
            &RecordBatchOptions::new().with_row_count(Some(batch.num_rows())),
        )?)
    }

    /// The columns read that are not tensors, in read order, as arrow-rs's reader reads the
    /// row group's first `read_rows` rows of them; `None` when it gives another type or
    /// another number of rows.
    fn read_others(
        &self,
        chunks: &Fetched,
        read_rows: usize,
    ) -> Result<Option<std::vec::IntoIter<ArrayRef>>> {
        let roots = &self.file.other_roots;
        if roots.is_empty() {
            return Ok(Some(Vec::new().into_iter()));
        }
        let metadata = &self.file.metadata;
        let mask = ProjectionMask::roots(metadata.parquet_schema(), roots.iter().copied());
        let reader =
            ParquetRecordBatchReaderBuilder::new_with_metadata(chunks.clone(), metadata.clone())
                .with_row_groups(vec![self.row_group])
                .with_projection(mask)
                .with_batch_size(read_rows.max(1))
                .with_limit(read_rows)
                .build()?;
        let schema = RecordBatchReader::schema(&reader);
        let batches = reader.collect::<Result<Vec<_>, _>>()?;
        let batch = concat_batches(&schema, &batches)?;
        if batch.num_rows() != read_rows {
            return Ok(None);
        }
        // The reader gives the roots in file order; the scan reads them in its own.
        let mut columns = Vec::with_capacity(roots.len());
        for column in self.shared.scan.columns.iter().filter(|c| c.is_other()) {
            match batch.column_by_name(&column.name) {
                Some(array) if array.data_type() == &column.data_type => {
                    columns.push(Arc::clone(array));
                }
                _ => return Ok(None),
            }
        }
        Ok(Some(columns.into_iter()))
    }
}

/// `array` as slices of `batch_size` rows.
fn batch_slices(array: &ArrayRef, batch_size: usize) -> Vec<ArrayRef> {
    let rows = array.len();
    (0..rows)
        .step_by(batch_size)
        .map(|start| array.slice(start, batch_size.min(rows - start)))
        .collect()
}

/// The next batch of `len` rows of `columns` (each given as arrays of the batch size).
fn next_batch(
    schema: &SchemaRef,
    columns: &mut [std::vec::IntoIter<ArrayRef>],
    len: usize,
) -> Result<RecordBatch> {
    let arrays = columns
        .iter_mut()
        .map(|column| {
            column
                .next()
                .ok_or_else(|| DataFusionError::Internal("a column with fewer batches".into()))
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(RecordBatch::try_new_with_options(
        Arc::clone(schema),
        arrays,
        &RecordBatchOptions::new().with_row_count(Some(len)),
    )?)
}

/// Whether `predicate` holds for each row of `batch`, as a filter (NULL does not hold).
fn evaluate_predicate(
    predicate: &Arc<dyn PhysicalExpr>,
    batch: &RecordBatch,
) -> Result<BooleanArray> {
    let holds = predicate.evaluate(batch)?.into_array(batch.num_rows())?;
    let holds = holds
        .as_boolean_opt()
        .ok_or_else(|| DataFusionError::Internal("a predicate that is not boolean".into()))?;
    Ok(match holds.nulls() {
        Some(nulls) => BooleanArray::new(holds.values() & nulls.inner(), None),
        None => holds.clone(),
    })
}

/// One tensor column chunk of a fetched row group, to read.
struct Chunk<'a> {
    fetched: &'a Fetched,
    group: &'a RowGroupMetaData,
    /// The row group's rows, and how many of the first of them to read.
    rows: usize,
    read_rows: usize,
    /// The rows among those whose values are wanted (`None`: every row read).
    selection: Option<&'a Selection>,
    /// Its pages' locations and first rows, from the file's offset index.
    locations: Option<&'a [PageLocation]>,
    /// Whether a page holding no selected row is decoded all the same (its errors raised).
    decode_unwanted: bool,
    /// Rows of each batch the values are given in.
    batch_rows: usize,
    leaf: usize,
    /// Elements per tensor.
    size: usize,
    /// For the `data` chunk of a variable-shape tensor column: its lists (`size` unused).
    lists: Option<&'a VariableLists>,
}

/// The lists of a variable-shape tensor column's `data` chunk: how many values to read (those
/// of the rows read), and the lists found in the levels as its pages are read.
struct VariableLists {
    elements: usize,
    found: Arc<Mutex<ListsFound>>,
}

/// The lists of a `data` chunk found so far.
#[derive(Debug, Default)]
struct ListsFound {
    /// The chunk positions of the lists' first levels (repetition level 0).
    starts: Vec<u64>,
    /// Levels read (each a value: every one is checked to be the maximum definition level).
    levels: u64,
}

impl ListsFound {
    /// The offsets of the first `rows` lists in the `values` values read from the chunk's
    /// start, `rows + 1` of them rising from 0 (every list holds at least one value); `None`
    /// when the levels read say otherwise: fewer than `rows` lists, a first level that starts
    /// none, or `values` that end elsewhere than where list `rows` starts or (`whole`: the
    /// chunk's every list read, so no list `rows`) the levels read end. (The pages read hold
    /// the `values`, and list `rows` starts in them when they go on past the last.)
    fn offsets(mut self, rows: usize, whole: bool, values: usize) -> Option<Vec<u64>> {
        let end = values as u64;
        // Rising: `list_starts` finds them so, but a list offset that does not rise would
        // panic in arrow-rs (`OffsetBuffer::new`): checked, not assumed.
        let fits = self.starts.len() >= rows
            && (rows == 0 || self.starts.first() == Some(&0))
            && self.starts[..rows].windows(2).all(|pair| pair[0] < pair[1])
            && self
                .starts
                .get(rows.wrapping_sub(1))
                .is_none_or(|&last| last < end)
            && match self.starts.get(rows) {
                Some(&next) => !whole && next == end,
                None => self.levels == end,
            };
        if !fits {
            return None;
        }
        self.starts.truncate(rows);
        self.starts.push(end);
        Some(self.starts)
    }
}

/// The values of the first `rows` lists of a variable-shape tensor column's `data` chunk:
/// its pages' levels read (and checked), not their values, until list `rows` starts; all of
/// the chunk's when it ends first. `None` when a page is not one of full lists.
fn values_of_lists(chunk: &Chunk, rows: usize) -> Result<Option<usize>> {
    let (Some(lists), Some(mut pages)) = (chunk.lists, chunk.pages()?) else {
        return Ok(None);
    };
    loop {
        let Ok(found) = lists.found.lock() else {
            return Ok(None);
        };
        if let Some(&start) = found.starts.get(rows) {
            return Ok(usize::try_from(start).ok());
        }
        drop(found);
        match pages.get_next_page() {
            Ok(Some(_)) => {}
            Ok(None) => return Ok(Some(lists.elements)),
            Err(_) => return Ok(None),
        }
    }
}

impl Chunk<'_> {
    /// Its pages, checked to hold full tensors and handed on as pages of values alone; `None`
    /// when the footer says it holds anything else.
    fn pages(&self) -> Result<Option<FullTensorPages>> {
        let chunk = self.group.column(self.leaf);
        let num_values = usize::try_from(chunk.num_values()).ok();
        let lists = match self.lists {
            // The lists of a variable-shape tensor: found afresh as the pages are read, no
            // more of them than the row group's rows.
            Some(lists) => {
                let Ok(mut found) = lists.found.lock() else {
                    return Ok(None);
                };
                *found = ListsFound::default();
                if num_values.is_none_or(|n| n < lists.elements) {
                    return Ok(None);
                }
                Some((Arc::clone(&lists.found), self.rows))
            }
            // A chunk of full tensors holds a level for each element of each row; anything
            // else (or a footer that says so) is not read here.
            None => {
                let total = self.rows.checked_mul(self.size);
                if total.is_none() || num_values != total {
                    return Ok(None);
                }
                None
            }
        };
        Ok(Some(FullTensorPages {
            inner: SerializedPageReader::new(
                Arc::new(self.fetched.clone()),
                chunk,
                self.rows,
                self.locations.map(<[PageLocation]>::to_vec),
            )?,
            size: self.size as u64,
            max_def: chunk.column_descr().max_def_level(),
            level: 0,
            located: self.locations.is_some(),
            lists,
        }))
    }

    /// Elements wanted: of the first `read_rows` tensors, or of the selected ones.
    fn wanted(&self) -> usize {
        match self.lists {
            Some(lists) => lists.elements,
            None => self.selection.map_or(self.read_rows, |s| s.rows) * self.size,
        }
    }

    /// Elements read through: of the first `read_rows` tensors.
    fn elements(&self) -> usize {
        match self.lists {
            Some(lists) => lists.elements,
            None => self.read_rows * self.size,
        }
    }

    /// The selected rows as runs of elements (`None`: every element).
    fn selected_elements(&self) -> Option<VecDeque<std::ops::Range<usize>>> {
        self.selection.map(|selection| {
            selection
                .runs
                .iter()
                .map(|run| run.start * self.size..run.end * self.size)
                .collect()
        })
    }

    /// The element counts of the batches the values are given in (a variable-shape tensor's
    /// in one).
    fn batches(&self) -> impl Iterator<Item = usize> + use<> {
        let wanted = self.wanted();
        let batch = match self.lists {
            Some(_) => wanted,
            None => self.batch_rows * self.size,
        };
        (0..wanted)
            .step_by(batch.max(1))
            .map(move |start| batch.min(wanted - start))
    }

    /// Room to reserve for `count` values of `width` bytes: only as much as the footer's sizes
    /// can vouch for (a corrupt footer must not make this allocate beyond what the pages
    /// hold); a reader grows its buffer past that.
    fn vouched(&self, count: usize, width: usize) -> usize {
        let vouched = usize::try_from(self.group.column(self.leaf).uncompressed_size())
            .unwrap_or(0)
            .saturating_mul(8);
        count.min(vouched / width.max(1))
    }
}

/// The values of a tensor column chunk as arrow-rs gives them for `element`, in arrays of the
/// chunk's batches, when every tensor and element in it is non-NULL and every list has the
/// tensor's size; `None` when the levels say otherwise.
fn read_tensor_values(chunk: &Chunk, element: Element) -> Result<Option<Vec<ArrayRef>>> {
    fn arrays<T: ArrowPrimitiveType>(
        batches: Option<Vec<Vec<T::Native>>>,
    ) -> Option<Vec<ArrayRef>> {
        Some(
            batches?
                .into_iter()
                .map(|values| {
                    Arc::new(PrimitiveArray::<T>::new(ScalarBuffer::from(values), None)) as ArrayRef
                })
                .collect(),
        )
    }
    // The unsigned types of the same width as their physical one: the bits reinterpreted.
    fn reinterpreted<T: ArrowPrimitiveType, N: arrow::datatypes::ArrowNativeType>(
        batches: Option<Vec<Vec<N>>>,
    ) -> Option<Vec<ArrayRef>> {
        Some(
            batches?
                .into_iter()
                .map(|values| {
                    let len = values.len();
                    let buffer = ScalarBuffer::<T::Native>::new(Buffer::from_vec(values), 0, len);
                    Arc::new(PrimitiveArray::<T>::new(buffer, None)) as ArrayRef
                })
                .collect(),
        )
    }
    Ok(match element {
        Element::Float32 => arrays::<Float32Type>(read_numbers::<pq::FloatType, _>(chunk)?),
        Element::Float64 => arrays::<Float64Type>(read_numbers::<pq::DoubleType, _>(chunk)?),
        Element::Int32 => arrays::<Int32Type>(read_numbers::<pq::Int32Type, _>(chunk)?),
        Element::Int64 => arrays::<Int64Type>(read_numbers::<pq::Int64Type, _>(chunk)?),
        Element::Int8 => arrays::<Int8Type>(read_narrow(chunk, |v| v as i8)?),
        Element::Int16 => arrays::<Int16Type>(read_narrow(chunk, |v| v as i16)?),
        Element::UInt8 => arrays::<UInt8Type>(read_narrow(chunk, |v| v as u8)?),
        Element::UInt16 => arrays::<UInt16Type>(read_narrow(chunk, |v| v as u16)?),
        Element::UInt32 => {
            reinterpreted::<UInt32Type, i32>(read_numbers::<pq::Int32Type, _>(chunk)?)
        }
        Element::UInt64 => {
            reinterpreted::<UInt64Type, i64>(read_numbers::<pq::Int64Type, _>(chunk)?)
        }
        Element::Float16 => match read_half_values(chunk)? {
            PagesRead::Read(values) => reinterpreted::<Float16Type, u16>(Some(values)),
            PagesRead::NotFull => None,
            // An encoding not decoded here (the delta ones): arrow-rs's column reader, one
            // `Bytes` per value.
            PagesRead::OtherEncoding => reinterpreted::<Float16Type, u16>(
                read_values::<pq::FixedLenByteArrayType>(chunk)?.and_then(|batches| {
                    batches
                        .iter()
                        .map(|values| {
                            values
                                .iter()
                                .map(|v| Some(u16::from_le_bytes(v.data().try_into().ok()?)))
                                .collect::<Option<Vec<u16>>>()
                        })
                        .collect()
                }),
            ),
        },
        Element::Boolean => read_boolean_values(chunk)?.map(|values| {
            let mut start = 0;
            chunk
                .batches()
                .map(|len| {
                    let array = BooleanArray::new(values.slice(start, len), None);
                    start += len;
                    Arc::new(array) as ArrayRef
                })
                .collect()
        }),
    })
}

/// The physical values of a tensor column chunk, in the chunk's batches, when every tensor and
/// element in it is non-NULL and every list has the tensor's size; `None` when the levels say
/// otherwise.
///
/// The levels are checked page by page as encoded ([`FullTensorPages`]), and arrow-rs's column
/// reader decodes the values alone: it reads the column as if it were a required column of
/// plain values, from pages that no longer hold levels. Decoding the levels to `i16`s instead
/// (`read_records` with level buffers) and checking those took 40% of a 4-column scan.
fn read_values<P: ParquetDataType>(chunk: &Chunk) -> Result<Option<Vec<Vec<P::T>>>> {
    let Some(pages) = chunk.pages()? else {
        return Ok(None);
    };
    let descr = chunk.group.column(chunk.leaf).column_descr();
    let values_only = Arc::new(ColumnDescriptor::new(
        Arc::new(
            SchemaType::primitive_type_builder(descr.name(), descr.physical_type())
                .with_repetition(Repetition::REQUIRED)
                .with_length(descr.type_length())
                .build()?,
        ),
        0,
        0,
        descr.path().clone(),
    ));
    let mut reader = ColumnReaderImpl::<P>::new(values_only, Box::new(pages));
    if chunk.selection.is_some() {
        return read_selected_values(chunk, &mut reader);
    }
    let mut batches = Vec::new();
    for count in chunk.batches() {
        let mut values: Vec<P::T> = Vec::with_capacity(chunk.vouched(count, size_of::<P::T>()));
        let (_, read, _) = reader.read_records(count, None, None, &mut values)?;
        if read != count {
            return Ok(None);
        }
        batches.push(values);
    }
    Ok(Some(batches))
}

/// [`read_values`] of a chunk with a selection: the values read a stretch at a time into one
/// buffer, and those of the selected rows kept. (Every stretch is decoded: arrow-rs's column
/// reader skips delta-encoded values with checked arithmetic that fails on values its
/// decoding wraps, "delta*n overflow in skip".)
fn read_selected_values<P: ParquetDataType>(
    chunk: &Chunk,
    reader: &mut ColumnReaderImpl<P>,
) -> Result<Option<Vec<Vec<P::T>>>> {
    // A batch's values at most, and few enough to stay in cache.
    let stretch = (chunk.batch_rows * chunk.size).clamp(1, 16 * 1024);
    let mut batches = Batches::new(chunk);
    let mut values: Vec<P::T> = Vec::with_capacity(chunk.vouched(stretch, size_of::<P::T>()));
    let elements = chunk.elements();
    let mut at = 0;
    while !batches.is_full() && at < elements {
        let n = stretch.min(elements - at);
        values.clear();
        let (_, read, _) = reader.read_records(n, None, None, &mut values)?;
        if read != n {
            return Ok(None);
        }
        batches.extend_from_slice(&values);
        at += n;
    }
    Ok(batches.is_full().then_some(batches.done))
}

/// The values of a chunk of 4- or 8-byte numbers (`T` one of arrow-rs's physical types for
/// them): with a selection, plain and dictionary pages decoded here, those holding no selected
/// row passed over; without one, or in another encoding, [`read_values`].
fn read_numbers<P: ParquetDataType<T = T>, T: Plain>(chunk: &Chunk) -> Result<Option<Vec<Vec<T>>>> {
    if chunk.selection.is_some() {
        let plain = |bytes: &[u8]| T::decode(bytes);
        let read = read_pages(
            chunk,
            T::WIDTH,
            plain,
            |out, buf, n, encoding| match encoding {
                Encoding::PLAIN => buf
                    .get(..T::WIDTH * n)
                    .is_some_and(|bytes| T::decode_into(bytes, out)),
                _ => false,
            },
        )?;
        return read.or_else(|| read_values::<P>(chunk));
    }
    read_values::<P>(chunk)
}

/// A number stored in Parquet as its little-endian bytes.
trait Plain: Copy + Default {
    const WIDTH: usize;

    /// Appends the numbers of `bytes` (a whole number of them) to `out`.
    fn decode_into(bytes: &[u8], out: &mut Vec<Self>) -> bool;

    fn decode(bytes: &[u8]) -> Option<Vec<Self>> {
        let mut out = Vec::with_capacity(bytes.len() / Self::WIDTH);
        Self::decode_into(bytes, &mut out).then_some(out)
    }
}

macro_rules! plain_number {
    ($($t:ty),*) => {$(
        impl Plain for $t {
            const WIDTH: usize = size_of::<$t>();

            fn decode_into(bytes: &[u8], out: &mut Vec<Self>) -> bool {
                let (words, rest) = bytes.as_chunks::<{ size_of::<$t>() }>();
                out.extend(words.iter().map(|w| <$t>::from_le_bytes(*w)));
                rest.is_empty()
            }
        }
    )*};
}

plain_number!(i32, i64, f32, f64);

/// Values decoded page by page, gathered into the chunk's batches: those of the selected rows
/// when the chunk has a selection.
struct Batches<T> {
    done: Vec<Vec<T>>,
    current: Vec<T>,
    /// The element counts of the batches still to fill, the current one first.
    counts: VecDeque<usize>,
    /// The selected elements still ahead, as runs (`None`: every element).
    selected: Option<VecDeque<std::ops::Range<usize>>>,
    /// Elements of the chunk gone by (kept or not).
    seen: usize,
}

impl<T: Clone> Batches<T> {
    fn new(chunk: &Chunk) -> Self {
        Self {
            done: Vec::new(),
            current: Vec::new(),
            counts: chunk.batches().collect(),
            selected: chunk.selected_elements(),
            seen: 0,
        }
    }

    fn is_full(&self) -> bool {
        self.counts.is_empty()
    }

    /// Whether any of the next `n` elements is wanted.
    fn wants(&self, n: usize) -> bool {
        match &self.selected {
            None => true,
            Some(runs) => runs.front().is_some_and(|run| run.start < self.seen + n),
        }
    }

    /// Passes over the next `n` elements, none of them wanted.
    fn skip(&mut self, n: usize) {
        self.seen += n;
    }

    /// Appends the wanted ones of the next `values.len()` elements.
    fn extend_from_slice(&mut self, values: &[T]) {
        if self.selected.is_none() {
            self.push(values);
            return;
        }
        for range in self.advance(values.len()) {
            self.push(&values[range]);
        }
    }

    /// Passes over the next `n` elements, giving the wanted ones as ranges of them (the
    /// caller [`Self::push`]es their values).
    fn advance(&mut self, n: usize) -> Vec<std::ops::Range<usize>> {
        let (start, end) = (self.seen, self.seen + n);
        self.seen = end;
        let Some(runs) = &mut self.selected else {
            return std::iter::once(0..n).collect();
        };
        let mut wanted = Vec::new();
        while let Some(run) = runs.front_mut() {
            if run.start >= end {
                break;
            }
            wanted.push(run.start.max(start) - start..run.end.min(end) - start);
            if run.end <= end {
                runs.pop_front();
            } else {
                run.start = end;
                break;
            }
        }
        wanted
    }

    /// Appends `values`, past the last batch dropped.
    fn push(&mut self, mut values: &[T]) {
        while let Some(&count) = self.counts.front() {
            if values.is_empty() {
                break;
            }
            if self.current.capacity() == 0 {
                self.current.reserve_exact(count);
            }
            let take = (count - self.current.len()).min(values.len());
            self.current.extend_from_slice(&values[..take]);
            values = &values[take..];
            if self.current.len() == count {
                self.done.push(std::mem::take(&mut self.current));
                self.counts.pop_front();
            }
        }
    }
}

/// The values of a tensor column chunk's pages, in the chunk's batches: data pages decoded by
/// `decode` (a page's values buffer, its value count and its encoding, appended to a page
/// buffer; `false`: not an encoding decoded here), dictionary-encoded ones looked up in the
/// chunk's dictionary page, whose plain values `plain` decodes. Pages that hold no value the
/// chunk's selection wants are passed over undecoded (their levels still checked); of a plain
/// page (values of `plain_width` bytes) only the wanted values are decoded.
fn read_pages<T: Copy + Default>(
    chunk: &Chunk,
    plain_width: usize,
    plain: impl Fn(&[u8]) -> Option<Vec<T>>,
    mut decode: impl FnMut(&mut Vec<T>, &[u8], usize, Encoding) -> bool,
) -> Result<PagesRead<T>> {
    let Some(mut pages) = chunk.pages()? else {
        return Ok(PagesRead::NotFull);
    };
    let mut batches = Batches::new(chunk);
    let mut dictionary: Option<Dictionary<T>> = None;
    // One page's values, then copied into the batches (a page is small, so the copy reads
    // from cache).
    let mut page: Vec<T> = Vec::new();
    while !batches.is_full() {
        // A page the offset index locates that holds no value wanted: not even read.
        if chunk.selection.is_some()
            && !chunk.decode_unwanted
            && let Some(rows) = pages.located_rows()?
            && !batches.wants(rows * chunk.size)
        {
            pages.pass_over(rows)?;
            batches.skip(rows * chunk.size);
            continue;
        }
        match pages.get_next_page()? {
            Some(Page::DictionaryPage { buf, .. }) => {
                let Some(entries) = plain(&buf).and_then(Dictionary::new) else {
                    return Ok(PagesRead::OtherEncoding);
                };
                dictionary = Some(entries);
            }
            Some(Page::DataPage {
                buf,
                num_values,
                encoding,
                ..
            }) => {
                let n = num_values as usize;
                // Its levels are checked (above, by `pages`); its values are not wanted.
                if !batches.wants(n) && !chunk.decode_unwanted {
                    batches.skip(n);
                    continue;
                }
                page.clear();
                // A plain page with a selection: the wanted values' bytes alone decoded.
                if encoding == Encoding::PLAIN
                    && chunk.selection.is_some()
                    && buf.len() >= n * plain_width
                {
                    for range in batches.advance(n) {
                        let bytes = &buf[range.start * plain_width..range.end * plain_width];
                        if !decode(&mut page, bytes, range.len(), encoding) {
                            return Ok(PagesRead::OtherEncoding);
                        }
                    }
                    batches.push(&page);
                    continue;
                }
                // A dictionary-encoded page of wide indices (more than 2^16 entries) with a
                // selection: the wanted values alone looked up (every index still checked).
                // Narrower ones are decoded whole, 8 at a time, then the wanted kept: for
                // uint8 images a lookup per wanted value made a 10% filter 25% slower.
                if matches!(
                    encoding,
                    Encoding::RLE_DICTIONARY | Encoding::PLAIN_DICTIONARY
                ) && chunk.selection.is_some()
                    && buf.first().is_some_and(|&width| width > 16)
                {
                    let wanted = batches.advance(n);
                    let read = dictionary.as_ref().is_some_and(|entries| {
                        buf.split_first().is_some_and(|(&width, data)| {
                            selected_dictionary_values(data, n, width, entries, &wanted, &mut page)
                        })
                    });
                    if !read
                        || page.len() != wanted.iter().map(ExactSizeIterator::len).sum::<usize>()
                    {
                        return Ok(PagesRead::NotFull);
                    }
                    batches.push(&page);
                    continue;
                }
                let decoded = match encoding {
                    Encoding::RLE_DICTIONARY | Encoding::PLAIN_DICTIONARY => dictionary
                        .as_ref()
                        .is_some_and(|entries| dictionary_page(&mut page, &buf, n, entries)),
                    _ if !decode(&mut page, &buf, n, encoding) => {
                        return Ok(PagesRead::OtherEncoding);
                    }
                    _ => true,
                };
                if !decoded || page.len() != n {
                    return Ok(PagesRead::NotFull);
                }
                batches.extend_from_slice(&page);
            }
            // The chunk ended early, or a page of another kind.
            None | Some(_) => return Ok(PagesRead::NotFull),
        }
    }
    Ok(PagesRead::Read(batches.done))
}

/// What [`read_pages`] made of a chunk.
enum PagesRead<T> {
    /// Its values, in the chunk's batches.
    Read(Vec<Vec<T>>),
    /// A page in an encoding not decoded there (or too short for one that is): for arrow-rs's
    /// column reader to read.
    OtherEncoding,
    /// Anything but the pages of full tensors the footer announces (`None` for the caller).
    NotFull,
}

impl<T> PagesRead<T> {
    /// The values read, or those `other` reads when a page's encoding is not decoded here.
    fn or_else(
        self,
        other: impl FnOnce() -> Result<Option<Vec<Vec<T>>>>,
    ) -> Result<Option<Vec<Vec<T>>>> {
        match self {
            Self::Read(batches) => Ok(Some(batches)),
            Self::NotFull => Ok(None),
            Self::OtherEncoding => other(),
        }
    }
}

/// A dictionary-encoded data page's values (`buf`: the index bit width, then the indices as
/// RLE/bit-packed runs) from `dictionary`, appended to `out`; `false` when the page holds
/// fewer values or an index past the dictionary.
fn dictionary_page<T: Copy>(
    out: &mut Vec<T>,
    buf: &[u8],
    n: usize,
    dictionary: &Dictionary<T>,
) -> bool {
    buf.split_first()
        .is_some_and(|(&width, data)| dictionary_values(data, n, width, dictionary, out))
}

/// The INT32 values of a tensor column chunk narrowed to `T` as arrow-rs narrows them
/// (`cast`, a truncating `as`). Plain and dictionary pages are decoded straight into `T` (through
/// arrow-rs's column reader, every value went through a 4-byte buffer first: for 28x28 uint8
/// images that buffer was most of the scan's time); other encodings are read by arrow-rs's
/// column reader and then narrowed.
fn read_narrow<T: Copy + Default>(
    chunk: &Chunk,
    cast: impl Fn(i32) -> T,
) -> Result<Option<Vec<Vec<T>>>> {
    // Plain INT32s, narrowed.
    let words = |bytes: &[u8]| -> Option<Vec<T>> {
        let (words, rest) = bytes.as_chunks::<4>();
        rest.is_empty()
            .then(|| words.iter().map(|w| cast(i32::from_le_bytes(*w))).collect())
    };
    let read = read_pages(chunk, 4, words, |out, buf, n, encoding| match encoding {
        // Straight into the page buffer (not through a vector of the page's own).
        Encoding::PLAIN => buf.get(..4 * n).is_some_and(|bytes| {
            let (words, _) = bytes.as_chunks::<4>();
            out.extend(words.iter().map(|w| cast(i32::from_le_bytes(*w))));
            true
        }),
        _ => false,
    })?;
    read.or_else(|| {
        Ok(read_values::<pq::Int32Type>(chunk)?.map(|batches| {
            batches
                .into_iter()
                .map(|values| values.into_iter().map(&cast).collect())
                .collect()
        }))
    })
}

/// The Float16 values (as their bits) of a tensor column chunk, as [`read_values`] gives the
/// others. arrow-rs's column reader would give each 2-byte value as a `Bytes` of its own; the
/// encodings writers use for them are decoded here instead (plain, byte-stream-split and
/// dictionary); [`PagesRead::OtherEncoding`] for a page in any other encoding.
fn read_half_values(chunk: &Chunk) -> Result<PagesRead<u16>> {
    // Plain 2-byte values.
    let words = |bytes: &[u8]| -> Option<Vec<u16>> {
        let (words, rest) = bytes.as_chunks::<2>();
        rest.is_empty()
            .then(|| words.iter().map(|w| u16::from_le_bytes(*w)).collect())
    };
    read_pages(chunk, 2, words, |out, buf, n, encoding| match encoding {
        Encoding::PLAIN => buf.get(..2 * n).is_some_and(|bytes| {
            let (words, _) = bytes.as_chunks::<2>();
            out.extend(words.iter().map(|w| u16::from_le_bytes(*w)));
            true
        }),
        Encoding::BYTE_STREAM_SPLIT => match (buf.get(..n), buf.get(n..2 * n)) {
            (Some(low), Some(high)) => {
                out.extend(
                    low.iter()
                        .zip(high)
                        .map(|(&l, &h)| u16::from_le_bytes([l, h])),
                );
                true
            }
            _ => false,
        },
        _ => false,
    })
}

/// The Boolean values of a tensor column chunk, the chunk's batches one after another
/// (arrow-rs's column reader does not read booleans into a `Vec<bool>`): plain (bit-packed)
/// and RLE pages.
fn read_boolean_values(chunk: &Chunk) -> Result<Option<BooleanBuffer>> {
    let Some(mut pages) = chunk.pages()? else {
        return Ok(None);
    };
    let elements = chunk.elements();
    let mut values = BooleanBufferBuilder::new(chunk.vouched(elements, 1));
    let mut runs: Vec<u32> = Vec::new();
    while values.len() < elements {
        let Some(Page::DataPage {
            buf,
            num_values,
            encoding,
            ..
        }) = pages.get_next_page()?
        else {
            return Ok(None);
        };
        let n = num_values as usize;
        match encoding {
            Encoding::PLAIN if buf.len() >= n.div_ceil(8) => values.append_packed_range(0..n, &buf),
            // The values after their 4-byte length, as 1-bit RLE/bit-packed runs.
            Encoding::RLE => {
                runs.clear();
                if !buf
                    .get(4..)
                    .is_some_and(|data| hybrid_values(data, n, 1, 2, &mut runs))
                {
                    return Ok(None);
                }
                for &bit in &runs {
                    values.append(bit == 1);
                }
            }
            _ => return Ok(None),
        }
    }
    let values = values.finish().slice(0, elements);
    // A selection's bits, copied out of all of them (booleans are a bit apiece: decoding them
    // all costs little).
    Ok(Some(match chunk.selected_elements() {
        None => values,
        Some(runs) => {
            let mut selected = BooleanBufferBuilder::new(chunk.wanted());
            for run in runs {
                selected.append_buffer(&values.slice(run.start, run.len()));
            }
            selected.finish()
        }
    }))
}

/// A tensor column chunk's pages, each checked to hold full tensors (every definition level
/// the maximum, a repetition level 0 exactly at the start of every `size` levels) and handed on
/// as a page of its values alone. A page that holds anything else is an error (the row group
/// is then read by DataFusion's reader).
struct FullTensorPages {
    inner: SerializedPageReader<Fetched>,
    size: u64,
    max_def: i16,
    /// Levels checked so far in the chunk (counting those of pages passed over as full).
    level: u64,
    /// Whether the offset index locates the pages.
    located: bool,
    /// For a variable-shape tensor's `data` chunk (`size` unused): the lists found, and how
    /// many there may be at most.
    lists: Option<(Arc<Mutex<ListsFound>>, usize)>,
}

fn not_full() -> ParquetError {
    ParquetError::General("not a column of full tensors".to_string())
}

impl FullTensorPages {
    /// The rows of the next page, when it is a data page the offset index locates, starting at
    /// the start of a tensor: such a page can be passed over unread ([`Self::pass_over`]).
    fn located_rows(&mut self) -> Result<Option<usize>, ParquetError> {
        if !self.located || self.lists.is_some() || !self.level.is_multiple_of(self.size) {
            return Ok(None);
        }
        Ok(self
            .inner
            .peek_next_page()?
            .filter(|page| !page.is_dict)
            .and_then(|page| page.num_rows))
    }

    /// Passes over the next page, of `rows` rows ([`Self::located_rows`]), unread: whatever it
    /// holds, the next page starts at the tensor the offset index says.
    fn pass_over(&mut self, rows: usize) -> Result<(), ParquetError> {
        self.inner.skip_next_page()?;
        self.level += rows as u64 * self.size;
        Ok(())
    }

    /// `levels` levels: repetition levels `rep`, definition levels `def`, RLE/bit-packed hybrid.
    ///
    /// A page the offset index locates must hold the levels of its rows' tensors, from the
    /// start of one (`rows`): pages passed over are counted by the index, and one that says
    /// otherwise would misplace every value after them.
    fn check(
        &mut self,
        rep: &[u8],
        def: &[u8],
        levels: usize,
        rows: Option<usize>,
    ) -> Result<(), ParquetError> {
        if let Some((found, max_lists)) = &self.lists {
            let mut found = found.lock().map_err(|_| not_full())?;
            let found = &mut *found;
            let start = self.level;
            if !list_starts(
                rep,
                def,
                levels,
                start,
                self.max_def,
                &mut found.starts,
                *max_lists,
            ) {
                return Err(not_full());
            }
            self.level += levels as u64;
            found.levels = self.level;
            return Ok(());
        }
        let located = rows.is_none_or(|rows| {
            self.level.is_multiple_of(self.size) && rows as u64 * self.size == levels as u64
        });
        if !located || !full_tensor_levels(rep, def, levels, self.level, self.size, self.max_def) {
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
        let rows = if self.located {
            self.inner
                .peek_next_page()?
                .filter(|page| !page.is_dict)
                .and_then(|page| page.num_rows)
        } else {
            None
        };
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
                self.check(
                    &buf[rep.0..rep.1],
                    &buf[def.0..def.1],
                    num_values as usize,
                    rows,
                )?;
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
                self.check(
                    &buf[..rep_end],
                    &buf[rep_end..def_end],
                    num_values as usize,
                    rows,
                )?;
                values_page(buf.slice(def_end..), num_values, encoding)
            }
            Some(page @ Page::DictionaryPage { .. }) => page,
            Some(_) => return Err(not_full()),
            None => return Ok(None),
        };
        Ok(Some(page))
    }

    /// The next page's size as the values-only column it is handed on as: a row per value (a
    /// version-2 header's row count is of tensors).
    fn peek_next_page(&mut self) -> Result<Option<PageMetadata>, ParquetError> {
        Ok(self.inner.peek_next_page()?.map(|metadata| PageMetadata {
            num_rows: None,
            ..metadata
        }))
    }

    /// Skipped, its levels still checked: a page of anything but full tensors would shift
    /// every value after it.
    fn skip_next_page(&mut self) -> Result<(), ParquetError> {
        self.get_next_page().map(drop)
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
