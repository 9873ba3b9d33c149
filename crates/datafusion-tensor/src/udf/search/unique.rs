//! The array API standard's set functions per row: `tensor_unique_values(x)` (a 1-d
//! variable-shape tensor of the distinct elements, sorted), `tensor_unique_counts(x)` (a struct
//! `{values, counts}`), `tensor_unique_inverse(x)` (`{values, inverse_indices}`, the latter of
//! `x`'s shape, as numpy 2 returns it) and `tensor_unique_all(x)` (`{values, indices,
//! inverse_indices, counts}`), as numpy 2's functions of these names compute them: `x`
//! flattened, NaNs distinct (`equal_nan=False`), the values in `np.unique`'s sorted order
//! (numpy 2.3's `unique_values` may return them unsorted, which the standard allows).

use std::sync::Arc;

use arrow::array::ArrayRef;
use arrow::datatypes::{DataType, Field, Fields};
use datafusion::error::Result;

use super::topk::same_kind;
use super::{Logical, SearchFunction, struct_array, struct_field};
use crate::kernels::layout;
use crate::kernels::ragged;
use crate::kernels::search::unique::unique;
use crate::udf::PlanArgs;
use crate::udf::rows::known_shape;
use crate::variable_shape::{AnyTensorType, VariableShapeType};

/// A compiled `tensor_unique_*`.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct UniquePlan {
    function: SearchFunction,
    input: AnyTensorType,
    /// The distinct values' type (1-d, variable-shape).
    values: VariableShapeType,
    /// The indices' and counts' type.
    counts: VariableShapeType,
    /// The inverse indices' type (`x`'s shape).
    inverse: AnyTensorType,
}

impl UniquePlan {
    /// The struct's fields, in numpy's order (`values` alone for `unique_values`).
    fn fields(&self) -> Fields {
        let values = Arc::new(self.values.to_field("values"));
        let counts = Arc::new(self.counts.to_field("counts"));
        let indices = Arc::new(self.counts.to_field("indices"));
        let inverse = Arc::new(self.inverse.to_field("inverse_indices"));
        Fields::from(match self.function {
            SearchFunction::UniqueCounts => vec![values, counts],
            SearchFunction::UniqueInverse => vec![values, inverse],
            SearchFunction::UniqueAll => vec![values, indices, inverse, counts],
            _ => vec![values],
        })
    }

    pub(super) fn output_field(&self, name: &str) -> Field {
        match self.function {
            SearchFunction::UniqueValues => self.values.to_field(name),
            _ => struct_field(name, self.fields()),
        }
    }
}

pub(super) fn plan(function: SearchFunction, args: &PlanArgs<'_>) -> Result<UniquePlan> {
    let input = args.any_tensor(0, "x")?;
    let names = match &input {
        AnyTensorType::Fixed(t) => t.logical_dim_names(),
        AnyTensorType::Variable(t) => t.logical_dim_names(),
    };
    let inverse = same_kind(&input, &DataType::Int64, &known_shape(&input), names)?;
    Ok(UniquePlan {
        function,
        values: VariableShapeType::new(input.element_type().clone(), 1)?,
        counts: VariableShapeType::new(DataType::Int64, 1)?,
        inverse,
        input,
    })
}

pub(super) fn invoke(name: &str, plan: &UniquePlan, array: &ArrayRef) -> Result<ArrayRef> {
    let in_function = |e: crate::error::TensorError| e.in_function(name);
    let batch = Logical::read(name, &plan.input, array)?;
    let rows = batch.len();
    // The positions (first indices, inverse) only where the result has them.
    let positions = matches!(
        plan.function,
        SearchFunction::UniqueInverse | SearchFunction::UniqueAll
    );
    let found = unique(
        plan.input.element_type(),
        &batch.values,
        &batch.rows(),
        positions,
    )
    .map_err(in_function)?;
    let nulls = batch.nulls.clone();
    let shapes: Vec<i32> = found
        .lengths
        .iter()
        .map(|&n| i32::try_from(n).unwrap_or(i32::MAX))
        .collect();
    let one_d = |tensor: &VariableShapeType, values: ArrayRef| -> Result<ArrayRef> {
        Ok(Arc::new(
            ragged::from_rows(
                tensor,
                values,
                &found.lengths,
                shapes.clone(),
                nulls.clone(),
            )
            .map_err(in_function)?,
        ))
    };
    let values = one_d(&plan.values, found.values)?;
    if plan.function == SearchFunction::UniqueValues {
        return Ok(values);
    }
    let counts = one_d(&plan.counts, Arc::new(found.counts))?;
    if plan.function == SearchFunction::UniqueCounts {
        return struct_array(plan.fields(), vec![values, counts], nulls);
    }
    let indices = one_d(&plan.counts, Arc::new(found.indices))?;
    let inverse: ArrayRef = match &plan.inverse {
        AnyTensorType::Fixed(t) => Arc::new(layout::tensor_array(
            t,
            Arc::new(found.inverse),
            nulls.clone(),
            rows,
        )?),
        AnyTensorType::Variable(t) => {
            let mut lengths = Vec::with_capacity(rows);
            let mut row_shapes = Vec::with_capacity(rows * t.ndim());
            for row in 0..rows {
                let shape = batch.shape(row);
                lengths.push(batch.starts[row].map_or(0, |_| shape.iter().product()));
                row_shapes.extend(shape.iter().map(|&d| i32::try_from(d).unwrap_or(i32::MAX)));
            }
            Arc::new(
                ragged::from_rows(
                    t,
                    Arc::new(found.inverse),
                    &lengths,
                    row_shapes,
                    nulls.clone(),
                )
                .map_err(in_function)?,
            )
        }
    };
    let columns = match plan.function {
        SearchFunction::UniqueInverse => vec![values, inverse],
        _ => vec![values, indices, inverse, counts],
    };
    struct_array(plan.fields(), columns, nulls)
}
