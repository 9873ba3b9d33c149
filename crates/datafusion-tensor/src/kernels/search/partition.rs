//! numpy's `argpartition` along an axis: for each line, indices that put each `kth` element
//! where a sort would put it, every element before it not greater and every one after it not
//! smaller (numpy's order: NaN last, an element NULL after NaN). Within each part the order is
//! this kernel's (`select_nth_unstable_by` on a total order that breaks ties by index, once per
//! `kth` from the smallest), not numpy's introselect's: numpy promises only the partition.

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, ArrowPrimitiveType, AsArray, Int64Array};
use arrow::buffer::NullBuffer;
use arrow::datatypes::DataType;

use crate::error::{Result, TensorError};
use crate::kernels::reduce::cumulative::Spans;
use crate::kernels::sort::line_order;
use crate::kernels::{storage_type, to_storage, with_primitive_type};

/// The partitioning indices of every line of `values` (elements of type `element`, logical
/// row-major, rows as `spans` says) around each of `kth` (negative from the end of the line;
/// each in range, as the caller checked), laid out as the input.
pub fn argpartition(element: &DataType, values: &ArrayRef, spans: Spans<'_>, kth: &[i64]) -> Result<ArrayRef> {
    let storage = to_storage(values)?;
    let nulls = values.logical_nulls();
    let out = with_primitive_type!(storage_type(element), P => {
        partition::<P>(storage.as_primitive::<P>().values(), nulls.as_ref(), spans, kth)
    }, _ => return Err(TensorError::ElementType(element.to_string())));
    Ok(Arc::new(Int64Array::from(out)))
}

fn partition<P: ArrowPrimitiveType>(
    values: &[P::Native],
    nulls: Option<&NullBuffer>,
    spans: Spans<'_>,
    kth: &[i64],
) -> Vec<i64>
where
    P::Native: PartialOrd,
{
    let mut out = vec![0i64; spans.len()];
    let mut line: Vec<usize> = Vec::new();
    let mut ks: Vec<usize> = Vec::with_capacity(kth.len());
    let valid = |p: usize| nulls.is_none_or(|n| n.is_valid(p));
    spans.each(|span, start| {
        for o in 0..span.outer {
            for i in 0..span.inner {
                let base = start + o * span.n * span.inner + i;
                let at = |j: usize| base + j * span.inner;
                let order = |&j: &usize, &m: &usize| {
                    let (pj, pm) = (at(j), at(m));
                    let a = valid(pj).then(|| &values[pj]);
                    let b = valid(pm).then(|| &values[pm]);
                    line_order(a, b, false).then(j.cmp(&m))
                };
                line.clear();
                line.extend(0..span.n);
                // This line's kth, from the smallest (numpy partitions in that order).
                ks.clear();
                ks.extend(kth.iter().filter_map(|&k| crate::index::wrap_index(k, span.n)));
                ks.sort_unstable();
                ks.dedup();
                let mut from = 0;
                for &k in &ks {
                    if k >= from && k < span.n {
                        line[from..].select_nth_unstable_by(k - from, order);
                        from = k + 1;
                    }
                }
                for (slot, &j) in line.iter().enumerate() {
                    out[at(slot)] = j as i64;
                }
            }
        }
    });
    out
}

#[cfg(test)]
mod tests {
    use arrow::array::Float64Array;
    use arrow::datatypes::Int64Type;

    use super::*;
    use crate::kernels::reduce::cumulative::Span;

    #[test]
    fn partitions_around_each_kth() {
        let x = [5.0, f64::NAN, 1.0, 4.0, 2.0, 3.0, 0.0];
        let values: ArrayRef = Arc::new(Float64Array::from(x.to_vec()));
        let spans = Spans::Same(1, Span::new(&[7], Some(0)));
        let out = argpartition(&DataType::Float64, &values, spans, &[-3, 1]).unwrap();
        let idx: Vec<usize> = out.as_primitive::<Int64Type>().values().iter().map(|&i| i as usize).collect();
        let got: Vec<f64> = idx.iter().map(|&i| x[i]).collect();
        // np.sort(x) == [0, 1, 2, 3, 4, 5, nan]: 1.0 at 1 and 4.0 at 4, the parts around them.
        assert_eq!(got[1].to_bits(), 1.0f64.to_bits());
        assert_eq!(got[4].to_bits(), 4.0f64.to_bits());
        assert!(got[0] <= 1.0 && got[2..4].iter().all(|&v| (1.0..=4.0).contains(&v)));
        assert!(got[5] >= 4.0 && got[6].is_nan());
        let mut sorted = idx.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..7).collect::<Vec<_>>());
    }
}
