//! Values decoded and not yet taken ([`Pending`]: the wanted ones of a chunk's selection), and
//! the one step every decoder of this folder takes into it ([`Decode`]).

use std::collections::VecDeque;
use std::ops::Range;

use datafusion::common::Result;

use super::chunk::Chunk;

/// One way of decoding a chunk's values: a step at a time, into [`Pending`].
pub(super) trait Decode<T>: Send {
    /// Decodes the chunk's next values (a page, or a stretch of at most `want` values: the
    /// wanted values still missing) into `pending`; `false` when the chunk has no more.
    fn decode(&mut self, pending: &mut Pending<T>, want: usize) -> Result<bool>;
}

/// Values decoded and not yet taken: those of the chunk's selection when it has one.
pub(super) struct Pending<T> {
    values: Vec<T>,
    /// The selected elements still ahead, as runs (`None`: every element).
    selected: Option<VecDeque<Range<usize>>>,
    /// Elements of the chunk gone by (kept or not).
    seen: usize,
}

impl<T: Clone> Pending<T> {
    pub(super) fn new(chunk: &Chunk) -> Self {
        Self {
            values: Vec::new(),
            selected: chunk.selected_elements(),
            seen: 0,
        }
    }

    pub(super) fn has_selection(&self) -> bool {
        self.selected.is_some()
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
            self.seen += values.len();
            self.values.extend_from_slice(values);
            return;
        }
        for range in self.advance(values.len()) {
            self.values.extend_from_slice(&values[range]);
        }
    }

    /// Passes over the next `n` elements, giving the wanted ones as ranges of them (the
    /// caller [`Self::push`]es their values).
    pub(super) fn advance(&mut self, n: usize) -> Vec<Range<usize>> {
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

    /// Appends wanted values (of elements [`Self::advance`] passed over).
    pub(super) fn push(&mut self, values: &[T]) {
        self.values.extend_from_slice(values);
    }

    /// The buffer the wanted values of the next `n` elements are appended to, when every
    /// element is wanted (a decoder writing straight into it).
    pub(super) fn every(&mut self, n: usize) -> Option<&mut Vec<T>> {
        if self.selected.is_some() {
            return None;
        }
        self.seen += n;
        Some(&mut self.values)
    }

    /// Room for `additional` more values.
    pub(super) fn reserve(&mut self, additional: usize) {
        self.values.reserve(additional);
    }

    pub(super) fn len(&self) -> usize {
        self.values.len()
    }

    /// The first `count` values (as many are pending), the rest kept.
    pub(super) fn take(&mut self, count: usize) -> Vec<T> {
        if count == self.values.len() {
            return std::mem::take(&mut self.values);
        }
        let rest = self.values.split_off(count);
        std::mem::replace(&mut self.values, rest)
    }
}
