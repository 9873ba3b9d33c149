//! numpy's `rint`, `trunc`, `floor` and `ceil` of float32 and float64 in float arithmetic
//! alone. The standard library's are calls into libm in a baseline x86-64 (SSE2) build, since
//! the rounding instructions (`roundps`) are SSE4.1's; these are a few adds and compares, which
//! the loops vectorise (measured in docs/src/benchmarks/elementwise.md: rint 11x the scan before).
//!
//! Adding and subtracting 2^(mantissa bits) rounds a smaller magnitude to an integer in the
//! current rounding mode (to nearest, ties to even, as numpy's `rint`); larger magnitudes,
//! infinities and NaN are integers or themselves already. The sign is put back last, so
//! `-0.3` rounds to `-0.0` as numpy's do.

/// The float types rounded here.
pub trait Rounding: Copy + PartialOrd + std::ops::Add<Output = Self> + std::ops::Sub<Output = Self> {
    /// 2^(mantissa bits): every float of this magnitude or more is an integer.
    const BIG: Self;
    /// 1.
    const ONE: Self;
    /// The absolute value.
    #[must_use]
    fn magnitude(self) -> Self;
    /// `self` with the sign of `sign`.
    #[must_use]
    fn with_sign_of(self, sign: Self) -> Self;
}

impl Rounding for f32 {
    const BIG: Self = 8_388_608.0;
    const ONE: Self = 1.0;
    fn magnitude(self) -> Self {
        self.abs()
    }
    fn with_sign_of(self, sign: Self) -> Self {
        self.copysign(sign)
    }
}

impl Rounding for f64 {
    const BIG: Self = 4_503_599_627_370_496.0;
    const ONE: Self = 1.0;
    fn magnitude(self) -> Self {
        self.abs()
    }
    fn with_sign_of(self, sign: Self) -> Self {
        self.copysign(sign)
    }
}

/// The magnitude of `x` rounded to the nearest integer, ties to even (`x` itself when it is
/// an integer already, infinite or NaN: the comparison is false).
#[inline]
fn round_magnitude<A: Rounding>(x: A) -> (A, bool) {
    let a = x.magnitude();
    if a < A::BIG {
        ((a + A::BIG) - A::BIG, true)
    } else {
        (a, false)
    }
}

/// numpy's `rint`: to the nearest integer, ties to even.
#[inline]
pub fn rint<A: Rounding>(x: A) -> A {
    match round_magnitude(x) {
        (r, true) => r.with_sign_of(x),
        _ => x,
    }
}

/// numpy's `trunc`: towards zero.
#[inline]
pub fn trunc<A: Rounding>(x: A) -> A {
    match round_magnitude(x) {
        (r, true) => {
            let a = x.magnitude();
            let r = if r > a { r - A::ONE } else { r };
            r.with_sign_of(x)
        }
        _ => x,
    }
}

/// numpy's `floor`: down.
#[inline]
pub fn floor<A: Rounding>(x: A) -> A {
    let r = rint(x);
    let r = if r > x { r - A::ONE } else { r };
    r.with_sign_of(x)
}

/// numpy's `ceil`: up.
#[inline]
pub fn ceil<A: Rounding>(x: A) -> A {
    let r = rint(x);
    let r = if r < x { r + A::ONE } else { r };
    r.with_sign_of(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every 4099th float32 bit pattern (both signs, subnormals, the halves near 2^23,
    /// infinities and NaNs among them), and float64s around every power of two: the same bits
    /// as the standard library's correctly rounded functions.
    #[test]
    fn agree_with_the_standard_library() {
        let check32 = |x: f32| {
            let same = |a: f32, b: f32| a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan());
            assert!(same(rint(x), x.round_ties_even()), "rint({x:e})");
            assert!(same(trunc(x), x.trunc()), "trunc({x:e})");
            assert!(same(floor(x), x.floor()), "floor({x:e})");
            assert!(same(ceil(x), x.ceil()), "ceil({x:e})");
        };
        for bits in (0..=u32::MAX).step_by(4099) {
            check32(f32::from_bits(bits));
        }
        for x in [0.5f32, 1.5, 2.5, -0.5, -1.5, 8_388_607.5, -8_388_607.5, 8_388_608.0] {
            check32(x);
        }
        let check64 = |x: f64| {
            let same = |a: f64, b: f64| a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan());
            assert!(same(rint(x), x.round_ties_even()), "rint({x:e})");
            assert!(same(trunc(x), x.trunc()), "trunc({x:e})");
            assert!(same(floor(x), x.floor()), "floor({x:e})");
            assert!(same(ceil(x), x.ceil()), "ceil({x:e})");
        };
        for e in -1074..=1023 {
            let p = 2f64.powi(e);
            for x in [p, p * 1.5, p * 1.25, p * 1.75, p.next_up(), p.next_down()] {
                check64(x);
                check64(-x);
            }
        }
        for x in [0.0, -0.0, f64::INFINITY, f64::NEG_INFINITY, f64::NAN, 0.499_999_999_999_999_94] {
            check64(x);
        }
    }
}
