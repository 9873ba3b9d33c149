#!/usr/bin/env python3
"""Tensor math over Parquet: this project's CLI side by side with its own plain scan,
pyarrow + numpy, DuckDB and Polars, in one run.

    python3 benches/compare/tensor_math.py [--rows 1000000] [--u8-rows 500000] [--repeat 3]
                                    [--bin PATH] [--only NAME] [--no-duckdb] [--no-polars]

Writes with pyarrow (FixedShapeTensor columns, snappy, row groups of 65,536 rows):
- target/compare/math_f32_<rows>.parquet: float32 [16, 16] columns `x`, `y` (uniform in [0, 1));
- target/compare/math_u8_<rows>.parquet: uint8 [28, 28] columns `x`, `y` (uniform in [0, 256)).

Each query runs in its own process under /usr/bin/time -v (peak resident memory), best of
--repeat:
- the CLI (`cargo build`'s binary unless --bin): `SELECT count(<expr>) FROM file`, the query
  repeated in one process, the best of the CLI's own "Elapsed" lines; its plain scan is
  `count(x)` (and `count(y)`) of the same columns;
- pyarrow + numpy: read the columns, `combine_chunks().to_numpy_ndarray()`, the numpy
  expression on the stacked [rows, ...] array (a row's axis 0 is the stack's axis 1);
- DuckDB (in-process, the Parquet column read as a flat list of the row-major elements): the
  nearest expression with `list_transform`/lambdas and `list_sum`, aggregated with
  `sum(len(...))` or `sum(...)` so that DuckDB computes it;
- Polars (`pl.read_parquet`; the extension column's storage, a flat `pl.Array`, through
  `.ext.storage()`): the expression where Polars has one (`x * 2 + y`, `x.arr.sum()`), "n/a"
  where it raises (comparisons of an array with a number, reductions along one axis).
"""

import argparse
import os
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare import ROOT, best_of, cli_binary, cli_case, timed  # noqa: E402

FILES = {"f32": ((16, 16), "float32"), "u8": ((28, 28), "uint8")}

# name -> (file, this project's SQL expression; numpy on stacked x, y; DuckDB; Polars)
QUERIES = {
    "f32 x * 2.0 + y": (
        "f32",
        "x * 2.0 + y",
        lambda x, y: x * np.float32(2.0) + y,
        "sum(len(list_transform(x, lambda v, i: v * 2.0 + y[i])))",
        lambda pl: pl.col("x").ext.storage() * 2.0 + pl.col("y").ext.storage(),
    ),
    "f32 x > 0.5": (
        "f32",
        "x > 0.5",
        lambda x, y: x > 0.5,
        "sum(len(list_transform(x, lambda v: v > 0.5)))",
        lambda pl: pl.col("x").ext.storage() > 0.5,
    ),
    "f32 tensor_mean(x, axis => 0)": (
        "f32",
        "tensor_mean(x, axis => 0)",
        lambda x, y: x.mean(axis=1),
        "sum(len(list_transform(range(16), lambda j: list_avg(list_transform(range(16), lambda i: x[i * 16 + j + 1])))))",
        None,
    ),
    "f32 tensor_sum(x, axis => [0, 1])": (
        "f32",
        "tensor_sum(x, axis => [0, 1])",
        lambda x, y: x.sum(axis=(1, 2)),
        "sum(list_sum(x))",
        lambda pl: pl.col("x").ext.storage().arr.sum(),
    ),
    "f32 tensor_transpose(x)": (
        "f32",
        "tensor_transpose(x)",
        lambda x, y: x.transpose(0, 2, 1),
        "sum(len(list_transform(range(256), lambda k: x[(k % 16) * 16 + k // 16 + 1])))",
        None,
    ),
    "u8 x * 2 + y": (
        "u8",
        "x * 2 + y",
        lambda x, y: x * 2 + y,
        "sum(len(list_transform(x, lambda v, i: ((v::USMALLINT * 2 + y[i]) % 256)::UTINYINT)))",
        lambda pl: pl.col("x").ext.storage() * 2 + pl.col("y").ext.storage(),
    ),
    "u8 x > 128": (
        "u8",
        "x > 128",
        lambda x, y: x > 128,
        "sum(len(list_transform(x, lambda v: v > 128)))",
        lambda pl: pl.col("x").ext.storage() > 128,
    ),
    "u8 tensor_mean(x, axis => 0)": (
        "u8",
        "tensor_mean(x, axis => 0)",
        lambda x, y: x.mean(axis=1),
        "sum(len(list_transform(range(28), lambda j: list_avg(list_transform(range(28), lambda i: x[i * 28 + j + 1])))))",
        None,
    ),
    "u8 tensor_sum(x, axis => [0, 1])": (
        "u8",
        "tensor_sum(x, axis => [0, 1])",
        lambda x, y: x.sum(axis=(1, 2)),
        "sum(list_sum(x))",
        lambda pl: pl.col("x").ext.storage().arr.sum(),
    ),
    "u8 tensor_transpose(x)": (
        "u8",
        "tensor_transpose(x)",
        lambda x, y: x.transpose(0, 2, 1),
        "sum(len(list_transform(range(784), lambda k: x[(k % 28) * 28 + k // 28 + 1])))",
        None,
    ),
}

np = None  # numpy, imported in the children that use it


def columns(name):
    """The columns a query reads."""
    return ["x", "y"] if re.search(r"\by\b", QUERIES[name][1]) else ["x"]


def generate(path, rows, shape, dtype):
    import numpy
    import pyarrow as pa
    import pyarrow.parquet as pq

    if path.exists():
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    rng = numpy.random.default_rng(0)
    tmp = path.with_suffix(".tmp")
    writer = None
    chunk = 65_536
    for start in range(0, rows, chunk):
        n = min(chunk, rows - start)
        cols = {}
        for name in ("x", "y"):
            if dtype == "uint8":
                arr = rng.integers(0, 256, (n, *shape), dtype=numpy.uint8)
            else:
                arr = rng.random((n, *shape), dtype=numpy.float32)
            cols[name] = pa.FixedShapeTensorArray.from_numpy_ndarray(arr)
        batch = pa.table(cols)
        if writer is None:
            writer = pq.ParquetWriter(tmp, batch.schema)
        writer.write_table(batch, row_group_size=chunk)
    writer.close()
    tmp.rename(path)


# ---- children: one query, one process; print "TIME <best seconds>" or "NA <why>" ----


def child_numpy(path, name, repeat):
    global np
    import numpy
    import pyarrow.parquet as pq

    np = numpy
    scan = name.startswith("scan:")
    cols = name.split(":")[1].split(",") if scan else columns(name)

    def run():
        table = pq.read_table(path, columns=cols)
        arrays = [table[c].combine_chunks().to_numpy_ndarray() for c in cols]
        if not scan:
            QUERIES[name][2](*arrays, *([None] * (2 - len(arrays))))

    best_of(repeat, run)


def child_duckdb(path, name, repeat):
    import duckdb

    con = duckdb.connect()
    if name.startswith("scan:"):
        select = ", ".join(f"count({c})" for c in name.split(":")[1].split(","))
    else:
        select = QUERIES[name][3]
    sql = f"SELECT {select} FROM '{path}'"
    best_of(repeat, lambda: con.sql(sql).fetchall())


def child_polars(path, name, repeat):
    import polars as pl

    if name.startswith("scan:"):
        cols = name.split(":")[1].split(",")
        best_of(repeat, lambda: pl.read_parquet(path, columns=cols))
        return
    expr = QUERIES[name][4]
    try:
        pl.read_parquet(path, columns=columns(name)).head(4).select(expr(pl))
    except Exception as e:  # noqa: BLE001 - any refusal means "not expressible"
        print(f"NA {type(e).__name__}")
        return
    best_of(repeat, lambda: pl.read_parquet(path, columns=columns(name)).select(expr(pl)))


# ---- the parent ----


def py_case(kind, path, name, repeat):
    out, peak = timed([sys.executable, __file__, "--child", kind, str(path), name, str(repeat)])
    if out.startswith("NA"):
        return None
    return float(re.search(r"TIME ([\d.e-]+)", out)[1]), peak


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        kind, path, name, repeat = sys.argv[2:6]
        {"numpy": child_numpy, "duckdb": child_duckdb, "polars": child_polars}[kind](
            path, name, int(repeat)
        )
        return

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--u8-rows", type=int, default=500_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--bin", help="the CLI binary (default: cargo build's)")
    parser.add_argument("--only", help="only the queries whose name contains this")
    parser.add_argument("--no-duckdb", action="store_true")
    parser.add_argument("--no-polars", action="store_true")
    args = parser.parse_args()

    binary = cli_binary(args.bin)

    out_dir = ROOT / "target" / "compare"
    rows = {"f32": args.rows, "u8": args.u8_rows}
    paths = {}
    for key, (shape, dtype) in FILES.items():
        paths[key] = out_dir / f"math_{key}_{rows[key]}.parquet"
        generate(paths[key], rows[key], shape, dtype)

    engines = ["scan", "numpy"]
    engines += [] if args.no_duckdb else ["duckdb"]
    engines += [] if args.no_polars else ["polars"]
    print(f"f32 [16, 16]: {rows['f32']} rows; u8 [28, 28]: {rows['u8']} rows; {os.cpu_count()} cores")
    print("| query | datafusion-tensor | " + " | ".join(engines) + " |")
    print("|" + " --- |" * (2 + len(engines)))
    scans = {}
    for name, (key, sql, *_rest) in QUERIES.items():
        if args.only and args.only not in name:
            continue
        path, n = paths[key], rows[key]
        ours, ours_peak = cli_case(binary, path, f"count({sql})", args.repeat, n)
        cells = [f"{ours:.3f} s ({ours_peak:.0f} MiB)"]
        for engine in engines:
            if engine == "scan":
                cols = columns(name)
                if (key, len(cols)) not in scans:
                    scan_sql = ", ".join(f"count({c})" for c in cols)
                    scans[key, len(cols)] = cli_case(binary, path, scan_sql, args.repeat, n)
                result = scans[key, len(cols)]
            else:
                result = py_case(engine, path, name, args.repeat)
            if result is None:
                cells.append("n/a")
            else:
                t, peak = result
                cells.append(f"{t:.3f} s = {t / ours:.2f}x ({peak:.0f} MiB)")
        print(f"| {name} | " + " | ".join(cells) + " |", flush=True)
    print()
    print("Ratios are the engine's time over datafusion-tensor's (above 1: the project is faster);")
    print("`scan` is the same CLI counting the query's columns without computing anything.")


if __name__ == "__main__":
    main()
