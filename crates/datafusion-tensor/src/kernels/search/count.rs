//! Counting per row: numpy's `bincount` (how many times each non-negative integer occurs in
//! a 1-d row, or the sum of its weights) and `jax.nn.one_hot` (each integer as a row of
//! `n` zeros with a one at its value; out of `0..n`, all zeros, as JAX gives).

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, AsArray, Float64Array, Int64Array};
use arrow::buffer::NullBuffer;
use arrow::compute::cast;
use arrow::datatypes::{DataType, Int64Type};

use crate::error::{Result, TensorError};

/// numpy's `bincount` of each row: `rows[r]` the start and length of row `r`'s integers in
/// `values` (`None`: a NULL row), `weights` (float64, laid out as `values`) summed in place of
/// counts. Returns the counts (int64) or sums (float64) one row after another, each row's
/// length (`max + 1`, at least `minlength`; 0 for a NULL row) and whether it is valid (a row
/// holding an element NULL, in `values` or `weights`, is NULL).
pub fn bincount(
    values: &ArrayRef,
    weights: Option<&ArrayRef>,
    rows: &[Option<(usize, usize)>],
    minlength: usize,
    (max_len, max_total): (usize, usize),
) -> Result<(ArrayRef, Vec<usize>, Vec<bool>)> {
    // A uint64 past int64's range is refused (numpy's error), not made NULL.
    let values = arrow::compute::cast_with_options(values, &DataType::Int64, &crate::dtype::strict_cast())?;
    let values = values.as_primitive::<Int64Type>();
    let weights = match weights {
        Some(w) => Some(cast(w, &DataType::Float64)?),
        None => None,
    };
    let weights = weights
        .as_ref()
        .map(AsArray::as_primitive::<arrow::datatypes::Float64Type>);
    let mut lengths = Vec::with_capacity(rows.len());
    let mut valid = Vec::with_capacity(rows.len());
    let (mut counts, mut sums) = (Vec::new(), Vec::new());
    let has_null = |array: &dyn Array, start: usize, len: usize| {
        array.logical_nulls().is_some_and(|n| (start..start + len).any(|p| n.is_null(p)))
    };
    for (r, row) in rows.iter().enumerate() {
        let Some((start, len)) = *row else {
            lengths.push(0);
            valid.push(false);
            continue;
        };
        if has_null(values, start, len) || weights.is_some_and(|w| has_null(w, start, len)) {
            lengths.push(0);
            valid.push(false);
            continue;
        }
        let line = &values.values()[start..start + len];
        if line.iter().any(|&v| v < 0) {
            return Err(TensorError::Data(format!(
                "'list' argument must have no negative elements at row {r} of its batch"
            )));
        }
        valid.push(true);
        let n = line.iter().max().map_or(0, |&m| m as usize + 1).max(minlength);
        // Refused before the counts are allocated.
        if n > max_len {
            return Err(TensorError::Limit(format!(
                "the result at row {r} of its batch would have {n} elements, more than the limit of {max_len} elements per tensor (raise it with SET tensor.max_tensor_elements)"
            )));
        }
        if counts.len() + sums.len() + n > max_total {
            return Err(TensorError::Limit(format!(
                "the batch's results would hold more than {max_total} elements at row {r} (raise tensor.max_batch_bytes)"
            )));
        }
        lengths.push(n);
        match weights {
            None => {
                let base = counts.len();
                counts.resize(base + n, 0i64);
                for &v in line {
                    counts[base + v as usize] += 1;
                }
            }
            Some(w) => {
                let base = sums.len();
                sums.resize(base + n, 0.0f64);
                for (&v, &x) in line.iter().zip(&w.values()[start..start + len]) {
                    sums[base + v as usize] += x;
                }
            }
        }
    }
    let out: ArrayRef = match weights {
        None => Arc::new(Int64Array::from(counts)),
        Some(_) => Arc::new(Float64Array::from(sums)),
    };
    Ok((out, lengths, valid))
}

/// JAX's `one_hot` of every integer of `values` (any integer type, element NULLs giving a
/// line of NULLs): `n` elements each, 1 at the value's position, in the order of `values`,
/// as float64 (the caller casts to the result's type).
pub fn one_hot(values: &ArrayRef, n: usize) -> Result<ArrayRef> {
    let values = cast(values, &DataType::Int64)?;
    let values = values.as_primitive::<Int64Type>();
    let mut out = vec![0.0f64; values.len() * n];
    for (i, &v) in values.values().iter().enumerate() {
        if let Ok(k) = usize::try_from(v)
            && k < n
        {
            out[i * n + k] = 1.0;
        }
    }
    let nulls = values.logical_nulls().map(|nulls| {
        nulls
            .iter()
            .flat_map(|valid| std::iter::repeat_n(valid, n))
            .collect::<NullBuffer>()
    });
    Ok(Arc::new(Float64Array::new(out.into(), nulls)))
}

#[cfg(test)]
mod tests {
    use arrow::datatypes::Float64Type;

    use super::*;

    #[test]
    fn bincount_and_one_hot_as_numpy_and_jax() {
        let values: ArrayRef = Arc::new(Int64Array::from(vec![1, 1, 3, 0, 2]));
        // np.bincount([1, 1, 3]) == [0, 2, 0, 1]; np.bincount([0, 2], minlength=4) == [1, 0, 1, 0]
        let (out, lengths, _) =
            bincount(&values, None, &[Some((0, 3)), None, Some((3, 2))], 4, (100, 100)).unwrap();
        assert_eq!(lengths, vec![4, 0, 4]);
        assert_eq!(out.as_primitive::<Int64Type>().values().as_ref(), &[0, 2, 0, 1, 1, 0, 1, 0]);
        // jax.nn.one_hot([1, -1, 3], 3) == [[0, 1, 0], [0, 0, 0], [0, 0, 0]]
        let values: ArrayRef = Arc::new(Int64Array::from(vec![1, -1, 3]));
        let out = one_hot(&values, 3).unwrap();
        assert_eq!(out.as_primitive::<Float64Type>().values().as_ref(), &[0., 1., 0., 0., 0., 0., 0., 0., 0.]);
    }
}
