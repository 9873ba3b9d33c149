//! Parquet interop: files written by pyarrow read through SQL give numpy's values, and files
//! written by `COPY ... TO` carry exactly the metadata pyarrow reads as a tensor type.
//!
//! Expected values come from `tests/data/make_interop_fixtures.py` (numpy), committed beside
//! the Parquet files it wrote.

use std::collections::HashMap;
use std::fs::File;
use std::sync::Arc;

use arrow::array::{Array, ArrayRef, AsArray, Float64Array, RecordBatch};
use arrow::compute::cast;
use arrow::datatypes::DataType;
use datafusion::parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use datafusion::prelude::SessionContext;
use datafusion_tensor::{TensorType, tensor_session_context};
use serde_json::Value;

pub(crate) fn context() -> SessionContext {
    tensor_session_context().unwrap().enable_url_table()
}

pub(crate) async fn collect(ctx: &SessionContext, sql: &str) -> Vec<RecordBatch> {
    ctx.sql(sql)
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
        .collect()
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
}

/// The error `sql` fails with on `ctx` (when planned or run).
pub(crate) async fn error_of(ctx: &SessionContext, sql: &str) -> String {
    let result = match ctx.sql(sql).await {
        Ok(df) => df.collect().await.map(drop),
        Err(err) => Err(err),
    };
    match result {
        Ok(()) => panic!("{sql}: no error"),
        Err(err) => err.to_string(),
    }
}

/// The leaf values of a (nested) list, as f64 (booleans as 0/1), NULL elements as None.
pub(crate) fn leaves(array: &ArrayRef) -> Vec<Option<f64>> {
    match array.data_type() {
        DataType::List(_) => {
            // Only the values this (possibly sliced) list covers.
            let list = array.as_list::<i32>();
            let offsets = list.value_offsets();
            let start = usize::try_from(offsets[0]).unwrap();
            let end = usize::try_from(offsets[list.len()]).unwrap();
            leaves(&list.values().slice(start, end - start))
        }
        DataType::Boolean => {
            let values = cast(array, &DataType::UInt8).unwrap();
            leaves(&values)
        }
        _ => {
            let values = cast(array, &DataType::Float64).unwrap();
            let values = values.as_any().downcast_ref::<Float64Array>().unwrap();
            values.iter().collect()
        }
    }
}

fn expected_rows(case: &Value) -> Vec<Option<Vec<f64>>> {
    case["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| {
            row.as_array().map(|values| {
                values
                    .iter()
                    .map(|v| match v {
                        Value::Bool(b) => f64::from(u8::from(*b)),
                        other => other.as_f64().unwrap(),
                    })
                    .collect()
            })
        })
        .collect()
}

fn usizes(value: &Value) -> Vec<usize> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| usize::try_from(v.as_u64().unwrap()).unwrap())
        .collect()
}

/// Every column of a pyarrow file, through SQL, against numpy's logical values.
async fn check_pyarrow_file(stem: &str, extension: &str) {
    let path = format!("'tests/data/{stem}.{extension}'");
    check_pyarrow_table(&context(), stem, &path, 1).await;
}

/// Every column of the pyarrow file `stem` read from `table` (the file, or a table of
/// `copies` copies of it), through SQL on `ctx`, against numpy's logical values.
pub(crate) async fn check_pyarrow_table(
    ctx: &SessionContext,
    stem: &str,
    table: &str,
    copies: usize,
) {
    let expected: HashMap<String, Value> = serde_json::from_str(
        &std::fs::read_to_string(format!("tests/data/{stem}.expected.json")).unwrap(),
    )
    .unwrap();
    for (name, case) in &expected {
        let sql = format!(
            "SELECT tensor_to_list({name}) AS l, tensor_shape({name}) AS s, {name} AS t \
             FROM {table} ORDER BY id"
        );
        let batches = collect(ctx, &sql).await;
        let batch = arrow::compute::concat_batches(&batches[0].schema(), &batches).unwrap();

        // The column's type, read from the field metadata pyarrow wrote.
        let tensor = TensorType::from_field(batch.schema().field(2))
            .unwrap()
            .unwrap();
        assert_eq!(
            tensor.physical_shape(),
            usizes(&case["physical_shape"]),
            "{name}"
        );
        assert_eq!(
            tensor.logical_shape(),
            usizes(&case["logical_shape"]),
            "{name}"
        );
        let dim_names = case["dim_names"].as_array().map(|names| {
            names
                .iter()
                .map(|n| n.as_str().unwrap().to_string())
                .collect()
        });
        assert_eq!(
            tensor.dim_names().map(<[String]>::to_vec),
            dim_names,
            "{name}"
        );

        // Rows of equal id (one per copy) are equal: ORDER BY id puts the copies together.
        let rows: Vec<Option<Vec<f64>>> = expected_rows(case)
            .into_iter()
            .flat_map(|row| std::iter::repeat_n(row, copies))
            .collect();
        let lists = batch.column(0);
        let shapes = batch.column(1).as_list::<i32>();
        assert_eq!(lists.len(), rows.len(), "{name}");
        for (row, want) in rows.iter().enumerate() {
            match want {
                None => {
                    assert!(lists.is_null(row), "{name} row {row} should be NULL");
                    assert!(shapes.is_null(row), "{name} row {row} shape should be NULL");
                }
                Some(want) => {
                    let got = if tensor.ndim() == 0 {
                        leaves(&lists.slice(row, 1))
                    } else {
                        leaves(&lists.as_list::<i32>().value(row))
                    };
                    let got: Vec<f64> = got.into_iter().map(|v| v.unwrap()).collect();
                    assert_eq!(&got, want, "{name} row {row}");
                    let shape: Vec<usize> = shapes
                        .value(row)
                        .as_primitive::<arrow::datatypes::Int64Type>()
                        .values()
                        .iter()
                        .map(|&d| usize::try_from(d).unwrap())
                        .collect();
                    assert_eq!(shape, usizes(&case["logical_shape"]), "{name} row {row}");
                }
            }
        }
    }
}

#[tokio::test]
async fn pyarrow_files_read_as_numpy_sees_them() {
    check_pyarrow_file("pyarrow_tensors", "parquet").await;
}

#[tokio::test]
async fn pyarrow_zero_size_dimension() {
    check_pyarrow_file("pyarrow_empty_dim", "arrow").await;
}

/// pyarrow 26 writes a size-0 FixedSizeList to Parquet with one element per row; neither
/// pyarrow nor arrow-rs reads it back. The query fails with the reader's error, no panic.
#[tokio::test]
async fn pyarrow_zero_size_parquet_is_a_clean_error() {
    let ctx = context();
    let sql = "SELECT tensor_shape(empty) FROM 'tests/data/pyarrow_empty_dim.parquet'";
    let err = error_of(&ctx, sql).await;
    assert!(err.contains("misaligned row"), "{err}");
}

/// The Arrow schema a Parquet file carries, as the parquet crate reads it.
pub(crate) fn parquet_arrow_schema(path: &std::path::Path) -> arrow::datatypes::SchemaRef {
    let file = File::open(path).unwrap();
    Arc::clone(
        ParquetRecordBatchReaderBuilder::try_new(file)
            .unwrap()
            .schema(),
    )
}

#[tokio::test]
async fn copy_to_writes_the_canonical_metadata() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.parquet");
    let ctx = context();
    let copy = format!(
        "COPY (SELECT id, \
                tensor(range(id * 6, id * 6 + 6), [2, 3], ['row', 'col']) AS x, \
                tensor(arrow_cast(range(0, 24), 'List(Float32)'), [2, 3, 4], NULL, [2, 0, 1]) AS p, \
                tensor([id % 2 = 0], []) AS z \
              FROM generate_series(0, 3) AS g(id)) \
         TO '{}' STORED AS PARQUET",
        path.display()
    );
    collect(&ctx, &copy).await;

    let schema = parquet_arrow_schema(&path);
    let expect = [
        (
            "x",
            r#"{"shape":[2,3],"dim_names":["row","col"]}"#,
            "Int64",
            6,
        ),
        (
            "p",
            r#"{"shape":[2,3,4],"permutation":[2,0,1]}"#,
            "Float32",
            24,
        ),
        ("z", r#"{"shape":[]}"#, "Boolean", 1),
    ];
    for (name, json, element, size) in expect {
        let field = schema.field_with_name(name).unwrap();
        assert_eq!(
            field
                .metadata()
                .get("ARROW:extension:name")
                .map(String::as_str),
            Some("arrow.fixed_shape_tensor"),
            "{name}"
        );
        assert_eq!(
            field
                .metadata()
                .get("ARROW:extension:metadata")
                .map(String::as_str),
            Some(json),
            "{name}"
        );
        let DataType::FixedSizeList(item, list_size) = field.data_type() else {
            panic!("{name}: {}", field.data_type());
        };
        assert!(item.is_nullable(), "{name}: pyarrow needs a nullable child");
        assert_eq!(item.data_type().to_string(), element, "{name}");
        assert_eq!(*list_size, size, "{name}");
    }

    // And back through SQL, values intact.
    let sql = format!(
        "SELECT tensor_to_list(x) AS l FROM '{}' ORDER BY id",
        path.display()
    );
    let batches = collect(&ctx, &sql).await;
    let got: Vec<f64> = batches
        .iter()
        .flat_map(|b| leaves(b.column(0)))
        .map(Option::unwrap)
        .collect();
    let want: Vec<f64> = (0..24).map(f64::from).collect();
    assert_eq!(got, want);
}

#[tokio::test]
async fn display_is_nested_in_dataframe_to_string() {
    let ctx = context();
    let text = ctx
        .sql(
            "SELECT tensor([1, 2, 3, 4, 5, 6], [2, 3]) AS t, \
                    tensor(range(24), [2, 3, 4], NULL, [2, 0, 1]) AS p",
        )
        .await
        .unwrap()
        .to_string()
        .await
        .unwrap();
    assert!(text.contains("[[1, 2, 3], [4, 5, 6]]"), "{text}");
    // np.arange(24).reshape(2, 3, 4).transpose(2, 0, 1).tolist()
    assert!(
        text.contains(
            "[[[0, 4, 8], [12, 16, 20]], [[1, 5, 9], [13, 17, 21]], [[2, 6, 10], [14, 18, 22]], [[3, 7, 11], [15, 19, 23]]]"
        ),
        "{text}"
    );
}

/// Every function `information_schema.routines` lists. `tensor_choose`, `tensor_concatenate`,
/// `tensor_stack` (and the other joins), `tensor_meshgrid`, `tensor_at_apply` and `tensor_map`
/// are registered as higher-order functions
/// (see `udf/variadic.rs`, `udf/at_apply.rs`), which DataFusion 55's `information_schema` does
/// not list.
const DOCUMENTED: &[&str] = &[
    "tensor",
    "tensor_abs",
    "tensor_acos",
    "tensor_acosh",
    "tensor_add",
    "tensor_agg_corrcoef",
    "tensor_agg_cov",
    "tensor_agg_max",
    "tensor_agg_mean",
    "tensor_agg_min",
    "tensor_agg_prod",
    "tensor_agg_stack",
    "tensor_agg_std",
    "tensor_agg_sum",
    "tensor_agg_var",
    "tensor_all",
    "tensor_any",
    "tensor_arange",
    "tensor_arccos",
    "tensor_arccosh",
    "tensor_arcsin",
    "tensor_arcsinh",
    "tensor_arctan",
    "tensor_arctan2",
    "tensor_arctanh",
    "tensor_argmax",
    "tensor_argmin",
    "tensor_argpartition",
    "tensor_argsort",
    "tensor_array_split",
    "tensor_ascontiguousarray",
    "tensor_asin",
    "tensor_asinh",
    "tensor_astype",
    "tensor_at_add",
    "tensor_at_divide",
    "tensor_at_get",
    "tensor_at_max",
    "tensor_at_min",
    "tensor_at_multiply",
    "tensor_at_power",
    "tensor_at_set",
    "tensor_at_subtract",
    "tensor_atan",
    "tensor_atan2",
    "tensor_atanh",
    "tensor_bincount",
    "tensor_bitwise_and",
    "tensor_bitwise_invert",
    "tensor_bitwise_left_shift",
    "tensor_bitwise_or",
    "tensor_bitwise_right_shift",
    "tensor_bitwise_xor",
    "tensor_broadcast_arrays",
    "tensor_broadcast_to",
    "tensor_ceil",
    "tensor_cholesky",
    "tensor_clip",
    "tensor_copysign",
    "tensor_cos",
    "tensor_cosh",
    "tensor_cosine_distance",
    "tensor_cosine_similarity",
    "tensor_count_nonzero",
    "tensor_cross",
    "tensor_cumprod",
    "tensor_cumsum",
    "tensor_cumulative_prod",
    "tensor_cumulative_sum",
    "tensor_det",
    "tensor_diagonal",
    "tensor_diff",
    "tensor_divide",
    "tensor_divmod",
    "tensor_dot",
    "tensor_eig",
    "tensor_eigh",
    "tensor_eigvals",
    "tensor_eigvalsh",
    "tensor_einsum",
    "tensor_equal",
    "tensor_exp",
    "tensor_expand_dims",
    "tensor_expm1",
    "tensor_eye",
    "tensor_flatten",
    "tensor_flip",
    "tensor_float_power",
    "tensor_floor",
    "tensor_floor_divide",
    "tensor_fmod",
    "tensor_full",
    "tensor_full_like",
    "tensor_get",
    "tensor_greater",
    "tensor_greater_equal",
    "tensor_hypot",
    "tensor_inner",
    "tensor_inner_product",
    "tensor_inv",
    "tensor_invert",
    "tensor_isfinite",
    "tensor_isinf",
    "tensor_isnan",
    "tensor_kron",
    "tensor_l2_distance",
    "tensor_left_shift",
    "tensor_less",
    "tensor_less_equal",
    "tensor_linspace",
    "tensor_log",
    "tensor_log10",
    "tensor_log1p",
    "tensor_log2",
    "tensor_logaddexp",
    "tensor_logaddexp2",
    "tensor_logical_and",
    "tensor_logical_not",
    "tensor_logical_or",
    "tensor_logical_xor",
    "tensor_lstsq",
    "tensor_matmul",
    "tensor_matrix_norm",
    "tensor_matrix_power",
    "tensor_matrix_rank",
    "tensor_matrix_transpose",
    "tensor_max",
    "tensor_maximum",
    "tensor_mean",
    "tensor_min",
    "tensor_minimum",
    "tensor_mod",
    "tensor_moveaxis",
    "tensor_multiply",
    "tensor_nanargmax",
    "tensor_nanargmin",
    "tensor_nanmax",
    "tensor_nanmean",
    "tensor_nanmin",
    "tensor_nanprod",
    "tensor_nanstd",
    "tensor_nansum",
    "tensor_nanvar",
    "tensor_ndim",
    "tensor_negative",
    "tensor_nextafter",
    "tensor_nonzero",
    "tensor_norm",
    "tensor_not_equal",
    "tensor_one_hot",
    "tensor_ones",
    "tensor_ones_like",
    "tensor_outer",
    "tensor_pad",
    "tensor_permute_dims",
    "tensor_pinv",
    "tensor_positive",
    "tensor_pow",
    "tensor_power",
    "tensor_prod",
    "tensor_ptp",
    "tensor_put_along_axis",
    "tensor_qr",
    "tensor_reciprocal",
    "tensor_remainder",
    "tensor_repeat",
    "tensor_reshape",
    "tensor_right_shift",
    "tensor_rint",
    "tensor_roll",
    "tensor_round",
    "tensor_searchsorted",
    "tensor_shape",
    "tensor_sign",
    "tensor_signbit",
    "tensor_sin",
    "tensor_sinh",
    "tensor_size",
    "tensor_slogdet",
    "tensor_solve",
    "tensor_sort",
    "tensor_split",
    "tensor_sqrt",
    "tensor_square",
    "tensor_squeeze",
    "tensor_std",
    "tensor_subtract",
    "tensor_sum",
    "tensor_svd",
    "tensor_svdvals",
    "tensor_swapaxes",
    "tensor_take",
    "tensor_take_along_axis",
    "tensor_tan",
    "tensor_tanh",
    "tensor_tensordot",
    "tensor_tile",
    "tensor_to_fixed",
    "tensor_to_list",
    "tensor_to_string",
    "tensor_to_variable",
    "tensor_topk",
    "tensor_trace",
    "tensor_transpose",
    "tensor_tril",
    "tensor_triu",
    "tensor_trunc",
    "tensor_type",
    "tensor_typed",
    "tensor_unique_all",
    "tensor_unique_counts",
    "tensor_unique_inverse",
    "tensor_unique_values",
    "tensor_unstack",
    "tensor_var",
    "tensor_vecdot",
    "tensor_vector_norm",
    "tensor_where",
    "tensor_zeros",
    "tensor_zeros_like",
];

#[tokio::test]
async fn functions_are_documented_in_information_schema() {
    let ctx = context();
    let batches = collect(
        &ctx,
        "SELECT DISTINCT routine_name FROM information_schema.routines \
         WHERE routine_name LIKE 'tensor%' ORDER BY routine_name",
    )
    .await;
    let names: Vec<String> = batches
        .iter()
        .flat_map(|b| {
            let column = cast(b.column(0), &DataType::Utf8).unwrap();
            column
                .as_string::<i32>()
                .iter()
                .map(|v| v.unwrap().to_string())
                .collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(names, DOCUMENTED);
}

/// A tensor column whose metadata lies, from an embedder's in-memory table (no file to name):
/// the error names the function and the argument.
#[tokio::test]
async fn invalid_metadata_in_memory_names_function_and_argument() {
    use arrow::array::{FixedSizeListArray, Float32Array};
    use arrow::datatypes::{Field, Schema};
    use datafusion::datasource::MemTable;

    let item = Arc::new(Field::new("item", DataType::Float32, true));
    let values = FixedSizeListArray::new(
        Arc::clone(&item),
        4,
        Arc::new(Float32Array::from(vec![0.0_f32, 1.0, 2.0, 3.0])),
        None,
    );
    let field =
        Field::new("x", DataType::FixedSizeList(item, 4), true).with_metadata(HashMap::from([
            (
                "ARROW:extension:name".to_string(),
                "arrow.fixed_shape_tensor".to_string(),
            ),
            (
                "ARROW:extension:metadata".to_string(),
                r#"{"shape":[3,3]}"#.to_string(),
            ),
        ]));
    let schema = Arc::new(Schema::new(vec![field]));
    let batch = RecordBatch::try_new(Arc::clone(&schema), vec![Arc::new(values)]).unwrap();
    let ctx = context();
    ctx.register_table(
        "t",
        Arc::new(MemTable::try_new(schema, vec![vec![batch]]).unwrap()),
    )
    .unwrap();
    for (sql, function) in [
        ("SELECT tensor_get(x, '0') FROM t", "tensor_get"),
        ("SELECT tensor_choose(0, x, x) FROM t", "tensor_choose"),
        ("SELECT tensor_at_add(x, 0, 1) FROM t", "tensor_at_add"),
    ] {
        let err = match ctx.sql(sql).await {
            Ok(df) => df.collect().await.unwrap_err(),
            Err(err) => err,
        }
        .to_string();
        assert!(
            err.contains(&format!(
                "{function}: argument 'x': arrow.fixed_shape_tensor shape (3, 3) has 9 elements but the column's FixedSizeList holds 4"
            )),
            "{sql}: {err}"
        );
    }
}

/// Plain `SessionContext::sql` (no SQL rewrite): a union of layouts in a `FROM` clause is
/// planned with one type (the relation planner), and a top-level union runs with one (the
/// analyzer rule): every row as written (numpy: `a` and `a.T` for a = [[1, 2], [3, 4]]).
#[tokio::test]
async fn unions_of_layouts_through_plain_sql() {
    let ctx = context();
    let batches = collect(
        &ctx,
        "SELECT r, tensor_to_list(v) AS l FROM (SELECT 1 AS r, tensor([1, 2, 3, 4], [2, 2]) AS v \
         UNION ALL SELECT 2, tensor_transpose(tensor([1, 2, 3, 4], [2, 2]))) AS w ORDER BY r",
    )
    .await;
    let text = arrow::util::pretty::pretty_format_batches(&batches)
        .unwrap()
        .to_string();
    assert!(text.contains("| 1 | [[1, 2], [3, 4]] |"), "{text}");
    assert!(text.contains("| 2 | [[1, 3], [2, 4]] |"), "{text}");

    let batches = collect(
        &ctx,
        "SELECT tensor([1, 2, 3, 4], [2, 2]) AS v \
         UNION ALL SELECT tensor_transpose(tensor([1, 2, 3, 4], [2, 2]))",
    )
    .await;
    let mut rows = Vec::new();
    for batch in &batches {
        let field = batch.schema().field(0).clone();
        let tensor = TensorType::from_field(&field).unwrap().unwrap();
        assert_eq!(tensor.physical_shape(), &[2, 2]);
        assert!(!tensor.is_permuted(), "{tensor}");
        let list = batch.column(0).as_fixed_size_list();
        for row in 0..list.len() {
            let values = cast(&list.value(row), &DataType::Int64).unwrap();
            rows.push(
                values
                    .as_primitive::<arrow::datatypes::Int64Type>()
                    .values()
                    .to_vec(),
            );
        }
    }
    rows.sort();
    assert_eq!(rows, vec![vec![1, 2, 3, 4], vec![1, 3, 2, 4]]);
}
