//! The arguments of the linear-algebra functions, read when the query is planned: the
//! operands as numpy's `np.asarray` makes them ([`asarray`]), and the literal options: an
//! integer (`offset`, `axis1`), `tensordot`'s `axes` (an integer, or a pair of axes or axis
//! lists), `einsum`'s subscripts.

use arrow::datatypes::DataType;
use datafusion::common::{ScalarValue, plan_err};
use datafusion::error::Result;

use crate::kernels::linalg::products::TensordotAxes;
use crate::tensor_type::{TensorType, is_element_type};
use crate::udf::math::Operand;
use crate::udf::{PlanArgs, literal_int_list, literal_nested_int_lists};
use crate::variable_shape::AnyTensorType;

/// Operand `i` (`arg` its name, in errors) as numpy's `np.asarray` makes it: a tensor of either
/// kind, or a number (a literal, or a numeric or boolean column: one value per row) as a 0-d
/// tensor of its own type. Numbers are not weak here, unlike in the elementwise functions:
/// numpy's products convert them with `np.asarray`, so `np.dot(int32 array, 3)` is int64 (SQL's
/// `3` is an Int64, `2.5` a Float64, `CAST(3 AS TINYINT)` an Int8); a typed NULL keeps its
/// type. `None`: an untyped NULL, which takes no part in the result type (its rows are NULL).
pub(crate) fn asarray(args: &PlanArgs<'_>, i: usize, arg: &str) -> Result<Option<AnyTensorType>> {
    Ok(match Operand::plan(args, i, arg)? {
        Operand::Tensor(tensor) => Some(AnyTensorType::Fixed(tensor)),
        Operand::Variable(tensor) => Some(AnyTensorType::Variable(tensor)),
        Operand::Column(_) | Operand::Literal(_) | Operand::Null => {
            let data_type = args.fields[i].data_type();
            if is_element_type(data_type) {
                Some(AnyTensorType::Fixed(
                    TensorType::new(data_type.clone(), Vec::new())
                        .map_err(|e| e.in_function(args.name))?,
                ))
            } else {
                None
            }
        }
    })
}

/// Whether argument `i` is absent or NULL (the option's default).
pub(crate) fn is_default(args: &PlanArgs<'_>, i: usize) -> bool {
    args.fields
        .get(i)
        .is_none_or(|f| *f.data_type() == DataType::Null)
        || args.literal(i).is_some_and(ScalarValue::is_null)
}

/// An integer literal's value.
pub(crate) fn integer(value: &ScalarValue) -> Option<i64> {
    if !value.data_type().is_integer() {
        return None;
    }
    match value.cast_to(&DataType::Int64).ok()? {
        ScalarValue::Int64(v) => v,
        _ => None,
    }
}

/// Integer option `i` (`default` when absent or NULL).
pub(crate) fn integer_option(
    args: &PlanArgs<'_>,
    i: usize,
    option: &str,
    default: i64,
) -> Result<i64> {
    if is_default(args, i) {
        return Ok(default);
    }
    match args.literal(i).and_then(integer) {
        Some(value) => Ok(value),
        None => plan_err!("{}: argument {option} must be a literal integer", args.name),
    }
}

/// A string literal's text.
pub(crate) fn string(value: &ScalarValue) -> Option<&str> {
    match value {
        ScalarValue::Utf8(Some(s))
        | ScalarValue::LargeUtf8(Some(s))
        | ScalarValue::Utf8View(Some(s)) => Some(s),
        _ => None,
    }
}

/// `tensordot`'s `axes` (argument `i`; 2 when absent): an integer, or a list of two entries,
/// each an axis or a list of axes (numpy's `axes=([1, 0], [0, 1])`, `axes=[1, 0]`).
pub(crate) fn tensordot_axes(args: &PlanArgs<'_>, i: usize) -> Result<TensordotAxes> {
    if is_default(args, i) {
        return Ok(TensordotAxes::Count(2));
    }
    let literal = args.literal(i);
    if let Some(n) = literal.and_then(integer) {
        return Ok(TensordotAxes::Count(n));
    }
    if let Some(pair) = literal.and_then(literal_int_list)
        && let [x, y] = pair[..]
    {
        return Ok(TensordotAxes::Pairs(vec![x], vec![y]));
    }
    if let Some(pair) = literal.and_then(literal_nested_int_lists)
        && let [x, y] = &pair[..]
    {
        return Ok(TensordotAxes::Pairs(x.clone(), y.clone()));
    }
    plan_err!(
        "{}: argument axes must be a literal integer or a literal pair of axis lists such as [[1, 0], [0, 1]]",
        args.name
    )
}
