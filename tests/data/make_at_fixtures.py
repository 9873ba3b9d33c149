#!/usr/bin/env python3
"""Generates sql/tensor_at_generated.slt: tensor_at_* cases (JAX's indexed updates
`x.at[idx].op(y)`) whose expected results are JAX's on the same arrays.

    pip install jax                      # CPU jaxlib; numpy >= 2
    python3 tests/data/make_at_fixtures.py

Every case builds x (and a tensor y) as SQL tensor literals, runs the same update with
`jax_enable_x64` (so int64/uint64/float64 keep their numpy dtypes), and writes JAX's result
(nested, as the CLI prints it) with `arrow_typeof`. Where spec.md §5 goes beyond JAX the expected
value follows the spec and the case says so:

- `set` with duplicate indices: the last occurrence in row-major order of the broadcast index
  wins; computed with a numpy loop and checked against JAX where JAX agrees (it does on CPU).
- `divide` on an integer x returns Float64 (JAX gives float32 for integers of 32 bits or fewer
  under x64); the values are JAX's division computed on int64.
- `'raise'` (not a JAX mode) fails the query naming the index, axis and size (and the row, for
  column indices); in-bounds `'raise'` cases equal JAX's default.

apply with exp/log/sin/cos uses inputs with exact results, or compares one element rounded to
5 digits: XLA and libm differ in the last ulp (XLA's exp(e) is 15.15426224147927, libm's
15.154262241479262). y of another type is promoted with x's, the update computed there and
cast back to x's type, as JAX does (those cases say so).

Cases follow the seed document (jax.Array.at), JAX's tests/lax_numpy_indexing_test.py
(testIndexOutOfBounds, testSegmentSumBehavior, testWrapNegativeIndices1D) and spec.md §5. No value
case overflows an integer type, and every literal y is exact in x's type (both are errors in
this project where JAX wraps). Float results are checked to print the same through Arrow's
display (ryu; float16 through f32's Display) as fixture_format writes them.
"""

import math
import re
import warnings
from pathlib import Path

import numpy as np

import jax
import jaxlib

jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp  # noqa: E402
from fixture_format import ARROW, fmt, fmt_scalar, tensor_sql  # noqa: E402
from make_indexing_fixtures import numpy_index  # noqa: E402

OUT = Path(__file__).resolve().parents[2] / "sql" / "tensor_at_generated.slt"

UPDATE_OPS = ["set", "add", "subtract", "multiply", "divide", "power", "min", "max"]
UPDATE_OPTIONS = ["mode", "wrap_negative_indices", "indices_are_sorted", "unique_indices"]
GET_OPTIONS = ["mode", "fill_value", "wrap_negative_indices", "indices_are_sorted", "unique_indices"]
DEFAULTS = {"mode": "promise_in_bounds", "wrap_negative_indices": True,
            "indices_are_sorted": False, "unique_indices": False}
UNARY = {"negative": jnp.negative, "abs": jnp.abs, "sqrt": jnp.sqrt, "exp": jnp.exp,
         "log": jnp.log, "sin": jnp.sin, "cos": jnp.cos, "square": jnp.square,
         "floor": jnp.floor, "ceil": jnp.ceil, "round": jnp.round}


# ---------------------------------------------------------------------------------------------
# SQL text


def literal_sql(v):
    if isinstance(v, (bool, np.bool_)):
        return "true" if v else "false"
    if isinstance(v, str):
        return f"'{v}'"
    if isinstance(v, float):
        assert math.isfinite(v), v
        return repr(v)
    return str(int(v))


def tsql(arr, perm=None):
    """tensor_sql, with NaN and infinities (not SQL literals) written as casts."""
    text = tensor_sql(arr, perm)
    text = re.sub(r"(?<=[\[ ])NaN(?=[,\]])", "CAST('NaN' AS DOUBLE)", text)
    text = re.sub(r"(?<=[\[ ])(-?)inf(?=[,\]])", r"CAST('\1inf' AS DOUBLE)", text)
    return text


def options_sql(order, opts, named):
    """Named: the options as the Python call gives them (any subset, any order: the keyword
    rewrite of TensorSql / the CLI). Positional: a prefix of `order`, defaults filled in."""
    if named:
        return [f"{k} => {literal_sql(v)}" for k, v in opts.items()]
    given = [k for k in order if k in opts]
    if not given:
        return []
    out = []
    for k in order[: order.index(given[-1]) + 1]:
        if k in opts:
            v = opts[k]
        elif k in DEFAULTS:
            v = DEFAULTS[k]
        else:
            raise ValueError(f"option {k} needed before {given[-1]}")
        out.append(f"{k} => {literal_sql(v)}" if named else literal_sql(v))
    return out


def regex_escape(message):
    return "".join("\\" + c if c in r"\.^$|?*+()[]{}" else c for c in message)


def arrow_type(result):
    element = ARROW[result.dtype]
    return element if result.ndim == 0 else f"FixedSizeList({result.size} x {element})"


def check_display(arr):
    """fixture_format writes floats with Python's repr; Arrow prints float32/float64 with ryu
    (shortest digits of the value's own type) and float16 with f32's Display. Refuse values
    where those differ, and magnitudes that print with an exponent."""
    arr = np.asarray(arr)
    if not np.issubdtype(arr.dtype, np.floating):
        return
    for v in arr.reshape(-1):
        f = float(v)
        if not math.isfinite(f):
            continue
        assert f == 0 or 1e-4 <= abs(f) < 1e16, f"{f} would print with an exponent"
        ours = fmt_scalar(v, arr.dtype)
        if arr.dtype == np.float64:
            arrow = repr(f)
        elif arr.dtype == np.float32:
            arrow = np.format_float_positional(np.float32(v), unique=True, trim="0")
        else:
            arrow = np.format_float_positional(np.float32(v), unique=True, trim="-")
        assert ours == arrow, f"{arr.dtype} {f}: fixture prints {ours}, Arrow {arrow}"


# ---------------------------------------------------------------------------------------------
# Indices: static strings and literals


class Idx:
    def __init__(self, sql, value, text):
        self.sql, self.value, self.text = sql, value, text


def to_jax(obj):
    if isinstance(obj, tuple):
        return tuple(to_jax(o) for o in obj)
    if isinstance(obj, list):
        a = np.array(obj)
        return a.astype(np.int64) if a.size == 0 else a
    return obj


def S(text):
    """A static index string in numpy syntax."""
    return Idx(f"'{text}'", to_jax(numpy_index(text)), text)


def I(n):
    """A literal integer: axis 0."""
    return Idx(str(n), n, str(n))


def L(values):
    """A literal integer list: an advanced index on axis 0."""
    return Idx(str(values), np.array(values, dtype=np.int64), f"jnp.array({values})")


def C(coords):
    """A literal list of m coordinate tuples into the first k axes."""
    a = np.array(coords, dtype=np.int64)
    cols = tuple(a[:, j] for j in range(a.shape[1]))
    text = "(" + ", ".join(f"jnp.array({list(map(int, c))})" for c in cols) + ")"
    return Idx(str(coords), cols, text)


# ---------------------------------------------------------------------------------------------
# JAX


def jax_y(y):
    """A Python literal stays weakly typed (as JAX takes it); arrays keep their dtype; a Python
    list is the array jnp.asarray makes of it (as SQL's list literal is a tensor)."""
    return y if not isinstance(y, (np.ndarray, list)) else jnp.asarray(y)


def y_sql(y):
    """y as SQL: a tensor literal, a list literal (written as Python writes the list) or a number."""
    if isinstance(y, np.ndarray):
        return tsql(y)
    if isinstance(y, list):
        return repr(y).replace("True", "true").replace("False", "false")
    return literal_sql(y)


def run_jax(fn, x, index, y, opts, fun=None):
    """Returns (result, warnings)."""
    kw = {k: v for k, v in opts.items() if k != "fill_value" or fn == "get"}
    if kw.get("mode") == "raise":
        del kw["mode"]
    xa = jnp.asarray(x)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ref = xa.at[index]
        if fn == "get":
            r = ref.get(**kw)
        elif fn == "apply":
            r = ref.apply(fun, **kw)
        else:
            r = getattr(ref, fn)(jax_y(y), **kw)
        r = np.asarray(r)
    return r, [str(w.message) for w in caught if "scatter inputs" in str(w.message)]


def positions(x, index, opts):
    """Flat positions of x[index] after the mode (-1: dropped), from a gather of ids."""
    ids = jnp.arange(x.size, dtype=jnp.int64).reshape(x.shape)
    wrap = opts.get("wrap_negative_indices", True)
    if opts.get("mode") == "clip":
        pos = ids.at[index].get(mode="clip", wrap_negative_indices=wrap)
    else:
        pos = ids.at[index].get(mode="fill", fill_value=-1, wrap_negative_indices=wrap)
    return np.asarray(pos)


def loop_reference(fn, x, index, y, opts, fun=None):
    """The update applied occurrence by occurrence, in row-major order of x[index], in the
    type JAX computes in (x's promoted with y's) and cast back to x's type."""
    pos = positions(x, index, opts)
    if fn == "apply":
        out = np.array(x, copy=True, order="C")
        flat = out.reshape(-1)
        for p in pos.reshape(-1):
            if p >= 0:
                flat[p] = np.asarray(fun(flat[p]))
        return out
    promoted = np.dtype(jnp.result_type(jnp.asarray(x), jax_y(y)))
    out = np.array(x, dtype=promoted, copy=True, order="C")
    flat = out.reshape(-1)
    ys = np.broadcast_to(np.asarray(y, dtype=promoted), pos.shape).reshape(-1)
    factor = np.ones(x.size, dtype=promoted)
    isnan = np.isnan if np.issubdtype(promoted, np.floating) else (lambda v: False)
    for p, v in zip(pos.reshape(-1), ys):
        if p < 0:
            continue
        if fn == "set":
            flat[p] = v
        elif fn == "add":
            flat[p] = flat[p] + v
        elif fn == "subtract":
            flat[p] = flat[p] - v
        elif fn == "multiply":
            flat[p] = flat[p] * v
        elif fn == "min":
            flat[p] = np.nan if (isnan(flat[p]) or isnan(v)) else min(flat[p], v)
        elif fn == "max":
            flat[p] = np.nan if (isnan(flat[p]) or isnan(v)) else max(flat[p], v)
        elif fn in ("divide", "power"):
            factor[p] = factor[p] * v  # JAX: duplicate divisors / exponents multiply
    factor = factor.reshape(x.shape).astype(x.dtype)
    with np.errstate(divide="ignore", invalid="ignore"):
        if fn == "divide":
            return np.asarray(x) / factor if np.issubdtype(x.dtype, np.floating) else \
                np.asarray(x, np.float64) / factor.astype(np.float64)
        if fn == "power":
            return np.power(np.asarray(x), factor)
    return out.astype(x.dtype)


def same(a, b):
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape:
        return False
    if np.issubdtype(a.dtype, np.floating) or np.issubdtype(b.dtype, np.floating):
        return np.array_equal(a.astype(np.float64), b.astype(np.float64), equal_nan=True)
    return np.array_equal(a, b)


def expected(fn, x, index, y, opts, fun=None):
    """(result, notes): JAX's result, with spec.md §5's departures applied."""
    notes = []
    x = np.asarray(x)
    if fn == "divide" and np.issubdtype(x.dtype, np.integer):
        r32, _ = run_jax(fn, x, index, y, opts)
        r, warns = run_jax(fn, x.astype(np.int64 if x.dtype != np.uint64 else np.uint64), index, y, opts)
        assert r.dtype == np.float64
        if r32.dtype != np.float64:
            assert np.allclose(r32, r, equal_nan=True)
            notes.append(f"JAX gives {r32.dtype} for {x.dtype}; spec.md §5: Float64")
    else:
        r, warns = run_jax(fn, x, index, y, opts, fun)
    if warns:
        notes.append("JAX warns: " + warns[0].split(" with jax_numpy")[0])
    if fn == "get":
        return r, notes
    ref = loop_reference(fn, x, index, y, opts, fun)
    if fn == "set" and not same(r, ref):
        notes.append("JAX's order differs; spec.md §5: the last occurrence wins")
        r = ref.astype(r.dtype)
    else:
        assert same(r, ref), (fn, x, index, y, opts, r, ref)
    return r, notes


def check_raise(fn, x, index, opts):
    """In-bounds check for mode 'raise' (True if every index is in bounds)."""
    return bool((positions(np.asarray(x), index, dict(opts, mode="fill")) >= 0).all())


# ---------------------------------------------------------------------------------------------
# Writer


def describe(v):
    if isinstance(v, list):
        return repr(v)
    if isinstance(v, np.ndarray):
        return f"jnp.array({fmt(v)}, {v.dtype})" if v.size <= 12 else f"<{v.dtype} {list(v.shape)}>"
    return repr(v)


def python_lambda(sql):
    """'v -> v * 2 + 1' as Python: 'lambda v: v * 2 + 1'."""
    arg, body = sql.split("->", 1)
    return f"lambda {arg.strip()}: {body.strip()}".replace("NOT ", "~")


def kwargs_text(opts):
    return "".join(f", {k}={v!r}" for k, v in opts.items())


class Writer:
    def __init__(self):
        self.lines = [
            "# Generated by tests/data/make_at_fixtures.py from JAX's x.at[idx] updates; do not edit.",
            f"# jax {jax.__version__}, jaxlib {jaxlib.__version__}, numpy {np.__version__}; jax_enable_x64",
        ]
        self.count = 0

    def comment(self, text):
        self.lines += ["", f"# {text}"]

    def _emit(self, comment, call, result, notes):
        self.count += 1
        check_display(result)
        text = " ".join([comment] + [f"({n})" for n in notes])
        self.lines += ["", f"# {text}", "query TT", f"SELECT {call}, arrow_typeof({call});", "----",
                       f"{fmt(result)} {arrow_type(result)}"]

    def error(self, comment, call, message):
        self.count += 1
        self.lines += ["", f"# {comment}", f"query error {regex_escape(message)}", f"SELECT {call};"]

    def update(self, op, x, idx, y, perm=None, named=True, note="", y_column=False, **opts):
        x = np.asarray(x)
        xs = tsql(x, perm)
        # y_column: a list as a list column (a scalar subquery), not a literal.
        ys = f"(SELECT {y_sql(y)})" if y_column else y_sql(y)
        call = f"tensor_at_{op}({', '.join([xs, idx.sql, ys] + options_sql(UPDATE_OPTIONS, opts, named))})"
        layout = f" stored permuted {perm}" if perm else ""
        comment = f"x: {x.dtype} {list(x.shape)}{layout}; x.at[{idx.text}].{op}({describe(y)}{kwargs_text(opts)})"
        if opts.get("mode") == "raise":
            assert check_raise(op, x, idx.value, opts)
        result, notes = expected(op, x, idx.value, y, opts)
        self._emit(comment, call, result, notes + ([note] if note else []))

    def update_as_double(self, op, x, idx, y, at, note=""):
        """One element of the result read as Float64 (its float32 value has no short decimal
        that fixture_format and Arrow's display agree on)."""
        x = np.asarray(x)
        ys = tsql(y) if isinstance(y, np.ndarray) else literal_sql(y)
        call = f"tensor_at_{op}({tsql(x)}, {idx.sql}, {ys})"
        result, notes = expected(op, x, idx.value, y, {})
        v = np.float64(result[int(at)])
        check_display(v)
        self.count += 1
        text = " ".join([f"x: {x.dtype} {list(x.shape)}; x.at[{idx.text}].{op}({describe(y)})[{at}] as float64"]
                        + [f"({n})" for n in notes + ([note] if note else [])])
        self.lines += ["", f"# {text}", "query TT", f"SELECT CAST(tensor_get({call}, '{at}') AS DOUBLE), "
                       f"arrow_typeof(tensor_get({call}, '{at}'));", "----", f"{fmt(v)} {ARROW[result.dtype]}"]

    def get(self, x, idx, perm=None, named=True, note="", **opts):
        x = np.asarray(x)
        call = f"tensor_at_get({', '.join([tsql(x, perm), idx.sql] + options_sql(GET_OPTIONS, opts, named))})"
        layout = f" stored permuted {perm}" if perm else ""
        comment = f"x: {x.dtype} {list(x.shape)}{layout}; x.at[{idx.text}].get({kwargs_text(opts)[2:]})"
        if opts.get("mode") == "raise":
            assert check_raise("get", x, idx.value, opts)
        result, notes = expected("get", x, idx.value, None, opts)
        self._emit(comment, call, result, notes + ([note] if note else []))

    def apply(self, x, idx, fn, perm=None, named=False, note="", **opts):
        """fn: a unary function's name, or (SQL lambda, Python function)."""
        x = np.asarray(x)
        fn_sql, fun = (literal_sql(fn), UNARY[fn]) if isinstance(fn, str) else fn
        fn_text = f"jnp.{fn}" if isinstance(fn, str) else python_lambda(fn[0])
        call = f"tensor_at_apply({', '.join([tsql(x, perm), idx.sql, fn_sql] + options_sql(UPDATE_OPTIONS, opts, named))})"
        layout = f" stored permuted {perm}" if perm else ""
        comment = f"x: {x.dtype} {list(x.shape)}{layout}; x.at[{idx.text}].apply({fn_text}{kwargs_text(opts)})"
        result, notes = expected("apply", x, idx.value, None, opts, fun)
        self._emit(comment, call, result, notes + ([note] if note else []))

    def apply_rounded(self, x, idx, fn, at, digits=5, note=""):
        """exp/log/sin/cos may differ from XLA in the last ulp: compare one rounded element."""
        x = np.asarray(x)
        call = f"tensor_at_apply({tsql(x)}, {idx.sql}, {literal_sql(fn)})"
        result, _ = expected("apply", x, idx.value, None, {}, UNARY[fn])
        v = float(result[at])
        scale = 10.0 ** digits  # DataFusion's round: (v * 10^d).round() / 10^d, half away from zero
        rounded = math.copysign(math.floor(abs(v) * scale + 0.5), v) / scale
        assert rounded == round(v, digits)
        self.count += 1
        text = (f"x: {x.dtype} {list(x.shape)}; x.at[{idx.text}].apply(jnp.{fn})[{at}] = {v!r}, "
                f"compared rounded to {digits} digits (libm and XLA may differ in the last ulp)" + (f" ({note})" if note else ""))
        self.lines += ["", f"# {text}", "query T", f"SELECT round(tensor_get({call}, '{at}'), {digits});",
                       "----", repr(rounded)]

    def raise_error(self, fn, x, idx, message, y=None, named=True, **opts):
        x = np.asarray(x)
        opts = dict(opts, mode="raise")
        assert not check_raise(fn, x, idx.value, opts)
        if fn == "get":
            call = f"tensor_at_get({', '.join([tsql(x), idx.sql] + options_sql(GET_OPTIONS, opts, named))})"
        elif fn == "apply":
            call = f"tensor_at_apply({', '.join([tsql(x), idx.sql, literal_sql(y)] + options_sql(UPDATE_OPTIONS, opts, False))})"
        else:
            ys = tsql(y) if isinstance(y, np.ndarray) else literal_sql(y)
            call = f"tensor_at_{fn}({', '.join([tsql(x), idx.sql, ys] + options_sql(UPDATE_OPTIONS, opts, named))})"
        self.error(f"x: {x.dtype} {list(x.shape)}; x.at[{idx.text}] with mode 'raise' (not a JAX mode; "
                   f"spec.md §5: the query fails)", call, message)

    def rows(self, fn, x, kind, idxs, y=None, ys=None, xs=None, fun=None, named=True, note="",
             error=None, **opts):
        """One x (or one per row: xs), a column index per row (kind: 'int', 'int32', 'list',
        'tensor1', 'tensor2 m k'), y a literal/tensor or ys a numeric column (Int64 / Float64)."""
        x = np.asarray(x if xs is None else xs[0])
        n = len(idxs)
        cols = ["id", "i0"] + (["yv"] if ys is not None else []) + (["xv"] if xs is not None else [])
        values = []
        for r in range(n):
            row = [str(r + 1), str(idxs[r]) if not isinstance(idxs[r], list) else str(idxs[r])]
            if ys is not None:
                row.append(literal_sql(ys[r]))
            if xs is not None:
                row.append("[" + ", ".join(fmt_scalar(v, x.dtype) for v in np.asarray(xs[r]).reshape(-1)) + "]")
            values.append("(" + ", ".join(row) + ")")
        x_sql = tsql(x) if xs is None else \
            f"tensor(arrow_cast(xv, 'List({ARROW[x.dtype]})'), [{', '.join(map(str, x.shape))}])"
        if kind == "int":
            i_sql = "i0"
        elif kind == "int32":
            i_sql = "arrow_cast(i0, 'Int32')"
        elif kind == "list":
            i_sql = "i0"
        elif kind == "tensor1":
            i_sql = f"tensor(i0, [{len(idxs[0])}])"
        else:
            m, k = map(int, kind.split()[1:])
            i_sql = f"tensor(i0, [{m}, {k}])"
        inner = f"SELECT id, {x_sql} AS x, {i_sql} AS i" + (", yv AS y" if ys is not None else "")
        inner += f" FROM (VALUES {', '.join(values)}) AS v({', '.join(cols)})"
        if fn == "get":
            args = ["x", "i"] + options_sql(GET_OPTIONS, opts, named)
        elif fn == "apply":
            args = ["x", "i", fun[0] if isinstance(fun, tuple) else literal_sql(fun)] + options_sql(UPDATE_OPTIONS, opts, False)
        else:
            y_sql = "y" if ys is not None else (tsql(y) if isinstance(y, np.ndarray) else literal_sql(y))
            args = ["x", "i", y_sql] + options_sql(UPDATE_OPTIONS, opts, named)
        call = f"tensor_at_{fn}({', '.join(args)})"
        ytext = "y (a column)" if ys is not None else describe(y)
        head = (f"x: {x.dtype} {list(x.shape)}{' (one per row)' if xs is not None else ''}; index column "
                f"{kind.split()[0]} {idxs}" + (f", y column {ys}" if ys is not None else ""))
        if fn == "get":
            jax_text = f"x.at[i].get({kwargs_text(opts)[2:]})"
        elif fn == "apply":
            jax_text = f"x.at[i].apply({python_lambda(fun[0]) if isinstance(fun, tuple) else 'jnp.' + fun}{kwargs_text(opts)})"
        else:
            jax_text = f"x.at[i].{fn}({ytext}{kwargs_text(opts)})"
        if error is not None:
            self.count += 1
            self.lines += ["", f"# {head}; {jax_text} with mode 'raise' (spec.md §5: the query fails at the row)",
                           f"query error {regex_escape(error)}", f"SELECT {call} FROM ({inner});"]
            return
        out, all_notes = [], []
        for r in range(n):
            xr = np.asarray(xs[r]) if xs is not None else x
            raw = idxs[r]
            if kind in ("int", "int32"):
                index = int(raw)
            elif kind in ("list", "tensor1"):
                index = np.array(raw, dtype=np.int64)
            else:
                m, k = map(int, kind.split()[1:])
                a = np.array(raw, dtype=np.int64).reshape(m, k)
                index = tuple(a[:, j] for j in range(k))
            yr = y if ys is None else np.asarray(ys[r], dtype=np.float64 if isinstance(ys[r], float) else np.int64)
            if opts.get("mode") == "raise":
                assert check_raise(fn, xr, index, opts)
            function = UNARY[fun] if isinstance(fun, str) else (fun[1] if fun else None)
            res, notes = expected(fn, xr, index, yr, opts, function)
            check_display(res)
            out.append(f"{r + 1} {fmt(res)} {arrow_type(res)}")
            all_notes += [nt for nt in notes if nt not in all_notes]
        self.count += 1
        text = " ".join([f"{head}; {jax_text}"] + [f"({nt})" for nt in all_notes + ([note] if note else [])])
        self.lines += ["", f"# {text}", "query ITT",
                       f"SELECT id, {call}, arrow_typeof({call}) FROM ({inner}) ORDER BY id;", "----"] + out

    def write(self):
        OUT.parent.mkdir(parents=True, exist_ok=True)
        OUT.write_text("\n".join(self.lines) + "\n")


# ---------------------------------------------------------------------------------------------
# Cases


INTS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
FLOATS = [np.float16, np.float32, np.float64]


def main():
    w = Writer()

    w.comment("The seed document's examples (jax.Array.at), verbatim: x = jnp.arange(5.0).")
    x = np.arange(5.0, dtype=np.float32)
    w.get(x, I(2))
    w.update("add", x, I(2), 10)
    w.update("add", x, I(10), 10, note="dropped")
    w.update("add", x, I(20), 10, mode="clip", note="clipped")
    w.get(x, I(20), note="out-of-bounds indices clipped")
    w.get(x, I(20), mode="fill", note="out-of-bounds indices filled with NaN")
    w.get(x, I(20), mode="fill", fill_value=-1, note="custom fill value")
    w.update("set", x, I(-1), 99)
    w.update("set", x, I(-1), 99, mode="drop", wrap_negative_indices=False, note="dropped!")

    w.comment("Every operation on every element type JAX accepts, with a duplicate index "
              "(x[0, 2] once, x[1, 0] twice). JAX rejects add/subtract/multiply/divide/power on bool.")
    idx = S("[0, 1, 1], [2, 0, 0]")
    ys = {"set": [7, 8, 9], "add": [2, 3, 2], "subtract": [1, 1, 2], "multiply": [2, 3, 2],
          "divide": [2, 4, 2], "power": [2, 3, 1], "min": [2, 0, 5], "max": [2, 9, 5]}
    for dtype in INTS + FLOATS:
        x = np.array([[1, 2, 3], [4, 5, 6]], dtype=dtype)
        for op in UPDATE_OPS:
            w.update(op, x, idx, np.array(ys[op], dtype=dtype))
    xb = np.array([[True, False, True], [False, True, False]])
    w.update("set", xb, idx, np.array([False, True, False]))
    w.update("min", xb, idx, np.array([False, True, True]))
    w.update("max", xb, idx, np.array([False, True, False]))

    w.comment("Scalar literal y into every element type (integer literals for integer x).")
    for k, dtype in enumerate(INTS + FLOATS):
        x = np.array([3, 1, 4, 1, 5], dtype=dtype)
        if k % 2 == 0:
            w.update("add", x, L([0, 4, 4]), 2)
        else:
            w.update("max", x, S("1:4"), 2, named=False, mode="promise_in_bounds")
    for dtype in FLOATS:
        x = np.array([3, 1, 4, 1, 5], dtype=dtype)
        w.update("multiply", x, S("::2"), 0.5)
        w.update("subtract", x, S("[-1, -1]"), 1.25)
    w.update("set", np.array([True, False, False]), I(1), True)
    w.update("min", np.array([True, True, False]), S(":2"), False)

    w.comment("apply: a unary function by name, once per occurrence (duplicates apply it again).")
    for dtype in [np.int8, np.int16, np.int32, np.int64]:
        x = np.array([-3, 5, -7, 2], dtype=dtype)
        w.apply(x, L([0, 2, 2]), "negative")
        if dtype in (np.int8, np.int64):
            w.apply(x, S("[0, 1, 2]"), "abs")
        w.apply(x, S("[0, 0, 3]"), "square")
    for dtype in [np.uint8, np.uint16, np.uint32, np.uint64]:
        x = np.array([3, 5, 7, 2], dtype=dtype)
        w.apply(x, L([0, 0, 3]), "square")
    w.apply(np.array([3, 5, 7, 2], dtype=np.uint32), S("1:"), "abs")
    w.apply(np.array([True, False]), S("[0, 1, 1]"), "abs", note="JAX accepts abs on bool: identity")
    x64 = np.array([16.0, -2.5, 9.0, 1.0, 0.0, 0.25])
    w.apply(x64, S("[0, 0, 2]"), "sqrt", note="sqrt(sqrt(16)) = 2, exact")
    w.apply(x64, S("[1, 1, 1]"), "negative")
    w.apply(x64, S("1"), "abs")
    w.apply(x64, S("[1, 5, 5]"), "square")
    w.apply(x64, S("4"), "exp", note="exp(0) = 1, exact")
    w.apply(x64, S("3"), "log", note="log(1) = 0, exact")
    w.apply(x64, S("[4, 4]"), "sin", note="sin(sin(0)) = 0, exact")
    w.apply(x64, S("4"), "cos", note="cos(0) = 1, exact")
    w.apply(x64, S("[3, 3]"), "log", note="log(log(1)) = log(0) = -inf, exact")
    w.apply(x64, S("1"), "sqrt", note="sqrt(-2.5) = NaN")
    w.apply_rounded(np.array([0.0, 1.0, 2.0]), S("[1, 1]"), "exp", 1, note="exp(exp(1))")
    w.apply_rounded(np.array([10.0, 2.0]), S("[0, 0]"), "log", 0, note="log(log(10))")
    w.apply_rounded(np.array([1.0, 2.0]), S("1"), "sin", 1)
    w.apply_rounded(np.array([0.0, 2.0]), S("[0, 0, 0]"), "cos", 0, note="cos(cos(cos(0)))")
    for dtype in [np.float32, np.float16]:
        x = np.array([2.25, 0.0, 1.0, -4.0], dtype=dtype)
        w.apply(x, S("0"), "sqrt")
        w.apply(x, S("1"), "exp", note="exp(0) = 1, exact")
        w.apply(x, S("[3, 3]"), "square")
        w.apply(x, S("[1, 1]") if dtype == np.float16 else S("2"), "sin" if dtype == np.float16 else "log",
                note="sin(sin(0)) = 0, exact" if dtype == np.float16 else "log(1) = 0, exact")

    w.comment("apply with a SQL lambda, once per occurrence.")
    w.apply(np.array([1.0, 2.0, 3.0]), S("[0, 0, 0, 2]"), ("v -> v * 2 + 1", lambda v: v * 2 + 1))
    w.apply(np.array([1, 2, 3], dtype=np.int64), L([2, 2]), ("v -> v * 2 + 1", lambda v: v * 2 + 1))
    w.apply(np.array([[1, 2], [3, 4]], dtype=np.int64), S(":, 1"), ("v -> v - 10", lambda v: v - 10))
    w.apply(np.array([0.5, -1.5, 4.0]), S("::-1"), ("v -> v * v", lambda v: v * v))
    w.apply(np.array([True, False]), S("[0, 0, 1]"), ("v -> NOT v", jnp.logical_not),
            note="flipped twice, then once")

    w.comment("Duplicate indices for every operation: all occurrences apply; set: the last wins.")
    x = np.array([1.0, 2.0, 3.0, 4.0])
    dup = S("[2, 0, 2, 2]")
    dup_y = {"set": [5.0, 6.0, 7.0, 8.0], "add": [1.0, 10.0, 100.0, 1000.0], "subtract": [1.0, 10.0, 100.0, 1000.0],
             "multiply": [2.0, 3.0, 4.0, 0.5], "divide": [2.0, 4.0, 8.0, 0.5], "power": [2.0, 3.0, 0.5, 2.0],
             "min": [5.0, 0.5, -1.0, 2.0], "max": [5.0, 0.5, -1.0, 7.0]}
    for op in UPDATE_OPS:
        w.update(op, x, dup, np.array(dup_y[op]))
    w.update("set", np.zeros(3), L([0, 0, 0, 1, 1]), np.array([1.0, 2.0, 3.0, 4.0, 5.0]))
    w.update("set", np.zeros(3), S("[0, 1, 2, 0, 1, 2, 0, 1, 2, 0]"), np.arange(10.0))
    w.update("set", np.zeros((2, 3), np.int32), S("[[0, 1], [1, 0]]"),
             np.array([[[1]], [[2]]], np.int32), note="y broadcast to [2, 2, 3]; row 0 last set by y[1]")
    w.update("set", np.zeros((2, 2), np.int16), S("[0, 1, 0], [1, 1, 1]"), np.array([3, 4, 5], np.int16))
    w.update("divide", np.array([1.0, 1.0]), L([0, 0]), np.array([5.0, 7.0]),
             note="JAX: x / (5 * 7) = 0.02857142857142857, not (x / 5) / 7 = 0.028571428571428574")
    w.update("power", np.array([-8.0, 4.0]), L([0, 0]), np.array([2.0, 0.5]),
             note="JAX: x ** (2 * 0.5) = -8, not (x ** 2) ** 0.5 = 8")
    w.update("power", np.array([2, 3], np.int32), L([0, 0, 0, 1]), 2, note="2 ** 8 and 3 ** 2")
    w.update("divide", np.array([7, -9, 4], np.int32), L([0, 1, 0]), 2)
    w.update("divide", np.array([1, 0, -7], np.int64), S(":"), 0, note="integer / 0: inf, NaN, -inf")

    w.comment("NaN through min and max (either side, duplicates).")
    xn = np.array([1.0, np.nan, 3.0, 4.0])
    w.update("min", xn, S("[1, 2]"), 2.0)
    w.update("max", xn, S("[0, 0, 0]"), np.array([np.nan, 5.0, 0.0]))
    w.update("min", xn, S("[3, 3]"), np.array([0.5, np.nan]))
    w.update("max", xn.astype(np.float32), S("1:"), np.array([0.0, 3.5, np.nan], np.float32))
    w.update("min", xn.astype(np.float16), S("::-1"), np.array([np.inf, -np.inf, 0.0, 2.0], np.float16))
    w.update("add", xn, S("[1, 3]"), np.array([1.0, np.inf]))

    w.comment("Signed zeros through min and max: JAX orders -0.0 below 0.0, whichever comes first "
              "(found by a differential fuzz against JAX).")
    xz = np.array([-0.0, 0.0])
    w.update("max", xz, S(":"), 0.0)
    w.update("max", xz, S(":"), -0.0)
    w.update("min", xz[::-1].copy(), S(":"), -0.0)
    w.update("min", xz[::-1].copy(), S(":"), 0.0)
    w.update("max", xz.astype(np.float32), S("[0, 1, 0]"), np.array([0.0, -0.0, -0.0], np.float32))
    w.update("min", xz.astype(np.float32), S("[1, 1, 0]"), np.array([-0.0, 0.0, 0.0], np.float32))

    w.comment("floor, ceil and round of integers give them back unchanged (JAX), also past 2**53.")
    w.apply(np.array([1, -2, 2**62 + 1], np.int64), S("[0, 2]"), "floor")
    w.apply(np.array([7, -3], np.int8), S("1"), "ceil")
    w.apply(np.array([7, 3], np.uint32), S("[0, 0]"), "round")
    w.apply(np.array([2.5, -0.5, 1.5], np.float64), S(":"), "round", note="half to even")

    w.comment("Modes with out-of-bounds and negative indices on a [5] tensor: the default "
              "(promise_in_bounds) drops out-of-bounds updates, clip clamps, drop/fill drop.")
    x = np.arange(10, 60, 10).astype(np.int32)
    oob = L([0, 7, -1, -6, 2, -5])
    for mode in [None, "promise_in_bounds", "clip", "drop", "fill"]:
        opts = {} if mode is None else {"mode": mode}
        w.update("add", x, oob, 1, **opts)
        if mode in (None, "clip", "drop"):
            w.update("set", x, oob, np.array([1, 2, 3, 4, 5, 6], np.int32), **opts)
        w.update("add", x, oob, 1, wrap_negative_indices=False, **opts)
    w.update("subtract", x, oob, 5, named=False, mode="clip", wrap_negative_indices=False)
    w.update("add", x, I(5), 1, mode="clip")
    w.update("add", x, I(-5), 1, mode="drop", wrap_negative_indices=True, note="-5 wraps to 0")
    w.update("add", x, I(-6), 1, mode="clip", note="-6 wraps once to -1, then clips to 0")
    w.update("multiply", x, S("-6"), 2, mode="drop", note="-n-1 stays out of bounds")
    w.update("max", x, S("[5, 6, 100]"), 99, mode="drop")
    w.update("min", x, S("[5, 6, 100]"), 0, mode="clip")

    w.comment("get: default clamps; fill gives fill_value (default NaN / minimum / maximum / True).")
    xf = np.arange(5, dtype=np.float64) + 0.5
    for mode in [None, "clip", "drop", "fill"]:
        opts = {} if mode is None else {"mode": mode}
        w.get(xf, oob, **opts)
    w.get(xf, oob, mode="fill", fill_value=-1.5)
    w.get(xf, oob, mode="fill", fill_value=-1.5, wrap_negative_indices=False)
    w.get(xf, oob, mode="clip", fill_value=0, wrap_negative_indices=False, note="fill_value ignored outside fill")
    w.get(xf, oob, mode="promise_in_bounds", fill_value=0, wrap_negative_indices=False,
          note="negative indices clamp to 0")
    w.get(xf, I(-6), named=False, mode="fill", fill_value=7)
    for dtype in INTS + FLOATS + [np.bool_]:
        xd = np.array([1, 0, 1], dtype=dtype)
        w.get(xd, S("[0, 3, -4, 2]"), mode="fill")
    w.get(np.array([1, 2], np.int8), I(2), mode="fill", fill_value=100)
    w.get(np.array([1, 2], np.uint16), S("[-1, 5]"), mode="fill", fill_value=7, wrap_negative_indices=False)
    w.get(np.array([True, True]), I(9), mode="fill", fill_value=False)
    w.get(np.array([1.0, 2.0], np.float16), L([1, 2]), mode="fill", fill_value=0.5)

    w.comment("drop/fill act on the whole window an index selects (a column, a row, a slab).")
    x2 = np.arange(12, dtype=np.float64).reshape(3, 4)
    for mode in [None, "clip", "drop", "fill"]:
        opts = {} if mode is None else {"mode": mode}
        w.update("add", x2, S(":, [0, 9]"), 100, **opts)
        w.get(x2, S(":, [0, 9]"), **opts)
    w.update("set", x2, S("[1, 3]"), np.array([[-1.0, -2.0, -3.0, -4.0]]), mode="drop")
    w.update("set", x2, S("[1, 3]"), np.array([-1.0, -2.0, -3.0, -4.0]), mode="clip")
    w.get(x2, I(9), mode="fill", fill_value=-1)
    w.get(x2, S("9, 1"), mode="fill", fill_value=-1)
    w.update("add", x2, S("[1, 9], [0, 1]"), 100, mode="drop")
    w.update("add", x2, S("[1, 5], [0, -9]"), 100, mode="clip")
    x3 = np.arange(24, dtype=np.int64).reshape(2, 3, 4)
    w.update("add", x3, S(":, [0, 3, -1]"), 1000, mode="drop")
    w.update("add", x3, S(":, [0, 3, -1]"), 1000, mode="drop", wrap_negative_indices=False)
    w.get(x3, S("..., [1, 4]"), mode="fill", fill_value=-1)

    w.comment("indices_are_sorted / unique_indices: hints; with indices that keep the promise the "
              "result equals the default.")
    x = np.arange(6, dtype=np.float32) * 1.5
    w.update("add", x, L([0, 2, 5]), 1, mode="promise_in_bounds", wrap_negative_indices=True,
             indices_are_sorted=True)
    w.update("add", x, L([0, 2, 5]), 1, mode="promise_in_bounds", wrap_negative_indices=True,
             indices_are_sorted=True, unique_indices=True)
    w.update("set", x, S("[4, 1, 3]"), np.array([7.0, 8.0, 9.0], np.float32), named=False,
             mode="promise_in_bounds", wrap_negative_indices=True, indices_are_sorted=False, unique_indices=True)
    w.update("multiply", x, S("1:4"), 2, named=False, mode="clip", wrap_negative_indices=True,
             indices_are_sorted=True, unique_indices=True)
    w.get(x, S("[1, 2, 4]"), mode="promise_in_bounds", fill_value=0, wrap_negative_indices=True,
          indices_are_sorted=True, unique_indices=True)
    w.apply(x, S("[1, 3]"), "negative", mode="drop", wrap_negative_indices=True, indices_are_sorted=True,
            unique_indices=True)
    w.update("add", x, L([-3, 0, 2]), 1, mode="drop", wrap_negative_indices=True, indices_are_sorted=False,
             unique_indices=True, note="-3 wraps to 3: unique")
    w.update("max", x, L([0, 1, 9]), 4, mode="drop", wrap_negative_indices=False, indices_are_sorted=True,
             unique_indices=True)

    w.comment("Index forms: static strings in numpy syntax, literal integers, literal lists "
              "(axis 0) and literal lists of coordinate tuples.")
    x = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    w.update("add", x, S("1"), 100)
    w.update("add", x, S("-1, 2"), np.array([1, 2, 3, 4], np.int32))
    w.update("set", x, S("0, 1:3"), np.array([[-1], [-2]], np.int32))
    w.update("set", x, S("::-1, 0, 0"), np.array([-1, -2], np.int32), note="y reversed into x")
    w.update("set", x, S("..., 0"), 0)
    w.update("add", x, S("None, 1"), np.array([[1, 2, 3, 4]], np.int32))
    w.update("subtract", x, S("..."), 1)
    w.update("add", x, S(":, [0, 2]"), np.array([[10], [20]], np.int32))
    w.update("add", x, S("[0, 1], :, [1, 1]"), np.array([100, 200, 300], np.int32), note="advanced dims first: x[idx] is [2, 3]")
    w.update("multiply", x, S("[True, False]"), 2)
    w.update("max", x, S("0, [[True, False, True, False], [False, True, True, False], [True, True, True, True]]"), 5)
    w.update("add", x, S("True"), 1)
    w.update("add", x, S("1, ::2, 1::2"), np.array([[1, 2], [3, 4]], np.int32))
    w.update("set", x, S("[0, 0, 1]"), np.array([[[7]], [[8]], [[9]]], np.int32))
    w.update("add", x, L([0, 0, 1]), 1)
    w.update("add", x, I(1), 1)
    w.update("add", x, I(-2), 1)
    w.update("set", x, C([[0, 1], [1, 2]]), np.array([[-1], [-2]], np.int32))
    w.update("add", x, C([[0, 1, 2], [1, 2, 3], [0, 1, 2]]), 1000, note="a duplicated coordinate tuple")
    w.get(x, C([[0, 1], [1, 2]]))
    w.get(x, C([[1, 2, 3]]))
    w.get(x, S("1, 2, 3"), note="0-d result: a plain value")
    w.get(x, S("1:3, ::2"))
    w.get(x, S("None, 0, [2, 0]"))
    w.get(np.array([[True, False], [False, True]]), S("1, 1"))
    w.get(np.array([1.5, -2.0], np.float16), I(0))

    w.comment("Permuted x (indexed by its logical layout; the result keeps the logical values).")
    logical = np.arange(24, dtype=np.float32).reshape(2, 3, 4).transpose(2, 0, 1)
    w.update("add", logical, S("0"), 100, perm=[2, 0, 1])
    w.update("set", logical, S(":, 1, [0, 2]"), np.array([-1.0, -2.0], np.float32), perm=[2, 0, 1])
    w.update("min", logical, L([3, 3, 1]), np.array([[[5.0]], [[2.0]], [[-1.0]]], np.float32), perm=[2, 0, 1])
    w.get(logical, S("[3, 0], 1"), perm=[2, 0, 1])
    x2p = np.arange(6, dtype=np.int64).reshape(2, 3)
    w.update("multiply", x2p, S(":, 0"), 10, perm=[1, 0])
    w.update("add", x2p, C([[1, 2], [0, 0]]), np.array([5, 7], np.int64), perm=[1, 0])
    w.apply(x2p, S("1"), "square", perm=[1, 0])

    w.comment("y broadcasting to x[idx].shape.")
    x = np.zeros((3, 4), np.float64)
    w.update("add", x, S("1:"), np.array([1.0, 2.0, 3.0, 4.0]))
    w.update("add", x, S("1:"), np.array([[1.0], [2.0]]))
    w.update("add", x, S(":, 2"), np.array([5.0]))
    w.update("set", x, S("[0, 2], 1:3"), np.array([[1.0, 2.0], [3.0, 4.0]]))
    w.update("set", x, S("..."), np.array(2.5), note="a 0-d tensor y")

    w.comment("y's type is promoted with x's, the update computed there and cast back (JAX).")
    w.update("add", np.array([1, 1], np.int32), L([0, 0]), np.array([0.5, 0.5]),
             note="computed in float64: 1 + 0.5 + 0.5 = 2")
    w.update("add", np.array([5, 9], np.uint8), I(0), np.array(-3, np.int8), note="computed in int16")
    w.update_as_double("add", np.array([1.0, 2.0], np.float32), I(0), np.array(2.0 ** -24 + 2.0 ** -50), "0",
             note="computed in float64, then rounded once: 1.0000001 (float32 first would give 1.0)")
    w.update("set", np.array([0.5, 1.5], np.float16), I(1), np.array(3, np.int64))

    w.comment("0-size dimensions and empty index results: nothing to update.")
    e = np.zeros((2, 0, 3))
    w.update("add", e, S("1"), 1)
    w.update("set", e, S(":, :, 2"), 5)
    w.get(e, S("0, :, 1"))
    x = np.arange(5.0)
    w.update("add", x, S("[]"), 1)
    w.update("add", x, S("3:1"), 1)
    w.get(x, S("[]"))
    w.get(np.arange(12.0).reshape(3, 4), S(":, []"))
    w.update("set", np.zeros((2, 0)), L([1, 1]), 3.0)

    w.comment("JAX's tests/lax_numpy_indexing_test.py: testIndexOutOfBounds (jax issue 2245).")
    x = np.arange(5, dtype=np.int32) + 1
    w.get(x, S(":10"), note="x[:10] == x")
    jidx = L([-10, -6, -5, -4, 0, 3, 4, 5, 6, 100])
    w.get(x, jidx, mode="clip")
    w.get(x.astype(np.float32), jidx, mode="fill")
    w.get(x, jidx, mode="fill")
    w.get(x.astype(np.uint32), jidx, mode="fill")
    w.get(x, jidx, mode="fill", fill_value=7)

    w.comment("testSegmentSumBehavior: zeros(max(segment_ids) + 1).at[segment_ids].add(data).")
    data = np.array([5, 1, 7, 2, 3, 4, 1, 3], dtype=float)
    seg = [0, 0, 0, 1, 2, 2, 3, 3]
    w.update("add", np.zeros(4), L(seg), data)
    w.update("add", np.zeros(5), S(str(seg)), data, note="testSegmentSum: num_segments=5")
    w.update("add", np.zeros(4, np.int64), L(seg), data.astype(np.int64))
    w.update("add", np.zeros(2, np.float32), L([2, 3]), np.array([0.0, 0.0], np.float32), mode="drop",
             note="testSegmentSumOutOfBounds: segment_sum's FILL_OR_DROP")
    w.update("min", np.full(4, np.inf), L(seg), data, note="segment_min with identity inf")
    w.update("max", np.full(4, np.iinfo(np.int32).min, np.int32), L(seg), data.astype(np.int32),
             note="segment_max with identity int32 minimum")

    w.comment("testWrapNegativeIndices1D: every operation, modes fill (wrapping) and clip (not wrapping; "
              "set and add: all four); "
              "unique indices [3, -7, 7, -4, 2] on a [5] float32 tensor (clip can collide).")
    data = np.array([1.5, -2.0, 0.5, 3.0, -1.0], np.float32)
    upd = {op: np.array([2.0, 0.5, -1.5, 4.0, 1.0], np.float32) for op in UPDATE_OPS}
    upd["power"] = np.array([2.0, 3.0, 1.0, 2.0, 0.0], np.float32)
    upd["divide"] = np.array([2.0, 0.5, -2.0, 4.0, 1.0], np.float32)
    widx = L([3, -7, 7, -4, 2])
    for op in UPDATE_OPS:
        for mode in ["fill", "clip"]:
            for wrap in [True, False]:
                if op in ("set", "add") or (mode == "fill") == wrap:
                    w.update(op, data, widx, upd[op], named=(op not in ("min", "max")), mode=mode,
                             wrap_negative_indices=wrap)
    for mode in ["fill", "clip"]:
        for wrap in [True, False]:
            w.get(data, widx, mode=mode, fill_value=99, wrap_negative_indices=wrap)

    w.comment("Mode 'raise' (not in JAX): in bounds it equals the default; out of bounds the "
              "query fails with numpy's words (a static index: when the query is planned).")
    x = np.arange(5.0)
    w.update("add", x, L([0, 4, -5]), 1, mode="raise")
    w.get(x, S("-1"), mode="raise")
    w.raise_error("add", x, I(10), "index 10 is out of bounds for axis 0 with size 5", y=1)
    w.raise_error("set", x, L([0, 10]), "index 10 is out of bounds for axis 0 with size 5", y=1)
    w.raise_error("set", x, S("-6"), "index -6 is out of bounds for axis 0 with size 5", y=1)
    w.raise_error("set", x, I(-1), "index -1 is out of bounds for axis 0 with size 5", y=99,
                  wrap_negative_indices=False)
    w.raise_error("get", x, I(5), "index 5 is out of bounds for axis 0 with size 5")
    w.raise_error("get", np.zeros((2, 3)), S(":, [0, 3]"), "index 3 is out of bounds for axis 1 with size 3")
    w.raise_error("apply", x, L([1, 7]), "index 7 is out of bounds for axis 0 with size 5", y="negative")
    w.raise_error("max", np.zeros((2, 3)), C([[1, 2], [2, 0]]), "index 2 is out of bounds for axis 0 with size 2",
                  y=1)

    w.comment("Column indices, one per row: integer columns (axis 0), integer lists (advanced "
              "index on axis 0, any length), 1-d and [m, k] integer tensors; y a literal, a tensor "
              "or a numeric column.")
    x = np.arange(5.0)
    w.rows("add", x, "int", [0, 2, -1, 7], y=1.0)
    w.rows("add", x, "int", [0, 2, -1, 7, -6], y=1.0, mode="clip")
    w.rows("set", x, "int32", [4, -2, 9], y=99, mode="drop")
    w.rows("set", x, "int", [1, 3, -1], ys=[10.5, 20.5, 30.5])
    w.rows("multiply", x, "int", [1, 2, -1], ys=[3, 4, 5], mode="drop", wrap_negative_indices=False)
    x2 = np.arange(12, dtype=np.int32).reshape(3, 4)
    w.rows("set", x2, "int", [0, 2, -3], y=np.array([1, 2, 3, 4], np.int32))
    w.rows("get", x2, "int", [0, -1, 5, -4], mode="fill", fill_value=-1)
    w.rows("get", x2, "int", [0, -1, 5, -4])
    w.rows("add", x, "list", [[0, 0, 1], [2], [4, -1, 9]], y=1.0)
    w.rows("add", x, "list", [[0, 0, 1], [4, -1, 9], [3, 3, 3, 3]], ys=[1.0, 0.5, 0.25], mode="clip")
    w.rows("max", x2, "list", [[0, 0], [2, 1, 0]], y=5)
    w.rows("set", x, "list", [[1, 1, 2], [3, 0, 3]], y=np.array([7.0, 8.0, 9.0]))
    w.rows("multiply", x, "tensor1", [[1, 2, 2], [4, 4, 4], [0, 5, -1]], y=2.0, mode="drop")
    w.rows("get", x, "tensor1", [[1, 2, 2], [4, 9, -1]], mode="fill", fill_value=-1)
    w.rows("add", x2, "tensor2 2 2", [[0, 1, 2, 3], [1, 1, 1, 1], [2, 0, 3, 3]], y=100)
    w.rows("add", x2, "tensor2 2 2", [[0, 1, 2, 9], [5, 0, -1, -1]], y=np.array([100, 200], np.int32), mode="drop")
    w.rows("get", x2, "tensor2 2 2", [[0, 1, 2, 3], [-1, -1, 1, 0]])
    w.rows("apply", x, "int", [0, 3, 3], fun="square")
    w.rows("apply", x, "list", [[1, 1], [2, 4, 2]], fun=("v -> v * 2 + 1", lambda v: v * 2 + 1))
    w.rows("add", None, "int", [0, 1], y=1, xs=[np.array([[1, 2], [3, 4]], np.int64), np.array([[5, 6], [7, 8]], np.int64)])
    w.rows("add", x, "int", [0, 7, 1], y=1.0, mode="raise",
           error="index 7 is out of bounds for axis 0 with size 5 at row 1")
    w.rows("set", x, "list", [[0, 1], [4, -6]], y=0.0, mode="raise",
           error="index -6 is out of bounds for axis 0 with size 5 at row 1")
    w.rows("get", x2, "int", [2, -4], mode="raise", error="index -4 is out of bounds for axis 0 with size 3 at row 1")

    w.comment("SQL as JAX users write it: keyword options in any subset and order (the keyword "
              "rewrite of TensorSql::tensor_sql and the CLI), every function of the family.")
    x = np.array([1.0, 2.0, 3.0, 4.0], np.float32)
    w.update("add", x, S("[0, 0, 1]"), 1.0, unique_indices=False)
    w.update("set", x, S("[0]"), 9.0, wrap_negative_indices=False)
    w.update("set", x, S("[-1, 9]"), 9.0, wrap_negative_indices=False, mode="drop")
    w.update("multiply", x, L([3, 3]), 2, indices_are_sorted=True, mode="clip")
    w.update("subtract", x, L([0, 7]), 1, unique_indices=True, wrap_negative_indices=True, mode="drop")
    w.update("divide", x, S("1:"), 2, indices_are_sorted=True)
    w.update("power", x, S("::2"), 2, mode="promise_in_bounds")
    w.update("min", x, S("[2, 9]"), 0, mode="clip", unique_indices=True)
    w.update("max", x, S("[-5, 1]"), 10, wrap_negative_indices=False, mode="clip")
    w.get(x, S("[1, 5]"), fill_value=-1.0, mode="fill")
    w.get(x, S("[-1, 5]"), unique_indices=True, fill_value=7, wrap_negative_indices=False, mode="fill")
    w.get(x, S("[1, 9]"), indices_are_sorted=True)
    w.apply(x, S("[0, 2]"), "negative", named=True, indices_are_sorted=True)
    w.apply(x, S("[0, 9]"), "square", named=True, mode="drop", unique_indices=True)
    w.apply(x, S("[1, 9]"), ("v -> v * 10.0", lambda v: v * 10.0), named=True, mode="clip")

    w.comment("List literals as arrays (jnp.asarray of the list; float64 / int64 under x64), "
              "broadcast to x[idx] as JAX broadcasts them.")
    w.update("multiply", x, S("[0, 0]"), [2.0, 3.0])
    w.update("add", np.zeros((2, 3), np.float64), S(":"), [1.0, 2.0, 3.0])
    w.update("set", np.zeros((2, 3), np.int32), S("..."), [[1, 2, 3], [4, 5, 6]])
    w.update("add", np.zeros((2, 3), np.int64), S(":, 1:2"), [[10], [20]], mode="clip")
    w.update("set", np.array([True, False, True]), S("[0, 2]"), [False, True])
    w.update("max", np.arange(4, dtype=np.int16), L([1, 3]), [5, 1])
    w.update("add", np.arange(3, dtype=np.float64), S("[0, 2]"), [5.0], note="a 1-element list broadcasts")
    w.update("add", np.array([[1.0, 2.0], [3.0, 4.0]]), S(":, 1"), [10.0, 20.0], y_column=True,
             note="y a list column: as long as x[idx]'s last dimension")
    w.update("multiply", np.array([[1, 2], [3, 4]], np.int32), S("1"), [3], y_column=True,
             note="y a list column of one value: broadcast")

    w.comment("Lambdas as JAX types them: the literals of v -> v * 2 are weakly typed and take "
              "the tensor's element type (int32 stays int32, uint8 uint8, float16 float16).")
    w.apply(np.array([1, 2, 3], np.int32), S("0"), ("v -> v * 2", lambda v: v * 2))
    w.apply(np.array([1, 2, 3], np.int32), S("[0, 2]"), ("v -> v * 2 + 1", lambda v: v * 2 + 1))
    w.apply(np.array([10, 20, 250], np.uint8), S("[0, 1]"), ("v -> v + 5", lambda v: v + 5))
    w.apply(np.array([7, 8], np.uint8), S("1"), ("v -> 2 * v - 1", lambda v: 2 * v - 1))
    w.apply(np.array([-7, 8], np.int8), S(":"), ("v -> -v", lambda v: -v))
    w.apply(np.array([1.5, 2.5], np.float16), S("0"), ("v -> v * 2", lambda v: v * 2))
    w.apply(np.array([1.5, 2.5], np.float16), S(":"), ("v -> v * 0.5 + 1", lambda v: v * 0.5 + 1))
    w.apply(np.array([1.5, 2.5], np.float32), S("1"), ("v -> v * 0.25", lambda v: v * 0.25))
    w.apply(np.array([1.0, 3.0], np.float32), S("[0, 0]"), ("v -> v / 4", lambda v: v / 4),
            note="float / weak int: float32")
    w.apply(np.array([5, 6], np.uint64), S("0"), ("v -> v * 3", lambda v: v * 3))
    w.apply(np.array([5, -6], np.int64), S("1"), ("v -> v * 3 - 1", lambda v: v * 3 - 1))
    w.apply(np.array([3, 1], np.int32), S("0"), ("v -> v * v * 2 + 1", lambda v: v * v * 2 + 1))
    w.apply(np.array([3, 4, -5], np.int16), S(":"), ("v -> (v + 1) % 2", lambda v: (v + 1) % 2),
            note="% as JAX's and numpy's: the sign of the divisor; SQL's % takes the dividend's, equal here")

    w.comment("The jax.Array.at documentation's examples with keyword options, transcribed.")
    x = np.arange(5.0, dtype=np.float32)
    w.update("add", x, I(10), 10, mode="drop")
    w.update("set", x, I(-1), 99, wrap_negative_indices=False, mode="drop")
    w.get(x, I(20), mode="fill", fill_value=-1)
    w.update("add", x, I(2), 10, indices_are_sorted=True, unique_indices=True)

    w.write()
    print(f"wrote {w.count} cases to {OUT}")


if __name__ == "__main__":
    main()
