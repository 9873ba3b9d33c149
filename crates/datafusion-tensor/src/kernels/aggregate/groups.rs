//! The states of many groups of one aggregate, updated a row at a time by slice operations
//! over the row's elements.

use std::ops::Range;
use std::sync::Arc;

use arrow::array::{Array, ArrayRef, AsArray, ListArray, PrimitiveArray, UInt64Array};
use arrow::buffer::{NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow::datatypes::{DataType, Field, UInt64Type};

use super::element::{Elementwise, Native};
use super::{AggregateInput, GroupResults, GroupStates};
use crate::error::{Result, TensorError};
use crate::shape::format_shape;

/// Each group's logical shape (`None` before its first row), per-element states and row count.
#[derive(Debug)]
pub struct Groups<E: Elementwise> {
    element: E,
    shapes: Vec<Option<Box<[usize]>>>,
    accs: Vec<Vec<E::Acc>>,
    counts: Vec<u64>,
    /// Per group, each element's count of NULLs among its rows (empty: none).
    null_counts: Vec<Vec<u64>>,
}

impl<E: Elementwise> Groups<E> {
    /// No groups yet.
    pub fn new(element: E) -> Self {
        Self {
            element,
            shapes: Vec::new(),
            accs: Vec::new(),
            counts: Vec::new(),
            null_counts: Vec::new(),
        }
    }

    /// For each valid row of `input`, calls `f(element, its group's states, its values, the
    /// group's row count)` (the group set up at its first row, else its shape checked), which
    /// returns the group's new count; the row's NULL elements are counted in (`adding`) or
    /// out; a group back at 0 rows forgets its shape. `false` as soon as `f` returns `None`
    /// (an aggregate that cannot take rows back out).
    fn each_row(
        &mut self,
        input: &AggregateInput<'_>,
        groups: &[usize],
        adding: bool,
        mut f: impl FnMut(&E, &mut [E::Acc], &[Native<E::Input>], u64) -> Option<u64>,
    ) -> Result<bool> {
        let values = Self::input_values(input)?;
        let mut shape = Vec::new();
        for (row, &g) in groups.iter().enumerate() {
            if !input.is_valid(row) {
                continue;
            }
            let range = input.row(row, &mut shape);
            let start = range.start;
            let x = values.get(range).ok_or_else(|| {
                TensorError::Internal("aggregate row outside its batch".to_string())
            })?;
            let count = self.counts[g];
            let init = self.element.init();
            let acc = group_for(&mut self.shapes, &mut self.accs, init, (g, &shape, row))?;
            let size = acc.len();
            let Some(after) = f(&self.element, acc, x, count) else {
                return Ok(false);
            };
            self.counts[g] = after;
            if let Some(nulls) = input.element_nulls() {
                count_nulls(&mut self.null_counts[g], &nulls.slice(start, size), adding);
            }
            if after == 0 {
                self.shapes[g] = None;
                self.accs[g] = Vec::new();
                self.null_counts[g] = Vec::new();
            }
        }
        Ok(true)
    }

    fn input_values<'a>(input: &'a AggregateInput<'_>) -> Result<&'a [Native<E::Input>]> {
        input
            .values
            .as_primitive_opt::<E::Input>()
            .map(|values| values.values().as_ref())
            .ok_or_else(|| {
                TensorError::Internal(format!(
                    "aggregate input of type {} read as {}",
                    input.values.data_type(),
                    <E::Input as arrow::array::ArrowPrimitiveType>::DATA_TYPE
                ))
            })
    }
}

/// Group `g`'s states for a row of `shape` (`row` of its batch, for the error): set up at its
/// first row (`init` per element), else checked against it.
fn group_for<'s, A: Copy>(
    shapes: &mut [Option<Box<[usize]>>],
    accs: &'s mut [Vec<A>],
    init: A,
    (g, shape, row): (usize, &[usize], usize),
) -> Result<&'s mut [A]> {
    match &shapes[g] {
        Some(first) if **first == *shape => {}
        Some(first) => {
            return Err(TensorError::Data(format!(
                "row {row} of its batch has shape {}, but its group's rows have shape {}",
                format_shape(shape),
                format_shape(first)
            )));
        }
        None => {
            let size = shape.iter().try_fold(1usize, |n, &d| n.checked_mul(d));
            let size = size.ok_or_else(|| TensorError::Data("tensor too large".into()))?;
            shapes[g] = Some(shape.into());
            accs[g] = vec![init; size];
        }
    }
    Ok(&mut accs[g])
}

/// Counts the NULLs of `row` (one row's element validity) into `counts` (`adding`) or out of
/// them; `counts` stays empty while there are none.
fn count_nulls(counts: &mut Vec<u64>, row: &NullBuffer, adding: bool) {
    if row.null_count() == 0 {
        return;
    }
    if counts.is_empty() {
        counts.resize(row.len(), 0);
    }
    for (count, valid) in counts.iter_mut().zip(row.iter()) {
        if !valid {
            *count = if adding {
                *count + 1
            } else {
                count.saturating_sub(1)
            };
        }
    }
}

/// The list of `values` with `lengths` per row, NULL where `nulls` says (its items not
/// nullable: the elementwise states).
fn list(values: ArrayRef, lengths: &[usize], nulls: Option<NullBuffer>) -> Result<ArrayRef> {
    list_array(values, lengths, nulls, false)
}

/// The list of `values` with `lengths` per row, NULL where `nulls` says, its item field
/// nullable when `nullable_items` says (as the state field declares it).
///
/// # Errors
/// Lengths that do not add up to `values`.
pub fn list_array(
    values: ArrayRef,
    lengths: &[usize],
    nulls: Option<NullBuffer>,
    nullable_items: bool,
) -> Result<ArrayRef> {
    let field = Arc::new(Field::new_list_field(
        values.data_type().clone(),
        nullable_items,
    ));
    Ok(Arc::new(ListArray::try_new(
        field,
        OffsetBuffer::from_lengths(lengths.iter().copied()),
        values,
        nulls,
    )?))
}

impl<E: Elementwise> GroupStates for Groups<E> {
    fn resize(&mut self, groups: usize) {
        if groups > self.counts.len() {
            self.shapes.resize(groups, None);
            self.accs.resize_with(groups, Vec::new);
            self.counts.resize(groups, 0);
            self.null_counts.resize_with(groups, Vec::new);
        }
    }

    fn len(&self) -> usize {
        self.counts.len()
    }

    fn update(&mut self, input: &AggregateInput<'_>, groups: &[usize]) -> Result<()> {
        self.each_row(input, groups, true, |element, acc, x, count| {
            element.update(acc, x, count);
            Some(count + 1)
        })?;
        Ok(())
    }

    fn retract(&mut self, input: &AggregateInput<'_>, groups: &[usize]) -> Result<bool> {
        self.each_row(input, groups, false, |element, acc, x, count| {
            let after = count.checked_sub(1)?;
            element.retract(acc, x, after).then_some(after)
        })
    }

    fn state_types(&self) -> Vec<DataType> {
        self.element.state_types()
    }

    fn state(&self, groups: Range<usize>) -> Result<Vec<ArrayRef>> {
        let counts: Vec<u64> = self.counts[groups.clone()].to_vec();
        let nulls = NullBuffer::from(counts.iter().map(|&n| n > 0).collect::<Vec<_>>());
        let shapes = &self.shapes[groups.clone()];
        let dims: Vec<u64> = shapes
            .iter()
            .flatten()
            .flat_map(|s| s.iter().map(|&d| d as u64))
            .collect();
        let ndims: Vec<usize> = shapes
            .iter()
            .map(|s| s.as_ref().map_or(0, |s| s.len()))
            .collect();
        let null_lengths: Vec<usize> = self.null_counts[groups.clone()]
            .iter()
            .map(Vec::len)
            .collect();
        let null_counts: Vec<u64> = self.null_counts[groups.clone()]
            .iter()
            .flatten()
            .copied()
            .collect();
        let lengths: Vec<usize> = self.accs[groups.clone()].iter().map(Vec::len).collect();
        let flat: Vec<E::Acc> = self.accs[groups].iter().flatten().copied().collect();
        let mut out: Vec<ArrayRef> = vec![
            Arc::new(UInt64Array::from(counts)),
            list(
                Arc::new(PrimitiveArray::<UInt64Type>::new(
                    ScalarBuffer::from(dims),
                    None,
                )),
                &ndims,
                Some(nulls.clone()),
            )?,
            list(
                Arc::new(UInt64Array::from(null_counts)),
                &null_lengths,
                Some(nulls.clone()),
            )?,
        ];
        for part in self.element.write_state(&flat) {
            out.push(list(part, &lengths, Some(nulls.clone()))?);
        }
        Ok(out)
    }

    fn merge(&mut self, state: &[ArrayRef], groups: &[usize]) -> Result<()> {
        let bad = || TensorError::Internal("unexpected tensor aggregate state".to_string());
        let [counts, shapes, null_counts, parts @ ..] = state else {
            return Err(bad());
        };
        let counts = counts.as_primitive_opt::<UInt64Type>().ok_or_else(bad)?;
        let shapes = shapes.as_list_opt::<i32>().ok_or_else(bad)?;
        let shape_values = shapes
            .values()
            .as_primitive_opt::<UInt64Type>()
            .ok_or_else(bad)?;
        let null_counts = null_counts.as_list_opt::<i32>().ok_or_else(bad)?;
        let null_values = null_counts
            .values()
            .as_primitive_opt::<UInt64Type>()
            .ok_or_else(bad)?;
        let lists: Vec<&ListArray> = parts
            .iter()
            .map(|p| p.as_list_opt::<i32>().ok_or_else(bad))
            .collect::<Result<_>>()?;
        let first = lists.first().ok_or_else(bad)?;
        let values: Vec<ArrayRef> = lists.iter().map(|l| Arc::clone(l.values())).collect();
        let accs = self.element.read_state(&values)?;
        let mut shape = Vec::new();
        for (row, &g) in groups.iter().enumerate() {
            let other_count = counts.value(row);
            if other_count == 0 || shapes.is_null(row) {
                continue;
            }
            let dims =
                shapes.value_offsets()[row] as usize..shapes.value_offsets()[row + 1] as usize;
            shape.clear();
            shape.extend(shape_values.values()[dims].iter().map(|&d| d as usize));
            let range =
                first.value_offsets()[row] as usize..first.value_offsets()[row + 1] as usize;
            let other = accs.get(range).ok_or_else(bad)?;
            let count = self.counts[g];
            let init = self.element.init();
            let acc = group_for(&mut self.shapes, &mut self.accs, init, (g, &shape, row))?;
            if other.len() != acc.len() {
                return Err(bad());
            }
            if count == 0 {
                acc.copy_from_slice(other);
            } else {
                self.element.merge(acc, count, other, other_count);
            }
            self.counts[g] = count + other_count;
            let offsets = null_counts.value_offsets();
            let nulls = offsets[row] as usize..offsets[row + 1] as usize;
            if !nulls.is_empty() {
                let mine = &mut self.null_counts[g];
                if mine.is_empty() {
                    mine.resize(nulls.len(), 0);
                }
                for (c, &o) in mine.iter_mut().zip(&null_values.values()[nulls]) {
                    *c += o;
                }
            }
        }
        Ok(())
    }

    fn evaluate(&self, groups: Range<usize>, fixed_size: Option<usize>) -> Result<GroupResults> {
        let mut values: Vec<Native<E::Output>> = Vec::new();
        let mut lengths = Vec::with_capacity(groups.len());
        for g in groups.clone() {
            let count = self.counts[g];
            if count == 0 {
                let fill = fixed_size.unwrap_or(0);
                values.extend(std::iter::repeat_n(Native::<E::Output>::default(), fill));
                lengths.push(fill);
                continue;
            }
            let accs = &self.accs[g];
            values.extend(accs.iter().map(|&a| self.element.finish(a, count)));
            lengths.push(accs.len());
        }
        let valid: Vec<bool> = self.counts[groups.clone()].iter().map(|&n| n > 0).collect();
        let element_nulls = self.null_counts[groups.clone()]
            .iter()
            .any(|c| c.iter().any(|&n| n > 0))
            .then(|| {
                let mut element_valid = Vec::with_capacity(values.len());
                for (g, &length) in groups.clone().zip(&lengths) {
                    let counts = &self.null_counts[g];
                    element_valid
                        .extend((0..length).map(|j| counts.get(j).is_none_or(|&n| n == 0)));
                }
                NullBuffer::from(element_valid)
            });
        Ok(GroupResults {
            values: Arc::new(PrimitiveArray::<E::Output>::new(
                ScalarBuffer::from(values),
                None,
            )),
            lengths,
            shapes: self.shapes[groups].to_vec(),
            nulls: NullBuffer::from(valid),
            element_nulls,
        })
    }

    fn drain(&mut self, n: usize) {
        let n = n.min(self.counts.len());
        self.shapes.drain(..n);
        self.accs.drain(..n);
        self.counts.drain(..n);
        self.null_counts.drain(..n);
    }

    fn size(&self) -> usize {
        let accs: usize = self.accs.iter().map(Vec::capacity).sum();
        accs * std::mem::size_of::<E::Acc>()
            + self.accs.capacity() * std::mem::size_of::<Vec<E::Acc>>()
            + self.shapes.capacity() * std::mem::size_of::<Option<Box<[usize]>>>()
            + self.counts.capacity() * 8
    }
}
