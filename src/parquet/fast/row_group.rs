//! A fetched row group decoded into the scan's batches: tensor columns through [`Chunk`]s,
//! the other columns by arrow-rs's reader, the predicate applied (late materialisation when it
//! reads only some columns) and the scan's projection evaluated.

use std::sync::Arc;

use arrow::array::AsArray;
use arrow::array::{
    Array, ArrayRef, BooleanArray, BooleanBufferBuilder, FixedSizeListArray, RecordBatch,
    RecordBatchOptions, RecordBatchReader, new_empty_array,
};
use arrow::compute::kernels::coalesce::BatchCoalescer;
use arrow::compute::{FilterBuilder, concat, concat_batches};
use arrow::datatypes::SchemaRef;
use datafusion::common::{DataFusionError, Result};
use datafusion::parquet::arrow::ProjectionMask;
use datafusion::parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use datafusion::physical_expr::PhysicalExpr;

use super::chunk::Chunk;
use super::decode::read_tensor_values;
use super::fetch::{Fetched, RowGroupMorsel};
use super::plan::{LateMaterialisation, Selection};

impl RowGroupMorsel {
    /// The row group as batches of the scan's batch size (its rows the predicate holds for),
    /// when all its tensors are full.
    pub(super) fn read(&self, chunks: &Fetched) -> Result<Option<Vec<RecordBatch>>> {
        let scan = &self.shared.scan;
        let batch_size = self.shared.batch_size;
        let group = self.file.metadata.metadata().row_group(self.row_group);
        let rows = usize::try_from(group.num_rows()).map_err(|_| {
            DataFusionError::Execution(format!(
                "row group {} has {} rows",
                self.row_group,
                group.num_rows()
            ))
        })?;
        if let Some(late) = &scan.late {
            return self.read_late(chunks, rows, late);
        }
        // With a limit and no predicate, the rows after the limit are never returned.
        let read_rows = scan.limit.map_or(rows, |limit| rows.min(limit));
        let Some(mut others) = self.read_others(chunks, read_rows)? else {
            return Ok(None);
        };
        // Each column read, as arrays of the scan's batch size: decoded a batch at a time, so
        // that the values of a row group are never one allocation (a fresh 200 MiB buffer
        // per row group of images cost more in page faults than the decoding).
        let mut columns: Vec<std::vec::IntoIter<ArrayRef>> = Vec::with_capacity(scan.columns.len());
        for (index, column) in scan.columns.iter().enumerate() {
            let arrays = if column.tensor.is_some() {
                match self.read_tensor(chunks, index, rows, read_rows, None)? {
                    Some(arrays) => arrays,
                    None => return Ok(None),
                }
            } else if column.variable.is_some() {
                match self.read_variable(chunks, index, rows, read_rows, batch_size)? {
                    Some(arrays) => arrays,
                    None => return Ok(None),
                }
            } else {
                let array = others.next().ok_or_else(|| {
                    DataFusionError::Internal("a column missing from arrow-rs's read".into())
                })?;
                batch_slices(&array, batch_size)
            };
            columns.push(arrays.into_iter());
        }
        let mut batches = Vec::new();
        // A predicate's rows, gathered back into batches of the batch size.
        let mut coalescer = scan
            .predicate
            .as_ref()
            .map(|_| BatchCoalescer::new(Arc::clone(&scan.read_schema), batch_size));
        for start in (0..read_rows).step_by(batch_size) {
            let batch = next_batch(
                &scan.read_schema,
                &mut columns,
                batch_size.min(read_rows - start),
            )?;
            match (&scan.predicate, &mut coalescer) {
                (Some(predicate), Some(coalescer)) => {
                    let mut holds = evaluate_predicate(predicate, &batch)?;
                    // Rows on pages the page index ruled out: DataFusion's reader never reads
                    // them.
                    if let Some(pages) = self.file.page_selections.get(&self.row_group) {
                        let len = batch.num_rows();
                        holds = BooleanArray::new(holds.values() & &pages.slice(start, len), None);
                    }
                    coalescer.push_batch_with_filter(batch, &holds)?;
                    while let Some(batch) = coalescer.next_completed_batch() {
                        batches.push(self.project(&batch)?);
                    }
                }
                _ => batches.push(self.project(&batch)?),
            }
        }
        if let Some(coalescer) = &mut coalescer {
            coalescer.finish_buffered_batch()?;
            while let Some(batch) = coalescer.next_completed_batch() {
                batches.push(self.project(&batch)?);
            }
        }
        Ok(Some(batches))
    }

    /// [`Self::read`] with a predicate evaluated first ([`LateMaterialisation`]): the columns
    /// it reads are read whole and it is evaluated on them; the other tensor columns are then
    /// decoded for the rows it holds for alone, and the columns read whole filtered to them.
    pub(super) fn read_late(
        &self,
        chunks: &Fetched,
        rows: usize,
        late: &LateMaterialisation,
    ) -> Result<Option<Vec<RecordBatch>>> {
        let scan = &self.shared.scan;
        let batch_size = self.shared.batch_size;
        let Some(mut others) = self.read_others(chunks, rows)? else {
            return Ok(None);
        };
        // The columns read whole (`None`: a tensor column read later). A variable-shape
        // tensor is read whole too, then filtered as the other columns are: its rows' values
        // are not where its footer says, so its pages cannot be passed over.
        let mut whole: Vec<Option<ArrayRef>> = Vec::with_capacity(scan.columns.len());
        for (index, column) in scan.columns.iter().enumerate() {
            whole.push(if column.variable.is_some() {
                let Some(arrays) = self.read_variable(chunks, index, rows, rows, rows.max(1))?
                else {
                    return Ok(None);
                };
                Some(match &arrays[..] {
                    [array] => Arc::clone(array),
                    _ => new_empty_array(&column.data_type),
                })
            } else if column.tensor.is_none() {
                Some(others.next().ok_or_else(|| {
                    DataFusionError::Internal("a column missing from arrow-rs's read".into())
                })?)
            } else if late.first.contains(&index) {
                let Some(arrays) = self.read_tensor(chunks, index, rows, rows, None)? else {
                    return Ok(None);
                };
                let arrays: Vec<&dyn arrow::array::Array> =
                    arrays.iter().map(AsRef::as_ref).collect();
                Some(concat(&arrays)?)
            } else {
                None
            });
        }
        let mut holds = BooleanBufferBuilder::new(rows);
        for start in (0..rows).step_by(batch_size) {
            let len = batch_size.min(rows - start);
            let arrays = late
                .first
                .iter()
                .map(|&index| {
                    let array = whole[index].as_ref().ok_or_else(|| {
                        DataFusionError::Internal("a predicate column not read".into())
                    })?;
                    Ok(array.slice(start, len))
                })
                .collect::<Result<Vec<_>>>()?;
            let batch = RecordBatch::try_new_with_options(
                Arc::clone(&late.schema),
                arrays,
                &RecordBatchOptions::new().with_row_count(Some(len)),
            )?;
            holds.append_buffer(evaluate_predicate(&late.predicate, &batch)?.values());
        }
        let mut holds = holds.finish();
        // Rows on pages the page index ruled out: DataFusion's reader never reads them.
        if let Some(pages) = self.file.page_selections.get(&self.row_group) {
            holds = &holds & pages;
        }
        // The first rows it holds for, as many as the limit asks for: the tensors of the rest
        // are not decoded.
        if let Some(limit) = scan.matches_limit
            && let Some(last) = holds.set_indices().nth(limit.saturating_sub(1))
        {
            let mut first = BooleanBufferBuilder::new(rows);
            first.append_buffer(&holds.slice(0, last + 1));
            first.append_n(rows - last - 1, false);
            holds = first.finish();
        }
        let selection = Selection::new(&holds);
        if selection.rows == 0 {
            return Ok(Some(Vec::new()));
        }
        let filter = FilterBuilder::new(&BooleanArray::new(holds, None))
            .optimize()
            .build();
        let mut columns = Vec::with_capacity(whole.len());
        for (index, array) in whole.into_iter().enumerate() {
            let arrays = match array {
                Some(array) => batch_slices(&filter.filter(&array)?, batch_size),
                None => match self.read_tensor(chunks, index, rows, rows, Some(&selection))? {
                    Some(arrays) => arrays,
                    None => return Ok(None),
                },
            };
            columns.push(arrays.into_iter());
        }
        (0..selection.rows)
            .step_by(batch_size)
            .map(|start| {
                let len = batch_size.min(selection.rows - start);
                self.project(&next_batch(&scan.read_schema, &mut columns, len)?)
            })
            .collect::<Result<_>>()
            .map(Some)
    }

    /// Read column `index` (a tensor column) of the row group's `rows`, its first `read_rows`
    /// or the rows of `selection` among them, as arrays of the scan's batch size; `None` when
    /// its levels say anything but full tensors.
    pub(super) fn read_tensor(
        &self,
        chunks: &Fetched,
        index: usize,
        rows: usize,
        read_rows: usize,
        selection: Option<&Selection>,
    ) -> Result<Option<Vec<ArrayRef>>> {
        let (Some(tensor), Some(leaf)) = (
            &self.shared.scan.columns[index].tensor,
            self.file.leaves[index],
        ) else {
            return Err(DataFusionError::Internal(
                "a tensor column without its leaf".into(),
            ));
        };
        let metadata = self.file.metadata.metadata();
        let locations = metadata
            .offset_index()
            .and_then(|index| index.get(self.row_group)?.get(leaf))
            .map(|index| index.page_locations().as_slice());
        let chunk = Chunk {
            fetched: chunks,
            group: metadata.row_group(self.row_group),
            rows,
            read_rows,
            selection,
            locations,
            decode_unwanted: !self.shared.scan.skip_unwanted_pages,
            batch_rows: self.shared.batch_size,
            leaf,
            size: tensor.size,
            lists: None,
        };
        let Some(values) = read_tensor_values(&chunk, tensor.element)? else {
            return Ok(None);
        };
        values
            .into_iter()
            .map(|values| {
                let list = FixedSizeListArray::try_new(
                    Arc::clone(&tensor.child),
                    tensor.size as i32,
                    values,
                    None,
                )?;
                Ok(Arc::new(list) as ArrayRef)
            })
            .collect::<Result<Vec<_>>>()
            .map(Some)
    }

    /// The scan's output of a batch of the columns read: its projection's expressions, as
    /// DataFusion's reader evaluates them.
    pub(super) fn project(&self, batch: &RecordBatch) -> Result<RecordBatch> {
        let scan = &self.shared.scan;
        let columns = scan
            .output
            .iter()
            .map(|expr| expr.evaluate(batch)?.into_array(batch.num_rows()))
            .collect::<Result<_>>()?;
        Ok(RecordBatch::try_new_with_options(
            Arc::clone(&scan.schema),
            columns,
            &RecordBatchOptions::new().with_row_count(Some(batch.num_rows())),
        )?)
    }

    /// The columns read that are not tensors, in read order, as arrow-rs's reader reads the
    /// row group's first `read_rows` rows of them; `None` when it gives another type or
    /// another number of rows.
    pub(super) fn read_others(
        &self,
        chunks: &Fetched,
        read_rows: usize,
    ) -> Result<Option<std::vec::IntoIter<ArrayRef>>> {
        let roots = &self.file.other_roots;
        if roots.is_empty() {
            return Ok(Some(Vec::new().into_iter()));
        }
        let metadata = &self.file.metadata;
        let mask = ProjectionMask::roots(metadata.parquet_schema(), roots.iter().copied());
        let reader =
            ParquetRecordBatchReaderBuilder::new_with_metadata(chunks.clone(), metadata.clone())
                .with_row_groups(vec![self.row_group])
                .with_projection(mask)
                .with_batch_size(read_rows.max(1))
                .with_limit(read_rows)
                .build()?;
        let schema = RecordBatchReader::schema(&reader);
        let batches = reader.collect::<Result<Vec<_>, _>>()?;
        let batch = concat_batches(&schema, &batches)?;
        if batch.num_rows() != read_rows {
            return Ok(None);
        }
        // The reader gives the roots in file order; the scan reads them in its own.
        let mut columns = Vec::with_capacity(roots.len());
        for column in self.shared.scan.columns.iter().filter(|c| c.is_other()) {
            match batch.column_by_name(&column.name) {
                Some(array) if array.data_type() == &column.data_type => {
                    columns.push(Arc::clone(array));
                }
                _ => return Ok(None),
            }
        }
        Ok(Some(columns.into_iter()))
    }
}

/// `array` as slices of `batch_size` rows.
pub(super) fn batch_slices(array: &ArrayRef, batch_size: usize) -> Vec<ArrayRef> {
    let rows = array.len();
    (0..rows)
        .step_by(batch_size)
        .map(|start| array.slice(start, batch_size.min(rows - start)))
        .collect()
}

/// The next batch of `len` rows of `columns` (each given as arrays of the batch size).
pub(super) fn next_batch(
    schema: &SchemaRef,
    columns: &mut [std::vec::IntoIter<ArrayRef>],
    len: usize,
) -> Result<RecordBatch> {
    let arrays = columns
        .iter_mut()
        .map(|column| {
            column
                .next()
                .ok_or_else(|| DataFusionError::Internal("a column with fewer batches".into()))
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(RecordBatch::try_new_with_options(
        Arc::clone(schema),
        arrays,
        &RecordBatchOptions::new().with_row_count(Some(len)),
    )?)
}

/// Whether `predicate` holds for each row of `batch`, as a filter (NULL does not hold).
pub(super) fn evaluate_predicate(
    predicate: &Arc<dyn PhysicalExpr>,
    batch: &RecordBatch,
) -> Result<BooleanArray> {
    let holds = predicate.evaluate(batch)?.into_array(batch.num_rows())?;
    let holds = holds
        .as_boolean_opt()
        .ok_or_else(|| DataFusionError::Internal("a predicate that is not boolean".into()))?;
    Ok(match holds.nulls() {
        Some(nulls) => BooleanArray::new(holds.values() & nulls.inner(), None),
        None => holds.clone(),
    })
}
