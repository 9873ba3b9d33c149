//! A file's offset index checked against the column chunks it locates pages in, before the
//! index is used.
//!
//! DataFusion's reader, once it has read a file's page index (to prune pages by a
//! predicate), reads every page of a column chunk where the offset index puts it (arrow-rs's
//! page reader with page locations). It takes a page's rows as the difference of two first
//! rows where it prunes pages by the predicate's columns, and where it skips rows of a row
//! group that pruning left in part. The fast reader reads a chunk by its index only when the
//! index is as a writer writes it ([`trusted`]); a row group with any other index is
//! DataFusion's reader's to read, as DataFusion reads it (it fails on a page header that is
//! not where the index says, and reads what it finds otherwise). An index on which arrow-rs
//! or DataFusion's pruning would panic (or, in a release build, count a page's rows by a
//! wrapped subtraction) is the query's error, before the index is used: a page outside its
//! column chunk ([`refuse_outside`]), first rows that fall where they are subtracted
//! ([`refuse_falling`]).

use datafusion::common::{DataFusionError, Result};
use datafusion::parquet::file::metadata::{ColumnChunkMetaData, ParquetMetaData};
use datafusion::parquet::file::page_index::offset_index::PageLocation;

/// The byte range of column chunk `chunk` as its footer gives it.
fn chunk_bytes(chunk: &ColumnChunkMetaData) -> (i64, i64) {
    let start = chunk
        .dictionary_page_offset()
        .unwrap_or_else(|| chunk.data_page_offset());
    (start, start.saturating_add(chunk.compressed_size()))
}

/// Whether `locations`, an offset index's pages of column chunk `chunk` of a row group of
/// `rows` rows, are as a writer writes them: the pages in order inside the chunk, each of some
/// bytes, their first rows rising from 0 below `rows`.
fn as_written(locations: &[PageLocation], chunk: &ColumnChunkMetaData, rows: usize) -> bool {
    let (start, end) = chunk_bytes(chunk);
    let (mut offset, mut row) = (start, -1i64);
    locations
        .first()
        .is_some_and(|first| first.first_row_index == 0)
        && locations.iter().all(|page| {
            let page_end = page
                .offset
                .saturating_add(i64::from(page.compressed_page_size));
            let ok = page.offset >= offset
                && page.compressed_page_size > 0
                && page_end <= end
                && page.first_row_index > row
                && usize::try_from(page.first_row_index).is_ok_and(|first| first < rows);
            (offset, row) = (page_end, page.first_row_index);
            ok
        })
}

/// Why a page of `locations` lies outside column chunk `chunk`, if one does.
fn outside(locations: &[PageLocation], chunk: &ColumnChunkMetaData) -> Option<String> {
    let (start, end) = chunk_bytes(chunk);
    locations.iter().enumerate().find_map(|(number, page)| {
        let page_end = page
            .offset
            .saturating_add(i64::from(page.compressed_page_size));
        (page.offset < start || page_end > end || page.compressed_page_size < 0).then(|| {
            format!(
                "page {number} at bytes {}..{page_end}, outside its column chunk (bytes {start}..{end})",
                page.offset
            )
        })
    })
}

/// Why the rows of the pages of `locations` (a row group of `rows` rows) cannot be counted as
/// DataFusion's pruning and arrow-rs's row skipping count them (the next page's first row, or
/// the row group's rows, less the page's, as unsigned numbers), if they cannot.
fn falling(locations: &[PageLocation], rows: usize) -> Option<String> {
    // `as`: the same reinterpretation of a negative first row as theirs.
    #[allow(clippy::cast_sign_loss, clippy::cast_possible_truncation)]
    let firsts: Vec<usize> = locations
        .iter()
        .map(|page| page.first_row_index as usize)
        .chain([rows])
        .collect();
    firsts.windows(2).enumerate().find_map(|(number, pair)| {
        (pair[1] < pair[0]).then(|| {
            format!(
                "page {number} starts at row {}, after the next page's first row or the row group's end ({})",
                locations[number].first_row_index, pair[1]
            )
        })
    })
}

/// The offset index's locations of the pages of column chunk `leaf` of row group
/// `row_group`, when the index was read and holds them.
pub(super) fn locations(
    metadata: &ParquetMetaData,
    row_group: usize,
    leaf: usize,
) -> Option<&[PageLocation]> {
    let index = metadata.offset_index()?.get(row_group)?.get(leaf)?;
    Some(index.page_locations().as_slice())
}

/// The first column chunk of `leaves` in `row_groups` whose offset index `fault` finds at
/// fault (given its locations, the chunk and the row group's rows), if any: its row group,
/// its column chunk, and why.
fn first_fault<'m>(
    metadata: &'m ParquetMetaData,
    leaves: &[usize],
    row_groups: &[usize],
    fault: impl Fn(&[PageLocation], &ColumnChunkMetaData, usize) -> Option<String>,
) -> Option<(usize, &'m ColumnChunkMetaData, String)> {
    row_groups.iter().find_map(|&row_group| {
        let group = metadata.row_group(row_group);
        let rows = usize::try_from(group.num_rows()).unwrap_or(0);
        leaves.iter().find_map(|&leaf| {
            let why = fault(
                locations(metadata, row_group, leaf)?,
                group.column(leaf),
                rows,
            )?;
            Some((row_group, group.column(leaf), why))
        })
    })
}

/// The query's error for the first of `leaves` in `row_groups` whose offset index `fault`
/// finds at fault, if any.
fn refuse(
    metadata: &ParquetMetaData,
    leaves: &[usize],
    row_groups: &[usize],
    fault: impl Fn(&[PageLocation], &ColumnChunkMetaData, usize) -> Option<String>,
) -> Result<()> {
    match first_fault(metadata, leaves, row_groups, fault) {
        Some((row_group, chunk, why)) => Err(DataFusionError::Execution(format!(
            "corrupt Parquet page index: the offset index of column '{}' in row group {row_group} does not locate its pages: {why}",
            chunk.column_path().string()
        ))),
        None => Ok(()),
    }
}

/// The query's error when the offset index puts a page of a column chunk of `leaves` in
/// `row_groups` outside its chunk (arrow-rs slices the chunk's bytes by it, and panics).
pub(super) fn refuse_outside(
    metadata: &ParquetMetaData,
    leaves: &[usize],
    row_groups: &[usize],
) -> Result<()> {
    refuse(metadata, leaves, row_groups, |locations, chunk, _| {
        outside(locations, chunk)
    })
}

/// The query's error when the first rows of the offset index's pages of a column chunk of
/// `leaves` in `row_groups` fall (or pass the row group's rows), where they are subtracted:
/// the predicate's columns as pages are pruned by them, every column read of a row group
/// pruning leaves in part.
pub(super) fn refuse_falling(
    metadata: &ParquetMetaData,
    leaves: &[usize],
    row_groups: &[usize],
) -> Result<()> {
    refuse(metadata, leaves, row_groups, |locations, _, rows| {
        falling(locations, rows)
    })
}

/// Checks that the offset index, if read, is as a writer writes it for every column chunk of
/// row group `row_group` the scan reads: an error otherwise (not a corrupt file's: the row
/// group is then DataFusion's reader's, which reads by the index).
pub(super) fn trusted(
    metadata: &ParquetMetaData,
    leaves: &[usize],
    row_group: usize,
) -> Result<()> {
    let fault = |locations: &[PageLocation], chunk: &ColumnChunkMetaData, rows| {
        (!as_written(locations, chunk, rows)).then(String::new)
    };
    match first_fault(metadata, leaves, &[row_group], fault) {
        Some((_, chunk, _)) => Err(DataFusionError::Execution(format!(
            "the offset index of column '{}' is not as a writer writes it: DataFusion's reader reads the row group",
            chunk.column_path().string()
        ))),
        None => Ok(()),
    }
}
