"""Zarr arrays in SQL (`read_zarr`) against zarr-python reading the same stores.

The stores are the ones tests/data/make_zarr_fixtures.py wrote with zarr-python (v2 and v3,
every default codec); every expected value is what the installed zarr reads from them at test
time (zarr 2, the last for Python 3.9, reads the v2 stores only).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

STORES = Path(__file__).resolve().parents[2] / "tests" / "data" / "zarr"
# zarr-python has no bfloat16: that store's values are checked against ml_dtypes in
# sql/zarr_generated.slt.
ARRAYS = sorted(
    p for p in STORES.iterdir() if p.is_dir() and p.name not in ("bad", "v3_group", "v3_bfloat16")
)


def _zarr(path):
    zarr = pytest.importorskip("zarr")
    if path.name.startswith("v3") and int(zarr.__version__.split(".")[0]) < 3:
        pytest.skip(f"zarr {zarr.__version__} reads Zarr v2 only")
    return zarr


@pytest.mark.parametrize("path", ARRAYS, ids=[p.name for p in ARRAYS])
def test_read_zarr_is_zarr(ctx, path):
    zarr = _zarr(path)
    expected = zarr.open_array(str(path), mode="r")[...]
    got = ctx.sql(f"SELECT x FROM read_zarr('{path}') ORDER BY row_index").to_numpy("x")
    if expected.ndim == 0:
        expected = expected.reshape(1)
    assert got.dtype == expected.dtype.newbyteorder("=")
    assert got.shape == expected.shape
    np.testing.assert_array_equal(got, expected)


def test_a_group_s_arrays(ctx):
    path = STORES / "v3_group"
    zarr = _zarr(path)
    for array in ("temperature", "labels/ids"):
        expected = zarr.open_array(str(path), path=array, mode="r")[...]
        got = ctx.sql(
            f"SELECT x FROM read_zarr('{path}', '{array}') ORDER BY row_index"
        ).to_numpy("x")
        np.testing.assert_array_equal(got, expected)


def test_rows_by_index_are_zarr_s_slice(ctx):
    path = STORES / "v3_rows"
    zarr = _zarr(path)
    expected = zarr.open_array(str(path), mode="r")[130:190]
    got = ctx.sql(
        f"SELECT x FROM read_zarr('{path}') WHERE row_index >= 130 AND row_index < 190 "
        "ORDER BY row_index"
    ).to_numpy("x")
    np.testing.assert_array_equal(got, expected)


def test_a_group_without_an_array_names_its_arrays(ctx):
    with pytest.raises(Exception, match="is a group, not an array.*its arrays: a, g/b"):
        ctx.sql(f"SELECT * FROM read_zarr('{STORES / 'bad' / 'group'}')").collect()
