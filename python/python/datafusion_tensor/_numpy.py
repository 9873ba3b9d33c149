"""numpy arrays out of tensor columns and into them: no copy where Arrow's buffers can be
numpy's (one chunk, no NULLs, a numeric dtype), and the rule of every copy said.

A fixed-shape tensor column is an ``ndarray`` of shape ``[rows, *shape]``: a view of the
column's value buffer, transposed by the column's ``permutation`` (a strided view, not a
copy: logical dimension ``i`` is physical dimension ``permutation[i]``). Copies: booleans
(Arrow packs them into bits), several chunks (concatenated), and variable-shape columns whose
rows share one shape (stacked). Refused with ``ValueError``: NULL rows and NULL elements
(numpy has no missing values), and variable-shape rows of different shapes.
"""

from __future__ import annotations

import json
from typing import Any

import pyarrow as pa

FIXED = "arrow.fixed_shape_tensor"
VARIABLE = "arrow.variable_shape_tensor"


def _extension(
    field: pa.Field, array: pa.Array, known: dict[str, str] | None
) -> tuple[str | None, dict, pa.Array]:
    """The extension name, its metadata and the storage of ``array``; ``known`` is the
    column's field metadata as the engine holds it (pyarrow keeps no metadata of extension
    types it has no class for, such as ``arrow.variable_shape_tensor``)."""
    if isinstance(array.type, pa.BaseExtensionType):
        name = array.type.extension_name
        if isinstance(array.type, pa.FixedShapeTensorType):
            meta = {"shape": list(array.type.shape),
                    "permutation": list(array.type.permutation or []) or None}
        elif known is not None and "ARROW:extension:metadata" in known:
            meta = json.loads(known["ARROW:extension:metadata"] or "{}")
        elif hasattr(array.type, "__arrow_ext_serialize__"):
            meta = json.loads(array.type.__arrow_ext_serialize__() or b"{}")
        else:
            raise TypeError(
                f"to_numpy: the metadata of column '{field.name}' ({name}) is not known; "
                "use DataFrame.to_numpy"
            )
        return name, meta, array.storage
    metadata = field.metadata or {}
    name = metadata.get(b"ARROW:extension:name")
    if name is None:
        return None, {}, array
    meta = json.loads(metadata.get(b"ARROW:extension:metadata") or b"{}")
    return name.decode(), meta, array


def _first_null(array: pa.Array) -> int:
    import numpy as np

    return int(np.flatnonzero(array.is_null().to_numpy(zero_copy_only=False))[0])


def _values(array: pa.Array, column: str) -> Any:
    """The flat values of ``array`` as numpy, without a copy where Arrow allows."""
    if array.null_count:
        raise ValueError(
            f"to_numpy: column '{column}' has a NULL element (numpy has no missing values): "
            "replace it first, e.g. with tensor_nan_to_num or COALESCE"
        )
    zero_copy = not pa.types.is_boolean(array.type)
    return array.to_numpy(zero_copy_only=zero_copy)


def column_to_numpy(table: pa.Table, column: str, known: dict[str, str] | None = None) -> Any:
    """Column ``column`` of ``table`` as an ndarray (see the module's docs); ``known``: the
    column's field metadata, as :func:`_extension` takes it."""
    import numpy as np

    if column not in table.column_names:
        raise KeyError(f"to_numpy: no column '{column}' (columns: {table.column_names})")
    field = table.schema.field(column)
    chunks = table.column(column).chunks
    if not chunks:
        array = pa.array([], type=field.type)
    elif len(chunks) == 1:
        array = chunks[0]
    else:
        array = pa.concat_arrays(chunks)
    name, meta, storage = _extension(field, array, known)
    if storage.null_count:
        raise ValueError(
            f"to_numpy: row {_first_null(storage)} of column '{column}' is NULL (numpy has no "
            "missing values): filter it out first (WHERE ... IS NOT NULL)"
        )
    if name == FIXED:
        shape = [int(d) for d in meta.get("shape", [])]
        flat = _values(storage.flatten(), column)
        out = flat.reshape((len(storage), *shape))
        permutation = meta.get("permutation")
        if permutation:
            out = out.transpose(0, *(1 + int(p) for p in permutation))
        return out
    if name == VARIABLE:
        data, shapes = storage.field("data"), storage.field("shape")
        permutation = meta.get("permutation")
        rows = []
        for i in range(len(storage)):
            physical = shapes[i].as_py()
            row = _values(data[i].values, column).reshape(physical)
            rows.append(row.transpose(*permutation) if permutation else row)
        if len({r.shape for r in rows}) > 1:
            raise ValueError(
                f"to_numpy: the rows of column '{column}' have different shapes "
                f"({rows[0].shape}, ...): numpy has no ragged arrays; select rows of one shape"
            )
        if not rows:
            return np.zeros((0,), dtype=data.type.value_type.to_pandas_dtype())
        return np.stack(rows)
    if pa.types.is_fixed_size_list(storage.type) or pa.types.is_list(storage.type):
        raise TypeError(
            f"to_numpy: column '{column}' is a list, not a tensor: make it one with tensor(...)"
        )
    return _values(storage, column)


def _as_ndarray(value: Any, name: str) -> Any:
    import numpy as np

    if isinstance(value, np.ndarray):
        return value
    if hasattr(value, "detach") and hasattr(value, "__dlpack__"):
        value = value.detach()  # a torch tensor that requires grad cannot be exported
    if hasattr(value, "__dlpack__"):
        try:
            return np.from_dlpack(value)
        except (BufferError, RuntimeError, TypeError) as err:
            raise TypeError(
                f"from_numpy: '{name}' cannot be read through DLPack ({err}); "
                "move it to the CPU first"
            ) from err
    return np.asarray(value)


def arrays_to_table(arrays: dict[str, Any]) -> pa.Table:
    """A table of ``arrays`` (ndarrays, or anything with ``__dlpack__`` such as torch or JAX
    arrays on the CPU): axis 0 is the rows; 1-d arrays are plain columns, n-d ones
    ``arrow.fixed_shape_tensor`` columns of the remaining shape. C-contiguous numeric arrays
    are not copied; others are made C-contiguous (a copy), booleans packed into bits."""
    import numpy as np

    columns: dict[str, pa.Array] = {}
    rows = None
    for name, value in arrays.items():
        arr = _as_ndarray(value, name)
        if arr.ndim == 0:
            raise ValueError(f"from_numpy: '{name}' is 0-d: its axis 0 would be the rows")
        if arr.dtype.kind not in "biuf" or arr.dtype.itemsize > 8:
            raise TypeError(
                f"from_numpy: '{name}' has dtype {arr.dtype}: tensors hold bool, int8-64, "
                "uint8-64 and float16-64"
            )
        if rows is not None and arr.shape[0] != rows:
            raise ValueError(
                f"from_numpy: '{name}' has {arr.shape[0]} rows (axis 0), the arrays before it "
                f"{rows}"
            )
        rows = arr.shape[0]
        if arr.dtype.byteorder == ">":
            arr = arr.astype(arr.dtype.newbyteorder("<"))
        if arr.ndim == 1:
            columns[name] = pa.array(np.ascontiguousarray(arr))
            continue
        c = np.ascontiguousarray(arr)
        size = int(np.prod(c.shape[1:]))
        flat = pa.array(c.reshape(-1))
        storage = pa.FixedSizeListArray.from_arrays(flat, size)
        tensor_type = pa.fixed_shape_tensor(flat.type, list(c.shape[1:]))
        columns[name] = pa.ExtensionArray.from_storage(tensor_type, storage)
    return pa.table(columns)
