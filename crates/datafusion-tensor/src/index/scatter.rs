//! A compiled scatter: where the updates of JAX's `x.at[idx]` go, beside the gather plan of
//! numpy's `x[idx]` ([`super::plan`]).
//!
//! A static index (a string or literal) is compiled once into its occurrences: every element
//! of `x[idx]`, row-major, with the output offset it updates and the `y` offset it reads. An
//! index column is compiled into a window (the elements of `x[i, ...]` from the window's
//! start) and resolved per row, against the bounds rule, into window starts
//! ([`ScatterPlan::windows`]). Nothing here sees Arrow.

use super::normalize::{BoundsRule, DROPPED, Resolved};
use crate::error::{Result, TensorError};
use crate::shape::row_major_strides;
use crate::tensor_type::TensorType;

/// How a dynamic index column is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DynamicKind {
    /// An integer column: one index into axis 0 per row.
    Integer,
    /// A list column of integers: per row, any number of indices into axis 0.
    List,
    /// An integer tensor column: `[m]` indices into axis 0, or `[m, k]` coordinate tuples.
    Tensor,
}

/// Where the updates of a call go.
#[derive(Debug, PartialEq, Eq, Hash)]
pub enum ScatterPlan {
    /// A literal index, compiled.
    Static {
        /// Input offset of every element of `x[idx]`, row-major ([`DROPPED`] where dropped).
        offsets: Vec<usize>,
        /// The occurrences that are not dropped: the output offset each updates...
        targets: Vec<u32>,
        /// ...and the `y` offset each reads.
        sources: Vec<u32>,
    },
    /// An index column, read per row.
    Dynamic {
        /// How to read it.
        kind: DynamicKind,
        /// The index tensor's type (`Tensor` kind).
        index: Option<TensorType>,
        /// Number of leading axes each occurrence indexes.
        k: usize,
        /// Windows per row when fixed (`Integer`: 1, `Tensor`: m); `None` for lists.
        m: Option<usize>,
        /// Offsets of a window's elements from its start.
        window: Vec<u32>,
        /// `y` offset of each window element.
        y_window: Vec<u32>,
        /// `y` offset between windows, and the length of `y`'s window axis (1: broadcast).
        y_step: usize,
        /// Length of `y`'s axis over the windows, when it has one that is not 1.
        y_windows: Option<usize>,
    },
}

/// The occurrences of a static index that are not dropped: the offset each one updates (of
/// `offsets`, [`DROPPED`] where the bounds rule dropped it) and the offset in `y` it reads (of
/// `y_offsets`, one per element of `x[idx]`).
pub fn occurrences(offsets: &[usize], y_offsets: &[usize]) -> (Vec<u32>, Vec<u32>) {
    offsets
        .iter()
        .zip(y_offsets)
        .filter(|(o, _)| **o != DROPPED)
        .map(|(&o, &y)| (o as u32, y as u32))
        .unzip()
}

/// A dynamic index resolved for one batch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Windows {
    /// Window starts, `m` per row ([`DROPPED`] where the rule drops or the row is NULL).
    pub starts: Vec<usize>,
    /// Windows per row: the plan's, or the longest row's (lists).
    pub m: usize,
    /// Each row's own number of windows (lists only).
    pub counts: Option<Vec<usize>>,
}

impl ScatterPlan {
    /// The window starts of a dynamic index over one batch of `rows` rows of tensors of
    /// `shape`. `values` are the index values; row `r`'s are `spans[r]` (start, count) into
    /// them, `k` per window. Rows where `is_null` holds are left out.
    ///
    /// # Errors
    /// An index outside its axis when the rule raises, naming the row.
    pub fn windows(
        &self,
        shape: &[usize],
        rule: BoundsRule,
        values: &[i64],
        spans: &[(usize, usize)],
        is_null: impl Fn(usize) -> bool,
    ) -> Result<Windows> {
        let Self::Dynamic { k, m, .. } = self else {
            return Err(TensorError::Internal("not a dynamic index".to_string()));
        };
        let k = *k;
        let strides = row_major_strides(shape);
        let rows = spans.len();
        let m = match m {
            Some(m) => *m,
            None => spans.iter().map(|s| s.1).max().unwrap_or(0),
        };
        let mut counts = self.has_own_counts().then(|| Vec::with_capacity(rows));
        let mut starts = vec![DROPPED; rows * m];
        for (row, &(start, len)) in spans.iter().enumerate() {
            let count = len / k.max(1);
            if let Some(counts) = counts.as_mut() {
                counts.push(count);
            }
            if is_null(row) {
                continue;
            }
            'windows: for j in 0..count {
                let mut offset = 0usize;
                for axis in 0..k {
                    let value = values[start + j * k + axis];
                    match rule.resolve(value, shape[axis]) {
                        Resolved::At(position) => offset += position * strides[axis],
                        Resolved::Dropped => continue 'windows,
                        Resolved::OutOfBounds => {
                            return Err(TensorError::OutOfBounds {
                                value,
                                axis,
                                size: shape[axis],
                                row: Some(row),
                            });
                        }
                    }
                }
                starts[row * m + j] = offset;
            }
        }
        Ok(Windows { starts, m, counts })
    }

    /// Whether rows have their own number of windows (list columns).
    fn has_own_counts(&self) -> bool {
        matches!(self, Self::Dynamic { m: None, .. })
    }

    /// The length of `y`'s axis over the windows, when it has one that is not 1.
    pub fn y_windows(&self) -> Option<usize> {
        match self {
            Self::Dynamic { y_windows, .. } => *y_windows,
            Self::Static { .. } => None,
        }
    }
}

impl Windows {
    /// `y` given with `n` rows over the windows must match every row's own number of windows
    /// (lists; rows where `is_valid` is false are not checked). numpy's broadcast rule, per
    /// row.
    ///
    /// # Errors
    /// The first row whose windows `y` does not broadcast to.
    pub fn check_y_windows(&self, n: usize, is_valid: impl Fn(usize) -> bool) -> Result<()> {
        let Some(counts) = &self.counts else {
            return Ok(());
        };
        for (row, &count) in counts.iter().enumerate() {
            if count != n && count != 0 && is_valid(row) {
                return Err(TensorError::WindowMismatch { n, count, row });
            }
        }
        Ok(())
    }
}
