//! numpy's elementwise arithmetic on one pair of elements, per element type: the semantics the
//! loops apply where arrow's kernels differ from numpy (integer division and modulo by zero
//! give 0, `floor_divide` and `mod` take the divisor's sign, IEEE comparisons where arrow
//! orders floats totally, NaN-propagating maximum and minimum, integer powers by squaring).

use half::f16;

/// A tensor element type as numpy's ufunc loops compute with it.
pub trait NumpyElement: Copy + PartialOrd + Default + 'static {
    /// Whether this is an integer type (integer powers refuse negative exponents).
    const INTEGER: bool;
    /// `np.add` (integers wrap).
    #[must_use]
    fn np_add(self, other: Self) -> Self;
    /// `np.subtract` (integers wrap).
    #[must_use]
    fn np_sub(self, other: Self) -> Self;
    /// `np.multiply` (integers wrap).
    #[must_use]
    fn np_mul(self, other: Self) -> Self;
    /// `np.true_divide` of floats (integers are divided as floats by the caller).
    #[must_use]
    fn np_div(self, other: Self) -> Self;
    /// `np.floor_divide`: rounds towards negative infinity; an integer divisor 0 gives 0.
    #[must_use]
    fn np_floor_div(self, other: Self) -> Self;
    /// `np.remainder`: the sign of the divisor; an integer divisor 0 gives 0.
    #[must_use]
    fn np_rem(self, other: Self) -> Self;
    /// `np.power`; `None` for an integer raised to a negative power (numpy's `ValueError`).
    fn np_pow(self, other: Self) -> Option<Self>;
    /// `np.maximum` (NaN propagates).
    #[must_use]
    fn np_maximum(self, other: Self) -> Self;
    /// `np.minimum` (NaN propagates).
    #[must_use]
    fn np_minimum(self, other: Self) -> Self;
    /// The truth value numpy gives it (`x != 0`; NaN is true).
    fn truthy(self) -> bool;
    /// Whether it is negative (integer powers).
    fn negative(self) -> bool;
}

macro_rules! integer_element {
    ($($t:ty),*) => {$(
        impl NumpyElement for $t {
            const INTEGER: bool = true;
            #[inline(always)]
            fn np_add(self, other: Self) -> Self {
                self.wrapping_add(other)
            }
            #[inline(always)]
            fn np_sub(self, other: Self) -> Self {
                self.wrapping_sub(other)
            }
            #[inline(always)]
            fn np_mul(self, other: Self) -> Self {
                self.wrapping_mul(other)
            }
            #[inline(always)]
            fn np_div(self, other: Self) -> Self {
                // Not reached: integer true division runs in float64.
                if other == 0 { 0 } else { self.wrapping_div(other) }
            }
            #[inline(always)]
            fn np_floor_div(self, other: Self) -> Self {
                // numpy: division by zero gives 0 (with a warning); MIN // -1 wraps to MIN.
                if other == 0 {
                    return 0;
                }
                let quotient = self.wrapping_div(other);
                #[allow(unused_comparisons)]
                let signs_differ = (self < 0) != (other < 0);
                if signs_differ && quotient.wrapping_mul(other) != self {
                    quotient.wrapping_sub(1)
                } else {
                    quotient
                }
            }
            #[inline(always)]
            fn np_rem(self, other: Self) -> Self {
                if other == 0 {
                    return 0;
                }
                let remainder = self.wrapping_rem(other);
                #[allow(unused_comparisons)]
                let signs_differ = (remainder < 0) != (other < 0);
                if remainder != 0 && signs_differ {
                    remainder.wrapping_add(other)
                } else {
                    remainder
                }
            }
            #[inline(always)]
            fn np_pow(self, other: Self) -> Option<Self> {
                if other.negative() {
                    return None;
                }
                // numpy's loop: squaring, wrapping on overflow.
                let (mut base, mut exponent, mut out): (Self, Self, Self) = (self, other, 1);
                while exponent != 0 {
                    if exponent & 1 == 1 {
                        out = out.wrapping_mul(base);
                    }
                    exponent >>= 1;
                    if exponent != 0 {
                        base = base.wrapping_mul(base);
                    }
                }
                Some(out)
            }
            #[inline(always)]
            fn np_maximum(self, other: Self) -> Self {
                self.max(other)
            }
            #[inline(always)]
            fn np_minimum(self, other: Self) -> Self {
                self.min(other)
            }
            #[inline(always)]
            fn truthy(self) -> bool {
                self != 0
            }
            #[inline(always)]
            #[allow(unused_comparisons)]
            fn negative(self) -> bool {
                self < 0
            }
        }
    )*};
}

integer_element!(i8, i16, i32, i64, u8, u16, u32, u64);

/// numpy's `npy_divmod` for a float type, given `modulus = fmod(a, b)`: the floored quotient
/// and the remainder with the divisor's sign, both exact where the C code is (`fmod`, then
/// fixed up). Written with selects, not branches, so that the vector kernels
/// (`kernels::vmath`, on their own `fmod`) share it and still vectorise.
macro_rules! float_divmod {
    ($name:ident, $t:ty) => {
        #[inline(always)]
        pub(crate) fn $name(a: $t, b: $t, modulus: $t) -> ($t, $t) {
            let div = (a - modulus) / b;
            let fix = modulus != 0.0 && ((b < 0.0) != (modulus < 0.0));
            let fixed = if modulus == 0.0 {
                (0.0 as $t).copysign(b)
            } else if fix {
                modulus + b
            } else {
                modulus
            };
            let div = if fix { div - 1.0 } else { div };
            let floor = crate::kernels::rounding::floor(div);
            let floor = if div - floor > 0.5 { floor + 1.0 } else { floor };
            let floordiv = if div == 0.0 { (0.0 as $t).copysign(a / b) } else { floor };
            if b == 0.0 { (a / b, modulus) } else { (floordiv, fixed) }
        }
    };
}

float_divmod!(divmod_f32, f32);
float_divmod!(divmod_f64, f64);

macro_rules! float_element {
    ($t:ty, $divmod:ident) => {
        impl NumpyElement for $t {
            const INTEGER: bool = false;
            #[inline(always)]
            fn np_add(self, other: Self) -> Self {
                self + other
            }
            #[inline(always)]
            fn np_sub(self, other: Self) -> Self {
                self - other
            }
            #[inline(always)]
            fn np_mul(self, other: Self) -> Self {
                self * other
            }
            #[inline(always)]
            fn np_div(self, other: Self) -> Self {
                self / other
            }
            #[inline(always)]
            fn np_floor_div(self, other: Self) -> Self {
                // numpy's npy_floor_divide: a / b where b is 0, else the divmod quotient.
                if other == 0.0 {
                    self / other
                } else {
                    $divmod(self, other, self % other).0
                }
            }
            #[inline(always)]
            fn np_rem(self, other: Self) -> Self {
                // numpy's npy_remainder: fmod where b is 0 (NaN), else the divmod remainder.
                if other == 0.0 {
                    self % other
                } else {
                    $divmod(self, other, self % other).1
                }
            }
            #[inline(always)]
            fn np_pow(self, other: Self) -> Option<Self> {
                // In double, rounded once: the correctly rounded power numpy's libm gives
                // (f32's own powf is off by an ulp on some inputs, e.g. 3.25 ** 2.5).
                Some(f64::from(self).powf(f64::from(other)) as $t)
            }
            #[inline(always)]
            fn np_maximum(self, other: Self) -> Self {
                if self.is_nan() || self >= other {
                    self
                } else {
                    other
                }
            }
            #[inline(always)]
            fn np_minimum(self, other: Self) -> Self {
                if self.is_nan() || self <= other {
                    self
                } else {
                    other
                }
            }
            #[inline(always)]
            fn truthy(self) -> bool {
                self != 0.0
            }
            #[inline(always)]
            fn negative(self) -> bool {
                self < 0.0
            }
        }
    };
}

float_element!(f32, divmod_f32);
float_element!(f64, divmod_f64);

/// numpy computes float16 in float32 and rounds the result back (its `npy_half` loops).
impl NumpyElement for f16 {
    const INTEGER: bool = false;
    #[inline(always)]
    fn np_add(self, other: Self) -> Self {
        f16::from_f32(self.to_f32() + other.to_f32())
    }
    #[inline(always)]
    fn np_sub(self, other: Self) -> Self {
        f16::from_f32(self.to_f32() - other.to_f32())
    }
    #[inline(always)]
    fn np_mul(self, other: Self) -> Self {
        f16::from_f32(self.to_f32() * other.to_f32())
    }
    #[inline(always)]
    fn np_div(self, other: Self) -> Self {
        f16::from_f32(self.to_f32() / other.to_f32())
    }
    #[inline(always)]
    fn np_floor_div(self, other: Self) -> Self {
        f16::from_f32(self.to_f32().np_floor_div(other.to_f32()))
    }
    #[inline(always)]
    fn np_rem(self, other: Self) -> Self {
        f16::from_f32(self.to_f32().np_rem(other.to_f32()))
    }
    #[inline(always)]
    fn np_pow(self, other: Self) -> Option<Self> {
        // numpy: powf in float32, rounded to half.
        Some(f16::from_f32(
            self.to_f32().np_pow(other.to_f32()).unwrap_or_default(),
        ))
    }
    #[inline(always)]
    fn np_maximum(self, other: Self) -> Self {
        if self.is_nan() || self >= other {
            self
        } else {
            other
        }
    }
    #[inline(always)]
    fn np_minimum(self, other: Self) -> Self {
        if self.is_nan() || self <= other {
            self
        } else {
            other
        }
    }
    #[inline(always)]
    fn truthy(self) -> bool {
        self.to_f32() != 0.0
    }
    #[inline(always)]
    fn negative(self) -> bool {
        self.to_f32() < 0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_division_follows_numpy() {
        // numpy 2.4: np.floor_divide / np.remainder on int8.
        assert_eq!((-7i8).np_floor_div(2), -4);
        assert_eq!((7i8).np_floor_div(-2), -4);
        assert_eq!((-7i8).np_rem(2), 1);
        assert_eq!((7i8).np_rem(-2), -1);
        assert_eq!((5i8).np_floor_div(0), 0);
        assert_eq!((5i8).np_rem(0), 0);
        assert_eq!((-128i8).np_floor_div(-1), -128);
        assert_eq!((-128i8).np_rem(-1), 0);
        assert_eq!((3i8).np_pow(5), Some(-13)); // 243 wraps
        assert_eq!((2i8).np_pow(-1), None);
    }

    #[test]
    #[allow(clippy::float_cmp)] // exact values, as numpy gives them
    fn float_division_follows_numpy() {
        // numpy 2.4: np.floor_divide(-7.5, 2) == -4.0, np.remainder(-7.5, 2) == 0.5,
        // np.remainder(1.0, -0.0) is nan, np.floor_divide(1.0, 0.0) is inf.
        assert_eq!((-7.5f64).np_floor_div(2.0), -4.0);
        assert_eq!((-7.5f64).np_rem(2.0), 0.5);
        assert!((1.0f64).np_rem(-0.0).is_nan());
        assert_eq!((1.0f64).np_floor_div(0.0), f64::INFINITY);
        assert!((-0.0f64).np_rem(5.0).to_bits() == 0.0f64.to_bits());
        assert!(f64::NAN.np_maximum(1.0).is_nan());
        assert!((1.0f64).np_maximum(f64::NAN).is_nan());
    }
}
