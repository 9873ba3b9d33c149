//! The expression builders of the functions of family LinearAlgebra (written by `render.rs`
//! from the registry: see the module docs of `expr_fn`). Do not edit.

// The docs are the SQL reference's words, in which function names are plain text.
#![allow(clippy::doc_markdown)]

use datafusion::logical_expr::Expr;

plain! {
    /// numpy's matmul: the matrix product of the last two dimensions, the others broadcast as batch
    /// dimensions; a 1-d first operand is a row vector and a 1-d second one a column vector, their
    /// added dimension removed from the result.
    ///
    /// SQL: `tensor_matmul(x1, x2)`.
    tensor_matmul(x1, x2)
}

plain! {
    /// numpy's dot: the sum over the last axis of a and the second-to-last of b (the only one of a
    /// 1-d b); a 0-d operand multiplies.
    ///
    /// SQL: `tensor_dot(a, b)`.
    tensor_dot(a, b)
}

plain! {
    /// numpy's inner: the sum over the last axes of a and b; the result has a's other dimensions,
    /// then b's.
    ///
    /// SQL: `tensor_inner(a, b)`.
    tensor_inner(a, b)
}

plain! {
    /// numpy's outer: every product of an element of a with one of b, both flattened: a (a.size,
    /// b.size) matrix.
    ///
    /// SQL: `tensor_outer(a, b)`.
    tensor_outer(a, b)
}

with_options! {
    /// numpy's tensordot: the sum over the last `axes` axes of a and the first of b, or over the
    /// axes paired in `axes`; the result has a's other dimensions, then b's.
    ///
    /// SQL: `tensor_tensordot(a, b [, axes])`.
    tensor_tensordot(a, b) -> TensorTensordotCall {
        axes = "axes",
    }
}

with_options! {
    /// numpy's trace: the sum of the diagonal of axis1 and axis2 at offset, in numpy's sum types
    /// (int64 for booleans and signed integers, uint64 for unsigned ones, floats their own).
    ///
    /// SQL: `tensor_trace(a [, offset [, axis1 [, axis2]]])`.
    tensor_trace(a) -> TensorTraceCall {
        offset = "offset",
        axis1 = "axis1",
        axis2 = "axis2",
    }
}

with_options! {
    /// numpy's diagonal: the diagonal of axis1 and axis2 at offset, as the last dimension after the
    /// others; a copy in the tensor's own type.
    ///
    /// SQL: `tensor_diagonal(a [, offset [, axis1 [, axis2]]])`.
    tensor_diagonal(a) -> TensorDiagonalCall {
        offset = "offset",
        axis1 = "axis1",
        axis2 = "axis2",
    }
}

list! {
    /// numpy's einsum (optimize=False): numpy's subscripts grammar (labels per operand separated by
    /// commas, '-\>' and the output, or the implicit output: the labels appearing once, in
    /// alphabetical order; '...' broadcasts; a label repeated in an operand takes a diagonal;
    /// labels left out of the output are summed), parsed and planned once per query.
    ///
    /// SQL: `tensor_einsum(subscripts, operand [, operand ...])`.
    tensor_einsum
}

with_options! {
    /// The inner product sum(a * b) along the last axis (or `axis`) of a and b, broadcast by
    /// numpy's rules.
    ///
    /// SQL: `tensor_inner_product(a, b [, axis])`.
    tensor_inner_product(a, b) -> TensorInnerProductCall {
        axis = "axis",
    }
}

with_options! {
    /// The Euclidean distance sqrt(sum((a - b)^2)) along the last axis (or `axis`) of a and b,
    /// broadcast by numpy's rules.
    ///
    /// SQL: `tensor_l2_distance(a, b [, axis])`.
    tensor_l2_distance(a, b) -> TensorL2DistanceCall {
        axis = "axis",
    }
}

with_options! {
    /// The cosine similarity sum(a * b) / (sqrt(sum(a * a)) * sqrt(sum(b * b))) (NaN for a zero
    /// vector) along the last axis (or `axis`) of a and b, broadcast by numpy's rules.
    ///
    /// SQL: `tensor_cosine_similarity(a, b [, axis])`.
    tensor_cosine_similarity(a, b) -> TensorCosineSimilarityCall {
        axis = "axis",
    }
}

with_options! {
    /// The cosine distance 1 - tensor_cosine_similarity(a, b) (DuckDB's array_cosine_distance; NaN
    /// for a zero vector) along the last axis (or `axis`) of a and b, broadcast by numpy's rules.
    ///
    /// SQL: `tensor_cosine_distance(a, b [, axis])`.
    tensor_cosine_distance(a, b) -> TensorCosineDistanceCall {
        axis = "axis",
    }
}

with_options! {
    /// numpy's linalg.norm of each row.
    ///
    /// SQL: `tensor_norm(x [, ord [, axis [, keepdims]]])`.
    tensor_norm(x) -> TensorNormCall {
        ord = "ord",
        axis = "axis",
        keepdims = "keepdims",
    }
}
