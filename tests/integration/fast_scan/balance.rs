//! Row groups shared among scan partitions by the middle of their bytes: as many to each
//! partition as the byte ranges allow, each read once.

use std::sync::Arc;

use arrow::array::{AsArray, Int64Array};
use arrow::datatypes::Int64Type;
use datafusion::parquet::basic::Compression;
use datafusion::parquet::file::properties::{WriterProperties, WriterVersion};
use datafusion::physical_plan::ExecutionPlanProperties;
use futures::TryStreamExt;

use super::{ROWS, context, f32_tensors, planned, table, write};

/// The ids each partition of `sql`'s plan gives, partition by partition.
async fn ids_by_partition(
    ctx: &datafusion::execution::context::SessionContext,
    sql: &str,
) -> Vec<Vec<i64>> {
    let plan = planned(ctx, sql).await;
    let mut partitions = Vec::new();
    for partition in 0..plan.output_partitioning().partition_count() {
        let batches: Vec<_> = plan
            .execute(partition, ctx.task_ctx())
            .unwrap()
            .try_collect()
            .await
            .unwrap();
        partitions.push(
            batches
                .iter()
                .flat_map(|b| b.column(0).as_primitive::<Int64Type>().values().to_vec())
                .collect(),
        );
    }
    partitions
}

/// Four row groups of the same size, packed one after another, and the footer after them:
/// cut in two equal byte ranges, the cut falls just after the third row group's first byte.
/// By their first pages (DataFusion's reader) the first partition reads three and the second
/// one; by their middle bytes, two each. Both read every row once.
#[tokio::test]
async fn equal_row_groups_are_shared_evenly() {
    let dir = tempfile::tempdir().unwrap();
    let rows = i64::try_from(ROWS).unwrap();
    let batch = table(vec![
        ("id", Arc::new(Int64Array::from_iter_values(0..rows))),
        ("x", f32_tensors(16, &[], &[])),
    ]);
    // Plain, uncompressed, of 875 rows a row group: four row groups of the same bytes.
    let props = WriterProperties::builder()
        .set_writer_version(WriterVersion::PARQUET_1_0)
        .set_compression(Compression::UNCOMPRESSED)
        .set_dictionary_enabled(false)
        .set_max_row_group_row_count(Some(ROWS / 4))
        .build();
    let path = write(&dir, "equal.parquet", &batch, props);
    // A filter above the scan, so that DataFusion cuts the file in two byte ranges.
    let sql = format!("SELECT id, x FROM '{path}' WHERE id >= 0");
    let ctx = context(2);
    // Each partition reads its own byte range (here they run one after the other, and with
    // DataFusion's stealing of unopened file ranges the first would read both).
    ctx.sql("SET datafusion.execution.enable_file_stream_work_stealing = false")
        .await
        .unwrap();
    let fast = ids_by_partition(&ctx, &sql).await;
    ctx.sql("SET tensor.fast_parquet = false").await.unwrap();
    let datafusion = ids_by_partition(&ctx, &sql).await;
    let sizes = |partitions: &[Vec<i64>]| partitions.iter().map(Vec::len).collect::<Vec<_>>();
    assert_eq!(sizes(&datafusion), [ROWS / 4 * 3, ROWS / 4]);
    assert_eq!(sizes(&fast), [ROWS / 2, ROWS / 2]);
    let mut all: Vec<i64> = fast.concat();
    all.sort_unstable();
    assert_eq!(all, (0..rows).collect::<Vec<_>>());
    // Each partition's rows in file order.
    assert_eq!(fast[0], (0..rows / 2).collect::<Vec<_>>());
    assert_eq!(fast[1], (rows / 2..rows).collect::<Vec<_>>());
}
