"""The at-family against JAX's own ``x.at[idx]`` (x64 on), computed at test time; skipped
where JAX is not installed (the numpy-loop references of test_functions.py still run)."""

from __future__ import annotations

import inspect

import numpy as np
import pyarrow as pa
import pytest

from conftest import logical_tensors, run, tensor_array

jax = pytest.importorskip("jax")
jax.config.update("jax_enable_x64", True)
jnp = jax.numpy


def jax_index(index: str):
    """JAX's index for an index string: numpy's, with lists as arrays (JAX refuses lists)."""
    parsed = eval(f"np.s_[{index}]", {"np": np, "__builtins__": {}}, {})  # noqa: S307
    parts = parsed if isinstance(parsed, tuple) else (parsed,)
    return tuple(np.asarray(p) if isinstance(p, list) else p for p in parts)


@pytest.fixture
def x(ctx, rng):
    values = rng.uniform(0.5, 2.0, (4, 4, 3))
    ctx.from_arrow(
        pa.table({"id": np.arange(4), "x": tensor_array(values, [1, 0])}), name="t"
    )
    return values


CASES = [
    # (op, index, y, options as SQL, options for JAX)
    ("set", "[0, 2], 1", 7.5, "", {}),
    ("add", "[0, 0, 2]", 1.25, "", {}),
    ("subtract", "1:3, ::2", 0.5, "", {}),
    ("multiply", "[1, 1, 3], [0, 2, 2]", 3.0, "", {}),
    ("divide", "..., 1", 4.0, "", {}),
    ("power", "[0, 0]", 2.0, "", {}),
    ("min", "[0, 5, -1]", 1.0, ", mode => 'drop'", {"mode": "drop"}),
    ("max", "[0, 5, -1]", 1.5, ", mode => 'clip'", {"mode": "clip"}),
    ("add", "[0, 5, -1]", 1.0, "", {}),  # promise_in_bounds: updates drop out-of-bounds
    ("add", "[-1, 1]", 1.0, ", wrap_negative_indices => false", {"wrap_negative_indices": False}),
]


@pytest.mark.parametrize("op, index, y, sql_options, options", CASES)
def test_at_updates_equal_jax(ctx, x, op, index, y, sql_options, options):
    out = run(
        ctx,
        f"SELECT tensor_at_{op}(x, '{index}', {y}{sql_options}) AS y FROM t ORDER BY id",
    )
    idx = jax_index(index)
    require_jax_update(op, options)
    expected = np.stack(
        [np.asarray(getattr(jnp.asarray(row).at[idx], op)(y, **options)) for row in x]
    )
    np.testing.assert_allclose(logical_tensors(out.column("y")), expected, rtol=1e-15)


def require_jax_update(op, options):
    """Skips a case whose reference the installed JAX does not have: JAX 0.4.30, the last for
    Python 3.9, has no ``.at[].subtract`` and no ``wrap_negative_indices`` keyword."""
    ref = jnp.zeros(1).at[0]
    if not hasattr(ref, op):
        pytest.skip(f"JAX {jax.__version__} has no x.at[idx].{op}")
    accepted = inspect.signature(getattr(ref, op)).parameters
    missing = [name for name in options if name not in accepted]
    if missing:
        pytest.skip(f"JAX {jax.__version__}'s x.at[idx].{op} takes no {', '.join(missing)}")


@pytest.mark.parametrize(
    "index, sql_options, options",
    [
        ("[1, 5, -1]", "", {}),
        ("[1, 5, -1]", ", mode => 'fill', fill_value => -1.0", {"mode": "fill", "fill_value": -1.0}),
        ("[1, 5, -1]", ", fill_value => -2.0, mode => 'fill'", {"mode": "fill", "fill_value": -2.0}),
        ("[1, 5, -1]", ", mode => 'clip'", {"mode": "clip"}),
        ("1:3, [0, 2]", "", {}),
    ],
)
def test_at_get_equals_jax(ctx, x, index, sql_options, options):
    out = run(ctx, f"SELECT tensor_at_get(x, '{index}'{sql_options}) AS y FROM t ORDER BY id")
    idx = jax_index(index)
    expected = np.stack([np.asarray(jnp.asarray(row).at[idx].get(**options)) for row in x])
    np.testing.assert_array_equal(logical_tensors(out.column("y")), expected)


def test_at_apply_equals_jax(ctx, x):
    out = run(ctx, "SELECT tensor_at_apply(x, '[0, 0, 3]', 'sqrt') AS y FROM t ORDER BY id")
    idx = jax_index("[0, 0, 3]")
    expected = np.stack([np.asarray(jnp.asarray(row).at[idx].apply(jnp.sqrt)) for row in x])
    np.testing.assert_allclose(logical_tensors(out.column("y")), expected, rtol=1e-15)
