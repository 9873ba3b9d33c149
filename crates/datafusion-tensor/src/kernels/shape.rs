//! numpy's shape functions (`transpose`, `squeeze`, `expand_dims`, `broadcast_to`, `ravel`,
//! `flip`, `concatenate`, `stack`) as layouts compiled once per shape and applied to whole
//! batches.
//!
//! A one-tensor shape function is a [`ShapeOp`]: for a logical input shape (and the strides
//! that read it from a row's stored values) it compiles a [`ShapeLayout`], the output shape and
//! the stored offset of each output element, row-relative (`None` where the output is the
//! input's stored values as they are). A fixed-shape column compiles it once per query; the
//! rows of a variable-shape batch once per row shape ([`ShapePlans`]). Either way one `take`
//! over the batch's values buffer moves the elements (every element type, bit-packed booleans
//! and element NULLs alike).
//!
//! `concatenate` and `stack` ([`join_rows`]) interleave the row-major values of several
//! inputs: each output row is, for each index of the dimensions before the axis, a run of
//! each input in turn.

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, UInt32Array, UInt64Array};
use arrow::buffer::NullBuffer;
use arrow::compute::{concat, take};

use super::manipulate::Manipulation;
use crate::error::{Result, TensorError};
use crate::index::DROPPED;
use crate::kernels::shape_plans::ShapePlans;
use crate::limits::Limits;
use crate::variable_shape::VariableShapeArray;

/// A one-tensor shape function, its axes normalised against the input's `ndim`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ShapeOp {
    /// `transpose(axes)`: output dimension `k` is input dimension `axes[k]`.
    Transpose(Vec<usize>),
    /// `squeeze(axis)`: which axes are removed (each must have length 1).
    Squeeze(Vec<bool>),
    /// `expand_dims(axis)`: which positions of the output are new axes of length 1.
    ExpandDims(Vec<bool>),
    /// `broadcast_to(shape)`.
    BroadcastTo(Vec<usize>),
    /// `ravel` (C order).
    Flatten,
    /// `flip(axis)`: which axes are reversed.
    Flip(Vec<bool>),
    /// `roll`, `repeat`, `tile`, `take`, `pad`, `tril`, `triu` (`manipulate.rs`).
    Manipulate(Manipulation),
}

/// A [`ShapeOp`] compiled for one input shape.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ShapeLayout {
    /// The output's shape.
    pub shape: Vec<usize>,
    /// The stored offset in its row of each output element (row-major), [`DROPPED`] where it
    /// is the call's fill value; `None` when the output is the row's stored values in order.
    pub offsets: Option<Vec<usize>>,
}

impl ShapeLayout {
    /// Number of elements of the output.
    pub fn size(&self) -> usize {
        self.shape.iter().product()
    }
}

/// A shape as numpy prints it in broadcast errors: `(2,3)`, `(3,)`, `()`.
pub fn compact_shape(shape: &[usize]) -> String {
    match shape {
        [d] => format!("({d},)"),
        _ => {
            let dims: Vec<String> = shape.iter().map(usize::to_string).collect();
            format!("({})", dims.join(","))
        }
    }
}

impl ShapeOp {
    /// The number of output dimensions of this op on `ndim` input dimensions.
    pub fn out_ndim(&self, ndim: usize) -> usize {
        match self {
            Self::Transpose(_) | Self::Flip(_) => ndim,
            Self::Squeeze(removed) => removed.iter().filter(|&&r| !r).count(),
            Self::ExpandDims(new) => new.len(),
            Self::BroadcastTo(target) => target.len(),
            Self::Flatten => 1,
            Self::Manipulate(m) => m.out_ndim(ndim),
        }
    }

    /// For each output axis of this op on `ndim` input axes, the input axis it is, if it is
    /// exactly one (dim names follow it; an added axis has none).
    pub fn sources(&self, ndim: usize) -> Vec<Option<usize>> {
        match self {
            Self::Transpose(axes) => axes.iter().copied().map(Some).collect(),
            Self::Flip(_) => (0..ndim).map(Some).collect(),
            Self::Squeeze(removed) => (0..ndim).filter(|&a| !removed[a]).map(Some).collect(),
            Self::ExpandDims(new) => {
                let mut next = 0;
                new.iter()
                    .map(|&n| {
                        (!n).then(|| {
                            next += 1;
                            next - 1
                        })
                    })
                    .collect()
            }
            Self::BroadcastTo(target) => {
                let added = target.len().saturating_sub(ndim);
                (0..target.len()).map(|k| k.checked_sub(added)).collect()
            }
            Self::Flatten => vec![(ndim == 1).then_some(0)],
            Self::Manipulate(m) => m.sources(ndim),
        }
    }

    /// The layout of this op on a tensor of logical `shape` read through `strides` (element
    /// strides into a row's stored values); numpy's message where numpy refuses the shape, or
    /// the result has more elements than `limits` allow.
    pub fn layout(
        &self,
        shape: &[usize],
        strides: &[usize],
        limits: &Limits,
    ) -> std::result::Result<ShapeLayout, String> {
        let ndim = shape.len();
        let signed = |s: usize| s as isize;
        // (length, stride) per output axis, and the offset of the first element.
        let mut dims: Vec<(usize, isize)> = Vec::new();
        let mut base = 0isize;
        match self {
            Self::Transpose(axes) => {
                dims.extend(axes.iter().map(|&a| (shape[a], signed(strides[a]))));
            }
            Self::Squeeze(removed) => {
                for a in 0..ndim {
                    if !removed[a] {
                        dims.push((shape[a], signed(strides[a])));
                    } else if shape[a] != 1 {
                        return Err(
                            "cannot select an axis to squeeze out which has size not equal to one"
                                .to_string(),
                        );
                    }
                }
            }
            Self::ExpandDims(new_axes) => {
                let mut next = 0;
                for &new in new_axes {
                    if new {
                        dims.push((1, 0));
                    } else {
                        dims.push((shape[next], signed(strides[next])));
                        next += 1;
                    }
                }
            }
            Self::BroadcastTo(target) => {
                let mismatch = || {
                    if target.is_empty() {
                        "cannot broadcast a non-scalar to a scalar array".to_string()
                    } else if ndim > target.len() {
                        "input operand has more dimensions than allowed by the axis remapping"
                            .to_string()
                    } else {
                        // numpy's two spaces before "and".
                        format!(
                            "operands could not be broadcast together with remapped shapes [original->remapped]: {}  and requested shape {}",
                            compact_shape(shape),
                            compact_shape(target)
                        )
                    }
                };
                let Some(new) = target.len().checked_sub(ndim) else {
                    return Err(mismatch());
                };
                for (k, &length) in target.iter().enumerate() {
                    if k < new {
                        dims.push((length, 0));
                        continue;
                    }
                    let a = k - new;
                    if shape[a] == length {
                        dims.push((length, signed(strides[a])));
                    } else if shape[a] == 1 {
                        dims.push((length, 0));
                    } else {
                        return Err(mismatch());
                    }
                }
            }
            Self::Flatten => {
                let offsets = crate::shape::strided_offsets(shape, strides);
                let identity = offsets.iter().enumerate().all(|(i, &o)| i == o);
                return Ok(ShapeLayout {
                    shape: vec![offsets.len()],
                    offsets: (!identity).then_some(offsets),
                });
            }
            Self::Manipulate(m) => {
                let in_size: usize = shape.iter().product();
                let (shape, offsets) = m.layout(shape, strides, |shape| {
                    limits
                        .checked_size(shape)
                        .map(|_| ())
                        .map_err(|err| err.to_string())
                })?;
                // The stored values as they are only when every one is kept: a prefix of them
                // (`tensor_take(x, [0], axis => 0)`) is a gather, each row from its own start.
                let identity =
                    offsets.len() == in_size && offsets.iter().enumerate().all(|(i, &o)| i == o);
                return Ok(ShapeLayout {
                    shape,
                    offsets: (!identity).then_some(offsets),
                });
            }
            Self::Flip(flipped) => {
                for a in 0..ndim {
                    let stride = signed(strides[a]);
                    if flipped[a] && shape[a] > 0 {
                        base += (shape[a] as isize - 1) * stride;
                        dims.push((shape[a], -stride));
                    } else {
                        dims.push((shape[a], stride));
                    }
                }
            }
        }
        let out_shape: Vec<usize> = dims.iter().map(|d| d.0).collect();
        // The result's size against the element limit before its offsets are allocated (a
        // broadcast to [100000, 100000] would otherwise ask for 80 GB here).
        limits
            .checked_size(&out_shape)
            .map_err(|err| err.to_string())?;
        let offsets = signed_offsets(&dims, base);
        let identity = offsets.iter().enumerate().all(|(i, &o)| i == o);
        Ok(ShapeLayout {
            shape: out_shape,
            offsets: (!identity).then_some(offsets),
        })
    }
}

/// For each element of the output (row-major over `dims`' lengths), `base + sum(i * stride)`.
fn signed_offsets(dims: &[(usize, isize)], base: isize) -> Vec<usize> {
    let size: usize = dims.iter().map(|d| d.0).product();
    let mut out = Vec::with_capacity(size);
    if size == 0 {
        return out;
    }
    let mut index = vec![0usize; dims.len()];
    let mut offset = base;
    loop {
        out.push(offset as usize);
        let mut axis = dims.len();
        loop {
            if axis == 0 {
                return out;
            }
            axis -= 1;
            let (length, stride) = dims[axis];
            index[axis] += 1;
            offset += stride;
            if index[axis] < length {
                break;
            }
            offset -= stride * length as isize;
            index[axis] = 0;
        }
    }
}

/// The output values of `rows` fixed-shape rows of `size` stored values each: the rows'
/// values as they are, or gathered at `layout`'s offsets (`fill`, one element of the values'
/// type, where an offset is [`DROPPED`]).
pub fn apply_fixed(
    values: &ArrayRef,
    rows: usize,
    size: usize,
    layout: &ShapeLayout,
    fill: Option<&ArrayRef>,
) -> Result<ArrayRef> {
    match &layout.offsets {
        None => Ok(values.slice(0, rows * layout.size())),
        Some(offsets) if offsets.contains(&DROPPED) => {
            let Some(fill) = fill else {
                return Err(TensorError::Data(
                    "a layout with filled positions needs a fill value".into(),
                ));
            };
            let plan = crate::index::GatherPlan::from_offsets(offsets, size);
            Ok(super::gather::gather_filled(
                values, &plan, rows, None, fill,
            )?)
        }
        // The crate's one gather: typed copy loops (block copies where the offsets run),
        // no index array. Arrow's `take` with a u32 index per element took 2.0 s for
        // `tensor_flip(x)` over 1,000,000 float32 [16, 16] rows (most of it building and
        // reading the 1 GiB of indices).
        Some(offsets) => Ok(super::gather::gather_values(
            values,
            rows,
            &crate::index::GatherPlan::from_offsets(offsets, size),
            None,
        )?),
    }
}

/// A [`ShapeOp`] applied to each row of a variable-shape batch in its own shape.
#[derive(Debug)]
pub struct ShapedRows {
    /// The output values, row after row (a NULL row: `pad` NULLs).
    pub values: ArrayRef,
    /// Each row's output shape (zeros for a NULL row).
    pub shapes: Vec<i32>,
    /// Each row's number of output elements.
    pub lengths: Vec<usize>,
}

/// `op` on every row of `view` (rows of one shape share one compiled layout); a NULL row
/// holds `pad` NULL elements (a fixed-shape output's width, or 0), a [`DROPPED`] offset
/// `fill`. A row whose shape numpy refuses is numpy's error naming the row.
pub fn apply_variable(
    view: &VariableShapeArray<'_>,
    op: &ShapeOp,
    out_ndim: usize,
    pad: usize,
    limits: &Limits,
    fill: Option<&ArrayRef>,
) -> Result<ShapedRows> {
    let rows = view.len();
    // The fill is one element after the batch's values: a dropped offset reads it.
    let filled_at = view.values().len();
    let mut plans: ShapePlans<ShapeLayout> = ShapePlans::default();
    let mut indices: Vec<Option<u32>> = Vec::with_capacity(view.values().len());
    let mut shapes = Vec::with_capacity(rows * out_ndim);
    let mut lengths = Vec::with_capacity(rows);
    for row in 0..rows {
        if view.is_null(row) {
            indices.extend(std::iter::repeat_n(None, pad));
            shapes.extend(std::iter::repeat_n(0, out_ndim));
            lengths.push(pad);
            continue;
        }
        let layout = plans.get(view.physical_shape(row), |physical| {
            let (shape, strides) = view.tensor().logical_layout(physical);
            op.layout(&shape, &strides, limits).map_err(|message| {
                TensorError::Data(format!("{message} at row {row} of its batch"))
            })
        })?;
        // A List<T>'s offsets are i32: every position in its values fits a u32.
        let start = view.value_range(row).start;
        let size = layout.size();
        match &layout.offsets {
            Some(offsets) => indices.extend(offsets.iter().map(|&k| {
                Some(if k == DROPPED {
                    filled_at as u32
                } else {
                    (start + k) as u32
                })
            })),
            None => indices.extend((start..start + size).map(|k| Some(k as u32))),
        }
        shapes.extend(
            layout
                .shape
                .iter()
                .map(|&d| i32::try_from(d).unwrap_or(i32::MAX)),
        );
        lengths.push(size);
    }
    let indices = UInt32Array::from(indices);
    let values = match fill {
        Some(fill) => take(
            concat(&[view.values().as_ref(), fill.as_ref()])?.as_ref(),
            &indices,
            None,
        )?,
        None => take(view.values().as_ref(), &indices, None)?,
    };
    Ok(ShapedRows {
        values,
        shapes,
        lengths,
    })
}

/// One input of a join in one row: where its row-major values start, and how many
/// consecutive elements it gives each index of the dimensions before the axis.
#[derive(Debug, Clone, Copy)]
pub struct Piece {
    /// The row's first element in the input's values.
    pub start: usize,
    /// The elements of one run (its length along the axis times the dimensions after it).
    pub run: usize,
}

/// numpy's `concatenate` (and `stack`, the same of inputs with a new axis of length 1) of
/// several inputs' row-major `values`, all of one element type: output row `r` is, for each
/// of `outer[r]` indices of the dimensions before the axis, one run of each input in turn
/// (`pieces[r * inputs.len() + i]`). `None` in `outer`: a NULL row holding `pad` NULLs.
pub fn join_rows(
    values: &[ArrayRef],
    outer: &[Option<usize>],
    pieces: &[Piece],
    pad: usize,
) -> Result<ArrayRef> {
    let n = values.len();
    let arrays: Vec<&dyn Array> = values.iter().map(|v| v.as_ref() as &dyn Array).collect();
    let all = if n == 1 {
        Arc::clone(&values[0])
    } else {
        concat(&arrays)?
    };
    let mut bases = Vec::with_capacity(n);
    let mut total = 0usize;
    for v in values {
        bases.push(total);
        total += v.len();
    }
    let mut out_len = 0usize;
    for (r, outer) in outer.iter().enumerate() {
        out_len += match outer {
            Some(o) => {
                o * pieces[r * n..(r + 1) * n]
                    .iter()
                    .map(|p| p.run)
                    .sum::<usize>()
            }
            None => pad,
        };
    }
    let wide = u32::try_from(total).is_err();
    let mut narrow_indices: Vec<Option<u32>> = Vec::new();
    let mut wide_indices: Vec<Option<u64>> = Vec::new();
    if wide {
        wide_indices.reserve(out_len);
    } else {
        narrow_indices.reserve(out_len);
    }
    let mut push = |index: Option<usize>| {
        if wide {
            wide_indices.push(index.map(|i| i as u64));
        } else {
            narrow_indices.push(index.map(|i| i as u32));
        }
    };
    for (r, outer) in outer.iter().enumerate() {
        let Some(outer) = *outer else {
            for _ in 0..pad {
                push(None);
            }
            continue;
        };
        let row = &pieces[r * n..(r + 1) * n];
        for o in 0..outer {
            for (piece, base) in row.iter().zip(&bases) {
                let first = base + piece.start + o * piece.run;
                for k in first..first + piece.run {
                    push(Some(k));
                }
            }
        }
    }
    if wide {
        Ok(take(all.as_ref(), &UInt64Array::from(wide_indices), None)?)
    } else {
        Ok(take(
            all.as_ref(),
            &UInt32Array::from(narrow_indices),
            None,
        )?)
    }
}

/// The union of several inputs' NULL rows: a row is NULL where any input's is.
pub fn union_nulls<'a>(nulls: impl Iterator<Item = Option<&'a NullBuffer>>) -> Option<NullBuffer> {
    nulls.fold(None, |acc, n| NullBuffer::union(acc.as_ref(), n))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::row_major_strides;

    fn layout(op: &ShapeOp, shape: &[usize]) -> ShapeLayout {
        op.layout(shape, &row_major_strides(shape), &Limits::default())
            .unwrap()
    }

    #[test]
    fn transpose_reads_columns() {
        // np.arange(6).reshape(2, 3).T.ravel() == [0, 3, 1, 4, 2, 5]
        let l = layout(&ShapeOp::Transpose(vec![1, 0]), &[2, 3]);
        assert_eq!(l.shape, [3, 2]);
        assert_eq!(l.offsets.unwrap(), [0, 3, 1, 4, 2, 5]);
    }

    #[test]
    fn flip_reverses_the_axes_named() {
        // np.flip(np.arange(6).reshape(2, 3), 1).ravel() == [2, 1, 0, 5, 4, 3]
        let l = layout(&ShapeOp::Flip(vec![false, true]), &[2, 3]);
        assert_eq!(l.offsets.unwrap(), [2, 1, 0, 5, 4, 3]);
        let l = layout(&ShapeOp::Flip(vec![true, true]), &[2, 3]);
        assert_eq!(l.offsets.unwrap(), [5, 4, 3, 2, 1, 0]);
        let l = layout(&ShapeOp::Flip(vec![true]), &[0]);
        assert_eq!(l.shape, [0]);
    }

    #[test]
    fn squeeze_and_expand_dims_keep_the_values() {
        let op = ShapeOp::Squeeze(vec![true, false, true]);
        let l = layout(&op, &[1, 3, 1]);
        assert_eq!((l.shape.as_slice(), l.offsets), (&[3][..], None));
        assert_eq!(op.sources(3), [Some(1)]);
        let err = ShapeOp::Squeeze(vec![true, false])
            .layout(&[2, 3], &[3, 1], &Limits::default())
            .unwrap_err();
        assert_eq!(
            err,
            "cannot select an axis to squeeze out which has size not equal to one"
        );
        let op = ShapeOp::ExpandDims(vec![true, false, false, true]);
        let l = layout(&op, &[2, 3]);
        assert_eq!(l.shape, [1, 2, 3, 1]);
        assert_eq!(l.offsets, None);
        assert_eq!(op.sources(2), [None, Some(0), Some(1), None]);
    }

    #[test]
    fn broadcast_to_repeats_and_refuses_in_numpys_words() {
        let l = layout(&ShapeOp::BroadcastTo(vec![2, 2, 3]), &[1, 3]);
        assert_eq!(l.offsets.unwrap(), [0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2]);
        let err = ShapeOp::BroadcastTo(vec![4, 3])
            .layout(&[2, 3], &[3, 1], &Limits::default())
            .unwrap_err();
        assert_eq!(
            err,
            "operands could not be broadcast together with remapped shapes [original->remapped]: (2,3)  and requested shape (4,3)"
        );
    }

    #[test]
    fn join_interleaves_runs() {
        // np.concatenate([[[0, 1], [2, 3]], [[4], [5]]], axis=1) == [[0, 1, 4], [2, 3, 5]]
        let a: ArrayRef = Arc::new(arrow::array::Int32Array::from(vec![0, 1, 2, 3]));
        let b: ArrayRef = Arc::new(arrow::array::Int32Array::from(vec![4, 5]));
        let pieces = [Piece { start: 0, run: 2 }, Piece { start: 0, run: 1 }];
        let out = join_rows(&[a, b], &[Some(2)], &pieces, 0).unwrap();
        let out = out
            .as_any()
            .downcast_ref::<arrow::array::Int32Array>()
            .unwrap();
        assert_eq!(out.values(), &[0, 1, 4, 2, 3, 5]);
    }
}
