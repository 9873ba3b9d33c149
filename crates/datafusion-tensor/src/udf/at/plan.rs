//! Planning a `tensor_at_*` call: the index compiled into a [`ScatterPlan`] (a static index
//! string or literal into its occurrences, an index column into a window), `y`'s kind and the
//! type the combination runs in, the output type. Done once per query.

use arrow::array::Array;
use arrow::datatypes::{DataType, FieldRef};
use datafusion::common::{ScalarValue, internal_err, plan_datafusion_err, plan_err};
use datafusion::error::Result;

use super::super::{PlanArgs, literal_int_list, tensor_of};
use super::options::{ApplyFn, AtOp, read_options};
use crate::dtype::{cast_literal, promote};
use crate::index::{
    BoundsRule, DynamicKind, IndexArray, IndexExpr, IndexItem, ScatterPlan, normalize_with,
    occurrences, parse_index, too_many_indices,
};
use crate::kernels::update::{Combine, UnaryFn};
use crate::limits::Limits;
use crate::shape::{
    assignment_mismatch, assignment_offsets, broadcast_strides, broadcasts_to, format_shape,
    row_major_strides, strided_offsets,
};
use crate::tensor_type::TensorType;
use crate::variable_shape::has_variable_shape_extension;

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
    pub index: ScatterPlan,
    /// `y`.
    pub values: ValuesPlan,
    /// The type the combination runs in (`y`'s promotion with `x`'s element type).
    pub work: DataType,
    /// Integer index handling.
    pub rule: BoundsRule,
    /// `get`'s fill value, in `x`'s type.
    pub fill: Option<ScalarValue>,
    /// How `y` (or `apply`'s function) combines into `x`.
    pub combine: Combine,
    /// The output tensor type; `None` for a 0-d get (a plain value).
    pub output: Option<TensorType>,
    /// The output element type.
    pub output_element: DataType,
    /// The shape of `x[idx]`, which `y` broadcasts into, for a literal index.
    pub y_target: Option<Vec<usize>>,
    /// The logical axis of `x` each axis of `x[idx]` comes from (`None`: the index's own).
    pub selected_axes: Vec<Option<usize>>,
}

/// axis 0) or a list of `[m, k]` coordinate lists (m tuples into the first k axes).
fn literal_index(value: &ScalarValue) -> Option<IndexExpr> {
    if let Some(text) = value.try_as_str().flatten() {
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

/// A static index's offsets into `x` (with [`crate::index::DROPPED`]), `x[idx]`'s shape, and the input axis
/// of each output axis.
type StaticParts = (Vec<usize>, Vec<usize>, Vec<Option<usize>>);

fn plan_static(
    op: AtOp,
    x: &TensorType,
    expr: &IndexExpr,
    rule: BoundsRule,
    limits: &Limits,
) -> Result<StaticParts> {
    let name = op.function_name();
    let shape = x.logical_shape();
    let selection = normalize_with(expr, &shape, &row_major_strides(&shape), rule, limits)
        .map_err(|e| plan_datafusion_err!("{name}: {e}"))?;
    Ok((
        selection.offsets(),
        selection.shape.clone(),
        selection.source_axes.clone(),
    ))
}

/// What a call plans the same way whatever the kind of `x`: from its options, `y` and `x`'s
/// element type.
struct Parts {
    rule: BoundsRule,
    combine: Combine,
    values: ValuesPlan,
    work: DataType,
    /// `y`'s shape (empty for scalars).
    y_shape: Vec<usize>,
    fill: Option<ScalarValue>,
    output_element: DataType,
}

fn plan_parts(
    args: &PlanArgs<'_>,
    op: AtOp,
    apply: Option<ApplyFn>,
    element: &DataType,
) -> Result<Parts> {
    let name = op.function_name();
    let options = read_options(args, op)?;
    let rule = BoundsRule {
        wrap_negative: options.wrap_negative,
        out_of_bounds: options.mode.out_of_bounds(op),
    };
    let combine = combination(name, op, apply, element)?;
    let (values, work, y_shape) = if op.has_y() {
        plan_values(args, op, element)?
    } else {
        (ValuesPlan::None, element.clone(), vec![])
    };
    let fill = if op == AtOp::Get {
        Some(match options.fill {
            Some(value) => cast_literal(&value, element).ok_or_else(|| {
                plan_datafusion_err!(
                    "{name}: fill_value {value} does not fit the tensor's element type {element}"
                )
            })?,
            None => default_fill(element)?,
        })
    } else {
        None
    };
    let output_element = if op == AtOp::Update(Combine::Divide) && !is_float(element) {
        DataType::Float64
    } else {
        element.clone()
    };
    Ok(Parts {
        rule,
        combine,
        values,
        work,
        y_shape,
        fill,
        output_element,
    })
}

/// Compiles a `tensor_at_*` call (`apply` given by the caller, which knows lambdas).
pub fn plan_at(args: &PlanArgs<'_>, op: AtOp, apply: Option<ApplyFn>) -> Result<AtPlan> {
    let x = args.tensor(0, "x")?;
    let element = x.element_type().clone();
    let parts = plan_parts(args, op, apply, &element)?;
    let (index, selected_shape, source_axes) =
        plan_index(args, op, &x, parts.rule, &parts.y_shape)?;
    let y_target = matches!(index, ScatterPlan::Static { .. }).then(|| selected_shape.clone());
    let output = if op == AtOp::Get {
        if selected_shape.is_empty() {
            None
        } else {
            Some(x.selection(element.clone(), selected_shape, &source_axes)?)
        }
    } else {
        Some(
            TensorType::new(parts.output_element.clone(), x.logical_shape())?
                .with_dim_names(x.logical_dim_names())?,
        )
    };
    Ok(AtPlan {
        op,
        x,
        index,
        values: parts.values,
        work: parts.work,
        rule: parts.rule,
        fill: parts.fill,
        combine: parts.combine,
        output,
        output_element: parts.output_element,
        y_target,
        selected_axes: source_axes,
    })
}

fn is_float(element: &DataType) -> bool {
    matches!(
        element,
        DataType::Float16 | DataType::Float32 | DataType::Float64
    )
}

/// How the call combines `y` into `x`, checked against `x`'s element type as JAX checks it.
fn combination(
    name: &str,
    op: AtOp,
    apply: Option<ApplyFn>,
    element: &DataType,
) -> Result<Combine> {
    // JAX refuses arithmetic updates of booleans ("add does not accept dtype bool").
    if *element == DataType::Boolean
        && matches!(
            op,
            AtOp::Update(
                Combine::Add
                    | Combine::Subtract
                    | Combine::Multiply
                    | Combine::Divide
                    | Combine::Power
            )
        )
    {
        return plan_err!(
            "{name}: {} does not accept dtype bool (x is a Boolean tensor)",
            op.verb()
        );
    }
    if let Some(ApplyFn::Named(f)) = apply {
        if !f.keeps_integers() && !is_float(element) {
            return plan_err!(
                "{name}: the function's result must have the tensor's element type {element}, but {f:?} of {element} gives a float"
            );
        }
        if *element == DataType::Boolean && !matches!(f, UnaryFn::Abs | UnaryFn::Square) {
            return plan_err!("{name}: {f:?} does not accept dtype bool (x is a Boolean tensor)");
        }
    }
    Ok(match op {
        // A get combines nothing; its plan is never run as an update.
        AtOp::Get => Combine::Set,
        AtOp::Update(combine) => combine,
        AtOp::Apply => match apply {
            Some(ApplyFn::Named(f)) => Combine::Apply(f),
            Some(ApplyFn::Lambda) => Combine::Lambda,
            None => return internal_err!("{name}: no function to apply"),
        },
    })
}

/// `y`: its kind, the type the combination runs in, and its shape (empty for scalars).
fn plan_values(
    args: &PlanArgs<'_>,
    op: AtOp,
    element: &DataType,
) -> Result<(ValuesPlan, DataType, Vec<usize>)> {
    let name = op.function_name();
    let field = &args.fields[2];
    let not_numeric = |data_type: &DataType| {
        plan_err!(
            "{name}: argument y must be a number, a numeric column or a tensor, got {data_type}"
        )
    };
    if let Some(value) = args
        .literal(2)
        .filter(|_| !matches!(field.data_type(), DataType::FixedSizeList(..)))
    {
        if value.is_null() {
            return Ok((ValuesPlan::Literal(None), element.clone(), vec![]));
        }
        if !(value.data_type().is_numeric() || value.data_type() == DataType::Boolean) {
            return not_numeric(&value.data_type());
        }
        // No silent wraparound: the literal must be exactly representable in x's type (JAX
        // casts it silently).
        let Some(cast) = cast_literal(value, element) else {
            return plan_err!(
                "{name}: value {value} does not fit the tensor's element type {element}"
            );
        };
        return Ok((ValuesPlan::Literal(Some(cast)), element.clone(), vec![]));
    }
    if has_variable_shape_extension(field) {
        return plan_err!(
            "{name}: argument y is a variable-shape tensor, which {name} does not take yet (y may be a number, a numeric column or a fixed-shape tensor)"
        );
    }
    if let Some(y) = tensor_of(field)? {
        let work = work_type(name, op, element, y.element_type())?;
        let y_shape = y.logical_shape();
        return Ok((ValuesPlan::Tensor(y), work, y_shape));
    }
    let data_type = field.data_type();
    if data_type.is_numeric() || *data_type == DataType::Boolean {
        let work = work_type(name, op, element, data_type)?;
        return Ok((ValuesPlan::Column(data_type.clone()), work, vec![]));
    }
    if *data_type == DataType::Null {
        return Ok((ValuesPlan::Literal(None), element.clone(), vec![]));
    }
    not_numeric(data_type)
}

/// A literal index argument as an index expression (`None`: a column, a tensor or NULL), or
/// the plan error saying why the literal is not an index.
pub(super) fn static_index(args: &PlanArgs<'_>, op: AtOp) -> Result<Option<IndexExpr>> {
    let name = op.function_name();
    // A tensor index, literal or not, is read as a tensor (its shape says [m] or [m, k]).
    let tensor_index = matches!(args.fields[1].data_type(), DataType::FixedSizeList(..));
    let Some(value) = args.literal(1).filter(|v| !v.is_null() && !tensor_index) else {
        return Ok(None);
    };
    if let Some(expr) = literal_index(value) {
        return Ok(Some(expr));
    }
    if let Some(text) = value.try_as_str().flatten() {
        // Report the parse error itself.
        return Err(match parse_index(text) {
            Err(e) => plan_datafusion_err!("{name}: {e}"),
            Ok(_) => plan_datafusion_err!("{name}: invalid index"),
        });
    }
    plan_err!(
        "{name}: argument idx must be an index string, an integer, a list of integers or a list of [m, k] coordinate lists, got {value}"
    )
}

/// The index: compiled occurrences for a literal, a window for a column; with `x[idx]`'s
/// shape and the input axis of each of its axes.
fn plan_index(
    args: &PlanArgs<'_>,
    op: AtOp,
    x: &TensorType,
    rule: BoundsRule,
    y_shape: &[usize],
) -> Result<ScatterPlanParts> {
    let name = op.function_name();
    let idx_field = &args.fields[1];
    let Some(expr) = static_index(args, op)? else {
        if idx_field.data_type().is_string() {
            return plan_err!(
                "{name}: argument idx must be a literal index string such as '[0, 0, 1]' (or an integer, list or tensor column)"
            );
        }
        return plan_dynamic(name, op, &x.logical_shape(), idx_field, y_shape);
    };
    let (offsets, selected_shape, source_axes) = plan_static(op, x, &expr, rule, &args.limits)?;
    let y_offsets = if op.has_y() {
        assignment_offsets(y_shape, &selected_shape).map_err(|e| e.in_function(name))?
    } else {
        vec![0; offsets.len()]
    };
    let (targets, sources) = occurrences(&offsets, &y_offsets);
    Ok((
        ScatterPlan::Static {
            offsets,
            targets,
            sources,
        },
        selected_shape,
        source_axes,
    ))
}

/// The type `y` combines with `x` in: numpy's promotion (JAX promotes, then casts back).
fn work_type(name: &str, op: AtOp, x: &DataType, y: &DataType) -> Result<DataType> {
    if op == AtOp::Update(Combine::Set) {
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

type ScatterPlanParts = (ScatterPlan, Vec<usize>, Vec<Option<usize>>);

fn plan_dynamic(
    name: &str,
    op: AtOp,
    shape: &[usize],
    field: &FieldRef,
    y_shape: &[usize],
) -> Result<ScatterPlanParts> {
    let strides = row_major_strides(shape);
    let (kind, index, k, m) = if let Some(index) = tensor_of(field)? {
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
        return Err(too_many_indices(shape.len(), k).in_function(name));
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

    let (y_window, y_step, y_windows) = if op.has_y() {
        plan_y_window(name, y_shape, window_shape, lead, m)?
    } else {
        (vec![0; window.len()], 0, None)
    };
    Ok((
        ScatterPlan::Dynamic {
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

/// `y` against `[windows, window...]`: its trailing axes broadcast to the window; an axis over
/// the windows, if it has one, is 1 or the number of windows (`m` when fixed). Returns `y`'s
/// offset for each window element, the step between windows and the length of `y`'s axis
/// over them when it is not 1.
fn plan_y_window(
    name: &str,
    y_shape: &[usize],
    window_shape: &[usize],
    lead: bool,
    m: Option<usize>,
) -> Result<(Vec<u32>, usize, Option<usize>)> {
    let trailing = y_shape.len().min(window_shape.len());
    let y_trailing = &y_shape[y_shape.len() - trailing..];
    let extra = &y_shape[..y_shape.len() - trailing];
    let bad = || {
        Err(assignment_mismatch(y_shape, &selected_text(lead, m, window_shape)).in_function(name))
    };
    if !broadcasts_to(y_trailing, window_shape) || extra.len() > usize::from(lead) {
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
        [] | [1] => Ok((y_window, 0, None)),
        [n] => {
            if let Some(m) = m
                && m != *n
            {
                return bad();
            }
            Ok((y_window, y_strides[0], Some(*n)))
        }
        _ => bad(),
    }
}
