#!/usr/bin/env python3
"""Writes the pyarrow interop fixtures under tests/data/ and the values numpy expects.

    python3 tests/data/make_interop_fixtures.py      # numpy>=2, pyarrow>=15

Outputs (committed; `cargo test` reads them and needs no Python):
- pyarrow_tensors.parquet: one column per case, written by pyarrow as
  pa.fixed_shape_tensor extension columns (several element types, a permutation, dim_names,
  NULL rows, a 0-size dimension, a 0-d tensor), plus an `id` column.
- pyarrow_tensors.expected.json: for each column, the logical shape, the logical dim names
  and, per row, the logical tensor flattened row-major (or null), computed with numpy from the
  physical values as the canonical spec defines it: logical = physical.transpose(permutation).
  (pyarrow's own to_numpy_ndarray is not used: pyarrow 26 gets some permutations wrong.)
- pyarrow_empty_dim.parquet / .arrow / .expected.json: the same for a [2, 0, 3] column, in
  Parquet and in an Arrow IPC file. pyarrow 26 writes the size-0 FixedSizeList to Parquet
  with one element per row, which neither pyarrow nor arrow-rs reads back; the IPC file reads.
- pyarrow_tensors.cli.txt: the nested text the CLI must print for the int64 column, made with
  Python's str() of numpy's tolist() (the same bracket-and-comma format).
"""

import json
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.ipc  # noqa: F401  (pa.ipc)
import pyarrow.parquet as pq

HERE = Path(__file__).resolve().parent
ROWS = 4

# name -> (numpy dtype, arrow type, physical shape, dim_names, permutation, null rows)
CASES = {
    "f32": (np.float32, pa.float32(), (2, 3), ["rows", "cols"], None, {1}),
    "f64": (np.float64, pa.float64(), (3,), None, None, set()),
    "f16": (np.float16, pa.float16(), (2, 2), None, None, {3}),
    "i8": (np.int8, pa.int8(), (2, 2), None, None, set()),
    "i16": (np.int16, pa.int16(), (4,), None, None, {0}),
    "i32": (np.int32, pa.int32(), (2, 3), None, [1, 0], set()),
    "i64": (np.int64, pa.int64(), (2, 3), None, None, {2}),
    "u8": (np.uint8, pa.uint8(), (3,), None, None, set()),
    "u16": (np.uint16, pa.uint16(), (1, 2), None, None, set()),
    "u32": (np.uint32, pa.uint32(), (2, 1), None, None, set()),
    "u64": (np.uint64, pa.uint64(), (2,), None, None, set()),
    "b": (np.bool_, pa.bool_(), (2, 2), None, None, {1}),
    # The permutation pyarrow 26 gets wrong: physical [2, 3, 4], logical [4, 2, 3].
    "perm3": (np.float32, pa.float32(), (2, 3, 4), ["C", "H", "W"], [2, 0, 1], {3}),
    "perm3b": (np.int16, pa.int16(), (2, 3, 4), None, [1, 2, 0], set()),
    "scalar": (np.int32, pa.int32(), (), None, None, {2}),
}


# A 0-size dimension goes to files of their own: pyarrow 26 writes a size-0 FixedSizeList to
# Parquet but cannot read it back ("Expected all lists to be of size=0"), so the pyarrow
# read-back check below skips it, and an Arrow IPC copy is written beside it.
EMPTY_CASES = {
    "empty": (np.float64, pa.float64(), (2, 0, 3), ["a", "b", "c"], None, {0}),
}


def physical_values(name, dtype, shape, row):
    """Deterministic values, distinct per column and row, exactly representable in dtype."""
    size = int(np.prod(shape, dtype=np.int64))
    seed = sum(ord(c) for c in name)
    base = np.arange(size, dtype=np.int64) + row * 100 + seed % 7
    if dtype == np.bool_:
        return (base % 3 == 0).reshape(shape)
    if np.issubdtype(dtype, np.signedinteger):
        base = base - 5  # some negatives
        if dtype == np.int8:
            base = base % 100 - 50
    if np.issubdtype(dtype, np.floating):
        return (base.astype(np.float64) / 2 - 3).astype(dtype).reshape(shape)
    return base.astype(dtype).reshape(shape)


def write_cases(cases, stem):
    columns = {"id": pa.array(range(ROWS), type=pa.int32())}
    expected = {}
    for name, (dtype, arrow_type, shape, dim_names, permutation, nulls) in cases.items():
        tensor_type = pa.fixed_shape_tensor(
            arrow_type, shape, dim_names=dim_names, permutation=permutation
        )
        storage_rows = []
        logical_rows = []
        perm = permutation if permutation is not None else list(range(len(shape)))
        for row in range(ROWS):
            physical = physical_values(name, dtype, shape, row)
            if row in nulls:
                storage_rows.append(None)
                logical_rows.append(None)
                continue
            storage_rows.append(physical.reshape(-1).tolist())
            logical = np.transpose(physical, perm) if len(shape) else physical
            logical_rows.append(logical.reshape(-1).tolist())
        storage = pa.array(storage_rows, type=tensor_type.storage_type)
        columns[name] = pa.ExtensionArray.from_storage(tensor_type, storage)
        logical_shape = [shape[p] for p in perm]
        expected[name] = {
            "type": str(np.dtype(dtype)),
            "physical_shape": list(shape),
            "logical_shape": logical_shape,
            "permutation": permutation,
            "dim_names": dim_names,
            "logical_dim_names": [dim_names[p] for p in perm] if dim_names else None,
            "rows": [
                None if v is None else [float(x) if dtype != np.bool_ else bool(x) for x in v]
                for v in logical_rows
            ],
        }
    table = pa.table(columns)
    pq.write_table(table, HERE / f"{stem}.parquet")
    if stem == "pyarrow_empty_dim":
        # The Arrow IPC file of the same table, which both pyarrow and arrow-rs read back.
        with pa.ipc.new_file(HERE / f"{stem}.arrow", table.schema) as writer:
            writer.write_table(table)
    (HERE / f"{stem}.expected.json").write_text(json.dumps(expected, indent=1) + "\n")


def main():
    write_cases(CASES, "pyarrow_tensors")
    write_cases(EMPTY_CASES, "pyarrow_empty_dim")

    # What the CLI prints for `SELECT i64 FROM ... ORDER BY id`, one row a line.
    lines = []
    dtype, _, shape, _, _, nulls = CASES["i64"]
    for row in range(ROWS):
        lines.append("NULL" if row in nulls else str(physical_values("i64", dtype, shape, row).tolist()))
    (HERE / "pyarrow_tensors.cli.txt").write_text("\n".join(lines) + "\n")

    # Sanity: pyarrow reads its own file back as tensors.
    back = pq.read_table(HERE / "pyarrow_tensors.parquet")
    for name in CASES:
        assert isinstance(back.schema.field(name).type, pa.FixedShapeTensorType), name
    back = pa.ipc.open_file(HERE / "pyarrow_empty_dim.arrow").read_all()
    assert isinstance(back.schema.field("empty").type, pa.FixedShapeTensorType)


if __name__ == "__main__":
    main()
