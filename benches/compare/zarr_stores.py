#!/usr/bin/env python3
"""Zarr arrays read where they are: `read_zarr` against zarr-python reading the same rows, side
by side in one run.

    python3 benches/compare/zarr_stores.py [--rows 200000] [--dim 256] [--chunk 1000] [--repeat 3] [--bin PATH]

Writes with zarr target/compare/zarr_<rows>x<dim>_<codec>.zarr (Zarr v3, float32, chunks of
--chunk rows; zstd, zarr's default, and uncompressed; page-cached after the first read). Each
side runs in its own process, best of --repeat (the CLI: the query repeated in one process, its
best "Elapsed"):
- the whole array: `sum(tensor_sum(x))` / `z[:].sum(dtype=float64)`;
- 10 rows at the middle: `WHERE row_index BETWEEN m AND m + 9` / `z[m:m + 10].sum()`;
- the first 10 rows: `LIMIT 10` / `z[:10].sum()`.
"""

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare import ROOT, best_of, child_time, cli_binary, cli_sum  # noqa: E402


def generate(rows, dim, chunk):
    import numpy as np
    import zarr

    out = ROOT / "target" / "compare"
    out.mkdir(parents=True, exist_ok=True)
    paths = {}
    rng = np.random.default_rng(47)
    data = None
    for codec in ("zstd", "raw"):
        path = out / f"zarr_{rows}x{dim}_{chunk}_{codec}.zarr"
        paths[codec] = path
        if path.exists():
            continue
        if data is None:
            data = rng.random((rows, dim), dtype=np.float32)
        kwargs = {} if codec == "zstd" else {"compressors": None}
        z = zarr.create_array(store=str(path), shape=data.shape, dtype=data.dtype,
                              chunks=(chunk, dim), **kwargs)
        z[...] = data
    return paths


def child(kind, path, rows, repeat):
    import numpy as np
    import zarr

    rows, repeat = int(rows), int(repeat)
    z = zarr.open_array(path, mode="r")
    if kind == "all":
        best_of(repeat, lambda: z[:].sum(dtype=np.float64))
    elif kind == "middle":
        m = rows // 2
        best_of(repeat, lambda: z[m:m + 10].sum(dtype=np.float64))
    elif kind == "first":
        best_of(repeat, lambda: z[:10].sum(dtype=np.float64))


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(*sys.argv[2:])
        return
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--dim", type=int, default=256)
    parser.add_argument("--chunk", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--bin")
    args = parser.parse_args()
    binary = cli_binary(args.bin)
    paths = generate(args.rows, args.dim, args.chunk)
    m = args.rows // 2
    mib = args.rows * args.dim * 4 / 2**20
    print(f"{args.rows} x {args.dim} float32 ({mib:.0f} MiB), chunks of {args.chunk} rows; "
          f"best of {args.repeat}")
    print("| case | codec | this CLI | zarr-python |")
    print("| --- | --- | --- | --- |")
    for codec, path in paths.items():
        cases = [
            ("whole array, sum", f"SELECT sum(tensor_sum(x)) FROM read_zarr('{path}')", "all"),
            ("10 rows at the middle",
             f"SELECT sum(tensor_sum(x)) FROM read_zarr('{path}') WHERE row_index BETWEEN {m} AND {m + 9}",
             "middle"),
            ("the first 10 rows",
             f"SELECT sum(tensor_sum(x)) FROM (SELECT x FROM read_zarr('{path}') LIMIT 10)", "first"),
        ]
        for title, sql, kind in cases:
            cli, _ = cli_sum(binary, sql, args.repeat)
            peer, _ = child_time(__file__, kind, path, args.rows, args.repeat)
            print(f"| {title} | {codec} | {cli:.4f} s | {peer:.4f} s |")


if __name__ == "__main__":
    main()
