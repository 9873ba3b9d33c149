//! SQL operators on tensors (spec.md §9): `+ - * / %` and `= <> < <= > >=` with a tensor operand
//! are the elementwise functions (`x * 2.0` is `tensor_multiply(x, 2.0)`, `x > 0.5` a Boolean
//! tensor), by numpy's rules.
//!
//! Two hooks, one rewrite: [`TensorOperatorPlanner`] (an SQL expression planner, consulted
//! while SQL is planned) and [`TensorOperators`] (an analyzer rule, run before DataFusion's
//! type coercion, for plans built without SQL: the DataFrame API, plans from a codec). An
//! operator is rewritten only when one of its operands is a tensor (an
//! `arrow.fixed_shape_tensor` or `arrow.variable_shape_tensor` field); every other expression
//! is left exactly as it was.
//!
//! The analyzer rule also reads `CAST(x AS DOUBLE)` (`x::REAL`, `TRY_CAST`, the DataFrame
//! API's `cast`) of a tensor `x` to a numeric or Boolean type as numpy's elementwise
//! `x.astype(...)`: `tensor_astype(x, 'float64')`. Casts to other types (lists) and casts of
//! anything but a tensor are left alone.

use std::collections::HashMap;
use std::sync::Arc;

use arrow::datatypes::FieldRef;
use arrow_schema::extension::EXTENSION_TYPE_NAME_KEY;
use datafusion::common::config::ConfigOptions;
use datafusion::common::tree_node::{Transformed, TreeNode};
use datafusion::common::{DFSchema, ExprSchema};
use datafusion::error::Result;
use datafusion::logical_expr::expr::{BinaryExpr, Cast, ScalarFunction, TryCast};
use datafusion::logical_expr::planner::{ExprPlanner, PlannerResult, RawBinaryExpr};
use datafusion::logical_expr::utils::merge_schema;
use datafusion::logical_expr::{Expr, ExprSchemable, LogicalPlan, Operator, ScalarUDF, lit};
use datafusion::optimizer::AnalyzerRule;
use datafusion::sql::sqlparser::ast::BinaryOperator;

use crate::kernels::elementwise::BinaryOp;
use crate::udf::math::{BINARY_OPS, TensorAstype, dtype_name};
use crate::udf::{TensorBinary, TensorUdf};
use crate::variable_shape::has_any_tensor_extension;

/// The elementwise function of each operator, built once.
#[derive(Debug)]
struct OperatorFunctions {
    udfs: HashMap<BinaryOp, Arc<ScalarUDF>>,
    astype: Arc<ScalarUDF>,
    /// `tensor_negative` and `tensor_logical_not`, for `-x` and `NOT x` built without SQL
    /// (SQL's planner refuses a unary operator on a list before any planner hook).
    negative: Option<Arc<ScalarUDF>>,
    not: Option<Arc<ScalarUDF>>,
}

impl OperatorFunctions {
    fn new() -> Self {
        Self {
            udfs: BINARY_OPS
                .into_iter()
                .map(|op| {
                    let udf: ScalarUDF = TensorUdf::new(TensorBinary::new(op)).into();
                    (op, Arc::new(udf))
                })
                .collect(),
            astype: Arc::new(TensorUdf::new(TensorAstype::new()).into()),
            negative: unary("tensor_negative"),
            not: unary("tensor_logical_not"),
        }
    }

    /// `-expr` (`not`: `NOT expr`) as its elementwise call, when `expr` is a tensor.
    fn unary(&self, expr: &Expr, not: bool, schema: &dyn ExprSchema) -> Option<Expr> {
        if !is_tensor(expr, schema) {
            return None;
        }
        let udf = if not { &self.not } else { &self.negative };
        Some(Expr::ScalarFunction(ScalarFunction::new_udf(
            Arc::clone(udf.as_ref()?),
            vec![expr.clone()],
        )))
    }

    /// `CAST(expr AS type)` as `tensor_astype(expr, dtype)`, when `expr` is a tensor and the
    /// type a tensor element type (a plain primitive field: no extension type).
    fn cast(&self, expr: &Expr, field: &FieldRef, schema: &dyn ExprSchema) -> Option<Expr> {
        if field.metadata().contains_key(EXTENSION_TYPE_NAME_KEY) {
            return None;
        }
        let dtype = dtype_name(field.data_type())?;
        if !is_tensor(expr, schema) {
            return None;
        }
        Some(Expr::ScalarFunction(ScalarFunction::new_udf(
            Arc::clone(&self.astype),
            vec![expr.clone(), lit(dtype)],
        )))
    }

    /// `op(left, right)` as a call of its function, when either operand is a tensor.
    fn rewrite(
        &self,
        op: Option<BinaryOp>,
        left: &Expr,
        right: &Expr,
        schema: &dyn ExprSchema,
    ) -> Option<Expr> {
        let op = op?;
        if !(is_tensor(left, schema) || is_tensor(right, schema)) {
            return None;
        }
        let udf = Arc::clone(self.udfs.get(&op)?);
        Some(Expr::ScalarFunction(ScalarFunction::new_udf(
            udf,
            vec![left.clone(), right.clone()],
        )))
    }
}

/// Whether `expr` is a tensor column or value (its field carries a tensor extension type).
fn is_tensor(expr: &Expr, schema: &dyn ExprSchema) -> bool {
    // SQL's own operators and plain literals never carry field metadata, so never a tensor
    // type: answered without typing them. Typing a chain `1 + 1 + ...` names and types its
    // whole subtree, at every one of its operators: cubic in its length (1,000 terms took 49 s).
    if matches!(expr, Expr::BinaryExpr(_) | Expr::Literal(_, None)) {
        return false;
    }
    // An elementwise function with a tensor operand returns a tensor (numpy broadcasting):
    // answered from its operands, without naming the call (a chain `x + x + ...` of 300
    // operators spent most of its planning formatting the names of its nested calls).
    if let Expr::ScalarFunction(call) = expr
        && (call.func.inner().as_ref() as &dyn std::any::Any)
            .downcast_ref::<TensorUdf<TensorBinary>>()
            .is_some()
        && call.args.iter().any(|arg| is_tensor(arg, schema))
    {
        return true;
    }
    expr.to_field(schema)
        .is_ok_and(|(_, field)| has_any_tensor_extension(&field))
}

/// The elementwise operation of an SQL operator.
fn sql_operator(op: &BinaryOperator) -> Option<BinaryOp> {
    Some(match op {
        BinaryOperator::Plus => BinaryOp::Add,
        BinaryOperator::Minus => BinaryOp::Subtract,
        BinaryOperator::Multiply => BinaryOp::Multiply,
        BinaryOperator::Divide => BinaryOp::Divide,
        BinaryOperator::Modulo => BinaryOp::Mod,
        BinaryOperator::Eq => BinaryOp::Equal,
        BinaryOperator::NotEq => BinaryOp::NotEqual,
        BinaryOperator::Lt => BinaryOp::Less,
        BinaryOperator::LtEq => BinaryOp::LessEqual,
        BinaryOperator::Gt => BinaryOp::Greater,
        BinaryOperator::GtEq => BinaryOp::GreaterEqual,
        BinaryOperator::BitwiseAnd => BinaryOp::BitwiseAnd,
        BinaryOperator::BitwiseOr => BinaryOp::BitwiseOr,
        BinaryOperator::BitwiseXor | BinaryOperator::PGBitwiseXor => BinaryOp::BitwiseXor,
        BinaryOperator::PGBitwiseShiftLeft => BinaryOp::LeftShift,
        BinaryOperator::PGBitwiseShiftRight => BinaryOp::RightShift,
        _ => return None,
    })
}

/// The elementwise operation of a logical plan's operator.
fn plan_operator(op: Operator) -> Option<BinaryOp> {
    Some(match op {
        Operator::Plus => BinaryOp::Add,
        Operator::Minus => BinaryOp::Subtract,
        Operator::Multiply => BinaryOp::Multiply,
        Operator::Divide => BinaryOp::Divide,
        Operator::Modulo => BinaryOp::Mod,
        Operator::Eq => BinaryOp::Equal,
        Operator::NotEq => BinaryOp::NotEqual,
        Operator::Lt => BinaryOp::Less,
        Operator::LtEq => BinaryOp::LessEqual,
        Operator::Gt => BinaryOp::Greater,
        Operator::GtEq => BinaryOp::GreaterEqual,
        Operator::BitwiseAnd => BinaryOp::BitwiseAnd,
        Operator::BitwiseOr => BinaryOp::BitwiseOr,
        Operator::BitwiseXor => BinaryOp::BitwiseXor,
        Operator::BitwiseShiftLeft => BinaryOp::LeftShift,
        Operator::BitwiseShiftRight => BinaryOp::RightShift,
        _ => return None,
    })
}

/// The SQL expression planner of operators on tensors (see the module docs).
#[derive(Debug)]
pub struct TensorOperatorPlanner {
    functions: OperatorFunctions,
}

impl Default for TensorOperatorPlanner {
    fn default() -> Self {
        Self {
            functions: OperatorFunctions::new(),
        }
    }
}

impl ExprPlanner for TensorOperatorPlanner {
    fn plan_binary_op(
        &self,
        expr: RawBinaryExpr,
        schema: &DFSchema,
    ) -> Result<PlannerResult<RawBinaryExpr>> {
        match self
            .functions
            .rewrite(sql_operator(&expr.op), &expr.left, &expr.right, schema)
        {
            Some(call) => Ok(PlannerResult::Planned(call)),
            None => Ok(PlannerResult::Original(expr)),
        }
    }
}

/// The analyzer rule that rewrites operators on tensors in plans built without SQL (see the
/// module docs). It must run before DataFusion's type coercion, which refuses them.
#[derive(Debug)]
pub struct TensorOperators {
    functions: OperatorFunctions,
}

impl Default for TensorOperators {
    fn default() -> Self {
        Self {
            functions: OperatorFunctions::new(),
        }
    }
}

impl TensorOperators {
    /// `expr` with each operator on a tensor operand (over `schema`, the input of the node
    /// that holds `expr`) rewritten as its elementwise call, and each `CAST`/`TRY_CAST` of a
    /// tensor to a number or Boolean type as `tensor_astype`; every other expression as it was.
    ///
    /// # Errors
    /// None of its own: the rewrite only builds calls; a tree walk's error is returned.
    pub fn rewrite_expr(&self, expr: Expr, schema: &DFSchema) -> Result<Transformed<Expr>> {
        expr.transform_up(|expr| match expr {
            Expr::BinaryExpr(BinaryExpr { left, op, right }) => {
                match self
                    .functions
                    .rewrite(plan_operator(op), &left, &right, schema)
                {
                    Some(call) => Ok(Transformed::yes(call)),
                    None => Ok(Transformed::no(Expr::BinaryExpr(BinaryExpr {
                        left,
                        op,
                        right,
                    }))),
                }
            }
            Expr::Cast(Cast { expr, field }) => match self.functions.cast(&expr, &field, schema) {
                Some(call) => Ok(Transformed::yes(call)),
                None => Ok(Transformed::no(Expr::Cast(Cast { expr, field }))),
            },
            Expr::TryCast(TryCast { expr, field }) => {
                match self.functions.cast(&expr, &field, schema) {
                    Some(call) => Ok(Transformed::yes(call)),
                    None => Ok(Transformed::no(Expr::TryCast(TryCast { expr, field }))),
                }
            }
            Expr::Negative(inner) => match self.functions.unary(&inner, false, schema) {
                Some(call) => Ok(Transformed::yes(call)),
                None => Ok(Transformed::no(Expr::Negative(inner))),
            },
            Expr::Not(inner) => match self.functions.unary(&inner, true, schema) {
                Some(call) => Ok(Transformed::yes(call)),
                None => Ok(Transformed::no(Expr::Not(inner))),
            },
            other => Ok(Transformed::no(other)),
        })
    }
}

/// The registered unary function `name` (one of `TensorUnary::all`).
fn unary(name: &str) -> Option<Arc<ScalarUDF>> {
    crate::udf::TensorUnary::all()
        .into_iter()
        .find(|f| crate::udf::TensorFunction::name(f) == name)
        .map(|f| Arc::new(TensorUdf::new(f).into()))
}

impl AnalyzerRule for TensorOperators {
    fn name(&self) -> &'static str {
        "tensor_operators"
    }

    fn analyze(&self, plan: LogicalPlan, _config: &ConfigOptions) -> Result<LogicalPlan> {
        plan.transform_up_with_subqueries(|plan| {
            let schema = match plan.inputs().as_slice() {
                [] => plan.schema().as_ref().clone(),
                inputs => merge_schema(inputs),
            };
            let rewritten = plan.map_expressions(|expr| self.rewrite_expr(expr, &schema))?;
            if rewritten.transformed {
                // The rewritten expressions have tensor types: the node's schema follows.
                rewritten.data.recompute_schema().map(Transformed::yes)
            } else {
                Ok(rewritten)
            }
        })
        .map(|transformed| transformed.data)
    }
}
