#!/usr/bin/env python3
"""End-to-end speed over Parquet: this project's CLI side by side with pyarrow+numpy and DuckDB.

    python3 benches/compare/compare.py [--rows 1000000] [--row-group-rows 131072] [--repeat 5]
                                       [--scale 10] [--bin PATH] [--no-duckdb]

Writes target/compare/tensors_<rows>.parquet with pyarrow (FixedShapeTensor columns: float32
4x4 `x`, int32 4x4 index `a` in [0, 3), float32 4x4 choices `c0`, `c1`, `c2`; snappy, as pyarrow
writes by default), then times, best of --repeat, each query in its own process under
/usr/bin/time -v (peak resident memory):

- the CLI (`cargo build`'s binary unless --bin): the query repeated --repeat times in one
  process (`-c q -c q ...`), the best of the CLI's own "Elapsed" lines; the result aggregated
  with count() so printing does not count;
- pyarrow read of the columns + numpy on the same data (combine_chunks, to_numpy_ndarray, the
  numpy call), in-process wall time;
- DuckDB (the Python package, in-process, default threads): its nearest equivalent, a
  `list_transform` over the flattened list the Parquet column is read as, aggregated with
  sum(len(...)) (DuckDB drops a projection under count());
- the plain scan of the same columns in each engine.

With --scale K it also writes a K-times larger file and prints each query's peak memory on
both files (the CLI streams batches: peak memory should follow the row-group size, not the
file size).
"""

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHAPE = (4, 4)

# name -> (columns read, this project's SQL expression or None for the plain scan)
QUERIES = {
    "slice '1:3, ::2'": (["x"], "tensor_get(x, '1:3, ::2')"),
    "choose a, c0..c2": (["a", "c0", "c1", "c2"], "tensor_choose(a, c0, c1, c2)"),
    "at_add '[0, 0, 1]'": (["x"], "tensor_at_add(x, '[0, 0, 1]', 1.0)"),
}

# DuckDB reads a FixedShapeTensor column as a plain FLOAT[] / INTEGER[] list of the 16
# row-major elements (1-based). These are the same computations, element by element.
DUCKDB = {
    # x[1:3, ::2] of a 4x4 row-major tensor: flat (1-based) positions 5, 7, 9, 11
    "slice '1:3, ::2'": "list_transform([5, 7, 9, 11], lambda i: x[i])",
    "choose a, c0..c2": (
        "list_transform(range(1, 17), lambda i: CASE a[i] WHEN 0 THEN c0[i] WHEN 1 THEN c1[i] "
        "WHEN 2 THEN c2[i] ELSE error('invalid entry in choice array') END)"
    ),
    # row 0 gets +1 twice, row 1 once
    "at_add '[0, 0, 1]'": (
        "list_transform(range(1, 17), lambda i: x[i] + CASE WHEN i <= 4 THEN 2.0 "
        "WHEN i <= 8 THEN 1.0 ELSE 0.0 END)"
    ),
}


def generate(path, rows, row_group_rows):
    """The benchmark file, written chunk by chunk (a 10x file need not fit in memory twice)."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    if path.exists():
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(0)

    def tensor(arr):
        return pa.FixedShapeTensorArray.from_numpy_ndarray(np.ascontiguousarray(arr))

    tmp = path.with_suffix(".tmp")
    writer = None
    for start in range(0, rows, row_group_rows):
        n = min(row_group_rows, rows - start)
        batch = pa.table(
            {
                "id": pa.array(np.arange(start, start + n, dtype=np.int64)),
                "x": tensor(rng.random((n, *SHAPE), dtype=np.float32)),
                "a": tensor(rng.integers(0, 3, (n, *SHAPE), dtype=np.int32)),
                "c0": tensor(rng.random((n, *SHAPE), dtype=np.float32)),
                "c1": tensor(rng.random((n, *SHAPE), dtype=np.float32)),
                "c2": tensor(rng.random((n, *SHAPE), dtype=np.float32)),
            }
        )
        if writer is None:
            writer = pq.ParquetWriter(tmp, batch.schema)
        writer.write_table(batch, row_group_size=row_group_rows)
    writer.close()
    tmp.rename(path)


# ---- children: one query, one process; print "TIME <best seconds>" ----


def child_pyarrow(path, name, repeat):
    import numpy as np
    import pyarrow.parquet as pq


    def read(cols):
        table = pq.read_table(path, columns=cols)
        return [table[c].combine_chunks().to_numpy_ndarray() for c in cols]

    def run():
        if name.startswith("scan"):
            return read(name.split(":")[1].split(","))
        if name.startswith("slice"):
            (x,) = read(["x"])
            return x[:, 1:3, ::2].copy()
        if name.startswith("choose"):
            a, c0, c1, c2 = read(["a", "c0", "c1", "c2"])
            return np.choose(a, [c0, c1, c2])
        (x,) = read(["x"])
        x = x.copy()  # Arrow's buffer is read-only; tensor_at_add returns a new tensor too
        np.add.at(x, (slice(None), [0, 0, 1]), np.float32(1.0))
        return x

    best_of(repeat, run)


def child_duckdb(path, name, repeat):
    import duckdb

    con = duckdb.connect()
    if name.startswith("scan"):
        cols = name.split(":")[1].split(",")
        select = ", ".join(f"count({c})" for c in cols)
    else:
        select = f"sum(len({DUCKDB[name]}))"
    sql = f"SELECT {select} FROM '{path}'"
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        con.sql(sql).fetchall()
        best = min(best, time.perf_counter() - start)
    print(f"TIME {best}")


# ---- the parent ----


def best_of(repeat, run):
    """Runs `run` `repeat` times; prints "TIME <best seconds>" (the children's protocol)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    print(f"TIME {best}")


def timed(command):
    """Runs command under /usr/bin/time -v: (its stdout, peak resident MiB)."""
    proc = subprocess.run(
        ["/usr/bin/time", "-v", *command], capture_output=True, text=True, check=False
    )
    if proc.returncode != 0:
        sys.exit(f"failed: {' '.join(command)}\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")
    peak_kb = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr)[1])
    return proc.stdout, peak_kb / 1024


def cli_case(binary, path, sql, repeat, rows):
    return cli_query(binary, f"SELECT {sql} FROM '{path}'", repeat, rows)


def cli_query(binary, query, repeat, expect):
    """`query` repeated in one CLI process: (the best of its "Elapsed" lines, peak MiB); every
    result row must be `expect` (a count)."""
    args = [binary, "--format", "csv"]
    for _ in range(repeat):
        args += ["-c", query]
    out, peak = timed(args)
    counts = set(re.findall(r"^(\d+)(?:,\d+)*$", out, re.MULTILINE))
    if counts != {str(expect)}:
        sys.exit(f"unexpected result of {query[:300]}:\n{out[-2000:]}")
    elapsed = [float(s) for s in re.findall(r"Elapsed ([\d.]+) seconds", out)]
    return min(elapsed), peak


def py_case(kind, path, name, repeat):
    return child_time(__file__, kind, path, name, repeat)


def child_time(script, *args):
    """`script --child args...` in its own process: (the "TIME" it prints, peak MiB)."""
    out, peak = timed([sys.executable, str(script), "--child", *map(str, args)])
    return float(re.search(r"TIME ([\d.e-]+)", out)[1]), peak


def cli_sum(binary, query, repeat):
    """`query` (one number) run `repeat` times in one CLI process: the best "Elapsed" and the
    number."""
    out, _ = timed([binary, "--format", "csv", *(["-c", query] * repeat)])
    elapsed = [float(s) for s in re.findall(r"Elapsed ([\d.]+) seconds", out)]
    values = re.findall(r"^(-?[\d.e+-]+)$", out, re.MULTILINE)
    return min(elapsed), float(values[-1])


def numpy_sum(path, columns, f, repeat):
    """numpy's side of a comparison: `columns` of the file read with pyarrow as ndarrays
    (`to_numpy_ndarray`), `f` of them summed; the best wall time of `repeat` runs, read
    included, and the sum."""
    import pyarrow.parquet as pq

    best, value = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        table = pq.read_table(path, columns=columns)
        arrays = {c: table[c].combine_chunks().to_numpy_ndarray() for c in columns}
        value = f(arrays).sum()
        best = min(best, time.perf_counter() - start)
    return best, float(value)


def cli_binary(given):
    """The CLI to measure: `given` (--bin), else `cargo build`'s, built first."""
    if given is not None:
        return given
    subprocess.run(["cargo", "build", "--quiet"], cwd=ROOT, check=True)
    target = os.environ.get("CARGO_TARGET_DIR", ROOT / "target")
    return str(Path(target) / "debug" / "datafusion-tensor")


def measure(binary, path, rows, repeat, duckdb):
    results = {}
    for name, (columns, expr) in QUERIES.items():
        scan_sql = ", ".join(f"count({c})" for c in columns)
        row = {
            "cli": cli_case(binary, path, f"count({expr})", repeat, rows),
            "cli_scan": cli_case(binary, path, scan_sql, repeat, rows),
            "pyarrow": py_case("pyarrow", path, name, repeat),
            "pyarrow_scan": py_case("pyarrow", path, "scan:" + ",".join(columns), repeat),
        }
        if duckdb:
            row["duckdb"] = py_case("duckdb", path, name, repeat)
            row["duckdb_scan"] = py_case("duckdb", path, "scan:" + ",".join(columns), repeat)
        results[name] = row
        print(f"  measured {name}", file=sys.stderr)
    return results


def print_table(results, duckdb):
    engines = ["cli_scan", "pyarrow", "pyarrow_scan"] + (["duckdb", "duckdb_scan"] if duckdb else [])
    head = "| query | datafusion-tensor | " + " | ".join(engines) + " |"
    print(head)
    print("|" + " --- |" * (2 + len(engines)))
    for name, row in results.items():
        ours, ours_peak = row["cli"]
        cells = [f"{ours:.3f} s ({ours_peak:.0f} MiB)"]
        for e in engines:
            t, peak = row[e]
            cells.append(f"{t:.3f} s = {t / ours:.2f}x ({peak:.0f} MiB)")
        print(f"| {name} | " + " | ".join(cells) + " |")
    print()
    print("Ratios are the engine's time over datafusion-tensor's (above 1: the project is faster);")
    print("`cli_scan` is the same CLI counting the same columns without the function.")


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        kind, path, name, repeat = sys.argv[2:6]
        {"pyarrow": child_pyarrow, "duckdb": child_duckdb}[kind](path, name, int(repeat))
        return

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--row-group-rows", type=int, default=131_072)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--scale", type=int, default=0, help="also measure a K-times larger file")
    parser.add_argument("--bin", help="the CLI binary (default: cargo build's)")
    parser.add_argument("--no-duckdb", action="store_true")
    args = parser.parse_args()

    duckdb = not args.no_duckdb
    if duckdb:
        try:
            import duckdb as _  # noqa: F401
        except ImportError:
            print("duckdb not installed (pip install duckdb): skipping it", file=sys.stderr)
            duckdb = False

    binary = cli_binary(args.bin)

    out_dir = ROOT / "target" / "compare"
    path = out_dir / f"tensors_{args.rows}_{args.row_group_rows}.parquet"
    generate(path, args.rows, args.row_group_rows)
    print(f"{args.rows} rows, row groups of {args.row_group_rows}, {os.cpu_count()} cores:")
    results = measure(binary, path, args.rows, args.repeat, duckdb)
    print_table(results, duckdb)

    if args.scale:
        rows = args.rows * args.scale
        big = out_dir / f"tensors_{rows}_{args.row_group_rows}.parquet"
        generate(big, rows, args.row_group_rows)
        print(f"\nPeak memory (MiB) of the CLI, {args.rows} rows vs {rows} rows:")
        print("| query | small file | large file | time small | time large |")
        print("| --- | --- | --- | --- | --- |")
        for name, (columns, expr) in QUERIES.items():
            for label, sql in ((name, f"count({expr})"), (f"scan {','.join(columns)}", None)):
                sql = sql or ", ".join(f"count({c})" for c in columns)
                t1, p1 = cli_case(binary, path, sql, 1, args.rows)
                t2, p2 = cli_case(binary, big, sql, 1, rows)
                print(f"| {label} | {p1:.0f} | {p2:.0f} | {t1:.3f} s | {t2:.3f} s |")


if __name__ == "__main__":
    main()
