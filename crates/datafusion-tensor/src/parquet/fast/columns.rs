//! The columns a scan reads, as this reader sees them: their element types and how each is
//! stored in Parquet ([`Element`]), fixed-shape tensor layouts ([`TensorColumn`]) and
//! variable-shape ones ([`VariableColumn`]).

use std::sync::Arc;

use arrow::datatypes::{DataType, FieldRef, Fields};
use datafusion::parquet::basic::{ConvertedType, LogicalType, Type as PhysicalType};
use datafusion::parquet::schema::types::ColumnDescriptor;

use crate::variable_shape::{DATA_FIELD_NAME, SHAPE_FIELD_NAME, has_variable_shape_extension};

/// The element types read here. Each is read from one Parquet physical type, converted as
/// arrow-rs converts it (`parquet::arrow::array_reader::primitive_array`): the narrower
/// integers from INT32 by a truncating `as` cast (arrow-rs checks no range), the unsigned
/// 32- and 64-bit ones by reinterpreting the bits, Float16 from 2-byte fixed-length arrays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Element {
    Float16,
    Float32,
    Float64,
    Int8,
    Int16,
    Int32,
    Int64,
    UInt8,
    UInt16,
    UInt32,
    UInt64,
    Boolean,
}

impl Element {
    pub(super) fn of(data_type: &DataType) -> Option<Self> {
        Some(match data_type {
            DataType::Float16 => Self::Float16,
            DataType::Float32 => Self::Float32,
            DataType::Float64 => Self::Float64,
            DataType::Int8 => Self::Int8,
            DataType::Int16 => Self::Int16,
            DataType::Int32 => Self::Int32,
            DataType::Int64 => Self::Int64,
            DataType::UInt8 => Self::UInt8,
            DataType::UInt16 => Self::UInt16,
            DataType::UInt32 => Self::UInt32,
            DataType::UInt64 => Self::UInt64,
            DataType::Boolean => Self::Boolean,
            _ => return None,
        })
    }

    /// Whether the leaf `descr` stores this element as arrow-rs reads it: its physical type,
    /// and a logical (or legacy converted) type that asks for no conversion but those above.
    pub(super) fn stored_in(self, descr: &ColumnDescriptor) -> bool {
        let logical = descr.logical_type_ref();
        let converted = descr.converted_type();
        let plain = logical.is_none() && converted == ConvertedType::NONE;
        // An integer of `bits` bits, `signed` or not; plain INT32/INT64 are the signed ones.
        let integer = |bits: i8, signed: bool| match logical {
            Some(LogicalType::Integer(int)) => int.bit_width == bits && int.is_signed == signed,
            Some(_) => false,
            None => {
                let legacy = match converted {
                    ConvertedType::INT_8 => Some((8, true)),
                    ConvertedType::INT_16 => Some((16, true)),
                    ConvertedType::INT_32 => Some((32, true)),
                    ConvertedType::INT_64 => Some((64, true)),
                    ConvertedType::UINT_8 => Some((8, false)),
                    ConvertedType::UINT_16 => Some((16, false)),
                    ConvertedType::UINT_32 => Some((32, false)),
                    ConvertedType::UINT_64 => Some((64, false)),
                    ConvertedType::NONE if signed && (bits == 32 || bits == 64) => {
                        Some((bits, true))
                    }
                    _ => None,
                };
                legacy == Some((bits, signed))
            }
        };
        let physical = descr.physical_type();
        match self {
            Self::Float16 => {
                physical == PhysicalType::FIXED_LEN_BYTE_ARRAY
                    && descr.type_length() == 2
                    && matches!(logical, Some(LogicalType::Float16))
            }
            Self::Float32 => physical == PhysicalType::FLOAT && plain,
            Self::Float64 => physical == PhysicalType::DOUBLE && plain,
            Self::Boolean => physical == PhysicalType::BOOLEAN && plain,
            Self::Int8 => physical == PhysicalType::INT32 && integer(8, true),
            Self::Int16 => physical == PhysicalType::INT32 && integer(16, true),
            Self::Int32 => physical == PhysicalType::INT32 && integer(32, true),
            Self::UInt8 => physical == PhysicalType::INT32 && integer(8, false),
            Self::UInt16 => physical == PhysicalType::INT32 && integer(16, false),
            Self::UInt32 => physical == PhysicalType::INT32 && integer(32, false),
            Self::Int64 => physical == PhysicalType::INT64 && integer(64, true),
            Self::UInt64 => physical == PhysicalType::INT64 && integer(64, false),
        }
    }

    /// Bytes of one decoded element (a Boolean's bit counted as a byte).
    pub(super) fn width(self) -> u64 {
        match self {
            Self::Int8 | Self::UInt8 | Self::Boolean => 1,
            Self::Float16 | Self::Int16 | Self::UInt16 => 2,
            Self::Float32 | Self::Int32 | Self::UInt32 => 4,
            Self::Float64 | Self::Int64 | Self::UInt64 => 8,
        }
    }
}

/// A column the scan reads: a tensor column, read here, or any other column, read by
/// arrow-rs's reader from the same fetched bytes.
#[derive(Debug, Clone)]
pub(super) struct ReadColumn {
    /// Its name in the file (the table's field name).
    pub(super) name: String,
    /// The table's type of it.
    pub(super) data_type: DataType,
    /// `Some` for a tensor column.
    pub(super) tensor: Option<TensorColumn>,
    /// `Some` for a variable-shape tensor column.
    pub(super) variable: Option<VariableColumn>,
}

impl ReadColumn {
    /// Whether it is read by arrow-rs's reader (neither kind of tensor).
    pub(super) fn is_other(&self) -> bool {
        self.tensor.is_none() && self.variable.is_none()
    }
}

/// A tensor column's `FixedSizeList` layout.
#[derive(Debug, Clone)]
pub(super) struct TensorColumn {
    pub(super) child: FieldRef,
    pub(super) size: usize,
    pub(super) element: Element,
}

/// A variable-shape tensor column's storage layout, `Struct<data: List<T>, shape:
/// FixedSizeList<Int32>[ndim]>`: its struct fields as the table types them.
#[derive(Debug, Clone)]
pub(super) struct VariableColumn {
    pub(super) fields: Fields,
    /// The `data` list's item field, and the `shape` list's.
    pub(super) item: FieldRef,
    pub(super) shape_item: FieldRef,
    pub(super) ndim: usize,
    pub(super) element: Element,
}

impl VariableColumn {
    /// The layout of `field`, when it is an `arrow.variable_shape_tensor` of a supported
    /// element type and at least one dimension (`None` for any other field).
    pub(super) fn of(field: &arrow::datatypes::Field) -> Option<Self> {
        let DataType::Struct(fields) = field.data_type() else {
            return None;
        };
        if !has_variable_shape_extension(field) {
            return None;
        }
        let [data, shape] = &fields[..] else {
            return None;
        };
        let (DataType::List(item), DataType::FixedSizeList(shape_item, ndim)) =
            (data.data_type(), shape.data_type())
        else {
            return None;
        };
        if data.name() != DATA_FIELD_NAME
            || shape.name() != SHAPE_FIELD_NAME
            || shape_item.data_type() != &DataType::Int32
        {
            return None;
        }
        Some(Self {
            fields: fields.clone(),
            item: Arc::clone(item),
            shape_item: Arc::clone(shape_item),
            ndim: usize::try_from(*ndim).ok().filter(|&n| n > 0)?,
            element: Element::of(item.data_type())?,
        })
    }
}
