//! The expression builders of the functions of family Aggregates (written by `render.rs`
//! from the registry: see the module docs of `expr_fn`). Do not edit.

// The docs are the SQL reference's words, in which function names are plain text.
#![allow(clippy::doc_markdown)]

use datafusion::logical_expr::Expr;

plain! {
    /// Aggregate: numpy's sum(np.stack(rows), axis=0) over a group's non-NULL tensors, element by
    /// element: int64 for booleans and signed integers, uint64 for unsigned ones (wrapping on
    /// overflow as numpy does), floats their own type, added in row order as numpy does.
    ///
    /// SQL: `tensor_agg_sum(x)`.
    tensor_agg_sum(x)
}

plain! {
    /// Aggregate: numpy's mean over a group's non-NULL tensors, element by element: float64 for
    /// integers and booleans, float16 and float32 kept (float16 summed in float32).
    ///
    /// SQL: `tensor_agg_mean(x)`.
    tensor_agg_mean(x)
}

plain! {
    /// Aggregate: numpy's min over a group's non-NULL tensors, element by element, in their type
    /// (NaN propagates).
    ///
    /// SQL: `tensor_agg_min(x)`.
    tensor_agg_min(x)
}

plain! {
    /// Aggregate: numpy's max over a group's non-NULL tensors, element by element, in their type
    /// (NaN propagates).
    ///
    /// SQL: `tensor_agg_max(x)`.
    tensor_agg_max(x)
}

plain! {
    /// Aggregate: numpy's prod over a group's non-NULL tensors, element by element, in the types of
    /// tensor_agg_sum.
    ///
    /// SQL: `tensor_agg_prod(x)`.
    tensor_agg_prod(x)
}

with_options! {
    /// Aggregate: numpy's var(np.stack(rows), axis=0, ddof=ddof) over a group's non-NULL tensors:
    /// float64 for integers and booleans, floats their own type; computed in float64 (Welford,
    /// merged with Chan's formula), within float tolerance of numpy's two-pass result.
    ///
    /// SQL: `tensor_agg_var(x [, ddof])`.
    tensor_agg_var(x) -> TensorAggVarCall {
        ddof = "ddof",
    }
}

with_options! {
    /// Aggregate: numpy's std over a group's non-NULL tensors: the square root of tensor_agg_var.
    ///
    /// SQL: `tensor_agg_std(x [, ddof])`.
    tensor_agg_std(x) -> TensorAggStdCall {
        ddof = "ddof",
    }
}

plain! {
    /// Aggregate: numpy's stack of a group's non-NULL tensors, in the order of the call's ORDER BY:
    /// a variable-shape tensor whose leading dimension is the number of rows.
    ///
    /// SQL: `tensor_agg_stack(x [ORDER BY expression])`.
    tensor_agg_stack(x)
}

with_options! {
    /// Aggregate: numpy's cov(np.stack(rows), rowvar=False, ddof=ddof) over a group's non-NULL
    /// rows, each row one observation of the variables along its one dimension: a \[d, d\] float64
    /// tensor (variable-shape for variable-shape or list rows; a plain number for 0-d rows).
    ///
    /// SQL: `tensor_agg_cov(x [, ddof])`.
    tensor_agg_cov(x) -> TensorAggCovCall {
        ddof = "ddof",
    }
}

plain! {
    /// Aggregate: numpy's corrcoef(np.stack(rows), rowvar=False): tensor_agg_cov divided by the
    /// variables' standard deviations and clipped to \[-1, 1\], as numpy computes it (NaN for a
    /// constant variable).
    ///
    /// SQL: `tensor_agg_corrcoef(x)`.
    tensor_agg_corrcoef(x)
}
