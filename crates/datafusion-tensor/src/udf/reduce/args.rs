//! The arguments of a reduction and the type of its result: `axis` (an integer, a list, or
//! NULL for every axis), `keepdims`, `ddof`, read from literals when the query is planned and
//! checked as numpy checks them, in numpy's words.

use arrow::array::{Array, AsArray};
use arrow::datatypes::DataType;
use datafusion::common::{ScalarValue, plan_err};
use datafusion::error::Result;

use super::ReduceFunction;
use crate::index::wrap_index;
use crate::kernels::reduce::{NormOrd, Reduction};
use crate::udf::{PlanArgs, literal_int_list};

/// The options of a call, read from its literal arguments.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[allow(
    clippy::struct_excessive_bools,
    reason = "numpy's boolean options, each read from its own argument"
)]
pub struct Options {
    /// The axes as written (`None`: every axis, numpy's `axis=None`).
    pub axes: Option<Vec<i64>>,
    /// Whether `axes` was written as one integer, not a list (numpy treats the two apart on a
    /// 0-d array).
    pub scalar_axis: bool,
    /// numpy's `keepdims`.
    pub keepdims: bool,
    /// numpy's `ddof` (`var` and `std`).
    pub ddof: i64,
    /// The array API standard's `descending` (`sort`, `argsort`).
    pub descending: bool,
    /// The standard's `include_initial` (`cumulative_sum`, `cumulative_prod`).
    pub include_initial: bool,
    /// `vector_norm`'s `ord`.
    pub ord: NormOrd,
    /// numpy's `dtype` (sums, products and the cumulative ones): the type the elements are
    /// cast to and reduced in, and the result's.
    pub dtype: Option<DataType>,
    /// numpy's `initial`, as written (a literal number or boolean).
    pub initial: Option<ScalarValue>,
    /// The argument holding numpy's `where` mask (`None`: absent, NULL or a literal `true`,
    /// numpy's default).
    pub mask: Option<usize>,
}

/// Whether argument `i` is absent, a NULL literal or of the Null type (the option's default).
fn is_default(args: &PlanArgs<'_>, i: usize) -> bool {
    args.fields
        .get(i)
        .is_none_or(|f| *f.data_type() == DataType::Null)
        || args.literal(i).is_some_and(ScalarValue::is_null)
}

/// An integer literal's value.
fn literal_integer(value: &ScalarValue) -> Option<i64> {
    if !value.data_type().is_integer() {
        return None;
    }
    match value.cast_to(&DataType::Int64).ok()? {
        ScalarValue::Int64(v) => v,
        _ => None,
    }
}

/// Reads the options of a call of `function`.
pub fn options(function: ReduceFunction, args: &PlanArgs<'_>) -> Result<Options> {
    let name = args.name;
    let scalar_axis = args.literal(1).and_then(literal_integer).is_some();
    let axes = if is_default(args, 1) {
        None
    } else {
        let literal = args.literal(1);
        if let Some(axis) = literal.and_then(literal_integer) {
            Some(vec![axis])
        } else if let Some(axes) = literal.and_then(literal_int_list) {
            if function.single_axis() {
                // numpy: TypeError: 'tuple' object cannot be interpreted as an integer
                return plan_err!(
                    "{name}: argument axis must be a single integer or NULL, not a list ('tuple' object cannot be interpreted as an integer)"
                );
            }
            Some(axes)
        } else {
            return plan_err!(
                "{name}: argument axis must be a literal integer, {}or NULL (every axis)",
                if function.single_axis() {
                    ""
                } else {
                    "a literal list of integers "
                }
            );
        }
    };
    let keepdims = if function.takes_keepdims() && !is_default(args, 2) {
        match args.literal(2) {
            Some(ScalarValue::Boolean(Some(b))) => *b,
            _ => return plan_err!("{name}: argument keepdims must be a literal boolean"),
        }
    } else {
        false
    };
    let ddof = if function.takes_ddof() {
        // numpy 2 takes the standard's `correction` beside its own `ddof`, not both.
        match (is_default(args, 3), is_default(args, 4)) {
            (false, false) => {
                return plan_err!("{name}: ddof and correction can't be provided simultaneously.");
            }
            (true, true) => 0,
            (ddof, _) => {
                let (i, arg) = if ddof { (4, "correction") } else { (3, "ddof") };
                match args.literal(i).and_then(literal_integer) {
                    Some(value) => value,
                    None => return plan_err!("{name}: argument {arg} must be a literal integer"),
                }
            }
        }
    } else {
        0
    };
    let sorting = matches!(function, ReduceFunction::Sort | ReduceFunction::ArgSort);
    let flag = |i: usize, arg: &str, default: bool| -> Result<bool> {
        let applies = match arg {
            "include_initial" => matches!(
                function,
                ReduceFunction::CumulativeSum | ReduceFunction::CumulativeProd
            ),
            _ => sorting,
        };
        if !applies || is_default(args, i) {
            return Ok(default);
        }
        match args.literal(i) {
            Some(ScalarValue::Boolean(Some(b))) => Ok(*b),
            _ => plan_err!("{name}: argument {arg} must be a literal boolean"),
        }
    };
    let descending = flag(2, "descending", false)?;
    // Every sort is stable: `stable => false` allows any order of equal elements, and the
    // stable one is such an order.
    flag(3, "stable", true)?;
    let include_initial = flag(2, "include_initial", false)?;
    let ord = if matches!(
        function,
        ReduceFunction::Reduce(Reduction::VectorNorm { .. })
    ) {
        norm_ord(args)?
    } else {
        NormOrd::Two
    };
    let (dtype, initial, mask) = extra_options(function, args)?;
    Ok(Options {
        axes,
        scalar_axis,
        keepdims,
        ddof,
        descending,
        include_initial,
        ord,
        dtype,
        initial,
        mask,
    })
}

/// numpy's `dtype`, `initial` and the argument of its `where` mask, read from the call.
fn extra_options(
    function: ReduceFunction,
    args: &PlanArgs<'_>,
) -> Result<(Option<DataType>, Option<ScalarValue>, Option<usize>)> {
    let name = args.name;
    let position = |arg: &str| {
        function
            .parameter_names()
            .iter()
            .position(|p| *p == arg)
            .filter(|&i| !is_default(args, i))
    };
    let dtype = position("dtype")
        .map(|i| crate::udf::math::dtype_arg(name, args.literal(i)))
        .transpose()?;
    let initial = match position("initial") {
        None => None,
        Some(i) => match args.literal(i) {
            Some(v) if v.data_type().is_numeric() || v.data_type() == DataType::Boolean => {
                Some(v.clone())
            }
            // SQL has no literal for NaN or the infinities: the strings stand for them, as
            // for `tensor_norm`'s `ord`.
            Some(
                ScalarValue::Utf8(Some(s))
                | ScalarValue::LargeUtf8(Some(s))
                | ScalarValue::Utf8View(Some(s)),
            ) if ["nan", "inf", "+inf", "-inf"].contains(&s.to_ascii_lowercase().as_str()) => {
                Some(ScalarValue::Float64(s.to_ascii_lowercase().parse().ok()))
            }
            _ => {
                return plan_err!(
                    "{name}: argument initial must be a literal number or boolean ('nan', 'inf' or '-inf' for those floats)"
                );
            }
        },
    };
    let mask = position("where").filter(|&i| !is_literal_true(args.literal(i)));
    Ok((dtype, initial, mask))
}

/// Whether `value` is the literal `true` (numpy's default `where=True`, no mask), as written
/// or as the 0-d tensor a boolean at a tensor argument is planned as.
fn is_literal_true(value: Option<&ScalarValue>) -> bool {
    match value {
        Some(ScalarValue::Boolean(Some(true))) => true,
        Some(ScalarValue::FixedSizeList(list)) if list.len() == 1 && list.is_valid(0) => {
            let values = list.value(0);
            values.len() == 1
                && values
                    .as_boolean_opt()
                    .is_some_and(|b| b.is_valid(0) && b.value(0))
        }
        _ => false,
    }
}

/// `vector_norm`'s `ord` (argument 3): a literal number, `'inf'` / `'-inf'`, or NULL (2).
fn norm_ord(args: &PlanArgs<'_>) -> Result<NormOrd> {
    let name = args.name;
    if is_default(args, 3) {
        return Ok(NormOrd::Two);
    }
    let p = match args.literal(3) {
        Some(
            ScalarValue::Utf8(Some(s))
            | ScalarValue::LargeUtf8(Some(s))
            | ScalarValue::Utf8View(Some(s)),
        ) => match s.as_str() {
            "inf" | "+inf" | "Infinity" | "infinity" => f64::INFINITY,
            "-inf" | "-Infinity" | "-infinity" => f64::NEG_INFINITY,
            other => return plan_err!("{name}: Invalid norm order '{other}' for vectors"),
        },
        Some(v) if v.data_type().is_numeric() => match v.cast_to(&DataType::Float64) {
            Ok(ScalarValue::Float64(Some(p))) => p,
            _ => {
                return plan_err!(
                    "{name}: argument ord must be a literal number, 'inf', '-inf' or NULL"
                );
            }
        },
        _ => {
            return plan_err!(
                "{name}: argument ord must be a literal number, 'inf', '-inf' or NULL"
            );
        }
    };
    if p.is_nan() {
        return plan_err!("{name}: Invalid norm order 'nan' for vectors");
    }
    Ok(NormOrd::of(p))
}

/// The axes `axes` of a tensor of `ndim` dimensions, normalised (negative from the end) and
/// checked as numpy's `normalize_axis_tuple` does; `None`: every axis.
pub fn reduced_axes(name: &str, axes: Option<&[i64]>, ndim: usize) -> Result<Vec<bool>> {
    let Some(axes) = axes else {
        return Ok(vec![true; ndim]);
    };
    let mut reduced = vec![false; ndim];
    for &axis in axes {
        let Some(a) = wrap_index(axis, ndim) else {
            // numpy: AxisError: axis 3 is out of bounds for array of dimension 2
            return plan_err!("{name}: axis {axis} is out of bounds for array of dimension {ndim}");
        };
        if reduced[a] {
            // numpy: ValueError: duplicate value in 'axis'
            return plan_err!("{name}: duplicate value in 'axis'");
        }
        reduced[a] = true;
    }
    Ok(reduced)
}

/// The dimensions of a result: each kept dimension, and with `keepdims` each reduced one too,
/// as `reduced_as` (a size: 1) or, without it, as it is (a name); `dims[i]` is logical
/// dimension `i` of the input.
pub fn result_dims<T: Clone>(
    dims: &[T],
    reduced: &[bool],
    keepdims: bool,
    reduced_as: Option<&T>,
) -> Vec<T> {
    dims.iter()
        .zip(reduced)
        .filter(|&(_, &r)| keepdims || !r)
        .map(|(d, &r)| match (r, reduced_as) {
            (true, Some(one)) => one.clone(),
            _ => d.clone(),
        })
        .collect()
}
