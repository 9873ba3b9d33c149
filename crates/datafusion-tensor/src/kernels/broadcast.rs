//! numpy's broadcasting of tensor arguments into a result, as offset tables the kernels read
//! through: one input's offsets into a shape known when the query is planned
//! ([`offsets_into`], none when the input is laid out as the result), and several arguments
//! broadcast row by row, each row in its own shapes (variable-shape rows, and fixed-shape or
//! scalar ones beside them: [`broadcast_rows`]; the rows of one combination of shapes share
//! one compiled plan, [`RowPlans`]), and each of several inputs gathered into a part of its
//! own ([`gather_parts`]: `broadcast_arrays`, `meshgrid`). The shapes' own arithmetic is
//! [`crate::shape`]'s.

use arrow::buffer::NullBuffer;

use super::rows::{RowPlans, RowTensor};
use crate::error::TensorError;
use crate::limits::Limits;
use crate::shape::{broadcast_labelled, broadcast_offsets};

/// The offset in its row of each position of `target` (row-major) that an input of
/// `shape`/`strides` broadcasts to (numpy's rules; see [`broadcast_offsets`]); `None` for the
/// identity, when the input is laid out as the target already (same shape, not `permuted`).
pub fn offsets_into(
    shape: &[usize],
    strides: &[usize],
    permuted: bool,
    target: &[usize],
) -> Option<Vec<u32>> {
    if shape == target && !permuted {
        return None;
    }
    Some(broadcast_offsets(shape, strides, target))
}

/// One combination of row shapes: the broadcast shape, and for each tensor (in order) the
/// offset in its row of each position of it.
#[derive(Debug)]
struct RowBroadcast {
    shape: Vec<usize>,
    offsets: Vec<Vec<u32>>,
}

/// Several tensor arguments of a batch broadcast together in every row.
#[derive(Debug)]
pub struct BroadcastRows {
    /// For each tensor (in the order given), the position in its values of each element of
    /// the result, row after row.
    pub positions: Vec<Vec<u32>>,
    /// Each row's broadcast shape (`out_ndim` per row; zeros for a NULL row).
    pub shapes: Vec<i32>,
    /// Each row's number of elements (0 for a NULL row).
    pub lengths: Vec<usize>,
    /// Where each row's elements end among all rows' (to name the row of an element).
    pub row_ends: Vec<usize>,
    /// The error of the first row whose shapes do not broadcast (numpy's, naming the row).
    /// That row and the rows after it are left out, so that a caller can first report what
    /// is wrong in the rows before it.
    pub mismatch: Option<TensorError>,
}

impl BroadcastRows {
    /// The number of elements of all rows (before a mismatch).
    pub fn total(&self) -> usize {
        self.row_ends.last().copied().unwrap_or(0)
    }
}

/// numpy's broadcast of `tensors` in every row of a batch of `rows` rows, rows NULL in `nulls`
/// (a NULL in any argument) holding nothing: each row's broadcast shape and, for each tensor,
/// the position in its values of each element of the row's result. `tensors` are labelled
/// and in the order numpy broadcasts them (its error names the two shapes that clash so).
///
/// Positions are `u32`: every tensor's values must number at most `u32::MAX` (the caller
/// checks, naming the argument).
pub fn broadcast_rows(
    tensors: &[(&str, &RowTensor<'_>)],
    nulls: Option<&NullBuffer>,
    rows: usize,
    out_ndim: usize,
    limits: &Limits,
) -> BroadcastRows {
    let readers: Vec<&RowTensor<'_>> = tensors.iter().map(|(_, tensor)| *tensor).collect();
    let mut out = BroadcastRows {
        positions: vec![Vec::new(); tensors.len()],
        shapes: Vec::with_capacity(rows * out_ndim),
        lengths: Vec::with_capacity(rows),
        row_ends: Vec::with_capacity(rows),
        mismatch: None,
    };
    let mut plans: RowPlans<RowBroadcast> = RowPlans::default();
    let mut total = 0usize;
    for row in 0..rows {
        if nulls.is_some_and(|n| n.is_null(row)) {
            out.lengths.push(0);
            out.shapes.extend(std::iter::repeat_n(0, out_ndim));
            out.row_ends.push(total);
            continue;
        }
        let compiled = plans.get(&readers, row, |layouts| {
            let labelled: Vec<(&str, &[usize])> = tensors
                .iter()
                .zip(layouts)
                .map(|((label, _), (shape, _))| (*label, shape.as_slice()))
                .collect();
            let shape = broadcast_labelled(&labelled)?;
            limits.checked_size(&shape)?;
            let offsets = layouts
                .iter()
                .map(|(s, strides)| broadcast_offsets(s, strides, &shape))
                .collect();
            Ok(RowBroadcast { shape, offsets })
        });
        let plan = match compiled {
            Ok(plan) => plan,
            Err(e) => {
                out.mismatch = Some(e);
                break;
            }
        };
        for ((tensor, offsets), positions) in
            readers.iter().zip(&plan.offsets).zip(&mut out.positions)
        {
            let start = tensor.span(row).0 as u32;
            positions.extend(offsets.iter().map(|&o| start + o));
        }
        let len: usize = plan.shape.iter().product();
        out.lengths.push(len);
        out.shapes.extend(plan.shape.iter().map(|&d| d as i32));
        total += len;
        out.row_ends.push(total);
    }
    out
}

/// A batch argument too large for the `u32` positions the kernels use.
pub(crate) fn too_many_values(what: &str) -> TensorError {
    TensorError::Data(format!(
        "{what} holds more than {} values in one batch; lower datafusion.execution.batch_size",
        u32::MAX
    ))
}

/// One part of a call that gathers each of its inputs into a result of its own (numpy's
/// `broadcast_arrays`, `meshgrid`) in one combination of row shapes: the part's shape, and the
/// offset in its input's row of each of its elements (row-major).
#[derive(Debug)]
pub struct PartLayout {
    /// The part's shape.
    pub shape: Vec<usize>,
    /// The offset in the input's row of each element.
    pub offsets: Vec<u32>,
}

/// One part's rows, gathered from its input.
#[derive(Debug, Default)]
pub struct PartRows {
    /// The position in the input's values of each element, row after row.
    pub positions: Vec<u32>,
    /// Each row's shape (zeros for a NULL row).
    pub shapes: Vec<i32>,
    /// Each row's number of elements (0 for a NULL row).
    pub lengths: Vec<usize>,
}

/// The parts of `rows` rows, part `k` gathered from `tensors[k]`, each row's parts laid out by
/// `compile` from every tensor's logical shape and strides (once per combination of row
/// shapes; its errors name the row). Rows NULL in `nulls` hold nothing; `ndims[k]` is part
/// `k`'s number of dimensions.
pub fn gather_parts(
    tensors: &[&RowTensor<'_>],
    nulls: Option<&NullBuffer>,
    rows: usize,
    ndims: &[usize],
    compile: impl Fn(&[(Vec<usize>, Vec<usize>)]) -> Result<Vec<PartLayout>, TensorError>,
) -> Result<Vec<PartRows>, TensorError> {
    if let Some(k) = tensors
        .iter()
        .position(|t| u32::try_from(t.values().len()).is_err())
    {
        return Err(too_many_values(&format!("argument {}", k + 1)));
    }
    let mut out: Vec<PartRows> = (0..tensors.len()).map(|_| PartRows::default()).collect();
    let mut plans: RowPlans<Vec<PartLayout>> = RowPlans::default();
    for row in 0..rows {
        if nulls.is_some_and(|n| n.is_null(row)) {
            for (part, &ndim) in out.iter_mut().zip(ndims) {
                part.lengths.push(0);
                part.shapes.extend(std::iter::repeat_n(0, ndim));
            }
            continue;
        }
        let layouts = plans.get(tensors, row, &compile)?;
        for ((part, layout), tensor) in out.iter_mut().zip(layouts).zip(tensors) {
            let start = tensor.span(row).0 as u32;
            part.positions
                .extend(layout.offsets.iter().map(|&o| start + o));
            part.lengths.push(layout.offsets.len());
            part.shapes
                .extend(layout.shape.iter().map(|&d| i32::try_from(d).unwrap_or(i32::MAX)));
        }
    }
    Ok(out)
}
