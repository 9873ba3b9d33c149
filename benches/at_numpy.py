#!/usr/bin/env python3
"""tensor_at_add / tensor_at_set against numpy's ufunc.at and JAX's x.at[...] on the same data,
in the same run.

    python3 benches/at_numpy.py [--profile dev|release] [--no-cargo]

1,000,000 rows of 4x4 float32 (the data of benches/at.rs). Times (best of 5, single numpy
thread) np.add.at(x2, (slice(None), [0, 0, 1]), 1.0) on a fresh copy x2 of x each time (the copy
is made outside the timed region and timed on its own), the numpy assignment
x2[:, [0, 0, 1]] = 1.0 likewise, and, where jax is installed, the jitted
x.at[:, [0, 0, 1]].add(1.0) / .set(1.0) on XLA's CPU backend (warmed up once, timed to
block_until_ready; the output is a new array, as tensor_at_* returns). Then runs the criterion
bench `at` (unless --no-cargo, or where cargo fails) and prints the ratios numpy / tensor_at_add
and jax / tensor_at_add.
"""

import argparse
import subprocess
import time

import numpy as np
from bench_common import best_of, criterion_times, hash_

ROWS = 1_000_000
INDEX = [0, 0, 1]


def data():
    i = np.arange(ROWS * 16, dtype=np.uint64)
    h = hash_(i)
    return ((h % np.uint64(1000)).astype(np.float32) / 8).reshape(ROWS, 4, 4)


def best_of_on_copy(x, f, repeat=5):
    """Best wall time of f(x2) over fresh copies x2 of x, the copy not timed."""
    best = float("inf")
    for _ in range(repeat):
        x2 = x.copy()
        start = time.perf_counter()
        f(x2)
        best = min(best, time.perf_counter() - start)
    return best


def numpy_times(x):
    def add_at(x2):
        np.add.at(x2, (slice(None), INDEX), 1.0)

    def assign(x2):
        x2[:, INDEX] = 1.0

    # The result the functions compute: rows 0 (twice) and 1 of every 4x4 tensor.
    check = x[:3].copy()
    add_at(check)
    expected = x[:3].copy()
    expected[:, 0] += 2.0
    expected[:, 1] += 1.0
    assert np.array_equal(check, expected)
    return {
        "copy": best_of(lambda: x.copy()),
        "add": best_of_on_copy(x, add_at),
        "set": best_of_on_copy(x, assign),
    }


def jax_times(x):
    try:
        import jax
        import jax.numpy as jnp
    except ImportError:
        return None, None
    cpu = jax.devices("cpu")[0]
    xj = jax.device_put(jnp.asarray(x), cpu)
    idx = np.array(INDEX)
    add = jax.jit(lambda v: v.at[:, idx].add(1.0))
    assign = jax.jit(lambda v: v.at[:, idx].set(1.0))
    out = {}
    for name, f in [("add", add), ("set", assign)]:
        f(xj).block_until_ready()  # compile and warm up
        out[name] = best_of(lambda: f(xj).block_until_ready())
    check = np.asarray(add(xj[:3]))
    expected = x[:3].copy()
    expected[:, 0] += 2.0
    expected[:, 1] += 1.0
    assert np.array_equal(check, expected)
    return out, jax.__version__


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--profile", default="dev", help="cargo profile for the bench (dev or release)")
    parser.add_argument("--no-cargo", action="store_true", help="numpy and JAX only")
    args = parser.parse_args()

    x = data()
    numpy = numpy_times(x)
    jax_t, jax_version = jax_times(x)

    rust = {}
    if not args.no_cargo:
        try:
            rust = criterion_times("at", args.profile)
        except (subprocess.CalledProcessError, FileNotFoundError) as e:
            print(f"(criterion bench `at` not run: {e})")
    ours = {op: rust.get(f"at/4x4_f32_{op}_[0,0,1]_1.0_batches_8192/{ROWS}") for op in ("add", "set")}

    print(f"x.at[:, [0, 0, 1]], {ROWS:,} rows of 4x4 float32, 8192-row batches; numpy {np.__version__}"
          + (f", jax {jax_version} (CPU, jit)" if jax_version else ", jax not installed")
          + f"; cargo profile {args.profile}; best of 5")
    print(f"numpy x.copy() alone {numpy['copy']:.4f} s (not in the numpy times below)")
    numpy_expr = {"add": "np.add.at(x2, (slice(None), [0, 0, 1]), 1.0)", "set": "x2[:, [0, 0, 1]] = 1.0"}
    for op in ("add", "set"):
        t = ours[op]
        cells = [f"{op}: tensor_at_{op} " + (f"{t:.4f} s" if t else "n/a")]
        cells.append(f"numpy {numpy_expr[op]} {numpy[op]:.4f} s" + (f" (ratio numpy/ours {numpy[op] / t:.2f})" if t else ""))
        if jax_t:
            cells.append(f"jax x.at[:, [0, 0, 1]].{op}(1.0) {jax_t[op]:.4f} s" + (f" (ratio jax/ours {jax_t[op] / t:.2f})" if t else ""))
        print("   ".join(cells))
    others = sorted(k for k in rust if k.startswith("at/") and k not in
                    {f"at/4x4_f32_{op}_[0,0,1]_1.0_batches_8192/{ROWS}" for op in ("add", "set")})
    for k in others:
        print(f"{k}: {rust[k]:.4f} s")


if __name__ == "__main__":
    main()
