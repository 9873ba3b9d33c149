#!/usr/bin/env python3
"""Checks that a Parquet file written by this project's `COPY ... TO` reads in pyarrow with
arrow.variable_shape_tensor columns: the extension type (Arrow C++'s registered one), the
metadata as pyarrow wrote it, and per row the logical values numpy expects.

    python3 tests/data/check_varshape_in_pyarrow.py FILE EXPECTED.json [COLUMN=CASE ...]

Every column of EXPECTED.json (make_varshape_fixtures.py) is checked in FILE under its own
name, or under COLUMN for each COLUMN=CASE given; rows are matched by the `id` column. The
integration test tests/integration/interop.rs runs it when python3 with pyarrow is present.
"""

import json
import sys

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

EXTENSION = "arrow.variable_shape_tensor"

path, expected_path = sys.argv[1], sys.argv[2]
expected = json.loads(open(expected_path).read())
columns = dict(arg.split("=", 1) for arg in sys.argv[3:]) or {name: name for name in expected}

table = pq.read_table(path).sort_by("id")
for column, case in columns.items():
    want = expected[case]
    tensor_type = table.schema.field(column).type
    assert isinstance(tensor_type, pa.BaseExtensionType), (column, tensor_type)
    assert tensor_type.extension_name == EXTENSION, (column, tensor_type)

# The metadata as written: read again with the extension unregistered, the field keeps it.
pa.unregister_extension_type(EXTENSION)
raw = pq.read_schema(path)
for column, case in columns.items():
    want = expected[case]
    metadata = json.loads(raw.field(column).metadata[b"ARROW:extension:metadata"])
    assert metadata == want["metadata"], (column, metadata, want["metadata"])
    perm = metadata.get("permutation") or list(range(want["ndim"]))
    storage = table.column(column).combine_chunks().storage
    ids = table.column("id").to_pylist()
    for i, row in enumerate(storage.to_pylist()):
        expect = want["rows"][ids[i]]
        if expect is None:
            assert row is None, (column, ids[i], row)
            continue
        physical = np.array(row["data"]).reshape(row["shape"])
        value = np.transpose(physical, perm)
        assert list(value.shape) == expect["shape"], (column, ids[i], value.shape)
        assert [float(x) for x in value.reshape(-1)] == [float(x) for x in expect["values"]], (
            column,
            ids[i],
        )
print(f"ok: {len(table)} rows; columns {', '.join(columns)}")
