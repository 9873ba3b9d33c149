//! `tensor_agg_cov(x [, ddof])` and `tensor_agg_corrcoef(x)`: numpy's `cov(np.stack(rows),
//! rowvar=False, ddof=ddof)` and `corrcoef(np.stack(rows), rowvar=False)` over a group's
//! non-NULL rows, each row one observation of the variables along its one dimension (a number
//! per row: one variable, and a plain number out).
//!
//! One pass, in float64 (numpy's type for every real input): each group keeps its count, the
//! variables' means and their co-moments, updated row by row (Welford's update) and merged
//! across partitions by Chan's formula; the result is the co-moments times `1 / (count -
//! ddof)` as numpy multiplies (`inf`/NaN where that is not positive), `corrcoef` numpy's
//! division by the standard deviations and clip to [-1, 1]. numpy centres the stacked rows
//! and multiplies them through BLAS: the two agree within float tolerance, not bit for bit. A
//! NULL element makes its variable's row and column of the result NULL (numpy's NaN would
//! spread the same way); rows of another length are numpy's stack error.

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, AsArray, BooleanArray, Float64Array, ListArray};
use arrow::buffer::{NullBuffer, OffsetBuffer};
use arrow::compute::cast;
use arrow::datatypes::{DataType, Field, FieldRef, Float64Type, Int64Type};
use datafusion::common::{ScalarValue, exec_err, plan_err};
use datafusion::error::Result;
use datafusion::logical_expr::Accumulator;

use super::columns::{Columns, first_scalar, state_field, variable_output};
use crate::kernels::layout::tensor_array;
use crate::tensor_type::TensorType;
use crate::variable_shape::{AnyTensorType, VariableShapeType};

/// The result type of a call on argument `input`: `[d, d]` float64 (fixed-shape for a 1-d
/// fixed-shape argument, variable-shape otherwise), or a number for numbers (0-d rows).
///
/// # Errors
/// numpy's: rows of more than one dimension.
pub fn output_type(name: &str, input: &AnyTensorType) -> Result<Option<AnyTensorType>> {
    match input {
        AnyTensorType::Fixed(t) if t.ndim() == 0 => Ok(None),
        AnyTensorType::Fixed(t) if t.ndim() == 1 => {
            let d = t.logical_shape()[0];
            Ok(Some(AnyTensorType::Fixed(
                TensorType::new(DataType::Float64, vec![d, d]).map_err(|e| e.in_function(name))?,
            )))
        }
        AnyTensorType::Variable(t) if t.ndim() == 1 => Ok(Some(AnyTensorType::Variable(
            VariableShapeType::new(DataType::Float64, 2).map_err(|e| e.in_function(name))?,
        ))),
        _ => plan_err!(
            "{name}: m has more than 2 dimensions (each row must be one observation: a 1-d tensor of the variables, or a number)"
        ),
    }
}

/// The result field.
pub fn output_field(name: &str, input: &AnyTensorType) -> Result<FieldRef> {
    Ok(Arc::new(match output_type(name, input)? {
        Some(output) => output.to_field(name),
        None => Field::new(name, DataType::Float64, true),
    }))
}

/// The intermediate state's fields: the count, the number of variables, the means, the
/// co-moments (row-major) and which variables met a NULL element.
pub fn state_fields(name: &str) -> Vec<FieldRef> {
    let list = |t: DataType| DataType::List(Arc::new(Field::new_list_field(t, true)));
    vec![
        state_field(name, "count", DataType::Int64),
        state_field(name, "variables", DataType::Int64),
        state_field(name, "mean", list(DataType::Float64)),
        state_field(name, "comoments", list(DataType::Float64)),
        state_field(name, "nulls", list(DataType::Boolean)),
    ]
}

/// One group's running moments.
#[derive(Debug)]
pub struct CovAccumulator {
    columns: Columns,
    /// `tensor_agg_corrcoef`.
    corrcoef: bool,
    ddof: i64,
    count: u64,
    /// The number of variables (`None`: no row yet).
    variables: Option<usize>,
    mean: Vec<f64>,
    comoments: Vec<f64>,
    /// Variables that met a NULL element.
    nulls: Vec<bool>,
    /// One row's deviations from the old mean (reused).
    delta: Vec<f64>,
}

impl CovAccumulator {
    /// A group of the argument `columns`, with `ddof` (cov) or as corrcoef.
    pub fn new(columns: Columns, corrcoef: bool, ddof: i64) -> Self {
        Self {
            columns,
            corrcoef,
            ddof,
            count: 0,
            variables: None,
            mean: Vec::new(),
            comoments: Vec::new(),
            nulls: Vec::new(),
            delta: Vec::new(),
        }
    }

    /// Sizes the state for `d` variables, or checks a row of `d` against them (numpy's stack
    /// error).
    fn variables(&mut self, d: usize) -> Result<()> {
        match self.variables {
            Some(n) if n == d => Ok(()),
            Some(n) => exec_err!(
                "{}: all input arrays must have the same shape (rows of {n} and {d} variables)",
                self.columns.name
            ),
            None => {
                let Some(square) = d.checked_mul(d) else {
                    return exec_err!("{}: {d} variables are too many", self.columns.name);
                };
                self.variables = Some(d);
                self.mean = vec![0.0; d];
                self.comoments = vec![0.0; square];
                self.nulls = vec![false; d];
                self.delta = vec![0.0; d];
                Ok(())
            }
        }
    }

    /// Welford's update with one row `x` (its element NULLs in `valid`).
    fn add_row(&mut self, x: &[f64], valid: impl Fn(usize) -> bool) {
        self.count += 1;
        let n = self.count as f64;
        let width = x.len();
        if width == 0 {
            // No variables: a [0, 0] result, nothing to update.
            return;
        }
        for (i, ((&value, mean), delta)) in x
            .iter()
            .zip(&mut self.mean)
            .zip(&mut self.delta)
            .enumerate()
        {
            if !valid(i) {
                self.nulls[i] = true;
            }
            *delta = value - *mean;
            *mean += *delta / n;
        }
        for (row, &delta) in self.comoments.chunks_exact_mut(width).zip(&self.delta) {
            for ((m, &value), &mean) in row.iter_mut().zip(x).zip(&self.mean) {
                *m += delta * (value - mean);
            }
        }
    }

    /// Chan's merge of another group's state.
    fn merge_group(&mut self, count: u64, mean: &[f64], comoments: &[f64], nulls: &[bool]) {
        if count == 0 {
            return;
        }
        let (na, nb) = (self.count as f64, count as f64);
        let n = na + nb;
        let width = mean.len();
        if width == 0 {
            self.count += count;
            return;
        }
        for ((delta, &other), &own) in self.delta.iter_mut().zip(mean).zip(&self.mean) {
            *delta = other - own;
        }
        for ((row, other), &di) in self
            .comoments
            .chunks_exact_mut(width)
            .zip(comoments.chunks_exact(width))
            .zip(&self.delta)
        {
            for ((m, &o), &dj) in row.iter_mut().zip(other).zip(&self.delta) {
                *m += o + di * dj * na * nb / n;
            }
        }
        for (((own, &delta), seen), &other) in self
            .mean
            .iter_mut()
            .zip(&self.delta)
            .zip(&mut self.nulls)
            .zip(nulls)
        {
            *own += delta * nb / n;
            *seen |= other;
        }
        self.count += count;
    }

    /// The result's values (row-major `d * d`) and element validity.
    fn result(&self, d: usize) -> (Vec<f64>, Vec<bool>) {
        // numpy: `fact = count - ddof`, 0 where not positive; `c *= 1 / fact`.
        let fact = (self.count as f64 - self.ddof as f64).max(0.0);
        let scale = 1.0 / fact;
        let mut c: Vec<f64> = self.comoments.iter().map(|m| m * scale).collect();
        if self.corrcoef {
            let std: Vec<f64> = (0..d).map(|i| c[i * d + i].sqrt()).collect();
            for i in 0..d {
                for j in 0..d {
                    // numpy's clip(-1, 1) (NaN stays NaN).
                    c[i * d + j] = (c[i * d + j] / std[i] / std[j]).clamp(-1.0, 1.0);
                }
            }
        }
        let valid = (0..d * d)
            .map(|k| !self.nulls[k / d] && !self.nulls[k % d])
            .collect();
        (c, valid)
    }
}

/// A one-row list scalar of `values` (one array, not a `ScalarValue` per element: the
/// co-moments are `d * d` numbers).
fn list_scalar(values: ArrayRef) -> ScalarValue {
    let item = Arc::new(Field::new_list_field(values.data_type().clone(), true));
    let offsets = OffsetBuffer::from_lengths([values.len()]);
    ScalarValue::List(Arc::new(ListArray::new(item, offsets, values, None)))
}

impl Accumulator for CovAccumulator {
    fn update_batch(&mut self, values: &[ArrayRef]) -> Result<()> {
        let Some(array) = values.first() else {
            return Ok(());
        };
        let columns = self.columns.clone();
        columns.with_input(array, None, |input| {
            let floats = cast(input.values(), &DataType::Float64)?;
            let floats = floats.as_primitive::<Float64Type>();
            let element_nulls = input.element_nulls();
            let mut shape = Vec::new();
            for row in 0..input.len() {
                if !input.is_valid(row) {
                    continue;
                }
                let range = input.row(row, &mut shape);
                self.variables(shape.first().copied().unwrap_or(1))?;
                let start = range.start;
                self.add_row(&floats.values()[range], |i| {
                    element_nulls.is_none_or(|n| n.is_valid(start + i))
                });
            }
            Ok(())
        })
    }

    fn evaluate(&mut self) -> Result<ScalarValue> {
        let name = self.columns.name;
        let output = output_type(name, &self.columns.input)?;
        let (Some(d), true) = (self.variables, self.count > 0) else {
            let field = output_field(name, &self.columns.input)?;
            return ScalarValue::try_from(field.data_type());
        };
        let (values, valid) = self.result(d);
        let values: ArrayRef = Arc::new(Float64Array::new(
            values.into(),
            Some(NullBuffer::from(valid)).filter(|n| n.null_count() > 0),
        ));
        match output {
            None => first_scalar(&values),
            Some(AnyTensorType::Fixed(tensor)) => {
                let array: ArrayRef = Arc::new(tensor_array(&tensor, values, None, 1)?);
                first_scalar(&array)
            }
            Some(AnyTensorType::Variable(tensor)) => {
                let array = variable_output(
                    name,
                    &tensor,
                    values,
                    &[d * d],
                    &[Some(vec![d, d].into_boxed_slice())],
                    NullBuffer::new_valid(1),
                )?;
                first_scalar(&array)
            }
        }
    }

    fn size(&self) -> usize {
        std::mem::size_of_val(self)
            + (self.mean.capacity() + self.comoments.capacity() + self.delta.capacity()) * 8
            + self.nulls.capacity()
    }

    fn state(&mut self) -> Result<Vec<ScalarValue>> {
        Ok(vec![
            ScalarValue::Int64(Some(i64::try_from(self.count).unwrap_or(i64::MAX))),
            ScalarValue::Int64(self.variables.map(|d| d as i64)),
            list_scalar(Arc::new(Float64Array::from(self.mean.clone()))),
            list_scalar(Arc::new(Float64Array::from(self.comoments.clone()))),
            list_scalar(Arc::new(BooleanArray::from(self.nulls.clone()))),
        ])
    }

    fn merge_batch(&mut self, states: &[ArrayRef]) -> Result<()> {
        let name = self.columns.name;
        let [count, variables, mean, comoments, nulls] = states else {
            return exec_err!("{name}: five state columns expected");
        };
        let count = count.as_primitive::<Int64Type>();
        let variables = variables.as_primitive::<Int64Type>();
        let lists = |a: &ArrayRef| -> Result<ListArray> {
            match a.as_list_opt::<i32>() {
                Some(list) => Ok(list.clone()),
                None => exec_err!("{name}: a state column of lists expected"),
            }
        };
        let (mean, comoments, nulls) = (lists(mean)?, lists(comoments)?, lists(nulls)?);
        for row in 0..count.len() {
            let rows = u64::try_from(count.value(row)).unwrap_or(0);
            if variables.is_null(row) || rows == 0 {
                continue;
            }
            let width = usize::try_from(variables.value(row)).unwrap_or(0);
            self.variables(width)?;
            let (row_mean, row_comoments, row_nulls) =
                (mean.value(row), comoments.value(row), nulls.value(row));
            let (row_mean, row_comoments, row_nulls) = (
                row_mean.as_primitive::<Float64Type>(),
                row_comoments.as_primitive::<Float64Type>(),
                row_nulls.as_boolean(),
            );
            if row_mean.len() != width
                || row_comoments.len() != width * width
                || row_nulls.len() != width
            {
                return exec_err!("{name}: a state of another number of variables");
            }
            let row_nulls: Vec<bool> = row_nulls.values().iter().collect();
            self.merge_group(rows, row_mean.values(), row_comoments.values(), &row_nulls);
        }
        Ok(())
    }
}
