//! The float32 binary functions with a vector kernel ([`crate::kernels::vmath`]): `arctan2`,
//! `hypot`, `logaddexp`, `logaddexp2`, `power`, `nextafter`, `fmod`, `floor_divide` and
//! `remainder`, through the same broadcast [`Runs`] as every other function, the loops
//! compiled for the best instruction set the CPU has ([`crate::kernels::simd`]).

use std::sync::Arc;

use arrow::array::{ArrayRef, AsArray, PrimitiveArray};
use arrow::datatypes::Float32Type;

use super::ops::NumpyElement;
use super::runs::{Operand, Runs, map2};
use super::{BinaryOp, broken};
use crate::error::TensorError;
use crate::kernels::simd::{Level, at_level};
use crate::kernels::vmath::{Binary, float32, with_binary};

/// The vector kernel of `op`, if it has one.
fn vector_fn(op: BinaryOp) -> Option<Binary> {
    Some(match op {
        BinaryOp::Arctan2 => Binary::Atan2,
        BinaryOp::Hypot => Binary::Hypot,
        BinaryOp::Logaddexp => Binary::Logaddexp,
        BinaryOp::Logaddexp2 => Binary::Logaddexp2,
        BinaryOp::Power => Binary::Pow,
        BinaryOp::Nextafter => Binary::Nextafter,
        BinaryOp::Fmod => Binary::Fmod,
        BinaryOp::FloorDivide => Binary::FloorDivide,
        BinaryOp::Mod => Binary::Remainder,
        _ => return None,
    })
}

/// `op` of two float32 operands through its vector kernel; `None` when `op` has none or an
/// operand is not float32.
pub(super) fn float32(
    op: BinaryOp,
    runs: &Runs,
    rows: usize,
    (a, a_row): (&ArrayRef, usize),
    (b, b_row): (&ArrayRef, usize),
) -> Option<Result<ArrayRef, TensorError>> {
    let f = vector_fn(op)?;
    let a = Operand { values: a.as_primitive_opt::<Float32Type>()?.values(), row_len: a_row };
    let b = Operand { values: b.as_primitive_opt::<Float32Type>()?.values(), row_len: b_row };
    let level = Level::best();
    let out = at_level!(level, fn(
        f: Binary,
        runs: &Runs,
        rows: usize,
        a: Operand<'_, f32>,
        b: Operand<'_, f32>,
    ) -> Option<Vec<f32>> {
        with_binary!(f, map2 { runs, rows, a, b })
    });
    let Some(mut values) = out else {
        return Some(Err(broken("an operand")));
    };
    if f.needs_range() {
        // Where the kernel is not exact (a zero or non-finite operand, a quotient past 2^29),
        // the scalar C-exact function's value; computed only when such an element exists.
        let far = map2(runs, rows, a, b, |x, y| !float32::fmod_in_range(x, y))?;
        if far.iter().any(|&far| far) {
            let exact = match f {
                Binary::Fmod => map2(runs, rows, a, b, |x, y| x % y),
                Binary::FloorDivide => map2(runs, rows, a, b, NumpyElement::np_floor_div),
                _ => map2(runs, rows, a, b, NumpyElement::np_rem),
            }?;
            for ((v, e), far) in values.iter_mut().zip(exact).zip(far) {
                if far {
                    *v = e;
                }
            }
        }
    }
    Some(Ok(Arc::new(PrimitiveArray::<Float32Type>::from(values))))
}
