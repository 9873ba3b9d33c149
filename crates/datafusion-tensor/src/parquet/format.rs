//! Parquet files as tables of tensors: DataFusion's Parquet format with errors that name the file
//! and the column.
//!
//! [`TensorParquetFormat`] is DataFusion's [`ParquetFormat`] with one change, in schema
//! inference (what `FROM 'dir/'`, `CREATE EXTERNAL TABLE` and listing tables do before a query
//! is planned): every file's schema is read on its own, so that
//! - a file that is not Parquet, truncated or with a corrupt footer is named in the error;
//! - a tensor column whose `arrow.fixed_shape_tensor` metadata is invalid, or lies about the
//!   shape (`shape` [3, 3] over a `FixedSizeList` of 4), is refused naming file and column,
//!   before any function sees it;
//! - the files of one table must agree on each tensor column: the same element type, shape,
//!   `dim_names` and permutation, and all of them tensors or none (a file whose column lost its
//!   extension metadata holds a 1-d tensor, spec.md §1, which is another shape). Otherwise the
//!   error names the column and the two files. Metadata that says the same in different JSON
//!   text (key order, spacing) is one tensor type, where Arrow's schema merge would refuse it.
//!
//! Errors found while the data is read (a corrupt page) name the file too: the scan is
//! DataFusion's own, wrapped by [`super::scan`] so that each error says which file it
//! read.
//!
//! [`crate::register_all`] installs the format for the `parquet` extension (SQL paths:
//! `FROM 'file.parquet'`, `CREATE EXTERNAL TABLE ... STORED AS PARQUET`, `COPY`).
//! `SessionContext::register_parquet` and `read_parquet` build DataFusion's format directly;
//! use `ListingOptions::new(Arc::new(TensorParquetFormat::default()))` for the same checks
//! there.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::fmt;
use std::sync::Arc;

use arrow::datatypes::{DataType, Field, Schema, SchemaRef};
use async_trait::async_trait;
use datafusion::catalog::Session;
use datafusion::common::{GetExt, Statistics};
use datafusion::datasource::file_format::file_compression_type::FileCompressionType;
use datafusion::datasource::file_format::parquet::{ParquetFormat, ParquetFormatFactory};
use datafusion::datasource::file_format::{FileFormat, FileFormatFactory, FileMeta};
use datafusion::datasource::physical_plan::{FileScanConfig, FileSinkConfig, FileSource};
use datafusion::datasource::table_schema::TableSchema;
use datafusion::error::{DataFusionError, Result};
use datafusion::object_store::path::Path;
use datafusion::object_store::{ObjectMeta, ObjectStore, ObjectStoreExt};
use datafusion::physical_expr::LexOrdering;
use datafusion::physical_expr_common::sort_expr::LexRequirement;
use datafusion::physical_plan::ExecutionPlan;
use futures::{StreamExt, TryStreamExt};

use super::bounded::BoundedStore;
use crate::tensor_type::{
    EXTENSION_NAME, EXTENSION_TYPE_METADATA_KEY, TensorType, has_tensor_extension,
};
use crate::variable_shape::{VARIABLE_EXTENSION_NAME, VariableShapeType};

/// Creates [`TensorParquetFormat`]s for the `parquet` extension, with the session's and the
/// statement's Parquet options (as DataFusion's `ParquetFormatFactory`).
#[derive(Debug)]
pub struct TensorParquetFormatFactory {
    inner: ParquetFormatFactory,
}

impl Default for TensorParquetFormatFactory {
    fn default() -> Self {
        Self::new()
    }
}

impl TensorParquetFormatFactory {
    /// The factory over DataFusion's default Parquet factory.
    pub fn new() -> Self {
        Self {
            inner: ParquetFormatFactory::new(),
        }
    }
}

impl GetExt for TensorParquetFormatFactory {
    fn get_ext(&self) -> String {
        self.inner.get_ext()
    }
}

impl FileFormatFactory for TensorParquetFormatFactory {
    fn create(
        &self,
        state: &dyn Session,
        format_options: &HashMap<String, String>,
    ) -> Result<Arc<dyn FileFormat>> {
        Ok(Arc::new(TensorParquetFormat {
            inner: self.inner.create(state, format_options)?,
        }))
    }

    fn default(&self) -> Arc<dyn FileFormat> {
        Arc::new(TensorParquetFormat::default())
    }
}

/// DataFusion's Parquet format, with schema inference that names the file and column of every
/// error and checks tensor metadata across files (module docs).
#[derive(Debug)]
pub struct TensorParquetFormat {
    inner: Arc<dyn FileFormat>,
}

impl Default for TensorParquetFormat {
    fn default() -> Self {
        Self::new(ParquetFormat::default())
    }
}

impl TensorParquetFormat {
    /// The format over a configured DataFusion `ParquetFormat`.
    pub fn new(inner: ParquetFormat) -> Self {
        Self {
            inner: Arc::new(inner),
        }
    }
}

/// `'path'` as errors print a file: the absolute path of a local file, the path inside its
/// bucket for other object stores (whose root `store` prints, as `AmazonS3(bucket)`; the CLI
/// wraps every store in an instrumented one that prints the store inside).
fn quoted(store: &dyn ObjectStore, path: &Path) -> String {
    let root = store.to_string();
    if root.contains("LocalFileSystem(file:///)") {
        format!("'/{path}'")
    } else {
        format!("'{path}' of {root}")
    }
}

/// An error when the last 8 bytes of Parquet file `object` give its footer's metadata a
/// length past the file's start (0xfffffff0 in a file of 3 KB; `PAR1`, text, `PAR1`): parquet
/// 59's metadata decoder subtracts past zero on it and panics (caught, but its message
/// printed), so it is checked first. One read of 8 bytes; a file too short to have a footer,
/// or without the magic, is left to DataFusion's reader, which words it.
async fn check_footer_length(store: &dyn ObjectStore, object: &ObjectMeta) -> Result<()> {
    const FOOTER: u64 = 8;
    let size = object.size;
    if size < FOOTER + 4 {
        return Ok(());
    }
    let tail = store
        .get_range(&object.location, size - FOOTER..size)
        .await?;
    let (Some(length), Some(b"PAR1")) = (tail.get(..4), tail.get(4..8)) else {
        return Ok(());
    };
    let length = u64::from(u32::from_le_bytes(length.try_into().unwrap_or_default()));
    // The metadata, the footer and the leading magic.
    if length + FOOTER + 4 > size {
        return Err(DataFusionError::Execution(format!(
            "corrupt Parquet footer: it gives the metadata {length} bytes, more than the file's {size} bytes hold"
        )));
    }
    Ok(())
}

/// `future`'s result, with a panic inside the Parquet reader as its error: some malformed
/// footers make parquet 59 panic while decoding them (a 36-byte file of `PAR1` and text
/// subtracts past zero in its metadata decoder), and reading a footer must not take the
/// process down.
async fn unpanicked<T>(future: impl Future<Output = Result<T>>) -> Result<T> {
    crate::quiet::catch_future(future)
        .await
        .unwrap_or_else(|panic| Err(super::scan::reader_panic(panic.as_ref())))
}

#[async_trait]
impl FileFormat for TensorParquetFormat {
    fn get_ext(&self) -> String {
        self.inner.get_ext()
    }

    fn get_ext_with_compression(&self, compression: &FileCompressionType) -> Result<String> {
        self.inner.get_ext_with_compression(compression)
    }

    fn compression_type(&self) -> Option<FileCompressionType> {
        self.inner.compression_type()
    }

    async fn infer_schema(
        &self,
        state: &dyn Session,
        store: &Arc<dyn ObjectStore>,
        objects: &[ObjectMeta],
    ) -> Result<SchemaRef> {
        if objects.is_empty() {
            return self.inner.infer_schema(state, store, objects).await;
        }
        // Each file's schema on its own (DataFusion's format with one file: the same options,
        // the same metadata cache), as many at once as DataFusion fetches footers.
        let concurrency = state
            .config_options()
            .execution
            .meta_fetch_concurrency
            .get();
        let mut schemas: Vec<(Path, SchemaRef)> = futures::stream::iter(objects)
            .map(|object| async move {
                let schema = async {
                    check_footer_length(store.as_ref(), object).await?;
                    let bounded = BoundedStore::wrap(Arc::clone(store), [object]);
                    unpanicked(self.inner.infer_schema(
                        state,
                        &bounded,
                        std::slice::from_ref(object),
                    ))
                    .await
                }
                .await
                .map_err(|err| {
                    err.context(format!(
                        "cannot read the schema of Parquet file {}",
                        quoted(store.as_ref(), &object.location)
                    ))
                })?;
                Ok::<_, DataFusionError>((object.location.clone(), schema))
            })
            .boxed()
            .buffer_unordered(concurrency)
            .try_collect()
            .await?;
        // DataFusion merges in path order, for a deterministic schema.
        schemas.sort_unstable_by(|(a, _), (b, _)| a.cmp(b));
        let name = |path: &Path| quoted(store.as_ref(), path);
        let schemas = check_tensor_columns(schemas, &name)?;
        merge(&schemas, &name).map(Arc::new)
    }

    async fn infer_stats(
        &self,
        state: &dyn Session,
        store: &Arc<dyn ObjectStore>,
        table_schema: SchemaRef,
        object: &ObjectMeta,
    ) -> Result<Statistics> {
        let bounded = BoundedStore::wrap(Arc::clone(store), [object]);
        unpanicked(
            self.inner
                .infer_stats(state, &bounded, Arc::clone(&table_schema), object),
        )
        .await
        .map(|statistics| without_exact_float_bounds(statistics, &table_schema))
        .map_err(|err| in_file(err, store.as_ref(), &object.location))
    }

    async fn infer_ordering(
        &self,
        state: &dyn Session,
        store: &Arc<dyn ObjectStore>,
        table_schema: SchemaRef,
        object: &ObjectMeta,
    ) -> Result<Option<LexOrdering>> {
        let bounded = BoundedStore::wrap(Arc::clone(store), [object]);
        unpanicked(
            self.inner
                .infer_ordering(state, &bounded, table_schema, object),
        )
        .await
        .map_err(|err| in_file(err, store.as_ref(), &object.location))
    }

    async fn infer_stats_and_ordering(
        &self,
        state: &dyn Session,
        store: &Arc<dyn ObjectStore>,
        table_schema: SchemaRef,
        object: &ObjectMeta,
    ) -> Result<FileMeta> {
        let bounded = BoundedStore::wrap(Arc::clone(store), [object]);
        let mut meta = unpanicked(self.inner.infer_stats_and_ordering(
            state,
            &bounded,
            Arc::clone(&table_schema),
            object,
        ))
        .await
        .map_err(|err| in_file(err, store.as_ref(), &object.location))?;
        meta.statistics = without_exact_float_bounds(meta.statistics, &table_schema);
        Ok(meta)
    }

    async fn create_physical_plan(
        &self,
        state: &dyn Session,
        conf: FileScanConfig,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        let plan = self.inner.create_physical_plan(state, conf).await?;
        let pool = Arc::clone(&state.runtime_env().memory_pool);
        Ok(super::scan::name_files_in_errors(
            plan,
            state.config_options(),
            Some(pool),
        ))
    }

    async fn create_writer_physical_plan(
        &self,
        input: Arc<dyn ExecutionPlan>,
        state: &dyn Session,
        conf: FileSinkConfig,
        order_requirements: Option<LexRequirement>,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        self.inner
            .create_writer_physical_plan(input, state, conf, order_requirements)
            .await
    }

    fn file_source(&self, table_schema: TableSchema) -> Arc<dyn FileSource> {
        self.inner.file_source(table_schema)
    }
}

/// File statistics with the minimum and maximum of every floating-point column marked
/// inexact. Parquet writers leave NaN out of those bounds, so a float column holding NaN and
/// one other value has exact bounds `min == max` with no NULLs, and DataFusion 55 then reads it
/// as that constant (its Parquet opener replaces constant columns with literals; the aggregate
/// rule answers `min`/`max` from exact bounds): the NaN would silently become the other value.
fn without_exact_float_bounds(mut statistics: Statistics, schema: &Schema) -> Statistics {
    for (field, column) in schema
        .fields()
        .iter()
        .zip(statistics.column_statistics.iter_mut())
    {
        if field.data_type().is_floating() {
            column.min_value = column.min_value.clone().to_inexact();
            column.max_value = column.max_value.clone().to_inexact();
        }
    }
    statistics
}

fn in_file(err: DataFusionError, store: &dyn ObjectStore, path: &Path) -> DataFusionError {
    err.context(format!("in Parquet file {}", quoted(store, path)))
}

/// What one file says a column is.
#[derive(Debug, PartialEq)]
enum ColumnKind {
    /// An `arrow.fixed_shape_tensor` column of this type.
    Tensor(TensorType),
    /// A `FixedSizeList` without the extension: a 1-d tensor (spec.md §1).
    Plain(DataType),
    /// An `arrow.variable_shape_tensor` column of this type.
    Variable(VariableShapeType),
}

impl fmt::Display for ColumnKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Tensor(tensor) => write!(f, "an {EXTENSION_NAME} {tensor}"),
            Self::Plain(DataType::FixedSizeList(item, size)) => write!(
                f,
                "a plain FixedSizeList of {size} {} without {EXTENSION_NAME} metadata (a 1-d tensor)",
                item.data_type()
            ),
            Self::Plain(data_type) => write!(f, "a plain {data_type}"),
            Self::Variable(tensor) => write!(f, "an {VARIABLE_EXTENSION_NAME} {tensor}"),
        }
    }
}

/// Refuses a tensor column with invalid metadata (naming file and column) and files that
/// disagree about a tensor column; gives every file's tensor columns their metadata text as
/// this crate writes it, so that the merge (and every later comparison of field metadata)
/// compares types, not JSON spelling.
fn check_tensor_columns(
    schemas: Vec<(Path, SchemaRef)>,
    quoted: &dyn Fn(&Path) -> String,
) -> Result<Vec<(Path, SchemaRef)>> {
    // column -> (first file that has it, what that file says, its metadata text)
    let mut seen: HashMap<String, (Path, ColumnKind, Option<String>)> = HashMap::new();
    let mut out = Vec::with_capacity(schemas.len());
    for (path, schema) in schemas {
        let mut rewritten: Option<Vec<Arc<Field>>> = None;
        for (i, field) in schema.fields().iter().enumerate() {
            let claims_tensor = has_tensor_extension(field);
            let kind = match (
                TensorType::from_field(field),
                VariableShapeType::from_field(field),
            ) {
                (_, Ok(Some(tensor))) => ColumnKind::Variable(tensor),
                (Ok(None), Ok(None)) => continue,
                (Ok(Some(tensor)), _) if claims_tensor => ColumnKind::Tensor(tensor),
                (Ok(Some(_)), _) => ColumnKind::Plain(field.data_type().clone()),
                // A FixedSizeList that is no tensor (strings, nested lists) and does not
                // claim to be one: not this format's business.
                (Err(_), Ok(None)) if !claims_tensor => continue,
                (Err(err), _) | (_, Err(err)) => {
                    return Err(DataFusionError::Plan(format!(
                        "Parquet file {}, column '{}': {err}; to read the column as a plain FixedSizeList, SET datafusion.execution.parquet.skip_metadata = true",
                        quoted(&path),
                        field.name()
                    )));
                }
            };
            let text = field.metadata().get(EXTENSION_TYPE_METADATA_KEY).cloned();
            // Normalised on read: the metadata text as this crate writes it, so that one
            // tensor type is one text everywhere DataFusion compares field metadata byte for
            // byte (a UNION keeps only the metadata its branches agree on). pyarrow writes the
            // identity permutation, `{"shape":[2,3],"permutation":[0,1]}`; computed tensors
            // carry none: both read as `{"shape":[2,3]}`.
            let canonical = match &kind {
                ColumnKind::Tensor(tensor) => Some(tensor.metadata_json()),
                ColumnKind::Variable(tensor) => Some(tensor.metadata_json()),
                ColumnKind::Plain(_) => None,
            };
            match seen.entry(field.name().clone()) {
                Entry::Vacant(entry) => {
                    entry.insert((path.clone(), kind, text.clone()));
                }
                Entry::Occupied(entry) => {
                    let (first_file, first_kind, _) = entry.get();
                    if *first_kind != kind {
                        return Err(DataFusionError::Plan(format!(
                            "column '{}' is {first_kind} in Parquet file {} but {kind} in Parquet file {}: every file of a table must give a tensor column the same element type, shape, dim_names and permutation",
                            field.name(),
                            quoted(first_file),
                            quoted(&path),
                        )));
                    }
                }
            }
            if let Some(canonical) = canonical
                && text.as_ref() != Some(&canonical)
            {
                let fields =
                    rewritten.get_or_insert_with(|| schema.fields().iter().cloned().collect());
                let mut metadata = field.metadata().clone();
                metadata.insert(EXTENSION_TYPE_METADATA_KEY.to_string(), canonical);
                fields[i] = Arc::new(field.as_ref().clone().with_metadata(metadata));
            }
        }
        let schema = match rewritten {
            Some(fields) => Arc::new(Schema::new_with_metadata(fields, schema.metadata().clone())),
            None => schema,
        };
        out.push((path, schema));
    }
    Ok(out)
}

/// Arrow's merge of the files' schemas (what DataFusion's format does), file by file so that a
/// conflict names the file that brings it.
fn merge(schemas: &[(Path, SchemaRef)], quoted: &dyn Fn(&Path) -> String) -> Result<Schema> {
    let mut merged = Schema::empty();
    for (i, (path, schema)) in schemas.iter().enumerate() {
        merged = Schema::try_merge([merged, schema.as_ref().clone()]).map_err(|err| {
            DataFusionError::from(err).context(format!(
                "Parquet file {} does not fit the schema of {}",
                quoted(path),
                match i {
                    1 => format!("Parquet file {}", quoted(&schemas[0].0)),
                    _ => format!("the {i} files before it (from {})", quoted(&schemas[0].0)),
                }
            ))
        })?;
    }
    Ok(merged)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tensor_type::EXTENSION_TYPE_NAME_KEY;

    fn tensor_field(json: &str, size: i32) -> Field {
        Field::new(
            "x",
            DataType::FixedSizeList(Arc::new(Field::new("item", DataType::Float32, true)), size),
            true,
        )
        .with_metadata(HashMap::from([
            (
                EXTENSION_TYPE_NAME_KEY.to_string(),
                EXTENSION_NAME.to_string(),
            ),
            (EXTENSION_TYPE_METADATA_KEY.to_string(), json.to_string()),
        ]))
    }

    fn name(path: &Path) -> String {
        format!("'{path}'")
    }

    fn file(name: &str, fields: Vec<Field>) -> (Path, SchemaRef) {
        (Path::from(name), Arc::new(Schema::new(fields)))
    }

    #[test]
    fn same_tensor_type_in_other_json_text_merges() {
        let schemas = check_tensor_columns(
            vec![
                file("a", vec![tensor_field(r#"{"shape":[2,2]}"#, 4)]),
                file("b", vec![tensor_field(r#"{ "shape" : [2, 2] }"#, 4)]),
            ],
            &name,
        )
        .unwrap();
        let merged = merge(&schemas, &name).unwrap();
        assert_eq!(
            merged.field(0).metadata()[EXTENSION_TYPE_METADATA_KEY],
            r#"{"shape":[2,2]}"#
        );
    }

    #[test]
    fn pyarrow_identity_permutation_reads_as_no_permutation() {
        let schemas = check_tensor_columns(
            vec![file(
                "a",
                vec![tensor_field(r#"{"shape":[2,2],"permutation":[0,1]}"#, 4)],
            )],
            &name,
        )
        .unwrap();
        assert_eq!(
            schemas[0].1.field(0).metadata()[EXTENSION_TYPE_METADATA_KEY],
            r#"{"shape":[2,2]}"#
        );
    }

    #[test]
    fn lists_that_are_no_tensors_pass() {
        let strings = Field::new(
            "s",
            DataType::FixedSizeList(Arc::new(Field::new("item", DataType::Utf8, true)), 2),
            true,
        );
        let schemas = check_tensor_columns(
            vec![file("a", vec![strings.clone()]), file("b", vec![strings])],
            &name,
        )
        .unwrap();
        assert_eq!(merge(&schemas, &name).unwrap().fields().len(), 1);
    }

    #[test]
    fn different_shapes_name_both_files() {
        let err = check_tensor_columns(
            vec![
                file("a", vec![tensor_field(r#"{"shape":[2,2]}"#, 4)]),
                file("b", vec![tensor_field(r#"{"shape":[4,1]}"#, 4)]),
            ],
            &name,
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("column 'x'"), "{err}");
        assert!(err.contains("(2, 2)> in Parquet file 'a'"), "{err}");
        assert!(err.contains("(4, 1)> in Parquet file 'b'"), "{err}");
    }
}
