//! An aggregate's tensor column in and its result column out: which kind of tensor the
//! argument is (read from its field when the query is planned), each batch read as an
//! [`AggregateInput`], results written as the tensor type of the result field.

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, BooleanArray};
use arrow::buffer::NullBuffer;
use arrow::datatypes::{DataType, Field, FieldRef};
use datafusion::common::{ScalarValue, exec_err, internal_err};
use datafusion::error::Result;

use crate::kernels::aggregate::{AggregateInput, GroupResults};
use crate::kernels::layout::{list_parts, tensor_array, with_row_nulls};
use crate::kernels::{from_storage, ragged};
use crate::tensor_type::{TensorType, is_element_type};
use crate::udf::{PlanArgs, tensor_array as fixed_list, variable_array};
use crate::variable_shape::{AnyTensorType, VariableShapeType};

/// The argument's tensor type and the result's, of one aggregate call.
#[derive(Debug, Clone)]
pub struct Columns {
    /// The function's name, for messages.
    pub name: &'static str,
    /// The argument's type.
    pub input: AnyTensorType,
    /// The result's type.
    pub output: AnyTensorType,
    /// The argument is a SQL list of numbers per row (read as the variable-shape 1-d
    /// tensors `input` says), not a tensor column.
    pub from_list: bool,
}

impl Columns {
    /// The argument's tensor type (argument `x`, the first) from the call's fields; the
    /// result is a tensor of `result` elements: of the argument's logical shape and dim names
    /// (fixed-shape), or of each group's shape (variable-shape).
    ///
    /// # Errors
    /// A plan error when the argument is not a tensor.
    pub fn plan(
        name: &'static str,
        fields: &[FieldRef],
        result: impl FnOnce(&DataType) -> DataType,
    ) -> Result<Self> {
        let list_element = fields.first().and_then(|field| match field.data_type() {
            DataType::List(item) | DataType::LargeList(item)
                if is_element_type(item.data_type()) =>
            {
                Some(item.data_type().clone())
            }
            _ => None,
        });
        let from_list = list_element.is_some();
        let input = match (list_element, fields.first().and_then(|f| bare_variable(f))) {
            // A SQL list is numpy's 1-d array of its numbers (spec.md §1).
            (Some(element), _) => AnyTensorType::Variable(
                VariableShapeType::new(element, 1).map_err(|e| e.in_function(name))?,
            ),
            // A variable-shape tensor's storage without its metadata: an argument computed by
            // a call, as a plan decoded on a cluster's executor has it before the call is
            // rebuilt (which restores the type's permutation and dim names).
            (None, Some((element, ndim))) => AnyTensorType::Variable(
                VariableShapeType::new(element, ndim).map_err(|e| e.in_function(name))?,
            ),
            (None, None) => PlanArgs {
                name,
                fields,
                scalars: &[],
                // Only read for the argument's type: no shape is computed.
                limits: crate::limits::Limits::default(),
            }
            .any_tensor(0, "x")?,
        };
        let element = result(input.element_type());
        let output = match &input {
            AnyTensorType::Fixed(tensor) => AnyTensorType::Fixed(
                TensorType::new(element, tensor.logical_shape())
                    .and_then(|t| t.with_dim_names(tensor.logical_dim_names()))
                    .map_err(|e| e.in_function(name))?,
            ),
            AnyTensorType::Variable(tensor) => AnyTensorType::Variable(
                tensor
                    .row_major_of(element)
                    .map_err(|e| e.in_function(name))?,
            ),
        };
        Ok(Self {
            name,
            input,
            output,
            from_list,
        })
    }

    /// The result field.
    pub fn output_field(&self) -> FieldRef {
        Arc::new(self.output.to_field(self.name))
    }

    /// Runs `f` on `array` (a batch of the argument) read as an [`AggregateInput`], rows
    /// also left out where `filter` is not true.
    ///
    /// # Errors
    /// A batch that is not of the argument's type, or `f`'s error.
    pub fn with_input<R>(
        &self,
        array: &ArrayRef,
        filter: Option<&BooleanArray>,
        f: impl FnOnce(&AggregateInput<'_>) -> Result<R>,
    ) -> Result<R> {
        // A row counts where the filter is true (not false, not NULL).
        let keep = filter.map(|filter| match filter.nulls() {
            Some(nulls) => NullBuffer::new(filter.values() & nulls.inner()),
            None => NullBuffer::new(filter.values().clone()),
        });
        let name = self.name;
        if self.from_list {
            let Some((values, offsets)) = list_parts(array.as_ref()) else {
                return exec_err!(
                    "{name}: expected a list argument, got {}",
                    array.data_type()
                );
            };
            let nulls = array.logical_nulls();
            let input = AggregateInput::list(&values, offsets, nulls.as_ref(), keep.as_ref())
                .map_err(|e| e.in_function(name))?;
            return f(&input);
        }
        match &self.input {
            AnyTensorType::Fixed(tensor) => {
                let list = fixed_list(name, array)?;
                let input = AggregateInput::fixed(tensor, list, keep.as_ref())
                    .map_err(|e| e.in_function(name))?;
                f(&input)
            }
            AnyTensorType::Variable(tensor) => {
                let view = variable_array(name, tensor, array)?;
                let input = AggregateInput::variable(&view, keep.as_ref())
                    .map_err(|e| e.in_function(name))?;
                f(&input)
            }
        }
    }

    /// The results of some groups as a column of the result type.
    ///
    /// # Errors
    /// An Arrow error building it.
    pub fn output_array(&self, results: GroupResults) -> Result<ArrayRef> {
        let name = self.name;
        let values = from_storage(results.values, self.output.element_type())?;
        let values = with_row_nulls(values, results.element_nulls.as_ref())?;
        let rows = results.lengths.len();
        match &self.output {
            AnyTensorType::Fixed(tensor) => Ok(Arc::new(tensor_array(
                tensor,
                values,
                Some(results.nulls),
                rows,
            )?)),
            AnyTensorType::Variable(tensor) => variable_output(
                name,
                tensor,
                values,
                &results.lengths,
                &results.shapes,
                results.nulls,
            ),
        }
    }

    /// The placeholder count of a NULL group in [`GroupResults`]: a fixed-shape result's size.
    pub fn fixed_size(&self) -> Option<usize> {
        match &self.output {
            AnyTensorType::Fixed(tensor) => Some(tensor.size()),
            AnyTensorType::Variable(_) => None,
        }
    }
}

/// The element type and dimensions of a field that is a variable-shape tensor's storage
/// (`{data: List<element>, shape: FixedSizeList<Int32, ndim>}`) without the extension's
/// metadata; `None` for anything else.
fn bare_variable(field: &Field) -> Option<(DataType, usize)> {
    if field.metadata().contains_key("ARROW:extension:name") {
        return None;
    }
    let DataType::Struct(children) = field.data_type() else {
        return None;
    };
    let [data, shape] = &children[..] else {
        return None;
    };
    match (
        data.name().as_str(),
        data.data_type(),
        shape.name().as_str(),
        shape.data_type(),
    ) {
        ("data", DataType::List(item), "shape", DataType::FixedSizeList(dim, ndim))
            if is_element_type(item.data_type()) && *dim.data_type() == DataType::Int32 =>
        {
            Some((item.data_type().clone(), usize::try_from(*ndim).ok()?))
        }
        _ => None,
    }
}

/// Variable-shape tensors of type `tensor` (row-major) from rows of `values` (`lengths` each)
/// with the logical `shapes` (`None`: a NULL row).
///
/// # Errors
/// A dimension that does not fit an Int32 (the type's shape storage).
pub fn variable_output(
    name: &str,
    tensor: &VariableShapeType,
    values: ArrayRef,
    lengths: &[usize],
    shapes: &[Option<Box<[usize]>>],
    nulls: NullBuffer,
) -> Result<ArrayRef> {
    let ndim = tensor.ndim();
    let mut dims = Vec::with_capacity(shapes.len() * ndim);
    for shape in shapes {
        match shape {
            Some(shape) if shape.len() == ndim => {
                for &d in &shape[..] {
                    let Ok(d) = i32::try_from(d) else {
                        return exec_err!(
                            "{name}: dimension {d} of a result does not fit an Int32"
                        );
                    };
                    dims.push(d);
                }
            }
            None => dims.extend(std::iter::repeat_n(0, ndim)),
            Some(_) => return internal_err!("{name}: a result of another dimension"),
        }
    }
    Ok(Arc::new(
        ragged::from_rows(tensor, values, lengths, dims, Some(nulls))
            .map_err(|e| e.in_function(name))?,
    ))
}

/// Row 0 of `array` as a scalar.
///
/// # Errors
/// When it cannot be one.
pub fn first_scalar(array: &ArrayRef) -> Result<ScalarValue> {
    ScalarValue::try_from_array(array, 0)
}

/// A field for a state part.
pub fn state_field(name: &str, part: &str, data_type: DataType) -> FieldRef {
    Arc::new(Field::new(
        datafusion::logical_expr::utils::format_state_name(name, part),
        data_type,
        true,
    ))
}
