//! Nested display of tensor columns (`[[1, 2, 3], [4, 5, 6]]`, not the flat storage list).
//!
//! DataFusion 55 formats values through its extension type registry: a registration for
//! `arrow.fixed_shape_tensor` that reads the metadata with [`TensorType`] (DataFusion's own
//! canonical one uses arrow-rs's parser, which rejects pyarrow's metadata) and returns a
//! formatter that walks each row's values in logical order. `DataFrame::to_string` and
//! everything else that formats through the registry pick it up.

use std::fmt::Write;
use std::sync::Arc;

use arrow::array::{Array, FixedSizeListArray, StringArray, StringBuilder};
use arrow::datatypes::DataType;
use arrow::error::ArrowError;
use arrow::util::display::{
    ArrayFormatter, DisplayIndex, FormatError, FormatOptions, FormatResult,
};
use datafusion::common::types::DFExtensionType;
use datafusion::error::{DataFusionError, Result};
use datafusion::logical_expr::registry::{ExtensionTypeRegistration, ExtensionTypeRegistrationRef};

use crate::tensor_type::{EXTENSION_NAME, TensorType};

/// The registration that makes DataFusion display `arrow.fixed_shape_tensor` columns nested.
pub fn tensor_extension_type() -> ExtensionTypeRegistrationRef {
    ExtensionTypeRegistration::new_arc(EXTENSION_NAME, |storage_type, metadata| {
        let tensor = TensorType::from_extension(storage_type, metadata)?.ok_or_else(|| {
            DataFusionError::Plan(format!(
                "{EXTENSION_NAME} must be stored as a FixedSizeList, not {storage_type}"
            ))
        })?;
        Ok(Arc::new(TensorExtensionType {
            tensor,
            storage_type: storage_type.clone(),
        }))
    })
}

/// DataFusion's view of one tensor type.
#[derive(Debug)]
struct TensorExtensionType {
    tensor: TensorType,
    storage_type: DataType,
}

impl DFExtensionType for TensorExtensionType {
    fn storage_type(&self) -> DataType {
        self.storage_type.clone()
    }

    fn serialize_metadata(&self) -> Option<String> {
        Some(self.tensor.metadata_json())
    }

    fn create_array_formatter<'fmt>(
        &self,
        array: &'fmt dyn Array,
        options: &FormatOptions<'fmt>,
    ) -> Result<Option<ArrayFormatter<'fmt>>> {
        let Some(list) = array.as_any().downcast_ref::<FixedSizeListArray>() else {
            return Ok(None);
        };
        let values = ArrayFormatter::try_new(list.values().as_ref(), options)?;
        Ok(Some(ArrayFormatter::new(
            Box::new(NestedTensorDisplay {
                list,
                values,
                shape: self.tensor.logical_shape(),
                strides: self.tensor.logical_strides(),
                size: self.tensor.size(),
                null: options.null(),
                edge_items: None,
            }),
            options.safe(),
        )))
    }
}

/// numpy's summarised printing: a tensor of more than `threshold` elements shows `edge_items`
/// at each end of every axis longer than twice that, and `...` for the rest
/// (`np.set_printoptions(threshold=1000, edgeitems=3)`, numpy's defaults).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Summary {
    /// Tensors of more elements than this are summarised.
    pub threshold: usize,
    /// Items shown at each end of a summarised axis.
    pub edge_items: usize,
}

impl Summary {
    /// numpy's defaults: threshold 1000, edge items 3.
    pub const NUMPY: Self = Self {
        threshold: 1000,
        edge_items: 3,
    };

    /// The edge items for a tensor of `size` elements; `None` when it prints whole.
    fn edge_items(summary: Option<Self>, size: usize) -> Option<usize> {
        summary.filter(|s| size > s.threshold).map(|s| s.edge_items)
    }
}

/// Each tensor of `array` (of type `tensor`) as nested text, `[[1, 2], [3, 4]]`; NULL elements
/// as `null`, NULL tensors as NULL strings; summarised as numpy summarises when `summary` says
/// so (`[[0, 1, 2, ..., 47, 48, 49], ..., [1950, 1951, 1952, ..., 1997, 1998, 1999]]`).
pub fn format_tensors(
    tensor: &TensorType,
    array: &FixedSizeListArray,
    null: &str,
    summary: Option<Summary>,
) -> std::result::Result<StringArray, ArrowError> {
    let options = FormatOptions::default().with_null(null);
    let display = NestedTensorDisplay {
        list: array,
        values: ArrayFormatter::try_new(array.values().as_ref(), &options)?,
        shape: tensor.logical_shape(),
        strides: tensor.logical_strides(),
        size: tensor.size(),
        null,
        edge_items: Summary::edge_items(summary, tensor.size()),
    };
    let mut builder = StringBuilder::with_capacity(array.len(), array.len() * tensor.size() * 4);
    for row in 0..array.len() {
        if array.is_null(row) {
            builder.append_null();
        } else {
            display
                .write_axis(0, row * display.size, &mut builder)
                .map_err(|e| match e {
                    FormatError::Arrow(e) => e,
                    FormatError::Format(_) => {
                        ArrowError::ComputeError("cannot format a tensor".to_string())
                    }
                })?;
            builder.append_value("");
        }
    }
    Ok(builder.finish())
}

/// Writes one row as nested brackets, walking the logical shape over the stored values.
struct NestedTensorDisplay<'a> {
    list: &'a FixedSizeListArray,
    values: ArrayFormatter<'a>,
    shape: Vec<usize>,
    strides: Vec<usize>,
    size: usize,
    null: &'a str,
    /// Summarised (numpy): the items shown at each end of an axis longer than twice this.
    edge_items: Option<usize>,
}

impl NestedTensorDisplay<'_> {
    fn write_axis(&self, axis: usize, offset: usize, f: &mut dyn Write) -> FormatResult {
        if axis == self.shape.len() {
            let value = self.values.value(offset);
            return Ok(write!(f, "{value}")?);
        }
        let len = self.shape[axis];
        // numpy: an axis longer than 2 * edge items shows both edges and `...` between.
        let (head, tail) = match self.edge_items {
            Some(edge) if len > 2 * edge => (edge, len - edge),
            _ => (len, len),
        };
        f.write_char('[')?;
        for i in (0..head).chain(tail..len) {
            if i > 0 {
                f.write_str(", ")?;
            }
            if i == tail && head < tail {
                f.write_str("..., ")?;
            }
            self.write_axis(axis + 1, offset + i * self.strides[axis], f)?;
        }
        f.write_char(']')?;
        Ok(())
    }
}

impl DisplayIndex for NestedTensorDisplay<'_> {
    fn write(&self, idx: usize, f: &mut dyn Write) -> FormatResult {
        if self.list.is_null(idx) {
            f.write_str(self.null)?;
            return Ok(());
        }
        self.write_axis(0, idx * self.size, f)
    }
}
