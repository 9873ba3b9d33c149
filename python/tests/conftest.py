"""Shared helpers: tensors in and out as the canonical extension spec defines them.

Every expected value in this suite is computed by numpy at test time from the same input
arrays; nothing is copied from this project's output.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest

import datafusion_tensor as dt


def tensor_array(logical: np.ndarray, permutation=None, dim_names=None) -> pa.ExtensionArray:
    """A ``FixedShapeTensorArray`` whose row ``i`` is the logical tensor ``logical[i]``.

    With a ``permutation``, the stored (row-major) tensor is the one whose
    ``transpose(permutation)`` is the logical tensor, as the canonical spec defines it.
    """
    if permutation is None:
        physical = logical
    else:
        inverse = np.argsort(permutation)
        physical = logical.transpose(0, *(1 + inverse))
    shape = list(physical.shape[1:])
    size = int(np.prod(shape, dtype=np.int64))
    tensor_type = pa.fixed_shape_tensor(
        pa.from_numpy_dtype(logical.dtype),
        shape,
        dim_names=dim_names,
        permutation=None if permutation is None else list(permutation),
    )
    flat = pa.array(np.ascontiguousarray(physical).reshape(-1))
    storage = pa.FixedSizeListArray.from_arrays(flat, size)
    return pa.ExtensionArray.from_storage(tensor_type, storage)


def logical_tensors(column) -> np.ndarray:
    """The logical tensors of a tensor column (``(rows, *shape)``), following the canonical
    spec (pyarrow's own ``to_numpy_ndarray`` is wrong for some permutations)."""
    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks()
    tensor_type = column.type
    assert isinstance(tensor_type, pa.FixedShapeTensorType), tensor_type
    shape = list(tensor_type.shape)
    flat = column.storage.flatten().to_numpy(zero_copy_only=False)
    physical = flat.reshape([len(column), *shape])
    permutation = tensor_type.permutation
    if permutation is None:
        return physical
    return physical.transpose(0, *(1 + np.asarray(permutation)))


@pytest.fixture
def ctx() -> dt.SessionContext:
    return dt.SessionContext()


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(19)


def run(ctx: dt.SessionContext, query: str) -> pa.Table:
    return ctx.sql(query).to_arrow_table()
