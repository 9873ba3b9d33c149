//! The documentation of the `tensor_at_*` functions (`SHOW FUNCTIONS`, `\\h`).

use datafusion::logical_expr::Documentation;

use super::options::AtOp;
use crate::kernels::update::Combine;

/// The documentation of each function.
pub fn documentation(op: AtOp) -> Documentation {
    let (description, example_call, example_out) = match op {
        AtOp::Update(Combine::Set) => (
            "JAX's x.at[idx].set(y): a copy of x with the elements idx names replaced by y (broadcast to x[idx]'s shape). Where idx names an element twice, the last occurrence in row-major order wins.",
            "tensor_at_set(tensor([1.0, 2.0, 3.0, 4.0, 5.0], [5]), '[0, 2]', 9.0)",
            "[9.0, 2.0, 9.0, 4.0, 5.0]",
        ),
        AtOp::Update(Combine::Add) => (
            "JAX's x.at[idx].add(y): a copy of x with y added at the elements idx names; every occurrence of a duplicate index adds (unlike numpy's x[idx] += y).",
            "tensor_at_add(tensor([1.0, 2.0, 3.0, 4.0, 5.0], [5]), '[0, 0, 1]', 1.0)",
            "[3.0, 3.0, 3.0, 4.0, 5.0]",
        ),
        AtOp::Update(Combine::Subtract) => (
            "JAX's x.at[idx].subtract(y): y subtracted at the elements idx names, every occurrence.",
            "tensor_at_subtract(tensor([1, 2, 3], [3]), '[0, 0]', 1)",
            "[-1, 2, 3]",
        ),
        AtOp::Update(Combine::Multiply) => (
            "JAX's x.at[idx].multiply(y): the elements idx names multiplied by y, every occurrence.",
            "tensor_at_multiply(tensor([1, 2, 3], [3]), '[1, 1]', 3)",
            "[1, 18, 3]",
        ),
        AtOp::Update(Combine::Divide) => (
            "JAX's x.at[idx].divide(y): the elements idx names divided by y (true division: an integer x gives Float64); duplicate divisors multiply.",
            "tensor_at_divide(tensor([4, 4, 4], [3]), '[0, 0]', 2)",
            "[1.0, 4.0, 4.0]",
        ),
        AtOp::Update(Combine::Power) => (
            "JAX's x.at[idx].power(y): the elements idx names raised to y; duplicate exponents multiply.",
            "tensor_at_power(tensor([2, 2, 2], [3]), '[0, 0]', 3)",
            "[512, 2, 2]",
        ),
        AtOp::Update(Combine::Min) => (
            "JAX's x.at[idx].min(y): the elements idx names replaced by the minimum of themselves and y (NaN propagates).",
            "tensor_at_min(tensor([1, 5, 3], [3]), '[1]', 2)",
            "[1, 2, 3]",
        ),
        AtOp::Update(Combine::Max) => (
            "JAX's x.at[idx].max(y): the elements idx names replaced by the maximum of themselves and y (NaN propagates).",
            "tensor_at_max(tensor([1, 5, 3], [3]), '[0]', 2)",
            "[2, 5, 3]",
        ),
        AtOp::Apply | AtOp::Update(Combine::Apply(_) | Combine::Lambda) => (
            "JAX's x.at[idx].apply(fn) (numpy's ufunc.at): fn applied to the elements idx names, once per occurrence. fn is a lambda such as v -> v * 2 + 1 (the CLI and tensor_session_context parse lambdas), or one of 'negative', 'abs', 'square', 'sign', 'sqrt', 'exp', 'log', 'sin', 'cos', 'tan', 'tanh', 'floor', 'ceil', 'round'; its result must have x's element type. Options are positional: mode, wrap_negative_indices, indices_are_sorted, unique_indices.",
            "tensor_at_apply(tensor([1, 2, 3], [3]), '[0, 0]', v -> v * 2 + 1)",
            "[7, 2, 3]",
        ),
        AtOp::Get => (
            "JAX's x.at[idx].get(): x[idx], with JAX's out-of-bounds modes: by default an out-of-bounds index is clamped; mode => 'fill' returns fill_value there (default NaN, the minimum for signed integers, the maximum for unsigned, true).",
            "tensor_at_get(tensor([0.0, 1.0, 2.0, 3.0, 4.0], [5]), 20, mode => 'fill', fill_value => -1)",
            "-1.0",
        ),
    };
    let name = op.function_name();
    let syntax = match op {
        AtOp::Get => format!(
            "{name}(x, idx [, mode [, fill_value [, wrap_negative_indices [, indices_are_sorted [, unique_indices]]]]])"
        ),
        AtOp::Apply => format!(
            "{name}(x, idx, fn [, mode [, wrap_negative_indices [, indices_are_sorted [, unique_indices]]]])"
        ),
        AtOp::Update(_) => format!(
            "{name}(x, idx, y [, mode [, wrap_negative_indices [, indices_are_sorted [, unique_indices]]]])"
        ),
    };
    let mut builder = crate::udf::tensor_documentation(description, syntax, example_call, example_out)
        .with_argument(
        "x",
        "A tensor (arrow.fixed_shape_tensor, arrow.variable_shape_tensor or FixedSizeList); on a variable-shape tensor the index applies to each row's own shape, and the result is fixed-shape when its shape is known when the query is planned.",
    )
    .with_argument(
        "idx",
        "A literal index string in numpy syntax ('[0, 0, 1]', ':, 1:3', '..., 0'), a literal integer, integer list or list of [m, k] coordinate lists; or per row: an integer column (axis 0), a list column of integers (axis 0), or an integer tensor [m] or [m, k] (coordinate tuples into the first k axes).",
    );
    if op.has_y() {
        builder = builder.with_argument(
            "y",
            "A number, numeric column or tensor (fixed- or variable-shape), broadcast to the shape of each row's x[idx]; a literal must fit x's element type.",
        );
    }
    if op == AtOp::Apply {
        builder = builder.with_argument("fn", "A lambda (v -> ...) or a function name.");
    }
    builder = builder.with_argument(
        "mode",
        "Out-of-bounds indices: 'promise_in_bounds' (default: updates drop them, get clamps), 'clip', 'drop', 'fill', or 'raise' (fail the query).",
    );
    if op == AtOp::Get {
        builder = builder.with_argument("fill_value", "What mode 'fill' returns out of bounds.");
    }
    builder
        .with_argument(
            "wrap_negative_indices",
            "true (default): negative indices count from the end, once; false: they are out of bounds.",
        )
        .with_argument(
            "indices_are_sorted",
            "A performance hint; results never depend on it.",
        )
        .with_argument("unique_indices", "A performance hint; results never depend on it.")
        .build()
}
