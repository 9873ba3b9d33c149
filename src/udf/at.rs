//! `tensor_at_set`, `_add`, `_subtract`, `_multiply`, `_divide`, `_power`, `_min`, `_max`,
//! `_apply` and `_get`: JAX's `x.at[idx].op(y)` (SPEC §5).
//!
//! Planning turns the index into either a compiled list of occurrences (a static index string
//! or literal: every element of `x[idx]`, row-major, with the output offset it updates and the
//! `y` offset it reads) or a dynamic plan (an index column: per row, the start of each window
//! `x[i, ...]`, checked against the bounds rule, and the window's static offsets). The
//! kernels in [`crate::kernels::scatter`] then combine `y` into a copy of `x` over the whole
//! batch.

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, AsArray, BooleanArray, PrimitiveArray};
use arrow::buffer::{BooleanBuffer, NullBuffer, ScalarBuffer};
use arrow::compute::{cast, cast_with_options};
use arrow::datatypes::{ArrowPrimitiveType, DataType, Field, FieldRef, Float64Type, Int64Type};
use datafusion::common::{
    ScalarValue, exec_datafusion_err, exec_err, internal_err, plan_datafusion_err, plan_err,
};
use datafusion::error::Result;
use datafusion::logical_expr::{ColumnarValue, Documentation, Signature};

use super::{
    PlanArgs, TensorFunction, broadcast_values_offsets, is_string, literal_int_list, map_arrays,
    string_literal, tensor_array,
};
use crate::dtype::{cast_literal, promote, strict_cast};
use crate::index::{
    BoundsRule, DROPPED, IndexArray, IndexExpr, IndexItem, OutOfBounds, Resolved, normalize_with,
    parse_index,
};
use crate::kernels::layout;
use crate::kernels::scatter::{
    Element, FailedRow, Sources, Targets, Values, gather_filled, scatter,
};
use crate::shape::{broadcast_strides, format_shape, row_major_strides, strided_offsets};
use crate::tensor_type::TensorType;

/// The operation of a `tensor_at_*` function.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AtOp {
    /// `x.at[idx].set(y)`.
    Set,
    /// `x.at[idx].add(y)`.
    Add,
    /// `x.at[idx].subtract(y)`.
    Subtract,
    /// `x.at[idx].multiply(y)`.
    Multiply,
    /// `x.at[idx].divide(y)`.
    Divide,
    /// `x.at[idx].power(y)`.
    Power,
    /// `x.at[idx].min(y)`.
    Min,
    /// `x.at[idx].max(y)`.
    Max,
    /// `x.at[idx].apply(fn)`.
    Apply,
    /// `x.at[idx].get()`.
    Get,
}

impl AtOp {
    /// The SQL function name.
    pub fn function_name(self) -> &'static str {
        match self {
            Self::Set => "tensor_at_set",
            Self::Add => "tensor_at_add",
            Self::Subtract => "tensor_at_subtract",
            Self::Multiply => "tensor_at_multiply",
            Self::Divide => "tensor_at_divide",
            Self::Power => "tensor_at_power",
            Self::Min => "tensor_at_min",
            Self::Max => "tensor_at_max",
            Self::Apply => "tensor_at_apply",
            Self::Get => "tensor_at_get",
        }
    }

    /// JAX's method name.
    pub fn verb(self) -> &'static str {
        &self.function_name()["tensor_at_".len()..]
    }

    /// The argument names, options included, in order.
    pub fn parameter_names(self) -> &'static [&'static str] {
        match self {
            Self::Get => &[
                "x",
                "idx",
                "mode",
                "fill_value",
                "wrap_negative_indices",
                "indices_are_sorted",
                "unique_indices",
            ],
            Self::Apply => &[
                "x",
                "idx",
                "fn",
                "mode",
                "wrap_negative_indices",
                "indices_are_sorted",
                "unique_indices",
            ],
            _ => &[
                "x",
                "idx",
                "y",
                "mode",
                "wrap_negative_indices",
                "indices_are_sorted",
                "unique_indices",
            ],
        }
    }

    /// Number of positional (non-option) arguments.
    fn positional(self) -> usize {
        if self == Self::Get { 2 } else { 3 }
    }

    /// Whether the op reads a `y` argument.
    fn has_y(self) -> bool {
        !matches!(self, Self::Get | Self::Apply)
    }
}

/// JAX's out-of-bounds modes, and `raise`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mode {
    /// The default: updates drop out-of-bounds indices, gets clamp them.
    PromiseInBounds,
    /// Clamp to the nearest valid index.
    Clip,
    /// Leave out-of-bounds windows out.
    Drop,
    /// Like drop; gets return `fill_value` there.
    Fill,
    /// Fail the query (beyond JAX).
    Raise,
}

impl Mode {
    fn parse(text: &str) -> Option<Self> {
        Some(match text.to_ascii_lowercase().as_str() {
            "promise_in_bounds" => Self::PromiseInBounds,
            "clip" => Self::Clip,
            "drop" => Self::Drop,
            "fill" => Self::Fill,
            "raise" => Self::Raise,
            _ => return None,
        })
    }

    fn out_of_bounds(self, op: AtOp) -> OutOfBounds {
        match self {
            Self::PromiseInBounds if op == AtOp::Get => OutOfBounds::Clip,
            Self::PromiseInBounds | Self::Drop | Self::Fill => OutOfBounds::Drop,
            Self::Clip => OutOfBounds::Clip,
            Self::Raise => OutOfBounds::Raise,
        }
    }
}

/// A named unary function for `tensor_at_apply`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UnaryFn {
    /// `-v`.
    Negative,
    /// `|v|`.
    Abs,
    /// `v * v`.
    Square,
    /// -1, 0 or 1.
    Sign,
    /// Floats only from here on.
    Sqrt,
    /// `e^v`.
    Exp,
    /// Natural logarithm.
    Log,
    /// Sine.
    Sin,
    /// Cosine.
    Cos,
    /// Tangent.
    Tan,
    /// Hyperbolic tangent.
    Tanh,
    /// Round down.
    Floor,
    /// Round up.
    Ceil,
    /// Round half to even (numpy's `round`).
    Round,
}

impl UnaryFn {
    /// Every name accepted, for messages.
    pub const NAMES: &'static str = "'negative', 'abs', 'square', 'sign', 'sqrt', 'exp', 'log', 'sin', 'cos', 'tan', 'tanh', 'floor', 'ceil', 'round'";

    pub fn parse(name: &str) -> Option<Self> {
        Some(match name.to_ascii_lowercase().as_str() {
            "negative" | "neg" => Self::Negative,
            "abs" | "absolute" => Self::Abs,
            "square" => Self::Square,
            "sign" => Self::Sign,
            "sqrt" => Self::Sqrt,
            "exp" => Self::Exp,
            "log" => Self::Log,
            "sin" => Self::Sin,
            "cos" => Self::Cos,
            "tan" => Self::Tan,
            "tanh" => Self::Tanh,
            "floor" => Self::Floor,
            "ceil" => Self::Ceil,
            "round" | "rint" => Self::Round,
            _ => return None,
        })
    }

    /// Whether the function keeps integer types integer (the others give floats). Rounding an
    /// integer gives it back unchanged (JAX: `jnp.floor` of an int32 array is that array).
    fn keeps_integers(self) -> bool {
        matches!(
            self,
            Self::Negative
                | Self::Abs
                | Self::Square
                | Self::Sign
                | Self::Floor
                | Self::Ceil
                | Self::Round
        )
    }

    fn apply<T: Element>(self, v: T) -> Option<T> {
        let float = |f: fn(f64) -> f64| Some(T::from_f64(f(v.to_f64())));
        match self {
            Self::Negative => T::neg(v),
            Self::Abs => T::abs(v),
            Self::Square => T::mul(v, v),
            Self::Sign => Some(T::sign(v)),
            // Floats only (checked when planning): computed in f64 and rounded once.
            Self::Sqrt => float(f64::sqrt),
            Self::Exp => float(f64::exp),
            Self::Log => float(f64::ln),
            Self::Sin => float(f64::sin),
            Self::Cos => float(f64::cos),
            Self::Tan => float(f64::tan),
            Self::Tanh => float(f64::tanh),
            Self::Floor | Self::Ceil | Self::Round if !T::IS_FLOAT => Some(v),
            Self::Floor => float(f64::floor),
            Self::Ceil => float(f64::ceil),
            Self::Round => float(f64::round_ties_even),
        }
    }
}

/// What `tensor_at_apply` applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ApplyFn {
    /// A named function.
    Named(UnaryFn),
    /// A SQL lambda, evaluated by the higher-order adapter.
    Lambda,
}

/// How a dynamic index column is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DynamicKind {
    /// An integer column: one index into axis 0 per row.
    Integer,
    /// A list column of integers: per row, any number of indices into axis 0.
    List,
    /// An integer tensor column: `[m]` indices into axis 0, or `[m, k]` coordinate tuples.
    Tensor,
}

/// Where the updates of a call go.
#[derive(Debug, PartialEq, Eq, Hash)]
pub enum IndexPlan {
    /// A literal index, compiled.
    Static {
        /// Input offset of every element of `x[idx]`, row-major ([`DROPPED`] where dropped).
        offsets: Vec<usize>,
        /// The occurrences that are not dropped: the output offset each updates...
        targets: Vec<u32>,
        /// ...and the `y` offset each reads.
        sources: Vec<u32>,
    },
    /// An index column, read per row.
    Dynamic {
        /// How to read it.
        kind: DynamicKind,
        /// The index tensor's type (`Tensor` kind).
        index: Option<TensorType>,
        /// Number of leading axes each occurrence indexes.
        k: usize,
        /// Windows per row when fixed (`Integer`: 1, `Tensor`: m); `None` for lists.
        m: Option<usize>,
        /// Offsets of a window's elements from its start.
        window: Vec<u32>,
        /// `y` offset of each window element.
        y_window: Vec<u32>,
        /// `y` offset between windows, and the length of `y`'s window axis (1: broadcast).
        y_step: usize,
        /// Length of `y`'s axis over the windows, when it has one that is not 1.
        y_windows: Option<usize>,
    },
}

/// How `y` is given.
#[derive(Debug, PartialEq, Eq, Hash)]
pub enum ValuesPlan {
    /// No `y` (get, apply).
    None,
    /// A literal, already in the work type (`None`: every row NULL).
    Literal(Option<ScalarValue>),
    /// A numeric column: one value per row.
    Column(DataType),
    /// A tensor column.
    Tensor(TensorType),
}

/// A compiled `tensor_at_*` call.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct AtPlan {
    /// The operation.
    pub op: AtOp,
    /// `x`'s type.
    pub x: TensorType,
    /// The index.
    pub index: IndexPlan,
    /// `y`.
    pub values: ValuesPlan,
    /// The type the combination runs in (`y`'s promotion with `x`'s element type).
    pub work: DataType,
    /// Integer index handling.
    pub rule: BoundsRule,
    /// The mode as given.
    pub mode: Mode,
    /// `get`'s fill value, in `x`'s type.
    pub fill: Option<ScalarValue>,
    /// `apply`'s function.
    pub apply: Option<ApplyFn>,
    /// The output tensor type; `None` for a 0-d get (a plain value).
    pub output: Option<TensorType>,
    /// The output element type.
    pub output_element: DataType,
}

/// The options following the positional arguments: mode, (get: `fill_value`), and the three
/// flags; each a literal, NULL meaning the default.
struct Options {
    mode: Mode,
    fill: Option<ScalarValue>,
    wrap_negative: bool,
}

fn read_options(args: &PlanArgs<'_>, op: AtOp) -> Result<Options> {
    let name = op.function_name();
    let names = op.parameter_names();
    let mut options = Options {
        mode: Mode::PromiseInBounds,
        fill: None,
        wrap_negative: true,
    };
    for (i, &param) in names
        .iter()
        .enumerate()
        .take(args.fields.len())
        .skip(op.positional())
    {
        let value = args.literal(i);
        if value.is_some_and(ScalarValue::is_null) || *args.fields[i].data_type() == DataType::Null
        {
            continue;
        }
        match param {
            "mode" => {
                let Some(text) = value.and_then(string_literal) else {
                    return plan_err!(
                        "{name}: argument mode must be a literal string: 'promise_in_bounds', 'clip', 'drop', 'fill' or 'raise'"
                    );
                };
                options.mode = Mode::parse(text).ok_or_else(|| {
                    plan_datafusion_err!(
                        "{name}: unknown mode '{text}': expected 'promise_in_bounds', 'clip', 'drop', 'fill' or 'raise'"
                    )
                })?;
            }
            "fill_value" => {
                let Some(value) = value else {
                    return plan_err!("{name}: argument fill_value must be a literal");
                };
                options.fill = Some(value.clone());
            }
            _ => {
                let Some(ScalarValue::Boolean(Some(flag))) = value else {
                    return plan_err!("{name}: argument {param} must be a literal true or false");
                };
                if param == "wrap_negative_indices" {
                    options.wrap_negative = *flag;
                }
                // indices_are_sorted / unique_indices: promises that may only make a call
                // faster. The kernels apply occurrences in order whatever they promise, so a
                // false promise cannot change a result (SPEC §5).
            }
        }
    }
    Ok(options)
}

/// A literal index as an index expression: an integer, an integer list (an advanced index on
/// axis 0) or a list of `[m, k]` coordinate lists (m tuples into the first k axes).
fn literal_index(value: &ScalarValue) -> Option<IndexExpr> {
    if let Some(text) = string_literal(value) {
        return parse_index(text).ok();
    }
    if value.data_type().is_integer() {
        let v = value.cast_to(&DataType::Int64).ok()?;
        let ScalarValue::Int64(Some(v)) = v else {
            return None;
        };
        return Some(IndexExpr {
            items: vec![IndexItem::Int(v)],
        });
    }
    if let Some(values) = literal_int_list(value) {
        return Some(IndexExpr {
            items: vec![IndexItem::IntArray(IndexArray {
                shape: vec![values.len()],
                values,
            })],
        });
    }
    let rows = literal_int_lists(value)?;
    let k = rows.first().map_or(0, Vec::len);
    if rows.iter().any(|r| r.len() != k) || k == 0 {
        return None;
    }
    Some(IndexExpr {
        items: (0..k)
            .map(|i| {
                IndexItem::IntArray(IndexArray {
                    shape: vec![rows.len()],
                    values: rows.iter().map(|r| r[i]).collect(),
                })
            })
            .collect(),
    })
}

/// A literal list of integer lists.
fn literal_int_lists(value: &ScalarValue) -> Option<Vec<Vec<i64>>> {
    let ScalarValue::List(list) = value else {
        return None;
    };
    if list.len() != 1 || list.is_null(0) {
        return None;
    }
    let inner = list.value(0);
    (0..inner.len())
        .map(|i| {
            let row = ScalarValue::try_from_array(&inner, i).ok()?;
            literal_int_list(&row)
        })
        .collect()
}

/// A static index's offsets into `x` (with [`DROPPED`]), `x[idx]`'s shape, and the input axis
/// of each output axis.
type StaticParts = (Vec<usize>, Vec<usize>, Vec<Option<usize>>);

fn plan_static(
    op: AtOp,
    x: &TensorType,
    expr: &IndexExpr,
    rule: BoundsRule,
) -> Result<StaticParts> {
    let name = op.function_name();
    let shape = x.logical_shape();
    let selection = normalize_with(expr, &shape, &row_major_strides(&shape), rule)
        .map_err(|e| plan_datafusion_err!("{name}: {e}"))?;
    Ok((
        selection.offsets(),
        selection.shape.clone(),
        selection.source_axes.clone(),
    ))
}

/// `tensor_at_apply`'s argument `fn` given as a function name.
pub fn apply_by_name(args: &PlanArgs<'_>) -> Result<ApplyFn> {
    let name = AtOp::Apply.function_name();
    let Some(text) = args.literal(2).and_then(string_literal) else {
        return plan_err!(
            "{name}: argument fn must be a lambda (v -> ...) or a function name such as 'abs'"
        );
    };
    Ok(ApplyFn::Named(UnaryFn::parse(text).ok_or_else(|| {
        plan_datafusion_err!(
            "{name}: unknown function '{text}': expected a lambda or one of {}",
            UnaryFn::NAMES
        )
    })?))
}

/// Compiles a `tensor_at_*` call (`apply` given by the caller, which knows lambdas).
pub fn plan_at(args: &PlanArgs<'_>, op: AtOp, apply: Option<ApplyFn>) -> Result<AtPlan> {
    let name = op.function_name();
    let x = args.tensor(0, "x")?;
    let element = x.element_type().clone();
    let options = read_options(args, op)?;
    let rule = BoundsRule {
        wrap_negative: options.wrap_negative,
        out_of_bounds: options.mode.out_of_bounds(op),
    };
    let shape = x.logical_shape();
    let strides = row_major_strides(&shape);

    // JAX refuses arithmetic updates of booleans ("add does not accept dtype bool").
    if element == DataType::Boolean
        && matches!(
            op,
            AtOp::Add | AtOp::Subtract | AtOp::Multiply | AtOp::Divide | AtOp::Power
        )
    {
        return plan_err!(
            "{name}: {} does not accept dtype bool (x is a Boolean tensor)",
            op.verb()
        );
    }

    // y: its kind and the type the combination runs in.
    let (values, work, y_shape) = if op.has_y() {
        let field = &args.fields[2];
        if let Some(value) = args
            .literal(2)
            .filter(|_| !matches!(field.data_type(), DataType::FixedSizeList(..)))
        {
            if value.is_null() {
                (ValuesPlan::Literal(None), element.clone(), vec![])
            } else {
                if !(value.data_type().is_numeric() || value.data_type() == DataType::Boolean) {
                    return plan_err!(
                        "{name}: argument y must be a number, a numeric column or a tensor, got {}",
                        value.data_type()
                    );
                }
                // No silent wraparound: the literal must be exactly representable in x's type
                // (JAX casts it silently).
                let Some(cast) = cast_literal(value, &element) else {
                    return plan_err!(
                        "{name}: value {value} does not fit the tensor's element type {element}"
                    );
                };
                (ValuesPlan::Literal(Some(cast)), element.clone(), vec![])
            }
        } else if let Some(y) = super::tensor_of(field)? {
            let work = work_type(name, op, &element, y.element_type())?;
            let y_shape = y.logical_shape();
            (ValuesPlan::Tensor(y), work, y_shape)
        } else if field.data_type().is_numeric() || *field.data_type() == DataType::Boolean {
            let work = work_type(name, op, &element, field.data_type())?;
            (ValuesPlan::Column(field.data_type().clone()), work, vec![])
        } else if *field.data_type() == DataType::Null {
            (ValuesPlan::Literal(None), element.clone(), vec![])
        } else {
            return plan_err!(
                "{name}: argument y must be a number, a numeric column or a tensor, got {}",
                field.data_type()
            );
        }
    } else {
        (ValuesPlan::None, element.clone(), vec![])
    };

    if let Some(ApplyFn::Named(f)) = apply
        && !f.keeps_integers()
        && !matches!(
            element,
            DataType::Float16 | DataType::Float32 | DataType::Float64
        )
    {
        return plan_err!(
            "{name}: the function's result must have the tensor's element type {element}, but {f:?} of {element} gives a float"
        );
    }
    if let Some(ApplyFn::Named(f)) = apply
        && element == DataType::Boolean
        && !matches!(f, UnaryFn::Abs | UnaryFn::Square)
    {
        return plan_err!("{name}: {f:?} does not accept dtype bool (x is a Boolean tensor)");
    }

    let fill = if op == AtOp::Get {
        Some(match options.fill {
            Some(value) => cast_literal(&value, &element).ok_or_else(|| {
                plan_datafusion_err!(
                    "{name}: fill_value {value} does not fit the tensor's element type {element}"
                )
            })?,
            None => default_fill(&element)?,
        })
    } else {
        None
    };

    // The index.
    let idx_field = &args.fields[1];
    // A tensor index, literal or not, is read as a tensor (its shape says [m] or [m, k]).
    let tensor_index = matches!(idx_field.data_type(), DataType::FixedSizeList(..));
    let static_expr = match args.literal(1) {
        Some(value) if !value.is_null() && !tensor_index => Some(literal_index(value).map_or_else(
            || {
                if let Some(text) = string_literal(value) {
                    // Report the parse error itself.
                    return Err(match parse_index(text) {
                        Err(e) => plan_datafusion_err!("{name}: {e}"),
                        Ok(_) => plan_datafusion_err!("{name}: invalid index"),
                    });
                }
                plan_err!(
                    "{name}: argument idx must be an index string, an integer, a list of integers or a list of [m, k] coordinate lists, got {value}"
                )
            },
            Ok,
        )?),
        _ => None,
    };
    let (index, selected_shape, source_axes) = if let Some(expr) = static_expr {
        let (offsets, sel_shape, source_axes) = plan_static(op, &x, &expr, rule)?;
        let y_offsets = if op.has_y() {
            broadcast_values_offsets(name, &y_shape, &sel_shape)?
        } else {
            vec![0; offsets.len()]
        };
        let (targets, sources) = offsets
            .iter()
            .zip(&y_offsets)
            .filter(|(o, _)| **o != DROPPED)
            .map(|(&o, &y)| (o as u32, y as u32))
            .unzip();
        (
            IndexPlan::Static {
                offsets,
                targets,
                sources,
            },
            sel_shape,
            source_axes,
        )
    } else {
        if is_string(idx_field.data_type()) {
            return plan_err!(
                "{name}: argument idx must be a literal index string such as '[0, 0, 1]' (or an integer, list or tensor column)"
            );
        }
        plan_dynamic(name, op, &shape, &strides, idx_field, &y_shape)?
    };

    let output_element = if op == AtOp::Divide
        && !matches!(
            element,
            DataType::Float16 | DataType::Float32 | DataType::Float64
        ) {
        DataType::Float64
    } else {
        element.clone()
    };
    let output = if op == AtOp::Get {
        if selected_shape.is_empty() {
            None
        } else {
            let names = x.logical_dim_names().and_then(|names| {
                source_axes
                    .iter()
                    .map(|axis| axis.map(|a| names[a].clone()))
                    .collect::<Option<Vec<_>>>()
            });
            Some(TensorType::new(element.clone(), selected_shape)?.with_dim_names(names)?)
        }
    } else {
        Some(
            TensorType::new(output_element.clone(), shape.clone())?
                .with_dim_names(x.logical_dim_names())?,
        )
    };
    Ok(AtPlan {
        op,
        x,
        index,
        values,
        work,
        rule,
        mode: options.mode,
        fill,
        apply,
        output,
        output_element,
    })
}

/// The type `y` combines with `x` in: numpy's promotion (JAX promotes, then casts back).
fn work_type(name: &str, op: AtOp, x: &DataType, y: &DataType) -> Result<DataType> {
    if op == AtOp::Set {
        // Nothing is computed: y is cast to x's type (checked).
        return Ok(x.clone());
    }
    promote(x, y)
        .ok_or_else(|| plan_datafusion_err!("{name}: cannot combine {y} values with a {x} tensor"))
}

/// JAX's default fill for `get(mode='fill')`: NaN for floats, the minimum for signed integers,
/// the maximum for unsigned ones, true for booleans.
fn default_fill(element: &DataType) -> Result<ScalarValue> {
    Ok(match element {
        DataType::Float16 => ScalarValue::Float16(Some(half::f16::NAN)),
        DataType::Float32 => ScalarValue::Float32(Some(f32::NAN)),
        DataType::Float64 => ScalarValue::Float64(Some(f64::NAN)),
        DataType::Int8 => ScalarValue::Int8(Some(i8::MIN)),
        DataType::Int16 => ScalarValue::Int16(Some(i16::MIN)),
        DataType::Int32 => ScalarValue::Int32(Some(i32::MIN)),
        DataType::Int64 => ScalarValue::Int64(Some(i64::MIN)),
        DataType::UInt8 => ScalarValue::UInt8(Some(u8::MAX)),
        DataType::UInt16 => ScalarValue::UInt16(Some(u16::MAX)),
        DataType::UInt32 => ScalarValue::UInt32(Some(u32::MAX)),
        DataType::UInt64 => ScalarValue::UInt64(Some(u64::MAX)),
        DataType::Boolean => ScalarValue::Boolean(Some(true)),
        other => return internal_err!("no default fill value for {other}"),
    })
}

/// `x[idx]`'s shape for messages: `(m, ...)` with `m` the windows per row when fixed.
fn selected_text(lead: bool, m: Option<usize>, window: &[usize]) -> String {
    let mut parts: Vec<String> = Vec::new();
    if lead {
        parts.push(m.map_or_else(|| "m".to_string(), |m| m.to_string()));
    }
    parts.extend(window.iter().map(ToString::to_string));
    if parts.len() == 1 {
        format!("({},)", parts[0])
    } else {
        format!("({})", parts.join(", "))
    }
}

type IndexPlanParts = (IndexPlan, Vec<usize>, Vec<Option<usize>>);

fn plan_dynamic(
    name: &str,
    op: AtOp,
    shape: &[usize],
    strides: &[usize],
    field: &FieldRef,
    y_shape: &[usize],
) -> Result<IndexPlanParts> {
    let (kind, index, k, m) = if let Some(index) = super::tensor_of(field)? {
        if !index.element_type().is_integer() {
            return plan_err!(
                "{name}: an index tensor must hold integers, got {}",
                index.element_type()
            );
        }
        let ishape = index.logical_shape();
        match ishape.as_slice() {
            [m] => (DynamicKind::Tensor, Some(index), 1, Some(*m)),
            [m, k] => (DynamicKind::Tensor, Some(index.clone()), *k, Some(*m)),
            _ => {
                return plan_err!(
                    "{name}: an index tensor must be 1-d [m] (indices into axis 0) or 2-d [m, k] (coordinate tuples), got shape {}",
                    format_shape(&ishape)
                );
            }
        }
    } else {
        match field.data_type() {
            t if t.is_integer() => (DynamicKind::Integer, None, 1, Some(1)),
            DataType::List(item) | DataType::LargeList(item) if item.data_type().is_integer() => {
                if op == AtOp::Get {
                    return plan_err!(
                        "{name}: a list column index gives results of different shapes per row; use an index tensor column (fixed length) or a literal index"
                    );
                }
                (DynamicKind::List, None, 1, None)
            }
            DataType::Null => (DynamicKind::Integer, None, 1, Some(1)),
            other => {
                return plan_err!(
                    "{name}: argument idx must be an index string, an integer or list-of-integers column, or an integer tensor, got {other}"
                );
            }
        }
    };
    if k > shape.len() {
        return plan_err!(
            "{name}: too many indices for tensor: tensor is {}-dimensional, but {k} were indexed",
            shape.len()
        );
    }
    let window_shape = &shape[k..];
    let window: Vec<u32> = strided_offsets(window_shape, &strides[k..])
        .into_iter()
        .map(|o| o as u32)
        .collect();
    // x[idx]: the windows' axis (not for one integer per row), then the window.
    let lead = kind != DynamicKind::Integer;
    let mut selected: Vec<usize> = Vec::new();
    if lead {
        selected.push(m.unwrap_or(0));
    }
    selected.extend_from_slice(window_shape);
    let mut source_axes: Vec<Option<usize>> = if lead { vec![None] } else { vec![] };
    source_axes.extend((k..shape.len()).map(Some));

    // y against [windows, window...]: its trailing axes broadcast to the window; an axis over
    // the windows, if it has one, is 1 or the number of windows.
    let (y_window, y_step, y_windows) = if op.has_y() {
        let trailing = y_shape.len().min(window_shape.len());
        let y_trailing = &y_shape[y_shape.len() - trailing..];
        let extra = &y_shape[..y_shape.len() - trailing];
        let bad = || {
            plan_err!(
                "{name}: shape mismatch: value array of shape {} could not be broadcast to indexing result of shape {}",
                format_shape(y_shape),
                selected_text(lead, m, window_shape)
            )
        };
        if !crate::shape::broadcasts_to(y_trailing, window_shape) || extra.len() > usize::from(lead)
        {
            return bad();
        }
        let y_strides = row_major_strides(y_shape);
        let y_window: Vec<u32> = strided_offsets(
            window_shape,
            &broadcast_strides(
                y_trailing,
                &y_strides[y_shape.len() - trailing..],
                window_shape,
            ),
        )
        .into_iter()
        .map(|o| o as u32)
        .collect();
        match extra {
            [] | [1] => (y_window, 0, None),
            [n] => {
                if let Some(m) = m
                    && m != *n
                {
                    return bad();
                }
                (y_window, y_strides[0], Some(*n))
            }
            _ => return bad(),
        }
    } else {
        (vec![0; window.len()], 0, None)
    };
    Ok((
        IndexPlan::Dynamic {
            kind,
            index,
            k,
            m,
            window,
            y_window,
            y_step,
            y_windows,
        },
        selected,
        source_axes,
    ))
}

// ---------------------------------------------------------------------------------------
// Execution
// ---------------------------------------------------------------------------------------

/// Per-row window starts of a dynamic index (`m` per row, [`DROPPED`] where the rule drops or
/// the row is NULL), the number of windows per row, each row's own count (lists), and the
/// rows' NULLs with the index's.
fn window_starts(
    name: &str,
    plan: &AtPlan,
    idx: &ArrayRef,
    rows: usize,
    nulls: Option<&NullBuffer>,
) -> Result<(Windows, Option<NullBuffer>)> {
    let IndexPlan::Dynamic {
        kind, index, k, m, ..
    } = &plan.index
    else {
        return internal_err!("{name}: not a dynamic index");
    };
    let shape = plan.x.logical_shape();
    let strides = row_major_strides(&shape);
    let mut nulls = NullBuffer::union(nulls, idx.logical_nulls().as_ref());
    // (values, per-row start and count into them)
    let (values, spans): (ArrayRef, Vec<(usize, usize)>) = match kind {
        DynamicKind::Integer => (idx.clone(), (0..rows).map(|r| (r, 1)).collect()),
        DynamicKind::List => match idx.data_type() {
            DataType::List(_) => {
                let list = idx.as_list::<i32>();
                let offsets = list.value_offsets();
                (
                    list.values().clone(),
                    (0..rows)
                        .map(|r| (offsets[r] as usize, (offsets[r + 1] - offsets[r]) as usize))
                        .collect(),
                )
            }
            DataType::LargeList(_) => {
                let list = idx.as_list::<i64>();
                let offsets = list.value_offsets();
                (
                    list.values().clone(),
                    (0..rows)
                        .map(|r| (offsets[r] as usize, (offsets[r + 1] - offsets[r]) as usize))
                        .collect(),
                )
            }
            other => return exec_err!("{name}: expected a list index column, got {other}"),
        },
        DynamicKind::Tensor => {
            let Some(index) = index else {
                return internal_err!("{name}: index tensor type missing");
            };
            let list = tensor_array(name, idx)?;
            let n = index.size();
            (
                layout::row_major_values(index, list)?,
                (0..rows).map(|r| (r * n, n)).collect(),
            )
        }
    };
    // An index element that is NULL makes its row NULL.
    nulls = layout::null_rows_of_elements(nulls, &values, rows, |r| spans[r]);
    let values = cast_with_options(&values, &DataType::Int64, &strict_cast())?;
    let values = values.as_primitive::<Int64Type>().values();
    let windows = match m {
        Some(m) => *m,
        None => spans.iter().map(|s| s.1).max().unwrap_or(0),
    };
    let mut counts = if m.is_none() {
        Some(Vec::with_capacity(rows))
    } else {
        None
    };
    let mut starts = vec![DROPPED; rows * windows];
    for row in 0..rows {
        let (start, len) = spans[row];
        let count = len / *k.max(&1);
        if let Some(counts) = counts.as_mut() {
            counts.push(count);
        }
        if nulls.as_ref().is_some_and(|n| n.is_null(row)) {
            continue;
        }
        'windows: for j in 0..count {
            let mut offset = 0usize;
            for axis in 0..*k {
                let value = values[start + j * k + axis];
                match plan.rule.resolve(value, shape[axis]) {
                    Resolved::At(position) => offset += position * strides[axis],
                    Resolved::Dropped => continue 'windows,
                    Resolved::OutOfBounds => {
                        return exec_err!(
                            "{name}: index {value} is out of bounds for axis {axis} with size {} at row {row} of its batch",
                            shape[axis]
                        );
                    }
                }
            }
            starts[row * windows + j] = offset;
        }
    }
    Ok(((starts, windows, counts), nulls))
}

/// `y`'s values in the work type, per row (`None`: a literal).
fn values_array(
    name: &str,
    plan: &AtPlan,
    y: Option<&ArrayRef>,
) -> Result<Option<(ArrayRef, usize)>> {
    let Some(y) = y else { return Ok(None) };
    let (values, len) = match &plan.values {
        ValuesPlan::Tensor(t) => {
            let list = tensor_array(name, y)?;
            (layout::row_major_values(t, list)?, t.size())
        }
        ValuesPlan::Column(_) => (Arc::clone(y), 1),
        _ => return Ok(None),
    };
    let work = storage(&plan.work);
    let values = if *values.data_type() == DataType::Boolean && work == DataType::UInt8 {
        cast(&values, &DataType::UInt8)?
    } else {
        cast_with_options(&values, &work, &strict_cast()).map_err(|e| {
            exec_datafusion_err!("{name}: values of y do not fit {}: {e}", plan.work)
        })?
    };
    Ok(Some((values, len)))
}

/// Booleans are combined as bytes (false < true, so min/max hold).
fn storage(data_type: &DataType) -> DataType {
    if *data_type == DataType::Boolean {
        DataType::UInt8
    } else {
        data_type.clone()
    }
}

fn to_storage(values: &ArrayRef) -> Result<ArrayRef> {
    Ok(if *values.data_type() == DataType::Boolean {
        cast(values, &DataType::UInt8)?
    } else {
        Arc::clone(values)
    })
}

/// Runs a planned call over one batch: `arrays` are x, then idx when dynamic, then y when a
/// column.
pub fn invoke_at(
    plan: &AtPlan,
    args: &[ColumnarValue],
    number_rows: usize,
    lambda: Option<&Lambda<'_>>,
) -> Result<ColumnarValue> {
    let name = plan.op.function_name();
    if matches!(plan.values, ValuesPlan::Literal(None)) {
        // A NULL y: every row NULL.
        let field = match &plan.output {
            Some(t) => t.storage_type(),
            None => plan.output_element.clone(),
        };
        return Ok(ColumnarValue::Scalar(ScalarValue::try_from(&field)?));
    }
    let dynamic = matches!(plan.index, IndexPlan::Dynamic { .. });
    let y_column = matches!(plan.values, ValuesPlan::Column(_) | ValuesPlan::Tensor(_));
    let mut data = vec![0];
    if dynamic {
        data.push(1);
    }
    if y_column {
        data.push(2);
    }
    map_arrays(args, &data, number_rows, |arrays| {
        let x = tensor_array(name, &arrays[0])?;
        let rows = x.len();
        let mut nulls = x.logical_nulls();
        let y = if y_column { arrays.last() } else { None };
        if let Some(y) = y {
            nulls = NullBuffer::union(nulls.as_ref(), y.logical_nulls().as_ref());
        }
        let windows = if dynamic {
            let (windows, with_idx) = window_starts(name, plan, &arrays[1], rows, nulls.as_ref())?;
            nulls = with_idx;
            Some(windows)
        } else {
            None
        };
        let x_values = layout::row_major_values(&plan.x, x)?;
        let out = if plan.op == AtOp::Get {
            get(plan, &x_values, rows, windows.as_ref())?
        } else {
            let y_values = values_array(name, plan, y)?;
            if let (Some((_, _, Some(counts))), Some(n)) = (&windows, plan_y_windows(plan)) {
                for (row, &count) in counts.iter().enumerate() {
                    if count != n && count != 0 && nulls.as_ref().is_none_or(|n| n.is_valid(row)) {
                        return exec_err!(
                            "{name}: shape mismatch: value array with {n} rows could not be broadcast to the {count} indexed windows at row {row} of its batch"
                        );
                    }
                }
            }
            update(
                plan,
                &x_values,
                rows,
                nulls.as_ref(),
                windows.as_ref(),
                y_values.as_ref(),
                lambda,
            )?
        };
        Ok(layout::output_rows(plan.output.as_ref(), out, nulls, rows)?)
    })
}

fn plan_y_windows(plan: &AtPlan) -> Option<usize> {
    match &plan.index {
        IndexPlan::Dynamic { y_windows, .. } => *y_windows,
        IndexPlan::Static { .. } => None,
    }
}

/// A dynamic index's window starts (`m` per row, [`DROPPED`] where left out), `m`, and each
/// row's own number of windows (list columns).
type Windows = (Vec<usize>, usize, Option<Vec<usize>>);

/// A lambda over the selected elements of a round, given each element's row.
pub type Lambda<'a> = dyn Fn(ArrayRef, &[usize]) -> Result<ArrayRef> + 'a;

fn get(
    plan: &AtPlan,
    x_values: &ArrayRef,
    rows: usize,
    windows: Option<&Windows>,
) -> Result<ArrayRef> {
    let name = plan.op.function_name();
    let in_len = plan.x.size();
    let sources = match (&plan.index, windows) {
        (IndexPlan::Static { offsets, .. }, _) => Sources::Static(offsets),
        (IndexPlan::Dynamic { window, .. }, Some((starts, m, _))) => Sources::Windows {
            starts,
            m: *m,
            window,
        },
        _ => return internal_err!("{name}: dynamic index without windows"),
    };
    let fill = plan.fill.clone().unwrap_or(ScalarValue::Null);
    let fill = to_storage(&fill.to_array_of_size(1)?)?;
    let work = to_storage(x_values)?;
    let out = crate::with_primitive_type!(work.data_type(), P => {
        gather_typed::<P>(&work, &fill, in_len, rows, sources)
    }, _ => return exec_err!("{name}: unsupported element type {}", work.data_type()));
    // Element NULLs follow their elements (fills are valid).
    let out = if let Some(element_nulls) = x_values.logical_nulls() {
        let flags: ArrayRef = Arc::new(BooleanArray::new(element_nulls.inner().clone(), None));
        let flags = cast(&flags, &DataType::UInt8)?;
        let one: ArrayRef = Arc::new(arrow::array::UInt8Array::from(vec![1u8]));
        let valid =
            gather_typed::<arrow::datatypes::UInt8Type>(&flags, &one, in_len, rows, sources);
        let valid = valid.as_primitive::<arrow::datatypes::UInt8Type>();
        let valid = NullBuffer::new(BooleanBuffer::collect_bool(valid.len(), |i| {
            valid.value(i) != 0
        }));
        arrow::array::make_array(out.to_data().into_builder().nulls(Some(valid)).build()?)
    } else {
        out
    };
    from_storage(out, plan.x.element_type())
}

fn from_storage(values: ArrayRef, element: &DataType) -> Result<ArrayRef> {
    Ok(if *element == DataType::Boolean {
        cast(&values, &DataType::Boolean)?
    } else {
        values
    })
}

fn gather_typed<P: ArrowPrimitiveType>(
    values: &ArrayRef,
    fill: &ArrayRef,
    in_len: usize,
    rows: usize,
    sources: Sources<'_>,
) -> ArrayRef {
    let input = values.as_primitive::<P>().values();
    let fill = fill.as_primitive::<P>().value(0);
    let out = gather_filled(input, in_len, rows, sources, fill);
    Arc::new(PrimitiveArray::<P>::new(ScalarBuffer::from(out), None))
}

fn update(
    plan: &AtPlan,
    x_values: &ArrayRef,
    rows: usize,
    nulls: Option<&NullBuffer>,
    windows: Option<&Windows>,
    y: Option<&(ArrayRef, usize)>,
    lambda: Option<&Lambda<'_>>,
) -> Result<ArrayRef> {
    let name = plan.op.function_name();
    let in_len = plan.x.size();
    let targets = match (&plan.index, windows) {
        (
            IndexPlan::Static {
                targets, sources, ..
            },
            _,
        ) => Targets::Static { targets, sources },
        (
            IndexPlan::Dynamic {
                window,
                y_window,
                y_step,
                ..
            },
            Some((starts, m, _)),
        ) => Targets::Windows {
            starts,
            m: *m,
            window,
            y_window,
            y_step: *y_step,
        },
        _ => return internal_err!("{name}: dynamic index without windows"),
    };
    let skip = |row: usize| nulls.is_some_and(|n| n.is_null(row));

    if plan.apply == Some(ApplyFn::Lambda) {
        let Some(lambda) = lambda else {
            return internal_err!("{name}: lambda missing");
        };
        return apply_lambda(plan, x_values, rows, &skip, targets, lambda);
    }

    let x_storage = to_storage(x_values)?;
    let work_type = storage(&plan.work);
    let x_work = if *x_storage.data_type() == work_type {
        x_storage
    } else {
        cast(&x_storage, &work_type)?
    };
    let y_scalar = match &plan.values {
        ValuesPlan::Literal(Some(value)) => Some(to_storage(&value.to_array_of_size(1)?)?),
        _ => None,
    };
    // Element NULLs: x's stay; y's make their targets NULL (set) or keep them NULL. Known
    // before the values: a failure (overflow) in an element that ends NULL does not count.
    let valid = final_validity(plan, x_values, rows, &skip, targets, y);
    let run = |base: &ArrayRef, op: AtOp| -> Result<ArrayRef> {
        crate::with_primitive_type!(&work_type, P => {
            update_typed::<P>(name, base, rows, in_len, &skip, targets, y_scalar.as_ref(), y, op, plan.apply, valid.as_deref())
        }, _ => exec_err!("{name}: unsupported element type {work_type}"))
    };
    let x_type = storage(plan.x.element_type());
    let back = |values: ArrayRef| -> Result<ArrayRef> {
        if *values.data_type() == x_type {
            return Ok(values);
        }
        // Elements that end NULL may hold anything: the checked cast skips them.
        let values = with_validity(values, valid.as_deref())?;
        cast_with_options(&values, &x_type, &strict_cast()).map_err(|e| {
            exec_datafusion_err!(
                "{name}: the result does not fit the tensor's element type {}: {e}",
                plan.x.element_type()
            )
        })
    };
    let out = match plan.op {
        AtOp::Divide | AtOp::Power => {
            // JAX: x / (ones scatter-multiplied by y), x ** (the same): duplicate divisors and
            // exponents multiply, in the promoted type, cast back to x's type.
            let ones = crate::with_primitive_type!(&work_type, P => ones::<P>(rows * in_len),
                _ => return exec_err!("{name}: unsupported element type {work_type}"));
            let factors = back(run(&ones, AtOp::Multiply)?)?;
            let x_own = to_storage(x_values)?;
            if plan.op == AtOp::Divide
                && plan.output_element == DataType::Float64
                && x_type != DataType::Float64
            {
                // Integer true division gives Float64.
                let x64 = cast(&x_own, &DataType::Float64)?;
                let f64s = cast(&factors, &DataType::Float64)?;
                finish::<Float64Type>(name, &x64, &f64s, AtOp::Divide, valid.as_deref())?
            } else {
                crate::with_primitive_type!(&x_type, P => finish::<P>(name, &x_own, &factors, plan.op, valid.as_deref())?,
                    _ => return exec_err!("{name}: unsupported element type {x_type}"))
            }
        }
        op => back(run(&x_work, op)?)?,
    };
    let out = from_storage(out, &plan.output_element)?;
    with_validity(out, valid.as_deref())
}

/// `values` with element validity `valid` (none: as they are, without NULLs).
fn with_validity(values: ArrayRef, valid: Option<&[bool]>) -> Result<ArrayRef> {
    let Some(valid) = valid else {
        return Ok(values);
    };
    let nulls = NullBuffer::new(BooleanBuffer::from(valid));
    Ok(arrow::array::make_array(
        values.to_data().into_builder().nulls(Some(nulls)).build()?,
    ))
}

fn ones<P: ArrowPrimitiveType>(len: usize) -> ArrayRef
where
    P::Native: Element,
{
    Arc::new(PrimitiveArray::<P>::new(
        ScalarBuffer::from(vec![<P::Native as Element>::ONE; len]),
        None,
    ))
}

/// `x / factors` or `x ** factors`, elementwise (factors of 1 leave x as it is).
fn finish<P: ArrowPrimitiveType>(
    name: &str,
    x: &ArrayRef,
    factors: &ArrayRef,
    op: AtOp,
    valid: Option<&[bool]>,
) -> Result<ArrayRef>
where
    P::Native: Element,
{
    let xs = x.as_primitive::<P>().values();
    let fs = factors.as_primitive::<P>().values();
    let one = <P::Native as Element>::ONE;
    let mut out = Vec::with_capacity(xs.len());
    for (i, (&a, &f)) in xs.iter().zip(fs.iter()).enumerate() {
        if f == one || valid.is_some_and(|v| !v[i]) {
            // Unchanged, or ends NULL (whatever it holds).
            out.push(a);
            continue;
        }
        let v = if op == AtOp::Divide {
            P::Native::from_f64(a.to_f64() / f.to_f64())
        } else {
            match <P::Native as Element>::pow(a, f) {
                Some(v) => v,
                None if f < P::Native::default() => {
                    return exec_err!(
                        "{name}: Integers to negative integer powers are not allowed."
                    );
                }
                None => return exec_err!("{name}: integer overflow in power"),
            }
        };
        out.push(v);
    }
    Ok(Arc::new(PrimitiveArray::<P>::new(
        ScalarBuffer::from(out),
        None,
    )))
}

#[allow(clippy::too_many_arguments)]
fn update_typed<P: ArrowPrimitiveType>(
    name: &str,
    base: &ArrayRef,
    rows: usize,
    in_len: usize,
    skip: &dyn Fn(usize) -> bool,
    targets: Targets<'_>,
    y_scalar: Option<&ArrayRef>,
    y: Option<&(ArrayRef, usize)>,
    op: AtOp,
    apply: Option<ApplyFn>,
    valid: Option<&[bool]>,
) -> Result<ArrayRef>
where
    P::Native: Element,
{
    type N<P> = <P as ArrowPrimitiveType>::Native;
    let mut out = base.as_primitive::<P>().values().to_vec();
    let values = match (y_scalar, y) {
        (Some(s), _) => Values::Scalar(s.as_primitive::<P>().value(0)),
        (None, Some((values, len))) => Values::Rows {
            values: values.as_primitive::<P>().values(),
            len: *len,
        },
        // apply: no y.
        (None, None) => Values::Scalar(N::<P>::default()),
    };
    // One scatter per op; only the combination differs.
    macro_rules! scatter_with {
        ($combine:expr) => {
            scatter(
                &mut out, in_len, rows, skip, targets, values, $combine, valid,
            )
        };
    }
    let result = match (op, apply) {
        (AtOp::Set, _) => scatter_with!(|_, y| Some(y)),
        (AtOp::Add, _) => scatter_with!(N::<P>::add),
        (AtOp::Subtract, _) => scatter_with!(N::<P>::sub),
        (AtOp::Multiply | AtOp::Divide | AtOp::Power, _) => scatter_with!(N::<P>::mul),
        (AtOp::Min, _) => scatter_with!(|a, b| Some(<N<P> as Element>::min(a, b))),
        (AtOp::Max, _) => scatter_with!(|a, b| Some(<N<P> as Element>::max(a, b))),
        (AtOp::Apply, Some(ApplyFn::Named(f))) => scatter_with!(|a, _| f.apply(a)),
        _ => return internal_err!("{name}: no combination for this call"),
    };
    if let Err(FailedRow(row)) = result {
        return exec_err!(
            "{name}: integer overflow in {} at row {row} of its batch (JAX would wrap around)",
            P::DATA_TYPE
        );
    }
    Ok(Arc::new(PrimitiveArray::<P>::new(
        ScalarBuffer::from(out),
        None,
    )))
}

/// Element validity of an update's output, when `x` or `y` has element NULLs: x's NULLs stay,
/// other ops keep a target NULL where y is NULL, `set` gives a target y's validity.
fn final_validity(
    plan: &AtPlan,
    x_values: &ArrayRef,
    rows: usize,
    skip: &dyn Fn(usize) -> bool,
    targets: Targets<'_>,
    y: Option<&(ArrayRef, usize)>,
) -> Option<Vec<bool>> {
    let y_nulls = y.and_then(|(values, _)| values.logical_nulls());
    let x_nulls = x_values.logical_nulls();
    if x_nulls.is_none() && y_nulls.is_none() {
        return None;
    }
    let in_len = plan.x.size();
    let mut valid: Vec<bool> = match &x_nulls {
        Some(n) => n.iter().collect(),
        None => vec![true; x_values.len()],
    };
    let set = plan.op == AtOp::Set;
    let y_valid: Option<Vec<bool>> = y_nulls.map(|n| n.iter().collect());
    let values = match (&y_valid, y) {
        (Some(y_valid), Some((_, len))) => Values::Rows {
            values: y_valid,
            len: *len,
        },
        // `set` replaces the element, NULL or not, with a valid y.
        _ if set => Values::Scalar(true),
        _ => return Some(valid),
    };
    // Never fails.
    let _ = scatter(
        &mut valid,
        in_len,
        rows,
        skip,
        targets,
        values,
        |a, b| Some(if set { b } else { a && b }),
        None,
    );
    Some(valid)
}

/// `apply` with a lambda: the lambda runs over all the occurrences of a round at once; an
/// element named `c` times is in the first `c` rounds, so it is transformed `c` times.
fn apply_lambda(
    plan: &AtPlan,
    x_values: &ArrayRef,
    rows: usize,
    skip: &dyn Fn(usize) -> bool,
    targets: Targets<'_>,
    lambda: &Lambda<'_>,
) -> Result<ArrayRef> {
    let in_len = plan.x.size();
    // How many times each element of the batch is named.
    let mut counts = vec![0u32; rows * in_len];
    let _ = scatter(
        &mut counts,
        in_len,
        rows,
        skip,
        targets,
        Values::Scalar(0u32),
        |a, _| a.checked_add(1),
        None,
    );
    let mut out = Arc::clone(x_values);
    let mut round = 1u32;
    loop {
        let positions: Vec<u32> = counts
            .iter()
            .enumerate()
            .filter(|(_, c)| **c >= round)
            .map(|(i, _)| i as u32)
            .collect();
        if positions.is_empty() {
            break;
        }
        let indices = arrow::array::UInt32Array::from(positions.clone());
        let selected = arrow::compute::take(out.as_ref(), &indices, None)?;
        let row_of: Vec<usize> = positions
            .iter()
            .map(|&p| p as usize / in_len.max(1))
            .collect();
        let transformed = lambda(selected, &row_of)?;
        if transformed.data_type() != out.data_type() {
            return exec_err!(
                "{}: the lambda returned {}, not the tensor's element type {}",
                plan.op.function_name(),
                transformed.data_type(),
                out.data_type()
            );
        }
        // Put the transformed values back: interleave original and transformed.
        let mut from_transformed = vec![None; out.len()];
        for (k, &p) in positions.iter().enumerate() {
            from_transformed[p as usize] = Some(k);
        }
        let picks: Vec<(usize, usize)> = from_transformed
            .iter()
            .enumerate()
            .map(|(i, t)| t.map_or((0, i), |k| (1, k)))
            .collect();
        out = arrow::compute::interleave(&[out.as_ref(), transformed.as_ref()], &picks)?;
        round += 1;
    }
    Ok(out)
}

/// The documentation of each function.
pub fn documentation(op: AtOp) -> Documentation {
    let (description, example_call, example_out) = match op {
        AtOp::Set => (
            "JAX's x.at[idx].set(y): a copy of x with the elements idx names replaced by y (broadcast to x[idx]'s shape). Where idx names an element twice, the last occurrence in row-major order wins.",
            "tensor_at_set(tensor([1.0, 2.0, 3.0, 4.0, 5.0], [5]), '[0, 2]', 9.0)",
            "[9.0, 2.0, 9.0, 4.0, 5.0]",
        ),
        AtOp::Add => (
            "JAX's x.at[idx].add(y): a copy of x with y added at the elements idx names; every occurrence of a duplicate index adds (unlike numpy's x[idx] += y).",
            "tensor_at_add(tensor([1.0, 2.0, 3.0, 4.0, 5.0], [5]), '[0, 0, 1]', 1.0)",
            "[3.0, 3.0, 3.0, 4.0, 5.0]",
        ),
        AtOp::Subtract => (
            "JAX's x.at[idx].subtract(y): y subtracted at the elements idx names, every occurrence.",
            "tensor_at_subtract(tensor([1, 2, 3], [3]), '[0, 0]', 1)",
            "[-1, 2, 3]",
        ),
        AtOp::Multiply => (
            "JAX's x.at[idx].multiply(y): the elements idx names multiplied by y, every occurrence.",
            "tensor_at_multiply(tensor([1, 2, 3], [3]), '[1, 1]', 3)",
            "[1, 18, 3]",
        ),
        AtOp::Divide => (
            "JAX's x.at[idx].divide(y): the elements idx names divided by y (true division: an integer x gives Float64); duplicate divisors multiply.",
            "tensor_at_divide(tensor([4, 4, 4], [3]), '[0, 0]', 2)",
            "[1.0, 4.0, 4.0]",
        ),
        AtOp::Power => (
            "JAX's x.at[idx].power(y): the elements idx names raised to y; duplicate exponents multiply.",
            "tensor_at_power(tensor([2, 2, 2], [3]), '[0, 0]', 3)",
            "[512, 2, 2]",
        ),
        AtOp::Min => (
            "JAX's x.at[idx].min(y): the elements idx names replaced by the minimum of themselves and y (NaN propagates).",
            "tensor_at_min(tensor([1, 5, 3], [3]), '[1]', 2)",
            "[1, 2, 3]",
        ),
        AtOp::Max => (
            "JAX's x.at[idx].max(y): the elements idx names replaced by the maximum of themselves and y (NaN propagates).",
            "tensor_at_max(tensor([1, 5, 3], [3]), '[0]', 2)",
            "[2, 5, 3]",
        ),
        AtOp::Apply => (
            "JAX's x.at[idx].apply(fn) (numpy's ufunc.at): fn applied to the elements idx names, once per occurrence. fn is a lambda such as v -> v * 2 + 1 (the CLI and tensor_session_context parse lambdas), or one of 'negative', 'abs', 'square', 'sign', 'sqrt', 'exp', 'log', 'sin', 'cos', 'tan', 'tanh', 'floor', 'ceil', 'round'; its result must have x's element type. Options are positional: mode, wrap_negative_indices, indices_are_sorted, unique_indices.",
            "tensor_at_apply(tensor([1, 2, 3], [3]), '[0, 0]', v -> v * 2 + 1)",
            "[7, 2, 3]",
        ),
        AtOp::Get => (
            "JAX's x.at[idx].get(): x[idx], with JAX's out-of-bounds modes: by default an out-of-bounds index is clamped; mode => 'fill' returns fill_value there (default NaN, the minimum for signed integers, the maximum for unsigned, true).",
            "tensor_at_get(tensor([0.0, 1.0, 2.0, 3.0, 4.0], [5]), 20, mode => 'fill', fill_value => -1)",
            "-1.0",
        ),
    };
    let name = op.function_name();
    let syntax = match op {
        AtOp::Get => format!(
            "{name}(x, idx [, mode [, fill_value [, wrap_negative_indices [, indices_are_sorted [, unique_indices]]]]])"
        ),
        AtOp::Apply => format!(
            "{name}(x, idx, fn [, mode [, wrap_negative_indices [, indices_are_sorted [, unique_indices]]]])"
        ),
        _ => format!(
            "{name}(x, idx, y [, mode [, wrap_negative_indices [, indices_are_sorted [, unique_indices]]]])"
        ),
    };
    let mut builder = Documentation::builder(
        datafusion::logical_expr::DocSection {
            include: true,
            label: "Tensor Functions",
            description: None,
        },
        description,
        syntax,
    )
    .with_sql_example(format!("```sql\n> SELECT {example_call};\n{example_out}\n```"))
    .with_argument("x", "A tensor.")
    .with_argument(
        "idx",
        "A literal index string in numpy syntax ('[0, 0, 1]', ':, 1:3', '..., 0'), a literal integer, integer list or list of [m, k] coordinate lists; or per row: an integer column (axis 0), a list column of integers (axis 0), or an integer tensor [m] or [m, k] (coordinate tuples into the first k axes).",
    );
    if op.has_y() {
        builder = builder.with_argument(
            "y",
            "A number, numeric column or tensor, broadcast to the shape of x[idx]; a literal must fit x's element type.",
        );
    }
    if op == AtOp::Apply {
        builder = builder.with_argument("fn", "A lambda (v -> ...) or a function name.");
    }
    builder = builder.with_argument(
        "mode",
        "Out-of-bounds indices: 'promise_in_bounds' (default: updates drop them, get clamps), 'clip', 'drop', 'fill', or 'raise' (fail the query).",
    );
    if op == AtOp::Get {
        builder = builder.with_argument("fill_value", "What mode 'fill' returns out of bounds.");
    }
    builder
        .with_argument(
            "wrap_negative_indices",
            "true (default): negative indices count from the end, once; false: they are out of bounds.",
        )
        .with_argument(
            "indices_are_sorted",
            "A performance hint; results never depend on it.",
        )
        .with_argument("unique_indices", "A performance hint; results never depend on it.")
        .build()
}

/// A `tensor_at_*` scalar function (all but `apply`, which takes lambdas).
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct TensorAt {
    op: AtOp,
    signature: Signature,
    documentation: Documentation,
}

impl TensorAt {
    /// The registered instance of `op`.
    pub fn new(op: AtOp) -> Self {
        Self {
            op,
            signature: super::named_signature(op.parameter_names()),
            documentation: documentation(op),
        }
    }
}

impl TensorFunction for TensorAt {
    type Plan = AtPlan;

    fn name(&self) -> &'static str {
        self.op.function_name()
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn documentation(&self) -> Option<&Documentation> {
        Some(&self.documentation)
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        super::check_arity(
            self.name(),
            arg_types,
            self.op.positional(),
            self.op.parameter_names().len(),
        )?;
        Ok(arg_types.to_vec())
    }

    fn plan(&self, args: &PlanArgs<'_>) -> Result<AtPlan> {
        let apply = if self.op == AtOp::Apply {
            Some(apply_by_name(args)?)
        } else {
            None
        };
        plan_at(args, self.op, apply)
    }

    fn return_field(&self, plan: &AtPlan) -> FieldRef {
        match &plan.output {
            Some(tensor) => Arc::new(tensor.to_field(self.name())),
            None => Arc::new(Field::new(self.name(), plan.output_element.clone(), true)),
        }
    }

    fn invoke(
        &self,
        plan: &AtPlan,
        args: &[ColumnarValue],
        number_rows: usize,
    ) -> Result<ColumnarValue> {
        invoke_at(plan, args, number_rows, None)
    }
}
