//! Indexed updates (JAX `x.at[idx].op(y)`) and filled gathers over a whole batch.
//!
//! The output starts as a copy of `x`'s row-major values; every occurrence of the index then
//! combines one element of `y` into one element of the output, in row-major order of the
//! broadcast index, so duplicates accumulate and the last `set` wins (spec.md §5). Where the
//! occurrences come from is a [`Targets`]: the same compiled list for every row (a static
//! index), or per-row window starts (a dynamic index) with a static window.
//!
//! The combining function is a generic closure, so each element type and operation is its own
//! monomorphised loop: no per-element dispatch.

use half::f16;

use crate::index::DROPPED;

/// Arithmetic on tensor elements the way the updates need it: integer operations checked (an
/// overflow is an error here, where JAX wraps), float ones IEEE.
pub trait Element: Copy + PartialOrd + Default + Send + Sync + 'static {
    /// The multiplicative identity.
    const ONE: Self;
    /// Whether this is a float type.
    const IS_FLOAT: bool;
    /// `-a`, `None` on integer overflow (any non-zero unsigned value).
    fn neg(a: Self) -> Option<Self>;
    /// `|a|`, `None` on integer overflow.
    fn abs(a: Self) -> Option<Self>;
    /// -1, 0 or 1 (NaN for NaN).
    fn sign(a: Self) -> Self;
    /// `v` rounded to this type (floats; integers truncate, unused).
    fn from_f64(v: f64) -> Self;
    /// `a + b`, `None` on integer overflow.
    fn add(a: Self, b: Self) -> Option<Self>;
    /// `a - b`, `None` on integer overflow.
    fn sub(a: Self, b: Self) -> Option<Self>;
    /// `a * b`, `None` on integer overflow.
    fn mul(a: Self, b: Self) -> Option<Self>;
    /// `a ** b`; `None` on integer overflow or a negative integer exponent.
    fn pow(a: Self, b: Self) -> Option<Self>;
    /// Whether the value is a float NaN.
    fn is_nan(self) -> bool;
    /// Whether the value is a float with its sign bit set (`-0.0` included); never for integers.
    #[inline]
    fn sign_bit(self) -> bool {
        false
    }
    /// `a` as `f64` (for integer true division).
    fn to_f64(self) -> f64;

    /// The smaller value; NaN if either is, and `-0.0` below `0.0` (JAX `min`).
    #[inline]
    fn min(a: Self, b: Self) -> Self {
        if a.is_nan() {
            a
        } else if b.is_nan() || b < a || (b == a && b.sign_bit()) {
            b
        } else {
            a
        }
    }

    /// The larger value; NaN if either is, and `0.0` above `-0.0` (JAX `max`).
    #[inline]
    fn max(a: Self, b: Self) -> Self {
        if a.is_nan() {
            a
        } else if b.is_nan() || b > a || (b == a && !b.sign_bit()) {
            b
        } else {
            a
        }
    }
}

macro_rules! int_element {
    ($($t:ty),*) => {$(
        impl Element for $t {
            const ONE: Self = 1;
            const IS_FLOAT: bool = false;
            #[inline]
            fn neg(a: Self) -> Option<Self> {
                (0 as $t).checked_sub(a)
            }
            #[inline]
            #[allow(unused_comparisons)]
            fn abs(a: Self) -> Option<Self> {
                if a < 0 { (0 as $t).checked_sub(a) } else { Some(a) }
            }
            #[inline]
            #[allow(unused_comparisons)]
            fn sign(a: Self) -> Self {
                if a > 0 { 1 } else if a < 0 { (0 as $t).wrapping_sub(1) } else { 0 }
            }
            #[inline]
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            fn from_f64(v: f64) -> Self {
                v as $t
            }
            #[inline]
            fn add(a: Self, b: Self) -> Option<Self> {
                a.checked_add(b)
            }
            #[inline]
            fn sub(a: Self, b: Self) -> Option<Self> {
                a.checked_sub(b)
            }
            #[inline]
            fn mul(a: Self, b: Self) -> Option<Self> {
                a.checked_mul(b)
            }
            #[inline]
            #[allow(unused_comparisons)]
            fn pow(a: Self, b: Self) -> Option<Self> {
                // numpy: "Integers to negative integer powers are not allowed."
                if b < 0 {
                    return None;
                }
                match u32::try_from(b) {
                    Ok(e) => a.checked_pow(e),
                    // |a| <= 1 survives any exponent; anything else overflows.
                    Err(_) => match a {
                        0 | 1 => Some(a),
                        _ if a == (0 as $t).wrapping_sub(1) => {
                            Some(if b % 2 == 0 { 1 } else { a })
                        }
                        _ => None,
                    },
                }
            }
            #[inline]
            fn is_nan(self) -> bool {
                false
            }
            #[inline]
            #[allow(clippy::cast_lossless)]
            fn to_f64(self) -> f64 {
                self as f64
            }
        }
    )*};
}

int_element!(i8, i16, i32, i64, u8, u16, u32, u64);

macro_rules! float_element {
    ($($t:ty),*) => {$(
        impl Element for $t {
            const ONE: Self = 1.0;
            const IS_FLOAT: bool = true;
            #[inline]
            fn neg(a: Self) -> Option<Self> {
                Some(-a)
            }
            #[inline]
            fn abs(a: Self) -> Option<Self> {
                Some(a.abs())
            }
            #[inline]
            fn sign(a: Self) -> Self {
                if a > 0.0 { 1.0 } else if a < 0.0 { -1.0 } else { a }
            }
            #[inline]
            #[allow(clippy::cast_possible_truncation)]
            fn from_f64(v: f64) -> Self {
                v as $t
            }
            #[inline]
            fn add(a: Self, b: Self) -> Option<Self> {
                Some(a + b)
            }
            #[inline]
            fn sub(a: Self, b: Self) -> Option<Self> {
                Some(a - b)
            }
            #[inline]
            fn mul(a: Self, b: Self) -> Option<Self> {
                Some(a * b)
            }
            #[inline]
            fn pow(a: Self, b: Self) -> Option<Self> {
                Some(a.powf(b))
            }
            #[inline]
            fn is_nan(self) -> bool {
                <$t>::is_nan(self)
            }
            #[inline]
            fn sign_bit(self) -> bool {
                <$t>::is_sign_negative(self)
            }
            #[inline]
            #[allow(clippy::cast_lossless)]
            fn to_f64(self) -> f64 {
                self as f64
            }
        }
    )*};
}

float_element!(f32, f64);

impl Element for f16 {
    const ONE: Self = f16::ONE;
    const IS_FLOAT: bool = true;
    #[inline]
    fn neg(a: Self) -> Option<Self> {
        Some(-a)
    }
    #[inline]
    fn abs(a: Self) -> Option<Self> {
        Some(if a.is_sign_negative() { -a } else { a })
    }
    #[inline]
    fn sign(a: Self) -> Self {
        if a > f16::ZERO {
            f16::ONE
        } else if a < f16::ZERO {
            f16::NEG_ONE
        } else {
            a
        }
    }
    #[inline]
    fn from_f64(v: f64) -> Self {
        f16::from_f64(v)
    }
    #[inline]
    fn add(a: Self, b: Self) -> Option<Self> {
        Some(a + b)
    }
    #[inline]
    fn sub(a: Self, b: Self) -> Option<Self> {
        Some(a - b)
    }
    #[inline]
    fn mul(a: Self, b: Self) -> Option<Self> {
        Some(a * b)
    }
    #[inline]
    fn pow(a: Self, b: Self) -> Option<Self> {
        // Computed in f32 and rounded once, as XLA does for half precision on CPU.
        Some(f16::from_f32(a.to_f32().powf(b.to_f32())))
    }
    #[inline]
    fn is_nan(self) -> bool {
        f16::is_nan(self)
    }
    #[inline]
    fn sign_bit(self) -> bool {
        f16::is_sign_negative(self)
    }
    #[inline]
    fn to_f64(self) -> f64 {
        f16::to_f64(self)
    }
}

/// Which output element each occurrence of the index updates, and which element of `y` it
/// reads.
#[derive(Debug, Clone, Copy)]
pub enum Targets<'a> {
    /// The same occurrences for every row: row-relative output offsets and `y` offsets.
    Static {
        /// Output offset of each occurrence.
        targets: &'a [u32],
        /// `y` offset of each occurrence.
        sources: &'a [u32],
    },
    /// `m` windows per row: `starts[row * m + j]` is where window `j` begins in the row (or
    /// [`DROPPED`]); the window's elements are at `window` from there. Occurrence `(j, w)`
    /// reads `y` at `j * y_step + y_window[w]`.
    Windows {
        /// Window starts, `m` per row.
        starts: &'a [usize],
        /// Windows per row.
        m: usize,
        /// Offsets of a window's elements from its start.
        window: &'a [u32],
        /// `y` offset of each window element.
        y_window: &'a [u32],
        /// `y` offset between consecutive windows (0 when `y` broadcasts over them).
        y_step: usize,
    },
}

/// The values combined into the output.
#[derive(Debug, Clone, Copy)]
pub enum Values<'a, T> {
    /// One value for every occurrence of every row.
    Scalar(T),
    /// `len` values per row.
    Rows {
        /// The values, `len` per row.
        values: &'a [T],
        /// Values per row.
        len: usize,
    },
}

/// The row at which a combination failed (an integer overflow).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FailedRow(pub usize);

/// Combines `y` into `out` (`rows` rows of `row_len` elements) at every occurrence of
/// `targets`, in order; rows where `skip` is true are left alone. `combine(current, y)`
/// returns the new element, or `None` to fail at that row — unless `valid` (the final validity
/// of `out`, by flat position) says the element ends NULL, in which case its value does not
/// matter and it keeps it. The failure branch is the cold one: `valid` costs nothing in the loop.
///
/// # Errors
/// The first row where `combine` returned `None` for an element that ends valid.
#[allow(clippy::too_many_arguments)]
pub fn scatter<T: Copy, F: Fn(T, T) -> Option<T>>(
    out: &mut [T],
    row_len: usize,
    rows: usize,
    skip: impl Fn(usize) -> bool,
    targets: Targets<'_>,
    y: Values<'_, T>,
    combine: F,
    valid: Option<&[bool]>,
) -> Result<(), FailedRow> {
    if row_len == 0 {
        return Ok(());
    }
    let combine = |row: usize, at: usize, slot: &mut T, v: T| -> Result<(), FailedRow> {
        match combine(*slot, v) {
            Some(r) => *slot = r,
            None if valid.is_some_and(|v| !v[row * row_len + at]) => {}
            None => return Err(FailedRow(row)),
        }
        Ok(())
    };
    for (row, dst) in out.chunks_exact_mut(row_len).take(rows).enumerate() {
        if skip(row) {
            continue;
        }
        match (targets, y) {
            (Targets::Static { targets, .. }, Values::Scalar(v)) => {
                for &t in targets {
                    combine(row, t as usize, &mut dst[t as usize], v)?;
                }
            }
            (Targets::Static { targets, sources }, Values::Rows { values, len }) => {
                let src = &values[row * len..(row + 1) * len];
                for (&t, &s) in targets.iter().zip(sources) {
                    combine(row, t as usize, &mut dst[t as usize], src[s as usize])?;
                }
            }
            (
                Targets::Windows {
                    starts,
                    m,
                    window,
                    y_window,
                    y_step,
                },
                y,
            ) => {
                for (j, &start) in starts[row * m..(row + 1) * m].iter().enumerate() {
                    if start == DROPPED {
                        continue;
                    }
                    let dst = &mut dst[start..];
                    match y {
                        Values::Scalar(v) => {
                            for &w in window {
                                let at = start + w as usize;
                                combine(row, at, &mut dst[w as usize], v)?;
                            }
                        }
                        Values::Rows { values, len } => {
                            let src = &values[row * len + j * y_step..];
                            for (&w, &s) in window.iter().zip(y_window) {
                                let at = start + w as usize;
                                combine(row, at, &mut dst[w as usize], src[s as usize])?;
                            }
                        }
                    }
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duplicates_accumulate_in_order() {
        let mut out = vec![0i32, 0, 0, 10, 10, 10];
        let targets = [0u32, 0, 2];
        let sources = [0u32, 1, 2];
        scatter(
            &mut out,
            3,
            2,
            |_| false,
            Targets::Static {
                targets: &targets,
                sources: &sources,
            },
            Values::Rows {
                values: &[1, 2, 3, 4, 5, 6],
                len: 3,
            },
            i32::add,
            None,
        )
        .unwrap();
        assert_eq!(out, vec![3, 0, 3, 19, 10, 16]);
        // set: the last occurrence wins
        let mut out = vec![0i32; 3];
        scatter(
            &mut out,
            3,
            1,
            |_| false,
            Targets::Static {
                targets: &targets,
                sources: &sources,
            },
            Values::Rows {
                values: &[1, 2, 3],
                len: 3,
            },
            |_, y| Some(y),
            None,
        )
        .unwrap();
        assert_eq!(out, vec![2, 0, 3]);
    }

    #[test]
    fn overflow_names_the_row() {
        let mut out = vec![0i8, 100, 0, 120];
        let result = scatter(
            &mut out,
            2,
            2,
            |_| false,
            Targets::Static {
                targets: &[1],
                sources: &[0],
            },
            Values::Scalar(10),
            i8::add,
            None,
        );
        assert_eq!(result, Err(FailedRow(1)));
    }

    #[test]
    fn windows_skip_dropped() {
        let mut out = vec![0.0f32; 6];
        let starts = [0usize, DROPPED, 1, 0];
        scatter(
            &mut out,
            3,
            2,
            |_| false,
            Targets::Windows {
                starts: &starts,
                m: 2,
                window: &[0, 1],
                y_window: &[0, 1],
                y_step: 0,
            },
            Values::Scalar(1.0),
            f32::add,
            None,
        )
        .unwrap();
        assert_eq!(out, vec![1.0, 1.0, 0.0, 1.0, 2.0, 1.0]);
    }

    #[test]
    fn nan_propagates_through_min_and_max() {
        assert!(Element::min(f32::NAN, 1.0).is_nan());
        assert!(Element::min(1.0, f32::NAN).is_nan());
        assert!(Element::max(1.0f64, f64::NAN).is_nan());
        // JAX orders -0.0 below 0.0 whichever comes first.
        for (a, b) in [(-0.0f32, 0.0), (0.0, -0.0)] {
            assert!(!Element::max(a, b).is_sign_negative());
            assert!(Element::min(a, b).is_sign_negative());
        }
        assert!(!Element::max(f16::NEG_ZERO, f16::ZERO).is_sign_negative());
        assert!(Element::min(f16::ZERO, f16::NEG_ZERO).is_sign_negative());
        assert_eq!(Element::max(1i32, 2), 2);
        assert_eq!(<i32 as Element>::pow(2, -1), None);
        assert_eq!(<i64 as Element>::pow(-1, 1 << 40), Some(1));
        assert_eq!(<i64 as Element>::pow(2, 1 << 40), None);
    }
}
