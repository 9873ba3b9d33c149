//! `datafusion-tensor-scheduler`: Ballista's scheduler with the tensor functions, codecs and
//! Parquet format. It takes exactly Ballista's scheduler flags (`--bind-host`,
//! `--external-host`, `--bind-port`, ...; `--help` lists them).

fn main() -> ballista_core::error::Result<()> {
    datafusion_tensor_ballista::process::scheduler_main()
}
