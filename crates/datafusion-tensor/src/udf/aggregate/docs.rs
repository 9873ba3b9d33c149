//! The documentation of the aggregates (`SHOW FUNCTIONS`, `information_schema`).

use std::sync::LazyLock;

use datafusion::logical_expr::Documentation;

use super::AggregateFunction;

/// The documentation of `function`.
pub fn documentation(function: AggregateFunction) -> &'static Documentation {
    static DOCS: LazyLock<Vec<Documentation>> =
        LazyLock::new(|| AggregateFunction::ALL.into_iter().map(build).collect());
    &DOCS[function as usize]
}

fn build(function: AggregateFunction) -> Documentation {
    use AggregateFunction as F;
    let (description, example_call, example_out) = match function {
        F::Sum => (
            "Aggregate: numpy's sum(np.stack(rows), axis=0) over a group's non-NULL tensors, element by element: int64 for booleans and signed integers, uint64 for unsigned ones (wrapping on overflow as numpy does), floats their own type, added in row order as numpy does. NULL for a group without rows; rows of another shape are an error.",
            "tensor_agg_sum(x) FROM (VALUES (tensor([1, 2], [2])), (tensor([3, 4], [2]))) AS t(x)",
            "[4, 6]",
        ),
        F::Mean => (
            "Aggregate: numpy's mean over a group's non-NULL tensors, element by element: float64 for integers and booleans, float16 and float32 kept (float16 summed in float32).",
            "tensor_agg_mean(x) FROM (VALUES (tensor([1, 2], [2])), (tensor([3, 5], [2]))) AS t(x)",
            "[2.0, 3.5]",
        ),
        F::Min => (
            "Aggregate: numpy's min over a group's non-NULL tensors, element by element, in their type (NaN propagates).",
            "tensor_agg_min(x) FROM (VALUES (tensor([1, 4], [2])), (tensor([3, 2], [2]))) AS t(x)",
            "[1, 2]",
        ),
        F::Max => (
            "Aggregate: numpy's max over a group's non-NULL tensors, element by element, in their type (NaN propagates).",
            "tensor_agg_max(x) FROM (VALUES (tensor([1, 4], [2])), (tensor([3, 2], [2]))) AS t(x)",
            "[3, 4]",
        ),
        F::Prod => (
            "Aggregate: numpy's prod over a group's non-NULL tensors, element by element, in the types of tensor_agg_sum.",
            "tensor_agg_prod(x) FROM (VALUES (tensor([1, 4], [2])), (tensor([3, 2], [2]))) AS t(x)",
            "[3, 8]",
        ),
        F::Var => (
            "Aggregate: numpy's var(np.stack(rows), axis=0, ddof=ddof) over a group's non-NULL tensors: float64 for integers and booleans, floats their own type; computed in float64 (Welford, merged with Chan's formula), within float tolerance of numpy's two-pass result.",
            "tensor_agg_var(x, ddof => 1) FROM (VALUES (tensor([1.0, 2.0], [2])), (tensor([3.0, 6.0], [2]))) AS t(x)",
            "[2.0, 8.0]",
        ),
        F::Std => (
            "Aggregate: numpy's std over a group's non-NULL tensors: the square root of tensor_agg_var.",
            "tensor_agg_std(x) FROM (VALUES (tensor([1.0, 2.0], [2])), (tensor([3.0, 6.0], [2]))) AS t(x)",
            "[1.0, 2.0]",
        ),
        F::Stack => (
            "Aggregate: numpy's stack of a group's non-NULL tensors, in the order of the call's ORDER BY: a variable-shape tensor whose leading dimension is the number of rows. NULL for a group without rows; rows of another shape are an error.",
            "tensor_agg_stack(x ORDER BY k) FROM (VALUES (2, tensor([3, 4], [2])), (1, tensor([1, 2], [2]))) AS t(k, x)",
            "[[1, 2], [3, 4]]",
        ),
        F::Cov => (
            "Aggregate: numpy's cov(np.stack(rows), rowvar=False, ddof=ddof) over a group's non-NULL rows, each row one observation of the variables along its one dimension: a [d, d] float64 tensor (variable-shape for variable-shape or list rows; a plain number for 0-d rows). One pass in float64 (Welford's co-moments, merged with Chan's formula), within float tolerance of numpy's centred BLAS product; numpy's inf/NaN where count - ddof is not positive. A NULL element makes its variable's row and column NULL. NULL for a group without rows.",
            "tensor_agg_cov(x) FROM (VALUES (tensor([1.0, 2.0], [2])), (tensor([3.0, 6.0], [2])), (tensor([5.0, 7.0], [2]))) AS t(x)",
            "[[4.0, 5.0], [5.0, 7.0]]",
        ),
        F::Corrcoef => (
            "Aggregate: numpy's corrcoef(np.stack(rows), rowvar=False): tensor_agg_cov divided by the variables' standard deviations and clipped to [-1, 1], as numpy computes it (NaN for a constant variable).",
            "tensor_agg_corrcoef(x) FROM (VALUES (tensor([1.0, 2.0], [2])), (tensor([2.0, 4.0], [2])), (tensor([3.0, 6.0], [2]))) AS t(x)",
            "[[1.0, 1.0], [1.0, 1.0]]",
        ),
    };
    let name = function.name();
    let syntax = match function {
        F::Var | F::Std | F::Cov => format!("{name}(x [, ddof])"),
        F::Stack => format!("{name}(x [ORDER BY expression])"),
        _ => format!("{name}(x)"),
    };
    let mut builder = crate::udf::tensor_documentation(description, syntax, example_call, example_out)
        .with_argument(
        "x",
        "A tensor column (arrow.fixed_shape_tensor, arrow.variable_shape_tensor or FixedSizeList), read in its logical order (its permutation applied); every row of a group must have the same logical shape.",
    );
    if matches!(function, F::Var | F::Std) {
        builder = builder.with_argument(
            "ddof",
            "A literal integer, delta degrees of freedom: the divisor is count - ddof (default 0).",
        );
    }
    if function == F::Cov {
        builder = builder.with_argument(
            "ddof",
            "A literal integer, delta degrees of freedom: the divisor is count - ddof (default 1, numpy's unbiased estimate).",
        );
    }
    builder.build()
}
