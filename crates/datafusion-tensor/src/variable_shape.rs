//! The `arrow.variable_shape_tensor` canonical extension type: the one place that reads and
//! writes its metadata and checks a batch's per-row shapes against it.
//!
//! Canonical semantics (<https://arrow.apache.org/docs/format/CanonicalExtensions.html>):
//! storage `Struct<data: List<T>, shape: FixedSizeList<Int32>[ndim]>`; each row's `shape` is
//! the physical, row-major shape of its `data`. The metadata keys are all optional:
//! `permutation` and `dim_names` mean what they mean for `arrow.fixed_shape_tensor` (logical
//! dimension `i` is physical dimension `permutation[i]`), and `uniform_shape` gives, per
//! physical dimension, its size when it is the same in every row (`null` when it varies).
//!
//! arrow-rs 59's `VariableShapeTensor` writes `null` for absent keys, which pyarrow rejects, and
//! rejects the spec's `permutation` key, so the JSON is read and written here by hand, in the
//! form Arrow C++ (pyarrow) writes.

use std::collections::HashMap;
use std::fmt;
use std::fmt::Write as _;
use std::sync::Arc;

use arrow::array::{Array, AsArray, FixedSizeListArray, ListArray, StructArray};
use arrow::buffer::NullBuffer;
use arrow::datatypes::{DataType, Field, Fields, Int32Type};
use serde_json::Value;

mod any;
pub use any::AnyTensorType;

use crate::error::TensorError;
use crate::shape::{checked_size, format_shape, row_major_strides};
use crate::tensor_type::{
    EXTENSION_TYPE_METADATA_KEY, EXTENSION_TYPE_NAME_KEY, ITEM_FIELD_NAME, TensorType,
    check_element_type, checked_dim_names, checked_permutation, has_tensor_extension,
    metadata_error, metadata_object, optional_dim_names, optional_permutation, push_json_usizes,
};

/// `ARROW:extension:name` of a variable-shape tensor field.
pub const VARIABLE_EXTENSION_NAME: &str = "arrow.variable_shape_tensor";
/// Name of the storage struct's field holding each row's values.
pub const DATA_FIELD_NAME: &str = "data";
/// Name of the storage struct's field holding each row's physical shape.
pub const SHAPE_FIELD_NAME: &str = "shape";

/// The static type of a variable-shape tensor column: element type, number of dimensions,
/// optional dim names and permutation, and the physical dimensions every row shares. Each row
/// is one tensor of its own shape (or NULL).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct VariableShapeType {
    element: DataType,
    ndim: usize,
    dim_names: Option<Vec<String>>,
    /// `None` when absent or the identity.
    permutation: Option<Vec<usize>>,
    /// Physical; `None` when absent or no dimension is uniform.
    uniform_shape: Option<Vec<Option<usize>>>,
}

impl VariableShapeType {
    /// A row-major variable-shape tensor type of `element`s with `ndim` dimensions.
    pub fn new(element: DataType, ndim: usize) -> Result<Self, TensorError> {
        check_element_type(&element)?;
        // The shape field is a FixedSizeList of ndim, an i32.
        if i32::try_from(ndim).is_err() {
            return Err(TensorError::Shape(format!(
                "{ndim} dimensions are more than an Arrow FixedSizeList holds"
            )));
        }
        Ok(Self {
            element,
            ndim,
            dim_names: None,
            permutation: None,
            uniform_shape: None,
        })
    }

    /// The same type with names for the physical dimensions (`None` removes them).
    pub fn with_dim_names(mut self, dim_names: Option<Vec<String>>) -> Result<Self, TensorError> {
        self.dim_names = checked_dim_names(dim_names, self.ndim)?;
        Ok(self)
    }

    /// The same type with a permutation of its physical dimensions (`None` or the identity
    /// removes it).
    pub fn with_permutation(
        mut self,
        permutation: Option<Vec<usize>>,
    ) -> Result<Self, TensorError> {
        self.permutation = checked_permutation(permutation, self.ndim)?;
        Ok(self)
    }

    /// The variable-shape type of `fixed`'s tensors: its element type, dim names and
    /// permutation, and its one physical shape as the `uniform_shape` of every row.
    pub fn of_fixed(fixed: &TensorType) -> Result<Self, TensorError> {
        let uniform = fixed.physical_shape().iter().copied().map(Some).collect();
        Self::new(fixed.element_type().clone(), fixed.ndim())?
            .with_dim_names(fixed.dim_names().map(<[String]>::to_vec))?
            .with_permutation(fixed.permutation().map(<[usize]>::to_vec))?
            .with_uniform_shape(Some(uniform))
    }

    /// The same type with the physical dimensions every row shares (`None` entries vary;
    /// `None` or all-`None` removes them).
    pub fn with_uniform_shape(
        mut self,
        uniform_shape: Option<Vec<Option<usize>>>,
    ) -> Result<Self, TensorError> {
        if let Some(uniform) = &uniform_shape
            && uniform.len() != self.ndim
        {
            return Err(TensorError::Shape(format!(
                "uniform_shape has {} entries but the tensor has {} dimensions",
                uniform.len(),
                self.ndim
            )));
        }
        self.uniform_shape = uniform_shape.filter(|u| u.iter().any(Option::is_some));
        Ok(self)
    }

    /// Reads the variable-shape tensor type of a field: `Ok(None)` when the field does not
    /// carry the `arrow.variable_shape_tensor` extension name; an error when it does and is not
    /// a valid one.
    pub fn from_field(field: &Field) -> Result<Option<Self>, TensorError> {
        if !has_variable_shape_extension(field) {
            return Ok(None);
        }
        let metadata = field.metadata().get(EXTENSION_TYPE_METADATA_KEY);
        Self::from_extension(field.data_type(), metadata.map(String::as_str)).map(Some)
    }

    /// Reads an `arrow.variable_shape_tensor` from its storage type and metadata JSON. A
    /// missing or empty metadata string is read as `{}` (every key is optional; Arrow C++
    /// writes `{}`).
    pub fn from_extension(
        storage_type: &DataType,
        metadata: Option<&str>,
    ) -> Result<Self, TensorError> {
        let (element, ndim) = storage_parts(storage_type)?;
        let json = metadata.filter(|m| !m.trim().is_empty()).unwrap_or("{}");
        let fail = |reason: String| metadata_error(VARIABLE_EXTENSION_NAME, json, reason);
        let object = metadata_object(VARIABLE_EXTENSION_NAME, json)?;
        let uniform_shape = match object.get("uniform_shape") {
            None | Some(Value::Null) => None,
            Some(Value::Array(items)) => Some(
                items
                    .iter()
                    .map(|item| match item {
                        Value::Null => Ok(None),
                        _ => item
                            .as_u64()
                            .and_then(|v| usize::try_from(v).ok())
                            .map(Some)
                            .ok_or_else(|| {
                                format!("\"uniform_shape\" must hold non-negative integers or nulls, found {item}")
                            }),
                    })
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(fail)?,
            ),
            Some(_) => {
                return Err(fail(
                    "\"uniform_shape\" must be a list of integers and nulls".to_string(),
                ));
            }
        };
        Self::new(element, ndim)?
            .with_dim_names(optional_dim_names(&object).map_err(fail)?)?
            .with_permutation(optional_permutation(&object).map_err(fail)?)?
            .with_uniform_shape(uniform_shape)
    }

    /// The element type.
    pub fn element_type(&self) -> &DataType {
        &self.element
    }

    /// Number of dimensions (the same in every row).
    pub fn ndim(&self) -> usize {
        self.ndim
    }

    /// Names of the physical dimensions, if any.
    pub fn dim_names(&self) -> Option<&[String]> {
        self.dim_names.as_deref()
    }

    /// The permutation, if it is not the identity.
    pub fn permutation(&self) -> Option<&[usize]> {
        self.permutation.as_deref()
    }

    /// Whether the logical layout differs from the stored row-major one.
    pub fn is_permuted(&self) -> bool {
        self.permutation.is_some()
    }

    /// The physical dimensions every row shares (`None` where rows differ).
    pub fn physical_uniform_shape(&self) -> Vec<Option<usize>> {
        self.uniform_shape
            .clone()
            .unwrap_or_else(|| vec![None; self.ndim])
    }

    /// The logical dimensions every row shares, known when the query is planned.
    pub fn logical_uniform_shape(&self) -> Vec<Option<usize>> {
        let physical = self.physical_uniform_shape();
        self.logical_axes().map(|p| physical[p]).collect()
    }

    /// Names of the logical dimensions, if the physical ones are named.
    pub fn logical_dim_names(&self) -> Option<Vec<String>> {
        let names = self.dim_names.as_ref()?;
        Some(self.logical_axes().map(|p| names[p].clone()).collect())
    }

    /// The physical axis of each logical axis.
    fn logical_axes(&self) -> impl ExactSizeIterator<Item = usize> + '_ {
        (0..self.ndim).map(|i| self.permutation.as_ref().map_or(i, |perm| perm[i]))
    }

    /// The logical shape and the element strides of each logical dimension into the stored
    /// values of a row of physical shape `physical`.
    pub fn logical_layout(&self, physical: &[usize]) -> (Vec<usize>, Vec<usize>) {
        let strides = row_major_strides(physical);
        self.logical_axes()
            .map(|p| (physical[p], strides[p]))
            .unzip()
    }

    /// The fixed-shape tensor type of a row of physical shape `physical` (same element type,
    /// dim names and permutation).
    pub fn row_type(&self, physical: &[usize]) -> Result<TensorType, TensorError> {
        TensorType::new(self.element.clone(), physical.to_vec())?
            .with_dim_names(self.dim_names.clone())?
            .with_permutation(self.permutation.clone())
    }

    /// The row-major type of the logical tensors: what this type's values become once
    /// written out in logical order (outputs are never permuted, spec.md §1).
    #[must_use]
    pub fn to_row_major(&self) -> Self {
        Self {
            element: self.element.clone(),
            ndim: self.ndim,
            dim_names: self.logical_dim_names(),
            permutation: None,
            uniform_shape: self
                .uniform_shape
                .as_ref()
                .map(|_| self.logical_uniform_shape()),
        }
    }

    /// The row-major type of the logical tensors holding `element`s: the type of a result that
    /// keeps every row's shape.
    pub fn row_major_of(&self, element: DataType) -> Result<Self, TensorError> {
        check_element_type(&element)?;
        Ok(Self {
            element,
            ..self.to_row_major()
        })
    }

    /// The storage type. Child fields are nullable, as pyarrow makes them.
    pub fn storage_type(&self) -> DataType {
        DataType::Struct(Fields::from(vec![
            Field::new(
                DATA_FIELD_NAME,
                DataType::List(Arc::new(Field::new(
                    ITEM_FIELD_NAME,
                    self.element.clone(),
                    true,
                ))),
                true,
            ),
            Field::new(SHAPE_FIELD_NAME, shape_type(self.ndim), true),
        ]))
    }

    /// The extension metadata JSON as Arrow C++ writes it: keys in its order, absent ones
    /// omitted, `{}` when there are none; `uniform_shape` holds `null` for varying dims.
    pub fn metadata_json(&self) -> String {
        let mut keys = Vec::new();
        if let Some(perm) = &self.permutation {
            let mut out = String::from("\"permutation\":");
            push_json_usizes(&mut out, perm);
            keys.push(out);
        }
        if let Some(names) = &self.dim_names {
            keys.push(format!("\"dim_names\":{}", Value::from(names.clone())));
        }
        if let Some(uniform) = &self.uniform_shape {
            let dims: Vec<String> = uniform
                .iter()
                .map(|d| d.map_or_else(|| "null".to_string(), |d| d.to_string()))
                .collect();
            keys.push(format!("\"uniform_shape\":[{}]", dims.join(",")));
        }
        format!("{{{}}}", keys.join(","))
    }

    /// The field metadata that marks a field as this type.
    pub fn field_metadata(&self) -> HashMap<String, String> {
        HashMap::from([
            (
                EXTENSION_TYPE_NAME_KEY.to_string(),
                VARIABLE_EXTENSION_NAME.to_string(),
            ),
            (
                EXTENSION_TYPE_METADATA_KEY.to_string(),
                self.metadata_json(),
            ),
        ])
    }

    /// A nullable field of this type.
    pub fn to_field(&self, name: impl Into<String>) -> Field {
        Field::new(name, self.storage_type(), true).with_metadata(self.field_metadata())
    }
}

impl VariableShapeType {
    /// The type as `tensor_type` and `DESCRIBE` name it, its metadata in full:
    /// `arrow.variable_shape_tensor<UInt8, ndim 3, uniform_shape [3, null, null]>`, with the
    /// permutation and dim names when present (physical, as stored).
    pub fn type_name(&self) -> String {
        let mut out = format!(
            "{VARIABLE_EXTENSION_NAME}<{}, ndim {}",
            self.element, self.ndim
        );
        if let Some(uniform) = &self.uniform_shape {
            let dims: Vec<String> = uniform
                .iter()
                .map(|d| d.map_or_else(|| "null".to_string(), |d| d.to_string()))
                .collect();
            out.push_str(", uniform_shape [");
            out.push_str(&dims.join(", "));
            out.push(']');
        }
        if let Some(perm) = &self.permutation {
            let _ = write!(out, ", permutation {perm:?}");
        }
        crate::tensor_type::push_dim_names(&mut out, self.dim_names.as_deref());
        out.push('>');
        out
    }
}

impl fmt::Display for VariableShapeType {
    /// `VariableShapeTensor<UInt8, (3, ?, ?)>`: the logical shape with `?` where rows differ,
    /// and the permutation and dim names when present.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let dims: Vec<String> = self
            .logical_uniform_shape()
            .iter()
            .map(|d| d.map_or_else(|| "?".to_string(), |d| d.to_string()))
            .collect();
        let shape = if dims.len() == 1 {
            format!("({},)", dims[0])
        } else {
            format!("({})", dims.join(", "))
        };
        write!(f, "VariableShapeTensor<{}, {shape}", self.element)?;
        if let Some(perm) = &self.permutation {
            write!(f, ", permutation {perm:?}")?;
        }
        if let Some(names) = &self.dim_names {
            write!(f, ", dim_names {names:?}")?;
        }
        f.write_str(">")
    }
}

/// The type of the storage's `shape` field for `ndim` dimensions.
fn shape_type(ndim: usize) -> DataType {
    DataType::FixedSizeList(
        Arc::new(Field::new(ITEM_FIELD_NAME, DataType::Int32, true)),
        i32::try_from(ndim).unwrap_or(i32::MAX),
    )
}

/// The element type and number of dimensions of a variable-shape tensor's storage type.
fn storage_parts(storage_type: &DataType) -> Result<(DataType, usize), TensorError> {
    let wrong = || {
        TensorError::Shape(format!(
            "{VARIABLE_EXTENSION_NAME} must be stored as Struct<{DATA_FIELD_NAME}: List<T>, {SHAPE_FIELD_NAME}: FixedSizeList<Int32>[ndim]>, not {storage_type}"
        ))
    };
    let DataType::Struct(fields) = storage_type else {
        return Err(wrong());
    };
    let field = |name: &str| fields.iter().find(|f| f.name() == name);
    let (Some(data), Some(shape), 2) = (
        field(DATA_FIELD_NAME),
        field(SHAPE_FIELD_NAME),
        fields.len(),
    ) else {
        return Err(wrong());
    };
    let (DataType::List(item), DataType::FixedSizeList(dim, ndim)) =
        (data.data_type(), shape.data_type())
    else {
        return Err(wrong());
    };
    if *dim.data_type() != DataType::Int32 {
        return Err(wrong());
    }
    let ndim = usize::try_from(*ndim).map_err(|_| wrong())?;
    Ok((item.data_type().clone(), ndim))
}

/// Whether `field` carries the `arrow.variable_shape_tensor` extension name (valid or not).
pub fn has_variable_shape_extension(field: &Field) -> bool {
    field
        .metadata()
        .get(EXTENSION_TYPE_NAME_KEY)
        .map(String::as_str)
        == Some(VARIABLE_EXTENSION_NAME)
}

/// Whether `field` carries either tensor extension name, fixed- or variable-shape (valid or
/// not): a tensor column, where a plain `FixedSizeList` is not.
pub(crate) fn has_any_tensor_extension(field: &Field) -> bool {
    has_tensor_extension(field) || has_variable_shape_extension(field)
}

/// One batch of a variable-shape tensor column, its row shapes checked against its type:
/// every non-NULL row's shape is non-negative, matches the uniform dimensions, and has as many
/// elements as its data holds.
#[derive(Debug)]
pub struct VariableShapeArray<'a> {
    tensor: VariableShapeType,
    data: &'a ListArray,
    /// `ndim` physical dimensions per row (of the batch's rows only).
    shapes: &'a [i32],
    nulls: Option<NullBuffer>,
}

impl<'a> VariableShapeArray<'a> {
    /// Views `array` (the storage struct) as tensors of type `tensor`; a data error naming the
    /// first row whose shape is invalid.
    pub fn try_new(tensor: &VariableShapeType, array: &'a dyn Array) -> Result<Self, TensorError> {
        let wrong = || {
            TensorError::Internal(format!(
                "expected the storage of {tensor} at run time, got {}",
                array.data_type()
            ))
        };
        let storage = array
            .as_any()
            .downcast_ref::<StructArray>()
            .ok_or_else(wrong)?;
        let data = storage
            .column_by_name(DATA_FIELD_NAME)
            .and_then(|c| c.as_list_opt::<i32>())
            .ok_or_else(wrong)?;
        let shape_list = storage
            .column_by_name(SHAPE_FIELD_NAME)
            .and_then(|c| c.as_any().downcast_ref::<FixedSizeListArray>())
            .ok_or_else(wrong)?;
        let shapes = shape_list
            .values()
            .as_primitive_opt::<Int32Type>()
            .ok_or_else(wrong)?
            .values();
        let rows = storage.len();
        let ndim = tensor.ndim;
        if shapes.len() < rows * ndim {
            return Err(wrong());
        }
        // A row is NULL when the struct is, or (leniently) when its data or shape is.
        let nulls = NullBuffer::union(
            NullBuffer::union(storage.nulls(), data.nulls()).as_ref(),
            shape_list.nulls(),
        );
        let view = Self {
            tensor: tensor.clone(),
            data,
            shapes: &shapes[..rows * ndim],
            nulls,
        };
        view.check_rows()?;
        Ok(view)
    }

    fn check_rows(&self) -> Result<(), TensorError> {
        let uniform = self.tensor.physical_uniform_shape();
        let offsets = self.data.value_offsets();
        for row in 0..self.len() {
            if self.is_null(row) {
                continue;
            }
            let shape = self.raw_shape(row);
            let invalid = |why: String| {
                TensorError::Data(format!(
                    "row {row} of its batch has an invalid {VARIABLE_EXTENSION_NAME} shape {shape:?}: {why}"
                ))
            };
            if let Some(d) = shape.iter().find(|&&d| d < 0) {
                return Err(invalid(format!("negative dimension {d}")));
            }
            let dims: Vec<usize> = shape.iter().map(|&d| d as usize).collect();
            if let Some((axis, want)) = uniform
                .iter()
                .enumerate()
                .find_map(|(axis, u)| u.filter(|&u| u != dims[axis]).map(|u| (axis, u)))
            {
                return Err(invalid(format!(
                    "dimension {axis} is {} but uniform_shape fixes it at {want}",
                    dims[axis]
                )));
            }
            let size = checked_size(&dims).map_err(|e| invalid(e.to_string()))?;
            let held = (offsets[row + 1] - offsets[row]) as usize;
            if size != held {
                return Err(invalid(format!(
                    "shape {} has {size} elements but the row's data holds {held}",
                    format_shape(&dims)
                )));
            }
        }
        Ok(())
    }

    /// The type.
    pub fn tensor(&self) -> &VariableShapeType {
        &self.tensor
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.data.len()
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The NULL rows.
    pub fn nulls(&self) -> Option<&NullBuffer> {
        self.nulls.as_ref()
    }

    /// Whether `row` is NULL.
    pub fn is_null(&self, row: usize) -> bool {
        self.nulls.as_ref().is_some_and(|n| n.is_null(row))
    }

    fn raw_shape(&self, row: usize) -> &[i32] {
        &self.shapes[row * self.tensor.ndim..(row + 1) * self.tensor.ndim]
    }

    /// The physical shape of a non-NULL `row` (checked non-negative); NULL rows read as
    /// whatever their storage holds, clamped at zero.
    pub fn physical_shape(&self, row: usize) -> impl ExactSizeIterator<Item = usize> + '_ {
        self.raw_shape(row).iter().map(|&d| d.max(0) as usize)
    }

    /// The logical shape of `row` (its permutation applied).
    pub fn logical_shape(&self, row: usize) -> impl ExactSizeIterator<Item = usize> + '_ {
        let shape = self.raw_shape(row);
        self.tensor
            .logical_axes()
            .map(move |p| shape[p].max(0) as usize)
    }

    /// The element range of `row` in [`Self::values`] (empty for a NULL row).
    pub fn value_range(&self, row: usize) -> std::ops::Range<usize> {
        if self.is_null(row) {
            return 0..0;
        }
        let offsets = self.data.value_offsets();
        offsets[row] as usize..offsets[row + 1] as usize
    }

    /// How many values `row`'s storage holds (a NULL row's included).
    pub fn stored_len(&self, row: usize) -> usize {
        let offsets = self.data.value_offsets();
        (offsets[row + 1] - offsets[row]) as usize
    }

    /// Whether some NULL row's storage holds values (which a copy of the batch's values, in
    /// one piece, would then carry along).
    pub fn null_rows_hold_values(&self) -> bool {
        let offsets = self.data.value_offsets();
        self.nulls.as_ref().is_some_and(|nulls| {
            nulls
                .iter()
                .enumerate()
                .any(|(row, valid)| !valid && offsets[row + 1] != offsets[row])
        })
    }

    /// The stored values of the batch's rows in one piece, NULL rows' included: rows start at
    /// [`Self::value_range`] minus the first row's start.
    pub fn batch_values(&self) -> (Arc<dyn Array>, usize) {
        let offsets = self.data.value_offsets();
        let start = offsets[0] as usize;
        let end = offsets[self.len()] as usize;
        (self.data.values().slice(start, end - start), start)
    }

    /// All rows' stored values (the data list's child array, not sliced to this batch).
    pub fn values(&self) -> &'a Arc<dyn Array> {
        self.data.values()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow::array::{Int32Array, UInt8Array};
    use arrow::buffer::OffsetBuffer;

    fn field(element: DataType, ndim: i32, json: Option<&str>) -> Field {
        let tensor = VariableShapeType::new(element, ndim as usize).unwrap();
        let mut metadata = HashMap::from([(
            EXTENSION_TYPE_NAME_KEY.to_string(),
            VARIABLE_EXTENSION_NAME.to_string(),
        )]);
        if let Some(json) = json {
            metadata.insert(EXTENSION_TYPE_METADATA_KEY.to_string(), json.to_string());
        }
        Field::new("t", tensor.storage_type(), true).with_metadata(metadata)
    }

    fn read(json: &str) -> Result<VariableShapeType, TensorError> {
        VariableShapeType::from_field(&field(DataType::UInt8, 3, Some(json))).map(Option::unwrap)
    }

    #[test]
    fn reads_what_arrow_cpp_writes() {
        // pyarrow 26 (Arrow C++) for uniform_shape [3, None, None], and for a permutation
        // with dim names; it writes "{}" when there are no parameters.
        let t = read(r#"{"uniform_shape":[3,null,null]}"#).unwrap();
        assert_eq!(t.physical_uniform_shape(), vec![Some(3), None, None]);
        assert_eq!(t.metadata_json(), r#"{"uniform_shape":[3,null,null]}"#);
        let json =
            r#"{"permutation":[2,0,1],"dim_names":["C","H","W"],"uniform_shape":[3,null,4]}"#;
        let t = read(json).unwrap();
        assert_eq!(t.metadata_json(), json);
        assert_eq!(t.logical_uniform_shape(), vec![Some(4), Some(3), None]);
        assert_eq!(
            t.logical_dim_names().unwrap(),
            vec!["W".to_string(), "C".to_string(), "H".to_string()]
        );
        assert_eq!(
            t.logical_layout(&[3, 5, 4]),
            (vec![4, 3, 5], vec![1, 20, 4])
        );
        assert_eq!(
            t.to_string(),
            "VariableShapeTensor<UInt8, (4, 3, ?), permutation [2, 0, 1], dim_names [\"C\", \"H\", \"W\"]>"
        );
        let plain = read("{}").unwrap();
        assert_eq!(plain.metadata_json(), "{}");
        assert_eq!(plain, read("").unwrap());
        assert_eq!(
            plain,
            VariableShapeType::from_field(&field(DataType::UInt8, 3, None))
                .unwrap()
                .unwrap()
        );
        // Identity permutations and all-null uniform shapes say nothing.
        assert_eq!(
            read(r#"{"permutation":[0,1,2],"uniform_shape":[null,null,null],"dim_names":null}"#)
                .unwrap(),
            plain
        );
        assert_eq!(
            read(r#"{"permutations":[1,0,2]}"#).unwrap().permutation(),
            Some(&[1, 0, 2][..])
        );
    }

    #[test]
    fn malformed_metadata_and_storage_are_errors() {
        for (json, expected) in [
            (
                "[",
                "invalid arrow.variable_shape_tensor metadata \"[\": not valid JSON",
            ),
            (
                r#"{"uniform_shape":[1,2]}"#,
                "uniform_shape has 2 entries but the tensor has 3 dimensions",
            ),
            (
                r#"{"uniform_shape":[1,-2,null]}"#,
                "must hold non-negative integers or nulls, found -2",
            ),
            (
                r#"{"uniform_shape":3}"#,
                "must be a list of integers and nulls",
            ),
            (r#"{"permutation":[0,0,1]}"#, "is not a permutation"),
            (
                r#"{"dim_names":["a"]}"#,
                "dim_names has 1 names but the tensor has 3 dimensions",
            ),
        ] {
            let err = read(json).unwrap_err().to_string();
            assert!(err.contains(expected), "{json}: {err}");
        }
        let err = VariableShapeType::from_extension(&DataType::Int32, None)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("must be stored as Struct<data: List<T>"),
            "{err}"
        );
        let utf8 = Field::new(
            "t",
            DataType::Struct(Fields::from(vec![
                Field::new("data", DataType::new_list(DataType::Utf8, true), true),
                Field::new("shape", shape_type(1), true),
            ])),
            true,
        )
        .with_metadata(field(DataType::UInt8, 1, None).metadata().clone());
        let err = VariableShapeType::from_field(&utf8)
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("tensor element type Utf8 is not supported"),
            "{err}"
        );
    }

    #[test]
    fn field_round_trip_and_classification() {
        let t = VariableShapeType::new(DataType::Float32, 2)
            .unwrap()
            .with_dim_names(Some(vec!["h".into(), "w".into()]))
            .unwrap()
            .with_permutation(Some(vec![1, 0]))
            .unwrap()
            .with_uniform_shape(Some(vec![None, Some(2)]))
            .unwrap();
        let f = t.to_field("x");
        assert_eq!(VariableShapeType::from_field(&f).unwrap().unwrap(), t);
        assert_eq!(
            AnyTensorType::from_field(&f).unwrap().unwrap(),
            AnyTensorType::Variable(t.clone())
        );
        assert_eq!(
            crate::tensor_type::TensorType::from_field(&f).unwrap(),
            None
        );
        let DataType::Struct(fields) = f.data_type() else {
            unreachable!()
        };
        assert!(fields.iter().all(|f| f.is_nullable()));
        let row_major = t.to_row_major();
        assert_eq!(
            row_major.metadata_json(),
            r#"{"dim_names":["w","h"],"uniform_shape":[2,null]}"#
        );
    }

    fn batch(shapes: &[[i32; 2]], lengths: &[usize], nulls: Option<Vec<bool>>) -> StructArray {
        let total: usize = lengths.iter().sum();
        let data = ListArray::new(
            Arc::new(Field::new("item", DataType::UInt8, true)),
            OffsetBuffer::from_lengths(lengths.iter().copied()),
            Arc::new(UInt8Array::from_iter_values((0..total).map(|v| v as u8))),
            None,
        );
        let shape = FixedSizeListArray::new(
            Arc::new(Field::new("item", DataType::Int32, true)),
            2,
            Arc::new(Int32Array::from_iter_values(
                shapes.iter().flatten().copied(),
            )),
            None,
        );
        let DataType::Struct(fields) = VariableShapeType::new(DataType::UInt8, 2)
            .unwrap()
            .storage_type()
        else {
            unreachable!()
        };
        StructArray::new(
            fields,
            vec![Arc::new(data), Arc::new(shape)],
            nulls.map(NullBuffer::from),
        )
    }

    #[test]
    fn rows_are_checked_against_their_shapes() {
        let t = VariableShapeType::new(DataType::UInt8, 2)
            .unwrap()
            .with_uniform_shape(Some(vec![Some(2), None]))
            .unwrap();
        let good = batch(
            &[[2, 3], [0, 0], [2, 0]],
            &[6, 0, 0],
            Some(vec![true, false, true]),
        );
        let view = VariableShapeArray::try_new(&t, &good).unwrap();
        assert_eq!(view.physical_shape(0).collect::<Vec<_>>(), vec![2, 3]);
        assert_eq!(view.value_range(0), 0..6);
        assert!(view.is_null(1));
        assert_eq!(view.value_range(2), 6..6);
        // Sliced, the shapes and offsets follow.
        let sliced = good.slice(2, 1);
        let view = VariableShapeArray::try_new(&t, &sliced).unwrap();
        assert_eq!(view.physical_shape(0).collect::<Vec<_>>(), vec![2, 0]);
        for (array, expected) in [
            (
                batch(&[[2, 3], [2, 2]], &[6, 3], None),
                "row 1 of its batch has an invalid arrow.variable_shape_tensor shape [2, 2]: shape (2, 2) has 4 elements but the row's data holds 3",
            ),
            (
                batch(&[[3, 1]], &[3], None),
                "row 0 of its batch has an invalid arrow.variable_shape_tensor shape [3, 1]: dimension 0 is 3 but uniform_shape fixes it at 2",
            ),
            (batch(&[[2, -1]], &[0], None), "negative dimension -1"),
        ] {
            let err = VariableShapeArray::try_new(&t, &array)
                .unwrap_err()
                .to_string();
            assert!(err.contains(expected), "{err}");
        }
    }
}
