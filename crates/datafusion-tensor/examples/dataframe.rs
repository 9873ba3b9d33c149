//! The tensor functions and operators in DataFusion's DataFrame API.
//!
//!     cargo run -p datafusion-tensor --example dataframe

use datafusion::prelude::{col, lit};
use datafusion_tensor::dataframe::{TensorDataFrameExt, tensor_call, tensor_call_with};

#[tokio::main(flavor = "current_thread")]
async fn main() -> datafusion::error::Result<()> {
    let ctx = datafusion_tensor::tensor_session_context()?;
    let df = ctx
        .sql("SELECT tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], [2, 3]) AS x")
        .await?
        // `select` with operators on tensors: `x * 2.0` is numpy's `x * 2.0`.
        .tensor_select(vec![
            col("x"),
            (col("x") * lit(2.0) - lit(1.0)).alias("y"),
            col("x").gt(lit(3.0)).alias("mask"),
            tensor_call("tensor_get", vec![col("x"), lit(":, 1")])?.alias("column_1"),
            tensor_call_with("tensor_sum", vec![col("x")], vec![("axis", lit(0))])?.alias("sums"),
        ])?
        .tensor_with_column(
            "z",
            tensor_call("tensor_maximum", vec![col("y"), lit(4.0)])?,
        )?;
    df.show().await?;
    Ok(())
}
