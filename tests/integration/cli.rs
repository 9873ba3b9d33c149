//! The bundled CLI, run as a user runs it (with the `cli` feature, which builds it).

use std::process::Command;

fn cli() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_datafusion-tensor"));
    command.current_dir(env!("CARGO_MANIFEST_DIR"));
    command
}

fn run(args: &[&str]) -> (bool, String, String) {
    let output = cli().args(args).output().expect("the CLI runs");
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn pyarrow_file_prints_as_numpy_does() {
    // tests/data/pyarrow_tensors.cli.txt is Python's str() of numpy's tolist() per row.
    let expected = std::fs::read_to_string("tests/data/pyarrow_tensors.cli.txt").unwrap();
    let (ok, stdout, stderr) = run(&[
        "-q",
        "-c",
        "SELECT i64 FROM 'tests/data/pyarrow_tensors.parquet' ORDER BY id",
    ]);
    assert!(ok, "{stdout}{stderr}");
    let want: Vec<&str> = expected.lines().collect();
    assert_eq!(column_cells(&stdout), want, "{stdout}");
}

/// A reader that stops early (`| head`) ends the CLI by SIGPIPE, as it ends other Unix tools,
/// not with a panic while the result prints.
#[cfg(unix)]
#[test]
fn closed_stdout_ends_the_cli_without_a_panic() {
    use std::io::Read;
    use std::os::unix::process::ExitStatusExt;
    use std::process::Stdio;

    let sql = "SELECT * FROM generate_series(1, 5000000)";
    let mut child = cli()
        .args(["-q", "--format", "csv", "-c", sql])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut head = [0u8; 16];
    stdout.read_exact(&mut head).unwrap();
    drop(stdout);
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    // 13: SIGPIPE.
    assert_eq!(
        output.status.signal(),
        Some(13),
        "{:?}: {stderr}",
        output.status
    );
}

/// The cells of a one-column table, after the header: `| [[-4, -3, -2], [-1, 0, 1]]   |`.
fn column_cells(stdout: &str) -> Vec<&str> {
    stdout
        .lines()
        .filter(|line| line.starts_with('|'))
        .skip(1)
        .map(|line| line.trim_matches('|').trim())
        .collect()
}

#[test]
fn permuted_tensors_print_in_logical_order() {
    let (ok, stdout, stderr) = run(&[
        "-q",
        "--format",
        "tsv",
        "-c",
        "SELECT tensor(range(24), [2, 3, 4], NULL, [2, 0, 1]) AS p",
    ]);
    assert!(ok, "{stdout}{stderr}");
    // np.arange(24).reshape(2, 3, 4).transpose(2, 0, 1).tolist()
    assert_eq!(
        stdout.lines().nth(1),
        Some(
            "[[[0, 4, 8], [12, 16, 20]], [[1, 5, 9], [13, 17, 21]], [[2, 6, 10], [14, 18, 22]], [[3, 7, 11], [15, 19, 23]]]"
        ),
        "{stdout}"
    );
}

#[test]
fn every_output_format_works() {
    for format in ["table", "csv", "tsv", "json", "ndjson"] {
        let (ok, stdout, stderr) = run(&[
            "-q",
            "--format",
            format,
            "-c",
            "SELECT tensor([1, 2, 3, 4], [2, 2]) AS t",
        ]);
        assert!(ok, "{format}: {stdout}{stderr}");
        assert!(
            stdout.contains("[[1, 2], [3, 4]]") || stdout.contains("[[1,2],[3,4]]"),
            "{format}: {stdout}"
        );
    }
}

#[test]
fn errors_are_reported_not_panics() {
    let (ok, stdout, stderr) = run(&["-q", "-c", "SELECT tensor([1, 2, 3], [2, 2])"]);
    assert!(!ok);
    assert!(
        stdout.contains("tensor: row 0 of its batch holds 3 values, but shape (2, 2) needs 4"),
        "{stdout}{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn runs_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("q.sql");
    std::fs::write(
        &script,
        "CREATE TABLE t AS SELECT tensor([1, 2, 3, 4, 5, 6], [2, 3]) AS x;\n\
         SELECT tensor_shape(x) AS s, tensor_reshape(x, [3, 2]) AS r FROM t;\n",
    )
    .unwrap();
    let (ok, stdout, stderr) = run(&["-q", "--format", "csv", "-f", script.to_str().unwrap()]);
    assert!(ok, "{stdout}{stderr}");
    assert!(
        stdout.contains("\"[2, 3]\",\"[[1, 2], [3, 4], [5, 6]]\""),
        "{stdout}"
    );
}

/// `-f` runs every statement, as psql and sqlite3 run a script, and exits non-zero when one
/// failed, with the count on stderr (as sqlite3 and `DuckDB`'s CLI exit 1), so that a script or
/// a CI job sees the failure.
#[test]
fn a_file_with_a_failing_statement_fails_after_running_every_statement() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("q.sql");
    std::fs::write(
        &script,
        "SELECT 1 AS first;\n\
         SELECT tensor([1, 2, 3], [2, 2]);\n\
         SELECT no_such_column;\n\
         SELECT 2 AS last\n",
    )
    .unwrap();
    let output = cli()
        .args(["-q", "--format", "csv", "-f", script.to_str().unwrap()])
        .output()
        .expect("the CLI runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stdout}{stderr}");
    // Every statement ran: the last one's result printed.
    assert!(stdout.contains("first\n1\n"), "{stdout}");
    assert!(stdout.contains("last\n2\n"), "{stdout}");
    assert!(
        stderr.contains("row 0 of its batch holds 3 values, but shape (2, 2) needs 4"),
        "{stderr}"
    );
    assert!(stderr.contains("no_such_column"), "{stderr}");
    assert!(stderr.contains("2 of 4 statements failed"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    // Nothing failed: exit 0.
    std::fs::write(&script, "SELECT 1 AS first;\n").unwrap();
    let (ok, stdout, stderr) = run(&["-q", "-f", script.to_str().unwrap()]);
    assert!(ok, "{stdout}{stderr}");
}

/// `DESCRIBE` shows a tensor column's type in full, not its storage alone.
#[test]
fn describe_shows_tensor_types() {
    let (ok, stdout, stderr) = run(&[
        "-q",
        "--format",
        "csv",
        "-c",
        "CREATE EXTERNAL TABLE t STORED AS PARQUET LOCATION 'tests/data/union_layouts.parquet'",
        "-c",
        "DESCRIBE t",
    ]);
    assert!(ok, "{stdout}{stderr}");
    assert!(
        stdout.contains("x,\"arrow.fixed_shape_tensor<Float32, [2, 3]>\",YES"),
        "{stdout}"
    );
    assert!(
        stdout.contains("p,\"arrow.fixed_shape_tensor<Float32, [3, 2], permutation [1, 0]>\",YES"),
        "{stdout}"
    );
    assert!(stdout.contains("id,Int64,YES"), "{stdout}");
}

/// The CLI's output for `sql` run through `-c`, `-f` and the REPL (stdin), as CSV.
fn run_every_way(sql: &str) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("q.sql");
    std::fs::write(&script, format!("{sql};\n")).unwrap();
    let mut outputs = Vec::new();
    for args in [
        vec!["-q", "--format", "csv", "-c", sql],
        vec!["-q", "--format", "csv", "-f", script.to_str().unwrap()],
    ] {
        let (ok, stdout, stderr) = run(&args);
        assert!(ok && stderr.is_empty(), "{args:?}: {stdout}{stderr}");
        outputs.push(stdout);
    }
    outputs.push(run_repl(&["-q", "--format", "csv"], &[&format!("{sql};")]));
    outputs
}

/// The REPL's standard output for `lines` typed in, then `\q`. It runs in a directory of its
/// own: the REPL keeps its history in `.history` in the current directory (as datafusion-cli
/// does), which must not land in the checkout.
fn run_repl(args: &[&str], lines: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let mut repl = cli()
        .current_dir(dir.path())
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut stdin = repl.stdin.take().unwrap();
        for line in lines {
            writeln!(stdin, "{line}").unwrap();
        }
        writeln!(stdin, "\\q").unwrap();
    }
    let output = repl.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(output.status.success(), "REPL: {stdout}");
    assert!(
        dir.path().join(".history").exists(),
        "the REPL keeps its history where it runs"
    );
    stdout
}

/// The rows of one query's CSV output, without the header (which names the column by the
/// call's arguments, which differ).
fn csv_rows(output: &str) -> Vec<&str> {
    output
        .lines()
        .skip(1)
        .filter(|line| !line.is_empty())
        .collect()
}

#[test]
fn keyword_options_in_any_order_from_every_entry_point() {
    // Each keyword form against the positional form DataFusion itself resolves.
    for (keywords, positional) in [
        (
            "SELECT tensor_at_add(tensor([1.0, 2.0, 3.0], [3]), '[0, 0, 1]', 1.0, unique_indices => false)",
            "SELECT tensor_at_add(tensor([1.0, 2.0, 3.0], [3]), '[0, 0, 1]', 1.0, NULL, NULL, NULL, false)",
        ),
        (
            "SELECT tensor_at_get(tensor([1.0, 2.0], [2]), '[1, 5]', fill_value => -1.0, mode => 'fill')",
            "SELECT tensor_at_get(tensor([1.0, 2.0], [2]), '[1, 5]', 'fill', -1.0)",
        ),
        (
            "SELECT tensor_at_apply(tensor([1, 2, 3], [3]), '[0, 9]', v -> v * 10, mode => 'drop')",
            "SELECT tensor_at_apply(tensor([1, 2, 3], [3]), '[0, 9]', v -> v * 10, 'drop')",
        ),
        (
            "SELECT tensor_choose(tensor([0, 3], [2]), [1, 2], [4, 5], mode => 'clip')",
            "SELECT tensor_choose(tensor([0, 3], [2]), [1, 2], [4, 5], 'clip')",
        ),
    ] {
        let expected = run(&["-q", "--format", "csv", "-c", positional]);
        assert!(expected.0, "{positional}: {}{}", expected.1, expected.2);
        let want = csv_rows(&expected.1);
        assert_eq!(want.len(), 1, "{}", expected.1);
        for output in run_every_way(keywords) {
            assert_eq!(csv_rows(&output), want, "{keywords}: {output}");
        }
    }
}

#[test]
fn help_and_show_functions_know_the_tensor_functions() {
    let stdout = run_repl(&["-q"], &["\\h tensor_get", "\\h tensor_at_apply"]);
    assert!(stdout.contains("Syntax: tensor_get(t, index)"), "{stdout}");
    assert!(
        stdout.contains("Syntax: tensor_at_apply(x, idx, fn"),
        "{stdout}"
    );

    // Every row: more functions than the table format's default 40 rows.
    let (ok, stdout, stderr) = run(&[
        "-q",
        "--format",
        "table",
        "--maxrows",
        "inf",
        "-c",
        "SHOW FUNCTIONS LIKE 'tensor%'",
    ]);
    assert!(ok, "{stdout}{stderr}");
    for name in [
        "tensor_get",
        "tensor_choose",
        "tensor_at_apply",
        "tensor_at_set",
        "tensor",
    ] {
        assert!(
            stdout.contains(&format!("| {name} ")),
            "{name} missing: {stdout}"
        );
    }
}

/// `SHOW FUNCTIONS` prints in every output format, its list of parameter names as each format
/// prints any other list column (as text in CSV and TSV, an array in JSON).
#[test]
fn show_functions_prints_in_every_format() {
    for format in [
        "table",
        "csv",
        "tsv",
        "json",
        "nd-json",
        "ndjson",
        "automatic",
    ] {
        let (ok, listed, stderr) = run(&[
            "-q",
            "--format",
            format,
            "-c",
            "SHOW FUNCTIONS LIKE 'tensor_get'",
        ]);
        assert!(ok && stderr.is_empty(), "{format}: {listed}{stderr}");
        assert!(listed.contains("tensor_get"), "{format}: {listed}");
        // The same list as a plain column: its row, without the JSON object around it.
        let (ok, list, stderr) = run(&[
            "-q",
            "--format",
            format,
            "-c",
            "SELECT ['t', 'index'] AS parameters",
        ]);
        assert!(ok, "{format}: {list}{stderr}");
        let row = list
            .lines()
            .find(|line| line.contains("index"))
            .unwrap_or_else(|| panic!("{format}: {list}"))
            .trim();
        let row = row
            .strip_prefix("[{")
            .and_then(|row| row.strip_suffix("}]"))
            .or_else(|| row.strip_prefix('{').and_then(|row| row.strip_suffix('}')))
            .unwrap_or(row);
        assert!(listed.contains(row), "{format}: {row} not in\n{listed}");
    }
}

/// `--maxrows` (40 by default) bounds the table format only: CSV, TSV and JSON print every
/// row of a result of many batches (datafusion-cli 55 kept the batches up to it in every
/// format, and printed the full count under fewer rows).
#[test]
fn max_rows_bounds_only_the_table_format() {
    let sql = "SELECT value FROM generate_series(1, 100)";
    for format in ["csv", "tsv", "json", "nd-json"] {
        let (ok, stdout, stderr) = run(&[
            "-q",
            "--format",
            format,
            "-c",
            "SET datafusion.execution.batch_size = 7",
            "-c",
            sql,
        ]);
        assert!(ok, "{stdout}{stderr}");
        for value in [1, 41, 100] {
            let row = match format {
                "json" | "nd-json" => format!("{{\"value\":{value}}}"),
                _ => format!("\n{value}\n"),
            };
            assert!(
                stdout.contains(&row),
                "{format}: {value} missing in\n{stdout}"
            );
        }
    }
    let (ok, stdout, _) = run(&[
        "-q",
        "-c",
        "SET datafusion.execution.batch_size = 7",
        "-c",
        sql,
    ]);
    assert!(ok);
    assert!(
        stdout.contains("| 40    |") && !stdout.contains("| 41    |"),
        "{stdout}"
    );
}

/// `SET tensor.fast_parquet = false` (or `datafusion.tensor.fast_parquet`) leaves the next
/// scans to DataFusion's reader, and `RESET` brings this crate's back: the scan's metrics say
/// which read the file.
#[test]
fn the_fast_reader_setting_from_the_cli() {
    let explain = "EXPLAIN ANALYZE SELECT f64 FROM 'tests/data/pyarrow_tensors.parquet'";
    for name in ["tensor.fast_parquet", "datafusion.tensor.fast_parquet"] {
        let set = format!("SET {name} = false");
        let reset = format!("RESET {name}");
        let (ok, stdout, stderr) = run(&[
            "-q", "--format", "csv", "-c", explain, "-c", &set, "-c", explain, "-c", &reset, "-c",
            explain,
        ]);
        assert!(ok, "{stdout}{stderr}");
        let fast: Vec<&str> = stdout
            .match_indices("tensor_row_groups_fast=")
            .map(|(at, word)| &stdout[at + word.len()..=at + word.len()])
            .collect();
        // The first and third scans read the one row group fast; the second did not try.
        assert_eq!(fast, ["1", "1"], "{stdout}");
        assert_eq!(stdout.matches("DataSourceExec").count(), 3, "{stdout}");
    }
    let (ok, stdout, _) = run(&[
        "-q",
        "--format",
        "csv",
        "-c",
        "SET datafusion.tensor.fast_parquet = false",
        "-c",
        "SHOW ALL",
    ]);
    assert!(
        ok && stdout.contains("tensor.fast_parquet,false"),
        "{stdout}"
    );
}

/// The single cell of a one-row, one-column table.
fn table_cell(stdout: &str) -> String {
    let cells = column_cells(stdout);
    assert_eq!(cells.len(), 1, "{stdout}");
    cells[0].to_string()
}

#[test]
fn large_tensors_print_summarised_as_numpy_prints_them() {
    // tests/data/tensor_summary.expected.tsv: numpy's np.array2string (threshold 1000,
    // edge items 3) of the same tensors, on one line (tests/data/make_display_fixtures.py).
    let expected = std::fs::read_to_string("tests/data/tensor_summary.expected.tsv").unwrap();
    for line in expected.lines() {
        let (sql, want) = line.split_once('\t').unwrap();
        let query = format!("SELECT {sql} AS t");
        let (ok, stdout, stderr) = run(&["-q", "--format", "table", "-c", &query]);
        assert!(ok, "{query}: {stdout}{stderr}");
        assert_eq!(table_cell(&stdout), want, "{query}");
    }
}

#[test]
fn every_element_prints_outside_tables_or_past_the_threshold() {
    let query = "SELECT tensor(range(0, 2000), [40, 50]) AS t";
    // CSV and JSON output is complete; so is a table with --tensor-threshold inf, and the
    // three agree.
    let (ok, csv, stderr) = run(&["-q", "--format", "csv", "-c", query]);
    assert!(ok, "{csv}{stderr}");
    let csv_cell = csv.lines().nth(1).unwrap().trim_matches('"').to_string();
    let (ok, table, stderr) = run(&[
        "-q",
        "--format",
        "table",
        "--tensor-threshold",
        "inf",
        "-c",
        query,
    ]);
    assert!(ok, "{table}{stderr}");
    assert_eq!(table_cell(&table), csv_cell);
    assert!(!csv_cell.contains("..."));
    assert_eq!(csv_cell.matches(", ").count(), 1999, "{csv_cell}");
    let (ok, json, stderr) = run(&["-q", "--format", "json", "-c", query]);
    assert!(ok, "{json}{stderr}");
    assert!(!json.contains("...") && json.contains("1999"), "{json}");
    // A lower threshold summarises smaller tensors; a tensor at the threshold prints whole.
    let (ok, table, _) = run(&[
        "-q",
        "--format",
        "table",
        "--tensor-threshold",
        "5",
        "-c",
        "SELECT tensor(range(0, 8), [8]) AS t, tensor(range(0, 5), [5]) AS u",
    ]);
    assert!(ok);
    assert!(
        table.contains("[0, 1, 2, ..., 5, 6, 7]") && table.contains("[0, 1, 2, 3, 4]"),
        "{table}"
    );
}

#[test]
fn the_demo_runs_without_errors() {
    // The README's first command, in a scratch directory (it writes target/demo/ there).
    let dir = tempfile::tempdir().unwrap();
    let demo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("sql/demo.sql");
    let output = cli()
        .current_dir(dir.path())
        .args(["-f", demo.to_str().unwrap()])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}{stderr}");
    assert!(
        !stdout.to_lowercase().contains("error") && stderr.is_empty(),
        "{stdout}{stderr}"
    );
    assert_eq!(stdout.matches("row(s) fetched").count(), 9, "{stdout}");
}
