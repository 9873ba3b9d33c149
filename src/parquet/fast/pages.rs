//! Plain and dictionary-encoded pages of numbers decoded here, page by page, into the chunk's
//! batches ([`read_pages`]); pages holding no wanted value passed over. INT32s narrowed to the
//! 8- and 16-bit integer types as arrow-rs narrows them ([`read_narrow`]).

use std::collections::VecDeque;

use datafusion::common::Result;
use datafusion::parquet::basic::Encoding;
use datafusion::parquet::column::page::Page;
use datafusion::parquet::column::page::PageReader;
use datafusion::parquet::data_type::{self as pq, DataType as ParquetDataType};

use super::dictionary::{Dictionary, dictionary_values, selected_dictionary_values};

use super::chunk::Chunk;
use super::decode::read_values;

/// The values of a chunk of 4- or 8-byte numbers (`T` one of arrow-rs's physical types for
/// them): with a selection, plain and dictionary pages decoded here, those holding no selected
/// row passed over; without one, or in another encoding, [`read_values`].
pub(super) fn read_numbers<P: ParquetDataType<T = T>, T: Plain>(
    chunk: &Chunk,
) -> Result<Option<Vec<Vec<T>>>> {
    if chunk.selection.is_some() {
        let plain = |bytes: &[u8]| T::decode(bytes);
        let read = read_pages(
            chunk,
            T::WIDTH,
            plain,
            |out, buf, n, encoding| match encoding {
                Encoding::PLAIN => buf
                    .get(..T::WIDTH * n)
                    .is_some_and(|bytes| T::decode_into(bytes, out)),
                _ => false,
            },
        )?;
        return read.or_else(|| read_values::<P>(chunk));
    }
    read_values::<P>(chunk)
}

/// A number stored in Parquet as its little-endian bytes.
pub(super) trait Plain: Copy + Default {
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

/// Values decoded page by page, gathered into the chunk's batches: those of the selected rows
/// when the chunk has a selection.
pub(super) struct Batches<T> {
    pub(super) done: Vec<Vec<T>>,
    pub(super) current: Vec<T>,
    /// The element counts of the batches still to fill, the current one first.
    pub(super) counts: VecDeque<usize>,
    /// The selected elements still ahead, as runs (`None`: every element).
    pub(super) selected: Option<VecDeque<std::ops::Range<usize>>>,
    /// Elements of the chunk gone by (kept or not).
    pub(super) seen: usize,
}

impl<T: Clone> Batches<T> {
    pub(super) fn new(chunk: &Chunk) -> Self {
        Self {
            done: Vec::new(),
            current: Vec::new(),
            counts: chunk.batches().collect(),
            selected: chunk.selected_elements(),
            seen: 0,
        }
    }

    pub(super) fn is_full(&self) -> bool {
        self.counts.is_empty()
    }

    /// Whether any of the next `n` elements is wanted.
    pub(super) fn wants(&self, n: usize) -> bool {
        match &self.selected {
            None => true,
            Some(runs) => runs.front().is_some_and(|run| run.start < self.seen + n),
        }
    }

    /// Passes over the next `n` elements, none of them wanted.
    pub(super) fn skip(&mut self, n: usize) {
        self.seen += n;
    }

    /// Appends the wanted ones of the next `values.len()` elements.
    pub(super) fn extend_from_slice(&mut self, values: &[T]) {
        if self.selected.is_none() {
            self.push(values);
            return;
        }
        for range in self.advance(values.len()) {
            self.push(&values[range]);
        }
    }

    /// Passes over the next `n` elements, giving the wanted ones as ranges of them (the
    /// caller [`Self::push`]es their values).
    pub(super) fn advance(&mut self, n: usize) -> Vec<std::ops::Range<usize>> {
        let (start, end) = (self.seen, self.seen + n);
        self.seen = end;
        let Some(runs) = &mut self.selected else {
            return std::iter::once(0..n).collect();
        };
        let mut wanted = Vec::new();
        while let Some(run) = runs.front_mut() {
            if run.start >= end {
                break;
            }
            wanted.push(run.start.max(start) - start..run.end.min(end) - start);
            if run.end <= end {
                runs.pop_front();
            } else {
                run.start = end;
                break;
            }
        }
        wanted
    }

    /// Appends `values`, past the last batch dropped.
    pub(super) fn push(&mut self, mut values: &[T]) {
        while let Some(&count) = self.counts.front() {
            if values.is_empty() {
                break;
            }
            if self.current.capacity() == 0 {
                self.current.reserve_exact(count);
            }
            let take = (count - self.current.len()).min(values.len());
            self.current.extend_from_slice(&values[..take]);
            values = &values[take..];
            if self.current.len() == count {
                self.done.push(std::mem::take(&mut self.current));
                self.counts.pop_front();
            }
        }
    }
}

/// The values of a tensor column chunk's pages, in the chunk's batches: data pages decoded by
/// `decode` (a page's values buffer, its value count and its encoding, appended to a page
/// buffer; `false`: not an encoding decoded here), dictionary-encoded ones looked up in the
/// chunk's dictionary page, whose plain values `plain` decodes. Pages that hold no value the
/// chunk's selection wants are passed over undecoded (their levels still checked); of a plain
/// page (values of `plain_width` bytes) only the wanted values are decoded.
pub(super) fn read_pages<T: Copy + Default>(
    chunk: &Chunk,
    plain_width: usize,
    plain: impl Fn(&[u8]) -> Option<Vec<T>>,
    mut decode: impl FnMut(&mut Vec<T>, &[u8], usize, Encoding) -> bool,
) -> Result<PagesRead<T>> {
    let Some(mut pages) = chunk.pages()? else {
        return Ok(PagesRead::NotFull);
    };
    let mut batches = Batches::new(chunk);
    let mut dictionary: Option<Dictionary<T>> = None;
    // One page's values, then copied into the batches (a page is small, so the copy reads
    // from cache).
    let mut page: Vec<T> = Vec::new();
    while !batches.is_full() {
        // A page the offset index locates that holds no value wanted: not even read.
        if chunk.selection.is_some()
            && !chunk.decode_unwanted
            && let Some(rows) = pages.located_rows()?
            && !batches.wants(rows * chunk.size)
        {
            pages.pass_over(rows)?;
            batches.skip(rows * chunk.size);
            continue;
        }
        match pages.get_next_page()? {
            Some(Page::DictionaryPage { buf, .. }) => {
                let Some(entries) = plain(&buf).and_then(Dictionary::new) else {
                    return Ok(PagesRead::OtherEncoding);
                };
                dictionary = Some(entries);
            }
            Some(Page::DataPage {
                buf,
                num_values,
                encoding,
                ..
            }) => {
                let n = num_values as usize;
                // Its levels are checked (above, by `pages`); its values are not wanted.
                if !batches.wants(n) && !chunk.decode_unwanted {
                    batches.skip(n);
                    continue;
                }
                page.clear();
                // A plain page with a selection: the wanted values' bytes alone decoded.
                if encoding == Encoding::PLAIN
                    && chunk.selection.is_some()
                    && buf.len() >= n * plain_width
                {
                    for range in batches.advance(n) {
                        let bytes = &buf[range.start * plain_width..range.end * plain_width];
                        if !decode(&mut page, bytes, range.len(), encoding) {
                            return Ok(PagesRead::OtherEncoding);
                        }
                    }
                    batches.push(&page);
                    continue;
                }
                // A dictionary-encoded page of wide indices (more than 2^16 entries) with a
                // selection: the wanted values alone looked up (every index still checked).
                // Narrower ones are decoded whole, 8 at a time, then the wanted kept: for
                // uint8 images a lookup per wanted value made a 10% filter 25% slower.
                if matches!(
                    encoding,
                    Encoding::RLE_DICTIONARY | Encoding::PLAIN_DICTIONARY
                ) && chunk.selection.is_some()
                    && buf.first().is_some_and(|&width| width > 16)
                {
                    let wanted = batches.advance(n);
                    let read = dictionary.as_ref().is_some_and(|entries| {
                        buf.split_first().is_some_and(|(&width, data)| {
                            selected_dictionary_values(data, n, width, entries, &wanted, &mut page)
                        })
                    });
                    if !read
                        || page.len() != wanted.iter().map(ExactSizeIterator::len).sum::<usize>()
                    {
                        return Ok(PagesRead::NotFull);
                    }
                    batches.push(&page);
                    continue;
                }
                let decoded = match encoding {
                    Encoding::RLE_DICTIONARY | Encoding::PLAIN_DICTIONARY => dictionary
                        .as_ref()
                        .is_some_and(|entries| dictionary_page(&mut page, &buf, n, entries)),
                    _ if !decode(&mut page, &buf, n, encoding) => {
                        return Ok(PagesRead::OtherEncoding);
                    }
                    _ => true,
                };
                if !decoded || page.len() != n {
                    return Ok(PagesRead::NotFull);
                }
                batches.extend_from_slice(&page);
            }
            // The chunk ended early, or a page of another kind.
            None | Some(_) => return Ok(PagesRead::NotFull),
        }
    }
    Ok(PagesRead::Read(batches.done))
}

/// What [`read_pages`] made of a chunk.
pub(super) enum PagesRead<T> {
    /// Its values, in the chunk's batches.
    Read(Vec<Vec<T>>),
    /// A page in an encoding not decoded there (or too short for one that is): for arrow-rs's
    /// column reader to read.
    OtherEncoding,
    /// Anything but the pages of full tensors the footer announces (`None` for the caller).
    NotFull,
}

impl<T> PagesRead<T> {
    /// The values read, or those `other` reads when a page's encoding is not decoded here.
    pub(super) fn or_else(
        self,
        other: impl FnOnce() -> Result<Option<Vec<Vec<T>>>>,
    ) -> Result<Option<Vec<Vec<T>>>> {
        match self {
            Self::Read(batches) => Ok(Some(batches)),
            Self::NotFull => Ok(None),
            Self::OtherEncoding => other(),
        }
    }
}

/// A dictionary-encoded data page's values (`buf`: the index bit width, then the indices as
/// RLE/bit-packed runs) from `dictionary`, appended to `out`; `false` when the page holds
/// fewer values or an index past the dictionary.
pub(super) fn dictionary_page<T: Copy>(
    out: &mut Vec<T>,
    buf: &[u8],
    n: usize,
    dictionary: &Dictionary<T>,
) -> bool {
    buf.split_first()
        .is_some_and(|(&width, data)| dictionary_values(data, n, width, dictionary, out))
}

/// The INT32 values of a tensor column chunk narrowed to `T` as arrow-rs narrows them
/// (`cast`, a truncating `as`). Plain and dictionary pages are decoded straight into `T` (through
/// arrow-rs's column reader, every value went through a 4-byte buffer first: for 28x28 uint8
/// images that buffer was most of the scan's time); other encodings are read by arrow-rs's
/// column reader and then narrowed.
pub(super) fn read_narrow<T: Copy + Default>(
    chunk: &Chunk,
    cast: impl Fn(i32) -> T,
) -> Result<Option<Vec<Vec<T>>>> {
    // Plain INT32s, narrowed.
    let words = |bytes: &[u8]| -> Option<Vec<T>> {
        let (words, rest) = bytes.as_chunks::<4>();
        rest.is_empty()
            .then(|| words.iter().map(|w| cast(i32::from_le_bytes(*w))).collect())
    };
    let read = read_pages(chunk, 4, words, |out, buf, n, encoding| match encoding {
        // Straight into the page buffer (not through a vector of the page's own).
        Encoding::PLAIN => buf.get(..4 * n).is_some_and(|bytes| {
            let (words, _) = bytes.as_chunks::<4>();
            out.extend(words.iter().map(|w| cast(i32::from_le_bytes(*w))));
            true
        }),
        _ => false,
    })?;
    read.or_else(|| {
        Ok(read_values::<pq::Int32Type>(chunk)?.map(|batches| {
            batches
                .into_iter()
                .map(|values| values.into_iter().map(&cast).collect())
                .collect()
        }))
    })
}
