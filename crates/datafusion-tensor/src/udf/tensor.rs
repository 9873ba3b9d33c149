//! `tensor(values, shape [, dim_names [, permutation]])`: a tensor column from flat lists.

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, AsArray};
use arrow::datatypes::{DataType, Field, FieldRef};
use datafusion::common::{exec_err, plan_err};
use datafusion::error::Result;
use datafusion::logical_expr::ColumnarValue;
use datafusion_macros::user_doc;

use super::{PlanArgs, TensorFunction, literal_int_list, literal_string_list, map_arrays};
use crate::error::TensorError;
use crate::kernels::layout::{from_list, list_parts, tensor_array};
use crate::kernels::ragged;
use crate::shape::format_shape;
use crate::tensor_type::{TensorType, is_element_type};
use crate::variable_shape::{AnyTensorType, VariableShapeType};

/// `tensor(values, shape)`: builds a tensor column.
#[user_doc(
    doc_section(label = "Tensor Functions"),
    description = "Builds a tensor (arrow.fixed_shape_tensor) from a flat list of numbers or booleans per row, read in row-major order. Every non-NULL row must hold exactly prod(shape) values; a NULL list gives a NULL tensor. An empty list literal `[]` makes a Float64 tensor, as numpy does. With `shape` a column of fixed-size lists (a shape per row), the result is an arrow.variable_shape_tensor of that many dimensions, each row its own shape; a NULL shape gives a NULL tensor.",
    syntax_example = "tensor(values, shape [, dim_names [, permutation]])",
    sql_example = r"```sql
> SELECT tensor([1, 2, 3, 4, 5, 6], [2, 3]) AS t;
+------------------------+
| t                      |
+------------------------+
| [[1, 2, 3], [4, 5, 6]] |
+------------------------+
> SELECT tensor_shape(tensor([1, 2, 3, 4, 5, 6], [2, 3], dim_names => ['rows', 'cols'], permutation => [1, 0])) AS s;
+--------+
| s      |
+--------+
| [3, 2] |
+--------+
```",
    argument(
        name = "values",
        description = "A list, large list or fixed-size list (literal or column) of integers, floats or booleans: the stored values of each tensor, row-major."
    ),
    argument(
        name = "shape",
        description = "A literal list of non-negative integers: the stored (physical) shape, e.g. `[2, 3]`. `[]` makes 0-d tensors of one value. Or a column of fixed-size lists of integers, the stored shape of each row (a variable-shape tensor), e.g. `arrow_cast([h, w], 'FixedSizeList(2, Int32)')`."
    ),
    argument(
        name = "dim_names",
        description = "Optional literal list of strings naming the stored dimensions, or NULL."
    ),
    argument(
        name = "permutation",
        description = "Optional literal permutation of the stored dimensions (arrow.fixed_shape_tensor semantics: logical dimension i is stored dimension permutation[i]), or NULL."
    )
)]
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct TensorConstructor {}

registered_function!(TensorConstructor);

/// The element field of a list type, if `data_type` is one `tensor` reads values from.
fn list_item(data_type: &DataType) -> Option<&FieldRef> {
    match data_type {
        DataType::List(item) | DataType::LargeList(item) | DataType::FixedSizeList(item, _) => {
            Some(item)
        }
        _ => None,
    }
}

fn with_item_type(data_type: &DataType, element: DataType) -> DataType {
    let item = Arc::new(Field::new_list_field(element, true));
    match data_type {
        DataType::LargeList(_) => DataType::LargeList(item),
        DataType::FixedSizeList(_, n) => DataType::FixedSizeList(item, *n),
        _ => DataType::List(item),
    }
}

impl TensorFunction for TensorConstructor {
    type Plan = AnyTensorType;

    function_metadata!(
        "tensor",
        ["values", "shape", "dim_names", "permutation"],
        required = 2
    );

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        let mut types = arg_types.to_vec();
        match list_item(&arg_types[0]) {
            // `[]` is a list of the Null type: numpy's np.array([]) is float64.
            Some(item) if *item.data_type() == DataType::Null => {
                types[0] = with_item_type(&arg_types[0], DataType::Float64);
            }
            Some(_) => {}
            None if arg_types[0] == DataType::Null => {
                types[0] = DataType::new_list(DataType::Float64, true);
            }
            None => {
                return plan_err!(
                    "tensor: argument values must be a list of numbers or booleans, got {}",
                    arg_types[0]
                );
            }
        }
        Ok(types)
    }

    fn plan(&self, args: &PlanArgs<'_>) -> Result<AnyTensorType> {
        let values_type = args.fields[0].data_type();
        let Some(item) = list_item(values_type) else {
            return plan_err!(
                "tensor: argument values must be a list of numbers or booleans, got {values_type}"
            );
        };
        if !is_element_type(item.data_type()) {
            let hint = if list_item(item.data_type()).is_some() {
                "; nested lists must be flattened first, e.g. tensor(flatten(values), shape)"
            } else {
                ""
            };
            return plan_err!(
                "tensor: argument values must hold integers, floats or booleans, got elements of type {}{hint}",
                item.data_type()
            );
        }
        let dim_names = match args.literal(2) {
            None if args.fields.len() <= 2 => None,
            Some(value) if value.is_null() => None,
            Some(value) => Some(literal_string_list(value).ok_or_else(|| {
                datafusion::common::plan_datafusion_err!(
                    "tensor: argument dim_names must be a literal list of strings such as ['rows', 'cols'], or NULL"
                )
            })?),
            None => {
                return plan_err!(
                    "tensor: argument dim_names must be a literal list of strings such as ['rows', 'cols'], or NULL"
                );
            }
        };
        let permutation = match args.literal(3) {
            None if args.fields.len() <= 3 => None,
            Some(value) if value.is_null() => None,
            Some(value) => Some(
                literal_int_list(value)
                    .and_then(|p| p.iter().map(|&a| usize::try_from(a).ok()).collect())
                    .ok_or_else(|| {
                        datafusion::common::plan_datafusion_err!(
                            "tensor: argument permutation must be a literal list of dimension numbers such as [1, 0], or NULL"
                        )
                    })?,
            ),
            None => {
                return plan_err!(
                    "tensor: argument permutation must be a literal list of dimension numbers such as [1, 0], or NULL"
                );
            }
        };
        if args.literal(1).is_none()
            && let DataType::FixedSizeList(dim, ndim) = args.fields[1].data_type()
            && dim.data_type().is_integer()
        {
            // A shape per row: a variable-shape tensor of that many dimensions.
            let tensor = VariableShapeType::new(
                item.data_type().clone(),
                usize::try_from(*ndim).unwrap_or(0),
            )?
            .with_dim_names(dim_names)?
            .with_permutation(permutation)?;
            return Ok(AnyTensorType::Variable(tensor));
        }
        let shape = args
            .literal(1)
            .and_then(literal_int_list)
            .ok_or_else(|| {
                datafusion::common::plan_datafusion_err!(
                    "tensor: argument shape must be a literal list of non-negative integers such as [2, 3], or a column of fixed-size lists of integers, a shape per row (a variable-shape tensor, whose number of dimensions must be known when the query is planned), such as arrow_cast([h, w], 'FixedSizeList(2, Int32)')"
                )
            })?;
        let shape = shape
            .iter()
            .map(|&d| usize::try_from(d))
            .collect::<Result<Vec<_>, _>>()
            .or_else(|_| {
                plan_err!("tensor: negative dimensions are not allowed in shape {shape:?}")
            })?;
        // The session's limit before Arrow's (a list of at most 2^31 - 1 elements).
        args.limits.checked_size(&shape)?;
        let tensor = TensorType::new(item.data_type().clone(), shape)?
            .with_dim_names(dim_names)?
            .with_permutation(permutation)?;
        if let DataType::FixedSizeList(_, n) = values_type
            && usize::try_from(*n).ok() != Some(tensor.size())
        {
            return plan_err!(
                "tensor: values hold {n} elements per row, but shape {} needs {}",
                format_shape(tensor.physical_shape()),
                tensor.size()
            );
        }
        Ok(AnyTensorType::Fixed(tensor))
    }

    fn return_field(&self, plan: &AnyTensorType) -> FieldRef {
        Arc::new(plan.to_field("tensor"))
    }

    fn invoke(
        &self,
        plan: &AnyTensorType,
        args: &[ColumnarValue],
        number_rows: usize,
    ) -> Result<ColumnarValue> {
        let plan = match plan {
            AnyTensorType::Fixed(tensor) => tensor,
            AnyTensorType::Variable(tensor) => {
                return map_arrays(args, &[0, 1], number_rows, |arrays| {
                    let out = variable_tensors(tensor, &arrays[0], &arrays[1])
                        .map_err(|e| e.in_function("tensor"))?;
                    Ok(Arc::new(out) as ArrayRef)
                });
            }
        };
        map_arrays(args, &[0], number_rows, |arrays| {
            let values = &arrays[0];
            let out = match values.data_type() {
                DataType::FixedSizeList(..) => {
                    let list = values.as_fixed_size_list();
                    tensor_array(
                        plan,
                        Arc::clone(list.values()),
                        list.nulls().cloned(),
                        list.len(),
                    )?
                }
                DataType::List(_) => {
                    from_list(plan, values.as_list::<i32>()).map_err(|e| e.in_function("tensor"))?
                }
                DataType::LargeList(_) => {
                    from_list(plan, values.as_list::<i64>()).map_err(|e| e.in_function("tensor"))?
                }
                other => return exec_err!("tensor: unexpected values type {other} at run time"),
            };
            Ok(Arc::new(out) as ArrayRef)
        })
    }
}

/// Variable-shape tensors from a values column and a shape column (a fixed-size list of
/// integers per row).
fn variable_tensors(
    tensor: &VariableShapeType,
    values: &ArrayRef,
    shapes: &ArrayRef,
) -> crate::error::Result<arrow::array::StructArray> {
    let (flat, offsets) = match values.as_fixed_size_list_opt() {
        Some(list) => {
            let n = list.value_length().max(0) as usize;
            (
                Arc::clone(list.values()),
                (0..=list.len()).map(|row| row * n).collect(),
            )
        }
        None => list_parts(values.as_ref()).ok_or_else(|| {
            TensorError::Internal(format!(
                "unexpected values type {} at run time",
                values.data_type()
            ))
        })?,
    };
    let shapes = shapes.as_fixed_size_list_opt().ok_or_else(|| {
        TensorError::Internal(format!(
            "unexpected shape type {} at run time",
            shapes.data_type()
        ))
    })?;
    let dims = arrow::compute::cast(shapes.values(), &DataType::Int64)?;
    let dims = dims.as_primitive::<arrow::datatypes::Int64Type>();
    let ndim = tensor.ndim();
    if let Some(row) = (0..shapes.len()).find(|&row| {
        shapes.is_valid(row) && (row * ndim..(row + 1) * ndim).any(|i| dims.is_null(i))
    }) {
        return Err(TensorError::Data(format!(
            "row {row} of its batch has a NULL dimension in its shape"
        )));
    }
    ragged::from_values_and_shapes(
        tensor,
        &flat,
        &offsets,
        values.logical_nulls().as_ref(),
        dims.values(),
        shapes.nulls(),
    )
}
