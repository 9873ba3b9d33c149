//! Tensors where they live: numpy's `.npy`/`.npz` files, safetensors files and Zarr arrays as
//! tables.
//!
//! - `read_npy('path or glob')`: each file's rows along axis 0: `row_index` (the row's index
//!   in its file), `x` (`arrow.fixed_shape_tensor` of the remaining shape; plain numbers for a
//!   1-d file), and `filename` when the location names several files ([`npy`]);
//! - `read_npz('file.npz')` and `read_safetensors('path or glob')`: one row per named array
//!   (`name`, `dtype`, `shape`, `tensor` as `arrow.variable_shape_tensor`);
//! - `read_zarr('store'[, 'array'])`: a Zarr v2 or v3 array's rows along axis 0, as
//!   `read_npy`'s ([`zarr`]);
//! - `CREATE EXTERNAL TABLE t STORED AS NPY | NPZ | SAFETENSORS | ZARR LOCATION '...'`: the same
//!   tables ([`factory`]);
//! - `COPY (...) TO 'out.npy'` and `TO 'out.safetensors'` ([`write`]).
//!
//! Files are local and memory-mapped: values that are little-endian and aligned are the
//! mapped bytes themselves, and a scan reads only the rows a query asks for ([`table`]); a Zarr
//! scan decodes only the chunks that hold them.

mod factory;
mod named;
mod npy;
mod npz;
mod paths;
mod safetensors_file;
mod source;
mod table;
mod values;
mod write;
mod zarr;

use std::sync::Arc;

use datafusion::catalog::{TableFunctionArgs, TableFunctionImpl, TableProvider};
use datafusion::common::ScalarValue;
use datafusion::error::{DataFusionError, Result};
use datafusion::logical_expr::Expr;
use datafusion::prelude::SessionContext;

pub use factory::TensorFileTableFactory;
pub use write::{NpyFormatFactory, SafetensorsFormatFactory};

/// The tensor file formats a table can be read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TensorFileFormat {
    /// numpy's `.npy`: rows along axis 0.
    Npy,
    /// numpy's `.npz`: one row per array.
    Npz,
    /// Hugging Face's safetensors: one row per named tensor.
    Safetensors,
    /// A Zarr v2 or v3 array (a store directory): rows along axis 0.
    Zarr,
}

impl TensorFileFormat {
    /// Every format.
    pub const ALL: [Self; 4] = [Self::Npy, Self::Npz, Self::Safetensors, Self::Zarr];

    /// The table function's name.
    pub fn function(self) -> &'static str {
        match self {
            Self::Npy => "read_npy",
            Self::Npz => "read_npz",
            Self::Safetensors => "read_safetensors",
            Self::Zarr => "read_zarr",
        }
    }

    /// The files' extension.
    pub fn extension(self) -> &'static str {
        match self {
            Self::Npy => "npy",
            Self::Npz => "npz",
            Self::Safetensors => "safetensors",
            Self::Zarr => "zarr",
        }
    }

    /// The table over the files `location` names (a path, a glob, or a directory; for Zarr,
    /// a store whose root is an array).
    ///
    /// # Errors
    /// When no file matches, or a file cannot be read as the format.
    pub fn table(self, location: &str) -> Result<Arc<dyn TableProvider>> {
        self.table_of(&[location])
    }

    /// The table of the Zarr array at `array` (`None`: the root) of the store at `store`.
    ///
    /// # Errors
    /// When the store or array cannot be opened, or its elements are not a tensor's.
    pub fn zarr_table(store: &str, array: Option<&str>) -> Result<Arc<dyn TableProvider>> {
        let (schema, files) = zarr::table(store, array)?;
        Ok(Arc::new(
            table::TensorFileTable::new(zarr::FUNCTION, schema, files, &[]).with_row_index(),
        ))
    }

    /// The table over the files every location of `locations` names (for Zarr, one store).
    ///
    /// # Errors
    /// When a location matches no file, or a file cannot be read as the format.
    pub fn table_of(self, locations: &[&str]) -> Result<Arc<dyn TableProvider>> {
        let function = self.function();
        Ok(match self {
            Self::Npy => {
                let (schema, files) = npy::table(function, &self.paths(locations)?)?;
                Arc::new(table::TensorFileTable::new(function, schema, files, &[]).with_row_index())
            }
            Self::Npz => {
                let (schema, files) = npz::table(function, &self.paths(locations)?)?;
                Arc::new(table::TensorFileTable::new(
                    function,
                    schema,
                    files,
                    named::HEADER,
                ))
            }
            Self::Safetensors => {
                let (schema, files) = safetensors_file::table(function, &self.paths(locations)?)?;
                Arc::new(table::TensorFileTable::new(
                    function,
                    schema,
                    files,
                    named::HEADER,
                ))
            }
            Self::Zarr => match locations {
                [store] => Self::zarr_table(store, None)?,
                _ => {
                    return Err(DataFusionError::Plan(format!(
                        "{function}: one store at a time, not {}",
                        locations.len()
                    )));
                }
            },
        })
    }

    /// The files every location of `locations` names, sorted, each once.
    fn paths(self, locations: &[&str]) -> Result<Vec<std::path::PathBuf>> {
        let function = self.function();
        let mut paths = Vec::new();
        for location in locations {
            paths.extend(paths::resolve(function, location, self.extension())?);
        }
        paths.sort();
        paths.dedup();
        if paths.is_empty() {
            return Err(DataFusionError::Plan(format!(
                "{function}: no location given"
            )));
        }
        Ok(paths)
    }
}

/// A table function reading one [`TensorFileFormat`].
#[derive(Debug, Clone, Copy)]
struct ReadTensorFile(TensorFileFormat);

impl TableFunctionImpl for ReadTensorFile {
    fn call_with_args(&self, args: TableFunctionArgs) -> Result<Arc<dyn TableProvider>> {
        let function = self.0.function();
        if self.0 == TensorFileFormat::Zarr {
            let strings: Option<Vec<&str>> = args.exprs().iter().map(string_literal).collect();
            return match strings.as_deref() {
                Some([store]) => TensorFileFormat::zarr_table(store, None),
                Some([store, array]) => TensorFileFormat::zarr_table(store, Some(array)),
                _ => Err(DataFusionError::Plan(format!(
                    "{function} takes a store's path and, for a store that is a group, an \
                     array's path in it, as string literals: {function}('data.zarr') or \
                     {function}('data.zarr', 'group/array')"
                ))),
            };
        }
        let location = location_argument(function, self.0.extension(), args.exprs())?;
        self.0.table(&location)
    }
}

/// A string literal's value.
fn string_literal(expr: &Expr) -> Option<&str> {
    match expr {
        Expr::Literal(
            ScalarValue::Utf8(Some(s))
            | ScalarValue::LargeUtf8(Some(s))
            | ScalarValue::Utf8View(Some(s)),
            _,
        ) => Some(s),
        _ => None,
    }
}

/// A table function's one argument, a path or glob as a string literal.
fn location_argument(function: &str, extension: &str, args: &[Expr]) -> Result<String> {
    match args {
        [arg] if let Some(s) = string_literal(arg) => Ok(s.to_string()),
        _ => Err(DataFusionError::Plan(format!(
            "{function} takes one argument, a path or glob as a string literal: \
             {function}('data/*.{extension}')"
        ))),
    }
}

/// Registers `read_npy`, `read_npz`, `read_safetensors` and `read_zarr`, the `STORED AS` formats of
/// `CREATE EXTERNAL TABLE`, and the `COPY TO` writers of `.npy` and `.safetensors` files.
///
/// # Errors
/// When a registration fails.
pub fn register_tensor_files(ctx: &SessionContext) -> Result<()> {
    for format in TensorFileFormat::ALL {
        ctx.register_udtf(format.function(), Arc::new(ReadTensorFile(format)));
    }
    ctx.register_udtf(
        "read_safetensors_metadata",
        Arc::new(safetensors_file::ReadSafetensorsMetadata),
    );
    let state = ctx.state_ref();
    let mut state = state.write();
    for format in TensorFileFormat::ALL {
        state.table_factories_mut().insert(
            format.extension().to_uppercase(),
            Arc::new(TensorFileTableFactory(format)),
        );
    }
    state.register_file_format(Arc::new(NpyFormatFactory), true)?;
    state.register_file_format(Arc::new(SafetensorsFormatFactory), true)?;
    Ok(())
}
