//! Nested display of tensor columns (`[[1, 2, 3], [4, 5, 6]]`, not the flat storage list).
//!
//! DataFusion 55 formats values through its extension type registry: registrations for
//! `arrow.fixed_shape_tensor` and `arrow.variable_shape_tensor` that read the metadata with
//! [`TensorType`] and [`VariableShapeType`] (DataFusion's own canonical ones use arrow-rs's
//! parsers, which reject pyarrow's metadata) and return a formatter that walks each row's
//! values in logical order. `DataFrame::to_string` and everything else that formats through
//! the registry pick it up.

use std::fmt::Write;
use std::sync::Arc;

use arrow::array::{Array, FixedSizeListArray, StringArray, StringBuilder};
use arrow::buffer::NullBuffer;
use arrow::datatypes::DataType;
use arrow::error::ArrowError;
use arrow::util::display::{
    ArrayFormatter, DisplayIndex, FormatError, FormatOptions, FormatResult,
};
use datafusion::common::types::DFExtensionType;
use datafusion::error::{DataFusionError, Result};
use datafusion::logical_expr::registry::{ExtensionTypeRegistration, ExtensionTypeRegistrationRef};

use crate::error::TensorError;
use crate::tensor_type::{EXTENSION_NAME, TensorType};
use crate::variable_shape::{
    AnyTensorType, VARIABLE_EXTENSION_NAME, VariableShapeArray, VariableShapeType,
};

/// The registration that makes DataFusion display `arrow.fixed_shape_tensor` columns nested.
pub fn tensor_extension_type() -> ExtensionTypeRegistrationRef {
    ExtensionTypeRegistration::new_arc(EXTENSION_NAME, |storage_type, metadata| {
        let tensor = TensorType::from_extension(storage_type, metadata)?.ok_or_else(|| {
            DataFusionError::Plan(format!(
                "{EXTENSION_NAME} must be stored as a FixedSizeList, not {storage_type}"
            ))
        })?;
        Ok(Arc::new(TensorExtensionType {
            tensor: AnyTensorType::Fixed(tensor),
            storage_type: storage_type.clone(),
        }))
    })
}

/// The registration that makes DataFusion display `arrow.variable_shape_tensor` columns
/// nested, each row in its own shape.
pub fn variable_shape_extension_type() -> ExtensionTypeRegistrationRef {
    ExtensionTypeRegistration::new_arc(VARIABLE_EXTENSION_NAME, |storage_type, metadata| {
        Ok(Arc::new(TensorExtensionType {
            tensor: AnyTensorType::Variable(VariableShapeType::from_extension(
                storage_type,
                metadata,
            )?),
            storage_type: storage_type.clone(),
        }))
    })
}

/// DataFusion's view of one tensor type.
#[derive(Debug)]
struct TensorExtensionType {
    tensor: AnyTensorType,
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
        let display = match &self.tensor {
            AnyTensorType::Fixed(tensor) => {
                let Some(list) = array.as_any().downcast_ref::<FixedSizeListArray>() else {
                    return Ok(None);
                };
                NestedTensorDisplay::fixed(tensor, list, options, None)?
            }
            AnyTensorType::Variable(tensor) => NestedTensorDisplay::variable(
                VariableShapeArray::try_new(tensor, array)?,
                options,
                None,
            )?,
        };
        Ok(Some(ArrayFormatter::new(Box::new(display), options.safe())))
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
    tensor: &AnyTensorType,
    array: &dyn Array,
    null: &str,
    summary: Option<Summary>,
) -> crate::error::Result<StringArray> {
    let options = FormatOptions::default().with_null(null);
    let display = match tensor {
        AnyTensorType::Fixed(tensor) => {
            let list = array
                .as_any()
                .downcast_ref::<FixedSizeListArray>()
                .ok_or_else(|| {
                    TensorError::Internal(format!(
                        "expected a FixedSizeList at run time, got {}",
                        array.data_type()
                    ))
                })?;
            NestedTensorDisplay::fixed(tensor, list, &options, summary)?
        }
        AnyTensorType::Variable(tensor) => NestedTensorDisplay::variable(
            VariableShapeArray::try_new(tensor, array)?,
            &options,
            summary,
        )?,
    };
    let rows = array.len();
    let mut builder = StringBuilder::with_capacity(rows, rows * 16);
    for row in 0..rows {
        if display.is_null(row) {
            builder.append_null();
        } else {
            display.write_row(row, &mut builder).map_err(|e| match e {
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

/// Where each row's tensor lies in the values the display walks.
enum RowLayouts<'a> {
    /// One shape for every row, `size` elements apart.
    Fixed {
        nulls: Option<&'a NullBuffer>,
        shape: Vec<usize>,
        strides: Vec<usize>,
        size: usize,
    },
    /// A shape per row.
    Variable(VariableShapeArray<'a>),
}

/// Writes one row as nested brackets, walking its logical shape over the stored values.
struct NestedTensorDisplay<'a> {
    rows: RowLayouts<'a>,
    values: ArrayFormatter<'a>,
    null: &'a str,
    summary: Option<Summary>,
}

impl<'a> NestedTensorDisplay<'a> {
    fn fixed(
        tensor: &TensorType,
        list: &'a FixedSizeListArray,
        options: &FormatOptions<'a>,
        summary: Option<Summary>,
    ) -> std::result::Result<Self, ArrowError> {
        Ok(Self {
            rows: RowLayouts::Fixed {
                nulls: list.nulls(),
                shape: tensor.logical_shape(),
                strides: tensor.logical_strides(),
                size: tensor.size(),
            },
            values: ArrayFormatter::try_new(list.values().as_ref(), options)?,
            null: options.null(),
            summary,
        })
    }

    fn variable(
        view: VariableShapeArray<'a>,
        options: &FormatOptions<'a>,
        summary: Option<Summary>,
    ) -> std::result::Result<Self, ArrowError> {
        Ok(Self {
            values: ArrayFormatter::try_new(view.values().as_ref(), options)?,
            rows: RowLayouts::Variable(view),
            null: options.null(),
            summary,
        })
    }

    fn is_null(&self, row: usize) -> bool {
        match &self.rows {
            RowLayouts::Fixed { nulls, .. } => nulls.is_some_and(|n| n.is_null(row)),
            RowLayouts::Variable(view) => view.is_null(row),
        }
    }

    fn write_row(&self, row: usize, f: &mut dyn Write) -> FormatResult {
        match &self.rows {
            RowLayouts::Fixed {
                shape,
                strides,
                size,
                ..
            } => {
                let edge_items = Summary::edge_items(self.summary, *size);
                self.write_axis(shape, strides, edge_items, row * size, f)
            }
            RowLayouts::Variable(view) => {
                let physical: Vec<usize> = view.physical_shape(row).collect();
                let (shape, strides) = view.tensor().logical_layout(&physical);
                let range = view.value_range(row);
                let edge_items = Summary::edge_items(self.summary, range.len());
                self.write_axis(&shape, &strides, edge_items, range.start, f)
            }
        }
    }

    fn write_axis(
        &self,
        shape: &[usize],
        strides: &[usize],
        edge_items: Option<usize>,
        offset: usize,
        f: &mut dyn Write,
    ) -> FormatResult {
        let (Some(&len), Some(&stride)) = (shape.first(), strides.first()) else {
            let value = self.values.value(offset);
            return Ok(write!(f, "{value}")?);
        };
        // numpy: an axis longer than 2 * edge items shows both edges and `...` between.
        let (head, tail) = match edge_items {
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
            self.write_axis(
                &shape[1..],
                &strides[1..],
                edge_items,
                offset + i * stride,
                f,
            )?;
        }
        f.write_char(']')?;
        Ok(())
    }
}

impl DisplayIndex for NestedTensorDisplay<'_> {
    fn write(&self, idx: usize, f: &mut dyn Write) -> FormatResult {
        if self.is_null(idx) {
            f.write_str(self.null)?;
            return Ok(());
        }
        self.write_row(idx, f)
    }
}

/// What `DESCRIBE` returns for a table of `schema` (DataFusion's three columns,
/// `output_schema`), with each tensor column's `data_type` its type in full
/// (`arrow.fixed_shape_tensor<Float32, [2, 3]>`, as `tensor_type` names it) instead of its
/// storage alone. This crate's SQL entry points (`TensorSql::tensor_sql`, the CLI) answer
/// `DESCRIBE` with it.
///
/// # Errors
/// When the batch cannot be built for `output_schema` (DataFusion's `DESCRIBE` schema builds).
pub fn describe_batch(
    schema: &arrow::datatypes::Schema,
    output_schema: arrow::datatypes::SchemaRef,
) -> Result<arrow::record_batch::RecordBatch> {
    let mut names = StringBuilder::new();
    let mut types = StringBuilder::new();
    let mut nullables = StringBuilder::new();
    for field in schema.fields() {
        names.append_value(field.name());
        types.append_value(match crate::udf::type_name_of(field) {
            Ok(name) => name,
            Err(err) => format!("{} (invalid tensor metadata: {err})", field.data_type()),
        });
        nullables.append_value(if field.is_nullable() { "YES" } else { "NO" });
    }
    Ok(arrow::record_batch::RecordBatch::try_new(
        output_schema,
        vec![
            Arc::new(names.finish()),
            Arc::new(types.finish()),
            Arc::new(nullables.finish()),
        ],
    )?)
}
