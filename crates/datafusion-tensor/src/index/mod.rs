//! numpy indexing: parse an index string, normalise it against a shape, compile a gather or a
//! scatter.
//!
//! The steps are kept apart, as ndarray keeps its `SliceInfoElem` apart from applying it:
//! [`parse`] knows only the grammar, [`normalize`](mod@normalize) only numpy's rules for a shape (the bounds
//! rule included), [`plan`] only the offsets of a gather (`x[idx]`), [`scatter`] the
//! occurrences and per-row windows of an update (`x.at[idx]`).

pub mod normalize;
pub mod parse;
pub mod plan;
pub mod scatter;

pub use normalize::{
    BoundsRule, Component, DROPPED, OutOfBounds, Resolved, Selection, check_axes, normalize,
    normalize_with, slice_indices, too_many_indices, wrap_index,
};
pub use parse::{IndexArray, IndexExpr, IndexItem, parse_index};
pub use plan::{GatherPlan, Run};
pub use scatter::{DynamicKind, ScatterPlan, Windows, occurrences};
