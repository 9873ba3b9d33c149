#!/usr/bin/env python3
"""Generates the fixtures of the array API functions added beside numpy's older ones, whose
expected results are numpy's on the same data:

- sql/tensor_manipulate_generated.slt: tensor_roll, _repeat, _tile, _take, _pad, _tril, _triu;
- sql/tensor_cumulative_generated.slt: tensor_cumulative_sum, _cumulative_prod, tensor_diff;
- sql/tensor_divmod_generated.slt: tensor_divmod (its two fields) and tensor_vecdot;
- sql/tensor_vector_norm_generated.slt: tensor_vector_norm (numpy 2's linalg.vector_norm);
- sql/tensor_cross_generated.slt: tensor_cross (numpy 2's linalg.cross) and tensor_kron.

    python3 tests/data/make_array_api_fixtures.py      # numpy >= 2.1, pyarrow

The cases are written as make_shape_fixtures.py writes its own (its Writer, with this file's
numpy side and SQL call): tables of rows (one NULL), stored permuted where the case says, each
row's expected value numpy's function of its logical array, printed as Arrow prints it with
the result's type and shape; numpy's message where numpy raises. Variable shapes: the columns
of tests/data/varshape_along.parquet (pyarrow's writer), each row in its own shape.
"""

from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
from fixture_format import ARROW
from make_reduce_fixtures import VARSHAPE, variable_rows
from make_shape_fixtures import DTYPES, Writer, rows_of, value_sql

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "sql" / "tensor_manipulate_generated.slt"
OUT_CUMULATIVE = ROOT / "sql" / "tensor_cumulative_generated.slt"
OUT_DIVMOD = ROOT / "sql" / "tensor_divmod_generated.slt"
OUT_NORM = ROOT / "sql" / "tensor_vector_norm_generated.slt"
OUT_CROSS = ROOT / "sql" / "tensor_cross_generated.slt"

# Each function's options in order, and numpy's keyword for each.
OPTIONS = {
    "roll": ["shift", "axis"],
    "repeat": ["repeats", "axis"],
    "tile": ["reps"],
    "take": ["indices", "axis"],
    "pad": ["pad_width", "mode", "constant_values"],
    "tril": ["k"],
    "triu": ["k"],
    "cumulative_sum": ["axis", "include_initial"],
    "cumulative_prod": ["axis", "include_initial"],
    "diff": ["n", "axis", "prepend", "append"],
    # diff with tensor columns as prepend (operand 2) and append (operand 3).
    "diff_ends": ["n", "axis"],
    "vecdot": ["axis"],
    "vector_norm": ["axis", "keepdims", "ord"],
    "cross": ["axis"],
    "cross_variable": ["axis"],
    "kron": [],
    "divmod_quotient": [],
    "divmod_remainder": [],
}


def numpy_call(function, arrays, options):
    """numpy's function of one array; `options`: {option: value} as written in SQL."""
    if function.startswith("divmod_"):
        with np.errstate(divide="ignore", invalid="ignore"):  # numpy's 0 (or inf, nan)
            return np.divmod(*arrays)[0 if function == "divmod_quotient" else 1]
    if function == "vecdot":
        return np.vecdot(*arrays, axis=options.get("axis", -1))
    if function in ("cross", "cross_variable"):
        return np.linalg.cross(*arrays, axis=options.get("axis", -1))
    if function == "kron":
        return np.kron(*arrays)
    if function == "vector_norm":
        axis = options.get("axis")
        ord_ = {"inf": np.inf, "-inf": -np.inf}.get(options.get("ord"), options.get("ord", 2))
        return np.linalg.vector_norm(arrays[0], axis=tuple(axis) if isinstance(axis, list) else axis,
                                     keepdims=options.get("keepdims", False), ord=ord_)
    a = arrays[0]
    kw = {k: (tuple(v) if isinstance(v, list) and k == "axis" else v)
          for k, v in options.items()}
    if function == "roll":
        return np.roll(a, kw["shift"], axis=kw.get("axis"))
    if function == "repeat":
        return np.repeat(a, kw["repeats"], axis=kw.get("axis"))
    if function == "tile":
        return np.tile(a, kw["reps"])
    if function == "take":
        return np.take(a, kw["indices"], axis=kw.get("axis"))
    if function == "pad":
        extra = {} if "constant_values" not in kw else {"constant_values": kw["constant_values"]}
        return np.pad(a, kw["pad_width"], mode=kw.get("mode", "constant"), **extra)
    if function in ("tril", "triu"):
        return getattr(np, function)(a, k=kw.get("k", 0))
    if function == "diff":
        return np.diff(a, **kw)
    if function == "diff_ends":
        ends = dict(zip(["prepend", "append"], arrays[1:]))
        return np.diff(a, **kw, **ends)
    if function in ("cumulative_sum", "cumulative_prod"):
        return getattr(np, function)(a, axis=kw.get("axis"),
                                     include_initial=kw.get("include_initial", False))
    raise ValueError(function)


def sql_value(v):
    if isinstance(v, str):
        return f"'{v}'"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list) and v and isinstance(v[0], list):
        return "[" + ", ".join(value_sql(r) for r in v) + "]"
    return value_sql(v)


def call_sql(function, xs, options, keyword):
    """The call: the first option positional, the others as `name => value` (all
    positional when not `keyword`)."""
    args = list(xs)
    if function.startswith("divmod_"):
        return f"tensor_divmod({', '.join(args)})['{function[len('divmod_'):]}']"
    if function == "diff_ends":
        ends = [f"{name} => {x}" for name, x in zip(["prepend", "append"], args[1:])]
        keyed = [f"{name} => {sql_value(options[name])}" for name in OPTIONS[function]
                 if name in options]
        return f"tensor_diff({', '.join([args[0], *keyed, *ends])})"
    if function == "cross_variable":
        # x1 as a variable-shape column (each row's shape read at run time).
        args[0] = f"tensor_to_variable({args[0]})"
        function = "cross"
    for k, name in enumerate(OPTIONS[function]):
        if name not in options:
            continue
        v = sql_value(options[name])
        args.append(v if k == 0 or not keyword else f"{name} => {v}")
    return f"tensor_{function}({', '.join(args)})"


class ManipulateWriter(Writer):
    def __init__(self):
        super().__init__("fixed")
        self.lines[0] = "# Generated by tests/data/make_array_api_fixtures.py from numpy; do not edit."
        self.numpy_call = numpy_call
        self.call_sql = call_sql

    def error(self, function, message, sql, where=""):
        # diff_ends is tensor_diff with tensor ends.
        super().error("diff" if function == "diff_ends" else function, message, sql, where)


def fixed_cases(w, rng):
    w.comment("Every function and element type on [2, 3, 4] rows (one NULL), option forms.")
    for dtype in DTYPES:
        x = rows_of(rng, dtype, (2, 3, 4))
        for o in [{"shift": 1}, {"shift": -5, "axis": 2}, {"shift": [1, 2], "axis": [0, 2]},
                  {"shift": 7, "axis": [1, -1]}, {"shift": [1, 1], "axis": 1}]:
            w.table_case("roll", [x], o)
        for o in [{"repeats": 2}, {"repeats": 3, "axis": 1}, {"repeats": [1, 0, 2], "axis": -2},
                  {"repeats": 0, "axis": 0}]:
            w.table_case("repeat", [x], o)
        for o in [{"reps": 2}, {"reps": [2, 1, 1]}, {"reps": [2, 1, 1, 2]}, {"reps": [0, 1]}]:
            w.table_case("tile", [x], o)
        for o in [{"indices": [0, 23, -1]}, {"indices": 5}, {"indices": [2, 0, 2], "axis": 1},
                  {"indices": -1, "axis": 2}, {"indices": [], "axis": 0},
                  {"indices": [0], "axis": 0}, {"indices": [0, 1, 2]}]:
            w.table_case("take", [x], o)
        for o in [{"pad_width": 1}, {"pad_width": [1, 2], "mode": "edge"},
                  {"pad_width": [[0, 1], [2, 0], [1, 1]], "mode": "reflect"},
                  {"pad_width": [[5, 6]], "mode": "symmetric"},
                  {"pad_width": [3], "mode": "wrap"},
                  {"pad_width": [[1, 0], [0, 0], [0, 2]], "mode": "constant",
                   "constant_values": 1}]:
            w.table_case("pad", [x], o)
        for o in [{}, {"k": 1}, {"k": -2}]:
            w.table_case("tril", [x], o)
            w.table_case("triu", [x], o)
        w.table_case("tril", [rows_of(rng, dtype, (4,))], {})
        w.table_case("triu", [rows_of(rng, dtype, (3,))], {"k": 1})

    w.comment("Permuted inputs: each function sees the logical tensor.")
    for dtype in [np.int16, np.float32, np.bool_]:
        x = rows_of(rng, dtype, (2, 3, 4))
        for perm in [[2, 0, 1], [1, 2, 0]]:
            w.table_case("roll", [x], {"shift": 2}, perms=[perm])
            w.table_case("roll", [x], {"shift": 1, "axis": 0}, perms=[perm])
            w.table_case("repeat", [x], {"repeats": [2, 1, 0, 1], "axis": 2}, perms=[perm])
            w.table_case("repeat", [x], {"repeats": 2}, perms=[perm])
            w.table_case("tile", [x], {"reps": [1, 2, 1]}, perms=[perm])
            w.table_case("take", [x], {"indices": [1, 0]}, perms=[perm])
            w.table_case("take", [x], {"indices": [2, -3], "axis": 1}, perms=[perm])
            w.table_case("pad", [x], {"pad_width": [1, 2], "mode": "symmetric"}, perms=[perm])
            w.table_case("pad", [x], {"pad_width": 1}, perms=[perm])
            w.table_case("tril", [x], {"k": 1}, perms=[perm])
            w.table_case("triu", [x], {}, perms=[perm])

    w.comment("Other shapes: 1-d, 1-element, empty dimensions; positional options; "
              "constant values cast to the element type.")
    for dtype in [np.int32, np.float64, np.uint8, np.bool_]:
        v = rows_of(rng, dtype, (5,))
        w.table_case("roll", [v], {"shift": 12}, keyword=False)
        w.table_case("repeat", [v], {"repeats": [0, 1, 2, 3, 4], "axis": 0}, keyword=False)
        w.table_case("tile", [v], {"reps": 3})
        w.table_case("take", [v], {"indices": [4, 4, -5], "axis": 0}, keyword=False)
        w.table_case("pad", [v], {"pad_width": [0, 3], "mode": "reflect"}, keyword=False)
        w.table_case("pad", [v], {"pad_width": [2, 0], "mode": "constant",
                                  "constant_values": 2.75}, keyword=False)
        w.table_case("pad", [rows_of(rng, dtype, (1,))], {"pad_width": 3, "mode": "reflect"})
        for shape in [(0, 3), (2, 0), (0,)]:
            e = [np.zeros(shape, dtype)]
            w.table_case("roll", [e], {"shift": 2})
            w.table_case("roll", [e], {"shift": 1, "axis": 0})
            w.table_case("repeat", [e], {"repeats": 2, "axis": -1})
            w.table_case("tile", [e], {"reps": [2, 2]})
            w.table_case("take", [e], {"indices": [], "axis": 0})
            w.table_case("pad", [e], {"pad_width": 1})
            w.table_case("pad", [e], {"pad_width": 1, "mode": "edge"})
            w.table_case("tril", [e], {})
    w.table_case("pad", [rows_of(rng, np.int8, (2, 2))], {"pad_width": 1, "mode": "constant",
                                                         "constant_values": -3})
    w.table_case("pad", [rows_of(rng, np.float16, (2,))], {"pad_width": 1,
                                                          "constant_values": 0.1})

    w.comment("Errors, in numpy's words.")
    m = [np.arange(6, dtype=np.int64).reshape(2, 3)]
    for o in [{"shift": 1, "axis": 2}, {"shift": [1, 2, 3], "axis": [0, 1]},
              {"shift": 1, "axis": [0, -3]}]:
        w.table_case("roll", [m], o)
    for o in [{"repeats": -1}, {"repeats": [1, -1], "axis": 0}, {"repeats": [1, 2], "axis": 1},
              {"repeats": 2, "axis": 2}, {"repeats": [1, 2]}]:
        w.table_case("repeat", [m], o)
    w.table_case("tile", [m], {"reps": [2, -1]})
    for o in [{"indices": [6]}, {"indices": -7}, {"indices": [3], "axis": 1},
              {"indices": 0, "axis": -3}]:
        w.table_case("take", [m], o)
    w.table_case("take", [[np.zeros((0, 3), np.int64)]], {"indices": [0], "axis": 0})
    for o in [{"pad_width": -1}, {"pad_width": [[1, 2], [3, 4], [5, 6]]},
              {"pad_width": [1, 2, 3]}, {"pad_width": 1, "mode": "foo"}]:
        w.table_case("pad", [m], o)
    w.table_case("pad", [[np.zeros((0, 3), np.int64)]], {"pad_width": 1, "mode": "wrap"})


def variable_cases(w):
    table = pq.read_table(ROOT / VARSHAPE)
    w.comment("Variable-shape tensors (tests/data/varshape_along.parquet): each row in its "
              "own shape.")
    rows = {c: variable_rows(table, c) for c in ["f32", "perm", "u8u", "b", "i64v", "uni", "csp"]}
    for column, r in rows.items():
        w.variable_case("roll", [column], [r], {"shift": 1})
        w.variable_case("roll", [column], [r], {"shift": -1, "axis": 0})
        w.variable_case("repeat", [column], [r], {"repeats": 2})
        w.variable_case("repeat", [column], [r], {"repeats": 2, "axis": -1})
        w.variable_case("tile", [column], [r], {"reps": [2, 1]})
        w.variable_case("take", [column], [r], {"indices": [0, 0]})
        w.variable_case("pad", [column], [r], {"pad_width": 1})
        w.variable_case("pad", [column], [r], {"pad_width": [0, 2], "mode": "wrap"})
        w.variable_case("tril", [column], [r], {})
        w.variable_case("triu", [column], [r], {"k": -1})
    w.comment("Rows whose shapes numpy refuses: the error names the row.")
    w.variable_case("take", ["f32"], [rows["f32"]], {"indices": [2], "axis": 1})
    w.variable_case("repeat", ["uni"], [rows["uni"]], {"repeats": [1, 2], "axis": 0})
    w.variable_case("repeat", ["f32"], [rows["f32"]], {"repeats": [1, 2], "axis": 0})


def cumulative_cases(w, rng):
    w.comment("cumulative_sum and cumulative_prod: every element type, with and without "
              "include_initial, in the types of numpy's cumsum.")
    for dtype in DTYPES:
        x = rows_of(rng, dtype, (2, 3, 4))
        v = rows_of(rng, dtype, (5,))
        for function in ["cumulative_sum", "cumulative_prod"]:
            for o in [{"axis": 0}, {"axis": -1, "include_initial": True},
                      {"axis": 1, "include_initial": False}]:
                w.table_case(function, [x], o)
            w.table_case(function, [v], {})
            w.table_case(function, [v], {"axis": None, "include_initial": True})
    w.comment("Permuted, empty and 1-element tensors; positional options.")
    for function in ["cumulative_sum", "cumulative_prod"]:
        x = rows_of(rng, np.float32, (2, 3, 4))
        for perm in [[2, 0, 1], [1, 2, 0]]:
            w.table_case(function, [x], {"axis": 1, "include_initial": True}, perms=[perm])
        for shape, axis in [((0, 3), 0), ((2, 0), 1), ((0,), None), ((1,), 0)]:
            e = [np.zeros(shape, np.int32)] if 0 in shape else rows_of(rng, np.int32, shape)
            w.table_case(function, [e], {"axis": axis, "include_initial": True}, keyword=False)
        w.comment("Errors, in numpy's words.")
        m = [np.arange(6, dtype=np.int64).reshape(2, 3)]
        w.table_case(function, [m], {})
        w.table_case(function, [m], {"include_initial": True})
        w.table_case(function, [m], {"axis": 2})
    table = pq.read_table(ROOT / VARSHAPE)
    w.comment("Variable-shape tensors: each row in its own shape.")
    for column in ["f32", "u8u", "b", "uni", "csp"]:
        r = variable_rows(table, column)
        for function in ["cumulative_sum", "cumulative_prod"]:
            w.variable_case(function, [column], [r], {"axis": 0, "include_initial": True})
            w.variable_case(function, [column], [r], {"axis": -1})
    r = variable_rows(table, "i64v")
    w.variable_case("cumulative_sum", ["i64v"], [r], {"include_initial": True})


def diff_cases(w, rng):
    w.comment("diff: every element type, n, axis, prepend and append (numbers: strong, as "
              "numpy's asanyarray makes them).")
    for dtype in DTYPES:
        x = rows_of(rng, dtype, (2, 3, 4))
        for o in [{}, {"n": 2}, {"n": 1, "axis": 0}, {"n": 3, "axis": 1},
                  {"n": 1, "axis": -1, "prepend": 0}, {"n": 2, "axis": 1, "append": 1.5},
                  {"n": 1, "axis": 2, "prepend": True, "append": False}, {"n": 0, "prepend": 3},
                  {"n": 9}]:
            w.table_case("diff", [x], o)
    w.comment("Permuted, empty and 1-element tensors; positional options.")
    x = rows_of(rng, np.float32, (2, 3, 4))
    for perm in [[2, 0, 1], [1, 2, 0]]:
        w.table_case("diff", [x], {"n": 1, "axis": 1}, perms=[perm])
        w.table_case("diff", [x], {"n": 2, "axis": 0, "prepend": 1}, perms=[perm])
    for shape in [(0, 3), (2, 0), (0,), (1,)]:
        e = [np.zeros(shape, np.int32)] if 0 in shape else rows_of(rng, np.int32, shape)
        w.table_case("diff", [e], {"n": 1, "axis": 0}, keyword=False)
        w.table_case("diff", [e], {"n": 1, "axis": -1, "prepend": 5, "append": 7}, keyword=False)
    w.comment("Errors, in numpy's words.")
    m = [np.arange(6, dtype=np.int64).reshape(2, 3)]
    w.table_case("diff", [m], {"n": -1})
    w.table_case("diff", [m], {"n": 1, "axis": 2})
    w.table_case("diff", [m], {"n": 1, "prepend": [1, 2]})
    w.table_case("diff", [m], {"n": 1, "axis": 0, "append": [[1, 2]]})
    w.table_case("diff_ends", [m, [np.arange(3)]], {"n": 1})
    # Their own generator, so that the cases after these draw what they drew before.
    ends_rng = np.random.default_rng(45)
    w.comment("Tensor prepend and append (numpy's array form): joined to x along the axis as "
              "numpy's concatenate joins them, promoted with x.")
    x = rows_of(ends_rng, np.int16, (2, 3, 4))
    w.table_case("diff", [x], {"n": 1, "axis": 2, "prepend": [[[1], [2], [3]], [[4], [5], [6]]]})
    w.table_case("diff", [x], {"n": 2, "axis": 0, "append": [[[0.5] * 4] * 3]})
    w.table_case("diff", [x], {"n": 1, "axis": 1, "prepend": [[[7] * 4]] * 2, "append": 3})
    for dtype, end_dtype in [(np.float32, np.float64), (np.int8, np.uint8), (np.bool_, np.bool_),
                             (np.uint16, np.int32), (np.float16, np.int8)]:
        x = rows_of(ends_rng, dtype, (3, 4))
        w.table_case("diff_ends", [x, rows_of(ends_rng, end_dtype, (3, 2))], {"n": 1, "axis": 1})
        w.table_case("diff_ends", [x, rows_of(ends_rng, end_dtype, (1, 4)),
                                   rows_of(ends_rng, end_dtype, (2, 4))], {"n": 2, "axis": 0})
    x = rows_of(ends_rng, np.float64, (3, 4))
    w.table_case("diff_ends", [x, rows_of(ends_rng, np.float64, (2, 4))], {"n": 1, "axis": 0},
                 perms=[[1, 0], [1, 0]])
    table = pq.read_table(ROOT / VARSHAPE)
    w.comment("Variable-shape tensors: each row in its own shape.")
    for column in ["f32", "perm", "u8u", "b", "i64v", "uni", "csp"]:
        r = variable_rows(table, column)
        w.variable_case("diff", [column], [r], {})
        w.variable_case("diff", [column], [r], {"n": 2, "axis": 0, "prepend": 1})
        w.variable_case("diff", [column], [r], {"n": 1, "axis": -1, "append": 2.5})


def divmod_cases(w, rng):
    w.comment("divmod: numpy's floor_divide and remainder as the struct's two fields, "
              "for pairs of element types, broadcast, permuted and variable-shape operands.")
    pairs = [(np.int8, np.int8), (np.int32, np.int64), (np.uint8, np.int16),
             (np.uint64, np.uint64), (np.float16, np.float16), (np.float32, np.float64),
             (np.int16, np.float32), (np.bool_, np.bool_), (np.bool_, np.uint8)]
    for a, b in pairs:
        x = rows_of(rng, a, (2, 3))
        y = rows_of(rng, b, (2, 3))
        for part in ["divmod_quotient", "divmod_remainder"]:
            w.table_case(part, [x, y], {})
    x = rows_of(rng, np.float64, (2, 3, 4))
    y = rows_of(rng, np.float64, (3, 1))
    for part in ["divmod_quotient", "divmod_remainder"]:
        w.table_case(part, [x, y], {}, perms=[[2, 0, 1], None])
    table = pq.read_table(ROOT / VARSHAPE)
    r = variable_rows(table, "f32")
    for part in ["divmod_quotient", "divmod_remainder"]:
        w.variable_case(part, ["f32", "f32"], [r, r], {})


def vecdot_cases(w, rng):
    w.comment("vecdot: numpy 2's, along an axis of each operand, the rest broadcast; element "
              "types, permuted operands.")
    # Integers and booleans exactly; floats sum in einsum's order, which can differ from numpy's
    # vecdot (pairwise) in the last place, so they are not compared here.
    for dtype in [np.int8, np.int64, np.uint16, np.int32, np.bool_]:
        x = rows_of(rng, dtype, (2, 3, 4))
        w.table_case("vecdot", [x, rows_of(rng, dtype, (2, 3, 4))], {})
        w.table_case("vecdot", [x, rows_of(rng, dtype, (4,))], {})
        w.table_case("vecdot", [x, rows_of(rng, dtype, (3, 4))], {"axis": 1})
        w.table_case("vecdot", [x, rows_of(rng, dtype, (2, 1, 4))], {"axis": 0})
    x = rows_of(rng, np.int16, (2, 3, 4))
    w.table_case("vecdot", [x, rows_of(rng, np.int64, (3, 1))], {"axis": 1},
                 perms=[[2, 0, 1], None])
    w.table_case("vecdot", [x, rows_of(rng, np.int32, (2, 3, 4))], {}, perms=[[1, 2, 0], None])
    w.comment("Errors.")
    w.table_case("vecdot", [x, rows_of(rng, np.int16, (4,))], {"axis": 3})


def vector_norm_cases(w, rng):
    w.comment("vector_norm: numpy 2's linalg.vector_norm over an axis, every axis or several; "
              "ord 2, 1, inf, -inf, 0 and other p; keepdims; integers in float64.")
    for dtype in [np.float64, np.float32, np.float16, np.int8, np.int64, np.uint8, np.bool_]:
        x = rows_of(rng, dtype, (2, 3, 4))
        # (Every axis without keepdims gives a plain number: sql/tensor_reduce.slt.) Other
        # orders p go through pow, whose last bit numpy's SIMD loops may round otherwise
        # (the Python tests compare ord=3 within 1e-12); 0.5 and -1 are numpy's fast paths.
        for o in [{"axis": None, "keepdims": True}, {"axis": 1}, {"axis": -1, "keepdims": True},
                  {"axis": 0, "ord": 1}, {"axis": 2, "ord": "inf"}, {"axis": 1, "ord": "-inf"},
                  {"axis": 0, "ord": 0}, {"axis": -1, "ord": 0.5},
                  {"axis": 2, "ord": -1}, {"axis": None, "keepdims": True, "ord": 1}]:
            w.table_case("vector_norm", [x], o)
        if not np.issubdtype(dtype, np.floating):
            # Several axes: numpy sums a transposed copy in its own order, so exact sums
            # (integers) are compared here.
            w.table_case("vector_norm", [x], {"axis": [0, 2]})
            w.table_case("vector_norm", [x], {"axis": [2, 1], "keepdims": True, "ord": 1})
    w.comment("Permuted, empty and 1-element tensors; numpy's errors.")
    x = rows_of(rng, np.float32, (2, 3, 4))
    for perm in [[2, 0, 1], [1, 2, 0]]:
        w.table_case("vector_norm", [x], {"axis": 1}, perms=[perm])
        w.table_case("vector_norm", [x], {"axis": -1, "ord": 1}, perms=[perm])
    for shape in [(0, 3), (1,)]:
        e = [np.zeros(shape, np.float64)] if 0 in shape else rows_of(rng, np.float64, shape)
        w.table_case("vector_norm", [e], {"axis": 0, "keepdims": True})
        w.table_case("vector_norm", [e], {"axis": 0, "keepdims": True, "ord": "inf"})
    m = [np.arange(6, dtype=np.float64).reshape(2, 3)]
    w.table_case("vector_norm", [m], {"axis": 2})
    w.table_case("vector_norm", [m], {"axis": [0, 0]})
    table = pq.read_table(ROOT / VARSHAPE)
    w.comment("Variable-shape tensors: each row in its own shape.")
    for column in ["f32", "u8u", "i64v", "b", "csp"]:
        r = variable_rows(table, column)
        w.variable_case("vector_norm", [column], [r], {"axis": 0, "keepdims": True})
        w.variable_case("vector_norm", [column], [r], {"axis": -1, "keepdims": True, "ord": 1})


def cross_cases(w, rng):
    w.comment("cross: numpy 2's linalg.cross of 3-vectors along an axis, the rest broadcast; "
              "element types (integers wrap), mixed types, permuted operands, numpy's errors.")
    for dtype in [np.int8, np.int32, np.int64, np.uint8, np.float16, np.float32, np.float64]:
        x = rows_of(rng, dtype, (2, 3))
        w.table_case("cross", [x, rows_of(rng, dtype, (2, 3))], {})
        w.table_case("cross", [x, rows_of(rng, dtype, (3,))], {})
        w.table_case("cross", [rows_of(rng, dtype, (3, 2)), rows_of(rng, dtype, (3, 1))],
                     {"axis": 0})
    for a, b in [(np.int16, np.float32), (np.bool_, np.int8), (np.uint8, np.int8),
                 (np.float16, np.float64)]:
        w.table_case("cross", [rows_of(rng, a, (3,)), rows_of(rng, b, (2, 3))], {})
    x = rows_of(rng, np.float64, (4, 1, 3))
    w.table_case("cross", [x, rows_of(rng, np.float64, (2, 3))], {})
    w.table_case("cross", [x, rows_of(rng, np.float64, (2, 3))], {}, perms=[[2, 0, 1], None])
    y = rows_of(rng, np.int64, (2, 3, 4))
    w.table_case("cross", [y, rows_of(rng, np.int64, (1, 3, 4))], {"axis": 1})
    w.table_case("cross", [y, rows_of(rng, np.int64, (3, 4))], {"axis": -2},
                 perms=[[1, 2, 0], [1, 0]])
    w.table_case("cross", [[np.zeros((0, 3))], [np.zeros((3,))]], {})
    w.comment("Errors.")
    w.table_case("cross", [rows_of(rng, np.float64, (2,)), rows_of(rng, np.float64, (3,))], {})
    w.table_case("cross", [rows_of(rng, np.float64, (2, 3)), rows_of(rng, np.float64, (4, 3))],
                 {})
    w.table_case("cross", [rows_of(rng, np.bool_, (3,)), rows_of(rng, np.bool_, (3,))], {})
    w.table_case("cross", [rows_of(rng, np.int8, (3,)), rows_of(rng, np.int8, (3,))],
                 {"axis": 1})
    table = pq.read_table(ROOT / VARSHAPE)
    w.comment("Variable-shape rows, each in its own shape (numpy's error names the row).")
    fixed_type = w.arrow_type
    w.arrow_type = lambda result: (f"Struct(\"data\": List({ARROW[result.dtype]}), \"shape\": "
                                   f"FixedSizeList({result.ndim} x Int32))")
    x = rows_of(rng, np.float32, (2, 3))
    w.table_case("cross_variable", [x, rows_of(rng, np.float32, (3,))], {})
    w.table_case("cross_variable", [rows_of(rng, np.int16, (3, 2)), rows_of(rng, np.int8, (3, 1))],
                 {"axis": 0})
    w.table_case("cross_variable", [x, rows_of(rng, np.float64, (4, 1, 3))], {},
                 perms=[[1, 0], None])
    w.arrow_type = fixed_type
    r = variable_rows(table, "cs")
    w.variable_case("cross", ["cs", "cs"], [r, r], {"axis": 0})
    r = variable_rows(table, "c1")
    w.variable_case("cross", ["c1", "c1"], [r, r], {})


def kron_cases(w, rng):
    w.comment("kron: numpy's Kronecker product; element types, shapes padded in front, mixed "
              "types (integers wrap, booleans and), permuted and empty operands.")
    for dtype in [np.int8, np.int64, np.uint8, np.float16, np.float32, np.float64, np.bool_]:
        w.table_case("kron", [rows_of(rng, dtype, (2, 3)), rows_of(rng, dtype, (2, 2))], {})
        w.table_case("kron", [rows_of(rng, dtype, (3,)), rows_of(rng, dtype, (2, 2))], {})
    for a, b in [(np.int8, np.float32), (np.uint8, np.int8), (np.bool_, np.int16)]:
        w.table_case("kron", [rows_of(rng, a, (2, 1, 2)), rows_of(rng, b, (3,))], {})
    x = rows_of(rng, np.float64, (2, 3, 2))
    w.table_case("kron", [x, rows_of(rng, np.float64, (2, 2))], {}, perms=[[2, 0, 1], [1, 0]])
    w.table_case("kron", [[np.zeros((0, 2))], [np.ones((2, 2))]], {})
    table = pq.read_table(ROOT / VARSHAPE)
    w.comment("Variable-shape rows, each in its own shape.")
    r = variable_rows(table, "f32")
    w.variable_case("kron", ["f32", "f32"], [r, r], {})
    w.variable_case("kron", ["f32", "i64v"], [r, variable_rows(table, "i64v")], {})


def main():
    rng = np.random.default_rng(20261130)
    w = ManipulateWriter()
    fixed_cases(w, rng)
    variable_cases(w)
    w.write(OUT)
    print(f"wrote {OUT.relative_to(ROOT)}: {w.count} cases")
    w = ManipulateWriter()
    cumulative_cases(w, rng)
    diff_cases(w, rng)
    w.write(OUT_CUMULATIVE)
    print(f"wrote {OUT_CUMULATIVE.relative_to(ROOT)}: {w.count} cases")
    w = ManipulateWriter()
    divmod_cases(w, rng)
    vecdot_cases(w, rng)
    w.write(OUT_DIVMOD)
    print(f"wrote {OUT_DIVMOD.relative_to(ROOT)}: {w.count} cases")
    w = ManipulateWriter()
    vector_norm_cases(w, np.random.default_rng(20261201))
    w.write(OUT_NORM)
    print(f"wrote {OUT_NORM.relative_to(ROOT)}: {w.count} cases")
    w = ManipulateWriter()
    rng = np.random.default_rng(20261202)
    cross_cases(w, rng)
    kron_cases(w, rng)
    w.write(OUT_CROSS)
    print(f"wrote {OUT_CROSS.relative_to(ROOT)}: {w.count} cases")


if __name__ == "__main__":
    main()
