//! Property tests of the array API functions: random shapes (empty dimensions too), element
//! types, permuted layouts, NULL rows and NULL elements, checked against identities that hold
//! exactly: a roll undone by the opposite roll, `diff` undoing `cumulative_sum` (integers,
//! whose sums wrap as their differences do), the cross product orthogonal to its operands,
//! `kron` every product, the counts of `unique_counts` and `bincount` adding up to the size.

use arrow::datatypes::{DataType, Int64Type};
use proptest::prelude::*;

use super::properties::{Column, column, column_and_axis, rows_in, run};

fn element() -> impl Strategy<Value = DataType> {
    prop::sample::select(vec![
        DataType::Int8,
        DataType::Int32,
        DataType::Int64,
        DataType::UInt8,
        DataType::UInt64,
        DataType::Float32,
        DataType::Float64,
        DataType::Boolean,
    ])
}

fn integer() -> impl Strategy<Value = DataType> {
    prop::sample::select(vec![
        DataType::Int8,
        DataType::Int16,
        DataType::Int64,
        DataType::UInt8,
        DataType::UInt32,
    ])
}

/// Runs `sql` over the column `x`, its rows as int64.
fn int_rows(x: &Column, sql: &str) -> Result<Vec<Option<Vec<Option<i64>>>>, TestCaseError> {
    let got =
        run(&[("x", x.arrow("x"))], sql).map_err(|e| TestCaseError::fail(format!("{sql}: {e}")))?;
    Ok(rows_in::<Int64Type>(&got).1)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn a_roll_is_undone_by_the_opposite_roll(((x, axis), shift) in (column_and_axis(element(), true), -5i64..5)) {
        let sql = format!(
            "SELECT tensor_roll(tensor_roll(x, {shift}, {axis}), {}, {axis}) FROM t",
            -shift
        );
        let rows = int_rows(&x, &sql)?;
        prop_assert_eq!(rows, x.rows.clone(), "{}", sql);
    }

    #[test]
    fn diff_undoes_cumulative_sum((x, axis) in column_and_axis(integer(), true)) {
        let sql = format!(
            "SELECT tensor_diff(tensor_cumulative_sum(x, {axis}, true), 1, {axis}) FROM t"
        );
        let rows = int_rows(&x, &sql)?;
        prop_assert_eq!(rows.len(), x.rows.len());
        for (r, (got, want)) in rows.iter().zip(&x.rows).enumerate() {
            match (got, want) {
                (None, None) => {}
                // A NULL element makes the sums after it NULL: compare rows without one.
                (Some(_), Some(want)) if want.iter().any(Option::is_none) => {}
                (Some(got), Some(want)) => prop_assert_eq!(got, want, "{}: row {}", sql, r),
                _ => prop_assert!(false, "{}: row {} NULL on one side only", sql, r),
            }
        }
    }

    #[test]
    fn the_cross_product_is_orthogonal(x in (1usize..4).prop_flat_map(|n| column(DataType::Int64, vec![n, 3]))) {
        // y = x + [1, 2, 3]: a second operand of the same rows.
        for operand in ["x", "tensor_add(x, [1, 2, 3])"] {
            let sql = format!(
                "SELECT tensor_vecdot(tensor_cross(x, tensor_add(x, [1, 2, 3])), {operand}) FROM t"
            );
            let rows = int_rows(&x, &sql)?;
            for (r, (got, want)) in rows.iter().zip(&x.rows).enumerate() {
                let (Some(got), Some(want)) = (got, want) else {
                    prop_assert!(got.is_none() && want.is_none(), "{}: row {}", sql, r);
                    continue;
                };
                for (k, dot) in got.iter().enumerate() {
                    // A vector with a NULL element: its dot product is NULL.
                    let null = want[k * 3..k * 3 + 3].iter().any(Option::is_none);
                    prop_assert_eq!(*dot, (!null).then_some(0), "{}: row {} vector {}", sql, r, k);
                }
            }
        }
    }

    #[test]
    fn kron_is_every_product(x in (0usize..5).prop_flat_map(|n| column(DataType::Int64, vec![n]))) {
        let sql = "SELECT tensor_kron(x, tensor_flip(x)) FROM t";
        let rows = int_rows(&x, sql)?;
        for (r, (got, want)) in rows.iter().zip(&x.rows).enumerate() {
            let (Some(got), Some(want)) = (got, want) else {
                prop_assert!(got.is_none() && want.is_none(), "row {}", r);
                continue;
            };
            let n = want.len();
            prop_assert_eq!(got.len(), n * n);
            for i in 0..n {
                for j in 0..n {
                    let product = want[i].zip(want[n - 1 - j]).map(|(a, b)| a * b);
                    prop_assert_eq!(got[i * n + j], product, "row {} ({}, {})", r, i, j);
                }
            }
        }
    }

    #[test]
    fn counts_add_up_to_the_size((x, _axis) in column_and_axis(prop::sample::select(vec![DataType::UInt8, DataType::UInt32, DataType::Int64]), true)) {
        let size: usize = x.shape.iter().product();
        let unique = int_rows(&x, "SELECT tensor_sum(tensor_unique_counts(x)['counts']) FROM t")?;
        let signed = x.element == DataType::Int64;
        let bincount = (!signed)
            .then(|| int_rows(&x, "SELECT tensor_sum(tensor_bincount(tensor_reshape(x, [-1]))) FROM t"))
            .transpose()?;
        for (r, want) in x.rows.iter().enumerate() {
            let Some(want) = want else {
                prop_assert!(unique[r].is_none(), "row {} should be NULL", r);
                continue;
            };
            prop_assert_eq!(unique[r].as_ref().and_then(|v| v[0]), Some(size as i64), "unique_counts: row {}", r);
            if let Some(bincount) = &bincount {
                // A NULL element: which bin is not known, the row NULL.
                let expected = (!want.iter().any(Option::is_none)).then_some(size as i64);
                prop_assert_eq!(bincount[r].as_ref().and_then(|v| v[0]), expected, "bincount: row {}", r);
            }
        }
    }
}
