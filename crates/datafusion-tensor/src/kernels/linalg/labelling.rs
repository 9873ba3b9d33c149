//! Which index each operand dimension of a product runs over: numpy's einsum subscripts, made
//! by each function from its shapes ([`super::products`], [`super::einsum`]) and compiled by
//! [`super::contraction::Contraction::new`] and [`super::gemm::Gemm::plan`].

/// One operand dimension of a [`Labelling`]: the index it runs over, and where along the
/// dimension that index starts (a diagonal's offset; 0 otherwise).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Axis {
    /// The index (a position in [`Labelling::sizes`]).
    pub label: usize,
    /// The first position read along the dimension.
    pub start: usize,
}

impl Axis {
    /// A dimension read whole by index `label`.
    pub fn of(label: usize) -> Self {
        Self { label, start: 0 }
    }
}

/// Which index each dimension of each operand runs over, and which indices the result keeps
/// (in its order; the others are summed). A dimension of length 1 under an index of another
/// length broadcasts (numpy's broadcasting of batch dimensions and of einsum's `...`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Labelling {
    /// The extent of each index.
    pub sizes: Vec<usize>,
    /// Per operand, one [`Axis`] per logical dimension.
    pub operands: Vec<Vec<Axis>>,
    /// The result's indices, in order.
    pub output: Vec<usize>,
}

impl Labelling {
    /// The result's shape.
    pub fn output_shape(&self) -> Vec<usize> {
        self.output.iter().map(|&l| self.sizes[l]).collect()
    }
}
