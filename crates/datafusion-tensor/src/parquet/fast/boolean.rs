//! Boolean values: plain (bit-packed) and RLE pages.

use datafusion::common::Result;
use datafusion::parquet::basic::Encoding;

use super::chunk::{Chunk, FullTensorPages, NextPage, not_full};
use super::fetched::corrupt;
use super::levels::{hybrid_values, overlong_run_header};
use super::pending::{Decode, Pending};

/// The Boolean values of a tensor column chunk, a page at a time (arrow-rs's column reader
/// does not read booleans into a `Vec<bool>`): plain (bit-packed) and RLE pages. Booleans are
/// a bit apiece: every page is decoded, its wanted values kept.
pub(super) struct BooleanPages {
    pages: FullTensorPages,
    page: Vec<bool>,
    runs: Vec<u32>,
}

impl BooleanPages {
    pub(super) fn open(chunk: &Chunk) -> Result<Self> {
        Ok(Self {
            pages: chunk.pages()?,
            page: Vec::new(),
            runs: Vec::new(),
        })
    }
}

impl Decode<bool> for BooleanPages {
    fn decode(&mut self, pending: &mut Pending<bool>, _want: usize) -> Result<bool> {
        let (buf, n, encoding) = match self.pages.next_page()? {
            NextPage::Data(buf, values, encoding) => (buf, values, encoding),
            NextPage::End => return Ok(false),
            NextPage::Dictionary(..) => return Err(not_full().into()),
        };
        self.page.clear();
        match encoding {
            Encoding::PLAIN if buf.len() >= n.div_ceil(8) => self
                .page
                .extend((0..n).map(|i| buf[i / 8] >> (i % 8) & 1 == 1)),
            // The values after their 4-byte length, as 1-bit RLE/bit-packed runs.
            Encoding::RLE => {
                self.runs.clear();
                let data = buf.get(4..).unwrap_or_default();
                if !hybrid_values(data, n, 1, 2, &mut self.runs) {
                    // A run header longer than a varint can be: arrow-rs's decoder in
                    // DataFusion's reader panics on it, so the file is refused here.
                    if overlong_run_header(data, n, 1) {
                        return Err(corrupt(format!(
                            "column '{}': a boolean run header longer than 10 bytes",
                            self.pages.column
                        ))
                        .into());
                    }
                    return Err(not_full().into());
                }
                self.page.extend(self.runs.iter().map(|&bit| bit == 1));
            }
            _ => return Err(not_full().into()),
        }
        pending.extend_from_slice(&self.page);
        Ok(true)
    }
}
