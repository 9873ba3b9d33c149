//! `tensor_get(t, 'index')` and `tensor_get(t, i, j, ...)`: numpy indexing (spec.md §4).
//!
//! Static form: the index string is parsed and normalised against the tensor's logical shape
//! when the query is planned, and compiled into a [`GatherPlan`] applied to every row.
//! Dynamic form: integer columns index the leading axes row by row (bounds-checked, naming the
//! row); the remaining sub-tensor is copied with the plan of a full slice.
//!
//! On a variable-shape tensor (static form only), the index is normalised against each
//! distinct row shape as rows arrive, one gather per shape; the result is fixed-shape when
//! every row's result shape is known when the query is planned.

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, AsArray, FixedSizeListArray};
use arrow::buffer::NullBuffer;
use arrow::datatypes::{DataType, Field, FieldRef};
use datafusion::common::{plan_datafusion_err, plan_err};
use datafusion::error::Result;
use datafusion::logical_expr::ColumnarValue;
use datafusion_macros::user_doc;

use super::{PlanArgs, TensorFunction, tensor_array, variable_array};
use crate::index::{
    GatherPlan, IndexExpr, IndexItem, Selection, normalize, parse_index, too_many_indices,
};
use crate::kernels::gather::{gather_at_indices, gather_values};
use crate::kernels::{layout, ragged};
use crate::limits::Limits;
use crate::tensor_type::TensorType;
use crate::variable_shape::{AnyTensorType, VariableShapeArray, VariableShapeType};

/// `tensor_get`.
#[user_doc(
    doc_section(label = "Tensor Functions"),
    description = "numpy indexing and slicing, as copies (MegEngine semantics). With an index string, numpy's full grammar: integers (negative from the end) remove an axis, slices start:stop:step keep it (Python clamping, negative steps), `...`, None/newaxis, integer lists (advanced indices, nested for multi-dimensional) and boolean lists (masks), in any mix; parsed once when the query is planned. With integer columns instead, they index the leading axes row by row. A result with no axes left is a plain value. On a variable-shape tensor (arrow.variable_shape_tensor) the index applies to each row's own shape; the result is fixed-shape when every row's result shape is known when the query is planned, else variable-shape.",
    syntax_example = "tensor_get(t, index) | tensor_get(t, i [, j, ...])",
    sql_example = r"```sql
> SELECT tensor_get(tensor(range(16), [4, 4]), '1:3, ::2') AS r;
+-------------------+
| r                 |
+-------------------+
| [[4, 6], [8, 10]] |
+-------------------+
```",
    argument(
        name = "t",
        description = "A tensor (arrow.fixed_shape_tensor, arrow.variable_shape_tensor or FixedSizeList) expression."
    ),
    argument(
        name = "index",
        description = "A literal index string in numpy syntax, e.g. '1:3, ..., ::2', '[0, 2], None', '[True, False, True]'; or one or more integer expressions for the leading axes."
    )
)]
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct TensorGet {}

registered_function!(TensorGet);

/// A compiled `tensor_get` call.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct GetPlan {
    input: TensorType,
    /// The parsed index (static form), for display.
    index: Option<IndexExpr>,
    /// Number of integer index columns (dynamic form).
    dynamic: usize,
    gather: GatherPlan,
    /// The result type: a tensor, or `None` for a 0-d result (a plain value).
    output: Option<TensorType>,
}

/// The output tensor type of a selection: dim names survive when every output dimension is one
/// input dimension.
fn output_type(input: &TensorType, selection: &Selection) -> Result<Option<TensorType>> {
    if selection.shape.is_empty() {
        return Ok(None);
    }
    Ok(Some(input.selection(
        input.element_type().clone(),
        selection.shape.clone(),
        &selection.source_axes,
    )?))
}

/// A compiled `tensor_get` call on either kind of tensor.
#[derive(Debug, PartialEq, Eq, Hash)]
pub enum GetCall {
    /// On a fixed-shape tensor: one gather for every row.
    Fixed(GetPlan),
    /// On a variable-shape tensor: one gather per distinct row shape, compiled as rows arrive.
    Variable(VariableGetPlan),
}

/// A compiled `tensor_get` call on a variable-shape tensor (static index only).
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct VariableGetPlan {
    input: VariableShapeType,
    /// The parsed index (static form); `None`: integer columns for the leading axes.
    index: Option<IndexExpr>,
    /// Number of integer index columns (dynamic form).
    dynamic: usize,
    output: VariableGetOutput,
    /// The session's limits, which each row's selection is checked against.
    limits: Limits,
}

/// The result type of `tensor_get` on a variable-shape tensor.
#[derive(Debug, PartialEq, Eq, Hash)]
enum VariableGetOutput {
    /// Every row's result has this shape, known when the query is planned (`None`: 0-d, a
    /// plain value).
    Fixed(Option<TensorType>),
    /// Rows' results differ in shape.
    Variable(VariableShapeType),
}

/// A stand-in length for the dimensions that differ between rows when an index is planned:
/// past every integer the index holds, so that only a row's own length can put one out of
/// bounds.
fn probe_length(index: &IndexExpr) -> usize {
    let largest = index
        .items
        .iter()
        .flat_map(|item| match item {
            IndexItem::Int(v) => vec![*v],
            IndexItem::IntArray(array) => array.values.clone(),
            _ => Vec::new(),
        })
        .map(i64::unsigned_abs)
        .max()
        .unwrap_or(0);
    usize::try_from(largest).unwrap_or(usize::MAX - 1).max(1) + 1
}

/// `plan` with each stand-in length for the dimensions that differ between rows, in the order
/// of [`probe_lengths`]: the first plan made, or the first error (`None`: no length tried).
/// `raises`: an integer out of bounds is an error (numpy's rule), so the stand-in is longer
/// than every integer of the index, else any length does.
pub(crate) fn plan_with_probes<T, E>(
    index: &IndexExpr,
    raises: bool,
    mut plan: impl FnMut(usize) -> Result<T, E>,
) -> Result<T, Option<E>> {
    let mut first_error = None;
    let least = if raises { probe_length(index) } else { 2 };
    for probe in probe_lengths(index, least) {
        match plan(probe) {
            Ok(planned) => return Ok(planned),
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    Err(first_error)
}

/// The stand-in lengths to plan `index` with for the dimensions that differ between rows, in
/// order: `probe`, then each boolean mask's length past it, then the masks' shorter lengths (a
/// mask over such a dimension fits the rows of its length; a length short of an integer of
/// the index fails to plan where that integer raises, and is then not the one taken).
fn probe_lengths(index: &IndexExpr, probe: usize) -> Vec<usize> {
    let mask_lengths: Vec<usize> = index
        .items
        .iter()
        .flat_map(|item| match item {
            IndexItem::BoolArray(mask) => mask.shape.clone(),
            _ => Vec::new(),
        })
        .collect();
    let mut candidates: Vec<usize> = std::iter::once(probe)
        .chain(mask_lengths.iter().copied().filter(|&len| len >= probe))
        .chain(mask_lengths.iter().copied().filter(|&len| len < probe))
        .collect();
    let mut seen = std::collections::HashSet::new();
    candidates.retain(|len| seen.insert(*len));
    candidates
}

/// Plans a static index on a variable-shape tensor: normalised against its logical shape with
/// the dimensions that differ between rows given a stand-in length, which says the result's
/// number of dimensions and which of them are known (from an index array, a new axis, or a
/// slice of a uniform dimension). Bounds are checked per row shape when rows arrive.
fn plan_variable(input: VariableShapeType, args: &PlanArgs<'_>) -> Result<VariableGetPlan> {
    if !(args.fields.len() == 2 && args.fields[1].data_type().is_string()) {
        return plan_variable_dynamic(input, args);
    }
    let Some(text) = args.literal(1).and_then(|v| v.try_as_str().flatten()) else {
        return plan_err!("tensor_get: argument index must be a literal string such as '1:3, ::2'");
    };
    let index = parse_index(text).map_err(|e| plan_datafusion_err!("tensor_get: {e}"))?;
    let uniform = input.logical_uniform_shape();
    let planned = plan_with_probes(&index, true, |probe| {
        let shape: Vec<usize> = uniform.iter().map(|d| d.unwrap_or(probe)).collect();
        // Only the shape is needed here, not offsets: strides of zero cannot overflow.
        normalize(&index, &shape, &vec![0; shape.len()], &args.limits)
    });
    let selection = match planned {
        Ok(selection) => selection,
        Err(first_error) => {
            let masks = index
                .items
                .iter()
                .any(|item| matches!(item, IndexItem::BoolArray(a) if !a.shape.is_empty()));
            if masks && uniform.contains(&None) {
                return plan_err!(
                    "tensor_get: the index '{text}' cannot be planned for {input}: no one length of the dimensions that differ between rows fits every boolean mask over them"
                );
            }
            let e = first_error.map_or_else(String::new, |e| e.to_string());
            return plan_err!("tensor_get: {e}");
        }
    };
    let names = input.logical_dim_names().and_then(|names| {
        selection
            .source_axes
            .iter()
            .map(|axis| axis.map(|a| names[a].clone()))
            .collect::<Option<Vec<_>>>()
    });
    let known: Vec<Option<usize>> = selection
        .shape
        .iter()
        .zip(&selection.source_axes)
        .map(|(&len, axis)| match axis {
            Some(a) if uniform[*a].is_none() => None,
            _ => Some(len),
        })
        .collect();
    Ok(VariableGetPlan {
        output: variable_output(&input, known, names)?,
        input,
        index: Some(index),
        dynamic: 0,
        limits: args.limits,
    })
}

/// Plans integer columns indexing the leading axes of a variable-shape tensor: the result is
/// each row's sub-tensor there, its dims the input's that follow (known where uniform).
fn plan_variable_dynamic(input: VariableShapeType, args: &PlanArgs<'_>) -> Result<VariableGetPlan> {
    let dynamic = args.fields.len() - 1;
    check_index_columns(&args.fields[1..])?;
    if dynamic > input.ndim() {
        return Err(too_many_indices(input.ndim(), dynamic).in_function("tensor_get"));
    }
    let known = input.logical_uniform_shape()[dynamic..].to_vec();
    let names = input
        .logical_dim_names()
        .map(|names| names[dynamic..].to_vec());
    Ok(VariableGetPlan {
        output: variable_output(&input, known, names)?,
        input,
        index: None,
        dynamic,
        limits: args.limits,
    })
}

/// The result type of a selection from `input` whose dims are `known` where every row has
/// the same length: fixed-shape when all are, else variable-shape.
fn variable_output(
    input: &VariableShapeType,
    known: Vec<Option<usize>>,
    names: Option<Vec<String>>,
) -> Result<VariableGetOutput> {
    let element = input.element_type().clone();
    Ok(
        match known.iter().copied().collect::<Option<Vec<usize>>>() {
            Some(shape) if shape.is_empty() => VariableGetOutput::Fixed(None),
            Some(shape) => VariableGetOutput::Fixed(Some(
                TensorType::new(element, shape)?.with_dim_names(names)?,
            )),
            None => VariableGetOutput::Variable(
                VariableShapeType::new(element, known.len())?
                    .with_dim_names(names)?
                    .with_uniform_shape(Some(known))?,
            ),
        },
    )
}

/// Checks that the dynamic index arguments are integer expressions.
fn check_index_columns(fields: &[FieldRef]) -> Result<()> {
    for (i, field) in fields.iter().enumerate() {
        if !field.data_type().is_integer() && *field.data_type() != DataType::Null {
            return plan_err!(
                "tensor_get: index argument {} must be an integer expression (or the only index argument a literal index string), got {}",
                i + 1,
                field.data_type()
            );
        }
    }
    Ok(())
}

impl TensorFunction for TensorGet {
    type Plan = GetCall;

    function_metadata!("tensor_get", super::Parameters::Positional);

    fn tensor_arguments(&self, _arg_types: &[DataType]) -> Vec<usize> {
        vec![0]
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        if arg_types.len() < 2 {
            return plan_err!(
                "tensor_get function requires a tensor and an index (a string, or integer expressions), got {} arguments",
                arg_types.len()
            );
        }
        Ok(arg_types.to_vec())
    }

    fn plan(&self, args: &PlanArgs<'_>) -> Result<GetCall> {
        let input = match args.any_tensor(0, "t")? {
            AnyTensorType::Fixed(input) => input,
            AnyTensorType::Variable(input) => {
                return plan_variable(input, args).map(GetCall::Variable);
            }
        };
        let shape = input.logical_shape();
        let strides = input.logical_strides();
        if args.fields.len() == 2 && args.fields[1].data_type().is_string() {
            let Some(text) = args.literal(1).and_then(|v| v.try_as_str().flatten()) else {
                return plan_err!(
                    "tensor_get: argument index must be a literal string such as '1:3, ::2' (or integer expressions for the leading axes)"
                );
            };
            let index = parse_index(text).map_err(|e| plan_datafusion_err!("tensor_get: {e}"))?;
            let selection = normalize(&index, &shape, &strides, &args.limits)
                .map_err(|e| plan_datafusion_err!("tensor_get: {e}"))?;
            return Ok(GetCall::Fixed(GetPlan {
                output: output_type(&input, &selection)?,
                gather: GatherPlan::new(&selection, input.size()),
                input,
                index: Some(index),
                dynamic: 0,
            }));
        }
        // Dynamic: integer expressions for the leading axes.
        let dynamic = args.fields.len() - 1;
        check_index_columns(&args.fields[1..])?;
        if dynamic > shape.len() {
            return Err(too_many_indices(shape.len(), dynamic).in_function("tensor_get"));
        }
        // The rest of the tensor, from the indexed element on: a full slice of the remaining
        // axes.
        let rest = Selection {
            shape: shape[dynamic..].to_vec(),
            base: 0,
            components: shape[dynamic..]
                .iter()
                .zip(&strides[dynamic..])
                .map(|(&len, &stride)| crate::index::Component::Strided {
                    len,
                    start: 0,
                    step: stride as isize,
                })
                .collect(),
            source_axes: (dynamic..shape.len()).map(Some).collect(),
            dropped: false,
        };
        Ok(GetCall::Fixed(GetPlan {
            output: output_type(&input, &rest)?,
            gather: GatherPlan::new(&rest, input.size()),
            input,
            index: None,
            dynamic,
        }))
    }

    fn return_field(&self, plan: &GetCall) -> FieldRef {
        let plan = match plan {
            GetCall::Fixed(plan) => plan,
            GetCall::Variable(plan) => {
                return Arc::new(match &plan.output {
                    VariableGetOutput::Fixed(Some(tensor)) => tensor.to_field(self.name()),
                    VariableGetOutput::Variable(tensor) => tensor.to_field(self.name()),
                    VariableGetOutput::Fixed(None) => {
                        Field::new(self.name(), plan.input.element_type().clone(), true)
                    }
                });
            }
        };
        match &plan.output {
            Some(tensor) => Arc::new(tensor.to_field(self.name())),
            None => Arc::new(Field::new(
                self.name(),
                plan.input.element_type().clone(),
                true,
            )),
        }
    }

    fn invoke(
        &self,
        plan: &GetCall,
        args: &[ColumnarValue],
        number_rows: usize,
    ) -> Result<ColumnarValue> {
        let plan = match plan {
            GetCall::Fixed(plan) => plan,
            GetCall::Variable(plan) => {
                let data: Vec<usize> = (0..=plan.dynamic).collect();
                return super::map_arrays(args, &data, number_rows, |arrays| {
                    let view = variable_array(self.name(), &plan.input, &arrays[0])?;
                    get_variable(plan, &view, &arrays[1..]).map_err(|e| e.in_function(self.name()))
                });
            }
        };
        let data: Vec<usize> = if plan.dynamic == 0 {
            vec![0]
        } else {
            (0..=plan.dynamic).collect()
        };
        super::map_arrays(args, &data, number_rows, |arrays| {
            let input = tensor_array(self.name(), &arrays[0])?;
            get(plan, input, &arrays[1..])
        })
    }
}

fn get(plan: &GetPlan, input: &FixedSizeListArray, indices: &[ArrayRef]) -> Result<ArrayRef> {
    let rows = input.len();
    let mut nulls = input.logical_nulls();
    let values = Arc::clone(input.values());
    let out = if plan.dynamic == 0 {
        gather_values(&values, rows, &plan.gather, None)?
    } else {
        for column in indices {
            nulls = NullBuffer::union(nulls.as_ref(), column.logical_nulls().as_ref());
        }
        gather_at_indices(&values, &plan.input, indices, nulls.as_ref(), &plan.gather)
            .map_err(|e| e.in_function("tensor_get"))?
    };
    Ok(layout::output_rows(plan.output.as_ref(), out, nulls, rows)?)
}

fn get_variable(
    plan: &VariableGetPlan,
    view: &VariableShapeArray<'_>,
    indices: &[ArrayRef],
) -> crate::error::Result<ArrayRef> {
    let mut nulls = view.nulls().cloned();
    let columns = indices
        .iter()
        .map(|column| arrow::compute::cast(column, &DataType::Int64))
        .collect::<std::result::Result<Vec<_>, _>>()?;
    for column in &columns {
        nulls = NullBuffer::union(nulls.as_ref(), column.logical_nulls().as_ref());
    }
    let out_ndim = match &plan.output {
        VariableGetOutput::Fixed(output) => output.as_ref().map_or(0, TensorType::ndim),
        VariableGetOutput::Variable(output) => output.ndim(),
    };
    let run = |pad: Option<usize>| match &plan.index {
        Some(index) => ragged::get_index(view, index, out_ndim, pad, &plan.limits),
        None => {
            let values: Vec<&[i64]> = columns
                .iter()
                .map(|c| {
                    c.as_primitive::<arrow::datatypes::Int64Type>()
                        .values()
                        .as_ref()
                })
                .collect();
            ragged::get_at_integers(view, &values, nulls.as_ref(), pad)
        }
    };
    match &plan.output {
        VariableGetOutput::Fixed(output) => {
            let rows = run(Some(output.as_ref().map_or(1, TensorType::size)))?;
            Ok(layout::output_rows(
                output.as_ref(),
                rows.values,
                nulls,
                view.len(),
            )?)
        }
        VariableGetOutput::Variable(output) => {
            let rows = run(None)?;
            let out = ragged::from_rows(output, rows.values, &rows.lengths, rows.shapes, nulls)?;
            Ok(Arc::new(out))
        }
    }
}
