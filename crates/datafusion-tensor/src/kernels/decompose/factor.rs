//! `cholesky` and `qr`, through `faer`'s LLT and Householder QR.
//!
//! numpy's `cholesky` reads the lower triangle (`potrf` with `UPLO='L'`) and zeroes the other;
//! `upper` returns the transpose. Its `qr` is LAPACK's Householder QR (`geqrf`); the signs of
//! `faer`'s columns of `Q` (and rows of `R`) may differ from LAPACK's, as the factorisation
//! allows: `Q R` and `Q`'s orthogonality are what agree.
#![allow(
    clippy::many_single_char_names,
    reason = "linear algebra's names: a, b, m, n, k, u, s, vh"
)]

use faer::linalg::solvers::Qr;
use faer::{MatRef, Side};

use super::{NOT_POSITIVE_DEFINITE, QrMode, push, push_identity};

/// numpy's `cholesky(a, upper=upper)`.
pub fn cholesky(
    a: MatRef<'_, f64>,
    upper: bool,
    out: &mut [Vec<f64>],
) -> Result<(), &'static str> {
    let n = a.nrows();
    if n == 0 {
        return Ok(());
    }
    // LAPACK refuses a NaN pivot as not positive; `faer` is checked here the same way.
    let llt = a.llt(Side::Lower).map_err(|_| NOT_POSITIVE_DEFINITE)?;
    let l = llt.L();
    if (0..n).any(|i| l[(i, i)].partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater)) {
        return Err(NOT_POSITIVE_DEFINITE);
    }
    let out = &mut out[0];
    for i in 0..n {
        for j in 0..n {
            let (r, c) = if upper { (j, i) } else { (i, j) };
            out.push(if c <= r { l[(r, c)] } else { 0.0 });
        }
    }
    Ok(())
}

/// numpy's `qr(a, mode)`: `Q` then `R` (or `R` alone).
pub fn qr(a: MatRef<'_, f64>, mode: QrMode, out: &mut [Vec<f64>]) {
    let (m, n) = (a.nrows(), a.ncols());
    let min = m.min(n);
    // R's rows: numpy's `triu(a[..., :mc, :])`.
    let r_rows = if mode == QrMode::Complete { m } else { min };
    if min == 0 {
        // numpy's Q of an empty matrix: the identity (complete) or nothing.
        if mode == QrMode::Complete {
            push_identity(m, &mut out[0]);
        }
        let r = usize::from(mode != QrMode::R);
        out[r].extend(std::iter::repeat_n(0.0, r_rows * n));
        return;
    }
    let qr: Qr<f64> = a.qr();
    let r_part = match mode {
        QrMode::R => 0,
        QrMode::Reduced => {
            push(qr.compute_thin_Q().as_ref(), &mut out[0]);
            1
        }
        QrMode::Complete => {
            push(qr.compute_Q().as_ref(), &mut out[0]);
            1
        }
    };
    let r = qr.R();
    let out = &mut out[r_part];
    for i in 0..r_rows {
        for j in 0..n {
            out.push(if j >= i && i < r.nrows() { r[(i, j)] } else { 0.0 });
        }
    }
}
