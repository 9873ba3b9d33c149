//! The `tensor_at_*` family over a whole batch: JAX's `x.at[idx].get()` as a filled gather,
//! and `x.at[idx].op(y)` as a scatter of `y` into a copy of `x` (spec.md §5).
//!
//! Everything here works on a batch's row-major values and a compiled [`ScatterPlan`]; the
//! element loops themselves are [`super::scatter`]'s. What JAX does beyond one loop lives
//! here: booleans combined as bytes, `divide` and `power` as a scatter-multiplied factor
//! applied once, element NULLs known before the values (an overflow in an element that ends
//! NULL does not count), a lambda applied round by round.

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, AsArray, PrimitiveArray, UInt32Array};
use arrow::buffer::{BooleanBuffer, NullBuffer, ScalarBuffer};
use arrow::compute::{cast, cast_with_options};
use arrow::datatypes::{ArrowPrimitiveType, DataType, Float64Type, Int64Type};

use super::gather::gather_filled;
use super::scatter::{Element, FailedRow, Targets, Values, scatter};
use super::{from_storage, layout, storage_type, to_storage};
use crate::dtype::strict_cast;
use crate::error::{Result, TensorError};
use crate::index::{DROPPED, DynamicKind, GatherPlan, ScatterPlan, Windows};
use crate::tensor_type::TensorType;

/// A named unary function for `tensor_at_apply`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UnaryFn {
    /// `-v`.
    Negative,
    /// `|v|`.
    Abs,
    /// `v * v`.
    Square,
    /// -1, 0 or 1.
    Sign,
    /// Floats only from here on.
    Sqrt,
    /// `e^v`.
    Exp,
    /// Natural logarithm.
    Log,
    /// Sine.
    Sin,
    /// Cosine.
    Cos,
    /// Tangent.
    Tan,
    /// Hyperbolic tangent.
    Tanh,
    /// Round down.
    Floor,
    /// Round up.
    Ceil,
    /// Round half to even (numpy's `round`).
    Round,
}

impl UnaryFn {
    /// Whether the function keeps integer types integer (the others give floats). Rounding an
    /// integer gives it back unchanged (JAX: `jnp.floor` of an int32 array is that array).
    pub fn keeps_integers(self) -> bool {
        matches!(
            self,
            Self::Negative
                | Self::Abs
                | Self::Square
                | Self::Sign
                | Self::Floor
                | Self::Ceil
                | Self::Round
        )
    }

    fn apply<T: Element>(self, v: T) -> Option<T> {
        let float = |f: fn(f64) -> f64| Some(T::from_f64(f(v.to_f64())));
        match self {
            Self::Negative => T::neg(v),
            Self::Abs => T::abs(v),
            Self::Square => T::mul(v, v),
            Self::Sign => Some(T::sign(v)),
            // Floats only (checked when planning): computed in f64 and rounded once.
            Self::Sqrt => float(f64::sqrt),
            Self::Exp => float(f64::exp),
            Self::Log => float(f64::ln),
            Self::Sin => float(f64::sin),
            Self::Cos => float(f64::cos),
            Self::Tan => float(f64::tan),
            Self::Tanh => float(f64::tanh),
            Self::Floor | Self::Ceil | Self::Round if !T::IS_FLOAT => Some(v),
            Self::Floor => float(f64::floor),
            Self::Ceil => float(f64::ceil),
            Self::Round => float(f64::round_ties_even),
        }
    }
}

/// How an occurrence combines its element of `y` into its element of the output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Combine {
    /// Replace (the last occurrence wins).
    Set,
    /// Add.
    Add,
    /// Subtract.
    Subtract,
    /// Multiply.
    Multiply,
    /// Divide (true division: the factors multiply, x is divided once).
    Divide,
    /// Raise (the exponents multiply, x is raised once).
    Power,
    /// The minimum (NaN propagates; -0.0 below 0.0).
    Min,
    /// The maximum.
    Max,
    /// A named function, once per occurrence; `y` is not read.
    Apply(UnaryFn),
    /// A SQL lambda, once per occurrence, evaluated by the caller.
    Lambda,
}

/// The types of one update: `x`'s, the type the combination runs in (`y`'s promotion with
/// `x`'s element type), and the output's element type.
#[derive(Debug, Clone, Copy)]
pub struct Update<'a> {
    /// The combination.
    pub combine: Combine,
    /// `x`'s type.
    pub x: &'a TensorType,
    /// The work type.
    pub work: &'a DataType,
    /// The output element type (`Float64` for an integer `divide`, else `x`'s).
    pub output_element: &'a DataType,
}

/// A lambda over the selected elements of a round, given each element's row.
pub type Lambda<'a> = dyn Fn(ArrayRef, &[usize]) -> Result<ArrayRef> + 'a;

/// A dynamic index's values (`Int64`), each row's (start, count) into them, and the rows'
/// NULLs with the index's.
pub type IndexValues = (ArrayRef, Vec<(usize, usize)>, Option<NullBuffer>);

/// The index values of a dynamic index column as `Int64`, each row's (start, count) into them,
/// and `nulls` with the rows whose index is NULL or holds a NULL element (such an index names
/// no position, so its row has no result).
pub fn index_values(
    kind: DynamicKind,
    index: Option<&TensorType>,
    idx: &ArrayRef,
    rows: usize,
    nulls: Option<&NullBuffer>,
) -> Result<IndexValues> {
    let (values, spans): (ArrayRef, Vec<(usize, usize)>) = match kind {
        DynamicKind::Integer => (Arc::clone(idx), (0..rows).map(|r| (r, 1)).collect()),
        DynamicKind::List => {
            let Some((values, offsets)) = layout::list_parts(idx.as_ref()) else {
                return Err(TensorError::Data(format!(
                    "expected a list index column, got {}",
                    idx.data_type()
                )));
            };
            let spans = offsets.windows(2).map(|o| (o[0], o[1] - o[0])).collect();
            (values, spans)
        }
        DynamicKind::Tensor => {
            let (Some(index), Some(list)) = (index, idx.as_fixed_size_list_opt()) else {
                return Err(TensorError::Internal(
                    "index tensor type missing".to_string(),
                ));
            };
            let n = index.size();
            (
                layout::row_major_values(index, list)?,
                (0..rows).map(|r| (r * n, n)).collect(),
            )
        }
    };
    let nulls = NullBuffer::union(nulls, idx.logical_nulls().as_ref());
    let nulls = layout::null_rows_of_elements(nulls, &values, rows, |r| spans[r]);
    let values = cast_with_options(&values, &DataType::Int64, &strict_cast())?;
    Ok((values, spans, nulls))
}

/// The index values as a slice (of [`index_values`]' array).
pub fn int64_values(values: &ArrayRef) -> &[i64] {
    values.as_primitive::<Int64Type>().values()
}

/// `y`'s row-major values (`len` per row) in the work type.
pub fn y_values(values: &ArrayRef, work: &DataType) -> Result<ArrayRef> {
    let storage = storage_type(work);
    if *values.data_type() == DataType::Boolean && storage == DataType::UInt8 {
        return Ok(cast(values, &DataType::UInt8)?);
    }
    cast_with_options(values, &storage, &strict_cast())
        .map_err(|e| TensorError::Data(format!("values of y do not fit {work}: {e}")))
}

/// Where a scatter writes for a plan (and this batch's windows, for a dynamic index).
pub fn targets<'a>(plan: &'a ScatterPlan, windows: Option<&'a Windows>) -> Result<Targets<'a>> {
    match (plan, windows) {
        (
            ScatterPlan::Static {
                targets, sources, ..
            },
            _,
        ) => Ok(Targets::Static { targets, sources }),
        (
            ScatterPlan::Dynamic {
                window,
                y_window,
                y_step,
                ..
            },
            Some(w),
        ) => Ok(Targets::Windows {
            starts: &w.starts,
            m: w.m,
            window,
            y_window,
            y_step: *y_step,
        }),
        _ => Err(TensorError::Internal(
            "dynamic index without windows".to_string(),
        )),
    }
}

/// `x.at[idx].get()` over `rows` rows of `x_values` (row-major, `in_len` per row): the
/// elements the plan names, `fill` (one element of `x`'s type) where the rule dropped an
/// index. Element NULLs follow their elements; fills are valid.
pub fn get(
    plan: &ScatterPlan,
    windows: Option<&Windows>,
    x_values: &ArrayRef,
    in_len: usize,
    rows: usize,
    fill: &ArrayRef,
) -> Result<ArrayRef> {
    let row_start = |row: usize| row * in_len;
    match (plan, windows) {
        (ScatterPlan::Static { offsets, .. }, _) => {
            let gather = GatherPlan::from_offsets(offsets, in_len);
            Ok(gather_filled(x_values, &gather, rows, None, fill)?)
        }
        // One output row per window, `m` of them per input row.
        (ScatterPlan::Dynamic { window, .. }, Some(w)) => {
            let window: Vec<usize> = window.iter().map(|&o| o as usize).collect();
            let starts: Vec<usize> = w
                .starts
                .iter()
                .enumerate()
                .map(|(i, &start)| {
                    if start == DROPPED {
                        DROPPED
                    } else {
                        row_start(i / w.m) + start
                    }
                })
                .collect();
            let gather = GatherPlan::from_offsets(&window, in_len);
            Ok(gather_filled(
                x_values,
                &gather,
                starts.len(),
                Some(&starts),
                fill,
            )?)
        }
        _ => Err(TensorError::Internal(
            "dynamic index without windows".to_string(),
        )),
    }
}

fn unsupported(data_type: &DataType) -> TensorError {
    TensorError::Internal(format!("unsupported element type {data_type}"))
}

/// `x.at[idx].op(y)` over `rows` rows of `x_values` (row-major, `x`'s size per row): a copy
/// of `x` with every occurrence of `targets` combined in order. `y` is a per-row array in the
/// work type with its values per row, or `y_scalar` one value for all; rows NULL in `nulls`
/// are left alone. `lambda` evaluates [`Combine::Lambda`].
#[allow(clippy::too_many_arguments)]
pub fn update(
    spec: &Update<'_>,
    x_values: &ArrayRef,
    rows: usize,
    nulls: Option<&NullBuffer>,
    targets: Targets<'_>,
    y: Option<(&ArrayRef, usize)>,
    y_scalar: Option<&ArrayRef>,
    lambda: Option<&Lambda<'_>>,
) -> Result<ArrayRef> {
    let in_len = spec.x.size();
    let skip = |row: usize| nulls.is_some_and(|n| n.is_null(row));

    if spec.combine == Combine::Lambda {
        let Some(lambda) = lambda else {
            return Err(TensorError::Internal("lambda missing".to_string()));
        };
        return apply_lambda(x_values, in_len, rows, &skip, targets, lambda);
    }

    let x_storage = to_storage(x_values)?;
    let work_type = storage_type(spec.work);
    let x_work = if *x_storage.data_type() == work_type {
        x_storage
    } else {
        cast(&x_storage, &work_type)?
    };
    let y_scalar = y_scalar.map(to_storage).transpose()?;
    // Element NULLs: x's stay; y's make their targets NULL (set) or keep them NULL. Known
    // before the values: a failure (overflow) in an element that ends NULL does not count.
    let valid = final_validity(spec, x_values, rows, &skip, targets, y);
    let run = |base: &ArrayRef, combine: Combine| -> Result<ArrayRef> {
        super::with_primitive_type!(&work_type, P => {
            update_typed::<P>(base, rows, in_len, &skip, targets, y_scalar.as_ref(), y, combine, valid.as_deref())
        }, _ => Err(unsupported(&work_type)))
    };
    let x_type = storage_type(spec.x.element_type());
    let back = |values: ArrayRef| -> Result<ArrayRef> {
        if *values.data_type() == x_type {
            return Ok(values);
        }
        // Elements that end NULL may hold anything: the checked cast skips them.
        let values = with_validity(values, valid.as_deref())?;
        cast_with_options(&values, &x_type, &strict_cast()).map_err(|e| {
            TensorError::Data(format!(
                "the result does not fit the tensor's element type {}: {e}",
                spec.x.element_type()
            ))
        })
    };
    let out = match spec.combine {
        Combine::Divide | Combine::Power => {
            // JAX: x / (ones scatter-multiplied by y), x ** (the same): duplicate divisors and
            // exponents multiply, in the promoted type, cast back to x's type.
            let ones = super::with_primitive_type!(&work_type, P => ones::<P>(rows * in_len),
                _ => return Err(unsupported(&work_type)));
            let factors = back(run(&ones, Combine::Multiply)?)?;
            let x_own = to_storage(x_values)?;
            if spec.combine == Combine::Divide
                && *spec.output_element == DataType::Float64
                && x_type != DataType::Float64
            {
                // Integer true division gives Float64.
                let x64 = cast(&x_own, &DataType::Float64)?;
                let f64s = cast(&factors, &DataType::Float64)?;
                finish::<Float64Type>(&x64, &f64s, spec.combine, in_len, valid.as_deref())?
            } else {
                super::with_primitive_type!(&x_type, P => finish::<P>(&x_own, &factors, spec.combine, in_len, valid.as_deref())?,
                    _ => return Err(unsupported(&x_type)))
            }
        }
        combine => back(run(&x_work, combine)?)?,
    };
    let out = from_storage(out, spec.output_element)?;
    with_validity(out, valid.as_deref())
}

/// `values` with element validity `valid` (none: as they are, without NULLs).
fn with_validity(values: ArrayRef, valid: Option<&[bool]>) -> Result<ArrayRef> {
    let Some(valid) = valid else {
        return Ok(values);
    };
    let nulls = NullBuffer::new(BooleanBuffer::from(valid));
    Ok(arrow::array::make_array(
        values.to_data().into_builder().nulls(Some(nulls)).build()?,
    ))
}

fn ones<P: ArrowPrimitiveType>(len: usize) -> ArrayRef
where
    P::Native: Element,
{
    Arc::new(PrimitiveArray::<P>::new(
        ScalarBuffer::from(vec![<P::Native as Element>::ONE; len]),
        None,
    ))
}

/// `x / factors` or `x ** factors`, elementwise (factors of 1 leave x as it is); rows of
/// `in_len` elements, named by an error.
fn finish<P: ArrowPrimitiveType>(
    x: &ArrayRef,
    factors: &ArrayRef,
    combine: Combine,
    in_len: usize,
    valid: Option<&[bool]>,
) -> Result<ArrayRef>
where
    P::Native: Element,
{
    let xs = x.as_primitive::<P>().values();
    let fs = factors.as_primitive::<P>().values();
    let one = <P::Native as Element>::ONE;
    let mut out = Vec::with_capacity(xs.len());
    for (i, (&a, &f)) in xs.iter().zip(fs.iter()).enumerate() {
        if f == one || valid.is_some_and(|v| !v[i]) {
            // Unchanged, or ends NULL (whatever it holds).
            out.push(a);
            continue;
        }
        let v = if combine == Combine::Divide {
            P::Native::from_f64(a.to_f64() / f.to_f64())
        } else {
            match <P::Native as Element>::pow(a, f) {
                Some(v) => v,
                None if f < P::Native::default() => {
                    return Err(TensorError::NegativePower { row: i / in_len });
                }
                None => {
                    return Err(TensorError::Overflow {
                        data_type: P::DATA_TYPE.to_string(),
                        row: i / in_len,
                    });
                }
            }
        };
        out.push(v);
    }
    Ok(Arc::new(PrimitiveArray::<P>::new(
        ScalarBuffer::from(out),
        None,
    )))
}

#[allow(clippy::too_many_arguments)]
fn update_typed<P: ArrowPrimitiveType>(
    base: &ArrayRef,
    rows: usize,
    in_len: usize,
    skip: &dyn Fn(usize) -> bool,
    targets: Targets<'_>,
    y_scalar: Option<&ArrayRef>,
    y: Option<(&ArrayRef, usize)>,
    combine: Combine,
    valid: Option<&[bool]>,
) -> Result<ArrayRef>
where
    P::Native: Element,
{
    type N<P> = <P as ArrowPrimitiveType>::Native;
    let mut out = base.as_primitive::<P>().values().to_vec();
    let values = match (y_scalar, y) {
        (Some(s), _) => Values::Scalar(s.as_primitive::<P>().value(0)),
        (None, Some((values, len))) => Values::Rows {
            values: values.as_primitive::<P>().values(),
            len,
        },
        // apply: no y.
        (None, None) => Values::Scalar(N::<P>::default()),
    };
    // One scatter per combination; only the closure differs.
    macro_rules! scatter_with {
        ($combine:expr) => {
            scatter(
                &mut out, in_len, rows, skip, targets, values, $combine, valid,
            )
        };
    }
    let result = match combine {
        Combine::Set => scatter_with!(|_, y| Some(y)),
        Combine::Add => scatter_with!(N::<P>::add),
        Combine::Subtract => scatter_with!(N::<P>::sub),
        Combine::Multiply | Combine::Divide | Combine::Power => scatter_with!(N::<P>::mul),
        Combine::Min => scatter_with!(|a, b| Some(<N<P> as Element>::min(a, b))),
        Combine::Max => scatter_with!(|a, b| Some(<N<P> as Element>::max(a, b))),
        Combine::Apply(f) => scatter_with!(|a, _| f.apply(a)),
        Combine::Lambda => {
            return Err(TensorError::Internal(
                "no combination for this call".to_string(),
            ));
        }
    };
    if let Err(FailedRow(row)) = result {
        return Err(TensorError::Overflow {
            data_type: P::DATA_TYPE.to_string(),
            row,
        });
    }
    Ok(Arc::new(PrimitiveArray::<P>::new(
        ScalarBuffer::from(out),
        None,
    )))
}

/// Element validity of an update's output, when `x` or `y` has element NULLs: x's NULLs stay,
/// other ops keep a target NULL where y is NULL, `set` gives a target y's validity.
fn final_validity(
    spec: &Update<'_>,
    x_values: &ArrayRef,
    rows: usize,
    skip: &dyn Fn(usize) -> bool,
    targets: Targets<'_>,
    y: Option<(&ArrayRef, usize)>,
) -> Option<Vec<bool>> {
    let y_nulls = y.and_then(|(values, _)| values.logical_nulls());
    let x_nulls = x_values.logical_nulls();
    if x_nulls.is_none() && y_nulls.is_none() {
        return None;
    }
    let in_len = spec.x.size();
    let mut valid: Vec<bool> = match &x_nulls {
        Some(n) => n.iter().collect(),
        None => vec![true; x_values.len()],
    };
    let set = spec.combine == Combine::Set;
    let y_valid: Option<Vec<bool>> = y_nulls.map(|n| n.iter().collect());
    let values = match (&y_valid, y) {
        (Some(y_valid), Some((_, len))) => Values::Rows {
            values: y_valid,
            len,
        },
        // `set` replaces the element, NULL or not, with a valid y.
        _ if set => Values::Scalar(true),
        _ => return Some(valid),
    };
    // Never fails.
    let _ = scatter(
        &mut valid,
        in_len,
        rows,
        skip,
        targets,
        values,
        |a, b| Some(if set { b } else { a && b }),
        None,
    );
    Some(valid)
}

/// `apply` with a lambda: the lambda runs over all the occurrences of a round at once; an
/// element named `c` times is in the first `c` rounds, so it is transformed `c` times.
fn apply_lambda(
    x_values: &ArrayRef,
    in_len: usize,
    rows: usize,
    skip: &dyn Fn(usize) -> bool,
    targets: Targets<'_>,
    lambda: &Lambda<'_>,
) -> Result<ArrayRef> {
    // How many times each element of the batch is named.
    let mut counts = vec![0u32; rows * in_len];
    let _ = scatter(
        &mut counts,
        in_len,
        rows,
        skip,
        targets,
        Values::Scalar(0u32),
        |a, _| a.checked_add(1),
        None,
    );
    let mut out = Arc::clone(x_values);
    let mut round = 1u32;
    loop {
        let positions: Vec<u32> = counts
            .iter()
            .enumerate()
            .filter(|(_, c)| **c >= round)
            .map(|(i, _)| i as u32)
            .collect();
        if positions.is_empty() {
            break;
        }
        let indices = UInt32Array::from(positions.clone());
        let selected = arrow::compute::take(out.as_ref(), &indices, None)?;
        let row_of: Vec<usize> = positions
            .iter()
            .map(|&p| p as usize / in_len.max(1))
            .collect();
        let transformed = lambda(selected, &row_of)?;
        if transformed.data_type() != out.data_type() {
            return Err(TensorError::Data(format!(
                "the lambda returned {}, not the tensor's element type {}",
                transformed.data_type(),
                out.data_type()
            )));
        }
        // Put the transformed values back: interleave original and transformed.
        let mut from_transformed = vec![None; out.len()];
        for (k, &p) in positions.iter().enumerate() {
            from_transformed[p as usize] = Some(k);
        }
        let picks: Vec<(usize, usize)> = from_transformed
            .iter()
            .enumerate()
            .map(|(i, t)| t.map_or((0, i), |k| (1, k)))
            .collect();
        out = arrow::compute::interleave(&[out.as_ref(), transformed.as_ref()], &picks)?;
        round += 1;
    }
    Ok(out)
}
