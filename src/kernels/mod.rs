//! Kernels: pure functions over Arrow arrays and compiled plans. They never see DataFusion;
//! errors are [`ArrowError`](arrow::error::ArrowError)s, which DataFusion wraps.

pub mod choose;
pub mod layout;
