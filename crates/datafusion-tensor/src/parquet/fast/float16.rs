//! Float16 values (2-byte fixed-length arrays): plain, byte-stream-split and dictionary pages
//! decoded here, as their bits.

use datafusion::common::Result;
use datafusion::parquet::basic::Encoding;

use super::chunk::Chunk;
use super::pages::PageDecoder;
use super::pending::Decode;

/// The Float16 values (as their bits) of a tensor column chunk. arrow-rs's column reader would
/// give each 2-byte value as a `Bytes` of its own; the encodings writers use for them are
/// decoded here instead (plain, byte-stream-split and dictionary).
pub(super) fn half_pages(chunk: &Chunk) -> Result<Box<dyn Decode<u16>>> {
    // Plain 2-byte values.
    let words = |bytes: &[u8]| -> Option<Vec<u16>> {
        let (words, rest) = bytes.as_chunks::<2>();
        rest.is_empty()
            .then(|| words.iter().map(|w| u16::from_le_bytes(*w)).collect())
    };
    let decode = |out: &mut Vec<u16>, buf: &[u8], n: usize, encoding: Encoding| match encoding {
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
    };
    Ok(Box::new(PageDecoder::new(chunk, 2, words, decode)?))
}
