"""What the fixture scripts share: numpy values written as SQL literals and as the CLI prints
them (Arrow's display: `[[1, 2], [3, 4]]`, `true`, float16 `3` for 3.0)."""

import numpy as np

ARROW = {
    np.dtype(np.int8): "Int8",
    np.dtype(np.int16): "Int16",
    np.dtype(np.int32): "Int32",
    np.dtype(np.int64): "Int64",
    np.dtype(np.uint8): "UInt8",
    np.dtype(np.uint16): "UInt16",
    np.dtype(np.uint32): "UInt32",
    np.dtype(np.uint64): "UInt64",
    np.dtype(np.float16): "Float16",
    np.dtype(np.float32): "Float32",
    np.dtype(np.float64): "Float64",
    np.dtype(np.bool_): "Boolean",
}


def fmt_scalar(x, dtype):
    if dtype == np.bool_:
        return "true" if bool(x) else "false"
    if np.issubdtype(dtype, np.integer):
        return str(int(x))
    x = float(x)
    if np.isnan(x):
        return "NaN"
    if np.isinf(x):
        return "inf" if x > 0 else "-inf"
    if dtype == np.float16 and x.is_integer():
        # arrow prints float16 through the half crate, which writes 3.0 as "3".
        return ("-" if np.signbit(x) else "") + str(abs(int(x)))
    return repr(x)


def fmt(arr):
    """A value as the CLI prints it, nested."""
    arr = np.asarray(arr)
    if arr.ndim == 0:
        return fmt_scalar(arr[()], arr.dtype)
    return "[" + ", ".join(fmt(x) for x in arr) + "]"


def tensor_sql(arr, perm=None):
    """SQL for a tensor literal whose logical value is `arr`; with `perm`, stored permuted
    (logical = physical.transpose(perm), so physical = logical.transpose(argsort(perm)))."""
    arr = np.asarray(arr)
    physical = arr if perm is None else arr.transpose(np.argsort(perm))
    flat = physical.reshape(-1)
    shape = "[" + ", ".join(str(d) for d in physical.shape) + "]"
    perm_sql = "" if perm is None else f", NULL, [{', '.join(str(p) for p in perm)}]"
    values = "[" + ", ".join(fmt_scalar(x, arr.dtype) for x in flat) + "]"
    return f"tensor(arrow_cast({values}, 'List({ARROW[arr.dtype]})'), {shape}{perm_sql})"


def re_escape(text):
    return "".join("\\" + c if c in "\\^$.|?*+()[]{}" else c for c in text)


def error_regex(message, where):
    """An expected error as an slt regex: `message` escaped, `where` (the row, or "") put at
    its `{where}` or else at its end, runs of spaces (numpy writes two) matched as one or
    more, as sqllogictest reads them."""
    if "{where}" not in message:
        message += "{where}"
    message = where.join(re_escape(part) for part in message.split("{where}"))
    return message.replace("  ", "\\s+")


def split_outcomes(outcomes):
    """(results, errors) of `{row: outcome}`: an outcome that is a str is an error message."""
    errors = {row: o for row, o in outcomes.items() if isinstance(o, str)}
    results = {row: o for row, o in outcomes.items() if not isinstance(o, str)}
    return results, errors
