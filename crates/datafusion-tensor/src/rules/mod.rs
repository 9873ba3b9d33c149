//! The planner rules [`crate::register_all`] installs, one file each.
//!
//! - [`planner`]: [`LiteralListPlanner`], an SQL expression planner that makes list literals
//!   such as a shape `[2, 3]` literal values while the query is planned;
//! - [`weak`]: [`WeakLambdaLiterals`], an SQL expression planner that types the number literals
//!   of a `tensor_at_apply` lambda as JAX does (weakly: `v -> v * 2` keeps `v`'s type);
//! - [`freeze`]: [`FreezeLiteralArguments`], an analyzer rule that fixes which arguments of a
//!   variadic tensor function (`tensor_choose`) were literals as written, so that its result
//!   type does not change when a later step folds an argument into a literal;
//! - [`operators`]: [`TensorOperatorPlanner`] and [`TensorOperators`], SQL operators on tensor
//!   operands as the elementwise functions (`x * 2.0` is `tensor_multiply(x, 2.0)`), while SQL
//!   is planned and in plans built without SQL;
//! - [`distinct`]: [`RefuseDistinctAggregates`], an analyzer rule that refuses the tensor
//!   aggregates with DISTINCT before DataFusion's optimizer rewrites such a query;
//! - [`stored`]: [`RefuseStoredComparisons`], an analyzer rule that refuses DataFusion's `min`,
//!   `max`, `greatest` and `least` of tensors, and `nullif` of two layouts (comparisons of
//!   stored values);
//! - [`sort_keys`]: [`ProjectSortKeys`], an optimizer rule that computes the sort keys a
//!   tensor function gives once, in a projection below the sort (a `TopK` evaluated them three
//!   times);
//! - [`filter_order`]: [`FilterBeforeComputedProjection`], a physical optimizer rule that keeps
//!   a `WHERE` clause in front of the functions whose rows it drops;
//! - [`union`]: [`TensorUnionRelations`] (an SQL relation planner) and [`TensorUnionLayouts`]
//!   (an analyzer rule), one tensor type per `UNION` column whatever layouts its branches
//!   store ([`reconcile_union_layouts`]).

pub mod distinct;
pub mod filter_order;
pub mod freeze;
pub mod limits;
pub mod operators;
pub mod planner;
pub mod sort_keys;
pub mod stored;
pub mod union;
pub mod weak;

pub use distinct::RefuseDistinctAggregates;
pub use filter_order::FilterBeforeComputedProjection;
pub use freeze::FreezeLiteralArguments;
pub use limits::SessionLimits;
pub use operators::{TensorOperatorPlanner, TensorOperators};
pub use planner::LiteralListPlanner;
pub use sort_keys::ProjectSortKeys;
pub use stored::RefuseStoredComparisons;
pub use union::{TensorUnionLayouts, TensorUnionRelations, reconcile_union_layouts};
pub use weak::WeakLambdaLiterals;
