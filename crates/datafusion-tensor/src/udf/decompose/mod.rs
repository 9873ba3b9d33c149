//! numpy's `linalg` per matrix, batched over leading dimensions (numpy's stacked matrices):
//! `tensor_det`, `_slogdet`, `_inv`, `_solve`, `_cholesky`, `_qr`, `_eigh`, `_eigvalsh`,
//! `_eig`, `_eigvals`, `_svd`, `_svdvals`, `_pinv`, `_matrix_rank`, `_lstsq` and
//! `_matrix_power`, on fixed- and variable-shape tensors.
//!
//! One [`TensorDecompose`] per function ([`DecomposeFunction`]); `args.rs` reads the options
//! into the kernel's [`MatrixOp`] and checks the shapes (numpy's errors), `run.rs` gathers each
//! matrix of a batch and assembles the result (a struct of tensors where numpy returns a named
//! tuple), `docs.rs` holds the documentation. The loops are [`crate::kernels::decompose`]'s.

mod args;
mod docs;
mod run;

use std::sync::Arc;

use arrow::datatypes::{DataType, Field, FieldRef, Fields};
use datafusion::error::Result;
use datafusion::logical_expr::{ColumnarValue, Documentation};

use self::args::Operation;
use super::{Parameters, PlanArgs, TensorFunction};
use crate::limits::Limits;
use crate::tensor_type::TensorType;
use crate::variable_shape::{AnyTensorType, VariableShapeType};

/// The SQL functions of this family.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DecomposeFunction {
    /// `tensor_det`.
    Det,
    /// `tensor_slogdet`.
    Slogdet,
    /// `tensor_inv`.
    Inv,
    /// `tensor_solve`.
    Solve,
    /// `tensor_cholesky`.
    Cholesky,
    /// `tensor_qr`.
    Qr,
    /// `tensor_eigh`.
    Eigh,
    /// `tensor_eigvalsh`.
    Eigvalsh,
    /// `tensor_eig`.
    Eig,
    /// `tensor_eigvals`.
    Eigvals,
    /// `tensor_svd`.
    Svd,
    /// `tensor_svdvals`.
    Svdvals,
    /// `tensor_pinv`.
    Pinv,
    /// `tensor_matrix_rank`.
    MatrixRank,
    /// `tensor_lstsq`.
    Lstsq,
    /// `tensor_matrix_power`.
    MatrixPower,
}

impl DecomposeFunction {
    /// Every function, in registration order.
    pub const ALL: [Self; 16] = [
        Self::Det,
        Self::Slogdet,
        Self::Inv,
        Self::Solve,
        Self::Cholesky,
        Self::Qr,
        Self::Eigh,
        Self::Eigvalsh,
        Self::Eig,
        Self::Eigvals,
        Self::Svd,
        Self::Svdvals,
        Self::Pinv,
        Self::MatrixRank,
        Self::Lstsq,
        Self::MatrixPower,
    ];

    /// The SQL name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Det => "tensor_det",
            Self::Slogdet => "tensor_slogdet",
            Self::Inv => "tensor_inv",
            Self::Solve => "tensor_solve",
            Self::Cholesky => "tensor_cholesky",
            Self::Qr => "tensor_qr",
            Self::Eigh => "tensor_eigh",
            Self::Eigvalsh => "tensor_eigvalsh",
            Self::Eig => "tensor_eig",
            Self::Eigvals => "tensor_eigvals",
            Self::Svd => "tensor_svd",
            Self::Svdvals => "tensor_svdvals",
            Self::Pinv => "tensor_pinv",
            Self::MatrixRank => "tensor_matrix_rank",
            Self::Lstsq => "tensor_lstsq",
            Self::MatrixPower => "tensor_matrix_power",
        }
    }

    /// The named parameters and how many are required.
    fn parameter_names(self) -> (&'static [&'static str], usize) {
        match self {
            Self::Det | Self::Slogdet | Self::Inv | Self::Eig | Self::Eigvals | Self::Svdvals => {
                (&["x"], 1)
            }
            Self::Solve => (&["a", "b"], 2),
            Self::Cholesky => (&["x", "upper"], 1),
            Self::Qr => (&["x", "mode"], 1),
            Self::Eigh | Self::Eigvalsh => (&["x", "uplo"], 1),
            Self::Svd => (&["x", "full_matrices", "compute_uv", "hermitian"], 1),
            Self::Pinv => (&["x", "rcond", "hermitian", "rtol"], 1),
            Self::MatrixRank => (&["x", "tol", "hermitian", "rtol"], 1),
            Self::Lstsq => (&["a", "b", "rcond"], 2),
            Self::MatrixPower => (&["x", "n"], 2),
        }
    }

    /// The tensor operands' positions.
    fn operands(self) -> &'static [usize] {
        match self {
            Self::Solve | Self::Lstsq => &[0, 1],
            _ => &[0],
        }
    }
}

/// One function of the family.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct TensorDecompose {
    function: DecomposeFunction,
    documentation: Documentation,
}

impl TensorDecompose {
    /// The registered instance of `function`.
    pub fn new(function: DecomposeFunction) -> Self {
        Self {
            function,
            documentation: docs::documentation(function),
        }
    }
}

/// One part of a result (a field of the struct, or the whole result).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Part {
    /// A fixed-shape tensor of this type.
    Fixed(TensorType),
    /// A variable-shape tensor.
    Variable(VariableShapeType),
    /// One number per row (a 0-d result).
    Number(DataType),
}

impl Part {
    fn field(&self, name: &str) -> Field {
        match self {
            Self::Fixed(t) => t.to_field(name),
            Self::Variable(t) => t.to_field(name),
            Self::Number(t) => Field::new(name, t.clone(), true),
        }
    }
}

/// A compiled call.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct DecomposePlan {
    /// The operands (`a`, and `b` for the solves).
    operands: Vec<AnyTensorType>,
    /// What each matrix computes.
    operation: Operation,
    /// The result's parts and their names (one unnamed part: not a struct).
    parts: Vec<(&'static str, Part)>,
    /// The type float parts are returned in.
    float: DataType,
    limits: Limits,
}

impl TensorFunction for TensorDecompose {
    type Plan = DecomposePlan;

    fn name(&self) -> &'static str {
        self.function.name()
    }

    fn parameters(&self) -> Parameters {
        let (names, required) = self.function.parameter_names();
        Parameters::Fixed { names, required }
    }

    fn documentation(&self) -> Option<&Documentation> {
        Some(&self.documentation)
    }

    /// Numbers are read as this function's own operands.
    fn numbers_as_tensors(&self) -> bool {
        false
    }

    fn tensor_arguments(&self, _arg_types: &[DataType]) -> Vec<usize> {
        self.function.operands().to_vec()
    }

    fn plan(&self, args: &PlanArgs<'_>) -> Result<DecomposePlan> {
        args::plan(self.function, args)
    }

    fn return_field(&self, plan: &DecomposePlan) -> FieldRef {
        let name = self.name();
        match &plan.parts[..] {
            [(_, part)] => Arc::new(part.field(name)),
            parts => {
                let fields: Fields = parts
                    .iter()
                    .map(|(field, part)| Arc::new(part.field(field)))
                    .collect();
                Arc::new(Field::new(name, DataType::Struct(fields), true))
            }
        }
    }

    fn invoke(
        &self,
        plan: &DecomposePlan,
        args: &[ColumnarValue],
        number_rows: usize,
    ) -> Result<ColumnarValue> {
        run::invoke(self.name(), plan, args, number_rows)
    }
}
