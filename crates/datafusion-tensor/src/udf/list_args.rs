//! SQL list values and list columns where a tensor function takes a tensor: a list literal
//! planned as the tensor numpy's `np.array` makes of it, a list column as a 1-d tensor of the
//! length its call fixes ([`plan_with_list_tensors`]), and their values replaced by those
//! tensors when the call runs ([`with_list_tensors`]). A plain number there (a literal or a
//! numeric column) is the 0-d tensor numpy's `np.asarray` makes of it, where the function
//! does not read numbers itself ([`TensorFunction::numbers_as_tensors`]).

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, FixedSizeListArray};
use arrow::datatypes::{DataType, Field, FieldRef};
use datafusion::common::{ScalarValue, exec_err};
use datafusion::error::{DataFusionError, Result};
use datafusion::logical_expr::ColumnarValue;

use super::{Planned, TensorFunction, name_plan_error};

/// A list literal argument as the tensor numpy's `np.array` makes of it: the tensor's field
/// (named as `field`) and value; `None` when `value` is not a non-NULL list literal of tensor
/// elements.
fn list_literal_tensor(
    field: &Field,
    value: &ScalarValue,
) -> Result<Option<(FieldRef, ScalarValue)>> {
    let array: &dyn Array = match value {
        ScalarValue::List(list) if list.len() == 1 && list.is_valid(0) => list.as_ref(),
        ScalarValue::LargeList(list) if list.len() == 1 && list.is_valid(0) => list.as_ref(),
        _ => return Ok(None),
    };
    let converted = crate::kernels::layout::nested_list_tensor(array, 0)
        .map_err(|err| DataFusionError::Plan(format!("argument '{}': {err}", field.name())))?;
    let Some((tensor, values)) = converted else {
        return Ok(None);
    };
    let list = crate::kernels::layout::tensor_array(&tensor, values, None, 1)?;
    Ok(Some((
        Arc::new(tensor.to_field(field.name())),
        ScalarValue::FixedSizeList(Arc::new(list)),
    )))
}

/// Whether a field is a plain number (or boolean), which a tensor argument reads as a 0-d
/// tensor.
fn is_number(field: &Field) -> bool {
    crate::tensor_type::is_element_type(field.data_type())
}

/// A number's field as the 0-d tensor `np.asarray` makes of it (named as `field`).
fn number_field(field: &Field) -> Result<FieldRef> {
    let tensor = crate::tensor_type::TensorType::new(field.data_type().clone(), Vec::new())
        .map_err(|err| DataFusionError::Plan(format!("argument '{}': {err}", field.name())))?;
    Ok(Arc::new(tensor.to_field(field.name())))
}

/// Numbers as 0-d tensors of `item` (a NULL number a NULL row): their buffer, not a copy.
fn number_tensors(values: ArrayRef, item: &FieldRef) -> Result<ArrayRef> {
    let nulls = values.nulls().cloned();
    Ok(Arc::new(FixedSizeListArray::try_new(
        Arc::clone(item),
        1,
        values,
        nulls,
    )?))
}

/// A number literal as a 0-d tensor literal of `item`.
fn number_literal(value: &ScalarValue, item: &FieldRef) -> Result<ScalarValue> {
    let array = number_tensors(value.to_array()?, item)?;
    ScalarValue::try_from_array(&array, 0)
}

/// Plans a call through `plan`, with each list literal at one of `function`'s
/// [`TensorFunction::tensor_arguments`] given as the tensor numpy makes of it (SQL's `[1, 2]`
/// is a `List` value; numpy's and JAX's users mean an array), and each list column there as a
/// 1-d tensor as long as what it broadcasts into ([`TensorFunction::list_column_length`]; its
/// rows of one element broadcast, [`with_list_tensors`]).
pub(crate) fn plan_with_list_tensors<F: TensorFunction>(
    function: &F,
    fields: &[FieldRef],
    scalars: &[Option<&ScalarValue>],
    plan: impl Fn(&[FieldRef], &[Option<&ScalarValue>]) -> Result<F::Plan>,
) -> Result<Planned<F::Plan>> {
    let types: Vec<DataType> = fields.iter().map(|f| f.data_type().clone()).collect();
    let mut fields = fields.to_vec();
    let mut owned: Vec<Option<ScalarValue>> = scalars.iter().map(|s| s.cloned()).collect();
    let mut columns = Vec::new();
    for i in function.tensor_arguments(&types) {
        let Some(field) = fields.get(i).cloned() else {
            continue;
        };
        if function.numbers_as_tensors() && is_number(&field) {
            let tensor =
                number_field(&field).map_err(|err| name_plan_error(function.name(), err))?;
            if let (Some(Some(value)), DataType::FixedSizeList(item, _)) =
                (owned.get(i).cloned(), tensor.data_type())
            {
                owned[i] = Some(number_literal(&value, item)?);
            }
            fields[i] = tensor;
            continue;
        }
        match owned.get(i).cloned().flatten() {
            Some(value) => {
                if let Some((field, value)) = list_literal_tensor(&field, &value)
                    .map_err(|err| name_plan_error(function.name(), err))?
                {
                    fields[i] = field;
                    owned[i] = Some(value);
                }
            }
            None => {
                if let Some(item) = list_column_item(field.data_type()) {
                    fields[i] = list_column_field(&field, item, 1);
                    columns.push(i);
                }
            }
        }
    }
    let scalars: Vec<Option<&ScalarValue>> = owned.iter().map(Option::as_ref).collect();
    let names: Vec<String> = fields.iter().map(|f| f.name().clone()).collect();
    let hint = |err: DataFusionError, i: usize, why: &str| match err {
        DataFusionError::Plan(message) => DataFusionError::Plan(format!(
            "{message} (argument '{name}' is a list column, whose rows may differ in length, {why}: give it a shape with tensor({name}, [n]))",
            name = names[i],
        )),
        other => other,
    };
    let planned = |fields: &[FieldRef]| -> Result<Planned<F::Plan>> {
        Ok(Planned {
            plan: plan(fields, &scalars)?,
            arg_types: fields.iter().map(|f| f.data_type().clone()).collect(),
        })
    };
    let Some(&first) = columns.first() else {
        return planned(&fields);
    };
    // Planned with each list column as a one-element tensor, which broadcasts anywhere: the
    // plan says how long the column must be; then planned at that length.
    let probe = plan(&fields, &scalars).map_err(|err| hint(err, first, "so not a tensor"))?;
    for &i in &columns {
        let Some(length) = function.list_column_length(&probe, i) else {
            return Err(hint(
                DataFusionError::Plan(format!(
                    "{}: the length of argument '{}' is not known when the query is planned",
                    function.name(),
                    fields[i].name()
                )),
                i,
                "and this call does not fix its length",
            ));
        };
        let item = list_column_item(&types[i]).unwrap_or(DataType::Null);
        fields[i] = list_column_field(&fields[i], item, length);
    }
    planned(&fields)
}

/// The element type of a list column that can stand for a 1-d tensor.
fn list_column_item(data_type: &DataType) -> Option<DataType> {
    match data_type {
        DataType::List(item) | DataType::LargeList(item)
            if crate::tensor_type::is_element_type(item.data_type()) =>
        {
            Some(item.data_type().clone())
        }
        _ => None,
    }
}

/// A list column's field as a 1-d tensor of `length` (a plain `FixedSizeList`).
fn list_column_field(field: &Field, item: DataType, length: usize) -> FieldRef {
    let size = i32::try_from(length).unwrap_or(i32::MAX);
    Arc::new(Field::new(
        field.name(),
        DataType::FixedSizeList(Arc::new(Field::new_list_field(item, true)), size),
        true,
    ))
}

/// The argument values of a planned call, with the list literals and list columns
/// [`plan_with_list_tensors`] planned as tensors replaced by those tensors (`fields`: the
/// arguments' fields as written). A list column's rows (or a list value standing for a
/// column, such as a scalar subquery's) must hold the planned length or one value (which
/// broadcasts); another length fails naming the row.
pub(crate) fn with_list_tensors<F: TensorFunction>(
    function: &F,
    planned: &Planned<F::Plan>,
    fields: &[FieldRef],
    mut args: Vec<ColumnarValue>,
) -> Result<Vec<ColumnarValue>> {
    let types: Vec<DataType> = fields.iter().map(|f| f.data_type().clone()).collect();
    for i in function.tensor_arguments(&types) {
        let (Some(field), Some(expected)) = (fields.get(i), planned.arg_types.get(i)) else {
            continue;
        };
        if function.numbers_as_tensors()
            && is_number(field)
            && let DataType::FixedSizeList(item, 1) = expected
        {
            let converted = match args.get(i) {
                Some(ColumnarValue::Scalar(value)) => {
                    ColumnarValue::Scalar(number_literal(value, item)?)
                }
                Some(ColumnarValue::Array(array)) => {
                    ColumnarValue::Array(number_tensors(Arc::clone(array), item)?)
                }
                None => continue,
            };
            args[i] = converted;
            continue;
        }
        let column = list_column_item(field.data_type()).is_some();
        let length = match expected {
            DataType::FixedSizeList(_, length) => usize::try_from(*length).unwrap_or(0),
            _ => continue,
        };
        let broadcast = |array: &dyn Array| {
            crate::kernels::layout::broadcast_list(array, length)
                .map_err(|err| err.in_function(function.name()))
        };
        let converted = match args.get(i) {
            Some(ColumnarValue::Scalar(value)) => match list_literal_tensor(field, value)? {
                // A literal, planned as the tensor it is.
                Some((tensor, value)) if tensor.data_type() == expected => {
                    ColumnarValue::Scalar(value)
                }
                // A column's value (a scalar subquery's), planned as a column.
                Some(_) if column => {
                    let fixed = broadcast(value.to_array()?.as_ref())?;
                    ColumnarValue::Scalar(ScalarValue::try_from_array(&fixed, 0)?)
                }
                _ => continue,
            },
            Some(ColumnarValue::Array(array)) if column => {
                ColumnarValue::Array(Arc::new(broadcast(array.as_ref())?))
            }
            _ => continue,
        };
        args[i] = converted;
    }
    // The kernels index tensors by the planned sizes: a tensor argument of another size (an
    // argument that changed between planning and running) is an error, never an
    // out-of-bounds read.
    for (i, (value, expected)) in args.iter().zip(&planned.arg_types).enumerate() {
        if let (DataType::FixedSizeList(item, size), DataType::FixedSizeList(want, want_size)) =
            (value.data_type(), expected)
            && (size != *want_size || item.data_type() != want.data_type())
        {
            return exec_err!(
                "{}: argument {i} arrived as {}, but the call was planned for {expected}",
                function.name(),
                value.data_type()
            );
        }
    }
    Ok(args)
}
