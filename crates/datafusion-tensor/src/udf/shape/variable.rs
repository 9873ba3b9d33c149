//! The one-tensor shape functions on variable-shape tensors: each row in its own shape (rows
//! of one shape share one compiled layout). The result is fixed-shape where every result
//! dimension is known when the query is planned (`tensor_broadcast_to`, or the input's
//! uniform dimensions), variable-shape otherwise.

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, AsArray, FixedSizeListArray, ListArray, StructArray};
use arrow::datatypes::{DataType, Field};
use datafusion::common::{ScalarValue, exec_err};
use datafusion::error::Result;

use super::result_type;
use crate::kernels::shape::{ShapeOp, apply_variable};
use crate::kernels::{layout, ragged};
use crate::limits::Limits;
use crate::tensor_type::ITEM_FIELD_NAME;
use crate::udf::variable_array;
use crate::variable_shape::{AnyTensorType, VariableShapeType};

/// A compiled call on a variable-shape tensor.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct VariablePlan {
    input: VariableShapeType,
    op: ShapeOp,
    /// The result's type.
    pub output: AnyTensorType,
    /// The session's limits, which each row's result is checked against.
    limits: Limits,
    /// The value of the layout's filled positions.
    fill: Option<ScalarValue>,
}

/// Plans `op` on rows of type `input`, whose logical dimensions are `known` where every row
/// shares them.
pub(super) fn plan(
    name: &str,
    input: VariableShapeType,
    op: ShapeOp,
    known: &[Option<usize>],
    limits: Limits,
    fill: Option<ScalarValue>,
) -> Result<VariablePlan> {
    let ndim = input.ndim();
    let sources = op.sources(ndim);
    let dims: Vec<Option<usize>> = match &op {
        ShapeOp::BroadcastTo(target) => target.iter().copied().map(Some).collect(),
        ShapeOp::Flatten => vec![known.iter().copied().product::<Option<usize>>()],
        ShapeOp::Manipulate(m) => m.known_shape(known),
        _ => sources
            .iter()
            .map(|source| match source {
                Some(a) => known[*a],
                None => Some(1),
            })
            .collect(),
    };
    let names = input.logical_dim_names().and_then(|names| {
        sources
            .iter()
            .map(|s| s.map(|a| names[a].clone()))
            .collect::<Option<Vec<_>>>()
    });
    let output = result_type(input.element_type().clone(), dims, names)
        .map_err(|e| super::super::name_plan_error(name, e))?;
    Ok(VariablePlan {
        input,
        op,
        output,
        limits,
        fill,
    })
}

pub(super) fn invoke(name: &str, plan: &VariablePlan, array: &ArrayRef) -> Result<ArrayRef> {
    let view = variable_array(name, &plan.input, array)?;
    let in_function = |e: crate::error::TensorError| e.in_function(name);
    let out_ndim = plan.op.out_ndim(plan.input.ndim());
    let nulls = view.nulls().cloned();
    let fill = plan.fill.as_ref().map(ScalarValue::to_array).transpose()?;
    let fill = fill.as_ref();
    match &plan.output {
        AnyTensorType::Fixed(output) => {
            let rows = apply_variable(&view, &plan.op, out_ndim, output.size(), &plan.limits, fill)
                .map_err(in_function)?;
            let out = layout::tensor_array(output, rows.values, nulls, view.len())?;
            Ok(Arc::new(out))
        }
        AnyTensorType::Variable(output) => {
            let rows = apply_variable(&view, &plan.op, out_ndim, 0, &plan.limits, fill)
                .map_err(in_function)?;
            let out = ragged::from_rows(output, rows.values, &rows.lengths, rows.shapes, nulls)
                .map_err(in_function)?;
            Ok(Arc::new(out))
        }
    }
}

/// A transposed variable-shape batch: the same data and shapes, with the result's field types.
pub(super) fn relabel(
    name: &str,
    input: &VariableShapeType,
    output: &VariableShapeType,
    array: &ArrayRef,
) -> Result<ArrayRef> {
    // Checks the rows as every function does (an invalid row is an error, not passed on).
    let view = variable_array(name, input, array)?;
    let nulls = view.nulls().cloned();
    let Some(storage) = array.as_any().downcast_ref::<StructArray>() else {
        return exec_err!("{name}: expected a variable-shape tensor's storage");
    };
    let (Some(data), Some(shape)) = (
        storage.column(0).as_list_opt::<i32>(),
        storage
            .column(1)
            .as_any()
            .downcast_ref::<FixedSizeListArray>(),
    ) else {
        return exec_err!("{name}: expected a variable-shape tensor's storage");
    };
    let data = ListArray::try_new(
        Arc::new(Field::new(
            ITEM_FIELD_NAME,
            output.element_type().clone(),
            true,
        )),
        data.offsets().clone(),
        Arc::clone(data.values()),
        nulls.clone(),
    )?;
    let shape = FixedSizeListArray::try_new(
        Arc::new(Field::new_list_field(DataType::Int32, true)),
        shape.value_length(),
        Arc::clone(shape.values()),
        nulls.clone(),
    )?;
    let DataType::Struct(fields) = output.storage_type() else {
        return exec_err!("{name}: a variable-shape storage type is a struct");
    };
    let out = StructArray::try_new(fields, vec![Arc::new(data), Arc::new(shape)], nulls)?;
    Ok(Arc::new(out))
}
