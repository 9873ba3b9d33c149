//! The `tensor_at_*` functions' operations and options: JAX's names, read from the call's
//! literal arguments (option strings matched as [`crate::udf::options`] says).

use datafusion::common::{ScalarValue, plan_datafusion_err, plan_err};
use datafusion::error::Result;

use super::super::PlanArgs;
use super::super::options::match_option;
use super::super::registry::quoted_choices;
use crate::index::OutOfBounds;
use crate::kernels::update::{Combine, UnaryFn};
use arrow::datatypes::DataType;

/// The operation of a `tensor_at_*` function.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AtOp {
    /// `x.at[idx].set(y)`, `.add(y)`, `.subtract(y)`, `.multiply(y)`, `.divide(y)`,
    /// `.power(y)`, `.min(y)` and `.max(y)`: the kernel's combination of `y`, one of
    /// [`Combine::Set`] to [`Combine::Max`].
    Update(Combine),
    /// `x.at[idx].apply(fn)`.
    Apply,
    /// `x.at[idx].get()`.
    Get,
}

impl AtOp {
    /// Every operation, in the order of the functions' registration.
    pub const ALL: [Self; 10] = [
        Self::Update(Combine::Set),
        Self::Update(Combine::Add),
        Self::Update(Combine::Subtract),
        Self::Update(Combine::Multiply),
        Self::Update(Combine::Divide),
        Self::Update(Combine::Power),
        Self::Update(Combine::Min),
        Self::Update(Combine::Max),
        Self::Apply,
        Self::Get,
    ];

    /// The SQL function name.
    pub fn function_name(self) -> &'static str {
        match self {
            Self::Update(Combine::Set) => "tensor_at_set",
            Self::Update(Combine::Add) => "tensor_at_add",
            Self::Update(Combine::Subtract) => "tensor_at_subtract",
            Self::Update(Combine::Multiply) => "tensor_at_multiply",
            Self::Update(Combine::Divide) => "tensor_at_divide",
            Self::Update(Combine::Power) => "tensor_at_power",
            Self::Update(Combine::Min) => "tensor_at_min",
            Self::Update(Combine::Max) => "tensor_at_max",
            Self::Apply | Self::Update(Combine::Apply(_) | Combine::Lambda) => "tensor_at_apply",
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
            Self::Update(_) => &[
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

    /// How the function takes its arguments: `x`, `idx` and (but for get) `y` or `fn`
    /// required, then the options.
    pub fn parameters(self) -> crate::udf::Parameters {
        crate::udf::Parameters::Fixed {
            names: self.parameter_names(),
            required: self.positional(),
        }
    }

    /// Number of positional (non-option) arguments.
    pub(super) fn positional(self) -> usize {
        if self == Self::Get { 2 } else { 3 }
    }

    /// Whether the op reads a `y` argument.
    pub(super) fn has_y(self) -> bool {
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
    /// The names, as JAX spells them.
    const NAMES: &[(&str, Self)] = &[
        ("promise_in_bounds", Self::PromiseInBounds),
        ("clip", Self::Clip),
        ("drop", Self::Drop),
        ("fill", Self::Fill),
        ("raise", Self::Raise),
    ];

    pub(super) fn out_of_bounds(self, op: AtOp) -> OutOfBounds {
        match self {
            Self::PromiseInBounds if op == AtOp::Get => OutOfBounds::Clip,
            Self::PromiseInBounds | Self::Drop | Self::Fill => OutOfBounds::Drop,
            Self::Clip => OutOfBounds::Clip,
            Self::Raise => OutOfBounds::Raise,
        }
    }
}

/// The names `tensor_at_apply` accepts for a built-in function, with numpy's aliases.
const UNARY_FNS: &[(&str, UnaryFn)] = &[
    ("negative", UnaryFn::Negative),
    ("neg", UnaryFn::Negative),
    ("abs", UnaryFn::Abs),
    ("absolute", UnaryFn::Abs),
    ("square", UnaryFn::Square),
    ("sign", UnaryFn::Sign),
    ("sqrt", UnaryFn::Sqrt),
    ("exp", UnaryFn::Exp),
    ("log", UnaryFn::Log),
    ("sin", UnaryFn::Sin),
    ("cos", UnaryFn::Cos),
    ("tan", UnaryFn::Tan),
    ("tanh", UnaryFn::Tanh),
    ("floor", UnaryFn::Floor),
    ("ceil", UnaryFn::Ceil),
    ("round", UnaryFn::Round),
    ("rint", UnaryFn::Round),
];

/// What `tensor_at_apply` applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ApplyFn {
    /// A named function.
    Named(UnaryFn),
    /// A SQL lambda, evaluated by the higher-order adapter.
    Lambda,
}

/// The options following the positional arguments: mode, (get: `fill_value`), and the three
/// flags; each a literal, NULL meaning the default.
pub(super) struct Options {
    pub(super) mode: Mode,
    pub(super) fill: Option<ScalarValue>,
    pub(super) wrap_negative: bool,
}

pub(super) fn read_options(args: &PlanArgs<'_>, op: AtOp) -> Result<Options> {
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
                let Some(text) = value.and_then(|v| v.try_as_str().flatten()) else {
                    return plan_err!(
                        "{name}: argument mode must be a literal string: {}",
                        quoted_choices(Mode::NAMES, " or ")
                    );
                };
                options.mode = match_option(text, Mode::NAMES).ok_or_else(|| {
                    plan_datafusion_err!(
                        "{name}: unknown mode '{text}': expected {}",
                        quoted_choices(Mode::NAMES, " or ")
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
                // false promise cannot change a result (spec.md §5).
            }
        }
    }
    Ok(options)
}

/// A literal index as an index expression: an integer, an integer list (an advanced index on
/// `tensor_at_apply`'s argument `fn` given as a function name.
pub fn apply_by_name(args: &PlanArgs<'_>) -> Result<ApplyFn> {
    let name = AtOp::Apply.function_name();
    let Some(text) = args.literal(2).and_then(|v| v.try_as_str().flatten()) else {
        return plan_err!(
            "{name}: argument fn must be a lambda (v -> ...) or a function name such as 'abs'"
        );
    };
    Ok(ApplyFn::Named(match_option(text, UNARY_FNS).ok_or_else(
        || {
            plan_datafusion_err!(
                "{name}: unknown function '{text}': expected a lambda or one of {}",
                quoted_choices(UNARY_FNS, ", ")
            )
        },
    )?))
}
