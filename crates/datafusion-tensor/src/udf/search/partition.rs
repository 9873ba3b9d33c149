//! `tensor_argpartition(x, kth [, axis])`: numpy's `argpartition` along `axis` (default -1):
//! int64 indices of `x`'s shape that put each `kth` element (an integer or a list, negative
//! from the end) where a sort would put it, the smaller ones before it and the larger after
//! (numpy's order: NaN last). The order within each part is not numpy's (numpy promises only
//! the partition, and its introselect's order is its own).

use std::sync::Arc;

use arrow::array::ArrayRef;
use arrow::datatypes::DataType;
use datafusion::common::plan_err;
use datafusion::error::Result;

use super::Logical;
use super::topk::same_kind;
use crate::error::TensorError;
use crate::index::wrap_index;
use crate::kernels::reduce::cumulative::{Span, Spans};
use crate::kernels::search::partition::argpartition;
use crate::kernels::{layout, ragged};
use crate::udf::rows::known_shape;
use crate::udf::shape::{integer, normalize_axis};
use crate::udf::{PlanArgs, literal_int_list};
use crate::variable_shape::AnyTensorType;

/// A compiled `tensor_argpartition`.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct ArgpartitionPlan {
    input: AnyTensorType,
    kth: Vec<i64>,
    axis: usize,
    pub(super) output: AnyTensorType,
}

/// numpy's message for a `kth` outside an axis of length `n` (a negative one shown wrapped,
/// as numpy shows it).
fn out_of_bounds(kth: &[i64], n: usize) -> Option<String> {
    kth.iter().find(|&&k| wrap_index(k, n).is_none()).map(|&k| {
        let shown = if k < 0 {
            i128::from(k) + n as i128
        } else {
            i128::from(k)
        };
        format!("kth(={shown}) out of bounds ({n})")
    })
}

pub(super) fn plan(args: &PlanArgs<'_>) -> Result<ArgpartitionPlan> {
    let name = args.name;
    let input = args.any_tensor(0, "x")?;
    let literal = args.literal(1);
    let kth = match literal {
        Some(v) if v.data_type().is_integer() && !v.is_null() => vec![integer(args, 1, "kth", 0)?],
        Some(v) => match literal_int_list(v) {
            Some(kth) => kth,
            None => {
                return plan_err!(
                    "{name}: argument kth must be a literal integer or list of integers"
                );
            }
        },
        None => {
            return plan_err!("{name}: argument kth must be a literal integer or list of integers");
        }
    };
    let axis = normalize_axis(name, integer(args, 2, "axis", -1)?, input.ndim())?;
    let known = known_shape(&input);
    if let Some(n) = known[axis]
        && let Some(message) = out_of_bounds(&kth, n)
    {
        return plan_err!("{name}: {message}");
    }
    let names = match &input {
        AnyTensorType::Fixed(t) => t.logical_dim_names(),
        AnyTensorType::Variable(t) => t.logical_dim_names(),
    };
    let output = same_kind(&input, &DataType::Int64, &known, names)?;
    Ok(ArgpartitionPlan {
        input,
        kth,
        axis,
        output,
    })
}

pub(super) fn invoke(name: &str, plan: &ArgpartitionPlan, array: &ArrayRef) -> Result<ArrayRef> {
    let in_function = |e: TensorError| e.in_function(name);
    let batch = Logical::read(name, &plan.input, array)?;
    let rows = batch.len();
    let element = plan.input.element_type();
    let each: Vec<Option<Span>>;
    let spans = if batch.same {
        Spans::Same(rows, Span::new(&batch.shapes, Some(plan.axis)))
    } else {
        each = (0..rows)
            .map(|row| {
                let shape = batch.shape(row);
                match batch.starts[row] {
                    None => Ok(None),
                    Some(_) => match out_of_bounds(&plan.kth, shape[plan.axis]) {
                        Some(message) => Err(in_function(TensorError::Data(format!(
                            "{message} at row {row} of its batch"
                        )))),
                        None => Ok(Some(Span::new(shape, Some(plan.axis)))),
                    },
                }
            })
            .collect::<Result<_>>()?;
        Spans::Each(&each)
    };
    let out = argpartition(element, &batch.values, spans, &plan.kth).map_err(in_function)?;
    match &plan.output {
        AnyTensorType::Fixed(t) => Ok(Arc::new(layout::tensor_array(
            t,
            out,
            batch.nulls.clone(),
            rows,
        )?)),
        AnyTensorType::Variable(t) => {
            let mut lengths = Vec::with_capacity(rows);
            let mut shapes = Vec::with_capacity(rows * t.ndim());
            for row in 0..rows {
                let shape = batch.shape(row);
                lengths.push(batch.starts[row].map_or(0, |_| shape.iter().product()));
                shapes.extend(shape.iter().map(|&d| i32::try_from(d).unwrap_or(i32::MAX)));
            }
            Ok(Arc::new(
                ragged::from_rows(t, out, &lengths, shapes, batch.nulls.clone())
                    .map_err(in_function)?,
            ))
        }
    }
}
