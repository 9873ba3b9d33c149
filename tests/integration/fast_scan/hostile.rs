//! Hostile and corrupt Parquet files against the fast reader: page headers that claim more
//! values than their column chunk holds, level runs that never end, footers whose row counts
//! and byte ranges lie, and the fields arrow-rs trusts (and panics on). Each file is a small
//! file written by arrow-rs with one part rewritten: a page (its header re-encoded here, in
//! Thrift's compact protocol) or the footer (through the parquet crate's metadata builders).
//!
//! The query must give what DataFusion's own reader gives (or fail where it fails), never
//! hang (each query runs on a thread of its own, given [`TIMEOUT`]) nor allocate gigabytes
//! (the test binary's allocator refuses any one allocation past 1 GiB, see `main.rs`).

use std::ops::Range;
use std::sync::Arc;
use std::time::Duration;

use arrow::array::{ArrayRef, BooleanArray, Float16Array, Float32Array, Int16Array, UInt8Array};
use arrow::datatypes::DataType;
use bytes::Bytes;
use datafusion::parquet::file::metadata::{
    FileMetaData, ParquetMetaData, ParquetMetaDataBuilder, ParquetMetaDataReader,
    ParquetMetaDataWriter,
};

use super::*;

/// The longest a query of these tests may take.
const TIMEOUT: Duration = Duration::from_mins(1);

// Thrift compact protocol: just enough to find a page header's fields.

/// One field of a Thrift struct: its id, type and where its value lies.
#[derive(Debug, Clone)]
struct ThriftField {
    id: i16,
    value: Range<usize>,
}

fn varint(buf: &[u8], pos: &mut usize) -> u64 {
    let mut value = 0u64;
    let mut shift = 0;
    loop {
        let byte = buf[*pos];
        *pos += 1;
        value |= u64::from(byte & 0x7f) << shift;
        shift += 7;
        if byte & 0x80 == 0 {
            return value;
        }
    }
}

fn zigzag(value: u64) -> i64 {
    (value >> 1) as i64 ^ -((value & 1) as i64)
}

fn encode_varint(mut value: u64) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let byte = (value & 0x7f) as u8;
        value >>= 7;
        if value == 0 {
            out.push(byte);
            return out;
        }
        out.push(byte | 0x80);
    }
}

fn encode_i32(value: i32) -> Vec<u8> {
    encode_varint(u64::from(((value << 1) ^ (value >> 31)) as u32))
}

/// Skips a value of compact type `kind` at `pos`.
fn skip(buf: &[u8], pos: &mut usize, kind: u8) {
    match kind {
        1 | 2 => {}
        3 => *pos += 1,
        4..=6 => {
            varint(buf, pos);
        }
        7 => *pos += 8,
        8 => {
            let len = varint(buf, pos) as usize;
            *pos += len;
        }
        9 | 10 => {
            let header = buf[*pos];
            *pos += 1;
            let mut size = u64::from(header >> 4);
            if size == 15 {
                size = varint(buf, pos);
            }
            for _ in 0..size {
                let element = header & 0x0f;
                if element == 1 || element == 2 {
                    *pos += 1;
                } else {
                    skip(buf, pos, element);
                }
            }
        }
        11 => {
            let size = varint(buf, pos);
            if size > 0 {
                let types = buf[*pos];
                *pos += 1;
                for _ in 0..size {
                    skip(buf, pos, types >> 4);
                    skip(buf, pos, types & 0x0f);
                }
            }
        }
        12 => {
            read_struct(buf, pos);
        }
        _ => panic!("thrift type {kind}"),
    }
}

/// The fields of the struct at `pos`, `pos` moved past it.
fn read_struct(buf: &[u8], pos: &mut usize) -> Vec<ThriftField> {
    let mut fields = Vec::new();
    let mut last = 0i16;
    loop {
        let header = buf[*pos];
        *pos += 1;
        if header == 0 {
            return fields;
        }
        let kind = header & 0x0f;
        let delta = header >> 4;
        let id = if delta == 0 {
            zigzag(varint(buf, pos)) as i16
        } else {
            last + i16::from(delta)
        };
        last = id;
        let start = *pos;
        skip(buf, pos, kind);
        fields.push(ThriftField {
            id,
            value: start..*pos,
        });
    }
}

/// A page of a column chunk: where its header and its body lie in the file, and the header's
/// fields.
#[derive(Debug)]
struct PageAt {
    header: Range<usize>,
    body: Range<usize>,
    fields: Vec<ThriftField>,
}

impl PageAt {
    /// The page type (0 data, 2 dictionary, 3 data v2).
    fn kind(&self, file: &[u8]) -> i64 {
        let field = self.fields.iter().find(|f| f.id == 1).unwrap();
        zigzag(varint(file, &mut field.value.start.clone()))
    }
}

/// The pages of column chunk `column` of row group `group`.
fn pages(file: &[u8], metadata: &ParquetMetaData, group: usize, column: usize) -> Vec<PageAt> {
    let (start, len) = metadata.row_group(group).column(column).byte_range();
    let (mut pos, end) = (start as usize, (start + len) as usize);
    let mut pages = Vec::new();
    while pos < end {
        let header_start = pos;
        let fields = read_struct(file, &mut pos);
        let size = fields.iter().find(|f| f.id == 3).unwrap();
        let size = zigzag(varint(file, &mut size.value.start.clone())) as usize;
        pages.push(PageAt {
            header: header_start..pos,
            body: pos..pos + size,
            fields,
        });
        pos += size;
    }
    pages
}

/// A page header's first three fields: the page type `kind` (0 data, 2 dictionary) and
/// `body`'s length as both its uncompressed and compressed size.
fn page_header_start(kind: i32, body: &[u8]) -> Vec<u8> {
    let len = encode_i32(body.len() as i32);
    let mut page = vec![0x15];
    page.extend(encode_i32(kind));
    page.push(0x15);
    page.extend(&len);
    page.push(0x15);
    page.extend(&len);
    page
}

/// A version-1 data page: its header (`num_values`, the values' `encoding`) and `body`.
fn data_page_v1(num_values: i32, encoding: i32, body: &[u8]) -> Vec<u8> {
    let mut page = page_header_start(0, body);
    // Field 5, a struct: the data page header.
    page.push(0x2c);
    page.push(0x15);
    page.extend(encode_i32(num_values));
    page.push(0x15);
    page.extend(encode_i32(encoding));
    // Definition and repetition levels: RLE.
    page.push(0x15);
    page.extend(encode_i32(3));
    page.push(0x15);
    page.extend(encode_i32(3));
    page.push(0);
    page.push(0);
    page.extend(body);
    page
}

/// A dictionary page of `count` plain values `body`.
fn dictionary_page(count: i32, body: &[u8]) -> Vec<u8> {
    let mut page = page_header_start(2, body);
    // Field 7, a struct: the dictionary page header (its values plain).
    page.push(0x4c);
    page.push(0x15);
    page.extend(encode_i32(count));
    page.push(0x15);
    page.extend(encode_i32(0));
    page.push(0);
    page.push(0);
    page.extend(body);
    page
}

/// An RLE run of `count` values `value` of `width_bytes` bytes.
fn rle(count: u64, value: u32, width_bytes: usize) -> Vec<u8> {
    let mut run = encode_varint(count << 1);
    run.extend(&value.to_le_bytes()[..width_bytes]);
    run
}

/// Level data after its 4-byte length (a version-1 page's level section).
fn section(data: &[u8]) -> Vec<u8> {
    let mut out = (data.len() as u32).to_le_bytes().to_vec();
    out.extend(data);
    out
}

/// The footer of a Parquet file, and where it starts.
fn footer(file: &[u8]) -> (ParquetMetaData, usize) {
    let metadata = ParquetMetaDataReader::new()
        .parse_and_finish(&Bytes::from(file.to_vec()))
        .unwrap();
    let tail = &file[file.len() - 8..file.len() - 4];
    let start = file.len() - 8 - u32::from_le_bytes(tail.try_into().unwrap()) as usize;
    (metadata, start)
}

/// `file` with `range` (inside its column chunks) replaced by `with`, and its footer
/// rewritten to match: every offset after the range moved, the column chunk holding it
/// resized, its page indexes and bloom filters dropped; then `edit` applied to it.
fn splice(
    file: &[u8],
    range: Range<usize>,
    with: &[u8],
    edit: impl FnOnce(ParquetMetaData) -> ParquetMetaData,
) -> Vec<u8> {
    let (metadata, _) = footer(file);
    let delta = with.len() as i64 - range.len() as i64;
    let data_end = metadata
        .row_groups()
        .iter()
        .flat_map(datafusion::parquet::file::metadata::RowGroupMetaData::columns)
        .map(|c| {
            let (start, len) = c.byte_range();
            (start + len) as usize
        })
        .max()
        .unwrap();
    let mut out = file[..range.start].to_vec();
    out.extend(with);
    out.extend(&file[range.end..data_end]);
    let moved = |offset: i64| {
        if offset >= range.end as i64 {
            offset + delta
        } else {
            offset
        }
    };
    let mut builder = metadata.into_builder();
    let groups = builder
        .take_row_groups()
        .into_iter()
        .map(|group| {
            let mut changed = group.into_builder();
            let columns = changed
                .take_columns()
                .into_iter()
                .map(|column| {
                    let (start, len) = column.byte_range();
                    let holds =
                        (start as usize) <= range.start && range.start < (start + len) as usize;
                    let grow = if holds { delta } else { 0 };
                    column
                        .clone()
                        .into_builder()
                        .set_data_page_offset(moved(column.data_page_offset()))
                        .set_dictionary_page_offset(column.dictionary_page_offset().map(moved))
                        .set_total_compressed_size(column.compressed_size() + grow)
                        .set_total_uncompressed_size(column.uncompressed_size() + grow)
                        .set_offset_index_offset(None)
                        .set_offset_index_length(None)
                        .set_column_index_offset(None)
                        .set_column_index_length(None)
                        .set_bloom_filter_offset(None)
                        .set_bloom_filter_length(None)
                        .build()
                        .unwrap()
                })
                .collect();
            changed.set_column_metadata(columns).build().unwrap()
        })
        .collect();
    let metadata = edit(builder.set_row_groups(groups).build());
    ParquetMetaDataWriter::new(&mut out, &metadata)
        .finish()
        .unwrap();
    out
}

/// `file` with its footer replaced by `edit` of it (the data, page indexes and bloom filters
/// kept where they are).
fn edit_footer(file: &[u8], edit: impl FnOnce(ParquetMetaData) -> ParquetMetaData) -> Vec<u8> {
    let (metadata, start) = footer(file);
    let mut out = file[..start].to_vec();
    ParquetMetaDataWriter::new(&mut out, &edit(metadata))
        .finish()
        .unwrap();
    out
}

/// `metadata` with column chunk `column` of row group `group` rebuilt by `change`.
fn change_column(
    metadata: ParquetMetaData,
    group: usize,
    column: usize,
    change: impl FnOnce(
        datafusion::parquet::file::metadata::ColumnChunkMetaDataBuilder,
    ) -> datafusion::parquet::file::metadata::ColumnChunkMetaDataBuilder,
) -> ParquetMetaData {
    let mut builder = metadata.into_builder();
    let mut groups = builder.take_row_groups();
    let mut changed = groups[group].clone().into_builder();
    let mut columns = changed.take_columns();
    columns[column] = change(columns[column].clone().into_builder())
        .build()
        .unwrap();
    groups[group] = changed.set_column_metadata(columns).build().unwrap();
    builder.set_row_groups(groups).build()
}

/// `metadata` with the row count of the file and of every row group `rows`.
fn with_rows(metadata: ParquetMetaData, rows: i64) -> ParquetMetaData {
    let file = metadata.file_metadata();
    let file = FileMetaData::new(
        file.version(),
        rows,
        file.created_by().map(str::to_string),
        file.key_value_metadata().cloned(),
        file.schema_descr_ptr(),
        file.column_orders().cloned(),
    );
    let mut builder = metadata.into_builder();
    let groups: Vec<_> = builder
        .take_row_groups()
        .into_iter()
        .map(|group| group.into_builder().set_num_rows(rows).build().unwrap())
        .collect();
    ParquetMetaDataBuilder::new(file)
        .set_row_groups(groups)
        .build()
}

/// Writes `file` as `name` in `dir`; its path.
fn save(dir: &tempfile::TempDir, name: &str, file: &[u8]) -> String {
    let path = dir.path().join(name);
    std::fs::write(&path, file).unwrap();
    path.to_str().unwrap().to_string()
}

/// `sql` by this crate's context (the fast reader on, or off: `fast = false`) on a thread of
/// its own: its result, or a failure of the test when it takes longer than [`TIMEOUT`] (a
/// reader spinning in a loop never yields to a timer of its own runtime).
fn guarded(path: &str, sql: &str, fast: bool) -> Result<Vec<RecordBatch>, String> {
    let (path, query) = (path.to_string(), sql.to_string());
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let (path, sql) = (path, query);
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let result = runtime.block_on(async {
            if fast {
                tensor_query(&path, 1, &sql).await
            } else {
                let ctx = context(1);
                ctx.sql("SET tensor.fast_parquet = false").await.unwrap();
                let sql = sql.replace(" t", &format!(" '{path}'"));
                match ctx.sql(&sql).await {
                    Ok(df) => df.collect().await.map_err(|e| e.to_string()),
                    Err(e) => Err(e.to_string()),
                }
            }
        });
        let _ = send.send(result);
    });
    receive
        .recv_timeout(TIMEOUT)
        .unwrap_or_else(|_| panic!("{sql}: no answer in {TIMEOUT:?} (a reader that hangs)"))
}

/// DataFusion's own reader (its own format: not this crate's) on a thread of its own, a
/// panic taken as its failure.
fn guarded_datafusion(path: &str, sql: &str) -> Result<Vec<RecordBatch>, String> {
    let (path, query) = (path.to_string(), sql.to_string());
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let result = runtime.block_on(datafusion_query_unwound(&path, &query));
        let _ = send.send(result);
    });
    receive
        .recv_timeout(TIMEOUT)
        .unwrap_or_else(|_| panic!("{sql}: DataFusion's reader gave no answer in {TIMEOUT:?}"))
}

/// The rows of a query's batches, as text (to compare results).
fn rows(batches: &[RecordBatch]) -> Vec<String> {
    let text = arrow::util::pretty::pretty_format_batches(batches)
        .unwrap()
        .to_string();
    // The table's lines between its header and its last border.
    text.lines()
        .skip(3)
        .filter(|line| !line.starts_with('+'))
        .map(str::to_string)
        .collect()
}

/// Asserts that the fast reader gives what DataFusion's own reader gives, or fails where it
/// fails, and never by a panic caught in the scan; its error, if any.
fn same_as_datafusion(path: &str, sql: &str, case: &str) -> Option<String> {
    let got = guarded(path, sql, true);
    let expected = guarded_datafusion(path, sql);
    match (got, expected) {
        (Ok(got), Ok(expected)) => {
            assert_eq!(rows(&got), rows(&expected), "{case}: {sql}");
            None
        }
        (Err(err), Err(_)) => {
            assert!(!err.contains("malformed file"), "{case}: {sql}: {err}");
            Some(err)
        }
        (got, expected) => panic!(
            "{case}: {sql}: the query gave {:?}, DataFusion's reader {:?}",
            got.map(|b| rows(&b)),
            expected.map(|b| rows(&b))
        ),
    }
}

/// Properties of the small files here: one row group, one page per column chunk, a
/// dictionary when `dictionary`, no page index, no statistics.
fn small(dictionary: bool) -> WriterProperties {
    WriterProperties::builder()
        .set_writer_version(WriterVersion::PARQUET_1_0)
        .set_compression(Compression::UNCOMPRESSED)
        .set_dictionary_enabled(dictionary)
        .set_statistics_enabled(datafusion::parquet::file::properties::EnabledStatistics::None)
        .set_offset_index_disabled(true)
        .build()
}

/// 8 rows: `label` (0..8) and `x`, tensors of one element of `values`'s type.
fn one_element_table(values: ArrayRef) -> RecordBatch {
    table(vec![
        (
            "label",
            Arc::new(arrow::array::Int32Array::from_iter_values(0..8)),
        ),
        ("x", list(values, 1, true, None)),
    ])
}

/// A data page of `count` full one-element tensors whose values are the dictionary's first
/// entry (`width_bytes`-byte indices: `RLE_DICTIONARY`), or RLE booleans: every run one
/// RLE run of `count`.
fn claiming_page(count: u64, max_def: u32, boolean: bool) -> Vec<u8> {
    let mut body = section(&rle(count, 0, 1));
    body.extend(section(&rle(count, max_def, 1)));
    if boolean {
        body.extend(section(&rle(count, 1, 1)));
        data_page_v1(count as i32, 3, &body)
    } else {
        body.push(1);
        body.extend(rle(count, 0, 1));
        data_page_v1(count as i32, 8, &body)
    }
}

/// Defect: a data page claiming 2^31 - 1 values in a chunk of 8 one-element tensors (its level
/// and value runs as long) made the fast reader reserve and fill gigabytes (uint8, int16,
/// float16 and boolean tensors; float32 ones under a `WHERE`). A page may claim no more values
/// than its column chunk has left: the file's error. (DataFusion's own reader reads such a
/// page's 2^31 records, in batches, for minutes: it is not run on it.)
#[test]
fn a_page_claiming_more_values_than_its_chunk_holds_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&str, ArrayRef, &str); 5] = [
        (
            "uint8",
            Arc::new(UInt8Array::from_iter_values(0..8)),
            "SELECT x FROM t",
        ),
        (
            "int16",
            Arc::new(Int16Array::from_iter_values(0..8)),
            "SELECT x FROM t",
        ),
        (
            "float16",
            Arc::new(Float16Array::from_iter_values(
                (0..8).map(|v| half::f16::from_f32(v as f32)),
            )),
            "SELECT x FROM t",
        ),
        (
            "boolean",
            Arc::new((0..8).map(|v| Some(v % 2 == 0)).collect::<BooleanArray>()),
            "SELECT x FROM t",
        ),
        (
            "float32",
            Arc::new(Float32Array::from_iter_values((0..8).map(|v| v as f32))),
            "SELECT x FROM t WHERE label >= 0",
        ),
    ];
    for (kind, values, sql) in cases {
        let boolean = values.data_type() == &DataType::Boolean;
        let clean = std::fs::read(write(
            &dir,
            &format!("clean_{kind}.parquet"),
            &one_element_table(values),
            small(!boolean),
        ))
        .unwrap();
        let (metadata, _) = footer(&clean);
        let chunk = pages(&clean, &metadata, 0, 1);
        let data = chunk.iter().find(|page| page.kind(&clean) == 0).unwrap();
        // arrow-rs writes no dictionary for float16: one of a single entry (1.0) is added.
        let dictionary = if boolean || chunk.iter().any(|page| page.kind(&clean) == 2) {
            Vec::new()
        } else {
            dictionary_page(1, &[0x00, 0x3c])
        };
        let start = data.header.start as i64;
        let with_dictionary = |metadata: ParquetMetaData| {
            if dictionary.is_empty() {
                metadata
            } else {
                change_column(metadata, 0, 1, |column| {
                    column.set_dictionary_page_offset(Some(start))
                })
            }
        };
        let page = [dictionary.clone(), claiming_page((1 << 31) - 1, 3, boolean)].concat();
        let file = splice(
            &clean,
            data.header.start..data.body.end,
            &page,
            with_dictionary,
        );
        let path = save(&dir, &format!("{kind}.parquet"), &file);
        let err = guarded(&path, sql, true).expect_err(kind);
        assert!(
            err.contains(&format!("{kind}.parquet"))
                && err.contains("row group 0")
                && err.contains("a data page claims 2147483647 values, more than the 8 left"),
            "{kind}: {err}"
        );
        // The same page claiming the chunk's 8 values reads: the check is of the count.
        let page = [dictionary.clone(), claiming_page(8, 3, boolean)].concat();
        let file = splice(
            &clean,
            data.header.start..data.body.end,
            &page,
            with_dictionary,
        );
        let path = save(&dir, &format!("{kind}_8.parquet"), &file);
        assert_eq!(same_as_datafusion(&path, sql, kind), None, "{kind}");
    }
}

/// 16 rows: `label` (0..16) and `x`, uint8 tensors of 4 elements, no dictionary.
fn uint8_table() -> RecordBatch {
    table(vec![
        (
            "label",
            Arc::new(arrow::array::Int32Array::from_iter_values(0..16)),
        ),
        (
            "x",
            list(
                Arc::new(UInt8Array::from_iter_values((0..64).map(|v| v as u8))),
                4,
                true,
                None,
            ),
        ),
    ])
}

/// The data page of [`uint8_table`]'s `x` as written here: repetition levels `rep`,
/// definition levels all 3 (one RLE run), plain values.
fn uint8_page(rep: &[u8]) -> Vec<u8> {
    let mut body = section(rep);
    body.extend(section(&rle(64, 3, 1)));
    for v in 0..64u32 {
        body.extend(v.to_le_bytes());
    }
    data_page_v1(64, 0, &body)
}

/// [`uint8_table`]'s file with `x`'s data page replaced by `page`.
fn with_uint8_page(clean: &[u8], page: &[u8]) -> Vec<u8> {
    let (metadata, _) = footer(clean);
    let data = pages(clean, &metadata, 0, 1)
        .into_iter()
        .find(|page| page.kind(clean) == 0)
        .unwrap();
    splice(clean, data.header.start..data.body.end, page, |m| m)
}

/// The repetition levels of 16 tensors of 4 as one bit-packed run (8 groups of 8: 0 1 1 1).
fn good_rep() -> Vec<u8> {
    let mut rep = vec![17];
    rep.extend([0xee; 8]);
    rep
}

/// Defect: a zeroed page body, or corrupt level runs (a run of no levels, a bit-packed run of
/// 2^30 groups, a header of more than 10 bytes) spun forever under a `WHERE`: the fast reader
/// handed the row group to DataFusion's reader from the first row the predicate holds for,
/// and arrow-rs's skip of the rows before it never ends on repetition levels that end early
/// (its header of more than 10 bytes panics). Levels arrow-rs cannot read are the file's
/// error; the query ends, failing as DataFusion's reader fails.
#[test]
fn corrupt_level_runs_fail_and_never_hang() {
    let dir = tempfile::tempdir().unwrap();
    let clean = std::fs::read(write(&dir, "clean.parquet", &uint8_table(), small(false))).unwrap();
    // The page as written here reads (the control).
    let path = save(
        &dir,
        "good.parquet",
        &with_uint8_page(&clean, &uint8_page(&good_rep())),
    );
    for sql in ["SELECT x, label FROM t WHERE label >= 4", "SELECT x FROM t"] {
        assert_eq!(same_as_datafusion(&path, sql, "good"), None);
    }
    let zeroed = {
        let mut page = uint8_page(&good_rep());
        let header = page.len() - ((4 + 9) + (4 + 3) + 64 * 4);
        page[header..].fill(0);
        page
    };
    let cases: [(&str, Vec<u8>); 5] = [
        ("zeroed", zeroed),
        ("zero_run", uint8_page(&[vec![0, 0], good_rep()].concat())),
        (
            "long_varint",
            uint8_page(&[vec![0xff; 10], vec![0x01], good_rep()].concat()),
        ),
        (
            "huge_packed",
            uint8_page(&[encode_varint((1 << 31) | 1), vec![0xee; 8]].concat()),
        ),
        ("cut", uint8_page(&good_rep()[..4])),
    ];
    for (case, page) in cases {
        let path = save(
            &dir,
            &format!("{case}.parquet"),
            &with_uint8_page(&clean, &page),
        );
        for sql in [
            "SELECT x, label FROM t WHERE label >= 4",
            "SELECT x FROM t WHERE label >= 0",
            "SELECT x FROM t",
        ] {
            let err = same_as_datafusion(&path, sql, case);
            assert!(err.is_some(), "{case}: {sql}: read");
        }
    }
}

/// Defect: a footer's row count was trusted. `num_rows` of 2^40 over 8 rows made late
/// materialisation size its buffers by it (terabytes); `num_rows` of 1 over 13 rows gave no
/// row where DataFusion's reader gives 13. A row group whose column chunks do not hold its
/// footer's row count is DataFusion's reader's.
#[test]
fn a_footer_row_count_the_chunks_do_not_bear_out_is_not_trusted() {
    let dir = tempfile::tempdir().unwrap();
    let clean = std::fs::read(write(&dir, "clean.parquet", &uint8_table(), small(false))).unwrap();
    for (name, rows) in [("huge", 1i64 << 40), ("one", 1), ("fewer", 13)] {
        let file = edit_footer(&clean, |metadata| with_rows(metadata, rows));
        let path = save(&dir, &format!("{name}.parquet"), &file);
        for sql in [
            "SELECT x, label FROM t WHERE label >= 0",
            "SELECT x, label FROM t WHERE label >= 4",
            "SELECT x FROM t",
        ] {
            same_as_datafusion(&path, sql, name);
        }
    }
}

/// Defect: byte ranges past the file's end were fetched. A column chunk's size of 6e9 bytes
/// (or a start of 2^40) in a file of a few KB made the object store allocate the range; the
/// fast reader's page index read did the same with an index offset of 2^40. A column chunk
/// outside the file is the query's error; a file whose page index lies outside it is
/// DataFusion's reader's (read as it reads it).
#[test]
fn byte_ranges_past_the_file_end_are_not_fetched() {
    let dir = tempfile::tempdir().unwrap();
    let props = WriterProperties::builder()
        .set_compression(Compression::UNCOMPRESSED)
        .set_data_page_row_count_limit(4)
        .set_write_batch_size(4)
        .build();
    let clean_path = write(&dir, "clean.parquet", &uint8_table(), props);
    let clean = std::fs::read(&clean_path).unwrap();
    let sql = "SELECT x, label FROM t WHERE label >= 4";
    let expected = rows(&guarded(&clean_path, sql, true).unwrap());
    assert_eq!(expected.len(), 12);
    let chunks: [(&str, i64, i64); 2] = [("size", 0, 6_000_000_000), ("start", 1 << 40, 0)];
    for (name, start, size) in chunks {
        let file = edit_footer(&clean, |metadata| {
            let built = metadata.row_group(0).column(1).clone();
            change_column(metadata, 0, 1, |column| {
                let column = if size > 0 {
                    column.set_total_compressed_size(size)
                } else {
                    column
                };
                if start > 0 {
                    column
                        .set_data_page_offset(start + built.data_page_offset())
                        .set_dictionary_page_offset(
                            built.dictionary_page_offset().map(|d| d + start),
                        )
                } else {
                    column
                }
            })
        });
        let path = save(&dir, &format!("{name}.parquet"), &file);
        for sql in [sql, "SELECT x FROM t"] {
            let err = guarded(&path, sql, true).expect_err(name);
            assert!(
                err.contains(&format!("{name}.parquet")) && err.contains("outside the file"),
                "{name}: {err}"
            );
        }
    }
    for (name, offset) in [
        ("offset_index", 1i64 << 40),
        ("column_index", 6_000_000_000),
    ] {
        let file = edit_footer(&clean, |metadata| {
            change_column(metadata, 0, 1, |column| {
                if name == "offset_index" {
                    column.set_offset_index_offset(Some(offset))
                } else {
                    column.set_column_index_offset(Some(offset))
                }
            })
        });
        let path = save(&dir, &format!("{name}.parquet"), &file);
        // The same with DataFusion's reader through this crate's format (DataFusion's own
        // format would read the index: the test binary refuses such an allocation).
        let got = guarded(&path, sql, true).map(|b| rows(&b));
        let stock = guarded(&path, sql, false).map(|b| rows(&b));
        assert_eq!(got, stock, "{name}");
        if let Ok(got) = got {
            assert_eq!(got, expected, "{name}");
        }
    }
}

/// A clean uint8 file (its bytes) and a copy of it, `negative.parquet`, whose second column
/// chunk claims to start at byte -5 (arrow-rs asserts on it).
fn negative_offset_file(dir: &tempfile::TempDir) -> (Vec<u8>, String) {
    let clean = std::fs::read(write(dir, "clean.parquet", &uint8_table(), small(true))).unwrap();
    let file = edit_footer(&clean, |metadata| {
        change_column(metadata, 0, 1, |column| {
            column
                .set_data_page_offset(-5)
                .set_dictionary_page_offset(Some(-5))
        })
    });
    let path = save(dir, "negative.parquet", &file);
    (clean, path)
}

/// Defect: fields arrow-rs trusts made it panic inside the scan (caught, but a panic message
/// printed): a negative column chunk offset, a dictionary-encoded page with no dictionary page
/// before it. They are checked first: the query fails with this crate's error, naming file,
/// row group and column, and no panic.
#[test]
fn fields_arrow_rs_trusts_are_checked_first() {
    let dir = tempfile::tempdir().unwrap();
    let (clean, path) = negative_offset_file(&dir);
    for sql in ["SELECT x FROM t", "SELECT x, label FROM t WHERE label >= 4"] {
        let err = guarded(&path, sql, true).expect_err("negative");
        assert!(
            err.contains("negative.parquet")
                && err.contains("outside the file")
                && !err.contains("malformed file"),
            "{err}"
        );
    }
    // The dictionary page cut out of `x`'s chunk (uint8: decoded here; float32: by arrow-rs's
    // column reader).
    let float32 = table(vec![
        (
            "label",
            Arc::new(arrow::array::Int32Array::from_iter_values(0..16)),
        ),
        (
            "x",
            list(
                Arc::new(Float32Array::from_iter_values((0..64).map(|v| v as f32))),
                4,
                true,
                None,
            ),
        ),
    ]);
    let clean32 = std::fs::read(write(&dir, "clean32.parquet", &float32, small(true))).unwrap();
    for (name, clean) in [("uint8", &clean), ("float32", &clean32)] {
        let (metadata, _) = footer(clean);
        let dictionary = pages(clean, &metadata, 0, 1)
            .into_iter()
            .find(|page| page.kind(clean) == 2)
            .unwrap();
        let file = splice(
            clean,
            dictionary.header.start..dictionary.body.end,
            &[],
            |metadata| {
                change_column(metadata, 0, 1, |column| {
                    column.set_dictionary_page_offset(None)
                })
            },
        );
        let path = save(&dir, &format!("{name}_no_dictionary.parquet"), &file);
        for sql in ["SELECT x FROM t", "SELECT x, label FROM t WHERE label >= 4"] {
            let err = guarded(&path, sql, true).expect_err(name);
            assert!(
                err.contains("no dictionary page") && !err.contains("malformed file"),
                "{name}: {err}"
            );
        }
    }
}

/// Defect: a panic inside arrow-rs on DataFusion's reader path (`tensor.fast_parquet =
/// false`: a negative column chunk offset, which arrow-rs asserts on) was caught but printed
/// to stderr as a crash. The CLI prints only the query's error, naming the file.
#[test]
fn a_panic_in_arrow_rs_is_the_query_error_without_a_panic_message() {
    let dir = tempfile::tempdir().unwrap();
    let (_, path) = negative_offset_file(&dir);
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_datafusion-tensor"))
        .args([
            "-q",
            "-c",
            "SET tensor.fast_parquet = false",
            "-c",
            &format!("SELECT x FROM '{path}'"),
        ])
        .output()
        .unwrap();
    // The CLI prints a statement's error to stdout, as datafusion-cli does; stderr holds
    // what else is printed (a panic message, before this was fixed).
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{stdout}");
    assert!(
        stdout.contains("negative.parquet")
            && stdout.contains(
                "the Parquet reader failed on a malformed file: column start and length should not be negative"
            ),
        "{stdout}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// A small pyarrow file (`tests/data/make_bad_parquet.py`): `id` (0..24) and the tensors `x`
/// and `u`, several uncompressed pages each, dictionaries, statistics and page indexes.
const SMALL_TENSORS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/bad/small_tensors.parquet"
);

/// Defect: on corrupt files the two readers gave different rows under a `WHERE` (a bit flip
/// in a small pyarrow file; a definition level past the column's maximum). Every byte of
/// `small_tensors.parquet`'s column chunks flipped in turn (one bit of it, by its position),
/// under two predicates on `id` (late materialisation: the tensors decoded for the rows it
/// holds for): the fast reader gives DataFusion's reader's rows, or fails where it fails (by
/// an error, not a caught panic), and neither hangs. (Its page indexes are flipped in
/// [`every_page_index_byte_flipped_reads_as_datafusion_reads_it`].)
#[test]
fn every_byte_flipped_reads_as_datafusion_reads_it() {
    let clean = std::fs::read(SMALL_TENSORS).unwrap();
    let (metadata, _) = footer(&clean);
    let data_end = metadata
        .row_groups()
        .iter()
        .flat_map(datafusion::parquet::file::metadata::RowGroupMetaData::columns)
        .map(|column| {
            let (start, len) = column.byte_range();
            (start + len) as usize
        })
        .max()
        .unwrap();
    let queries = [
        "SELECT id, x, u FROM t WHERE id >= 5",
        "SELECT id, u FROM t WHERE id % 3 = 1",
    ];
    flip_each_byte(SMALL_TENSORS, &clean, 4..data_end, &queries);
}

/// Defect: a definition level past the column's maximum (7 where it is 3) in a tensor
/// column's page gave other rows than DataFusion's reader under a `WHERE`.
#[test]
fn a_definition_level_past_the_maximum_reads_as_datafusion_reads_it() {
    let dir = tempfile::tempdir().unwrap();
    let clean = std::fs::read(write(&dir, "clean.parquet", &uint8_table(), small(false))).unwrap();
    // Definition levels: 3 for the first 20 elements, 7 for 4, 3 for the rest.
    let def = [rle(20, 3, 1), rle(4, 7, 1), rle(40, 3, 1)].concat();
    let mut body = section(&good_rep());
    body.extend(section(&def));
    for v in 0..64u32 {
        body.extend(v.to_le_bytes());
    }
    let page = data_page_v1(64, 0, &body);
    let path = save(&dir, "def7.parquet", &with_uint8_page(&clean, &page));
    for sql in [
        "SELECT x, label FROM t WHERE label >= 4",
        "SELECT x, label FROM t WHERE label >= 6",
        "SELECT x, label FROM t WHERE label % 2 = 0",
        "SELECT x FROM t",
    ] {
        same_as_datafusion(&path, sql, "def7");
    }
}

/// Defect: a footer length of 0xfffffff0 made parquet 59's metadata decoder panic (caught,
/// its message printed). The length is checked first: the file's error, no panic, with the
/// fast reader on or off.
#[test]
fn a_footer_length_past_the_file_start_is_refused_without_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let mut file =
        std::fs::read(write(&dir, "clean.parquet", &uint8_table(), small(false))).unwrap();
    let at = file.len() - 8;
    file[at..at + 4].copy_from_slice(&0xffff_fff0u32.to_le_bytes());
    let path = save(&dir, "long_footer.parquet", &file);
    for fast in [true, false] {
        let err = guarded(&path, "SELECT x FROM t", fast).expect_err("a footer past the file");
        assert!(
            err.contains("long_footer.parquet")
                && err.contains("corrupt Parquet footer")
                && !err.contains("malformed file"),
            "{err}"
        );
    }
}

/// The same for a variable-shape tensor's `data` chunk, through both of its readers (uint8
/// values decoded here, float32 ones by arrow-rs's column reader): a page claiming 2^31 - 1
/// values (one list of them) in a chunk of a few is the file's error, before it is decoded.
#[test]
fn a_variable_shape_page_claiming_more_values_than_its_chunk_holds_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let shapes: Vec<Vec<i32>> = (0..8).map(|r| vec![1 + r % 3, 2]).collect();
    let count = total(&shapes);
    let columns: [(&str, ArrayRef); 2] = [
        (
            "uint8",
            Arc::new(UInt8Array::from_iter_values((0..count).map(|v| v as u8))),
        ),
        (
            "float32",
            Arc::new(Float32Array::from_iter_values((0..count).map(|v| v as f32))),
        ),
    ];
    for (kind, values) in columns {
        let batch = variable_table(vec![variable_column("x", values, &shapes, &[], &[])]);
        let clean = std::fs::read(write(
            &dir,
            &format!("clean_{kind}.parquet"),
            &batch,
            small(true),
        ))
        .unwrap();
        let (metadata, _) = footer(&clean);
        let max_def = metadata
            .file_metadata()
            .schema_descr()
            .column(0)
            .max_def_level() as u32;
        let data = pages(&clean, &metadata, 0, 0)
            .into_iter()
            .find(|page| page.kind(&clean) == 0)
            .unwrap();
        let claimed = (1u64 << 31) - 1;
        let mut body = section(&[rle(1, 0, 1), rle(claimed - 1, 1, 1)].concat());
        body.extend(section(&rle(claimed, max_def, 1)));
        body.push(1);
        body.extend(rle(claimed, 0, 1));
        let page = data_page_v1(claimed as i32, 8, &body);
        let file = splice(&clean, data.header.start..data.body.end, &page, |m| m);
        let path = save(&dir, &format!("{kind}.parquet"), &file);
        let err = guarded(&path, "SELECT x FROM t", true).expect_err(kind);
        assert!(
            err.contains(&format!("{kind}.parquet"))
                && err.contains("a data page claims 2147483647 values"),
            "{kind}: {err}"
        );
    }
}

/// Defect: a bit flipped in a file's page indexes (a column or offset index) made the two
/// readers differ under a `WHERE`: DataFusion's reader loads the page index to prune pages and
/// then reads every page where the offset index puts it (failing on a page header that is not
/// there), where the fast reader left out an index it could not decode or trust. Every byte
/// of `small_tensors.parquet`'s page indexes flipped in turn, under the two predicates of
/// [`every_byte_flipped_reads_as_datafusion_reads_it`] and one whose page pruning drops some
/// pages of `id` (a row group pruned in part): the fast reader gives DataFusion's
/// reader's rows, or fails where it fails (by this crate's error where DataFusion's reader
/// panics).
#[test]
fn every_page_index_byte_flipped_reads_as_datafusion_reads_it() {
    let clean = std::fs::read(SMALL_TENSORS).unwrap();
    let (metadata, footer_start) = footer(&clean);
    let index_start = metadata
        .row_groups()
        .iter()
        .flat_map(datafusion::parquet::file::metadata::RowGroupMetaData::columns)
        .flat_map(|column| [column.column_index_offset(), column.offset_index_offset()])
        .flatten()
        .min()
        .unwrap() as usize;
    // Pages pruned by `id`'s column index: none; those of rows 0-7; none possible.
    let queries = [
        "SELECT id, x, u FROM t WHERE id >= 5",
        "SELECT id, x FROM t WHERE id >= 12",
        "SELECT id, u FROM t WHERE id % 3 = 1",
    ];
    flip_each_byte(SMALL_TENSORS, &clean, index_start..footer_start, &queries);
}

/// Each byte of `bytes` of `clean` (the file at `source`) flipped in turn (one bit of it, by
/// its position), under each of `queries`: the fast reader gives DataFusion's reader's rows,
/// or fails where it fails (by an error, not a caught panic); some cases read, some fail.
fn flip_each_byte(source: &str, clean: &[u8], bytes: Range<usize>, queries: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    for sql in queries {
        assert_eq!(same_as_datafusion(source, sql, "clean"), None);
    }
    let (mut same, mut failed, mut wrong) = (0, 0, Vec::new());
    for at in bytes {
        let mut file = clean.to_vec();
        file[at] ^= 1 << (at % 8);
        let path = save(&dir, "flipped.parquet", &file);
        for sql in queries {
            let case = format!("byte {at}");
            match std::panic::catch_unwind(|| same_as_datafusion(&path, sql, &case)) {
                Ok(None) => same += 1,
                Ok(Some(_)) => failed += 1,
                Err(err) => wrong.push(
                    err.downcast_ref::<String>()
                        .cloned()
                        .unwrap_or_else(|| format!("{case}: {sql}")),
                ),
            }
        }
    }
    assert!(wrong.is_empty(), "{} cases differ: {wrong:#?}", wrong.len());
    assert!(same > 0 && failed > 0, "{same} read, {failed} failed");
    eprintln!("{same} read, {failed} failed");
}
