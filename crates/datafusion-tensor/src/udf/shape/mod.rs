//! The shape functions (spec.md §9), numpy 2's: `tensor_transpose` / `tensor_permute_dims`,
//! `tensor_moveaxis`, `tensor_swapaxes`, `tensor_matrix_transpose` (transposes too),
//! `tensor_squeeze`, `tensor_expand_dims`, `tensor_broadcast_to`, `tensor_flatten` (`ravel`),
//! `tensor_flip`, and the manipulations `tensor_roll`, `_repeat`, `_tile`, `_take`, `_pad`,
//! `_tril`, `_triu` (`manipulate.rs` reads their arguments) on one tensor ([`TensorShapeOp`], one per [`ShapeFunction`]), and
//! `tensor_concatenate`, `tensor_stack` on several ([`TensorJoin`], `join.rs`), and
//! `tensor_split`, `tensor_array_split`, `tensor_unstack` into a struct of parts
//! ([`TensorSplit`], `split.rs`), and `tensor_broadcast_arrays`, `tensor_meshgrid` of several
//! into a struct of parts ([`TensorParts`], `broadcast.rs`).
//!
//! A transpose moves no values: the result is the input's values with a canonical
//! `permutation` composed into its type (spec.md §1: logical dimension `i` is physical dimension
//! `permutation[i]`), on fixed- and variable-shape tensors alike. The other functions compile
//! a [`ShapeOp`] into one gather per query (fixed shapes) or per row shape (variable shapes,
//! `variable.rs`) and write row-major results. `args.rs` reads the arguments; `docs.rs` holds
//! the documentation.

mod args;
mod broadcast;
mod docs;
mod join;
mod manipulate;
mod split;
mod variable;

use std::sync::Arc;

use arrow::array::{Array, ArrayRef};
use arrow::datatypes::{DataType, FieldRef};
use datafusion::common::{ScalarValue, plan_err};
use datafusion::error::Result;
use datafusion::logical_expr::{ColumnarValue, Documentation};

use self::args::{
    AxisArg, axis_arg, axis_mask, moveaxis_order, normalize_named_axis, target_shape,
    transpose_axes,
};
pub(crate) use self::args::{integer, is_omitted, normalize_axis};
pub use self::broadcast::{PartsFunction, TensorParts};
pub use self::join::{JoinCall, JoinFunction, TensorJoin};
pub use self::split::{SplitFunction, TensorSplit};
use super::{Parameters, PlanArgs, TensorFunction, map_arrays, tensor_array};
use crate::kernels::layout;
use crate::kernels::shape::{ShapeLayout, ShapeOp, apply_fixed};
use crate::limits::Limits;
use crate::tensor_type::TensorType;
use crate::variable_shape::{AnyTensorType, VariableShapeType};

/// The one-tensor shape functions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ShapeFunction {
    /// `tensor_transpose(x [, axes])`.
    Transpose,
    /// `tensor_permute_dims(x [, axes])`, numpy 2's name for the same.
    PermuteDims,
    /// `tensor_squeeze(x [, axis])`.
    Squeeze,
    /// `tensor_expand_dims(x, axis)`.
    ExpandDims,
    /// `tensor_broadcast_to(x, shape)`.
    BroadcastTo,
    /// `tensor_flatten(x)`: numpy's `ravel`.
    Flatten,
    /// `tensor_flip(x [, axis])`.
    Flip,
    /// `tensor_moveaxis(x, source, destination)`: a transpose.
    Moveaxis,
    /// `tensor_swapaxes(x, axis1, axis2)`: a transpose.
    Swapaxes,
    /// `tensor_matrix_transpose(x)`: the last two dimensions swapped.
    MatrixTranspose,
    /// `tensor_roll(x, shift [, axis])`.
    Roll,
    /// `tensor_repeat(x, repeats [, axis])`.
    Repeat,
    /// `tensor_tile(x, reps)`.
    Tile,
    /// `tensor_take(x, indices [, axis])`.
    Take,
    /// `tensor_pad(x, pad_width [, mode [, constant_values]])`.
    Pad,
    /// `tensor_tril(x [, k])`.
    Tril,
    /// `tensor_triu(x [, k])`.
    Triu,
}

impl ShapeFunction {
    /// Every function, in registration order.
    pub const ALL: [Self; 17] = [
        Self::Transpose,
        Self::PermuteDims,
        Self::Squeeze,
        Self::ExpandDims,
        Self::BroadcastTo,
        Self::Flatten,
        Self::Flip,
        Self::Moveaxis,
        Self::Swapaxes,
        Self::MatrixTranspose,
        Self::Roll,
        Self::Repeat,
        Self::Tile,
        Self::Take,
        Self::Pad,
        Self::Tril,
        Self::Triu,
    ];

    /// The SQL name.
    pub fn function_name(self) -> &'static str {
        match self {
            Self::Transpose => "tensor_transpose",
            Self::PermuteDims => "tensor_permute_dims",
            Self::Squeeze => "tensor_squeeze",
            Self::ExpandDims => "tensor_expand_dims",
            Self::BroadcastTo => "tensor_broadcast_to",
            Self::Flatten => "tensor_flatten",
            Self::Flip => "tensor_flip",
            Self::Moveaxis => "tensor_moveaxis",
            Self::Swapaxes => "tensor_swapaxes",
            Self::MatrixTranspose => "tensor_matrix_transpose",
            Self::Roll => "tensor_roll",
            Self::Repeat => "tensor_repeat",
            Self::Tile => "tensor_tile",
            Self::Take => "tensor_take",
            Self::Pad => "tensor_pad",
            Self::Tril => "tensor_tril",
            Self::Triu => "tensor_triu",
        }
    }

    /// The parameters: names in order, and how many are required.
    fn parameters(self) -> Parameters {
        let (names, required): (&'static [&'static str], usize) = match self {
            Self::Transpose | Self::PermuteDims => (&["x", "axes"], 1),
            Self::Squeeze | Self::Flip => (&["x", "axis"], 1),
            Self::ExpandDims => (&["x", "axis"], 2),
            Self::BroadcastTo => (&["x", "shape"], 2),
            Self::Flatten | Self::MatrixTranspose => (&["x"], 1),
            Self::Moveaxis => (&["x", "source", "destination"], 3),
            Self::Swapaxes => (&["x", "axis1", "axis2"], 3),
            Self::Roll => (&["x", "shift", "axis"], 2),
            Self::Repeat => (&["x", "repeats", "axis"], 2),
            Self::Tile => (&["x", "reps"], 2),
            Self::Take => (&["x", "indices", "axis"], 2),
            Self::Pad => (&["x", "pad_width", "mode", "constant_values"], 2),
            Self::Tril | Self::Triu => (&["x", "k"], 1),
        };
        Parameters::Fixed { names, required }
    }
}

/// A one-tensor shape function.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct TensorShapeOp {
    function: ShapeFunction,
    documentation: Documentation,
}

impl TensorShapeOp {
    /// The registered instance of `function`.
    pub fn new(function: ShapeFunction) -> Self {
        Self {
            function,
            documentation: docs::documentation(function),
        }
    }
}

/// A compiled call.
#[derive(Debug, PartialEq, Eq, Hash)]
pub enum ShapeCall {
    /// A transpose: the same values in a new type (a composed permutation).
    Relabel {
        /// The input's type.
        input: AnyTensorType,
        /// The result's type.
        output: AnyTensorType,
    },
    /// A fixed-shape input: one layout for every row.
    Fixed {
        /// The input's type.
        input: TensorType,
        /// The op compiled for its logical shape.
        layout: ShapeLayout,
        /// The result's type (row-major).
        output: TensorType,
        /// The value of the layout's filled positions (pad's constant, the triangles' zero).
        fill: Option<ScalarValue>,
    },
    /// A variable-shape input: the op applied to each row in its own shape.
    Variable(variable::VariablePlan),
}

impl TensorFunction for TensorShapeOp {
    type Plan = ShapeCall;

    fn name(&self) -> &'static str {
        self.function.function_name()
    }

    fn parameters(&self) -> Parameters {
        self.function.parameters()
    }

    fn documentation(&self) -> Option<&Documentation> {
        Some(&self.documentation)
    }

    fn tensor_arguments(&self, _arg_types: &[DataType]) -> Vec<usize> {
        vec![0]
    }

    fn plan(&self, args: &PlanArgs<'_>) -> Result<ShapeCall> {
        let input = args.any_tensor(0, "x")?;
        let name = args.name;
        let ndim = match &input {
            AnyTensorType::Fixed(t) => t.ndim(),
            AnyTensorType::Variable(t) => t.ndim(),
        };
        let known = match &input {
            AnyTensorType::Fixed(t) => t.logical_shape().into_iter().map(Some).collect(),
            AnyTensorType::Variable(t) => t.logical_uniform_shape(),
        };
        let mut fill = None;
        let op = match self.function {
            ShapeFunction::Roll
            | ShapeFunction::Repeat
            | ShapeFunction::Tile
            | ShapeFunction::Take
            | ShapeFunction::Pad
            | ShapeFunction::Tril
            | ShapeFunction::Triu => {
                let element = match &input {
                    AnyTensorType::Fixed(t) => t.element_type().clone(),
                    AnyTensorType::Variable(t) => t.element_type().clone(),
                };
                let (m, f) = manipulate::manipulation(self.function, args, ndim, &element)?;
                fill = f;
                ShapeOp::Manipulate(m)
            }
            ShapeFunction::Transpose | ShapeFunction::PermuteDims => {
                let axes = transpose_axes(name, &axis_arg(args, 1, "axes", true)?, ndim)?;
                return relabel(input, &axes);
            }
            ShapeFunction::Moveaxis => {
                let source = axis_arg(args, 1, "source", true)?.as_list();
                let destination = axis_arg(args, 2, "destination", true)?.as_list();
                let (Some(source), Some(destination)) = (source, destination) else {
                    return plan_err!(
                        "{name}: arguments source and destination must be integers or lists of integers, not NULL"
                    );
                };
                return relabel(input, &moveaxis_order(name, &source, &destination, ndim)?);
            }
            ShapeFunction::Swapaxes => {
                let mut axes: Vec<usize> = (0..ndim).collect();
                let pick = |i: usize, arg: &str| -> Result<usize> {
                    match axis_arg(args, i, arg, false)? {
                        AxisArg::One(axis) => normalize_named_axis(name, arg, axis, ndim),
                        _ => plan_err!("{name}: argument {arg} must be a literal integer"),
                    }
                };
                let (a, b) = (pick(1, "axis1")?, pick(2, "axis2")?);
                axes.swap(a, b);
                return relabel(input, &axes);
            }
            ShapeFunction::MatrixTranspose => {
                if ndim < 2 {
                    return plan_err!(
                        "{name}: Input array must be at least 2-dimensional, but it is {ndim}"
                    );
                }
                let mut axes: Vec<usize> = (0..ndim).collect();
                axes.swap(ndim - 2, ndim - 1);
                return relabel(input, &axes);
            }
            ShapeFunction::Squeeze => {
                let removed = match axis_arg(args, 1, "axis", true)? {
                    // numpy squeezes a 0-d array along an integer axis 0 or -1 (to itself).
                    AxisArg::One(0 | -1) if ndim == 0 => vec![],
                    axis => match axis.as_list() {
                        Some(axes) => axis_mask(name, &axes, ndim, "duplicate value in 'axis'")?,
                        None => squeezable(name, &known)?,
                    },
                };
                // A dimension known to differ from 1 in every row fails for every row.
                if known
                    .iter()
                    .zip(&removed)
                    .any(|(d, &r)| r && d.is_some_and(|d| d != 1))
                {
                    return plan_err!(
                        "{name}: cannot select an axis to squeeze out which has size not equal to one"
                    );
                }
                ShapeOp::Squeeze(removed)
            }
            ShapeFunction::ExpandDims => {
                let Some(axes) = axis_arg(args, 1, "axis", true)?.as_list() else {
                    return plan_err!(
                        "{name}: argument axis must be an integer or a list of integers, not NULL"
                    );
                };
                ShapeOp::ExpandDims(axis_mask(name, &axes, ndim + axes.len(), "repeated axis")?)
            }
            ShapeFunction::BroadcastTo => ShapeOp::BroadcastTo(target_shape(args, 1)?),
            ShapeFunction::Flatten => ShapeOp::Flatten,
            ShapeFunction::Flip => ShapeOp::Flip(match axis_arg(args, 1, "axis", true)? {
                AxisArg::Omitted => vec![true; ndim],
                AxisArg::One(axis) => {
                    let mut mask = vec![false; ndim];
                    mask[normalize_axis(name, axis, ndim)?] = true;
                    mask
                }
                AxisArg::List(axes) => axis_mask(name, &axes, ndim, "repeated axis")?,
            }),
        };
        match input {
            AnyTensorType::Fixed(input) => plan_fixed(name, input, &op, &args.limits, fill),
            AnyTensorType::Variable(input) => {
                variable::plan(name, input, op, &known, args.limits, fill).map(ShapeCall::Variable)
            }
        }
    }

    fn return_field(&self, plan: &ShapeCall) -> FieldRef {
        Arc::new(match plan {
            ShapeCall::Relabel { output, .. } => output.to_field(self.name()),
            ShapeCall::Fixed { output, .. } => output.to_field(self.name()),
            ShapeCall::Variable(plan) => plan.output.to_field(self.name()),
        })
    }

    fn invoke(
        &self,
        plan: &ShapeCall,
        args: &[ColumnarValue],
        number_rows: usize,
    ) -> Result<ColumnarValue> {
        let name = self.name();
        map_arrays(args, &[0], number_rows, |arrays| {
            run_call(name, plan, &arrays[0])
        })
    }
}

/// Runs a compiled call on one batch of x.
fn run_call(name: &str, plan: &ShapeCall, array: &ArrayRef) -> Result<ArrayRef> {
    match plan {
        ShapeCall::Relabel { input, output } => relabel_batch(name, input, output, array),
        ShapeCall::Fixed {
            input,
            layout: shape_layout,
            output,
            fill,
        } => {
            let list = tensor_array(name, array)?;
            let fill = fill.as_ref().map(ScalarValue::to_array).transpose()?;
            let values = apply_fixed(
                list.values(),
                list.len(),
                input.size(),
                shape_layout,
                fill.as_ref(),
            )
            .map_err(|e| e.in_function(name))?;
            let out = layout::tensor_array(output, values, list.nulls().cloned(), list.len())?;
            Ok(Arc::new(out) as ArrayRef)
        }
        ShapeCall::Variable(plan) => variable::invoke(name, plan, array),
    }
}

/// numpy's `squeeze()` without an axis: every dimension of length 1, which must be known
/// when the query is planned (a variable-shape result has one number of dimensions).
fn squeezable(name: &str, known: &[Option<usize>]) -> Result<Vec<bool>> {
    if let Some(axis) = known.iter().position(Option::is_none) {
        return plan_err!(
            "{name}: without an axis, which dimensions have length 1 must be known when the query is planned, but dimension {axis} of this variable-shape tensor varies by row (its uniform_shape does not fix it); give axis"
        );
    }
    Ok(known.iter().map(|&d| d == Some(1)).collect())
}

/// A transpose: no value moves. Logical dimension `k` of the result is logical dimension
/// `axes[k]` of the input, i.e. physical dimension `permutation[axes[k]]`; shape, dim names
/// (which name physical dims) and uniform shape stay as stored.
fn relabel(input: AnyTensorType, axes: &[usize]) -> Result<ShapeCall> {
    let compose = |permutation: Option<&[usize]>| -> Vec<usize> {
        axes.iter()
            .map(|&a| permutation.map_or(a, |p| p[a]))
            .collect()
    };
    let output = match &input {
        AnyTensorType::Fixed(t) => {
            AnyTensorType::Fixed(t.clone().with_permutation(Some(compose(t.permutation())))?)
        }
        AnyTensorType::Variable(t) => {
            AnyTensorType::Variable(t.clone().with_permutation(Some(compose(t.permutation())))?)
        }
    };
    Ok(ShapeCall::Relabel { input, output })
}

/// A transposed batch: the input's storage, rebuilt with the result's field types (the input
/// may name its child fields otherwise).
fn relabel_batch(
    name: &str,
    input: &AnyTensorType,
    output: &AnyTensorType,
    array: &ArrayRef,
) -> Result<ArrayRef> {
    match (input, output) {
        (AnyTensorType::Fixed(_), AnyTensorType::Fixed(output)) => {
            let list = tensor_array(name, array)?;
            let out = layout::tensor_array(
                output,
                Arc::clone(list.values()),
                list.nulls().cloned(),
                list.len(),
            )?;
            Ok(Arc::new(out))
        }
        (AnyTensorType::Variable(input), AnyTensorType::Variable(output)) => {
            variable::relabel(name, input, output, array)
        }
        _ => datafusion::common::internal_err!("{name}: a transpose keeps the kind of tensor"),
    }
}

/// The plan of `op` on fixed-shape tensors of type `input`: compiled once for its shape.
fn plan_fixed(
    name: &str,
    input: TensorType,
    op: &ShapeOp,
    limits: &Limits,
    fill: Option<ScalarValue>,
) -> Result<ShapeCall> {
    let shape = input.logical_shape();
    let layout = match op.layout(&shape, &input.logical_strides(), limits) {
        Ok(layout) => layout,
        Err(message) => return plan_err!("{name}: {message}"),
    };
    let output = input.selection(
        input.element_type().clone(),
        layout.shape.clone(),
        &op.sources(shape.len()),
    )?;
    Ok(ShapeCall::Fixed {
        input,
        layout,
        output,
        fill,
    })
}

/// The variable-shape type of a result of `ndim` dimensions whose dims are `known` where the
/// query fixes them, named `names`; a fixed-shape type when every dim is known.
pub(crate) fn result_type(
    element: DataType,
    known: Vec<Option<usize>>,
    names: Option<Vec<String>>,
) -> Result<AnyTensorType> {
    Ok(
        match known.iter().copied().collect::<Option<Vec<usize>>>() {
            Some(shape) => {
                AnyTensorType::Fixed(TensorType::new(element, shape)?.with_dim_names(names)?)
            }
            None => AnyTensorType::Variable(
                VariableShapeType::new(element, known.len())?
                    .with_dim_names(names)?
                    .with_uniform_shape(Some(known))?,
            ),
        },
    )
}
