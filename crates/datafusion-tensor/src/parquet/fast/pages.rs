//! Plain and dictionary-encoded pages decoded here, a page at a time, into [`Pending`]
//! ([`PageDecoder`]); pages holding no wanted value passed over. The numbers of the 4- and
//! 8-byte physical types ([`number_pages`]) and INT32s narrowed to the 8- and 16-bit integer
//! types as arrow-rs narrows them ([`narrow_pages`]).

use datafusion::common::Result;
use datafusion::parquet::basic::Encoding;

use super::chunk::{Chunk, FullTensorPages, NextPage, not_full};
use super::dictionary::{Dictionary, dictionary_values, selected_dictionary_values};
use super::fetched::corrupt;
use super::levels::overlong_run_header;
use super::pending::{Decode, Pending};

/// A number stored in Parquet as its little-endian bytes.
pub(super) trait Plain: Copy + Default + Send + 'static {
    const WIDTH: usize;

    /// Appends the numbers of `bytes` (a whole number of them) to `out`.
    fn decode_into(bytes: &[u8], out: &mut Vec<Self>) -> bool;

    fn decode(bytes: &[u8]) -> Option<Vec<Self>> {
        let mut out = Vec::with_capacity(bytes.len() / Self::WIDTH);
        Self::decode_into(bytes, &mut out).then_some(out)
    }
}

macro_rules! plain_number {
    ($($t:ty),*) => {$(
        impl Plain for $t {
            const WIDTH: usize = size_of::<$t>();

            fn decode_into(bytes: &[u8], out: &mut Vec<Self>) -> bool {
                let (words, rest) = bytes.as_chunks::<{ size_of::<$t>() }>();
                out.extend(words.iter().map(|w| <$t>::from_le_bytes(*w)));
                rest.is_empty()
            }
        }
    )*};
}

plain_number!(i32, i64, f32, f64);

/// The pages of a chunk of 4- or 8-byte numbers (`T` one of arrow-rs's physical types for
/// them), plain and dictionary-encoded, decoded here.
pub(super) fn number_pages<T: Plain>(chunk: &Chunk) -> Result<Box<dyn Decode<T>>> {
    Ok(Box::new(PageDecoder::new(
        chunk,
        T::WIDTH,
        T::decode,
        |out: &mut Vec<T>, buf: &[u8], n: usize, encoding: Encoding| match encoding {
            Encoding::PLAIN => buf
                .get(..T::WIDTH * n)
                .is_some_and(|bytes| T::decode_into(bytes, out)),
            _ => false,
        },
    )?))
}

/// The INT32 pages of a chunk, plain and dictionary-encoded, narrowed to `T` as arrow-rs
/// narrows them (`cast`, a truncating `as`), straight into `T` (through arrow-rs's column
/// reader every value went through a 4-byte buffer first: for 28x28 uint8 images that buffer
/// was most of the scan's time).
pub(super) fn narrow_pages<T: Copy + Default + Send + 'static>(
    chunk: &Chunk,
    cast: fn(i32) -> T,
) -> Result<Box<dyn Decode<T>>> {
    // Plain INT32s, narrowed: a dictionary page's, and a data page's straight into the page
    // buffer (not through a vector of the page's own).
    let plain = move |bytes: &[u8]| -> Option<Vec<T>> {
        let (words, rest) = bytes.as_chunks::<4>();
        rest.is_empty()
            .then(|| words.iter().map(|w| cast(i32::from_le_bytes(*w))).collect())
    };
    let decode = move |out: &mut Vec<T>, buf: &[u8], n: usize, encoding: Encoding| match encoding {
        Encoding::PLAIN => buf.get(..4 * n).is_some_and(|bytes| {
            let (words, _) = bytes.as_chunks::<4>();
            out.extend(words.iter().map(|w| cast(i32::from_le_bytes(*w))));
            true
        }),
        _ => false,
    };
    Ok(Box::new(PageDecoder::new(chunk, 4, plain, decode)?))
}

/// A chunk's pages decoded here: data pages by `decode` (a page's values buffer, its value
/// count and its encoding, appended to a page buffer; `false`: not an encoding decoded here),
/// dictionary-encoded ones looked up in the chunk's dictionary page, whose plain values
/// `plain` decodes. Pages that hold no value the chunk's selection wants are passed over
/// undecoded (their levels still checked); of a plain page (values of `plain_width` bytes)
/// only the wanted values are decoded.
pub(super) struct PageDecoder<T, F, D> {
    pages: FullTensorPages,
    dictionary: Option<Dictionary<T>>,
    /// One page's values, then copied into the pending values (a page is small, so the copy
    /// reads from cache).
    page: Vec<T>,
    plain_width: usize,
    plain: F,
    decode: D,
    /// Elements per tensor.
    size: usize,
    /// Whether a page holding no wanted value is decoded all the same.
    decode_unwanted: bool,
}

impl<T, F, D> PageDecoder<T, F, D>
where
    T: Copy + Default,
    F: Fn(&[u8]) -> Option<Vec<T>>,
    D: FnMut(&mut Vec<T>, &[u8], usize, Encoding) -> bool,
{
    pub(super) fn new(chunk: &Chunk, plain_width: usize, plain: F, decode: D) -> Result<Self> {
        Ok(Self {
            pages: chunk.pages()?,
            dictionary: None,
            page: Vec::new(),
            plain_width,
            plain,
            decode,
            size: chunk.size,
            decode_unwanted: chunk.decode_unwanted,
        })
    }
}

impl<T, F, D> PageDecoder<T, F, D> {
    /// The error for a dictionary-encoded page (`buf`, `n` values) that failed to decode: an
    /// index run header longer than a varint can be refuses the file (arrow-rs's decoder in
    /// DataFusion's reader panics on it); anything else is DataFusion's reader's to word.
    fn dictionary_error(&self, buf: &[u8], n: usize) -> datafusion::parquet::errors::ParquetError {
        match buf.split_first() {
            Some((&width, runs)) if width <= 32 && overlong_run_header(runs, n, width) => {
                corrupt(format!(
                    "column '{}': a dictionary index run header longer than 10 bytes",
                    self.pages.column
                ))
            }
            _ => not_full(),
        }
    }
}

impl<T, F, D> Decode<T> for PageDecoder<T, F, D>
where
    T: Copy + Default + Send,
    F: Fn(&[u8]) -> Option<Vec<T>> + Send,
    D: FnMut(&mut Vec<T>, &[u8], usize, Encoding) -> bool + Send,
{
    fn decode(&mut self, pending: &mut Pending<T>, _want: usize) -> Result<bool> {
        let selection = pending.has_selection();
        // A page the offset index locates that holds no value wanted: not even read.
        if selection
            && !self.decode_unwanted
            && let Some(rows) = self.pages.located_rows()?
            && !pending.wants(rows * self.size)
        {
            self.pages.pass_over(rows)?;
            pending.skip(rows * self.size);
            return Ok(true);
        }
        let (buf, n, encoding) = match self.pages.next_page()? {
            NextPage::Dictionary(buf, count) => {
                // The entries its header counts, as arrow-rs reads them: a page holding fewer
                // is an error, the bytes after them are ignored.
                let entries = count
                    .checked_mul(self.plain_width)
                    .and_then(|len| buf.get(..len))
                    .and_then(|bytes| (self.plain)(bytes))
                    .and_then(Dictionary::new)
                    .ok_or_else(not_full)?;
                self.dictionary = Some(entries);
                return Ok(true);
            }
            NextPage::Data(buf, values, encoding) => (buf, values, encoding),
            NextPage::End => return Ok(false),
        };
        // Its levels are checked (above, by `pages`); its values are not wanted.
        if !pending.wants(n) && !self.decode_unwanted {
            pending.skip(n);
            return Ok(true);
        }
        let page = &mut self.page;
        page.clear();
        let width = self.plain_width;
        // A plain page with a selection: the wanted values' bytes alone decoded.
        if encoding == Encoding::PLAIN && selection && buf.len() >= n * width {
            for range in pending.advance(n) {
                let bytes = &buf[range.start * width..range.end * width];
                if !(self.decode)(page, bytes, range.len(), encoding) {
                    return Err(not_full().into());
                }
            }
            pending.push(page);
            return Ok(true);
        }
        let dictionary_encoded = matches!(
            encoding,
            Encoding::RLE_DICTIONARY | Encoding::PLAIN_DICTIONARY
        );
        // A dictionary-encoded page of wide indices (more than 2^16 entries) with a
        // selection: the wanted values alone looked up (every index still checked). Narrower
        // ones are decoded whole, 8 at a time, then the wanted kept: for uint8 images a lookup
        // per wanted value made a 10% filter 25% slower.
        if dictionary_encoded && selection && buf.first().is_some_and(|&width| width > 16) {
            let wanted = pending.advance(n);
            let read = self.dictionary.as_ref().is_some_and(|entries| {
                buf.split_first().is_some_and(|(&width, data)| {
                    selected_dictionary_values(data, n, width, entries, &wanted, page)
                })
            });
            if !read || page.len() != wanted.iter().map(ExactSizeIterator::len).sum::<usize>() {
                return Err(self.dictionary_error(&buf, n).into());
            }
            pending.push(page);
            return Ok(true);
        }
        let decoded = if dictionary_encoded {
            self.dictionary.as_ref().is_some_and(|entries| {
                buf.split_first()
                    .is_some_and(|(&width, data)| dictionary_values(data, n, width, entries, page))
            })
        } else {
            (self.decode)(page, &buf, n, encoding)
        };
        if !decoded || page.len() != n {
            return Err(if dictionary_encoded {
                self.dictionary_error(&buf, n)
            } else {
                not_full()
            }
            .into());
        }
        pending.extend_from_slice(page);
        Ok(true)
    }
}
