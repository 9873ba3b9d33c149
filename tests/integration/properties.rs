//! Property tests: random shapes (up to 6 dims, 0-size dims), element types, permuted layouts,
//! NULL rows and elements, index expressions (valid and invalid), modes and options, run through
//! SQL on in-memory tables, must agree exactly with the element-by-element reference in
//! `tests/reference/` — or fail with the error the reference names.
//!
//! The failing cases proptest once found are replayed first, from
//! `tests/proptest-regressions/properties.txt` (where proptest keeps them for a test crate with a
//! `main.rs`).

// Test code: nested row types and local helper enums read better inline.
#![allow(clippy::type_complexity, clippy::items_after_statements)]

#[path = "../reference/mod.rs"]
pub(crate) mod reference;

use std::sync::Arc;

use arrow::array::{
    Array, ArrayRef, AsArray, FixedSizeListArray, Int64Array, RecordBatch, new_empty_array,
};
use arrow::buffer::NullBuffer;
use arrow::compute::cast;
use arrow::datatypes::{ArrowPrimitiveType, DataType, Field, Float64Type, Int64Type, Schema};
use datafusion::prelude::SessionContext;
use datafusion_tensor::TensorType;
use datafusion_tensor::VariableShapeType;
use datafusion_tensor::variable_shape::VariableShapeArray;
use proptest::prelude::*;
use reference::{Bounds, Error, Item, Op};

/// One tensor column: element type, logical shape, permutation, per row its logical values
/// (`None` row: NULL).
#[derive(Debug, Clone)]
pub(crate) struct Column {
    pub(crate) element: DataType,
    pub(crate) shape: Vec<usize>,
    pub(crate) permutation: Option<Vec<usize>>,
    pub(crate) rows: Vec<Option<Vec<Option<i64>>>>,
}

impl Column {
    /// The Arrow field and array, stored in the permuted layout.
    pub(crate) fn arrow(&self, name: &str) -> (Field, ArrayRef) {
        let n = self.shape.len();
        let perm = self.permutation.clone().unwrap_or_else(|| (0..n).collect());
        // logical = stored.transpose(perm): logical axis k is stored axis perm[k].
        let mut stored_shape = vec![0; n];
        for k in 0..n {
            stored_shape[perm[k]] = self.shape[k];
        }
        let mut tensor = TensorType::new(self.element.clone(), stored_shape.clone()).unwrap();
        if self.permutation.is_some() {
            tensor = tensor.with_permutation(Some(perm.clone())).unwrap();
        }
        let size = reference::size(&self.shape);
        let mut values: Vec<Option<i64>> = Vec::new();
        for row in &self.rows {
            let logical = row.clone().unwrap_or_else(|| vec![Some(0); size]);
            for j in 0..size {
                let stored = reference::unravel(j, &stored_shape);
                let logical_index: Vec<usize> = (0..n).map(|k| stored[perm[k]]).collect();
                values.push(logical[reference::ravel(&logical_index, &self.shape)]);
            }
        }
        let child = cast(
            &(Arc::new(Int64Array::from(values)) as ArrayRef),
            &self.element,
        )
        .unwrap();
        let DataType::FixedSizeList(item, _) = tensor.storage_type() else {
            unreachable!()
        };
        let nulls = NullBuffer::from(self.rows.iter().map(Option::is_some).collect::<Vec<_>>());
        let array = FixedSizeListArray::new(item, size as i32, child, Some(nulls));
        (tensor.to_field(name), Arc::new(array))
    }
}

fn element_range(element: &DataType) -> (i64, i64) {
    match element {
        DataType::Boolean => (0, 1),
        DataType::UInt8 | DataType::UInt16 | DataType::UInt32 | DataType::UInt64 => (0, 4),
        _ => (-4, 4),
    }
}

fn any_element() -> impl Strategy<Value = DataType> {
    prop::sample::select(vec![
        DataType::Int8,
        DataType::Int16,
        DataType::Int32,
        DataType::Int64,
        DataType::UInt8,
        DataType::UInt16,
        DataType::UInt32,
        DataType::UInt64,
        DataType::Float16,
        DataType::Float32,
        DataType::Float64,
        DataType::Boolean,
    ])
}

fn any_shape(max_ndim: usize) -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(prop_oneof![1 => Just(0usize), 8 => 1usize..4], 0..=max_ndim)
        .prop_filter("at most 256 elements", |s| {
            s.iter().product::<usize>() <= 256
        })
}

/// Shapes of 1 to 3 dimensions of lengths below 5, the property tests' of one function's
/// arguments; `empty` allows lengths of 0 too.
pub(crate) fn small_shape(empty: bool) -> impl Strategy<Value = Vec<usize>> {
    let dim = if empty {
        prop_oneof![1 => Just(0usize), 8 => 1usize..5].boxed()
    } else {
        (1usize..5).boxed()
    };
    prop::collection::vec(dim, 1..=3)
}

/// A column of `element`s of a [`small_shape`], and an axis of it.
pub(crate) fn column_and_axis(
    element: impl Strategy<Value = DataType>,
    empty: bool,
) -> impl Strategy<Value = (Column, usize)> {
    (element, small_shape(empty)).prop_flat_map(|(element, shape)| {
        let ndim = shape.len();
        (column(element, shape), 0..ndim)
    })
}

/// A column of `element` and `shape`: 0 to 3 rows, some NULL, some NULL elements, maybe
/// permuted.
pub(crate) fn column(element: DataType, shape: Vec<usize>) -> impl Strategy<Value = Column> {
    let n = shape.len();
    let size: usize = shape.iter().product();
    let (lo, hi) = element_range(&element);
    let value = prop_oneof![1 => Just(None), 12 => (lo..=hi).prop_map(Some)];
    let row = prop_oneof![
        1 => Just(None),
        6 => prop::collection::vec(value, size).prop_map(Some),
    ];
    let permutation = prop_oneof![
        Just(None),
        Just((0..n).collect::<Vec<_>>())
            .prop_shuffle()
            .prop_map(Some),
    ];
    (prop::collection::vec(row, 0..=3), permutation).prop_map(move |(rows, permutation)| Column {
        element: element.clone(),
        shape: shape.clone(),
        permutation,
        rows,
    })
}

fn any_item() -> impl Strategy<Value = Item> {
    let small = -4i64..4;
    let part = prop::option::of(-5i64..5);
    let step = prop::option::of(prop_oneof![1 => Just(0i64), 10 => -3i64..=3]);
    prop_oneof![
        4 => small.clone().prop_map(Item::Int),
        5 => (part.clone(), part, step).prop_map(|(a, b, c)| Item::Slice(a, b, c)),
        1 => Just(Item::Ellipsis),
        1 => Just(Item::NewAxis),
        2 => prop::collection::vec(small.clone(), 0..4).prop_map(|v| Item::Ints(vec![v.len()], v)),
        1 => (1usize..3, 0usize..3).prop_flat_map(move |(r, c)| {
            prop::collection::vec(-4i64..4, r * c).prop_map(move |v| Item::Ints(vec![r, c], v))
        }),
        2 => prop::collection::vec(any::<bool>(), 1..4).prop_map(Item::Bools),
    ]
}

fn any_index() -> impl Strategy<Value = Vec<Item>> {
    prop::collection::vec(any_item(), 0..5)
}

fn context() -> SessionContext {
    let config = datafusion_tensor::session_config().with_target_partitions(1);
    datafusion_tensor::tensor_session_context_with_config(config).unwrap()
}

/// Runs `sql` over a table of `columns`: the result's field (its metadata is the output
/// tensor type) and column, or the error's text.
pub(crate) fn run(
    columns: &[(&str, (Field, ArrayRef))],
    sql: &str,
) -> Result<(Field, ArrayRef), String> {
    let fields: Vec<Field> = columns
        .iter()
        .map(|(n, (f, _))| f.clone().with_name(*n))
        .collect();
    let arrays: Vec<ArrayRef> = columns.iter().map(|(_, (_, a))| a.clone()).collect();
    let batch = RecordBatch::try_new(Arc::new(Schema::new(fields)), arrays).unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    runtime.block_on(async {
        let ctx = context();
        ctx.register_batch("t", batch).unwrap();
        let result = async {
            let df = ctx.sql(sql).await?;
            let field = df.schema().field(0).as_ref().clone();
            let batches = df.collect().await?;
            let column = if batches.is_empty() {
                new_empty_array(field.data_type())
            } else {
                arrow::compute::concat_batches(&batches[0].schema(), &batches)?
                    .column(0)
                    .clone()
            };
            Ok::<_, datafusion::error::DataFusionError>((field, column))
        };
        result.await.map_err(|e| e.to_string())
    })
}

/// The rows of a result: its logical shape and, per row, its values as i64 (`None` row: NULL).
fn rows_of(column: &(Field, ArrayRef)) -> (Vec<usize>, Vec<Option<Vec<Option<i64>>>>) {
    rows_in::<Int64Type>(column)
}

/// The rows of a result with its values cast to `P`.
pub(crate) fn rows_in<P: ArrowPrimitiveType>(
    (field, column): &(Field, ArrayRef),
) -> (Vec<usize>, Vec<Option<Vec<Option<P::Native>>>>) {
    match TensorType::from_field(field).unwrap() {
        Some(tensor) => {
            assert!(!tensor.is_permuted(), "outputs are row-major");
            let list = column.as_fixed_size_list();
            let size = tensor.size();
            let values = cast(list.values(), &P::DATA_TYPE).unwrap();
            let values = values.as_primitive::<P>();
            let rows = (0..list.len())
                .map(|r| {
                    list.is_valid(r).then(|| {
                        (r * size..(r + 1) * size)
                            .map(|k| values.is_valid(k).then(|| values.value(k)))
                            .collect()
                    })
                })
                .collect();
            (tensor.logical_shape(), rows)
        }
        None => {
            // A 0-d result is a plain column.
            let values = cast(column, &P::DATA_TYPE).unwrap();
            let values = values.as_primitive::<P>();
            let rows = (0..values.len())
                .map(|r| values.is_valid(r).then(|| vec![Some(values.value(r))]))
                .collect();
            (vec![], rows)
        }
    }
}

/// Float rows as comparable bits (every NaN the same).
pub(crate) fn bits(rows: Vec<Option<Vec<Option<f64>>>>) -> Vec<Option<Vec<Option<u64>>>> {
    let key = |v: f64| {
        if v.is_nan() {
            f64::NAN.to_bits()
        } else {
            v.to_bits()
        }
    };
    rows.into_iter()
        .map(|r| r.map(|r| r.into_iter().map(|v| v.map(key)).collect()))
        .collect()
}

/// A 0-d result is a plain column: a NULL element and a NULL row are the same NULL.
fn zero_d(shape: &[usize], rows: Vec<Option<Vec<Option<i64>>>>) -> Vec<Option<Vec<Option<i64>>>> {
    if !shape.is_empty() {
        return rows;
    }
    rows.into_iter()
        .map(|r| r.filter(|v| v[0].is_some()))
        .collect()
}

fn assert_error(got: &Result<(Field, ArrayRef), String>, expected: &[Error], sql: &str) {
    match got {
        Ok(_) => panic!("{sql}: expected an error with {expected:?}, got a result"),
        Err(message) => assert!(
            expected.iter().any(|e| message.contains(e.words())),
            "{sql}: expected one of {:?}, got: {message}",
            expected.iter().map(|e| e.words()).collect::<Vec<_>>()
        ),
    }
}

/// The `x` of an at-update: the integer and float types, up to 4 dims.
fn at_x() -> impl Strategy<Value = Column> {
    let element = prop::sample::select(vec![
        DataType::Int8,
        DataType::Int32,
        DataType::Int64,
        DataType::UInt8,
        DataType::Float32,
        DataType::Float64,
    ]);
    (element, any_shape(4)).prop_flat_map(|(e, s)| column(e, s))
}

/// An update's mode (`fill` is get's).
fn update_mode() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec!["promise_in_bounds", "clip", "drop", "raise"])
}

/// How an update's mode treats an out-of-bounds index.
fn update_bounds(mode: &str) -> Bounds {
    match mode {
        "clip" => Bounds::Clip,
        "raise" => Bounds::Raise,
        _ => Bounds::Drop,
    }
}

/// The range of an integer type of `at_x` (the widest for the others).
fn int_range(element: &DataType) -> (i128, i128) {
    match element {
        DataType::Int8 => (i8::MIN.into(), i8::MAX.into()),
        DataType::UInt8 => (0, u8::MAX.into()),
        DataType::Int32 => (i32::MIN.into(), i32::MAX.into()),
        _ => (i64::MIN.into(), i64::MAX.into()),
    }
}

/// Checks a result against the reference's: the error it names for some row, or else the
/// shape and rows.
fn check_rows(
    got: Result<(Field, ArrayRef), String>,
    failure: Option<Vec<Error>>,
    shape: &[usize],
    expected: Vec<Option<Vec<Option<i64>>>>,
    sql: &str,
) -> Result<(), TestCaseError> {
    if let Some(errors) = failure {
        assert_error(&got, &errors, sql);
        return Ok(());
    }
    let column = got.unwrap_or_else(|e| panic!("{sql}: {e}"));
    let (got_shape, got_rows) = rows_of(&column);
    prop_assert_eq!(&got_shape, shape, "{}", sql);
    prop_assert_eq!(got_rows, expected, "{}", sql);
    Ok(())
}

/// `t`, `idx` and the axis of a take or put along an axis: the axis mostly valid, sometimes
/// NULL (numpy's `axis=None`) or out of range; `idx` mostly `t`'s dimensions off the axis (some
/// 1, a few another length) and any length along it, sometimes another number of dimensions.
fn along_axis_args() -> impl Strategy<Value = (Column, Column, Option<i64>)> {
    (any_element(), any_shape(4)).prop_flat_map(|(element, shape)| {
        let n = shape.len() as i64;
        let axis = prop_oneof![
            2 => Just(None),
            12 => (-n..n.max(1)).prop_map(Some),
            1 => (-n - 1..=n).prop_map(Some),
        ];
        (column(element, shape.clone()), axis).prop_flat_map(move |(t, axis)| {
            let idx_shape = match axis {
                None => prop_oneof![
                    8 => (0usize..6).prop_map(|k| vec![k]),
                    1 => any_shape(3),
                ]
                .boxed(),
                Some(a) => {
                    let along = usize::try_from(if a < 0 { a + n } else { a }).ok();
                    let dims: Vec<BoxedStrategy<usize>> = shape
                        .iter()
                        .enumerate()
                        .map(|(k, &d)| {
                            if Some(k) == along {
                                (0usize..4).boxed()
                            } else {
                                prop_oneof![6 => Just(d), 2 => Just(1usize), 1 => 0usize..4].boxed()
                            }
                        })
                        .collect();
                    prop_oneof![12 => dims, 1 => any_shape(3)].boxed()
                }
            };
            let idx_element = prop::sample::select(vec![
                DataType::Int8,
                DataType::Int32,
                DataType::Int64,
                DataType::UInt8,
            ]);
            let idx = (idx_element, idx_shape).prop_flat_map(|(e, s)| column(e, s));
            (Just(t), idx, Just(axis))
        })
    })
}

/// Makes `idx` mostly usable: as many rows as `t`, and unless `wild`, its values folded into
/// the axis' range (negative ones too) and its NULL elements made 0, so that most cases reach
/// the kernels instead of an out-of-bounds error or a NULL row.
fn tame_index(idx: &mut Column, rows: usize, t_shape: &[usize], axis: Option<i64>, wild: bool) {
    fit_rows(idx, rows);
    if wild {
        return;
    }
    let dim = match axis {
        None => reference::size(t_shape),
        Some(a) => {
            let n = t_shape.len() as i64;
            let a = if a < 0 { a + n } else { a };
            if a < 0 || a >= n {
                return;
            }
            t_shape[a as usize]
        }
    } as i64;
    let unsigned = idx.element == DataType::UInt8;
    for v in idx.rows.iter_mut().flatten().flat_map(|row| row.iter_mut()) {
        let value = v.unwrap_or(0);
        *v = Some(match () {
            () if dim == 0 => value,
            () if unsigned => value.rem_euclid(dim),
            () => value.rem_euclid(2 * dim) - dim,
        });
    }
}

/// `rows` rows: the column's own, repeated or cut (NULL if it has none).
fn fit_rows(column: &mut Column, rows: usize) {
    let own = std::mem::take(&mut column.rows);
    column.rows = (0..rows)
        .map(|r| {
            if own.is_empty() {
                None
            } else {
                own[r % own.len()].clone()
            }
        })
        .collect();
}

/// A row's values, unless the row or one of its elements is NULL.
fn whole(row: Option<&Vec<Option<i64>>>) -> Option<Vec<i64>> {
    row?.iter().copied().collect()
}

fn sql_axis(axis: Option<i64>) -> String {
    axis.map_or_else(|| "NULL".to_string(), |a| a.to_string())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1024, ..ProptestConfig::default() })]

    /// tensor_get(x, 'index') is numpy's x[index], row by row.
    #[test]
    fn tensor_get_matches_numpy_indexing(
        x in (any_element(), any_shape(6)).prop_flat_map(|(e, s)| column(e, s)),
        items in any_index(),
    ) {
        let index = reference::render(&items);
        let sql = format!("SELECT tensor_get(x, '{index}') FROM t");
        let got = run(&[("x", x.arrow("x"))], &sql);
        match reference::index(&x.shape, &items, Bounds::Raise, true) {
            Err(errors) => assert_error(&got, &errors, &sql),
            Ok((shape, positions)) => {
                let column = got.unwrap_or_else(|e| panic!("{sql}: {e}"));
                let (got_shape, rows) = rows_of(&column);
                prop_assert_eq!(&got_shape, &shape, "{}", sql);
                let want: Vec<_> = x.rows.iter().map(|row| row.as_ref().map(|values| {
                    positions.iter().map(|p| values[p.unwrap()]).collect::<Vec<_>>()
                })).collect();
                prop_assert_eq!(rows, zero_d(&shape, want), "{}", sql);
            }
        }
    }

    /// tensor_choose(a, c0, ...) is numpy's choose(a, [c0, ...], mode), row by row.
    #[test]
    fn tensor_choose_matches_numpy(
        (a, choices, mode) in (any_shape(4), 2usize..5, any_element()).prop_flat_map(|(shape, n, element)| {
            let a_element = prop::sample::select(vec![DataType::Int8, DataType::Int32, DataType::Int64, DataType::UInt8]);
            let a = (a_element, Just(shape.clone())).prop_flat_map(move |(e, s)| {
                let lo = if e == DataType::UInt8 { 0 } else { -1 };
                column(e, s).prop_map(move |mut c| {
                    // indices around [0, n): some out of range for raise/wrap/clip
                    for row in c.rows.iter_mut().flatten() {
                        for v in row.iter_mut().flatten() {
                            *v = (*v).clamp(lo, n as i64);
                        }
                    }
                    c
                })
            });
            // Each choice: a's shape, a trailing part of it, with 1s, or another shape.
            let choice_shape = {
                let s = shape.clone();
                prop_oneof![
                    3 => Just(s.clone()),
                    1 => (0..=s.len()).prop_map({ let s = s.clone(); move |k| s[k..].to_vec() }),
                    1 => Just(s.iter().map(|&d| if d > 1 { 1 } else { d }).collect::<Vec<_>>()),
                    1 => any_shape(3),
                ]
            };
            let choices = prop::collection::vec(choice_shape.prop_flat_map(move |s| column(element.clone(), s)), n);
            (a, choices, prop::sample::select(vec!["raise", "wrap", "clip"]))
        })
    ) {
        // Every column has as many rows as `a`.
        let rows = a.rows.len();
        let choices: Vec<Column> = choices.into_iter().map(|mut c| { c.rows.resize(rows, None); c.rows.truncate(rows); c }).collect();
        let mut columns = vec![("a", a.arrow("a"))];
        let names: Vec<String> = (0..choices.len()).map(|k| format!("c{k}")).collect();
        for (name, c) in names.iter().zip(&choices) {
            columns.push((name.as_str(), c.arrow(name)));
        }
        let sql = format!("SELECT tensor_choose(a, {}, '{mode}') FROM t", names.join(", "));
        let got = run(&columns, &sql);

        let mut shapes = vec![a.shape.clone()];
        shapes.extend(choices.iter().map(|c| c.shape.clone()));
        if reference::broadcast(&shapes).is_none() {
            assert_error(&got, &[Error::BroadcastMismatch], &sql);
            return Ok(());
        }
        let mut expected = Vec::new();
        let mut failure = None;
        for r in 0..rows {
            let row_choices: Option<Vec<(Vec<usize>, Vec<Option<i64>>)>> = choices
                .iter()
                .map(|c| c.rows[r].clone().map(|v| (c.shape.clone(), v)))
                .collect();
            match (&a.rows[r], row_choices) {
                (Some(av), Some(cs)) => match reference::choose((&a.shape, av), &cs, mode) {
                    Ok((_, values)) => expected.push(Some(values)),
                    Err(e) => failure = Some(e),
                },
                _ => expected.push(None),
            }
        }
        let shape = reference::broadcast(&shapes).unwrap();
        let expected = zero_d(&shape, expected);
        check_rows(got, failure.map(|e| vec![e]), &shape, expected, &sql)?;
    }

    /// tensor_at_<op>(x, 'index', y, mode, wrap_negative_indices) is JAX's
    /// x.at[index].<op>(y, mode=..., wrap_negative_indices=...), row by row; y a literal or a
    /// tensor column broadcast to x[index]'s shape (as it is, a trailing part, 1s, or another
    /// shape), NULL y elements making NULL.
    #[test]
    fn tensor_at_matches_jax(
        x in at_x(),
        items in any_index(),
        op in prop::sample::select(vec![Op::Set, Op::Add, Op::Subtract, Op::Multiply, Op::Min, Op::Max]),
        y in -3i64..=3,
        y_tensor in prop_oneof![
            2 => Just(None),
            1 => (0usize..4, prop::collection::vec(prop_oneof![1 => Just(None), 8 => (-3i64..=3).prop_map(Some)], 1..32)).prop_map(Some),
        ],
        mode in update_mode(),
        wrap in any::<bool>(),
    ) {
        let unsigned = x.element == DataType::UInt8;
        let y = if unsigned { y.abs() } else { y };
        let index = reference::render(&items);
        let bounds = update_bounds(mode);
        let found = reference::index(&x.shape, &items, bounds, wrap);
        let out_shape = found.as_ref().map(|(s, _)| s.clone()).unwrap_or_default();
        // A y column: every row its own cut of the pool.
        let y_column = y_tensor.map(|(form, pool)| {
            let shape = match form {
                0 => out_shape.clone(),
                1 => out_shape.get(1..).unwrap_or_default().to_vec(),
                2 => out_shape.iter().map(|&d| d.min(1)).collect(),
                _ => vec![2],
            };
            let size = reference::size(&shape);
            let rows = (0..x.rows.len())
                .map(|r| Some((0..size).map(|j| pool[(j + 5 * r) % pool.len()].map(|v| if unsigned { v.abs() } else { v })).collect()))
                .collect();
            Column { element: x.element.clone(), shape, permutation: None, rows }
        });
        let y_sql = if y_column.is_some() { "y".to_string() } else { y.to_string() };
        let sql = format!(
            "SELECT tensor_at_{}(x, '{index}', {y_sql}, '{mode}', {wrap}) FROM t",
            op.name()
        );
        let mut columns = vec![("x", x.arrow("x"))];
        if let Some(column) = &y_column {
            columns.push(("y", column.arrow("y")));
        }
        let got = run(&columns, &sql);
        // The index alone decides plan errors, whatever the rows; then y's shape.
        if let Err(errors) = found {
            assert_error(&got, &errors, &sql);
            return Ok(());
        }
        if let Some(column) = &y_column
            && reference::broadcast(&[column.shape.clone(), out_shape.clone()]).as_ref() != Some(&out_shape)
        {
            assert_error(&got, &[Error::BroadcastMismatch], &sql);
            return Ok(());
        }
        // y for the k-th element of x[index] in row r.
        let y_at = |r: usize, k: usize| -> Option<i64> {
            match &y_column {
                None => Some(y),
                Some(column) => {
                    let at = reference::unravel(k, &out_shape);
                    column.rows[r].as_ref().unwrap()[reference::broadcast_position(&at, &column.shape, &out_shape)]
                }
            }
        };
        let (min, max) = int_range(&x.element);
        let float = x.element.is_floating();
        let mut expected = Vec::new();
        let mut failure = None;
        for (r, row) in x.rows.iter().enumerate() {
            let Some(values) = row else { expected.push(None); continue };
            let result = if float {
                let single = x.element == DataType::Float32;
                let wrapf = |v: i64| reference::Float { value: v as f64, single };
                let xs: Vec<_> = values.iter().map(|v| v.map(wrapf)).collect();
                reference::at(&x.shape, &xs, &items, op, &|k| y_at(r, k).map(wrapf), bounds, wrap).map(|out| {
                    out.iter().map(|v| v.map(|v| v.value as i64)).collect::<Vec<_>>()
                })
            } else {
                let wrapi = |v: i64| reference::Int { value: v.into(), min, max };
                let xs: Vec<_> = values.iter().map(|v| v.map(wrapi)).collect();
                reference::at(&x.shape, &xs, &items, op, &|k| y_at(r, k).map(wrapi), bounds, wrap).map(|out| {
                    out.iter().map(|v| v.map(|v| v.value as i64)).collect::<Vec<_>>()
                })
            };
            match result {
                Ok(values) => expected.push(Some(values)),
                Err(e) => failure = Some(e),
            }
        }
        check_rows(got, failure, &x.shape, expected, &sql)?;
    }

    /// tensor_take_along_axis(t, idx, axis) is numpy's take_along_axis(t, idx, axis), row by
    /// row; an index with a NULL element gives a NULL row, NULL elements of t are taken as
    /// they are.
    #[test]
    fn tensor_take_along_axis_matches_numpy(
        (x, mut idx, axis) in along_axis_args(),
        wild in prop::bool::weighted(0.2),
    ) {
        tame_index(&mut idx, x.rows.len(), &x.shape, axis, wild);
        let sql = format!("SELECT tensor_take_along_axis(x, i, {}) FROM t", sql_axis(axis));
        let got = run(&[("x", x.arrow("x")), ("i", idx.arrow("i"))], &sql);
        let geometry = match reference::along_axis(&x.shape, &idx.shape, axis) {
            Err(e) => {
                assert_error(&got, &[e], &sql);
                return Ok(());
            }
            Ok(geometry) => geometry,
        };
        let mut expected = Vec::new();
        let mut failure = None;
        for (row, idx_row) in x.rows.iter().zip(&idx.rows) {
            let (Some(values), Some(idx_row)) = (row, whole(idx_row.as_ref())) else {
                expected.push(None);
                continue;
            };
            match reference::along_axis_positions(&geometry, &idx.shape, &idx_row) {
                Ok(positions) => expected.push(Some(positions.iter().map(|&p| values[p]).collect())),
                Err(e) => failure = Some(e),
            }
        }
        check_rows(got, failure.map(|e| vec![e]), &geometry.shape, expected, &sql)?;
    }

    /// tensor_put_along_axis(t, idx, values, axis) is numpy's put_along_axis on a copy of t,
    /// row by row: values broadcast to the index's shape, written in row-major order (the last
    /// write wins), NULL values written as NULL.
    #[test]
    fn tensor_put_along_axis_matches_numpy(
        ((x, mut idx, axis), values) in along_axis_args().prop_flat_map(|(x, idx, axis)| {
            let target = reference::along_axis(&x.shape, &idx.shape, axis)
                .map(|g| g.shape)
                .unwrap_or_default();
            let ones: Vec<usize> = target.iter().map(|&d| d.min(1)).collect();
            let trailing = {
                let target = target.clone();
                (0..=target.len()).prop_map(move |k| target[k..].to_vec())
            };
            let shape = prop_oneof![3 => Just(target), 1 => trailing, 1 => Just(ones), 1 => any_shape(2)];
            let element = x.element.clone();
            let (lo, hi) = element_range(&element);
            let values = prop_oneof![
                1 => (lo..=hi).prop_map(Err),
                3 => shape.prop_flat_map(move |s| column(element.clone(), s)).prop_map(Ok),
            ];
            (Just((x, idx, axis)), values)
        }),
        wild in prop::bool::weighted(0.2),
    ) {
        let rows = x.rows.len();
        tame_index(&mut idx, rows, &x.shape, axis, wild);
        let mut columns = vec![("x", x.arrow("x")), ("i", idx.arrow("i"))];
        let (values_sql, values) = match values {
            Err(v) if x.element == DataType::Boolean => ((v != 0).to_string(), (vec![], vec![Some(vec![Some(v.min(1))]); rows])),
            Err(v) => (v.to_string(), (vec![], vec![Some(vec![Some(v)]); rows])),
            Ok(mut v) => {
                fit_rows(&mut v, rows);
                columns.push(("v", v.arrow("v")));
                ("v".to_string(), (v.shape, v.rows))
            }
        };
        let sql = format!("SELECT tensor_put_along_axis(x, i, {values_sql}, {}) FROM t", sql_axis(axis));
        let got = run(&columns, &sql);
        let geometry = match reference::along_axis(&x.shape, &idx.shape, axis) {
            Err(e) => {
                assert_error(&got, &[e], &sql);
                return Ok(());
            }
            Ok(geometry) => geometry,
        };
        // numpy's assignment rule: values broadcast to the target without growing it.
        if reference::broadcast(&[values.0.clone(), geometry.shape.clone()]).as_ref() != Some(&geometry.shape) {
            assert_error(&got, &[Error::BroadcastMismatch], &sql);
            return Ok(());
        }
        let mut expected = Vec::new();
        let mut failure = None;
        for ((row, idx_row), value_row) in x.rows.iter().zip(&idx.rows).zip(&values.1) {
            let (Some(t), Some(idx_row), Some(value_row)) = (row, whole(idx_row.as_ref()), value_row) else {
                expected.push(None);
                continue;
            };
            match reference::along_axis_positions(&geometry, &idx.shape, &idx_row) {
                Ok(positions) => {
                    let mut out = t.clone();
                    for (k, &p) in positions.iter().enumerate() {
                        let at = reference::unravel(k, &geometry.shape);
                        out[p] = value_row[reference::broadcast_position(&at, &values.0, &geometry.shape)];
                    }
                    expected.push(Some(out));
                }
                Err(e) => failure = Some(e),
            }
        }
        check_rows(got, failure.map(|e| vec![e]), &x.shape, expected, &sql)?;
    }

    /// tensor_at_divide / _power / _apply(x, 'index', ...) are JAX's x.at[index].divide(y) /
    /// .power(y) / .apply(f), row by row: per position the product of its occurrences' y
    /// (checked in x's type), then x / product (integer x: Float64) or x ** product where the
    /// product is not 1; apply runs f once per occurrence.
    #[test]
    fn tensor_at_divide_power_apply_match_jax(
        x in at_x(),
        items in any_index(),
        op in prop::sample::select(vec!["divide", "power", "negative", "square", "abs"]),
        y in -3i64..=3,
        mode in update_mode(),
        wrap in any::<bool>(),
    ) {
        let unsigned = x.element == DataType::UInt8;
        let y = if unsigned { y.abs() } else { y };
        let index = reference::render(&items);
        let sql = match op {
            "divide" | "power" => format!("SELECT tensor_at_{op}(x, '{index}', {y}, '{mode}', {wrap}) FROM t"),
            f => format!("SELECT tensor_at_apply(x, '{index}', '{f}', '{mode}', {wrap}) FROM t"),
        };
        let got = run(&[("x", x.arrow("x"))], &sql);
        let bounds = update_bounds(mode);
        let positions = match reference::index(&x.shape, &items, bounds, wrap) {
            Err(errors) => {
                assert_error(&got, &errors, &sql);
                return Ok(());
            }
            Ok((_, positions)) => positions,
        };
        let float = x.element.is_floating();
        let single = x.element == DataType::Float32;
        let (min, max) = int_range(&x.element);
        let round = |v: f64| if single { f64::from(v as f32) } else { v };
        let mut expected = Vec::new();
        let mut failure = None;
        for row in &x.rows {
            let Some(values) = row else { expected.push(None); continue };
            match reference::at_arith(values, &positions, op, y, float, single, (min, max)) {
                Ok(out) => expected.push(Some(out.into_iter().map(|v| v.map(round)).collect())),
                Err(e) => failure = Some(vec![e]),
            }
        }
        if let Some(errors) = failure {
            assert_error(&got, &errors, &sql);
            return Ok(());
        }
        let column = got.unwrap_or_else(|e| panic!("{sql}: {e}"));
        let (got_shape, got_rows) = rows_in::<Float64Type>(&column);
        prop_assert_eq!(&got_shape, &x.shape, "{}", sql);
        prop_assert_eq!(bits(got_rows), bits(expected), "{}", sql);
    }

    /// tensor_at_get(x, 'index', mode, fill_value) is JAX's x.at[index].get(mode=...,
    /// fill_value=...): x[index], out-of-bounds indices clamped (promise_in_bounds, clip),
    /// filled (fill, drop: the default fill is NaN, the type's minimum or maximum) or an error
    /// (raise).
    #[test]
    fn tensor_at_get_matches_jax(
        x in at_x(),
        items in any_index(),
        mode in prop::sample::select(vec!["promise_in_bounds", "clip", "fill", "drop", "raise"]),
        fill in prop::option::of(0i64..=3),
        wrap in any::<bool>(),
    ) {
        let index = reference::render(&items);
        let fill_sql = fill.map_or_else(|| "NULL".to_string(), |f| f.to_string());
        let sql = format!("SELECT tensor_at_get(x, '{index}', '{mode}', {fill_sql}, {wrap}) FROM t");
        let got = run(&[("x", x.arrow("x"))], &sql);
        let bounds = match mode {
            "fill" | "drop" => Bounds::Drop,
            "raise" => Bounds::Raise,
            _ => Bounds::Clip,
        };
        let (shape, positions) = match reference::index(&x.shape, &items, bounds, wrap) {
            Err(errors) => {
                assert_error(&got, &errors, &sql);
                return Ok(());
            }
            Ok(found) => found,
        };
        let fill = fill.map_or_else(
            || match x.element {
                DataType::Int8 => f64::from(i8::MIN),
                DataType::Int32 => f64::from(i32::MIN),
                DataType::Int64 => i64::MIN as f64,
                DataType::UInt8 => f64::from(u8::MAX),
                _ => f64::NAN,
            },
            |f| f as f64,
        );
        let expected: Vec<_> = x.rows.iter().map(|row| row.as_ref().map(|values| {
            positions.iter().map(|p| match p {
                Some(p) => values[*p].map(|v| v as f64),
                None => Some(fill),
            }).collect::<Vec<_>>()
        })).collect();
        let expected = if shape.is_empty() {
            expected.into_iter().map(|r| r.filter(|v| v[0].is_some())).collect()
        } else {
            expected
        };
        let column = got.unwrap_or_else(|e| panic!("{sql}: {e}"));
        let (got_shape, got_rows) = rows_in::<Float64Type>(&column);
        prop_assert_eq!(&got_shape, &shape, "{}", sql);
        prop_assert_eq!(bits(got_rows), bits(expected), "{}", sql);
    }
}

/// A variable-shape tensor column: element type, ndim, permutation, per row its logical shape
/// and logical values (`None` row: NULL).
#[derive(Debug, Clone)]
struct RaggedColumn {
    element: DataType,
    ndim: usize,
    permutation: Option<Vec<usize>>,
    rows: Vec<Option<(Vec<usize>, Vec<Option<i64>>)>>,
}

impl RaggedColumn {
    /// The Arrow field and storage array, each row stored in its permuted layout.
    fn arrow(&self, name: &str) -> (Field, ArrayRef) {
        use arrow::array::{Int32Array, ListArray, StructArray};
        use arrow::buffer::OffsetBuffer;
        let n = self.ndim;
        let perm = self.permutation.clone().unwrap_or_else(|| (0..n).collect());
        let tensor = VariableShapeType::new(self.element.clone(), n)
            .unwrap()
            .with_permutation(self.permutation.clone())
            .unwrap();
        let (mut values, mut shapes, mut lengths) = (Vec::new(), Vec::new(), Vec::new());
        for row in &self.rows {
            let Some((shape, logical)) = row else {
                shapes.extend(std::iter::repeat_n(0, n));
                lengths.push(0);
                continue;
            };
            let mut stored_shape = vec![0; n];
            for k in 0..n {
                stored_shape[perm[k]] = shape[k];
            }
            let size = reference::size(shape);
            for j in 0..size {
                let stored = reference::unravel(j, &stored_shape);
                let logical_index: Vec<usize> = (0..n).map(|k| stored[perm[k]]).collect();
                values.push(logical[reference::ravel(&logical_index, shape)]);
            }
            shapes.extend(stored_shape.iter().map(|&d| d as i32));
            lengths.push(size);
        }
        let child = cast(
            &(Arc::new(Int64Array::from(values)) as ArrayRef),
            &self.element,
        )
        .unwrap();
        let DataType::Struct(fields) = tensor.storage_type() else {
            unreachable!()
        };
        let nulls = NullBuffer::from(self.rows.iter().map(Option::is_some).collect::<Vec<_>>());
        let data = ListArray::new(
            Arc::new(Field::new("item", self.element.clone(), true)),
            OffsetBuffer::from_lengths(lengths),
            child,
            Some(nulls.clone()),
        );
        let shape = FixedSizeListArray::new(
            Arc::new(Field::new("item", DataType::Int32, true)),
            n as i32,
            Arc::new(Int32Array::from(shapes)),
            Some(nulls.clone()),
        );
        let array = StructArray::new(fields, vec![Arc::new(data), Arc::new(shape)], Some(nulls));
        (tensor.to_field(name), Arc::new(array))
    }
}

/// A variable-shape column: 0 to 4 rows of `ndim` dimensions, each row its own shape.
fn ragged_column(element: DataType, ndim: usize) -> impl Strategy<Value = RaggedColumn> {
    let (lo, hi) = element_range(&element);
    let value = prop_oneof![1 => Just(None), 12 => (lo..=hi).prop_map(Some)];
    let shape = prop::collection::vec(prop_oneof![1 => Just(0usize), 8 => 1usize..4], ndim);
    let row = prop_oneof![
        1 => Just(None),
        6 => shape.prop_flat_map(move |shape| {
            let size = reference::size(&shape);
            prop::collection::vec(value.clone(), size).prop_map(move |v| Some((shape.clone(), v)))
        }),
    ];
    let permutation = prop_oneof![
        Just(None),
        Just((0..ndim).collect::<Vec<_>>())
            .prop_shuffle()
            .prop_map(Some),
    ];
    (prop::collection::vec(row, 0..=4), permutation).prop_map(move |(rows, permutation)| {
        RaggedColumn {
            element: element.clone(),
            ndim,
            permutation,
            rows,
        }
    })
}

/// The rows of a result of either kind: per row its shape and values as i64.
fn ragged_rows_of(column: &(Field, ArrayRef)) -> Vec<Option<(Vec<usize>, Vec<Option<i64>>)>> {
    ragged_rows_in::<Int64Type>(column)
}

/// The rows of a result of either kind: per row its shape and values cast to `P`.
fn ragged_rows_in<P: ArrowPrimitiveType>(
    column: &(Field, ArrayRef),
) -> Vec<Option<(Vec<usize>, Vec<Option<P::Native>>)>> {
    let (field, array) = column;
    let Some(tensor) = VariableShapeType::from_field(field).unwrap() else {
        let (shape, rows) = rows_in::<P>(column);
        return rows
            .into_iter()
            .map(|r| r.map(|values| (shape.clone(), values)))
            .collect();
    };
    assert!(!tensor.is_permuted(), "outputs are row-major");
    let view = VariableShapeArray::try_new(&tensor, array.as_ref()).unwrap();
    let values = cast(view.values(), &P::DATA_TYPE).unwrap();
    let values = values.as_primitive::<P>();
    (0..view.len())
        .map(|r| {
            (!view.is_null(r)).then(|| {
                let shape: Vec<usize> = view.logical_shape(r).collect();
                let row = view
                    .value_range(r)
                    .map(|k| values.is_valid(k).then(|| values.value(k)))
                    .collect();
                (shape, row)
            })
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// tensor_get(x, 'index') on a variable-shape tensor is numpy's x[index] on each row's own
    /// shape; the first row numpy rejects is the error.
    #[test]
    fn tensor_get_matches_numpy_on_variable_shapes(
        x in (any_element(), 0usize..4).prop_flat_map(|(e, n)| ragged_column(e, n)),
        items in any_index(),
    ) {
        let index = reference::render(&items);
        let sql = format!("SELECT tensor_get(x, '{index}') FROM t");
        let got = run(&[("x", x.arrow("x"))], &sql);
        let masks = items.iter().any(|i| matches!(i, Item::Bools(_)));
        // Masks over a dimension that differs between rows are planned only when one length
        // fits them all (spec.md: tensor_get on variable shapes); the crate says so.
        if masks && got.as_ref().is_err_and(|e| e.contains("cannot be planned")) {
            return Ok(());
        }
        let mut want = Vec::new();
        let mut first_error = None;
        for row in &x.rows {
            let Some((shape, values)) = row else {
                want.push(None);
                continue;
            };
            match reference::index(shape, &items, Bounds::Raise, true) {
                Ok((out_shape, positions)) => want.push(Some((
                    out_shape,
                    positions.iter().map(|p| values[p.unwrap()]).collect::<Vec<_>>(),
                ))),
                Err(errors) => {
                    first_error.get_or_insert(errors);
                }
            }
        }
        // Errors of the index itself (independent of any row's lengths) are found when the
        // query is planned, rows or not: those of a shape long enough everywhere.
        let static_errors = reference::index(&vec![64; x.ndim], &items, Bounds::Raise, true)
            .err()
            .map(|errors| {
                errors
                    .into_iter()
                    .filter(|e| !matches!(e, Error::BooleanMismatch | Error::OutOfBounds))
                    .collect::<Vec<_>>()
            })
            .filter(|errors| !errors.is_empty());
        match (first_error, static_errors) {
            (Some(errors), _) | (None, Some(errors)) => assert_error(&got, &errors, &sql),
            (None, None) => {
                let column = got.unwrap_or_else(|e| panic!("{sql}: {e}"));
                let rows = ragged_rows_of(&column);
                // A 0-d result is a plain column: a NULL element and a NULL row are one NULL.
                let want: Vec<_> = want
                    .into_iter()
                    .map(|r| r.filter(|(shape, v)| !shape.is_empty() || v[0].is_some()))
                    .collect();
                prop_assert_eq!(rows, want, "{}", sql);
            }
        }
    }
}

// Every function family on variable-shape tensors: arguments whose rows have shapes related to
// one another (drawn from shared per-row shapes, so that most rows broadcast and some do not),
// checked row by row against the reference on each row's own shapes. The first row numpy (or
// JAX) rejects is the error, and the error names that row.

/// A dimension's length in a row: sometimes 0.
fn any_dim() -> impl Strategy<Value = usize> + Clone {
    prop_oneof![1 => Just(0usize), 8 => 1usize..4]
}

/// 0 to 4 rows' shapes of `ndim` dimensions (mostly some), each row its own (or all one
/// shape).
fn row_shapes(ndim: usize) -> impl Strategy<Value = Vec<Vec<usize>>> {
    let shape = prop::collection::vec(any_dim(), ndim);
    let rows = prop_oneof![1 => Just(0usize), 8 => 1usize..=4];
    prop_oneof![
        3 => rows.clone().prop_flat_map(move |n| prop::collection::vec(shape.clone(), n)),
        1 => (prop::collection::vec(any_dim(), ndim), rows).prop_map(|(s, n)| vec![s; n]),
    ]
}

/// A fixed-shape column of `element` and `shape` with `rows` rows (its own at least one,
/// repeated), some NULL.
fn fixed_rows(element: DataType, shape: Vec<usize>, rows: usize) -> impl Strategy<Value = Column> {
    column(element, shape)
        .prop_filter("some rows", |c| !c.rows.is_empty())
        .prop_map(move |mut c| {
            fit_rows(&mut c, rows);
            c
        })
}

/// A shape of `ndim` dimensions related to `target`: aligned with its trailing dimensions,
/// each mostly kept, sometimes 1 or another length; dimensions `target` lacks are 1 or any.
fn shape_like(target: &[usize], ndim: usize) -> BoxedStrategy<Vec<usize>> {
    let dims: Vec<BoxedStrategy<usize>> = (0..ndim)
        .map(|k| match (k + target.len()).checked_sub(ndim) {
            Some(j) => prop_oneof![8 => Just(target[j]), 2 => Just(1usize), 1 => 0usize..4].boxed(),
            None => prop_oneof![3 => Just(1usize), 1 => 0usize..4].boxed(),
        })
        .collect();
    dims.boxed()
}

/// A variable-shape column of `element` and `ndim` dimensions whose row r has a shape drawn by
/// `shapes[r]` (or, now and then, is NULL), values in the element's range (some NULL), maybe permuted.
fn ragged_with(
    element: DataType,
    ndim: usize,
    shapes: Vec<BoxedStrategy<Vec<usize>>>,
) -> BoxedStrategy<RaggedColumn> {
    let (lo, hi) = element_range(&element);
    let rows: Vec<BoxedStrategy<Option<(Vec<usize>, Vec<Option<i64>>)>>> = shapes
        .into_iter()
        .map(|shape| {
            let value = prop_oneof![1 => Just(None), 12 => (lo..=hi).prop_map(Some)];
            prop_oneof![
                1 => Just(None),
                10 => shape.prop_flat_map(move |shape| {
                    let size = reference::size(&shape);
                    prop::collection::vec(value.clone(), size)
                        .prop_map(move |v| Some((shape.clone(), v)))
                }),
            ]
            .boxed()
        })
        .collect();
    let permutation = prop_oneof![
        Just(None),
        Just((0..ndim).collect::<Vec<_>>())
            .prop_shuffle()
            .prop_map(Some),
    ];
    (rows, permutation)
        .prop_map(move |(rows, permutation)| RaggedColumn {
            element: element.clone(),
            ndim,
            permutation,
            rows,
        })
        .boxed()
}

/// A variable-shape column of `ndim` dimensions, row r's shape like `bases[r]`.
fn ragged_like(
    element: DataType,
    bases: &[Vec<usize>],
    ndim: usize,
) -> BoxedStrategy<RaggedColumn> {
    let shapes = bases.iter().map(|b| shape_like(b, ndim)).collect();
    ragged_with(element, ndim, shapes)
}

/// A fixed-shape column of `rows` rows whose shape is 1s, like `first`, or any other.
fn fixed_like(element: DataType, first: &[usize], rows: usize) -> BoxedStrategy<Column> {
    let first = first.to_vec();
    let n = first.len();
    let shape = prop_oneof![
        2 => (0..=n).prop_map(|k| vec![1usize; k]),
        2 => (0..=n).prop_flat_map(move |k| shape_like(&first, k)),
        1 => any_shape(2),
    ];
    shape
        .prop_flat_map(move |s| fixed_rows(element.clone(), s, rows))
        .boxed()
}

/// A tensor argument of a call on variable-shape tensors.
#[derive(Debug, Clone)]
enum Arg {
    Ragged(RaggedColumn),
    Fixed(Column),
    /// A number literal.
    Literal(i64),
}

impl Arg {
    /// Row r as a logical shape and values (`None`: NULL).
    fn row(&self, r: usize) -> Option<(Vec<usize>, Vec<Option<i64>>)> {
        match self {
            Arg::Ragged(c) => c.rows[r].clone(),
            Arg::Fixed(c) => c.rows[r].clone().map(|v| (c.shape.clone(), v)),
            Arg::Literal(v) => Some((vec![], vec![Some(*v)])),
        }
    }

    /// Every value, to be changed in place.
    fn values_mut(&mut self) -> Vec<&mut Option<i64>> {
        match self {
            Arg::Ragged(c) => c
                .rows
                .iter_mut()
                .flatten()
                .flat_map(|(_, v)| v.iter_mut())
                .collect(),
            Arg::Fixed(c) => c
                .rows
                .iter_mut()
                .flatten()
                .flat_map(|v| v.iter_mut())
                .collect(),
            Arg::Literal(_) => vec![],
        }
    }

    /// The SQL for it (a column named `name`, or the literal of `element`), and its column.
    fn sql(&self, name: &str, element: &DataType) -> (String, Option<(Field, ArrayRef)>) {
        match self {
            Arg::Ragged(c) => (name.to_string(), Some(c.arrow(name))),
            Arg::Fixed(c) => (name.to_string(), Some(c.arrow(name))),
            Arg::Literal(v) if *element == DataType::Boolean => ((*v != 0).to_string(), None),
            Arg::Literal(v) => (v.to_string(), None),
        }
    }
}

/// Asserts that `got` failed with one of `expected`, naming `row` when given.
fn assert_row_error(
    got: &Result<(Field, ArrayRef), String>,
    expected: &[Error],
    row: Option<usize>,
    sql: &str,
) {
    assert_error(got, expected, sql);
    if let (Some(row), Err(message)) = (row, got) {
        assert!(
            message.contains(&format!("at row {row} of its batch")),
            "{sql}: expected the error at row {row}, got: {message}"
        );
    }
}

/// A 0-d row is a plain value: a NULL element and a NULL row are one NULL.
fn zero_d_rows<T>(
    rows: Vec<Option<(Vec<usize>, Vec<Option<T>>)>>,
) -> Vec<Option<(Vec<usize>, Vec<Option<T>>)>> {
    rows.into_iter()
        .map(|r| r.filter(|(shape, v)| !shape.is_empty() || v[0].is_some()))
        .collect()
}

/// Float rows of either kind as comparable shapes and bits (a 0-d NULL element a NULL row).
fn float_rows_key(
    rows: Vec<Option<(Vec<usize>, Vec<Option<f64>>)>>,
) -> (Vec<Option<Vec<usize>>>, Vec<Option<Vec<Option<u64>>>>) {
    let (shapes, values): (Vec<_>, Vec<_>) = zero_d_rows(rows)
        .into_iter()
        .map(|r| match r {
            Some((s, v)) => (Some(s), Some(v)),
            None => (None, None),
        })
        .unzip();
    (shapes, bits(values))
}

/// `a`, the choices and the mode of a choose on variable shapes: `a` and each choice
/// variable-shape (each row's shape like a shared one), fixed-shape or (choices) a literal; at
/// least one variable-shape; `a` integers around [0, n), or booleans.
fn ragged_choose_args() -> impl Strategy<Value = (Arg, Vec<Arg>, &'static str)> {
    (0usize..=3, 2usize..=4, any_element())
        .prop_flat_map(|(ndim, n, element)| {
            (row_shapes(ndim), Just(n), Just(element), any_shape(2))
        })
        .prop_flat_map(|(bases, n, element, fallback)| {
            let rows = bases.len();
            let first = bases.first().cloned().unwrap_or(fallback);
            let ndim = first.len();
            let arg = move |element: DataType, literal: bool| -> BoxedStrategy<Arg> {
                let (lo, hi) = element_range(&element);
                let bases = bases.clone();
                let fixed = fixed_like(element.clone(), &first, rows).prop_map(Arg::Fixed);
                let ragged = (0..=ndim)
                    .prop_flat_map(move |k| ragged_like(element.clone(), &bases, k))
                    .prop_map(Arg::Ragged);
                if literal {
                    prop_oneof![
                        3 => ragged,
                        2 => fixed,
                        1 => (lo..=hi).prop_map(Arg::Literal),
                    ]
                    .boxed()
                } else {
                    prop_oneof![3 => ragged, 2 => fixed].boxed()
                }
            };
            let a_element = prop::sample::select(vec![
                DataType::Int8,
                DataType::Int32,
                DataType::Int64,
                DataType::UInt8,
                DataType::Boolean,
            ]);
            let arg_a = arg.clone();
            let a = a_element
                .prop_flat_map(move |e| (arg_a(e.clone(), false), Just(e)))
                .prop_map(move |(mut a, e)| {
                    // Indices around [0, n): some out of range for raise / wrap / clip.
                    let lo = if e == DataType::UInt8 { 0 } else { -1 };
                    for v in a.values_mut().into_iter().flatten() {
                        *v = (*v).clamp(lo, n as i64);
                    }
                    a
                });
            let choices = prop::collection::vec(arg(element, true), n);
            (
                a,
                choices,
                prop::sample::select(vec!["raise", "wrap", "clip"]),
            )
        })
        .prop_filter("a variable-shape argument", |(a, choices, _)| {
            std::iter::once(a)
                .chain(choices)
                .any(|arg| matches!(arg, Arg::Ragged(_)))
        })
}

/// The x of an at-update on variable shapes: the integer and float types, 0 to 3 dims.
fn ragged_at_x() -> impl Strategy<Value = RaggedColumn> {
    let element = prop::sample::select(vec![
        DataType::Int8,
        DataType::Int32,
        DataType::Int64,
        DataType::UInt8,
        DataType::Float32,
        DataType::Float64,
    ]);
    (element, 0usize..=3).prop_flat_map(|(e, n)| ragged_column(e, n))
}

/// The index of an at-call: a literal index string, or per row an integer column (`[]`), an
/// index tensor `[m]` (axis 0) or `[m, k]` (m coordinates into the first k axes), without
/// NULL elements.
#[derive(Debug, Clone)]
enum AtIndex {
    Static(Vec<Item>),
    Column(Column),
}

impl AtIndex {
    /// Row r's index as reference items (`None`: a NULL row).
    fn items(&self, r: usize) -> Option<Vec<Item>> {
        match self {
            AtIndex::Static(items) => Some(items.clone()),
            AtIndex::Column(c) => {
                let values: Vec<i64> = c.rows[r].as_ref()?.iter().map(|v| v.unwrap()).collect();
                Some(Self::column_items(&c.shape, &values))
            }
        }
    }

    fn column_items(shape: &[usize], values: &[i64]) -> Vec<Item> {
        match shape {
            [] => vec![Item::Int(values[0])],
            [m] => vec![Item::Ints(vec![*m], values.to_vec())],
            [m, k] => (0..*k)
                .map(|j| Item::Ints(vec![*m], (0..*m).map(|i| values[i * k + j]).collect()))
                .collect(),
            _ => unreachable!(),
        }
    }

    /// Whether the crate refused to plan boolean masks over dimensions that differ between
    /// rows because no one length fits them all (a documented limitation, as for `tensor_get`).
    fn unplannable_masks(&self, got: &Result<(Field, ArrayRef), String>) -> bool {
        let masks = matches!(self, AtIndex::Static(items) if items.iter().any(|i| matches!(i, Item::Bools(_))));
        masks && got.as_ref().is_err_and(|e| e.contains("cannot be planned"))
    }

    /// The index's errors whatever the rows' lengths (the query's, found when it is planned):
    /// a literal index's negative integers are out of bounds of every row when they raise and
    /// do not wrap.
    fn static_errors(&self, ndim: usize, raises: bool, wrap: bool) -> Option<Vec<Error>> {
        let (items, wrap) = match self {
            AtIndex::Static(items) => (items.clone(), wrap),
            AtIndex::Column(c) => (
                Self::column_items(&c.shape, &vec![0; reference::size(&c.shape)]),
                true,
            ),
        };
        reference::index(&vec![64; ndim], &items, Bounds::Raise, wrap)
            .err()
            .map(|errors| {
                errors
                    .into_iter()
                    .filter(|e| match e {
                        Error::BooleanMismatch => false,
                        Error::OutOfBounds => raises,
                        _ => true,
                    })
                    .collect::<Vec<_>>()
            })
            .filter(|errors| !errors.is_empty())
    }

    /// The SQL for it, and its column.
    fn sql(&self) -> (String, Option<(Field, ArrayRef)>) {
        match self {
            AtIndex::Static(items) => (format!("'{}'", reference::render(items)), None),
            AtIndex::Column(c) if c.shape.is_empty() => {
                let values: Int64Array = c
                    .rows
                    .iter()
                    .map(|r| r.as_ref().map(|v| v[0].unwrap()))
                    .collect();
                (
                    "i".to_string(),
                    Some((Field::new("i", DataType::Int64, true), Arc::new(values))),
                )
            }
            AtIndex::Column(c) => ("i".to_string(), Some(c.arrow("i"))),
        }
    }
}

/// An at-call's index for `rows` rows: mostly a literal index string.
fn at_index(rows: usize) -> impl Strategy<Value = AtIndex> {
    let shape = prop_oneof![
        1 => Just(vec![]),
        1 => (0usize..4).prop_map(|m| vec![m]),
        1 => (0usize..4, 1usize..3).prop_map(|(m, k)| vec![m, k]),
    ];
    let element = prop::sample::select(vec![DataType::Int32, DataType::Int64]);
    let column = (element, shape)
        .prop_flat_map(move |(e, s)| fixed_rows(e, s, rows))
        .prop_map(move |mut c| {
            for v in c.rows.iter_mut().flatten().flat_map(|r| r.iter_mut()) {
                v.get_or_insert(0);
            }
            AtIndex::Column(c)
        });
    prop_oneof![3 => any_index().prop_map(AtIndex::Static), 1 => column]
}

/// The mode's bounds for a get.
fn get_bounds(mode: &str) -> Bounds {
    match mode {
        "fill" | "drop" => Bounds::Drop,
        "raise" => Bounds::Raise,
        _ => Bounds::Clip,
    }
}

/// `x[idx]`'s shape in each row (`[]` where the row is NULL or the index does not fit it).
fn at_out_shapes(x: &RaggedColumn, index: &AtIndex, bounds: Bounds, wrap: bool) -> Vec<Vec<usize>> {
    x.rows
        .iter()
        .enumerate()
        .map(|(r, row)| {
            row.as_ref()
                .zip(index.items(r))
                .and_then(|((shape, _), items)| reference::index(shape, &items, bounds, wrap).ok())
                .map(|(s, _)| s)
                .unwrap_or_default()
        })
        .collect()
}

/// x, the index, the mode, `wrap_negative_indices` and y of an at-update on variable shapes: y a
/// literal, a fixed-shape tensor or a variable-shape one whose row r is shaped like row r's
/// `x[idx]` (as it is, a trailing part, with 1s, or another length).
fn ragged_at_args() -> impl Strategy<Value = (RaggedColumn, AtIndex, &'static str, bool, Arg)> {
    ragged_at_x()
        .prop_flat_map(|x| {
            let rows = x.rows.len();
            (Just(x), at_index(rows), update_mode(), any::<bool>())
        })
        .prop_flat_map(|(x, index, mode, wrap)| {
            let shapes = at_out_shapes(&x, &index, update_bounds(mode), wrap);
            let first = shapes
                .iter()
                .find(|s| !s.is_empty())
                .cloned()
                .unwrap_or_default();
            let out_ndim = first.len();
            let element = x.element.clone();
            let rows = x.rows.len();
            let ragged = (0..=out_ndim)
                .prop_flat_map({
                    let element = element.clone();
                    move |k| ragged_like(element.clone(), &shapes, k)
                })
                .prop_map(Arg::Ragged);
            let (lo, hi) = element_range(&element);
            let y = prop_oneof![
                2 => (lo.max(-3)..=hi.min(3)).prop_map(Arg::Literal),
                1 => fixed_like(element, &first, rows).prop_map(Arg::Fixed),
                2 => ragged,
            ];
            (Just(x), Just(index), Just(mode), Just(wrap), y)
        })
}

/// `t`, the index and the axis of a take or put along an axis on variable shapes: `t` and the
/// index both variable-shape, or one of them fixed-shape; the index's rows shaped like `t`'s
/// off the axis (some 1, a few another length) and any length along it, sometimes of another
/// number of dimensions.
fn ragged_along_args() -> impl Strategy<Value = (Arg, Arg, Option<i64>)> {
    (any_element(), 0usize..=3, 0usize..3)
        .prop_flat_map(|(element, n, form)| {
            let shape = prop::collection::vec(any_dim(), n);
            let bases = if form == 2 {
                // A fixed-shape t: every row one shape.
                (shape, prop_oneof![1 => Just(0usize), 8 => 1usize..=4])
                    .prop_map(|(s, rows)| (s.clone(), vec![s; rows]))
                    .boxed()
            } else {
                (shape, row_shapes(n))
                    .prop_map(|(s, rows)| (rows.first().cloned().unwrap_or(s), rows))
                    .boxed()
            };
            let n = n as i64;
            let axis = prop_oneof![
                2 => Just(None),
                12 => (-n..n.max(1)).prop_map(Some),
                1 => (-n - 1..=n).prop_map(Some),
            ];
            let idx_ndim = prop_oneof![12 => Just(None), 1 => (0usize..=3).prop_map(Some)];
            (Just(element), Just(form), bases, axis, idx_ndim)
        })
        .prop_flat_map(|(element, form, (first, bases), axis, idx_ndim)| {
            let rows = bases.len();
            let n = first.len();
            let t = if form == 2 {
                fixed_rows(element.clone(), first.clone(), rows)
                    .prop_map(Arg::Fixed)
                    .boxed()
            } else {
                ragged_with(
                    element,
                    n,
                    bases.iter().map(|b| Just(b.clone()).boxed()).collect(),
                )
                .prop_map(Arg::Ragged)
                .boxed()
            };
            let along = axis.map(|a| if a < 0 { a + n as i64 } else { a });
            let expected_ndim = if axis.is_none() { 1 } else { n };
            let idx_ndim = idx_ndim.unwrap_or(expected_ndim);
            // An index row's shape for a t row of shape `base`.
            let idx_shape = move |base: &[usize]| -> BoxedStrategy<Vec<usize>> {
                if idx_ndim != expected_ndim {
                    return prop::collection::vec(any_dim(), idx_ndim).boxed();
                }
                if axis.is_none() {
                    return (0usize..6).prop_map(|k| vec![k]).boxed();
                }
                let dims: Vec<BoxedStrategy<usize>> = base
                    .iter()
                    .enumerate()
                    .map(|(k, &d)| {
                        if Some(k as i64) == along {
                            (0usize..4).boxed()
                        } else {
                            prop_oneof![6 => Just(d), 2 => Just(1usize), 1 => 0usize..4].boxed()
                        }
                    })
                    .collect();
                dims.boxed()
            };
            let idx_element = prop::sample::select(vec![
                DataType::Int8,
                DataType::Int32,
                DataType::Int64,
                DataType::UInt8,
            ]);
            let idx = idx_element.prop_flat_map(move |e| {
                if form == 1 {
                    idx_shape(&first)
                        .prop_flat_map(move |s| fixed_rows(e.clone(), s, rows))
                        .prop_map(Arg::Fixed)
                        .boxed()
                } else {
                    ragged_with(e, idx_ndim, bases.iter().map(|b| idx_shape(b)).collect())
                        .prop_map(Arg::Ragged)
                        .boxed()
                }
            });
            (t, idx, Just(axis))
        })
}

/// The number of rows of a column argument.
fn arg_rows(arg: &Arg) -> usize {
    match arg {
        Arg::Ragged(c) => c.rows.len(),
        Arg::Fixed(c) => c.rows.len(),
        Arg::Literal(_) => 0,
    }
}

/// The index's element type.
fn arg_element(arg: &Arg) -> DataType {
    match arg {
        Arg::Ragged(c) => c.element.clone(),
        Arg::Fixed(c) => c.element.clone(),
        Arg::Literal(_) => DataType::Int64,
    }
}

/// Folds each index row into its t row's range along the axis (as [`tame_index`] does), unless
/// `wild`.
fn tame_ragged_index(idx: &mut Arg, t: &Arg, axis: Option<i64>, wild: bool) {
    if wild {
        return;
    }
    let unsigned = arg_element(idx) == DataType::UInt8;
    for r in 0..arg_rows(t) {
        let Some((t_shape, _)) = t.row(r) else {
            continue;
        };
        let dim = match axis {
            None => reference::size(&t_shape),
            Some(a) => {
                let n = t_shape.len() as i64;
                let a = if a < 0 { a + n } else { a };
                if a < 0 || a >= n {
                    return;
                }
                t_shape[a as usize]
            }
        } as i64;
        let values: Vec<&mut Option<i64>> = match idx {
            Arg::Ragged(c) => c.rows[r]
                .iter_mut()
                .flat_map(|(_, v)| v.iter_mut())
                .collect(),
            Arg::Fixed(c) => c.rows[r].iter_mut().flat_map(|v| v.iter_mut()).collect(),
            Arg::Literal(_) => vec![],
        };
        for v in values {
            let value = v.unwrap_or(0);
            *v = Some(match () {
                () if dim == 0 => value,
                () if unsigned => value.rem_euclid(dim),
                () => value.rem_euclid(2 * dim) - dim,
            });
        }
    }
}

/// An argument's number of dimensions.
fn arg_ndim(arg: &Arg) -> usize {
    match arg {
        Arg::Ragged(c) => c.ndim,
        Arg::Fixed(c) => c.shape.len(),
        Arg::Literal(_) => 0,
    }
}

/// The one argument of `tensor_choose(a, c, mode)` that enumerates each row's choices.
#[derive(Debug, Clone)]
enum Enumerated {
    /// A tensor (variable- or fixed-shape) whose outer dimension lists them.
    Stacked(Arg),
    /// A list column of Int64 scalars (`None`: a NULL row or element).
    List(Vec<Option<Vec<Option<i64>>>>),
}

impl Enumerated {
    /// Row r's choices as the reference takes them (`None`: NULL): `c[k]` of a tensor, or
    /// each scalar of a list as a 0-d tensor.
    fn row(&self, r: usize) -> Option<Vec<(Vec<usize>, Vec<Option<i64>>)>> {
        match self {
            Enumerated::Stacked(c) => {
                let (shape, values) = c.row(r)?;
                let rest = shape[1..].to_vec();
                let size = reference::size(&rest);
                Some(
                    (0..shape[0])
                        .map(|k| (rest.clone(), values[k * size..(k + 1) * size].to_vec()))
                        .collect(),
                )
            }
            Enumerated::List(rows) => rows
                .get(r)
                .cloned()
                .flatten()
                .map(|v| v.into_iter().map(|x| (vec![], vec![x])).collect()),
        }
    }

    /// Its column, named `c`.
    fn arrow(&self) -> (Field, ArrayRef) {
        match self {
            Enumerated::Stacked(c) => c.sql("c", &DataType::Int64).1.expect("a column"),
            Enumerated::List(rows) => {
                let list =
                    arrow::array::ListArray::from_iter_primitive::<Int64Type, _, _>(rows.clone());
                (
                    Field::new("c", list.data_type().clone(), true),
                    Arc::new(list),
                )
            }
        }
    }
}

/// `tensor_choose(a, c, mode)` with `c` enumerating each row's choices (a tensor of 1 to 3
/// dimensions, its outer one 0 to 4 long per row, or a list column of 0 to 4 scalars) and a
/// variable-shape argument; `a` shaped like `c[k]` (varied per row as the other properties
/// vary shapes), its values around the choices' count.
fn ragged_enumerated_args() -> impl Strategy<Value = (Arg, Enumerated, &'static str)> {
    (1usize..=3, any_element())
        .prop_flat_map(|(ndim, element)| (row_shapes(ndim), Just(element), any_shape(2)))
        .prop_flat_map(|(bases, element, fallback)| {
            let rows = bases.len();
            let first = bases.first().cloned().unwrap_or(fallback);
            let ndim = first.len().max(1);
            let rests: Vec<Vec<usize>> = bases.iter().map(|b| b[1..].to_vec()).collect();
            let first_rest = first.get(1..).unwrap_or_default().to_vec();
            let stacked = prop_oneof![
                3 => ragged_like(element.clone(), &bases, ndim).prop_map(Arg::Ragged),
                1 => fixed_like(element, &first, rows)
                    .prop_filter("a dimension to enumerate", |c| !c.shape.is_empty())
                    .prop_map(Arg::Fixed),
            ]
            .prop_map(Enumerated::Stacked);
            let value = prop_oneof![1 => Just(None), 8 => (-100i64..100).prop_map(Some)];
            let list_row = prop_oneof![
                1 => Just(None),
                8 => prop::collection::vec(value, 0..=4).prop_map(Some),
            ];
            let list = prop::collection::vec(list_row, rows).prop_map(Enumerated::List);
            let a_element = prop::sample::select(vec![
                DataType::Int8,
                DataType::Int32,
                DataType::Int64,
                DataType::UInt8,
                DataType::Boolean,
            ]);
            let a_ndim = ndim - 1;
            let a = a_element.prop_flat_map(move |e| {
                let a = prop_oneof![
                    3 => ragged_like(e.clone(), &rests, a_ndim).prop_map(Arg::Ragged),
                    1 => fixed_like(e.clone(), &first_rest, rows).prop_map(Arg::Fixed),
                ];
                (a, Just(e))
            });
            (
                a.prop_map(|(mut a, e)| {
                    // Indices around [0, n) for counts of 0 to 4: some out of range.
                    let lo = if e == DataType::UInt8 { 0 } else { -1 };
                    for v in a.values_mut().into_iter().flatten() {
                        *v = (*v).clamp(lo, 4);
                    }
                    a
                }),
                prop_oneof![2 => stacked, 1 => list],
                prop::sample::select(vec!["raise", "wrap", "clip"]),
            )
        })
        .prop_filter("a variable-shape argument", |(a, c, _)| match c {
            Enumerated::Stacked(Arg::Ragged(_)) => true,
            _ => matches!(a, Arg::Ragged(_)),
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// tensor_choose(a, c0, c1, ..., mode) with a variable-shape a and/or variable-shape
    /// choices (fixed-shape choices and literals mixed in) is numpy's choose on each row's own
    /// shapes, broadcast per row; the first row numpy rejects is the error.
    #[test]
    fn tensor_choose_matches_numpy_on_variable_shapes(
        (a, choices, mode) in ragged_choose_args(),
    ) {
        let rows = std::iter::once(&a).chain(&choices).map(arg_rows).max().unwrap_or(0);
        let element = choices
            .iter()
            .find(|c| !matches!(c, Arg::Literal(_)))
            .map_or(DataType::Int64, arg_element);
        let mut columns = Vec::new();
        let (a_sql, a_column) = a.sql("a", &DataType::Int64);
        columns.extend(a_column.map(|c| ("a".to_string(), c)));
        let mut sql_choices = Vec::new();
        for (k, c) in choices.iter().enumerate() {
            let name = format!("c{k}");
            let (sql, column) = c.sql(&name, &element);
            columns.extend(column.map(|c| (name, c)));
            sql_choices.push(sql);
        }
        let sql = format!("SELECT tensor_choose({a_sql}, {}, '{mode}') FROM t", sql_choices.join(", "));
        let named: Vec<(&str, (Field, ArrayRef))> = columns.iter().map(|(n, c)| (n.as_str(), c.clone())).collect();
        let got = run(&named, &sql);
        // The fixed shapes alone decide whether the call can be planned.
        let fixed: Vec<Vec<usize>> = std::iter::once(&a)
            .chain(&choices)
            .filter_map(|arg| match arg {
                Arg::Fixed(c) => Some(c.shape.clone()),
                _ => None,
            })
            .collect();
        if reference::broadcast(&fixed).is_none() {
            assert_row_error(&got, &[Error::BroadcastMismatch], None, &sql);
            return Ok(());
        }
        let mut expected = Vec::new();
        for r in 0..rows {
            let row_a = a.row(r);
            let row_choices: Option<Vec<(Vec<usize>, Vec<Option<i64>>)>> = choices.iter().map(|c| c.row(r)).collect();
            let (Some((a_shape, a_values)), Some(cs)) = (row_a, row_choices) else {
                expected.push(None);
                continue;
            };
            match reference::choose((&a_shape, &a_values), &cs, mode) {
                Ok(found) => expected.push(Some(found)),
                Err(e) => {
                    assert_row_error(&got, &[e], Some(r), &sql);
                    return Ok(());
                }
            }
        }
        let column = got.unwrap_or_else(|e| panic!("{sql}: {e}"));
        prop_assert_eq!(zero_d_rows(ragged_rows_of(&column)), zero_d_rows(expected), "{}", sql);
    }

    /// tensor_choose(a, c, mode) with one argument enumerating each row's choices (a tensor's
    /// outer dimension or a list column's scalars) and a variable-shape a or c: numpy's choose
    /// of each row's a and choices; the first row numpy rejects is the error.
    #[test]
    fn tensor_choose_enumerated_matches_numpy_on_variable_shapes(
        (a, c, mode) in ragged_enumerated_args(),
    ) {
        let rows = arg_rows(&a).max(match &c {
            Enumerated::Stacked(c) => arg_rows(c),
            Enumerated::List(rows) => rows.len(),
        });
        let (_, a_column) = a.sql("a", &DataType::Int64);
        let mut columns: Vec<(&str, (Field, ArrayRef))> = vec![("c", c.arrow())];
        columns.extend(a_column.map(|column| ("a", column)));
        let sql = format!("SELECT tensor_choose(a, c, '{mode}') FROM t");
        let got = run(&columns, &sql);
        // A fixed-shape c's outer dimension is every row's: none is numpy's error when the
        // query is planned.
        if let Enumerated::Stacked(Arg::Fixed(fixed)) = &c && fixed.shape[0] == 0 {
            assert_row_error(&got, &[Error::NoChoices], None, &sql);
            return Ok(());
        }
        let mut expected = Vec::new();
        for r in 0..rows {
            let (Some((a_shape, a_values)), Some(choices)) = (a.row(r), c.row(r)) else {
                expected.push(None);
                continue;
            };
            // numpy rejects no choices before it broadcasts them.
            let found = if choices.is_empty() {
                Err(Error::NoChoices)
            } else {
                reference::choose((&a_shape, &a_values), &choices, mode)
            };
            match found {
                Ok(found) => expected.push(Some(found)),
                Err(e) => {
                    assert_row_error(&got, &[e], Some(r), &sql);
                    return Ok(());
                }
            }
        }
        let column = got.unwrap_or_else(|e| panic!("{sql}: {e}"));
        prop_assert_eq!(zero_d_rows(ragged_rows_of(&column)), zero_d_rows(expected), "{}", sql);
    }

    /// tensor_at_<op>(x, idx, y, mode, wrap_negative_indices) on a variable-shape x is JAX's
    /// x.at[idx].<op>(y, ...) on each row's own shape: idx a literal index string or per row
    /// an integer, an index tensor [m] or [m, k]; y a literal, a fixed-shape tensor or a
    /// variable-shape one, broadcast into each row's x[idx]; the first row JAX (or this
    /// crate's raise mode, or an overflow) rejects is the error.
    #[test]
    fn tensor_at_matches_jax_on_variable_shapes(
        (x, index, mode, wrap, y) in ragged_at_args(),
        op in prop::sample::select(vec![Op::Set, Op::Add, Op::Subtract, Op::Multiply, Op::Min, Op::Max]),
    ) {
        let (index_sql, index_column) = index.sql();
        let (y_sql, y_column) = y.sql("y", &x.element);
        let mut columns = vec![("x", x.arrow("x"))];
        columns.extend(index_column.map(|c| ("i", c)));
        columns.extend(y_column.map(|c| ("y", c)));
        let sql = format!("SELECT tensor_at_{}(x, {index_sql}, {y_sql}, '{mode}', {wrap}) FROM t", op.name());
        let got = run(&columns, &sql);
        if index.unplannable_masks(&got) {
            return Ok(());
        }
        if let Some(errors) = index.static_errors(x.ndim, mode == "raise", wrap) {
            assert_row_error(&got, &errors, None, &sql);
            return Ok(());
        }
        let bounds = update_bounds(mode);
        // An x of no dimensions: every row's shape, so x[idx]'s, is known when the query is
        // planned, and a fixed-shape y's fit with it.
        let static_y = match &y {
            Arg::Fixed(c) => Some(c.shape.clone()),
            Arg::Literal(_) => Some(vec![]),
            Arg::Ragged(_) => None,
        };
        if x.ndim == 0
            && let (AtIndex::Static(items), Some(y_shape)) = (&index, static_y)
            && let Ok((out_shape, _)) = reference::index(&[], items, bounds, wrap)
            && reference::broadcast(&[y_shape, out_shape.clone()]).as_ref() != Some(&out_shape)
        {
            assert_row_error(&got, &[Error::BroadcastMismatch], None, &sql);
            return Ok(());
        }
        let (min, max) = int_range(&x.element);
        let float = x.element.is_floating();
        let single = x.element == DataType::Float32;
        let mut expected = Vec::new();
        for (r, row) in x.rows.iter().enumerate() {
            let (Some((shape, values)), Some(items), Some((y_shape, y_values))) = (row, index.items(r), y.row(r)) else {
                expected.push(None);
                continue;
            };
            let out_shape = match reference::index(shape, &items, bounds, wrap) {
                Ok((out_shape, _)) => out_shape,
                Err(mut errors) => {
                    // An index out of bounds and a y that does not fit x[idx] in one row:
                    // numpy reports either (the shape first for index arrays, the bounds first
                    // for integers), as the crate does (a literal index's bounds are checked
                    // when the row's shape is planned, an index column's after y's shape).
                    if let Ok((out_shape, _)) = reference::index(shape, &items, Bounds::Drop, wrap)
                        && reference::broadcast(&[y_shape.clone(), out_shape.clone()]).as_ref() != Some(&out_shape)
                    {
                        errors.push(Error::BroadcastMismatch);
                    }
                    assert_row_error(&got, &errors, Some(r), &sql);
                    return Ok(());
                }
            };
            if reference::broadcast(&[y_shape.clone(), out_shape.clone()]).as_ref() != Some(&out_shape) {
                assert_row_error(&got, &[Error::BroadcastMismatch], Some(r), &sql);
                return Ok(());
            }
            let y_at = |k: usize| y_values[reference::broadcast_position(&reference::unravel(k, &out_shape), &y_shape, &out_shape)];
            let result = if float {
                let wrapf = |v: i64| reference::Float { value: v as f64, single };
                let xs: Vec<_> = values.iter().map(|v| v.map(wrapf)).collect();
                reference::at(shape, &xs, &items, op, &|k| y_at(k).map(wrapf), bounds, wrap)
                    .map(|out| out.iter().map(|v| v.map(|v| v.value as i64)).collect::<Vec<_>>())
            } else {
                let wrapi = |v: i64| reference::Int { value: v.into(), min, max };
                let xs: Vec<_> = values.iter().map(|v| v.map(wrapi)).collect();
                reference::at(shape, &xs, &items, op, &|k| y_at(k).map(wrapi), bounds, wrap)
                    .map(|out| out.iter().map(|v| v.map(|v| v.value as i64)).collect::<Vec<_>>())
            };
            match result {
                Ok(out) => expected.push(Some((shape.clone(), out))),
                Err(errors) => {
                    assert_row_error(&got, &errors, Some(r), &sql);
                    return Ok(());
                }
            }
        }
        let column = got.unwrap_or_else(|e| panic!("{sql}: {e}"));
        prop_assert_eq!(zero_d_rows(ragged_rows_of(&column)), zero_d_rows(expected), "{}", sql);
    }

    /// tensor_at_divide / _power / _apply(x, idx, ...) on a variable-shape x are JAX's
    /// x.at[idx].divide(y) / .power(y) / .apply(f) on each row's own shape (as in
    /// `tensor_at_divide_power_apply_match_jax`), idx a literal index string or an index
    /// column; the first row rejected (an index, an overflow, a negative integer power) is the
    /// error.
    #[test]
    fn tensor_at_divide_power_apply_match_jax_on_variable_shapes(
        (x, index) in ragged_at_x().prop_flat_map(|x| { let rows = x.rows.len(); (Just(x), at_index(rows)) }),
        op in prop::sample::select(vec!["divide", "power", "negative", "square", "abs"]),
        y in -3i64..=3,
        mode in update_mode(),
        wrap in any::<bool>(),
    ) {
        let y = if x.element == DataType::UInt8 { y.abs() } else { y };
        let (index_sql, index_column) = index.sql();
        let mut columns = vec![("x", x.arrow("x"))];
        columns.extend(index_column.map(|c| ("i", c)));
        let sql = match op {
            "divide" | "power" => format!("SELECT tensor_at_{op}(x, {index_sql}, {y}, '{mode}', {wrap}) FROM t"),
            f => format!("SELECT tensor_at_apply(x, {index_sql}, '{f}', '{mode}', {wrap}) FROM t"),
        };
        let got = run(&columns, &sql);
        if index.unplannable_masks(&got) {
            return Ok(());
        }
        if let Some(errors) = index.static_errors(x.ndim, mode == "raise", wrap) {
            assert_row_error(&got, &errors, None, &sql);
            return Ok(());
        }
        let float = x.element.is_floating();
        let single = x.element == DataType::Float32;
        let (min, max) = int_range(&x.element);
        let round = |v: f64| if single { f64::from(v as f32) } else { v };
        let mut expected = Vec::new();
        for (r, row) in x.rows.iter().enumerate() {
            let (Some((shape, values)), Some(items)) = (row, index.items(r)) else {
                expected.push(None);
                continue;
            };
            let found = reference::index(shape, &items, update_bounds(mode), wrap).and_then(|(_, positions)| {
                reference::at_arith(values, &positions, op, y, float, single, (min, max)).map_err(|e| vec![e])
            });
            match found {
                Ok(out) => expected.push(Some((shape.clone(), out.into_iter().map(|v| v.map(round)).collect::<Vec<_>>()))),
                Err(errors) => {
                    assert_row_error(&got, &errors, Some(r), &sql);
                    return Ok(());
                }
            }
        }
        let column = got.unwrap_or_else(|e| panic!("{sql}: {e}"));
        prop_assert_eq!(float_rows_key(ragged_rows_in::<Float64Type>(&column)), float_rows_key(expected), "{}", sql);
    }

    /// tensor_at_get(x, idx, mode, fill_value, wrap_negative_indices) on a variable-shape x is
    /// JAX's x.at[idx].get(...) on each row's own shape: out-of-bounds indices clamped,
    /// filled or an error naming the first row.
    #[test]
    fn tensor_at_get_matches_jax_on_variable_shapes(
        (x, index) in ragged_at_x().prop_flat_map(|x| { let rows = x.rows.len(); (Just(x), at_index(rows)) }),
        mode in prop::sample::select(vec!["promise_in_bounds", "clip", "fill", "drop", "raise"]),
        fill in prop::option::of(0i64..=3),
        wrap in any::<bool>(),
    ) {
        let (index_sql, index_column) = index.sql();
        let mut columns = vec![("x", x.arrow("x"))];
        columns.extend(index_column.map(|c| ("i", c)));
        let fill_sql = fill.map_or_else(|| "NULL".to_string(), |f| f.to_string());
        let sql = format!("SELECT tensor_at_get(x, {index_sql}, '{mode}', {fill_sql}, {wrap}) FROM t");
        let got = run(&columns, &sql);
        if index.unplannable_masks(&got) {
            return Ok(());
        }
        if let Some(errors) = index.static_errors(x.ndim, mode == "raise", wrap) {
            assert_row_error(&got, &errors, None, &sql);
            return Ok(());
        }
        let fill = fill.map_or_else(
            || match x.element {
                DataType::Int8 => f64::from(i8::MIN),
                DataType::Int32 => f64::from(i32::MIN),
                DataType::Int64 => i64::MIN as f64,
                DataType::UInt8 => f64::from(u8::MAX),
                _ => f64::NAN,
            },
            |f| f as f64,
        );
        let mut expected = Vec::new();
        for (r, row) in x.rows.iter().enumerate() {
            let (Some((shape, values)), Some(items)) = (row, index.items(r)) else {
                expected.push(None);
                continue;
            };
            match reference::index(shape, &items, get_bounds(mode), wrap) {
                Ok((out_shape, positions)) => expected.push(Some((
                    out_shape,
                    positions
                        .iter()
                        .map(|p| match p {
                            Some(p) => values[*p].map(|v| v as f64),
                            None => Some(fill),
                        })
                        .collect::<Vec<_>>(),
                ))),
                Err(errors) => {
                    assert_row_error(&got, &errors, Some(r), &sql);
                    return Ok(());
                }
            }
        }
        let column = got.unwrap_or_else(|e| panic!("{sql}: {e}"));
        prop_assert_eq!(float_rows_key(ragged_rows_in::<Float64Type>(&column)), float_rows_key(expected), "{}", sql);
    }

    /// tensor_take_along_axis(t, idx, axis) with a variable-shape t and/or idx is numpy's
    /// take_along_axis on each row's own shapes (idx broadcast with t off the axis per row);
    /// an index row with a NULL element gives a NULL row; the first row numpy rejects is the
    /// error.
    #[test]
    fn tensor_take_along_axis_matches_numpy_on_variable_shapes(
        (t, mut idx, axis) in ragged_along_args(),
        wild in prop::bool::weighted(0.2),
    ) {
        tame_ragged_index(&mut idx, &t, axis, wild);
        let (t_sql, t_column) = t.sql("x", &DataType::Int64);
        let (i_sql, i_column) = idx.sql("i", &DataType::Int64);
        let columns: Vec<(&str, (Field, ArrayRef))> = [("x", t_column), ("i", i_column)]
            .into_iter()
            .filter_map(|(n, c)| c.map(|c| (n, c)))
            .collect();
        let sql = format!("SELECT tensor_take_along_axis({t_sql}, {i_sql}, {}) FROM t", sql_axis(axis));
        let got = run(&columns, &sql);
        // The numbers of dimensions and the axis are the query's.
        if let Err(e) = reference::along_axis(&vec![64; arg_ndim(&t)], &vec![64; arg_ndim(&idx)], axis) {
            assert_row_error(&got, &[e], None, &sql);
            return Ok(());
        }
        let mut expected = Vec::new();
        for r in 0..arg_rows(&t) {
            let (Some((t_shape, values)), Some((i_shape, i_values))) = (t.row(r), idx.row(r)) else {
                expected.push(None);
                continue;
            };
            let Some(i_values) = whole(Some(&i_values)) else {
                expected.push(None);
                continue;
            };
            let found = reference::along_axis(&t_shape, &i_shape, axis).and_then(|geometry| {
                reference::along_axis_positions(&geometry, &i_shape, &i_values).map(|p| (geometry.shape, p))
            });
            match found {
                Ok((shape, positions)) => expected.push(Some((shape, positions.iter().map(|&p| values[p]).collect::<Vec<_>>()))),
                Err(e) => {
                    assert_row_error(&got, &[e], Some(r), &sql);
                    return Ok(());
                }
            }
        }
        let column = got.unwrap_or_else(|e| panic!("{sql}: {e}"));
        prop_assert_eq!(ragged_rows_of(&column), expected, "{}", sql);
    }

    /// tensor_put_along_axis(t, idx, values, axis) with a variable-shape t, idx and/or values
    /// is numpy's put_along_axis on a copy of each row: values broadcast per row to the row's
    /// index shape, written in row-major order (the last write wins); the first row numpy
    /// rejects is the error.
    #[test]
    fn tensor_put_along_axis_matches_numpy_on_variable_shapes(
        ((t, mut idx, axis), values) in ragged_along_args().prop_flat_map(|(t, idx, axis)| {
            // Each row's target: the index broadcast with t off the axis.
            let targets: Vec<Vec<usize>> = (0..arg_rows(&t))
                .map(|r| {
                    t.row(r)
                        .zip(idx.row(r))
                        .and_then(|((ts, _), (is, _))| reference::along_axis(&ts, &is, axis).ok())
                        .map(|g| g.shape)
                        .unwrap_or_default()
                })
                .collect();
            let first = targets.iter().find(|s| !s.is_empty()).cloned().unwrap_or_default();
            let rows = targets.len();
            let element = arg_element(&t);
            let (lo, hi) = element_range(&element);
            let ragged = (0..=first.len())
                .prop_flat_map({
                    let element = element.clone();
                    move |k| ragged_like(element.clone(), &targets, k)
                })
                .prop_map(Arg::Ragged);
            let values = prop_oneof![
                1 => (lo..=hi).prop_map(Arg::Literal),
                1 => fixed_like(element, &first, rows).prop_map(Arg::Fixed),
                2 => ragged,
            ];
            (Just((t, idx, axis)), values)
        }),
        wild in prop::bool::weighted(0.2),
    ) {
        tame_ragged_index(&mut idx, &t, axis, wild);
        let element = arg_element(&t);
        let (t_sql, t_column) = t.sql("x", &element);
        let (i_sql, i_column) = idx.sql("i", &element);
        let (v_sql, v_column) = values.sql("v", &element);
        let columns: Vec<(&str, (Field, ArrayRef))> = [("x", t_column), ("i", i_column), ("v", v_column)]
            .into_iter()
            .filter_map(|(n, c)| c.map(|c| (n, c)))
            .collect();
        let sql = format!("SELECT tensor_put_along_axis({t_sql}, {i_sql}, {v_sql}, {}) FROM t", sql_axis(axis));
        let got = run(&columns, &sql);
        if let Err(e) = reference::along_axis(&vec![64; arg_ndim(&t)], &vec![64; arg_ndim(&idx)], axis) {
            assert_row_error(&got, &[e], None, &sql);
            return Ok(());
        }
        let mut expected = Vec::new();
        for r in 0..arg_rows(&t) {
            let (Some((t_shape, t_values)), Some((i_shape, i_values)), Some((v_shape, v_values))) = (t.row(r), idx.row(r), values.row(r)) else {
                expected.push(None);
                continue;
            };
            let v_values: Vec<Option<i64>> = if element == DataType::Boolean {
                v_values.iter().map(|v| v.map(|v| v.min(1))).collect()
            } else {
                v_values
            };
            let Some(i_values) = whole(Some(&i_values)) else {
                expected.push(None);
                continue;
            };
            let geometry = match reference::along_axis(&t_shape, &i_shape, axis) {
                Ok(geometry) => geometry,
                Err(e) => {
                    assert_row_error(&got, &[e], Some(r), &sql);
                    return Ok(());
                }
            };
            // numpy's assignment rule: values broadcast to the target without growing it.
            if reference::broadcast(&[v_shape.clone(), geometry.shape.clone()]).as_ref() != Some(&geometry.shape) {
                assert_row_error(&got, &[Error::BroadcastMismatch], Some(r), &sql);
                return Ok(());
            }
            match reference::along_axis_positions(&geometry, &i_shape, &i_values) {
                Ok(positions) => {
                    let mut out = t_values.clone();
                    for (k, &p) in positions.iter().enumerate() {
                        let at = reference::unravel(k, &geometry.shape);
                        out[p] = v_values[reference::broadcast_position(&at, &v_shape, &geometry.shape)];
                    }
                    expected.push(Some((t_shape, out)));
                }
                Err(e) => {
                    assert_row_error(&got, &[e], Some(r), &sql);
                    return Ok(());
                }
            }
        }
        let column = got.unwrap_or_else(|e| panic!("{sql}: {e}"));
        prop_assert_eq!(ragged_rows_of(&column), expected, "{}", sql);
    }
}
