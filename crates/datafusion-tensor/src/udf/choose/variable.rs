//! `tensor_choose` once `a` or a choice is variable-shape ([`VariableChoosePlan`]): `a` and
//! the tensor choices (of either kind) broadcast row by row, one plan per combination of row
//! shapes ([`crate::kernels::choose::ragged`]); the result is fixed-shape when the dimensions
//! known in every row fix it.

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, new_null_array};
use arrow::buffer::NullBuffer;
use arrow::datatypes::{DataType, Field};
use datafusion::common::{ScalarValue, plan_err};
use datafusion::error::Result;
use datafusion::logical_expr::ColumnarValue;

use super::NAME;
use super::args::{
    Form, Operand, cast_choice, check_index_element, plan_choice, plan_form, plan_index,
    result_element,
};
use crate::kernels::choose::ChooseMode;
use crate::kernels::choose::ragged::{
    EnumeratedChoices, RaggedChoice, choose_enumerated, choose_rows,
};
use crate::kernels::layout::output_rows;
use crate::kernels::ragged::{self, IndexedRows};
use crate::kernels::rows::{RowTensor, pad_null_rows};
use crate::limits::Limits;
use crate::tensor_type::TensorType;
use crate::udf::rows::{broadcast_known, known_shape, output_of_known, row_tensor, view_of};
use crate::udf::{PlanArgs, variable_of};
use crate::variable_shape::AnyTensorType;

/// A choice of `tensor_choose` once `a` or a choice is variable-shape.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum VariableChoice {
    /// A tensor (variable- or fixed-shape), broadcast with `a` and the others in each row.
    Tensor(AnyTensorType),
    /// A numeric or boolean column: one value per row.
    Column,
    /// A literal, cast to the result type.
    Literal(ScalarValue),
    /// A NULL literal: every row is NULL.
    Null,
}

/// The choices of `tensor_choose` once `a` or a choice is variable-shape, in numpy's three
/// forms.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum VariableChoices {
    /// Given one by one (or as one list literal of scalars).
    Each(Vec<VariableChoice>),
    /// One tensor (variable- or fixed-shape) whose outer axis enumerates each row's choices.
    Stacked(AnyTensorType),
    /// A list column: each row's scalar choices.
    ListColumn,
}

/// A compiled `tensor_choose` call where `a` or a choice is variable-shape: each row's `a` and
/// tensor choices broadcast together (numpy's rules), one plan per combination of row shapes.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct VariableChoosePlan {
    mode: ChooseMode,
    /// `a`: a tensor, or a scalar (0-d fixed-shape) column; `None`: a NULL literal.
    a: Option<AnyTensorType>,
    choices: VariableChoices,
    element: DataType,
    /// Fixed-shape when every row's broadcast shape is known when the query is planned.
    output: AnyTensorType,
    pub(super) data_args: usize,
    /// The session's limits, which each row's broadcast shape is checked against.
    limits: Limits,
}

impl VariableChoosePlan {
    /// The result field: a tensor, or a plain value when every row's result is 0-d.
    pub(super) fn output_field(&self, name: &str) -> Field {
        match &self.output {
            AnyTensorType::Fixed(t) if t.ndim() == 0 => {
                Field::new(name, self.element.clone(), true)
            }
            output => output.to_field(name),
        }
    }
}

/// Plans `tensor_choose` with a variable-shape `a` or choice, the choices in any of numpy's
/// forms: one by one (tensors of either kind, numeric columns, literals), one tensor of either
/// kind enumerating each row's choices by its outer dimension, or one list (a literal, or a
/// column of each row's scalar choices).
pub(super) fn plan_variable(
    args: &PlanArgs<'_>,
    data_args: usize,
    mode: ChooseMode,
) -> Result<VariableChoosePlan> {
    let a = match variable_of(&args.fields[0])? {
        Some(a) => {
            check_index_element(a.element_type(), args.fields[0].data_type())?;
            Some(AnyTensorType::Variable(a))
        }
        None => match plan_index(args)? {
            Operand::Tensor(a) => Some(AnyTensorType::Fixed(a)),
            Operand::Column(data_type) => {
                Some(AnyTensorType::Fixed(TensorType::new(data_type, vec![])?))
            }
            _ => None,
        },
    };
    // Tensor choices enter the result type as their element type.
    let mut tensors = vec![None; data_args];
    let form = if data_args > 2 {
        let mut operands = Vec::new();
        for (i, slot) in tensors.iter_mut().enumerate().skip(1) {
            if let Some(tensor) = variable_of(&args.fields[i])? {
                operands.push(Operand::Column(tensor.element_type().clone()));
                *slot = Some(AnyTensorType::Variable(tensor));
                continue;
            }
            match plan_choice(args, i)? {
                Operand::Tensor(tensor) => {
                    operands.push(Operand::Column(tensor.element_type().clone()));
                    *slot = Some(AnyTensorType::Fixed(tensor));
                }
                operand => operands.push(operand),
            }
        }
        Form::Each(operands)
    } else if let Some(tensor) = variable_of(&args.fields[1])? {
        return plan_variable_stacked(
            a,
            AnyTensorType::Variable(tensor),
            mode,
            data_args,
            args.limits,
        );
    } else {
        plan_form(args, data_args)?
    };
    let element = result_element(&form)?;
    let choices = match form {
        Form::Each(operands) => operands
            .into_iter()
            .zip(tensors.into_iter().skip(1))
            .map(|(operand, tensor)| {
                Ok(match (operand, tensor) {
                    (_, Some(tensor)) => VariableChoice::Tensor(tensor),
                    (Operand::Literal(value), _) => {
                        VariableChoice::Literal(cast_choice(&value, &element)?)
                    }
                    (Operand::Null, _) => VariableChoice::Null,
                    _ => VariableChoice::Column,
                })
            })
            .collect::<Result<Vec<_>>>()?,
        Form::ListLiteral(values) => {
            if values.is_empty() {
                // numpy: ValueError: 0-length sequence.
                return plan_err!("tensor_choose: 0-length sequence: there are no choices");
            }
            values
                .iter()
                .map(|v| cast_choice(v, &element).map(VariableChoice::Literal))
                .collect::<Result<Vec<_>>>()?
        }
        Form::Stacked(tensor) => {
            return plan_variable_stacked(
                a,
                AnyTensorType::Fixed(tensor),
                mode,
                data_args,
                args.limits,
            );
        }
        Form::ListColumn(_) => {
            // Each row's scalars take the shape of its a.
            let known = a.as_ref().map(known_shape).unwrap_or_default();
            return variable_plan(
                a,
                VariableChoices::ListColumn,
                element,
                &known,
                mode,
                data_args,
                args.limits,
            );
        }
    };
    // The dimensions every row's broadcast shape has, known when the query is planned.
    let mut known = Vec::new();
    if let Some(a) = &a {
        known.push(known_shape(a));
    }
    for choice in &choices {
        if let VariableChoice::Tensor(tensor) = choice {
            known.push(known_shape(tensor));
        }
    }
    let shape = broadcast_known(NAME, &known)?;
    variable_plan(
        a,
        VariableChoices::Each(choices),
        element,
        &shape,
        mode,
        data_args,
        args.limits,
    )
}

/// Plans `tensor_choose(a, c)` with `c` one tensor whose outer dimension enumerates the choices
/// (numpy's `choose(a, c)` of an array `c`), `a` or `c` variable-shape: in each row `c[k]`
/// broadcasts with `a`, and the row has `c`'s outer length of choices.
fn plan_variable_stacked(
    a: Option<AnyTensorType>,
    tensor: AnyTensorType,
    mode: ChooseMode,
    data_args: usize,
    limits: Limits,
) -> Result<VariableChoosePlan> {
    let known = known_shape(&tensor);
    let Some((&count, rest)) = known.split_first() else {
        return plan_err!(
            "tensor_choose: a 0-d tensor cannot enumerate choices; give a tensor whose outer dimension lists them"
        );
    };
    if count == Some(0) {
        // numpy: ValueError: 0-length sequence.
        return plan_err!("tensor_choose: 0-length sequence: there are no choices");
    }
    let mut shapes = vec![rest.to_vec()];
    if let Some(a) = &a {
        shapes.push(known_shape(a));
    }
    let shape = broadcast_known(NAME, &shapes)?;
    let element = tensor.element_type().clone();
    variable_plan(
        a,
        VariableChoices::Stacked(tensor),
        element,
        &shape,
        mode,
        data_args,
        limits,
    )
}

/// The plan of a variable-shape call whose rows broadcast to `shape` (dimensions known at
/// planning; `None` where rows differ): fixed-shape output when every one is known. a's dim
/// names survive when its dims are the result's.
fn variable_plan(
    a: Option<AnyTensorType>,
    choices: VariableChoices,
    element: DataType,
    shape: &[Option<usize>],
    mode: ChooseMode,
    data_args: usize,
    limits: Limits,
) -> Result<VariableChoosePlan> {
    let dim_names = match &a {
        Some(AnyTensorType::Variable(a)) if a.ndim() == shape.len() => a.logical_dim_names(),
        Some(AnyTensorType::Fixed(a)) if a.ndim() == shape.len() => a.logical_dim_names(),
        _ => None,
    };
    let output = output_of_known(&element, shape, dim_names)?;
    Ok(VariableChoosePlan {
        mode,
        a,
        choices,
        element,
        output,
        data_args,
        limits,
    })
}

/// One batch of `tensor_choose` with a variable-shape `a` or choice.
pub(super) fn choose_variable(
    plan: &VariableChoosePlan,
    data: &[ColumnarValue],
    rows: usize,
) -> Result<ArrayRef> {
    let Some(a_type) = &plan.a else {
        return Ok(new_null_array(plan.output_field(NAME).data_type(), rows));
    };
    let each = match &plan.choices {
        VariableChoices::Each(each) if each.contains(&VariableChoice::Null) => {
            return Ok(new_null_array(plan.output_field(NAME).data_type(), rows));
        }
        VariableChoices::Each(each) => Some(each),
        _ => None,
    };
    let arrays = data
        .iter()
        .map(|value| value.to_array(rows))
        .collect::<Result<Vec<_>>>()?;
    let a_view = view_of(NAME, a_type, &arrays[0])?;
    let a = row_tensor(NAME, a_type, &arrays[0], a_view.as_ref(), false)?;
    let out_ndim = match &plan.output {
        AnyTensorType::Fixed(output) => output.ndim(),
        AnyTensorType::Variable(output) => output.ndim(),
    };
    // The choices each row enumerates: a stacked tensor's outer axis, or a list column.
    let enumerated = |choices: EnumeratedChoices<'_>, nulls: Option<NullBuffer>| {
        choose_enumerated(
            &a,
            choices,
            plan.mode,
            nulls.as_ref(),
            rows,
            out_ndim,
            &plan.limits,
        )
        .map(|out| (out, nulls))
        .map_err(|e| e.in_function(NAME))
    };
    let (out, nulls) = match (each, &plan.choices) {
        (Some(each), _) => choose_each(plan, each, &a, &arrays, rows, out_ndim)?,
        (None, VariableChoices::Stacked(tensor_type)) => {
            let view = view_of(NAME, tensor_type, &arrays[1])?;
            let tensor = row_tensor(NAME, tensor_type, &arrays[1], view.as_ref(), false)?;
            let nulls = NullBuffer::union(a.nulls(), tensor.nulls());
            enumerated(EnumeratedChoices::Stacked(&tensor), nulls)?
        }
        (None, _) => {
            let list = &arrays[1];
            let nulls = NullBuffer::union(a.nulls(), list.logical_nulls().as_ref());
            enumerated(EnumeratedChoices::List(list), nulls)?
        }
    };
    match &plan.output {
        AnyTensorType::Fixed(output) => {
            let values = pad_null_rows(out.values, output.size(), rows, nulls.as_ref())?;
            let output = (output.ndim() > 0).then_some(output);
            Ok(output_rows(output, values, nulls, rows)?)
        }
        AnyTensorType::Variable(output) => Ok(Arc::new(ragged::from_rows(
            output,
            out.values,
            &out.lengths,
            out.shapes,
            nulls,
        )?)),
    }
}

/// [`choose_variable`] with the choices given one by one (`each`, choice `i` argument `i + 1`
/// unless a list literal's): the rows' results and NULL rows.
fn choose_each(
    plan: &VariableChoosePlan,
    each: &[VariableChoice],
    a: &RowTensor<'_>,
    arrays: &[ArrayRef],
    rows: usize,
    out_ndim: usize,
) -> Result<(IndexedRows, Option<NullBuffer>)> {
    // A list literal's choices come from the plan: only the choices given one by one are
    // arguments (choice i is argument i + 1).
    let tensor_type = |i: usize| match each.get(i) {
        Some(VariableChoice::Tensor(tensor)) => Some(tensor),
        _ => None,
    };
    let views = (0..each.len())
        .map(|i| match tensor_type(i) {
            Some(tensor) => view_of(NAME, tensor, &arrays[i + 1]),
            None => Ok(None),
        })
        .collect::<Result<Vec<_>>>()?;
    let mut nulls = a.nulls().cloned();
    let mut tensors = Vec::with_capacity(each.len());
    let mut literals = Vec::with_capacity(each.len());
    for (i, choice) in each.iter().enumerate() {
        let (tensor, literal) = match (choice, tensor_type(i)) {
            (_, Some(tensor_type)) => {
                let tensor =
                    row_tensor(NAME, tensor_type, &arrays[i + 1], views[i].as_ref(), false)?;
                nulls = NullBuffer::union(nulls.as_ref(), tensor.nulls());
                (Some(tensor), None)
            }
            (VariableChoice::Literal(value), _) => (None, Some(value.to_array_of_size(1)?)),
            _ => {
                let array = &arrays[i + 1];
                nulls = NullBuffer::union(nulls.as_ref(), array.logical_nulls().as_ref());
                (None, None)
            }
        };
        tensors.push(tensor);
        literals.push(literal);
    }
    let choices: Vec<RaggedChoice<'_>> = tensors
        .iter()
        .zip(&literals)
        .enumerate()
        .map(|(i, (tensor, literal))| match (tensor, literal) {
            (Some(tensor), _) => RaggedChoice::Tensor(tensor),
            (None, Some(literal)) => RaggedChoice::Literal(literal),
            (None, None) => RaggedChoice::Column(&arrays[i + 1]),
        })
        .collect();
    let out = choose_rows(
        a,
        &choices,
        plan.mode,
        &plan.element,
        nulls.as_ref(),
        rows,
        out_ndim,
        &plan.limits,
    )
    .map_err(|e| e.in_function(NAME))?;
    Ok((out, nulls))
}
