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

    /// The plan applied to `rows` rows of `input` (`in_len` elements each): `rows * out_len`
    /// elements.
    pub fn gather<T: Copy + Default>(&self, input: &[T], rows: usize) -> Vec<T> {
        if self.in_len == 0 {
            return Vec::new();
        }
        self.gather_rows(input.chunks_exact(self.in_len).take(rows))
    }

    /// The plan applied to the sub-tensors of `input` starting at each of `starts` (one per
    /// output row), in output order.
    ///
    /// Each output row is built as a fixed-size array where the length is a common one, and
    /// the rows are collected from an iterator of known length: the vector is reserved once,
    /// and a row is a few vector moves with no capacity check. On one cache-resident
    /// 8192-row batch of 4x4 float32 (`benches/indexing.rs`, `one_hot_batch`) `'1:3'` took
    /// 13.2 µs and `'1:3, ::2'` 17.4 µs when rows were appended one by one
    /// (`extend_from_slice`, or indexed stores into a buffer filled first); 8.0 µs and 11.2 µs
    /// this way.
    pub fn gather_from<T: Copy + Default>(
        &self,
        input: &[T],
        starts: impl ExactSizeIterator<Item = usize>,
    ) -> Vec<T> {
        self.gather_rows(starts.map(|start| &input[start..]))
    }

    /// The plan applied to each of `sources`, the input from a row's first element on.
    fn gather_rows<'a, T: Copy + Default + 'a>(
        &self,
        sources: impl ExactSizeIterator<Item = &'a [T]>,
    ) -> Vec<T> {
        if self.out_len == 0 {
            return Vec::new();
        }
        if let [run] = self.runs.as_slice() {
            // One run per row (a contiguous slice such as '1:3').
            let from = run.from as usize;
            macro_rules! fixed_run {
                ($($n:literal)*) => {
                    match run.len {
                        $($n => return copy_fixed::<T, $n>(sources, from),)*
                        _ => {}
                    }
                };
            }
            fixed_run!(1 2 3 4 6 8 12 16 32);
        }
        if self.use_runs() {
            let mut out = Vec::with_capacity(sources.len() * self.out_len);
            for src in sources {
                for run in &self.runs {
                    let (from, len) = (run.from as usize, run.len as usize);
                    out.extend_from_slice(&src[from..from + len]);
                }
            }
            return out;
        }
        macro_rules! fixed_offsets {
            ($($m:literal)*) => {
                match self.out_len {
                    $($m => return pick_fixed::<T, $m>(sources, &self.offsets),)*
                    _ => {}
                }
            };
        }
        fixed_offsets!(1 2 3 4 6 8 9 12 16);
        // Other lengths element by element into a filled buffer: indexed stores measured
        // faster here than appending (`out.extend` of the mapped offsets: 4.7 ms against
        // 3.5 ms for '1:3, ::2' over 1,000,000 4x4 rows, before the fixed-size path above).
        let mut out = vec![T::default(); sources.len() * self.out_len];
        for (src, dst) in sources.zip(out.chunks_exact_mut(self.out_len)) {
            for (d, &o) in dst.iter_mut().zip(&self.offsets) {
                *d = src[o as usize];
            }
        }
        out
    }
}

/// `N` elements from `from` of each source.
#[inline]
fn copy_fixed<'a, T: Copy + 'a, const N: usize>(
    sources: impl ExactSizeIterator<Item = &'a [T]>,
    from: usize,
) -> Vec<T> {
    let rows: Vec<[T; N]> = sources
        .map(|src| {
            let row: &[T; N] = src[from..from + N]
                .try_into()
                .expect("a slice of N elements");
            *row
        })
        .collect();
    rows.into_flattened()
}

/// The `M` elements at `offsets` of each source.
#[inline]
fn pick_fixed<'a, T: Copy + 'a, const M: usize>(
    sources: impl ExactSizeIterator<Item = &'a [T]>,
    offsets: &[u32],
) -> Vec<T> {
    let offsets: &[u32; M] = offsets.try_into().expect("M offsets");
    let rows: Vec<[T; M]> = sources
        .map(|src| std::array::from_fn(|k| src[offsets[k] as usize]))
        .collect();
    rows.into_flattened()
}
