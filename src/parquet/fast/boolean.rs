//! Boolean values: plain (bit-packed) and RLE pages.

use arrow::array::BooleanBufferBuilder;
use arrow::buffer::BooleanBuffer;
use datafusion::common::Result;
use datafusion::parquet::basic::Encoding;
use datafusion::parquet::column::page::Page;
use datafusion::parquet::column::page::PageReader;

use super::levels::hybrid_values;

use super::chunk::Chunk;

/// The Boolean values of a tensor column chunk, the chunk's batches one after another
/// (arrow-rs's column reader does not read booleans into a `Vec<bool>`): plain (bit-packed)
/// and RLE pages.
pub(super) fn read_boolean_values(chunk: &Chunk) -> Result<Option<BooleanBuffer>> {
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
