//! numpy indexing: parse an index string, normalise it against a shape, compile a gather.
//!
//! The three steps are kept apart, as ndarray keeps its `SliceInfoElem` apart from applying
//! it: [`parse`] knows only the grammar, [`normalize`] only numpy's rules for a shape, and
//! [`plan`] only offsets.

pub mod normalize;
pub mod parse;
pub mod plan;

pub use normalize::{
    BoundsRule, Component, DROPPED, IndexError, OutOfBounds, Resolved, Selection, normalize,
    normalize_with, slice_indices, wrap_index,
};
pub use parse::{IndexArray, IndexExpr, IndexItem, ParseError, parse_index};
pub use plan::{GatherPlan, Run};
