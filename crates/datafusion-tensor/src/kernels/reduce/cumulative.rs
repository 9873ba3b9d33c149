//! numpy's `cumsum` and `cumprod` along one axis (`np.add.accumulate` /
//! `np.multiply.accumulate` in [`super::sum_type`]): the first element copied, each next one
//! the previous result combined with it, rounded to the result type at every step (float16
//! as `HALF_add` does, through float32). With `include_initial` (the array API standard's
//! `cumulative_sum` / `cumulative_prod`) each line starts with the sum's 0 or the product's 1.

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, ArrowPrimitiveType, AsArray, PrimitiveArray};
use arrow::buffer::{NullBuffer, ScalarBuffer};
use arrow::datatypes::{
    DataType, Float16Type, Float32Type, Float64Type, Int8Type, Int16Type, Int32Type, Int64Type,
    UInt8Type, UInt16Type, UInt32Type, UInt64Type,
};
use half::f16;

use super::fold::{FloatProd, FloatSum, Fold, IntFold, Truth};
use super::unsupported;
use crate::error::{Result, TensorError};
use crate::kernels::to_storage;

/// A row cut around its accumulated axis: `outer` blocks of `n` steps of `inner` elements.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Span {
    /// Elements before the axis (the product of the leading dims).
    pub outer: usize,
    /// The axis's length.
    pub n: usize,
    /// Elements after the axis (the product of the trailing dims).
    pub inner: usize,
}

impl Span {
    /// The span of logical shape `shape` around `axis` (`None`: the flattened row).
    pub fn new(shape: &[usize], axis: Option<usize>) -> Self {
        match axis {
            None => Self {
                outer: 1,
                n: shape.iter().product(),
                inner: 1,
            },
            Some(axis) => Self {
                outer: shape[..axis].iter().product(),
                n: shape[axis],
                inner: shape[axis + 1..].iter().product(),
            },
        }
    }

    pub(crate) fn size(self) -> usize {
        self.outer * self.n * self.inner
    }
}

/// The rows of a batch: each row's span, `None` for a NULL row (which holds no values).
#[derive(Debug, Clone, Copy)]
pub enum Spans<'a> {
    /// `rows` rows of one span.
    Same(usize, Span),
    /// A span per row.
    Each(&'a [Option<Span>]),
}

impl Spans<'_> {
    pub(crate) fn each(&self, mut f: impl FnMut(Span, usize)) {
        match *self {
            Spans::Same(rows, span) => (0..rows).for_each(|row| f(span, row * span.size())),
            Spans::Each(spans) => {
                let mut start = 0;
                for span in spans.iter().flatten() {
                    f(*span, start);
                    start += span.size();
                }
            }
        }
    }

    pub(crate) fn len(&self) -> usize {
        let mut len = 0;
        self.each(|span, _| len += span.size());
        len
    }
}

/// The cumulative sums (or with `product` products) of every row of `values` (elements of
/// type `element`, logical row-major, rows as `spans` says), NULL from an element NULL on;
/// with `initial`, each line starts with the empty sum or product (a line is one longer).
pub fn cumulate(
    product: bool,
    element: &DataType,
    values: &ArrayRef,
    spans: Spans<'_>,
    initial: bool,
) -> Result<ArrayRef> {
    let storage = to_storage(values)?;
    macro_rules! run {
        ($P:ty, $O:ty, $fold:expr) => {
            accumulate::<$P, $O, _>(
                $fold,
                storage.as_primitive::<$P>().values(),
                spans,
                initial,
            )?
        };
    }
    macro_rules! float {
        ($P:ty, $T:ty) => {
            if product {
                run!($P, $P, FloatProd::<$T>::default())
            } else {
                run!($P, $P, FloatSum::<$T>::default())
            }
        };
    }
    let out = match (storage.data_type(), element) {
        (DataType::Float16, _) => float!(Float16Type, f16),
        (DataType::Float32, _) => float!(Float32Type, f32),
        (DataType::Float64, _) => float!(Float64Type, f64),
        (DataType::Int8, _) => run!(Int8Type, Int64Type, IntFold::<i64>::new(product)),
        (DataType::Int16, _) => run!(Int16Type, Int64Type, IntFold::<i64>::new(product)),
        (DataType::Int32, _) => run!(Int32Type, Int64Type, IntFold::<i64>::new(product)),
        (DataType::Int64, _) => run!(Int64Type, Int64Type, IntFold::<i64>::new(product)),
        (DataType::UInt8, DataType::Boolean) => {
            run!(UInt8Type, Int64Type, IntFold::<i64>::new(product))
        }
        (DataType::UInt8, _) => run!(UInt8Type, UInt64Type, IntFold::<u64>::new(product)),
        (DataType::UInt16, _) => run!(UInt16Type, UInt64Type, IntFold::<u64>::new(product)),
        (DataType::UInt32, _) => run!(UInt32Type, UInt64Type, IntFold::<u64>::new(product)),
        (DataType::UInt64, _) => run!(UInt64Type, UInt64Type, IntFold::<u64>::new(product)),
        _ => return unsupported(element),
    };
    let Some(nulls) = values.logical_nulls().filter(|n| n.null_count() > 0) else {
        return Ok(out);
    };
    // An element NULL makes its own and every later result along the axis NULL.
    let flags: Vec<u8> = nulls.iter().map(|valid| u8::from(!valid)).collect();
    let any_null = accumulate_values(Truth { all: false }, &flags, spans, initial)?;
    let valid = NullBuffer::from(any_null.iter().map(|&n| !n).collect::<Vec<_>>());
    Ok(crate::kernels::layout::with_row_nulls(out, Some(&valid))?)
}

fn accumulate<P: ArrowPrimitiveType, O: ArrowPrimitiveType, F: Fold<P::Native, Acc = O::Native>>(
    fold: F,
    values: &[P::Native],
    spans: Spans<'_>,
    initial: bool,
) -> Result<ArrayRef> {
    let out = accumulate_values(fold, values, spans, initial)?;
    Ok(Arc::new(PrimitiveArray::<O>::new(
        ScalarBuffer::from(out),
        None,
    )))
}

fn accumulate_values<T: Copy, F: Fold<T>>(
    fold: F,
    values: &[T],
    spans: Spans<'_>,
    initial: bool,
) -> Result<Vec<F::Acc>> {
    let len = spans.len();
    if values.len() < len {
        return Err(TensorError::Internal(format!(
            "a cumulative reduction expected {len} values, got {}",
            values.len()
        )));
    }
    // With `initial`, each line's first output is the fold's start (its identity), as it is
    // filled here, and the results follow it.
    let extra = usize::from(initial);
    let mut out_len = 0;
    spans.each(|span, _| out_len += span.outer * (span.n + extra) * span.inner);
    let mut out = vec![fold.init(); out_len];
    let mut out_start = 0;
    spans.each(|span, start| {
        let Span { outer, n, inner } = span;
        for o in 0..outer {
            let base = start + o * n * inner;
            let out_base = out_start + o * (n + extra) * inner + extra * inner;
            if n > 0 {
                for j in 0..inner {
                    out[out_base + j] = fold.first(values[base + j]);
                }
            }
            for i in 1..n {
                let (done, rest) = out.split_at_mut(out_base + i * inner);
                let previous = &done[out_base + (i - 1) * inner..];
                let x = &values[base + i * inner..base + (i + 1) * inner];
                for ((acc, &prev), &v) in rest[..inner].iter_mut().zip(previous).zip(x) {
                    *acc = fold.step(prev, v, i);
                }
            }
        }
        out_start += outer * (n + extra) * inner;
    });
    Ok(out)
}
