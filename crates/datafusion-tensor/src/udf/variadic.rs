//! Variadic tensor functions with named trailing options: `tensor_choose(a, c0, c1, mode => 'clip')`.
//!
//! DataFusion 55 resolves named arguments of scalar UDFs against a fixed list of parameter
//! names, so a named option after a variable number of positional arguments cannot resolve
//! (`mode` would have to sit at a different index for every call). Higher-order functions are
//! planned differently: their arguments stay in call order, names dropped. A [`TensorFunction`]
//! whose options are recognised by type and position (a trailing string is choose's mode) is
//! therefore registered through this adapter as a higher-order function without lambdas.
//!
//! Higher-order functions have no `simplify` hook to carry a plan in the instance; the plan is
//! compiled on first use and kept for as long as the argument types and literals stay the same
//! (in practice: once per query and partition).
//!
//! Which arguments are literals decides the result type (numpy's weak literals), and DataFusion
//! turns arguments into literals after the type was fixed: the optimizer folds `1 + 1` into
//! `2`, and the Parquet reader replaces a column whose statistics say it is constant in a file
//! with that value. An analyzer rule run before either, [`crate::rules::FreezeLiteralArguments`],
//! therefore gives every call an instance that remembers which of its arguments were literals
//! as written; an argument that becomes a literal later is still planned as the expression it
//! was.

use std::fmt::Debug;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use arrow::datatypes::{DataType, FieldRef};
use datafusion::common::{ScalarValue, exec_err};
use datafusion::error::Result;
use datafusion::logical_expr::{
    ColumnarValue, Documentation, HigherOrderFunctionArgs, HigherOrderReturnFieldArgs,
    HigherOrderSignature, HigherOrderUDF, HigherOrderUDFImpl, LambdaParametersProgress,
    ValueOrLambda, Volatility,
};

use super::plan_cache::PlanCache;
use super::{PlanArgs, TensorFunction};
use crate::limits::Limits;

/// A [`TensorFunction`] registered as a lambda-free higher-order function.
#[derive(Debug)]
pub struct VariadicTensorUdf<F: TensorFunction> {
    function: Arc<F>,
    signature: HigherOrderSignature,
    cache: PlanCache<super::Planned<F::Plan>>,
    /// For a call's own instance: which arguments were literals when the query was analysed
    /// (others are planned as expressions even once they have become literals).
    pub(crate) literal_arguments: Option<Vec<bool>>,
    /// For a call's instance sent to another process: the argument fields and literals it was
    /// planned with where the query was planned (plan serialisation drops field and literal
    /// metadata), used in place of those the call arrives with ([`super::call_state`]).
    pub(crate) pinned: Option<Arc<super::CallInputs>>,
    /// The session's limits, which a call is planned with when DataFusion asks its result
    /// type (`crate::limits`; a batch runs under its session's own).
    limits: Limits,
}

impl<F: TensorFunction> VariadicTensorUdf<F> {
    /// The registered instance.
    pub fn new(function: F) -> Self {
        Self {
            function: Arc::new(function),
            signature: HigherOrderSignature::user_defined(Volatility::Immutable),
            cache: PlanCache::new(),
            literal_arguments: None,
            pinned: None,
            limits: Limits::default(),
        }
    }

    /// This instance under a session's `limits`.
    #[must_use]
    pub fn with_limits(&self, limits: Limits) -> Self {
        Self {
            function: Arc::clone(&self.function),
            signature: self.signature.clone(),
            cache: PlanCache::new(),
            literal_arguments: self.literal_arguments.clone(),
            pinned: self.pinned.clone(),
            limits,
        }
    }

    /// The same function for one call whose literal arguments are those marked.
    pub(crate) fn frozen(&self, literal_arguments: Vec<bool>) -> Self {
        Self {
            function: Arc::clone(&self.function),
            signature: self.signature.clone(),
            cache: PlanCache::new(),
            literal_arguments: Some(literal_arguments),
            pinned: None,
            limits: self.limits,
        }
    }

    /// The same call with its planning inputs pinned: `literal_arguments` as this instance's,
    /// `pinned` the fields and literals (as analysed) it is planned with from now on.
    pub(crate) fn with_state(
        &self,
        literal_arguments: Option<Vec<bool>>,
        pinned: Option<super::CallInputs>,
    ) -> Self {
        Self {
            function: Arc::clone(&self.function),
            signature: self.signature.clone(),
            cache: PlanCache::new(),
            literal_arguments,
            pinned: pinned.map(Arc::new),
            limits: self.limits,
        }
    }

    /// This call pinned to the argument fields and literals it has where it is planned.
    pub(crate) fn pinned_to(&self, fields: &[FieldRef], scalars: &[Option<&ScalarValue>]) -> Self {
        let scalars = self.as_analysed(scalars);
        self.with_state(
            self.literal_arguments.clone(),
            Some(super::CallInputs::new(fields, &scalars)),
        )
    }

    /// `scalars` with the arguments that were not literals when the call was analysed left
    /// out; all of them for a registered (not frozen) instance.
    fn as_analysed<'a>(&self, scalars: &[Option<&'a ScalarValue>]) -> Vec<Option<&'a ScalarValue>> {
        super::literals_as_written(self.literal_arguments.as_deref(), scalars)
    }

    /// The function's SQL name.
    pub(crate) fn function_name(&self) -> &'static str {
        self.function.name()
    }

    /// As a DataFusion higher-order function, ready to register.
    pub fn into_udf(self) -> HigherOrderUDF {
        HigherOrderUDF::new_from_impl(self)
    }

    fn plan(
        &self,
        fields: &[FieldRef],
        scalars: &[Option<&ScalarValue>],
        limits: Limits,
    ) -> Result<Arc<super::Planned<F::Plan>>> {
        self.cache.get_or_plan(fields, scalars, limits, || {
            let function = self.function.as_ref();
            super::plan_with_list_tensors(function, fields, scalars, |fields, scalars| {
                let types: Vec<DataType> = fields.iter().map(|f| f.data_type().clone()).collect();
                function.coerce_types(&types)?;
                function
                    .plan(&PlanArgs {
                        name: function.name(),
                        fields,
                        scalars,
                        limits,
                    })
                    .map_err(|err| {
                        super::explain_plain_lists(
                            super::name_plan_error(function.name(), err),
                            fields,
                        )
                    })
            })
        })
    }
}

impl<F: TensorFunction> PartialEq for VariadicTensorUdf<F> {
    fn eq(&self, other: &Self) -> bool {
        self.function == other.function
            && self.literal_arguments == other.literal_arguments
            && self.pinned == other.pinned
            && self.limits == other.limits
    }
}

impl<F: TensorFunction> Eq for VariadicTensorUdf<F> {}

impl<F: TensorFunction> Hash for VariadicTensorUdf<F> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.function.hash(state);
        self.literal_arguments.hash(state);
        self.pinned.hash(state);
        self.limits.hash(state);
    }
}

fn values<T: Clone, L>(args: &[ValueOrLambda<T, L>]) -> Result<Vec<T>> {
    args.iter()
        .map(|arg| match arg {
            ValueOrLambda::Value(value) => Ok(value.clone()),
            ValueOrLambda::Lambda(_) => exec_err!("this function takes no lambda arguments"),
        })
        .collect()
}

impl<F: TensorFunction> HigherOrderUDFImpl for VariadicTensorUdf<F> {
    fn name(&self) -> &str {
        self.function.name()
    }

    fn signature(&self) -> &HigherOrderSignature {
        &self.signature
    }

    fn coerce_value_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        self.function.coerce_types(arg_types)
    }

    fn lambda_parameters(
        &self,
        _step: usize,
        fields: &[ValueOrLambda<FieldRef, Option<FieldRef>>],
    ) -> Result<LambdaParametersProgress> {
        if fields.iter().any(|f| matches!(f, ValueOrLambda::Lambda(_))) {
            return datafusion::common::plan_err!(
                "{} takes no lambda arguments",
                self.function.name()
            );
        }
        Ok(LambdaParametersProgress::Complete(vec![]))
    }

    fn return_field_from_args(&self, args: HigherOrderReturnFieldArgs) -> Result<FieldRef> {
        let plan = match &self.pinned {
            Some(pinned) => self.plan(&pinned.fields, &pinned.scalar_refs(), self.limits)?,
            None => {
                let fields = values(args.arg_fields)?;
                self.plan(
                    &fields,
                    &self.as_analysed(args.scalar_arguments),
                    self.limits,
                )?
            }
        };
        Ok(self.function.return_field(&plan.plan))
    }

    fn clear_null_values(&self) -> bool {
        // NULL list rows are handled (skipped) by the kernels themselves.
        false
    }

    fn invoke_with_args(&self, args: HigherOrderFunctionArgs) -> Result<ColumnarValue> {
        let limits = Limits::of(&args.config_options);
        limits.check_batch_bytes(self.name(), args.return_field.data_type(), args.number_rows)?;
        let fields = match &self.pinned {
            Some(pinned) => pinned.fields.clone(),
            None => values(&args.arg_fields)?,
        };
        let values = args
            .args
            .into_iter()
            .map(|arg| match arg {
                ValueOrLambda::Value(value) => Ok(value),
                ValueOrLambda::Lambda(_) => {
                    exec_err!("this function takes no lambda arguments")
                }
            })
            .collect::<Result<Vec<_>>>()?;
        let scalars: Vec<Option<&ScalarValue>> = values
            .iter()
            .map(|value| match value {
                ColumnarValue::Scalar(scalar) => Some(scalar),
                ColumnarValue::Array(_) => None,
            })
            .collect();
        let scalars = match &self.pinned {
            Some(pinned) => pinned.scalar_refs(),
            None => self.as_analysed(&scalars),
        };
        let promised = |plan: &Result<Arc<super::Planned<F::Plan>>>| {
            plan.as_ref().is_ok_and(|plan| {
                self.function.return_field(&plan.plan).data_type() == args.return_field.data_type()
            })
        };
        let mut plan = self.plan(&fields, &scalars, limits);
        if !promised(&plan) {
            // Not frozen (registered without the analyzer rule), and an argument planned as an
            // expression arrives as a value: plan it as the expression it was.
            let strings_only: Vec<Option<&ScalarValue>> = scalars
                .iter()
                .map(|s| s.filter(|v| !is_number_or_boolean(v)))
                .collect();
            let retry = self.plan(&fields, &strings_only, limits);
            if promised(&retry) {
                plan = retry;
            }
        }
        let plan = plan?;
        let values = super::with_list_tensors(self.function.as_ref(), &plan, &fields, values)?;
        self.function
            .invoke_owned(&plan.plan, values, args.number_rows)
    }

    fn documentation(&self) -> Option<&Documentation> {
        self.function.documentation()
    }
}

fn is_number_or_boolean(value: &ScalarValue) -> bool {
    let data_type = value.data_type();
    data_type.is_numeric() || data_type == DataType::Boolean
}
