//! numpy's `matrix_power(a, n)` for `n >= 0`, in the element type: the identity for 0, then
//! `matmul` by numpy's own sequence of squarings (`n` of 1, 2 and 3 directly, then binary
//! decomposition), so that float rounding happens where numpy's does. `matmul` as numpy's
//! loops compute it: integers wrap, booleans are OR of ANDs, float16 sums in float32 and
//! rounds once per element. (A negative `n` is the inverse's power: the UDF inverts first.)
#![allow(
    clippy::many_single_char_names,
    reason = "linear algebra's names: a, b, m, n, k, u, s, vh"
)]

use half::f16;

/// An element type of `matrix_power`.
pub trait PowerElement: Copy + Default {
    /// The type a dot product is summed in.
    type Acc: Copy;
    /// The sum of nothing.
    const ZERO: Self::Acc;
    /// The identity's diagonal.
    fn one() -> Self;
    /// `acc + a * b`.
    fn mul_add(acc: Self::Acc, a: Self, b: Self) -> Self::Acc;
    /// The sum as an element.
    fn finish(acc: Self::Acc) -> Self;
}

macro_rules! integer {
    ($($t:ty),*) => {$(
        impl PowerElement for $t {
            type Acc = $t;
            const ZERO: $t = 0;
            fn one() -> $t {
                1
            }
            #[inline]
            fn mul_add(acc: $t, a: $t, b: $t) -> $t {
                acc.wrapping_add(a.wrapping_mul(b))
            }
            #[inline]
            fn finish(acc: $t) -> $t {
                acc
            }
        }
    )*};
}

integer!(i8, i16, i32, i64, u8, u16, u32, u64);

macro_rules! float {
    ($($t:ty),*) => {$(
        impl PowerElement for $t {
            type Acc = $t;
            const ZERO: $t = 0.0;
            fn one() -> $t {
                1.0
            }
            #[inline]
            fn mul_add(acc: $t, a: $t, b: $t) -> $t {
                acc + a * b
            }
            #[inline]
            fn finish(acc: $t) -> $t {
                acc
            }
        }
    )*};
}

float!(f32, f64);

impl PowerElement for f16 {
    type Acc = f32;
    const ZERO: f32 = 0.0;
    fn one() -> f16 {
        f16::ONE
    }
    #[inline]
    fn mul_add(acc: f32, a: f16, b: f16) -> f32 {
        acc + a.to_f32() * b.to_f32()
    }
    #[inline]
    fn finish(acc: f32) -> f16 {
        f16::from_f32(acc)
    }
}

impl PowerElement for bool {
    type Acc = bool;
    const ZERO: bool = false;
    fn one() -> bool {
        true
    }
    #[inline]
    fn mul_add(acc: bool, a: bool, b: bool) -> bool {
        acc || (a && b)
    }
    #[inline]
    fn finish(acc: bool) -> bool {
        acc
    }
}

/// `a @ b` of two row-major `n x n` matrices.
fn matmul<T: PowerElement>(a: &[T], b: &[T], n: usize) -> Vec<T> {
    let mut out = Vec::with_capacity(n * n);
    for i in 0..n {
        for j in 0..n {
            let mut acc = T::ZERO;
            for k in 0..n {
                acc = T::mul_add(acc, a[i * n + k], b[k * n + j]);
            }
            out.push(T::finish(acc));
        }
    }
    out
}

/// `a ** exponent` of the row-major `n x n` matrix `a`, appended to `out`.
pub fn matrix_power<T: PowerElement>(a: &[T], n: usize, exponent: u64, out: &mut Vec<T>) {
    let result = match exponent {
        0 => (0..n * n)
            .map(|i| if i / n == i % n { T::one() } else { T::default() })
            .collect(),
        1 => a.to_vec(),
        2 => matmul(a, a, n),
        3 => matmul(&matmul(a, a, n), a, n),
        mut e => {
            let mut z: Option<Vec<T>> = None;
            let mut result: Option<Vec<T>> = None;
            while e > 0 {
                let next = match &z {
                    None => a.to_vec(),
                    Some(z) => matmul(z, z, n),
                };
                let bit = e % 2 == 1;
                e /= 2;
                if bit {
                    result = Some(match result {
                        None => next.clone(),
                        Some(r) => matmul(&r, &next, n),
                    });
                }
                z = Some(next);
            }
            result.unwrap_or_default()
        }
    };
    out.extend(result);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn powers_wrap_and_square_as_numpy() {
        let mut out = Vec::new();
        // [[1, 1], [1, 0]] ** 10: Fibonacci numbers 89, 55, 55, 34.
        matrix_power(&[1i64, 1, 1, 0], 2, 10, &mut out);
        assert_eq!(out, [89, 55, 55, 34]);
        out.clear();
        // int8 wraps: [[2]] ** 8 = 256 = 0.
        let mut small = Vec::new();
        matrix_power(&[2i8], 1, 8, &mut small);
        assert_eq!(small, [0]);
        let mut b = Vec::new();
        matrix_power(&[false, true, false, false], 2, 2, &mut b);
        assert_eq!(b, [false; 4]);
        b.clear();
        matrix_power(&[true, true, false, true], 2, 0, &mut b);
        assert_eq!(b, [true, false, false, true]);
    }
}
