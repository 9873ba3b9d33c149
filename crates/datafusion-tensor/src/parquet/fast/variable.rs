//! Variable-shape tensor columns, a batch at a time ([`VariableReader`]): the `data` lists'
//! offsets found in their repetition levels as the pages are read ([`ListsFound`]), the values
//! decoded as a fixed-shape tensor's are, the `shape` lists read as a fixed-shape tensor of
//! `ndim` Int32s, and the struct arrays assembled with the table's types.

use std::sync::{Arc, Mutex};

use arrow::array::{ArrayRef, FixedSizeListArray, ListArray, StructArray};
use arrow::buffer::{OffsetBuffer, ScalarBuffer};
use datafusion::common::Result;
use datafusion::parquet::file::metadata::RowGroupMetaData;

use super::chunk::{Chunk, ListsFound, not_full};
use super::columns::{Element, VariableColumn};
use super::decode::{ColumnValues, open_tensor_values};
use super::fetched::Fetched;

/// A variable-shape tensor column of a row group, read a batch of rows at a time. Its `data`
/// chunk's pages are decoded as far as the batch's last list reaches (its end is where the
/// next list starts, found in the levels of the pages read), never further than a page ahead.
pub(super) struct VariableReader {
    column: VariableColumn,
    shapes: Box<dyn ColumnValues>,
    data: Box<dyn ColumnValues>,
    found: Arc<Mutex<ListsFound>>,
    /// The row group's rows, and the `data` chunk's values (a level each).
    rows: usize,
    values: u64,
    /// Rows given so far, and the values of theirs.
    row: usize,
    taken: u64,
    /// Whether every page of the `data` chunk has been read.
    exhausted: bool,
}

impl VariableReader {
    /// The column whose `data` and `shape` lists are leaves `data` and `shape` of `group`, to
    /// read its first `read_rows` of `rows` rows.
    pub(super) fn open(
        fetched: &Fetched,
        group: &RowGroupMetaData,
        column: &VariableColumn,
        data: usize,
        shape: usize,
        rows: usize,
        read_rows: usize,
    ) -> Result<Self> {
        // The shapes: `ndim` Int32s per row, read as a fixed-shape tensor column.
        let shape_chunk = Chunk {
            fetched,
            group,
            rows,
            read_rows,
            selection: None,
            locations: None,
            decode_unwanted: true,
            leaf: shape,
            size: column.ndim,
            lists: None,
        };
        let shapes = open_tensor_values(&shape_chunk, Element::Int32)?;
        let found = Arc::new(Mutex::new(ListsFound::default()));
        let data_chunk = Chunk {
            leaf: data,
            lists: Some(Arc::clone(&found)),
            ..shape_chunk
        };
        let values = u64::try_from(group.column(data).num_values()).map_err(|_| not_full())?;
        Ok(Self {
            column: column.clone(),
            shapes,
            data: open_tensor_values(&data_chunk, column.element)?,
            found,
            rows,
            values,
            row: 0,
            taken: 0,
            exhausted: false,
        })
    }

    /// Once every row is taken: both chunks' pages after their values read
    /// ([`ColumnValues::finish`]).
    pub(super) fn finish(&mut self) -> Result<()> {
        self.shapes.finish()?;
        self.data.finish()
    }

    /// The next `len` rows; an error when the levels read say anything but non-NULL tensors of
    /// at least one element each, as many as the row group's rows.
    pub(super) fn next_array(&mut self, len: usize) -> Result<ArrayRef> {
        let end_row = self.row + len;
        // The levels up to where list `end_row` starts, or to the chunk's end.
        loop {
            let known = self.found.lock().map_err(|_| not_full())?.starts.len();
            if known > end_row || self.exhausted {
                break;
            }
            if !self.data.decode_more()? {
                self.exhausted = true;
            }
        }
        let (offsets, end) = {
            let found = self.found.lock().map_err(|_| not_full())?;
            self.offsets(&found, end_row).ok_or_else(not_full)?
        };
        let count = usize::try_from(end - self.taken).map_err(|_| not_full())?;
        let values = self.data.next_array(count)?;
        let shape = self.shapes.next_array(len * self.column.ndim)?;
        self.row = end_row;
        self.taken = end;
        // `offsets` rise from 0 (checked by `Self::offsets`): this does not panic.
        let data = ListArray::try_new(
            Arc::clone(&self.column.item),
            OffsetBuffer::new(ScalarBuffer::from(offsets)),
            values,
            None,
        )?;
        let shape = FixedSizeListArray::try_new(
            Arc::clone(&self.column.shape_item),
            self.column.ndim as i32,
            shape,
            None,
        )?;
        Ok(Arc::new(StructArray::try_new(
            self.column.fields.clone(),
            vec![Arc::new(data), Arc::new(shape)],
            None,
        )?))
    }

    /// The offsets of lists `self.row..end_row` in the values after those taken, rising from
    /// 0 (every list holds at least one value), and where the last one ends in the chunk; `None` when the levels read say otherwise: a
    /// list that does not start where the last batch ended, a first level that starts none,
    /// or (the last row of the row group) lists beyond the rows or levels that end elsewhere
    /// than the chunk's values. (Rising: `list_starts` finds them so, but a list offset that
    /// does not rise would panic in arrow-rs, `OffsetBuffer::new`: checked, not assumed.)
    fn offsets(&self, found: &ListsFound, end_row: usize) -> Option<(Vec<i32>, u64)> {
        let starts = found.starts.get(self.row..end_row)?;
        let end = match found.starts.get(end_row) {
            Some(&next) => next,
            // The row group's last list ends with its values.
            None if end_row == self.rows && self.exhausted && found.levels == self.values => {
                found.levels
            }
            None => return None,
        };
        let fits = starts.first().is_none_or(|&first| first == self.taken)
            && starts.windows(2).all(|pair| pair[0] < pair[1])
            && starts.last().is_none_or(|&last| last < end)
            && (end_row < self.rows || found.starts.len() == self.rows);
        if !fits {
            return None;
        }
        let offsets = starts
            .iter()
            .chain(std::iter::once(&end))
            .map(|&start| i32::try_from(start - self.taken).ok())
            .collect::<Option<_>>()?;
        Some((offsets, end))
    }
}
