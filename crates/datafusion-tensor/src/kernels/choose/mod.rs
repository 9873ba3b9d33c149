//! numpy `choose` over a whole batch: `out[I] = choices[a[I]][I]` after broadcasting.
//!
//! The work is split in two passes over flat buffers, both planned from shapes only:
//! 1. [`index`]: [`choice_indices`] reads the index tensor `a` once and turns every value into
//!    a checked choice number per the mode (raise / wrap / clip), row by row, skipping NULL
//!    rows;
//! 2. [`gather`]: [`gather::gather`] writes the output: each output element reads the chosen
//!    input at an offset the plan compiled from the broadcast (an offset table per input, or
//!    none when the input's row-major layout already is the output's).
//!
//! Splitting keeps the generic code small (pass 1 is generic over the index type, pass 2 over
//! the element type) and the inner loops free of per-element dispatch; the extra pass over the
//! `u32` choice numbers costs less than the branches it removes from the gather.
//!
//! [`batch`]: [`choose`] runs both over a batch of Arrow arrays ([`ChooseBatch`]): it
//! dispatches on the index and element types, takes the fused single-pass
//! [`gather::choose_dense`] when every input is laid out as the output, and carries element
//! NULLs through. [`ragged`]: the same on rows of their own shapes (variable-shape `a` or
//! choices), each row broadcast by its own shapes.

pub mod batch;
pub mod gather;
pub mod index;
pub mod ragged;

pub use batch::{ChoiceInputs, ChooseBatch, Input, choose};
pub use index::{ChoiceCount, ChooseMode, choice_indices};
