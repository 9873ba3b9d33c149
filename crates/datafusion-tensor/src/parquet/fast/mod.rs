//! A faster read of tensor columns from Parquet.
//!
//! A tensor column is stored in Parquet as a list of its elements: one repetition and one
//! definition level per element besides the value. arrow-rs reads such a column as a general
//! nested list: it decodes both levels, builds a validity bitmap of the elements from the
//! definition levels, walks the levels once more to find the lists and check their lengths, and
//! builds a second bitmap for the lists: a third of the whole scan, which finds nothing in the
//! common case (no NULL tensor, no NULL element). docs/src/architecture.md has the measurements.
//!
//! This reader checks the levels where they lie, page by page, in their RLE/bit-packed
//! encoding (module `levels`: a run of the maximum definition level is one comparison; the
//! repetition levels are compared with the mask of list starts 64 at a time), and hands
//! arrow-rs's column reader each page's values alone, as pages of a required column: arrow-rs
//! decodes the values (plain, dictionary, every encoding it knows) straight into one buffer,
//! which becomes the `FixedSizeListArray`'s values as it is.
//!
//! A row group whose levels say anything but full tensors (a NULL tensor or element, a list of
//! another length), or that fails to read at all, is read again by DataFusion's own reader
//! (the file with an access plan that scans that row group alone), so NULLs, corrupt pages and
//! their errors are DataFusion's.
//!
//! What it serves: every projected or filtered column a plain column of the table whose type
//! in the file is the table's, at least one of them a tensor (`FixedSizeList`) of any element
//! type the crate supports (every integer type, Float16/32/64, Boolean) stored as arrow-rs
//! reads it; no partition or virtual columns, no encryption, no access plan or other extension
//! on the file. A file that fails these checks is read by DataFusion's Parquet reader as
//! before; so is every scan of a session with `tensor.fast_parquet = false`
//! ([`crate::config::TensorOptions`]; the scan, `super::scan`, does not call [`maybe_fast`]
//! then), to compare the two.
//!
//! - The other columns of the scan (a label, an id) are read by arrow-rs's own reader from the
//!   same fetched row group, into the same batches.
//! - A scan with a predicate (a `WHERE` on the scanned columns) returns only the rows it holds
//!   for: the predicate is evaluated on each row group as read, and its rows filtered before
//!   they leave the scan, whether or not DataFusion pushed the filter down (without push-down
//!   its `FilterExec` above finds every row holding). A volatile predicate (`random()`) is left
//!   to DataFusion's reader: evaluated twice it would filter twice.
//! - A scan with a limit and no predicate reads at most that many rows of a row group, and
//!   DataFusion's file stream stops asking for row groups once it has them; with a predicate
//!   (DataFusion gives the scan the limit only when the filter is pushed down), late
//!   materialisation decodes the tensors of at most that many of the rows it holds for.
//!
//! Row groups that a predicate rules out by their statistics or bloom filters are skipped, as
//! DataFusion's reader skips them. In the rest the predicate is evaluated first, on the columns
//! it reads (read whole), and the other tensor columns are gathered for the rows it holds for
//! alone (late materialisation): the values of the other rows are not copied, and a row group
//! where it holds for no row decodes no tensor. With `pushdown_filters` (where DataFusion's
//! reader applies a filter's rows to the other columns) a page holding no such row is not
//! decoded either (its levels still checked), nor even read when the file's offset index
//! locates it (`enable_page_index`: the pages read must then hold the rows the index gives
//! them, so a wrong index is caught where it would misplace values); without it every page is
//! decoded, as DataFusion's reader decodes it (a corrupt page it would fail on fails here too).
//!
//! A row group is read by the scan partition whose byte range holds the middle of its bytes
//! (DataFusion's reader takes its first page: a cut just after a row group's start gave it to
//! the partition before, see `open::middle_byte`), so a file's row groups are read on all
//! cores, evenly.
//!
//! Variable-shape tensor columns (`arrow.variable_shape_tensor`, storage `Struct<data:
//! List<T>, shape: FixedSizeList<Int32>[ndim]>`, the same element types) are read here too.
//! arrow-rs reads them as nested lists, decoding both levels of every element and building
//! validity bitmaps of the struct, of both lists and of their items. Here the `data` chunk's
//! levels are checked page by page as encoded, as a fixed-shape tensor's are, and its lists'
//! offsets found in its repetition levels run by run (`levels::list_starts`: a run of 1s
//! lengthens the current list, a 0 starts the next; a variable-shape image's levels are a few
//! runs); its values are decoded as a fixed-shape tensor's are, into one buffer per row group
//! that the batches' lists slice, and the `shape` chunk is read as a fixed-shape tensor of
//! `ndim` Int32s. The struct is assembled with the table's types (field metadata, the
//! extension's, is the schema's): 8x DataFusion's reader on variable-shape images (measured:
//! docs/src/benchmarks/choices.md). A row group where any tensor is NULL, its
//! `data` or `shape` list NULL, an element NULL or a tensor of no elements (an empty list) is
//! DataFusion's, as above. What differs from fixed-shape columns:
//!
//! - With a predicate and a fixed-shape tensor column that it does not read, a variable-shape
//!   column is read whole with the columns it reads and then filtered to its rows (not
//!   decoded late): where its rows' values lie is known only once its levels are read.
//! - With a limit, the levels of the rows read are read first to count their values; only
//!   those values are then decoded.
//! - A row group is read here up to 1 GiB of decoded tensor values when the scan reads a
//!   variable-shape column (pyarrow writes row groups of up to 1,048,576 images); 256 MiB
//!   otherwise.
//!
//! The folder, in the order a scan goes through it:
//! - [`plan`]: which scans this reader serves, and what it reads for them ([`columns`]: the
//!   columns' element types and layouts);
//! - [`open`]: a file's footer and page index, and where each column read is in it;
//! - [`prune`]: row groups and pages ruled out by statistics, bloom filters and page index;
//! - [`fetch`]: a file's row groups as morsels, their column chunks fetched ([`fetched`]), or
//!   sliced from the file mapped into memory ([`mapped`]), and counted in the session's memory
//!   pool, DataFusion's reader for what this one leaves;
//! - [`row_group`]: a fetched row group decoded into the scan's batches, the predicate
//!   applied; [`variable`]: variable-shape columns' lists;
//! - [`chunk`]: one column chunk's pages, their levels checked ([`levels`], on the encoded
//!   levels), handed on as values alone;
//! - page decoding, one file per family: [`decode`] (the entry point, and arrow-rs's column
//!   reader for the other encodings), [`pages`] (plain and dictionary numbers, looked up in
//!   [`dictionary`]), [`float16`], [`boolean`]; each decodes a step at a time into
//!   [`pending`]'s values, a batch taken when asked for.
//!
//! The modules import downwards only: `levels`, `dictionary`, `fetched`, `columns`, `mapped` →
//! `plan`, `chunk`, `prune` → `pending` → `pages`, `float16`, `boolean` → `decode` →
//! `variable`, `open` → `row_group` → `fetch`.

mod boolean;
mod chunk;
mod columns;
mod decode;
mod dictionary;
mod fetch;
mod fetched;
mod float16;
mod levels;
mod located;
mod mapped;
pub(crate) use mapped::map_bytes;
mod open;
mod pages;
mod pending;
mod plan;
mod prune;
mod row_group;
mod variable;

use std::sync::Arc;

use datafusion::common::Result;
use datafusion::datasource::listing::PartitionedFile;
use datafusion::datasource::physical_plan::{FileScanConfig, FileSource};
use datafusion::execution::memory_pool::MemoryPool;
use datafusion::object_store::ObjectStore;
use datafusion::physical_plan::metrics::{Count, MetricBuilder, Time};
use datafusion_datasource::morsel::{MorselPlanner, Morselizer};

use fetch::OpenFile;
use plan::{ScanPlan, plan_scan};

pub(crate) use mapped::is_local_root;

/// The largest row group (its projected tensor values, decoded) this reader reads; larger
/// ones are DataFusion's reader's. A 131,072-row group of four 4x4 float32 tensors is 32 MiB.
const MAX_DECODED_ROW_GROUP_BYTES: u64 = 256 << 20;

/// The same limit for a scan that reads a variable-shape tensor column. pyarrow writes row
/// groups of up to 1,048,576 rows: 100,000 images of 3 x (16..64) x (16..64) uint8 are one row
/// group of 480 MB. DataFusion's reader holds such a row group's fetched column chunk whole
/// too (as large as the decoded values for dictionary-encoded bytes), so this reader holds
/// about twice what it holds, not more.
const MAX_DECODED_VARIABLE_ROW_GROUP_BYTES: u64 = 1 << 30;

/// How one scan partition's reads go.
#[derive(Debug, Clone, Default)]
pub struct ReadOptions {
    /// The scan's batch size (8,192 rows when `None`), cut for wide tensors
    /// ([`TARGET_BATCH_BYTES`]).
    pub batch_size: Option<usize>,
    /// The session's memory pool, where what a row group's read holds is counted.
    pub memory_pool: Option<Arc<dyn MemoryPool>>,
    /// Whether the scan's files are local files this reader may map into memory instead of
    /// fetching their row groups through the object store (`tensor.map_files`, and a store
    /// that reads the local file system at its root: [`is_local_root`]).
    pub map_files: bool,
    /// Whether (with `map_files`) a mapped row group's pages are mapped into the page tables
    /// on a thread of their own while the row group before it is decoded (`MADV_POPULATE_READ`), so that
    /// the decoding takes no page faults. Worth it when the scan leaves cores idle (fewer
    /// partitions than cores), not otherwise (measured: docs/src/benchmarks/choices.md).
    pub prefault: bool,
    /// The scan partition, for its metrics.
    pub partition: usize,
}

/// `inner` (the Parquet source's own morselizer), or this reader in front of it when the scan
/// qualifies (module docs).
pub fn maybe_fast(
    inner: Box<dyn Morselizer>,
    source: &dyn FileSource,
    object_store: Arc<dyn ObjectStore>,
    config: &FileScanConfig,
    options: ReadOptions,
) -> Box<dyn Morselizer> {
    let Some(scan) = plan_scan(source, config) else {
        return inner;
    };
    let batch_size = batch_rows(&scan, options.batch_size.unwrap_or(8192));
    let metrics = || MetricBuilder::new(source.metrics());
    Box::new(FastMorselizer {
        inner: Arc::from(inner),
        shared: Arc::new(Shared {
            store: object_store,
            scan,
            batch_size,
            memory_pool: options.memory_pool,
            map_files: options.map_files,
            prefault: options.prefault,
            fast: metrics().global_counter("tensor_row_groups_fast"),
            fallback: metrics().global_counter("tensor_row_groups_fallback"),
            mapped_bytes: metrics().global_counter("tensor_bytes_mapped"),
            fetched_bytes: metrics().global_counter("tensor_bytes_fetched"),
            fetch_time: metrics().subset_time("tensor_fetch_time", options.partition),
        }),
    })
}

/// The batch of a scan whose widest fixed-shape tensor column holds more than this many bytes
/// at the session's `batch_size` is cut to fewer rows (never fewer than
/// [`MIN_BATCH_ROWS`]). The functions over a batch write their results into buffers of about
/// its size: small enough, they stay in the CPU caches between one function and the next
/// (`x * 2.0 + y`: the product is read back by the sum), and the allocator keeps reusing them
/// instead of mapping fresh pages from the OS for each batch. See `benches/compare/math.py`
/// and docs/src/benchmarks/tensor-math.md for what it changed.
pub(crate) const TARGET_BATCH_BYTES: u64 = 1 << 20;

/// The fewest rows a batch is cut to by [`TARGET_BATCH_BYTES`].
const MIN_BATCH_ROWS: u64 = 64;

/// The rows of a batch of `scan` (see [`TARGET_BATCH_BYTES`]), at most `batch_size`.
fn batch_rows(scan: &ScanPlan, batch_size: usize) -> usize {
    let widest = scan
        .columns
        .iter()
        .filter_map(|c| c.tensor.as_ref())
        .map(|t| (t.size as u64).saturating_mul(t.element.width()))
        .max()
        .unwrap_or(0);
    let capped = match TARGET_BATCH_BYTES.checked_div(widest) {
        Some(rows) => rows.max(MIN_BATCH_ROWS),
        None => u64::MAX,
    };
    usize::try_from(capped)
        .unwrap_or(usize::MAX)
        .min(batch_size)
        .max(1)
}

/// What every planner and morsel of one scan partition shares.
#[derive(Debug)]
struct Shared {
    store: Arc<dyn ObjectStore>,
    scan: ScanPlan,
    batch_size: usize,
    /// The session's memory pool, where what a row group's read holds is counted.
    memory_pool: Option<Arc<dyn MemoryPool>>,
    /// Whether files are mapped ([`ReadOptions::map_files`]).
    map_files: bool,
    /// Whether mapped row groups are faulted in ahead ([`ReadOptions::prefault`]).
    prefault: bool,
    /// Row groups read here, and read again by DataFusion's reader (the scan's metrics).
    fast: Count,
    fallback: Count,
    /// Column-chunk bytes read from a memory map ([`mapped`]) and fetched through the object
    /// store, and the time the fetches took (whether or not decoding waited on them: a row
    /// group is fetched while the one before it is decoded).
    mapped_bytes: Count,
    fetched_bytes: Count,
    fetch_time: Time,
}

#[derive(Debug)]
struct FastMorselizer {
    inner: Arc<dyn Morselizer>,
    shared: Arc<Shared>,
}

impl Morselizer for FastMorselizer {
    fn plan_file(&self, file: PartitionedFile) -> Result<Box<dyn MorselPlanner>> {
        if !file.extensions.is_empty() {
            // A caller's access plan, row selection or anything else attached to the file:
            // DataFusion's reader honours them, this one would not.
            return self.inner.plan_file(file);
        }
        Ok(Box::new(OpenFile {
            file,
            inner: Arc::clone(&self.inner),
            shared: Arc::clone(&self.shared),
        }))
    }
}
