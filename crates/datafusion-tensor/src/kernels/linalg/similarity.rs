//! Vector measures along one axis of two broadcast operands: `tensor_inner_product`,
//! `tensor_l2_distance`, `tensor_cosine_similarity`. The pairs of vectors a row holds are
//! planned once ([`VectorPlan`]: once per query for fixed shapes, once per combination of row
//! shapes for variable ones); the loops run over whole value buffers in float32 (float16
//! and float32 operands: float16 is converted a batch at a time into a reused buffer) or
//! float64, with eight partial sums so that the compiler vectorises them (with AVX2 where the CPU
//! has it, chosen at run time: [`Level`]): every row of a batch
//! ([`measure_rows`]) or one row at a time ([`measure_row`]).

use crate::kernels::simd::Level;
use crate::shape::{broadcast_strides, strided_offsets};

/// Which measure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Measure {
    /// `sum(a * b)`.
    InnerProduct,
    /// `sqrt(sum((a - b)^2))`.
    L2Distance,
    /// `sum(a * b) / (sqrt(sum(a * a)) * sqrt(sum(b * b)))` (NaN for a zero vector, as 0/0).
    CosineSimilarity,
}

/// The vector pairs of one row: the vector length and each operand's stride along it, and for
/// every result element where its vectors start in the operands' rows.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct VectorPlan {
    /// The vector length.
    pub len: usize,
    strides: [usize; 2],
    starts: Vec<(usize, usize)>,
    /// The highest position read in a row of each operand, plus one (0 when none is read).
    extents: [usize; 2],
}

impl VectorPlan {
    /// The plan for operands of these logical shapes and strides, broadcast to `target`,
    /// measured along `axis` of `target`.
    pub fn new(operands: [(&[usize], &[usize]); 2], target: &[usize], axis: usize) -> Self {
        let [a, b] = operands.map(|(shape, strides)| broadcast_strides(shape, strides, target));
        let outer = without_axis(target, axis);
        let a_starts = strided_offsets(&outer, &without_axis(&a, axis));
        let b_starts = strided_offsets(&outer, &without_axis(&b, axis));
        let mut plan = Self {
            len: target.get(axis).copied().unwrap_or(1),
            strides: [
                a.get(axis).copied().unwrap_or(0),
                b.get(axis).copied().unwrap_or(0),
            ],
            starts: a_starts.into_iter().zip(b_starts).collect(),
            extents: [0; 2],
        };
        plan.extents = plan.reach();
        plan
    }

    /// The number of results per row.
    pub fn output_len(&self) -> usize {
        self.starts.len()
    }

    /// The highest position read in a row of each operand, plus one (0 when none is read).
    fn reach(&self) -> [usize; 2] {
        let last = self.len.saturating_sub(1);
        let mut extents = [0usize; 2];
        if self.len == 0 {
            return extents;
        }
        for &(a, b) in &self.starts {
            extents[0] = extents[0].max(a + last * self.strides[0] + 1);
            extents[1] = extents[1].max(b + last * self.strides[1] + 1);
        }
        extents
    }
}

/// `values` without the one at `axis` (the result shape of a measure along it).
pub fn without_axis<T: Copy>(values: &[T], axis: usize) -> Vec<T> {
    values
        .iter()
        .enumerate()
        .filter(|&(d, _)| d != axis)
        .map(|(_, &x)| x)
        .collect()
}

/// A float type the measures are computed in.
pub trait Float:
    Copy
    + Default
    + std::ops::Add<Output = Self>
    + std::ops::Mul<Output = Self>
    + std::ops::Sub<Output = Self>
    + std::ops::Div<Output = Self>
    + 'static
{
    /// The square root.
    #[must_use]
    fn sqrt(self) -> Self;
}

impl Float for f32 {
    fn sqrt(self) -> Self {
        f32::sqrt(self)
    }
}

impl Float for f64 {
    fn sqrt(self) -> Self {
        f64::sqrt(self)
    }
}

/// An operand's element read in the type `F` a measure is worked in. Exactly: float32 read as
/// float64 is exact, so a float32 operand measured against a float64 one (an embedding column
/// against a float64 query literal) gives the bits it would give cast to float64 first,
/// without the cast's buffer of the whole column.
pub trait Operand<F>: Copy + Send + Sync + 'static {
    /// The element in `F`.
    fn get(self) -> F;
}

impl Operand<f32> for f32 {
    #[inline(always)]
    fn get(self) -> f32 {
        self
    }
}

impl Operand<f64> for f64 {
    #[inline(always)]
    fn get(self) -> f64 {
        self
    }
}

impl Operand<f64> for f32 {
    #[inline(always)]
    fn get(self) -> f64 {
        f64::from(self)
    }
}

const LANES: usize = 8;

/// The sum of `term(i)` over `0..len`, in eight partial sums added pairwise at the end.
#[inline(always)]
fn lanes_sum<F: Float>(len: usize, mut term: impl FnMut(usize) -> F) -> F {
    let [sum] = lanes_sums(len, |i| [term(i)]);
    sum
}

/// `N` sums of `terms(i)` over `0..len` in one pass, each in eight partial sums (lane `l`
/// takes the terms `i` with `i % 8 == l`) added pairwise at the end: each sum is the same
/// whether it is taken alone ([`lanes_sum`]) or beside others.
#[inline(always)]
fn lanes_sums<F: Float, const N: usize>(
    len: usize,
    mut terms: impl FnMut(usize) -> [F; N],
) -> [F; N] {
    let mut acc = [[F::default(); LANES]; N];
    let whole = len - len % LANES;
    let mut i = 0;
    while i < whole {
        for lane in 0..LANES {
            for (sum, term) in acc.iter_mut().zip(terms(i + lane)) {
                sum[lane] = sum[lane] + term;
            }
        }
        i += LANES;
    }
    for (lane, k) in (whole..len).enumerate() {
        for (sum, term) in acc.iter_mut().zip(terms(k)) {
            sum[lane] = sum[lane] + term;
        }
    }
    acc.map(|a| ((a[0] + a[1]) + (a[2] + a[3])) + ((a[4] + a[5]) + (a[6] + a[7])))
}

/// The squared norms of a constant operand's vectors, for cosine: each the sum the loop
/// would take (`lanes_sum` of its squares, the same bits alone or beside the other sums), so
/// taken once for every row.
#[derive(Clone, Copy)]
enum Known<'k, F> {
    /// Neither operand is constant (or the measure is not cosine).
    Neither,
    /// Operand a's, per vector pair of a row.
    A(&'k [F]),
    /// Operand b's, per vector pair of a row.
    B(&'k [F]),
}

/// The measure of two contiguous vectors; `known` a constant operand's squared norm.
#[inline(always)]
fn contiguous<F: Float, A: Operand<F>, B: Operand<F>>(
    measure: Measure,
    lhs: &[A],
    rhs: &[B],
    known: Option<(bool, F)>,
) -> F {
    let len = lhs.len().min(rhs.len());
    let (lhs, rhs) = (&lhs[..len], &rhs[..len]);
    let x = |i: usize| lhs[i].get();
    let y = |i: usize| rhs[i].get();
    match measure {
        Measure::InnerProduct => lanes_sum(len, |i| x(i) * y(i)),
        Measure::L2Distance => lanes_sum(len, |i| {
            let d = x(i) - y(i);
            d * d
        })
        .sqrt(),
        Measure::CosineSimilarity => {
            // One pass over both vectors, not three (the same sums in the same order); a
            // constant operand's squared norm taken once.
            let (dot, aa, bb) = match known {
                Some((true, aa)) => {
                    let [dot, bb] = lanes_sums(len, |i| {
                        let (x, y) = (x(i), y(i));
                        [x * y, y * y]
                    });
                    (dot, aa, bb)
                }
                Some((false, bb)) => {
                    let [dot, aa] = lanes_sums(len, |i| {
                        let x = x(i);
                        [x * y(i), x * x]
                    });
                    (dot, aa, bb)
                }
                None => {
                    let [dot, aa, bb] = lanes_sums(len, |i| {
                        let (x, y) = (x(i), y(i));
                        [x * y, x * x, y * y]
                    });
                    (dot, aa, bb)
                }
            };
            dot / (aa.sqrt() * bb.sqrt())
        }
    }
}

/// The measure of two strided vectors.
fn strided<F: Float, A: Operand<F>, B: Operand<F>>(
    measure: Measure,
    lhs: &[A],
    rhs: &[B],
    plan: &VectorPlan,
    at: (usize, usize),
    known: Option<(bool, F)>,
) -> F {
    let [lhs_stride, rhs_stride] = plan.strides;
    let x = |i: usize| lhs[at.0 + i * lhs_stride].get();
    let y = |i: usize| rhs[at.1 + i * rhs_stride].get();
    match measure {
        Measure::InnerProduct => lanes_sum(plan.len, |i| x(i) * y(i)),
        Measure::L2Distance => lanes_sum(plan.len, |i| {
            let d = x(i) - y(i);
            d * d
        })
        .sqrt(),
        Measure::CosineSimilarity => {
            let dot = lanes_sum(plan.len, |i| x(i) * y(i));
            let aa = match known {
                Some((true, aa)) => aa,
                _ => lanes_sum(plan.len, |i| x(i) * x(i)),
            };
            let bb = match known {
                Some((false, bb)) => bb,
                _ => lanes_sum(plan.len, |i| y(i) * y(i)),
            };
            dot / (aa.sqrt() * bb.sqrt())
        }
    }
}

/// The measures of one row's vector pairs into `out`: the row's operands start at `a[0]` and
/// `b[0]`.
#[inline(always)]
fn push_row<F: Float, A: Operand<F>, B: Operand<F>>(
    measure: Measure,
    plan: &VectorPlan,
    a: &[A],
    b: &[B],
    known: Known<'_, F>,
    out: &mut Vec<F>,
) {
    let contiguous_vectors = plan.strides == [1, 1];
    for (k, &(sa, sb)) in plan.starts.iter().enumerate() {
        let known = match known {
            Known::Neither => None,
            Known::A(norms) => norms.get(k).map(|&n| (true, n)),
            Known::B(norms) => norms.get(k).map(|&n| (false, n)),
        };
        out.push(if contiguous_vectors {
            // Within the extents checked; an empty vector may start past the values.
            let x = a.get(sa..sa + plan.len).unwrap_or(&[]);
            let y = b.get(sb..sb + plan.len).unwrap_or(&[]);
            contiguous(measure, x, y, known)
        } else {
            strided(measure, a, b, plan, (sa, sb), known)
        });
    }
}

/// The squared norms of operand `k`'s vectors in a row starting at `row[0]` (per vector
/// pair), as the measure's loop sums them.
fn squared_norms<F: Float, T: Operand<F>>(plan: &VectorPlan, row: &[T], k: usize) -> Vec<F> {
    let stride = plan.strides[k];
    plan.starts
        .iter()
        .map(|&starts| {
            let start = if k == 0 { starts.0 } else { starts.1 };
            lanes_sum(plan.len, |i| {
                let x = row[start + i * stride].get();
                x * x
            })
        })
        .collect()
}

/// The measures of `rows` rows into `out`: operand `k`'s row `r` starts at `r * row_len[k]`
/// in `values[k]` (`row_len` 0: one row for every row, a constant).
///
/// # Errors
/// A message when an operand's values end before its rows do (a broken invariant).
pub fn measure_rows<F: Float, A: Operand<F>, B: Operand<F>>(
    measure: Measure,
    plan: &VectorPlan,
    values: (&[A], &[B]),
    row_len: [usize; 2],
    rows: usize,
    out: &mut Vec<F>,
) -> Result<(), String> {
    measure_rows_at(Level::best(), measure, plan, values, row_len, rows, out)
}

/// [`measure_rows`] with the loops compiled for `level`.
fn measure_rows_at<F: Float, A: Operand<F>, B: Operand<F>>(
    level: Level,
    measure: Measure,
    plan: &VectorPlan,
    values: (&[A], &[B]),
    row_len: [usize; 2],
    rows: usize,
    out: &mut Vec<F>,
) -> Result<(), String> {
    for (k, held) in [values.0.len(), values.1.len()].into_iter().enumerate() {
        let needed = if rows == 0 || plan.extents[k] == 0 {
            0
        } else {
            (rows - 1) * row_len[k] + plan.extents[k]
        };
        if needed > held {
            return Err(format!("operand {k} holds {held} values, {needed} needed"));
        }
    }
    out.reserve(rows * plan.output_len());
    let batch = Batch {
        measure,
        plan,
        values,
        row_len,
        rows,
    };
    match level {
        Level::Portable => all_rows(batch, out),
        // SAFETY: `Avx2` is only chosen where the CPU has AVX2 (`Level::best`, `available`).
        #[cfg(target_arch = "x86_64")]
        Level::Avx2 => unsafe { all_rows_avx2(batch, out) },
        // SAFETY: `Avx512` is only chosen where the CPU has AVX-512F.
        #[cfg(target_arch = "x86_64")]
        Level::Avx512 => unsafe { all_rows_avx512(batch, out) },
    }
    Ok(())
}

/// The rows [`measure_rows`] measures (checked against the plan's extents).
#[derive(Clone, Copy)]
struct Batch<'a, A, B> {
    measure: Measure,
    plan: &'a VectorPlan,
    values: (&'a [A], &'a [B]),
    row_len: [usize; 2],
    rows: usize,
}

/// The loop of [`measure_rows_at`], inlined into each level's function.
#[inline(always)]
fn all_rows<F: Float, A: Operand<F>, B: Operand<F>>(batch: Batch<'_, A, B>, out: &mut Vec<F>) {
    let Batch {
        measure,
        plan,
        values,
        row_len,
        rows,
    } = batch;
    // A constant operand of cosine (the query vector): its norms once, not once per row.
    let norms: Vec<F>;
    let known = if measure != Measure::CosineSimilarity || rows < 2 || plan.len == 0 {
        Known::Neither
    } else if row_len[1] == 0 {
        norms = squared_norms(plan, values.1, 1);
        Known::B(&norms)
    } else if row_len[0] == 0 {
        norms = squared_norms(plan, values.0, 0);
        Known::A(&norms)
    } else {
        Known::Neither
    };
    for row in 0..rows {
        push_row(
            measure,
            plan,
            values.0.get(row * row_len[0]..).unwrap_or(&[]),
            values.1.get(row * row_len[1]..).unwrap_or(&[]),
            known,
            out,
        );
    }
}

/// [`all_rows`] compiled with AVX2.
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn all_rows_avx2<F: Float, A: Operand<F>, B: Operand<F>>(
    batch: Batch<'_, A, B>,
    out: &mut Vec<F>,
) {
    all_rows(batch, out);
}

/// [`all_rows`] compiled with AVX-512F: the eight float64 partial sums of a measure take one
/// 512-bit register (two 256-bit ones with AVX2), the float32-to-float64 widening one
/// instruction per eight values.
///
/// # Safety
/// The CPU must support AVX-512F.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn all_rows_avx512<F: Float, A: Operand<F>, B: Operand<F>>(
    batch: Batch<'_, A, B>,
    out: &mut Vec<F>,
) {
    all_rows(batch, out);
}

/// The measures of one row into `out`: the row of operand `k` starts at `starts[k]` in
/// `values[k]`.
///
/// # Errors
/// A message when an operand's values end before the row does (a broken invariant).
pub fn measure_row<F: Float, A: Operand<F>, B: Operand<F>>(
    measure: Measure,
    plan: &VectorPlan,
    values: (&[A], &[B]),
    starts: [usize; 2],
    out: &mut Vec<F>,
) -> Result<(), String> {
    // One row at a time (variable shapes): too short a loop for the dispatch to pay.
    push_row(
        measure,
        plan,
        row_at(values.0, starts[0], plan.extents[0], 0)?,
        row_at(values.1, starts[1], plan.extents[1], 1)?,
        Known::Neither,
        out,
    );
    Ok(())
}

/// Operand `k`'s values from `start` on, which must hold its `extent`.
fn row_at<T>(values: &[T], start: usize, extent: usize, k: usize) -> Result<&[T], String> {
    let needed = start.saturating_add(extent);
    match values.get(start..) {
        Some(row) if extent == 0 || needed <= values.len() => Ok(row),
        _ => Err(format!(
            "operand {k} holds {} values, {needed} needed",
            values.len()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every level this machine has, forced one at a time, gives the portable loop's bits
    /// (the same operations in the same order), for each measure, float32 and float64, vector
    /// lengths around the eight lanes, contiguous and strided operands.
    #[test]
    fn every_level_gives_the_portable_bits() {
        fn check<F: Float + Operand<F> + std::fmt::Debug + PartialEq>(make: impl Fn(u64) -> F) {
            let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
            let mut next = move || {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                make(seed % 2001)
            };
            for len in [0usize, 1, 7, 8, 9, 31, 256, 257] {
                for (a_strides, target_axis) in [(&[len, 1][..], 1usize), (&[1, 3][..], 1)] {
                    let rows = 5;
                    let shape = [3usize, len];
                    let plan =
                        VectorPlan::new([(&shape, a_strides), (&[len], &[1])], &shape, target_axis);
                    let row_len = 3 * len.max(1);
                    let a: Vec<F> = (0..rows * row_len + 3 * len).map(|_| next()).collect();
                    let b: Vec<F> = (0..len).map(|_| next()).collect();
                    for measure in [
                        Measure::InnerProduct,
                        Measure::L2Distance,
                        Measure::CosineSimilarity,
                    ] {
                        let run = |level| {
                            let mut out = Vec::new();
                            measure_rows_at(
                                level,
                                measure,
                                &plan,
                                (&a[..], &b[..]),
                                [row_len, 0],
                                rows,
                                &mut out,
                            )
                            .unwrap();
                            out
                        };
                        let portable = run(Level::Portable);
                        for level in Level::available() {
                            let got = run(level);
                            assert!(
                                got.iter()
                                    .zip(&portable)
                                    .all(|(g, p)| { format!("{g:?}") == format!("{p:?}") }),
                                "{level:?} {measure:?} len {len}: {got:?} vs {portable:?}"
                            );
                        }
                    }
                }
            }
        }
        // Values in [-1, 1] with a few exact zeros.
        check(|v| (v as f32 - 1000.0) / 1000.0);
        check(|v| (v as f64 - 1000.0) / 997.0);
    }

    /// The measures at `level`, in float64.
    fn run<A: Operand<f64>>(
        level: Level,
        measure: Measure,
        plan: &VectorPlan,
        values: (&[A], &[f64]),
        row_len: [usize; 2],
        rows: usize,
    ) -> Vec<f64> {
        let mut out = Vec::new();
        measure_rows_at(level, measure, plan, values, row_len, rows, &mut out).unwrap();
        out
    }

    /// A float32 operand against a float64 one, at every level: the bits of the float32
    /// operand cast to float64 first (the path it replaces).
    #[test]
    fn float32_against_float64_gives_the_cast_bits() {
        let len = 259;
        let plan = VectorPlan::new([(&[len], &[1]), (&[len], &[1])], &[len], 0);
        let rows = 4;
        let a: Vec<f32> = (0..rows * len)
            .map(|i| ((i * 7919) % 2003) as f32 / 1001.0 - 1.0)
            .collect();
        let widened: Vec<f64> = a.iter().map(|&x| f64::from(x)).collect();
        let b: Vec<f64> = (0..len).map(|i| (i as f64).sin() / 3.0).collect();
        for measure in [
            Measure::InnerProduct,
            Measure::L2Distance,
            Measure::CosineSimilarity,
        ] {
            for level in Level::available() {
                let bits = |out: Vec<f64>| out.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                let mixed = bits(run(level, measure, &plan, (&a, &b), [len, 0], rows));
                let cast = bits(run(level, measure, &plan, (&widened, &b), [len, 0], rows));
                assert_eq!(mixed, cast, "{level:?} {measure:?}");
            }
        }
    }

    /// Cosine against a constant operand (either side, contiguous or strided) takes that
    /// operand's norms once; the bits are those of each row measured alone.
    #[test]
    fn a_constant_operands_norms_taken_once_give_the_same_bits() {
        let len = 37;
        let rows = 9;
        #[allow(clippy::cast_precision_loss)]
        let values: Vec<f64> = (0..rows * len * 2)
            .map(|i| ((i * 7919 % 1013) as f64 - 506.0) / 37.0)
            .collect();
        #[allow(clippy::cast_precision_loss)]
        let constant: Vec<f64> = (0..len * 2)
            .map(|i| ((i * 31 % 17) as f64 - 8.0) / 3.0)
            .collect();
        // Contiguous vectors, and every other value of rows of twice the length.
        for stride in [1, 2] {
            let (shape, strides) = ([len], [stride]);
            let plan = VectorPlan::new([(&shape, &strides), (&shape, &strides)], &[len], 0);
            for constant_is_b in [true, false] {
                let (values_pair, row_len) = if constant_is_b {
                    ((&values[..], &constant[..]), [len * stride, 0])
                } else {
                    ((&constant[..], &values[..]), [0, len * stride])
                };
                let mut all: Vec<f64> = Vec::new();
                measure_rows(
                    Measure::CosineSimilarity,
                    &plan,
                    values_pair,
                    row_len,
                    rows,
                    &mut all,
                )
                .unwrap();
                assert_eq!(all.len(), rows);
                for (row, &got) in all.iter().enumerate() {
                    let starts = [row * row_len[0], row * row_len[1]];
                    let mut one: Vec<f64> = Vec::new();
                    measure_row(
                        Measure::CosineSimilarity,
                        &plan,
                        values_pair,
                        starts,
                        &mut one,
                    )
                    .unwrap();
                    assert_eq!(
                        got.to_bits(),
                        one[0].to_bits(),
                        "stride {stride}, row {row}"
                    );
                }
            }
        }
    }

    #[test]
    #[allow(clippy::float_cmp)] // exact: the values are exact in any order
    fn measures_against_one_vector() {
        // Two rows of [2, 3] against one vector of 3.
        let plan = VectorPlan::new([(&[2, 3], &[3, 1]), (&[3], &[1])], &[2, 3], 1);
        let a = [
            1.0f32, 2.0, 2.0, 0.0, 0.0, 0.0, 3.0, 0.0, 4.0, 1.0, 1.0, 1.0,
        ];
        let b = [1.0f32, 0.0, 0.0];
        let mut out: Vec<f32> = Vec::new();
        measure_rows(
            Measure::InnerProduct,
            &plan,
            (&a[..], &b[..]),
            [6, 0],
            2,
            &mut out,
        )
        .unwrap();
        assert_eq!(out, vec![1.0, 0.0, 3.0, 1.0]);
        out.clear();
        measure_rows(
            Measure::L2Distance,
            &plan,
            (&a[..], &b[..]),
            [6, 0],
            2,
            &mut out,
        )
        .unwrap();
        assert_eq!(out[0], 8.0f32.sqrt());
        out.clear();
        measure_rows(
            Measure::CosineSimilarity,
            &plan,
            (&a[..], &b[..]),
            [6, 0],
            2,
            &mut out,
        )
        .unwrap();
        assert_eq!(out[0], 1.0 / 3.0);
        assert!(out[1].is_nan());
        assert_eq!(out[2], 3.0 / 5.0);
        assert!(
            measure_rows(
                Measure::CosineSimilarity,
                &plan,
                (&a[..5], &b[..]),
                [6, 0],
                2,
                &mut out
            )
            .is_err()
        );
    }

    #[test]
    #[allow(clippy::float_cmp)] // exact
    fn one_row_read_at_its_starts() {
        let plan = VectorPlan::new([(&[2], &[1]), (&[2], &[1])], &[2], 0);
        let a = [9.0f64, 3.0, 4.0];
        let b = [0.0f64, 0.0];
        let mut out: Vec<f64> = Vec::new();
        measure_row(
            Measure::L2Distance,
            &plan,
            (&a[..], &b[..]),
            [1, 0],
            &mut out,
        )
        .unwrap();
        assert_eq!(out, vec![5.0]);
        // Values that end before the row does are an error, not a panic.
        assert!(
            measure_row(
                Measure::L2Distance,
                &plan,
                (&a[..], &b[..]),
                [2, 0],
                &mut out
            )
            .is_err()
        );
        assert!(
            measure_row(
                Measure::L2Distance,
                &plan,
                (&a[..], &b[..]),
                [9, 0],
                &mut out
            )
            .is_err()
        );
        // An empty vector at the end of the values.
        let empty = VectorPlan::new([(&[0], &[1]), (&[0], &[1])], &[0], 0);
        measure_row(
            Measure::InnerProduct,
            &empty,
            (&a[..], &b[..]),
            [3, 2],
            &mut out,
        )
        .unwrap();
        assert_eq!(out, vec![5.0, 0.0]);
    }
}
