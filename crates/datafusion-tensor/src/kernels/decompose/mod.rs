//! numpy's `linalg` per matrix: determinants, inverses, solves and the decompositions, through
//! `faer` (LAPACK's algorithms in pure Rust: no system BLAS/LAPACK, so it builds wherever the
//! wheels do; `ndarray-linalg` binds a system LAPACK and `nalgebra`'s decompositions are
//! slower on batches of small matrices).
//!
//! Every operation works as numpy's does: the matrix in float64 (numpy's `_commonType`
//! computes float32 in double too and rounds the result), its results appended row-major to
//! one buffer per part ([`MatrixOp::parts`]). The UDF gathers each matrix of a row (its
//! leading dimensions are a batch, numpy's stacked matrices) at its logical strides.
//!
//! - [`lu`]: `det`, `slogdet`, `inv`, `solve` (partial-pivot LU, LAPACK's `getrf`);
//! - [`factor`]: `cholesky`, `qr`;
//! - [`spectral`]: `eigh`, `eigvalsh`, `eig`, `eigvals`, `svd`, `svdvals`, `pinv`,
//!   `matrix_rank`, `lstsq`;
//! - [`svd`]: the singular values the matrix norms read;
//! - [`power`]: `matrix_power` in the element type (numpy's `matmul` by repeated squaring).

pub mod factor;
pub mod lu;
pub mod power;
pub mod spectral;
pub mod svd;

use faer::MatRef;

/// A float option of an operation (a tolerance), hashed by its bits.
#[derive(Debug, Clone, Copy)]
pub struct Real(pub f64);

impl PartialEq for Real {
    fn eq(&self, other: &Self) -> bool {
        self.0.to_bits() == other.0.to_bits()
    }
}

impl Eq for Real {}

impl std::hash::Hash for Real {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.to_bits().hash(state);
    }
}

/// `qr`'s mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum QrMode {
    /// `Q` (m x k) and `R` (k x n), k = min(m, n).
    Reduced,
    /// `Q` (m x m) and `R` (m x n).
    Complete,
    /// `R` alone (k x n).
    R,
}

/// `matrix_rank`'s threshold: singular values above it count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Tolerance {
    /// `tol`: an absolute threshold.
    Absolute(Real),
    /// `rtol`: relative to the largest singular value.
    Relative(Real),
    /// numpy's default: `max(m, n) * eps` of the result type (`eps` held here), relative.
    Default(Real),
}

/// What a call computes per matrix (`a`, and `b` for the solves).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MatrixOp {
    /// The determinant.
    Det,
    /// `(sign, logabsdet)`.
    Slogdet,
    /// The inverse.
    Inv,
    /// `a x = b`; `vector`: `b` is one vector (numpy: `b.ndim == 1`), else a matrix.
    Solve {
        /// Whether `b` is a vector.
        vector: bool,
    },
    /// The Cholesky factor, lower (or its transpose, `upper`).
    Cholesky {
        /// numpy 2's `upper`.
        upper: bool,
    },
    /// Eigenvalues (ascending) and, with `vectors`, eigenvectors of a symmetric matrix read
    /// from its lower (or `upper`) triangle.
    Eigh {
        /// `UPLO='U'`.
        upper: bool,
        /// `eigh` (true) or `eigvalsh`.
        vectors: bool,
    },
    /// Eigenvalues and, with `vectors`, eigenvectors of a general matrix; refused where they
    /// are not real (numpy gives complex128, a type a tensor does not hold).
    Eig {
        /// `eig` (true) or `eigvals`.
        vectors: bool,
    },
    /// `U, S, Vh` (or `S` alone without `vectors`).
    Svd {
        /// `full_matrices`.
        full: bool,
        /// `compute_uv`.
        vectors: bool,
        /// `hermitian`: through `eigh`, as numpy.
        hermitian: bool,
    },
    /// `Q, R` or `R`.
    Qr(QrMode),
    /// The pseudo-inverse: singular values at or below `rcond` times the largest dropped.
    Pinv {
        /// The relative cutoff.
        rcond: Real,
        /// `hermitian`.
        hermitian: bool,
    },
    /// The count of singular values above the tolerance (as a float64; the UDF makes it
    /// int64).
    MatrixRank {
        /// The threshold.
        tol: Tolerance,
        /// `hermitian`.
        hermitian: bool,
    },
    /// Least squares (2-d `a`): `x, residuals, rank, s`.
    Lstsq {
        /// The relative cutoff (`None`: numpy's `eps * max(m, n)`).
        rcond: Option<Real>,
        /// Whether `b` is a vector.
        vector: bool,
    },
}

/// numpy's `linalg` errors, as numpy words them.
pub const SINGULAR: &str = "Singular matrix";
/// `cholesky`'s.
pub const NOT_POSITIVE_DEFINITE: &str = "Matrix is not positive definite";
/// The SVD's.
pub const SVD_DID_NOT_CONVERGE: &str = "SVD did not converge";
/// The eigensolvers'.
pub const EIGENVALUES_DID_NOT_CONVERGE: &str = "Eigenvalues did not converge";

impl MatrixOp {
    /// Whether `a` must be square (numpy's `_assert_stacked_square`).
    pub fn square(&self) -> bool {
        matches!(
            self,
            Self::Det
                | Self::Slogdet
                | Self::Inv
                | Self::Solve { .. }
                | Self::Cholesky { .. }
                | Self::Eigh { .. }
                | Self::Eig { .. }
        ) || matches!(
            self,
            Self::Svd {
                hermitian: true,
                ..
            } | Self::Pinv {
                hermitian: true,
                ..
            } | Self::MatrixRank {
                hermitian: true,
                ..
            }
        )
    }

    /// The shape of each part of one matrix's result, for an `m x n` matrix `a` and a `b` of
    /// `k` columns (the solves). `lstsq`'s residuals (its second part) hold 0, 1 or `k`
    /// values, as the rank says: their shape here is its longest.
    pub fn parts(&self, m: usize, n: usize, k: usize) -> Vec<Vec<usize>> {
        let min = m.min(n);
        match *self {
            Self::Det | Self::MatrixRank { .. } => vec![vec![]],
            Self::Slogdet => vec![vec![], vec![]],
            Self::Inv | Self::Cholesky { .. } => vec![vec![m, m]],
            Self::Solve { vector: true } => vec![vec![m]],
            Self::Solve { vector: false } => vec![vec![m, k]],
            Self::Eigh { vectors, .. } | Self::Eig { vectors } => {
                if vectors {
                    vec![vec![m], vec![m, m]]
                } else {
                    vec![vec![m]]
                }
            }
            Self::Svd { vectors: false, .. } => vec![vec![min]],
            Self::Svd { full: true, .. } => vec![vec![m, m], vec![min], vec![n, n]],
            Self::Svd { .. } => vec![vec![m, min], vec![min], vec![min, n]],
            Self::Qr(QrMode::Reduced) => vec![vec![m, min], vec![min, n]],
            Self::Qr(QrMode::Complete) => vec![vec![m, m], vec![m, n]],
            Self::Qr(QrMode::R) => vec![vec![min, n]],
            Self::Pinv { .. } => vec![vec![n, m]],
            Self::Lstsq { vector: true, .. } => vec![vec![n], vec![1], vec![], vec![min]],
            Self::Lstsq { vector: false, .. } => vec![vec![n, k], vec![k], vec![], vec![min]],
        }
    }

    /// Runs the operation on `a` (and `b`), appending each part row-major to `out` (one
    /// buffer per part). An error is numpy's message.
    pub fn run(
        &self,
        a: MatRef<'_, f64>,
        b: Option<MatRef<'_, f64>>,
        out: &mut [Vec<f64>],
    ) -> Result<(), &'static str> {
        match *self {
            Self::Det => {
                lu::det(a, out);
                Ok(())
            }
            Self::Slogdet => {
                lu::slogdet(a, out);
                Ok(())
            }
            Self::Inv => lu::inv(a, out),
            Self::Solve { .. } => lu::solve(a, required(b)?, out),
            Self::Cholesky { upper } => factor::cholesky(a, upper, out),
            Self::Qr(mode) => {
                factor::qr(a, mode, out);
                Ok(())
            }
            Self::Eigh { upper, vectors } => spectral::eigh(a, upper, vectors, out),
            Self::Eig { vectors } => spectral::eig(a, vectors, out),
            Self::Svd {
                full,
                vectors,
                hermitian,
            } => spectral::svd(a, full, vectors, hermitian, out),
            Self::Pinv { rcond, hermitian } => spectral::pinv(a, rcond.0, hermitian, out),
            Self::MatrixRank { tol, hermitian } => spectral::matrix_rank(a, tol, hermitian, out),
            Self::Lstsq { rcond, .. } => spectral::lstsq(a, required(b)?, rcond, out),
        }
    }
}

fn required(b: Option<MatRef<'_, f64>>) -> Result<MatRef<'_, f64>, &'static str> {
    b.ok_or("the right-hand side is missing")
}

/// Appends `m` row-major to `out`.
pub(crate) fn push(m: MatRef<'_, f64>, out: &mut Vec<f64>) {
    for i in 0..m.nrows() {
        for j in 0..m.ncols() {
            out.push(m[(i, j)]);
        }
    }
}

/// Appends the `n x n` identity to `out`.
pub(crate) fn push_identity(n: usize, out: &mut Vec<f64>) {
    for i in 0..n {
        for j in 0..n {
            out.push(if i == j { 1.0 } else { 0.0 });
        }
    }
}

/// Appends `len` NaNs to `out` (the part of a result numpy fills with NaN).
pub(crate) fn push_nan(len: usize, out: &mut Vec<f64>) {
    out.extend(std::iter::repeat_n(f64::NAN, len));
}

/// Whether any element of `a` is NaN, or infinite.
pub(crate) fn any(a: MatRef<'_, f64>, test: impl Fn(f64) -> bool) -> bool {
    (0..a.ncols()).any(|j| (0..a.nrows()).any(|i| test(a[(i, j)])))
}

/// LAPACK's guard against overflow and underflow in its eigen- and singular-value drivers
/// (`syevd`, `gesdd`): a matrix whose largest magnitude is beyond about 1e146 (or below about
/// 1e-146, not zero) is decomposed scaled by a power of two (exact), its values scaled back.
/// `None`: no scaling needed (or a NaN or infinity, which the callers handle).
pub(crate) fn scaled(a: MatRef<'_, f64>) -> Option<(faer::Mat<f64>, f64)> {
    let mut largest = 0.0f64;
    for j in 0..a.ncols() {
        for i in 0..a.nrows() {
            largest = largest.max(a[(i, j)].abs());
        }
    }
    let bound = 2f64.powi(485);
    if !largest.is_finite() || largest == 0.0 || (largest <= bound && largest >= 1.0 / bound) {
        return None;
    }
    // 2^-e with e the exponent of `largest`: the scaled matrix's largest magnitude is in [1, 2).
    let factor = 2f64.powi(-largest.log2().floor() as i32);
    Some((faer::Mat::from_fn(a.nrows(), a.ncols(), |i, j| a[(i, j)] * factor), factor))
}
