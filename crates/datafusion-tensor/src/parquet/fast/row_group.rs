//! A fetched row group decoded into the scan's batches, one batch at a time
//! ([`RowGroupReader`]): tensor columns through [`ColumnValues`], variable-shape ones through
//! [`VariableReader`], the other columns by arrow-rs's reader, the predicate applied (late
//! materialisation when it reads only some columns) and the scan's projection evaluated.
//!
//! Nothing of the row group is decoded ahead of the batch asked for, but for late
//! materialisation's first step: the columns the predicate reads (and variable-shape columns,
//! whose rows' values are not where the footer says) are read whole and filtered, the other
//! tensor columns then decoded a batch of the rows it holds for at a time. Peak memory follows
//! the fetched column chunks and one batch, not the row group's decoded size.

use std::collections::VecDeque;
use std::ops::Range;
use std::sync::Arc;

use arrow::array::{
    Array, ArrayRef, AsArray, BooleanArray, BooleanBufferBuilder, FixedSizeListArray, RecordBatch,
    RecordBatchOptions, new_empty_array,
};
use arrow::compute::FilterBuilder;
use arrow::compute::kernels::coalesce::BatchCoalescer;
use arrow::datatypes::FieldRef;
use datafusion::common::{DataFusionError, Result};
use datafusion::parquet::arrow::ProjectionMask;
use datafusion::parquet::arrow::arrow_reader::{
    ParquetRecordBatchReader, ParquetRecordBatchReaderBuilder,
};
use datafusion::physical_expr::PhysicalExpr;

use super::Shared;
use super::chunk::{Chunk, not_full};
use super::columns::ReadColumn;
use super::decode::{ColumnValues, open_tensor_values};
use super::fetched::Fetched;
use super::located;
use super::open::FilePlan;
use super::plan::Selection;
use super::variable::VariableReader;

/// One column of the scan, as a row group's batches are read.
enum Column {
    /// A fixed-shape tensor column, decoded a batch at a time.
    Tensor {
        values: Box<dyn ColumnValues>,
        child: FieldRef,
        size: usize,
    },
    /// A variable-shape tensor column, decoded a batch at a time.
    Variable(Box<VariableReader>),
    /// A column arrow-rs's reader reads ([`Others`]), by its name.
    Other,
    /// A column read whole (late materialisation's first step), filtered to the rows the
    /// predicate holds for: sliced.
    Whole(ArrayRef),
}

/// The columns read by arrow-rs's reader, a batch at a time.
struct Others {
    reader: ParquetRecordBatchReader,
}

/// Which rows the batches are made of.
enum Rows {
    /// The first `read_rows` rows (all, or a limit's), a batch of the batch size at a time
    /// from row `next`; those the predicate holds for gathered back into batches of the batch
    /// size, when there is one.
    Every {
        next: usize,
        read_rows: usize,
        coalescer: Option<BatchCoalescer>,
    },
    /// Late materialisation: the rows the predicate holds for (`runs`, `count` of them), from
    /// the `next`th of them.
    Selected {
        runs: Vec<Range<usize>>,
        count: usize,
        next: usize,
    },
}

/// A fetched row group, read a batch at a time (module docs).
pub(super) struct RowGroupReader {
    file: Arc<FilePlan>,
    shared: Arc<Shared>,
    row_group: usize,
    /// The row group's rows.
    rows: usize,
    columns: Vec<Column>,
    others: Option<Others>,
    mode: Rows,
    /// Batches made and not yet given.
    ready: VecDeque<RecordBatch>,
}

impl RowGroupReader {
    /// Opens the row group's columns (with a predicate evaluated first, its columns read and
    /// evaluated whole).
    pub(super) fn open(
        file: Arc<FilePlan>,
        shared: Arc<Shared>,
        row_group: usize,
        chunks: &Fetched,
    ) -> Result<Self> {
        let group = file.metadata.metadata().row_group(row_group);
        let rows = usize::try_from(group.num_rows()).map_err(|_| {
            DataFusionError::Execution(format!(
                "row group {row_group} has {} rows",
                group.num_rows()
            ))
        })?;
        located::trusted(file.metadata.metadata(), &file.fetched_leaves, row_group)?;
        let mut reader = Self {
            file,
            shared,
            row_group,
            rows,
            columns: Vec::new(),
            others: None,
            mode: Rows::Every {
                next: 0,
                read_rows: rows,
                coalescer: None,
            },
            ready: VecDeque::new(),
        };
        if reader.shared.scan.late.is_some() {
            reader.open_late(chunks)?;
            return Ok(reader);
        }
        let scan = &reader.shared.scan;
        let batch_size = reader.shared.batch_size;
        // With a limit and no predicate, the rows after the limit are never returned.
        let read_rows = scan.limit.map_or(rows, |limit| rows.min(limit));
        reader.others = reader.open_others(chunks, read_rows, batch_size)?;
        for index in 0..scan.columns.len() {
            let column = reader.open_column(chunks, index, read_rows, None)?;
            reader.columns.push(column);
        }
        // A predicate's rows, gathered back into batches of the batch size.
        let coalescer = scan
            .predicate
            .as_ref()
            .map(|_| BatchCoalescer::new(Arc::clone(&scan.read_schema), batch_size));
        reader.mode = Rows::Every {
            next: 0,
            read_rows,
            coalescer,
        };
        Ok(reader)
    }

    /// Column `index` of the scan, to read its first `read_rows` rows (those of `selection`
    /// among them, for a fixed-shape tensor).
    fn open_column(
        &self,
        chunks: &Fetched,
        index: usize,
        read_rows: usize,
        selection: Option<&Selection>,
    ) -> Result<Column> {
        let column = &self.shared.scan.columns[index];
        if let Some(tensor) = &column.tensor {
            let chunk = self.chunk(chunks, index, read_rows, selection)?;
            return Ok(Column::Tensor {
                values: open_tensor_values(&chunk, tensor.element)?,
                child: Arc::clone(&tensor.child),
                size: tensor.size,
            });
        }
        if let Some(variable) = &column.variable {
            let (data, shape) = self.file.variable_leaves[index].ok_or_else(|| {
                DataFusionError::Internal(
                    "a variable-shape tensor column without its leaves".into(),
                )
            })?;
            let group = self.file.metadata.metadata().row_group(self.row_group);
            return Ok(Column::Variable(Box::new(VariableReader::open(
                chunks, group, variable, data, shape, self.rows, read_rows,
            )?)));
        }
        Ok(Column::Other)
    }

    /// The chunk of tensor column `index`, to read its first `read_rows` rows (those of
    /// `selection` among them).
    fn chunk<'a>(
        &'a self,
        chunks: &'a Fetched,
        index: usize,
        read_rows: usize,
        selection: Option<&'a Selection>,
    ) -> Result<Chunk<'a>> {
        let (Some(tensor), Some(leaf)) = (
            &self.shared.scan.columns[index].tensor,
            self.file.leaves[index],
        ) else {
            return Err(DataFusionError::Internal(
                "a tensor column without its leaf".into(),
            ));
        };
        let metadata = self.file.metadata.metadata();
        let group = metadata.row_group(self.row_group);
        let locations = located::locations(metadata, self.row_group, leaf);
        Ok(Chunk {
            fetched: chunks,
            group,
            rows: self.rows,
            read_rows,
            selection,
            locations,
            decode_unwanted: !self.shared.scan.skip_unwanted_pages,
            leaf,
            size: tensor.size,
            lists: None,
        })
    }

    /// Late materialisation's first step ([`super::plan::LateMaterialisation`]): the columns
    /// the predicate reads (and the variable-shape and other columns) are read whole and it is
    /// evaluated on them; the other tensor columns are then decoded for the rows it holds for
    /// alone, and the columns read whole filtered to them.
    fn open_late(&mut self, chunks: &Fetched) -> Result<()> {
        let scan = &self.shared.scan;
        let Some(late) = &scan.late else {
            return Ok(());
        };
        let rows = self.rows;
        let mut others = self.open_others(chunks, rows, rows.max(1))?;
        let other_batch = match &mut others {
            Some(others) => {
                let batch = others.next_batch(rows)?;
                others.finish()?;
                Some(batch)
            }
            None => None,
        };
        // The columns read whole (`None`: a tensor column read later).
        let mut whole: Vec<Option<ArrayRef>> = Vec::with_capacity(scan.columns.len());
        for (index, column) in scan.columns.iter().enumerate() {
            let read_now = column.tensor.is_none() || late.first.contains(&index);
            whole.push(if read_now {
                let mut opened = self.open_column(chunks, index, rows, None)?;
                let array = read_column(&mut opened, column, other_batch.as_ref(), rows, 0)?;
                finish_column(&mut opened)?;
                Some(array)
            } else {
                None
            });
        }
        let mut holds = BooleanBufferBuilder::new(rows);
        let batch_size = self.shared.batch_size;
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
        let filter = FilterBuilder::new(&BooleanArray::new(holds, None))
            .optimize()
            .build();
        let mut columns = Vec::with_capacity(whole.len());
        for (index, array) in whole.into_iter().enumerate() {
            columns.push(match array {
                Some(array) => Column::Whole(filter.filter(&array)?),
                None if selection.rows == 0 => {
                    Column::Whole(new_empty_array(&self.shared.scan.columns[index].data_type))
                }
                None => self.open_column(chunks, index, rows, Some(&selection))?,
            });
        }
        self.columns = columns;
        self.mode = Rows::Selected {
            count: selection.rows,
            runs: selection.runs,
            next: 0,
        };
        Ok(())
    }

    /// arrow-rs's reader of the columns read that are not tensors, of the row group's first
    /// `read_rows` rows in batches of `batch_rows`; `None` when there are none.
    fn open_others(
        &self,
        chunks: &Fetched,
        read_rows: usize,
        batch_rows: usize,
    ) -> Result<Option<Others>> {
        let roots = &self.file.other_roots;
        if roots.is_empty() {
            return Ok(None);
        }
        let metadata = &self.file.metadata;
        let mask = ProjectionMask::roots(metadata.parquet_schema(), roots.iter().copied());
        let builder =
            ParquetRecordBatchReaderBuilder::new_with_metadata(chunks.clone(), metadata.clone())
                .with_row_groups(vec![self.row_group])
                .with_projection(mask)
                .with_batch_size(batch_rows.max(1));
        // All rows read: no limit, so that pages holding more than the footer's rows are
        // read on ([`Others::finish`]), as DataFusion's reader reads them.
        let builder = if read_rows < self.rows {
            builder.with_limit(read_rows)
        } else {
            builder
        };
        let reader = builder.build()?;
        Ok(Some(Others { reader }))
    }

    /// The next batch of the scan's output; `None` once the row group is read. An error when
    /// a page holds anything but full tensors (or fails to read): the row group's rows from
    /// [`Self::resume_row`] on are then DataFusion's reader's.
    pub(super) fn next_batch(&mut self) -> Result<Option<RecordBatch>> {
        loop {
            if let Some(batch) = self.ready.pop_front() {
                return Ok(Some(batch));
            }
            if !self.step()? {
                return Ok(None);
            }
        }
    }

    /// Reads the next batch of rows into `ready`; `false` when there are no more.
    fn step(&mut self) -> Result<bool> {
        let batch_size = self.shared.batch_size;
        match self.mode {
            Rows::Every {
                next, read_rows, ..
            } => {
                let len = batch_size.min(read_rows - next);
                if len == 0 {
                    if read_rows == self.rows
                        && let Some(others) = &mut self.others
                    {
                        others.finish()?;
                    }
                    if let Rows::Every {
                        coalescer: Some(coalescer),
                        ..
                    } = &mut self.mode
                    {
                        coalescer.finish_buffered_batch()?;
                    }
                    return self.drain_coalescer();
                }
                let batch = self.read_batch(len, next)?;
                if next + len == self.rows {
                    self.finish_columns()?;
                }
                let scan = &self.shared.scan;
                if let (
                    Some(predicate),
                    Rows::Every {
                        coalescer: Some(coalescer),
                        ..
                    },
                ) = (&scan.predicate, &mut self.mode)
                {
                    let mut holds = evaluate_predicate(predicate, &batch)?;
                    // Rows on pages the page index ruled out: DataFusion's reader never reads
                    // them.
                    if let Some(pages) = self.file.page_selections.get(&self.row_group) {
                        holds = BooleanArray::new(holds.values() & &pages.slice(next, len), None);
                    }
                    coalescer.push_batch_with_filter(batch, &holds)?;
                    self.drain_coalescer()?;
                } else {
                    let batch = self.project(&batch)?;
                    self.ready.push_back(batch);
                }
                if let Rows::Every { next, .. } = &mut self.mode {
                    *next += len;
                }
                Ok(true)
            }
            Rows::Selected { count, next, .. } => {
                let len = batch_size.min(count - next);
                if len == 0 {
                    return Ok(false);
                }
                let batch = self.read_batch(len, next)?;
                // (With a limit, the rows after it are never read: DataFusion's reader stops
                // there too.)
                if next + len == count && self.shared.scan.matches_limit.is_none() {
                    self.finish_columns()?;
                }
                let batch = self.project(&batch)?;
                self.ready.push_back(batch);
                if let Rows::Selected { next, .. } = &mut self.mode {
                    *next += len;
                }
                Ok(true)
            }
        }
    }

    /// The coalescer's completed batches, projected, into `ready`; whether there were any.
    fn drain_coalescer(&mut self) -> Result<bool> {
        let mut completed = Vec::new();
        if let Rows::Every {
            coalescer: Some(coalescer),
            ..
        } = &mut self.mode
        {
            while let Some(batch) = coalescer.next_completed_batch() {
                completed.push(batch);
            }
        }
        let any = !completed.is_empty();
        for batch in completed {
            let batch = self.project(&batch)?;
            self.ready.push_back(batch);
        }
        Ok(any)
    }

    /// The next `len` rows of the columns read (`start`: the first one's place among the rows
    /// read, or among the selected ones).
    fn read_batch(&mut self, len: usize, start: usize) -> Result<RecordBatch> {
        let scan = &self.shared.scan;
        let other_batch = match &mut self.others {
            Some(others) => Some(others.next_batch(len)?),
            None => None,
        };
        let arrays = self
            .columns
            .iter_mut()
            .zip(&scan.columns)
            .map(|(column, read)| read_column(column, read, other_batch.as_ref(), len, start))
            .collect::<Result<Vec<_>>>()?;
        Ok(RecordBatch::try_new_with_options(
            Arc::clone(&scan.read_schema),
            arrays,
            &RecordBatchOptions::new().with_row_count(Some(len)),
        )?)
    }

    /// Where DataFusion's reader takes over after an error: the first row whose output has
    /// not been made, the batches made before it given first ([`Self::take_ready`]). An error
    /// when the rows the coalescer holds (all before that row) cannot be made into batches.
    pub(super) fn resume_row(&mut self) -> Result<usize> {
        // The rows before `next` went into the coalescer: what it holds is given too.
        if let Rows::Every {
            coalescer: Some(coalescer),
            ..
        } = &mut self.mode
        {
            coalescer.finish_buffered_batch()?;
            self.drain_coalescer()?;
        }
        Ok(match &self.mode {
            Rows::Every { next, .. } => *next,
            // The row of the first selected row not given (every row before it was given or
            // ruled out).
            Rows::Selected { runs, next, .. } => {
                let mut skip = *next;
                let mut row = self.rows;
                for run in runs {
                    if skip < run.len() {
                        row = run.start + skip;
                        break;
                    }
                    skip -= run.len();
                }
                row
            }
        })
    }

    /// Once the last batch is read, before it is given: every tensor column's pages after
    /// the values taken read ([`ColumnValues::finish`]; an error hands the rows from the
    /// batch's first on to DataFusion's reader).
    fn finish_columns(&mut self) -> Result<()> {
        self.columns.iter_mut().try_for_each(finish_column)
    }

    /// Where DataFusion's reader takes over after an error ([`Self::resume_row`]), and how
    /// many of the rows it gives reading the row group whole lie before that row (`None`:
    /// not known, the rows before it are to be skipped by a row selection). Without
    /// `pushdown_filters` its reader gives every row, less those on pages the page index
    /// rules out (the same pages this reader rules out); with it, the rows the predicate
    /// holds for, which late materialisation has counted (the rows given).
    pub(super) fn resume(&mut self) -> Result<(usize, Option<usize>)> {
        let from = self.resume_row()?;
        let pages = self.file.page_selections.get(&self.row_group);
        let drop = match (&self.mode, self.shared.scan.skip_unwanted_pages) {
            (_, false) => Some(match pages {
                Some(pages) => pages.slice(0, from.min(pages.len())).count_set_bits(),
                None => from,
            }),
            (Rows::Selected { next, .. }, true) => Some(*next),
            (Rows::Every { .. }, true) => None,
        };
        Ok((from, drop))
    }

    /// The batches made and not yet given.
    pub(super) fn take_ready(&mut self) -> VecDeque<RecordBatch> {
        std::mem::take(&mut self.ready)
    }

    /// The scan's output of a batch of the columns read: its projection's expressions, as
    /// DataFusion's reader evaluates them.
    fn project(&self, batch: &RecordBatch) -> Result<RecordBatch> {
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
}

impl Others {
    /// Once every row of the row group is read: an error when its pages hold more (a page
    /// header claiming more values than the footer's rows, read on as DataFusion's reader
    /// reads on, and fails on), so that the row group is DataFusion's reader's.
    fn finish(&mut self) -> Result<()> {
        match self.reader.next() {
            None => Ok(()),
            Some(Err(err)) => Err(err.into()),
            Some(Ok(_)) => Err(not_full().into()),
        }
    }

    /// The next `len` rows, as arrow-rs's reader gives them (a batch of the batch size).
    fn next_batch(&mut self, len: usize) -> Result<RecordBatch> {
        let batch = match self.reader.next() {
            Some(batch) => batch?,
            None => return Err(not_full().into()),
        };
        if batch.num_rows() != len {
            return Err(not_full().into());
        }
        Ok(batch)
    }
}

/// The next `len` rows of `column` (`start`: the first one's place, for a column read whole).
fn read_column(
    column: &mut Column,
    read: &ReadColumn,
    others: Option<&RecordBatch>,
    len: usize,
    start: usize,
) -> Result<ArrayRef> {
    Ok(match column {
        Column::Tensor {
            values,
            child,
            size,
        } => {
            let values = values.next_array(len * *size)?;
            Arc::new(FixedSizeListArray::try_new(
                Arc::clone(child),
                *size as i32,
                values,
                None,
            )?)
        }
        Column::Variable(reader) => reader.next_array(len)?,
        Column::Whole(array) => array.slice(start, len),
        // The reader gives the roots in file order; the scan reads them in its own. Another
        // type than the table's: DataFusion's reader.
        Column::Other => match others.and_then(|batch| batch.column_by_name(&read.name)) {
            Some(array) if array.data_type() == &read.data_type => Arc::clone(array),
            _ => return Err(not_full().into()),
        },
    })
}

/// A column's pages after the values taken read ([`ColumnValues::finish`]).
fn finish_column(column: &mut Column) -> Result<()> {
    match column {
        Column::Tensor { values, .. } => values.finish(),
        Column::Variable(reader) => reader.finish(),
        Column::Other | Column::Whole(_) => Ok(()),
    }
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
