//! A tensor call's planning state, taken out of a planned call's instance and put back into a
//! new one: for plans that travel to another process (a Ballista scheduler or executor).
//!
//! A planned call's instance holds its compiled plan ([`super::TensorUdf`]), and the plan was
//! compiled from the call's argument fields with their `arrow.fixed_shape_tensor` metadata and
//! its literal arguments. DataFusion's plan serialisation keeps a function's name and its
//! argument expressions, but drops field and literal metadata: a call resolved by name on the
//! other side would see 1-d `FixedSizeList`s. [`CallState`] is what the other side needs to
//! plan the call the same: the inputs it was planned from (and, for the higher-order
//! functions, which arguments were literals as written). The Ballista codecs
//! (`crate::ballista`) carry it.

use std::any::Any;
use std::sync::Arc;

use arrow::datatypes::FieldRef;
use datafusion::common::{ScalarValue, plan_datafusion_err};
use datafusion::error::Result;
use datafusion::logical_expr::{HigherOrderUDF, ScalarUDF, ValueOrLambda};

use super::{
    CallInputs, TensorAt, TensorAtApply, TensorChoose, TensorConstructor, TensorFunction,
    TensorGet, TensorNdim, TensorPutAlongAxis, TensorReduce, TensorReshape, TensorShape,
    TensorSize, TensorTakeAlongAxis, TensorToFixed, TensorToList, TensorToString, TensorToVariable,
    TensorTyped, TensorUdf, TensorUnary, VariadicTensorUdf,
};
use crate::tensor_type::TensorType;

/// The planning state of one tensor call (module docs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CallState {
    /// A planned scalar tensor function: what it was planned from, and the instance's own
    /// settings (`TensorFunction::settings`).
    Planned {
        /// The argument fields and literals.
        inputs: CallInputs,
        /// The instance's settings beyond the registered one's.
        settings: Vec<u64>,
    },
    /// A simplified `tensor_typed` call: its tensor type and column name.
    Typed {
        /// The tensor type, if the values share one.
        tensor: Option<TensorType>,
        /// The column name, when written as another function.
        name: Option<String>,
    },
    /// A higher-order tensor function (`tensor_choose`, `tensor_at_apply`).
    HigherOrder {
        /// Which arguments were literals as written (`tensor_choose`'s frozen instance).
        literal_arguments: Option<Vec<bool>>,
        /// The argument fields and literals it is planned with.
        pinned: Option<CallInputs>,
    },
}

/// `TensorUdf<F>` behind a scalar function's `dyn ScalarUDFImpl`, for each `F` of the crate.
macro_rules! each_tensor_udf {
    ($inner:expr, |$udf:ident| $body:expr) => {{
        let inner: &dyn Any = $inner;
        if let Some($udf) = inner.downcast_ref::<TensorUdf<TensorConstructor>>() {
            Some($body)
        } else if let Some($udf) = inner.downcast_ref::<TensorUdf<TensorShape>>() {
            Some($body)
        } else if let Some($udf) = inner.downcast_ref::<TensorUdf<TensorNdim>>() {
            Some($body)
        } else if let Some($udf) = inner.downcast_ref::<TensorUdf<TensorSize>>() {
            Some($body)
        } else if let Some($udf) = inner.downcast_ref::<TensorUdf<TensorToList>>() {
            Some($body)
        } else if let Some($udf) = inner.downcast_ref::<TensorUdf<TensorReshape>>() {
            Some($body)
        } else if let Some($udf) = inner.downcast_ref::<TensorUdf<TensorToString>>() {
            Some($body)
        } else if let Some($udf) = inner.downcast_ref::<TensorUdf<TensorToVariable>>() {
            Some($body)
        } else if let Some($udf) = inner.downcast_ref::<TensorUdf<TensorToFixed>>() {
            Some($body)
        } else if let Some($udf) = inner.downcast_ref::<TensorUdf<TensorGet>>() {
            Some($body)
        } else if let Some($udf) = inner.downcast_ref::<TensorUdf<TensorTakeAlongAxis>>() {
            Some($body)
        } else if let Some($udf) = inner.downcast_ref::<TensorUdf<TensorPutAlongAxis>>() {
            Some($body)
        } else if let Some($udf) = inner.downcast_ref::<TensorUdf<TensorAt>>() {
            Some($body)
        } else if let Some($udf) = inner.downcast_ref::<TensorUdf<TensorReduce>>() {
            Some($body)
        } else if let Some($udf) = inner.downcast_ref::<TensorUdf<TensorUnary>>() {
            Some($body)
        } else {
            None
        }
    }};
}

fn planned_state<F: TensorFunction>(udf: &TensorUdf<F>) -> Option<CallState> {
    udf.inputs().map(|inputs| CallState::Planned {
        inputs: inputs.clone(),
        settings: udf.function().settings(),
    })
}

fn replan<F: TensorFunction>(
    registered: &TensorUdf<F>,
    inputs: CallInputs,
    settings: &[u64],
) -> Result<ScalarUDF> {
    let planned = if settings.is_empty() {
        registered.planned(inputs)?
    } else {
        let function = registered
            .function()
            .with_settings(settings)
            .ok_or_else(|| {
                plan_datafusion_err!(
                    "{}: unknown instance settings {settings:?} in a serialised plan",
                    registered.function().name()
                )
            })?;
        TensorUdf::new(function).planned(inputs)?
    };
    Ok(ScalarUDF::new_from_impl(planned))
}

/// Whether `udf` is one of this crate's scalar functions.
pub fn is_tensor_function(udf: &ScalarUDF) -> bool {
    let inner: &dyn Any = udf.inner().as_ref();
    inner.is::<TensorTyped>() || each_tensor_udf!(udf.inner().as_ref(), |_u| ()).is_some()
}

/// The state of a planned call of one of this crate's scalar functions; `None` for a
/// registered (not planned) instance, which resolves by name, and for other functions.
pub fn scalar_call_state(udf: &ScalarUDF) -> Option<CallState> {
    let inner: &dyn Any = udf.inner().as_ref();
    if let Some(typed) = inner.downcast_ref::<TensorTyped>() {
        let (tensor, name) = typed.state();
        if tensor.is_none() && name.is_none() {
            return None;
        }
        return Some(CallState::Typed {
            tensor: tensor.cloned(),
            name: name.map(str::to_string),
        });
    }
    each_tensor_udf!(udf.inner().as_ref(), |u| planned_state(u)).flatten()
}

/// The planned call of the scalar function `name` (one of this crate's) with `state`.
///
/// # Errors
/// When `name` is not a tensor function, the state is not one of a scalar function, or the
/// call does not plan (it did where the state was taken, so only with another version).
pub fn scalar_with_state(name: &str, state: CallState) -> Result<ScalarUDF> {
    let registered = super::all_functions()
        .into_iter()
        .find(|udf| udf.name() == name)
        .ok_or_else(|| plan_datafusion_err!("{name} is not a tensor function"))?;
    match state {
        CallState::Typed { tensor, name } => Ok(ScalarUDF::new_from_impl(TensorTyped::with_state(
            tensor, name,
        ))),
        CallState::Planned { inputs, settings } => each_tensor_udf!(
            registered.inner().as_ref(),
            |u| replan(u, inputs, &settings)
        )
        .unwrap_or_else(|| {
            Err(plan_datafusion_err!(
                "{name}: a planned call's state for a function that is not planned"
            ))
        }),
        CallState::HigherOrder { .. } => Err(plan_datafusion_err!(
            "{name}: a higher-order function's state for a scalar function"
        )),
    }
}

/// Whether `udf` is one of this crate's higher-order functions.
pub fn is_tensor_higher_order_function(udf: &HigherOrderUDF) -> bool {
    let inner: &dyn Any = udf.inner().as_ref();
    inner.is::<VariadicTensorUdf<TensorChoose>>() || inner.is::<TensorAtApply>()
}

/// The state of a call of one of this crate's higher-order functions (`None`: a registered
/// instance, which resolves by name, or another function).
pub fn higher_order_call_state(udf: &HigherOrderUDF) -> Option<CallState> {
    let inner: &dyn Any = udf.inner().as_ref();
    if let Some(choose) = inner.downcast_ref::<VariadicTensorUdf<TensorChoose>>() {
        if choose.literal_arguments.is_none() && choose.pinned.is_none() {
            return None;
        }
        return Some(CallState::HigherOrder {
            literal_arguments: choose.literal_arguments.clone(),
            pinned: choose.pinned.as_deref().cloned(),
        });
    }
    let apply = inner.downcast_ref::<TensorAtApply>()?;
    apply.pinned.as_ref().map(|pinned| CallState::HigherOrder {
        literal_arguments: None,
        pinned: Some(pinned.as_ref().clone()),
    })
}

/// The call of the higher-order function `name` (one of this crate's) with `state`.
///
/// # Errors
/// When `name` is not a higher-order tensor function or the state is not one of such.
pub fn higher_order_with_state(name: &str, state: CallState) -> Result<HigherOrderUDF> {
    let CallState::HigherOrder {
        literal_arguments,
        pinned,
    } = state
    else {
        return Err(plan_datafusion_err!(
            "{name}: a scalar function's state for a higher-order function"
        ));
    };
    match name {
        "tensor_choose" => Ok(HigherOrderUDF::new_from_impl(
            VariadicTensorUdf::new(TensorChoose::new()).with_state(literal_arguments, pinned),
        )),
        "tensor_at_apply" => Ok(HigherOrderUDF::new_from_impl(TensorAtApply::with_pinned(
            pinned,
        ))),
        _ => Err(plan_datafusion_err!(
            "{name} is not a higher-order tensor function"
        )),
    }
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
    let inner: &dyn Any = udf.inner().as_ref();
    if let Some(choose) = inner.downcast_ref::<VariadicTensorUdf<TensorChoose>>() {
        let values = fields
            .iter()
            .map(|field| match field {
                ValueOrLambda::Value(field) | ValueOrLambda::Lambda(field) => Arc::clone(field),
            })
            .collect::<Vec<_>>();
        return Ok(Some(HigherOrderUDF::new_from_impl(
            choose.pinned_to(&values, scalars),
        )));
    }
    if inner.is::<TensorAtApply>() {
        return Ok(Some(HigherOrderUDF::new_from_impl(
            TensorAtApply::pinned_to(fields, scalars)?,
        )));
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every scalar function the crate registers is one whose planned calls' state the plan
    /// codecs carry (`tensor_to_variable` and `tensor_to_fixed` were missing: on a cluster they
    /// were planned again without their tensor metadata).
    #[test]
    fn every_registered_function_is_known_to_the_codecs() {
        for udf in super::super::all_functions() {
            assert!(
                is_tensor_function(&udf),
                "{} is unknown to the call-state codecs",
                udf.name()
            );
        }
    }
}
