//! Files of named arrays (`.npz`, safetensors) as tables of one row per array: `name`,
//! `dtype` (the file format's own name for it), `shape` (the array's own), `tensor` and, when
//! the location names several files, `filename`.
//!
//! `tensor` is one `arrow.variable_shape_tensor` column, so its element type and number of
//! dimensions are the table's: the elements are numpy's promotion of every array's dtype (a
//! file of float16 and float32 arrays reads as float32), and an array with fewer dimensions
//! than the table's most has its shape padded with leading 1s, as numpy broadcasting reads it
//! (a `[768]` bias is a `[1, 768]` tensor beside `[768, 768]` weights). `shape` keeps the
//! array's own.

use std::ops::Range;
use std::sync::Arc;

use arrow::array::{
    ArrayRef, FixedSizeListArray, Int32Array, Int64Array, ListArray, RecordBatch, StringArray,
    StructArray, new_null_array,
};
use arrow::buffer::OffsetBuffer;
use arrow::compute::{cast, concat};
use arrow::datatypes::{DataType, Field, Schema, SchemaRef};
use datafusion::error::{DataFusionError, Result};

use super::source::{Mapped, TensorFile, batch_of};
use super::values::{Encoding, mapped_values, owned_values};
use crate::dtype::promote;
use crate::variable_shape::VariableShapeType;

/// The columns a file's header gives.
pub(crate) const HEADER: &[&str] = &["name", "dtype", "shape", "filename"];

/// Where an array's values are.
#[derive(Debug, Clone)]
pub(crate) enum Data {
    /// These bytes of the mapped file.
    Mapped(Range<usize>),
    /// Decoded when read (a compressed archive member).
    Read(Arc<dyn ReadEntry>),
}

/// An array whose bytes are decoded when it is read.
pub(crate) trait ReadEntry: std::fmt::Debug + Send + Sync {
    /// The array's bytes, in the entry's order.
    fn read(&self) -> Result<Vec<u8>>;
}

/// One named array of a file.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    pub(crate) name: String,
    pub(crate) dtype: String,
    pub(crate) shape: Vec<usize>,
    pub(crate) encoding: Encoding,
    /// The bytes are in Fortran order (numpy's `fortran_order` of an array of 2 or more
    /// dimensions).
    pub(crate) fortran: bool,
    pub(crate) data: Data,
    /// Bytes of values.
    pub(crate) bytes: usize,
}

/// A file of named arrays.
#[derive(Debug)]
pub(crate) struct NamedFile {
    pub(crate) file: String,
    pub(crate) map: Mapped,
    pub(crate) entries: Vec<Entry>,
    pub(crate) tensor: VariableShapeType,
}

/// The table over `paths`, each file's arrays listed by `entries` (errors name the file).
pub(crate) fn open_all(
    function: &str,
    paths: &[std::path::PathBuf],
    entries: impl Fn(&Mapped) -> Result<Vec<Entry>, String>,
) -> Result<(SchemaRef, Vec<Arc<dyn TensorFile>>)> {
    let mut files = Vec::with_capacity(paths.len());
    for path in paths {
        let map = Mapped::open(function, path)?;
        let entries = entries(&map).map_err(|err| {
            DataFusionError::Plan(format!("{function}: '{}': {err}", path.display()))
        })?;
        files.push((super::paths::display(path), map, entries));
    }
    table(function, files)
}

/// The schema and files of a table over `files` (name and entries of each).
pub(crate) fn table(
    function: &str,
    files: Vec<(String, Mapped, Vec<Entry>)>,
) -> Result<(SchemaRef, Vec<Arc<dyn TensorFile>>)> {
    let mut element: Option<DataType> = None;
    let mut ndim = 1;
    for (file, _, entries) in &files {
        for entry in entries {
            element = Some(match element {
                None => entry.encoding.element.clone(),
                Some(e) => promote(&e, &entry.encoding.element).ok_or_else(|| {
                    DataFusionError::Plan(format!(
                        "{function}: '{file}': no common type of {e} and {} ('{}')",
                        entry.encoding.element, entry.name
                    ))
                })?,
            });
            ndim = ndim.max(entry.shape.len());
            // The tensor column's lists and shapes count in i32 (Arrow's `List`, the
            // canonical shape field).
            let elements: usize = entry.shape.iter().product();
            let largest = entry.shape.iter().copied().max().unwrap_or(0).max(elements);
            if i32::try_from(largest).is_err() {
                return Err(DataFusionError::Plan(format!(
                    "{function}: '{file}': tensor '{}' of shape {:?} has more elements or a \
                     longer dimension than an Arrow list holds ({})",
                    entry.name,
                    entry.shape,
                    i32::MAX
                )));
            }
        }
    }
    let element = element.unwrap_or(DataType::Float32);
    let tensor = VariableShapeType::new(element, ndim)
        .map_err(|err| DataFusionError::Plan(format!("{function}: {err}")))?;
    let mut fields = vec![
        Field::new("name", DataType::Utf8, false),
        Field::new("dtype", DataType::Utf8, false),
        Field::new(
            "shape",
            DataType::List(Arc::new(Field::new("item", DataType::Int64, true))),
            false,
        ),
        tensor.to_field("tensor"),
    ];
    if files.len() > 1 {
        fields.push(Field::new("filename", DataType::Utf8, false));
    }
    let schema = Arc::new(Schema::new(fields));
    let files = files
        .into_iter()
        .map(|(file, map, entries)| {
            Arc::new(NamedFile {
                file,
                map,
                entries,
                tensor: tensor.clone(),
            }) as Arc<dyn TensorFile>
        })
        .collect();
    Ok((schema, files))
}

/// Per row-major element of `shape`, its offset in Fortran order.
pub(crate) fn fortran_offsets(shape: &[usize]) -> Vec<usize> {
    let elements: usize = shape.iter().product();
    let mut strides = vec![1usize; shape.len()];
    for d in 1..shape.len() {
        strides[d] = strides[d - 1] * shape[d - 1];
    }
    (0..elements)
        .map(|c| {
            let (mut rest, mut f) = (c, 0);
            for d in (0..shape.len()).rev() {
                f += (rest % shape[d]) * strides[d];
                rest /= shape[d];
            }
            f
        })
        .collect()
}

/// `bytes` (elements of `size` bytes in Fortran order of `shape`) in row-major order.
pub(crate) fn from_fortran(bytes: &[u8], shape: &[usize], size: usize) -> Vec<u8> {
    let mut out = vec![0u8; bytes.len()];
    for (c, f) in fortran_offsets(shape).into_iter().enumerate() {
        out[c * size..][..size].copy_from_slice(&bytes[f * size..][..size]);
    }
    out
}

impl NamedFile {
    /// `entry`'s values, row-major, as the table's element type.
    fn values(&self, entry: &Entry) -> Result<ArrayRef> {
        let row_major = |bytes: &[u8]| {
            if entry.fortran {
                owned_values(
                    &from_fortran(bytes, &entry.shape, entry.encoding.size),
                    &entry.encoding,
                )
            } else {
                owned_values(bytes, &entry.encoding)
            }
        };
        let values = match &entry.data {
            Data::Mapped(range) if !entry.fortran => {
                mapped_values(&self.map, range.clone(), &entry.encoding)?
            }
            Data::Mapped(range) => row_major(&self.map.bytes()[range.clone()])?,
            Data::Read(read) => row_major(&read.read()?)?,
        };
        let element = self.tensor.element_type();
        if values.data_type() == element {
            Ok(values)
        } else {
            Ok(cast(&values, element)?)
        }
    }

    fn column(&self, column: usize, rows: &Range<usize>) -> Result<ArrayRef> {
        let entries = &self.entries[rows.clone()];
        Ok(match column {
            0 => Arc::new(StringArray::from_iter_values(
                entries.iter().map(|e| &e.name),
            )),
            1 => Arc::new(StringArray::from_iter_values(
                entries.iter().map(|e| &e.dtype),
            )),
            2 => {
                let dims = Int64Array::from_iter_values(
                    entries
                        .iter()
                        .flat_map(|e| e.shape.iter().map(|&d| d as i64)),
                );
                let offsets = OffsetBuffer::from_lengths(entries.iter().map(|e| e.shape.len()));
                Arc::new(ListArray::try_new(
                    Arc::new(Field::new("item", DataType::Int64, true)),
                    offsets,
                    Arc::new(dims),
                    None,
                )?)
            }
            3 => self.tensors(entries)?,
            _ => Arc::new(StringArray::from(vec![self.file.as_str(); entries.len()])),
        })
    }

    /// The `tensor` column of `entries`.
    fn tensors(&self, entries: &[Entry]) -> Result<ArrayRef> {
        let ndim = self.tensor.ndim();
        let mut parts = Vec::with_capacity(entries.len());
        for entry in entries {
            parts.push(self.values(entry)?);
        }
        let element = self.tensor.element_type().clone();
        let values = if parts.is_empty() {
            new_null_array(&element, 0)
        } else {
            let refs: Vec<&dyn arrow::array::Array> = parts.iter().map(AsRef::as_ref).collect();
            concat(&refs)?
        };
        let offsets = OffsetBuffer::from_lengths(parts.iter().map(|p| p.len()));
        let DataType::Struct(fields) = self.tensor.storage_type() else {
            unreachable!("a variable-shape tensor is stored as a struct")
        };
        let DataType::List(item) = fields[0].data_type().clone() else {
            unreachable!("its data is a list")
        };
        let data = ListArray::try_new(item, offsets, values, None)?;
        let dims = Int32Array::from_iter_values(entries.iter().flat_map(|e| {
            std::iter::repeat_n(1, ndim - e.shape.len()).chain(e.shape.iter().map(|&d| d as i32))
        }));
        let DataType::FixedSizeList(dim_field, _) = fields[1].data_type().clone() else {
            unreachable!("its shape is a fixed-size list")
        };
        let shapes = FixedSizeListArray::try_new(dim_field, ndim as i32, Arc::new(dims), None)?;
        Ok(Arc::new(StructArray::try_new(
            fields,
            vec![Arc::new(data), Arc::new(shapes)],
            None,
        )?))
    }
}

impl TensorFile for NamedFile {
    fn rows(&self) -> usize {
        self.entries.len()
    }

    /// One partition: the rows keep the file's order (safetensors' names, an archive's
    /// members), and the downstream operators share the work.
    fn copies(&self) -> bool {
        false
    }

    fn row_bytes(&self, row: usize) -> usize {
        self.entries[row].bytes
    }

    fn batch(
        &self,
        rows: Range<usize>,
        projection: &[usize],
        schema: &SchemaRef,
    ) -> Result<RecordBatch> {
        let columns = projection
            .iter()
            .map(|&c| self.column(c, &rows))
            .collect::<Result<Vec<_>>>()?;
        batch_of(schema, columns, rows.len())
    }

    fn header(&self, schema: &SchemaRef) -> Option<Result<RecordBatch>> {
        let rows = 0..self.entries.len();
        let columns = (0..schema.fields().len())
            .map(|c| {
                if c == 3 {
                    Ok(new_null_array(schema.field(c).data_type(), rows.len()))
                } else {
                    self.column(c, &rows)
                }
            })
            .collect::<Result<Vec<_>>>();
        Some(columns.and_then(|columns| batch_of(schema, columns, rows.len())))
    }
}
