//! Property tests of the linear algebra (spec.md §10): random matrix products of every size from
//! 1 to 20 per side (below and past the gemm threshold), permuted operands and NULL rows,
//! against the product written out here on the same small integers (exact in every type),
//! `tensor_einsum`'s and `tensor_norm`'s agreement with it, products with a number (a 0-d
//! operand of its own type), the vector measures on fixed- and variable-shape operands, and
//! numpy.linalg's decompositions against exact arithmetic.

// n, k, m and a, b: the matrix product's own names.
#![allow(
    clippy::float_cmp,
    clippy::cast_lossless,
    clippy::many_single_char_names
)]

use arrow::datatypes::{DataType, Float64Type};
use proptest::prelude::*;

use super::properties::{Column, rows_in, run};
use super::properties_math::element_type;

/// A column of `rows` rows of logical `shape`, no NULL elements (a product has no element
/// validity in numpy), some NULL rows, maybe permuted.
fn matrix_column(
    element: DataType,
    shape: Vec<usize>,
    rows: usize,
) -> impl Strategy<Value = Column> {
    let size: usize = shape.iter().product();
    let row = prop_oneof![
        1 => Just(None),
        6 => prop::collection::vec((-4i64..=4).prop_map(Some), size).prop_map(Some),
    ];
    let n = shape.len();
    let permutation = prop_oneof![
        Just(None),
        Just((0..n).collect::<Vec<_>>())
            .prop_shuffle()
            .prop_map(Some),
    ];
    (prop::collection::vec(row, rows), permutation).prop_map(move |(rows, permutation)| Column {
        element: element.clone(),
        shape: shape.clone(),
        permutation,
        rows,
    })
}

fn product_args() -> impl Strategy<Value = (Column, Column)> {
    (
        prop::sample::select(vec![DataType::Float32, DataType::Float64, DataType::Int32]),
        1usize..=20,
        1usize..=20,
        1usize..=20,
        1usize..=3,
    )
        .prop_flat_map(|(element, n, k, m, rows)| {
            (
                matrix_column(element.clone(), vec![n, k], rows),
                matrix_column(element, vec![k, m], rows),
            )
        })
}

/// `a @ b` of one row pair, row-major.
fn product(a: &[Option<i64>], b: &[Option<i64>], n: usize, k: usize, m: usize) -> Vec<f64> {
    let mut out = vec![0.0; n * m];
    for i in 0..n {
        for j in 0..m {
            out[i * m + j] = (0..k)
                .map(|p| (a[i * k + p].unwrap_or(0) * b[p * m + j].unwrap_or(0)) as f64)
                .sum();
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn products_match_the_written_out_product((a, b) in product_args()) {
        let (n, k, m) = (a.shape[0], a.shape[1], b.shape[1]);
        let columns = [("a", a.arrow("a")), ("b", b.arrow("b"))];
        for sql in [
            "SELECT tensor_matmul(a, b) FROM t",
            "SELECT tensor_dot(a, b) FROM t",
            "SELECT tensor_einsum('ij,jk->ik', a, b) FROM t",
            "SELECT tensor_tensordot(a, b, 1) FROM t",
            "SELECT tensor_inner(a, tensor_transpose(b)) FROM t",
        ] {
            let result = run(&columns, sql).map_err(|e| TestCaseError::fail(format!("{sql}: {e}")))?;
            prop_assert_eq!(element_type(&result.0), a.element.clone(), "{}", sql);
            let (shape, rows) = rows_in::<Float64Type>(&result);
            prop_assert_eq!(shape, vec![n, m], "{}", sql);
            for (r, row) in rows.iter().enumerate() {
                let (Some(ra), Some(rb)) = (&a.rows[r], &b.rows[r]) else {
                    prop_assert!(row.is_none(), "{}: row {} should be NULL", sql, r);
                    continue;
                };
                let want = product(ra, rb, n, k, m);
                let got: Vec<f64> = row.as_ref().unwrap().iter().map(|v| v.unwrap()).collect();
                prop_assert_eq!(&got, &want, "{}: row {}", sql, r);
            }
        }
        // A number is a 0-d operand of its own type (SQL's 2 an int64): dot and tensordot with
        // it scale every element, in numpy's promotion of the element type with int64.
        for sql in [
            "SELECT tensor_dot(a, 2) FROM t",
            "SELECT tensor_tensordot(2, a, 0) FROM t",
            "SELECT tensor_einsum('ij,->ij', a, 2) FROM t",
        ] {
            let result = run(&columns, sql).map_err(|e| TestCaseError::fail(format!("{sql}: {e}")))?;
            let want_type = if a.element == DataType::Int32 { DataType::Int64 } else { DataType::Float64 };
            prop_assert_eq!(element_type(&result.0), want_type, "{}", sql);
            let (shape, rows) = rows_in::<Float64Type>(&result);
            prop_assert_eq!(shape, vec![n, k], "{}", sql);
            for (r, row) in rows.iter().enumerate() {
                let Some(ra) = &a.rows[r] else {
                    prop_assert!(row.is_none(), "{}: row {} should be NULL", sql, r);
                    continue;
                };
                let want: Vec<f64> = ra.iter().map(|v| 2.0 * v.unwrap_or(0) as f64).collect();
                let got: Vec<f64> = row.as_ref().unwrap().iter().map(|v| v.unwrap()).collect();
                prop_assert_eq!(&got, &want, "{}: row {}", sql, r);
            }
        }
        // The Frobenius norm of a row is sqrt(sum(x * x)) of the same values; l2_distance
        // squared is the inner product of the difference with itself (within float error).
        let sql = "SELECT tensor_norm(a, 'fro') FROM t";
        let result = run(&columns, sql).map_err(|e| TestCaseError::fail(format!("{sql}: {e}")))?;
        let (_, rows) = rows_in::<Float64Type>(&result);
        for (r, row) in rows.iter().enumerate() {
            let Some(ra) = &a.rows[r] else { continue };
            let want = ra.iter().map(|v| (v.unwrap_or(0) * v.unwrap_or(0)) as f64).sum::<f64>().sqrt();
            let got = row.as_ref().and_then(|v| v[0]).unwrap();
            prop_assert!((got - want).abs() <= 1e-6 * want.max(1.0), "{}: row {}: {} != {}", sql, r, got, want);
        }
    }
}

/// Two columns of one shape [n, k] (the measures run along the last axis).
fn measure_args() -> impl Strategy<Value = (Column, Column)> {
    (
        prop::sample::select(vec![DataType::Float32, DataType::Float64, DataType::Int32]),
        1usize..=6,
        1usize..=40,
        1usize..=3,
    )
        .prop_flat_map(|(element, n, k, rows)| {
            (
                matrix_column(element.clone(), vec![n, k], rows),
                matrix_column(element, vec![n, k], rows),
            )
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    /// `tensor_inner_product`, `tensor_l2_distance` and `tensor_cosine_similarity` along the
    /// last axis against their definitions (`sum(x * y)`, `sqrt(sum((x - y)^2))`,
    /// `x . y / (|x| |y|)`) on the same small integers, within float32 rounding.
    #[test]
    fn vector_measures_agree_with_their_definitions((a, c) in measure_args()) {
        let (n, k) = (a.shape[0], a.shape[1]);
        let columns = [("a", a.arrow("a")), ("c", c.arrow("c"))];
        // The same with a variable-shape operand (each row's shapes broadcast row by row; the
        // result fixed-shape: every row's dimensions are the type's uniform shape).
        for (which, sql) in [
            "SELECT tensor_inner_product(a, c) FROM t",
            "SELECT tensor_l2_distance(a, c) FROM t",
            "SELECT tensor_cosine_similarity(a, c) FROM t",
            "SELECT tensor_inner_product(tensor_to_variable(a), c) FROM t",
            "SELECT tensor_l2_distance(a, tensor_to_variable(c)) FROM t",
            "SELECT tensor_cosine_similarity(tensor_to_variable(a), tensor_to_variable(c)) FROM t",
        ]
        .into_iter()
        .enumerate()
        {
            let which = which % 3;
            let result = run(&columns, sql).map_err(|e| TestCaseError::fail(format!("{sql}: {e}")))?;
            let (shape, rows) = rows_in::<Float64Type>(&result);
            prop_assert_eq!(shape, vec![n], "{}", sql);
            for (r, row) in rows.iter().enumerate() {
                let (Some(ra), Some(rc)) = (&a.rows[r], &c.rows[r]) else {
                    prop_assert!(row.is_none(), "{}: row {} should be NULL", sql, r);
                    continue;
                };
                let got = row.as_ref().unwrap();
                for i in 0..n {
                    let x: Vec<f64> = ra[i * k..(i + 1) * k].iter().map(|v| v.unwrap() as f64).collect();
                    let y: Vec<f64> = rc[i * k..(i + 1) * k].iter().map(|v| v.unwrap() as f64).collect();
                    let dot: f64 = x.iter().zip(&y).map(|(p, q)| p * q).sum();
                    let (nx, ny) = (x.iter().map(|p| p * p).sum::<f64>().sqrt(), y.iter().map(|q| q * q).sum::<f64>().sqrt());
                    let want = match which {
                        0 => dot,
                        1 => x.iter().zip(&y).map(|(p, q)| (p - q) * (p - q)).sum::<f64>().sqrt(),
                        _ if nx == 0.0 || ny == 0.0 => continue, // 0 / 0: numpy's NaN
                        _ => dot / (nx * ny),
                    };
                    let value = got[i].unwrap();
                    prop_assert!(
                        (value - want).abs() <= 1e-5 * want.abs().max(1.0),
                        "{}: row {} [{}]: {} != {}", sql, r, i, value, want
                    );
                }
            }
        }
    }
}

/// Square matrices of 1 to 6 per side, small integers, NULL rows, maybe permuted.
fn square_args() -> impl Strategy<Value = Column> {
    (
        prop::sample::select(vec![DataType::Float32, DataType::Float64, DataType::Int32]),
        1usize..=6,
        1usize..=3,
    )
        .prop_flat_map(|(element, n, rows)| matrix_column(element, vec![n, n], rows))
}

/// The exact determinant of a row-major integer matrix (Bareiss's fraction-free elimination,
/// in i128), and Hadamard's bound on it (the product of the rows' norms).
fn exact_det(a: &[Option<i64>], n: usize) -> (f64, f64) {
    let mut m: Vec<i128> = a.iter().map(|v| i128::from(v.unwrap_or(0))).collect();
    let bound: f64 = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| (m[i * n + j] * m[i * n + j]) as f64)
                .sum::<f64>()
                .sqrt()
        })
        .product();
    let (mut sign, mut previous) = (1i128, 1i128);
    for k in 0..n {
        if m[k * n + k] == 0 {
            let Some(p) = (k + 1..n).find(|&p| m[p * n + k] != 0) else {
                return (0.0, bound);
            };
            for j in 0..n {
                m.swap(k * n + j, p * n + j);
            }
            sign = -sign;
        }
        for i in k + 1..n {
            for j in k + 1..n {
                m[i * n + j] =
                    (m[i * n + j] * m[k * n + k] - m[i * n + k] * m[k * n + j]) / previous;
            }
        }
        previous = m[k * n + k];
    }
    ((sign * m[n * n - 1]) as f64, bound)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]
    /// numpy.linalg's functions per row against exact arithmetic: the determinant against
    /// Bareiss's, the singular values' squares summing to the Frobenius norm's square, Q R
    /// giving the matrix back.
    #[test]
    fn decompositions_agree_with_exact_arithmetic(a in square_args()) {
        let n = a.shape[0];
        let columns = [("a", a.arrow("a"))];
        let float32 = a.element == DataType::Float32;
        let tolerance = if float32 { 1e-5 } else { 1e-9 };
        let sql = "SELECT tensor_det(a) FROM t";
        let result = run(&columns, sql).map_err(|e| TestCaseError::fail(format!("{sql}: {e}")))?;
        let (_, rows) = rows_in::<Float64Type>(&result);
        for (r, row) in rows.iter().enumerate() {
            let Some(ra) = &a.rows[r] else {
                prop_assert!(row.is_none(), "{}: row {} should be NULL", sql, r);
                continue;
            };
            let (want, bound) = exact_det(ra, n);
            let got = row.as_ref().and_then(|v| v[0]).unwrap();
            prop_assert!((got - want).abs() <= tolerance * (bound + 1.0), "{}: row {}: {} != {}", sql, r, got, want);
        }
        let sql = "SELECT tensor_svdvals(a) FROM t";
        let result = run(&columns, sql).map_err(|e| TestCaseError::fail(format!("{sql}: {e}")))?;
        let (_, rows) = rows_in::<Float64Type>(&result);
        for (r, row) in rows.iter().enumerate() {
            let Some(ra) = &a.rows[r] else { continue };
            let fro: f64 = ra.iter().map(|v| (v.unwrap_or(0) * v.unwrap_or(0)) as f64).sum();
            let squares: f64 = row.as_ref().unwrap().iter().map(|v| v.unwrap() * v.unwrap()).sum();
            prop_assert!((fro - squares).abs() <= tolerance * (fro + 1.0), "{}: row {}: {} != {}", sql, r, squares, fro);
        }
        let sql = "SELECT tensor_matmul(tensor_qr(a)['Q'], tensor_qr(a)['R']) FROM t";
        let result = run(&columns, sql).map_err(|e| TestCaseError::fail(format!("{sql}: {e}")))?;
        let (shape, rows) = rows_in::<Float64Type>(&result);
        prop_assert_eq!(shape, vec![n, n], "{}", sql);
        for (r, row) in rows.iter().enumerate() {
            let Some(ra) = &a.rows[r] else { continue };
            for (got, want) in row.as_ref().unwrap().iter().zip(ra) {
                let (got, want) = (got.unwrap(), want.unwrap_or(0) as f64);
                prop_assert!((got - want).abs() <= tolerance * 10.0, "{}: row {}: {} != {}", sql, r, got, want);
            }
        }
    }
}
