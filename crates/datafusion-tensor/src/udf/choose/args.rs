//! What `tensor_choose`'s arguments are, before anything is broadcast: `a` (an integer or
//! boolean tensor, column or literal), the form of the choices (numpy's three), the mode, and
//! the result element type (numpy's common type of the choices, literals weak but checked).

use arrow::array::Array;
use arrow::datatypes::DataType;
use datafusion::common::{ScalarValue, internal_err, plan_err};
use datafusion::error::Result;

use crate::dtype::{LiteralKind, cast_literal, literal_kind, result_type};
use crate::kernels::choose::ChooseMode;
use crate::tensor_type::{TensorType, is_element_type};
use crate::udf::options::match_option;
use crate::udf::registry::quoted_choices;
use crate::udf::{PlanArgs, tensor_of};

/// A data argument as the plan sees it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) enum Operand {
    /// A tensor (column or literal).
    Tensor(TensorType),
    /// A numeric or boolean column (or non-literal scalar expression): one value per row.
    Column(DataType),
    /// A number or boolean literal, already cast to the result type.
    Literal(ScalarValue),
    /// A NULL literal: every row is NULL.
    Null,
}

/// The form of the choices, before the result type is known.
pub(super) enum Form {
    Each(Vec<Operand>),
    Stacked(TensorType),
    ListLiteral(Vec<ScalarValue>),
    ListColumn(DataType),
}

/// The result element type: numpy's common type of the choices, literals weak.
pub(super) fn result_element(form: &Form) -> Result<DataType> {
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

/// numpy's mode names, in the order of numpy's message.
pub(crate) const CHOOSE_MODES: &[(&str, ChooseMode)] = &[
    ("clip", ChooseMode::Clip),
    ("raise", ChooseMode::Raise),
    ("wrap", ChooseMode::Wrap),
];

pub(super) fn parse_mode(value: Option<&ScalarValue>) -> Result<ChooseMode> {
    let Some(text) = value.and_then(|v| v.try_as_str().flatten()) else {
        return plan_err!(
            "tensor_choose: argument mode must be a literal string: {}",
            quoted_choices(CHOOSE_MODES, " or ")
        );
    };
    match match_option(text, CHOOSE_MODES) {
        Some(mode) => Ok(mode),
        // numpy: "clipmode must be one of 'clip', 'raise', or 'wrap' (got 'bad')"
        None => plan_err!(
            "tensor_choose: clipmode must be one of {} (got '{text}')",
            quoted_choices(CHOOSE_MODES, ", or ")
        ),
    }
}

/// `a`'s element type must be an integer or boolean one (numpy's `safe` cast to int64).
pub(super) fn check_index_element(element: &DataType, data_type: &DataType) -> Result<()> {
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
pub(super) fn cast_choice(value: &ScalarValue, element: &DataType) -> Result<ScalarValue> {
    match cast_literal(value, element) {
        Some(cast) => Ok(cast),
        None => plan_err!(
            "tensor_choose: literal choice {value} is not representable in the choices' type {element}"
        ),
    }
}

/// `a`: a tensor or a scalar of an integer or boolean type.
pub(super) fn plan_index(args: &PlanArgs<'_>) -> Result<Operand> {
    let field = &args.fields[0];
    let (operand, element) = match tensor_of(field)? {
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
pub(super) fn plan_form(args: &PlanArgs<'_>, data_args: usize) -> Result<Form> {
    if data_args > 2 {
        return Ok(Form::Each(
            (1..data_args)
                .map(|i| plan_choice(args, i))
                .collect::<Result<Vec<_>>>()?,
        ));
    }
    let field = &args.fields[1];
    match (tensor_of(field)?, field.data_type()) {
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
            // A nested list literal is the array numpy makes of it (planned as that tensor);
            // the rows of a column of them may differ in shape, and a list with NULLs or
            // mixed types is not a literal when the query is planned.
            None if matches!(item.data_type(), DataType::List(_) | DataType::LargeList(_)) => {
                plan_err!(
                    "tensor_choose: nested list choices are a tensor when written as a literal, got an expression of type {} (a column, whose rows may differ in shape, or a scalar subquery): give it a shape with tensor(flatten(choices), shape)",
                    field.data_type()
                )
            }
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
pub(super) fn plan_choice(args: &PlanArgs<'_>, i: usize) -> Result<Operand> {
    let field = &args.fields[i];
    if let Some(tensor) = tensor_of(field)? {
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
