//! `tensor_typed(e, v1, v2, ...)`: `e` with the tensor type its possible values share.
//!
//! Written by the SQL rewrite ([`crate::rewrite::tensor_types`]) around `CASE`, `COALESCE`,
//! casts and the like, which DataFusion types without field metadata; not meant to be called
//! by hand. The call's field is `e`'s with the tensor type of `v1, v2, ...` (all that carry
//! one must agree: a `CASE` between a `[2, 2]` and a `[4]` tensor is an error, not a silent
//! list). When the optimizer simplifies the call, `v1, v2, ...` are dropped (never evaluated)
//! and, where they had no tensor type, so is the wrapper. Its column name is `e`'s.

use std::sync::Arc;

use arrow::datatypes::{DataType, Field, FieldRef};
use datafusion::common::{ExprSchema, plan_err};
use datafusion::error::{DataFusionError, Result};
use datafusion::logical_expr::expr::ScalarFunction;
use datafusion::logical_expr::simplify::{ExprSimplifyResult, SimplifyContext};
use datafusion::logical_expr::{
    ColumnarValue, Documentation, Expr, ExprSchemable, ReturnFieldArgs, ScalarFunctionArgs,
    ScalarUDF, ScalarUDFImpl, Signature, Volatility,
};
use datafusion_macros::user_doc;

use crate::tensor_type::has_tensor_extension;
use crate::variable_shape::{AnyTensorType, has_variable_shape_extension};

/// The SQL name of [`TensorTyped`].
pub const TENSOR_TYPED: &str = "tensor_typed";

/// `tensor_typed`.
#[user_doc(
    doc_section(label = "Tensor Functions"),
    description = "Returns e unchanged, typed as the tensor its possible values v1, v2, ... share. The SQL rewrite of the CLI and of TensorSql::tensor_sql wraps CASE, COALESCE, NULLIF, IFNULL/NVL, NVL2 and casts in it, because DataFusion drops the tensor type there; v1, v2, ... are never evaluated. Values with different tensor types are an error.",
    syntax_example = "tensor_typed(e, v1 [, v2, ...])",
    argument(name = "e", description = "The expression whose result is returned."),
    argument(
        name = "v",
        description = "The values e may return (the THEN and ELSE results of a CASE, the arguments of COALESCE, the input of a cast)."
    )
)]
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct TensorTyped {
    signature: Signature,
    /// A simplified call's tensor type (its values dropped).
    resolved: Option<AnyTensorType>,
    /// A simplified call's column name, when `e` was rewritten from another function.
    name: Option<String>,
}

impl TensorTyped {
    /// The registered instance.
    pub fn new() -> Self {
        Self {
            signature: Signature::variadic_any(Volatility::Immutable),
            resolved: None,
            name: None,
        }
    }

    /// A simplified call's state: its tensor type and column name (for plan serialisation,
    /// [`super::call_state`]).
    pub(crate) fn state(&self) -> (Option<&AnyTensorType>, Option<&str>) {
        (self.resolved.as_ref(), self.name.as_deref())
    }

    /// A simplified call with this state.
    pub(crate) fn with_state(resolved: Option<AnyTensorType>, name: Option<String>) -> Self {
        Self {
            resolved,
            name,
            ..Self::new()
        }
    }

    /// The tensor type `value` takes: the one `values` share, when its storage is `value`'s.
    fn tensor_for(&self, value: &Field, values: &[FieldRef]) -> Result<Option<AnyTensorType>> {
        let tensor = match &self.resolved {
            Some(tensor) => Some(tensor.clone()),
            None => shared_tensor(values)?,
        };
        Ok(tensor.filter(|t| t.is_stored_as(value.data_type())))
    }
}

impl Default for TensorTyped {
    fn default() -> Self {
        Self::new()
    }
}

/// The tensor type every value with one has; an error naming two that differ. Dim names that
/// differ are dropped (they do not change the layout); shapes, element types and permutations
/// must agree, or values of one column would be read with another's layout.
fn shared_tensor(values: &[FieldRef]) -> Result<Option<AnyTensorType>> {
    let mut shared: Option<AnyTensorType> = None;
    for field in values
        .iter()
        .filter(|f| has_tensor_extension(f) || has_variable_shape_extension(f))
    {
        let Some(tensor) = AnyTensorType::from_field(field)
            .map_err(|err| DataFusionError::Plan(format!("{TENSOR_TYPED}: {err}")))?
        else {
            continue;
        };
        shared = Some(match shared {
            None => tensor,
            Some(current) if current == tensor => current,
            Some(current) => match (current.without_dim_names(), tensor.without_dim_names()) {
                (Ok(a), Ok(b)) if a == b => a,
                _ => {
                    return plan_err!(
                        "the values of this CASE, COALESCE, NULLIF, NVL or cast have different tensor types, {current} and {tensor}: give them one shape (tensor_reshape) and element type"
                    );
                }
            },
        });
    }
    Ok(shared)
}

/// The name `e` was written with, when the rewrite gives one: a string literal second argument.
fn written_name(args: &[Expr]) -> Option<&str> {
    match args.get(1) {
        Some(Expr::Literal(value, _)) => value.try_as_str().flatten(),
        _ => None,
    }
}

impl ScalarUDFImpl for TensorTyped {
    fn name(&self) -> &str {
        TENSOR_TYPED
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn return_type(&self, arg_types: &[DataType]) -> Result<DataType> {
        match arg_types.first() {
            Some(t) => Ok(t.clone()),
            None => plan_err!("{TENSOR_TYPED} needs at least one argument"),
        }
    }

    fn return_field_from_args(&self, args: ReturnFieldArgs) -> Result<FieldRef> {
        let Some((value, values)) = args.arg_fields.split_first() else {
            return plan_err!("{TENSOR_TYPED} needs at least one argument");
        };
        Ok(match self.tensor_for(value, values)? {
            Some(tensor) => Arc::new(
                value
                    .as_ref()
                    .clone()
                    .with_metadata(tensor.field_metadata()),
            ),
            None => Arc::clone(value),
        })
    }

    fn schema_name(&self, args: &[Expr]) -> Result<String> {
        let Some(e) = args.first() else {
            return plan_err!("{TENSOR_TYPED} needs at least one argument");
        };
        // `e`'s name, or the name of the function `e` was rewritten from (NVL is COALESCE).
        let name = self.name.as_deref().or_else(|| written_name(args));
        match (name, e) {
            (Some(name), Expr::ScalarFunction(call)) => Ok(format!(
                "{name}({})",
                call.args
                    .iter()
                    .map(|arg| arg.schema_name().to_string())
                    .collect::<Vec<_>>()
                    .join(",")
            )),
            _ => Ok(e.schema_name().to_string()),
        }
    }

    fn simplify(&self, args: Vec<Expr>, info: &SimplifyContext) -> Result<ExprSimplifyResult> {
        if self.resolved.is_some() || args.is_empty() {
            return Ok(ExprSimplifyResult::Original(args));
        }
        let schema: &dyn ExprSchema = info.schema();
        let fields = args
            .iter()
            .map(|arg| Ok(arg.to_field(schema)?.1))
            .collect::<Result<Vec<_>>>()?;
        let tensor = self.tensor_for(&fields[0], &fields[1..])?;
        let name = written_name(&args).map(str::to_string);
        let mut args = args;
        args.truncate(1);
        let value = args
            .pop()
            .unwrap_or_else(|| Expr::Literal(datafusion::common::ScalarValue::Null, None));
        Ok(ExprSimplifyResult::Simplified(match tensor {
            None => value,
            Some(tensor) => {
                let resolved = ScalarUDF::new_from_impl(Self {
                    signature: self.signature.clone(),
                    resolved: Some(tensor),
                    name,
                });
                Expr::ScalarFunction(ScalarFunction::new_udf(Arc::new(resolved), vec![value]))
            }
        }))
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        match args.args.into_iter().next() {
            Some(value) => Ok(value),
            None => plan_err!("{TENSOR_TYPED} needs at least one argument"),
        }
    }

    fn documentation(&self) -> Option<&Documentation> {
        self.doc()
    }
}
