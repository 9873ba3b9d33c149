//! `tensor_nonzero(x)`: numpy's `nonzero` per row, its tuple of `x.ndim` index arrays stacked
//! in order into one int64 tensor of shape `[ndim, count]` (variable-shape: the count differs
//! by row). `tensor_get(tensor_nonzero(x), 0)` is numpy's `nonzero(x)[0]`, and
//! `tensor_transpose(tensor_nonzero(x))` numpy's `argwhere(x)`. A row holding an element NULL
//! is NULL.

use std::sync::Arc;

use arrow::array::ArrayRef;
use arrow::buffer::NullBuffer;
use arrow::datatypes::DataType;
use datafusion::common::plan_err;
use datafusion::error::Result;

use super::Logical;
use crate::kernels::ragged;
use crate::kernels::search::nonzero::nonzero;
use crate::limits::{Limits, ResultBudget};
use crate::udf::PlanArgs;
use crate::variable_shape::{AnyTensorType, VariableShapeType};

/// A compiled `tensor_nonzero`.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct NonzeroPlan {
    input: AnyTensorType,
    pub(super) output: VariableShapeType,
    limits: Limits,
}

pub(super) fn plan(args: &PlanArgs<'_>) -> Result<NonzeroPlan> {
    let input = args.any_tensor(0, "x")?;
    let ndim = input.ndim();
    if ndim == 0 {
        return plan_err!(
            "{}: Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar).nonzero() instead.",
            args.name
        );
    }
    let output = VariableShapeType::new(DataType::Int64, 2)?
        .with_uniform_shape(Some(vec![Some(ndim), None]))?;
    Ok(NonzeroPlan {
        input,
        output,
        limits: args.limits,
    })
}

pub(super) fn invoke(name: &str, plan: &NonzeroPlan, array: &ArrayRef) -> Result<ArrayRef> {
    let batch = Logical::read(name, &plan.input, array)?;
    let found = nonzero(plan.input.element_type(), &batch.values, &batch.rows())
        .map_err(|e| e.in_function(name))?;
    let ndim = batch.ndim;
    let lengths: Vec<usize> = found.counts.iter().map(|&c| c * ndim).collect();
    ResultBudget::new(name, &DataType::Int64, &plan.limits)
        .add(lengths.iter().sum(), batch.len().saturating_sub(1))?;
    let mut shapes = Vec::with_capacity(batch.len() * 2);
    for (&count, &valid) in found.counts.iter().zip(&found.valid) {
        let count = if valid { count } else { 0 };
        shapes.extend(
            [if valid { ndim } else { 0 }, count].map(|d| i32::try_from(d).unwrap_or(i32::MAX)),
        );
    }
    let nulls = found
        .valid
        .contains(&false)
        .then(|| NullBuffer::from(found.valid));
    Ok(Arc::new(
        ragged::from_rows(
            &plan.output,
            Arc::new(found.values),
            &lengths,
            shapes,
            nulls,
        )
        .map_err(|e| e.in_function(name))?,
    ))
}
