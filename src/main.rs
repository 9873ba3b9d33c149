//! `datafusion-tensor`: the DataFusion CLI with the tensor functions registered.

use std::process::ExitCode;

use mimalloc::MiMalloc;

#[global_allocator]
static GLOBAL: MiMalloc = MiMalloc;

#[tokio::main]
async fn main() -> ExitCode {
    datafusion_tensor::cli::main().await
}
