//! A local file read through a memory map ([`MappedFile`]): a row group's column chunks are
//! slices of the page cache, decoded (or decompressed) from there, instead of first copied
//! into buffers of the process by the object store's reads (`pread`).
//!
//! Profiled over `sum(tensor_sum(x))` of 512 MB of float32 [16, 16] (snappy, page-cached;
//! `benches/compare/scale.py`), that first copy was a quarter of the samples (`_copy_to_iter`)
//! and the fresh pages it filled 4% more (`clear_page_erms`); each byte then went through
//! memory twice more (decompressed, then decoded). Without it, two partitions read the file in
//! 0.057 s instead of 0.078 s. A row group's mapped chunks are announced to the kernel when
//! the one before it is decoded (`MADV_WILLNEED`), so a file that is not in the page cache is
//! read from disk while the scan decodes: the I/O overlaps the decoding as the object store's
//! read-ahead made it.
//!
//! Mapped only: a file of a `file:///` store (DataFusion's `LocalFileSystem` at the root, as
//! every session registers it), with `tensor.map_files` on (the default), whose size is the
//! size DataFusion listed. A map that fails leaves the file to the object store's reads.

use std::ops::Range;
use std::sync::Arc;

use bytes::Bytes;
use datafusion::object_store::ObjectStore;
use datafusion::object_store::local::LocalFileSystem;
use datafusion::object_store::path::Path;
#[cfg(unix)]
use memmap2::Advice;
use memmap2::Mmap;

/// Whether `store` (the scan's, for `url`) reads files of the local file system at their
/// absolute paths: DataFusion's `LocalFileSystem` at the root, alone or inside
/// `datafusion-cli`'s object-store instrumentation when that records nothing. `ObjectStore`
/// has no downcast, so the store is known by how it prints itself; any other store (a
/// prefixed root, an instrumented one that records requests, a remote one) is read by its
/// own reads.
pub(crate) fn is_local_root(store: &dyn ObjectStore, url: &str) -> bool {
    const LOCAL: &str = "LocalFileSystem(file:///)";
    let printed = store.to_string();
    url == "file:///"
        && (printed == LOCAL
            || printed
                == format!("Instrumented Object Store: instrument_mode: Disabled, inner: {LOCAL}"))
}

/// A local file mapped into memory, whole.
#[derive(Debug)]
pub(super) struct MappedFile {
    map: Arc<Mmap>,
}

/// A range of a [`MappedFile`], as the bytes of a [`Bytes`] (which keeps the map alive).
struct Slice {
    map: Arc<Mmap>,
    range: Range<usize>,
}

impl AsRef<[u8]> for Slice {
    fn as_ref(&self) -> &[u8] {
        &self.map[self.range.clone()]
    }
}

/// `range` of `map` as [`Bytes`] that keep the map alive (no copy); also the tensor files'
/// buffers (`crate::files`). `range` must lie inside the map.
pub(crate) fn map_bytes(map: &Arc<Mmap>, range: Range<usize>) -> Bytes {
    Bytes::from_owner(Slice {
        map: Arc::clone(map),
        range,
    })
}

impl MappedFile {
    /// The file at `location` (a path of the root `LocalFileSystem`) mapped, when it is a
    /// regular file of `size` bytes (the size DataFusion listed and this reader planned
    /// with); `None` otherwise, or when it cannot be opened or mapped.
    pub(super) fn open(location: &Path, size: u64) -> Option<Self> {
        let path = LocalFileSystem::new().path_to_filesystem(location).ok()?;
        let file = std::fs::File::open(path).ok()?;
        let metadata = file.metadata().ok()?;
        if !metadata.is_file() || metadata.len() != size || size == 0 {
            return None;
        }
        // SAFETY: the map is read only, as `&[u8]` slices. The bytes are the file's; another
        // process writing the file while it is mapped changes what is read (as it changes
        // what a `pread` returns), and one truncating it ends this process with SIGBUS where
        // a page past the new end is read: `tensor.map_files = false` for files rewritten in
        // place while they are queried (docs/src/library.md, "Session settings").
        let map = unsafe { Mmap::map(&file) }.ok()?;
        (map.len() as u64 == size).then(|| Self { map: Arc::new(map) })
    }

    /// Maps `ranges` of the file into the process's page tables now (`MADV_POPULATE_READ`,
    /// reading them from disk first where they are not in the page cache), on a thread of
    /// its own, so that the scan decoding them does not take each page's fault.
    pub(super) async fn populate(self: &Arc<Self>, ranges: &[Range<u64>]) {
        let file = Arc::clone(self);
        let ranges = ranges.to_vec();
        let populate = move || {
            for range in ranges {
                let (Ok(start), Ok(end)) =
                    (usize::try_from(range.start), usize::try_from(range.end))
                else {
                    continue;
                };
                if start < end && end <= file.map.len() {
                    advise(&file.map, start..end, true);
                }
            }
        };
        let _ = tokio::task::spawn_blocking(populate).await;
    }

    /// The bytes of each of `ranges` (inside the file: the callers check them against its
    /// size), announced to the kernel as needed soon, so that what is not in the page cache
    /// is read while the scan decodes what came before.
    pub(super) fn ranges(&self, ranges: &[Range<u64>]) -> Option<Vec<Bytes>> {
        ranges
            .iter()
            .map(|range| {
                let start = usize::try_from(range.start).ok()?;
                let end = usize::try_from(range.end).ok()?;
                if start > end || end > self.map.len() {
                    return None;
                }
                advise(&self.map, start..end, false);
                Some(map_bytes(&self.map, start..end))
            })
            .collect()
    }
}

/// Tells the kernel that `range` of `map` is read soon (`MADV_WILLNEED`), or has it mapped in
/// now (`populate`: `MADV_POPULATE_READ`, Linux 5.14 on; elsewhere `MADV_WILLNEED`). Advice
/// only: a kernel that refuses it, or a system without `madvise`, reads the pages when they
/// are touched.
fn advise(map: &Mmap, range: Range<usize>, populate: bool) {
    #[cfg(target_os = "linux")]
    let advice = if populate {
        Advice::PopulateRead
    } else {
        Advice::WillNeed
    };
    #[cfg(all(unix, not(target_os = "linux")))]
    let advice = {
        let _ = populate;
        Advice::WillNeed
    };
    #[cfg(unix)]
    let _ = map.advise_range(advice, range.start, range.len());
    #[cfg(not(unix))]
    let _ = (map, range, populate);
}
