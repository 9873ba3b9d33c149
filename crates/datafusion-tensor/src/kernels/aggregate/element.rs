//! What a group holds for each tensor element while rows are folded into it, and how rows,
//! other groups' states and the result are made of it.
//!
//! numpy's `np.<op>(np.stack(rows), axis=0)` reduces an axis that is not the last one: its
//! loop adds (multiplies, compares) a whole row into the output at a time, each element
//! rounded to the output type after each row (float16 too: numpy's `HALF_add` rounds per
//! element outside a contiguous reduction). Folding rows in order with the reductions' own
//! steps ([`Fold::step`]) is therefore numpy's arithmetic exactly. (For tensors of one
//! element numpy's reduction is contiguous and sums pairwise; there the results agree within
//! the float tolerance, not to the bit.)

use std::marker::PhantomData;
use std::sync::Arc;

use arrow::array::{ArrayRef, ArrowPrimitiveType, AsArray, PrimitiveArray};
use arrow::buffer::ScalarBuffer;
use arrow::datatypes::{DataType, Float64Type};

use crate::error::{Result, TensorError};
use crate::kernels::reduce::{Fold, Real, Widen};

/// The native value of an arrow primitive type.
pub type Native<P> = <P as ArrowPrimitiveType>::Native;

/// One aggregate's per-element state and arithmetic.
pub trait Elementwise: Send + Sync + std::fmt::Debug + 'static {
    /// The input elements' type (booleans as `UInt8`).
    type Input: ArrowPrimitiveType;
    /// What a group holds per element.
    type Acc: Copy + Send + Sync + std::fmt::Debug;
    /// The result elements' type (booleans as `UInt8`).
    type Output: ArrowPrimitiveType;
    /// The state of an element before any row.
    fn init(&self) -> Self::Acc;
    /// Folds one row `x` into a group's elements; `count` rows were folded before.
    fn update(&self, acc: &mut [Self::Acc], x: &[Native<Self::Input>], count: u64);
    /// Takes one row `x` back out (a sliding window frame); `count` rows remain after it.
    /// `false` when this aggregate cannot.
    fn retract(&self, acc: &mut [Self::Acc], x: &[Native<Self::Input>], count: u64) -> bool;
    /// Folds another group's state (`other`, of `other_count` rows) into `acc` (of `count`).
    fn merge(&self, acc: &mut [Self::Acc], count: u64, other: &[Self::Acc], other_count: u64);
    /// The arrow types of the state's parts (one flat array each).
    fn state_types(&self) -> Vec<DataType>;
    /// `accs` as the state's parts.
    fn write_state(&self, accs: &[Self::Acc]) -> Vec<ArrayRef>;
    /// The states written by [`Self::write_state`].
    fn read_state(&self, parts: &[ArrayRef]) -> Result<Vec<Self::Acc>>;
    /// The result of one element of a group of `count` rows.
    fn finish(&self, acc: Self::Acc, count: u64) -> Native<Self::Output>;
}

/// The flat values of a state part of type `P`.
fn state_part<P: ArrowPrimitiveType>(parts: &[ArrayRef], i: usize) -> Result<&[P::Native]> {
    parts
        .get(i)
        .and_then(|part| part.as_primitive_opt::<P>())
        .map(|part| part.values().as_ref())
        .ok_or_else(|| {
            TensorError::Internal(format!(
                "aggregate state part {i} is not of type {}",
                P::DATA_TYPE
            ))
        })
}

/// How a row is taken back out of a sum of type `A` of elements of type `I`.
type Unstep<I, A> = fn(Native<A>, Native<I>) -> Native<A>;

/// The types of a [`Folded`], for its marker (`Send` and `Sync` whatever they are).
type Types<I, A, O> = fn() -> (I, A, O);

/// An aggregate that folds each element with a reduction's [`Fold`] into an accumulator of
/// type `A` (sum, product, min, max, and the sum of a mean), then finishes it into `O`.
pub struct Folded<I: ArrowPrimitiveType, A: ArrowPrimitiveType, O: ArrowPrimitiveType, F> {
    fold: F,
    finish: fn(Native<A>, u64) -> Native<O>,
    /// How a row is taken back out of a sum (`None`: it cannot be).
    unstep: Option<Unstep<I, A>>,
    _types: PhantomData<Types<I, A, O>>,
}

impl<I: ArrowPrimitiveType, A: ArrowPrimitiveType, O: ArrowPrimitiveType, F> Folded<I, A, O, F> {
    /// Folds with `fold`, finishes with `finish`; a sum also takes rows back with `unstep`.
    pub fn new(
        fold: F,
        finish: fn(Native<A>, u64) -> Native<O>,
        unstep: Option<Unstep<I, A>>,
    ) -> Self {
        Self {
            fold,
            finish,
            unstep,
            _types: PhantomData,
        }
    }
}

impl<I: ArrowPrimitiveType, A: ArrowPrimitiveType, O: ArrowPrimitiveType, F> std::fmt::Debug
    for Folded<I, A, O, F>
{
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Folded({} into {} as {})",
            I::DATA_TYPE,
            A::DATA_TYPE,
            O::DATA_TYPE
        )
    }
}

impl<I, A, O, F> Elementwise for Folded<I, A, O, F>
where
    I: ArrowPrimitiveType,
    A: ArrowPrimitiveType,
    O: ArrowPrimitiveType,
    F: Fold<Native<I>, Acc = Native<A>> + Fold<Native<A>, Acc = Native<A>> + Send + Sync,
    F: std::fmt::Debug + 'static,
{
    type Input = I;
    type Acc = Native<A>;
    type Output = O;

    fn init(&self) -> Native<A> {
        <F as Fold<Native<I>>>::init(&self.fold)
    }

    #[inline]
    fn update(&self, acc: &mut [Native<A>], x: &[Native<I>], _: u64) {
        for (a, &v) in acc.iter_mut().zip(x) {
            *a = <F as Fold<Native<I>>>::step(&self.fold, *a, v, 0);
        }
    }

    fn retract(&self, acc: &mut [Native<A>], x: &[Native<I>], _: u64) -> bool {
        let Some(unstep) = self.unstep else {
            return false;
        };
        for (a, &v) in acc.iter_mut().zip(x) {
            *a = unstep(*a, v);
        }
        true
    }

    fn merge(&self, acc: &mut [Native<A>], _: u64, other: &[Native<A>], _: u64) {
        for (a, &b) in acc.iter_mut().zip(other) {
            *a = <F as Fold<Native<A>>>::step(&self.fold, *a, b, 0);
        }
    }

    fn state_types(&self) -> Vec<DataType> {
        vec![A::DATA_TYPE]
    }

    fn write_state(&self, accs: &[Native<A>]) -> Vec<ArrayRef> {
        vec![Arc::new(PrimitiveArray::<A>::new(
            ScalarBuffer::from(accs.to_vec()),
            None,
        ))]
    }

    fn read_state(&self, parts: &[ArrayRef]) -> Result<Vec<Native<A>>> {
        Ok(state_part::<A>(parts, 0)?.to_vec())
    }

    fn finish(&self, acc: Native<A>, count: u64) -> Native<O> {
        (self.finish)(acc, count)
    }
}

/// numpy's `var` / `std` (`ddof`) of elements read as float64, as a running mean and sum of
/// squared deviations (Welford's update, Chan's merge of two groups) in float64, rounded to
/// `O` at the end. numpy computes the mean first and then the deviations, in the result type;
/// the two agree within the float tolerance (one rounding of the result type, plus
/// float64's), not to the bit.
pub struct Moments<I, O> {
    ddof: i64,
    sqrt: bool,
    _types: PhantomData<fn() -> (I, O)>,
}

impl<I, O> Moments<I, O> {
    /// `var` (or with `sqrt`, `std`) with `ddof`.
    pub fn new(ddof: i64, sqrt: bool) -> Self {
        Self {
            ddof,
            sqrt,
            _types: PhantomData,
        }
    }
}

impl<I: ArrowPrimitiveType, O: ArrowPrimitiveType> std::fmt::Debug for Moments<I, O> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Moments({} as {}, ddof {})",
            I::DATA_TYPE,
            O::DATA_TYPE,
            self.ddof
        )
    }
}

impl<I, O> Elementwise for Moments<I, O>
where
    I: ArrowPrimitiveType,
    Native<I>: Widen<f64>,
    O: ArrowPrimitiveType,
    Native<O>: Real,
{
    type Input = I;
    /// The mean and the sum of squared deviations from it.
    type Acc = (f64, f64);
    type Output = O;

    fn init(&self) -> (f64, f64) {
        (0.0, 0.0)
    }

    #[inline]
    fn update(&self, acc: &mut [(f64, f64)], x: &[Native<I>], count: u64) {
        // One division per row, not per element (within the tolerance either way).
        let inverse = 1.0 / (count + 1) as f64;
        for ((mean, m2), &v) in acc.iter_mut().zip(x) {
            let v: f64 = v.widen_to();
            let delta = v - *mean;
            *mean += delta * inverse;
            *m2 += delta * (v - *mean);
        }
    }

    fn retract(&self, acc: &mut [(f64, f64)], x: &[Native<I>], count: u64) -> bool {
        if count == 0 {
            acc.fill((0.0, 0.0));
            return true;
        }
        let before = (count + 1) as f64;
        let after = count as f64;
        for ((mean, m2), &v) in acc.iter_mut().zip(x) {
            let v: f64 = v.widen_to();
            let old = *mean;
            *mean = (old * before - v) / after;
            *m2 -= (v - old) * (v - *mean);
        }
        true
    }

    fn merge(&self, acc: &mut [(f64, f64)], count: u64, other: &[(f64, f64)], other_count: u64) {
        let (na, nb) = (count as f64, other_count as f64);
        let n = na + nb;
        for ((mean, m2), &(mean_b, m2_b)) in acc.iter_mut().zip(other) {
            let delta = mean_b - *mean;
            *mean += delta * nb / n;
            *m2 += m2_b + delta * delta * na * nb / n;
        }
    }

    fn state_types(&self) -> Vec<DataType> {
        vec![DataType::Float64, DataType::Float64]
    }

    fn write_state(&self, accs: &[(f64, f64)]) -> Vec<ArrayRef> {
        let part = |f: fn(&(f64, f64)) -> f64| -> ArrayRef {
            Arc::new(PrimitiveArray::<Float64Type>::new(
                accs.iter().map(f).collect(),
                None,
            ))
        };
        vec![part(|a| a.0), part(|a| a.1)]
    }

    fn read_state(&self, parts: &[ArrayRef]) -> Result<Vec<(f64, f64)>> {
        let means = state_part::<Float64Type>(parts, 0)?;
        let m2s = state_part::<Float64Type>(parts, 1)?;
        Ok(means.iter().copied().zip(m2s.iter().copied()).collect())
    }

    fn finish(&self, (_, m2): (f64, f64), count: u64) -> Native<O> {
        // numpy divides by max(count - ddof, 0): 0 / 0 is NaN, x / 0 infinity.
        let dof = i64::try_from(count)
            .unwrap_or(i64::MAX)
            .saturating_sub(self.ddof)
            .max(0) as f64;
        let var = Native::<O>::from_f64(m2 / dof);
        if self.sqrt {
            Native::<O>::narrow(crate::kernels::reduce::Accum::sqrt(var.widen()))
        } else {
            var
        }
    }
}
