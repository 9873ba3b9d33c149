//! One side's vectors in the type the function computes in, their norms, the matrix product
//! of two sides' vectors, and each pair's interval ([`Bounds`]).

use std::ops::Range;

use arrow::array::{Array, ArrayRef, AsArray, FixedSizeListArray};
use arrow::compute::cast;
use arrow::datatypes::{DataType, Float32Type, Float64Type};
use arrow::error::ArrowError;

use crate::kernels::linalg::gemm::Float;
use crate::kernels::linalg::similarity::Measure;

/// The type the function computes in: float32 for float16 and float32 results, float64 for
/// float64 results (integers are measured in float64).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ComputeType {
    /// float32 (float16 operands are widened to it exactly).
    F32,
    /// float64.
    F64,
}

impl ComputeType {
    /// The compute type of a function whose result is of type `result`.
    pub fn for_result(result: &DataType) -> Option<Self> {
        match result {
            DataType::Float16 | DataType::Float32 => Some(Self::F32),
            DataType::Float64 => Some(Self::F64),
            _ => None,
        }
    }

    fn data_type(self) -> DataType {
        match self {
            Self::F32 => DataType::Float32,
            Self::F64 => DataType::Float64,
        }
    }

    /// The unit roundoff.
    fn unit(self) -> f64 {
        match self {
            Self::F32 => f64::from(f32::EPSILON) / 2.0,
            Self::F64 => f64::EPSILON / 2.0,
        }
    }

    /// The smallest subnormal: the absolute error of an operation whose result underflows.
    fn tiny(self) -> f64 {
        match self {
            Self::F32 => f64::from(f32::from_bits(1)),
            Self::F64 => f64::from_bits(1),
        }
    }

    /// The largest norm whose sums of squares and products stay far from overflow, and the
    /// smallest a cosine divides by with a bounded absolute error.
    fn norm_range(self) -> (f64, f64) {
        match self {
            Self::F32 => (2f64.powi(-40), 2f64.powi(40)),
            Self::F64 => (2f64.powi(-400), 2f64.powi(400)),
        }
    }
}

/// What a row's vector allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowState {
    /// NULL: its pairs are NULL.
    Null,
    /// A NaN, an infinity, or a norm outside [`ComputeType::norm_range`]: its pairs are
    /// measured by the function.
    Unsafe,
    /// Bounded.
    Safe,
}

/// The vectors of one side: `rows` rows of `len` values in the compute type, row-major.
#[derive(Debug)]
pub struct Vectors {
    /// The vector length.
    pub len: usize,
    /// The number of rows.
    pub rows: usize,
    values: ArrayRef,
    /// Each row's L2 norm (float64).
    pub norms: Vec<f64>,
    /// Each row's squared norm (float64).
    pub squares: Vec<f64>,
    /// What each row allows.
    pub state: Vec<RowState>,
}

impl Vectors {
    /// The rows of `list` (a fixed-size list of numbers, each row one vector) in `compute`,
    /// for `measure` (cosine also needs norms away from zero).
    ///
    /// # Errors
    /// When the values cannot be cast to the compute type.
    pub fn new(
        list: &FixedSizeListArray,
        compute: ComputeType,
        measure: Measure,
    ) -> Result<Self, ArrowError> {
        let len = usize::try_from(list.value_length()).unwrap_or(0);
        let rows = list.len();
        let start = list.offset() * len;
        let values = list.values().slice(start, rows * len);
        let values = cast(&values, &compute.data_type())?;
        let mut vectors = Self {
            len,
            rows,
            values,
            norms: Vec::with_capacity(rows),
            squares: Vec::with_capacity(rows),
            state: Vec::with_capacity(rows),
        };
        let (low, high) = compute.norm_range();
        let low = if measure == Measure::CosineSimilarity {
            low
        } else {
            0.0
        };
        for row in 0..rows {
            let square = match compute {
                ComputeType::F32 => square_sum(&vectors.f32s()[row * len..(row + 1) * len]),
                ComputeType::F64 => square_sum(&vectors.f64s()[row * len..(row + 1) * len]),
            };
            let norm = square.sqrt();
            vectors.squares.push(square);
            vectors.norms.push(norm);
            vectors.state.push(if list.is_null(row) {
                RowState::Null
            } else if norm.is_finite() && norm <= high && norm >= low {
                RowState::Safe
            } else {
                RowState::Unsafe
            });
        }
        Ok(vectors)
    }

    fn f32s(&self) -> &[f32] {
        self.values
            .as_primitive_opt::<Float32Type>()
            .map_or(&[], |a| a.values())
    }

    fn f64s(&self) -> &[f64] {
        self.values
            .as_primitive_opt::<Float64Type>()
            .map_or(&[], |a| a.values())
    }
}

/// The sum of squares in float64, in eight partial sums (vectorised).
fn square_sum<T: Copy + Into<f64>>(values: &[T]) -> f64 {
    let mut lanes = [0f64; 8];
    let mut chunks = values.chunks_exact(8);
    for chunk in &mut chunks {
        for (lane, &x) in lanes.iter_mut().zip(chunk) {
            let x: f64 = x.into();
            *lane += x * x;
        }
    }
    for (lane, &x) in lanes.iter_mut().zip(chunks.remainder()) {
        let x: f64 = x.into();
        *lane += x * x;
    }
    lanes.iter().sum()
}

/// The inner products of a block of items with every query, row-major (items x queries), in
/// the compute type.
#[derive(Debug)]
pub enum Dots {
    /// float32 products.
    F32(Vec<f32>),
    /// float64 products.
    F64(Vec<f64>),
}

/// The inner products of items `rows` with every query into `out`, one `sgemm`/`dgemm` per
/// call (numpy's `E @ Q.T`; the per-pair loop of the functions took 4x as long at 128
/// values). The vectors are of one length and compute type (the caller's).
pub fn dot_block(items: &Vectors, rows: Range<usize>, queries: &Vectors, out: &mut Dots) {
    let take = rows.start * items.len..rows.end * items.len;
    if items.values.data_type() == &DataType::Float32 {
        let mut products = match std::mem::replace(out, Dots::F64(Vec::new())) {
            Dots::F32(products) => products,
            Dots::F64(_) => Vec::new(),
        };
        let block = items.f32s().get(take).unwrap_or(&[]);
        products_of(block, queries.f32s(), items.len, &mut products);
        *out = Dots::F32(products);
    } else {
        let mut products = match std::mem::replace(out, Dots::F32(Vec::new())) {
            Dots::F64(products) => products,
            Dots::F32(_) => Vec::new(),
        };
        let block = items.f64s().get(take).unwrap_or(&[]);
        products_of(block, queries.f64s(), items.len, &mut products);
        *out = Dots::F64(products);
    }
}

/// `block @ queries.T` (both row-major, rows of `len` values) into `products`.
fn products_of<F: Float>(block: &[F], queries: &[F], len: usize, products: &mut Vec<F>) {
    let items = block.len().checked_div(len).unwrap_or(0);
    let rows = queries.len().checked_div(len).unwrap_or(0);
    products.clear();
    products.resize(items * rows, F::default());
    if products.is_empty() {
        return;
    }
    // SAFETY: `block` holds items x len values (row stride len), `queries` rows x len (read
    // transposed: row stride 1, column stride len), `products` items x rows; the product
    // reads and writes within them.
    unsafe {
        F::gemm(
            [items, len, rows],
            block.as_ptr(),
            [len, 1],
            queries.as_ptr(),
            [1, len],
            F::default(),
            products.as_mut_ptr(),
            [rows, 1],
        );
    }
}

/// A lower bound of a pair's rank that needs no square root, and the threshold it must
/// stay under ([`Prefilter::threshold`]) for the pair to be looked at: most pairs are
/// dropped by it alone. Conservative: a pair it drops ranks strictly after the group's
/// threshold (the bounds of [`Bounds`], widened once more).
#[derive(Debug, Clone, Copy)]
pub struct Prefilter {
    bounds: Bounds,
}

impl Prefilter {
    /// The prefilter of `bounds`.
    pub fn new(bounds: Bounds) -> Self {
        Self { bounds }
    }

    /// The bounds it widens.
    pub fn bounds(&self) -> &Bounds {
        &self.bounds
    }

    /// The threshold for a group whose rank threshold is `threshold` (a key).
    pub fn threshold(&self, threshold: super::Key) -> f64 {
        let b = &self.bounds;
        let Some(v) = super::key_value(threshold) else {
            // Fewer than k pairs, or NULLs last ranking after every value: every value
            // passes; NULLs first fill the group: none does.
            return if threshold >> 64 == 0 {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            };
        };
        if v.is_nan() {
            // +NaN ranks after every value, -NaN before.
            return if v.is_sign_negative() {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            };
        }
        let widen = 1.0 + 4.0 * b.unit + 4.0 * b.out_unit;
        match (b.measure, b.descending) {
            (Measure::L2Distance, false) => {
                let w = (v.max(0.0) + b.out_tiny) * widen;
                w * w
            }
            (Measure::L2Distance, true) => {
                let w = -v - b.out_tiny;
                if w > 0.0 {
                    let w = w / (widen * widen);
                    -(w * w)
                } else {
                    f64::INFINITY
                }
            }
            _ => v + 2.0 * v.abs() * b.out_unit + 2.0 * b.out_tiny,
        }
    }

    /// The bound of the pair whose inner product is `dot`, item `(square, norm, 1 / norm)`
    /// and query `(square, norm, 1 / norm)`: the pair is looked at when it is not above the
    /// threshold.
    #[inline(always)]
    pub fn value(&self, dot: f64, item: (f64, f64, f64), query: (f64, f64, f64)) -> f64 {
        match (self.bounds.measure, self.bounds.descending) {
            (Measure::L2Distance, false) => self.value_of::<0>(dot, item, query),
            (Measure::L2Distance, true) => self.value_of::<1>(dot, item, query),
            (Measure::InnerProduct, false) => self.value_of::<2>(dot, item, query),
            (Measure::InnerProduct, true) => self.value_of::<3>(dot, item, query),
            (Measure::CosineSimilarity, false) => self.value_of::<4>(dot, item, query),
            (Measure::CosineSimilarity, true) => self.value_of::<5>(dot, item, query),
        }
    }

    /// [`Prefilter::value`] for one measure and order (`KIND`: L2 ascending and
    /// descending, inner product, cosine), the caller's loop compiled once for each.
    #[inline(always)]
    pub fn value_of<const KIND: u8>(
        &self,
        dot: f64,
        item: (f64, f64, f64),
        query: (f64, f64, f64),
    ) -> f64 {
        let b = &self.bounds;
        let descending = KIND % 2 == 1;
        match KIND / 2 {
            0 => {
                let approx = item.0 + query.0 - 2.0 * dot;
                let sum = item.1 + query.1;
                let error = b.gamma * sum * sum + b.absolute;
                if descending {
                    -(approx + error)
                } else {
                    approx - error
                }
            }
            1 => {
                let error = b.gamma * item.1 * query.1 + b.absolute;
                if descending {
                    -dot - error
                } else {
                    dot - error
                }
            }
            _ => {
                let inverse = item.2 * query.2;
                let cosine = dot * inverse;
                let error = 2.0 * b.gamma + 2.0 * (b.len + 4.0) * b.tiny * inverse;
                if descending {
                    -cosine - error
                } else {
                    cosine - error
                }
            }
        }
    }
}

/// A pair's rank-space interval (lower is better), or what else it is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PairKind {
    /// A NULL vector on either side: the function's value is NULL.
    Null,
    /// Measured by the function (no bound can be trusted).
    Exact,
    /// The function's value, in rank space, lies in `[lo, hi]`.
    Bounded(f64, f64),
}

/// Each pair's interval from its inner product and norms: the floating-point error bounds of
/// the function's sums (`kernels::linalg::similarity`, in [`ComputeType`], rounded to the
/// result type) and of the product's, each `gamma = (len + 16) * u` with a margin of two.
#[derive(Debug, Clone, Copy)]
pub struct Bounds {
    measure: Measure,
    descending: bool,
    gamma: f64,
    unit: f64,
    absolute: f64,
    len: f64,
    tiny: f64,
    out_unit: f64,
    out_tiny: f64,
    out_limit: f64,
}

impl Bounds {
    /// The bounds of `measure` over vectors of `len` values computed in `compute` and
    /// returned as `result`, ranked descending or not.
    pub fn new(
        measure: Measure,
        descending: bool,
        len: usize,
        compute: ComputeType,
        result: &DataType,
    ) -> Self {
        let unit = compute.unit();
        #[allow(clippy::cast_precision_loss)]
        let len = len as f64;
        let (out_unit, out_tiny, out_limit) = match result {
            // float16: 11 bits; its subnormals step by 2^-24; past 2^15 it may overflow.
            DataType::Float16 => (2f64.powi(-11), 2f64.powi(-24), 2f64.powi(15)),
            _ => (unit, compute.tiny(), f64::INFINITY),
        };
        Self {
            measure,
            descending,
            gamma: 4.0 * (len + 16.0) * unit,
            unit,
            absolute: 2.0 * (len + 4.0) * compute.tiny(),
            len,
            tiny: compute.tiny(),
            out_unit,
            out_tiny,
            out_limit,
        }
    }

    /// The pair of item `i` and query `j` whose product's inner product is `dot`.
    #[inline]
    pub fn pair(
        &self,
        dot: f64,
        items: &Vectors,
        i: usize,
        queries: &Vectors,
        j: usize,
    ) -> PairKind {
        match (items.state[i], queries.state[j]) {
            (RowState::Null, _) | (_, RowState::Null) => return PairKind::Null,
            (RowState::Unsafe, _) | (_, RowState::Unsafe) => return PairKind::Exact,
            _ => {}
        }
        let (nx, ny) = (items.norms[i], queries.norms[j]);
        let (low, high) = match self.measure {
            Measure::L2Distance => {
                let approx = items.squares[i] + queries.squares[j] - 2.0 * dot;
                let sum = nx + ny;
                let error = self.gamma * sum * sum + self.absolute;
                let scale = 4.0 * self.unit;
                (
                    (approx - error).max(0.0).sqrt() * (1.0 - scale),
                    (approx + error).max(0.0).sqrt() * (1.0 + scale),
                )
            }
            Measure::InnerProduct => {
                let error = self.gamma * nx * ny + self.absolute;
                (dot - error, dot + error)
            }
            Measure::CosineSimilarity => {
                let norms = nx * ny;
                let cosine = dot / norms;
                let error = 2.0 * self.gamma + 2.0 * (self.len + 4.0) * self.tiny / norms;
                (cosine - error, cosine + error)
            }
        };
        // Rounded to the result type.
        let low = low - low.abs() * self.out_unit - self.out_tiny;
        let high = high + high.abs() * self.out_unit + self.out_tiny;
        if !(low.is_finite() && high.is_finite())
            || low.abs() >= self.out_limit
            || high.abs() >= self.out_limit
        {
            return PairKind::Exact;
        }
        if self.descending {
            PairKind::Bounded(-high, -low)
        } else {
            PairKind::Bounded(low, high)
        }
    }

    /// The rank-space value of the function's value `v` (negated when descending).
    pub fn rank(&self, v: f64) -> f64 {
        if self.descending { -v } else { v }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow::array::Float32Array;
    use arrow::datatypes::Field;
    use std::sync::Arc;

    use crate::kernels::linalg::similarity::{VectorPlan, measure_rows};

    fn list(values: Vec<f32>, len: usize) -> FixedSizeListArray {
        FixedSizeListArray::new(
            Arc::new(Field::new("item", DataType::Float32, true)),
            i32::try_from(len).unwrap(),
            Arc::new(Float32Array::from(values)),
            None,
        )
    }

    /// Every pair's interval holds the function's own float32 value, for vectors of wide
    /// ranges of magnitude and near-ties (the bounds are what the selection's exactness rests
    /// on).
    #[test]
    fn intervals_hold_the_functions_values() {
        let len = 37;
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            #[allow(clippy::cast_precision_loss)]
            let unit = (state >> 11) as f64 / (1u64 << 53) as f64;
            unit
        };
        let rows = 64;
        let mut make = |scale_of: &dyn Fn(usize) -> f64| {
            let mut v = Vec::with_capacity(rows * len);
            for r in 0..rows {
                for _ in 0..len {
                    #[allow(clippy::cast_possible_truncation)]
                    v.push(((next() - 0.5) * scale_of(r)) as f32);
                }
            }
            v
        };
        let items = make(&|r| 10f64.powi(i32::try_from(r % 9).unwrap() - 4));
        let mut queries = make(&|r| 10f64.powi(i32::try_from(r % 5).unwrap() - 2));
        // Near-duplicates of items: distances near zero, where the product cancels.
        queries[..len].copy_from_slice(&items[..len]);
        queries[len] += 1e-3;
        for measure in [
            Measure::L2Distance,
            Measure::InnerProduct,
            Measure::CosineSimilarity,
        ] {
            let a = Vectors::new(&list(items.clone(), len), ComputeType::F32, measure).unwrap();
            let b = Vectors::new(&list(queries.clone(), len), ComputeType::F32, measure).unwrap();
            let mut dots = Dots::F32(Vec::new());
            dot_block(&a, 0..rows, &b, &mut dots);
            let Dots::F32(dots) = dots else {
                panic!("float32 products")
            };
            let dots: Vec<f64> = dots.into_iter().map(f64::from).collect();
            for descending in [false, true] {
                let bounds = Bounds::new(
                    measure,
                    descending,
                    len,
                    ComputeType::F32,
                    &DataType::Float32,
                );
                for i in 0..rows {
                    for j in 0..rows {
                        let plan = VectorPlan::new([(&[len], &[1]), (&[len], &[1])], &[len], 0);
                        let mut out: Vec<f32> = Vec::new();
                        measure_rows(
                            measure,
                            &plan,
                            (
                                &items[i * len..(i + 1) * len],
                                &queries[j * len..(j + 1) * len],
                            ),
                            [0, 0],
                            1,
                            &mut out,
                        )
                        .unwrap();
                        let value = bounds.rank(f64::from(out[0]));
                        let dot = dots[i * rows + j];
                        match bounds.pair(dot, &a, i, &b, j) {
                            PairKind::Bounded(lo, hi) => {
                                assert!(
                                    lo <= value && value <= hi,
                                    "{measure:?} {i} {j}: {lo} <= {value} <= {hi}"
                                );
                                // The prefilter drops no pair at or before a threshold.
                                let prefilter = Prefilter::new(bounds);
                                let terms = |v: &Vectors, r: usize| {
                                    (v.squares[r], v.norms[r], 1.0 / v.norms[r])
                                };
                                let pre = prefilter.value(dot, terms(&a, i), terms(&b, j));
                                for threshold in [value, value + value.abs() * 1e-9] {
                                    let limit =
                                        prefilter.threshold(super::super::value_key(threshold));
                                    assert!(
                                        pre <= limit,
                                        "{measure:?} {descending} {i} {j}: {pre} > {limit} at {threshold}"
                                    );
                                }
                            }
                            PairKind::Exact => {}
                            PairKind::Null => panic!("no NULLs here"),
                        }
                    }
                }
            }
        }
    }
}
