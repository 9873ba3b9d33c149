//! `DataFrame`: a planned query; its results leave as an Arrow C stream.

use std::sync::Arc;

use datafusion::dataframe::DataFrame;
use datafusion_tensor::display::Summary;
use datafusion_tensor::{TensorDisplay, display_tensor_columns};
use pyo3::prelude::*;
use pyo3::types::PyCapsule;

use crate::arrow_io::{schema_capsule, stream_capsule};
use crate::errors::to_py;
use crate::runtime::wait_for;

/// A query planned by [`crate::context::PySessionContext::sql`]; it runs when its results are
/// asked for, each time they are.
#[pyclass(name = "DataFrame", module = "datafusion_tensor._internal", frozen)]
pub(crate) struct PyDataFrame {
    df: DataFrame,
}

impl PyDataFrame {
    pub(crate) fn new(df: DataFrame) -> Self {
        Self { df }
    }
}

#[pymethods]
impl PyDataFrame {
    /// Runs the query and returns all its batches as an `arrow_array_stream` capsule (the
    /// Arrow `PyCapsule` interface; `requested_schema` is not applied, as the interface allows).
    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        let _ = requested_schema;
        let schema = Arc::clone(self.df.schema().inner());
        let batches = wait_for(py, self.df.clone().collect())?;
        stream_capsule(py, schema, batches)
    }

    /// The result's Arrow schema as an `arrow_schema` capsule.
    fn __arrow_c_schema__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyCapsule>> {
        schema_capsule(py, self.df.schema().inner())
    }

    /// The number of rows the query returns.
    fn count(&self, py: Python<'_>) -> PyResult<usize> {
        wait_for(py, self.df.clone().count())
    }

    /// The first `num` rows (all when `None`) as the CLI prints them: a table, tensors nested,
    /// those of more than 1000 elements summarised as numpy prints them.
    #[pyo3(signature = (num = None))]
    fn to_string(&self, py: Python<'_>, num: Option<usize>) -> PyResult<String> {
        let df = match num {
            Some(num) => self.df.clone().limit(0, Some(num)),
            None => Ok(self.df.clone()),
        }
        .and_then(|df| display_tensor_columns(df, TensorDisplay::Summarized(Summary::NUMPY)))
        .map_err(|err| to_py(&err))?;
        wait_for(py, df.to_string())
    }

    /// The plan, as `EXPLAIN` shows it (`analyze`: run it and show the metrics).
    #[pyo3(signature = (verbose = false, analyze = false))]
    fn explain(&self, py: Python<'_>, verbose: bool, analyze: bool) -> PyResult<String> {
        let df = self
            .df
            .clone()
            .explain(verbose, analyze)
            .map_err(|err| to_py(&err))?;
        wait_for(py, df.to_string())
    }
}
