//! What every tensor file behind a table gives the scan ([`TensorFile`]), and the memory map
//! its values are read from ([`Mapped`]).

use std::fmt;
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use arrow::array::{ArrayRef, FixedSizeListArray, Int64Array, RecordBatch, StringArray};
use arrow::buffer::Buffer;
use arrow::datatypes::{DataType, Field, Schema, SchemaRef};
use datafusion::error::{DataFusionError, Result};
use memmap2::Mmap;

use crate::parquet::fast::map_bytes;
use crate::tensor_type::TensorType;

/// One file of a table: its rows, each row's size, and any range of its rows as a batch of
/// the table's columns.
pub(crate) trait TensorFile: fmt::Debug + Send + Sync {
    /// The file's rows.
    fn rows(&self) -> usize;

    /// Bytes of `row`'s values (to size batches: a batch holds about 64 MiB at most).
    fn row_bytes(&self, row: usize) -> usize;

    /// The columns `projection` (of the table's schema) of `rows`, as `schema` (the
    /// projected schema).
    fn batch(
        &self,
        rows: Range<usize>,
        projection: &[usize],
        schema: &SchemaRef,
    ) -> Result<RecordBatch>;

    /// Rows per unit of storage (a Zarr chunk along axis 0): a scan's shares and batches end
    /// on multiples of it where they can, so that no unit is decoded twice.
    fn chunk_rows(&self) -> usize {
        1
    }

    /// Whether reading rows copies their values (a byte-order swap, a gather, packed
    /// booleans, a concatenation): a scan of files that copy nothing is one partition, in
    /// file order, since it has no work to share.
    fn copies(&self) -> bool {
        true
    }

    /// Every row's columns that need no tensor values (names, dtypes, shapes), as the
    /// table's schema with NULL tensors, for filters on them to choose the rows before any
    /// value is read; `None` when the file has no such columns.
    fn header(&self, _schema: &SchemaRef) -> Option<Result<RecordBatch>> {
        None
    }
}

/// A batch of `rows` rows of `columns`, as `schema` (a count for batches of no columns).
pub(crate) fn batch_of(
    schema: &SchemaRef,
    columns: Vec<arrow::array::ArrayRef>,
    rows: usize,
) -> Result<RecordBatch> {
    let options = arrow::array::RecordBatchOptions::new().with_row_count(Some(rows));
    Ok(RecordBatch::try_new_with_options(
        Arc::clone(schema),
        columns,
        &options,
    )?)
}

/// The column of each row's index along the file's axis 0 (numpy's `a[i]`): filters on it
/// choose the rows read, and each partition's rows are in its order.
pub(crate) const ROW_INDEX: &str = "row_index";

/// A batch of `rows` of a table of rows along axis 0 (`read_npy`, `read_zarr`): column 0 the
/// rows' index, 1 their values (`values` is called only when it is projected), 2 `name` (the
/// file's, for a table of several files).
pub(crate) fn rows_batch(
    rows: Range<usize>,
    projection: &[usize],
    schema: &SchemaRef,
    name: &str,
    values: impl Fn() -> Result<ArrayRef>,
) -> Result<RecordBatch> {
    let n = rows.len();
    let mut read: Option<ArrayRef> = None;
    let mut columns: Vec<ArrayRef> = Vec::with_capacity(projection.len());
    for &column in projection {
        columns.push(match column {
            0 => Arc::new(Int64Array::from_iter_values(
                rows.clone().map(|row| row as i64),
            )),
            1 => match &read {
                Some(values) => Arc::clone(values),
                None => Arc::clone(read.insert(values()?)),
            },
            _ => Arc::new(StringArray::from(vec![name; n])),
        });
    }
    batch_of(schema, columns, n)
}

/// The schema of a table of rows along axis 0, as [`rows_batch`] lays it out: `row_index`,
/// `x` (of `row_type`, or plain `element`s), and `filename` when `filename` is set.
pub(crate) fn rows_schema(
    row_type: Option<&TensorType>,
    element: &DataType,
    filename: bool,
) -> SchemaRef {
    let x = match row_type {
        Some(t) => t.to_field("x"),
        None => Field::new("x", element.clone(), true),
    };
    let mut fields = vec![Field::new(ROW_INDEX, DataType::Int64, false), x];
    if filename {
        fields.push(Field::new("filename", DataType::Utf8, false));
    }
    Arc::new(Schema::new(fields))
}

/// `values` (`rows` rows' elements, row-major) as the rows of `row_type` (`None`: plain
/// numbers).
pub(crate) fn rows_of(
    row_type: Option<&TensorType>,
    values: ArrayRef,
    rows: usize,
) -> Result<ArrayRef> {
    match row_type {
        None => Ok(values),
        // With its length: rows of zero elements hold no values to count them by.
        Some(t) => Ok(Arc::new(FixedSizeListArray::try_new_with_length(
            t.item_field(),
            t.list_size(),
            values,
            None,
            rows,
        )?)),
    }
}

/// A local file mapped into memory, whole (an empty file is an empty slice: it cannot be
/// mapped).
#[derive(Debug, Clone)]
pub(crate) struct Mapped {
    map: Option<Arc<Mmap>>,
}

impl Mapped {
    /// `path` mapped; errors name `function` and the file.
    pub(crate) fn open(function: &str, path: &Path) -> Result<Self> {
        let file = std::fs::File::open(path).map_err(|err| {
            DataFusionError::Plan(format!(
                "{function}: cannot open '{}': {err}",
                path.display()
            ))
        })?;
        let len = file
            .metadata()
            .map_err(|err| {
                DataFusionError::Plan(format!(
                    "{function}: cannot read '{}': {err}",
                    path.display()
                ))
            })?
            .len();
        if len == 0 {
            return Ok(Self { map: None });
        }
        // SAFETY: the map is read only. A file changed while it is mapped changes the values
        // read (as for numpy's `mmap_mode='r'` and the Parquet reader's maps): tables over
        // files that other processes rewrite in place are not supported.
        let map = unsafe { Mmap::map(&file) }.map_err(|err| {
            DataFusionError::Plan(format!(
                "{function}: cannot map '{}': {err}",
                path.display()
            ))
        })?;
        Ok(Self {
            map: Some(Arc::new(map)),
        })
    }

    /// The whole file.
    pub(crate) fn bytes(&self) -> &[u8] {
        self.map.as_deref().map_or(&[], |map| &map[..])
    }

    /// `range` of the file as an Arrow buffer over the map (no copy).
    pub(crate) fn buffer(&self, range: Range<usize>) -> Buffer {
        match &self.map {
            Some(map) if !range.is_empty() => Buffer::from(map_bytes(map, range)),
            _ => Buffer::from_vec(Vec::<u8>::new()),
        }
    }
}
