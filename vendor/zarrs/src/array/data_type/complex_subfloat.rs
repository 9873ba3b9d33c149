//! Complex subfloat data types (two subfloats packed together).

use super::macros::register_data_type_plugin;

/// Macro to implement `DataTypeTraits` for complex subfloat types (microfloat only).
macro_rules! impl_complex_subfloat_data_type {
    ($marker:ty, $float_type:ty $(, $float8_type:ty)?) => {
        impl zarrs_data_type::DataTypeTraits for $marker {
            fn configuration(
                &self,
                _version: zarrs_plugin::ZarrVersion,
            ) -> zarrs_metadata::Configuration {
                zarrs_metadata::Configuration::default()
            }

            fn size(&self) -> zarrs_metadata::DataTypeSize {
                zarrs_metadata::DataTypeSize::Fixed(2)
            }

            fn fill_value(
                &self,
                fill_value_metadata: &zarrs_metadata::FillValueMetadata,
                _version: zarrs_plugin::ZarrVersion,
            ) -> Result<zarrs_data_type::FillValue, zarrs_data_type::DataTypeFillValueMetadataError>
            {
                if let Some([re, im]) = fill_value_metadata.as_array() {
                    #[cfg(feature = "microfloat")]
                    let parse_component = |v: &zarrs_metadata::FillValueMetadata| -> Option<u8> {
                        if let Some(s) = v.as_str() {
                            if let Some(hex) = s.strip_prefix("0x") {
                                return u8::from_str_radix(hex, 16).ok();
                            }
                            return match s {
                                "NaN" => Some(<$float_type>::NAN.to_bits()),
                                "Infinity" => Some(<$float_type>::INFINITY.to_bits()),
                                "-Infinity" => Some(<$float_type>::NEG_INFINITY.to_bits()),
                                _ => None,
                            };
                        }
                        v.as_f64().map(|f| <$float_type>::from_f64(f).to_bits())
                    };
                    #[cfg(not(feature = "microfloat"))]
                    let parse_hex = |v: &zarrs_metadata::FillValueMetadata| -> Option<u8> {
                        if let Some(s) = v.as_str() {
                            if let Some(hex) = s.strip_prefix("0x") {
                                return u8::from_str_radix(hex, 16).ok();
                            }
                        }
                        if let Some(int) = v.as_u64() {
                            return u8::try_from(int).ok();
                        }
                        None
                    };
                    #[cfg(not(feature = "microfloat"))]
                    let parsed = (parse_hex(re), parse_hex(im));
                    #[cfg(feature = "microfloat")]
                    let parsed = (parse_component(re), parse_component(im));
                    if let (Some(re_byte), Some(im_byte)) = parsed {
                        return Ok(zarrs_data_type::FillValue::from([re_byte, im_byte]));
                    }
                }
                Err(zarrs_data_type::DataTypeFillValueMetadataError)
            }

            fn metadata_fill_value(
                &self,
                fill_value: &zarrs_data_type::FillValue,
            ) -> Result<zarrs_metadata::FillValueMetadata, zarrs_data_type::DataTypeFillValueError>
            {
                let bytes: [u8; 2] = fill_value
                    .as_ne_bytes()
                    .try_into()
                    .map_err(|_| zarrs_data_type::DataTypeFillValueError)?;
                #[cfg(feature = "microfloat")]
                {
                    let component_to_metadata = |byte: u8| {
                        let value = <$float_type>::from_bits(byte);
                        if value.is_nan() {
                            zarrs_metadata::FillValueMetadata::from("NaN".to_string())
                        } else if value.is_infinite() {
                            if value.is_sign_negative() {
                                zarrs_metadata::FillValueMetadata::from("-Infinity".to_string())
                            } else {
                                zarrs_metadata::FillValueMetadata::from("Infinity".to_string())
                            }
                        } else {
                            zarrs_metadata::FillValueMetadata::from(value.to_f64())
                        }
                    };

                    Ok(zarrs_metadata::FillValueMetadata::from(vec![
                        component_to_metadata(bytes[0]),
                        component_to_metadata(bytes[1]),
                    ]))
                }
                #[cfg(not(feature = "microfloat"))]
                {
                    Ok(zarrs_metadata::FillValueMetadata::from(vec![
                        zarrs_metadata::FillValueMetadata::from(format!("0x{:02x}", bytes[0])),
                        zarrs_metadata::FillValueMetadata::from(format!("0x{:02x}", bytes[1])),
                    ]))
                }
            }

            fn as_any(&self) -> &dyn std::any::Any {
                self
            }

            fn compatible_element_types(&self) -> &'static [std::any::TypeId] {
                #[cfg(all(feature = "float8", feature = "microfloat"))]
                {
                    const TYPES: [std::any::TypeId; impl_complex_subfloat_data_type!(@num_types $($float8_type)?)] = [
                        std::any::TypeId::of::<num::Complex<$float_type>>(),
                        $(std::any::TypeId::of::<num::Complex<$float8_type>>(),)?
                    ];
                    &TYPES
                }
                #[cfg(all(not(feature = "float8"), feature = "microfloat"))]
                {
                    const TYPES: [std::any::TypeId; 1] = [std::any::TypeId::of::<
                        num::Complex<$float_type>,
                    >()];
                    &TYPES
                }
                #[cfg(not(feature = "microfloat"))]
                {
                    &[]
                }
            }
        }
    };
    (@num_types) => {
        1
    };
    (@num_types $float8_type:ty) => {
        2
    };
}

/// The `complex_float4_e2m1fn` data type.
#[derive(Debug, Clone, Copy)]
pub struct ComplexFloat4E2M1FNDataType;
register_data_type_plugin!(ComplexFloat4E2M1FNDataType);
zarrs_plugin::impl_extension_aliases!(ComplexFloat4E2M1FNDataType, v3: "complex_float4_e2m1fn");

/// The `complex_float6_e2m3fn` data type.
#[derive(Debug, Clone, Copy)]
pub struct ComplexFloat6E2M3FNDataType;
register_data_type_plugin!(ComplexFloat6E2M3FNDataType);
zarrs_plugin::impl_extension_aliases!(ComplexFloat6E2M3FNDataType, v3: "complex_float6_e2m3fn");

/// The `complex_float6_e3m2fn` data type.
#[derive(Debug, Clone, Copy)]
pub struct ComplexFloat6E3M2FNDataType;
register_data_type_plugin!(ComplexFloat6E3M2FNDataType);
zarrs_plugin::impl_extension_aliases!(ComplexFloat6E3M2FNDataType, v3: "complex_float6_e3m2fn");

/// The `complex_float8_e3m4` data type.
#[derive(Debug, Clone, Copy)]
pub struct ComplexFloat8E3M4DataType;
register_data_type_plugin!(ComplexFloat8E3M4DataType);
zarrs_plugin::impl_extension_aliases!(ComplexFloat8E3M4DataType, v3: "complex_float8_e3m4");

/// The `complex_float8_e4m3` data type.
#[derive(Debug, Clone, Copy)]
pub struct ComplexFloat8E4M3DataType;
register_data_type_plugin!(ComplexFloat8E4M3DataType);
zarrs_plugin::impl_extension_aliases!(ComplexFloat8E4M3DataType, v3: "complex_float8_e4m3");

/// The `complex_float8_e4m3b11fnuz` data type.
#[derive(Debug, Clone, Copy)]
pub struct ComplexFloat8E4M3B11FNUZDataType;
register_data_type_plugin!(ComplexFloat8E4M3B11FNUZDataType);
zarrs_plugin::impl_extension_aliases!(ComplexFloat8E4M3B11FNUZDataType, v3: "complex_float8_e4m3b11fnuz");

/// The `complex_float8_e4m3fnuz` data type.
#[derive(Debug, Clone, Copy)]
pub struct ComplexFloat8E4M3FNUZDataType;
register_data_type_plugin!(ComplexFloat8E4M3FNUZDataType);
zarrs_plugin::impl_extension_aliases!(ComplexFloat8E4M3FNUZDataType, v3: "complex_float8_e4m3fnuz");

/// The `complex_float8_e5m2` data type.
#[derive(Debug, Clone, Copy)]
pub struct ComplexFloat8E5M2DataType;
register_data_type_plugin!(ComplexFloat8E5M2DataType);
zarrs_plugin::impl_extension_aliases!(ComplexFloat8E5M2DataType, v3: "complex_float8_e5m2");

/// The `complex_float8_e5m2fnuz` data type.
#[derive(Debug, Clone, Copy)]
pub struct ComplexFloat8E5M2FNUZDataType;
register_data_type_plugin!(ComplexFloat8E5M2FNUZDataType);
zarrs_plugin::impl_extension_aliases!(ComplexFloat8E5M2FNUZDataType, v3: "complex_float8_e5m2fnuz");

/// The `complex_float8_e8m0fnu` data type.
#[derive(Debug, Clone, Copy)]
pub struct ComplexFloat8E8M0FNUDataType;
register_data_type_plugin!(ComplexFloat8E8M0FNUDataType);
zarrs_plugin::impl_extension_aliases!(ComplexFloat8E8M0FNUDataType, v3: "complex_float8_e8m0fnu");

// DataTypeTraits implementations for complex subfloats (microfloat only)
impl_complex_subfloat_data_type!(ComplexFloat4E2M1FNDataType, microfloat::f4e2m1fn);
impl_complex_subfloat_data_type!(ComplexFloat6E2M3FNDataType, microfloat::f6e2m3fn);
impl_complex_subfloat_data_type!(ComplexFloat6E3M2FNDataType, microfloat::f6e3m2fn);
impl_complex_subfloat_data_type!(ComplexFloat8E3M4DataType, microfloat::f8e3m4);
impl_complex_subfloat_data_type!(
    ComplexFloat8E4M3DataType,
    microfloat::f8e4m3,
    float8::F8E4M3
);
impl_complex_subfloat_data_type!(ComplexFloat8E4M3B11FNUZDataType, microfloat::f8e4m3b11fnuz);
impl_complex_subfloat_data_type!(ComplexFloat8E4M3FNUZDataType, microfloat::f8e4m3fnuz);
impl_complex_subfloat_data_type!(
    ComplexFloat8E5M2DataType,
    microfloat::f8e5m2,
    float8::F8E5M2
);
impl_complex_subfloat_data_type!(ComplexFloat8E5M2FNUZDataType, microfloat::f8e5m2fnuz);
impl_complex_subfloat_data_type!(ComplexFloat8E8M0FNUDataType, microfloat::f8e8m0fnu);

// PackBits codec implementations for complex subfloats
use zarrs_data_type::codec_traits::impl_pack_bits_data_type_traits;
impl_pack_bits_data_type_traits!(ComplexFloat4E2M1FNDataType, 4, float, 2);
impl_pack_bits_data_type_traits!(ComplexFloat6E2M3FNDataType, 6, float, 2);
impl_pack_bits_data_type_traits!(ComplexFloat6E3M2FNDataType, 6, float, 2);
impl_pack_bits_data_type_traits!(ComplexFloat8E3M4DataType, 8, float, 2);
impl_pack_bits_data_type_traits!(ComplexFloat8E4M3DataType, 8, float, 2);
impl_pack_bits_data_type_traits!(ComplexFloat8E4M3B11FNUZDataType, 8, float, 2);
impl_pack_bits_data_type_traits!(ComplexFloat8E4M3FNUZDataType, 8, float, 2);
impl_pack_bits_data_type_traits!(ComplexFloat8E5M2DataType, 8, float, 2);
impl_pack_bits_data_type_traits!(ComplexFloat8E5M2FNUZDataType, 8, float, 2);
impl_pack_bits_data_type_traits!(ComplexFloat8E8M0FNUDataType, 8, float, 2);

// Bytes codec implementations for complex subfloats (passthrough - two single-byte components)
use zarrs_data_type::codec_traits::impl_bytes_data_type_traits;
impl_bytes_data_type_traits!(ComplexFloat4E2M1FNDataType, 1);
impl_bytes_data_type_traits!(ComplexFloat6E2M3FNDataType, 1);
impl_bytes_data_type_traits!(ComplexFloat6E3M2FNDataType, 1);
impl_bytes_data_type_traits!(ComplexFloat8E3M4DataType, 1);
impl_bytes_data_type_traits!(ComplexFloat8E4M3DataType, 1);
impl_bytes_data_type_traits!(ComplexFloat8E4M3B11FNUZDataType, 1);
impl_bytes_data_type_traits!(ComplexFloat8E4M3FNUZDataType, 1);
impl_bytes_data_type_traits!(ComplexFloat8E5M2DataType, 1);
impl_bytes_data_type_traits!(ComplexFloat8E5M2FNUZDataType, 1);
impl_bytes_data_type_traits!(ComplexFloat8E8M0FNUDataType, 1);
