//! Property tests of the tensor aggregates (spec.md §10): random shapes (0-size dims, 0-d),
//! element types, permuted layouts, NULL rows and NULL elements through
//! `tensor_agg_sum/prod/min/max/mean` without GROUP BY, against numpy's
//! `np.<op>(np.stack(rows), axis=0)` written out element by element here: the non-NULL rows in
//! order, integers in int64 / uint64, float64 added in row order, numpy's result types; no rows
//! at all is NULL, and an element NULL in any row is NULL (SQL's rule).

// Exact float comparison is the point (the values are small integers); casts of small integers.
#![allow(clippy::float_cmp, clippy::cast_precision_loss)]

use arrow::datatypes::{DataType, Float64Type};
use proptest::prelude::*;

use super::properties::{Column, column, rows_in, run};
use super::properties_math::element_type;

fn element() -> impl Strategy<Value = DataType> {
    prop::sample::select(vec![
        DataType::Int8,
        DataType::Int32,
        DataType::Int64,
        DataType::UInt8,
        DataType::UInt64,
        DataType::Float64,
        DataType::Boolean,
    ])
}

fn shape() -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(prop_oneof![1 => Just(0usize), 8 => 1usize..4], 0..=3)
}

/// A column (NULL rows, some NULL elements) and an aggregate.
fn aggregate_args() -> impl Strategy<Value = (Column, &'static str)> {
    (element(), shape())
        .prop_flat_map(|(element, shape)| column(element, shape))
        .prop_flat_map(|x| {
            (
                Just(x),
                prop::sample::select(vec!["sum", "prod", "min", "max", "mean"]),
            )
        })
}

/// numpy 2's result type of `op` over rows of `element`s.
fn result_type(op: &str, element: &DataType) -> DataType {
    match (op, element) {
        (
            "sum" | "prod",
            DataType::Int8 | DataType::Int32 | DataType::Int64 | DataType::Boolean,
        ) => DataType::Int64,
        ("sum" | "prod", DataType::UInt8 | DataType::UInt64) => DataType::UInt64,
        ("mean", _) => DataType::Float64,
        (_, other) => other.clone(),
    }
}

/// numpy's value of one element over the rows' values there, in row order (small integers:
/// no overflow, every float64 step exact).
fn reference(op: &str, values: &[i64]) -> f64 {
    let as_f64 = values.iter().map(|&v| v as f64);
    match op {
        "sum" => as_f64.sum(),
        "prod" => as_f64.product(),
        "min" => as_f64.fold(f64::INFINITY, f64::min),
        "max" => as_f64.fold(f64::NEG_INFINITY, f64::max),
        _ => as_f64.sum::<f64>() / values.len() as f64,
    }
}

proptest! {
    #[test]
    fn aggregates_match_numpy((x, op) in aggregate_args()) {
        let sql = format!("SELECT tensor_agg_{op}(x) FROM t");
        let result = run(&[("x", x.arrow("x"))], &sql)
            .map_err(|e| TestCaseError::fail(format!("{sql}: {e}")))?;
        prop_assert_eq!(element_type(&result.0), result_type(op, &x.element), "{}", sql);
        let (shape, rows) = rows_in::<Float64Type>(&result);
        prop_assert_eq!(rows.len(), 1, "{}: one group", sql);
        let present: Vec<&Vec<Option<i64>>> = x.rows.iter().flatten().collect();
        if present.is_empty() {
            prop_assert!(rows[0].is_none(), "{}: no rows is NULL", sql);
            return Ok(());
        }
        if !x.shape.is_empty() {
            prop_assert_eq!(&shape, &x.shape, "{}: the logical shape", sql);
        }
        let got = rows[0].clone().ok_or_else(|| TestCaseError::fail(format!("{sql}: NULL")))?;
        let size: usize = x.shape.iter().product();
        prop_assert_eq!(got.len(), size);
        for (j, value) in got.iter().enumerate() {
            let column: Option<Vec<i64>> = present.iter().map(|row| row[j]).collect();
            let expected = column.map(|column| reference(op, &column));
            prop_assert_eq!(*value, expected, "{}: element {}", sql, j);
        }
    }
}
