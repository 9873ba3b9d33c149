//! Which scans this reader serves, and what it reads for them ([`plan_scan`], [`ScanPlan`]):
//! the columns read, the predicate and how it is evaluated before the other tensor columns are
//! decoded ([`LateMaterialisation`], [`Selection`]), the limit and the session's pruning
//! settings.

use std::collections::HashSet;
use std::sync::Arc;

use arrow::buffer::BooleanBuffer;
use arrow::datatypes::{DataType, Schema, SchemaRef};
use datafusion::datasource::physical_plan::{FileScanConfig, FileSource, ParquetSource};
use datafusion::physical_expr::PhysicalExpr;
use datafusion::physical_expr::utils::{collect_columns, reassign_expr_columns};
use datafusion::physical_expr_common::physical_expr::is_volatile;

use crate::variable_shape::has_variable_shape_extension;

use super::columns::{Element, ReadColumn, TensorColumn, VariableColumn};

/// What a scan this reader serves reads and returns.
#[derive(Debug)]
pub(super) struct ScanPlan {
    /// The columns read: the projected ones, then those only the predicate reads.
    pub(super) columns: Vec<ReadColumn>,
    /// Their schema (the table's fields).
    pub(super) read_schema: SchemaRef,
    /// The scan's output: its projection's expressions over `read_schema` (columns, or
    /// expressions DataFusion pushed into the scan), and its schema.
    pub(super) output: Vec<Arc<dyn PhysicalExpr>>,
    pub(super) schema: SchemaRef,
    /// The scan's predicate over `read_schema`; rows it does not hold are not returned.
    pub(super) predicate: Option<Arc<dyn PhysicalExpr>>,
    /// How a predicate is evaluated before the tensor columns it does not read are decoded.
    pub(super) late: Option<LateMaterialisation>,
    /// Rows a row group need give at most (the scan's limit, when it has no predicate).
    pub(super) limit: Option<usize>,
    /// Rows the predicate holds for that a row group need give at most (the scan's limit, when
    /// it has one: DataFusion gives a scan a limit only when the scan applies its filters).
    pub(super) matches_limit: Option<usize>,
    /// The longest `IN (...)` list statistics pruning reads (the session's setting).
    pub(super) max_in_list_size: usize,
    /// Whether row groups are pruned by their bloom filters too (`bloom_filter_on_read`).
    pub(super) bloom_filters: bool,
    /// What of a file's page index is read (`enable_page_index`).
    pub(super) page_index: PageIndex,
    /// Whether late materialisation leaves pages holding no wanted row undecoded
    /// (`pushdown_filters`); without it they are decoded, their values dropped.
    pub(super) skip_unwanted_pages: bool,
}

/// The scan's plan, when it is one this reader serves: plain columns of the table, at least
/// one a tensor of a supported element type; no partition or virtual columns; no encryption;
/// a predicate only if it is deterministic (it is evaluated here, and again above the scan
/// unless DataFusion pushed it down: a volatile one would then filter twice).
pub(super) fn plan_scan(source: &dyn FileSource, config: &FileScanConfig) -> Option<ScanPlan> {
    let parquet = source.downcast_ref::<ParquetSource>()?;
    let crypto = &parquet.table_parquet_options().crypto;
    if crypto.file_decryption.is_some() || crypto.factory_id.is_some() {
        return None;
    }
    let predicate = source.filter();
    if predicate.as_ref().is_some_and(is_volatile) {
        return None;
    }
    let table = source.table_schema();
    if !table.table_partition_cols().is_empty() || !table.virtual_columns().is_empty() {
        return None;
    }
    let table_schema = table.table_schema();
    let projection = source.projection()?;
    let schema = Arc::new(projection.project_schema(table_schema).ok()?);
    // The table columns read: those the projection reads, then the predicate's others, each
    // once. (DataFusion may push expressions of the projection into the scan, such as
    // `tensor_to_string(x)`: they are evaluated here, as its reader does.)
    let mut names: Vec<String> = Vec::new();
    let exprs = projection
        .iter()
        .map(|expr| Arc::clone(&expr.expr))
        .chain(predicate.iter().cloned());
    for expr in exprs {
        let mut read: Vec<String> = collect_columns(&expr)
            .into_iter()
            .map(|column| column.name().to_string())
            .collect();
        // The order of a set: sorted, so that every partition reads alike.
        read.sort();
        for name in read {
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    let indices: Vec<usize> = names
        .iter()
        .map(|name| table_schema.index_of(name).ok())
        .collect::<Option<_>>()?;
    let mut columns = Vec::with_capacity(indices.len());
    let mut fields = Vec::with_capacity(indices.len());
    for &index in &indices {
        let field = table_schema.fields().get(index)?;
        let tensor = match field.data_type() {
            DataType::FixedSizeList(child, size) => Some(TensorColumn {
                child: Arc::clone(child),
                size: usize::try_from(*size).ok().filter(|&s| s > 0)?,
                element: Element::of(child.data_type())?,
            }),
            _ => None,
        };
        // A variable-shape tensor of a layout not read here (0 dimensions, an element type
        // not supported) leaves the scan to DataFusion's reader.
        let variable = if has_variable_shape_extension(field) {
            Some(VariableColumn::of(field)?)
        } else {
            None
        };
        columns.push(ReadColumn {
            name: field.name().clone(),
            data_type: field.data_type().clone(),
            tensor,
            variable,
        });
        fields.push(Arc::clone(field));
    }
    if columns.iter().all(ReadColumn::is_other) {
        return None;
    }
    let read_schema = Arc::new(Schema::new(fields));
    let predicate = match predicate {
        Some(predicate) => Some(reassign_expr_columns(predicate, &read_schema).ok()?),
        None => None,
    };
    let output = projection
        .iter()
        .map(|expr| reassign_expr_columns(Arc::clone(&expr.expr), &read_schema).ok())
        .collect::<Option<_>>()?;
    let late = predicate
        .as_ref()
        .and_then(|predicate| LateMaterialisation::new(predicate, &columns, &read_schema));
    // Pages holding no row the predicate holds for are left undecoded (and unread where the
    // offset index locates them) only as DataFusion's reader leaves them: when it applies a
    // pushed-down filter's rows to the other columns. Without `pushdown_filters` its reader
    // decodes every page (and fails on a corrupt one), and so does this one.
    let pushdown = parquet.table_parquet_options().global.pushdown_filters;
    Some(ScanPlan {
        page_index: match parquet.table_parquet_options().global.enable_page_index {
            true if predicate.is_some() => PageIndex::Both,
            true if late.is_some() && pushdown => PageIndex::Offsets,
            _ => PageIndex::Neither,
        },
        skip_unwanted_pages: pushdown,
        late,
        limit: config.limit.filter(|_| predicate.is_none()),
        matches_limit: config.limit.filter(|_| predicate.is_some()),
        max_in_list_size: parquet.max_in_list_size(),
        bloom_filters: parquet.table_parquet_options().global.bloom_filter_on_read,
        columns,
        read_schema,
        output,
        schema,
        predicate,
    })
}

/// What of a file's page index a scan reads, when the file has one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum PageIndex {
    Neither,
    /// The offset index: to pass over the pages of tensors that late materialisation wants no
    /// row of without reading them.
    Offsets,
    /// The column index too: to prune pages by their statistics, as DataFusion's reader
    /// prunes them (a scan with a predicate).
    Both,
}

/// A predicate evaluated first, on the columns it reads, so that the tensor columns it does not
/// read are decoded for the rows it holds for alone (late materialisation): a page of theirs
/// holding no such row is not decoded, and no value of a row dropped is copied.
#[derive(Debug)]
pub(super) struct LateMaterialisation {
    /// The read columns (indices into `ScanPlan::columns`) the predicate reads, in read order.
    pub(super) first: Vec<usize>,
    /// Their schema, and the predicate over it.
    pub(super) schema: SchemaRef,
    pub(super) predicate: Arc<dyn PhysicalExpr>,
}

impl LateMaterialisation {
    /// `None` when every tensor column read is one the predicate reads (nothing to decode
    /// later).
    pub(super) fn new(
        predicate: &Arc<dyn PhysicalExpr>,
        columns: &[ReadColumn],
        read_schema: &SchemaRef,
    ) -> Option<Self> {
        let names: HashSet<String> = collect_columns(predicate)
            .into_iter()
            .map(|column| column.name().to_string())
            .collect();
        let first: Vec<usize> = (0..columns.len())
            .filter(|&index| names.contains(&columns[index].name))
            .collect();
        let later = columns
            .iter()
            .any(|column| column.tensor.is_some() && !names.contains(&column.name));
        if !later {
            return None;
        }
        let schema = Arc::new(read_schema.project(&first).ok()?);
        let predicate = reassign_expr_columns(Arc::clone(predicate), &schema).ok()?;
        Some(Self {
            first,
            schema,
            predicate,
        })
    }
}

/// The rows of a row group a predicate holds for, as runs of consecutive rows.
#[derive(Debug)]
pub(super) struct Selection {
    pub(super) runs: Vec<std::ops::Range<usize>>,
    pub(super) rows: usize,
}

impl Selection {
    pub(super) fn new(holds: &BooleanBuffer) -> Self {
        Self {
            runs: holds.set_slices().map(|(start, end)| start..end).collect(),
            rows: holds.count_set_bits(),
        }
    }
}
