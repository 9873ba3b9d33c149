"""Tensor files in SQL and numpy/torch/JAX arrays out and in (`read_npy`, `read_npz`,
`read_safetensors`, `COPY TO`, `DataFrame.to_numpy`/`to_torch`/`to_jax`,
`SessionContext.from_numpy`/`from_torch`).

The files are the ones tests/data/make_tensor_file_fixtures.py wrote with numpy and the
safetensors package; every expected value is what numpy (or safetensors, torch, JAX) reads
from them at test time.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

import datafusion_tensor as dt

FILES = Path(__file__).resolve().parents[2] / "tests" / "data" / "tensor_files"
NPY = sorted(p for p in FILES.glob("*.npy"))


@pytest.mark.parametrize("path", NPY, ids=[p.name for p in NPY])
def test_read_npy_is_np_load(ctx, path):
    expected = np.load(path)
    got = ctx.sql(f"SELECT x FROM read_npy('{path}') ORDER BY row_index").to_numpy("x")
    if expected.ndim == 0:
        expected = expected.reshape(1)
    assert got.dtype == expected.dtype.newbyteorder("=")
    assert got.shape == expected.shape
    np.testing.assert_array_equal(got, expected)


def test_to_numpy_is_the_mapped_buffer(ctx):
    """A little-endian C-order file: the ndarray is Arrow's buffer, which is the file's map."""
    path = FILES / "c_float32.npy"
    table = ctx.sql(f"SELECT x FROM read_npy('{path}')").to_arrow_table()
    flat = table.column("x").chunks[0].storage.flatten()
    got = dt._numpy.column_to_numpy(table, "x")
    assert got.__array_interface__["data"][0] == flat.buffers()[1].address + flat.offset * 4
    assert not got.flags.owndata
    np.testing.assert_array_equal(got, np.load(path))


def test_to_numpy_of_a_permuted_column_is_a_view(ctx):
    """A Fortran-order file keeps its rows' layout as a permutation: numpy gets a strided view
    equal to np.load's array."""
    path = FILES / "f_4d.npy"
    got = ctx.sql(f"SELECT x FROM read_npy('{path}') ORDER BY row_index").to_numpy("x")
    np.testing.assert_array_equal(got, np.load(path))
    assert not got.flags.c_contiguous


def test_read_safetensors_is_safetensors(ctx):
    load_file = pytest.importorskip("safetensors.numpy").load_file

    path = FILES / "model.safetensors"
    expected = load_file(str(path))
    for name, array in expected.items():
        df = ctx.sql(f"SELECT tensor, shape FROM read_safetensors('{path}') WHERE name = '{name}'")
        table = df.to_arrow_table()
        assert table.column("shape").to_pylist() == [list(array.shape)]
        got = df.to_numpy("tensor")
        # The table's element type is every tensor's promotion (float16 and float32: float32).
        np.testing.assert_array_equal(got.reshape(array.shape), array.astype(got.dtype))


@pytest.mark.parametrize("file", ["arrays.npz", "compressed.npz"])
def test_read_npz_is_np_load(ctx, file):
    path = FILES / file
    expected = np.load(path)
    rows = ctx.sql(f"SELECT name, shape FROM read_npz('{path}')").to_pylist()
    assert [r["name"] for r in rows] == list(expected.files)
    for name in expected.files:
        got = ctx.sql(f"SELECT tensor FROM read_npz('{path}') WHERE name = '{name}'").to_numpy(
            "tensor"
        )
        np.testing.assert_array_equal(got.reshape(expected[name].shape), expected[name])


def test_copy_to_npy_is_read_by_numpy(ctx, tmp_path):
    for source in ("c_float16.npy", "f_float64.npy", "c_bool.npy", "vector.npy"):
        out = tmp_path / source
        ctx.sql(
            f"COPY (SELECT x FROM read_npy('{FILES / source}') ORDER BY row_index) TO '{out}'"
        ).collect()
        expected = np.load(FILES / source)
        got = np.load(out)
        assert got.dtype == expected.dtype.newbyteorder("=")
        np.testing.assert_array_equal(got, expected)


def test_copy_to_safetensors_is_read_by_safetensors(ctx, tmp_path):
    load_file = pytest.importorskip("safetensors.numpy").load_file

    out = tmp_path / "out.safetensors"
    ctx.sql(
        f"COPY (SELECT name, tensor FROM read_npz('{FILES / 'arrays.npz'}')) TO '{out}'"
    ).collect()
    got = load_file(str(out))
    expected = np.load(FILES / "arrays.npz")
    assert sorted(got) == sorted(expected.files)
    for name in expected.files:
        # The table's tensors: float32 (numpy's promotion of the archive's float32 and
        # int16), shapes padded with leading 1s to its two dimensions.
        want = expected[name].astype(got[name].dtype)
        assert got[name].shape == (1,) * (2 - want.ndim) + want.shape
        np.testing.assert_array_equal(got[name].reshape(want.shape), want)


@pytest.mark.parametrize(
    "array",
    [
        np.arange(24, dtype=np.float32).reshape(4, 3, 2),
        np.asfortranarray(np.arange(24, dtype=np.int64).reshape(4, 3, 2)),
        np.arange(12, dtype=np.float64).reshape(4, 3).astype(">f8"),
        np.array([[True, False], [False, True]]),
        np.arange(6, dtype=np.float16).reshape(3, 2),
        np.arange(5, dtype=np.uint8),
    ],
    ids=["float32", "fortran", "big-endian", "bool", "float16", "1-d"],
)
def test_from_numpy_round_trip(ctx, array):
    got = ctx.from_numpy({"x": array}).to_numpy("x")
    np.testing.assert_array_equal(got, array)
    assert got.dtype == array.dtype.newbyteorder("=")


def test_from_numpy_is_the_array_s_buffer(ctx):
    array = np.arange(24, dtype=np.float32).reshape(4, 6)
    table = dt._numpy.arrays_to_table({"x": array})
    flat = table.column("x").chunks[0].storage.flatten()
    assert flat.buffers()[1].address == array.__array_interface__["data"][0]


def test_from_numpy_computes_as_numpy(ctx):
    x = np.random.default_rng(1).standard_normal((5, 3, 4))
    got = ctx.from_numpy({"x": x}, name="t").to_numpy("x")
    np.testing.assert_array_equal(got, x)
    sums = ctx.sql("SELECT tensor_sum(x, axis => 1) AS s FROM t").to_numpy("s")
    # axis 1 of each row's [3, 4] tensor is axis 2 of the stacked array.
    np.testing.assert_allclose(sums, x.sum(axis=2), rtol=1e-12)


def test_to_numpy_refuses_nulls_and_ragged_rows(ctx):
    with pytest.raises(ValueError, match="row 1 of column 'x' is NULL"):
        ctx.sql(
            "SELECT x FROM (SELECT 1 AS i, tensor([1.0, 2.0], [2]) AS x "
            "UNION ALL SELECT 2, NULL) ORDER BY i"
        ).to_numpy("x")
    with pytest.raises(ValueError, match="different shapes"):
        ctx.sql(
            f"SELECT tensor FROM read_safetensors('{FILES / 'model.safetensors'}')"
        ).to_numpy("tensor")
    with pytest.raises(ValueError, match="0-d"):
        ctx.from_numpy({"x": np.float32(1.0)})
    with pytest.raises(TypeError, match="complex"):
        ctx.from_numpy({"x": np.zeros((2, 2), dtype=np.complex64)})


def test_to_torch_shares_the_buffer(ctx):
    torch = pytest.importorskip("torch")
    path = FILES / "c_float32.npy"
    got = ctx.sql(f"SELECT x FROM read_npy('{path}')").to_torch("x")
    assert isinstance(got, torch.Tensor)
    np.testing.assert_array_equal(got.numpy(), np.load(path))
    back = ctx.from_torch({"x": torch.arange(6.0).reshape(3, 2)}).to_numpy("x")
    np.testing.assert_array_equal(back, np.arange(6.0).reshape(3, 2))


def test_to_jax(ctx):
    jnp = pytest.importorskip("jax.numpy")
    path = FILES / "c_float32.npy"
    got = ctx.sql(f"SELECT x FROM read_npy('{path}')").to_jax("x")
    np.testing.assert_array_equal(np.asarray(got), np.load(path))
    back = ctx.from_numpy({"x": jnp.arange(6.0).reshape(3, 2)}).to_numpy("x")
    np.testing.assert_array_equal(back, np.arange(6.0).reshape(3, 2))
