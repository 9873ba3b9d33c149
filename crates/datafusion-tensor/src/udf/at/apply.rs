//! `tensor_at_apply(x, idx, fn, ...)`: JAX's `x.at[idx].apply(fn)`, registered as a
//! higher-order function so that `fn` may be a SQL lambda (`v -> v * 2 + 1`), as
//! `array_transform` takes one; a string names a built-in unary function instead.
//!
//! DataFusion 55 plans higher-order calls with their arguments in call order and drops
//! argument names, so the options after `fn` are read by position (mode, then the flags). The
//! plan is kept in a [`PlanCache`], as for the variadic functions.

use std::hash::{Hash, Hasher};
use std::sync::Arc;

use arrow::array::{Array, ArrayRef, UInt32Array};
use arrow::compute::take_arrays;
use arrow::datatypes::{DataType, FieldRef};
use datafusion::common::{ScalarValue, plan_err};
use datafusion::error::Result;
use datafusion::logical_expr::{
    ColumnarValue, Documentation, HigherOrderFunctionArgs, HigherOrderReturnFieldArgs,
    HigherOrderSignature, HigherOrderUDF, HigherOrderUDFImpl, LambdaParametersProgress,
    ValueOrLambda, Volatility,
};

use super::super::PlanArgs;
use super::super::lambda::element_parameter;
use super::super::plan_cache::PlanCache;
use super::{ApplyFn, AtCall, AtOp, apply_by_name, documentation, plan_call};
use crate::error::TensorError;
use crate::limits::Limits;

const NAME: &str = "tensor_at_apply";

/// `tensor_at_apply`.
#[derive(Debug)]
pub struct TensorAtApply {
    signature: HigherOrderSignature,
    documentation: Documentation,
    cache: PlanCache<AtCall>,
    /// For a call's instance sent to another process: the (flattened) argument fields and the
    /// literals it was planned with where the query was planned, used in place of those the
    /// call arrives with (see `VariadicTensorUdf::pinned`).
    pub(crate) pinned: Option<Arc<super::super::CallInputs>>,
    /// The session's limits, which a call is planned with when DataFusion asks its result
    /// type (`crate::limits`; a batch runs under its session's own).
    limits: Limits,
}

impl TensorAtApply {
    /// The registered instance.
    pub fn new() -> Self {
        Self {
            signature: HigherOrderSignature::user_defined(Volatility::Immutable),
            documentation: documentation(AtOp::Apply),
            cache: PlanCache::new(),
            pinned: None,
            limits: Limits::default(),
        }
    }

    /// This instance under a session's `limits`.
    #[must_use]
    pub fn with_limits(&self, limits: Limits) -> Self {
        Self {
            pinned: self.pinned.clone(),
            limits,
            ..Self::new()
        }
    }

    /// A call's instance planned with `pinned` from now on (under this instance's limits).
    pub(crate) fn with_pinned(&self, pinned: Option<super::super::CallInputs>) -> Self {
        Self {
            pinned: pinned.map(Arc::new),
            limits: self.limits,
            ..Self::new()
        }
    }

    /// This call pinned to the argument fields (a lambda's by its result field) and literals
    /// it has where it is planned.
    pub(crate) fn pinned_to(
        &self,
        fields: &[ValueOrLambda<FieldRef, FieldRef>],
        scalars: &[Option<&ScalarValue>],
    ) -> Result<Self> {
        let (fields, lambda) = flatten_fields(fields)?;
        let scalars: Vec<Option<&ScalarValue>> = scalars
            .iter()
            .enumerate()
            .map(|(i, s)| if lambda && i == 2 { None } else { *s })
            .collect();
        Ok(self.with_pinned(Some(super::super::CallInputs::new(&fields, &scalars))))
    }

    /// As a DataFusion higher-order function, ready to register.
    pub fn into_udf(self) -> HigherOrderUDF {
        HigherOrderUDF::new_from_impl(self)
    }

    /// Plans a call whose argument 2 is a lambda (its result field given) or a function name.
    fn plan(
        &self,
        fields: &[FieldRef],
        scalars: &[Option<&ScalarValue>],
        lambda: bool,
        limits: Limits,
    ) -> Result<Arc<AtCall>> {
        self.cache.get_or_plan(fields, scalars, limits, || {
            let types: Vec<DataType> = fields.iter().map(|f| f.data_type().clone()).collect();
            AtOp::Apply.parameters().check_count(NAME, types.len())?;
            let args = PlanArgs {
                name: NAME,
                fields,
                scalars,
                limits,
            };
            let x = args.any_tensor(0, "x")?;
            let apply = if lambda {
                let result = fields[2].data_type();
                let element = x.element_type();
                // Integer lambdas compute in 64 bits (their literals are Int64, see
                // rules::weak) and are cast back, checked, at run time.
                let narrowed = result.is_integer() && element.is_integer();
                if result != element && !narrowed {
                    return plan_err!(
                        "{NAME}: the lambda returns {result}, but its result must have the tensor's element type {element}{}",
                        if result.is_floating() && element.is_integer() {
                            " (a float literal or value makes the result float, as in JAX)"
                        } else {
                            ""
                        }
                    );
                }
                ApplyFn::Lambda
            } else {
                apply_by_name(&args)?
            };
            plan_call(&args, AtOp::Apply, Some(apply))
        })
    }
}

/// A lambda's integer result cast back to the tensor's element type; a value that does not
/// fit is an overflow error naming its row (`rows[i]`: the row of value `i`).
fn narrow(value: ArrayRef, element: &DataType, rows: &[usize]) -> Result<ArrayRef, TensorError> {
    if value.data_type() == element {
        return Ok(value);
    }
    let options = arrow::compute::CastOptions {
        safe: true,
        ..Default::default()
    };
    let narrowed = arrow::compute::cast_with_options(&value, element, &options)?;
    if narrowed.null_count() != value.null_count() {
        let i = (0..value.len())
            .find(|&i| narrowed.is_null(i) && value.is_valid(i))
            .unwrap_or(0);
        let shown = arrow::util::display::array_value_to_string(&value, i)?;
        return Err(TensorError::Data(format!(
            "the lambda's result {shown} at row {} of its batch does not fit the tensor's element type {element} (integer overflow)",
            rows.get(i).copied().unwrap_or(0)
        )));
    }
    Ok(narrowed)
}

impl Default for TensorAtApply {
    fn default() -> Self {
        Self::new()
    }
}

impl PartialEq for TensorAtApply {
    fn eq(&self, other: &Self) -> bool {
        self.pinned == other.pinned && self.limits == other.limits
    }
}

impl Eq for TensorAtApply {}

impl Hash for TensorAtApply {
    fn hash<H: Hasher>(&self, state: &mut H) {
        NAME.hash(state);
        self.pinned.hash(state);
        self.limits.hash(state);
    }
}

/// The argument fields with a lambda's result field in its place, and whether argument 2 is a
/// lambda.
fn flatten_fields(args: &[ValueOrLambda<FieldRef, FieldRef>]) -> Result<(Vec<FieldRef>, bool)> {
    let mut lambda = false;
    let mut out = Vec::with_capacity(args.len());
    for (i, arg) in args.iter().enumerate() {
        match arg {
            ValueOrLambda::Value(field) => out.push(Arc::clone(field)),
            ValueOrLambda::Lambda(field) if i == 2 => {
                lambda = true;
                out.push(Arc::clone(field));
            }
            ValueOrLambda::Lambda(_) => {
                return plan_err!("{NAME}: only argument fn may be a lambda");
            }
        }
    }
    Ok((out, lambda))
}

impl HigherOrderUDFImpl for TensorAtApply {
    fn name(&self) -> &str {
        NAME
    }

    fn signature(&self) -> &HigherOrderSignature {
        &self.signature
    }

    fn coerce_value_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        Ok(arg_types.to_vec())
    }

    fn lambda_parameters(
        &self,
        _step: usize,
        fields: &[ValueOrLambda<FieldRef, Option<FieldRef>>],
    ) -> Result<LambdaParametersProgress> {
        let mut params = Vec::new();
        for (i, field) in fields.iter().enumerate() {
            if let ValueOrLambda::Lambda(_) = field {
                if i != 2 {
                    return plan_err!("{NAME}: only argument fn may be a lambda");
                }
                let Some(ValueOrLambda::Value(x)) = fields.first() else {
                    return plan_err!("{NAME}: argument x must come first");
                };
                params.push(vec![element_parameter(NAME, x)?]);
            }
        }
        Ok(LambdaParametersProgress::Complete(params))
    }

    fn return_field_from_args(&self, args: HigherOrderReturnFieldArgs) -> Result<FieldRef> {
        let (fields, lambda) = flatten_fields(args.arg_fields)?;
        let (fields, scalars) = match &self.pinned {
            Some(pinned) => (pinned.fields.clone(), pinned.scalar_refs()),
            None => (fields, args.scalar_arguments.to_vec()),
        };
        let plan = self
            .plan(&fields, &scalars, lambda, self.limits)
            .map_err(|err| super::super::name_plan_error(NAME, err))?;
        Ok(plan.return_field(NAME))
    }

    fn clear_null_values(&self) -> bool {
        false
    }

    fn invoke_with_args(&self, args: HigherOrderFunctionArgs) -> Result<ColumnarValue> {
        let limits = Limits::of(&args.config_options);
        limits.check_batch_bytes(self.name(), args.return_field.data_type(), args.number_rows)?;
        let (fields, is_lambda) = flatten_fields(&args.arg_fields)?;
        let mut values = Vec::with_capacity(args.args.len());
        let mut lambda = None;
        for arg in args.args {
            match arg {
                ValueOrLambda::Value(value) => values.push(value),
                ValueOrLambda::Lambda(l) => {
                    lambda = Some(l);
                    values.push(ColumnarValue::Scalar(ScalarValue::Null));
                }
            }
        }
        let scalars: Vec<Option<&ScalarValue>> = values
            .iter()
            .enumerate()
            .map(|(i, value)| match value {
                ColumnarValue::Scalar(scalar) if !(is_lambda && i == 2) => Some(scalar),
                _ => None,
            })
            .collect();
        let (fields, scalars) = match &self.pinned {
            Some(pinned) => (pinned.fields.clone(), pinned.scalar_refs()),
            None => (fields, scalars),
        };
        let plan = self
            .plan(&fields, &scalars, is_lambda, limits)
            .map_err(|err| super::super::name_plan_error(NAME, err))?;
        match lambda {
            None => plan.invoke(&values, args.number_rows, None),
            Some(lambda) => {
                let element = plan.output_element().clone();
                let evaluate = |selected: ArrayRef, rows: &[usize]| {
                    let len = selected.len();
                    let param = move || Ok(Arc::clone(&selected));
                    let indices = UInt32Array::from_iter_values(rows.iter().map(|&r| r as u32));
                    let value = lambda
                        .evaluate(&[&param], |captures| {
                            Ok(take_arrays(captures, &indices, None)?)
                        })
                        .and_then(|value| value.into_array(len))
                        .map_err(|e| {
                            TensorError::Data(format!("the lambda failed: {}", e.strip_backtrace()))
                        })?;
                    narrow(value, &element, rows)
                };
                plan.invoke(&values, args.number_rows, Some(&evaluate))
            }
        }
    }

    fn documentation(&self) -> Option<&Documentation> {
        Some(&self.documentation)
    }
}
