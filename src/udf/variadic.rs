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

use std::fmt::Debug;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex};

use arrow::datatypes::{DataType, FieldRef};
use datafusion::common::{ScalarValue, exec_err};
use datafusion::error::Result;
use datafusion::logical_expr::{
    ColumnarValue, Documentation, HigherOrderFunctionArgs, HigherOrderReturnFieldArgs,
    HigherOrderSignature, HigherOrderUDF, HigherOrderUDFImpl, LambdaParametersProgress,
    ValueOrLambda, Volatility,
};

use super::{PlanArgs, TensorFunction};

/// The last plan compiled, with the argument fields and literals it was compiled for.
type CachedPlan<P> = Option<(Vec<FieldRef>, Vec<Option<ScalarValue>>, Arc<P>)>;

/// A [`TensorFunction`] registered as a lambda-free higher-order function.
#[derive(Debug)]
pub struct VariadicTensorUdf<F: TensorFunction> {
    function: F,
    signature: HigherOrderSignature,
    cache: Mutex<CachedPlan<F::Plan>>,
}

impl<F: TensorFunction> VariadicTensorUdf<F> {
    /// The registered instance.
    pub fn new(function: F) -> Self {
        Self {
            function,
            signature: HigherOrderSignature::user_defined(Volatility::Immutable),
            cache: Mutex::new(None),
        }
    }

    /// As a DataFusion higher-order function, ready to register.
    pub fn into_udf(self) -> HigherOrderUDF {
        HigherOrderUDF::new_from_impl(self)
    }

    fn plan(&self, fields: &[FieldRef], scalars: &[Option<&ScalarValue>]) -> Result<Arc<F::Plan>> {
        let owned: Vec<Option<ScalarValue>> = scalars.iter().map(|s| s.cloned()).collect();
        if let Ok(cache) = self.cache.lock()
            && let Some((cached_fields, cached_scalars, plan)) = cache.as_ref()
            && cached_fields == fields
            && *cached_scalars == owned
        {
            return Ok(Arc::clone(plan));
        }
        let types: Vec<DataType> = fields.iter().map(|f| f.data_type().clone()).collect();
        self.function.coerce_types(&types)?;
        let plan = Arc::new(
            self.function
                .plan(&PlanArgs {
                    name: self.function.name(),
                    fields,
                    scalars,
                })
                .map_err(|err| {
                    super::explain_plain_lists(
                        super::name_plan_error(self.function.name(), err),
                        fields,
                    )
                })?,
        );
        if let Ok(mut cache) = self.cache.lock() {
            *cache = Some((fields.to_vec(), owned, Arc::clone(&plan)));
        }
        Ok(plan)
    }
}

impl<F: TensorFunction> PartialEq for VariadicTensorUdf<F> {
    fn eq(&self, other: &Self) -> bool {
        self.function == other.function
    }
}

impl<F: TensorFunction> Eq for VariadicTensorUdf<F> {}

impl<F: TensorFunction> Hash for VariadicTensorUdf<F> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.function.hash(state);
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
        let fields = values(args.arg_fields)?;
        let plan = self.plan(&fields, args.scalar_arguments)?;
        Ok(self.function.return_field(&plan))
    }

    fn clear_null_values(&self) -> bool {
        // NULL list rows are handled (skipped) by the kernels themselves.
        false
    }

    fn invoke_with_args(&self, args: HigherOrderFunctionArgs) -> Result<ColumnarValue> {
        super::check_batch_bytes(self.name(), args.return_field.data_type(), args.number_rows)?;
        let fields = values(&args.arg_fields)?;
        let values = args
            .args
            .into_iter()
            .map(|arg| match arg {
                ValueOrLambda::Value(value) => Ok(value),
                ValueOrLambda::Lambda(_) => exec_err!("this function takes no lambda arguments"),
            })
            .collect::<Result<Vec<_>>>()?;
        let scalars: Vec<Option<&ScalarValue>> = values
            .iter()
            .map(|value| match value {
                ColumnarValue::Scalar(scalar) => Some(scalar),
                ColumnarValue::Array(_) => None,
            })
            .collect();
        let plan = self.plan(&fields, &scalars)?;
        self.function.invoke(&plan, &values, args.number_rows)
    }

    fn documentation(&self) -> Option<&Documentation> {
        self.function.documentation()
    }
}
