//! `datafusion-tensor-sqllogictest`: runs sqllogictest files with the tensor functions, as
//! `datafusion-sqllogictest` runs DataFusion's own.
//!
//! ```text
//! datafusion-tensor-sqllogictest tests/sql/                # every .slt file under a directory
//! datafusion-tensor-sqllogictest a.slt b.slt --filter get  # the files whose path contains "get"
//! datafusion-tensor-sqllogictest a.slt --complete          # rewrite a.slt's expected results
//! ```
//!
//! Each file runs on a fresh context with the tensor functions (the CLI's: `FROM 'file.parquet'`
//! reads a file). The exit status is 0 when every file passes, 1 when one fails (its failing
//! record, expected and actual results are printed), 2 for a usage error.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Parser;
use datafusion_tensor::sqllogictest::{RunOptions, run_file};

#[derive(Debug, Parser)]
#[command(name = "datafusion-tensor-sqllogictest", version, about)]
struct Args {
    /// `.slt` files, or directories searched for them.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Only the files whose path contains this text.
    #[arg(long)]
    filter: Option<String>,
    /// Rewrite each file's expected results with what the engine returns (review the diff).
    #[arg(long)]
    complete: bool,
    /// A label: records marked `skipif LABEL` are skipped, `onlyif LABEL` run (repeatable).
    #[arg(long = "label")]
    labels: Vec<String>,
}

fn slt_files(path: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    if !path.is_dir() {
        out.push(path.to_path_buf());
        return Ok(());
    }
    let mut entries: Vec<PathBuf> = std::fs::read_dir(path)?
        .map(|entry| entry.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    entries.sort();
    for entry in entries {
        if entry.is_dir() {
            slt_files(&entry, out)?;
        } else if entry.extension().is_some_and(|ext| ext == "slt") {
            out.push(entry);
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    let args = Args::parse();
    let mut files = Vec::new();
    for path in &args.paths {
        if let Err(error) = slt_files(path, &mut files) {
            eprintln!("{}: {error}", path.display());
            return ExitCode::from(2);
        }
    }
    if let Some(filter) = &args.filter {
        files.retain(|f| f.to_string_lossy().contains(filter.as_str()));
    }
    if files.is_empty() {
        eprintln!("no .slt files to run");
        return ExitCode::from(2);
    }
    let options = RunOptions {
        complete: args.complete,
        labels: args.labels,
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("tokio does not start: {error}");
            return ExitCode::from(2);
        }
    };
    let mut failed = 0;
    for file in &files {
        let outcome = runtime.block_on(run_file(file, &options, || {
            Ok(datafusion_tensor::tensor_session_context()?.enable_url_table())
        }));
        match outcome {
            Ok(()) if options.complete => println!("completed {}", file.display()),
            Ok(()) => println!("ok {}", file.display()),
            Err(error) => {
                failed += 1;
                println!("FAILED {}\n{error}", file.display());
            }
        }
    }
    println!("{} of {} files passed", files.len() - failed, files.len());
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
