#!/usr/bin/env python3
"""Generates sql/tensor_unary_generated.slt: the elementwise unary functions (tensor_negative,
_abs, _sign, _square, _sqrt, _exp, _log, _log1p, _expm1, _sin, _cos, _tan, _tanh, _arctan,
_floor, _ceil, _round, _clip, _isnan, _isinf, _isfinite, _logical_not; the array API
standard's _arcsin, _arccos, _arcsinh, _arccosh, _arctanh, _sinh, _cosh, _log2, _log10 and
their standard names _asin ... _atanh, _atan, _trunc, _rint, _positive, _reciprocal,
_signbit, _invert, _bitwise_invert), whose expected results are numpy's on the same data.

    python3 tests/data/make_unary_fixtures.py      # numpy >= 2

Each case is a table of rows (one NULL), each row a [2, 3] tensor literal of one element type;
the expected value of each row is numpy's function of it, its dtype numpy's.

Exact comparisons, except for the transcendental functions (exp, log, log1p, expm1, sin,
cos, tan, tanh, arctan): numpy computes float32 and float64 ones with its own SIMD code
(AVX512F here), which differs from the C library's (what this project calls) in the last
bit. Those cases compare `tensor_round(f(x), d)` with numpy's `np.round(f(x), d)`, d keeping 5
significant digits of the case's largest float32 value, 12 of its largest float64 value, on
data chosen so that numpy's value moved by up to 4 ulps rounds the same (the tolerance); float16
results are compared exactly, on data where numpy's float32 intermediate moved by up to 4
ulps rounds to the same float16.
"""

from pathlib import Path

import numpy as np
from fixture_format import ARROW, error_regex
import pyarrow.parquet as pq
from make_reduce_fixtures import VARSHAPE, arrow_type, fmt, list_sql, variable_rows

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "sql" / "tensor_unary_generated.slt"

DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
          np.float16, np.float32, np.float64, np.bool_]
EXACT = ["negative", "abs", "sign", "square", "sqrt", "floor", "ceil", "isnan", "isinf",
         "isfinite", "logical_not"]
TRANSCENDENTAL = ["exp", "log", "log1p", "expm1", "sin", "cos", "tan", "tanh", "arctan"]
# The array API standard's functions added after the first set, with the standard's
# names of numpy's inverse functions (numpy 2 has both).
MORE_EXACT = ["trunc", "rint", "positive", "reciprocal", "signbit", "invert", "bitwise_invert"]
MORE_TRANSCENDENTAL = ["arcsin", "arccos", "arcsinh", "arccosh", "arctanh", "sinh", "cosh",
                       "log2", "log10", "asin", "acos", "atan", "asinh", "acosh", "atanh"]
# Float data in each function's domain (outside it numpy gives NaN, which the special rows
# cover): [-1, 1] for the inverse sine, cosine and hyperbolic tangent, [1, 5] for arccosh.
UNIT = {"arcsin", "arccos", "arctanh", "asin", "acos", "atanh"}
ABOVE_ONE = {"arccosh", "acosh"}
NUMPY = {"abs": "absolute"}
ULPS = 4
SIGNIFICANT = {np.dtype(np.float32): 5, np.dtype(np.float64): 12}


def numpy_fn(name):
    return getattr(np, NUMPY.get(name, name))


def sample(rng, dtype, special):
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return np.array([[True, False, True], [False, False, True]]) if special else rng.random((2, 3)) < 0.5
    if np.issubdtype(dtype, np.unsignedinteger):
        info = np.iinfo(dtype)
        if special:
            return np.array([[0, 1, 9], [info.max, info.max - 1, 2]], dtype)
        return rng.integers(0, 10, (2, 3)).astype(dtype)
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        if special:
            return np.array([[info.min, -1, 0], [info.max, 7, -9]], dtype)
        return rng.integers(-9, 10, (2, 3)).astype(dtype)
    if special:
        return np.array([[np.nan, np.inf, -np.inf], [-0.0, 2.5, -1.5]], dtype)
    return (rng.standard_normal((2, 3)) * 2).astype(dtype)


def domain_sample(rng, dtype, special, name):
    a = sample(rng, dtype, special)
    if special or not np.issubdtype(np.dtype(dtype), np.floating):
        return a
    if name in UNIT:
        return rng.uniform(-1, 1, (2, 3)).astype(dtype)
    if name in ABOVE_ONE:
        return rng.uniform(1, 5, (2, 3)).astype(dtype)
    return a


def digits_for(result):
    """Decimals that keep SIGNIFICANT digits of the largest finite value of `result`."""
    finite = np.abs(result[np.isfinite(result)]).astype(np.float64)
    magnitude = max(1.0, float(finite.max())) if finite.size else 1.0
    return SIGNIFICANT[result.dtype] - (int(np.floor(np.log10(magnitude))) + 1)


def stable(name, a):
    return stable_at(name, a, None)


def stable_at(name, a, digits):
    """Whether numpy's f(a), moved by up to ULPS ulps, compares the same after the rounding
    the case applies."""
    with np.errstate(all="ignore"):
        result = numpy_fn(name)(a)
        if result.dtype == np.float16:
            # numpy's float16 loops call the float32 function and round once.
            inner = numpy_fn(name)(a.astype(np.float32))
            up, down = inner, inner
            for _ in range(ULPS):
                up = np.nextafter(up, np.float32(np.inf))
                down = np.nextafter(down, np.float32(-np.inf))
                for v in (up, down):
                    if not np.array_equal(v.astype(np.float16), result, equal_nan=True):
                        return False
            return True
        digits = digits_for(result) if digits is None else digits
        expected = np.round(result, digits)
        up, down = result, result
        for _ in range(ULPS):
            up = np.nextafter(up, result.dtype.type(np.inf))
            down = np.nextafter(down, result.dtype.type(-np.inf))
            for v in (up, down):
                if not np.array_equal(np.round(v, digits), expected, equal_nan=True):
                    return False
        return True


def transcendental_cases(w, rng, names):
    """Each function of `names` on every element type: rows of data (in its domain) on which
    numpy's result is stable within the tolerance, and a NULL row."""
    for dtype in DTYPES:
        for name in names:
            rows = []
            for special in (True, False):
                for _ in range(200):
                    a = domain_sample(rng, dtype, special, name)
                    if stable(name, a):
                        break
                    special = False
                else:
                    raise RuntimeError(f"no stable data for {name} {dtype}")
                rows.append(a)
            with np.errstate(all="ignore"):
                results = np.stack([numpy_fn(name)(a) for a in rows])
            round_to = None if results.dtype == np.float16 else digits_for(results)
            if round_to is not None and not all(stable_at(name, a, round_to) for a in rows):
                raise RuntimeError(f"rows of {name} {dtype} not stable at {round_to} decimals")
            rows.insert(1, None)
            w.case(name, rows, round_to=round_to)


class Writer:
    def __init__(self):
        self.lines = [
            "# Generated by tests/data/make_unary_fixtures.py from numpy; do not edit.",
            f"# numpy {np.__version__}. Exact, but for the transcendental functions of float32",
            "# and float64 results, compared after rounding to 5 / 12 significant digits of the",
            "# case's largest value (see the script: a 4-ulp tolerance).",
            "",
        ]
        self.count = 0

    def comment(self, text):
        self.lines += ["", f"# {text}"]

    def case(self, name, rows, args="", numpy_call=None, round_to=None, note=""):
        values = ", ".join(
            f"({r}, NULL)" if a is None else f"({r}, {list_sql(a)})" for r, a in enumerate(rows, 1))
        call = f"tensor_{name}(tensor(v, [2, 3]){args})"
        if round_to is not None:
            call = f"tensor_round({call}, {round_to})"
        sql = (f"SELECT r, {call}, arrow_typeof({call}) FROM (VALUES {values}) AS t(r, v) "
               f"ORDER BY r;")
        numpy_call = numpy_call or numpy_fn(name)
        self.count += 1
        try:
            with np.errstate(all="ignore"):
                results = [None if a is None else numpy_call(a) for a in rows]
                if round_to is not None:
                    results = [None if r is None else np.round(r, round_to) for r in results]
        except (TypeError, ValueError) as e:
            self.lines += ["", f"# numpy raises: {e}",
                           f"query error tensor_{name}: {error_regex(str(e), '')}", sql]
            return
        shown = next(r for r in results if r is not None)
        self.lines += ["", f"# numpy {NUMPY.get(name, name)}: {shown.dtype} {note}".rstrip(),
                       "query ITT", sql, "----"]
        for r, result in enumerate(results, 1):
            text = "NULL" if result is None else fmt(result)
            self.lines.append(f"{r} {text} {arrow_type(shown)}")

    def write(self):
        OUT.write_text("\n".join(self.lines) + "\n")


def main():
    rng = np.random.default_rng(20261127)
    w = Writer()
    w.comment("The exact functions, every element type (numpy's errors for booleans).")
    for dtype in DTYPES:
        rows = [sample(rng, dtype, True), None, sample(rng, dtype, False)]
        for name in EXACT:
            w.case(name, rows)
        for decimals in [0, 1, 2]:
            w.case("round", rows, f", {decimals}", lambda a, d=decimals: np.round(a, d))
        # Rounding integers to tens: numpy computes in float64 and casts back with C's cast,
        # undefined where the result leaves the type (uint32 4294967295 gives 0 in numpy,
        # 4 here): those elements are moved in range.
        in_range = [a if a is None or not np.issubdtype(a.dtype, np.integer)
                    else np.clip(a, np.iinfo(a.dtype).min + 10, np.iinfo(a.dtype).max - 10)
                    for a in rows]
        w.case("round", in_range, ", -1", lambda a: np.round(a, -1))
        w.case("round", rows, "", lambda a: np.round(a))
        for lo, hi in [(1, 5), (-3, None), (None, 4), (2.5, 6), (6, 2), (-1000, 1000)]:
            if np.dtype(dtype) == np.bool_ and (isinstance(lo, float) or lo in (-1000, 6)):
                continue
            sql_lo = "NULL" if lo is None else repr(lo)
            sql_hi = "NULL" if hi is None else repr(hi)
            w.case("clip", rows, f", {sql_lo}, {sql_hi}",
                   lambda a, lo=lo, hi=hi: np.clip(a, lo, hi))

    w.comment("Rounding halves to even, at several decimals (numpy's x * 10^d, rint, / 10^d).")
    for dtype in [np.float16, np.float32, np.float64]:
        halves = [np.array([[0.5, 1.5, 2.5], [-0.5, -2.5, 3.5]], dtype),
                  np.array([[0.125, 0.375, 1.005], [2.675, -0.045, 1234.5]], dtype)]
        for decimals in [0, 1, 2, 3, -1, -2]:
            w.case("round", halves, f", {decimals}", lambda a, d=decimals: np.round(a, d))

    w.comment("The transcendental functions: float16 results exact; float32 and float64 ones "
              "compared after rounding to 4 / 10 decimals (a 4-ulp tolerance, see the script).")
    transcendental_cases(w, rng, TRANSCENDENTAL)

    w.comment("More functions (the array API standard's): exact ones, every element type.")
    rng = np.random.default_rng(20261129)
    for dtype in DTYPES:
        rows = [sample(rng, dtype, True), None, sample(rng, dtype, False)]
        for name in MORE_EXACT:
            w.case(name, rows)

    w.comment("More transcendental functions (inverse and hyperbolic, log2, log10), each also "
              "under the standard's name; compared as the first ones.")
    transcendental_cases(w, rng, MORE_TRANSCENDENTAL)

    w.comment("Plain numbers are 0-d arrays (np.asarray): SQL's integer literals are int64 and "
              "its float literals float64, as numpy reads Python's numbers; a typed column keeps "
              "its type (NULL rows stay NULL).")
    for name in EXACT + MORE_EXACT + TRANSCENDENTAL + MORE_TRANSCENDENTAL:
        for value in [2, -1.5, 0.5, True]:
            w.count += 1
            call = f"tensor_{name}({str(value).lower()})"
            try:
                with np.errstate(all="ignore"):
                    result = np.asarray(numpy_fn(name)(value))
            except TypeError as e:
                w.lines += ["", f"# numpy raises: {e}",
                            f"query error tensor_{name}: {error_regex(str(e), '')}", f"SELECT {call};"]
                continue
            shown = call
            if name in TRANSCENDENTAL + MORE_TRANSCENDENTAL and result.dtype != np.float16:
                digits = 12
                if not stable_at(name, np.asarray(value), digits):
                    raise RuntimeError(f"{name}({value}) not stable at {digits} decimals")
                shown, result = f"tensor_round({call}, {digits})", np.round(result, digits)
            w.lines += ["", f"# numpy {NUMPY.get(name, name)}: {result.dtype}", "query TT",
                        f"SELECT {shown}, arrow_typeof({call});", "----",
                        f"{fmt(result)} {ARROW[result.dtype]}"]
    for dtype in [np.int8, np.uint16, np.float32, np.bool_]:
        column = sample(rng, dtype, False).reshape(-1)[:2]
        for name in ["negative", "sqrt", "trunc", "reciprocal", "signbit", "invert", "sinh"]:
            w.count += 1
            items = ", ".join(
                f"({r}, arrow_cast({'NULL' if v is None else fmt(np.asarray(v))}, '{ARROW[np.dtype(dtype)]}'))"
                for r, v in enumerate([column[0], None, column[1]], 1))
            call = f"tensor_{name}(c)"
            sql = f"SELECT r, {call}, arrow_typeof({call}) FROM (VALUES {items}) AS t(r, c) ORDER BY r;"
            try:
                with np.errstate(all="ignore"):
                    results = [numpy_fn(name)(v) for v in column]
            except TypeError as e:
                w.lines += ["", f"# numpy raises: {e}",
                            f"query error tensor_{name}: {error_regex(str(e), '')}", sql]
                continue
            if name == "sinh" and results[0].dtype != np.float16:
                continue  # transcendental: the exact comparisons above cover it
            kind = ARROW[results[0].dtype]
            w.lines += ["", f"# numpy {name} of a {ARROW[np.dtype(dtype)]} column", "query ITT", sql,
                        "----", f"1 {fmt(results[0])} {kind}", f"2 NULL {kind}",
                        f"3 {fmt(results[1])} {kind}"]

    w.comment("Variable-shape tensors (tests/data/varshape_along.parquet): each row keeps its shape "
              "and permutation; shown in logical order.")
    table = pq.read_table(ROOT / VARSHAPE)
    for column in ["f32", "perm", "u8u", "b", "i64v", "csp"]:
        rows = variable_rows(table, column)
        for name, args, call in [("abs", "", np.absolute), ("square", "", np.square),
                                 ("floor", "", np.floor), ("isnan", "", np.isnan),
                                 ("logical_not", "", np.logical_not),
                                 ("clip", ", 0, 3", lambda a: np.clip(a, 0, 3)),
                                 ("sqrt", "", np.sqrt), ("trunc", "", np.trunc),
                                 ("signbit", "", np.signbit), ("positive", "", np.positive),
                                 ("reciprocal", "", np.reciprocal)]:
            if name in ("square", "sqrt", "positive") and column == "b":
                continue
            w.count += 1
            sql = f"SELECT id, tensor_{name}({column}{args}) FROM '{VARSHAPE}' ORDER BY id;"
            out = []
            for rid, a in rows.items():
                with np.errstate(all="ignore"):
                    out.append(f"{rid} NULL" if a is None else f"{rid} {fmt(call(a))}")
            w.lines += ["", f"# numpy {name} of each row of {column}", "query IT", sql, "----"] + out

    w.write()
    print(f"wrote {OUT.relative_to(ROOT)}: {w.count} cases")


if __name__ == "__main__":
    main()
