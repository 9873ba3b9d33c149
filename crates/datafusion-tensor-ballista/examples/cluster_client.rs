//! The tensor functions on an Apache Ballista cluster: an in-process scheduler and executors
//! here (point `remote_context` at `df://HOST:50050` for a cluster of the
//! `datafusion-tensor-scheduler` / `-executor` processes), queried with SQL.
//!
//!     cargo run -p datafusion-tensor-ballista --example cluster_client

use datafusion_tensor_ballista::cluster::{LocalCluster, LocalClusterOptions};
use datafusion_tensor_ballista::remote_context;

#[tokio::main]
async fn main() -> datafusion::error::Result<()> {
    let cluster = LocalCluster::start(LocalClusterOptions::default()).await?;
    let ctx = remote_context(&cluster.url())?;
    let df = ctx
        .sql(
            "SELECT id, tensor_sum(tensor_get(x, ':, 1:')) AS s, x * 2 AS doubled \
             FROM (SELECT id, tensor([id, id + 1, id + 2, id + 3], [2, 2]) AS x FROM range(4) AS t(id)) \
             ORDER BY id",
        )
        .await?;
    df.show().await?;
    Ok(())
}
