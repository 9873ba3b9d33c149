//! The folds of each reduction and the loop that runs one over a batch's rows.

use std::marker::PhantomData;

use super::layout::ReduceLayout;
use super::numeric::{Accum, Ordered, Real, Widen, WrapInto, Wrapping, pairwise_sum};
use crate::error::{Result, TensorError};

/// How one output element folds its input: a whole block at once (the last axes reduced) or
/// one element at a time (the last axes kept).
pub trait Fold<T: Copy>: Copy {
    /// What an output element holds while it is folded.
    type Acc: Copy;
    /// The value before any element.
    fn init(&self) -> Self::Acc;
    /// Folds a contiguous block whose first element is at reduced position `position`.
    fn block(&self, acc: Self::Acc, block: &[T], position: usize) -> Self::Acc;
    /// Folds one element at reduced position `position`.
    fn step(&self, acc: Self::Acc, value: T, position: usize) -> Self::Acc;
    /// The first element of a cumulative fold, as numpy's `accumulate` copies it (cast).
    fn first(&self, value: T) -> Self::Acc {
        self.step(self.init(), value, 0)
    }
}

/// The rows of a batch and the reduction each one takes.
#[derive(Debug, Clone, Copy)]
pub enum Rows<'a> {
    /// `rows` rows of one shape, one after another in the values.
    Same {
        /// Number of rows.
        rows: usize,
        /// Their reduction.
        layout: &'a ReduceLayout,
    },
    /// Rows of their own shapes: each row's index into `layouts`, `None` for a NULL row
    /// (which holds no values and gets `null_width` output elements).
    Each {
        /// Each row's layout.
        rows: &'a [Option<usize>],
        /// The layouts.
        layouts: &'a [ReduceLayout],
        /// Output elements of a NULL row.
        null_width: usize,
    },
}

impl Rows<'_> {
    /// Calls `f(row, layout, input start, output start)` for every non-NULL row; returns the
    /// input and output lengths of the batch.
    pub fn visit(
        &self,
        mut f: impl FnMut(usize, &ReduceLayout, usize, usize) -> Result<()>,
    ) -> Result<(usize, usize)> {
        match *self {
            Rows::Same { rows, layout } => {
                for row in 0..rows {
                    f(row, layout, row * layout.in_size, row * layout.out_size)?;
                }
                Ok((rows * layout.in_size, rows * layout.out_size))
            }
            Rows::Each {
                rows,
                layouts,
                null_width,
            } => {
                let (mut input, mut output) = (0, 0);
                for (row, layout) in rows.iter().enumerate() {
                    match layout {
                        Some(i) => {
                            let layout = &layouts[*i];
                            f(row, layout, input, output)?;
                            input += layout.in_size;
                            output += layout.out_size;
                        }
                        None => output += null_width,
                    }
                }
                Ok((input, output))
            }
        }
    }

    /// Input and output lengths of the batch.
    pub fn lengths(&self) -> (usize, usize) {
        self.visit(|_, _, _, _| Ok(())).unwrap_or((0, 0))
    }
}

/// Runs `fold` over every row of `values`: one output element per reduced group, in order.
pub fn fold_rows<T: Copy, F: Fold<T>>(
    fold: F,
    values: &[T],
    rows: Rows<'_>,
) -> Result<Vec<F::Acc>> {
    fold_rows_with(fold, values, rows, None, None)
}

/// [`fold_rows`] with every output element starting from `initial` (numpy's `initial`; the
/// fold's own start without it) and, with `mask` (one flag per value), only the values whose
/// flag is set folded (numpy's `where`).
pub fn fold_rows_with<T: Copy, F: Fold<T>>(
    fold: F,
    values: &[T],
    rows: Rows<'_>,
    initial: Option<F::Acc>,
    mask: Option<&[bool]>,
) -> Result<Vec<F::Acc>> {
    let (input, output) = rows.lengths();
    if values.len() < input || mask.is_some_and(|m| m.len() < input) {
        return Err(TensorError::Internal(format!(
            "a reduction expected {input} values and flags, got {}",
            values.len()
        )));
    }
    let mut out = vec![initial.unwrap_or_else(|| fold.init()); output];
    rows.visit(|_, layout, start, out_start| {
        let x = &values[start..start + layout.in_size];
        let out = &mut out[out_start..out_start + layout.out_size];
        match mask {
            None => fold_row(fold, layout, x, out),
            Some(mask) => fold_row_masked(fold, layout, x, &mask[start..start + layout.in_size], out),
        }
        Ok(())
    })?;
    Ok(out)
}

/// [`fold_row`] of the values whose `mask` flag is set: as numpy's masked loops run, a block
/// is folded one run of set flags at a time (each run pairwise for a float sum).
pub fn fold_row_masked<T: Copy, F: Fold<T>>(
    fold: F,
    layout: &ReduceLayout,
    x: &[T],
    mask: &[bool],
    out: &mut [F::Acc],
) {
    let n = layout.inner;
    for b in &layout.blocks {
        let (x, mask) = (&x[b.input..b.input + n], &mask[b.input..b.input + n]);
        if layout.inner_reduced {
            let mut i = 0;
            while i < n {
                while i < n && !mask[i] {
                    i += 1;
                }
                let run = i;
                while i < n && mask[i] {
                    i += 1;
                }
                if i > run {
                    out[b.output] = fold.block(out[b.output], &x[run..i], b.position + run);
                }
            }
        } else {
            let dst = &mut out[b.output..b.output + n];
            for ((acc, &v), &m) in dst.iter_mut().zip(x).zip(mask) {
                if m {
                    *acc = fold.step(*acc, v, b.position);
                }
            }
        }
    }
}

/// Folds one row (`x` its row-major input) into `out` (already initialised).
pub fn fold_row<T: Copy, F: Fold<T>>(fold: F, layout: &ReduceLayout, x: &[T], out: &mut [F::Acc]) {
    let n = layout.inner;
    if layout.inner_reduced {
        for b in &layout.blocks {
            out[b.output] = fold.block(out[b.output], &x[b.input..b.input + n], b.position);
        }
    } else {
        for b in &layout.blocks {
            let dst = &mut out[b.output..b.output + n];
            for (acc, &v) in dst.iter_mut().zip(&x[b.input..b.input + n]) {
                *acc = fold.step(*acc, v, b.position);
            }
        }
    }
}

/// numpy's `add` reduction of floats into `S` (float16 inputs of `mean` sum into float32):
/// a block is summed pairwise in `S`'s loop type and added to the output, rounded once; a
/// step adds one element and rounds.
#[derive(Debug, Clone, Copy, Default)]
pub struct FloatSum<S>(PhantomData<S>);

impl<T: Widen<S::Acc>, S: Real> Fold<T> for FloatSum<S> {
    type Acc = S;
    fn init(&self) -> S {
        S::narrow(<S::Acc as Accum>::ZERO)
    }
    fn block(&self, acc: S, block: &[T], _: usize) -> S {
        S::narrow(acc.widen() + pairwise_sum::<T, S::Acc>(block))
    }
    fn step(&self, acc: S, value: T, _: usize) -> S {
        S::narrow(acc.widen() + value.widen_to())
    }
    fn first(&self, value: T) -> S {
        // Copied, not added to 0: `np.cumsum([-0.0])` is `-0.0`.
        S::narrow(value.widen_to())
    }
}

/// numpy's `multiply` reduction of floats: in order, in the loop type, rounded to `S` once per
/// block (float16's `HALF_multiply`) or per step.
#[derive(Debug, Clone, Copy, Default)]
pub struct FloatProd<S>(PhantomData<S>);

impl<T: Widen<S::Acc>, S: Real> Fold<T> for FloatProd<S> {
    type Acc = S;
    fn init(&self) -> S {
        S::narrow(<S::Acc as Accum>::ONE)
    }
    fn block(&self, acc: S, block: &[T], _: usize) -> S {
        let mut a = acc.widen();
        for &v in block {
            a = a * v.widen_to();
        }
        S::narrow(a)
    }
    fn step(&self, acc: S, value: T, _: usize) -> S {
        S::narrow(acc.widen() * value.widen_to())
    }
}

/// Integer `add` / `multiply` in `A` (int64 or uint64), wrapping as numpy does.
#[derive(Debug)]
pub struct IntFold<A> {
    product: bool,
    _acc: PhantomData<A>,
}

impl<A> Clone for IntFold<A> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<A> Copy for IntFold<A> {}

impl<A> IntFold<A> {
    /// A sum, or with `product` a product.
    pub fn new(product: bool) -> Self {
        Self {
            product,
            _acc: PhantomData,
        }
    }
}

impl<T: WrapInto<A>, A: Wrapping> Fold<T> for IntFold<A> {
    type Acc = A;
    fn init(&self) -> A {
        if self.product { A::ONE } else { A::default() }
    }
    fn block(&self, acc: A, block: &[T], _: usize) -> A {
        let mut a = acc;
        if self.product {
            for &v in block {
                a = a.mul(v.wrap_into());
            }
        } else {
            for &v in block {
                a = a.add(v.wrap_into());
            }
        }
        a
    }
    fn step(&self, acc: A, value: T, _: usize) -> A {
        if self.product {
            acc.mul(value.wrap_into())
        } else {
            acc.add(value.wrap_into())
        }
    }
}

/// numpy's `minimum` / `maximum` reductions: NaN wins; among equal values the later one
/// (numpy's `in1 >= in2 ? in1 : in2` loop keeps the new one, which shows as the sign of a
/// zero: `np.max([0.0, -0.0])` is `-0.0`).
#[derive(Debug, Clone, Copy)]
pub struct Extreme {
    /// `maximum` (else `minimum`).
    pub max: bool,
}

impl<T: Ordered> Fold<T> for Extreme {
    type Acc = T;
    fn init(&self) -> T {
        if self.max { T::LEAST } else { T::GREATEST }
    }
    fn block(&self, acc: T, block: &[T], position: usize) -> T {
        block
            .iter()
            .fold(acc, |acc, &v| self.step(acc, v, position))
    }
    #[inline(always)]
    fn step(&self, acc: T, value: T, _: usize) -> T {
        if acc.nan() {
            acc
        } else if value.nan() || (self.max && value >= acc) || (!self.max && value <= acc) {
            value
        } else {
            acc
        }
    }
}

/// numpy's `argmin` / `argmax`: the first extreme's position, or the first NaN's.
#[derive(Debug, Clone, Copy)]
pub struct ArgExtreme {
    /// `argmax` (else `argmin`).
    pub max: bool,
}

impl<T: Ordered> Fold<T> for ArgExtreme {
    /// The best value so far and its position (-1: none yet).
    type Acc = (T, i64);
    fn init(&self) -> (T, i64) {
        (T::GREATEST, -1)
    }
    fn block(&self, acc: (T, i64), block: &[T], position: usize) -> (T, i64) {
        let mut acc = acc;
        for (k, &v) in block.iter().enumerate() {
            acc = self.step(acc, v, position + k);
        }
        acc
    }
    #[inline(always)]
    fn step(&self, acc: (T, i64), value: T, position: usize) -> (T, i64) {
        let (best, at) = acc;
        let better = at < 0
            || (!best.nan()
                && (value.nan() || (self.max && value > best) || (!self.max && value < best)));
        if better {
            (value, position as i64)
        } else {
            acc
        }
    }
}

/// numpy's `any` / `all` (`logical_or` / `logical_and` reductions of the truth of each value).
#[derive(Debug, Clone, Copy)]
pub struct Truth {
    /// `all` (else `any`).
    pub all: bool,
}

impl<T: Ordered> Fold<T> for Truth {
    type Acc = bool;
    fn init(&self) -> bool {
        self.all
    }
    fn block(&self, acc: bool, block: &[T], _: usize) -> bool {
        if self.all {
            acc && block.iter().all(|v| v.truthy())
        } else {
            acc || block.iter().any(|v| v.truthy())
        }
    }
    fn step(&self, acc: bool, value: T, _: usize) -> bool {
        if self.all {
            acc && value.truthy()
        } else {
            acc || value.truthy()
        }
    }
}
