#!/usr/bin/env python3
"""tensor_choose against numpy's np.choose, on the same data, in the same run.

    python3 benches/choose_numpy.py [--profile dev|release]

Builds the arrays benches/choose.rs builds (1,000,000 rows of 4x4 float32, three choices, an
int32 index), times np.choose for each mode (best of 5, single-threaded as numpy is), runs the
criterion bench, and prints both with the ratio numpy / tensor_choose.
"""

import argparse

import numpy as np
from bench_common import best_of, criterion_times, hash_

ROWS = 1_000_000


def data():
    i = np.arange(ROWS * 16, dtype=np.uint64)
    h = hash_(i)
    in_range = (h % np.uint64(3)).astype(np.int32).reshape(ROWS, 4, 4)
    wide = ((h % np.uint64(9)).astype(np.int32) - 3).reshape(ROWS, 4, 4)
    choices = [
        ((hash_(i + np.uint64(c)) % np.uint64(1000)).astype(np.float32) / 8).reshape(ROWS, 4, 4)
        for c in range(3)
    ]
    return in_range, wide, choices


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--profile", default="dev", help="cargo profile for the bench (dev or release)")
    args = parser.parse_args()

    in_range, wide, choices = data()
    numpy = {}
    for mode in ["raise", "wrap", "clip"]:
        a = in_range if mode == "raise" else wide
        numpy[mode] = best_of(lambda: np.choose(a, choices, mode=mode))
    rust = criterion_times("choose", args.profile)

    print(f"np.choose vs tensor_choose, {ROWS:,} rows of 4x4 float32, 3 choices, int32 index")
    print(f"numpy {np.__version__}; cargo profile {args.profile}; single thread; best times")
    print(f"{'mode':<6} {'numpy s':>9} {'one batch s':>12} {'ratio':>7} {'8192-row batches s':>19} {'ratio':>7}")
    for mode in ["raise", "wrap", "clip"]:
        whole = rust.get(f"choose/4x4_f32_3_choices_{mode}/{ROWS}")
        batched = rust.get(f"choose/4x4_f32_3_choices_{mode}_batches_8192/{ROWS}")
        cells = [f"{mode:<6}", f"{numpy[mode]:9.4f}"]
        for t in (whole, batched):
            width = 12 if t is whole else 19
            cells.append(f"{t:{width}.4f}" if t else f"{'n/a':>{width}}")
            cells.append(f"{numpy[mode] / t:6.1f}x" if t else f"{'n/a':>7}")
        print(" ".join(cells))


if __name__ == "__main__":
    main()
