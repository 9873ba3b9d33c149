//! `tensor_reshape(t, shape)`: the same elements in a new shape (numpy `reshape`, C order).

use std::sync::Arc;

use arrow::array::{Array, ArrayRef};
use arrow::datatypes::{DataType, FieldRef};
use datafusion::common::plan_err;
use datafusion::error::Result;
use datafusion::logical_expr::{ColumnarValue, Signature};
use datafusion_macros::user_doc;

use super::{PlanArgs, TensorFunction, check_arity, literal_int_list, map_arrays, tensor_array};
use crate::kernels::layout;
use crate::tensor_type::TensorType;

/// `tensor_reshape(t, shape)`.
#[user_doc(
    doc_section(label = "Tensor Functions"),
    description = "Returns the tensor's elements, read in logical row-major order, in a new shape with the same number of elements (numpy reshape). One dimension may be -1: it is inferred. The result is row-major and has no dim_names.",
    syntax_example = "tensor_reshape(t, shape)",
    sql_example = r"```sql
> SELECT tensor_reshape(tensor([1, 2, 3, 4, 5, 6], [2, 3]), [3, -1]) AS r;
+--------------------------+
| r                        |
+--------------------------+
| [[1, 2], [3, 4], [5, 6]] |
+--------------------------+
```",
    argument(
        name = "t",
        description = "A tensor (arrow.fixed_shape_tensor or FixedSizeList) expression."
    ),
    argument(
        name = "shape",
        description = "A literal list of integers, e.g. `[3, -1]`; one may be -1 (unknown)."
    )
)]
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct TensorReshape {
    signature: Signature,
}

registered_function!(TensorReshape, ["t", "shape"]);

/// A compiled reshape: the input's type and the output's.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct ReshapePlan {
    input: TensorType,
    output: TensorType,
}

/// numpy's `reshape` shape resolution: `requested` may hold one unknown (negative) dimension,
/// inferred from `size`. numpy's wording for every failure.
pub fn resolve_reshape(size: usize, requested: &[i64]) -> std::result::Result<Vec<usize>, String> {
    let requested_text = || {
        let dims: Vec<String> = requested.iter().map(ToString::to_string).collect();
        if dims.len() == 1 {
            format!("({},)", dims[0])
        } else {
            format!("({})", dims.join(", "))
        }
    };
    let cannot = || {
        format!(
            "cannot reshape array of size {size} into shape {}",
            requested_text()
        )
    };
    let unknown: Vec<usize> = (0..requested.len()).filter(|&i| requested[i] < 0).collect();
    if unknown.len() > 1 {
        return Err("can only specify one unknown dimension".to_string());
    }
    let mut known = 1usize;
    for &d in requested.iter().filter(|&&d| d >= 0) {
        let d = usize::try_from(d).map_err(|_| cannot())?;
        known = known.checked_mul(d).ok_or_else(cannot)?;
    }
    let mut shape: Vec<usize> = requested
        .iter()
        .map(|&d| usize::try_from(d).unwrap_or(0))
        .collect();
    match unknown.first() {
        Some(&axis) => {
            // numpy: the unknown dimension cannot be inferred next to a 0-size one.
            if known == 0 || !size.is_multiple_of(known) {
                return Err(cannot());
            }
            shape[axis] = size / known;
        }
        None if known != size => return Err(cannot()),
        None => {}
    }
    Ok(shape)
}

impl TensorFunction for TensorReshape {
    type Plan = ReshapePlan;

    function_metadata!("tensor_reshape");

    fn tensor_arguments(&self, _arg_types: &[DataType]) -> Vec<usize> {
        vec![0]
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        check_arity(self.name(), arg_types, 2, 2)?;
        Ok(arg_types.to_vec())
    }

    fn plan(&self, args: &PlanArgs<'_>) -> Result<ReshapePlan> {
        let input = args.tensor(0, "t")?;
        let Some(requested) = args.literal(1).and_then(literal_int_list) else {
            return plan_err!(
                "tensor_reshape: argument shape must be a literal list of integers such as [3, -1]"
            );
        };
        let shape = match resolve_reshape(input.size(), &requested) {
            Ok(shape) => shape,
            Err(message) => return plan_err!("tensor_reshape: {message}"),
        };
        let output = TensorType::new(input.element_type().clone(), shape)?;
        Ok(ReshapePlan { input, output })
    }

    fn return_field(&self, plan: &ReshapePlan) -> FieldRef {
        Arc::new(plan.output.to_field(self.name()))
    }

    fn invoke(
        &self,
        plan: &ReshapePlan,
        args: &[ColumnarValue],
        number_rows: usize,
    ) -> Result<ColumnarValue> {
        map_arrays(args, &[0], number_rows, |arrays| {
            let input = tensor_array(self.name(), &arrays[0])?;
            // Row-major inputs keep their values buffer: a reshape is only a new type.
            let values = layout::row_major_values(&plan.input, input)?;
            let out =
                layout::tensor_array(&plan.output, values, input.nulls().cloned(), input.len())?;
            Ok(Arc::new(out) as ArrayRef)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::resolve_reshape;

    #[test]
    fn reshape_shapes_follow_numpy() {
        // Expected values from numpy 2.4: np.arange(6).reshape(s).shape, or its ValueError.
        assert_eq!(resolve_reshape(6, &[2, -1]).unwrap(), vec![2, 3]);
        assert_eq!(resolve_reshape(6, &[-2, 3]).unwrap(), vec![2, 3]);
        assert_eq!(resolve_reshape(0, &[3, -1]).unwrap(), vec![3, 0]);
        assert_eq!(resolve_reshape(0, &[-1]).unwrap(), vec![0]);
        assert_eq!(resolve_reshape(1, &[]).unwrap(), Vec::<usize>::new());
        assert_eq!(
            resolve_reshape(6, &[4]).unwrap_err(),
            "cannot reshape array of size 6 into shape (4,)"
        );
        assert_eq!(
            resolve_reshape(6, &[-1, -1]).unwrap_err(),
            "can only specify one unknown dimension"
        );
        assert!(resolve_reshape(6, &[-1, 4]).is_err());
        assert!(resolve_reshape(0, &[0, -1]).is_err());
        assert!(resolve_reshape(6, &[i64::MAX, i64::MAX, 2]).is_err());
    }
}
