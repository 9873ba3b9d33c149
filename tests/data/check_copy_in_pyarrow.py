#!/usr/bin/env python3
"""Checks that a file written by this project's `COPY ... TO` reads in pyarrow as
FixedShapeTensorType columns with the values numpy expects.

    cargo run -- -f sql/demo.sql && python3 tests/data/check_copy_in_pyarrow.py

It reads target/demo/tensors.parquet, which sql/demo.sql writes (x = range(id, id + 6) as a
[2, 3] int64 tensor with dim_names; p = range(24) as float32, stored [2, 3, 4] with
permutation [2, 0, 1]; flags lost its tensor type through CASE).
"""

import sys

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

path = sys.argv[1] if len(sys.argv) > 1 else "target/demo/tensors.parquet"
table = pq.read_table(path).sort_by("id")

x = table.schema.field("x").type
assert isinstance(x, pa.FixedShapeTensorType), x
assert x.value_type == pa.int64() and list(x.shape) == [2, 3], x
assert list(x.dim_names) == ["row", "col"] and x.permutation is None, x

p = table.schema.field("p").type
assert isinstance(p, pa.FixedShapeTensorType), p
assert p.value_type == pa.float32() and list(p.shape) == [2, 3, 4], p
assert list(p.permutation) == [2, 0, 1] and p.dim_names is None, p

ids = table.column("id").to_numpy()
xs = table.column("x").combine_chunks().storage.flatten().to_numpy().reshape(-1, 2, 3)
for i, (row_id, value) in enumerate(zip(ids, xs)):
    assert (value == np.arange(row_id, row_id + 6).reshape(2, 3)).all(), (i, value)

# The canonical logical view of p: physical.transpose(permutation).
ps = table.column("p").combine_chunks().storage.flatten().to_numpy().reshape(-1, 2, 3, 4)
want = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
assert (ps == want).all()
print(
    f"ok: {len(ids)} rows; x {x}; p {p}; "
    f"p[0] logical {np.transpose(ps[0], p.permutation).shape}"
)
