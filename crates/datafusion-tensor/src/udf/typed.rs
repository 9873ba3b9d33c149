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
use datafusion::common::{ExprSchema, ScalarValue, exec_err, plan_err};
use datafusion::error::{DataFusionError, Result};
use datafusion::logical_expr::expr::ScalarFunction;
use datafusion::logical_expr::simplify::{ExprSimplifyResult, SimplifyContext};
use datafusion::logical_expr::{
    ColumnarValue, Documentation, Expr, ExprSchemable, ReturnFieldArgs, ScalarFunctionArgs,
    ScalarUDF, ScalarUDFImpl, Signature, Volatility,
};
use datafusion_macros::user_doc;

use super::{TensorAscontiguousarray, TensorUdf};
use crate::rules::union::{logical_shapes, row_major_union, same_layout, same_logical_type};
use crate::variable_shape::AnyTensorType;
use crate::variable_shape::has_any_tensor_extension;

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
    /// And whether some values must be written out row-major to take it ([`conform`]).
    fn tensor_for(
        &self,
        value: &Field,
        values: &[FieldRef],
    ) -> Result<Option<(AnyTensorType, bool)>> {
        let tensor = match &self.resolved {
            Some(tensor) => Some((tensor.clone(), false)),
            None => shared_tensor(values)?,
        };
        Ok(tensor.filter(|(t, _)| t.is_stored_as(value.data_type())))
    }
}

impl Default for TensorTyped {
    fn default() -> Self {
        Self::new()
    }
}

/// The tensor type the values with one share, and whether some of them must be written out
/// row-major to take it; an error naming two that differ. Dim names that differ are dropped
/// (they do not change the layout). Values of one logical shape and element type stored in
/// different layouts (a tensor and its `tensor_transpose`) share the row-major type, as a
/// `UNION` of them does ([`crate::rules::union`]): [`conform`] writes the others out. Other
/// shapes or element types are an error, or values of one column would be read with another's
/// layout.
fn shared_tensor(values: &[FieldRef]) -> Result<Option<(AnyTensorType, bool)>> {
    let mut typed = Vec::new();
    for field in values.iter().filter(|f| has_any_tensor_extension(f)) {
        if let Some(tensor) = AnyTensorType::from_field(field)
            .map_err(|err| DataFusionError::Plan(format!("{TENSOR_TYPED}: {err}")))?
        {
            typed.push(tensor);
        }
    }
    let Some((first, rest)) = typed.split_first() else {
        return Ok(None);
    };
    let plain = |t: &AnyTensorType| {
        t.without_dim_names()
            .map_err(|err| DataFusionError::Plan(format!("{TENSOR_TYPED}: {err}")))
    };
    if rest.iter().all(|t| t == first) {
        return Ok(Some((first.clone(), false)));
    }
    let first_plain = plain(first)?;
    if rest
        .iter()
        .map(plain)
        .all(|t| t.is_ok_and(|t| t == first_plain))
    {
        return Ok(Some((first_plain, false)));
    }
    if let Some(other) = rest.iter().find(|t| !same_logical_type(first, t)) {
        return plan_err!(
            "the values of this CASE, COALESCE, NULLIF, NVL or cast have different tensor types, {} and {}{}: give them one logical shape and element type (tensor_reshape, tensor_astype, tensor_to_variable)",
            first.type_name(),
            other.type_name(),
            logical_shapes(first, other)
        );
    }
    let target = row_major_union(first, rest.iter())?;
    let names = |t: &AnyTensorType| match t {
        AnyTensorType::Fixed(t) => t.to_row_major().dim_names().map(<[String]>::to_vec),
        AnyTensorType::Variable(t) => t.to_row_major().dim_names().map(<[String]>::to_vec),
    };
    let target = if typed.iter().all(|t| names(t) == names(&target)) {
        target
    } else {
        plain(&target)?
    };
    Ok(Some((target, true)))
}

/// `expr`, one of the values a `tensor_typed` call stands for, delivering `target`: the results
/// of a `CASE`, the arguments of `COALESCE` and `NULLIF`, the last two of `NVL2`, each written
/// out row-major ([`TensorAscontiguousarray`]) where its layout is not the target's.
fn conform(expr: Expr, target: &AnyTensorType, schema: &dyn ExprSchema) -> Result<Expr> {
    let each = |exprs: Vec<Expr>, skip: usize| {
        exprs
            .into_iter()
            .enumerate()
            .map(|(i, e)| {
                if i < skip {
                    Ok(e)
                } else {
                    conform(e, target, schema)
                }
            })
            .collect::<Result<Vec<_>>>()
    };
    Ok(match expr {
        Expr::Case(mut case) => {
            for (_, then) in &mut case.when_then_expr {
                **then = conform(std::mem::take(then.as_mut()), target, schema)?;
            }
            if let Some(other) = case.else_expr.as_mut() {
                **other = conform(std::mem::take(other.as_mut()), target, schema)?;
            }
            Expr::Case(case)
        }
        Expr::Alias(mut alias) => {
            *alias.expr = conform(std::mem::take(alias.expr.as_mut()), target, schema)?;
            Expr::Alias(alias)
        }
        // Type coercion casts a value to the storage type of another (list items named
        // `element` in a Parquet file), dropping its tensor type: the value under the cast is
        // the one to write out.
        Expr::Cast(mut cast) if matches!(cast.field.data_type(), DataType::FixedSizeList(..)) => {
            *cast.expr = conform(std::mem::take(cast.expr.as_mut()), target, schema)?;
            Expr::Cast(cast)
        }
        Expr::ScalarFunction(call) if matches!(call.name(), "coalesce" | "nullif" | "nvl2") => {
            let skip = usize::from(call.name() == "nvl2");
            Expr::ScalarFunction(ScalarFunction::new_udf(call.func, each(call.args, skip)?))
        }
        other => {
            let field = other.to_field(schema)?.1;
            let tensor = AnyTensorType::from_field(&field)
                .map_err(|err| DataFusionError::Plan(format!("{TENSOR_TYPED}: {err}")))?;
            match tensor {
                Some(tensor) if !same_layout(&tensor, target) => {
                    let contiguous = Expr::ScalarFunction(ScalarFunction::new_udf(
                        Arc::new(ScalarUDF::new_from_impl(TensorUdf::new(
                            TensorAscontiguousarray::new(),
                        ))),
                        vec![other],
                    ));
                    if contiguous.to_field(schema)?.1.data_type() == field.data_type() {
                        let typed = ScalarUDF::new_from_impl(TensorTyped::with_state(
                            Some(target.clone()),
                            None,
                        ));
                        Expr::ScalarFunction(ScalarFunction::new_udf(
                            Arc::new(typed),
                            vec![contiguous],
                        ))
                    } else {
                        // The storage type the other values were coerced to (list items named
                        // as in a Parquet file): a rename, typed by the call around them all.
                        contiguous.cast_to(field.data_type(), schema)?
                    }
                }
                _ => other,
            }
        }
    })
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
            Some((tensor, _)) => Arc::new(
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
            .unwrap_or_else(|| Expr::Literal(ScalarValue::Null, None));
        Ok(ExprSimplifyResult::Simplified(match tensor {
            None => value,
            Some((tensor, needs_conform)) => {
                let value = if needs_conform {
                    conform(value, &tensor, schema)?
                } else {
                    value
                };
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
        if self.resolved.is_none()
            && args.arg_fields.len() > 1
            && shared_tensor(&args.arg_fields[1..])?.is_some_and(|(_, conform)| conform)
        {
            // Only the optimizer's simplification writes such values out in one layout.
            return exec_err!(
                "{TENSOR_TYPED}: the values of this CASE, COALESCE, NULLIF or NVL hold tensors in different layouts and were not simplified (run the query with the optimizer on)"
            );
        }
        match args.args.into_iter().next() {
            Some(value) => Ok(value),
            None => plan_err!("{TENSOR_TYPED} needs at least one argument"),
        }
    }

    fn documentation(&self) -> Option<&Documentation> {
        self.doc()
    }
}
