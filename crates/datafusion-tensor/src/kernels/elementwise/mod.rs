//! numpy's binary ufuncs and `where` over whole batches of broadcast operands.
//!
//! Operands arrive in the type the operation computes in (the caller promoted and cast them);
//! each is a values buffer and the number of values one row holds (0: a literal serving every
//! row). Where both operands are laid out as the result (same shape, row-major, or a literal
//! number), arithmetic runs on the whole buffers through arrow's kernels where they give
//! numpy's result (wrapping `+ - *`, float `/`), and comparisons through one packing pass
//! ([`super::bits`]); everything else runs through the compiled [`Runs`] with numpy's element
//! semantics ([`ops`]). Element NULLs propagate; row NULLs are the caller's.
//!
//! [`runs`]: the broadcast plan and its loops; [`ops`]: numpy's arithmetic per element type;
//! [`more_ops`]: the float-only and integer-only ufuncs (`arctan2` ... `nextafter`, bitwise).

pub mod more_ops;
pub mod ops;
pub mod runs;
mod vector;

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, AsArray, BooleanArray, PrimitiveArray, Scalar};
use arrow::buffer::{BooleanBuffer, NullBuffer};
use arrow::compute::kernels::{cmp, numeric};
use arrow::datatypes::{ArrowPrimitiveType, DataType};
use arrow::error::ArrowError;

use self::ops::NumpyElement;
use self::runs::{Operand, map2, map3};
pub use self::runs::{Runs, broadcast_operands};
use super::{bits, storage_type, to_storage, with_primitive_type};
use crate::error::TensorError;

/// A binary ufunc.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    /// `np.add` (`+`).
    Add,
    /// `np.subtract` (`-`).
    Subtract,
    /// `np.multiply` (`*`).
    Multiply,
    /// `np.true_divide` (`/`).
    Divide,
    /// `np.floor_divide` (`//`).
    FloorDivide,
    /// `np.mod` (`%`), the sign of the divisor.
    Mod,
    /// `np.power`.
    Power,
    /// `np.maximum` (NaN propagates).
    Maximum,
    /// `np.minimum` (NaN propagates).
    Minimum,
    /// `np.equal` (`=`).
    Equal,
    /// `np.not_equal` (`<>`).
    NotEqual,
    /// `np.less` (`<`).
    Less,
    /// `np.less_equal` (`<=`).
    LessEqual,
    /// `np.greater` (`>`).
    Greater,
    /// `np.greater_equal` (`>=`).
    GreaterEqual,
    /// `np.logical_and`.
    LogicalAnd,
    /// `np.logical_or`.
    LogicalOr,
    /// `np.logical_xor`.
    LogicalXor,
    /// `np.arctan2` (the standard's `atan2`), float only.
    Arctan2,
    /// `np.hypot`, float only.
    Hypot,
    /// `np.copysign`, float only.
    Copysign,
    /// `np.logaddexp`, float only.
    Logaddexp,
    /// `np.logaddexp2`, float only.
    Logaddexp2,
    /// `np.nextafter`, float only.
    Nextafter,
    /// `np.float_power`, in float64.
    FloatPower,
    /// `np.fmod`: C's remainder, the dividend's sign.
    Fmod,
    /// `np.bitwise_and` (`&`), integers and booleans.
    BitwiseAnd,
    /// `np.bitwise_or` (`|`), integers and booleans.
    BitwiseOr,
    /// `np.bitwise_xor` (`^`), integers and booleans.
    BitwiseXor,
    /// `np.left_shift` (`<<`), integers.
    LeftShift,
    /// `np.right_shift` (`>>`), integers.
    RightShift,
}

impl BinaryOp {
    /// Whether the result is Boolean whatever the operands (comparisons, logical ops).
    pub fn is_predicate(self) -> bool {
        self.is_comparison() || self.is_logical()
    }

    /// `= <> < <= > >=`.
    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            Self::Equal
                | Self::NotEqual
                | Self::Less
                | Self::LessEqual
                | Self::Greater
                | Self::GreaterEqual
        )
    }

    /// `logical_and`, `logical_or`, `logical_xor`: on the operands' truth values.
    pub fn is_logical(self) -> bool {
        matches!(self, Self::LogicalAnd | Self::LogicalOr | Self::LogicalXor)
    }

    /// The ufuncs numpy has float loops only for (integers compute in a float type).
    pub fn is_float_only(self) -> bool {
        matches!(
            self,
            Self::Arctan2
                | Self::Hypot
                | Self::Copysign
                | Self::Logaddexp
                | Self::Logaddexp2
                | Self::Nextafter
                | Self::FloatPower
        )
    }

    /// The ufuncs numpy has integer (and boolean) loops only for.
    pub fn is_bitwise(self) -> bool {
        matches!(
            self,
            Self::BitwiseAnd
                | Self::BitwiseOr
                | Self::BitwiseXor
                | Self::LeftShift
                | Self::RightShift
        )
    }

    /// The comparison with its operands swapped (`a < b` is `b > a`).
    #[must_use]
    pub fn swapped(self) -> Self {
        match self {
            Self::Less => Self::Greater,
            Self::LessEqual => Self::GreaterEqual,
            Self::Greater => Self::Less,
            Self::GreaterEqual => Self::LessEqual,
            other => other,
        }
    }
}

/// One operand of a batch: values in the computing type, and how many one row holds (0: the
/// same values serve every row).
#[derive(Debug, Clone)]
pub struct Input {
    /// The values, in the computing type.
    pub values: ArrayRef,
    /// How many values one row holds (0: the same values serve every row).
    pub row_len: usize,
}

fn broken(what: &str) -> TensorError {
    TensorError::Internal(format!(
        "elementwise kernel: {what} does not hold the values its broadcast reads"
    ))
}

/// `op` of two operands broadcast by `runs` over `rows` rows: the result's values, row after
/// row (Boolean for predicates; otherwise the operands' type). `row_nulls` are the rows whose
/// data may not raise an error (integer powers with negative exponents are numpy's error,
/// naming the row).
pub fn binary(
    op: BinaryOp,
    runs: &Runs,
    rows: usize,
    a: &Input,
    b: &Input,
    row_nulls: Option<&NullBuffer>,
) -> Result<ArrayRef, TensorError> {
    let validity = element_validity(runs, rows, &[a, b])?;
    if op.is_logical() {
        let (ta, tb) = (truth(&a.values)?, truth(&b.values)?);
        let f = match op {
            BinaryOp::LogicalAnd => |x: u8, y: u8| x & y,
            BinaryOp::LogicalOr => |x: u8, y: u8| x | y,
            _ => |x: u8, y: u8| x ^ y,
        };
        let out = map2(
            runs,
            rows,
            operand(&ta, a.row_len),
            operand(&tb, b.row_len),
            f,
        )
        .ok_or_else(|| broken("a logical operand"))?;
        return with_validity(Arc::new(bools(&out)), validity.as_ref());
    }
    if op.is_comparison() && a.values.data_type() != b.values.data_type() {
        let out = signed_unsigned_comparison(op, runs, rows, a, b)?;
        return with_validity(out, validity.as_ref());
    }
    let compute = a.values.data_type().clone();
    if let Some(out) = arrow_kernel(op, runs, rows, a, b)? {
        return Ok(out);
    }
    if let Some(out) = flat_comparison(op, runs, rows, a, b) {
        return with_validity(out, validity.as_ref());
    }
    let (sa, sb) = (to_storage(&a.values)?, to_storage(&b.values)?);
    // Booleans as bytes: `+` is or and `*` and (numpy's bool loops), as maximum and minimum
    // are on 0 and 1.
    let op = match (op, compute == DataType::Boolean) {
        (BinaryOp::Add, true) => BinaryOp::Maximum,
        (BinaryOp::Multiply, true) => BinaryOp::Minimum,
        (op, _) => op,
    };
    let out = match more_binary(op, runs, rows, (&sa, a.row_len), (&sb, b.row_len))? {
        Some(out) => out,
        None => with_primitive_type!(storage_type(&compute), P => {
            typed::<P>(op, runs, rows, (&sa, a.row_len), (&sb, b.row_len), row_nulls)?
        }, _ => return Err(TensorError::Internal(format!("elementwise kernel: no loop for {compute}")))),
    };
    let out = if op.is_predicate() || compute != DataType::Boolean {
        out
    } else {
        super::from_storage(out, &compute)?
    };
    with_validity(out, validity.as_ref())
}

/// `op` of operand `k` and `other`, written over operand `k`'s values (`owned`, laid out as
/// the result) where nothing else holds their buffer: an operator's intermediate result
/// (`x * 2.0` in `x * 2.0 + y`) takes the next operator's result without another allocation.
/// Only where [`binary`] would run arrow's arithmetic (the same values: numpy's wrapping
/// `+ - *` and float `/`, element NULLs where either operand's are) and `other` is read in
/// the result's layout or is a number; `Err(owned)`, unchanged, anywhere else.
pub fn binary_in_place(
    op: BinaryOp,
    runs: &Runs,
    rows: usize,
    k: usize,
    owned: ArrayRef,
    other: &Input,
) -> Result<ArrayRef, ArrayRef> {
    let data_type = owned.data_type();
    let arithmetic = match op {
        BinaryOp::Add | BinaryOp::Subtract | BinaryOp::Multiply => true,
        BinaryOp::Divide => data_type.is_floating(),
        _ => false,
    };
    let laid_out = runs.out_len > 0
        && runs.is_identity(k)
        && owned.len() == rows * runs.out_len
        && other.values.data_type() == data_type;
    // `Some(true)`: a number; `Some(false)`: laid out as the result.
    let Some(scalar) = flat(runs, rows, 1 - k, other).filter(|_| arithmetic && laid_out) else {
        return Err(owned);
    };
    if (scalar && other.values.null_count() > 0) || (!scalar && other.values.len() != owned.len()) {
        return Err(owned);
    }
    with_primitive_type!(data_type, P => {
        overwrite::<P>(op, k, owned, &other.values, scalar)
    }, _ => Err(owned))
}

fn overwrite<P>(
    op: BinaryOp,
    k: usize,
    owned: ArrayRef,
    other: &ArrayRef,
    scalar: bool,
) -> Result<ArrayRef, ArrayRef>
where
    P: ArrowPrimitiveType,
    P::Native: NumpyElement,
{
    let (Some(mine), Some(theirs)) = (
        owned.as_primitive_opt::<P>().cloned(),
        other.as_primitive_opt::<P>(),
    ) else {
        return Err(owned);
    };
    // `mine` shares the buffer with `owned`'s holders: with `owned` gone, the buffer is
    // unique exactly when it was `owned`'s alone.
    drop(owned);
    let mut builder = match mine.into_builder() {
        Ok(builder) => builder,
        Err(mine) => return Err(Arc::new(mine)),
    };
    let values = builder.values_slice_mut();
    let theirs_values = theirs.values();
    match op {
        BinaryOp::Add => write(values, theirs_values, scalar, k, NumpyElement::np_add),
        BinaryOp::Subtract => write(values, theirs_values, scalar, k, NumpyElement::np_sub),
        BinaryOp::Multiply => write(values, theirs_values, scalar, k, NumpyElement::np_mul),
        _ => write(values, theirs_values, scalar, k, NumpyElement::np_div),
    }
    let written = builder.finish();
    let nulls = if scalar {
        written.nulls().cloned()
    } else {
        NullBuffer::union(written.nulls(), theirs.nulls())
    };
    // The lengths agree (checked by the caller), which is all `new` asks.
    Ok(Arc::new(PrimitiveArray::<P>::new(
        written.values().clone(),
        nulls,
    )))
}

/// `values[i] = f(values[i], theirs[i])` (operand `k` = 1: `f(theirs[i], values[i])`), or
/// with `theirs[0]` for every element where `scalar`; one loop per case, each vectorised.
fn write<T: Copy>(values: &mut [T], theirs: &[T], scalar: bool, k: usize, f: impl Fn(T, T) -> T) {
    match (scalar, k, theirs.first()) {
        (true, 0, Some(&s)) => values.iter_mut().for_each(|v| *v = f(*v, s)),
        (true, _, Some(&s)) => values.iter_mut().for_each(|v| *v = f(s, *v)),
        (false, 0, _) => values
            .iter_mut()
            .zip(theirs)
            .for_each(|(v, &t)| *v = f(*v, t)),
        (false, _, _) => values
            .iter_mut()
            .zip(theirs)
            .for_each(|(v, &t)| *v = f(t, *v)),
        (true, _, None) => {}
    }
}

/// numpy's `where(cond, x, y)` of three operands broadcast by `runs`: `x` and `y` in the
/// result type, `cond` of any element type (its truth values).
pub fn select(
    runs: &Runs,
    rows: usize,
    cond: &Input,
    x: &Input,
    y: &Input,
) -> Result<ArrayRef, TensorError> {
    let truth_values = truth(&cond.values)?;
    // A NULL condition element selects nothing: its position is NULL.
    let cond_state: Vec<u8> = match cond.values.logical_nulls() {
        Some(nulls) => truth_values
            .iter()
            .zip(nulls.iter())
            .map(|(&t, valid)| if valid { t } else { 2 })
            .collect(),
        None => truth_values,
    };
    let validity = match (x.values.logical_nulls(), y.values.logical_nulls()) {
        (None, None) if !cond_state.contains(&2) => None,
        (xn, yn) => {
            let xv = valid_bytes(xn.as_ref(), x.values.len());
            let yv = valid_bytes(yn.as_ref(), y.values.len());
            let valid = map3(
                runs,
                rows,
                operand(&cond_state, cond.row_len),
                operand(&xv, x.row_len),
                operand(&yv, y.row_len),
                |c, xv, yv| match c {
                    2 => false,
                    1 => xv == 1,
                    _ => yv == 1,
                },
            )
            .ok_or_else(|| broken("a where operand"))?;
            Some(NullBuffer::new(BooleanBuffer::from(valid)))
        }
    };
    let element = x.values.data_type().clone();
    let (sx, sy) = (to_storage(&x.values)?, to_storage(&y.values)?);
    let out = with_primitive_type!(storage_type(&element), P => {
        let (vx, vy) = (sx.as_primitive::<P>().values(), sy.as_primitive::<P>().values());
        let out = map3(
            runs,
            rows,
            operand(&cond_state, cond.row_len),
            operand(vx, x.row_len),
            operand(vy, y.row_len),
            |c, x, y| if c == 1 { x } else { y },
        )
        .ok_or_else(|| broken("a where operand"))?;
        Arc::new(PrimitiveArray::<P>::from_iter_values(out)) as ArrayRef
    }, _ => return Err(TensorError::Internal(format!("where kernel: no loop for {element}"))));
    with_validity(super::from_storage(out, &element)?, validity.as_ref())
}

fn operand<T>(values: &[T], row_len: usize) -> Operand<'_, T> {
    Operand { values, row_len }
}

fn bools(bytes: &[u8]) -> BooleanArray {
    // Packed 64 at a time (collecting bools one by one costs more than the comparison).
    BooleanArray::new(bits::pack_bytes(bytes), None)
}

/// 1 where an element is valid, 0 where NULL.
fn valid_bytes(nulls: Option<&NullBuffer>, len: usize) -> Vec<u8> {
    match nulls {
        Some(nulls) => nulls.iter().map(u8::from).collect(),
        None => vec![1; len],
    }
}

/// The result's element validity: valid where every operand's broadcast element is (`None`
/// when no operand holds an element NULL).
fn element_validity(
    runs: &Runs,
    rows: usize,
    inputs: &[&Input; 2],
) -> Result<Option<NullBuffer>, TensorError> {
    let [a, b] = inputs;
    let (na, nb) = (a.values.logical_nulls(), b.values.logical_nulls());
    if na.is_none() && nb.is_none() {
        return Ok(None);
    }
    let va = valid_bytes(na.as_ref(), a.values.len());
    let vb = valid_bytes(nb.as_ref(), b.values.len());
    let valid = map2(
        runs,
        rows,
        operand(&va, a.row_len),
        operand(&vb, b.row_len),
        |x, y| x & y != 0,
    )
    .ok_or_else(|| broken("an operand's validity"))?;
    Ok(Some(NullBuffer::new(BooleanBuffer::from(valid))))
}

fn with_validity(values: ArrayRef, validity: Option<&NullBuffer>) -> Result<ArrayRef, TensorError> {
    Ok(super::layout::with_row_nulls(values, validity)?)
}

/// Each element's truth value as a byte (numpy's `x != 0`, NaN true, -0.0 false).
fn truth(values: &ArrayRef) -> Result<Vec<u8>, TensorError> {
    if let Some(bools) = values.as_boolean_opt() {
        return Ok(bools.values().iter().map(u8::from).collect());
    }
    with_primitive_type!(values.data_type(), P => {
        Ok(values
            .as_primitive::<P>()
            .values()
            .iter()
            .map(|&v| u8::from(v.truthy()))
            .collect())
    }, _ => Err(TensorError::Internal(format!("no truth value for {}", values.data_type()))))
}

/// Whether operand `k` is read as the result's layout over the whole batch: a column laid out
/// as the result, a literal of the result's layout in a one-row batch, or a literal number.
fn flat(runs: &Runs, rows: usize, k: usize, input: &Input) -> Option<bool> {
    if input.row_len == 0 && input.values.len() == 1 {
        return Some(true); // a scalar
    }
    let laid_out = runs.is_identity(k)
        && (input.row_len == runs.out_len || (rows == 1 && input.values.len() == runs.out_len));
    laid_out.then_some(false)
}

/// arrow's own kernel where it computes numpy's result on these layouts; `None` elsewhere.
fn arrow_kernel(
    op: BinaryOp,
    runs: &Runs,
    rows: usize,
    a: &Input,
    b: &Input,
) -> Result<Option<ArrayRef>, TensorError> {
    let compute = a.values.data_type();
    let float = compute.is_floating();
    let exact = match op {
        BinaryOp::Add | BinaryOp::Subtract | BinaryOp::Multiply => *compute != DataType::Boolean,
        BinaryOp::Divide => float,
        // Booleans only: arrow orders floats totally (NaN equal to itself, -0.0 below 0.0)
        // where numpy is IEEE, and numbers compare faster through `flat_comparison`.
        op if op.is_comparison() => *compute == DataType::Boolean,
        _ => false,
    };
    if !exact || runs.out_len == 0 {
        return Ok(None);
    }
    let (Some(scalar_a), Some(scalar_b)) = (flat(runs, rows, 0, a), flat(runs, rows, 1, b)) else {
        return Ok(None);
    };
    let datum = |input: &Input, scalar: bool| -> Box<dyn arrow::array::Datum> {
        if scalar {
            Box::new(Scalar::new(Arc::clone(&input.values)))
        } else {
            Box::new(Arc::clone(&input.values))
        }
    };
    let (da, db) = (datum(a, scalar_a), datum(b, scalar_b));
    let (da, db) = (da.as_ref(), db.as_ref());
    let out: Result<ArrayRef, ArrowError> = match op {
        BinaryOp::Add => numeric::add_wrapping(da, db),
        BinaryOp::Subtract => numeric::sub_wrapping(da, db),
        BinaryOp::Multiply => numeric::mul_wrapping(da, db),
        BinaryOp::Divide => numeric::div(da, db),
        BinaryOp::Equal => cmp::eq(da, db).map(|r| Arc::new(r) as ArrayRef),
        BinaryOp::NotEqual => cmp::neq(da, db).map(|r| Arc::new(r) as ArrayRef),
        BinaryOp::Less => cmp::lt(da, db).map(|r| Arc::new(r) as ArrayRef),
        BinaryOp::LessEqual => cmp::lt_eq(da, db).map(|r| Arc::new(r) as ArrayRef),
        BinaryOp::Greater => cmp::gt(da, db).map(|r| Arc::new(r) as ArrayRef),
        _ => cmp::gt_eq(da, db).map(|r| Arc::new(r) as ArrayRef),
    };
    let out = out?;
    // Two scalars give one value; a scalar against a one-row batch too.
    let expected = rows * runs.out_len;
    if out.len() != expected {
        return Ok(None);
    }
    Ok(Some(out))
}

/// A comparison of numbers between operands read in the result's layout (a column, or a
/// number), packed straight into bits ([`bits`]): one pass, where the runs write a byte per
/// element and then pack them, and where arrow's kernels pack through a slower loop (and
/// order floats totally, not by IEEE as numpy does). Measured on `x > 0.5` over 1,000,000
/// float32 [16, 16] rows (`benches/compare/tensor_math.py`): the byte pass was most of the
/// query's time over its scan.
fn flat_comparison(
    op: BinaryOp,
    runs: &Runs,
    rows: usize,
    a: &Input,
    b: &Input,
) -> Option<ArrayRef> {
    if !op.is_comparison() || runs.out_len == 0 {
        return None;
    }
    let scalars = (flat(runs, rows, 0, a)?, flat(runs, rows, 1, b)?);
    let data_type = a.values.data_type();
    if *data_type == DataType::Boolean {
        return None;
    }
    with_primitive_type!(data_type, P => compare_flat::<P>(op, a, b, scalars), _ => None)
}

fn compare_flat<P: ArrowPrimitiveType>(
    op: BinaryOp,
    a: &Input,
    b: &Input,
    scalars: (bool, bool),
) -> Option<ArrayRef>
where
    P::Native: PartialOrd,
{
    let x = a.values.as_primitive_opt::<P>()?.values().as_ref();
    let y = b.values.as_primitive_opt::<P>()?.values().as_ref();
    let bits = match op {
        BinaryOp::Equal => pack(x, y, scalars, |p, q| p == q),
        BinaryOp::NotEqual => pack(x, y, scalars, |p, q| p != q),
        BinaryOp::Less => pack(x, y, scalars, |p, q| p < q),
        BinaryOp::LessEqual => pack(x, y, scalars, |p, q| p <= q),
        BinaryOp::Greater => pack(x, y, scalars, |p, q| p > q),
        BinaryOp::GreaterEqual => pack(x, y, scalars, |p, q| p >= q),
        _ => None,
    }?;
    Some(Arc::new(BooleanArray::new(bits, None)))
}

/// `f` of `x` and `y` elementwise (one of them a number when `scalars` says so) as bits.
fn pack<T: Copy>(
    x: &[T],
    y: &[T],
    scalars: (bool, bool),
    f: impl Fn(T, T) -> bool,
) -> Option<BooleanBuffer> {
    match scalars {
        (true, false) => {
            let s = *x.first()?;
            Some(bits::pack_map(y, |q| f(s, q)))
        }
        (false, true) => {
            let s = *y.first()?;
            Some(bits::pack_map(x, |p| f(p, s)))
        }
        (false, false) if x.len() == y.len() => Some(bits::pack_zip(x, y, f)),
        _ => None,
    }
}

/// `op` on operands of arrow type `P` (booleans as bytes) through the runs.
fn typed<P>(
    op: BinaryOp,
    runs: &Runs,
    rows: usize,
    (a, a_row): (&ArrayRef, usize),
    (b, b_row): (&ArrayRef, usize),
    row_nulls: Option<&NullBuffer>,
) -> Result<ArrayRef, TensorError>
where
    P: ArrowPrimitiveType,
    P::Native: NumpyElement,
{
    let va = operand(a.as_primitive::<P>().values().as_ref(), a_row);
    let vb = operand(b.as_primitive::<P>().values().as_ref(), b_row);
    let numbers = |out: Option<Vec<P::Native>>| -> Result<ArrayRef, TensorError> {
        let out = out.ok_or_else(|| broken("an operand"))?;
        Ok(Arc::new(PrimitiveArray::<P>::from_iter_values(out)))
    };
    let predicate = |out: Option<Vec<u8>>| -> Result<ArrayRef, TensorError> {
        let out = out.ok_or_else(|| broken("an operand"))?;
        Ok(Arc::new(bools(&out)))
    };
    match op {
        BinaryOp::Add => numbers(map2(runs, rows, va, vb, NumpyElement::np_add)),
        BinaryOp::Subtract => numbers(map2(runs, rows, va, vb, NumpyElement::np_sub)),
        BinaryOp::Multiply => numbers(map2(runs, rows, va, vb, NumpyElement::np_mul)),
        BinaryOp::Divide => numbers(map2(runs, rows, va, vb, NumpyElement::np_div)),
        BinaryOp::FloorDivide => numbers(map2(runs, rows, va, vb, NumpyElement::np_floor_div)),
        BinaryOp::Mod => numbers(map2(runs, rows, va, vb, NumpyElement::np_rem)),
        BinaryOp::Maximum => numbers(map2(runs, rows, va, vb, NumpyElement::np_maximum)),
        BinaryOp::Minimum => numbers(map2(runs, rows, va, vb, NumpyElement::np_minimum)),
        BinaryOp::Power => {
            let out = map2(runs, rows, va, vb, |x, y| x.np_pow(y).unwrap_or_default());
            if <P::Native as NumpyElement>::INTEGER && vb.values.iter().any(|v| v.negative()) {
                negative_power(runs, rows, va, vb, row_nulls, b.logical_nulls().as_ref())?;
            }
            numbers(out)
        }
        BinaryOp::Equal => predicate(map2(runs, rows, va, vb, |x, y| u8::from(x == y))),
        BinaryOp::NotEqual => predicate(map2(runs, rows, va, vb, |x, y| u8::from(x != y))),
        BinaryOp::Less => predicate(map2(runs, rows, va, vb, |x, y| u8::from(x < y))),
        BinaryOp::LessEqual => predicate(map2(runs, rows, va, vb, |x, y| u8::from(x <= y))),
        BinaryOp::Greater => predicate(map2(runs, rows, va, vb, |x, y| u8::from(x > y))),
        BinaryOp::GreaterEqual => predicate(map2(runs, rows, va, vb, |x, y| u8::from(x >= y))),
        BinaryOp::LogicalAnd | BinaryOp::LogicalOr | BinaryOp::LogicalXor => Err(
            TensorError::Internal("logical ops run on truth values".to_string()),
        ),
        _ => Err(TensorError::Internal(format!(
            "elementwise kernel: {op:?} has no loop for this type"
        ))),
    }
}

/// A comparison of a signed integer operand (any width, read as int64) with a uint64 one, exact
/// as numpy 2's `qQ->?` loops: a negative value is below every unsigned one.
fn signed_unsigned_comparison(
    op: BinaryOp,
    runs: &Runs,
    rows: usize,
    a: &Input,
    b: &Input,
) -> Result<ArrayRef, TensorError> {
    use arrow::datatypes::{Int64Type, UInt64Type};
    use std::cmp::Ordering;
    let signed_first = *b.values.data_type() == DataType::UInt64;
    let (signed, unsigned) = if signed_first { (a, b) } else { (b, a) };
    let wide = arrow::compute::cast(&signed.values, &DataType::Int64)?;
    let (Some(ints), Some(uints)) = (
        wide.as_primitive_opt::<Int64Type>(),
        unsigned.values.as_primitive_opt::<UInt64Type>(),
    ) else {
        return Err(broken("a signed or unsigned operand"));
    };
    // The order of the signed value against the unsigned one.
    let order = |int: i64, uint: u64| match u64::try_from(int) {
        Ok(int) => int.cmp(&uint),
        Err(_) => Ordering::Less,
    };
    let test = move |ordering: Ordering| -> u8 {
        u8::from(match op {
            BinaryOp::Equal => ordering == Ordering::Equal,
            BinaryOp::NotEqual => ordering != Ordering::Equal,
            BinaryOp::Less => ordering == Ordering::Less,
            BinaryOp::LessEqual => ordering != Ordering::Greater,
            BinaryOp::Greater => ordering == Ordering::Greater,
            _ => ordering != Ordering::Less,
        })
    };
    let (int_values, uint_values) = (ints.values().as_ref(), uints.values().as_ref());
    let out = if signed_first {
        let (lhs, rhs) = (operand(int_values, a.row_len), operand(uint_values, b.row_len));
        map2(runs, rows, lhs, rhs, |int, uint| test(order(int, uint)))
    } else {
        let (lhs, rhs) = (operand(uint_values, a.row_len), operand(int_values, b.row_len));
        map2(runs, rows, lhs, rhs, |uint, int| test(order(int, uint).reverse()))
    }
    .ok_or_else(|| broken("a comparison operand"))?;
    Ok(Arc::new(bools(&out)))
}

/// The float-only and integer-only ufuncs ([`more_ops`]) on operands in their storage type;
/// `None` for any other operation.
fn more_binary(
    op: BinaryOp,
    runs: &Runs,
    rows: usize,
    (a, a_row): (&ArrayRef, usize),
    (b, b_row): (&ArrayRef, usize),
) -> Result<Option<ArrayRef>, TensorError> {
    use more_ops::MoreOps;

    fn run<P: ArrowPrimitiveType>(
        op: BinaryOp,
        runs: &Runs,
        rows: usize,
        (a, a_row): (&ArrayRef, usize),
        (b, b_row): (&ArrayRef, usize),
    ) -> Result<Option<ArrayRef>, TensorError>
    where
        P::Native: MoreOps,
    {
        let Some(f) = P::Native::more_op(op) else {
            return Ok(None);
        };
        let (Some(va), Some(vb)) = (a.as_primitive_opt::<P>(), b.as_primitive_opt::<P>()) else {
            return Err(broken("an operand"));
        };
        let (lhs, rhs) = (
            operand(va.values().as_ref(), a_row),
            operand(vb.values().as_ref(), b_row),
        );
        // One loop per operation, its element function known there and inlined (called
        // through a pointer per element, `copysign` took 2.3x the scan).
        macro_rules! each {
            ($($op:ident),*) => {
                match op {
                    $(BinaryOp::$op => map2(runs, rows, lhs, rhs, |x, y| {
                        P::Native::more_op(BinaryOp::$op).unwrap_or(f)(x, y)
                    }),)*
                    _ => map2(runs, rows, lhs, rhs, f),
                }
            };
        }
        let out = each!(
            Arctan2,
            Hypot,
            Copysign,
            Logaddexp,
            Logaddexp2,
            Nextafter,
            FloatPower,
            Fmod,
            BitwiseAnd,
            BitwiseOr,
            BitwiseXor,
            LeftShift,
            RightShift
        )
        .ok_or_else(|| broken("an operand"))?;
        Ok(Some(Arc::new(PrimitiveArray::<P>::from_iter_values(out))))
    }

    if let Some(out) = vector::float32(op, runs, rows, (a, a_row), (b, b_row)) {
        return out.map(Some);
    }

    if !(op.is_float_only() || op.is_bitwise() || op == BinaryOp::Fmod) {
        return Ok(None);
    }
    let (a, b) = ((a, a_row), (b, b_row));
    with_primitive_type!(a.0.data_type(), P => {
        run::<P>(op, runs, rows, a, b)
    }, _ => Err(TensorError::Internal(format!(
        "elementwise kernel: no loop of {op:?} for {}", a.0.data_type()
    ))))
}

/// numpy's `ValueError` for the first row (not NULL) whose broadcast exponents hold a negative
/// one at a valid element.
fn negative_power<T: NumpyElement>(
    runs: &Runs,
    rows: usize,
    a: Operand<'_, T>,
    b: Operand<'_, T>,
    row_nulls: Option<&NullBuffer>,
    b_nulls: Option<&NullBuffer>,
) -> Result<(), TensorError> {
    let negative: Vec<u8> = match b_nulls {
        Some(nulls) => b
            .values
            .iter()
            .zip(nulls.iter())
            .map(|(e, valid)| u8::from(valid && e.negative()))
            .collect(),
        None => b.values.iter().map(|e| u8::from(e.negative())).collect(),
    };
    let negative = map2(runs, rows, a, operand(&negative, b.row_len), |_, n| n)
        .ok_or_else(|| broken("an exponent"))?;
    let out_len = runs.out_len.max(1);
    let first = negative
        .iter()
        .enumerate()
        .find(|&(p, &neg)| neg == 1 && !row_nulls.is_some_and(|n| n.is_null(p / out_len)));
    match first {
        Some((p, _)) => Err(TensorError::NegativePower { row: p / out_len }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use arrow::array::{Float32Array, UInt8Array};

    use super::*;

    fn input(values: ArrayRef, row_len: usize) -> Input {
        Input { values, row_len }
    }

    /// Two rows of [3] against another operand of [3] rows or a number.
    fn runs(other_row_len: usize) -> Runs {
        let other = if other_row_len == 0 { vec![] } else { vec![3] };
        let strides = if other_row_len == 0 { vec![] } else { vec![1] };
        Runs::new(&[3], &[(vec![3], vec![1]), (other, strides)])
    }

    #[test]
    fn writes_over_a_buffer_nothing_else_holds() {
        let x: ArrayRef = Arc::new(Float32Array::from(vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]));
        let y = input(
            Arc::new(Float32Array::from(vec![0.5, 0.5, 0.5, 1.0, 1.0, 1.0])),
            3,
        );
        let address = x
            .as_primitive::<arrow::datatypes::Float32Type>()
            .values()
            .as_ptr();
        // Operand 1 owned: y - x, not x - y.
        let out = binary_in_place(BinaryOp::Subtract, &runs(3), 2, 1, x, &y).unwrap();
        let values = out.as_primitive::<arrow::datatypes::Float32Type>();
        assert_eq!(values.values().as_ptr(), address, "the same buffer");
        assert_eq!(
            values.values().as_ref(),
            &[-0.5, -1.5, -2.5, -3.0, -4.0, -5.0]
        );
        // The kernel's own result for the same call, allocated.
        let again = Arc::new(Float32Array::from(vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0])) as ArrayRef;
        let expected = binary(BinaryOp::Subtract, &runs(3), 2, &y, &input(again, 3), None).unwrap();
        assert_eq!(&out, &expected);
    }

    #[test]
    fn wraps_integers_against_a_number() {
        let x: ArrayRef = Arc::new(UInt8Array::from(vec![250, 3, 7]));
        let two = input(Arc::new(UInt8Array::from(vec![10])), 0);
        let out = binary_in_place(BinaryOp::Add, &runs(0), 1, 0, x, &two).unwrap();
        assert_eq!(
            out.as_primitive::<arrow::datatypes::UInt8Type>()
                .values()
                .as_ref(),
            &[4, 13, 17]
        );
    }

    #[test]
    fn leaves_a_shared_buffer_and_other_calls_alone() {
        let x: ArrayRef = Arc::new(Float32Array::from(vec![1.0, 2.0, 3.0]));
        let held = Arc::clone(&x);
        let two = input(Arc::new(Float32Array::from(vec![2.0])), 0);
        let back = binary_in_place(BinaryOp::Multiply, &runs(0), 1, 0, x, &two).unwrap_err();
        assert_eq!(&back, &held, "unchanged");
        drop(held);
        // Comparisons and integer division allocate their results.
        let back = binary_in_place(BinaryOp::Less, &runs(0), 1, 0, back, &two).unwrap_err();
        let n: ArrayRef = Arc::new(UInt8Array::from(vec![4, 6, 8]));
        let by = input(Arc::new(UInt8Array::from(vec![2])), 0);
        assert!(binary_in_place(BinaryOp::Divide, &runs(0), 1, 0, n, &by).is_err());
        // A buffer shared through a slice's parent.
        let parent: ArrayRef = Arc::new(Float32Array::from(vec![1.0, 2.0, 3.0, 4.0]));
        let slice = parent.slice(1, 3);
        assert!(binary_in_place(BinaryOp::Add, &runs(0), 1, 0, slice, &two).is_err());
        drop(back);
    }
}
