//! `tensor_choose(a, choices..., mode => 'raise')`: numpy's `choose` (SPEC §3).
//!
//! Three forms of choices, as numpy accepts them:
//! - several arguments, each a tensor, a numeric column or a literal (freely mixed);
//! - one tensor whose outermost dimension enumerates the choices (numpy's "abuse");
//! - one list, literal or column, of scalar choices.
//!
//! `a` and every choice broadcast together (numpy's rules); the result has the choices'
//! common element type (weak literals, checked). The plan compiles each input's offsets into
//! the broadcast result once; the kernels in [`crate::kernels::choose`] run over whole batches.
//!
//! Once `a` or a choice is variable-shape ([`VariableChoosePlan`]), `a` and the tensor
//! choices (of either kind) broadcast row by row, one plan per combination of row shapes
//! ([`crate::kernels::ragged::choose_rows`]); the result is fixed-shape when the dimensions
//! known in every row fix it.

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, FixedSizeListArray, new_null_array};
use arrow::buffer::NullBuffer;
use arrow::datatypes::{DataType, Field, FieldRef};
use datafusion::common::{ScalarValue, internal_err, plan_err};
use datafusion::error::Result;
use datafusion::logical_expr::{ColumnarValue, Signature};
use datafusion_macros::user_doc;

use super::along_axis::{format_known, known_shape, output_of_known, row_tensor, view_of};
use super::options::match_option;
use super::{PlanArgs, TensorFunction};
use crate::dtype::{LiteralKind, cast_literal, literal_kind, result_type};
use crate::kernels::choose::ragged::{
    EnumeratedChoices, RaggedChoice, choose_enumerated, choose_rows,
};
use crate::kernels::choose::{ChoiceInputs, ChooseBatch, ChooseMode, Input, choose};
use crate::kernels::layout::output_rows;
use crate::kernels::ragged::{self, IndexedRows};
use crate::kernels::rows::{RowTensor, pad_null_rows};
use crate::shape::{broadcast_labelled, broadcast_offsets, known_broadcast};
use crate::tensor_type::{TensorType, is_element_type};
use crate::variable_shape::{AnyTensorType, has_variable_shape_extension};

/// `tensor_choose`.
#[user_doc(
    doc_section(label = "Tensor Functions"),
    description = "numpy's choose: builds a tensor from an index tensor `a` and a set of choices. `a` and every choice are broadcast (numpy rules) to one shape; at each position the result takes the value of the choice that `a` names there. Choices are several arguments (tensors, numeric columns, literals), one tensor whose outer dimension enumerates them, or one list of scalar choices. mode 'raise' (default) fails on an index outside [0, n-1], 'wrap' takes it modulo n, 'clip' clamps it. The result has the choices' common type; literals take the tensors' type and must fit it. A NULL in any argument gives a NULL row.",
    syntax_example = "tensor_choose(a, choice0, choice1 [, ...] [, mode])",
    sql_example = r"```sql
> SELECT tensor_choose(tensor([2, 3, 1, 0], [4]), tensor([0, 1, 2, 3], [4]), tensor([10, 11, 12, 13], [4]), tensor([20, 21, 22, 23], [4]), tensor([30, 31, 32, 33], [4])) AS r;
+------------------+
| r                |
+------------------+
| [20, 31, 12, 3]  |
+------------------+
> SELECT tensor_choose(tensor([2, 4, 1, 0], [4]), tensor(range(40), [4, 10]), mode => 'wrap') AS r;
```",
    argument(
        name = "a",
        description = "Index tensor (or integer column or literal) of an integer or boolean type."
    ),
    argument(
        name = "choices",
        description = "Two or more choices (tensors, numeric columns, literals), or one tensor whose outer dimension enumerates the choices, or one list of scalar choices."
    ),
    argument(
        name = "mode",
        description = "'raise' (default), 'wrap' or 'clip': how an index outside [0, n-1] is treated. Given by name (mode => 'clip') or as the last argument."
    )
)]
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct TensorChoose {
    signature: Signature,
}

registered_function!(TensorChoose, ["a", "choices", "mode"]);

/// The function's name, in errors.
const NAME: &str = "tensor_choose";

/// A data argument as the plan sees it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Operand {
    /// A tensor (column or literal).
    Tensor(TensorType),
    /// A numeric or boolean column (or non-literal scalar expression): one value per row.
    Column(DataType),
    /// A number or boolean literal, already cast to the result type.
    Literal(ScalarValue),
    /// A NULL literal: every row is NULL.
    Null,
}

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

/// The form of the choices, before the result type is known.
enum Form {
    Each(Vec<Operand>),
    Stacked(TensorType),
    ListLiteral(Vec<ScalarValue>),
    ListColumn(DataType),
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
    shape: Vec<usize>,
    /// The result tensor type, `None` for 0-d results.
    output: Option<TensorType>,
    /// How many leading arguments are data (`a` and the choices); a mode argument follows.
    data_args: usize,
}

/// The logical shape and per-axis strides of an operand (scalars are 0-d).
fn layout(operand: &Operand) -> (Vec<usize>, Vec<usize>) {
    match operand {
        Operand::Tensor(t) => (t.logical_shape(), t.logical_strides()),
        _ => (vec![], vec![]),
    }
}

/// Offsets of an input of `shape`/`strides` broadcast into `target`; `None` for identity.
fn offsets_into(
    shape: &[usize],
    strides: &[usize],
    permuted: bool,
    target: &[usize],
) -> Option<Vec<u32>> {
    if shape == target && !permuted {
        return None;
    }
    Some(broadcast_offsets(shape, strides, target))
}

/// The result element type: numpy's common type of the choices, literals weak.
fn result_element(form: &Form) -> Result<DataType> {
    let element = match form {
        Form::Stacked(tensor) => tensor.element_type().clone(),
        Form::ListColumn(element) => element.clone(),
        Form::ListLiteral(values) => {
            let kinds: Vec<LiteralKind> = values.iter().filter_map(literal_kind).collect();
            if kinds.len() != values.len() {
                return plan_err!("tensor_choose: list choices must be numbers or booleans");
            }
            result_type(&[], &kinds).unwrap_or(DataType::Int64)
        }
        Form::Each(operands) => {
            let mut strong = Vec::new();
            let mut kinds = Vec::new();
            for operand in operands {
                match operand {
                    Operand::Tensor(t) => strong.push(t.element_type().clone()),
                    Operand::Column(data_type) => strong.push(data_type.clone()),
                    Operand::Literal(value) => kinds.extend(literal_kind(value)),
                    Operand::Null => {}
                }
            }
            result_type(&strong, &kinds).unwrap_or(DataType::Int64)
        }
    };
    if !is_element_type(&element) {
        return plan_err!("tensor_choose: choices must hold numbers or booleans, got {element}");
    }
    Ok(element)
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

/// numpy's mode names.
const CHOOSE_MODES: &[(&str, ChooseMode)] = &[
    ("raise", ChooseMode::Raise),
    ("wrap", ChooseMode::Wrap),
    ("clip", ChooseMode::Clip),
];

fn parse_mode(value: Option<&ScalarValue>) -> Result<ChooseMode> {
    let Some(text) = value.and_then(super::string_literal) else {
        return plan_err!(
            "tensor_choose: argument mode must be a literal string: 'raise', 'wrap' or 'clip'"
        );
    };
    match match_option(text, CHOOSE_MODES) {
        Some(mode) => Ok(mode),
        // numpy: "clipmode must be one of 'clip', 'raise', or 'wrap' (got 'bad')"
        None => plan_err!(
            "tensor_choose: clipmode must be one of 'clip', 'raise', or 'wrap' (got '{text}')"
        ),
    }
}

/// `a`'s element type must be an integer or boolean one (numpy's `safe` cast to int64).
fn check_index_element(element: &DataType, data_type: &DataType) -> Result<()> {
    if element.is_integer() || *element == DataType::Boolean {
        return Ok(());
    }
    if element.is_floating() {
        // numpy: TypeError: Cannot cast array data from dtype('float64') to dtype('int64')
        // according to the rule 'safe'
        let numpy = match element {
            DataType::Float16 => "float16",
            DataType::Float32 => "float32",
            _ => "float64",
        };
        return plan_err!(
            "tensor_choose: argument a must hold integers or booleans, got {element}: Cannot cast array data from dtype('{numpy}') to dtype('int64') according to the rule 'safe'"
        );
    }
    plan_err!(
        "tensor_choose: argument a must be a tensor or column of integers or booleans, got {}",
        data_type
    )
}

/// A literal choice in the choices' type, checked (no silent wraparound).
fn cast_choice(value: &ScalarValue, element: &DataType) -> Result<ScalarValue> {
    match cast_literal(value, element) {
        Some(cast) => Ok(cast),
        None => plan_err!(
            "tensor_choose: literal choice {value} is not representable in the choices' type {element}"
        ),
    }
}

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
    data_args: usize,
}

impl VariableChoosePlan {
    /// The result field: a tensor, or a plain value when every row's result is 0-d.
    fn output_field(&self, name: &str) -> Field {
        match &self.output {
            AnyTensorType::Fixed(t) if t.ndim() == 0 => {
                Field::new(name, self.element.clone(), true)
            }
            output => output.to_field(name),
        }
    }
}

/// A compiled `tensor_choose` call.
#[derive(Debug, PartialEq, Eq, Hash)]
pub enum ChooseCall {
    /// Fixed-shape (or scalar) arguments only.
    Fixed(ChoosePlan),
    /// A variable-shape `a` or choice.
    Variable(VariableChoosePlan),
}

/// Plans `tensor_choose` with a variable-shape `a` or choice, the choices in any of numpy's
/// forms: one by one (tensors of either kind, numeric columns, literals), one tensor of either
/// kind enumerating each row's choices by its outer dimension, or one list (a literal, or a
/// column of each row's scalar choices).
fn plan_variable(
    args: &PlanArgs<'_>,
    data_args: usize,
    mode: ChooseMode,
) -> Result<VariableChoosePlan> {
    let a = match super::variable_of(&args.fields[0])? {
        Some(a) => {
            check_index_element(a.element_type(), args.fields[0].data_type())?;
            Some(AnyTensorType::Variable(a))
        }
        None => match TensorChoose::plan_index(args)? {
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
            if let Some(tensor) = super::variable_of(&args.fields[i])? {
                operands.push(Operand::Column(tensor.element_type().clone()));
                *slot = Some(AnyTensorType::Variable(tensor));
                continue;
            }
            match TensorChoose::plan_choice(args, i)? {
                Operand::Tensor(tensor) => {
                    operands.push(Operand::Column(tensor.element_type().clone()));
                    *slot = Some(AnyTensorType::Fixed(tensor));
                }
                operand => operands.push(operand),
            }
        }
        Form::Each(operands)
    } else if let Some(tensor) = super::variable_of(&args.fields[1])? {
        return plan_variable_stacked(a, AnyTensorType::Variable(tensor), mode, data_args);
    } else {
        TensorChoose::plan_form(args, data_args)?
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
            return plan_variable_stacked(a, AnyTensorType::Fixed(tensor), mode, data_args);
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
    let shape = broadcast_known(&known)?;
    variable_plan(
        a,
        VariableChoices::Each(choices),
        element,
        &shape,
        mode,
        data_args,
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
    let shape = broadcast_known(&shapes)?;
    let element = tensor.element_type().clone();
    variable_plan(
        a,
        VariableChoices::Stacked(tensor),
        element,
        &shape,
        mode,
        data_args,
    )
}

/// numpy's broadcast of the dimensions every row has (`None`: differs between rows), or the
/// plan error when two of them cannot broadcast.
fn broadcast_known(known: &[Vec<Option<usize>>]) -> Result<Vec<Option<usize>>> {
    let refs: Vec<&[Option<usize>]> = known.iter().map(Vec::as_slice).collect();
    match known_broadcast(&refs) {
        Some(shape) => Ok(shape),
        None => {
            let shapes: Vec<String> = known.iter().map(|s| format_known(s)).collect();
            plan_err!(
                "tensor_choose: shape mismatch: objects cannot be broadcast to a single shape: the dimensions every row has, {}, do not broadcast",
                shapes.join(", ")
            )
        }
    }
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
    })
}

/// One batch of `tensor_choose` with a variable-shape `a` or choice.
fn choose_variable(
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
    let (out, nulls) = match (each, &plan.choices) {
        (Some(each), _) => choose_each(plan, each, &a, &arrays, rows, out_ndim)?,
        (None, VariableChoices::Stacked(tensor_type)) => {
            let view = view_of(NAME, tensor_type, &arrays[1])?;
            let tensor = row_tensor(NAME, tensor_type, &arrays[1], view.as_ref(), false)?;
            let nulls = NullBuffer::union(a.nulls(), tensor.nulls());
            let choices = EnumeratedChoices::Stacked(&tensor);
            let out = choose_enumerated(&a, choices, plan.mode, nulls.as_ref(), rows, out_ndim);
            (out.map_err(|e| e.in_function(NAME))?, nulls)
        }
        (None, _) => {
            let list = &arrays[1];
            let nulls = NullBuffer::union(a.nulls(), list.logical_nulls().as_ref());
            let choices = EnumeratedChoices::List(list);
            let out = choose_enumerated(&a, choices, plan.mode, nulls.as_ref(), rows, out_ndim);
            (out.map_err(|e| e.in_function(NAME))?, nulls)
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
    )
    .map_err(|e| e.in_function(NAME))?;
    Ok((out, nulls))
}

impl TensorChoose {
    /// `a`: a tensor or a scalar of an integer or boolean type.
    fn plan_index(args: &PlanArgs<'_>) -> Result<Operand> {
        let field = &args.fields[0];
        let (operand, element) = match super::tensor_of(field)? {
            Some(tensor) => {
                let element = tensor.element_type().clone();
                (Operand::Tensor(tensor), element)
            }
            None => {
                let data_type = field.data_type().clone();
                if data_type == DataType::Null {
                    return Ok(Operand::Null);
                }
                (Operand::Column(data_type.clone()), data_type)
            }
        };
        check_index_element(&element, field.data_type())?;
        Ok(operand)
    }

    /// The form of the choices (arguments `1..data_args`), before the result type is known.
    fn plan_form(args: &PlanArgs<'_>, data_args: usize) -> Result<Form> {
        if data_args > 2 {
            return Ok(Form::Each(
                (1..data_args)
                    .map(|i| Self::plan_choice(args, i))
                    .collect::<Result<Vec<_>>>()?,
            ));
        }
        let field = &args.fields[1];
        match (super::tensor_of(field)?, field.data_type()) {
            (Some(tensor), _) => Ok(Form::Stacked(tensor)),
            (None, DataType::List(item) | DataType::LargeList(item)) => match args.literal(1) {
                Some(value) if !value.is_null() => {
                    let list = match value {
                        ScalarValue::List(l) => l.value(0),
                        ScalarValue::LargeList(l) => l.value(0),
                        _ => return internal_err!("list literal expected"),
                    };
                    let values = (0..list.len())
                        .map(|i| ScalarValue::try_from_array(&list, i))
                        .collect::<Result<Vec<_>>>()?;
                    Ok(Form::ListLiteral(values))
                }
                Some(_) => Ok(Form::Each(vec![Operand::Null])),
                None => Ok(Form::ListColumn(item.data_type().clone())),
            },
            (None, data_type) if is_element_type(data_type) || *data_type == DataType::Null => {
                // numpy: np.choose(a, 5) -> TypeError: 'int' object is not iterable
                plan_err!(
                    "tensor_choose: a single choice must be a tensor (its outer dimension enumerates the choices) or a list of scalar choices, got {data_type}: 'int' object is not iterable"
                )
            }
            (None, data_type) => plan_err!(
                "tensor_choose: choices must be tensors, numeric columns or literals, or one list, got {data_type}"
            ),
        }
    }

    /// A choice argument, before the result type is known (literals uncast).
    fn plan_choice(args: &PlanArgs<'_>, i: usize) -> Result<Operand> {
        let field = &args.fields[i];
        if let Some(tensor) = super::tensor_of(field)? {
            return Ok(Operand::Tensor(tensor));
        }
        let data_type = field.data_type();
        if *data_type == DataType::Null {
            return Ok(Operand::Null);
        }
        if !is_element_type(data_type) {
            return plan_err!(
                "tensor_choose: choice {} must be a tensor, a numeric or boolean column or literal, or (as the only choice) a list, got {data_type}",
                i - 1
            );
        }
        match args.literal(i) {
            Some(value) if value.is_null() => Ok(Operand::Null),
            Some(value) => Ok(Operand::Literal(value.clone())),
            None => Ok(Operand::Column(data_type.clone())),
        }
    }
}

impl TensorFunction for TensorChoose {
    type Plan = ChooseCall;

    function_metadata!("tensor_choose");

    fn tensor_arguments(&self, arg_types: &[DataType]) -> Vec<usize> {
        let n_args = arg_types.len();
        let data_args = match arg_types.last() {
            Some(last) if super::is_string(last) => n_args - 1,
            _ => n_args,
        };
        // a, and every choice when there are several: one list alone is the sequence of
        // choices, as numpy reads `np.choose(a, [1, 2, 3])`.
        if data_args > 2 {
            (0..data_args).collect()
        } else {
            vec![0]
        }
    }

    fn list_column_length(&self, plan: &ChooseCall, _i: usize) -> Option<usize> {
        let ChooseCall::Fixed(plan) = plan else {
            return None;
        };
        // The other arguments must fix the length: a last dimension of 1 would let each row's
        // list decide the result's shape.
        plan.shape.last().copied().filter(|&n| n != 1)
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        if arg_types.len() < 2 {
            return plan_err!(
                "tensor_choose function requires an index argument a and at least one choice, got {} arguments",
                arg_types.len()
            );
        }
        Ok(arg_types.to_vec())
    }

    fn plan(&self, args: &PlanArgs<'_>) -> Result<ChooseCall> {
        let n_args = args.fields.len();
        // A trailing string is the mode (positional or `mode => ...`).
        let (data_args, mode) = if super::is_string(args.fields[n_args - 1].data_type()) {
            (n_args - 1, parse_mode(args.literal(n_args - 1))?)
        } else {
            (n_args, ChooseMode::Raise)
        };
        if data_args < 2 {
            return plan_err!("tensor_choose: at least one choice is needed after a");
        }
        let variable = (0..data_args).any(|i| has_variable_shape_extension(&args.fields[i]));
        if variable {
            return plan_variable(args, data_args, mode).map(ChooseCall::Variable);
        }
        let a = Self::plan_index(args)?;
        let form = Self::plan_form(args, data_args)?;
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
        Ok(ChooseCall::Fixed(ChoosePlan {
            mode,
            a,
            a_offsets,
            choices,
            element,
            shape,
            output,
            data_args,
        }))
    }

    fn return_field(&self, plan: &ChooseCall) -> FieldRef {
        let plan = match plan {
            ChooseCall::Fixed(plan) => plan,
            ChooseCall::Variable(plan) => return Arc::new(plan.output_field(self.name())),
        };
        match &plan.output {
            Some(tensor) => Arc::new(tensor.to_field(self.name())),
            None => Arc::new(Field::new(self.name(), plan.element.clone(), true)),
        }
    }

    fn invoke(
        &self,
        plan: &ChooseCall,
        args: &[ColumnarValue],
        number_rows: usize,
    ) -> Result<ColumnarValue> {
        let data_args = match plan {
            ChooseCall::Fixed(plan) => plan.data_args,
            ChooseCall::Variable(plan) => plan.data_args,
        };
        let data = &args[..data_args];
        let all_scalar = data.iter().all(|a| matches!(a, ColumnarValue::Scalar(_)));
        let rows = if all_scalar { 1 } else { number_rows };
        let out = match plan {
            ChooseCall::Fixed(plan) => choose_batch(plan, data, rows)?,
            ChooseCall::Variable(plan) => choose_variable(plan, data, rows)?,
        };
        if all_scalar {
            Ok(ColumnarValue::Scalar(ScalarValue::try_from_array(&out, 0)?))
        } else {
            Ok(ColumnarValue::Array(out))
        }
    }
}

/// One evaluated data argument: its values for the batch and how rows map onto them.
struct Evaluated {
    array: ArrayRef,
    /// Whether one value (a literal) serves every row.
    literal: bool,
}

fn evaluate(value: &ColumnarValue, rows: usize, expand: bool) -> Result<Evaluated> {
    Ok(match value {
        ColumnarValue::Array(array) => Evaluated {
            array: Arc::clone(array),
            literal: false,
        },
        ColumnarValue::Scalar(scalar) if expand => Evaluated {
            array: scalar.to_array_of_size(rows)?,
            literal: false,
        },
        ColumnarValue::Scalar(scalar) => Evaluated {
            array: scalar.to_array_of_size(1)?,
            literal: true,
        },
    })
}

/// The row NULLs of an argument: a literal NULL makes every row NULL.
fn row_nulls(arg: &Evaluated, rows: usize) -> Option<NullBuffer> {
    if arg.literal {
        arg.array.is_null(0).then(|| NullBuffer::new_null(rows))
    } else {
        arg.array.logical_nulls()
    }
}

/// The element values (for a tensor: the FixedSizeList's child) and elements per row.
fn elements(operand_is_tensor: bool, arg: &Evaluated) -> Result<(ArrayRef, usize)> {
    if operand_is_tensor {
        let list = arg
            .array
            .as_any()
            .downcast_ref::<FixedSizeListArray>()
            .ok_or_else(|| {
                datafusion::common::exec_datafusion_err!(
                    "tensor_choose: expected a tensor at run time, got {}",
                    arg.array.data_type()
                )
            })?;
        let size = usize::try_from(list.value_length()).unwrap_or(0);
        Ok((
            Arc::clone(list.values()),
            if arg.literal { 0 } else { size },
        ))
    } else {
        Ok((Arc::clone(&arg.array), usize::from(!arg.literal)))
    }
}

fn choose_batch(plan: &ChoosePlan, data: &[ColumnarValue], rows: usize) -> Result<ArrayRef> {
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
    let (values, row_len) = elements(a_is_tensor, &a_arg)?;
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
            let (values, row_len) = elements(true, &choice_args[0])?;
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
fn choice_input<'a>(i: usize, choice: &'a Choice, arg: Option<&Evaluated>) -> Result<Input<'a>> {
    let (values, row_len) = match (&choice.operand, arg) {
        (Operand::Literal(value), _) => (value.to_array_of_size(1)?, 0),
        (operand, Some(arg)) => elements(matches!(operand, Operand::Tensor(_)), arg)?,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_parse_with_numpy_wording() {
        assert_eq!(
            parse_mode(Some(&ScalarValue::from("wrap"))).unwrap(),
            ChooseMode::Wrap
        );
        let err = parse_mode(Some(&ScalarValue::from("bad")))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("clipmode must be one of 'clip', 'raise', or 'wrap' (got 'bad')"),
            "{err}"
        );
    }
}
