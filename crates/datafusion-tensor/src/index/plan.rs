//! A compiled gather: which input elements, in which order, for every row of a batch.
//!
//! The offsets of one output tensor are computed once from the [`Selection`] (or given, for a
//! window of a dynamic index); runs of consecutive offsets become block copies, the rest an
//! offset table. The one gather mapping of the crate: output element `k` of a row reads the
//! input at the row's start plus `offsets[k]`, as arrow's `take_fixed_size_list` maps rows to
//! child indices. The copy loops that apply it are [`crate::kernels::gather`]'s.

use super::normalize::{DROPPED, Selection};

/// A contiguous piece of the output: `len` elements copied from input offset `from`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Run {
    /// Input offset within the row.
    pub from: u32,
    /// Output offset within the row.
    pub to: u32,
    /// Number of elements.
    pub len: u32,
}

/// How one output tensor is gathered from one input tensor.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct GatherPlan {
    /// Elements per input row.
    pub in_len: usize,
    /// Elements per output row.
    pub out_len: usize,
    /// Input offset of every output element (row-relative).
    pub offsets: Vec<u32>,
    /// The same as maximal runs of consecutive offsets.
    pub runs: Vec<Run>,
    /// Output offsets whose index the bounds rule dropped (JAX's `fill`): they read nothing
    /// (their entry in `offsets` is 0) and take the fill value.
    pub dropped: Vec<u32>,
}

/// Runs shorter than this on average are gathered element by element: a `copy_from_slice`
/// call costs more than a few indexed loads (measured in `benches/indexing.rs`).
const MIN_AVERAGE_RUN: usize = 4;

impl GatherPlan {
    /// Compiles a selection over tensors of `in_len` elements per row.
    pub fn new(selection: &Selection, in_len: usize) -> Self {
        Self::from_offsets(&selection.offsets(), in_len)
    }

    /// The plan reading each row at `offsets` ([`DROPPED`]: nothing, filled).
    pub fn from_offsets(offsets: &[usize], in_len: usize) -> Self {
        let mut dropped = Vec::new();
        // Offsets are below in_len, which fits an i32 (checked on the tensor type).
        let offsets: Vec<u32> = offsets
            .iter()
            .enumerate()
            .map(|(k, &o)| {
                if o == DROPPED {
                    dropped.push(k as u32);
                    0
                } else {
                    o as u32
                }
            })
            .collect();
        let mut runs: Vec<Run> = Vec::new();
        for (to, &from) in offsets.iter().enumerate() {
            match runs.last_mut() {
                Some(run) if run.from + run.len == from => run.len += 1,
                _ => runs.push(Run {
                    from,
                    to: to as u32,
                    len: 1,
                }),
            }
        }
        Self {
            in_len,
            out_len: offsets.len(),
            offsets,
            runs,
            dropped,
        }
    }

    /// Whether block copies pay off for this plan.
    pub fn use_runs(&self) -> bool {
        !self.runs.is_empty() && self.out_len / self.runs.len() >= MIN_AVERAGE_RUN
    }
}
