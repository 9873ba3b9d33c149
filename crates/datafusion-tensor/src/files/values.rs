//! A file's element bytes as an Arrow array: the mapped bytes themselves where they are
//! little-endian and aligned (no copy), else a copy that swaps the byte order, widens
//! bfloat16 or packs booleans into bits.

use std::sync::Arc;

use arrow::array::{ArrayData, ArrayRef, BooleanArray, Float32Array, make_array};
use arrow::buffer::Buffer;
use arrow::datatypes::DataType;
use datafusion::error::{DataFusionError, Result};

use super::source::Mapped;

/// How a file stores one element, and the Arrow type it is read as.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Encoding {
    /// The Arrow type the elements are read as.
    pub(crate) element: DataType,
    /// Bytes per stored element.
    pub(crate) size: usize,
    /// Stored most significant byte first.
    pub(crate) big_endian: bool,
    /// Stored as bfloat16 (read as float32, exactly).
    pub(crate) bfloat16: bool,
}

impl Encoding {
    /// Elements stored as Arrow stores `element`, little-endian.
    pub(crate) fn native(element: DataType, size: usize) -> Self {
        Self {
            element,
            size,
            big_endian: false,
            bfloat16: false,
        }
    }

    /// Whether the stored bytes are Arrow's own (a buffer over them needs no copy).
    fn is_native(&self) -> bool {
        !self.bfloat16 && self.element != DataType::Boolean && (!self.big_endian || self.size == 1)
    }
}

/// The `len` elements stored in `bytes` (`len * encoding.size` of them), from the map `file`
/// when `range` is where they are in it (no copy where the encoding allows).
pub(crate) fn mapped_values(
    file: &Mapped,
    range: std::ops::Range<usize>,
    encoding: &Encoding,
) -> Result<ArrayRef> {
    let len = range.len() / encoding.size.max(1);
    if encoding.is_native() {
        let buffer = file.buffer(range);
        return typed(encoding, buffer, len);
    }
    owned_values(&file.bytes()[range], encoding)
}

/// The elements stored in `bytes`, owned: the vector itself is the Arrow buffer where the
/// encoding allows.
pub(crate) fn vec_values(bytes: Vec<u8>, encoding: &Encoding) -> Result<ArrayRef> {
    if encoding.is_native() {
        let len = bytes.len() / encoding.size.max(1);
        return typed(encoding, Buffer::from_vec(bytes), len);
    }
    owned_values(&bytes, encoding)
}

/// The elements stored in `bytes`, copied.
pub(crate) fn owned_values(bytes: &[u8], encoding: &Encoding) -> Result<ArrayRef> {
    let size = encoding.size.max(1);
    let len = bytes.len() / size;
    if encoding.element == DataType::Boolean {
        return Ok(Arc::new(
            bytes
                .iter()
                .map(|&b| Some(b != 0))
                .collect::<BooleanArray>(),
        ));
    }
    if encoding.bfloat16 {
        let values = bytes.chunks_exact(2).map(|pair| {
            let bits = if encoding.big_endian {
                u16::from_be_bytes([pair[0], pair[1]])
            } else {
                u16::from_le_bytes([pair[0], pair[1]])
            };
            f32::from_bits(u32::from(bits) << 16)
        });
        return Ok(Arc::new(Float32Array::from_iter_values(values)));
    }
    let mut owned = bytes.to_vec();
    if encoding.big_endian && size > 1 {
        for element in owned.chunks_exact_mut(size) {
            element.reverse();
        }
    }
    typed(encoding, Buffer::from_vec(owned), len)
}

/// `buffer` as `len` elements of `encoding.element` (copied only when it is not aligned to
/// the element: Arrow requires it).
fn typed(encoding: &Encoding, buffer: Buffer, len: usize) -> Result<ArrayRef> {
    let data = ArrayData::builder(encoding.element.clone())
        .len(len)
        .add_buffer(buffer)
        .align_buffers(true)
        .build()
        .map_err(|err| DataFusionError::Internal(format!("tensor file values: {err}")))?;
    Ok(make_array(data))
}
