#!/usr/bin/env python3
"""The Python package built two ways, side by side: the release wheel against a
`dev`-profile build (`MATURIN_PEP517_ARGS="--profile dev"`: DataFusion at opt-level 1),
on a tensor query and on plain DataFusion work (GROUP BY, join, sort) over 10M rows.

    python3 benches/compare/python_wheel.py --wheel-python VENV_A/bin/python \\
        --dev-python VENV_B/bin/python [--rows 10000000] [--repeat 3] [--rounds 1]
    python3 benches/compare/python_wheel.py --build release=VENV_A/bin/python \\
        --build dist=VENV_C/bin/python ...

Each interpreter has one build of the package installed; the first build is the baseline of
the ratios. With --rounds N the builds take turns N times and each figure is the best of all.
Writes (pyarrow, snappy) into target/compare/: wheel_facts_<rows>.parquet (k: int64 in [0, 100000), g: int64 in [0, 1000),
v: float64) and wheel_dims.parquet (k, w: 100,000 rows); the tensor queries read
math_f32_1000000.parquet (benches/compare/tensor_math.py writes it) and linalg_mm4_1000000.parquet
(benches/compare/linalg.py --only matmul4). Each query runs in its own
process per build: `ctx.sql(q).collect()`, best of --repeat after one warm-up run.
"""

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "target" / "compare"

QUERIES = {
    "tensor: count(x * 2.0 + y), 1M float32 [16, 16]":
        "SELECT count(x * 2.0 + y) FROM '{tensors}'",
    "tensor: tensor_mean(x, axis => 0), 1M float32 [16, 16]":
        "SELECT count(tensor_mean(x, axis => 0)) FROM '{tensors}'",
    "tensor: count(x > 0.5), 1M float32 [16, 16]":
        "SELECT count(x > 0.5) FROM '{tensors}'",
    "tensor: tensor_get(x, '1:3, ::2'), 1M float32 [16, 16]":
        "SELECT count(tensor_get(x, '1:3, ::2')) FROM '{tensors}'",
    "tensor: tensor_matmul(a, b), 1M float32 [4, 4]":
        "SELECT count(tensor_matmul(a, b)) FROM '{matmul}'",
    "scan: sum(v), 10M float64":
        "SELECT sum(v) FROM '{facts}'",
    "GROUP BY g (1,000 groups): count, sum, avg":
        "SELECT g, count(*), sum(v), avg(v) FROM '{facts}' GROUP BY g",
    "join on k (100,000 keys): sum(v * w)":
        "SELECT sum(f.v * d.w) FROM '{facts}' f JOIN '{dims}' d ON f.k = d.k",
    "sort by v: row_number() OVER (ORDER BY v)":
        "SELECT max(r) FROM (SELECT row_number() OVER (ORDER BY v) AS r FROM '{facts}')",
}

CHILD = r"""
import json, sys, time
import datafusion_tensor as dt
query, repeat = sys.argv[1], int(sys.argv[2])
ctx = dt.SessionContext()
ctx.sql(query).collect()
best = min((lambda t0: (ctx.sql(query).collect(), time.perf_counter() - t0)[1])(time.perf_counter())
           for _ in range(repeat))
print(json.dumps(best))
"""


def generate(rows):
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    OUT.mkdir(parents=True, exist_ok=True)
    facts = OUT / f"wheel_facts_{rows}.parquet"
    dims = OUT / "wheel_dims.parquet"
    rng = np.random.default_rng(31)
    if not facts.exists():
        pq.write_table(pa.table({"k": rng.integers(0, 100_000, rows),
                                 "g": rng.integers(0, 1000, rows),
                                 "v": rng.random(rows)}), facts, row_group_size=1 << 20)
    if not dims.exists():
        pq.write_table(pa.table({"k": np.arange(100_000), "w": rng.random(100_000)}), dims)
    tensors = OUT / "math_f32_1000000.parquet"
    if not tensors.exists():
        sys.exit(f"{tensors} is missing: run benches/compare/tensor_math.py first")
    matmul = OUT / "linalg_mm4_1000000.parquet"
    if not matmul.exists():
        sys.exit(f"{matmul} is missing: run benches/compare/linalg.py --only matmul4 first")
    return {"facts": facts, "dims": dims, "tensors": tensors, "matmul": matmul}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", action="append", default=[], metavar="LABEL=PYTHON",
                        help="a build of the package and the interpreter it is installed in; "
                             "the first is the baseline of the ratios (repeat the flag)")
    parser.add_argument("--wheel-python", help="shorthand for --build 'release wheel=PYTHON'")
    parser.add_argument("--dev-python", help="shorthand for --build 'dev build=PYTHON'")
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=1,
                        help="run every build this many times, alternating; best of all")
    args = parser.parse_args()
    builds = [tuple(b.split("=", 1)) for b in args.build]
    if args.wheel_python:
        builds.append(("release wheel", args.wheel_python))
    if args.dev_python:
        builds.append(("dev build", args.dev_python))
    if len(builds) < 2:
        parser.error("give two builds or more (--build LABEL=PYTHON)")
    files = generate(args.rows)
    labels = [label for label, _ in builds]
    ratios = [f"{label} / {labels[0]}" for label in labels[1:]]
    print("| query | " + " | ".join(labels + ratios) + " |")
    print("| --- " * (1 + len(labels) + len(ratios)) + "|")
    for name, sql in QUERIES.items():
        query = sql.format(**{k: str(v) for k, v in files.items()})
        times = [float("inf")] * len(builds)
        for _ in range(args.rounds):
            for i, (_, python) in enumerate(builds):
                out = subprocess.run([python, "-c", CHILD, query, str(args.repeat)],
                                     capture_output=True, text=True, check=True)
                times[i] = min(times[i], json.loads(out.stdout.strip().splitlines()[-1]))
        cells = [f"{t:.3f} s" for t in times] + [f"{t / times[0]:.2f}x" for t in times[1:]]
        print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
