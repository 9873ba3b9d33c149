//! The tensor-column Parquet reader (`src/parquet/fast.rs`) against arrow-rs's own reader.
//!
//! Each file is written by arrow-rs's `ArrowWriter` (several row groups, small pages, with and
//! without dictionaries, page format v1 and v2, compressed); the expected values are the file
//! read back by arrow-rs's `ParquetRecordBatchReader`. The scan's metrics say how many row
//! groups the fast reader read and how many it handed back to DataFusion's reader, so each
//! case also checks which path ran.

use std::sync::Arc;

use arrow::array::{
    Array, ArrayRef, AsArray, FixedSizeListArray, Float16Array, Float32Array, Float64Array,
    Int32Array, Int64Array, RecordBatch,
};
use arrow::buffer::NullBuffer;
use arrow::compute::concat_batches;
use arrow::datatypes::{DataType, Field, Schema};
use datafusion::execution::context::SessionContext;
use datafusion::parquet::arrow::ArrowWriter;
use datafusion::parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use datafusion::parquet::basic::{Compression, ZstdLevel};
use datafusion::parquet::file::properties::{WriterProperties, WriterVersion};
use datafusion::physical_plan::{ExecutionPlan, collect};
use datafusion::prelude::{ParquetReadOptions, SessionConfig};
use datafusion_tensor::tensor_session_context_with_config;

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

/// The plan's Parquet scan's count of row groups read by the fast reader and read again by
/// DataFusion's (0 when the scan never used the fast reader).
fn row_groups(plan: &Arc<dyn ExecutionPlan>) -> (usize, usize) {
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

/// The query's result (one batch) and the scan's row-group counts.
async fn query(ctx: &SessionContext, sql: &str) -> (RecordBatch, (usize, usize)) {
    let plan = ctx
        .sql(sql)
        .await
        .unwrap()
        .create_physical_plan()
        .await
        .unwrap();
    let batches = collect(Arc::clone(&plan), ctx.task_ctx())
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"));
    let batch = concat_batches(&plan.schema(), &batches).unwrap();
    (batch, row_groups(&plan))
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

#[tokio::test]
async fn other_scans_are_datafusion_s() {
    let dir = tempfile::tempdir().unwrap();
    let half = Float16Array::from_iter_values((0..ROWS * 2).map(|v| half::f16::from_f32(v as f32)));
    let batch = table(vec![
        ("id", Arc::new(Int64Array::from_iter_values(0..ROWS as i64))),
        ("x", f32_tensors(16, &[], &[])),
        ("h", list(Arc::new(half), 2, true, None)),
    ]);
    let path = write(
        &dir,
        "mixed.parquet",
        &batch,
        properties(WriterVersion::PARQUET_1_0, Compression::SNAPPY, true),
    );
    let expected = arrow_rs_read(&path);
    for (sql, columns) in [
        (format!("SELECT id, x FROM '{path}'"), vec!["id", "x"]),
        (format!("SELECT h FROM '{path}'"), vec!["h"]),
        (format!("SELECT x, h FROM '{path}'"), vec!["x", "h"]),
    ] {
        let (got, groups) = query(&context(1), &sql).await;
        assert_columns(&got, &expected, &columns);
        assert_eq!(groups, (0, 0), "{sql}");
    }
    let (got, groups) = query(
        &context(1),
        &format!("SELECT x FROM '{path}' WHERE id < 10"),
    )
    .await;
    assert_columns(&got, &expected.slice(0, 10), &["x"]);
    assert_eq!(groups, (0, 0));
    let (got, groups) = query(&context(1), &format!("SELECT x FROM '{path}' LIMIT 7")).await;
    assert_columns(&got, &expected.slice(0, 7), &["x"]);
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
/// `register_parquet` builds: not this crate's format, so not its reader), or its error.
async fn datafusion_read(path: &str) -> Result<Vec<RecordBatch>, String> {
    datafusion_read_with(path, 1).await
}

/// [`datafusion_read`] over `partitions` partitions.
async fn datafusion_read_with(path: &str, partitions: usize) -> Result<Vec<RecordBatch>, String> {
    let ctx = context(partitions);
    ctx.register_parquet("t", path, ParquetReadOptions::default())
        .await
        .map_err(|e| e.to_string())?;
    let df = ctx
        .sql("SELECT x FROM t")
        .await
        .map_err(|e| e.to_string())?;
    df.collect().await.map_err(|e| e.to_string())
}

/// `SELECT x` over the file by this crate's context (its format, so its reader where the scan
/// allows), over `partitions` partitions, or its error.
async fn tensor_read(path: &str, partitions: usize) -> Result<Vec<RecordBatch>, String> {
    let df = context(partitions)
        .sql(&format!("SELECT x FROM '{path}'"))
        .await
        .map_err(|e| e.to_string())?;
    df.collect().await.map_err(|e| e.to_string())
}

/// Corrupt bytes in the pages (levels, values, page headers) of an uncompressed file: the
/// query never panics, and it gives DataFusion's own reader's result, or fails where that
/// reader fails. (arrow-rs's synchronous reader is not the reference here: it reads a column
/// chunk's pages differently and fails on some files DataFusion's reader reads.)
#[tokio::test]
async fn corrupt_pages_read_as_datafusion_reads_them() {
    let dir = tempfile::tempdir().unwrap();
    let batch = table(vec![("x", f32_tensors(16, &[], &[]))]);
    let clean = write(
        &dir,
        "clean.parquet",
        &batch,
        properties(WriterVersion::PARQUET_1_0, Compression::UNCOMPRESSED, true),
    );
    let bytes = std::fs::read(&clean).unwrap();
    // Only the column chunks: the page indexes and the footer after them stay intact (their
    // errors are DataFusion's, tested in sql/files.slt).
    let metadata = ParquetRecordBatchReaderBuilder::try_new(std::fs::File::open(&clean).unwrap())
        .unwrap()
        .metadata()
        .clone();
    let data_end = metadata
        .row_groups()
        .iter()
        .map(|group| {
            let (start, len) = group.column(0).byte_range();
            (start + len) as usize
        })
        .max()
        .unwrap();
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let (mut same, mut both_failed) = (0, 0);
    for case in 0..200 {
        let mut corrupt = bytes.clone();
        for _ in 0..=(next() % 3) {
            let at = 4 + (next() as usize) % (data_end - 4);
            corrupt[at] ^= 1 << (next() % 8);
        }
        let path = dir.path().join(format!("corrupt_{case}.parquet"));
        std::fs::write(&path, &corrupt).unwrap();
        let path = path.to_str().unwrap().to_string();
        let expected = datafusion_read(&path).await;
        let got = tensor_read(&path, 1).await;
        match (got, expected) {
            (Ok(batches), Ok(expected)) => {
                let got = concat_batches(&batches[0].schema(), &batches).unwrap();
                let expected = concat_batches(&expected[0].schema(), &expected).unwrap();
                assert_columns(&got, &expected, &["x"]);
                same += 1;
            }
            (Err(_), Err(_)) => both_failed += 1,
            (got, expected) => panic!(
                "case {case}: the query gave {:?}, arrow-rs {:?}",
                got.map(|b| b.len()),
                expected.map(|b| b.len())
            ),
        }
    }
    // Both kinds of case occur (the corruption is not all in one kind of byte).
    assert!(
        same > 0 && both_failed > 0,
        "{same} equal, {both_failed} both failed"
    );
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
