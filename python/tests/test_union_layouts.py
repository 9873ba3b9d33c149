"""UNIONs of one logical tensor stored in different layouts, written with COPY and read back
with pyarrow: every row must read as the tensor numpy has (no layout silently applied to
another branch's values)."""

from __future__ import annotations

import itertools

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from conftest import logical_tensors, tensor_array


def copy_and_read(ctx, query: str, path) -> pa.Table:
    ctx.sql(f"COPY ({query}) TO '{path}' STORED AS PARQUET").collect()
    return pq.read_table(path).sort_by("id")


def test_every_permutation_dim_names_and_computed_tensors(ctx, tmp_path, rng):
    logical = rng.integers(-50, 50, (4, 2, 3, 4)).astype(np.float32)
    columns = {"id": np.arange(4)}
    exprs = []
    for k, perm in enumerate(itertools.permutations(range(3))):
        columns[f"p{k}"] = tensor_array(logical, list(perm))
        exprs.append(f"p{k}")
    columns["named"] = tensor_array(logical, dim_names=["a", "b", "c"])
    # pyarrow's own constructor writes the identity permutation.
    columns["plain"] = pa.FixedShapeTensorArray.from_numpy_ndarray(logical)
    pq.write_table(pa.table(columns), tmp_path / "in.parquet")
    ctx.register_parquet("t", str(tmp_path / "in.parquet"))
    exprs += [
        "named",
        "plain",
        "plain + 0",
        "tensor_ascontiguousarray(p3)",
        # Transposed there and back: the logical tensor again, in another stored layout.
        "tensor_transpose(tensor_transpose(plain, [2, 0, 1]), [1, 2, 0])",
    ]
    branches = [f"SELECT id + {100 * i} AS id, {e} AS v FROM t" for i, e in enumerate(exprs)]
    table = copy_and_read(ctx, " UNION ALL ".join(branches), tmp_path / "out.parquet")
    assert isinstance(table.schema.field("v").type, pa.FixedShapeTensorType)
    np.testing.assert_array_equal(
        logical_tensors(table.column("v")), np.concatenate([logical] * len(exprs))
    )


def test_a_column_and_its_transpose(ctx, tmp_path, rng):
    # The digits session: 8x8 uint8 images, transposed and flipped, stacked with UNION ALL.
    images = rng.integers(0, 17, (5, 8, 8)).astype(np.uint8)
    pq.write_table(
        pa.table({"id": np.arange(5), "img": pa.FixedShapeTensorArray.from_numpy_ndarray(images)}),
        tmp_path / "digits.parquet",
    )
    ctx.register_parquet("digits", str(tmp_path / "digits.parquet"))
    query = (
        "SELECT id, img FROM digits UNION ALL "
        "SELECT id + 10, tensor_transpose(img) FROM digits UNION ALL "
        "SELECT id + 20, tensor_flip(img, 1) FROM digits"
    )
    table = copy_and_read(ctx, query, tmp_path / "augmented.parquet")
    expected = np.concatenate([images, images.transpose(0, 2, 1), images[:, :, ::-1]])
    np.testing.assert_array_equal(logical_tensors(table.column("img")), expected)
    # The other order: the transposes first.
    query = (
        "SELECT id, tensor_transpose(img) AS img FROM digits UNION ALL "
        "SELECT id + 10, img FROM digits"
    )
    table = copy_and_read(ctx, query, tmp_path / "swapped.parquet")
    expected = np.concatenate([images.transpose(0, 2, 1), images])
    np.testing.assert_array_equal(logical_tensors(table.column("img")), expected)


def test_other_logical_shapes_are_an_error(ctx, tmp_path, rng):
    x = rng.standard_normal((3, 2, 3)).astype(np.float32)
    pq.write_table(pa.table({"id": np.arange(3), "x": tensor_array(x)}), tmp_path / "x.parquet")
    ctx.register_parquet("t", str(tmp_path / "x.parquet"))
    with pytest.raises(Exception, match=r"UNION: column 2 \('x'\) is arrow\.fixed_shape_tensor"):
        ctx.sql("SELECT id, x FROM t UNION ALL SELECT id, tensor_transpose(x) FROM t").collect()


@pytest.mark.parametrize("seed", range(12))
def test_random_unions_of_layouts(ctx, tmp_path, seed):
    """The property: any union of any layouts of one logical tensor, in any order, written and
    read back, equals numpy's concatenation."""
    rng = np.random.default_rng(1000 + seed)
    ndim = int(rng.integers(1, 4))
    shape = tuple(int(d) for d in rng.integers(1, 4, ndim))
    logical = rng.integers(-9, 10, (3, *shape)).astype(np.int32)
    columns = {"id": np.arange(3)}
    exprs = []
    for k in range(int(rng.integers(2, 5))):
        perm = [int(p) for p in rng.permutation(ndim)]
        names = [f"d{k}{i}" for i in range(ndim)] if rng.integers(0, 2) else None
        columns[f"c{k}"] = tensor_array(logical, perm, dim_names=names)
        exprs.append(f"c{k}")
    # A computed branch: row-major, no metadata beyond the shape.
    exprs.append("c0 * 1")
    order = [int(i) for i in rng.permutation(len(exprs))]
    pq.write_table(pa.table(columns), tmp_path / "in.parquet")
    ctx.register_parquet("t", str(tmp_path / "in.parquet"))
    branches = [f"SELECT id + {10 * i} AS id, {exprs[j]} AS v FROM t" for i, j in enumerate(order)]
    table = copy_and_read(ctx, " UNION ALL ".join(branches), tmp_path / "out.parquet")
    np.testing.assert_array_equal(
        logical_tensors(table.column("v")), np.concatenate([logical] * len(exprs))
    )
