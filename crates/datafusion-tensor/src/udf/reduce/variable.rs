//! Reductions of variable-shape tensors: each row reduced in its own logical shape (rows of
//! one shape share one [`ReduceLayout`]). The result is a plain column when every axis is
//! reduced, fixed-shape when every result dimension is known when the query is planned (the
//! input's uniform dimensions, or 1 with `keepdims`), variable-shape otherwise.

use std::sync::Arc;

use arrow::array::ArrayRef;
use datafusion::error::Result;

use super::args::{Options, result_dims};
use super::extras::{self, PlanExtras, XRows};
use super::{
    ReduceFunction, ReduceOp, ReduceOutput, ReducePlan, cast_input, cast_output, plan_op,
    result_element, run_reduction,
};
use crate::error::TensorError;
use crate::kernels::layout;
use crate::kernels::ragged;
use crate::kernels::reduce::cumulative::{Span, Spans, cumulate};
use crate::kernels::reduce::{ReduceLayout, Rows};
use crate::kernels::shape_plans::ShapePlans;
use crate::kernels::sort::sort;
use crate::tensor_type::TensorType;
use crate::udf::variable_array;
use crate::variable_shape::{AnyTensorType, VariableShapeArray, VariableShapeType};

/// Plans a call on a variable-shape tensor: the axes are checked against its `ndim`; a
/// reduction over nothing is found row by row.
pub(super) fn plan(
    function: ReduceFunction,
    name: &str,
    input: VariableShapeType,
    options: &Options,
) -> Result<ReducePlan> {
    let ndim = input.ndim();
    let op = plan_op(function, name, ndim, options)?;
    let element = result_element(&op, input.element_type(), options);
    let names = input.logical_dim_names();
    let uniform = input.logical_uniform_shape();
    let output = match &op {
        ReduceOp::Reduce { reduced, .. } => {
            let dims = result_dims(&uniform, reduced, options.keepdims, Some(&Some(1)));
            let names = names.map(|n| result_dims(&n, reduced, options.keepdims, None));
            if dims.is_empty() {
                ReduceOutput::Scalar(element)
            } else if let Some(shape) = dims.iter().copied().collect::<Option<Vec<usize>>>() {
                ReduceOutput::Fixed(TensorType::new(element, shape)?.with_dim_names(names)?)
            } else {
                ReduceOutput::Variable(
                    VariableShapeType::new(element, dims.len())?
                        .with_dim_names(names)?
                        .with_uniform_shape(Some(dims))?,
                )
            }
        }
        ReduceOp::Cumulate { axis: None, .. } => {
            ReduceOutput::Variable(VariableShapeType::new(element, 1)?)
        }
        ReduceOp::Cumulate {
            axis: Some(axis),
            initial: true,
            ..
        } => {
            // One more element along the axis: its uniform length, where known, grows by one.
            let mut uniform = uniform;
            if let Some(d) = &mut uniform[*axis] {
                *d += 1;
            }
            ReduceOutput::Variable(
                VariableShapeType::new(element, ndim)?
                    .with_dim_names(names)?
                    .with_uniform_shape(Some(uniform))?,
            )
        }
        ReduceOp::Cumulate { .. } | ReduceOp::Sort { .. } => {
            ReduceOutput::Variable(input.row_major_of(element)?)
        }
    };
    Ok(ReducePlan {
        input: AnyTensorType::Variable(input),
        op,
        output,
        extras: PlanExtras::default(),
    })
}

pub(super) fn invoke(
    name: &str,
    plan: &ReducePlan,
    tensor: &VariableShapeType,
    arrays: &[ArrayRef],
) -> Result<ArrayRef> {
    let view = variable_array(name, tensor, &arrays[0])?;
    let aligned = match (&plan.extras.mask, &plan.op) {
        (Some((_, mask)), ReduceOp::Reduce { reduced, .. }) => Some(extras::align(
            name,
            mask,
            &arrays[1],
            &XRows::Variable(&view),
            reduced,
        )?),
        _ => None,
    };
    run(plan, &view, aligned.as_ref()).map_err(|e| e.in_function(name))
}

fn run(
    plan: &ReducePlan,
    view: &VariableShapeArray<'_>,
    aligned: Option<&extras::Aligned>,
) -> crate::error::Result<ArrayRef> {
    let values = ragged::row_major_values(view)?;
    let (values, element) = cast_input(plan, values, view.tensor().element_type())?;
    let element = &element;
    let rows = view.len();
    match &plan.op {
        ReduceOp::Reduce { reduction, reduced } => {
            // The mask's alignment already holds every row's layout: borrowed, not copied.
            let own;
            let (each, layouts, nulls) = match aligned {
                Some(a) => (&a.each[..], &a.layouts[..], a.row_nulls.clone()),
                None => {
                    own = row_layouts(view, reduced)?;
                    (&own.0[..], &own.1[..], view.nulls().cloned())
                }
            };
            let null_width = match &plan.output {
                ReduceOutput::Scalar(_) => 1,
                ReduceOutput::Fixed(tensor) => tensor.size(),
                ReduceOutput::Variable(_) => 0,
            };
            let batch = Rows::Each {
                rows: each,
                layouts,
                null_width,
            };
            let out = run_reduction(plan, *reduction, element, &values, batch, aligned)?;
            match &plan.output {
                ReduceOutput::Scalar(_) => Ok(layout::with_row_nulls(out, nulls.as_ref())?),
                ReduceOutput::Fixed(tensor) => {
                    Ok(Arc::new(layout::tensor_array(tensor, out, nulls, rows)?))
                }
                ReduceOutput::Variable(tensor) => {
                    let ndim = tensor.ndim();
                    let mut lengths = Vec::with_capacity(rows);
                    let mut shapes = Vec::with_capacity(rows * ndim);
                    for (row, index) in each.iter().enumerate() {
                        match index {
                            Some(i) if nulls.as_ref().is_none_or(|n| n.is_valid(row)) => {
                                lengths.push(layouts[*i].out_size);
                                // Every dim kept as it is, or 1 with keepdims (an output of
                                // ndim dims keeps them all).
                                let keep = ndim == reduced.len();
                                for (d, &r) in view.logical_shape(row).zip(reduced) {
                                    if !r {
                                        shapes.push(d as i32);
                                    } else if keep {
                                        shapes.push(1);
                                    }
                                }
                            }
                            _ => {
                                lengths.push(0);
                                shapes.extend(std::iter::repeat_n(0, ndim));
                            }
                        }
                    }
                    Ok(Arc::new(ragged::from_rows(
                        tensor, out, &lengths, shapes, nulls,
                    )?))
                }
            }
        }
        ReduceOp::Cumulate { .. } | ReduceOp::Sort { .. } => {
            let ReduceOutput::Variable(tensor) = &plan.output else {
                return Err(TensorError::Internal(
                    "a cumulative reduction or sort of variable-shape rows is variable-shape"
                        .to_string(),
                ));
            };
            // Each row's lines along `axis` (NULL rows hold none).
            let spans_of = |axis: Option<usize>| -> Vec<Option<Span>> {
                (0..rows)
                    .map(|row| (!view.is_null(row)).then(|| span_of(view.logical_shape(row), axis)))
                    .collect()
            };
            let out = match &plan.op {
                ReduceOp::Sort { op, axis } => {
                    sort(*op, element, &values, Spans::Each(&spans_of(Some(*axis))))?
                }
                ReduceOp::Cumulate {
                    product,
                    axis,
                    initial,
                } => cast_output(
                    plan,
                    cumulate(
                        *product,
                        element,
                        &values,
                        Spans::Each(&spans_of(*axis)),
                        *initial,
                    )?,
                )?,
                ReduceOp::Reduce { .. } => {
                    return Err(TensorError::Internal(
                        "a reduction is not a cumulative reduction or sort".to_string(),
                    ));
                }
            };
            let (lengths, shapes) = line_shapes(&plan.op, view, tensor.ndim());
            Ok(Arc::new(ragged::from_rows(
                tensor,
                out,
                &lengths,
                shapes,
                view.nulls().cloned(),
            )?))
        }
    }
}

/// Each row's index into the layouts of its shape's reduction (`None`: a NULL row).
fn row_layouts(
    view: &VariableShapeArray<'_>,
    reduced: &[bool],
) -> crate::error::Result<(Vec<Option<usize>>, Vec<ReduceLayout>)> {
    let mut plans: ShapePlans<usize> = ShapePlans::default();
    let mut layouts: Vec<ReduceLayout> = Vec::new();
    let mut each = Vec::with_capacity(view.len());
    for row in 0..view.len() {
        if view.is_null(row) {
            each.push(None);
            continue;
        }
        let index = *plans.get(view.logical_shape(row), |shape| {
            layouts.push(ReduceLayout::new(shape, reduced));
            Ok(layouts.len() - 1)
        })?;
        each.push(Some(index));
    }
    Ok((each, layouts))
}

/// Each row's length and shape after a cumulative reduction or sort `op` of `view`'s rows:
/// its own, flattened without an axis, one longer along the axis with `include_initial`.
fn line_shapes(
    op: &ReduceOp,
    view: &VariableShapeArray<'_>,
    ndim: usize,
) -> (Vec<usize>, Vec<i32>) {
    let rows = view.len();
    // A cumulative reduction without an axis gives each row flattened; with
    // include_initial, one more element along the axis.
    let (flattened, grown, extra) = match *op {
        ReduceOp::Cumulate { axis, initial, .. } => (
            axis.is_none(),
            axis.filter(|_| initial),
            usize::from(initial),
        ),
        _ => (false, None, 0),
    };
    let mut lengths = Vec::with_capacity(rows);
    let mut shapes = Vec::with_capacity(rows * ndim);
    for row in 0..rows {
        if view.is_null(row) {
            lengths.push(0);
            shapes.extend(std::iter::repeat_n(0, ndim));
            continue;
        }
        let grow = |a: usize, d: usize| d + usize::from(grown == Some(a));
        let size: usize = if flattened {
            view.logical_shape(row).product::<usize>() + extra
        } else {
            view.logical_shape(row)
                .enumerate()
                .map(|(a, d)| grow(a, d))
                .product()
        };
        lengths.push(size);
        if flattened {
            shapes.push(size as i32);
        } else {
            shapes.extend(
                view.logical_shape(row)
                    .enumerate()
                    .map(|(a, d)| grow(a, d) as i32),
            );
        }
    }
    (lengths, shapes)
}

/// The span of a row of logical shape `shape` around `axis` (`None`: the flattened row).
fn span_of(shape: impl Iterator<Item = usize>, axis: Option<usize>) -> Span {
    let (mut outer, mut n, mut inner) = (1, 1, 1);
    for (i, d) in shape.enumerate() {
        match axis {
            None => n *= d,
            Some(a) if i < a => outer *= d,
            Some(a) if i == a => n = d,
            Some(_) => inner *= d,
        }
    }
    Span { outer, n, inner }
}
