//! `tensor_shape`, `tensor_ndim`, `tensor_size`: the static type of a tensor, per row.
//!
//! For a fixed-shape column the answer is the same for every row (one column, one shape), so
//! the kernels only repeat it; a variable-shape column's rows each have their own shape and
//! size. A NULL tensor gives NULL, as every function does for a NULL row.

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, Int64Array};
use arrow::datatypes::{DataType, Field, FieldRef};
use datafusion::error::Result;
use datafusion::logical_expr::{ColumnarValue, Documentation};
use datafusion_macros::user_doc;

use super::{Parameters, PlanArgs, TensorFunction, map_arrays, variable_array};
use crate::kernels::layout::repeated_shape;
use crate::kernels::ragged;
use crate::variable_shape::{AnyTensorType, VariableShapeType};

/// Which property of the tensor type a function reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Property {
    Shape,
    Ndim,
    Size,
}

/// Shared implementation of the three introspection functions.
#[derive(Debug, PartialEq, Eq, Hash)]
struct Introspect {
    name: &'static str,
    property: Property,
}

impl Introspect {
    fn new(name: &'static str, property: Property) -> Self {
        Self { name, property }
    }

    fn return_field(&self) -> FieldRef {
        let data_type = match self.property {
            Property::Shape => DataType::new_list(DataType::Int64, true),
            Property::Ndim | Property::Size => DataType::Int64,
        };
        Arc::new(Field::new(self.name, data_type, true))
    }

    fn invoke(
        &self,
        tensor: &AnyTensorType,
        args: &[ColumnarValue],
        number_rows: usize,
    ) -> Result<ColumnarValue> {
        let tensor = match tensor {
            AnyTensorType::Fixed(tensor) => tensor,
            AnyTensorType::Variable(tensor) => {
                return map_arrays(args, &[0], number_rows, |arrays| {
                    self.invoke_variable(tensor, &arrays[0])
                });
            }
        };
        map_arrays(args, &[0], number_rows, |arrays| {
            let input = &arrays[0];
            let rows = input.len();
            let nulls = input.logical_nulls();
            let out: ArrayRef = match self.property {
                Property::Shape => Arc::new(repeated_shape(&tensor.logical_shape(), rows, nulls)?),
                Property::Ndim => Arc::new(Int64Array::new(
                    vec![tensor.ndim() as i64; rows].into(),
                    nulls,
                )),
                Property::Size => Arc::new(Int64Array::new(
                    vec![tensor.size() as i64; rows].into(),
                    nulls,
                )),
            };
            Ok(out)
        })
    }
}

impl Introspect {
    /// Per row: each row has its own shape (and size), and every row the column's ndim.
    fn invoke_variable(&self, tensor: &VariableShapeType, array: &ArrayRef) -> Result<ArrayRef> {
        let view = variable_array(self.name, tensor, array)?;
        Ok(match self.property {
            Property::Shape => {
                Arc::new(ragged::logical_shapes(&view).map_err(|e| e.in_function(self.name))?)
            }
            Property::Ndim => Arc::new(Int64Array::new(
                vec![tensor.ndim() as i64; view.len()].into(),
                view.nulls().cloned(),
            )),
            Property::Size => Arc::new(ragged::sizes(&view)),
        })
    }
}

macro_rules! introspection_function {
    ($ty:ident, $name:literal, $property:expr) => {
        impl $ty {
            /// The registered instance.
            pub fn new() -> Self {
                Self(Introspect::new($name, $property))
            }
        }

        impl Default for $ty {
            fn default() -> Self {
                Self::new()
            }
        }

        impl TensorFunction for $ty {
            type Plan = AnyTensorType;

            fn name(&self) -> &'static str {
                $name
            }

            fn parameters(&self) -> Parameters {
                Parameters::Fixed {
                    names: &["t"],
                    required: 1,
                }
            }

            fn documentation(&self) -> Option<&Documentation> {
                self.doc()
            }

            fn tensor_arguments(&self, _arg_types: &[DataType]) -> Vec<usize> {
                vec![0]
            }

            fn plan(&self, args: &PlanArgs<'_>) -> Result<AnyTensorType> {
                args.any_tensor(0, "t")
            }

            fn return_field(&self, _plan: &AnyTensorType) -> FieldRef {
                self.0.return_field()
            }

            fn invoke(
                &self,
                plan: &AnyTensorType,
                args: &[ColumnarValue],
                number_rows: usize,
            ) -> Result<ColumnarValue> {
                self.0.invoke(plan, args, number_rows)
            }
        }
    };
}

/// `tensor_shape(t)`: the logical shape as a list.
#[user_doc(
    doc_section(label = "Tensor Functions"),
    description = "Returns the logical shape of a tensor (its permutation applied) as a list of integers. NULL for a NULL tensor.",
    syntax_example = "tensor_shape(t)",
    sql_example = r"```sql
> SELECT tensor_shape(tensor([1, 2, 3, 4, 5, 6], [2, 3])) AS s;
+--------+
| s      |
+--------+
| [2, 3] |
+--------+
```",
    argument(
        name = "t",
        description = "A tensor (arrow.fixed_shape_tensor, arrow.variable_shape_tensor or FixedSizeList) expression."
    )
)]
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct TensorShape(Introspect);
introspection_function!(TensorShape, "tensor_shape", Property::Shape);

/// `tensor_ndim(t)`: the number of dimensions.
#[user_doc(
    doc_section(label = "Tensor Functions"),
    description = "Returns the number of dimensions of a tensor. NULL for a NULL tensor.",
    syntax_example = "tensor_ndim(t)",
    sql_example = r"```sql
> SELECT tensor_ndim(tensor([1, 2, 3, 4, 5, 6], [2, 3])) AS n;
+---+
| n |
+---+
| 2 |
+---+
```",
    argument(
        name = "t",
        description = "A tensor (arrow.fixed_shape_tensor, arrow.variable_shape_tensor or FixedSizeList) expression."
    )
)]
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct TensorNdim(Introspect);
introspection_function!(TensorNdim, "tensor_ndim", Property::Ndim);

/// `tensor_size(t)`: the number of elements.
#[user_doc(
    doc_section(label = "Tensor Functions"),
    description = "Returns the number of elements of a tensor (the product of its shape). NULL for a NULL tensor.",
    syntax_example = "tensor_size(t)",
    sql_example = r"```sql
> SELECT tensor_size(tensor([1, 2, 3, 4, 5, 6], [2, 3])) AS n;
+---+
| n |
+---+
| 6 |
+---+
```",
    argument(
        name = "t",
        description = "A tensor (arrow.fixed_shape_tensor, arrow.variable_shape_tensor or FixedSizeList) expression."
    )
)]
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct TensorSize(Introspect);
introspection_function!(TensorSize, "tensor_size", Property::Size);

/// `tensor_type(t)`: the column's type with its tensor metadata in full.
#[user_doc(
    doc_section(label = "Tensor Functions"),
    description = "Returns the type of an expression as a string, with its tensor metadata in full, for every row (NULL ones too): arrow.fixed_shape_tensor<Float32, [3, 2], permutation [1, 0], dim_names [\"H\", \"W\"]> (the stored shape, as in the metadata; tensor_shape gives the logical one), arrow.variable_shape_tensor<UInt8, ndim 3, uniform_shape [3, null, null]>. Any other expression gives its Arrow type, as arrow_typeof does (a FixedSizeList without tensor metadata, which the tensor functions read as a 1-d tensor, among them). arrow_typeof and DESCRIBE show only a tensor's storage.",
    syntax_example = "tensor_type(t)",
    sql_example = r"```sql
> SELECT tensor_type(tensor([1, 2, 3, 4, 5, 6], [2, 3])) AS t;
+-----------------------------------------+
| t                                       |
+-----------------------------------------+
| arrow.fixed_shape_tensor<Int64, [2, 3]> |
+-----------------------------------------+
```",
    argument(name = "t", description = "Any expression.")
)]
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct TensorTypeName {}

registered_function!(TensorTypeName);

/// The name of the type a field holds: its tensor type's in full, or its Arrow type's.
///
/// # Errors
/// When the field claims a tensor extension type whose metadata is invalid or missing.
pub fn type_name_of(field: &Field) -> Result<String, crate::error::TensorError> {
    Ok(match AnyTensorType::from_field(field)? {
        Some(tensor)
            if crate::tensor_type::has_tensor_extension(field)
                || crate::variable_shape::has_variable_shape_extension(field) =>
        {
            tensor.type_name()
        }
        _ => field.data_type().to_string(),
    })
}

impl TensorFunction for TensorTypeName {
    type Plan = String;

    function_metadata!("tensor_type", ["t"], required = 1);

    fn plan(&self, args: &PlanArgs<'_>) -> Result<String> {
        let Some(field) = args.fields.first() else {
            return datafusion::common::plan_err!("{}: argument t is missing", self.name());
        };
        type_name_of(field).map_err(|err| {
            datafusion::error::DataFusionError::Plan(format!(
                "{}: argument '{}': {err}",
                self.name(),
                field.name()
            ))
        })
    }

    fn return_field(&self, _plan: &String) -> FieldRef {
        Arc::new(Field::new(self.name(), DataType::Utf8, false))
    }

    fn invoke(
        &self,
        plan: &String,
        _args: &[ColumnarValue],
        _number_rows: usize,
    ) -> Result<ColumnarValue> {
        Ok(ColumnarValue::Scalar(
            datafusion::common::ScalarValue::Utf8(Some(plan.clone())),
        ))
    }
}
