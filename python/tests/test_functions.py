"""Every function family against numpy, over pyarrow tables in memory (plain and permuted)."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest

from conftest import logical_tensors, run, tensor_array


def numpy_index(index: str):
    """numpy's index object for an index string, as Python parses ``x[<index>]``."""
    return eval(f"np.s_[{index}]", {"np": np, "__builtins__": {}}, {})  # noqa: S307


@pytest.fixture
def x(rng):
    return rng.standard_normal((7, 3, 4, 5)).astype(np.float32)


@pytest.fixture(params=[None, [2, 0, 1], [1, 2, 0]], ids=["row-major", "perm201", "perm120"])
def permutation(request):
    return request.param


@pytest.fixture
def table(ctx, x, permutation):
    ctx.from_arrow(
        pa.table({"id": np.arange(len(x)), "x": tensor_array(x, permutation)}), name="t"
    )
    return x


# ---- constructors and introspection -------------------------------------------------------


def test_constructor_and_introspection(ctx, table):
    x = table
    out = run(
        ctx,
        "SELECT tensor_shape(x) AS shape, tensor_ndim(x) AS ndim, tensor_size(x) AS size, "
        "tensor_reshape(x, [4, -1]) AS r, tensor_to_list(x) AS l FROM t ORDER BY id",
    )
    assert out.column("shape").to_pylist() == [list(x.shape[1:])] * len(x)
    assert out.column("ndim").to_pylist() == [x.ndim - 1] * len(x)
    assert out.column("size").to_pylist() == [x[0].size] * len(x)
    np.testing.assert_array_equal(logical_tensors(out.column("r")), x.reshape(len(x), 4, -1))
    assert out.column("l").to_pylist() == [row.tolist() for row in x]


def test_tensor_constructor_literal_and_keywords(ctx):
    values = np.arange(6, dtype=np.int64)
    out = run(
        ctx,
        "SELECT tensor([0, 1, 2, 3, 4, 5], [2, 3]) AS a, "
        "tensor([0, 1, 2, 3, 4, 5], shape => [3, 2]) AS b, "
        "tensor(values => [0, 1, 2, 3, 4, 5], shape => [1, 6]) AS c",
    )
    assert isinstance(out.schema.field("a").type, pa.FixedShapeTensorType)
    np.testing.assert_array_equal(
        out.column("a").combine_chunks().to_numpy_ndarray(), values.reshape(1, 2, 3)
    )
    np.testing.assert_array_equal(logical_tensors(out.column("b")), values.reshape(1, 3, 2))
    np.testing.assert_array_equal(logical_tensors(out.column("c")), values.reshape(1, 1, 6))


def test_tensor_from_list_column(ctx):
    data = pa.table({"v": pa.array([[1.5, 2.5, 3.5, 4.5], [5.0, 6.0, 7.0, 8.0]])})
    ctx.from_arrow(data, name="lists")
    out = run(ctx, "SELECT tensor(v, [2, 2]) AS t FROM lists")
    expected = np.array(data.column("v").to_pylist()).reshape(2, 2, 2)
    np.testing.assert_array_equal(out.column("t").combine_chunks().to_numpy_ndarray(), expected)


# ---- indexing ------------------------------------------------------------------------------

INDICES = [
    "1",
    "-1",
    "1:3, ::2",
    "::-1, 1:, -2",
    "0, :, [2, 0]",
    "..., 1",
    "None, 1, ..., ::2",
    "[True, False, True]",
    "[[0, 1], [2, 1]], 1:3",
    "1, [0, 3, 3], [4, 0, 2]",
    ":, [0, 2], ..., [1, 3]",
    "(2, 1)",
    "1, 2, 3",
]


@pytest.mark.parametrize("index", INDICES)
def test_tensor_get_static(ctx, table, index):
    x = table
    out = run(ctx, f"SELECT tensor_get(x, '{index}') AS y FROM t ORDER BY id")
    expected = np.stack([row[numpy_index(index)] for row in x])
    column = out.column("y")
    if expected.ndim == 1:  # a 0-d result per row is a plain value
        np.testing.assert_array_equal(column.to_numpy(), expected)
    else:
        np.testing.assert_array_equal(logical_tensors(column), expected)


def test_tensor_get_dynamic(ctx, table):
    x = table
    i = np.array([0, 2, 1, -1, 2, 0, 1])
    j = np.array([3, 0, -4, 1, 2, 3, 0])
    ctx.from_arrow(pa.table({"id": np.arange(len(x)), "i": i, "j": j}), name="idx")
    out = run(
        ctx,
        "SELECT tensor_get(x, i) AS a, tensor_get(x, i, j) AS b "
        "FROM t JOIN idx USING (id) ORDER BY id",
    )
    np.testing.assert_array_equal(logical_tensors(out.column("a")), x[np.arange(len(x)), i])
    np.testing.assert_array_equal(
        logical_tensors(out.column("b")), x[np.arange(len(x)), i, j]
    )


def test_output_keeps_dim_names(ctx, rng):
    x = rng.integers(0, 9, (2, 3, 4))
    ctx.from_arrow(pa.table({"x": tensor_array(x, dim_names=["H", "W"])}), name="named")
    out = run(ctx, "SELECT tensor_get(x, '1:, ::2') AS y FROM named")
    assert out.schema.field("y").type.dim_names == ["H", "W"]
    np.testing.assert_array_equal(logical_tensors(out.column("y")), x[:, 1:, ::2])


# ---- choose --------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
def test_tensor_choose(ctx, rng, mode):
    n, shape = 6, (3, 4)
    low, high = (0, 3) if mode == "raise" else (-4, 7)
    a = rng.integers(low, high, (n, *shape)).astype(np.int32)
    choices = [rng.standard_normal((n, *shape)) for _ in range(3)]
    ctx.from_arrow(
        pa.table(
            {"id": np.arange(n), "a": tensor_array(a)}
            | {f"c{k}": tensor_array(c) for k, c in enumerate(choices)}
        ),
        name="ch",
    )
    out = run(
        ctx,
        f"SELECT tensor_choose(a, c0, c1, c2, mode => '{mode}') AS y FROM ch ORDER BY id",
    )
    expected = np.stack(
        [np.choose(a[r], [c[r] for c in choices], mode=mode) for r in range(n)]
    )
    np.testing.assert_array_equal(logical_tensors(out.column("y")), expected)


def test_tensor_choose_broadcast_scalars_and_permuted(ctx, rng):
    n = 5
    a = rng.integers(0, 3, (n, 2, 3, 4)).astype(np.int64)
    c = rng.integers(-50, 50, (n, 3, 4)).astype(np.int64)
    ctx.from_arrow(
        pa.table(
            {"id": np.arange(n), "a": tensor_array(a, [2, 0, 1]), "c": tensor_array(c, [1, 0])}
        ),
        name="chb",
    )
    out = run(ctx, "SELECT tensor_choose(a, c, 7, -7) AS y FROM chb ORDER BY id")
    expected = np.stack([np.choose(a[r], [c[r], 7, -7]) for r in range(n)])
    np.testing.assert_array_equal(logical_tensors(out.column("y")), expected)


# ---- at-updates (JAX x.at[idx]; reference: numpy loops over the index's occurrences) -------


def at_reference(x, rows_idx, y, op):
    """``x.at[idx].op(y)`` per row, for a 1-d integer index on axis 0: every occurrence
    applied in order (duplicates accumulate; ``set``: the last one wins)."""
    out = x.copy()
    for r in range(len(x)):
        yb = np.broadcast_to(y, (len(rows_idx), *x.shape[2:]))
        for k, i in enumerate(rows_idx):
            if op == "set":
                out[r, i] = yb[k]
            elif op == "add":
                out[r, i] += yb[k]
            elif op == "multiply":
                out[r, i] *= yb[k]
            elif op == "min":
                out[r, i] = np.minimum(out[r, i], yb[k])
            elif op == "max":
                out[r, i] = np.maximum(out[r, i], yb[k])
    return out


@pytest.mark.parametrize("op", ["set", "add", "multiply", "min", "max"])
def test_tensor_at_ops(ctx, rng, op):
    x = rng.standard_normal((4, 5, 3))
    y = rng.standard_normal(3)
    idx = [0, 3, 0, -1]
    ctx.from_arrow(pa.table({"id": np.arange(4), "x": tensor_array(x)}), name="at")
    y_sql = ", ".join(repr(float(v)) for v in y)
    out = run(
        ctx,
        f"SELECT tensor_at_{op}(x, '{idx}', tensor([{y_sql}], [3])) AS y FROM at ORDER BY id",
    )
    np.testing.assert_allclose(
        logical_tensors(out.column("y")), at_reference(x, idx, y, op), rtol=1e-12
    )


def test_tensor_at_add_numpy_add_at(ctx, rng):
    """The duplicate-accumulating add is numpy's ``np.add.at``."""
    x = rng.integers(-100, 100, (3, 4, 4)).astype(np.int32)
    ctx.from_arrow(pa.table({"id": np.arange(3), "x": tensor_array(x, [1, 0])}), name="at")
    out = run(ctx, "SELECT tensor_at_add(x, ':, [0, 0, 1]', 5) AS y FROM at ORDER BY id")
    expected = x.copy()
    for r in range(3):
        np.add.at(expected[r], (slice(None), [0, 0, 1]), 5)
    assert out.schema.field("y").type.value_type == pa.int32()
    np.testing.assert_array_equal(logical_tensors(out.column("y")), expected)


def test_tensor_at_get_modes_keywords_any_order(ctx, rng):
    x = rng.standard_normal((2, 4))
    ctx.from_arrow(pa.table({"id": np.arange(2), "x": tensor_array(x)}), name="at")
    out = run(
        ctx,
        "SELECT tensor_at_get(x, '[1, 5, -1]', fill_value => -1.0, mode => 'fill') AS f, "
        "tensor_at_get(x, '[1, 5, -1]') AS c FROM at ORDER BY id",
    )
    fill = np.stack([[row[1], -1.0, row[-1]] for row in x])
    clamp = np.stack([row[np.clip([1, 5, 3], 0, 3)] for row in x])  # -1 wraps to 3
    np.testing.assert_array_equal(logical_tensors(out.column("f")), fill)
    np.testing.assert_array_equal(logical_tensors(out.column("c")), clamp)


def test_tensor_at_apply_lambda(ctx, rng):
    x = rng.integers(-9, 9, (3, 2, 3)).astype(np.int32)
    ctx.from_arrow(pa.table({"id": np.arange(3), "x": tensor_array(x)}), name="at")
    out = run(ctx, "SELECT tensor_at_apply(x, '1, ::2', v -> v * 2 + 1) AS y FROM at ORDER BY id")
    expected = x.copy()
    expected[:, 1, ::2] = expected[:, 1, ::2] * 2 + 1
    assert out.schema.field("y").type.value_type == pa.int32()
    np.testing.assert_array_equal(logical_tensors(out.column("y")), expected)


# ---- along an axis -------------------------------------------------------------------------


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_take_and_put_along_axis(ctx, rng, axis):
    n = 4
    x = rng.standard_normal((n, 3, 5))
    shape = list(x.shape[1:])
    shape[axis] = 2
    idx = rng.integers(0, x.shape[1:][axis], (n, *shape))
    values = rng.standard_normal((n, *shape))
    ctx.from_arrow(
        pa.table(
            {
                "id": np.arange(n),
                "x": tensor_array(x, [1, 0]),
                "i": tensor_array(idx),
                "v": tensor_array(values),
            }
        ),
        name="al",
    )
    out = run(
        ctx,
        f"SELECT tensor_take_along_axis(x, i, {axis}) AS take, "
        f"tensor_put_along_axis(x, i, v, {axis}) AS put FROM al ORDER BY id",
    )
    take = np.stack([np.take_along_axis(x[r], idx[r], axis=axis) for r in range(n)])
    put = x.copy()
    for r in range(n):
        np.put_along_axis(put[r], idx[r], values[r], axis=axis)
    np.testing.assert_array_equal(logical_tensors(out.column("take")), take)
    np.testing.assert_array_equal(logical_tensors(out.column("put")), put)


# ---- the SQL surface of the CLI (TensorSql) ------------------------------------------------


def test_case_and_coalesce_keep_the_tensor_type(ctx, table):
    x = table
    out = run(
        ctx,
        "SELECT tensor_get(CASE WHEN id % 2 = 0 THEN tensor_at_multiply(x, '...', 1.0) "
        "ELSE tensor_at_multiply(x, '...', -1.0) END, "
        "'1, ::2') AS y, tensor_get(COALESCE(x, x), '0, 0, 0') AS z FROM t ORDER BY id",
    )
    sign = np.where(np.arange(len(x)) % 2 == 0, 1.0, -1.0).astype(np.float32)
    np.testing.assert_array_equal(
        logical_tensors(out.column("y")), (x * sign[:, None, None, None])[:, 1, ::2]
    )
    np.testing.assert_array_equal(out.column("z").to_numpy(), x[:, 0, 0, 0])


def test_show_functions_lists_every_function(ctx):
    out = run(ctx, "SHOW FUNCTIONS LIKE 'tensor%'")
    names = set(out.column("function_name").to_pylist())
    for name in ["tensor", "tensor_get", "tensor_choose", "tensor_at_apply", "tensor_at_add",
                 "tensor_take_along_axis", "tensor_put_along_axis", "tensor_reshape"]:
        assert name in names
