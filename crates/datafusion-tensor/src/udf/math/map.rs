//! `tensor_map(x, v -> ...)`: a SQL lambda applied to every element of a tensor, numpy's
//! `np.vectorize(f)(x)`, registered as a higher-order function as `array_transform` is.
//!
//! The lambda follows `tensor_at_apply`'s rules ([`crate::rules::weak`]): its parameter `v` has
//! the tensor's element type and its number literals are weakly typed (`v * 2` on `UInt8` stays
//! `UInt8`, with checked integer arithmetic; `v * 0.5` on an integer tensor is `Float64`, as
//! numpy's `x * 0.5`), and it may read other columns of the row (`v -> v * scale`). Unlike
//! `tensor_at_apply`, the result takes the lambda's type, so `v -> v > 0` gives a Boolean tensor.
//!
//! The lambda runs once per batch on the whole values buffer (the elements of the batch's
//! non-NULL rows, in storage order); the result keeps `x`'s shape, dim names, permutation and
//! NULL rows. Values under NULL rows are not evaluated, so a lambda that would fail on them
//! (`v -> 10 / v` over a NULL row's zeros) does not.
//!
//! DataFusion 55 does not carry a higher-order call's argument metadata through plan
//! serialisation, so an instance sent to another process is pinned to the fields it was
//! planned with, as `tensor_at_apply` is.

use std::hash::{Hash, Hasher};
use std::sync::Arc;

use arrow::array::{Array, ArrayRef, AsArray, BooleanArray, FixedSizeListArray, UInt32Array};
use arrow::buffer::OffsetBuffer;
use arrow::compute::take_arrays;
use arrow::datatypes::{DataType, FieldRef};
use datafusion::common::{exec_err, plan_err};
use datafusion::error::Result;
use datafusion::logical_expr::{
    ColumnarValue, Documentation, HigherOrderFunctionArgs, HigherOrderReturnFieldArgs,
    HigherOrderSignature, HigherOrderUDFImpl, LambdaParametersProgress, ValueOrLambda, Volatility,
};

use crate::error::TensorError;
use crate::kernels::layout;
use crate::tensor_type::is_element_type;
use crate::udf::lambda::{element_parameter, tensor_argument};
use crate::udf::registry::Parameters;
use crate::udf::unary::variable_storage;
use crate::udf::{CallInputs, name_plan_error, tensor_array};
use crate::variable_shape::{AnyTensorType, VariableShapeArray};

const NAME: &str = "tensor_map";

/// `tensor_map`'s parameters.
pub const MAP_PARAMETERS: Parameters = Parameters::Fixed {
    names: &["x", "fn"],
    required: 2,
};

/// `tensor_map`.
#[derive(Debug)]
pub struct TensorMap {
    signature: HigherOrderSignature,
    documentation: Documentation,
    /// For a call's instance sent to another process: the argument fields (the lambda's by
    /// its result field) it was planned with, used in place of those it arrives with.
    pub(crate) pinned: Option<Arc<CallInputs>>,
}

impl TensorMap {
    /// The registered instance.
    pub fn new() -> Self {
        Self {
            signature: HigherOrderSignature::user_defined(Volatility::Immutable),
            documentation: documentation(),
            pinned: None,
        }
    }

    /// A call's instance planned with `pinned` from now on.
    pub(crate) fn with_pinned(pinned: Option<CallInputs>) -> Self {
        Self {
            pinned: pinned.map(Arc::new),
            ..Self::new()
        }
    }

    /// This call pinned to the argument fields it has where it is planned.
    pub(crate) fn pinned_to(fields: &[ValueOrLambda<FieldRef, FieldRef>]) -> Result<Self> {
        let fields = flatten_fields(fields)?;
        Ok(Self::with_pinned(Some(CallInputs::new(
            &fields,
            &vec![None; fields.len()],
        ))))
    }

    /// The fields to plan with: the pinned ones, if any.
    fn fields(&self, fields: Vec<FieldRef>) -> Vec<FieldRef> {
        match &self.pinned {
            Some(pinned) => pinned.fields.clone(),
            None => fields,
        }
    }
}

impl Default for TensorMap {
    fn default() -> Self {
        Self::new()
    }
}

impl PartialEq for TensorMap {
    fn eq(&self, other: &Self) -> bool {
        self.pinned == other.pinned
    }
}

impl Eq for TensorMap {}

impl Hash for TensorMap {
    fn hash<H: Hasher>(&self, state: &mut H) {
        NAME.hash(state);
        self.pinned.hash(state);
    }
}

/// The two argument fields, the lambda's by its result field; a plan error unless they are a
/// value then a lambda.
fn flatten_fields(args: &[ValueOrLambda<FieldRef, FieldRef>]) -> Result<Vec<FieldRef>> {
    MAP_PARAMETERS.check_count(NAME, args.len())?;
    match args {
        [ValueOrLambda::Value(x), ValueOrLambda::Lambda(f)] => {
            Ok(vec![Arc::clone(x), Arc::clone(f)])
        }
        [ValueOrLambda::Value(_), ValueOrLambda::Value(f)] => plan_err!(
            "{NAME}: argument fn must be a lambda (v -> v * 2), got {}",
            f.data_type()
        ),
        _ => plan_err!("{NAME}: argument x must be a tensor and fn a lambda (v -> v * 2)"),
    }
}

/// The input and result types of a call with these fields (x, the lambda's result).
fn plan(fields: &[FieldRef]) -> Result<(AnyTensorType, AnyTensorType)> {
    let [x, result] = fields else {
        return plan_err!("{NAME} function requires 2 arguments, got {}", fields.len());
    };
    let input = tensor_argument(NAME, x)?;
    let element = result.data_type();
    if !is_element_type(element) {
        return plan_err!(
            "{NAME}: the lambda returns {element}, but a tensor's elements must be numbers or booleans"
        );
    }
    let output = input
        .with_element_type(element.clone())
        .map_err(|e| e.in_function(NAME))?;
    Ok((input, output))
}

impl HigherOrderUDFImpl for TensorMap {
    fn name(&self) -> &str {
        NAME
    }

    fn signature(&self) -> &HigherOrderSignature {
        &self.signature
    }

    fn coerce_value_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        Ok(arg_types.to_vec())
    }

    fn lambda_parameters(
        &self,
        _step: usize,
        fields: &[ValueOrLambda<FieldRef, Option<FieldRef>>],
    ) -> Result<LambdaParametersProgress> {
        MAP_PARAMETERS.check_count(NAME, fields.len())?;
        let x = match fields {
            [ValueOrLambda::Value(x), ValueOrLambda::Lambda(_)] => x,
            [ValueOrLambda::Value(_), ValueOrLambda::Value(f)] => {
                return plan_err!(
                    "{NAME}: argument fn must be a lambda (v -> v * 2), got {}",
                    f.data_type()
                );
            }
            _ => {
                return plan_err!(
                    "{NAME}: argument x must be a tensor and fn a lambda (v -> v * 2)"
                );
            }
        };
        Ok(LambdaParametersProgress::Complete(vec![vec![
            element_parameter(NAME, x)?,
        ]]))
    }

    fn return_field_from_args(&self, args: HigherOrderReturnFieldArgs) -> Result<FieldRef> {
        let fields = self.fields(flatten_fields(args.arg_fields)?);
        let (_, output) = plan(&fields).map_err(|err| name_plan_error(NAME, err))?;
        Ok(Arc::new(output.to_field(NAME)))
    }

    fn clear_null_values(&self) -> bool {
        false
    }

    fn invoke_with_args(&self, args: HigherOrderFunctionArgs) -> Result<ColumnarValue> {
        crate::limits::Limits::of(&args.config_options).check_batch_bytes(
            NAME,
            args.return_field.data_type(),
            args.number_rows,
        )?;
        let fields = self.fields(flatten_fields(&args.arg_fields)?);
        let (input, output) = plan(&fields).map_err(|err| name_plan_error(NAME, err))?;
        let mut args_iter = args.args.into_iter();
        let (Some(ValueOrLambda::Value(x)), Some(ValueOrLambda::Lambda(lambda))) =
            (args_iter.next(), args_iter.next())
        else {
            return exec_err!("{NAME}: expected a tensor and a lambda at run time");
        };
        // A literal x is expanded: the lambda may read columns, which differ by row.
        let x = x.into_array(args.number_rows)?;
        let evaluate = |values: ArrayRef, rows: &dyn Fn() -> UInt32Array| -> Result<ArrayRef> {
            let len = values.len();
            let param = move || Ok(Arc::clone(&values));
            let value = lambda
                .evaluate(&[&param], |captures| {
                    Ok(take_arrays(captures, &rows(), None)?)
                })
                .and_then(|value| value.into_array(len))
                .map_err(|e| {
                    TensorError::Data(format!("the lambda failed: {}", e.strip_backtrace()))
                        .in_function(NAME)
                })?;
            if value.data_type() != output.element_type() || value.len() != len {
                return exec_err!(
                    "{NAME}: the lambda returned {} values of {} for {len} elements of {}",
                    value.len(),
                    value.data_type(),
                    output.element_type()
                );
            }
            Ok(value)
        };
        let out = match (&input, &output) {
            (AnyTensorType::Fixed(_), AnyTensorType::Fixed(output)) => {
                let x = tensor_array(NAME, &x)?;
                let values = map_fixed(x, &evaluate)?;
                Arc::new(layout::tensor_array(
                    output,
                    values,
                    x.nulls().cloned(),
                    x.len(),
                )?) as ArrayRef
            }
            (AnyTensorType::Variable(input_type), AnyTensorType::Variable(output_type)) => {
                let view = VariableShapeArray::try_new(input_type, x.as_ref())
                    .map_err(|e| e.in_function(NAME))?;
                map_variable(&view, &x, output_type.storage_type(), &evaluate)?
            }
            _ => return exec_err!("{NAME}: the result's kind differs from x's"),
        };
        Ok(ColumnarValue::Array(out))
    }

    fn documentation(&self) -> Option<&Documentation> {
        Some(&self.documentation)
    }
}

/// Runs `evaluate` on a lambda's values and the row (of the batch) of each value, given lazily.
type Evaluate<'a> = dyn Fn(ArrayRef, &dyn Fn() -> UInt32Array) -> Result<ArrayRef> + 'a;

/// Row `r` of a batch as the `u32` a capture's `take` index is; a batch has far fewer rows.
fn row_index(row: usize) -> u32 {
    u32::try_from(row).unwrap_or(u32::MAX)
}

/// A fixed-shape batch's mapped values buffer: the whole buffer at once when no row is NULL;
/// else the non-NULL rows' values, put back in place with NULL elements under NULL rows.
fn map_fixed(x: &FixedSizeListArray, evaluate: &Evaluate<'_>) -> Result<ArrayRef> {
    let size = x.value_length().max(0) as usize;
    let values = x.values();
    if u32::try_from(values.len()).is_err() {
        return exec_err!("{NAME}: a batch of more than 2^32 elements; use smaller batches");
    }
    // The row of each evaluated value, built only when the lambda reads other columns.
    let value_rows = |rows: &mut dyn Iterator<Item = usize>| {
        UInt32Array::from_iter_values(
            rows.flat_map(|row| std::iter::repeat_n(row_index(row), size)),
        )
    };
    let Some(nulls) = x.nulls().filter(|n| n.null_count() > 0) else {
        return evaluate(Arc::clone(values), &|| value_rows(&mut (0..x.len())));
    };
    let valid: Vec<usize> = nulls.valid_indices().collect();
    let mask: BooleanArray = (0..x.len())
        .flat_map(|row| std::iter::repeat_n(Some(nulls.is_valid(row)), size))
        .collect();
    let compact = arrow::compute::filter(values, &mask)?;
    let mapped = evaluate(compact, &|| value_rows(&mut valid.iter().copied()))?;
    // Element j of the k-th non-NULL row came from mapped[k * size + j].
    let mut indices = Vec::with_capacity(x.len() * size);
    let mut next = 0u32;
    for row in 0..x.len() {
        if nulls.is_valid(row) {
            indices.extend((next..).take(size).map(Some));
            next = next.saturating_add(u32::try_from(size).unwrap_or(u32::MAX));
        } else {
            indices.extend(std::iter::repeat_n(None, size));
        }
    }
    let indices = UInt32Array::from(indices);
    Ok(arrow::compute::take(&mapped, &indices, None)?)
}

/// A variable-shape batch with its data mapped: the non-NULL rows' values (in one piece when
/// they are), new offsets over them, the shapes and NULLs kept.
fn map_variable(
    view: &VariableShapeArray<'_>,
    x: &ArrayRef,
    storage_type: DataType,
    evaluate: &Evaluate<'_>,
) -> Result<ArrayRef> {
    let Some(storage) = x.as_struct_opt() else {
        return exec_err!("{NAME}: expected a variable-shape tensor's storage");
    };
    let (Some(shape), DataType::Struct(fields)) = (storage.column_by_name("shape"), storage_type)
    else {
        return exec_err!("{NAME}: expected a variable-shape tensor's storage");
    };
    let ranges: Vec<std::ops::Range<usize>> =
        (0..view.len()).map(|r| view.value_range(r)).collect();
    let rows = || {
        UInt32Array::from_iter_values(
            ranges
                .iter()
                .enumerate()
                .flat_map(|(row, range)| std::iter::repeat_n(row_index(row), range.len())),
        )
    };
    let contiguous = ranges
        .windows(2)
        .all(|w| w[0].end == w[1].start || w[1].is_empty() && w[0].end <= w[1].start)
        && !view.null_rows_hold_values();
    let start = ranges.first().map_or(0, |r| r.start);
    let total: usize = ranges.iter().map(ExactSizeIterator::len).sum();
    let compact = if contiguous {
        view.values().slice(start, total)
    } else {
        let indices =
            UInt32Array::from_iter_values(ranges.iter().flat_map(|r| r.clone().map(row_index)));
        arrow::compute::take(view.values().as_ref(), &indices, None)?
    };
    let mapped = evaluate(compact, &rows)?;
    let offsets = OffsetBuffer::<i32>::from_lengths(ranges.iter().map(ExactSizeIterator::len));
    variable_storage(
        fields,
        offsets,
        mapped,
        view.nulls().cloned(),
        shape,
        view.nulls().cloned(),
    )
}

fn documentation() -> Documentation {
    crate::udf::documented(
        "A SQL lambda applied to every element of a tensor, numpy's `np.vectorize(f)(x)`: the result has x's shape, dim names and NULL rows, and the lambda's element type (`v -> v > 0` gives a Boolean tensor). The lambda's number literals take the tensor's type as in `tensor_at_apply` (`v * 2` on UInt8 stays UInt8, with checked integer arithmetic; `v * 0.5` on integers is Float64), and it may read other columns of the row.",
        "tensor_map(x, v -> v * 2 + 1)",
    )
    .with_sql_example(crate::udf::sql_example(
        "tensor_map(tensor([1, 2, 3, 4], [2, 2]), v -> v * 10 + 1)",
        "[[11, 21], [31, 41]]",
    ))
    .with_argument("x", "A fixed- or variable-shape tensor.")
    .with_argument(
        "fn",
        "A lambda of one parameter (`v -> ...`), an element of x, returning a number or a boolean.",
    )
    .build()
}
