//! Eigen- and singular-value decompositions and what numpy builds on them (`pinv`,
//! `matrix_rank`, `lstsq`), through `faer`.
//!
//! - `eigh` reads one triangle (numpy's `UPLO`), eigenvalues ascending (`syevd`'s order).
//! - `eig` keeps numpy's real case only: a real matrix whose eigenvalues are all real gives
//!   real eigenvalues and unit eigenvectors (`geev`'s normalisation); complex ones are refused
//!   (numpy returns complex128, which a tensor does not hold).
//! - `svd`: singular values descending; a NaN is numpy's "SVD did not converge"; an infinity
//!   gives NaNs (LAPACK's result).
//! - Eigen- and singular vectors are unique up to sign (and rotation within repeated values):
//!   `faer`'s signs may differ from LAPACK's.
#![allow(
    clippy::many_single_char_names,
    reason = "linear algebra's names: a, b, m, n, k, u, s, vh"
)]

use faer::{Mat, MatRef, Side};

use super::{
    EIGENVALUES_DID_NOT_CONVERGE, Real, SVD_DID_NOT_CONVERGE, Tolerance, any, push, push_identity,
    push_nan,
};

/// The symmetric eigendecomposition read from the lower (or upper) triangle: eigenvalues
/// ascending and, with `vectors`, the eigenvector matrix (columns).
fn symmetric(
    a: MatRef<'_, f64>,
    upper: bool,
    vectors: bool,
) -> Result<(Vec<f64>, Option<Mat<f64>>), &'static str> {
    let n = a.nrows();
    if n == 0 {
        return Ok((Vec::new(), vectors.then(|| Mat::zeros(0, 0))));
    }
    // The triangle read, as a full symmetric matrix (LAPACK never reads the other).
    let full = Mat::from_fn(n, n, |i, j| {
        let (r, c) = if (i >= j) == upper { (j, i) } else { (i, j) };
        a[(r, c)]
    });
    if let Some((scaled, factor)) = super::scaled(full.as_ref()) {
        let (values, u) = symmetric(scaled.as_ref(), false, vectors)?;
        return Ok((values.into_iter().map(|w| w / factor).collect(), u));
    }
    if any(full.as_ref(), |x| !x.is_finite()) {
        // LAPACK's `syevd` returns NaNs (numpy raises nothing).
        let u = vectors.then(|| Mat::from_fn(n, n, |_, _| f64::NAN));
        return Ok((vec![f64::NAN; n], u));
    }
    if vectors {
        let evd = full
            .self_adjoint_eigen(Side::Lower)
            .map_err(|_| EIGENVALUES_DID_NOT_CONVERGE)?;
        let values = (0..n).map(|i| evd.S()[i]).collect();
        Ok((values, Some(evd.U().to_owned())))
    } else {
        let values = full
            .self_adjoint_eigenvalues(Side::Lower)
            .map_err(|_| EIGENVALUES_DID_NOT_CONVERGE)?;
        Ok((values, None))
    }
}

/// numpy's `eigh` (`vectors`) or `eigvalsh`.
pub fn eigh(
    a: MatRef<'_, f64>,
    upper: bool,
    vectors: bool,
    out: &mut [Vec<f64>],
) -> Result<(), &'static str> {
    let (values, u) = symmetric(a, upper, vectors)?;
    out[0].extend(values);
    if let Some(u) = u {
        push(u.as_ref(), &mut out[1]);
    }
    Ok(())
}

/// numpy's `eig` (`vectors`) or `eigvals` of a real spectrum.
pub fn eig(a: MatRef<'_, f64>, vectors: bool, out: &mut [Vec<f64>]) -> Result<(), &'static str> {
    let n = a.nrows();
    if n == 0 {
        return Ok(());
    }
    if any(a, |x| !x.is_finite()) {
        return Err("Array must not contain infs or NaNs");
    }
    let evd = a.eigen().map_err(|_| EIGENVALUES_DID_NOT_CONVERGE)?;
    let (s, u) = (evd.S(), evd.U());
    if (0..n).any(|i| s[i].im != 0.0) {
        return Err(
            "the eigenvalues are complex (numpy returns complex128, which a tensor does not hold)",
        );
    }
    out[0].extend((0..n).map(|i| s[i].re));
    if vectors {
        // Each column real (its imaginary part is zero for a real eigenvalue) and of unit
        // norm, as `geev` returns it.
        let mut v = Mat::<f64>::zeros(n, n);
        for j in 0..n {
            let norm = (0..n).map(|i| u[(i, j)].norm_sqr()).sum::<f64>().sqrt();
            let scale = if norm > 0.0 { 1.0 / norm } else { 1.0 };
            for i in 0..n {
                v[(i, j)] = u[(i, j)].re * scale;
            }
        }
        push(v.as_ref(), &mut out[1]);
    }
    Ok(())
}

/// A singular value decomposition: `U`, `S`, `Vh`.
type Usv = (Mat<f64>, Vec<f64>, Mat<f64>);

/// `U`, `S`, `Vh` of `a` (`full`: square `U` and `Vh`), or `None` for a matrix with an
/// infinity (LAPACK's NaNs).
fn decompose(
    a: MatRef<'_, f64>,
    full: bool,
) -> Result<Option<Usv>, &'static str> {
    if any(a, f64::is_nan) {
        return Err(SVD_DID_NOT_CONVERGE);
    }
    if any(a, f64::is_infinite) {
        return Ok(None);
    }
    if let Some((scaled, factor)) = super::scaled(a) {
        return Ok(decompose(scaled.as_ref(), full)?
            .map(|(u, s, vh)| (u, s.into_iter().map(|x| x / factor).collect(), vh)));
    }
    let svd = if full { a.svd() } else { a.thin_svd() }.map_err(|_| SVD_DID_NOT_CONVERGE)?;
    let s = (0..a.nrows().min(a.ncols())).map(|i| svd.S()[i]).collect();
    Ok(Some((svd.U().to_owned(), s, svd.V().transpose().to_owned())))
}

/// numpy's `svd(a, hermitian=True)`: `eigh`'s values made positive and sorted descending,
/// their signs moved to `Vh`.
fn hermitian_svd(a: MatRef<'_, f64>) -> Result<Usv, &'static str> {
    let n = a.nrows();
    let (values, u) = symmetric(a, false, true)?;
    let u = u.unwrap_or_else(|| Mat::zeros(n, n));
    let mut order: Vec<usize> = (0..n).collect();
    // numpy: argsort(|s|)[::-1].
    order.sort_by(|&i, &j| values[i].abs().total_cmp(&values[j].abs()));
    order.reverse();
    let s = order.iter().map(|&i| values[i].abs()).collect();
    let u_sorted = Mat::from_fn(n, n, |i, j| u[(i, order[j])]);
    let vh = Mat::from_fn(n, n, |i, j| {
        u[(j, order[i])] * 1f64.copysign(values[order[i]])
    });
    Ok((u_sorted, s, vh))
}

/// numpy's `svd` (`vectors`: `U, S, Vh`; else `S`).
pub fn svd(
    a: MatRef<'_, f64>,
    full: bool,
    vectors: bool,
    hermitian: bool,
    out: &mut [Vec<f64>],
) -> Result<(), &'static str> {
    let (m, n) = (a.nrows(), a.ncols());
    let min = m.min(n);
    if !vectors {
        out[0].extend(singular_values(a, hermitian)?);
        return Ok(());
    }
    if min == 0 {
        // numpy: the identity where a factor is square and not empty.
        if full {
            push_identity(m, &mut out[0]);
            push_identity(n, &mut out[2]);
        }
        return Ok(());
    }
    let (u, s, vh) = if hermitian {
        hermitian_svd(a)?
    } else {
        match decompose(a, full)? {
            Some(usv) => usv,
            None => {
                let (um, vn) = if full { (m, n) } else { (min, min) };
                push_nan(m * um, &mut out[0]);
                push_nan(min, &mut out[1]);
                push_nan(vn * n, &mut out[2]);
                return Ok(());
            }
        }
    };
    push(u.as_ref(), &mut out[0]);
    out[1].extend(s);
    push(vh.as_ref(), &mut out[2]);
    Ok(())
}

/// The singular values alone, descending (`hermitian`: through `eigh`, as numpy).
fn singular_values(a: MatRef<'_, f64>, hermitian: bool) -> Result<Vec<f64>, &'static str> {
    if hermitian {
        return Ok(hermitian_svd(a)?.1);
    }
    super::svd::singular_values(a).ok_or(SVD_DID_NOT_CONVERGE)
}

/// `V diag(1/s) U^T` over the singular values above `cutoff` (numpy's `pinv`).
fn pseudo_inverse(u: &Mat<f64>, s: &[f64], vh: &Mat<f64>, cutoff: f64) -> Mat<f64> {
    let (m, n) = (u.nrows(), vh.ncols());
    let inverse: Vec<f64> = s
        .iter()
        .map(|&x| if x > cutoff { 1.0 / x } else { 0.0 })
        .collect();
    Mat::from_fn(n, m, |i, j| {
        (0..s.len())
            .map(|k| vh[(k, i)] * inverse[k] * u[(j, k)])
            .sum()
    })
}

/// numpy's `pinv(a, rcond, hermitian)`.
pub fn pinv(
    a: MatRef<'_, f64>,
    rcond: f64,
    hermitian: bool,
    out: &mut [Vec<f64>],
) -> Result<(), &'static str> {
    let (m, n) = (a.nrows(), a.ncols());
    if m == 0 || n == 0 {
        return Ok(());
    }
    let usv = if hermitian {
        Some(hermitian_svd(a)?)
    } else {
        decompose(a, false)?
    };
    let Some((u, s, vh)) = usv else {
        push_nan(n * m, &mut out[0]);
        return Ok(());
    };
    let largest = s.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    push(pseudo_inverse(&u, &s, &vh, rcond * largest).as_ref(), &mut out[0]);
    Ok(())
}

/// numpy's `matrix_rank(a, tol | rtol, hermitian)`, as a float.
pub fn matrix_rank(
    a: MatRef<'_, f64>,
    tol: Tolerance,
    hermitian: bool,
    out: &mut [Vec<f64>],
) -> Result<(), &'static str> {
    let (m, n) = (a.nrows(), a.ncols());
    let s = singular_values(a, hermitian)?;
    // numpy: S.max(axis=-1, initial=0) * rtol.
    let largest = s.iter().copied().fold(0.0, f64::max);
    let threshold = match tol {
        Tolerance::Absolute(Real(t)) => t,
        Tolerance::Relative(Real(r)) => largest * r,
        Tolerance::Default(Real(eps)) => largest * (m.max(n) as f64 * eps),
    };
    out[0].push(s.iter().filter(|&&x| x > threshold).count() as f64);
    Ok(())
}

/// numpy's `lstsq(a, b, rcond)`: `x`, the residuals (`rank == n` and `m > n` only: the parts'
/// second buffer gets them; the caller reads their count from the rank), the rank, the
/// singular values. Worked as `gelsd` solves: the minimum-norm solution through the SVD.
pub fn lstsq(
    a: MatRef<'_, f64>,
    b: MatRef<'_, f64>,
    rcond: Option<Real>,
    out: &mut [Vec<f64>],
) -> Result<(), &'static str> {
    const ERROR: &str = "SVD did not converge in Linear Least Squares";
    let (m, n, k) = (a.nrows(), a.ncols(), b.ncols());
    let rcond = rcond.map_or(f64::EPSILON * m.max(n) as f64, |r| r.0);
    if m == 0 || n == 0 {
        out[0].extend(std::iter::repeat_n(0.0, n * k));
        out[2].push(0.0);
        return Ok(());
    }
    if any(b, f64::is_nan) {
        return Err(ERROR);
    }
    let Some((u, s, vh)) = decompose(a, false).map_err(|_| ERROR)? else {
        return Err(ERROR);
    };
    let largest = s.iter().copied().fold(0.0, f64::max);
    let cutoff = rcond * largest;
    let rank = s.iter().filter(|&&x| x > cutoff).count();
    let x = pseudo_inverse(&u, &s, &vh, cutoff) * b;
    push(x.as_ref(), &mut out[0]);
    if rank == n && m > n {
        let r = b - a * &x;
        out[1].extend((0..k).map(|j| (0..m).map(|i| r[(i, j)] * r[(i, j)]).sum::<f64>()));
    }
    out[2].push(rank as f64);
    out[3].extend(s);
    Ok(())
}
