//! numpy's NaN-aware reductions of floats (`nansum`, `nanprod`, `nanmean`, `nanmin`,
//! `nanmax`, `nanargmin`, `nanargmax`, `nanvar`, `nanstd`), as numpy's `nanfunctions.py`
//! computes them: the NaN elements replaced (by 0, 1 or an infinity, `_replace_nan`), the
//! plain reduction of that, and the count of elements that are not NaN where numpy divides
//! by it or checks it. Of integers and booleans they are the plain reductions (numpy's
//! `_replace_nan` gives no mask). `ptp` (maximum minus minimum) is here too.

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, ArrowPrimitiveType, AsArray, BooleanArray, PrimitiveArray};
use arrow::compute::kernels::numeric;
use arrow::datatypes::{DataType, Float16Type, Float32Type, Float64Type, UInt8Type, UInt64Type};
use half::f16;

use super::{Extras, Reduction, Rows, moments, reduce_with};
use crate::error::{Result, TensorError};

/// `op` of `values` when it is a NaN-aware reduction or `ptp`; `None` otherwise.
pub(super) fn reduce(
    op: Reduction,
    element: &DataType,
    values: &ArrayRef,
    rows: Rows<'_>,
    scalar: bool,
    extras: Extras<'_>,
) -> Result<Option<ArrayRef>> {
    if op == Reduction::Ptp {
        return ptp(element, values, rows, scalar).map(Some);
    }
    let Some(plain_op) = op.without_nan() else {
        return Ok(None);
    };
    let plain = |op, element, values, extras| reduce_with(op, element, values, rows, scalar, extras);
    if !element.is_floating() {
        return plain(plain_op, element, values, extras).map(Some);
    }
    let mask = extras.mask;
    let nan = is_nan(values);
    // The value numpy's `_replace_nan` puts in NaN's place for this reduction.
    let fill = match op {
        Reduction::NanProd => 1.0,
        Reduction::NanMin | Reduction::NanArgMin => f64::INFINITY,
        Reduction::NanMax | Reduction::NanArgMax => f64::NEG_INFINITY,
        _ => 0.0,
    };
    let filled = replaced(values, fill);
    let out = match op {
        Reduction::NanSum | Reduction::NanProd => plain(plain_op, element, &filled, extras)?,
        Reduction::NanMin | Reduction::NanMax => {
            // numpy's fmin / fmax reduce: NaN only where every element is, unless an initial
            // value takes part (a NaN initial value is ignored as fmin ignores NaN, so it is
            // the fill: the identity of the reduction of what remains).
            let initial = match extras.initial {
                Some(initial) if is_nan(&arrow::compute::cast(initial, &DataType::Float64)?)[0] => {
                    Some(fill_value(initial.data_type(), fill))
                }
                Some(_) => None,
                None => Some(None),
            };
            match initial {
                None => plain(plain_op, element, &filled, extras)?,
                Some(fill) => {
                    let extras = Extras {
                        initial: fill.as_ref(),
                        ..extras
                    };
                    let out = plain(plain_op, element, &filled, extras)?;
                    nan_where_empty(&out, &non_nan_counts(&nan, rows, mask)?)?
                }
            }
        }
        Reduction::NanArgMin | Reduction::NanArgMax => {
            if let Some(row) = first_all_nan_row(&non_nan_counts(&nan, rows, None)?, rows)? {
                return Err(TensorError::Data(format!(
                    "All-NaN slice encountered at row {row} of its batch"
                )));
            }
            plain(plain_op, element, &filled, extras)?
        }
        Reduction::NanMean => {
            // numpy's `_nanmean`: the sum in the element type (np.sum), divided by the count
            // in float64 and cast back (`_divide_by_count`); 0 / 0 is NaN.
            let sums = plain(Reduction::Sum, element, &filled, extras.mask_only())?;
            divide(&sums, &non_nan_counts(&nan, rows, mask)?)?
        }
        Reduction::NanVar { ddof } | Reduction::NanStd { ddof } => {
            let counts = non_nan_counts(&nan, rows, mask)?;
            let sqrt = matches!(op, Reduction::NanStd { .. });
            moments(element, &filled, rows, ddof, sqrt, Some((counts.values(), &nan)), mask)?
        }
        _ => return Ok(None),
    };
    Ok(Some(out))
}

/// Whether each value is NaN (`x != x`, whatever the float type; a NULL element's slot is
/// read as stored).
fn is_nan(values: &ArrayRef) -> Vec<bool> {
    #[allow(clippy::eq_op, reason = "x != x is the NaN test of any float type")]
    fn flags<P: ArrowPrimitiveType>(values: &ArrayRef) -> Vec<bool> {
        values.as_primitive::<P>().values().iter().map(|v| v != v).collect()
    }
    match values.data_type() {
        DataType::Float16 => flags::<Float16Type>(values),
        DataType::Float32 => flags::<Float32Type>(values),
        DataType::Float64 => flags::<Float64Type>(values),
        _ => vec![false; values.len()],
    }
}

/// `values` with every NaN replaced by `fill` (in the element type), element NULLs kept.
pub(crate) fn replaced(values: &ArrayRef, fill: f64) -> ArrayRef {
    match values.data_type() {
        DataType::Float16 => {
            let fill = f16::from_f64(fill);
            Arc::new(
                values
                    .as_primitive::<Float16Type>()
                    .unary::<_, Float16Type>(|v| if v.is_nan() { fill } else { v }),
            )
        }
        DataType::Float32 => {
            #[allow(clippy::cast_possible_truncation, reason = "0, 1 and the infinities")]
            let fill = fill as f32;
            Arc::new(
                values
                    .as_primitive::<Float32Type>()
                    .unary::<_, Float32Type>(|v| if v.is_nan() { fill } else { v }),
            )
        }
        DataType::Float64 => Arc::new(
            values
                .as_primitive::<Float64Type>()
                .unary::<_, Float64Type>(|v| if v.is_nan() { fill } else { v }),
        ),
        _ => Arc::clone(values),
    }
}

/// `fill` as a one-value array of `data_type` (a float type).
fn fill_value(data_type: &DataType, fill: f64) -> Option<ArrayRef> {
    let fill: ArrayRef = Arc::new(PrimitiveArray::<Float64Type>::from(vec![fill]));
    arrow::compute::cast(&fill, data_type).ok()
}

/// Each output element's number of reduced elements that are not NaN (`nan`: each element's
/// flag; with `mask`, of the elements whose flag is set).
fn non_nan_counts(
    nan: &[bool],
    rows: Rows<'_>,
    mask: Option<&[bool]>,
) -> Result<PrimitiveArray<UInt64Type>> {
    let flags: PrimitiveArray<UInt8Type> = nan.iter().map(|&n| u8::from(!n)).collect();
    let flags: ArrayRef = Arc::new(flags);
    let extras = Extras {
        mask,
        ..Extras::default()
    };
    let counts = reduce_with(Reduction::Sum, &DataType::UInt8, &flags, rows, false, extras)?;
    counts
        .as_primitive_opt::<UInt64Type>()
        .cloned()
        .ok_or_else(|| TensorError::Internal("nan reduction: counts are not uint64".to_string()))
}

/// The first row (of the batch) with an output element whose slice is all NaN.
fn first_all_nan_row(
    counts: &PrimitiveArray<UInt64Type>,
    rows: Rows<'_>,
) -> Result<Option<usize>> {
    let mut first = None;
    rows.visit(|row, layout, _, out_start| {
        if first.is_none()
            && counts.values()[out_start..out_start + layout.out_size].contains(&0)
        {
            first = Some(row);
        }
        Ok(())
    })?;
    Ok(first)
}

/// `out` (floats) with NaN wherever `counts` is 0.
fn nan_where_empty(out: &ArrayRef, counts: &PrimitiveArray<UInt64Type>) -> Result<ArrayRef> {
    let empty: BooleanArray = counts.values().iter().map(|&c| Some(c == 0)).collect();
    let nan: ArrayRef = match out.data_type() {
        DataType::Float16 => Arc::new(PrimitiveArray::<Float16Type>::from(vec![f16::NAN])),
        DataType::Float32 => Arc::new(PrimitiveArray::<Float32Type>::from(vec![f32::NAN])),
        _ => Arc::new(PrimitiveArray::<Float64Type>::from(vec![f64::NAN])),
    };
    let nan = arrow::array::Scalar::new(nan);
    Ok(arrow::compute::kernels::zip::zip(&empty, &nan, out)?)
}

/// `sums / counts` in float64, cast back to the sums' type (numpy's `_divide_by_count`).
fn divide(sums: &ArrayRef, counts: &PrimitiveArray<UInt64Type>) -> Result<ArrayRef> {
    let wide = arrow::compute::cast(sums, &DataType::Float64)?;
    let wide = wide.as_primitive::<Float64Type>();
    let quotients: Vec<f64> = wide
        .values()
        .iter()
        .zip(counts.values())
        .map(|(&s, &n)| s / n as f64)
        .collect();
    let quotients = PrimitiveArray::<Float64Type>::new(quotients.into(), wide.nulls().cloned());
    Ok(arrow::compute::cast(&quotients, sums.data_type())?)
}

/// numpy's `ptp`: `maximum.reduce - minimum.reduce` in the element type (integers wrap);
/// booleans are numpy's subtract error.
fn ptp(element: &DataType, values: &ArrayRef, rows: Rows<'_>, scalar: bool) -> Result<ArrayRef> {
    if *element == DataType::Boolean {
        return Err(TensorError::Data(
            "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` operator, or the logical_xor function instead.".to_string(),
        ));
    }
    let max = reduce_with(Reduction::Max, element, values, rows, scalar, Extras::default())?;
    let min = reduce_with(Reduction::Min, element, values, rows, scalar, Extras::default())?;
    Ok(numeric::sub_wrapping(&max, &min)?)
}
