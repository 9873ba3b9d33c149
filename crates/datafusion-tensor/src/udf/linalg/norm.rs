//! `tensor_norm(x [, ord [, axis [, keepdims]]])`: numpy's `linalg.norm` per row. `ord` is a
//! literal number (an integer or a float, `'inf'::DOUBLE` included), a string (`'fro'`, `'f'`,
//! `'nuc'`, and beyond numpy `'inf'` / `'-inf'` for the infinities) or NULL; `axis` an integer,
//! a list of one or two integers, or NULL; `keepdims` a boolean. The norm is planned once per
//! query from the rank (`kernels::linalg::norm`); fixed shapes are checked when the query is
//! planned, variable-shape rows one by one (an error names the row).

use std::sync::Arc;

use arrow::array::{ArrayRef, AsArray, PrimitiveArray};
use arrow::buffer::NullBuffer;
use arrow::datatypes::{
    ArrowPrimitiveType, DataType, Field, FieldRef, Float16Type, Float32Type, Float64Type,
};
use datafusion::common::{ScalarValue, exec_err, plan_err};
use datafusion::error::{DataFusionError, Result};
use datafusion::logical_expr::{ColumnarValue, Documentation};

use super::args::{integer, is_default, string};
use super::rows::{batch_args, readers, values_as, variable_result, views, with_null_element_rows};
use crate::index::wrap_index;
use crate::kernels::layout::output_rows;
use crate::kernels::linalg::norm::{MatrixOrd, Norm, NormElement, VectorOrd, norm_row};
use crate::kernels::rows::{RowPlans, RowTensor};
use crate::tensor_type::TensorType;
use crate::udf::{Parameters, PlanArgs, TensorFunction, literal_int_list, tensor_documentation};
use crate::variable_shape::{AnyTensorType, VariableShapeType};

/// `ord` as written.
#[derive(Debug, Clone, PartialEq)]
enum Order {
    Default,
    Number(f64),
    Fro,
    Nuc,
    /// Any other string (numpy's errors).
    Other(String),
}

/// The norm of a call on tensors of `ndim` dimensions, checked in numpy's order and words
/// (numpy compares `ord` with each order exactly).
#[allow(clippy::float_cmp)]
fn resolve(order: &Order, axes: Option<&[i64]>, ndim: usize) -> std::result::Result<Norm, String> {
    let number = |x: f64| matches!(order, Order::Number(v) if *v == x);
    let axes: Vec<i64> = match axes {
        None if *order == Order::Default
            || (*order == Order::Fro && ndim == 2)
            || (number(2.0) && ndim == 1) =>
        {
            return Ok(Norm::Flat);
        }
        None => (0..ndim as i64).collect(),
        Some(axes) => axes.to_vec(),
    };
    let normal = |axis: i64| {
        wrap_index(axis, ndim)
            .ok_or_else(|| format!("axis {axis} is out of bounds for array of dimension {ndim}"))
    };
    match axes[..] {
        [axis] => {
            let axis = normal(axis)?;
            let ord = match order {
                Order::Number(x) if *x == f64::INFINITY => VectorOrd::Inf,
                Order::Number(x) if *x == f64::NEG_INFINITY => VectorOrd::NegInf,
                Order::Number(x) if *x == 0.0 => VectorOrd::Zero,
                Order::Number(x) if *x == 1.0 => VectorOrd::One,
                Order::Default => VectorOrd::Two,
                Order::Number(x) if *x == 2.0 => VectorOrd::Two,
                Order::Fro => return Err("Invalid norm order 'fro' for vectors".to_string()),
                Order::Nuc => return Err("Invalid norm order 'nuc' for vectors".to_string()),
                Order::Other(s) => return Err(format!("Invalid norm order '{s}' for vectors")),
                Order::Number(p) => VectorOrd::P(*p),
            };
            Ok(Norm::Vector(ord, axis))
        }
        [row, col] => {
            let (row, col) = (normal(row)?, normal(col)?);
            if row == col {
                return Err("Duplicate axes given.".to_string());
            }
            let ord = match order {
                Order::Number(x) if *x == 2.0 => MatrixOrd::Two,
                Order::Number(x) if *x == -2.0 => MatrixOrd::NegTwo,
                Order::Number(x) if *x == 1.0 => MatrixOrd::One,
                Order::Number(x) if *x == f64::INFINITY => MatrixOrd::Inf,
                Order::Number(x) if *x == -1.0 => MatrixOrd::NegOne,
                Order::Number(x) if *x == f64::NEG_INFINITY => MatrixOrd::NegInf,
                Order::Default | Order::Fro => MatrixOrd::Fro,
                Order::Nuc => MatrixOrd::Nuc,
                _ => return Err("Invalid norm order for matrices.".to_string()),
            };
            Ok(Norm::Matrix(ord, row, col))
        }
        _ => Err("Improper number of dimensions to norm.".to_string()),
    }
}

/// `tensor_norm`.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct TensorNorm {
    documentation: Documentation,
}

impl Default for TensorNorm {
    fn default() -> Self {
        Self {
            documentation: documentation(),
        }
    }
}

impl TensorNorm {
    /// The registered instance.
    pub fn new() -> Self {
        Self::default()
    }
}

/// A compiled call.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct NormPlan {
    input: AnyTensorType,
    norm: Norm,
    keepdims: bool,
    /// The type rows are worked and returned in (Float16, Float32 or Float64).
    compute: DataType,
    /// The result: one value per row (`None`), a fixed-shape tensor, or variable-shape.
    fixed: Option<TensorType>,
    variable: Option<VariableShapeType>,
}

fn order(args: &PlanArgs<'_>) -> Result<Order> {
    if is_default(args, 1) {
        return Ok(Order::Default);
    }
    let Some(literal) = args.literal(1) else {
        return plan_err!(
            "{}: argument ord must be a literal number or string",
            args.name
        );
    };
    if let Some(text) = string(literal) {
        return Ok(match text {
            "fro" | "f" => Order::Fro,
            "nuc" => Order::Nuc,
            "inf" | "+inf" | "Infinity" | "infinity" => Order::Number(f64::INFINITY),
            "-inf" | "-Infinity" | "-infinity" => Order::Number(f64::NEG_INFINITY),
            other => Order::Other(other.to_string()),
        });
    }
    if let Some(n) = integer(literal) {
        return Ok(Order::Number(n as f64));
    }
    match literal.cast_to(&DataType::Float64) {
        Ok(ScalarValue::Float64(Some(x))) if literal.data_type().is_floating() => {
            Ok(Order::Number(x))
        }
        _ => plan_err!(
            "{}: argument ord must be a literal number, 'inf', '-inf', 'fro', 'nuc' or NULL",
            args.name
        ),
    }
}

fn axes(args: &PlanArgs<'_>) -> Result<Option<Vec<i64>>> {
    if is_default(args, 2) {
        return Ok(None);
    }
    let literal = args.literal(2);
    if let Some(axis) = literal.and_then(integer) {
        return Ok(Some(vec![axis]));
    }
    match literal.and_then(literal_int_list) {
        Some(axes) => Ok(Some(axes)),
        None => plan_err!(
            "{}: argument axis must be a literal integer, a literal list of integers or NULL ('axis' must be None, an integer or a tuple of integers)",
            args.name
        ),
    }
}

fn keepdims(args: &PlanArgs<'_>) -> Result<bool> {
    if is_default(args, 3) {
        return Ok(false);
    }
    match args.literal(3) {
        Some(ScalarValue::Boolean(Some(b))) => Ok(*b),
        _ => plan_err!("{}: argument keepdims must be a literal boolean", args.name),
    }
}

impl TensorFunction for TensorNorm {
    type Plan = NormPlan;

    fn name(&self) -> &'static str {
        "tensor_norm"
    }

    fn parameters(&self) -> Parameters {
        Parameters::Fixed {
            names: &["x", "ord", "axis", "keepdims"],
            required: 1,
        }
    }

    fn documentation(&self) -> Option<&Documentation> {
        Some(&self.documentation)
    }

    fn tensor_arguments(&self, _arg_types: &[DataType]) -> Vec<usize> {
        vec![0]
    }

    fn plan(&self, args: &PlanArgs<'_>) -> Result<NormPlan> {
        let name = args.name;
        let input = args.any_tensor(0, "x")?;
        let (order, axes, keepdims) = (order(args)?, axes(args)?, keepdims(args)?);
        let (element, ndim) = match &input {
            AnyTensorType::Fixed(t) => (t.element_type().clone(), t.ndim()),
            AnyTensorType::Variable(t) => (t.element_type().clone(), t.ndim()),
        };
        let norm = match resolve(&order, axes.as_deref(), ndim) {
            Ok(norm) => norm,
            Err(message) => return plan_err!("{name}: {message}"),
        };
        let compute = match element {
            DataType::Float16 | DataType::Float32 => element,
            _ => DataType::Float64,
        };
        if compute == DataType::Float16 && matches!(norm, Norm::Matrix(ord, ..) if ord.needs_svd())
        {
            return plan_err!("{name}: array type float16 is unsupported in linalg");
        }
        let (fixed, variable) = match &input {
            AnyTensorType::Fixed(t) => {
                let shape = t.logical_shape();
                if let Some(err) = norm.empty_error(&shape) {
                    return Err(err.in_function(name));
                }
                let out = norm.output_shape(&shape, keepdims);
                let fixed = (!out.is_empty())
                    .then(|| TensorType::new(compute.clone(), out))
                    .transpose()
                    .map_err(|e| e.in_function(name))?;
                (fixed, None)
            }
            AnyTensorType::Variable(_) => {
                let out = norm.output_shape(&vec![1; ndim], keepdims).len();
                let variable = (out > 0)
                    .then(|| VariableShapeType::new(compute.clone(), out))
                    .transpose()
                    .map_err(|e| e.in_function(name))?;
                (None, variable)
            }
        };
        Ok(NormPlan {
            input,
            norm,
            keepdims,
            compute,
            fixed,
            variable,
        })
    }

    fn return_field(&self, plan: &NormPlan) -> FieldRef {
        Arc::new(match (&plan.fixed, &plan.variable) {
            (Some(t), _) => t.to_field(self.name()),
            (_, Some(t)) => t.to_field(self.name()),
            _ => Field::new(self.name(), plan.compute.clone(), true),
        })
    }

    fn invoke(
        &self,
        plan: &NormPlan,
        args: &[ColumnarValue],
        number_rows: usize,
    ) -> Result<ColumnarValue> {
        let name = self.name();
        let Some(value) = args.first() else {
            return exec_err!("{name}: argument x is missing");
        };
        let scalar = matches!(value, ColumnarValue::Scalar(_));
        let rows = if scalar { 1 } else { number_rows };
        let operands = std::slice::from_ref(&plan.input);
        let batches = batch_args(name, args, &[0])?;
        let views = views(name, operands, &batches)?;
        let (readers, nulls) = readers(name, operands, &batches, &views, rows)?;
        // A NULL element makes the row NULL (a norm over it would take it).
        let nulls = with_null_element_rows(&readers, nulls, rows);
        let (reader, values) = (&readers[0], values_as(&readers[0], &plan.compute)?);
        let out = match plan.compute {
            DataType::Float16 => typed::<Float16Type>(name, plan, reader, &values, nulls, rows)?,
            DataType::Float32 => typed::<Float32Type>(name, plan, reader, &values, nulls, rows)?,
            _ => typed::<Float64Type>(name, plan, reader, &values, nulls, rows)?,
        };
        if scalar {
            Ok(ColumnarValue::Scalar(ScalarValue::try_from_array(&out, 0)?))
        } else {
            Ok(ColumnarValue::Array(out))
        }
    }
}

fn typed<P: ArrowPrimitiveType>(
    name: &str,
    plan: &NormPlan,
    reader: &RowTensor<'_>,
    values: &ArrayRef,
    row_nulls: Option<NullBuffer>,
    rows: usize,
) -> Result<ArrayRef>
where
    P::Native: NormElement,
{
    let values = values.as_primitive::<P>().values().as_ref();
    let nulls: Option<&NullBuffer> = row_nulls.as_ref();
    // Each row's logical shape and strides, once per row shape.
    let tensors = [reader];
    let mut layouts: RowPlans<(Vec<usize>, Vec<usize>)> = RowPlans::default();
    let width = plan.fixed.as_ref().map_or(1, TensorType::size);
    let ndim = plan.variable.as_ref().map_or(0, VariableShapeType::ndim);
    let mut out: Vec<P::Native> = Vec::with_capacity(rows.saturating_mul(width));
    let mut shapes = Vec::new();
    for row in 0..rows {
        let null = nulls.is_some_and(|n| n.is_null(row));
        if null && plan.variable.is_some() {
            shapes.extend(std::iter::repeat_n(0, ndim));
            continue;
        }
        if null {
            out.extend(std::iter::repeat_n(P::Native::default(), width));
            continue;
        }
        let (shape, strides) = layouts
            .get(&tensors, row, |layouts| Ok(layouts[0].clone()))
            .map_err(|e| e.in_function(name))?;
        let start = reader.span(row).0;
        if plan.variable.is_some() {
            shapes.extend(plan.norm.output_shape(shape, plan.keepdims));
        }
        norm_row(&plan.norm, values, start, shape, strides, &mut out).map_err(|e| {
            DataFusionError::Execution(format!("{name}: {e} at row {row} of its batch"))
        })?;
    }
    let values: ArrayRef = Arc::new(PrimitiveArray::<P>::from_iter_values(out));
    match &plan.variable {
        Some(variable) => {
            variable_result(name, variable, &values, &shapes, row_nulls.as_ref(), rows)
        }
        None => Ok(output_rows(plan.fixed.as_ref(), values, row_nulls, rows)?),
    }
}

fn documentation() -> Documentation {
    tensor_documentation(
        "numpy's linalg.norm of each row. Without ord and axis: the 2-norm of the flattened row (Frobenius). With one axis: a vector norm along it (ord 2 by default; inf: max(abs(x)); -inf: min(abs(x)); 0: the count of non-zero elements; 1: sum(abs(x)); any other number p: sum(abs(x)^p)^(1/p)). With two axes: a matrix norm ('fro' by default; 'nuc', 2 and -2 from the singular values; 1 and -1: the largest and smallest column sum of abs(x); inf and -inf: of the row sums). Without axis, ord needs a 1-d or 2-d tensor. Integers and booleans give float64; float16, float32 and float64 keep their type. keepdims keeps the reduced axes as 1. A NULL row gives a NULL row; numpy's errors (Invalid norm order for vectors/matrices, Improper number of dimensions to norm., axis out of bounds, Duplicate axes given.).",
        "tensor_norm(x [, ord [, axis [, keepdims]]])".to_string(),
        "tensor_norm(tensor([3.0, 4.0, 0.0, 12.0], [2, 2]), 1, 1)",
        "[7.0, 12.0]",
    )
    .with_argument("x", "A tensor (fixed- or variable-shape, FixedSizeList) or a list literal, read in logical order.")
    .with_argument("ord", "A literal number (an integer or a float, 'inf'::DOUBLE), a string 'fro', 'f', 'nuc', 'inf' or '-inf' (beyond numpy: the infinities as strings), or NULL (the default).")
    .with_argument("axis", "A literal integer, a list of one or two integers (negative from the end), or NULL (every axis).")
    .with_argument("keepdims", "A literal boolean: keep the reduced axes as dimensions of length 1 (default false).")
    .build()
}

/// `tensor_matrix_norm(x [, keepdims [, ord]])`: the array API's `linalg.matrix_norm`, numpy's
/// `norm(x, ord, axis=(-2, -1), keepdims)` (`'fro'` by default), planned as `tensor_norm`.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct TensorMatrixNorm {
    norm: TensorNorm,
    documentation: Documentation,
}

impl Default for TensorMatrixNorm {
    fn default() -> Self {
        Self {
            norm: TensorNorm::new(),
            documentation: tensor_documentation(
                "The array API's linalg.matrix_norm: tensor_norm over the last two axes (numpy's norm(x, ord, axis=(-2, -1), keepdims)); ord 'fro' by default, or 'nuc', 1, -1, 2, -2, inf, -inf (as strings 'inf', '-inf' too). Leading axes are a batch. Integers and booleans give float64; float16, float32 and float64 keep their type (float16 is refused for 'nuc', 2 and -2). A NULL row gives a NULL row.",
                "tensor_matrix_norm(x [, keepdims [, ord]])".to_string(),
                "tensor_matrix_norm([[3.0, 4.0], [0.0, 12.0]], ord => 1)",
                "16.0",
            )
            .with_argument("x", "A tensor of at least two dimensions (fixed- or variable-shape) or a list literal.")
            .with_argument("keepdims", "A literal boolean: keep the two reduced axes as 1 (default false).")
            .with_argument("ord", "A literal number or string, as tensor_norm's ord for two axes (default 'fro').")
            .build(),
        }
    }
}

impl TensorMatrixNorm {
    /// The registered instance.
    pub fn new() -> Self {
        Self::default()
    }
}

impl TensorFunction for TensorMatrixNorm {
    type Plan = NormPlan;

    fn name(&self) -> &'static str {
        "tensor_matrix_norm"
    }

    fn parameters(&self) -> Parameters {
        Parameters::Fixed {
            names: &["x", "keepdims", "ord"],
            required: 1,
        }
    }

    fn documentation(&self) -> Option<&Documentation> {
        Some(&self.documentation)
    }

    fn tensor_arguments(&self, _arg_types: &[DataType]) -> Vec<usize> {
        vec![0]
    }

    fn plan(&self, args: &PlanArgs<'_>) -> Result<NormPlan> {
        // tensor_norm's arguments: x, ord, axis [-2, -1], keepdims.
        let null = || Arc::new(Field::new("NULL", DataType::Null, true));
        let field = |i: usize| args.fields.get(i).cloned().unwrap_or_else(null);
        let axes = ScalarValue::List(ScalarValue::new_list_nullable(
            &[ScalarValue::Int64(Some(-2)), ScalarValue::Int64(Some(-1))],
            &DataType::Int64,
        ));
        let axes_field = Arc::new(Field::new("axis", axes.data_type(), true));
        let fields = [field(0), field(2), axes_field, field(1)];
        let scalars = [
            args.literal(0),
            args.literal(2),
            Some(&axes),
            args.literal(1),
        ];
        let remapped = PlanArgs {
            name: args.name,
            fields: &fields,
            scalars: &scalars,
            limits: args.limits,
        };
        self.norm.plan(&remapped)
    }

    fn return_field(&self, plan: &NormPlan) -> FieldRef {
        let field = self.norm.return_field(plan);
        Arc::new(field.as_ref().clone().with_name(self.name()))
    }

    fn invoke(
        &self,
        plan: &NormPlan,
        args: &[ColumnarValue],
        number_rows: usize,
    ) -> Result<ColumnarValue> {
        self.norm
            .invoke(plan, &args[..1.min(args.len())], number_rows)
    }
}
