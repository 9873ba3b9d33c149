//! numpy's `.npz` archives (`np.savez`, `np.savez_compressed`): one row per array, named as
//! `np.load(...).files` names it (the member's name without `.npy`), in archive order. A
//! stored member's values are read from the map where they are; a compressed member is
//! inflated when its row is read, and only then.

use std::io::{Cursor, Read};
use std::path::PathBuf;
use std::sync::Arc;

use arrow::datatypes::SchemaRef;
use datafusion::error::{DataFusionError, Result};
use zip::{CompressionMethod, ZipArchive};

use super::named::{self, Data, Entry, ReadEntry};
use super::npy::{parse_header, parse_header_in};
use super::source::{Mapped, TensorFile};

/// The table over the `.npz` files `paths`.
pub(crate) fn table(
    function: &str,
    paths: &[PathBuf],
) -> Result<(SchemaRef, Vec<Arc<dyn TensorFile>>)> {
    named::open_all(function, paths, entries)
}

/// The arrays of the archive `map`.
fn entries(map: &Mapped) -> Result<Vec<Entry>, String> {
    let mut archive = ZipArchive::new(Cursor::new(map.bytes()))
        .map_err(|err| format!("not a valid .npz (zip) archive: {err}"))?;
    let mut entries = Vec::with_capacity(archive.len());
    for index in 0..archive.len() {
        let mut member = archive
            .by_index(index)
            .map_err(|err| format!("cannot read member {index}: {err}"))?;
        if member.is_dir() {
            continue;
        }
        let member_name = member.name().map_err(|err| err.to_string())?.into_owned();
        let name = member_name
            .strip_suffix(".npy")
            .unwrap_or(&member_name)
            .to_string();
        let size = usize::try_from(member.size()).unwrap_or(usize::MAX);
        let in_member = |err: String| format!("member '{member_name}': {err}");
        let (header, data) = if member.compression() == CompressionMethod::Stored {
            let start =
                usize::try_from(member.data_start().unwrap_or(u64::MAX)).unwrap_or(usize::MAX);
            let bytes = start
                .checked_add(size)
                .and_then(|end| map.bytes().get(start..end))
                .ok_or_else(|| in_member("its data runs past the archive's end".into()))?;
            let header = parse_header(bytes).map_err(in_member)?;
            let range = start + header.data_offset..start + header.data_offset + header.data_len;
            (header, Data::Mapped(range))
        } else {
            // The header is in the member's first bytes: inflate those only.
            let mut head = Vec::new();
            (&mut member)
                .take(1 << 16)
                .read_to_end(&mut head)
                .map_err(|err| in_member(err.to_string()))?;
            let header = parse_header_in(&head, size).map_err(in_member)?;
            let read = Compressed {
                map: map.clone(),
                index,
                member: member_name,
                data_offset: header.data_offset,
                data_len: header.data_len,
            };
            (header, Data::Read(Arc::new(read)))
        };
        let entry = Entry {
            name,
            dtype: header.dtype,
            bytes: header.data_len,
            fortran: header.fortran && header.shape.len() > 1,
            shape: header.shape,
            encoding: header.encoding,
            data,
        };
        entries.push(entry);
    }
    Ok(entries)
}

/// A compressed member, inflated when its row is read.
#[derive(Debug)]
struct Compressed {
    map: Mapped,
    index: usize,
    member: String,
    data_offset: usize,
    data_len: usize,
}

impl ReadEntry for Compressed {
    fn read(&self) -> Result<Vec<u8>> {
        let fail = |err: String| {
            DataFusionError::Execution(format!("read_npz: member '{}': {err}", self.member))
        };
        let mut archive =
            ZipArchive::new(Cursor::new(self.map.bytes())).map_err(|err| fail(err.to_string()))?;
        let member = archive
            .by_index(self.index)
            .map_err(|err| fail(err.to_string()))?;
        let want = self.data_offset + self.data_len;
        // Read no more than the header declares (a lying archive cannot make this allocate
        // more than the header's sizes, which the archive's own sizes bounded).
        let mut bytes = Vec::new();
        member
            .take(want as u64)
            .read_to_end(&mut bytes)
            .map_err(|err| fail(err.to_string()))?;
        if bytes.len() < want {
            return Err(fail(format!(
                "truncated: {} bytes of data declared, {} inflated",
                self.data_len,
                bytes.len().saturating_sub(self.data_offset)
            )));
        }
        bytes.drain(..self.data_offset);
        Ok(bytes)
    }
}
