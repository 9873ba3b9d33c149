"""The DataFrame API (datafusion_tensor.functions): every builder against numpy, the DataFrame
methods, keyword options, operators, and the type stub's agreement with the registry."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

import datafusion_tensor as dt
from conftest import logical_tensors, tensor_array
from datafusion_tensor import functions as tf
from datafusion_tensor.functions import col, lit

ROWS = 3


@pytest.fixture
def data(rng):
    x = rng.standard_normal((ROWS, 2, 3))
    y = rng.standard_normal((ROWS, 2, 3))
    b = rng.random((ROWS, 2, 3)) < 0.5
    i = rng.integers(0, 2, (ROWS, 2, 3)).astype(np.int64)
    # Square, well-conditioned matrices, and symmetric positive definite ones.
    s = rng.standard_normal((ROWS, 3, 3)) + 3 * np.eye(3)
    h = s @ np.swapaxes(s, -1, -2)
    return {"x": x, "y": y, "b": b, "i": i, "s": s, "h": h}


@pytest.fixture
def df(ctx, data):
    table = pa.table(
        {
            "id": np.arange(ROWS),
            "g": np.array([0, 1, 0]),
            "x": tensor_array(data["x"]),
            "y": tensor_array(data["y"]),
            "b": tensor_array(data["b"]),
            "i": tensor_array(data["i"]),
            "xp": tensor_array(data["x"], permutation=[1, 0]),
            "s": tensor_array(data["s"]),
            "h": tensor_array(data["h"]),
        }
    )
    return ctx.from_arrow(table, name="t").sort(col("id"))


def values(df, name="r"):
    """The column `name` of the result: logical tensors, or a plain column's values."""
    column = df.to_arrow_table().column(name).combine_chunks()
    if isinstance(column.type, pa.FixedShapeTensorType):
        return logical_tensors(column)
    return column.to_pylist()


def per_row(fn, *arrays):
    return np.stack([np.asarray(fn(*(a[r] for a in arrays))) for r in range(ROWS)])


def variable(a):
    """A variable-shape tensor as pyarrow's to_pylist gives it: its data and shape."""
    return {"data": a.ravel().tolist(), "shape": list(a.shape)}


def cumulative(ufunc, a, axis, include_initial=False):
    """numpy 2.1's `cumulative_sum`/`cumulative_prod` (`ufunc` np.add or np.multiply), written
    with `ufunc.accumulate` so the expected values also come from numpy 2.0 (Python 3.9's)."""
    out = ufunc.accumulate(a, axis=axis)
    if not include_initial:
        return out
    shape = list(a.shape)
    shape[axis] = 1
    return np.concatenate([np.full(shape, ufunc.identity, dtype=out.dtype), out], axis=axis)


X, Y = col("x"), col("y")

# name -> (builder call, numpy on the rows' tensors x, y, b, i); every builder of the registry
# has a case here (test_every_builder_has_a_case).
UNARY = {
    "tensor_negative": np.negative, "tensor_abs": np.abs, "tensor_sign": np.sign,
    "tensor_square": np.square, "tensor_sqrt": lambda a: np.sqrt(np.abs(a)),
    "tensor_exp": np.exp, "tensor_log": lambda a: np.log(np.abs(a)),
    "tensor_log1p": lambda a: np.log1p(np.abs(a)), "tensor_expm1": np.expm1,
    "tensor_sin": np.sin, "tensor_cos": np.cos, "tensor_tan": np.tan, "tensor_tanh": np.tanh,
    "tensor_arctan": np.arctan, "tensor_floor": np.floor, "tensor_ceil": np.ceil,
    "tensor_isnan": np.isnan, "tensor_isinf": np.isinf, "tensor_isfinite": np.isfinite,
    "tensor_arcsinh": np.arcsinh, "tensor_asinh": np.asinh, "tensor_sinh": np.sinh,
    "tensor_cosh": np.cosh, "tensor_atan": np.atan, "tensor_log2": lambda a: np.log2(np.abs(a)),
    "tensor_log10": lambda a: np.log10(np.abs(a)), "tensor_rint": np.rint,
    "tensor_trunc": np.trunc, "tensor_positive": np.positive,
    "tensor_reciprocal": np.reciprocal, "tensor_signbit": np.signbit,
}
# Functions of [-1, 1] (taken of tanh(x)) and of [1, inf) (of cosh(x)).
OF_TANH = {"tensor_arcsin": np.arcsin, "tensor_asin": np.asin, "tensor_arccos": np.arccos,
           "tensor_acos": np.acos, "tensor_arctanh": np.arctanh, "tensor_atanh": np.atanh}
OF_COSH = {"tensor_arccosh": np.arccosh, "tensor_acosh": np.acosh}
ABS_ARGUMENT = {"tensor_sqrt", "tensor_log", "tensor_log1p", "tensor_log2", "tensor_log10"}
BINARY = {
    "tensor_add": np.add, "tensor_subtract": np.subtract, "tensor_multiply": np.multiply,
    "tensor_divide": np.divide, "tensor_floor_divide": np.floor_divide, "tensor_mod": np.mod,
    "tensor_maximum": np.maximum, "tensor_minimum": np.minimum, "tensor_equal": np.equal,
    "tensor_not_equal": np.not_equal, "tensor_less": np.less,
    "tensor_less_equal": np.less_equal, "tensor_greater": np.greater,
    "tensor_greater_equal": np.greater_equal,
    "tensor_arctan2": np.arctan2, "tensor_atan2": np.atan2, "tensor_hypot": np.hypot,
    "tensor_copysign": np.copysign, "tensor_logaddexp": np.logaddexp,
    "tensor_logaddexp2": np.logaddexp2, "tensor_nextafter": np.nextafter,
    "tensor_float_power": np.float_power, "tensor_fmod": np.fmod,
    "tensor_remainder": np.remainder,
}
# On the boolean tensor b and the integer tensor i (0s and 1s).
BITWISE = {"tensor_bitwise_and": np.bitwise_and, "tensor_bitwise_or": np.bitwise_or,
           "tensor_bitwise_xor": np.bitwise_xor, "tensor_left_shift": np.left_shift,
           "tensor_right_shift": np.right_shift,
           "tensor_bitwise_left_shift": np.bitwise_left_shift,
           "tensor_bitwise_right_shift": np.bitwise_right_shift}
LOGICAL = {"tensor_logical_and": np.logical_and, "tensor_logical_or": np.logical_or,
           "tensor_logical_xor": np.logical_xor}
NAN_REDUCE = {"tensor_nansum": np.nansum, "tensor_nanprod": np.nanprod,
              "tensor_nanmean": np.nanmean, "tensor_nanmin": np.nanmin, "tensor_nanmax": np.nanmax,
              "tensor_nanargmin": np.nanargmin, "tensor_nanargmax": np.nanargmax,
              "tensor_nanvar": np.nanvar, "tensor_nanstd": np.nanstd, "tensor_ptp": np.ptp}
REDUCE = {"tensor_sum": np.sum, "tensor_prod": np.prod, "tensor_mean": np.mean,
          "tensor_min": np.min, "tensor_max": np.max, "tensor_argmin": np.argmin,
          "tensor_argmax": np.argmax}


def cases():
    out = {}
    for name, fn in UNARY.items():
        arg = tf.tensor_abs(X) if name in ABS_ARGUMENT else X
        out[name] = (lambda f=getattr(tf, name), a=arg: f(a), lambda d, fn=fn: fn(d["x"]))
    for name, fn in OF_TANH.items():
        out[name] = (lambda f=getattr(tf, name): f(tf.tensor_tanh(X)),
                     lambda d, fn=fn: fn(np.tanh(d["x"])))
    for name, fn in OF_COSH.items():
        out[name] = (lambda f=getattr(tf, name): f(tf.tensor_cosh(X)),
                     lambda d, fn=fn: fn(np.cosh(d["x"])))
    for name, fn in BITWISE.items():
        out[name] = (lambda f=getattr(tf, name): f(col("i"), col("b")),
                     lambda d, fn=fn: fn(d["i"], d["b"]))
    for name in ["tensor_invert", "tensor_bitwise_invert"]:
        out[name] = (lambda f=getattr(tf, name): f(col("i")), lambda d: np.invert(d["i"]))
    for name, fn in BINARY.items():
        out[name] = (lambda f=getattr(tf, name): f(X, Y), lambda d, fn=fn: fn(d["x"], d["y"]))
    for name, fn in LOGICAL.items():
        out[name] = (lambda f=getattr(tf, name): f(col("b"), X > 0.0),
                     lambda d, fn=fn: fn(d["b"], d["x"] > 0))
    for name in ["tensor_power", "tensor_pow"]:
        out[name] = (lambda f=getattr(tf, name): f(tf.tensor_abs(X), 2.5),
                     lambda d: np.abs(d["x"]) ** 2.5)
    out["tensor_logical_not"] = (lambda: tf.tensor_logical_not(col("b")),
                                 lambda d: np.logical_not(d["b"]))
    out["tensor_round"] = (lambda: tf.tensor_round(X, decimals=1), lambda d: np.round(d["x"], 1))
    out["tensor_clip"] = (lambda: tf.tensor_clip(X, max=0.5, min=-0.25),
                          lambda d: np.clip(d["x"], -0.25, 0.5))
    out["tensor_where"] = (lambda: tf.tensor_where(col("b"), X, Y),
                           lambda d: np.where(d["b"], d["x"], d["y"]))
    out["tensor_astype"] = (lambda: tf.tensor_astype(X, "float32"),
                            lambda d: d["x"].astype(np.float32))
    for name, fn in REDUCE.items():
        out[name] = (lambda f=getattr(tf, name): f(X, keepdims=True, axis=1),
                     lambda d, fn=fn: per_row(lambda a: fn(a, axis=1, keepdims=True), d["x"]))
    out["tensor_any"] = (lambda: tf.tensor_any(col("b"), axis=0),
                         lambda d: per_row(lambda a: np.any(a, axis=0), d["b"]))
    out["tensor_all"] = (lambda: tf.tensor_all(col("b"), axis=[0, 1]),
                         lambda d: [bool(np.all(a)) for a in d["b"]])
    out["tensor_std"] = (lambda: tf.tensor_std(X, ddof=1, axis=1),
                         lambda d: per_row(lambda a: np.std(a, axis=1, ddof=1), d["x"]))
    out["tensor_var"] = (lambda: tf.tensor_var(X, axis=0),
                         lambda d: per_row(lambda a: np.var(a, axis=0), d["x"]))
    out["tensor_cumsum"] = (lambda: tf.tensor_cumsum(X, axis=1),
                            lambda d: per_row(lambda a: np.cumsum(a, axis=1), d["x"]))
    out["tensor_cumprod"] = (lambda: tf.tensor_cumprod(X, axis=0),
                             lambda d: per_row(lambda a: np.cumprod(a, axis=0), d["x"]))
    # x with a NaN in every row's first element, for the NaN-aware reductions.
    x_nan = tf.tensor_put_along_axis(X, [[0]], float("nan"), axis=1)
    for name, fn in NAN_REDUCE.items():
        def expected(d, fn=fn):
            a = d["x"].copy()
            a[:, :, 0] = np.nan
            return per_row(lambda r: fn(r, axis=1), a)
        out[name] = (lambda f=getattr(tf, name): f(x_nan, axis=1), expected)
    out["tensor_count_nonzero"] = (lambda: tf.tensor_count_nonzero(col("b"), axis=1),
                                   lambda d: per_row(lambda a: np.count_nonzero(a, axis=1), d["b"]))
    out["tensor_sort"] = (lambda: tf.tensor_sort(X, axis=0, descending=True),
                          lambda d: per_row(lambda a: np.flip(np.sort(a, axis=0), axis=0), d["x"]))
    out["tensor_argsort"] = (lambda: tf.tensor_argsort(X),
                             lambda d: per_row(lambda a: np.argsort(a, kind="stable"), d["x"]))
    out["tensor_moveaxis"] = (lambda: tf.tensor_moveaxis(X, 0, -1),
                              lambda d: per_row(lambda a: np.moveaxis(a, 0, -1), d["x"]))
    out["tensor_swapaxes"] = (lambda: tf.tensor_swapaxes(X, 1, 0),
                              lambda d: per_row(lambda a: np.swapaxes(a, 1, 0), d["x"]))
    out["tensor_matrix_transpose"] = (lambda: tf.tensor_matrix_transpose(X),
                                      lambda d: per_row(np.matrix_transpose, d["x"]))
    out["tensor_transpose"] = (lambda: tf.tensor_transpose(X), lambda d: per_row(np.transpose, d["x"]))
    out["tensor_permute_dims"] = (lambda: tf.tensor_permute_dims(X, axes=[1, 0]),
                                  lambda d: per_row(lambda a: np.permute_dims(a, (1, 0)), d["x"]))
    out["tensor_squeeze"] = (lambda: tf.tensor_squeeze(tf.tensor_expand_dims(X, 0)),
                             lambda d: d["x"])
    out["tensor_expand_dims"] = (lambda: tf.tensor_expand_dims(X, axis=-1),
                                 lambda d: per_row(lambda a: np.expand_dims(a, -1), d["x"]))
    out["tensor_broadcast_to"] = (lambda: tf.tensor_broadcast_to(X, [4, 2, 3]),
                                  lambda d: per_row(lambda a: np.broadcast_to(a, (4, 2, 3)), d["x"]))
    # xp holds x's logical tensors stored transposed (permutation [1, 0]).
    out["tensor_flatten"] = (lambda: tf.tensor_flatten(col("xp")),
                             lambda d: per_row(np.ravel, d["x"]))
    out["tensor_flip"] = (lambda: tf.tensor_flip(X, axis=1),
                          lambda d: per_row(lambda a: np.flip(a, 1), d["x"]))
    out["tensor_roll"] = (lambda: tf.tensor_roll(X, [1, 2], axis=[0, 1]),
                          lambda d: per_row(lambda a: np.roll(a, [1, 2], axis=(0, 1)), d["x"]))
    out["tensor_repeat"] = (lambda: tf.tensor_repeat(X, 2, axis=1),
                            lambda d: per_row(lambda a: np.repeat(a, 2, axis=1), d["x"]))
    out["tensor_tile"] = (lambda: tf.tensor_tile(X, [2, 1]),
                          lambda d: per_row(lambda a: np.tile(a, [2, 1]), d["x"]))
    out["tensor_take"] = (lambda: tf.tensor_take(X, [1, 0, 1], axis=-1),
                          lambda d: per_row(lambda a: np.take(a, [1, 0, 1], axis=-1), d["x"]))
    out["tensor_pad"] = (lambda: tf.tensor_pad(X, [1, 2], mode="reflect"),
                         lambda d: per_row(lambda a: np.pad(a, [1, 2], mode="reflect"), d["x"]))
    out["tensor_tril"] = (lambda: tf.tensor_tril(X, k=-1),
                          lambda d: per_row(lambda a: np.tril(a, k=-1), d["x"]))
    out["tensor_triu"] = (lambda: tf.tensor_triu(X),
                          lambda d: per_row(np.triu, d["x"]))
    out["tensor_cumulative_sum"] = (
        lambda: tf.tensor_cumulative_sum(X, axis=1, include_initial=True),
        lambda d: per_row(lambda a: cumulative(np.add, a, 1, include_initial=True), d["x"]))
    out["tensor_vecdot"] = (lambda: tf.tensor_vecdot(X, Y, axis=0),
                            lambda d: per_row(lambda a, b: np.vecdot(a, b, axis=0),
                                              d["x"], d["y"]))
    out["tensor_cross"] = (lambda: tf.tensor_cross(X, Y),
                           lambda d: np.cross(d["x"], d["y"]))
    out["tensor_kron"] = (lambda: tf.tensor_kron(X, Y),
                          lambda d: per_row(np.kron, d["x"], d["y"]))
    out["tensor_divmod"] = (lambda: tf.tensor_divmod(X, Y)["remainder"],
                            lambda d: np.divmod(d["x"], d["y"])[1])
    out["tensor_diff"] = (
        lambda: tf.tensor_diff(X, 2, axis=0, prepend=1),
        lambda d: per_row(lambda a: np.diff(a, 2, axis=0, prepend=1), d["x"]))
    out["tensor_split"] = (lambda: tf.tensor_split(X, 3, axis=1)["1"],
                           lambda d: per_row(lambda a: np.split(a, 3, axis=1)[1], d["x"]))
    out["tensor_array_split"] = (
        lambda: tf.tensor_array_split(X, 2, axis=1)["0"],
        lambda d: per_row(lambda a: np.array_split(a, 2, axis=1)[0], d["x"]))
    # numpy's unstack(a)[1] (numpy 2.1; the CI's numpy 2.0 has no unstack) is a[1].
    out["tensor_unstack"] = (lambda: tf.tensor_unstack(X)["1"],
                             lambda d: per_row(lambda a: a[1], d["x"]))
    out["tensor_broadcast_arrays"] = (
        lambda: tf.tensor_broadcast_arrays(tf.tensor_get(X, "0:1"), Y)["0"],
        lambda d: per_row(lambda a, b: np.broadcast_arrays(a[0:1], b)[0], d["x"], d["y"]))
    out["tensor_meshgrid"] = (
        lambda: tf.tensor_meshgrid(tf.tensor_get(X, "0"), tf.tensor_get(Y, "1, :2"),
                                   indexing="ij")["1"],
        lambda d: per_row(lambda a, b: np.meshgrid(a[0], b[1, :2], indexing="ij")[1],
                          d["x"], d["y"]))
    out["tensor_cumulative_prod"] = (
        lambda: tf.tensor_cumulative_prod(X, axis=0),
        lambda d: per_row(lambda a: cumulative(np.multiply, a, 0), d["x"]))
    out["tensor_topk"] = (
        lambda: tf.tensor_topk(X, 2, axis=1)["indices"],
        lambda d: per_row(lambda a: np.argsort(-a, axis=1, kind="stable")[:, :2], d["x"]))
    out["tensor_searchsorted"] = (
        lambda: tf.tensor_searchsorted(tf.tensor_sort(tf.tensor_flatten(X)), Y, side="right"),
        lambda d: per_row(lambda a, b: np.searchsorted(np.sort(a.ravel()), b, side="right"),
                          d["x"], d["y"]))
    out["tensor_nonzero"] = (
        lambda: tf.tensor_nonzero(col("i")),
        lambda d: [variable(np.array(np.nonzero(a))) for a in d["i"]])
    out["tensor_unique_values"] = (
        lambda: tf.tensor_unique_values(col("i")),
        lambda d: [variable(np.unique(a)) for a in d["i"]])
    out["tensor_unique_counts"] = (
        lambda: tf.tensor_unique_counts(col("i"))["counts"],
        lambda d: [variable(np.unique_counts(a).counts) for a in d["i"]])
    out["tensor_unique_inverse"] = (
        lambda: tf.tensor_unique_inverse(col("i"))["inverse_indices"],
        lambda d: per_row(lambda a: np.unique_inverse(a).inverse_indices, d["i"]))
    out["tensor_unique_all"] = (
        lambda: tf.tensor_unique_all(col("b"))["indices"],
        lambda d: [variable(np.unique_all(a).indices) for a in d["b"]])
    out["tensor_concat"] = (lambda: tf.tensor_concat(X, Y, axis=-1),
                            lambda d: per_row(lambda a, b: np.concatenate([a, b], -1),
                                              d["x"], d["y"]))
    out["tensor_hstack"] = (lambda: tf.tensor_hstack(X, Y),
                            lambda d: per_row(lambda a, b: np.hstack([a, b]), d["x"], d["y"]))
    out["tensor_vstack"] = (lambda: tf.tensor_vstack(X, col("b")),
                            lambda d: per_row(lambda a, b: np.vstack([a, b]), d["x"], d["b"]))
    out["tensor_zeros"] = (lambda: tf.tensor_zeros([2, 3]),
                           lambda d: np.zeros((ROWS, 2, 3)))
    out["tensor_ones"] = (lambda: tf.tensor_ones(3, dtype="int32"),
                          lambda d: np.ones((ROWS, 3), np.int32))
    out["tensor_full"] = (lambda: tf.tensor_full([2], col("id")),
                          lambda d: np.stack([np.full(2, r) for r in range(ROWS)]))
    out["tensor_eye"] = (lambda: tf.tensor_eye(2, 3, k=1),
                         lambda d: np.stack([np.eye(2, 3, 1)] * ROWS))
    out["tensor_arange"] = (lambda: tf.tensor_arange(0, 1, 0.25),
                            lambda d: np.stack([np.arange(0, 1, 0.25)] * ROWS))
    out["tensor_linspace"] = (lambda: tf.tensor_linspace(0, 1, 4, endpoint=False),
                              lambda d: np.stack([np.linspace(0, 1, 4, endpoint=False)] * ROWS))
    out["tensor_zeros_like"] = (lambda: tf.tensor_zeros_like(X), lambda d: np.zeros_like(d["x"]))
    out["tensor_ones_like"] = (lambda: tf.tensor_ones_like(col("b"), dtype="float32"),
                               lambda d: np.ones_like(d["b"], np.float32))
    out["tensor_full_like"] = (lambda: tf.tensor_full_like(X, 2.5),
                               lambda d: np.full_like(d["x"], 2.5))
    out["tensor_bincount"] = (lambda: tf.tensor_bincount(tf.tensor_flatten(col("i"))),
                              lambda d: [variable(np.bincount(a.ravel())) for a in d["i"]])
    out["tensor_one_hot"] = (
        lambda: tf.tensor_one_hot(col("i"), 3),
        lambda d: (d["i"][..., None] == np.arange(3)).astype(np.float32))
    # numpy promises only the partition: the kth element of the partitioned rows.
    out["tensor_argpartition"] = (
        lambda: tf.tensor_take(
            tf.tensor_take_along_axis(X, tf.tensor_argpartition(X, 1, axis=1), 1), [1], axis=1),
        lambda d: np.sort(d["x"], axis=2)[:, :, 1:2])
    out["tensor_vector_norm"] = (
        lambda: tf.tensor_vector_norm(X, axis=1, ord=3),
        lambda d: per_row(lambda a: np.linalg.vector_norm(a, axis=1, ord=3), d["x"]))
    out["tensor_concatenate"] = (lambda: tf.tensor_concatenate(X, Y, axis=1),
                                 lambda d: per_row(lambda a, b: np.concatenate([a, b], 1),
                                                   d["x"], d["y"]))
    out["tensor_stack"] = (lambda: tf.tensor_stack(X, Y, X),
                           lambda d: per_row(lambda a, b: np.stack([a, b, a]), d["x"], d["y"]))
    out["tensor_get"] = (lambda: tf.tensor_get(X, "1, ::-1"), lambda d: d["x"][:, 1, ::-1])
    out["tensor_take_along_axis"] = (
        lambda: tf.tensor_take_along_axis(X, col("i"), axis=0),
        lambda d: per_row(lambda a, i: np.take_along_axis(a, i, 0), d["x"], d["i"]))
    out["tensor_put_along_axis"] = (
        lambda: tf.tensor_put_along_axis(X, tf.tensor_get(col("i"), ":1"), 7.0, axis=0),
        lambda d: per_row(put_along, d["x"], d["i"]))
    out["tensor_choose"] = (lambda: tf.tensor_choose(tf.tensor_get(col("i"), "0"), X, Y, mode="clip"),
                            lambda d: per_row(lambda i, a, b: np.choose(i[0], [a, b], mode="clip"),
                                              d["i"], d["x"], d["y"]))
    out["tensor_at_set"] = (lambda: tf.tensor_at_set(X, "0, 1", 5.0), lambda d: at(d, "set"))
    out["tensor_at_add"] = (lambda: tf.tensor_at_add(X, "[0, 0]", lit(1.0), mode="clip"),
                            lambda d: at(d, "add"))
    out["tensor_at_subtract"] = (lambda: tf.tensor_at_subtract(X, "0, 1", 5.0),
                                 lambda d: at(d, "subtract"))
    out["tensor_at_multiply"] = (lambda: tf.tensor_at_multiply(X, "0, 1", 5.0),
                                 lambda d: at(d, "multiply"))
    out["tensor_at_divide"] = (lambda: tf.tensor_at_divide(X, "0, 1", 5.0),
                               lambda d: at(d, "divide"))
    out["tensor_at_power"] = (lambda: tf.tensor_at_power(tf.tensor_abs(X), "0, 1", 2.0),
                              lambda d: at(d, "power"))
    out["tensor_at_min"] = (lambda: tf.tensor_at_min(X, "0, 1", 0.0), lambda d: at(d, "min"))
    out["tensor_at_max"] = (lambda: tf.tensor_at_max(X, "0, 1", 0.0), lambda d: at(d, "max"))
    out["tensor_at_get"] = (lambda: tf.tensor_at_get(X, "5", mode="fill", fill_value=-1.0),
                            lambda d: np.full((ROWS, 3), -1.0))
    out["tensor_at_apply"] = (lambda: tf.tensor_at_apply(tf.tensor_abs(X), "0, 1", "sqrt"),
                              lambda d: at(d, "apply"))
    out["tensor"] = (lambda: tf.tensor(lit([1.0, 2.0, 3.0, 4.0]), [2, 2]),
                     lambda d: np.tile([[1.0, 2.0], [3.0, 4.0]], (ROWS, 1, 1)))
    out["tensor_reshape"] = (lambda: tf.tensor_reshape(X, [3, 2]),
                             lambda d: d["x"].reshape(ROWS, 3, 2))
    out["tensor_to_variable"] = (lambda: tf.tensor_to_fixed(tf.tensor_to_variable(X), [2, 3]),
                                 lambda d: d["x"])
    out["tensor_to_fixed"] = out["tensor_to_variable"]
    out["tensor_shape"] = (lambda: tf.tensor_shape(col("xp")), lambda d: [[2, 3]] * ROWS)
    # xp stores x transposed, with permutation [1, 0]: written out row-major, x's values.
    out["tensor_ascontiguousarray"] = (lambda: tf.tensor_ascontiguousarray(col("xp")),
                                       lambda d: d["x"])
    # The type as pyarrow has it: the stored shape and the permutation.
    stored = tensor_array(np.zeros((1, 2, 3)), permutation=[1, 0]).type
    out["tensor_type"] = (
        lambda: tf.tensor_type(col("xp")),
        lambda d: [f"arrow.fixed_shape_tensor<Float64, {list(stored.shape)}, "
                   f"permutation {list(stored.permutation)}>"] * ROWS,
    )
    out["tensor_ndim"] = (lambda: tf.tensor_ndim(X), lambda d: [2] * ROWS)
    out["tensor_size"] = (lambda: tf.tensor_size(X), lambda d: [6] * ROWS)
    out["tensor_to_list"] = (lambda: tf.tensor_to_list(X), lambda d: d["x"].tolist())
    out["tensor_to_string"] = (lambda: tf.tensor_to_string(tf.tensor(lit([1, 2]), [2])),
                               lambda d: ["[1, 2]"] * ROWS)
    out.update(linalg_cases())
    return out


# Linear algebra: sums of products, compared with a tolerance for the summation order.
SUMMED = set()


def linalg_cases():
    xt = tf.tensor_transpose(Y)  # y's rows transposed: (3, 2)
    out = {
        "tensor_matmul": (lambda: tf.tensor_matmul(X, xt),
                          lambda d: per_row(lambda a, b: a @ b.T, d["x"], d["y"])),
        "tensor_dot": (lambda: tf.tensor_dot(col("xp"), xt),
                       lambda d: per_row(lambda a, b: np.dot(a, b.T), d["x"], d["y"])),
        "tensor_inner": (lambda: tf.tensor_inner(X, Y),
                         lambda d: per_row(np.inner, d["x"], d["y"])),
        "tensor_outer": (lambda: tf.tensor_outer(X, lit([1.0, -2.0])),
                         lambda d: per_row(lambda a: np.outer(a, [1.0, -2.0]), d["x"])),
        "tensor_tensordot": (lambda: tf.tensor_tensordot(X, xt, axes=1),
                             lambda d: per_row(lambda a, b: np.tensordot(a, b.T, 1),
                                               d["x"], d["y"])),
        "tensor_trace": (lambda: tf.tensor_trace(X, offset=1),
                         lambda d: [float(np.trace(a, 1)) for a in d["x"]]),
        "tensor_diagonal": (lambda: tf.tensor_diagonal(col("xp"), axis2=0, axis1=1),
                            lambda d: per_row(lambda a: np.diagonal(a, 0, 1, 0), d["x"])),
        "tensor_einsum": (lambda: tf.tensor_einsum("ij,kj->ik", X, Y),
                          lambda d: per_row(lambda a, b: np.einsum("ij,kj->ik", a, b),
                                            d["x"], d["y"])),
        "tensor_inner_product": (lambda: tf.tensor_inner_product(X, Y),
                                 lambda d: per_row(lambda a, b: np.sum(a * b, axis=-1),
                                                   d["x"], d["y"])),
        "tensor_l2_distance": (lambda: tf.tensor_l2_distance(X, Y, axis=0),
                               lambda d: per_row(lambda a, b: np.linalg.norm(a - b, axis=0),
                                                 d["x"], d["y"])),
        "tensor_norm": (lambda: tf.tensor_norm(X, axis=[1, 0], ord="nuc", keepdims=True),
                        lambda d: per_row(lambda a: np.linalg.norm(a, "nuc", (1, 0), True),
                                          d["x"])),
        "tensor_cosine_similarity": (
            lambda: tf.tensor_cosine_similarity(X, lit([1.0, 2.0, -1.0])),
            lambda d: per_row(lambda a: a @ [1.0, 2.0, -1.0]
                              / (np.linalg.norm(a, axis=-1) * np.linalg.norm([1.0, 2.0, -1.0])),
                              d["x"])),
        "tensor_cosine_distance": (
            lambda: tf.tensor_cosine_distance(X, Y),
            lambda d: per_row(lambda a, b: 1 - np.sum(a * b, axis=-1)
                              / (np.linalg.norm(a, axis=-1) * np.linalg.norm(b, axis=-1)),
                              d["x"], d["y"])),
    }
    out.update(decompose_cases())
    SUMMED.update(out)
    return out


def decompose_cases():
    """numpy.linalg's per-matrix functions; where numpy's result is unique only up to signs,
    what is unique (absolute values, sorted eigenvalues)."""
    la = np.linalg
    S, H = col("s"), col("h")
    q = [1.0, 2.0, 3.0]
    return {
        "tensor_det": (lambda: tf.tensor_det(S), lambda d: [la.det(a) for a in d["s"]]),
        "tensor_slogdet": (lambda: tf.tensor_slogdet(S)["logabsdet"],
                           lambda d: [la.slogdet(a)[1] for a in d["s"]]),
        "tensor_inv": (lambda: tf.tensor_inv(S), lambda d: per_row(la.inv, d["s"])),
        "tensor_solve": (lambda: tf.tensor_solve(S, lit(q)),
                         lambda d: per_row(lambda a: la.solve(a, q), d["s"])),
        "tensor_cholesky": (lambda: tf.tensor_cholesky(H, upper=True),
                            lambda d: per_row(lambda a: la.cholesky(a, upper=True), d["h"])),
        "tensor_qr": (lambda: tf.tensor_abs(tf.tensor_qr(S, mode="r")),
                      lambda d: per_row(lambda a: np.abs(la.qr(a, mode="r")), d["s"])),
        "tensor_eigh": (lambda: tf.tensor_eigh(H, uplo="U")["eigenvalues"],
                        lambda d: per_row(lambda a: la.eigh(a, "U")[0], d["h"])),
        "tensor_eigvalsh": (lambda: tf.tensor_eigvalsh(H),
                            lambda d: per_row(la.eigvalsh, d["h"])),
        "tensor_eig": (lambda: tf.tensor_sort(tf.tensor_eig(H)["eigenvalues"]),
                       lambda d: per_row(lambda a: np.sort(la.eig(a)[0]), d["h"])),
        "tensor_eigvals": (lambda: tf.tensor_sort(tf.tensor_eigvals(H)),
                           lambda d: per_row(lambda a: np.sort(la.eigvals(a)), d["h"])),
        "tensor_svd": (lambda: tf.tensor_svd(X, full_matrices=False)["S"],
                       lambda d: per_row(lambda a: la.svd(a, full_matrices=False)[1], d["x"])),
        "tensor_svdvals": (lambda: tf.tensor_svdvals(X), lambda d: per_row(la.svdvals, d["x"])),
        "tensor_pinv": (lambda: tf.tensor_pinv(X), lambda d: per_row(la.pinv, d["x"])),
        "tensor_matrix_rank": (lambda: tf.tensor_matrix_rank(X, tol=0.5),
                               lambda d: [int(la.matrix_rank(a, tol=0.5)) for a in d["x"]]),
        "tensor_lstsq": (lambda: tf.tensor_lstsq(X, lit([1.0, 2.0]))["x"],
                         lambda d: per_row(lambda a: la.lstsq(a, [1.0, 2.0])[0], d["x"])),
        "tensor_matrix_norm": (lambda: tf.tensor_matrix_norm(X, ord="nuc", keepdims=True),
                               lambda d: per_row(lambda a: la.matrix_norm(a, keepdims=True,
                                                                          ord="nuc"), d["x"])),
        "tensor_matrix_power": (lambda: tf.tensor_matrix_power(S, -2),
                                lambda d: per_row(lambda a: la.matrix_power(a, -2), d["s"])),
    }


def put_along(a, i):
    out = a.copy()
    np.put_along_axis(out, i[:1], 7.0, 0)
    return out


def at(d, op):
    out = d["x"].copy()
    if op == "add":  # '[0, 0]': row 0 twice, JAX adds both
        out[:, 0] += 2.0
    elif op == "set":
        out[:, 0, 1] = 5.0
    elif op == "subtract":
        out[:, 0, 1] -= 5.0
    elif op == "multiply":
        out[:, 0, 1] *= 5.0
    elif op == "divide":
        out[:, 0, 1] /= 5.0
    elif op == "power":
        out = np.abs(out)
        out[:, 0, 1] **= 2.0
    elif op == "min":
        out[:, 0, 1] = np.minimum(out[:, 0, 1], 0.0)
    elif op == "max":
        out[:, 0, 1] = np.maximum(out[:, 0, 1], 0.0)
    elif op == "apply":
        out = np.abs(out)
        out[:, 0, 1] = np.sqrt(out[:, 0, 1])
    return out


AGGREGATES = {"tensor_agg_sum": np.sum, "tensor_agg_mean": np.mean, "tensor_agg_min": np.min,
              "tensor_agg_max": np.max, "tensor_agg_prod": np.prod,
              "tensor_agg_var": lambda a, axis: np.var(a, axis=axis, ddof=1),
              "tensor_agg_std": lambda a, axis: np.std(a, axis=axis, ddof=1)}


@pytest.mark.parametrize("name", sorted(AGGREGATES) + ["tensor_agg_stack"])
def test_aggregate_builders_against_numpy(df, data, name):
    """Groups g = 0 (rows 0, 2) and g = 1 (row 1): numpy over each group's stacked rows."""
    build = getattr(tf, name)
    if name == "tensor_agg_stack":
        call = build(X)
    elif name in ("tensor_agg_var", "tensor_agg_std"):
        call = build(X, ddof=1)
    else:
        call = build(X)
    table = df.aggregate([col("g")], [call.alias("r")]).sort(col("g")).to_arrow_table()
    column = table.column("r").combine_chunks()
    groups = [data["x"][[0, 2]], data["x"][[1]]]
    for g, rows in enumerate(groups):
        if name == "tensor_agg_stack":
            storage = column.storage if hasattr(column, "storage") else column
            got = np.asarray(storage.field("data")[g].as_py()).reshape(rows.shape)
            want = rows
            # the rows of a group in any order: compare as sets of rows
            got, want = np.sort(got, axis=0), np.sort(want, axis=0)
        else:
            got = logical_tensors(column)[g]
            want = AGGREGATES[name](rows, axis=0)
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


COVARIANCES = ["tensor_agg_cov", "tensor_agg_corrcoef"]


@pytest.mark.parametrize("name", COVARIANCES)
def test_covariance_builders_against_numpy(df, data, name):
    """Every row's 6 values one observation: numpy's cov / corrcoef with rowvar=False."""
    call = getattr(tf, name)(tf.tensor_reshape(X, [6]))
    table = df.aggregate([], [call.alias("r")]).to_arrow_table()
    got = logical_tensors(table.column("r").combine_chunks())[0]
    m = data["x"].reshape(ROWS, 6)
    want = np.cov(m, rowvar=False) if name == "tensor_agg_cov" else np.corrcoef(m, rowvar=False)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


CASES = cases()
# Builders with no case, each for a reason: lambdas are SQL only (module docs).
NO_CASE = {"tensor_map": "a lambda: SQL only"}


def test_every_builder_has_a_case():
    names = {signature[0] for signature in tf.SIGNATURES}
    missing = (names - set(CASES) - set(NO_CASE) - set(AGGREGATES) - set(COVARIANCES)
               - {"tensor_agg_stack"})
    assert not missing, f"builders without a numpy case: {sorted(missing)}"
    for name in names:
        assert callable(getattr(tf, name)), name


@pytest.mark.parametrize("name", sorted(CASES))
def test_builder_against_numpy(df, data, name):
    build, expected = CASES[name]
    out = values(df.select(build().alias("r")))
    want = expected(data)
    if name in SUMMED:
        out, want = np.asarray(out), np.asarray(want)
        assert out.shape == want.shape, (out.shape, want.shape)
        np.testing.assert_allclose(out, want, rtol=1e-12, atol=1e-12)
    elif isinstance(out, list):
        assert out == (want.tolist() if isinstance(want, np.ndarray) else want)
    else:
        want = np.asarray(want)
        assert out.shape == want.shape, (out.shape, want.shape)
        np.testing.assert_allclose(out, want, rtol=1e-12, atol=0, equal_nan=True)


def test_linalg_number_operands(df, data):
    """A Python number, or a numeric column, is an operand of the linear-algebra builders as
    np.asarray makes it: a 0-d array of its own type (not weak: bool tensor . 3 is int64)."""
    out = values(df.select(tf.tensor_dot(X, 3).alias("r")))
    np.testing.assert_array_equal(out, per_row(lambda a: np.dot(a, 3), data["x"]))
    out = values(df.select(tf.tensor_dot(3, col("b")).alias("r")))
    want = per_row(lambda a: np.dot(3, a), data["b"])
    assert out.dtype == want.dtype == np.int64
    np.testing.assert_array_equal(out, want)
    out = values(df.select(tf.tensor_dot(col("i"), col("id")).alias("r")))
    np.testing.assert_array_equal(out, per_row(np.dot, data["i"], np.arange(ROWS)))
    with pytest.raises(dt.PlanError, match="Input operand 1 does not have enough dimensions"):
        df.select(tf.tensor_matmul(X, 3)).collect()


def test_operators_and_methods(df, data):
    x, y = data["x"], data["y"]
    out = df.select((col("x") * 2.0 + col("y")).alias("r"))
    np.testing.assert_array_equal(values(out), x * 2.0 + y)
    out = df.select((-col("x") / 4 - 1).alias("r"))
    np.testing.assert_array_equal(values(out), -x / 4 - 1)
    out = df.select((2.0 * col("x") > col("y")).alias("r"))
    np.testing.assert_array_equal(values(out), 2.0 * x > y)
    # filter, with_column, sort, limit
    kept = df.filter(tf.tensor_all(col("x") > -10.0)).filter(col("id") >= 1)
    out = kept.with_column("r", col("x") - tf.tensor_mean(col("x"), axis=0, keepdims=True))
    mean0 = x.mean(axis=1, keepdims=True)
    np.testing.assert_allclose(values(out), (x - mean0)[1:], rtol=1e-12)
    out = df.sort(col("id").sort(ascending=False)).limit(2, offset=1).select("id")
    assert values(out, "id") == [1, 0]
    out = df.select(col("id"), col("x").cast("Float32").alias("r"))
    assert values(out).dtype == np.float32


def test_aggregate(df, data):
    out = df.aggregate([col("g")], [tf.count().alias("n"), tf.sum(col("id")).alias("s"),
                                    tf.max(tf.tensor_sum(col("x"))).alias("m")])
    table = out.sort(col("g")).to_arrow_table()
    assert table.column("n").to_pylist() == [2, 1]
    assert table.column("s").to_pylist() == [2, 1]
    sums = data["x"].sum(axis=(1, 2))
    assert table.column("m").to_pylist() == pytest.approx([max(sums[0], sums[2]), sums[1]])
    out = df.aggregate([], [tf.count(col("id"), distinct=True).alias("n")])
    assert values(out, "n") == [3]
    out = df.aggregate([], [tf.count().filter(col("id") > 0).alias("n")])
    assert values(out, "n") == [2]


def test_keyword_errors_and_calls_by_name(df, data):
    with pytest.raises(dt.PlanError, match="unexpected keyword argument 'axes'"):
        tf.tensor_sum(X, axes=1)
    with pytest.raises(dt.PlanError, match="multiple values for argument 'axis'"):
        tf.tensor_sum(X, 1, axis=1)
    with pytest.raises(TypeError, match="at most 6 arguments"):
        tf.tensor_sum(X, 1, True, "int8", 0, True, 2)
    with pytest.raises(ValueError, match="no function named"):
        tf.call("no_such_function", X)
    out = df.select(tf.call("tensor_sum", X, axis=1).alias("r"),
                    tf.call("abs", col("id") - 1).alias("a"))
    np.testing.assert_allclose(values(out), data["x"].sum(axis=2), rtol=1e-12)
    assert values(out, "a") == [1, 0, 1]
    with pytest.raises(dt.PlanError, match="axis 2 is out of bounds for array of dimension 2"):
        df.select(tf.tensor_sum(X, axis=2)).collect()


def test_reduction_dtype_initial_and_where(df, data):
    # numpy's dtype, initial and where on the reductions (the b column is the mask).
    b = col("b")
    out = df.select(tf.tensor_sum(X, axis=1, dtype="float32", initial=1.5).alias("r"))
    expected = np.sum(data["x"], axis=2, dtype=np.float32, initial=1.5)
    np.testing.assert_array_equal(np.asarray(values(out), np.float32), expected)
    out = df.select(tf.tensor_max(X, axis=1, initial=-1.0, where=b).alias("r"))
    expected = [np.max(x, axis=1, initial=-1.0, where=m) for x, m in zip(data["x"], data["b"])]
    np.testing.assert_array_equal(values(out), expected)
    out = df.select(tf.tensor_mean(X, where=b).alias("r"))
    with np.errstate(all="ignore"):
        expected = [np.mean(x, where=m) for x, m in zip(data["x"], data["b"])]
    np.testing.assert_array_equal(values(out), expected)
    with pytest.raises(dt.PlanError, match="to use a where mask one has to specify 'initial'"):
        df.select(tf.tensor_min(X, where=b)).collect()


def test_the_stub_matches_the_registry():
    path = Path(__file__).resolve().parents[1] / "tools" / "make_stubs.py"
    spec = importlib.util.spec_from_file_location("make_stubs", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    written = module.OUT.read_text()
    assert written == module.render(tf.SIGNATURES), "run python3 python/tools/make_stubs.py"


def test_datafusion_python_scalar_udfs(data):
    datafusion = pytest.importorskip("datafusion")
    udfs = dt.udfs()
    assert "tensor_get" in udfs and "tensor_choose" not in udfs
    ctx = datafusion.SessionContext()
    df = ctx.from_arrow(pa.table({"x": tensor_array(data["x"])}))
    get = udfs["tensor_get"]
    out = df.select(get(datafusion.col("x"), datafusion.lit("1, ::2")).alias("r"))
    column = out.to_arrow_table().column("r").combine_chunks()
    np.testing.assert_array_equal(logical_tensors(column), data["x"][:, 1, ::2])
