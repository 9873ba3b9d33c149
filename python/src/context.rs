//! `SessionContext`: the crate's ready-made tensor session with datafusion-python's names.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use datafusion::datasource::MemTable;
use datafusion::datasource::file_format::FileFormatFactory;
use datafusion::datasource::listing::ListingOptions;
use datafusion::prelude::SessionContext;
use datafusion_tensor::{
    TensorOptions, TensorParquetFormatFactory, TensorSql, session_config,
    tensor_session_context_with_config,
};
use pyo3::prelude::*;

use crate::arrow_io::read_stream;
use crate::dataframe::PyDataFrame;
use crate::errors::to_py;
use crate::runtime::wait_for;

/// The session: every tensor function, keyword arguments in any order, lambdas, the planner
/// rules and the tensor Parquet format, exactly as the CLI has them.
#[pyclass(
    name = "SessionContext",
    module = "datafusion_tensor._internal",
    frozen
)]
pub(crate) struct PySessionContext {
    ctx: SessionContext,
    /// Numbers the tables `from_arrow` registers without a name.
    unnamed_tables: AtomicUsize,
}

/// A Parquet table (one file or a directory) read by the tensor Parquet format with the
/// session's options (tensor metadata kept, files checked against each other).
pub(crate) async fn register_tensor_parquet(
    ctx: &SessionContext,
    name: &str,
    path: &str,
    file_extension: &str,
) -> datafusion::error::Result<()> {
    let state = ctx.state();
    let format = TensorParquetFormatFactory::new().create(&state, &HashMap::new())?;
    let options = ListingOptions::new(format).with_file_extension(file_extension);
    ctx.register_listing_table(name, path, options, None, None)
        .await
}

#[pymethods]
impl PySessionContext {
    /// The session, with the settings of `config` (keys as `SET` takes them:
    /// `tensor.fast_parquet`, `datafusion.execution.batch_size`, ...) over the defaults.
    #[new]
    #[pyo3(signature = (config = None))]
    fn new(config: Option<HashMap<String, String>>) -> PyResult<Self> {
        let mut session = session_config();
        for (key, value) in config.into_iter().flatten() {
            TensorOptions::set_in(session.options_mut(), &key, &value)
                .map_err(|err| to_py(&err))?;
        }
        // `FROM 'file.parquet'` as in the CLI (with the tensor Parquet format registered).
        let ctx = tensor_session_context_with_config(session)
            .map_err(|err| to_py(&err))?
            .enable_url_table();
        Ok(Self {
            ctx,
            unnamed_tables: AtomicUsize::new(0),
        })
    }

    /// Plans `query` as the CLI does (keyword arguments in any order, tensor types through
    /// CASE, SHOW FUNCTIONS); DDL and SET statements take effect at once.
    fn sql(&self, py: Python<'_>, query: &str) -> PyResult<PyDataFrame> {
        let df = wait_for(py, self.ctx.tensor_sql(query))?;
        Ok(PyDataFrame::new(df))
    }

    /// Registers the Parquet file or directory at `path` as table `name`.
    #[pyo3(signature = (name, path, file_extension = ".parquet"))]
    fn register_parquet(
        &self,
        py: Python<'_>,
        name: &str,
        path: &str,
        file_extension: &str,
    ) -> PyResult<()> {
        wait_for(
            py,
            register_tensor_parquet(&self.ctx, name, path, file_extension),
        )
    }

    /// Registers the batches of `data` (anything with `__arrow_c_stream__`) as table `name`.
    fn register_arrow(&self, name: &str, data: &Bound<'_, PyAny>) -> PyResult<()> {
        let (schema, batches) = read_stream(data)?;
        self.register_batches(name, schema, vec![batches])
    }

    /// Registers `partitions` (lists of objects with `__arrow_c_stream__`, one list per
    /// partition) as table `name`.
    fn register_record_batches(
        &self,
        name: &str,
        partitions: Vec<Vec<Bound<'_, PyAny>>>,
    ) -> PyResult<()> {
        let mut schema = None;
        let mut tables = Vec::with_capacity(partitions.len());
        for partition in partitions {
            let mut batches = Vec::new();
            for data in partition {
                let (batch_schema, read) = read_stream(&data)?;
                schema.get_or_insert(batch_schema);
                batches.extend(read);
            }
            tables.push(batches);
        }
        let Some(schema) = schema else {
            return Err(pyo3::exceptions::PyValueError::new_err(
                "register_record_batches needs at least one batch (its schema names the columns)",
            ));
        };
        self.register_batches(name, schema, tables)
    }

    /// A DataFrame over `data` (anything with `__arrow_c_stream__`), registered as table
    /// `name` (a generated name when none is given).
    #[pyo3(name = "from_arrow", signature = (data, name = None))]
    fn dataframe_from_arrow(
        &self,
        py: Python<'_>,
        data: &Bound<'_, PyAny>,
        name: Option<&str>,
    ) -> PyResult<PyDataFrame> {
        let name = match name {
            Some(name) => name.to_string(),
            None => format!(
                "arrow_table_{}",
                self.unnamed_tables.fetch_add(1, Ordering::Relaxed)
            ),
        };
        self.register_arrow(&name, data)?;
        self.table(py, &name)
    }

    /// The registered table `name` as a DataFrame.
    fn table(&self, py: Python<'_>, name: &str) -> PyResult<PyDataFrame> {
        let df = wait_for(py, self.ctx.table(name))?;
        Ok(PyDataFrame::new(df))
    }

    /// Whether a table `name` is registered.
    fn table_exist(&self, name: &str) -> PyResult<bool> {
        self.ctx.table_exist(name).map_err(|err| to_py(&err))
    }

    /// Removes table `name`.
    fn deregister_table(&self, name: &str) -> PyResult<()> {
        self.ctx
            .deregister_table(name)
            .map(|_| ())
            .map_err(|err| to_py(&err))
    }
}

impl PySessionContext {
    fn register_batches(
        &self,
        name: &str,
        schema: arrow::datatypes::SchemaRef,
        partitions: Vec<Vec<arrow::array::RecordBatch>>,
    ) -> PyResult<()> {
        let table = MemTable::try_new(schema, partitions).map_err(|err| to_py(&err))?;
        self.ctx
            .register_table(name, Arc::new(table))
            .map(|_| ())
            .map_err(|err| to_py(&err))
    }
}
