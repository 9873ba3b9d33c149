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

use std::sync::Arc;

use arrow::datatypes::FieldRef;
use datafusion::common::{ScalarValue, plan_datafusion_err};
use datafusion::error::Result;
use datafusion::logical_expr::{HigherOrderUDF, ScalarUDF, ValueOrLambda};

use super::{
    AtOp, CallInputs, TensorAtApply, TensorFunction, TensorTyped, TensorUdf, VariadicTensorUdf,
};
use crate::limits::Limits;
use crate::variable_shape::AnyTensorType;

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
        /// The session's limits it was planned under.
        limits: Limits,
    },
    /// A simplified `tensor_typed` call: its tensor type and column name.
    Typed {
        /// The tensor type (fixed- or variable-shape), if the values share one.
        tensor: Option<AnyTensorType>,
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

/// A scalar tensor function's instance, whatever its type: what the plan codecs need.
pub trait ScalarTensorCall: Send + Sync {
    /// The state of a planned call; `None` for a registered instance, which resolves by name.
    fn call_state(&self) -> Option<CallState>;
    /// The planned call of this (registered) function with `state`.
    fn with_state(&self, state: CallState) -> Result<ScalarUDF>;
    /// This registered instance for one call whose arguments `literal` were literals as
    /// written; `None` where that does not apply (an instance already frozen or planned).
    fn frozen(&self, literal: &[bool]) -> Option<ScalarUDF>;
}

/// A higher-order tensor function's instance, whatever its type.
pub trait HigherOrderTensorCall: Send + Sync {
    /// The state of a call's instance; `None` for a registered instance.
    fn call_state(&self) -> Option<CallState>;
    /// The call of this (registered) function with `state`.
    fn with_state(&self, state: CallState) -> Result<HigherOrderUDF>;
    /// This call pinned to the argument fields and literals it has where the query is planned.
    fn pinned_to(
        &self,
        fields: &[ValueOrLambda<FieldRef, FieldRef>],
        scalars: &[Option<&ScalarValue>],
    ) -> Result<HigherOrderUDF>;
    /// This instance under a session's `limits`, which DataFusion asking its result type plans
    /// with (a batch runs under its session's own).
    fn with_limits(&self, limits: Limits) -> HigherOrderUDF;
}

fn planned_state<F: TensorFunction>(udf: &TensorUdf<F>) -> Option<CallState> {
    udf.inputs().map(|inputs| CallState::Planned {
        inputs: inputs.clone(),
        settings: udf.function().settings(),
        limits: udf.limits(),
    })
}

fn replan<F: TensorFunction>(
    registered: &TensorUdf<F>,
    inputs: CallInputs,
    settings: &[u64],
    limits: Limits,
) -> Result<ScalarUDF> {
    let planned = if settings.is_empty() {
        registered.planned(inputs, limits)?
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
        TensorUdf::new(function).planned(inputs, limits)?
    };
    Ok(ScalarUDF::new_from_impl(planned))
}

impl<F: TensorFunction> ScalarTensorCall for TensorUdf<F> {
    fn call_state(&self) -> Option<CallState> {
        planned_state(self)
    }

    fn with_state(&self, state: CallState) -> Result<ScalarUDF> {
        let name = self.function().name();
        match state {
            CallState::Planned {
                inputs,
                settings,
                limits,
            } => replan(self, inputs, &settings, limits),
            CallState::Typed { .. } => Err(plan_datafusion_err!(
                "{name}: a tensor_typed call's state for another function"
            )),
            CallState::HigherOrder { .. } => Err(plan_datafusion_err!(
                "{name}: a higher-order function's state for a scalar function"
            )),
        }
    }

    fn frozen(&self, literal: &[bool]) -> Option<ScalarUDF> {
        TensorUdf::frozen(self, literal).map(ScalarUDF::new_from_impl)
    }
}

impl ScalarTensorCall for TensorTyped {
    fn call_state(&self) -> Option<CallState> {
        let (tensor, name) = self.state();
        if tensor.is_none() && name.is_none() {
            return None;
        }
        Some(CallState::Typed {
            tensor: tensor.cloned(),
            name: name.map(str::to_string),
        })
    }

    fn with_state(&self, state: CallState) -> Result<ScalarUDF> {
        match state {
            CallState::Typed { tensor, name } => Ok(ScalarUDF::new_from_impl(
                TensorTyped::with_state(tensor, name),
            )),
            _ => Err(plan_datafusion_err!(
                "{}: a planned call's state for a function that is not planned",
                super::TENSOR_TYPED
            )),
        }
    }

    fn frozen(&self, _literal: &[bool]) -> Option<ScalarUDF> {
        None
    }
}

fn higher_order_state(
    literal_arguments: Option<Vec<bool>>,
    pinned: Option<&CallInputs>,
) -> Option<CallState> {
    if literal_arguments.is_none() && pinned.is_none() {
        return None;
    }
    Some(CallState::HigherOrder {
        literal_arguments,
        pinned: pinned.cloned(),
    })
}

/// The parts of a higher-order function's state; an error naming `name` for another kind.
fn higher_order_parts(
    name: &str,
    state: CallState,
) -> Result<(Option<Vec<bool>>, Option<CallInputs>)> {
    match state {
        CallState::HigherOrder {
            literal_arguments,
            pinned,
        } => Ok((literal_arguments, pinned)),
        _ => Err(plan_datafusion_err!(
            "{name}: a scalar function's state for a higher-order function"
        )),
    }
}

impl<F: TensorFunction> HigherOrderTensorCall for VariadicTensorUdf<F> {
    fn call_state(&self) -> Option<CallState> {
        higher_order_state(self.literal_arguments.clone(), self.pinned.as_deref())
    }

    fn with_state(&self, state: CallState) -> Result<HigherOrderUDF> {
        let (literal_arguments, pinned) = higher_order_parts(self.function_name(), state)?;
        Ok(HigherOrderUDF::new_from_impl(
            VariadicTensorUdf::with_state(self, literal_arguments, pinned),
        ))
    }

    fn pinned_to(
        &self,
        fields: &[ValueOrLambda<FieldRef, FieldRef>],
        scalars: &[Option<&ScalarValue>],
    ) -> Result<HigherOrderUDF> {
        let values = fields
            .iter()
            .map(|field| match field {
                ValueOrLambda::Value(field) | ValueOrLambda::Lambda(field) => Arc::clone(field),
            })
            .collect::<Vec<_>>();
        Ok(HigherOrderUDF::new_from_impl(VariadicTensorUdf::pinned_to(
            self, &values, scalars,
        )))
    }

    fn with_limits(&self, limits: Limits) -> HigherOrderUDF {
        HigherOrderUDF::new_from_impl(VariadicTensorUdf::with_limits(self, limits))
    }
}

impl HigherOrderTensorCall for TensorAtApply {
    fn call_state(&self) -> Option<CallState> {
        // Its literal arguments are read where it is planned: only the pinned inputs travel.
        higher_order_state(None, self.pinned.as_deref())
    }

    fn with_state(&self, state: CallState) -> Result<HigherOrderUDF> {
        let (_, pinned) = higher_order_parts(AtOp::Apply.function_name(), state)?;
        Ok(HigherOrderUDF::new_from_impl(TensorAtApply::with_pinned(
            self, pinned,
        )))
    }

    fn pinned_to(
        &self,
        fields: &[ValueOrLambda<FieldRef, FieldRef>],
        scalars: &[Option<&ScalarValue>],
    ) -> Result<HigherOrderUDF> {
        Ok(HigherOrderUDF::new_from_impl(TensorAtApply::pinned_to(
            self, fields, scalars,
        )?))
    }

    fn with_limits(&self, limits: Limits) -> HigherOrderUDF {
        HigherOrderUDF::new_from_impl(TensorAtApply::with_limits(self, limits))
    }
}

impl HigherOrderTensorCall for super::math::TensorMap {
    fn call_state(&self) -> Option<CallState> {
        higher_order_state(None, self.pinned.as_deref())
    }

    fn with_state(&self, state: CallState) -> Result<HigherOrderUDF> {
        let (_, pinned) = higher_order_parts("tensor_map", state)?;
        Ok(HigherOrderUDF::new_from_impl(
            super::math::TensorMap::with_pinned(pinned),
        ))
    }

    fn pinned_to(
        &self,
        fields: &[ValueOrLambda<FieldRef, FieldRef>],
        _scalars: &[Option<&ScalarValue>],
    ) -> Result<HigherOrderUDF> {
        Ok(HigherOrderUDF::new_from_impl(
            super::math::TensorMap::pinned_to(fields)?,
        ))
    }

    fn with_limits(&self, _limits: Limits) -> HigherOrderUDF {
        // Its result has its argument's shape: no shape to check.
        HigherOrderUDF::new_from_impl(super::math::TensorMap::with_pinned(
            self.pinned.as_deref().cloned(),
        ))
    }
}
