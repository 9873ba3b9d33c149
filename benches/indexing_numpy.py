#!/usr/bin/env python3
"""tensor_get against numpy on the same data, in the same run.

    python3 benches/indexing_numpy.py [--profile dev|release]

1,000,000 rows of 4x4 float32 (the data of benches/indexing.rs). Times numpy's
x[:, 1:3, ::2].copy() and x[:, 1:3].copy() (best of 5), runs the criterion bench (which also
times a plain memcpy of the output bytes, a read of every input byte and a plain hand loop,
each over the whole input and on one cache-resident 8192-row batch), and prints the ratios the
issue asks for.
"""

import argparse

import numpy as np
from bench_common import best_of, criterion_times, hash_

ROWS = 1_000_000


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--profile", default="dev")
    args = parser.parse_args()
    i = np.arange(ROWS * 16, dtype=np.uint64)
    h = hash_(i)
    x = ((h % np.uint64(1000)).astype(np.float32) / 8).reshape(ROWS, 4, 4)
    numpy_strided = best_of(lambda: x[:, 1:3, ::2].copy())
    numpy_contiguous = best_of(lambda: x[:, 1:3].copy())

    t = criterion_times("indexing", args.profile)
    strided = t[f"indexing/4x4_f32_strided_1:3,::2_batches_8192/{ROWS}"]
    contiguous = t[f"indexing/4x4_f32_contiguous_1:3_batches_8192/{ROWS}"]
    memcpy = t[f"indexing/memcpy_of_output_contiguous_1:3/{ROWS}"]
    read = t[f"indexing/read_of_input/{ROWS}"]
    hand = t[f"indexing/hand_loop_contiguous_1:3/{ROWS}"]
    print(f"tensor_get, {ROWS:,} rows of 4x4 float32, single thread, 8192-row batches; numpy {np.__version__}; profile {args.profile}")
    print(f"'1:3, ::2'  tensor_get {strided:.4f} s   numpy x[:, 1:3, ::2].copy() {numpy_strided:.4f} s   ratio {strided / numpy_strided:.2f}x numpy")
    print(f"'1:3'       tensor_get {contiguous:.4f} s   memcpy of the output bytes {memcpy:.4f} s   ratio {contiguous / memcpy:.2f}x memcpy"
          f"   (numpy x[:, 1:3].copy() {numpy_contiguous:.4f} s)")
    print(f"            reading every input byte once (the floor for a kernel that touches every input cache line) {read:.4f} s"
          f"   ratio {contiguous / read:.2f}x that read; the read alone is {read / memcpy:.2f}x the memcpy")
    print(f"            the plainest hand loop (row[4..12] of every 16-element row appended to a Vec) {hand:.4f} s"
          f"   ratio {contiguous / hand:.2f}x that loop; the loop is {hand / memcpy:.2f}x the memcpy")


    batch = 8192
    hot = lambda key: t[f"indexing/{key}/{batch}"]
    hot_strided = hot("4x4_f32_strided_1:3,::2_one_hot_batch")
    hot_contiguous = hot("4x4_f32_contiguous_1:3_one_hot_batch")
    hot_memcpy_strided = hot("memcpy_of_output_strided_1:3,::2_one_hot_batch")
    hot_memcpy = hot("memcpy_of_output_contiguous_1:3_one_hot_batch")
    hot_read = hot("read_of_input_one_hot_batch")
    print(f"one cache-resident {batch}-row batch (as in a query, where the scan has just decoded it):")
    print(f"'1:3, ::2'  tensor_get {hot_strided * 1e6:.2f} us   memcpy of the output bytes {hot_memcpy_strided * 1e6:.2f} us"
          f"   ratio {hot_strided / hot_memcpy_strided:.2f}x memcpy")
    print(f"'1:3'       tensor_get {hot_contiguous * 1e6:.2f} us   memcpy of the output bytes {hot_memcpy * 1e6:.2f} us"
          f"   ratio {hot_contiguous / hot_memcpy:.2f}x memcpy")
    print(f"            reading every input byte once {hot_read * 1e6:.2f} us   ratio {hot_contiguous / hot_read:.2f}x that read;"
          f" the read alone is {hot_read / hot_memcpy:.2f}x the memcpy")


if __name__ == "__main__":
    main()
