//! Pass 1 of numpy's `choose`: every index of `a` turned into a checked choice number per the
//! mode (raise / wrap / clip), row by row, NULL rows and elements skipped. Generic over the
//! index type only; the values are pass 2's ([`super::gather`]).

use arrow::array::{ArrayRef, AsArray};
use arrow::buffer::NullBuffer;

use crate::error::{Result, TensorError};

/// Expands `$run!(P)` with `P` the arrow primitive type of the index type `$data_type` (every
/// integer type), or gives an error for any other type.
macro_rules! with_index_type {
    ($data_type:expr, $run:ident) => {{
        use arrow::datatypes as adt;
        match $data_type {
            adt::DataType::Int8 => $run!(adt::Int8Type),
            adt::DataType::Int16 => $run!(adt::Int16Type),
            adt::DataType::Int32 => $run!(adt::Int32Type),
            adt::DataType::Int64 => $run!(adt::Int64Type),
            adt::DataType::UInt8 => $run!(adt::UInt8Type),
            adt::DataType::UInt16 => $run!(adt::UInt16Type),
            adt::DataType::UInt32 => $run!(adt::UInt32Type),
            adt::DataType::UInt64 => $run!(adt::UInt64Type),
            other => Err($crate::error::TensorError::Data(format!(
                "unexpected index type {other} at run time"
            ))),
        }
    }};
}

pub(super) use with_index_type;

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
}
