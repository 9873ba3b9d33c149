//! The matrix-product fast path of a [`Contraction`](super::contraction::Contraction): a
//! two-operand labelling that is a (batched) matrix product — every index kept in the result
//! is read by one operand or by both (a batch), every summed index by both, no index twice in
//! one operand — runs as `matrixmultiply`'s strided `sgemm`/`dgemm` (float16 through float32,
//! rounded once per result element, as numpy's half loops do). Indices of one role that are
//! contiguous in both the operand and the result fuse into one matrix side; the others are
//! loops around the call (summed ones add into the result, `beta = 1`). Permuted operands go
//! in at their strides, without copies.
//!
//! Which way a product goes is chosen per size, by measurement: every matrix product, of any
//! element type, is worked by a tight triple loop in the element's own arithmetic
//! ([`Gemm::run_loop`]: integers wrap, booleans are logic, float16 sums in float32), except
//! float products of at least [`GEMM_MIN_WORK`] multiply-adds per call, which go to
//! `matrixmultiply`: the triple loop wins up to 12 per side, gemm from 16, measured with
//! `benches/linalg.rs` (docs/src/benchmarks/aggregates-linalg.md has the table).
//!
//! Integers and booleans never go to `matrixmultiply` (numpy's wrapping sums are exact in the
//! triple loop). A product whose summed indices do not fuse into one keeps the general loop
//! below the threshold.

use super::element::Element;
use super::labelling::Labelling;
use crate::error::{Result, TensorError};

/// The smallest product (m * k * n multiply-adds per call) worked by gemm; see the module's
/// measurement.
pub const GEMM_MIN_WORK: usize = 2048;

/// One loop around the gemm call: its extent and its stride in `a`, `b` and the result.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Loop {
    size: usize,
    strides: [usize; 3],
}

/// A planned batched matrix product: `C[m, n] = sum_k A[m, k] B[k, n]` per loop position.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Gemm {
    m: usize,
    k: usize,
    n: usize,
    /// Row and column strides of `a` (m by k), `b` (k by n) and the result (m by n).
    a: [usize; 2],
    b: [usize; 2],
    c: [usize; 2],
    /// Loops over result positions (batches and unfused result indices).
    outer: Vec<Loop>,
    /// Loops over unfused summed indices (the result strides are 0).
    summed: Vec<Loop>,
    /// One past the last value read of `a` and of `b` from a row's start, and the result's
    /// length.
    pub(super) extents: [usize; 3],
    /// Whether float rows go to `matrixmultiply` (else the tight loop, [`Gemm::run_loop`]).
    blas: bool,
}

/// One index of the product: its extent and its stride in `a`, `b` and the row-major result.
#[derive(Debug, Clone, Copy)]
struct Index {
    size: usize,
    strides: [usize; 3],
}

/// The longest run of `indices` (ordered outermost first by `by`) ending at the innermost
/// that is contiguous in the strides `sides`: its extent and innermost strides, and the rest.
fn fuse(mut indices: Vec<Index>, by: usize, sides: [usize; 2]) -> (Option<Index>, Vec<Index>) {
    indices.sort_by_key(|i| std::cmp::Reverse(i.strides[by]));
    let Some(mut fused) = indices.pop() else {
        return (None, indices);
    };
    while let Some(&next) = indices.last() {
        let contiguous = sides
            .iter()
            .all(|&s| next.strides[s] == fused.strides[s] * fused.size);
        if !contiguous {
            break;
        }
        fused.size *= next.size;
        indices.pop();
    }
    (Some(fused), indices)
}

fn loops(indices: Vec<Index>) -> Vec<Loop> {
    indices
        .into_iter()
        .map(|i| Loop {
            size: i.size,
            strides: i.strides,
        })
        .collect()
}

impl Gemm {
    /// The matrix product of a two-operand `labelling` over operands of these logical layouts;
    /// `None` when it is not one. Float rows go to `matrixmultiply` from [`GEMM_MIN_WORK`]
    /// multiply-adds per call.
    pub fn plan(labelling: &Labelling, layouts: &[(&[usize], &[usize])]) -> Option<Self> {
        let ([a_axes, b_axes], [a_layout, b_layout]) = (&labelling.operands[..], layouts) else {
            return None;
        };
        let labels = labelling.sizes.len();
        if labelling.sizes.contains(&0) {
            return None;
        }
        // Per label: its stride in a and b (0: not read), and how often each reads it.
        let mut strides = vec![[0usize; 3]; labels];
        for (operand, (axes, (shape, steps))) in [(a_axes, a_layout), (b_axes, b_layout)]
            .into_iter()
            .enumerate()
        {
            let mut seen = vec![false; labels];
            for ((axis, &dim), &step) in axes.iter().zip(shape.iter()).zip(steps.iter()) {
                let size = *labelling.sizes.get(axis.label)?;
                if axis.start != 0 || std::mem::replace(&mut seen[axis.label], true) {
                    return None; // a diagonal
                }
                if dim == size && size > 1 {
                    strides[axis.label][operand] = step;
                }
            }
        }
        let mut c_stride = 1usize;
        for &l in labelling.output.iter().rev() {
            strides[l][2] = c_stride;
            c_stride = c_stride.checked_mul(labelling.sizes[l])?;
        }
        let (mut rows, mut cols, mut sums, mut batches) = (vec![], vec![], vec![], vec![]);
        for (l, &size) in labelling.sizes.iter().enumerate() {
            let index = Index {
                size,
                strides: strides[l],
            };
            let kept = labelling.output.contains(&l);
            match (size > 1, kept, strides[l][0] > 0, strides[l][1] > 0) {
                (false, ..) => {}
                (true, true, true, false) => rows.push(index),
                (true, true, false, true) => cols.push(index),
                (true, true, ..) => batches.push(index),
                (true, false, true, true) => sums.push(index),
                (true, false, ..) => return None, // a sum of one operand
            }
        }
        let (k, sums) = fuse(sums, 0, [0, 1]);
        let k = k?; // a product without a sum stays in the loop (numpy keeps its -0.0)
        let (m, rows) = fuse(rows, 2, [0, 2]);
        let (n, cols) = fuse(cols, 2, [1, 2]);
        let unit = Index {
            size: 1,
            strides: [1; 3],
        };
        let (m, n) = (m.unwrap_or(unit), n.unwrap_or(unit));
        let work = m.size.checked_mul(k.size)?.checked_mul(n.size)?;
        batches.extend(rows);
        batches.extend(cols);
        let extent = |side: usize| {
            let all = [m, k, n].into_iter().chain(batches.iter().copied());
            all.chain(sums.iter().copied())
                .map(|i| (i.size - 1) * i.strides[side])
                .sum::<usize>()
                + 1
        };
        Some(Self {
            m: m.size,
            k: k.size,
            n: n.size,
            a: [m.strides[0], k.strides[0]],
            b: [k.strides[1], n.strides[1]],
            c: [m.strides[2], n.strides[2]],
            extents: [extent(0), extent(1), c_stride],
            outer: loops(batches),
            summed: loops(sums),
            blas: work >= GEMM_MIN_WORK,
        })
    }

    /// This product with float rows sent to `matrixmultiply` (`true`) or to the tight loop,
    /// whatever its size (to measure one against the other).
    #[must_use]
    pub fn with_blas(mut self, blas: bool) -> Self {
        self.blas = blas;
        self
    }

    /// Whether float rows go to `matrixmultiply`.
    pub fn blas(&self) -> bool {
        self.blas
    }

    /// Whether the tight loop can work this product: every summed index fused into one
    /// (else the contraction's loop keeps its order of summation).
    pub fn has_loop(&self) -> bool {
        self.summed.is_empty()
    }

    /// Appends one row's result, row-major, to `out` by a plain triple loop in `T`'s own
    /// arithmetic (the contraction's: integers wrap, float16 sums in float32), the sum in index
    /// order; tiny products (below [`GEMM_MIN_WORK`]) are faster this way than by a call.
    ///
    /// # Errors
    /// An internal error when an operand's values end before the row does, or when summed
    /// indices did not fuse ([`Gemm::has_loop`]).
    pub fn run_loop<T: Element>(
        &self,
        a: &[T],
        b: &[T],
        bases: [usize; 2],
        out: &mut Vec<T>,
    ) -> Result<()> {
        if !self.has_loop() {
            return Err(TensorError::Internal(
                "a matrix product of unfused sums in the tight loop".to_string(),
            ));
        }
        let c = self.result(a.len(), b.len(), bases, out)?;
        let mut result = Ok(());
        each(&self.outer, [bases[0], bases[1], 0], &mut |[pa, pb, pc]| {
            if result.is_ok() {
                result = self.block(a, b, [pa, pb, pc], c);
            }
        });
        result
    }

    /// [`Gemm::run_loop`] over `rows` rows at once: row `r`'s operands start at
    /// `bases[k] + r * steps[k]` (a step of 0: one operand serving every row). The bounds are
    /// checked once for the batch and the result grown once: a 4x4 product is 64
    /// multiply-adds, which the checks and calls of one row at a time outweighed (measured
    /// in docs/src/benchmarks/aggregates-linalg.md).
    ///
    /// # Errors
    /// An internal error when an operand's values end before the last row does, or when
    /// summed indices did not fuse ([`Gemm::has_loop`]).
    pub fn run_loop_rows<T: Element>(
        &self,
        [a, b]: [&[T]; 2],
        bases: [usize; 2],
        steps: [usize; 2],
        rows: usize,
        out: &mut Vec<T>,
    ) -> Result<()> {
        if !self.has_loop() {
            return Err(TensorError::Internal(
                "a matrix product of unfused sums in the tight loop".to_string(),
            ));
        }
        let Some(last) = rows.checked_sub(1) else {
            return Ok(());
        };
        let overflow = || TensorError::Internal("a matrix product's rows overflow".to_string());
        let [Some(last_a), Some(last_b)] =
            [0, 1].map(|k| last.checked_mul(steps[k])?.checked_add(bases[k]))
        else {
            return Err(overflow());
        };
        // Every row's operands end before the last row's do.
        self.check_operands([a.len(), b.len()], [last_a, last_b])?;
        if self.narrow_batch([a, b], bases, steps, rows, out)? {
            return Ok(());
        }
        let len = self.extents[2];
        let total = rows.checked_mul(len).ok_or_else(overflow)?;
        let start = out.len();
        out.resize(start + total, T::default());
        let c = &mut out[start..];
        for (r, row) in c.chunks_exact_mut(len.max(1)).take(rows).enumerate() {
            let (pa, pb) = (bases[0] + r * steps[0], bases[1] + r * steps[1]);
            let mut result = Ok(());
            each(&self.outer, [pa, pb, 0], &mut |pos| {
                if result.is_ok() {
                    result = self.block(a, b, pos, row);
                }
            });
            result?;
        }
        Ok(())
    }

    /// [`Gemm::run_loop_rows`] for one matrix per row with 2 to 4 contiguous columns and a
    /// row-major result (the operands already checked to hold every row): each product's rows
    /// appended to `out` straight from the registers ([`NarrowBatch`]), no zeroed result
    /// first and no call per matrix through the loops. `false`, with nothing appended, for
    /// any other product.
    fn narrow_batch<T: Element>(
        &self,
        [a, b]: [&[T]; 2],
        bases: [usize; 2],
        steps: [usize; 2],
        rows: usize,
        out: &mut Vec<T>,
    ) -> Result<bool> {
        let ([rsa, csa], [rsb, csb]) = (self.a, self.b);
        let (rows_a, depth, cols) = (self.m, self.k, self.n);
        let row_major = self.c == [cols, 1] && self.extents[2] == rows_a * cols;
        if !self.outer.is_empty() || !row_major || csa != 1 || csb != 1 {
            return Ok(false);
        }
        let batch = NarrowBatch {
            bases,
            steps,
            rows,
            extents: [self.extents[0], self.extents[1]],
            shape: [rows_a, depth],
            strides: [rsa, rsb],
        };
        let start = out.len();
        let done = match cols {
            2 => batch.push::<T, 2>([a, b], out),
            3 => batch.push::<T, 3>([a, b], out),
            4 => batch.push::<T, 4>([a, b], out),
            _ => return Ok(false),
        };
        if done.is_none() {
            out.truncate(start);
            return Err(TensorError::Internal(
                "a matrix product read past its operand".to_string(),
            ));
        }
        Ok(true)
    }

    /// One result matrix of [`Gemm::run_loop`]: per result row, a chunk of columns summed
    /// side by side (each element's sum still in index order), `k` outermost.
    fn block<T: Element>(
        &self,
        a: &[T],
        b: &[T],
        [pa, pb, pc]: [usize; 3],
        c: &mut [T],
    ) -> Result<()> {
        const CHUNK: usize = 16;
        let ([rsa, csa], [rsb, csb], [rsc, csc]) = (self.a, self.b, self.c);
        let past = || TensorError::Internal("a matrix product read past its operand".to_string());
        let (rows, cols, depth) = (self.m, self.n, self.k);
        if csa == 1 && csb == 1 && csc == 1 && (1..=CHUNK).contains(&cols) && rows > 0 && depth > 0
        {
            // Rows of every matrix contiguous (the common row-major operands): the bounds
            // checked once per matrix, then the same sums in the same order without a check
            // per element (a 4x4 product: measured in docs/src/benchmarks/aggregates-linalg.md).
            let a = a.get(pa..pa + (rows - 1) * rsa + depth).ok_or_else(past)?;
            let b = b.get(pb..pb + (depth - 1) * rsb + cols).ok_or_else(past)?;
            let c = c
                .get_mut(pc..pc + (rows - 1) * rsc + cols)
                .ok_or_else(past)?;
            let strides = [rsa, rsb, rsc];
            let done = match cols {
                2 => narrow_block::<T, 2>(a, b, c, rows, depth, strides),
                3 => narrow_block::<T, 3>(a, b, c, rows, depth, strides),
                4 => narrow_block::<T, 4>(a, b, c, rows, depth, strides),
                _ => None,
            };
            if done.is_some() {
                return Ok(());
            }
            for i in 0..rows {
                let mut acc = [T::zero(); CHUNK];
                let acc = &mut acc[..cols];
                for (kk, x) in a[i * rsa..i * rsa + depth].iter().enumerate() {
                    let x = x.widen();
                    for (slot, y) in acc.iter_mut().zip(&b[kk * rsb..kk * rsb + cols]) {
                        *slot = T::add(*slot, T::mul(x, y.widen()));
                    }
                }
                for (slot, value) in c[i * rsc..i * rsc + cols].iter_mut().zip(acc.iter()) {
                    *slot = T::narrow(*value);
                }
            }
            return Ok(());
        }
        for i in 0..self.m {
            for j0 in (0..self.n).step_by(CHUNK) {
                let width = CHUNK.min(self.n - j0);
                let mut acc = [T::zero(); CHUNK];
                for kk in 0..self.k {
                    let x = a.get(pa + i * rsa + kk * csa).ok_or_else(past)?.widen();
                    let from = pb + kk * rsb + j0 * csb;
                    let row = b.get(from..=from + (width - 1) * csb).ok_or_else(past)?;
                    for (slot, y) in acc[..width].iter_mut().zip(row.iter().step_by(csb.max(1))) {
                        *slot = T::add(*slot, T::mul(x, y.widen()));
                    }
                }
                for (jj, value) in acc[..width].iter().enumerate() {
                    let slot = c.get_mut(pc + i * rsc + (j0 + jj) * csc).ok_or_else(past)?;
                    *slot = T::narrow(*value);
                }
            }
        }
        Ok(())
    }

    /// Checks that operands of `lens` values hold a row whose operands start at `bases`.
    fn check_operands(&self, lens: [usize; 2], bases: [usize; 2]) -> Result<()> {
        for (k, values) in lens.into_iter().enumerate() {
            if bases[k]
                .checked_add(self.extents[k])
                .is_none_or(|end| end > values)
            {
                return Err(TensorError::Internal(format!(
                    "matrix product operand {k} holds {values} values, {} needed",
                    bases[k].saturating_add(self.extents[k])
                )));
            }
        }
        Ok(())
    }

    /// The row's result values, appended to `out` (zeros), once the operands are checked to
    /// hold the row.
    fn result<'a, T: Copy + Default>(
        &self,
        a: usize,
        b: usize,
        bases: [usize; 2],
        out: &'a mut Vec<T>,
    ) -> Result<&'a mut [T]> {
        self.check_operands([a, b], bases)?;
        let start = out.len();
        out.resize(start + self.extents[2], T::default());
        Ok(&mut out[start..])
    }

    /// Appends one row's result, row-major, to `out`: `a` and `b` of the row start at
    /// `bases`.
    ///
    /// # Errors
    /// An internal error when an operand's values end before the row does.
    pub fn run<F: Float>(
        &self,
        a: &[F],
        b: &[F],
        bases: [usize; 2],
        out: &mut Vec<F>,
    ) -> Result<()> {
        let c = self.result(a.len(), b.len(), bases, out)?;
        each(&self.outer, [bases[0], bases[1], 0], &mut |pos| {
            let mut beta = F::default();
            each(&self.summed, pos, &mut |pos| {
                // SAFETY: `plan` made every stride and size from the layouts, and `run`
                // checked that the last position read (`extents`: the sum of (size - 1) *
                // stride over every index, from the row's start) lies within `a` and `b`, and
                // that the result holds `extents[2]` values, the row-major size of the result
                // indices; `pos` moves only by those indices. The result positions are
                // distinct (row-major strides).
                unsafe {
                    F::gemm(
                        [self.m, self.k, self.n],
                        a.as_ptr().add(pos[0]),
                        self.a,
                        b.as_ptr().add(pos[1]),
                        self.b,
                        beta,
                        c.as_mut_ptr().add(pos[2]),
                        self.c,
                    );
                }
                beta = F::one();
            });
        });
        Ok(())
    }
}

/// One result matrix of `N` columns (rows contiguous), each result row handed to `emit` with
/// its index: the same sums in the same order as [`Gemm::block`]'s loop, with the columns a
/// fixed-size array that the compiler keeps in vector registers. Measured on 1,000,000
/// float32 4x4 products (`benches/compare/linalg.py --only matmul4`): see
/// docs/src/benchmarks/aggregates-linalg.md. `None` when an operand is shorter than the strides say (never, once
/// the caller has checked them).
#[inline(always)]
fn narrow_rows<T: Element, const N: usize>(
    a: &[T],
    b: &[T],
    rows: usize,
    depth: usize,
    [rsa, rsb]: [usize; 2],
    mut emit: impl FnMut(usize, [T; N]) -> Option<()>,
) -> Option<()> {
    // Positions advance by wrapping adds: each is checked by `get` before it is read, and
    // the dev profile's overflow checks would otherwise sit in the innermost loop.
    let mut a_start = 0usize;
    for i in 0..rows {
        let mut acc = [T::zero(); N];
        let a_row = a.get(a_start..)?.get(..depth)?;
        a_start = a_start.wrapping_add(rsa);
        let mut b_start = 0usize;
        for x in a_row {
            let b_row = b.get(b_start..)?.first_chunk::<N>()?;
            b_start = b_start.wrapping_add(rsb);
            let x = x.widen();
            for (slot, y) in acc.iter_mut().zip(b_row.iter()) {
                *slot = T::add(*slot, T::mul(x, y.widen()));
            }
        }
        emit(i, acc.map(T::narrow))?;
    }
    Some(())
}

/// The rows of [`Gemm::narrow_batch`]: row `r`'s operands at `bases[k] + r * steps[k]`,
/// `extents[k]` values long ([`Gemm`]'s own); each an `m` by `k` matrix times a `k` by `N`
/// one.
struct NarrowBatch {
    bases: [usize; 2],
    steps: [usize; 2],
    rows: usize,
    extents: [usize; 2],
    shape: [usize; 2],
    strides: [usize; 2],
}

impl NarrowBatch {
    /// Every row's product appended to `out`; `None` where an operand ends early (never,
    /// once [`Gemm::run_loop_rows`] has checked the last row).
    fn push<T: Element, const N: usize>(&self, [a, b]: [&[T]; 2], out: &mut Vec<T>) -> Option<()> {
        let [m, k] = self.shape;
        out.reserve(self.rows.checked_mul(m * N)?);
        let [mut pa, mut pb] = self.bases;
        for _ in 0..self.rows {
            let a = a.get(pa..)?.get(..self.extents[0])?;
            let b = b.get(pb..)?.get(..self.extents[1])?;
            pa = pa.wrapping_add(self.steps[0]);
            pb = pb.wrapping_add(self.steps[1]);
            narrow_rows::<T, N>(a, b, m, k, self.strides, |_, row| {
                out.extend_from_slice(&row);
                Some(())
            })?;
        }
        Some(())
    }
}

/// [`narrow_rows`] written into `c` (result rows `rsc` apart).
fn narrow_block<T: Element, const N: usize>(
    a: &[T],
    b: &[T],
    c: &mut [T],
    rows: usize,
    depth: usize,
    [rsa, rsb, rsc]: [usize; 3],
) -> Option<()> {
    narrow_rows::<T, N>(a, b, rows, depth, [rsa, rsb], |i, row| {
        *c.get_mut(i * rsc..)?.first_chunk_mut::<N>()? = row;
        Some(())
    })
}

/// Calls `f` at every position of `loops` from `pos`, in order.
fn each(loops: &[Loop], pos: [usize; 3], f: &mut impl FnMut([usize; 3])) {
    let Some((first, rest)) = loops.split_first() else {
        f(pos);
        return;
    };
    let mut pos = pos;
    for _ in 0..first.size {
        each(rest, pos, f);
        for (p, s) in pos.iter_mut().zip(first.strides) {
            *p += s;
        }
    }
}

/// The element types gemm works in.
pub trait Float: Copy + Default {
    /// One.
    fn one() -> Self;
    /// `C = A B + beta C` (`C` not read when `beta` is 0), matrices at strides `[row, col]`.
    ///
    /// # Safety
    /// Every position read or written lies within its allocation.
    #[allow(clippy::too_many_arguments)]
    unsafe fn gemm(
        mkn: [usize; 3],
        a: *const Self,
        a_strides: [usize; 2],
        b: *const Self,
        b_strides: [usize; 2],
        beta: Self,
        c: *mut Self,
        c_strides: [usize; 2],
    );
}

macro_rules! float {
    ($t:ty, $gemm:ident) => {
        impl Float for $t {
            fn one() -> $t {
                1.0
            }
            unsafe fn gemm(
                [m, k, n]: [usize; 3],
                a: *const $t,
                [rsa, csa]: [usize; 2],
                b: *const $t,
                [rsb, csb]: [usize; 2],
                beta: $t,
                c: *mut $t,
                [rsc, csc]: [usize; 2],
            ) {
                // SAFETY: the caller's. Strides of values within one allocation fit isize.
                unsafe {
                    matrixmultiply::$gemm(
                        m,
                        k,
                        n,
                        1.0,
                        a,
                        rsa as isize,
                        csa as isize,
                        b,
                        rsb as isize,
                        csb as isize,
                        beta,
                        c,
                        rsc as isize,
                        csc as isize,
                    );
                }
            }
        }
    };
}

float!(f32, sgemm);
float!(f64, dgemm);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::linalg::contraction::{Contraction, Scratch};
    use crate::kernels::linalg::gemm_row::HalfScratch;
    use crate::kernels::linalg::products::{TensordotAxes, dot, matmul, tensordot};
    use half::f16;

    fn values(len: usize, seed: u64) -> Vec<f64> {
        (0..len as u64)
            .map(|i| ((i * 2_654_435_761 + seed * 97) % 1000) as f64 / 37.0 - 13.0)
            .collect()
    }

    /// The loop's and gemm's results of one labelling, both planned for these layouts.
    fn both(labelling: &Labelling, layouts: &[(&[usize], &[usize])], a: &[f64], b: &[f64]) {
        let gemm = Gemm::plan(labelling, layouts).expect("a matrix product");
        let generic = Contraction::new(labelling, layouts)
            .unwrap()
            .without_product();
        let (mut expected, mut got) = (Vec::new(), Vec::new());
        generic
            .run(&[a, b], &[0, 0], &mut expected, &mut Scratch::default())
            .unwrap();
        gemm.run(a, b, [0, 0], &mut got).unwrap();
        let mut tight = Vec::new();
        if gemm.has_loop() {
            gemm.run_loop(a, b, [0, 0], &mut tight).unwrap();
            assert_eq!(tight, expected);
        }
        assert_eq!(expected.len(), got.len());
        for (e, g) in expected.iter().zip(&got) {
            assert!((e - g).abs() <= 1e-9 * e.abs().max(1.0), "{e} != {g}");
        }
    }

    #[test]
    fn batched_and_permuted_products_match_the_loop() {
        // (3, 5, 4) @ (4, 6) with b read transposed (stored (6, 4)).
        let (a, b) = (values(60, 1), values(24, 2));
        both(
            &matmul(&[3, 5, 4], &[4, 6]).unwrap(),
            &[(&[3, 5, 4], &[20, 4, 1]), (&[4, 6], &[1, 4])],
            &a,
            &b,
        );
        // dot (2, 3, 4) x (5, 4, 6): a's rows fuse, b's columns do not (a loop).
        let (a, b) = (values(24, 3), values(120, 4));
        both(
            &dot(&[2, 3, 4], &[5, 4, 6]).unwrap(),
            &[(&[2, 3, 4], &[12, 4, 1]), (&[5, 4, 6], &[24, 6, 1])],
            &a,
            &b,
        );
        // tensordot over two axes in b's other order: sums that do not fuse add up.
        let (a, b) = (values(24, 5), values(60, 6));
        both(
            &tensordot(
                &[2, 3, 4],
                &[4, 3, 5],
                &TensordotAxes::Pairs(vec![1, 2], vec![1, 0]),
            )
            .unwrap(),
            &[(&[2, 3, 4], &[12, 4, 1]), (&[4, 3, 5], &[15, 5, 1])],
            &a,
            &b,
        );
        // batch dims broadcast: (2, 1, 3, 4) @ (5, 4, 2).
        let (a, b) = (values(24, 7), values(40, 8));
        both(
            &matmul(&[2, 1, 3, 4], &[5, 4, 2]).unwrap(),
            &[(&[2, 1, 3, 4], &[12, 12, 4, 1]), (&[5, 4, 2], &[8, 2, 1])],
            &a,
            &b,
        );
    }

    #[test]
    #[allow(clippy::float_cmp)] // the same sums in the same order
    fn rows_at_once_match_one_row_at_a_time() {
        // (m, k) @ (k, n) for the narrow widths and others, plain and batched (an outer
        // loop), `b` a column (step = its size) or one value for every row (step 0).
        let cases: [(&[usize], &[usize]); 6] = [
            (&[4, 4], &[4, 4]),
            (&[2, 3], &[3, 4]),
            (&[3, 5], &[5, 2]),
            (&[1, 7], &[7, 3]),
            (&[3, 2], &[2, 5]),
            (&[2, 3, 4], &[4, 3]),
        ];
        for (sa, sb) in cases {
            let strides = |shape: &[usize]| -> Vec<usize> {
                let mut out = vec![1; shape.len()];
                for d in (0..shape.len().saturating_sub(1)).rev() {
                    out[d] = out[d + 1] * shape[d + 1];
                }
                out
            };
            let (ta, tb) = (strides(sa), strides(sb));
            let layouts: [(&[usize], &[usize]); 2] = [(sa, &ta), (sb, &tb)];
            let gemm = Gemm::plan(&matmul(sa, sb).unwrap(), &layouts).unwrap();
            let (size_a, size_b): (usize, usize) = (sa.iter().product(), sb.iter().product());
            let rows = 5;
            let a = values(size_a * rows, 11);
            for step_b in [size_b, 0] {
                let b = values(size_b * rows, 12);
                let mut expected = Vec::new();
                for r in 0..rows {
                    gemm.run_loop(&a, &b, [r * size_a, r * step_b], &mut expected)
                        .unwrap();
                }
                let mut got = vec![7.0];
                gemm.run_loop_rows([&a, &b], [0, 0], [size_a, step_b], rows, &mut got)
                    .unwrap();
                assert_eq!(got[0], 7.0, "appended after what `out` held");
                assert_eq!(got[1..], expected[..], "{sa:?} @ {sb:?}, step {step_b}");
            }
            // An operand shorter than the last row: an error, not a read past it.
            let short = values(size_a * rows - 1, 13);
            let b = values(size_b, 14);
            let mut out = Vec::new();
            assert!(
                gemm.run_loop_rows([&short, &b], [0, 0], [size_a, 0], rows, &mut out)
                    .is_err()
            );
        }
    }

    #[test]
    fn not_a_product_or_too_small() {
        let layouts: [(&[usize], &[usize]); 2] = [(&[4, 4], &[4, 1]), (&[4, 4], &[4, 1])];
        let labelling = matmul(&[4, 4], &[4, 4]).unwrap();
        assert!(!Gemm::plan(&labelling, &layouts).unwrap().blas());
        let big = matmul(&[16, 16], &[16, 16]).unwrap();
        let big_layouts: [(&[usize], &[usize]); 2] = [(&[16, 16], &[16, 1]), (&[16, 16], &[16, 1])];
        assert!(Gemm::plan(&big, &big_layouts).unwrap().blas());
        // outer: no sum; a trace-like repeated index.
        let outer = dot(&[4, 4], &[]).unwrap();
        assert!(Gemm::plan(&outer, &[layouts[0], (&[], &[])]).is_none());
        let mut diagonal = labelling.clone();
        diagonal.operands[0][0] = diagonal.operands[0][1];
        assert!(Gemm::plan(&diagonal, &layouts).is_none());
    }

    #[test]
    fn half_rounds_once() {
        // 4096 ones: a float16 accumulator would stop at 2048.
        let ones = vec![f16::ONE; 4096];
        let labelling = matmul(&[1, 4096], &[4096, 1]).unwrap();
        let layouts: [(&[usize], &[usize]); 2] = [(&[1, 4096], &[4096, 1]), (&[4096, 1], &[1, 1])];
        let gemm = Gemm::plan(&labelling, &layouts).unwrap();
        let mut out = Vec::new();
        gemm.run_half(&ones, &ones, [0, 0], &mut out, &mut HalfScratch::default())
            .unwrap();
        assert_eq!(out, vec![f16::from_f32(4096.0)]);
        assert!(
            gemm.run_half(
                &ones[1..],
                &ones,
                [0, 0],
                &mut out,
                &mut HalfScratch::default()
            )
            .is_err()
        );
    }
}
