//! The array API standard's `unique_all` per row (numpy 2's `unique_values`, `unique_counts`,
//! `unique_inverse` and `unique_all` read the parts they need): each row flattened, its
//! distinct elements in sorted order (numpy's `np.unique` order), the index of each one's
//! first occurrence, each element's index into the distinct ones, and how many times each
//! occurs.
//!
//! Equality is numpy 2's for these functions (`equal_nan=False`): every NaN is distinct,
//! -0.0 equals 0.0 (the first occurrence is kept, as numpy's stable sort keeps it). Element
//! NULLs are one value, after every number (as `tensor_sort` places them).

use std::cmp::Ordering;
use std::sync::Arc;

use arrow::array::{Array, ArrayRef, ArrowPrimitiveType, AsArray, Int64Array};
use arrow::buffer::NullBuffer;
use arrow::datatypes::DataType;

use super::RowAt;
use crate::error::{Result, TensorError};
use crate::kernels::sort::line_order;
use crate::kernels::{from_storage, storage_type, to_storage, with_primitive_type};

/// The distinct elements of every row, and what the `unique_*` functions return with them.
#[derive(Debug)]
pub struct UniqueRows {
    /// The distinct elements, one row after another.
    pub values: ArrayRef,
    /// How many each row has (0 for a NULL row).
    pub lengths: Vec<usize>,
    /// The index of each distinct element's first occurrence in its flattened row.
    pub indices: Int64Array,
    /// How many times each occurs.
    pub counts: Int64Array,
    /// Each element's index into its row's distinct elements, in the order of the input's
    /// values (a NULL row's elements 0).
    pub inverse: Int64Array,
}

/// The distinct elements of every row of `values` (elements of type `element`, logical
/// row-major, `values_len` in all; `None`: a NULL row, whose elements are not read).
/// Without `positions` (`unique_values`, `unique_counts`), `indices` and `inverse` are left
/// empty.
pub fn unique(
    element: &DataType,
    values: &ArrayRef,
    rows: &[Option<RowAt<'_>>],
    positions: bool,
) -> Result<UniqueRows> {
    let storage = to_storage(values)?;
    let nulls = values.logical_nulls();
    if !positions && nulls.is_none() {
        // Values and counts alone: each row's values copied out and sorted as values (no
        // indirection), 2x faster than through the indices (benches/compare/search.py).
        let (distinct, counts, lengths) = with_primitive_type!(storage_type(element), P => {
            let (distinct, counts, lengths) =
                sorted_distinct::<P>(storage.as_primitive::<P>().values(), rows);
            (Arc::new(arrow::array::PrimitiveArray::<P>::new(distinct.into(), None)) as ArrayRef, counts, lengths)
        }, _ => return Err(TensorError::ElementType(element.to_string())));
        return Ok(UniqueRows {
            values: from_storage(distinct, element)?,
            lengths,
            indices: Int64Array::from(Vec::<i64>::new()),
            counts: Int64Array::from(counts),
            inverse: Int64Array::from(Vec::<i64>::new()),
        });
    }
    let found = with_primitive_type!(storage_type(element), P => {
        distinct::<P>(storage.as_primitive::<P>().values(), nulls.as_ref(), rows)
    }, _ => return Err(TensorError::ElementType(element.to_string())));
    let taken = arrow::compute::take(&storage, &Int64Array::from(found.positions), None)?;
    Ok(UniqueRows {
        values: from_storage(taken, element)?,
        lengths: found.lengths,
        indices: Int64Array::from(found.indices),
        counts: Int64Array::from(found.counts),
        inverse: Int64Array::from(found.inverse),
    })
}

struct Found {
    positions: Vec<i64>,
    lengths: Vec<usize>,
    indices: Vec<i64>,
    counts: Vec<i64>,
    inverse: Vec<i64>,
}

/// numpy's equality of `unique` (`equal_nan=False`): NaN equals nothing; NULLs are equal.
#[inline]
fn same<T: PartialOrd>(a: Option<&T>, b: Option<&T>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => a.partial_cmp(b) == Some(Ordering::Equal),
        (None, None) => true,
        _ => false,
    }
}

/// Each row's distinct values (the first of equal ones, by a stable sort), their counts and
/// how many each row has; no element NULLs.
fn sorted_distinct<P: ArrowPrimitiveType>(
    values: &[P::Native],
    rows: &[Option<RowAt<'_>>],
) -> (Vec<P::Native>, Vec<i64>, Vec<usize>)
where
    P::Native: PartialOrd,
{
    let (mut distinct, mut counts) = (Vec::new(), Vec::new());
    let mut lengths = Vec::with_capacity(rows.len());
    let mut line: Vec<P::Native> = Vec::new();
    for row in rows {
        let Some(row) = row else {
            lengths.push(0);
            continue;
        };
        line.clear();
        line.extend_from_slice(&values[row.start..row.start + row.size()]);
        line.sort_by(crate::kernels::sort::numpy_order);
        let before = distinct.len();
        for v in &line {
            if distinct.len() > before && same(distinct.last(), Some(v)) {
                if let Some(count) = counts.last_mut() {
                    *count += 1;
                }
            } else {
                distinct.push(*v);
                counts.push(1);
            }
        }
        lengths.push(distinct.len() - before);
    }
    (distinct, counts, lengths)
}

fn distinct<P: ArrowPrimitiveType>(
    values: &[P::Native],
    nulls: Option<&NullBuffer>,
    rows: &[Option<RowAt<'_>>],
) -> Found
where
    P::Native: PartialOrd,
{
    let mut found = Found {
        positions: Vec::new(),
        lengths: Vec::with_capacity(rows.len()),
        indices: Vec::new(),
        counts: Vec::new(),
        inverse: vec![0; values.len()],
    };
    let at = |p: usize| nulls.is_none_or(|n| n.is_valid(p)).then(|| &values[p]);
    let mut order: Vec<usize> = Vec::new();
    for row in rows {
        let Some(row) = row else {
            found.lengths.push(0);
            continue;
        };
        let start = row.start;
        order.clear();
        order.extend(0..row.size());
        // Stable: the first of equal elements comes first.
        order.sort_by(|&j, &k| line_order(at(start + j), at(start + k), false));
        let mut distinct = 0;
        let mut previous: Option<usize> = None;
        for &j in &order {
            let p = start + j;
            let new = previous.is_none_or(|q| !same(at(q), at(p)));
            if new {
                found.positions.push(p as i64);
                found.indices.push(j as i64);
                found.counts.push(0);
                distinct += 1;
                previous = Some(p);
            }
            if let Some(count) = found.counts.last_mut() {
                *count += 1;
            }
            found.inverse[p] = distinct - 1;
        }
        found.lengths.push(distinct as usize);
    }
    found
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use arrow::array::Float64Array;
    use arrow::datatypes::Float64Type;

    use super::*;

    #[test]
    fn distinct_nans_and_signed_zeros_as_numpy() {
        // np.unique_all([2, nan, -0.0, 2, 0.0, nan, 1]):
        // values [-0., 1., 2., nan, nan], indices [2, 6, 0, 1, 5], counts [2, 1, 2, 1, 1],
        // inverse [2, 3, 0, 2, 0, 4, 1]
        let values: ArrayRef = Arc::new(Float64Array::from(vec![
            2.0,
            f64::NAN,
            -0.0,
            2.0,
            0.0,
            f64::NAN,
            1.0,
        ]));
        let shape = [7];
        let rows = [None, Some(RowAt { start: 0, shape: &shape })];
        let out = unique(&DataType::Float64, &values, &rows, true).unwrap();
        let fast = unique(&DataType::Float64, &values, &rows, false).unwrap();
        assert_eq!(fast.lengths, out.lengths);
        assert_eq!(fast.counts, out.counts);
        assert_eq!(out.lengths, vec![0, 5]);
        let v = out.values.as_primitive::<Float64Type>();
        assert!(v.value(0) == 0.0 && v.value(0).is_sign_negative());
        assert_eq!(&v.values()[1..3], &[1.0, 2.0]);
        assert!(v.value(3).is_nan() && v.value(4).is_nan());
        assert_eq!(out.indices.values().as_ref(), &[2, 6, 0, 1, 5]);
        assert_eq!(out.counts.values().as_ref(), &[2, 1, 2, 1, 1]);
        assert_eq!(out.inverse.values().as_ref(), &[2, 3, 0, 2, 0, 4, 1]);
    }
}
