//! `tensor_inner_product`, `tensor_l2_distance`, `tensor_cosine_similarity`: vector measures
//! along one axis (the last by default) of two operands broadcast by numpy's rules. float16
//! and float32 operands give their own type, summed in float32 (no Float64 detour); float64
//! stays float64; integers and booleans give float64. Planned once per query; a constant
//! operand (a query vector) is read once for every row.

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, AsArray, PrimitiveArray};
use arrow::buffer::NullBuffer;
use arrow::compute::cast;
use arrow::datatypes::{DataType, Field, FieldRef, Float16Type, Float32Type, Float64Type};
use datafusion::common::{ScalarValue, exec_err, plan_err};
use datafusion::error::Result;
use datafusion::logical_expr::{ColumnarValue, DocSection, Documentation};
use half::{f16, slice::HalfFloatSliceExt};

use super::args::integer_option;
use crate::dtype::result_type;
use crate::index::wrap_index;
use crate::kernels::elementwise::broadcast_operands;
use crate::kernels::layout::output_rows;
use crate::kernels::linalg::similarity::{Measure, VectorPlan, measure_rows, without_axis};
use crate::tensor_type::TensorType;
use crate::udf::{Parameters, PlanArgs, TensorFunction, tensor_array};

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
    documentation: Documentation,
}

impl TensorVectorMeasure {
    /// The registered instance of `measure`.
    pub fn new(measure: Measure) -> Self {
        Self {
            measure,
            documentation: documentation(measure),
        }
    }
}

/// A compiled call.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct MeasurePlan {
    /// The result element type (Float16, Float32 or Float64).
    element: DataType,
    vectors: VectorPlan,
    /// Each operand's stored values per row.
    sizes: [usize; 2],
    /// The result type (`None`: one value per row).
    output: Option<TensorType>,
}

impl TensorFunction for TensorVectorMeasure {
    type Plan = MeasurePlan;

    fn name(&self) -> &'static str {
        match self.measure {
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

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        Ok(arg_types.to_vec())
    }

    fn tensor_arguments(&self, _arg_types: &[DataType]) -> Vec<usize> {
        vec![0, 1]
    }

    fn list_column_length(&self, plan: &MeasurePlan, _i: usize) -> Option<usize> {
        Some(plan.vectors.len).filter(|&n| n != 1)
    }

    fn plan(&self, args: &PlanArgs<'_>) -> Result<MeasurePlan> {
        let name = args.name;
        let a = args.tensor(0, "a")?;
        let b = args.tensor(1, "b")?;
        let axis = integer_option(args, 2, "axis", -1)?;
        let common = result_type(&[a.element_type().clone(), b.element_type().clone()], &[])
            .unwrap_or(DataType::Float64);
        let element = match common {
            DataType::Float16 | DataType::Float32 => common,
            _ => DataType::Float64,
        };
        let (a_shape, b_shape) = (a.logical_shape(), b.logical_shape());
        // numpy's ufunc words: the measures multiply or subtract the operands elementwise.
        let target = match broadcast_operands(&[&a_shape, &b_shape]) {
            Ok(target) => target,
            Err(message) => return plan_err!("{name}: {message}"),
        };
        let Some(axis) = wrap_index(axis, target.len()) else {
            return plan_err!(
                "{name}: axis {axis} is out of bounds for array of dimension {}",
                target.len()
            );
        };
        let vectors = VectorPlan::new(
            [
                (&a_shape, &a.logical_strides()),
                (&b_shape, &b.logical_strides()),
            ],
            &target,
            axis,
        );
        let shape = without_axis(&target, axis);
        let output = if shape.is_empty() {
            None
        } else {
            Some(TensorType::new(element.clone(), shape).map_err(|e| e.in_function(name))?)
        };
        Ok(MeasurePlan {
            element,
            vectors,
            sizes: [a.size(), b.size()],
            output,
        })
    }

    fn return_field(&self, plan: &MeasurePlan) -> FieldRef {
        Arc::new(match &plan.output {
            Some(tensor) => tensor.to_field(self.name()),
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
        let mut values = Vec::with_capacity(2);
        let mut row_len = [0usize; 2];
        let mut nulls: Option<NullBuffer> = None;
        for (k, value) in [a, b].into_iter().enumerate() {
            let (array, constant) = match value {
                ColumnarValue::Array(array) => (Arc::clone(array), false),
                ColumnarValue::Scalar(s) => (s.to_array_of_size(1)?, true),
            };
            let list = tensor_array(name, &array)?;
            let operand_nulls = match (constant, list.is_null(0)) {
                (true, true) => Some(NullBuffer::new_null(rows)),
                (true, false) => None,
                (false, _) => list.logical_nulls(),
            };
            nulls = NullBuffer::union(nulls.as_ref(), operand_nulls.as_ref());
            row_len[k] = if constant { 0 } else { plan.sizes[k] };
            values.push(Arc::clone(list.values()));
        }
        let out: ArrayRef = match plan.element {
            DataType::Float64 => {
                let [a, b] = [&values[0], &values[1]].map(|v| cast(v, &DataType::Float64));
                let (a, b) = (a?, b?);
                let mut out = Vec::new();
                measure_rows(
                    self.measure,
                    &plan.vectors,
                    [
                        a.as_primitive::<Float64Type>().values(),
                        b.as_primitive::<Float64Type>().values(),
                    ],
                    row_len,
                    rows,
                    &mut out,
                )
                .or_else(|e| exec_err!("{name}: {e}"))?;
                Arc::new(PrimitiveArray::<Float64Type>::from_iter_values(out))
            }
            _ => {
                let a = as_f32(&values[0])?;
                let b = as_f32(&values[1])?;
                let mut out: Vec<f32> = Vec::new();
                measure_rows(
                    self.measure,
                    &plan.vectors,
                    [&a, &b],
                    row_len,
                    rows,
                    &mut out,
                )
                .or_else(|e| exec_err!("{name}: {e}"))?;
                if plan.element == DataType::Float16 {
                    let mut half = vec![f16::ZERO; out.len()];
                    half.convert_from_f32_slice(&out);
                    Arc::new(PrimitiveArray::<Float16Type>::from_iter_values(half))
                } else {
                    Arc::new(PrimitiveArray::<Float32Type>::from_iter_values(out))
                }
            }
        };
        let out = output_rows(plan.output.as_ref(), out, nulls, rows)?;
        if scalar {
            Ok(ColumnarValue::Scalar(ScalarValue::try_from_array(&out, 0)?))
        } else {
            Ok(ColumnarValue::Array(out))
        }
    }
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
fn documentation(measure: Measure) -> Documentation {
    let (name, what, example, shown) = match measure {
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
    Documentation::builder(
        DocSection {
            include: true,
            label: "Tensor Functions",
            description: None,
        },
        format!(
            "{what} along the last axis (or `axis`) of a and b, broadcast by numpy's rules. float16 and float32 operands keep their type, summed in float32; float64 stays float64; integers and booleans give float64. Sums run in eight partial sums. A NULL row gives a NULL row."
        ),
        format!("{name}(a, b [, axis])"),
    )
    .with_sql_example(format!("```sql\n> SELECT {example};\n{shown}\n```"))
    .with_argument("a", "A tensor or list literal.")
    .with_argument("b", "A tensor or list literal (a query vector broadcasts to every row).")
    .with_argument("axis", "A literal integer (negative from the end); default -1.")
    .build()
}
