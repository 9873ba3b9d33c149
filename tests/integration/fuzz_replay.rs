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

#[test]
fn sql_math_corpus() {
    replay("sql_math", |d| {
        harness::run_sql(d, harness::Family::Math);
    });
}

#[test]
fn sql_aggregate_corpus() {
    replay("sql_aggregate", |d| {
        harness::run_sql(d, harness::Family::Aggregate);
    });
}

#[test]
fn tensor_files_corpus() {
    replay("tensor_files", |d| {
        harness::tensor_files(d);
    });
}

/// The committed tensor files (`tests/data/tensor_files/`, written by numpy and safetensors),
/// each broken 150 ways by seeded pseudo-random edits: bytes overwritten (most in the
/// header), the file cut short, header digits changed. Every read is an error or rows, never a
/// panic; `FUZZ_RANDOM_INPUTS=N` makes N edits of each file.
#[test]
fn tensor_file_mutations() {
    let edits = std::env::var("FUZZ_RANDOM_INPUTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(150usize);
    let mut next = xorshift(0x2545_F491_4F6C_DD1D);
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/tensor_files");
    let seeds = [
        (0u8, "c_float32.npy"),
        (0, "f_4d.npy"),
        (0, "be_int32.npy"),
        (1, "arrays.npz"),
        (1, "compressed.npz"),
        (2, "model.safetensors"),
        (2, "bf16.safetensors"),
    ];
    let (mut reads, mut ok) = (0usize, 0usize);
    for (format, file) in seeds {
        let good = std::fs::read(dir.join(file)).unwrap();
        for _ in 0..edits {
            let mut bytes = good.clone();
            match next() % 4 {
                0 => bytes.truncate((next() as usize) % bytes.len()),
                1 => {
                    // Digits in the header: shapes and lengths that lie.
                    let header = bytes.len().min(160);
                    for _ in 0..=(next() % 3) {
                        let at = (next() as usize) % header;
                        bytes[at] = b"0123456789"[(next() % 10) as usize];
                    }
                }
                2 => {
                    let header = bytes.len().min(128);
                    for _ in 0..=(next() % 4) {
                        let at = (next() as usize) % header;
                        bytes[at] = next() as u8;
                    }
                }
                _ => {
                    for _ in 0..=(next() % 8) {
                        let at = (next() as usize) % bytes.len();
                        bytes[at] = next() as u8;
                    }
                }
            }
            let mut input = vec![format];
            input.extend_from_slice(&bytes);
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                harness::tensor_files(&input)
            }));
            let Ok(results) = outcome else {
                let path = std::env::temp_dir().join(format!("tensor-file-panic-{file}"));
                std::fs::write(&path, &input).unwrap();
                panic!(
                    "an edit of {file} panics: the input is at {}",
                    path.display()
                );
            };
            reads += results.len();
            ok += results.iter().filter(|(_, r)| r.is_ok()).count();
        }
    }
    // Both outcomes occur: the edits are not all fatal, nor all harmless.
    assert!(ok > 0 && ok < reads, "{ok} of {reads} reads succeeded");
}

/// A seeded xorshift* generator: the same edits on every run.
fn xorshift(seed: u64) -> impl FnMut() -> u64 {
    let mut state = seed;
    move || {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

#[test]
fn zarr_store_corpus() {
    replay("zarr_store", |d| {
        harness::zarr_store(d);
    });
}

/// The committed Zarr stores (`tests/data/zarr/`, written by zarr-python): each store's
/// metadata and first chunk, broken 150 ways by seeded pseudo-random edits (metadata digits
/// and bytes changed, the chunk's bytes changed or cut short), through the `zarr_store` fuzz
/// harness. Every read is an error or rows, never a panic; `FUZZ_RANDOM_INPUTS=N` makes N
/// edits of each store.
#[test]
fn zarr_store_mutations() {
    let edits = std::env::var("FUZZ_RANDOM_INPUTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(150usize);
    let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/zarr");
    // (v2?, store, its chunk 0's key)
    let seeds = [
        (false, "v3_float32", "c/0/0/0"),
        (false, "v3_vector", "c/0"),
        (false, "v3_blosc_lz4", "c/0/0/0"),
        (false, "v3_crc32c", "c/0/0/0"),
        (false, "v3_transpose", "c/0/0/0"),
        (false, "v3_sharded", "c/0/0/0"),
        (false, "v3_bfloat16", "c/0/0"),
        (true, "v2_blosc", "0.0.0"),
        (true, "v2_fortran_be", "0.0.0"),
        (true, "v2_gzip", "0.0.0"),
    ];
    let (mut reads, mut ok) = (0usize, 0usize);
    for (v2, store, chunk_key) in seeds {
        let metadata =
            std::fs::read(
                dir.join(store)
                    .join(if v2 { ".zarray" } else { "zarr.json" }),
            )
            .unwrap();
        let chunk = std::fs::read(dir.join(store).join(chunk_key)).unwrap();
        for _ in 0..edits {
            let (mut metadata, mut chunk) = (metadata.clone(), chunk.clone());
            match next() % 4 {
                0 => {
                    // Digits in the metadata: shapes, chunk shapes and levels that lie.
                    for _ in 0..=(next() % 3) {
                        let at = (next() as usize) % metadata.len();
                        if metadata[at].is_ascii_digit() || next().is_multiple_of(4) {
                            metadata[at] = b"0123456789"[(next() % 10) as usize];
                        }
                    }
                }
                1 => {
                    for _ in 0..=(next() % 4) {
                        let at = (next() as usize) % metadata.len();
                        metadata[at] = (next() as u8).max(1);
                    }
                }
                2 if !chunk.is_empty() => chunk.truncate((next() as usize) % chunk.len()),
                _ if !chunk.is_empty() => {
                    for _ in 0..=(next() % 8) {
                        let at = (next() as usize) % chunk.len();
                        chunk[at] = next() as u8;
                    }
                }
                _ => {}
            }
            // The harness's pick: the version, and the key's dimensions (its parts, less one).
            let ndim = chunk_key.split(['/', '.']).count() - usize::from(!v2);
            let mut input = vec![u8::from(v2) + 2 * u8::try_from(ndim - 1).unwrap()];
            input.extend_from_slice(&metadata);
            input.push(0);
            input.extend_from_slice(&chunk);
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                harness::zarr_store(&input)
            }));
            let Ok(results) = outcome else {
                let path = std::env::temp_dir().join(format!("zarr-store-panic-{store}"));
                std::fs::write(&path, &input).unwrap();
                panic!(
                    "an edit of {store} panics: the input is at {}",
                    path.display()
                );
            };
            reads += results.len();
            ok += results.iter().filter(|(_, r)| r.is_ok()).count();
        }
    }
    // Both outcomes occur: the edits are not all fatal, nor all harmless.
    assert!(ok > 0 && ok < reads, "{ok} of {reads} reads succeeded");
}

/// Seeded pseudo-random inputs through every SQL target (no coverage guidance: what this
/// machine runs without a nightly `cargo fuzz`): none may panic. 200 inputs per target;
/// `FUZZ_RANDOM_INPUTS=N` runs N (and `FUZZ_RANDOM_SEED` another seed).
#[test]
fn seeded_random_inputs() {
    let env = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let inputs = env("FUZZ_RANDOM_INPUTS", 200);
    let mut state = env("FUZZ_RANDOM_SEED", 0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move || {
        // xorshift64*
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_F491_4F6C_DD1D)
    };
    for family in [
        harness::Family::Choose,
        harness::Family::Get,
        harness::Family::At,
        harness::Family::Math,
        harness::Family::Aggregate,
    ] {
        let (mut queries, mut results_seen) = (0usize, 0usize);
        for _ in 0..inputs {
            let len = 16 + (next() % 400) as usize;
            let data: Vec<u8> = (0..len).map(|_| next() as u8).collect();
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                harness::run_sql(&data, family)
            }));
            if let Ok(results) = &outcome {
                queries += results.len();
                results_seen += results.iter().filter(|(_, r)| r.is_ok()).count();
            }
            if outcome.is_err() {
                let hex = data.iter().fold(String::new(), |mut hex, b| {
                    use std::fmt::Write;
                    let _ = write!(hex, "{b:02x}");
                    hex
                });
                panic!("{family:?} panics on input {hex}");
            }
        }
        if std::env::var_os("FUZZ_SHOW").is_some() {
            eprintln!("{family:?}: {results_seen} of {queries} queries gave a result");
        }
        // Random inputs that only ever reach errors would test the error paths alone.
        assert!(
            results_seen * 10 >= queries,
            "{family:?}: only {results_seen} of {queries} queries gave a result"
        );
    }
}
