//! `tensor_agg_stack(x ORDER BY ...)`: numpy's `np.stack` of a group's non-NULL rows, in the
//! order of the call's ORDER BY (rows that tie keep the order they came in).
//!
//! The rows are kept as they arrive, with their ORDER BY values, and sorted when the result is
//! made; a partial state is the stacked rows and their ORDER BY values, so the final stage
//! sorts the rows of every partition together.

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, AsArray, ListArray, UInt64Array};
use arrow::buffer::NullBuffer;
use arrow::compute::{SortColumn, SortOptions, concat, lexsort_to_indices};
use arrow::datatypes::{DataType, Field, FieldRef, UInt64Type};
use datafusion::common::{ScalarValue, exec_err, internal_err};
use datafusion::error::Result;
use datafusion::logical_expr::Accumulator;

use super::columns::{first_scalar, state_field, variable_output};
use crate::kernels::aggregate::groups::list_array;
use crate::kernels::aggregate::stack::{reorder_rows, stack_rows};
use crate::kernels::{from_storage, storage_type};
use crate::variable_shape::{AnyTensorType, VariableShapeType};

/// The result type: variable-shape tensors of the argument's elements, one more dimension.
pub fn stack_type(name: &str, input: &AnyTensorType) -> Result<VariableShapeType> {
    let ndim = match input {
        AnyTensorType::Fixed(tensor) => tensor.ndim(),
        AnyTensorType::Variable(tensor) => tensor.ndim(),
    };
    VariableShapeType::new(input.element_type().clone(), ndim + 1).map_err(|e| e.in_function(name))
}

fn list_type(item: DataType) -> DataType {
    DataType::List(Arc::new(Field::new_list_field(item, true)))
}

/// The state: the stacked values (in the storage type), the stack's shape (NULL: no rows),
/// then each ORDER BY expression's values.
pub fn state_fields(name: &str, input: &AnyTensorType, ordering: &[FieldRef]) -> Vec<FieldRef> {
    let mut fields = vec![
        state_field(
            name,
            "stack_values",
            list_type(storage_type(input.element_type())),
        ),
        state_field(name, "stack_shape", list_type(DataType::UInt64)),
    ];
    for (i, field) in ordering.iter().enumerate() {
        fields.push(state_field(
            name,
            &format!("stack_order{i}"),
            list_type(field.data_type().clone()),
        ));
    }
    fields
}

/// A batch's argument and its ORDER BY values (`sort` expressions' worth).
pub(super) fn split_ordering<'a>(
    name: &str,
    sort: usize,
    values: &'a [ArrayRef],
) -> Result<(&'a ArrayRef, &'a [ArrayRef])> {
    let Some((array, ordering)) = values.split_first() else {
        return internal_err!("{name}: no argument");
    };
    if ordering.len() != sort {
        return internal_err!("{name}: ORDER BY values missing");
    }
    Ok((array, ordering))
}

/// A stack state's parts (see [`state_fields`]): the values, the shapes and each ORDER BY
/// expression's values, all lists.
pub(super) struct StateLists<'a> {
    pub values: &'a ListArray,
    pub shapes: &'a ListArray,
    pub orderings: Vec<&'a ListArray>,
}

/// The error of a state that is not one [`state_fields`] describes.
pub(super) fn bad_state(name: &str) -> datafusion::error::DataFusionError {
    datafusion::error::DataFusionError::Internal(format!("{name}: bad stack state"))
}

/// Reads `states` as a stack state's lists.
pub(super) fn state_lists<'a>(name: &str, states: &'a [ArrayRef]) -> Result<StateLists<'a>> {
    let bad = || bad_state(name);
    let [values, shapes, orderings @ ..] = states else {
        return Err(bad());
    };
    Ok(StateLists {
        values: values.as_list_opt::<i32>().ok_or_else(bad)?,
        shapes: shapes.as_list_opt::<i32>().ok_or_else(bad)?,
        orderings: orderings
            .iter()
            .map(|o| o.as_list_opt::<i32>().ok_or_else(bad))
            .collect::<Result<_>>()?,
    })
}

/// State row `row`'s stack shape (its row count first): `None` for a NULL state.
pub(super) fn state_shape(
    name: &str,
    lists: &StateLists<'_>,
    row: usize,
) -> Result<Option<(usize, Vec<usize>)>> {
    if lists.shapes.is_null(row) || lists.values.is_null(row) {
        return Ok(None);
    }
    let shape = lists.shapes.value(row);
    let shape = shape
        .as_primitive_opt::<UInt64Type>()
        .ok_or_else(|| bad_state(name))?;
    let Some((&rows, dims)) = shape.values().split_first() else {
        return Err(bad_state(name));
    };
    Ok(Some((
        rows as usize,
        dims.iter().map(|&d| d as usize).collect(),
    )))
}

/// One group's rows.
#[derive(Debug)]
pub struct StackAccumulator {
    name: &'static str,
    columns: super::columns::Columns,
    output: VariableShapeType,
    sort: Vec<SortOptions>,
    /// The type of each ORDER BY expression.
    ordering_types: Vec<DataType>,
    /// The rows' shape (`None`: no rows yet).
    shape: Option<Vec<usize>>,
    /// Row-major values (storage type) of the rows, in chunks as they came.
    values: Vec<ArrayRef>,
    /// Per chunk, each ORDER BY expression's values of its rows.
    orderings: Vec<Vec<ArrayRef>>,
    rows: usize,
    /// The bytes of the results evaluated so far, per [`RESULTS_PER_BATCH`] evaluations.
    emitted: EmittedBytes,
}

/// How many results of a window function DataFusion puts in one output batch (its default
/// `datafusion.execution.batch_size`): the span [`EmittedBytes`] counts over.
const RESULTS_PER_BATCH: usize = 8192;

/// The bytes of an accumulator's results, checked against the session's
/// [`crate::limits::Limits::max_batch_bytes`].
/// A `GROUP BY` evaluates each group once; a window function (`tensor_agg_stack(x) OVER (ORDER
/// BY t)`) evaluates a growing frame once per row, every result a stack of the rows so far, so
/// that a few thousand rows ask for gigabytes. The results of every [`RESULTS_PER_BATCH`]
/// evaluations, about one output batch, must fit the limit.
#[derive(Debug)]
struct EmittedBytes {
    evaluations: usize,
    bytes: usize,
    limit: usize,
}

impl EmittedBytes {
    /// Counts a result of `elements` values of `element`, or an error past the limit.
    fn add(&mut self, name: &str, element: &DataType, elements: usize) -> Result<()> {
        if self.evaluations == RESULTS_PER_BATCH {
            self.evaluations = 0;
            self.bytes = 0;
        }
        self.evaluations += 1;
        let width = element.primitive_width().unwrap_or(1);
        self.bytes = self.bytes.saturating_add(elements.saturating_mul(width));
        let limit = self.limit;
        if self.bytes <= limit {
            return Ok(());
        }
        exec_err!(
            "{name}: its results would take more than {limit} bytes ({} bytes over {} results, the last a stack of {elements} {element} elements), more than the limit of {limit} bytes per batch; a window function stacks its whole frame for every row: stack fewer rows (smaller PARTITION BY groups), or raise the limit with SET tensor.max_batch_bytes",
            self.bytes,
            self.evaluations
        )
    }
}

impl StackAccumulator {
    /// A group of the call reading `columns`, sorted by `sort` (one per ORDER BY expression,
    /// of the types `ordering_types`), under the session's `limits`.
    pub fn new(
        columns: super::columns::Columns,
        sort: Vec<SortOptions>,
        ordering_types: Vec<DataType>,
        limits: crate::limits::Limits,
    ) -> Result<Self> {
        let output = stack_type(columns.name, &columns.input)?;
        Ok(Self {
            name: columns.name,
            columns,
            output,
            sort,
            ordering_types,
            shape: None,
            values: Vec::new(),
            orderings: Vec::new(),
            rows: 0,
            emitted: EmittedBytes {
                evaluations: 0,
                bytes: 0,
                limit: limits.max_batch_bytes,
            },
        })
    }

    fn row_size(&self) -> usize {
        self.shape.as_ref().map_or(0, |s| s.iter().product())
    }

    /// The rows' values (storage type) and each ORDER BY expression's values, in the order
    /// the rows came.
    fn concatenated(&self) -> Result<(ArrayRef, Vec<ArrayRef>)> {
        let storage = storage_type(self.output.element_type());
        let chunks: Vec<&dyn Array> = self.values.iter().map(AsRef::as_ref).collect();
        let values = if chunks.is_empty() {
            arrow::array::new_empty_array(&storage)
        } else {
            concat(&chunks)?
        };
        let mut orderings = Vec::with_capacity(self.ordering_types.len());
        for (i, data_type) in self.ordering_types.iter().enumerate() {
            let parts: Vec<&dyn Array> = self.orderings.iter().map(|o| o[i].as_ref()).collect();
            orderings.push(if parts.is_empty() {
                arrow::array::new_empty_array(data_type)
            } else {
                concat(&parts)?
            });
        }
        Ok((values, orderings))
    }

    /// The rows in order, as one values array (storage type).
    fn ordered_values(&self) -> Result<Option<ArrayRef>> {
        if self.rows == 0 {
            return Ok(None);
        }
        let (values, orderings) = self.concatenated()?;
        if self.sort.is_empty() {
            return Ok(Some(values));
        }
        // arrow's lexsort is unstable: the position the row came in is the last key, so
        // that ties keep that order.
        let arrival: ArrayRef = Arc::new(UInt64Array::from_iter_values(0..self.rows as u64));
        let columns: Vec<SortColumn> = orderings
            .into_iter()
            .zip(&self.sort)
            .map(|(values, options)| SortColumn {
                values,
                options: Some(*options),
            })
            .chain(std::iter::once(SortColumn {
                values: arrival,
                options: None,
            }))
            .collect();
        let order = lexsort_to_indices(&columns, None)?;
        let order =
            arrow::array::UInt32Array::from(order.values().iter().copied().collect::<Vec<u32>>());
        Ok(Some(
            reorder_rows(&values, self.row_size(), &order).map_err(|e| e.in_function(self.name))?,
        ))
    }

    fn stack_shape(&self) -> Option<Box<[usize]>> {
        let shape = self.shape.as_ref()?;
        Some(
            std::iter::once(self.rows)
                .chain(shape.iter().copied())
                .collect(),
        )
    }

    fn check_shape(&mut self, shape: &[usize]) -> Result<()> {
        match &self.shape {
            Some(first) if first == shape => Ok(()),
            Some(first) => exec_err!(
                "{}: stacked rows of shape {} and {} (all input arrays must have the same shape)",
                self.name,
                crate::shape::format_shape(first),
                crate::shape::format_shape(shape)
            ),
            None => {
                self.shape = Some(shape.to_vec());
                Ok(())
            }
        }
    }
}

impl Accumulator for StackAccumulator {
    fn update_batch(&mut self, values: &[ArrayRef]) -> Result<()> {
        let (array, ordering) = split_ordering(self.name, self.sort.len(), values)?;
        let name = self.name;
        let mut shape = self.shape.clone();
        let (rows, stacked) = self.columns.with_input(array, None, |input| {
            stack_rows(input, &mut shape).map_err(|e| e.in_function(name))
        })?;
        if rows.is_empty() {
            return Ok(());
        }
        self.shape = shape;
        let ordering = ordering
            .iter()
            .map(|column| Ok(arrow::compute::take(column.as_ref(), &rows, None)?))
            .collect::<Result<Vec<_>>>()?;
        self.rows += rows.len();
        self.values.push(stacked);
        self.orderings.push(ordering);
        Ok(())
    }

    fn evaluate(&mut self) -> Result<ScalarValue> {
        let shape = self.stack_shape();
        // Before the stack is built.
        self.emitted.add(
            self.name,
            self.output.element_type(),
            self.rows.saturating_mul(self.row_size()),
        )?;
        let (values, lengths) = match self.ordered_values()? {
            Some(values) => {
                let len = values.len();
                (values, vec![len])
            }
            None => (
                arrow::array::new_empty_array(&storage_type(self.output.element_type())),
                vec![0],
            ),
        };
        let nulls = NullBuffer::from(vec![shape.is_some()]);
        let values = from_storage(values, self.output.element_type())?;
        let array = variable_output(self.name, &self.output, values, &lengths, &[shape], nulls)?;
        first_scalar(&array)
    }

    fn size(&self) -> usize {
        let arrays: usize = self
            .values
            .iter()
            .chain(self.orderings.iter().flatten())
            .map(Array::get_array_memory_size)
            .sum();
        std::mem::size_of::<Self>() + arrays
    }

    fn state(&mut self) -> Result<Vec<ScalarValue>> {
        let valid = self.rows > 0;
        let nulls = Some(NullBuffer::from(vec![valid]));
        let list = |values: ArrayRef| -> Result<ScalarValue> {
            let len = values.len();
            first_scalar(&list_array(values, &[len], nulls.clone(), true)?)
        };
        let (values, orderings) = self.concatenated()?;
        let shape: Vec<u64> = self
            .stack_shape()
            .map_or_else(Vec::new, |s| s.iter().map(|&d| d as u64).collect());
        let mut out = vec![list(values)?, list(Arc::new(UInt64Array::from(shape)))?];
        for column in orderings {
            out.push(list(column)?);
        }
        Ok(out)
    }

    fn merge_batch(&mut self, states: &[ArrayRef]) -> Result<()> {
        let lists = state_lists(self.name, states)?;
        for row in 0..lists.values.len() {
            let Some((rows, dims)) = state_shape(self.name, &lists, row)? else {
                continue;
            };
            self.check_shape(&dims)?;
            self.rows += rows;
            self.values.push(lists.values.value(row));
            self.orderings
                .push(lists.orderings.iter().map(|o| o.value(row)).collect());
        }
        Ok(())
    }
}
