#!/usr/bin/env python3
"""Tensor aggregates over Parquet: `SELECT g, tensor_agg_mean(e) FROM t GROUP BY g`
side by side with this CLI's plain scan, pyarrow + numpy and DuckDB, in one run.

    python3 benches/compare/aggregate.py [--rows 1000000] [--dim 768] [--groups 1000]
                                         [--repeat 2] [--bin PATH] [--no-duckdb]

Writes with pyarrow (snappy, row groups of 65,536) target/compare/agg_<rows>x<dim>.parquet:
`g` int64 (row i is in group i % groups), `e` a FixedShapeTensor float32 [dim] column (uniform
in [0, 1)). Each engine runs in its own process under /usr/bin/time -v (peak resident
memory), best of --repeat:
- the CLI: `SELECT count(m) FROM (SELECT g, tensor_agg_mean(e) AS m FROM file GROUP BY g)`,
  the query repeated in one process, the best of its "Elapsed" lines; its scan is
  `count(g), count(e)`;
- pyarrow + numpy: read, `to_numpy_ndarray()`, then the faster of `np.add.at(sums, g, e) /
  counts` and sort by g + `np.add.reduceat` (both timed, the better kept);
- DuckDB 2.0: `unnest` of the array with its position, `avg` per (g, position), re-aggregated
  with `list(... ORDER BY position)` per g.
"""

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare import ROOT, best_of, child_time, cli_binary, cli_query  # noqa: E402


def generate(path, rows, dim, groups):
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    if path.exists():
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(30)
    tmp = path.with_suffix(".tmp")
    writer = None
    chunk = 65_536
    for start in range(0, rows, chunk):
        n = min(chunk, rows - start)
        e = rng.random((n, dim), dtype=np.float32)
        table = pa.table({"g": np.arange(start, start + n) % groups,
                          "e": pa.FixedShapeTensorArray.from_numpy_ndarray(e)})
        if writer is None:
            writer = pq.ParquetWriter(tmp, table.schema)
        writer.write_table(table, row_group_size=chunk)
    writer.close()
    tmp.rename(path)


def child_numpy(path, groups, repeat):
    import numpy as np
    import pyarrow.parquet as pq

    def read():
        table = pq.read_table(path, columns=["g", "e"])
        return table["g"].to_numpy(), table["e"].combine_chunks().to_numpy_ndarray()

    def add_at():
        g, e = read()
        sums = np.zeros((groups, e.shape[1]), np.float64)
        np.add.at(sums, g, e)
        return (sums / np.bincount(g, minlength=groups)[:, None]).astype(np.float32)

    def reduceat():
        g, e = read()
        order = np.argsort(g, kind="stable")
        starts = np.flatnonzero(np.r_[True, np.diff(g[order]) != 0])
        sums = np.add.reduceat(e[order], starts, axis=0, dtype=np.float32)
        return sums / np.diff(np.r_[starts, len(g)])[:, None]

    times = []
    for run in (add_at, reduceat):
        best = float("inf")
        for _ in range(repeat):
            start = time.perf_counter()
            run()
            best = min(best, time.perf_counter() - start)
        times.append(best)
    print(f"TIME {min(times)}")


def child_duckdb(path, repeat):
    import duckdb

    con = duckdb.connect()
    sql = f"""
        SELECT count(m) FROM (
          SELECT g, list(a ORDER BY i) AS m FROM (
            SELECT g, i, avg(v) AS a FROM (
              SELECT g, unnest(e::FLOAT[]) AS v, generate_subscripts(e::FLOAT[], 1) AS i
              FROM '{path}')
            GROUP BY g, i)
          GROUP BY g)"""
    best_of(repeat, lambda: con.sql(sql).fetchall())


def cli(binary, path, sql, repeat, expect):
    return cli_query(binary, sql.format(path=path), repeat, expect)


def py(*args):
    return child_time(__file__, *args)


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        kind, path, *rest = sys.argv[2:]
        if kind == "numpy":
            child_numpy(path, int(rest[0]), int(rest[1]))
        else:
            child_duckdb(path, int(rest[0]))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--dim", type=int, default=768)
    parser.add_argument("--groups", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--bin")
    parser.add_argument("--no-duckdb", action="store_true")
    args = parser.parse_args()
    binary = cli_binary(args.bin)
    path = ROOT / "target" / "compare" / f"agg_{args.rows}x{args.dim}.parquet"
    generate(path, args.rows, args.dim, args.groups)

    rows = [("datafusion-tensor: tensor_agg_mean(e) GROUP BY g",
             cli(binary, path, "SELECT count(m) FROM (SELECT g, tensor_agg_mean(e) AS m "
                 "FROM '{path}' GROUP BY g)", args.repeat, args.groups)),
            ("its plain scan: count(g), count(e)",
             cli(binary, path, "SELECT count(g), count(e) FROM '{path}'", args.repeat,
                 args.rows)),
            ("pyarrow + numpy (add.at or sort + reduceat)",
             py("numpy", path, args.groups, args.repeat))]
    if not args.no_duckdb:
        rows.append(("DuckDB 2.0 (unnest, avg per position, list)",
                     py("duckdb", path, args.repeat)))
    ours = rows[0][1][0]
    print(f"{args.rows} rows of float32 [{args.dim}] in {args.groups} groups; "
          f"{os.cpu_count()} cores")
    print("| engine | time | vs datafusion-tensor | peak memory |")
    print("| --- | --- | --- | --- |")
    for name, (t, peak) in rows:
        print(f"| {name} | {t:.3f} s | {t / ours:.2f}x | {peak:.0f} MiB |")


if __name__ == "__main__":
    main()
