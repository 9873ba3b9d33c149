#!/usr/bin/env python3
"""Generates sql/tensor_elementwise_varshape.slt: the elementwise functions (and the SQL
operators, tensor_where, tensor_astype) on variable-shape tensors, against numpy 2.

    python3 tests/data/make_varmath_fixtures.py      # numpy >= 2

The operands are the columns of tests/data/pyarrow_varshape.parquet (written by pyarrow, see
make_varshape_fixtures.py; their logical rows are in pyarrow_varshape.expected.json), number
literals (weak, NEP 50), the `id` column (a strong int32 per row), fixed-shape tensor literals
and list literals. numpy computes each row's result from the row's logical tensor; a row whose
shapes do not broadcast is numpy's error, expected naming that row.
"""

import json
import warnings
from pathlib import Path

import numpy as np
from fixture_format import ARROW, error_regex
from fixture_format import fmt as plain_fmt


def fmt(arr):
    """fixture_format's value as the CLI prints it, exponents as Rust writes them (1e19)."""
    return plain_fmt(arr).replace("e+", "e")

HERE = Path(__file__).resolve().parent
OUT = HERE.parents[1] / "sql" / "tensor_elementwise_varshape.slt"
FILE = "tests/data/pyarrow_varshape.parquet"
DTYPES = {"uint8": np.uint8, "float32": np.float32, "int16": np.int16, "int64": np.int64,
          "bool": np.bool_, "float64": np.float64, "int32": np.int32}

COLUMNS = json.loads((HERE / "pyarrow_varshape.expected.json").read_text())


def rows(name):
    col = COLUMNS[name]
    dtype = DTYPES[col["type"]]
    out = []
    for r in col["rows"]:
        out.append(None if r is None else np.array(r["values"], dtype=dtype).reshape(r["shape"]))
    return out


IDS = np.arange(6, dtype=np.int32)

# (SQL expression, numpy function of the row index -> value, what the case shows)
CASES = []


def case(sql, f, what):
    CASES.append((sql, f, what))


def col(name):
    data = rows(name)
    return lambda i: data[i]


def w(f):
    """A row's result, None when an operand row is NULL."""
    return f


img, f32, perm, i64, b, f64, u, z = (col(n) for n in ["img", "f32", "perm", "i64", "b", "f64", "u", "z"])


def lift(fn, *ops):
    def g(i):
        vals = [op(i) if callable(op) else op for op in ops]
        if any(v is None for v in vals):
            return None
        return fn(*vals)
    return g


ident = lambda i: np.int32(IDS[i])  # noqa: E731  (a strong int32 per row)

# Weak number literals: the tensor's type (uint8 wraps), true division gives float64.
for sql_op, fn in [("tensor_add", np.add), ("tensor_subtract", np.subtract),
                   ("tensor_multiply", np.multiply), ("tensor_divide", np.true_divide),
                   ("tensor_floor_divide", np.floor_divide), ("tensor_mod", np.remainder),
                   ("tensor_power", np.power), ("tensor_maximum", np.maximum),
                   ("tensor_minimum", np.minimum), ("tensor_equal", np.equal),
                   ("tensor_not_equal", np.not_equal), ("tensor_less", np.less),
                   ("tensor_less_equal", np.less_equal), ("tensor_greater", np.greater),
                   ("tensor_greater_equal", np.greater_equal),
                   ("tensor_logical_and", np.logical_and), ("tensor_logical_or", np.logical_or),
                   ("tensor_logical_xor", np.logical_xor)]:
    case(f"{sql_op}(img, 3)", lift(fn, img, 3), "uint8 with a weak literal")
case("tensor_subtract(100, img)", lift(np.subtract, 100, img), "literal first")
# Operators, permuted rows, a float literal on an integer tensor.
case("perm * 2 + perm", lift(lambda p: p * 2 + p, perm), "operators on permuted int16 rows")
case("perm > 100", lift(lambda p: p > 100, perm), "a comparison: Boolean")
case("perm / 4", lift(lambda p: p / 4, perm), "true division: float64")
case("f64 * 0.5 - f64", lift(lambda x: x * 0.5 - x, f64), "float64, permuted")
case("f32 * 2.5", lift(lambda x: x * 2.5, f32), "float32 stays float32")
case("f32 * id", lift(np.multiply, f32, ident), "a strong int32 column: float64")
case("id - i64", lift(np.subtract, ident, i64), "a column first")
case("b + 1", lift(lambda x: x + 1, b), "bool and a Python int: int64")
case("tensor_logical_xor(b, b)", lift(np.logical_xor, b, b), "bool")
case("z + 1", lift(lambda x: x + 1, z), "empty rows")
case("u - u", lift(np.subtract, u, u), "permuted int32 with uniform dims")
# Another tensor: fixed-shape literals and list literals broadcast in each row.
case("f32 + tensor([10, 20, 30], [3])", lift(lambda x: x + np.array([10, 20, 30], np.int64), f32), "a fixed-shape int64 tensor")
case("f32 * [1.0, 2.0, 3.0]", lift(lambda x: x * np.array([1.0, 2.0, 3.0]), f32), "a list literal (float64)")
case("tensor_maximum(perm, tensor([0, 100], [2, 1]))", lift(lambda p: np.maximum(p, np.array([[0], [100]], np.int64)), perm), "a column vector")
case("img + img", lift(np.add, img, img), "two variable-shape rows")
case("f64 + i64", lift(np.add, f64, i64), "variable with variable, other ndim")
case("tensor_where(perm > 100, perm, 0)", lift(lambda p: np.where(p > 100, p, np.int16(0)), perm), "where, a weak literal")
case("tensor_where(b, 1.5, f32)", lift(lambda c, x: np.where(c, np.float32(1.5), x), b, f32), "where, condition variable")


def result(f, i):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return f(i)
        except ValueError as e:
            return str(e)


def main():
    lines = [
        "# Generated by tests/data/make_varmath_fixtures.py: do not edit. Expected values are",
        "# numpy 2's, row by row, on the logical rows of tests/data/pyarrow_varshape.parquet.",
        "",
    ]
    # Literals only: the call runs on one row and gives a literal.
    for sql, value in [
        ("tensor_add(tensor_to_variable(tensor([1, 2], [2])), 1)", np.array([1, 2]) + 1),
        ("tensor_where(true, 1, tensor_to_variable(tensor([1, 2], [2])))",
         np.where(True, 1, np.array([1, 2]))),
    ]:
        lines += ["query T", f"SELECT {sql};", "----", fmt(value), ""]
    for sql, f, what in CASES:
        outcomes = [result(f, i) for i in range(6)]
        errors = [(i, o) for i, o in enumerate(outcomes) if isinstance(o, str)]
        good = [i for i, o in enumerate(outcomes) if not isinstance(o, str)]
        dtypes = {np.asarray(o).dtype for o in outcomes if o is not None and not isinstance(o, str)}
        assert len(dtypes) <= 1, (sql, dtypes)
        where = "" if not errors else f" WHERE id IN ({', '.join(str(i) for i in good)})"
        lines.append(f"# {what}")
        lines.append("query IT")
        lines.append(f"SELECT id, {sql} FROM '{FILE}'{where} ORDER BY id;")
        lines.append("----")
        for i in good:
            o = outcomes[i]
            lines.append(f"{i} {'NULL' if o is None else fmt(o)}")
        lines.append("")
        if dtypes:
            (dtype,) = dtypes
            lines.append("query T")
            lines.append(f"SELECT DISTINCT arrow_typeof(get_field({sql}, 'data')) FROM '{FILE}'{where};")
            lines.append("----")
            lines.append(f"List({ARROW[dtype]})")
            lines.append("")
        if errors:
            i, message = errors[0]
            lines.append(f"statement error {error_regex(message, f' at row {i} of its batch')}")
            lines.append(f"SELECT {sql} FROM '{FILE}' ORDER BY id;")
            lines.append("")
    OUT.write_text("\n".join(lines))


if __name__ == "__main__":
    main()


# ---- tensor_astype and CAST (numpy's astype, default unsafe casting) ----
ASTYPE_OUT = HERE.parents[1] / "sql" / "tensor_astype_generated.slt"
SQL_TYPES = {"bool": "BOOLEAN", "int8": "TINYINT", "int16": "SMALLINT", "int32": "INT",
             "int64": "BIGINT", "uint8": "TINYINT UNSIGNED", "uint16": "SMALLINT UNSIGNED",
             "uint32": "INT UNSIGNED", "uint64": "BIGINT UNSIGNED", "float32": "REAL",
             "float64": "DOUBLE"}
TARGETS = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
           "float16", "float32", "float64"]
# Floats to integers: truncation, wrapping, and numpy's x86 values for NaN, inf, overflow.
SPECIAL = np.array([np.nan, np.inf, -np.inf, 3e10, -3e10, 2.75, -2.75, 1e20, -0.0, 300.5,
                    65535.5, -129.25], dtype=np.float64).reshape(3, 4)
SOURCES = [
    ("float64 specials, permuted", SPECIAL, [1, 0], TARGETS[:9]),
    ("float32 specials", SPECIAL.astype(np.float32), None, TARGETS[:9]),
    ("float16 specials", SPECIAL.astype(np.float16), None, TARGETS[:9]),
    ("float64 to floats", np.array([[0.5, -1.25, 65520.0], [2.0**-10, 3.0, -0.0]]), None, TARGETS[9:] + ["bool"]),
    ("int64 wraps", np.array([[300, -1, 70000], [-129, 2**20 + 5, 65504]], dtype=np.int64), None, TARGETS),
    ("uint64 beyond int64", np.array([2**64 - 1, 2**63, 7], dtype=np.uint64), None, ["int64", "int8", "float64", "bool"]),
    ("bool", np.array([True, False, True]), None, ["int8", "uint64", "float16", "float32"]),
    ("uint8", np.array([[0, 255], [128, 7]], dtype=np.uint8), [1, 0], ["int8", "float16", "bool"]),
]


def astype_main():
    from make_elementwise_fixtures import tensor_sql

    lines = [
        "# Generated by tests/data/make_varmath_fixtures.py: do not edit. Expected values are",
        "# numpy 2's astype (default unsafe casting, as numpy computes it on x86-64).",
        "",
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for what, arr, perm, targets in SOURCES:
            t = tensor_sql(arr, perm)
            for target in targets:
                want = arr.astype(target)
                size = want.size
                lines.append(f"# {what}: astype({target})")
                lines.append("query TT")
                lines.append(f"SELECT tensor_astype({t}, '{target}'), arrow_typeof(tensor_astype({t}, '{target}'));")
                lines.append("----")
                lines.append(f"{fmt(want)} FixedSizeList({size} x {ARROW[want.dtype]})")
                lines.append("")
                if target in SQL_TYPES and target in ("float64", "int32", "bool", "uint8", "float32"):
                    lines.append(f"# {what}: CAST(x AS {SQL_TYPES[target]})")
                    lines.append("query T")
                    lines.append(f"SELECT CAST({t} AS {SQL_TYPES[target]});")
                    lines.append("----")
                    lines.append(fmt(want))
                    lines.append("")
    ASTYPE_OUT.write_text("\n".join(lines))


def astype_varshape():
    """tensor_astype of variable-shape rows, appended to the elementwise varshape suite."""
    lines = []
    for name, target, sql in [("f32", "int8", "tensor_astype(f32, 'int8')"),
                              ("perm", "float16", "tensor_astype(perm, 'float16')"),
                              ("f64", "uint8", "CAST(f64 AS TINYINT UNSIGNED)"),
                              ("b", "float32", "b::REAL"),
                              ("z", "int64", "TRY_CAST(z AS BIGINT)")]:
        data = rows(name)
        lines.append(f"# {name}: astype({target})")
        lines.append("query IT")
        lines.append(f"SELECT id, {sql} FROM '{FILE}' ORDER BY id;")
        lines.append("----")
        for i, r in enumerate(data):
            lines.append(f"{i} {'NULL' if r is None else fmt(r.astype(target))}")
        lines.append("")
    with open(OUT, "a") as f:
        f.write("\n" + "\n".join(lines))


if __name__ == "__main__":
    astype_main()
    astype_varshape()
