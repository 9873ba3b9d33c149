//! numpy's creation functions as expressions (the array API standard's creation functions):
//! `tensor_zeros`, `tensor_ones`, `tensor_full` (`shape [, fill_value] [, dtype]`),
//! `tensor_eye`, `tensor_arange`, `tensor_linspace`, and `tensor_zeros_like`,
//! `tensor_ones_like`, `tensor_full_like` of a tensor argument.
//!
//! The shape-giving arguments are literals, so the result type is known when the query is
//! planned: the tensor is computed then, once, and every row gets it (a literal-only call is a
//! constant). `tensor_full`'s `fill_value` may be a column (each row's fill); the `_like`
//! forms take each row's shape from `x` (fixed- or variable-shape), NULL where `x` is.
//! `args.rs` reads the literals, `docs.rs` holds the documentation; the values are
//! [`crate::kernels::create`]'s.

mod args;
mod docs;

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, UInt32Array};
use arrow::buffer::NullBuffer;
use arrow::datatypes::{DataType, FieldRef};
use datafusion::common::{ScalarValue, plan_err};
use datafusion::error::Result;
use datafusion::logical_expr::{ColumnarValue, Documentation};

pub(crate) use self::args::dtype as dtype_arg;
use self::args::{count, dtype, number, required_number, shape};
use super::{Parameters, PlanArgs, TensorFunction, tensor_array, variable_array};
use crate::kernels::cast::astype;
use crate::kernels::create::{Number, arange, arange_len, eye, linspace};
use crate::kernels::{layout, ragged};
use crate::tensor_type::TensorType;
use crate::variable_shape::AnyTensorType;

/// The SQL functions of this family.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CreateFunction {
    /// `tensor_zeros`.
    Zeros,
    /// `tensor_ones`.
    Ones,
    /// `tensor_full`.
    Full,
    /// `tensor_eye`.
    Eye,
    /// `tensor_arange`.
    Arange,
    /// `tensor_linspace`.
    Linspace,
    /// `tensor_zeros_like`.
    ZerosLike,
    /// `tensor_ones_like`.
    OnesLike,
    /// `tensor_full_like`.
    FullLike,
}

impl CreateFunction {
    /// Every function, in registration order.
    pub const ALL: [Self; 9] = [
        Self::Zeros,
        Self::Ones,
        Self::Full,
        Self::Eye,
        Self::Arange,
        Self::Linspace,
        Self::ZerosLike,
        Self::OnesLike,
        Self::FullLike,
    ];

    /// The SQL name.
    pub fn function_name(self) -> &'static str {
        match self {
            Self::Zeros => "tensor_zeros",
            Self::Ones => "tensor_ones",
            Self::Full => "tensor_full",
            Self::Eye => "tensor_eye",
            Self::Arange => "tensor_arange",
            Self::Linspace => "tensor_linspace",
            Self::ZerosLike => "tensor_zeros_like",
            Self::OnesLike => "tensor_ones_like",
            Self::FullLike => "tensor_full_like",
        }
    }

    /// The parameter names (the standard's), in order, and how many are required.
    fn parameters(self) -> (&'static [&'static str], usize) {
        match self {
            Self::Zeros | Self::Ones => (&["shape", "dtype"], 1),
            Self::Full => (&["shape", "fill_value", "dtype"], 2),
            Self::Eye => (&["n_rows", "n_cols", "k", "dtype"], 1),
            Self::Arange => (&["start", "stop", "step", "dtype"], 1),
            Self::Linspace => (&["start", "stop", "num", "endpoint", "dtype"], 3),
            Self::ZerosLike | Self::OnesLike => (&["x", "dtype"], 1),
            Self::FullLike => (&["x", "fill_value", "dtype"], 2),
        }
    }
}

/// A creation function.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct TensorCreate {
    function: CreateFunction,
    documentation: Documentation,
}

impl TensorCreate {
    /// The registered instance of `function`.
    pub fn new(function: CreateFunction) -> Self {
        Self {
            function,
            documentation: docs::documentation(function),
        }
    }
}

/// A compiled call.
#[derive(Debug, PartialEq, Eq, Hash)]
pub enum CreatePlan {
    /// One tensor for every row, computed when the query was planned (a one-row list).
    Constant {
        /// The result's type.
        output: TensorType,
        /// The tensor.
        value: ScalarValue,
    },
    /// `tensor_full` with a column `fill_value`: each row its own fill.
    Filled {
        /// The result's type.
        output: TensorType,
    },
    /// A `_like` form: `x`'s shapes, `fill` (a literal in the result's element type, or
    /// `None`: the column argument 1).
    Like {
        /// `x`'s type.
        input: AnyTensorType,
        /// The result's type.
        output: AnyTensorType,
        /// The fill value, cast.
        fill: Option<ScalarValue>,
    },
}

impl TensorFunction for TensorCreate {
    type Plan = CreatePlan;

    fn name(&self) -> &'static str {
        self.function.function_name()
    }

    fn parameters(&self) -> Parameters {
        let (names, required) = self.function.parameters();
        Parameters::Fixed { names, required }
    }

    fn documentation(&self) -> Option<&Documentation> {
        Some(&self.documentation)
    }

    fn tensor_arguments(&self, _arg_types: &[DataType]) -> Vec<usize> {
        match self.function {
            CreateFunction::ZerosLike | CreateFunction::OnesLike | CreateFunction::FullLike => {
                vec![0]
            }
            _ => Vec::new(),
        }
    }

    #[allow(
        clippy::too_many_lines,
        reason = "one arm per function, each reading its literals"
    )]
    fn plan(&self, args: &PlanArgs<'_>) -> Result<CreatePlan> {
        let name = args.name;
        let limits = args.limits;
        let checked = |shape: &[usize]| -> Result<usize> {
            limits.checked_size(shape).map_err(|e| e.in_function(name))
        };
        let constant =
            |element: DataType, shape: Vec<usize>, values: ArrayRef| -> Result<CreatePlan> {
                let output = TensorType::new(element, shape)?;
                let list = layout::tensor_array(&output, values, None, 1)?;
                Ok(CreatePlan::Constant {
                    output,
                    value: ScalarValue::FixedSizeList(Arc::new(list)),
                })
            };
        let repeated =
            |element: DataType, shape: Vec<usize>, fill: ScalarValue| -> Result<CreatePlan> {
                let size = checked(&shape)?;
                let value = cast_scalar(&fill, &element)?;
                constant(element, shape, value.to_array_of_size(size)?)
            };
        match self.function {
            CreateFunction::Zeros | CreateFunction::Ones => {
                let shape = shape(args, 0)?;
                let element = dtype(args, 1)?.unwrap_or(DataType::Float64);
                let one = i64::from(self.function == CreateFunction::Ones);
                repeated(element, shape, ScalarValue::Int64(Some(one)))
            }
            CreateFunction::Full => {
                let shape = shape(args, 0)?;
                let fill_type = args.fields[1].data_type().clone();
                if !(fill_type.is_numeric() || fill_type == DataType::Boolean) {
                    return plan_err!(
                        "{name}: argument fill_value must be a number or a boolean, got {fill_type}"
                    );
                }
                let element = dtype(args, 2)?.unwrap_or(fill_type);
                match args.literal(1) {
                    Some(fill) if !fill.is_null() => {
                        let fill = cast_literal(name, fill, &element)?;
                        repeated(element, shape, fill)
                    }
                    _ => {
                        checked(&shape)?;
                        Ok(CreatePlan::Filled {
                            output: TensorType::new(element, shape)?,
                        })
                    }
                }
            }
            CreateFunction::Eye => {
                let negative = "negative dimensions are not allowed";
                let Some(n) = count(args, 0, "n_rows", negative)? else {
                    return plan_err!(
                        "{name}: argument n_rows must be a literal integer, not NULL"
                    );
                };
                let m = count(args, 1, "n_cols", negative)?.unwrap_or(n);
                let k = match number(args, 2, "k")? {
                    None => 0,
                    Some(Number::Int(k)) => {
                        i64::try_from(k).unwrap_or(if k < 0 { i64::MIN } else { i64::MAX })
                    }
                    Some(Number::Float(_)) => {
                        return plan_err!("{name}: argument k must be a literal integer");
                    }
                };
                let element = dtype(args, 3)?.unwrap_or(DataType::Float64);
                checked(&[n, m])?;
                let values = eye(&element, n, m, k).map_err(|e| e.in_function(name))?;
                constant(element, vec![n, m], values)
            }
            CreateFunction::Arange => {
                let first = required_number(args, 0, "start")?;
                // numpy's arange(stop): one number is the stop.
                let (start, stop) = match number(args, 1, "stop")? {
                    Some(stop) => (first, stop),
                    None => (Number::Int(0), first),
                };
                let step = number(args, 2, "step")?.unwrap_or(Number::Int(1));
                let all_ints = [start, stop, step]
                    .iter()
                    .all(|n| matches!(n, Number::Int(_)));
                let element = dtype(args, 3)?.unwrap_or(if all_ints {
                    DataType::Int64
                } else {
                    DataType::Float64
                });
                let len = arange_len(start, stop, step).map_err(|e| e.in_function(name))?;
                checked(&[len])?;
                let values = arange(&element, start, step, len).map_err(|e| e.in_function(name))?;
                constant(element, vec![len], values)
            }
            CreateFunction::Linspace => {
                let start = required_number(args, 0, "start")?.as_f64();
                let stop = required_number(args, 1, "stop")?.as_f64();
                let Some(num) = count(
                    args,
                    2,
                    "num",
                    "Number of samples, {n}, must be non-negative.",
                )?
                else {
                    return plan_err!("{name}: argument num must be a literal integer, not NULL");
                };
                let endpoint = match args.literal(3) {
                    None => true,
                    Some(ScalarValue::Boolean(b)) => b.unwrap_or(true),
                    Some(v) if v.is_null() => true,
                    Some(_) => {
                        return plan_err!("{name}: argument endpoint must be a literal boolean");
                    }
                };
                let element = dtype(args, 4)?.unwrap_or(DataType::Float64);
                checked(&[num])?;
                let values = linspace(&element, start, stop, num, endpoint)
                    .map_err(|e| e.in_function(name))?;
                constant(element, vec![num], values)
            }
            CreateFunction::ZerosLike | CreateFunction::OnesLike | CreateFunction::FullLike => {
                let input = args.any_tensor(0, "x")?;
                let full = self.function == CreateFunction::FullLike;
                let dtype_at = if full { 2 } else { 1 };
                let element =
                    dtype(args, dtype_at)?.unwrap_or_else(|| input.element_type().clone());
                if full {
                    let fill_type = args.fields[1].data_type();
                    if !(fill_type.is_numeric() || *fill_type == DataType::Boolean) {
                        return plan_err!(
                            "{name}: argument fill_value must be a number or a boolean, got {fill_type}"
                        );
                    }
                }
                let fill = match (self.function, args.literal(1)) {
                    (CreateFunction::FullLike, Some(v)) if !v.is_null() => {
                        Some(cast_literal(name, v, &element)?)
                    }
                    (CreateFunction::FullLike, _) => None,
                    (function, _) => Some(cast_scalar(
                        &ScalarValue::Int64(Some(i64::from(function == CreateFunction::OnesLike))),
                        &element,
                    )?),
                };
                let output = input.with_element_type(element)?;
                Ok(CreatePlan::Like {
                    input,
                    output,
                    fill,
                })
            }
        }
    }

    fn return_field(&self, plan: &CreatePlan) -> FieldRef {
        let name = self.name();
        Arc::new(match plan {
            CreatePlan::Constant { output, .. } | CreatePlan::Filled { output } => {
                output.to_field(name)
            }
            CreatePlan::Like { output, .. } => output.to_field(name),
        })
    }

    fn invoke(
        &self,
        plan: &CreatePlan,
        args: &[ColumnarValue],
        number_rows: usize,
    ) -> Result<ColumnarValue> {
        let name = self.name();
        match plan {
            CreatePlan::Constant { value, .. } => Ok(ColumnarValue::Scalar(value.clone())),
            CreatePlan::Filled { output } => super::map_arrays(args, &[1], number_rows, |a| {
                let fill = astype(&a[0], output.element_type()).map_err(|e| e.in_function(name))?;
                let size = output.size();
                let rows = fill.len();
                let values = repeat_rows(&fill, rows, |_| size)?;
                Ok(Arc::new(layout::tensor_array(
                    output,
                    values,
                    fill.logical_nulls(),
                    rows,
                )?))
            }),
            CreatePlan::Like {
                input,
                output,
                fill,
            } => {
                let data: Vec<usize> = if fill.is_some() { vec![0] } else { vec![0, 1] };
                super::map_arrays(args, &data, number_rows, |a| {
                    like(name, input, output, fill.as_ref(), a)
                })
            }
        }
    }
}

/// A literal fill `value` in `element`: NEP 50's error for an integer out of an integer
/// type's range (numpy refuses a Python integer it cannot hold), else numpy's unsafe cast.
fn cast_literal(name: &str, value: &ScalarValue, element: &DataType) -> Result<ScalarValue> {
    if element.is_integer() && value.data_type().is_integer() {
        let fits = value
            .cast_to_with_options(element, &crate::dtype::strict_cast())
            .is_ok_and(|v| !v.is_null());
        if !fits {
            let dtype = crate::udf::math::DTYPES
                .iter()
                .find(|(_, t)| t == element)
                .map_or_else(|| element.to_string(), |(n, _)| (*n).to_string());
            return plan_err!("{name}: Python integer {value} out of bounds for {dtype}");
        }
    }
    cast_scalar(value, element)
}

/// `value` in `element`, by numpy's unsafe cast.
fn cast_scalar(value: &ScalarValue, element: &DataType) -> Result<ScalarValue> {
    let cast = astype(&value.to_array_of_size(1)?, element)?;
    ScalarValue::try_from_array(&cast, 0)
}

/// Each row `r`'s value of `fill` repeated `len(r)` times, one row after another.
fn repeat_rows(fill: &ArrayRef, rows: usize, len: impl Fn(usize) -> usize) -> Result<ArrayRef> {
    let mut indices = Vec::new();
    for row in 0..rows {
        indices.extend(std::iter::repeat_n(row as u32, len(row)));
    }
    Ok(arrow::compute::take(
        fill.as_ref(),
        &UInt32Array::from(indices),
        None,
    )?)
}

/// The values of rows `0..rows`, row `r` holding `len(r)` of its fill: `fill`, or the column
/// `arrays[1]` cast to the result's element type.
fn fill_values(
    name: &str,
    element: &DataType,
    fill: Option<&ScalarValue>,
    arrays: &[ArrayRef],
    rows: usize,
    len: impl Fn(usize) -> usize,
) -> Result<ArrayRef> {
    match fill {
        Some(fill) => Ok(fill.to_array_of_size((0..rows).map(len).sum())?),
        None => {
            let fill = astype(&arrays[1], element).map_err(|e| e.in_function(name))?;
            repeat_rows(&fill, rows, len)
        }
    }
}

/// A `_like` result: each row of `x` (`arrays[0]`) in its own shape, filled; NULL where `x`
/// or a column fill is.
fn like(
    name: &str,
    input: &AnyTensorType,
    output: &AnyTensorType,
    fill: Option<&ScalarValue>,
    arrays: &[ArrayRef],
) -> Result<ArrayRef> {
    let rows = arrays[0].len();
    let fill_nulls = if fill.is_none() {
        arrays[1].logical_nulls()
    } else {
        None
    };
    let element = output.element_type();
    match (input, output) {
        (AnyTensorType::Fixed(_), AnyTensorType::Fixed(t)) => {
            let list = tensor_array(name, &arrays[0])?;
            let nulls = NullBuffer::union(list.logical_nulls().as_ref(), fill_nulls.as_ref());
            let size = t.size();
            let values = fill_values(name, element, fill, arrays, rows, |_| size)?;
            Ok(Arc::new(layout::tensor_array(t, values, nulls, rows)?))
        }
        (AnyTensorType::Variable(from), AnyTensorType::Variable(t)) => {
            let view = variable_array(name, from, &arrays[0])?;
            let nulls = NullBuffer::union(view.nulls(), fill_nulls.as_ref());
            let is_null = |r: usize| nulls.as_ref().is_some_and(|n| n.is_null(r));
            let ndim = t.ndim();
            let mut lengths = Vec::with_capacity(rows);
            let mut shapes = Vec::with_capacity(rows * ndim);
            for row in 0..rows {
                if is_null(row) {
                    lengths.push(0);
                    shapes.extend(std::iter::repeat_n(0, ndim));
                } else {
                    lengths.push(view.value_range(row).len());
                    shapes.extend(
                        view.physical_shape(row)
                            .map(|d| i32::try_from(d).unwrap_or(i32::MAX)),
                    );
                }
            }
            let values = fill_values(name, element, fill, arrays, rows, |r| lengths[r])?;
            Ok(Arc::new(
                ragged::from_rows(t, values, &lengths, shapes, nulls)
                    .map_err(|e| e.in_function(name))?,
            ))
        }
        _ => datafusion::common::internal_err!(
            "{name}: x and the result planned as different kinds of tensor"
        ),
    }
}
