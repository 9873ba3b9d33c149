//! The arguments of the shape functions, read from literals when the query is planned and
//! checked as numpy checks them, in numpy's words: `axis` / `axes` (an integer, a list, or
//! NULL), `shape`.

use arrow::datatypes::DataType;
use datafusion::common::{ScalarValue, plan_err};
use datafusion::error::Result;

use crate::index::wrap_index;
use crate::udf::{PlanArgs, literal_int_list};

/// An axis argument as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AxisArg {
    /// Absent or NULL: numpy's `axis=None`.
    Omitted,
    /// One integer.
    One(i64),
    /// A list of integers.
    List(Vec<i64>),
}

impl AxisArg {
    /// The axes as a list (one integer is a list of one); `None` when omitted.
    pub fn as_list(&self) -> Option<Vec<i64>> {
        match self {
            Self::Omitted => None,
            Self::One(axis) => Some(vec![*axis]),
            Self::List(axes) => Some(axes.clone()),
        }
    }
}

/// Whether argument `i` is absent, a NULL literal or of the Null type.
pub fn is_omitted(args: &PlanArgs<'_>, i: usize) -> bool {
    args.fields
        .get(i)
        .is_none_or(|f| *f.data_type() == DataType::Null)
        || args.literal(i).is_some_and(ScalarValue::is_null)
}

/// An integer literal's value.
pub fn literal_integer(value: &ScalarValue) -> Option<i64> {
    if !value.data_type().is_integer() {
        return None;
    }
    match value.cast_to(&DataType::Int64).ok()? {
        ScalarValue::Int64(v) => v,
        _ => None,
    }
}

/// A literal integer option, `default` when absent or NULL.
pub fn integer(args: &PlanArgs<'_>, i: usize, arg: &str, default: i64) -> Result<i64> {
    if is_omitted(args, i) {
        return Ok(default);
    }
    match args.literal(i).and_then(literal_integer) {
        Some(v) => Ok(v),
        None => plan_err!("{}: argument {arg} must be a literal integer", args.name),
    }
}

/// Reads argument `i` (named `arg_name`) as an axis: an integer literal, a literal list of
/// integers (where `list` allows one), or NULL / absent.
pub fn axis_arg(args: &PlanArgs<'_>, i: usize, arg_name: &str, list: bool) -> Result<AxisArg> {
    if is_omitted(args, i) {
        return Ok(AxisArg::Omitted);
    }
    let literal = args.literal(i);
    if let Some(axis) = literal.and_then(literal_integer) {
        return Ok(AxisArg::One(axis));
    }
    if list && let Some(axes) = literal.and_then(literal_int_list) {
        return Ok(AxisArg::List(axes));
    }
    plan_err!(
        "{}: argument {arg_name} must be a literal integer{} or NULL",
        args.name,
        if list {
            ", a literal list of integers such as [1, 0]"
        } else {
            ""
        }
    )
}

/// `axis` of an array of `ndim` dimensions, negative from the end; numpy's `AxisError`
/// otherwise.
pub fn normalize_axis(name: &str, axis: i64, ndim: usize) -> Result<usize> {
    match wrap_index(axis, ndim) {
        Some(a) => Ok(a),
        None => plan_err!("{name}: axis {axis} is out of bounds for array of dimension {ndim}"),
    }
}

/// `axis` (argument `arg`) of an array of `ndim` dimensions, negative from the end; numpy's
/// `AxisError` naming the argument otherwise (`axis1: axis 5 is out of bounds ...`).
pub fn normalize_named_axis(name: &str, arg: &str, axis: i64, ndim: usize) -> Result<usize> {
    match wrap_index(axis, ndim) {
        Some(a) => Ok(a),
        None => {
            plan_err!("{name}: {arg}: axis {axis} is out of bounds for array of dimension {ndim}")
        }
    }
}

/// numpy's `moveaxis` order: the dimensions not in `source` in their order, each of `source`
/// inserted at its `destination` (in increasing destination order), checked in numpy's words.
pub fn moveaxis_order(
    name: &str,
    source: &[i64],
    destination: &[i64],
    ndim: usize,
) -> Result<Vec<usize>> {
    let normalize = |axes: &[i64], arg: &str| -> Result<Vec<usize>> {
        let mut seen = vec![false; ndim];
        let mut out = Vec::with_capacity(axes.len());
        for &axis in axes {
            let a = normalize_named_axis(name, arg, axis, ndim)?;
            if std::mem::replace(&mut seen[a], true) {
                return plan_err!("{name}: repeated axis in `{arg}` argument");
            }
            out.push(a);
        }
        Ok(out)
    };
    let source = normalize(source, "source")?;
    let destination = normalize(destination, "destination")?;
    if source.len() != destination.len() {
        return plan_err!(
            "{name}: `source` and `destination` arguments must have the same number of elements"
        );
    }
    let mut order: Vec<usize> = (0..ndim).filter(|a| !source.contains(a)).collect();
    let mut moves: Vec<(usize, usize)> = destination.into_iter().zip(source).collect();
    moves.sort_unstable();
    for (dest, src) in moves {
        order.insert(dest, src);
    }
    Ok(order)
}

/// `axes` of an array of `ndim` dimensions as a mask, normalised and checked as numpy's
/// `normalize_axis_tuple` does; `repeated` is numpy's message for an axis given twice (it
/// differs between functions).
pub fn axis_mask(name: &str, axes: &[i64], ndim: usize, repeated: &str) -> Result<Vec<bool>> {
    let mut mask = vec![false; ndim];
    for &axis in axes {
        let a = normalize_axis(name, axis, ndim)?;
        if std::mem::replace(&mut mask[a], true) {
            return plan_err!("{name}: {repeated}");
        }
    }
    Ok(mask)
}

/// numpy's `transpose(axes)` of an array of `ndim` dimensions: the axes normalised, or the
/// reversed order when omitted.
pub fn transpose_axes(name: &str, axes: &AxisArg, ndim: usize) -> Result<Vec<usize>> {
    let Some(axes) = axes.as_list() else {
        return Ok((0..ndim).rev().collect());
    };
    if axes.len() != ndim {
        return plan_err!("{name}: axes don't match array");
    }
    let mut seen = vec![false; ndim];
    let mut out = Vec::with_capacity(ndim);
    for &axis in &axes {
        let a = normalize_axis(name, axis, ndim)?;
        if std::mem::replace(&mut seen[a], true) {
            return plan_err!("{name}: repeated axis in transpose");
        }
        out.push(a);
    }
    Ok(out)
}

/// Reads argument `i` as the `shape` of `broadcast_to`: a literal list of non-negative
/// integers (or one integer, numpy's `broadcast_to(x, 3)`).
pub fn target_shape(args: &PlanArgs<'_>, i: usize) -> Result<Vec<usize>> {
    let literal = args.literal(i);
    let shape = match (
        literal.and_then(literal_integer),
        literal.and_then(literal_int_list),
    ) {
        (Some(d), _) => vec![d],
        (None, Some(shape)) => shape,
        (None, None) => {
            return plan_err!(
                "{}: argument shape must be a literal list of integers such as [4, 3]",
                args.name
            );
        }
    };
    if shape.iter().any(|&d| d < 0) {
        return plan_err!(
            "{}: all elements of broadcast shape must be non-negative",
            args.name
        );
    }
    Ok(shape.into_iter().map(|d| d as usize).collect())
}
