//! `COPY (SELECT ...) TO 'out.npy'` and `TO 'out.safetensors'`: DataFusion's `COPY` finds a
//! format by the file's extension (or `STORED AS`), and these formats write their files
//! themselves, to the local path given.
//!
//! - `.npy`: one column, a tensor (fixed shape) or plain numbers; the rows stacked along a new
//!   axis 0 (numpy's `np.stack`), row-major, little-endian. The header is written last, so the
//!   rows stream to the file as the query makes them.
//! - `.safetensors`: a string column of names and a tensor column (fixed or variable shape, or
//!   plain numbers: 0-d tensors); one tensor per row, written by the `safetensors` crate.
//!
//! Neither format has missing values: a NULL row or element is an error naming its row.

use std::collections::HashMap;
use std::fmt;
use std::io::{Seek, SeekFrom, Write};
use std::path::PathBuf;
use std::sync::Arc;

use arrow::array::{Array, ArrayRef, AsArray, FixedSizeListArray};
use arrow::datatypes::{DataType, SchemaRef};
use async_trait::async_trait;
use datafusion::catalog::Session;
use datafusion::common::{GetExt, Statistics};
use datafusion::datasource::file_format::file_compression_type::FileCompressionType;
use datafusion::datasource::file_format::{FileFormat, FileFormatFactory};
use datafusion::datasource::physical_plan::{
    FileScanConfig, FileSinkConfig, FileSource, ParquetSource,
};
use datafusion::datasource::sink::{DataSink, DataSinkExec};
use datafusion::datasource::table_schema::TableSchema;
use datafusion::error::{DataFusionError, Result};
use datafusion::execution::{SendableRecordBatchStream, TaskContext};
use datafusion::object_store::{ObjectMeta, ObjectStore};
use datafusion::physical_expr_common::sort_expr::LexRequirement;
use datafusion::physical_plan::{DisplayAs, DisplayFormatType, ExecutionPlan};
use futures::StreamExt;
use safetensors::tensor::{Dtype, View};

use super::npy::{descr_of, write_header};
use super::safetensors_file::dtype_of;
use crate::kernels::layout::row_major_values;
use crate::kernels::ragged;
use crate::tensor_type::TensorType;
use crate::variable_shape::{VariableShapeArray, VariableShapeType};

/// The two formats `COPY TO` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Npy,
    Safetensors,
}

impl Kind {
    fn extension(self) -> &'static str {
        match self {
            Self::Npy => "npy",
            Self::Safetensors => "safetensors",
        }
    }
}

/// `COPY ... TO 'out.npy'` (or `STORED AS NPY`).
#[derive(Debug, Default, Clone, Copy)]
pub struct NpyFormatFactory;

/// `COPY ... TO 'out.safetensors'` (or `STORED AS SAFETENSORS`).
#[derive(Debug, Default, Clone, Copy)]
pub struct SafetensorsFormatFactory;

impl GetExt for NpyFormatFactory {
    fn get_ext(&self) -> String {
        "npy".into()
    }
}

impl GetExt for SafetensorsFormatFactory {
    fn get_ext(&self) -> String {
        "safetensors".into()
    }
}

impl FileFormatFactory for NpyFormatFactory {
    fn create(&self, _: &dyn Session, _: &HashMap<String, String>) -> Result<Arc<dyn FileFormat>> {
        Ok(Arc::new(WriteFormat(Kind::Npy)))
    }

    fn default(&self) -> Arc<dyn FileFormat> {
        Arc::new(WriteFormat(Kind::Npy))
    }
}

impl FileFormatFactory for SafetensorsFormatFactory {
    fn create(&self, _: &dyn Session, _: &HashMap<String, String>) -> Result<Arc<dyn FileFormat>> {
        Ok(Arc::new(WriteFormat(Kind::Safetensors)))
    }

    fn default(&self) -> Arc<dyn FileFormat> {
        Arc::new(WriteFormat(Kind::Safetensors))
    }
}

/// A format that writes (reading is `read_npy`'s and `read_safetensors`' tables).
#[derive(Debug)]
struct WriteFormat(Kind);

impl WriteFormat {
    fn read_error<T>(&self) -> Result<T> {
        let function = match self.0 {
            Kind::Npy => "read_npy",
            Kind::Safetensors => "read_safetensors",
        };
        Err(DataFusionError::Plan(format!(
            ".{} files are read with {function}('path or glob') or CREATE EXTERNAL TABLE ... \
             STORED AS {}",
            self.0.extension(),
            self.0.extension().to_uppercase()
        )))
    }
}

#[async_trait]
impl FileFormat for WriteFormat {
    fn get_ext(&self) -> String {
        self.0.extension().into()
    }

    fn get_ext_with_compression(&self, compression: &FileCompressionType) -> Result<String> {
        if compression.is_compressed() {
            return Err(DataFusionError::Plan(format!(
                ".{} files are not compressed",
                self.0.extension()
            )));
        }
        Ok(self.get_ext())
    }

    fn compression_type(&self) -> Option<FileCompressionType> {
        None
    }

    async fn infer_schema(
        &self,
        _: &dyn Session,
        _: &Arc<dyn ObjectStore>,
        _: &[ObjectMeta],
    ) -> Result<SchemaRef> {
        self.read_error()
    }

    async fn infer_stats(
        &self,
        _: &dyn Session,
        _: &Arc<dyn ObjectStore>,
        _: SchemaRef,
        _: &ObjectMeta,
    ) -> Result<Statistics> {
        self.read_error()
    }

    async fn create_physical_plan(
        &self,
        _: &dyn Session,
        _: FileScanConfig,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        self.read_error()
    }

    async fn create_writer_physical_plan(
        &self,
        input: Arc<dyn ExecutionPlan>,
        _: &dyn Session,
        conf: FileSinkConfig,
        order_requirements: Option<LexRequirement>,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        let extension = self.0.extension();
        if !conf.table_partition_cols.is_empty() {
            return Err(DataFusionError::Plan(format!(
                "COPY TO .{extension}: PARTITIONED BY is not supported (one file is written)"
            )));
        }
        let url = conf.original_url.as_str();
        let path = url.strip_prefix("file://").unwrap_or(url);
        if path.contains("://") || path.ends_with('/') {
            return Err(DataFusionError::Plan(format!(
                "COPY TO .{extension} writes one local file: '{url}' is not a local file path"
            )));
        }
        let sink = Arc::new(TensorFileSink::new(
            self.0,
            PathBuf::from(path),
            Arc::clone(conf.output_schema()),
        )?);
        Ok(Arc::new(DataSinkExec::new(input, sink, order_requirements)))
    }

    fn file_source(&self, table_schema: TableSchema) -> Arc<dyn FileSource> {
        // Never scanned (`create_physical_plan` refuses): DataFusion's trait asks for one.
        Arc::new(ParquetSource::new(table_schema))
    }
}

/// Writes a query's rows to one `.npy` or `.safetensors` file.
#[derive(Debug)]
struct TensorFileSink {
    kind: Kind,
    path: PathBuf,
    schema: SchemaRef,
    /// The tensor column: its index and its values' shape.
    tensor: usize,
    values: Values,
    /// The names' column (safetensors).
    names: usize,
}

impl DisplayAs for TensorFileSink {
    fn fmt_as(&self, _: DisplayFormatType, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TensorFileSink: {}", self.path.display())
    }
}

/// The shape of a column's values: a fixed-shape tensor, a variable-shape tensor, or plain
/// numbers.
#[derive(Debug)]
enum Values {
    Fixed(TensorType),
    Variable(VariableShapeType),
    Plain(DataType),
}

impl Values {
    fn of(field: &arrow::datatypes::Field) -> Result<Option<Self>> {
        if let Some(t) = TensorType::from_field(field)? {
            return Ok(Some(Self::Fixed(t)));
        }
        if let Some(t) = VariableShapeType::from_field(field)? {
            return Ok(Some(Self::Variable(t)));
        }
        let element = field.data_type();
        Ok(crate::tensor_type::is_element_type(element).then(|| Self::Plain(element.clone())))
    }

    fn element(&self) -> &DataType {
        match self {
            Self::Fixed(t) => t.element_type(),
            Self::Variable(t) => t.element_type(),
            Self::Plain(e) => e,
        }
    }
}

impl TensorFileSink {
    /// The sink of `kind` writing `schema`'s rows to `path`; errors when the columns are not
    /// what the format holds.
    fn new(kind: Kind, path: PathBuf, schema: SchemaRef) -> Result<Self> {
        let (tensor, values, names) = Self::columns(kind, &schema)?;
        Ok(Self {
            kind,
            path,
            schema,
            tensor,
            values,
            names: names.unwrap_or_default(),
        })
    }

    /// The tensor column's index and shape, and the name column's index (safetensors).
    fn columns(kind: Kind, schema: &SchemaRef) -> Result<(usize, Values, Option<usize>)> {
        let ext = kind.extension();
        let fields = schema.fields();
        let mut tensor = None;
        let mut name = None;
        for (i, field) in fields.iter().enumerate() {
            if let Some(values) = Values::of(field)? {
                if tensor.is_some() {
                    return Err(DataFusionError::Plan(format!(
                        "COPY TO .{ext}: the query has two tensor columns ('{}' is the second): \
                         select one",
                        field.name()
                    )));
                }
                tensor = Some((i, values));
            } else if matches!(
                field.data_type(),
                DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View
            ) && kind == Kind::Safetensors
                && name.is_none()
            {
                name = Some(i);
            } else {
                return Err(DataFusionError::Plan(format!(
                    "COPY TO .{ext}: column '{}' ({}) is not {}",
                    field.name(),
                    field.data_type(),
                    match kind {
                        Kind::Npy => "a tensor or numeric column: .npy holds one array",
                        Kind::Safetensors => "the names (a string column) or the tensors",
                    }
                )));
            }
        }
        let Some((index, values)) = tensor else {
            return Err(DataFusionError::Plan(format!(
                "COPY TO .{ext}: the query has no tensor or numeric column"
            )));
        };
        match (kind, &values, name) {
            (Kind::Npy, Values::Variable(_), _) => Err(DataFusionError::Plan(
                "COPY TO .npy: a variable-shape tensor column has no one shape to stack: \
                 write it to .safetensors, or reshape its rows to one shape"
                    .into(),
            )),
            (Kind::Npy, _, _) if descr_of(values.element()).is_none() => {
                Err(DataFusionError::Plan(format!(
                    "COPY TO .npy: {} has no .npy dtype",
                    values.element()
                )))
            }
            (Kind::Safetensors, _, None) => Err(DataFusionError::Plan(
                "COPY TO .safetensors: the query needs a string column of tensor names beside \
                 its tensor column"
                    .into(),
            )),
            _ => Ok((index, values, name)),
        }
    }

    fn fail(&self, message: impl std::fmt::Display) -> DataFusionError {
        DataFusionError::Execution(format!("COPY TO '{}': {message}", self.path.display()))
    }
}

/// The little-endian bytes of `values` (primitive or boolean, no NULLs).
fn element_bytes(values: &ArrayRef) -> Vec<u8> {
    if let Some(bools) = values.as_boolean_opt() {
        return bools.values().iter().map(u8::from).collect();
    }
    let data = values.to_data();
    let width = values.data_type().primitive_width().unwrap_or(1);
    data.buffers()[0].as_slice()[data.offset() * width..][..data.len() * width].to_vec()
}

#[async_trait]
impl DataSink for TensorFileSink {
    fn schema(&self) -> &SchemaRef {
        &self.schema
    }

    async fn write_all(
        &self,
        data: SendableRecordBatchStream,
        _context: &Arc<TaskContext>,
    ) -> Result<u64> {
        match self.kind {
            Kind::Npy => self.write_npy(data).await,
            Kind::Safetensors => self.write_safetensors(data).await,
        }
    }
}

impl TensorFileSink {
    async fn write_npy(&self, mut data: SendableRecordBatchStream) -> Result<u64> {
        let (column, values) = (self.tensor, &self.values);
        let (inner, element) = match &values {
            Values::Fixed(t) => (t.logical_shape(), t.element_type().clone()),
            _ => (Vec::new(), values.element().clone()),
        };
        let descr = descr_of(&element).unwrap_or("<f8");
        let mut placeholder_shape = vec![usize::MAX];
        placeholder_shape.extend(&inner);
        let header_len = write_header(descr, &placeholder_shape, 0).len();
        let io = |err: std::io::Error| self.fail(err.to_string());
        let mut file = std::io::BufWriter::new(std::fs::File::create(&self.path).map_err(io)?);
        file.write_all(&vec![b' '; header_len]).map_err(io)?;
        let mut rows = 0usize;
        while let Some(batch) = data.next().await {
            let batch = batch?;
            let array = batch.column(column);
            if let Some(row) = (0..array.len()).find(|&r| array.is_null(r)) {
                return Err(self.fail(format!(
                    "row {} is NULL: .npy has no missing values",
                    rows + row
                )));
            }
            let flat = match &values {
                Values::Fixed(t) => {
                    let list: &FixedSizeListArray = array.as_fixed_size_list();
                    row_major_values(t, list)?
                }
                _ => Arc::clone(array),
            };
            if flat.null_count() > 0 {
                return Err(self.fail(format!(
                    "an element of rows {}..{} is NULL: .npy has no missing values",
                    rows,
                    rows + array.len()
                )));
            }
            file.write_all(&element_bytes(&flat)).map_err(io)?;
            rows += array.len();
        }
        let mut shape = vec![rows];
        shape.extend(&inner);
        let header = write_header(descr, &shape, header_len);
        file.seek(SeekFrom::Start(0)).map_err(io)?;
        file.write_all(&header).map_err(io)?;
        file.flush().map_err(io)?;
        Ok(rows as u64)
    }

    async fn write_safetensors(&self, mut data: SendableRecordBatchStream) -> Result<u64> {
        let (column, values, name_column) = (self.tensor, &self.values, self.names);
        let dtype = dtype_of(values.element())
            .ok_or_else(|| self.fail(format!("{} has no safetensors dtype", values.element())))?;
        let mut tensors: Vec<(String, Tensor)> = Vec::new();
        let mut seen: HashMap<String, usize> = HashMap::new();
        let mut rows = 0usize;
        while let Some(batch) = data.next().await {
            let batch = batch?;
            let names = arrow::compute::cast(batch.column(name_column), &DataType::Utf8)?;
            let names = names.as_string::<i32>();
            let array = batch.column(column);
            for row in 0..batch.num_rows() {
                if names.is_null(row) || array.is_null(row) {
                    return Err(self.fail(format!(
                        "row {} has a NULL {}: safetensors has no missing values",
                        rows + row,
                        if names.is_null(row) { "name" } else { "tensor" }
                    )));
                }
            }
            let (shapes, flat): (Vec<Vec<usize>>, ArrayRef) = match &values {
                Values::Fixed(t) => (
                    vec![t.logical_shape(); array.len()],
                    row_major_values(t, array.as_fixed_size_list())?,
                ),
                Values::Variable(t) => {
                    let view = VariableShapeArray::try_new(t, array.as_ref())
                        .map_err(|err| self.fail(err.to_string()))?;
                    let shapes = (0..view.len())
                        .map(|r| view.logical_shape(r).collect())
                        .collect();
                    (shapes, ragged::row_major_values(&view)?)
                }
                Values::Plain(_) => (vec![Vec::new(); array.len()], Arc::clone(array)),
            };
            if flat.null_count() > 0 {
                return Err(self.fail(format!(
                    "an element of rows {}..{} is NULL: safetensors has no missing values",
                    rows,
                    rows + array.len()
                )));
            }
            let mut at = 0;
            for (row, shape) in shapes.into_iter().enumerate() {
                let len: usize = shape.iter().product();
                let bytes = element_bytes(&flat.slice(at, len));
                at += len;
                let name = names.value(row).to_string();
                if let Some(first) = seen.insert(name.clone(), rows + row) {
                    return Err(self.fail(format!(
                        "rows {first} and {} are both named '{name}': a safetensors file holds \
                         one tensor per name",
                        rows + row
                    )));
                }
                tensors.push((
                    name,
                    Tensor {
                        dtype,
                        shape,
                        bytes,
                    },
                ));
            }
            rows += batch.num_rows();
        }
        let path = self.path.clone();
        tokio::task::spawn_blocking(move || safetensors::serialize_to_file(tensors, None, &path))
            .await
            .map_err(|err| self.fail(err.to_string()))?
            .map_err(|err| self.fail(err.to_string()))?;
        Ok(rows as u64)
    }
}

/// One tensor to write.
struct Tensor {
    dtype: Dtype,
    shape: Vec<usize>,
    bytes: Vec<u8>,
}

impl View for Tensor {
    fn dtype(&self) -> Dtype {
        self.dtype
    }

    fn shape(&self) -> &[usize] {
        &self.shape
    }

    fn data(&self) -> std::borrow::Cow<'_, [u8]> {
        std::borrow::Cow::Borrowed(&self.bytes)
    }

    fn data_len(&self) -> usize {
        self.bytes.len()
    }
}
