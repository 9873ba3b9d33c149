//! One tensor column chunk of a fetched row group ([`Chunk`]: which rows and values are
//! wanted, in which batches) and its pages checked to hold full tensors and handed on as pages
//! of values alone ([`FullTensorPages`]).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use datafusion::common::Result;
use datafusion::parquet::basic::{Encoding, Type as PhysicalType};
use datafusion::parquet::column::page::{Page, PageMetadata, PageReader};
use datafusion::parquet::errors::ParquetError;
use datafusion::parquet::file::metadata::RowGroupMetaData;
use datafusion::parquet::file::page_index::offset_index::PageLocation;
use datafusion::parquet::file::serialized_reader::SerializedPageReader;
use datafusion::parquet::schema::types::ColumnDescriptor;

use super::levels::{full_tensor_levels, list_starts, overlong_run_header, short_levels};

use super::fetched::{Fetched, corrupt};
use super::plan::Selection;

/// One tensor column chunk of a fetched row group, to read.
pub(super) struct Chunk<'a> {
    pub(super) fetched: &'a Fetched,
    pub(super) group: &'a RowGroupMetaData,
    /// The row group's rows, and how many of the first of them to read.
    pub(super) rows: usize,
    pub(super) read_rows: usize,
    /// The rows among those whose values are wanted (`None`: every row read).
    pub(super) selection: Option<&'a Selection>,
    /// Its pages' locations and first rows, from the file's offset index.
    pub(super) locations: Option<&'a [PageLocation]>,
    /// Whether a page holding no selected row is decoded all the same (its errors raised).
    pub(super) decode_unwanted: bool,
    pub(super) leaf: usize,
    /// Elements per tensor.
    pub(super) size: usize,
    /// For the `data` chunk of a variable-shape tensor column: the lists found as its pages
    /// are read (`size` unused).
    pub(super) lists: Option<Arc<Mutex<ListsFound>>>,
}

impl Chunk<'_> {
    /// Its pages, checked to hold full tensors and handed on as pages of values alone; an
    /// error when the footer says it holds anything else.
    pub(super) fn pages(&self) -> Result<FullTensorPages> {
        let chunk = self.group.column(self.leaf);
        let num_values = u64::try_from(chunk.num_values()).ok();
        let (lists, total) = match &self.lists {
            // The lists of a variable-shape tensor: found as the pages are read, no more of
            // them than the row group's rows, no more levels than the footer's count.
            Some(lists) => (
                Some((Arc::clone(lists), self.rows)),
                num_values.ok_or_else(not_full)?,
            ),
            // A chunk of full tensors holds a level for each element of each row; anything
            // else (or a footer that says so) is not read here.
            None => {
                let total = (self.rows as u64).checked_mul(self.size as u64);
                match total {
                    Some(total) if num_values == Some(total) => (None, total),
                    _ => return Err(not_full().into()),
                }
            }
        };
        Ok(FullTensorPages {
            inner: SerializedPageReader::new(
                Arc::new(self.fetched.clone()),
                chunk,
                self.rows,
                self.locations.map(<[PageLocation]>::to_vec),
            )?,
            size: self.size as u64,
            max_def: chunk.column_descr().max_def_level(),
            level: 0,
            total,
            dictionary: false,
            check_value_runs: false,
            value_width: value_width(chunk.column_descr()),
            column: chunk.column_path().string(),
            located: self.locations.is_some(),
            lists,
        })
    }

    /// Elements read through: of the first `read_rows` tensors (of a variable-shape tensor's
    /// `data` chunk: all its values, read as far as its lists are asked for).
    pub(super) fn elements(&self) -> usize {
        match self.lists {
            Some(_) => usize::try_from(self.group.column(self.leaf).num_values()).unwrap_or(0),
            None => self.read_rows * self.size,
        }
    }

    /// The selected rows as runs of elements (`None`: every element).
    pub(super) fn selected_elements(&self) -> Option<VecDeque<std::ops::Range<usize>>> {
        self.selection.map(|selection| {
            selection
                .runs
                .iter()
                .map(|run| run.start * self.size..run.end * self.size)
                .collect()
        })
    }

    /// The data-page encodings the footer lists for the chunk (those of its levels, RLE and
    /// `BIT_PACKED`, left out: a Boolean's RLE values are not told apart from them).
    // BIT_PACKED is deprecated as a level encoding; old writers still list it.
    #[allow(deprecated)]
    pub(super) fn data_encodings(&self) -> Vec<Encoding> {
        self.group
            .column(self.leaf)
            .encodings()
            .filter(|e| !matches!(e, Encoding::RLE | Encoding::BIT_PACKED))
            .collect()
    }

    /// Bytes of decoded values the footer's sizes can vouch for: a reader reserves no more
    /// room than that at once (a corrupt footer must not make it allocate beyond what the
    /// pages hold), and grows its buffer past it.
    pub(super) fn vouched_bytes(&self) -> usize {
        usize::try_from(self.group.column(self.leaf).uncompressed_size())
            .unwrap_or(0)
            .saturating_mul(8)
    }
}

/// The lists of a `data` chunk found so far.
#[derive(Debug, Default)]
pub(super) struct ListsFound {
    /// The chunk positions of the lists' first levels (repetition level 0).
    pub(super) starts: Vec<u64>,
    /// Levels read (each a value: every one is checked to be the maximum definition level).
    pub(super) levels: u64,
}

/// A tensor column chunk's pages, each checked to hold full tensors (every definition level
/// the maximum, a repetition level 0 exactly at the start of every `size` levels) and handed on
/// as a page of its values alone. A page that holds anything else is an error (the row group
/// is then read by DataFusion's reader).
pub(super) struct FullTensorPages {
    pub(super) inner: SerializedPageReader<Fetched>,
    pub(super) size: u64,
    pub(super) max_def: i16,
    /// Levels checked so far in the chunk (counting those of pages passed over as full).
    pub(super) level: u64,
    /// Levels the chunk holds: no page may claim more than are left (see [`Self::claim`]).
    pub(super) total: u64,
    /// Whether the chunk's dictionary page has been read.
    pub(super) dictionary: bool,
    /// Whether the run headers of dictionary-encoded values are checked before the page is
    /// handed on (to arrow-rs's column reader, which panics on one too long).
    pub(super) check_value_runs: bool,
    /// Bytes of a value of the column's physical type (`None` for booleans).
    pub(super) value_width: Option<usize>,
    /// The column's path, for errors.
    pub(super) column: String,
    /// Whether the offset index locates the pages.
    pub(super) located: bool,
    /// For a variable-shape tensor's `data` chunk (`size` unused): the lists found, and how
    /// many there may be at most.
    pub(super) lists: Option<(Arc<Mutex<ListsFound>>, usize)>,
}

/// A chunk's next page, as the decoders here take it.
pub(super) enum NextPage {
    /// Its dictionary page's values, and how many its header says.
    Dictionary(Bytes, usize),
    /// A data page's values (its levels checked and gone), how many, and their encoding.
    Data(Bytes, usize, Encoding),
    /// The chunk's end.
    End,
}

impl FullTensorPages {
    /// The chunk's next page; an error for a page of another kind.
    pub(super) fn next_page(&mut self) -> Result<NextPage> {
        Ok(match self.get_next_page()? {
            Some(Page::DictionaryPage {
                buf, num_values, ..
            }) => NextPage::Dictionary(buf, num_values as usize),
            Some(Page::DataPage {
                buf,
                num_values,
                encoding,
                ..
            }) => NextPage::Data(buf, num_values as usize, encoding),
            None => NextPage::End,
            Some(_) => return Err(not_full().into()),
        })
    }
}

/// Bytes of a value of `descr`'s physical type as stored plain (`None` for booleans, bits,
/// and byte arrays, of their own lengths).
fn value_width(descr: &ColumnDescriptor) -> Option<usize> {
    match descr.physical_type() {
        PhysicalType::BOOLEAN | PhysicalType::BYTE_ARRAY => None,
        PhysicalType::INT32 | PhysicalType::FLOAT => Some(4),
        PhysicalType::INT64 | PhysicalType::DOUBLE => Some(8),
        PhysicalType::INT96 => Some(12),
        PhysicalType::FIXED_LEN_BYTE_ARRAY => usize::try_from(descr.type_length()).ok(),
    }
}

pub(super) fn not_full() -> ParquetError {
    ParquetError::General("not a column of full tensors".to_string())
}

impl FullTensorPages {
    /// Checks a data page's header before anything of it is decoded (once a page, not per
    /// value). It may hold no more levels than the chunk has left: a header claiming
    /// 2^31 - 1 values in a chunk of 8 tensors made the decoders reserve and fill gigabytes
    /// for it, and DataFusion's reader, given the row group, either fails on the page or reads
    /// its 2^31 records (one RLE run of levels and values can say so in a few bytes), so the
    /// file is refused here. A dictionary-encoded page must follow the chunk's dictionary
    /// page: arrow-rs's column reader panics on one that does not.
    fn claim(&self, num_values: u32, encoding: Encoding) -> Result<(), ParquetError> {
        let left = self.total.saturating_sub(self.level);
        if u64::from(num_values) > left {
            return Err(corrupt(format!(
                "column '{}': a data page claims {num_values} values, more than the {left} left in its column chunk",
                self.column
            )));
        }
        if !self.dictionary
            && matches!(
                encoding,
                Encoding::RLE_DICTIONARY | Encoding::PLAIN_DICTIONARY
            )
        {
            return Err(corrupt(format!(
                "column '{}': a dictionary-encoded data page and no dictionary page before it",
                self.column
            )));
        }
        Ok(())
    }

    /// The error for levels that fail the check. Levels that arrow-rs cannot read refuse the
    /// file: a run header longer than a varint can be (its level decoder panics on it), or
    /// runs that end before the page's levels (zeroed, cut, a run of no levels: its reader
    /// fails on them, and its skip of records spins forever on such repetition levels, which
    /// is how DataFusion's reader would take the row group over from a row past its first).
    /// Anything else is not full tensors: DataFusion's reader reads the row group.
    fn levels_error(&self, rep: &[u8], def: &[u8], levels: usize) -> ParquetError {
        let def_width = (16 - self.max_def.leading_zeros()) as u8;
        if overlong_run_header(rep, levels, 1) || overlong_run_header(def, levels, def_width) {
            return corrupt(format!(
                "column '{}': a level run header longer than 10 bytes",
                self.column
            ));
        }
        if short_levels(rep, levels, 1) || short_levels(def, levels, def_width) {
            return corrupt(format!(
                "column '{}': a data page's levels end before its {levels} values",
                self.column
            ));
        }
        not_full()
    }

    /// A page's values checked before anything decodes them. A byte-stream-split page must
    /// hold a value's bytes for each of its values: arrow-rs's decoder indexes past a shorter
    /// one and panics (in DataFusion's reader too, so the file is refused here). For arrow-rs's
    /// column reader ([`Self::check_value_runs`]): a dictionary-encoded page whose index run
    /// headers are longer than a varint can be is refused.
    fn check_values(
        &self,
        values: &[u8],
        num_values: u32,
        encoding: Encoding,
    ) -> Result<(), ParquetError> {
        if encoding == Encoding::BYTE_STREAM_SPLIT
            && let Some(width) = self.value_width
            && (values.len() as u64) < u64::from(num_values) * width as u64
        {
            return Err(corrupt(format!(
                "column '{}': a byte-stream-split page of {num_values} values holds {} bytes",
                self.column,
                values.len()
            )));
        }
        if self.check_value_runs
            && matches!(
                encoding,
                Encoding::RLE_DICTIONARY | Encoding::PLAIN_DICTIONARY
            )
            && let Some((&width, runs)) = values.split_first()
            && width <= 32
            && overlong_run_header(runs, num_values as usize, width)
        {
            return Err(corrupt(format!(
                "column '{}': a dictionary index run header longer than 10 bytes",
                self.column
            )));
        }
        Ok(())
    }
}

impl FullTensorPages {
    /// The rows of the next page, when it is a data page the offset index locates, starting at
    /// the start of a tensor: such a page can be passed over unread ([`Self::pass_over`]).
    pub(super) fn located_rows(&mut self) -> Result<Option<usize>, ParquetError> {
        if !self.located || self.lists.is_some() || !self.level.is_multiple_of(self.size) {
            return Ok(None);
        }
        Ok(self
            .inner
            .peek_next_page()?
            .filter(|page| !page.is_dict)
            .and_then(|page| page.num_rows))
    }

    /// Passes over the next page, of `rows` rows ([`Self::located_rows`]), unread: whatever it
    /// holds, the next page starts at the tensor the offset index says.
    pub(super) fn pass_over(&mut self, rows: usize) -> Result<(), ParquetError> {
        self.inner.skip_next_page()?;
        self.level += rows as u64 * self.size;
        Ok(())
    }

    /// `levels` levels: repetition levels `rep`, definition levels `def`, RLE/bit-packed hybrid.
    ///
    /// A page the offset index locates must hold the levels of its rows' tensors, from the
    /// start of one (`rows`): pages passed over are counted by the index, and one that says
    /// otherwise would misplace every value after them.
    pub(super) fn check(
        &mut self,
        rep: &[u8],
        def: &[u8],
        levels: usize,
        rows: Option<usize>,
    ) -> Result<(), ParquetError> {
        if let Some((found, max_lists)) = &self.lists {
            let mut found = found.lock().map_err(|_| not_full())?;
            let found = &mut *found;
            let start = self.level;
            if !list_starts(
                rep,
                def,
                levels,
                start,
                self.max_def,
                &mut found.starts,
                *max_lists,
            ) {
                return Err(self.levels_error(rep, def, levels));
            }
            self.level += levels as u64;
            found.levels = self.level;
            return Ok(());
        }
        let located = rows.is_none_or(|rows| {
            self.level.is_multiple_of(self.size) && rows as u64 * self.size == levels as u64
        });
        if !located {
            return Err(not_full());
        }
        if !full_tensor_levels(rep, def, levels, self.level, self.size, self.max_def) {
            return Err(self.levels_error(rep, def, levels));
        }
        self.level += levels as u64;
        Ok(())
    }
}

impl Iterator for FullTensorPages {
    type Item = Result<Page, ParquetError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.get_next_page().transpose()
    }
}

impl PageReader for FullTensorPages {
    fn get_next_page(&mut self) -> Result<Option<Page>, ParquetError> {
        let rows = if self.located {
            self.inner
                .peek_next_page()?
                .filter(|page| !page.is_dict)
                .and_then(|page| page.num_rows)
        } else {
            None
        };
        let page = match self.inner.get_next_page()? {
            Some(Page::DataPage {
                buf,
                num_values,
                encoding,
                def_level_encoding: Encoding::RLE,
                rep_level_encoding: Encoding::RLE,
                ..
            }) => {
                self.claim(num_values, encoding)?;
                // Repetition then definition levels, each after its 4-byte length.
                let section = |at: usize| -> Result<(usize, usize), ParquetError> {
                    let len: [u8; 4] = buf
                        .get(at..at + 4)
                        .and_then(|b| b.try_into().ok())
                        .ok_or_else(not_full)?;
                    let end = (at + 4)
                        .checked_add(u32::from_le_bytes(len) as usize)
                        .filter(|&end| end <= buf.len())
                        .ok_or_else(not_full)?;
                    Ok((at + 4, end))
                };
                let rep = section(0)?;
                let def = section(rep.1)?;
                self.check(
                    &buf[rep.0..rep.1],
                    &buf[def.0..def.1],
                    num_values as usize,
                    rows,
                )?;
                self.check_values(&buf[def.1..], num_values, encoding)?;
                values_page(buf.slice(def.1..), num_values, encoding)
            }
            Some(Page::DataPageV2 {
                buf,
                num_values,
                encoding,
                num_nulls: 0,
                def_levels_byte_len,
                rep_levels_byte_len,
                ..
            }) => {
                self.claim(num_values, encoding)?;
                let rep_end = rep_levels_byte_len as usize;
                let def_end = rep_end
                    .checked_add(def_levels_byte_len as usize)
                    .filter(|&end| end <= buf.len())
                    .ok_or_else(not_full)?;
                self.check(
                    &buf[..rep_end],
                    &buf[rep_end..def_end],
                    num_values as usize,
                    rows,
                )?;
                self.check_values(&buf[def_end..], num_values, encoding)?;
                values_page(buf.slice(def_end..), num_values, encoding)
            }
            Some(page @ Page::DictionaryPage { .. }) => {
                self.dictionary = true;
                page
            }
            Some(_) => return Err(not_full()),
            None => return Ok(None),
        };
        Ok(Some(page))
    }

    /// The next page's size as the values-only column it is handed on as: a row per value (a
    /// version-2 header's row count is of tensors).
    fn peek_next_page(&mut self) -> Result<Option<PageMetadata>, ParquetError> {
        Ok(self.inner.peek_next_page()?.map(|metadata| PageMetadata {
            num_rows: None,
            ..metadata
        }))
    }

    /// Skipped, its levels still checked: a page of anything but full tensors would shift
    /// every value after it.
    fn skip_next_page(&mut self) -> Result<(), ParquetError> {
        self.get_next_page().map(drop)
    }
}

/// A version-1 data page of values only (a required column's page has no level sections).
pub(super) fn values_page(buf: Bytes, num_values: u32, encoding: Encoding) -> Page {
    Page::DataPage {
        buf,
        num_values,
        encoding,
        def_level_encoding: Encoding::RLE,
        rep_level_encoding: Encoding::RLE,
        statistics: None,
    }
}
