//! `tensor_choose` with fixed-shape (or scalar) arguments only ([`ChoosePlan`]): `a` and the
//! choices broadcast to one shape when the query is planned, each input's offsets into it
//! compiled once ([`offsets_into`]); a batch runs through [`crate::kernels::choose::choose`].

use std::sync::Arc;

use arrow::array::{ArrayRef, new_null_array};
use arrow::buffer::NullBuffer;
use arrow::datatypes::{DataType, Field};
use datafusion::common::{ScalarValue, internal_err, plan_err};
use datafusion::error::Result;
use datafusion::logical_expr::ColumnarValue;

use super::NAME;
use super::args::{Form, Operand, cast_choice, plan_form, plan_index, result_element};
use crate::kernels::broadcast::offsets_into;
use crate::kernels::choose::{ChoiceInputs, ChooseBatch, ChooseMode, Input, choose};
use crate::kernels::layout::output_rows;
use crate::shape::broadcast_labelled;
use crate::tensor_type::TensorType;
use crate::udf::PlanArgs;
use crate::udf::batch_args::{BatchArg, elements, evaluate, row_nulls};

/// One choice of the several-arguments form, with its offsets into the result.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Choice {
    operand: Operand,
    /// Offset within the choice's row for each result position; `None` when its row-major
    /// layout is the result's.
    offsets: Option<Vec<u32>>,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Choices {
    /// Each choice an argument (or an element of a literal list).
    Each(Vec<Choice>),
    /// One tensor whose outer (logical) axis enumerates `count` choices, `stride` elements
    /// apart in a row; `offsets` place one choice's elements in the result.
    Stacked {
        tensor: TensorType,
        count: usize,
        stride: usize,
        offsets: Option<Vec<u32>>,
    },
    /// A list column: scalar choices, their number varying per row.
    ListColumn,
}

/// A compiled `tensor_choose` call.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct ChoosePlan {
    mode: ChooseMode,
    /// `a`: a tensor or an integer/boolean column or literal.
    a: Operand,
    /// `a`'s offsets into the result (see [`Choice::offsets`]).
    a_offsets: Option<Vec<u32>>,
    choices: Choices,
    /// The result element type.
    element: DataType,
    /// The result shape; `[]` gives a plain scalar column.
    pub(super) shape: Vec<usize>,
    /// The result tensor type, `None` for 0-d results.
    output: Option<TensorType>,
    /// How many leading arguments are data (`a` and the choices); a mode argument follows.
    pub(super) data_args: usize,
}

impl ChoosePlan {
    /// The result field: a tensor, or a plain value for a 0-d result.
    pub(super) fn output_field(&self, name: &str) -> Field {
        match &self.output {
            Some(tensor) => tensor.to_field(name),
            None => Field::new(name, self.element.clone(), true),
        }
    }
}

/// The logical shape and per-axis strides of an operand (scalars are 0-d).
fn layout(operand: &Operand) -> (Vec<usize>, Vec<usize>) {
    match operand {
        Operand::Tensor(t) => (t.logical_shape(), t.logical_strides()),
        _ => (vec![], vec![]),
    }
}

/// The choices with their offsets into the broadcast result `shape`: `operands` for choices
/// given one by one (literals cast), else a stacked tensor and its number of choices, else a
/// list column.
fn compile_choices(
    operands: Option<Vec<Operand>>,
    stacked: Option<(TensorType, usize)>,
    shape: &[usize],
) -> Choices {
    match (operands, stacked) {
        (Some(operands), _) => Choices::Each(
            operands
                .into_iter()
                .map(|operand| {
                    let (s, st) = layout(&operand);
                    let permuted = matches!(&operand, Operand::Tensor(t) if t.is_permuted());
                    let offsets = if s.is_empty() {
                        // Scalars: every position reads the row's one value.
                        Some(vec![0; shape.iter().product()])
                    } else {
                        offsets_into(&s, &st, permuted, shape)
                    };
                    Choice { operand, offsets }
                })
                .collect(),
        ),
        (None, Some((tensor, count))) => {
            let logical = tensor.logical_shape();
            let strides = tensor.logical_strides();
            let permuted = tensor.is_permuted();
            // One choice's layout: the tensor without its outer axis. Row-major rest
            // (no permutation) is the identity only if it equals the result shape.
            let offsets = offsets_into(&logical[1..], &strides[1..], permuted, shape);
            Choices::Stacked {
                stride: strides[0],
                tensor,
                count,
                offsets,
            }
        }
        (None, None) => Choices::ListColumn,
    }
}

/// Plans `tensor_choose` with fixed-shape (or scalar) arguments only: `a` and the choices
/// broadcast to one shape, each input's offsets into it compiled once.
pub(super) fn plan_fixed(
    args: &PlanArgs<'_>,
    data_args: usize,
    mode: ChooseMode,
) -> Result<ChoosePlan> {
    let a = plan_index(args)?;
    let form = plan_form(args, data_args)?;
    let element = result_element(&form)?;
    let cast_checked = |value: &ScalarValue| cast_choice(value, &element);

    // Choices as operands (literals cast), and their shapes for broadcasting.
    let (a_shape, a_strides) = layout(&a);
    let mut labelled: Vec<(String, Vec<usize>)> = Vec::new();
    let operands: Option<Vec<Operand>> = match &form {
        Form::Each(operands) => Some(
            operands
                .iter()
                .map(|operand| match operand {
                    Operand::Literal(value) => cast_checked(value).map(Operand::Literal),
                    other => Ok(other.clone()),
                })
                .collect::<Result<Vec<_>>>()?,
        ),
        Form::ListLiteral(values) => {
            if values.is_empty() {
                // numpy: ValueError: 0-length sequence.
                return plan_err!("tensor_choose: 0-length sequence: there are no choices");
            }
            Some(
                values
                    .iter()
                    .map(|v| cast_checked(v).map(Operand::Literal))
                    .collect::<Result<Vec<_>>>()?,
            )
        }
        _ => None,
    };
    if let Some(operands) = &operands {
        for (i, operand) in operands.iter().enumerate() {
            labelled.push((format!("choice {i}"), layout(operand).0));
        }
    }
    let stacked = match &form {
        Form::Stacked(tensor) => {
            let shape = tensor.logical_shape();
            let Some(&count) = shape.first() else {
                return plan_err!(
                    "tensor_choose: a 0-d tensor cannot enumerate choices; give a tensor whose outer dimension lists them"
                );
            };
            if count == 0 {
                return plan_err!("tensor_choose: 0-length sequence: there are no choices");
            }
            labelled.push(("choices[i]".to_string(), shape[1..].to_vec()));
            Some((tensor.clone(), count))
        }
        _ => None,
    };
    // numpy broadcasts the choices first, then a (its error names them in that order).
    labelled.push(("a".to_string(), a_shape.clone()));
    let refs: Vec<(&str, &[usize])> = labelled
        .iter()
        .map(|(label, shape)| (label.as_str(), shape.as_slice()))
        .collect();
    let shape = broadcast_labelled(&refs)
        .and_then(|shape| args.limits.checked_size(&shape).map(|_| shape))
        .map_err(|e| datafusion::common::plan_datafusion_err!("tensor_choose: {e}"))?;

    let a_permuted = matches!(&a, Operand::Tensor(t) if t.is_permuted());
    let a_offsets = offsets_into(&a_shape, &a_strides, a_permuted, &shape);
    let choices = compile_choices(operands, stacked, &shape);

    let output = if shape.is_empty() {
        None
    } else {
        let dim_names = match &a {
            Operand::Tensor(t) if t.logical_shape() == shape => t.logical_dim_names(),
            _ => None,
        };
        Some(TensorType::new(element.clone(), shape.clone())?.with_dim_names(dim_names)?)
    };
    Ok(ChoosePlan {
        mode,
        a,
        a_offsets,
        choices,
        element,
        shape,
        output,
        data_args,
    })
}

pub(super) fn choose_batch(
    plan: &ChoosePlan,
    data: &[ColumnarValue],
    rows: usize,
) -> Result<ArrayRef> {
    let out_type = match &plan.output {
        Some(tensor) => tensor.storage_type(),
        None => plan.element.clone(),
    };
    let any_null_literal = matches!(plan.a, Operand::Null)
        || matches!(&plan.choices, Choices::Each(c) if c.iter().any(|c| c.operand == Operand::Null));
    if any_null_literal {
        return Ok(new_null_array(&out_type, rows));
    }
    let list_column = matches!(plan.choices, Choices::ListColumn);
    // With per-row choice counts, a literal index is checked against every row's count.
    let a_arg = evaluate(&data[0], rows, list_column)?;
    let choice_args = data[1..]
        .iter()
        .map(|value| evaluate(value, rows, false))
        .collect::<Result<Vec<_>>>()?;

    // Row NULLs: a NULL in any argument.
    let mut nulls = row_nulls(&a_arg, rows);
    for arg in &choice_args {
        nulls = NullBuffer::union(nulls.as_ref(), row_nulls(arg, rows).as_ref());
    }

    let a_is_tensor = matches!(plan.a, Operand::Tensor(_));
    let (values, row_len) = elements(NAME, a_is_tensor, &a_arg)?;
    let a = Input {
        valid: if a_is_tensor {
            values.logical_nulls()
        } else {
            None
        },
        values,
        row_len,
        offsets: plan.a_offsets.as_deref(),
    };
    let choices = match &plan.choices {
        Choices::Each(choices) => ChoiceInputs::Each(
            choices
                .iter()
                .enumerate()
                .map(|(i, choice)| choice_input(i, choice, choice_args.get(i)))
                .collect::<Result<Vec<_>>>()?,
        ),
        Choices::Stacked {
            count,
            stride,
            offsets,
            ..
        } => {
            let (values, row_len) = elements(NAME, true, &choice_args[0])?;
            ChoiceInputs::Stacked {
                input: Input {
                    valid: values.logical_nulls(),
                    values,
                    row_len,
                    offsets: offsets.as_deref(),
                },
                count: *count,
                stride: *stride,
            }
        }
        Choices::ListColumn => ChoiceInputs::List(Arc::clone(&choice_args[0].array)),
    };
    let batch = ChooseBatch {
        a,
        choices,
        mode: plan.mode,
        element: plan.element.clone(),
        rows,
        out_row_len: plan.shape.iter().product(),
        row_nulls: nulls.as_ref(),
    };
    let values = choose(&batch).map_err(|err| err.in_function("tensor_choose"))?;
    Ok(output_rows(plan.output.as_ref(), values, nulls, rows)?)
}

/// One choice of the several-arguments form as the kernel reads it. Literals (also a literal
/// list's elements) come from the plan, cast already.
fn choice_input<'a>(i: usize, choice: &'a Choice, arg: Option<&BatchArg>) -> Result<Input<'a>> {
    let (values, row_len) = match (&choice.operand, arg) {
        (Operand::Literal(value), _) => (value.to_array_of_size(1)?, 0),
        (operand, Some(arg)) => elements(NAME, matches!(operand, Operand::Tensor(_)), arg)?,
        (_, None) => return internal_err!("tensor_choose: choice {i} has no argument"),
    };
    let valid = match &choice.operand {
        Operand::Tensor(_) => values.logical_nulls(),
        // A NULL element of a literal list is NULL wherever it is chosen.
        Operand::Literal(value) if value.is_null() => Some(NullBuffer::new_null(1)),
        _ => None,
    };
    Ok(Input {
        values,
        row_len,
        offsets: choice.offsets.as_deref(),
        valid,
    })
}
