//! Linear algebra per row (spec.md §10): [`contract`] (`tensor_matmul`, `tensor_dot`,
//! `tensor_inner`, `tensor_outer`, `tensor_tensordot`, `tensor_trace`, `tensor_diagonal`,
//! `tensor_einsum`, `tensor_vecdot`, `tensor_kron`), [`cross`] (`tensor_cross`), [`similarity`] (`tensor_inner_product`, `tensor_l2_distance`,
//! `tensor_cosine_similarity`), with their literal options in [`args`] and their documentation in
//! [`docs`]. The loops are in [`crate::kernels::linalg`].

pub(crate) mod args;
mod contract;
mod cross;
mod docs;
mod norm;
pub(crate) mod rows;
mod similarity;

pub use contract::{ContractFunction, ContractPlan, TensorContract};
pub use cross::TensorCross;
pub use norm::{TensorMatrixNorm, TensorNorm};
pub use similarity::{MEASURES, TensorVectorMeasure};
