#!/usr/bin/env python3
"""The norms read from singular values (`tensor_norm(x, 'nuc' | 2 | -2)`) side by side with
numpy's `np.linalg.norm(x, ord, axis=(-2, -1))` on the same rows, read included, in one run.

    python3 benches/compare/svd_norms.py [--repeat 3] [--bin PATH]

Writes with pyarrow under target/compare/ (float64 FixedShapeTensor columns `x`, uniform in
[-1, 1), fixed seeds):
- svd_1000.parquet: one 1000 x 1000 matrix (the slow case: 34 s before `faer`);
- svd_8x8.parquet: 100,000 rows of 8 x 8 matrices.

The CLI runs `SELECT sum(tensor_norm(x, ord)) FROM file` repeated in one process, the best of
its "Elapsed" lines; numpy reads the file with pyarrow (`to_numpy_ndarray`), then calls
`np.linalg.norm` on the stacked matrices (its batched LAPACK `gesdd`), best of --repeat. The
sums of both are printed, to be compared.
"""

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare import ROOT, cli_binary, cli_sum, numpy_sum  # noqa: E402

import numpy as np  # noqa: E402
import pyarrow as pa  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

FILES = {"svd_1000": (1, 1000), "svd_8x8": (100_000, 8)}
ORDS = [("'nuc'", "nuc"), ("2", 2), ("-2", -2)]


def generate(path, rows, n):
    if path.exists():
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    x = np.random.default_rng(n).uniform(-1, 1, (rows, n, n))
    pq.write_table(pa.table({"x": pa.FixedShapeTensorArray.from_numpy_ndarray(x)}), path)


def cli(binary, path, sql_ord, repeat):
    return cli_sum(binary, f"SELECT sum(tensor_norm(x, {sql_ord})) FROM '{path}'", repeat)


def numpy_norm(path, ord_, repeat):
    return numpy_sum(path, ["x"], lambda c: np.linalg.norm(c["x"], ord_, axis=(-2, -1)), repeat)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--bin")
    args = parser.parse_args()
    binary = cli_binary(args.bin)
    print("| file | ord | this CLI (s) | numpy (s) | ratio | sum, CLI | sum, numpy |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for name, (rows, n) in FILES.items():
        path = ROOT / "target" / "compare" / f"{name}.parquet"
        generate(path, rows, n)
        for sql_ord, np_ord in ORDS:
            ours, our_sum = cli(binary, path, sql_ord, args.repeat)
            theirs, their_sum = numpy_norm(path, np_ord, args.repeat)
            print(
                f"| {rows} x [{n}, {n}] | {sql_ord} | {ours:.3f} | {theirs:.3f} | "
                f"{ours / theirs:.2f} | {our_sum:.12g} | {their_sum:.12g} |"
            )


if __name__ == "__main__":
    main()
