//! The tensor functions on a `SessionContext` of your own: register them, then query with SQL
//! (numpy's indexing, JAX's indexed updates, arithmetic with broadcasting, reductions).
//!
//!     cargo run -p datafusion-tensor --example own_context

use datafusion::prelude::{SessionConfig, SessionContext};
use datafusion_tensor::TensorSql;

#[tokio::main(flavor = "current_thread")]
async fn main() -> datafusion::error::Result<()> {
    // Your configuration, with the settings the tensor functions need (Parquet field metadata
    // kept; `datafusion_tensor::session_config()` is DataFusion's default with them).
    let mut config = SessionConfig::new().with_target_partitions(4);
    config.options_mut().execution.parquet.skip_metadata = false;
    let ctx = SessionContext::new_with_config(config);
    datafusion_tensor::register_all(&ctx)?;

    // `tensor_sql` also takes keyword options in any order, as numpy and JAX users write them.
    let df = ctx
        .tensor_sql(
            "SELECT x, \
                    tensor_get(x, '1, ::-1') AS row_reversed, \
                    tensor_at_add(x, '[0, 0, 1]', 10, mode => 'clip') AS updated, \
                    x * 2 + 1 AS scaled, \
                    tensor_mean(x, keepdims => true, axis => 1) AS row_means \
             FROM (SELECT tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], [2, 3]) AS x)",
        )
        .await?;
    df.show().await?;
    Ok(())
}
