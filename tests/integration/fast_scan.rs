//! The tensor-column Parquet reader (`src/parquet/fast/`) against arrow-rs's own reader.
//!
//! Each file is written by arrow-rs's `ArrowWriter` (several row groups, small pages, with and
//! without dictionaries, page format v1 and v2, compressed); the expected values are the file
//! read back by arrow-rs's `ParquetRecordBatchReader`. The scan's metrics say how many row
//! groups the fast reader read and how many it handed back to DataFusion's reader, so each
//! case also checks which path ran.

use std::sync::Arc;

use arrow::array::{
    Array, ArrayRef, AsArray, BooleanArray, FixedSizeListArray, Float16Array, Float32Array,
    Float64Array, Int8Array, Int16Array, Int32Array, Int64Array, RecordBatch, UInt8Array,
    UInt16Array, UInt32Array, UInt64Array,
};
use arrow::buffer::NullBuffer;
use arrow::compute::concat_batches;
use arrow::datatypes::{DataType, Field, Schema};
use datafusion::execution::context::SessionContext;
use datafusion::parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use datafusion::parquet::arrow::{ArrowSchemaConverter, ArrowWriter};
use datafusion::parquet::basic::{Compression, Encoding, ZstdLevel};
use datafusion::parquet::file::properties::{WriterProperties, WriterVersion};
use datafusion::physical_plan::{ExecutionPlan, collect};
use datafusion::prelude::{ParquetReadOptions, SessionConfig};
use datafusion_tensor::{
    TensorOptions, TensorParquetFormatFactory, TensorSql, tensor_session_context_with_config,
};
use futures::FutureExt;

mod balance;
mod hostile;
mod mapped;

const ROWS: usize = 3500;
const GROUP_ROWS: usize = 1000;

fn list(values: ArrayRef, size: i32, nullable_child: bool, nulls: Option<NullBuffer>) -> ArrayRef {
    let child = Arc::new(Field::new(
        "item",
        values.data_type().clone(),
        nullable_child,
    ));
    Arc::new(FixedSizeListArray::new(child, size, values, nulls))
}

/// `n` rows of `size` float32 elements `(row * size + i) % 50 / 4` (few distinct values, so
/// dictionary pages stay dictionary-encoded), optionally NULL at the given rows and elements.
fn f32_tensors(size: usize, null_rows: &[usize], null_elements: &[usize]) -> ArrayRef {
    let values: Float32Array = (0..ROWS * size)
        .map(|i| (!null_elements.contains(&i)).then_some((i % 50) as f32 / 4.0))
        .collect();
    let nulls =
        (!null_rows.is_empty()).then(|| (0..ROWS).map(|row| !null_rows.contains(&row)).collect());
    list(Arc::new(values), size as i32, true, nulls)
}

fn properties(
    version: WriterVersion,
    compression: Compression,
    dictionary: bool,
) -> WriterProperties {
    WriterProperties::builder()
        .set_writer_version(version)
        .set_compression(compression)
        .set_dictionary_enabled(dictionary)
        .set_max_row_group_row_count(Some(GROUP_ROWS))
        .set_data_page_row_count_limit(100)
        .set_write_batch_size(50)
        .build()
}

fn write(
    dir: &tempfile::TempDir,
    name: &str,
    batch: &RecordBatch,
    props: WriterProperties,
) -> String {
    let path = dir.path().join(name);
    let file = std::fs::File::create(&path).unwrap();
    let mut writer = ArrowWriter::try_new(file, batch.schema(), Some(props)).unwrap();
    writer.write(batch).unwrap();
    writer.close().unwrap();
    path.to_str().unwrap().to_string()
}

/// The whole file as arrow-rs reads it.
fn arrow_rs_read(path: &str) -> RecordBatch {
    let reader = ParquetRecordBatchReaderBuilder::try_new(std::fs::File::open(path).unwrap())
        .unwrap()
        .build()
        .unwrap();
    let batches: Vec<RecordBatch> = reader.map(Result::unwrap).collect();
    concat_batches(&batches[0].schema(), &batches).unwrap()
}

fn context(partitions: usize) -> SessionContext {
    context_with_batch(partitions, 8192)
}

fn context_with_batch(partitions: usize, batch_size: usize) -> SessionContext {
    let mut config = SessionConfig::new()
        .with_target_partitions(partitions)
        .with_batch_size(batch_size);
    // Split even these small files into one byte range per partition.
    config.options_mut().optimizer.repartition_file_min_size = 1;
    tensor_session_context_with_config(config)
        .unwrap()
        .enable_url_table()
}

/// `ctx` with `pushdown_filters` on: filters applied in the scan (late materialisation).
fn pushed_down(ctx: SessionContext) -> SessionContext {
    ctx.state_ref()
        .write()
        .config_mut()
        .options_mut()
        .execution
        .parquet
        .pushdown_filters = true;
    ctx
}

/// The plan's Parquet scan's count of row groups read by the fast reader and read again by
/// DataFusion's (0 when the scan never used the fast reader).
pub(crate) fn row_groups(plan: &Arc<dyn ExecutionPlan>) -> (usize, usize) {
    if plan.name() == "DataSourceExec" {
        let metrics = plan.metrics().unwrap_or_default();
        let count = |name| metrics.sum_by_name(name).map_or(0, |v| v.as_usize());
        return (
            count("tensor_row_groups_fast"),
            count("tensor_row_groups_fallback"),
        );
    }
    plan.children()
        .into_iter()
        .map(row_groups)
        .fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
}

/// The query's physical plan.
async fn planned(ctx: &SessionContext, sql: &str) -> Arc<dyn ExecutionPlan> {
    ctx.sql(sql)
        .await
        .unwrap()
        .create_physical_plan()
        .await
        .unwrap()
}

/// The result of `plan` (of `sql`, named when it fails) as one batch.
async fn ran(ctx: &SessionContext, plan: &Arc<dyn ExecutionPlan>, sql: &str) -> RecordBatch {
    let batches = collect(Arc::clone(plan), ctx.task_ctx())
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"));
    concat_batches(&plan.schema(), &batches).unwrap()
}

/// The query's result (one batch) and the scan's row-group counts.
async fn query(ctx: &SessionContext, sql: &str) -> (RecordBatch, (usize, usize)) {
    let plan = planned(ctx, sql).await;
    (ran(ctx, &plan, sql).await, row_groups(&plan))
}

fn assert_columns(got: &RecordBatch, expected: &RecordBatch, columns: &[&str]) {
    assert_eq!(got.num_columns(), columns.len());
    for (i, name) in columns.iter().enumerate() {
        let want = expected.column_by_name(name).unwrap();
        assert_eq!(got.column(i).data_type(), want.data_type(), "column {name}");
        assert_eq!(got.column(i).as_ref(), want.as_ref(), "column {name}");
    }
}

fn table(columns: Vec<(&str, ArrayRef)>) -> RecordBatch {
    let fields: Vec<Field> = columns
        .iter()
        .map(|(name, array)| Field::new(*name, array.data_type().clone(), true))
        .collect();
    RecordBatch::try_new(
        Arc::new(Schema::new(fields)),
        columns.into_iter().map(|(_, a)| a).collect(),
    )
    .unwrap()
}

#[tokio::test]
async fn full_tensors_are_read_fast_and_equal_arrow_rs() {
    let dir = tempfile::tempdir().unwrap();
    let batch = table(vec![
        ("id", Arc::new(Int64Array::from_iter_values(0..ROWS as i64))),
        ("x", f32_tensors(16, &[], &[])),
    ]);
    for (name, props) in [
        (
            "v1_dict.parquet",
            properties(WriterVersion::PARQUET_1_0, Compression::SNAPPY, true),
        ),
        (
            "v1_plain.parquet",
            properties(WriterVersion::PARQUET_1_0, Compression::UNCOMPRESSED, false),
        ),
        (
            "v2_dict.parquet",
            properties(
                WriterVersion::PARQUET_2_0,
                Compression::ZSTD(ZstdLevel::default()),
                true,
            ),
        ),
    ] {
        let path = write(&dir, name, &batch, props);
        let expected = arrow_rs_read(&path);
        let (got, groups) = query(&context(1), &format!("SELECT x FROM '{path}'")).await;
        assert_columns(&got, &expected, &["x"]);
        assert_eq!(groups, (4, 0), "{name}");
        // A column named twice, in another order than the file's, in batches smaller than a
        // row group.
        let (got, groups) = query(
            &context_with_batch(1, 300),
            &format!("SELECT x, x AS y FROM '{path}'"),
        )
        .await;
        assert_columns(&got, &expected, &["x", "x"]);
        assert_eq!(groups, (4, 0), "{name}");
    }
}

/// The session setting `tensor.fast_parquet = false` leaves every scan to DataFusion's reader
/// (same values, no row group read here), set by `SET` under either name or in the session's
/// configuration; `RESET` brings the fast reader back. A session whose configuration lacks the
/// setting (one `register_all` did not see) reads fast.
#[tokio::test]
async fn the_session_setting_turns_the_fast_reader_off() {
    let dir = tempfile::tempdir().unwrap();
    let props = properties(WriterVersion::PARQUET_1_0, Compression::SNAPPY, true);
    let tensors = table(vec![("x", f32_tensors(4, &[], &[]))]);
    let path = write(&dir, "setting.parquet", &tensors, props);
    let expected = arrow_rs_read(&path);
    let sql = format!("SELECT x FROM '{path}'");
    let run = |ctx: SessionContext, statement: &'static str| {
        let sql = sql.clone();
        let expected = expected.clone();
        async move {
            if !statement.is_empty() {
                ctx.tensor_sql(statement)
                    .await
                    .unwrap()
                    .collect()
                    .await
                    .unwrap();
            }
            let (got, groups) = query(&ctx, &sql).await;
            assert_columns(&got, &expected, &["x"]);
            groups
        }
    };
    assert_eq!(run(context(2), "").await, (4, 0));
    let off = (0, 0);
    assert_eq!(
        run(context(2), "SET tensor.fast_parquet = false").await,
        off
    );
    assert_eq!(
        run(context(2), "SET datafusion.tensor.fast_parquet = FALSE").await,
        off
    );
    let ctx = context(2);
    ctx.sql("SET tensor.fast_parquet = false").await.unwrap();
    assert_eq!(run(ctx.clone(), "RESET tensor.fast_parquet").await, (4, 0));

    let mut config = SessionConfig::new().with_option_extension(TensorOptions::default());
    config
        .options_mut()
        .set("tensor.fast_parquet", "false")
        .unwrap();
    let ctx = tensor_session_context_with_config(config)
        .unwrap()
        .enable_url_table();
    assert_eq!(run(ctx, "").await, off);

    // The format registered by hand on a session without the extension.
    let ctx = SessionContext::new_with_config(
        SessionConfig::new().set_bool("datafusion.execution.parquet.skip_metadata", false),
    );
    ctx.state_ref()
        .write()
        .register_file_format(Arc::new(TensorParquetFormatFactory::new()), true)
        .unwrap();
    assert!(
        ctx.state()
            .config()
            .options()
            .extensions
            .get::<TensorOptions>()
            .is_none()
    );
    let ctx = ctx.enable_url_table();
    assert_eq!(run(ctx, "").await, (4, 0));
}

#[tokio::test]
async fn row_groups_with_nulls_are_read_by_datafusion() {
    let dir = tempfile::tempdir().unwrap();
    // A NULL tensor in row group 1, a NULL element in row group 3.
    let batch = table(vec![("x", f32_tensors(4, &[1500], &[4 * 3200 + 2]))]);
    let path = write(
        &dir,
        "nulls.parquet",
        &batch,
        properties(WriterVersion::PARQUET_1_0, Compression::SNAPPY, true),
    );
    let expected = arrow_rs_read(&path);
    let (got, groups) = query(&context(1), &format!("SELECT x FROM '{path}'")).await;
    assert_columns(&got, &expected, &["x"]);
    assert_eq!(groups, (2, 2));
    assert_eq!(got.column(0).null_count(), 1);
}

/// A row group is read a batch at a time: a NULL found after batches of it were given hands the
/// rest of it (from the first row not given) to DataFusion's reader, with no row lost or given
/// twice, whichever way its rows are chosen (all, a predicate's, late materialisation's, a
/// limit's).
#[tokio::test]
async fn a_null_found_after_batches_were_given_hands_the_rest_over() {
    let dir = tempfile::tempdir().unwrap();
    // A NULL tensor at row 850 of row group 1, a NULL element at row 200 of row group 3.
    let batch = table(vec![
        ("id", Arc::new(Int64Array::from_iter_values(0..ROWS as i64))),
        (
            "label",
            Arc::new(Int32Array::from_iter_values(
                (0..ROWS as i32).map(|v| v % 10),
            )),
        ),
        ("x", f32_tensors(16, &[1850], &[16 * 3200 + 3])),
    ]);
    for (name, props) in [
        (
            "v1.parquet",
            properties(WriterVersion::PARQUET_1_0, Compression::SNAPPY, true),
        ),
        (
            "v2.parquet",
            properties(WriterVersion::PARQUET_2_0, Compression::UNCOMPRESSED, false),
        ),
    ] {
        let path = write(&dir, name, &batch, props);
        let reference = context(1);
        reference
            .register_parquet("t", &path, ParquetReadOptions::default())
            .await
            .unwrap();
        // (query, whether filters are pushed down, row groups read here and handed over)
        let cases = [
            ("SELECT id, x FROM {t}", false, (2, 2)),
            ("SELECT x, id FROM {t} WHERE id % 3 = 0", false, (2, 2)),
            ("SELECT x, id FROM {t} WHERE label = 3", true, (2, 2)),
            (
                "SELECT x FROM {t} WHERE label < 8 AND id > 1500",
                true,
                (1, 2),
            ),
            ("SELECT x, label FROM {t} LIMIT 1900", false, (1, 1)),
        ];
        for (sql, pushdown, groups) in cases {
            let expected = collected(&reference, &sql.replace("{t}", "t")).await;
            let ctx = context_with_batch(1, 128);
            let ctx = if pushdown { pushed_down(ctx) } else { ctx };
            let (got, got_groups) = query(&ctx, &sql.replace("{t}", &format!("'{path}'"))).await;
            assert_eq!(got.columns(), expected.columns(), "{name}: {sql}");
            assert_eq!(got_groups, groups, "{name}: {sql}");
        }
    }
}

/// What the reader holds while it reads a row group (its fetched column chunks) is counted in
/// the session's memory pool: a pool too small for one fetched row group fails the query with
/// DataFusion's "Resources exhausted" instead of growing past it; one large enough reads it.
#[tokio::test]
async fn a_memory_pool_too_small_for_a_row_group_fails_the_query() {
    use datafusion::execution::runtime_env::RuntimeEnvBuilder;
    let dir = tempfile::tempdir().unwrap();
    let batch = table(vec![("x", f32_tensors(64, &[], &[]))]);
    // Row groups of 1000 rows of 64 float32s, uncompressed and plain: 256 KB of values each.
    let path = write(
        &dir,
        "large_groups.parquet",
        &batch,
        properties(WriterVersion::PARQUET_1_0, Compression::UNCOMPRESSED, false),
    );
    let limited = |bytes: usize| {
        let runtime = RuntimeEnvBuilder::new()
            .with_memory_limit(bytes, 1.0)
            .build_arc()
            .unwrap();
        let mut config = SessionConfig::new().with_target_partitions(1);
        config.options_mut().execution.parquet.skip_metadata = false;
        let ctx = SessionContext::new_with_config_rt(config, runtime);
        datafusion_tensor::register_all(&ctx).unwrap();
        ctx.enable_url_table()
    };
    let sql = format!("SELECT sum(tensor_get(x, '3')) AS s FROM '{path}'");
    let fetching = |bytes: usize| async move {
        let ctx = limited(bytes);
        ctx.sql("SET tensor.map_files = false").await.unwrap();
        ctx
    };
    let err = crate::interop::error_of(&fetching(64 * 1024).await, &sql).await;
    assert!(err.contains("Resources exhausted"), "{err}");
    assert!(err.contains("TensorParquetScan"), "{err}");
    let (got, groups) = query(&fetching(64 << 20).await, &sql).await;
    assert_eq!(groups, (4, 0));
    // Mapped into memory (the default for a local file), the column chunks are the page
    // cache's, not the process's: the small pool reads the same rows.
    let (mapped, groups) = query(&limited(64 * 1024), &sql).await;
    assert_eq!(groups, (4, 0));
    assert_eq!(mapped, got);
    let expected = (0..ROWS)
        .map(|row| ((row * 64 + 3) % 50) as f64 / 4.0)
        .sum::<f64>();
    let sum = got
        .column(0)
        .as_primitive::<arrow::datatypes::Float64Type>()
        .value(0);
    assert!(
        (sum - expected).abs() < 1e-9 * expected,
        "{sum} against {expected}"
    );
}

#[tokio::test]
async fn every_element_type_and_page_format() {
    let dir = tempfile::tempdir().unwrap();
    let n = ROWS as i64;
    let batch = table(vec![
        (
            "i",
            list(
                Arc::new(Int32Array::from_iter_values(
                    (0..n * 4).map(|v| (v % 97) as i32 - 40),
                )),
                4,
                true,
                None,
            ),
        ),
        (
            "l",
            list(
                Arc::new(Int64Array::from_iter_values(
                    (0..n * 2).map(|v| v * 1_000_000_007),
                )),
                2,
                false,
                None,
            ),
        ),
        (
            "d",
            list(
                Arc::new(Float64Array::from_iter_values(
                    (0..n * 3).map(|v| v as f64 / 3.0),
                )),
                3,
                true,
                None,
            ),
        ),
        (
            "one",
            list(
                Arc::new(Float32Array::from_iter_values((0..n).map(|v| v as f32))),
                1,
                true,
                None,
            ),
        ),
    ]);
    for version in [WriterVersion::PARQUET_1_0, WriterVersion::PARQUET_2_0] {
        let path = write(
            &dir,
            &format!("types_{version:?}.parquet"),
            &batch,
            properties(version, Compression::SNAPPY, true),
        );
        let expected = arrow_rs_read(&path);
        let (got, groups) = query(
            &context(1),
            &format!("SELECT d, i, one, l, i AS i2 FROM '{path}'"),
        )
        .await;
        assert_columns(&got, &expected, &["d", "i", "one", "l", "i"]);
        assert_eq!(groups, (4, 0), "{version:?}");
    }
}

/// A list column of `size` elements per row, `values` its elements.
fn tensors<A: Array + 'static>(values: A, size: i32) -> ArrayRef {
    list(Arc::new(values), size, true, None)
}

/// Tensor columns of the narrow integer types, the unsigned ones, Float16 and Boolean.
fn narrow_half_and_boolean_columns() -> Vec<(&'static str, ArrayRef)> {
    let n = ROWS;
    // Values over each type's whole range (wrapping), so the narrowing of INT32 is exercised
    // at both ends.
    vec![
        (
            "i8",
            tensors(
                Int8Array::from_iter_values((0..n * 3).map(|v| (v * 7) as i8)),
                3,
            ),
        ),
        (
            "i16",
            tensors(
                Int16Array::from_iter_values((0..n * 2).map(|v| (v * 9973) as i16)),
                2,
            ),
        ),
        (
            "u8",
            tensors(
                UInt8Array::from_iter_values((0..n * 4).map(|v| (v * 13) as u8)),
                4,
            ),
        ),
        (
            "u16",
            tensors(
                UInt16Array::from_iter_values((0..n * 2).map(|v| (v * 40_009) as u16)),
                2,
            ),
        ),
        (
            "u32",
            tensors(
                UInt32Array::from_iter_values(
                    (0..n * 2).map(|v| (v as u32).wrapping_mul(2_654_435_761)),
                ),
                2,
            ),
        ),
        (
            "u64",
            tensors(
                UInt64Array::from_iter_values(
                    (0..n * 2).map(|v| (v as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)),
                ),
                2,
            ),
        ),
        (
            "h",
            tensors(
                Float16Array::from_iter_values(
                    (0..n * 3).map(|v| half::f16::from_f32((v % 1000) as f32 / 8.0 - 60.0)),
                ),
                3,
            ),
        ),
        (
            "wide_h",
            // More distinct values than a 16-bit index's byte holds (dictionary widths 9..16).
            tensors(
                Float16Array::from_iter_values(
                    (0..n * 2).map(|v| half::f16::from_bits((v * 31 % 30_000) as u16)),
                ),
                2,
            ),
        ),
        (
            "b",
            tensors(
                (0..n * 5)
                    .map(|v| Some(v % 3 == 0))
                    .collect::<BooleanArray>(),
                5,
            ),
        ),
    ]
}

/// Every element type the crate supports, each in every encoding arrow-rs writes for it
/// (dictionary, plain, byte-stream-split where it applies), page formats v1 and v2: read
/// here, equal to arrow-rs's read.
#[tokio::test]
async fn every_narrow_type_half_and_boolean() {
    let dir = tempfile::tempdir().unwrap();
    let batch = table(narrow_half_and_boolean_columns());
    let columns = ["i8", "i16", "u8", "u16", "u32", "u64", "h", "wide_h", "b"];
    let parquet_schema = ArrowSchemaConverter::new()
        .convert(&batch.schema())
        .unwrap();
    let boolean_leaf = parquet_schema
        .columns()
        .iter()
        .map(|column| column.path().clone())
        .find(|path| path.parts()[0] == "b")
        .unwrap();
    let select = format!("SELECT {} FROM", columns.join(", "));
    for version in [WriterVersion::PARQUET_1_0, WriterVersion::PARQUET_2_0] {
        for (encoding, props) in [
            ("dict", properties(version, Compression::SNAPPY, true)),
            (
                "plain",
                properties(version, Compression::UNCOMPRESSED, false),
            ),
            (
                "split",
                WriterProperties::builder()
                    .set_writer_version(version)
                    .set_compression(Compression::ZSTD(ZstdLevel::default()))
                    .set_dictionary_enabled(false)
                    .set_encoding(Encoding::BYTE_STREAM_SPLIT)
                    // Booleans have no byte-stream-split encoding: their RLE one instead.
                    .set_column_encoding(boolean_leaf.clone(), Encoding::RLE)
                    .set_max_row_group_row_count(Some(GROUP_ROWS))
                    .set_data_page_row_count_limit(100)
                    .set_write_batch_size(50)
                    .build(),
            ),
        ] {
            let name = format!("narrow_{version:?}_{encoding}.parquet");
            let path = write(&dir, &name, &batch, props);
            let expected = arrow_rs_read(&path);
            let (got, groups) = query(&context(1), &format!("{select} '{path}'")).await;
            assert_columns(&got, &expected, &columns);
            assert_eq!(groups, (4, 0), "{name}");
        }
    }
}

/// The result of `sql` in `ctx`, as one batch.
async fn collected(ctx: &SessionContext, sql: &str) -> RecordBatch {
    let df = ctx.sql(sql).await.unwrap();
    let schema = Arc::clone(df.schema().inner());
    concat_batches(&schema, &df.collect().await.unwrap()).unwrap()
}

/// Each of `cases` (a query over `{t}`, and the row groups the fast reader reads for it) gives
/// over the file at `path` what DataFusion's own reader gives (DataFusion's own format is the
/// reference: `register_parquet`),
/// with every row group it reads read here. Returns the reference context (the file as `t`).
async fn same_as_datafusion(path: &str, cases: &[(&str, usize)]) -> SessionContext {
    same_as_datafusion_in(path, cases, || context(1)).await
}

/// [`same_as_datafusion`], the queries run in the contexts `ours` makes.
async fn same_as_datafusion_in(
    path: &str,
    cases: &[(&str, usize)],
    ours: impl Fn() -> SessionContext,
) -> SessionContext {
    let reference = context(1);
    reference
        .register_parquet("t", path, ParquetReadOptions::default())
        .await
        .unwrap();
    for &(sql, fast) in cases {
        let expected = collected(&reference, &sql.replace("{t}", "t")).await;
        let (got, groups) = query(&ours(), &sql.replace("{t}", &format!("'{path}'"))).await;
        assert_eq!(got.columns(), expected.columns(), "{sql}");
        assert!(got.num_rows() > 0 || sql.contains("1000000"), "{sql}");
        assert_eq!(groups, (fast, 0), "{sql}");
    }
    reference
}

/// A predicate on a scalar column is evaluated before the tensor columns are gathered, for its
/// rows alone (late materialisation; with `pushdown_filters`, pages holding none of them are
/// not decoded): every element type, in every
/// encoding (the delta ones through arrow-rs's column reader, which skips), page formats v1
/// and v2, with rows spread over every page, rows in runs that leave whole pages out, no rows,
/// and a predicate that is NULL for some rows.
#[tokio::test]
async fn late_materialised_scans_of_every_type_and_encoding() {
    let dir = tempfile::tempdir().unwrap();
    let n = ROWS as i64;
    let mut columns = vec![
        (
            "id",
            Arc::new(Int64Array::from_iter_values(0..n)) as ArrayRef,
        ),
        ("x", f32_tensors(4, &[], &[])),
        (
            "d",
            tensors(
                Float64Array::from_iter_values((0..n * 3).map(|v| v as f64 / 3.0)),
                3,
            ),
        ),
        (
            "i",
            tensors(
                Int32Array::from_iter_values((0..n * 4).map(|v| (v % 97) as i32 - 40)),
                4,
            ),
        ),
        (
            "l",
            tensors(
                Int64Array::from_iter_values((0..n * 2).map(|v| v * 1_000_000_007)),
                2,
            ),
        ),
    ];
    columns.extend(narrow_half_and_boolean_columns());
    // A dictionary of more entries than the fast reader's own lookup takes (2^16): 70,000
    // distinct values in each row group.
    columns.push((
        "wide",
        tensors(
            Float32Array::from_iter_values((0..n * 70).map(|v| v as f32)),
            70,
        ),
    ));
    let batch = table(columns);
    let parquet_schema = ArrowSchemaConverter::new()
        .convert(&batch.schema())
        .unwrap();
    // The integer leaves delta-encoded; the others plain.
    let mut delta = WriterProperties::builder()
        .set_writer_version(WriterVersion::PARQUET_2_0)
        .set_compression(Compression::SNAPPY)
        .set_dictionary_enabled(false)
        .set_max_row_group_row_count(Some(GROUP_ROWS))
        .set_data_page_row_count_limit(100)
        .set_write_batch_size(50);
    for column in parquet_schema.columns() {
        if column.physical_type() == datafusion::parquet::basic::Type::INT32
            || column.physical_type() == datafusion::parquet::basic::Type::INT64
        {
            delta = delta.set_column_encoding(column.path().clone(), Encoding::DELTA_BINARY_PACKED);
        }
    }
    let select = "SELECT id, x, d, i, l, i8, i16, u8, u16, u32, u64, h, wide_h, b, wide FROM {t}";
    let queries = [
        // Rows in every page.
        (format!("{select} WHERE id % 7 = 3"), 4),
        // Runs of rows, most pages holding none (pages are of 100 rows).
        (
            format!("{select} WHERE id BETWEEN 1150 AND 1420 OR id % 1000 = 999"),
            4,
        ),
        // Only the columns the predicate does not read are decoded late.
        (
            "SELECT x, u8, h FROM {t} WHERE tensor_get(i, '0') = 7 AND id < 3000".to_string(),
            3,
        ),
        // NULL is not true.
        (
            format!("{select} WHERE CASE WHEN id % 3 = 0 THEN NULL ELSE id % 5 = 1 END"),
            4,
        ),
        // No row (past the statistics, which cannot tell).
        (
            format!("{select} WHERE id % 4000 = 3999 OR id = 1000000"),
            4,
        ),
    ];
    for (name, props) in [
        (
            "dict_v1",
            properties(WriterVersion::PARQUET_1_0, Compression::SNAPPY, true),
        ),
        (
            "plain_v2",
            properties(WriterVersion::PARQUET_2_0, Compression::UNCOMPRESSED, false),
        ),
        ("delta_v2", delta.build()),
    ] {
        let path = write(&dir, &format!("late_{name}.parquet"), &batch, props);
        let cases: Vec<(&str, usize)> = queries.iter().map(|(sql, g)| (sql.as_str(), *g)).collect();
        // Batches of fewer rows than a page too: the values of a page are then read and
        // skipped in several stretches.
        // Without `pushdown_filters` too: every page then decoded, the values kept gathered
        // all the same.
        for batch_size in [8192, 30] {
            same_as_datafusion_in(&path, &cases, || {
                pushed_down(context_with_batch(1, batch_size))
            })
            .await;
            same_as_datafusion_in(&path, &cases, || context_with_batch(1, batch_size)).await;
        }
    }
}

/// Row groups whose bloom filters rule a predicate out are skipped, as DataFusion's reader
/// skips them: every row group's label statistics span 0..=9, but row group `g` holds neither
/// label `g + 1` nor `g + 5`.
#[tokio::test]
async fn bloom_filters_prune_row_groups() {
    let dir = tempfile::tempdir().unwrap();
    let labels: Int32Array = (0..ROWS)
        .map(|row| {
            let missing = (row / GROUP_ROWS + 1) as i32;
            let label = (row % 10) as i32;
            Some(if label == missing || label == missing + 4 {
                0
            } else {
                label
            })
        })
        .collect();
    let batch = table(vec![
        ("label", Arc::new(labels)),
        ("x", f32_tensors(4, &[], &[])),
    ]);
    let props = WriterProperties::builder()
        .set_max_row_group_row_count(Some(GROUP_ROWS))
        .set_bloom_filter_enabled(true)
        .build();
    let path = write(&dir, "bloom.parquet", &batch, props);
    same_as_datafusion(
        &path,
        &[
            // Row group 1 holds no label 2; the others do.
            ("SELECT x, label FROM {t} WHERE label = 2", 3),
            // Row group 0 holds neither 1 nor 5.
            ("SELECT x FROM {t} WHERE label IN (1, 5)", 3),
            // Statistics and filters cannot tell.
            ("SELECT x FROM {t} WHERE label = 9", 4),
        ],
    )
    .await;
}

/// Pages whose column-index statistics rule the predicate out are dropped, as DataFusion's
/// reader drops them: a row group whose statistics cannot rule it out but whose every page
/// can is not read at all. Row group `g` (400 rows, pages of 100) holds ids `1000 g + 0..200`
/// then `1000 g + 800..1000`.
#[tokio::test]
async fn page_index_prunes_pages_and_row_groups() {
    let dir = tempfile::tempdir().unwrap();
    let ids: Int64Array = (0..ROWS as i64)
        .map(|row| {
            let (group, at) = (row / 400, row % 400);
            Some(group * 1000 + if at < 200 { at } else { 600 + at })
        })
        .collect();
    let batch = table(vec![("id", Arc::new(ids)), ("x", f32_tensors(4, &[], &[]))]);
    let props = WriterProperties::builder()
        .set_max_row_group_row_count(Some(400))
        .set_data_page_row_count_limit(100)
        .set_write_batch_size(50)
        .build();
    let path = write(&dir, "page_index.parquet", &batch, props);
    let cases = [
        // Row group 0's statistics (0..=999) cannot rule it out; its pages can, every one
        // (the others are ruled out by their statistics).
        (
            "SELECT id, x FROM {t} WHERE id BETWEEN 300 AND 700 OR id = 1000000",
            0,
        ),
        // Two pages of row group 0 kept, in part.
        ("SELECT id, x FROM {t} WHERE id BETWEEN 150 AND 850", 1),
        // Pages of every row group: those of ids 1150..1199 and 2800..2899 kept.
        (
            "SELECT x FROM {t} WHERE id % 1000 < 100 AND id BETWEEN 1150 AND 2850",
            2,
        ),
    ];
    for batch_size in [8192, 30] {
        same_as_datafusion_in(&path, &cases, || context_with_batch(1, batch_size)).await;
        same_as_datafusion_in(&path, &cases, || {
            pushed_down(context_with_batch(1, batch_size))
        })
        .await;
    }
}

/// Scans with other columns, a predicate or a limit are read here too, and give what
/// DataFusion's reader gives.
#[tokio::test]
async fn filtered_limited_and_mixed_scans() {
    let dir = tempfile::tempdir().unwrap();
    let half = Float16Array::from_iter_values((0..ROWS * 2).map(|v| half::f16::from_f32(v as f32)));
    let batch = table(vec![
        ("id", Arc::new(Int64Array::from_iter_values(0..ROWS as i64))),
        (
            "label",
            Arc::new(
                (0..ROWS as i32)
                    .map(|v| (v % 7 != 5).then_some(v % 10))
                    .collect::<Int32Array>(),
            ),
        ),
        ("x", f32_tensors(16, &[], &[])),
        ("h", list(Arc::new(half), 2, true, None)),
    ]);
    let path = write(
        &dir,
        "mixed.parquet",
        &batch,
        properties(WriterVersion::PARQUET_1_0, Compression::SNAPPY, true),
    );
    // (query, row groups read here: the file has 4, of 1000, 1000, 1000 and 500 rows)
    let cases = [
        ("SELECT id, x FROM {t}", 4),
        ("SELECT h FROM {t}", 4),
        ("SELECT x, label, h, id FROM {t}", 4),
        ("SELECT x FROM {t} WHERE label = 3", 4),
        ("SELECT x, label FROM {t} WHERE label IS NULL", 4),
        ("SELECT h, id FROM {t} WHERE id % 10 = 3 AND label > 1", 4),
        // Statistics prune every row group but the last (ids 3000..3499), as DataFusion's
        // reader prunes them.
        ("SELECT x, id FROM {t} WHERE id >= 3200", 1),
        ("SELECT x FROM {t} WHERE id > 1000000", 0),
        ("SELECT x FROM {t} WHERE tensor_get(x, '0') > 11.0", 4),
        ("SELECT id FROM {t} WHERE tensor_size(h) = 2 AND id < 5", 1),
        ("SELECT x FROM {t} LIMIT 7", 1),
        ("SELECT x, id FROM {t} LIMIT 1200", 2),
        ("SELECT x FROM {t} WHERE label = 2 LIMIT 3", 1),
    ];
    let reference = same_as_datafusion(&path, &cases).await;
    // Over two partitions, with the predicate pushed into the scan (its columns then need not
    // be projected), rows compared as a set.
    let pushed = |partitions| pushed_down(context(partitions));
    for partitions in [1, 2] {
        let sql =
            format!("SELECT tensor_to_string(x) AS s FROM '{path}' WHERE label = 3 ORDER BY id");
        let (got, groups) = query(&pushed(partitions), &sql).await;
        let expected = collected(
            &reference,
            "SELECT tensor_to_string(x) AS s FROM t WHERE label = 3 ORDER BY id",
        )
        .await;
        assert_eq!(got.columns(), expected.columns());
        assert_eq!(groups, (4, 0));
    }
    // With the filter pushed down, the limit is the scan's: a row group gives its first rows
    // the predicate holds for (the first 3 of the file's, one partition), and no more.
    let sql = format!("SELECT x, id FROM '{path}' WHERE label = 3 AND id > 1500 LIMIT 3");
    let (got, groups) = query(&pushed(1), &sql).await;
    let expected = collected(
        &reference,
        "SELECT x, id FROM t WHERE label = 3 AND id > 1500 ORDER BY id LIMIT 3",
    )
    .await;
    assert_eq!(got.columns(), expected.columns());
    assert_eq!(groups, (1, 0));
    // A volatile predicate filters once: evaluated here and again above the scan, half of
    // the rows would be a quarter (the count's standard deviation is 30 rows).
    for ctx in [context(1), pushed(1)] {
        let (got, _) = query(
            &ctx,
            &format!("SELECT x FROM '{path}' WHERE random() < 0.5"),
        )
        .await;
        assert!(
            (1400..=2100).contains(&got.num_rows()),
            "{}",
            got.num_rows()
        );
    }
}

#[tokio::test]
async fn a_column_read_as_another_type_is_datafusion_s() {
    let dir = tempfile::tempdir().unwrap();
    let batch = table(vec![
        (
            "name",
            Arc::new(arrow::array::StringArray::from_iter_values(
                (0..ROWS).map(|v| format!("n{v}")),
            )),
        ),
        ("x", f32_tensors(4, &[], &[])),
    ]);
    let path = write(
        &dir,
        "strings.parquet",
        &batch,
        properties(WriterVersion::PARQUET_1_0, Compression::SNAPPY, true),
    );
    let (got, groups) = query(
        &context(1),
        &format!("SELECT name, x FROM '{path}' WHERE name = 'n7'"),
    )
    .await;
    assert_eq!(got.num_rows(), 1);
    assert_eq!(groups, (0, 0));
}

#[tokio::test]
async fn partitions_read_each_row_group_once() {
    let dir = tempfile::tempdir().unwrap();
    let batch = table(vec![("x", f32_tensors(16, &[2100], &[]))]);
    let path = write(
        &dir,
        "split.parquet",
        &batch,
        properties(WriterVersion::PARQUET_1_0, Compression::SNAPPY, true),
    );
    let expected = arrow_rs_read(&path);
    let (got, groups) = query(&context(2), &format!("SELECT x FROM '{path}'")).await;
    assert_eq!(groups, (3, 1));
    // The partitions' batches interleave: compare the rows as sorted text.
    let rows = |array: &ArrayRef| {
        let list = array.as_any().downcast_ref::<FixedSizeListArray>().unwrap();
        let mut rows: Vec<String> = (0..list.len())
            .map(|i| {
                if list.is_null(i) {
                    "NULL".to_string()
                } else {
                    format!("{:?}", list.value(i))
                }
            })
            .collect();
        rows.sort();
        rows
    };
    assert_eq!(rows(got.column(0)), rows(expected.column(0)));
}

#[tokio::test]
async fn an_empty_file_has_no_rows() {
    let dir = tempfile::tempdir().unwrap();
    let batch = table(vec![("x", f32_tensors(16, &[], &[]))]).slice(0, 0);
    let path = write(
        &dir,
        "empty.parquet",
        &batch,
        properties(WriterVersion::PARQUET_1_0, Compression::SNAPPY, true),
    );
    let (got, groups) = query(&context(1), &format!("SELECT x FROM '{path}'")).await;
    assert_eq!(got.num_rows(), 0);
    assert_eq!(
        got.column(0).data_type(),
        &DataType::FixedSizeList(Arc::new(Field::new("item", DataType::Float32, true)), 16)
    );
    assert_eq!(groups, (0, 0));
}

/// `SELECT x` over the file by DataFusion's own Parquet format and reader (what
/// `register_parquet` builds: not this crate's format, so not its reader) over `partitions`
/// partitions, or its error.
async fn datafusion_read_with(path: &str, partitions: usize) -> Result<Vec<RecordBatch>, String> {
    datafusion_query(path, partitions, "SELECT x FROM t").await
}

/// `sql` over the file as table `t` by DataFusion's own Parquet format and reader, or its
/// error.
async fn datafusion_query(
    path: &str,
    partitions: usize,
    sql: &str,
) -> Result<Vec<RecordBatch>, String> {
    let ctx = context(partitions);
    ctx.register_parquet("t", path, ParquetReadOptions::default())
        .await
        .map_err(|e| e.to_string())?;
    let df = ctx.sql(sql).await.map_err(|e| e.to_string())?;
    df.collect().await.map_err(|e| e.to_string())
}

/// [`datafusion_query`] over one partition, a panic of DataFusion's own reader taken as its
/// failure (arrow-rs's level decoder panics on a run header of too many bytes; this crate's
/// scan reports such a panic as the file's error).
async fn datafusion_query_unwound(path: &str, sql: &str) -> Result<Vec<RecordBatch>, String> {
    std::panic::AssertUnwindSafe(datafusion_query(path, 1, sql))
        .catch_unwind()
        .await
        .unwrap_or_else(|_| Err("DataFusion's reader panicked".to_string()))
}

/// `SELECT x` over the file by this crate's context (its format, so its reader where the scan
/// allows), over `partitions` partitions, or its error.
async fn tensor_read(path: &str, partitions: usize) -> Result<Vec<RecordBatch>, String> {
    tensor_query(path, partitions, "SELECT x FROM t").await
}

/// `sql` over the file as table `t` by this crate's context, or its error.
async fn tensor_query(
    path: &str,
    partitions: usize,
    sql: &str,
) -> Result<Vec<RecordBatch>, String> {
    let df = context(partitions)
        .sql(&sql.replace(" t", &format!(" '{path}'")))
        .await
        .map_err(|e| e.to_string())?;
    df.collect().await.map_err(|e| e.to_string())
}

/// Corrupt bytes in the pages (levels, values, page headers, dictionaries) of uncompressed
/// files of every kind the fast reader decodes itself (float32 through arrow-rs's column
/// reader; uint8 and float16 dictionaries, booleans; a variable-shape float32 tensor; a
/// scalar column with a predicate): the
/// query never panics, and it gives DataFusion's own reader's result, or fails where that
/// reader fails. (arrow-rs's synchronous reader is not the reference here: it reads a column
/// chunk's pages differently and fails on some files DataFusion's reader reads.)
#[tokio::test]
async fn corrupt_pages_read_as_datafusion_reads_them() {
    let dir = tempfile::tempdir().unwrap();
    let n = ROWS;
    let tables = [
        ("float32", table(vec![("x", f32_tensors(16, &[], &[]))])),
        (
            "uint8",
            table(vec![(
                "x",
                tensors(
                    UInt8Array::from_iter_values((0..n * 9).map(|v| (v * 7 % 200) as u8)),
                    9,
                ),
            )]),
        ),
        (
            "float16",
            table(vec![(
                "x",
                tensors(
                    Float16Array::from_iter_values(
                        (0..n * 4).map(|v| half::f16::from_bits((v * 31 % 3000) as u16)),
                    ),
                    4,
                ),
            )]),
        ),
        (
            "boolean",
            table(vec![(
                "x",
                tensors(
                    (0..n * 5)
                        .map(|v| Some(v % 3 == 0))
                        .collect::<BooleanArray>(),
                    5,
                ),
            )]),
        ),
        ("variable", variable_f32_table()),
        (
            "filtered",
            table(vec![
                (
                    "label",
                    // In runs of 150 rows: some pages hold no row the predicate holds for.
                    Arc::new(Int32Array::from_iter_values(
                        (0..n as i32).map(|v| v / 150 % 10),
                    )),
                ),
                ("x", f32_tensors(4, &[], &[])),
            ]),
        ),
    ];
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for (kind, batch) in tables {
        let clean = write(
            &dir,
            &format!("clean_{kind}.parquet"),
            &batch,
            properties(WriterVersion::PARQUET_1_0, Compression::UNCOMPRESSED, true),
        );
        let sql = if kind == "filtered" {
            "SELECT x, label FROM t WHERE label < 8"
        } else {
            "SELECT x FROM t"
        };
        let bytes = std::fs::read(&clean).unwrap();
        // Only the column chunks: the page indexes and the footer after them stay intact
        // (their errors are DataFusion's, tested in sql/files.slt).
        let metadata =
            ParquetRecordBatchReaderBuilder::try_new(std::fs::File::open(&clean).unwrap())
                .unwrap()
                .metadata()
                .clone();
        let data_end = metadata
            .row_groups()
            .iter()
            .flat_map(|group| group.columns().iter())
            .map(|column| {
                let (start, len) = column.byte_range();
                (start + len) as usize
            })
            .max()
            .unwrap();
        let (mut same, mut both_failed) = (0, 0);
        for case in 0..100 {
            let mut corrupt = bytes.clone();
            for _ in 0..=(next() % 3) {
                let at = 4 + (next() as usize) % (data_end - 4);
                corrupt[at] ^= 1 << (next() % 8);
            }
            let path = dir.path().join(format!("corrupt_{kind}_{case}.parquet"));
            std::fs::write(&path, &corrupt).unwrap();
            let path = path.to_str().unwrap().to_string();
            let expected = datafusion_query_unwound(&path, sql).await;
            let got = tensor_query(&path, 1, sql).await;
            match (got, expected) {
                (Ok(batches), Ok(expected)) => {
                    let got = concat_batches(&batches[0].schema(), &batches).unwrap();
                    let expected = concat_batches(&expected[0].schema(), &expected).unwrap();
                    assert_eq!(got.columns(), expected.columns(), "{kind} case {case}");
                    same += 1;
                }
                (Err(_), Err(_)) => both_failed += 1,
                (got, expected) => panic!(
                    "{kind} case {case}: the query gave {:?}, DataFusion's reader {:?}",
                    got.map(|b| b.len()),
                    expected.map(|b| b.len())
                ),
            }
        }
        // Both kinds of case occur (the corruption is not all in one kind of byte).
        assert!(
            same > 0 && both_failed > 0,
            "{kind}: {same} equal, {both_failed} both failed"
        );
    }
}

/// Footers whose row groups' first page offsets are wrong (corrupt or hostile): `i64::MAX`
/// for the first row group (no byte range can hold it, and adding to it overflows), or the
/// second row group's offset equal to the first's. The query reads as DataFusion's own reader
/// does with as many partitions, or fails where it fails, and never panics. (The fallback
/// once re-read a row group from a byte range holding its first page: at `i64::MAX` that
/// range held nothing, and the row group's rows were silently dropped.)
#[tokio::test]
async fn wrong_first_page_offsets_read_as_datafusion_reads_them() {
    use datafusion::parquet::file::metadata::{ParquetMetaDataReader, ParquetMetaDataWriter};
    let dir = tempfile::tempdir().unwrap();
    // NULL rows in the first two row groups: they fall back whatever their offsets.
    let batch = table(vec![("x", f32_tensors(16, &[5, 1500], &[]))]);
    let clean = write(
        &dir,
        "clean.parquet",
        &batch,
        properties(WriterVersion::PARQUET_1_0, Compression::UNCOMPRESSED, false),
    );
    let bytes = std::fs::read(&clean).unwrap();
    let metadata = ParquetMetaDataReader::new()
        .parse_and_finish(&bytes::Bytes::from(bytes.clone()))
        .unwrap();
    let tail = &bytes[bytes.len() - 8..bytes.len() - 4];
    let footer_start = bytes.len() - 8 - u32::from_le_bytes(tail.try_into().unwrap()) as usize;
    let first_offset = metadata.row_group(0).column(0).data_page_offset();
    for (name, group, offset) in [("max", 0, i64::MAX), ("shared", 1, first_offset)] {
        let mut builder = metadata.clone().into_builder();
        let mut groups = builder.take_row_groups();
        let mut changed = groups[group].clone().into_builder();
        let mut columns = changed.take_columns();
        assert_eq!(columns[0].dictionary_page_offset(), None);
        columns[0] = columns[0]
            .clone()
            .into_builder()
            .set_data_page_offset(offset)
            .build()
            .unwrap();
        groups[group] = changed.set_column_metadata(columns).build().unwrap();
        let changed = builder.set_row_groups(groups).build();
        let mut file = bytes[..footer_start].to_vec();
        ParquetMetaDataWriter::new(&mut file, &changed)
            .finish()
            .unwrap();
        let path = dir.path().join(format!("{name}.parquet"));
        std::fs::write(&path, &file).unwrap();
        let path = path.to_str().unwrap().to_string();

        for partitions in [1, 2] {
            let got = tensor_read(&path, partitions).await;
            if name == "shared" {
                // DataFusion's own reader panics here (arrow-rs reads past the column chunk
                // it fetched: apache/arrow-rs#6255); this crate's scan reports the panic as
                // the file's error.
                let err = got.expect_err("a row group read past its column chunk");
                assert!(
                    err.contains("shared.parquet") && err.contains("malformed file"),
                    "{err}"
                );
                continue;
            }
            let expected = datafusion_read_with(&path, partitions).await;
            let rows = |r: &Result<Vec<RecordBatch>, String>| {
                r.as_ref()
                    .map(|b| b.iter().map(RecordBatch::num_rows).sum::<usize>())
                    .map_err(|_| ())
            };
            match (&got, &expected) {
                (Ok(got), Ok(expected)) => {
                    // Partitions may interleave: compare the rows sorted by their values.
                    let key = |batches: &Vec<RecordBatch>| {
                        let batch = concat_batches(&batches[0].schema(), batches).unwrap();
                        let x = batch.column(0).as_fixed_size_list();
                        let mut rows: Vec<String> = (0..x.len())
                            .map(|i| format!("{:?}", x.is_valid(i).then(|| x.value(i))))
                            .collect();
                        rows.sort();
                        rows
                    };
                    assert_eq!(key(got), key(expected), "{name}, {partitions} partitions");
                }
                (Err(_), Err(_)) => {}
                _ => panic!(
                    "{name}, {partitions} partitions: the query gave {:?} rows, DataFusion's reader {:?}",
                    rows(&got),
                    rows(&expected)
                ),
            }
        }
    }
}

/// A file that carries a caller's `ParquetAccessPlan` (a library user's own table provider
/// scanning some row groups) is read by DataFusion's reader, which honours the plan: only the
/// row group it names.
#[tokio::test]
async fn a_callers_access_plan_is_honoured() {
    use datafusion::datasource::file_format::FileFormat;
    use datafusion::datasource::listing::PartitionedFile;
    use datafusion::datasource::physical_plan::FileScanConfigBuilder;
    use datafusion::datasource::physical_plan::parquet::ParquetAccessPlan;
    use datafusion::datasource::table_schema::TableSchema;
    use datafusion::execution::object_store::ObjectStoreUrl;
    use datafusion_tensor::TensorParquetFormat;

    let dir = tempfile::tempdir().unwrap();
    let batch = table(vec![("x", f32_tensors(16, &[], &[]))]);
    let path = write(
        &dir,
        "plain.parquet",
        &batch,
        properties(WriterVersion::PARQUET_1_0, Compression::SNAPPY, true),
    );
    let ctx = context(1);
    let state = ctx.state();
    let format = TensorParquetFormat::default();
    let size = std::fs::metadata(&path).unwrap().len();
    let mut access = ParquetAccessPlan::new_none(ROWS.div_ceil(GROUP_ROWS));
    access.scan(2);
    let mut file = PartitionedFile::new(path.trim_start_matches('/'), size);
    file.extensions.insert(access);
    let source = format.file_source(TableSchema::from(batch.schema()));
    let config = FileScanConfigBuilder::new(ObjectStoreUrl::local_filesystem(), source)
        .with_file(file)
        .with_projection_indices(Some(vec![0]))
        .unwrap()
        .build();
    let plan = format.create_physical_plan(&state, config).await.unwrap();
    let batches = collect(Arc::clone(&plan), ctx.task_ctx()).await.unwrap();
    let got = concat_batches(&plan.schema(), &batches).unwrap();
    let expected = batch.slice(2 * GROUP_ROWS, GROUP_ROWS);
    assert_columns(&got, &expected, &["x"]);
    assert_eq!(row_groups(&plan), (0, 0));
}

// Variable-shape tensors (`arrow.variable_shape_tensor`: `Struct<data: List<T>, shape:
// FixedSizeList<Int32>[ndim]>`), read by the same reader: the `data` lists' offsets from their
// repetition levels, the values decoded as a fixed-shape tensor's, the shapes as a fixed-shape
// tensor of `ndim` Int32s.

/// [`same_as_datafusion_in`] where some row groups go back to DataFusion's reader: each case
/// gives its (fast, fallback) row-group counts. The schemas (field metadata included) must be
/// DataFusion's too.
async fn same_as_datafusion_with(
    path: &str,
    cases: &[(&str, (usize, usize))],
    ours: impl Fn() -> SessionContext,
) {
    let reference = context(1);
    reference
        .register_parquet("t", path, ParquetReadOptions::default())
        .await
        .unwrap();
    for &(sql, groups) in cases {
        let expected = collected(&reference, &sql.replace("{t}", "t")).await;
        let (got, got_groups) = query(&ours(), &sql.replace("{t}", &format!("'{path}'"))).await;
        assert_eq!(got.schema().fields(), expected.schema().fields(), "{sql}");
        assert_eq!(got.columns(), expected.columns(), "{sql}");
        assert!(got.num_rows() > 0, "{sql}");
        assert_eq!(got_groups, groups, "{sql}");
    }
}

/// The variable-shape columns of `tests/data/make_varshape_scan_fixture.py`'s files.
const VARIABLE_COLUMNS: [&str; 13] = [
    "img", "i8", "perm", "i32", "u", "i64", "u16", "u32", "u64", "h", "f32", "f64", "b",
];

/// Files pyarrow wrote (page formats v1 and v2, dictionary and plain pages, snappy and zstd,
/// 1,500 rows in 4 row groups of many pages): every element type read here, with its metadata
/// (dim names, permutation, uniform shape), alone and with other columns, with a predicate
/// (on a scalar column, on the tensor itself), statistics pruning and a limit, in batches of
/// a row group and of fewer rows than a page.
#[tokio::test]
async fn pyarrow_variable_shape_files_are_read_fast() {
    let all = format!("SELECT id, {} FROM {{t}}", VARIABLE_COLUMNS.join(", "));
    let mut cases: Vec<(String, (usize, usize))> = vec![
        (all.clone(), (4, 0)),
        (format!("{all} WHERE id % 7 = 3"), (4, 0)),
        // Statistics leave row groups 2 and 3 (ids 800..1500).
        (format!("{all} WHERE id >= 1000"), (2, 0)),
        (
            "SELECT id FROM {t} WHERE tensor_size(img) > 60".to_string(),
            (4, 0),
        ),
        (
            "SELECT perm, id FROM {t} WHERE tensor_get(u, '0, 1') > 0".to_string(),
            (4, 0),
        ),
        ("SELECT img, id FROM {t} LIMIT 7".to_string(), (1, 0)),
        (format!("{all} LIMIT 450"), (2, 0)),
        (
            "SELECT b, img FROM {t} WHERE id > 50 LIMIT 500".to_string(),
            (2, 0),
        ),
    ];
    cases.extend(
        VARIABLE_COLUMNS
            .iter()
            .map(|name| (format!("SELECT {name}, {name} AS again FROM {{t}}"), (4, 0))),
    );
    let cases: Vec<(&str, (usize, usize))> = cases.iter().map(|(s, g)| (s.as_str(), *g)).collect();
    for file in ["pyarrow_varshape_scan", "pyarrow_varshape_scan_v2"] {
        let path = format!("{}/tests/data/{file}.parquet", env!("CARGO_MANIFEST_DIR"));
        for batch_size in [8192, 30] {
            same_as_datafusion_with(&path, &cases, || context_with_batch(1, batch_size)).await;
            same_as_datafusion_with(&path, &cases, || {
                pushed_down(context_with_batch(1, batch_size))
            })
            .await;
        }
    }
}

/// The pyarrow fixture of every kind of row (`make_varshape_fixtures.py`): each column has a
/// NULL row, some a 0-size tensor (an empty list), so its one row group is DataFusion's to
/// read, values, NULLs and metadata as that reader gives them.
#[tokio::test]
async fn variable_shape_nulls_and_empty_tensors_are_datafusion_s() {
    let path = format!(
        "{}/tests/data/pyarrow_varshape.parquet",
        env!("CARGO_MANIFEST_DIR")
    );
    let columns = "id, img, f32, perm, i64, b, f64, u, z";
    let cases = [
        (format!("SELECT {columns} FROM {{t}}"), (0, 1)),
        ("SELECT u FROM {t}".to_string(), (0, 1)),
        ("SELECT z, id FROM {t} WHERE id > 2".to_string(), (0, 1)),
    ];
    let cases: Vec<(&str, (usize, usize))> = cases.iter().map(|(s, g)| (s.as_str(), *g)).collect();
    same_as_datafusion_with(&path, &cases, || context(1)).await;
}

/// A variable-shape tensor column of `shapes.len()` rows of `values` (as many as the shapes
/// hold, in order), NULL at `null_rows` (their values taken all the same), its `data` list
/// NULL (the struct not) at `null_data`; the field of its type named `name`.
fn variable_column(
    name: &str,
    values: ArrayRef,
    shapes: &[Vec<i32>],
    null_rows: &[usize],
    null_data: &[usize],
) -> (Field, ArrayRef) {
    use arrow::array::{ListArray, StructArray};
    use arrow::buffer::OffsetBuffer;
    use datafusion_tensor::variable_shape::VariableShapeType;

    let ndim = shapes[0].len();
    let tensor = VariableShapeType::new(values.data_type().clone(), ndim)
        .unwrap()
        .with_dim_names(Some((0..ndim).map(|d| format!("d{d}")).collect()))
        .unwrap();
    let field = tensor.to_field(name);
    let DataType::Struct(fields) = field.data_type().clone() else {
        unreachable!()
    };
    let sizes = shapes
        .iter()
        .map(|shape| shape.iter().map(|&d| d as usize).product::<usize>());
    let DataType::List(item) = fields[0].data_type().clone() else {
        unreachable!()
    };
    let nulls = |rows: &[usize]| {
        (!rows.is_empty()).then(|| {
            (0..shapes.len())
                .map(|r| !rows.contains(&r))
                .collect::<NullBuffer>()
        })
    };
    let data = ListArray::new(
        item,
        OffsetBuffer::from_lengths(sizes),
        values,
        nulls(null_data),
    );
    let DataType::FixedSizeList(shape_item, _) = fields[1].data_type().clone() else {
        unreachable!()
    };
    let shape = FixedSizeListArray::new(
        shape_item,
        ndim as i32,
        Arc::new(Int32Array::from_iter_values(
            shapes.iter().flatten().copied(),
        )),
        None,
    );
    let array = StructArray::new(
        fields,
        vec![Arc::new(data), Arc::new(shape)],
        nulls(null_rows),
    );
    (field, Arc::new(array))
}

/// A batch of these columns, each field as given (its metadata kept).
fn variable_table(columns: Vec<(Field, ArrayRef)>) -> RecordBatch {
    let (fields, arrays): (Vec<Field>, Vec<ArrayRef>) = columns.into_iter().unzip();
    RecordBatch::try_new(Arc::new(Schema::new(fields)), arrays).unwrap()
}

/// `ROWS` shapes of `ndim` dimensions, each 1..=5 (row `r`, dimension `d`: `1 + (r + 2d) %
/// 5`), a 0 at `empty`.
fn row_shapes(ndim: usize, empty: &[usize]) -> Vec<Vec<i32>> {
    (0..ROWS)
        .map(|r| {
            (0..ndim)
                .map(|d| {
                    if empty.contains(&r) {
                        0
                    } else {
                        1 + ((r + 2 * d) % 5) as i32
                    }
                })
                .collect()
        })
        .collect()
}

/// One variable-shape float32 column `x` of 2-d tensors.
fn variable_f32_table() -> RecordBatch {
    let shapes = row_shapes(2, &[]);
    let values = Float32Array::from_iter_values((0..total(&shapes)).map(|v| v as f32));
    variable_table(vec![variable_column(
        "x",
        Arc::new(values),
        &shapes,
        &[],
        &[],
    )])
}

fn total(shapes: &[Vec<i32>]) -> usize {
    shapes
        .iter()
        .map(|s| s.iter().map(|&d| d as usize).product::<usize>())
        .sum()
}

/// `id` and a variable-shape tensor column of each element type (named after it), 2-d but
/// `u8` (3-d), of `ROWS` rows.
fn every_type_columns() -> RecordBatch {
    let shapes2 = row_shapes(2, &[]);
    let shapes3 = row_shapes(3, &[]);
    let (n2, n3) = (total(&shapes2), total(&shapes3));
    let v = |n: usize| (0..n as i64).map(|v| v % 61 - 30);
    let columns: Vec<(Field, ArrayRef)> = vec![
        (
            "id",
            Arc::new(Int64Array::from_iter_values(0..ROWS as i64)) as ArrayRef,
        ),
        (
            "u8",
            Arc::new(UInt8Array::from_iter_values(
                (0..n3).map(|v| (v * 7 % 256) as u8),
            )),
        ),
        (
            "i8",
            Arc::new(Int8Array::from_iter_values(v(n2).map(|v| v as i8))),
        ),
        (
            "i16",
            Arc::new(Int16Array::from_iter_values(v(n2).map(|v| v as i16 * 1000))),
        ),
        (
            "u16",
            Arc::new(UInt16Array::from_iter_values(
                v(n2).map(|v| (v + 30) as u16 * 1000),
            )),
        ),
        (
            "i32",
            Arc::new(Int32Array::from_iter_values(
                v(n2).map(|v| v as i32 * 70_000),
            )),
        ),
        (
            "u32",
            Arc::new(UInt32Array::from_iter_values(
                v(n2).map(|v| (v + 30) as u32 * 70_000_000),
            )),
        ),
        (
            "i64",
            Arc::new(Int64Array::from_iter_values(
                v(n2).map(|v| v * 1_000_000_007),
            )),
        ),
        (
            "u64",
            Arc::new(UInt64Array::from_iter_values(
                v(n2).map(|v| (v + 30) as u64 * (u64::MAX / 61)),
            )),
        ),
        (
            "f16",
            Arc::new(Float16Array::from_iter_values(
                v(n2).map(|v| half::f16::from_f32(v as f32 / 4.0)),
            )),
        ),
        (
            "f32",
            Arc::new(Float32Array::from_iter_values(
                v(n2).map(|v| v as f32 / 4.0),
            )),
        ),
        (
            "f64",
            Arc::new(Float64Array::from_iter_values(
                v(n2).map(|v| v as f64 / 3.0),
            )),
        ),
        (
            "b",
            Arc::new(v(n2).map(|v| Some(v % 3 == 0)).collect::<BooleanArray>()),
        ),
    ]
    .into_iter()
    .map(|(name, values)| {
        if name == "id" {
            return (Field::new(name, DataType::Int64, false), values);
        }
        let shapes = if name == "u8" { &shapes3 } else { &shapes2 };
        variable_column(name, values, shapes, &[], &[])
    })
    .collect();
    variable_table(columns)
}

/// Files arrow-rs wrote (as `COPY ... TO` writes them; page formats v1 and v2, dictionary and
/// plain, small pages) of every element type: read here, as DataFusion's reader reads them.
#[tokio::test]
async fn variable_shape_columns_of_every_element_type() {
    let dir = tempfile::tempdir().unwrap();
    let batch = every_type_columns();
    let all = "SELECT id, u8, i8, i16, u16, i32, u32, i64, u64, f16, f32, f64, b FROM {t}";
    let cases = [
        (all.to_string(), (4, 0)),
        (format!("{all} WHERE id % 11 = 2"), (4, 0)),
        (format!("{all} LIMIT 1001"), (2, 0)),
        (
            "SELECT f16, b FROM {t} WHERE tensor_size(u8) < 20".to_string(),
            (4, 0),
        ),
    ];
    let cases: Vec<(&str, (usize, usize))> = cases.iter().map(|(s, g)| (s.as_str(), *g)).collect();
    for (name, props) in [
        (
            "v1_dict",
            properties(WriterVersion::PARQUET_1_0, Compression::SNAPPY, true),
        ),
        (
            "v1_plain",
            properties(WriterVersion::PARQUET_1_0, Compression::UNCOMPRESSED, false),
        ),
        (
            "v2_dict",
            properties(
                WriterVersion::PARQUET_2_0,
                Compression::ZSTD(ZstdLevel::default()),
                true,
            ),
        ),
        (
            "v2_plain",
            properties(WriterVersion::PARQUET_2_0, Compression::SNAPPY, false),
        ),
    ] {
        let path = write(&dir, &format!("var_{name}.parquet"), &batch, props);
        for batch_size in [8192, 30] {
            same_as_datafusion_with(&path, &cases, || context_with_batch(1, batch_size)).await;
        }
    }
}

/// Row groups holding a NULL tensor, a NULL element, a NULL `data` list in a non-NULL
/// tensor or a 0-size tensor (an empty list) go back to DataFusion's reader; the others are
/// read here, in the same scan.
#[tokio::test]
async fn variable_shape_row_groups_with_nulls_fall_back() {
    let dir = tempfile::tempdir().unwrap();
    // Row group 0: a NULL element; 1: a NULL tensor; 2: a 0-size tensor; 3: nothing unusual.
    let shapes = row_shapes(2, &[2500]);
    let values: Float32Array = (0..total(&shapes))
        .map(|v| (v != 700).then_some(v as f32))
        .collect();
    let x = variable_column("x", Arc::new(values), &shapes, &[1200], &[]);
    // Row group 1 again, by its data list alone.
    let shapes_y = row_shapes(1, &[]);
    let values_y = Int32Array::from_iter_values(0..total(&shapes_y) as i32);
    let y = variable_column("y", Arc::new(values_y), &shapes_y, &[], &[1300]);
    let id = (
        Field::new("id", DataType::Int64, false),
        Arc::new(Int64Array::from_iter_values(0..ROWS as i64)) as ArrayRef,
    );
    let batch = variable_table(vec![id, x, y]);
    let path = write(
        &dir,
        "var_nulls.parquet",
        &batch,
        properties(WriterVersion::PARQUET_1_0, Compression::SNAPPY, true),
    );
    let cases = [
        ("SELECT id, x, y FROM {t}", (1, 3)),
        ("SELECT x FROM {t}", (1, 3)),
        ("SELECT y, id FROM {t}", (3, 1)),
        ("SELECT x, y FROM {t} WHERE id % 3 = 1", (1, 3)),
        ("SELECT x FROM {t} WHERE id >= 2000", (1, 1)),
    ];
    same_as_datafusion_with(&path, &cases, || context(1)).await;
}

/// Files this crate writes (`COPY ... TO`, small row groups and pages) with variable-shape
/// columns beside a fixed-shape one: a predicate on a scalar column decodes the fixed-shape
/// tensor late, the variable-shape ones read whole and filtered; with `pushdown_filters` too,
/// and over two partitions.
#[tokio::test]
async fn copied_variable_shape_columns_beside_fixed_ones() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("copied.parquet");
    let path = path.to_str().unwrap();
    let ctx = context(1);
    for sql in [
        "SET datafusion.execution.parquet.max_row_group_size = 400".to_string(),
        "SET datafusion.execution.parquet.data_page_row_count_limit = 50".to_string(),
        "SET datafusion.execution.parquet.write_batch_size = 50".to_string(),
        format!(
            "COPY (SELECT id, img, perm, u, tensor_to_fixed(u) AS fx, h, b \
              FROM '{}/tests/data/pyarrow_varshape_scan.parquet' ORDER BY id) TO '{path}' \
              STORED AS PARQUET",
            env!("CARGO_MANIFEST_DIR")
        ),
    ] {
        ctx.sql(&sql).await.unwrap().collect().await.unwrap();
    }
    let cases = [
        ("SELECT * FROM {t}", (4, 0)),
        ("SELECT fx, img, perm, id FROM {t} WHERE id % 5 = 1", (4, 0)),
        ("SELECT fx, b FROM {t} WHERE tensor_size(img) > 40", (4, 0)),
        (
            "SELECT img, fx FROM {t} WHERE id BETWEEN 390 AND 420",
            (2, 0),
        ),
        // The fifth row is in row group 1.
        (
            "SELECT u, fx, h FROM {t} WHERE id % 100 = 7 LIMIT 5",
            (2, 0),
        ),
    ];
    for batch_size in [8192, 30] {
        same_as_datafusion_with(path, &cases, || context_with_batch(1, batch_size)).await;
        same_as_datafusion_with(path, &cases, || {
            pushed_down(context_with_batch(1, batch_size))
        })
        .await;
    }
    // Two partitions, each reading its own row groups: the rows as a set.
    let sql = format!("SELECT id, img, fx FROM '{path}' WHERE id % 3 = 0 ORDER BY id");
    let (got, groups) = query(&context(2), &sql).await;
    let reference = context(1);
    reference
        .register_parquet("t", path, ParquetReadOptions::default())
        .await
        .unwrap();
    let expected = collected(
        &reference,
        "SELECT id, img, fx FROM t WHERE id % 3 = 0 ORDER BY id",
    )
    .await;
    assert_eq!(got.columns(), expected.columns());
    assert_eq!(groups, (4, 0));
}
