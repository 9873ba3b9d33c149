#!/usr/bin/env python3
"""Generates sql/tensor_search_generated.slt: the searching, top-k and set functions
(tensor_topk, tensor_nonzero, tensor_searchsorted, tensor_unique_values, _counts, _inverse,
_all) and numpy's hstack, vstack and the standard's concat, whose expected results are numpy's
on the same data.

    python3 tests/data/make_search_fixtures.py      # numpy >= 2.0, pyarrow

Written as make_array_api_fixtures.py writes its cases (make_shape_fixtures.py's Writer):
tables of rows (one NULL), stored permuted where the case says, each row's expected value
numpy's function of its logical array; numpy's message where numpy raises. Variable shapes:
the columns of tests/data/varshape_along.parquet (pyarrow's writer).

The references:
- top-k: numpy has none; the expected values are the first k of the array API standard's
  sort / argsort with `descending` (make_reduce_fixtures.array_api_sort: numpy's stable sort,
  descending as flip(sort(flip(x)))), which is torch.topk(sorted=True)'s order with ties in
  index order (jax.lax.top_k's);
- unique_*: numpy 2's np.unique(x, return_index, return_inverse, return_counts,
  equal_nan=False) on the flattened row (numpy 2.3's unique_values may come unsorted);
- the struct results are read one field at a time (`['values']`).
"""

from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
from fixture_format import ARROW
from make_reduce_fixtures import VARSHAPE, array_api_sort, variable_rows
from make_shape_fixtures import DTYPES, Writer, arrow_type, rows_of, value_sql

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "sql" / "tensor_search_generated.slt"

# Each function's options in order.
OPTIONS = {
    "topk": ["k", "axis", "largest"],
    "searchsorted": ["side"],
    "nonzero": [],
    "hstack": [],
    "vstack": [],
    "concat": ["axis"],
    "bincount": ["weights", "minlength"],
    "one_hot": ["num_classes", "dtype"],
    "argpartition": ["kth", "axis"],
}
# The functions whose result is variable-shape (the field read, for the unique ones).
VARIABLE = {"nonzero", "bincount", "unique_values", "unique_counts.values", "unique_counts.counts",
            "unique_all.values", "unique_all.indices", "unique_all.counts",
            "unique_inverse.values"}


def unique_parts(a):
    """numpy 2's unique_all of `a` (equal_nan=False): values (first occurrences, so -0.0 or
    0.0 as it came first), indices, inverse_indices (a's shape), counts."""
    flat = a.reshape(-1)
    _, index, inverse, counts = np.unique(flat, return_index=True, return_inverse=True,
                                          return_counts=True, equal_nan=False)
    return {"values": flat[index], "indices": index.astype(np.int64),
            "inverse_indices": inverse.reshape(a.shape).astype(np.int64),
            "counts": counts.astype(np.int64)}


def top_k(a, k, axis, largest):
    if a.ndim == 0:
        raise ValueError("top_k needs at least one dimension; x is 0-d")
    axis = np.lib.array_utils.normalize_axis_index(axis, a.ndim)
    n = a.shape[axis]
    if k > n:
        raise ValueError(f"k argument to top_k must be no larger than the length of the axis; "
                         f"{k} vs {n}")
    order = array_api_sort("argsort", a, axis, largest)
    order = np.take(order, np.arange(k), axis=axis)
    return order, np.take_along_axis(a, order, axis=axis)


def numpy_call(function, arrays, options):
    """numpy's function of the arrays; `options`: {option: value} as written in SQL."""
    a = arrays[0]
    if function.startswith("topk."):
        indices, values = top_k(a, options["k"], options.get("axis", -1),
                                options.get("largest", True))
        return values if function == "topk.values" else indices.astype(np.int64)
    if function == "argpartition.parts":
        # What numpy promises of argpartition: each kth element where a sort puts it, the parts
        # around it holding what the sort puts there. Checked as numpy's sort of x (the SQL
        # sorts each part of the partitioned x and joins them with the kth element).
        axis = np.lib.array_utils.normalize_axis_index(options.get("axis", -1), a.ndim)
        k = np.lib.array_utils.normalize_axis_index(options["kth"], a.shape[axis])
        np.argpartition(a, options["kth"], axis=axis)  # numpy's errors
        del k
        return np.sort(a, axis=axis)
    if function == "argpartition.first":
        # The kth = 0 element along axis 0 (the smallest), and the partitioned x sorted.
        return np.sort(a, axis=0)[:1]
    if function == "argpartition.sorted":
        return np.sort(a, axis=0)
    if function == "argpartition.errors":
        return np.argpartition(a, options["kth"], axis=options.get("axis", -1)).astype(np.int64)
    if function == "nonzero":
        return np.array(np.nonzero(a), dtype=np.int64).reshape(a.ndim, -1)
    if function == "searchsorted":
        if a.ndim != 1:
            raise ValueError("object too deep for desired array")
        return np.searchsorted(a, arrays[1], side=options.get("side", "left")).astype(np.int64)
    if function.startswith("unique_"):
        name, _, field = function.partition(".")
        return unique_parts(a)[field or "values"]
    if function == "bincount":
        if a.ndim != 1:
            raise ValueError("object too deep for desired array")
        w = arrays[1] if len(arrays) > 1 else None
        return np.bincount(a, weights=w, minlength=options.get("minlength", 0))
    if function == "one_hot":
        # jax.nn.one_hot(x, n, dtype): (x[..., None] == arange(n)), float32 by default.
        n = options["num_classes"]
        return (a[..., None] == np.arange(n)).astype(options.get("dtype", "float32"))
    if function == "hstack":
        return np.hstack(arrays)
    if function == "vstack":
        return np.vstack(arrays)
    if function == "concat":
        return np.concatenate(arrays, axis=options.get("axis", 0))
    raise ValueError(function)


def sql_value(v):
    if isinstance(v, str):
        return f"'{v}'"
    if isinstance(v, bool):
        return "true" if v else "false"
    return value_sql(v)


def parts_sql(x, options):
    """x partitioned by tensor_argpartition, each part around kth sorted, joined again."""
    axis, kth, n = options.get("axis", -1), options["kth"], options["n"]
    k = kth % n
    p = f"tensor_take_along_axis({x}, tensor_argpartition({x}, {kth}, axis => {axis}), {axis})"
    left = ", ".join(str(j) for j in range(k))
    right = ", ".join(str(j) for j in range(k + 1, n))
    return (f"tensor_concatenate(tensor_sort(tensor_take({p}, [{left}], axis => {axis}), "
            f"axis => {axis}), tensor_take({p}, [{k}], axis => {axis}), "
            f"tensor_sort(tensor_take({p}, [{right}], axis => {axis}), axis => {axis}), "
            f"axis => {axis})")


def call_sql(function, xs, options, keyword):
    """The call: the first option positional, the others as `name => value` (all
    positional when not `keyword`); a struct's field read with ['field']."""
    if function == "argpartition.parts":
        return parts_sql(xs[0], options)
    if function == "argpartition.errors":
        function = "argpartition"
    if function in ("argpartition.first", "argpartition.sorted"):
        x = xs[0]
        p = f"tensor_take_along_axis({x}, tensor_argpartition({x}, 0, 0), 0)"
        if function == "argpartition.first":
            return f"tensor_take({p}, [0], axis => 0)"
        return f"tensor_sort({p}, axis => 0)"
    name, _, field = function.partition(".")
    args = list(xs)
    for k, option in enumerate(OPTIONS.get(name, [])):
        if option not in options:
            continue
        v = sql_value(options[option])
        args.append(v if k == 0 or not keyword else f"{option} => {v}")
    call = f"tensor_{name}({', '.join(args)})"
    return f"{call}['{field}']" if field else call


class SearchWriter(Writer):
    def __init__(self):
        super().__init__("fixed")
        self.lines[0] = "# Generated by tests/data/make_search_fixtures.py from numpy; do not edit."
        self.numpy_call = numpy_call
        self.call_sql = call_sql
        self.function = None
        self.arrow_type = self.result_type

    def table_case(self, function, inputs, option="omit", perms=None, keyword=True):
        self.function = function
        super().table_case(function, inputs, option, perms, keyword)

    def error(self, function, message, sql, where=""):
        super().error(function.partition(".")[0], message, sql, where)

    def result_type(self, result):
        if self.function in VARIABLE:
            return (f'Struct("data": List({ARROW[result.dtype]}), '
                    f'"shape": FixedSizeList({result.ndim} x Int32))')
        return arrow_type(result)


def special_rows(rng, dtype, shape):
    """Two rows (and a NULL) with repeats, zeros and, for floats, NaN and -0.0."""
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        rows = [rng.random(shape) < 0.3, rng.random(shape) < 0.7]
    elif np.issubdtype(dtype, np.integer):
        low = 0 if np.issubdtype(dtype, np.unsignedinteger) else -2
        rows = [rng.integers(low, 3, shape).astype(dtype) for _ in range(2)]
    else:
        pool = np.array([-1.5, 0.0, -0.0, 2.0, np.nan, 7.25, -np.inf], dtype=dtype)
        rows = [pool[rng.integers(0, len(pool), shape)] for _ in range(2)]
    return [rows[0], None, rows[1]]


def topk_cases(w, rng):
    w.comment("topk: values and indices, every element type, on [2, 3, 4] rows (one NULL) "
              "with repeats (and NaN, -0.0 in floats); k, axis, largest.")
    for dtype in DTYPES:
        x = special_rows(rng, dtype, (2, 3, 4))
        for o in [{"k": 2}, {"k": 1, "axis": 0}, {"k": 3, "axis": 1, "largest": False},
                  {"k": 0}, {"k": 4, "axis": -1, "largest": True}]:
            for part in ["topk.values", "topk.indices"]:
                w.table_case(part, [x], o)
    w.comment("Permuted, 1-d, empty and 1-element tensors; positional options.")
    x = special_rows(rng, np.float32, (2, 3, 4))
    for perm in [[2, 0, 1], [1, 2, 0]]:
        for part in ["topk.values", "topk.indices"]:
            w.table_case(part, [x], {"k": 2, "axis": 1}, perms=[perm])
            w.table_case(part, [x], {"k": 3, "axis": 2, "largest": False}, perms=[perm])
    for shape, k in [((6,), 4), ((1,), 1), ((0, 3), 2), ((2, 0), 0)]:
        e = [np.zeros(shape, np.int32)] if 0 in shape else special_rows(rng, np.int32, shape)
        for part in ["topk.values", "topk.indices"]:
            w.table_case(part, [e], {"k": k, "axis": -1, "largest": False}, keyword=False)
    w.comment("Errors.")
    m = [np.arange(6, dtype=np.int64).reshape(2, 3)]
    w.table_case("topk.values", [m], {"k": 4})
    w.table_case("topk.values", [m], {"k": 1, "axis": 2})
    table = pq.read_table(ROOT / VARSHAPE)
    w.comment("Variable-shape tensors: each row in its own shape.")
    for column in ["f32", "perm", "u8u", "b", "uni", "csp"]:
        r = variable_rows(table, column)
        for part in ["topk.values", "topk.indices"]:
            w.variable_case(part, [column], [r], {"k": 0, "axis": 0})
            if column not in ("f32", "csp"):  # rows with an empty axis 0 (below)
                w.variable_case(part, [column], [r], {"k": 1, "axis": 0, "largest": False})
    r = variable_rows(table, "u8u")
    w.variable_case("topk.indices", ["u8u"], [r], {"k": 2, "axis": 0})
    w.comment("A row shorter than k: the error names the row.")
    r = variable_rows(table, "f32")
    w.variable_case("topk.values", ["f32"], [r], {"k": 2, "axis": 0})
    r = variable_rows(table, "csp")
    w.variable_case("topk.indices", ["csp"], [r], {"k": 1, "axis": 1})


def nonzero_cases(w, rng):
    w.comment("nonzero: every element type (NaN is not zero, -0.0 is), as numpy's tuple "
              "stacked into [ndim, count].")
    for dtype in DTYPES:
        for shape in [(2, 3, 4), (5,)]:
            w.table_case("nonzero", [special_rows(rng, dtype, shape)], {})
    x = special_rows(rng, np.int8, (2, 3, 4))
    for perm in [[2, 0, 1], [1, 2, 0]]:
        w.table_case("nonzero", [x], {}, perms=[perm])
    for shape in [(0, 3), (2, 0), (1,)]:
        w.table_case("nonzero", [[np.ones(shape, np.float64)]], {})
    table = pq.read_table(ROOT / VARSHAPE)
    w.comment("Variable-shape tensors.")
    for column in ["f32", "perm", "u8u", "b", "i64v", "uni", "csp"]:
        w.variable_case("nonzero", [column], [variable_rows(table, column)], {})


def searchsorted_cases(w, rng):
    w.comment("searchsorted: sorted 1-d x1 (NaN at the end of float rows), x2 of any shape, "
              "both sides, numpy's common type.")
    pairs = [(np.int8, np.int8), (np.int32, np.float64), (np.uint8, np.int16),
             (np.uint64, np.int64), (np.float16, np.float16), (np.float32, np.float32),
             (np.float64, np.int8), (np.bool_, np.bool_)]
    for a_type, v_type in pairs:
        a = [None if r is None else np.sort(r) for r in special_rows(rng, a_type, (7,))]
        a = [a[0], a[2], a[1]]  # the NULL row last, so x2's NULL row meets a valid x1
        for shape in [(2, 3), (4,)]:
            v = special_rows(rng, v_type, shape)
            for o in [{}, {"side": "right"}, {"side": "left"}]:
                w.table_case("searchsorted", [a, v], o)
    a = [np.sort(r) for r in special_rows(rng, np.float32, (6,)) if r is not None]
    v = [r for r in special_rows(rng, np.float32, (2, 3, 4)) if r is not None]
    for perm in [[2, 0, 1], [1, 2, 0]]:
        w.table_case("searchsorted", [a, v], {"side": "right"}, perms=[None, perm])
    # One row each: arrow-rs's sort (ORDER BY) of more than one row of a 0-element
    # FixedSizeList loses the rows' count.
    w.table_case("searchsorted", [[np.zeros((0,), np.float64)], [np.array([1.0, 2.0])]], {})
    w.table_case("searchsorted", [[np.array([1, 5, 9])], [np.zeros((0, 2), np.int64)]], {})
    w.comment("Errors.")
    m = [np.arange(6, dtype=np.int64).reshape(2, 3)]
    w.table_case("searchsorted", [m, [np.array([1, 2])]], {})
    table = pq.read_table(ROOT / VARSHAPE)
    w.comment("Variable-shape x2 (each row in its own shape) and x1.")
    sorted_x1 = np.array([-1.5, 0.0, 0.5, 2.0, 7.0], dtype=np.float32)
    for column in ["f32", "perm", "u8u", "csp"]:
        r = variable_rows(table, column)
        same = {rid: sorted_x1 for rid in r}
        w.variable_case("searchsorted", ["[-1.5, 0.0, 0.5, 2.0, 7.0]", column], [same, r],
                        {"side": "right"})
    r = variable_rows(table, "i64v")
    sorted_rows = {rid: None if v is None else np.sort(v) for rid, v in r.items()}
    w.variable_case("searchsorted", ["tensor_sort(i64v)", "[0, 50, -20]"],
                    [sorted_rows, {rid: np.array([0, 50, -20]) for rid in r}], {})


def unique_cases(w, rng):
    w.comment("unique_values, unique_counts, unique_inverse, unique_all: every element type "
              "with repeats (floats: NaN distinct, -0.0 equal to 0.0), each field.")
    fields = ["unique_values", "unique_counts.values", "unique_counts.counts",
              "unique_inverse.values", "unique_inverse.inverse_indices", "unique_all.values",
              "unique_all.indices", "unique_all.inverse_indices", "unique_all.counts"]
    for dtype in DTYPES:
        x = special_rows(rng, dtype, (2, 3, 4))
        for f in ["unique_values", "unique_all.indices", "unique_all.inverse_indices",
                  "unique_all.counts"]:
            w.table_case(f, [x], {})
    x = special_rows(rng, np.float64, (3, 4))
    for f in fields:
        w.table_case(f, [x], {})
    w.comment("Permuted, 1-d, empty and 1-element tensors.")
    x = special_rows(rng, np.int16, (2, 3, 4))
    for perm in [[2, 0, 1], [1, 2, 0]]:
        for f in ["unique_values", "unique_all.indices", "unique_inverse.inverse_indices"]:
            w.table_case(f, [x], {}, perms=[perm])
    for shape in [(0, 3), (1,), (6,)]:
        e = [np.zeros(shape, np.float32)] if 0 in shape else special_rows(rng, np.float32, shape)
        for f in ["unique_values", "unique_all.counts", "unique_inverse.inverse_indices"]:
            w.table_case(f, [e], {})
    table = pq.read_table(ROOT / VARSHAPE)
    w.comment("Variable-shape tensors.")
    for column in ["f32", "perm", "u8u", "b", "i64v", "csp"]:
        r = variable_rows(table, column)
        for f in ["unique_values", "unique_all.indices", "unique_inverse.inverse_indices",
                  "unique_counts.counts"]:
            w.variable_case(f, [column], [r], {})


def stack_cases(w, rng):
    w.comment("hstack, vstack (numpy's atleast_1d / atleast_2d, then concatenate) and the "
              "standard's concat, on mixed element types and shapes.")
    for a_shape, b_shape in [((3,), (2,)), ((2, 3), (2, 1)), ((2, 3, 4), (2, 1, 4)), ((), (3,)),
                             ((), ())]:
        w.table_case("hstack", [rows_of(rng, np.int16, a_shape),
                                rows_of(rng, np.float32, b_shape)], {})
    for a_shape, b_shape in [((3,), (3,)), ((3,), (2, 3)), ((2, 3), (1, 3)),
                             ((2, 3, 4), (1, 3, 4)), ((), ()), ((), (1,))]:
        w.table_case("vstack", [rows_of(rng, np.uint8, a_shape),
                                rows_of(rng, np.int8, b_shape)], {})
    x = rows_of(rng, np.float64, (2, 3))
    w.table_case("hstack", [x, rows_of(rng, np.bool_, (3, 2))], {}, perms=[None, [1, 0]])
    w.table_case("vstack", [x, rows_of(rng, np.int64, (3, 2))], {}, perms=[[1, 0], [1, 0]])
    w.table_case("concat", [x, rows_of(rng, np.int32, (2, 1))], {"axis": 1})
    w.table_case("concat", [x, rows_of(rng, np.int32, (1, 3))], {})
    w.comment("Errors, in numpy's words.")
    w.table_case("hstack", [rows_of(rng, np.int16, (2, 3)), rows_of(rng, np.int16, (3, 1))], {})
    w.table_case("vstack", [rows_of(rng, np.int16, (3,)), rows_of(rng, np.int16, (2,))], {})
    w.table_case("hstack", [rows_of(rng, np.int16, (3,)), rows_of(rng, np.int16, (2, 2))], {})
    table = pq.read_table(ROOT / VARSHAPE)
    w.comment("Variable-shape tensors.")
    r = variable_rows(table, "uni")
    w.variable_case("hstack", ["uni", "uni"], [r, r], {})
    w.variable_case("vstack", ["uni", "uni"], [r, r], {})
    r = variable_rows(table, "i64v")
    w.variable_case("vstack", ["i64v", "i64v"], [r, r], {})
    w.variable_case("hstack", ["i64v", "i64v"], [r, r], {})


def count_cases(w, rng):
    w.comment("bincount: counts (int64) or weight sums (float64), minlength; one_hot: "
              "jax.nn.one_hot's (x[..., None] == arange(n)), float32 unless dtype says.")
    for dtype in [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
                  np.bool_]:
        x = [rng.integers(0, 6, 7).astype(dtype), None, rng.integers(0, 3, 7).astype(dtype)]
        w.table_case("bincount", [x], {})
        w.table_case("bincount", [x], {"minlength": 9})
        x2 = [rng.integers(-1, 5, (2, 3)).astype(dtype), None,
              rng.integers(0, 3, (2, 3)).astype(dtype)]
        w.table_case("one_hot", [x2], {"num_classes": 4})
        w.table_case("one_hot", [x2], {"num_classes": 2, "dtype": "int64"})
    x = [np.array([0, 1, 1, 4]), None, np.array([2, 2, 0, 0])]
    for wt in [np.float64, np.float32, np.int32]:
        weights = [rng.standard_normal(4).astype(wt) if wt != np.int32
                   else rng.integers(-5, 5, 4).astype(wt), np.ones(4, wt), None]
        w.table_case("bincount", [x, weights], {})
    w.table_case("one_hot", [rows_of(rng, np.int16, (2, 3))], {"num_classes": 3},
                 perms=[[1, 0]])
    w.table_case("one_hot", [[np.zeros((0,), np.int64)]], {"num_classes": 3})
    w.table_case("bincount", [[np.zeros((0,), np.int64)]], {})
    w.comment("Errors, in numpy's words.")
    w.table_case("bincount", [[np.array([1, -1, 2])]], {})
    w.table_case("bincount", [[np.zeros((2, 2), np.int64)]], {})
    w.table_case("bincount", [[np.array([1, 2], np.uint64)]], {})
    w.table_case("bincount", [[np.array([1.0, 2.0])]], {})
    table = pq.read_table(ROOT / VARSHAPE)
    w.comment("Variable-shape tensors.")
    r = variable_rows(table, "i64v")
    w.variable_case("one_hot", ["i64v"], [r], {"num_classes": 3, "dtype": "bool"})
    r = variable_rows(table, "u8u")
    w.variable_case("one_hot", ["u8u"], [r], {"num_classes": 5})
    r = {k: None if v is None else np.abs(v) % 7 for k, v in variable_rows(table, "i64v").items()}
    w.variable_case("bincount", ["tensor_abs(i64v) % 7"], [r], {"minlength": 2})


def partition_cases(w, rng):
    w.comment("argpartition: each kth element where numpy's sort puts it and each part holding "
              "what the sort puts there (the order within a part is the implementation's, as "
              "numpy's is): the partitioned x, each part sorted, is numpy's sort of x.")
    for dtype in DTYPES:
        x = rows_of(rng, dtype, (2, 3, 4))
        for k, axis in [(0, -1), (2, -1), (-1, 1), (1, 0), (3, 2)]:
            n = (2, 3, 4)[axis]
            w.table_case("argpartition.parts", [x], {"kth": k, "axis": axis, "n": n})
    nan = [np.array([[3.0, np.nan, 1.0, 2.0], [np.nan, np.nan, 0.5, -1.0]]), None,
           np.array([[1.0, 1.0, 1.0, 1.0], [4.0, 3.0, 2.0, 1.0]])]
    for k in [0, 1, 3]:
        w.table_case("argpartition.parts", [nan], {"kth": k, "axis": -1, "n": 4})
    x = rows_of(rng, np.float32, (2, 3, 4))
    for perm in [[2, 0, 1], [1, 2, 0]]:
        w.table_case("argpartition.parts", [x], {"kth": 1, "axis": 1, "n": 3}, perms=[perm])
    table = pq.read_table(ROOT / VARSHAPE)
    w.comment("Variable-shape tensors: the smallest along axis 0 first, the rest a permutation.")
    for column in ["perm", "b", "uni", "u8u"]:
        r = variable_rows(table, column)
        w.variable_case("argpartition.first", [column], [r], {})
        w.variable_case("argpartition.sorted", [column], [r], {})
    w.comment("argpartition itself: numpy's errors.")
    m = [np.arange(6, dtype=np.int64).reshape(2, 3)]
    w.table_case("argpartition.errors", [m], {"kth": 3})
    w.table_case("argpartition.errors", [m], {"kth": -4, "axis": 1})
    w.table_case("argpartition.errors", [m], {"kth": 0, "axis": 2})


def main():
    rng = np.random.default_rng(20261130)
    w = SearchWriter()
    topk_cases(w, rng)
    nonzero_cases(w, rng)
    searchsorted_cases(w, rng)
    unique_cases(w, rng)
    stack_cases(w, rng)
    count_cases(w, rng)
    partition_cases(w, rng)
    w.write(OUT)
    print(f"wrote {OUT.relative_to(ROOT)}: {w.count} cases")


if __name__ == "__main__":
    main()
