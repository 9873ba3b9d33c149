//! The state of an elementwise aggregate call, shared by its two DataFusion forms (one group:
//! [`super::accumulator`]; many: [`super::groups`]), and the layout of its intermediate state:
//! plain Arrow columns, so that partial states cross partitions and processes.
//!
//! State columns, one row per group:
//! - `count`: `UInt64`, the group's non-NULL rows;
//! - `shape`: `List<UInt64>`, the group's logical shape (NULL before any row);
//! - `nulls`: `List<UInt64>`, each element's count of NULLs among the group's rows (empty
//!   when there is none): an element with NULLs is NULL in the result;
//! - one `List` per accumulator part, row-major: the sums (sum, mean), products, minima or
//!   maxima, in the accumulator type; for var/std the running means and sums of squared
//!   deviations (`Float64` each), merged with Chan's formula.

use std::sync::Arc;

use arrow::array::{ArrayRef, BooleanArray};
use arrow::datatypes::{DataType, Field, FieldRef};
use datafusion::common::exec_err;
use datafusion::error::Result;

use super::columns::{Columns, state_field};
use crate::kernels::aggregate::{Aggregation, GroupStates, group_states};

/// The state fields of `aggregation` over the argument `columns` reads, named after `name`.
///
/// # Errors
/// An element type the aggregate does not take.
pub fn state_fields(
    name: &str,
    aggregation: Aggregation,
    columns: &Columns,
) -> Result<Vec<FieldRef>> {
    let states = group_states(aggregation, columns.input.element_type())
        .map_err(|e| e.in_function(columns.name))?;
    let list = |t: DataType| DataType::List(Arc::new(Field::new_list_field(t, false)));
    let mut fields = vec![
        state_field(name, "count", DataType::UInt64),
        state_field(name, "shape", list(DataType::UInt64)),
        state_field(name, "nulls", list(DataType::UInt64)),
    ];
    for (i, part) in states.state_types().into_iter().enumerate() {
        fields.push(state_field(name, &format!("part{i}"), list(part)));
    }
    Ok(fields)
}

/// An aggregate call's groups: their states and the column types.
#[derive(Debug)]
pub struct AggregateState {
    aggregation: Aggregation,
    columns: Columns,
    states: Box<dyn GroupStates>,
}

impl AggregateState {
    /// No groups yet.
    ///
    /// # Errors
    /// An element type the aggregate does not take.
    pub fn new(aggregation: Aggregation, columns: Columns) -> Result<Self> {
        let states = group_states(aggregation, columns.input.element_type())
            .map_err(|e| e.in_function(columns.name))?;
        Ok(Self {
            aggregation,
            columns,
            states,
        })
    }

    /// Makes room for `groups` groups.
    pub fn resize(&mut self, groups: usize) {
        self.states.resize(groups);
    }

    /// The states of each row of `values[0]` as a group of its own (rows left out by
    /// `filter` or NULL: states of no rows).
    pub fn convert_to_state(
        &self,
        values: &[ArrayRef],
        filter: Option<&BooleanArray>,
    ) -> Result<Vec<ArrayRef>> {
        let rows = values.first().map_or(0, |v| v.len());
        let mut own = Self::new(self.aggregation, self.columns.clone())?;
        let groups: Vec<usize> = (0..rows).collect();
        own.update(values, &groups, filter, rows)?;
        own.state(rows, false)
    }

    /// Folds rows of `values[0]` into `groups` (as many groups as `total` at least).
    pub fn update(
        &mut self,
        values: &[ArrayRef],
        groups: &[usize],
        filter: Option<&BooleanArray>,
        total: usize,
    ) -> Result<()> {
        let Some(array) = values.first() else {
            return exec_err!("{}: no argument", self.columns.name);
        };
        self.states.resize(total);
        let (states, name) = (&mut self.states, self.columns.name);
        self.columns.with_input(array, filter, |input| {
            states
                .update(input, groups)
                .map_err(|e| e.in_function(name))
        })
    }

    /// Takes rows of `values[0]` back out of `groups`.
    pub fn retract(&mut self, values: &[ArrayRef], groups: &[usize]) -> Result<()> {
        let Some(array) = values.first() else {
            return exec_err!("{}: no argument", self.columns.name);
        };
        let (states, name) = (&mut self.states, self.columns.name);
        let done = self.columns.with_input(array, None, |input| {
            states
                .retract(input, groups)
                .map_err(|e| e.in_function(name))
        })?;
        if done {
            Ok(())
        } else {
            exec_err!("{name}: cannot take rows out of a sliding window frame")
        }
    }

    /// Folds state rows into `groups`.
    pub fn merge(&mut self, states: &[ArrayRef], groups: &[usize], total: usize) -> Result<()> {
        self.states.resize(total);
        self.states
            .merge(states, groups)
            .map_err(|e| e.in_function(self.columns.name))
    }

    /// The results of the first `n` groups, dropped with `drain`.
    pub fn evaluate(&mut self, n: usize, drain: bool) -> Result<ArrayRef> {
        let results = self
            .states
            .evaluate(0..n, self.columns.fixed_size())
            .map_err(|e| e.in_function(self.columns.name))?;
        if drain {
            self.states.drain(n);
        }
        self.columns.output_array(results)
    }

    /// The states of the first `n` groups, dropped with `drain`.
    pub fn state(&mut self, n: usize, drain: bool) -> Result<Vec<ArrayRef>> {
        let state = self
            .states
            .state(0..n)
            .map_err(|e| e.in_function(self.columns.name))?;
        if drain {
            self.states.drain(n);
        }
        Ok(state)
    }

    /// The number of groups.
    pub fn len(&self) -> usize {
        self.states.len()
    }

    /// Memory held, in bytes.
    pub fn size(&self) -> usize {
        self.states.size() + std::mem::size_of::<Self>()
    }
}
