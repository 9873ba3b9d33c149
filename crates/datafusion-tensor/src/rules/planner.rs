//! SQL planning support: list literals such as `[2, 3]` become literal values.
//!
//! A tensor function's output type depends on literal arguments (a shape, an index string),
//! and DataFusion hands `return_field_from_args` only arguments that are `Expr::Literal`. Its
//! own planner turns `[2, 3]` into a call `make_array(2, 3)`, which is folded into a literal
//! only later, by the optimizer, after the output type was needed. This planner, consulted
//! before DataFusion's, folds a list of literals of one type into the same `List` literal right
//! away (`make_array`'s type: `List` of a nullable `item`), and a list of numbers of mixed
//! types, NULLs and `CAST`s of literals into the list of numpy's promoted type; any other list
//! (column references, mixed non-numeric types) is left to DataFusion's planner.

use arrow::datatypes::DataType;
use datafusion::common::{DFSchema, Result, ScalarValue};
use datafusion::logical_expr::Expr;
use datafusion::logical_expr::planner::{ExprPlanner, PlannerResult};

/// Folds list literals of literals into `List` literals (see the module docs).
#[derive(Debug, Default)]
pub struct LiteralListPlanner;

impl ExprPlanner for LiteralListPlanner {
    fn plan_array_literal(
        &self,
        exprs: Vec<Expr>,
        _schema: &DFSchema,
    ) -> Result<PlannerResult<Vec<Expr>>> {
        Ok(match literal_list(&exprs) {
            Some(list) => PlannerResult::Planned(list),
            None => PlannerResult::Original(exprs),
        })
    }
}

/// The `List` literal of `exprs` when each is a literal (or a `CAST` of one): all of one type,
/// or numbers, booleans and NULLs (nested lists of them), which take numpy's promotion as
/// `np.array` does (`[3, 4, 6.0]` is float64, `[1, 2, NULL]` int64 with a NULL element,
/// `[18446744073709551615, 7]` uint64 as numpy types those Python ints). An
/// empty list is of the Null type, as `make_array()` returns. `None` otherwise (mixed
/// non-numeric types need `make_array`'s coercion, column references its evaluation).
pub fn literal_list(exprs: &[Expr]) -> Option<Expr> {
    let values: Vec<ScalarValue> = exprs.iter().map(literal_value).collect::<Option<_>>()?;
    let data_type = values
        .first()
        .map_or(DataType::Null, ScalarValue::data_type);
    if values
        .iter()
        .all(|v| !v.is_null() && v.data_type() == data_type)
    {
        let list = ScalarValue::new_list_nullable(&values, &data_type);
        return Some(Expr::Literal(ScalarValue::List(list), None));
    }
    let first = values.iter().find(|v| !v.is_null())?.data_type();
    let (depth, _) = leaf(&first)?;
    let leaves = values
        .iter()
        .filter(|v| !v.is_null())
        .map(|v| match leaf(&v.data_type()) {
            Some((d, leaf)) if d == depth => Some(leaf),
            _ => None,
        })
        .collect::<Option<Vec<DataType>>>()?;
    // SQL's integer literals are Int64, and UInt64 beyond it: numpy's types of the same
    // Python ints (uint64 where one needs it and none is negative; a negative one fails the
    // cast below and the list is left to DataFusion).
    let python_ints = leaves
        .iter()
        .all(|t| matches!(t, DataType::Int64 | DataType::UInt64));
    let common = if python_ints && leaves.contains(&DataType::UInt64) {
        DataType::UInt64
    } else {
        crate::dtype::result_type(&leaves, &[])?
    };
    let target = with_leaf(&first, common);
    let values = values
        .iter()
        .map(|v| v.cast_to(&target).ok())
        .collect::<Option<Vec<_>>>()?;
    let list = ScalarValue::new_list_nullable(&values, &target);
    Some(Expr::Literal(ScalarValue::List(list), None))
}

/// The value of a literal, or of a `CAST` of one (`CAST(2 AS REAL)`, `'NaN'::double`).
fn literal_value(expr: &Expr) -> Option<ScalarValue> {
    match expr {
        Expr::Literal(value, None) => Some(value.clone()),
        Expr::Cast(cast) => literal_value(&cast.expr)?
            .cast_to(cast.field.data_type())
            .ok(),
        _ => None,
    }
}

/// The nesting depth and element type of a number, boolean or (nested) list of them.
fn leaf(data_type: &DataType) -> Option<(usize, DataType)> {
    match data_type {
        DataType::List(item) => leaf(item.data_type()).map(|(d, t)| (d + 1, t)),
        t if crate::tensor_type::is_element_type(t) => Some((0, t.clone())),
        _ => None,
    }
}

/// `data_type` with its element type replaced by `element`.
fn with_leaf(data_type: &DataType, element: DataType) -> DataType {
    match data_type {
        DataType::List(item) => DataType::List(std::sync::Arc::new(
            item.as_ref()
                .clone()
                .with_data_type(with_leaf(item.data_type(), element)),
        )),
        _ => element,
    }
}

/// `expr` with every `make_array` call of literals (innermost first) folded into its `List`
/// literal, as the SQL planner folds `[2, 3]` ([`LiteralListPlanner`]): what a call built
/// outside SQL (`make_array(vec![lit(2), lit(3)])`) needs where a tensor function reads a
/// literal list (a shape, axes).
pub fn fold_literal_lists(expr: Expr) -> Expr {
    match expr {
        Expr::ScalarFunction(mut call) if call.func.name() == "make_array" => {
            call.args = call.args.into_iter().map(fold_literal_lists).collect();
            literal_list(&call.args).unwrap_or(Expr::ScalarFunction(call))
        }
        other => other,
    }
}
