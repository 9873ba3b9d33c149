//! The same SQL on an Apache Ballista cluster (feature `ballista`): a scheduler and two
//! executors in this process, on 127.0.0.1 with ports the system chose, run the suites of
//! `sql/` with the expected results they have locally, a multi-file table of pyarrow-written
//! Parquet, executor errors, and an executor dying mid-query.
//!
//! ```text
//! cargo test --features ballista --test integration -- ballista::
//! ```

use std::path::Path;
use std::sync::OnceLock;
use std::time::Duration;

use datafusion::error::DataFusionError;
use datafusion::prelude::SessionContext;
use datafusion_tensor::TensorSql;
use datafusion_tensor_ballista::{LocalCluster, LocalClusterOptions, remote_context};

/// The shared cluster and the runtime its servers run on (every test's queries run there).
fn cluster() -> &'static (tokio::runtime::Runtime, LocalCluster) {
    static CLUSTER: OnceLock<(tokio::runtime::Runtime, LocalCluster)> = OnceLock::new();
    CLUSTER.get_or_init(|| {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .expect("tokio starts");
        let cluster = runtime
            .block_on(LocalCluster::start(LocalClusterOptions {
                executors: 2,
                vcores: 2,
                ..LocalClusterOptions::default()
            }))
            .expect("the cluster starts");
        (runtime, cluster)
    })
}

/// Runs `future` on the cluster's runtime, failing the test after `seconds` (never a hang).
fn run<T>(seconds: u64, future: impl Future<Output = T>) -> T {
    let (runtime, _) = cluster();
    runtime
        .block_on(async { tokio::time::timeout(Duration::from_secs(seconds), future).await })
        .unwrap_or_else(|_| panic!("no answer within {seconds} s"))
}

fn remote() -> Result<SessionContext, DataFusionError> {
    Ok(remote_context(&cluster().1.url())?.enable_url_table())
}

/// The suites that fail on the cluster, and why: each runs and must still fail, so that the
/// day it passes its test says so and it comes off this list. None today: `tensor_map_generated`
/// and `tensor_aggregate_generated` failed until float16 literals kept their type through the
/// codecs (datafusion-proto writes them as float32), an aggregate's argument calls were
/// rebuilt on the executors (a permuted argument's permutation), and joins stopped hanging
/// (dynamic join filters off: see `with_tensor_settings`).
///
/// `tensor_divmod_generated`, `tensor_search_generated`, `tensor_split_generated`: a struct
/// field that is a tensor (`tensor_divmod(a, b)['quotient']`, `tensor_topk(x, 2)['values']`,
/// `tensor_split(x, 2)['0']`) reaches the client without its extension metadata, so it prints
/// as a flat list (its values and `tensor_shape` are right; the same holds for the linalg
/// functions' structs, whose suite compares values).
const KNOWN_CLUSTER_FAILURES: &[&str] = &[
    "tensor_divmod_generated",
    // Tensor files and Zarr stores are local tables of the client's session: their scans do
    // not serialise to a cluster (docs/src/guide/tensor-files.md, Limits).
    "tensor_files",
    "tensor_files_generated",
    "tensor_search_generated",
    "tensor_split_generated",
    "zarr",
    "zarr_generated",
];

/// One test per suite of `sql/` run on the cluster, with the file's own expected results.
macro_rules! cluster_suites {
    ($($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                let path = concat!("sql/", stringify!($name), ".slt");
                let result = run(600, crate::slt::run_file_on(Path::new(path), false, &["ballista"], remote));
                if KNOWN_CLUSTER_FAILURES.contains(&stringify!($name)) {
                    match result {
                        Ok(()) => panic!(
                            "{path} now passes on the cluster: take it off KNOWN_CLUSTER_FAILURES"
                        ),
                        Err(error) => eprintln!("{path} still fails on the cluster:\n{error}"),
                    }
                } else if let Err(error) = result {
                    panic!("{path} on the cluster:\n{error}");
                }
            }
        )*
    };
}

mod suites {
    use super::*;

    // The local run's list (tests/integration/slt.rs): every file of sql/.
    crate::slt::each_suite!(cluster_suites);
}

/// The pyarrow-written fixture (every element type, dim names, a permuted tensor) copied into
/// a table of four files, read on the cluster: numpy's values, as from the one file locally;
/// both executors read part of it.
#[test]
fn multi_file_pyarrow_table() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..4 {
        std::fs::copy(
            "tests/data/pyarrow_tensors.parquet",
            dir.path().join(format!("part-{i}.parquet")),
        )
        .unwrap();
    }
    let ctx = remote().unwrap();
    let location = dir.path().to_string_lossy().to_string();
    run(300, async {
        ctx.sql(&format!(
            "CREATE EXTERNAL TABLE pyarrow_parts STORED AS PARQUET LOCATION '{location}/'"
        ))
        .await
        .unwrap();
        super::interop::check_pyarrow_table(&ctx, "pyarrow_tensors", "pyarrow_parts", 4).await;
    });
}

/// The error of `sql` on `ctx`.
async fn error_of(ctx: &SessionContext, sql: &str) -> String {
    let result = match ctx.tensor_sql(sql).await {
        Ok(df) => df.collect().await.map(|_| ()),
        Err(err) => Err(err),
    };
    match result {
        Ok(()) => panic!("{sql}: no error"),
        Err(err) => err.to_string(),
    }
}

/// Errors raised on an executor (out of bounds, `raise` mode) reach the client with the
/// message they have locally.
#[test]
fn executor_errors_reach_the_client() {
    let local = datafusion_tensor::tensor_session_context().unwrap();
    let remote = remote().unwrap();
    let table = "CREATE TABLE v(i BIGINT, a BIGINT[]) AS VALUES (1, [0, 1]), (7, [2, 0])";
    run(120, async {
        for ctx in [&local, &remote] {
            ctx.sql(table).await.unwrap().collect().await.unwrap();
        }
        for sql in [
            // numpy: IndexError, index 7 is out of bounds for axis 0 with size 3.
            "SELECT tensor_get(tensor([1, 2, 3], [3]), i) FROM v",
            // np.choose([2, 0], [[1, 2], [3, 4]], mode='raise'): invalid entry in choice array.
            "SELECT tensor_choose(tensor(a, [2]), [1, 2], [3, 4], mode => 'raise') FROM v",
            // np.take_along_axis([1, 2, 3], [7], 0): IndexError, index 7 is out of bounds.
            "SELECT tensor_take_along_axis(tensor([1, 2, 3], [3]), tensor([i], [1]), 0) FROM v",
        ] {
            let want = error_of(&local, sql).await;
            let got = error_of(&remote, sql).await;
            let core = want
                .rsplit_once("Execution error: ")
                .map_or(want.as_str(), |(_, message)| message);
            assert!(
                got.contains(core),
                "{sql}\nlocally: {want}\non the cluster: {got}"
            );
        }
    });
}

/// Tensor metadata survives the trip: result fields are tensors of the same type as locally.
#[test]
fn result_fields_keep_their_tensor_type() {
    let local = datafusion_tensor::tensor_session_context().unwrap();
    let remote = remote().unwrap();
    // (A query of generate_series that reads none of its columns fails on Ballista 55 itself:
    // "number of columns(1) must match number of fields(0)"; `r` is read.)
    let sql = "SELECT r, tensor_get(tensor(range(24), [2, 3, 4]), '1, ::-1') AS g, \
               tensor_choose(tensor([0, 1, 1, 0], [2, 2]), tensor([1, 2, 3, 4], [2, 2]), 9) AS c, \
               tensor_at_apply(tensor([1.0, 2.0, 3.0, 4.0], [2, 2]), '0', v -> v * 2) AS a \
               FROM generate_series(1, 3) AS g(r)";
    run(120, async {
        let want = local.sql(sql).await.unwrap().collect().await.unwrap();
        let got = remote.sql(sql).await.unwrap().collect().await.unwrap();
        let want_schema = want[0].schema();
        let rows: usize = got.iter().map(arrow::array::RecordBatch::num_rows).sum();
        assert_eq!(rows, 3);
        for batch in &got {
            for (field, expected) in batch.schema().fields().iter().zip(want_schema.fields()) {
                assert_eq!(field.data_type(), expected.data_type());
                assert_eq!(field.metadata(), expected.metadata(), "{}", field.name());
            }
            for (column, expected) in batch.columns().iter().zip(want[0].columns()) {
                assert_eq!(column.slice(0, 1).to_data(), expected.slice(0, 1).to_data());
            }
        }
    });
}

/// The two conversions on a column read from a file (not literals): each call's planning state
/// reaches the executors (they were unknown to the codecs), and `tensor_to_fixed` of
/// `tensor_to_variable` gives the local session's values and tensor type there; the
/// variable-shape result between them keeps its metadata.
#[test]
fn the_conversions_keep_their_tensor_types_on_the_cluster() {
    let local = datafusion_tensor::tensor_session_context()
        .unwrap()
        .enable_url_table();
    let remote = remote().unwrap();
    let sql = "SELECT id, arrow_metadata(tensor_to_variable(f32)) AS v, \
               arrow_metadata(tensor_to_fixed(tensor_to_variable(f32))) AS f, \
               tensor_to_string(tensor_to_fixed(tensor_to_variable(f32))) AS s \
               FROM 'tests/data/pyarrow_tensors.parquet' ORDER BY id";
    run(120, async {
        let want = local.sql(sql).await.unwrap().collect().await.unwrap();
        let got = remote.sql(sql).await.unwrap().collect().await.unwrap();
        let column = |batches: &[arrow::array::RecordBatch], name: &str| {
            let columns: Vec<_> = batches
                .iter()
                .map(|b| b.project(&[0, b.schema().index_of(name).unwrap()]).unwrap())
                .collect();
            arrow::util::pretty::pretty_format_batches(&columns)
                .unwrap()
                .to_string()
        };
        assert!(column(&want, "f").contains("arrow.fixed_shape_tensor"));
        assert!(column(&want, "v").contains("arrow.variable_shape_tensor"));
        assert_eq!(column(&got, "f"), column(&want, "f"));
        assert_eq!(column(&got, "s"), column(&want, "s"));
        assert_eq!(column(&got, "v"), column(&want, "v"));
    });
}

/// A free port on 127.0.0.1 (bound, then released for the executor process to take).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|addr| addr.port())
        .expect("a free port")
}

/// An executor process killed (SIGKILL) in the middle of a query: the query fails with an
/// error, or is retried on the other executor and gives the right answer; it never hangs (the
/// scheduler counts an executor dead after 5 s without a heartbeat, and the wait is bounded).
#[test]
fn an_executor_dying_mid_query_does_not_hang() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("tokio starts");
    runtime.block_on(async {
        let cluster = LocalCluster::start(LocalClusterOptions {
            executors: 1,
            vcores: 1,
            executor_timeout_seconds: 5,
        })
        .await
        .unwrap();
        let work_dir = tempfile::tempdir().unwrap();
        let mut executor = std::process::Command::new(env!("CARGO_BIN_EXE_datafusion-tensor-executor"))
            .args(["--bind-host", "127.0.0.1", "--external-host", "127.0.0.1"])
            .args(["--scheduler-host", "127.0.0.1"])
            .args(["--scheduler-port", &cluster.scheduler().port().to_string()])
            .args(["--bind-port", &free_port().to_string()])
            .args(["--bind-grpc-port", &free_port().to_string()])
            .args(["--bind-health-port", &free_port().to_string()])
            .args(["--vcores", "1", "--executor-heartbeat-interval-seconds", "1"])
            .args(["--work-dir", &work_dir.path().to_string_lossy()])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("the executor binary starts");
        // Registered before the query starts.
        tokio::time::sleep(Duration::from_millis(1500)).await;
        let ctx = remote_context(&cluster.url()).unwrap();
        // Long enough to be running when the executor dies: four partitions of 5M tensors.
        let sql = "SELECT count(*), sum(tensor_size(tensor_at_apply(tensor([r, r + 1, r + 2, r + 3], [2, 2]), '0', v -> v * 2))) \
                   FROM (SELECT * FROM generate_series(1, 5000000) AS g(r) \
                         UNION ALL SELECT * FROM generate_series(1, 5000000) \
                         UNION ALL SELECT * FROM generate_series(1, 5000000) \
                         UNION ALL SELECT * FROM generate_series(1, 5000000))";
        let query = tokio::spawn(async move {
            let df = ctx.sql(sql).await?;
            df.collect().await
        });
        tokio::time::sleep(Duration::from_millis(300)).await;
        let running = !query.is_finished();
        assert!(
            executor.try_wait().expect("the executor's status").is_none(),
            "the executor process exited by itself"
        );
        executor.kill().expect("the executor is killed");
        let _ = executor.wait();
        let outcome = tokio::time::timeout(Duration::from_mins(4), query)
            .await
            .expect("the query ends (error or result) once an executor died")
            .expect("the query's task does not panic");
        assert!(running, "the query ended before the executor died");
        match outcome {
            Ok(batches) => {
                // Retried on the surviving executor: 4 x 5M rows of 4-element tensors.
                let text = arrow::util::pretty::pretty_format_batches(&batches)
                    .unwrap()
                    .to_string();
                assert!(text.contains("| 20000000 "), "{text}");
                assert!(text.contains("| 80000000 "), "{text}");
            }
            Err(err) => {
                eprintln!("the query failed cleanly: {err}");
                assert!(!err.to_string().is_empty());
            }
        }
    });
}

/// `SET tensor.fast_parquet` on the client reaches the scan an executor runs: the client's
/// settings travel as Ballista's key/value pairs, the executors' configuration knows the key,
/// and the scan decoded there reads with the reader the client's setting says (the executor's
/// own default is the fast reader, so the `false` case fails if the setting is lost).
#[tokio::test]
async fn the_fast_reader_setting_reaches_the_executors() {
    use ballista_core::extension::SessionConfigHelperExt;
    use datafusion::execution::TaskContext;
    use datafusion::physical_plan::collect;
    use datafusion_proto::bytes::{
        physical_plan_from_bytes_with_extension_codec, physical_plan_to_bytes_with_extension_codec,
    };
    use datafusion_tensor_ballista::plan::pin_plan;
    use datafusion_tensor_ballista::{
        TensorPhysicalCodec, tensor_ballista_config, tensor_session_state,
    };
    use std::sync::Arc;

    let codec = TensorPhysicalCodec::new();
    for (setting, fast) in [("true", 1), ("false", 0)] {
        let client = datafusion_tensor::tensor_session_context()
            .unwrap()
            .enable_url_table();
        let set = format!("SET datafusion.tensor.fast_parquet = {setting}");
        client
            .tensor_sql(&set)
            .await
            .unwrap()
            .collect()
            .await
            .unwrap();
        let plan = client
            .sql("SELECT f64 FROM 'tests/data/pyarrow_tensors.parquet'")
            .await
            .unwrap()
            .create_physical_plan()
            .await
            .unwrap();
        let bytes =
            physical_plan_to_bytes_with_extension_codec(pin_plan(plan).unwrap(), &codec).unwrap();
        let pairs = client.state().config().to_key_value_pairs();
        let executor =
            tensor_session_state(tensor_ballista_config().update_from_key_value_pair(&pairs))
                .unwrap();
        let task = Arc::new(TaskContext::from(&executor));
        let stage = physical_plan_from_bytes_with_extension_codec(&bytes, &task, &codec).unwrap();
        let rows: usize = collect(Arc::clone(&stage), task)
            .await
            .unwrap()
            .iter()
            .map(arrow::array::RecordBatch::num_rows)
            .sum();
        assert_eq!(rows, 4);
        assert_eq!(crate::fast_scan::row_groups(&stage), (fast, 0), "{setting}");
    }
}

/// datafusion-proto writes Float16 scalars as Float32 ones and reads back Float32: a folded
/// float16 result, a float16 literal in plain SQL and one as a tensor call's argument keep
/// their type and values on the cluster.
#[test]
fn float16_literals_keep_their_type_on_the_cluster() {
    let local = datafusion_tensor::tensor_session_context().unwrap();
    let remote = remote().unwrap();
    let sql = "SELECT r, \
               tensor_l2_distance(tensor(arrow_cast([0, 3], 'List(Float16)'), [2]), \
               tensor(arrow_cast([4, 0], 'List(Float16)'), [2])) AS d, \
               arrow_cast(r, 'Float16') + arrow_cast(1.5, 'Float16') AS p, \
               tensor_at_add(tensor(arrow_cast([r, 2], 'List(Float16)'), [2]), '0', \
               arrow_cast(0.5, 'Float16')) AS a \
               FROM generate_series(1, 3) AS g(r)";
    run(120, async {
        let want = local.sql(sql).await.unwrap().collect().await.unwrap();
        let got = remote.sql(sql).await.unwrap().collect().await.unwrap();
        let want = arrow::compute::concat_batches(&want[0].schema(), &want).unwrap();
        let got = arrow::compute::concat_batches(&got[0].schema(), &got).unwrap();
        assert_eq!(got.schema(), want.schema());
        assert_eq!(got, want);
    });
}
