//! Local files read through a memory map (`tensor.map_files`, the default) and through the
//! object store's reads: the same rows, and the scan's metrics say which ran.

use std::sync::Arc;

use arrow::array::{Int64Array, RecordBatch};
use datafusion::execution::context::SessionContext;
use datafusion::parquet::basic::{Compression, ZstdLevel};
use datafusion::parquet::file::properties::WriterVersion;
use datafusion::physical_plan::ExecutionPlan;

use super::{context, f32_tensors, planned, properties, ran, row_groups, table, write};

/// The sum of the scan's metric `name` over the plan (0 where no scan has it).
fn metric(plan: &Arc<dyn ExecutionPlan>, name: &str) -> usize {
    let own = plan
        .metrics()
        .and_then(|m| m.sum_by_name(name))
        .map_or(0, |v| v.as_usize());
    own + plan
        .children()
        .into_iter()
        .map(|child| metric(child, name))
        .sum::<usize>()
}

/// The result of `sql` (one batch), and the plan it ran.
async fn run(ctx: &SessionContext, sql: &str) -> (RecordBatch, Arc<dyn ExecutionPlan>) {
    let plan = planned(ctx, sql).await;
    (ran(ctx, &plan, sql).await, plan)
}

#[tokio::test]
async fn mapped_files_read_as_fetched_ones() {
    let dir = tempfile::tempdir().unwrap();
    let rows = 3500;
    let batch = table(vec![
        ("id", Arc::new(Int64Array::from_iter_values(0..rows))),
        ("x", f32_tensors(16, &[], &[])),
    ]);
    let files = [
        (WriterVersion::PARQUET_1_0, Compression::SNAPPY, true),
        (WriterVersion::PARQUET_2_0, Compression::UNCOMPRESSED, false),
        (
            WriterVersion::PARQUET_2_0,
            Compression::ZSTD(ZstdLevel::default()),
            true,
        ),
    ];
    let queries = [
        "SELECT id, x FROM '{f}' ORDER BY id",
        "SELECT id, x FROM '{f}' WHERE id % 7 = 3 ORDER BY id",
        "SELECT id, x FROM '{f}' WHERE id >= 1500 AND id < 1600 ORDER BY id",
        "SELECT id, x FROM '{f}' ORDER BY id LIMIT 5",
    ];
    let mut compared = 0;
    for (i, (version, compression, dictionary)) in files.into_iter().enumerate() {
        let path = write(
            &dir,
            &format!("mapped_{i}.parquet"),
            &batch,
            properties(version, compression, dictionary),
        );
        for partitions in [1, 3] {
            for sql in queries {
                let sql = sql.replace("{f}", &path);
                let ctx = context(partitions);
                let (mapped, plan) = run(&ctx, &sql).await;
                assert!(metric(&plan, "tensor_bytes_mapped") > 0, "{sql}");
                assert_eq!(metric(&plan, "tensor_bytes_fetched"), 0, "{sql}");
                assert_eq!(row_groups(&plan).1, 0, "{sql}");
                ctx.sql("SET tensor.map_files = false").await.unwrap();
                let (fetched, plan) = run(&ctx, &sql).await;
                assert_eq!(metric(&plan, "tensor_bytes_mapped"), 0, "{sql}");
                assert!(metric(&plan, "tensor_bytes_fetched") > 0, "{sql}");
                assert_eq!(mapped, fetched, "{sql}, {partitions} partitions");
                assert!(mapped.num_rows() > 0);
                compared += 1;
            }
        }
    }
    assert_eq!(compared, 24);
}

#[tokio::test]
async fn a_file_of_another_size_than_listed_is_not_mapped() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let batch = table(vec![("x", f32_tensors(16, &[], &[]))]);
    let path = write(
        &dir,
        "growing.parquet",
        &batch,
        properties(WriterVersion::PARQUET_1_0, Compression::SNAPPY, false),
    );
    let ctx = context(1);
    let sql = format!("SELECT x FROM '{path}'");
    let (before, plan) = run(&ctx, &sql).await;
    assert!(metric(&plan, "tensor_bytes_mapped") > 0);
    let plan = planned(&ctx, &sql).await;
    // Bytes appended after the plan listed the file's size: its first bytes (and so the
    // footer where the plan found it) are unchanged, but a map of the file now would not be
    // the file planned. The scan reads the planned ranges through the object store.
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    file.write_all(&[0u8; 4096]).unwrap();
    drop(file);
    let after = ran(&ctx, &plan, &sql).await;
    assert_eq!(metric(&plan, "tensor_bytes_mapped"), 0);
    assert!(metric(&plan, "tensor_bytes_fetched") > 0);
    assert_eq!(after, before);
}
