//! `Expr`: DataFusion expressions built from Python (`col`, `lit`, the operators, every
//! function by name), for the `DataFrame` methods of [`crate::dataframe`].
//!
//! A tensor function's call goes through the crate's [`tensor_call_with`] (options by name, in
//! any order, as the SQL keyword rewrite places them); other functions (DataFusion's own scalar
//! and aggregate functions, and the crate's aggregates) are found by name in a session with
//! every function registered. Operators on tensor operands are rewritten into the elementwise
//! calls when the expression meets its DataFrame's schema (`TensorDataFrameExt`).

use std::str::FromStr;
use std::sync::LazyLock;

use arrow::datatypes::DataType;
use datafusion::common::ScalarValue;
use datafusion::execution::FunctionRegistry;
use datafusion::execution::SessionState;
use datafusion::logical_expr::expr::{AggregateFunction, Sort};
use datafusion::logical_expr::{Expr, ExprFunctionExt, Operator, binary_expr, cast};
use datafusion::prelude::{col as df_col, lit as df_lit};
use datafusion_tensor::dataframe::tensor_call_with;
use datafusion_tensor::udf::Parameters;
use datafusion_tensor::udf::registry::{Registered, registry};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

use crate::errors::to_py;

/// An expression (a column, a literal, an operator, a function call), to pass to the
/// `DataFrame` methods.
#[pyclass(
    name = "Expr",
    module = "datafusion_tensor._internal",
    frozen,
    skip_from_py_object
)]
#[derive(Clone)]
pub(crate) struct PyExpr {
    pub(crate) expr: Expr,
}

/// A sort key: an expression with its direction.
#[pyclass(
    name = "SortExpr",
    module = "datafusion_tensor._internal",
    frozen,
    skip_from_py_object
)]
#[derive(Clone)]
pub(crate) struct PySortExpr {
    pub(crate) sort: Sort,
}

impl From<Expr> for PyExpr {
    fn from(expr: Expr) -> Self {
        Self { expr }
    }
}

/// What a Python value is as an expression: an `Expr` as it is, `None` a NULL, a bool, int,
/// float or str a literal (numbers weakly typed against tensors, as SQL literals are), a list
/// or tuple an array literal (`make_array`, what `[1, 2]` is in SQL).
pub(crate) fn to_expr(value: &Bound<'_, PyAny>) -> PyResult<Expr> {
    if let Ok(expr) = value.extract::<PyRef<'_, PyExpr>>() {
        return Ok(expr.expr.clone());
    }
    if value.is_none() {
        return Ok(Expr::Literal(ScalarValue::Null, None));
    }
    // bool before int: a Python bool is an int.
    if let Ok(b) = value.cast::<pyo3::types::PyBool>() {
        return Ok(df_lit(b.is_true()));
    }
    if value.is_instance_of::<pyo3::types::PyInt>() {
        return match value.extract::<i64>() {
            Ok(i) => Ok(df_lit(i)),
            Err(_) => value.extract::<u64>().map(df_lit).map_err(|_| {
                PyValueError::new_err(format!("integer {value} does not fit 64 bits"))
            }),
        };
    }
    if let Ok(f) = value.cast::<pyo3::types::PyFloat>() {
        return Ok(df_lit(f.value()));
    }
    if let Ok(s) = value.extract::<String>() {
        return Ok(df_lit(s));
    }
    if value.is_instance_of::<PyList>() || value.is_instance_of::<PyTuple>() {
        // A list of numbers (or nested lists of them) is a list literal, as `[2, 3]` is in SQL
        // (a shape, an index list); one holding expressions is a `make_array` call.
        if let Some(literal) = list_literal(value)? {
            return Ok(Expr::Literal(literal, None));
        }
        let items = value
            .try_iter()?
            .map(|item| to_expr(&item?))
            .collect::<PyResult<Vec<_>>>()?;
        return Ok(datafusion::functions_nested::expr_fn::make_array(items));
    }
    Err(pyo3::exceptions::PyTypeError::new_err(format!(
        "expected an Expr, None, a bool, int, float, str or a list of them, got {}",
        value.get_type().name()?
    )))
}

/// `value` (a Python list or tuple) as a list literal when it holds only numbers, booleans or
/// such lists (one element type: integers become Float64 beside a float, as numpy's array
/// does); `None` when it holds anything else.
fn list_literal(value: &Bound<'_, PyAny>) -> PyResult<Option<ScalarValue>> {
    let mut items = Vec::new();
    for item in value.try_iter()? {
        let item = item?;
        let scalar = if item.is_instance_of::<PyList>() || item.is_instance_of::<PyTuple>() {
            match list_literal(&item)? {
                Some(list) => list,
                None => return Ok(None),
            }
        } else if let Ok(b) = item.cast::<pyo3::types::PyBool>() {
            ScalarValue::Boolean(Some(b.is_true()))
        } else if item.is_instance_of::<pyo3::types::PyInt>() {
            match item.extract::<i64>() {
                Ok(i) => ScalarValue::Int64(Some(i)),
                Err(_) => return Ok(None),
            }
        } else if let Ok(f) = item.cast::<pyo3::types::PyFloat>() {
            ScalarValue::Float64(Some(f.value()))
        } else {
            return Ok(None);
        };
        items.push(scalar);
    }
    let floats = items.iter().any(|s| matches!(s, ScalarValue::Float64(_)));
    let items: Vec<ScalarValue> = items
        .into_iter()
        .map(|s| match s {
            ScalarValue::Int64(Some(i)) if floats => ScalarValue::Float64(Some(i as f64)),
            other => other,
        })
        .collect();
    let element = items
        .first()
        .map_or(DataType::Int64, ScalarValue::data_type);
    if items.iter().any(|s| s.data_type() != element) {
        return Ok(None);
    }
    Ok(Some(ScalarValue::List(ScalarValue::new_list_nullable(
        &items, &element,
    ))))
}

fn binary(
    left: &Expr,
    op: Operator,
    right: &Bound<'_, PyAny>,
    reflected: bool,
) -> PyResult<PyExpr> {
    let right = to_expr(right)?;
    let (l, r) = if reflected {
        (right, left.clone())
    } else {
        (left.clone(), right)
    };
    Ok(binary_expr(l, op, r).into())
}

#[pymethods]
impl PyExpr {
    fn __add__(&self, other: &Bound<'_, PyAny>) -> PyResult<Self> {
        binary(&self.expr, Operator::Plus, other, false)
    }
    fn __radd__(&self, other: &Bound<'_, PyAny>) -> PyResult<Self> {
        binary(&self.expr, Operator::Plus, other, true)
    }
    fn __sub__(&self, other: &Bound<'_, PyAny>) -> PyResult<Self> {
        binary(&self.expr, Operator::Minus, other, false)
    }
    fn __rsub__(&self, other: &Bound<'_, PyAny>) -> PyResult<Self> {
        binary(&self.expr, Operator::Minus, other, true)
    }
    fn __mul__(&self, other: &Bound<'_, PyAny>) -> PyResult<Self> {
        binary(&self.expr, Operator::Multiply, other, false)
    }
    fn __rmul__(&self, other: &Bound<'_, PyAny>) -> PyResult<Self> {
        binary(&self.expr, Operator::Multiply, other, true)
    }
    fn __truediv__(&self, other: &Bound<'_, PyAny>) -> PyResult<Self> {
        binary(&self.expr, Operator::Divide, other, false)
    }
    fn __rtruediv__(&self, other: &Bound<'_, PyAny>) -> PyResult<Self> {
        binary(&self.expr, Operator::Divide, other, true)
    }
    fn __mod__(&self, other: &Bound<'_, PyAny>) -> PyResult<Self> {
        binary(&self.expr, Operator::Modulo, other, false)
    }
    fn __rmod__(&self, other: &Bound<'_, PyAny>) -> PyResult<Self> {
        binary(&self.expr, Operator::Modulo, other, true)
    }
    fn __and__(&self, other: &Bound<'_, PyAny>) -> PyResult<Self> {
        binary(&self.expr, Operator::And, other, false)
    }
    fn __or__(&self, other: &Bound<'_, PyAny>) -> PyResult<Self> {
        binary(&self.expr, Operator::Or, other, false)
    }
    fn __invert__(&self) -> Self {
        (!self.expr.clone()).into()
    }
    fn __neg__(&self) -> Self {
        Expr::Negative(Box::new(self.expr.clone())).into()
    }
    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: pyo3::basic::CompareOp) -> PyResult<Self> {
        use pyo3::basic::CompareOp;
        let op = match op {
            CompareOp::Eq => Operator::Eq,
            CompareOp::Ne => Operator::NotEq,
            CompareOp::Lt => Operator::Lt,
            CompareOp::Le => Operator::LtEq,
            CompareOp::Gt => Operator::Gt,
            CompareOp::Ge => Operator::GtEq,
        };
        binary(&self.expr, op, other, false)
    }

    /// The field `name` of a struct: a part of a result numpy returns as a named tuple
    /// (`tensor_svd(x)["S"]`, as SQL's `tensor_svd(x)['S']`).
    fn __getitem__(&self, name: &str) -> Self {
        datafusion::functions::core::expr_fn::get_field(self.expr.clone(), name).into()
    }

    /// This expression named `name` in the result.
    fn alias(&self, name: &str) -> Self {
        self.expr.clone().alias(name).into()
    }

    /// This expression cast to `to`, an Arrow type name (`'Float32'`, `'Int64'`, ...): on a
    /// tensor, numpy's `astype` to that element type (as SQL's `CAST`).
    fn cast(&self, to: &str) -> PyResult<Self> {
        let to = DataType::from_str(to)
            .map_err(|err| PyValueError::new_err(format!("not an Arrow type name: {err}")))?;
        Ok(cast(self.expr.clone(), to).into())
    }

    fn is_null(&self) -> Self {
        self.expr.clone().is_null().into()
    }

    fn is_not_null(&self) -> Self {
        self.expr.clone().is_not_null().into()
    }

    /// A sort key on this expression.
    #[pyo3(signature = (ascending = true, nulls_first = true))]
    fn sort(&self, ascending: bool, nulls_first: bool) -> PySortExpr {
        PySortExpr {
            sort: self.expr.clone().sort(ascending, nulls_first),
        }
    }

    /// An aggregate call of this expression with `FILTER (WHERE predicate)`.
    fn filter(&self, predicate: &Bound<'_, PyAny>) -> PyResult<Self> {
        let predicate = to_expr(predicate)?;
        match &self.expr {
            Expr::AggregateFunction(_) => self
                .expr
                .clone()
                .filter(predicate)
                .build()
                .map(Into::into)
                .map_err(|err| to_py(&err)),
            _ => Err(PyValueError::new_err(
                "filter() applies to an aggregate function's call",
            )),
        }
    }

    fn __repr__(&self) -> String {
        format!("Expr({})", self.expr)
    }

    fn __str__(&self) -> String {
        self.expr.to_string()
    }
}

#[pymethods]
impl PySortExpr {
    fn __repr__(&self) -> String {
        format!("SortExpr({})", self.sort)
    }
}

/// A session with every function registered (DataFusion's and the crate's), where calls by
/// name find functions that are not the crate's tensor scalar functions.
static FUNCTIONS: LazyLock<Option<SessionState>> = LazyLock::new(|| {
    datafusion_tensor::tensor_session_context()
        .ok()
        .map(|ctx| ctx.state())
});

/// The column `name`.
#[pyfunction]
pub(crate) fn col(name: &str) -> PyExpr {
    df_col(name).into()
}

/// `value` as a literal (see [`to_expr`]).
#[pyfunction]
pub(crate) fn lit(value: &Bound<'_, PyAny>) -> PyResult<PyExpr> {
    to_expr(value).map(Into::into)
}

/// A call of the function `name` with positional `args` and keyword `options` (the tensor
/// functions' option names; other functions take positional arguments only).
#[pyfunction]
#[pyo3(signature = (name, args, options = None, distinct = false))]
pub(crate) fn call(
    name: &str,
    args: &Bound<'_, PyTuple>,
    options: Option<&Bound<'_, PyDict>>,
    distinct: bool,
) -> PyResult<PyExpr> {
    let args = args
        .iter()
        .map(|arg| to_expr(&arg))
        .collect::<PyResult<Vec<_>>>()?;
    let mut named: Vec<(String, Expr)> = Vec::new();
    for (key, value) in options.into_iter().flat_map(PyDictMethods::iter) {
        named.push((key.extract::<String>()?, to_expr(&value)?));
    }
    if let Some(declared) = registry().get(name) {
        // The crate's functions, aggregates included: options placed by the crate's rule.
        let is_aggregate = matches!(declared.function, Registered::Aggregate(_));
        if distinct && !is_aggregate {
            return Err(PyValueError::new_err(format!(
                "{name} is not an aggregate function: distinct does not apply"
            )));
        }
        let options = named.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
        let expr = tensor_call_with(name, args, options).map_err(|err| to_py(&err))?;
        return if distinct {
            expr.distinct()
                .build()
                .map(Into::into)
                .map_err(|err| to_py(&err))
        } else {
            Ok(expr.into())
        };
    }
    let Some(state) = FUNCTIONS.as_ref() else {
        return Err(PyValueError::new_err(
            "the function registry could not be built",
        ));
    };
    if !named.is_empty() {
        return Err(PyValueError::new_err(format!(
            "{name} takes positional arguments only"
        )));
    }
    if let Ok(udaf) = state.udaf(name) {
        return Ok(Expr::AggregateFunction(AggregateFunction::new_udf(
            udaf,
            args,
            distinct,
            None,
            vec![],
            None,
        ))
        .into());
    }
    if let Ok(udf) = state.udf(name) {
        if distinct {
            return Err(PyValueError::new_err(format!(
                "{name} is not an aggregate function: distinct does not apply"
            )));
        }
        return Ok(udf.call(args).into());
    }
    Err(PyValueError::new_err(format!(
        "there is no function named {name}"
    )))
}

/// Every function the `functions` module offers a builder for: (name, kind, parameter names,
/// required count, description), kind `"fixed"`, `"positional"`, `"variadic"` (data
/// arguments, then the named options) or `"aggregate"`.
#[pyfunction]
pub(crate) fn function_signatures() -> Vec<(String, String, Vec<String>, usize, String)> {
    registry()
        .user_functions()
        .map(|declared| {
            let (kind, names, required) = match declared.parameters {
                Parameters::Fixed { names, required } => ("fixed", names, required),
                Parameters::Positional => ("positional", &[][..], 0),
                Parameters::Variadic { options } => ("variadic", options, 0),
                Parameters::Internal => ("internal", &[][..], 0),
            };
            let documentation = declared.function.documentation();
            let kind = match &declared.function {
                Registered::Scalar(_) | Registered::HigherOrder(_) => kind,
                Registered::Aggregate(_) => "aggregate",
            };
            let description = documentation
                .map(|doc| doc.description.clone())
                .unwrap_or_default();
            (
                declared.function.name().to_string(),
                kind.to_string(),
                names.iter().map(|n| (*n).to_string()).collect(),
                required,
                description,
            )
        })
        .collect()
}

/// `exprs` as expressions (each an `Expr` or a value [`to_expr`] takes).
pub(crate) fn exprs(values: &Bound<'_, PyTuple>) -> PyResult<Vec<Expr>> {
    values.iter().map(|v| to_expr(&v)).collect()
}

/// `values` as sort keys: a `SortExpr` as it is, anything else ascending, NULLs first.
pub(crate) fn sort_exprs(values: &Bound<'_, PyTuple>) -> PyResult<Vec<Sort>> {
    values
        .iter()
        .map(|v| match v.extract::<PyRef<'_, PySortExpr>>() {
            Ok(sort) => Ok(sort.sort.clone()),
            Err(_) => to_expr(&v).map(|e| e.sort(true, true)),
        })
        .collect()
}

/// For the module's registration: the classes and functions of this file.
pub(crate) fn add_to_module(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<PyExpr>()?;
    module.add_class::<PySortExpr>()?;
    module.add_function(wrap_pyfunction!(col, module)?)?;
    module.add_function(wrap_pyfunction!(lit, module)?)?;
    module.add_function(wrap_pyfunction!(call, module)?)?;
    module.add_function(wrap_pyfunction!(function_signatures, module)?)?;
    Ok(())
}
