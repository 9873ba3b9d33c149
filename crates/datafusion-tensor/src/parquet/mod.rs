//! Parquet files as tables of tensors.
//!
//! - [`format`](mod@format): [`TensorParquetFormat`], DataFusion's Parquet format with schema inference
//!   that names the file and column of every error and checks tensor metadata across the files
//!   of a table; [`crate::register_all`] installs it for `.parquet`.
//! - [`scan`]: the scan the format plans, DataFusion's own wrapped so that its errors (and a
//!   panic in the reader) name the file they come from.
//! - `bounded`: the object store the scan and the inference read through, which refuses a
//!   read past a file's end (a corrupt footer's offsets and sizes).
//! - [`fast`]: the faster read of full tensor columns that the scan puts in front of
//!   DataFusion's reader; a row group holding anything else falls back to DataFusion's. Its
//!   module `levels` checks a page's repetition and definition levels on their RLE/bit-packed
//!   encoding.

mod bounded;
pub(crate) mod fast;
pub mod format;
pub mod scan;

pub use format::{TensorParquetFormat, TensorParquetFormatFactory};
