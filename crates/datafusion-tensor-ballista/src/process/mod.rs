//! The two processes of a tensor cluster, as Ballista's own binaries run them (Ballista's clap
//! configurations and process starters): the CLI package's `datafusion-tensor-scheduler` and
//! `datafusion-tensor-executor` binaries call these.

mod executor;
mod scheduler;

pub use executor::executor_main;
pub use scheduler::scheduler_main;
