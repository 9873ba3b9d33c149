//! The crate's error type.
//!
//! Everything that can go wrong with a tensor *type* (its metadata, shape or element type) is a
//! [`TensorError`]; it becomes a DataFusion plan error, because a column's type is fixed when the
//! query is planned. What is wrong with the *data* of one row is reported by the kernels as an
//! execution error naming the row (`exec_err!`).

use datafusion::error::DataFusionError;

/// What is wrong with a tensor type or its `arrow.fixed_shape_tensor` metadata.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TensorError {
    /// The `ARROW:extension:metadata` JSON could not be read.
    #[error("invalid arrow.fixed_shape_tensor metadata {json:?}: {reason}")]
    Metadata {
        /// The metadata as found on the field.
        json: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A shape, permutation or dim-names list that is inconsistent in itself or with the storage.
    #[error("{0}")]
    Shape(String),
    /// A shape with more elements than [`crate::limits::max_tensor_elements`] allows.
    #[error("{0}")]
    Limit(String),
    /// The element type is not one a tensor may hold.
    #[error(
        "tensor element type {0} is not supported: expected an integer (Int8..Int64, UInt8..UInt64), floating-point (Float16, Float32, Float64) or Boolean type"
    )]
    ElementType(String),
}

impl From<TensorError> for DataFusionError {
    fn from(err: TensorError) -> Self {
        DataFusionError::Plan(err.to_string())
    }
}
