//! The per-batch byte limit (`tensor.max_batch_bytes`, `datafusion_tensor::limits`) set for
//! one session, through the DataFrame-free `SessionContext::sql` path too: the session's value
//! applies where a batch runs. (The SQL cases are in `sql/limits.slt`.)

use datafusion::prelude::SessionContext;
use datafusion_tensor::tensor_session_context;

async fn error_of(ctx: &SessionContext, sql: &str) -> String {
    match ctx.sql(sql).await {
        Ok(df) => match df.collect().await {
            Ok(_) => panic!("{sql}: ran, expected an error"),
            Err(err) => err.to_string(),
        },
        Err(err) => err.to_string(),
    }
}

#[tokio::test]
async fn a_batch_past_the_session_byte_limit_is_an_error_and_another_session_runs_it() {
    let ctx = tensor_session_context().unwrap();
    ctx.sql("SET tensor.max_batch_bytes = 1048576")
        .await
        .unwrap()
        .collect()
        .await
        .unwrap();

    // 1000 rows of 1024 Int64 elements: 8,192,000 bytes in one batch.
    let sql = "SELECT tensor(range(value, value + 1024), [32, 32]) FROM generate_series(1, 1000)";
    let err = error_of(&ctx, sql).await;
    assert!(
        err.contains("tensor: the result of this batch would take 8192000 bytes (1000 rows of 1024 Int64 elements), more than the limit of 1048576 bytes per batch; lower datafusion.execution.batch_size"),
        "{err}"
    );

    // The update functions check their result too: x a plain FixedSizeList of 512 Float64
    // (a 1-d tensor that no tensor function built), 1000 rows.
    let err = error_of(
        &ctx,
        "SELECT tensor_at_add(arrow_cast(arrow_cast(range(value, value + 512), 'List(Float64)'), 'FixedSizeList(512, Float64)'), 0, 1.0) FROM generate_series(1, 1000)",
    )
    .await;
    assert!(
        err.contains("tensor_at_add: the result of this batch would take 4096000 bytes"),
        "{err}"
    );

    // Another session of the same process keeps the default (8 GiB).
    let other = tensor_session_context().unwrap();
    let batches = other
        .sql(&format!("SELECT count(*) FROM ({sql})"))
        .await
        .unwrap()
        .collect()
        .await
        .unwrap();
    let text = arrow::util::pretty::pretty_format_batches(&batches)
        .unwrap()
        .to_string();
    assert!(text.contains("| 1000     |"), "{text}");
}

/// A window aggregate stacking a growing frame (every row's result a stack of the rows so
/// far): its results are counted per batch of results against the byte limit in force, and
/// refused past it instead of growing quadratically.
#[tokio::test]
async fn a_window_stack_past_the_byte_limit_is_an_error() {
    use datafusion_tensor::limits::{Limits, scope};

    let config = datafusion_tensor::session_config().with_target_partitions(1);
    let ctx = datafusion_tensor::tensor_session_context_with_config(config).unwrap();
    let limits = Limits {
        max_tensor_elements: datafusion_tensor::limits::DEFAULT_MAX_TENSOR_ELEMENTS,
        max_batch_bytes: 1 << 20,
    };
    // 400 rows of 64 Float64: the running stacks hold 64 * 400 * 401 / 2 * 8 = 41 MB.
    let sql = "SELECT tensor_agg_stack(tensor(range(value, value + 64), [8, 8])) \
               OVER (ORDER BY value) FROM generate_series(1, 400)";
    let err = scope(limits, error_of(&ctx, sql)).await;
    assert!(
        err.contains("tensor_agg_stack: its results would take more than 1048576 bytes"),
        "{err}"
    );
    // Smaller window partitions stay well under it: 100 partitions of 4 rows, whose stacks
    // hold 1, 2, 3 and 4 rows.
    let partitioned = "SELECT sum(tensor_size(s)) FROM (SELECT tensor_agg_stack(tensor(range(value, \
                       value + 64), [8, 8])) OVER (PARTITION BY value % 100 ORDER BY value) AS s \
                       FROM generate_series(1, 400))";
    let batches = scope(limits, async {
        ctx.sql(partitioned).await.unwrap().collect().await.unwrap()
    })
    .await;
    let text = arrow::util::pretty::pretty_format_batches(&batches)
        .unwrap()
        .to_string();
    assert!(
        text.contains(&format!("| {} ", 64 * (1 + 2 + 3 + 4) * 100)),
        "{text}"
    );
}
