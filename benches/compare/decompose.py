#!/usr/bin/env python3
"""numpy.linalg's per-matrix functions (`tensor_inv`, `_det`, `_solve`, `_cholesky`, `_eigh`,
`_svd`, `_svdvals`, `_qr`) side by side with numpy on the same rows, read included, in one
run.

    python3 benches/compare/decompose.py [--repeat 3] [--bin PATH] [--rows 100000]

Writes with pyarrow under target/compare/ (fixed seeds): decompose_<dtype>.parquet, --rows
rows of 8 x 8 matrices `x` (uniform in [-1, 1) plus 4 on the diagonal: well conditioned),
`h` (x x^T: symmetric positive definite) and vectors `b` of 8, as float32 and float64.

The CLI runs `SELECT sum(tensor_sum(f(...))) FROM file` (`sum(tensor_det(x))`) repeated in one process, the best of
its "Elapsed" lines; numpy reads the file with pyarrow (`to_numpy_ndarray`) and calls the
batched `np.linalg` function on the stacked matrices, best of --repeat. The sums are printed
beside each other (the decompositions' signs differ, so `svd` and `qr` sum S and |R|).
"""

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare import ROOT, cli_binary, cli_sum, numpy_sum  # noqa: E402

import numpy as np  # noqa: E402
import pyarrow as pa  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

N = 8
la = np.linalg
# name: (SQL of one row's number, summed over the rows; numpy of the stacked columns, summed)
CASES = {
    "inv": ("tensor_sum(tensor_inv(x))", lambda c: la.inv(c["x"])),
    "det": ("tensor_det(x)", lambda c: la.det(c["x"])),
    "solve": ("tensor_sum(tensor_solve(x, b))", lambda c: la.solve(c["x"], c["b"][..., None])),
    "cholesky": ("tensor_sum(tensor_cholesky(h))", lambda c: la.cholesky(c["h"])),
    "eigvalsh": ("tensor_sum(tensor_eigvalsh(h))", lambda c: la.eigvalsh(c["h"])),
    "eigh": ("tensor_sum(tensor_eigh(h)['eigenvalues'])", lambda c: la.eigh(c["h"])[0]),
    "svdvals": ("tensor_sum(tensor_svdvals(x))", lambda c: la.svd(c["x"], compute_uv=False)),
    "svd": ("tensor_sum(tensor_svd(x)['S'])", lambda c: la.svd(c["x"])[1]),
    "qr": ("tensor_sum(tensor_abs(tensor_qr(x)['R']))", lambda c: np.abs(la.qr(c["x"])[1])),
}


def generate(path, rows, dtype):
    if path.exists():
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(8)
    x = rng.uniform(-1, 1, (rows, N, N)) + 4 * np.eye(N)
    h = x @ np.swapaxes(x, -1, -2)
    b = rng.uniform(-1, 1, (rows, N))
    columns = {
        "x": pa.FixedShapeTensorArray.from_numpy_ndarray(x.astype(dtype)),
        "h": pa.FixedShapeTensorArray.from_numpy_ndarray(h.astype(dtype)),
        "b": pa.FixedShapeTensorArray.from_numpy_ndarray(b.astype(dtype)),
    }
    pq.write_table(pa.table(columns), path)


def cli(binary, path, sql, repeat):
    return cli_sum(binary, f"SELECT sum({sql}) FROM '{path}'", repeat)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--bin")
    args = parser.parse_args()
    binary = cli_binary(args.bin)
    print("| rows | function | this CLI (s) | numpy (s) | ratio | sum, CLI | sum, numpy |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for dtype in ("float32", "float64"):
        path = ROOT / "target" / "compare" / f"decompose_{dtype}_{args.rows}.parquet"
        generate(path, args.rows, dtype)
        for name, (sql, f) in CASES.items():
            ours, our_sum = cli(binary, path, sql, args.repeat)
            theirs, their_sum = numpy_sum(path, ["x", "h", "b"], f, args.repeat)
            print(
                f"| {args.rows} x {dtype} [{N}, {N}] | {name} | {ours:.3f} | {theirs:.3f} | "
                f"{ours / theirs:.2f} | {our_sum:.10g} | {their_sum:.10g} |"
            )


if __name__ == "__main__":
    main()
