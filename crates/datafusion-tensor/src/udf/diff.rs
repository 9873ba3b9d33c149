//! `tensor_diff(x [, n [, axis [, prepend [, append]]]])`: numpy's `diff`, the `n`-th
//! differences along one axis (the last by default), on fixed- and variable-shape tensors;
//! `prepend` and `append` are numbers put at both ends of every line first (numpy's scalar
//! form, broadcast along the other axes), and take part in the result type as numpy's
//! `concatenate` of `asanyarray(value)` makes it: strong, so an int8 tensor with `prepend => 0`
//! gives int64. A tensor `prepend` or `append` (a list literal, a tensor or list column) is
//! numpy's array form: joined to x along the axis by `tensor_concat`'s plan (its promotion,
//! shapes and errors), whose result the differences are then taken of.

use std::sync::Arc;

use arrow::array::{Array, ArrayRef};
use arrow::compute::cast;
use arrow::datatypes::{DataType, FieldRef};
use datafusion::common::{ScalarValue, plan_err};
use datafusion::error::Result;
use datafusion::logical_expr::{ColumnarValue, Documentation};

use super::shape::{JoinCall, JoinFunction, TensorJoin, integer, result_type};
use super::{Parameters, PlanArgs, TensorFunction, map_arrays, tensor_array, variable_array};
use crate::dtype::result_type as promote;
use crate::kernels::diff::{Ends, diff};
use crate::kernels::reduce::cumulative::Span;
use crate::kernels::{layout, ragged};
use crate::variable_shape::AnyTensorType;

/// `tensor_diff`.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct TensorDiff {
    documentation: Documentation,
    /// `tensor_concat`, which joins tensor ends to x.
    concat: TensorJoin,
}

impl TensorDiff {
    /// The registered instance.
    pub fn new() -> Self {
        Self {
            documentation: documentation(),
            concat: TensorJoin::new(JoinFunction::Concat),
        }
    }
}

/// Tensor ends joined to x along the axis before the differences.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Joined {
    /// The arguments joined, in order (prepend, x, append).
    args: Vec<usize>,
    /// The axis, as the join's argument.
    axis: ScalarValue,
    /// The join's plan.
    plan: JoinCall,
}

/// Whether argument `i` is an array end (numpy's array form of prepend / append): a list, a
/// tensor or a list column, not a number or NULL.
fn is_array_end(arg_types: &[DataType], i: usize) -> bool {
    arg_types
        .get(i)
        .is_some_and(|t| !(t.is_numeric() || *t == DataType::Boolean || *t == DataType::Null))
}

impl Default for TensorDiff {
    fn default() -> Self {
        Self::new()
    }
}

/// A compiled call.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct DiffPlan {
    /// Tensor ends, joined to x first.
    joined: Option<Joined>,
    input: AnyTensorType,
    /// The element type the differences are taken in (and the result's).
    element: DataType,
    n: usize,
    axis: usize,
    prepend: Option<ScalarValue>,
    append: Option<ScalarValue>,
    output: AnyTensorType,
}

/// Argument `i` as a literal number or boolean (`None` when absent or NULL).
fn end_value(args: &PlanArgs<'_>, i: usize, arg: &str) -> Result<Option<ScalarValue>> {
    if super::shape::is_omitted(args, i) {
        return Ok(None);
    }
    match args.literal(i) {
        Some(v) if v.data_type().is_numeric() || v.data_type() == DataType::Boolean => {
            Ok(Some(v.clone()))
        }
        _ => plan_err!(
            "{}: argument {arg} must be a literal number (a value put at both ends of every line)",
            args.name
        ),
    }
}

impl TensorFunction for TensorDiff {
    type Plan = DiffPlan;

    fn name(&self) -> &'static str {
        "tensor_diff"
    }

    fn parameters(&self) -> Parameters {
        Parameters::Fixed {
            names: &["x", "n", "axis", "prepend", "append"],
            required: 1,
        }
    }

    fn documentation(&self) -> Option<&Documentation> {
        Some(&self.documentation)
    }

    // A number end is not among them: it is numpy's scalar form (broadcast along the other
    // axes), read by `end_value`, not a 0-d array.
    fn tensor_arguments(&self, arg_types: &[DataType]) -> Vec<usize> {
        let mut tensors = vec![0];
        tensors.extend([3, 4].into_iter().filter(|&i| is_array_end(arg_types, i)));
        tensors
    }

    fn plan(&self, args: &PlanArgs<'_>) -> Result<DiffPlan> {
        let name = args.name;
        let x = args.any_tensor(0, "x")?;
        let ndim = x.ndim();
        let n = integer(args, 1, "n", 1)?;
        if n < 0 {
            return plan_err!("{name}: order must be non-negative but got {n}");
        }
        if ndim == 0 {
            return plan_err!("{name}: diff requires input that is at least one dimensional");
        }
        let axis = super::shape::normalize_axis(name, integer(args, 2, "axis", -1)?, ndim)?;
        let types: Vec<DataType> = args.fields.iter().map(|f| f.data_type().clone()).collect();
        let joined = if n == 0 {
            None
        } else {
            self.join_ends(args, &types, axis)?
        };
        let input = match &joined {
            Some(joined) => joined.plan.output().clone(),
            None => x,
        };
        let (x_element, known, names) = match &input {
            AnyTensorType::Fixed(t) => (
                t.element_type().clone(),
                t.logical_shape().into_iter().map(Some).collect::<Vec<_>>(),
                t.logical_dim_names(),
            ),
            AnyTensorType::Variable(t) => (
                t.element_type().clone(),
                t.logical_uniform_shape(),
                t.logical_dim_names(),
            ),
        };
        // numpy returns `x` itself for n = 0, ends and all ignored; tensor ends are joined.
        let number_end = |i: usize, arg: &str| -> Result<Option<ScalarValue>> {
            if n == 0 || is_array_end(&types, i) {
                Ok(None)
            } else {
                end_value(args, i, arg)
            }
        };
        let (prepend, append) = (number_end(3, "prepend")?, number_end(4, "append")?);
        let mut strong = vec![x_element];
        strong.extend(
            [&prepend, &append]
                .into_iter()
                .flatten()
                .map(ScalarValue::data_type),
        );
        let Some(element) = promote(&strong, &[]) else {
            return plan_err!(
                "{name}: the tensor's element type and prepend / append have no common type"
            );
        };
        let cast_end = |value: Option<ScalarValue>| -> Result<Option<ScalarValue>> {
            value.map(|v| v.cast_to(&element)).transpose()
        };
        let (prepend, append) = (cast_end(prepend)?, cast_end(append)?);
        let ends = usize::from(prepend.is_some()) + usize::from(append.is_some());
        let n = n as usize;
        let mut dims = known;
        dims[axis] = dims[axis].map(|d| (d + ends).saturating_sub(n));
        let output = result_type(element.clone(), dims, names)
            .map_err(|e| super::name_plan_error(name, e))?;
        Ok(DiffPlan {
            joined,
            input,
            element,
            n,
            axis,
            prepend,
            append,
            output,
        })
    }

    fn return_field(&self, plan: &DiffPlan) -> FieldRef {
        Arc::new(match &plan.output {
            AnyTensorType::Fixed(t) => t.to_field(self.name()),
            AnyTensorType::Variable(t) => t.to_field(self.name()),
        })
    }

    fn invoke(
        &self,
        plan: &DiffPlan,
        args: &[ColumnarValue],
        number_rows: usize,
    ) -> Result<ColumnarValue> {
        let name = self.name();
        let Some(joined) = &plan.joined else {
            return map_arrays(args, &[0], number_rows, |arrays| {
                run(name, plan, &arrays[0])
            });
        };
        let mut join_args: Vec<ColumnarValue> =
            joined.args.iter().map(|&i| args[i].clone()).collect();
        join_args.push(ColumnarValue::Scalar(joined.axis.clone()));
        match self.concat.invoke(&joined.plan, &join_args, number_rows)? {
            ColumnarValue::Array(array) => Ok(ColumnarValue::Array(run(name, plan, &array)?)),
            ColumnarValue::Scalar(value) => {
                let out = run(name, plan, &value.to_array()?)?;
                Ok(ColumnarValue::Scalar(ScalarValue::try_from_array(&out, 0)?))
            }
        }
    }
}

impl TensorDiff {
    /// numpy's array form of `prepend` / `append`: the tensor ends joined to x along `axis`
    /// by `tensor_concat`'s plan (`None` when no end is a tensor).
    fn join_ends(
        &self,
        args: &PlanArgs<'_>,
        types: &[DataType],
        axis: usize,
    ) -> Result<Option<Joined>> {
        let ends = [3, 4].map(|i| is_array_end(types, i));
        if !ends.contains(&true) {
            return Ok(None);
        }
        let mut joined: Vec<usize> = Vec::new();
        if ends[0] {
            joined.push(3);
        }
        joined.push(0);
        if ends[1] {
            joined.push(4);
        }
        let axis = ScalarValue::Int64(Some(axis as i64));
        let mut fields: Vec<FieldRef> = joined
            .iter()
            .map(|&i| Arc::clone(&args.fields[i]))
            .collect();
        fields.push(Arc::new(arrow::datatypes::Field::new(
            "axis",
            DataType::Int64,
            true,
        )));
        let mut scalars: Vec<Option<&ScalarValue>> =
            joined.iter().map(|&i| args.literal(i)).collect();
        scalars.push(Some(&axis));
        let concat_args = PlanArgs {
            name: args.name,
            fields: &fields,
            scalars: &scalars,
            limits: args.limits,
        };
        let plan = self.concat.plan(&concat_args)?;
        Ok(Some(Joined {
            args: joined,
            axis,
            plan,
        }))
    }
}

/// The differences of one batch.
fn run(name: &str, plan: &DiffPlan, array: &ArrayRef) -> Result<ArrayRef> {
    let in_function = |e: crate::error::TensorError| e.in_function(name);
    let to_array = |v: &Option<ScalarValue>| v.as_ref().map(ScalarValue::to_array).transpose();
    let (prepend, append) = (to_array(&plan.prepend)?, to_array(&plan.append)?);
    let ends = Ends {
        prepend: prepend.as_ref(),
        append: append.as_ref(),
    };
    match (&plan.input, &plan.output) {
        (AnyTensorType::Fixed(input), AnyTensorType::Fixed(output)) => {
            let list = tensor_array(name, array)?;
            let values = cast(&layout::row_major_values(input, list)?, &plan.element)?;
            // NULL rows hold values too (a fixed-shape row always does): their differences
            // are taken and masked.
            let span = Span::new(&input.logical_shape(), Some(plan.axis));
            let (out, _) =
                diff(&values, &vec![span; list.len()], plan.n, &ends).map_err(in_function)?;
            Ok(Arc::new(layout::tensor_array(
                output,
                out,
                list.nulls().cloned(),
                list.len(),
            )?))
        }
        (AnyTensorType::Variable(input), output) => {
            let view = variable_array(name, input, array)?;
            let values = ragged::row_major_values(&view).map_err(in_function)?;
            let values = cast(&values, &plan.element)?;
            let rows = view.len();
            let shapes: Vec<Option<Vec<usize>>> = (0..rows)
                .map(|row| (!view.is_null(row)).then(|| view.logical_shape(row).collect()))
                .collect();
            let spans: Vec<Span> = shapes
                .iter()
                .flatten()
                .map(|shape| Span::new(shape, Some(plan.axis)))
                .collect();
            let (out, after) = diff(&values, &spans, plan.n, &ends).map_err(in_function)?;
            let nulls = view.nulls().cloned();
            match output {
                AnyTensorType::Fixed(output) => {
                    // Every row has the result's shape: NULL rows take its width of NULLs.
                    let present = shapes.iter().map(Option::is_some);
                    let out = pad_null_rows(&out, present, output.size())?;
                    Ok(Arc::new(layout::tensor_array(output, out, nulls, rows)?))
                }
                AnyTensorType::Variable(output) => {
                    let mut lengths = Vec::with_capacity(rows);
                    let mut out_shapes = Vec::with_capacity(rows * input.ndim());
                    let mut done = after.iter();
                    for shape in &shapes {
                        // Present rows took one span each, in order.
                        match shape.as_ref().map(|shape| (shape, done.next())) {
                            Some((shape, Some(span))) => {
                                lengths.push(span.size());
                                out_shapes.extend(shape.iter().enumerate().map(|(a, &d)| {
                                    (if a == plan.axis { span.n } else { d }) as i32
                                }));
                            }
                            _ => {
                                lengths.push(0);
                                out_shapes.extend(std::iter::repeat_n(0, input.ndim()));
                            }
                        }
                    }
                    let out = ragged::from_rows(output, out, &lengths, out_shapes, nulls)
                        .map_err(in_function)?;
                    Ok(Arc::new(out))
                }
            }
        }
        _ => datafusion::common::internal_err!(
            "{name}: a fixed-shape input planned a variable-shape result"
        ),
    }
}

/// `values` (`width` per row present) with `width` NULLs for each row not present.
fn pad_null_rows(
    values: &ArrayRef,
    present: impl Iterator<Item = bool>,
    width: usize,
) -> Result<ArrayRef> {
    let mut indices: Vec<Option<u64>> = Vec::new();
    let mut next = 0u64;
    for present in present {
        if present {
            indices.extend((next..next + width as u64).map(Some));
            next += width as u64;
        } else {
            indices.extend(std::iter::repeat_n(None, width));
        }
    }
    Ok(arrow::compute::take(
        values.as_ref(),
        &arrow::array::UInt64Array::from(indices),
        None,
    )?)
}

fn documentation() -> Documentation {
    super::tensor_documentation(
        "numpy's diff: the n-th differences along axis (a[i + 1] - a[i], n times; integers wrap, booleans give not_equal). prepend and append are numbers put at both ends of every line first (numpy's scalar form); they take part in the result type as numpy's asanyarray makes them (strong: an int8 tensor with prepend => 0 gives int64). n larger than the axis gives an empty axis. Errors in numpy's words: order must be non-negative but got -1, diff requires input that is at least one dimensional.",
        "tensor_diff(x [, n [, axis [, prepend [, append]]]])".to_string(),
        "tensor_diff(tensor([1, 2, 4, 7, 0, 0, 1, 1], [2, 4]), prepend => 0)",
        "[[1, 1, 2, 3], [0, 0, 1, 0]]",
    )
    .with_argument(
        "x",
        "A tensor (arrow.fixed_shape_tensor, arrow.variable_shape_tensor or FixedSizeList), read in its logical layout; each variable-shape row in its own shape.",
    )
    .with_argument("n", "A literal non-negative integer: how many times (default 1; 0 gives x).")
    .with_argument("axis", "A literal integer (negative from the end); default -1.")
    .with_argument("prepend", "A literal number put before every line (default none), or a tensor (a list literal, a tensor or list column) joined before x along axis, as numpy's concatenate joins it (its promotion, shapes and errors).")
    .with_argument("append", "A literal number put after every line (default none), or a tensor joined after x.")
    .build()
}
