//! numpy's `.npy` format: the header, read and written, and a file's rows along axis 0.
//!
//! The header is parsed here rather than by `npyz`: its interpretation multiplies the declared
//! shape unchecked (a huge declared shape overflows) and allocates the declared header length
//! before reading it, and the files a tensor table reads have one grammar, numpy's
//! `{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }` (format versions 1 to 3,
//! <https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html>). Every size is
//! checked against the file before a byte is read (`fuzz/fuzz_targets/npy_header.rs`).

use std::fmt::Write as _;
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use arrow::array::{ArrayRef, RecordBatch};
use arrow::datatypes::{DataType, SchemaRef};
use datafusion::error::{DataFusionError, Result};

use super::paths::display;
use super::source::{Mapped, TensorFile, rows_batch, rows_of, rows_schema};
use super::values::{Encoding, mapped_values, owned_values};
use crate::shape::format_shape;
use crate::tensor_type::TensorType;

/// The header's length is bounded (numpy's `np.load` refuses headers past 10,000 bytes by
/// default; its own writers stay far below): a corrupt length is an error, not an allocation.
const MAX_HEADER: usize = 1 << 20;

/// A parsed `.npy` header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Header {
    /// The element encoding (`descr`).
    pub(crate) encoding: Encoding,
    /// numpy's name of the dtype (`float32`, `>i4` as `int32`, ...).
    pub(crate) dtype: String,
    /// `fortran_order`.
    pub(crate) fortran: bool,
    /// The array's shape.
    pub(crate) shape: Vec<usize>,
    /// Where the data starts.
    pub(crate) data_offset: usize,
    /// The data's length in bytes (checked against the file's).
    pub(crate) data_len: usize,
}

/// The header of the `.npy` file `bytes` (the whole file, or at least its header and data):
/// errors say what is wrong in numpy's words where numpy has them.
pub(crate) fn parse_header(bytes: &[u8]) -> Result<Header, String> {
    parse_header_in(bytes, bytes.len())
}

/// The header at the start of `bytes`, of a `.npy` stream of `total` bytes in all (`bytes`
/// may be only its first part: a compressed archive member's).
pub(crate) fn parse_header_in(bytes: &[u8], total: usize) -> Result<Header, String> {
    if bytes.len() < 10 || &bytes[..6] != b"\x93NUMPY" {
        return Err("not a .npy file: it does not start with the magic string \\x93NUMPY".into());
    }
    let (major, minor) = (bytes[6], bytes[7]);
    let (len, start) = match major {
        1 => (usize::from(u16::from_le_bytes([bytes[8], bytes[9]])), 10),
        2 | 3 if bytes.len() >= 12 => (
            u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize,
            12,
        ),
        _ => return Err(format!("unsupported .npy format version {major}.{minor}")),
    };
    if len > MAX_HEADER {
        return Err(format!(
            "the header declares {len} bytes, more than {MAX_HEADER}"
        ));
    }
    let end = start + len;
    let Some(text) = bytes.get(start..end) else {
        return Err(format!(
            "truncated: the header declares {len} bytes but the file holds {}",
            bytes.len().saturating_sub(start)
        ));
    };
    let text = std::str::from_utf8(text).map_err(|_| "the header is not text".to_string())?;
    let (descr, fortran, shape) = parse_dict(text)?;
    let (encoding, dtype) = dtype_of(&descr)?;
    let elements = shape
        .iter()
        .try_fold(1usize, |acc, &dim| acc.checked_mul(dim))
        .ok_or_else(|| format!("the declared shape {} is too large", format_shape(&shape)))?;
    let data_len = elements
        .checked_mul(encoding.size)
        .filter(|&n| isize::try_from(n).is_ok())
        .ok_or_else(|| format!("the declared shape {} is too large", format_shape(&shape)))?;
    let held = total.saturating_sub(end);
    if held < data_len {
        return Err(format!(
            "truncated: the header declares {dtype} {} ({data_len} bytes of data) but the file \
             holds {held} bytes after its header",
            format_shape(&shape),
        ));
    }
    Ok(Header {
        encoding,
        dtype,
        fortran,
        shape,
        data_offset: end,
        data_len,
    })
}

/// The header dict's `descr`, `fortran_order` and `shape`.
fn parse_dict(text: &str) -> Result<(String, bool, Vec<usize>), String> {
    let mut p = Parser {
        text: text.as_bytes(),
        at: 0,
    };
    p.expect(b'{')?;
    let (mut descr, mut fortran, mut shape) = (None, None, None);
    loop {
        p.space();
        if p.eat(b'}') {
            break;
        }
        let key = p.string()?;
        p.space();
        p.expect(b':')?;
        p.space();
        match key.as_str() {
            "descr" => {
                if p.peek() == Some(b'[') {
                    return Err(
                        "structured dtypes (a list descr) are not tensors: save one array per field"
                            .into(),
                    );
                }
                descr = Some(p.string()?);
            }
            "fortran_order" => fortran = Some(p.boolean()?),
            "shape" => shape = Some(p.tuple()?),
            other => {
                return Err(format!(
                    "Header does not contain the correct keys: unexpected key '{other}'"
                ));
            }
        }
        p.space();
        if !p.eat(b',') {
            p.space();
            p.expect(b'}')?;
            break;
        }
    }
    p.space();
    if p.at != p.text.len() {
        return Err(format!(
            "unexpected text after the header dict at byte {}",
            p.at
        ));
    }
    match (descr, fortran, shape) {
        (Some(descr), Some(fortran), Some(shape)) => Ok((descr, fortran, shape)),
        _ => Err("Header does not contain the correct keys: descr, fortran_order, shape".into()),
    }
}

/// A cursor over the header text (no recursion: the grammar is flat).
struct Parser<'a> {
    text: &'a [u8],
    at: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    fn space(&mut self) {
        while self.peek().is_some_and(|c| c.is_ascii_whitespace()) {
            self.at += 1;
        }
    }

    fn eat(&mut self, c: u8) -> bool {
        let found = self.peek() == Some(c);
        if found {
            self.at += 1;
        }
        found
    }

    fn expect(&mut self, c: u8) -> Result<(), String> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(format!(
                "cannot parse the header: expected '{}' at byte {}",
                char::from(c),
                self.at
            ))
        }
    }

    fn string(&mut self) -> Result<String, String> {
        let quote = self
            .peek()
            .filter(|c| matches!(c, b'\'' | b'"'))
            .ok_or_else(|| {
                format!(
                    "cannot parse the header: expected a string at byte {}",
                    self.at
                )
            })?;
        let start = self.at + 1;
        let len = self.text[start..]
            .iter()
            .position(|&c| c == quote)
            .ok_or_else(|| "cannot parse the header: unterminated string".to_string())?;
        let body = &self.text[start..start + len];
        if body.contains(&b'\\') {
            return Err("cannot parse the header: escapes in strings are not supported".into());
        }
        self.at = start + len + 1;
        Ok(String::from_utf8_lossy(body).into_owned())
    }

    fn boolean(&mut self) -> Result<bool, String> {
        for (word, value) in [(&b"True"[..], true), (&b"False"[..], false)] {
            if self.text[self.at..].starts_with(word) {
                self.at += word.len();
                return Ok(value);
            }
        }
        Err(format!(
            "cannot parse the header: 'fortran_order' is not True or False (byte {})",
            self.at
        ))
    }

    fn tuple(&mut self) -> Result<Vec<usize>, String> {
        self.expect(b'(')?;
        let mut dims = Vec::new();
        loop {
            self.space();
            if self.eat(b')') {
                return Ok(dims);
            }
            let start = self.at;
            while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                self.at += 1;
            }
            let digits = std::str::from_utf8(&self.text[start..self.at]).unwrap_or_default();
            let dim = digits.parse::<usize>().map_err(|_| {
                format!("cannot parse the header: the shape holds a non-integer at byte {start}")
            })?;
            // Python 2's long literals (`3L`), as old numpy wrote them.
            self.eat(b'L');
            dims.push(dim);
            if dims.len() > 64 {
                return Err("the shape has more than 64 dimensions (numpy's maximum)".into());
            }
            self.space();
            if !self.eat(b',') {
                self.space();
                self.expect(b')')?;
                return Ok(dims);
            }
        }
    }
}

/// The encoding of `descr` and numpy's name for it.
fn dtype_of(descr: &str) -> Result<(Encoding, String), String> {
    let mut chars = descr.chars();
    let order = chars.next().unwrap_or(' ');
    let (big_endian, rest) = match order {
        '<' | '=' | '|' => (false, chars.as_str()),
        '>' => (true, chars.as_str()),
        _ => (false, descr),
    };
    let kind = rest.chars().next().unwrap_or(' ');
    let size: usize = rest.get(1..).and_then(|s| s.parse().ok()).unwrap_or(0);
    let (element, name) = match (kind, size) {
        ('b', 1) | ('?', _) => (DataType::Boolean, "bool"),
        ('i', 1) => (DataType::Int8, "int8"),
        ('i', 2) => (DataType::Int16, "int16"),
        ('i', 4) => (DataType::Int32, "int32"),
        ('i', 8) => (DataType::Int64, "int64"),
        ('u', 1) => (DataType::UInt8, "uint8"),
        ('u', 2) => (DataType::UInt16, "uint16"),
        ('u', 4) => (DataType::UInt32, "uint32"),
        ('u', 8) => (DataType::UInt64, "uint64"),
        ('f', 2) => (DataType::Float16, "float16"),
        ('f', 4) => (DataType::Float32, "float32"),
        ('f', 8) => (DataType::Float64, "float64"),
        ('O', _) => {
            return Err(
                "object arrays (dtype 'O') hold pickled Python objects, which are not read: \
                 save the array with a numeric dtype"
                    .into(),
            );
        }
        ('c', _) => {
            return Err(format!(
                "dtype '{descr}' is complex: tensors hold real numbers"
            ));
        }
        ('f', _) => {
            return Err(format!(
                "dtype '{descr}' ({}-bit floats) has no Arrow type: save as float64",
                size * 8
            ));
        }
        _ => {
            return Err(format!(
                "dtype '{descr}' is not a numeric type a tensor holds (bool, int8-64, \
                 uint8-64, float16-64)"
            ));
        }
    };
    let size = if element == DataType::Boolean {
        1
    } else {
        size
    };
    Ok((
        Encoding {
            element,
            size,
            big_endian: big_endian && size > 1,
            bfloat16: false,
        },
        name.to_string(),
    ))
}

/// The `descr` numpy writes for `element` (little-endian), `None` for a type `.npy` has no
/// code for.
pub(crate) fn descr_of(element: &DataType) -> Option<&'static str> {
    Some(match element {
        DataType::Boolean => "|b1",
        DataType::Int8 => "|i1",
        DataType::Int16 => "<i2",
        DataType::Int32 => "<i4",
        DataType::Int64 => "<i8",
        DataType::UInt8 => "|u1",
        DataType::UInt16 => "<u2",
        DataType::UInt32 => "<u4",
        DataType::UInt64 => "<u8",
        DataType::Float16 => "<f2",
        DataType::Float32 => "<f4",
        DataType::Float64 => "<f8",
        _ => return None,
    })
}

/// A version 1.0 header (2.0 when it does not fit 64 KiB) for a C-order array, padded with
/// spaces to `pad_to` bytes in all (at least; a multiple of 64, as numpy aligns its data).
pub(crate) fn write_header(descr: &str, shape: &[usize], pad_to: usize) -> Vec<u8> {
    let dims = match shape {
        [] => "()".to_string(),
        [dim] => format!("({dim},)"),
        _ => {
            let mut dims = String::from("(");
            for (i, dim) in shape.iter().enumerate() {
                let _ = write!(dims, "{}{dim}", if i == 0 { "" } else { ", " });
            }
            dims.push(')');
            dims
        }
    };
    let dict = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {dims}, }}");
    let total_at = |prefix: usize| (prefix + dict.len() + 1).max(pad_to).div_ceil(64) * 64;
    let prefix = if u16::try_from(total_at(10) - 10).is_ok() {
        10
    } else {
        12
    };
    let total = total_at(prefix);
    let text_len = total - prefix;
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"\x93NUMPY");
    if prefix == 10 {
        out.extend_from_slice(&[1, 0]);
        out.extend_from_slice(&(text_len as u16).to_le_bytes());
    } else {
        out.extend_from_slice(&[2, 0]);
        out.extend_from_slice(&(text_len as u32).to_le_bytes());
    }
    out.extend_from_slice(dict.as_bytes());
    out.resize(total - 1, b' ');
    out.push(b'\n');
    out
}

/// One `.npy` file of a table: its rows along axis 0.
#[derive(Debug)]
pub(crate) struct NpyFile {
    name: String,
    map: Mapped,
    header: Header,
    /// Elements per row.
    row_elements: usize,
    /// For a Fortran-order file whose rows are gathered: per element of a row as the table
    /// lays it out, its Fortran offset within the row (`None`: rows are contiguous).
    gather: Option<Arc<Vec<usize>>>,
    /// The table's row type (`None`: rows are plain numbers).
    row_type: Option<TensorType>,
}

impl NpyFile {
    /// `path`, mapped and its header read.
    pub(crate) fn open(function: &str, path: &Path) -> Result<(Mapped, Header)> {
        let map = Mapped::open(function, path)?;
        let header = parse_header(map.bytes()).map_err(|err| {
            DataFusionError::Plan(format!("{function}: '{}': {err}", path.display()))
        })?;
        Ok((map, header))
    }
}

/// The table's schema and files for `paths`: every file must hold rows of one type. A
/// Fortran-order file's rows keep their layout as a `permutation` when every file is in
/// Fortran order (each row's elements are gathered from the strided file, their order kept),
/// else they are gathered into row-major order.
pub(crate) fn table(
    function: &str,
    paths: &[std::path::PathBuf],
) -> Result<(SchemaRef, Vec<Arc<dyn TensorFile>>)> {
    let mut opened = Vec::with_capacity(paths.len());
    for path in paths {
        opened.push((path, NpyFile::open(function, path)?));
    }
    let (first_path, (_, first)) = &opened[0];
    let inner = |h: &Header| h.shape.get(1..).unwrap_or_default().to_vec();
    for (path, (_, header)) in &opened[1..] {
        if header.encoding.element != first.encoding.element || inner(header) != inner(first) {
            return Err(DataFusionError::Plan(format!(
                "{function}: '{}' holds rows of {} {}, '{}' rows of {} {}: every file must hold \
                 rows of one dtype and shape",
                display(first_path),
                first.dtype,
                format_shape(&inner(first)),
                display(path),
                header.dtype,
                format_shape(&inner(header)),
            )));
        }
    }
    let shape = inner(first);
    let element = first.encoding.element.clone();
    let permuted = shape.len() >= 2 && opened.iter().all(|(_, (_, h))| h.fortran);
    let row_type = if first.shape.len() <= 1 {
        None
    } else if permuted {
        let physical: Vec<usize> = shape.iter().rev().copied().collect();
        let permutation: Vec<usize> = (0..shape.len()).rev().collect();
        Some(
            TensorType::new(element.clone(), physical)
                .and_then(|t| t.with_permutation(Some(permutation)))
                .map_err(|err| DataFusionError::Plan(format!("{function}: {err}")))?,
        )
    } else {
        Some(
            TensorType::new(element.clone(), shape.clone())
                .map_err(|err| DataFusionError::Plan(format!("{function}: {err}")))?,
        )
    };
    let row_elements: usize = shape.iter().product();
    // Row-major position -> Fortran offset within a row.
    let to_fortran = || Arc::new(super::named::fortran_offsets(&shape));
    let mut c_to_f = None;
    let mut files: Vec<Arc<dyn TensorFile>> = Vec::with_capacity(opened.len());
    for (path, (map, header)) in opened {
        let rows = header.shape.first().copied().unwrap_or(1);
        let gather = if header.fortran && header.shape.len() >= 2 && rows > 1 {
            if permuted {
                Some(Arc::new((0..row_elements).collect::<Vec<_>>()))
            } else {
                Some(Arc::clone(c_to_f.get_or_insert_with(to_fortran)))
            }
        } else if header.fortran && header.shape.len() >= 3 && !permuted {
            Some(Arc::clone(c_to_f.get_or_insert_with(to_fortran)))
        } else {
            None
        };
        files.push(Arc::new(NpyFile {
            name: display(path),
            map,
            header,
            row_elements,
            gather,
            row_type: row_type.clone(),
        }));
    }
    Ok((
        rows_schema(row_type.as_ref(), &element, paths.len() > 1),
        files,
    ))
}

impl TensorFile for NpyFile {
    fn rows(&self) -> usize {
        self.header.shape.first().copied().unwrap_or(1)
    }

    fn copies(&self) -> bool {
        let e = &self.header.encoding;
        self.gather.is_some()
            || e.element == DataType::Boolean
            || (e.big_endian && e.size > 1)
            || !self.header.data_offset.is_multiple_of(e.size.max(1))
    }

    fn row_bytes(&self, _row: usize) -> usize {
        self.row_elements * self.header.encoding.size
    }

    fn batch(
        &self,
        rows: Range<usize>,
        projection: &[usize],
        schema: &SchemaRef,
    ) -> Result<RecordBatch> {
        rows_batch(rows.clone(), projection, schema, &self.name, || {
            self.values(rows.clone())
        })
    }
}

impl NpyFile {
    /// The `x` column of `rows`.
    fn values(&self, rows: Range<usize>) -> Result<ArrayRef> {
        let size = self.header.encoding.size;
        let m = self.row_elements;
        let values = match &self.gather {
            None => {
                let start = self.header.data_offset + rows.start * m * size;
                let end = self.header.data_offset + rows.end * m * size;
                mapped_values(&self.map, start..end, &self.header.encoding)?
            }
            Some(map) => {
                // Element (i, q) of a Fortran-order file is at i + n * q: read each of a
                // row's elements for every row of the range, contiguously along the rows.
                let n = self.rows();
                let data = &self.map.bytes()[self.header.data_offset..][..self.header.data_len];
                let mut out = vec![0u8; rows.len() * m * size];
                for (p, &q) in map.iter().enumerate() {
                    let column = &data[(q * n + rows.start) * size..(q * n + rows.end) * size];
                    for (r, element) in column.chunks_exact(size).enumerate() {
                        out[(r * m + p) * size..][..size].copy_from_slice(element);
                    }
                }
                owned_values(&out, &self.header.encoding)?
            }
        };
        rows_of(self.row_type.as_ref(), values, rows.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(dict: &str, data: usize) -> Vec<u8> {
        let mut out = b"\x93NUMPY\x01\x00".to_vec();
        out.extend_from_slice(&(dict.len() as u16).to_le_bytes());
        out.extend_from_slice(dict.as_bytes());
        out.resize(out.len() + data, 0);
        out
    }

    #[test]
    fn written_headers_read_back() {
        for shape in [vec![], vec![3], vec![2, 3], vec![0, 4, 5]] {
            let mut bytes = write_header("<f4", &shape, 0);
            assert_eq!(bytes.len() % 64, 0);
            let elements: usize = shape.iter().product();
            bytes.resize(bytes.len() + elements * 4, 0);
            let header = parse_header(&bytes).unwrap();
            assert_eq!(header.shape, shape);
            assert_eq!(header.encoding.element, DataType::Float32);
            assert_eq!(header.data_len, elements * 4);
            assert!(!header.fortran);
        }
        // Padded to a larger size, as COPY TO writes it before the row count is known.
        let long = write_header("<f8", &[usize::MAX, 2], 0).len();
        assert_eq!(write_header("<f8", &[3, 2], long).len(), long);
    }

    #[test]
    fn numpy_s_own_forms_read() {
        // Python 2's longs, double quotes, no trailing comma, big-endian.
        let bytes = file(
            "{\"descr\": \">i4\", \"fortran_order\": True, \"shape\": (2L, 3L)}\n",
            24,
        );
        let header = parse_header(&bytes).unwrap();
        assert_eq!(header.shape, vec![2, 3]);
        assert!(header.fortran && header.encoding.big_endian);
        assert_eq!(header.dtype, "int32");
    }

    #[test]
    fn bad_headers_are_errors() {
        let cases = [
            (&b"PK\x03\x04 not npy"[..], "magic"),
            (&b"\x93NUMPY\x09\x00\x10\x00{}"[..], "version 9.0"),
            (&b"\x93NUMPY\x02\x00\xff\xff\xff\x7f{"[..], "more than"),
            (&b"\x93NUMPY\x01\x00\x40\x00{"[..], "truncated"),
        ];
        for (bytes, expected) in cases {
            let err = parse_header(bytes).unwrap_err();
            assert!(err.contains(expected), "{err}");
        }
        for (dict, expected) in [
            ("{'descr': '<f4', 'shape': (2,), }", "correct keys"),
            (
                "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': 1}",
                "unexpected key",
            ),
            (
                "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,)}",
                "structured",
            ),
            (
                "{'descr': '<f4, 'fortran_order': False}",
                "cannot parse the header",
            ),
            (
                "{'descr': '<c8', 'fortran_order': False, 'shape': (2,)}",
                "complex",
            ),
            (
                "{'descr': '|O', 'fortran_order': False, 'shape': (2,)}",
                "pickled",
            ),
            (
                "{'descr': '<f4', 'fortran_order': 1, 'shape': (2,)}",
                "True or False",
            ),
            (
                "{'descr': '<f4', 'fortran_order': False, 'shape': (2, x)}",
                "non-integer",
            ),
            (
                "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999, 99999999999)}",
                "too large",
            ),
            (
                "{'descr': '<f4', 'fortran_order': False, 'shape': (2,)} extra",
                "after the header",
            ),
        ] {
            let err = parse_header(&file(dict, 8)).unwrap_err();
            assert!(err.contains(expected), "{dict}: {err}");
        }
    }
}
