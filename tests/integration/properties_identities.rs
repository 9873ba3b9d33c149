//! Property tests of the array API functions as identities between two SQL expressions that
//! numpy guarantees to agree exactly, on random shapes (empty dimensions too), element types,
//! permuted layouts, NULL rows and NULL elements: `repeat` as a stack reshaped, `tile` as a
//! concatenation, `pad` undone by a slice, `take` of reversed indices as `flip`, `divmod`'s
//! quotient and remainder giving back the dividend, `vecdot` with ones as `sum`, `searchsorted`
//! finding every element of a sorted row, `nonzero` as many indices as `count_nonzero` counts,
//! the creation functions against each other, `array_split` undone by `concatenate`,
//! `broadcast_arrays` as `broadcast_to`, `meshgrid` as broadcast coordinate vectors, and the
//! reductions' `where` and `initial` as a masked sum and an added number.

use arrow::datatypes::{DataType, Int64Type};
use proptest::prelude::*;

use super::properties::{Column, column_and_axis as with_axis, rows_in, run};

fn element() -> impl Strategy<Value = DataType> {
    prop::sample::select(vec![
        DataType::Int8,
        DataType::Int32,
        DataType::Int64,
        DataType::UInt8,
        DataType::UInt64,
        DataType::Float16,
        DataType::Float32,
        DataType::Float64,
        DataType::Boolean,
    ])
}

type Rows = (Vec<usize>, Vec<Option<Vec<Option<i64>>>>);

/// The result of `sql` over the column `x`: its logical shape and rows, as int64.
fn rows(x: &Column, sql: &str) -> Result<Rows, TestCaseError> {
    let got =
        run(&[("x", x.arrow("x"))], sql).map_err(|e| TestCaseError::fail(format!("{sql}: {e}")))?;
    Ok(rows_in::<Int64Type>(&got))
}

/// `SELECT a FROM t` and `SELECT b FROM t` give the same shape and rows.
fn same(x: &Column, a: &str, b: &str) -> Result<(), TestCaseError> {
    let (a, b) = (format!("SELECT {a} FROM t"), format!("SELECT {b} FROM t"));
    prop_assert_eq!(rows(x, &a)?, rows(x, &b)?, "{} against {}", a, b);
    Ok(())
}

fn list(values: impl IntoIterator<Item = i64>) -> String {
    let items: Vec<String> = values.into_iter().map(|v| v.to_string()).collect();
    format!("[{}]", items.join(", "))
}

fn shape_sql(shape: &[usize]) -> String {
    list(shape.iter().map(|&d| d as i64))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn repeat_is_a_stack_reshaped(((x, axis), k) in (with_axis(element(), true), 1usize..4)) {
        // repeat(x, k, axis) == stack([x] * k, axis + 1) reshaped: each element k times.
        let copies = vec!["x"; k].join(", ");
        let mut shape = x.shape.clone();
        shape[axis] *= k;
        same(
            &x,
            &format!("tensor_repeat(x, {k}, {axis})"),
            &format!(
                "tensor_reshape(tensor_stack({copies}, axis => {}), {})",
                axis + 1,
                shape_sql(&shape)
            ),
        )?;
    }

    #[test]
    fn tile_is_a_concatenation((x, _axis) in with_axis(element(), true)) {
        same(&x, "tensor_tile(x, [2])", "tensor_concatenate(x, x, axis => -1)")?;
    }

    #[test]
    fn a_slice_undoes_pad(
        (x, _axis) in with_axis(element(), false),
        mode in prop::sample::select(vec!["constant", "edge", "reflect", "symmetric", "wrap"]),
        width in 1usize..3,
    ) {
        let inner: Vec<String> = x.shape.iter().map(|_| format!("{width}:-{width}")).collect();
        same(
            &x,
            &format!("tensor_get(tensor_pad(x, {width}, '{mode}'), '{}')", inner.join(", ")),
            "tensor_ascontiguousarray(x)",
        )?;
    }

    #[test]
    fn take_of_reversed_indices_is_flip((x, axis) in with_axis(element(), false)) {
        let n = x.shape[axis] as i64;
        same(
            &x,
            &format!("tensor_take(x, {}, {axis})", list((0..n).rev())),
            &format!("tensor_flip(x, {axis})"),
        )?;
    }

    #[test]
    fn divmod_gives_back_the_dividend(
        (x, _axis) in with_axis(prop::sample::select(vec![DataType::Int8, DataType::Int32, DataType::Int64]), true),
        divisor in prop::sample::select(vec![-3i64, -1, 2, 3]),
    ) {
        // numpy: q * y + r == x (floor division; wrapping arithmetic keeps it in int8).
        same(
            &x,
            &format!(
                "tensor_add(tensor_multiply(tensor_divmod(x, {divisor})['quotient'], {divisor}), tensor_divmod(x, {divisor})['remainder'])"
            ),
            "tensor_ascontiguousarray(x)",
        )?;
    }

    #[test]
    fn vecdot_with_ones_is_sum((x, _axis) in with_axis(Just(DataType::Int64), true)) {
        same(&x, "tensor_vecdot(x, tensor_ones_like(x))", "tensor_sum(x, -1)")?;
    }

    #[test]
    fn searchsorted_finds_every_element(
        (x, _axis) in with_axis(prop::sample::select(vec![DataType::Int16, DataType::UInt8, DataType::Float32]), true),
    ) {
        // A row with a NULL element sorts it in no defined place: rows without one.
        let x = Column {
            rows: x
                .rows
                .iter()
                .map(|r| r.clone().filter(|r| r.iter().all(Option::is_some)))
                .collect(),
            ..x
        };
        let sorted = "tensor_sort(tensor_flatten(x))";
        same(
            &x,
            &format!("tensor_take_along_axis({sorted}, tensor_searchsorted({sorted}, {sorted}), 0)"),
            sorted,
        )?;
        same(
            &x,
            &format!(
                "tensor_take_along_axis({sorted}, tensor_subtract(tensor_searchsorted({sorted}, {sorted}, 'right'), 1), 0)"
            ),
            sorted,
        )?;
    }

    #[test]
    fn nonzero_holds_an_index_per_dimension_of_each_counted_element(
        (x, _axis) in with_axis(element(), true),
    ) {
        let ndim = x.shape.len();
        same(
            &x,
            "tensor_size(tensor_nonzero(x))",
            &format!("tensor_count_nonzero(x) * {ndim}"),
        )?;
    }

    #[test]
    fn the_creation_functions_agree(n in 0usize..5, m in 0usize..5, k in -3i64..4) {
        let x = Column { element: DataType::Int64, shape: vec![1], permutation: None, rows: vec![Some(vec![Some(0)])] };
        let shape = shape_sql(&[n, m]);
        same(
            &x,
            &format!("tensor_eye({n}, {m}, {k})"),
            &format!("tensor_triu(tensor_tril(tensor_ones({shape}), {k}), {k})"),
        )?;
        same(
            &x,
            &format!("tensor_linspace(0, {n}, {n}, endpoint => false)"),
            &format!("tensor_astype(tensor_arange({n}), 'float64')"),
        )?;
        same(
            &x,
            &format!("tensor_full({shape}, 7)"),
            &format!("tensor_add(tensor_zeros_like(tensor_ones({shape}, dtype => 'int64')), 7)"),
        )?;
    }

    #[test]
    fn concatenate_undoes_array_split(((x, axis), parts) in (with_axis(element(), false), 1usize..4)) {
        // No part may be empty: arrow-rs cannot project a struct of 0-element fields.
        prop_assume!(x.shape[axis] >= parts);
        let fields: Vec<String> = (0..parts).map(|p| format!("s['{p}']")).collect();
        let sql = format!(
            "SELECT tensor_concatenate({}, axis => {axis}) FROM (SELECT tensor_array_split(x, {parts}, {axis}) AS s FROM t)",
            fields.join(", ")
        );
        prop_assert_eq!(rows(&x, &sql)?, rows(&x, "SELECT tensor_ascontiguousarray(x) FROM t")?, "{}", sql);
    }

    #[test]
    fn broadcast_arrays_is_broadcast_to((x, _axis) in with_axis(element(), true)) {
        let narrow = "tensor_get(x, '..., :1')";
        let shape = shape_sql(&x.shape);
        same(
            &x,
            &format!("tensor_broadcast_arrays({narrow}, x)['0']"),
            &format!("tensor_broadcast_to({narrow}, {shape})"),
        )?;
        same(
            &x,
            &format!("tensor_broadcast_arrays({narrow}, x)['1']"),
            "tensor_ascontiguousarray(x)",
        )?;
    }

    #[test]
    fn meshgrid_is_broadcast_coordinate_vectors((x, _axis) in with_axis(element(), true)) {
        let n: usize = x.shape.iter().product();
        let (a, b) = ("tensor_flatten(x)", "tensor_flip(tensor_flatten(x))");
        let shape = shape_sql(&[n, n]);
        same(
            &x,
            &format!("tensor_meshgrid({a}, {b}, indexing => 'ij')['0']"),
            &format!("tensor_broadcast_to(tensor_expand_dims({a}, 1), {shape})"),
        )?;
        same(
            &x,
            &format!("tensor_meshgrid({a}, {b})['0']"),
            &format!("tensor_broadcast_to({a}, {shape})"),
        )?;
        same(
            &x,
            &format!("tensor_meshgrid({a}, {b}, sparse => true)['1']"),
            &format!("tensor_expand_dims({b}, 1)"),
        )?;
    }

    #[test]
    fn where_and_initial_are_a_masked_sum_and_an_added_number(
        (x, axis) in with_axis(prop::sample::select(vec![DataType::Int32, DataType::Int64]), true),
    ) {
        same(
            &x,
            // Positional: DataFusion resolves names only as a prefix of the parameters.
            &format!("tensor_sum(x, {axis}, false, NULL, NULL, tensor_greater(x, 0))"),
            &format!("tensor_sum(tensor_where(tensor_greater(x, 0), x, 0), {axis})"),
        )?;
        same(
            &x,
            &format!("tensor_sum(x, {axis}, false, NULL, 5)"),
            &format!("tensor_add(tensor_sum(x, {axis}), 5)"),
        )?;
    }
}
