//! numpy's `choose` over a batch of Arrow arrays ([`ChooseBatch`]): both passes
//! ([`super::index`], [`super::gather`]) dispatched on the index and element types, the fused
//! single-pass loop taken when every input is laid out as the output, element NULLs carried
//! through.

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, AsArray, PrimitiveArray};
use arrow::buffer::{BooleanBuffer, NullBuffer, ScalarBuffer};
use arrow::compute::cast;
use arrow::datatypes::{ArrowPrimitiveType, DataType, Int32Type, Int64Type};
use arrow::error::ArrowError;

use super::gather::{
    IndexLayout, Source, ValiditySource, choose_dense, gather, gather_list, gather_validity,
    index_validity,
};
use super::index::{ChoiceCount, ChooseMode, choice_indices, with_index_type};
use crate::error::{Result, TensorError};
use crate::kernels::{from_storage, layout, storage_type, to_storage};

/// One input of a batch as [`choose`] reads it.
#[derive(Debug, Clone)]
pub struct Input<'a> {
    /// The element values of the whole batch: a tensor column's child array, a numeric
    /// column, or a literal's one value.
    pub values: ArrayRef,
    /// Elements per row of `values`; 0 when one literal serves every row.
    pub row_len: usize,
    /// Offset within the row for each output position; `None` for the position itself (as
    /// [`Source::offsets`]).
    pub offsets: Option<&'a [u32]>,
    /// Element validity; `None` when the input's NULLs, if any, are whole rows (those are in
    /// [`ChooseBatch::row_nulls`]).
    pub valid: Option<NullBuffer>,
}

/// The choices of a batch, in the three forms numpy accepts.
#[derive(Debug, Clone)]
pub enum ChoiceInputs<'a> {
    /// One input per choice.
    Each(Vec<Input<'a>>),
    /// One tensor whose outer axis enumerates `count` choices `stride` elements apart in a
    /// row: choice `i` is `input` read `i * stride` elements further on.
    Stacked {
        /// The tensor's values, with one choice's offsets.
        input: Input<'a>,
        /// Number of choices.
        count: usize,
        /// Elements between one choice and the next.
        stride: usize,
    },
    /// A `List` or `LargeList` column of scalar choices, their number varying per row.
    List(ArrayRef),
}

/// A batch of `tensor_choose`: `rows` output rows of `out_row_len` elements each.
#[derive(Debug, Clone)]
pub struct ChooseBatch<'a> {
    /// The index `a`: integers or booleans.
    pub a: Input<'a>,
    /// The choices.
    pub choices: ChoiceInputs<'a>,
    /// How an index outside `[0, n)` is treated.
    pub mode: ChooseMode,
    /// The result element type (the choices' common type).
    pub element: DataType,
    /// Number of rows.
    pub rows: usize,
    /// Elements per output row.
    pub out_row_len: usize,
    /// The NULL rows (a NULL in any argument): not checked, NULL in the output.
    pub row_nulls: Option<&'a NullBuffer>,
}

/// `numpy.choose` over a batch: the output's row-major values, `rows * out_row_len` of them,
/// NULL where the index element or the chosen element is NULL. NULL rows hold unspecified
/// values (the caller sets the rows' NULLs).
pub fn choose(batch: &ChooseBatch<'_>) -> Result<ArrayRef> {
    let a = &batch.a;
    // Booleans index as 0/1 (numpy reads them as integers).
    let a_values = to_storage(&a.values)?;
    if let Some(out) = try_dense(batch, &a_values)? {
        return Ok(out);
    }
    // A list column's values and row starts, read once for both passes.
    let choices = match &batch.choices {
        ChoiceInputs::Each(inputs) => BatchChoices::Each(inputs),
        ChoiceInputs::Stacked {
            input,
            count,
            stride,
        } => BatchChoices::Stacked {
            input,
            count: *count,
            stride: *stride,
        },
        ChoiceInputs::List(list) => BatchChoices::List(ListChoices::new(list)?),
    };
    let indices = if batch.out_row_len == 0 || batch.rows == 0 {
        // An empty broadcast selects nothing, so no index is checked (numpy); a row with no
        // choices is still numpy's `0-length sequence`.
        if let ChoiceCount::PerRow(counts) = choices.count() {
            let valid = |r: usize| batch.row_nulls.is_none_or(|n| n.is_valid(r));
            if let Some(row) = (0..batch.rows).find(|&r| counts.get(r) == Some(&0) && valid(r)) {
                return Err(TensorError::InvalidChoice {
                    row,
                    value: String::new(),
                    count: 0,
                });
            }
        }
        vec![0; a_values.len()]
    } else {
        indices_of(batch, &a_values, choices.count())?
    };
    let pass2 = Pass2 {
        indices: &indices,
        index: IndexLayout {
            row_len: a.row_len,
            offsets: a.offsets,
        },
        index_valid: a.valid.as_ref(),
        work_type: storage_type(&batch.element),
        rows: batch.rows,
        out_row_len: batch.out_row_len,
    };
    let (values, valid) = match &choices {
        BatchChoices::Each(inputs) => pass2.each(inputs)?,
        BatchChoices::Stacked {
            input,
            count,
            stride,
        } => pass2.stacked(input, *count, *stride)?,
        BatchChoices::List(list) => pass2.list(list)?,
    };
    let values = with_validity(values, valid)?;
    Ok(from_storage(values, &batch.element)?)
}

/// The fused single-pass kernel, when it applies: `a` and every choice are laid out as the
/// output (no broadcast, no permutation, not a literal), nothing is NULL, `a` is Int32 or
/// Int64 and the result is not Boolean. This is the common case of same-shape tensors.
fn try_dense(batch: &ChooseBatch<'_>, a_values: &ArrayRef) -> Result<Option<ArrayRef>> {
    let ChoiceInputs::Each(inputs) = &batch.choices else {
        return Ok(None);
    };
    let out_row_len = batch.out_row_len;
    let laid_out = |input: &Input<'_>| input.offsets.is_none() && input.row_len == out_row_len;
    if !inputs.iter().all(laid_out)
        || !laid_out(&batch.a)
        || batch.a.valid.is_some()
        || batch.row_nulls.is_some()
        || batch.element == DataType::Boolean
        || !matches!(a_values.data_type(), DataType::Int32 | DataType::Int64)
        || inputs.iter().any(|input| input.values.null_count() > 0)
    {
        return Ok(None);
    }
    let inputs = inputs
        .iter()
        .map(|input| cast(&input.values, &batch.element))
        .collect::<Result<Vec<_>, _>>()?;
    let count = inputs.len();
    let invalid = |position: usize, value: String| TensorError::InvalidChoice {
        row: position / out_row_len.max(1),
        value,
        count,
    };
    crate::kernels::with_primitive_type!(&batch.element, P => {
        let slices: Vec<&[<P as ArrowPrimitiveType>::Native]> =
            inputs.iter().map(|v| v.as_primitive::<P>().values().as_ref()).collect();
        let out = if let Some(a) = a_values.as_primitive_opt::<Int32Type>() {
            choose_dense(a.values(), &slices, batch.mode)
                .map_err(|e| invalid(e, a.value(e).to_string()))
        } else {
            let a = a_values.as_primitive::<Int64Type>();
            choose_dense(a.values(), &slices, batch.mode)
                .map_err(|e| invalid(e, a.value(e).to_string()))
        };
        out.map(|values| Some(primitive::<P>(values)))
    }, _ => Ok(None))
}

/// Pass 1, dispatched on `a`'s integer type.
fn indices_of(batch: &ChooseBatch<'_>, a: &ArrayRef, count: ChoiceCount<'_>) -> Result<Vec<u32>> {
    // One generic pass-1 instance per index type.
    macro_rules! run {
        ($P:ty) => {
            choice_indices(
                a.as_primitive::<$P>().values(),
                batch.a.row_len,
                batch.rows,
                count,
                batch.mode,
                batch.row_nulls,
                batch.a.valid.as_ref(),
            )
        };
    }
    with_index_type!(a.data_type(), run)
}

/// The choices of a batch, a list column's parts read once for both passes.
enum BatchChoices<'b, 'a> {
    Each(&'b [Input<'a>]),
    Stacked {
        input: &'b Input<'a>,
        count: usize,
        stride: usize,
    },
    List(ListChoices),
}

impl BatchChoices<'_, '_> {
    fn count(&self) -> ChoiceCount<'_> {
        match self {
            Self::Each(inputs) => ChoiceCount::Fixed(inputs.len()),
            Self::Stacked { count, .. } => ChoiceCount::Fixed(*count),
            Self::List(list) => ChoiceCount::PerRow(&list.counts),
        }
    }
}

/// A list column of scalar choices: its values, each row's start (plus the end of the last
/// row) and each row's number of choices.
struct ListChoices {
    values: ArrayRef,
    starts: Vec<usize>,
    counts: Vec<usize>,
}

impl ListChoices {
    fn new(list: &ArrayRef) -> Result<Self> {
        let Some((values, starts)) = layout::list_parts(list.as_ref()) else {
            return Err(TensorError::Data(format!(
                "expected a list of choices at run time, got {}",
                list.data_type()
            )));
        };
        let counts: Vec<usize> = starts.windows(2).map(|w| w[1] - w[0]).collect();
        // Choice numbers are u32 in the kernels.
        if let Some(row) = counts.iter().position(|&n| u32::try_from(n).is_err()) {
            return Err(TensorError::Data(format!(
                "row {row} of its batch has {} choices, more than {} are supported",
                counts[row],
                u32::MAX
            )));
        }
        Ok(Self {
            values,
            starts,
            counts,
        })
    }
}

/// Pass 2 of a batch: pass 1's choice numbers and where they sit, read in the work type.
struct Pass2<'b> {
    indices: &'b [u32],
    index: IndexLayout<'b>,
    index_valid: Option<&'b NullBuffer>,
    /// The result element type, booleans as 0/1 bytes.
    work_type: DataType,
    rows: usize,
    out_row_len: usize,
}

/// Output values and, when an input has NULL elements, their validity.
type Gathered = (ArrayRef, Option<BooleanBuffer>);

impl Pass2<'_> {
    /// Choices given one by one.
    fn each(&self, inputs: &[Input<'_>]) -> Result<Gathered> {
        let cast_inputs = inputs
            .iter()
            .map(|input| cast(&input.values, &self.work_type))
            .collect::<Result<Vec<_>, _>>()?;
        let values = crate::kernels::with_primitive_type!(&self.work_type, P => {
            let sources: Vec<Source<'_, <P as ArrowPrimitiveType>::Native>> = cast_inputs
                .iter()
                .zip(inputs)
                .map(|(values, input)| Source {
                    values: values.as_primitive::<P>().values(),
                    row_len: input.row_len,
                    offsets: input.offsets,
                })
                .collect();
            primitive::<P>(self.gather(&sources))
        }, _ => return Err(TensorError::Internal(format!("no kernel for {}", self.work_type))));
        let any_nulls = self.index_valid.is_some() || inputs.iter().any(|i| i.valid.is_some());
        let valid = any_nulls.then(|| {
            let refs: Vec<ValiditySource<'_>> = inputs
                .iter()
                .map(|input| ValiditySource {
                    valid: input.valid.as_ref(),
                    row_len: input.row_len,
                    offsets: input.offsets,
                })
                .collect();
            self.gather_validity(&refs)
        });
        Ok((values, valid))
    }

    /// One tensor whose outer axis enumerates the choices: choice `i` is the same rows read
    /// `i * stride` elements further on.
    fn stacked(&self, input: &Input<'_>, count: usize, stride: usize) -> Result<Gathered> {
        let values = cast(&input.values, &self.work_type)?;
        let out = crate::kernels::with_primitive_type!(&self.work_type, P => {
            let all = values.as_primitive::<P>().values();
            let sources: Vec<Source<'_, <P as ArrowPrimitiveType>::Native>> = (0..count)
                .map(|i| Source {
                    values: all.get(i * stride..).unwrap_or(&[]),
                    row_len: input.row_len,
                    offsets: input.offsets,
                })
                .collect();
            primitive::<P>(self.gather(&sources))
        }, _ => return Err(TensorError::Internal(format!("no kernel for {}", self.work_type))));
        let any_nulls = self.index_valid.is_some() || input.valid.is_some();
        let valid = any_nulls.then(|| {
            // Each choice reads the same buffer `i * stride` further on; empty past the end
            // (no rows, or a 0-size choice).
            let shifted: Vec<Option<NullBuffer>> = (0..count)
                .map(|i| {
                    input.valid.as_ref().map(|v| {
                        let start = (i * stride).min(v.len());
                        v.slice(start, v.len() - start)
                    })
                })
                .collect();
            let refs: Vec<ValiditySource<'_>> = shifted
                .iter()
                .map(|v| ValiditySource {
                    valid: v.as_ref(),
                    row_len: input.row_len,
                    offsets: input.offsets,
                })
                .collect();
            self.gather_validity(&refs)
        });
        Ok((out, valid))
    }

    /// A list column of scalar choices per row.
    fn list(&self, list: &ListChoices) -> Result<Gathered> {
        let values_valid = list.values.logical_nulls();
        let values = cast(&list.values, &self.work_type)?;
        let starts = &list.starts;
        let out = crate::kernels::with_primitive_type!(&self.work_type, P => {
            let values = values.as_primitive::<P>().values();
            primitive::<P>(gather_list(
                self.indices,
                self.index,
                values,
                starts,
                self.rows,
                self.out_row_len,
            ))
        }, _ => return Err(TensorError::Internal(format!("no kernel for {}", self.work_type))));
        let any_nulls = self.index_valid.is_some() || values_valid.is_some();
        let valid = any_nulls.then(|| {
            index_validity(
                self.indices,
                self.index,
                self.index_valid,
                self.rows,
                self.out_row_len,
                |row, _, choice| {
                    let chosen = starts[row] + choice;
                    values_valid
                        .as_ref()
                        .is_none_or(|v| chosen >= v.len() || v.is_valid(chosen))
                },
            )
        });
        Ok((out, valid))
    }

    fn gather<T: Copy + Default>(&self, sources: &[Source<'_, T>]) -> Vec<T> {
        gather(
            self.indices,
            self.index,
            sources,
            self.rows,
            self.out_row_len,
        )
    }

    fn gather_validity(&self, sources: &[ValiditySource<'_>]) -> BooleanBuffer {
        gather_validity(
            self.indices,
            self.index,
            self.index_valid,
            sources,
            self.rows,
            self.out_row_len,
        )
    }
}

/// `values` with the element validity `valid` (none: as they are).
fn with_validity(values: ArrayRef, valid: Option<BooleanBuffer>) -> Result<ArrayRef, ArrowError> {
    match valid {
        None => Ok(values),
        Some(valid) => {
            let data = values
                .to_data()
                .into_builder()
                .nulls(Some(NullBuffer::new(valid)))
                .build()?;
            Ok(arrow::array::make_array(data))
        }
    }
}

fn primitive<P: ArrowPrimitiveType>(values: Vec<P::Native>) -> ArrayRef {
    Arc::new(PrimitiveArray::<P>::new(ScalarBuffer::from(values), None))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_carry_element_nulls_and_name_the_row() {
        use arrow::array::Int32Array;
        let input = |values: Int32Array| Input {
            valid: values.logical_nulls(),
            values: Arc::new(values),
            row_len: 2,
            offsets: None,
        };
        let batch = |a: Vec<i32>, c1: Int32Array| ChooseBatch {
            a: input(Int32Array::from(a)),
            choices: ChoiceInputs::Each(vec![
                input(Int32Array::from(vec![10, 11, 12, 13])),
                input(c1),
            ]),
            mode: ChooseMode::Raise,
            element: DataType::Int32,
            rows: 2,
            out_row_len: 2,
            row_nulls: None,
        };
        // Two rows of [2]; choice 1's element 1 is NULL and chosen.
        let out = choose(&batch(
            vec![1, 1, 0, 1],
            Int32Array::from(vec![Some(20), None, Some(22), Some(23)]),
        ))
        .unwrap();
        let out = out.as_primitive::<Int32Type>();
        assert_eq!(out.values(), &[20, out.value(1), 12, 23]);
        assert!(out.is_null(1) && out.null_count() == 1);
        // The fused path (nothing NULL) names the row of a rejected index too.
        let err = choose(&batch(
            vec![0, 1, 1, 2],
            Int32Array::from(vec![20, 21, 22, 23]),
        ))
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid entry in choice array: a = 2 at row 1 of its batch is not in [0, 1] (mode 'raise'; there are 2 choices)"
        );
    }
}
