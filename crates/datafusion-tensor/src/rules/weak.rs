//! JAX's weak typing for the literals of a `tensor_at_apply` lambda.
//!
//! In JAX, `x.at[0].apply(lambda v: v * 2)` keeps `x`'s dtype: a Python number is *weakly
//! typed* and takes the type of the array it meets. SQL types `2` as `Int64` and `0.5` as
//! `Float64`, so `v -> v * 2` on an `Int32` tensor would return `Int64`. This expression
//! planner, consulted while DataFusion plans the lambda's body, sees each arithmetic operator
//! with a number literal on one side and, on the other, an expression of a tensor lambda's
//! parameter (marked by [`WEAK_PARAMETER`] in its field's metadata):
//! - on a float tensor (Float16/32/64), any number literal is cast to the element type, so the
//!   arithmetic runs in that type, as in JAX (`v * 0.1` on Float16 multiplies by
//!   `float16(0.1)`);
//! - on an unsigned 64-bit tensor, a non-negative integer literal becomes `UInt64` (SQL would
//!   find no common type with `Int64`);
//! - on integer tensors an integer literal is cast to the element type (a literal that does
//!   not fit is a plan error: JAX would wrap it), and the operator becomes checked arithmetic
//!   ([`CheckedArithmetic`], arrow's `add`/`sub`/`mul`/`div`/`rem`): an overflow fails the
//!   query where JAX and DataFusion's own operators wrap silently. `v * v * v` on Int64 is
//!   checked at each step;
//! - a float literal on an integer tensor stays `Float64`: the result is float, which
//!   `tensor_at_apply` refuses, as JAX does.
//!
//! Everywhere else (no lambda parameter of a tensor function involved) SQL's types stand.

use std::sync::Arc;

use arrow::array::Datum;
use arrow::datatypes::DataType;
use datafusion::common::tree_node::TreeNode;
use datafusion::common::{DFSchema, Result, ScalarValue, plan_err};
use datafusion::logical_expr::expr::ScalarFunction;
use datafusion::logical_expr::planner::{ExprPlanner, PlannerResult, RawBinaryExpr};
use datafusion::logical_expr::type_coercion::binary::BinaryTypeCoercer;
use datafusion::logical_expr::{
    ColumnarValue, Expr, ExprSchemable, Operator, ScalarFunctionArgs, ScalarUDF, ScalarUDFImpl,
    Signature, Volatility,
};
use datafusion::sql::sqlparser::ast::BinaryOperator;

/// The field metadata key that marks a lambda parameter whose literals are weakly typed.
pub const WEAK_PARAMETER: &str = "datafusion_tensor.weak_literals";

/// The parameter `v` of a tensor function's lambda, one element of a tensor of `element`s,
/// its number literals weakly typed.
pub fn lambda_parameter(element: &DataType) -> arrow::datatypes::FieldRef {
    let weak = std::collections::HashMap::from([(WEAK_PARAMETER.to_string(), "true".to_string())]);
    Arc::new(arrow::datatypes::Field::new("v", element.clone(), true).with_metadata(weak))
}

/// Types the number literals of tensor lambdas as JAX does (see the module docs).
#[derive(Debug, Default)]
pub struct WeakLambdaLiterals;

/// Whether `expr` uses a lambda parameter marked with [`WEAK_PARAMETER`].
fn uses_weak_parameter(expr: &Expr) -> bool {
    expr.exists(|e| {
        Ok(matches!(e, Expr::LambdaVariable(v)
            if v.field.as_ref().is_some_and(|f| f.metadata().contains_key(WEAK_PARAMETER))))
    })
    .unwrap_or(false)
}

/// The number literal of `expr` (a literal, or `-literal`).
fn number_literal(expr: &Expr) -> Option<ScalarValue> {
    match expr {
        Expr::Literal(value, _) if value.data_type().is_numeric() && !value.is_null() => {
            Some(value.clone())
        }
        Expr::Negative(inner) => number_literal(inner)?.arithmetic_negate().ok(),
        _ => None,
    }
}

/// `literal` typed for arithmetic with a tensor element of type `element`: `Ok(None)` to keep
/// it as it is; an error for an integer literal that does not fit an integer element type.
fn weak_literal(literal: &ScalarValue, element: &DataType) -> Result<Option<ScalarValue>> {
    let literal_type = literal.data_type();
    if literal_type == *element {
        return Ok(None);
    }
    if element.is_floating() {
        return Ok(literal.cast_to(element).ok());
    }
    if element.is_integer() && literal_type.is_integer() {
        let options = arrow::compute::CastOptions {
            safe: false,
            ..Default::default()
        };
        return match literal.cast_to_with_options(element, &options) {
            Ok(cast) => Ok(Some(cast)),
            Err(_) => plan_err!(
                "tensor_at_apply: the lambda's literal {literal} does not fit the tensor's element type {element} (JAX would wrap it)"
            ),
        };
    }
    Ok(None)
}

/// SQL's arithmetic operator of `op`.
fn arithmetic(op: &BinaryOperator) -> Option<Operator> {
    Some(match op {
        BinaryOperator::Plus => Operator::Plus,
        BinaryOperator::Minus => Operator::Minus,
        BinaryOperator::Multiply => Operator::Multiply,
        BinaryOperator::Divide => Operator::Divide,
        BinaryOperator::Modulo => Operator::Modulo,
        _ => return None,
    })
}

/// Integer arithmetic that fails on overflow (arrow's checked kernels), for the operators of
/// a tensor lambda; named as the operator it replaces (`v * Int32(2)`).
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct CheckedArithmetic {
    op: Operator,
    signature: Signature,
}

impl CheckedArithmetic {
    /// The checked form of `op` (an arithmetic operator).
    pub fn new(op: Operator) -> Self {
        Self {
            op,
            signature: Signature::user_defined(Volatility::Immutable),
        }
    }
}

/// The checked operators, one function each: for processes that receive plans by function
/// name (a Ballista scheduler or executor), where no SQL planner made them.
pub fn checked_functions() -> Vec<ScalarUDF> {
    [
        Operator::Plus,
        Operator::Minus,
        Operator::Multiply,
        Operator::Divide,
        Operator::Modulo,
    ]
    .into_iter()
    .map(|op| ScalarUDF::new_from_impl(CheckedArithmetic::new(op)))
    .collect()
}

impl ScalarUDFImpl for CheckedArithmetic {
    fn name(&self) -> &str {
        match self.op {
            Operator::Plus => "tensor_checked_add",
            Operator::Minus => "tensor_checked_subtract",
            Operator::Multiply => "tensor_checked_multiply",
            Operator::Divide => "tensor_checked_divide",
            _ => "tensor_checked_modulo",
        }
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        let [left, right] = arg_types else {
            return plan_err!("{} takes two arguments", self.name());
        };
        let (left, right) = BinaryTypeCoercer::new(left, &self.op, right).get_input_types()?;
        Ok(vec![left, right])
    }

    fn return_type(&self, arg_types: &[DataType]) -> Result<DataType> {
        let [left, right] = arg_types else {
            return plan_err!("{} takes two arguments", self.name());
        };
        BinaryTypeCoercer::new(left, &self.op, right).get_result_type()
    }

    fn schema_name(&self, args: &[Expr]) -> Result<String> {
        let [left, right] = args else {
            return plan_err!("{} takes two arguments", self.name());
        };
        Ok(format!(
            "{} {} {}",
            left.schema_name(),
            self.op,
            right.schema_name()
        ))
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        let [left, right] = args.args.as_slice() else {
            return plan_err!("{} takes two arguments", self.name());
        };
        let datum = |value: &ColumnarValue| -> Result<Box<dyn Datum>> {
            Ok(match value {
                ColumnarValue::Array(array) => Box::new(Arc::clone(array)),
                ColumnarValue::Scalar(value) => Box::new(value.to_scalar()?),
            })
        };
        let (l, r) = (datum(left)?, datum(right)?);
        let kernel = match self.op {
            Operator::Plus => arrow::compute::kernels::numeric::add,
            Operator::Minus => arrow::compute::kernels::numeric::sub,
            Operator::Multiply => arrow::compute::kernels::numeric::mul,
            Operator::Divide => arrow::compute::kernels::numeric::div,
            _ => arrow::compute::kernels::numeric::rem,
        };
        let result = kernel(l.as_ref(), r.as_ref())?;
        if matches!(
            (left, right),
            (ColumnarValue::Scalar(_), ColumnarValue::Scalar(_))
        ) {
            return Ok(ColumnarValue::Scalar(ScalarValue::try_from_array(
                &result, 0,
            )?));
        }
        Ok(ColumnarValue::Array(result))
    }
}

impl ExprPlanner for WeakLambdaLiterals {
    fn plan_binary_op(
        &self,
        expr: RawBinaryExpr,
        schema: &DFSchema,
    ) -> Result<PlannerResult<RawBinaryExpr>> {
        let Some(op) = arithmetic(&expr.op) else {
            return Ok(PlannerResult::Original(expr));
        };
        let weak_left = uses_weak_parameter(&expr.left);
        let weak_right = uses_weak_parameter(&expr.right);
        if !weak_left && !weak_right {
            return Ok(PlannerResult::Original(expr));
        }
        let RawBinaryExpr {
            op: sql_op,
            left,
            right,
        } = expr;
        // The literal on one side takes the type of the parameter's side.
        let retype = |literal_side: Expr, other: &Expr, weak: bool| -> Result<Expr> {
            let Some(literal) = number_literal(&literal_side).filter(|_| weak) else {
                return Ok(literal_side);
            };
            let element = other.get_type(schema)?;
            Ok(match weak_literal(&literal, &element)? {
                Some(value) => Expr::Literal(value, None),
                None => literal_side,
            })
        };
        let left = retype(left, &right, weak_right)?;
        let right = retype(right, &left, weak_left)?;
        let integers = left.get_type(schema)?.is_integer() && right.get_type(schema)?.is_integer();
        if !integers {
            return Ok(PlannerResult::Original(RawBinaryExpr {
                op: sql_op,
                left,
                right,
            }));
        }
        let checked = ScalarUDF::new_from_impl(CheckedArithmetic::new(op));
        Ok(PlannerResult::Planned(Expr::ScalarFunction(
            ScalarFunction::new_udf(Arc::new(checked), vec![left, right]),
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_take_the_element_type() {
        let two = ScalarValue::Int64(Some(2));
        assert_eq!(
            weak_literal(&two, &DataType::Float16).unwrap(),
            Some(ScalarValue::Float16(Some(half::f16::from_f32(2.0))))
        );
        assert_eq!(
            weak_literal(&ScalarValue::Float64(Some(0.5)), &DataType::Float32).unwrap(),
            Some(ScalarValue::Float32(Some(0.5)))
        );
        assert_eq!(
            weak_literal(&two, &DataType::UInt8).unwrap(),
            Some(ScalarValue::UInt8(Some(2)))
        );
        // A literal that does not fit is an error (JAX would wrap it).
        assert!(weak_literal(&ScalarValue::Int64(Some(-2)), &DataType::UInt64).is_err());
        assert!(weak_literal(&ScalarValue::Int64(Some(300)), &DataType::UInt8).is_err());
        // A float literal on an integer tensor makes the result float (refused later).
        assert_eq!(
            weak_literal(&ScalarValue::Float64(Some(0.5)), &DataType::Int8).unwrap(),
            None
        );
    }
}
