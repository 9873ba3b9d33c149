//! The matrix-product path of each element type in a contraction: the floats through
//! [`Gemm`], float16 converted to float32 and rounded once per result element (numpy's half
//! loops convert to float and back), the other types through the contraction's own loop.

use half::{f16, slice::HalfFloatSliceExt};

use super::element::Element;
use super::gemm::Gemm;
use crate::error::{Result, TensorError};

/// Buffers of a float16 product worked in float32, reused from row to row.
#[derive(Debug, Default)]
pub struct HalfScratch {
    a: Vec<f32>,
    b: Vec<f32>,
    c: Vec<f32>,
}

impl Gemm {
    /// [`Gemm::run`] on float16 operands: the row's values converted to float32, the result
    /// rounded once per element.
    pub fn run_half(
        &self,
        a: &[f16],
        b: &[f16],
        bases: [usize; 2],
        out: &mut Vec<f16>,
        scratch: &mut HalfScratch,
    ) -> Result<()> {
        for ((values, buffer), (base, extent)) in [(a, &mut scratch.a), (b, &mut scratch.b)]
            .into_iter()
            .zip(bases.into_iter().zip(self.extents))
        {
            let Some(row) = base
                .checked_add(extent)
                .and_then(|end| values.get(base..end))
            else {
                return Err(TensorError::Internal(format!(
                    "matrix product operand holds {} values, {} needed",
                    values.len(),
                    base.saturating_add(extent)
                )));
            };
            buffer.resize(extent, 0.0);
            row.convert_to_f32_slice(buffer);
        }
        scratch.c.clear();
        self.run(&scratch.a, &scratch.b, [0, 0], &mut scratch.c)?;
        out.extend(scratch.c.iter().map(|&x| f16::from_f32(x)));
        Ok(())
    }
}

/// An element type's matrix-product path in a contraction ([`super::contraction`]): the floats
/// go through [`Gemm`], float16 worked in float32; the other types return `None` and the
/// contraction's own loop works them.
pub trait GemmRow: Element {
    /// One row of a matrix product through `plan` ([`Gemm::run`]); `None` where this type has
    /// no gemm.
    fn gemm(
        _plan: &Gemm,
        _inputs: [&[Self]; 2],
        _bases: [usize; 2],
        _out: &mut Vec<Self>,
        _scratch: &mut HalfScratch,
    ) -> Option<Result<()>> {
        None
    }
}

macro_rules! loop_only {
    ($($t:ty),*) => {$(
        impl GemmRow for $t {}
    )*};
}

loop_only!(i8, i16, i32, i64, u8, u16, u32, u64, bool);

macro_rules! gemm_row {
    ($($t:ty),*) => {$(
        impl GemmRow for $t {
            fn gemm(
                plan: &Gemm,
                [a, b]: [&[$t]; 2],
                bases: [usize; 2],
                out: &mut Vec<$t>,
                _scratch: &mut HalfScratch,
            ) -> Option<Result<()>> {
                Some(plan.run(a, b, bases, out))
            }
        }
    )*};
}

gemm_row!(f32, f64);

impl GemmRow for f16 {
    fn gemm(
        plan: &Gemm,
        [a, b]: [&[f16]; 2],
        bases: [usize; 2],
        out: &mut Vec<f16>,
        scratch: &mut HalfScratch,
    ) -> Option<Result<()>> {
        Some(plan.run_half(a, b, bases, out, scratch))
    }
}
