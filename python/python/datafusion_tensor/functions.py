"""Expression builders for the DataFrame API: ``col``, ``lit``, and one function per SQL
function of the package, with its options as Python keyword arguments::

    import datafusion_tensor as dt
    from datafusion_tensor import functions as tf
    from datafusion_tensor.functions import col, lit

    ctx = dt.SessionContext()
    df = ctx.table("t").select(
        tf.tensor_get(col("x"), "1:3, ::2").alias("y"),
        tf.tensor_at_add(col("x"), "[0, 0]", lit(1.0), mode="clip").alias("z"),
        (col("x") * 2.0 + col("w")).alias("s"),              # operators on tensors
        tf.tensor_sum(col("x"), axis=1, keepdims=True).alias("sums"),
    )

Python values passed where an expression goes become literals (``None`` is NULL, a list an
array literal ``[...]``); numbers are weakly typed against tensors, as SQL literals are
(``col("u8") * 2`` stays uint8). Each tensor function's keywords are its SQL parameter names
(``SHOW FUNCTIONS``), in any order. DataFusion's aggregates are here too (``count``, ``sum``,
``avg``, ``min``, ``max``, ``array_agg``), and :func:`call` calls any function by name.

Lambdas (``tensor_map(x, v -> v * 2)``, ``tensor_at_apply`` with a lambda) are SQL only:
write them in :meth:`SessionContext.sql`; ``tensor_at_apply`` takes a function name here
(``tf.tensor_at_apply(col("x"), "0", "sqrt")``).
"""

from __future__ import annotations

from typing import Any, Callable

from . import _internal
from ._internal import Expr, SortExpr

__all__ = ["Expr", "SortExpr", "col", "lit", "call", "count", "sum", "avg", "mean", "min",
           "max", "array_agg"]


def col(name: str) -> Expr:
    """The column ``name``."""
    return _internal.col(name)


def lit(value: Any) -> Expr:
    """``value`` as a literal: ``None``, a bool, int, float, str, or a list of them."""
    return _internal.lit(value)


def call(name: str, *args: Any, distinct: bool = False, **options: Any) -> Expr:
    """A call of the function ``name`` (a tensor function, or any of DataFusion's scalar and
    aggregate functions) with positional ``args`` and keyword ``options``."""
    return _internal.call(name, args, options, distinct)


def count(expr: Any = None, distinct: bool = False) -> Expr:
    """SQL ``count(expr)``; ``count()`` counts rows (``count(*)``)."""
    return _internal.call("count", (1 if expr is None else expr,), None, distinct)


def sum(expr: Any, distinct: bool = False) -> Expr:  # noqa: A001 - SQL's name
    """SQL ``sum`` (of numbers; ``tensor_agg_sum`` sums tensors)."""
    return _internal.call("sum", (expr,), None, distinct)


def avg(expr: Any, distinct: bool = False) -> Expr:
    """SQL ``avg``."""
    return _internal.call("avg", (expr,), None, distinct)


mean = avg


def min(expr: Any) -> Expr:  # noqa: A001 - SQL's name
    """SQL ``min``."""
    return _internal.call("min", (expr,), None, False)


def max(expr: Any) -> Expr:  # noqa: A001 - SQL's name
    """SQL ``max``."""
    return _internal.call("max", (expr,), None, False)


def array_agg(expr: Any, distinct: bool = False) -> Expr:
    """SQL ``array_agg``."""
    return _internal.call("array_agg", (expr,), None, distinct)


def _builder(name: str, kind: str, names: list[str], required: int,
             description: str) -> Callable[..., Expr]:
    if kind == "fixed":
        def build(*args: Any, **options: Any) -> Expr:
            if len(args) > len(names):
                raise TypeError(f"{name}() takes at most {len(names)} arguments "
                                f"({len(args)} given)")
            return _internal.call(name, args, options, False)
    elif kind == "aggregate":
        def build(*args: Any, distinct: bool = False, **options: Any) -> Expr:
            return _internal.call(name, args, options, distinct)
    else:  # positional, variadic (options by keyword after the data arguments)
        def build(*args: Any, **options: Any) -> Expr:
            return _internal.call(name, args, options, False)
    build.__name__ = name
    build.__qualname__ = name
    build.__doc__ = description
    return build


#: Each builder's (name, kind, parameter names, required count, description), from the
#: package's function registry (``kind``: ``fixed``, ``positional``, ``variadic`` or
#: ``aggregate``).
SIGNATURES = _internal.function_signatures()

for _signature in SIGNATURES:
    globals()[_signature[0]] = _builder(*_signature)
    __all__.append(_signature[0])
del _signature
