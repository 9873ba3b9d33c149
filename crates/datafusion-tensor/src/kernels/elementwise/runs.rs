//! numpy's broadcasting of elementwise operands as runs: the result's row-major positions cut
//! into runs of its innermost contiguous dimension (after merging the dimensions every operand
//! walks contiguously), each operand entering a run at a start offset in its row and moving by
//! a fixed stride (0 where it is broadcast, 1 where it is row-major, another where it is
//! permuted). The runs are compiled once per query; the loops of [`map2`] and [`map3`] walk
//! them row by row with no index arithmetic inside a run (numpy's `NpyIter` with its inner
//! loop, arrow-rs's `binary` on slices).

use crate::kernels::simd::{extend_map, extend_zip};
use crate::shape::row_major_strides;

/// numpy's broadcast of several operand shapes into one, or numpy's ufunc error
/// `operands could not be broadcast together with shapes (2,3) (4,)` (numpy prints the shapes
/// without spaces there).
pub fn broadcast_operands(shapes: &[&[usize]]) -> Result<Vec<usize>, String> {
    let ndim = shapes.iter().map(|s| s.len()).max().unwrap_or(0);
    let mut out = vec![1usize; ndim];
    for shape in shapes {
        let pad = ndim - shape.len();
        for (axis, &dim) in shape.iter().enumerate() {
            let slot = &mut out[pad + axis];
            if *slot == dim || dim == 1 {
                continue;
            }
            if *slot == 1 {
                *slot = dim;
            } else {
                let listed: Vec<String> = shapes.iter().map(|s| numpy_shape(s)).collect();
                return Err(format!(
                    "operands could not be broadcast together with shapes {}",
                    listed.join(" ")
                ));
            }
        }
    }
    Ok(out)
}

/// A shape as numpy's broadcast error prints it: `(2,3)`, `(4,)`, `()`.
fn numpy_shape(shape: &[usize]) -> String {
    match shape {
        [d] => format!("({d},)"),
        _ => {
            let dims: Vec<String> = shape.iter().map(ToString::to_string).collect();
            format!("({})", dims.join(","))
        }
    }
}

/// The runs of a broadcast of several operands into one row-major result.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Runs {
    /// Elements of one result row.
    pub out_len: usize,
    /// Elements of one run (the merged innermost dimension); every run has this length.
    pub run_len: usize,
    /// For each operand, its start offset within its row of each run, in result order.
    pub starts: Vec<Vec<u32>>,
    /// For each operand, its stride within a run.
    pub strides: Vec<usize>,
}

impl Runs {
    /// The runs of operands of logical `shapes` laid out with `strides` (elements, in their
    /// rows) into `target`, the broadcast of the shapes.
    pub fn new(target: &[usize], operands: &[(Vec<usize>, Vec<usize>)]) -> Self {
        let out_len: usize = target.iter().product();
        let n = operands.len();
        // Each operand's stride along each result dimension (0 where broadcast).
        let mut strides: Vec<Vec<usize>> = operands
            .iter()
            .map(|(shape, strides)| {
                let pad = target.len() - shape.len();
                let mut out = vec![0usize; target.len()];
                for (axis, (&dim, &stride)) in shape.iter().zip(strides).enumerate() {
                    if dim != 1 {
                        out[pad + axis] = stride;
                    }
                }
                out
            })
            .collect();
        // Dimensions of length 1 move nothing; adjacent ones that every operand walks as one
        // (stride of the outer = stride of the inner times its length) merge.
        let mut dims: Vec<usize> = Vec::new();
        let keep: Vec<usize> = (0..target.len()).filter(|&d| target[d] != 1).collect();
        let mut merged: Vec<Vec<usize>> = vec![Vec::new(); n];
        for &d in &keep {
            let mergeable = !dims.is_empty()
                && (0..n).all(|k| {
                    let inner = strides[k][d];
                    let outer = *merged[k].last().unwrap_or(&0);
                    outer == inner * target[d]
                });
            if mergeable {
                let last = dims.len() - 1;
                dims[last] *= target[d];
                for (k, m) in merged.iter_mut().enumerate() {
                    let l = m.len() - 1;
                    m[l] = strides[k][d];
                }
            } else {
                dims.push(target[d]);
                for (k, m) in merged.iter_mut().enumerate() {
                    m.push(strides[k][d]);
                }
            }
        }
        strides.clear();
        if out_len == 0 {
            return Self {
                out_len: 0,
                run_len: 0,
                starts: vec![Vec::new(); n],
                strides: vec![0; n],
            };
        }
        let Some((&run_len, outer)) = dims.split_last() else {
            // A 0-d result (or every dimension of length 1): one run of one element.
            return Self {
                out_len,
                run_len: 1,
                starts: vec![vec![0]; n],
                strides: vec![0; n],
            };
        };
        let outer_count: usize = outer.iter().product();
        let outer_steps = row_major_strides(outer);
        let starts = merged
            .iter()
            .map(|m| {
                (0..outer_count)
                    .map(|run| {
                        outer
                            .iter()
                            .zip(&outer_steps)
                            .zip(m)
                            .map(|((&dim, &step), &stride)| (run / step) % dim * stride)
                            .sum::<usize>() as u32
                    })
                    .collect()
            })
            .collect();
        let inner = merged.iter().map(|m| *m.last().unwrap_or(&0)).collect();
        Self {
            out_len,
            run_len,
            starts,
            strides: inner,
        }
    }

    /// The runs of operands laid out row-major in their own logical `shapes`.
    pub fn row_major(target: &[usize], shapes: &[&[usize]]) -> Self {
        let operands: Vec<(Vec<usize>, Vec<usize>)> = shapes
            .iter()
            .map(|s| (s.to_vec(), row_major_strides(s)))
            .collect();
        Self::new(target, &operands)
    }

    /// Whether operand `k` reads one element everywhere (a 0-d operand, or one of one element).
    pub fn is_single(&self, k: usize) -> bool {
        self.strides[k] == 0 && self.starts[k].iter().all(|&s| s == 0)
    }

    /// Whether operand `k` is laid out as the result (one run per row, stride 1).
    pub fn is_identity(&self, k: usize) -> bool {
        self.run_len == self.out_len && (self.strides[k] == 1 || self.out_len <= 1)
    }
}

/// One operand of a loop: its values and how many of them one row holds (0: the same values
/// serve every row, a literal).
#[derive(Debug, Clone, Copy)]
pub struct Operand<'a, T> {
    /// The values.
    pub values: &'a [T],
    /// How many values one row holds (0: the same values serve every row).
    pub row_len: usize,
}

impl<T> Operand<'_, T> {
    /// Whether the values hold every row the runs read (`rows` rows, `extent` elements read in
    /// one row): the loops' slicing is then in bounds.
    fn covers(&self, rows: usize, extent: usize) -> bool {
        rows == 0 || extent == 0 || self.values.len() >= (rows - 1) * self.row_len + extent
    }
}

/// The largest offset plus one that operand `k` reads in a row.
fn extent(runs: &Runs, k: usize) -> usize {
    if runs.out_len == 0 {
        return 0;
    }
    let last = runs.starts[k].iter().copied().max().unwrap_or(0) as usize;
    last + (runs.run_len - 1) * runs.strides[k] + 1
}

/// `f` of the two operands at every position of `rows` result rows, row-major; `None` when the
/// values do not hold what the runs read (a broken invariant the caller reports).
#[allow(clippy::many_single_char_names)] // numpy's loop names: a, b, f, n
// Inlined into its callers (and its loops `simd::extend_*`), so a caller compiled for AVX2 or
// AVX-512 (`kernels::simd`) compiles its loops so too.
#[inline(always)]
pub fn map2<A: Copy, B: Copy, O>(
    runs: &Runs,
    rows: usize,
    a: Operand<'_, A>,
    b: Operand<'_, B>,
    f: impl Fn(A, B) -> O,
) -> Option<Vec<O>> {
    if !a.covers(rows, extent(runs, 0)) || !b.covers(rows, extent(runs, 1)) {
        return None;
    }
    let n = runs.run_len;
    let mut out = Vec::with_capacity(rows * runs.out_len);
    if runs.out_len == 0 {
        return Some(out);
    }
    let total = rows * n;
    // Both laid out as the result, every row: one loop over the whole batch.
    if runs.is_identity(0) && runs.is_identity(1) && a.row_len == n && b.row_len == n {
        extend_zip(&mut out, &a.values[..total], &b.values[..total], f);
        return Some(out);
    }
    // One operand laid out as the result, the other one value for the whole batch (a literal
    // number): one loop over the whole batch too.
    if runs.is_identity(0) && a.row_len == n && runs.is_single(1) && b.row_len == 0 {
        let y = b.values[0];
        extend_map(&mut out, &a.values[..total], #[inline(always)] |x| f(x, y));
        return Some(out);
    }
    if runs.is_identity(1) && b.row_len == n && runs.is_single(0) && a.row_len == 0 {
        let x = a.values[0];
        extend_map(&mut out, &b.values[..total], #[inline(always)] |y| f(x, y));
        return Some(out);
    }
    let (sa, sb) = (runs.strides[0], runs.strides[1]);
    for row in 0..rows {
        let (base_a, base_b) = (row * a.row_len, row * b.row_len);
        for (&start_a, &start_b) in runs.starts[0].iter().zip(&runs.starts[1]) {
            let (i, j) = (base_a + start_a as usize, base_b + start_b as usize);
            match (sa, sb) {
                #[allow(clippy::redundant_closure, reason = "inlined, where `&f` is called")]
                (1, 1) => extend_zip(
                    &mut out,
                    &a.values[i..i + n],
                    &b.values[j..j + n],
                    #[inline(always)]
                    |x, y| f(x, y),
                ),
                (1, 0) => {
                    let y = b.values[j];
                    extend_map(&mut out, &a.values[i..i + n], #[inline(always)] |x| f(x, y));
                }
                (0, 1) => {
                    let x = a.values[i];
                    extend_map(&mut out, &b.values[j..j + n], #[inline(always)] |y| f(x, y));
                }
                _ => out.extend(
                    strided(a.values, i, sa, n)
                        .zip(strided(b.values, j, sb, n))
                        .map(|(x, y)| f(x, y)),
                ),
            }
        }
    }
    Some(out)
}

/// `n` values of `values` from `start`, `stride` apart (0: the one value repeated).
fn strided<T: Copy>(
    values: &[T],
    start: usize,
    stride: usize,
    n: usize,
) -> impl Iterator<Item = T> {
    let first = values[start];
    let step = stride.max(1);
    let tail = if stride == 0 {
        &values[start..=start]
    } else {
        &values[start..=start + (n - 1) * stride]
    };
    tail.iter()
        .step_by(step)
        .copied()
        .chain(std::iter::repeat(first))
        .take(n)
}

/// `f` of three operands at every position of `rows` result rows (numpy's `where`).
#[allow(clippy::many_single_char_names)]
pub fn map3<A: Copy, B: Copy, C: Copy, O>(
    runs: &Runs,
    rows: usize,
    a: Operand<'_, A>,
    b: Operand<'_, B>,
    c: Operand<'_, C>,
    f: impl Fn(A, B, C) -> O,
) -> Option<Vec<O>> {
    if !a.covers(rows, extent(runs, 0))
        || !b.covers(rows, extent(runs, 1))
        || !c.covers(rows, extent(runs, 2))
    {
        return None;
    }
    let n = runs.run_len;
    let mut out = Vec::with_capacity(rows * runs.out_len);
    if runs.out_len == 0 {
        return Some(out);
    }
    let (sa, sb, sc) = (runs.strides[0], runs.strides[1], runs.strides[2]);
    for row in 0..rows {
        let bases = (row * a.row_len, row * b.row_len, row * c.row_len);
        for ((&start_a, &start_b), &start_c) in runs.starts[0]
            .iter()
            .zip(&runs.starts[1])
            .zip(&runs.starts[2])
        {
            let (i, j, k) = (
                bases.0 + start_a as usize,
                bases.1 + start_b as usize,
                bases.2 + start_c as usize,
            );
            out.extend(
                strided(a.values, i, sa, n)
                    .zip(strided(b.values, j, sb, n))
                    .zip(strided(c.values, k, sc, n))
                    .map(|((x, y), z)| f(x, y, z)),
            );
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The runs' reading, position by position, of two operands (naive numpy broadcasting as
    /// the reference: each result index mapped to each operand's index).
    fn naive(target: &[usize], a: &[usize], b: &[usize]) -> Vec<(usize, usize)> {
        let strides = |s: &[usize]| {
            let rm = row_major_strides(s);
            let pad = target.len() - s.len();
            let mut out = vec![0; target.len()];
            for (i, (&d, &st)) in s.iter().zip(&rm).enumerate() {
                if d != 1 {
                    out[pad + i] = st;
                }
            }
            out
        };
        let (sa, sb) = (strides(a), strides(b));
        let steps = row_major_strides(target);
        let total: usize = target.iter().product();
        (0..total)
            .map(|p| {
                let idx: Vec<usize> = steps
                    .iter()
                    .zip(target)
                    .map(|(&st, &d)| p / st % d)
                    .collect();
                let dot = |s: &[usize]| idx.iter().zip(s).map(|(i, s)| i * s).sum();
                (dot(&sa), dot(&sb))
            })
            .collect()
    }

    #[test]
    fn runs_read_what_numpy_broadcasting_reads() {
        let cases: &[(&[usize], &[usize])] = &[
            (&[2, 3], &[3]),
            (&[2, 3], &[2, 1]),
            (&[4, 1, 3], &[2, 1]),
            (&[2, 3, 4], &[2, 3, 4]),
            (&[], &[5]),
            (&[1, 1], &[3, 1, 2]),
            (&[0, 3], &[3]),
            (&[3, 1, 1], &[1, 1]),
        ];
        for (a, b) in cases {
            let target = broadcast_operands(&[a, b]).unwrap();
            let runs = Runs::row_major(&target, &[a, b]);
            let size = |s: &[usize]| s.iter().product::<usize>();
            let av: Vec<usize> = (0..size(a)).collect();
            let bv: Vec<usize> = (0..size(b)).collect();
            let got = map2(
                &runs,
                1,
                Operand {
                    values: &av,
                    row_len: av.len(),
                },
                Operand {
                    values: &bv,
                    row_len: bv.len(),
                },
                |x, y| (x, y),
            )
            .unwrap();
            assert_eq!(got, naive(&target, a, b), "{a:?} {b:?}");
        }
    }

    #[test]
    fn mismatch_in_numpy_words() {
        assert_eq!(
            broadcast_operands(&[&[2, 3], &[4]]).unwrap_err(),
            "operands could not be broadcast together with shapes (2,3) (4,)"
        );
    }
}
