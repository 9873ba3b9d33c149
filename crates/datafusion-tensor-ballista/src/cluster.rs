//! A scheduler and executors in this process (the standalone context and the tests), and the
//! two processes of a real cluster (the `datafusion-tensor-scheduler` and
//! `datafusion-tensor-executor` binaries), each with the tensor functions, codecs and format.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use arrow_flight::flight_service_server::FlightServiceServer;
use ballista_core::config::TaskSchedulingPolicy;
use ballista_core::error::BallistaError;
use ballista_core::extension::SessionConfigExt;
use ballista_core::ids::new_instance_id;
use ballista_core::serde::BallistaCodec;
use ballista_core::serde::protobuf::ExecutorRegistration;
use ballista_core::serde::protobuf::scheduler_grpc_client::SchedulerGrpcClient;
use ballista_core::serde::scheduler::{
    ExecutorOperatingSystemSpecification, ExecutorSpecification,
};
use ballista_core::utils::{GrpcServerConfig, create_grpc_server};
use ballista_core::{BALLISTA_PROTOCOL_VERSION, ConfigProducer, RuntimeProducer};
use ballista_executor::executor::Executor;
use ballista_executor::executor_process::ExecutorProcessConfig;
use ballista_executor::flight_service::BallistaFlightService;
use ballista_executor::metrics::LoggingMetricsCollector;
use ballista_scheduler::cluster::BallistaCluster;
use ballista_scheduler::config::SchedulerConfig;
use ballista_scheduler::scheduler_process::{create_scheduler, start_grpc_service_with_listener};
use datafusion::error::{DataFusionError, Result};
use datafusion::execution::runtime_env::RuntimeEnvBuilder;
use datafusion_proto::protobuf::{LogicalPlanNode, PhysicalPlanNode};
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

use super::{TensorLogicalCodec, TensorPhysicalCodec, function_registry, tensor_ballista_config};

fn ballista_error(err: BallistaError) -> DataFusionError {
    DataFusionError::External(Box::new(err))
}

/// The codecs every process of a tensor cluster uses.
pub fn tensor_codec() -> BallistaCodec<LogicalPlanNode, PhysicalPlanNode> {
    BallistaCodec::new(
        Arc::new(TensorLogicalCodec::new()),
        Arc::new(TensorPhysicalCodec::new()),
    )
}

/// `config` (Ballista's scheduler configuration) with the tensor session builder and codecs.
pub fn tensor_scheduler_config(config: SchedulerConfig) -> SchedulerConfig {
    let mut config = config
        .with_override_config_producer(Arc::new(tensor_ballista_config))
        .with_override_session_builder(Arc::new(super::tensor_session_state));
    config.override_logical_codec = Some(Arc::new(TensorLogicalCodec::new()));
    config.override_physical_codec = Some(Arc::new(TensorPhysicalCodec::new()));
    config
}

/// `config` (Ballista's executor configuration) with the tensor functions, codecs and session
/// configuration.
pub fn tensor_executor_config(mut config: ExecutorProcessConfig) -> ExecutorProcessConfig {
    config.override_config_producer = Some(Arc::new(tensor_ballista_config));
    config.override_logical_codec = Some(Arc::new(TensorLogicalCodec::new()));
    config.override_physical_codec = Some(Arc::new(TensorPhysicalCodec::new()));
    config.override_function_registry = Some(Arc::new(function_registry()));
    config
}

/// A scheduler and executors running in this process, on 127.0.0.1 with ports the system
/// chose. Dropping it stops them.
#[derive(Debug)]
pub struct LocalCluster {
    scheduler: SocketAddr,
    scheduler_task: JoinHandle<()>,
    executors: Vec<LocalExecutor>,
}

/// One in-process executor: its polling loop and Flight server (which serves its shuffle
/// files), and its work directory.
#[derive(Debug)]
struct LocalExecutor {
    tasks: Vec<JoinHandle<()>>,
    work_dir: PathBuf,
}

impl LocalExecutor {
    fn stop(&mut self) {
        for task in &self.tasks {
            task.abort();
        }
    }
}

impl Drop for LocalExecutor {
    fn drop(&mut self) {
        self.stop();
        let _ = std::fs::remove_dir_all(&self.work_dir);
    }
}

impl Drop for LocalCluster {
    fn drop(&mut self) {
        self.executors.clear();
        self.scheduler_task.abort();
    }
}

/// How a [`LocalCluster`] is started.
#[derive(Debug, Clone)]
pub struct LocalClusterOptions {
    /// How many executors.
    pub executors: usize,
    /// Task slots per executor.
    pub vcores: usize,
    /// After how long without a heartbeat the scheduler counts an executor as dead (and
    /// reschedules its tasks or fails the job).
    pub executor_timeout_seconds: u64,
}

impl Default for LocalClusterOptions {
    fn default() -> Self {
        Self {
            executors: 2,
            vcores: 2,
            executor_timeout_seconds: 180,
        }
    }
}

static WORK_DIRS: AtomicUsize = AtomicUsize::new(0);

impl LocalCluster {
    /// Starts a scheduler and `options.executors` executors.
    ///
    /// # Errors
    /// When a server cannot bind 127.0.0.1 or the executors cannot reach the scheduler.
    pub async fn start(options: LocalClusterOptions) -> Result<Self> {
        let mut config = SchedulerConfig::default()
            .with_hostname("127.0.0.1")
            .with_scheduler_policy(TaskSchedulingPolicy::PullStaged);
        config.bind_host = "127.0.0.1".to_string();
        config.executor_timeout_seconds = options.executor_timeout_seconds;
        config.expire_dead_executor_interval_seconds = options.executor_timeout_seconds.min(15);
        let config = tensor_scheduler_config(config);
        let cluster = BallistaCluster::new_from_config(&config)
            .await
            .map_err(ballista_error)?;
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let scheduler = listener.local_addr()?;
        let server = create_scheduler::<LogicalPlanNode, PhysicalPlanNode>(
            cluster,
            Arc::new(config.with_port(scheduler.port())),
        )
        .await
        .map_err(ballista_error)?;
        let scheduler_task = tokio::spawn(async move {
            if let Err(err) = start_grpc_service_with_listener(listener, server).await {
                log::error!("the scheduler stopped: {err}");
            }
        });
        let mut cluster = Self {
            scheduler,
            scheduler_task,
            executors: Vec::new(),
        };
        for _ in 0..options.executors {
            let executor = start_executor(scheduler, options.vcores).await?;
            cluster.executors.push(executor);
        }
        Ok(cluster)
    }

    /// The scheduler's address.
    pub fn scheduler(&self) -> SocketAddr {
        self.scheduler
    }

    /// The scheduler as a Ballista URL, `df://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("df://{}", self.scheduler)
    }

    /// How many executors were started.
    pub fn executors(&self) -> usize {
        self.executors.len()
    }
}

/// An executor in this process, polling the scheduler at `scheduler` (Ballista's standalone
/// executor, on 127.0.0.1).
async fn start_executor(scheduler: SocketAddr, vcores: usize) -> Result<LocalExecutor> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let address = listener.local_addr()?;
    let id = new_instance_id();
    let registration = ExecutorRegistration {
        id: id.clone(),
        host: Some("127.0.0.1".to_string()),
        port: u32::from(address.port()),
        // Pull-based scheduling: the scheduler never calls this port.
        grpc_port: 0,
        specification: Some(
            ExecutorSpecification::default()
                .with_vcores(vcores as u32)
                .into(),
        ),
        os_info: Some(ExecutorOperatingSystemSpecification::default().into()),
        ballista_protocol_version: BALLISTA_PROTOCOL_VERSION,
    };
    let work_dir = std::env::temp_dir().join(format!(
        "datafusion-tensor-executor-{}-{}",
        std::process::id(),
        WORK_DIRS.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&work_dir)?;
    let work = work_dir.to_string_lossy().to_string();
    let config_producer: ConfigProducer = Arc::new(tensor_ballista_config);
    let runtime = Arc::new(RuntimeEnvBuilder::new().build()?);
    let runtime_producer: RuntimeProducer = Arc::new(move |_| Ok(Arc::clone(&runtime)));
    let max_message = tensor_ballista_config().ballista_grpc_client_max_message_size();
    let executor = Arc::new(Executor::with_default_execution_engine(
        registration,
        &work,
        runtime_producer,
        config_producer,
        Arc::new(function_registry()),
        Arc::new(LoggingMetricsCollector::default()),
        vcores,
    ));
    let flight = FlightServiceServer::new(BallistaFlightService::new(work))
        .max_decoding_message_size(max_message)
        .max_encoding_message_size(max_message);
    let flight_task = tokio::spawn(async move {
        let _ = create_grpc_server(&GrpcServerConfig::default())
            .add_service(flight)
            .serve_with_incoming(tokio_stream::wrappers::TcpListenerStream::new(listener))
            .await;
    });
    let client = connect(scheduler).await?;
    let poll_task = tokio::spawn(async move {
        if let Err(err) = ballista_executor::execution_loop::poll_loop(
            client,
            executor,
            tensor_codec(),
            None,
            None,
            ballista_executor::health::ExecutorHealth::new(),
        )
        .await
        {
            log::error!("executor {id} stopped: {err}");
        }
    });
    Ok(LocalExecutor {
        tasks: vec![flight_task, poll_task],
        work_dir,
    })
}

/// A client of the scheduler at `scheduler`, tried for up to ten seconds.
async fn connect(scheduler: SocketAddr) -> Result<SchedulerGrpcClient<tonic::transport::Channel>> {
    let url = format!("http://{scheduler}");
    let mut last = None;
    for _ in 0..100 {
        match SchedulerGrpcClient::connect(url.clone()).await {
            Ok(client) => return Ok(client),
            Err(err) => last = Some(err),
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    Err(DataFusionError::Execution(format!(
        "cannot reach the scheduler at {url}: {}",
        last.map_or_else(String::new, |e| e.to_string())
    )))
}
