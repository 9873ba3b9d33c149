//! `CREATE EXTERNAL TABLE t STORED AS NPY | NPZ | SAFETENSORS | ZARR LOCATION '...'` (for
//! Zarr, the array's directory: a store's root, or a group's array, `'store.zarr/group/array'`).

use std::sync::Arc;

use async_trait::async_trait;
use datafusion::catalog::{Session, TableProvider, TableProviderFactory};
use datafusion::error::{DataFusionError, Result};
use datafusion::logical_expr::CreateExternalTable;

use super::TensorFileFormat;

/// Makes the table of a [`TensorFileFormat`] at a `CREATE EXTERNAL TABLE`'s location (a
/// file, a glob, or a directory's files with the format's extension; a Zarr array's directory).
#[derive(Debug, Clone, Copy)]
pub struct TensorFileTableFactory(pub TensorFileFormat);

#[async_trait]
impl TableProviderFactory for TensorFileTableFactory {
    async fn create(
        &self,
        _state: &dyn Session,
        cmd: &CreateExternalTable,
    ) -> Result<Arc<dyn TableProvider>> {
        let format = self.0.extension().to_uppercase();
        if !cmd.table_partition_cols.is_empty() {
            return Err(DataFusionError::Plan(format!(
                "CREATE EXTERNAL TABLE ... STORED AS {format}: PARTITIONED BY is not supported"
            )));
        }
        let locations: Vec<&str> = cmd.locations.iter().map(String::as_str).collect();
        let table = self.0.table_of(&locations)?;
        if !cmd.schema.fields().is_empty() {
            let declared: Vec<&str> = cmd
                .schema
                .fields()
                .iter()
                .map(|f| f.name().as_str())
                .collect();
            let schema = table.schema();
            let found: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
            if declared != found {
                return Err(DataFusionError::Plan(format!(
                    "CREATE EXTERNAL TABLE ... STORED AS {format}: the files' columns are {found:?}, \
                     not the declared {declared:?}: leave the column list out"
                )));
            }
        }
        Ok(table)
    }
}
