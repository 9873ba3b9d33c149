//! The values of a tensor column chunk as Arrow arrays, a batch at a time
//! ([`open_tensor_values`]: one decoder per element type and encoding), the values decoded but
//! not yet taken ([`Pending`]), and arrow-rs's column reader for the encodings not decoded in
//! this folder ([`ColumnReader`]).
//!
//! A chunk is decoded as its batches are asked for: the reader holds the batch being built and
//! the rest of the page it came from, never the chunk's decoded values (a 200 MiB row group of
//! float32 tensors held whole made the scan's peak memory grow with the row-group size).

use std::sync::Arc;

use arrow::array::{ArrayRef, ArrowPrimitiveType, BooleanArray, PrimitiveArray};
use arrow::buffer::{BooleanBuffer, Buffer, ScalarBuffer};
use arrow::datatypes::{
    ArrowNativeType, Float16Type, Float32Type, Float64Type, Int8Type, Int16Type, Int32Type,
    Int64Type, UInt8Type, UInt16Type, UInt32Type, UInt64Type,
};
use datafusion::common::Result;
use datafusion::parquet::basic::{Encoding, Repetition};
use datafusion::parquet::column::reader::ColumnReaderImpl;
use datafusion::parquet::data_type::{self as pq, DataType as ParquetDataType};
use datafusion::parquet::schema::types::{ColumnDescriptor, Type as SchemaType};

use super::boolean::BooleanPages;
use super::chunk::{Chunk, not_full};
use super::columns::Element;
use super::float16::half_pages;
use super::pages::{narrow_pages, number_pages};
use super::pending::{Decode, Pending};

/// A tensor column chunk's values, decoded as they are asked for.
pub(super) trait ColumnValues: Send {
    /// The next `count` wanted values (of the chunk's selection, when it has one), as an
    /// array; an error when the chunk holds fewer or anything but full tensors.
    fn next_array(&mut self, count: usize) -> Result<ArrayRef>;

    /// Decodes the chunk's next page (or stretch of values), its levels checked; `false` when
    /// the chunk has no more.
    fn decode_more(&mut self) -> Result<bool>;

    /// Once every value of the row group is taken: the chunk's pages after them read, as
    /// DataFusion's reader reads every page of a chunk; an error when one fails or holds a
    /// value more (a trailing page of another type, a page beyond the footer's rows), so that
    /// the row group is DataFusion's reader's, which words it.
    fn finish(&mut self) -> Result<()>;
}

/// [`ColumnValues`] of one stored type `S`, made into arrays by `array`.
struct Values<S> {
    decoder: Box<dyn Decode<S>>,
    pending: Pending<S>,
    /// Bytes of values the footer vouches for (see [`Chunk::vouched_bytes`]).
    vouched: usize,
    array: fn(Vec<S>) -> Result<ArrayRef>,
}

impl<S: Clone + Send> ColumnValues for Values<S> {
    fn next_array(&mut self, count: usize) -> Result<ArrayRef> {
        if self.pending.len() < count {
            // Room for the batch, as much of it as the footer's sizes vouch for.
            let room = count.min(self.vouched / size_of::<S>().max(1));
            self.pending
                .reserve(room.saturating_sub(self.pending.len()));
        }
        while self.pending.len() < count {
            let want = count - self.pending.len();
            if !self.decoder.decode(&mut self.pending, want)? {
                return Err(not_full().into());
            }
        }
        (self.array)(self.pending.take(count))
    }

    fn decode_more(&mut self) -> Result<bool> {
        self.decoder.decode(&mut self.pending, usize::MAX)
    }

    fn finish(&mut self) -> Result<()> {
        while self.decoder.decode(&mut self.pending, usize::MAX)? {}
        if self.pending.len() > 0 {
            return Err(not_full().into());
        }
        Ok(())
    }
}

fn values<S: Clone + Send + 'static>(
    chunk: &Chunk,
    decoder: Box<dyn Decode<S>>,
    array: fn(Vec<S>) -> Result<ArrayRef>,
) -> Box<dyn ColumnValues> {
    Box::new(Values {
        decoder,
        pending: Pending::new(chunk),
        vouched: chunk.vouched_bytes(),
        array,
    })
}

/// A primitive array of `values`. (A `Result`: the type of [`Values::array`].)
#[allow(clippy::unnecessary_wraps)]
fn primitive<T: ArrowPrimitiveType>(values: Vec<T::Native>) -> Result<ArrayRef> {
    Ok(Arc::new(PrimitiveArray::<T>::new(
        ScalarBuffer::from(values),
        None,
    )))
}

/// A primitive array of `values` of the same width, the bits reinterpreted (the unsigned
/// types arrow-rs reads from the signed physical ones, Float16 from its bits).
#[allow(clippy::unnecessary_wraps)]
fn reinterpreted<T: ArrowPrimitiveType, N: ArrowNativeType>(values: Vec<N>) -> Result<ArrayRef> {
    let len = values.len();
    let buffer = ScalarBuffer::<T::Native>::new(Buffer::from_vec(values), 0, len);
    Ok(Arc::new(PrimitiveArray::<T>::new(buffer, None)))
}

/// The values of a tensor column chunk (every tensor and element in it non-NULL, every list of
/// the tensor's size: anything else is an error when its page is reached), as arrow-rs gives
/// them for `element`, decoded as they are asked for.
///
/// Plain and dictionary pages of every type (and byte-stream-split Float16s) are decoded here
/// when the chunk's footer lists no other encoding; a chunk in any other is arrow-rs's column
/// reader's. Without a selection, 4- and 8-byte numbers are arrow-rs's too: it decodes them
/// straight into the batch, as fast as the decoders here.
pub(super) fn open_tensor_values(chunk: &Chunk, element: Element) -> Result<Box<dyn ColumnValues>> {
    let encodings = chunk.data_encodings();
    let only = |allowed: &[Encoding]| encodings.iter().all(|e| allowed.contains(e));
    let dictionary = [
        Encoding::PLAIN,
        Encoding::PLAIN_DICTIONARY,
        Encoding::RLE_DICTIONARY,
    ];
    let here = only(&dictionary);
    let selected = chunk.selection.is_some();
    macro_rules! numbers {
        ($physical:ty, $array:expr) => {
            if selected && here {
                values(chunk, number_pages(chunk)?, $array)
            } else {
                values(chunk, ColumnReader::<$physical>::open(chunk)?, $array)
            }
        };
    }
    macro_rules! narrow {
        ($cast:expr, $arrow:ty) => {
            if here {
                values(chunk, narrow_pages(chunk, $cast)?, primitive::<$arrow>)
            } else {
                // arrow-rs's INT32s, narrowed as it narrows them (a truncating `as`).
                values(
                    chunk,
                    ColumnReader::<pq::Int32Type>::open(chunk)?,
                    |values| primitive::<$arrow>(values.into_iter().map($cast).collect()),
                )
            }
        };
    }
    Ok(match element {
        Element::Float32 => numbers!(pq::FloatType, primitive::<Float32Type>),
        Element::Float64 => numbers!(pq::DoubleType, primitive::<Float64Type>),
        Element::Int32 => numbers!(pq::Int32Type, primitive::<Int32Type>),
        Element::Int64 => numbers!(pq::Int64Type, primitive::<Int64Type>),
        Element::UInt32 => numbers!(pq::Int32Type, reinterpreted::<UInt32Type, i32>),
        Element::UInt64 => numbers!(pq::Int64Type, reinterpreted::<UInt64Type, i64>),
        Element::Int8 => narrow!(|v: i32| v as i8, Int8Type),
        Element::Int16 => narrow!(|v: i32| v as i16, Int16Type),
        Element::UInt8 => narrow!(|v: i32| v as u8, UInt8Type),
        Element::UInt16 => narrow!(|v: i32| v as u16, UInt16Type),
        Element::Float16
            if only(&[dictionary.as_slice(), &[Encoding::BYTE_STREAM_SPLIT]].concat()) =>
        {
            values(chunk, half_pages(chunk)?, reinterpreted::<Float16Type, u16>)
        }
        // Another encoding (the delta ones): arrow-rs's column reader, one `Bytes` per value.
        Element::Float16 => values(
            chunk,
            ColumnReader::<pq::FixedLenByteArrayType>::open(chunk)?,
            |values| {
                let bits = values
                    .iter()
                    .map(|v| Some(u16::from_le_bytes(v.data().try_into().ok()?)))
                    .collect::<Option<Vec<u16>>>()
                    .ok_or_else(not_full)?;
                reinterpreted::<Float16Type, u16>(bits)
            },
        ),
        Element::Boolean => values(chunk, Box::new(BooleanPages::open(chunk)?), |values| {
            Ok(Arc::new(BooleanArray::new(
                BooleanBuffer::from_iter(values),
                None,
            )))
        }),
    })
}

/// arrow-rs's column reader over a chunk's pages: their levels checked as encoded
/// ([`super::chunk::FullTensorPages`]), it decodes the values alone, reading the column as if
/// it were a required column of plain values, from pages that no longer hold levels. (Decoding
/// the levels to `i16`s instead, `read_records` with level buffers, and checking those took
/// 40% of a 4-column scan.)
pub(super) struct ColumnReader<P: ParquetDataType> {
    reader: ColumnReaderImpl<P>,
    /// Values of the chunk still to read through (those of the rows read).
    left: usize,
    /// Whether those are all the chunk's values: once they are read, its pages must hold no
    /// more ([`ColumnValues::finish`]).
    whole: bool,
    /// A stretch's values, when only some are wanted.
    stretch: Vec<P::T>,
}

impl<P: ParquetDataType> ColumnReader<P> {
    pub(super) fn open(chunk: &Chunk) -> Result<Box<dyn Decode<P::T>>>
    where
        P::T: Clone + Send,
        ColumnReaderImpl<P>: Send,
    {
        let mut pages = chunk.pages()?;
        pages.check_value_runs = true;
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
        Ok(Box::new(Self {
            reader: ColumnReaderImpl::<P>::new(values_only, Box::new(pages)),
            left: chunk.elements(),
            whole: chunk.lists.is_some() || chunk.read_rows == chunk.rows,
            stretch: Vec::new(),
        }))
    }
}

impl<P: ParquetDataType> Decode<P::T> for ColumnReader<P>
where
    P::T: Clone + Send,
    ColumnReaderImpl<P>: Send,
{
    /// Every value wanted: `want` of them read straight into `pending`. Otherwise a stretch
    /// (a batch's values at most, and few enough to stay in cache), its wanted values kept.
    /// (Every stretch is decoded: arrow-rs's column reader skips delta-encoded values with
    /// checked arithmetic that fails on values its decoding wraps, "delta*n overflow in
    /// skip".)
    fn decode(&mut self, pending: &mut Pending<P::T>, want: usize) -> Result<bool> {
        if self.left == 0 {
            // Every value read: the pages after them hold none (DataFusion's reader reads
            // every page of the chunk, and fails on one of another type).
            if self.whole {
                self.stretch.clear();
                let (_, read, _) = self.reader.read_records(1, None, None, &mut self.stretch)?;
                if read > 0 {
                    return Err(not_full().into());
                }
            }
            return Ok(false);
        }
        let n = want.min(self.left).min(1 << 20);
        if let Some(out) = pending.every(n) {
            let (_, read, _) = self.reader.read_records(n, None, None, out)?;
            if read != n {
                return Err(not_full().into());
            }
            self.left -= n;
            return Ok(true);
        }
        let n = self.left.min(16 * 1024);
        self.stretch.clear();
        let (_, read, _) = self.reader.read_records(n, None, None, &mut self.stretch)?;
        if read != n {
            return Err(not_full().into());
        }
        self.left -= n;
        pending.extend_from_slice(&self.stretch);
        Ok(true)
    }
}
