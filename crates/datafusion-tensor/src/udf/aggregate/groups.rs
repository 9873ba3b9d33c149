//! An elementwise aggregate over many groups at once (DataFusion's `GroupsAccumulator`).

use arrow::array::{ArrayRef, BooleanArray};
use datafusion::error::Result;
use datafusion::logical_expr::{EmitTo, GroupsAccumulator};

use super::state::AggregateState;

/// The groups of one call.
#[derive(Debug)]
pub struct TensorGroupsAccumulator(pub AggregateState);

impl TensorGroupsAccumulator {
    fn count(&self, emit_to: EmitTo) -> usize {
        match emit_to {
            EmitTo::All => self.0.len(),
            EmitTo::First(n) => n.min(self.0.len()),
        }
    }
}

impl GroupsAccumulator for TensorGroupsAccumulator {
    fn update_batch(
        &mut self,
        values: &[ArrayRef],
        group_indices: &[usize],
        opt_filter: Option<&BooleanArray>,
        total_num_groups: usize,
    ) -> Result<()> {
        self.0
            .update(values, group_indices, opt_filter, total_num_groups)
    }

    fn evaluate(&mut self, emit_to: EmitTo) -> Result<ArrayRef> {
        let n = self.count(emit_to);
        self.0.evaluate(n, true)
    }

    fn state(&mut self, emit_to: EmitTo) -> Result<Vec<ArrayRef>> {
        let n = self.count(emit_to);
        self.0.state(n, true)
    }

    fn merge_batch(
        &mut self,
        values: &[ArrayRef],
        group_indices: &[usize],
        total_num_groups: usize,
    ) -> Result<()> {
        self.0.merge(values, group_indices, total_num_groups)
    }

    fn convert_to_state(
        &self,
        values: &[ArrayRef],
        opt_filter: Option<&BooleanArray>,
    ) -> Result<Vec<ArrayRef>> {
        self.0.convert_to_state(values, opt_filter)
    }

    fn size(&self) -> usize {
        self.0.size()
    }
}
