//! numpy's elementwise unary functions over a whole values buffer (`negative`, `absolute`,
//! `sign`, `square`, `sqrt`, `exp`, `log`, ..., `round`, `clip`, `isnan`, `logical_not`), in
//! numpy 2's result types: the float functions of integers in the smallest float that holds
//! them (int8, uint8 and bool in float16, 16-bit integers in float32, wider ones in float64),
//! float16 computed in float32 and rounded once, as numpy's half loops do.
//!
//! An elementwise function does not care how a tensor is laid out: the values are mapped as
//! they are stored (a permuted tensor keeps its permutation), element NULLs kept.

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, ArrowPrimitiveType, AsArray, BooleanArray, PrimitiveArray};
use arrow::buffer::BooleanBuffer;
use arrow::compute::{cast, not};
use arrow::datatypes::{
    DataType, Float16Type, Float32Type, Float64Type, Int8Type, Int16Type, Int32Type, Int64Type,
    UInt8Type, UInt16Type, UInt32Type, UInt64Type,
};
use half::f16;

use super::reduce::Accum;
use crate::error::{Result, TensorError};

/// A unary function.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    /// `np.negative`.
    Negative,
    /// `np.absolute`.
    Abs,
    /// `np.sign`.
    Sign,
    /// `np.square`.
    Square,
    /// `np.sqrt`.
    Sqrt,
    /// `np.exp`.
    Exp,
    /// `np.log`.
    Log,
    /// `np.log1p`.
    Log1p,
    /// `np.expm1`.
    Expm1,
    /// `np.sin`.
    Sin,
    /// `np.cos`.
    Cos,
    /// `np.tan`.
    Tan,
    /// `np.tanh`.
    Tanh,
    /// `np.arctan`.
    Arctan,
    /// `np.arcsin`.
    Arcsin,
    /// `np.arccos`.
    Arccos,
    /// `np.arcsinh`.
    Arcsinh,
    /// `np.arccosh`.
    Arccosh,
    /// `np.arctanh`.
    Arctanh,
    /// `np.sinh`.
    Sinh,
    /// `np.cosh`.
    Cosh,
    /// `np.log2`.
    Log2,
    /// `np.log10`.
    Log10,
    /// `np.rint`: to the nearest integer, ties to even, in a float type.
    Rint,
    /// `np.trunc`: towards zero (integers and booleans kept).
    Trunc,
    /// `np.positive`: a copy (not for booleans).
    Positive,
    /// `np.reciprocal`: `1 / x` (integers: `1.0 / x` cast back, as numpy computes it).
    Reciprocal,
    /// `np.signbit`: whether the sign bit is set (-0.0 and -NaN too).
    Signbit,
    /// `np.invert` (`bitwise_invert`): `~x` of integers and booleans.
    Invert,
    /// `np.floor`.
    Floor,
    /// `np.ceil`.
    Ceil,
    /// `np.round(x, decimals)`.
    Round(i64),
    /// `np.clip(x, min, max)`, the bounds already in the result type's range.
    Clip(Option<Bound>, Option<Bound>),
    /// `np.isnan`.
    IsNan,
    /// `np.isinf`.
    IsInf,
    /// `np.isfinite`.
    IsFinite,
    /// `np.logical_not`.
    LogicalNot,
}

/// A bound of `clip`: an integer, or a float (its bits, so that the op can be hashed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Bound {
    /// An integer literal.
    Int(i128),
    /// A float literal's `f64::to_bits`.
    Float(u64),
}

impl Bound {
    fn as_f64(self) -> f64 {
        match self {
            Self::Int(v) => v as f64,
            Self::Float(bits) => f64::from_bits(bits),
        }
    }
}

/// The float type numpy computes a float function of `element`s in (`np.sqrt(int8)` is
/// float16, of int16 float32, of int32 float64).
pub fn float_type(element: &DataType) -> DataType {
    match element {
        DataType::Boolean | DataType::Int8 | DataType::UInt8 | DataType::Float16 => {
            DataType::Float16
        }
        DataType::Int16 | DataType::UInt16 | DataType::Float32 => DataType::Float32,
        _ => DataType::Float64,
    }
}

impl UnaryOp {
    /// numpy 2's result type of this function of `element`s, or numpy's error where numpy
    /// has no loop for the type. `Clip`'s type is the caller's (it depends on the bounds).
    pub fn result_type(self, element: &DataType) -> Result<DataType, String> {
        let boolean = *element == DataType::Boolean;
        match self {
            Self::Negative if boolean => Err("The numpy boolean negative, the `-` operator, is not supported, use the `~` operator or the logical_not function instead.".to_string()),
            Self::Sign if boolean => Err("ufunc 'sign' did not contain a loop with signature matching types <class 'numpy.dtypes.BoolDType'> -> None".to_string()),
            Self::Round(d) if boolean && d != 0 => Err(format!(
                "Cannot cast ufunc '{}' output from dtype('float64') to dtype('bool') with casting rule 'same_kind'",
                if d > 0 { "multiply" } else { "divide" }
            )),
            Self::Positive if boolean => Err("ufunc 'positive' did not contain a loop with signature matching types <class 'numpy.dtypes.BoolDType'> -> None".to_string()),
            Self::Invert if element.is_floating() => Err("ufunc 'invert' not supported for the input types, and the inputs could not be safely coerced to any supported types according to the casting rule ''safe''".to_string()),
            Self::Round(_) if boolean => Ok(DataType::Float16),
            Self::Square | Self::Reciprocal if boolean => Ok(DataType::Int8),
            Self::Negative | Self::Abs | Self::Sign | Self::Square | Self::Floor | Self::Ceil
            | Self::Trunc | Self::Positive | Self::Reciprocal | Self::Invert
            | Self::Round(_) | Self::Clip(..) => Ok(element.clone()),
            Self::Sqrt | Self::Exp | Self::Log | Self::Log1p | Self::Expm1 | Self::Sin
            | Self::Cos | Self::Tan | Self::Tanh | Self::Arctan | Self::Arcsin | Self::Arccos
            | Self::Arcsinh | Self::Arccosh | Self::Arctanh | Self::Sinh | Self::Cosh
            | Self::Log2 | Self::Log10 | Self::Rint => Ok(float_type(element)),
            Self::IsNan | Self::IsInf | Self::IsFinite | Self::LogicalNot | Self::Signbit => {
                Ok(DataType::Boolean)
            }
        }
    }

    /// Whether this op is one float function of each element ([`float_functions`]).
    fn is_float_fn(self) -> bool {
        macro_rules! any {
            ($($op:ident => $f:ident),*) => {
                matches!(self, $(Self::$op)|*)
            };
        }
        float_functions!(any)
    }
}

/// The ops that are one float function of each element, with the [`Float`] method computing it:
/// the one list `map_float`'s loops and [`UnaryOp::is_float_fn`] are written from (`$m!` is
/// given `Op => method, ...`).
macro_rules! float_functions {
    ($m:ident) => {
        $m!(
            Sqrt => sqrt,
            Exp => exp,
            Log => ln,
            Log1p => ln_1p,
            Expm1 => exp_m1,
            Sin => sin,
            Cos => cos,
            Tan => tan,
            Tanh => tanh,
            Arctan => atan,
            Arcsin => asin,
            Arccos => acos,
            Arcsinh => asinh,
            Arccosh => acosh,
            Arctanh => atanh,
            Sinh => sinh,
            Cosh => cosh,
            Log2 => log2,
            Log10 => log10,
            Rint => rint
        )
    };
}
use float_functions;

/// `10^n` as numpy's `PyArray_Round` computes it (`power_of_ten`): a table up to 10^8, then
/// 1e9 multiplied by 10 once per further digit, each product rounded (for n > 22 this differs
/// from the correctly rounded power, and from `powi`, in the last bits).
fn power_of_ten(n: u64) -> f64 {
    const TABLE: [f64; 9] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8];
    match usize::try_from(n).ok().and_then(|i| TABLE.get(i)) {
        Some(&p) => p,
        None => {
            // Past 10^309 every product is infinite: stop there.
            let mut p = 1e9;
            for _ in 9..n.min(400) {
                p *= 10.0;
            }
            p
        }
    }
}

/// The libm functions of a loop type (`f32` for float16 and float32, `f64`).
#[allow(clippy::return_self_not_must_use)]
pub trait Float: Accum + std::ops::Div<Output = Self> + std::ops::Neg<Output = Self> {
    /// `e^x`.
    fn exp(self) -> Self;
    /// The natural logarithm.
    fn ln(self) -> Self;
    /// `ln(1 + x)`, exact near 0.
    fn ln_1p(self) -> Self;
    /// `e^x - 1`, exact near 0.
    fn exp_m1(self) -> Self;
    /// The sine.
    fn sin(self) -> Self;
    /// The cosine.
    fn cos(self) -> Self;
    /// The tangent.
    fn tan(self) -> Self;
    /// The hyperbolic tangent.
    fn tanh(self) -> Self;
    /// The arctangent.
    fn atan(self) -> Self;
    /// The arcsine.
    fn asin(self) -> Self;
    /// The arccosine.
    fn acos(self) -> Self;
    /// The inverse hyperbolic sine.
    fn asinh(self) -> Self;
    /// The inverse hyperbolic cosine.
    fn acosh(self) -> Self;
    /// The inverse hyperbolic tangent.
    fn atanh(self) -> Self;
    /// The hyperbolic sine.
    fn sinh(self) -> Self;
    /// The hyperbolic cosine.
    fn cosh(self) -> Self;
    /// The base-2 logarithm.
    fn log2(self) -> Self;
    /// The base-10 logarithm.
    fn log10(self) -> Self;
    /// Rounded towards zero.
    fn trunc(self) -> Self;
    /// Rounded down.
    fn floor(self) -> Self;
    /// Rounded up.
    fn ceil(self) -> Self;
    /// numpy's `rint`: to the nearest integer, ties to even.
    fn rint(self) -> Self;
    /// The absolute value.
    fn abs(self) -> Self;
    /// `value` rounded to this type.
    fn from_f64(value: f64) -> Self;
    /// Whether it is NaN.
    fn is_nan(self) -> bool;
    /// Whether it is an infinity.
    fn is_infinite(self) -> bool;
}

macro_rules! float_impl {
    ($t:ty, $asinh:ident, $atanh:ident) => {
        impl Float for $t {
            fn exp(self) -> Self {
                <$t>::exp(self)
            }
            fn ln(self) -> Self {
                <$t>::ln(self)
            }
            fn ln_1p(self) -> Self {
                <$t>::ln_1p(self)
            }
            fn exp_m1(self) -> Self {
                <$t>::exp_m1(self)
            }
            fn sin(self) -> Self {
                <$t>::sin(self)
            }
            fn cos(self) -> Self {
                <$t>::cos(self)
            }
            fn tan(self) -> Self {
                <$t>::tan(self)
            }
            fn tanh(self) -> Self {
                <$t>::tanh(self)
            }
            fn atan(self) -> Self {
                <$t>::atan(self)
            }
            fn asin(self) -> Self {
                <$t>::asin(self)
            }
            fn acos(self) -> Self {
                <$t>::acos(self)
            }
            fn asinh(self) -> Self {
                libm::$asinh(self)
            }
            fn acosh(self) -> Self {
                // The standard library's formula: 3.5x faster here than libm's acoshf.
                <$t>::acosh(self)
            }
            fn atanh(self) -> Self {
                libm::$atanh(self)
            }
            fn sinh(self) -> Self {
                <$t>::sinh(self)
            }
            fn cosh(self) -> Self {
                <$t>::cosh(self)
            }
            fn log2(self) -> Self {
                <$t>::log2(self)
            }
            fn log10(self) -> Self {
                <$t>::log10(self)
            }
            // The standard library's rounding is libm calls in a baseline (SSE2) build.
            fn trunc(self) -> Self {
                super::rounding::trunc(self)
            }
            fn floor(self) -> Self {
                super::rounding::floor(self)
            }
            fn ceil(self) -> Self {
                super::rounding::ceil(self)
            }
            fn rint(self) -> Self {
                super::rounding::rint(self)
            }
            fn abs(self) -> Self {
                <$t>::abs(self)
            }
            fn from_f64(value: f64) -> Self {
                value as $t
            }
            fn is_nan(self) -> bool {
                <$t>::is_nan(self)
            }
            fn is_infinite(self) -> bool {
                <$t>::is_infinite(self)
            }
        }
    };
}
float_impl!(f32, asinhf, atanhf);
float_impl!(f64, asinh, atanh);

/// numpy's function `op` of every value of `values` (elements of type `element`), in
/// `result` (the type [`UnaryOp::result_type`] or, for `clip`, the caller's).
pub fn apply(
    op: UnaryOp,
    element: &DataType,
    values: &ArrayRef,
    result: &DataType,
) -> Result<ArrayRef> {
    let unsupported = || TensorError::ElementType(element.to_string());
    match op {
        UnaryOp::IsNan | UnaryOp::IsInf | UnaryOp::IsFinite => {
            if let Some(out) = float_test(op, values) {
                return Ok(out);
            }
            // Integers and booleans are finite numbers.
            let bits = if op == UnaryOp::IsFinite {
                BooleanBuffer::new_set(values.len())
            } else {
                BooleanBuffer::new_unset(values.len())
            };
            return Ok(Arc::new(BooleanArray::new(bits, values.nulls().cloned())));
        }
        UnaryOp::LogicalNot => {
            let truth = cast(values, &DataType::Boolean)?;
            return Ok(Arc::new(not(truth.as_boolean())?));
        }
        UnaryOp::Signbit => return signbit(element, values).ok_or_else(unsupported),
        UnaryOp::Invert if *element == DataType::Boolean => {
            return Ok(Arc::new(not(values.as_boolean())?));
        }
        // `np.positive` is a copy: the values as they are.
        UnaryOp::Positive => return Ok(Arc::clone(values)),
        _ => {}
    }
    if *element == DataType::Boolean
        && matches!(
            op,
            UnaryOp::Abs | UnaryOp::Floor | UnaryOp::Ceil | UnaryOp::Trunc
        )
    {
        return Ok(Arc::clone(values));
    }
    // Booleans: as numpy's casts make them (0 and 1) in the result type, then the function.
    let input = if *element == DataType::Boolean
        || op.is_float_fn()
        || matches!(op, UnaryOp::Clip(..))
    {
        cast(values, result)?
    } else {
        Arc::clone(values)
    };
    let out: ArrayRef = match input.data_type() {
        DataType::Float16 => match vector_fn(op) {
            // numpy's half loops: the float32 function, rounded to half.
            Some(f) => {
                let input = input.as_primitive::<Float16Type>();
                let wide: Vec<f32> = input.values().iter().map(|v| v.to_f32()).collect();
                let values = super::vmath::map_f32(f, &wide);
                let values: Vec<f16> = values.into_iter().map(f16::from_f32).collect();
                Arc::new(PrimitiveArray::<Float16Type>::new(
                    values.into(),
                    input.nulls().cloned(),
                ))
            }
            None => Arc::new(map_float::<Float16Type, f32>(
                op,
                input.as_primitive(),
                f16::to_f32,
                f16::from_f32,
            )),
        },
        DataType::Float32 => match vector_fn(op) {
            Some(f) => {
                let input = input.as_primitive::<Float32Type>();
                let values = super::vmath::map_f32(f, input.values());
                Arc::new(PrimitiveArray::<Float32Type>::new(
                    values.into(),
                    input.nulls().cloned(),
                ))
            }
            None => Arc::new(map_float::<Float32Type, f32>(
                op,
                input.as_primitive(),
                |v| v,
                |v| v,
            )),
        },
        DataType::Float64 => Arc::new(map_float::<Float64Type, f64>(
            op,
            input.as_primitive(),
            |v| v,
            |v| v,
        )),
        DataType::Int8 => Arc::new(map_int::<Int8Type>(op, input.as_primitive())),
        DataType::Int16 => Arc::new(map_int::<Int16Type>(op, input.as_primitive())),
        DataType::Int32 => Arc::new(map_int::<Int32Type>(op, input.as_primitive())),
        DataType::Int64 => Arc::new(map_int::<Int64Type>(op, input.as_primitive())),
        DataType::UInt8 => Arc::new(map_int::<UInt8Type>(op, input.as_primitive())),
        DataType::UInt16 => Arc::new(map_int::<UInt16Type>(op, input.as_primitive())),
        DataType::UInt32 => Arc::new(map_int::<UInt32Type>(op, input.as_primitive())),
        DataType::UInt64 => Arc::new(map_int::<UInt64Type>(op, input.as_primitive())),
        _ => return Err(unsupported()),
    };
    Ok(out)
}

/// `isnan`, `isinf` or `isfinite` of float16, float32 and float64 values, read from their
/// buffer (`None` for other types).
fn float_test(op: UnaryOp, values: &ArrayRef) -> Option<ArrayRef> {
    fn each<P: ArrowPrimitiveType>(
        values: &PrimitiveArray<P>,
        test: impl Fn(P::Native) -> bool,
    ) -> ArrayRef {
        let bits = BooleanBuffer::collect_bool(values.len(), |i| test(values.values()[i]));
        Arc::new(BooleanArray::new(bits, values.nulls().cloned()))
    }
    macro_rules! tests {
        ($p:ty, $values:expr) => {{
            let values = $values.as_primitive::<$p>();
            match op {
                UnaryOp::IsNan => each(values, |v| v.is_nan()),
                UnaryOp::IsInf => each(values, |v| v.is_infinite()),
                _ => each(values, |v| v.is_finite()),
            }
        }};
    }
    Some(match values.data_type() {
        DataType::Float16 => tests!(Float16Type, values),
        DataType::Float32 => tests!(Float32Type, values),
        DataType::Float64 => tests!(Float64Type, values),
        _ => return None,
    })
}

/// The float32 vector kernel of `op` ([`super::vmath`]), if it has one (float16 runs it too).
fn vector_fn(op: UnaryOp) -> Option<super::vmath::Unary> {
    use super::vmath::Unary;
    Some(match op {
        UnaryOp::Exp => Unary::Exp,
        UnaryOp::Expm1 => Unary::ExpM1,
        UnaryOp::Log => Unary::Ln,
        UnaryOp::Log1p => Unary::Ln1p,
        UnaryOp::Log2 => Unary::Log2,
        UnaryOp::Log10 => Unary::Log10,
        UnaryOp::Sin => Unary::Sin,
        UnaryOp::Cos => Unary::Cos,
        UnaryOp::Tan => Unary::Tan,
        UnaryOp::Tanh => Unary::Tanh,
        UnaryOp::Sinh => Unary::Sinh,
        UnaryOp::Cosh => Unary::Cosh,
        UnaryOp::Arctan => Unary::Atan,
        UnaryOp::Arcsin => Unary::Asin,
        UnaryOp::Arccos => Unary::Acos,
        UnaryOp::Arcsinh => Unary::Asinh,
        UnaryOp::Arccosh => Unary::Acosh,
        UnaryOp::Arctanh => Unary::Atanh,
        _ => return None,
    })
}

/// A float op in loop type `A`, each value widened by `widen` and rounded back by `narrow`.
fn map_float<P: ArrowPrimitiveType, A: Float>(
    op: UnaryOp,
    input: &PrimitiveArray<P>,
    widen: impl Fn(P::Native) -> A,
    narrow: impl Fn(A) -> P::Native,
) -> PrimitiveArray<P> {
    let zero = A::ZERO;
    let one = A::ONE;
    // One loop per function, each inlined (a function pointer called per element would keep
    // `sqrt` and the rounding functions from vectorising).
    macro_rules! each {
        ($($op:ident => $f:ident),*) => {
            match op {
                $(UnaryOp::$op => return input.unary(|v| narrow(A::$f(widen(v)))),)*
                _ => {}
            }
        };
    }
    float_functions!(each);
    // A loop-type value rounded to the element type and widened again (numpy rounds every
    // intermediate of a half-precision `round` to half).
    let round = |v: A| widen(narrow(v));
    match op {
        UnaryOp::Negative => input.unary(|v| narrow(-widen(v))),
        UnaryOp::Abs => input.unary(|v| narrow(widen(v).abs())),
        UnaryOp::Sign => input.unary(|v| {
            let x = widen(v);
            narrow(if x > zero {
                one
            } else if x < zero {
                -one
            } else if x.is_nan() {
                x
            } else {
                zero
            })
        }),
        UnaryOp::Square => input.unary(|v| narrow(widen(v) * widen(v))),
        UnaryOp::Floor => input.unary(|v| narrow(widen(v).floor())),
        UnaryOp::Ceil => input.unary(|v| narrow(widen(v).ceil())),
        UnaryOp::Trunc => input.unary(|v| narrow(widen(v).trunc())),
        UnaryOp::Reciprocal => input.unary(|v| narrow(one / widen(v))),
        UnaryOp::Round(decimals) => {
            // numpy's PyArray_Round: x * 10^d, rint, / 10^d (for d < 0: / then *), each step
            // in the element type; 10^d a weak Python float, so in the element type too.
            let factor = round(A::from_f64(
                power_of_ten(decimals.unsigned_abs()),
            ));
            if decimals >= 0 {
                input.unary(|v| narrow(round(round(widen(v) * factor).rint()) / factor))
            } else {
                input.unary(|v| narrow(round(round(widen(v) / factor).rint()) * factor))
            }
        }
        UnaryOp::Clip(lo, hi) => {
            let lo = lo.map(|b| round(A::from_f64(b.as_f64())));
            let hi = hi.map(|b| round(A::from_f64(b.as_f64())));
            // numpy's _NPY_CLIP: minimum(maximum(x, lo), hi), NaN propagating from any side.
            input.unary(|v| {
                let mut x = widen(v);
                if let Some(lo) = lo
                    && !x.is_nan()
                    && (lo.is_nan() || x < lo)
                {
                    x = lo;
                }
                if let Some(hi) = hi
                    && !x.is_nan()
                    && (hi.is_nan() || x > hi)
                {
                    x = hi;
                }
                narrow(x)
            })
        }
        _ => input.clone(),
    }
}

/// Integer arithmetic of the integer ops (wrapping, as numpy overflows silently).
#[allow(clippy::return_self_not_must_use)]
trait Int: Copy + Ord {
    fn neg(self) -> Self;
    fn abs(self) -> Self;
    fn sign(self) -> Self;
    fn square(self) -> Self;
    /// `~x`.
    fn invert(self) -> Self;
    fn to_f64(self) -> f64;
    /// A float64 cast back as numpy's C cast does it on x86-64 (`cvttsd2si`: truncated, a
    /// value out of range the most negative integer of the instruction's width).
    fn from_f64(value: f64) -> Self;
    /// `value` clamped into this type's range.
    fn clamp_i128(value: i128) -> Self;
}

/// x86-64's `cvttsd2si` to 32 bits.
fn truncate_i32(value: f64) -> i32 {
    // Exclusive at both ends: -2^31 - 1 truncates out of range.
    if value > -2_147_483_649.0 && value < 2_147_483_648.0 {
        value as i32
    } else {
        i32::MIN
    }
}

/// x86-64's `cvttsd2si` to 64 bits.
fn truncate_i64(value: f64) -> i64 {
    if (-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&value) {
        value as i64
    } else {
        i64::MIN
    }
}

/// C's double to uint64 on x86-64: values from 2^63 up shifted down, converted, and the top
/// bit set again.
fn truncate_u64(value: f64) -> u64 {
    const TOP: f64 = 9_223_372_036_854_775_808.0;
    if value < TOP {
        truncate_i64(value) as u64
    } else {
        (truncate_i64(value - TOP) as u64) ^ (1 << 63)
    }
}

macro_rules! int_impl {
    ($t:ty, $abs:expr, $sign:expr, $from:expr) => {
        #[allow(clippy::cast_lossless)] // i64 and u64 have no lossless f64 From.
        impl Int for $t {
            fn neg(self) -> Self {
                self.wrapping_neg()
            }
            fn abs(self) -> Self {
                $abs(self)
            }
            fn sign(self) -> Self {
                $sign(self)
            }
            fn square(self) -> Self {
                self.wrapping_mul(self)
            }
            fn invert(self) -> Self {
                !self
            }
            fn to_f64(self) -> f64 {
                self as f64
            }
            fn from_f64(value: f64) -> Self {
                $from(value) as $t
            }
            fn clamp_i128(value: i128) -> Self {
                value.clamp(i128::from(<$t>::MIN), i128::from(<$t>::MAX)) as $t
            }
        }
    };
}
int_impl!(i8, i8::wrapping_abs, i8::signum, truncate_i32);
int_impl!(i16, i16::wrapping_abs, i16::signum, truncate_i32);
int_impl!(i32, i32::wrapping_abs, i32::signum, truncate_i32);
int_impl!(i64, i64::wrapping_abs, i64::signum, truncate_i64);
int_impl!(u8, |v| v, |v: u8| u8::from(v > 0), truncate_i32);
int_impl!(u16, |v| v, |v: u16| u16::from(v > 0), truncate_i32);
int_impl!(u32, |v| v, |v: u32| u32::from(v > 0), truncate_i64);
int_impl!(u64, |v| v, |v: u64| u64::from(v > 0), truncate_u64);

/// An integer op (the float functions never reach it: their input is cast to a float).
fn map_int<P: ArrowPrimitiveType>(op: UnaryOp, input: &PrimitiveArray<P>) -> PrimitiveArray<P>
where
    P::Native: Int,
{
    match op {
        UnaryOp::Negative => input.unary(Int::neg),
        UnaryOp::Abs => input.unary(Int::abs),
        UnaryOp::Sign => input.unary(Int::sign),
        UnaryOp::Square => input.unary(Int::square),
        // numpy's integer loop: `1.0 / x` in double, cast back as C casts (1 / 0 is the
        // cast of infinity: the most negative int32 or int64, 0 for narrower types).
        UnaryOp::Reciprocal => input.unary(|v| Int::from_f64(1.0 / v.to_f64())),
        UnaryOp::Invert => input.unary(Int::invert),
        UnaryOp::Round(decimals) if decimals < 0 => {
            // numpy: true_divide by 10^-d into float64, rint, multiply, cast back.
            let factor = power_of_ten(decimals.unsigned_abs());
            input.unary(|v| Int::from_f64((v.to_f64() / factor).round_ties_even() * factor))
        }
        UnaryOp::Clip(lo, hi) => {
            let bound = |b: Option<Bound>| match b {
                Some(Bound::Int(v)) => Some(<P::Native as Int>::clamp_i128(v)),
                _ => None,
            };
            let (lo, hi) = (bound(lo), bound(hi));
            input.unary(|v| {
                let v = lo.map_or(v, |lo| v.max(lo));
                hi.map_or(v, |hi| v.min(hi))
            })
        }
        // floor, ceil and round to d >= 0 decimals keep an integer (numpy 2).
        _ => input.clone(),
    }
}

/// `np.signbit` of `element`s: the float sign bit as stored (-0.0 and a negative NaN have
/// it), `x < 0` for integers, false for booleans; element NULLs kept. `None` for a type with
/// no elements of these kinds.
fn signbit(element: &DataType, values: &ArrayRef) -> Option<ArrayRef> {
    fn test<P: ArrowPrimitiveType>(
        values: &ArrayRef,
        f: impl Fn(P::Native) -> bool,
    ) -> Option<ArrayRef> {
        let values = values.as_primitive_opt::<P>()?;
        let bits = crate::kernels::bits::pack_map(values.values(), f);
        Some(Arc::new(BooleanArray::new(bits, values.nulls().cloned())))
    }
    match element {
        DataType::Float16 => test::<Float16Type>(values, f16::is_sign_negative),
        DataType::Float32 => test::<Float32Type>(values, f32::is_sign_negative),
        DataType::Float64 => test::<Float64Type>(values, f64::is_sign_negative),
        DataType::Int8 => test::<Int8Type>(values, |v| v < 0),
        DataType::Int16 => test::<Int16Type>(values, |v| v < 0),
        DataType::Int32 => test::<Int32Type>(values, |v| v < 0),
        DataType::Int64 => test::<Int64Type>(values, |v| v < 0),
        DataType::Boolean
        | DataType::UInt8
        | DataType::UInt16
        | DataType::UInt32
        | DataType::UInt64 => {
            let zeros = arrow::buffer::BooleanBuffer::new_unset(values.len());
            Some(Arc::new(BooleanArray::new(zeros, values.nulls().cloned())))
        }
        _ => None,
    }
}
