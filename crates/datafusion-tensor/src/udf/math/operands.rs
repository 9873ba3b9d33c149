//! The data arguments of the elementwise functions as numpy sees them: a tensor (a column, a
//! tensor literal or a list literal: an array), a numeric column (a strong 0-d array of its
//! type per row), a number literal (a weak Python scalar, NEP 50) or NULL; their shapes
//! broadcast, and a batch's values read for the kernels.

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, FixedSizeListArray};
use arrow::buffer::NullBuffer;
use arrow::compute::cast;
use arrow::datatypes::DataType;
use datafusion::common::{ScalarValue, exec_err, plan_err};
use datafusion::error::Result;
use datafusion::logical_expr::ColumnarValue;

use crate::kernels::elementwise::{Input, Runs, broadcast_operands};
use crate::limits::Limits;
use crate::tensor_type::{TensorType, is_element_type};
use crate::udf::{PlanArgs, tensor_of, variable_of};
use crate::variable_shape::VariableShapeType;

/// A data argument as the plan sees it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Operand {
    /// A tensor, column or literal: a strong array of its element type.
    Tensor(TensorType),
    /// A variable-shape tensor column: a strong array of its element type, its shape per row.
    Variable(VariableShapeType),
    /// A numeric or boolean column: a strong 0-d array of its type in every row.
    Column(DataType),
    /// A number or boolean literal: weak (NEP 50); cast to the computing type when planned.
    Literal(ScalarValue),
    /// A NULL literal: every row is NULL.
    Null,
}

impl Operand {
    /// Argument `i` of a call (`arg` its parameter name, in errors).
    pub(crate) fn plan(args: &PlanArgs<'_>, i: usize, arg: &str) -> Result<Self> {
        let field = &args.fields[i];
        if let Some(tensor) = tensor_of(field)? {
            return Ok(Self::Tensor(tensor));
        }
        if let Some(variable) = variable_of(field)? {
            return Ok(Self::Variable(variable));
        }
        let data_type = field.data_type();
        if *data_type == DataType::Null {
            return Ok(Self::Null);
        }
        if !is_element_type(data_type) {
            return plan_err!(
                "{}: argument {arg} must be a tensor, a list, a number or a numeric or boolean column, got {data_type}",
                args.name
            );
        }
        Ok(match args.literal(i) {
            Some(value) if value.is_null() => Self::Null,
            Some(value) => Self::Literal(value.clone()),
            None => Self::Column(data_type.clone()),
        })
    }

    /// The element type of a strong operand.
    pub(crate) fn strong_type(&self) -> Option<DataType> {
        match self {
            Self::Tensor(t) => Some(t.element_type().clone()),
            Self::Variable(t) => Some(t.element_type().clone()),
            Self::Column(data_type) => Some(data_type.clone()),
            Self::Literal(_) | Self::Null => None,
        }
    }

    /// The number of dimensions (0 for numbers).
    pub(crate) fn ndim(&self) -> usize {
        match self {
            Self::Tensor(t) => t.logical_shape().len(),
            Self::Variable(t) => t.ndim(),
            _ => 0,
        }
    }

    /// The logical shape (`[]` for everything but tensors; a variable-shape tensor's is per
    /// row, see [`super::ragged`]).
    pub(crate) fn shape(&self) -> Vec<usize> {
        match self {
            Self::Tensor(t) => t.logical_shape(),
            _ => Vec::new(),
        }
    }

    /// The logical shape and each logical dimension's stride in a row's stored values.
    fn layout(&self) -> (Vec<usize>, Vec<usize>) {
        match self {
            Self::Tensor(t) => (t.logical_shape(), t.logical_strides()),
            _ => (Vec::new(), Vec::new()),
        }
    }
}

/// The broadcast shape of `operands` (numpy's error in a plan error of `name`) and the runs
/// that read each operand into it.
pub(crate) fn broadcast(
    name: &str,
    operands: &[&Operand],
    limits: &Limits,
) -> Result<(Vec<usize>, Runs)> {
    let shapes: Vec<Vec<usize>> = operands.iter().map(|o| o.shape()).collect();
    let refs: Vec<&[usize]> = shapes.iter().map(Vec::as_slice).collect();
    let shape = match broadcast_operands(&refs) {
        Ok(shape) => shape,
        Err(message) => return plan_err!("{name}: {message}"),
    };
    limits
        .checked_size(&shape)
        .map_err(|e| e.in_function(name))?;
    let layouts: Vec<(Vec<usize>, Vec<usize>)> = operands.iter().map(|o| o.layout()).collect();
    let runs = Runs::new(&shape, &layouts);
    Ok((shape, runs))
}

/// The dim names of a result of `shape`: those of the tensor operands of that very shape, when
/// they name it and agree (numpy has no names; a dim that is one input's dim keeps its name).
pub(crate) fn result_dim_names(operands: &[&Operand], shape: &[usize]) -> Option<Vec<String>> {
    let mut names: Option<Vec<String>> = None;
    for operand in operands {
        let Operand::Tensor(t) = operand else {
            continue;
        };
        if t.logical_shape() != shape {
            continue;
        }
        let Some(these) = t.logical_dim_names() else {
            continue;
        };
        match &names {
            None => names = Some(these),
            Some(existing) if *existing == these => {}
            Some(_) => return None,
        }
    }
    names
}

/// An operand's values for a batch of `rows` rows, cast to `compute` (`None`: kept as they
/// are), and the rows it makes NULL. `literal`: the planned literal, already cast.
pub(crate) fn batch_input(
    name: &str,
    operand: &Operand,
    value: &ColumnarValue,
    rows: usize,
    compute: Option<&DataType>,
) -> Result<(Input, Option<NullBuffer>)> {
    let (values, row_len, nulls): (ArrayRef, usize, Option<NullBuffer>) = match (operand, value) {
        (Operand::Literal(literal), _) => (literal.to_array_of_size(1)?, 0, None),
        (Operand::Tensor(_), ColumnarValue::Array(array)) => {
            let list = tensor_list(name, array.as_ref())?;
            let size = usize::try_from(list.value_length()).unwrap_or(0);
            (Arc::clone(list.values()), size, list.logical_nulls())
        }
        (Operand::Tensor(_), ColumnarValue::Scalar(scalar)) => {
            let array = scalar.to_array_of_size(1)?;
            let list = tensor_list(name, array.as_ref())?;
            let nulls = list.is_null(0).then(|| NullBuffer::new_null(rows));
            (Arc::clone(list.values()), 0, nulls)
        }
        (Operand::Column(_), ColumnarValue::Array(array)) => {
            (Arc::clone(array), 1, array.logical_nulls())
        }
        (Operand::Column(_), ColumnarValue::Scalar(scalar)) => {
            let nulls = scalar.is_null().then(|| NullBuffer::new_null(rows));
            (scalar.to_array_of_size(1)?, 0, nulls)
        }
        (Operand::Null, _) => return exec_err!("{name}: a NULL operand has no values"),
        (Operand::Variable(_), _) => {
            return exec_err!("{name}: a variable-shape operand is read row by row");
        }
    };
    let values = match compute {
        Some(compute) if values.data_type() != compute => cast(&values, compute)?,
        _ => values,
    };
    Ok((Input { values, row_len }, nulls))
}

fn tensor_list<'a>(name: &str, array: &'a dyn Array) -> Result<&'a FixedSizeListArray> {
    match array.as_any().downcast_ref::<FixedSizeListArray>() {
        Some(list) => Ok(list),
        None => exec_err!(
            "{name}: expected a tensor (FixedSizeList) argument at run time, got {}",
            array.data_type()
        ),
    }
}

/// Whether every data argument is a literal: the call runs on one row and gives a literal.
pub(crate) fn all_scalar(args: &[ColumnarValue]) -> bool {
    args.iter().all(|a| matches!(a, ColumnarValue::Scalar(_)))
}

/// The result of a call over `rows` rows from its values, as a column or (`scalar`) a literal.
pub(crate) fn finish(array: ArrayRef, scalar: bool) -> Result<ColumnarValue> {
    if scalar {
        Ok(ColumnarValue::Scalar(ScalarValue::try_from_array(
            &array, 0,
        )?))
    } else {
        Ok(ColumnarValue::Array(array))
    }
}
