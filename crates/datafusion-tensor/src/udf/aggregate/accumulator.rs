//! An elementwise aggregate over one group (DataFusion's `Accumulator`: no GROUP BY, window
//! frames), the groups' state with a single group.

use arrow::array::ArrayRef;
use datafusion::common::ScalarValue;
use datafusion::error::Result;
use datafusion::logical_expr::Accumulator;

use super::columns::first_scalar;
use super::state::AggregateState;

/// One group's state; `retract` says whether the aggregate takes rows back out.
#[derive(Debug)]
pub struct TensorAccumulator {
    state: AggregateState,
    retract: bool,
    /// Group index 0 for every row of the largest batch seen.
    zeros: Vec<usize>,
}

impl TensorAccumulator {
    /// Over `state`, which takes rows back out if `retract`.
    pub fn new(mut state: AggregateState, retract: bool) -> Self {
        state.resize(1);
        Self {
            state,
            retract,
            zeros: Vec::new(),
        }
    }

    fn groups(&mut self, rows: usize) -> Vec<usize> {
        if self.zeros.len() < rows {
            self.zeros.resize(rows, 0);
        }
        std::mem::take(&mut self.zeros)
    }
}

impl Accumulator for TensorAccumulator {
    fn update_batch(&mut self, values: &[ArrayRef]) -> Result<()> {
        let rows = values.first().map_or(0, |v| v.len());
        let groups = self.groups(rows);
        let done = self.state.update(values, &groups[..rows], None, 1);
        self.zeros = groups;
        done
    }

    fn evaluate(&mut self) -> Result<ScalarValue> {
        first_scalar(&self.state.evaluate(1, false)?)
    }

    fn size(&self) -> usize {
        self.state.size() + self.zeros.capacity() * std::mem::size_of::<usize>()
    }

    fn state(&mut self) -> Result<Vec<ScalarValue>> {
        self.state
            .state(1, false)?
            .iter()
            .map(first_scalar)
            .collect()
    }

    fn merge_batch(&mut self, states: &[ArrayRef]) -> Result<()> {
        let rows = states.first().map_or(0, |v| v.len());
        let groups = self.groups(rows);
        let done = self.state.merge(states, &groups[..rows], 1);
        self.zeros = groups;
        done
    }

    fn retract_batch(&mut self, values: &[ArrayRef]) -> Result<()> {
        let rows = values.first().map_or(0, |v| v.len());
        let groups = self.groups(rows);
        let done = self.state.retract(values, &groups[..rows]);
        self.zeros = groups;
        done
    }

    fn supports_retract_batch(&self) -> bool {
        self.retract
    }
}
