#!/usr/bin/env python3
"""Writes tests/data/varshape_along.parquet and sql/varshape_along_generated.slt: numpy's
take_along_axis, put_along_axis and choose on every row of variable-shape tensors (and of
fixed-shape ones beside them), the expected values and errors numpy's.

    python3 tests/data/make_varshape_along_fixtures.py      # numpy>=2, pyarrow>=15

The columns are pyarrow's (Arrow C++'s registered arrow.variable_shape_tensor, as
make_varshape_fixtures.py builds them; fixed-shape ones with pa.fixed_shape_tensor), written
by its Parquet writer. Each row's logical tensor is physical.transpose(permutation).

Every case runs numpy on each row; the first row numpy rejects is the expected error (named),
the other rows are then selected alone and their values are numpy's. Errors are numpy's words;
where this crate writes shapes as `(2, 3)` (numpy `(2,3)` in some messages) the script writes
them so.
"""

import json
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from fixture_format import error_regex, fmt, split_outcomes
from make_varshape_fixtures import registered_type, shape_text

HERE = Path(__file__).resolve().parent
SLT = HERE.parents[1] / "sql" / "varshape_along_generated.slt"
FILE = "tests/data/varshape_along.parquet"
ROWS = 6

# Variable-shape columns: name -> (numpy dtype, arrow type, metadata, physical shape per row
# (None: a NULL row)). Values are deterministic (see values_of).
VARIABLE = {
    "f32": (np.float32, pa.float32(), {}, [(2, 3), (3, 1), None, (1, 4), (0, 3), (2, 2)]),
    # Stored [H, W] transposed: logical [W, H].
    "perm": (
        np.int16,
        pa.int16(),
        {"permutation": [1, 0], "dim_names": ["H", "W"]},
        [(3, 2), (1, 3), (2, 2), None, (2, 1), (4, 2)],
    ),
    "u8u": (
        np.uint8,
        pa.uint8(),
        {"uniform_shape": [2, None]},
        [(2, 3), (2, 1), (2, 2), (2, 0), None, (2, 4)],
    ),
    "b": (np.bool_, pa.bool_(), {}, [(1, 3), (2, 2), None, (3, 1), (2, 3), (1, 1)]),
    "i64v": (np.int64, pa.int64(), {}, [(4,), (1,), (0,), None, (3,), (5,)]),
    # Every dim uniform: the put's result, and choose's with it, are fixed-shape.
    "uni": (np.int16, pa.int16(), {"uniform_shape": [2, 2]}, [(2, 2), None, (2, 2), (2, 2), (2, 2), (2, 2)]),
    # tensor_choose: an index tensor a, in range and out of it, and choices that broadcast
    # with it row by row (c1: row 4 does not).
    "ca": (np.int8, pa.int8(), {}, [(2, 3), (1, 2), (3, 1), None, (2, 0), (1, 1)]),
    "cw": (np.int32, pa.int32(), {}, [(2, 3), (1, 2), (3, 1), (2, 2), (2, 0), (1, 1)]),
    "c0": (np.float64, pa.float64(), {}, [(1, 3), (2, 2), (3, 4), (2, 1), (1, 0), (2, 3)]),
    "c1": (
        np.int16,
        pa.int16(),
        {"permutation": [1, 0]},
        [(3, 1), (2, 1), (1, 1), (2, 1), (3, 3), None],
    ),
    # tensor_choose(a, c) with one tensor whose outer dimension enumerates each row's choices
    # (numpy's choose of an array): 3, 2, 1, 4, 1 and 2 of them, c[k] broadcast with a (ca).
    "cs": (np.int32, pa.int32(), {}, [(3, 2, 3), (2, 1, 2), (1, 3, 1), (4, 2, 2), (1, 2, 0), (2, 1, 1)]),
    # Stored (H, W, n) and read as (n, H, W) (permutation [2, 0, 1]): the choices are not
    # the stored outer axis. Row 4 has none; with cw, row 1 broadcasts (1, 1) to (1, 2).
    "csp": (
        np.float32,
        pa.float32(),
        {"permutation": [2, 0, 1]},
        [(2, 3, 4), (1, 1, 2), (3, 1, 3), (2, 2, 1), (1, 0, 0), None],
    ),
    # Two choices in every row (uniform_shape [2, None]), c[k] 1-d against a 2-d a (b).
    "csu": (np.uint8, pa.uint8(), {"uniform_shape": [2, None]}, [(2, 3), (2, 1), (2, 1), (2, 5), (2, 1), (2, 1)]),
}

# Fixed-shape columns: name -> (numpy dtype, arrow type, logical shape, NULL rows).
FIXED = {
    "fx": (np.int32, pa.int32(), (2, 3), {2}),
    "fidx": (np.int64, pa.int64(), (2, 3), {0}),
    "fc": (np.float32, pa.float32(), (2, 1), set()),
    "fa": (np.uint8, pa.uint8(), (2, 1), {5}),
    # A fixed-shape tensor enumerating 3 choices of shape (1, 1) for a variable-shape a.
    "fst": (np.int64, pa.int64(), (3, 1, 1), {1}),
}

# List columns of scalar choices: name -> (numpy dtype, arrow type, each row's choices (None:
# NULL)). Row 2 of lc has none (numpy: 0-length sequence).
LISTS = {
    "lc": (np.int16, pa.int16(), [[10, 20, 30], [5], [], None, [1, 2], [7, 8, 9, 10]]),
    "lcf": (np.float64, pa.float64(), [[0.5, -1.5], [2.0], [1.0, 2.0, 3.0], [4.0], None, [9.0, 8.0]]),
}


def values_of(name, dtype, shape, row):
    """Deterministic values, distinct per column and row, exactly representable in dtype."""
    size = int(np.prod(shape, dtype=np.int64))
    seed = sum(ord(c) for c in name)
    base = np.arange(size, dtype=np.int64) * 7 + row * 31 + seed % 11
    if name == "ca":
        return (base % 3).astype(dtype).reshape(shape)
    if name in ("cw", "fa"):
        return (base % 9 - 3).astype(dtype).reshape(shape) if dtype != np.uint8 else (
            base % 5
        ).astype(dtype).reshape(shape)
    if dtype == np.bool_:
        return (base % 3 == 0).reshape(shape)
    if np.issubdtype(dtype, np.signedinteger):
        return (base % 200 - 100).astype(dtype).reshape(shape)
    if np.issubdtype(dtype, np.floating):
        return ((base % 200).astype(np.float64) / 4 - 20).astype(dtype).reshape(shape)
    return (base % 250).astype(dtype).reshape(shape)


def variable_row(name, row):
    """A variable-shape column's logical tensor at `row` (None: NULL)."""
    dtype, _, metadata, shapes = VARIABLE[name]
    if shapes[row] is None:
        return None
    physical = values_of(name, dtype, shapes[row], row)
    perm = metadata.get("permutation")
    return physical if perm is None else np.transpose(physical, perm)


def fixed_row(name, row):
    dtype, _, shape, nulls = FIXED[name]
    if row in nulls:
        return None
    if name == "fidx":
        # In bounds along axis 1 of every row with a non-empty axis 1, negative too.
        return np.array([[0, -1, 0], [-1, 0, 0]], dtype=dtype)
    return values_of(name, dtype, shape, row)


# Index columns for take/put along an axis: name -> (the tensor column, axis, numpy dtype,
# arrow type, NULL rows, the row with an index out of bounds, the row whose index holds a
# NULL element). Each row's shape: the column's off the axis (1 in odd rows: broadcast; 2
# where the column's is 1: broadcast the other way), (row % 3) + 1 along it.
INDEX = {
    "ix_f32": ("f32", 1, np.int32, pa.int32(), {5}, None, 1),
    "ix_f32_0": ("f32", 0, np.int8, pa.int8(), set(), None, None),
    "ix_perm": ("perm", 0, np.int64, pa.int64(), set(), None, None),
    "ix_perm_1": ("perm", 1, np.uint8, pa.uint8(), {0}, None, None),
    "ix_u8u": ("u8u", 1, np.int16, pa.int16(), set(), None, None),
    "ix_b": ("b", 1, np.int64, pa.int64(), set(), None, None),
    "ix_i64v": ("i64v", 0, np.int32, pa.int32(), set(), None, None),
    "ix_uni": ("uni", 0, np.int64, pa.int64(), {3}, None, None),
    "ix_bad": ("f32", 1, np.int32, pa.int32(), set(), 3, None),
    # fx is fixed-shape (2, 3): a variable-shape index into a fixed-shape tensor.
    "ix_fx": ("fx", 1, np.int64, pa.int64(), {4}, None, None),
    # axis=None: 1-d indices into each row flattened.
    "ix_flat": ("perm", None, np.int64, pa.int64(), set(), None, None),
}


def tensor_row(name, row):
    return fixed_row(name, row) if name in FIXED else variable_row(name, row)


def list_row(name, row):
    """A list column's row as a numpy array (None: NULL)."""
    dtype, _, rows = LISTS[name]
    return None if rows[row] is None else np.array(rows[row], dtype=dtype)


def index_row(name, row):
    """An index column's physical (= logical) row as a numpy array, or None; a list with a
    None element for the row whose index holds a NULL element."""
    column, axis, dtype, _, nulls, bad_row, null_elem = INDEX[name]
    arr = tensor_row(column, row)
    if arr is None and column in FIXED:
        arr = np.zeros(FIXED[column][2], dtype=FIXED[column][0])
    if row in nulls or arr is None:
        return None
    k = row % 3 + 1
    if axis is None:
        shape, n = (k,), arr.size
    else:
        shape = tuple(
            k if d == axis else (2 if s == 1 else (1 if row % 2 else s))
            for d, s in enumerate(arr.shape)
        )
        n = arr.shape[axis]
    size = int(np.prod(shape))
    rng = np.random.default_rng(sum(ord(c) for c in name) * 100 + row)
    if n == 0:
        # Nothing to index: an empty index along the axis.
        shape = tuple(0 if d == axis else s for d, s in enumerate(shape)) if axis is not None else (0,)
        size = 0
    lo = 0 if dtype == np.uint8 else -n
    values = rng.integers(lo, max(n, 1), size=size)
    if row == bad_row and size:
        values[-1] = n
    out = values.astype(dtype).reshape(shape)
    if row == null_elem and size:
        return [None if i == 0 else int(v) for i, v in enumerate(out.reshape(-1))], shape
    return out


# Values columns for put: name -> (index column, numpy dtype, arrow type, NULL rows). Each
# row's shape: the broadcast index shape, its first dim 1 in odd rows (broadcast).
VALUES = {
    "v_f32": ("ix_f32", np.float64, pa.float64(), {3}),
    "v_perm": ("ix_perm", np.int16, pa.int16(), set()),
}


def broadcast_index_shape(column, axis, arr, idx):
    if axis is None:
        return idx.shape
    axis %= arr.ndim
    return tuple(
        i if d == axis else np.broadcast_shapes((a,), (i,))[0]
        for d, (a, i) in enumerate(zip(arr.shape, idx.shape))
    )


def value_row(name, row):
    index, dtype, _, nulls = VALUES[name]
    column, axis = INDEX[index][0], INDEX[index][1]
    arr, idx = tensor_row(column, row), index_row(index, row)
    if row in nulls or arr is None or idx is None or isinstance(idx, tuple):
        return None
    shape = list(broadcast_index_shape(column, axis, arr, idx))
    if row % 2 and shape:
        shape[0] = 1
    return values_of(name, dtype, tuple(shape), row)


def variable_column(dtype, arrow_type, metadata, physical_rows, ndim):
    tensor_type = registered_type(arrow_type, ndim, metadata)
    storage = []
    for physical in physical_rows:
        if physical is None:
            storage.append(None)
        else:
            data, shape = physical
            storage.append({"data": data, "shape": list(shape)})
    return pa.ExtensionArray.from_storage(
        tensor_type, pa.array(storage, type=tensor_type.storage_type)
    )


def physical_of(arr, perm=None):
    """(flat stored values, physical shape) of a logical tensor."""
    physical = arr if perm is None else arr.transpose(np.argsort(perm))
    flat = [bool(x) if arr.dtype == np.bool_ else x.item() for x in physical.reshape(-1)]
    return flat, physical.shape


def write_file():
    columns = {"id": pa.array(range(ROWS), type=pa.int32())}
    for name, (dtype, arrow_type, metadata, shapes) in VARIABLE.items():
        ndim = len(next(s for s in shapes if s is not None))
        rows = []
        for row in range(ROWS):
            value = variable_row(name, row)
            rows.append(None if value is None else physical_of(value, metadata.get("permutation")))
        columns[name] = variable_column(dtype, arrow_type, metadata, rows, ndim)
    for name, (dtype, arrow_type, shape, _) in FIXED.items():
        tensor_type = pa.fixed_shape_tensor(arrow_type, list(shape))
        flat = [
            None if fixed_row(name, r) is None else fixed_row(name, r).reshape(-1).tolist()
            for r in range(ROWS)
        ]
        storage = pa.array(flat, type=pa.list_(arrow_type, int(np.prod(shape))))
        columns[name] = pa.ExtensionArray.from_storage(tensor_type, storage)
    for name, (column, axis, dtype, arrow_type, *_rest) in INDEX.items():
        rows = []
        for row in range(ROWS):
            value = index_row(name, row)
            if value is None:
                rows.append(None)
            elif isinstance(value, tuple):
                rows.append(value)
            else:
                rows.append(physical_of(value))
        if axis is None:
            ndim = 1
        elif column in FIXED:
            ndim = len(FIXED[column][2])
        else:
            ndim = len(next(s for s in VARIABLE[column][3] if s is not None))
        columns[name] = variable_column(dtype, arrow_type, {}, rows, ndim)
    for name, (index, dtype, arrow_type, _) in VALUES.items():
        rows = [
            None if value_row(name, r) is None else physical_of(value_row(name, r))
            for r in range(ROWS)
        ]
        ndim = next(len(r[1]) for r in rows if r is not None)
        columns[name] = variable_column(dtype, arrow_type, {}, rows, ndim)
    for name, (_, arrow_type, rows) in LISTS.items():
        columns[name] = pa.array(rows, type=pa.list_(arrow_type))
    table = pa.table(columns)
    pq.write_table(table, HERE / "varshape_along.parquet")
    back = pq.read_table(HERE / "varshape_along.parquet")
    for name in VARIABLE:
        assert back.schema.field(name).type.extension_name == "arrow.variable_shape_tensor"


def slt_value(value):
    return "NULL" if value is None else fmt(value)


def row_cases(function, call, apply):
    """The slt cases of `call`: `apply(row)` is numpy's result for the row (None: NULL), or
    the message of the error numpy raises (a str, `{where}` placing the row). The first row
    rejected is the expected error; the other rows are selected alone for their values."""
    results, errors = split_outcomes({row: apply(row) for row in range(ROWS)})
    out = []
    if errors:
        first = min(errors)
        message = error_regex(errors[first], f" at row {first} of its batch")
        out += [f"query error {function}: {message}", f"SELECT {call} FROM '{FILE}';", ""]
    if results:
        ids = ", ".join(str(r) for r in sorted(results))
        out += [
            "query IT",
            f"SELECT id, {call} FROM '{FILE}' WHERE id IN ({ids}) ORDER BY id;",
            "----",
            *[f"{r} {slt_value(results[r])}" for r in sorted(results)],
            "",
        ]
    return out


def numpy_index(value):
    """An index row as numpy reads it; None when it is NULL or holds a NULL element."""
    if value is None or isinstance(value, tuple):
        return None
    return value.astype(np.int64)


def along_error(arr, idx, axis):
    """This crate's words for a take/put numpy rejects (numpy's, shapes as this crate writes
    them), or None."""
    if axis is not None:
        axis %= arr.ndim
        for d, (a, i) in enumerate(zip(arr.shape, idx.shape)):
            if d != axis and a != i and a != 1 and i != 1:
                return (
                    "shape mismatch: indexing arrays could not be broadcast together with shapes "
                    f"{shape_text(arr.shape)} {shape_text(idx.shape)}"
                )
    n = arr.size if axis is None else arr.shape[axis]
    normalised = 0 if axis is None else axis % arr.ndim
    for v in idx.reshape(-1):
        if not -n <= v < n:
            return f"index {v} is out of bounds for axis {normalised} with size {n}"
    return None


# take: (tensor column, index column, axis (None: numpy's axis=None)).
TAKE_CASES = [
    ("f32", "ix_f32", 1),
    ("f32", "ix_f32_0", 0),
    ("f32", "ix_f32", -1),
    ("perm", "ix_perm", 0),
    ("perm", "ix_perm_1", 1),
    ("u8u", "ix_u8u", 1),
    ("b", "ix_b", 1),
    ("i64v", "ix_i64v", 0),
    ("uni", "ix_uni", 0),
    ("f32", "ix_bad", 1),
    ("fx", "ix_fx", 1),  # a fixed-shape tensor, variable-shape indices
    ("u8u", "fidx", 1),  # variable-shape tensor, fixed-shape indices: a fixed-shape result
    ("perm", "ix_flat", None),
    ("f32", "ix_perm", 0),  # shapes that do not broadcast
]

# put: (tensor column, index column, values as SQL, values of a row as numpy (None: NULL),
# axis).
PUT_CASES = [
    ("f32", "ix_f32", "v_f32", lambda r: variable_or_none("v_f32", r), 1),
    ("f32", "ix_f32", "-1.5", lambda r: -1.5, 1),
    ("perm", "ix_perm", "v_perm", lambda r: variable_or_none("v_perm", r), 0),
    ("perm", "ix_perm_1", "arrow_cast(id, 'Int16')", lambda r: np.int16(r), 1),
    ("u8u", "ix_u8u", "7", lambda r: 7, 1),
    ("u8u", "fidx", "tensor([1, 2, 3], [3])", lambda r: np.array([1, 2, 3]), 1),
    ("b", "ix_b", "true", lambda r: True, 1),
    ("i64v", "ix_i64v", "tensor([100], [1])", lambda r: np.array([100]), 0),
    ("uni", "ix_uni", "arrow_cast(id, 'Int16')", lambda r: np.int16(r), 0),  # fixed-shape result
    ("fx", "ix_fx", "id - 10", lambda r: r - 10, 1),  # fixed-shape tensor: fixed result
    ("perm", "ix_flat", "0", lambda r: 0, None),
    ("f32", "ix_f32", "tensor([1, 2], [2])", lambda r: np.array([1.0, 2.0]), 1),
    ("f32", "ix_bad", "0", lambda r: 0, 1),
]


def along_cases(function, args_sql, axis, apply):
    """row_cases of `function(args..., axis)`, axis None as SQL's NULL (numpy's axis=None)."""
    axis_sql = "NULL" if axis is None else str(axis)
    return row_cases(function, f"{function}({', '.join(args_sql)}, {axis_sql})", apply)


def along_inputs(column, index, axis, row):
    """A row's tensor and index (None: NULL, or an index row holding a NULL element) and the
    error numpy raises taking along the axis (None when it does not)."""
    arr = tensor_row(column, row)
    idx = tensor_row(index, row) if index in FIXED else numpy_index(index_row(index, row))
    if arr is None or idx is None:
        return arr, idx, None
    idx = idx.astype(np.int64)
    return arr, idx, along_error(arr, idx, axis)


def variable_or_none(name, row):
    return value_row(name, row)


def take_cases():
    out = [
        "# tensor_take_along_axis(t, idx, axis) with variable-shape tensors: numpy's",
        "# take_along_axis on every row.",
        "",
    ]
    for column, index, axis in TAKE_CASES:

        def apply(row, column=column, index=index, axis=axis):
            arr, idx, error = along_inputs(column, index, axis, row)
            if error or arr is None or idx is None:
                return error
            return np.take_along_axis(arr, idx, axis=axis)

        out += along_cases("tensor_take_along_axis", [column, index], axis, apply)
    return out


def put_cases():
    out = [
        "# tensor_put_along_axis(t, idx, values, axis) with variable-shape tensors: numpy's",
        "# put_along_axis on a copy of every row.",
        "",
    ]
    for column, index, values_sql, values_of_row, axis in PUT_CASES:

        def apply(row, column=column, index=index, values_of_row=values_of_row, axis=axis):
            arr, idx, error = along_inputs(column, index, axis, row)
            values = values_of_row(row)
            if arr is None or idx is None or values is None:
                return None
            if error:
                return error
            target = broadcast_index_shape(column, axis, arr, idx)
            values = np.asarray(values)
            try:
                np.broadcast_to(values, target)
            except ValueError:
                return (
                    f"shape mismatch: value array of shape {shape_text(values.shape)} could not be"
                    f" broadcast to indexing result of shape {shape_text(target)}"
                )
            copy = arr.copy()
            np.put_along_axis(copy, idx, values.astype(arr.dtype), axis=axis)
            return copy

        out += along_cases("tensor_put_along_axis", [column, index, values_sql], axis, apply)
    return out


# choose: (a as SQL, choices as SQL, the choices of a row as numpy (None: NULL), mode).
CHOOSE_CASES = [
    ("ca", ["c0", "c1", "-7"], lambda r: [variable_row("c0", r), variable_row("c1", r), -7], "raise"),
    ("ca", ["c0", "100", "id"], lambda r: [variable_row("c0", r), 100, np.int32(r)], "raise"),
    ("cw", ["c0", "c1", "-1"], lambda r: [variable_row("c0", r), variable_row("c1", r), -1], "raise"),
    ("cw", ["c0", "c1", "-1"], lambda r: [variable_row("c0", r), variable_row("c1", r), -1], "wrap"),
    ("cw", ["c1", "fc", "5"], lambda r: [variable_row("c1", r), fixed_row("fc", r), 5], "clip"),
    ("ca", ["fc", "c0", "fc"], lambda r: [fixed_row("fc", r)] + [variable_row("c0", r), fixed_row("fc", r)], "raise"),
    ("fa", ["c0", "c1", "0.5"], lambda r: [variable_row("c0", r), variable_row("c1", r), 0.5], "clip"),
    ("fa", ["c1", "c1", "c1"], lambda r: [variable_row("c1", r)] * 3, "wrap"),
    ("ca", ["c1", "7", "8"], lambda r: [variable_row("c1", r), 7, 8], "wrap"),
    # uni's rows are all (2, 2), fc (2, 1): a fixed-shape (2, 2) result.
    ("uni", ["fc", "id", "-2"], lambda r: [fixed_row("fc", r), np.int32(r), -2], "wrap"),
    ("uni", ["fc", "id", "-2"], lambda r: [fixed_row("fc", r), np.int32(r), -2], "clip"),
]


def numpy_choose(a, choices, shape, mode):
    """numpy's choose of a row whose a and choices broadcast to `shape`, or the message of the
    invalid entry `raise` rejects (the first in the broadcast a, as this crate names it)."""
    try:
        return np.choose(a.astype(np.int64), choices, mode=mode)
    except ValueError:
        bad = next(
            int(v) for v in np.broadcast_to(a, shape).reshape(-1) if not 0 <= v < len(choices)
        )
        return (
            f"invalid entry in choice array: a = {bad}{{where}} is not in "
            f"[0, {len(choices) - 1}] (mode 'raise'; there are {len(choices)} choices)"
        )


def choose_cases():
    out = [
        "# tensor_choose(a, choices..., mode) with variable-shape tensors: numpy's choose on",
        "# every row, a and the choices broadcast together.",
        "",
    ]
    for a_sql, choices_sql, choices_of_row, mode in CHOOSE_CASES:

        def apply(row, a_sql=a_sql, choices_of_row=choices_of_row, mode=mode):
            a = tensor_row(a_sql, row)
            choices = choices_of_row(row)
            if a is None or any(c is None for c in choices):
                return None
            # The crate's labels and its rule for which input a mismatch names (numpy's
            # message, "arg i" written "choice i" and "a").
            labelled = [(f"choice {i}", np.shape(c)) for i, c in enumerate(choices)]
            labelled.append(("a", a.shape))
            ndim = max(len(s) for _, s in labelled)
            shape, owner = [1] * ndim, [0] * ndim
            for which, (label, s) in enumerate(labelled):
                for axis, d in enumerate(s):
                    slot = ndim - len(s) + axis
                    if d in (shape[slot], 1):
                        continue
                    if shape[slot] == 1:
                        shape[slot], owner[slot] = d, which
                        continue
                    other, other_shape = labelled[owner[slot]]
                    return (
                        "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch"
                        f" is between {other} with shape {shape_text(other_shape)} and {label} with"
                        f" shape {shape_text(s)}."
                    )
            shape = tuple(shape)
            return numpy_choose(a, choices, shape, mode)

        call = f"tensor_choose({a_sql}, {', '.join(choices_sql)}, '{mode}')"
        out += row_cases("tensor_choose", call, apply)
    return out


# choose of one argument enumerating each row's choices: (a as SQL, the choices as SQL, the
# row's choices as numpy: an array whose outer axis enumerates them, or a list's scalars;
# None: NULL), mode).
ENUMERATED_CASES = [
    ("ca", "cs", lambda r: variable_row("cs", r), "raise"),
    ("ca", "cs", lambda r: variable_row("cs", r), "wrap"),
    ("ca", "cs", lambda r: variable_row("cs", r), "clip"),
    ("cw", "csp", lambda r: variable_row("csp", r), "raise"),
    ("cw", "csp", lambda r: variable_row("csp", r), "wrap"),
    ("cw", "csp", lambda r: variable_row("csp", r), "clip"),
    ("b", "csu", lambda r: variable_row("csu", r), "raise"),
    ("ca", "fst", lambda r: fixed_row("fst", r), "raise"),  # fixed-shape choices
    ("cw", "fst", lambda r: fixed_row("fst", r), "wrap"),
    ("ca", "lc", lambda r: list_row("lc", r), "raise"),
    ("ca", "lc", lambda r: list_row("lc", r), "wrap"),
    ("cw", "lcf", lambda r: list_row("lcf", r), "clip"),
    ("cw", "lcf", lambda r: list_row("lcf", r), "wrap"),
    ("fa", "lcf", lambda r: list_row("lcf", r), "raise"),  # a fixed-shape a, listed choices
    ("b", "cs", lambda r: variable_row("cs", r), "wrap"),  # row 3 does not broadcast
    ("fa", "cs", lambda r: variable_row("cs", r), "clip"),  # a fixed-shape a
    ("fa", "csu", lambda r: variable_row("csu", r), "wrap"),
    ("id", "cs", lambda r: variable_row("cs", r), "clip"),  # a number per row
]


def enumerated_cases():
    out = [
        "# tensor_choose(a, c, mode) with one argument enumerating each row's choices (a",
        "# tensor's outer dimension, a list's scalars), a or c variable-shape: numpy's choose",
        "# on every row.",
        "",
    ]
    for a_sql, choices_sql, choices_of_row, mode in ENUMERATED_CASES:

        def apply(row, a_sql=a_sql, choices_of_row=choices_of_row, mode=mode):
            a = np.array(row, dtype=np.int32) if a_sql == "id" else tensor_row(a_sql, row)
            choices = choices_of_row(row)
            if a is None or choices is None:
                return None
            if len(choices) == 0:
                return "0-length sequence: there are no choices{where}"
            # numpy broadcasts the choices c[k] (labelled as this crate labels them), then a.
            rest = np.shape(choices)[1:]
            try:
                shape = np.broadcast_shapes(rest, a.shape)
            except ValueError:
                return (
                    "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch"
                    f" is between choices[i] with shape {shape_text(rest)} and a with shape"
                    f" {shape_text(a.shape)}."
                )
            return numpy_choose(a, choices, shape, mode)

        call = f"tensor_choose({a_sql}, {choices_sql}, '{mode}')"
        out += row_cases("tensor_choose", call, apply)
    return out


def write_slt():
    out = [
        "# Generated by tests/data/make_varshape_along_fixtures.py: do not edit. Expected values",
        "# and errors are numpy's (take_along_axis, put_along_axis, choose) on every row's",
        "# logical tensor of tests/data/varshape_along.parquet (pyarrow's).",
        "",
    ]
    SLT.write_text(
        "\n".join(out + take_cases() + put_cases() + choose_cases() + enumerated_cases())
    )


def main():
    write_file()
    write_slt()
    print(json.dumps({"slt": str(SLT.name), "lines": len(SLT.read_text().splitlines())}))


if __name__ == "__main__":
    main()
