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
//! - on other integer tensors the integer literal stays `Int64`: the arithmetic runs in 64
//!   bits and `tensor_at_apply` casts the result back to the element type, failing on a value
//!   that does not fit. So an overflow is an error (JAX would wrap) and never silent, except
//!   for 64-bit tensors, whose arithmetic is DataFusion's (which wraps on overflow);
//! - a float literal on an integer tensor stays `Float64`: the result is float, which
//!   `tensor_at_apply` refuses, as JAX does.
//!
//! Everywhere else (no lambda parameter of a tensor function involved) SQL's types stand.

use arrow::datatypes::DataType;
use datafusion::common::tree_node::TreeNode;
use datafusion::common::{DFSchema, Result, ScalarValue};
use datafusion::logical_expr::planner::{ExprPlanner, PlannerResult, RawBinaryExpr};
use datafusion::logical_expr::{Expr, ExprSchemable};
use datafusion::sql::sqlparser::ast::BinaryOperator;

/// The field metadata key that marks a lambda parameter whose literals are weakly typed.
pub const WEAK_PARAMETER: &str = "datafusion_tensor.weak_literals";

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

/// `literal` typed for arithmetic with a tensor element of type `element`; `None` to keep it.
fn weak_literal(literal: &ScalarValue, element: &DataType) -> Option<ScalarValue> {
    let literal_type = literal.data_type();
    let cast = match element {
        DataType::Float16 | DataType::Float32 | DataType::Float64 => true,
        DataType::UInt64 => {
            literal_type.is_integer() && !literal_type.is_signed_integer()
                || matches!(literal, ScalarValue::Int64(Some(v)) if *v >= 0)
        }
        _ => false,
    };
    if !cast || literal_type == *element {
        return None;
    }
    literal.cast_to(element).ok()
}

impl ExprPlanner for WeakLambdaLiterals {
    fn plan_binary_op(
        &self,
        expr: RawBinaryExpr,
        schema: &DFSchema,
    ) -> Result<PlannerResult<RawBinaryExpr>> {
        let arithmetic = matches!(
            expr.op,
            BinaryOperator::Plus
                | BinaryOperator::Minus
                | BinaryOperator::Multiply
                | BinaryOperator::Divide
                | BinaryOperator::Modulo
        );
        if !arithmetic {
            return Ok(PlannerResult::Original(expr));
        }
        let RawBinaryExpr { op, left, right } = expr;
        let retype = |literal_side: &Expr, other: &Expr| -> Option<Expr> {
            let literal = number_literal(literal_side)?;
            if !uses_weak_parameter(other) {
                return None;
            }
            let element = other.get_type(schema).ok()?;
            weak_literal(&literal, &element).map(|value| Expr::Literal(value, None))
        };
        let (left, right) = match (retype(&left, &right), retype(&right, &left)) {
            (Some(left), _) => (left, right),
            (None, Some(right)) => (left, right),
            (None, None) => (left, right),
        };
        Ok(PlannerResult::Original(RawBinaryExpr { op, left, right }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_take_float_and_uint64_element_types() {
        let two = ScalarValue::Int64(Some(2));
        assert_eq!(
            weak_literal(&two, &DataType::Float16),
            Some(ScalarValue::Float16(Some(half::f16::from_f32(2.0))))
        );
        assert_eq!(
            weak_literal(&ScalarValue::Float64(Some(0.5)), &DataType::Float32),
            Some(ScalarValue::Float32(Some(0.5)))
        );
        assert_eq!(
            weak_literal(&two, &DataType::UInt64),
            Some(ScalarValue::UInt64(Some(2)))
        );
        assert_eq!(
            weak_literal(&ScalarValue::Int64(Some(-2)), &DataType::UInt64),
            None
        );
        // Narrow integers compute in Int64 and are cast back, checked.
        assert_eq!(weak_literal(&two, &DataType::Int32), None);
        // A float literal on an integer tensor makes the result float (refused later).
        assert_eq!(
            weak_literal(&ScalarValue::Float64(Some(0.5)), &DataType::Int8),
            None
        );
    }
}
