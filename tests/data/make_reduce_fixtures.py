#!/usr/bin/env python3
"""Generates sql/tensor_reduce_generated.slt: the reductions along axes (tensor_sum, _prod,
_mean, _min, _max, _argmin, _argmax, _any, _all, _var, _std) and tensor_cumsum / _cumprod,
whose expected results are numpy's on the same data.

    python3 tests/data/make_reduce_fixtures.py      # numpy >= 2, pyarrow

Each case is a table of rows (one NULL), each row one tensor literal; every row's expected
value is numpy's function on that row's logical tensor (np.ascontiguousarray of
physical.transpose(permutation) for a permuted one: numpy's result on the logical array), its
dtype numpy's, printed as Arrow prints it. Where numpy raises (a reduction without identity
over nothing, an axis out of bounds, a duplicate axis) the case expects numpy's message.
The variable-shape cases run on the columns of tests/data/varshape_along.parquet (pyarrow's
writer), each row reduced by numpy in its own shape.

Every comparison is exact: float results are numpy's to the last bit (numpy's pairwise
summation and its float16 rounding are reproduced, not approximated).
"""

import re
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
from fixture_format import ARROW, error_regex

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "sql" / "tensor_reduce_generated.slt"
VARSHAPE = "tests/data/varshape_along.parquet"

REDUCTIONS = ["sum", "prod", "mean", "min", "max", "argmin", "argmax", "any", "all", "var", "std"]
CUMULATIVE = ["cumsum", "cumprod"]
# numpy's NaN-aware reductions, ptp and count_nonzero (sql/tensor_reduce_nan_generated.slt).
NAN_REDUCTIONS = ["nansum", "nanprod", "nanmean", "nanmin", "nanmax", "nanargmin", "nanargmax",
                  "nanvar", "nanstd", "ptp", "count_nonzero"]
OUT_NAN = ROOT / "sql" / "tensor_reduce_nan_generated.slt"
DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
          np.float16, np.float32, np.float64, np.bool_]


def numpy_call(function, a, axis, keepdims, ddof):
    kw = {} if function in CUMULATIVE else {"keepdims": keepdims}
    if function in ("var", "std", "nanvar", "nanstd"):
        kw["ddof"] = ddof
    return getattr(np, function)(a, axis=axis, **kw)


def fmt_scalar(x, dtype):
    """A value as Arrow's display prints it."""
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return "true" if bool(x) else "false"
    if np.issubdtype(dtype, np.integer):
        return str(int(x))
    if np.isnan(x):
        return "NaN"
    if np.isinf(x):
        return "inf" if x > 0 else "-inf"
    if dtype == np.float16:
        # half's Display: the value as a float32, Rust's shortest digits, no ".0".
        return rust_shortest(np.float32(x), "-")
    return ryu(dtype.type(x))


def ryu(x):
    """Arrow's display of a float32 / float64: the ryu crate's format (shortest round-trip
    digits; positional up to 10^13 for float32 and 10^16 for float64 and down to 1e-5, else
    `1.234e-7` / `1e20`)."""
    if x == 0:
        return "-0.0" if np.signbit(x) else "0.0"
    limit = 13 if x.dtype == np.float32 else 16
    mantissa, exponent = np.format_float_scientific(abs(x), unique=True, trim="-").split("e")
    digits = mantissa.replace(".", "")
    kk = int(exponent) + 1
    k = kk - len(digits)
    sign = "-" if x < 0 else ""
    if 0 <= k and kk <= limit:
        text = digits + "0" * k + ".0"
    elif 0 < kk <= limit:
        text = digits[:kk] + "." + digits[kk:]
    elif -5 < kk <= 0:
        text = "0." + "0" * (-kk) + digits
    elif len(digits) == 1:
        text = f"{digits}e{kk - 1}"
    else:
        text = f"{digits[0]}.{digits[1:]}e{kk - 1}"
    return sign + text


def rust_shortest(x, trim):
    """The shortest digits that read back as `x` (numpy's count), the last one rounded half
    away from zero as Rust's formatter does where two are as short (numpy's Dragon4 rounds
    half to even: float16 -6.98828125 is -6.9882813 in Rust, -6.9882812 in numpy)."""
    text = np.format_float_positional(x, unique=True, trim=trim)
    digits = text.lstrip("-").replace(".", "").lstrip("0")
    if "." not in text or not digits:
        return text
    decimals = len(text.split(".")[1])
    exact = Decimal(float(x))
    rounded = exact.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)
    if type(x)(float(rounded)) == x:
        return format(rounded, "f")
    return text


def fmt(arr):
    arr = np.asarray(arr)
    if arr.ndim == 0:
        return fmt_scalar(arr[()], arr.dtype)
    return "[" + ", ".join(fmt(x) for x in arr) + "]"


def literal(x, dtype):
    """One element as SQL (exact: repr of the float64 holding it)."""
    if dtype == np.bool_:
        return "true" if x else "false"
    if np.issubdtype(dtype, np.integer):
        return str(int(x))
    x = float(x)
    if np.isnan(x) or np.isinf(x):
        text = "NaN" if np.isnan(x) else ("inf" if x > 0 else "-inf")
        return f"CAST('{text}' AS DOUBLE)"
    return repr(x)


def list_sql(physical):
    dtype = physical.dtype
    items = ", ".join(literal(x, dtype) for x in physical.reshape(-1))
    return f"arrow_cast([{items}], 'List({ARROW[dtype]})')"


def arrow_type(result):
    element = ARROW[result.dtype]
    if result.ndim == 0:
        return element
    return f"FixedSizeList({result.size} x {element})"


def axis_sql(axis):
    if axis is None:
        return "NULL"
    if isinstance(axis, tuple):
        return "[" + ", ".join(str(a) for a in axis) + "]"
    return str(axis)


def rows_sql(rows, perm):
    """The VALUES rows `(r, list)` of logical arrays stored permuted by `perm` (None: a NULL
    row), and the tensor expression of their column v."""
    first = next(r for r in rows if r is not None)
    physical_shape = first.shape if perm is None else tuple(
        first.shape[i] for i in np.argsort(perm))
    values = []
    for r, a in enumerate(rows, 1):
        if a is None:
            values.append(f"({r}, NULL)")
        else:
            physical = a if perm is None else a.transpose(np.argsort(perm))
            values.append(f"({r}, {list_sql(np.ascontiguousarray(physical))})")
    shape_sql = "[" + ", ".join(str(d) for d in physical_shape) + "]"
    perm_sql = "" if perm is None else ", NULL, [" + ", ".join(str(p) for p in perm) + "]"
    return values, f"tensor(v, {shape_sql}{perm_sql})"


class Writer:
    def __init__(self):
        self.lines = [
            "# Generated by tests/data/make_reduce_fixtures.py from numpy; do not edit.",
            f"# numpy {np.__version__}. Every value is compared exactly (no tolerance).",
            "",
        ]
        self.count = 0

    def comment(self, text):
        self.lines += ["", f"# {text}"]

    def options_sql(self, function, axis, keepdims, ddof, keyword):
        parts = []
        if keyword:
            if axis != "omit":
                parts.append(f"axis => {axis_sql(axis)}")
            if keepdims:
                parts.append("keepdims => true")
            if ddof:
                parts.append(f"ddof => {ddof}")
        else:
            if axis != "omit" or keepdims or ddof:
                parts.append(axis_sql(None if axis == "omit" else axis))
            if function not in CUMULATIVE and (keepdims or ddof):
                parts.append("true" if keepdims else "false")
            if ddof:
                parts.append(str(ddof))
        return "".join(", " + p for p in parts)

    def table_case(self, function, rows, perm=None, axis="omit", keepdims=False, ddof=0,
                   keyword=True, note=""):
        """`rows`: logical arrays of one shape and dtype (None: a NULL row)."""
        values, x = rows_sql(rows, perm)
        call = f"tensor_{function}({x}{self.options_sql(function, axis, keepdims, ddof, keyword)})"
        # One row: no ORDER BY (DataFusion 55 cannot sort a FixedSizeList of 0 elements, a
        # tensor with a 0 dim: "all columns in a record batch must have the same length").
        order = " ORDER BY r" if len(rows) > 1 else ""
        sql = (f"SELECT r, {call}, arrow_typeof({call}) FROM (VALUES {', '.join(values)}) "
               f"AS t(r, v){order};")
        np_axis = None if axis == "omit" else axis
        self.count += 1
        results = []
        try:
            with np.errstate(all="ignore"):
                import warnings
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    for a in rows:
                        results.append(None if a is None else numpy_call(
                            function, np.ascontiguousarray(a), np_axis, keepdims, ddof))
        except (ValueError, TypeError) as e:  # numpy's AxisError is a ValueError
            self.lines += [
                "",
                f"# numpy raises: {e} {note}".rstrip(),
                f"query error tensor_{function}: {error_regex(str(e), '')}",
                sql,
            ]
            return
        shown = np.asarray(next(r for r in results if r is not None))
        self.lines += [
            "",
            f"# numpy {function}(axis={np_axis!r}, keepdims={keepdims}"
            + (f", ddof={ddof}" if ddof else "") + f"): {shown.dtype} {note}".rstrip(),
            "query ITT",
            sql,
            "----",
        ]
        for r, result in enumerate(results, 1):
            if result is None:
                self.lines.append(f"{r} NULL {arrow_type(shown)}")
            else:
                self.lines.append(f"{r} {fmt(result)} {arrow_type(np.asarray(result))}")

    def variable_case(self, function, column, rows, axis="omit", keepdims=False, ddof=0):
        """A variable-shape column of the Parquet file; rows: {id: logical array or None}."""
        call = f"tensor_{function}({column}{self.options_sql(function, axis, keepdims, ddof, True)})"
        sql = f"SELECT id, {call} FROM '{VARSHAPE}' ORDER BY id;"
        np_axis = None if axis == "omit" else axis
        self.count += 1
        out = []
        import warnings
        for rid, a in rows.items():
            if a is None:
                out.append(f"{rid} NULL")
                continue
            try:
                with np.errstate(all="ignore"), warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    result = numpy_call(function, a, np_axis, keepdims, ddof)
            except ValueError as e:
                # numpy's error for this row: the query fails naming it.
                self.lines += [
                    "",
                    f"# numpy raises on row {rid}: {e}",
                    f"query error tensor_{function}: {error_regex(str(e), '')} at row",
                    sql,
                ]
                return
            out.append(f"{rid} {fmt(result)}")
        self.lines += ["", f"# numpy {function}(axis={np_axis!r}, keepdims={keepdims}"
                       + (f", ddof={ddof}" if ddof else "") + f") of each row of {column}",
                       "query IT", sql, "----"] + out

    def write(self, path=OUT):
        path.write_text("\n".join(self.lines) + "\n")


def sample(rng, dtype, shape, nan=False):
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.random(shape) < 0.5
    if np.issubdtype(dtype, np.unsignedinteger):
        return rng.integers(0, 5, shape).astype(dtype)
    if np.issubdtype(dtype, np.integer):
        return rng.integers(-4, 5, shape).astype(dtype)
    a = (rng.standard_normal(shape) * 4).astype(dtype)
    if nan and a.size > 2:
        a.reshape(-1)[a.size // 2] = np.nan
    return a


def fixed_cases(w, rng):
    w.comment("Every function and element type, on [2, 3, 4] rows (one NULL), axis forms.")
    forms = [("omit", False), (0, False), (-1, False), ((0, 2), False), (1, True), (None, True)]
    for dtype in DTYPES:
        rows = [sample(rng, dtype, (2, 3, 4)), None, sample(rng, dtype, (2, 3, 4))]
        for function in REDUCTIONS:
            for axis, keepdims in forms:
                if function in ("argmin", "argmax", "nanargmin", "nanargmax") \
                        and isinstance(axis, tuple):
                    continue
                w.table_case(function, rows, axis=axis, keepdims=keepdims)
        for function in CUMULATIVE:
            for axis in ["omit", 0, -1, 1]:
                w.table_case(function, rows, axis=axis)

    w.comment("ddof of var and std, positional options.")
    for dtype in [np.int32, np.float16, np.float32, np.float64, np.bool_]:
        rows = [sample(rng, dtype, (3, 4)), None]
        for function in ("var", "std"):
            for axis, ddof in [(0, 1), (None, 1), (1, 2), (1, 5)]:
                w.table_case(function, rows, axis=axis, ddof=ddof, keyword=False)
        w.table_case("sum", rows, axis=0, keepdims=True, keyword=False)
        w.table_case("cumsum", rows, axis=1, keyword=False)

    w.comment("NaN: min/max propagate it, argmin/argmax return the first NaN's index.")
    for dtype in [np.float16, np.float32, np.float64]:
        rows = [sample(rng, dtype, (3, 4), nan=True), sample(rng, dtype, (3, 4))]
        for function in REDUCTIONS + CUMULATIVE:
            for axis in ["omit", 0, 1]:
                w.table_case(function, rows, axis=axis)
        inf = np.array([[1.0, np.inf, -np.inf, 2.0], [np.nan, 1.0, np.nan, np.inf]], dtype)
        for function in ["sum", "max", "argmax", "argmin", "mean", "any", "all"]:
            w.table_case(function, [inf], axis=1)

    w.comment("Long rows: numpy's pairwise summation (8 partial sums, split above 128).")
    for dtype in [np.float16, np.float32, np.float64]:
        rows = [sample(rng, dtype, (3, 300)), sample(rng, dtype, (3, 300))]
        for function in ["sum", "mean", "var", "std"]:
            for axis in ["omit", 0, 1]:
                w.table_case(function, rows, axis=axis)
        rows = [sample(rng, dtype, (20, 3, 17)), None]
        for function in ["sum", "mean", "var"]:
            for axis in [(0, 2), (1, 2), (0, 1), 2]:
                w.table_case(function, rows, axis=axis)
    big = np.full((1, 300), 1.0, np.float32)
    big[0, 0] = 1e8
    w.table_case("sum", [big], note="(1e8 then ones: pairwise keeps some of the ones)")
    w.table_case("sum", [big], axis=1)

    w.comment("Overflow wraps as numpy's does; sums of small types widen.")
    w.table_case("sum", [np.array([[127, 127], [1, 2]], np.int8)], axis=0)
    w.table_case("prod", [np.array([2**62, 4, 3], np.int64)])
    w.table_case("sum", [np.array([2**64 - 1, 2], np.uint64)])
    w.table_case("cumprod", [np.array([255, 255, 255, 255, 255, 255, 255, 255, 255], np.uint8)])

    w.comment("Permuted tensors reduce over their logical axes.")
    for dtype in [np.int16, np.float32, np.float16, np.bool_]:
        rows = [sample(rng, dtype, (2, 3, 4)), None, sample(rng, dtype, (2, 3, 4))]
        for perm in [(2, 0, 1), (1, 0, 2)]:
            for function in ["sum", "mean", "max", "argmax", "var", "cumsum", "all"]:
                for axis in ["omit", 0, -1]:
                    w.table_case(function, rows, perm=perm, axis=axis)
            w.table_case("sum", rows, perm=perm, axis=(0, 1))

    w.comment("Empty tensors: sum 0, prod 1, mean NaN; min/max/argmin/argmax numpy's errors.")
    for dtype in [np.int32, np.float32, np.float16, np.bool_, np.uint8]:
        for shape, axis in [((0,), "omit"), ((2, 0), 1), ((2, 0), 0), ((0, 3), 0), ((0, 3), 1),
                            ((0, 0), 0), ((0, 2, 0), 0), ((0, 2, 0), 1)]:
            rows = [np.zeros(shape, dtype)]
            for function in REDUCTIONS + CUMULATIVE:
                if function in CUMULATIVE and axis == "omit":
                    w.table_case(function, rows)
                    continue
                w.table_case(function, rows, axis=axis)

    w.comment("Axis errors, in numpy's words.")
    rows = [np.arange(6, dtype=np.int64).reshape(2, 3)]
    for function in ["sum", "mean", "argmax", "cumsum", "std"]:
        w.table_case(function, rows, axis=3)
        w.table_case(function, rows, axis=-3)
    for function in ["sum", "min", "var", "all"]:
        w.table_case(function, rows, axis=(0, 0))
        w.table_case(function, rows, axis=(1, -1))
        w.table_case(function, rows, axis=(0, 2))
    w.table_case("sum", rows, axis=())
    w.table_case("mean", rows, axis=(), keepdims=True)

    w.comment("0-d results with keepdims, and 1-element tensors.")
    for function in REDUCTIONS:
        w.table_case(function, [np.array([[7]], np.int16), None], keepdims=True)
        w.table_case(function, [np.array([2.5], np.float64)])


def variable_rows(table, column):
    field = table.schema.field(column)
    # pyarrow 26 reads the canonical variable-shape type without exposing its parameters;
    # its description names the permutation.
    found = re.search(r"permutation=\[([0-9,]+)\]", str(field.type))
    perm = None if found is None else [int(p) for p in found.group(1).split(",")]
    dtype = field.type.storage_type.field("data").type.value_type.to_pandas_dtype()
    rows = {}
    for rid, value in zip(table.column("id").to_pylist(), table.column(column).to_pylist()):
        if value is None:
            rows[rid] = None
            continue
        physical = np.array(value["data"], dtype=dtype).reshape(value["shape"])
        logical = physical if perm is None else physical.transpose(perm)
        rows[rid] = np.ascontiguousarray(logical)
    return rows


def variable_cases(w):
    table = pq.read_table(ROOT / VARSHAPE)
    w.comment("Variable-shape tensors (tests/data/varshape_along.parquet): each row in its own shape.")
    for column in ["f32", "perm", "u8u", "b", "i64v", "uni", "c0", "csp"]:
        rows = variable_rows(table, column)
        ndim = next(r for r in rows.values() if r is not None).ndim
        forms = [("omit", False), (0, False), (-1, True)]
        if ndim == 3:
            forms.append(((0, 2), False))
        for function in REDUCTIONS:
            for axis, keepdims in forms:
                if function in ("argmin", "argmax") and isinstance(axis, tuple):
                    continue
                w.variable_case(function, column, rows, axis=axis, keepdims=keepdims)
        for function in CUMULATIVE:
            for axis in ["omit", 0, -1]:
                w.variable_case(function, column, rows, axis=axis)
        w.variable_case("var", column, rows, axis=0, ddof=1)


def nan_cases(w, rng):
    """numpy's NaN-aware reductions and ptp."""
    w.comment("Every NaN-aware function and ptp, every element type, on [2, 3, 4] rows (one NULL, "
              "a NaN in each float row), axis forms; of integers and booleans they are the plain "
              "reductions (ptp of booleans is numpy's error).")
    forms = [("omit", False), (0, False), (-1, False), ((0, 2), False), (1, True), (None, True)]
    for dtype in DTYPES:
        rows = [sample(rng, dtype, (2, 3, 4), nan=True), None, sample(rng, dtype, (2, 3, 4), nan=True)]
        for function in NAN_REDUCTIONS:
            for axis, keepdims in forms:
                if function in ("nanargmin", "nanargmax") and isinstance(axis, tuple):
                    continue
                w.table_case(function, rows, axis=axis, keepdims=keepdims)

    w.comment("Slices of NaN only: nanmin/nanmax/nanmean/nanvar NaN, nansum 0, nanprod 1, "
              "nanargmin/nanargmax numpy's error; NaN beside infinities.")
    for dtype in [np.float16, np.float32, np.float64]:
        rows = [np.array([[np.nan, np.nan, np.nan], [1.5, np.nan, -2.0]], dtype),
                np.array([[np.inf, np.nan, -np.inf], [np.nan, np.inf, 3.0]], dtype)]
        for function in NAN_REDUCTIONS:
            for axis in [1, 0, "omit"]:
                w.table_case(function, rows, axis=axis)

    w.comment("ddof of nanvar and nanstd: the count of elements that are not NaN, minus ddof; NaN "
              "where that is not positive.")
    for dtype in [np.float16, np.float32, np.float64, np.int32]:
        rows = [sample(rng, dtype, (3, 4), nan=True), None]
        for function in ("nanvar", "nanstd"):
            for axis, ddof in [(0, 1), (None, 1), (1, 2), (1, 3), (0, 5)]:
                w.table_case(function, rows, axis=axis, ddof=ddof, keyword=False)

    w.comment("Long rows: the sums pairwise in numpy's order.")
    for dtype in [np.float16, np.float32, np.float64]:
        rows = [sample(rng, dtype, (3, 300), nan=True), sample(rng, dtype, (3, 300), nan=True)]
        for function in ["nansum", "nanmean", "nanvar", "nanstd"]:
            for axis in ["omit", 0, 1]:
                w.table_case(function, rows, axis=axis)

    w.comment("Wrapping ptp of integers; permuted tensors.")
    w.table_case("ptp", [np.array([[127, -128], [1, 2]], np.int8)], axis=1)
    w.table_case("ptp", [np.array([0, 255], np.uint8)])
    for dtype in [np.int16, np.float32, np.float16]:
        rows = [sample(rng, dtype, (2, 3, 4), nan=True), None, sample(rng, dtype, (2, 3, 4))]
        for perm in [(2, 0, 1), (1, 0, 2)]:
            for function in ["nansum", "nanmean", "nanmax", "nanargmin", "nanvar", "ptp"]:
                for axis in ["omit", 0, -1]:
                    w.table_case(function, rows, perm=perm, axis=axis)

    w.comment("Empty tensors: nansum 0, nanprod 1, nanmean NaN; nanmin/nanmax/nanargmin/ptp "
              "numpy's errors.")
    for dtype in [np.float32, np.int32]:
        for shape, axis in [((0,), "omit"), ((2, 0), 1), ((2, 0), 0), ((0, 3), 1)]:
            for function in NAN_REDUCTIONS:
                w.table_case(function, [np.zeros(shape, dtype)], axis=axis)

    table = pq.read_table(ROOT / VARSHAPE)
    w.comment("Variable-shape tensors (tests/data/varshape_along.parquet): each row in its own shape.")
    for column in ["f32", "perm", "u8u", "csp"]:
        rows = variable_rows(table, column)
        for function in NAN_REDUCTIONS:
            for axis, keepdims in [("omit", False), (0, False), (-1, True)]:
                w.variable_case(function, column, rows, axis=axis, keepdims=keepdims)


OUT_SORT = ROOT / "sql" / "tensor_sort_generated.slt"


def array_api_sort(function, a, axis, descending):
    """The array API standard's sort / argsort on numpy, as array_api_compat builds them:
    numpy's stable sort; descending as flip(sort(flip(x))), so that equal elements keep their
    order."""
    sort = np.sort if function == "sort" else np.argsort
    if not descending:
        return sort(a, axis=axis, kind="stable")
    out = np.flip(sort(np.flip(a, axis=axis), axis=axis, kind="stable"), axis=axis)
    if function == "argsort":
        out = (a.shape[axis] - 1) - out
    return out


def sort_case(w, function, rows, perm=None, axis="omit", descending=None, keyword=True):
    values, x = rows_sql(rows, perm)
    options = []
    if keyword:
        if axis != "omit":
            options.append(f"axis => {axis}")
        if descending is not None:
            options.append(f"descending => {str(descending).lower()}")
    else:
        options.append("NULL" if axis == "omit" else str(axis))
        if descending is not None:
            options.append(str(descending).lower())
    call = f"tensor_{function}({x}{''.join(', ' + o for o in options)})"
    order = " ORDER BY r" if len(rows) > 1 else ""
    sql = (f"SELECT r, {call}, arrow_typeof({call}) FROM (VALUES {', '.join(values)}) "
           f"AS t(r, v){order};")
    np_axis = -1 if axis == "omit" else axis
    w.count += 1
    try:
        results = [None if a is None else array_api_sort(function, a, np_axis, bool(descending))
                   for a in rows]
    except (ValueError, TypeError) as e:
        w.lines += ["", f"# numpy raises: {e}", f"query error tensor_{function}: {error_regex(str(e), '')}", sql]
        return
    shown = np.asarray(next(r for r in results if r is not None))
    w.lines += ["", f"# numpy {function}(axis={np_axis}, kind='stable'"
                f"{', descending (flip-sort-flip)' if descending else ''}): {shown.dtype}",
                "query ITT", sql, "----"]
    for r, result in enumerate(results, 1):
        w.lines.append(f"{r} NULL {arrow_type(shown)}" if result is None
                       else f"{r} {fmt(result)} {arrow_type(np.asarray(result))}")


def sort_cases(w, rng):
    w.comment("sort and argsort, every element type, on [2, 3, 4] rows (one NULL, NaN in the float "
              "rows): axis forms, descending; numpy's stable sort, NaN last.")
    for dtype in DTYPES:
        rows = [sample(rng, dtype, (2, 3, 4), nan=True), None, sample(rng, dtype, (2, 3, 4), nan=True)]
        for function in ["sort", "argsort"]:
            for axis in ["omit", 0, 1, -3]:
                for descending in [None, True, False]:
                    sort_case(w, function, rows, axis=axis, descending=descending)
            sort_case(w, function, rows, axis=2, descending=True, keyword=False)
    w.comment("Ties keep their order (signed zeros, repeated integers), NaN and infinities.")
    for dtype in [np.float16, np.float32, np.float64]:
        rows = [np.array([[0.0, -0.0, np.nan, 1.0, -np.inf], [np.inf, np.nan, -0.0, 0.0, np.nan]], dtype)]
        for function in ["sort", "argsort"]:
            for descending in [False, True]:
                sort_case(w, function, rows, axis=1, descending=descending)
    ties = [np.array([[2, 1, 2, 1, 2], [0, 0, 0, 0, 0]], np.int16)]
    for function in ["sort", "argsort"]:
        for descending in [False, True]:
            sort_case(w, function, ties, axis=1, descending=descending)
            sort_case(w, function, ties, axis=0, descending=descending)
    w.comment("Permuted tensors sort along logical axes; long lines; empty tensors; axis errors.")
    for perm in [(2, 0, 1), (1, 0, 2)]:
        rows = [sample(rng, np.float32, (2, 3, 4)), None, sample(rng, np.float32, (2, 3, 4))]
        for function in ["sort", "argsort"]:
            for axis in ["omit", 0, 1]:
                sort_case(w, function, rows, perm=perm, axis=axis, descending=axis == 1 or None)
    rows = [sample(rng, np.float64, (2, 200), nan=True), sample(rng, np.int32, (2, 200)).astype(np.float64)]
    for function in ["sort", "argsort"]:
        sort_case(w, function, rows)
        sort_case(w, function, rows, descending=True)
    for shape, axis in [((0,), "omit"), ((2, 0), 1), ((2, 0), 0), ((0, 3), 1)]:
        for function in ["sort", "argsort"]:
            sort_case(w, function, [np.zeros(shape, np.float32)], axis=axis)
    for function in ["sort", "argsort"]:
        sort_case(w, function, [np.arange(6, dtype=np.int64).reshape(2, 3)], axis=2)
        sort_case(w, function, [np.arange(6, dtype=np.int64).reshape(2, 3)], axis=-3)
    table = pq.read_table(ROOT / VARSHAPE)
    w.comment("Variable-shape tensors: each row sorted in its own shape.")
    for column in ["f32", "perm", "u8u", "b", "csp"]:
        rows = variable_rows(table, column)
        for function in ["sort", "argsort"]:
            for axis, descending in [("omit", None), (0, True)]:
                options = "" if axis == "omit" else f", axis => {axis}"
                options += ", descending => true" if descending else ""
                sql = f"SELECT id, tensor_{function}({column}{options}) FROM '{VARSHAPE}' ORDER BY id;"
                w.count += 1
                out = [f"{rid} NULL" if a is None else
                       f"{rid} {fmt(array_api_sort(function, a, -1 if axis == 'omit' else axis, bool(descending)))}"
                       for rid, a in rows.items()]
                w.lines += ["", f"# numpy {function} of each row of {column}", "query IT", sql, "----"] + out


def main():
    rng = np.random.default_rng(20261126)
    w = Writer()
    fixed_cases(w, rng)
    variable_cases(w)
    w.write()
    print(f"wrote {OUT.relative_to(ROOT)}: {w.count} cases")
    w = Writer()
    w.lines[0] = w.lines[0].replace("from numpy", "from numpy (nan_cases)")
    nan_cases(w, np.random.default_rng(20261129))
    w.write(OUT_NAN)
    print(f"wrote {OUT_NAN.relative_to(ROOT)}: {w.count} cases")
    w = Writer()
    w.lines[0] = w.lines[0].replace("from numpy", "from numpy (sort_cases)")
    sort_cases(w, np.random.default_rng(20261130))
    w.write(OUT_SORT)
    print(f"wrote {OUT_SORT.relative_to(ROOT)}: {w.count} cases")


if __name__ == "__main__":
    main()
