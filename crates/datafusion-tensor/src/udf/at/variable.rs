//! `tensor_at_*` on a variable-shape `x` (`arrow.variable_shape_tensor`). Each row is a tensor
//! of its own shape, so the call is planned as on a fixed-shape tensor once per distinct row
//! shape (of `x`, and of `y` when it is variable-shape too) as rows arrive; the rows of one
//! shape run together through that plan, as one fixed-shape batch, and their results are put
//! back in row order. Every mode, index kind and `y` kind is then the fixed-shape call's.
//!
//! What does not depend on a row's shape (the options, the index's and `y`'s kinds, the
//! types, the result's type) is planned once, with a stand-in length for the dimensions that
//! differ between rows (`tensor_get`'s [`plan_with_probes`]).

use std::cell::Cell;
use std::sync::Arc;

use arrow::array::{Array, ArrayRef, AsArray, UInt32Array};
use arrow::buffer::NullBuffer;
use arrow::compute::take;
use arrow::datatypes::{DataType, Field, FieldRef};
use datafusion::common::{ScalarValue, exec_datafusion_err, internal_err, plan_datafusion_err};
use datafusion::error::{DataFusionError, Result};
use datafusion::logical_expr::ColumnarValue;

use super::super::get::plan_with_probes;
use super::super::{PlanArgs, tensor_of, variable_array, variable_of};
use super::options::{ApplyFn, AtOp, Mode, read_options};
use super::plan::{AtPlan, ValuesPlan, plan_at, static_index};
use super::{map_call, run_batch_in_row_order};
use crate::error::TensorError;
use crate::index::IndexItem;
use crate::kernels::layout;
use crate::kernels::ragged::{self, GroupRows};
use crate::kernels::shape_plans::ShapePlans;
use crate::kernels::update::Lambda;
use crate::tensor_type::TensorType;
use crate::variable_shape::{VariableShapeArray, VariableShapeType};

/// A compiled `tensor_at_*` call on a variable-shape tensor.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct VariableAtPlan {
    op: AtOp,
    x: VariableShapeType,
    /// `y` when it is a variable-shape tensor.
    y: Option<VariableShapeType>,
    apply: Option<ApplyFn>,
    /// The call's argument fields and literals, planned again with a row shape's `x` (and
    /// `y`) in place of the variable-shape ones.
    fields: Vec<FieldRef>,
    scalars: Vec<Option<ScalarValue>>,
    /// The session's limits, which each row shape's call is planned under.
    limits: crate::limits::Limits,
    /// The call planned for a stand-in row shape: the index's and `y`'s kinds.
    probe: AtPlan,
    /// The result type.
    pub output: VariableAtOutput,
}

impl VariableAtPlan {
    /// The type `x` is read as.
    pub fn x(&self) -> &VariableShapeType {
        &self.x
    }

    /// The SQL name of the function.
    pub fn function_name(&self) -> &'static str {
        self.op.function_name()
    }

    /// The element type of the result.
    pub fn output_element(&self) -> &DataType {
        &self.probe.output_element
    }
}

/// The result type of a `tensor_at_*` call on a variable-shape tensor.
#[derive(Debug, PartialEq, Eq, Hash)]
pub enum VariableAtOutput {
    /// Every row's result has one shape, known when the query is planned: a tensor, or
    /// `None` for a 0-d get (plain values of this element type).
    Fixed(Option<TensorType>, DataType),
    /// Rows' results differ in shape.
    Variable(VariableShapeType),
}

impl VariableAtOutput {
    /// The result field.
    pub fn to_field(&self, name: &str) -> FieldRef {
        Arc::new(match self {
            Self::Fixed(Some(tensor), _) => tensor.to_field(name),
            Self::Fixed(None, element) => Field::new(name, element.clone(), true),
            Self::Variable(tensor) => tensor.to_field(name),
        })
    }
}

/// Compiles a `tensor_at_*` call on a variable-shape `x` (`apply` given by the caller, which
/// knows lambdas). What is wrong for every row (an option, a type, an index that asks more
/// dimensions than `x` has or is out of bounds of a dimension every row shares) is the
/// query's error; what is wrong for the shape of some rows, the row's.
pub fn plan_at_variable(
    args: &PlanArgs<'_>,
    op: AtOp,
    apply: Option<ApplyFn>,
    x: VariableShapeType,
) -> Result<VariableAtPlan> {
    let name = op.function_name();
    let y = if op.has_y() {
        variable_of(&args.fields[2])?
    } else {
        None
    };
    let uniform = x.physical_uniform_shape();
    let every_dim_uniform = uniform.iter().all(Option::is_some);
    let fields = args.fields.to_vec();
    let scalars: Vec<Option<ScalarValue>> = args.scalars.iter().map(|s| s.cloned()).collect();
    // y broadcasts into x[idx], whose shape a stand-in x says nothing of: y stands in as one
    // value per row of its element type, its shape checked per row shape.
    let mut probe_fields = fields.clone();
    let mut probe_scalars = scalars.clone();
    let y_element = match &y {
        Some(y) => Some(y.element_type().clone()),
        None if op.has_y() && !every_dim_uniform => {
            tensor_of(&fields[2])?.map(|t| t.element_type().clone())
        }
        None => None,
    };
    if let Some(element) = y_element {
        probe_fields[2] = Arc::new(Field::new(fields[2].name(), element, true));
        probe_scalars[2] = None;
    }
    let probe_scalars: Vec<Option<&ScalarValue>> =
        probe_scalars.iter().map(Option::as_ref).collect();
    let plan_probe = |length: usize| {
        let physical: Vec<usize> = uniform.iter().map(|d| d.unwrap_or(length)).collect();
        let row = x.row_type(&physical).map_err(|e| e.in_function(name))?;
        let mut probe_fields = probe_fields.clone();
        probe_fields[0] = Arc::new(row.to_field(fields[0].name()));
        let args = PlanArgs {
            name,
            fields: &probe_fields,
            scalars: &probe_scalars,
            limits: args.limits,
        };
        plan_at(&args, op, apply)
    };
    // An index column's values are only read when rows arrive: any stand-in length plans it.
    // A literal index that raises needs one past its integers; one that drops, clips or fills
    // has x[idx]'s shape whatever the stand-in (a dropped integer still removes its axis), so
    // a short one keeps the stand-in tensor small.
    let raises = read_options(args, op)?.mode == Mode::Raise;
    let probe = match static_index(args, op)? {
        Some(index) => plan_with_probes(&index, raises, &plan_probe).map_err(|e| {
            let e = e.unwrap_or_else(|| {
                DataFusionError::Internal(format!("{name}: no stand-in shape planned"))
            });
            // No one stand-in length fits every boolean mask over the dimensions that differ
            // between rows: the mismatch is the stand-in's, not a row's (tensor_get's words).
            let masks = index
                .items
                .iter()
                .any(|item| matches!(item, IndexItem::BoolArray(a) if !a.shape.is_empty()));
            if masks
                && uniform.contains(&None)
                && e.to_string().contains("boolean index did not match")
            {
                return plan_datafusion_err!(
                    "{name}: the index '{index}' cannot be planned for {x}: no one length of the dimensions that differ between rows fits every boolean mask over them"
                );
            }
            e
        })?,
        None => plan_probe(2)?,
    };
    let output = output_type(&x, op, &probe)?;
    Ok(VariableAtPlan {
        op,
        x,
        y,
        apply,
        limits: args.limits,
        fields,
        scalars,
        probe,
        output,
    })
}

/// The result type: `x[idx]`'s for a get, `x`'s otherwise; fixed-shape when every dimension
/// of it is known when the query is planned (an index's own, or one every row shares).
fn output_type(x: &VariableShapeType, op: AtOp, probe: &AtPlan) -> Result<VariableAtOutput> {
    let element = probe.output_element.clone();
    let Some(tensor) = &probe.output else {
        return Ok(VariableAtOutput::Fixed(None, element));
    };
    let uniform = x.logical_uniform_shape();
    let axes: Vec<Option<usize>> = if op == AtOp::Get {
        probe.selected_axes.clone()
    } else {
        (0..x.ndim()).map(Some).collect()
    };
    let known: Vec<Option<usize>> = tensor
        .logical_shape()
        .into_iter()
        .zip(&axes)
        .map(|(len, axis)| match axis {
            Some(a) if uniform[*a].is_none() => None,
            _ => Some(len),
        })
        .collect();
    if known.iter().all(Option::is_some) {
        return Ok(VariableAtOutput::Fixed(Some(tensor.clone()), element));
    }
    Ok(VariableAtOutput::Variable(
        VariableShapeType::new(element, known.len())?
            .with_dim_names(tensor.logical_dim_names())?
            .with_uniform_shape(Some(known))?,
    ))
}

/// Runs a planned call on a variable-shape tensor over one batch: `args` are x, then idx,
/// then y (or fn). `lambda` evaluates a `tensor_at_apply` lambda.
pub fn invoke_variable(
    plan: &VariableAtPlan,
    args: &[ColumnarValue],
    number_rows: usize,
    lambda: Option<&Lambda<'_>>,
) -> Result<ColumnarValue> {
    let name = plan.op.function_name();
    let output = plan.output.to_field(name);
    map_call(
        &plan.probe,
        output.data_type(),
        args,
        number_rows,
        |x, idx, y| {
            let x = variable_array(name, &plan.x, x)?;
            let y_view = match (&plan.y, y) {
                (Some(tensor), Some(y)) => Some(variable_array(name, tensor, y)?),
                _ => None,
            };
            let batch = Batch {
                x: &x,
                idx,
                y,
                y_view: y_view.as_ref(),
            };
            run_variable(plan, &batch, lambda)
        },
    )
}

/// One batch of a call's arguments.
struct Batch<'a> {
    x: &'a VariableShapeArray<'a>,
    idx: Option<&'a ArrayRef>,
    y: Option<&'a ArrayRef>,
    /// `y` read as variable-shape tensors.
    y_view: Option<&'a VariableShapeArray<'a>>,
}

fn run_variable(
    plan: &VariableAtPlan,
    batch: &Batch<'_>,
    lambda: Option<&Lambda<'_>>,
) -> Result<ArrayRef> {
    let name = plan.op.function_name();
    let x = batch.x;
    let rows = x.len();
    // A row NULL in any argument has a NULL result, and is planned for no shape.
    let mut nulls = x.nulls().cloned();
    for array in [batch.idx, batch.y].into_iter().flatten() {
        nulls = NullBuffer::union(nulls.as_ref(), array.logical_nulls().as_ref());
    }
    if let Some(y) = batch.y_view {
        nulls = NullBuffer::union(nulls.as_ref(), y.nulls());
    }
    // The rows of each distinct shape, and the call planned for it (or why it cannot be,
    // naming the shape's first row).
    let mut shapes: ShapePlans<usize> = ShapePlans::default();
    let mut plans: Vec<Result<AtPlan>> = Vec::new();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for row in 0..rows {
        if nulls.as_ref().is_some_and(|n| n.is_null(row)) {
            continue;
        }
        let y_shape = batch.y_view.map(|y| y.physical_shape(row));
        let key = x.physical_shape(row).chain(y_shape.into_iter().flatten());
        let g = *shapes.get(key, |key| {
            plans.push(plan_rows(plan, key).map_err(|e| row_error(name, e, row)));
            groups.push(Vec::new());
            Ok(groups.len() - 1)
        })?;
        groups[g].push(row);
    }
    // Groups run in the order of their first rows; the error reported is the one of the
    // first row that fails, as a row-by-row run would report it.
    let mut results = Vec::with_capacity(groups.len());
    let mut failed: Option<(usize, DataFusionError)> = None;
    for (group_plan, group) in plans.into_iter().zip(&groups) {
        if failed.as_ref().is_some_and(|(row, _)| *row < group[0]) {
            break;
        }
        let outcome = match group_plan {
            Ok(group_plan) => run_group(&group_plan, group, batch, lambda),
            Err(e) => Err((group[0], e)),
        };
        match outcome {
            Ok(result) => results.push(result),
            Err((row, e)) => {
                if failed.as_ref().is_none_or(|(first, _)| row < *first) {
                    failed = Some((row, e));
                }
            }
        }
    }
    if let Some((_, e)) = failed {
        return Err(e);
    }
    let (pad, ndim) = match &plan.output {
        VariableAtOutput::Fixed(tensor, _) => (
            Some(tensor.as_ref().map_or(1, TensorType::size)),
            tensor.as_ref().map_or(0, TensorType::ndim),
        ),
        VariableAtOutput::Variable(tensor) => (None, tensor.ndim()),
    };
    let element = &plan.probe.output_element;
    let (out, nulls) = ragged::merge_groups(&results, rows, ndim, pad, element)
        .map_err(|e| e.in_function(name))?;
    Ok(match &plan.output {
        VariableAtOutput::Fixed(tensor, _) => {
            layout::output_rows(tensor.as_ref(), out.values, nulls, rows)?
        }
        VariableAtOutput::Variable(tensor) => Arc::new(ragged::from_rows(
            tensor,
            out.values,
            &out.lengths,
            out.shapes,
            nulls,
        )?),
    })
}

/// The call planned for rows of physical shape `key` (`x`'s, then `y`'s when variable-shape).
fn plan_rows(plan: &VariableAtPlan, key: &[usize]) -> Result<AtPlan> {
    let name = plan.op.function_name();
    let (x_shape, y_shape) = key.split_at(plan.x.ndim());
    let mut fields = plan.fields.clone();
    let x = plan.x.row_type(x_shape).map_err(|e| e.in_function(name))?;
    fields[0] = Arc::new(x.to_field(fields[0].name()));
    if let Some(y) = &plan.y {
        let y = y.row_type(y_shape).map_err(|e| e.in_function(name))?;
        fields[2] = Arc::new(y.to_field(fields[2].name()));
    }
    let scalars: Vec<Option<&ScalarValue>> = plan.scalars.iter().map(Option::as_ref).collect();
    let args = PlanArgs {
        name,
        fields: &fields,
        scalars: &scalars,
        limits: plan.limits,
    };
    plan_at(&args, plan.op, plan.apply)
}

/// What is wrong with the call for one row's shape (a plan error of the fixed-shape call) as
/// the execution error naming the row.
fn row_error(name: &str, err: DataFusionError, row: usize) -> DataFusionError {
    match err {
        DataFusionError::Plan(message) => {
            let message = message
                .strip_prefix(name)
                .and_then(|m| m.strip_prefix(": "))
                .unwrap_or(&message);
            exec_datafusion_err!("{name}: {message} at row {row} of its batch")
        }
        other => other,
    }
}

/// Runs the rows `rows` (all of one shape) through their plan as one fixed-shape batch; an
/// error comes with the batch row it names (the group's first when it names none).
fn run_group<'a>(
    plan: &AtPlan,
    rows: &'a [usize],
    batch: &Batch<'_>,
    lambda: Option<&Lambda<'_>>,
) -> Result<GroupRows<'a>, (usize, DataFusionError)> {
    let name = plan.op.function_name();
    let failed_row = Cell::new(None);
    let name_error = |e: TensorError| {
        let e = e.in_rows(rows);
        failed_row.set(e.row());
        e.in_function(name)
    };
    let run = || -> Result<GroupRows<'a>> {
        let x: ArrayRef = Arc::new(
            ragged::rows_to_fixed(batch.x, rows, &plan.x).map_err(|e| e.in_function(name))?,
        );
        let selected = UInt32Array::from_iter_values(rows.iter().map(|&r| r as u32));
        let idx = batch
            .idx
            .map(|idx| take(idx, &selected, None))
            .transpose()?;
        let y = match (batch.y_view, &plan.values, batch.y) {
            (Some(view), ValuesPlan::Tensor(tensor), _) => Some(Arc::new(
                ragged::rows_to_fixed(view, rows, tensor).map_err(|e| e.in_function(name))?,
            ) as ArrayRef),
            (_, _, Some(y)) => Some(take(y, &selected, None)?),
            _ => None,
        };
        // A lambda's captured columns are the batch's: its rows are named in the batch.
        let in_batch = |values: ArrayRef, group_rows: &[usize]| {
            let batch_rows: Vec<usize> = group_rows.iter().map(|&r| rows[r]).collect();
            match lambda {
                Some(lambda) => lambda(values, &batch_rows),
                None => Err(TensorError::Internal("lambda missing".to_string())),
            }
        };
        let lambda = lambda.map(|_| &in_batch as &Lambda<'_>);
        let out = run_batch_in_row_order(plan, &x, idx.as_ref(), y.as_ref(), lambda, &name_error)?;
        let (values, shape) = match (&plan.output, out.as_fixed_size_list_opt()) {
            (Some(tensor), Some(list)) => (Arc::clone(list.values()), tensor.logical_shape()),
            (None, _) => (Arc::clone(&out), Vec::new()),
            (Some(_), None) => {
                return internal_err!("{name}: a tensor result that is not a FixedSizeList");
            }
        };
        Ok(GroupRows {
            rows,
            values,
            shape,
            nulls: out.logical_nulls(),
        })
    };
    run().map_err(|e| (failed_row.get().unwrap_or(rows[0]), e))
}
