#!/usr/bin/env python3
"""Generates the linear-algebra suites from numpy 2:

- sql/tensor_linalg_generated.slt: tensor_matmul, _dot, _inner, _outer, _tensordot, _trace,
  _diagonal on fixed-shape tensors: every element type, numpy's promotion of mixed operands,
  1-d operands, broadcast batch dimensions, NULL rows, empty dimensions, permuted operands,
  numpy's errors for shapes that do not fit;
- sql/tensor_einsum_generated.slt: tensor_einsum (np.einsum(..., optimize=False)): implicit
  and explicit outputs, `...`, repeated labels, one to three operands, errors;
- sql/tensor_linalg_varshape_generated.slt: the same functions on the variable-shape columns
  of tests/data/varshape_along.parquet (pyarrow's writer), each row in its own shape, numbers
  with them, and the vector measures of variable-shape rows with each other, with fixed-shape
  columns and with query vectors;
- sql/tensor_linalg_numbers_generated.slt: numbers (SQL literals, typed literals and numeric
  columns, NULLs) as operands of tensor_dot, _inner, _outer, _tensordot, _einsum and
  _matmul, on either side: np.asarray's types (not weak: int32 with 3 is int64), numpy's
  signed zeros and zero factors, numpy's errors.

    python3 tests/data/make_linalg_fixtures.py      # numpy >= 2, pyarrow

Every comparison is exact. Float operands hold small multiples of 1/2, so every product and
sum is exact in any order (numpy's BLAS sums in blocks; this project's loops in index order):
the values are numpy's to the last bit whatever the order.
"""

import warnings
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
from fixture_format import ARROW, error_regex
from make_reduce_fixtures import arrow_type, fmt, list_sql, literal, variable_rows
from make_reduce_fixtures import sample as reduce_sample

ROOT = Path(__file__).resolve().parents[2]
VARSHAPE = "tests/data/varshape_along.parquet"
DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
          np.float16, np.float32, np.float64, np.bool_]


def sample(rng, dtype, shape):
    """make_reduce_fixtures' integers and booleans; floats: multiples of 1/2 (exact sums)."""
    if np.issubdtype(np.dtype(dtype), np.floating):
        return (rng.integers(-8, 9, shape) / 2).astype(dtype)
    return reduce_sample(rng, dtype, shape)


MEASURES = ("inner_product", "l2_distance", "cosine_similarity")


def measure(function, a, b, axis):
    """The vector measures as the functions define them: float16 and float32 operands in
    float32 (the result in their type), float64 and integers in float64; numpy's broadcast."""
    common = np.result_type(a, b)
    result = common if common in (np.float16, np.float32) else np.dtype(np.float64)
    work = np.float32 if result != np.float64 else np.float64
    np.multiply(a, b)  # numpy's ufunc error for shapes that do not broadcast
    a, b = np.broadcast_arrays(a.astype(work), b.astype(work))
    if a.ndim == 0:
        raise ValueError(f"axis {axis} is out of bounds for array of dimension 0")
    total = lambda x: np.sum(x, axis=axis, dtype=work)
    if function == "inner_product":
        value = total(a * b)
    elif function == "l2_distance":
        value = np.sqrt(total((a - b) * (a - b)))
    else:
        value = total(a * b) / (np.sqrt(total(a * a)) * np.sqrt(total(b * b)))
    value = np.asarray(value).astype(result)
    if function == "cosine_distance":
        # 1 - the similarity, in the result type (DuckDB's array_cosine_distance).
        return np.asarray(result.type(1) - value).astype(result)
    return value


def numpy_value(function, operands, options):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if function in MEASURES + ("cosine_distance",):
            return measure(function, *operands, options.get("axis", -1))
        if function == "einsum":
            return np.asarray(np.einsum(options["subscripts"], *operands, optimize=False))
        if function == "norm":
            ord_ = options.get("ord")
            ord_ = {"inf": np.inf, "-inf": -np.inf}.get(ord_, ord_) if isinstance(ord_, str) else ord_
            axis = options.get("axis")
            axis = tuple(axis) if isinstance(axis, list) else axis
            return np.asarray(np.linalg.norm(operands[0], ord=ord_, axis=axis,
                                             keepdims=options.get("keepdims", False)))
        if function == "tensordot":
            return np.asarray(np.tensordot(*operands, axes=options.get("axes", 2)))
        if function in ("trace", "diagonal"):
            kw = {k: options[k] for k in ("offset", "axis1", "axis2") if k in options}
            return np.asarray(getattr(np, function)(operands[0], **kw))
        return np.asarray(getattr(np, function)(*operands))


def options_sql(options):
    parts = []
    if "ord" in options:
        o = options["ord"]
        parts.append(f"ord => '{o}'" if isinstance(o, str) else f"ord => {o}")
    for key in ("offset", "axis1", "axis2", "axis"):
        if key in options:
            v = options[key]
            shown = "[" + ", ".join(str(a) for a in v) + "]" if isinstance(v, list) else v
            parts.append(f"{key} => {shown}")
    if "keepdims" in options:
        parts.append(f"keepdims => {str(options['keepdims']).lower()}")
    if "axes" in options:
        axes = options["axes"]
        if isinstance(axes, int):
            parts.append(f"axes => {axes}")
        else:
            parts.append("axes => [" + ", ".join(
                "[" + ", ".join(str(a) for a in x) + "]" if isinstance(x, (list, tuple)) else str(x)
                for x in axes) + "]")
    return "".join(", " + p for p in parts)


class Number:
    """A number literal: its SQL and the Python or numpy scalar numpy is given."""

    def __init__(self, sql, value):
        self.sql, self.value = sql, value


class Numbers:
    """A numeric column: one numpy scalar (or None, NULL) per row."""

    def __init__(self, rows):
        self.rows = rows


def tensor_arg(name, rows, perm):
    """The SQL of a tensor operand from column `name` of logical `rows`, stored permuted by
    `perm` (logical = physical.transpose(perm))."""
    first = next(r for r in rows if r is not None)
    physical_shape = first.shape if perm is None else tuple(first.shape[i] for i in np.argsort(perm))
    shape_sql = "[" + ", ".join(str(d) for d in physical_shape) + "]"
    perm_sql = "" if perm is None else ", NULL, [" + ", ".join(str(p) for p in perm) + "]"
    return f"tensor({name}, {shape_sql}{perm_sql})"


def row_sql(a, perm):
    """One row's SQL value of a tensor operand stored permuted by `perm` (NULL for None)."""
    if a is None:
        return "NULL"
    physical = a if perm is None else a.transpose(np.argsort(perm))
    return list_sql(np.ascontiguousarray(physical))


def number_sql(x):
    """A numpy scalar as a SQL value of its Arrow type."""
    return f"arrow_cast({literal(x, x.dtype)}, '{ARROW[np.dtype(x.dtype)]}')"


class Writer:
    def __init__(self, out, what):
        self.out = out
        self.lines = [
            f"# Generated by tests/data/make_linalg_fixtures.py from numpy; do not edit. {what}",
            f"# numpy {np.__version__}. Every value is compared exactly (no tolerance).",
            "",
        ]
        self.count = 0

    def comment(self, text):
        self.lines += ["", f"# {text}"]

    def call(self, function, args, options):
        if function == "einsum":
            return f"tensor_einsum('{options['subscripts']}', {', '.join(args)})"
        return f"tensor_{function}({', '.join(args)}{options_sql(options)})"

    def case(self, function, operand_rows, perms=None, note="", **options):
        """operand_rows: one list of rows per operand (logical arrays; None: a NULL row)."""
        perms = perms or [None] * len(operand_rows)
        count = len(operand_rows[0])
        names = [f"a{k}" for k in range(len(operand_rows))]
        args = [tensor_arg(name, rows, perm) for name, rows, perm in zip(names, operand_rows, perms)]
        values = []
        for r in range(count):
            items = [str(r + 1)]
            for rows, perm in zip(operand_rows, perms):
                items.append(row_sql(rows[r], perm))
            values.append("(" + ", ".join(items) + ")")
        call = self.call(function, args, options)
        empty = any(0 in next(r for r in rows if r is not None).shape for rows in operand_rows)
        order = " ORDER BY r" if count > 1 and not empty else ""
        sql = (f"SELECT r, {call}, arrow_typeof({call}) FROM (VALUES {', '.join(values)}) "
               f"AS t(r, {', '.join(names)}){order};")
        self.expect(function, sql, [[rows[r] for rows in operand_rows] for r in range(count)],
                    note, options)

    def expect(self, function, sql, operands_of_rows, note, options):
        """The case of `sql` (rows numbered from 1): numpy's value of each row's operands
        (None among them: a NULL row) and its type, or numpy's error."""
        self.count += 1
        results = []
        try:
            for ops in operands_of_rows:
                results.append(None if any(o is None for o in ops)
                               else numpy_value(function, ops, options))
        except (ValueError, IndexError, TypeError) as e:
            self.lines += ["", f"# numpy raises: {e} {note}".rstrip(),
                           f"query error tensor_{function}: {error_regex(str(e), '')}", sql]
            return
        shown = next((r for r in results if r is not None), None)
        if shown is None:
            raise ValueError(f"{sql}: every row NULL; give the result type a row")
        self.lines += ["", f"# numpy {function}{options_note(options)}: {shown.dtype} {note}".rstrip(),
                       "query ITT", sql, "----"]
        for r, result in enumerate(results, 1):
            if result is None:
                self.lines.append(f"{r} NULL {arrow_type(shown)}")
            else:
                self.lines.append(f"{r} {fmt(result)} {arrow_type(result)}")

    def variable_case(self, function, columns, rows_of, sql_args=None, constants_first=False,
                      plan_error=False, **options):
        """Variable-shape columns of VARSHAPE; rows_of: {column: {id: array or None}};
        `sql_args`: the SQL of each operand (default: the column names); `constants`: numbers
        or arrays written in `sql_args`, numpy's operands after the columns' (before them with
        `constants_first`); `plan_error`: numpy's error is one of the operands' ranks, found
        when the query is planned (it names no row)."""
        args = list(sql_args or columns)
        call = self.call(function, args, options)
        sql = f"SELECT id, {call} FROM '{VARSHAPE}' ORDER BY id;"
        self.count += 1
        ids = list(rows_of[columns[0]].keys())
        out = []
        for rid in ids:
            ops = [rows_of[c][rid] for c in columns]
            if any(o is None for o in ops):
                out.append(f"{rid} NULL")
                continue
            constants = [np.asarray(x) for x in options.get("constants", [])]
            ops = constants + ops if constants_first else ops + constants
            try:
                result = numpy_value(function, ops, options)
            except (ValueError, IndexError, TypeError) as e:
                where = "" if plan_error else " at row"
                self.lines += ["", f"# numpy raises on row {rid}: {e}",
                               f"query error tensor_{function}: {error_regex(str(e), '')}{where}", sql]
                return
            out.append(f"{rid} {fmt(result)}")
        self.lines += ["", f"# numpy {function}{options_note(options)} of each row of {', '.join(columns)}",
                       "query IT", sql, "----"] + out

    def number_case(self, function, operands, perms=None, note="", **options):
        """Operands: per operand, a list of rows (logical arrays, None: a NULL row), a
        `Number` (a literal) or a `Numbers` (a numeric column). Without columns, one call of
        literals (a literal result)."""
        perms = perms or [None] * len(operands)
        counts = [len(o) if isinstance(o, list) else len(o.rows) for o in operands
                  if not isinstance(o, Number)]
        count = counts[0] if counts else 1
        names, args, columns = [], [], []
        for k, (operand, perm) in enumerate(zip(operands, perms)):
            if isinstance(operand, Number):
                args.append(operand.sql)
                continue
            name = f"a{k}"
            names.append(name)
            if isinstance(operand, Numbers):
                args.append(name)
                columns.append(["NULL" if x is None else number_sql(x) for x in operand.rows])
                continue
            args.append(tensor_arg(name, operand, perm))
            columns.append([row_sql(a, perm) for a in operand])
        call = self.call(function, args, options)
        if names:
            values = ", ".join("(" + ", ".join([str(r + 1)] + [c[r] for c in columns]) + ")"
                               for r in range(count))
            sql = (f"SELECT r, {call}, arrow_typeof({call}) FROM (VALUES {values}) "
                   f"AS t(r, {', '.join(names)}) ORDER BY r;")
        else:
            sql = f"SELECT 1, {call}, arrow_typeof({call});"

        def value(operand, r):
            if isinstance(operand, Number):
                return operand.value
            return operand.rows[r] if isinstance(operand, Numbers) else operand[r]

        self.expect(function, sql, [[value(o, r) for o in operands] for r in range(count)],
                    note, options)

    def write(self):
        self.out.write_text("\n".join(self.lines) + "\n")
        print(f"wrote {self.out.relative_to(ROOT)}: {self.count} cases")


def options_note(options):
    shown = {k: v for k, v in options.items() if k != "constants"}
    return "(" + ", ".join(f"{k}={v!r}" for k, v in shown.items()) + ")" if shown else ""


def two(rng, dtype_a, shape_a, dtype_b, shape_b, null=True):
    a = [sample(rng, dtype_a, shape_a), sample(rng, dtype_a, shape_a)]
    b = [sample(rng, dtype_b, shape_b), sample(rng, dtype_b, shape_b)]
    if null:
        a.insert(1, None)
        b.insert(1, sample(rng, dtype_b, shape_b))
    return [a, b]


def linalg_cases(w, rng):
    w.comment("Every element type: matmul, dot, inner, outer, tensordot, trace, diagonal.")
    for dtype in DTYPES:
        w.case("matmul", two(rng, dtype, (2, 3), dtype, (3, 4)))
        w.case("dot", two(rng, dtype, (2, 3), dtype, (3,)))
        w.case("inner", two(rng, dtype, (2, 3), dtype, (4, 3)))
        w.case("outer", two(rng, dtype, (2,), dtype, (3,)))
        w.case("tensordot", two(rng, dtype, (2, 3, 4), dtype, (3, 4, 2)))
        rows = [sample(rng, dtype, (3, 4)), None, sample(rng, dtype, (3, 4))]
        w.case("trace", [rows])
        w.case("diagonal", [rows])

    w.comment("numpy's promotion of mixed operands.")
    for da, db in [(np.int8, np.uint8), (np.int32, np.float32), (np.uint8, np.float16),
                   (np.int64, np.uint64), (np.bool_, np.int16), (np.float16, np.float32),
                   (np.uint16, np.int32), (np.bool_, np.float64)]:
        w.case("matmul", two(rng, da, (2, 3), db, (3, 2)))
        w.case("dot", two(rng, da, (3,), db, (3,)))
        w.case("outer", two(rng, da, (2,), db, (2,)))

    w.comment("matmul: 1-d operands, broadcast batch dimensions, core mismatches.")
    for sa, sb in [((3,), (3,)), ((3,), (3, 2)), ((2, 3), (3,)), ((4, 2, 3), (3, 2)),
                   ((2, 3), (5, 3, 2)), ((2, 1, 2, 3), (4, 3, 1)), ((3,), (4, 3, 2)),
                   ((4, 2, 3), (3,)), ((1, 2, 3), (4, 3, 2)), ((2, 3), (4, 2)), ((3,), (4,)),
                   ((2, 2, 3), (3, 3, 2)), ((2, 0), (0, 3)), ((0, 3), (3, 2)), ((2, 3), (3, 0))]:
        w.case("matmul", two(rng, np.int32, sa, np.float64, sb, null=0 not in sa + sb))

    w.comment("dot, inner, tensordot: shapes and numpy's errors.")
    for sa, sb in [((3,), (3,)), ((2, 3), (3, 4)), ((2, 3, 4), (5, 4, 2)), ((4,), (4, 2)),
                   ((2, 3), (4,)), ((2, 3), (2, 3)), ((0,), (0,))]:
        w.case("dot", two(rng, np.int16, sa, np.int16, sb, null=0 not in sa))
    for sa, sb in [((3,), (3,)), ((2, 3), (4, 3)), ((2, 3, 4), (5, 4)), ((2, 3), (4,))]:
        w.case("inner", two(rng, np.float32, sa, np.float32, sb))
    for sa, sb, axes in [((2, 3, 4), (3, 4, 5), 2), ((2, 3), (3, 4), 1), ((2, 3), (4, 5), 0),
                         ((2, 3, 4), (4, 3, 5), [[1, 2], [1, 0]]), ((2, 3), (2, 4), [0, 0]),
                         ((2, 3), (3, 4), [[0], [0]]), ((2, 3), (3, 4), 3),
                         ((2, 3), (3, 2), [[-1], [-2]]), ((2, 3), (3, 4), [[0, 1], [0]])]:
        w.case("tensordot", two(rng, np.int64, sa, np.uint8, sb), axes=axes)

    w.comment("trace and diagonal: offsets, axes, empty diagonals, errors.")
    rows3 = [sample(rng, np.int32, (2, 3, 4)), None, sample(rng, np.int32, (2, 3, 4))]
    rows2 = [sample(rng, np.float32, (3, 4)), None, sample(rng, np.float32, (3, 4))]
    for function in ("trace", "diagonal"):
        for opts in [dict(offset=1), dict(offset=-2), dict(offset=5), dict(offset=-3)]:
            w.case(function, [rows2], **opts)
        for opts in [dict(axis1=1, axis2=2), dict(offset=1, axis1=2, axis2=0),
                     dict(axis1=-1, axis2=-3), dict(axis1=0, axis2=0), dict(axis1=0, axis2=3)]:
            w.case(function, [rows3], **opts)
        w.case(function, [[sample(rng, np.int8, (3,)), None]])
        w.case(function, [[sample(rng, np.uint8, (0, 3))]])

    w.comment("Permuted operands (read in logical order).")
    a = [sample(rng, np.int32, (2, 3, 4)), None, sample(rng, np.int32, (2, 3, 4))]
    b = [sample(rng, np.int32, (4, 2)) for _ in range(3)]
    w.case("matmul", [a, b], perms=[[2, 0, 1], [1, 0]])
    w.case("dot", [a, b], perms=[[1, 2, 0], None])
    w.case("inner", [[x if x is None else x[0] for x in a], [y.T.copy() for y in b]],
           perms=[[1, 0], [1, 0]])
    w.case("tensordot", [a, [y.T.copy() for y in b]], perms=[[2, 1, 0], None], axes=[[2], [1]])
    w.case("trace", [a], perms=[[2, 0, 1]], axis1=1, axis2=2)
    w.case("diagonal", [a], perms=[[1, 2, 0]], offset=1, axis1=2, axis2=1)
    w.case("outer", [a, b], perms=[[2, 0, 1], [1, 0]])


def measure_cases(w, rng, functions=MEASURES):
    w.comment("Vector measures: element types, broadcasting, axes, empty vectors, permuted.")
    for function in functions:
        for dtype in [np.float16, np.float32, np.float64, np.int8, np.uint16, np.int64, np.bool_]:
            w.case(function, two(rng, dtype, (2, 3), dtype, (3,)))
        for da, db in [(np.float16, np.float32), (np.int8, np.float16), (np.int32, np.float32)]:
            w.case(function, two(rng, da, (4,), db, (4,)))
        for sa, sb, axis in [((2, 3), (2, 3), 0), ((2, 1, 4), (3, 4), -1), ((2, 3, 4), (4,), 2),
                             ((3, 0), (0,), -1), ((2, 3), (4,), -1), ((3,), (3,), 1)]:
            w.case(function, two(rng, np.float32, sa, np.float32, sb, null=0 not in sa), axis=axis)
        a = [sample(rng, np.float16, (3, 4)), None, sample(rng, np.float16, (3, 4))]
        b = [sample(rng, np.float16, (4, 3)) for _ in range(3)]
        w.case(function, [a, b], perms=[[1, 0], None], axis=0)
        w.case(function, [[np.zeros(3, np.float32), np.ones(3, np.float32)],
                          [np.zeros(3, np.float32), np.zeros(3, np.float32)]])


def product_path_cases(w, rng):
    """Products big enough for gemm (float types: 2,048 multiply-adds per matrix and more) and
    the tight loop below it, against numpy on the same operands."""
    w.comment("Matrix products past the gemm threshold: float types, batches, permuted operands.")
    for dtype in [np.float16, np.float32, np.float64, np.int32, np.uint8]:
        w.case("matmul", two(rng, dtype, (12, 16), dtype, (16, 12)))
    w.case("matmul", two(rng, np.float32, (2, 12, 16), np.float64, (16, 12)))
    a = [sample(rng, np.float32, (12, 16)), None, sample(rng, np.float32, (12, 16))]
    b = [sample(rng, np.float32, (3, 16, 12)) for _ in range(3)]
    w.case("matmul", [a, b], perms=[[1, 0], [2, 0, 1]])
    w.case("dot", two(rng, np.float64, (2, 12, 16), np.float64, (3, 16, 12)))
    w.case("inner", two(rng, np.float16, (12, 16), np.float16, (12, 16)))
    w.case("tensordot", two(rng, np.float32, (6, 4, 16), np.float32, (16, 4, 6)),
           axes=[[1, 2], [1, 0]])
    w.case("tensordot", two(rng, np.float64, (12, 4, 4), np.float64, (4, 4, 12)), axes=2)
    for subscripts, sa, sb in [("bij,bkj->bik", (2, 12, 16), (2, 12, 16)),
                               ("ij,jk->ki", (12, 16), (16, 12))]:
        w.case("einsum", two(rng, np.float32, sa, np.float32, sb), subscripts=subscripts)


def norm_cases(w, rng):
    """numpy.linalg.norm: ord NULL/number/'fro'/'nuc'/'inf', axis, keepdims, every type.
    Orders p other than 0.5, 2, 4, -1, -2 are left out: numpy's float power on AVX-512
    machines (SVML) and the C library's pow differ in the last bit for some values, and these
    suites compare exactly."""
    w.comment("Every element type: the 2-norm of the flattened row; int and bool give float64.")
    for dtype in DTYPES:
        w.case("norm", [[sample(rng, dtype, (2, 3)), None, sample(rng, dtype, (2, 3))]])
    rows = [sample(rng, np.float64, (2, 3)), None, sample(rng, np.float64, (2, 3))]
    w.comment("Vector orders along one axis (and of a 1-d row without axis).")
    for ord_ in [None, "inf", "-inf", 0, 1, 2, -1, 0.5, 4, -2, "fro", "nuc", "abc"]:
        w.case("norm", [rows], ord=ord_, axis=1) if ord_ is not None else w.case(
            "norm", [rows], axis=1)
    for ord_ in ["inf", 0, 1, 2, -1, 4]:
        w.case("norm", [[sample(rng, np.int16, (4,)), None]], ord=ord_)
    for dtype in [np.float16, np.float32, np.int8, np.uint64, np.bool_]:
        for ord_, axis in [(1, 0), ("inf", -1), (0, 1), (2, 0), (-1, 1)]:
            w.case("norm", [[sample(rng, dtype, (2, 3)), None, sample(rng, dtype, (2, 3))]],
                   ord=ord_, axis=axis)
    w.comment("Matrix orders over two axes (numpy's default: every axis of a 2-d row).")
    for ord_ in ["fro", "f", 1, -1, "inf", "-inf", 3]:
        w.case("norm", [rows], ord=ord_)
    cube = [sample(rng, np.float32, (2, 3, 4)), None, sample(rng, np.float32, (2, 3, 4))]
    for ord_, axis in [("fro", [0, 2]), (1, [2, 0]), ("-inf", [1, 2]), ("inf", [-1, -3]),
                       (None, [0, 1]), (-1, [1, 0])]:
        opts = dict(axis=axis) if ord_ is None else dict(ord=ord_, axis=axis)
        w.case("norm", [cube], **opts)
    w.comment("Singular-value norms of matrices whose singular values are exact.")
    exact = [np.array([[0, 0, 3], [4, 0, 0]], float), None, np.array([[0, -2, 0], [0, 0, 0.5]]),
             np.array([[1.5, 0, 0], [0, 0, -6]])]
    for ord_ in ["nuc", 2, -2]:
        w.case("norm", [exact], ord=ord_)
        w.case("norm", [[x if x is None else x.T.copy() for x in exact]], ord=ord_)
        w.case("norm", [[x if x is None else x.astype(np.float32) for x in exact]], ord=ord_,
               axis=[1, 0])
    w.case("norm", [[np.ones((2, 2), np.float16)]], ord="nuc")
    w.case("norm", [[np.array([[np.nan, 1], [2, 3]])]], ord=2)
    w.comment("keepdims, empty tensors, errors.")
    for opts in [dict(keepdims=True), dict(ord=1, axis=0, keepdims=True),
                 dict(ord="fro", axis=[0, 1], keepdims=True), dict(ord=-1, keepdims=True)]:
        w.case("norm", [rows], **opts)
    w.case("norm", [cube], keepdims=True)
    empty = [np.zeros((0, 3))]
    for opts in [{}, dict(ord="inf", axis=0), dict(ord="inf", axis=1), dict(ord="-inf", axis=0),
                 dict(ord=1), dict(ord=-1), dict(ord=-1, axis=[1, 0]), dict(ord=2),
                 dict(ord=-2), dict(ord="nuc"), dict(ord=0, axis=0)]:
        w.case("norm", [empty], **opts)
    for opts in [dict(ord=1), dict(ord="fro", axis=2), dict(axis=[0, 0]), dict(axis=[0, 1, 2]),
                 dict(axis=3), dict(axis=[0, -4]), dict(ord="nuc", axis=0)]:
        w.case("norm", [cube], **opts)
    w.comment("Permuted rows (read in logical order).")
    w.case("norm", [cube], perms=[[2, 0, 1]], ord=1, axis=[0, 2])
    w.case("norm", [cube], perms=[[1, 2, 0]], ord=2, axis=0)
    w.case("norm", [cube], perms=[[2, 1, 0]])


def norm_variable_cases(w):
    table = pq.read_table(ROOT / VARSHAPE)
    rows_of = {c: variable_rows(table, c) for c in ["f32", "perm", "u8u", "b", "i64v", "c0", "csp"]}
    w.comment(f"tensor_norm of variable-shape rows ({VARSHAPE}).")
    for column, rows in rows_of.items():
        ndim = next(r for r in rows.values() if r is not None).ndim
        w.variable_case("norm", [column], rows_of)
        w.variable_case("norm", [column], rows_of, ord=1, axis=-1)
        w.variable_case("norm", [column], rows_of, ord="inf", axis=0, keepdims=True)
        w.variable_case("norm", [column], rows_of, keepdims=True)
        if ndim >= 2:
            w.variable_case("norm", [column], rows_of, ord="fro", axis=[0, 1])
            w.variable_case("norm", [column], rows_of, ord=-1, axis=[-1, 0])
            w.variable_case("norm", [column], rows_of, ord="-inf", axis=[0, -1])


def einsum_cases(w, rng):
    w.comment("One operand: transpose, traces, diagonals, sums, ellipsis.")
    for subscripts, shape in [("ij->ji", (2, 3)), ("ii", (3, 3)), ("ii->i", (3, 3)),
                              ("ij", (2, 3)), ("ji", (2, 3)), ("ij->", (2, 3)), ("ij->j", (2, 3)),
                              ("...i->...", (2, 3, 4)), ("i...->...", (2, 3, 4)),
                              ("...ii->...i", (2, 3, 3)), ("iji->ij", (3, 2, 3)),
                              ("ijk->kji", (2, 3, 4)), ("...", (2, 3)), ("Ba", (2, 3)),
                              ("ii", (2, 3)), ("ijk", (2, 3)), ("ij", (2, 3, 4)),
                              ("ij->iij", (2, 3)), ("ij->k", (2, 3)), ("i2", (2, 3)),
                              ("i..j", (2, 3)), ("i->i->i", (2,)), ("i j -> j i", (2, 3)),
                              ("ij->", (0, 3)), ("i...i", (3, 2, 3))]:
        for dtype in [np.int32] if subscripts != "ij->ji" else DTYPES:
            rows = [sample(rng, dtype, shape), None, sample(rng, dtype, shape)]
            if 0 in shape:
                rows = [sample(rng, dtype, shape)]
            w.case("einsum", [rows], subscripts=subscripts)

    w.comment("Two operands: products, broadcasting, errors.")
    for subscripts, sa, sb in [("ij,jk->ik", (2, 3), (3, 4)), ("ij,jk", (2, 3), (3, 4)),
                               ("i,i", (3,), (3,)), ("i,j", (2,), (3,)), ("i,j->ji", (2,), (3,)),
                               ("...ij,...jk->...ik", (5, 2, 3), (3, 4)),
                               ("bij,bjk->bik", (2, 2, 3), (2, 3, 2)), ("ij,ij->i", (2, 3), (2, 3)),
                               ("ii,i->i", (3, 3), (3,)), ("i,i", (1,), (3,)),
                               ("ij,jk", (2, 3), (4, 2)), ("...i,...i", (2, 3), (3, 3)),
                               ("ij,jk->ik", (2, 3), (3, 0)), ("ij,k", (2, 3), (2,)),
                               ("ij,jk->ik", (2, 3), None)]:
        for da, db in [(np.int16, np.int16), (np.float16, np.float32), (np.bool_, np.bool_),
                       (np.uint8, np.int8)] if subscripts == "ij,jk->ik" and sb == (3, 4) else [
                           (np.float64, np.int64)]:
            if sb is None:
                w.case("einsum", [[sample(rng, da, sa), None]], subscripts=subscripts)
                continue
            null = 0 not in sa + sb
            w.case("einsum", two(rng, da, sa, db, sb, null=null), subscripts=subscripts)

    w.comment("Three operands.")
    for subscripts, shapes in [("ij,jk,kl->il", [(2, 3), (3, 4), (4, 2)]),
                               ("i,i,i", [(3,), (3,), (3,)]), ("i,j,k", [(2,), (1,), (2,)]),
                               ("ab,b,...", [(2, 3), (3,), (2,)])]:
        ops = [[sample(rng, np.int32, s), sample(rng, np.int32, s)] for s in shapes]
        ops[0].insert(1, None)
        for k in range(1, len(ops)):
            ops[k].insert(1, sample(rng, np.int32, shapes[k]))
        w.case("einsum", ops, subscripts=subscripts)

    w.comment("Permuted operands.")
    a = [sample(rng, np.float32, (2, 3, 4)), None, sample(rng, np.float32, (2, 3, 4))]
    b = [sample(rng, np.float32, (4, 3)) for _ in range(3)]
    w.case("einsum", [a, b], perms=[[2, 0, 1], [1, 0]], subscripts="ijk,kj->i")
    w.case("einsum", [a], perms=[[1, 2, 0]], subscripts="ijk->kij")


def variable_cases(w):
    table = pq.read_table(ROOT / VARSHAPE)
    rows_of = {c: variable_rows(table, c)
               for c in ["f32", "perm", "u8u", "b", "i64v", "uni", "c0", "csp"]}
    w.comment(f"Variable-shape tensors ({VARSHAPE}): each row in its own shape.")
    for column, rows in list(rows_of.items()):
        ndim = next(r for r in rows.values() if r is not None).ndim
        if ndim >= 2:
            for function, opts in [("trace", {}), ("diagonal", {}), ("diagonal", dict(offset=1)),
                                   ("trace", dict(offset=-1, axis1=-1, axis2=0))]:
                w.variable_case(function, [column], rows_of, **opts)
            w.variable_case("einsum", [column, column], rows_of,
                            subscripts="...ij,...kj->...ik")
            w.variable_case("einsum", [column], rows_of, subscripts="i...->...")
            w.variable_case("matmul", [column, column], rows_of)
        if ndim == 2:
            t = {rid: None if r is None else r.T for rid, r in rows.items()}
            rows_of[column + "_T"] = t
            w.variable_case("matmul", [column, column + "_T"], rows_of,
                            sql_args=[column, f"tensor_transpose({column})"])
            del rows_of[column + "_T"]
        if ndim == 1:
            for function in ("dot", "inner", "outer", "matmul"):
                w.variable_case(function, [column, column], rows_of)
            w.variable_case("einsum", [column, column], rows_of, subscripts="i,j->ji")
    variable_number_cases(w, rows_of)
    variable_measure_cases(w, table, rows_of)


def variable_number_cases(w, rows_of):
    w.comment("Numbers with variable-shape rows: np.asarray's types, numpy's signed zeros row by "
              "row (a row of one element multiplies).")
    for column in rows_of:
        for function, opts in [("dot", {}), ("inner", {}), ("outer", {}),
                               ("tensordot", dict(axes=0)),
                               ("einsum", dict(subscripts="...,->..."))]:
            w.variable_case(function, [column], rows_of, sql_args=[column, "-2.5"],
                            constants=[-2.5], **opts)
        w.variable_case("dot", [column], rows_of, sql_args=["CAST(3 AS TINYINT)", column],
                        constants=[np.int8(3)], constants_first=True)
        w.variable_case("tensordot", [column], rows_of, sql_args=["0.0", column], constants=[0.0],
                        constants_first=True, axes=0)
    w.variable_case("matmul", ["f32"], rows_of, sql_args=["f32", "3"], constants=[3],
                    plan_error=True)
    w.variable_case("tensordot", ["f32"], rows_of, sql_args=["f32", "3"], constants=[3],
                    plan_error=True)


def fixed_rows(table, column):
    """A fixed-shape tensor column of VARSHAPE: {id: logical array or None}."""
    array = table.column(column).combine_chunks()
    dtype = array.type.value_type.to_pandas_dtype()
    shape = array.type.shape
    return {rid: None if value is None else np.array(value, dtype=dtype).reshape(shape)
            for rid, value in zip(table.column("id").to_pylist(), array.storage.to_pylist())}


def variable_measure_cases(w, table, rows_of):
    w.comment("Vector measures of variable-shape rows: with themselves, with fixed-shape columns, "
              "with query vectors; each row's shapes broadcast, numpy's error naming the row.")
    rows_of = dict(rows_of)
    rows_of["csu"] = variable_rows(table, "csu")
    for column in ["fa", "fc"]:
        rows_of[column] = fixed_rows(table, column)
    for function in MEASURES + ("cosine_distance",):
        for column in ["f32", "perm", "u8u", "b", "i64v", "uni", "c0", "csp"]:
            ndim = next(r for r in rows_of[column].values() if r is not None).ndim
            w.variable_case(function, [column, column], rows_of)
            if ndim >= 2:
                w.variable_case(function, [column, column], rows_of, axis=0)
        w.variable_case(function, ["csp", "csp"], rows_of, axis=1)
        for a, b in [("u8u", "fa"), ("fa", "u8u"), ("csu", "fc"), ("fc", "f32"), ("f32", "perm")]:
            w.variable_case(function, [a, b], rows_of)
            w.variable_case(function, [a, b], rows_of, axis=0)
        w.variable_case(function, ["f32", "perm"], rows_of, axis=-2)
        for column, vector in [("i64v", [2.0]), ("i64v", [1.5, -2.0, 0.5, 1.0]),
                               ("f32", [1.0, 2.0, 3.0]), ("c0", [-0.5])]:
            sql = "[" + ", ".join(str(x) for x in vector) + "]"
            w.variable_case(function, [column], rows_of, sql_args=[column, sql],
                            constants=[np.array(vector)])
            w.variable_case(function, [column], rows_of, sql_args=[sql, column],
                            constants=[np.array(vector)], constants_first=True)


def number_cases(w, rng):
    """Numbers as operands: np.asarray's 0-d arrays, of their own type (not weak)."""
    three, half = Number("3", 3), Number("2.5", 2.5)
    minus = Number("-2.5", -2.5)

    def rows(dtype, shape, count=3):
        out = [sample(rng, dtype, shape) for _ in range(count)]
        out[1] = None
        return out

    w.comment("Every element type with a SQL integer (int64) and a SQL decimal (float64) literal, "
              "on either side.")
    for dtype in DTYPES:
        a = rows(dtype, (2, 3))
        w.number_case("dot", [a, three])
        w.number_case("dot", [minus, a])
        w.number_case("inner", [a, half])
        w.number_case("inner", [three, a])
        w.number_case("outer", [a, three])
        w.number_case("outer", [minus, a])
        w.number_case("tensordot", [a, minus], axes=0)
        w.number_case("tensordot", [three, a], axes=0)
        w.number_case("einsum", [a, minus], subscripts="ij,->ij")
        w.number_case("einsum", [three, a], subscripts=",ij->j")

    w.comment("Typed literals (CAST, arrow_cast) and numeric columns: numpy scalars of that type.")
    typed = [(np.int8, "CAST(3 AS TINYINT)", np.int8(3)), (np.int16, "CAST(-2 AS SMALLINT)", np.int16(-2)),
             (np.int32, "CAST(3 AS INT)", np.int32(3)), (np.uint8, "CAST(3 AS TINYINT UNSIGNED)", np.uint8(3)),
             (np.uint64, "arrow_cast(3, 'UInt64')", np.uint64(3)),
             (np.float16, "arrow_cast(-2.5, 'Float16')", np.float16(-2.5)),
             (np.float32, "CAST(-2.5 AS REAL)", np.float32(-2.5)),
             (np.float64, "CAST(2 AS DOUBLE)", np.float64(2)), (np.bool_, "true", True)]
    for dtype in [np.int8, np.uint8, np.int32, np.uint64, np.float16, np.float32, np.bool_]:
        a = rows(dtype, (2, 3))
        for _, sql, value in typed:
            w.number_case("dot", [a, Number(sql, value)])
        column = [sample(rng, dtype, ()) for _ in range(3)]
        column[2] = None
        w.number_case("dot", [a, Numbers([x if x is None else dtype(x) for x in column])])
        w.number_case("inner", [Numbers([x if x is None else dtype(x) for x in column]), a])
    for sdtype in [np.int16, np.uint32, np.float16, np.float32, np.float64, np.bool_]:
        column = [sdtype(x) for x in sample(rng, sdtype, (4,))]
        column[3] = None
        a = [sample(rng, np.int32, (3,)) for _ in range(4)]
        w.number_case("outer", [a, Numbers(column)])
        w.number_case("tensordot", [Numbers(column), a], axes=0)
        w.number_case("einsum", [a, Numbers(column)], subscripts="i,")

    w.comment("Two numbers: a literal result, or one per row of a column.")
    for function, opts in [("dot", {}), ("inner", {}), ("outer", {}), ("tensordot", dict(axes=0)),
                           ("einsum", dict(subscripts=",")), ("einsum", dict(subscripts=",->"))]:
        w.number_case(function, [three, minus], **opts)
        w.number_case(function, [Numbers([np.float32(0.5), None, np.float32(-2)]),
                                 Number("CAST(3 AS SMALLINT)", np.int16(3))], **opts)

    w.comment("Signed zeros and zero factors: numpy's dot, inner and tensordot of float32/float64 "
              "operands of at most two dimensions add the product to zero (BLAS axpy, which skips "
              "a zero factor) unless the other operand has one element; outer multiplies.")
    specials = np.array([[0.0, -0.0, np.inf], [np.nan, 1.5, -2.0]])
    for dtype in [np.float16, np.float32, np.float64]:
        for shape in [(2, 3), (1,), (3, 2, 1)]:
            a = [specials.astype(dtype).reshape(-1)[:int(np.prod(shape))].reshape(shape)]
            a.append(-a[0])
            for number in [Number("0.0", 0.0), minus, Number(f"arrow_cast(-0.0, '{ARROW[np.dtype(dtype)]}')",
                                                              dtype(-0.0))]:
                for function, opts in [("dot", {}), ("inner", {}), ("outer", {}),
                                       ("tensordot", dict(axes=0)),
                                       ("einsum", dict(subscripts="...,->..."))]:
                    w.number_case(function, [a, number], **opts)
                    w.number_case(function, [number, a] if function != "einsum" else [a, number],
                                  **opts)
        w.number_case("tensordot", [[specials.astype(dtype)[0, :1]], [np.array([np.inf, 2.0], dtype)]],
                      axes=0)
        w.number_case("tensordot", [[np.array([-0.0, 2.0], dtype)], [np.array([2.0, 3.0], dtype)]],
                      axes=0)

    w.comment("Permuted tensors with numbers.")
    a = rows(np.int16, (2, 3, 4))
    w.number_case("dot", [a, three], perms=[[2, 0, 1], None])
    w.number_case("tensordot", [minus, a], perms=[None, [1, 2, 0]], axes=0)
    w.number_case("outer", [a, half], perms=[[2, 1, 0], None])
    w.number_case("einsum", [a, three], perms=[[1, 0, 2], None], subscripts="ijk,->kj")

    w.comment("NULL numbers in a column: NULL rows.")
    a = rows(np.int32, (2,))
    w.number_case("dot", [a, Numbers([np.int64(2), None, None])])

    w.comment("numpy's errors with a number.")
    a = rows(np.float32, (2, 3))
    w.number_case("matmul", [a, three])
    w.number_case("matmul", [three, a])
    w.number_case("matmul", [three, minus])
    w.number_case("matmul", [a, Numbers([np.int8(1), None, np.int8(2)])])
    w.number_case("tensordot", [a, three])
    w.number_case("tensordot", [three, a], axes=1)
    w.number_case("tensordot", [a, three], axes=[[0], [0]])
    w.number_case("trace", [Numbers([np.int32(1), np.int32(2)])])
    w.number_case("diagonal", [three])
    w.number_case("einsum", [a, three], subscripts="i,->i")
    w.number_case("einsum", [a, three], subscripts="ij,j")
    w.number_case("einsum", [three, three], subscripts="i,")


def main():
    rng = np.random.default_rng(20261127)
    w = Writer(ROOT / "sql" / "tensor_linalg_generated.slt", "Fixed-shape products and diagonals.")
    linalg_cases(w, rng)
    measure_cases(w, rng)
    product_path_cases(w, np.random.default_rng(20261128))
    measure_cases(w, np.random.default_rng(20261201), ("cosine_distance",))
    w.write()
    w = Writer(ROOT / "sql" / "tensor_norm_generated.slt", "tensor_norm (numpy.linalg.norm).")
    norm_cases(w, np.random.default_rng(20261129))
    w.write()
    w = Writer(ROOT / "sql" / "tensor_norm_varshape_generated.slt", "tensor_norm, variable shapes.")
    norm_variable_cases(w)
    w.write()
    w = Writer(ROOT / "sql" / "tensor_einsum_generated.slt", "tensor_einsum.")
    einsum_cases(w, rng)
    w.write()
    w = Writer(ROOT / "sql" / "tensor_linalg_varshape_generated.slt", "Variable-shape rows.")
    variable_cases(w)
    w.write()
    w = Writer(ROOT / "sql" / "tensor_linalg_numbers_generated.slt", "Number operands.")
    number_cases(w, np.random.default_rng(20261130))
    w.write()


if __name__ == "__main__":
    main()
