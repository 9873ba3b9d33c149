//! A planned call over one batch: each operand read row by row ([`RowTensor`]), each row's
//! layout compiled once per row shape ([`RowPlans`]), each matrix gathered at its logical
//! strides into one reused column-major buffer and handed to the kernel, whose parts are
//! assembled into the result's columns (a struct where there are several).

use std::sync::Arc;

use arrow::array::{
    Array, ArrayRef, AsArray, BooleanArray, Float32Array, Float64Array, PrimitiveArray, StructArray,
};
use arrow::buffer::NullBuffer;
use arrow::compute::cast;
use arrow::datatypes::{
    ArrowPrimitiveType, DataType, Float16Type, Float32Type, Float64Type, Int8Type, Int16Type,
    Int32Type, Int64Type, UInt8Type, UInt16Type, UInt32Type, UInt64Type,
};
use datafusion::common::{ScalarValue, exec_err};
use datafusion::error::{DataFusionError, Result};
use datafusion::logical_expr::ColumnarValue;
use faer::MatRef;

use super::args::{Layout, Matrix, Operation, layout};
use super::{DecomposePlan, Part};
use crate::error::TensorError;
use crate::kernels::decompose::power::{PowerElement, matrix_power};
use crate::kernels::decompose::{MatrixOp, lu};
use crate::kernels::layout::output_rows;
use crate::kernels::rows::{RowPlans, RowTensor};
use crate::udf::linalg::rows::{
    batch_args, readers, values_as, variable_result, views, with_null_element_rows,
};

/// What the rows of a batch produced: one value buffer per part, each row's part shapes (for
/// variable-shape parts), and the rows NULL in any operand.
struct Produced<T> {
    values: Vec<Vec<T>>,
    shapes: Vec<Vec<usize>>,
}

/// Runs `plan` over one batch.
pub(super) fn invoke(
    name: &str,
    plan: &DecomposePlan,
    args: &[ColumnarValue],
    number_rows: usize,
) -> Result<ColumnarValue> {
    let positions: Vec<usize> = (0..plan.operands.len()).collect();
    let scalar = positions
        .iter()
        .all(|&i| matches!(args.get(i), Some(ColumnarValue::Scalar(_))));
    let rows = if scalar { 1 } else { number_rows };
    let batches = batch_args(name, args, &positions)?;
    let views = views(name, &plan.operands, &batches)?;
    let (readers, nulls) = readers(name, &plan.operands, &batches, &views, rows)?;
    // Every result of a decomposition depends on the whole matrix: a NULL element makes the
    // row NULL.
    let nulls = with_null_element_rows(&readers, nulls, rows);
    // `faer` asserts its invariants with panics: the shapes are checked before it is called,
    // and a panic that still escapes it fails the query instead of the process.
    let columns = crate::quiet::catch(|| rows_of(name, plan, &readers, nulls.as_ref(), rows))
        .map_err(|panic| {
            DataFusionError::Execution(format!(
                "{name}: the linear-algebra library failed: {} (please report this input)",
                crate::quiet::message(panic.as_ref())
            ))
        })??;
    let out: ArrayRef = match &plan.parts[..] {
        [_] => Arc::clone(&columns[0]),
        parts => {
            let fields = parts
                .iter()
                .map(|(field, part)| Arc::new(part.field(field)))
                .collect();
            Arc::new(StructArray::try_new(fields, columns, nulls)?)
        }
    };
    if scalar {
        Ok(ColumnarValue::Scalar(ScalarValue::try_from_array(&out, 0)?))
    } else {
        Ok(ColumnarValue::Array(out))
    }
}

/// The result's columns over one batch.
fn rows_of(
    name: &str,
    plan: &DecomposePlan,
    readers: &[RowTensor<'_>],
    nulls: Option<&NullBuffer>,
    rows: usize,
) -> Result<Vec<ArrayRef>> {
    let produced = match plan.operation {
        Operation::Power(n) => return power(name, plan, n, readers, nulls, rows),
        Operation::Matrix(op) => {
            let values = readers
                .iter()
                .map(|r| values_as(r, &DataType::Float64))
                .collect::<Result<Vec<_>>>()?;
            let slices: Vec<&[f64]> = values
                .iter()
                .map(|v| v.as_primitive::<Float64Type>().values().as_ref())
                .collect();
            float_rows(name, plan, &op, readers, &slices, nulls, rows)?
        }
        Operation::RankOfVector => {
            let values = values_as(&readers[0], &DataType::Float64)?;
            let values = values.as_primitive::<Float64Type>().values();
            let ranks: Vec<f64> = (0..rows)
                .map(|row| {
                    let (start, len) = readers[0].span(row);
                    f64::from(u8::from(
                        values[start..start + len].iter().any(|&x| x != 0.0),
                    ))
                })
                .collect();
            Produced {
                values: vec![ranks],
                shapes: vec![Vec::new()],
            }
        }
    };
    columns(name, plan, produced, float64_array, nulls, rows)
}

/// A float64 buffer as its Arrow array.
fn float64_array(values: Vec<f64>) -> ArrayRef {
    Arc::new(Float64Array::from(values))
}

/// Copies the matrix at `start` column by column into `buffer`.
fn gather<T: Copy>(
    values: impl Fn(usize) -> T,
    start: usize,
    m: &Matrix,
    buffer: &mut Vec<T>,
    row_major: bool,
) {
    buffer.clear();
    if row_major {
        for i in 0..m.rows {
            for j in 0..m.cols {
                buffer.push(values(start + i * m.row_stride + j * m.col_stride));
            }
        }
    } else {
        for j in 0..m.cols {
            for i in 0..m.rows {
                buffer.push(values(start + i * m.row_stride + j * m.col_stride));
            }
        }
    }
}

/// The layout of `row` (compiled once per row shape), with each part's size checked against
/// the session's limits.
fn row_layout<'p>(
    plan: &DecomposePlan,
    layouts: &'p mut RowPlans<Layout>,
    tensors: &[&RowTensor<'_>],
    row: usize,
) -> Result<&'p Layout> {
    let limits = plan.limits;
    let operation = plan.operation;
    Ok(layouts.get(tensors, row, |shapes| {
        let layout = layout(&operation, shapes).map_err(TensorError::Shape)?;
        for part in &layout.parts {
            limits.checked_size(part)?;
        }
        Ok(layout)
    })?)
}

/// The kernel's float64 operation over every matrix of every row.
fn float_rows(
    name: &str,
    plan: &DecomposePlan,
    op: &MatrixOp,
    readers: &[RowTensor<'_>],
    values: &[&[f64]],
    nulls: Option<&NullBuffer>,
    rows: usize,
) -> Result<Produced<f64>> {
    let count = plan.parts.len();
    let mut out = Produced {
        values: vec![Vec::new(); count],
        shapes: vec![Vec::new(); count],
    };
    let mut layouts: RowPlans<Layout> = RowPlans::default();
    let tensors: Vec<&RowTensor<'_>> = readers.iter().collect();
    let (mut a_buffer, mut b_buffer) = (Vec::new(), Vec::new());
    // `lstsq`'s residuals (its part 1): as many as the row's matrices produced.
    let residuals = matches!(op, MatrixOp::Lstsq { .. });
    for row in 0..rows {
        if nulls.is_some_and(|n| n.is_null(row)) {
            pad_null(plan, &mut out);
            continue;
        }
        let layout = row_layout(plan, &mut layouts, &tensors, row)?;
        let residuals_before = residuals.then(|| out.values[1].len());
        let a_start = readers[0].span(row).0;
        for (index, a_offset) in layout.a.offsets.iter().enumerate() {
            gather(
                |i| values[0][i],
                a_start + a_offset,
                &layout.a,
                &mut a_buffer,
                false,
            );
            let a = MatRef::from_column_major_slice(&a_buffer, layout.a.rows, layout.a.cols);
            let b = match &layout.b {
                Some(b) => {
                    let start = readers[1].span(row).0 + b.offsets[index];
                    gather(|i| values[1][i], start, b, &mut b_buffer, false);
                    Some(MatRef::from_column_major_slice(&b_buffer, b.rows, b.cols))
                }
                None => None,
            };
            op.run(a, b, &mut out.values).map_err(|e| {
                DataFusionError::Execution(format!("{name}: {e} at row {row} of its batch"))
            })?;
        }
        for (p, (_, part)) in plan.parts.iter().enumerate() {
            if let Part::Variable(_) = part {
                let shape = &layout.parts[p];
                if let (Some(before), 1) = (residuals_before, p) {
                    out.shapes[p].push(out.values[1].len() - before);
                } else {
                    out.shapes[p].extend(shape);
                }
            }
        }
    }
    Ok(out)
}

/// A NULL row: zeros in fixed parts, a shape of zeros in variable ones.
fn pad_null<T: Default + Clone>(plan: &DecomposePlan, out: &mut Produced<T>) {
    for (p, (_, part)) in plan.parts.iter().enumerate() {
        match part {
            Part::Fixed(t) => out.values[p].extend(std::iter::repeat_n(T::default(), t.size())),
            Part::Number(_) => out.values[p].push(T::default()),
            Part::Variable(t) => out.shapes[p].extend(std::iter::repeat_n(0, t.ndim())),
        }
    }
}

/// The result's columns from what the rows produced (`array` makes a part's buffer an
/// array, cast to the part's type).
fn columns<T>(
    name: &str,
    plan: &DecomposePlan,
    produced: Produced<T>,
    array: impl Fn(Vec<T>) -> ArrayRef,
    nulls: Option<&NullBuffer>,
    rows: usize,
) -> Result<Vec<ArrayRef>> {
    let mut columns = Vec::with_capacity(plan.parts.len());
    for ((values, shapes), (_, part)) in produced
        .values
        .into_iter()
        .zip(produced.shapes)
        .zip(&plan.parts)
    {
        let values = array(values);
        let element = match part {
            Part::Fixed(t) => t.element_type(),
            Part::Variable(t) => t.element_type(),
            Part::Number(t) => t,
        };
        let values = if values.data_type() == element {
            values
        } else {
            cast(&values, element)?
        };
        columns.push(match part {
            Part::Fixed(t) => output_rows(Some(t), values, nulls.cloned(), rows)?,
            Part::Number(_) => output_rows(None, values, nulls.cloned(), rows)?,
            Part::Variable(t) => variable_result(name, t, &values, &shapes, nulls, rows)?,
        });
    }
    Ok(columns)
}

/// `matrix_power` over every matrix of every row, in the element type (a negative exponent:
/// of the inverse, in the float result type).
fn power(
    name: &str,
    plan: &DecomposePlan,
    n: i64,
    readers: &[RowTensor<'_>],
    nulls: Option<&NullBuffer>,
    rows: usize,
) -> Result<Vec<ArrayRef>> {
    let exponent = n.unsigned_abs();
    if n < 0 {
        // numpy: `inv(a)` (in float64, rounded to the result type), then its powers.
        let values = values_as(&readers[0], &DataType::Float64)?;
        let slice = values.as_primitive::<Float64Type>().values();
        let get = |i: usize| slice[i];
        return if plan.float == DataType::Float32 {
            let round = |x: f64| x as f32;
            let per_matrix = inverse_power(exponent, round);
            element_rows(name, plan, readers, get, nulls, rows, per_matrix, |v| {
                Arc::new(Float32Array::from(v)) as ArrayRef
            })
        } else {
            let per_matrix = inverse_power(exponent, |x: f64| x);
            element_rows(name, plan, readers, get, nulls, rows, per_matrix, |v| {
                Arc::new(Float64Array::from(v)) as ArrayRef
            })
        };
    }
    macro_rules! typed {
        ($t:ty) => {{
            let values = values_as(&readers[0], &<$t>::DATA_TYPE)?;
            let slice = values.as_primitive::<$t>().values();
            element_rows(
                name,
                plan,
                readers,
                |i| slice[i],
                nulls,
                rows,
                power_of(exponent),
                |v| Arc::new(PrimitiveArray::<$t>::from_iter_values(v)) as ArrayRef,
            )
        }};
    }
    match readers[0].values().data_type() {
        DataType::Int8 => typed!(Int8Type),
        DataType::Int16 => typed!(Int16Type),
        DataType::Int32 => typed!(Int32Type),
        DataType::Int64 => typed!(Int64Type),
        DataType::UInt8 => typed!(UInt8Type),
        DataType::UInt16 => typed!(UInt16Type),
        DataType::UInt32 => typed!(UInt32Type),
        DataType::UInt64 => typed!(UInt64Type),
        DataType::Float16 => typed!(Float16Type),
        DataType::Float32 => typed!(Float32Type),
        DataType::Float64 => typed!(Float64Type),
        DataType::Boolean => {
            let values = readers[0].values().as_boolean().clone();
            element_rows(
                name,
                plan,
                readers,
                |i| values.value(i),
                nulls,
                rows,
                power_of(exponent),
                |v| Arc::new(BooleanArray::from(v)) as ArrayRef,
            )
        }
        other => exec_err!("{name}: elements of type {other} are not supported"),
    }
}

/// One matrix (row-major, `n x n`) to the power `exponent`, in its element type.
fn power_of<T: PowerElement>(
    exponent: u64,
) -> impl FnMut(&[T], usize, &mut Vec<T>) -> std::result::Result<(), &'static str> {
    move |matrix, n, out| {
        matrix_power(matrix, n, exponent, out);
        Ok(())
    }
}

/// One float64 matrix (row-major, `n x n`) inverted as `tensor_inv` inverts it, rounded to
/// the result type `T`, to the power `exponent` (numpy's negative `matrix_power`).
fn inverse_power<T: PowerElement>(
    exponent: u64,
    round: impl Fn(f64) -> T,
) -> impl FnMut(&[f64], usize, &mut Vec<T>) -> std::result::Result<(), &'static str> {
    let (mut inverse, mut rounded) = ([Vec::new()], Vec::new());
    move |matrix, n, out| {
        inverse[0].clear();
        lu::inv(MatRef::from_row_major_slice(matrix, n, n), &mut inverse)?;
        rounded.clear();
        rounded.extend(inverse[0].iter().map(|&x| round(x)));
        matrix_power(&rounded, n, exponent, out);
        Ok(())
    }
}

/// Every matrix of every row gathered row-major (`get` reads operand values) and handed to
/// `per_matrix`, which appends its result; `array` makes the result's buffer an array.
#[allow(clippy::too_many_arguments)]
fn element_rows<G: Copy, T: Default + Clone>(
    name: &str,
    plan: &DecomposePlan,
    readers: &[RowTensor<'_>],
    get: impl Fn(usize) -> G,
    nulls: Option<&NullBuffer>,
    rows: usize,
    mut per_matrix: impl FnMut(&[G], usize, &mut Vec<T>) -> std::result::Result<(), &'static str>,
    array: impl Fn(Vec<T>) -> ArrayRef,
) -> Result<Vec<ArrayRef>> {
    let mut out = Produced {
        values: vec![Vec::new()],
        shapes: vec![Vec::new()],
    };
    let mut layouts: RowPlans<Layout> = RowPlans::default();
    let tensors: Vec<&RowTensor<'_>> = readers.iter().collect();
    let mut buffer = Vec::new();
    for row in 0..rows {
        if nulls.is_some_and(|n| n.is_null(row)) {
            pad_null(plan, &mut out);
            continue;
        }
        let layout = row_layout(plan, &mut layouts, &tensors, row)?;
        let start = readers[0].span(row).0;
        for &offset in &layout.a.offsets {
            gather(&get, start + offset, &layout.a, &mut buffer, true);
            per_matrix(&buffer, layout.a.rows, &mut out.values[0]).map_err(|e| {
                DataFusionError::Execution(format!("{name}: {e} at row {row} of its batch"))
            })?;
        }
        if let Part::Variable(_) = plan.parts[0].1 {
            out.shapes[0].extend(&layout.parts[0]);
        }
    }
    columns(name, plan, out, array, nulls, rows)
}
