//! `tensor_cross(x1, x2 [, axis])`: numpy 2's `linalg.cross` (the array API standard's) per
//! row. Each operand's `axis` (default -1) must hold 3-vectors; it is moved last (a
//! permutation, no value moves), the other dimensions broadcast, and the result has the
//! vectors at `axis` of its own dimensions (stored last, with a permutation where `axis` is
//! not the last: numpy's `moveaxis` view). Fixed-shape operands are planned when the query
//! is; variable-shape rows each in their shapes, an error naming the row. In numpy's promoted
//! type of the operands; booleans are numpy's error (cross subtracts).

use std::sync::Arc;

use arrow::array::{ArrayRef, AsArray, PrimitiveArray};
use arrow::buffer::NullBuffer;
use arrow::datatypes::{ArrowPrimitiveType, DataType, Field, FieldRef};
use datafusion::common::{ScalarValue, exec_err, plan_err};
use datafusion::error::Result;
use datafusion::logical_expr::{ColumnarValue, Documentation};

use super::args::integer_option;
use super::contract::axis_last;
use super::rows::{batch_args, readers, values_as, variable_result, views};
use crate::dtype::result_type;
use crate::kernels::layout::output_rows;
use crate::kernels::linalg::cross::{CrossElement, CrossPlan};
use crate::kernels::rows::{RowPlans, RowTensor};
use crate::kernels::with_primitive_type;
use crate::limits::Limits;
use crate::tensor_type::TensorType;
use crate::udf::{Parameters, PlanArgs, TensorFunction, tensor_documentation};
use crate::variable_shape::{AnyTensorType, VariableShapeType};

/// `tensor_cross`.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct TensorCross {
    documentation: Documentation,
}

impl Default for TensorCross {
    fn default() -> Self {
        Self::new()
    }
}

impl TensorCross {
    /// The registered instance.
    pub fn new() -> Self {
        Self {
            documentation: tensor_documentation(
                "numpy 2's linalg.cross (the array API standard's): the cross product of the 3-vectors along axis of x1 and x2 (default -1, the last), the other dimensions broadcast; the result holds the vectors at axis. Each component is numpy's a1 * b2 - a2 * b1 in the operands' promoted type (integers wrap); booleans are numpy's error.",
                "tensor_cross(x1, x2 [, axis])".to_string(),
                "tensor_cross([1, 0, 0], [0, 1, 0])",
                "[0, 0, 1]",
            )
            .with_argument(
                "x1",
                "A tensor (fixed- or variable-shape) whose axis has length 3, a list literal, or a number (0-d: numpy's error).",
            )
            .with_argument("x2", "As x1.")
            .with_argument(
                "axis",
                "A literal integer: the axis of each operand holding the vectors, and of the result (negative from the end); default -1.",
            )
            .build(),
        }
    }
}

/// A compiled call.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct CrossCall {
    /// The operands with `axis` moved last.
    operands: Vec<AnyTensorType>,
    /// The promoted type the product is worked in.
    compute: DataType,
    /// Fixed-shape operands: the product and the result type.
    fixed: Option<(CrossPlan, TensorType)>,
    /// Otherwise the result type (variable-shape).
    variable: Option<VariableShapeType>,
    limits: Limits,
}

/// The permutation putting the stored last dimension (the vectors) at `axis` of `ndim`
/// dimensions (`None`: it is the last).
fn vectors_at(axis: usize, ndim: usize) -> Option<Vec<usize>> {
    (axis + 1 != ndim).then(|| {
        (0..axis)
            .chain(std::iter::once(ndim - 1))
            .chain(axis..ndim - 1)
            .collect()
    })
}

impl TensorFunction for TensorCross {
    type Plan = CrossCall;

    fn name(&self) -> &'static str {
        "tensor_cross"
    }

    fn parameters(&self) -> Parameters {
        Parameters::Fixed {
            names: &["x1", "x2", "axis"],
            required: 2,
        }
    }

    fn documentation(&self) -> Option<&Documentation> {
        Some(&self.documentation)
    }

    fn tensor_arguments(&self, _arg_types: &[DataType]) -> Vec<usize> {
        vec![0, 1]
    }

    fn plan(&self, args: &PlanArgs<'_>) -> Result<CrossCall> {
        let name = args.name;
        let axis = integer_option(args, 2, "axis", -1)?;
        let inputs = [args.any_tensor(0, "x1")?, args.any_tensor(1, "x2")?];
        // numpy reads x.shape[axis] first: an IndexError past either operand's dimensions.
        if inputs
            .iter()
            .any(|x| crate::index::wrap_index(axis, x.ndim()).is_none())
        {
            return plan_err!("{name}: tuple index out of range");
        }
        let elements: Vec<DataType> = inputs.iter().map(|x| x.element_type().clone()).collect();
        let Some(compute) = result_type(&elements, &[]) else {
            return plan_err!(
                "{name}: no common type of {} and {}",
                elements[0],
                elements[1]
            );
        };
        if compute == DataType::Boolean {
            return plan_err!(
                "{name}: numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` operator, or the logical_xor function instead."
            );
        }
        let ndim = inputs.iter().map(AnyTensorType::ndim).max().unwrap_or(0);
        let out_axis = crate::index::wrap_index(axis, ndim).unwrap_or(ndim.saturating_sub(1));
        let permutation = vectors_at(out_axis, ndim);
        let operands = inputs
            .into_iter()
            .enumerate()
            .map(|(k, x)| axis_last(name, k, x, axis))
            .collect::<Result<Vec<_>>>()?;
        let fixed: Vec<(Vec<usize>, Vec<usize>)> = operands
            .iter()
            .filter_map(|o| match o {
                AnyTensorType::Fixed(t) => Some((t.logical_shape(), t.logical_strides())),
                AnyTensorType::Variable(_) => None,
            })
            .collect();
        if let [(s1, t1), (s2, t2)] = &fixed[..] {
            let layouts = [
                (s1.as_slice(), t1.as_slice()),
                (s2.as_slice(), t2.as_slice()),
            ];
            let product =
                CrossPlan::new(&layouts, &args.limits).map_err(|e| e.in_function(name))?;
            let output = TensorType::new(compute.clone(), product.shape())
                .and_then(|t| t.with_permutation(permutation))
                .map_err(|e| e.in_function(name))?;
            return Ok(CrossCall {
                operands,
                compute,
                fixed: Some((product, output)),
                variable: None,
                limits: args.limits,
            });
        }
        let variable = VariableShapeType::new(compute.clone(), ndim)
            .and_then(|t| t.with_permutation(permutation))
            .map_err(|e| e.in_function(name))?;
        Ok(CrossCall {
            operands,
            compute,
            fixed: None,
            variable: Some(variable),
            limits: args.limits,
        })
    }

    fn return_field(&self, plan: &CrossCall) -> FieldRef {
        Arc::new(match (&plan.fixed, &plan.variable) {
            (Some((_, output)), _) => output.to_field(self.name()),
            (None, Some(variable)) => variable.to_field(self.name()),
            (None, None) => Field::new(self.name(), DataType::Null, true),
        })
    }

    fn invoke(
        &self,
        plan: &CrossCall,
        args: &[ColumnarValue],
        number_rows: usize,
    ) -> Result<ColumnarValue> {
        let name = self.name();
        let scalar = args[..2]
            .iter()
            .all(|a| matches!(a, ColumnarValue::Scalar(_)));
        let rows = if scalar { 1 } else { number_rows };
        let data = [0, 1];
        let batches = batch_args(name, args, &data)?;
        let views = views(name, &plan.operands, &batches)?;
        let (readers, nulls) = readers(name, &plan.operands, &batches, &views, rows)?;
        let values = readers
            .iter()
            .map(|reader| values_as(reader, &plan.compute))
            .collect::<Result<Vec<_>>>()?;
        let out = with_primitive_type!(&plan.compute, P => {
            typed::<P>(name, plan, &readers, &values, nulls, rows)?
        }, _ => return exec_err!("{name}: cannot compute in {}", plan.compute));
        if scalar {
            Ok(ColumnarValue::Scalar(ScalarValue::try_from_array(&out, 0)?))
        } else {
            Ok(ColumnarValue::Array(out))
        }
    }
}

/// The result of every row, in `P`.
fn typed<P: ArrowPrimitiveType>(
    name: &str,
    plan: &CrossCall,
    readers: &[RowTensor<'_>],
    values: &[ArrayRef],
    nulls: Option<NullBuffer>,
    rows: usize,
) -> Result<ArrayRef>
where
    P::Native: CrossElement,
{
    let [a, b] = values else {
        return exec_err!("{name}: two operands expected");
    };
    // The operands' NULL elements (`true`: NULL), where either has any.
    let element_nulls = (a.null_count() + b.null_count() > 0).then(|| {
        let of = |v: &ArrayRef| -> Vec<bool> {
            match v.nulls() {
                Some(n) => n.iter().map(|valid| !valid).collect(),
                None => vec![false; v.len()],
            }
        };
        (of(a), of(b))
    });
    let (a, b) = (
        a.as_primitive::<P>().values().as_ref(),
        b.as_primitive::<P>().values().as_ref(),
    );
    let starts = |row: usize| [readers[0].span(row).0, readers[1].span(row).0];
    let mut out: Vec<P::Native> = Vec::new();
    let mut mask: Vec<bool> = Vec::new();
    let finish_values = |out: Vec<P::Native>, mask: Vec<bool>| -> ArrayRef {
        let nulls = element_nulls
            .as_ref()
            .map(|_| NullBuffer::from(mask.iter().map(|&null| !null).collect::<Vec<bool>>()));
        Arc::new(PrimitiveArray::<P>::new(out.into(), nulls))
    };
    if let Some((product, output)) = &plan.fixed {
        let len = 3 * product.batch.iter().product::<usize>();
        out.reserve(len.saturating_mul(rows));
        for row in 0..rows {
            if nulls.as_ref().is_some_and(|n| n.is_null(row)) {
                out.resize(out.len() + len, P::Native::default());
                if element_nulls.is_some() {
                    mask.resize(mask.len() + len, false);
                }
            } else {
                product.run(a, b, starts(row), &mut out);
                if let Some((n1, n2)) = &element_nulls {
                    product.run_nulls(n1, n2, starts(row), &mut mask);
                }
            }
        }
        let values = finish_values(out, mask);
        return Ok(output_rows(Some(output), values, nulls, rows)?);
    }
    let Some(variable) = &plan.variable else {
        return exec_err!("{name}: the result type was not planned");
    };
    let ndim = variable.ndim();
    let mut shapes = Vec::with_capacity(rows * ndim);
    let tensors: Vec<&RowTensor<'_>> = readers.iter().collect();
    let mut plans: RowPlans<CrossPlan> = RowPlans::default();
    let mut budget = crate::limits::ResultBudget::new(name, variable.element_type(), &plan.limits);
    for row in 0..rows {
        if nulls.as_ref().is_some_and(|n| n.is_null(row)) {
            shapes.extend(std::iter::repeat_n(0, ndim));
            continue;
        }
        let product = plans
            .get(&tensors, row, |layouts| {
                let layouts: Vec<(&[usize], &[usize])> = layouts
                    .iter()
                    .map(|(s, t)| (s.as_slice(), t.as_slice()))
                    .collect();
                CrossPlan::new(&layouts, &plan.limits)
            })
            .map_err(|e| e.in_function(name))?;
        let shape = product.shape();
        budget.add(shape.iter().product(), row)?;
        // Stored with the vectors last, padded in front to the result's dimensions.
        shapes.extend(std::iter::repeat_n(1, ndim - shape.len()));
        shapes.extend_from_slice(&shape);
        product.run(a, b, starts(row), &mut out);
        if let Some((n1, n2)) = &element_nulls {
            product.run_nulls(n1, n2, starts(row), &mut mask);
        }
    }
    let values = finish_values(out, mask);
    variable_result(name, variable, &values, &shapes, nulls.as_ref(), rows)
}
