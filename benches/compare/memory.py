#!/usr/bin/env python3
"""Peak memory of the fast Parquet reader against DataFusion's reader, on large row groups.

    python3 benches/compare/memory.py [--repeat 3] [--bin PATH] [--only NAME,...]

Writes with pyarrow under target/compare/:

- f32_16x16_one_group.parquet: 204,800 float32 [16, 16] tensors `x` (random normals, seeded),
  200 MiB of values in ONE row group (pyarrow's defaults otherwise: snappy, dictionary
  encoding abandoned for plain once the dictionary grows);
- varshape_100000.parquet: benches/compare/varshape.py's file (100,000 uint8 images
  3 x (16..64) x (16..64), one 480 MB row group).

Each query runs in CLI processes under /usr/bin/time -v, once through this crate's reader and
once through DataFusion's (`SET
datafusion.tensor.fast_parquet = false` with --set, else the environment variable
DATAFUSION_TENSOR_ARROW_SCAN, which older builds know), each the best of --repeat runs in
one process. A
reader that held a whole decoded row group shows it here: its peak grows with the row group.
"""

import argparse
import re
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benches" / "compare"))
from compare import timed  # noqa: E402
from varshape import generate as generate_varshape  # noqa: E402

F32_ROWS = 204_800

# name -> (file, query)
QUERIES = {
    "f32 [16, 16], 200 MiB row group: sum(tensor_get(x, '3, 4'))": (
        "f32",
        "SELECT sum(tensor_get(x, '3, 4')) FROM '{f}'",
    ),
    "f32 [16, 16], 200 MiB row group: count(x)": ("f32", "SELECT count(x) FROM '{f}'"),
    "varshape 480 MB row group: crop '..., :16, :16'": (
        "varshape",
        "SELECT count(tensor_get(img, '..., :16, :16')) FROM '{f}'",
    ),
    "varshape 480 MB row group: count(img)": ("varshape", "SELECT count(img) FROM '{f}'"),
}

ARROW_READER = "SET datafusion.tensor.fast_parquet = false"


def generate_f32(path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    if path.exists():
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(0)
    values = rng.standard_normal(F32_ROWS * 256, dtype=np.float32)
    tensor_type = pa.fixed_shape_tensor(pa.float32(), [16, 16])
    storage = pa.FixedSizeListArray.from_arrays(pa.array(values), 256)
    column = pa.ExtensionArray.from_storage(tensor_type, storage)
    pq.write_table(pa.table({"x": column}), path, row_group_size=F32_ROWS)
    groups = pq.ParquetFile(path).metadata.num_row_groups
    assert groups == 1, f"{path} has {groups} row groups"


def run(binary, sql, repeat, setup, env=None):
    """(best time of `repeat` runs in one process, peak MiB of one run alone, its result)"""

    def process(times):
        first = ["-c", setup] if setup else []
        command = [binary, "--format", "csv"] + first + ["-c", sql] * times
        if env:
            command = ["env", env] + command
        return timed(command)

    out, _ = process(repeat)
    elapsed = [float(s) for s in re.findall(r"Elapsed ([\d.]+) seconds", out)]
    elapsed = elapsed[1:] if setup else elapsed
    _, peak = process(1)
    results = [line for line in out.splitlines() if re.fullmatch(r"-?[\d.e+-]+", line)]
    return min(elapsed), peak, results[-1] if results else "?"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--bin", default=str(ROOT / "target" / "debug" / "datafusion-tensor"))
    parser.add_argument("--only", default="")
    parser.add_argument("--set", action="store_true", help="turn the reader off with SET")
    args = parser.parse_args()
    files = {
        "f32": ROOT / "target" / "compare" / "f32_16x16_one_group.parquet",
        "varshape": ROOT / "target" / "compare" / "varshape_100000.parquet",
    }
    only = [name for name in args.only.split(",") if name]
    print("| query | this reader | DataFusion's reader |")
    print("| --- | --- | --- |")
    for name, (kind, sql) in QUERIES.items():
        if only and not any(o in name for o in only):
            continue
        path = files[kind]
        if kind == "f32":
            generate_f32(path)
        else:
            generate_varshape(path, 100_000)
        sql = sql.format(f=path)
        fast = run(args.bin, sql, args.repeat, None)
        if args.set:
            arrow = run(args.bin, sql, args.repeat, ARROW_READER)
        else:
            arrow = run(args.bin, sql, args.repeat, None, "DATAFUSION_TENSOR_ARROW_SCAN=1")
        if fast[2] != arrow[2]:
            sys.exit(f"the two readers disagree on {sql}: {fast[2]} against {arrow[2]}")
        print(
            f"| {name} | {fast[0]:.3f} s ({fast[1]:.0f} MiB) "
            f"| {arrow[0]:.3f} s ({arrow[1]:.0f} MiB) |",
            flush=True,
        )


if __name__ == "__main__":
    main()
