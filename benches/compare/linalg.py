#!/usr/bin/env python3
"""Linear algebra per row over Parquet: `tensor_matmul` and
`tensor_cosine_similarity` side by side with this CLI's plain scan, pyarrow + numpy and DuckDB,
in one run.

    python3 benches/compare/linalg.py [--rows4 1000000] [--rows64 100000] [--rows-cos 1000000]
                                      [--repeat 2] [--bin PATH] [--only NAME] [--no-duckdb]

Writes with pyarrow (FixedShapeTensor columns, snappy, row groups of 65,536 rows; 8,192 for
the 64x64 file) under target/compare/:
- linalg_mm4_<rows>.parquet: float32 [4, 4] columns `a`, `b` (uniform in [0, 1));
- linalg_mm64_<rows>.parquet: float32 [64, 64] columns `a`, `b`;
- linalg_cos_<rows>.parquet: a float16 [768] column `e` (uniform in [-1, 1)).
The query vector q is 768 float32 values (a fixed seed), written into the SQL as a list.

Each engine runs in its own process under /usr/bin/time -v (peak resident memory), best of
--repeat, the read included everywhere:
- the CLI: `SELECT count(<expr>) FROM file`, the query repeated in one process, the best of its
  "Elapsed" lines; its plain scan is `count(a), count(b)` (`count(e)`);
- pyarrow + numpy: read, `combine_chunks().to_numpy_ndarray()`, then `np.matmul(a, b)` on the
  stacked arrays (numpy's batched matmul), or the cosine in float32 (`e.astype(np.float32)`,
  `e @ q / (norm(e, axis=1) * norm(q))`), as the issue asks;
- DuckDB 2.0: `array_cosine_similarity(e::FLOAT[768], q::FLOAT[768])` (the float16 column as
  DuckDB reads it); DuckDB has no matmul.
"""

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare import ROOT, best_of, child_time, cli_binary, cli_query  # noqa: E402

DIM = 768


def query_vector():
    import numpy as np

    return np.random.default_rng(768).standard_normal(DIM).astype(np.float32)


def generate(path, rows, columns, row_group):
    """`columns`: name -> (shape, numpy dtype, low, high)."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    if path.exists():
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(10)
    tmp = path.with_suffix(".tmp")
    writer = None
    for start in range(0, rows, row_group):
        n = min(row_group, rows - start)
        table = pa.table({
            name: pa.FixedShapeTensorArray.from_numpy_ndarray(
                rng.uniform(low, high, (n, *shape)).astype(dtype))
            for name, (shape, dtype, low, high) in columns.items()
        })
        if writer is None:
            writer = pq.ParquetWriter(tmp, table.schema)
        writer.write_table(table, row_group_size=row_group)
    writer.close()
    tmp.rename(path)


def child_numpy(kind, path, repeat):
    import numpy as np
    import pyarrow.parquet as pq

    def read(*names):
        table = pq.read_table(path, columns=list(names))
        return [table[n].combine_chunks().to_numpy_ndarray() for n in names]

    def matmul():
        a, b = read("a", "b")
        return np.matmul(a, b)

    q = query_vector()

    def cosine():
        (e,) = read("e")
        e = e.astype(np.float32)
        return (e @ q) / (np.linalg.norm(e, axis=1) * np.linalg.norm(q))

    best_of(repeat, matmul if kind == "matmul" else cosine)


def child_duckdb(path, repeat):
    import duckdb

    con = duckdb.connect()
    q = ", ".join(repr(float(v)) for v in query_vector())
    sql = (f"SELECT sum(array_cosine_similarity(e::FLOAT[{DIM}], [{q}]::FLOAT[{DIM}])) "
           f"FROM '{path}'")
    best_of(repeat, lambda: con.sql(sql).fetchall())


def cli(binary, path, sql, repeat, expect):
    return cli_query(binary, sql.format(path=path), repeat, expect)


def py(*args):
    return child_time(__file__, *args)


def print_table(title, rows):
    ours = rows[0][1][0]
    print(f"\n{title}; {os.cpu_count()} cores")
    print("| engine | time | vs datafusion-tensor | peak memory |")
    print("| --- | --- | --- | --- |")
    for name, (t, peak) in rows:
        print(f"| {name} | {t:.3f} s | {t / ours:.2f}x | {peak:.0f} MiB |")
    sys.stdout.flush()


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        kind, path, repeat = sys.argv[2], sys.argv[3], int(sys.argv[4])
        if kind == "duckdb":
            child_duckdb(path, repeat)
        else:
            child_numpy(kind, path, repeat)
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows4", type=int, default=1_000_000)
    parser.add_argument("--rows64", type=int, default=100_000)
    parser.add_argument("--rows-cos", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--bin")
    parser.add_argument("--only", help="matmul4, matmul64 or cosine")
    parser.add_argument("--no-duckdb", action="store_true")
    args = parser.parse_args()
    binary = cli_binary(args.bin)
    out = ROOT / "target" / "compare"
    f32 = "float32"

    for name, rows, side, row_group in (("matmul4", args.rows4, 4, 65_536),
                                        ("matmul64", args.rows64, 64, 8_192)):
        if args.only and args.only != name:
            continue
        path = out / f"linalg_mm{side}_{rows}.parquet"
        generate(path, rows, {"a": ((side, side), f32, 0, 1), "b": ((side, side), f32, 0, 1)},
                 row_group)
        print_table(f"{rows} rows of float32 [{side}, {side}] @ [{side}, {side}]", [
            ("datafusion-tensor: tensor_matmul(a, b)",
             cli(binary, path, "SELECT count(tensor_matmul(a, b)) FROM '{path}'", args.repeat,
                 rows)),
            ("its plain scan: count(a), count(b)",
             cli(binary, path, "SELECT count(a), count(b) FROM '{path}'", args.repeat, rows)),
            ("pyarrow + numpy (np.matmul on the stacked arrays)",
             py("matmul", path, args.repeat)),
        ])

    if not args.only or args.only == "cosine":
        rows = args.rows_cos
        path = out / f"linalg_cos_{rows}.parquet"
        generate(path, rows, {"e": ((DIM,), "float16", -1, 1)}, 65_536)
        q = ", ".join(repr(float(v)) for v in query_vector())
        table = [
            ("datafusion-tensor: tensor_cosine_similarity(e, q)",
             cli(binary, path,
                 f"SELECT count(tensor_cosine_similarity(e, [{q}])) FROM '{{path}}'",
                 args.repeat, rows)),
            ("its plain scan: count(e)",
             cli(binary, path, "SELECT count(e) FROM '{path}'", args.repeat, rows)),
            ("pyarrow + numpy (float32 compute)", py("cosine", path, args.repeat)),
        ]
        if not args.no_duckdb:
            table.append(("DuckDB 2.0 array_cosine_similarity", py("duckdb", path, args.repeat)))
        print_table(f"{rows} rows of float16 [{DIM}] against one query vector", table)


if __name__ == "__main__":
    main()
