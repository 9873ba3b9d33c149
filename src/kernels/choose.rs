//! numpy `choose` over a whole batch: `out[I] = choices[a[I]][I]` after broadcasting.
//!
//! The work is split in two passes over flat buffers, both planned from shapes only:
//! 1. [`choice_indices`] reads the index tensor `a` once and turns every value into a checked
//!    choice number per the mode (raise / wrap / clip), row by row, skipping NULL rows;
//! 2. [`gather`] writes the output: each output element reads the chosen input at an offset the
//!    plan compiled from the broadcast (an offset table per input, or none when the input's
//!    row-major layout already is the output's).
//!
//! Splitting keeps the generic code small (pass 1 is generic over the index type, pass 2 over
//! the element type) and the inner loops free of per-element dispatch; the extra pass over the
//! `u32` choice numbers costs less than the branches it removes from the gather.
//!
//! [`choose`] runs both over a batch of Arrow arrays ([`ChooseBatch`]): it dispatches on the
//! index and element types, takes the fused single-pass [`choose_dense`] when every input is
//! laid out as the output, and carries element NULLs through.

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, AsArray, PrimitiveArray};
use arrow::buffer::{BooleanBuffer, NullBuffer, ScalarBuffer};
use arrow::compute::cast;
use arrow::datatypes::{
    ArrowPrimitiveType, DataType, Int8Type, Int16Type, Int32Type, Int64Type, UInt8Type, UInt16Type,
    UInt32Type, UInt64Type,
};
use arrow::error::ArrowError;

use super::{from_storage, layout, storage_type, to_storage};
use crate::error::{Result, TensorError};

/// Expands `$run!(P)` with `P` the arrow primitive type of the index type `$data_type` (every
/// integer type), or gives an error for any other type.
macro_rules! with_index_type {
    ($data_type:expr, $run:ident) => {
        match $data_type {
            DataType::Int8 => $run!(Int8Type),
            DataType::Int16 => $run!(Int16Type),
            DataType::Int32 => $run!(Int32Type),
            DataType::Int64 => $run!(Int64Type),
            DataType::UInt8 => $run!(UInt8Type),
            DataType::UInt16 => $run!(UInt16Type),
            DataType::UInt32 => $run!(UInt32Type),
            DataType::UInt64 => $run!(UInt64Type),
            other => Err(TensorError::Data(format!(
                "unexpected index type {other} at run time"
            ))),
        }
    };
}

/// How `choose` treats an index outside `[0, n)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ChooseMode {
    /// Fail (numpy's default).
    Raise,
    /// Floor-mod `n`.
    Wrap,
    /// Clamp to `[0, n - 1]`.
    Clip,
}

/// An integer element type `a` may hold.
pub trait IndexNative: Copy + Send + Sync + std::fmt::Display + 'static {
    /// The choice number for this index among `n > 0` choices, per `MODE` (0 raise, 1 wrap,
    /// 2 clip); `None` when `raise` rejects it.
    fn choice<const MODE: u8>(self, n: u64) -> Option<u64>;
}

macro_rules! signed_index {
    ($($t:ty),*) => {$(
        impl IndexNative for $t {
            #[inline(always)]
            fn choice<const MODE: u8>(self, n: u64) -> Option<u64> {
                let v = i64::from(self);
                match MODE {
                    0 => u64::try_from(v).ok().filter(|&i| i < n),
                    // numpy's floor-mod. In range needs no division; near it a reciprocal
                    // multiply and one correction (exact below 2^52), else rem_euclid.
                    1 => Some(wrap_signed(v, n)),
                    _ => Some(if v < 0 { 0 } else { (v as u64).min(n - 1) }),
                }
            }
        }
    )*};
}

macro_rules! unsigned_index {
    ($($t:ty),*) => {$(
        impl IndexNative for $t {
            #[inline(always)]
            fn choice<const MODE: u8>(self, n: u64) -> Option<u64> {
                let v = u64::from(self);
                match MODE {
                    0 => (v < n).then_some(v),
                    1 => Some(v % n),
                    _ => Some(v.min(n - 1)),
                }
            }
        }
    )*};
}

/// `v` floor-mod `n` (`0 < n <= u32::MAX`), without a division in the usual case.
///
/// Indices within one `n` of the range (`[-n, 2n)`, the usual case for `wrap`) are corrected by
/// adding or subtracting `n` without branches; only others pay a division. (A division per
/// element made `wrap` the slowest mode, and branches on the value mispredict on mixed data.)
#[inline]
fn wrap_signed(v: i64, n: u64) -> u64 {
    let n_i = n as i64;
    let mut r = v.wrapping_add((v >> 63) & n_i);
    r = r.wrapping_sub((n_i.wrapping_sub(1).wrapping_sub(r) >> 63) & n_i);
    if (r as u64) < n {
        r as u64
    } else {
        v.rem_euclid(n_i) as u64
    }
}

signed_index!(i8, i16, i32, i64);
unsigned_index!(u8, u16, u32, u64);

/// How many choices each row has.
#[derive(Debug, Clone, Copy)]
pub enum ChoiceCount<'a> {
    /// The same `n` for every row (choices given as arguments or as a tensor's outer axis).
    Fixed(usize),
    /// One `n` per row (a list column of scalar choices).
    PerRow(&'a [usize]),
}

/// Pass 1: the choice number of every element of `a`.
///
/// `a` holds `rows` rows of `a_row_len` elements (`a_row_len` is 0 when one literal index
/// serves every row, in which case `a` has one element). Rows where `skip_rows` is not valid
/// (a NULL in any argument) and elements where `a_valid` is not valid are not checked; they
/// get choice 0, which the gather may read but the output masks.
pub fn choice_indices<I: IndexNative>(
    a: &[I],
    a_row_len: usize,
    rows: usize,
    count: ChoiceCount<'_>,
    mode: ChooseMode,
    skip_rows: Option<&NullBuffer>,
    a_valid: Option<&NullBuffer>,
) -> Result<Vec<u32>> {
    match mode {
        ChooseMode::Raise => indices_mode::<I, 0>(a, a_row_len, rows, count, skip_rows, a_valid),
        ChooseMode::Wrap => indices_mode::<I, 1>(a, a_row_len, rows, count, skip_rows, a_valid),
        ChooseMode::Clip => indices_mode::<I, 2>(a, a_row_len, rows, count, skip_rows, a_valid),
    }
}

fn indices_mode<I: IndexNative, const MODE: u8>(
    a: &[I],
    a_row_len: usize,
    rows: usize,
    count: ChoiceCount<'_>,
    skip_rows: Option<&NullBuffer>,
    a_valid: Option<&NullBuffer>,
) -> Result<Vec<u32>> {
    let mut out = vec![0u32; a.len()];
    // A literal index (row length 0) is one element checked for the first valid row.
    let (chunk, chunks) = if a_row_len == 0 {
        (a.len(), 1.min(rows))
    } else {
        (a_row_len, rows)
    };
    for row in 0..chunks {
        let row_valid = |r: usize| skip_rows.is_none_or(|nulls| nulls.is_valid(r));
        let checked_row = if a_row_len == 0 {
            match (0..rows).find(|&r| row_valid(r)) {
                Some(r) => r,
                None => continue,
            }
        } else if row_valid(row) {
            row
        } else {
            continue;
        };
        let n = match count {
            ChoiceCount::Fixed(n) => n,
            ChoiceCount::PerRow(counts) => counts[checked_row],
        };
        let start = row * chunk;
        row_choices::<I, MODE>(
            &a[start..start + chunk],
            &mut out[start..start + chunk],
            start,
            n,
            a_valid,
            checked_row,
        )?;
    }
    Ok(out)
}

/// Pass 1 of one row: the choice numbers of its indices `values` (at `start` in the batch's
/// `a`) among `n` choices, into `targets`; an index `a_valid` marks NULL is left at 0 unchecked.
/// Errors name `row`.
#[inline]
fn row_choices<I: IndexNative, const MODE: u8>(
    values: &[I],
    targets: &mut [u32],
    start: usize,
    n: usize,
    a_valid: Option<&NullBuffer>,
    row: usize,
) -> Result<()> {
    let invalid = |value: &I| TensorError::InvalidChoice {
        row,
        value: value.to_string(),
        count: n,
    };
    if n == 0 {
        // numpy: `0-length sequence`, whatever the row's indices hold (even nothing).
        return Err(TensorError::InvalidChoice {
            row,
            value: String::new(),
            count: 0,
        });
    }
    let n = n as u64;
    match a_valid {
        None => {
            for (target, value) in targets.iter_mut().zip(values) {
                match value.choice::<MODE>(n) {
                    // n <= u32::MAX is checked when the call is planned.
                    Some(i) => *target = i as u32,
                    None => return Err(invalid(value)),
                }
            }
        }
        Some(valid) => {
            for (k, (target, value)) in targets.iter_mut().zip(values).enumerate() {
                if !valid.is_valid(start + k) {
                    continue;
                }
                match value.choice::<MODE>(n) {
                    Some(i) => *target = i as u32,
                    None => return Err(invalid(value)),
                }
            }
        }
    }
    Ok(())
}

/// One row of [`ragged_choice_indices`]: its indices end at `end` in `a` (they start where the
/// previous row's end), and it has `count` choices.
#[derive(Debug, Clone, Copy)]
pub struct ChoiceSpan {
    /// The row of the batch (errors name it).
    pub row: usize,
    /// Where the row's indices end in `a`.
    pub end: usize,
    /// The row's number of choices (at most `u32::MAX`).
    pub count: usize,
}

/// Pass 1 where rows have indices of different lengths and their own numbers of choices (numpy's
/// `choose` on variable-shape rows with per-row choices): the choice number of every element of
/// `a` (integers; booleans as 0/1 `UInt8`), row by row as `spans` lay them out; an element
/// `a_valid` marks NULL is left at 0 unchecked. Errors name the span's row.
pub fn ragged_choice_indices(
    a: &ArrayRef,
    spans: &[ChoiceSpan],
    mode: ChooseMode,
    a_valid: Option<&NullBuffer>,
) -> Result<Vec<u32>> {
    fn run<I: IndexNative, const MODE: u8>(
        a: &[I],
        spans: &[ChoiceSpan],
        a_valid: Option<&NullBuffer>,
    ) -> Result<Vec<u32>> {
        let mut out = vec![0u32; a.len()];
        let mut start = 0;
        for span in spans {
            let (Some(values), Some(targets)) =
                (a.get(start..span.end), out.get_mut(start..span.end))
            else {
                return Err(TensorError::Internal(format!(
                    "choice span {start}..{} outside {} indices",
                    span.end,
                    a.len()
                )));
            };
            row_choices::<I, MODE>(values, targets, start, span.count, a_valid, span.row)?;
            start = span.end;
        }
        Ok(out)
    }
    macro_rules! run {
        ($P:ty) => {{
            let a = a.as_primitive::<$P>().values();
            match mode {
                ChooseMode::Raise => run::<_, 0>(a, spans, a_valid),
                ChooseMode::Wrap => run::<_, 1>(a, spans, a_valid),
                ChooseMode::Clip => run::<_, 2>(a, spans, a_valid),
            }
        }};
    }
    with_index_type!(a.data_type(), run)
}

/// Both passes in one loop, for the common case: `a` and every choice have the output's
/// row-major layout, and nothing is NULL. `out[e] = choices[choice(a[e])][e]`; no index
/// buffer. Returns the position of the first index `raise` rejects.
pub fn choose_dense<I: IndexNative, T: Copy>(
    a: &[I],
    choices: &[&[T]],
    mode: ChooseMode,
) -> Result<Vec<T>, usize> {
    match mode {
        ChooseMode::Raise => dense_mode::<I, T, 0>(a, choices),
        ChooseMode::Wrap => dense_mode::<I, T, 1>(a, choices),
        ChooseMode::Clip => dense_mode::<I, T, 2>(a, choices),
    }
}

fn dense_mode<I: IndexNative, T: Copy, const MODE: u8>(
    a: &[I],
    choices: &[&[T]],
) -> Result<Vec<T>, usize> {
    let n = choices.len() as u64;
    let mut out = Vec::with_capacity(a.len());
    // No early exit in the loop: a rejected index reads choice 0 and clears `ok`; the first
    // rejected position is looked up afterwards.
    let mut ok = true;
    out.extend(a.iter().enumerate().map(|(e, v)| {
        let choice = v.choice::<MODE>(n);
        ok &= choice.is_some();
        choices[choice.unwrap_or(0) as usize][e]
    }));
    if ok {
        Ok(out)
    } else {
        Err(a
            .iter()
            .position(|v| v.choice::<MODE>(n).is_none())
            .unwrap_or(0))
    }
}

/// Where one input's element for each output position lives.
#[derive(Debug, Clone, Copy)]
pub struct Source<'a, T> {
    /// The input's flat values for the whole batch.
    pub values: &'a [T],
    /// Elements per row in `values`; 0 when one literal serves every row.
    pub row_len: usize,
    /// Offset within the row for each output position; `None` when it is the position itself
    /// (the input's row-major shape is the output's). Scalars broadcast to a larger output
    /// have a table of zeros.
    pub offsets: Option<&'a [u32]>,
}

impl<T> Source<'_, T> {
    fn is_dense(&self, out_row_len: usize) -> bool {
        self.offsets.is_none() && self.row_len == out_row_len
    }

    /// One value per row (or one for all rows) read at every output position.
    fn is_scalar(&self, out_row_len: usize) -> bool {
        match self.offsets {
            Some(offsets) => self.row_len <= 1 && offsets.iter().all(|&o| o == 0),
            None => out_row_len <= 1,
        }
    }
}

/// Where `a`'s choice number for each output position lives (as [`Source`]: `offsets` `None`
/// is the identity).
#[derive(Debug, Clone, Copy)]
pub struct IndexLayout<'a> {
    /// Elements per row of `a`; 0 for one literal index.
    pub row_len: usize,
    /// Offset within the row for each output position; `None` for the position itself.
    pub offsets: Option<&'a [u32]>,
}

/// Pass 2: the output values, `rows * out_row_len` of them, row-major.
///
/// `indices` are pass 1's choice numbers (all `< choices.len()`). Three loops, chosen once:
/// - every input dense (same shape as the output, no broadcast): `out[e] = c[idx[e]][e]`;
/// - every choice a scalar per row (literals, numeric columns): a per-row lookup table;
/// - otherwise each element reads its chosen input through that input's offset table.
pub fn gather<T: Copy + Default>(
    indices: &[u32],
    index: IndexLayout<'_>,
    choices: &[Source<'_, T>],
    rows: usize,
    out_row_len: usize,
) -> Vec<T> {
    let total = rows * out_row_len;
    if total == 0 {
        return Vec::new();
    }
    let index_dense = index.offsets.is_none() && index.row_len == out_row_len;
    if index_dense && choices.iter().all(|c| c.is_dense(out_row_len)) {
        let slices: Vec<&[T]> = choices.iter().map(|c| c.values).collect();
        return indices
            .iter()
            .enumerate()
            .map(|(e, &i)| slices[i as usize][e])
            .collect();
    }
    let mut out = vec![T::default(); total];
    // Identity tables for dense inputs, so one loop serves every layout.
    let identity: Vec<u32> = (0..out_row_len as u32).collect();
    let index_offsets = index.offsets.unwrap_or(&identity);
    if choices.iter().all(|c| c.is_scalar(out_row_len)) {
        let mut lut = vec![T::default(); choices.len()];
        for (row, out_row) in out.chunks_exact_mut(out_row_len).enumerate() {
            for (slot, choice) in lut.iter_mut().zip(choices) {
                *slot = choice.values[row * choice.row_len];
            }
            let idx_row = &indices[row * index.row_len..];
            for (target, &k) in out_row.iter_mut().zip(index_offsets) {
                *target = lut[idx_row[k as usize] as usize];
            }
        }
        return out;
    }
    let tables: Vec<&[u32]> = choices
        .iter()
        .map(|c| c.offsets.unwrap_or(&identity))
        .collect();
    for (row, out_row) in out.chunks_exact_mut(out_row_len).enumerate() {
        let idx_row = &indices[row * index.row_len..];
        for (k, (target, &ik)) in out_row.iter_mut().zip(index_offsets).enumerate() {
            let i = idx_row[ik as usize] as usize;
            let choice = &choices[i];
            *target = choice.values[row * choice.row_len + tables[i][k] as usize];
        }
    }
    out
}

/// Per-row scalar choices from a list column: `out[row, k] = values[starts[row] + idx]`.
pub fn gather_list<T: Copy + Default>(
    indices: &[u32],
    index: IndexLayout<'_>,
    values: &[T],
    starts: &[usize],
    rows: usize,
    out_row_len: usize,
) -> Vec<T> {
    let mut out = vec![T::default(); rows * out_row_len];
    if out.is_empty() {
        return out;
    }
    let identity: Vec<u32> = (0..out_row_len as u32).collect();
    let index_offsets = index.offsets.unwrap_or(&identity);
    for (row, out_row) in out.chunks_exact_mut(out_row_len).enumerate() {
        let idx_row = &indices[row * index.row_len..];
        let start = starts[row];
        for (target, &ik) in out_row.iter_mut().zip(index_offsets) {
            // Empty lists only occur in rows that pass 1 rejected or skipped (NULL rows).
            *target = values
                .get(start + idx_row[ik as usize] as usize)
                .copied()
                .unwrap_or_default();
        }
    }
    out
}

/// Where one choice's element validity lives (as [`Source`], validity instead of values).
#[derive(Debug, Clone, Copy)]
pub struct ValiditySource<'a> {
    /// The choice's element validity; `None` when it has no NULL elements.
    pub valid: Option<&'a NullBuffer>,
    /// Elements per row; 0 for a literal.
    pub row_len: usize,
    /// Offsets within the row, `None` for the identity.
    pub offsets: Option<&'a [u32]>,
}

/// Element validity of the output when an input has NULL elements: an output element is
/// valid when its index element and the chosen element are.
pub fn gather_validity(
    indices: &[u32],
    index: IndexLayout<'_>,
    index_valid: Option<&NullBuffer>,
    choices: &[ValiditySource<'_>],
    rows: usize,
    out_row_len: usize,
) -> BooleanBuffer {
    index_validity(
        indices,
        index,
        index_valid,
        rows,
        out_row_len,
        |row, k, i| {
            let choice = choices[i];
            choice.valid.is_none_or(|v| {
                let offset = choice.offsets.map_or(k, |o| o[k] as usize);
                v.is_valid(row * choice.row_len + offset)
            })
        },
    )
}

/// The validity walk every gather shares: for each output element `(row, k)`, invalid when
/// its index element is, else whatever `chosen_valid(row, k, choice)` says of the element it
/// chose.
pub fn index_validity(
    indices: &[u32],
    index: IndexLayout<'_>,
    index_valid: Option<&NullBuffer>,
    rows: usize,
    out_row_len: usize,
    chosen_valid: impl Fn(usize, usize, usize) -> bool,
) -> BooleanBuffer {
    let identity: Vec<u32> = (0..out_row_len as u32).collect();
    let index_offsets = index.offsets.unwrap_or(&identity);
    BooleanBuffer::collect_bool(rows * out_row_len, |e| {
        let (row, k) = (e / out_row_len, e % out_row_len);
        let at = row * index.row_len + index_offsets[k] as usize;
        if index_valid.is_some_and(|v| !v.is_valid(at)) {
            return false;
        }
        chosen_valid(row, k, indices[at] as usize)
    })
}

/// One input of a batch as [`choose`] reads it.
#[derive(Debug, Clone)]
pub struct Input<'a> {
    /// The element values of the whole batch: a tensor column's child array, a numeric
    /// column, or a literal's one value.
    pub values: ArrayRef,
    /// Elements per row of `values`; 0 when one literal serves every row.
    pub row_len: usize,
    /// Offset within the row for each output position; `None` for the position itself (as
    /// [`Source::offsets`]).
    pub offsets: Option<&'a [u32]>,
    /// Element validity; `None` when the input's NULLs, if any, are whole rows (those are in
    /// [`ChooseBatch::row_nulls`]).
    pub valid: Option<NullBuffer>,
}

/// The choices of a batch, in the three forms numpy accepts.
#[derive(Debug, Clone)]
pub enum ChoiceInputs<'a> {
    /// One input per choice.
    Each(Vec<Input<'a>>),
    /// One tensor whose outer axis enumerates `count` choices `stride` elements apart in a
    /// row: choice `i` is `input` read `i * stride` elements further on.
    Stacked {
        /// The tensor's values, with one choice's offsets.
        input: Input<'a>,
        /// Number of choices.
        count: usize,
        /// Elements between one choice and the next.
        stride: usize,
    },
    /// A `List` or `LargeList` column of scalar choices, their number varying per row.
    List(ArrayRef),
}

/// A batch of `tensor_choose`: `rows` output rows of `out_row_len` elements each.
#[derive(Debug, Clone)]
pub struct ChooseBatch<'a> {
    /// The index `a`: integers or booleans.
    pub a: Input<'a>,
    /// The choices.
    pub choices: ChoiceInputs<'a>,
    /// How an index outside `[0, n)` is treated.
    pub mode: ChooseMode,
    /// The result element type (the choices' common type).
    pub element: DataType,
    /// Number of rows.
    pub rows: usize,
    /// Elements per output row.
    pub out_row_len: usize,
    /// The NULL rows (a NULL in any argument): not checked, NULL in the output.
    pub row_nulls: Option<&'a NullBuffer>,
}

/// `numpy.choose` over a batch: the output's row-major values, `rows * out_row_len` of them,
/// NULL where the index element or the chosen element is NULL. NULL rows hold unspecified
/// values (the caller sets the rows' NULLs).
pub fn choose(batch: &ChooseBatch<'_>) -> Result<ArrayRef> {
    let a = &batch.a;
    // Booleans index as 0/1 (numpy reads them as integers).
    let a_values = to_storage(&a.values)?;
    if let Some(out) = try_dense(batch, &a_values)? {
        return Ok(out);
    }
    // A list column's values and row starts, read once for both passes.
    let choices = match &batch.choices {
        ChoiceInputs::Each(inputs) => BatchChoices::Each(inputs),
        ChoiceInputs::Stacked {
            input,
            count,
            stride,
        } => BatchChoices::Stacked {
            input,
            count: *count,
            stride: *stride,
        },
        ChoiceInputs::List(list) => BatchChoices::List(ListChoices::new(list)?),
    };
    let indices = if batch.out_row_len == 0 || batch.rows == 0 {
        // An empty broadcast selects nothing, so no index is checked (numpy); a row with no
        // choices is still numpy's `0-length sequence`.
        if let ChoiceCount::PerRow(counts) = choices.count() {
            let valid = |r: usize| batch.row_nulls.is_none_or(|n| n.is_valid(r));
            if let Some(row) = (0..batch.rows).find(|&r| counts.get(r) == Some(&0) && valid(r)) {
                return Err(TensorError::InvalidChoice {
                    row,
                    value: String::new(),
                    count: 0,
                });
            }
        }
        vec![0; a_values.len()]
    } else {
        indices_of(batch, &a_values, choices.count())?
    };
    let pass2 = Pass2 {
        indices: &indices,
        index: IndexLayout {
            row_len: a.row_len,
            offsets: a.offsets,
        },
        index_valid: a.valid.as_ref(),
        work_type: storage_type(&batch.element),
        rows: batch.rows,
        out_row_len: batch.out_row_len,
    };
    let (values, valid) = match &choices {
        BatchChoices::Each(inputs) => pass2.each(inputs)?,
        BatchChoices::Stacked {
            input,
            count,
            stride,
        } => pass2.stacked(input, *count, *stride)?,
        BatchChoices::List(list) => pass2.list(list)?,
    };
    let values = with_validity(values, valid)?;
    Ok(from_storage(values, &batch.element)?)
}

/// The fused single-pass kernel, when it applies: `a` and every choice are laid out as the
/// output (no broadcast, no permutation, not a literal), nothing is NULL, `a` is Int32 or
/// Int64 and the result is not Boolean. This is the common case of same-shape tensors.
fn try_dense(batch: &ChooseBatch<'_>, a_values: &ArrayRef) -> Result<Option<ArrayRef>> {
    let ChoiceInputs::Each(inputs) = &batch.choices else {
        return Ok(None);
    };
    let out_row_len = batch.out_row_len;
    let laid_out = |input: &Input<'_>| input.offsets.is_none() && input.row_len == out_row_len;
    if !inputs.iter().all(laid_out)
        || !laid_out(&batch.a)
        || batch.a.valid.is_some()
        || batch.row_nulls.is_some()
        || batch.element == DataType::Boolean
        || !matches!(a_values.data_type(), DataType::Int32 | DataType::Int64)
        || inputs.iter().any(|input| input.values.null_count() > 0)
    {
        return Ok(None);
    }
    let inputs = inputs
        .iter()
        .map(|input| cast(&input.values, &batch.element))
        .collect::<Result<Vec<_>, _>>()?;
    let count = inputs.len();
    let invalid = |position: usize, value: String| TensorError::InvalidChoice {
        row: position / out_row_len.max(1),
        value,
        count,
    };
    super::with_primitive_type!(&batch.element, P => {
        let slices: Vec<&[<P as ArrowPrimitiveType>::Native]> =
            inputs.iter().map(|v| v.as_primitive::<P>().values().as_ref()).collect();
        let out = if let Some(a) = a_values.as_primitive_opt::<Int32Type>() {
            choose_dense(a.values(), &slices, batch.mode)
                .map_err(|e| invalid(e, a.value(e).to_string()))
        } else {
            let a = a_values.as_primitive::<Int64Type>();
            choose_dense(a.values(), &slices, batch.mode)
                .map_err(|e| invalid(e, a.value(e).to_string()))
        };
        out.map(|values| Some(primitive::<P>(values)))
    }, _ => Ok(None))
}

/// Pass 1, dispatched on `a`'s integer type.
fn indices_of(batch: &ChooseBatch<'_>, a: &ArrayRef, count: ChoiceCount<'_>) -> Result<Vec<u32>> {
    // One generic pass-1 instance per index type.
    macro_rules! run {
        ($P:ty) => {
            choice_indices(
                a.as_primitive::<$P>().values(),
                batch.a.row_len,
                batch.rows,
                count,
                batch.mode,
                batch.row_nulls,
                batch.a.valid.as_ref(),
            )
        };
    }
    with_index_type!(a.data_type(), run)
}

/// The choices of a batch, a list column's parts read once for both passes.
enum BatchChoices<'b, 'a> {
    Each(&'b [Input<'a>]),
    Stacked {
        input: &'b Input<'a>,
        count: usize,
        stride: usize,
    },
    List(ListChoices),
}

impl BatchChoices<'_, '_> {
    fn count(&self) -> ChoiceCount<'_> {
        match self {
            Self::Each(inputs) => ChoiceCount::Fixed(inputs.len()),
            Self::Stacked { count, .. } => ChoiceCount::Fixed(*count),
            Self::List(list) => ChoiceCount::PerRow(&list.counts),
        }
    }
}

/// A list column of scalar choices: its values, each row's start (plus the end of the last
/// row) and each row's number of choices.
struct ListChoices {
    values: ArrayRef,
    starts: Vec<usize>,
    counts: Vec<usize>,
}

impl ListChoices {
    fn new(list: &ArrayRef) -> Result<Self> {
        let Some((values, starts)) = layout::list_parts(list.as_ref()) else {
            return Err(TensorError::Data(format!(
                "expected a list of choices at run time, got {}",
                list.data_type()
            )));
        };
        let counts: Vec<usize> = starts.windows(2).map(|w| w[1] - w[0]).collect();
        // Choice numbers are u32 in the kernels.
        if let Some(row) = counts.iter().position(|&n| u32::try_from(n).is_err()) {
            return Err(TensorError::Data(format!(
                "row {row} of its batch has {} choices, more than {} are supported",
                counts[row],
                u32::MAX
            )));
        }
        Ok(Self {
            values,
            starts,
            counts,
        })
    }
}

/// Pass 2 of a batch: pass 1's choice numbers and where they sit, read in the work type.
struct Pass2<'b> {
    indices: &'b [u32],
    index: IndexLayout<'b>,
    index_valid: Option<&'b NullBuffer>,
    /// The result element type, booleans as 0/1 bytes.
    work_type: DataType,
    rows: usize,
    out_row_len: usize,
}

/// Output values and, when an input has NULL elements, their validity.
type Gathered = (ArrayRef, Option<BooleanBuffer>);

impl Pass2<'_> {
    /// Choices given one by one.
    fn each(&self, inputs: &[Input<'_>]) -> Result<Gathered> {
        let cast_inputs = inputs
            .iter()
            .map(|input| cast(&input.values, &self.work_type))
            .collect::<Result<Vec<_>, _>>()?;
        let values = super::with_primitive_type!(&self.work_type, P => {
            let sources: Vec<Source<'_, <P as ArrowPrimitiveType>::Native>> = cast_inputs
                .iter()
                .zip(inputs)
                .map(|(values, input)| Source {
                    values: values.as_primitive::<P>().values(),
                    row_len: input.row_len,
                    offsets: input.offsets,
                })
                .collect();
            primitive::<P>(self.gather(&sources))
        }, _ => return Err(TensorError::Internal(format!("no kernel for {}", self.work_type))));
        let any_nulls = self.index_valid.is_some() || inputs.iter().any(|i| i.valid.is_some());
        let valid = any_nulls.then(|| {
            let refs: Vec<ValiditySource<'_>> = inputs
                .iter()
                .map(|input| ValiditySource {
                    valid: input.valid.as_ref(),
                    row_len: input.row_len,
                    offsets: input.offsets,
                })
                .collect();
            self.gather_validity(&refs)
        });
        Ok((values, valid))
    }

    /// One tensor whose outer axis enumerates the choices: choice `i` is the same rows read
    /// `i * stride` elements further on.
    fn stacked(&self, input: &Input<'_>, count: usize, stride: usize) -> Result<Gathered> {
        let values = cast(&input.values, &self.work_type)?;
        let out = super::with_primitive_type!(&self.work_type, P => {
            let all = values.as_primitive::<P>().values();
            let sources: Vec<Source<'_, <P as ArrowPrimitiveType>::Native>> = (0..count)
                .map(|i| Source {
                    values: all.get(i * stride..).unwrap_or(&[]),
                    row_len: input.row_len,
                    offsets: input.offsets,
                })
                .collect();
            primitive::<P>(self.gather(&sources))
        }, _ => return Err(TensorError::Internal(format!("no kernel for {}", self.work_type))));
        let any_nulls = self.index_valid.is_some() || input.valid.is_some();
        let valid = any_nulls.then(|| {
            // Each choice reads the same buffer `i * stride` further on; empty past the end
            // (no rows, or a 0-size choice).
            let shifted: Vec<Option<NullBuffer>> = (0..count)
                .map(|i| {
                    input.valid.as_ref().map(|v| {
                        let start = (i * stride).min(v.len());
                        v.slice(start, v.len() - start)
                    })
                })
                .collect();
            let refs: Vec<ValiditySource<'_>> = shifted
                .iter()
                .map(|v| ValiditySource {
                    valid: v.as_ref(),
                    row_len: input.row_len,
                    offsets: input.offsets,
                })
                .collect();
            self.gather_validity(&refs)
        });
        Ok((out, valid))
    }

    /// A list column of scalar choices per row.
    fn list(&self, list: &ListChoices) -> Result<Gathered> {
        let values_valid = list.values.logical_nulls();
        let values = cast(&list.values, &self.work_type)?;
        let starts = &list.starts;
        let out = super::with_primitive_type!(&self.work_type, P => {
            let values = values.as_primitive::<P>().values();
            primitive::<P>(gather_list(
                self.indices,
                self.index,
                values,
                starts,
                self.rows,
                self.out_row_len,
            ))
        }, _ => return Err(TensorError::Internal(format!("no kernel for {}", self.work_type))));
        let any_nulls = self.index_valid.is_some() || values_valid.is_some();
        let valid = any_nulls.then(|| {
            index_validity(
                self.indices,
                self.index,
                self.index_valid,
                self.rows,
                self.out_row_len,
                |row, _, choice| {
                    let chosen = starts[row] + choice;
                    values_valid
                        .as_ref()
                        .is_none_or(|v| chosen >= v.len() || v.is_valid(chosen))
                },
            )
        });
        Ok((out, valid))
    }

    fn gather<T: Copy + Default>(&self, sources: &[Source<'_, T>]) -> Vec<T> {
        gather(
            self.indices,
            self.index,
            sources,
            self.rows,
            self.out_row_len,
        )
    }

    fn gather_validity(&self, sources: &[ValiditySource<'_>]) -> BooleanBuffer {
        gather_validity(
            self.indices,
            self.index,
            self.index_valid,
            sources,
            self.rows,
            self.out_row_len,
        )
    }
}

/// `values` with the element validity `valid` (none: as they are).
fn with_validity(values: ArrayRef, valid: Option<BooleanBuffer>) -> Result<ArrayRef, ArrowError> {
    match valid {
        None => Ok(values),
        Some(valid) => {
            let data = values
                .to_data()
                .into_builder()
                .nulls(Some(NullBuffer::new(valid)))
                .build()?;
            Ok(arrow::array::make_array(data))
        }
    }
}

fn primitive<P: ArrowPrimitiveType>(values: Vec<P::Native>) -> ArrayRef {
    Arc::new(PrimitiveArray::<P>::new(ScalarBuffer::from(values), None))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_follow_numpy() {
        // np.choose([2, 4, 1, 0], choices, mode=...) with 4 choices; -1 too.
        let a = [2i32, 4, 1, 0, -1];
        let raise = choice_indices(
            &a,
            5,
            1,
            ChoiceCount::Fixed(4),
            ChooseMode::Raise,
            None,
            None,
        );
        assert!(matches!(
            raise.unwrap_err(),
            TensorError::InvalidChoice { row: 0, ref value, count: 4 } if value == "4"
        ));
        let wrap = choice_indices(
            &a,
            5,
            1,
            ChoiceCount::Fixed(4),
            ChooseMode::Wrap,
            None,
            None,
        );
        assert_eq!(wrap.unwrap(), vec![2, 0, 1, 0, 3]);
        let clip = choice_indices(
            &a,
            5,
            1,
            ChoiceCount::Fixed(4),
            ChooseMode::Clip,
            None,
            None,
        );
        assert_eq!(clip.unwrap(), vec![2, 3, 1, 0, 0]);
        let dense = choose_dense(
            &[1i32, 0, 2],
            &[&[1.0f32, 2.0, 3.0][..], &[4.0, 5.0, 6.0], &[7.0, 8.0, 9.0]],
            ChooseMode::Raise,
        );
        assert_eq!(dense.unwrap(), vec![4.0, 2.0, 9.0]);
        let bad = choose_dense(
            &[1i32, 3, 2],
            &[&[1.0f32, 2.0, 3.0][..], &[4.0, 5.0, 6.0]],
            ChooseMode::Raise,
        );
        assert_eq!(bad.unwrap_err(), 1);
        for v in [
            -7i64,
            -6,
            -1,
            0,
            5,
            6,
            1 << 40,
            -(1 << 53),
            i64::MIN,
            i64::MAX,
        ] {
            assert_eq!(wrap_signed(v, 3), v.rem_euclid(3) as u64, "{v}");
            assert_eq!(
                wrap_signed(v, 4_294_967_295),
                v.rem_euclid(4_294_967_295) as u64,
                "{v}"
            );
        }
        let big = [u64::MAX, 5];
        let wrap = choice_indices(
            &big,
            2,
            1,
            ChoiceCount::Fixed(3),
            ChooseMode::Wrap,
            None,
            None,
        );
        // 18446744073709551615 % 3 == 0
        assert_eq!(wrap.unwrap(), vec![0, 2]);
    }

    #[test]
    fn null_rows_are_not_checked() {
        let a = [0i8, 9, 1];
        let nulls = NullBuffer::from(vec![true, false, true]);
        let out = choice_indices(
            &a,
            1,
            3,
            ChoiceCount::Fixed(2),
            ChooseMode::Raise,
            Some(&nulls),
            None,
        );
        assert_eq!(out.unwrap(), vec![0, 0, 1]);
    }

    #[test]
    fn batches_carry_element_nulls_and_name_the_row() {
        use arrow::array::Int32Array;
        let input = |values: Int32Array| Input {
            valid: values.logical_nulls(),
            values: Arc::new(values),
            row_len: 2,
            offsets: None,
        };
        let batch = |a: Vec<i32>, c1: Int32Array| ChooseBatch {
            a: input(Int32Array::from(a)),
            choices: ChoiceInputs::Each(vec![
                input(Int32Array::from(vec![10, 11, 12, 13])),
                input(c1),
            ]),
            mode: ChooseMode::Raise,
            element: DataType::Int32,
            rows: 2,
            out_row_len: 2,
            row_nulls: None,
        };
        // Two rows of [2]; choice 1's element 1 is NULL and chosen.
        let out = choose(&batch(
            vec![1, 1, 0, 1],
            Int32Array::from(vec![Some(20), None, Some(22), Some(23)]),
        ))
        .unwrap();
        let out = out.as_primitive::<Int32Type>();
        assert_eq!(out.values(), &[20, out.value(1), 12, 23]);
        assert!(out.is_null(1) && out.null_count() == 1);
        // The fused path (nothing NULL) names the row of a rejected index too.
        let err = choose(&batch(
            vec![0, 1, 1, 2],
            Int32Array::from(vec![20, 21, 22, 23]),
        ))
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid entry in choice array: a = 2 at row 1 of its batch is not in [0, 1] (mode 'raise'; there are 2 choices)"
        );
    }

    #[test]
    fn gathers_every_layout() {
        // Two rows of [3] outputs; choice 0 dense, choice 1 a literal, choice 2 broadcast [1].
        let c0 = [1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0];
        let c1 = [9.0f32];
        let c2 = [7.0f32, 8.0];
        let zeros = [0u32, 0, 0];
        let choices = [
            Source {
                values: &c0[..],
                row_len: 3,
                offsets: None,
            },
            Source {
                values: &c1[..],
                row_len: 0,
                offsets: Some(&zeros[..]),
            },
            Source {
                values: &c2[..],
                row_len: 1,
                offsets: Some(&zeros[..]),
            },
        ];
        let idx = [0u32, 1, 2, 2, 1, 0];
        let index = IndexLayout {
            row_len: 3,
            offsets: None,
        };
        assert_eq!(
            gather(&idx, index, &choices, 2, 3),
            vec![1.0, 9.0, 7.0, 8.0, 9.0, 6.0]
        );
        // All dense.
        let dense = [
            choices[0],
            Source {
                values: &c0[..],
                row_len: 3,
                offsets: None,
            },
        ];
        let idx = [1u32, 0, 1, 0, 0, 1];
        assert_eq!(
            gather(&idx, index, &dense, 2, 3),
            vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
        );
        // All scalar.
        let scalars = [choices[1], choices[2]];
        let idx = [0u32, 1, 0, 1, 1, 0];
        assert_eq!(
            gather(&idx, index, &scalars, 2, 3),
            vec![9.0, 7.0, 9.0, 8.0, 8.0, 9.0]
        );
    }
}
