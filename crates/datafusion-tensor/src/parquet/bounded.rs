//! An object store that refuses reads past the end of the Parquet files it was told the size
//! of ([`BoundedStore`]).
//!
//! A corrupt or hostile footer can give a column chunk a size of 6e9 bytes, or an index an
//! offset of 2^40, in a file of a few KB. `object_store` 0.13 allocates (and zero-fills) the
//! whole range it is asked for before it finds the file shorter: DataFusion's reader, asked to
//! read such a footer's page index or column chunk, would take the machine's memory. The file
//! sizes are known before any read (the listing's `ObjectMeta`), so the scan and the schema
//! and statistics inference of [`super::format`] hand DataFusion this store instead, which
//! fails such a read at once; the fast reader checks its own ranges before it asks.

use std::collections::HashMap;
use std::fmt;
use std::ops::Range;
use std::sync::Arc;

use async_trait::async_trait;
use bytes::Bytes;
use datafusion::object_store::path::Path;
use datafusion::object_store::{
    CopyOptions, Error, GetOptions, GetRange, GetResult, ListResult, MultipartUpload, ObjectMeta,
    ObjectStore, PutMultipartOptions, PutOptions, PutPayload, PutResult, RenameOptions, Result,
};
use futures::stream::BoxStream;

/// `inner`, with every ranged read of a file of known size checked to lie inside it (module
/// docs); any other call passed on as it is.
#[derive(Debug)]
pub(crate) struct BoundedStore {
    inner: Arc<dyn ObjectStore>,
    /// The size of each file the reads are checked for.
    sizes: HashMap<Path, u64>,
}

impl BoundedStore {
    /// `inner` with reads of the files of `objects` checked (`inner` itself when there are
    /// none).
    pub(crate) fn wrap<'a>(
        inner: Arc<dyn ObjectStore>,
        objects: impl IntoIterator<Item = &'a ObjectMeta>,
    ) -> Arc<dyn ObjectStore> {
        let sizes: HashMap<Path, u64> = objects
            .into_iter()
            .map(|object| (object.location.clone(), object.size))
            .collect();
        if sizes.is_empty() {
            return inner;
        }
        Arc::new(Self { inner, sizes })
    }

    /// An error when `range` of `location` lies past the end of the file.
    fn check(&self, location: &Path, range: &Range<u64>) -> Result<()> {
        match self.sizes.get(location) {
            Some(&size) if range.start > range.end || range.end > size => Err(Error::Generic {
                store: "BoundedStore",
                source: format!(
                    "bytes {}..{} of '{location}' are past the end of the file ({size} bytes): its Parquet footer is corrupt",
                    range.start, range.end
                )
                .into(),
            }),
            _ => Ok(()),
        }
    }
}

impl fmt::Display for BoundedStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // As the wrapped store: errors and `quoted` in `super::format` print the store.
        fmt::Display::fmt(&self.inner, f)
    }
}

#[async_trait]
impl ObjectStore for BoundedStore {
    async fn put_opts(
        &self,
        location: &Path,
        payload: PutPayload,
        opts: PutOptions,
    ) -> Result<PutResult> {
        self.inner.put_opts(location, payload, opts).await
    }

    async fn put_multipart_opts(
        &self,
        location: &Path,
        opts: PutMultipartOptions,
    ) -> Result<Box<dyn MultipartUpload>> {
        self.inner.put_multipart_opts(location, opts).await
    }

    async fn get_opts(&self, location: &Path, options: GetOptions) -> Result<GetResult> {
        match &options.range {
            Some(GetRange::Bounded(range)) => self.check(location, range)?,
            Some(GetRange::Offset(offset)) => self.check(location, &(*offset..*offset))?,
            _ => {}
        }
        self.inner.get_opts(location, options).await
    }

    async fn get_ranges(&self, location: &Path, ranges: &[Range<u64>]) -> Result<Vec<Bytes>> {
        for range in ranges {
            self.check(location, range)?;
        }
        self.inner.get_ranges(location, ranges).await
    }

    fn delete_stream(
        &self,
        locations: BoxStream<'static, Result<Path>>,
    ) -> BoxStream<'static, Result<Path>> {
        self.inner.delete_stream(locations)
    }

    fn list(&self, prefix: Option<&Path>) -> BoxStream<'static, Result<ObjectMeta>> {
        self.inner.list(prefix)
    }

    fn list_with_offset(
        &self,
        prefix: Option<&Path>,
        offset: &Path,
    ) -> BoxStream<'static, Result<ObjectMeta>> {
        self.inner.list_with_offset(prefix, offset)
    }

    async fn list_with_delimiter(&self, prefix: Option<&Path>) -> Result<ListResult> {
        self.inner.list_with_delimiter(prefix).await
    }

    async fn copy_opts(&self, from: &Path, to: &Path, options: CopyOptions) -> Result<()> {
        self.inner.copy_opts(from, to, options).await
    }

    async fn rename_opts(&self, from: &Path, to: &Path, options: RenameOptions) -> Result<()> {
        self.inner.rename_opts(from, to, options).await
    }
}
