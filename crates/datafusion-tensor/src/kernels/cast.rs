//! numpy's `astype` with its default (`unsafe`) casting, element by element over a whole
//! values buffer: integers wrap (C's conversion), booleans are `x != 0` (NaN true), and floats
//! become integers as numpy 2 does on x86-64 (its C casts compile to `cvttsd2si`): truncation
//! towards zero, and a value out of range, NaN or an infinity gives the conversion's
//! "integer indefinite" value, `i32::MIN` through 32 bits for the types up to 32 bits
//! (then wrapped: 0 for int8/int16/uint8/uint16) and `i64::MIN` for 64 bits; unsigned 32
//! and 64 bits subtract 2^31 / 2^63 first from values at or above it (`float16` to uint32
//! converts through 64 bits). arrow's own cast kernel serves where it gives numpy's values:
//! to and from floats and booleans (its float-to-integer cast gives NULL or an error on
//! overflow, and saturates, where numpy wraps).

use std::sync::Arc;

use arrow::array::{
    Array, ArrayRef, AsArray, Int8Array, Int16Array, Int32Array, Int64Array, PrimitiveArray,
    UInt8Array, UInt16Array, UInt32Array, UInt64Array,
};
use arrow::compute::cast;
use arrow::datatypes::{
    DataType, Float16Type, Float64Type, Int8Type, Int16Type, Int32Type, Int64Type, UInt8Type,
    UInt16Type, UInt32Type, UInt64Type,
};

use crate::error::{Result, TensorError};

const TWO_31: f64 = 2_147_483_648.0;
const TWO_63: f64 = 9_223_372_036_854_775_808.0;

/// `cvttsd2si` to 32 bits: truncation, or `i32::MIN` when out of range or NaN.
fn cvt32(x: f64) -> i32 {
    if x > -TWO_31 - 1.0 && x < TWO_31 {
        x as i32
    } else {
        i32::MIN
    }
}

/// `cvttsd2si` to 64 bits.
fn cvt64(x: f64) -> i64 {
    if (-TWO_63..TWO_63).contains(&x) {
        x as i64
    } else {
        i64::MIN
    }
}

/// The bits of numpy's conversion of float `x` to the integer type `to` (then wrapped to it).
fn float_bits(x: f64, to: &DataType, from_half: bool) -> u64 {
    match to {
        DataType::UInt64 if x >= TWO_63 => (cvt64(x - TWO_63) as u64) ^ (1 << 63),
        // int64, uint64 below 2^63, and uint32 from float16 (through 64 bits).
        DataType::Int64 | DataType::UInt64 => cvt64(x) as u64,
        DataType::UInt32 if from_half => cvt64(x) as u64,
        DataType::UInt32 if x >= TWO_31 => u64::from((cvt32(x - TWO_31) as u32) ^ (1 << 31)),
        DataType::UInt32 => u64::from(cvt32(x) as u32),
        _ => i64::from(cvt32(x)) as u64,
    }
}

/// Each integer element's value as 64 bits (two's complement), `None` for other types.
fn int_bits(values: &ArrayRef) -> Option<Vec<u64>> {
    macro_rules! bits {
        ($t:ty, $wide:ty) => {
            values
                .as_primitive::<$t>()
                .values()
                .iter()
                .map(|&v| v as $wide as u64)
                .collect()
        };
    }
    Some(match values.data_type() {
        DataType::Int8 => bits!(Int8Type, i64),
        DataType::Int16 => bits!(Int16Type, i64),
        DataType::Int32 => bits!(Int32Type, i64),
        DataType::Int64 => bits!(Int64Type, i64),
        DataType::UInt8 => bits!(UInt8Type, u64),
        DataType::UInt16 => bits!(UInt16Type, u64),
        DataType::UInt32 => bits!(UInt32Type, u64),
        DataType::UInt64 => bits!(UInt64Type, u64),
        _ => return None,
    })
}

/// An integer array of type `to` from each element's bits, wrapped (C's conversion).
fn from_bits(bits: &[u64], to: &DataType, values: &ArrayRef) -> Result<ArrayRef> {
    let nulls = values.logical_nulls();
    macro_rules! wrap {
        ($array:ty, $t:ty) => {
            Arc::new(<$array>::new(
                bits.iter().map(|&b| b as $t).collect(),
                nulls,
            )) as ArrayRef
        };
    }
    Ok(match to {
        DataType::Int8 => wrap!(Int8Array, i8),
        DataType::Int16 => wrap!(Int16Array, i16),
        DataType::Int32 => wrap!(Int32Array, i32),
        DataType::Int64 => wrap!(Int64Array, i64),
        DataType::UInt8 => wrap!(UInt8Array, u8),
        DataType::UInt16 => wrap!(UInt16Array, u16),
        DataType::UInt32 => wrap!(UInt32Array, u32),
        DataType::UInt64 => wrap!(UInt64Array, u64),
        other => {
            return Err(TensorError::Internal(format!(
                "astype: no integer conversion to {other}"
            )));
        }
    })
}

/// numpy's `values.astype(to)` (see the module docs).
pub fn astype(values: &ArrayRef, to: &DataType) -> Result<ArrayRef> {
    let from = values.data_type();
    if from == to {
        return Ok(Arc::clone(values));
    }
    if to.is_integer() {
        if from.is_floating() {
            let from_half = *from == DataType::Float16;
            let wide = cast(values, &DataType::Float64)?;
            let bits: Vec<u64> = wide
                .as_primitive::<Float64Type>()
                .values()
                .iter()
                .map(|&x| float_bits(x, to, from_half))
                .collect();
            return from_bits(&bits, to, values);
        }
        if let Some(bits) = int_bits(values) {
            return from_bits(&bits, to, values);
        }
    }
    if *to == DataType::Float16 && from.is_integer() {
        // Through float64 (exact below 2^53; every integer above overflows to infinity).
        let wide = cast(values, &DataType::Float64)?;
        let half: PrimitiveArray<Float16Type> = wide
            .as_primitive::<Float64Type>()
            .unary(half::f16::from_f64);
        return Ok(Arc::new(half));
    }
    Ok(cast(values, to)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow::array::{Float32Array, Float64Array};

    fn ints(values: &ArrayRef, to: &DataType) -> Vec<i128> {
        let out = astype(values, to).unwrap();
        let out = cast(&out, &DataType::Decimal128(38, 0)).unwrap();
        out.as_primitive::<arrow::datatypes::Decimal128Type>()
            .values()
            .to_vec()
    }

    #[test]
    fn floats_become_integers_as_numpy_does_on_x86() {
        // numpy 2.4: np.array([nan, inf, -inf, 3e10, -3e10, 2.7, -2.7, 1e20]).astype(t)
        let x: ArrayRef = Arc::new(Float64Array::from(vec![
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            3e10,
            -3e10,
            2.7,
            -2.7,
            1e20,
        ]));
        let m32 = i128::from(i32::MIN);
        let m64 = i128::from(i64::MIN);
        assert_eq!(ints(&x, &DataType::Int8), [0, 0, 0, 0, 0, 2, -2, 0]);
        assert_eq!(ints(&x, &DataType::UInt8), [0, 0, 0, 0, 0, 2, 254, 0]);
        assert_eq!(
            ints(&x, &DataType::Int32),
            [m32, m32, m32, m32, m32, 2, -2, m32]
        );
        assert_eq!(
            ints(&x, &DataType::Int64),
            [m64, m64, m64, 30_000_000_000, -30_000_000_000, 2, -2, m64]
        );
        assert_eq!(
            ints(&x, &DataType::UInt32),
            [
                2_147_483_648,
                0,
                2_147_483_648,
                0,
                2_147_483_648,
                2,
                4_294_967_294,
                0
            ]
        );
        assert_eq!(
            ints(&x, &DataType::UInt64),
            [
                9_223_372_036_854_775_808,
                0,
                9_223_372_036_854_775_808,
                30_000_000_000,
                18_446_744_043_709_551_616,
                2,
                18_446_744_073_709_551_614,
                0
            ]
        );
        let f: ArrayRef = Arc::new(Float32Array::from(vec![2.7, -2.7, 300.5, -1.5]));
        assert_eq!(ints(&f, &DataType::UInt8), [2, 254, 44, 255]);
    }

    #[test]
    fn integers_wrap() {
        let x: ArrayRef = Arc::new(Int64Array::from(vec![300, -1, 70000]));
        assert_eq!(ints(&x, &DataType::UInt8), [44, 255, 112]);
        assert_eq!(ints(&x, &DataType::Int8), [44, -1, 112]);
    }
}
