//! The documentation: the generated reference pages are current, and every example in the
//! functions' documentation (and so on those pages) and every CLI session on the hand-written
//! pages prints, through the CLI, what it shows.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

use datafusion_tensor::reference::{Example, examples, pages, parse_example};

/// `docs/src/functions/*.md` are what the registry writes (`cargo run --bin
/// datafusion-tensor-docs` writes them).
#[test]
fn reference_pages_are_the_registry_s() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/src");
    let stale: Vec<String> = pages()
        .into_iter()
        .filter(|page| {
            std::fs::read_to_string(root.join(&page.path))
                .ok()
                .as_deref()
                != Some(page.text.as_str())
        })
        .map(|page| page.path)
        .collect();
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

/// What the CLI prints for each example, in order: one CLI process each, four at a time.
fn run_all(examples: &[Example]) -> Vec<String> {
    let printed: Vec<Mutex<String>> = examples.iter().map(|_| Mutex::default()).collect();
    let next = Mutex::new(0_usize);
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
                    *printed[i].lock().unwrap() = run(&example.sql);
                }
            });
        }
    });
    printed
        .into_iter()
        .map(|text| text.into_inner().unwrap())
        .collect()
}

/// The examples whose printed text is not what they show, each said with `place`'s name.
fn differences(
    examples: &[Example],
    printed: &[String],
    place: impl Fn(usize) -> String,
) -> Vec<String> {
    examples
        .iter()
        .zip(printed)
        .enumerate()
        .filter(|(_, (example, printed))| **printed != example.output)
        .map(|(i, (example, printed))| {
            format!(
                "{}: `{}` printed\n{printed}\nbut it shows\n{}\n",
                place(i),
                example.sql,
                example.output
            )
        })
        .collect()
}

/// Every function has an example, and each statement of it prints what the docs show.
#[test]
fn every_documented_example_prints_what_it_shows() {
    let examples = examples();
    let mut documented: Vec<&str> = examples.iter().map(|e| e.function.as_str()).collect();
    documented.dedup();
    let missing: Vec<&str> = datafusion_tensor::udf::registry()
        .user_functions()
        .map(|d| d.function.name())
        .filter(|name| !documented.contains(name))
        .collect();
    assert!(missing.is_empty(), "no example: {missing:?}");

    let printed = run_all(&examples);
    let failures = differences(&examples, &printed, |i| examples[i].function.clone());
    assert!(
        failures.is_empty(),
        "{} of {} examples differ:\n{}",
        failures.len(),
        examples.len(),
        failures.join("\n")
    );
}

/// The hand-written pages: `README.md` and `docs/src/**/*.md` but the generated reference.
fn hand_written_pages(root: &Path) -> Vec<PathBuf> {
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
    files
}

/// The `sql` blocks of `text` (their byte ranges) written as CLI sessions (`> ` prompts),
/// with their statements.
fn sessions(text: &str) -> Vec<(std::ops::Range<usize>, Vec<Example>)> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(start) = text[from..].find("```sql\n").map(|at| from + at) {
        let end = text[start..]
            .find("\n```")
            .map_or(text.len(), |end| start + end + 4);
        let statements = parse_example("page", &text[start..end]);
        if !statements.is_empty() {
            found.push((start..end, statements));
        }
        from = end;
    }
    found
}

/// The hand-written pages' `sql` blocks written as CLI sessions: each statement followed by
/// what it prints. With `DATAFUSION_TENSOR_WRITE_DOCS` set, the test writes what they print
/// instead (then read the change).
#[test]
fn every_session_on_the_pages_prints_what_it_shows() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let write = std::env::var_os("DATAFUSION_TENSOR_WRITE_DOCS").is_some();
    let mut failures = Vec::new();
    let mut count = 0;
    for file in hand_written_pages(root) {
        let text = std::fs::read_to_string(&file).unwrap();
        let blocks = sessions(&text);
        let statements: Vec<Example> = blocks.iter().flat_map(|(_, s)| s.clone()).collect();
        let printed = run_all(&statements);
        let name = file.strip_prefix(root).unwrap().display().to_string();
        failures.extend(differences(&statements, &printed, |_| name.clone()));
        count += statements.len();
        if write && !blocks.is_empty() {
            let mut written = String::new();
            let mut printed = printed.iter();
            let mut last = 0;
            for (range, statements) in &blocks {
                written.push_str(&text[last..range.start]);
                written.push_str("```sql\n");
                for (statement, printed) in statements.iter().zip(printed.by_ref()) {
                    let _ = writeln!(written, "> {}\n{printed}", statement.sql);
                }
                written.push_str("```");
                last = range.end;
            }
            written.push_str(&text[last..]);
            std::fs::write(&file, written).unwrap();
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
