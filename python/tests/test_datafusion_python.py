"""Interop with datafusion-python 55 through datafusion-ffi: what comes across, and what
does not (and fails as the docs say)."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import datafusion_tensor as dt
from conftest import logical_tensors, tensor_array

datafusion = pytest.importorskip("datafusion")


@pytest.fixture
def x(rng):
    return rng.standard_normal((20, 3, 4)).astype(np.float32)


@pytest.fixture
def df_ctx(tmp_path, x):
    path = tmp_path / "t.parquet"
    pq.write_table(
        pa.table({"id": np.arange(len(x)), "x": tensor_array(x, [1, 0])}), path, row_group_size=8
    )
    ctx = datafusion.SessionContext()
    names = dt.register(ctx, tables={"t": path})
    assert "tensor_get" in names and "tensor_choose" not in names
    return ctx


def test_functions_over_the_tensor_parquet_table(df_ctx, x):
    table = df_ctx.sql(
        "SELECT tensor_get(x, '1:, ::-2') AS y, tensor_shape(x) AS s FROM t ORDER BY id"
    ).to_arrow_table()
    assert isinstance(table.schema.field("y").type, pa.FixedShapeTensorType)
    np.testing.assert_array_equal(logical_tensors(table.column("y")), x[:, 1:, ::-2])
    assert table.column("s").to_pylist() == [[3, 4]] * len(x)


def test_positional_options(df_ctx, x):
    table = df_ctx.sql(
        "SELECT tensor_at_get(x, '[0, 7]', 'fill', -1.0) AS g, "
        "tensor_at_add(x, '[0, 0]', 1.0) AS a FROM t ORDER BY id"
    ).to_arrow_table()
    fill = np.stack([np.stack([row[0], np.full(4, -1.0, np.float32)]) for row in x])
    added = x.copy()
    np.add.at(added, (slice(None), [0, 0]), np.float32(1.0))
    np.testing.assert_array_equal(logical_tensors(table.column("g")), fill)
    np.testing.assert_array_equal(logical_tensors(table.column("a")), added)


def test_in_memory_pyarrow_tables(rng):
    ctx = datafusion.SessionContext()
    dt.register(ctx)
    a = rng.integers(0, 3, (5, 3, 2))
    ctx.from_arrow(pa.table({"id": np.arange(5), "a": tensor_array(a)}), name="m")
    table = ctx.sql(
        "SELECT tensor_take_along_axis(a, a, 0) AS y FROM m ORDER BY id"
    ).to_arrow_table()
    expected = np.stack([np.take_along_axis(r, r, axis=0) for r in a])
    np.testing.assert_array_equal(logical_tensors(table.column("y")), expected)


def test_what_does_not_come_across(df_ctx):
    # no keyword arguments: parameter names do not cross the FFI
    with pytest.raises(Exception, match="(?i)named|argument"):
        df_ctx.sql("SELECT tensor_at_get(x, '0', mode => 'clip') FROM t").to_arrow_table()
    # no higher-order functions
    with pytest.raises(Exception, match="tensor_choose"):
        df_ctx.sql("SELECT tensor_choose(x, x) FROM t").to_arrow_table()
    # list literals are make_array calls there, not the literal a shape must be
    with pytest.raises(Exception, match="tensor_reshape"):
        df_ctx.sql("SELECT tensor_reshape(x, [12]) FROM t").to_arrow_table()


def test_errors_cross_the_ffi_with_the_message(df_ctx, x):
    try:
        x[0][:, 9]
    except IndexError as err:
        numpy_words = str(err)
    with pytest.raises(Exception) as raised:
        df_ctx.sql("SELECT tensor_get(x, ':, 9') FROM t").to_arrow_table()
    assert numpy_words in str(raised.value)


def test_constant_columns_are_not_mistaken_for_literals(rng):
    """The FFI expands literals to arrays; a column whose rows are all equal must still give
    the column's result (here the same as a literal's, which numpy decides)."""
    ctx = datafusion.SessionContext()
    dt.register(ctx)
    x = rng.standard_normal((3, 3, 4))
    ctx.from_arrow(
        pa.table({"id": np.arange(3), "x": tensor_array(x), "i": [2, 2, 2], "m": [[0, 1]] * 3}),
        name="c",
    )
    table = ctx.sql(
        "SELECT tensor_get(x, i) AS g, tensor_at_add(x, i, 1.0) AS a, "
        "tensor_at_set(x, m, 0.0) AS s FROM c ORDER BY id"
    ).to_arrow_table()
    added = x.copy()
    added[:, 2] += 1.0
    zeroed = x.copy()
    zeroed[:, [0, 1]] = 0.0
    np.testing.assert_array_equal(logical_tensors(table.column("g")), x[:, 2])
    np.testing.assert_array_equal(logical_tensors(table.column("a")), added)
    np.testing.assert_array_equal(logical_tensors(table.column("s")), zeroed)


def test_aggregates_cross_the_ffi(rng):
    """Aggregates through FFI_AggregateUDF: GROUP BY over several partitions (the partial and
    final phases both run through the FFI), FILTER, a window, ddof, the stack in ORDER BY
    order, and DISTINCT refused."""
    ctx = datafusion.SessionContext(
        datafusion.SessionConfig().with_target_partitions(4).with_batch_size(4)
    )
    dt.register(ctx)
    x = rng.standard_normal((40, 2, 3)).astype(np.float32)
    g = np.arange(40) % 3
    batches = pa.table(
        {"id": np.arange(40), "g": g, "x": tensor_array(x, [1, 0])}
    ).to_batches(max_chunksize=10)
    ctx.register_record_batches("a", [[b] for b in batches])
    table = ctx.sql(
        "SELECT g, tensor_agg_mean(x) AS m, tensor_agg_var(x, 1) AS v, "
        "tensor_agg_sum(x) FILTER (WHERE id >= 20) AS s, "
        "tensor_agg_stack(x ORDER BY id DESC) AS st FROM a GROUP BY g ORDER BY g"
    ).to_arrow_table()
    means = logical_tensors(table.column("m").combine_chunks())
    variances = logical_tensors(table.column("v").combine_chunks())
    sums = logical_tensors(table.column("s").combine_chunks())
    stack = table.column("st").combine_chunks()
    for k in range(3):
        rows = x[g == k]
        np.testing.assert_allclose(means[k], rows.mean(axis=0), rtol=1e-5)
        np.testing.assert_allclose(variances[k], rows.var(axis=0, ddof=1), rtol=1e-4)
        np.testing.assert_allclose(sums[k], x[(g == k) & (np.arange(40) >= 20)].sum(axis=0),
                                   rtol=1e-5)
        stored = stack.storage if hasattr(stack, "storage") else stack
        got = np.asarray(stored.field("data")[k].as_py(), np.float32)
        np.testing.assert_array_equal(got, rows[::-1].reshape(-1))
    running = ctx.sql(
        "SELECT tensor_agg_sum(x) OVER (ORDER BY id) AS r FROM a ORDER BY id"
    ).to_arrow_table()
    np.testing.assert_allclose(
        logical_tensors(running.column("r").combine_chunks()), np.cumsum(x, axis=0), rtol=1e-5
    )
    # DISTINCT beside another aggregate reaches the accumulator, which refuses it ...
    with pytest.raises(Exception, match="does not support DISTINCT"):
        ctx.sql("SELECT tensor_agg_sum(DISTINCT x), count(*) FROM a").to_arrow_table()
    # ... while DataFusion's optimizer rewrites a lone one into a GROUP BY over the distinct
    # rows before any aggregate sees it (the analyzer rule refusing it here does not cross):
    # the sum of the distinct rows.
    ctx.from_arrow(pa.table({"x": tensor_array(np.concatenate([x[:5], x[:5], x[5:7]]))}),
                   name="d")
    lone = ctx.sql("SELECT tensor_agg_sum(DISTINCT x) AS s FROM d").to_arrow_table()
    np.testing.assert_allclose(
        logical_tensors(lone.column("s").combine_chunks())[0], x[:7].sum(axis=0), rtol=1e-5
    )


def test_aggregates_in_the_dataframe_api(rng):
    ctx = datafusion.SessionContext()
    x = rng.integers(-5, 5, (6, 4)).astype(np.int32)
    df = ctx.from_arrow(pa.table({"g": [0, 1, 0, 1, 0, 1], "x": tensor_array(x)}))
    udfs = dt.udfs()
    assert isinstance(udfs["tensor_agg_sum"], datafusion.AggregateUDF)
    out = df.aggregate(
        [datafusion.col("g")], [udfs["tensor_agg_sum"](datafusion.col("x")).alias("s")]
    ).sort(datafusion.col("g"))
    sums = logical_tensors(out.to_arrow_table().column("s").combine_chunks())
    # numpy: the sum of int32 is int64
    assert sums.dtype == np.int64
    np.testing.assert_array_equal(sums, [x[0::2].sum(axis=0), x[1::2].sum(axis=0)])
