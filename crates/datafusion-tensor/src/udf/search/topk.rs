//! `tensor_topk(x, k [, axis [, largest]])`: the `k` largest (`largest => false`: smallest)
//! elements along `axis` (default -1) and their indices, as `torch.topk(x, k, dim=axis,
//! largest=largest, sorted=True)` returns them: a struct `{values, indices}` of two tensors of
//! `x`'s shape with the axis `k` long. The order is `tensor_sort`'s (`descending => largest`):
//! NaN counts as the largest, equal elements keep their order (the lower index first, as
//! `jax.lax.top_k` breaks ties), an element NULL counts as larger than NaN.

use std::sync::Arc;

use arrow::array::ArrayRef;
use arrow::datatypes::{DataType, Fields};
use datafusion::common::plan_err;
use datafusion::error::Result;

use super::{Logical, flag, struct_array};
use crate::error::TensorError;
use crate::kernels::layout;
use crate::kernels::ragged;
use crate::kernels::reduce::cumulative::{Span, Spans};
use crate::kernels::search::topk::top_k;
use crate::udf::PlanArgs;
use crate::udf::rows::{known_shape, output_of_known};
use crate::udf::shape::{integer, is_omitted, normalize_axis};
use crate::variable_shape::{AnyTensorType, VariableShapeType};

/// A compiled `tensor_topk`.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct TopKPlan {
    input: AnyTensorType,
    k: usize,
    axis: usize,
    largest: bool,
    values: AnyTensorType,
    indices: AnyTensorType,
}

impl TopKPlan {
    pub(super) fn fields(&self) -> Fields {
        Fields::from(vec![
            Arc::new(self.values.to_field("values")),
            Arc::new(self.indices.to_field("indices")),
        ])
    }
}

/// The message when a line is shorter than `k` (`jax.lax.top_k`'s).
fn too_short(k: usize, n: usize) -> String {
    format!("k argument to top_k must be no larger than the length of the axis; {k} vs {n}")
}

pub(super) fn plan(args: &PlanArgs<'_>) -> Result<TopKPlan> {
    let name = args.name;
    let input = args.any_tensor(0, "x")?;
    let ndim = input.ndim();
    if ndim == 0 {
        return plan_err!("{name}: top_k needs at least one dimension; x is 0-d");
    }
    if is_omitted(args, 1) {
        return plan_err!("{name}: argument k must be a literal integer, not NULL");
    }
    let k = integer(args, 1, "k", 0)?;
    let Ok(k) = usize::try_from(k) else {
        return plan_err!("{name}: k argument to top_k must be nonnegative, got {k}");
    };
    let axis = normalize_axis(name, integer(args, 2, "axis", -1)?, ndim)?;
    let largest = flag(args, 3, "largest", true)?;
    let mut known = known_shape(&input);
    if let Some(n) = known[axis]
        && n < k
    {
        return plan_err!("{name}: {}", too_short(k, n));
    }
    known[axis] = Some(k);
    let names = match &input {
        AnyTensorType::Fixed(t) => t.logical_dim_names(),
        AnyTensorType::Variable(t) => t.logical_dim_names(),
    };
    let values = same_kind(&input, input.element_type(), &known, names.clone())?;
    let indices = same_kind(&input, &DataType::Int64, &known, names)?;
    Ok(TopKPlan {
        input,
        k,
        axis,
        largest,
        values,
        indices,
    })
}

/// A result of `input`'s kind (a variable-shape input's rows are laid out one by one, NULL
/// rows holding none) with dimensions `known`.
pub(super) fn same_kind(
    input: &AnyTensorType,
    element: &DataType,
    known: &[Option<usize>],
    names: Option<Vec<String>>,
) -> Result<AnyTensorType> {
    Ok(match input {
        AnyTensorType::Fixed(_) => output_of_known(element, known, names)?,
        AnyTensorType::Variable(_) => AnyTensorType::Variable(
            VariableShapeType::new(element.clone(), known.len())?
                .with_dim_names(names)?
                .with_uniform_shape(Some(known.to_vec()))?,
        ),
    })
}

pub(super) fn invoke(name: &str, plan: &TopKPlan, array: &ArrayRef) -> Result<ArrayRef> {
    let in_function = |e: TensorError| e.in_function(name);
    let batch = Logical::read(name, &plan.input, array)?;
    let rows = batch.len();
    let element = plan.input.element_type();
    let spans: Vec<Option<Span>>;
    let spans = if batch.same {
        Spans::Same(rows, Span::new(&batch.shapes, Some(plan.axis)))
    } else {
        spans = (0..rows)
            .map(|row| {
                let shape = batch.shape(row);
                match batch.starts[row] {
                    Some(_) if shape[plan.axis] < plan.k => {
                        Err(in_function(TensorError::Data(format!(
                            "{} at row {row} of its batch",
                            too_short(plan.k, shape[plan.axis])
                        ))))
                    }
                    Some(_) => Ok(Some(Span::new(shape, Some(plan.axis)))),
                    None => Ok(None),
                }
            })
            .collect::<Result<_>>()?;
        Spans::Each(&spans)
    };
    let (values, indices) =
        top_k(element, &batch.values, spans, plan.k, plan.largest).map_err(in_function)?;
    let nulls = batch.nulls.clone();
    let columns: Vec<ArrayRef> = match (&plan.values, &plan.indices) {
        (AnyTensorType::Fixed(v), AnyTensorType::Fixed(i)) => vec![
            Arc::new(layout::tensor_array(v, values, nulls.clone(), rows)?),
            Arc::new(layout::tensor_array(i, indices, nulls.clone(), rows)?),
        ],
        (AnyTensorType::Variable(v), AnyTensorType::Variable(i)) => {
            let ndim = batch.ndim;
            let mut lengths = Vec::with_capacity(rows);
            let mut shapes = Vec::with_capacity(rows * ndim);
            for row in 0..rows {
                let shape = batch.shape(row);
                if batch.starts[row].is_none() {
                    lengths.push(0);
                    shapes.extend(std::iter::repeat_n(0, ndim));
                    continue;
                }
                let out = |d: usize| if d == plan.axis { plan.k } else { shape[d] };
                lengths.push((0..ndim).map(out).product());
                shapes.extend((0..ndim).map(|d| i32::try_from(out(d)).unwrap_or(i32::MAX)));
            }
            vec![
                Arc::new(
                    ragged::from_rows(v, values, &lengths, shapes.clone(), nulls.clone())
                        .map_err(in_function)?,
                ),
                Arc::new(
                    ragged::from_rows(i, indices, &lengths, shapes, nulls.clone())
                        .map_err(in_function)?,
                ),
            ]
        }
        _ => {
            return datafusion::common::internal_err!(
                "{name}: values and indices planned with different kinds of shape"
            );
        }
    };
    struct_array(plan.fields(), columns, nulls)
}
