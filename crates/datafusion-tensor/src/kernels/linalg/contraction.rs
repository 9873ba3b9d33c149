//! A planned contraction: every product this family computes (`matmul`, `dot`, `inner`,
//! `outer`, `tensordot`, `trace`, `diagonal`, `einsum`) is a sum over some indices of products
//! of operand elements, each operand read at strides per index. A [`Labelling`] says which
//! index each operand dimension runs over (numpy's einsum subscripts, made by each function
//! from its shapes); [`Contraction::new`] turns it and the operands' layouts (logical shape,
//! strides in the stored values: permutations are read in logical order) into per-index
//! strides once; [`Contraction::run`] computes one row's result, row-major.

use super::element::Element;
use super::gemm::Gemm;
use super::gemm_row::{GemmRow, HalfScratch};
use super::labelling::Labelling;
use crate::error::{Result, TensorError};

/// A [`Labelling`] compiled against the operands' layouts.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Contraction {
    out_sizes: Vec<usize>,
    sum_sizes: Vec<usize>,
    /// Per operand: where it starts, its stride per output index and per summed index.
    offsets: Vec<usize>,
    out_strides: Vec<Vec<usize>>,
    sum_strides: Vec<Vec<usize>>,
    /// Per operand: one past the last stored position read (0 when nothing is read).
    extents: Vec<usize>,
    /// Whether a product without summed indices is added to zero (numpy's einsum writes
    /// `0 + a*b`, which turns -0.0 into 0.0; its `outer` and `diagonal` keep -0.0).
    from_zero: bool,
    /// The matrix-product fast paths, when the labelling is a matrix product ([`Gemm`]).
    product: Option<Gemm>,
}

impl Contraction {
    /// Compiles `labelling` for operands of these logical shapes and strides.
    ///
    /// # Errors
    /// An internal error when the labelling does not fit the shapes (the functions that make
    /// labellings check the shapes first, in numpy's words).
    pub fn new(labelling: &Labelling, layouts: &[(&[usize], &[usize])]) -> Result<Self> {
        let labels = labelling.sizes.len();
        if layouts.len() != labelling.operands.len() {
            return Err(TensorError::Internal(format!(
                "a contraction of {} operands given {}",
                labelling.operands.len(),
                layouts.len()
            )));
        }
        let summed: Vec<usize> = (0..labels)
            .filter(|l| !labelling.output.contains(l))
            .collect();
        let empty = labelling.sizes.contains(&0);
        let mut contraction = Self {
            out_sizes: labelling.output_shape(),
            sum_sizes: summed.iter().map(|&l| labelling.sizes[l]).collect(),
            offsets: Vec::new(),
            out_strides: Vec::new(),
            sum_strides: Vec::new(),
            extents: Vec::new(),
            from_zero: false,
            product: Gemm::plan(labelling, layouts),
        };
        for (axes, (shape, strides)) in labelling.operands.iter().zip(layouts) {
            if axes.len() != shape.len() || strides.len() != shape.len() {
                return Err(TensorError::Internal(format!(
                    "a contraction operand of {} dimensions labelled with {}",
                    shape.len(),
                    axes.len()
                )));
            }
            let mut per_label = vec![0usize; labels];
            let mut offset = 0usize;
            let mut last = 0usize;
            for ((axis, &dim), &stride) in axes.iter().zip(shape.iter()).zip(strides.iter()) {
                let size = *labelling.sizes.get(axis.label).ok_or_else(|| {
                    TensorError::Internal(format!("contraction index {} unknown", axis.label))
                })?;
                if dim == 1 && size != 1 && axis.start == 0 {
                    continue; // broadcast: stride 0
                }
                if size > 0 && axis.start + size > dim {
                    return Err(TensorError::Internal(format!(
                        "contraction index of {size} from {} along a dimension of {dim}",
                        axis.start
                    )));
                }
                offset += axis.start * stride;
                per_label[axis.label] += stride;
                last += size.saturating_sub(1) * stride;
            }
            contraction.offsets.push(offset);
            contraction
                .extents
                .push(if empty { 0 } else { offset + last + 1 });
            contraction
                .out_strides
                .push(labelling.output.iter().map(|&l| per_label[l]).collect());
            contraction
                .sum_strides
                .push(summed.iter().map(|&l| per_label[l]).collect());
        }
        Ok(contraction)
    }

    /// This contraction with products without summed indices added to zero, as numpy's
    /// einsum does.
    #[must_use]
    pub fn added_to_zero(mut self) -> Self {
        self.from_zero = true;
        self
    }

    /// This contraction always worked by its general loop, never as a matrix product (to
    /// measure one against the other).
    #[must_use]
    pub fn without_product(mut self) -> Self {
        self.product = None;
        self
    }

    /// This contraction's float rows, when it is a matrix product, worked by `matrixmultiply`
    /// (`true`) or by the tight loop whatever their size (to measure one against the other).
    #[must_use]
    pub fn with_blas(mut self, blas: bool) -> Self {
        self.product = self.product.map(|p| p.with_blas(blas));
        self
    }

    /// The matrix product this contraction is, if it is one.
    pub fn product(&self) -> Option<&Gemm> {
        self.product.as_ref()
    }

    /// The number of result elements per row.
    pub fn output_len(&self) -> usize {
        self.out_sizes.iter().product()
    }

    /// The number of operands.
    pub fn operand_count(&self) -> usize {
        self.offsets.len()
    }

    /// Appends the results of `rows` rows, row-major, to `out` where this is a matrix product
    /// worked by the tight loop ([`Gemm::run_loop_rows`]): operand `k` of row `r` starts at
    /// `bases[k] + r * steps[k]`. `false`, with nothing appended, for any other contraction
    /// (worked row by row by [`Contraction::run`]).
    ///
    /// # Errors
    /// An internal error when an operand's values end before the last row does.
    pub fn run_rows<T: GemmRow>(
        &self,
        inputs: &[&[T]],
        bases: &[usize],
        steps: &[usize],
        rows: usize,
        out: &mut Vec<T>,
    ) -> Result<bool> {
        let (Some(product), [a, b], [base_a, base_b], [step_a, step_b]) =
            (&self.product, inputs, bases, steps)
        else {
            return Ok(false);
        };
        // Products past the gemm threshold stay row by row (the call outweighs the checks).
        if product.blas() || !product.has_loop() || self.output_len() == 0 {
            return Ok(false);
        }
        product.run_loop_rows([a, b], [*base_a, *base_b], [*step_a, *step_b], rows, out)?;
        Ok(true)
    }

    /// Appends one row's result, row-major, to `out`: operand `k` of the row starts at
    /// `bases[k]` in `inputs[k]`.
    ///
    /// # Errors
    /// An internal error when an operand's values end before the row does.
    pub fn run<T: GemmRow>(
        &self,
        inputs: &[&[T]],
        bases: &[usize],
        out: &mut Vec<T>,
        scratch: &mut Scratch,
    ) -> Result<()> {
        let n = self.operand_count();
        if inputs.len() != n || bases.len() != n {
            return Err(TensorError::Internal(format!(
                "a contraction of {n} operands given {}",
                inputs.len()
            )));
        }
        for k in 0..n {
            if self.extents[k] > 0 && bases[k] + self.extents[k] > inputs[k].len() {
                return Err(TensorError::Internal(format!(
                    "contraction operand {k} holds {} values, {} needed",
                    inputs[k].len(),
                    bases[k] + self.extents[k]
                )));
            }
        }
        let total = self.output_len();
        if total == 0 {
            return Ok(());
        }
        if let (Some(product), [a, b], [base_a, base_b]) = (&self.product, inputs, bases) {
            let bases = [*base_a, *base_b];
            if product.blas()
                && let Some(done) = T::gemm(product, [a, b], bases, out, &mut scratch.half)
            {
                return done;
            }
            if product.has_loop() {
                return product.run_loop(a, b, bases, out);
            }
        }
        out.reserve(total);
        let rank = self.out_sizes.len();
        scratch.out_index.clear();
        scratch.out_index.resize(rank, 0);
        scratch.out_pos.clear();
        scratch
            .out_pos
            .extend((0..n).map(|k| bases[k] + self.offsets[k]));
        for _ in 0..total {
            let acc = self.sum(inputs, scratch);
            out.push(T::narrow(acc));
            for d in (0..rank).rev() {
                scratch.out_index[d] += 1;
                for k in 0..n {
                    scratch.out_pos[k] += self.out_strides[k][d];
                }
                if scratch.out_index[d] < self.out_sizes[d] {
                    break;
                }
                scratch.out_index[d] = 0;
                for k in 0..n {
                    scratch.out_pos[k] -= self.out_strides[k][d] * self.out_sizes[d];
                }
            }
        }
        Ok(())
    }

    /// The sum over the summed indices at the output position `scratch.out_pos`.
    fn sum<T: Element>(&self, inputs: &[&[T]], scratch: &mut Scratch) -> T::Acc {
        let operands = inputs.len();
        let mut acc = T::zero();
        let Some((&inner, outer_sizes)) = self.sum_sizes.split_last() else {
            let product = product(inputs, &scratch.out_pos, acc);
            return if self.from_zero {
                T::add(acc, product)
            } else {
                product
            };
        };
        if inner == 0 || outer_sizes.contains(&0) {
            return acc;
        }
        let outer_rank = outer_sizes.len();
        scratch.sum_index.clear();
        scratch.sum_index.resize(outer_rank, 0);
        scratch.sum_pos.clear();
        scratch.sum_pos.extend_from_slice(&scratch.out_pos);
        let outer_total: usize = outer_sizes.iter().product();
        for _ in 0..outer_total {
            match (inputs, &self.sum_strides[..]) {
                ([only], [strides]) => {
                    let (mut at, step) = (scratch.sum_pos[0], strides[outer_rank]);
                    for _ in 0..inner {
                        acc = T::add(acc, only[at].widen());
                        at += step;
                    }
                }
                ([lhs, rhs], [lhs_strides, rhs_strides]) => {
                    let (mut at_lhs, mut at_rhs) = (scratch.sum_pos[0], scratch.sum_pos[1]);
                    let (step_lhs, step_rhs) = (lhs_strides[outer_rank], rhs_strides[outer_rank]);
                    for _ in 0..inner {
                        acc = T::add(acc, T::mul(lhs[at_lhs].widen(), rhs[at_rhs].widen()));
                        at_lhs += step_lhs;
                        at_rhs += step_rhs;
                    }
                }
                _ => {
                    scratch.inner_pos.clear();
                    scratch.inner_pos.extend_from_slice(&scratch.sum_pos);
                    for _ in 0..inner {
                        acc = T::add(acc, product(inputs, &scratch.inner_pos, T::zero()));
                        for k in 0..operands {
                            scratch.inner_pos[k] += self.sum_strides[k][outer_rank];
                        }
                    }
                }
            }
            for d in (0..outer_rank).rev() {
                scratch.sum_index[d] += 1;
                for k in 0..operands {
                    scratch.sum_pos[k] += self.sum_strides[k][d];
                }
                if scratch.sum_index[d] < outer_sizes[d] {
                    break;
                }
                scratch.sum_index[d] = 0;
                for k in 0..operands {
                    scratch.sum_pos[k] -= self.sum_strides[k][d] * outer_sizes[d];
                }
            }
        }
        acc
    }
}

/// The product of the operands at `positions` (`empty` for no operands).
fn product<T: Element>(inputs: &[&[T]], positions: &[usize], empty: T::Acc) -> T::Acc {
    let mut factors = inputs.iter().zip(positions);
    let Some((first, &p)) = factors.next() else {
        return empty;
    };
    factors.fold(first[p].widen(), |acc, (values, &q)| {
        T::mul(acc, values[q].widen())
    })
}

/// Index buffers a [`Contraction::run`] reuses from row to row.
#[derive(Debug, Default)]
pub struct Scratch {
    out_index: Vec<usize>,
    out_pos: Vec<usize>,
    sum_index: Vec<usize>,
    sum_pos: Vec<usize>,
    inner_pos: Vec<usize>,
    half: HalfScratch,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::linalg::labelling::Axis;

    fn matmul_labels(n: usize, k: usize, m: usize) -> Labelling {
        Labelling {
            sizes: vec![n, k, m],
            operands: vec![
                vec![Axis::of(0), Axis::of(1)],
                vec![Axis::of(1), Axis::of(2)],
            ],
            output: vec![0, 2],
        }
    }

    #[test]
    fn matrix_product_of_permuted_operands() {
        // a = [[1, 2, 3], [4, 5, 6]]; b stored as b.T (strides [1, 2]) = [[1, 2], [3, 4], [5, 6]]
        let a = [1i32, 2, 3, 4, 5, 6];
        let b = [1i32, 3, 5, 2, 4, 6];
        let c = Contraction::new(
            &matmul_labels(2, 3, 2),
            &[(&[2, 3], &[3, 1]), (&[3, 2], &[1, 3])],
        )
        .unwrap();
        let mut out = Vec::new();
        c.run(&[&a, &b], &[0, 0], &mut out, &mut Scratch::default())
            .unwrap();
        assert_eq!(out, vec![22, 28, 49, 64]);
    }

    #[test]
    fn trace_and_empty_sums() {
        let a = [1u8, 2, 3, 4];
        let trace = Labelling {
            sizes: vec![2],
            operands: vec![vec![Axis::of(0), Axis::of(0)]],
            output: vec![],
        };
        let c = Contraction::new(&trace, &[(&[2, 2], &[2, 1])]).unwrap();
        let mut out = Vec::new();
        c.run(&[&a], &[0], &mut out, &mut Scratch::default())
            .unwrap();
        assert_eq!(out, vec![5]);
        let empty = Contraction::new(
            &matmul_labels(2, 0, 2),
            &[(&[2, 0], &[0, 1]), (&[0, 2], &[2, 1])],
        )
        .unwrap();
        let mut out = Vec::new();
        empty
            .run::<f32>(&[&[], &[]], &[0, 0], &mut out, &mut Scratch::default())
            .unwrap();
        assert_eq!(out, vec![0.0; 4]);
    }

    #[test]
    fn short_values_are_an_error_not_a_panic() {
        let c = Contraction::new(
            &matmul_labels(2, 3, 2),
            &[(&[2, 3], &[3, 1]), (&[3, 2], &[2, 1])],
        )
        .unwrap();
        let mut out = Vec::new();
        assert!(
            c.run(
                &[&[1i64; 5], &[1i64; 6]],
                &[0, 0],
                &mut out,
                &mut Scratch::default()
            )
            .is_err()
        );
    }
}
