//! A Zarr v2 or v3 array as a table (`read_zarr('store'[, 'array'])`): its rows along axis 0,
//! read through the `zarrs` crate (metadata of both versions, chunk grids and keys, and every
//! codec it reads by default), a range of rows at a time, so that a scan decodes only the
//! chunks that hold the rows a query asks for.

use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use arrow::array::{ArrayRef, RecordBatch};
use arrow::datatypes::{DataType, SchemaRef};
use datafusion::error::{DataFusionError, Result};
use zarrs::array::data_type as zdt;
use zarrs::array::{Array, ArrayBytes, ArrayShardedExt, ArraySubset};
use zarrs::filesystem::FilesystemStore;
use zarrs::group::Group;
use zarrs::node::NodeMetadata;

use super::source::{TensorFile, rows_batch, rows_of, rows_schema};
use super::values::{Encoding, vec_values};
use crate::tensor_type::TensorType;

/// The function that reads Zarr arrays (named in errors).
pub(crate) const FUNCTION: &str = "read_zarr";

/// The most bytes one chunk (of a sharded array, one subchunk) may decode to.
const CHUNK_BYTES: u64 = 1 << 30;

/// One Zarr array of a table: its rows along axis 0.
pub(crate) struct ZarrFile {
    /// The store and array, as errors name them.
    name: String,
    array: Array<FilesystemStore>,
    encoding: Encoding,
    /// The array's shape (`[1]` for a 0-d array: one row).
    shape: Vec<u64>,
    /// Elements per row.
    row_elements: usize,
    /// Rows per chunk along axis 0 (a scan's shares and batches end on chunk boundaries, so
    /// that no chunk is decoded twice).
    chunk_rows: usize,
    /// The table's row type (`None`: rows are plain numbers).
    row_type: Option<TensorType>,
}

impl std::fmt::Debug for ZarrFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ZarrFile")
            .field("name", &self.name)
            .field("shape", &self.shape)
            .field("element", &self.encoding.element)
            .finish_non_exhaustive()
    }
}

/// The array path as zarrs names nodes: `/`, or `/a/b` (a leading `/` added, a trailing one
/// dropped).
fn node_path(array: Option<&str>) -> String {
    let trimmed = array.unwrap_or("").trim_matches('/');
    format!("/{trimmed}")
}

/// How zarrs decodes `data_type` (native byte order), as a tensor's elements; `None` for the
/// types no tensor holds.
fn encoding_of(data_type: &zarrs::array::DataType) -> Option<Encoding> {
    let native = |element: DataType, size: usize| Some(Encoding::native(element, size));
    if data_type.is::<zdt::BoolDataType>() {
        native(DataType::Boolean, 1)
    } else if data_type.is::<zdt::Int8DataType>() {
        native(DataType::Int8, 1)
    } else if data_type.is::<zdt::Int16DataType>() {
        native(DataType::Int16, 2)
    } else if data_type.is::<zdt::Int32DataType>() {
        native(DataType::Int32, 4)
    } else if data_type.is::<zdt::Int64DataType>() {
        native(DataType::Int64, 8)
    } else if data_type.is::<zdt::UInt8DataType>() {
        native(DataType::UInt8, 1)
    } else if data_type.is::<zdt::UInt16DataType>() {
        native(DataType::UInt16, 2)
    } else if data_type.is::<zdt::UInt32DataType>() {
        native(DataType::UInt32, 4)
    } else if data_type.is::<zdt::UInt64DataType>() {
        native(DataType::UInt64, 8)
    } else if data_type.is::<zdt::Float16DataType>() {
        native(DataType::Float16, 2)
    } else if data_type.is::<zdt::Float32DataType>() {
        native(DataType::Float32, 4)
    } else if data_type.is::<zdt::Float64DataType>() {
        native(DataType::Float64, 8)
    } else if data_type.is::<zdt::BFloat16DataType>() {
        Some(Encoding {
            element: DataType::Float32,
            size: 2,
            big_endian: cfg!(target_endian = "big"),
            bfloat16: true,
        })
    } else {
        None
    }
}

/// The array at `array` (the store's root when `None`) of the store at `location`.
pub(crate) fn open(location: &str, array: Option<&str>) -> Result<ZarrFile> {
    let plan = |msg: String| DataFusionError::Plan(format!("{FUNCTION}: {msg}"));
    let root = Path::new(location);
    if !root.is_dir() {
        return Err(plan(format!(
            "'{location}' is not a directory: a Zarr store is a directory with a zarr.json \
             (v3) or .zarray/.zgroup (v2) file"
        )));
    }
    let store =
        Arc::new(FilesystemStore::new(root).map_err(|err| plan(format!("'{location}': {err}")))?);
    let path = node_path(array);
    let name = if path == "/" {
        format!("'{location}'")
    } else {
        format!("'{location}', array '{path}'")
    };
    let opened = Array::open(Arc::clone(&store), &path).map_err(|err| {
        // A group where an array was expected: name its arrays.
        if let Ok(group) = Group::open(Arc::clone(&store), &path) {
            let mut arrays: Vec<String> = group
                .traverse()
                .unwrap_or_default()
                .into_iter()
                .filter(|(_, metadata)| matches!(metadata, NodeMetadata::Array(_)))
                .map(|(p, _)| p.as_str().trim_start_matches('/').to_string())
                .collect();
            arrays.sort();
            return plan(format!(
                "{name} is a group, not an array: name one of its arrays as the second \
                 argument, as in {FUNCTION}('{location}', '{}') (its arrays: {})",
                arrays.first().map_or("array", String::as_str),
                if arrays.is_empty() {
                    "none".to_string()
                } else {
                    arrays.join(", ")
                }
            ));
        }
        plan(format!(
            "{name}: {err} (a Zarr array's directory holds a zarr.json (v3) or .zarray (v2) \
             file)"
        ))
    })?;
    let data_type = opened.data_type();
    let encoding = encoding_of(data_type).ok_or_else(|| {
        plan(format!(
            "{name}: data type {data_type} is not a tensor element type (bool, int8-64, \
             uint8-64, float16, bfloat16, float32, float64)"
        ))
    })?;
    let mut shape = opened.shape().to_vec();
    if shape.is_empty() {
        shape.push(1);
    }
    let too_long = |d: u64| {
        plan(format!(
            "{name}: dimension {d} is longer than this machine's memory addresses"
        ))
    };
    let inner: Vec<usize> = shape[1..]
        .iter()
        .map(|&d| usize::try_from(d).map_err(|_| too_long(d)))
        .collect::<Result<_>>()?;
    usize::try_from(shape[0]).map_err(|_| too_long(shape[0]))?;
    let row_type = if opened.dimensionality() <= 1 {
        None
    } else {
        let names = opened.dimension_names().as_ref().and_then(|names| {
            names[1..]
                .iter()
                .map(Clone::clone)
                .collect::<Option<Vec<String>>>()
        });
        Some(
            TensorType::new(encoding.element.clone(), inner.clone())
                .and_then(|t| t.with_dim_names(names))
                .map_err(|err| plan(format!("{name}: {err}")))?,
        )
    };
    let row_elements: usize = inner.iter().product();
    let zero = vec![0; opened.dimensionality()];
    let chunk = opened
        .chunk_shape(&zero)
        .map_err(|err| plan(format!("{name}: {err}")))?;
    let chunk_rows = chunk
        .first()
        .and_then(|d| usize::try_from(d.get()).ok())
        .unwrap_or(1);
    // zarrs decodes a chunk whole (a shard's subchunks one by one), however few of its
    // elements are read: one that decodes to more than CHUNK_BYTES is refused, as metadata
    // that would make a scan allocate what no batch needs.
    let unit = opened.effective_subchunk_shape().unwrap_or(chunk);
    let unit_bytes = unit
        .iter()
        .try_fold(encoding.size as u64, |bytes, d| bytes.checked_mul(d.get()))
        .filter(|&bytes| bytes <= CHUNK_BYTES);
    if unit_bytes.is_none() {
        let shape: Vec<u64> = unit.iter().map(|d| d.get()).collect();
        return Err(plan(format!(
            "{name}: chunks of shape {shape:?} decode to more than {} GiB each (a chunk is \
             decoded whole): rechunk the array to smaller chunks",
            CHUNK_BYTES >> 30
        )));
    }
    Ok(ZarrFile {
        name,
        array: opened,
        encoding,
        shape,
        row_elements,
        chunk_rows,
        row_type,
    })
}

/// The table's schema and its one file: `row_index`, and `x` of the array's rows.
pub(crate) fn table(
    location: &str,
    array: Option<&str>,
) -> Result<(SchemaRef, Vec<Arc<dyn TensorFile>>)> {
    let file = open(location, array)?;
    let schema = rows_schema(file.row_type.as_ref(), &file.encoding.element, false);
    Ok((schema, vec![Arc::new(file)]))
}

impl TensorFile for ZarrFile {
    fn rows(&self) -> usize {
        // Checked to fit when opened.
        usize::try_from(self.shape[0]).unwrap_or(usize::MAX)
    }

    fn row_bytes(&self, _row: usize) -> usize {
        self.row_elements * self.encoding.size
    }

    fn chunk_rows(&self) -> usize {
        self.chunk_rows
    }

    fn batch(
        &self,
        rows: Range<usize>,
        projection: &[usize],
        schema: &SchemaRef,
    ) -> Result<RecordBatch> {
        rows_batch(rows.clone(), projection, schema, "", || {
            self.values(rows.clone())
        })
    }
}

impl ZarrFile {
    /// The `x` column of `rows`: the subset of those rows, decoded.
    fn values(&self, rows: Range<usize>) -> Result<ArrayRef> {
        let mut ranges: Vec<Range<u64>> = Vec::with_capacity(self.shape.len());
        if self.array.dimensionality() > 0 {
            ranges.push(rows.start as u64..rows.end as u64);
            ranges.extend(self.shape[1..].iter().map(|&d| 0..d));
        }
        let subset = ArraySubset::new_with_ranges(&ranges);
        let bytes = self
            .array
            .retrieve_array_subset::<ArrayBytes<'static>>(&subset)
            .map_err(|err| {
                DataFusionError::Execution(format!(
                    "{FUNCTION}: {}: rows {}..{}: {err}",
                    self.name, rows.start, rows.end
                ))
            })?
            .into_fixed()
            .map_err(|err| DataFusionError::Execution(format!("{FUNCTION}: {}: {err}", self.name)))?
            .into_owned();
        rows_of(
            self.row_type.as_ref(),
            vec_values(bytes, &self.encoding)?,
            rows.len(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn array_paths_are_node_paths() {
        assert_eq!(node_path(None), "/");
        assert_eq!(node_path(Some("")), "/");
        assert_eq!(node_path(Some("a")), "/a");
        assert_eq!(node_path(Some("/a/b/")), "/a/b");
    }
}
