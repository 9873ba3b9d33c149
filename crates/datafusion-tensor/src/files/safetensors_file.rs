//! Hugging Face's safetensors files: one row per named tensor, read lazily from the map (a
//! filter on `name` chooses the tensors before any is read), and the header's `__metadata__`
//! (`read_safetensors_metadata`).
//!
//! bfloat16 tensors are read as float32 (exactly: a bfloat16 is a float32's upper half);
//! 8-, 6- and 4-bit floats and complex tensors have no Arrow type and are refused with their
//! names. The header is read and checked by the `safetensors` crate (the format's own
//! implementation: a bounded header, contiguous offsets, every size against its dtype and
//! shape, the data against the file's length).

use std::path::PathBuf;
use std::sync::Arc;

use arrow::array::{RecordBatch, StringArray};
use arrow::datatypes::{DataType, Field, Schema, SchemaRef};
use datafusion::catalog::{TableFunctionArgs, TableFunctionImpl, TableProvider};
use datafusion::datasource::MemTable;
use datafusion::error::{DataFusionError, Result};
use safetensors::tensor::{Dtype, SafeTensors};

use super::named::{self, Data, Entry};
use super::paths::{self, display};
use super::source::{Mapped, TensorFile};
use super::values::Encoding;

/// The table over the safetensors files `paths`.
pub(crate) fn table(
    function: &str,
    paths: &[PathBuf],
) -> Result<(SchemaRef, Vec<Arc<dyn TensorFile>>)> {
    named::open_all(function, paths, |map| entries(map.bytes()))
}

/// The tensors of the safetensors file `bytes`, by name (as `safe_open(...).keys()` lists
/// them).
fn entries(bytes: &[u8]) -> Result<Vec<Entry>, String> {
    let (n, metadata) = SafeTensors::read_metadata(bytes)
        .map_err(|err| format!("not a valid safetensors file: {err}"))?;
    let start = 8 + n;
    let mut entries = Vec::new();
    for (name, info) in metadata.tensors() {
        let (encoding, dtype) = encoding_of(info.dtype)
            .ok_or_else(|| format!("tensor '{name}' is {}, which has no Arrow type", info.dtype))?;
        let (begin, end) = info.data_offsets;
        entries.push(Entry {
            name,
            dtype: dtype.to_string(),
            shape: info.shape.clone(),
            encoding,
            fortran: false,
            data: Data::Mapped(start + begin..start + end),
            bytes: end - begin,
        });
    }
    entries.sort_unstable_by(|a, b| a.name.cmp(&b.name));
    Ok(entries)
}

/// How a safetensors dtype is read, and its name.
fn encoding_of(dtype: Dtype) -> Option<(Encoding, &'static str)> {
    let (element, size, name) = match dtype {
        Dtype::BOOL => (DataType::Boolean, 1, "BOOL"),
        Dtype::U8 => (DataType::UInt8, 1, "U8"),
        Dtype::I8 => (DataType::Int8, 1, "I8"),
        Dtype::I16 => (DataType::Int16, 2, "I16"),
        Dtype::U16 => (DataType::UInt16, 2, "U16"),
        Dtype::F16 => (DataType::Float16, 2, "F16"),
        Dtype::BF16 => {
            let encoding = Encoding {
                element: DataType::Float32,
                size: 2,
                big_endian: false,
                bfloat16: true,
            };
            return Some((encoding, "BF16"));
        }
        Dtype::I32 => (DataType::Int32, 4, "I32"),
        Dtype::U32 => (DataType::UInt32, 4, "U32"),
        Dtype::F32 => (DataType::Float32, 4, "F32"),
        Dtype::F64 => (DataType::Float64, 8, "F64"),
        Dtype::I64 => (DataType::Int64, 8, "I64"),
        Dtype::U64 => (DataType::UInt64, 8, "U64"),
        _ => return None,
    };
    Some((Encoding::native(element, size), name))
}

/// The safetensors dtype of a tensor column's elements (`None`: none holds them).
pub(crate) fn dtype_of(element: &DataType) -> Option<Dtype> {
    Some(match element {
        DataType::Boolean => Dtype::BOOL,
        DataType::UInt8 => Dtype::U8,
        DataType::Int8 => Dtype::I8,
        DataType::Int16 => Dtype::I16,
        DataType::UInt16 => Dtype::U16,
        DataType::Float16 => Dtype::F16,
        DataType::Int32 => Dtype::I32,
        DataType::UInt32 => Dtype::U32,
        DataType::Float32 => Dtype::F32,
        DataType::Float64 => Dtype::F64,
        DataType::Int64 => Dtype::I64,
        DataType::UInt64 => Dtype::U64,
        _ => return None,
    })
}

/// `read_safetensors_metadata('path or glob')`: the header's `__metadata__` as rows of `key`
/// and `value` (and `filename` when the location names several files).
#[derive(Debug)]
pub(crate) struct ReadSafetensorsMetadata;

impl TableFunctionImpl for ReadSafetensorsMetadata {
    fn call_with_args(&self, args: TableFunctionArgs) -> Result<Arc<dyn TableProvider>> {
        const FUNCTION: &str = "read_safetensors_metadata";
        let location = super::location_argument(FUNCTION, "safetensors", args.exprs())?;
        let paths = paths::resolve(FUNCTION, &location, "safetensors")?;
        let several = paths.len() > 1;
        let (mut keys, mut values, mut names) = (Vec::new(), Vec::new(), Vec::new());
        for path in &paths {
            let map = Mapped::open(FUNCTION, path)?;
            let (_, metadata) = SafeTensors::read_metadata(map.bytes()).map_err(|err| {
                DataFusionError::Plan(format!(
                    "{FUNCTION}: '{}': not a valid safetensors file: {err}",
                    path.display()
                ))
            })?;
            let mut pairs: Vec<(String, String)> = metadata
                .metadata()
                .clone()
                .unwrap_or_default()
                .into_iter()
                .collect();
            pairs.sort();
            for (key, value) in pairs {
                keys.push(key);
                values.push(value);
                names.push(display(path));
            }
        }
        let mut fields = vec![
            Field::new("key", DataType::Utf8, false),
            Field::new("value", DataType::Utf8, false),
        ];
        let mut columns: Vec<arrow::array::ArrayRef> = vec![
            Arc::new(StringArray::from(keys)),
            Arc::new(StringArray::from(values)),
        ];
        if several {
            fields.push(Field::new("filename", DataType::Utf8, false));
            columns.push(Arc::new(StringArray::from(names)));
        }
        let schema: SchemaRef = Arc::new(Schema::new(fields));
        let batch = RecordBatch::try_new(Arc::clone(&schema), columns)?;
        Ok(Arc::new(MemTable::try_new(schema, vec![vec![batch]])?))
    }
}
