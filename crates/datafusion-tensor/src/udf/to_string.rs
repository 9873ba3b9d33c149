//! `tensor_to_string(t)`: a tensor as nested text, as the CLI prints it.

use std::sync::Arc;

use arrow::array::ArrayRef;
use arrow::datatypes::{DataType, Field, FieldRef};
use datafusion::error::Result;
use datafusion::logical_expr::ColumnarValue;
use datafusion_macros::user_doc;

use super::{PlanArgs, TensorFunction, map_arrays};
use crate::display::{Summary, format_tensors};
use crate::variable_shape::AnyTensorType;

/// `tensor_to_string(t)`.
#[user_doc(
    doc_section(label = "Tensor Functions"),
    description = "Returns a tensor as nested text in logical order, as the CLI displays it: `[[1, 2, 3], [4, 5, 6]]`, NULL elements as `NULL`. NULL for a NULL tensor. The CLI's CSV and TSV output use it, since CSV has no nested values.",
    syntax_example = "tensor_to_string(t)",
    sql_example = r"```sql
> SELECT tensor_to_string(tensor([1, 2, 3, 4], [2, 2])) AS s;
+------------------+
| s                |
+------------------+
| [[1, 2], [3, 4]] |
+------------------+
```",
    argument(
        name = "t",
        description = "A tensor (arrow.fixed_shape_tensor, arrow.variable_shape_tensor or FixedSizeList) expression."
    )
)]
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct TensorToString {
    /// numpy's summarised printing (the CLI's table output); the registered function prints
    /// every element.
    summary: Option<Summary>,
}

impl TensorToString {
    /// The registered instance: every element.
    pub fn new() -> Self {
        Self { summary: None }
    }

    /// An instance that summarises large tensors as numpy prints them.
    pub fn summarized(summary: Summary) -> Self {
        Self {
            summary: Some(summary),
        }
    }
}

impl Default for TensorToString {
    fn default() -> Self {
        Self::new()
    }
}

impl TensorFunction for TensorToString {
    type Plan = AnyTensorType;

    function_metadata!("tensor_to_string", ["t"], required = 1);

    fn tensor_arguments(&self, _arg_types: &[DataType]) -> Vec<usize> {
        vec![0]
    }

    fn settings(&self) -> Vec<u64> {
        self.summary.map_or_else(Vec::new, |summary| {
            vec![summary.threshold as u64, summary.edge_items as u64]
        })
    }

    fn with_settings(&self, settings: &[u64]) -> Option<Self> {
        match settings {
            [] => Some(Self::new()),
            [threshold, edge_items] => Some(Self::summarized(Summary {
                threshold: usize::try_from(*threshold).ok()?,
                edge_items: usize::try_from(*edge_items).ok()?,
            })),
            _ => None,
        }
    }

    fn plan(&self, args: &PlanArgs<'_>) -> Result<AnyTensorType> {
        args.any_tensor(0, "t")
    }

    fn return_field(&self, _plan: &AnyTensorType) -> FieldRef {
        Arc::new(Field::new(self.name(), DataType::Utf8, true))
    }

    fn invoke(
        &self,
        plan: &AnyTensorType,
        args: &[ColumnarValue],
        number_rows: usize,
    ) -> Result<ColumnarValue> {
        map_arrays(args, &[0], number_rows, |arrays| {
            let text = format_tensors(plan, arrays[0].as_ref(), "NULL", self.summary)
                .map_err(|e| e.in_function(self.name()))?;
            Ok(Arc::new(text) as ArrayRef)
        })
    }
}
