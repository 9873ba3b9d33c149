//! A row group's fetched column chunks ([`Fetched`]): the byte ranges of the file a reader
//! may ask for, handed to arrow-rs's readers as their `ChunkReader`; and the error of a file
//! found corrupt ([`Corrupt`]), which the scan returns as it is.

use std::fmt;

use bytes::{Buf, Bytes};
use datafusion::common::DataFusionError;
use datafusion::parquet::errors::ParquetError;

/// A file found corrupt (or hostile) by one of this reader's checks, where DataFusion's reader
/// would panic (arrow-rs trusts the field: a dictionary-encoded page before any dictionary, a
/// level run header longer than a varint can be) or allocate what the file cannot hold (a
/// byte range past its end). Any other error of this reader hands the row group to
/// DataFusion's reader, which words it; this one is the scan's error as it is.
#[derive(Debug)]
pub(super) struct Corrupt(pub(super) String);

impl fmt::Display for Corrupt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Corrupt {}

/// A [`Corrupt`] file's error, as the page readers return errors.
pub(super) fn corrupt(message: String) -> ParquetError {
    ParquetError::External(Box::new(Corrupt(message)))
}

/// The message of the [`Corrupt`] that `err` is or wraps, if any.
pub(super) fn corrupt_message(err: &DataFusionError) -> Option<String> {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(err);
    while let Some(error) = source {
        if let Some(corrupt) = error.downcast_ref::<Corrupt>() {
            return Some(corrupt.0.clone());
        }
        source = error.source();
    }
    None
}
use datafusion::parquet::file::reader::{ChunkReader, Length};

/// A row group's fetched column chunks: the byte ranges of the file a reader may ask for.
#[derive(Clone)]
pub(super) struct Fetched {
    pub(super) size: u64,
    /// (file offset, bytes) of each column chunk.
    pub(super) chunks: Vec<(u64, Bytes)>,
}

impl fmt::Debug for Fetched {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Fetched")
            .field("size", &self.size)
            .field("chunks", &self.chunks.len())
            .finish()
    }
}

impl Fetched {
    pub(super) fn slice(&self, start: u64, length: Option<usize>) -> Result<Bytes, ParquetError> {
        for (offset, bytes) in &self.chunks {
            let end = offset.saturating_add(bytes.len() as u64);
            // A read at the end of one chunk is the start of the next (adjacent chunks).
            if start >= *offset && (start < end || (start == end && length == Some(0))) {
                let from = (start - offset) as usize;
                let to = match length {
                    Some(length) => from.checked_add(length).filter(|&to| to <= bytes.len()),
                    None => Some(bytes.len()),
                };
                if let Some(to) = to {
                    return Ok(bytes.slice(from..to));
                }
            }
        }
        Err(ParquetError::General(format!(
            "read of bytes {start}..{} outside the column chunks fetched",
            length.map_or("end".to_string(), |l| start
                .saturating_add(l as u64)
                .to_string())
        )))
    }
}

impl Length for Fetched {
    fn len(&self) -> u64 {
        self.size
    }
}

impl ChunkReader for Fetched {
    type T = bytes::buf::Reader<Bytes>;

    fn get_read(&self, start: u64) -> Result<Self::T, ParquetError> {
        Ok(self.slice(start, None)?.reader())
    }

    fn get_bytes(&self, start: u64, length: usize) -> Result<Bytes, ParquetError> {
        self.slice(start, Some(length))
    }
}
