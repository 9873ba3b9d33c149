//! The `k` largest (or smallest) elements along an axis and their indices, in order: the
//! first `k` of [`super::super::sort`]'s descending (ascending) sort along the axis, ties in
//! their original order. Each line is partly selected (`select_nth_unstable_by` on a total
//! order that breaks ties by index, then the `k` chosen sorted), not sorted whole.

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, ArrowPrimitiveType, AsArray, Int64Array};
use arrow::buffer::NullBuffer;
use arrow::datatypes::DataType;

use crate::error::{Result, TensorError};
use crate::kernels::reduce::cumulative::{Span, Spans};
use crate::kernels::sort::line_order;
use crate::kernels::{from_storage, storage_type, to_storage, with_primitive_type};

/// The top `k` of every line of `values` (elements of type `element`, logical row-major, rows
/// as `spans` says, each line of length at least `k`): their values, in `element`, and their
/// int64 indices along the axis, each row laid out as its span with the axis `k` long.
pub fn top_k(
    element: &DataType,
    values: &ArrayRef,
    spans: Spans<'_>,
    k: usize,
    largest: bool,
) -> Result<(ArrayRef, ArrayRef)> {
    let storage = to_storage(values)?;
    let nulls = values.logical_nulls();
    let (positions, indices) = with_primitive_type!(storage_type(element), P => {
        select::<P>(storage.as_primitive::<P>().values(), nulls.as_ref(), spans, k, largest)
    }, _ => return Err(TensorError::ElementType(element.to_string())));
    let taken = arrow::compute::take(&storage, &Int64Array::from(positions), None)?;
    Ok((from_storage(taken, element)?, Arc::new(Int64Array::from(indices))))
}

/// Each output element's position in `values` and its index along the axis.
fn select<P: ArrowPrimitiveType>(
    values: &[P::Native],
    nulls: Option<&NullBuffer>,
    spans: Spans<'_>,
    k: usize,
    largest: bool,
) -> (Vec<i64>, Vec<i64>)
where
    P::Native: PartialOrd,
{
    let mut out = 0;
    spans.each(|span, _| out += span.outer * k * span.inner);
    let (mut positions, mut indices) = (vec![0i64; out], vec![0i64; out]);
    let mut line: Vec<usize> = Vec::new();
    let valid = |p: usize| nulls.is_none_or(|n| n.is_valid(p));
    let mut written = 0;
    spans.each(|span: Span, start| {
        for o in 0..span.outer {
            for i in 0..span.inner {
                let base = start + o * span.n * span.inner + i;
                let at = |j: usize| base + j * span.inner;
                let order = |&j: &usize, &m: &usize| {
                    let (pj, pm) = (at(j), at(m));
                    let a = valid(pj).then(|| &values[pj]);
                    let b = valid(pm).then(|| &values[pm]);
                    line_order(a, b, largest).then(j.cmp(&m))
                };
                line.clear();
                line.extend(0..span.n);
                if k < span.n && k > 0 {
                    line.select_nth_unstable_by(k - 1, order);
                }
                let chosen = &mut line[..k];
                chosen.sort_unstable_by(order);
                let out_base = written + o * k * span.inner + i;
                for (slot, &j) in chosen.iter().enumerate() {
                    let p = out_base + slot * span.inner;
                    positions[p] = at(j) as i64;
                    indices[p] = j as i64;
                }
            }
        }
        written += span.outer * k * span.inner;
    });
    (positions, indices)
}

#[cfg(test)]
mod tests {
    use arrow::array::Float64Array;
    use arrow::datatypes::{Float64Type, Int64Type};

    use super::*;

    #[test]
    fn largest_first_nan_first_ties_by_index() {
        // Two rows of shape [2, 3], top 2 along axis 1.
        let values: ArrayRef = Arc::new(Float64Array::from(vec![
            1.0, 3.0, 3.0, f64::NAN, 0.0, 2.0, //
            5.0, 4.0, 6.0, -1.0, -1.0, -1.0,
        ]));
        let spans = Spans::Same(2, Span::new(&[2, 3], Some(1)));
        let (v, i) = top_k(&DataType::Float64, &values, spans, 2, true).unwrap();
        let i = i.as_primitive::<Int64Type>().values().to_vec();
        assert_eq!(i, vec![1, 2, 0, 2, 2, 0, 0, 1]);
        let v = v.as_primitive::<Float64Type>();
        assert_eq!(v.value(0).to_bits(), 3.0f64.to_bits());
        assert!(v.value(2).is_nan());
        assert_eq!(v.value(3).to_bits(), 2.0f64.to_bits());
        // Smallest first, along axis 0 of the same rows.
        let spans = Spans::Same(2, Span::new(&[2, 3], Some(0)));
        let (_, i) = top_k(&DataType::Float64, &values, spans, 1, false).unwrap();
        assert_eq!(i.as_primitive::<Int64Type>().values().as_ref(), &[0, 1, 1, 1, 1, 1]);
    }
}
