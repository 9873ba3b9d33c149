//! The values of numpy's creation functions: `arange`, `linspace` and `eye` as numpy computes
//! them, in any element type (numpy's unsafe casts through [`super::cast::astype`]: integers
//! wrap, floats truncate). `zeros`, `ones`, `full` and their `_like` forms are one value
//! repeated (`ScalarValue::to_array_of_size`).

use std::sync::Arc;

use arrow::array::{ArrayRef, Float32Array, Float64Array, Int64Array};
use arrow::datatypes::DataType;

use super::cast::astype;
use crate::error::{Result, TensorError};

/// A number as written: an integer (exact) or a float.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Number {
    /// An integer literal.
    Int(i128),
    /// A float literal.
    Float(f64),
}

impl Number {
    /// The number as a double (numpy's view of a Python number in float arithmetic).
    pub fn as_f64(self) -> f64 {
        match self {
            Self::Int(v) => v as f64,
            Self::Float(v) => v,
        }
    }
}

/// numpy's length of `arange(start, stop, step)`: `ceil((stop - start) / step)`, 0 when
/// negative; exact for integers.
pub fn arange_len(start: Number, stop: Number, step: Number) -> Result<usize> {
    let too_big = || TensorError::Data("Maximum allowed size exceeded".to_string());
    match (start, stop, step) {
        (_, _, Number::Int(0)) => Err(TensorError::Data("division by zero".to_string())),
        (Number::Int(a), Number::Int(b), Number::Int(s)) => {
            let span = b - a;
            // ceil(span / s) for either sign of s.
            let len = if (span > 0) == (s > 0) && span != 0 {
                (span.abs() + s.abs() - 1) / s.abs()
            } else {
                0
            };
            usize::try_from(len).map_err(|_| too_big())
        }
        _ => {
            let (a, b, s) = (start.as_f64(), stop.as_f64(), step.as_f64());
            if s == 0.0 {
                return Err(TensorError::Data("division by zero".to_string()));
            }
            let len = ((b - a) / s).ceil();
            if len.is_nan() {
                return Err(TensorError::Data("arange: cannot compute length".to_string()));
            }
            if len <= 0.0 {
                return Ok(0);
            }
            if len >= usize::MAX as f64 {
                return Err(too_big());
            }
            Ok(len as usize)
        }
    }
}

/// numpy's `arange(start, stop, step, dtype=element)` values (`len` from [`arange_len`]):
/// the first two values in `element`, then `first + i * (second - first)` in `element`'s
/// arithmetic, as numpy's fill functions compute them.
pub fn arange(element: &DataType, start: Number, step: Number, len: usize) -> Result<ArrayRef> {
    if element.is_integer() {
        let (first, second) = match (start, step) {
            (Number::Int(a), Number::Int(s)) => (a, a + s),
            _ => {
                // numpy casts the first two values to the integer type, then steps by their
                // difference.
                let two: ArrayRef = Arc::new(Float64Array::from(vec![
                    start.as_f64(),
                    start.as_f64() + step.as_f64(),
                ]));
                let two = astype(&two, &DataType::Int64)?;
                let two = two
                    .as_any()
                    .downcast_ref::<Int64Array>()
                    .ok_or_else(|| TensorError::Internal("astype to int64".to_string()))?;
                (i128::from(two.value(0)), i128::from(two.value(1)))
            }
        };
        let delta = second.wrapping_sub(first);
        // Wrapping in 64 bits, then numpy's cast to the narrower type (which wraps too).
        let values: Int64Array = (0..len)
            .map(|i| first.wrapping_add((i as i128).wrapping_mul(delta)) as i64)
            .collect();
        return astype(&(Arc::new(values) as ArrayRef), element);
    }
    match element {
        DataType::Float32 | DataType::Float16 => {
            // numpy's FLOAT_fill (and HALF_fill, in float) in single precision.
            let first = start.as_f64() as f32;
            let delta = (start.as_f64() + step.as_f64()) as f32 - first;
            let values: Float32Array = (0..len).map(|i| first + i as f32 * delta).collect();
            astype(&(Arc::new(values) as ArrayRef), element)
        }
        DataType::Float64 => {
            let first = start.as_f64();
            let delta = (first + step.as_f64()) - first;
            let values: Float64Array = (0..len).map(|i| first + i as f64 * delta).collect();
            Ok(Arc::new(values))
        }
        other => Err(TensorError::Data(format!(
            "arange: no fill-function for data-type {other}"
        ))),
    }
}

/// numpy's `linspace(start, stop, num, endpoint, dtype=element)`: computed in float64 as
/// numpy computes it (`arange(num) * step + start`, the last value `stop` exactly with
/// `endpoint`), floored for an integer type, then cast.
pub fn linspace(element: &DataType, start: f64, stop: f64, num: usize, endpoint: bool) -> Result<ArrayRef> {
    let div = if endpoint { num.saturating_sub(1) } else { num };
    let delta = stop - start;
    let mut y: Vec<f64> = (0..num).map(|i| i as f64).collect();
    if div > 0 {
        let step = delta / div as f64;
        if step == 0.0 {
            for v in &mut y {
                *v = *v / div as f64 * delta;
            }
        } else {
            for v in &mut y {
                *v *= step;
            }
        }
    } else {
        for v in &mut y {
            *v *= delta;
        }
    }
    for v in &mut y {
        *v += start;
    }
    if endpoint && num > 1 {
        y[num - 1] = stop;
    }
    if element.is_integer() {
        for v in &mut y {
            *v = v.floor();
        }
    }
    astype(&(Arc::new(Float64Array::from(y)) as ArrayRef), element)
}

/// numpy's `eye(n, m, k, dtype=element)`: ones on the `k`-th diagonal of an `n` x `m` matrix,
/// row-major.
pub fn eye(element: &DataType, n: usize, m: usize, k: i64) -> Result<ArrayRef> {
    let mut values = vec![0.0f64; n * m];
    for i in 0..n {
        let j = i as i128 + i128::from(k);
        if j >= 0 && (j as usize) < m {
            values[i * m + j as usize] = 1.0;
        }
    }
    astype(&(Arc::new(Float64Array::from(values)) as ArrayRef), element)
}

#[cfg(test)]
mod tests {
    use arrow::array::AsArray;
    use arrow::datatypes::{Float32Type, Float64Type, Int64Type};

    use super::*;

    #[test]
    fn arange_as_numpy() {
        // np.arange(0.5, 5, 1.5, dtype=int) == [0, 2, 4]
        let (start, stop, step) = (Number::Float(0.5), Number::Int(5), Number::Float(1.5));
        let len = arange_len(start, stop, step).unwrap();
        let out = arange(&DataType::Int64, start, step, len).unwrap();
        assert_eq!(out.as_primitive::<Int64Type>().values().as_ref(), &[0, 2, 4]);
        // np.arange(0, 1, 0.1, dtype=np.float32)[-1] == 0.90000004
        let len = arange_len(Number::Int(0), Number::Int(1), Number::Float(0.1)).unwrap();
        let out = arange(&DataType::Float32, Number::Int(0), Number::Float(0.1), len).unwrap();
        assert_eq!(out.as_primitive::<Float32Type>().value(9).to_bits(), 0.900_000_04_f32.to_bits());
        assert_eq!(arange_len(Number::Int(5), Number::Int(0), Number::Int(1)).unwrap(), 0);
        assert_eq!(arange_len(Number::Int(0), Number::Int(-7), Number::Int(-2)).unwrap(), 4);
        assert!(arange_len(Number::Int(0), Number::Int(5), Number::Int(0)).is_err());
    }

    #[test]
    fn linspace_and_eye_as_numpy() {
        // np.linspace(2, 10, 4, dtype=int) == [2, 4, 7, 10]
        let out = linspace(&DataType::Int64, 2.0, 10.0, 4, true).unwrap();
        assert_eq!(out.as_primitive::<Int64Type>().values().as_ref(), &[2, 4, 7, 10]);
        let out = linspace(&DataType::Float64, 0.0, 1.0, 1, true).unwrap();
        assert_eq!(out.as_primitive::<Float64Type>().values().as_ref(), &[0.0]);
        let out = eye(&DataType::Float64, 2, 3, 1).unwrap();
        assert_eq!(out.as_primitive::<Float64Type>().values().as_ref(), &[0.0, 1.0, 0.0, 0.0, 0.0, 1.0]);
    }
}
