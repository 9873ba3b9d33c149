//! Searching, selecting and sets, per row: numpy's `nonzero` ([`nonzero`]), `searchsorted`
//! ([`searchsorted`]), the largest or smallest `k` along an axis ([`topk`], `torch.topk`'s
//! `values` and `indices`) and the array API standard's `unique_*` ([`unique`]).
//!
//! Each works on a batch's values in logical row-major order (a fixed-shape batch through
//! [`super::layout::row_major_values`], a variable-shape one through
//! [`super::ragged::row_major_values`]) and orders elements as [`super::sort`] does: numpy's
//! order (NaN after every number, -0.0 equal to 0.0), an element NULL after NaN.

pub mod count;
pub mod nonzero;
pub mod partition;
pub mod searchsorted;
pub mod topk;
pub mod unique;

/// Where each row's elements are in a batch's logical row-major values, and its logical
/// shape: `None` for a row whose values are not read (a NULL row).
#[derive(Debug, Clone, Copy)]
pub struct RowAt<'a> {
    /// The row's first element.
    pub start: usize,
    /// The row's logical shape.
    pub shape: &'a [usize],
}

impl RowAt<'_> {
    /// The number of elements.
    pub fn size(&self) -> usize {
        self.shape.iter().product()
    }
}
