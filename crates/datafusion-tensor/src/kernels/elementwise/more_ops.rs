//! The binary ufuncs of the array API standard beyond arithmetic and comparison, per element
//! type, with numpy's semantics:
//! - float-only: `arctan2`, `hypot`, `copysign`, `logaddexp`, `logaddexp2`,
//!   `nextafter`, `float_power`, and `fmod` of floats; float16 computed in float32 and
//!   rounded once, as numpy's half loops do, but `nextafter` and `copysign`, which numpy
//!   computes on the half's own bits;
//! - integer-only: `bitwise_and`, `bitwise_or`, `bitwise_xor`, `left_shift`,
//!   `right_shift` (booleans as bytes for the first three), and `fmod` of integers.
//!
//! One trait, [`MoreOps`], for every element type: a float type has no integer-only loop and
//! an integer type no float-only one (the planner refuses or promotes those operands first).

use half::f16;

use super::BinaryOp;

/// An element function of two operands.
pub type ElementFn<T> = fn(T, T) -> T;

/// An element type's loops of these ufuncs.
pub trait MoreOps: Copy {
    /// The element function of `op` on this type; `None` for any other operation, and for one
    /// with no loop for this type.
    fn more_op(op: BinaryOp) -> Option<ElementFn<Self>>;
}

/// numpy's `npy_logaddexp`: `log(exp(x) + exp(y))` without overflow.
macro_rules! logaddexp {
    ($x:expr, $y:expr, $ln2:expr, $exp:ident, $ln_1p:expr) => {{
        let (x, y) = ($x, $y);
        if x == y {
            // Infinities of one sign, without a NaN from inf - inf.
            x + $ln2
        } else {
            let tmp = x - y;
            if tmp > 0.0 {
                x + $ln_1p((-tmp).$exp())
            } else if tmp <= 0.0 {
                y + $ln_1p(tmp.$exp())
            } else {
                tmp // NaN
            }
        }
    }};
}

/// C's `nextafter` on an IEEE binary format's bits: the next representable value after `x`
/// towards `y` (`y` itself where they are equal, NaN where either is).
macro_rules! next_after {
    ($x:expr, $y:expr, $bits:ty, $to_bits:expr, $from_bits:expr, $sign:expr, $nan:expr, $zero:expr) => {{
        let (x, y) = ($x, $y);
        if x.is_nan() || y.is_nan() {
            $nan
        } else if x == y {
            y
        } else if x == $zero {
            // The smallest subnormal with y's side's sign.
            let tiny: $bits = 1;
            if y > x { $from_bits(tiny) } else { $from_bits(tiny | $sign) }
        } else {
            let bits: $bits = $to_bits(x);
            // Away from zero when y lies further out on x's side, else towards it.
            let away = (y > x) == (x > $zero);
            $from_bits(if away { bits + 1 } else { bits - 1 })
        }
    }};
}

macro_rules! float_ops {
    ($t:ident, $bits:ty, $ln2:expr, $log2e:expr) => {
        impl MoreOps for $t {
            #[allow(clippy::float_cmp, reason = "C's exact comparisons, as numpy's loops make them")]
            #[inline(always)]
            fn more_op(op: BinaryOp) -> Option<ElementFn<Self>> {
                Some(match op {
                    BinaryOp::Arctan2 => $t::atan2,
                    BinaryOp::Hypot => $t::hypot,
                    BinaryOp::Copysign => $t::copysign,
                    BinaryOp::Logaddexp => |x, y| logaddexp!(x, y, $ln2, exp, $t::ln_1p),
                    // numpy's npy_logaddexp2: log2(1 + t) as log1p(t) * log2(e).
                    BinaryOp::Logaddexp2 => {
                        |x, y| logaddexp!(x, y, 1.0, exp2, |t: $t| t.ln_1p() * $log2e)
                    }
                    BinaryOp::Nextafter => |x, y| {
                        next_after!(
                            x,
                            y,
                            $bits,
                            $t::to_bits,
                            $t::from_bits,
                            1 << (<$bits>::BITS - 1),
                            $t::NAN,
                            0.0
                        )
                    },
                    // In double and rounded once, as numpy's power (float_power computes in
                    // float64: the caller casts to it).
                    BinaryOp::FloatPower => |x, y| (f64::from(x).powf(f64::from(y))) as $t,
                    // Rust's `%` on floats is C's fmod: exact, the dividend's sign.
                    BinaryOp::Fmod => |x, y| x % y,
                    _ => return None,
                })
            }
        }
    };
}

float_ops!(f32, u32, std::f32::consts::LN_2, std::f32::consts::LOG2_E);
float_ops!(f64, u64, std::f64::consts::LN_2, std::f64::consts::LOG2_E);

impl MoreOps for f16 {
    #[allow(clippy::float_cmp, reason = "C's exact comparisons, as numpy's loops make them")]
    #[inline(always)]
    fn more_op(op: BinaryOp) -> Option<ElementFn<Self>> {
        Some(match op {
            BinaryOp::Copysign => |x, y| f16::from_bits((x.to_bits() & 0x7fff) | (y.to_bits() & 0x8000)),
            BinaryOp::Nextafter => |x, y| {
                next_after!(
                    x,
                    y,
                    u16,
                    f16::to_bits,
                    f16::from_bits,
                    0x8000,
                    f16::NAN,
                    f16::ZERO
                )
            },
            BinaryOp::Arctan2 => |x, y| f16::from_f32(x.to_f32().atan2(y.to_f32())),
            BinaryOp::Hypot => |x, y| f16::from_f32(x.to_f32().hypot(y.to_f32())),
            BinaryOp::Fmod => |x, y| f16::from_f32(x.to_f32() % y.to_f32()),
            BinaryOp::Logaddexp => |x, y| {
                let (x, y) = (x.to_f32(), y.to_f32());
                f16::from_f32(logaddexp!(x, y, std::f32::consts::LN_2, exp, f32::ln_1p))
            },
            BinaryOp::Logaddexp2 => |x, y| {
                let (x, y) = (x.to_f32(), y.to_f32());
                let log2_1p = |t: f32| t.ln_1p() * std::f32::consts::LOG2_E;
                f16::from_f32(logaddexp!(x, y, 1.0, exp2, log2_1p))
            },
            BinaryOp::FloatPower => |x, y| f16::from_f64(x.to_f64().powf(y.to_f64())),
            _ => return None,
        })
    }
}

macro_rules! int_ops {
    ($($t:ty),*) => {$(
        impl MoreOps for $t {
            #[allow(
                unused_comparisons,
                clippy::cast_sign_loss,
                clippy::cast_possible_truncation,
                clippy::cast_lossless,
                reason = "numpy reads a shift as unsigned; the macro's types differ in width"
            )]
            #[inline(always)]
            fn more_op(op: BinaryOp) -> Option<ElementFn<Self>> {
                const BITS: u64 = <$t>::BITS as u64;
                Some(match op {
                    BinaryOp::BitwiseAnd => |x, y| x & y,
                    BinaryOp::BitwiseOr => |x, y| x | y,
                    BinaryOp::BitwiseXor => |x, y| x ^ y,
                    // numpy's npy_lshift: the shift read as unsigned (a negative one is huge);
                    // shifting out every bit gives 0.
                    BinaryOp::LeftShift => |x, y| {
                        if (y as u64) < BITS { x.wrapping_shl(y as u32) } else { 0 }
                    },
                    // npy_rshift: arithmetic for signed types; all bits out give -1 or 0.
                    BinaryOp::RightShift => |x, y| {
                        if (y as u64) < BITS {
                            x.wrapping_shr(y as u32)
                        } else if x < 0 {
                            (0 as $t).wrapping_sub(1)
                        } else {
                            0
                        }
                    },
                    // numpy's integer fmod: C's `%` (the dividend's sign); 0 for a divisor 0
                    // and for MIN % -1.
                    BinaryOp::Fmod => |x, y| if y == 0 { 0 } else { x.wrapping_rem(y) },
                    _ => return None,
                })
            }
        }
    )*};
}

int_ops!(i8, i16, i32, i64, u8, u16, u32, u64);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[allow(clippy::float_cmp)] // exact values, as numpy 2.4 gives them
    fn float_ops_follow_numpy() {
        let f = |op| f64::more_op(op).unwrap();
        assert_eq!(f(BinaryOp::Nextafter)(1.0, 2.0), 1.0 + f64::EPSILON);
        assert_eq!(f(BinaryOp::Nextafter)(0.0, -1.0), -5e-324);
        assert_eq!(f(BinaryOp::Nextafter)(-0.0, 0.0).to_bits(), 0.0f64.to_bits());
        assert_eq!(f(BinaryOp::Logaddexp)(f64::INFINITY, f64::INFINITY), f64::INFINITY);
        assert_eq!(f(BinaryOp::Logaddexp2)(1.0, 1.0), 2.0);
        assert_eq!(f(BinaryOp::Fmod)(-7.5, 2.0), -1.5);
        let h = |op| f16::more_op(op).unwrap();
        // np.nextafter(np.float16(1), np.float16(2)) == 1.001, one half ulp up.
        assert_eq!(h(BinaryOp::Nextafter)(f16::ONE, f16::from_f32(2.0)).to_bits(), 0x3c01);
        assert_eq!(h(BinaryOp::Nextafter)(f16::ZERO, f16::NEG_ONE).to_bits(), 0x8001);
        assert_eq!(h(BinaryOp::Copysign)(f16::ONE, f16::NEG_ZERO), f16::NEG_ONE);
    }

    #[test]
    fn int_ops_follow_numpy() {
        let f = |op| i8::more_op(op).unwrap();
        // np.left_shift(np.int8(1), -1) == 0; np.right_shift(np.int8(-5), 100) == -1.
        assert_eq!(f(BinaryOp::LeftShift)(1, -1), 0);
        assert_eq!(f(BinaryOp::LeftShift)(1, 8), 0);
        assert_eq!(f(BinaryOp::LeftShift)(1, 7), -128);
        assert_eq!(f(BinaryOp::RightShift)(-5, 100), -1);
        assert_eq!(f(BinaryOp::RightShift)(-5, 1), -3);
        assert_eq!(f(BinaryOp::Fmod)(-7, 2), -1);
        assert_eq!(f(BinaryOp::Fmod)(5, 0), 0);
        assert_eq!(f(BinaryOp::Fmod)(i8::MIN, -1), 0);
        assert_eq!(u8::more_op(BinaryOp::RightShift).unwrap()(200, 3), 25);
    }
}
