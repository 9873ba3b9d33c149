#!/usr/bin/env python3
"""Generates sql/tensor_numbers_generated.slt: numbers where a tensor is taken, list literals
of mixed numbers and typed `tensor_clip` bounds, each expected value numpy's own.

    python3 tests/data/make_numbers_fixtures.py      # numpy >= 2.0

- A plain number (a literal or a numeric column) given to a reduction, a shape function,
  `tensor_astype` or a creation `_like` function is the 0-d array `np.asarray` makes of it:
  `tensor_sum(5)` is `np.sum(5)`. SQL's integer literal is numpy's int64 (Python's int), its
  float literal float64, `CAST(.. AS TINYINT)` an int8.
- A list literal of mixed numbers takes `np.array`'s type of the same Python values
  (`[3, 4, 6.0]` is float64; `[1, true]` int64; `[CAST(2 AS REAL), 3]` float64).
- `tensor_clip` with a typed or NaN bound or a column: numpy 2's `clip` with the bound a numpy
  scalar of that type (strong, NEP 50).
- `tensor_std`/`tensor_var` with the standard's `correction` (numpy 2's keyword beside `ddof`).

Each case is one query: its value as the CLI prints it and its Arrow type. A 0-d result is a
plain value where the function reduces (a reduction over every axis, `tensor_vector_norm`,
`tensor_ndim`), and a 0-d tensor (`FixedSizeList(1 x T)`) where it keeps an array (`astype`,
`flip`, `_like`), as the function does for a 0-d tensor column. Where numpy raises, the case
expects numpy's message.
"""

from pathlib import Path

import numpy as np
from fixture_format import ARROW, error_regex, fmt

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "sql" / "tensor_numbers_generated.slt"

i8, f32, f64 = np.int8, np.float32, np.float64

# (SQL expression, numpy's value, whether SQL gives a plain value for a 0-d result)
NUMBERS = [
    ("tensor_sum(5)", lambda: np.sum(5), True),
    ("tensor_sum(2.5, keepdims => true)", lambda: np.sum(2.5, keepdims=True), True),
    ("tensor_prod(true)", lambda: np.prod(True), True),
    ("tensor_mean(3)", lambda: np.mean(3), True),
    ("tensor_max(CAST(7 AS TINYINT))", lambda: np.max(i8(7)), True),
    ("tensor_min(-1.5)", lambda: np.min(-1.5), True),
    ("tensor_std(4.0)", lambda: np.std(4.0), True),
    ("tensor_var(CAST(4 AS REAL))", lambda: np.var(f32(4)), True),
    ("tensor_argmax(5)", lambda: np.argmax(5), True),
    ("tensor_any(0)", lambda: np.any(0), True),
    ("tensor_all(2.0)", lambda: np.all(2.0), True),
    ("tensor_cumsum(5)", lambda: np.cumsum(5), False),
    ("tensor_cumulative_sum(5)", lambda: np.cumulative_sum(5), False),
    ("tensor_vector_norm(-3.0)", lambda: np.linalg.vector_norm(-3.0), True),
    ("tensor_reshape(5, [1, 1])", lambda: np.reshape(5, (1, 1)), False),
    ("tensor_reshape(CAST(5 AS SMALLINT), [1])", lambda: np.reshape(np.int16(5), (1,)), False),
    ("tensor_expand_dims(4, 0)", lambda: np.expand_dims(4, 0), False),
    ("tensor_flip(3)", lambda: np.flip(3), False),
    ("tensor_astype(5, 'float32')", lambda: np.asarray(5).astype(np.float32), False),
    ("tensor_astype(1.5, 'int8')", lambda: np.asarray(1.5).astype(np.int8), False),
    ("tensor_astype(true, 'float64')", lambda: np.asarray(True).astype(np.float64), False),
    ("tensor_hstack(1, 2)", lambda: np.hstack([1, 2]), False),
    ("tensor_vstack(1, 2.5)", lambda: np.vstack([1, 2.5]), False),
    ("tensor_zeros_like(7)", lambda: np.zeros_like(7), False),
    ("tensor_full_like(2.5, 1)", lambda: np.full_like(2.5, 1), False),
    ("tensor_ndim(4)", lambda: np.ndim(4), True),
    ("tensor_size(4)", lambda: np.size(4), True),
    ("tensor_sort(3)", lambda: np.sort(3), False),
    ("tensor_concat(1, 2)", lambda: np.concatenate([1, 2]), False),
    ("tensor_diff(5)", lambda: np.diff(5), False),
]

# Lists of mixed numbers, as np.array types the same Python values.
LISTS = [
    ("tensor_max([3, 4, 6.0])", lambda: np.max(np.array([3, 4, 6.0])), True),
    ("tensor_sum([1, true, 2])", lambda: np.sum(np.array([1, True, 2])), True),
    ("tensor_mean([[1, 2], [3, 4.5]], axis => 0)",
     lambda: np.mean(np.array([[1, 2], [3, 4.5]]), axis=0), False),
    ("tensor_astype([1, 2.5], 'float32')",
     lambda: np.array([1, 2.5]).astype(np.float32), False),
    ("tensor_add([CAST(2 AS REAL), 3], 1)", lambda: np.add(np.array([f32(2), 3]), 1), False),
    ("tensor_add([CAST(2 AS TINYINT), CAST(3 AS TINYINT)], 1)",
     lambda: np.add(np.array([i8(2), i8(3)]), 1), False),
    ("tensor_multiply([CAST(2 AS TINYINT), 300], 2)",
     lambda: np.multiply(np.array([i8(2), 300]), 2), False),
    ("tensor_sum([[true, false], [1, 2]], axis => 1)",
     lambda: np.sum(np.array([[True, False], [1, 2]]), axis=1), False),
    ("tensor_max([CAST('NaN' AS DOUBLE), 1])", lambda: np.max(np.array([f64("nan"), 1])), True),
]

# The array API standard's `correction` (numpy 2 takes it beside `ddof`).
A = np.array([[1.0, 2.0, 4.0], [3.0, -1.0, 0.5]])
A_SQL = "[[1.0, 2.0, 4.0], [3.0, -1.0, 0.5]]"
OPTIONS = [
    (f"tensor_std({A_SQL}, correction => 1)", lambda: np.std(A, correction=1), True),
    (f"tensor_var({A_SQL}, 1, false, NULL, 1)", lambda: np.var(A, axis=1, correction=1), False),
    (f"tensor_var({A_SQL}, axis => 0, correction => 2)",
     lambda: np.var(A, axis=0, correction=2), False),
    (f"tensor_nanstd({A_SQL}, correction => 1)", lambda: np.nanstd(A, correction=1), True),
    (f"tensor_std({A_SQL}, ddof => 1, correction => 1)",
     lambda: np.std(A, ddof=1, correction=1), True),
]

# clip bounds that are typed (strong) or NaN.
CLIPS = [
    ("tensor_clip([1.0, 5.0], CAST(2 AS REAL), 3)",
     lambda: np.clip(np.array([1.0, 5.0]), f32(2), 3), False),
    ("tensor_clip(tensor_astype([1, 5], 'float32'), CAST(2 AS REAL), 4)",
     lambda: np.clip(np.array([1, 5], f32), f32(2), 4), False),
    ("tensor_clip(tensor_astype([1, 5], 'float32'), CAST(2 AS DOUBLE), 4)",
     lambda: np.clip(np.array([1, 5], f32), f64(2), 4), False),
    ("tensor_clip(tensor_astype([1, 5], 'float32'), CAST('NaN' AS DOUBLE))",
     lambda: np.clip(np.array([1, 5], f32), f64("nan"), None), False),
    ("tensor_clip([1.0, 5.0], max => CAST('NaN' AS DOUBLE))",
     lambda: np.clip(np.array([1.0, 5.0]), None, f64("nan")), False),
    ("tensor_clip(tensor_astype([1, 5, 9], 'int32'), CAST(2 AS REAL), 6)",
     lambda: np.clip(np.array([1, 5, 9], np.int32), f32(2), 6), False),
    ("tensor_clip(tensor_astype([1, 5, 9], 'int8'), CAST(2 AS SMALLINT), CAST(6 AS SMALLINT))",
     lambda: np.clip(np.array([1, 5, 9], i8), np.int16(2), np.int16(6)), False),
    ("tensor_clip([1, 5, 9], CAST(7 AS BIGINT), CAST(3 AS BIGINT))",
     lambda: np.clip(np.array([1, 5, 9]), np.int64(7), np.int64(3)), False),
    ("tensor_clip(CAST(4 AS REAL), CAST(5 AS REAL))",
     lambda: np.clip(f32(4), f32(5), None), True),
]


def arrow_type(result, plain):
    if result.ndim == 0 and plain:
        return ARROW[result.dtype]
    return f"FixedSizeList({result.size} x {ARROW[result.dtype]})"


class NumbersWriter:
    def __init__(self):
        self.lines = [
            "# Generated by tests/data/make_numbers_fixtures.py from numpy; do not edit.",
            f"# numpy {np.__version__}. Every value is compared exactly.",
        ]
        self.count = 0

    def comment(self, text):
        self.lines += ["", f"# {text}"]

    def case(self, sql, numpy_fn, plain):
        self.count += 1
        query = f"SELECT {sql}, arrow_typeof({sql});"
        function = sql[: sql.index("(")]
        try:
            with np.errstate(all="ignore"):
                result = np.asarray(numpy_fn())
        except (ValueError, TypeError) as e:
            self.lines += ["", f"# numpy raises: {e}",
                           f"query error {function}: {error_regex(str(e), '')}", query]
            return
        self.lines += ["", f"# numpy: {result.dtype}", "query TT", query, "----",
                       f"{fmt(result)} {arrow_type(result, plain)}"]

    def column(self, sql, values, sql_type, numpy_fn, plain):
        """`sql` over a column `v` of `values` (None: NULL) of SQL type `sql_type`, numpy's
        function of each value (a NULL row NULL)."""
        self.count += 1
        rows = ", ".join("(NULL)" if v is None else f"(CAST({v!r} AS {sql_type}))"
                         for v in values)
        query = (f"SELECT {sql}, arrow_typeof({sql}) FROM (VALUES {rows}) t(v);")
        lines = []
        kind = None
        for v in values:
            if v is None:
                lines.append("NULL")
                continue
            result = np.asarray(numpy_fn(v))
            kind = arrow_type(result, plain)
            lines.append(fmt(result))
        self.lines += ["", "query TT rowsort", query, "----"]
        self.lines += sorted(f"{line} {kind}" for line in lines)

    def write(self, path):
        path.write_text("\n".join(self.lines) + "\n")


def main():
    w = NumbersWriter()
    w.comment("Numbers where a tensor is taken: the 0-d array np.asarray makes of them.")
    for sql, fn, plain in NUMBERS:
        w.case(sql, fn, plain)
    w.comment("Numeric columns: each row's number a 0-d array, a NULL row NULL.")
    w.column("tensor_sum(v)", [1, None, 3], "BIGINT", lambda v: np.sum(np.int64(v)), True)
    w.column("tensor_astype(v, 'float32')", [1.5, None, -2.0], "DOUBLE",
             lambda v: np.asarray(v).astype(np.float32), False)
    w.column("tensor_reshape(v, [1, 1])", [7, None], "TINYINT",
             lambda v: np.reshape(i8(v), (1, 1)), False)
    w.column("tensor_mean(v)", [2, None, 5], "INT", lambda v: np.mean(np.int32(v)), True)
    w.comment("List literals of mixed numbers: np.array's type of the same values.")
    for sql, fn, plain in LISTS:
        w.case(sql, fn, plain)
    w.comment("std and var with the standard's correction.")
    for sql, fn, plain in OPTIONS:
        w.case(sql, fn, plain)
    w.comment("clip with typed or NaN bounds: numpy scalars of that type (strong).")
    for sql, fn, plain in CLIPS:
        w.case(sql, fn, plain)
    w.comment("clip with a column bound: each row's bound a numpy scalar of the column's type.")
    w.column("tensor_clip([1, 5, 9], v, 6)", [2, None, 7], "BIGINT",
             lambda v: np.clip(np.array([1, 5, 9]), np.int64(v), 6), False)
    w.column("tensor_clip(tensor_astype([1.5, 5.5], 'float32'), max => v)", [2.0, None, 9.0],
             "REAL", lambda v: np.clip(np.array([1.5, 5.5], f32), None, f32(v)), False)
    w.write(OUT)
    print(f"wrote {OUT.relative_to(ROOT)}: {w.count} cases")


if __name__ == "__main__":
    main()
