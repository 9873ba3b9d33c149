//! The per-batch byte limit (`tensor.max_batch_bytes`, `datafusion_tensor::limits`) set for
//! one session, through the DataFrame-free `SessionContext::sql` path too: the session's value
//! applies where a batch runs. (The SQL cases are in `sql/limits.slt`.)

use datafusion::prelude::SessionContext;
use datafusion_tensor::tensor_session_context;

/// Runs a statement that must succeed (a `SET`).
async fn run(ctx: &SessionContext, sql: &str) {
    ctx.sql(sql).await.unwrap().collect().await.unwrap();
}

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
    run(&ctx, "SET tensor.max_batch_bytes = 1048576").await;

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
/// far): its results are counted per batch of results against the session's byte limit, set
/// with SET (DataFusion gives an accumulator no configuration: the analyzer rule
/// `SessionLimits` hands the call its session's limits), and refused past it instead of
/// growing quadratically.
#[tokio::test]
async fn a_window_stack_past_the_byte_limit_is_an_error() {
    let config = datafusion_tensor::session_config().with_target_partitions(1);
    let ctx = datafusion_tensor::tensor_session_context_with_config(config).unwrap();
    run(&ctx, "SET tensor.max_batch_bytes = 1048576").await;
    // 400 rows of 64 Float64: the running stacks hold 64 * 400 * 401 / 2 * 8 = 41 MB.
    let sql = "SELECT tensor_agg_stack(tensor(range(value, value + 64), [8, 8])) \
               OVER (ORDER BY value) FROM generate_series(1, 400)";
    let err = error_of(&ctx, sql).await;
    assert!(
        err.contains("tensor_agg_stack: its results would take more than 1048576 bytes"),
        "{err}"
    );
    // Smaller window partitions stay well under it: 100 partitions of 4 rows, whose stacks
    // hold 1, 2, 3 and 4 rows.
    let partitioned = "SELECT sum(tensor_size(s)) FROM (SELECT tensor_agg_stack(tensor(range(value, \
                       value + 64), [8, 8])) OVER (PARTITION BY value % 100 ORDER BY value) AS s \
                       FROM generate_series(1, 400))";
    let batches = ctx.sql(partitioned).await.unwrap().collect().await.unwrap();
    let text = arrow::util::pretty::pretty_format_batches(&batches)
        .unwrap()
        .to_string();
    assert!(
        text.contains(&format!("| {} ", 64 * (1 + 2 + 3 + 4) * 100)),
        "{text}"
    );
}

/// The element limit, lowered and raised with SET through `SessionContext::sql` (no SQL
/// rewrite, no task-local: DataFusion renews the functions with the session's settings), and
/// set in the configuration a session starts from.
#[tokio::test]
async fn the_element_limit_follows_the_session_on_every_path() {
    // 2^26 + 4 elements: past the default limit. Planned only (EXPLAIN), and of a column
    // (not folded into a literal while planning): nothing is allocated.
    let big = "EXPLAIN SELECT tensor_broadcast_to(tensor([v], [1]), [67108868]) \
               FROM (VALUES (1.0)) t(v)";
    let ctx = tensor_session_context().unwrap();
    let err = error_of(&ctx, big).await;
    assert!(
        err.contains("tensor_broadcast_to: tensor shape (67108868,) has 67108868 elements, more than the limit of 67108864 elements per tensor (raise it with SET tensor.max_tensor_elements)"),
        "{err}"
    );
    run(&ctx, "SET tensor.max_tensor_elements = 100000000").await;
    let batches = ctx.sql(big).await.unwrap().collect().await.unwrap();
    let text = arrow::util::pretty::pretty_format_batches(&batches)
        .unwrap()
        .to_string();
    assert!(text.contains("tensor_broadcast_to"), "{text}");

    // Lowered: a 4 x 4 result is refused.
    let small = "SELECT tensor_broadcast_to(tensor([1.0], [1]), [4, 4])";
    run(&ctx, "SET tensor.max_tensor_elements = 10").await;
    let err = error_of(&ctx, small).await;
    assert!(
        err.contains("more than the limit of 10 elements per tensor"),
        "{err}"
    );
    // RESET (DataFusion 55 resets its own settings only: SET back to the default).
    run(&ctx, "SET tensor.max_tensor_elements = 67108864").await;
    assert!(ctx.sql(small).await.unwrap().collect().await.is_ok());

    // A session whose configuration sets the limit from the start.
    let mut config = datafusion_tensor::session_config();
    config
        .options_mut()
        .set("tensor.max_tensor_elements", "10")
        .unwrap();
    let limited = datafusion_tensor::tensor_session_context_with_config(config).unwrap();
    let err = error_of(&limited, small).await;
    assert!(
        err.contains("more than the limit of 10 elements per tensor"),
        "{err}"
    );
    // Another session of the process keeps the default.
    let other = tensor_session_context().unwrap();
    assert!(other.sql(small).await.unwrap().collect().await.is_ok());
}
