#!/usr/bin/env python3
"""Sorting, top-k, sets, searching and counting per row side by side with numpy on the same
rows, read included, in one run.

    python3 benches/compare/search.py [--rows 100000] [--dim 64] [--repeat 3] [--bin PATH]

Writes with pyarrow under target/compare/ (fixed seeds): search_<rows>x<dim>.parquet, a float32
[dim] FixedShapeTensor column `x` (standard normal) and an int32 [dim] column `i` (integers in
[0, 16), so that rows repeat values).

Each CLI figure is the best of the CLI's own "Elapsed" lines over --repeat runs of
`SELECT sum(...) FROM file` in one process; numpy's reads the file with pyarrow
(`to_numpy_ndarray`) and computes the same per row in its batched form, best wall time of
--repeat. numpy has no batched `unique` or `bincount`: the numpy side of those is the batched
equivalent of the count (sort, then count the changes; one `bincount` of offset values). Both
sums are printed, to be compared.
"""

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare import ROOT, cli_binary, cli_sum, numpy_sum  # noqa: E402

import numpy as np  # noqa: E402
import pyarrow as pa  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402


def generate(path, rows, dim):
    if path.exists():
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(45)
    x = rng.standard_normal((rows, dim)).astype(np.float32)
    i = rng.integers(0, 16, (rows, dim)).astype(np.int32)
    table = pa.table({"x": pa.FixedShapeTensorArray.from_numpy_ndarray(x),
                      "i": pa.FixedShapeTensorArray.from_numpy_ndarray(i)})
    pq.write_table(table, path, row_group_size=25_000)


def top8(c):
    x = c["x"]
    part = np.take_along_axis(x, np.argpartition(-x, 7, axis=-1)[:, :8], axis=-1)
    return -np.sort(-part, axis=-1).astype(np.float64)


def unique_count(c):
    s = np.sort(c["i"], axis=-1)
    return (np.diff(s, axis=-1) != 0).sum(axis=-1) + 1


def bincount_max(c):
    i = c["i"].astype(np.int64)
    offsets = np.arange(i.shape[0])[:, None] * 16
    return np.bincount((i + offsets).ravel(), minlength=i.shape[0] * 16).reshape(-1, 16).max(-1)


SORTED = ", ".join(f"{v:.2f}" for v in np.linspace(-2, 2, 33))


def searchsorted(c):
    return np.searchsorted(np.linspace(-2, 2, 33).round(2), c["x"].astype(np.float64))


CASES = [
    ("sort", "tensor_sum(tensor_sort(x))", ["x"],
     lambda c: np.sort(c["x"], axis=-1).astype(np.float64)),
    ("argsort", "tensor_sum(tensor_argsort(x))", ["x"],
     lambda c: np.argsort(c["x"], axis=-1, kind="stable")),
    ("topk 8", "tensor_sum(tensor_topk(x, 8)['values'])", ["x"], top8),
    ("unique_values (count)", "tensor_size(tensor_unique_values(i))", ["i"], unique_count),
    ("bincount (max)", "tensor_max(tensor_bincount(i))", ["i"], bincount_max),
    ("searchsorted (33 edges)", f"tensor_sum(tensor_searchsorted([{SORTED}], x))", ["x"],
     searchsorted),
    ("nonzero (count)", "tensor_size(tensor_nonzero(i))", ["i"],
     lambda c: np.count_nonzero(c["i"], axis=-1)),
]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--dim", type=int, default=64)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--bin")
    args = parser.parse_args()
    binary = cli_binary(args.bin)
    path = ROOT / "target" / "compare" / f"search_{args.rows}x{args.dim}.parquet"
    generate(path, args.rows, args.dim)
    print(f"{args.rows} rows of [{args.dim}]")
    print("| function | this CLI (s) | numpy (s) | ratio | sum, CLI | sum, numpy |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, sql, columns, f in CASES:
        ours, our_sum = cli_sum(binary, f"SELECT sum({sql}) FROM '{path}'", args.repeat)
        theirs, their_sum = numpy_sum(path, columns, f, args.repeat)
        print(f"| {name} | {ours:.3f} | {theirs:.3f} | {ours / theirs:.2f} | "
              f"{our_sum:.10g} | {their_sum:.10g} |")


if __name__ == "__main__":
    main()
