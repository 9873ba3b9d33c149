//! Applying a compiled [`GatherPlan`] to a batch's tensor values, for every element type: the
//! crate's one gather (`tensor_get`, `tensor_at_get`), its copy loops tuned in
//! `benches/indexing.rs`.

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, AsArray, PrimitiveArray, new_null_array};
use arrow::buffer::{BooleanBuffer, NullBuffer, ScalarBuffer};
use arrow::compute::cast;
use arrow::datatypes::{ArrowPrimitiveType, DataType, Int64Type};
use arrow::error::ArrowError;

use super::{from_storage, to_storage};
use crate::error::{Result as TensorResult, TensorError};
use crate::index::{DROPPED, GatherPlan, wrap_index};
use crate::tensor_type::TensorType;

/// The gathered values of `rows` output tensors: output row `r` is `plan` applied to the input
/// sub-tensor starting at `starts[r]` (or at `r * plan.in_len` when `starts` is `None`).
/// Element NULLs follow their elements.
pub fn gather_values(
    values: &ArrayRef,
    rows: usize,
    plan: &GatherPlan,
    starts: Option<&[usize]>,
) -> Result<ArrayRef, ArrowError> {
    if *values.data_type() == DataType::Boolean {
        let out = gather_values(&to_storage(values)?, rows, plan, starts)?;
        return from_storage(out, &DataType::Boolean);
    }
    let validity = values.logical_nulls().map(|nulls| {
        let start_of = |row: usize| starts.map_or(row * plan.in_len, |s| s[row]);
        NullBuffer::new(BooleanBuffer::collect_bool(rows * plan.out_len, |e| {
            let (row, k) = (e / plan.out_len, e % plan.out_len);
            nulls.is_valid(start_of(row) + plan.offsets[k] as usize)
        }))
    });
    super::with_primitive_type!(values.data_type(), P => {
        Ok(typed::<P>(values, rows, plan, starts, validity))
    }, _ => Err(ArrowError::InvalidArgumentError(format!(
        "tensor element type {} cannot be gathered",
        values.data_type()
    ))))
}

fn typed<P: ArrowPrimitiveType>(
    values: &ArrayRef,
    rows: usize,
    plan: &GatherPlan,
    starts: Option<&[usize]>,
    validity: Option<NullBuffer>,
) -> ArrayRef {
    let input = values.as_primitive::<P>().values();
    let out = match starts {
        None => copy_rows(plan, input, rows),
        Some(starts) => copy_rows_from(plan, input, starts.iter().copied()),
    };
    Arc::new(PrimitiveArray::<P>::new(ScalarBuffer::from(out), validity))
}

/// [`gather_values`] where some reads are dropped (JAX's out-of-bounds `fill`): output row
/// `r` of `rows` is `plan` applied from input offset `starts[r]` (`None`: from `r *
/// plan.in_len`), or all `fill` (one element of the values' type) where that is
/// [`DROPPED`]; within a row, `plan.dropped` positions are `fill` too. Fills are valid; other
/// element NULLs follow their elements.
///
/// The fills are written into the gathered buffer before it becomes an array: an Arrow `zip`
/// against a mask of the dropped positions took 8x the time of the gather itself
/// (`benches/at.rs`, `at_get`).
pub fn gather_filled(
    values: &ArrayRef,
    plan: &GatherPlan,
    rows: usize,
    starts: Option<&[usize]>,
    fill: &ArrayRef,
) -> Result<ArrayRef, ArrowError> {
    if *values.data_type() == DataType::Boolean {
        let out = gather_filled(&to_storage(values)?, plan, rows, starts, &to_storage(fill)?)?;
        return from_storage(out, &DataType::Boolean);
    }
    let dropped_row = |row: usize| starts.is_some_and(|s| s[row] == DROPPED);
    // Dropped rows read row 0 (overwritten); an empty input has nothing to read, and then
    // every position is dropped (an offset that is not names an element).
    let readable: Option<Vec<usize>> = starts.map(|s| {
        s.iter()
            .map(|&s| if s == DROPPED { 0 } else { s })
            .collect()
    });
    let start_of = |row: usize| readable.as_ref().map_or(row * plan.in_len, |s| s[row]);
    let filled = |e: usize| {
        let (row, k) = (e / plan.out_len, e % plan.out_len);
        dropped_row(row) || plan.dropped.contains(&(k as u32))
    };
    let validity = values.logical_nulls().map(|nulls| {
        NullBuffer::new(BooleanBuffer::collect_bool(rows * plan.out_len, |e| {
            let (row, k) = (e / plan.out_len, e % plan.out_len);
            filled(e) || nulls.is_valid(start_of(row) + plan.offsets[k] as usize)
        }))
    });
    super::with_primitive_type!(values.data_type(), P => {
        let input = values.as_primitive::<P>().values();
        let fill = fill.as_primitive::<P>().value(0);
        let mut out = match &readable {
            _ if input.is_empty() => vec![fill; rows * plan.out_len],
            Some(readable) => copy_rows_from(plan, input, readable.iter().copied()),
            None => copy_rows(plan, input, rows),
        };
        if plan.out_len > 0 {
            for (row, out_row) in out.chunks_exact_mut(plan.out_len).enumerate() {
                if dropped_row(row) {
                    out_row.fill(fill);
                } else {
                    for &k in &plan.dropped {
                        out_row[k as usize] = fill;
                    }
                }
            }
        }
        Ok(Arc::new(PrimitiveArray::<P>::new(ScalarBuffer::from(out), validity)) as ArrayRef)
    }, _ => Err(ArrowError::InvalidArgumentError(format!(
        "tensor element type {} cannot be gathered",
        values.data_type()
    ))))
}

/// `tensor_get(t, i, j, ...)`: for each row, the sub-tensor of `values` (tensors of type
/// `input`, as stored) at the integer `indices` (one array per leading axis, numpy's bounds
/// rule), gathered with `plan`. Rows NULL in `nulls` are not checked; the caller masks them.
///
/// # Errors
/// An index out of bounds for its axis, naming the row.
pub fn gather_at_indices(
    values: &ArrayRef,
    input: &TensorType,
    indices: &[ArrayRef],
    nulls: Option<&NullBuffer>,
    plan: &GatherPlan,
) -> TensorResult<ArrayRef> {
    let rows = indices.first().map_or(0, Array::len);
    let size = input.size();
    let is_null = |row: usize| nulls.is_some_and(|n| n.is_null(row));
    // Row starts from the integer columns, bounds-checked against the logical shape.
    let shape = input.logical_shape();
    let strides = input.logical_strides();
    let mut starts: Vec<usize> = (0..rows).map(|row| row * size).collect();
    for (axis, column) in indices.iter().enumerate() {
        let column = cast(column, &DataType::Int64)?;
        let column = column.as_primitive::<Int64Type>();
        let dim = shape[axis];
        for (row, start) in starts.iter_mut().enumerate() {
            if is_null(row) {
                continue;
            }
            let value = column.value(row);
            let Some(position) = wrap_index(value, dim) else {
                return Err(TensorError::OutOfBounds {
                    value,
                    axis,
                    size: dim,
                    row: Some(row),
                });
            };
            *start += position * strides[axis];
        }
    }
    // NULL rows read the row's own start (any valid position); the output masks them.
    for (row, start) in starts.iter_mut().enumerate() {
        if is_null(row) {
            *start = row * size;
        }
    }
    if size == 0 && plan.out_len > 0 {
        // Indexing an empty axis: only NULL rows got here (any other row's index is out of
        // bounds), and there is nothing to read for them.
        Ok(new_null_array(values.data_type(), rows * plan.out_len))
    } else if size == 0 || plan.out_len == 0 {
        Ok(gather_values(values, rows, plan, None)?)
    } else {
        Ok(gather_values(values, rows, plan, Some(&starts))?)
    }
}

/// `plan` applied to `rows` rows of `input` (`in_len` elements each): `rows * out_len`
/// elements.
pub fn copy_rows<T: Copy + Default>(plan: &GatherPlan, input: &[T], rows: usize) -> Vec<T> {
    if plan.in_len == 0 {
        return Vec::new();
    }
    copy_sources(plan, input.chunks_exact(plan.in_len).take(rows))
}

/// `plan` applied to the sub-tensors of `input` starting at each of `starts` (one per
/// output row), in output order.
///
/// Each output row is built as a fixed-size array where the length is a common one, and
/// the rows are collected from an iterator of known length: the vector is reserved once,
/// and a row is a few vector moves with no capacity check. On one cache-resident
/// 8192-row batch of 4x4 float32 (`benches/indexing.rs`, `one_hot_batch`) `'1:3'` took
/// 13.2 µs and `'1:3, ::2'` 17.4 µs when rows were appended one by one
/// (`extend_from_slice`, or indexed stores into a buffer filled first); 8.0 µs and 11.2 µs
/// this way.
pub fn copy_rows_from<T: Copy + Default>(
    plan: &GatherPlan,
    input: &[T],
    starts: impl ExactSizeIterator<Item = usize>,
) -> Vec<T> {
    copy_sources(plan, starts.map(|start| &input[start..]))
}

/// `plan` applied to each of `sources`, the input from a row's first element on.
fn copy_sources<'a, T: Copy + Default + 'a>(
    plan: &GatherPlan,
    sources: impl ExactSizeIterator<Item = &'a [T]>,
) -> Vec<T> {
    if plan.out_len == 0 {
        return Vec::new();
    }
    if let [run] = plan.runs.as_slice() {
        // One run per row (a contiguous slice such as '1:3').
        let from = run.from as usize;
        macro_rules! fixed_run {
            ($($n:literal)*) => {
                match run.len {
                    $($n => return copy_fixed::<T, $n>(sources, from),)*
                    _ => {}
                }
            };
        }
        fixed_run!(1 2 3 4 6 8 12 16 32);
    }
    if plan.use_runs() {
        let mut out = Vec::with_capacity(sources.len() * plan.out_len);
        for src in sources {
            for run in &plan.runs {
                let (from, len) = (run.from as usize, run.len as usize);
                out.extend_from_slice(&src[from..from + len]);
            }
        }
        return out;
    }
    macro_rules! fixed_offsets {
        ($($m:literal)*) => {
            match plan.out_len {
                $($m => return pick_fixed::<T, $m>(sources, &plan.offsets),)*
                _ => {}
            }
        };
    }
    fixed_offsets!(1 2 3 4 6 8 9 12 16);
    // Other lengths element by element into a filled buffer: indexed stores measured
    // faster here than appending (`out.extend` of the mapped offsets: 4.7 ms against
    // 3.5 ms for '1:3, ::2' over 1,000,000 4x4 rows, before the fixed-size path above).
    let mut out = vec![T::default(); sources.len() * plan.out_len];
    for (src, dst) in sources.zip(out.chunks_exact_mut(plan.out_len)) {
        for (d, &o) in dst.iter_mut().zip(&plan.offsets) {
            *d = src[o as usize];
        }
    }
    out
}

/// `N` elements from `from` of each source.
#[inline]
fn copy_fixed<'a, T: Copy + 'a, const N: usize>(
    sources: impl ExactSizeIterator<Item = &'a [T]>,
    from: usize,
) -> Vec<T> {
    let rows: Vec<[T; N]> = sources
        .map(|src| {
            let row: &[T; N] = src[from..from + N]
                .try_into()
                .expect("a slice of N elements");
            *row
        })
        .collect();
    rows.into_flattened()
}

/// The `M` elements at `offsets` of each source.
#[inline]
fn pick_fixed<'a, T: Copy + 'a, const M: usize>(
    sources: impl ExactSizeIterator<Item = &'a [T]>,
    offsets: &[u32],
) -> Vec<T> {
    let offsets: &[u32; M] = offsets.try_into().expect("M offsets");
    let rows: Vec<[T; M]> = sources
        .map(|src| std::array::from_fn(|k| src[offsets[k] as usize]))
        .collect();
    rows.into_flattened()
}

#[cfg(test)]
mod tests {
    use arrow::array::{Int32Array, PrimitiveArray};
    use arrow::datatypes::Int32Type;

    use super::*;

    fn ints(values: &ArrayRef) -> Vec<Option<i32>> {
        values.as_primitive::<Int32Type>().iter().collect()
    }

    #[test]
    fn dropped_windows_and_positions_take_the_fill() {
        let values: ArrayRef = Arc::new(Int32Array::from(vec![1, 2, 3, 4, 5, 6]));
        let fill: ArrayRef = Arc::new(Int32Array::from(vec![-1]));
        // Two rows of 3, two windows each of the elements at 0 and 2 from the window's start.
        let plan = GatherPlan::from_offsets(&[0, 2], 3);
        let starts = [0, DROPPED, 3, 3];
        let got = gather_filled(&values, &plan, starts.len(), Some(&starts), &fill).unwrap();
        let want = [1, 3, -1, -1, 4, 6, 4, 6];
        assert_eq!(ints(&got), want.map(Some));
        // A position dropped within every row.
        let plan = GatherPlan::from_offsets(&[2, DROPPED, 0], 3);
        let got = gather_filled(&values, &plan, 2, None, &fill).unwrap();
        let want = [3, -1, 1, 6, -1, 4];
        assert_eq!(ints(&got), want.map(Some));
    }

    #[test]
    fn fills_are_valid_and_element_nulls_follow_their_elements() {
        let values: ArrayRef = Arc::new(PrimitiveArray::<Int32Type>::from(vec![
            Some(1),
            None,
            Some(3),
        ]));
        let fill: ArrayRef = Arc::new(Int32Array::from(vec![0]));
        let plan = GatherPlan::from_offsets(&[1, DROPPED, 2], 3);
        let got = gather_filled(&values, &plan, 1, None, &fill).unwrap();
        assert_eq!(ints(&got), vec![None, Some(0), Some(3)]);
    }

    #[test]
    fn an_empty_input_is_all_fill() {
        let values: ArrayRef = Arc::new(Int32Array::from(Vec::<i32>::new()));
        let fill: ArrayRef = Arc::new(Int32Array::from(vec![7]));
        let plan = GatherPlan::from_offsets(&[DROPPED, DROPPED], 0);
        let got = gather_filled(&values, &plan, 1, Some(&[DROPPED]), &fill).unwrap();
        assert_eq!(ints(&got), vec![Some(7), Some(7)]);
    }
}
