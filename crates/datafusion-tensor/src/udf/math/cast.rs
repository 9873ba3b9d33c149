//! `tensor_astype(x, dtype)`: numpy's `x.astype(dtype)` with its default (`unsafe`) casting,
//! elementwise over the whole values buffer ([`crate::kernels::cast`]); the result keeps x's
//! shape, dim names and permutation (fixed-shape) or each row's shape (variable-shape). SQL's
//! `CAST(x AS DOUBLE)` / `x::REAL` on a tensor means the same (`rules::operators`).

use std::sync::Arc;

use arrow::array::ArrayRef;
use arrow::datatypes::{DataType, FieldRef};
use datafusion::common::{ScalarValue, plan_err};
use datafusion::error::Result;
use datafusion::logical_expr::ColumnarValue;
use datafusion_macros::user_doc;

use super::promote::numpy_name;
use crate::kernels::cast::astype;
use crate::tensor_type::TensorType;
use crate::udf::{PlanArgs, TensorFunction, map_arrays};
use crate::variable_shape::{AnyTensorType, VariableShapeType};

/// numpy's dtype names `tensor_astype` takes, and their element types.
pub const DTYPES: [(&str, DataType); 12] = [
    ("bool", DataType::Boolean),
    ("int8", DataType::Int8),
    ("int16", DataType::Int16),
    ("int32", DataType::Int32),
    ("int64", DataType::Int64),
    ("uint8", DataType::UInt8),
    ("uint16", DataType::UInt16),
    ("uint32", DataType::UInt32),
    ("uint64", DataType::UInt64),
    ("float16", DataType::Float16),
    ("float32", DataType::Float32),
    ("float64", DataType::Float64),
];

/// numpy's dtype name of an element type `CAST` may target (`None`: not a tensor element).
pub fn dtype_name(data_type: &DataType) -> Option<String> {
    DTYPES
        .iter()
        .any(|(_, t)| t == data_type)
        .then(|| numpy_name(data_type))
}

/// numpy's dtype name a literal argument of `function` gives (a plan error naming the choices
/// otherwise).
pub(crate) fn dtype_arg(function: &str, literal: Option<&ScalarValue>) -> Result<DataType> {
    let choices = || {
        DTYPES
            .iter()
            .map(|(n, _)| format!("'{n}'"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let Some(
        ScalarValue::Utf8(Some(dtype))
        | ScalarValue::LargeUtf8(Some(dtype))
        | ScalarValue::Utf8View(Some(dtype)),
    ) = literal
    else {
        return plan_err!(
            "{function}: argument dtype must be a string literal, one of {}",
            choices()
        );
    };
    match DTYPES.iter().find(|(n, _)| n == dtype) {
        Some((_, element)) => Ok(element.clone()),
        None => plan_err!(
            "{function}: data type '{dtype}' not understood: expected one of {}",
            choices()
        ),
    }
}

/// `tensor_astype`.
#[user_doc(
    doc_section(label = "Tensor Functions"),
    description = "numpy's astype with its default (unsafe) casting: each element converted to dtype. Integers wrap around, booleans are x != 0 (NaN is true), floats become integers by truncation towards zero, and a float out of the integer type's range, NaN or an infinity gives what numpy gives on x86-64 (int32: -2147483648; int64: -9223372036854775808; int8, int16, uint8, uint16: 0). The result keeps x's shape, dim names and permutation; a NULL row or element stays NULL. CAST(x AS DOUBLE), x::REAL, CAST(x AS BOOLEAN) and the other numeric types mean the same on a tensor.",
    syntax_example = "tensor_astype(x, dtype)",
    sql_example = r"```sql
> SELECT tensor_astype(tensor([-1.5, 2.7, 300.0], [3]), 'uint8') AS r;
+--------------+
| r            |
+--------------+
| [255, 2, 44] |
+--------------+
> SELECT CAST(tensor([1, 0, 2], [3]) AS BOOLEAN) AS r;
+---------------------+
| r                   |
+---------------------+
| [true, false, true] |
+---------------------+
```",
    argument(
        name = "x",
        description = "A tensor (fixed- or variable-shape, any element type)."
    ),
    argument(
        name = "dtype",
        description = "numpy's dtype name: 'bool', 'int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64', 'float16', 'float32' or 'float64'."
    )
)]
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct TensorAstype {}

registered_function!(TensorAstype);

/// A compiled `tensor_astype` call.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct AstypePlan {
    output: AnyTensorType,
}

impl TensorFunction for TensorAstype {
    type Plan = AstypePlan;

    function_metadata!("tensor_astype", ["x", "dtype"], required = 2);

    fn tensor_arguments(&self, _arg_types: &[DataType]) -> Vec<usize> {
        vec![0]
    }

    fn plan(&self, args: &PlanArgs<'_>) -> Result<AstypePlan> {
        let name = args.name;
        let input = args.any_tensor(0, "x")?;
        let element = dtype_arg(name, args.literal(1))?;
        let output = match &input {
            AnyTensorType::Fixed(t) => AnyTensorType::Fixed(
                TensorType::new(element.clone(), t.physical_shape().to_vec())?
                    .with_dim_names(t.dim_names().map(<[String]>::to_vec))?
                    .with_permutation(t.permutation().map(<[usize]>::to_vec))?,
            ),
            AnyTensorType::Variable(t) => AnyTensorType::Variable(
                VariableShapeType::new(element.clone(), t.ndim())?
                    .with_dim_names(t.dim_names().map(<[String]>::to_vec))?
                    .with_permutation(t.permutation().map(<[usize]>::to_vec))?
                    .with_uniform_shape(Some(t.physical_uniform_shape()))?,
            ),
        };
        Ok(AstypePlan { output })
    }

    fn return_field(&self, plan: &AstypePlan) -> FieldRef {
        Arc::new(plan.output.to_field(self.name()))
    }

    fn invoke(
        &self,
        plan: &AstypePlan,
        args: &[ColumnarValue],
        number_rows: usize,
    ) -> Result<ColumnarValue> {
        let name = self.name();
        let result = plan.output.element_type();
        let map = |values: &ArrayRef| astype(values, result).map_err(|e| e.in_function(name));
        map_arrays(args, &[0], number_rows, |arrays| {
            crate::udf::unary::map_tensor_values(name, &plan.output, &arrays[0], map)
        })
    }
}
