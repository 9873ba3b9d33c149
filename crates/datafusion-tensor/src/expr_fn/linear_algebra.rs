//! The expression builders of the functions of family LinearAlgebra (written by `render.rs`
//! from the registry: see the module docs of `expr_fn`). Do not edit.

// The docs are the SQL reference's words, in which function names are plain text.
#![allow(clippy::doc_markdown)]

use datafusion::logical_expr::Expr;

with_options! {
    /// The array API standard's linalg.vector_norm (numpy 2's) over axes (NULL: every axis, the
    /// tensor flattened; a list: those axes together): ord 2 (the default) sqrt(sum(x * x)), 1
    /// sum(|x|), 'inf' max(|x|), '-inf' min(|x|), 0 how many are not zero, any other p sum(|x| **
    /// p) ** (1 / p).
    ///
    /// SQL: `tensor_vector_norm(x [, axis [, keepdims [, ord]]])`.
    tensor_vector_norm(x) -> TensorVectorNormCall {
        axis = "axis",
        keepdims = "keepdims",
        ord = "ord",
    }
}

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
    /// numpy 2's vecdot (the array API standard's linalg.vecdot): the dot product of x1 and x2
    /// along axis of each (the last by default), the other dimensions broadcast; in the operands'
    /// common type (numpy's sum of products: integers wrap, booleans are or of ands).
    ///
    /// SQL: `tensor_vecdot(x1, x2 [, axis])`.
    tensor_vecdot(x1, x2) -> TensorVecdotCall {
        axis = "axis",
    }
}

plain! {
    /// numpy's kron: the Kronecker product, every product of an element of a with one of b, the
    /// shapes padded with 1s in front to one length, the result's dimension d a's times b's (block
    /// (i, j) is a\[i, j\] * b); in numpy's result type of the operands (integers wrap, booleans
    /// and).
    ///
    /// SQL: `tensor_kron(a, b)`.
    tensor_kron(a, b)
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

with_options! {
    /// The array API's linalg.matrix_norm: tensor_norm over the last two axes (numpy's norm(x, ord,
    /// axis=(-2, -1), keepdims)); ord 'fro' by default, or 'nuc', 1, -1, 2, -2, inf, -inf (as
    /// strings 'inf', '-inf' too).
    ///
    /// SQL: `tensor_matrix_norm(x [, keepdims [, ord]])`.
    tensor_matrix_norm(x) -> TensorMatrixNormCall {
        keepdims = "keepdims",
        ord = "ord",
    }
}

with_options! {
    /// numpy 2's linalg.cross (the array API standard's): the cross product of the 3-vectors along
    /// axis of x1 and x2 (default -1, the last), the other dimensions broadcast; the result holds
    /// the vectors at axis.
    ///
    /// SQL: `tensor_cross(x1, x2 [, axis])`.
    tensor_cross(x1, x2) -> TensorCrossCall {
        axis = "axis",
    }
}

plain! {
    /// numpy's linalg.det: the determinant of each matrix (from its LU factorisation, as sign *
    /// exp(logabsdet)).
    ///
    /// SQL: `tensor_det(x)`.
    tensor_det(x)
}

plain! {
    /// numpy's linalg.slogdet: a struct {sign, logabsdet} per row; sign 0 and logabsdet -inf for a
    /// singular matrix.
    ///
    /// SQL: `tensor_slogdet(x)`.
    tensor_slogdet(x)
}

plain! {
    /// numpy's linalg.inv: the inverse of each matrix; numpy's error Singular matrix (naming the
    /// row) where a pivot is exactly zero.
    ///
    /// SQL: `tensor_inv(x)`.
    tensor_inv(x)
}

plain! {
    /// numpy's linalg.solve: x with a @ x = b.
    ///
    /// SQL: `tensor_solve(a, b)`.
    tensor_solve(a, b)
}

with_options! {
    /// numpy's linalg.cholesky: the lower-triangular L with L @ L.T = x, read from x's lower
    /// triangle (upper =\> true: L.T).
    ///
    /// SQL: `tensor_cholesky(x [, upper])`.
    tensor_cholesky(x) -> TensorCholeskyCall {
        upper = "upper",
    }
}

with_options! {
    /// numpy's linalg.qr: a struct {Q, R} (mode 'reduced', the default: Q m x k, R k x n with k =
    /// min(m, n); 'complete': Q m x m, R m x n), or R alone (mode 'r').
    ///
    /// SQL: `tensor_qr(x [, mode])`.
    tensor_qr(x) -> TensorQrCall {
        mode = "mode",
    }
}

with_options! {
    /// numpy's linalg.eigh: a struct {eigenvalues (ascending), eigenvectors (columns)} of each
    /// symmetric matrix, read from its lower triangle (uplo 'L', the default) or upper ('U').
    ///
    /// SQL: `tensor_eigh(x [, uplo])`.
    tensor_eigh(x) -> TensorEighCall {
        uplo = "uplo",
    }
}

with_options! {
    /// numpy's linalg.eigvalsh: the eigenvalues (ascending) of each symmetric matrix, read from one
    /// triangle (uplo 'L' or 'U').
    ///
    /// SQL: `tensor_eigvalsh(x [, uplo])`.
    tensor_eigvalsh(x) -> TensorEigvalshCall {
        uplo = "uplo",
    }
}

plain! {
    /// numpy's linalg.eig of a real spectrum: a struct {eigenvalues, eigenvectors (unit columns)}.
    ///
    /// SQL: `tensor_eig(x)`.
    tensor_eig(x)
}

plain! {
    /// numpy's linalg.eigvals of a real spectrum (complex eigenvalues are refused, as tensor_eig).
    ///
    /// SQL: `tensor_eigvals(x)`.
    tensor_eigvals(x)
}

with_options! {
    /// numpy's linalg.svd: a struct {U, S, Vh} with x = U @ diag(S) @ Vh, S descending
    /// (full_matrices =\> false: U m x k and Vh k x n); compute_uv =\> false gives S alone;
    /// hermitian =\> true works through eigh as numpy.
    ///
    /// SQL: `tensor_svd(x [, full_matrices [, compute_uv [, hermitian]]])`.
    tensor_svd(x) -> TensorSvdCall {
        full_matrices = "full_matrices",
        compute_uv = "compute_uv",
        hermitian = "hermitian",
    }
}

plain! {
    /// The array API's linalg.svdvals (numpy's svd(x, compute_uv=False)): the singular values,
    /// descending.
    ///
    /// SQL: `tensor_svdvals(x)`.
    tensor_svdvals(x)
}

with_options! {
    /// numpy's linalg.pinv: the Moore-Penrose pseudo-inverse (n x m) through the SVD, singular
    /// values at or below rcond times the largest dropped (rcond 1e-15 by default, numpy's; rtol is
    /// the same cutoff, and both may not be given).
    ///
    /// SQL: `tensor_pinv(x [, rcond [, hermitian [, rtol]]])`.
    tensor_pinv(x) -> TensorPinvCall {
        rcond = "rcond",
        hermitian = "hermitian",
        rtol = "rtol",
    }
}

with_options! {
    /// numpy's linalg.matrix_rank (int64): the count of singular values above tol, or above rtol
    /// times the largest (by default max(m, n) * eps of the result type).
    ///
    /// SQL: `tensor_matrix_rank(x [, tol [, hermitian [, rtol]]])`.
    tensor_matrix_rank(x) -> TensorMatrixRankCall {
        tol = "tol",
        hermitian = "hermitian",
        rtol = "rtol",
    }
}

with_options! {
    /// numpy's linalg.lstsq of a 2-d a: a struct {x (the minimum-norm least-squares solution),
    /// residuals (the squared residual per column of b, empty unless the rank is n and m \> n;
    /// variable-shape), rank (int64), s (the singular values)}.
    ///
    /// SQL: `tensor_lstsq(a, b [, rcond])`.
    tensor_lstsq(a, b) -> TensorLstsqCall {
        rcond = "rcond",
    }
}

plain! {
    /// numpy's linalg.matrix_power: each square matrix to the integer power n, by numpy's repeated
    /// squaring in the element type (integers wrap, booleans are OR of ANDs); n = 0 gives the
    /// identity, a negative n the inverse's power (float).
    ///
    /// SQL: `tensor_matrix_power(x, n)`.
    tensor_matrix_power(x, n)
}
