//! numpy's `nonzero` per row: the indices of the elements that are not zero, as one int64
//! tensor of shape `[ndim, count]` per row (numpy's tuple of `ndim` index arrays, stacked in
//! order: row `d` holds the indices along axis `d`, in row-major order of the elements). NaN
//! is not zero; -0.0 is. A row holding an element NULL is NULL (which elements are zero is
//! not known).

use arrow::array::{Array, ArrayRef, ArrowPrimitiveType, AsArray, Int64Array};
use arrow::buffer::NullBuffer;
use arrow::datatypes::DataType;

use super::RowAt;
use crate::error::{Result, TensorError};
use crate::kernels::{storage_type, to_storage, with_primitive_type};

/// The nonzero indices of each row.
#[derive(Debug)]
pub struct NonzeroRows {
    /// Every row's `[ndim, count]` indices, row-major, one row after another.
    pub values: Int64Array,
    /// Each row's count (0 for a NULL row).
    pub counts: Vec<usize>,
    /// The rows that are not NULL (an input NULL row, or one holding an element NULL).
    pub valid: Vec<bool>,
}

/// The nonzero indices of every row of `values` (elements of type `element`, logical
/// row-major; `None`: a NULL row).
pub fn nonzero(element: &DataType, values: &ArrayRef, rows: &[Option<RowAt<'_>>]) -> Result<NonzeroRows> {
    let storage = to_storage(values)?;
    let nulls = values.logical_nulls();
    with_primitive_type!(storage_type(element), P => {
        Ok(find::<P>(storage.as_primitive::<P>().values(), nulls.as_ref(), rows))
    }, _ => Err(TensorError::ElementType(element.to_string())))
}

fn find<P: ArrowPrimitiveType>(
    values: &[P::Native],
    nulls: Option<&NullBuffer>,
    rows: &[Option<RowAt<'_>>],
) -> NonzeroRows
where
    P::Native: PartialEq + Default,
{
    let zero = P::Native::default();
    let mut out: Vec<i64> = Vec::new();
    let mut counts = Vec::with_capacity(rows.len());
    let mut valid = Vec::with_capacity(rows.len());
    let mut found: Vec<usize> = Vec::new();
    for row in rows {
        let Some(row) = row else {
            counts.push(0);
            valid.push(false);
            continue;
        };
        let range = row.start..row.start + row.size();
        if nulls.is_some_and(|n| range.clone().any(|p| n.is_null(p))) {
            counts.push(0);
            valid.push(false);
            continue;
        }
        found.clear();
        found.extend(
            values[range]
                .iter()
                .enumerate()
                .filter(|(_, v)| **v != zero)
                .map(|(flat, _)| flat),
        );
        // Row d of the result: each found element's index along axis d.
        let ndim = row.shape.len();
        let base = out.len();
        out.resize(base + ndim * found.len(), 0);
        let mut inner = 1;
        for d in (0..ndim).rev() {
            let dim = row.shape[d];
            let line = &mut out[base + d * found.len()..base + (d + 1) * found.len()];
            for (slot, &flat) in line.iter_mut().zip(&found) {
                *slot = ((flat / inner) % dim) as i64;
            }
            inner *= dim;
        }
        counts.push(found.len());
        valid.push(true);
    }
    NonzeroRows {
        values: Int64Array::from(out),
        counts,
        valid,
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use arrow::array::Float32Array;

    use super::*;

    #[test]
    fn indices_per_axis_as_numpy() {
        // np.nonzero([[0, 1, nan], [-0.0, 0, 2]]) == ([0, 0, 1], [1, 2, 2])
        let values: ArrayRef = Arc::new(Float32Array::from(vec![
            0.0,
            1.0,
            f32::NAN,
            -0.0,
            0.0,
            2.0,
        ]));
        let shape = [2, 3];
        let rows = [Some(RowAt { start: 0, shape: &shape }), None];
        let out = nonzero(&DataType::Float32, &values, &rows).unwrap();
        assert_eq!(out.values.values().as_ref(), &[0, 0, 1, 1, 2, 2]);
        assert_eq!(out.counts, vec![3, 0]);
        assert_eq!(out.valid, vec![true, false]);
    }
}
