//! Tensor math (spec.md §9): numpy's elementwise functions.
//!
//! [`binary`]: `tensor_add` and the other binary ufuncs, one function parameterised by the
//! operation; [`divmod`]: `tensor_divmod`, two of them in a struct; [`select`]: `tensor_where`; [`clip`]: `tensor_clip` with column or typed bounds; [`operands`]: what an argument is to numpy (array,
//! strong 0-d column, weak literal), the broadcast of the arguments and a batch's values;
//! [`promote`]: numpy 2's result types (NEP 50). The loops are in
//! [`crate::kernels::elementwise`].

mod binary;
mod cast;
mod clip;
mod divmod;
mod map;
mod operands;
mod promote;
mod ragged;
mod select;

pub use binary::{
    BINARY_ALIASES, BINARY_OPS, BINARY_PARAMETERS, BinaryPlan, TensorBinary, function_name,
};
pub use cast::{AstypePlan, TensorAstype, dtype_name};
pub(crate) use cast::{DTYPES, dtype_arg};
pub use clip::ClipSteps;
pub(crate) use clip::plan_clip;
pub use divmod::TensorDivmod;
pub use map::{MAP_PARAMETERS, TensorMap};
pub(crate) use operands::Operand;
pub use select::{TensorWhere, WherePlan};
