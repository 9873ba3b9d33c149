//! numpy's `linalg.norm` per row: the 2-norm of the flattened row (numpy's `sqrt(x.dot(x))`
//! when no axis is given), vector norms along one axis and matrix norms over two, each row read
//! in logical order at its strides. Integers and booleans are worked as float64 (numpy's
//! `x.astype(float)`); float16 is worked in float32 and rounded where numpy's half loops round
//! (each `x*x` or `|x|**p` of a vector norm, each sum, each square root); float32 and float64
//! in their own type. The singular values of the `nuc`, 2 and -2 matrix norms come from
//! `faer`'s SVD in float64 ([`crate::kernels::decompose::svd`]).

use half::f16;

use crate::kernels::decompose::svd::singular_values_of;
use crate::error::{Result, TensorError};

/// A vector norm order (numpy's `ord` with one axis).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum VectorOrd {
    /// `max(|x|)` (0 for an empty vector).
    Inf,
    /// `min(|x|)`.
    NegInf,
    /// The count of non-zero elements.
    Zero,
    /// `sum(|x|)`.
    One,
    /// `sqrt(sum(x*x))`.
    Two,
    /// `sum(|x|**p) ** (1/p)`.
    P(f64),
}

/// A matrix norm order (numpy's `ord` with two axes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MatrixOrd {
    /// Largest column sum of `|x|`.
    One,
    /// Smallest column sum.
    NegOne,
    /// Largest row sum.
    Inf,
    /// Smallest row sum.
    NegInf,
    /// Frobenius.
    Fro,
    /// Sum of the singular values.
    Nuc,
    /// Largest singular value.
    Two,
    /// Smallest singular value.
    NegTwo,
}

impl MatrixOrd {
    /// Whether the norm needs singular values.
    pub fn needs_svd(self) -> bool {
        matches!(self, Self::Nuc | Self::Two | Self::NegTwo)
    }
}

/// What a call computes per row.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Norm {
    /// numpy's fast path: `sqrt(x.ravel().dot(x.ravel()))`.
    Flat,
    /// A vector norm along the logical axis.
    Vector(VectorOrd, usize),
    /// A matrix norm over the row and column axes.
    Matrix(MatrixOrd, usize, usize),
}

impl Eq for Norm {}

impl std::hash::Hash for Norm {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        std::mem::discriminant(self).hash(state);
        match self {
            Self::Flat => {}
            Self::Vector(ord, axis) => {
                std::mem::discriminant(ord).hash(state);
                if let VectorOrd::P(p) = ord {
                    p.to_bits().hash(state);
                }
                axis.hash(state);
            }
            Self::Matrix(ord, r, c) => (ord, r, c).hash(state),
        }
    }
}

impl Norm {
    /// The result shape of a row of logical shape `shape` (`keepdims`: reduced axes kept as 1).
    pub fn output_shape(&self, shape: &[usize], keepdims: bool) -> Vec<usize> {
        let reduced = |d: usize| match *self {
            Self::Flat => true,
            Self::Vector(_, a) => d == a,
            Self::Matrix(_, r, c) => d == r || d == c,
        };
        shape
            .iter()
            .enumerate()
            .filter_map(|(d, &n)| match (reduced(d), keepdims) {
                (false, _) => Some(n),
                (true, true) => Some(1),
                (true, false) => None,
            })
            .collect()
    }

    /// numpy's error for a row of logical shape `shape`, if it has one: a minimum over nothing.
    pub fn empty_error(&self, shape: &[usize]) -> Option<TensorError> {
        let dim = |d: usize| shape.get(d).copied().unwrap_or(0);
        let min_over_nothing = match *self {
            Self::Vector(VectorOrd::NegInf, a) => dim(a) == 0,
            Self::Matrix(MatrixOrd::NegOne, _, c) => dim(c) == 0,
            Self::Matrix(MatrixOrd::NegInf, r, _) => dim(r) == 0,
            Self::Matrix(MatrixOrd::NegTwo, r, c) => dim(r).min(dim(c)) == 0,
            _ => false,
        };
        min_over_nothing.then(|| {
            TensorError::Data(
                "zero-size array to reduction operation minimum which has no identity".to_string(),
            )
        })
    }
}

/// The float arithmetic a norm is worked in.
pub trait Work:
    Copy + PartialOrd + std::ops::Add<Output = Self> + std::ops::Mul<Output = Self>
{
    /// Zero.
    const ZERO: Self;
    /// From float64 (rounded).
    fn of(x: f64) -> Self;
    /// To float64.
    fn f64(self) -> f64;
    /// `|x|`.
    #[must_use]
    fn abs(self) -> Self;
    /// The square root.
    #[must_use]
    fn sqrt(self) -> Self;
    /// `self ** p`.
    #[must_use]
    fn pow(self, p: Self) -> Self;
    /// Whether NaN.
    fn nan(self) -> bool;
}

macro_rules! work {
    ($t:ty) => {
        impl Work for $t {
            const ZERO: $t = 0.0;
            #[inline]
            fn of(x: f64) -> $t {
                x as $t
            }
            #[inline]
            fn f64(self) -> f64 {
                f64::from(self)
            }
            #[inline]
            fn abs(self) -> $t {
                <$t>::abs(self)
            }
            #[inline]
            fn sqrt(self) -> $t {
                <$t>::sqrt(self)
            }
            #[inline]
            fn pow(self, p: $t) -> $t {
                self.powf(p)
            }
            #[inline]
            fn nan(self) -> bool {
                self.is_nan()
            }
        }
    };
}

work!(f32);
work!(f64);

/// An element type of the norms: float16, float32, float64.
pub trait NormElement: Copy + Default {
    /// Its working type.
    type W: Work;
    /// The element in the working type.
    fn widen(self) -> Self::W;
    /// A working value rounded to the element type.
    fn narrow(w: Self::W) -> Self;
    /// A working value rounded through the element type (float16's per-operation rounding).
    #[inline]
    fn round(w: Self::W) -> Self::W {
        Self::narrow(w).widen()
    }
}

impl NormElement for f16 {
    type W = f32;
    #[inline]
    fn widen(self) -> f32 {
        self.to_f32()
    }
    #[inline]
    fn narrow(w: f32) -> f16 {
        f16::from_f32(w)
    }
}

macro_rules! plain_element {
    ($t:ty) => {
        impl NormElement for $t {
            type W = $t;
            #[inline]
            fn widen(self) -> $t {
                self
            }
            #[inline]
            fn narrow(w: $t) -> $t {
                w
            }
            #[inline]
            fn round(w: $t) -> $t {
                w
            }
        }
    };
}

plain_element!(f32);
plain_element!(f64);

/// The larger of two values, NaN if either is (numpy's `maximum`).
fn max<W: Work>(a: W, b: W) -> W {
    if !a.nan() && (b.nan() || b > a) { b } else { a }
}

/// The smaller of two values, NaN if either is (numpy's `minimum`).
fn min<W: Work>(a: W, b: W) -> W {
    if !a.nan() && (b.nan() || b < a) { b } else { a }
}

/// One row of a norm: the row starts at `start` in `values`, of logical `shape` and `strides`;
/// its result values are appended to `out` in row-major order.
///
/// # Errors
/// numpy's error for a minimum over nothing; an internal error when the row's values end
/// early.
pub fn norm_row<E: NormElement>(
    norm: &Norm,
    values: &[E],
    start: usize,
    shape: &[usize],
    strides: &[usize],
    out: &mut Vec<E>,
) -> Result<()> {
    if let Some(err) = norm.empty_error(shape) {
        return Err(err);
    }
    let last = shape
        .iter()
        .zip(strides)
        .map(|(&n, &s)| n.saturating_sub(1) * s)
        .sum::<usize>();
    if shape.iter().all(|&n| n > 0) && start + last >= values.len() {
        return Err(TensorError::Internal(format!(
            "a norm's row of {} values past {} ends at {}",
            last + 1,
            start,
            values.len()
        )));
    }
    let at = |p: usize| values[p].widen();
    match *norm {
        Norm::Flat => {
            let mut acc = E::W::ZERO;
            each_position(shape, strides, start, &[], &mut |p| {
                let x = at(p);
                acc = acc + x * x;
            });
            out.push(E::narrow(E::round(acc).sqrt()));
        }
        Norm::Vector(ord, axis) => {
            let (n, step) = (shape[axis], strides[axis]);
            each_position(shape, strides, start, &[axis], &mut |p| {
                let along = (0..n).map(|i| at(p + i * step));
                out.push(E::narrow(vector::<E>(ord, along)));
            });
        }
        Norm::Matrix(ord, r, c) => {
            let mut buffer = Vec::new();
            let mut result = Ok(());
            each_position(shape, strides, start, &[r, c], &mut |p| {
                let sides = ([shape[r], shape[c]], [strides[r], strides[c]]);
                match matrix::<E>(ord, &at, p, sides.0, sides.1, &mut buffer) {
                    Ok(value) => out.push(E::narrow(value)),
                    Err(err) => result = Err(err),
                }
            });
            return result;
        }
    }
    Ok(())
}

/// A vector norm of the values `along` (worked, rounded as numpy rounds in `E`).
fn vector<E: NormElement>(ord: VectorOrd, along: impl Iterator<Item = E::W>) -> E::W {
    let zero = E::W::ZERO;
    match ord {
        VectorOrd::Inf => along.fold(zero, |m, x| max(m, x.abs())),
        VectorOrd::NegInf => along.map(Work::abs).reduce(min).unwrap_or(zero),
        VectorOrd::Zero => E::round(along.fold(zero, |s, x| {
            s + if x == zero { zero } else { E::W::of(1.0) }
        })),
        VectorOrd::One => E::round(along.fold(zero, |s, x| s + x.abs())),
        VectorOrd::Two => E::round(along.fold(zero, |s, x| s + E::round(x * x))).sqrt(),
        VectorOrd::P(p) => {
            let power = E::round(E::W::of(p));
            let sum = E::round(along.fold(zero, |s, x| s + E::round(x.abs().pow(power))));
            // numpy: ret **= reciprocal(ord, dtype=ret.dtype).
            sum.pow(E::round(E::W::of(1.0 / p)))
        }
    }
}

/// A matrix norm of the `[rows, cols]` matrix at `p` with strides `steps`.
fn matrix<E: NormElement>(
    ord: MatrixOrd,
    at: &impl Fn(usize) -> E::W,
    p: usize,
    [rows, cols]: [usize; 2],
    [rs, cs]: [usize; 2],
    buffer: &mut Vec<f64>,
) -> Result<E::W> {
    let zero = E::W::ZERO;
    // numpy sums |x| along one axis in E, then takes the extreme of the sums.
    let line_sums = |count: usize, outer: usize, inner: usize, inner_step: usize| {
        (0..count).map(move |i| {
            E::round((0..inner).fold(zero, |s, j| s + at(p + i * outer + j * inner_step).abs()))
        })
    };
    Ok(match ord {
        MatrixOrd::One => line_sums(cols, cs, rows, rs).fold(zero, max),
        MatrixOrd::NegOne => line_sums(cols, cs, rows, rs).reduce(min).unwrap_or(zero),
        MatrixOrd::Inf => line_sums(rows, rs, cols, cs).fold(zero, max),
        MatrixOrd::NegInf => line_sums(rows, rs, cols, cs).reduce(min).unwrap_or(zero),
        MatrixOrd::Fro => {
            let mut acc = zero;
            for i in 0..rows {
                for j in 0..cols {
                    let x = at(p + i * rs + j * cs);
                    acc = acc + E::round(x * x);
                }
            }
            E::round(acc).sqrt()
        }
        MatrixOrd::Nuc | MatrixOrd::Two | MatrixOrd::NegTwo => {
            buffer.clear();
            // Columns of the matrix with more rows than columns (its transpose otherwise).
            let (m, n, rs, cs) = if rows >= cols {
                (rows, cols, rs, cs)
            } else {
                (cols, rows, cs, rs)
            };
            for j in 0..n {
                buffer.extend((0..m).map(|i| at(p + i * rs + j * cs).f64()));
            }
            let Some(values) = singular_values_of(buffer, m, n) else {
                return Err(TensorError::Data("SVD did not converge".to_string()));
            };
            let value = match ord {
                MatrixOrd::Nuc => values.iter().fold(0.0, |s, x| s + x),
                MatrixOrd::Two => values.iter().copied().fold(0.0, f64::max),
                _ => values.iter().copied().fold(f64::INFINITY, f64::min),
            };
            E::W::of(value)
        }
    })
}

/// Calls `f` at the start of every position of the dimensions other than `skip`, in row-major
/// order, from `start` at `strides`.
fn each_position(
    shape: &[usize],
    strides: &[usize],
    start: usize,
    skip: &[usize],
    f: &mut impl FnMut(usize),
) {
    fn walk(dims: &[(usize, usize)], p: usize, f: &mut impl FnMut(usize)) {
        match dims.split_first() {
            None => f(p),
            Some((&(n, s), rest)) => {
                for i in 0..n {
                    walk(rest, p + i * s, f);
                }
            }
        }
    }
    let dims: Vec<(usize, usize)> = shape
        .iter()
        .zip(strides)
        .enumerate()
        .filter(|(d, _)| !skip.contains(d))
        .map(|(_, (&n, &s))| (n, s))
        .collect();
    walk(&dims, start, f);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vector_and_matrix_norms() {
        let x = [3.0f64, -4.0, 0.0, 12.0, 1.0, -2.0]; // 2 x 3
        let mut out = Vec::new();
        for norm in [
            Norm::Flat,
            Norm::Vector(VectorOrd::One, 1),
            Norm::Vector(VectorOrd::Inf, 0),
            Norm::Matrix(MatrixOrd::One, 0, 1),
            Norm::Matrix(MatrixOrd::Inf, 0, 1),
        ] {
            norm_row(&norm, &x, 0, &[2, 3], &[3, 1], &mut out).unwrap();
        }
        assert_eq!(
            out,
            vec![174f64.sqrt(), 7.0, 15.0, 12.0, 4.0, 2.0, 15.0, 15.0]
        );
        assert!(
            norm_row(
                &Norm::Vector(VectorOrd::NegInf, 0),
                &x,
                0,
                &[0, 3],
                &[3, 1],
                &mut out
            )
            .is_err()
        );
        assert!(norm_row(&Norm::Flat, &x[..5], 0, &[2, 3], &[3, 1], &mut out).is_err());
    }
}
