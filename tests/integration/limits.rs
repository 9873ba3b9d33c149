//! The per-batch byte limit (`datafusion_tensor::limits`), in a process of its own: the limit
//! is process-wide, and lowering it beside the other tests of this binary would fail them. The
//! test runs this binary again, filtered to itself, with [`CHILD`] set; only that child lowers
//! the limit.

use std::process::Command;

use datafusion_tensor::tensor_session_context;

/// Set in the child process that runs a test of this module on its own.
const CHILD: &str = "DATAFUSION_TENSOR_TEST_OWN_PROCESS";

/// Whether this is the child process; if not, runs `test` (a function of this module) in one
/// and fails unless it passed there.
fn in_child_process(test: &str) -> bool {
    if std::env::var_os(CHILD).is_some() {
        return true;
    }
    // Test names are module paths without the crate: `limits::<test>`.
    let module = module_path!()
        .split_once("::")
        .map_or("", |(_, module)| module);
    let name = format!("{module}::{test}");
    let output = Command::new(std::env::current_exe().unwrap())
        .args([name.as_str(), "--exact", "--test-threads=1"])
        .env(CHILD, "1")
        .output()
        .expect("the test binary runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{name} failed:\n{stdout}{stderr}");
    assert!(
        stdout.contains("1 passed"),
        "{name} did not run:\n{stdout}{stderr}"
    );
    false
}

async fn error_of(sql: &str) -> String {
    let ctx = tensor_session_context().unwrap();
    match ctx.sql(sql).await {
        Ok(df) => match df.collect().await {
            Ok(_) => panic!("{sql}: ran, expected an error"),
            Err(err) => err.to_string(),
        },
        Err(err) => err.to_string(),
    }
}

#[test]
fn a_batch_past_the_byte_limit_is_an_error_and_a_smaller_batch_runs() {
    if in_child_process("a_batch_past_the_byte_limit_is_an_error_and_a_smaller_batch_runs") {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
            .block_on(byte_limit());
    }
}

async fn byte_limit() {
    datafusion_tensor::limits::set_max_batch_bytes(1 << 20);

    // 1000 rows of 1024 Int64 elements: 8,192,000 bytes in one batch.
    let sql = "SELECT tensor(range(value, value + 1024), [32, 32]) FROM generate_series(1, 1000)";
    let err = error_of(sql).await;
    assert!(
        err.contains("tensor: the result of this batch would take 8192000 bytes (1000 rows of 1024 Int64 elements), more than the limit of 1048576 bytes per batch; lower datafusion.execution.batch_size"),
        "{err}"
    );

    // The way out the message names: smaller batches (100 rows: 819,200 bytes) run.
    let ctx = tensor_session_context().unwrap();
    ctx.sql("SET datafusion.execution.batch_size = 100")
        .await
        .unwrap()
        .collect()
        .await
        .unwrap();
    let batches = ctx
        .sql(&format!("SELECT count(*) FROM ({sql})"))
        .await
        .unwrap()
        .collect()
        .await
        .unwrap();
    let text = arrow::util::pretty::pretty_format_batches(&batches)
        .unwrap()
        .to_string();
    assert!(text.contains("| 1000     |"), "{text}");

    // The update functions check their result too: x a plain FixedSizeList of 512 Float64
    // (a 1-d tensor that no tensor function built), 1000 rows.
    let err = error_of(
        "SELECT tensor_at_add(arrow_cast(arrow_cast(range(value, value + 512), 'List(Float64)'), 'FixedSizeList(512, Float64)'), 0, 1.0) FROM generate_series(1, 1000)",
    )
    .await;
    assert!(
        err.contains("tensor_at_add: the result of this batch would take 4096000 bytes"),
        "{err}"
    );
}
