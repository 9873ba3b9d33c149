//! The arguments of `tensor_roll`, `tensor_repeat`, `tensor_tile`, `tensor_take`,
//! `tensor_pad`, `tensor_tril` and `tensor_triu`, read from literals when the query is planned
//! and checked in numpy's words, compiled into a [`Manipulation`] and its fill value.

use arrow::datatypes::DataType;
use datafusion::common::{ScalarValue, plan_err};
use datafusion::error::Result;

use super::ShapeFunction;
use super::args::{AxisArg, axis_arg, integer, is_omitted, literal_integer, normalize_axis};
use crate::kernels::manipulate::{Manipulation, PadMode};
use crate::udf::{PlanArgs, literal_int_list, literal_nested_int_lists};

/// An integer or a list of integers (argument `i`, named `arg`), as written.
fn ints(args: &PlanArgs<'_>, i: usize, arg: &str) -> Result<(Vec<i64>, bool)> {
    let literal = args.literal(i);
    if let Some(v) = literal.and_then(literal_integer) {
        return Ok((vec![v], true));
    }
    if let Some(v) = literal.and_then(literal_int_list) {
        return Ok((v, false));
    }
    plan_err!(
        "{}: argument {arg} must be a literal integer or a literal list of integers",
        args.name
    )
}

/// `pad_width` as numpy reads it: an integer, `[w]`, `[before, after]` or one such pair per
/// axis, broadcast to `ndim` axes.
fn pad_widths(args: &PlanArgs<'_>, ndim: usize) -> Result<Vec<(usize, usize)>> {
    let name = args.name;
    let literal = args.literal(1);
    let rows: Vec<Vec<i64>> = if let Some(w) = literal.and_then(literal_integer) {
        vec![vec![w]]
    } else if let Some(w) = literal.and_then(literal_int_list) {
        vec![w]
    } else if let Some(w) = literal.and_then(literal_nested_int_lists) {
        w
    } else {
        return plan_err!(
            "{name}: argument pad_width must be a literal integer, a pair such as [1, 2], or one pair per axis such as [[1, 2], [0, 1]]"
        );
    };
    if rows.iter().flatten().any(|&w| w < 0) {
        return plan_err!("{name}: index can't contain negative values");
    }
    let (n_rows, n_cols) = (rows.len(), rows[0].len());
    let fits = (n_rows == 1 || n_rows == ndim)
        && (n_cols == 1 || n_cols == 2)
        && rows.iter().all(|r| r.len() == n_cols);
    if !fits {
        let original = if literal.and_then(literal_nested_int_lists).is_some() {
            format!("({n_rows},{n_cols})")
        } else {
            format!("({n_cols},)")
        };
        return plan_err!(
            "{name}: operands could not be broadcast together with remapped shapes [original->remapped]: {original}  and requested shape ({ndim},2)"
        );
    }
    Ok((0..ndim)
        .map(|a| {
            let row = &rows[if n_rows == 1 { 0 } else { a }];
            let (before, after) = (row[0], row[usize::from(n_cols != 1)]);
            (before as usize, after as usize)
        })
        .collect())
}

/// A literal string option (`None` when absent or NULL).
fn text<'a>(args: &'a PlanArgs<'_>, i: usize, arg: &str) -> Result<Option<&'a str>> {
    if is_omitted(args, i) {
        return Ok(None);
    }
    match args.literal(i) {
        Some(
            ScalarValue::Utf8(Some(s))
            | ScalarValue::LargeUtf8(Some(s))
            | ScalarValue::Utf8View(Some(s)),
        ) => Ok(Some(s)),
        _ => plan_err!("{}: argument {arg} must be a literal string", args.name),
    }
}

/// Counts (`repeats`, `reps`): numpy's errors for negative ones.
fn counts(name: &str, values: &[i64], message: &str) -> Result<Vec<usize>> {
    if values.iter().any(|&v| v < 0) {
        return plan_err!("{name}: {message}");
    }
    Ok(values.iter().map(|&v| v as usize).collect())
}

/// numpy's `broadcast(shift, axis)` of `roll`: one shift per axis, or one list for all.
fn roll_shifts(name: &str, shifts: &[i64], axes: &[i64]) -> Result<Vec<(i64, i64)>> {
    match (shifts.len(), axes.len()) {
        (s, a) if s == a => Ok(shifts.iter().copied().zip(axes.iter().copied()).collect()),
        (1, _) => Ok(axes.iter().map(|&a| (shifts[0], a)).collect()),
        (_, 1) => Ok(shifts.iter().map(|&s| (s, axes[0])).collect()),
        (s, a) => plan_err!(
            "{name}: shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between arg 0 with shape ({s},) and arg 1 with shape ({a},)."
        ),
    }
}

/// The manipulation `function` computes on a tensor of `ndim` dimensions, and its fill value
/// in `element` (pad's constant, the triangles' zero).
pub fn manipulation(
    function: ShapeFunction,
    args: &PlanArgs<'_>,
    ndim: usize,
    element: &DataType,
) -> Result<(Manipulation, Option<ScalarValue>)> {
    let name = args.name;
    let axis = |i: usize| -> Result<Option<usize>> {
        match axis_arg(args, i, "axis", false)? {
            AxisArg::Omitted => Ok(None),
            AxisArg::One(a) => normalize_axis(name, a, ndim).map(Some),
            AxisArg::List(_) => plan_err!("{name}: argument axis must be a literal integer"),
        }
    };
    Ok(match function {
        ShapeFunction::Roll => {
            let (shifts, _) = ints(args, 1, "shift")?;
            let roll = match axis_arg(args, 2, "axis", true)?.as_list() {
                None => {
                    let pairs = roll_shifts(name, &shifts, &[0])?;
                    Manipulation::Roll {
                        shifts: vec![],
                        flat: Some(pairs.iter().map(|p| p.0).fold(0i64, i64::wrapping_add)),
                    }
                }
                Some(axes) => {
                    let mut per_axis = vec![0i64; ndim];
                    for (shift, a) in roll_shifts(name, &shifts, &axes)? {
                        let a = normalize_axis(name, a, ndim)?;
                        per_axis[a] = per_axis[a].wrapping_add(shift);
                    }
                    Manipulation::Roll {
                        shifts: per_axis,
                        flat: None,
                    }
                }
            };
            (roll, None)
        }
        ShapeFunction::Repeat => {
            let (values, scalar) = ints(args, 1, "repeats")?;
            let message = if scalar {
                "negative dimensions are not allowed"
            } else {
                "repeats may not contain negative values."
            };
            let repeats = counts(name, &values, message)?;
            (
                Manipulation::Repeat {
                    repeats,
                    axis: axis(2)?,
                },
                None,
            )
        }
        ShapeFunction::Tile => {
            let (values, _) = ints(args, 1, "reps")?;
            let mut reps = counts(name, &values, "negative dimensions are not allowed")?;
            if reps.len() < ndim {
                let mut padded = vec![1; ndim - reps.len()];
                padded.append(&mut reps);
                reps = padded;
            }
            (Manipulation::Tile(reps), None)
        }
        ShapeFunction::Take => {
            let (indices, scalar) = ints(args, 1, "indices")?;
            (
                Manipulation::Take {
                    indices,
                    scalar,
                    axis: axis(2)?,
                },
                None,
            )
        }
        ShapeFunction::Pad => {
            let widths = pad_widths(args, ndim)?;
            let mode = match text(args, 2, "mode")? {
                None => PadMode::Constant,
                Some(mode) => match PadMode::parse(mode) {
                    Ok(mode) => mode,
                    Err(_)
                        if matches!(
                            mode,
                            "linear_ramp" | "maximum" | "mean" | "median" | "minimum" | "empty"
                        ) =>
                    {
                        return plan_err!(
                            "{name}: mode '{mode}' is numpy's but not this function's: use 'constant', 'edge', 'reflect', 'symmetric' or 'wrap'"
                        );
                    }
                    Err(message) => return plan_err!("{name}: {message}"),
                },
            };
            let fill = if mode == PadMode::Constant {
                Some(constant(args, element)?)
            } else if !is_omitted(args, 3) {
                return plan_err!(
                    "{name}: unsupported keyword arguments for mode '{}': {{'constant_values'}}",
                    text(args, 2, "mode")?.unwrap_or_default()
                );
            } else {
                None
            };
            (Manipulation::Pad { widths, mode }, fill)
        }
        ShapeFunction::Tril | ShapeFunction::Triu => {
            if ndim == 0 {
                return plan_err!("{name}: tri() missing 1 required positional argument: 'N'");
            }
            let k = integer(args, 1, "k", 0)?;
            let lower = function == ShapeFunction::Tril;
            (
                Manipulation::Triangle { k, lower },
                Some(ScalarValue::new_zero(element)?),
            )
        }
        _ => return datafusion::common::internal_err!("{name} is not a manipulation"),
    })
}

/// `pad`'s `constant_values` (argument 3, 0 when absent), cast to the element type as numpy
/// casts it into the array.
fn constant(args: &PlanArgs<'_>, element: &DataType) -> Result<ScalarValue> {
    let name = args.name;
    if is_omitted(args, 3) {
        return ScalarValue::new_zero(element);
    }
    let value = args.literal(3).filter(|v| {
        let t = v.data_type();
        t.is_numeric() || t == DataType::Boolean
    });
    let Some(value) = value else {
        return plan_err!("{name}: argument constant_values must be a literal number");
    };
    match value.cast_to(element) {
        Ok(cast) if !cast.is_null() => Ok(cast),
        _ => plan_err!(
            "{name}: constant_values {value} cannot be cast to the tensor's element type {element}"
        ),
    }
}
