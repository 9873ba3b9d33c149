//! The float32 transcendental functions, each computed in float64 and rounded once: every
//! float32 is a normal float64, and no float32 operand overflows a float64 square, so the
//! float64 formulas need no scaling, and a float64 result good to about 1e-13 relative rounds
//! to the float32 nearest the true value but in rare near-halfway cases (within half an ulp
//! more; numpy's own float32 loops are within 1-4 ulps).
//!
//! Every function is branch-free: special values (NaN, infinities, zeros, the ends of a
//! domain) are selected after the arithmetic, so the loops over a buffer vectorise (with the
//! instruction set [`super::super::simd::Level`] picks). No FMA: every level gives the same
//! bits. The polynomials are Taylor series cut where the next term is below 1e-13 of the
//! result, except the sine, cosine and tangent kernels, which are FreeBSD's float ones
//! (`k_sinf.c`, `k_cosf.c`, `k_tanf.c`, evaluated in double there too), after musl's
//! argument reduction (`__rem_pio2f`'s medium-size path; larger arguments go to the scalar
//! libm: [`TRIG_LIMIT`]).

// Constants as published; the formulas' own letters (fdlibm's names); C's exact special values
// (`x == y`, `u == 1`, `!(x > 0)` to catch NaN with zero and negatives).
#![allow(
    clippy::excessive_precision,
    clippy::unreadable_literal,
    clippy::many_single_char_names,
    clippy::float_cmp,
    clippy::neg_cmp_op_on_partial_ord
)]

use crate::kernels::elementwise::ops::divmod_f32;
use crate::kernels::rounding::{rint, trunc};
use std::f64::consts::{FRAC_2_PI, FRAC_PI_2, FRAC_PI_4, LN_2, LOG2_E, LOG10_2, LOG10_E, PI, SQRT_2};

/// 1.5 * 2^52: `x + MAGIC - MAGIC` rounds `x` to an integer (|x| < 2^51), and the integer is
/// then the low bits of `(x + MAGIC).to_bits()`.
const MAGIC: f64 = 6_755_399_441_055_744.0;
const MAGIC_BITS: u64 = 0x4338_0000_0000_0000;
/// ln 2 in two parts (fdlibm's `ln2_hi`, `ln2_lo`): `k * LN2_HI` is exact for |k| < 2^20.
const LN2_HI: f64 = 6.931_471_803_691_238_164_90e-1;
const LN2_LO: f64 = 1.908_214_929_270_587_700_02e-10;

/// `2^k` for an integer-valued `k` in [-1022, 1023], from its bits.
#[inline(always)]
fn pow2(k: f64) -> f64 {
    let k_bits = (k + MAGIC).to_bits().wrapping_sub(MAGIC_BITS);
    f64::from_bits(k_bits.wrapping_add(1023) << 52)
}

/// Horner's rule, highest coefficient last.
#[inline(always)]
fn horner<const N: usize>(x: f64, coefficients: [f64; N]) -> f64 {
    let mut p = 0.0;
    let mut i = N;
    while i > 0 {
        i -= 1;
        p = p * x + coefficients[i];
    }
    p
}

/// `1 / n!` for n = `from`, `from + 1`, ...
const fn inverse_factorials<const N: usize>(from: usize) -> [f64; N] {
    let mut out = [0.0; N];
    let mut factorial = 1.0;
    let mut n = 2;
    while n <= from {
        factorial *= n as f64;
        n += 1;
    }
    let mut i = 0;
    while i < N {
        if i > 0 {
            factorial *= (from + i) as f64;
        }
        out[i] = 1.0 / factorial;
        i += 1;
    }
    out
}

/// `1 / (2k + 1)` with alternating signs, k = 0, 1, ... (atan's series).
const fn atan_series<const N: usize>() -> [f64; N] {
    let mut out = [0.0; N];
    let mut k = 0;
    while k < N {
        let term = 1.0 / (2 * k + 1) as f64;
        out[k] = if k % 2 == 0 { term } else { -term };
        k += 1;
    }
    out
}

/// `1 / (2k + 1)`, k = 0, 1, ... (2 atanh(s) / s's series).
const fn atanh_series<const N: usize>() -> [f64; N] {
    let mut out = [0.0; N];
    let mut k = 0;
    while k < N {
        out[k] = 1.0 / (2 * k + 1) as f64;
        k += 1;
    }
    out
}

/// e^r on |r| <= ln2 / 2: the series to r^10 (the next term under 3e-13).
const EXP_SERIES: [f64; 11] = inverse_factorials(0);
/// (e^x - 1) / x on |x| < 0.5: the series to x^10 (the next term under 2e-12).
const EXPM1_SERIES: [f64; 11] = inverse_factorials(1);
/// 2 atanh(s) / s on |s| <= 0.1716 (s^2 <= 0.0295): to s^12 (the next term under 2e-12).
const LN_SERIES: [f64; 7] = atanh_series();
/// atan(v) / v on |v| <= tan(pi / 8): to v^26 (the next term under 7e-13).
const ATAN_SERIES: [f64; 14] = atan_series();
/// tan(pi / 8) and tan(3 pi / 8).
const TAN_PI_8: f64 = 0.414_213_562_373_095_03;
const TAN_3PI_8: f64 = 2.414_213_562_373_095;

/// `e^x` in float64 (0 below -708, about 8.2e307 above 709: past float32's range both ways).
#[inline(always)]
pub(super) fn exp64(x: f64) -> f64 {
    let x = x.clamp(-708.0, 709.0); // NaN stays NaN
    let k = rint(x * LOG2_E);
    let r = (x - k * LN2_HI) - k * LN2_LO;
    horner(r, EXP_SERIES) * pow2(k)
}

/// `e^x - 1` in float64, relative-exact near 0.
#[inline(always)]
fn expm1_64(x: f64) -> f64 {
    let near = x * horner(x, EXPM1_SERIES);
    let far = exp64(x) - 1.0;
    if x.abs() < 0.5 { near } else { far }
}

/// `x = 2^e * m`, m in [sqrt(1/2), sqrt(2)): `(e, ln m)`, for a positive normal float64.
#[inline(always)]
fn ln_parts(x: f64) -> (f64, f64) {
    let bits = x.to_bits();
    let biased = f64::from_bits(MAGIC_BITS | ((bits >> 52) & 0x7ff)) - MAGIC;
    let m = f64::from_bits((bits & 0x000f_ffff_ffff_ffff) | 0x3ff0_0000_0000_0000);
    let big = m > SQRT_2;
    let m = if big { m * 0.5 } else { m };
    let e = biased - if big { 1022.0 } else { 1023.0 };
    let f = m - 1.0;
    let s = f / (2.0 + f);
    (e, 2.0 * s * horner(s * s, LN_SERIES))
}

/// A logarithm from [`ln_parts`], with C's values at 0 (-inf), below it and NaN (NaN) and
/// +inf (+inf).
#[inline(always)]
fn log_with(x: f64, combine: impl Fn(f64, f64) -> f64) -> f64 {
    let (e, ln_m) = ln_parts(x);
    let r = combine(e, ln_m);
    if !(x > 0.0) {
        if x == 0.0 { f64::NEG_INFINITY } else { f64::NAN }
    } else if x == f64::INFINITY {
        x
    } else {
        r
    }
}

/// The natural logarithm in float64 (of a normal float64, zero, a negative, NaN or inf).
#[inline(always)]
pub(super) fn ln64(x: f64) -> f64 {
    log_with(x, |e, ln_m| e * LN2_HI + (e * LN2_LO + ln_m))
}

/// `ln(1 + x)` in float64, relative-exact near 0 (Goldberg's `x * ln(u) / (u - 1)`).
#[inline(always)]
fn ln1p64(x: f64) -> f64 {
    let u = 1.0 + x;
    let r = ln64(u) * (x / (u - 1.0));
    if u == 1.0 || x == f64::INFINITY { x } else { r }
}

/// `atan(a)` for `a >= 0` (or NaN), with Cephes' reduction to |v| <= tan(pi/8) in one
/// division: `pi/2 + atan(-1/a)` past tan(3pi/8), `pi/4 + atan((a - 1) / (a + 1))` past
/// tan(pi/8).
#[inline(always)]
fn atan_positive(a: f64) -> f64 {
    let (numerator, denominator, base) = if a > TAN_3PI_8 {
        (-1.0, a, FRAC_PI_2)
    } else if a > TAN_PI_8 {
        (a - 1.0, a + 1.0, FRAC_PI_4)
    } else {
        (a, 1.0, 0.0)
    };
    let v = numerator / denominator;
    base + v * horner(v * v, ATAN_SERIES)
}

/// `atan(x)` in float64, any sign.
#[inline(always)]
fn atan64(x: f64) -> f64 {
    atan_positive(x.abs()).copysign(x)
}

/// `e^x`.
#[inline(always)]
pub(crate) fn exp(x: f32) -> f32 {
    exp64(f64::from(x)) as f32
}

/// `e^x - 1`.
#[inline(always)]
pub(crate) fn exp_m1(x: f32) -> f32 {
    expm1_64(f64::from(x)) as f32
}

/// The natural logarithm.
#[inline(always)]
pub(crate) fn ln(x: f32) -> f32 {
    ln64(f64::from(x)) as f32
}

/// `ln(1 + x)`.
#[inline(always)]
pub(crate) fn ln_1p(x: f32) -> f32 {
    ln1p64(f64::from(x)) as f32
}

/// The base-2 logarithm (exact at powers of two).
#[inline(always)]
pub(crate) fn log2(x: f32) -> f32 {
    log_with(f64::from(x), |e, ln_m| e + ln_m * LOG2_E) as f32
}

/// The base-10 logarithm.
#[inline(always)]
pub(crate) fn log10(x: f32) -> f32 {
    log_with(f64::from(x), |e, ln_m| e * LOG10_2 + ln_m * LOG10_E) as f32
}

/// Past this magnitude (2^28 pi/2, musl's bound of its medium-size reduction), infinities
/// included, the sine, cosine and tangent are the scalar libm's (NaN stays NaN in the
/// kernels).
pub(crate) const TRIG_LIMIT: f32 = f32::from_bits(0x4dc9_0fdb);

/// `x - n pi/2` in [-pi/4, pi/4] (about) and n's low two bits (musl's `__rem_pio2f` for
/// |x| < [`TRIG_LIMIT`]: "25+53 bit pi is good enough for medium size").
#[inline(always)]
fn reduce(x: f32) -> (f64, u64) {
    const PIO2_1: f64 = 1.57079631090164184570e+00;
    const PIO2_1T: f64 = 1.58932547735281966916e-08;
    let x = f64::from(x);
    let t = x * FRAC_2_PI + MAGIC;
    let n = t - MAGIC;
    (x - n * PIO2_1 - n * PIO2_1T, t.to_bits() & 3)
}

/// FreeBSD's `__kernel_sindf`: sin(x) on |x| <= pi/4, |sin(x)/x - s(x)| < 2^-37.5.
#[inline(always)]
fn sin_kernel(x: f64) -> f64 {
    const S1: f64 = -0.166666666416265235595;
    const S2: f64 = 0.0083333293858894631756;
    const S3: f64 = -0.000198393348360966317347;
    const S4: f64 = 0.0000027183114939898219064;
    let z = x * x;
    let w = z * z;
    let r = S3 + z * S4;
    let s = z * x;
    (x + s * (S1 + z * S2)) + s * w * r
}

/// FreeBSD's `__kernel_cosdf`: cos(x) on |x| <= pi/4, |cos(x) - c(x)| < 2^-34.1.
#[inline(always)]
fn cos_kernel(x: f64) -> f64 {
    const C0: f64 = -0.499999997251031003120;
    const C1: f64 = 0.0416666233237390631894;
    const C2: f64 = -0.00138867637746099294692;
    const C3: f64 = 0.0000243904487962774090654;
    let z = x * x;
    let w = z * z;
    let r = C2 + z * C3;
    ((1.0 + z * C0) + w * C1) + (w * z) * r
}

/// FreeBSD's `__kernel_tandf`: tan(x) on |x| <= pi/4, |tan(x)/x - t(x)| < 2^-25.5.
#[inline(always)]
fn tan_kernel(x: f64) -> f64 {
    const T: [f64; 6] = [
        0.333331395030791399758,
        0.133392002712976742718,
        0.0533812378445670393523,
        0.0245283181166547278873,
        0.00297435743359967304927,
        0.00946564784943673166728,
    ];
    let z = x * x;
    let r = T[4] + z * T[5];
    let t = T[2] + z * T[3];
    let w = z * z;
    let s = z * x;
    let u = T[0] + z * T[1];
    (x + s * u) + (s * w) * (t + w * r)
}

/// Below this magnitude sin(x) and tan(x) round to x (musl returns x there, keeping -0).
const TINY: f32 = 1.0 / 4096.0;

/// The sine, for |x| < [`TRIG_LIMIT`] and NaN.
#[inline(always)]
pub(crate) fn sin(x: f32) -> f32 {
    let (y, n) = reduce(x);
    let (s, c) = (sin_kernel(y), cos_kernel(y));
    // n = 0, 1, 2, 3: s, c, -s, -c (selects, not a jump: the loop vectorises).
    let r = if n & 1 == 0 { s } else { c };
    let r = if n & 2 == 0 { r } else { -r };
    if x.abs() < TINY { x } else { r as f32 }
}

/// The cosine, for |x| < [`TRIG_LIMIT`] and NaN.
#[inline(always)]
pub(crate) fn cos(x: f32) -> f32 {
    let (y, n) = reduce(x);
    let (s, c) = (sin_kernel(y), cos_kernel(y));
    // n = 0, 1, 2, 3: c, -s, -c, s.
    let r = if n & 1 == 0 { c } else { s };
    let r = if (n + 1) & 2 == 0 { r } else { -r };
    r as f32
}

/// The tangent, for |x| < [`TRIG_LIMIT`] and NaN.
#[inline(always)]
pub(crate) fn tan(x: f32) -> f32 {
    let (y, n) = reduce(x);
    let t = tan_kernel(y);
    let r = if n & 1 == 1 { -1.0 / t } else { t };
    if x.abs() < TINY { x } else { r as f32 }
}

/// The hyperbolic tangent: `e / (e + 2)` with `e = e^(2|x|) - 1`, exact near 0.
#[inline(always)]
pub(crate) fn tanh(x: f32) -> f32 {
    let a = f64::from(x).abs();
    // tanh is 1 in float32 well before 20.
    let a = if a > 20.0 { 20.0 } else { a };
    let e = expm1_64(2.0 * a);
    ((e / (e + 2.0)).copysign(f64::from(x))) as f32
}

/// The hyperbolic sine: `(e + e / (e + 1)) / 2` with `e = e^|x| - 1`, exact near 0.
#[inline(always)]
pub(crate) fn sinh(x: f32) -> f32 {
    let e = expm1_64(f64::from(x).abs());
    ((0.5 * (e + e / (e + 1.0))).copysign(f64::from(x))) as f32
}

/// The hyperbolic cosine.
#[inline(always)]
pub(crate) fn cosh(x: f32) -> f32 {
    let e = exp64(f64::from(x).abs());
    (0.5 * (e + 1.0 / e)) as f32
}

/// The arctangent.
#[inline(always)]
pub(crate) fn atan(x: f32) -> f32 {
    atan64(f64::from(x)) as f32
}

/// The arcsine: `atan(x / sqrt((1 - x)(1 + x)))`.
#[inline(always)]
pub(crate) fn asin(x: f32) -> f32 {
    let x = f64::from(x);
    let a = x.abs();
    (atan_positive(a / ((1.0 - a) * (1.0 + a)).sqrt()).copysign(x)) as f32
}

/// The arccosine: `2 atan(sqrt((1 - x) / (1 + x)))`.
#[inline(always)]
pub(crate) fn acos(x: f32) -> f32 {
    let x = f64::from(x);
    (2.0 * atan_positive(((1.0 - x) / (1.0 + x)).sqrt())) as f32
}

/// The inverse hyperbolic sine: `ln1p(a + a^2 / (1 + sqrt(1 + a^2)))`, a = |x|.
#[inline(always)]
pub(crate) fn asinh(x: f32) -> f32 {
    let x = f64::from(x);
    let a = x.abs();
    let square = a * a;
    let r = ln1p64(a + square / (1.0 + (1.0 + square).sqrt()));
    let r = if a == f64::INFINITY { a } else { r };
    r.copysign(x) as f32
}

/// The inverse hyperbolic cosine: `ln1p(t + sqrt(2t + t^2))`, t = x - 1 (exact).
#[inline(always)]
pub(crate) fn acosh(x: f32) -> f32 {
    let t = f64::from(x) - 1.0;
    let r = ln1p64(t + (2.0 * t + t * t).sqrt());
    if t < 0.0 { f32::NAN } else { r as f32 }
}

/// The inverse hyperbolic tangent: `ln1p(2a / (1 - a)) / 2`, a = |x|.
#[inline(always)]
pub(crate) fn atanh(x: f32) -> f32 {
    let x = f64::from(x);
    let a = x.abs();
    ((0.5 * ln1p64(2.0 * a / (1.0 - a))).copysign(x)) as f32
}

/// C's `atan2(y, x)`, with its values at zeros and infinities.
#[inline(always)]
pub(crate) fn atan2(y: f32, x: f32) -> f32 {
    let (y, x) = (f64::from(y), f64::from(x));
    // x < 0 and x = -0 add pi towards y's side: atan(y / -0) = -+pi/2 becomes +-pi/2.
    let left = x.is_sign_negative();
    let r = atan64(y / x);
    let r = if left { r + PI.copysign(y) } else { r };
    let zeros = x == 0.0 && y == 0.0;
    let infinities = x.abs() == f64::INFINITY && y.abs() == f64::INFINITY;
    let corner = match (left, infinities) {
        (false, false) => 0.0,
        (false, true) => FRAC_PI_4,
        (true, false) => PI,
        (true, true) => 3.0 * FRAC_PI_4,
    };
    (if zeros || infinities { corner.copysign(y) } else { r }) as f32
}

/// `sqrt(x^2 + y^2)` (exact squares in float64), inf where either is infinite (NaN or not).
#[inline(always)]
pub(crate) fn hypot(x: f32, y: f32) -> f32 {
    let (x, y) = (f64::from(x), f64::from(y));
    let r = (x * x + y * y).sqrt();
    (if x.abs() == f64::INFINITY || y.abs() == f64::INFINITY {
        f64::INFINITY
    } else {
        r
    }) as f32
}

/// numpy's `npy_logaddexp`: `m + ln1p(e^-|x - y|)`, m the larger; `x + ln 2` where equal
/// (infinities of one sign).
#[inline(always)]
pub(crate) fn logaddexp(x: f32, y: f32) -> f32 {
    let (x, y) = (f64::from(x), f64::from(y));
    let d = x - y;
    let m = if d > 0.0 { x } else { y };
    let r = m + ln1p64(exp64(-d.abs()));
    (if x == y { x + LN_2 } else { r }) as f32
}

/// numpy's `npy_logaddexp2`: `m + log2(1 + 2^-|x - y|)`; `x + 1` where equal.
#[inline(always)]
pub(crate) fn logaddexp2(x: f32, y: f32) -> f32 {
    let (x, y) = (f64::from(x), f64::from(y));
    let d = x - y;
    let m = if d > 0.0 { x } else { y };
    let r = m + ln1p64(exp64(-d.abs() * LN_2)) * LOG2_E;
    (if x == y { x + 1.0 } else { r }) as f32
}

/// Whether a float64 holds an integer (infinities count: their powers are even).
#[inline(always)]
fn is_integer(v: f64) -> bool {
    rint(v) == v
}

/// C's `pow(x, y)`: `e^(y ln|x|)`, negative for a negative `x` and an odd integer `y`, with
/// C's special values (1 for `y = 0` or `x = 1`, even with NaN; NaN for a finite negative `x`
/// and a non-integer `y`; 1 for `x = -1` and an infinite `y`). `y` = 1, 2 and -1 give `x`,
/// `x * x` and `1 / x` correctly rounded (exact, or one float64 operation rounded to float32),
/// as the correctly rounded libm and numpy's scalar-exponent fast paths do: the series could
/// round an exact halfway square the other way.
#[inline(always)]
pub(crate) fn pow(x: f32, y: f32) -> f32 {
    let (x, y) = (f64::from(x), f64::from(y));
    let a = x.abs();
    let r = exp64(y * ln64(a));
    let odd = is_integer(y) && !is_integer(y * 0.5);
    let r = if x.is_sign_negative() && odd { -r } else { r };
    let r = if x < 0.0 && x > f64::NEG_INFINITY && !is_integer(y) { f64::NAN } else { r };
    let r = if y == 2.0 {
        x * x
    } else if y == 1.0 {
        x
    } else if y == -1.0 {
        1.0 / x
    } else {
        r
    };
    (if y == 0.0 || x == 1.0 || (a == 1.0 && y.abs() == f64::INFINITY) {
        1.0
    } else {
        r
    }) as f32
}

/// C's `nextafter(x, y)` on float32's bits: the next value after `x` towards `y` (`y` where
/// equal, NaN where either is; from a zero, the smallest subnormal on `y`'s side).
#[inline(always)]
pub(crate) fn nextafter(x: f32, y: f32) -> f32 {
    let bits = x.to_bits();
    // Away from zero when y lies further out on x's side, else towards it.
    let away = (y > x) == (x > 0.0);
    let stepped = if away { bits.wrapping_add(1) } else { bits.wrapping_sub(1) };
    let from_zero = if y > x { 1 } else { 0x8000_0001 };
    let r = f32::from_bits(if x == 0.0 { from_zero } else { stepped });
    if x.is_nan() || y.is_nan() {
        f32::NAN
    } else if x == y {
        y
    } else {
        r
    }
}

/// Whether [`fmod`] (and so [`floor_divide`] and [`remainder`]) is exact for these operands:
/// both finite, `y` not zero, and |x / y| under 2^29 (the quotient times `y` then fits
/// float64's 53 bits). Elsewhere the caller takes the scalar C function's value.
#[inline(always)]
pub(crate) fn fmod_in_range(x: f32, y: f32) -> bool {
    let (a, b) = (f64::from(x).abs(), f64::from(y).abs());
    b < f64::INFINITY && a < 536_870_912.0 * b
}

/// C's `fmod(x, y)`, exact where [`fmod_in_range`]: the truncated quotient `q` of |x| / |y|
/// (corrected by one where the float64 division rounded across an integer), then
/// `|x| - q |y|`, exact in float64, with `x`'s sign.
#[inline(always)]
pub(crate) fn fmod(x: f32, y: f32) -> f32 {
    let (a, b) = (f64::from(x).abs(), f64::from(y).abs());
    let q = trunc(a / b);
    let r = a - q * b;
    let r = if r < 0.0 {
        r + b
    } else if r >= b {
        r - b
    } else {
        r
    };
    (r as f32).copysign(x)
}

/// numpy's `floor_divide` of float32 (`npy_divmod` on [`fmod`]), where [`fmod_in_range`].
#[inline(always)]
pub(crate) fn floor_divide(x: f32, y: f32) -> f32 {
    divmod_f32(x, y, fmod(x, y)).0
}

/// numpy's `remainder` of float32 (`npy_divmod` on [`fmod`]), where [`fmod_in_range`].
#[inline(always)]
pub(crate) fn remainder(x: f32, y: f32) -> f32 {
    divmod_f32(x, y, fmod(x, y)).1
}
