//! [`AnyTensorType`]: a column's tensor type, fixed- or variable-shape.

use std::collections::HashMap;
use std::fmt;

use arrow::datatypes::{DataType, Field};

use super::VariableShapeType;
use crate::error::TensorError;
use crate::tensor_type::TensorType;

/// The tensor type of a column: one shape for every row, or a shape per row.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum AnyTensorType {
    /// An `arrow.fixed_shape_tensor` (or a plain `FixedSizeList`, a 1-d tensor).
    Fixed(TensorType),
    /// An `arrow.variable_shape_tensor`.
    Variable(VariableShapeType),
}

impl AnyTensorType {
    /// The tensor type of a field: `Ok(None)` when it is neither kind of tensor.
    pub fn from_field(field: &Field) -> Result<Option<Self>, TensorError> {
        if let Some(variable) = VariableShapeType::from_field(field)? {
            return Ok(Some(Self::Variable(variable)));
        }
        Ok(TensorType::from_field(field)?.map(Self::Fixed))
    }

    /// The number of (logical) dimensions.
    pub fn ndim(&self) -> usize {
        match self {
            Self::Fixed(t) => t.ndim(),
            Self::Variable(t) => t.ndim(),
        }
    }

    /// The element type.
    pub fn element_type(&self) -> &DataType {
        match self {
            Self::Fixed(tensor) => tensor.element_type(),
            Self::Variable(tensor) => tensor.element_type(),
        }
    }

    /// This type with `element` values: the same shape (or uniform shape), dim names and
    /// permutation, what an elementwise function of one tensor returns.
    pub fn with_element_type(&self, element: DataType) -> Result<Self, TensorError> {
        Ok(match self {
            Self::Fixed(t) => Self::Fixed(
                TensorType::new(element, t.physical_shape().to_vec())?
                    .with_dim_names(t.dim_names().map(<[String]>::to_vec))?
                    .with_permutation(t.permutation().map(<[usize]>::to_vec))?,
            ),
            Self::Variable(t) => Self::Variable(
                VariableShapeType::new(element, t.ndim())?
                    .with_dim_names(t.dim_names().map(<[String]>::to_vec))?
                    .with_permutation(t.permutation().map(<[usize]>::to_vec))?
                    .with_uniform_shape(Some(t.physical_uniform_shape()))?,
            ),
        })
    }

    /// The field metadata of a column of this type (the extension name and metadata).
    pub fn field_metadata(&self) -> HashMap<String, String> {
        match self {
            Self::Fixed(t) => t.field_metadata(),
            Self::Variable(t) => t.field_metadata(),
        }
    }

    /// This type without dim names.
    pub fn without_dim_names(&self) -> Result<Self, TensorError> {
        Ok(match self {
            Self::Fixed(t) => Self::Fixed(t.clone().with_dim_names(None)?),
            Self::Variable(t) => Self::Variable(t.clone().with_dim_names(None)?),
        })
    }

    /// The Arrow storage type of a column of this type.
    pub fn storage_type(&self) -> DataType {
        match self {
            Self::Fixed(t) => t.storage_type(),
            Self::Variable(t) => t.storage_type(),
        }
    }

    /// Whether `data_type` stores this type's values, whatever its list items' field names
    /// (a Parquet file's lists may call them `element`).
    pub fn is_stored_as(&self, data_type: &DataType) -> bool {
        fn same(left: &DataType, right: &DataType) -> bool {
            match (left, right) {
                (DataType::FixedSizeList(l, ls), DataType::FixedSizeList(r, rs)) => {
                    ls == rs && same(l.data_type(), r.data_type())
                }
                (DataType::List(l), DataType::List(r)) => same(l.data_type(), r.data_type()),
                (DataType::Struct(l), DataType::Struct(r)) => {
                    l.len() == r.len()
                        && l.iter().zip(r.iter()).all(|(l, r)| {
                            l.name() == r.name() && same(l.data_type(), r.data_type())
                        })
                }
                _ => left == right,
            }
        }
        same(data_type, &self.storage_type())
    }

    /// The extension metadata JSON.
    pub fn metadata_json(&self) -> String {
        match self {
            Self::Fixed(tensor) => tensor.metadata_json(),
            Self::Variable(tensor) => tensor.metadata_json(),
        }
    }

    /// The type's full name ([`TensorType::type_name`], [`VariableShapeType::type_name`]).
    pub fn type_name(&self) -> String {
        match self {
            Self::Fixed(tensor) => tensor.type_name(),
            Self::Variable(tensor) => tensor.type_name(),
        }
    }

    /// The field of a column of this type.
    pub fn to_field(&self, name: impl Into<String>) -> Field {
        match self {
            Self::Fixed(tensor) => tensor.to_field(name),
            Self::Variable(tensor) => tensor.to_field(name),
        }
    }
}

impl fmt::Display for AnyTensorType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Fixed(tensor) => tensor.fmt(f),
            Self::Variable(tensor) => tensor.fmt(f),
        }
    }
}
