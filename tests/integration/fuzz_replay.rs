//! Replays the committed fuzz corpus (`fuzz/corpus/<target>/`, minimised after each fuzzing
//! run) and the inputs that once crashed a target (`fuzz/regressions/<target>/`) through the
//! same harness the `cargo fuzz` targets run (fuzz/harness.rs): none may panic.

#[path = "../../fuzz/harness.rs"]
mod harness;

use std::path::Path;

fn inputs(target: &str) -> Vec<(String, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut files = Vec::new();
    for dir in ["corpus", "regressions"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir).join(target)) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            files.push((path.display().to_string(), std::fs::read(&path).unwrap()));
        }
    }
    files.sort();
    files
}

fn replay(target: &str, run: impl Fn(&[u8])) {
    let files = inputs(target);
    assert!(!files.is_empty(), "no committed corpus for {target}");
    for (name, data) in &files {
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(data)));
        assert!(
            outcome.is_ok(),
            "{name} panics (reproduce: cargo fuzz run {target} {name})"
        );
    }
}

#[test]
fn parse_index_corpus() {
    replay("parse_index", harness::parse_index);
}

#[test]
fn sql_choose_corpus() {
    replay("sql_choose", |d| {
        harness::run_sql(d, harness::Family::Choose);
    });
}

#[test]
fn sql_get_corpus() {
    replay("sql_get", |d| {
        harness::run_sql(d, harness::Family::Get);
    });
}

#[test]
fn sql_at_corpus() {
    replay("sql_at", |d| {
        harness::run_sql(d, harness::Family::At);
    });
}
