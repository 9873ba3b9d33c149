//! Kernels: pure functions over Arrow arrays and compiled plans. They never see DataFusion;
//! errors are [`ArrowError`](arrow::error::ArrowError)s, which DataFusion wraps.

pub mod along_axis;
pub mod choose;
pub mod gather;
pub mod layout;
pub mod scatter;

/// Runs `$body` with `$P` bound to the arrow primitive type of `$data_type` (every tensor
/// element type but Boolean), or evaluates `$fallback` for any other type.
#[macro_export]
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
