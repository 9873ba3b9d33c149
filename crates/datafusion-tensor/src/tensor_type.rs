//! The `arrow.fixed_shape_tensor` canonical extension type: the one place that reads and writes
//! its metadata and derives logical shapes and strides from it.
//!
//! arrow-rs's own `FixedShapeTensor` writes `permutations` instead of the spec's `permutation`,
//! writes `null` for absent fields and rejects what pyarrow writes, so the JSON is read and
//! written here by hand.
//!
//! Canonical semantics (<https://arrow.apache.org/docs/format/CanonicalExtensions.html>):
//! `shape` is the physical, row-major shape of the stored values; logical dimension `i` is
//! physical dimension `permutation[i]`, i.e. the logical tensor is numpy's
//! `physical.transpose(permutation)`. `dim_names` name the physical dimensions.

use std::collections::HashMap;
use std::fmt;
use std::fmt::Write as _;
use std::sync::Arc;

use arrow::datatypes::{DataType, Field, FieldRef};
use serde_json::Value;

use crate::error::TensorError;
use crate::shape::{checked_size, format_shape, row_major_strides};

/// `ARROW:extension:name` of a tensor field.
pub const EXTENSION_NAME: &str = "arrow.fixed_shape_tensor";
/// The field metadata keys holding an extension's name and its JSON parameters (arrow's).
pub use arrow_schema::extension::{EXTENSION_TYPE_METADATA_KEY, EXTENSION_TYPE_NAME_KEY};
/// Name of the child field of the `FixedSizeList` storage, as pyarrow and arrow-rs write it.
pub const ITEM_FIELD_NAME: &str = "item";

/// The static type of a tensor column: element type, physical shape, optional dim names and
/// permutation. Every row of the column is one tensor of this type (or NULL).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TensorType {
    element: DataType,
    shape: Vec<usize>,
    dim_names: Option<Vec<String>>,
    /// `None` when absent or the identity: the layout is then plain row-major.
    permutation: Option<Vec<usize>>,
    size: usize,
}

impl TensorType {
    /// A row-major tensor type of `element`s with the given `shape`.
    pub fn new(element: DataType, shape: Vec<usize>) -> Result<Self, TensorError> {
        check_element_type(&element)?;
        let size = checked_size(&shape)?;
        // Arrow's FixedSizeList length is an i32.
        if i32::try_from(size).is_err() {
            return Err(TensorError::Shape(format!(
                "tensor shape {} has {size} elements, more than an Arrow FixedSizeList holds ({})",
                format_shape(&shape),
                i32::MAX
            )));
        }
        Ok(Self {
            element,
            shape,
            dim_names: None,
            permutation: None,
            size,
        })
    }

    /// The same type with names for the physical dimensions (`None` removes them).
    pub fn with_dim_names(mut self, dim_names: Option<Vec<String>>) -> Result<Self, TensorError> {
        self.dim_names = checked_dim_names(dim_names, self.shape.len())?;
        Ok(self)
    }

    /// The same type with a permutation of its physical dimensions (`None` or the identity
    /// removes it).
    pub fn with_permutation(
        mut self,
        permutation: Option<Vec<usize>>,
    ) -> Result<Self, TensorError> {
        self.permutation = checked_permutation(permutation, self.shape.len())?;
        Ok(self)
    }

    /// Reads the tensor type of a field: `Ok(None)` when the field is not a `FixedSizeList`
    /// (so not a tensor at all); an error when it claims to be a tensor and is not a valid one.
    ///
    /// A plain `FixedSizeList` without the extension metadata is a 1-d tensor (spec.md §1): some
    /// DataFusion expressions (`CASE`, `COALESCE`, `arrow_cast`) drop field metadata.
    pub fn from_field(field: &Field) -> Result<Option<Self>, TensorError> {
        if has_tensor_extension(field) {
            let metadata = field.metadata().get(EXTENSION_TYPE_METADATA_KEY);
            return Self::from_extension(field.data_type(), metadata.map(String::as_str));
        }
        let Some((item, list_size)) = fixed_size_list(field.data_type())? else {
            return Ok(None);
        };
        Self::new(item.data_type().clone(), vec![list_size]).map(Some)
    }

    /// Reads an `arrow.fixed_shape_tensor` from its storage type and the extension metadata
    /// JSON (`ARROW:extension:metadata`, as DataFusion's extension type registry hands them
    /// over): `Ok(None)` when the storage is not a `FixedSizeList`; an error when the metadata
    /// is missing or invalid, or describes another number of elements than the list holds.
    pub fn from_extension(
        storage_type: &DataType,
        metadata: Option<&str>,
    ) -> Result<Option<Self>, TensorError> {
        let Some((item, list_size)) = fixed_size_list(storage_type)? else {
            return Ok(None);
        };
        let Some(metadata) = metadata else {
            // DataFusion keeps only the metadata keys all inputs of a UNION agree on: the name
            // without the metadata is what a UNION of two different tensor types leaves.
            return Err(TensorError::Shape(format!(
                "{EXTENSION_NAME} without its {EXTENSION_TYPE_METADATA_KEY}: the tensor type was lost, as when a UNION combines tensors of different types (shape, dim names or permutation); give every branch the same type"
            )));
        };
        let parsed = ParsedMetadata::parse(metadata)?;
        let tensor = Self::new(item.data_type().clone(), parsed.shape)?
            .with_dim_names(parsed.dim_names)?
            .with_permutation(parsed.permutation)?;
        if tensor.size != list_size {
            return Err(TensorError::Shape(format!(
                "{EXTENSION_NAME} shape {} has {} elements but the column's FixedSizeList holds {list_size}",
                format_shape(&tensor.shape),
                tensor.size
            )));
        }
        Ok(Some(tensor))
    }

    /// The element type.
    pub fn element_type(&self) -> &DataType {
        &self.element
    }

    /// The physical (stored, row-major) shape, as written in the metadata.
    pub fn physical_shape(&self) -> &[usize] {
        &self.shape
    }

    /// Names of the physical dimensions, if any.
    pub fn dim_names(&self) -> Option<&[String]> {
        self.dim_names.as_deref()
    }

    /// The permutation, if it is not the identity.
    pub fn permutation(&self) -> Option<&[usize]> {
        self.permutation.as_deref()
    }

    /// Number of elements of one tensor (the `FixedSizeList` length).
    pub fn size(&self) -> usize {
        self.size
    }

    /// Number of dimensions.
    pub fn ndim(&self) -> usize {
        self.shape.len()
    }

    /// Whether the logical layout differs from the stored row-major one.
    pub fn is_permuted(&self) -> bool {
        self.permutation.is_some()
    }

    /// The logical shape, the one all indexing sees: `[shape[p] for p in permutation]`.
    pub fn logical_shape(&self) -> Vec<usize> {
        match &self.permutation {
            Some(perm) => perm.iter().map(|&p| self.shape[p]).collect(),
            None => self.shape.clone(),
        }
    }

    /// Element strides of each logical dimension into one row's stored values.
    pub fn logical_strides(&self) -> Vec<usize> {
        let physical = row_major_strides(&self.shape);
        match &self.permutation {
            Some(perm) => perm.iter().map(|&p| physical[p]).collect(),
            None => physical,
        }
    }

    /// Names of the logical dimensions, if the physical ones are named.
    pub fn logical_dim_names(&self) -> Option<Vec<String>> {
        let names = self.dim_names.as_ref()?;
        Some(match &self.permutation {
            Some(perm) => perm.iter().map(|&p| names[p].clone()).collect(),
            None => names.clone(),
        })
    }

    /// The type of a selection from this tensor (`x[idx]`): row-major, of `element` and
    /// `shape`, where `source_axes` gives each output axis's logical input axis, if it is
    /// exactly one. Dim names survive when every output axis is one input axis (numpy has no
    /// names; this is xarray's rule for positional selection).
    pub fn selection(
        &self,
        element: DataType,
        shape: Vec<usize>,
        source_axes: &[Option<usize>],
    ) -> Result<Self, TensorError> {
        let names = self.logical_dim_names().and_then(|names| {
            source_axes
                .iter()
                .map(|axis| axis.map(|a| names[a].clone()))
                .collect::<Option<Vec<_>>>()
        });
        Self::new(element, shape)?.with_dim_names(names)
    }

    /// The row-major type of the logical tensor: what this type's values become once written
    /// out in logical order (outputs are never permuted, spec.md §1). Dim names follow their dims.
    #[must_use]
    pub fn to_row_major(&self) -> Self {
        Self {
            element: self.element.clone(),
            shape: self.logical_shape(),
            dim_names: self.logical_dim_names(),
            permutation: None,
            size: self.size,
        }
    }

    /// The `FixedSizeList` storage type. The child field is nullable: pyarrow drops the
    /// extension type of a column whose child is not.
    pub fn storage_type(&self) -> DataType {
        DataType::FixedSizeList(self.item_field(), self.list_size())
    }

    /// The child field of the storage type.
    pub fn item_field(&self) -> FieldRef {
        Arc::new(Field::new(ITEM_FIELD_NAME, self.element.clone(), true))
    }

    /// The `FixedSizeList` length (checked to fit an `i32` when the type was built).
    pub fn list_size(&self) -> i32 {
        i32::try_from(self.size).unwrap_or(i32::MAX)
    }

    /// The extension metadata JSON, keys in the order pyarrow 26 writes them, absent fields
    /// omitted: `{"shape":[2,3],"permutation":[1,0],"dim_names":["x","y"]}`.
    pub fn metadata_json(&self) -> String {
        let mut out = String::from("{\"shape\":");
        push_json_usizes(&mut out, &self.shape);
        if let Some(perm) = &self.permutation {
            out.push_str(",\"permutation\":");
            push_json_usizes(&mut out, perm);
        }
        if let Some(names) = &self.dim_names {
            out.push_str(",\"dim_names\":");
            out.push_str(&Value::from(names.clone()).to_string());
        }
        out.push('}');
        out
    }

    /// The type as `tensor_type`, `DESCRIBE` and error messages name it, its metadata in
    /// full: `arrow.fixed_shape_tensor<Float32, [3, 2], permutation [1, 0], dim_names ["H",
    /// "W"]>`. The shape is the stored one, as in the metadata (the logical shape is
    /// `tensor_shape`'s).
    pub fn type_name(&self) -> String {
        // A slice's Debug form is the `[3, 2]` wanted.
        let mut out = format!("{EXTENSION_NAME}<{}, {:?}", self.element, self.shape);
        if let Some(perm) = &self.permutation {
            let _ = write!(out, ", permutation {perm:?}");
        }
        push_dim_names(&mut out, self.dim_names.as_deref());
        out.push('>');
        out
    }

    /// The field metadata that marks a field as this tensor type.
    pub fn field_metadata(&self) -> HashMap<String, String> {
        HashMap::from([
            (
                EXTENSION_TYPE_NAME_KEY.to_string(),
                EXTENSION_NAME.to_string(),
            ),
            (
                EXTENSION_TYPE_METADATA_KEY.to_string(),
                self.metadata_json(),
            ),
        ])
    }

    /// A nullable field of this tensor type.
    pub fn to_field(&self, name: impl Into<String>) -> Field {
        Field::new(name, self.storage_type(), true).with_metadata(self.field_metadata())
    }
}

impl fmt::Display for TensorType {
    /// `Tensor<Float32, (2, 3)>`, with the permutation and dim names when present.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Tensor<{}, {}",
            self.element,
            format_shape(&self.logical_shape())
        )?;
        if let Some(perm) = &self.permutation {
            write!(
                f,
                ", stored {} permutation {perm:?}",
                format_shape(&self.shape)
            )?;
        }
        if let Some(names) = &self.dim_names {
            write!(f, ", dim_names {names:?}")?;
        }
        f.write_str(">")
    }
}

/// The child field and length of a `FixedSizeList` type; `None` for any other type.
fn fixed_size_list(data_type: &DataType) -> Result<Option<(&FieldRef, usize)>, TensorError> {
    let DataType::FixedSizeList(item, list_size) = data_type else {
        return Ok(None);
    };
    let list_size = usize::try_from(*list_size).map_err(|_| {
        TensorError::Shape(format!("FixedSizeList has a negative size {list_size}"))
    })?;
    Ok(Some((item, list_size)))
}

/// Whether `field` carries the `arrow.fixed_shape_tensor` extension name (valid or not).
pub fn has_tensor_extension(field: &Field) -> bool {
    field
        .metadata()
        .get(EXTENSION_TYPE_NAME_KEY)
        .map(String::as_str)
        == Some(EXTENSION_NAME)
}

/// Whether `element` may be a tensor's element type (spec.md §1).
pub fn is_element_type(element: &DataType) -> bool {
    element.is_integer() || element.is_floating() || *element == DataType::Boolean
}

pub(crate) fn check_element_type(element: &DataType) -> Result<(), TensorError> {
    if is_element_type(element) {
        Ok(())
    } else {
        Err(TensorError::ElementType(element.to_string()))
    }
}

/// `dim_names`, checked to name `ndim` dimensions.
pub(crate) fn checked_dim_names(
    dim_names: Option<Vec<String>>,
    ndim: usize,
) -> Result<Option<Vec<String>>, TensorError> {
    if let Some(names) = &dim_names
        && names.len() != ndim
    {
        return Err(TensorError::Shape(format!(
            "dim_names has {} names but the tensor has {ndim} dimensions",
            names.len(),
        )));
    }
    Ok(dim_names)
}

/// `permutation`, checked to permute `ndim` dimensions; `None` for the identity (the layout is
/// then plain row-major).
pub(crate) fn checked_permutation(
    permutation: Option<Vec<usize>>,
    ndim: usize,
) -> Result<Option<Vec<usize>>, TensorError> {
    if let Some(perm) = &permutation {
        check_permutation(perm, ndim)?;
    }
    Ok(permutation.filter(|p| p.iter().enumerate().any(|(i, &axis)| i != axis)))
}

fn check_permutation(perm: &[usize], ndim: usize) -> Result<(), TensorError> {
    let mut seen = vec![false; ndim];
    let valid = perm.len() == ndim
        && perm
            .iter()
            .all(|&axis| axis < ndim && !std::mem::replace(&mut seen[axis], true));
    if valid {
        Ok(())
    } else {
        Err(TensorError::Shape(format!(
            "permutation {perm:?} is not a permutation of the {ndim} dimensions 0..{ndim}"
        )))
    }
}

/// `, dim_names ["H", "W"]` after `out`, when there are names.
pub(crate) fn push_dim_names(out: &mut String, names: Option<&[String]>) {
    if let Some(names) = names {
        // Writing to a String cannot fail.
        let _ = write!(out, ", dim_names {names:?}");
    }
}

pub(crate) fn push_json_usizes(out: &mut String, values: &[usize]) {
    out.push('[');
    for (i, v) in values.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&v.to_string());
    }
    out.push(']');
}

/// The fields of the metadata JSON, checked for form but not yet against each other.
struct ParsedMetadata {
    shape: Vec<usize>,
    dim_names: Option<Vec<String>>,
    permutation: Option<Vec<usize>>,
}

impl ParsedMetadata {
    fn parse(json: &str) -> Result<Self, TensorError> {
        let fail = |reason: String| metadata_error(EXTENSION_NAME, json, reason);
        let object = metadata_object(EXTENSION_NAME, json)?;
        let shape = match object.get("shape") {
            Some(Value::Array(items)) => usizes(items, "shape").map_err(fail)?,
            Some(_) => return Err(fail("\"shape\" must be a list of integers".to_string())),
            None => return Err(fail("the required key \"shape\" is missing".to_string())),
        };
        Ok(Self {
            shape,
            dim_names: optional_dim_names(&object).map_err(fail)?,
            permutation: optional_permutation(&object).map_err(fail)?,
        })
    }
}

/// An error about the metadata JSON `json` of `extension`.
pub(crate) fn metadata_error(extension: &'static str, json: &str, reason: String) -> TensorError {
    TensorError::Metadata {
        extension,
        json: json.to_string(),
        reason,
    }
}

/// The JSON object of an extension's metadata.
pub(crate) fn metadata_object(
    extension: &'static str,
    json: &str,
) -> Result<serde_json::Map<String, Value>, TensorError> {
    let fail = |reason: String| metadata_error(extension, json, reason);
    let value: Value =
        serde_json::from_str(json).map_err(|e| fail(format!("not valid JSON ({e})")))?;
    match value {
        Value::Object(object) => Ok(object),
        _ => Err(fail("expected a JSON object".to_string())),
    }
}

/// The optional `dim_names` key (`null` is absent, as arrow-rs writes it).
pub(crate) fn optional_dim_names(
    object: &serde_json::Map<String, Value>,
) -> Result<Option<Vec<String>>, String> {
    let wrong = || "\"dim_names\" must be a list of strings".to_string();
    match object.get("dim_names") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Array(items)) => items
            .iter()
            .map(|item| item.as_str().map(str::to_string))
            .collect::<Option<Vec<_>>>()
            .map(Some)
            .ok_or_else(wrong),
        Some(_) => Err(wrong()),
    }
}

/// The optional `permutation` key; arrow-rs writes `permutations`, the spec and pyarrow
/// `permutation`.
pub(crate) fn optional_permutation(
    object: &serde_json::Map<String, Value>,
) -> Result<Option<Vec<usize>>, String> {
    match (object.get("permutation"), object.get("permutations")) {
        (Some(Value::Array(items)), _) | (None | Some(Value::Null), Some(Value::Array(items))) => {
            usizes(items, "permutation").map(Some)
        }
        (None | Some(Value::Null), None | Some(Value::Null)) => Ok(None),
        _ => Err("\"permutation\" must be a list of integers".to_string()),
    }
}

pub(crate) fn usizes(items: &[Value], key: &str) -> Result<Vec<usize>, String> {
    items
        .iter()
        .map(|item| {
            item.as_u64()
                .and_then(|v| usize::try_from(v).ok())
                .ok_or_else(|| format!("\"{key}\" must hold non-negative integers, found {item}"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tensor_field(element: DataType, list_size: i32, json: &str) -> Field {
        Field::new(
            "t",
            DataType::FixedSizeList(Arc::new(Field::new("item", element, true)), list_size),
            true,
        )
        .with_metadata(HashMap::from([
            (
                EXTENSION_TYPE_NAME_KEY.to_string(),
                EXTENSION_NAME.to_string(),
            ),
            (EXTENSION_TYPE_METADATA_KEY.to_string(), json.to_string()),
        ]))
    }

    fn read(json: &str, size: i32) -> Result<Option<TensorType>, TensorError> {
        TensorType::from_field(&tensor_field(DataType::Float32, size, json))
    }

    #[test]
    fn reads_pyarrow_metadata() {
        // What pyarrow 26 writes for pa.fixed_shape_tensor(pa.float32(), (2, 3, 4),
        // dim_names=["C", "H", "W"], permutation=[2, 0, 1]).
        let t = read(
            r#"{"shape":[2,3,4],"permutation":[2,0,1],"dim_names":["C","H","W"]}"#,
            24,
        )
        .unwrap()
        .unwrap();
        assert_eq!(t.physical_shape(), &[2, 3, 4]);
        assert_eq!(t.logical_shape(), vec![4, 2, 3]);
        assert_eq!(t.logical_strides(), vec![1, 12, 4]);
        assert_eq!(
            t.logical_dim_names().unwrap(),
            vec!["W".to_string(), "C".to_string(), "H".to_string()]
        );
        assert_eq!(t.ndim(), 3);
        assert_eq!(t.size(), 24);
    }

    #[test]
    fn reads_arrow_rs_spelling_and_nulls() {
        let t = read(
            r#"{"shape":[2,3],"dim_names":null,"permutations":[1,0]}"#,
            6,
        )
        .unwrap()
        .unwrap();
        assert_eq!(t.permutation(), Some(&[1, 0][..]));
        assert_eq!(t.dim_names(), None);
        let t = read(r#"{"shape":[2,3],"permutations":null}"#, 6)
            .unwrap()
            .unwrap();
        assert!(!t.is_permuted());
    }

    #[test]
    fn extension_storage_and_metadata_read_as_the_field_does() {
        let json = r#"{"shape":[2,3],"permutation":[1,0]}"#;
        let field = tensor_field(DataType::Float32, 6, json);
        assert_eq!(
            TensorType::from_extension(field.data_type(), Some(json)).unwrap(),
            TensorType::from_field(&field).unwrap()
        );
        assert_eq!(
            TensorType::from_extension(&DataType::Float32, Some(json)).unwrap(),
            None
        );
        // No metadata is no valid tensor, as a field with the name and no metadata.
        let bare = field.clone().with_metadata(HashMap::from([(
            EXTENSION_TYPE_NAME_KEY.to_string(),
            EXTENSION_NAME.to_string(),
        )]));
        assert_eq!(
            TensorType::from_extension(field.data_type(), None)
                .unwrap_err()
                .to_string(),
            TensorType::from_field(&bare).unwrap_err().to_string()
        );
    }

    #[test]
    fn identity_permutation_is_dropped() {
        let t = read(r#"{"shape":[2,3],"permutation":[0,1]}"#, 6)
            .unwrap()
            .unwrap();
        assert!(!t.is_permuted());
        assert_eq!(t.metadata_json(), r#"{"shape":[2,3]}"#);
    }

    #[test]
    fn writes_the_spec_key_and_omits_absent_fields() {
        let t = TensorType::new(DataType::Int32, vec![2, 3, 4])
            .unwrap()
            .with_dim_names(Some(vec!["C".into(), "H".into(), "W".into()]))
            .unwrap()
            .with_permutation(Some(vec![2, 0, 1]))
            .unwrap();
        assert_eq!(
            t.metadata_json(),
            r#"{"shape":[2,3,4],"permutation":[2,0,1],"dim_names":["C","H","W"]}"#
        );
        let field = t.to_field("x");
        let DataType::FixedSizeList(item, 24) = field.data_type() else {
            panic!("storage type {}", field.data_type());
        };
        assert!(item.is_nullable());
        assert_eq!(TensorType::from_field(&field).unwrap().unwrap(), t);
        let plain = TensorType::new(DataType::Boolean, vec![]).unwrap();
        assert_eq!(plain.metadata_json(), r#"{"shape":[]}"#);
        assert_eq!(plain.size(), 1);
    }

    #[test]
    fn plain_fixed_size_list_is_one_dimensional() {
        let field = Field::new(
            "v",
            DataType::FixedSizeList(Arc::new(Field::new("item", DataType::Int8, true)), 5),
            true,
        );
        let t = TensorType::from_field(&field).unwrap().unwrap();
        assert_eq!(t.logical_shape(), vec![5]);
        let not_a_list = Field::new("v", DataType::Int8, true);
        assert_eq!(TensorType::from_field(&not_a_list).unwrap(), None);
    }

    #[test]
    fn malformed_metadata_is_an_error() {
        let cases = [
            ("{", 6, "not valid JSON"),
            ("[1]", 6, "expected a JSON object"),
            ("{}", 6, "the required key \"shape\" is missing"),
            (
                r#"{"shape":"2,3"}"#,
                6,
                "\"shape\" must be a list of integers",
            ),
            (
                r#"{"shape":[2,-3]}"#,
                6,
                "\"shape\" must hold non-negative integers, found -3",
            ),
            (
                r#"{"shape":[2,3.5]}"#,
                6,
                "non-negative integers, found 3.5",
            ),
            (
                r#"{"shape":[2,3]}"#,
                5,
                "shape (2, 3) has 6 elements but the column's FixedSizeList holds 5",
            ),
            (
                r#"{"shape":[2,3],"dim_names":["a"]}"#,
                6,
                "dim_names has 1 names but the tensor has 2 dimensions",
            ),
            (
                r#"{"shape":[2,3],"dim_names":[1,2]}"#,
                6,
                "\"dim_names\" must be a list of strings",
            ),
            (
                r#"{"shape":[2,3],"permutation":[0,0]}"#,
                6,
                "permutation [0, 0] is not a permutation",
            ),
            (
                r#"{"shape":[2,3],"permutation":[1,2]}"#,
                6,
                "permutation [1, 2] is not a permutation",
            ),
            (
                r#"{"shape":[2,3],"permutation":[1]}"#,
                6,
                "permutation [1] is not a permutation",
            ),
            (
                r#"{"shape":[2,3],"permutation":"x"}"#,
                6,
                "\"permutation\" must be a list of integers",
            ),
            (
                r#"{"shape":[4294967296,4294967296,4294967296]}"#,
                6,
                "the product overflows",
            ),
            (
                // A column's type is what it is: only Arrow's bound applies to it (a session's
                // element limit applies to the shapes a call computes).
                r#"{"shape":[65536,65536]}"#,
                0,
                "more than an Arrow FixedSizeList holds (2147483647)",
            ),
        ];
        for (json, size, expected) in cases {
            let err = read(json, size).unwrap_err().to_string();
            assert!(err.contains(expected), "{json}: {err}");
        }
    }

    #[test]
    fn element_types() {
        for ok in [
            DataType::Int8,
            DataType::UInt64,
            DataType::Float16,
            DataType::Float64,
            DataType::Boolean,
        ] {
            assert!(TensorType::new(ok, vec![2]).is_ok());
        }
        let err = TensorType::new(DataType::Utf8, vec![2]).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("tensor element type Utf8 is not supported")
        );
    }
}
