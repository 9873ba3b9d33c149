//! `tensor_matmul`, `tensor_dot`, `tensor_inner`, `tensor_outer`, `tensor_tensordot`,
//! `tensor_trace`, `tensor_diagonal` and `tensor_einsum`: numpy's products and diagonals per
//! row, one [`TensorFunction`] parameterised by the function. Each is a contraction
//! ([`crate::kernels::linalg::contraction`]) labelled from the operands' logical shapes: once
//! when the query is planned when every operand is fixed-shape (a shape error is then a plan
//! error), else per combination of row shapes (an error naming the row). Operands are cast to
//! numpy 2's result type of the operation and the result is row-major, NULL where an operand's
//! row is.
//!
//! An operand may also be a number (a literal or a numeric column): a 0-d tensor of its own
//! type, as numpy's `np.asarray` makes it ([`super::args::asarray`]); numpy's treatment of
//! signed zeros in products with it is kept ([`signed_zeros`]).

use std::sync::Arc;

use arrow::array::{ArrayRef, AsArray, BooleanArray, PrimitiveArray};
use arrow::buffer::NullBuffer;
use arrow::datatypes::{ArrowPrimitiveType, DataType, Field, FieldRef};
use datafusion::common::{exec_err, plan_err};
use datafusion::error::Result;
use datafusion::logical_expr::{ColumnarValue, Documentation};

use super::args::{asarray, integer_option, string, tensordot_axes};
use super::docs::documentation;
use super::rows::{batch_args, readers, values_as, variable_result, views};
use crate::dtype::result_type;
use crate::kernels::layout::output_rows;
use crate::kernels::linalg::contraction::{Contraction, Scratch};
use crate::kernels::linalg::einsum::Subscripts;
use crate::kernels::linalg::gemm_row::GemmRow;
use crate::kernels::linalg::labelling::Labelling;
use crate::kernels::linalg::products::{self, TensordotAxes};
use crate::kernels::reduce::sum_type;
use crate::kernels::rows::{RowPlans, RowTensor};
use crate::kernels::with_primitive_type;
use crate::limits::{Limits, ResultBudget};
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
    /// numpy 2's `vecdot`: `einsum('...i,...i->...')` with `axis` moved last.
    Vecdot,
    /// numpy `kron`.
    Kron,
}

impl ContractFunction {
    /// Every function, in registration order.
    pub const ALL: [Self; 10] = [
        Self::Matmul,
        Self::Dot,
        Self::Inner,
        Self::Outer,
        Self::Tensordot,
        Self::Trace,
        Self::Diagonal,
        Self::Einsum,
        Self::Vecdot,
        Self::Kron,
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
            Self::Vecdot => "tensor_vecdot",
            Self::Kron => "tensor_kron",
        }
    }

    /// numpy's parameter names.
    pub fn parameters(self) -> Parameters {
        match self {
            Self::Matmul => Parameters::Fixed {
                names: &["x1", "x2"],
                required: 2,
            },
            Self::Vecdot => Parameters::Fixed {
                names: &["x1", "x2", "axis"],
                required: 2,
            },
            Self::Dot | Self::Inner | Self::Outer | Self::Kron => Parameters::Fixed {
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
    Kron,
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
            Self::Kron => {
                let (a, b) = pair()?;
                return Ok(products::kron(a, b));
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
    /// When every operand is fixed-shape: the product, and the result type (`None`: 0-d).
    fixed: Option<(Product, Option<TensorType>)>,
    /// Otherwise the result type (variable-shape, row-major).
    variable: Option<VariableShapeType>,
    /// The session's limits, which each row's result shape is checked against.
    limits: Limits,
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

impl TensorContract {
    fn recipe(&self, args: &PlanArgs<'_>) -> Result<Recipe> {
        use ContractFunction as F;
        Ok(match self.function {
            F::Matmul => Recipe::Matmul,
            F::Dot => Recipe::Dot,
            F::Inner => Recipe::Inner,
            F::Outer => Recipe::Outer,
            F::Kron => Recipe::Kron,
            F::Tensordot => Recipe::Tensordot(tensordot_axes(args, 2)?),
            F::Trace | F::Diagonal => Recipe::Diagonal {
                offset: integer_option(args, 1, "offset", 0)?,
                axis1: integer_option(args, 2, "axis1", 0)?,
                axis2: integer_option(args, 3, "axis2", 1)?,
                sum: self.function == F::Trace,
            },
            F::Vecdot => Recipe::Einsum(
                Subscripts::parse("...i,...i->...", 2).map_err(|e| e.in_function(args.name))?,
            ),
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

    /// Numbers are read as this function's own operands.
    fn numbers_as_tensors(&self) -> bool {
        false
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
            .map(|(k, &i)| asarray(args, i, &operand_name(self.function, k)))
            .collect::<Result<Vec<_>>>()?;
        let elements: Vec<DataType> = operands
            .iter()
            .flatten()
            .map(|o| o.element_type().clone())
            .collect();
        let common = result_type(&elements, &[]).unwrap_or(DataType::Int64);
        // An untyped NULL: a 0-d operand of the others' type, every row NULL.
        let operands = operands
            .into_iter()
            .map(|operand| match operand {
                Some(operand) => Ok(operand),
                None => TensorType::new(common.clone(), Vec::new()).map(AnyTensorType::Fixed),
            })
            .collect::<crate::error::Result<Vec<_>>>()
            .map_err(|e| e.in_function(name))?;
        let operands = if self.function == ContractFunction::Vecdot {
            let axis = integer_option(args, 2, "axis", -1)?;
            let moved = operands
                .into_iter()
                .enumerate()
                .map(|(k, operand)| axis_last(name, k, operand, axis))
                .collect::<Result<Vec<_>>>()?;
            // numpy's gufunc check of the core dimensions, where the query fixes them.
            let core = |o: &AnyTensorType| match o {
                AnyTensorType::Fixed(t) => t.logical_shape().last().copied(),
                AnyTensorType::Variable(_) => None,
            };
            if let [a, b] = &moved[..]
                && let (Some(n1), Some(n2)) = (core(a), core(b))
                && n1 != n2
            {
                return plan_err!(
                    "{name}: vecdot: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature (n),(n)->() (size {n2} is different from {n1})"
                );
            }
            moved
        } else {
            operands
        };
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
                limits: args.limits,
            });
        }
        args.limits
            .checked_size(&shape)
            .map_err(|e| e.in_function(name))?;
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
        let product = Product::new(&recipe, &compute, &labelling, &layout_refs, shape.clone())
            .map_err(|e| e.in_function(name))?;
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
            fixed: Some((product, output)),
            variable: None,
            limits: args.limits,
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
        let batches = batch_args(name, args, &plan.data)?;
        let views = views(name, &plan.operands, &batches)?;
        let (readers, nulls) = readers(name, &plan.operands, &batches, &views, rows)?;
        let out = run(name, plan, &readers, nulls, rows)?;
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
/// `vecdot`'s operand `k` with `axis` moved last: a transpose, a permutation composed into
/// its type (no value moves). numpy's gufunc errors where it has too few dimensions or the
/// axis is out of bounds.
pub(super) fn axis_last(
    name: &str,
    k: usize,
    operand: AnyTensorType,
    axis: i64,
) -> Result<AnyTensorType> {
    let ndim = operand.ndim();
    if ndim == 0 {
        return plan_err!(
            "{name}: Input operand {k} does not have enough dimensions (has 0, gufunc core with signature (n),(n)->() requires 1)"
        );
    }
    let Some(a) = crate::index::wrap_index(axis, ndim) else {
        return plan_err!("{name}: axis {axis} is out of bounds for array of dimension {ndim}");
    };
    let mut order: Vec<usize> = (0..ndim).filter(|&d| d != a).collect();
    order.push(a);
    let compose = |permutation: Option<&[usize]>| -> Vec<usize> {
        order
            .iter()
            .map(|&d| permutation.map_or(d, |p| p[d]))
            .collect()
    };
    let moved = match operand {
        AnyTensorType::Fixed(t) => {
            let permutation = compose(t.permutation());
            t.with_permutation(Some(permutation))
                .map(AnyTensorType::Fixed)
        }
        AnyTensorType::Variable(t) => {
            let permutation = compose(t.permutation());
            t.with_permutation(Some(permutation))
                .map(AnyTensorType::Variable)
        }
    };
    moved.map_err(|e| e.in_function(name))
}

fn operand_name(function: ContractFunction, k: usize) -> String {
    match function {
        ContractFunction::Matmul | ContractFunction::Vecdot => format!("x{}", k + 1),
        ContractFunction::Einsum => format!("operand {k}"),
        _ => ["a", "b"].get(k).copied().unwrap_or("a").to_string(),
    }
}

/// Runs a planned call over `rows` rows (`nulls`: the rows NULL in any operand).
fn run(
    name: &str,
    plan: &ContractPlan,
    readers: &[RowTensor<'_>],
    nulls: Option<NullBuffer>,
    rows: usize,
) -> Result<ArrayRef> {
    let values = readers
        .iter()
        .map(|reader| values_as(reader, &plan.compute))
        .collect::<Result<Vec<_>>>()?;
    let element_nulls = element_nulls(name, plan, readers, &values, nulls.as_ref(), rows)?;
    if plan.compute == DataType::Boolean {
        let inputs: Vec<Vec<bool>> = values
            .iter()
            .map(|v| v.as_boolean().values().iter().collect())
            .collect();
        let refs: Vec<&[bool]> = inputs.iter().map(Vec::as_slice).collect();
        let (values, shapes) = contract_rows(name, plan, readers, &refs, nulls.as_ref(), rows)?;
        let values: ArrayRef = Arc::new(BooleanArray::from(values));
        return finish(
            name,
            plan,
            values,
            shapes,
            nulls,
            element_nulls.as_ref(),
            rows,
        );
    }
    with_primitive_type!(&plan.compute, P => {
        typed::<P>(name, plan, readers, &values, nulls, element_nulls.as_ref(), rows)
    }, _ => exec_err!("{name}: cannot compute in {}", plan.compute))
}

/// The result's element NULLs: an element is NULL where a term of its sum takes a NULL
/// element of an operand (numpy's NaN would spread the same way). Per operand with NULL
/// elements, the boolean contraction (`any` of `and`s) of its NULL indicators with every
/// other operand all true; `None` when no operand has NULL elements.
fn element_nulls(
    name: &str,
    plan: &ContractPlan,
    readers: &[RowTensor<'_>],
    values: &[ArrayRef],
    nulls: Option<&NullBuffer>,
    rows: usize,
) -> Result<Option<NullBuffer>> {
    let mut found: Option<Vec<bool>> = None;
    for (k, operand) in values.iter().enumerate() {
        let Some(operand_nulls) = operand.nulls().filter(|n| n.null_count() > 0) else {
            continue;
        };
        let inputs: Vec<Vec<bool>> = values
            .iter()
            .enumerate()
            .map(|(j, other)| {
                if j == k {
                    operand_nulls.iter().map(|valid| !valid).collect()
                } else {
                    vec![true; other.len()]
                }
            })
            .collect();
        let refs: Vec<&[bool]> = inputs.iter().map(Vec::as_slice).collect();
        let (hit, _) = contract_rows(name, plan, readers, &refs, nulls, rows)?;
        found = Some(match found {
            None => hit,
            Some(seen) => seen.iter().zip(hit).map(|(&a, b)| a || b).collect(),
        });
    }
    Ok(found.map(|null| NullBuffer::from(null.iter().map(|&n| !n).collect::<Vec<bool>>())))
}

#[allow(
    clippy::too_many_arguments,
    reason = "a batch's readers, values and NULLs, as run() has them"
)]
fn typed<P: ArrowPrimitiveType>(
    name: &str,
    plan: &ContractPlan,
    readers: &[RowTensor<'_>],
    values: &[ArrayRef],
    nulls: Option<NullBuffer>,
    element_nulls: Option<&NullBuffer>,
    rows: usize,
) -> Result<ArrayRef>
where
    P::Native: GemmRow,
{
    let refs: Vec<&[P::Native]> = values
        .iter()
        .map(|v| v.as_primitive::<P>().values().as_ref())
        .collect();
    let (values, shapes) = contract_rows(name, plan, readers, &refs, nulls.as_ref(), rows)?;
    let values: ArrayRef = Arc::new(PrimitiveArray::<P>::new(values.into(), None));
    finish(name, plan, values, shapes, nulls, element_nulls, rows)
}

/// The result values of every row, row-major; for a variable-shape result, each row's shape
/// (NULL rows: zeros, no values).
fn contract_rows<T: GemmRow + PartialEq>(
    name: &str,
    plan: &ContractPlan,
    readers: &[RowTensor<'_>],
    inputs: &[&[T]],
    nulls: Option<&NullBuffer>,
    rows: usize,
) -> Result<(Vec<T>, Option<Vec<usize>>)> {
    let mut scratch = Scratch::default();
    let mut out = Vec::new();
    let mut bases = vec![0usize; readers.len()];
    if let Some((product, _)) = &plan.fixed {
        let len = product.contraction.output_len();
        if product
            .run_rows(inputs, readers, nulls, rows, &mut out)
            .map_err(|e| e.in_function(name))?
        {
            return Ok((out, None));
        }
        out.reserve(len.saturating_mul(rows));
        for row in 0..rows {
            if nulls.is_some_and(|n| n.is_null(row)) {
                out.resize(out.len() + len, T::default());
                continue;
            }
            for (base, reader) in bases.iter_mut().zip(readers) {
                *base = reader.span(row).0;
            }
            product
                .run(inputs, &bases, &mut out, &mut scratch)
                .map_err(|e| e.in_function(name))?;
        }
        return Ok((out, None));
    }
    let ndim = plan.variable.as_ref().map_or(0, VariableShapeType::ndim);
    let mut shapes = Vec::with_capacity(rows * ndim);
    // Rows of one combination of shapes share one product.
    let tensors: Vec<&RowTensor<'_>> = readers.iter().collect();
    let mut plans: RowPlans<Product> = RowPlans::default();
    let element = plan
        .variable
        .as_ref()
        .map_or(DataType::Float64, |t| t.element_type().clone());
    let mut budget = ResultBudget::new(name, &element, &plan.limits);
    for row in 0..rows {
        if nulls.is_some_and(|n| n.is_null(row)) {
            shapes.extend(std::iter::repeat_n(0, ndim));
            if ndim == 0 {
                out.push(T::default());
            }
            continue;
        }
        let product = plans
            .get(&tensors, row, |layouts| {
                let shapes: Vec<&[usize]> = layouts.iter().map(|(s, _)| s.as_slice()).collect();
                let (labelling, shape) = plan.recipe.labelling(&shapes)?;
                plan.limits.checked_size(&shape)?;
                let layouts: Vec<(&[usize], &[usize])> = layouts
                    .iter()
                    .map(|(s, t)| (s.as_slice(), t.as_slice()))
                    .collect();
                Product::new(&plan.recipe, &plan.compute, &labelling, &layouts, shape)
            })
            .map_err(|e| e.in_function(name))?;
        budget.add(product.shape.iter().product(), row)?;
        shapes.extend_from_slice(&product.shape);
        for (base, reader) in bases.iter_mut().zip(readers) {
            *base = reader.span(row).0;
        }
        product
            .run(inputs, &bases, &mut out, &mut scratch)
            .map_err(|e| e.in_function(name))?;
    }
    Ok((out, Some(shapes)))
}

/// A contraction as numpy works it for operands of one combination of shapes: the result's
/// shape, and the signed zeros of a product with a one-element operand ([`signed_zeros`]).
#[derive(Debug, PartialEq, Eq, Hash)]
pub(super) struct Product {
    contraction: Contraction,
    shape: Vec<usize>,
    /// The operand whose zero makes the whole result zero (numpy's BLAS `axpy`).
    zeroed_by: Option<usize>,
}

impl Product {
    /// The product of `labelling` for operands of these layouts, `shape` its result's.
    fn new(
        recipe: &Recipe,
        compute: &DataType,
        labelling: &Labelling,
        layouts: &[(&[usize], &[usize])],
        shape: Vec<usize>,
    ) -> crate::error::Result<Self> {
        let contraction = Contraction::new(labelling, layouts)?;
        let shapes: Vec<&[usize]> = layouts.iter().map(|(s, _)| *s).collect();
        let (from_zero, zeroed_by) = signed_zeros(recipe, compute, labelling, &shapes);
        Ok(Self {
            contraction: if from_zero {
                contraction.added_to_zero()
            } else {
                contraction
            },
            shape,
            zeroed_by,
        })
    }

    /// Appends every row's result to `out` at once where the rows are evenly spaced and the
    /// contraction is a small matrix product ([`Contraction::run_rows`]); NULL rows are
    /// zeros, as [`Product::run`] leaves them. `false`, with nothing appended, otherwise.
    fn run_rows<T: GemmRow + PartialEq>(
        &self,
        inputs: &[&[T]],
        readers: &[RowTensor<'_>],
        nulls: Option<&NullBuffer>,
        rows: usize,
        out: &mut Vec<T>,
    ) -> crate::error::Result<bool> {
        let Some(steps) = readers
            .iter()
            .map(RowTensor::row_step)
            .collect::<Option<Vec<usize>>>()
        else {
            return Ok(false);
        };
        let bases: Vec<usize> = readers.iter().map(|reader| reader.span(0).0).collect();
        let start = out.len();
        if !self
            .contraction
            .run_rows(inputs, &bases, &steps, rows, out)?
        {
            return Ok(false);
        }
        let len = self.contraction.output_len();
        for (r, row) in out[start..].chunks_exact_mut(len.max(1)).enumerate() {
            let zeroed = self
                .zeroed_by
                .is_some_and(|k| inputs[k].get(bases[k] + r * steps[k]) == Some(&T::default()));
            if zeroed || nulls.is_some_and(|n| n.is_null(r)) {
                row.fill(T::default());
            }
        }
        Ok(true)
    }

    /// Appends one row's result to `out` ([`Contraction::run`]).
    fn run<T: GemmRow + PartialEq>(
        &self,
        inputs: &[&[T]],
        bases: &[usize],
        out: &mut Vec<T>,
        scratch: &mut Scratch,
    ) -> crate::error::Result<()> {
        let start = out.len();
        self.contraction.run(inputs, bases, out, scratch)?;
        if let Some(k) = self.zeroed_by
            && inputs[k].get(bases[k]) == Some(&T::default())
        {
            out[start..].fill(T::default());
        }
        Ok(())
    }
}

/// How numpy treats signed zeros (and a zero factor) in a product without a sum, where it
/// differs from a plain multiply (which keeps `-0.0`, as `outer` and integer and float16
/// `dot` do): whether the product is added to zero, and which one-element operand, when zero,
/// leaves the whole result zero.
///
/// numpy's `dot` and `inner` of float32/float64 operands of at most two dimensions, one of
/// them 0-d, go through `cblas_matrixproduct`: the other operand times the scalar by BLAS's
/// `axpy` into a zeroed result (`0 + a * b`, so `-0.0` becomes `0.0`; `axpy` skips a zero
/// multiplier, so `np.dot([inf], 0.0)` is `[0.0]`), unless the other operand has one element
/// (a plain multiply). `tensordot` without summed axes is a `dot` of its operands reshaped to
/// `(a.size, 1)` and `(1, b.size)`: float16 through numpy's dot loop (a sum from zero), float32
/// and float64 through BLAS (a one-element operand by `axpy`, others by `gemm`, both from
/// zero) unless the result has one element. `einsum` always adds to zero.
fn signed_zeros(
    recipe: &Recipe,
    compute: &DataType,
    labelling: &Labelling,
    shapes: &[&[usize]],
) -> (bool, Option<usize>) {
    let blas = matches!(compute, DataType::Float32 | DataType::Float64);
    let size = |k: usize| shapes.get(k).map_or(1, |s| s.iter().product::<usize>());
    match recipe {
        Recipe::Einsum(_) => (true, None),
        Recipe::Dot | Recipe::Inner => {
            let Some(k) = shapes.iter().position(|s| s.is_empty()) else {
                return (false, None);
            };
            let cblas = blas && shapes.iter().all(|s| s.len() <= 2) && size(1 - k) != 1;
            (cblas, cblas.then_some(k))
        }
        Recipe::Tensordot(_) if labelling.output.len() == labelling.sizes.len() => match compute {
            DataType::Float16 => (true, None),
            _ if blas && size(0) * size(1) != 1 => (true, (0..2).find(|&k| size(k) == 1)),
            _ => (false, None),
        },
        _ => (false, None),
    }
}

/// The result array from its values.
fn finish(
    name: &str,
    plan: &ContractPlan,
    values: ArrayRef,
    shapes: Option<Vec<usize>>,
    nulls: Option<NullBuffer>,
    element_nulls: Option<&NullBuffer>,
    rows: usize,
) -> Result<ArrayRef> {
    let values = crate::kernels::layout::with_row_nulls(values, element_nulls)?;
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
