#!/usr/bin/env python3
"""Writes the pyarrow variable-shape tensor files the fast Parquet reader's tests read
(tests/integration/fast_scan.rs).

    python3 tests/data/make_varshape_scan_fixture.py      # numpy>=2, pyarrow>=15

Outputs (committed; `cargo test` reads them and needs no Python):
- pyarrow_varshape_scan.parquet: page format v1, snappy, dictionary pages for some columns;
- pyarrow_varshape_scan_v2.parquet: page format v2, zstd, no dictionary.

Each holds `id` (int32, 0..ROWS) and one arrow.variable_shape_tensor column per element type the
crate supports, in row groups of 400 rows and data pages of at most 1 KiB (so a row group has
many pages, and version-1 pages may end inside a tensor): no NULL row, no NULL element and no
empty tensor (what the fast reader reads itself), shapes drawn per row (seeded). `img` is
uint8 3 x H x W with dim_names and uniform_shape [3, null, null], `perm` int16 with
permutation [2, 0, 1], `u` int32 with every dim uniform and permutation [1, 0]. The tests'
expected values are DataFusion's own reader's of the same files, not written here.
"""

from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from make_varshape_fixtures import registered_type

HERE = Path(__file__).resolve().parent
ROWS = 1500

# name -> (numpy dtype, arrow type, metadata, shape of a row from the random generator)
COLUMNS = {
    "img": (
        np.uint8,
        pa.uint8(),
        {"dim_names": ["C", "H", "W"], "uniform_shape": [3, None, None]},
        lambda rng: (3, rng.integers(1, 7), rng.integers(1, 7)),
    ),
    "i8": (np.int8, pa.int8(), {}, lambda rng: (rng.integers(1, 9),)),
    "perm": (
        np.int16,
        pa.int16(),
        {"permutation": [2, 0, 1]},
        lambda rng: tuple(rng.integers(1, 4, 3)),
    ),
    "i32": (np.int32, pa.int32(), {}, lambda rng: tuple(rng.integers(1, 5, 2))),
    "u": (
        np.int32,
        pa.int32(),
        {"permutation": [1, 0], "dim_names": ["r", "c"], "uniform_shape": [2, 3]},
        lambda rng: (2, 3),
    ),
    "i64": (np.int64, pa.int64(), {}, lambda rng: (rng.integers(1, 12),)),
    "u16": (np.uint16, pa.uint16(), {}, lambda rng: tuple(rng.integers(1, 5, 2))),
    "u32": (np.uint32, pa.uint32(), {}, lambda rng: (rng.integers(1, 9),)),
    "u64": (np.uint64, pa.uint64(), {}, lambda rng: (rng.integers(1, 9),)),
    "h": (np.float16, pa.float16(), {}, lambda rng: tuple(rng.integers(1, 5, 2))),
    "f32": (np.float32, pa.float32(), {}, lambda rng: tuple(rng.integers(1, 5, 2))),
    "f64": (np.float64, pa.float64(), {}, lambda rng: (rng.integers(1, 9),)),
    "b": (np.bool_, pa.bool_(), {"uniform_shape": [None, 2]}, lambda rng: (rng.integers(1, 6), 2)),
}


def values(rng, dtype, size):
    """Few distinct values (so dictionary pages stay dictionary-encoded), and the type's
    extremes now and then."""
    if dtype == np.bool_:
        return rng.integers(0, 2, size).astype(np.bool_)
    if np.issubdtype(dtype, np.floating):
        return (rng.integers(-40, 40, size) / 4).astype(dtype)
    info = np.iinfo(dtype)
    out = rng.integers(max(info.min, -100), min(info.max, 100) + 1, size).astype(dtype)
    out[rng.random(size) < 0.01] = info.max
    out[rng.random(size) < 0.01] = info.min
    return out


def column(rng, dtype, arrow_type, metadata, draw):
    shapes = [tuple(int(d) for d in draw(rng)) for _ in range(ROWS)]
    ndim = len(shapes[0])
    sizes = np.array([int(np.prod(s)) for s in shapes])
    offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int32)
    tensor_type = registered_type(arrow_type, ndim, metadata)
    data = pa.ListArray.from_arrays(
        pa.array(offsets), pa.array(values(rng, dtype, int(sizes.sum())), type=arrow_type)
    )
    shape = pa.FixedSizeListArray.from_arrays(
        pa.array(np.array(shapes, dtype=np.int32).reshape(-1)), ndim
    )
    storage = pa.StructArray.from_arrays([data, shape], fields=list(tensor_type.storage_type))
    return pa.ExtensionArray.from_storage(tensor_type, storage)


def main():
    rng = np.random.default_rng(7)
    columns = {"id": pa.array(np.arange(ROWS, dtype=np.int32))}
    for name, (dtype, arrow_type, metadata, draw) in COLUMNS.items():
        columns[name] = column(rng, dtype, arrow_type, metadata, draw)
    table = pa.table(columns)
    common = {"row_group_size": 400, "data_page_size": 1024, "write_batch_size": 64}
    pq.write_table(
        table,
        HERE / "pyarrow_varshape_scan.parquet",
        compression="snappy",
        # The leaves' paths (a top-level name would match none of them).
        use_dictionary=[
            f"{name}.{part}.list.element"
            for name in ["img", "i8", "perm", "u", "u32", "h", "f32", "b"]
            for part in ["data", "shape"]
        ],
        **common,
    )
    pq.write_table(
        table,
        HERE / "pyarrow_varshape_scan_v2.parquet",
        compression="zstd",
        use_dictionary=False,
        data_page_version="2.0",
        **common,
    )


if __name__ == "__main__":
    main()
