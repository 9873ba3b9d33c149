//! A Parquet table of tensors: written here with DataFusion (pyarrow-written files read the
//! same way), registered as a table, and queried with the fast tensor reader.
//!
//!     cargo run -p datafusion-tensor --example parquet_table

use datafusion::dataframe::DataFrameWriteOptions;
use datafusion::prelude::ParquetReadOptions;

#[tokio::main(flavor = "current_thread")]
async fn main() -> datafusion::error::Result<()> {
    let ctx = datafusion_tensor::tensor_session_context()?;
    let dir =
        std::env::temp_dir().join(format!("datafusion-tensor-example-{}", std::process::id()));
    let path = dir.join("images.parquet");
    let path = path.to_str().expect("a UTF-8 temporary path");

    // 1,000 rows of 4x4 float32 tensors with an id.
    ctx.sql(
        "SELECT id, tensor(arrow_cast(list_transform(range(16), v -> CAST(v + id AS DOUBLE)), \
         'FixedSizeList(16, Float32)'), [4, 4], ['h', 'w']) AS image FROM range(1000) AS t(id)",
    )
    .await?
    .write_parquet(path, DataFrameWriteOptions::new(), None)
    .await?;

    ctx.register_parquet("images", path, ParquetReadOptions::default())
        .await?;
    let df = ctx
        .sql(
            "SELECT id, tensor_shape(image) AS shape, tensor_sum(image) AS total, \
                    tensor_get(image, ':2, -1') AS corner \
             FROM images WHERE id < 3 ORDER BY id",
        )
        .await?;
    df.show().await?;
    std::fs::remove_dir_all(&dir).ok();
    Ok(())
}
