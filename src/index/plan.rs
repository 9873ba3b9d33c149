//! A compiled gather: which input elements, in which order, for every row of a batch.
//!
//! The offsets of one output tensor are computed once from the [`Selection`]; runs of
//! consecutive offsets become block copies (`copy_from_slice`), the rest an offset table. Both
//! are then applied to every row of every batch.

use super::normalize::Selection;

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
}

/// Runs shorter than this on average are gathered element by element: a `copy_from_slice`
/// call costs more than a few indexed loads (measured in `benches/indexing.rs`).
const MIN_AVERAGE_RUN: usize = 4;

impl GatherPlan {
    /// Compiles a selection over tensors of `in_len` elements per row.
    pub fn new(selection: &Selection, in_len: usize) -> Self {
        // Offsets are below in_len, which fits an i32 (checked on the tensor type).
        let offsets: Vec<u32> = selection.offsets().into_iter().map(|o| o as u32).collect();
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
        }
    }

    /// Whether block copies pay off for this plan.
    pub fn use_runs(&self) -> bool {
        !self.runs.is_empty() && self.out_len / self.runs.len() >= MIN_AVERAGE_RUN
    }

    /// Appends the plan applied to `rows` rows of `input` (`in_len` elements each) to `out`
    /// (`rows * out_len` elements).
    pub fn gather<T: Copy>(&self, input: &[T], rows: usize, out: &mut Vec<T>) {
        self.gather_from(input, (0..rows).map(|row| row * self.in_len), out);
    }

    /// Appends the plan applied to the sub-tensors of `input` starting at each of `starts` (one
    /// per output row) to `out`.
    ///
    /// The output is appended, not written into a zeroed buffer: runs and offsets are in
    /// output order, and zeroing a batch's output first cost as much as the copy itself for
    /// contiguous slices (`benches/indexing.rs`).
    pub fn gather_from<T: Copy>(
        &self,
        input: &[T],
        starts: impl ExactSizeIterator<Item = usize>,
        out: &mut Vec<T>,
    ) {
        if self.out_len == 0 {
            return;
        }
        if let [run] = self.runs.as_slice() {
            // One run per row (a contiguous slice such as '1:3'): for the common small lengths
            // a copy whose length is known at compile time (a few vector moves, not a memcpy
            // call per row).
            let from = run.from as usize;
            match run.len {
                1 => return extend_fixed::<T, 1>(input, starts, from, out),
                2 => return extend_fixed::<T, 2>(input, starts, from, out),
                3 => return extend_fixed::<T, 3>(input, starts, from, out),
                4 => return extend_fixed::<T, 4>(input, starts, from, out),
                6 => return extend_fixed::<T, 6>(input, starts, from, out),
                8 => return extend_fixed::<T, 8>(input, starts, from, out),
                12 => return extend_fixed::<T, 12>(input, starts, from, out),
                16 => return extend_fixed::<T, 16>(input, starts, from, out),
                32 => return extend_fixed::<T, 32>(input, starts, from, out),
                _ => {}
            }
        }
        if self.use_runs() {
            for start in starts {
                let src = &input[start..];
                for run in &self.runs {
                    let (from, len) = (run.from as usize, run.len as usize);
                    out.extend_from_slice(&src[from..from + len]);
                }
            }
        } else {
            // Element by element into a filled buffer: indexed stores measured faster here
            // than appending (`out.extend` of the mapped offsets: 4.7 ms against 3.5 ms for
            // '1:3, ::2' over 1,000,000 4x4 rows, `benches/indexing.rs`).
            let Some(&fill) = input.first() else {
                return;
            };
            let base = out.len();
            out.resize(base + starts.len() * self.out_len, fill);
            for (start, dst) in starts.zip(out[base..].chunks_exact_mut(self.out_len)) {
                let src = &input[start..];
                for (d, &o) in dst.iter_mut().zip(&self.offsets) {
                    *d = src[o as usize];
                }
            }
        }
    }
}

/// Appends `N` elements from `start + from` of `input` per start.
#[inline]
fn extend_fixed<T: Copy, const N: usize>(
    input: &[T],
    starts: impl Iterator<Item = usize>,
    from: usize,
    out: &mut Vec<T>,
) {
    for start in starts {
        let begin = start + from;
        out.extend_from_slice(&input[begin..begin + N]);
    }
}
