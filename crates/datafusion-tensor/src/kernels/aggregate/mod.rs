//! Aggregates over the rows of a group, element by element: numpy's
//! `np.<op>(np.stack(rows), axis=0)` for `sum`, `prod`, `mean`, `min`, `max`, `var`, `std`.
//!
//! A group's state is one accumulator per tensor element ([`element`]), updated a whole row
//! at a time by a loop over the row's elements ([`groups`]); the states of many groups are
//! kept side by side, so one batch updates all of them. States are written as plain Arrow
//! arrays (a row count, the group's shape, the accumulators as lists) and merged from them,
//! which is what a two-phase (partial / final) aggregation needs.
//!
//! - [`element`]: per-element arithmetic and state of each aggregate;
//! - [`groups`]: the groups' states and their batches;
//! - [`stack`]: the rows of `np.stack`.

pub mod element;
pub mod groups;
pub mod stack;

use std::ops::Range;

use arrow::array::{Array, ArrayRef, FixedSizeListArray};
use arrow::buffer::NullBuffer;
use arrow::datatypes::{
    DataType, Float16Type, Float32Type, Float64Type, Int8Type, Int16Type, Int32Type, Int64Type,
    UInt8Type, UInt16Type, UInt32Type, UInt64Type,
};
use half::f16;

use self::element::{Folded, Moments};
use self::groups::Groups;
use super::ragged::row_major_values as variable_row_major;
use super::reduce::{
    Extreme, FloatProd, FloatSum, IntFold, Real, Reduction, Widen, WrapInto, Wrapping,
};
use super::{layout, to_storage};
use crate::error::{Result, TensorError};
use crate::tensor_type::TensorType;
use crate::variable_shape::VariableShapeArray;

/// An aggregate over a group's rows, element by element.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Aggregation {
    /// `np.sum(rows, axis=0)`.
    Sum,
    /// `np.prod(rows, axis=0)`.
    Prod,
    /// `np.mean(rows, axis=0)`.
    Mean,
    /// `np.min(rows, axis=0)`.
    Min,
    /// `np.max(rows, axis=0)`.
    Max,
    /// `np.var(rows, axis=0, ddof=ddof)`.
    Var {
        /// Delta degrees of freedom.
        ddof: i64,
    },
    /// `np.std(rows, axis=0, ddof=ddof)`.
    Std {
        /// Delta degrees of freedom.
        ddof: i64,
    },
}

impl Aggregation {
    /// The reduction along an axis that this aggregate is.
    fn reduction(self) -> Reduction {
        match self {
            Self::Sum => Reduction::Sum,
            Self::Prod => Reduction::Prod,
            Self::Mean => Reduction::Mean,
            Self::Min => Reduction::Min,
            Self::Max => Reduction::Max,
            Self::Var { ddof } => Reduction::Var { ddof },
            Self::Std { ddof } => Reduction::Std { ddof },
        }
    }

    /// numpy 2's result element type for `element`s (the reductions' types).
    pub fn result_type(self, element: &DataType) -> DataType {
        self.reduction().result_type(element)
    }
}

/// One batch of an aggregate's input: every row's values in logical row-major order (in the
/// storage type: booleans as bytes), where each row is and its logical shape, and which rows
/// count (not NULL, and kept by a `FILTER`). Row `r`'s values are [`Self::row`]`(r)` of
/// [`Self::values`] (not necessarily from 0: a sliced list batch keeps its offsets).
#[derive(Debug)]
pub struct AggregateInput<'a> {
    values: ArrayRef,
    len: usize,
    rows: InputRows<'a>,
    valid: Option<NullBuffer>,
    /// NULL elements of [`Self::values`], if there are any.
    element_nulls: Option<NullBuffer>,
}

/// The NULL elements of `values`, if there are any.
fn element_nulls(values: &ArrayRef) -> Option<NullBuffer> {
    values.logical_nulls().filter(|n| n.null_count() > 0)
}

#[derive(Debug)]
enum InputRows<'a> {
    /// Every row `size` values of one `shape`.
    Fixed { shape: Vec<usize>, size: usize },
    /// Lists (1-d tensors): row `r` at `offsets[r]..offsets[r + 1]`.
    List { offsets: Vec<usize> },
    /// Row `r` at `offsets[r]..offsets[r + 1]`, of its own shape.
    Variable {
        view: &'a VariableShapeArray<'a>,
        offsets: Vec<usize>,
    },
}

impl<'a> AggregateInput<'a> {
    /// A fixed-shape batch of type `tensor`; rows also left out where `keep` is NULL.
    ///
    /// # Errors
    /// When the values cannot be read in logical order (an Arrow error).
    pub fn fixed(
        tensor: &TensorType,
        list: &FixedSizeListArray,
        keep: Option<&NullBuffer>,
    ) -> Result<Self> {
        let values = to_storage(&layout::row_major_values(tensor, list)?)?;
        Ok(Self {
            element_nulls: element_nulls(&values),
            values,
            len: list.len(),
            rows: InputRows::Fixed {
                shape: tensor.logical_shape(),
                size: tensor.size(),
            },
            valid: NullBuffer::union(list.logical_nulls().as_ref(), keep),
        })
    }

    /// A variable-shape batch; rows also left out where `keep` is NULL.
    ///
    /// # Errors
    /// When the values cannot be read in logical order.
    pub fn variable(view: &'a VariableShapeArray<'a>, keep: Option<&NullBuffer>) -> Result<Self> {
        let values = to_storage(&variable_row_major(view)?)?;
        let mut offsets = Vec::with_capacity(view.len() + 1);
        offsets.push(0);
        for row in 0..view.len() {
            offsets.push(offsets[row] + view.value_range(row).len());
        }
        Ok(Self {
            element_nulls: element_nulls(&values),
            values,
            len: view.len(),
            rows: InputRows::Variable { view, offsets },
            valid: NullBuffer::union(view.nulls(), keep),
        })
    }

    /// A batch of SQL lists of numbers, each a 1-d tensor: `values` with row `r` at
    /// `offsets[r]..offsets[r + 1]` (one more offset than rows), NULL where `nulls` says; rows
    /// also left out where `keep` is NULL.
    ///
    /// # Errors
    /// When the values cannot be read in their storage type.
    pub fn list(
        values: &ArrayRef,
        offsets: Vec<usize>,
        nulls: Option<&NullBuffer>,
        keep: Option<&NullBuffer>,
    ) -> Result<Self> {
        let values = to_storage(values)?;
        Ok(Self {
            element_nulls: element_nulls(&values),
            values,
            len: offsets.len().saturating_sub(1),
            rows: InputRows::List { offsets },
            valid: NullBuffer::union(nulls, keep),
        })
    }

    /// The row-major values (storage type) of every row, one after another.
    pub fn values(&self) -> &ArrayRef {
        &self.values
    }

    /// The number of rows.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The NULL elements of [`Self::values`] (`None`: there are none).
    pub fn element_nulls(&self) -> Option<&NullBuffer> {
        self.element_nulls.as_ref()
    }

    /// Whether `row` counts.
    pub fn is_valid(&self, row: usize) -> bool {
        self.valid.as_ref().is_none_or(|v| v.is_valid(row))
    }

    /// `row`'s values in [`Self::values`]; its logical shape into `shape`.
    pub fn row(&self, row: usize, shape: &mut Vec<usize>) -> Range<usize> {
        shape.clear();
        match &self.rows {
            InputRows::Fixed { shape: s, size } => {
                shape.extend_from_slice(s);
                row * size..(row + 1) * size
            }
            InputRows::List { offsets } => {
                shape.push(offsets[row + 1] - offsets[row]);
                offsets[row]..offsets[row + 1]
            }
            InputRows::Variable { view, offsets } => {
                shape.extend(view.logical_shape(row));
                offsets[row]..offsets[row + 1]
            }
        }
    }
}

/// The results of some groups: their values (the result's storage type) one group after
/// another, each group's number of values and logical shape, and which groups had rows.
#[derive(Debug)]
pub struct GroupResults {
    /// Row-major result values of every group in order (for fixed-size results, NULL groups
    /// hold placeholder zeros).
    pub values: ArrayRef,
    /// How many values each group holds in `values`.
    pub lengths: Vec<usize>,
    /// Each group's logical shape (`None`: no rows).
    pub shapes: Vec<Option<Box<[usize]>>>,
    /// Valid where a group had rows.
    pub nulls: NullBuffer,
    /// Over `values`: NULL where a row of the group had a NULL element (SQL's rule, as the
    /// reductions along axes have it; numpy has no NULLs); `None` when there is none.
    pub element_nulls: Option<NullBuffer>,
}

/// The states of the groups of one aggregate call (group `g` is index `g`).
pub trait GroupStates: Send + Sync + std::fmt::Debug {
    /// Makes room for `groups` groups (never shrinks).
    fn resize(&mut self, groups: usize);
    /// The number of groups.
    fn len(&self) -> usize;
    /// Whether there are no groups.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Folds each valid row `r` of `input` into group `groups[r]`.
    ///
    /// # Errors
    /// A row whose shape is not its group's (naming the row and both shapes).
    fn update(&mut self, input: &AggregateInput<'_>, groups: &[usize]) -> Result<()>;
    /// Takes each valid row back out of its group (a sliding window frame); `false` when this
    /// aggregate cannot.
    ///
    /// # Errors
    /// As [`Self::update`].
    fn retract(&mut self, input: &AggregateInput<'_>, groups: &[usize]) -> Result<bool>;
    /// The Arrow types of the state's accumulator parts (each stored as a list).
    fn state_types(&self) -> Vec<DataType>;
    /// The states of `groups`: a `UInt64` row count, the shape (a list of `UInt64`, NULL for a
    /// group without rows), each element's count of NULLs (a list of `UInt64`, empty for a
    /// group without NULL elements), then one list per accumulator part.
    ///
    /// # Errors
    /// An Arrow error building the arrays.
    fn state(&self, groups: Range<usize>) -> Result<Vec<ArrayRef>>;
    /// Folds the states `state` (as [`Self::state`] writes them) row `r` into group
    /// `groups[r]`.
    ///
    /// # Errors
    /// A state whose shape is not its group's.
    fn merge(&mut self, state: &[ArrayRef], groups: &[usize]) -> Result<()>;
    /// The results of `groups`; with `fixed_size`, NULL groups hold that many placeholders.
    ///
    /// # Errors
    /// An Arrow error building the arrays.
    fn evaluate(&self, groups: Range<usize>, fixed_size: Option<usize>) -> Result<GroupResults>;
    /// Drops the first `n` groups (the others move to the front).
    fn drain(&mut self, n: usize);
    /// Memory held, in bytes.
    fn size(&self) -> usize;
}

fn same<T>(value: T, _: u64) -> T {
    value
}

fn int_unstep<T: WrapInto<A>, A: Wrapping>(acc: A, value: T) -> A {
    acc.sub(value.wrap_into())
}

fn float_unstep<T: Widen<S::Acc>, S: Real>(acc: S, value: T) -> S {
    S::narrow(acc.widen() - value.widen_to())
}

/// numpy's `mean` of a sum: divided by the count in float64 (numpy divides by an `intp`,
/// which promotes to float64) and rounded to the result type.
fn mean_f64(sum: f64, count: u64) -> f64 {
    sum / count as f64
}

fn mean_f32(sum: f32, count: u64) -> f32 {
    (f64::from(sum) / count as f64) as f32
}

/// float16: summed in float32, divided in float64, rounded to float32 and then to float16
/// (numpy's `_mean` casts its float32 result array to float16).
fn mean_f16(sum: f32, count: u64) -> f16 {
    f16::from_f32(mean_f32(sum, count))
}

/// A boxed [`Groups`] of an element aggregate.
macro_rules! boxed {
    ($e:expr) => {
        Box::new(Groups::new($e)) as Box<dyn GroupStates>
    };
}

/// Runs `$m!(arrow type, native type, args...)` for the element type `$element` (booleans as
/// their `UInt8` storage), or returns the element type error.
macro_rules! by_element {
    ($element:expr, $m:ident $(, $arg:expr)*) => {
        match $element {
            DataType::Int8 => $m!(Int8Type, i8 $(, $arg)*),
            DataType::Int16 => $m!(Int16Type, i16 $(, $arg)*),
            DataType::Int32 => $m!(Int32Type, i32 $(, $arg)*),
            DataType::Int64 => $m!(Int64Type, i64 $(, $arg)*),
            DataType::UInt8 | DataType::Boolean => $m!(UInt8Type, u8 $(, $arg)*),
            DataType::UInt16 => $m!(UInt16Type, u16 $(, $arg)*),
            DataType::UInt32 => $m!(UInt32Type, u32 $(, $arg)*),
            DataType::UInt64 => $m!(UInt64Type, u64 $(, $arg)*),
            DataType::Float16 => $m!(Float16Type, f16 $(, $arg)*),
            DataType::Float32 => $m!(Float32Type, f32 $(, $arg)*),
            DataType::Float64 => $m!(Float64Type, f64 $(, $arg)*),
            other => return Err(TensorError::ElementType(other.to_string())),
        }
    };
}

/// numpy's sum or product: signed integers (and booleans) into int64, unsigned ones into
/// uint64 (wrapping), floats in their type; sums take rows back out.
fn sum_or_prod(element: &DataType, product: bool) -> Result<Box<dyn GroupStates>> {
    macro_rules! int_fold {
        ($P:ty, $A:ty, $a:ty, $n:ty) => {
            boxed!(Folded::<$P, $A, $A, IntFold<$a>>::new(
                IntFold::new(product),
                same,
                (!product).then_some(int_unstep::<$n, $a> as fn($a, $n) -> $a)
            ))
        };
    }
    macro_rules! float_fold {
        ($P:ty, $n:ty) => {
            if product {
                boxed!(Folded::<$P, $P, $P, FloatProd<$n>>::new(
                    FloatProd::default(),
                    same,
                    None
                ))
            } else {
                boxed!(Folded::<$P, $P, $P, FloatSum<$n>>::new(
                    FloatSum::default(),
                    same,
                    Some(float_unstep::<$n, $n>)
                ))
            }
        };
    }
    let boolean = *element == DataType::Boolean;
    macro_rules! fold {
        ($P:ty, f16) => {
            float_fold!($P, f16)
        };
        ($P:ty, f32) => {
            float_fold!($P, f32)
        };
        ($P:ty, f64) => {
            float_fold!($P, f64)
        };
        ($P:ty, u8) => {
            if boolean {
                int_fold!($P, Int64Type, i64, u8)
            } else {
                int_fold!($P, UInt64Type, u64, u8)
            }
        };
        ($P:ty, u16) => {
            int_fold!($P, UInt64Type, u64, u16)
        };
        ($P:ty, u32) => {
            int_fold!($P, UInt64Type, u64, u32)
        };
        ($P:ty, u64) => {
            int_fold!($P, UInt64Type, u64, u64)
        };
        ($P:ty, $n:tt) => {
            int_fold!($P, Int64Type, i64, $n)
        };
    }
    Ok(by_element!(element, fold))
}

/// numpy's minimum or maximum, in the element type (NaN wins).
fn extreme(element: &DataType, max: bool) -> Result<Box<dyn GroupStates>> {
    macro_rules! fold {
        ($P:ty, $n:tt) => {
            boxed!(Folded::<$P, $P, $P, Extreme>::new(
                Extreme { max },
                same,
                None
            ))
        };
    }
    Ok(by_element!(element, fold))
}

/// numpy's mean: float16 summed in float32, float32 and float64 in their type, integers and
/// booleans in float64.
fn mean(element: &DataType) -> Result<Box<dyn GroupStates>> {
    macro_rules! fold {
        ($P:ty, f16) => {
            boxed!(
                Folded::<Float16Type, Float32Type, Float16Type, FloatSum<f32>>::new(
                    FloatSum::default(),
                    mean_f16,
                    Some(float_unstep::<f16, f32>)
                )
            )
        };
        ($P:ty, f32) => {
            boxed!(
                Folded::<Float32Type, Float32Type, Float32Type, FloatSum<f32>>::new(
                    FloatSum::default(),
                    mean_f32,
                    Some(float_unstep::<f32, f32>)
                )
            )
        };
        ($P:ty, $n:ty) => {
            boxed!(Folded::<$P, Float64Type, Float64Type, FloatSum<f64>>::new(
                FloatSum::default(),
                mean_f64,
                Some(float_unstep::<$n, f64>)
            ))
        };
    }
    Ok(by_element!(element, fold))
}

/// numpy's var or std: float16 and float32 results in their type, others float64.
fn moments(element: &DataType, ddof: i64, sqrt: bool) -> Result<Box<dyn GroupStates>> {
    macro_rules! fold {
        ($P:ty, f16) => {
            boxed!(Moments::<Float16Type, Float16Type>::new(ddof, sqrt))
        };
        ($P:ty, f32) => {
            boxed!(Moments::<Float32Type, Float32Type>::new(ddof, sqrt))
        };
        ($P:ty, $n:ty) => {
            boxed!(Moments::<$P, Float64Type>::new(ddof, sqrt))
        };
    }
    Ok(by_element!(element, fold))
}

/// The states of no groups yet, of `aggregation` over tensors of `element`s.
///
/// # Errors
/// An element type that is not a tensor element type.
pub fn group_states(aggregation: Aggregation, element: &DataType) -> Result<Box<dyn GroupStates>> {
    match aggregation {
        Aggregation::Sum => sum_or_prod(element, false),
        Aggregation::Prod => sum_or_prod(element, true),
        Aggregation::Min => extreme(element, false),
        Aggregation::Max => extreme(element, true),
        Aggregation::Mean => mean(element),
        Aggregation::Var { ddof } => moments(element, ddof, false),
        Aggregation::Std { ddof } => moments(element, ddof, true),
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use arrow::array::{Array, AsArray, Float64Array, Int32Array};
    use arrow::datatypes::{Float64Type, Int64Type};

    use super::*;
    use crate::kernels::layout::tensor_array;

    /// A batch of `rows` tensors of shape [2] (`None`: a NULL row).
    fn batch<T: Array + Clone + 'static>(
        element: DataType,
        values: T,
        valid: &[bool],
    ) -> (TensorType, FixedSizeListArray) {
        let tensor = TensorType::new(element, vec![2]).unwrap();
        let list = tensor_array(
            &tensor,
            Arc::new(values),
            Some(NullBuffer::from(valid.to_vec())),
            valid.len(),
        )
        .unwrap();
        (tensor, list)
    }

    fn results_f64(states: &dyn GroupStates, groups: usize) -> Vec<Option<Vec<f64>>> {
        let out = states.evaluate(0..groups, Some(2)).unwrap();
        let values = out.values.as_primitive::<Float64Type>().values();
        (0..groups)
            .map(|g| {
                out.nulls
                    .is_valid(g)
                    .then(|| values[g * 2..g * 2 + 2].to_vec())
            })
            .collect()
    }

    #[test]
    fn partial_states_merge_to_one_pass() {
        let (tensor, list) = batch(
            DataType::Int32,
            Int32Array::from(vec![1, 2, 3, 4, 5, 6, 7, 8, i32::MAX, i32::MAX]),
            &[true, true, false, true, true],
        );
        let input = AggregateInput::fixed(&tensor, &list, None).unwrap();
        let groups = [0, 1, 0, 0, 1];
        let mut whole = group_states(Aggregation::Sum, &DataType::Int32).unwrap();
        whole.resize(2);
        whole.update(&input, &groups).unwrap();
        // Each row its own partial state, merged into the two groups.
        let mut parts = group_states(Aggregation::Sum, &DataType::Int32).unwrap();
        parts.resize(5);
        parts.update(&input, &[0, 1, 2, 3, 4]).unwrap();
        let state = parts.state(0..5).unwrap();
        let mut merged = group_states(Aggregation::Sum, &DataType::Int32).unwrap();
        merged.resize(2);
        merged.merge(&state, &groups).unwrap();
        for states in [&whole, &merged] {
            let out = states.evaluate(0..2, Some(2)).unwrap();
            assert_eq!(
                out.values.as_primitive::<Int64Type>().values().as_ref(),
                &[8, 10, 3 + i64::from(i32::MAX), 4 + i64::from(i32::MAX)]
            );
        }
    }

    #[test]
    fn moments_merge_with_chan_and_retract() {
        let data = [1.5, -2.0, 4.0, 0.25, 10.0, 3.0, -7.5, 2.0];
        let (tensor, list) = batch(
            DataType::Float64,
            Float64Array::from(data.to_vec()),
            &[true; 4],
        );
        let input = AggregateInput::fixed(&tensor, &list, None).unwrap();
        let var = Aggregation::Var { ddof: 1 };
        // numpy's two-pass var(ddof=1) of each element's column.
        let expected: Vec<f64> = (0..2)
            .map(|j| {
                let column: Vec<f64> = (0..4).map(|r| data[r * 2 + j]).collect();
                let mean = column.iter().sum::<f64>() / 4.0;
                column.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / 3.0
            })
            .collect();
        let mut halves = group_states(var, &DataType::Float64).unwrap();
        halves.resize(2);
        halves.update(&input, &[0, 0, 1, 1]).unwrap();
        let state = halves.state(0..2).unwrap();
        let mut merged = group_states(var, &DataType::Float64).unwrap();
        merged.resize(1);
        merged.merge(&state, &[0, 0]).unwrap();
        let got = results_f64(merged.as_ref(), 1)[0].clone().unwrap();
        for (g, e) in got.iter().zip(&expected) {
            assert!((g - e).abs() <= 1e-12 * e.abs(), "{got:?} vs {expected:?}");
        }
        // Taking the last two rows back out leaves the first two's moments.
        let mut sliding = group_states(var, &DataType::Float64).unwrap();
        sliding.resize(1);
        sliding.update(&input, &[0; 4]).unwrap();
        let (tensor2, tail) = batch(
            DataType::Float64,
            Float64Array::from(data[4..].to_vec()),
            &[true; 2],
        );
        let tail = AggregateInput::fixed(&tensor2, &tail, None).unwrap();
        assert!(sliding.retract(&tail, &[0, 0]).unwrap());
        let got = results_f64(sliding.as_ref(), 1)[0].clone().unwrap();
        // var(ddof=1) of [1.5, 4.0] and of [-2.0, 0.25].
        assert!(
            (got[0] - 3.125).abs() < 1e-12 && (got[1] - 2.53125).abs() < 1e-12,
            "{got:?}"
        );
    }

    #[test]
    fn extremes_propagate_nan_and_empty_groups_are_null() {
        let (tensor, list) = batch(
            DataType::Float64,
            Float64Array::from(vec![1.0, f64::NAN, 2.0, 0.5, 0.0, 0.0]),
            &[true, true, false],
        );
        let input = AggregateInput::fixed(&tensor, &list, None).unwrap();
        let mut max = group_states(Aggregation::Max, &DataType::Float64).unwrap();
        max.resize(2);
        max.update(&input, &[0, 0, 1]).unwrap();
        let got = results_f64(max.as_ref(), 2);
        assert_eq!(got[0].as_ref().map(|v| v[0]), Some(2.0));
        assert!(got[0].as_ref().is_some_and(|v| v[1].is_nan()));
        assert_eq!(got[1], None);
        // Sums cannot take rows back out of products.
        let mut prod = group_states(Aggregation::Prod, &DataType::Float64).unwrap();
        prod.resize(1);
        prod.update(&input, &[0, 0, 0]).unwrap();
        assert!(!prod.retract(&input, &[0, 0, 0]).unwrap());
    }
}
