#!/usr/bin/env python3
"""One query through the Python package against the same query through the CLI, same file.

    python3 benches/compare/python_vs_cli.py [--rows 1000000] [--repeat 10] [--bin PATH]

Needs the package installed (`pip install ./python`) and the CLI built (`cargo build`, or
--bin). Uses compare.py's file (target/compare/tensors_<rows>_<row group rows>.parquet,
written with pyarrow if missing) and its queries, aggregated with count() so that printing
does not count:

- the CLI: the query repeated --repeat times in one process, the best of its "Elapsed" lines;
- Python: `ctx.sql(q).collect()` repeated --repeat times in one process, the best wall time
  around the call (planning, execution, the result batches handed to pyarrow);
- Python, full result: the query without count(), its whole tensor column returned to
  pyarrow as a FixedShapeTensorArray (`to_arrow_table()`), best of --repeat: what a Python
  user pays to get the tensors back.
"""

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare import QUERIES, ROOT, cli_binary, cli_case, generate  # noqa: E402


def python_best(ctx, query, repeat):
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        ctx.sql(query).collect()
        best = min(best, time.perf_counter() - started)
    return best


def python_table_best(ctx, query, repeat, rows):
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        table = ctx.sql(query).to_arrow_table()
        best = min(best, time.perf_counter() - started)
        assert table.num_rows == rows
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--row-group-rows", type=int, default=131_072)
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--bin", help="the CLI binary (default: cargo build's)")
    args = parser.parse_args()

    import datafusion_tensor as dt

    binary = cli_binary(args.bin)

    path = ROOT / "target" / "compare" / f"tensors_{args.rows}_{args.row_group_rows}.parquet"
    generate(path, args.rows, args.row_group_rows)
    ctx = dt.SessionContext()
    print(f"{args.rows} rows, {os.cpu_count()} cores, best of {args.repeat}:")
    print("| query | CLI | Python `collect()` | Python / CLI | Python, whole tensor column to pyarrow |")
    print("| --- | --- | --- | --- | --- |")
    for name, (_, expr) in QUERIES.items():
        cli, _ = cli_case(binary, path, f"count({expr})", args.repeat, args.rows)
        py = python_best(ctx, f"SELECT count({expr}) FROM '{path}'", args.repeat)
        full = python_table_best(ctx, f"SELECT {expr} FROM '{path}'", args.repeat, args.rows)
        print(f"| `{expr}` | {cli:.3f} s | {py:.3f} s | {py / cli:.2f}x | {full:.3f} s |")


if __name__ == "__main__":
    main()
