//! `datafusion-tensor-scheduler`: Ballista's scheduler with the tensor functions, codecs and
//! Parquet format. It takes exactly Ballista's scheduler flags (`--bind-host`,
//! `--external-host`, `--bind-port`, ...; `--help` lists them).

use std::sync::Arc;
use std::{env, io};

use crate::cluster::tensor_scheduler_config;
use ballista_core::config::LogRotationPolicy;
use ballista_core::error::BallistaError;
use ballista_scheduler::cluster::BallistaCluster;
use ballista_scheduler::config::{Config, SchedulerConfig};
use ballista_scheduler::scheduler_process::start_server;
use clap::Parser;
use tracing_subscriber::EnvFilter;

/// The `datafusion-tensor-scheduler` process: Ballista's scheduler with the tensor functions,
/// codecs and Parquet format, configured from Ballista's scheduler flags.
pub fn scheduler_main() -> ballista_core::error::Result<()> {
    // As Ballista's scheduler: deep plans are planned recursively.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_io()
        .enable_time()
        .thread_stack_size(32 * 1024 * 1024)
        .build()
        .map_err(BallistaError::from)?;
    runtime.block_on(run())
}

async fn run() -> ballista_core::error::Result<()> {
    let opt = Config::parse();

    let log_filter = EnvFilter::new(
        env::var(EnvFilter::DEFAULT_ENV).unwrap_or_else(|_| opt.log_level_setting.clone()),
    );
    let tracing = tracing_subscriber::fmt()
        .with_ansi(false)
        .with_thread_names(opt.print_thread_info)
        .with_thread_ids(opt.print_thread_info)
        .with_writer(io::stdout)
        .with_env_filter(log_filter);
    if let Some(log_dir) = &opt.log_dir {
        let prefix = format!(
            "scheduler_{}_{}_{}",
            opt.namespace, opt.external_host, opt.bind_port
        );
        let log_file = match opt.log_rotation_policy {
            LogRotationPolicy::Minutely => tracing_appender::rolling::minutely(log_dir, &prefix),
            LogRotationPolicy::Hourly => tracing_appender::rolling::hourly(log_dir, &prefix),
            LogRotationPolicy::Daily => tracing_appender::rolling::daily(log_dir, &prefix),
            LogRotationPolicy::Never => tracing_appender::rolling::never(log_dir, &prefix),
        };
        tracing.with_writer(log_file).init();
    } else {
        tracing.init();
    }

    let addr = format!("{}:{}", opt.bind_host, opt.bind_port)
        .parse()
        .map_err(|e: std::net::AddrParseError| BallistaError::Configuration(e.to_string()))?;
    let config: SchedulerConfig = opt.try_into()?;
    let config = tensor_scheduler_config(config);
    let cluster = BallistaCluster::new_from_config(&config).await?;
    start_server(cluster, addr, Arc::new(config)).await
}
