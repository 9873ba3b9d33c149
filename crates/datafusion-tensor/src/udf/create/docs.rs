//! The documentation of the creation functions.

use datafusion::logical_expr::Documentation;

use super::CreateFunction;
use crate::udf::tensor_documentation;

const DTYPE: &str = "numpy's dtype name ('bool', 'int8' ... 'uint64', 'float16', 'float32', 'float64'); values are cast to it as numpy casts them (unsafe: integers wrap, floats truncate).";

pub(super) fn documentation(function: CreateFunction) -> Documentation {
    let (description, syntax, call, out) = match function {
        CreateFunction::Zeros => (
            "numpy's zeros: a tensor of shape filled with 0 (float64 unless dtype says), the same for every row. The shape is a literal, so the type is known when the query is planned.",
            "tensor_zeros(shape [, dtype])",
            "tensor_zeros([2, 3])",
            "[[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]",
        ),
        CreateFunction::Ones => (
            "numpy's ones: a tensor of shape filled with 1 (float64 unless dtype says), the same for every row.",
            "tensor_ones(shape [, dtype])",
            "tensor_ones(3, 'int32')",
            "[1, 1, 1]",
        ),
        CreateFunction::Full => (
            "numpy's full: a tensor of shape filled with fill_value, in dtype or else fill_value's own type (an integer literal int64, a float literal float64, a boolean bool). fill_value may be a column: each row filled with its own value, NULL where it is NULL.",
            "tensor_full(shape, fill_value [, dtype])",
            "tensor_full([2, 2], 7)",
            "[[7, 7], [7, 7]]",
        ),
        CreateFunction::Eye => (
            "numpy's eye (the array API standard's): an n_rows x n_cols matrix (n_cols default n_rows) with ones on the k-th diagonal (k > 0 above the main one, k < 0 below) and zeros elsewhere, float64 unless dtype says.",
            "tensor_eye(n_rows [, n_cols [, k [, dtype]]])",
            "tensor_eye(3, k => 1)",
            "[[0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [0.0, 0.0, 0.0]]",
        ),
        CreateFunction::Arange => (
            "numpy's arange: evenly spaced values from start (default 0: one argument is the stop) up to, not including, stop, by step (default 1); ceil((stop - start) / step) of them. int64 when every argument is an integer, else float64, unless dtype says; in dtype numpy's way: the first two values cast, then stepped by their difference in dtype's arithmetic. A step of 0 is numpy's error (division by zero).",
            "tensor_arange(start [, stop [, step [, dtype]]])",
            "tensor_arange(2, 10, 3)",
            "[2, 5, 8]",
        ),
        CreateFunction::Linspace => (
            "numpy's linspace: num evenly spaced values from start to stop (included unless endpoint is false), computed in float64 as numpy computes them (the last value exactly stop); float64 unless dtype says (an integer dtype floors first, as numpy does).",
            "tensor_linspace(start, stop, num [, endpoint [, dtype]])",
            "tensor_linspace(0, 1, 5)",
            "[0.0, 0.25, 0.5, 0.75, 1.0]",
        ),
        CreateFunction::ZerosLike => (
            "numpy's zeros_like: zeros of x's shape (each variable-shape row its own), dim names and element type (unless dtype says); NULL where x is NULL.",
            "tensor_zeros_like(x [, dtype])",
            "tensor_zeros_like(tensor([1, 2, 3, 4], [2, 2]))",
            "[[0, 0], [0, 0]]",
        ),
        CreateFunction::OnesLike => (
            "numpy's ones_like: ones of x's shape, dim names and element type (unless dtype says); NULL where x is NULL.",
            "tensor_ones_like(x [, dtype])",
            "tensor_ones_like(tensor([1.5, 2.5], [2]), 'int8')",
            "[1, 1]",
        ),
        CreateFunction::FullLike => (
            "numpy's full_like: x's shape filled with fill_value cast to x's element type (unless dtype says), as numpy casts it; fill_value may be a column (each row its own); NULL where x or the fill is NULL.",
            "tensor_full_like(x, fill_value [, dtype])",
            "tensor_full_like(tensor([1, 2, 3], [3]), 2.7)",
            "[2, 2, 2]",
        ),
    };
    let builder = tensor_documentation(description, syntax.to_string(), call, out);
    let builder = match function {
        CreateFunction::Zeros | CreateFunction::Ones | CreateFunction::Full => builder.with_argument(
            "shape",
            "A literal non-negative integer or list of them.",
        ),
        CreateFunction::Eye => builder
            .with_argument("n_rows", "A literal non-negative integer.")
            .with_argument("n_cols", "A literal non-negative integer; default n_rows.")
            .with_argument("k", "A literal integer: the diagonal; default 0."),
        CreateFunction::Arange => builder
            .with_argument("start", "A literal number: the first value, or (alone) the stop.")
            .with_argument("stop", "A literal number, not included.")
            .with_argument("step", "A literal number, not 0; default 1."),
        CreateFunction::Linspace => builder
            .with_argument("start", "A literal number.")
            .with_argument("stop", "A literal number.")
            .with_argument("num", "A literal non-negative integer: how many values.")
            .with_argument("endpoint", "A literal boolean: whether stop is the last value; default true."),
        CreateFunction::ZerosLike | CreateFunction::OnesLike | CreateFunction::FullLike => builder.with_argument(
            "x",
            "A tensor (fixed- or variable-shape, or a list literal) whose shapes the result takes.",
        ),
    };
    let builder = match function {
        CreateFunction::Full | CreateFunction::FullLike => builder.with_argument(
            "fill_value",
            "A number or boolean: a literal, or a column (a value per row).",
        ),
        _ => builder,
    };
    builder.with_argument("dtype", DTYPE).build()
}
