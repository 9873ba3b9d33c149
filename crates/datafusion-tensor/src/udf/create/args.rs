//! The arguments of the creation functions, read from literals when the query is planned:
//! numbers (integers exactly), shapes and numpy's dtype names.

use arrow::datatypes::DataType;
use datafusion::common::{ScalarValue, plan_err};
use datafusion::error::Result;

use crate::kernels::create::Number;
use crate::udf::math::dtype_arg;
use crate::udf::shape::is_omitted;
use crate::udf::{PlanArgs, literal_int_list};

/// A literal number (or boolean, as numpy reads one: 0 or 1) at argument `i`; `None` when
/// absent or NULL.
pub(super) fn number(args: &PlanArgs<'_>, i: usize, arg: &str) -> Result<Option<Number>> {
    if is_omitted(args, i) {
        return Ok(None);
    }
    let value = args.literal(i);
    let number = match value {
        Some(ScalarValue::Boolean(Some(b))) => Some(Number::Int(i128::from(*b))),
        Some(v) if v.data_type().is_integer() => match v.cast_to(&DataType::Decimal128(38, 0)) {
            Ok(ScalarValue::Decimal128(Some(n), ..)) => Some(Number::Int(n)),
            _ => None,
        },
        Some(v) if v.data_type().is_floating() => match v.cast_to(&DataType::Float64) {
            Ok(ScalarValue::Float64(Some(x))) => Some(Number::Float(x)),
            _ => None,
        },
        _ => None,
    };
    match number {
        Some(n) => Ok(Some(n)),
        None => plan_err!("{}: argument {arg} must be a literal number", args.name),
    }
}

/// A required literal number.
pub(super) fn required_number(args: &PlanArgs<'_>, i: usize, arg: &str) -> Result<Number> {
    match number(args, i, arg)? {
        Some(n) => Ok(n),
        None => plan_err!(
            "{}: argument {arg} must be a literal number, not NULL",
            args.name
        ),
    }
}

/// A literal integer count (a dimension, `num`), numpy's error for a negative one.
pub(super) fn count(
    args: &PlanArgs<'_>,
    i: usize,
    arg: &str,
    negative: &str,
) -> Result<Option<usize>> {
    match number(args, i, arg)? {
        None => Ok(None),
        Some(Number::Int(n)) if n < 0 => {
            plan_err!("{}: {}", args.name, negative.replace("{n}", &n.to_string()))
        }
        Some(Number::Int(n)) => match usize::try_from(n) {
            Ok(n) => Ok(Some(n)),
            Err(_) => plan_err!("{}: Maximum allowed size exceeded", args.name),
        },
        Some(Number::Float(_)) => plan_err!(
            "{}: argument {arg} must be a literal integer ('float' object cannot be interpreted as an integer)",
            args.name
        ),
    }
}

/// A shape: a literal integer or list of integers (numpy's error for a negative dimension).
pub(super) fn shape(args: &PlanArgs<'_>, i: usize) -> Result<Vec<usize>> {
    let name = args.name;
    let literal = args.literal(i);
    let dims = match literal {
        Some(v) if v.data_type().is_integer() && !v.is_null() => {
            match v.cast_to(&DataType::Int64) {
                Ok(ScalarValue::Int64(Some(n))) => vec![n],
                _ => {
                    return plan_err!(
                        "{name}: argument shape must be a literal integer or list of integers"
                    );
                }
            }
        }
        Some(v) => match literal_int_list(v) {
            Some(dims) => dims,
            None => {
                return plan_err!(
                    "{name}: argument shape must be a literal integer or list of integers"
                );
            }
        },
        None => {
            return plan_err!(
                "{name}: argument shape must be a literal integer or list of integers"
            );
        }
    };
    if dims.iter().any(|&d| d < 0) {
        return plan_err!("{name}: negative dimensions are not allowed");
    }
    Ok(dims.into_iter().map(|d| d as usize).collect())
}

/// numpy's dtype name at argument `i` (`None` when absent or NULL).
pub(crate) fn dtype(args: &PlanArgs<'_>, i: usize) -> Result<Option<DataType>> {
    if is_omitted(args, i) {
        return Ok(None);
    }
    dtype_arg(args.name, args.literal(i)).map(Some)
}
