//! numpy's `searchsorted` per row: for each element of `v`, the index where it would be
//! inserted into the row's sorted 1-d `a` to keep it sorted (`side='left'`: before equal
//! elements, `'right'`: after them), by binary search in numpy's sort order (NaN after every
//! number, an element NULL after NaN). `a` is taken as sorted, as numpy takes it. An element
//! NULL of `v` gives a NULL index.

use arrow::array::{Array, ArrayRef, ArrowPrimitiveType, AsArray, Int64Array};
use arrow::buffer::NullBuffer;
use arrow::datatypes::DataType;

use crate::error::{Result, TensorError};
use crate::kernels::sort::line_order;
use crate::kernels::{storage_type, to_storage, with_primitive_type};

/// One row of a call: where its `a` and its `v` are in their batches' values (start and
/// length); `None` for a NULL row.
pub type SearchRow = Option<((usize, usize), (usize, usize))>;

/// The insertion indices of every row's `v` into its `a` (both of type `element`), in the
/// order of `v`'s values: `out_lengths[r]` per row (a NULL row's all NULL).
pub fn searchsorted(
    element: &DataType,
    a: &ArrayRef,
    v: &ArrayRef,
    rows: &[SearchRow],
    out_lengths: &[usize],
    right: bool,
) -> Result<Int64Array> {
    let (a_storage, v_storage) = (to_storage(a)?, to_storage(v)?);
    let (a_nulls, v_nulls) = (a.logical_nulls(), v.logical_nulls());
    with_primitive_type!(storage_type(element), P => {
        Ok(search::<P>(
            (a_storage.as_primitive::<P>().values(), a_nulls.as_ref()),
            (v_storage.as_primitive::<P>().values(), v_nulls.as_ref()),
            rows,
            out_lengths,
            right,
        ))
    }, _ => Err(TensorError::ElementType(element.to_string())))
}

fn search<P: ArrowPrimitiveType>(
    (a, a_nulls): (&[P::Native], Option<&NullBuffer>),
    (v, v_nulls): (&[P::Native], Option<&NullBuffer>),
    rows: &[SearchRow],
    out_lengths: &[usize],
    right: bool,
) -> Int64Array
where
    P::Native: PartialOrd,
{
    let total: usize = out_lengths.iter().sum();
    let mut out = vec![0i64; total];
    let mut valid = vec![true; total];
    let a_at = |p: usize| a_nulls.is_none_or(|n| n.is_valid(p)).then(|| &a[p]);
    let v_at = |p: usize| v_nulls.is_none_or(|n| n.is_valid(p)).then(|| &v[p]);
    let mut written = 0;
    for (row, &len) in rows.iter().zip(out_lengths) {
        let slots = written..written + len;
        written += len;
        let Some(((a_start, a_len), (v_start, v_len))) = *row else {
            valid[slots].fill(false);
            continue;
        };
        for (j, slot) in (v_start..v_start + v_len).zip(slots) {
            let Some(x) = v_at(j) else {
                valid[slot] = false;
                continue;
            };
            // The first element of `a` after `x` (right), or not before it (left).
            let (mut lo, mut hi) = (0, a_len);
            while lo < hi {
                let mid = lo + (hi - lo) / 2;
                let order = line_order(a_at(a_start + mid), Some(x), false);
                if (right && order.is_le()) || order.is_lt() {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            out[slot] = lo as i64;
        }
    }
    let nulls = valid.contains(&false).then(|| NullBuffer::from(valid));
    Int64Array::new(out.into(), nulls)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use arrow::array::Float64Array;

    use super::*;

    #[test]
    fn left_and_right_as_numpy() {
        let a: ArrayRef = Arc::new(Float64Array::from(vec![1.0, 2.0, 2.0, 3.0, f64::NAN]));
        let v: ArrayRef = Arc::new(Float64Array::from(vec![2.0, 0.0, 9.0, f64::NAN]));
        let rows = [Some(((0, 5), (0, 4)))];
        // np.searchsorted([1, 2, 2, 3, nan], [2, 0, 9, nan]) == [1, 0, 4, 4]
        let left = searchsorted(&DataType::Float64, &a, &v, &rows, &[4], false).unwrap();
        assert_eq!(left.values().as_ref(), &[1, 0, 4, 4]);
        // side='right': [3, 0, 4, 5]
        let right = searchsorted(&DataType::Float64, &a, &v, &rows, &[4], true).unwrap();
        assert_eq!(right.values().as_ref(), &[3, 0, 4, 5]);
    }
}
