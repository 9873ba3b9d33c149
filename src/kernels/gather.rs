//! Applying a compiled [`GatherPlan`] to a batch's tensor values, for every element type.

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, AsArray, PrimitiveArray};
use arrow::buffer::{BooleanBuffer, NullBuffer, ScalarBuffer};
use arrow::compute::cast;
use arrow::datatypes::{ArrowPrimitiveType, DataType};
use arrow::error::ArrowError;

use crate::index::GatherPlan;

/// The gathered values of `rows` output tensors: output row `r` is `plan` applied to the input
/// sub-tensor starting at `starts[r]` (or at `r * plan.in_len` when `starts` is `None`).
/// Element NULLs follow their elements.
pub fn gather_values(
    values: &ArrayRef,
    rows: usize,
    plan: &GatherPlan,
    starts: Option<&[usize]>,
) -> Result<ArrayRef, ArrowError> {
    if *values.data_type() == DataType::Boolean {
        // Bit-packed: gather as bytes.
        let bytes = cast(values, &DataType::UInt8)?;
        let out = gather_values(&bytes, rows, plan, starts)?;
        return cast(&out, &DataType::Boolean);
    }
    let validity = values.logical_nulls().map(|nulls| {
        let start_of = |row: usize| starts.map_or(row * plan.in_len, |s| s[row]);
        NullBuffer::new(BooleanBuffer::collect_bool(rows * plan.out_len, |e| {
            let (row, k) = (e / plan.out_len, e % plan.out_len);
            nulls.is_valid(start_of(row) + plan.offsets[k] as usize)
        }))
    });
    crate::with_primitive_type!(values.data_type(), P => {
        Ok(typed::<P>(values, rows, plan, starts, validity))
    }, _ => Err(ArrowError::InvalidArgumentError(format!(
        "tensor element type {} cannot be gathered",
        values.data_type()
    ))))
}

fn typed<P: ArrowPrimitiveType>(
    values: &ArrayRef,
    rows: usize,
    plan: &GatherPlan,
    starts: Option<&[usize]>,
    validity: Option<NullBuffer>,
) -> ArrayRef {
    let input = values.as_primitive::<P>().values();
    let out = match starts {
        None => plan.gather(input, rows),
        Some(starts) => plan.gather_from(input, starts.iter().copied()),
    };
    Arc::new(PrimitiveArray::<P>::new(ScalarBuffer::from(out), validity))
}
