//! The k-nearest-neighbour join's selection (`crate::nearest`): which pairs of a cross join
//! can be among the `k` best of their group, without computing each pair's measure the way
//! the function does.
//!
//! For a batch of items against every query vector, one matrix product gives every pair's
//! inner product ([`dot_block`]: `matrixmultiply`'s sgemm/dgemm, the way numpy's `E @ Q.T`
//! and faiss's flat indexes work); with the vectors' norms that is each pair's inner
//! product, L2 distance or cosine similarity, up to rounding. The function itself
//! (`kernels::linalg::similarity`) sums in another order, so the two can differ in the last
//! bits. [`Bounds`] gives each pair an interval the function's value lies in (the
//! floating-point error bounds of both computations, with a margin of two), and
//! [`Selection`] keeps a pair unless `k` pairs of its group are already known to rank before
//! it (their intervals' upper ends below its lower end). The pairs kept are then ranked by
//! the function's own values, by DataFusion's window, so the result is exactly the one the
//! plan without the join gives; the matrix product only decides what need not be looked at.
//!
//! Pairs whose bound cannot be trusted (a NaN or infinity in a vector, norms past where
//! float32 sums could overflow or underflow, a float16 result past float16's range) are
//! measured by the function itself ([`PairKind::Exact`]), a NULL vector's pair is NULL
//! ([`PairKind::Null`]) and ranks as SQL puts NULLs (first in descending order, last in
//! ascending order, unless the query says otherwise).

mod select;
mod vectors;

pub use select::{Candidate, Key, Ranking, Selection, key_value, null_key, value_key};
pub use vectors::{Bounds, ComputeType, Dots, PairKind, Prefilter, RowState, Vectors, dot_block};
