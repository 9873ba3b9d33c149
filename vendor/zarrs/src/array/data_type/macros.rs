//! Macros for implementing [`DataTypeTraits`](zarrs_data_type::DataTypeTraits) for data type markers.

/// Helper macro to implement `DataTypeTraits` for simple fixed-size numeric types.
///
/// This macro implements the `DataTypeTraits` trait and `BytesDataTypeTraits` trait,
/// and also registers the type with the bytes codec registry.
///
/// Usage:
/// - `impl_data_type_extension_numeric!(MarkerType, size, rust_type)` - basic implementation
macro_rules! impl_data_type_extension_numeric {
    ($marker:ty, $size:tt, $rust_type:tt) => {
        impl zarrs_data_type::DataTypeTraits for $marker {
            fn configuration(&self, _version: zarrs_plugin::ZarrVersion) -> zarrs_metadata::Configuration {
                zarrs_metadata::Configuration::default()
            }

            fn size(&self) -> zarrs_metadata::DataTypeSize {
                zarrs_metadata::DataTypeSize::Fixed($size)
            }

            fn fill_value(
                &self,
                fill_value_metadata: &zarrs_metadata::FillValueMetadata,
                version: zarrs_plugin::ZarrVersion,
            ) -> Result<zarrs_data_type::FillValue, zarrs_data_type::DataTypeFillValueMetadataError> {
                // V2: null fill value means default (0 for numeric types)
                if matches!(version, zarrs_plugin::ZarrVersion::V2)
                    && fill_value_metadata.is_null()
                {
                    return impl_data_type_extension_numeric!(@fill_value_default $rust_type);
                }
                impl_data_type_extension_numeric!(@fill_value self, fill_value_metadata, $rust_type)
            }

            fn metadata_fill_value(
                &self,
                fill_value: &zarrs_data_type::FillValue,
            ) -> Result<zarrs_metadata::FillValueMetadata, zarrs_data_type::DataTypeFillValueError> {
                impl_data_type_extension_numeric!(@metadata_fill_value self, fill_value, $rust_type, $size)
            }

            fn as_any(&self) -> &dyn std::any::Any {
                self
            }

            fn compatible_element_types(&self) -> &'static [std::any::TypeId] {
                impl_data_type_extension_numeric!(@compatible_element_types $rust_type)
            }
        }

        zarrs_data_type::codec_traits::impl_bytes_data_type_traits!($marker, $size);
    };

    // Compatible element types for standard primitive types
    (@compatible_element_types i8) => {{
        const TYPES: [std::any::TypeId; 1] = [std::any::TypeId::of::<i8>()];
        &TYPES
    }};
    (@compatible_element_types i16) => {{
        const TYPES: [std::any::TypeId; 1] = [std::any::TypeId::of::<i16>()];
        &TYPES
    }};
    (@compatible_element_types i32) => {{
        const TYPES: [std::any::TypeId; 1] = [std::any::TypeId::of::<i32>()];
        &TYPES
    }};
    (@compatible_element_types i64) => {{
        const TYPES: [std::any::TypeId; 1] = [std::any::TypeId::of::<i64>()];
        &TYPES
    }};
    (@compatible_element_types u8) => {{
        const TYPES: [std::any::TypeId; 1] = [std::any::TypeId::of::<u8>()];
        &TYPES
    }};
    (@compatible_element_types u16) => {{
        const TYPES: [std::any::TypeId; 1] = [std::any::TypeId::of::<u16>()];
        &TYPES
    }};
    (@compatible_element_types u32) => {{
        const TYPES: [std::any::TypeId; 1] = [std::any::TypeId::of::<u32>()];
        &TYPES
    }};
    (@compatible_element_types u64) => {{
        const TYPES: [std::any::TypeId; 1] = [std::any::TypeId::of::<u64>()];
        &TYPES
    }};
    (@compatible_element_types f16) => {{
        const TYPES: [std::any::TypeId; 1] = [std::any::TypeId::of::<half::f16>()];
        &TYPES
    }};
    (@compatible_element_types bf16) => {{
        const TYPES: [std::any::TypeId; 1] = [std::any::TypeId::of::<half::bf16>()];
        &TYPES
    }};
    (@compatible_element_types f32) => {{
        const TYPES: [std::any::TypeId; 1] = [std::any::TypeId::of::<f32>()];
        &TYPES
    }};
    (@compatible_element_types f64) => {{
        const TYPES: [std::any::TypeId; 1] = [std::any::TypeId::of::<f64>()];
        &TYPES
    }};

    // Fill value from metadata for signed integers
    (@fill_value $self:ident, $fill_value_metadata:ident, i8) => {{
        let err = || zarrs_data_type::DataTypeFillValueMetadataError;
        let int = $fill_value_metadata.as_i64().ok_or_else(err)?;
        let int = i8::try_from(int).map_err(|_| err())?;
        Ok(zarrs_data_type::FillValue::from(int))
    }};
    (@fill_value $self:ident, $fill_value_metadata:ident, i16) => {{
        let err = || zarrs_data_type::DataTypeFillValueMetadataError;
        let int = $fill_value_metadata.as_i64().ok_or_else(err)?;
        let int = i16::try_from(int).map_err(|_| err())?;
        Ok(zarrs_data_type::FillValue::from(int))
    }};
    (@fill_value $self:ident, $fill_value_metadata:ident, i32) => {{
        let err = || zarrs_data_type::DataTypeFillValueMetadataError;
        let int = $fill_value_metadata.as_i64().ok_or_else(err)?;
        let int = i32::try_from(int).map_err(|_| err())?;
        Ok(zarrs_data_type::FillValue::from(int))
    }};
    (@fill_value $self:ident, $fill_value_metadata:ident, i64) => {{
        let err = || zarrs_data_type::DataTypeFillValueMetadataError;
        let int = $fill_value_metadata.as_i64().ok_or_else(err)?;
        Ok(zarrs_data_type::FillValue::from(int))
    }};
    // Fill value from metadata for unsigned integers
    (@fill_value $self:ident, $fill_value_metadata:ident, u8) => {{
        let err = || zarrs_data_type::DataTypeFillValueMetadataError;
        let int = $fill_value_metadata.as_u64().ok_or_else(err)?;
        let int = u8::try_from(int).map_err(|_| err())?;
        Ok(zarrs_data_type::FillValue::from(int))
    }};
    (@fill_value $self:ident, $fill_value_metadata:ident, u16) => {{
        let err = || zarrs_data_type::DataTypeFillValueMetadataError;
        let int = $fill_value_metadata.as_u64().ok_or_else(err)?;
        let int = u16::try_from(int).map_err(|_| err())?;
        Ok(zarrs_data_type::FillValue::from(int))
    }};
    (@fill_value $self:ident, $fill_value_metadata:ident, u32) => {{
        let err = || zarrs_data_type::DataTypeFillValueMetadataError;
        let int = $fill_value_metadata.as_u64().ok_or_else(err)?;
        let int = u32::try_from(int).map_err(|_| err())?;
        Ok(zarrs_data_type::FillValue::from(int))
    }};
    (@fill_value $self:ident, $fill_value_metadata:ident, u64) => {{
        let err = || zarrs_data_type::DataTypeFillValueMetadataError;
        let int = $fill_value_metadata.as_u64().ok_or_else(err)?;
        Ok(zarrs_data_type::FillValue::from(int))
    }};
    // Fill value from metadata for floats
    (@fill_value $self:ident, $fill_value_metadata:ident, f16) => {{
        let err = || zarrs_data_type::DataTypeFillValueMetadataError;
        Ok(zarrs_data_type::FillValue::from($fill_value_metadata.as_f16().ok_or_else(err)?))
    }};
    (@fill_value $self:ident, $fill_value_metadata:ident, bf16) => {{
        let err = || zarrs_data_type::DataTypeFillValueMetadataError;
        Ok(zarrs_data_type::FillValue::from($fill_value_metadata.as_bf16().ok_or_else(err)?))
    }};
    (@fill_value $self:ident, $fill_value_metadata:ident, f32) => {{
        let err = || zarrs_data_type::DataTypeFillValueMetadataError;
        Ok(zarrs_data_type::FillValue::from($fill_value_metadata.as_f32().ok_or_else(err)?))
    }};
    (@fill_value $self:ident, $fill_value_metadata:ident, f64) => {{
        let err = || zarrs_data_type::DataTypeFillValueMetadataError;
        Ok(zarrs_data_type::FillValue::from($fill_value_metadata.as_f64().ok_or_else(err)?))
    }};

    // Default fill value for V2 null (0 for numeric types)
    (@fill_value_default i8) => {{ Ok(zarrs_data_type::FillValue::from(0i8)) }};
    (@fill_value_default i16) => {{ Ok(zarrs_data_type::FillValue::from(0i16)) }};
    (@fill_value_default i32) => {{ Ok(zarrs_data_type::FillValue::from(0i32)) }};
    (@fill_value_default i64) => {{ Ok(zarrs_data_type::FillValue::from(0i64)) }};
    (@fill_value_default u8) => {{ Ok(zarrs_data_type::FillValue::from(0u8)) }};
    (@fill_value_default u16) => {{ Ok(zarrs_data_type::FillValue::from(0u16)) }};
    (@fill_value_default u32) => {{ Ok(zarrs_data_type::FillValue::from(0u32)) }};
    (@fill_value_default u64) => {{ Ok(zarrs_data_type::FillValue::from(0u64)) }};
    (@fill_value_default f16) => {{ Ok(zarrs_data_type::FillValue::from(half::f16::ZERO)) }};
    (@fill_value_default bf16) => {{ Ok(zarrs_data_type::FillValue::from(half::bf16::ZERO)) }};
    (@fill_value_default f32) => {{ Ok(zarrs_data_type::FillValue::from(0.0f32)) }};
    (@fill_value_default f64) => {{ Ok(zarrs_data_type::FillValue::from(0.0f64)) }};

    // Metadata fill value for specific types
    (@metadata_fill_value $self:ident, $fill_value:ident, i8, 1) => {{
        let bytes: [u8; 1] = $fill_value.as_ne_bytes().try_into().map_err(|_| zarrs_data_type::DataTypeFillValueError)?;
        let number = i8::from_ne_bytes(bytes);
        Ok(zarrs_metadata::FillValueMetadata::from(number))
    }};
    (@metadata_fill_value $self:ident, $fill_value:ident, i16, 2) => {{
        let bytes: [u8; 2] = $fill_value.as_ne_bytes().try_into().map_err(|_| zarrs_data_type::DataTypeFillValueError)?;
        let number = i16::from_ne_bytes(bytes);
        Ok(zarrs_metadata::FillValueMetadata::from(number))
    }};
    (@metadata_fill_value $self:ident, $fill_value:ident, i32, 4) => {{
        let bytes: [u8; 4] = $fill_value.as_ne_bytes().try_into().map_err(|_| zarrs_data_type::DataTypeFillValueError)?;
        let number = i32::from_ne_bytes(bytes);
        Ok(zarrs_metadata::FillValueMetadata::from(number))
    }};
    (@metadata_fill_value $self:ident, $fill_value:ident, i64, 8) => {{
        let bytes: [u8; 8] = $fill_value.as_ne_bytes().try_into().map_err(|_| zarrs_data_type::DataTypeFillValueError)?;
        let number = i64::from_ne_bytes(bytes);
        Ok(zarrs_metadata::FillValueMetadata::from(number))
    }};
    (@metadata_fill_value $self:ident, $fill_value:ident, u8, 1) => {{
        let bytes: [u8; 1] = $fill_value.as_ne_bytes().try_into().map_err(|_| zarrs_data_type::DataTypeFillValueError)?;
        let number = u8::from_ne_bytes(bytes);
        Ok(zarrs_metadata::FillValueMetadata::from(number))
    }};
    (@metadata_fill_value $self:ident, $fill_value:ident, u16, 2) => {{
        let bytes: [u8; 2] = $fill_value.as_ne_bytes().try_into().map_err(|_| zarrs_data_type::DataTypeFillValueError)?;
        let number = u16::from_ne_bytes(bytes);
        Ok(zarrs_metadata::FillValueMetadata::from(number))
    }};
    (@metadata_fill_value $self:ident, $fill_value:ident, u32, 4) => {{
        let bytes: [u8; 4] = $fill_value.as_ne_bytes().try_into().map_err(|_| zarrs_data_type::DataTypeFillValueError)?;
        let number = u32::from_ne_bytes(bytes);
        Ok(zarrs_metadata::FillValueMetadata::from(number))
    }};
    (@metadata_fill_value $self:ident, $fill_value:ident, u64, 8) => {{
        let bytes: [u8; 8] = $fill_value.as_ne_bytes().try_into().map_err(|_| zarrs_data_type::DataTypeFillValueError)?;
        let number = u64::from_ne_bytes(bytes);
        Ok(zarrs_metadata::FillValueMetadata::from(number))
    }};
    (@metadata_fill_value $self:ident, $fill_value:ident, f16, 2) => {{
        let bytes: [u8; 2] = $fill_value.as_ne_bytes().try_into().map_err(|_| zarrs_data_type::DataTypeFillValueError)?;
        let number = half::f16::from_ne_bytes(bytes);
        Ok(zarrs_metadata::FillValueMetadata::from(number))
    }};
    (@metadata_fill_value $self:ident, $fill_value:ident, bf16, 2) => {{
        let bytes: [u8; 2] = $fill_value.as_ne_bytes().try_into().map_err(|_| zarrs_data_type::DataTypeFillValueError)?;
        let number = half::bf16::from_ne_bytes(bytes);
        Ok(zarrs_metadata::FillValueMetadata::from(number))
    }};
    (@metadata_fill_value $self:ident, $fill_value:ident, f32, 4) => {{
        let bytes: [u8; 4] = $fill_value.as_ne_bytes().try_into().map_err(|_| zarrs_data_type::DataTypeFillValueError)?;
        let number = f32::from_ne_bytes(bytes);
        Ok(zarrs_metadata::FillValueMetadata::from(number))
    }};
    (@metadata_fill_value $self:ident, $fill_value:ident, f64, 8) => {{
        let bytes: [u8; 8] = $fill_value.as_ne_bytes().try_into().map_err(|_| zarrs_data_type::DataTypeFillValueError)?;
        let number = f64::from_ne_bytes(bytes);
        Ok(zarrs_metadata::FillValueMetadata::from(number))
    }};
}

pub(crate) use impl_data_type_extension_numeric;

/// Macro to register a configuration free data type a `DataTypePluginV3`.
///
/// These data types must be a marker type (i.e. unit struct).
#[doc(hidden)]
#[macro_export]
macro_rules! _register_data_type_plugin_v3 {
    ($marker:ident) => {
        impl zarrs_data_type::DataTypeTraitsV3 for $marker {
            fn create(
                metadata: &zarrs_metadata::v3::MetadataV3,
            ) -> Result<zarrs_data_type::DataType, zarrs_plugin::PluginCreateError> {
                metadata.to_typed_configuration::<zarrs_metadata::EmptyConfiguration>()?;
                Ok(std::sync::Arc::new($marker).into())
            }
        }

        // Register V3 plugin
        inventory::submit! {
            zarrs_data_type::DataTypePluginV3::new::<$marker>()
        }
    };
}

#[allow(unused_imports)]
#[doc(inline)]
pub(crate) use _register_data_type_plugin_v3 as register_data_type_plugin_v3;

/// Macro to register a configuration free data type a `DataTypePluginV2`.
///
/// These data types must be a marker type (i.e. unit struct).
#[doc(hidden)]
#[macro_export]
macro_rules! _register_data_type_plugin_v2 {
    ($marker:ident) => {
        impl zarrs_data_type::DataTypeTraitsV2 for $marker {
            fn create(
                _metadata: &zarrs_metadata::v2::DataTypeMetadataV2,
            ) -> Result<zarrs_data_type::DataType, zarrs_plugin::PluginCreateError> {
                Ok(std::sync::Arc::new($marker).into())
            }
        }

        // Register V2 plugin
        inventory::submit! {
            zarrs_data_type::DataTypePluginV2::new::<$marker>()
        }
    };
}

#[allow(unused_imports)]
#[doc(inline)]
pub(crate) use _register_data_type_plugin_v2 as register_data_type_plugin_v2;

/// Macro to register a configuration free data type as `DataTypePluginV3` and `DataTypePluginV2`.
///
/// These data types must be a marker type (i.e. unit struct) implementing
/// `DataTypeTraitsV3` and `DataTypeTraitsV2`.
#[doc(hidden)]
#[macro_export]
macro_rules! _register_data_type_plugin {
    ($marker:ident) => {
        $crate::_register_data_type_plugin_v3!($marker);
        $crate::_register_data_type_plugin_v2!($marker);
    };
}

#[allow(unused_imports)]
#[doc(inline)]
pub(crate) use _register_data_type_plugin as register_data_type_plugin;
