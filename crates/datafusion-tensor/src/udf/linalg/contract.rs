//! `tensor_matmul`, `tensor_dot`, `tensor_inner`, `tensor_outer`, `tensor_tensordot`,
//! `tensor_trace`, `tensor_diagonal` and `tensor_einsum`: numpy's products and diagonals per
//! row, one [`TensorFunction`] parameterised by the function. Each is a contraction
//! ([`crate::kernels::linalg::contraction`]) labelled from the operands' logical shapes: once
//! when the query is planned when every operand is fixed-shape (a shape error is then a plan
//! error), else per row shape (an error naming the row). Operands are cast to numpy 2's result
//! type of the operation and the result is row-major, NULL where an operand's row is.

use std::sync::Arc;

use arrow::array::{ArrayRef, AsArray, BooleanArray, PrimitiveArray};
use arrow::buffer::NullBuffer;
use arrow::datatypes::{ArrowPrimitiveType, DataType, Field, FieldRef};
use datafusion::common::{exec_err, plan_err};
use datafusion::error::{DataFusionError, Result};
use datafusion::logical_expr::{ColumnarValue, Documentation};

use super::args::{integer_option, string, tensordot_axes};
use super::docs::documentation;
use super::rows::{OperandBatch, variable_result};
use crate::dtype::result_type;
use crate::kernels::layout::output_rows;
use crate::kernels::linalg::contraction::{Contraction, Labelling, Scratch};
use crate::kernels::linalg::einsum::Subscripts;
use crate::kernels::linalg::element::Element;
use crate::kernels::linalg::products::{self, TensordotAxes};
use crate::kernels::reduce::sum_type;
use crate::kernels::with_primitive_type;
use crate::tensor_type::TensorType;
use crate::udf::{Parameters, PlanArgs, TensorFunction};
use crate::variable_shape::{AnyTensorType, VariableShapeType};

/// The functions of this family, in the order they are registered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ContractFunction {
    /// numpy `matmul`.
    Matmul,
    /// numpy `dot`.
    Dot,
    /// numpy `inner`.
    Inner,
    /// numpy `outer`.
    Outer,
    /// numpy `tensordot`.
    Tensordot,
    /// numpy `trace`.
    Trace,
    /// numpy `diagonal`.
    Diagonal,
    /// numpy `einsum` (`optimize=False`).
    Einsum,
}

impl ContractFunction {
    /// Every function, in registration order.
    pub const ALL: [Self; 8] = [
        Self::Matmul,
        Self::Dot,
        Self::Inner,
        Self::Outer,
        Self::Tensordot,
        Self::Trace,
        Self::Diagonal,
        Self::Einsum,
    ];

    /// The SQL name.
    pub fn function_name(self) -> &'static str {
        match self {
            Self::Matmul => "tensor_matmul",
            Self::Dot => "tensor_dot",
            Self::Inner => "tensor_inner",
            Self::Outer => "tensor_outer",
            Self::Tensordot => "tensor_tensordot",
            Self::Trace => "tensor_trace",
            Self::Diagonal => "tensor_diagonal",
            Self::Einsum => "tensor_einsum",
        }
    }

    /// numpy's parameter names.
    pub fn parameters(self) -> Parameters {
        match self {
            Self::Matmul => Parameters::Fixed {
                names: &["x1", "x2"],
                required: 2,
            },
            Self::Dot | Self::Inner | Self::Outer => Parameters::Fixed {
                names: &["a", "b"],
                required: 2,
            },
            Self::Tensordot => Parameters::Fixed {
                names: &["a", "b", "axes"],
                required: 2,
            },
            Self::Trace | Self::Diagonal => Parameters::Fixed {
                names: &["a", "offset", "axis1", "axis2"],
                required: 1,
            },
            Self::Einsum => Parameters::Positional,
        }
    }

    /// The argument positions of the tensor operands of a call with `count` arguments.
    fn data(self, count: usize) -> Vec<usize> {
        match self {
            Self::Trace | Self::Diagonal => vec![0],
            Self::Einsum => (1..count).collect(),
            _ => vec![0, 1],
        }
    }
}

/// What labels a call's operands, besides their shapes.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Recipe {
    Matmul,
    Dot,
    Inner,
    Outer,
    Tensordot(TensordotAxes),
    Diagonal {
        offset: i64,
        axis1: i64,
        axis2: i64,
        sum: bool,
    },
    Einsum(Subscripts),
}

impl Recipe {
    /// The labelling for operands of these logical shapes, and the result's shape.
    fn labelling(&self, shapes: &[&[usize]]) -> crate::error::Result<(Labelling, Vec<usize>)> {
        let pair = || match shapes {
            [a, b] => Ok((*a, *b)),
            _ => Err(crate::error::TensorError::Internal(
                "two operands expected".to_string(),
            )),
        };
        let labelling = match self {
            Self::Matmul => {
                let (a, b) = pair()?;
                products::matmul(a, b)?
            }
            Self::Dot => {
                let (a, b) = pair()?;
                products::dot(a, b)?
            }
            Self::Inner => {
                let (a, b) = pair()?;
                products::inner(a, b)?
            }
            Self::Outer => {
                let (a, b) = pair()?;
                let labelling = products::outer(a, b);
                return Ok((labelling, products::outer_shape(a, b)));
            }
            Self::Tensordot(axes) => {
                let (a, b) = pair()?;
                products::tensordot(a, b, axes)?
            }
            Self::Diagonal {
                offset,
                axis1,
                axis2,
                sum,
            } => {
                let [a] = shapes else {
                    return Err(crate::error::TensorError::Internal(
                        "one operand expected".to_string(),
                    ));
                };
                products::diagonal(a, *offset, *axis1, *axis2, *sum)?
            }
            Self::Einsum(subscripts) => subscripts.labelling(shapes)?,
        };
        let shape = labelling.output_shape();
        Ok((labelling, shape))
    }
}

/// A linear-algebra function of this family.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct TensorContract {
    function: ContractFunction,
    documentation: Documentation,
}

impl TensorContract {
    /// The registered instance of `function`.
    pub fn new(function: ContractFunction) -> Self {
        Self {
            function,
            documentation: documentation(function),
        }
    }
}

/// A compiled call.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct ContractPlan {
    recipe: Recipe,
    /// The argument positions of the operands, and their types.
    data: Vec<usize>,
    operands: Vec<AnyTensorType>,
    /// The type operands are cast to and the result is computed in.
    compute: DataType,
    /// When every operand is fixed-shape: the contraction, and the result type (`None`: 0-d).
    fixed: Option<(Contraction, Option<TensorType>)>,
    /// Otherwise the result type (variable-shape, row-major).
    variable: Option<VariableShapeType>,
}

impl ContractPlan {
    fn output_field(&self, name: &str) -> Field {
        match (&self.fixed, &self.variable) {
            (_, Some(variable)) => variable.to_field(name),
            (Some((_, Some(tensor))), _) => tensor.to_field(name),
            _ => Field::new(name, self.compute.clone(), true),
        }
    }

    fn output_type(&self) -> DataType {
        self.output_field("out").data_type().clone()
    }
}

/// The shape an operand is planned with: its own when every operand is fixed-shape, else every
/// dimension 1 (the result's rank depends on the operands' ranks alone; each row is then
/// checked in its own shapes).
fn shape_of(tensor: &AnyTensorType, all_fixed: bool) -> Vec<usize> {
    match tensor {
        AnyTensorType::Fixed(t) if all_fixed => t.logical_shape(),
        AnyTensorType::Fixed(t) => vec![1; t.ndim()],
        AnyTensorType::Variable(t) => vec![1; t.ndim()],
    }
}

fn element_of(tensor: &AnyTensorType) -> DataType {
    match tensor {
        AnyTensorType::Fixed(t) => t.element_type().clone(),
        AnyTensorType::Variable(t) => t.element_type().clone(),
    }
}

impl TensorContract {
    fn recipe(&self, args: &PlanArgs<'_>) -> Result<Recipe> {
        use ContractFunction as F;
        Ok(match self.function {
            F::Matmul => Recipe::Matmul,
            F::Dot => Recipe::Dot,
            F::Inner => Recipe::Inner,
            F::Outer => Recipe::Outer,
            F::Tensordot => Recipe::Tensordot(tensordot_axes(args, 2)?),
            F::Trace | F::Diagonal => Recipe::Diagonal {
                offset: integer_option(args, 1, "offset", 0)?,
                axis1: integer_option(args, 2, "axis1", 0)?,
                axis2: integer_option(args, 3, "axis2", 1)?,
                sum: self.function == F::Trace,
            },
            F::Einsum => {
                let Some(text) = args.literal(0).and_then(string) else {
                    return plan_err!(
                        "{}: argument subscripts must be a literal string such as 'ij,jk->ik'",
                        args.name
                    );
                };
                let subscripts = Subscripts::parse(text, args.fields.len().saturating_sub(1))
                    .map_err(|e| e.in_function(args.name))?;
                Recipe::Einsum(subscripts)
            }
        })
    }
}

impl TensorFunction for TensorContract {
    type Plan = ContractPlan;

    fn name(&self) -> &'static str {
        self.function.function_name()
    }

    fn parameters(&self) -> Parameters {
        self.function.parameters()
    }

    fn documentation(&self) -> Option<&Documentation> {
        Some(&self.documentation)
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        if self.function == ContractFunction::Einsum && arg_types.len() < 2 {
            return plan_err!(
                "tensor_einsum function requires subscripts and at least one operand, got {} arguments",
                arg_types.len()
            );
        }
        Ok(arg_types.to_vec())
    }

    fn tensor_arguments(&self, arg_types: &[DataType]) -> Vec<usize> {
        self.function.data(arg_types.len())
    }

    fn plan(&self, args: &PlanArgs<'_>) -> Result<ContractPlan> {
        let name = args.name;
        let recipe = self.recipe(args)?;
        let data = self.function.data(args.fields.len());
        let operands = data
            .iter()
            .enumerate()
            .map(|(k, &i)| args.any_tensor(i, &operand_name(self.function, k)))
            .collect::<Result<Vec<_>>>()?;
        let elements: Vec<DataType> = operands.iter().map(element_of).collect();
        let common = result_type(&elements, &[]).unwrap_or(DataType::Int64);
        let compute = if self.function == ContractFunction::Trace {
            sum_type(&common)
        } else {
            common
        };
        let all_fixed = operands
            .iter()
            .all(|o| matches!(o, AnyTensorType::Fixed(_)));
        let shapes: Vec<Vec<usize>> = operands.iter().map(|o| shape_of(o, all_fixed)).collect();
        let refs: Vec<&[usize]> = shapes.iter().map(Vec::as_slice).collect();
        let (labelling, shape) = recipe.labelling(&refs).map_err(|e| e.in_function(name))?;
        if !all_fixed {
            // A 0-d result is a plain value per row.
            let variable = (!shape.is_empty())
                .then(|| VariableShapeType::new(compute.clone(), shape.len()))
                .transpose()
                .map_err(|e| e.in_function(name))?;
            return Ok(ContractPlan {
                recipe,
                data,
                operands,
                compute,
                fixed: None,
                variable,
            });
        }
        crate::shape::checked_size(&shape).map_err(|e| e.in_function(name))?;
        let layouts: Vec<(Vec<usize>, Vec<usize>)> = operands
            .iter()
            .map(|o| match o {
                AnyTensorType::Fixed(t) => (t.logical_shape(), t.logical_strides()),
                AnyTensorType::Variable(_) => (Vec::new(), Vec::new()),
            })
            .collect();
        let layout_refs: Vec<(&[usize], &[usize])> = layouts
            .iter()
            .map(|(s, t)| (s.as_slice(), t.as_slice()))
            .collect();
        let contraction =
            plan_contraction(&recipe, &labelling, &layout_refs).map_err(|e| e.in_function(name))?;
        let output = if shape.is_empty() {
            None
        } else {
            Some(TensorType::new(compute.clone(), shape).map_err(|e| e.in_function(name))?)
        };
        Ok(ContractPlan {
            recipe,
            data,
            operands,
            compute,
            fixed: Some((contraction, output)),
            variable: None,
        })
    }

    fn return_field(&self, plan: &ContractPlan) -> FieldRef {
        Arc::new(plan.output_field(self.name()))
    }

    fn invoke(
        &self,
        plan: &ContractPlan,
        args: &[ColumnarValue],
        number_rows: usize,
    ) -> Result<ColumnarValue> {
        let name = self.name();
        let scalar = plan
            .data
            .iter()
            .all(|&i| matches!(args.get(i), Some(ColumnarValue::Scalar(_))));
        let rows = if scalar { 1 } else { number_rows };
        let mut batches = Vec::with_capacity(plan.data.len());
        for (&i, operand) in plan.data.iter().zip(&plan.operands) {
            let Some(value) = args.get(i) else {
                return exec_err!("{name}: argument {i} is missing");
            };
            batches.push(OperandBatch::read(
                name,
                operand,
                &value.to_array(rows)?,
                &plan.compute,
            )?);
        }
        let out = run(name, plan, &batches, rows)?;
        if scalar {
            Ok(ColumnarValue::Scalar(
                datafusion::common::ScalarValue::try_from_array(&out, 0)?,
            ))
        } else {
            Ok(ColumnarValue::Array(out))
        }
    }
}

/// numpy's name of operand `k` (for messages).
fn operand_name(function: ContractFunction, k: usize) -> String {
    match function {
        ContractFunction::Matmul => format!("x{}", k + 1),
        ContractFunction::Einsum => format!("operand {k}"),
        _ => ["a", "b"].get(k).copied().unwrap_or("a").to_string(),
    }
}

/// Runs a planned call over `rows` rows.
fn run(name: &str, plan: &ContractPlan, batches: &[OperandBatch], rows: usize) -> Result<ArrayRef> {
    let nulls = batches.iter().fold(None, |acc: Option<NullBuffer>, b| {
        NullBuffer::union(acc.as_ref(), b.nulls.as_ref())
    });
    if plan.compute == DataType::Boolean {
        let inputs: Vec<Vec<bool>> = batches
            .iter()
            .map(|b| b.values.as_boolean().values().iter().collect())
            .collect();
        let refs: Vec<&[bool]> = inputs.iter().map(Vec::as_slice).collect();
        let (values, shapes) = contract_rows(name, plan, batches, &refs, nulls.as_ref(), rows)?;
        let values: ArrayRef = Arc::new(BooleanArray::from(values));
        return finish(name, plan, values, shapes, nulls, rows);
    }
    with_primitive_type!(&plan.compute, P => {
        typed::<P>(name, plan, batches, nulls, rows)
    }, _ => exec_err!("{name}: cannot compute in {}", plan.compute))
}

fn typed<P: ArrowPrimitiveType>(
    name: &str,
    plan: &ContractPlan,
    batches: &[OperandBatch],
    nulls: Option<NullBuffer>,
    rows: usize,
) -> Result<ArrayRef>
where
    P::Native: Element,
{
    let refs: Vec<&[P::Native]> = batches
        .iter()
        .map(|b| b.values.as_primitive::<P>().values().as_ref())
        .collect();
    let (values, shapes) = contract_rows(name, plan, batches, &refs, nulls.as_ref(), rows)?;
    let values: ArrayRef = Arc::new(PrimitiveArray::<P>::new(values.into(), None));
    finish(name, plan, values, shapes, nulls, rows)
}

/// The result values of every row, row-major; for a variable-shape result, each row's shape
/// (NULL rows: zeros, no values).
fn contract_rows<T: Element>(
    name: &str,
    plan: &ContractPlan,
    batches: &[OperandBatch],
    inputs: &[&[T]],
    nulls: Option<&NullBuffer>,
    rows: usize,
) -> Result<(Vec<T>, Option<Vec<usize>>)> {
    let mut scratch = Scratch::default();
    let mut out = Vec::new();
    let mut bases = vec![0usize; batches.len()];
    if let Some((contraction, _)) = &plan.fixed {
        out.reserve(contraction.output_len().saturating_mul(rows));
        for row in 0..rows {
            if nulls.is_some_and(|n| n.is_null(row)) {
                out.resize(out.len() + contraction.output_len(), T::default());
                continue;
            }
            for (base, batch) in bases.iter_mut().zip(batches) {
                *base = batch.row(row).0;
            }
            contraction
                .run(inputs, &bases, &mut out, &mut scratch)
                .map_err(|e| e.in_function(name))?;
        }
        return Ok((out, None));
    }
    let ndim = plan.variable.as_ref().map_or(0, VariableShapeType::ndim);
    let mut shapes = Vec::with_capacity(rows * ndim);
    // Rows of one combination of shapes share one contraction.
    let mut cached: Option<(RowLayouts, Contraction, Vec<usize>)> = None;
    for row in 0..rows {
        if nulls.is_some_and(|n| n.is_null(row)) {
            shapes.extend(std::iter::repeat_n(0, ndim));
            if ndim == 0 {
                out.push(T::default());
            }
            continue;
        }
        let layouts: Vec<(&[usize], &[usize])> = batches
            .iter()
            .map(|b| {
                let (_, shape, strides) = b.row(row);
                (shape, strides)
            })
            .collect();
        for (base, batch) in bases.iter_mut().zip(batches) {
            *base = batch.row(row).0;
        }
        let hit = cached.as_ref().is_some_and(|(key, _, _)| {
            key.iter()
                .zip(&layouts)
                .all(|((s, t), (s2, t2))| s == s2 && t == t2)
        });
        if !hit {
            let shapes_of: Vec<&[usize]> = layouts.iter().map(|(s, _)| *s).collect();
            let (labelling, shape) = plan
                .recipe
                .labelling(&shapes_of)
                .map_err(|e| row_error(name, &e, row))?;
            crate::shape::checked_size(&shape).map_err(|e| row_error(name, &e, row))?;
            let contraction = plan_contraction(&plan.recipe, &labelling, &layouts)
                .map_err(|e| e.in_function(name))?;
            let key = layouts
                .iter()
                .map(|(s, t)| (s.to_vec(), t.to_vec()))
                .collect();
            cached = Some((key, contraction, shape));
        }
        let Some((_, contraction, shape)) = &cached else {
            return exec_err!("{name}: no contraction planned");
        };
        shapes.extend_from_slice(shape);
        contraction
            .run(inputs, &bases, &mut out, &mut scratch)
            .map_err(|e| e.in_function(name))?;
    }
    Ok((out, Some(shapes)))
}

/// The contraction of `labelling` for operands of these layouts.
fn plan_contraction(
    recipe: &Recipe,
    labelling: &Labelling,
    layouts: &[(&[usize], &[usize])],
) -> crate::error::Result<Contraction> {
    let contraction = Contraction::new(labelling, layouts)?;
    Ok(match recipe {
        Recipe::Einsum(_) => contraction.from_zero(),
        _ => contraction,
    })
}

/// Each operand's logical shape and strides in a row.
type RowLayouts = Vec<(Vec<usize>, Vec<usize>)>;

/// A shape error found in one row's data.
fn row_error(name: &str, err: &crate::error::TensorError, row: usize) -> DataFusionError {
    DataFusionError::Execution(format!("{name}: {err} at row {row} of its batch"))
}

/// The result array from its values.
fn finish(
    name: &str,
    plan: &ContractPlan,
    values: ArrayRef,
    shapes: Option<Vec<usize>>,
    nulls: Option<NullBuffer>,
    rows: usize,
) -> Result<ArrayRef> {
    match (&plan.fixed, &plan.variable, shapes) {
        (Some((_, output)), _, _) => Ok(output_rows(output.as_ref(), values, nulls, rows)?),
        (None, Some(variable), Some(shapes)) => {
            variable_result(name, variable, &values, &shapes, nulls.as_ref(), rows)
        }
        (None, None, _) => Ok(output_rows(None, values, nulls, rows)?),
        _ => exec_err!(
            "{name}: the result type {} was not planned",
            plan.output_type()
        ),
    }
}
