//! The arithmetic numpy's reduction loops do, per element type: which type a loop
//! accumulates in, how a value is rounded back, and numpy's pairwise summation.
//!
//! numpy's half-precision loops (`HALF_add`, `HALF_multiply` in `loops.c.src`) compute in
//! `float` and round to half once per inner-loop call (a reduction) or once per element (an
//! elementwise step); [`Real`] says that for every float type, so one generic loop gives
//! numpy's rounding for float16, float32 and float64 alike.

use std::ops::{Add, Mul, Sub};

use half::f16;

/// A type a float loop computes in (`f32` for float16 and float32, `f64` for float64).
#[allow(clippy::return_self_not_must_use)]
pub trait Accum:
    Copy + PartialOrd + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self>
{
    /// 0.
    const ZERO: Self;
    /// 1.
    const ONE: Self;
    /// The square root, correctly rounded in this type.
    fn sqrt(self) -> Self;
}

impl Accum for f32 {
    const ZERO: Self = 0.0;
    const ONE: Self = 1.0;
    fn sqrt(self) -> Self {
        f32::sqrt(self)
    }
}

impl Accum for f64 {
    const ZERO: Self = 0.0;
    const ONE: Self = 1.0;
    fn sqrt(self) -> Self {
        f64::sqrt(self)
    }
}

/// A float element type as numpy's loops treat it.
pub trait Real: Copy + PartialOrd + Default + Send + Sync + 'static {
    /// What the loops compute in.
    type Acc: Accum;
    /// Positive infinity (the identity of `minimum` over a non-empty reduction).
    const INFINITY: Self;
    /// Negative infinity.
    const NEG_INFINITY: Self;
    /// This value in the loop's type (exact).
    fn widen(self) -> Self::Acc;
    /// A loop's value rounded to this type.
    fn narrow(value: Self::Acc) -> Self;
    /// A float64 rounded to this type once (numpy's cast from float64).
    fn from_f64(value: f64) -> Self;
    /// This value as a float64 (exact).
    fn to_f64(self) -> f64;
    /// Whether this is NaN.
    fn is_nan(self) -> bool;
}

impl Real for f16 {
    type Acc = f32;
    const INFINITY: Self = f16::INFINITY;
    const NEG_INFINITY: Self = f16::NEG_INFINITY;
    fn widen(self) -> f32 {
        self.to_f32()
    }
    fn narrow(value: f32) -> Self {
        f16::from_f32(value)
    }
    fn from_f64(value: f64) -> Self {
        f16::from_f64(value)
    }
    fn to_f64(self) -> f64 {
        f16::to_f64(self)
    }
    fn is_nan(self) -> bool {
        f16::is_nan(self)
    }
}

impl Real for f32 {
    type Acc = f32;
    const INFINITY: Self = f32::INFINITY;
    const NEG_INFINITY: Self = f32::NEG_INFINITY;
    fn widen(self) -> f32 {
        self
    }
    fn narrow(value: f32) -> Self {
        value
    }
    fn from_f64(value: f64) -> Self {
        value as f32
    }
    fn to_f64(self) -> f64 {
        f64::from(self)
    }
    fn is_nan(self) -> bool {
        f32::is_nan(self)
    }
}

impl Real for f64 {
    type Acc = f64;
    const INFINITY: Self = f64::INFINITY;
    const NEG_INFINITY: Self = f64::NEG_INFINITY;
    fn widen(self) -> f64 {
        self
    }
    fn narrow(value: f64) -> Self {
        value
    }
    fn from_f64(value: f64) -> Self {
        value
    }
    fn to_f64(self) -> f64 {
        self
    }
    fn is_nan(self) -> bool {
        f64::is_nan(self)
    }
}

/// An element read into a loop of type `A`: exact for floats into a wider float, numpy's
/// cast for integers into float64 (`dtype='f8'` of `mean` and `var`).
pub trait Widen<A>: Copy {
    /// The value in `A`.
    fn widen_to(self) -> A;
}

impl Widen<f32> for f16 {
    fn widen_to(self) -> f32 {
        self.to_f32()
    }
}

impl Widen<f32> for f32 {
    fn widen_to(self) -> f32 {
        self
    }
}

macro_rules! widen_to_f64 {
    ($($t:ty),*) => {$(
        #[allow(clippy::cast_lossless)] // i64 and u64 have no lossless f64 From.
        impl Widen<f64> for $t {
            fn widen_to(self) -> f64 {
                self as f64
            }
        }
    )*};
}
widen_to_f64!(i8, i16, i32, i64, u8, u16, u32, u64, f32, f64);

impl Widen<f64> for f16 {
    fn widen_to(self) -> f64 {
        self.to_f64()
    }
}

/// An element with a total order for `minimum` / `maximum` and `argmin` / `argmax`, NaN aware.
pub trait Ordered: Copy + PartialOrd + Send + Sync + 'static {
    /// The identity of `minimum` (the largest value).
    const GREATEST: Self;
    /// The identity of `maximum` (the smallest value).
    const LEAST: Self;
    /// Whether this is NaN (never, for integers).
    fn nan(self) -> bool;
    /// Whether this is not zero (numpy's truth of a number; NaN is true).
    fn truthy(self) -> bool;
}

macro_rules! ordered_int {
    ($($t:ty),*) => {$(
        impl Ordered for $t {
            const GREATEST: Self = <$t>::MAX;
            const LEAST: Self = <$t>::MIN;
            fn nan(self) -> bool {
                false
            }
            fn truthy(self) -> bool {
                self != 0
            }
        }
    )*};
}
ordered_int!(i8, i16, i32, i64, u8, u16, u32, u64);

macro_rules! ordered_float {
    ($($t:ty),*) => {$(
        impl Ordered for $t {
            const GREATEST: Self = <$t as Real>::INFINITY;
            const LEAST: Self = <$t as Real>::NEG_INFINITY;
            fn nan(self) -> bool {
                Real::is_nan(self)
            }
            #[allow(clippy::float_cmp)] // exactly zero (of either sign) is false; NaN is true
            fn truthy(self) -> bool {
                self != <$t>::default()
            }
        }
    )*};
}
ordered_float!(f16, f32, f64);

/// An integer summed or multiplied as numpy does with `dtype=int64` / `uint64`: the element
/// widened, the arithmetic wrapping (numpy overflows silently).
pub trait WrapInto<A>: Copy {
    /// The value in `A` (sign-extended or zero-extended).
    fn wrap_into(self) -> A;
}

macro_rules! wrap_into {
    ($a:ty: $($t:ty),*) => {$(
        impl WrapInto<$a> for $t {
            fn wrap_into(self) -> $a {
                self as $a
            }
        }
    )*};
}
wrap_into!(i64: i8, i16, i32, i64, u8);
wrap_into!(u64: u8, u16, u32, u64);

/// Wrapping integer arithmetic of the two accumulator types.
pub trait Wrapping: Copy + Default + Send + Sync + 'static {
    /// 1.
    const ONE: Self;
    /// `self + other`, wrapping.
    fn add(self, other: Self) -> Self;
    /// `self * other`, wrapping.
    fn mul(self, other: Self) -> Self;
    /// `self - other`, wrapping (a sum with a value taken back out).
    fn sub(self, other: Self) -> Self;
}

macro_rules! wrapping {
    ($($t:ty),*) => {$(
        impl Wrapping for $t {
            const ONE: Self = 1;
            fn add(self, other: Self) -> Self {
                self.wrapping_add(other)
            }
            fn mul(self, other: Self) -> Self {
                self.wrapping_mul(other)
            }
            fn sub(self, other: Self) -> Self {
                self.wrapping_sub(other)
            }
        }
    )*};
}
wrapping!(i64, u64);

/// numpy's block size below which pairwise summation is an unrolled loop (`PW_BLOCKSIZE`).
const PAIRWISE_BLOCK: usize = 128;

/// numpy's pairwise summation (`@TYPE@_pairwise_sum` in `loops_utils.h.src`), exactly: fewer
/// than 8 values in order; up to 128 in eight interleaved partial sums combined as
/// `((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))`, then the rest in order; more split in
/// two at half rounded down to a multiple of 8.
pub fn pairwise_sum<I: Widen<A>, A: Accum>(values: &[I]) -> A {
    let n = values.len();
    if n < 8 {
        let mut res = A::ZERO;
        for &v in values {
            res = res + v.widen_to();
        }
        res
    } else if n <= PAIRWISE_BLOCK {
        let mut r: [A; 8] = std::array::from_fn(|k| values[k].widen_to());
        let whole = n - n % 8;
        let mut i = 8;
        while i < whole {
            for (k, acc) in r.iter_mut().enumerate() {
                *acc = *acc + values[i + k].widen_to();
            }
            i += 8;
        }
        let mut res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for &v in &values[whole..] {
            res = res + v.widen_to();
        }
        res
    } else {
        let mut half = n / 2;
        half -= half % 8;
        pairwise_sum::<I, A>(&values[..half]) + pairwise_sum::<I, A>(&values[half..])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[allow(clippy::float_cmp)] // numpy's exact values
    fn pairwise_sum_groups_as_numpy_does() {
        // 1e8 then ones (numpy 2.4: np.sum of these as float32). Summed in order in float32
        // the ones vanish; numpy's eight partial sums and its split keep some of them.
        let mut values = vec![1.0f32; 300];
        values[0] = 1e8;
        let sum: f32 = pairwise_sum(&values[..16]);
        assert_eq!(sum, 100_000_008.0);
        let sum: f32 = pairwise_sum(&values);
        assert_eq!(sum, 100_000_288.0);
        let small: f32 = pairwise_sum(&values[..7]);
        assert_eq!(small, 1e8);
    }
}
