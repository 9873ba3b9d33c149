//! Sort and window keys computed by tensor functions are computed once, in a projection below
//! the sort (`rules::sort_keys`): the plans say so. (The rows are numpy's, in
//! `sql/tensor_sort_keys_generated.slt`.)

use datafusion_tensor::tensor_session_context_with_config;

async fn plan_of(sql: &str) -> String {
    let config = datafusion_tensor::session_config().with_target_partitions(1);
    let ctx = tensor_session_context_with_config(config).unwrap();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/sort_keys.parquet");
    ctx.sql(&format!(
        "CREATE EXTERNAL TABLE t STORED AS PARQUET LOCATION '{path}'"
    ))
    .await
    .unwrap();
    let batches = ctx
        .sql(&format!("EXPLAIN {sql}"))
        .await
        .unwrap()
        .collect()
        .await
        .unwrap();
    arrow::util::pretty::pretty_format_batches(&batches)
        .unwrap()
        .to_string()
}

#[tokio::test]
async fn a_top_k_sorts_by_a_key_computed_once_below_it() {
    let plan = plan_of("SELECT id FROM t ORDER BY tensor_cosine_similarity(e, [1, 2, 3, 4, 5, 6, 7, 8]) DESC LIMIT 3").await;
    // The TopK sorts by a column; the projection under it computes the similarity, and the
    // tensor column goes no higher.
    assert!(
        plan.contains("SortExec: TopK(fetch=3), expr=[__tensor_sort_key_0@1 DESC]"),
        "{plan}"
    );
    assert!(
        plan.contains("ProjectionExec: expr=[id@0 as id, tensor_cosine_similarity(e@1, "),
        "{plan}"
    );
    assert_eq!(
        plan.matches("tensor_cosine_similarity(e@1").count(),
        1,
        "{plan}"
    );
}

#[tokio::test]
async fn a_window_partitions_and_orders_by_projected_keys() {
    let plan = plan_of(
        "SELECT id FROM t QUALIFY row_number() OVER (PARTITION BY g ORDER BY tensor_l2_distance(e, [1, 2, 3, 4, 5, 6, 7, 8]), id) <= 2",
    )
    .await;
    let sort = plan
        .lines()
        .find(|line| line.contains("SortExec"))
        .unwrap_or_else(|| panic!("{plan}"));
    assert!(sort.contains("__tensor_sort_key_0@"), "{plan}");
    // Only the projection below the sort reads the tensors.
    assert_eq!(plan.matches("tensor_l2_distance(e@").count(), 1, "{plan}");
}
