#!/usr/bin/env python3
"""Variable-shape tensors end to end: a crop and a flip of ~100,000 images of mixed sizes,
this project's CLI against pyarrow + numpy looping over the rows.

    python3 benches/compare/varshape.py [--rows 100000] [--repeat 3] [--bin PATH]

Writes target/compare/varshape_<rows>.parquet with pyarrow: one arrow.variable_shape_tensor
column `img` of uint8 images 3 x H x W, H and W drawn in 16..64 (seeded), uniform_shape
[3, null, null], dim_names C, H, W (Arrow C++'s registered type, as
tests/data/make_varshape_fixtures.py makes it). Then times, best of --repeat, each in its own
process:

- the CLI: `SELECT count(tensor_get(img, INDEX)) FROM file` (the query repeated in one
  process, the best of its own "Elapsed" lines; count() so that printing does not count),
  and the plain scan `count(img)`;
- pyarrow + numpy: read the column, then per row a numpy view of its values reshaped to its
  shape, indexed and copied (np.ascontiguousarray: this project's results are copies too);
  and the read alone.

Queries: crop '..., :16, :16' (every image here is at least 16 x 16, so every row gives
3 x 16 x 16; the type, which knows only the channel dim, makes it a variable-shape result)
and flip ':, :, ::-1' (a variable-shape result).
"""

import argparse
import os
import re
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benches" / "compare"))
sys.path.insert(0, str(ROOT / "tests" / "data"))

QUERIES = {
    "crop '..., :16, :16'": "..., :16, :16",
    "flip ':, :, ::-1'": ":, :, ::-1",
}


def generate(path, rows):
    import pyarrow as pa
    import pyarrow.parquet as pq
    from make_varshape_fixtures import registered_type

    if path.exists():
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(0)
    heights = rng.integers(16, 65, rows)
    widths = rng.integers(16, 65, rows)
    sizes = 3 * heights * widths
    values = rng.integers(0, 256, int(sizes.sum()), dtype=np.uint8)
    offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int32)
    tensor_type = registered_type(
        pa.uint8(), 3, {"dim_names": ["C", "H", "W"], "uniform_shape": [3, None, None]}
    )
    data = pa.ListArray.from_arrays(pa.array(offsets), pa.array(values))
    shapes = np.stack([np.full(rows, 3), heights, widths], axis=1).astype(np.int32).reshape(-1)
    shape = pa.FixedSizeListArray.from_arrays(pa.array(shapes), 3)
    storage = pa.StructArray.from_arrays([data, shape], fields=list(tensor_type.storage_type))
    column = pa.ExtensionArray.from_storage(tensor_type, storage)
    pq.write_table(pa.table({"img": column}), path)


def child(path, name, repeat):
    import pyarrow.parquet as pq

    index = QUERIES.get(name)
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        storage = pq.read_table(path, columns=["img"]).column("img").combine_chunks().storage
        if index is not None:
            data = storage.field("data")
            offsets = data.offsets.to_numpy()
            values = data.values.to_numpy()
            shapes = storage.field("shape").values.to_numpy().reshape(-1, 3)
            key = eval(f"np.s_[{index}]", {"np": np})  # noqa: S307 (the fixed strings above)
            out = [
                np.ascontiguousarray(values[offsets[i] : offsets[i + 1]].reshape(shapes[i])[key])
                for i in range(len(storage))
            ]
            assert len(out) == len(storage)
        best = min(best, time.perf_counter() - start)
    print(f"TIME {best}")


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(sys.argv[2], sys.argv[3], int(sys.argv[4]))
        return
    from compare import cli_binary, cli_case, timed

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--bin", help="the CLI binary (default: cargo build's)")
    args = parser.parse_args()

    binary = cli_binary(args.bin)
    path = ROOT / "target" / "compare" / f"varshape_{args.rows}.parquet"
    generate(path, args.rows)

    def python(name):
        out, peak = timed([sys.executable, __file__, "--child", str(path), name, str(args.repeat)])
        return float(re.search(r"TIME ([\d.e-]+)", out)[1]), peak

    print(f"{args.rows} images 3 x (16..64) x (16..64) uint8, {os.cpu_count()} cores, best of {args.repeat}:")
    print("| query | CLI s | CLI scan s | pyarrow+numpy s | pyarrow read s |")
    print("| --- | --- | --- | --- | --- |")
    cli_scan = cli_case(binary, path, "count(img)", args.repeat, args.rows)[0]
    py_read = python("scan")[0]
    for name, index in QUERIES.items():
        cli = cli_case(binary, path, f"count(tensor_get(img, '{index}'))", args.repeat, args.rows)[0]
        py = python(name)[0]
        print(f"| {name} | {cli:.3f} | {cli_scan:.3f} | {py:.3f} | {py_read:.3f} |")


if __name__ == "__main__":
    main()
