//! Vectorised math: the transcendental functions of float32 buffers as branch-free loops
//! ([`float32`]), compiled once per instruction set and run with the best the CPU has
//! ([`crate::kernels::simd`]): one buffer in, one buffer out, two, four or eight float64
//! lanes at a time, where a scalar libm call per element took 3-13x the scan (docs/src/benchmarks/
//! elementwise.md). float16's unary functions run through the float32 kernels (numpy's
//! half loops compute in float32 too); float64, and float16's binary functions, keep the
//! scalar loops of `kernels::unary` and `kernels::elementwise`.

pub(crate) mod float32;

use super::simd::{Level, at_level, extend_map};

/// The unary functions with a float32 kernel here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Unary {
    Exp,
    ExpM1,
    Ln,
    Ln1p,
    Log2,
    Log10,
    Sin,
    Cos,
    Tan,
    Tanh,
    Sinh,
    Cosh,
    Atan,
    Asin,
    Acos,
    Asinh,
    Acosh,
    Atanh,
}

/// The binary functions with a float32 kernel here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Binary {
    Atan2,
    Hypot,
    Logaddexp,
    Logaddexp2,
    Pow,
    Nextafter,
    /// C's `fmod`; this and the next two only where [`float32::fmod_in_range`].
    Fmod,
    FloorDivide,
    Remainder,
}

impl Binary {
    /// Whether the kernel is exact only where [`float32::fmod_in_range`] says so.
    pub(crate) fn needs_range(self) -> bool {
        matches!(self, Self::Fmod | Self::FloorDivide | Self::Remainder)
    }
}

/// `f` of every value, at the best level this CPU runs.
pub(crate) fn map_f32(f: Unary, xs: &[f32]) -> Vec<f32> {
    map_f32_at(Level::best(), f, xs)
}

/// [`map_f32`] at `level`.
pub(crate) fn map_f32_at(level: Level, f: Unary, xs: &[f32]) -> Vec<f32> {
    let mut values = Vec::with_capacity(xs.len());
    let out = &mut values;
    at_level!(level, fn(f: Unary, xs: &[f32], out: &mut Vec<f32>) -> () {
        fill(f, xs, out);
    });
    values
}

/// The loop of [`map_f32_at`], one per function (each element function a generic argument,
/// inlined: through a function pointer the loops would not vectorise).
#[inline(always)]
fn fill(f: Unary, xs: &[f32], out: &mut Vec<f32>) {
    use float32 as k;
    // Each element function called directly in an inlined closure (passed as a function
    // item it is called through a shim the compiler does not inline, and nothing vectorises).
    macro_rules! each {
        ($($op:ident => $g:path),*) => {
            match f {
                $(Unary::$op => extend_map(out, xs, #[inline(always)] |x| $g(x)),)*
                Unary::Sin => trigonometric(xs, out, #[inline(always)] |x| k::sin(x), f32::sin),
                Unary::Cos => trigonometric(xs, out, #[inline(always)] |x| k::cos(x), f32::cos),
                Unary::Tan => trigonometric(xs, out, #[inline(always)] |x| k::tan(x), f32::tan),
            }
        };
    }
    each!(
        Exp => k::exp,
        ExpM1 => k::exp_m1,
        Ln => k::ln,
        Ln1p => k::ln_1p,
        Log2 => k::log2,
        Log10 => k::log10,
        Tanh => k::tanh,
        Sinh => k::sinh,
        Cosh => k::cosh,
        Atan => k::atan,
        Asin => k::asin,
        Acos => k::acos,
        Asinh => k::asinh,
        Acosh => k::acosh,
        Atanh => k::atanh
    );
}

/// A trigonometric function: the vector kernel over a block, then the scalar libm's value
/// where an argument is past the kernel's reduction ([`float32::TRIG_LIMIT`], infinities).
#[inline(always)]
fn trigonometric(
    xs: &[f32],
    out: &mut Vec<f32>,
    kernel: impl Fn(f32) -> f32 + Copy,
    scalar: impl Fn(f32) -> f32,
) {
    for block in xs.chunks(4096) {
        let start = out.len();
        extend_map(out, block, kernel);
        if block.iter().fold(false, |far, x| far | (x.abs() >= float32::TRIG_LIMIT)) {
            for (o, &x) in out[start..].iter_mut().zip(block) {
                if x.abs() >= float32::TRIG_LIMIT {
                    *o = scalar(x);
                }
            }
        }
    }
}

/// `with_binary!(f, function { arguments, ... })`: `function` called with the arguments and, last,
/// the element function of [`Binary`] `f` as an inlined closure (so each arm's loop inlines
/// it; passed as a function item it is called through a shim that is not).
macro_rules! with_binary {
    ($f:expr, $func:path { $($arg:expr),* }) => {{
        use $crate::kernels::vmath::{Binary, float32};
        match $f {
            Binary::Atan2 => $func($($arg,)* #[inline(always)] |x, y| float32::atan2(x, y)),
            Binary::Hypot => $func($($arg,)* #[inline(always)] |x, y| float32::hypot(x, y)),
            Binary::Logaddexp => {
                $func($($arg,)* #[inline(always)] |x, y| float32::logaddexp(x, y))
            }
            Binary::Logaddexp2 => {
                $func($($arg,)* #[inline(always)] |x, y| float32::logaddexp2(x, y))
            }
            Binary::Pow => $func($($arg,)* #[inline(always)] |x, y| float32::pow(x, y)),
            Binary::Nextafter => {
                $func($($arg,)* #[inline(always)] |x, y| float32::nextafter(x, y))
            }
            Binary::Fmod => $func($($arg,)* #[inline(always)] |x, y| float32::fmod(x, y)),
            Binary::FloorDivide => {
                $func($($arg,)* #[inline(always)] |x, y| float32::floor_divide(x, y))
            }
            Binary::Remainder => {
                $func($($arg,)* #[inline(always)] |x, y| float32::remainder(x, y))
            }
        }
    }};
}
pub(crate) use with_binary;

#[cfg(test)]
mod tests;
