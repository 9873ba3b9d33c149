//! The documentation: the generated reference pages are current, and every example in the
//! functions' documentation (and so on those pages) prints, through the CLI, what it shows.

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;
use std::sync::Mutex;

use datafusion_tensor::reference::{Example, examples, pages};

/// `docs/src/functions/*.md` are what the registry writes; with `DATAFUSION_TENSOR_WRITE_DOCS`
/// set, the test writes them (as `cargo run --bin datafusion-tensor-docs` does).
#[test]
fn reference_pages_are_the_registry_s() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/src");
    let mut stale = Vec::new();
    for page in pages() {
        let path = root.join(&page.path);
        if std::env::var_os("DATAFUSION_TENSOR_WRITE_DOCS").is_some() {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &page.text).unwrap();
        }
        if std::fs::read_to_string(&path).ok().as_deref() != Some(page.text.as_str()) {
            stale.push(page.path);
        }
    }
    assert!(
        stale.is_empty(),
        "docs/src/{} not the registry's: run `cargo run --bin datafusion-tensor-docs`",
        stale.join(", docs/src/")
    );
}

/// What the CLI prints for `sql` (its table; the error where it fails).
fn run(sql: &str) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_datafusion-tensor"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["-q", "--maxrows", "inf", "-c", sql])
        .output()
        .expect("the CLI runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    text.trim().to_string()
}

/// Every function has an example, and each statement of it prints what the docs show.
#[test]
fn every_documented_example_prints_what_it_shows() {
    let examples = examples();
    let mut documented: Vec<&str> = examples.iter().map(|e| e.function.as_str()).collect();
    documented.dedup();
    let missing: Vec<&str> = datafusion_tensor::reference::user_functions()
        .map(|d| d.function.name())
        .filter(|name| !documented.contains(name))
        .collect();
    assert!(missing.is_empty(), "no example: {missing:?}");

    let failures: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let next = Mutex::new(0_usize);
    let check = |example: &Example| {
        let printed = run(&example.sql);
        if printed != example.output {
            failures.lock().unwrap().push(format!(
                "{}: `{}` printed\n{printed}\nbut its docs show\n{}\n",
                example.function, example.sql, example.output
            ));
        }
    };
    std::thread::scope(|scope| {
        for _ in 0..4 {
            scope.spawn(|| {
                loop {
                    let i = {
                        let mut next = next.lock().unwrap();
                        *next += 1;
                        *next - 1
                    };
                    let Some(example) = examples.get(i) else {
                        break;
                    };
                    check(example);
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(
        failures.is_empty(),
        "{} of {} examples differ:\n{}",
        failures.len(),
        examples.len(),
        failures.join("\n")
    );
}

/// The hand-written pages (`README.md`, `docs/src/**/*.md` but the generated reference): the
/// `sql` blocks written as CLI sessions (`> ` prompts), each statement followed by what it
/// prints. With `DATAFUSION_TENSOR_WRITE_DOCS` set, the test writes what they print instead
/// (then read the change).
#[test]
fn every_session_on_the_pages_prints_what_it_shows() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("README.md")];
    let mut dirs = vec![root.join("docs/src")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if !path.ends_with("functions") {
                    dirs.push(path);
                }
            } else if path.extension().is_some_and(|e| e == "md") {
                files.push(path);
            }
        }
    }
    files.sort();
    let write = std::env::var_os("DATAFUSION_TENSOR_WRITE_DOCS").is_some();
    let mut failures = Vec::new();
    let mut count = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let mut written = String::new();
        let mut rest = text.as_str();
        while let Some(start) = rest.find("```sql\n") {
            let end = rest[start..]
                .find("\n```")
                .map_or(rest.len(), |end| start + end + 4);
            let block = &rest[start..end];
            written.push_str(&rest[..start]);
            let sessions = datafusion_tensor::reference::parse_example("page", block);
            if sessions.is_empty() {
                written.push_str(block);
            } else {
                let mut rewritten = String::from("```sql\n");
                for example in sessions {
                    count += 1;
                    let printed = run(&example.sql);
                    if printed != example.output {
                        failures.push(format!(
                            "{}: `{}` printed\n{printed}\nbut the page shows\n{}\n",
                            file.strip_prefix(root).unwrap().display(),
                            example.sql,
                            example.output
                        ));
                    }
                    let _ = writeln!(rewritten, "> {}\n{printed}", example.sql);
                }
                rewritten.push_str("```");
                written.push_str(&rewritten);
            }
            rest = &rest[end..];
        }
        written.push_str(rest);
        if write && written != text {
            std::fs::write(file, written).unwrap();
        }
    }
    assert!(count > 0, "no CLI sessions found on the pages");
    assert!(
        failures.is_empty(),
        "{} of {count} statements on the pages differ (DATAFUSION_TENSOR_WRITE_DOCS=1 writes what they print):\n{}",
        failures.len(),
        failures.join("\n")
    );
}
