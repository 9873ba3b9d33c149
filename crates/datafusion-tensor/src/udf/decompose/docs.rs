//! The documentation of the family's functions.

use datafusion::logical_expr::Documentation;

use super::DecomposeFunction;
use crate::udf::tensor_documentation;

const COMMON: &str = "Per row, over the last two axes; leading axes are a batch of matrices (numpy's stacked matrices). Worked in float64 as numpy's linalg works (through faer): float32 operands give float32, integers and booleans float64, float16 is refused (array type float16 is unsupported in linalg). A NULL row gives a NULL row.";

const X: &str = "A tensor of at least two dimensions (fixed- or variable-shape) or a list literal.";

/// `function`'s documentation.
#[allow(clippy::too_many_lines, reason = "a table: one entry per function")]
pub(super) fn documentation(function: DecomposeFunction) -> Documentation {
    let (description, syntax, call, out) = match function {
        DecomposeFunction::Det => (
            "numpy's linalg.det: the determinant of each matrix (from its LU factorisation, as sign * exp(logabsdet)).",
            "tensor_det(x)",
            "tensor_det([[1.0, 2.0], [3.0, 4.0]])",
            "-2.0000000000000004",
        ),
        DecomposeFunction::Slogdet => (
            "numpy's linalg.slogdet: a struct {sign, logabsdet} per row; sign 0 and logabsdet -inf for a singular matrix.",
            "tensor_slogdet(x)",
            "tensor_slogdet([[2.0, 0.0], [0.0, 3.0]])",
            "{sign: 1.0, logabsdet: 1.791759469228055}",
        ),
        DecomposeFunction::Inv => (
            "numpy's linalg.inv: the inverse of each matrix; numpy's error Singular matrix (naming the row) where a pivot is exactly zero.",
            "tensor_inv(x)",
            "tensor_inv([[2.0, 0.0], [0.0, 4.0]])",
            "[[0.5, 0.0], [0.0, 0.25]]",
        ),
        DecomposeFunction::Solve => (
            "numpy's linalg.solve: x with a @ x = b. b is one vector when it has one dimension (numpy 2's rule), else a stack of m x k matrices; the batch dimensions of a and b broadcast. Singular matrix as numpy.",
            "tensor_solve(a, b)",
            "tensor_solve([[2.0, 0.0], [0.0, 4.0]], [1.0, 1.0])",
            "[0.5, 0.25]",
        ),
        DecomposeFunction::Cholesky => (
            "numpy's linalg.cholesky: the lower-triangular L with L @ L.T = x, read from x's lower triangle (upper => true: L.T). Matrix is not positive definite as numpy.",
            "tensor_cholesky(x [, upper])",
            "tensor_cholesky([[4.0, 2.0], [2.0, 5.0]])",
            "[[2.0, 0.0], [1.0, 2.0]]",
        ),
        DecomposeFunction::Qr => (
            "numpy's linalg.qr: a struct {Q, R} (mode 'reduced', the default: Q m x k, R k x n with k = min(m, n); 'complete': Q m x m, R m x n), or R alone (mode 'r'). The signs of Q's columns and R's rows may differ from LAPACK's: Q @ R and Q's orthonormal columns agree.",
            "tensor_qr(x [, mode])",
            "tensor_qr([[3.0, 0.0], [4.0, 5.0]], 'r')",
            "[[-5.0, -4.0], [0.0, 3.0]]",
        ),
        DecomposeFunction::Eigh => (
            "numpy's linalg.eigh: a struct {eigenvalues (ascending), eigenvectors (columns)} of each symmetric matrix, read from its lower triangle (uplo 'L', the default) or upper ('U'). Eigenvectors are unique up to sign.",
            "tensor_eigh(x [, uplo])",
            "tensor_eigh([[2.0, 0.0], [0.0, 1.0]])['eigenvalues']",
            "[1.0, 2.0]",
        ),
        DecomposeFunction::Eigvalsh => (
            "numpy's linalg.eigvalsh: the eigenvalues (ascending) of each symmetric matrix, read from one triangle (uplo 'L' or 'U').",
            "tensor_eigvalsh(x [, uplo])",
            "tensor_eigvalsh([[2.0, 1.0], [1.0, 2.0]])",
            "[1.0, 3.0]",
        ),
        DecomposeFunction::Eig => (
            "numpy's linalg.eig of a real spectrum: a struct {eigenvalues, eigenvectors (unit columns)}. A matrix with complex eigenvalues is refused (numpy returns complex128, which a tensor does not hold); a NaN or infinity gives numpy's Array must not contain infs or NaNs. The order of the eigenvalues is the solver's.",
            "tensor_eig(x)",
            "tensor_eig([[2.0, 0.0], [0.0, 3.0]])['eigenvalues']",
            "[2.0, 3.0]",
        ),
        DecomposeFunction::Eigvals => (
            "numpy's linalg.eigvals of a real spectrum (complex eigenvalues are refused, as tensor_eig).",
            "tensor_eigvals(x)",
            "tensor_eigvals([[2.0, 0.0], [0.0, 3.0]])",
            "[2.0, 3.0]",
        ),
        DecomposeFunction::Svd => (
            "numpy's linalg.svd: a struct {U, S, Vh} with x = U @ diag(S) @ Vh, S descending (full_matrices => false: U m x k and Vh k x n); compute_uv => false gives S alone; hermitian => true works through eigh as numpy. Singular vectors are unique up to sign. A NaN is numpy's SVD did not converge.",
            "tensor_svd(x [, full_matrices [, compute_uv [, hermitian]]])",
            "tensor_svd([[3.0, 0.0], [0.0, 4.0]])['S']",
            "[4.0, 3.0]",
        ),
        DecomposeFunction::Svdvals => (
            "The array API's linalg.svdvals (numpy's svd(x, compute_uv=False)): the singular values, descending.",
            "tensor_svdvals(x)",
            "tensor_svdvals([[3.0, 0.0], [0.0, 4.0]])",
            "[4.0, 3.0]",
        ),
        DecomposeFunction::Pinv => (
            "numpy's linalg.pinv: the Moore-Penrose pseudo-inverse (n x m) through the SVD, singular values at or below rcond times the largest dropped (rcond 1e-15 by default, numpy's; rtol is the same cutoff, and both may not be given).",
            "tensor_pinv(x [, rcond [, hermitian [, rtol]]])",
            "tensor_pinv([[2.0, 0.0], [0.0, 0.0]])",
            "[[0.5, 0.0], [0.0, 0.0]]",
        ),
        DecomposeFunction::MatrixRank => (
            "numpy's linalg.matrix_rank (int64): the count of singular values above tol, or above rtol times the largest (by default max(m, n) * eps of the result type). A tensor of fewer than two dimensions has rank 1 unless all its elements are 0.",
            "tensor_matrix_rank(x [, tol [, hermitian [, rtol]]])",
            "tensor_matrix_rank([[1.0, 2.0], [2.0, 4.0]])",
            "1",
        ),
        DecomposeFunction::Lstsq => (
            "numpy's linalg.lstsq of a 2-d a: a struct {x (the minimum-norm least-squares solution), residuals (the squared residual per column of b, empty unless the rank is n and m > n; variable-shape), rank (int64), s (the singular values)}. rcond defaults to eps * max(m, n).",
            "tensor_lstsq(a, b [, rcond])",
            "tensor_lstsq([[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]], [1.0, 2.0, 3.0])['x']",
            "[1.0, 2.0]",
        ),
        DecomposeFunction::MatrixPower => (
            "numpy's linalg.matrix_power: each square matrix to the integer power n, by numpy's repeated squaring in the element type (integers wrap, booleans are OR of ANDs); n = 0 gives the identity, a negative n the inverse's power (float).",
            "tensor_matrix_power(x, n)",
            "tensor_matrix_power([[1, 1], [1, 0]], 10)",
            "[[89, 55], [55, 34]]",
        ),
    };
    let description = format!("{description} {COMMON}");
    let mut doc = tensor_documentation(&description, syntax.to_string(), call, out);
    let (names, _) = function.parameter_names();
    for arg in names {
        let text = match *arg {
            "x" => X,
            "a" => {
                "The coefficient matrices: a tensor (two dimensions for tensor_lstsq, at least two otherwise) or a list literal."
            }
            "b" => {
                "The right-hand side: a vector (one dimension) or a stack of matrices, broadcast against a's batch."
            }
            "upper" => "A literal boolean: return the upper-triangular factor (default false).",
            "mode" => "A literal string: 'reduced' (default), 'complete' or 'r'.",
            "uplo" => "A literal string: 'L' (default) or 'U', the triangle read.",
            "full_matrices" => "A literal boolean (default true).",
            "compute_uv" => {
                "A literal boolean (default true); false gives the singular values alone."
            }
            "hermitian" => {
                "A literal boolean (default false): the matrix is symmetric, decomposed through eigh."
            }
            "rcond" => "A literal number or NULL: the relative cutoff for small singular values.",
            "rtol" => "A literal number or NULL: the relative tolerance (numpy 2's name).",
            "tol" => "A literal number or NULL: the absolute threshold.",
            "n" => "A literal integer: the exponent.",
            _ => "",
        };
        doc = doc.with_argument(*arg, text);
    }
    doc.build()
}
