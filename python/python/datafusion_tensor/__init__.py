"""numpy/JAX-grade tensor SQL over Arrow ``arrow.fixed_shape_tensor`` columns, on DataFusion.

Two ways in:

- :class:`SessionContext`, the ready-made session: every tensor function (``tensor_get``,
  ``tensor_choose``, the ``tensor_at_*`` family, ``tensor_take_along_axis``, ...), keyword
  options in any order, lambdas, the planner rules and the tensor Parquet format, exactly as
  the CLI runs them, with datafusion-python's method names::

      import datafusion_tensor as dt
      ctx = dt.SessionContext()
      ctx.register_parquet("t", "tensors.parquet")
      y = ctx.sql("SELECT tensor_get(x, '1:3, ::2') AS y FROM t").to_numpy("y")
      w = ctx.sql("SELECT tensor FROM read_safetensors('model.safetensors') "
                  "WHERE name = 'lm_head.weight'").to_torch("tensor")

- :func:`register` on a ``datafusion.SessionContext`` (datafusion-python 55): the scalar
  functions through datafusion-ffi, positional arguments only; see its docstring for what the
  FFI does not carry.

Tensor columns come in from anything with ``__arrow_c_stream__`` (pyarrow tables with
``pa.fixed_shape_tensor`` columns, polars, pandas through pyarrow) and come back as
``pyarrow.FixedShapeTensorType``, or as numpy, torch and JAX arrays (``DataFrame.to_numpy``,
``to_torch``, ``to_jax``; ``SessionContext.from_numpy``, ``from_torch`` the other way), without
a copy where Arrow's buffers can be theirs. ``read_npy``, ``read_npz``,
``read_safetensors`` and ``read_zarr`` read tensor files and Zarr arrays in SQL. Failing queries raise :class:`DataFusionError` (its
subclasses :class:`PlanError` and :class:`ExecutionError`) with the CLI's message. Queries
run without the GIL, and Ctrl-C interrupts them (``KeyboardInterrupt``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

import pyarrow as pa

from . import _internal, _numpy
from ._internal import DataFusionError, ExecutionError, Expr, PlanError, SortExpr

if TYPE_CHECKING:
    import pandas

__all__ = [
    "DataFrame",
    "Expr",
    "SortExpr",
    "DataFusionError",
    "ExecutionError",
    "PlanError",
    "SessionContext",
    "TensorParquetTable",
    "functions",
    "register",
    "scalar_udfs",
    "udfs",
]

#: Functions that cannot cross datafusion-ffi: they are higher-order (variadic options,
#: lambdas), which the FFI has no interface for.
NOT_EXPORTED = (
    "tensor_choose",
    "tensor_at_apply",
    "tensor_map",
    "tensor_concatenate",
    "tensor_stack",
)


def _arrow_stream(data: Any) -> Any:
    """``data`` as an object with ``__arrow_c_stream__`` (pandas through pyarrow)."""
    if hasattr(data, "__arrow_c_stream__"):
        return data
    if hasattr(data, "__arrow_c_array__"):
        return pa.Table.from_batches([pa.record_batch(data)])
    try:
        import pandas
    except ImportError:
        pandas = None
    if pandas is not None and isinstance(data, pandas.DataFrame):
        return pa.Table.from_pandas(data)
    raise TypeError(
        "expected Arrow data with __arrow_c_stream__ (a pyarrow Table or RecordBatchReader, "
        f"a polars or pandas DataFrame, ...), got {type(data).__name__}"
    )


def _column(value: Any) -> Any:
    """A str as the column of that name (datafusion-python's rule in select and sort)."""
    return _internal.col(value) if isinstance(value, str) else value


def _as_list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, (list, tuple)) else [value]


class DataFrame:
    """A planned query. It runs each time its results are asked for."""

    def __init__(self, df: _internal.DataFrame) -> None:
        self._df = df

    def __arrow_c_stream__(self, requested_schema: object = None) -> object:
        """Runs the query; its batches as an Arrow C stream PyCapsule."""
        return self._df.__arrow_c_stream__(requested_schema)

    def schema(self) -> pa.Schema:
        """The result's schema (tensor columns as ``FixedShapeTensorType``)."""
        return pa.schema(self._df)

    def to_arrow_table(self) -> pa.Table:
        """Runs the query; its result as a pyarrow Table."""
        return pa.RecordBatchReader.from_stream(self._df).read_all()

    def collect(self) -> list[pa.RecordBatch]:
        """Runs the query; its result as pyarrow record batches."""
        return list(pa.RecordBatchReader.from_stream(self._df))

    def to_pandas(self) -> pandas.DataFrame:
        """Runs the query; its result as a pandas DataFrame."""
        return self.to_arrow_table().to_pandas()

    def to_pylist(self) -> list[dict[str, Any]]:
        """Runs the query; its rows as dicts (tensors as flat lists, pyarrow's storage view)."""
        return self.to_arrow_table().to_pylist()

    def to_polars(self) -> Any:
        """Runs the query; its result as a polars DataFrame."""
        import polars

        return polars.from_arrow(self.to_arrow_table())

    def to_numpy(self, column: str) -> Any:
        """Runs the query; column ``column`` as a numpy ``ndarray`` of shape
        ``[rows, *shape]``. No copy where the column's buffer can be numpy's (one batch, no
        NULLs, a numeric dtype; a permuted tensor is a transposed view); booleans, several
        batches and variable-shape rows of one shape are copied. NULL rows, NULL elements and
        rows of different shapes raise ``ValueError``."""
        return _numpy.column_to_numpy(
            self.to_arrow_table(), column, self._df.field_metadata(column)
        )

    def to_torch(self, column: str) -> Any:
        """Runs the query; column ``column`` as a CPU ``torch.Tensor`` sharing
        :meth:`to_numpy`'s buffer (no copy where it makes none). The tensor views Arrow's
        immutable buffer: do not write into it (``.clone()`` first)."""
        import warnings

        import torch

        array = self.to_numpy(column)
        with warnings.catch_warnings():
            # Arrow's buffers are read-only; torch warns that its tensor is not.
            warnings.simplefilter("ignore", UserWarning)
            return torch.from_numpy(array)

    def to_jax(self, column: str) -> Any:
        """Runs the query; column ``column`` as a ``jax.Array`` on JAX's default device
        (from :meth:`to_numpy`'s array: JAX arrays are immutable and own their buffer, so JAX
        copies it unless it can alias the CPU buffer)."""
        import jax.numpy as jnp

        return jnp.asarray(self.to_numpy(column))

    def count(self) -> int:
        """Runs the query; the number of rows."""
        return self._df.count()

    def show(self, num: int = 20) -> None:
        """Prints the first ``num`` rows as the CLI does (tensors nested)."""
        print(self._df.to_string(num))

    def select(self, *exprs: Any) -> DataFrame:
        """The columns or expressions ``exprs`` (:mod:`datafusion_tensor.functions`; a str is
        a column name here, as in datafusion-python). Operators on tensor columns are the
        elementwise functions (``col("x") * 2.0``)."""
        return DataFrame(self._df.select(*[_column(e) for e in exprs]))

    def filter(self, predicate: Any) -> DataFrame:
        """The rows where ``predicate`` (a Boolean expression) is true."""
        return DataFrame(self._df.filter(predicate))

    def with_column(self, name: str, expr: Any) -> DataFrame:
        """This DataFrame with column ``name`` added, or replaced, as ``expr``."""
        return DataFrame(self._df.with_column(name, expr))

    def sort(self, *keys: Any) -> DataFrame:
        """The rows sorted by ``keys``: ``col("x").sort(ascending=False)``, or expressions
        and column names (ascending, NULLs first)."""
        return DataFrame(self._df.sort(*[_column(k) for k in keys]))

    def limit(self, count: int, offset: int = 0) -> DataFrame:
        """At most ``count`` rows, after skipping ``offset``."""
        return DataFrame(self._df.limit(count, offset))

    def aggregate(self, group_by: Any, aggs: Any) -> DataFrame:
        """One row per group of ``group_by`` (expressions or column names; ``[]`` for one
        group of all rows) with the aggregate expressions ``aggs`` of its rows
        (``functions.count()``, ``functions.tensor_agg_mean(col("x"))``, ...)."""
        return DataFrame(self._df.aggregate([_column(g) for g in _as_list(group_by)],
                                            _as_list(aggs)))

    def explain(self, verbose: bool = False, analyze: bool = False) -> str:
        """The plan, as ``EXPLAIN`` (``analyze``: after running it, with metrics)."""
        return self._df.explain(verbose, analyze)

    def __repr__(self) -> str:
        return self._df.to_string(10)


class SessionContext:
    """The ready-made tensor session: every function, keyword options in any order, lambdas,
    the planner rules and the tensor Parquet format, as the CLI has them.

    ``config`` sets session settings as ``SET`` does (``ctx.sql("SET ...")`` works too), e.g.
    ``{"tensor.fast_parquet": False}`` for DataFusion's own Parquet reader; booleans and
    numbers are given as their SQL text."""

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        settings = {
            key: str(value).lower() if isinstance(value, bool) else str(value)
            for key, value in (config or {}).items()
        }
        self.ctx = _internal.SessionContext(settings)

    def sql(self, query: str) -> DataFrame:
        """Plans ``query`` (statements such as ``CREATE EXTERNAL TABLE`` or ``SET`` run at
        once). Raises :class:`PlanError` for what is wrong with the query."""
        return DataFrame(self.ctx.sql(query))

    def register_parquet(self, name: str, path: str, file_extension: str = ".parquet") -> None:
        """Registers the Parquet file or directory ``path`` as table ``name``, with the tensor
        metadata kept (``skip_metadata`` is always false here)."""
        self.ctx.register_parquet(name, str(path), file_extension)

    def from_arrow(self, data: Any, name: str | None = None) -> DataFrame:
        """A DataFrame over ``data`` (anything with ``__arrow_c_stream__``, or a pandas
        DataFrame), registered as table ``name`` (a generated name when ``None``)."""
        return DataFrame(self.ctx.from_arrow(_arrow_stream(data), name))

    def from_numpy(self, arrays: dict[str, Any], name: str | None = None) -> DataFrame:
        """A DataFrame over ``arrays`` (name -> ndarray, or anything with ``__dlpack__``: torch
        or JAX arrays on the CPU), registered as table ``name``: axis 0 is the rows, 1-d
        arrays are plain columns and n-d arrays tensor columns of the remaining shape. No copy
        for C-contiguous numeric arrays; others are made C-contiguous first."""
        return self.from_arrow(_numpy.arrays_to_table(arrays), name)

    def from_torch(self, tensors: dict[str, Any], name: str | None = None) -> DataFrame:
        """:meth:`from_numpy` for torch tensors (through DLPack; CPU tensors, no copy where
        they are contiguous)."""
        return self.from_numpy(tensors, name)

    def from_pandas(self, data: pandas.DataFrame, name: str | None = None) -> DataFrame:
        """A DataFrame over a pandas DataFrame (through pyarrow)."""
        return self.from_arrow(pa.Table.from_pandas(data), name)

    def from_polars(self, data: Any, name: str | None = None) -> DataFrame:
        """A DataFrame over a polars DataFrame."""
        return self.from_arrow(data, name)

    def register_record_batches(
        self, name: str, partitions: Iterable[Iterable[Any]]
    ) -> None:
        """Registers ``partitions`` (a list of lists of record batches, one list per
        partition) as table ``name``."""
        self.ctx.register_record_batches(
            name, [[_arrow_stream(batch) for batch in partition] for partition in partitions]
        )

    def register_arrow(self, name: str, data: Any) -> None:
        """Registers ``data`` (anything with ``__arrow_c_stream__``) as table ``name``."""
        self.ctx.register_arrow(name, _arrow_stream(data))

    def table(self, name: str) -> DataFrame:
        """The registered table ``name``."""
        return DataFrame(self.ctx.table(name))

    def table_exist(self, name: str) -> bool:
        """Whether table ``name`` is registered."""
        return self.ctx.table_exist(name)

    def deregister_table(self, name: str) -> None:
        """Removes table ``name``."""
        self.ctx.deregister_table(name)


TensorParquetTable = _internal.TensorParquetTable


def scalar_udfs() -> list[Any]:
    """Every scalar tensor function as an object with ``__datafusion_scalar_udf__``."""
    return _internal.scalar_udfs()


def aggregate_udfs() -> list[Any]:
    """Every tensor aggregate (``tensor_agg_sum``, ...) as an object with
    ``__datafusion_aggregate_udf__``."""
    return _internal.aggregate_udfs()


def register(ctx: Any, tables: dict[str, str] | None = None) -> list[str]:
    """Registers the tensor functions on a datafusion-python 55 ``SessionContext`` through
    datafusion-ffi; returns their names. ``tables`` maps table names to Parquet paths to
    register as :class:`TensorParquetTable` s.

    What comes across: every scalar tensor function, called with positional arguments
    (``tensor_get``, ``tensor_at_add``, ``tensor_take_along_axis``, ``tensor_shape``, ...),
    and every aggregate (``tensor_agg_mean(x)``, with GROUP BY, FILTER, ORDER BY and as a
    window), over tensor columns from any table whose schema keeps the tensor metadata
    (pyarrow tables, :class:`TensorParquetTable`).

    What does not, and why (datafusion-ffi 55.2 has no interface for it):

    - ``tensor_choose``, ``tensor_at_apply`` and ``tensor_map``: higher-order functions
      (variadic options, lambdas); the FFI carries scalar and aggregate functions only.
    - Keyword arguments (``mode => 'clip'``) and the documentation (``SHOW FUNCTIONS``): the
      FFI drops parameter names and docs; give options positionally.
    - List literals as arguments (a shape ``[2, 3]``, an index list, ``y`` as ``[1.0, 2.0]``):
      this crate's expression planner makes them literals, and the FFI carries no planners,
      so datafusion-python plans them as ``make_array`` calls, which the functions refuse
      where they need a literal. Index strings (``'[0, 2]'``) work.
    - The planner rules: the analyzer rule that fixes ``tensor_choose``'s literal arguments
      (moot without it) and the physical rule that keeps a ``WHERE`` below the projection
      (``tensor_get(x, i) ... WHERE i < 3`` can fail on rows the filter drops).
    - The keyword/CASE rewrite of ``SessionContext.sql`` here (``TensorSql``): CASE and
      COALESCE drop the tensor type in datafusion-python.
    - ``datafusion.SessionContext.register_parquet`` keeps ``skip_metadata=True`` by
      default, which drops the tensor metadata: use ``tables=`` / :class:`TensorParquetTable`.
    """
    import datafusion

    names = []
    for function in _internal.scalar_udfs():
        ctx.register_udf(datafusion.ScalarUDF.from_pycapsule(function))
        names.append(function.name)
    for function in _internal.aggregate_udfs():
        ctx.register_udaf(datafusion.AggregateUDF.from_pycapsule(function))
        names.append(function.name)
    for name, path in (tables or {}).items():
        ctx.register_table(name, TensorParquetTable(str(path)))
    return names


def udfs() -> dict[str, Any]:
    """Every scalar tensor function as a ``datafusion.ScalarUDF`` and every aggregate as a
    ``datafusion.AggregateUDF`` (datafusion-python 55, through datafusion-ffi), by name: call
    one on datafusion-python expressions in its DataFrame API,
    ``df.select(udfs()["tensor_get"](col("x"), lit("1:3")))``,
    ``df.aggregate([col("g")], [udfs()["tensor_agg_mean"](col("x"))])``. Positional
    arguments only; what the FFI does not carry is listed in :func:`register`."""
    import datafusion

    out: dict[str, Any] = {
        udf.name: datafusion.ScalarUDF.from_pycapsule(udf) for udf in _internal.scalar_udfs()
    }
    for udaf in _internal.aggregate_udfs():
        out[udaf.name] = datafusion.AggregateUDF.from_pycapsule(udaf)
    return out


from . import functions  # noqa: E402 - needs the classes above
