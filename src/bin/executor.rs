//! `datafusion-tensor-executor`: Ballista's executor with the tensor functions, codecs and
//! Parquet format. It takes exactly Ballista's executor flags (`--bind-host`,
//! `--external-host`, `--bind-port`, `--bind-grpc-port`, `--bind-health-port`,
//! `--scheduler-host`, `--scheduler-port`, ...; `--help` lists them).

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> ballista_core::error::Result<()> {
    datafusion_tensor_ballista::process::executor_main().await
}
