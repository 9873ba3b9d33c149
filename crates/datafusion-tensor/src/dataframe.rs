//! The tensor functions and operators in DataFusion's DataFrame API.
//!
//! Calls by name, with options by name as numpy and JAX users write them:
//!
//! ```
//! # use datafusion::prelude::*;
//! # use datafusion_tensor::dataframe::{TensorDataFrameExt, tensor_call, tensor_call_with};
//! # async fn demo() -> datafusion::error::Result<()> {
//! let ctx = datafusion_tensor::tensor_session_context()?;
//! let df = ctx.sql("SELECT tensor([1.0, 2.0, 3.0, 4.0], [2, 2]) AS x").await?;
//! let df = df.tensor_select(vec![
//!     (col("x") * lit(2.0)).alias("scaled"),                         // an operator on a tensor
//!     tensor_call("tensor_get", vec![col("x"), lit("1, ::-1")])?.alias("row"),
//!     tensor_call_with("tensor_sum", vec![col("x")], vec![("axis", lit(0))])?.alias("sums"),
//! ])?;
//! # df.collect().await?;
//! # Ok(())
//! # }
//! ```
//!
//! Why [`TensorDataFrameExt`]: DataFusion computes a projection's schema as the expression
//! is added (`DataFrame::select` builds the plan node there and then), and its type rules
//! refuse `FixedSizeList * Float64` before any analyzer rule runs. `tensor_select` and its
//! siblings rewrite the operators on tensor operands into the elementwise calls first
//! ([`rewrite_tensor_operators`], the same rewrite the SQL planner and the analyzer rule do), then
//! call the DataFrame method. A plan built by other means (a codec, `LogicalPlanBuilder` with
//! a given schema) is rewritten by the analyzer rule as before.

use std::sync::{Arc, LazyLock};

use datafusion::common::{DFSchema, ScalarValue, plan_err};
use datafusion::dataframe::DataFrame;
use datafusion::error::Result;
use datafusion::logical_expr::Expr;
use datafusion::logical_expr::expr::HigherOrderFunction;

use crate::rules::operators::TensorOperators;
use crate::rules::planner::fold_literal_lists;
use crate::udf::Parameters;
use crate::udf::registry::{Declared, Registered, registry};

static OPERATORS: LazyLock<TensorOperators> = LazyLock::new(TensorOperators::default);

/// A call of the tensor function `name` with positional arguments:
/// `tensor_call("tensor_add", vec![col("x"), lit(1.0)])`.
///
/// # Errors
/// When `name` is not one of this crate's functions, or the argument count does not fit it.
pub fn tensor_call(name: &str, args: Vec<Expr>) -> Result<Expr> {
    tensor_call_with(name, args, Vec::new())
}

/// A call of the tensor function `name` with positional arguments, then options by name in any
/// order (`vec![("axis", lit(1)), ("keepdims", lit(true))]`): each at its parameter's place,
/// `NULL` (the option's default) in the places of options skipped before the last one given;
/// a variadic function's options after its arguments (`tensor_choose`'s `mode`).
///
/// # Errors
/// When `name` is not one of this crate's functions, an option name is not one of its
/// parameters or repeats one given, or the argument count does not fit the function, in the
/// words Python uses for a call `f(**kwargs)`.
pub fn tensor_call_with(name: &str, args: Vec<Expr>, options: Vec<(&str, Expr)>) -> Result<Expr> {
    let Some(declared) = registry().get(name) else {
        return plan_err!(
            "{name} is not a tensor function (SHOW FUNCTIONS lists them, each named tensor_*)"
        );
    };
    let parameters = declared.parameters;
    let args = place_options(name, parameters, args, options)?;
    parameters.check_count(name, args.len())?;
    Ok(declared_call(declared, args))
}

/// The call of `declared` with `args` in place. A list argument built with `make_array` of
/// literals is folded into its `List` literal, as SQL's `[2, 3]` is ([`fold_literal_lists`]):
/// functions read shapes and axes from literals.
pub(crate) fn declared_call(declared: &Declared, args: Vec<Expr>) -> Expr {
    let args = args.into_iter().map(fold_literal_lists).collect();
    match &declared.function {
        Registered::Scalar(udf) => udf.call(args),
        Registered::Aggregate(udaf) => udaf.call(args),
        Registered::HigherOrder(udf) => {
            Expr::HigherOrderFunction(HigherOrderFunction::new(Arc::new(udf.clone()), args))
        }
    }
}

/// The positional arguments of a call (see [`tensor_call_with`]): the options checked against
/// the parameters in Python's words, then placed by [`placed`].
fn place_options(
    name: &str,
    parameters: Parameters,
    args: Vec<Expr>,
    options: Vec<(&str, Expr)>,
) -> Result<Vec<Expr>> {
    let names = parameters.names();
    let unexpected = |key: &str| {
        let valid = names
            .iter()
            .map(|n| format!("'{n}'"))
            .collect::<Vec<_>>()
            .join(", ");
        plan_err!("{name}() got an unexpected keyword argument '{key}' (its keywords: {valid})")
    };
    let mut positions: Vec<(usize, Expr)> = Vec::with_capacity(options.len());
    for (key, value) in options {
        let Some(at) = names.iter().position(|n| *n == key) else {
            return unexpected(key);
        };
        let repeated = positions.iter().any(|(other, _)| *other == at);
        match parameters {
            Parameters::Fixed { .. } if repeated || at < args.len() => {
                return plan_err!("{name}() got multiple values for argument '{key}'");
            }
            // A variadic function's option given twice: the second has no place.
            _ if repeated => return unexpected(key),
            _ => positions.push((at, value)),
        }
    }
    Ok(placed(parameters, args, positions))
}

/// `args` with the options in place; `options` are positions in `parameters.names()`, each
/// once, none where an argument stands. A function of fixed parameters takes each option at
/// its parameter's place, `NULL` (the option's default) in the places of options skipped
/// before the last one given; a variadic function takes the options given after its
/// arguments, in its options' order (`tensor_choose`'s `mode`). Functions without keyword
/// parameters have no positions to be given.
pub(crate) fn placed(
    parameters: Parameters,
    args: Vec<Expr>,
    mut options: Vec<(usize, Expr)>,
) -> Vec<Expr> {
    if options.is_empty() {
        return args;
    }
    options.sort_by_key(|(at, _)| *at);
    let mut args = args;
    if let Parameters::Fixed { .. } = parameters {
        for (at, value) in options {
            args.resize(at, Expr::Literal(ScalarValue::Null, None));
            args.push(value);
        }
    } else {
        args.extend(options.into_iter().map(|(_, value)| value));
    }
    args
}

/// `expr` with each operator on a tensor operand (`col("x") * lit(2.0)`, `col("x").gt(lit(0.5))`)
/// rewritten as its elementwise call, over `schema` (the DataFrame's the expression is for).
///
/// # Errors
/// When a tree walk fails.
pub fn rewrite_tensor_operators(expr: Expr, schema: &DFSchema) -> Result<Expr> {
    OPERATORS.rewrite_expr(expr, schema).map(|t| t.data)
}

/// DataFrame methods that take expressions with operators on tensors (module docs).
pub trait TensorDataFrameExt: Sized {
    /// `DataFrame::select` with the tensor operators rewritten.
    ///
    /// # Errors
    /// As `DataFrame::select`.
    fn tensor_select(self, exprs: Vec<Expr>) -> Result<DataFrame>;
    /// `DataFrame::with_column` with the tensor operators rewritten.
    ///
    /// # Errors
    /// As `DataFrame::with_column`.
    fn tensor_with_column(self, name: &str, expr: Expr) -> Result<DataFrame>;
    /// `DataFrame::filter` with the tensor operators rewritten (a predicate's tensor
    /// comparison is a Boolean tensor: reduce it, e.g. with `tensor_all`).
    ///
    /// # Errors
    /// As `DataFrame::filter`.
    fn tensor_filter(self, predicate: Expr) -> Result<DataFrame>;
}

impl TensorDataFrameExt for DataFrame {
    fn tensor_select(self, exprs: Vec<Expr>) -> Result<DataFrame> {
        let exprs = exprs
            .into_iter()
            .map(|expr| rewrite_tensor_operators(expr, self.schema()))
            .collect::<Result<Vec<_>>>()?;
        self.select(exprs)
    }

    fn tensor_with_column(self, name: &str, expr: Expr) -> Result<DataFrame> {
        let expr = rewrite_tensor_operators(expr, self.schema())?;
        self.with_column(name, expr)
    }

    fn tensor_filter(self, predicate: Expr) -> Result<DataFrame> {
        let predicate = rewrite_tensor_operators(predicate, self.schema())?;
        self.filter(predicate)
    }
}
