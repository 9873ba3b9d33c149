//! Typed expression builders: one Rust function per SQL function, as DataFusion's own
//! `expr_fn` modules give (`datafusion::functions_nested::expr_fn::array_distance`).
//!
//! ```
//! # use datafusion::prelude::*;
//! # use datafusion_tensor::dataframe::TensorDataFrameExt;
//! use datafusion_tensor::expr_fn::{tensor_get, tensor_sum};
//! # async fn demo() -> datafusion::error::Result<()> {
//! let ctx = datafusion_tensor::tensor_session_context()?;
//! let df = ctx.sql("SELECT tensor([1.0, 2.0, 3.0, 4.0], [2, 2]) AS x").await?;
//! let df = df.tensor_select(vec![
//!     tensor_get(vec![col("x"), lit("1, ::-1")]).alias("row"),
//!     tensor_sum(col("x")).axis(lit(0)).build().alias("sums"),
//! ])?;
//! # df.collect().await?;
//! # Ok(())
//! # }
//! ```
//!
//! A function's required parameters are its arguments. Its keyword options are methods of the
//! builder it returns (`tensor_sum(x).axis(lit(0)).keepdims(lit(true))`), turned into the
//! call by `build()` or `Expr::from`; an option left out takes its default, as in SQL.
//! Functions that take any number of arguments (`tensor_get`, `tensor_choose`) take them as a
//! `Vec`.
//!
//! The functions are generated from the function registry ([`mod@crate::udf::registry`]) into one
//! module per family (`tensors.rs`, `indexing.rs`, ...), and a test fails when a module is
//! not what the registry gives (run the test with `DATAFUSION_TENSOR_WRITE_EXPR_FN=1` to
//! write them again): a function added to the
//! registry is added here, with its SQL documentation, and none can drift.

use datafusion::logical_expr::Expr;

use crate::dataframe::{declared_call, placed};
use crate::udf::registry::registry;

/// The call of the registered function `name` with `args`, then `options` by name, placed as
/// [`crate::dataframe::tensor_call_with`] places them; `make_array` of literals folded into
/// list literals as there.
fn call(name: &str, args: Vec<Expr>, options: Vec<(&str, Expr)>) -> Expr {
    // Every name and option key here is the generator's, from the registry (the test
    // `generated_functions_are_the_registry_s` keeps the two alike), so each is found.
    let Some(declared) = registry().get(name) else {
        unreachable!("{name}: a generated expression builder without a registered function");
    };
    let names = declared.parameters.names();
    let options = options
        .into_iter()
        .filter_map(|(key, value)| Some((names.iter().position(|n| *n == key)?, value)))
        .collect();
    declared_call(declared, placed(declared.parameters, args, options))
}

/// A call with keyword options being given: what every generated builder holds.
#[derive(Debug, Clone)]
struct OptionCall {
    name: &'static str,
    args: Vec<Expr>,
    /// The options given, each key once.
    options: Vec<(&'static str, Expr)>,
}

impl OptionCall {
    fn new(name: &'static str, args: Vec<Expr>) -> Self {
        Self {
            name,
            args,
            options: Vec::new(),
        }
    }

    /// `key` set to `value` (a second value for one key replaces the first).
    fn set(&mut self, key: &'static str, value: Expr) {
        match self.options.iter_mut().find(|(k, _)| *k == key) {
            Some((_, old)) => *old = value,
            None => self.options.push((key, value)),
        }
    }

    fn build(self) -> Expr {
        call(self.name, self.args, self.options)
    }
}

/// A function of fixed parameters without options: `name(a, b) -> Expr`.
macro_rules! plain {
    ($(#[$doc:meta])* $name:ident($($arg:ident),*)) => {
        $(#[$doc])*
        pub fn $name($($arg: Expr),*) -> Expr {
            super::call(stringify!($name), vec![$($arg),*], Vec::new())
        }
    };
}

/// A function of any number of arguments without options: `name(args) -> Expr`.
macro_rules! list {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        pub fn $name(args: Vec<Expr>) -> Expr {
            super::call(stringify!($name), args, Vec::new())
        }
    };
}

/// A function with keyword options: `name(a, b) -> Builder`, or `name(args) -> Builder` for
/// `(..)`; the builder has a method per option.
macro_rules! with_options {
    ($(#[$doc:meta])* $name:ident($($arg:ident),*) -> $builder:ident { $($option:ident = $key:literal),+ $(,)? }) => {
        $(#[$doc])*
        pub fn $name($($arg: Expr),*) -> $builder {
            $builder(super::OptionCall::new(stringify!($name), vec![$($arg),*]))
        }
        with_options!(@builder $name $builder { $($option = $key),+ });
    };
    ($(#[$doc:meta])* $name:ident(..) -> $builder:ident { $($option:ident = $key:literal),+ $(,)? }) => {
        $(#[$doc])*
        pub fn $name(args: Vec<Expr>) -> $builder {
            $builder(super::OptionCall::new(stringify!($name), args))
        }
        with_options!(@builder $name $builder { $($option = $key),+ });
    };
    (@builder $name:ident $builder:ident { $($option:ident = $key:literal),+ }) => {
        #[doc = concat!("A call of [`", stringify!($name), "`] being given its keyword options; `build()` (or `Expr::from`) makes the expression.")]
        #[derive(Debug, Clone)]
        #[must_use]
        pub struct $builder(super::OptionCall);

        impl $builder {
            $(
                #[doc = concat!("The option `", $key, "`.")]
                pub fn $option(mut self, value: Expr) -> Self {
                    self.0.set($key, value);
                    self
                }
            )+

            /// The call.
            pub fn build(self) -> Expr {
                self.0.build()
            }
        }

        impl From<$builder> for Expr {
            fn from(call: $builder) -> Expr {
                call.build()
            }
        }
    };
}

// After the macros: the generated modules call them (`macro_rules!` scope is textual). One
// module per family (`udf::registry::Family`).
mod aggregates;
mod elementwise;
mod indexing;
mod linear_algebra;
mod reductions;
mod searching;
mod shapes;
mod tensors;

pub use aggregates::*;
pub use elementwise::*;
pub use indexing::*;
pub use linear_algebra::*;
pub use reductions::*;
pub use searching::*;
pub use shapes::*;
pub use tensors::*;

#[cfg(test)]
mod render;

#[cfg(test)]
mod tests {
    use datafusion::common::ScalarValue;
    use datafusion::prelude::{col, lit};

    use super::*;
    use crate::udf::registry::Registered;

    /// The generated modules are what the registry gives (module docs).
    #[test]
    fn generated_functions_are_the_registry_s() {
        use crate::udf::registry::Family;
        let written = [
            (Family::Tensors, include_str!("tensors.rs")),
            (Family::Indexing, include_str!("indexing.rs")),
            (Family::Elementwise, include_str!("elementwise.rs")),
            (Family::Reductions, include_str!("reductions.rs")),
            (Family::Shapes, include_str!("shapes.rs")),
            (Family::LinearAlgebra, include_str!("linear_algebra.rs")),
            (Family::Searching, include_str!("searching.rs")),
            (Family::Aggregates, include_str!("aggregates.rs")),
        ];
        assert_eq!(written.len(), Family::ALL.len());
        let mut stale = Vec::new();
        for (family, text) in written {
            let rendered = render::render(family);
            if std::env::var_os("DATAFUSION_TENSOR_WRITE_EXPR_FN").is_some() {
                let path = format!(
                    "{}/src/expr_fn/{}.rs",
                    env!("CARGO_MANIFEST_DIR"),
                    family.slug()
                );
                std::fs::write(path, &rendered).unwrap();
            }
            if rendered != text {
                stale.push(format!("src/expr_fn/{}.rs", family.slug()));
            }
        }
        assert!(
            stale.is_empty(),
            "{} not the registry's: run this test with DATAFUSION_TENSOR_WRITE_EXPR_FN=1",
            stale.join(", ")
        );
    }

    #[test]
    fn options_take_their_places() {
        let sum = tensor_sum(col("x")).keepdims(lit(true)).build();
        let expected = registry().get("tensor_sum").map(|d| match &d.function {
            Registered::Scalar(udf) => udf.call(vec![
                col("x"),
                Expr::Literal(ScalarValue::Null, None),
                lit(true),
            ]),
            _ => unreachable!(),
        });
        assert_eq!(Some(sum), expected);
        assert_eq!(
            tensor_sum(col("x")).build(),
            call("tensor_sum", vec![col("x")], Vec::new())
        );
        // A variadic function's options follow its arguments, only those given.
        assert_eq!(
            tensor_choose(vec![col("a"), col("b"), col("c")])
                .mode(lit("clip"))
                .build(),
            call(
                "tensor_choose",
                vec![col("a"), col("b"), col("c"), lit("clip")],
                Vec::new()
            )
        );
    }
}
