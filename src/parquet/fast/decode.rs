//! The values of a tensor column chunk as Arrow arrays ([`read_tensor_values`]: one entry per
//! element type), and arrow-rs's column reader for the encodings not decoded in this folder
//! ([`read_values`]).

use std::sync::Arc;

use arrow::array::{ArrayRef, ArrowPrimitiveType, BooleanArray, PrimitiveArray};
use arrow::buffer::{Buffer, ScalarBuffer};
use arrow::datatypes::{
    Float16Type, Float32Type, Float64Type, Int8Type, Int16Type, Int32Type, Int64Type, UInt8Type,
    UInt16Type, UInt32Type, UInt64Type,
};
use datafusion::common::Result;
use datafusion::parquet::basic::Repetition;
use datafusion::parquet::column::reader::ColumnReaderImpl;
use datafusion::parquet::data_type::{self as pq, DataType as ParquetDataType};
use datafusion::parquet::schema::types::{ColumnDescriptor, Type as SchemaType};

use super::boolean::read_boolean_values;
use super::chunk::Chunk;
use super::columns::Element;
use super::float16::read_half_values;
use super::pages::{Batches, PagesRead, read_narrow, read_numbers};

/// The values of a tensor column chunk as arrow-rs gives them for `element`, in arrays of the
/// chunk's batches, when every tensor and element in it is non-NULL and every list has the
/// tensor's size; `None` when the levels say otherwise.
pub(super) fn read_tensor_values(chunk: &Chunk, element: Element) -> Result<Option<Vec<ArrayRef>>> {
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
pub(super) fn read_values<P: ParquetDataType>(chunk: &Chunk) -> Result<Option<Vec<Vec<P::T>>>> {
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
pub(super) fn read_selected_values<P: ParquetDataType>(
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
