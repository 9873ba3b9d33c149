//! numpy's `choose` on rows of their own shapes, once `a` or a choice is variable-shape: `a`
//! and the tensor choices (either kind, read row by row as [`RowTensor`]s) broadcast in each
//! row ([`broadcast_rows`]), and the batch's elements then run through the batch kernel
//! ([`super::choose`]) as one row; or, where each row enumerates its own choices (a stacked
//! tensor's outer axis, a list column), pass 1 over each row's own number of choices
//! ([`super::index::ragged_choice_indices`]).

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, AsArray, UInt32Array};
use arrow::buffer::NullBuffer;
use arrow::compute::take;
use arrow::datatypes::DataType;

use super::batch::{ChoiceInputs, ChooseBatch, Input, choose};
use super::index::{ChoiceSpan, ChooseMode, ragged_choice_indices};
use crate::error::{Result, TensorError};
use crate::kernels::broadcast::{BroadcastRows, broadcast_rows, too_many_values};
use crate::kernels::layout;
use crate::kernels::ragged::IndexedRows;
use crate::kernels::rows::{RowPlans, RowTensor};
use crate::kernels::to_storage;
use crate::limits::Limits;
use crate::shape::{broadcast_labelled, broadcast_offsets};

/// One choice of numpy's `choose` read row by row.
#[derive(Debug, Clone, Copy)]
pub enum RaggedChoice<'a> {
    /// A tensor (variable- or fixed-shape, read as stored), broadcast in each row.
    Tensor(&'a RowTensor<'a>),
    /// One value per row (a numeric column).
    Column(&'a ArrayRef),
    /// One value for every row (a literal, already of the result type).
    Literal(&'a ArrayRef),
}

/// numpy's `choose(a, choices, mode)` on every row, `a` and the choices row tensors
/// ([`RowTensor`], at least one variable-shape): each row's `a` and tensor choices broadcast
/// together (numpy's rules; the row's result has that shape), and each position reads the
/// choice `a` names there (a tensor choice at its broadcast position, a column's value of the
/// row, a literal). Rows NULL in `nulls` (a NULL in any argument) hold nothing. Shapes that do
/// not broadcast, and an index `raise` rejects, are numpy's errors naming the row.
#[allow(
    clippy::too_many_arguments,
    reason = "numpy's choose takes a, the choices and the mode; the rest say what one batch \
              holds (the element type, its NULL rows, its length, the result's rank) and the \
              session's limits"
)]
pub fn choose_rows(
    a: &RowTensor<'_>,
    choices: &[RaggedChoice<'_>],
    mode: ChooseMode,
    element: &DataType,
    nulls: Option<&NullBuffer>,
    rows: usize,
    out_ndim: usize,
    limits: &Limits,
) -> Result<IndexedRows> {
    if u32::try_from(a.values().len()).is_err() {
        return Err(too_many_values("a"));
    }
    // numpy broadcasts the choices first, then a (its error names them so).
    let labels: Vec<String> = (0..choices.len()).map(|i| format!("choice {i}")).collect();
    let mut tensors = Vec::with_capacity(choices.len() + 1);
    for (i, choice) in choices.iter().enumerate() {
        if let RaggedChoice::Tensor(tensor) = choice {
            if u32::try_from(tensor.values().len()).is_err() {
                return Err(too_many_values(&labels[i]));
            }
            tensors.push((labels[i].as_str(), *tensor));
        }
    }
    tensors.push(("a", a));
    let broadcast = broadcast_rows(&tensors, nulls, rows, out_ndim, limits);
    let total = broadcast.total();
    let BroadcastRows {
        mut positions,
        shapes,
        lengths,
        row_ends,
        mismatch,
    } = broadcast;
    // Each element's row, for per-row choices (a column's value is read at its row).
    let row_of: Vec<u32> = if choices.iter().any(|c| matches!(c, RaggedChoice::Column(_))) {
        lengths
            .iter()
            .enumerate()
            .flat_map(|(row, &len)| std::iter::repeat_n(row as u32, len))
            .collect()
    } else {
        Vec::new()
    };
    let a_values = take(
        a.values().as_ref(),
        &UInt32Array::from(positions.pop().unwrap_or_default()),
        None,
    )?;
    let zeros = vec![
        0u32;
        if choices
            .iter()
            .any(|c| matches!(c, RaggedChoice::Literal(_)))
        {
            total
        } else {
            0
        }
    ];
    let inputs = choice_inputs(choices, &positions, &row_of, &zeros);
    let batch = ChooseBatch {
        a: Input {
            valid: a_values.logical_nulls(),
            values: Arc::clone(&a_values),
            row_len: total,
            offsets: None,
        },
        choices: ChoiceInputs::Each(inputs),
        mode,
        element: element.clone(),
        rows: 1,
        out_row_len: total,
        row_nulls: None,
    };
    let values = match choose(&batch) {
        Err(TensorError::InvalidChoice { value, count, .. }) => {
            // The batch ran as one row: the row is the one holding the first index `raise`
            // rejects (the cold path).
            let position = first_invalid_choice(&a_values, count)?;
            let row = row_ends.partition_point(|&end| end <= position);
            return Err(TensorError::InvalidChoice { row, value, count });
        }
        other => other?,
    };
    if let Some(e) = mismatch {
        return Err(e);
    }
    Ok(IndexedRows {
        values,
        shapes,
        lengths,
    })
}

/// The choices of numpy's `choose` when each row enumerates its own: their number may differ
/// between rows.
#[derive(Debug, Clone, Copy)]
pub enum EnumeratedChoices<'a> {
    /// One tensor per row (variable- or fixed-shape, read as stored) whose outer logical axis
    /// enumerates the row's choices, as numpy's `choose(a, c)` reads an array `c`: choice `k`
    /// is `c[k]`, broadcast with `a`.
    Stacked(&'a RowTensor<'a>),
    /// A `List` or `LargeList` column: each row's scalar choices.
    List(&'a ArrayRef),
}

/// One combination of row shapes of [`choose_enumerated`]: the broadcast shape, `a`'s offset
/// in its row of each position, and one choice's (a stacked tensor's `c[0]`: choice `k` lies
/// `k * stride` further on).
#[derive(Debug)]
struct RowEnumerated {
    shape: Vec<usize>,
    a_offsets: Vec<u32>,
    choice_offsets: Vec<u32>,
    count: usize,
    stride: usize,
}

/// The plan of one combination of row shapes of [`choose_enumerated`], from `a`'s logical
/// shape and strides and (a stacked tensor) the choices'.
fn plan_enumerated(layouts: &[(Vec<usize>, Vec<usize>)], limits: &Limits) -> Result<RowEnumerated> {
    let (a_shape, a_strides) = &layouts[0];
    let Some((c_shape, c_strides)) = layouts.get(1) else {
        return Ok(RowEnumerated {
            a_offsets: broadcast_offsets(a_shape, a_strides, a_shape),
            choice_offsets: Vec::new(),
            shape: a_shape.clone(),
            count: 0,
            stride: 1,
        });
    };
    let (Some((&count, rest)), Some((&stride, rest_strides))) =
        (c_shape.split_first(), c_strides.split_first())
    else {
        return Err(TensorError::Internal(
            "a 0-d tensor cannot enumerate choices".to_string(),
        ));
    };
    if count == 0 {
        // numpy rejects no choices before it broadcasts them.
        return Ok(RowEnumerated {
            shape: Vec::new(),
            a_offsets: Vec::new(),
            choice_offsets: Vec::new(),
            count,
            stride,
        });
    }
    // numpy broadcasts the choices first, then a.
    let shape = broadcast_labelled(&[("choices[i]", rest), ("a", a_shape)])?;
    limits.checked_size(&shape)?;
    Ok(RowEnumerated {
        a_offsets: broadcast_offsets(a_shape, a_strides, &shape),
        choice_offsets: broadcast_offsets(rest, rest_strides, &shape),
        shape,
        count,
        stride,
    })
}

/// numpy's `choose(a, choices, mode)` on every row where each row enumerates its own choices
/// ([`EnumeratedChoices`]): a stacked tensor's `c[1:]` shape broadcasts with `a` in each row
/// (a list's scalars take `a`'s shape), and each position reads the choice `a` names there
/// among the row's own number of them. Rows NULL in `nulls` (a NULL in any argument) hold
/// nothing; an element NULL in `a` is NULL in the result. Rows are checked in order: shapes
/// that do not broadcast, a row with no choices (numpy's `0-length sequence`, whatever `a`
/// holds) and an index `raise` rejects are numpy's errors naming the first row with one.
pub fn choose_enumerated(
    a: &RowTensor<'_>,
    choices: EnumeratedChoices<'_>,
    mode: ChooseMode,
    nulls: Option<&NullBuffer>,
    rows: usize,
    out_ndim: usize,
    limits: &Limits,
) -> Result<IndexedRows> {
    let (choice_values, list_starts) = match choices {
        EnumeratedChoices::Stacked(tensor) => (Arc::clone(tensor.values()), None),
        EnumeratedChoices::List(list) => match layout::list_parts(list.as_ref()) {
            Some((values, starts)) => (values, Some(starts)),
            None => {
                return Err(TensorError::Data(format!(
                    "expected a list of choices at run time, got {}",
                    list.data_type()
                )));
            }
        },
    };
    if u32::try_from(a.values().len()).is_err() {
        return Err(too_many_values("a"));
    }
    if u32::try_from(choice_values.len()).is_err() {
        return Err(too_many_values("the choices"));
    }
    let tensors = match choices {
        EnumeratedChoices::Stacked(tensor) => vec![a, tensor],
        EnumeratedChoices::List(_) => vec![a],
    };
    let mut lengths = Vec::with_capacity(rows);
    let mut shapes = Vec::with_capacity(rows * out_ndim);
    // For each element: where its `a` lies, and where its row's choice 0 lies (the chosen
    // one's position once pass 1 has numbered them). For each row: its span and stride.
    let mut a_positions: Vec<u32> = Vec::new();
    let mut positions: Vec<u32> = Vec::new();
    let mut spans = Vec::with_capacity(rows);
    let mut strides = Vec::with_capacity(rows);
    let mut plans: RowPlans<RowEnumerated> = RowPlans::default();
    // The first row whose shapes do not broadcast or that has no choices: its error, once
    // the rows before it are checked.
    let mut pending = None;
    for row in 0..rows {
        if nulls.is_some_and(|n| n.is_null(row)) {
            lengths.push(0);
            shapes.extend(std::iter::repeat_n(0, out_ndim));
            continue;
        }
        let compiled = plans.get(&tensors, row, |layouts| plan_enumerated(layouts, limits));
        let plan = match compiled {
            Ok(plan) => plan,
            Err(e) => {
                pending = Some(e);
                break;
            }
        };
        let (count, base, stride) = match (&list_starts, choices) {
            (Some(starts), _) => (starts[row + 1] - starts[row], starts[row], 1),
            (None, EnumeratedChoices::Stacked(tensor)) => {
                (plan.count, tensor.span(row).0, plan.stride)
            }
            (None, EnumeratedChoices::List(_)) => {
                return Err(TensorError::Internal("a list without offsets".to_string()));
            }
        };
        if count == 0 {
            pending = Some(TensorError::InvalidChoice {
                row,
                value: String::new(),
                count,
            });
            break;
        }
        let a_start = a.span(row).0 as u32;
        a_positions.extend(plan.a_offsets.iter().map(|&o| a_start + o));
        // Below u32::MAX: checked above, and every position lies in the row's values.
        let base = base as u32;
        if list_starts.is_some() {
            positions.extend(std::iter::repeat_n(base, plan.a_offsets.len()));
        } else {
            positions.extend(plan.choice_offsets.iter().map(|&o| base + o));
        }
        lengths.push(plan.a_offsets.len());
        shapes.extend(plan.shape.iter().map(|&d| d as i32));
        spans.push(ChoiceSpan {
            row,
            end: a_positions.len(),
            count,
        });
        strides.push(stride as u32);
    }
    let a_values = take(a.values().as_ref(), &UInt32Array::from(a_positions), None)?;
    let a_valid = a_values.logical_nulls();
    // Booleans index as 0/1 (numpy reads them as integers).
    let numbers = ragged_choice_indices(&to_storage(&a_values)?, &spans, mode, a_valid.as_ref())?;
    if let Some(e) = pending {
        return Err(e);
    }
    let mut start = 0;
    for (span, &stride) in spans.iter().zip(&strides) {
        for (position, &k) in positions[start..span.end]
            .iter_mut()
            .zip(&numbers[start..span.end])
        {
            // Choice k of the row lies k strides on, inside the row's values (k < count).
            *position += k * stride;
        }
        start = span.end;
    }
    // An index NULL in `a` names no choice: its (unchecked) position is not read.
    let positions = UInt32Array::new(positions.into(), a_valid);
    let values = take(choice_values.as_ref(), &positions, None)?;
    Ok(IndexedRows {
        values,
        shapes,
        lengths,
    })
}

/// The choices as [`choose`] reads them when the batch's elements run as one row: a tensor
/// choice at `positions` (one list per tensor choice, in order), a column's value at its row
/// (`row_of`), a literal at `zeros`.
fn choice_inputs<'a>(
    choices: &[RaggedChoice<'_>],
    positions: &'a [Vec<u32>],
    row_of: &'a [u32],
    zeros: &'a [u32],
) -> Vec<Input<'a>> {
    let mut tensor_positions = positions.iter();
    choices
        .iter()
        .map(|choice| match choice {
            RaggedChoice::Tensor(tensor) => Input {
                values: Arc::clone(tensor.values()),
                row_len: tensor.values().len(),
                offsets: tensor_positions.next().map(Vec::as_slice),
                valid: tensor.values().logical_nulls(),
            },
            // A column's value is read at its row's position.
            RaggedChoice::Column(values) => Input {
                values: Arc::clone(values),
                row_len: values.len(),
                offsets: Some(row_of),
                valid: None,
            },
            RaggedChoice::Literal(value) => Input {
                values: Arc::clone(value),
                row_len: 0,
                offsets: Some(zeros),
                valid: value.logical_nulls(),
            },
        })
        .collect()
}

/// The position of the first valid index in `a` outside `[0, count)`.
fn first_invalid_choice(a: &ArrayRef, count: usize) -> Result<usize> {
    let a = arrow::compute::cast(a, &DataType::Int64)?;
    let a = a.as_primitive::<arrow::datatypes::Int64Type>();
    let count = i64::try_from(count).unwrap_or(i64::MAX);
    (0..a.len())
        .find(|&i| a.is_valid(i) && !(0..count).contains(&a.value(i)))
        .ok_or_else(|| TensorError::Internal("no rejected choice index found".to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::ragged::tests::permuted_batch;
    use crate::variable_shape::VariableShapeArray;
    use arrow::array::Int16Array;
    use arrow::datatypes::Int16Type;

    #[test]
    fn choose_reads_each_rows_own_index_and_names_the_rejected_row() {
        let (tensor, array) = permuted_batch();
        let view = VariableShapeArray::try_new(&tensor, &array).unwrap();
        let ten: ArrayRef = Arc::new(Int16Array::from(vec![10]));
        let per_row: ArrayRef = Arc::new(Int16Array::from(vec![100, 200, 300]));
        let choices = [RaggedChoice::Literal(&ten), RaggedChoice::Column(&per_row)];
        let a = RowTensor::variable(&view);
        let rows = choose_rows(
            &a,
            &choices,
            ChooseMode::Clip,
            &DataType::Int16,
            view.nulls(),
            3,
            2,
            &Limits::default(),
        )
        .unwrap();
        assert_eq!(
            rows.values.as_primitive::<Int16Type>().values().to_vec(),
            vec![10, 100, 100, 100, 100, 100, 300, 300]
        );
        assert_eq!(rows.shapes, vec![2, 3, 0, 0, 2, 1]);
        // raise: row 0 is left out (NULL), so row 2's 6 is the first index rejected.
        let nulls = NullBuffer::from(vec![false, false, true]);
        let err = choose_rows(
            &a,
            &choices,
            ChooseMode::Raise,
            &DataType::Int16,
            Some(&nulls),
            3,
            2,
            &Limits::default(),
        )
        .unwrap_err()
        .to_string();
        assert_eq!(
            err,
            "invalid entry in choice array: a = 6 at row 2 of its batch is not in [0, 1] (mode 'raise'; there are 2 choices)"
        );
    }
}
