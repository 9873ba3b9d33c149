//! # datafusion-tensor
//!
//! numpy- and JAX-grade tensor functions for [Apache DataFusion] over Arrow
//! `arrow.fixed_shape_tensor` and `arrow.variable_shape_tensor` columns: constructors and
//! introspection, `choose`, numpy indexing and JAX-style indexed updates, and tensor math
//! (elementwise functions and SQL operators with numpy broadcasting, reductions along axes),
//! as vectorised scalar UDFs.
//!
//! The behaviour promised is the repository's specification, `docs/src/spec.md`; comments cite
//! its sections as `spec.md §n`. The user documentation is the book in `docs/`, its function
//! reference generated from this crate's registry ([`mod@reference`]).
//!
//! The layout follows the architecture:
//! - [`tensor_type`]: the extension metadata, logical shapes and strides (one source of truth);
//! - [`shape`]: shape arithmetic and numpy broadcasting;
//! - [`index`]: numpy index expressions: parse, normalise against a shape (the bounds rule),
//!   compile a gather (`x[idx]`) or a scatter (`x.at[idx]`);
//! - [`kernels`]: the element loops, pure functions over Arrow arrays and compiled plans;
//! - [`udf`]: thin DataFusion functions, planned once per query;
//! - [`error`]: the one error type, turned into DataFusion's at the UDF boundary;
//! - [`rules`]: the planner rules the functions need (list literals, literal arguments, filter
//!   order);
//! - [`nearest`]: the k-nearest-neighbour join (a physical rule and its operator);
//! - [`parquet`]: Parquet tables of tensors: format, scan, and the fast tensor-column reader;
//! - [`config`]: the session settings (`tensor.*`, a DataFusion configuration extension);
//! - [`context`]: registration and the ready-made session;
//! - [`dataframe`]: the functions and operators in DataFusion's DataFrame API;
//! - [`rewrite`]: SQL as numpy/JAX users write it (keyword arguments in any order, tensor types
//!   through CASE and COALESCE), for [`TensorSql::tensor_sql`] and the CLI;
//! - the crate `datafusion-tensor-ballista`: the same SQL on an Apache Ballista cluster.
//!
//! Module docs describe how each part works for those who change it, and link the private
//! items they describe: `cargo doc --document-private-items` resolves those links.
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> datafusion::error::Result<()> {
//! let ctx = datafusion_tensor::tensor_session_context()?;
//! let df = ctx.sql("SELECT tensor([1, 2, 3, 4, 5, 6], [2, 3]) AS t").await?;
//! assert!(df.to_string().await?.contains("[[1, 2, 3], [4, 5, 6]]"));
//! # Ok(())
//! # }
//! ```
//!
//! [Apache DataFusion]: https://datafusion.apache.org
// Module docs link the private items they describe (see above).
#![allow(rustdoc::private_intra_doc_links)]
#![warn(missing_docs)]

pub mod config;
pub mod context;
pub mod dataframe;
pub mod display;
pub mod dtype;
pub mod error;
pub mod expr_fn;
pub mod files;
/// Declares the crate's internal modules: public only with the `internals` feature (its
/// benches, fuzz targets and the CLI's tests; hidden from the docs, no semver promise), else
/// crate-private.
macro_rules! internal_modules {
    ($($name:ident),*) => {$(
        #[cfg(feature = "internals")]
        #[doc(hidden)]
        pub mod $name;
        #[cfg(not(feature = "internals"))]
        #[allow(
            dead_code,
            unused_imports,
            reason = "what only the `internals` feature's users (benches, fuzz targets) call"
        )]
        pub(crate) mod $name;
    )*};
}
// The index machinery and the element kernels.
internal_modules!(index, kernels);
// The function reference's pages and examples (the CLI's `datafusion-tensor-docs` and tests).
pub mod limits;
pub mod nearest;
pub mod parquet;
mod quiet;
pub mod reference;
pub mod rewrite;
pub mod rules;
pub mod shape;
#[cfg(feature = "sqllogictest")]
pub mod sqllogictest;
pub mod tensor_type;
pub mod udf;
pub mod variable_shape;

pub use config::TensorOptions;
pub use context::{
    TensorDisplay, display_tensor_columns, register_all, register_functions, session_config,
    tensor_session_context, tensor_session_context_with_config,
};
pub use error::TensorError;
pub use parquet::{TensorParquetFormat, TensorParquetFormatFactory};
pub use rewrite::TensorSql;
pub use tensor_type::TensorType;
pub use variable_shape::{AnyTensorType, VariableShapeType};
