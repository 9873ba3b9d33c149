//! Variable-shape tensor interop: `arrow.variable_shape_tensor` columns written by pyarrow
//! (its C++ Parquet and IPC writers) read through SQL give numpy's values row by row, and
//! files written by `COPY ... TO` read in pyarrow as the extension with the same values.
//!
//! Expected values come from `tests/data/make_varshape_fixtures.py` (numpy), committed beside
//! the files it wrote.

use std::collections::HashMap;

use arrow::array::{Array, AsArray};
use arrow::datatypes::Int64Type;
use datafusion_tensor::VariableShapeType;
use serde_json::Value;

use crate::interop::{collect, context, leaves, parquet_arrow_schema};

const EXPECTED: &str = "tests/data/pyarrow_varshape.expected.json";

fn expected() -> HashMap<String, Value> {
    serde_json::from_str(&std::fs::read_to_string(EXPECTED).unwrap()).unwrap()
}

fn numbers(value: &Value) -> Vec<f64> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| match v {
            Value::Bool(b) => f64::from(u8::from(*b)),
            other => other.as_f64().unwrap(),
        })
        .collect()
}

/// Every column of the pyarrow file `table`, through SQL, against numpy's logical rows.
async fn check_varshape_table(table: &str) {
    let ctx = context();
    for (name, case) in expected() {
        let sql = format!(
            "SELECT tensor_to_list({name}) AS l, tensor_shape({name}) AS s, {name} AS t \
             FROM {table} ORDER BY id"
        );
        let batches = collect(&ctx, &sql).await;
        let batch = arrow::compute::concat_batches(&batches[0].schema(), &batches).unwrap();

        let tensor = VariableShapeType::from_field(batch.schema().field(2))
            .unwrap()
            .unwrap_or_else(|| panic!("{name}: not read as a variable-shape tensor"));
        let want_ndim = usize::try_from(case["ndim"].as_u64().unwrap()).unwrap();
        assert_eq!(tensor.ndim(), want_ndim, "{name}");
        // The type pyarrow wrote, written again as pyarrow writes it.
        let metadata: Value = serde_json::from_str(&tensor.metadata_json()).unwrap();
        assert_eq!(metadata, case["metadata"], "{name}");

        let lists = batch.column(0).as_list::<i32>();
        let shapes = batch.column(1).as_list::<i32>();
        let rows = case["rows"].as_array().unwrap();
        assert_eq!(lists.len(), rows.len(), "{name}");
        for (row, want) in rows.iter().enumerate() {
            if want.is_null() {
                assert!(lists.is_null(row), "{name} row {row} should be NULL");
                assert!(shapes.is_null(row), "{name} row {row} shape should be NULL");
                continue;
            }
            let got: Vec<f64> = leaves(&lists.value(row))
                .into_iter()
                .map(Option::unwrap)
                .collect();
            assert_eq!(got, numbers(&want["values"]), "{name} row {row}");
            let shape: Vec<f64> = shapes
                .value(row)
                .as_primitive::<Int64Type>()
                .values()
                .iter()
                .map(|&d| d as f64)
                .collect();
            assert_eq!(shape, numbers(&want["shape"]), "{name} row {row}");
        }
    }
}

#[tokio::test]
async fn pyarrow_parquet_reads_as_numpy_sees_it() {
    check_varshape_table("'tests/data/pyarrow_varshape.parquet'").await;
}

#[tokio::test]
async fn pyarrow_ipc_reads_as_numpy_sees_it() {
    check_varshape_table("'tests/data/pyarrow_varshape.arrow'").await;
}

/// Whether `python3` with numpy and pyarrow runs here (the checks that need it are skipped,
/// saying so, where it does not: `cargo test` needs no Python).
fn python_with_pyarrow() -> bool {
    std::process::Command::new("python3")
        .args(["-c", "import numpy, pyarrow"])
        .output()
        .is_ok_and(|out| out.status.success())
}

/// Runs `tests/data/check_varshape_in_pyarrow.py` on `path` with `columns` (`COLUMN=CASE`).
fn check_in_pyarrow(path: &std::path::Path, columns: &[&str]) {
    if !python_with_pyarrow() {
        eprintln!("python3 with numpy and pyarrow not found: pyarrow's read-back not checked");
        return;
    }
    let out = std::process::Command::new("python3")
        .arg("tests/data/check_varshape_in_pyarrow.py")
        .arg(path)
        .arg(EXPECTED)
        .args(columns)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "pyarrow's check failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Asserts that the Parquet file at `path` holds `names` as variable-shape tensor columns.
fn assert_variable_shape_columns(path: &std::path::Path, names: &[impl AsRef<str>]) {
    let schema = parquet_arrow_schema(path);
    for name in names {
        let name = name.as_ref();
        let field = schema.field_with_name(name).unwrap();
        assert!(
            VariableShapeType::from_field(field).unwrap().is_some(),
            "{name}: {field:?}"
        );
    }
}

#[tokio::test]
async fn copy_to_reads_back_in_pyarrow_as_the_extension() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("copy.parquet");
    let ctx = context();
    let names: Vec<String> = expected().into_keys().collect();
    collect(
        &ctx,
        &format!(
            "COPY (SELECT id, {} FROM 'tests/data/pyarrow_varshape.parquet') TO '{}' STORED AS PARQUET",
            names.join(", "),
            path.display()
        ),
    )
    .await;
    assert_variable_shape_columns(&path, &names);
    check_in_pyarrow(&path, &[]);
}

/// Columns this project builds (`tensor(values, shape)` with a shape column, its dim names
/// and permutation), written by `COPY ... TO`: pyarrow reads them as the extension, with the
/// metadata and values of the pyarrow columns they were rebuilt from.
#[tokio::test]
async fn built_columns_read_back_in_pyarrow() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("built.parquet");
    let ctx = context();
    collect(
        &ctx,
        &format!(
            "COPY (SELECT id, \
                tensor(get_field(f32, 'data'), get_field(f32, 'shape')) AS f32, \
                tensor(get_field(perm, 'data'), get_field(perm, 'shape'), ['C', 'H', 'W'], [2, 0, 1]) AS perm2, \
                tensor(get_field(f64, 'data'), get_field(f64, 'shape'), NULL, [1, 0]) AS f64 \
              FROM 'tests/data/pyarrow_varshape.parquet') TO '{}' STORED AS PARQUET",
            path.display()
        ),
    )
    .await;
    let schema = parquet_arrow_schema(&path);
    let metadata = |name: &str| {
        schema
            .field_with_name(name)
            .unwrap()
            .metadata()
            .get("ARROW:extension:metadata")
            .cloned()
    };
    // Exactly what Arrow C++ writes for these types (key order and all).
    assert_eq!(metadata("f32").as_deref(), Some("{}"));
    assert_eq!(
        metadata("perm2").as_deref(),
        Some(r#"{"permutation":[2,0,1],"dim_names":["C","H","W"]}"#)
    );
    assert_eq!(metadata("f64").as_deref(), Some(r#"{"permutation":[1,0]}"#));
    check_in_pyarrow(&path, &["f32=f32", "perm2=perm", "f64=f64"]);
}

/// Columns updated and chosen from in SQL (`tensor_at_*`, `tensor_choose`), written by
/// `COPY ... TO`: pyarrow reads them as the extension, each row its own shape and the metadata
/// of the columns they came from. The updates here leave the values as they were (a max with 0,
/// a choice between the column and itself), so the pyarrow columns' expected values apply.
#[tokio::test]
async fn updated_columns_read_back_in_pyarrow() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("updated.parquet");
    let ctx = context();
    collect(
        &ctx,
        &format!(
            "COPY (SELECT id, \
                tensor_at_max(img, '0', 0) AS img, \
                tensor_at_add(f32, '..., 0', 0.0) AS f32, \
                tensor_choose(i64, i64, i64, 'clip') AS i64 \
              FROM 'tests/data/pyarrow_varshape.parquet') TO '{}' STORED AS PARQUET",
            path.display()
        ),
    )
    .await;
    assert_variable_shape_columns(&path, &["img", "f32", "i64"]);
    check_in_pyarrow(&path, &["img=img", "f32=f32", "i64=i64"]);
}
