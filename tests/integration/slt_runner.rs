//! `datafusion-tensor-sqllogictest`, the runner of users' own suites, run as a user runs it on
//! files written here: a passing suite, a failing one (exit status 1, the failing record and
//! both results shown), `--filter`, `--complete` and a usage error.

use std::process::Command;

fn runner(args: &[&str]) -> (Option<i32>, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_datafusion-tensor-sqllogictest"))
        .args(args)
        .output()
        .expect("the runner runs");
    (
        output.status.code(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ),
    )
}

/// numpy: `np.arange(6).reshape(2, 3)[1, ::-1]` is `[5, 4, 3]`; its sum over axis 0 is `[3, 5, 7]`.
const PASSING: &str = "\
query T
SELECT tensor_get(tensor([0, 1, 2, 3, 4, 5], [2, 3]), '1, ::-1')
----
[5, 4, 3]

query T
SELECT tensor_sum(tensor([0, 1, 2, 3, 4, 5], [2, 3]), keepdims => false, axis => 0)
----
[3, 5, 7]
";

#[test]
fn a_users_suite_passes_and_a_wrong_one_fails_with_its_record() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.slt");
    let bad = dir.path().join("bad.slt");
    std::fs::write(&good, PASSING).unwrap();
    std::fs::write(&bad, PASSING.replace("[3, 5, 7]", "[3, 5, 8]")).unwrap();

    let (code, out) = runner(&[good.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("1 of 1 files passed"), "{out}");

    // The directory: both files, one fails.
    let (code, out) = runner(&[dir.path().to_str().unwrap()]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("FAILED") && out.contains("bad.slt"), "{out}");
    assert!(
        out.contains("[3, 5, 8]") && out.contains("[3, 5, 7]"),
        "{out}"
    );
    assert!(out.contains("1 of 2 files passed"), "{out}");

    // --filter selects by path.
    let (code, out) = runner(&[dir.path().to_str().unwrap(), "--filter", "good"]);
    assert_eq!(code, Some(0), "{out}");

    // --complete rewrites the expected result with the engine's.
    let (code, out) = runner(&[bad.to_str().unwrap(), "--complete"]);
    assert_eq!(code, Some(0), "{out}");
    assert_eq!(std::fs::read_to_string(&bad).unwrap(), PASSING);

    // No files: a usage error.
    let (code, _) = runner(&[dir.path().to_str().unwrap(), "--filter", "nothing"]);
    assert_eq!(code, Some(2));
}
