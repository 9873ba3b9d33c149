//! `tensor_bincount(x [, weights [, minlength]])`: numpy's `bincount` of each 1-d row of
//! non-negative integers (int64 counts, or float64 sums of `weights`), a 1-d variable-shape
//! tensor of `max(x) + 1` elements (at least `minlength`). `tensor_one_hot(x, num_classes [,
//! dtype])`: `jax.nn.one_hot` of an integer tensor or number, a new last axis of
//! `num_classes` (float32 unless `dtype` says, as JAX's default), all zeros for a value out of
//! `0..num_classes`.

use std::sync::Arc;

use arrow::array::{Array, ArrayRef};
use arrow::buffer::NullBuffer;
use arrow::datatypes::DataType;
use datafusion::common::plan_err;
use datafusion::error::Result;

use super::{Logical, is_number};
use crate::kernels::cast::astype;
use crate::kernels::search::count::{bincount, one_hot};
use crate::kernels::{layout, ragged};
use crate::limits::{Limits, ResultBudget};
use crate::tensor_type::TensorType;
use crate::udf::PlanArgs;
use crate::udf::rows::known_shape;
use crate::udf::shape::{integer, is_omitted};
use crate::variable_shape::{AnyTensorType, VariableShapeType};

/// A compiled `tensor_bincount`.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct BincountPlan {
    input: AnyTensorType,
    weights: Option<AnyTensorType>,
    minlength: usize,
    pub(super) output: VariableShapeType,
    limits: Limits,
}

impl BincountPlan {
    pub(super) fn has_weights(&self) -> bool {
        self.weights.is_some()
    }
}

/// Whether numpy's `bincount` takes `element` (integers and booleans, cast to int64).
fn integral(element: &DataType) -> bool {
    element.is_integer() || *element == DataType::Boolean
}

pub(super) fn plan_bincount(args: &PlanArgs<'_>) -> Result<BincountPlan> {
    let name = args.name;
    let input = args.any_tensor(0, "x")?;
    if input.ndim() != 1 {
        return plan_err!(
            "{name}: object too deep for desired array (x must be 1-d, not {}-d)",
            input.ndim()
        );
    }
    let element = input.element_type();
    if !integral(element) {
        return plan_err!(
            "{name}: Cannot cast array data from dtype('{}') to dtype('int64') according to the rule 'safe'",
            crate::udf::math::dtype_name(element).unwrap_or_else(|| element.to_string())
        );
    }
    let weights = if is_omitted(args, 1) {
        None
    } else {
        let weights = args.any_tensor(1, "weights")?;
        let (x, w) = (known_shape(&input), known_shape(&weights));
        if weights.ndim() != 1 || matches!((x[0], w[0]), (Some(a), Some(b)) if a != b) {
            return plan_err!("{name}: The weights and list don't have the same length.");
        }
        Some(weights)
    };
    let minlength = integer(args, 2, "minlength", 0)?;
    let Ok(minlength) = usize::try_from(minlength) else {
        return plan_err!("{name}: 'minlength' must not be negative");
    };
    args.limits
        .checked_size(&[minlength])
        .map_err(|e| e.in_function(name))?;
    let out_element = if weights.is_some() {
        DataType::Float64
    } else {
        DataType::Int64
    };
    Ok(BincountPlan {
        input,
        weights,
        minlength,
        output: VariableShapeType::new(out_element, 1)?,
        limits: args.limits,
    })
}

pub(super) fn invoke_bincount(
    name: &str,
    plan: &BincountPlan,
    arrays: &[ArrayRef],
) -> Result<ArrayRef> {
    let in_function = |e: crate::error::TensorError| e.in_function(name);
    let x = Logical::read(name, &plan.input, &arrays[0])?;
    let w = match &plan.weights {
        Some(t) => Some(Logical::read(name, t, &arrays[1])?),
        None => None,
    };
    let mut rows = Vec::with_capacity(x.len());
    for row in 0..x.len() {
        let len = x.shape(row)[0];
        rows.push(match (x.starts[row], &w) {
            (None, _) => None,
            (Some(start), None) => Some((start, len)),
            (Some(start), Some(w)) => match w.starts[row] {
                None => None,
                // The weights are read at x's positions: both rows in one layout.
                Some(_) if w.shape(row)[0] != len => {
                    return Err(in_function(crate::error::TensorError::Data(format!(
                        "The weights and list don't have the same length at row {row} of its batch"
                    ))));
                }
                Some(_) => Some((start, len)),
            },
        });
    }
    // With weights, each row's weights are moved to x's positions.
    let weights = match &w {
        None => None,
        Some(w) if w.starts == x.starts => Some(Arc::clone(&w.values)),
        Some(w) => {
            let mut indices: Vec<u64> = vec![0; x.values.len()];
            for (row, r) in rows.iter().enumerate() {
                if let (Some((start, len)), Some(w_start)) = (r, w.starts[row]) {
                    for k in 0..*len {
                        indices[start + k] = (w_start + k) as u64;
                    }
                }
            }
            Some(arrow::compute::take(
                &w.values,
                &arrow::array::UInt64Array::from(indices),
                None,
            )?)
        }
    };
    let max_len = plan.limits.max_tensor_elements;
    let max_total = plan.limits.max_batch_bytes / 8;
    let (values, lengths, valid) = bincount(
        &x.values,
        weights.as_ref(),
        &rows,
        plan.minlength,
        (max_len, max_total),
    )
    .map_err(in_function)?;
    let shapes: Vec<i32> = lengths
        .iter()
        .map(|&n| i32::try_from(n).unwrap_or(i32::MAX))
        .collect();
    let nulls = valid.contains(&false).then(|| NullBuffer::from(valid));
    Ok(Arc::new(
        ragged::from_rows(&plan.output, values, &lengths, shapes, nulls).map_err(in_function)?,
    ))
}

/// A compiled `tensor_one_hot`.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct OneHotPlan {
    /// `x`'s type; `None`: a number.
    input: Option<AnyTensorType>,
    num_classes: usize,
    pub(super) output: AnyTensorType,
    limits: Limits,
}

pub(super) fn plan_one_hot(args: &PlanArgs<'_>) -> Result<OneHotPlan> {
    let name = args.name;
    let x_type = args.fields[0].data_type();
    let input = if is_number(x_type) {
        None
    } else {
        Some(args.any_tensor(0, "x")?)
    };
    let element = input.as_ref().map_or(x_type, AnyTensorType::element_type);
    if !(element.is_integer() || *element == DataType::Boolean) {
        return plan_err!("{name}: x must hold integers (class indices), not {element}");
    }
    if is_omitted(args, 1) {
        return plan_err!("{name}: argument num_classes must be a literal integer, not NULL");
    }
    let num_classes = integer(args, 1, "num_classes", 0)?;
    let Ok(num_classes) = usize::try_from(num_classes) else {
        return plan_err!("{name}: num_classes must be non-negative, got {num_classes}");
    };
    let dtype = match crate::udf::create::dtype_arg(args, 2)? {
        Some(t) => t,
        None => DataType::Float32,
    };
    // Refused before anything is allocated: the new axis alone past the element limit.
    args.limits
        .checked_size(&[num_classes])
        .map_err(|e| e.in_function(name))?;
    let output = match &input {
        None => AnyTensorType::Fixed(TensorType::new(dtype, vec![num_classes])?),
        Some(AnyTensorType::Fixed(t)) => {
            let mut shape = t.logical_shape();
            shape.push(num_classes);
            args.limits
                .checked_size(&shape)
                .map_err(|e| e.in_function(name))?;
            AnyTensorType::Fixed(TensorType::new(dtype, shape)?)
        }
        Some(AnyTensorType::Variable(t)) => {
            let mut uniform = t.logical_uniform_shape();
            uniform.push(Some(num_classes));
            AnyTensorType::Variable(
                VariableShapeType::new(dtype, uniform.len())?.with_uniform_shape(Some(uniform))?,
            )
        }
    };
    Ok(OneHotPlan {
        input,
        num_classes,
        output,
        limits: args.limits,
    })
}

pub(super) fn invoke_one_hot(name: &str, plan: &OneHotPlan, array: &ArrayRef) -> Result<ArrayRef> {
    let in_function = |e: crate::error::TensorError| e.in_function(name);
    let n = plan.num_classes;
    let element = plan.output.element_type();
    match (&plan.input, &plan.output) {
        (None, AnyTensorType::Fixed(t)) => {
            let values =
                astype(&one_hot(array, n).map_err(in_function)?, element).map_err(in_function)?;
            Ok(Arc::new(layout::tensor_array(
                t,
                values,
                array.logical_nulls(),
                array.len(),
            )?))
        }
        (Some(input), AnyTensorType::Fixed(t)) => {
            let x = Logical::read(name, input, array)?;
            let values = astype(&one_hot(&x.values, n).map_err(in_function)?, element)
                .map_err(in_function)?;
            Ok(Arc::new(layout::tensor_array(
                t,
                values,
                x.nulls.clone(),
                x.len(),
            )?))
        }
        (Some(input), AnyTensorType::Variable(t)) => {
            let x = Logical::read(name, input, array)?;
            // The result's size is known only now: checked before it is allocated.
            ResultBudget::new(name, element, &plan.limits)
                .add(x.values.len().saturating_mul(n), x.len().saturating_sub(1))?;
            let values = astype(&one_hot(&x.values, n).map_err(in_function)?, element)
                .map_err(in_function)?;
            let mut lengths = Vec::with_capacity(x.len());
            let mut shapes = Vec::with_capacity(x.len() * t.ndim());
            for row in 0..x.len() {
                let shape = x.shape(row);
                match x.starts[row] {
                    None => {
                        lengths.push(0);
                        shapes.extend(std::iter::repeat_n(0, t.ndim()));
                    }
                    Some(_) => {
                        lengths.push(shape.iter().product::<usize>() * n);
                        shapes.extend(
                            shape
                                .iter()
                                .chain([&n])
                                .map(|&d| i32::try_from(d).unwrap_or(i32::MAX)),
                        );
                    }
                }
            }
            Ok(Arc::new(
                ragged::from_rows(t, values, &lengths, shapes, x.nulls.clone())
                    .map_err(in_function)?,
            ))
        }
        (None, AnyTensorType::Variable(_)) => {
            datafusion::common::internal_err!("{name}: a number planned a variable-shape result")
        }
    }
}
