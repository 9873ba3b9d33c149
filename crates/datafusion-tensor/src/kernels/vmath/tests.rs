#![allow(clippy::float_cmp)] // C's exact special values

use super::*;

/// Test values: every special value, the ends of the domains, and pseudo-random ones over
/// the whole float32 range (random bits) and over [-12, 12].
fn values() -> Vec<f32> {
    let mut out = vec![
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        -0.5,
        2.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        f32::MIN_POSITIVE,
        1e-45,
        -1e-45,
        f32::MAX,
        f32::MIN,
        1e-8,
        88.7,
        89.0,
        -103.9,
        -104.0,
        710.0,
        std::f32::consts::FRAC_PI_2,
        std::f32::consts::PI,
        1.0e8,
        float32::TRIG_LIMIT,
        -float32::TRIG_LIMIT,
        1.0e30,
        0.999_999_94,
        1.000_000_1,
    ];
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for _ in 0..4000 {
        out.push(f32::from_bits((next() >> 32) as u32));
    }
    for _ in 0..4000 {
        out.push(((next() >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * 24.0);
    }
    for _ in 0..1000 {
        out.push(((next() >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * 2.2);
    }
    out
}

/// The distance in ulps of two float32 values (0 for two NaN; `u64::MAX` for a NaN and a
/// number).
fn ulps(a: f32, b: f32) -> u64 {
    if a.is_nan() || b.is_nan() {
        return if a.is_nan() && b.is_nan() { 0 } else { u64::MAX };
    }
    // Ordered integers: the bits of a negative value reflected below zero.
    let ordered = |v: f32| {
        let bits = i64::from(v.to_bits() as i32);
        if bits < 0 { i64::from(i32::MIN) - bits } else { bits }
    };
    ordered(a).abs_diff(ordered(b))
}

/// The same bits, or both NaN (a NaN's sign and payload differ between scalar and vector
/// instructions; numpy does not define them either).
fn same_bits(a: f32, b: f32) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

fn unary_reference(f: Unary) -> fn(f64) -> f64 {
    match f {
        Unary::Exp => f64::exp,
        Unary::ExpM1 => f64::exp_m1,
        Unary::Ln => f64::ln,
        Unary::Ln1p => f64::ln_1p,
        Unary::Log2 => f64::log2,
        Unary::Log10 => f64::log10,
        Unary::Sin => f64::sin,
        Unary::Cos => f64::cos,
        Unary::Tan => f64::tan,
        Unary::Tanh => f64::tanh,
        Unary::Sinh => f64::sinh,
        Unary::Cosh => f64::cosh,
        Unary::Atan => f64::atan,
        Unary::Asin => f64::asin,
        Unary::Acos => f64::acos,
        Unary::Asinh => f64::asinh,
        Unary::Acosh => f64::acosh,
        Unary::Atanh => f64::atanh,
    }
}

const UNARY: [Unary; 18] = [
    Unary::Exp,
    Unary::ExpM1,
    Unary::Ln,
    Unary::Ln1p,
    Unary::Log2,
    Unary::Log10,
    Unary::Sin,
    Unary::Cos,
    Unary::Tan,
    Unary::Tanh,
    Unary::Sinh,
    Unary::Cosh,
    Unary::Atan,
    Unary::Asin,
    Unary::Acos,
    Unary::Asinh,
    Unary::Acosh,
    Unary::Atanh,
];

/// Each function within one float32 ulp of the float64 libm's value rounded to float32 (the
/// same zero sign, infinities and NaN), at every level this machine has, each level giving
/// the portable loop's bits.
#[test]
fn unary_functions_round_the_float64_values() {
    let xs = values();
    for f in UNARY {
        let reference = unary_reference(f);
        let portable = map_f32_at(Level::Portable, f, &xs);
        for (&x, &got) in xs.iter().zip(&portable) {
            let want = reference(f64::from(x)) as f32;
            let close = ulps(got, want) <= 1 && (got != 0.0 || got.to_bits() == want.to_bits());
            assert!(close, "{f:?}({x:e}) = {got:e}, float64 libm {want:e}");
        }
        for level in Level::available() {
            let got = map_f32_at(level, f, &xs);
            let same = got.iter().zip(&portable).all(|(&a, &b)| same_bits(a, b));
            assert!(same, "{f:?} at {level:?} differs from the portable loop");
        }
    }
}

fn binary_reference(f: Binary) -> fn(f64, f64) -> f64 {
    match f {
        Binary::Atan2 => f64::atan2,
        Binary::Hypot => f64::hypot,
        Binary::Pow => f64::powf,
        // The float32 step, in float64 for the signature (exact both ways).
        // The scalar loops' values (C's fmod, numpy's npy_divmod), in float64 for the
        // signature (exact both ways).
        Binary::Fmod => |x, y| f64::from(x as f32 % y as f32),
        Binary::FloorDivide => |x, y| {
            use crate::kernels::elementwise::ops::NumpyElement;
            f64::from((x as f32).np_floor_div(y as f32))
        },
        Binary::Remainder => |x, y| {
            use crate::kernels::elementwise::ops::NumpyElement;
            f64::from((x as f32).np_rem(y as f32))
        },
        Binary::Nextafter => |x, y| {
            use crate::kernels::elementwise::more_ops::MoreOps;
            let f = f32::more_op(crate::kernels::elementwise::BinaryOp::Nextafter).unwrap();
            f64::from(f(x as f32, y as f32))
        },
        Binary::Logaddexp => |x, y| {
            if x == y {
                x + std::f64::consts::LN_2
            } else {
                let m = x.max(y);
                if (x - y).is_nan() { x - y } else { m + (-(x - y).abs()).exp().ln_1p() }
            }
        },
        Binary::Logaddexp2 => |x, y| {
            if x == y {
                x + 1.0
            } else {
                let m = x.max(y);
                if (x - y).is_nan() {
                    x - y
                } else {
                    m + (-(x - y).abs()).exp2().ln_1p() * std::f64::consts::LOG2_E
                }
            }
        },
    }
}

const BINARY: [Binary; 9] = [
    Binary::Atan2,
    Binary::Hypot,
    Binary::Logaddexp,
    Binary::Logaddexp2,
    Binary::Pow,
    Binary::Nextafter,
    Binary::Fmod,
    Binary::FloorDivide,
    Binary::Remainder,
];

/// The binary functions against the float64 libm's values rounded (C's special values
/// included: every pair of the special values is among the pairs), at every level.
#[test]
fn binary_functions_round_the_float64_values() {
    let xs = values();
    let specials = &xs[..29];
    let mut pairs: Vec<(f32, f32)> = specials
        .iter()
        .flat_map(|&x| specials.iter().map(move |&y| (x, y)))
        .collect();
    pairs.extend(xs.iter().zip(xs.iter().rev()).map(|(&x, &y)| (x, y)));
    // Powers of moderate bases and exponents (most random pairs overflow or vanish).
    pairs.extend(xs[29..].iter().zip(&xs[4100..]).map(|(&x, &y)| (x.abs() % 40.0, y)));
    pairs.extend(xs[4100..].iter().map(|&x| (-3.0, x.round())));
    // Squares, reciprocals and first powers (exact halfway squares among them: 1 + 2^-12).
    for y in [2.0, 1.0, -1.0] {
        pairs.extend(xs.iter().map(|&x| (x, y)));
        pairs.push((1.0 + 1.0 / 4096.0, y));
    }
    // Quotients of every size up to 2^29 and past it (the remainders' fallback).
    pairs.extend(xs[4029..8029].iter().zip(&xs[8029..]).map(|(&x, &y)| (x, y)));
    pairs.extend(xs[4029..8029].iter().zip(&xs[8029..]).map(|(&x, &y)| (x * 1e7, y)));
    let (a, b): (Vec<f32>, Vec<f32>) = pairs.into_iter().unzip();
    for f in BINARY {
        let reference = binary_reference(f);
        let portable = map2_at(Level::Portable, f, &a, &b);
        for ((&x, &y), &got) in a.iter().zip(&b).zip(&portable) {
            if f.needs_range() && !float32::fmod_in_range(x, y) {
                continue;
            }
            let want = reference(f64::from(x), f64::from(y)) as f32;
            // The exact functions exact, the others within an ulp.
            let exact = f.needs_range()
                || f == Binary::Nextafter
                || (f == Binary::Pow && [1.0, 2.0, -1.0].contains(&y));
            let tolerance = u64::from(!exact);
            let close =
                ulps(got, want) <= tolerance && (got != 0.0 || got.to_bits() == want.to_bits());
            assert!(close, "{f:?}({x:e}, {y:e}) = {got:e}, reference {want:e}");
        }
        for level in Level::available() {
            let got = map2_at(level, f, &a, &b);
            let same = got.iter().zip(&portable).all(|(&g, &p)| same_bits(g, p));
            assert!(same, "{f:?} at {level:?} differs from the portable loop");
        }
    }
}

/// A binary function over two equal-length buffers at `level`.
fn map2_at(level: Level, f: Binary, a: &[f32], b: &[f32]) -> Vec<f32> {
    let mut values = Vec::new();
    let out = &mut values;
    at_level!(level, fn(f: Binary, a: &[f32], b: &[f32], out: &mut Vec<f32>) -> () {
        with_binary!(f, crate::kernels::simd::extend_zip { out, a, b });
    });
    values
}

#[test]
#[ignore = "timing, by hand"]
fn timing() {
    let xs: Vec<f32> = (0..10_000_000).map(|i| (i % 1000) as f32 / 100.0 - 5.0).collect();
    let copy = std::time::Instant::now();
    let copied: Vec<f32> = xs.iter().map(|x| x + 1.0).collect();
    eprintln!("copy {:?} {}", copy.elapsed(), copied.len());
    for f in UNARY {
        for level in Level::available() {
            let mut best = std::time::Duration::MAX;
            for _ in 0..3 {
                let t = std::time::Instant::now();
                let out = map_f32_at(level, f, &xs);
                best = best.min(t.elapsed());
                assert!(out.len() == xs.len());
            }
            eprintln!("{f:?} {level:?} {best:?}");
        }
    }
    let ys: Vec<f32> = xs.iter().rev().copied().collect();
    for f in BINARY {
        for level in Level::available() {
            let mut best = std::time::Duration::MAX;
            for _ in 0..3 {
                let t = std::time::Instant::now();
                let out = map2_at(level, f, &xs, &ys);
                best = best.min(t.elapsed());
                assert!(out.len() == xs.len());
            }
            eprintln!("{f:?} {level:?} {best:?}");
        }
    }
}
