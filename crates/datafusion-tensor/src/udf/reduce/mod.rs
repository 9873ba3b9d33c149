//! Reductions along axes (spec.md §9): `tensor_sum`, `tensor_prod`, `tensor_mean`, `tensor_min`,
//! `tensor_max`, `tensor_argmin`, `tensor_argmax`, `tensor_any`, `tensor_all`, `tensor_var`,
//! `tensor_std` (`x [, axis [, keepdims [, ddof]]]`), numpy's NaN-aware `tensor_nansum` ...
//! `tensor_nanstd` and `tensor_ptp`, and `tensor_cumsum`, `tensor_cumprod` (`x [, axis]`),
//! numpy 2's, and the array API standard's `tensor_sort`, `tensor_argsort` (`x [, axis [,
//! descending [, stable]]]`, along one axis), on fixed- and variable-shape tensors.
//!
//! One [`TensorReduce`] per function ([`ReduceFunction`]); `args.rs` reads the options and
//! checks the axes, `variable.rs` plans and runs the variable-shape case, `docs.rs` holds
//! the documentation. The element loops are [`crate::kernels::reduce`]'s.

mod args;
mod docs;
mod extras;
mod variable;

use std::sync::Arc;

use arrow::array::{Array, ArrayRef};
use arrow::datatypes::{DataType, Field, FieldRef};
use datafusion::common::plan_err;
use datafusion::error::Result;
use datafusion::logical_expr::{ColumnarValue, Documentation};

use self::args::{Options, reduced_axes, result_dims};
use self::extras::{PlanExtras, XRows};
use super::{Parameters, PlanArgs, TensorFunction, map_arrays, tensor_array};
use crate::index::wrap_index;
use crate::kernels::layout;
use crate::kernels::reduce::cumulative::{Span, Spans, cumulate};
use crate::kernels::reduce::{
    Extras, NormOrd, ReduceLayout, Reduction, Rows, reduce_with, sum_type,
};
use crate::kernels::sort::{SortOp, sort};
use crate::tensor_type::TensorType;
use crate::variable_shape::{AnyTensorType, VariableShapeType};

/// The SQL functions of this family: the kernel's reductions (`tensor_var` and `tensor_std`
/// registered with `ddof` 0, which a call's `ddof` replaces) and the cumulative sum and
/// product.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReduceFunction {
    /// `tensor_sum` ... `tensor_std`: a reduction along axes.
    Reduce(Reduction),
    /// `tensor_cumsum`.
    CumSum,
    /// `tensor_cumprod`.
    CumProd,
    /// `tensor_cumulative_sum`: the array API standard's, with `include_initial`.
    CumulativeSum,
    /// `tensor_cumulative_prod`.
    CumulativeProd,
    /// `tensor_sort`: the values sorted along one axis.
    Sort,
    /// `tensor_argsort`: the indices that sort along one axis.
    ArgSort,
}

impl ReduceFunction {
    /// Every function, in registration order.
    pub const ALL: [Self; 29] = [
        Self::Reduce(Reduction::Sum),
        Self::Reduce(Reduction::Prod),
        Self::Reduce(Reduction::Mean),
        Self::Reduce(Reduction::Min),
        Self::Reduce(Reduction::Max),
        Self::Reduce(Reduction::ArgMin),
        Self::Reduce(Reduction::ArgMax),
        Self::Reduce(Reduction::Any),
        Self::Reduce(Reduction::All),
        Self::Reduce(Reduction::Var { ddof: 0 }),
        Self::Reduce(Reduction::Std { ddof: 0 }),
        Self::CumSum,
        Self::CumProd,
        Self::CumulativeSum,
        Self::CumulativeProd,
        Self::Reduce(Reduction::NanSum),
        Self::Reduce(Reduction::NanProd),
        Self::Reduce(Reduction::NanMean),
        Self::Reduce(Reduction::NanMin),
        Self::Reduce(Reduction::NanMax),
        Self::Reduce(Reduction::NanArgMin),
        Self::Reduce(Reduction::NanArgMax),
        Self::Reduce(Reduction::NanVar { ddof: 0 }),
        Self::Reduce(Reduction::NanStd { ddof: 0 }),
        Self::Reduce(Reduction::Ptp),
        Self::Reduce(Reduction::CountNonzero),
        Self::Reduce(Reduction::VectorNorm { ord: NormOrd::Two }),
        Self::Sort,
        Self::ArgSort,
    ];

    /// The SQL name.
    pub fn function_name(self) -> &'static str {
        match self {
            Self::Reduce(Reduction::Sum) => "tensor_sum",
            Self::Reduce(Reduction::Prod) => "tensor_prod",
            Self::Reduce(Reduction::Mean) => "tensor_mean",
            Self::Reduce(Reduction::Min) => "tensor_min",
            Self::Reduce(Reduction::Max) => "tensor_max",
            Self::Reduce(Reduction::ArgMin) => "tensor_argmin",
            Self::Reduce(Reduction::ArgMax) => "tensor_argmax",
            Self::Reduce(Reduction::Any) => "tensor_any",
            Self::Reduce(Reduction::All) => "tensor_all",
            Self::Reduce(Reduction::Var { .. }) => "tensor_var",
            Self::Reduce(Reduction::Std { .. }) => "tensor_std",
            Self::CumSum => "tensor_cumsum",
            Self::CumProd => "tensor_cumprod",
            Self::CumulativeSum => "tensor_cumulative_sum",
            Self::CumulativeProd => "tensor_cumulative_prod",
            Self::Sort => "tensor_sort",
            Self::ArgSort => "tensor_argsort",
            Self::Reduce(Reduction::NanSum) => "tensor_nansum",
            Self::Reduce(Reduction::NanProd) => "tensor_nanprod",
            Self::Reduce(Reduction::NanMean) => "tensor_nanmean",
            Self::Reduce(Reduction::NanMin) => "tensor_nanmin",
            Self::Reduce(Reduction::NanMax) => "tensor_nanmax",
            Self::Reduce(Reduction::NanArgMin) => "tensor_nanargmin",
            Self::Reduce(Reduction::NanArgMax) => "tensor_nanargmax",
            Self::Reduce(Reduction::NanVar { .. }) => "tensor_nanvar",
            Self::Reduce(Reduction::NanStd { .. }) => "tensor_nanstd",
            Self::Reduce(Reduction::Ptp) => "tensor_ptp",
            Self::Reduce(Reduction::CountNonzero) => "tensor_count_nonzero",
            Self::Reduce(Reduction::VectorNorm { .. }) => "tensor_vector_norm",
        }
    }

    /// The parameter names, in order.
    ///
    /// numpy's `dtype`, `initial` and `where` come after the options these functions had
    /// first, so that a call by position keeps its meaning.
    pub fn parameter_names(self) -> &'static [&'static str] {
        match self {
            // numpy's `ddof`, and the array API standard's name for it, `correction`.
            _ if self.takes_ddof() => &["x", "axis", "keepdims", "ddof", "correction", "where"],
            // The standard's `linalg.vector_norm(x, /, *, axis=None, keepdims=False, ord=2)`.
            Self::Reduce(Reduction::VectorNorm { .. }) => &["x", "axis", "keepdims", "ord"],
            Self::CumSum | Self::CumProd => &["x", "axis", "dtype"],
            // The standard's `cumulative_sum(x, /, *, axis=None, dtype=None,
            // include_initial=False)`.
            Self::CumulativeSum | Self::CumulativeProd => {
                &["x", "axis", "include_initial", "dtype"]
            }
            // The array API standard's `sort(x, /, *, axis=-1, descending=False, stable=True)`.
            Self::Sort | Self::ArgSort => &["x", "axis", "descending", "stable"],
            // numpy's `sum(a, axis, dtype, out, keepdims, initial, where)`.
            Self::Reduce(
                Reduction::Sum | Reduction::Prod | Reduction::NanSum | Reduction::NanProd,
            ) => &["x", "axis", "keepdims", "dtype", "initial", "where"],
            Self::Reduce(
                Reduction::Min | Reduction::Max | Reduction::NanMin | Reduction::NanMax,
            ) => &["x", "axis", "keepdims", "initial", "where"],
            Self::Reduce(
                Reduction::Mean | Reduction::NanMean | Reduction::Any | Reduction::All,
            ) => &["x", "axis", "keepdims", "where"],
            Self::Reduce(_) => &["x", "axis", "keepdims"],
        }
    }

    /// Whether `axis` is one integer at most (numpy's `argmin`, `argmax`, `cumsum`, `cumprod`).
    fn single_axis(self) -> bool {
        matches!(
            self,
            Self::Reduce(
                Reduction::ArgMin | Reduction::ArgMax | Reduction::NanArgMin | Reduction::NanArgMax
            ) | Self::CumSum
                | Self::CumProd
                | Self::CumulativeSum
                | Self::CumulativeProd
                | Self::Sort
                | Self::ArgSort
        )
    }

    pub(super) fn takes_keepdims(self) -> bool {
        !self.cumulative() && !matches!(self, Self::Sort | Self::ArgSort)
    }

    /// numpy's `cumsum`, `cumprod` or the standard's `cumulative_sum`, `cumulative_prod`.
    pub(super) fn cumulative(self) -> bool {
        matches!(
            self,
            Self::CumSum | Self::CumProd | Self::CumulativeSum | Self::CumulativeProd
        )
    }

    pub(super) fn takes_ddof(self) -> bool {
        matches!(
            self,
            Self::Reduce(
                Reduction::Var { .. }
                    | Reduction::Std { .. }
                    | Reduction::NanVar { .. }
                    | Reduction::NanStd { .. }
            )
        )
    }

    /// The kernel's reduction, with the call's `ddof` and `ord` (`None` for the cumulative
    /// functions and the sorts).
    fn reduction(self, options: &Options) -> Option<Reduction> {
        let ddof = options.ddof;
        match self {
            // numpy's add and multiply of booleans are logical_or and logical_and.
            Self::Reduce(Reduction::Sum | Reduction::NanSum)
                if options.dtype == Some(DataType::Boolean) =>
            {
                Some(Reduction::Any)
            }
            Self::Reduce(Reduction::Prod | Reduction::NanProd)
                if options.dtype == Some(DataType::Boolean) =>
            {
                Some(Reduction::All)
            }
            Self::Reduce(Reduction::VectorNorm { .. }) => {
                Some(Reduction::VectorNorm { ord: options.ord })
            }
            Self::Reduce(Reduction::Var { .. }) => Some(Reduction::Var { ddof }),
            Self::Reduce(Reduction::Std { .. }) => Some(Reduction::Std { ddof }),
            Self::Reduce(Reduction::NanVar { .. }) => Some(Reduction::NanVar { ddof }),
            Self::Reduce(Reduction::NanStd { .. }) => Some(Reduction::NanStd { ddof }),
            Self::Reduce(reduction) => Some(reduction),
            Self::CumSum
            | Self::CumProd
            | Self::CumulativeSum
            | Self::CumulativeProd
            | Self::Sort
            | Self::ArgSort => None,
        }
    }
}

/// A reduction function.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct TensorReduce {
    function: ReduceFunction,
    documentation: Documentation,
}

impl TensorReduce {
    /// The registered instance of `function`.
    pub fn new(function: ReduceFunction) -> Self {
        Self {
            function,
            documentation: docs::documentation(function),
        }
    }
}

/// What a call computes.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ReduceOp {
    /// A reduction over the axes where `reduced` is true.
    Reduce {
        /// The reduction.
        reduction: Reduction,
        /// Which logical axes are reduced.
        reduced: Vec<bool>,
    },
    /// A sort along one logical axis.
    Sort {
        /// Values or indices, and the order.
        op: SortOp,
        /// The axis.
        axis: usize,
    },
    /// A cumulative sum or product along one logical axis (`None`: the flattened row).
    Cumulate {
        /// A product (else a sum).
        product: bool,
        /// The axis.
        axis: Option<usize>,
        /// Each line starts with the empty sum or product (the standard's `include_initial`).
        initial: bool,
    },
}

/// The type of a call's result.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ReduceOutput {
    /// 0-d: a plain column of the element type.
    Scalar(DataType),
    /// One shape for every row.
    Fixed(TensorType),
    /// A shape per row.
    Variable(VariableShapeType),
}

/// A compiled call.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct ReducePlan {
    input: AnyTensorType,
    op: ReduceOp,
    output: ReduceOutput,
    extras: PlanExtras,
}

impl ReducePlan {
    /// The arguments a call reads when it runs: x, and the `where` mask.
    fn data(&self) -> Vec<usize> {
        let mut data = vec![0];
        data.extend(self.extras.mask.as_ref().map(|(i, _)| *i));
        data
    }
}

impl TensorFunction for TensorReduce {
    type Plan = ReducePlan;

    fn name(&self) -> &'static str {
        self.function.function_name()
    }

    fn parameters(&self) -> Parameters {
        Parameters::Fixed {
            names: self.function.parameter_names(),
            required: 1,
        }
    }

    fn documentation(&self) -> Option<&Documentation> {
        Some(&self.documentation)
    }

    fn tensor_arguments(&self, arg_types: &[DataType]) -> Vec<usize> {
        let mut tensors = vec![0];
        tensors.extend(
            self.function
                .parameter_names()
                .iter()
                .position(|p| *p == "where")
                .filter(|&i| i < arg_types.len()),
        );
        tensors
    }

    fn plan(&self, args: &PlanArgs<'_>) -> Result<ReducePlan> {
        let input = args.any_tensor(0, "x")?;
        let options = args::options(self.function, args)?;
        let mut plan = match input.clone() {
            AnyTensorType::Fixed(tensor) => plan_fixed(self.function, args.name, tensor, &options)?,
            AnyTensorType::Variable(tensor) => {
                variable::plan(self.function, args.name, tensor, &options)?
            }
        };
        let reduction = match &plan.op {
            ReduceOp::Reduce { reduction, .. } => Some(*reduction),
            _ => None,
        };
        let result = match &plan.output {
            ReduceOutput::Scalar(t) => t.clone(),
            ReduceOutput::Fixed(t) => t.element_type().clone(),
            ReduceOutput::Variable(t) => t.element_type().clone(),
        };
        plan.extras = extras::plan(
            args.name,
            args,
            &options,
            &input,
            (self.function, reduction),
            &result,
        )?;
        Ok(plan)
    }

    fn return_field(&self, plan: &ReducePlan) -> FieldRef {
        Arc::new(match &plan.output {
            ReduceOutput::Scalar(data_type) => Field::new(self.name(), data_type.clone(), true),
            ReduceOutput::Fixed(tensor) => tensor.to_field(self.name()),
            ReduceOutput::Variable(tensor) => tensor.to_field(self.name()),
        })
    }

    fn invoke(
        &self,
        plan: &ReducePlan,
        args: &[ColumnarValue],
        number_rows: usize,
    ) -> Result<ColumnarValue> {
        let name = self.name();
        map_arrays(args, &plan.data(), number_rows, |arrays| {
            match &plan.input {
                AnyTensorType::Fixed(tensor) => invoke_fixed(name, plan, tensor, arrays),
                AnyTensorType::Variable(tensor) => variable::invoke(name, plan, tensor, arrays),
            }
        })
    }
}

/// The op of a call on tensors of `ndim` logical dimensions, checked.
fn plan_op(
    function: ReduceFunction,
    name: &str,
    ndim: usize,
    options: &Options,
) -> Result<ReduceOp> {
    if matches!(function, ReduceFunction::Sort | ReduceFunction::ArgSort) {
        // axis defaults to -1 (NULL too: a skipped keyword option arrives as NULL).
        let axes = options.axes.as_deref().unwrap_or(&[-1]);
        let reduced = reduced_axes(name, Some(axes), ndim)?;
        return Ok(ReduceOp::Sort {
            op: SortOp {
                indices: function == ReduceFunction::ArgSort,
                descending: options.descending,
            },
            axis: reduced.iter().position(|&r| r).unwrap_or(0),
        });
    }
    if matches!(
        function,
        ReduceFunction::CumulativeSum | ReduceFunction::CumulativeProd
    ) && ndim > 1
        && options.axes.is_none()
    {
        return plan_err!(
            "{name}: For arrays which have more than one dimension ``axis`` argument is required."
        );
    }
    if let (ReduceFunction::Reduce(Reduction::VectorNorm { .. }), Some(axes)) =
        (function, options.axes.as_deref())
    {
        // numpy's vector_norm normalises its axes with normalize_axis_tuple (its words).
        let wrapped: Vec<Option<usize>> = axes.iter().map(|&a| wrap_index(a, ndim)).collect();
        if wrapped.iter().all(Option::is_some)
            && (1..wrapped.len()).any(|i| wrapped[..i].contains(&wrapped[i]))
        {
            return plan_err!("{name}: repeated axis");
        }
    }
    let axes = zero_d_axes(function, name, ndim, options)?;
    let reduced = reduced_axes(name, axes, ndim)?;
    Ok(match function.reduction(options) {
        Some(reduction) => ReduceOp::Reduce { reduction, reduced },
        None => ReduceOp::Cumulate {
            product: matches!(
                function,
                ReduceFunction::CumProd | ReduceFunction::CumulativeProd
            ),
            axis: axes.and_then(|_| reduced.iter().position(|&r| r)),
            initial: options.include_initial,
        },
    })
}

/// The axes a call reduces, with numpy's rules for a 0-d input: the ufunc reductions (`sum`,
/// `prod`, `min`, `max`, `any`, `all`) take an integer axis 0 or -1 as every axis (none);
/// `argmin`, `argmax`, `cumsum` and `cumprod` read a 0-d array as a 1-d one of one element
/// (so axis 0 or -1 is the flattened row, and another axis is out of bounds "for array of
/// dimension 1"); `mean`, `var` and `std` refuse any axis.
fn zero_d_axes<'a>(
    function: ReduceFunction,
    name: &str,
    ndim: usize,
    options: &'a Options,
) -> Result<Option<&'a [i64]>> {
    let axes = options.axes.as_deref();
    let (0, true, Some(&[axis])) = (ndim, options.scalar_axis, axes) else {
        return Ok(axes);
    };
    match function {
        ReduceFunction::Reduce(
            Reduction::Sum
            | Reduction::Prod
            | Reduction::Min
            | Reduction::Max
            | Reduction::Any
            | Reduction::All
            | Reduction::ArgMin
            | Reduction::ArgMax
            | Reduction::NanArgMin
            | Reduction::NanArgMax
            | Reduction::Ptp
            | Reduction::CountNonzero,
        )
        | ReduceFunction::CumSum
        | ReduceFunction::CumProd
        | ReduceFunction::CumulativeSum
        | ReduceFunction::CumulativeProd
            if axis == 0 || axis == -1 =>
        {
            Ok(None)
        }
        ReduceFunction::Reduce(
            Reduction::ArgMin | Reduction::ArgMax | Reduction::NanArgMin | Reduction::NanArgMax,
        )
        | ReduceFunction::CumSum
        | ReduceFunction::CumProd
        | ReduceFunction::CumulativeSum
        | ReduceFunction::CumulativeProd => {
            plan_err!("{name}: axis {axis} is out of bounds for array of dimension 1")
        }
        ReduceFunction::Reduce(_) | ReduceFunction::Sort | ReduceFunction::ArgSort => Ok(axes),
    }
}

/// The element type of a call's result (`options`' `dtype` when given).
fn result_element(op: &ReduceOp, element: &DataType, options: &Options) -> DataType {
    if let Some(dtype) = &options.dtype {
        return dtype.clone();
    }
    match op {
        ReduceOp::Reduce { reduction, .. } => reduction.result_type(element),
        ReduceOp::Cumulate { .. } => sum_type(element),
        ReduceOp::Sort { op, .. } if op.indices => DataType::Int64,
        ReduceOp::Sort { .. } => element.clone(),
    }
}

fn plan_fixed(
    function: ReduceFunction,
    name: &str,
    input: TensorType,
    options: &Options,
) -> Result<ReducePlan> {
    let shape = input.logical_shape();
    let op = plan_op(function, name, shape.len(), options)?;
    let element = result_element(&op, input.element_type(), options);
    let names = input.logical_dim_names();
    let output = match &op {
        ReduceOp::Reduce { reduction, reduced } => {
            // The shape is known: a reduction without identity over nothing is numpy's error
            // for every row, so the query's (an initial value is its identity).
            if options.initial.is_none()
                && let Some(message) = reduction.empty_error(&ReduceLayout::new(&shape, reduced))
            {
                return plan_err!("{name}: {message}");
            }
            let dims = result_dims(&shape, reduced, options.keepdims, Some(&1));
            if dims.is_empty() {
                ReduceOutput::Scalar(element)
            } else {
                let names = names.map(|n| result_dims(&n, reduced, options.keepdims, None));
                ReduceOutput::Fixed(TensorType::new(element, dims)?.with_dim_names(names)?)
            }
        }
        ReduceOp::Cumulate {
            axis: None,
            initial,
            ..
        } => ReduceOutput::Fixed(TensorType::new(
            element,
            vec![input.size() + usize::from(*initial)],
        )?),
        ReduceOp::Cumulate {
            axis: Some(axis),
            initial,
            ..
        } => {
            let mut shape = shape;
            shape[*axis] += usize::from(*initial);
            ReduceOutput::Fixed(TensorType::new(element, shape)?.with_dim_names(names)?)
        }
        ReduceOp::Sort { .. } => {
            ReduceOutput::Fixed(TensorType::new(element, shape)?.with_dim_names(names)?)
        }
    };
    Ok(ReducePlan {
        input: AnyTensorType::Fixed(input),
        op,
        output,
        extras: PlanExtras::default(),
    })
}

/// x's values cast to the call's `dtype` (numpy's `unsafe` casting), and the element type the
/// kernel then reduces.
fn cast_input(
    plan: &ReducePlan,
    values: ArrayRef,
    element: &DataType,
) -> crate::error::Result<(ArrayRef, DataType)> {
    let Some(dtype) = &plan.extras.dtype else {
        return Ok((values, element.clone()));
    };
    let values = match plan.extras.nan_fill {
        Some(fill) => crate::kernels::reduce::nan_replaced(&values, f64::from_bits(fill)),
        None => values,
    };
    Ok((crate::kernels::cast::astype(&values, dtype)?, dtype.clone()))
}

/// A kernel's result in the call's `dtype`: integers summed in 64 bits wrap into it, as
/// numpy's sum in that type wraps.
fn cast_output(plan: &ReducePlan, out: ArrayRef) -> crate::error::Result<ArrayRef> {
    match &plan.extras.dtype {
        Some(dtype) if out.data_type() != dtype => crate::kernels::cast::astype(&out, dtype),
        _ => Ok(out),
    }
}

/// Runs a reduction over `rows` of `values` (of `element`) with the call's `initial` and the
/// aligned `where` mask.
fn run_reduction(
    plan: &ReducePlan,
    reduction: Reduction,
    element: &DataType,
    values: &ArrayRef,
    rows: Rows<'_>,
    aligned: Option<&extras::Aligned>,
) -> crate::error::Result<ArrayRef> {
    let initial = plan.extras.initial_array(&reduction.result_type(element))?;
    let extras = Extras {
        initial: initial.as_ref(),
        mask: aligned.map(|a| a.flags.as_slice()),
        mask_nulls: aligned.and_then(|a| a.flag_nulls.as_deref()),
    };
    let scalar = matches!(plan.output, ReduceOutput::Scalar(_));
    let out = reduce_with(reduction, element, values, rows, scalar, extras)?;
    cast_output(plan, out)
}

fn invoke_fixed(
    name: &str,
    plan: &ReducePlan,
    tensor: &TensorType,
    arrays: &[ArrayRef],
) -> Result<ArrayRef> {
    let input = tensor_array(name, &arrays[0])?;
    let in_function = |e: crate::error::TensorError| e.in_function(name);
    let values = layout::row_major_values(tensor, input)?;
    let (values, element) = cast_input(plan, values, tensor.element_type()).map_err(in_function)?;
    let shape = tensor.logical_shape();
    let mut row_nulls = input.nulls().cloned();
    let out = match &plan.op {
        ReduceOp::Reduce { reduction, reduced } => {
            if let Some((_, mask)) = &plan.extras.mask {
                let x = XRows::Fixed {
                    shape: &shape,
                    rows: input.len(),
                    nulls: input.nulls(),
                };
                let aligned = extras::align(name, mask, &arrays[1], &x, reduced)?;
                let rows = Rows::Each {
                    rows: &aligned.each,
                    layouts: &aligned.layouts,
                    null_width: 0,
                };
                row_nulls.clone_from(&aligned.row_nulls);
                run_reduction(plan, *reduction, &element, &values, rows, Some(&aligned))
                    .map_err(in_function)?
            } else {
                let reduce_layout = ReduceLayout::new(&shape, reduced);
                let rows = Rows::Same {
                    rows: input.len(),
                    layout: &reduce_layout,
                };
                run_reduction(plan, *reduction, &element, &values, rows, None)
                    .map_err(in_function)?
            }
        }
        ReduceOp::Cumulate {
            product,
            axis,
            initial,
        } => {
            let spans = Spans::Same(input.len(), Span::new(&shape, *axis));
            let out =
                cumulate(*product, &element, &values, spans, *initial).map_err(in_function)?;
            cast_output(plan, out).map_err(in_function)?
        }
        ReduceOp::Sort { op, axis } => {
            let spans = Spans::Same(input.len(), Span::new(&shape, Some(*axis)));
            sort(*op, tensor.element_type(), &values, spans).map_err(in_function)?
        }
    };
    match &plan.output {
        ReduceOutput::Scalar(_) => Ok(layout::with_row_nulls(out, row_nulls.as_ref())?),
        ReduceOutput::Fixed(output) => Ok(Arc::new(layout::tensor_array(
            output,
            out,
            row_nulls,
            input.len(),
        )?)),
        ReduceOutput::Variable(_) => {
            datafusion::common::internal_err!(
                "{name}: a fixed-shape input planned a variable-shape result"
            )
        }
    }
}
