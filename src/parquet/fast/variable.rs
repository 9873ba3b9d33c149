//! Variable-shape tensor columns: the `data` lists' offsets found in their repetition levels
//! as the pages are read ([`ListsFound`]), and the struct arrays assembled from the values and
//! the `shape` lists.

use std::sync::{Arc, Mutex};

use arrow::array::{ArrayRef, FixedSizeListArray, ListArray, StructArray, new_empty_array};
use arrow::buffer::{OffsetBuffer, ScalarBuffer};
use datafusion::common::{DataFusionError, Result};
use datafusion::parquet::column::page::PageReader;

use super::chunk::Chunk;
use super::columns::Element;
use super::decode::read_tensor_values;
use super::fetch::{Fetched, RowGroupMorsel};

impl RowGroupMorsel {
    /// Read column `index` (a variable-shape tensor column) of the row group's `rows`, its
    /// first `read_rows`, as arrays of `batch_rows` rows each; `None` when its levels say
    /// anything but non-NULL tensors of at least one element each.
    ///
    /// The `shape` lists are read as a fixed-shape tensor column of `ndim` Int32s; the
    /// `data` lists' offsets are their repetition levels' list starts ([`list_starts`],
    /// found as the pages are read) and their values are decoded as a tensor column's are,
    /// into one buffer that the batches' lists slice.
    pub(super) fn read_variable(
        &self,
        chunks: &Fetched,
        index: usize,
        rows: usize,
        read_rows: usize,
        batch_rows: usize,
    ) -> Result<Option<Vec<ArrayRef>>> {
        let (Some(variable), Some((data_leaf, shape_leaf))) = (
            &self.shared.scan.columns[index].variable,
            self.file.variable_leaves[index],
        ) else {
            return Err(DataFusionError::Internal(
                "a variable-shape tensor column without its leaves".into(),
            ));
        };
        let group = self.file.metadata.metadata().row_group(self.row_group);
        // The shapes: `ndim` Int32s per row, read as a fixed-shape tensor column.
        let shape_chunk = Chunk {
            fetched: chunks,
            group,
            rows,
            read_rows,
            selection: None,
            locations: None,
            decode_unwanted: true,
            batch_rows,
            leaf: shape_leaf,
            size: variable.ndim,
            lists: None,
        };
        let Some(shapes) = read_tensor_values(&shape_chunk, Element::Int32)? else {
            return Ok(None);
        };
        let Ok(total) = usize::try_from(group.column(data_leaf).num_values()) else {
            return Ok(None);
        };
        let mut lists = VariableLists {
            elements: total,
            found: Arc::default(),
        };
        // With a limit, the values of the rows read alone: their levels are read first to
        // count them.
        if read_rows < rows {
            let data_chunk = Chunk {
                leaf: data_leaf,
                lists: Some(&lists),
                ..shape_chunk
            };
            match values_of_lists(&data_chunk, read_rows)? {
                Some(elements) => lists.elements = elements,
                None => return Ok(None),
            }
        }
        let data_chunk = Chunk {
            leaf: data_leaf,
            lists: Some(&lists),
            ..shape_chunk
        };
        let Some(values) = read_tensor_values(&data_chunk, variable.element)? else {
            return Ok(None);
        };
        let values = match &values[..] {
            [] => new_empty_array(variable.item.data_type()),
            [values] => Arc::clone(values),
            _ => {
                return Err(DataFusionError::Internal(
                    "values in several batches".into(),
                ));
            }
        };
        let Ok(mut found) = lists.found.lock() else {
            return Ok(None);
        };
        let found = std::mem::take(&mut *found);
        let Some(starts) = found.offsets(read_rows, read_rows == rows, values.len()) else {
            return Ok(None);
        };
        let mut shapes = shapes.into_iter();
        let mut arrays = Vec::with_capacity(read_rows.div_ceil(batch_rows.max(1)));
        for first in (0..read_rows).step_by(batch_rows.max(1)) {
            let end = (first + batch_rows).min(read_rows);
            let base = starts[first];
            let Ok(offsets) = starts[first..=end]
                .iter()
                .map(|&start| i32::try_from(start - base))
                .collect::<Result<Vec<i32>, _>>()
            else {
                return Ok(None);
            };
            // `offsets` rise from 0 (checked by `ListsFound::offsets`): this does not panic.
            let offsets = OffsetBuffer::new(ScalarBuffer::from(offsets));
            let len = (starts[end] - base) as usize;
            let data = ListArray::try_new(
                Arc::clone(&variable.item),
                offsets,
                values.slice(base as usize, len),
                None,
            )?;
            let shape = shapes.next().ok_or_else(|| {
                DataFusionError::Internal("fewer batches of shapes than of rows".into())
            })?;
            let shape = FixedSizeListArray::try_new(
                Arc::clone(&variable.shape_item),
                variable.ndim as i32,
                shape,
                None,
            )?;
            arrays.push(Arc::new(StructArray::try_new(
                variable.fields.clone(),
                vec![Arc::new(data), Arc::new(shape)],
                None,
            )?) as ArrayRef);
        }
        Ok(Some(arrays))
    }
}

/// The lists of a variable-shape tensor column's `data` chunk: how many values to read (those
/// of the rows read), and the lists found in the levels as its pages are read.
pub(super) struct VariableLists {
    pub(super) elements: usize,
    pub(super) found: Arc<Mutex<ListsFound>>,
}

/// The lists of a `data` chunk found so far.
#[derive(Debug, Default)]
pub(super) struct ListsFound {
    /// The chunk positions of the lists' first levels (repetition level 0).
    pub(super) starts: Vec<u64>,
    /// Levels read (each a value: every one is checked to be the maximum definition level).
    pub(super) levels: u64,
}

impl ListsFound {
    /// The offsets of the first `rows` lists in the `values` values read from the chunk's
    /// start, `rows + 1` of them rising from 0 (every list holds at least one value); `None`
    /// when the levels read say otherwise: fewer than `rows` lists, a first level that starts
    /// none, or `values` that end elsewhere than where list `rows` starts or (`whole`: the
    /// chunk's every list read, so no list `rows`) the levels read end. (The pages read hold
    /// the `values`, and list `rows` starts in them when they go on past the last.)
    pub(super) fn offsets(mut self, rows: usize, whole: bool, values: usize) -> Option<Vec<u64>> {
        let end = values as u64;
        // Rising: `list_starts` finds them so, but a list offset that does not rise would
        // panic in arrow-rs (`OffsetBuffer::new`): checked, not assumed.
        let fits = self.starts.len() >= rows
            && (rows == 0 || self.starts.first() == Some(&0))
            && self.starts[..rows].windows(2).all(|pair| pair[0] < pair[1])
            && self
                .starts
                .get(rows.wrapping_sub(1))
                .is_none_or(|&last| last < end)
            && match self.starts.get(rows) {
                Some(&next) => !whole && next == end,
                None => self.levels == end,
            };
        if !fits {
            return None;
        }
        self.starts.truncate(rows);
        self.starts.push(end);
        Some(self.starts)
    }
}

/// The values of the first `rows` lists of a variable-shape tensor column's `data` chunk:
/// its pages' levels read (and checked), not their values, until list `rows` starts; all of
/// the chunk's when it ends first. `None` when a page is not one of full lists.
pub(super) fn values_of_lists(chunk: &Chunk, rows: usize) -> Result<Option<usize>> {
    let (Some(lists), Some(mut pages)) = (chunk.lists, chunk.pages()?) else {
        return Ok(None);
    };
    loop {
        let Ok(found) = lists.found.lock() else {
            return Ok(None);
        };
        if let Some(&start) = found.starts.get(rows) {
            return Ok(usize::try_from(start).ok());
        }
        drop(found);
        match pages.get_next_page() {
            Ok(Some(_)) => {}
            Ok(None) => return Ok(Some(lists.elements)),
            Err(_) => return Ok(None),
        }
    }
}
