//! Elementwise calls with a variable-shape operand (spec.md §7, §9): numpy's broadcasting row by
//! row. Each row's operand shapes broadcast by numpy's rules (the rows of one combination of
//! shapes share one compiled plan, a [`RowPlans`] entry: the broadcast shape and each
//! operand's offsets into it); every operand's values are then gathered once, for the whole
//! batch, into the result's row-major order (an operand already laid out so is used as it
//! is), and the kernels run on the aligned buffers as on 0-d operands, one element per "row".
//! A weak literal stays one value for the whole batch. The result is variable-shape.

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, UInt32Array};
use arrow::buffer::NullBuffer;
use arrow::compute::{cast, take};
use arrow::datatypes::DataType;
use datafusion::common::exec_err;
use datafusion::error::Result;
use datafusion::logical_expr::ColumnarValue;

use super::operands::Operand;
use crate::error::TensorError;
use crate::kernels::elementwise::{Input, Runs, broadcast_operands};
use crate::kernels::ragged::from_rows;
use crate::kernels::rows::{RowPlans, RowTensor};
use crate::limits::Limits;
use crate::shape::broadcast_offsets;
use crate::udf::{tensor_array, variable_array};
use crate::variable_shape::{VariableShapeArray, VariableShapeType};

/// Whether an operand is read row by row in its own shape (some operand is variable-shape).
pub(crate) fn any_variable(operands: &[&Operand]) -> bool {
    operands.iter().any(|o| matches!(o, Operand::Variable(_)))
}

/// The variable-shape result type of element type `element` of `operands`: as many
/// dimensions as the operand with most; the dim names of the variable-shape operands of that
/// many dimensions when they agree and every other operand is a number (each result dim is
/// then one of theirs); its uniform dimensions likewise.
pub(crate) fn output_type(
    name: &str,
    element: DataType,
    operands: &[&Operand],
) -> Result<VariableShapeType> {
    let ndim = operands.iter().map(|o| o.ndim()).max().unwrap_or(0);
    let numbers = operands.iter().all(|o| match o {
        Operand::Variable(t) => t.ndim() == ndim,
        Operand::Tensor(_) => false,
        _ => true,
    });
    let mut names: Option<Option<Vec<String>>> = None;
    let mut uniform: Option<Vec<Option<usize>>> = None;
    if numbers {
        for operand in operands {
            let Operand::Variable(t) = operand else {
                continue;
            };
            let these = t.logical_dim_names();
            names = match names {
                None => Some(these),
                Some(existing) if existing == these => Some(existing),
                Some(_) => Some(None),
            };
            let dims = t.logical_uniform_shape();
            uniform = Some(match uniform {
                None => dims,
                // numpy's broadcast of two known sizes; unknown where either is (a 1 could
                // stretch).
                Some(existing) => existing
                    .iter()
                    .zip(&dims)
                    .map(|(a, b)| match (a, b) {
                        (Some(a), Some(b)) if a == b => Some(*a),
                        _ => None,
                    })
                    .collect(),
            });
        }
    }
    VariableShapeType::new(element, ndim)
        .and_then(|t| t.with_dim_names(names.flatten()))
        .and_then(|t| t.with_uniform_shape(uniform))
        .map_err(|e| e.in_function(name))
}

/// The runs of operands read one element per "row" (0-d): the gathered buffers.
pub(crate) fn element_runs(count: usize) -> Runs {
    let shapes: Vec<&[usize]> = vec![&[]; count];
    Runs::row_major(&[], &shapes)
}

/// The operands of a batch gathered into the result's row-major order, and the result rows'
/// shapes.
pub(crate) struct Gathered {
    /// Per operand: its values in the result's order (one per element), or a literal's one
    /// value (`row_len` 0).
    pub inputs: Vec<Input>,
    /// The result's NULL rows (a NULL row of any operand).
    pub nulls: Option<NullBuffer>,
    /// Each result row's number of elements (0 for a NULL row).
    pub lengths: Vec<usize>,
    /// Each result row's shape (`ndim` per row, zeros for a NULL row).
    pub shapes: Vec<i32>,
}

impl Gathered {
    /// The row of element `i` of the result.
    pub fn row_of(&self, i: usize) -> usize {
        let mut end = 0;
        for (row, &len) in self.lengths.iter().enumerate() {
            end += len;
            if i < end {
                return row;
            }
        }
        self.lengths.len().saturating_sub(1)
    }

    /// An error of the kernels with a batch-wide element position made one naming its row.
    pub fn name_row(&self, err: TensorError) -> TensorError {
        match err {
            TensorError::NegativePower { row } => TensorError::NegativePower {
                row: self.row_of(row),
            },
            other => other,
        }
    }

    /// The variable-shape result of type `output` whose values, row after row, are `values`.
    pub fn finish(self, output: &VariableShapeType, values: ArrayRef) -> Result<ArrayRef> {
        Ok(Arc::new(from_rows(
            output,
            values,
            &self.lengths,
            self.shapes,
            self.nulls,
        )?))
    }
}

/// An operand's batch as an array of `rows` rows (a literal tensor repeated).
fn column(value: &ColumnarValue, rows: usize) -> Result<ArrayRef> {
    match value {
        ColumnarValue::Array(array) => Ok(Arc::clone(array)),
        ColumnarValue::Scalar(scalar) => scalar.to_array_of_size(rows),
    }
}

/// Gathers `operands` (their batch values `args`, `rows` rows) into the broadcast result of
/// every row, each cast to `casts[k]` where given; `out_ndim` dimensions per result row. A row
/// whose shapes do not broadcast is numpy's error naming it.
pub(crate) fn gather(
    name: &str,
    operands: &[&Operand],
    args: &[ColumnarValue],
    rows: usize,
    casts: &[Option<&DataType>],
    out_ndim: usize,
    limits: &Limits,
) -> Result<Gathered> {
    let arrays: Vec<Option<ArrayRef>> = operands
        .iter()
        .zip(args)
        .map(|(o, a)| match o {
            Operand::Literal(_) | Operand::Null => Ok(None),
            _ => column(a, rows).map(Some),
        })
        .collect::<Result<_>>()?;
    let views: Vec<Option<VariableShapeArray<'_>>> = operands
        .iter()
        .zip(&arrays)
        .map(|(o, a)| match (o, a) {
            (Operand::Variable(t), Some(array)) => variable_array(name, t, array).map(Some),
            _ => Ok(None),
        })
        .collect::<Result<_>>()?;
    let mut readers: Vec<RowTensor<'_>> = Vec::new();
    // For each operand, its reader (`None`: a literal, one value for the batch).
    let mut reader_of: Vec<Option<usize>> = Vec::new();
    for ((operand, array), view) in operands.iter().zip(&arrays).zip(&views) {
        let reader = match (operand, array, view) {
            (Operand::Variable(_), _, Some(view)) => RowTensor::variable(view),
            (Operand::Tensor(t), Some(array), _) => {
                RowTensor::fixed(t, tensor_array(name, array)?, false)?
            }
            (Operand::Column(_), Some(array), _) => RowTensor::scalars(Arc::clone(array)),
            _ => {
                reader_of.push(None);
                continue;
            }
        };
        if reader.values().len() > u32::MAX as usize {
            return exec_err!(
                "{name}: a batch of more than {} values is too large to broadcast",
                u32::MAX
            );
        }
        reader_of.push(Some(readers.len()));
        readers.push(reader);
    }
    let nulls = crate::kernels::shape::union_nulls(readers.iter().map(RowTensor::nulls));
    let refs: Vec<&RowTensor<'_>> = readers.iter().collect();
    let mut positions: Vec<Vec<u32>> = vec![Vec::new(); readers.len()];
    let mut lengths = Vec::with_capacity(rows);
    let mut shapes = Vec::with_capacity(rows * out_ndim);
    let mut plans: RowPlans<(Vec<usize>, Vec<Vec<u32>>)> = RowPlans::default();
    for row in 0..rows {
        if nulls.as_ref().is_some_and(|n| n.is_null(row)) {
            lengths.push(0);
            shapes.extend(std::iter::repeat_n(0, out_ndim));
            continue;
        }
        let (shape, offsets) = plans
            .get(&refs, row, |layouts| {
                let all: Vec<&[usize]> = reader_of
                    .iter()
                    .map(|r| r.map_or(&[][..], |k| layouts[k].0.as_slice()))
                    .collect();
                // numpy's ufunc message, its trailing space included.
                let shape = broadcast_operands(&all).map_err(|m| TensorError::Shape(m + " "))?;
                limits.checked_size(&shape)?;
                let offsets = layouts
                    .iter()
                    .map(|(s, strides)| broadcast_offsets(s, strides, &shape))
                    .collect();
                Ok((shape, offsets))
            })
            .map_err(|e| e.in_function(name))?;
        for ((reader, offsets), out) in refs.iter().zip(offsets).zip(&mut positions) {
            let start = reader.span(row).0 as u32;
            out.extend(offsets.iter().map(|&o| start + o));
        }
        lengths.push(shape.iter().product());
        shapes.extend(shape.iter().map(|&d| d as i32));
    }
    let mut inputs = Vec::with_capacity(operands.len());
    for (k, operand) in operands.iter().enumerate() {
        let values = match (operand, reader_of[k]) {
            (Operand::Literal(literal), _) => {
                inputs.push(Input {
                    values: cast_to(literal.to_array_of_size(1)?, casts[k])?,
                    row_len: 0,
                });
                continue;
            }
            (_, Some(r)) => {
                let values = readers[r].values();
                let wanted = &positions[r];
                let laid_out = values.len() == wanted.len()
                    && wanted.iter().enumerate().all(|(i, &p)| p as usize == i);
                if laid_out {
                    Arc::clone(values)
                } else {
                    let indices = UInt32Array::from(std::mem::take(&mut positions[r]));
                    take(values.as_ref(), &indices, None)?
                }
            }
            _ => return exec_err!("{name}: a NULL operand has no values"),
        };
        inputs.push(Input {
            values: cast_to(values, casts[k])?,
            row_len: 1,
        });
    }
    Ok(Gathered {
        inputs,
        nulls,
        lengths,
        shapes,
    })
}

fn cast_to(values: ArrayRef, to: Option<&DataType>) -> Result<ArrayRef> {
    match to {
        Some(to) if values.data_type() != to => Ok(cast(&values, to)?),
        _ => Ok(values),
    }
}
