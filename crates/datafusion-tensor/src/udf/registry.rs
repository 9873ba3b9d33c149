//! The one list of the crate's functions, and what is derived from it.
//!
//! A function is declared once: its struct carries its SQL name, its parameters (names and how
//! many are required: [`Parameters`]) and its `#[user_doc]` documentation, and
//! [`declare`] lists it. Everything else reads that declaration: registration
//! ([`super::all_functions`], [`super::variadic_functions`]), the keyword rewrite
//! ([`keyword_parameters`]), the argument-count check every call goes through
//! ([`Parameters::check_count`]), `SHOW FUNCTIONS` (the registered documentation), and the
//! plan codecs, which reach a planned call's state through [`ScalarTensorCall`] and
//! [`HigherOrderTensorCall`] instead of knowing each function's type.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::sync::LazyLock;

use arrow::datatypes::FieldRef;
use datafusion::common::{ScalarValue, plan_datafusion_err, plan_err};
use datafusion::error::Result;
use datafusion::logical_expr::{
    AggregateUDF, Documentation, HigherOrderUDF, HigherOrderUDFImpl, ScalarUDF, ScalarUDFImpl,
    Signature, ValueOrLambda, Volatility,
};

use super::call_state::{CallState, HigherOrderTensorCall, ScalarTensorCall};
use super::{
    AtOp, ReduceFunction, TensorAt, TensorAtApply, TensorBinary, TensorChoose, TensorConstructor,
    TensorFunction, TensorGet, TensorNdim, TensorPutAlongAxis, TensorReshape, TensorShape,
    TensorSize, TensorTakeAlongAxis, TensorToFixed, TensorToList, TensorToString, TensorToVariable,
    TensorTyped, TensorUdf, TensorWhere, VariadicTensorUdf,
};
use super::{ShapeFunction, TensorJoin, TensorReduce, TensorShapeOp, TensorUnary};

/// How a function takes its arguments.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Parameters {
    /// Named parameters in order, options included; the first `required` must be given.
    /// Arguments may be given by name (`mode => 'clip'`), in any order on the rewritten paths.
    Fixed {
        /// The names, in order.
        names: &'static [&'static str],
        /// How many leading parameters a call must give.
        required: usize,
    },
    /// Positional arguments only, in a number the function checks itself
    /// (`tensor_get(t, i, j, ...)`): no keyword arguments.
    Positional,
    /// Positional data arguments in any number, then keyword options, which go last
    /// (`tensor_choose(a, c0, c1, mode => 'clip')`).
    Variadic {
        /// The option names.
        options: &'static [&'static str],
    },
    /// Not meant to be written by hand (`tensor_typed`, written by the SQL rewrite): any
    /// arguments, left alone by the keyword rewrite.
    Internal,
}

impl Parameters {
    /// The names an argument may be given by.
    pub fn names(self) -> &'static [&'static str] {
        match self {
            Self::Fixed { names, .. } => names,
            Self::Variadic { options } => options,
            Self::Positional | Self::Internal => &[],
        }
    }

    /// The signature of a scalar function with these parameters: user-defined (each function
    /// coerces its own arguments), named where names are fixed.
    pub fn signature(self) -> Signature {
        let signature = Signature::user_defined(Volatility::Immutable);
        match self {
            Self::Fixed { names, .. } if !names.is_empty() => {
                // Naming fails only for duplicate names, which the registry test rules out.
                signature
                    .clone()
                    .with_parameter_names(names.to_vec())
                    .unwrap_or(signature)
            }
            _ => signature,
        }
    }

    /// Checks a call's argument count against fixed parameters, in DataFusion's words
    /// (`tensor function requires 2 to 4 arguments, got 1`); other kinds are checked by their
    /// functions, which say what the arguments are.
    pub fn check_count(self, name: &str, count: usize) -> Result<()> {
        let Self::Fixed { names, required } = self else {
            return Ok(());
        };
        if (required..=names.len()).contains(&count) {
            return Ok(());
        }
        let expected = if required == names.len() {
            format!("{required}")
        } else {
            format!("{required} to {}", names.len())
        };
        plan_err!("{name} function requires {expected} arguments, got {count}")
    }
}

/// Allowed values of a string option, for messages: `'clip', 'raise' or 'wrap'` (`last` put
/// before the last one: `" or "`, numpy's `", or "`); each value once, in order (aliases after
/// the first name of a value left out).
pub fn quoted_choices<T: PartialEq>(choices: &[(&str, T)], last: &str) -> String {
    let mut names: Vec<String> = Vec::new();
    for (i, (name, value)) in choices.iter().enumerate() {
        if choices[..i].iter().all(|(_, earlier)| earlier != value) {
            names.push(format!("'{name}'"));
        }
    }
    match names.split_last() {
        Some((final_name, rest)) if !rest.is_empty() => {
            format!("{}{last}{final_name}", rest.join(", "))
        }
        _ => names.join(""),
    }
}

/// A registered function in DataFusion's form.
#[derive(Debug, Clone)]
pub enum Registered {
    /// A scalar function.
    Scalar(ScalarUDF),
    /// A higher-order function (lambdas, or options after variadic arguments).
    HigherOrder(HigherOrderUDF),
    /// An aggregate function (`tensor_agg_*`).
    Aggregate(AggregateUDF),
}

impl Registered {
    /// The SQL name.
    pub fn name(&self) -> &str {
        match self {
            Self::Scalar(udf) => udf.name(),
            Self::HigherOrder(udf) => udf.name(),
            Self::Aggregate(udaf) => udaf.name(),
        }
    }

    /// Its documentation (`SHOW FUNCTIONS`, the reference, the builders' docs).
    pub fn documentation(&self) -> Option<&Documentation> {
        match self {
            Self::Scalar(udf) => udf.documentation(),
            Self::HigherOrder(udf) => udf.documentation(),
            Self::Aggregate(udaf) => udaf.documentation(),
        }
    }
}

/// One function of the list: registered form, parameters and family.
#[derive(Debug, Clone)]
pub struct Declared {
    /// What is registered.
    pub function: Registered,
    /// How it takes its arguments.
    pub parameters: Parameters,
    /// Its family (a page of the reference, a module of [`crate::expr_fn`]).
    pub family: Family,
}

/// The families the functions are grouped in, in the order the registry lists them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Family {
    /// Building tensors, their properties, and conversions (`tensor`, `tensor_shape`,
    /// `tensor_to_list`).
    #[default]
    Tensors,
    /// Indexing and indexed updates (`tensor_get`, `tensor_at_*`, `tensor_choose`, take and
    /// put along an axis).
    Indexing,
    /// Elementwise math: numpy's ufuncs, `where`, `astype`, `tensor_map`.
    Elementwise,
    /// Reductions along axes and cumulative sums and products.
    Reductions,
    /// Shapes: transposes, squeezes, flips, concatenation and stacking.
    Shapes,
    /// Linear algebra per row: products, contractions, norms and vector measures.
    LinearAlgebra,
    /// Sorting, searching, top-k and sets per row (`tensor_sort`, `tensor_nonzero`, `tensor_topk`,
    /// `tensor_unique_*`).
    Searching,
    /// Aggregates over rows (`tensor_agg_*`).
    Aggregates,
}

impl Family {
    /// Every family, in order.
    pub const ALL: [Self; 8] = [
        Self::Tensors,
        Self::Indexing,
        Self::Elementwise,
        Self::Reductions,
        Self::Shapes,
        Self::LinearAlgebra,
        Self::Searching,
        Self::Aggregates,
    ];

    /// A name for files and anchors (`linear_algebra`).
    pub fn slug(self) -> &'static str {
        match self {
            Self::Tensors => "tensors",
            Self::Indexing => "indexing",
            Self::Elementwise => "elementwise",
            Self::Reductions => "reductions",
            Self::Shapes => "shapes",
            Self::LinearAlgebra => "linear_algebra",
            Self::Searching => "searching",
            Self::Aggregates => "aggregates",
        }
    }
}

type ScalarView = fn(&dyn Any) -> Option<&dyn ScalarTensorCall>;
type HigherOrderView = fn(&dyn Any) -> Option<&dyn HigherOrderTensorCall>;

/// The list, and how to reach each function's calls from DataFusion's `dyn` instances.
#[derive(Default)]
pub struct Registry {
    functions: Vec<Declared>,
    /// The family of the functions declared next.
    family: Family,
    by_name: HashMap<String, usize>,
    scalar_views: HashMap<TypeId, ScalarView>,
    higher_order_views: HashMap<TypeId, HigherOrderView>,
}

impl std::fmt::Debug for Registry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.functions.iter().map(|d| d.function.name()))
            .finish()
    }
}

impl Registry {
    fn push(&mut self, function: Registered, parameters: Parameters) {
        let previous = self
            .by_name
            .insert(function.name().to_string(), self.functions.len());
        debug_assert!(previous.is_none(), "{} declared twice", function.name());
        self.functions.push(Declared {
            function,
            parameters,
            family: self.family,
        });
    }

    /// The functions declared next are of `family`.
    fn family(&mut self, family: Family) {
        self.family = family;
    }

    /// A [`TensorFunction`], registered as a scalar function.
    pub fn scalar<F: TensorFunction>(&mut self, function: F) {
        let parameters = function.parameters();
        self.push(
            Registered::Scalar(ScalarUDF::new_from_impl(TensorUdf::new(function))),
            parameters,
        );
        self.scalar_views
            .insert(TypeId::of::<TensorUdf<F>>(), |any| {
                any.downcast_ref::<TensorUdf<F>>()
                    .map(|udf| udf as &dyn ScalarTensorCall)
            });
    }

    /// A scalar function of the crate's that is not a [`TensorFunction`] (`tensor_typed`).
    fn other_scalar<T: ScalarUDFImpl + ScalarTensorCall + 'static>(
        &mut self,
        udf: T,
        parameters: Parameters,
    ) {
        self.push(
            Registered::Scalar(ScalarUDF::new_from_impl(udf)),
            parameters,
        );
        self.scalar_views.insert(TypeId::of::<T>(), |any| {
            any.downcast_ref::<T>()
                .map(|udf| udf as &dyn ScalarTensorCall)
        });
    }

    /// A higher-order function.
    fn higher_order<T: HigherOrderUDFImpl + HigherOrderTensorCall + 'static>(
        &mut self,
        udf: T,
        parameters: Parameters,
    ) {
        self.push(
            Registered::HigherOrder(HigherOrderUDF::new_from_impl(udf)),
            parameters,
        );
        self.higher_order_views.insert(TypeId::of::<T>(), |any| {
            any.downcast_ref::<T>()
                .map(|udf| udf as &dyn HigherOrderTensorCall)
        });
    }

    /// An aggregate function. Its instances hold no state of a call (everything is derived
    /// from DataFusion's accumulator arguments), so a plan's call resolves by name.
    fn aggregate(&mut self, function: super::AggregateFunction) {
        self.push(
            Registered::Aggregate(AggregateUDF::new_from_impl(super::TensorAggregate::new(
                function,
            ))),
            function.parameters(),
        );
    }

    /// Every declared function, in registration order.
    pub fn functions(&self) -> &[Declared] {
        &self.functions
    }

    /// The functions a user writes (not the SQL rewrite's `tensor_typed`), in registration
    /// order.
    pub fn user_functions(&self) -> impl Iterator<Item = &Declared> {
        self.functions
            .iter()
            .filter(|declared| declared.parameters != Parameters::Internal)
    }

    /// The declared function `name`.
    pub fn get(&self, name: &str) -> Option<&Declared> {
        self.by_name.get(name).map(|&i| &self.functions[i])
    }

    /// `udf`'s instance as one of the crate's scalar functions.
    pub fn scalar_call<'a>(&self, udf: &'a ScalarUDF) -> Option<&'a dyn ScalarTensorCall> {
        let inner: &dyn Any = udf.inner().as_ref();
        self.scalar_views.get(&inner.type_id())?(inner)
    }

    /// `udf`'s instance as one of the crate's higher-order functions.
    pub fn higher_order_call<'a>(
        &self,
        udf: &'a HigherOrderUDF,
    ) -> Option<&'a dyn HigherOrderTensorCall> {
        let inner: &dyn Any = udf.inner().as_ref();
        self.higher_order_views.get(&inner.type_id())?(inner)
    }
}

/// THE list: every function the crate defines, each declared once.
fn declare() -> Registry {
    let mut r = Registry::default();
    r.family(Family::Tensors);
    r.scalar(TensorConstructor::new());
    r.scalar(TensorShape::new());
    r.scalar(TensorNdim::new());
    r.scalar(TensorSize::new());
    r.scalar(super::TensorTypeName::new());
    r.scalar(TensorToList::new());
    r.scalar(TensorReshape::new());
    r.scalar(TensorToString::new());
    r.scalar(TensorToVariable::new());
    r.scalar(TensorToFixed::new());
    r.scalar(super::TensorAscontiguousarray::new());
    for function in super::CreateFunction::ALL {
        r.scalar(super::TensorCreate::new(function));
    }
    r.family(Family::Indexing);
    r.scalar(TensorGet::new());
    r.scalar(TensorTakeAlongAxis::new());
    r.scalar(TensorPutAlongAxis::new());
    for op in AtOp::ALL {
        if op != AtOp::Apply {
            r.scalar(TensorAt::new(op));
        }
    }
    r.family(Family::Elementwise);
    for op in super::math::BINARY_OPS {
        r.scalar(TensorBinary::new(op));
    }
    for (name, op) in super::math::BINARY_ALIASES {
        r.scalar(TensorBinary::alias(name, op));
    }
    r.scalar(super::math::TensorDivmod::new());
    r.scalar(TensorWhere::new());
    r.scalar(super::math::TensorAstype::new());
    for function in ReduceFunction::ALL {
        // The reduction machinery serves sorting and counting, and the standard's vector norm.
        r.family(match function {
            ReduceFunction::Sort
            | ReduceFunction::ArgSort
            | ReduceFunction::Reduce(crate::kernels::reduce::Reduction::CountNonzero) => {
                Family::Searching
            }
            ReduceFunction::Reduce(crate::kernels::reduce::Reduction::VectorNorm { .. }) => {
                Family::LinearAlgebra
            }
            _ => Family::Reductions,
        });
        r.scalar(TensorReduce::new(function));
    }
    r.family(Family::Reductions);
    r.scalar(super::diff::TensorDiff::new());
    r.family(Family::Searching);
    for function in super::SearchFunction::ALL {
        r.scalar(super::TensorSearch::new(function));
    }
    r.family(Family::Elementwise);
    for function in TensorUnary::all() {
        r.scalar(function);
    }
    r.family(Family::Shapes);
    for function in ShapeFunction::ALL {
        r.scalar(TensorShapeOp::new(function));
    }
    for function in super::shape::SplitFunction::ALL {
        r.scalar(super::shape::TensorSplit::new(function));
    }
    r.scalar(super::shape::TensorParts::new(
        super::shape::PartsFunction::BroadcastArrays,
    ));
    r.family(Family::LinearAlgebra);
    for function in super::ContractFunction::ALL {
        r.scalar(super::TensorContract::new(function));
    }
    for measure in super::linalg::MEASURES {
        r.scalar(super::linalg::TensorVectorMeasure::new(measure));
    }
    r.scalar(super::linalg::TensorVectorMeasure::cosine_distance());
    r.scalar(super::linalg::TensorNorm::new());
    r.scalar(super::linalg::TensorMatrixNorm::new());
    r.scalar(super::linalg::TensorCross::new());
    for function in super::DecomposeFunction::ALL {
        r.scalar(super::TensorDecompose::new(function));
    }
    r.family(Family::Tensors);
    r.other_scalar(TensorTyped::new(), Parameters::Internal);
    r.family(Family::Indexing);
    r.higher_order(
        VariadicTensorUdf::new(TensorChoose::new()),
        TensorChoose::new().parameters(),
    );
    r.higher_order(TensorAtApply::new(), AtOp::Apply.parameters());
    r.family(Family::Elementwise);
    r.higher_order(super::math::TensorMap::new(), super::math::MAP_PARAMETERS);
    r.family(Family::Shapes);
    for function in super::shape::JoinFunction::ALL {
        let join = TensorJoin::new(function);
        let parameters = join.parameters();
        r.higher_order(VariadicTensorUdf::new(join), parameters);
    }
    let meshgrid = super::shape::TensorParts::new(super::shape::PartsFunction::Meshgrid);
    let parameters = meshgrid.parameters();
    r.higher_order(VariadicTensorUdf::new(meshgrid), parameters);
    r.family(Family::Aggregates);
    for function in super::AggregateFunction::ALL {
        r.aggregate(function);
    }
    r
}

static REGISTRY: LazyLock<Registry> = LazyLock::new(declare);

/// The crate's functions.
pub fn registry() -> &'static Registry {
    &REGISTRY
}

/// The keyword rules of the tensor function `name` (already normalised); `None` for any
/// other function, and for those not written by hand.
pub fn keyword_parameters(name: &str) -> Option<Parameters> {
    registry()
        .get(name)
        .map(|declared| declared.parameters)
        .filter(|parameters| *parameters != Parameters::Internal)
}

/// Whether `udf` is one of this crate's scalar functions.
pub fn is_tensor_function(udf: &ScalarUDF) -> bool {
    registry().scalar_call(udf).is_some()
}

/// The state of a planned call of one of this crate's scalar functions; `None` for a
/// registered (not planned) instance, which resolves by name, and for other functions.
pub fn scalar_call_state(udf: &ScalarUDF) -> Option<CallState> {
    registry().scalar_call(udf)?.call_state()
}

/// The planned call of the scalar function `name` (one of this crate's) with `state`.
///
/// # Errors
/// When `name` is not a tensor function, the state is not one of a scalar function, or the
/// call does not plan (it did where the state was taken, so only with another version).
pub fn scalar_with_state(name: &str, state: CallState) -> Result<ScalarUDF> {
    let Some(Registered::Scalar(registered)) = registry().get(name).map(|d| &d.function) else {
        return Err(plan_datafusion_err!("{name} is not a tensor function"));
    };
    registry()
        .scalar_call(registered)
        .ok_or_else(|| plan_datafusion_err!("{name} is not a tensor function"))?
        .with_state(state)
}

/// Whether `udf` is one of this crate's higher-order functions.
pub fn is_tensor_higher_order_function(udf: &HigherOrderUDF) -> bool {
    registry().higher_order_call(udf).is_some()
}

/// The state of a call of one of this crate's higher-order functions (`None`: a registered
/// instance, which resolves by name, or another function).
pub fn higher_order_call_state(udf: &HigherOrderUDF) -> Option<CallState> {
    registry().higher_order_call(udf)?.call_state()
}

/// `udf` under a session's `limits`, when it is one of this crate's higher-order functions.
pub fn higher_order_with_limits(
    udf: &HigherOrderUDF,
    limits: crate::limits::Limits,
) -> Option<HigherOrderUDF> {
    Some(registry().higher_order_call(udf)?.with_limits(limits))
}

/// The call of the higher-order function `name` (one of this crate's) with `state`.
///
/// # Errors
/// When `name` is not a higher-order tensor function or the state is not one of such.
pub fn higher_order_with_state(name: &str, state: CallState) -> Result<HigherOrderUDF> {
    let Some(Registered::HigherOrder(registered)) = registry().get(name).map(|d| &d.function)
    else {
        return Err(plan_datafusion_err!(
            "{name} is not a higher-order tensor function"
        ));
    };
    registry()
        .higher_order_call(registered)
        .ok_or_else(|| plan_datafusion_err!("{name} is not a higher-order tensor function"))?
        .with_state(state)
}

/// `udf` (a call's instance) pinned to the argument fields and literals it has where the query
/// is planned: it then plans with those wherever it runs, whatever metadata its arguments
/// arrive with. `None` for functions that are not this crate's.
///
/// # Errors
/// When a lambda stands where `tensor_at_apply` takes none.
pub fn pin_higher_order(
    udf: &HigherOrderUDF,
    fields: &[ValueOrLambda<FieldRef, FieldRef>],
    scalars: &[Option<&ScalarValue>],
) -> Result<Option<HigherOrderUDF>> {
    registry()
        .higher_order_call(udf)
        .map(|call| call.pinned_to(fields, scalars))
        .transpose()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_distinct_and_counts_within_them() {
        for declared in registry().functions() {
            let names = declared.parameters.names();
            for (i, name) in names.iter().enumerate() {
                assert!(
                    !names[..i].contains(name),
                    "{}: parameter {name} named twice",
                    declared.function.name()
                );
            }
            if let Parameters::Fixed { names, required } = declared.parameters {
                assert!(required <= names.len(), "{}", declared.function.name());
            }
        }
    }

    #[test]
    fn choices_list_each_value_once() {
        let choices = [("negative", 1), ("neg", 1), ("abs", 2), ("round", 3)];
        assert_eq!(
            quoted_choices(&choices, " or "),
            "'negative', 'abs' or 'round'"
        );
        assert_eq!(quoted_choices(&[("clip", 0)], " or "), "'clip'");
        assert_eq!(
            Parameters::Fixed {
                names: &["t", "shape"],
                required: 1
            }
            .check_count("f", 3)
            .unwrap_err()
            .strip_backtrace(),
            "Error during planning: f function requires 1 to 2 arguments, got 3"
        );
    }

    /// Every function the crate declares is one whose calls' state the plan codecs carry
    /// (`tensor_to_variable` and `tensor_to_fixed` were missing from the old hand-written
    /// list: on a cluster they were planned again without their tensor metadata).
    #[test]
    fn every_registered_function_is_known_to_the_codecs() {
        for udf in super::super::all_functions() {
            assert!(
                is_tensor_function(&udf),
                "{} is unknown to the call-state codecs",
                udf.name()
            );
        }
        for udf in super::super::variadic_functions() {
            assert!(
                is_tensor_higher_order_function(&udf),
                "{} is unknown to the call-state codecs",
                udf.name()
            );
        }
    }
}
