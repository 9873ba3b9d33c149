//! `datafusion-tensor`: the DataFusion CLI with the tensor functions registered.

mod cli;

use std::process::ExitCode;

use mimalloc::MiMalloc;

#[global_allocator]
static GLOBAL: MiMalloc = MiMalloc;

fn main() -> ExitCode {
    // A reader that stops early (`| head`) ends the CLI as it ends other Unix tools, by
    // SIGPIPE: Rust ignores the signal, and datafusion-cli's printing then panicked on the
    // broken pipe ("failed printing to stdout").
    #[cfg(unix)]
    // SAFETY: no other thread runs yet, and SIG_DFL is a valid disposition for SIGPIPE.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    run()
}

#[tokio::main]
async fn run() -> ExitCode {
    cli::main().await
}
