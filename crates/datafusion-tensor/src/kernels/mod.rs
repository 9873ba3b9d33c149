//! Kernels: pure functions over Arrow arrays and compiled plans (the element loops of every
//! function live here, none in `udf/`). They never see DataFusion: errors are Arrow's or the
//! crate's [`TensorError`](crate::TensorError), which the UDF turns into DataFusion's.
//!
//! - [`bits`]: booleans packed into bitmaps (the comparisons' results);
//! - [`gather`]: the one gather (a [`crate::index::GatherPlan`] applied to a batch), filled
//!   where an index was dropped;
//! - [`scatter`]: the ordered scatter loop and element arithmetic of the updates;
//! - [`update`]: `tensor_at_*` over a batch; [`along_axis`]: take/put along an axis (batch
//!   and per row);
//! - [`nearest`]: the nearest-neighbour join's selection (matrix products, error bounds,
//!   the pairs kept per group);
//! - [`choose`]: `numpy.choose` (pass 1, pass 2, the batch, per row);
//! - [`layout`]: permuted, flat and nested layouts of a batch; [`ragged`]: the same for
//!   variable-shape tensor batches;
//! - the per-row layer the functions over variable-shape rows share: [`shape_plans`] (plans
//!   cached by row shape), [`rows`] (arguments read row by row in their own shapes, plans
//!   keyed by all their shapes), [`broadcast`] (several arguments broadcast per row).
//!
//! The layers import downwards only: `shape_plans` and `layout` nothing of the kernels;
//! `ragged` those two; `rows` `ragged`; `broadcast` and `along_axis` `rows`; `choose` all of
//! them.

pub mod aggregate;
pub mod along_axis;
pub mod bits;
pub mod broadcast;
pub mod cast;
pub mod choose;
pub mod create;
pub mod decompose;
pub mod diff;
pub mod elementwise;
pub mod gather;
pub mod layout;
pub mod manipulate;
pub mod linalg;
pub mod nearest;
pub mod ragged;
pub mod reduce;
pub mod rounding;
pub mod rows;
pub mod scatter;
pub mod search;
pub mod shape;
pub mod shape_plans;
pub(crate) mod simd;
pub mod sort;
pub mod unary;
pub mod update;
pub(crate) mod vmath;

use std::sync::Arc;

use arrow::array::ArrayRef;
use arrow::compute::cast;
use arrow::datatypes::DataType;
use arrow::error::ArrowError;

/// The type the element loops see for tensor elements of type `element`: Arrow bit-packs
/// booleans, so they are worked on as bytes (0 and 1: false < true, so min/max hold) and
/// packed again at the end ([`from_storage`]). Every other type is its own.
pub fn storage_type(element: &DataType) -> DataType {
    if *element == DataType::Boolean {
        DataType::UInt8
    } else {
        element.clone()
    }
}

/// `values` in their [`storage_type`] (booleans as bytes; anything else as it is).
pub fn to_storage(values: &ArrayRef) -> Result<ArrayRef, ArrowError> {
    if *values.data_type() == DataType::Boolean {
        cast(values, &DataType::UInt8)
    } else {
        Ok(Arc::clone(values))
    }
}

/// Values computed in the [`storage_type`] of `element`, back in `element` (bytes packed
/// into booleans).
pub fn from_storage(values: ArrayRef, element: &DataType) -> Result<ArrayRef, ArrowError> {
    if *element == DataType::Boolean {
        cast(&values, &DataType::Boolean)
    } else {
        Ok(values)
    }
}

/// Runs `$body` with `$P` bound to the arrow primitive type of `$data_type` (every tensor
/// element type but Boolean), or evaluates `$fallback` for any other type. Crate-private: the
/// kernels' dispatch, not an API.
///
/// Not arrow's `downcast_primitive!`: that dispatch is the same `match` at run time, but over
/// every primitive type arrow has (decimals, dates, times, timestamps, durations, intervals:
/// about thirty), so each of the eleven kernels using this would be compiled for some twenty
/// types no tensor holds, against the rebuild time the workspace was cut for.
macro_rules! with_primitive_type {
    ($data_type:expr, $P:ident => $body:expr, _ => $fallback:expr) => {{
        use arrow::datatypes as adt;
        match $data_type {
            adt::DataType::Int8 => {
                type $P = adt::Int8Type;
                $body
            }
            adt::DataType::Int16 => {
                type $P = adt::Int16Type;
                $body
            }
            adt::DataType::Int32 => {
                type $P = adt::Int32Type;
                $body
            }
            adt::DataType::Int64 => {
                type $P = adt::Int64Type;
                $body
            }
            adt::DataType::UInt8 => {
                type $P = adt::UInt8Type;
                $body
            }
            adt::DataType::UInt16 => {
                type $P = adt::UInt16Type;
                $body
            }
            adt::DataType::UInt32 => {
                type $P = adt::UInt32Type;
                $body
            }
            adt::DataType::UInt64 => {
                type $P = adt::UInt64Type;
                $body
            }
            adt::DataType::Float16 => {
                type $P = adt::Float16Type;
                $body
            }
            adt::DataType::Float32 => {
                type $P = adt::Float32Type;
                $body
            }
            adt::DataType::Float64 => {
                type $P = adt::Float64Type;
                $body
            }
            _ => $fallback,
        }
    }};
}

pub(crate) use with_primitive_type;
