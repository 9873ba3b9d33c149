#!/usr/bin/env python3
"""Writes the pyarrow variable-shape tensor fixtures under tests/data/, the values numpy
expects, and sql/varshape_generated.slt.

    python3 tests/data/make_varshape_fixtures.py      # numpy>=2, pyarrow>=15

pyarrow 26 has no Python constructor for arrow.variable_shape_tensor, but Arrow C++ registers
the type: reading a schema whose field carries the extension name and metadata gives the C++
type, and pa.ExtensionArray.from_storage with it builds the columns. So the files below are
written by pyarrow's own (C++) Parquet and IPC writers with the registered type.

Outputs (committed; `cargo test` reads them and needs no Python):
- pyarrow_varshape.parquet / .arrow: one column per case (several element types, NULL rows,
  a permutation with dim_names, a uniform_shape, a 0-size dimension), plus an `id` column.
- pyarrow_varshape.expected.json: for each column, its metadata and, per row, the logical
  shape and the logical tensor flattened row-major (or null), computed with numpy from the
  physical values as the canonical spec defines it: logical = physical.transpose(permutation).
- bad/varshape_*.parquet: rows that contradict their type, for the error cases of
  sql/varshape.slt.
- ../../sql/varshape_generated.slt: SQL over the Parquet file whose expected output is
  numpy's (shape, size, tolist and the column's nested display as the CLI prints them; the
  column rebuilt by tensor(values, shape) from its stored values and shapes; tensor_to_fixed
  on the rows of one shape, and its error naming the first row of another).

check_varshape_in_pyarrow.py reads a file this project wrote back against the same JSON.
"""

import json
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.ipc  # noqa: F401  (pa.ipc)
import pyarrow.parquet as pq

from fixture_format import error_regex, fmt, re_escape, split_outcomes

HERE = Path(__file__).resolve().parent
SLT = HERE.parents[1] / "sql" / "varshape_generated.slt"
FILE = "tests/data/pyarrow_varshape.parquet"
EXTENSION = "arrow.variable_shape_tensor"

# name -> (numpy dtype, arrow type, metadata, physical shape per row (None: NULL row))
CASES = {
    # Images: 3 x H x W with the channel dim uniform.
    "img": (
        np.uint8,
        pa.uint8(),
        {"dim_names": ["C", "H", "W"], "uniform_shape": [3, None, None]},
        [(3, 2, 4), (3, 1, 1), None, (3, 3, 2), (3, 0, 5), (3, 2, 2)],
    ),
    "f32": (
        np.float32,
        pa.float32(),
        {},
        [(2, 3), None, (0, 3), (1, 1), (4, 2), (2, 3)],
    ),
    # Stored [C, H, W], logical [W, C, H].
    "perm": (
        np.int16,
        pa.int16(),
        {"permutation": [2, 0, 1], "dim_names": ["C", "H", "W"]},
        [(2, 3, 4), (1, 2, 3), (2, 1, 1), None, (1, 1, 2), (3, 2, 1)],
    ),
    "i64": (np.int64, pa.int64(), {}, [(5,), (0,), (1,), (3,), None, (2,)]),
    "b": (np.bool_, pa.bool_(), {"uniform_shape": [None, 2]}, [(2, 2), (1, 2), (3, 2), None, (0, 2), (1, 2)]),
    "f64": (np.float64, pa.float64(), {"permutation": [1, 0]}, [(2, 3), (3, 1), None, (1, 4), (2, 2), (0, 0)]),
    # Every dim fixed by uniform_shape: results of the rows' one shape are fixed-shape tensors.
    "u": (
        np.int32,
        pa.int32(),
        {"permutation": [1, 0], "dim_names": ["r", "c"], "uniform_shape": [2, 3]},
        [(2, 3), (2, 3), None, (2, 3), (2, 3), (2, 3)],
    ),
    "z": (np.float32, pa.float32(), {"uniform_shape": [0, 2]}, [(0, 2), None, (0, 2), (0, 2), (0, 2), (0, 2)]),
}
ROWS = 6


def registered_type(value_type, ndim, metadata):
    """Arrow C++'s registered arrow.variable_shape_tensor type with this metadata."""
    storage = pa.struct([("data", pa.list_(value_type)), ("shape", pa.list_(pa.int32(), ndim))])
    field = pa.field(
        "x",
        storage,
        metadata={
            "ARROW:extension:name": EXTENSION,
            "ARROW:extension:metadata": json.dumps(metadata, separators=(",", ":")),
        },
    )
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, pa.schema([field])):
        pass
    tensor_type = pa.ipc.open_stream(sink.getvalue()).schema.field("x").type
    assert isinstance(tensor_type, pa.BaseExtensionType), tensor_type
    assert tensor_type.extension_name == EXTENSION, tensor_type
    return tensor_type


def physical_values(name, dtype, shape, row):
    """Deterministic values, distinct per column and row, exactly representable in dtype."""
    size = int(np.prod(shape, dtype=np.int64))
    seed = sum(ord(c) for c in name)
    base = np.arange(size, dtype=np.int64) * 3 + row * 50 + seed % 7
    if dtype == np.bool_:
        return (base % 3 == 0).reshape(shape)
    if np.issubdtype(dtype, np.signedinteger):
        base = base - 40
    if np.issubdtype(dtype, np.floating):
        return (base.astype(np.float64) / 4 - 3).astype(dtype).reshape(shape)
    return (base % 250).astype(dtype).reshape(shape)


def logical(name, row):
    dtype, _, metadata, shapes = CASES[name]
    shape = shapes[row]
    if shape is None:
        return None
    physical = physical_values(name, dtype, shape, row)
    perm = metadata.get("permutation")
    return physical if perm is None else np.transpose(physical, perm)


def write_files():
    columns = {"id": pa.array(range(ROWS), type=pa.int32())}
    expected = {}
    for name, (dtype, arrow_type, metadata, shapes) in CASES.items():
        ndim = len(next(s for s in shapes if s is not None))
        tensor_type = registered_type(arrow_type, ndim, metadata)
        storage_rows = []
        for row, shape in enumerate(shapes):
            if shape is None:
                storage_rows.append(None)
                continue
            physical = physical_values(name, dtype, shape, row)
            storage_rows.append({"data": physical.reshape(-1).tolist(), "shape": list(shape)})
        storage = pa.array(storage_rows, type=tensor_type.storage_type)
        columns[name] = pa.ExtensionArray.from_storage(tensor_type, storage)
        perm = metadata.get("permutation") or list(range(ndim))
        rows = []
        for row in range(ROWS):
            value = logical(name, row)
            if value is None:
                rows.append(None)
                continue
            flat = [bool(x) if dtype == np.bool_ else float(x) for x in value.reshape(-1)]
            rows.append({"shape": list(value.shape), "values": flat})
        dim_names = metadata.get("dim_names")
        expected[name] = {
            "type": str(np.dtype(dtype)),
            "ndim": ndim,
            "metadata": metadata,
            "logical_dim_names": [dim_names[p] for p in perm] if dim_names else None,
            "rows": rows,
        }
    table = pa.table(columns)
    pq.write_table(table, HERE / "pyarrow_varshape.parquet")
    with pa.ipc.new_file(HERE / "pyarrow_varshape.arrow", table.schema) as writer:
        writer.write_table(table)
    (HERE / "pyarrow_varshape.expected.json").write_text(json.dumps(expected, indent=1) + "\n")

    # Sanity: pyarrow reads both back as the extension, values intact.
    for back in (
        pq.read_table(HERE / "pyarrow_varshape.parquet"),
        pa.ipc.open_file(HERE / "pyarrow_varshape.arrow").read_all(),
    ):
        for name in CASES:
            assert back.schema.field(name).type.extension_name == EXTENSION, name
            assert back.column(name).combine_chunks().storage.equals(columns[name].storage), name


def slt_value(value):
    return "NULL" if value is None else fmt(value)


def constructor_cases(name, rows):
    """tensor(values, shape) with the column's own stored values and shapes as columns (and
    its dim names and permutation as literals) is the column again."""
    metadata = CASES[name][2]
    extra = ""
    if "permutation" in metadata:
        names = metadata.get("dim_names")
        names_sql = "NULL" if names is None else "[" + ", ".join(f"'{n}'" for n in names) + "]"
        extra = f", {names_sql}, [{', '.join(str(p) for p in metadata['permutation'])}]"
    return [
        "query IT",
        f"SELECT id, tensor(get_field({name}, 'data'), get_field({name}, 'shape'){extra}) "
        f"FROM '{FILE}' ORDER BY id;",
        "----",
        *[f"{row} {slt_value(value)}" for row, value in enumerate(rows)],
        "",
    ]


def to_fixed_cases(name, rows):
    """tensor_to_fixed with the first row's logical shape: the rows of that shape (and NULL
    rows) convert; over the whole column, the first row of another shape is the error."""
    first = next(v for v in rows if v is not None)
    shape = list(first.shape)
    same = [i for i, v in enumerate(rows) if v is None or list(v.shape) == shape]
    other = next((i for i, v in enumerate(rows) if v is not None and list(v.shape) != shape), None)
    shape_sql = "[" + ", ".join(str(d) for d in shape) + "]"
    out = [
        "query IT",
        f"SELECT id, tensor_to_fixed({name}, {shape_sql}) FROM '{FILE}' "
        f"WHERE id IN ({', '.join(str(i) for i in same)}) ORDER BY id;",
        "----",
        *[f"{i} {slt_value(rows[i])}" for i in same],
        "",
    ]
    if other is not None:
        got = "(" + ", ".join(str(d) for d in rows[other].shape) + ("," if rows[other].ndim == 1 else "") + ")"
        want = "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"
        out += [
            f"query error tensor_to_fixed: row {other} of its batch has shape {re_escape(got)}, "
            f"not {re_escape(want)}: every row of a fixed-shape tensor has one shape",
            f"SELECT tensor_to_fixed({name}, {shape_sql}) FROM '{FILE}';",
            "",
        ]
    return out




# tensor_get(column, index): numpy's x[index] on every row's logical tensor.
GET_CASES = [
    ("img", ":, :, ::-1"),  # flip W
    ("img", ":, ::-1"),  # flip H
    ("img", ":, 1:3, 0:2"),  # crop
    ("img", "0"),
    ("img", "-1, None, ..., 1:"),
    ("img", ":, 0, 0"),  # fixed-shape result; row 4 has H = 0
    ("img", "[2, 0], :, -1"),
    ("img", "[True, False, True]"),
    ("img", "3"),  # every row: a plan error
    ("f32", "0"),
    ("f32", "::2, ::-1"),
    ("f32", ":, 1"),
    ("perm", "..., 0"),
    ("perm", "[0, 0], None, -1"),
    ("perm", "1:, :, ::2"),
    ("i64", "1:"),
    ("i64", "::-1"),
    ("i64", "[0, -1]"),
    ("i64", "-1"),  # a 0-d result: plain values
    ("b", "0"),  # fixed-shape result (the uniform dim)
    ("b", ":, [True, False]"),
    ("b", "[True, False]"),  # the rows of length 2 only
    ("f64", ":, 0"),
    ("f64", "::-1, ::-1"),
]


# tensor_reshape(column, shape): numpy's reshape of every row's logical tensor.
RESHAPE_CASES = [
    ("img", [-1]),
    ("img", [3, -1]),
    ("f32", [-1, 1]),
    ("perm", [-1]),
    ("perm", [2, -1]),
    ("i64", [1, -1]),
    ("b", [2, 2]),  # a fixed-shape result: the rows of size 4
    ("f64", [-1, 2]),
]


def shape_text(shape):
    """A shape as numpy prints one: (2, 3), (4,)."""
    return "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


def row_cases(function, name, call, apply):
    """The slt cases of `call` over column `name`: `apply(value, row)` is numpy's result for
    one row's logical tensor, or the message of the error numpy raises (a str). The first row
    numpy rejects is the error, named; the other rows are selected alone for the values. When
    every row is rejected (an index wrong for the dims every row shares), the error comes
    when the query is planned, naming no row."""
    rows = [logical(name, row) for row in range(ROWS)]
    results, errors = split_outcomes(
        {row: None if value is None else apply(value, row) for row, value in enumerate(rows)}
    )
    out = []
    if errors:
        first = min(errors)
        planned = all(v is None for v in results.values())
        where = "" if planned else f" at row {first} of its batch"
        # A message may place the row itself ("{where}"); else it ends the message.
        message = error_regex(errors[first], where)
        out += [
            f"query error {function}: {message}",
            f"SELECT {call} FROM '{FILE}';",
            "",
        ]
        if planned:
            return out
    ids = ", ".join(str(r) for r in sorted(results))
    return out + [
        "query IT",
        f"SELECT id, {call} FROM '{FILE}' WHERE id IN ({ids}) ORDER BY id;",
        "----",
        *[f"{r} {slt_value(results[r])}" for r in sorted(results)],
        "",
    ]


def reshape_cases():
    out = [
        "# tensor_reshape(t, shape) on variable-shape tensors: numpy's reshape of every row's",
        "# logical tensor, in numpy's words with the shape as requested (numpy writes (2,2) and",
        "# drops or names the -1).",
        "",
    ]
    for name, shape in RESHAPE_CASES:

        def apply(value, _row, shape=shape):
            try:
                return value.reshape(shape)
            except ValueError:
                return f"cannot reshape array of size {value.size} into shape {shape_text(shape)}"

        call = f"tensor_reshape({name}, [{', '.join(str(d) for d in shape)}])"
        out += row_cases("tensor_reshape", name, call, apply)
    return out


# tensor_get(column, i, j, ...): integer expressions of the row's id for the leading axes,
# numpy's x[i, j, ...] with the row's values.
DYNAMIC_GET_CASES = [
    ("img", ["id % 3"]),
    ("img", ["1", "0"]),
    ("img", ["2", "-1", "-1"]),
    ("perm", ["0", "0"]),
    ("f32", ["id - 3"]),
    ("i64", ["-1"]),
    ("b", ["id % 2"]),
]


def dynamic_get_cases():
    out = [
        "# tensor_get(t, i, j, ...) on variable-shape tensors: integer columns for the leading",
        "# axes, numpy's x[i, j, ...] per row.",
        "",
    ]
    for name, exprs in DYNAMIC_GET_CASES:

        def apply(value, row, exprs=exprs):
            index = tuple(eval(e, {"id": row}) for e in exprs)  # noqa: S307 (the cases above)
            try:
                return np.asarray(value[index])
            except IndexError as e:
                return str(e)

        out += row_cases("tensor_get", name, f"tensor_get({name}, {', '.join(exprs)})", apply)
    return out


def get_cases():
    out = [
        "# tensor_get(t, 'index') on variable-shape tensors: numpy's x[index] on every row's",
        "# logical tensor.",
        "",
    ]
    for name, index in GET_CASES:

        def apply(value, _row, index=index):
            try:
                return np.asarray(eval(f"x[{index}]", {"x": value}))  # noqa: S307 (GET_CASES)
            except IndexError as e:
                return str(e)

        out += row_cases("tensor_get", name, f"tensor_get({name}, '{index}')", apply)
    return out


class _Key:
    """`_Key()[index]`: an index string's items as Python reads them."""

    def __getitem__(self, key):
        return key if isinstance(key, tuple) else (key,)


def jax_key(index, shape, mode):
    """The numpy index JAX's `x.at[index]` updates on a tensor of `shape`, its integers
    resolved under `mode` ('clip' clamps after wrapping negatives once; 'raise' is numpy's
    IndexError), and whether the update is left out ('promise_in_bounds'/'drop', or 'clip' on
    an empty axis): then the key reads a dropped integer as 0 of its axis made 1 long, in the
    shape returned, so that x[index]'s shape is still known (y must broadcast to it). Slices
    and index lists are numpy's."""
    key = list(eval(f"K[{index}]", {"K": _Key()}))  # noqa: S307 (AT_CASES)
    consumed = sum(1 for k in key if k is not None and k is not Ellipsis)
    out, axis, dropped, probe = [], 0, False, list(shape)
    for k in key:
        if k is Ellipsis:
            axis += len(shape) - consumed
        elif k is not None:
            if isinstance(k, int) and not isinstance(k, bool):
                n = shape[axis]
                if not -n <= k < n:
                    if mode == "raise":
                        raise IndexError(f"index {k} is out of bounds for axis {axis} with size {n}")
                    if mode != "clip" or n == 0:
                        dropped, k, probe[axis] = True, 0, max(n, 1)
                    else:
                        k = min(max(k + n if k < 0 else k, 0), n - 1)
            axis += 1
        out.append(k)
    return tuple(out), dropped, tuple(probe)


ARROW_NAMES = {
    np.dtype(np.uint8): "UInt8",
    np.dtype(np.int16): "Int16",
    np.dtype(np.int32): "Int32",
    np.dtype(np.int64): "Int64",
}


def jax_at(value, index, op, y, mode):
    """JAX's `x.at[index].op(y)` on one logical tensor (no duplicate occurrences), with this
    crate's errors where JAX wraps an integer overflow; None when `y` is NULL."""
    if y is None:
        return None
    integer = np.issubdtype(value.dtype, np.integer)
    out = value.astype(np.float64) if op == "divide" and integer else value.copy()
    try:
        key, dropped, probe = jax_key(index, value.shape, mode)
    except IndexError as e:
        return str(e)
    target = np.empty(probe)[key].shape
    try:
        y = np.broadcast_to(np.asarray(y), target)
    except ValueError:
        return (
            f"shape mismatch: value array of shape {shape_text(np.shape(y))} could not be broadcast"
            f" to indexing result of shape {shape_text(target)}"
        )
    if dropped:
        return out
    selected = out[key]
    wide = selected.astype(np.int64) if integer and op != "divide" else selected
    combined = {
        "set": lambda a, b: b,
        "add": np.add,
        "subtract": np.subtract,
        "multiply": np.multiply,
        "divide": np.divide,
        "power": np.power,
        "min": np.minimum,
        "max": np.maximum,
    }[op](wide, y.astype(wide.dtype))
    if integer and op != "divide":
        info = np.iinfo(value.dtype)
        if combined.size and (combined.min() < info.min or combined.max() > info.max):
            return f"integer overflow in {ARROW_NAMES[value.dtype]}{{where}} (JAX would wrap around)"
    out[key] = combined
    return out


# tensor_at_<op>(column, 'index', y [, mode]): (op, column, index, y as SQL, y per row as
# numpy (None: NULL), mode).
AT_CASES = [
    ("set", "img", ":, 0", "0", lambda r: 0, None),  # row 4 has H = 0: dropped
    ("set", "img", ":, :, ::-2", "arrow_cast(id, 'UInt8')", np.uint8, None),
    ("max", "img", "1:, ..., -1", "100", lambda r: 100, None),
    (
        "min",
        "img",
        "0",
        "CASE WHEN id = 5 THEN NULL ELSE arrow_cast(id * 10, 'UInt8') END",
        lambda r: None if r == 5 else np.uint8(r * 10),
        None,
    ),
    ("add", "img", "...", "200", lambda r: 200, None),  # overflows
    ("set", "img", ":, 0, 0", "tensor([7, 8, 9], [3])", lambda r: np.array([7, 8, 9]), None),
    ("set", "img", ":, 0, :", "tensor([1, 2], [2])", lambda r: np.array([1, 2]), None),
    ("add", "f32", "::2, ::-1", "arrow_cast(id, 'Float32')", np.float32, None),
    ("subtract", "f32", ":, 1", "0.5", lambda r: np.float32(0.5), None),
    ("power", "f32", "0", "2", lambda r: np.float32(2), None),
    ("multiply", "f64", "::-1, 0", "-1.5", lambda r: -1.5, None),
    (
        "divide",
        "f64",
        "0",
        "CASE WHEN id = 1 THEN NULL ELSE CAST(id + 1 AS DOUBLE) END",
        lambda r: None if r == 1 else float(r + 1),
        None,
    ),
    ("divide", "i64", "1:", "2", lambda r: 2.0, None),  # integers divide into Float64
    ("set", "perm", "..., 0", "arrow_cast(id, 'Int16')", np.int16, None),
    ("add", "perm", "0, :, -1", "-7", lambda r: -7, None),
    ("set", "i64", "3", "0", lambda r: 0, "raise"),
    ("add", "i64", "3", "10", lambda r: 10, "clip"),
    ("add", "i64", "-6", "10", lambda r: 10, "drop"),
    ("set", "b", "..., 0", "false", lambda r: False, None),
    ("max", "b", "0", "true", lambda r: True, None),
    ("set", "img", "0", "NULL", lambda r: None, None),
]


def at_cases():
    out = [
        "# tensor_at_<op>(t, 'index', y) on variable-shape tensors: JAX's x.at[index].op(y) on",
        "# every row's logical tensor (numpy, modes resolved as JAX resolves them).",
        "",
    ]
    for op, name, index, y_sql, y_of_row, mode in AT_CASES:

        def apply(value, row, op=op, index=index, y_of_row=y_of_row, mode=mode):
            return jax_at(value, index, op, y_of_row(row), mode or "promise_in_bounds")

        mode_sql = f", '{mode}'" if mode else ""
        call = f"tensor_at_{op}({name}, '{index}', {y_sql}{mode_sql})"
        out += row_cases(f"tensor_at_{op}", name, call, apply)
    return out


# The rest of the tensor_at_* family on variable-shape tensors: get, apply (named functions and
# lambdas), index columns (one integer, a list or an index tensor per row) and a variable-shape
# y. JAX is not installed: its x.at[key] is emulated on each row's logical tensor by
# at_positions, as tests/data/make_at_fixtures.py reads it from JAX's gathers of ids.

GET_MODES = {"promise_in_bounds": "clip", "clip": "clip", "fill": "drop", "drop": "drop", "raise": "raise"}
UPDATE_MODES = {"promise_in_bounds": "drop", "clip": "clip", "fill": "drop", "drop": "drop", "raise": "raise"}


def at_positions(value, key, rule, wrap=True):
    """The flat positions in `value` of every element of `value.at[key]` (-1 where an integer
    index is left out), or numpy's IndexError message under rule 'raise'. Integers and integer
    arrays resolve element by element against their axis: negatives wrap once (unless `wrap`
    is false), then 'clip' clamps (an empty axis has nothing to clamp to: left out), 'drop'
    leaves the element out, 'raise' fails. Slices, None and ... are numpy's, on the axis's own
    length; a left-out integer points at one more position past the end of its axis, which
    holds -1."""
    shape = value.shape
    ids = np.full(tuple(n + 1 for n in shape), -1, dtype=np.int64)
    ids[tuple(slice(0, n) for n in shape)] = np.arange(value.size, dtype=np.int64).reshape(shape)
    consumed = sum(1 for k in key if k is not None and k is not Ellipsis)
    out, axis = [], 0
    for k in key:
        if k is Ellipsis:
            skip = len(shape) - consumed
            out += [slice(0, n) for n in shape[axis:axis + skip]]
            axis += skip
        elif k is None:
            out.append(None)
        elif isinstance(k, slice):
            n = shape[axis]
            start, stop, step = k.indices(n)
            if n == 0:
                k = slice(0, 0)
            elif step < 0 and stop < 0:
                k = slice(start, None, step)
            else:
                k = slice(start, stop, step)
            out.append(k)
            axis += 1
        else:
            n = shape[axis]
            given = np.asarray(k, dtype=np.int64)
            wrapped = np.where(given < 0, given + n, given) if wrap else given
            resolved = np.where((given < -n) & wrap, given, wrapped)
            bad = (resolved < 0) | (resolved >= n)
            if bad.any():
                if rule == "raise":
                    v = int(given[bad].reshape(-1)[0])
                    return f"index {v} is out of bounds for axis {axis} with size {n}"
                if rule == "clip" and n > 0:
                    resolved = np.where(bad, np.clip(wrapped, 0, n - 1), resolved)
                else:
                    resolved = np.where(bad, n, resolved)
            out.append(int(resolved) if given.ndim == 0 else resolved)
            axis += 1
    out += [slice(0, n) for n in shape[axis:]]
    return ids[tuple(out)]


def default_fill(dtype):
    """JAX's fill for get(mode='fill'): NaN, the minimum (signed), the maximum (unsigned), True."""
    if np.issubdtype(dtype, np.floating):
        return np.nan
    if dtype == np.bool_:
        return True
    return np.iinfo(dtype).min if np.issubdtype(dtype, np.signedinteger) else np.iinfo(dtype).max


def jax_get(value, key, mode, fill, wrap):
    pos = at_positions(value, key, GET_MODES[mode], wrap)
    if isinstance(pos, str):
        return pos
    out = np.full(pos.shape, default_fill(value.dtype) if fill is None else fill, dtype=value.dtype)
    found = pos >= 0
    out[found] = value.reshape(-1)[pos[found]]
    return out


def check_int(result, dtype, lambda_result):
    """None when `result` fits the integer `dtype`, else this crate's overflow error."""
    info = np.iinfo(dtype)
    if info.min <= result <= info.max:
        return None
    if lambda_result:
        return (f"the lambda's result {result}{{where}} does not fit the tensor's element type "
                f"{ARROW_NAMES[np.dtype(dtype)]} (integer overflow)")
    return f"integer overflow in {ARROW_NAMES[np.dtype(dtype)]}{{where}} (JAX would wrap around)"


COMBINE = {
    "set": lambda a, b: b,
    "add": lambda a, b: a + b,
    "subtract": lambda a, b: a - b,
    "multiply": lambda a, b: a * b,
    "divide": lambda a, b: a / b,
    "power": lambda a, b: a**b,
    "min": min,
    "max": max,
}


def jax_update(value, key, op, y, mode, fun):
    """x.at[key].op(y) (or .apply(fun)) on one logical tensor, occurrence by occurrence in
    x[key]'s row-major order; this crate's error where JAX wraps an integer overflow."""
    pos = at_positions(value, key, UPDATE_MODES[mode])
    if isinstance(pos, str):
        return pos
    integer = np.issubdtype(value.dtype, np.integer)
    out = value.astype(np.float64) if op == "divide" and integer else value.copy()
    flat = out.reshape(-1)
    if op == "apply":
        ys = np.zeros(pos.shape)
    else:
        try:
            ys = np.broadcast_to(np.asarray(y), pos.shape)
        except ValueError:
            return (f"shape mismatch: value array of shape {shape_text(np.shape(y))} could not be "
                    f"broadcast to indexing result of shape {shape_text(pos.shape)}")
    for p, v in zip(pos.reshape(-1), ys.reshape(-1)):
        if p < 0:
            continue
        a = flat[p].item()
        result = fun(a) if op == "apply" else COMBINE[op](a, np.asarray(v).item())
        if integer and op != "divide":
            error = check_int(int(result), value.dtype, op == "apply")
            if error:
                return error
        flat[p] = result
    return out


def key_of(index):
    """An index string's key, as Python reads it."""
    return eval(f"K[{index}]", {"K": _Key()})  # noqa: S307 (the cases below)


def options_sql(options):
    def lit(v):
        if isinstance(v, bool):
            return "true" if v else "false"
        return f"'{v}'" if isinstance(v, str) else str(v)

    return "".join(f", {k} => {lit(v)}" for k, v in options.items())


# tensor_at_get(column, idx [, options]): (column, idx as SQL, the row's key (a str: a literal
# index; a function of the row: an index column, None for a NULL index), options).
AT_GET_CASES = [
    ("img", "'0'", "0", {}),
    ("img", "'1, -1'", "1, -1", {"mode": "fill"}),
    ("img", "'5'", "5", {"mode": "fill", "fill_value": 7}),  # axis 0 is 3 in every row
    ("img", "':, 9'", ":, 9", {"mode": "fill"}),
    ("img", "'0, 0, 0'", "0, 0, 0", {}),  # 0-d; row 4's empty axis has nothing to clamp to
    ("img", "':, 0, 0'", ":, 0, 0", {"mode": "raise"}),  # a fixed-shape result (3,)
    ("f32", "'[0, -1, 5]'", "[0, -1, 5]", {"mode": "fill"}),
    ("f32", "'-1, ::-1'", "-1, ::-1", {"mode": "clip"}),
    ("perm", "'[0, 2], 0'", "[0, 2], 0", {"mode": "drop"}),
    ("perm", "'..., -1'", "..., -1", {"mode": "clip"}),
    ("i64", "'-3'", "-3", {"mode": "fill", "fill_value": -1}),
    ("i64", "'[0, 4, -6]'", "[0, 4, -6]", {"mode": "clip"}),  # a fixed-shape result (3,)
    ("i64", "'-1'", "-1", {"mode": "fill", "wrap_negative_indices": False}),
    ("b", "'0, 1'", "0, 1", {"mode": "fill"}),
    ("b", "'[1, 0], 0'", "[1, 0], 0", {}),
    ("f64", "':, 2'", ":, 2", {"mode": "fill"}),
    ("u", "'1'", "1", {}),
    ("u", "'[0, 2, 7], -1'", "[0, 2, 7], -1", {"mode": "fill"}),
    ("z", "'0'", "0", {"mode": "fill"}),  # an empty axis: every row filled
    ("f32", "'100000, -1'", "100000, -1", {"mode": "fill"}),  # past any row
    ("z", "'0'", "0", {"mode": "raise"}),  # every row: a plan error
    # Index columns: an integer, an index tensor [m] or [m, k] per row.
    ("img", "id % 4", lambda r: (r % 4,), {"mode": "fill"}),
    ("f32", "id - 3", lambda r: (r - 3,), {}),
    ("i64", "tensor([id, -id], [2])", lambda r: (np.array([r, -r]),), {"mode": "fill"}),
    ("perm", "tensor([0, id, 0, -1], [2, 2])", lambda r: (np.array([0, 0]), np.array([r, -1])),
     {"mode": "fill"}),
    ("u", "id - 2", lambda r: (r - 2,), {"mode": "raise"}),
    ("i64", "CASE WHEN id = 1 THEN NULL ELSE id % 2 END", lambda r: None if r == 1 else (r % 2,), {}),
]

# tensor_at_<op>(column, idx, y [, options]) and tensor_at_apply(column, idx, fn [, mode]):
# (op, column, idx as SQL, the row's key, y as SQL (apply: fn), y for the row and its logical
# tensor (apply: the function of an element and the row), options).
AT_MORE_CASES = [
    ("set", "img", "id % 4", lambda r: (r % 4,), "0", lambda r, x: 0, {"mode": "drop"}),
    ("add", "i64", "id - 4", lambda r: (r - 4,), "100", lambda r, x: 100, {}),
    ("add", "i64", "[0, id, 0]", lambda r: (np.array([0, r, 0]),), "1", lambda r, x: 1, {}),
    ("set", "b", "id % 3", lambda r: (r % 3,), "false", lambda r, x: False, {"mode": "clip"}),
    ("divide", "i64", "id % 2", lambda r: (r % 2,), "2", lambda r, x: 2, {}),
    ("power", "f32", "id % 2", lambda r: (r % 2,), "2", lambda r, x: 2, {}),
    ("min", "u", "id - 3", lambda r: (r - 3,), "-1000", lambda r, x: -1000, {"mode": "clip"}),
    ("add", "img", "id % 4", lambda r: (r % 4,), "200", lambda r, x: 200, {}),  # overflows
    ("set", "f32", "'1000000, 0'", "1000000, 0", "1", lambda r, x: 1, {}),  # dropped in every row
    # A variable-shape y: broadcast into each row's x[idx].
    ("max", "img", "id % 4", lambda r: (r % 4,), "tensor_get(img, '0, :1')", lambda r, x: x[0, :1],
     {"mode": "drop"}),
    ("add", "f32", "'::-1'", "::-1", "tensor_get(f32, '0:1')", lambda r, x: x[0:1], {}),
    ("add", "f32", "'0'", "0", "f32", lambda r, x: x, {}),  # (2, 3) into (3,): row 0
    ("subtract", "f64", "'...'", "...", "f64", lambda r, x: x, {}),  # permuted x and y
    ("add", "u", "'...'", "...", "u", lambda r, x: x, {}),  # a fixed-shape result
    ("set", "perm", "'0'", "0", "tensor_get(perm, '-1')", lambda r, x: x[-1], {"mode": "clip"}),
    # apply: a named function, a lambda (capturing a column), once per occurrence.
    ("apply", "f32", "'0'", "0", "'abs'", lambda r: abs, {}),
    ("apply", "i64", "'-1'", "-1", "v -> v + id", lambda r: (lambda a: a + r), {}),
    ("apply", "img", "'...'", "...", "v -> v + id * 50", lambda r: (lambda a: a + r * 50), {}),  # overflows
    ("apply", "img", "id % 4", lambda r: (r % 4,), "v -> v + 1", lambda r: (lambda a: a + 1),
     {"mode": "drop"}),
    ("apply", "u", "'[0, 0], 1'", "[0, 0], 1", "v -> v - 1", lambda r: (lambda a: a - 1), {}),
    ("apply", "perm", "tensor([id % 2, 0], [2])", lambda r: (np.array([r % 2, 0]),), "'negative'",
     lambda r: (lambda a: -a), {}),
]


# A fixed-shape x with a variable-shape y: the rows of `u` (every one (3, 2) logically, and
# permuted) as `tensor_to_fixed` makes them, y broadcast into each row's x[idx]. (op, idx as
# SQL, key, y as SQL, y of a row (None: NULL)).
FIXED_X_CASES = [
    ("add", "'...'", "...", "u", lambda r: logical("u", r)),
    # (1,) into (2,); row 1's (0,) does not broadcast.
    ("set", "'0'", "0", "tensor_get(i64, '-1:')", lambda r: none_or(logical("i64", r), lambda v: v[-1:])),
    # (1, 1) into (3, 1); row 2's (0, 1) meets a NULL x.
    ("subtract", "':, :1'", ":, :1", "tensor_get(f32, ':1, :1')",
     lambda r: none_or(logical("f32", r), lambda v: v[:1, :1])),
]


def none_or(value, f):
    return None if value is None else f(value)


def fixed_x_cases():
    header = [
        "# A fixed-shape x and a variable-shape y (JAX's x.at[idx].op(y), numpy broadcasting per",
        "# row): the result is fixed-shape.",
        "",
    ]
    return header + [line for case in FIXED_X_CASES for line in fixed_x_case(*case)]


def fixed_x_case(op, idx_sql, key, y_sql, y_of_row):
    """The cases of one FIXED_X_CASES entry: a NULL y row gives NULL."""

    def apply(value, row):
        y = y_of_row(row)
        return None if y is None else jax_update(value, key_of(key), op, y, "promise_in_bounds", None)

    call = f"tensor_at_{op}(tensor_to_fixed(u), {idx_sql}, {y_sql})"
    return row_cases(f"tensor_at_{op}", "u", call, apply)


def per_row(key, result):
    """row_cases' `apply` for an index given as `key` (see AT_GET_CASES): None for a NULL
    index, else `result(value, row, the row's key)`."""

    def apply(value, row):
        k = key_of(key) if isinstance(key, str) else key(row)
        return None if k is None else result(value, row, k)

    return apply


def at_more_cases():
    out = [
        "# tensor_at_get, tensor_at_apply, index columns and variable-shape y on variable-shape",
        "# tensors: JAX's x.at[idx] on every row's logical tensor (emulated with numpy; modes as",
        "# JAX resolves them). Fixed-shape results where every row's result shape is known.",
        "",
    ]
    for name, idx_sql, key, options in AT_GET_CASES:
        mode = options.get("mode", "promise_in_bounds")
        fill = options.get("fill_value")
        wrap = options.get("wrap_negative_indices", True)
        apply = per_row(key, lambda value, _row, k, mode=mode, fill=fill, wrap=wrap:
                        jax_get(value, k, mode, fill, wrap))
        call = f"tensor_at_get({name}, {idx_sql}{options_sql(options)})"
        out += row_cases("tensor_at_get", name, call, apply)
    for op, name, idx_sql, key, y_sql, y_of_row, options in AT_MORE_CASES:
        mode = options.get("mode", "promise_in_bounds")
        if op == "apply":
            apply = per_row(key, lambda value, row, k, mode=mode, fun=y_of_row:
                            jax_update(value, k, "apply", None, mode, fun(row)))
            # tensor_at_apply takes its options by position.
            mode_sql = f", '{options['mode']}'" if "mode" in options else ""
            call = f"tensor_at_apply({name}, {idx_sql}, {y_sql}{mode_sql})"
        else:
            apply = per_row(key, lambda value, row, k, op=op, mode=mode, y=y_of_row:
                            jax_update(value, k, op, y(row, value), mode, None))
            call = f"tensor_at_{op}({name}, {idx_sql}, {y_sql}{options_sql(options)})"
        out += row_cases(f"tensor_at_{op}", name, call, apply)
    return out


# tensor_choose(column, choices..., mode): (column, choices as SQL, the choices of a row as
# numpy (None: the row is NULL), mode). A choice named as the column is the row itself.
CHOOSE_CASES = [
    ("i64", ["i64", "0", "id", "-5"], lambda x, r: [x, 0, r, -5], "wrap"),
    (
        "img",
        ["img", "255", "CASE WHEN id = 3 THEN NULL ELSE arrow_cast(id, 'UInt8') END"],
        lambda x, r: None if r == 3 else [x, 255, r],
        "wrap",
    ),
    ("perm", ["perm", "-1"], lambda x, r: [x, -1], "wrap"),  # permuted a and choice
    ("b", ["10", "id"], lambda x, r: [10, r], "raise"),  # a boolean index
    ("i64", ["0", "1"], lambda x, r: [0, 1], "raise"),
    ("img", ["[7, 8, 9]"], lambda x, r: [7, 8, 9], "clip"),  # one list literal
]


def choose_cases():
    out = [
        "# tensor_choose(a, choices..., mode) with a variable-shape a: numpy's choose on every",
        "# row's logical tensor.",
        "",
    ]
    for name, choices_sql, choices_of_row, mode in CHOOSE_CASES:

        def apply(value, row, choices_of_row=choices_of_row, mode=mode):
            choices = choices_of_row(value, row)
            if choices is None:
                return None
            try:
                return np.choose(value.astype(np.int64), choices, mode=mode)
            except ValueError:
                bad = next(int(v) for v in value.reshape(-1) if not 0 <= v < len(choices))
                return (
                    f"invalid entry in choice array: a = {bad}{{where}} is not in "
                    f"[0, {len(choices) - 1}] (mode 'raise'; there are {len(choices)} choices)"
                )

        call = f"tensor_choose({name}, {', '.join(choices_sql)}, '{mode}')"
        out += row_cases("tensor_choose", name, call, apply)
    return out


def write_slt():
    out = [
        "# Generated by tests/data/make_varshape_fixtures.py: do not edit. Expected values are",
        "# numpy's (shape, size and tolist of each row's logical tensor, physical.transpose(",
        "# permutation)); the column is pyarrow's, written by its C++ Parquet writer.",
        "",
    ]
    for name in CASES:
        rows = [logical(name, row) for row in range(ROWS)]
        out += [
            f"# {name}: {CASES[name][2] or 'no metadata'}",
            "query ITIIT",
            f"SELECT id, tensor_shape({name}), tensor_ndim({name}), tensor_size({name}), "
            f"tensor_to_string({name}) FROM '{FILE}' ORDER BY id;",
            "----",
        ]
        for row, value in enumerate(rows):
            if value is None:
                out.append(f"{row} NULL NULL NULL NULL")
            else:
                shape = "[" + ", ".join(str(d) for d in value.shape) + "]"
                out.append(f"{row} {shape} {value.ndim} {value.size} {slt_value(value)}")
        # The column itself displays nested, as the CLI prints it.
        out += [
            "",
            "query ITT",
            f"SELECT id, tensor_to_list({name}), {name} FROM '{FILE}' ORDER BY id;",
            "----",
        ]
        out += [f"{row} {slt_value(value)} {slt_value(value)}" for row, value in enumerate(rows)]
        out += ["", *constructor_cases(name, rows), *to_fixed_cases(name, rows)]
    SLT.write_text(
        "\n".join(out + get_cases() + dynamic_get_cases() + reshape_cases() + at_cases()
        + choose_cases() + at_more_cases() + fixed_x_cases())
    )


def write_bad_files():
    """Files whose rows contradict their type (pyarrow's from_storage does not check them):
    a row whose shape needs more values than its data holds, a row off its uniform_shape,
    a negative dimension."""
    bad = {
        "varshape_short_row": ({}, [[2, 2], [2, 2]], [[1, 2, 3, 4], [5, 6, 7]]),
        "varshape_not_uniform": ({"uniform_shape": [2, None]}, [[2, 1], [1, 2]], [[1, 2], [3, 4]]),
        "varshape_negative_dim": ({}, [[1, 1], [-1, 2]], [[1], []]),
    }
    for stem, (metadata, shapes, data) in bad.items():
        tensor_type = registered_type(pa.int32(), 2, metadata)
        storage = pa.array(
            [{"data": d, "shape": s} for d, s in zip(data, shapes)], type=tensor_type.storage_type
        )
        table = pa.table(
            {
                "id": pa.array(range(len(shapes)), type=pa.int32()),
                "t": pa.ExtensionArray.from_storage(tensor_type, storage),
            }
        )
        pq.write_table(table, HERE / "bad" / f"{stem}.parquet")


def main():
    write_files()
    write_slt()
    write_bad_files()


if __name__ == "__main__":
    main()
