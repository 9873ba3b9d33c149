//! `tensor_inner_product`, `tensor_l2_distance`, `tensor_cosine_similarity`: vector measures
//! along one axis (the last by default) of two operands broadcast by numpy's rules. float16
//! and float32 operands give their own type, summed in float32 (no Float64 detour); float64
//! stays float64; integers and booleans give float64. Planned once per query when both
//! operands are fixed-shape (a constant operand, a query vector, is read once for every row);
//! with a variable-shape operand, once per combination of row shapes (each row's shapes
//! broadcast, an error naming the row where they do not), the result fixed-shape when the
//! dimensions every row has fix its shape, else variable-shape.

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, AsArray, PrimitiveArray};
use arrow::buffer::NullBuffer;
use arrow::compute::cast;
use arrow::datatypes::{DataType, Field, FieldRef, Float16Type, Float32Type, Float64Type};
use datafusion::common::{ScalarValue, exec_err, plan_err};
use datafusion::error::Result;
use datafusion::logical_expr::{ColumnarValue, Documentation};
use half::{f16, slice::HalfFloatSliceExt};

use super::args::integer_option;
use super::rows::{batch_args, readers, variable_result, views};
use crate::dtype::result_type;
use crate::error::TensorError;
use crate::index::wrap_index;
use crate::kernels::elementwise::broadcast_operands;
use crate::kernels::layout::output_rows;
use crate::kernels::linalg::similarity::{
    Float, Measure, Operand, VectorPlan, measure_row, measure_rows, without_axis,
};
use crate::kernels::rows::{RowPlans, RowTensor};
use crate::limits::Limits;
use crate::shape::known_broadcast;
use crate::tensor_type::TensorType;
use crate::udf::rows::{format_known, known_shape, output_of_known};
use crate::udf::{Parameters, PlanArgs, TensorFunction, tensor_array};
use crate::variable_shape::AnyTensorType;

/// Every measure, in registration order.
pub const MEASURES: [Measure; 3] = [
    Measure::InnerProduct,
    Measure::L2Distance,
    Measure::CosineSimilarity,
];

/// A vector measure function.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct TensorVectorMeasure {
    measure: Measure,
    /// `tensor_cosine_distance`: one minus the cosine similarity (as in `DuckDB`:
    /// `array_cosine_distance`).
    distance: bool,
    documentation: Documentation,
}

impl TensorVectorMeasure {
    /// The registered instance of `measure`.
    pub fn new(measure: Measure) -> Self {
        Self {
            measure,
            distance: false,
            documentation: documentation(measure, false),
        }
    }

    /// `tensor_cosine_distance`: `1 - tensor_cosine_similarity(a, b)`.
    pub fn cosine_distance() -> Self {
        Self {
            measure: Measure::CosineSimilarity,
            distance: true,
            documentation: documentation(Measure::CosineSimilarity, true),
        }
    }
}

/// `1 - v` of every value of a float result (a one-value-per-row column, or a tensor's
/// values), in its type; NULLs kept.
fn one_minus(output: Option<&AnyTensorType>, out: &ArrayRef) -> Result<ArrayRef> {
    use arrow::datatypes::{Float16Type, Float32Type, Float64Type};
    let map = |values: &ArrayRef| -> Result<ArrayRef> {
        Ok(match values.data_type() {
            DataType::Float16 => Arc::new(
                values
                    .as_primitive::<Float16Type>()
                    .unary::<_, Float16Type>(|v| half::f16::ONE - v),
            ),
            DataType::Float32 => Arc::new(
                values
                    .as_primitive::<Float32Type>()
                    .unary::<_, Float32Type>(|v| 1.0 - v),
            ),
            _ => Arc::new(
                values
                    .as_primitive::<Float64Type>()
                    .unary::<_, Float64Type>(|v| 1.0 - v),
            ),
        })
    };
    match output {
        None => map(out),
        Some(output) => {
            crate::udf::unary::map_tensor_values("tensor_cosine_distance", output, out, map)
        }
    }
}

/// A compiled call.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct MeasurePlan {
    /// The result element type (Float16, Float32 or Float64).
    element: DataType,
    vectors: Vectors,
    /// The result type (`None`: one value per row).
    output: Option<AnyTensorType>,
}

/// Where a call's vectors are.
#[derive(Debug, PartialEq, Eq, Hash)]
enum Vectors {
    /// Both operands fixed-shape: every row's vectors, planned once, and each operand's stored
    /// values per row.
    Fixed { plan: VectorPlan, sizes: [usize; 2] },
    /// A variable-shape operand: the operands, read row by row, measured along `axis` of each
    /// row's broadcast shape (`len`: the vectors' length when every row has it).
    Rows {
        operands: [AnyTensorType; 2],
        axis: usize,
        len: Option<usize>,
        /// The session's limits, which each row's broadcast shape is checked against.
        limits: Limits,
    },
}

impl MeasurePlan {
    /// The result shape of every row, when every row has one.
    fn fixed_shape(&self) -> Option<&TensorType> {
        match &self.output {
            Some(AnyTensorType::Fixed(tensor)) => Some(tensor),
            _ => None,
        }
    }
}

impl TensorFunction for TensorVectorMeasure {
    type Plan = MeasurePlan;

    fn name(&self) -> &'static str {
        match self.measure {
            Measure::CosineSimilarity if self.distance => "tensor_cosine_distance",
            Measure::InnerProduct => "tensor_inner_product",
            Measure::L2Distance => "tensor_l2_distance",
            Measure::CosineSimilarity => "tensor_cosine_similarity",
        }
    }

    fn parameters(&self) -> Parameters {
        Parameters::Fixed {
            names: &["a", "b", "axis"],
            required: 2,
        }
    }

    fn documentation(&self) -> Option<&Documentation> {
        Some(&self.documentation)
    }

    fn tensor_arguments(&self, _arg_types: &[DataType]) -> Vec<usize> {
        vec![0, 1]
    }

    fn list_column_length(&self, plan: &MeasurePlan, _i: usize) -> Option<usize> {
        match &plan.vectors {
            Vectors::Fixed { plan, .. } => Some(plan.len),
            Vectors::Rows { len, .. } => *len,
        }
        .filter(|&n| n != 1)
    }

    fn plan(&self, args: &PlanArgs<'_>) -> Result<MeasurePlan> {
        let name = args.name;
        let a = args.any_tensor(0, "a")?;
        let b = args.any_tensor(1, "b")?;
        let axis = integer_option(args, 2, "axis", -1)?;
        let common = result_type(&[a.element_type().clone(), b.element_type().clone()], &[])
            .unwrap_or(DataType::Float64);
        let element = match common {
            DataType::Float16 | DataType::Float32 => common,
            _ => DataType::Float64,
        };
        let (AnyTensorType::Fixed(fixed_a), AnyTensorType::Fixed(fixed_b)) = (&a, &b) else {
            return plan_rows(name, element, [a, b], axis, args.limits);
        };
        let (a_shape, b_shape) = (fixed_a.logical_shape(), fixed_b.logical_shape());
        // numpy's ufunc words: the measures multiply or subtract the operands elementwise.
        let target = match broadcast_operands(&[&a_shape, &b_shape]) {
            Ok(target) => target,
            Err(message) => return plan_err!("{name}: {message}"),
        };
        args.limits
            .checked_size(&target)
            .map_err(|e| e.in_function(name))?;
        let axis = plan_axis(name, axis, target.len())?;
        let plan = VectorPlan::new(
            [
                (&a_shape, &fixed_a.logical_strides()),
                (&b_shape, &fixed_b.logical_strides()),
            ],
            &target,
            axis,
        );
        let shape = without_axis(&target, axis);
        let output = if shape.is_empty() {
            None
        } else {
            Some(AnyTensorType::Fixed(
                TensorType::new(element.clone(), shape).map_err(|e| e.in_function(name))?,
            ))
        };
        Ok(MeasurePlan {
            element,
            vectors: Vectors::Fixed {
                plan,
                sizes: [fixed_a.size(), fixed_b.size()],
            },
            output,
        })
    }

    fn return_field(&self, plan: &MeasurePlan) -> FieldRef {
        Arc::new(match &plan.output {
            Some(AnyTensorType::Fixed(tensor)) => tensor.to_field(self.name()),
            Some(AnyTensorType::Variable(tensor)) => tensor.to_field(self.name()),
            None => Field::new(self.name(), plan.element.clone(), true),
        })
    }

    fn invoke(
        &self,
        plan: &MeasurePlan,
        args: &[ColumnarValue],
        number_rows: usize,
    ) -> Result<ColumnarValue> {
        let name = self.name();
        let (Some(a), Some(b)) = (args.first(), args.get(1)) else {
            return exec_err!("{name}: two operands expected");
        };
        let scalar = matches!(a, ColumnarValue::Scalar(_)) && matches!(b, ColumnarValue::Scalar(_));
        let rows = if scalar { 1 } else { number_rows };
        let out = match &plan.vectors {
            Vectors::Fixed {
                plan: vectors,
                sizes,
            } => self.fixed_rows(plan, vectors, *sizes, [a, b], rows)?,
            Vectors::Rows {
                operands,
                axis,
                limits,
                ..
            } => self.variable_rows(plan, operands, *axis, limits, args, rows)?,
        };
        let out = if self.distance {
            one_minus(plan.output.as_ref(), &out)?
        } else {
            out
        };
        if scalar {
            Ok(ColumnarValue::Scalar(ScalarValue::try_from_array(&out, 0)?))
        } else {
            Ok(ColumnarValue::Array(out))
        }
    }
}

/// The axis of a target of `ndim` dimensions, negative from the end (numpy's error when out
/// of bounds).
fn plan_axis(name: &str, axis: i64, ndim: usize) -> Result<usize> {
    match wrap_index(axis, ndim) {
        Some(axis) => Ok(axis),
        None => plan_err!("{name}: axis {axis} is out of bounds for array of dimension {ndim}"),
    }
}

/// Plans a call with a variable-shape operand: the dimensions every row has broadcast (a plan
/// error when they cannot), the axis checked against their number, the result fixed-shape
/// when they fix every result dimension.
fn plan_rows(
    name: &str,
    element: DataType,
    operands: [AnyTensorType; 2],
    axis: i64,
    limits: Limits,
) -> Result<MeasurePlan> {
    let known = operands.each_ref().map(known_shape);
    let Some(target) = known_broadcast(&[known[0].as_slice(), known[1].as_slice()]) else {
        return plan_err!(
            "{name}: operands could not be broadcast together: the dimensions every row has, {} {}, do not broadcast",
            format_known(&known[0]),
            format_known(&known[1])
        );
    };
    let axis = plan_axis(name, axis, target.len())?;
    let shape = without_axis(&target, axis);
    let output = if shape.is_empty() {
        None
    } else {
        Some(output_of_known(&element, &shape, None)?)
    };
    Ok(MeasurePlan {
        element,
        vectors: Vectors::Rows {
            operands,
            axis,
            len: target[axis],
            limits,
        },
        output,
    })
}

/// One combination of row shapes: its vectors and its result's shape.
#[derive(Debug)]
struct RowVectors {
    plan: VectorPlan,
    shape: Vec<usize>,
}

impl TensorVectorMeasure {
    /// Both operands fixed-shape: every row's vectors, over whole value buffers.
    fn fixed_rows(
        &self,
        plan: &MeasurePlan,
        vectors: &VectorPlan,
        sizes: [usize; 2],
        operands: [&ColumnarValue; 2],
        rows: usize,
    ) -> Result<ArrayRef> {
        let name = self.name();
        let mut values = Vec::with_capacity(2);
        let mut row_len = [0usize; 2];
        let mut nulls: Option<NullBuffer> = None;
        for (k, value) in operands.into_iter().enumerate() {
            let (array, constant) = match value {
                ColumnarValue::Array(array) => (Arc::clone(array), false),
                ColumnarValue::Scalar(s) => (s.to_array_of_size(1)?, true),
            };
            let list = tensor_array(name, &array)?;
            // A literal's one row (a column of no rows has no row 0 to read).
            let operand_nulls = match constant {
                true if list.is_null(0) => Some(NullBuffer::new_null(rows)),
                true => None,
                false => list.logical_nulls(),
            };
            nulls = NullBuffer::union(nulls.as_ref(), operand_nulls.as_ref());
            // A NULL element makes the row NULL (its measures would take it); in a constant
            // operand, every row.
            if let Some(elements) = list.values().nulls().filter(|n| n.null_count() > 0) {
                let size = sizes[k];
                let valid: Vec<bool> = (0..rows)
                    .map(|row| {
                        let start = if constant { 0 } else { row * size };
                        (start..start + size).all(|i| elements.is_valid(i))
                    })
                    .collect();
                nulls = NullBuffer::union(nulls.as_ref(), Some(&NullBuffer::from(valid)));
            }
            row_len[k] = if constant { 0 } else { sizes[k] };
            values.push(Arc::clone(list.values()));
        }
        let mut work = FixedLoop {
            name,
            measure: self.measure,
            vectors,
            row_len,
            rows,
        };
        let out = in_element(&plan.element, [&values[0], &values[1]], &mut work)?;
        Ok(output_rows(plan.fixed_shape(), out, nulls, rows)?)
    }

    /// A variable-shape operand: each row's shapes broadcast (one plan per combination of row
    /// shapes), its vectors measured where they are stored.
    fn variable_rows(
        &self,
        plan: &MeasurePlan,
        operands: &[AnyTensorType; 2],
        axis: usize,
        limits: &Limits,
        args: &[ColumnarValue],
        rows: usize,
    ) -> Result<ArrayRef> {
        let name = self.name();
        let batches = batch_args(name, args, &[0, 1])?;
        let views = views(name, operands, &batches)?;
        let (readers, nulls) = readers(name, operands, &batches, &views, rows)?;
        // A NULL element makes the row NULL (its measures would take it).
        let nulls = super::rows::with_null_element_rows(&readers, nulls, rows);
        let out_ndim = match &plan.output {
            Some(AnyTensorType::Variable(t)) => t.ndim(),
            _ => 0,
        };
        let mut work = RowsLoop {
            name,
            measure: self.measure,
            readers: &readers,
            nulls: nulls.as_ref(),
            axis,
            limits,
            fixed_len: plan.fixed_shape().map(TensorType::size),
            out_ndim,
            rows,
            shapes: Vec::with_capacity(rows * out_ndim),
        };
        let out = in_element(
            &plan.element,
            [readers[0].values(), readers[1].values()],
            &mut work,
        )?;
        match &plan.output {
            Some(AnyTensorType::Variable(variable)) => {
                variable_result(name, variable, &out, &work.shapes, nulls.as_ref(), rows)
            }
            _ => Ok(output_rows(plan.fixed_shape(), out, nulls, rows)?),
        }
    }
}

/// A measure's loop over a batch, generic over the float type it is worked in.
trait MeasureLoop {
    /// Appends the batch's results, worked on `inputs` (each operand's values) in `F`, to
    /// `out`.
    fn run<F: Float, A: Operand<F>, B: Operand<F>>(
        &mut self,
        inputs: (&[A], &[B]),
        out: &mut Vec<F>,
    ) -> Result<()>;
}

/// Both operands fixed-shape: one plan for every row.
struct FixedLoop<'p> {
    name: &'static str,
    measure: Measure,
    vectors: &'p VectorPlan,
    row_len: [usize; 2],
    rows: usize,
}

impl MeasureLoop for FixedLoop<'_> {
    fn run<F: Float, A: Operand<F>, B: Operand<F>>(
        &mut self,
        inputs: (&[A], &[B]),
        out: &mut Vec<F>,
    ) -> Result<()> {
        measure_rows(
            self.measure,
            self.vectors,
            inputs,
            self.row_len,
            self.rows,
            out,
        )
        .or_else(|e| exec_err!("{}: {e}", self.name))
    }
}

/// A variable-shape operand: each row's vectors planned by its shapes; `shapes` collects each
/// row's result shape (`out_ndim` per row) for a variable-shape result.
struct RowsLoop<'r, 'a> {
    name: &'static str,
    measure: Measure,
    readers: &'r [RowTensor<'a>],
    nulls: Option<&'r NullBuffer>,
    axis: usize,
    limits: &'r Limits,
    /// A fixed-shape result's values per row.
    fixed_len: Option<usize>,
    out_ndim: usize,
    rows: usize,
    shapes: Vec<usize>,
}

impl MeasureLoop for RowsLoop<'_, '_> {
    fn run<F: Float, A: Operand<F>, B: Operand<F>>(
        &mut self,
        inputs: (&[A], &[B]),
        out: &mut Vec<F>,
    ) -> Result<()> {
        let name = self.name;
        let tensors: Vec<&RowTensor<'_>> = self.readers.iter().collect();
        let (axis, fixed_len, limits) = (self.axis, self.fixed_len, self.limits);
        // A NULL row: a fixed-shape result's values, one value (0-d) or nothing.
        let null_len = fixed_len.unwrap_or(usize::from(self.out_ndim == 0));
        let mut plans: RowPlans<RowVectors> = RowPlans::default();
        for row in 0..self.rows {
            if self.nulls.is_some_and(|n| n.is_null(row)) {
                out.resize(out.len() + null_len, F::default());
                self.shapes.extend(std::iter::repeat_n(0, self.out_ndim));
                continue;
            }
            let vectors = plans
                .get(&tensors, row, |layouts| {
                    row_vectors(layouts, axis, fixed_len, limits)
                })
                .map_err(|e| e.in_function(name))?;
            let starts = [self.readers[0].span(row).0, self.readers[1].span(row).0];
            measure_row(self.measure, &vectors.plan, inputs, starts, out)
                .or_else(|e| exec_err!("{name}: {e}"))?;
            self.shapes.extend_from_slice(&vectors.shape);
        }
        Ok(())
    }
}

/// Runs `work` on both operands' values in the type `element` is worked in (float64; float32
/// for float16 and float32), and gives its results as an array of `element`. A float32
/// operand of a float64 measure is read as it is, each element widened in the loop (the same
/// bits as the cast it saves: an embedding column against a float64 query literal spent as
/// long casting the column as measuring it).
fn in_element(
    element: &DataType,
    values: [&ArrayRef; 2],
    work: &mut impl MeasureLoop,
) -> Result<ArrayRef> {
    if *element == DataType::Float64 {
        let mut out: Vec<f64> = Vec::new();
        let f32s = |k: usize| {
            values[k]
                .as_primitive_opt::<Float32Type>()
                .map(PrimitiveArray::values)
        };
        match (f32s(0), f32s(1)) {
            (Some(a), Some(b)) => work.run((&a[..], &b[..]), &mut out)?,
            (Some(a), None) => {
                let b = cast(values[1], &DataType::Float64)?;
                work.run((&a[..], b.as_primitive::<Float64Type>().values()), &mut out)?;
            }
            (None, Some(b)) => {
                let a = cast(values[0], &DataType::Float64)?;
                work.run((a.as_primitive::<Float64Type>().values(), &b[..]), &mut out)?;
            }
            (None, None) => {
                let a = cast(values[0], &DataType::Float64)?;
                let b = cast(values[1], &DataType::Float64)?;
                work.run(
                    (
                        a.as_primitive::<Float64Type>().values(),
                        b.as_primitive::<Float64Type>().values(),
                    ),
                    &mut out,
                )?;
            }
        }
        return Ok(Arc::new(PrimitiveArray::<Float64Type>::from_iter_values(
            out,
        )));
    }
    let a = as_f32(values[0])?;
    let b = as_f32(values[1])?;
    let mut out: Vec<f32> = Vec::new();
    work.run((&a[..], &b[..]), &mut out)?;
    if *element == DataType::Float16 {
        let mut half = vec![f16::ZERO; out.len()];
        half.convert_from_f32_slice(&out);
        Ok(Arc::new(PrimitiveArray::<Float16Type>::from_iter_values(
            half,
        )))
    } else {
        Ok(Arc::new(PrimitiveArray::<Float32Type>::from_iter_values(
            out,
        )))
    }
}

/// The vectors of one combination of row layouts (logical shapes and strides): numpy's
/// broadcast (its ufunc error where the shapes do not broadcast), measured along `axis`; a
/// fixed-shape result's rows must have its `fixed_len` values.
fn row_vectors(
    layouts: &[(Vec<usize>, Vec<usize>)],
    axis: usize,
    fixed_len: Option<usize>,
    limits: &Limits,
) -> crate::error::Result<RowVectors> {
    let [(a_shape, a_strides), (b_shape, b_strides)] = layouts else {
        return Err(TensorError::Internal("two operands expected".to_string()));
    };
    let target = broadcast_operands(&[a_shape, b_shape]).map_err(TensorError::Shape)?;
    limits.checked_size(&target)?;
    let shape = without_axis(&target, axis);
    let plan = VectorPlan::new([(a_shape, a_strides), (b_shape, b_strides)], &target, axis);
    if fixed_len.is_some_and(|n| n != plan.output_len()) {
        return Err(TensorError::Internal(format!(
            "a row's result of shape {shape:?} in a result planned with {} values per row",
            fixed_len.unwrap_or(0)
        )));
    }
    Ok(RowVectors { plan, shape })
}

/// Values as float32: float16 converted in one pass over the buffer (half's slice conversion,
/// vectorised where the CPU allows), float32 borrowed, others cast.
fn as_f32(values: &ArrayRef) -> Result<std::borrow::Cow<'_, [f32]>> {
    Ok(match values.data_type() {
        DataType::Float32 => {
            std::borrow::Cow::Borrowed(values.as_primitive::<Float32Type>().values().as_ref())
        }
        DataType::Float16 => {
            let half = values.as_primitive::<Float16Type>().values();
            let mut out = vec![0.0f32; half.len()];
            half.convert_to_f32_slice(&mut out);
            std::borrow::Cow::Owned(out)
        }
        _ => {
            let cast = cast(values, &DataType::Float32)?;
            std::borrow::Cow::Owned(cast.as_primitive::<Float32Type>().values().to_vec())
        }
    })
}

/// `SHOW FUNCTIONS` documentation of `measure`'s function.
fn documentation(measure: Measure, distance: bool) -> Documentation {
    let (name, what, example, shown) = match measure {
        Measure::CosineSimilarity if distance => (
            "tensor_cosine_distance",
            "The cosine distance 1 - tensor_cosine_similarity(a, b) (DuckDB's array_cosine_distance; NaN for a zero vector)",
            "tensor_cosine_distance([1.0, 0.0], [0.0, 1.0])",
            "1.0",
        ),
        Measure::InnerProduct => (
            "tensor_inner_product",
            "The inner product sum(a * b)",
            "tensor_inner_product(tensor([1.0, 2.0, 3.0, 4.0], [2, 2]), [1.0, 1.0])",
            "[3.0, 7.0]",
        ),
        Measure::L2Distance => (
            "tensor_l2_distance",
            "The Euclidean distance sqrt(sum((a - b)^2))",
            "tensor_l2_distance([0.0, 3.0], [4.0, 0.0])",
            "5.0",
        ),
        Measure::CosineSimilarity => (
            "tensor_cosine_similarity",
            "The cosine similarity sum(a * b) / (sqrt(sum(a * a)) * sqrt(sum(b * b))) (NaN for a zero vector)",
            "tensor_cosine_similarity([1.0, 0.0], [1.0, 1.0])",
            "0.7071067811865475",
        ),
    };
    crate::udf::documented(
        format!(
            "{what} along the last axis (or `axis`) of a and b, broadcast by numpy's rules. float16 and float32 operands keep their type, summed in float32; float64 stays float64; integers and booleans give float64. Sums run in eight partial sums. A NULL row gives a NULL row. Either operand may be variable-shape: each row's shapes broadcast (numpy's error naming the row where they do not), the result fixed-shape when the dimensions every row has fix its shape, else variable-shape."
        ),
        format!("{name}(a, b [, axis])"),
    )
    .with_sql_example(crate::udf::sql_example(example, shown))
    .with_argument("a", "A tensor (fixed- or variable-shape, FixedSizeList) or list literal, read in logical order.")
    .with_argument("b", "A tensor (fixed- or variable-shape, FixedSizeList) or list literal (a query vector broadcasts to every row).")
    .with_argument("axis", "A literal integer (negative from the end); default -1.")
    .build()
}
