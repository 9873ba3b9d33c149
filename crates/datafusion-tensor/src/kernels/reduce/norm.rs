//! The array API standard's `linalg.vector_norm` along axes, as numpy 2 computes it
//! (`numpy.linalg.vector_norm` reduces with `linalg.norm`'s vector formulas): integers and
//! booleans in float64, floats in their own type; `ord` 2 is `sqrt(sum(x * x))`, 1
//! `sum(|x|)`, inf `max(|x|)`, -inf `min(|x|)`, 0 `sum(x != 0)` (in the float type), any
//! other `p` `sum(|x| ** p) ** (1 / p)` (`p` and `1 / p` in the float type, as numpy's weak
//! Python float and `reciprocal(ord, dtype=...)` make them). Each step is a whole-buffer
//! kernel and the sums are [`super::reduce`]'s (numpy's pairwise order).

use std::sync::Arc;

use arrow::array::{ArrayRef, AsArray, PrimitiveArray};
use arrow::compute::cast;
use arrow::datatypes::{DataType, Float16Type, Float32Type, Float64Type};
use half::f16;

use super::{Reduction, Rows, reduce};
use crate::error::{Result, TensorError};
use crate::kernels::unary::{UnaryOp, apply};

/// The order of a vector norm (`P` holds the bits of a float64 `p`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NormOrd {
    /// 2: the Euclidean norm (the default).
    Two,
    /// 1.
    One,
    /// inf: the largest magnitude.
    Inf,
    /// -inf: the smallest magnitude.
    NegInf,
    /// 0: how many elements are not zero.
    Zero,
    /// Any other `p`, as `f64::to_bits`.
    P(u64),
}

impl NormOrd {
    /// The order of a number `p` (numpy compares `ord` with each order exactly).
    #[allow(clippy::float_cmp, reason = "numpy's exact comparisons of ord")]
    pub fn of(p: f64) -> Self {
        if p == 2.0 {
            Self::Two
        } else if p == 1.0 {
            Self::One
        } else if p == f64::INFINITY {
            Self::Inf
        } else if p == f64::NEG_INFINITY {
            Self::NegInf
        } else if p == 0.0 {
            Self::Zero
        } else {
            Self::P(p.to_bits())
        }
    }
}

/// The float type numpy computes a norm of `element`s in.
pub fn norm_type(element: &DataType) -> DataType {
    match element {
        DataType::Float16 | DataType::Float32 | DataType::Float64 => element.clone(),
        _ => DataType::Float64,
    }
}

/// The vector norms of every row of `values` over `rows`' reduced axes.
pub(super) fn vector_norm(
    ord: NormOrd,
    element: &DataType,
    values: &ArrayRef,
    rows: Rows<'_>,
    scalar: bool,
) -> Result<ArrayRef> {
    let float = norm_type(element);
    let x = cast(values, &float)?;
    let abs = |x: &ArrayRef| apply(UnaryOp::Abs, &float, x, &float);
    match ord {
        NormOrd::Zero => {
            let truth = cast(&x, &DataType::Boolean)?;
            let ones = cast(&truth, &float)?;
            reduce(Reduction::Sum, &float, &ones, rows, scalar)
        }
        NormOrd::One => reduce(Reduction::Sum, &float, &abs(&x)?, rows, scalar),
        NormOrd::Inf => max_or_zero(&abs(&x)?, rows),
        NormOrd::NegInf => reduce(Reduction::Min, &float, &abs(&x)?, rows, scalar),
        NormOrd::Two => {
            let squares = arrow::compute::kernels::numeric::mul(&x, &x)?;
            let sum = reduce(Reduction::Sum, &float, &squares, rows, scalar)?;
            apply(UnaryOp::Sqrt, &float, &sum, &float)
        }
        NormOrd::P(bits) => {
            let p = f64::from_bits(bits);
            let powered = power(&abs(&x)?, p, false)?;
            let sum = reduce(Reduction::Sum, &float, &powered, rows, scalar)?;
            power(&sum, p, true)
        }
    }
}

/// numpy 2's `abs(x).max(axis, initial=0)`: the largest magnitude, 0 over no elements (the
/// fold's start, -inf, is what an empty line leaves; magnitudes are never below 0).
fn max_or_zero(magnitudes: &ArrayRef, rows: Rows<'_>) -> Result<ArrayRef> {
    let fold = super::fold::Extreme { max: true };
    Ok(match magnitudes.data_type() {
        DataType::Float64 => {
            let out = super::same::<Float64Type, _>(fold, magnitudes, rows, super::Extras::default())?;
            let out = out.as_primitive::<Float64Type>();
            Arc::new(out.unary::<_, Float64Type>(|v| if v == f64::NEG_INFINITY { 0.0 } else { v }))
                as ArrayRef
        }
        DataType::Float32 => {
            let out = super::same::<Float32Type, _>(fold, magnitudes, rows, super::Extras::default())?;
            let out = out.as_primitive::<Float32Type>();
            Arc::new(out.unary::<_, Float32Type>(|v| if v == f32::NEG_INFINITY { 0.0 } else { v }))
        }
        DataType::Float16 => {
            let out = super::same::<Float16Type, _>(fold, magnitudes, rows, super::Extras::default())?;
            let out = out.as_primitive::<Float16Type>();
            let zeroed: PrimitiveArray<Float16Type> =
                out.unary(|v| if v == f16::NEG_INFINITY { f16::ZERO } else { v });
            Arc::new(zeroed)
        }
        other => return Err(TensorError::ElementType(other.to_string())),
    })
}

/// Every value raised to `p` (`reciprocal`: to `1 / p`), `p` and its reciprocal rounded to
/// the values' float type first, float16 computed in float32 and rounded (numpy's half power).
/// numpy's fast scalar powers first: ** 2 a square, ** 0.5 a square root, ** -1 a reciprocal
/// (exact, as numpy computes them); other exponents through `pow`.
fn power(values: &ArrayRef, p: f64, reciprocal: bool) -> Result<ArrayRef> {
    let float = values.data_type().clone();
    let e = if reciprocal { 1.0 / p } else { p };
    match e {
        2.0 => return Ok(arrow::compute::kernels::numeric::mul(values, values)?),
        0.5 => return apply(UnaryOp::Sqrt, &float, values, &float),
        -1.0 => {
            let ones = cast(&(Arc::new(arrow::array::Float64Array::from(vec![1.0; values.len()])) as ArrayRef), &float)?;
            return Ok(arrow::compute::kernels::numeric::div(&ones, values)?);
        }
        _ => {}
    }
    Ok(match values.data_type() {
        DataType::Float64 => {
            let e = if reciprocal { 1.0 / p } else { p };
            let v = values.as_primitive::<Float64Type>();
            Arc::new(v.unary::<_, Float64Type>(|x| x.powf(e))) as ArrayRef
        }
        DataType::Float32 => {
            let p = p as f32;
            let e = if reciprocal { 1.0 / p } else { p };
            let v = values.as_primitive::<Float32Type>();
            Arc::new(v.unary::<_, Float32Type>(|x| x.powf(e)))
        }
        DataType::Float16 => {
            let p = f16::from_f64(p);
            let e = if reciprocal { f16::from_f32(1.0 / p.to_f32()) } else { p };
            let v = values.as_primitive::<Float16Type>();
            let out: PrimitiveArray<Float16Type> =
                v.unary(|x| f16::from_f32(x.to_f32().powf(e.to_f32())));
            Arc::new(out)
        }
        other => return Err(TensorError::ElementType(other.to_string())),
    })
}
