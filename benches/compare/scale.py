#!/usr/bin/env python3
"""Scaling with partitions: the six scaling queries at 1, 2, 4, ... partitions
(`SET datafusion.execution.target_partitions = N`), DuckDB's threads side by side, in one run.

    python3 benches/compare/scale.py [--rows 1000000] [--row-groups 16] [--embeddings 100000]
                                     [--partitions 1,2,4,...] [--repeat 3] [--bin PATH]
                                     [--no-duckdb] [--set tensor.map_files=false ...]

Writes with pyarrow under target/compare/ (snappy, fixed seeds):
- scale_f32_<rows>_<row-groups>.parquet: a float32 [16, 16] FixedShapeTensor column `x`
  (uniform in [0, 1)), in --row-groups row groups (16 row groups must scale as 64 smaller
  ones do: run both);
- scale_emb_<embeddings>.parquet: `id`, `g` (1,000 groups) and a float32 [768] column `e`
  (standard normal), row groups of 25,000 rows.

Each figure is the best of --repeat runs of the query in one process: the CLI's own "Elapsed"
lines (the `cargo build` binary unless --bin; give a release build for figures to publish),
DuckDB's in-process wall time (`SET threads = N`; the Parquet column read as a flat list).
The speed-up column is the 1-partition time over the largest partition count's. The files
are read from the page cache (each query runs once before it is timed).

Before the table, the rates one partition is held to (the target: one partition reads a
page-cached float32 file at the memory-copy rate measured beside it): the CLI's
`sum(tensor_sum(x))` at 1 partition as GB/s of the f32 file's float32 values (the snappy file,
and an uncompressed copy written beside it, `scale_f32_<rows>_<row-groups>_plain.parquet`), beside numpy
copying as many bytes into a fresh array (`np.copy`) and Python reading the file from the page
cache into a fresh buffer (`readinto`), best of --repeat.

`--set KEY=VALUE` (repeatable) runs `SET KEY = VALUE` before each query of this CLI, e.g.
`--set tensor.map_files=false` for the object store's reads instead of the memory map.

Partitions default to 1, 2, 4, ... up to `nproc`, and 16 beside them (the target: 16 partitions
on a 2-core machine must be no slower than 2). The 16-core figures in the docs come from the
project's own runs on such a machine when one is available; on this machine's 2 cores the
table shows the mechanism, not the scaling.
"""

import argparse
import os
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare import ROOT, cli_binary, timed  # noqa: E402

import numpy as np  # noqa: E402
import pyarrow as pa  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

DIM = 768

# name -> (file, this project's query, DuckDB's query or None); `{q}` is the query vector.
QUERIES = {
    "sum(tensor_sum(x))": (
        "f32",
        "SELECT sum(tensor_sum(x)) FROM {f}",
        "SELECT sum(list_sum(x)) FROM {f}",
    ),
    "x * 2.0 + 1.0": (
        "f32",
        "SELECT count(x * 2.0 + 1.0) FROM {f}",
        "SELECT sum(len(list_transform(x, lambda v: v * 2.0 + 1.0))) FROM {f}",
    ),
    "tensor_mean(x, axis => 0)": (
        "f32",
        "SELECT count(tensor_mean(x, axis => 0)) FROM {f}",
        "SELECT sum(len(list_transform(range(16), lambda j: list_avg(list_transform(range(16), "
        "lambda i: x[i * 16 + j + 1]))))) FROM {f}",
    ),
    "tensor_matmul(x, x)": (
        "f32",
        "SELECT count(tensor_matmul(x, x)) FROM {f}",
        None,
    ),
    "cosine top-10": (
        "emb",
        "SELECT id FROM {f} ORDER BY tensor_cosine_similarity(e, {q}) DESC LIMIT 10",
        f"SELECT id FROM {{f}} ORDER BY array_cosine_similarity(e::FLOAT[{DIM}], "
        f"{{q}}::FLOAT[{DIM}]) DESC LIMIT 10",
    ),
    "tensor_agg_mean(e) GROUP BY g": (
        "emb",
        "SELECT count(m) FROM (SELECT g, tensor_agg_mean(e) AS m FROM {f} GROUP BY g)",
        None,
    ),
}


def generate_f32(path, rows, row_groups, compression="snappy"):
    if path.exists():
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(16)
    per_group = -(-rows // row_groups)
    tmp = path.with_suffix(".tmp")
    schema = pa.schema([("x", pa.fixed_shape_tensor(pa.float32(), [16, 16]))])
    with pq.ParquetWriter(tmp, schema, compression=compression) as w:
        for start in range(0, rows, per_group):
            n = min(per_group, rows - start)
            x = rng.random((n, 16, 16), dtype=np.float32)
            w.write_table(pa.table({"x": pa.FixedShapeTensorArray.from_numpy_ndarray(x)}),
                          row_group_size=per_group)
    tmp.rename(path)


def generate_embeddings(path, rows):
    if path.exists():
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(DIM)
    e = rng.standard_normal((rows, DIM)).astype(np.float32)
    table = pa.table({
        "id": np.arange(rows),
        "g": np.arange(rows) % 1000,
        "e": pa.FixedShapeTensorArray.from_numpy_ndarray(e),
    })
    pq.write_table(table, path, row_group_size=25_000)


def query_vector():
    q = np.random.default_rng(7).standard_normal(DIM).astype(np.float32)
    return "[" + ", ".join(repr(float(v)) for v in q) + "]"


def cli(binary, sql, partitions, repeat, settings=()):
    sets = [f"SET datafusion.execution.target_partitions = {partitions}"]
    sets += [f"SET {key} = {value}" for key, value in settings]
    args = [binary, "--format", "csv"]
    for statement in sets:
        args += ["-c", statement]
    args += ["-c", sql] * (repeat + 1)
    out, _ = timed(args)
    elapsed = [float(s) for s in re.findall(r"Elapsed ([\d.]+) seconds", out)]
    # The SETs' lines, then the untimed first run (the page cache).
    return min(elapsed[len(sets) + 1:])


def copy_rates(path, values_bytes, repeat):
    """GB/s of numpy copying `values_bytes` into a fresh array, and of Python reading the
    file at `path` (page-cached) into a fresh buffer."""
    src = np.ones(values_bytes // 4, dtype=np.float32)
    best_copy = best_read = float("inf")
    size = path.stat().st_size
    for _ in range(repeat):
        start = time.perf_counter()
        dst = np.copy(src)
        best_copy = min(best_copy, time.perf_counter() - start)
        del dst
        buf = bytearray(size)
        start = time.perf_counter()
        with open(path, "rb", buffering=0) as f:
            f.readinto(buf)
        best_read = min(best_read, time.perf_counter() - start)
        del buf
    return values_bytes / best_copy / 1e9, size / best_read / 1e9


def duckdb_time(sql, threads, repeat):
    import duckdb

    con = duckdb.connect()
    con.sql(f"SET threads = {threads}")
    con.sql(sql).fetchall()
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        con.sql(sql).fetchall()
        best = min(best, time.perf_counter() - start)
    return best


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--row-groups", type=int, default=16)
    parser.add_argument("--embeddings", type=int, default=100_000)
    parser.add_argument("--partitions")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--bin")
    parser.add_argument("--only")
    parser.add_argument("--no-duckdb", action="store_true")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args()
    settings = [tuple(s.split("=", 1)) for s in args.set]
    cores = os.cpu_count() or 1
    if args.partitions:
        counts = [int(p) for p in args.partitions.split(",")]
    else:
        counts = [1 << k for k in range(cores.bit_length()) if 1 << k <= cores]
        counts += [16] if 16 not in counts else []
    binary = cli_binary(args.bin)
    out_dir = ROOT / "target" / "compare"
    files = {
        "f32": out_dir / f"scale_f32_{args.rows}_{args.row_groups}.parquet",
        "emb": out_dir / f"scale_emb_{args.embeddings}.parquet",
    }
    generate_f32(files["f32"], args.rows, args.row_groups)
    plain = out_dir / f"scale_f32_{args.rows}_{args.row_groups}_plain.parquet"
    generate_f32(plain, args.rows, args.row_groups, compression="none")
    generate_embeddings(files["emb"], args.embeddings)
    q = query_vector()
    duckdb = not args.no_duckdb
    if duckdb:
        try:
            import duckdb as _  # noqa: F401
        except ImportError:
            print("DuckDB is not installed here (pip install duckdb): its rows are left out")
            duckdb = False
    print(f"{cores} cores; f32 file: {args.rows} rows in {args.row_groups} row groups; "
          f"embeddings: {args.embeddings} rows of float32 [{DIM}]; seconds, best of {args.repeat}")
    print()
    if settings:
        print("settings: " + ", ".join(f"{k} = {v}" for k, v in settings))
    values = args.rows * 256 * 4
    path = f"'{files['f32']}'"
    scan = cli(binary, f"SELECT sum(tensor_sum(x)) FROM {path}", 1, args.repeat, settings)
    plain_scan = cli(binary, f"SELECT sum(tensor_sum(x)) FROM '{plain}'", 1, args.repeat,
                     settings)
    copy, read = copy_rates(files["f32"], values, args.repeat)
    print(f"one partition: sum(tensor_sum(x)) reads {values / scan / 1e9:.1f} GB/s of float32 "
          f"values from the snappy file ({scan:.3f} s), {values / plain_scan / 1e9:.1f} GB/s "
          f"from an uncompressed copy ({plain_scan:.3f} s); numpy copies {copy:.1f} GB/s; "
          f"Python reads the snappy file from the page cache at {read:.1f} GB/s")
    print()
    head = " | ".join(f"{n} {'partition' if n == 1 else 'partitions'}" for n in counts)
    print(f"| query | engine | {head} | speed-up |")
    print("| --- | --- | " + " | ".join("---" for _ in counts) + " | --- |")
    for name, (file, ours, theirs) in QUERIES.items():
        if args.only and args.only not in name:
            continue
        path = f"'{files[file]}'"
        rows = [("this CLI", [cli(binary, ours.format(f=path, q=q), n, args.repeat, settings)
                              for n in counts])]
        if duckdb and theirs:
            rows.append(("DuckDB", [duckdb_time(theirs.format(f=path, q=q), n, args.repeat)
                                    for n in counts]))
        for engine, times in rows:
            cells = " | ".join(f"{t:.3f}" for t in times)
            print(f"| {name} | {engine} | {cells} | {times[0] / times[-1]:.2f}x |", flush=True)


if __name__ == "__main__":
    main()
