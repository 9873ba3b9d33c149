//! `DataFrame`: a planned query; its results leave as an Arrow C stream.

use std::sync::Arc;

use datafusion::dataframe::DataFrame;
use datafusion_tensor::dataframe::{TensorDataFrameExt, rewrite_tensor_operators};
use datafusion_tensor::display::Summary;
use datafusion_tensor::{TensorDisplay, display_tensor_columns};
use pyo3::prelude::*;
use pyo3::types::PyCapsule;
use pyo3::types::PyTuple;

use crate::arrow_io::{schema_capsule, stream_capsule};
use crate::errors::to_py;
use crate::expr::{exprs, sort_exprs, to_expr};
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

    /// The metadata of result column `name` as DataFusion holds it (pyarrow turns extension
    /// metadata it has no Python class for, `arrow.variable_shape_tensor`'s, into a type
    /// without it); empty for no such column.
    fn field_metadata(&self, name: &str) -> std::collections::HashMap<String, String> {
        self.df
            .schema()
            .inner()
            .field_with_name(name)
            .map(|field| field.metadata().clone())
            .unwrap_or_default()
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

    /// The columns or expressions `exprs` (operators on tensors as the elementwise calls).
    #[pyo3(signature = (*columns))]
    fn select(&self, columns: &Bound<'_, PyTuple>) -> PyResult<Self> {
        let exprs = exprs(columns)?;
        self.df
            .clone()
            .tensor_select(exprs)
            .map(Self::new)
            .map_err(|err| to_py(&err))
    }

    /// The rows where `predicate` is true.
    fn filter(&self, predicate: &Bound<'_, PyAny>) -> PyResult<Self> {
        let predicate = to_expr(predicate)?;
        self.df
            .clone()
            .tensor_filter(predicate)
            .map(Self::new)
            .map_err(|err| to_py(&err))
    }

    /// This DataFrame with column `name` added (or replaced) as `expr`.
    fn with_column(&self, name: &str, expr: &Bound<'_, PyAny>) -> PyResult<Self> {
        let expr = to_expr(expr)?;
        self.df
            .clone()
            .tensor_with_column(name, expr)
            .map(Self::new)
            .map_err(|err| to_py(&err))
    }

    /// The rows sorted by `keys` (`col("x").sort(ascending=False)`, or expressions: ascending).
    #[pyo3(signature = (*keys))]
    fn sort(&self, keys: &Bound<'_, PyTuple>) -> PyResult<Self> {
        let schema = self.df.schema().clone();
        let keys = sort_exprs(keys)?
            .into_iter()
            .map(|mut key| {
                key.expr = rewrite_tensor_operators(key.expr, &schema)?;
                Ok(key)
            })
            .collect::<datafusion::error::Result<Vec<_>>>()
            .map_err(|err| to_py(&err))?;
        self.df
            .clone()
            .sort(keys)
            .map(Self::new)
            .map_err(|err| to_py(&err))
    }

    /// At most `count` rows, after skipping `offset`.
    #[pyo3(signature = (count, offset = 0))]
    fn limit(&self, count: usize, offset: usize) -> PyResult<Self> {
        self.df
            .clone()
            .limit(offset, Some(count))
            .map(Self::new)
            .map_err(|err| to_py(&err))
    }

    /// One row per group of `group_by` with the `aggregates` (aggregate calls) of its rows.
    fn aggregate(
        &self,
        group_by: &Bound<'_, PyAny>,
        aggregates: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        let schema = self.df.schema().clone();
        let rewrite = |values: &Bound<'_, PyAny>| -> PyResult<Vec<datafusion::logical_expr::Expr>> {
            let tuple = PyTuple::new(
                values.py(),
                values.try_iter()?.collect::<PyResult<Vec<_>>>()?,
            )?;
            exprs(&tuple)?
                .into_iter()
                .map(|e| rewrite_tensor_operators(e, &schema).map_err(|err| to_py(&err)))
                .collect()
        };
        let group_by = rewrite(group_by)?;
        let aggregates = rewrite(aggregates)?;
        self.df
            .clone()
            .aggregate(group_by, aggregates)
            .map(Self::new)
            .map_err(|err| to_py(&err))
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
