#!/usr/bin/env python3
"""Scans of the tensors users keep: uint8 images, float16 embeddings, filters, limits, GROUP BY.

    python3 benches/compare/scan.py [--scale 1.0] [--repeat 5] [--bin PATH] [--no-duckdb]
                                    [--only NAME,...]

Writes three files with pyarrow (FixedShapeTensor columns, pyarrow's defaults: snappy,
dictionary encoding where pyarrow chooses it) under target/compare/:

- images: 500,000 rows of a 28x28 uint8 image `img` (MNIST-like: a blurred blob on zeros) and
  an int32 `label` in [0, 10);
- embeddings: 500,000 rows of a 128-element float16 `emb` and an int64 `id`;
- small: 1,000,000 rows of a 4x4 float32 `x` and an int32 `label` in [0, 10).

Each query runs, best of --repeat, in its own process under /usr/bin/time -v (peak resident
memory), in this project's CLI (the query repeated in one process, the best of its own
"Elapsed" lines), pyarrow + numpy (read, then the numpy expression, in-process wall time) and
DuckDB (its nearest equivalent on the list the column is read as). Every query ends in an
aggregate, so that printing costs nothing. Beside each query, the CLI's plain scan of the same
columns with the same filter and limit (`count(col)`), the reference for "within 1.3x of the
scan".

--scale multiplies every file's rows (peak memory should not follow it).
"""

import argparse
import os
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare import cli_binary, timed  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]

# file -> (rows at scale 1, row group rows)
FILES = {"images": (500_000, 65_536), "embeddings": (500_000, 65_536), "small": (1_000_000, 131_072)}

# name -> (file, our query, our plain scan, DuckDB query, result rows)
# {f} is the file. DuckDB reads a tensor column as the flat list of its row-major elements
# (1-based): the crop is the 24x24 positions of rows and columns 2..25.
CROP_DUCK = "list_transform(range(576), lambda k: img[(k // 24 + 2) * 28 + k % 24 + 3])"
QUERIES = {
    "images: crop '2:26, 2:26'": (
        "images",
        "SELECT count(tensor_get(img, '2:26, 2:26')) FROM {f}",
        "SELECT count(img) FROM {f}",
        f"SELECT sum(len({CROP_DUCK})) FROM {{f}}",
        1,
    ),
    "images: crop WHERE label = 3": (
        "images",
        "SELECT count(tensor_get(img, '2:26, 2:26')) FROM {f} WHERE label = 3",
        "SELECT count(img) FROM {f} WHERE label = 3",
        f"SELECT sum(len({CROP_DUCK})) FROM {{f}} WHERE label = 3",
        1,
    ),
    "images: crop LIMIT 1000": (
        "images",
        "SELECT count(c) FROM (SELECT tensor_get(img, '2:26, 2:26') AS c FROM {f} LIMIT 1000)",
        "SELECT count(c) FROM (SELECT img AS c FROM {f} LIMIT 1000)",
        f"SELECT sum(len(c)) FROM (SELECT {CROP_DUCK} AS c FROM {{f}} LIMIT 1000)",
        1,
    ),
    "images: centre pixel GROUP BY label": (
        "images",
        "SELECT label, sum(tensor_get(img, '14, 14')) FROM {f} GROUP BY label",
        "SELECT label, count(img) FROM {f} GROUP BY label",
        "SELECT label, sum(img[14 * 28 + 15]) FROM {f} GROUP BY label",
        10,
    ),
    "embeddings: ':16'": (
        "embeddings",
        "SELECT count(tensor_get(emb, ':16')) FROM {f}",
        "SELECT count(emb) FROM {f}",
        "SELECT sum(len(emb[1:16])) FROM {f}",
        1,
    ),
    "float32 4x4: '1:3, ::2'": (
        "small",
        "SELECT count(tensor_get(x, '1:3, ::2')) FROM {f}",
        "SELECT count(x) FROM {f}",
        "SELECT sum(len(list_transform([5, 7, 9, 11], lambda i: x[i]))) FROM {f}",
        1,
    ),
    "float32 4x4: '1:3, ::2' WHERE label = 3": (
        "small",
        "SELECT count(tensor_get(x, '1:3, ::2')) FROM {f} WHERE label = 3",
        "SELECT count(x) FROM {f} WHERE label = 3",
        "SELECT sum(len(list_transform([5, 7, 9, 11], lambda i: x[i]))) FROM {f} WHERE label = 3",
        1,
    ),
}
# The WHERE queries again with the filter pushed into the scan (DataFusion's
# `pushdown_filters`): the fast reader then decodes the tensors of the rows it holds for alone
# (late materialisation). The peers run the same query as without it.
PUSHDOWN = " [pushdown_filters]"
PUSHDOWN_SETTING = "SET datafusion.execution.parquet.pushdown_filters = true"
QUERIES.update(
    {name + PUSHDOWN: query for name, query in QUERIES.items() if "WHERE" in name}
)


def generate(kind, path, rows, group):
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    if path.exists():
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(0)
    yy, xx = np.mgrid[0:28, 0:28]
    tmp = path.with_suffix(".tmp")
    writer = None
    for start in range(0, rows, group):
        n = min(group, rows - start)
        if kind == "images":
            cy, cx = rng.uniform(8, 20, (2, n, 1, 1))
            blob = 255 * np.exp(-((yy - cy) ** 2 + (xx - cx) ** 2) / 18.0)
            img = np.where(blob > 12, blob, 0).astype(np.uint8)
            columns = {
                "img": pa.FixedShapeTensorArray.from_numpy_ndarray(img),
                "label": pa.array(rng.integers(0, 10, n, dtype=np.int32)),
            }
        elif kind == "embeddings":
            emb = rng.standard_normal((n, 128)).astype(np.float16)
            columns = {
                "emb": pa.FixedShapeTensorArray.from_numpy_ndarray(emb),
                "id": pa.array(np.arange(start, start + n, dtype=np.int64)),
            }
        else:
            columns = {
                "x": pa.FixedShapeTensorArray.from_numpy_ndarray(
                    rng.random((n, 4, 4), dtype=np.float32)
                ),
                "label": pa.array(rng.integers(0, 10, n, dtype=np.int32)),
            }
        batch = pa.table(columns)
        if writer is None:
            writer = pq.ParquetWriter(tmp, batch.schema)
        writer.write_table(batch, row_group_size=group)
    writer.close()
    tmp.rename(path)


# ---- children: one engine and query per process; print "TIME <best seconds>" ----


def numpy_query(name, path):
    """The query in pyarrow + numpy, as a numpy user writes it."""
    import numpy as np
    import pyarrow.parquet as pq

    name = name.removesuffix(PUSHDOWN)
    def read(columns, **kwargs):
        table = pq.read_table(path, columns=columns, **kwargs)
        return [
            table[c].combine_chunks().to_numpy_ndarray()
            if hasattr(table[c].type, "shape")
            else table[c].to_numpy()
            for c in columns
        ]

    if name == "images: crop '2:26, 2:26'":
        (img,) = read(["img"])
        return img[:, 2:26, 2:26].copy()
    if name == "images: crop WHERE label = 3":
        (img,) = read(["img"], filters=[("label", "=", 3)])
        return img[:, 2:26, 2:26].copy()
    if name == "images: crop LIMIT 1000":
        batch = next(pq.ParquetFile(path).iter_batches(batch_size=1000, columns=["img"]))
        return batch.column(0).to_numpy_ndarray()[:, 2:26, 2:26].copy()
    if name == "images: centre pixel GROUP BY label":
        img, label = read(["img", "label"])
        return np.bincount(label, weights=img[:, 14, 14], minlength=10)
    if name == "embeddings: ':16'":
        (emb,) = read(["emb"])
        return emb[:, :16].copy()
    x, label = read(["x", "label"]) if "WHERE" in name else (read(["x"])[0], None)
    if label is not None:
        x = x[label == 3]
    return x[:, 1:3, ::2].copy()


def child(kind, path, name, repeat):
    if kind == "numpy":
        run = lambda: numpy_query(name, path)  # noqa: E731
    else:
        import duckdb

        con = duckdb.connect()
        sql = QUERIES[name][3].format(f=f"'{path}'")
        run = lambda: con.sql(sql).fetchall()  # noqa: E731
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    print(f"TIME {best}")


# ---- the parent ----


def cli_case(binary, sql, repeat, rows, setup=None):
    first = ["-c", setup] if setup else []
    out, peak = timed([binary, "--format", "csv"] + first + ["-c", sql] * repeat)
    lines = [line for line in out.splitlines() if re.fullmatch(r"-?[\d.]+(,-?[\d.e+-]+)*", line)]
    if len(lines) != rows * repeat:
        sys.exit(f"unexpected result of {sql}:\n{out[-2000:]}")
    elapsed = [float(s) for s in re.findall(r"Elapsed ([\d.]+) seconds", out)]
    return min(elapsed[1:] if setup else elapsed), peak


def py_case(kind, path, name, repeat):
    out, peak = timed([sys.executable, __file__, "--child", kind, str(path), name, str(repeat)])
    return float(re.search(r"TIME ([\d.e-]+)", out)[1]), peak


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        kind, path, name, repeat = sys.argv[2:6]
        child(kind, path, name, int(repeat))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--bin", help="the CLI binary (default: cargo build's)")
    parser.add_argument("--no-duckdb", action="store_true")
    parser.add_argument("--only", help="comma-separated substrings of query names")
    args = parser.parse_args()

    binary = cli_binary(args.bin)
    paths = {}
    for kind, (rows, group) in FILES.items():
        rows = int(rows * args.scale)
        paths[kind] = ROOT / "target" / "compare" / f"{kind}_{rows}_{group}.parquet"
        generate(kind, paths[kind], rows, group)

    engines = ["numpy"] + ([] if args.no_duckdb else ["duckdb"])
    print(f"scale {args.scale}, best of {args.repeat}, {os.cpu_count()} cores")
    print("| query | datafusion-tensor | its plain scan | " + " | ".join(engines) + " |")
    print("|" + " --- |" * (3 + len(engines)))
    for name, (kind, ours, scan, _, rows) in QUERIES.items():
        if args.only and not any(s in name for s in args.only.split(",")):
            continue
        path = f"'{paths[kind]}'"
        setup = PUSHDOWN_SETTING if name.endswith(PUSHDOWN) else None
        t, peak = cli_case(binary, ours.format(f=path), args.repeat, rows, setup)
        s, speak = cli_case(binary, scan.format(f=path), args.repeat, rows, setup)
        cells = [f"{t:.3f} s ({peak:.0f} MiB)", f"{s:.3f} s = {t / s:.2f}x ({speak:.0f} MiB)"]
        for engine in engines:
            e, epeak = py_case(engine, paths[kind], name, args.repeat)
            cells.append(f"{e:.3f} s = {e / t:.2f}x ({epeak:.0f} MiB)")
        print(f"| {name} | " + " | ".join(cells) + " |", flush=True)
    print()
    print("Beside the plain scan: the query's time over the scan's. Beside the peers: their time")
    print("over this project's (above 1: the project is faster). Peak resident memory in brackets.")


if __name__ == "__main__":
    main()
