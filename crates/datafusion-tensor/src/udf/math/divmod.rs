//! `tensor_divmod(x1, x2)`: numpy's `divmod`, `floor_divide` and `remainder` of the same
//! operands at once. numpy returns a tuple of two arrays; here a struct of two fields,
//! `quotient` and `remainder` (numpy's `divmod(x1, x2)[0]` and `[1]`), each what
//! `tensor_floor_divide` and `tensor_mod` give: a tensor, or a plain value where both operands
//! are numbers. A struct keeps the two in one call (one plan of the operands' types and
//! broadcast), and `tensor_divmod(a, b)['quotient']` reads one.

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, StructArray};
use arrow::datatypes::{DataType, Field, FieldRef, Fields};
use datafusion::common::ScalarValue;
use datafusion::error::Result;
use datafusion::logical_expr::{ColumnarValue, Documentation};

use super::binary::{BINARY_PARAMETERS, BinaryPlan, invoke_binary, plan_binary};
use crate::kernels::elementwise::BinaryOp;
use crate::udf::{Parameters, PlanArgs, TensorFunction};

/// The struct's field names.
const FIELDS: [&str; 2] = ["quotient", "remainder"];

/// `tensor_divmod`.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct TensorDivmod {
    documentation: Documentation,
}

impl TensorDivmod {
    /// The registered instance.
    pub fn new() -> Self {
        Self {
            documentation: crate::udf::tensor_documentation(
                "numpy's divmod: floor_divide and remainder of the same operands, as a struct {quotient, remainder} (numpy's tuple; read one with ['quotient']). Each field is what tensor_floor_divide and tensor_mod give: operands broadcast, numpy 2's types (booleans in int8), integer division by zero 0 in both fields (numpy warns), a float remainder taking the divisor's sign.",
                "tensor_divmod(x1, x2)".to_string(),
                "tensor_divmod(tensor([7, -7, 9], [3]), 2)",
                "{quotient: [3, -4, 4], remainder: [1, 1, 1]}",
            )
            .with_argument("x1", "The dividend: a tensor, a list literal or a number.")
            .with_argument("x2", "The divisor: a tensor, a list literal or a number.")
            .build(),
        }
    }
}

impl Default for TensorDivmod {
    fn default() -> Self {
        Self::new()
    }
}

/// The two calls' plans.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct DivmodPlan {
    quotient: BinaryPlan,
    remainder: BinaryPlan,
}

impl DivmodPlan {
    fn fields(&self) -> Fields {
        Fields::from(vec![
            self.quotient.output_field(FIELDS[0]),
            self.remainder.output_field(FIELDS[1]),
        ])
    }
}

impl TensorFunction for TensorDivmod {
    type Plan = DivmodPlan;

    fn name(&self) -> &'static str {
        "tensor_divmod"
    }

    fn parameters(&self) -> Parameters {
        Parameters::Fixed {
            names: BINARY_PARAMETERS,
            required: 2,
        }
    }

    fn documentation(&self) -> Option<&Documentation> {
        Some(&self.documentation)
    }

    /// Numbers are read as this function's own operands.
    fn numbers_as_tensors(&self) -> bool {
        false
    }

    fn tensor_arguments(&self, _arg_types: &[DataType]) -> Vec<usize> {
        vec![0, 1]
    }

    fn list_column_length(&self, plan: &DivmodPlan, _i: usize) -> Option<usize> {
        plan.quotient.list_column_length()
    }

    fn plan(&self, args: &PlanArgs<'_>) -> Result<DivmodPlan> {
        Ok(DivmodPlan {
            quotient: plan_binary(args, BinaryOp::FloorDivide)?,
            remainder: plan_binary(args, BinaryOp::Mod)?,
        })
    }

    fn return_field(&self, plan: &DivmodPlan) -> FieldRef {
        Arc::new(Field::new(
            self.name(),
            DataType::Struct(plan.fields()),
            true,
        ))
    }

    fn invoke(
        &self,
        plan: &DivmodPlan,
        args: &[ColumnarValue],
        number_rows: usize,
    ) -> Result<ColumnarValue> {
        let name = self.name();
        let quotient = invoke_binary(name, &plan.quotient, args, number_rows)?;
        let remainder = invoke_binary(name, &plan.remainder, args, number_rows)?;
        let scalar = matches!(
            (&quotient, &remainder),
            (ColumnarValue::Scalar(_), ColumnarValue::Scalar(_))
        );
        let rows = if scalar { 1 } else { number_rows };
        let columns: Vec<ArrayRef> = vec![quotient.to_array(rows)?, remainder.to_array(rows)?];
        // A row is NULL where an operand's is, and then in both fields alike.
        let nulls = columns[0].logical_nulls();
        let out = StructArray::try_new(plan.fields(), columns, nulls)?;
        if scalar {
            return Ok(ColumnarValue::Scalar(ScalarValue::Struct(Arc::new(out))));
        }
        Ok(ColumnarValue::Array(Arc::new(out)))
    }
}
