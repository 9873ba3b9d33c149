//! numpy's `diff` along one axis: `n` times, each line's neighbours subtracted (`a[i + 1] -
//! a[i]`, wrapping for integers, `not_equal` for booleans), after the `prepend` and `append`
//! values are put at the ends of every line (numpy's `concatenate`).
//!
//! Each step is two `take`s of the whole batch's values (the later and the earlier element of
//! every pair) and one arrow kernel (`sub_wrapping`, `neq`): element NULLs propagate as
//! numpy's NaN-free arithmetic would have them, NULL where either element is.

use arrow::array::{Array, ArrayRef, UInt64Array};
use arrow::compute::kernels::cmp::neq;
use arrow::compute::kernels::numeric::sub_wrapping;
use arrow::compute::{concat, take};
use arrow::datatypes::DataType;
use std::sync::Arc;

use super::reduce::cumulative::Span;
use crate::error::Result;

/// The values put at the ends of every line before the differences: one element each, of the
/// values' type.
#[derive(Debug, Clone, Default)]
pub struct Ends<'a> {
    /// Before the first element (numpy's `prepend`).
    pub prepend: Option<&'a ArrayRef>,
    /// After the last (numpy's `append`).
    pub append: Option<&'a ArrayRef>,
}

/// The `n`-th differences along the lines of `spans` (each row's `outer` lines of `n`
/// elements `inner` apart, rows one after another in `values`, logical row-major), with
/// `ends` put around every line first; and each row's span after them (a line of `m`
/// elements gives `m - 1`, none from none).
pub fn diff(
    values: &ArrayRef,
    spans: &[Span],
    n: usize,
    ends: &Ends<'_>,
) -> Result<(ArrayRef, Vec<Span>)> {
    let (mut values, mut spans) = with_ends(values, spans, ends)?;
    for _ in 0..n {
        let (mut later, mut earlier) = (Vec::new(), Vec::new());
        for (span, start) in spans.iter().zip(starts(&spans)) {
            let Span { outer, n, inner } = *span;
            for o in 0..outer {
                let line = (start + o * n * inner) as u64;
                let pairs = (inner as u64..(n * inner) as u64).map(|k| line + k);
                later.extend(pairs.clone());
                earlier.extend(pairs.map(|k| k - inner as u64));
            }
        }
        let (a, b) = (
            take(values.as_ref(), &UInt64Array::from(later), None)?,
            take(values.as_ref(), &UInt64Array::from(earlier), None)?,
        );
        values = if *values.data_type() == DataType::Boolean {
            Arc::new(neq(&a, &b)?)
        } else {
            sub_wrapping(&a, &b)?
        };
        for span in &mut spans {
            span.n = span.n.saturating_sub(1);
        }
    }
    Ok((values, spans))
}

/// The first element of each span in values laid out one span after another.
fn starts(spans: &[Span]) -> Vec<usize> {
    let mut start = 0;
    spans
        .iter()
        .map(|s| {
            let first = start;
            start += s.size();
            first
        })
        .collect()
}

/// The values with `ends` around every line: indices into the values followed by the two
/// end values.
fn with_ends(values: &ArrayRef, spans: &[Span], ends: &Ends<'_>) -> Result<(ArrayRef, Vec<Span>)> {
    if ends.prepend.is_none() && ends.append.is_none() {
        return Ok((Arc::clone(values), spans.to_vec()));
    }
    // The end values follow the batch's values: the prepend's index, then the append's.
    let mut parts: Vec<&dyn Array> = vec![values.as_ref()];
    parts.extend(ends.prepend.iter().map(|e| e.as_ref() as &dyn Array));
    parts.extend(ends.append.iter().map(|e| e.as_ref() as &dyn Array));
    let base = values.len() as u64;
    let before = ends.prepend.map(|_| base);
    let after = ends
        .append
        .map(|_| base + u64::from(ends.prepend.is_some()));
    let all = concat(&parts)?;
    let mut indices: Vec<u64> = Vec::new();
    let mut out_spans = Vec::with_capacity(spans.len());
    for (span, start) in spans.iter().zip(starts(spans)) {
        let Span { outer, n, inner } = *span;
        for o in 0..outer {
            let line = start + o * n * inner;
            if let Some(b) = before {
                indices.extend(std::iter::repeat_n(b, inner));
            }
            indices.extend((line..line + n * inner).map(|k| k as u64));
            if let Some(a) = after {
                indices.extend(std::iter::repeat_n(a, inner));
            }
        }
        out_spans.push(Span {
            outer,
            n: n + usize::from(before.is_some()) + usize::from(after.is_some()),
            inner,
        });
    }
    Ok((take(all.as_ref(), &UInt64Array::from(indices), None)?, out_spans))
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow::array::{AsArray, Int8Array};
    use arrow::datatypes::Int8Type;

    #[test]
    fn differences_wrap_and_take_the_ends() {
        // np.diff(np.array([[1, 5, -128], [0, 0, 127]], np.int8), prepend=np.int8(2), n=2)
        // == [[5, 119], [2, 127]]
        let values: ArrayRef = Arc::new(Int8Array::from(vec![1, 5, -128, 0, 0, 127]));
        let two: ArrayRef = Arc::new(Int8Array::from(vec![2]));
        let span = Span::new(&[2, 3], Some(1));
        let ends = Ends {
            prepend: Some(&two),
            append: None,
        };
        let (out, spans) = diff(&values, &[span], 2, &ends).unwrap();
        assert_eq!(spans[0].n, 2);
        assert_eq!(out.as_primitive::<Int8Type>().values(), &[5, 119, 2, 127]);
    }
}
