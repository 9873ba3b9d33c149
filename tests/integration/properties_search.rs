//! Property tests of the searching functions: random shapes (empty dimensions too), integer
//! and float element types, permuted layouts, NULL rows and NULL elements through
//! `tensor_topk`, `tensor_argpartition` and `tensor_one_hot`, against their definitions
//! written out line by line here: top-k is the first `k` of a stable sort (largest first,
//! ties by index, an element NULL after every number), argpartition puts each `kth` element
//! where that sort puts it with the smaller ones before and the larger after, `one_hot` is
//! `jax.nn.one_hot` (`x[..., None] == arange(n)`).

#![allow(clippy::type_complexity)]

use std::cmp::Ordering;

use arrow::datatypes::{DataType, Int64Type};
use proptest::prelude::*;

use super::properties::reference::{self, ravel, unravel};
use super::properties::{Column, column, rows_in, run, small_shape};

fn element() -> impl Strategy<Value = DataType> {
    prop::sample::select(vec![
        DataType::Int8,
        DataType::Int32,
        DataType::Int64,
        DataType::UInt8,
        DataType::UInt64,
        DataType::Float32,
        DataType::Float64,
    ])
}

/// A column, an axis of it, and a count no longer than that axis.
fn args() -> impl Strategy<Value = (Column, usize, usize, bool)> {
    (element(), small_shape(true)).prop_flat_map(|(element, shape)| {
        let ndim = shape.len();
        (column(element, shape), 0..ndim).prop_flat_map(|(c, axis)| {
            let n = c.shape[axis];
            (Just(c), Just(axis), 0..=n, any::<bool>())
        })
    })
}

/// The order of two elements of a line (`None`: NULL, after every number).
fn order(a: Option<i64>, b: Option<i64>) -> Ordering {
    match (a, b) {
        (Some(a), Some(b)) => a.cmp(&b),
        (a, b) => b.is_some().cmp(&a.is_some()),
    }
}

/// Each line of `row` along `axis`: the positions of its elements in the row.
fn lines(shape: &[usize], axis: usize) -> Vec<Vec<usize>> {
    let mut outer_shape = shape.to_vec();
    outer_shape[axis] = 1;
    (0..reference::size(&outer_shape))
        .map(|o| {
            let base = unravel(o, &outer_shape);
            (0..shape[axis])
                .map(|j| {
                    let mut index = base.clone();
                    index[axis] = j;
                    ravel(&index, shape)
                })
                .collect()
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn topk_is_the_head_of_a_stable_sort((x, axis, k, largest) in args()) {
        // The indices through a tensor the tests read (a struct field's metadata does not
        // reach the result's field): the top k taken from x by them.
        let topk = format!(
            "SELECT tensor_take_along_axis(x, tensor_topk(x, {k}, {axis}, {largest})['indices'], {axis}) FROM t"
        );
        let got = run(&[("x", x.arrow("x"))], &topk)
            .map_err(|e| TestCaseError::fail(format!("{topk}: {e}")))?;
        let (shape, rows) = rows_in::<Int64Type>(&got);
        let mut want_shape = x.shape.clone();
        want_shape[axis] = k;
        if !want_shape.contains(&0) {
            prop_assert_eq!(&shape, &want_shape, "{}", topk);
        }
        prop_assert_eq!(rows.len(), x.rows.len());
        for (r, row) in rows.iter().enumerate() {
            let Some(input) = &x.rows[r] else {
                prop_assert!(row.is_none(), "{}: row {} should be NULL", topk, r);
                continue;
            };
            let row = row.as_ref().expect("a row");
            for (line, out_line) in lines(&x.shape, axis).iter().zip(lines(&want_shape, axis)) {
                let mut sorted: Vec<usize> = (0..line.len()).collect();
                sorted.sort_by(|&a, &b| {
                    let o = order(input[line[a]], input[line[b]]);
                    if largest { o.reverse() } else { o }
                });
                for (slot, &p) in out_line.iter().enumerate() {
                    prop_assert_eq!(row[p], input[line[sorted[slot]]], "{}: row {}", topk, r);
                }
            }
        }
    }

    #[test]
    fn argpartition_puts_kth_in_place((x, axis, k, _largest) in args()) {
        let n = x.shape[axis];
        prop_assume!(k < n);
        let sql = format!(
            "SELECT tensor_take_along_axis(x, tensor_argpartition(x, {k}, {axis}), {axis}) FROM t"
        );
        let got = run(&[("x", x.arrow("x"))], &sql)
            .map_err(|e| TestCaseError::fail(format!("{sql}: {e}")))?;
        let (_, rows) = rows_in::<Int64Type>(&got);
        for (r, row) in rows.iter().enumerate() {
            let Some(input) = &x.rows[r] else {
                prop_assert!(row.is_none(), "{}: row {} should be NULL", sql, r);
                continue;
            };
            let row = row.as_ref().expect("a row");
            for line in lines(&x.shape, axis) {
                let mut want: Vec<Option<i64>> = line.iter().map(|&p| input[p]).collect();
                want.sort_by(|&a, &b| order(a, b));
                let got: Vec<Option<i64>> = line.iter().map(|&p| row[p]).collect();
                prop_assert_eq!(got[k], want[k], "{}: row {}", sql, r);
                prop_assert!(got[..k].iter().all(|&v| order(v, want[k]) != Ordering::Greater), "{}", sql);
                prop_assert!(got[k + 1..].iter().all(|&v| order(v, want[k]) != Ordering::Less), "{}", sql);
                let mut sorted = got.clone();
                sorted.sort_by(|&a, &b| order(a, b));
                prop_assert_eq!(sorted, want, "{}: a permutation of the line", sql);
            }
        }
    }

    #[test]
    fn one_hot_is_jax_s((x, _axis, k, _largest) in args()) {
        prop_assume!(matches!(x.element, DataType::Int8 | DataType::Int32 | DataType::Int64 | DataType::UInt8 | DataType::UInt64));
        let sql = format!("SELECT tensor_one_hot(x, {k}, 'int64') FROM t");
        let got = run(&[("x", x.arrow("x"))], &sql)
            .map_err(|e| TestCaseError::fail(format!("{sql}: {e}")))?;
        let (_, rows) = rows_in::<Int64Type>(&got);
        for (r, row) in rows.iter().enumerate() {
            let Some(input) = &x.rows[r] else {
                prop_assert!(row.is_none(), "{}: row {} should be NULL", sql, r);
                continue;
            };
            let row = row.as_ref().expect("a row");
            prop_assert_eq!(row.len(), input.len() * k);
            for (i, v) in input.iter().enumerate() {
                for c in 0..k {
                    let want = v.map(|v| i64::from(v == c as i64));
                    prop_assert_eq!(row[i * k + c], want, "{}: row {} element {}", sql, r, i);
                }
            }
        }
    }
}
