//! The SQL surface: one small file per function, and the glue they share.
//!
//! Every function is a [`TensorFunction`]: it turns the argument fields and literal arguments
//! into a `Plan` once, at planning time, and runs that plan over whole batches. [`TensorUdf`]
//! adapts it to DataFusion's [`ScalarUDFImpl`] and, when the optimizer simplifies the call,
//! replaces the registered (plan-less) instance with one that carries its plan (spec.md §6): what a
//! call needs at run time then lives in the UDF instance, not in argument metadata that plan
//! serialisation drops.

/// `new()` and `Default` for a function struct without fields.
macro_rules! registered_function {
    ($ty:ident) => {
        impl $ty {
            /// The registered instance.
            pub fn new() -> Self {
                Self {}
            }
        }

        impl Default for $ty {
            fn default() -> Self {
                Self::new()
            }
        }
    };
}

/// The declaration of a [`TensorFunction`]: `name`, `parameters` (named parameters in order and
/// how many are required, or another [`Parameters`]) and `documentation` (the struct carries
/// `#[user_doc]`). The registry, the keyword rewrite and the argument-count check read it.
macro_rules! function_metadata {
    ($name:literal, [$($param:literal),* $(,)?], required = $required:expr) => {
        function_metadata!(
            $name,
            $crate::udf::Parameters::Fixed {
                names: &[$($param),*],
                required: $required,
            }
        );
    };
    ($name:literal, $parameters:expr) => {
        fn name(&self) -> &'static str {
            $name
        }

        fn parameters(&self) -> $crate::udf::Parameters {
            $parameters
        }

        fn documentation(&self) -> Option<&datafusion::logical_expr::Documentation> {
            self.doc()
        }
    };
}

pub mod aggregate;
mod along_axis;
mod at;
mod batch_args;
pub mod call_state;
mod choose;
mod convert;
mod create;
mod decompose;
mod diff;
mod documentation;
mod get;
mod introspect;
mod lambda;
mod linalg;
mod list_args;
pub mod math;
mod options;
mod plan_cache;
mod reduce;
pub mod registry;
mod reshape;
mod rows;
mod search;
mod shape;
mod tensor;
mod to_list;
mod to_string;
mod typed;
pub(crate) mod unary;
mod variadic;

use std::fmt::Debug;
use std::hash::Hash;
use std::sync::Arc;

use arrow::array::{Array, ArrayRef, FixedSizeListArray};
use arrow::datatypes::{DataType, Field, FieldRef};
use datafusion::common::config::ConfigOptions;
use datafusion::common::{ScalarValue, exec_err, plan_err};
use datafusion::error::{DataFusionError, Result};
use datafusion::logical_expr::expr::ScalarFunction;
use datafusion::logical_expr::simplify::{ExprSimplifyResult, SimplifyContext};
use datafusion::logical_expr::{
    ColumnarValue, Documentation, Expr, ExprSchemable, ReturnFieldArgs, ScalarFunctionArgs,
    ScalarUDF, ScalarUDFImpl, Signature,
};

use crate::limits::Limits;
use crate::tensor_type::TensorType;
use crate::variable_shape::{
    AnyTensorType, VariableShapeArray, VariableShapeType, has_variable_shape_extension,
};

pub use aggregate::{AggregateFunction, TensorAggregate};
pub use along_axis::{TensorPutAlongAxis, TensorTakeAlongAxis};
pub use at::{AtCall, AtOp, AtPlan, TensorAt, TensorAtApply, VariableAtPlan};
pub use choose::{ChooseCall, ChoosePlan, TensorChoose, VariableChoosePlan};
pub use convert::{TensorAscontiguousarray, TensorToFixed, TensorToVariable};
pub use create::{CreateFunction, TensorCreate};
pub use decompose::{DecomposeFunction, TensorDecompose};
pub use get::TensorGet;
pub use introspect::{TensorNdim, TensorShape, TensorSize, TensorTypeName, type_name_of};
pub use linalg::{ContractFunction, ContractPlan, TensorContract};
pub(crate) use list_args::{plan_with_list_tensors, with_list_tensors};
pub use math::{TensorAstype, TensorBinary, TensorWhere};
pub use reduce::{ReduceFunction, TensorReduce};
pub use registry::{Parameters, registry};
pub use reshape::TensorReshape;
pub use search::{SearchFunction, TensorSearch};
pub use shape::{JoinCall, ShapeCall, ShapeFunction, TensorJoin, TensorShapeOp};
pub use tensor::TensorConstructor;
pub use to_list::TensorToList;
pub use to_string::TensorToString;
pub use typed::{TENSOR_TYPED, TensorTyped};
pub use unary::TensorUnary;
pub use variadic::VariadicTensorUdf;

// The kernels' enums that say which function an instance is (`AtOp::Update(Combine::Add)`,
// `ReduceFunction::Reduce(Reduction::Sum)`, `TensorBinary::new(BinaryOp::Add)`): the kernels
// themselves are internal (the `internals` feature).
pub use crate::kernels::elementwise::BinaryOp;
pub use crate::kernels::linalg::similarity::Measure;
pub use crate::kernels::reduce::Reduction;
pub use crate::kernels::update::{Combine, UnaryFn};
pub(crate) use documentation::{documented, sql_example, tensor_documentation};

/// Every scalar function this crate defines, ready to register (from [`registry()`]).
pub fn all_functions() -> Vec<ScalarUDF> {
    registry()
        .functions()
        .iter()
        .filter_map(|declared| match &declared.function {
            registry::Registered::Scalar(udf) => Some(udf.clone()),
            registry::Registered::HigherOrder(_) | registry::Registered::Aggregate(_) => None,
        })
        .collect()
}

/// The higher-order functions (lambdas, or named options after variadic arguments, see
/// [`variadic`]), ready to register (from [`registry()`]).
pub fn variadic_functions() -> Vec<datafusion::logical_expr::HigherOrderUDF> {
    registry()
        .functions()
        .iter()
        .filter_map(|declared| match &declared.function {
            registry::Registered::HigherOrder(udf) => Some(udf.clone()),
            registry::Registered::Scalar(_) | registry::Registered::Aggregate(_) => None,
        })
        .collect()
}

/// The aggregate functions (`tensor_agg_*`), ready to register (from [`registry()`]).
pub fn aggregate_functions() -> Vec<datafusion::logical_expr::AggregateUDF> {
    registry()
        .functions()
        .iter()
        .filter_map(|declared| match &declared.function {
            registry::Registered::Aggregate(udaf) => Some(udaf.clone()),
            registry::Registered::Scalar(_) | registry::Registered::HigherOrder(_) => None,
        })
        .collect()
}

/// A tensor function: planned once from its argument types and literals, then run over batches.
pub trait TensorFunction: Debug + Send + Sync + PartialEq + Eq + Hash + 'static {
    /// What a call needs at run time, derived from argument fields and literal arguments.
    type Plan: Debug + Send + Sync + PartialEq + Eq + Hash + 'static;

    /// The SQL name.
    fn name(&self) -> &'static str;
    /// How it takes its arguments (declared with [`function_metadata!`]): the registered
    /// signature, the keyword rewrite and the argument-count check follow from it.
    fn parameters(&self) -> Parameters;
    /// `SHOW FUNCTIONS` / `information_schema` documentation.
    fn documentation(&self) -> Option<&Documentation>;
    /// Checks the argument types before planning (the count is checked first, by the
    /// parameters); returns the types to coerce to. The default takes them as they are: most
    /// functions check their arguments' types where they plan, with the tensor metadata.
    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        Ok(arg_types.to_vec())
    }
    /// The arguments that take a tensor, where a list literal (`[2.0, 3.0]`,
    /// `[[1, 2], [3, 4]]`) stands for the tensor numpy's `np.array` makes of it
    /// ([`with_list_tensors`]); `arg_types` are the call's argument types.
    fn tensor_arguments(&self, _arg_types: &[DataType]) -> Vec<usize> {
        Vec::new()
    }
    /// Whether a plain number (a literal or a numeric column) at one of the
    /// [`TensorFunction::tensor_arguments`] is planned as the 0-d tensor numpy's `np.asarray`
    /// makes of it (`tensor_sum(5)`, `tensor_astype(1, 'float32')`). `false` for the functions
    /// that read numbers themselves (the elementwise ones, with NEP 50's weak literals).
    fn numbers_as_tensors(&self) -> bool {
        true
    }
    /// The length a list column at tensor argument `i` takes in a call planned with it as a
    /// one-element tensor: the last dimension of what it broadcasts into (numpy broadcasting
    /// of a 1-d array); `None` when that is not known when the query is planned.
    fn list_column_length(&self, _plan: &Self::Plan, _i: usize) -> Option<usize> {
        None
    }
    /// Compiles a call from its argument fields and literal arguments.
    fn plan(&self, args: &PlanArgs<'_>) -> Result<Self::Plan>;
    /// The output field of a planned call.
    fn return_field(&self, plan: &Self::Plan) -> FieldRef;
    /// Runs a planned call over one batch.
    fn invoke(
        &self,
        plan: &Self::Plan,
        args: &[ColumnarValue],
        number_rows: usize,
    ) -> Result<ColumnarValue>;
    /// [`TensorFunction::invoke`] with the argument values owned, so that a function may
    /// write its result over an argument's buffer where nothing else holds it (an operator's
    /// intermediate result, `(x * 2.0) + y`). By default, `invoke`.
    fn invoke_owned(
        &self,
        plan: &Self::Plan,
        args: Vec<ColumnarValue>,
        number_rows: usize,
    ) -> Result<ColumnarValue> {
        self.invoke(plan, &args, number_rows)
    }
    /// What this instance holds beyond the registered one's (the CLI's summarised display of
    /// `tensor_to_string`), as numbers, for a plan sent to another process
    /// ([`call_state`]); empty for a registered instance.
    fn settings(&self) -> Vec<u64> {
        Vec::new()
    }
    /// The instance [`TensorFunction::settings`] describes; `None` when they mean nothing
    /// to this function.
    fn with_settings(&self, _settings: &[u64]) -> Option<Self>
    where
        Self: Sized,
    {
        None
    }
}

/// What a call was planned from: its argument fields (with their metadata) and the value of
/// each argument that was a literal. Kept in a planned call's instance so that the call can be
/// planned again, the same, where the plan arrives without field and literal metadata (a
/// Ballista executor: [`call_state`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CallInputs {
    /// One field per argument.
    pub fields: Vec<FieldRef>,
    /// The value of each argument that was a literal.
    pub scalars: Vec<Option<ScalarValue>>,
}

impl CallInputs {
    /// The inputs of a call with these fields and literals.
    pub fn new(fields: &[FieldRef], scalars: &[Option<&ScalarValue>]) -> Self {
        Self {
            fields: fields.to_vec(),
            scalars: scalars.iter().map(|s| s.cloned()).collect(),
        }
    }

    /// The literals as the planners take them.
    pub fn scalar_refs(&self) -> Vec<Option<&ScalarValue>> {
        self.scalars.iter().map(Option::as_ref).collect()
    }
}

/// The tensor type of an argument's field (`None`: not a `FixedSizeList`); an invalid one is a
/// plan error naming the argument (the function's name is put in front by [`name_plan_error`]).
pub(crate) fn tensor_of(field: &Field) -> Result<Option<TensorType>> {
    TensorType::from_field(field)
        .map_err(|err| DataFusionError::Plan(format!("argument '{}': {err}", field.name())))
}

/// The variable-shape tensor type of an argument's field (`None`: it carries no such
/// extension); an invalid one is a plan error naming the argument.
pub(crate) fn variable_of(field: &Field) -> Result<Option<VariableShapeType>> {
    VariableShapeType::from_field(field)
        .map_err(|err| DataFusionError::Plan(format!("argument '{}': {err}", field.name())))
}

/// A plan error that does not yet say which function it comes from (a tensor type's own error,
/// an Arrow or shape error passed through) with `name: ` in front; other errors as they are.
pub(crate) fn name_plan_error(name: &str, err: DataFusionError) -> DataFusionError {
    match err {
        DataFusionError::Plan(message) if !message.starts_with(name) => {
            DataFusionError::Plan(format!("{name}: {message}"))
        }
        other => other,
    }
}

/// A shape or dimension error about a call with a plain `FixedSizeList` argument (no tensor
/// metadata: a 1-d tensor, spec.md §1), with a note saying so: the metadata may have been lost on
/// the way (a file written without it, a `CASE` or cast that dropped it), and the 1-d shape is
/// then a surprise.
pub(crate) fn explain_plain_lists(err: DataFusionError, fields: &[FieldRef]) -> DataFusionError {
    let DataFusionError::Plan(message) = err else {
        return err;
    };
    if !(message.contains("dimension") || message.contains("shape")) {
        return DataFusionError::Plan(message);
    }
    let plain: Vec<String> = fields
        .iter()
        .filter_map(|field| match field.data_type() {
            DataType::FixedSizeList(_, size)
                if !crate::tensor_type::has_tensor_extension(field) =>
            {
                Some(format!("'{}' (a FixedSizeList of {size})", field.name()))
            }
            _ => None,
        })
        .collect();
    if plain.is_empty() {
        return DataFusionError::Plan(message);
    }
    DataFusionError::Plan(format!(
        "{message} (note: {} no arrow.fixed_shape_tensor metadata, so 1-d tensors; restore the shape with tensor(values, shape), or read Parquet with datafusion.execution.parquet.skip_metadata = false)",
        if plain.len() == 1 {
            format!("argument {} has", plain[0])
        } else {
            format!("arguments {} have", plain.join(", "))
        }
    ))
}

/// The arguments of a call as the planner sees them.
#[derive(Debug)]
pub struct PlanArgs<'a> {
    /// The function's SQL name (for messages).
    pub name: &'static str,
    /// One field per argument, with its metadata.
    pub fields: &'a [FieldRef],
    /// The value of each argument that is a literal.
    pub scalars: &'a [Option<&'a ScalarValue>],
    /// The session's limits, which the shapes a plan computes are checked against (and a
    /// plan that computes shapes per row keeps).
    pub limits: Limits,
}

impl PlanArgs<'_> {
    /// Argument `i` read as a tensor, or a plan error saying it is not one and how to restore it.
    pub fn tensor(&self, i: usize, arg_name: &str) -> Result<TensorType> {
        let Some(field) = self.fields.get(i) else {
            return plan_err!("{}: argument {arg_name} is missing", self.name);
        };
        match tensor_of(field)? {
            Some(tensor) => Ok(tensor),
            None if has_variable_shape_extension(field) => plan_err!(
                "{}: argument {arg_name} is a variable-shape tensor ({}), which {} does not take yet",
                self.name,
                variable_of(field)?.map_or_else(String::new, |t| t.to_string()),
                self.name
            ),
            None => plan_err!(
                "{}: argument {arg_name} must be a tensor (an arrow.fixed_shape_tensor or FixedSizeList column), got {}; if a CASE, COALESCE or cast dropped its tensor type, restore it with tensor(values, shape)",
                self.name,
                field.data_type()
            ),
        }
    }

    /// Argument `i` read as a tensor of either kind, fixed- or variable-shape.
    pub fn any_tensor(&self, i: usize, arg_name: &str) -> Result<AnyTensorType> {
        if let Some(field) = self.fields.get(i)
            && let Some(tensor) = variable_of(field)?
        {
            return Ok(AnyTensorType::Variable(tensor));
        }
        self.tensor(i, arg_name).map(AnyTensorType::Fixed)
    }

    /// The literal value of argument `i`, if it is a literal (`None` also when absent).
    pub fn literal(&self, i: usize) -> Option<&ScalarValue> {
        self.scalars.get(i).copied().flatten()
    }
}

/// `scalars` with the arguments `literal` says were not literals as written left out (all of
/// them kept without a mask).
pub(crate) fn literals_as_written<'a>(
    literal: Option<&[bool]>,
    scalars: &[Option<&'a ScalarValue>],
) -> Vec<Option<&'a ScalarValue>> {
    match literal {
        Some(literal) => scalars
            .iter()
            .enumerate()
            .map(|(i, s)| s.filter(|_| literal.get(i).copied().unwrap_or(false)))
            .collect(),
        None => scalars.to_vec(),
    }
}

/// A compiled call, with the argument types it was planned for (list literals and list
/// columns as the tensors [`plan_with_list_tensors`] made of them).
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Planned<P> {
    /// The plan.
    pub plan: P,
    /// The argument types the plan expects.
    pub arg_types: Vec<DataType>,
}

/// A [`TensorFunction`] as a DataFusion scalar UDF, with or without its compiled plan.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct TensorUdf<F: TensorFunction> {
    function: Arc<F>,
    /// From the function's [`Parameters`].
    signature: Signature,
    plan: Option<Arc<Planned<F::Plan>>>,
    /// What `plan` was compiled from.
    inputs: Option<Arc<CallInputs>>,
    /// The session's limits: what a call is planned with when DataFusion asks its result
    /// type (`crate::limits`).
    limits: Limits,
    /// Which arguments were literals as the query was written (a call's own instance, from
    /// [`crate::rules::FreezeLiteralArguments`]); `None`: every literal argument counts.
    literal_arguments: Option<Arc<[bool]>>,
}

impl<F: TensorFunction> TensorUdf<F> {
    /// The registered, not yet planned, instance (with the default limits).
    pub fn new(function: F) -> Self {
        Self {
            signature: function.parameters().signature(),
            function: Arc::new(function),
            plan: None,
            inputs: None,
            limits: Limits::default(),
            literal_arguments: None,
        }
    }

    /// This registered instance for one call whose arguments `literal` were literals as
    /// written: an argument folded into a literal later (`CAST('NaN' AS DOUBLE)`, `1 + 1`, a
    /// column the Parquet reader finds constant) is still planned as the expression it was,
    /// so the call's type does not change between planning and execution. `None` for an
    /// instance already frozen or planned.
    #[must_use]
    pub fn frozen(&self, literal: &[bool]) -> Option<Self> {
        (self.plan.is_none() && self.literal_arguments.is_none()).then(|| Self {
            function: Arc::clone(&self.function),
            signature: self.signature.clone(),
            plan: None,
            inputs: None,
            limits: self.limits,
            literal_arguments: Some(literal.into()),
        })
    }

    /// `scalars` without the arguments that were not literals as written.
    fn as_written<'a>(&self, scalars: &[Option<&'a ScalarValue>]) -> Vec<Option<&'a ScalarValue>> {
        literals_as_written(self.literal_arguments.as_deref(), scalars)
    }

    /// This instance under a session's `limits`.
    #[must_use]
    pub fn with_limits(&self, limits: Limits) -> Self {
        Self {
            function: Arc::clone(&self.function),
            signature: self.signature.clone(),
            plan: self.plan.clone(),
            inputs: self.inputs.clone(),
            limits,
            literal_arguments: self.literal_arguments.clone(),
        }
    }

    /// The limits this instance plans with.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// The function.
    pub fn function(&self) -> &F {
        &self.function
    }

    /// What a planned call was planned from (`None`: the registered instance).
    pub fn inputs(&self) -> Option<&CallInputs> {
        self.inputs.as_deref()
    }

    /// A planned call of this function: planned from `inputs` as the optimizer plans it,
    /// under `limits`.
    pub fn planned(&self, inputs: CallInputs, limits: Limits) -> Result<Self> {
        let plan = self.plan_from_fields(&inputs.fields, &inputs.scalar_refs(), limits)?;
        Ok(Self {
            function: Arc::clone(&self.function),
            signature: self.signature.clone(),
            plan: Some(Arc::new(plan)),
            inputs: Some(Arc::new(inputs)),
            limits,
            literal_arguments: self.literal_arguments.clone(),
        })
    }

    fn plan_from_fields(
        &self,
        fields: &[FieldRef],
        scalars: &[Option<&ScalarValue>],
        limits: Limits,
    ) -> Result<Planned<F::Plan>> {
        plan_with_list_tensors(
            self.function.as_ref(),
            fields,
            scalars,
            |fields, scalars| {
                // Argument count and kinds first, whoever calls: plans may then index their
                // arguments.
                let types: Vec<DataType> = fields.iter().map(|f| f.data_type().clone()).collect();
                self.coerce_types(&types)?;
                let name = self.function.name();
                let plan = self
                    .function
                    .plan(&PlanArgs {
                        name,
                        fields,
                        scalars,
                        limits,
                    })
                    .map_err(|err| explain_plain_lists(name_plan_error(name, err), fields))?;
                // The result's shape against the session's element limit, whatever the plan
                // checked on its way (the shapes it allocated for).
                if let Some(result) = tensor_of(&self.function.return_field(&plan))? {
                    limits
                        .checked_size(&result.logical_shape())
                        .map_err(|err| err.in_function(name))?;
                }
                Ok(plan)
            },
        )
    }
}

impl<F: TensorFunction> ScalarUDFImpl for TensorUdf<F> {
    fn name(&self) -> &str {
        self.function.name()
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    /// DataFusion's name (`name(arg,arg)`), written into one string. The default formats each
    /// argument's name into a string of its own, and DataFusion names every node of a nested
    /// call as it types it: a chain of 300 tensor operators (`x + x + ...`, nested calls of
    /// one function type) took 4.3 s to plan, cubic in its length.
    fn schema_name(&self, args: &[Expr]) -> Result<String> {
        let mut name = String::new();
        self.write_schema_name(&mut name, args)?;
        Ok(name)
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        self.function
            .parameters()
            .check_count(self.function.name(), arg_types.len())?;
        self.function.coerce_types(arg_types)
    }

    fn return_type(&self, _arg_types: &[DataType]) -> Result<DataType> {
        // return_field_from_args is implemented, so DataFusion never calls this.
        datafusion::common::internal_err!("{}: return_field_from_args is used instead", self.name())
    }

    fn return_field_from_args(&self, args: ReturnFieldArgs) -> Result<FieldRef> {
        match &self.plan {
            Some(planned) => Ok(self.function.return_field(&planned.plan)),
            None => {
                let scalars = self.as_written(args.scalar_arguments);
                let planned = self.plan_from_fields(args.arg_fields, &scalars, self.limits)?;
                Ok(self.function.return_field(&planned.plan))
            }
        }
    }

    /// The registered instance under the session's new limits, when they changed: DataFusion
    /// asks every function when a setting changes (`SET`, `RESET`, a session built with
    /// them).
    fn with_updated_config(&self, config: &ConfigOptions) -> Option<ScalarUDF> {
        let limits = Limits::of(config);
        (self.plan.is_none() && limits != self.limits)
            .then(|| ScalarUDF::new_from_impl(self.with_limits(limits)))
    }

    fn simplify(&self, args: Vec<Expr>, info: &SimplifyContext) -> Result<ExprSimplifyResult> {
        if self.plan.is_some() {
            return Ok(ExprSimplifyResult::Original(args));
        }
        // An argument that is a planned call of this function type gives its field without
        // DataFusion typing its whole subtree again (`to_field` types every node below: a
        // chain of tensor operators, each simplified in turn, was cubic to plan).
        let fields = args
            .iter()
            .map(|arg| match Self::own_call(arg) {
                Some((inner, _)) if let Some(planned) = &inner.plan => {
                    Ok(inner.function.return_field(&planned.plan))
                }
                _ => Ok(arg.to_field(info.schema())?.1),
            })
            .collect::<Result<Vec<_>>>()?;
        let scalars: Vec<Option<&ScalarValue>> = args
            .iter()
            .map(|arg| match arg {
                Expr::Literal(value, _) => Some(value),
                _ => None,
            })
            .collect();
        let scalars = self.as_written(&scalars);
        let limits = Limits::of(info.config_options());
        let planned = self.planned(CallInputs::new(&fields, &scalars), limits)?;
        let planned = ScalarUDF::new_from_impl(planned);
        Ok(ExprSimplifyResult::Simplified(Expr::ScalarFunction(
            ScalarFunction::new_udf(Arc::new(planned), args),
        )))
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        self.invoke_planned(args)
    }

    fn documentation(&self) -> Option<&Documentation> {
        self.function.documentation()
    }
}

impl<F: TensorFunction> TensorUdf<F> {
    /// `expr` as a call of this function type: its instance (planned or not), and the call.
    fn own_call(expr: &Expr) -> Option<(&Self, &ScalarFunction)> {
        let Expr::ScalarFunction(call) = expr else {
            return None;
        };
        Some((call.func.inner().downcast_ref::<Self>()?, call))
    }

    /// Writes the call's schema name to `out`, the arguments that are calls of this same
    /// function type written in place (the rest as DataFusion's `SchemaDisplay` writes them).
    fn write_schema_name(&self, out: &mut String, args: &[Expr]) -> Result<()> {
        use std::fmt::Write;
        out.push_str(self.name());
        out.push('(');
        for (i, arg) in args.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            match Self::own_call(arg) {
                Some((inner, call)) if call.func.name() == inner.name() => {
                    inner.write_schema_name(out, &call.args)?;
                }
                _ => write!(out, "{}", arg.schema_name())
                    .map_err(|err| DataFusionError::External(Box::new(err)))?,
            }
        }
        out.push(')');
        Ok(())
    }

    /// Runs a call over one batch, under the session's limits.
    fn invoke_planned(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        let limits = Limits::of(&args.config_options);
        limits.check_batch_bytes(
            self.function.name(),
            args.return_field.data_type(),
            args.number_rows,
        )?;
        if let Some(planned) = &self.plan {
            let values =
                with_list_tensors(self.function.as_ref(), planned, &args.arg_fields, args.args)?;
            return self
                .function
                .invoke_owned(&planned.plan, values, args.number_rows);
        }
        // Not simplified (an embedder that builds physical expressions directly): plan from
        // the argument fields once for this batch.
        let scalars: Vec<Option<&ScalarValue>> = args
            .args
            .iter()
            .map(|arg| match arg {
                ColumnarValue::Scalar(value) => Some(value),
                ColumnarValue::Array(_) => None,
            })
            .collect();
        let scalars = self.as_written(&scalars);
        let planned = self.plan_from_fields(&args.arg_fields, &scalars, limits)?;
        let values = with_list_tensors(
            self.function.as_ref(),
            &planned,
            &args.arg_fields,
            args.args,
        )?;
        self.function
            .invoke_owned(&planned.plan, values, args.number_rows)
    }
}

/// Runs `kernel` over the arguments at `data` (the others are literals the plan has read):
/// literal data arguments are expanded to the batch, unless all of them are literals, in which
/// case the kernel runs on one row and the result is a literal too.
pub fn map_arrays(
    args: &[ColumnarValue],
    data: &[usize],
    number_rows: usize,
    kernel: impl FnOnce(&[ArrayRef]) -> Result<ArrayRef>,
) -> Result<ColumnarValue> {
    let all_scalar = data
        .iter()
        .all(|&i| matches!(args[i], ColumnarValue::Scalar(_)));
    let rows = if all_scalar { 1 } else { number_rows };
    let arrays = data
        .iter()
        .map(|&i| args[i].to_array(rows))
        .collect::<Result<Vec<_>>>()?;
    let out = kernel(&arrays)?;
    if all_scalar {
        Ok(ColumnarValue::Scalar(ScalarValue::try_from_array(&out, 0)?))
    } else {
        Ok(ColumnarValue::Array(out))
    }
}

/// The `FixedSizeList` storage of a tensor argument whose type the plan has checked.
pub fn tensor_array<'a>(name: &str, array: &'a ArrayRef) -> Result<&'a FixedSizeListArray> {
    match array.as_any().downcast_ref::<FixedSizeListArray>() {
        Some(list) => Ok(list),
        None => exec_err!(
            "{name}: expected a tensor (FixedSizeList) argument at run time, got {}",
            array.data_type()
        ),
    }
}

/// A variable-shape tensor argument's batch, its row shapes checked (an execution error naming
/// the function and the first bad row).
pub fn variable_array<'a>(
    name: &str,
    tensor: &VariableShapeType,
    array: &'a ArrayRef,
) -> Result<VariableShapeArray<'a>> {
    VariableShapeArray::try_new(tensor, array.as_ref()).map_err(|e| e.in_function(name))
}

/// Reads a literal integer list such as a shape `[2, 3]` (a `List`, `LargeList` or
/// A literal list of integer lists (`[[1, 0], [0, 1]]`).
pub fn literal_nested_int_lists(value: &ScalarValue) -> Option<Vec<Vec<i64>>> {
    let outer = match value {
        ScalarValue::List(list) if list.len() == 1 && list.is_valid(0) => list.value(0),
        ScalarValue::LargeList(list) if list.len() == 1 && list.is_valid(0) => list.value(0),
        ScalarValue::FixedSizeList(list) if list.len() == 1 && list.is_valid(0) => list.value(0),
        _ => return None,
    };
    (0..outer.len())
        .map(|k| {
            let item = ScalarValue::try_from_array(&outer, k).ok()?;
            literal_int_list(&item)
        })
        .collect()
}

/// `FixedSizeList` literal of integers without NULLs).
pub fn literal_int_list(value: &ScalarValue) -> Option<Vec<i64>> {
    let array: ArrayRef = match value {
        ScalarValue::List(list) if list.len() == 1 && list.is_valid(0) => list.value(0),
        ScalarValue::LargeList(list) if list.len() == 1 && list.is_valid(0) => list.value(0),
        ScalarValue::FixedSizeList(list) if list.len() == 1 && list.is_valid(0) => list.value(0),
        _ => return None,
    };
    if !array.data_type().is_integer() && *array.data_type() != DataType::Null {
        return None;
    }
    if array.null_count() > 0 && *array.data_type() != DataType::Null {
        return None;
    }
    if *array.data_type() == DataType::Null {
        // `[]` is a list of the Null type; a non-empty list of NULLs is not a shape.
        return array.is_empty().then(Vec::new);
    }
    let values =
        arrow::compute::cast_with_options(&array, &DataType::Int64, &crate::dtype::strict_cast())
            .ok()?;
    let values = values.as_any().downcast_ref::<arrow::array::Int64Array>()?;
    Some(values.values().to_vec())
}

/// Reads a literal list of strings such as dim names `['C', 'H', 'W']`.
pub fn literal_string_list(value: &ScalarValue) -> Option<Vec<String>> {
    let array: ArrayRef = match value {
        ScalarValue::List(list) if list.len() == 1 && list.is_valid(0) => list.value(0),
        ScalarValue::LargeList(list) if list.len() == 1 && list.is_valid(0) => list.value(0),
        ScalarValue::FixedSizeList(list) if list.len() == 1 && list.is_valid(0) => list.value(0),
        _ => return None,
    };
    if array.null_count() > 0 {
        return None;
    }
    let values = arrow::compute::cast(&array, &DataType::Utf8).ok()?;
    let values = values
        .as_any()
        .downcast_ref::<arrow::array::StringArray>()?;
    Some(
        values
            .iter()
            .map(|v| v.unwrap_or_default().to_string())
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use datafusion::logical_expr::{col, lit};

    use super::*;
    use crate::kernels::elementwise::BinaryOp;
    use crate::udf::math::TensorBinary;

    /// A tensor call's schema name is DataFusion's (`name(arg,arg)`, each argument by its own
    /// schema name), whether its arguments are calls of its own type (written in place) or
    /// anything else.
    #[test]
    fn schema_names_are_datafusions() {
        let call = |op, args| {
            let udf: ScalarUDF = TensorUdf::new(TensorBinary::new(op)).into();
            Expr::ScalarFunction(ScalarFunction::new_udf(Arc::new(udf), args))
        };
        let x = col("t.x");
        let product = call(BinaryOp::Multiply, vec![x.clone(), lit(2.0)]);
        let abs = datafusion::functions::math::abs().call(vec![col("y")]);
        let sum = call(BinaryOp::Add, vec![product, abs]);
        let chain = call(
            BinaryOp::Add,
            vec![call(BinaryOp::Add, vec![x.clone(), x.clone()]), x],
        );
        assert_eq!(
            sum.schema_name().to_string(),
            "tensor_add(tensor_multiply(t.x,Float64(2)),abs(y))"
        );
        assert_eq!(
            chain.schema_name().to_string(),
            "tensor_add(tensor_add(t.x,t.x),t.x)"
        );
    }
}
