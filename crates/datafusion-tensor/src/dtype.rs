//! Element-type promotion, the one place every function takes it from.
//!
//! numpy's rules (`np.promote_types`, NEP 50 for Python scalars):
//! - strong types (tensor elements, numeric columns) promote as `np.promote_types` does:
//!   booleans give way to numbers, signed and unsigned integers meet in the next signed type
//!   wide enough for both (`uint64` with a signed type is `float64`), an integer with a float
//!   needs a float wide enough for the integer (`int16` with `float16` is `float32`);
//! - literals are weak: they take the strong type of their kind or wider (an integer literal
//!   with `float32` tensors is `float32`, a float literal with integer tensors makes `float64`),
//!   and must be representable in it. numpy wraps some silently; here that is a plan error.

use arrow::datatypes::DataType;
use datafusion::common::ScalarValue;

/// The broad kind of an element type, in promotion order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Bool,
    Unsigned,
    Signed,
    Float,
}

fn kind_bits(data_type: &DataType) -> Option<(Kind, u32)> {
    Some(match data_type {
        DataType::Boolean => (Kind::Bool, 1),
        DataType::UInt8 => (Kind::Unsigned, 8),
        DataType::UInt16 => (Kind::Unsigned, 16),
        DataType::UInt32 => (Kind::Unsigned, 32),
        DataType::UInt64 => (Kind::Unsigned, 64),
        DataType::Int8 => (Kind::Signed, 8),
        DataType::Int16 => (Kind::Signed, 16),
        DataType::Int32 => (Kind::Signed, 32),
        DataType::Int64 => (Kind::Signed, 64),
        DataType::Float16 => (Kind::Float, 16),
        DataType::Float32 => (Kind::Float, 32),
        DataType::Float64 => (Kind::Float, 64),
        _ => return None,
    })
}

fn signed(bits: u32) -> DataType {
    match bits {
        8 => DataType::Int8,
        16 => DataType::Int16,
        32 => DataType::Int32,
        _ => DataType::Int64,
    }
}

fn unsigned(bits: u32) -> DataType {
    match bits {
        8 => DataType::UInt8,
        16 => DataType::UInt16,
        32 => DataType::UInt32,
        _ => DataType::UInt64,
    }
}

fn float(bits: u32) -> DataType {
    match bits {
        16 => DataType::Float16,
        32 => DataType::Float32,
        _ => DataType::Float64,
    }
}

/// numpy's `np.promote_types(a, b)` for the tensor element types; `None` when either is not
/// one.
pub fn promote(a: &DataType, b: &DataType) -> Option<DataType> {
    let (ka, ba) = kind_bits(a)?;
    let (kb, bb) = kind_bits(b)?;
    let ((k_lo, b_lo), (k_hi, b_hi)) = if ka <= kb {
        ((ka, ba), (kb, bb))
    } else {
        ((kb, bb), (ka, ba))
    };
    Some(match (k_lo, k_hi) {
        (_, Kind::Bool) => DataType::Boolean,
        (Kind::Bool, _) => b_hi_type(k_hi, b_hi),
        (Kind::Unsigned, Kind::Unsigned) => unsigned(b_lo.max(b_hi)),
        (Kind::Signed, Kind::Signed) => signed(b_lo.max(b_hi)),
        (Kind::Float, Kind::Float) => float(b_lo.max(b_hi)),
        (Kind::Unsigned, Kind::Signed) => {
            // A signed type holds an unsigned one only if strictly wider.
            if b_hi > b_lo {
                signed(b_hi)
            } else if b_lo < 64 {
                signed(b_lo * 2)
            } else {
                DataType::Float64
            }
        }
        (Kind::Unsigned | Kind::Signed, Kind::Float) => {
            // The float must hold every integer of the other type: 8-bit needs float16,
            // 16-bit float32, wider float64.
            let needed = match b_lo {
                8 => 16,
                16 => 32,
                _ => 64,
            };
            float(b_hi.max(needed))
        }
        (Kind::Float, _) | (Kind::Signed, Kind::Unsigned) => unreachable_order(),
    })
}

fn b_hi_type(kind: Kind, bits: u32) -> DataType {
    match kind {
        Kind::Bool => DataType::Boolean,
        Kind::Unsigned => unsigned(bits),
        Kind::Signed => signed(bits),
        Kind::Float => float(bits),
    }
}

/// The pairs are ordered by kind, so these never occur; `Float64` keeps the function total.
fn unreachable_order() -> DataType {
    DataType::Float64
}

/// The kind of a literal for weak promotion (NEP 50's Python scalars).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LiteralKind {
    /// `true` / `false`.
    Bool,
    /// An integer literal.
    Int,
    /// A floating-point literal.
    Float,
}

/// The kind of a literal value, if it is a number or a boolean.
pub fn literal_kind(value: &ScalarValue) -> Option<LiteralKind> {
    let data_type = value.data_type();
    match kind_bits(&data_type)?.0 {
        Kind::Bool => Some(LiteralKind::Bool),
        Kind::Signed | Kind::Unsigned => Some(LiteralKind::Int),
        Kind::Float => Some(LiteralKind::Float),
    }
}

/// The result type of strong types and weak literal kinds (NEP 50): the strong types promote;
/// a literal of a higher kind lifts it to that kind's default (`Int64`, `Float64`). Literals
/// alone give their kinds' defaults.
pub fn result_type(strong: &[DataType], literals: &[LiteralKind]) -> Option<DataType> {
    let mut out: Option<DataType> = None;
    for data_type in strong {
        out = Some(match out {
            None => data_type.clone(),
            Some(current) => promote(&current, data_type)?,
        });
    }
    let highest = literals.iter().map(|k| match k {
        LiteralKind::Bool => 0,
        LiteralKind::Int => 1,
        LiteralKind::Float => 2,
    });
    let highest = highest.max();
    match (out, highest) {
        (None, None) => None,
        (None, Some(0)) => Some(DataType::Boolean),
        (None, Some(1)) => Some(DataType::Int64),
        (None, Some(_)) => Some(DataType::Float64),
        (Some(t), None | Some(0)) => Some(t),
        (Some(t), Some(1)) => Some(if t == DataType::Boolean {
            DataType::Int64
        } else {
            t
        }),
        (Some(t), Some(_)) => Some(if matches!(kind_bits(&t), Some((Kind::Float, _))) {
            t
        } else {
            DataType::Float64
        }),
    }
}

/// Arrow cast options that fail instead of turning a value the target cannot hold into NULL
/// (the default, "safe" cast would make a `UInt64` above `i64::MAX` a NULL, i.e. lose it).
pub fn strict_cast() -> arrow::compute::CastOptions<'static> {
    arrow::compute::CastOptions {
        safe: false,
        ..Default::default()
    }
}

/// `value` converted to `target`, or `None` when it is not representable there: an integer
/// out of the target integer type's range, a number into Boolean, a value overflowing a float
/// type. Floats round to the nearest value of a narrower float type, as numpy's weak scalars
/// do (`0.1` in a float32 tensor is float32's `0.1`).
pub fn cast_literal(value: &ScalarValue, target: &DataType) -> Option<ScalarValue> {
    if value.is_null() {
        return ScalarValue::try_from(target).ok();
    }
    if &value.data_type() == target {
        return Some(value.clone());
    }
    if *target == DataType::Boolean {
        return None;
    }
    let strict = strict_cast();
    let cast = value.cast_to_with_options(target, &strict).ok()?;
    if target.is_integer() {
        // Exact: the value comes back unchanged (a strict cast already refuses overflow).
        let back = cast
            .cast_to_with_options(&value.data_type(), &strict)
            .ok()?;
        return (back == *value).then_some(cast);
    }
    // Floats that overflow become infinities in a cast.
    let finite = |v: &ScalarValue| match v {
        ScalarValue::Float16(Some(x)) => x.is_finite(),
        ScalarValue::Float32(Some(x)) => x.is_finite(),
        ScalarValue::Float64(Some(x)) => x.is_finite(),
        _ => true,
    };
    (!finite(value) || finite(&cast)).then_some(cast)
}

#[cfg(test)]
mod tests {
    use super::*;
    use DataType::*;

    #[test]
    fn promotion_matches_numpy() {
        // Expected values: numpy 2.4 np.promote_types.
        let cases = [
            (Int8, Int16, Int16),
            (UInt8, Int8, Int16),
            (UInt16, Int16, Int32),
            (UInt32, Int32, Int64),
            (UInt64, Int64, Float64),
            (UInt8, Int32, Int32),
            (UInt64, UInt8, UInt64),
            (Int8, Float16, Float16),
            (UInt8, Float16, Float16),
            (Int16, Float16, Float32),
            (Int32, Float16, Float64),
            (Int16, Float32, Float32),
            (Int32, Float32, Float64),
            (Int64, Float32, Float64),
            (Float16, Float32, Float32),
            (Boolean, Int8, Int8),
            (Boolean, Float16, Float16),
            (Boolean, Boolean, Boolean),
        ];
        for (a, b, want) in cases {
            assert_eq!(promote(&a, &b), Some(want.clone()), "{a} {b}");
            assert_eq!(promote(&b, &a), Some(want), "{b} {a}");
        }
        assert_eq!(promote(&Utf8, &Int8), None);
    }

    #[test]
    fn weak_literals() {
        use LiteralKind::*;
        assert_eq!(result_type(&[Float32], &[Int]), Some(Float32));
        assert_eq!(result_type(&[Int8], &[Int]), Some(Int8));
        assert_eq!(result_type(&[Int8], &[Float]), Some(Float64));
        assert_eq!(result_type(&[Float16], &[Float]), Some(Float16));
        assert_eq!(result_type(&[Boolean], &[Int]), Some(Int64));
        assert_eq!(result_type(&[Boolean], &[Bool]), Some(Boolean));
        assert_eq!(result_type(&[], &[Int, Int]), Some(Int64));
        assert_eq!(result_type(&[], &[Int, Float]), Some(Float64));
        assert_eq!(result_type(&[], &[Bool]), Some(Boolean));
        assert_eq!(result_type(&[], &[]), None);
    }

    #[test]
    fn literals_must_fit() {
        let fits = |v: ScalarValue, t: DataType| cast_literal(&v, &t);
        assert_eq!(
            fits(ScalarValue::Int64(Some(100)), Int8),
            Some(ScalarValue::Int8(Some(100)))
        );
        assert_eq!(fits(ScalarValue::Int64(Some(300)), Int8), None);
        assert_eq!(fits(ScalarValue::Int64(Some(-1)), UInt8), None);
        assert_eq!(fits(ScalarValue::Float64(Some(2.5)), Int32), None);
        assert_eq!(
            fits(ScalarValue::Int64(Some(16_777_217)), Float32),
            Some(ScalarValue::Float32(Some(16_777_216.0)))
        );
        assert_eq!(fits(ScalarValue::Int64(Some(70_000)), Float16), None);
        assert_eq!(fits(ScalarValue::Float64(Some(1e300)), Float32), None);
        assert_eq!(
            fits(ScalarValue::Float64(Some(0.5)), Float32),
            Some(ScalarValue::Float32(Some(0.5)))
        );
        assert_eq!(
            fits(ScalarValue::Float64(Some(0.1)), Float32),
            Some(ScalarValue::Float32(Some(0.1)))
        );
        assert_eq!(
            fits(ScalarValue::Float64(Some(f64::NAN)), Float32).map(|v| v.is_null()),
            Some(false)
        );
        assert_eq!(
            fits(ScalarValue::Boolean(Some(true)), Int8),
            Some(ScalarValue::Int8(Some(1)))
        );
        assert_eq!(fits(ScalarValue::Int64(Some(1)), Boolean), None);
    }
}
