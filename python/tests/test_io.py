"""Arrow data in and out: Parquet files, pyarrow, pandas, polars; the DataFrame methods."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import datafusion_tensor as dt
from conftest import logical_tensors, run, tensor_array


@pytest.fixture
def parquet_file(tmp_path, rng):
    x = rng.standard_normal((50, 2, 3, 4)).astype(np.float32)
    a = rng.integers(0, 3, (50, 3, 4)).astype(np.int32)
    table = pa.table(
        {
            "id": np.arange(50),
            "x": tensor_array(x, [2, 0, 1]),
            "plain": tensor_array(x),
            "a": tensor_array(a, dim_names=["H", "W"]),
        }
    )
    path = tmp_path / "tensors.parquet"
    pq.write_table(table, path, row_group_size=16)
    return path, x, a


def test_register_parquet_keeps_tensor_types(ctx, parquet_file):
    path, x, a = parquet_file
    ctx.register_parquet("t", str(path))
    schema = ctx.sql("SELECT * FROM t").schema()
    assert isinstance(schema.field("x").type, pa.FixedShapeTensorType)
    assert schema.field("x").type.permutation == [2, 0, 1]
    assert schema.field("a").type.dim_names == ["H", "W"]
    out = run(ctx, "SELECT x, tensor_get(x, '1:, ::-1') AS y FROM t ORDER BY id")
    np.testing.assert_array_equal(logical_tensors(out.column("x")), x)
    np.testing.assert_array_equal(logical_tensors(out.column("y")), x[:, 1:, ::-1])


def test_sql_over_a_file_path_and_external_table(ctx, parquet_file):
    path, x, a = parquet_file
    out = run(ctx, f"SELECT tensor_get(plain, '0, 1') AS y FROM '{path}' ORDER BY id")
    np.testing.assert_array_equal(logical_tensors(out.column("y")), x[:, 0, 1])
    ctx.sql(f"CREATE EXTERNAL TABLE ext STORED AS PARQUET LOCATION '{path}'")
    out = run(ctx, "SELECT tensor_choose(a, plain, 0.5, tensor_get(x, 1)) AS y FROM ext ORDER BY id")
    expected = np.stack(
        [np.choose(a[r], [x[r], np.float32(0.5), x[r][1]]) for r in range(len(x))]
    )
    np.testing.assert_array_equal(logical_tensors(out.column("y")), expected)


def test_pyarrow_to_numpy_ndarray_on_results(ctx, parquet_file):
    path, x, _ = parquet_file
    ctx.register_parquet("t", path)
    column = ctx.sql("SELECT tensor_reshape(x, [6, 4]) AS y FROM t ORDER BY id").to_arrow_table()
    y = column.column("y").combine_chunks()
    assert isinstance(y.type, pa.FixedShapeTensorType)
    np.testing.assert_array_equal(y.to_numpy_ndarray(), x.reshape(len(x), 6, 4))


def test_dataframe_methods(ctx, capsys):
    df = ctx.sql("SELECT v, tensor([v, v + 1, v + 2, v + 3], [2, 2]) AS t FROM (VALUES (1), (5)) AS s(v) ORDER BY v")
    batches = df.collect()
    assert all(isinstance(b, pa.RecordBatch) for b in batches)
    assert sum(b.num_rows for b in batches) == 2
    assert df.count() == 2
    table = pa.table(df)  # through __arrow_c_stream__
    assert isinstance(table.schema.field("t").type, pa.FixedShapeTensorType)
    expected = np.array([[[1, 2], [3, 4]], [[5, 6], [7, 8]]])
    np.testing.assert_array_equal(logical_tensors(table.column("t")), expected)
    pandas = df.to_pandas()
    assert list(pandas["v"]) == [1, 5]
    df.show()
    printed = capsys.readouterr().out
    assert "[[1, 2], [3, 4]]" in printed and "[[5, 6], [7, 8]]" in printed


def test_empty_result_keeps_schema(ctx):
    table = ctx.sql("SELECT tensor([1, 2], [2]) AS t WHERE false").to_arrow_table()
    assert table.num_rows == 0
    assert isinstance(table.schema.field("t").type, pa.FixedShapeTensorType)


def test_register_record_batches_and_round_trip(ctx, rng):
    x = rng.standard_normal((6, 2, 2))
    batch = pa.record_batch({"x": tensor_array(x)})
    ctx.register_record_batches("rb", [[batch.slice(0, 3)], [batch.slice(3, 3)]])
    out = run(ctx, "SELECT tensor_at_multiply(x, '1', 2.0) AS y FROM rb")
    got = logical_tensors(out.column("y"))
    expected = x.copy()
    expected[:, 1] *= 2.0
    order = np.argsort(got[:, 0, 0])
    np.testing.assert_array_equal(got[order], expected[np.argsort(expected[:, 0, 0])])


def test_pandas_input(ctx):
    pandas = pytest.importorskip("pandas")
    frame = pandas.DataFrame({"a": [1, 2, 3], "b": [0.5, 1.5, 2.5]})
    out = ctx.from_arrow(frame, name="pd").to_arrow_table()
    assert out.column("a").to_pylist() == [1, 2, 3]
    out = run(ctx, "SELECT tensor_choose(tensor([0, 1, 0], [3]), a, b) AS y FROM pd")
    expected = [np.choose([0, 1, 0], [np.float64(a), b]) for a, b in zip([1, 2, 3], [0.5, 1.5, 2.5])]
    np.testing.assert_array_equal(logical_tensors(out.column("y")), np.stack(expected))


def test_polars_input(ctx):
    polars = pytest.importorskip("polars")
    frame = polars.DataFrame(
        {"v": [[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]},
        schema={"v": polars.Array(polars.Float64, 4)},
    )
    assert ctx.from_arrow(frame, name="pl").count() == 2
    out = run(ctx, "SELECT tensor_reshape(v, [2, 2]) AS y FROM pl")
    expected = np.array(frame["v"].to_list()).reshape(2, 2, 2)
    np.testing.assert_array_equal(logical_tensors(out.column("y")), expected)


def test_from_arrow_accepts_readers_and_names_tables(ctx, rng):
    x = rng.standard_normal((3, 2))
    table = pa.table({"x": tensor_array(x)})
    df = ctx.from_arrow(pa.RecordBatchReader.from_batches(table.schema, table.to_batches()))
    np.testing.assert_array_equal(logical_tensors(df.to_arrow_table().column("x")), x)
    ctx.from_arrow(table, name="named")
    assert ctx.table_exist("named")
    ctx.deregister_table("named")
    assert not ctx.table_exist("named")
    with pytest.raises(TypeError, match="__arrow_c_stream__"):
        ctx.from_arrow(42)


def test_fast_parquet_setting_switches_the_reader(parquet_file):
    """``tensor.fast_parquet`` (also ``datafusion.tensor.fast_parquet``) chooses between this
    package's Parquet reader and DataFusion's: the scan's metrics say which read it, and both
    give the same tensors."""
    path, x, _ = parquet_file
    query = "SELECT x FROM t ORDER BY id"

    def read(ctx):
        ctx.register_parquet("t", str(path))
        plan = ctx.sql(query).explain(analyze=True)
        return logical_tensors(run(ctx, query).column("x")), plan

    ctx = dt.SessionContext()
    assert run(ctx, "SHOW tensor.fast_parquet").column("value").to_pylist() == ["true"]
    got, plan = read(ctx)
    np.testing.assert_array_equal(got, x)
    assert "tensor_row_groups_fast=4" in plan

    for off in (
        dt.SessionContext({"tensor.fast_parquet": False}),
        dt.SessionContext({"datafusion.tensor.fast_parquet": "false"}),
    ):
        got, plan = read(off)
        np.testing.assert_array_equal(got, x)
        assert "tensor_row_groups_fast" not in plan
        assert run(off, "SHOW datafusion.tensor.fast_parquet").column("value").to_pylist() == [
            "false"
        ]

    ctx.sql("SET datafusion.tensor.fast_parquet = false")
    assert "tensor_row_groups_fast" not in ctx.sql(query).explain(analyze=True)
    ctx.sql("RESET tensor.fast_parquet")
    assert "tensor_row_groups_fast=4" in ctx.sql(query).explain(analyze=True)
    with pytest.raises(dt.DataFusionError, match="fast_parquet"):
        dt.SessionContext({"tensor.fast_parquet": "maybe"})
