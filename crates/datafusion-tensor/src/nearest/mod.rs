//! The k-nearest-neighbour join: `row_number()` (or `rank()`) over a cross join, per group,
//! ordered by a measure of one side's vectors against the other's, and a filter keeping the
//! first `k`:
//!
//! ```sql
//! SELECT q.id AS qid, t.id, tensor_l2_distance(t.e, q.v) AS d
//! FROM queries q CROSS JOIN items t
//! QUALIFY row_number() OVER (PARTITION BY q.id ORDER BY tensor_l2_distance(t.e, q.v)) <= 10
//! ```
//!
//! (or the same through a subquery and `WHERE rn <= 10`). DataFusion computes every pair's
//! distance and sorts them all. [`NearestNeighbourJoin`], a physical optimizer rule, finds
//! the pattern — a `FilterExec` bounding the window's column (`<= k`, `< k`, `= k`), a
//! window node with that one expression, its `PARTITION BY` keys all on one side of the
//! cross join (the build side, collected once; none: one group) and its first `ORDER BY`
//! key `tensor_l2_distance`, `tensor_inner_product` or `tensor_cosine_similarity` of a
//! vector column of each side, below it only sorts, repartitions and projections — and puts
//! a [`NearestCandidatesExec`] in the cross join's place. It streams the other side, measures
//! each batch against every build row by one matrix product, and emits only the pairs that
//! can be among the `k` best of their group (`kernels::nearest`: exact error bounds decide,
//! so no pair of the result is missed). Everything above it is DataFusion's plan as it was:
//! the window ranks the pairs kept by the function's own values, and the filter keeps the
//! first `k`. The results are the plan's without the rule; where `row_number()` breaks a tie
//! of its only key, the pair read first wins.
//!
//! Not recognised (left to DataFusion's plan, correct and slower): other window functions,
//! several window expressions in one node, keys on both sides, measures with an `axis`, and
//! Ballista's cluster (its codec does not carry this operator; the cluster crate removes the
//! rule).

mod exec;
mod rule;

pub use exec::{NearestCandidatesExec, NearestSpec};
pub use rule::NearestNeighbourJoin;
