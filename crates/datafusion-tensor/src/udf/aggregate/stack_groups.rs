//! `tensor_agg_stack` over many groups at once (DataFusion's `GroupsAccumulator`).
//!
//! A batch is kept whole (its row-major values and its ORDER BY values, one chunk) and each
//! of its counted rows is noted as (group, chunk, where its values are); nothing is copied
//! until groups are emitted. Emitting puts the noted rows in group order (the order they came
//! in, or the call's ORDER BY with ties in the order they came in) and copies each row's
//! values once, with arrow's `MutableArrayData`. The partial state is the one-group
//! accumulator's ([`super::stack`]): per group the stacked values, the stack's shape and the
//! ORDER BY values, so either form merges the other's.

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, BooleanArray, MutableArrayData, UInt64Array, make_array};
use arrow::buffer::NullBuffer;
use arrow::compute::{SortColumn, SortOptions, interleave, lexsort_to_indices};
use arrow::datatypes::DataType;
use datafusion::common::internal_err;
use datafusion::error::Result;
use datafusion::logical_expr::{EmitTo, GroupsAccumulator};

use super::columns::{Columns, variable_output};
use super::stack::{bad_state, split_ordering, stack_type, state_lists, state_shape};
use crate::kernels::aggregate::groups::list_array;
use crate::kernels::aggregate::stack::shape_mismatch;
use crate::kernels::{from_storage, storage_type};
use crate::variable_shape::VariableShapeType;

/// A kept batch: its row-major values (storage type) and each ORDER BY expression's values.
#[derive(Debug)]
struct Chunk {
    values: ArrayRef,
    orderings: Vec<ArrayRef>,
}

/// A counted row: its group, its chunk, its row in the chunk's ORDER BY values, and its
/// values `start..start + len` in the chunk's values.
#[derive(Debug, Clone, Copy)]
struct StackedRow {
    group: usize,
    chunk: usize,
    ordering_row: usize,
    start: usize,
    len: usize,
}

/// The groups of one `tensor_agg_stack` call.
#[derive(Debug)]
pub struct StackGroupsAccumulator {
    name: &'static str,
    columns: Columns,
    output: VariableShapeType,
    sort: Vec<SortOptions>,
    ordering_types: Vec<DataType>,
    chunks: Vec<Chunk>,
    /// The counted rows, in the order they came.
    rows: Vec<StackedRow>,
    /// Per group: the shape of its rows (`None`: no rows yet) and how many it has.
    shapes: Vec<Option<Box<[usize]>>>,
    counts: Vec<usize>,
}

/// The rows of the first groups in group order: the indices into the rows, and where each
/// group's rows start among them (one more offset than groups).
struct Grouped {
    order: Vec<usize>,
    offsets: Vec<usize>,
}

impl StackGroupsAccumulator {
    /// The groups of the call reading `columns`, sorted by `sort` (one per ORDER BY
    /// expression, of the types `ordering_types`).
    pub fn new(
        columns: Columns,
        sort: Vec<SortOptions>,
        ordering_types: Vec<DataType>,
    ) -> Result<Self> {
        let output = stack_type(columns.name, &columns.input)?;
        Ok(Self {
            name: columns.name,
            columns,
            output,
            sort,
            ordering_types,
            chunks: Vec::new(),
            rows: Vec::new(),
            shapes: Vec::new(),
            counts: Vec::new(),
        })
    }

    fn resize(&mut self, groups: usize) {
        if self.shapes.len() < groups {
            self.shapes.resize(groups, None);
            self.counts.resize(groups, 0);
        }
    }

    /// How many groups `emit_to` takes.
    fn count(&self, emit_to: EmitTo) -> usize {
        match emit_to {
            EmitTo::All => self.shapes.len(),
            EmitTo::First(n) => n.min(self.shapes.len()),
        }
    }

    /// The rows of groups `0..n`, each group's in the order they came (a counting sort).
    fn grouped(&self, n: usize) -> Grouped {
        let mut offsets = Vec::with_capacity(n + 1);
        offsets.push(0);
        for &count in &self.counts[..n] {
            offsets.push(offsets[offsets.len() - 1] + count);
        }
        let mut next = offsets[..n].to_vec();
        let mut order = vec![0; offsets[n]];
        for (i, row) in self.rows.iter().enumerate() {
            if row.group < n {
                order[next[row.group]] = i;
                next[row.group] += 1;
            }
        }
        Grouped { order, offsets }
    }

    /// Each ORDER BY expression's values of `rows` (indices into the rows), in that order.
    fn orderings_of(&self, rows: &[usize]) -> Result<Vec<ArrayRef>> {
        let pairs: Vec<(usize, usize)> = rows
            .iter()
            .map(|&i| (self.rows[i].chunk, self.rows[i].ordering_row))
            .collect();
        (0..self.sort.len())
            .map(|k| {
                if self.chunks.is_empty() {
                    return Ok(arrow::array::new_empty_array(&self.ordering_types[k]));
                }
                let arrays: Vec<&dyn Array> = self
                    .chunks
                    .iter()
                    .map(|c| c.orderings[k].as_ref())
                    .collect();
                Ok(interleave(&arrays, &pairs)?)
            })
            .collect()
    }

    /// `grouped`'s rows with each group's put in the call's ORDER BY order (ties in the order
    /// they came: the position in the group is the last key).
    fn sorted(&self, mut grouped: Grouped) -> Result<Grouped> {
        if self.sort.is_empty() || grouped.order.len() < 2 {
            return Ok(grouped);
        }
        let groups = grouped.offsets.len() - 1;
        let mut group_keys = Vec::with_capacity(grouped.order.len());
        for g in 0..groups {
            group_keys.extend(std::iter::repeat_n(
                g as u64,
                grouped.offsets[g + 1] - grouped.offsets[g],
            ));
        }
        let arrival: Vec<u64> = (0..grouped.order.len() as u64).collect();
        let mut columns = vec![SortColumn {
            values: Arc::new(UInt64Array::from(group_keys)),
            options: None,
        }];
        for (values, options) in self
            .orderings_of(&grouped.order)?
            .into_iter()
            .zip(&self.sort)
        {
            columns.push(SortColumn {
                values,
                options: Some(*options),
            });
        }
        columns.push(SortColumn {
            values: Arc::new(UInt64Array::from(arrival)),
            options: None,
        });
        let indices = lexsort_to_indices(&columns, None)?;
        grouped.order = indices
            .values()
            .iter()
            .map(|&i| grouped.order[i as usize])
            .collect();
        Ok(grouped)
    }

    /// The values (storage type) of `rows` (indices into the rows), one after another.
    fn values_of(&self, rows: &[usize]) -> Result<ArrayRef> {
        let storage = storage_type(self.output.element_type());
        if self.chunks.is_empty() {
            return Ok(arrow::array::new_empty_array(&storage));
        }
        let sources: Vec<_> = self.chunks.iter().map(|c| c.values.to_data()).collect();
        let capacity = rows.iter().map(|&i| self.rows[i].len).sum();
        let mut out = MutableArrayData::new(sources.iter().collect(), false, capacity);
        for &i in rows {
            let row = self.rows[i];
            out.try_extend(row.chunk, row.start, row.start + row.len)?;
        }
        Ok(make_array(out.freeze()))
    }

    /// Group `g`'s stack shape (its row count first), `None` without rows.
    fn stack_shape(&self, g: usize) -> Option<Box<[usize]>> {
        let shape = self.shapes[g].as_ref()?;
        Some(
            std::iter::once(self.counts[g])
                .chain(shape.iter().copied())
                .collect(),
        )
    }

    /// Each of groups `0..n`: valid where it has rows, and its number of values.
    fn group_sizes(&self, n: usize) -> (NullBuffer, Vec<usize>) {
        let nulls: NullBuffer = self.counts[..n].iter().map(|&c| c > 0).collect();
        let lengths = (0..n)
            .map(|g| {
                self.shapes[g]
                    .as_ref()
                    .map_or(0, |s| self.counts[g] * s.iter().product::<usize>())
            })
            .collect();
        (nulls, lengths)
    }

    /// Forgets groups `0..n`: the others become `0..`, and chunks no row needs are dropped.
    fn drop_first(&mut self, n: usize) {
        if n == self.shapes.len() {
            self.rows.clear();
            self.chunks.clear();
            self.shapes.clear();
            self.counts.clear();
            return;
        }
        self.shapes.drain(..n);
        self.counts.drain(..n);
        self.rows.retain(|r| r.group >= n);
        let mut used = vec![false; self.chunks.len()];
        for row in &mut self.rows {
            row.group -= n;
            used[row.chunk] = true;
        }
        let mut renumber = vec![0; self.chunks.len()];
        let mut kept = 0;
        for (i, &u) in used.iter().enumerate() {
            renumber[i] = kept;
            kept += usize::from(u);
        }
        let mut i = 0;
        self.chunks.retain(|_| {
            i += 1;
            used[i - 1]
        });
        for row in &mut self.rows {
            row.chunk = renumber[row.chunk];
        }
    }

    /// Notes group `g`'s row of logical `shape` (row `row` of its batch, for the message).
    fn check_shape(&mut self, g: usize, row: usize, shape: &[usize]) -> Result<()> {
        match &self.shapes[g] {
            Some(first) if first[..] == *shape => Ok(()),
            Some(first) => Err(shape_mismatch(row, shape, first).in_function(self.name)),
            None => {
                self.shapes[g] = Some(shape.into());
                Ok(())
            }
        }
    }

    /// Adds the counted rows of one batch: `array` its argument, `ordering` its ORDER BY
    /// values.
    fn add_batch(
        &mut self,
        array: &ArrayRef,
        ordering: &[ArrayRef],
        group_indices: &[usize],
        opt_filter: Option<&BooleanArray>,
    ) -> Result<()> {
        let chunk = self.chunks.len();
        let first_row = self.rows.len();
        let columns = self.columns.clone();
        let result = columns.with_input(array, opt_filter, |input| {
            if input.len() != group_indices.len() {
                return internal_err!("{}: group indices of another batch", self.name);
            }
            let mut shape = Vec::new();
            for (row, &group) in group_indices.iter().enumerate() {
                if !input.is_valid(row) {
                    continue;
                }
                let range = input.row(row, &mut shape);
                self.check_shape(group, row, &shape)?;
                self.counts[group] += 1;
                self.rows.push(StackedRow {
                    group,
                    chunk,
                    ordering_row: row,
                    start: range.start,
                    len: range.len(),
                });
            }
            Ok(Arc::clone(input.values()))
        });
        match result {
            Ok(values) if self.rows.len() > first_row => {
                self.chunks.push(Chunk {
                    values,
                    orderings: ordering.to_vec(),
                });
                Ok(())
            }
            Ok(_) => Ok(()),
            Err(e) => {
                for row in self.rows.drain(first_row..) {
                    self.counts[row.group] -= 1;
                }
                Err(e)
            }
        }
    }
}

/// A state part: the list of `values` with `lengths` per group (items nullable, as
/// [`super::stack::state_fields`] declares them).
fn list_of(values: ArrayRef, lengths: &[usize], nulls: Option<NullBuffer>) -> Result<ArrayRef> {
    Ok(list_array(values, lengths, nulls, true)?)
}

impl GroupsAccumulator for StackGroupsAccumulator {
    fn update_batch(
        &mut self,
        values: &[ArrayRef],
        group_indices: &[usize],
        opt_filter: Option<&BooleanArray>,
        total_num_groups: usize,
    ) -> Result<()> {
        let (array, ordering) = split_ordering(self.name, self.sort.len(), values)?;
        if group_indices.iter().any(|&g| g >= total_num_groups) {
            return internal_err!("{}: a group index past the groups", self.name);
        }
        self.resize(total_num_groups);
        self.add_batch(array, ordering, group_indices, opt_filter)
    }

    fn evaluate(&mut self, emit_to: EmitTo) -> Result<ArrayRef> {
        let n = self.count(emit_to);
        let grouped = self.sorted(self.grouped(n))?;
        let values = from_storage(self.values_of(&grouped.order)?, self.output.element_type())?;
        let (nulls, lengths) = self.group_sizes(n);
        let shapes: Vec<_> = (0..n).map(|g| self.stack_shape(g)).collect();
        let out = variable_output(self.name, &self.output, values, &lengths, &shapes, nulls)?;
        self.drop_first(n);
        Ok(out)
    }

    fn state(&mut self, emit_to: EmitTo) -> Result<Vec<ArrayRef>> {
        let n = self.count(emit_to);
        let grouped = self.grouped(n);
        let (nulls, lengths) = self.group_sizes(n);
        let values = list_of(
            self.values_of(&grouped.order)?,
            &lengths,
            Some(nulls.clone()),
        )?;
        let mut dims = Vec::new();
        let mut dim_counts = Vec::with_capacity(n);
        for g in 0..n {
            let shape = self.stack_shape(g).unwrap_or_default();
            dim_counts.push(shape.len());
            dims.extend(shape.iter().map(|&d| d as u64));
        }
        let shapes = list_of(
            Arc::new(UInt64Array::from(dims)),
            &dim_counts,
            Some(nulls.clone()),
        )?;
        let mut out = vec![values, shapes];
        for ordering in self.orderings_of(&grouped.order)? {
            out.push(list_of(ordering, &self.counts[..n], Some(nulls.clone()))?);
        }
        self.drop_first(n);
        Ok(out)
    }

    fn merge_batch(
        &mut self,
        values: &[ArrayRef],
        group_indices: &[usize],
        total_num_groups: usize,
    ) -> Result<()> {
        let bad = || bad_state(self.name);
        let lists = state_lists(self.name, values)?;
        let (values, orderings) = (lists.values, &lists.orderings);
        if orderings.len() != self.sort.len()
            || values.len() != group_indices.len()
            || lists.shapes.len() != group_indices.len()
            || group_indices.iter().any(|&g| g >= total_num_groups)
        {
            return Err(bad());
        }
        // The ORDER BY lists are built together: one offset array serves them all.
        let ordering_offsets = orderings.first().map(|o| o.value_offsets());
        if orderings
            .iter()
            .any(|o| Some(o.value_offsets()) != ordering_offsets)
        {
            return Err(bad());
        }
        self.resize(total_num_groups);
        let chunk = self.chunks.len();
        let first_row = self.rows.len();
        let value_offsets = values.value_offsets();
        let mut added = Ok(());
        for (i, &group) in group_indices.iter().enumerate() {
            let (rows, dims) = match state_shape(self.name, &lists, i) {
                Ok(Some(shape)) => shape,
                Ok(None) => continue,
                Err(e) => {
                    added = Err(e);
                    break;
                }
            };
            let size: usize = dims.iter().product();
            let start = value_offsets[i] as usize;
            let ordering_start = ordering_offsets.map_or(0, |o| o[i] as usize);
            if (value_offsets[i + 1] as usize - start) != rows * size
                || ordering_offsets.is_some_and(|o| o[i + 1] as usize - ordering_start != rows)
            {
                added = Err(bad());
                break;
            }
            if let Err(e) = self.check_shape(group, i, &dims) {
                added = Err(e);
                break;
            }
            self.counts[group] += rows;
            for j in 0..rows {
                self.rows.push(StackedRow {
                    group,
                    chunk,
                    ordering_row: ordering_start + j,
                    start: start + j * size,
                    len: size,
                });
            }
        }
        if let Err(e) = added {
            for row in self.rows.drain(first_row..) {
                self.counts[row.group] -= 1;
            }
            return Err(e);
        }
        if self.rows.len() > first_row {
            self.chunks.push(Chunk {
                values: Arc::clone(values.values()),
                orderings: orderings.iter().map(|o| Arc::clone(o.values())).collect(),
            });
        }
        Ok(())
    }

    fn convert_to_state(
        &self,
        values: &[ArrayRef],
        opt_filter: Option<&BooleanArray>,
    ) -> Result<Vec<ArrayRef>> {
        let (array, ordering) = split_ordering(self.name, self.sort.len(), values)?;
        // Each row its own group: a stack of one row, or a NULL state.
        self.columns.with_input(array, opt_filter, |input| {
            let rows = input.len();
            let valid: Vec<bool> = (0..rows).map(|row| input.is_valid(row)).collect();
            let data = input.values().to_data();
            let mut out = MutableArrayData::new(vec![&data], false, input.values().len());
            let (mut lengths, mut dim_counts, mut dims) = (
                Vec::with_capacity(rows),
                Vec::with_capacity(rows),
                Vec::new(),
            );
            let mut shape = Vec::new();
            for (row, &valid) in valid.iter().enumerate() {
                if !valid {
                    lengths.push(0);
                    dim_counts.push(0);
                    continue;
                }
                let range = input.row(row, &mut shape);
                out.try_extend(0, range.start, range.end)?;
                lengths.push(range.len());
                dim_counts.push(shape.len() + 1);
                dims.push(1);
                dims.extend(shape.iter().map(|&d| d as u64));
            }
            let nulls = NullBuffer::from(valid.clone());
            let mut state = vec![
                list_of(make_array(out.freeze()), &lengths, Some(nulls.clone()))?,
                list_of(
                    Arc::new(UInt64Array::from(dims)),
                    &dim_counts,
                    Some(nulls.clone()),
                )?,
            ];
            let ones: Vec<usize> = valid.iter().map(|&v| usize::from(v)).collect();
            let kept = BooleanArray::from(valid);
            for column in ordering {
                let values = arrow::compute::filter(column.as_ref(), &kept)?;
                state.push(list_of(values, &ones, Some(nulls.clone()))?);
            }
            Ok(state)
        })
    }

    fn size(&self) -> usize {
        let arrays: usize = self
            .chunks
            .iter()
            .flat_map(|c| std::iter::once(&c.values).chain(&c.orderings))
            .map(Array::get_array_memory_size)
            .sum();
        std::mem::size_of::<Self>()
            + arrays
            + self.rows.capacity() * std::mem::size_of::<StackedRow>()
            + self.shapes.capacity() * std::mem::size_of::<Option<Box<[usize]>>>()
            + self.counts.capacity() * std::mem::size_of::<usize>()
    }
}

#[cfg(test)]
mod tests {
    use arrow::array::{Int64Array, ListArray, StringArray};
    use arrow::datatypes::{Field, Int64Type, UInt64Type};

    use super::*;
    use crate::display::format_tensors;
    use crate::variable_shape::AnyTensorType;

    fn lists(rows: &[Option<Vec<i64>>]) -> ArrayRef {
        Arc::new(ListArray::from_iter_primitive::<Int64Type, _, _>(
            rows.iter().map(|r| {
                r.as_ref()
                    .map(|v| v.iter().map(|&x| Some(x)).collect::<Vec<_>>())
            }),
        ))
    }

    fn accumulator(sorted: bool) -> StackGroupsAccumulator {
        let field = Arc::new(Field::new(
            "x",
            DataType::List(Arc::new(Field::new_list_field(DataType::Int64, true))),
            true,
        ));
        let columns = Columns::plan("tensor_agg_stack", &[field], Clone::clone).unwrap();
        let (sort, types) = if sorted {
            (vec![SortOptions::default()], vec![DataType::Int64])
        } else {
            (vec![], vec![])
        };
        StackGroupsAccumulator::new(columns, sort, types).unwrap()
    }

    fn text(acc: &StackGroupsAccumulator, array: &ArrayRef) -> Vec<Option<String>> {
        let tensor = AnyTensorType::Variable(acc.output.clone());
        let strings: StringArray = format_tensors(&tensor, array.as_ref(), "null", None).unwrap();
        strings.iter().map(|s| s.map(str::to_string)).collect()
    }

    #[allow(
        clippy::unnecessary_wraps,
        reason = "a valid row of the expected results"
    )]
    fn s(text: &str) -> Option<String> {
        Some(text.to_string())
    }

    #[test]
    fn emits_the_first_groups_then_the_rest_renumbered() {
        let mut acc = accumulator(false);
        let batch = lists(&[Some(vec![1, 2]), Some(vec![3]), None, Some(vec![4, 5])]);
        acc.update_batch(&[batch], &[0, 1, 2, 0], None, 3).unwrap();
        let batch = lists(&[Some(vec![6]), Some(vec![7, 8]), Some(vec![9, 9, 9])]);
        acc.update_batch(&[batch], &[1, 0, 3], None, 4).unwrap();
        let first = acc.evaluate(EmitTo::First(1)).unwrap();
        assert_eq!(text(&acc, &first), vec![s("[[1, 2], [4, 5], [7, 8]]")]);
        // Groups 1, 2, 3 are now 0, 1, 2; the first batch is still needed by group 1.
        let batch = lists(&[Some(vec![10])]);
        acc.update_batch(&[batch], &[0], None, 3).unwrap();
        let rest = acc.evaluate(EmitTo::All).unwrap();
        assert_eq!(
            text(&acc, &rest),
            vec![s("[[3], [6], [10]]"), None, s("[[9, 9, 9]]")]
        );
        assert!(acc.rows.is_empty() && acc.chunks.is_empty());
    }

    #[test]
    fn states_merge_to_the_same_stacks_in_order() {
        let batch = lists(&[Some(vec![1]), Some(vec![2]), Some(vec![3]), Some(vec![4])]);
        let order: ArrayRef = Arc::new(Int64Array::from(vec![3, 1, 2, 0]));
        let groups = [0, 0, 1, 0];
        let mut direct = accumulator(true);
        let inputs = [Arc::clone(&batch), Arc::clone(&order)];
        direct.update_batch(&inputs, &groups, None, 2).unwrap();
        let expected = direct.evaluate(EmitTo::All).unwrap();
        assert_eq!(
            text(&direct, &expected),
            vec![s("[[4], [2], [1]]"), s("[[3]]")]
        );

        // Partial states (one emitted early), merged in another accumulator.
        let mut partial = accumulator(true);
        partial.update_batch(&inputs, &groups, None, 2).unwrap();
        let mut merged = accumulator(true);
        let second = partial.state(EmitTo::First(1)).unwrap();
        let rest = partial.state(EmitTo::All).unwrap();
        merged.merge_batch(&rest, &[1], 2).unwrap();
        merged.merge_batch(&second, &[0], 2).unwrap();
        let out = merged.evaluate(EmitTo::All).unwrap();
        assert_eq!(text(&merged, &out), text(&direct, &expected));

        // Each row its own state (DataFusion's skipped partial aggregation).
        let mut converted = accumulator(true);
        let states = converted.convert_to_state(&inputs, None).unwrap();
        converted.merge_batch(&states, &groups, 2).unwrap();
        let out = converted.evaluate(EmitTo::All).unwrap();
        assert_eq!(text(&converted, &out), text(&direct, &expected));
    }

    #[test]
    fn a_bad_state_is_an_error_not_a_panic() {
        let mut acc = accumulator(false);
        let values = lists(&[Some(vec![1, 2, 3])]);
        // Says 2 rows of 2 values, holds 3 values.
        let shapes: ArrayRef =
            Arc::new(ListArray::from_iter_primitive::<UInt64Type, _, _>([Some(
                vec![Some(2u64), Some(2)],
            )]));
        let values = arrow::compute::cast(
            &values,
            &DataType::List(Arc::new(Field::new_list_field(DataType::Int64, true))),
        )
        .unwrap();
        assert!(acc.merge_batch(&[values, shapes], &[0], 1).is_err());
        assert!(acc.rows.is_empty());
    }
}
