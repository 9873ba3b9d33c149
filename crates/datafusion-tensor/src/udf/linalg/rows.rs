//! The rows of the linear-algebra functions' operands, fixed- or variable-shape alike: each
//! row's start in the (cast) values, logical shape and strides; and a variable-shape result
//! from its values and each row's shape.

use std::sync::Arc;

use arrow::array::{Array, ArrayRef};
use arrow::buffer::NullBuffer;
use arrow::compute::cast;
use arrow::datatypes::DataType;
use datafusion::error::Result;

use crate::kernels::ragged::from_values_and_shapes;
use crate::udf::{tensor_array, variable_array};
use crate::variable_shape::{AnyTensorType, VariableShapeType};

/// One operand's batch: its values cast to the computing type, its NULL rows, and where each
/// row is and how it is laid out.
pub(super) struct OperandBatch {
    pub(super) values: ArrayRef,
    pub(super) nulls: Option<NullBuffer>,
    rows: RowLayout,
}

enum RowLayout {
    /// Row `r` at `r * size`, one logical layout.
    Fixed {
        size: usize,
        shape: Vec<usize>,
        strides: Vec<usize>,
    },
    /// Per row: start, logical shape, strides.
    Variable(Vec<(usize, Vec<usize>, Vec<usize>)>),
}

impl OperandBatch {
    pub(super) fn read(
        name: &str,
        operand: &AnyTensorType,
        array: &ArrayRef,
        compute: &DataType,
    ) -> Result<Self> {
        let cast_to = |values: &ArrayRef| -> Result<ArrayRef> {
            if values.data_type() == compute {
                Ok(Arc::clone(values))
            } else {
                Ok(cast(values, compute)?)
            }
        };
        match operand {
            AnyTensorType::Fixed(t) => {
                let list = tensor_array(name, array)?;
                Ok(Self {
                    values: cast_to(list.values())?,
                    nulls: list.logical_nulls(),
                    rows: RowLayout::Fixed {
                        size: t.size(),
                        shape: t.logical_shape(),
                        strides: t.logical_strides(),
                    },
                })
            }
            AnyTensorType::Variable(t) => {
                let view = variable_array(name, t, array)?;
                let layouts = (0..view.len())
                    .map(|row| {
                        let physical: Vec<usize> = view.physical_shape(row).collect();
                        let (shape, strides) = t.logical_layout(&physical);
                        (view.value_range(row).start, shape, strides)
                    })
                    .collect();
                Ok(Self {
                    values: cast_to(view.values())?,
                    nulls: view.nulls().cloned(),
                    rows: RowLayout::Variable(layouts),
                })
            }
        }
    }

    /// Row `row`'s start, logical shape and strides.
    pub(super) fn row(&self, row: usize) -> (usize, &[usize], &[usize]) {
        match &self.rows {
            RowLayout::Fixed {
                size,
                shape,
                strides,
            } => (row * size, shape, strides),
            RowLayout::Variable(layouts) => {
                let (start, shape, strides) = &layouts[row];
                (*start, shape, strides)
            }
        }
    }
}

/// A variable-shape result from its values, row-major, and each row's shape (`ndim` dims per
/// row; a NULL row's are zeros and it holds no values).
pub(super) fn variable_result(
    name: &str,
    variable: &VariableShapeType,
    values: &ArrayRef,
    shapes: &[usize],
    nulls: Option<&NullBuffer>,
    rows: usize,
) -> Result<ArrayRef> {
    let ndim = variable.ndim();
    let mut offsets = Vec::with_capacity(rows + 1);
    offsets.push(0usize);
    for row in 0..rows {
        let size: usize = shapes[row * ndim..(row + 1) * ndim].iter().product();
        offsets.push(offsets[row] + size);
    }
    let shapes: Vec<i64> = shapes.iter().map(|&d| d as i64).collect();
    let array = from_values_and_shapes(variable, values, &offsets, nulls, &shapes, None)
        .map_err(|e| e.in_function(name))?;
    Ok(Arc::new(array))
}
