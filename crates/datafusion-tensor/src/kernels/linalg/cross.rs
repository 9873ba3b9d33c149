//! numpy 2's `linalg.cross` per row: the cross product of 3-vectors along each operand's last
//! axis (the call moves `axis` there), the other dimensions broadcast. numpy's `cross` works
//! each component as `a1 * b2 - a2 * b1` (a multiply, a second multiply, a subtraction, each
//! rounded in the result type: integers wrap, float16 rounds each step), and so does
//! [`CrossPlan::run`].

use half::f16;

use crate::error::{Result, TensorError};
use crate::limits::Limits;
use crate::shape::{broadcast_labelled, broadcast_offsets};

/// An element type of the cross product: numpy's multiply and subtract in it.
pub trait CrossElement: Copy + Default {
    /// `self * other`.
    #[must_use]
    fn times(self, other: Self) -> Self;
    /// `self - other`.
    #[must_use]
    fn minus(self, other: Self) -> Self;
}

macro_rules! integer_cross {
    ($($t:ty),*) => {$(
        impl CrossElement for $t {
            #[inline]
            fn times(self, other: $t) -> $t {
                self.wrapping_mul(other)
            }
            #[inline]
            fn minus(self, other: $t) -> $t {
                self.wrapping_sub(other)
            }
        }
    )*};
}

integer_cross!(i8, i16, i32, i64, u8, u16, u32, u64);

macro_rules! float_cross {
    ($($t:ty),*) => {$(
        impl CrossElement for $t {
            #[inline]
            fn times(self, other: $t) -> $t {
                self * other
            }
            #[inline]
            fn minus(self, other: $t) -> $t {
                self - other
            }
        }
    )*};
}

float_cross!(f32, f64);

/// numpy's half loops: each operation in float32, rounded to float16.
impl CrossElement for f16 {
    #[inline]
    fn times(self, other: f16) -> f16 {
        f16::from_f32(self.to_f32() * other.to_f32())
    }
    #[inline]
    fn minus(self, other: f16) -> f16 {
        f16::from_f32(self.to_f32() - other.to_f32())
    }
}

/// The cross product of operands of one combination of logical shapes (the vector axis
/// last in each).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CrossPlan {
    /// The broadcast shape of the operands' other dimensions; the result's is it and 3.
    pub batch: Vec<usize>,
    /// Per operand, the offset in its row of each vector of the batch (row-major).
    offsets: [Vec<u32>; 2],
    /// Per operand, the stride of its vector axis.
    steps: [usize; 2],
}

impl CrossPlan {
    /// The plan for operands of these logical shapes and strides.
    ///
    /// # Errors
    /// numpy's: an operand whose last dimension is not 3, other dimensions that do not
    /// broadcast; a result over the session's limits.
    pub fn new(layouts: &[(&[usize], &[usize])], limits: &Limits) -> Result<Self> {
        let [(s1, t1), (s2, t2)] = layouts else {
            return Err(TensorError::Internal("two operands expected".to_string()));
        };
        let last = |s: &[usize]| s.last().copied().unwrap_or(0);
        if last(s1) != 3 || last(s2) != 3 {
            return Err(TensorError::Shape(format!(
                "Both input arrays must be (arrays of) 3-dimensional vectors, but they are {} and {} dimensional instead.",
                last(s1),
                last(s2)
            )));
        }
        let (b1, b2) = (&s1[..s1.len() - 1], &s2[..s2.len() - 1]);
        let batch = broadcast_labelled(&[("arg 0", b1), ("arg 1", b2)])?;
        let mut shape = batch.clone();
        shape.push(3);
        limits.checked_size(&shape)?;
        Ok(Self {
            offsets: [
                broadcast_offsets(b1, &t1[..b1.len()], &batch),
                broadcast_offsets(b2, &t2[..b2.len()], &batch),
            ],
            steps: [last(t1), last(t2)],
            batch,
        })
    }

    /// The result's shape: the batch, then 3.
    pub fn shape(&self) -> Vec<usize> {
        let mut shape = self.batch.clone();
        shape.push(3);
        shape
    }

    /// Appends one row's element NULLs (`true`: NULL) to `out`, laid out as [`Self::run`]'s
    /// values: a component is NULL where one of the four elements its products take is
    /// (`null1`, `null2`: the operands' NULL elements).
    pub fn run_nulls(
        &self,
        null1: &[bool],
        null2: &[bool],
        starts: [usize; 2],
        out: &mut Vec<bool>,
    ) {
        let [step1, step2] = self.steps;
        for (&o1, &o2) in self.offsets[0].iter().zip(&self.offsets[1]) {
            let (p1, p2) = (starts[0] + o1 as usize, starts[1] + o2 as usize);
            for component in 0..3 {
                let (next, last) = ((component + 1) % 3, (component + 2) % 3);
                out.push(
                    null1[p1 + next * step1]
                        || null1[p1 + last * step1]
                        || null2[p2 + next * step2]
                        || null2[p2 + last * step2],
                );
            }
        }
    }

    /// Appends one row's result (row-major, the batch then the 3 components) to `out`; the
    /// operands' rows start at `starts` in `a` and `b`.
    pub fn run<T: CrossElement>(
        &self,
        x1: &[T],
        x2: &[T],
        starts: [usize; 2],
        out: &mut Vec<T>,
    ) {
        let [step1, step2] = self.steps;
        for (&o1, &o2) in self.offsets[0].iter().zip(&self.offsets[1]) {
            let (p1, p2) = (starts[0] + o1 as usize, starts[1] + o2 as usize);
            let u = [x1[p1], x1[p1 + step1], x1[p1 + 2 * step1]];
            let v = [x2[p2], x2[p2 + step2], x2[p2 + 2 * step2]];
            for component in 0..3 {
                let (next, last) = ((component + 1) % 3, (component + 2) % 3);
                out.push(u[next].times(v[last]).minus(u[last].times(v[next])));
            }
        }
    }
}
