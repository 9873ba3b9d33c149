//! Property tests of the tensor math (spec.md §9): random shapes (broadcastable pairs and some
//! that are not), element types, permuted layouts and NULL rows through the elementwise
//! functions and the reductions, against numpy's rules written out element by element here
//! (wrapping integer arithmetic, floor division and modulo with the divisor's sign and 0 for an
//! integer divisor of 0, IEEE values for floats; reductions in C order over the reduced
//! positions, numpy's result types and errors).

// Exact float comparison is the point (numpy's values are exact here); casts of small integers.
#![allow(
    clippy::type_complexity,
    clippy::float_cmp,
    clippy::cast_lossless,
    clippy::match_same_arms
)]

use arrow::datatypes::{DataType, Field, Float64Type};
use datafusion_tensor::TensorType;
use proptest::prelude::*;

use super::properties::reference::{self, broadcast, broadcast_position, ravel, unravel};
use super::properties::{Column, column, rows_in, run};

fn shape(max_ndim: usize) -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(prop_oneof![1 => Just(0usize), 8 => 1usize..4], 0..=max_ndim)
}

/// Two shapes: mostly ones numpy broadcasts (the second a suffix of the first with some dims
/// 1, or the other way round), sometimes any two.
fn shape_pair() -> impl Strategy<Value = (Vec<usize>, Vec<usize>)> {
    let related = (shape(4), any::<u64>(), any::<bool>()).prop_map(|(a, bits, swap)| {
        let keep = (bits % (a.len() as u64 + 1)) as usize;
        let b: Vec<usize> = a[a.len() - keep..]
            .iter()
            .enumerate()
            .map(|(k, &d)| if bits >> (8 + k) & 1 == 1 { 1 } else { d })
            .collect();
        if swap { (b, a) } else { (a, b) }
    });
    prop_oneof![6 => related, 1 => (shape(3), shape(3))]
}

fn numeric_element() -> impl Strategy<Value = DataType> {
    prop::sample::select(vec![
        DataType::Int8,
        DataType::Int32,
        DataType::Int64,
        DataType::UInt8,
        DataType::UInt16,
        DataType::UInt64,
        DataType::Float16,
        DataType::Float32,
        DataType::Float64,
    ])
}

const BINARY: &[&str] = &[
    "add",
    "subtract",
    "multiply",
    "maximum",
    "minimum",
    "floor_divide",
    "mod",
    "equal",
    "less",
    "greater_equal",
];

fn is_float(element: &DataType) -> bool {
    matches!(
        element,
        DataType::Float16 | DataType::Float32 | DataType::Float64
    )
}

/// `v` wrapped into `element`'s range, as numpy's fixed-width integers wrap.
fn wrap(v: i128, element: &DataType) -> f64 {
    match element {
        DataType::Int8 => v as i8 as f64,
        DataType::Int32 => v as i32 as f64,
        DataType::Int64 => v as i64 as f64,
        DataType::UInt8 => v as u8 as f64,
        DataType::UInt16 => v as u16 as f64,
        DataType::UInt64 => v as u64 as f64,
        _ => v as f64,
    }
}

/// Python's `a // b` (rounded towards minus infinity).
fn floor_div(a: i128, b: i128) -> i128 {
    let q = a / b;
    if a % b != 0 && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

/// numpy's `op(a, b)` for two elements of `element` (small integers, exact in every type).
fn numpy_binary(op: &str, a: i64, b: i64, element: &DataType) -> f64 {
    let (fa, fb) = (a as f64, b as f64);
    let truth = |t: bool| f64::from(u8::from(t));
    if is_float(element) {
        return match op {
            "add" => fa + fb,
            "subtract" => fa - fb,
            "multiply" => fa * fb,
            "maximum" => fa.max(fb),
            "minimum" => fa.min(fb),
            "floor_divide" if fb == 0.0 => fa / fb,
            "floor_divide" => (fa / fb).floor(),
            "mod" if fb == 0.0 => f64::NAN,
            "mod" => {
                let r = fa % fb;
                if r != 0.0 && (r < 0.0) != (fb < 0.0) {
                    r + fb
                } else {
                    r
                }
            }
            "equal" => truth(fa == fb),
            "less" => truth(fa < fb),
            "greater_equal" => truth(fa >= fb),
            _ => unreachable!(),
        };
    }
    let (ia, ib) = (i128::from(a), i128::from(b));
    match op {
        "add" => wrap(ia + ib, element),
        "subtract" => wrap(ia - ib, element),
        "multiply" => wrap(ia * ib, element),
        "maximum" => wrap(ia.max(ib), element),
        "minimum" => wrap(ia.min(ib), element),
        "floor_divide" if ib == 0 => 0.0,
        "floor_divide" => wrap(floor_div(ia, ib), element),
        "mod" if ib == 0 => 0.0,
        "mod" => wrap(ia - floor_div(ia, ib) * ib, element),
        "equal" => truth(ia == ib),
        "less" => truth(ia < ib),
        "greater_equal" => truth(ia >= ib),
        _ => unreachable!(),
    }
}

/// Two columns of one element type and the given shapes, the same number of rows.
fn binary_args() -> impl Strategy<Value = (Column, Column, &'static str)> {
    (
        numeric_element(),
        shape_pair(),
        prop::sample::select(BINARY),
    )
        .prop_flat_map(|(element, (sa, sb), op)| {
            (column(element.clone(), sa), column(element, sb), Just(op)).prop_map(
                |(a, mut b, op)| {
                    b.rows.resize(a.rows.len(), None);
                    (a, b, op)
                },
            )
        })
}

fn same(got: f64, want: f64) -> bool {
    got == want || (got.is_nan() && want.is_nan())
}

fn rows_f64(
    result: &(Field, arrow::array::ArrayRef),
) -> (Vec<usize>, Vec<Option<Vec<Option<f64>>>>) {
    rows_in::<Float64Type>(result)
}

pub(crate) fn element_type(field: &Field) -> DataType {
    match TensorType::from_field(field).unwrap() {
        Some(tensor) => tensor.element_type().clone(),
        None => field.data_type().clone(),
    }
}

proptest! {
    #[test]
    fn binary_functions_match_numpy_broadcasting((a, b, op) in binary_args()) {
        let sql = format!("SELECT tensor_{op}(a, b) FROM t");
        let got = run(&[("a", a.arrow("a")), ("b", b.arrow("b"))], &sql);
        let Some(out_shape) = broadcast(&[a.shape.clone(), b.shape.clone()]) else {
            let message = got.expect_err(&sql);
            prop_assert!(
                message.contains("operands could not be broadcast together with shapes"),
                "{sql}: {message}"
            );
            return Ok(());
        };
        let result = got.map_err(|e| TestCaseError::fail(format!("{sql}: {e}")))?;
        let comparison = matches!(op, "equal" | "less" | "greater_equal");
        let want_type = if comparison { DataType::Boolean } else { a.element.clone() };
        prop_assert_eq!(element_type(&result.0), want_type, "{}", sql);
        let (shape, rows) = rows_f64(&result);
        if !out_shape.is_empty() {
            prop_assert_eq!(&shape, &out_shape, "{}", sql);
        }
        prop_assert_eq!(rows.len(), a.rows.len());
        for (r, row) in rows.iter().enumerate() {
            let (Some(ra), Some(rb)) = (&a.rows[r], &b.rows[r]) else {
                prop_assert!(row.is_none(), "{}: row {} should be NULL", sql, r);
                continue;
            };
            // A 0-d result is a plain column: a NULL element is a NULL row.
            let zero_d_null = [None];
            let row = match row {
                Some(row) => row.as_slice(),
                None if out_shape.is_empty() => &zero_d_null[..],
                None => return Err(TestCaseError::fail(format!("{sql}: row {r} is NULL"))),
            };
            for (k, got) in row.iter().enumerate() {
                let index = unravel(k, &out_shape);
                let va = ra[broadcast_position(&index, &a.shape, &out_shape)];
                let vb = rb[broadcast_position(&index, &b.shape, &out_shape)];
                match (va, vb) {
                    (Some(va), Some(vb)) => {
                        let want = numpy_binary(op, va, vb, &a.element);
                        let got = got.expect("an element of two non-NULL elements");
                        prop_assert!(
                            same(got, want),
                            "{}: row {} element {:?}: {} {} {} gives {}, numpy {}",
                            sql, r, index, va, op, vb, got, want
                        );
                    }
                    _ => prop_assert!(got.is_none(), "{}: row {} element {:?} should be NULL", sql, r, index),
                }
            }
        }
    }
}

// ---- reductions ----

const REDUCTIONS: &[&str] = &["sum", "prod", "min", "max", "any", "all", "mean", "argmax"];

fn reduce_element() -> impl Strategy<Value = DataType> {
    prop::sample::select(vec![
        DataType::Int8,
        DataType::Int32,
        DataType::Int64,
        DataType::UInt8,
        DataType::Float32,
        DataType::Float64,
    ])
}

/// `None`: all axes; `Some((axes, as_list))`.
fn axes_for(ndim: usize) -> BoxedStrategy<Option<(Vec<i64>, bool)>> {
    if ndim == 0 {
        return Just(None).boxed();
    }
    let n = ndim as i64;
    prop_oneof![
        1 => Just(None),
        2 => (-n..n).prop_map(|a| Some((vec![a], false))),
        2 => Just((0..n).collect::<Vec<_>>())
            .prop_shuffle()
            .prop_flat_map(move |axes| (Just(axes), 1..=ndim))
            .prop_map(|(axes, k)| Some((axes[..k].to_vec(), true))),
    ]
    .boxed()
}

/// A column without NULL elements (NULL rows kept).
fn dense(mut c: Column) -> Column {
    for row in c.rows.iter_mut().flatten() {
        for v in row.iter_mut() {
            v.get_or_insert(1);
        }
    }
    c
}

fn reduce_args() -> impl Strategy<Value = (Column, &'static str, Option<(Vec<i64>, bool)>, bool)> {
    (reduce_element(), shape(4), prop::sample::select(REDUCTIONS))
        .prop_flat_map(|(element, shape, op)| {
            let ndim = shape.len();
            let axes = if op == "argmax" {
                axes_for(ndim)
                    .prop_map(|a| a.map(|(axes, _)| (axes[..1].to_vec(), false)))
                    .boxed()
            } else {
                axes_for(ndim)
            };
            (
                column(element, shape).prop_map(dense),
                Just(op),
                axes,
                any::<bool>(),
            )
        })
        .prop_filter(
            "argmax takes keepdims only with an axis here",
            |(_, op, axes, keep)| !(*op == "argmax" && axes.is_none() && *keep),
        )
}

/// numpy's result of `op` over `values` (C order), or its error.
fn numpy_reduce(op: &str, values: &[i64], float: bool) -> Result<f64, &'static str> {
    let n = values.len();
    Ok(match op {
        "sum" => values.iter().map(|&v| i128::from(v)).sum::<i128>() as f64,
        "prod" if float => values.iter().map(|&v| v as f64).product(),
        "prod" => values.iter().fold(1i64, |acc, &v| acc.wrapping_mul(v)) as f64,
        "min" if n == 0 => {
            return Err("zero-size array to reduction operation minimum which has no identity");
        }
        "max" if n == 0 => {
            return Err("zero-size array to reduction operation maximum which has no identity");
        }
        "argmax" if n == 0 => return Err("attempt to get argmax of an empty sequence"),
        "min" => *values.iter().min().unwrap() as f64,
        "max" => *values.iter().max().unwrap() as f64,
        "argmax" => {
            let max = values.iter().max().unwrap();
            values.iter().position(|v| v == max).unwrap() as f64
        }
        "any" => f64::from(u8::from(values.iter().any(|&v| v != 0))),
        "all" => f64::from(u8::from(values.iter().all(|&v| v != 0))),
        "mean" if n == 0 => f64::NAN,
        "mean" => values.iter().sum::<i64>() as f64 / n as f64,
        _ => unreachable!(),
    })
}

/// numpy's result type of `op` over `element`.
fn numpy_reduce_type(op: &str, element: &DataType) -> DataType {
    match (op, element) {
        ("any" | "all", _) => DataType::Boolean,
        ("argmax", _) => DataType::Int64,
        ("sum" | "prod", DataType::Int8 | DataType::Int32 | DataType::Int64) => DataType::Int64,
        ("sum" | "prod", DataType::UInt8) => DataType::UInt64,
        ("mean", DataType::Float32) => DataType::Float32,
        ("mean", _) => DataType::Float64,
        (_, other) => other.clone(),
    }
}

proptest! {
    #[test]
    fn reductions_match_numpy((x, op, axes, keepdims) in reduce_args()) {
        let ndim = x.shape.len();
        let axis_sql = match &axes {
            None => "NULL".to_string(),
            Some((a, true)) => format!("[{}]", a.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")),
            Some((a, false)) => a[0].to_string(),
        };
        let sql = format!("SELECT tensor_{op}(x, axis => {axis_sql}, keepdims => {keepdims}) FROM t");
        let got = run(&[("x", x.arrow("x"))], &sql);
        let reduced: Vec<usize> = match &axes {
            None => (0..ndim).collect(),
            Some((a, _)) => a.iter().map(|&k| k.rem_euclid(ndim as i64) as usize).collect(),
        };
        let out_shape: Vec<usize> = (0..ndim)
            .filter_map(|k| match (reduced.contains(&k), keepdims) {
                (false, _) => Some(x.shape[k]),
                (true, true) => Some(1),
                (true, false) => None,
            })
            .collect();
        let kept: Vec<usize> = (0..ndim).filter(|k| !reduced.contains(k)).collect();
        let kept_shape: Vec<usize> = kept.iter().map(|&k| x.shape[k]).collect();
        // numpy's values for one row, in the kept dims' C order; reduced positions in the
        // order numpy visits them (the reduced axes in ascending order).
        let mut sorted = reduced.clone();
        sorted.sort_unstable();
        let sorted_shape: Vec<usize> = sorted.iter().map(|&k| x.shape[k]).collect();
        let float = matches!(x.element, DataType::Float32 | DataType::Float64);
        let expect_row = |row: &[Option<i64>]| -> Result<Vec<f64>, &'static str> {
            (0..reference::size(&kept_shape))
                .map(|o| {
                    let kept_index = unravel(o, &kept_shape);
                    let values: Vec<i64> = (0..reference::size(&sorted_shape))
                        .map(|p| {
                            let red_index = unravel(p, &sorted_shape);
                            let mut index = vec![0; ndim];
                            for (i, &k) in kept.iter().enumerate() {
                                index[k] = kept_index[i];
                            }
                            for (i, &k) in sorted.iter().enumerate() {
                                index[k] = red_index[i];
                            }
                            row[ravel(&index, &x.shape)].expect("dense")
                        })
                        .collect();
                    numpy_reduce(op, &values, float)
                })
                .collect()
        };
        let empty_error = if reference::size(&sorted_shape) == 0 {
            numpy_reduce(op, &[], float).err()
        } else {
            None
        };
        if let Some(error) = empty_error {
            if reference::size(&kept_shape) == 0 && !kept.is_empty() {
                // Nothing to reduce into: numpy's answer is not pinned down here.
                return Ok(());
            }
            let any_row = x.rows.iter().any(Option::is_some);
            match &got {
                Err(message) => prop_assert!(message.contains(error), "{}: {}", sql, message),
                Ok(_) => prop_assert!(!any_row, "{}: expected {:?}", sql, error),
            }
            return Ok(());
        }
        let result = got.map_err(|e| TestCaseError::fail(format!("{sql}: {e}")))?;
        prop_assert_eq!(element_type(&result.0), numpy_reduce_type(op, &x.element), "{}", sql);
        let (shape, rows) = rows_f64(&result);
        if !out_shape.is_empty() {
            prop_assert_eq!(&shape, &out_shape, "{}", sql);
        }
        prop_assert_eq!(rows.len(), x.rows.len());
        for (r, row) in rows.iter().enumerate() {
            let Some(input) = &x.rows[r] else {
                prop_assert!(row.is_none(), "{}: row {} should be NULL", sql, r);
                continue;
            };
            let want = expect_row(input).map_err(|e| TestCaseError::fail(format!("{sql}: {e}")))?;
            let got: Vec<f64> = row
                .as_ref()
                .expect("a non-NULL row")
                .iter()
                .map(|v| v.expect("no NULL elements"))
                .collect();
            prop_assert_eq!(got.len(), want.len(), "{}", sql);
            for (k, (g, w)) in got.iter().zip(&want).enumerate() {
                // mean divides (and float32 rounds it); a float product past 2^24 rounds in
                // the order of its multiplications.
                let tolerant = op == "mean" || (op == "prod" && float);
                let close = same(*g, *w) || (tolerant && (g - w).abs() <= 1e-5 * w.abs().max(1.0));
                prop_assert!(close, "{}: row {} element {}: got {}, numpy {}", sql, r, k, g, w);
            }
        }
    }
}
