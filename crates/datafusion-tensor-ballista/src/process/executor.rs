//! `datafusion-tensor-executor`: Ballista's executor with the tensor functions, codecs and
//! Parquet format. It takes exactly Ballista's executor flags (`--bind-host`,
//! `--external-host`, `--bind-port`, `--bind-grpc-port`, `--bind-health-port`,
//! `--scheduler-host`, `--scheduler-port`, ...; `--help` lists them).

use std::env;
use std::net::SocketAddr;
use std::sync::Arc;

use crate::cluster::tensor_executor_config;
use ballista_core::config::LogRotationPolicy;
use ballista_core::error::BallistaError;
use ballista_executor::config::Config;
use ballista_executor::executor_process::{ExecutorProcessConfig, start_executor_process};
use ballista_executor::health::spawn_health_server;
use clap::Parser;
use tracing_subscriber::EnvFilter;

/// The `datafusion-tensor-executor` process: Ballista's executor with the tensor functions,
/// codecs and Parquet format, configured from Ballista's executor flags.
pub async fn executor_main() -> ballista_core::error::Result<()> {
    let opt = Config::parse();
    let bind_host = opt.bind_host.clone();
    let bind_health_port = opt.bind_health_port;

    let config: ExecutorProcessConfig = opt.try_into()?;
    let config = tensor_executor_config(config);

    let log_filter = EnvFilter::new(
        env::var(EnvFilter::DEFAULT_ENV).unwrap_or_else(|_| config.special_mod_log_level.clone()),
    );
    let tracing = tracing_subscriber::fmt()
        .with_ansi(false)
        .with_thread_names(config.print_thread_info)
        .with_thread_ids(config.print_thread_info)
        .with_env_filter(log_filter);
    if let Some(log_dir) = &config.log_dir {
        let prefix = config.log_file_name_prefix();
        let log_file = match config.log_rotation_policy {
            LogRotationPolicy::Minutely => tracing_appender::rolling::minutely(log_dir, prefix),
            LogRotationPolicy::Hourly => tracing_appender::rolling::hourly(log_dir, prefix),
            LogRotationPolicy::Daily => tracing_appender::rolling::daily(log_dir, prefix),
            LogRotationPolicy::Never => tracing_appender::rolling::never(log_dir, prefix),
        };
        tracing.with_writer(log_file).init();
    } else {
        tracing.init();
    }

    // The health probes, as Ballista's executor binary serves them.
    let health_addr: SocketAddr = format!("{bind_host}:{bind_health_port}")
        .parse()
        .map_err(|e| BallistaError::General(format!("invalid --bind-health-port address: {e}")))?;
    let (health_shutdown, health_shutdown_rx) = tokio::sync::oneshot::channel();
    let health = spawn_health_server(health_addr, config.health.clone(), health_shutdown_rx);

    let result = start_executor_process(Arc::new(config)).await;
    let _ = health_shutdown.send(());
    let _ = health.await;
    result
}
