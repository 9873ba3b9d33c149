#!/usr/bin/env python3
"""tensor_get against numpy on the same data, in the same run.

    python3 benches/indexing_numpy.py [--profile dev|release]

1,000,000 rows of 4x4 float32 (the data of benches/indexing.rs). Times numpy's
x[:, 1:3, ::2].copy() and x[:, 1:3].copy() (best of 5), runs the criterion bench (which also
times a plain memcpy of the output bytes), and prints the ratios the issue asks for.
"""

import argparse
import re
import subprocess
import time

import numpy as np

ROWS = 1_000_000


def best_of(f, repeat=5):
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - start)
    return best


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--profile", default="dev")
    args = parser.parse_args()
    i = np.arange(ROWS * 16, dtype=np.uint64)
    h = ((i * np.uint64(2_654_435_761)) & np.uint64(0xFFFF_FFFF)) >> np.uint64(7)
    x = ((h % np.uint64(1000)).astype(np.float32) / 8).reshape(ROWS, 4, 4)
    numpy_strided = best_of(lambda: x[:, 1:3, ::2].copy())
    numpy_contiguous = best_of(lambda: x[:, 1:3].copy())

    command = ["cargo", "bench", "--bench", "indexing"]
    if args.profile != "release":
        command += ["--profile", args.profile]
    out = subprocess.run(command + ["--", "--output-format", "bencher"], check=True, capture_output=True, text=True).stdout
    t = {name: int(ns.replace(",", "")) / 1e9 for name, ns in re.findall(r"test (\S+) \.\.\. bench:\s+([\d,]+) ns/iter", out)}
    strided = t[f"indexing/4x4_f32_strided_1:3,::2_batches_8192/{ROWS}"]
    contiguous = t[f"indexing/4x4_f32_contiguous_1:3_batches_8192/{ROWS}"]
    memcpy = t[f"indexing/memcpy_of_output_contiguous_1:3/{ROWS}"]
    print(f"tensor_get, {ROWS:,} rows of 4x4 float32, single thread, 8192-row batches; numpy {np.__version__}; profile {args.profile}")
    print(f"'1:3, ::2'  tensor_get {strided:.4f} s   numpy x[:, 1:3, ::2].copy() {numpy_strided:.4f} s   ratio {strided / numpy_strided:.2f}x numpy")
    print(f"'1:3'       tensor_get {contiguous:.4f} s   memcpy of the output bytes {memcpy:.4f} s   ratio {contiguous / memcpy:.2f}x memcpy"
          f"   (numpy x[:, 1:3].copy() {numpy_contiguous:.4f} s)")


if __name__ == "__main__":
    main()
