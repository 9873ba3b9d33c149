//! Reductions along axes (numpy's `sum`, `prod`, `mean`, `min`, `max`, `argmin`, `argmax`,
//! `any`, `all`, `var`, `std`) and cumulative sums and products, over whole value buffers.
//!
//! A batch's rows are read in logical row-major order; each row is cut into contiguous blocks
//! by a [`ReduceLayout`] (numpy's iteration order, so float sums round as numpy's do) and
//! folded by one loop per reduction ([`fold`]), generic over the element type. Results are
//! numpy 2's types: sums and products of small integers in int64 / uint64 (wrapping, as numpy
//! overflows silently), means and variances of integers in float64, of float16 in float16
//! (through numpy's float32 sum for `mean`).
//!
//! - [`layout`]: blocks of a row, in numpy's order;
//! - [`fold`]: the folds and the loop over a batch;
//! - [`numeric`]: numpy's arithmetic per element type and its pairwise summation;
//! - [`cumulative`]: `cumsum` / `cumprod` along one axis;
//! - [`nan`]: numpy's NaN-aware reductions (`nansum` ... `nanstd`) and `ptp`.

pub mod cumulative;
mod fold;
mod layout;
mod nan;
mod norm;
mod numeric;

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, ArrowPrimitiveType, AsArray, BooleanArray, PrimitiveArray};
use arrow::buffer::{NullBuffer, ScalarBuffer};
use arrow::datatypes::{
    DataType, Float16Type, Float32Type, Float64Type, Int8Type, Int16Type, Int32Type, Int64Type,
    UInt8Type, UInt16Type, UInt32Type, UInt64Type,
};
use half::f16;

pub use fold::Rows;
pub(crate) use fold::{Extreme, FloatProd, FloatSum, Fold, IntFold};
pub use layout::ReduceLayout;
pub(crate) use nan::replaced as nan_replaced;
pub use norm::{NormOrd, norm_type};
pub use numeric::Accum;
pub(crate) use numeric::{Real, Widen, WrapInto, Wrapping};

use self::fold::{ArgExtreme, Truth, fold_row, fold_row_masked, fold_rows, fold_rows_with};
use super::{from_storage, to_storage, with_primitive_type};
use crate::error::{Result, TensorError};

/// A reduction along axes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reduction {
    /// `np.sum`.
    Sum,
    /// `np.prod`.
    Prod,
    /// `np.mean`.
    Mean,
    /// `np.min`.
    Min,
    /// `np.max`.
    Max,
    /// `np.argmin` (one axis or none).
    ArgMin,
    /// `np.argmax` (one axis or none).
    ArgMax,
    /// `np.any`.
    Any,
    /// `np.all`.
    All,
    /// `np.var` with `ddof`.
    Var {
        /// Delta degrees of freedom.
        ddof: i64,
    },
    /// `np.std` with `ddof`.
    Std {
        /// Delta degrees of freedom.
        ddof: i64,
    },
    /// `np.nansum`: NaN counted as 0.
    NanSum,
    /// `np.nanprod`: NaN counted as 1.
    NanProd,
    /// `np.nanmean`: the mean of the elements that are not NaN (NaN where none is).
    NanMean,
    /// `np.nanmin`: NaN ignored (NaN where every element is).
    NanMin,
    /// `np.nanmax`: NaN ignored (NaN where every element is).
    NanMax,
    /// `np.nanargmin` (an all-NaN slice is numpy's error).
    NanArgMin,
    /// `np.nanargmax` (an all-NaN slice is numpy's error).
    NanArgMax,
    /// `np.nanvar` with `ddof` (NaN where no more than `ddof` elements are not NaN).
    NanVar {
        /// Delta degrees of freedom.
        ddof: i64,
    },
    /// `np.nanstd` with `ddof`.
    NanStd {
        /// Delta degrees of freedom.
        ddof: i64,
    },
    /// `np.ptp`: maximum minus minimum, in the element type (integers wrap).
    Ptp,
    /// `np.count_nonzero`: how many elements are not zero (NaN counts), as int64.
    CountNonzero,
    /// The array API standard's `linalg.vector_norm` of order `ord` (numpy 2's).
    VectorNorm {
        /// The order.
        ord: NormOrd,
    },
}

/// The type numpy 2 sums and multiplies `element`s in (`np.sum`, `np.cumsum`): int64 for
/// booleans and signed integers, uint64 for unsigned ones, floats their own.
pub fn sum_type(element: &DataType) -> DataType {
    match element {
        DataType::Boolean | DataType::Int8 | DataType::Int16 | DataType::Int32 => DataType::Int64,
        DataType::UInt8 | DataType::UInt16 | DataType::UInt32 => DataType::UInt64,
        other => other.clone(),
    }
}

impl Reduction {
    /// numpy 2's result type of this reduction of `element`s.
    pub fn result_type(self, element: &DataType) -> DataType {
        match self {
            Self::Sum | Self::Prod | Self::NanSum | Self::NanProd => sum_type(element),
            Self::Min | Self::Max | Self::NanMin | Self::NanMax | Self::Ptp => element.clone(),
            Self::ArgMin
            | Self::ArgMax
            | Self::NanArgMin
            | Self::NanArgMax
            | Self::CountNonzero => DataType::Int64,
            Self::VectorNorm { .. } => norm_type(element),
            Self::Any | Self::All => DataType::Boolean,
            Self::Mean
            | Self::Var { .. }
            | Self::Std { .. }
            | Self::NanMean
            | Self::NanVar { .. }
            | Self::NanStd { .. } => match element {
                DataType::Float16 | DataType::Float32 | DataType::Float64 => element.clone(),
                _ => DataType::Float64,
            },
        }
    }

    /// The plain reduction a NaN-aware one is once NaN is replaced (and what it is of
    /// integers and booleans, which hold no NaN); `None` for any other reduction.
    pub fn without_nan(self) -> Option<Self> {
        Some(match self {
            Self::NanSum => Self::Sum,
            Self::NanProd => Self::Prod,
            Self::NanMean => Self::Mean,
            Self::NanMin => Self::Min,
            Self::NanMax => Self::Max,
            Self::NanArgMin => Self::ArgMin,
            Self::NanArgMax => Self::ArgMax,
            Self::NanVar { ddof } => Self::Var { ddof },
            Self::NanStd { ddof } => Self::Std { ddof },
            _ => return None,
        })
    }

    /// numpy's error for this reduction over `layout` when each output element would fold
    /// nothing (`minimum`, `maximum`, `argmin`, `argmax` have no identity); `None` when it
    /// may. numpy raises even when there is no output element: `np.zeros((0, 0)).min(0)`.
    pub fn empty_error(self, layout: &ReduceLayout) -> Option<String> {
        if layout.count > 0 {
            return None;
        }
        match self {
            Self::Min | Self::VectorNorm { ord: NormOrd::NegInf } => Some(
                "zero-size array to reduction operation minimum which has no identity".to_string(),
            ),
            Self::Max | Self::Ptp => Some(
                "zero-size array to reduction operation maximum which has no identity".to_string(),
            ),
            Self::NanMin => Some(
                "zero-size array to reduction operation fmin which has no identity".to_string(),
            ),
            Self::NanMax => Some(
                "zero-size array to reduction operation fmax which has no identity".to_string(),
            ),
            Self::ArgMin | Self::NanArgMin => {
                Some("attempt to get argmin of an empty sequence".to_string())
            }
            Self::ArgMax | Self::NanArgMax => {
                Some("attempt to get argmax of an empty sequence".to_string())
            }
            _ => None,
        }
    }
}

/// numpy's optional arguments of a reduction.
#[derive(Debug, Clone, Copy, Default)]
pub struct Extras<'a> {
    /// numpy's `initial`: one value of the reduction's result type that every output element
    /// starts from (sums, products, minima, maxima and the truth reductions).
    pub initial: Option<&'a ArrayRef>,
    /// numpy's `where`: a flag per value, only the values whose flag is set reduced.
    pub mask: Option<&'a [bool]>,
    /// Whether each value's `where` flag is NULL (its output element then NULL).
    pub mask_nulls: Option<&'a [bool]>,
}

impl Extras<'_> {
    /// `initial` as a value of `P` (the result's storage type).
    fn initial<P: ArrowPrimitiveType>(&self) -> Result<Option<P::Native>> {
        let Some(initial) = self.initial else {
            return Ok(None);
        };
        let storage = to_storage(initial)?;
        match storage.as_primitive_opt::<P>() {
            Some(values) if !values.is_empty() => Ok(Some(values.value(0))),
            _ => Err(TensorError::Internal(format!(
                "a reduction's initial value is {}, not its result type",
                initial.data_type()
            ))),
        }
    }

    /// The same `where` mask without `initial`.
    pub(crate) fn mask_only(&self) -> Self {
        Self {
            initial: None,
            ..*self
        }
    }
}

/// Reduces every row of `values` (the rows' elements of type `element`, logical row-major,
/// one row after another as `rows` says): one value per output element of each row, of
/// [`Reduction::result_type`], NULL where an element NULL took part. `scalar`: the result is
/// 0-d (numpy's float16 `mean` then rounds its float64 quotient once, not through float32).
pub fn reduce(
    op: Reduction,
    element: &DataType,
    values: &ArrayRef,
    rows: Rows<'_>,
    scalar: bool,
) -> Result<ArrayRef> {
    reduce_with(op, element, values, rows, scalar, Extras::default())
}

/// [`reduce`] with numpy's `initial` and `where` (`extras`).
pub fn reduce_with(
    op: Reduction,
    element: &DataType,
    values: &ArrayRef,
    rows: Rows<'_>,
    scalar: bool,
    extras: Extras<'_>,
) -> Result<ArrayRef> {
    if extras.initial.is_none() {
        rows.visit(|row, layout, _, _| match op.empty_error(layout) {
            Some(message) => Err(TensorError::Data(format!(
                "{message} at row {row} of its batch"
            ))),
            None => Ok(()),
        })?;
    }
    if let Some(out) = nan::reduce(op, element, values, rows, scalar, extras)? {
        return element_nulls(out, values, rows, extras);
    }
    let storage = to_storage(values)?;
    let mask = extras.mask;
    let out = match op {
        Reduction::Sum | Reduction::Prod => {
            sum_or_product(op == Reduction::Prod, element, &storage, rows, extras)?
        }
        Reduction::Mean => mean(element, &storage, rows, scalar, mask)?,
        Reduction::Var { ddof } => moments(element, &storage, rows, ddof, false, None, mask)?,
        Reduction::Std { ddof } => moments(element, &storage, rows, ddof, true, None, mask)?,
        Reduction::Min | Reduction::Max => {
            let fold = Extreme {
                max: op == Reduction::Max,
            };
            let out = with_primitive_type!(storage.data_type(), P => same::<P, _>(fold, &storage, rows, extras)?, _ => return unsupported(element));
            from_storage(out, element)?
        }
        Reduction::ArgMin | Reduction::ArgMax => {
            let fold = ArgExtreme {
                max: op == Reduction::ArgMax,
            };
            with_primitive_type!(storage.data_type(), P => positions::<P>(fold, &storage, rows)?, _ => return unsupported(element))
        }
        Reduction::Any | Reduction::All => {
            let fold = Truth {
                all: op == Reduction::All,
            };
            let initial = extras.initial.map(|i| i.as_boolean_opt().is_some_and(|b| b.value(0)));
            with_primitive_type!(storage.data_type(), P => {
                let out = fold_rows_with(fold, storage.as_primitive::<P>().values(), rows, initial, mask)?;
                Arc::new(BooleanArray::from(out)) as ArrayRef
            }, _ => return unsupported(element))
        }
        // `nan::reduce` ran these.
        Reduction::NanSum
        | Reduction::NanProd
        | Reduction::NanMean
        | Reduction::NanMin
        | Reduction::NanMax
        | Reduction::NanArgMin
        | Reduction::NanArgMax
        | Reduction::NanVar { .. }
        | Reduction::NanStd { .. }
        | Reduction::Ptp => {
            return Err(TensorError::Internal(format!(
                "{op:?} is reduced by the NaN-aware kernel"
            )));
        }
        Reduction::VectorNorm { ord } => norm::vector_norm(ord, element, values, rows, scalar)?,
        Reduction::CountNonzero => {
            // Each element's truth value (numpy's `x != 0`; arrow's cast to Boolean is the
            // same test, NaN true and -0.0 false) summed as bytes into uint64.
            let truth = arrow::compute::cast(values, &DataType::Boolean)?;
            let bytes = arrow::compute::cast(&truth, &DataType::UInt8)?;
            let counts = reduce(Reduction::Sum, &DataType::UInt8, &bytes, rows, scalar)?;
            arrow::compute::cast(&counts, &DataType::Int64)?
        }
    };
    element_nulls(out, values, rows, extras)
}

fn unsupported<T>(element: &DataType) -> Result<T> {
    Err(TensorError::ElementType(element.to_string()))
}

/// A fold whose output element type is the input's.
fn same<P: ArrowPrimitiveType, F: Fold<P::Native, Acc = P::Native>>(
    fold: F,
    values: &ArrayRef,
    rows: Rows<'_>,
    extras: Extras<'_>,
) -> Result<ArrayRef> {
    let initial = extras.initial::<P>()?;
    let out = fold_rows_with(fold, values.as_primitive::<P>().values(), rows, initial, extras.mask)?;
    Ok(Arc::new(PrimitiveArray::<P>::new(
        ScalarBuffer::from(out),
        None,
    )))
}

/// A fold of `P` values into `O` values.
fn into<P: ArrowPrimitiveType, O: ArrowPrimitiveType, F: Fold<P::Native, Acc = O::Native>>(
    fold: F,
    values: &ArrayRef,
    rows: Rows<'_>,
    extras: Extras<'_>,
) -> Result<ArrayRef> {
    let initial = extras.initial::<O>()?;
    let out = fold_rows_with(fold, values.as_primitive::<P>().values(), rows, initial, extras.mask)?;
    Ok(Arc::new(PrimitiveArray::<O>::new(
        ScalarBuffer::from(out),
        None,
    )))
}

fn positions<P: ArrowPrimitiveType>(
    fold: ArgExtreme,
    values: &ArrayRef,
    rows: Rows<'_>,
) -> Result<ArrayRef>
where
    P::Native: numeric::Ordered,
{
    let out = fold_rows(fold, values.as_primitive::<P>().values(), rows)?;
    let out: Vec<i64> = out.into_iter().map(|(_, at)| at.max(0)).collect();
    Ok(Arc::new(PrimitiveArray::<Int64Type>::from(out)))
}

/// Runs `$body` with `$P` the arrow type of a signed integer (or boolean-as-byte) storage
/// type, or `$fallback`.
macro_rules! signed_or_unsigned {
    ($data_type:expr, $element:expr, signed $P:ident => $signed:expr, unsigned $U:ident => $unsigned:expr, _ => $fallback:expr) => {
        match ($data_type, $element) {
            (DataType::Int8, _) => {
                type $P = Int8Type;
                $signed
            }
            (DataType::Int16, _) => {
                type $P = Int16Type;
                $signed
            }
            (DataType::Int32, _) => {
                type $P = Int32Type;
                $signed
            }
            (DataType::Int64, _) => {
                type $P = Int64Type;
                $signed
            }
            (DataType::UInt8, DataType::Boolean) => {
                type $P = UInt8Type;
                $signed
            }
            (DataType::UInt8, _) => {
                type $U = UInt8Type;
                $unsigned
            }
            (DataType::UInt16, _) => {
                type $U = UInt16Type;
                $unsigned
            }
            (DataType::UInt32, _) => {
                type $U = UInt32Type;
                $unsigned
            }
            (DataType::UInt64, _) => {
                type $U = UInt64Type;
                $unsigned
            }
            _ => $fallback,
        }
    };
}

fn sum_or_product(
    product: bool,
    element: &DataType,
    storage: &ArrayRef,
    rows: Rows<'_>,
    extras: Extras<'_>,
) -> Result<ArrayRef> {
    macro_rules! float {
        ($P:ty, $T:ty) => {
            if product {
                same::<$P, _>(FloatProd::<$T>::default(), storage, rows, extras)
            } else {
                same::<$P, _>(FloatSum::<$T>::default(), storage, rows, extras)
            }
        };
    }
    match storage.data_type() {
        DataType::Float16 => float!(Float16Type, f16),
        DataType::Float32 => float!(Float32Type, f32),
        DataType::Float64 => float!(Float64Type, f64),
        data_type => signed_or_unsigned!(data_type, element,
            signed P => into::<P, Int64Type, _>(IntFold::<i64>::new(product), storage, rows, extras),
            unsigned U => into::<U, UInt64Type, _>(IntFold::<u64>::new(product), storage, rows, extras),
            _ => unsupported(element)),
    }
}

/// Each output element's number of reduced elements, in output order (with `mask`, of
/// those whose flag is set: numpy's `_count_reduce_items` with `where`).
fn counts(rows: Rows<'_>, out_len: usize, mask: Option<&[bool]>) -> Result<Vec<u64>> {
    if let Some(mask) = mask {
        let ones = vec![1u8; mask.len()];
        return fold_rows_with(IntFold::<u64>::new(false), &ones, rows, None, Some(mask));
    }
    let mut counts = vec![0; out_len];
    rows.visit(|_, layout, _, start| {
        counts[start..start + layout.out_size].fill(layout.count as u64);
        Ok(())
    })?;
    Ok(counts)
}

/// numpy's `mean`: the sum (float16 summed in float32, integers in float64) divided by the
/// count in float64 (numpy divides by an `intp`, which promotes to float64), rounded to the
/// result type — float16 through float32 unless the result is 0-d (numpy's `_mean`).
fn mean(
    element: &DataType,
    storage: &ArrayRef,
    rows: Rows<'_>,
    scalar: bool,
    mask: Option<&[bool]>,
) -> Result<ArrayRef> {
    fn finish<S: Real, O: ArrowPrimitiveType>(
        sums: &[S],
        rows: Rows<'_>,
        mask: Option<&[bool]>,
        round: impl Fn(f64) -> O::Native,
    ) -> Result<ArrayRef> {
        let counts = counts(rows, sums.len(), mask)?;
        let out: Vec<O::Native> = sums
            .iter()
            .zip(&counts)
            .map(|(s, &n)| round(s.to_f64() / n as f64))
            .collect();
        Ok(Arc::new(PrimitiveArray::<O>::new(ScalarBuffer::from(out), None)))
    }
    match storage.data_type() {
        DataType::Float16 => {
            let sums = fold_rows_with(
                FloatSum::<f32>::default(),
                storage.as_primitive::<Float16Type>().values(),
                rows,
                None,
                mask,
            )?;
            finish::<f32, Float16Type>(&sums, rows, mask, |q| {
                if scalar {
                    f16::from_f64(q)
                } else {
                    f16::from_f32(q as f32)
                }
            })
        }
        DataType::Float32 => {
            let sums = fold_rows_with(
                FloatSum::<f32>::default(),
                storage.as_primitive::<Float32Type>().values(),
                rows,
                None,
                mask,
            )?;
            finish::<f32, Float32Type>(&sums, rows, mask, |q| q as f32)
        }
        DataType::Float64 => {
            let sums = fold_rows_with(
                FloatSum::<f64>::default(),
                storage.as_primitive::<Float64Type>().values(),
                rows,
                None,
                mask,
            )?;
            finish::<f64, Float64Type>(&sums, rows, mask, |q| q)
        }
        // Each integer widened as it is added (the same sums as widening the batch first,
        // without a float64 copy of it: eight bytes per uint8 element).
        data_type => with_primitive_type!(data_type, P => {
            let sums = fold_rows_with(FloatSum::<f64>::default(), storage.as_primitive::<P>().values(), rows, None, mask)?;
            finish::<f64, Float64Type>(&sums, rows, mask, |q| q)
        }, _ => unsupported(element)),
    }
}

/// Integers as numpy's `dtype='f8'` reads them.
fn to_f64<T: Widen<f64>>(values: &[T]) -> Vec<f64> {
    values.iter().map(|&v| v.widen_to()).collect()
}

/// numpy's `_var` (and `_std`, its square root in the result type): the mean as `mean`
/// computes it but in the result type (float16 stays float16), the squared deviations
/// `(x - mean) * (x - mean)` elementwise in the result type, their sum, divided by
/// `max(count - ddof, 0)` in float64 and rounded.
///
/// `counts` (numpy's `nanvar`): each output element's number of elements that are not NaN
/// (the NaN elements of `storage` replaced by 0), which the mean and `ddof` count instead, a
/// NaN element's deviation 0, and NaN where no more than `ddof` elements remain.
///
/// `mask` (numpy's `where`): only the values whose flag is set are summed and counted.
pub(crate) fn moments(
    element: &DataType,
    storage: &ArrayRef,
    rows: Rows<'_>,
    ddof: i64,
    sqrt: bool,
    nan_counts: Option<(&[u64], &[bool])>,
    mask: Option<&[bool]>,
) -> Result<ArrayRef> {
    fn run<
        S: Real + Widen<S::Acc> + arrow::datatypes::ArrowNativeType,
        O: ArrowPrimitiveType<Native = S>,
    >(
        values: &[S],
        rows: Rows<'_>,
        ddof: i64,
        sqrt: bool,
        nan_counts: Option<(&[u64], &[bool])>,
        mask: Option<&[bool]>,
    ) -> Result<ArrayRef> {
        let mut out = fold_rows_with(FloatSum::<S>::default(), values, rows, None, mask)?;
        let masked = match (nan_counts, mask) {
            (None, Some(_)) => Some(counts(rows, out.len(), mask)?),
            _ => None,
        };
        let counts = nan_counts.map(|(c, _)| c).or(masked.as_deref());
        let mut deviations: Vec<S> = Vec::new();
        rows.visit(|_, layout, start, out_start| {
            let groups = &mut out[out_start..out_start + layout.out_size];
            let count = |k: usize| counts.map_or(layout.count as u64, |c| c[out_start + k]);
            for (k, mean) in groups.iter_mut().enumerate() {
                *mean = S::from_f64(mean.to_f64() / count(k) as f64);
            }
            let x = &values[start..start + layout.in_size];
            deviations.clear();
            deviations.resize(layout.in_size, S::default());
            for b in &layout.blocks {
                for j in 0..layout.inner {
                    let k = if layout.inner_reduced {
                        b.output
                    } else {
                        b.output + j
                    };
                    if nan_counts.is_some_and(|(_, nan)| nan[start + b.input + j]) {
                        continue; // a NaN element: deviation 0 (numpy's `_copyto(arr, 0, mask)`)
                    }
                    let d = S::narrow(x[b.input + j].widen() - groups[k].widen());
                    deviations[b.input + j] = S::narrow(d.widen() * d.widen());
                }
            }
            groups.fill(<FloatSum<S> as Fold<S>>::init(&FloatSum::default()));
            match mask {
                Some(mask) => fold_row_masked(
                    FloatSum::<S>::default(),
                    layout,
                    &deviations,
                    &mask[start..start + layout.in_size],
                    groups,
                ),
                None => fold_row(FloatSum::<S>::default(), layout, &deviations, groups),
            }
            for (k, v) in groups.iter_mut().enumerate() {
                let remaining = (count(k) as i64).saturating_sub(ddof);
                let var = if nan_counts.is_some() && remaining <= 0 {
                    S::from_f64(f64::NAN) // numpy's nanvar: NaN where dof <= 0
                } else {
                    S::from_f64(v.to_f64() / remaining.max(0) as f64)
                };
                *v = if sqrt {
                    S::narrow(numeric::Accum::sqrt(var.widen()))
                } else {
                    var
                };
            }
            Ok(())
        })?;
        Ok(Arc::new(PrimitiveArray::<O>::new(
            ScalarBuffer::from(out),
            None,
        )))
    }
    match storage.data_type() {
        DataType::Float16 => run::<f16, Float16Type>(
            storage.as_primitive::<Float16Type>().values(),
            rows,
            ddof,
            sqrt,
            nan_counts,
            mask,
        ),
        DataType::Float32 => run::<f32, Float32Type>(
            storage.as_primitive::<Float32Type>().values(),
            rows,
            ddof,
            sqrt,
            nan_counts,
            mask,
        ),
        DataType::Float64 => run::<f64, Float64Type>(
            storage.as_primitive::<Float64Type>().values(),
            rows,
            ddof,
            sqrt,
            nan_counts,
            mask,
        ),
        data_type => with_primitive_type!(data_type, P => {
            run::<f64, Float64Type>(&to_f64(storage.as_primitive::<P>().values()), rows, ddof, sqrt, nan_counts, mask)
        }, _ => unsupported(element)),
    }
}

/// `out` with an output element NULL wherever an element NULL of `values` was reduced into
/// it, or a NULL `where` flag read for it (SQL's rule; numpy has no NULLs).
fn element_nulls(
    out: ArrayRef,
    values: &ArrayRef,
    rows: Rows<'_>,
    extras: Extras<'_>,
) -> Result<ArrayRef> {
    let nulls = values.logical_nulls().filter(|n| n.null_count() > 0);
    if nulls.is_none() && extras.mask_nulls.is_none() {
        return Ok(out);
    }
    let flags: Vec<u8> = (0..values.len())
        .map(|i| {
            let null = nulls.as_ref().is_some_and(|n| n.is_null(i))
                && extras.mask.is_none_or(|m| m[i]);
            u8::from(null || extras.mask_nulls.is_some_and(|m| m[i]))
        })
        .collect();
    let any_null = fold_rows(Truth { all: false }, &flags, rows)?;
    let valid = NullBuffer::from(any_null.iter().map(|&n| !n).collect::<Vec<_>>());
    Ok(super::layout::with_row_nulls(out, Some(&valid))?)
}
