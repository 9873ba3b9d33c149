#!/usr/bin/env python3
"""Generates sql/tensor_elementwise_generated.slt: the elementwise binary functions
(tensor_add ... tensor_logical_xor, tensor_where) against numpy 2's ufuncs on the same data.

    python3 tests/data/make_elementwise_fixtures.py      # numpy >= 2

Every case builds its operands as SQL (tensor literals, permuted tensors, list literals, number
literals, numeric columns, tables with NULL rows), runs numpy's ufunc on the same arrays and
Python scalars (NEP 50: Python numbers are weak, numpy scalars and arrays strong), and writes
numpy's result (as the CLI prints it) and its dtype, or numpy's error message. Where numpy's
`where` wraps a literal that does not fit silently, the case expects spec.md §9's error instead.
"""

import re
import warnings
from decimal import Decimal
from pathlib import Path

import numpy as np
from fixture_format import ARROW, error_regex
from fixture_format import tensor_sql as plain_tensor_sql


def tensor_sql(arr, perm=None):
    """fixture_format's tensor literal, NaN and infinities written as SQL casts."""
    sql = plain_tensor_sql(arr, perm)
    sql = re.sub(r"(?<![\w'])-inf\b", "CAST('-inf' AS DOUBLE)", sql)
    sql = re.sub(r"(?<![\w'-])inf\b", "CAST('inf' AS DOUBLE)", sql)
    sql = re.sub(r"(?<=[\[ ])-0(?=[,\]])", "-0.0", sql)  # float16's -0.0 printed as -0
    return re.sub(r"\bNaN\b", "CAST('NaN' AS DOUBLE)", sql)

OUT = Path(__file__).resolve().parents[2] / "sql" / "tensor_elementwise_generated.slt"

OPS = {
    "tensor_add": np.add,
    "tensor_subtract": np.subtract,
    "tensor_multiply": np.multiply,
    "tensor_divide": np.true_divide,
    "tensor_floor_divide": np.floor_divide,
    "tensor_mod": np.remainder,
    "tensor_power": np.power,
    "tensor_maximum": np.maximum,
    "tensor_minimum": np.minimum,
    "tensor_equal": np.equal,
    "tensor_not_equal": np.not_equal,
    "tensor_less": np.less,
    "tensor_less_equal": np.less_equal,
    "tensor_greater": np.greater,
    "tensor_greater_equal": np.greater_equal,
    "tensor_logical_and": np.logical_and,
    "tensor_logical_or": np.logical_or,
    "tensor_logical_xor": np.logical_xor,
}

TYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
         np.float16, np.float32, np.float64, np.bool_]


def fmt_value(x, dtype):
    """One element as Arrow's display writes it."""
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return "true" if bool(x) else "false"
    if np.issubdtype(dtype, np.integer):
        return str(int(x))
    x = float(x)
    if np.isnan(x):
        return "NaN"
    if np.isinf(x):
        return "inf" if x > 0 else "-inf"
    if dtype == np.float16:
        # the half crate writes float16 through float32's shortest form, 3.0 as "3".
        if x.is_integer():
            return ("-" if np.signbit(x) else "") + str(abs(int(x)))
        return arrow_float(str(np.float32(x)))
    if dtype == np.float32:
        return arrow_float(str(np.float32(x)))
    return arrow_float(repr(x))


def arrow_float(shortest):
    """Python's shortest round-trip digits as Arrow writes them (lexical): plain from 1e-5 up
    to 1e16, else `1.5e-6` / `6.1e18` (no `+`, no zero padding)."""
    mantissa, _, exponent = shortest.partition("e")
    exp = int(exponent) if exponent else 0
    value = Decimal(shortest)
    if value != 0 and not (Decimal("1e-5") <= abs(value) < Decimal("1e16")):
        digits = mantissa if "." in mantissa else mantissa + ".0"
        return f"{digits}e{exp}"
    text = format(value, "f")
    if "." not in text:
        text += ".0"
    return text


def fmt(arr):
    arr = np.asarray(arr)
    if arr.ndim == 0:
        return fmt_value(arr[()], arr.dtype)
    return "[" + ", ".join(fmt(x) for x in arr) + "]"


def arrow_type(result):
    element = ARROW[result.dtype]
    if result.ndim == 0:
        return element
    return f"FixedSizeList({result.size} x {element})"


def sql_value(x, dtype):
    """One element as a SQL literal (NaN as a cast)."""
    text = fmt_value(x, dtype)
    return "CAST('NaN' AS DOUBLE)" if text == "NaN" else text


def literal_sql(x):
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, float):
        return repr(x)
    return str(x)


def sample(dtype, shape, kind="x"):
    """Values of `dtype` that exercise signs, zeros, wrap-around, NaN and -0.0."""
    dtype = np.dtype(dtype)
    n = int(np.prod(shape))
    if dtype == np.bool_:
        base = [True, False, True, False, False, True]
    elif np.issubdtype(dtype, np.signedinteger):
        base = {"x": [-7, 5, 0, 3, -2, 9], "y": [2, -3, 0, -1, 4, 1], "e": [2, 0, 3, 1, 5, 2]}[kind]
    elif np.issubdtype(dtype, np.unsignedinteger):
        top = int(np.iinfo(dtype).max) - 1
        base = {"x": [7, 5, 0, 3, top, 9], "y": [2, 3, 0, 1, 4, 1], "e": [2, 0, 3, 1, 5, 2]}[kind]
    else:
        base = {"x": [-7.5, 5.0, 0.0, 3.25, -2.0, np.nan], "y": [2.0, -0.0, 0.0, -1.5, 4.0, 0.5],
                "e": [2.0, 0.0, 3.0, -1.0, 0.5, 2.0]}[kind]
    return np.array((base * (n // len(base) + 1))[:n], dtype=dtype).reshape(shape)


class Writer:
    def __init__(self):
        self.lines = [
            "# Generated by tests/data/make_elementwise_fixtures.py from numpy's ufuncs; do not edit.",
            f"# numpy {np.__version__}",
        ]
        self.count = 0

    def comment(self, text):
        self.lines += ["", "", f"# {text}"]

    def numpy(self, fn, args):
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            try:
                result = np.asarray(fn(*args))
            except (OverflowError, TypeError, ValueError) as e:
                return None, str(e)
            if fn is np.power and result.dtype in (np.float16, np.float32):
                # numpy's SIMD float32 power loop differs from the correctly rounded power by
                # an ulp on some CPUs (np.power(np.float32([3.25]), 2.5) is 19.041817 here,
                # the scalar np.float32(3.25) ** 2.5 and libm's powf 19.041819); expected: the
                # power in float64 rounded to float32 (and float16 from that, as numpy's half
                # loop rounds powf's result).
                wide = [np.asarray(a, dtype=np.float64) if isinstance(a, np.ndarray) else a for a in args]
                result = np.asarray(np.power(*wide)).astype(np.float32).astype(result.dtype)
            return result, None

    def case(self, call, result, error, note=""):
        self.count += 1
        if error is not None:
            self.lines += ["", f"# numpy raises: {error} {note}".rstrip(),
                           f"query error {error_regex(error.strip(), '')}", f"SELECT {call};"]
            return
        self.lines += ["", f"# numpy: {result.dtype} {note}".rstrip(), "query TT",
                       f"SELECT {call}, arrow_typeof({call});", "----",
                       f"{fmt(result)} {arrow_type(result)}"]

    def call(self, name, sql_args, np_args, note=""):
        result, error = self.numpy(OPS[name], np_args)
        self.case(f"{name}({', '.join(sql_args)})", result, error, note)

    def table_case(self, call, rows, expected_rows, dtype_result, note=""):
        """A query over `rows` (SQL VALUES rows) with one expected text per row."""
        self.count += 1
        values = ", ".join(f"({r}, {row})" for r, row in enumerate(rows, 1))
        self.lines += ["", f"# numpy, row by row {note}".rstrip(), "query IT",
                       f"SELECT r, {call} FROM (VALUES {values}) AS t(r, a, b) ORDER BY r;", "----"]
        for r, text in enumerate(expected_rows, 1):
            self.lines.append(f"{r} {text}")

    def write(self):
        OUT.write_text("\n".join(self.lines) + "\n")


def main():
    w = Writer()

    w.comment("Every function and element type: a [2, 3] tensor and a [3] tensor (unequal ranks broadcast).")
    for name, fn in OPS.items():
        for t in TYPES:
            x = sample(t, (2, 3), "x")
            y = sample(t, (3,), "e" if name == "tensor_power" else "y")
            w.call(name, [tensor_sql(x), tensor_sql(y)], [x, y])

    w.comment("The other order: [3] with [2, 3], and [2, 1] with [3] (both stretched).")
    for name in ["tensor_subtract", "tensor_floor_divide", "tensor_mod", "tensor_less", "tensor_power"]:
        for t in [np.int16, np.uint8, np.float32, np.float16]:
            kind = "e" if name == "tensor_power" else "y"
            a = sample(t, (3,), "x")
            b = sample(t, (2, 3), kind)
            w.call(name, [tensor_sql(a), tensor_sql(b)], [a, b])
            a = sample(t, (2, 1), "x")
            b = sample(t, (3,), kind)
            w.call(name, [tensor_sql(a), tensor_sql(b)], [a, b])

    w.comment("Mixed element types: numpy 2's promotion (np.promote_types).")
    small = {t: np.array([[1, 2, 3], [4, 5, 6]]).astype(t) for t in TYPES}
    small[np.bool_] = np.array([[True, False, True], [False, True, True]])
    other = {t: np.array([1, 3, 2]).astype(t) for t in TYPES}
    other[np.bool_] = np.array([True, True, False])
    for name in ["tensor_add", "tensor_divide", "tensor_less", "tensor_maximum"]:
        for ta in TYPES:
            for tb in TYPES:
                if ta == tb:
                    continue
                w.call(name, [tensor_sql(small[ta]), tensor_sql(other[tb])], [small[ta], other[tb]])

    w.comment("Number literals are weak (NEP 50): they take the tensor's type, and must fit it.")
    literal_ops = ["tensor_add", "tensor_subtract", "tensor_multiply", "tensor_divide",
                   "tensor_floor_divide", "tensor_mod", "tensor_power", "tensor_maximum",
                   "tensor_less", "tensor_greater_equal", "tensor_equal", "tensor_not_equal",
                   "tensor_logical_and", "tensor_logical_xor"]
    for t in TYPES:
        x = sample(t, (2, 3), "x")
        for name in literal_ops:
            for lit in [2, 2.5, True, 300, -1, 70000]:
                w.call(name, [tensor_sql(x), literal_sql(lit)], [x, lit])
            for lit in [3, 0.5, -300]:
                if name in ("tensor_subtract", "tensor_less", "tensor_power", "tensor_mod",
                            "tensor_floor_divide", "tensor_divide"):
                    w.call(name, [literal_sql(lit), tensor_sql(x)], [lit, x], "(literal first)")

    w.comment("Two literals, and a 0-d result: a plain value.")
    for name in ["tensor_add", "tensor_divide", "tensor_floor_divide", "tensor_less"]:
        for a, b in [(7, 2), (7.5, 2), (True, 2), (-7, 2)]:
            w.call(name, [literal_sql(a), literal_sql(b)], [a, b])

    w.comment("List literals are arrays, as np.asarray makes them (int64 / float64, strong).")
    for t in [np.int8, np.uint8, np.float32, np.float16, np.bool_]:
        x = sample(t, (2, 3), "x")
        for lst in [[1, 2, 3], [0.5, 1.5, 2.5], [[1], [2]]]:
            sql = "[" + ", ".join(
                ("[" + ", ".join(literal_sql(v) for v in e) + "]") if isinstance(e, list) else literal_sql(e)
                for e in lst) + "]"
            for name in ["tensor_add", "tensor_multiply", "tensor_greater"]:
                w.call(name, [tensor_sql(x), sql], [x, np.asarray(lst)])

    w.comment("Numeric columns are strong 0-d arrays of their type (numpy scalars).")
    columns = [(np.int16, "Int16", 3), (np.uint8, "UInt8", 3), (np.float32, "Float32", 3),
               (np.int64, "Int64", 3), (np.bool_, "Boolean", True)]
    for t in TYPES:
        x = sample(t, (2, 3), "x")
        for ct, arrow, v in columns:
            for name in ["tensor_add", "tensor_multiply", "tensor_less", "tensor_floor_divide"]:
                result, error = w.numpy(OPS[name], [x, ct(v)])
                value = literal_sql(v)
                call = f"{name}({tensor_sql(x)}, c)"
                w.count += 1
                sql = f"SELECT {call}, arrow_typeof({call}) FROM (VALUES (arrow_cast({value}, '{arrow}'))) AS t(c);"
                if error is not None:
                    w.lines += ["", f"# numpy raises: {error}", f"query error {error_regex(error, '')}", sql]
                else:
                    w.lines += ["", f"# numpy: {result.dtype} (a {arrow} column)", "query TT", sql,
                                "----", f"{fmt(result)} {arrow_type(result)}"]

    w.comment("NULL rows: a NULL in either operand's row gives a NULL row.")
    for t, arrow in [(np.int32, "Int32"), (np.float64, "Float64"), (np.uint8, "UInt8")]:
        xs = [sample(t, (2, 3), "x"), None, sample(t, (2, 3), "x") // 2 if t != np.float64 else sample(t, (2, 3), "x") / 2]
        ys = [np.array(5, dtype=t), np.array(6, dtype=t), None]
        rows = []
        for x, y in zip(xs, ys):
            xv = "NULL" if x is None else f"arrow_cast([{', '.join(sql_value(v, t) for v in x.reshape(-1))}], 'List({arrow})')"
            yv = "NULL" if y is None else f"arrow_cast({fmt_value(y, t)}, '{arrow}')"
            rows.append(f"{xv}, {yv}")
        for name in ["tensor_add", "tensor_maximum", "tensor_greater"]:
            expected = []
            for x, y in zip(xs, ys):
                if x is None or y is None:
                    expected.append("NULL")
                else:
                    with np.errstate(all="ignore"):
                        expected.append(fmt(OPS[name](x, y)))
            w.table_case(f"{name}(tensor(a, [2, 3]), b)", rows, expected, None, f"({arrow})")

    w.comment("Chained operators over columns: an operator's result is the next one's operand "
              "(its buffer, held by nothing else, takes the next result; a column's is shared).")
    chains = [
        ("A * {two} + B", lambda x, y, two: x * two + y),
        ("B - A * {two}", lambda x, y, two: y - x * two),
        ("3 - A * {two}", lambda x, y, two: 3 - x * two),
        ("(A + B) * {two}", lambda x, y, two: (x + y) * two),
        ("(A * B) - (A + B)", lambda x, y, two: (x * y) - (x + y)),
        ("(A - B) / {two}", lambda x, y, two: (x - y) / two),
        ("B / (A + 1.0)", lambda x, y, two: y / (x + 1.0)),
        ("(A + B) > {two}", lambda x, y, two: (x + y) > two),
        ("(A + B) + tensor_transpose(tensor(b, [3, 2]))", lambda x, y, two: (x + y) + y.reshape(3, 2).T),
    ]
    for t, arrow in [(np.float32, "Float32"), (np.float64, "Float64"), (np.float16, "Float16"),
                     (np.int16, "Int16"), (np.uint8, "UInt8")]:
        xs = [sample(t, (2, 3), "x"), None, sample(t, (2, 3), "y")]
        ys = [sample(t, (2, 3), "y"), sample(t, (2, 3), "x"), sample(t, (2, 3), "x")]
        rows = []
        for x, y in zip(xs, ys):
            cells = []
            for v in (x, y):
                if v is None:
                    cells.append("NULL")
                    continue
                # Floats as float literals (float16's shortest text writes -0.0 as "-0", which
                # SQL reads as the integer 0).
                elements = [sql_value(e, t) if not np.issubdtype(t, np.floating) or np.isnan(e)
                            else repr(float(e)) for e in v.reshape(-1)]
                cells.append(f"arrow_cast([{', '.join(elements)}], 'List({arrow})')")
            rows.append(", ".join(cells))
        floating = np.issubdtype(t, np.floating)
        two_sql, two = ("2.0", 2.0) if floating else ("2", 2)
        for template, fn in chains:
            if "/" in template and not floating:
                continue
            expected = []
            for x, y in zip(xs, ys):
                if x is None or y is None:
                    expected.append("NULL")
                    continue
                with np.errstate(all="ignore"):
                    expected.append(fmt(fn(x, y, two)))
            call = template.format(two=two_sql).replace("A", "tensor(a, [2, 3])").replace("B", "tensor(b, [2, 3])")
            w.table_case(call, rows, expected, None, f"({arrow}, {template.format(two=two_sql)})")

    w.comment("Empty tensors (a 0 dimension) broadcast to empty results.")
    for t in [np.float32, np.int8, np.bool_]:
        for sa, sb in [((0, 3), (3,)), ((2, 0), (2, 1)), ((0,), ())]:
            a = np.zeros(sa, dtype=t)
            b = sample(t, sb, "y") if sb else np.array(1, dtype=t)
            for name in ["tensor_add", "tensor_less", "tensor_logical_or"]:
                sql_b = tensor_sql(b) if sb else fmt_value(b, t)
                np_b = b if sb else (True if t == np.bool_ else (1.0 if t == np.float32 else 1))
                w.call(name, [tensor_sql(a), sql_b], [a, np_b])

    w.comment("Permuted tensors: logical = physical.transpose(permutation).")
    for t in [np.float32, np.int16, np.uint8]:
        x = sample(t, (2, 3), "x")
        y = sample(t, (2, 3), "y")
        x3 = np.arange(24).astype(t).reshape(2, 3, 4)
        for name in ["tensor_add", "tensor_subtract", "tensor_maximum", "tensor_less"]:
            w.call(name, [tensor_sql(x, [1, 0]), tensor_sql(y)], [x, y], "(x permuted)")
            w.call(name, [tensor_sql(x, [1, 0]), tensor_sql(y, [1, 0])], [x, y], "(both permuted alike)")
            w.call(name, [tensor_sql(x), tensor_sql(y[0])], [x, y[0]])
            w.call(name, [tensor_sql(x3, [2, 0, 1]), tensor_sql(x3[0, 0])], [x3, x3[0, 0]], "(3-d, permutation [2, 0, 1])")
            w.call(name, [tensor_sql(x3[0, :, :1], [1, 0]), tensor_sql(x3, [1, 2, 0])], [x3[0, :, :1], x3], "(both permuted, broadcast)")

    w.comment("Errors, in numpy's words.")
    x = sample(np.int32, (2, 3), "x")
    w.call("tensor_add", [tensor_sql(x), tensor_sql(np.arange(4, dtype=np.int32))], [x, np.arange(4, dtype=np.int32)])
    w.call("tensor_less", [tensor_sql(np.zeros((2, 1, 3))), tensor_sql(np.zeros((4, 2)))], [np.zeros((2, 1, 3)), np.zeros((4, 2))])
    b = sample(np.bool_, (2, 3))
    w.call("tensor_subtract", [tensor_sql(b), tensor_sql(b)], [b, b])
    w.call("tensor_subtract", [tensor_sql(b), "true"], [b, True])
    w.call("tensor_power", [tensor_sql(x), "-1"], [x, -1])
    w.call("tensor_power", [tensor_sql(x), tensor_sql(sample(np.int32, (3,), "y"))], [x, sample(np.int32, (3,), "y")])

    w.comment("SQL operators on tensors are the functions: + - * / % and = <> < <= > >=.")
    operators = {"+": np.add, "-": np.subtract, "*": np.multiply, "/": np.true_divide,
                 "%": np.remainder, "=": np.equal, "<>": np.not_equal, "<": np.less,
                 "<=": np.less_equal, ">": np.greater, ">=": np.greater_equal}
    for t in TYPES:
        x = sample(t, (2, 3), "x")
        y = sample(t, (3,), "y")
        for sym, fn in operators.items():
            for sql_a, sql_b, a, b in [(tensor_sql(x), tensor_sql(y), x, y),
                                       (tensor_sql(x), "2", x, 2),
                                       ("3", tensor_sql(x), 3, x),
                                       (tensor_sql(x, [1, 0]), "[1, 2, 3]", x, np.array([1, 2, 3]))]:
                result, error = w.numpy(fn, [a, b])
                w.case(f"({sql_a} {sym} {sql_b})", result, error, f"(operator {sym})")
    x = sample(np.float32, (2, 3), "x")
    y = sample(np.float32, (3,), "y")
    with np.errstate(all="ignore"):
        result = x * 2.0 + y
    w.case(f"({tensor_sql(x)} * 2.0 + {tensor_sql(y)})", result, None, "(x * 2.0 + y)")
    with np.errstate(all="ignore"):
        result = (x > 0.5) == (y < 1)
    w.case(f"(({tensor_sql(x)} > 0.5) = ({tensor_sql(y)} < 1))", result, None, "(comparisons of comparisons)")

    w.comment("tensor_where: numpy's where(condition, x, y).")
    for tc in [np.bool_, np.int8, np.float32]:
        cond = sample(tc, (2, 3), "y")
        for tx, ty in [(np.int8, np.int8), (np.uint8, np.int16), (np.float16, np.float32), (np.bool_, np.bool_)]:
            xv = sample(tx, (3,), "x")
            yv = sample(ty, (2, 1), "y")
            result, error = w.numpy(np.where, [cond, xv, yv])
            w.case(f"tensor_where({tensor_sql(cond)}, {tensor_sql(xv)}, {tensor_sql(yv)})", result, error)
        for lit in [0, 2.5, True]:
            xv = sample(np.int16, (2, 3), "x")
            result, error = w.numpy(np.where, [cond, xv, lit])
            w.case(f"tensor_where({tensor_sql(cond)}, {tensor_sql(xv)}, {literal_sql(lit)})", result, error)
    cond = sample(np.bool_, (2, 3))
    xv = sample(np.uint8, (2, 3), "x")
    w.count += 1
    w.lines += ["", "# numpy wraps 300 into uint8 silently (np.where(c, x, 300)); spec.md §9 makes it an error",
                "query error Python integer 300 out of bounds for uint8",
                f"SELECT tensor_where({tensor_sql(cond)}, {tensor_sql(xv)}, 300);"]
    result, error = w.numpy(np.where, [cond, cond[0], np.zeros((4, 3))])
    w.case(f"tensor_where({tensor_sql(cond)}, {tensor_sql(cond[0])}, {tensor_sql(np.zeros((4, 3)))})", result, error)

    w.write()
    print(f"{w.count} cases -> {OUT}")


if __name__ == "__main__":
    main()
