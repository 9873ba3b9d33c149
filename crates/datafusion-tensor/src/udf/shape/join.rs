//! `tensor_concatenate(x, y, ..., axis => 0)` and `tensor_stack(x, y, ..., axis => 0)`:
//! numpy's `concatenate` and `stack` of several tensors (fixed- or variable-shape, freely
//! mixed) row by row, in numpy's result type of their element types.
//!
//! Variadic with a trailing option, as `tensor_choose` is ([`super::super::VariadicTensorUdf`]):
//! the data arguments are tensors (or list literals), so a trailing integer or NULL is the
//! axis. Shapes known when the query is planned are checked then (numpy's errors as plan
//! errors); dimensions that vary by row are checked row by row, the error naming the row.

use std::sync::Arc;

use arrow::array::{Array, ArrayRef};
use arrow::compute::cast;
use arrow::datatypes::{DataType, FieldRef};
use datafusion::common::plan_err;
use datafusion::error::Result;
use datafusion::logical_expr::{ColumnarValue, Documentation};

use super::args::{AxisArg, axis_arg, normalize_axis};
use super::result_type;
use crate::error::TensorError;
use crate::kernels::shape::{Piece, join_rows};
use crate::kernels::{layout, ragged};
use crate::udf::{Parameters, PlanArgs, TensorFunction, map_arrays, tensor_array, variable_array};
use crate::variable_shape::{AnyTensorType, VariableShapeArray};

/// The functions that join several tensors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum JoinFunction {
    /// `tensor_concatenate`: numpy's `concatenate`.
    Concatenate,
    /// `tensor_concat`: the array API standard's name of the same.
    Concat,
    /// `tensor_stack`.
    Stack,
    /// `tensor_hstack`: numpy's `hstack` (along axis 1, or 0 for 1-d tensors).
    HStack,
    /// `tensor_vstack`: numpy's `vstack` (along axis 0 of at least 2-d tensors).
    VStack,
}

impl JoinFunction {
    /// Every function, in registration order.
    pub const ALL: [Self; 5] = [
        Self::Concatenate,
        Self::Concat,
        Self::Stack,
        Self::HStack,
        Self::VStack,
    ];

    /// The SQL name.
    pub fn function_name(self) -> &'static str {
        match self {
            Self::Concatenate => "tensor_concatenate",
            Self::Concat => "tensor_concat",
            Self::Stack => "tensor_stack",
            Self::HStack => "tensor_hstack",
            Self::VStack => "tensor_vstack",
        }
    }

    /// The least number of dimensions each input is read with (numpy's `atleast_1d` of
    /// `hstack`, `atleast_2d` of `vstack`: 1s put in front).
    fn atleast(self) -> usize {
        match self {
            Self::HStack => 1,
            Self::VStack => 2,
            Self::Concatenate | Self::Concat | Self::Stack => 0,
        }
    }
}

/// A function joining several tensors.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct TensorJoin {
    function: JoinFunction,
    stack: bool,
    documentation: Documentation,
}

impl TensorJoin {
    /// The registered instance of `function`.
    pub fn new(function: JoinFunction) -> Self {
        Self {
            function,
            stack: function == JoinFunction::Stack,
            documentation: documentation(function),
        }
    }
}

/// How the inputs are joined.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum JoinAxis {
    /// `concatenate(axis=None)`: each input flattened.
    Flat,
    /// `concatenate(axis)`.
    Concat(usize),
    /// `stack(axis)`: a new axis at this position of the result.
    Stack(usize),
}

/// A compiled call.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct JoinCall {
    data_args: usize,
    inputs: Vec<AnyTensorType>,
    axis: JoinAxis,
    output: AnyTensorType,
    /// The session's limits, which a variable-shape result's batch is checked against.
    limits: crate::limits::Limits,
    /// The least number of dimensions the inputs are read with (1s put in front).
    atleast: usize,
}

impl TensorFunction for TensorJoin {
    type Plan = JoinCall;

    fn name(&self) -> &'static str {
        self.function.function_name()
    }

    fn parameters(&self) -> Parameters {
        match self.function {
            JoinFunction::HStack | JoinFunction::VStack => Parameters::Variadic { options: &[] },
            _ => Parameters::Variadic { options: &["axis"] },
        }
    }

    fn documentation(&self) -> Option<&Documentation> {
        Some(&self.documentation)
    }

    fn tensor_arguments(&self, arg_types: &[DataType]) -> Vec<usize> {
        (0..self.data_args(arg_types)).collect()
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        if self.data_args(arg_types) == 0 {
            return plan_err!(
                "{}: need at least one array to {}",
                self.name(),
                if self.stack { "stack" } else { "concatenate" }
            );
        }
        Ok(arg_types.to_vec())
    }

    fn plan(&self, args: &PlanArgs<'_>) -> Result<JoinCall> {
        let name = args.name;
        let types: Vec<DataType> = args.fields.iter().map(|f| f.data_type().clone()).collect();
        let n = self.data_args(&types);
        let inputs = (0..n)
            .map(|i| args.any_tensor(i, &format!("{}", i + 1)))
            .collect::<Result<Vec<_>>>()?;
        let atleast = self.function.atleast();
        let known: Vec<Vec<Option<usize>>> = inputs
            .iter()
            .map(|t| at_least(known_dims(t), atleast, Some(1)))
            .collect();
        let ndim = known[0].len();
        let axis = match self.function {
            // hstack: along axis 1, or 0 where the first input is (at least) 1-d.
            JoinFunction::HStack => AxisArg::One(i64::from(ndim > 1)),
            JoinFunction::VStack => AxisArg::One(0),
            _ => match (n < args.fields.len()).then(|| axis_arg(args, n, "axis", false)) {
                None => AxisArg::One(0),
                Some(axis) => axis?,
            },
        };
        let axis = match (self.stack, axis) {
            (false, AxisArg::Omitted) => JoinAxis::Flat,
            (true, AxisArg::Omitted) => {
                // numpy: TypeError: 'NoneType' object cannot be interpreted as an integer
                return plan_err!("{name}: argument axis must be an integer, not NULL");
            }
            (false, AxisArg::One(axis)) => {
                if ndim == 0 {
                    return plan_err!("{name}: zero-dimensional arrays cannot be concatenated");
                }
                let axis = normalize_axis(name, axis, ndim)?;
                if let Some(i) = known.iter().position(|k| k.len() != ndim) {
                    return plan_err!(
                        "{name}: all the input arrays must have same number of dimensions, but the array at index 0 has {ndim} dimension(s) and the array at index {i} has {} dimension(s)",
                        known[i].len()
                    );
                }
                JoinAxis::Concat(axis)
            }
            (true, AxisArg::One(axis)) => {
                if known.iter().any(|k| k.len() != ndim) {
                    return plan_err!("{name}: all input arrays must have the same shape");
                }
                JoinAxis::Stack(normalize_axis(name, axis, ndim + 1)?)
            }
            (_, AxisArg::List(_)) => unreachable!("axis_arg reads no list here"),
        };
        let dims = known_result(axis, &known).map_err(|message| {
            datafusion::error::DataFusionError::Plan(format!("{name}: {message}"))
        })?;
        let elements: Vec<DataType> = inputs.iter().map(|t| t.element_type().clone()).collect();
        let Some(element) = crate::dtype::result_type(&elements, &[]) else {
            return plan_err!("{name}: no common type of {elements:?}");
        };
        // Names stay where no input gained a dimension (hstack's, vstack's 1s in front).
        let padded = inputs.iter().any(|t| t.ndim() < atleast);
        let names = match axis {
            JoinAxis::Concat(_) if !padded => common_names(&inputs),
            _ => None,
        };
        let output = result_type(element, dims, names)?;
        Ok(JoinCall {
            data_args: n,
            inputs,
            axis,
            output,
            limits: args.limits,
            atleast,
        })
    }

    fn return_field(&self, plan: &JoinCall) -> FieldRef {
        Arc::new(plan.output.to_field(self.name()))
    }

    fn invoke(
        &self,
        plan: &JoinCall,
        args: &[ColumnarValue],
        number_rows: usize,
    ) -> Result<ColumnarValue> {
        let name = self.name();
        let data: Vec<usize> = (0..plan.data_args).collect();
        if data.is_empty() {
            return datafusion::common::internal_err!("{name}: planned without arguments");
        }
        map_arrays(args, &data, number_rows, |arrays| {
            join_batch(name, plan, arrays)
        })
    }
}

impl JoinCall {
    /// The type of the joined tensor.
    pub(crate) fn output(&self) -> &AnyTensorType {
        &self.output
    }
}

impl TensorJoin {
    /// How many leading arguments are data: tensors and lists; a trailing argument of any
    /// other type (an integer, NULL) is the axis, where the function takes one.
    fn data_args(&self, arg_types: &[DataType]) -> usize {
        match self.function {
            JoinFunction::HStack | JoinFunction::VStack => arg_types.len(),
            _ => data_args(arg_types),
        }
    }
}

/// `dims` with `fill` put in front up to `atleast` dimensions (numpy's `atleast_1d`,
/// `atleast_2d`).
fn at_least<T: Clone>(dims: Vec<T>, atleast: usize, fill: T) -> Vec<T> {
    if dims.len() >= atleast {
        return dims;
    }
    let mut out = vec![fill; atleast - dims.len()];
    out.extend(dims);
    out
}

/// How many leading arguments are data: tensors and lists; a trailing argument of any other
/// type (an integer, NULL) is the axis.
fn data_args(arg_types: &[DataType]) -> usize {
    match arg_types.last() {
        Some(
            DataType::List(_)
            | DataType::LargeList(_)
            | DataType::FixedSizeList(..)
            | DataType::Struct(_),
        )
        | None => arg_types.len(),
        Some(_) => arg_types.len() - 1,
    }
}

/// The logical dimensions of a tensor type known when the query is planned.
fn known_dims(tensor: &AnyTensorType) -> Vec<Option<usize>> {
    match tensor {
        AnyTensorType::Fixed(t) => t.logical_shape().into_iter().map(Some).collect(),
        AnyTensorType::Variable(t) => t.logical_uniform_shape(),
    }
}

/// The logical dim names every input shares, if they all have the same.
fn common_names(inputs: &[AnyTensorType]) -> Option<Vec<String>> {
    let names = |t: &AnyTensorType| match t {
        AnyTensorType::Fixed(t) => t.logical_dim_names(),
        AnyTensorType::Variable(t) => t.logical_dim_names(),
    };
    let first = names(&inputs[0])?;
    inputs[1..]
        .iter()
        .all(|t| names(t).as_ref() == Some(&first))
        .then_some(first)
}

/// The result's dimensions where the inputs' known ones fix them; numpy's error where two
/// known dimensions already disagree.
fn known_result(
    axis: JoinAxis,
    known: &[Vec<Option<usize>>],
) -> std::result::Result<Vec<Option<usize>>, String> {
    let first = &known[0];
    match axis {
        JoinAxis::Flat => Ok(vec![
            known
                .iter()
                .map(|k| k.iter().copied().product::<Option<usize>>())
                .sum(),
        ]),
        JoinAxis::Concat(a) => {
            for (i, k) in known.iter().enumerate().skip(1) {
                for d in (0..first.len()).filter(|&d| d != a) {
                    if let (Some(x), Some(y)) = (first[d], k[d])
                        && x != y
                    {
                        return Err(concat_mismatch(d, x, i, y));
                    }
                }
            }
            Ok((0..first.len())
                .map(|d| {
                    if d == a {
                        known.iter().map(|k| k[a]).sum()
                    } else {
                        known.iter().find_map(|k| k[d])
                    }
                })
                .collect())
        }
        JoinAxis::Stack(a) => {
            let mut dims: Vec<Option<usize>> = Vec::with_capacity(first.len() + 1);
            for d in 0..first.len() {
                let mut found = None;
                for k in known {
                    match (found, k[d]) {
                        (Some(x), Some(y)) if x != y => {
                            return Err("all input arrays must have the same shape".to_string());
                        }
                        (None, y) => found = y,
                        _ => {}
                    }
                }
                dims.push(found);
            }
            dims.insert(a, Some(known.len()));
            Ok(dims)
        }
    }
}

fn concat_mismatch(d: usize, x: usize, i: usize, y: usize) -> String {
    format!(
        "all the input array dimensions except for the concatenation axis must match exactly, but along dimension {d}, the array at index 0 has size {x} and the array at index {i} has size {y}"
    )
}

/// The runs of one row: `runs[i]` elements of input `i` for each of the returned number of
/// indices before the axis, and the row's result shape in `shape`; numpy's error where the
/// row's shapes do not join.
fn row_runs(
    axis: JoinAxis,
    shapes: &[Vec<usize>],
    runs: &mut Vec<usize>,
    shape: &mut Vec<usize>,
) -> std::result::Result<usize, String> {
    runs.clear();
    shape.clear();
    let first = &shapes[0];
    match axis {
        JoinAxis::Flat => {
            runs.extend(shapes.iter().map(|s| s.iter().product::<usize>()));
            shape.push(runs.iter().sum());
            Ok(1)
        }
        JoinAxis::Concat(a) => {
            for (i, s) in shapes.iter().enumerate().skip(1) {
                if let Some(d) = (0..first.len()).find(|&d| d != a && s[d] != first[d]) {
                    return Err(concat_mismatch(d, first[d], i, s[d]));
                }
            }
            let inner: usize = first[a + 1..].iter().product();
            runs.extend(shapes.iter().map(|s| s[a] * inner));
            shape.extend_from_slice(first);
            shape[a] = shapes.iter().map(|s| s[a]).sum();
            Ok(first[..a].iter().product())
        }
        JoinAxis::Stack(a) => {
            if shapes.iter().any(|s| s != first) {
                return Err("all input arrays must have the same shape".to_string());
            }
            let inner: usize = first[a..].iter().product();
            runs.extend(std::iter::repeat_n(inner, shapes.len()));
            shape.extend_from_slice(&first[..a]);
            shape.push(shapes.len());
            shape.extend_from_slice(&first[a..]);
            Ok(first[..a].iter().product())
        }
    }
}

/// One input of a batch: its row-major values in the result's element type, and each row's
/// shape and start.
enum Input<'a> {
    Fixed {
        values: ArrayRef,
        shape: Vec<usize>,
        size: usize,
        list: &'a arrow::array::FixedSizeListArray,
    },
    Variable {
        values: ArrayRef,
        view: VariableShapeArray<'a>,
        /// Where the next non-NULL row starts in `values`.
        cursor: usize,
    },
}

fn join_batch(name: &str, plan: &JoinCall, arrays: &[ArrayRef]) -> Result<ArrayRef> {
    let in_function = |e: TensorError| e.in_function(name);
    let element = plan.output.element_type();
    let in_element = |values: ArrayRef| -> Result<ArrayRef> {
        if values.data_type() == element {
            Ok(values)
        } else {
            Ok(cast(&values, element)?)
        }
    };
    let mut inputs = Vec::with_capacity(arrays.len());
    for (tensor, array) in plan.inputs.iter().zip(arrays) {
        inputs.push(match tensor {
            AnyTensorType::Fixed(t) => {
                let list = tensor_array(name, array)?;
                Input::Fixed {
                    values: in_element(layout::row_major_values(t, list)?)?,
                    shape: t.logical_shape(),
                    size: t.size(),
                    list,
                }
            }
            AnyTensorType::Variable(t) => {
                let view = variable_array(name, t, array)?;
                let values = in_element(ragged::row_major_values(&view).map_err(in_function)?)?;
                Input::Variable {
                    values,
                    view,
                    cursor: 0,
                }
            }
        });
    }
    let rows = arrays.first().map_or(0, Array::len);
    let (pad, out_ndim) = match &plan.output {
        AnyTensorType::Fixed(t) => (t.size(), t.ndim()),
        AnyTensorType::Variable(t) => (0, t.ndim()),
    };
    let n = inputs.len();
    let mut shapes: Vec<Vec<usize>> = vec![Vec::new(); n];
    let (mut runs, mut shape) = (Vec::with_capacity(n), Vec::with_capacity(out_ndim));
    let mut outer = Vec::with_capacity(rows);
    let mut pieces = Vec::with_capacity(rows * n);
    let mut lengths = Vec::with_capacity(rows);
    let mut out_shapes: Vec<i32> = Vec::with_capacity(rows * out_ndim);
    let mut valid = Vec::with_capacity(rows);
    for row in 0..rows {
        let mut null = false;
        for (input, row_shape) in inputs.iter_mut().zip(&mut shapes) {
            row_shape.clear();
            match input {
                Input::Fixed {
                    shape, size, list, ..
                } => {
                    row_shape.extend(std::iter::repeat_n(
                        1,
                        plan.atleast.saturating_sub(shape.len()),
                    ));
                    row_shape.extend_from_slice(shape);
                    pieces.push(Piece {
                        start: row * *size,
                        run: 0,
                    });
                    null |= list.is_null(row);
                }
                Input::Variable { view, cursor, .. } => {
                    pieces.push(Piece {
                        start: *cursor,
                        run: 0,
                    });
                    if view.is_null(row) {
                        null = true;
                    } else {
                        let ndim = view.tensor().ndim();
                        row_shape.extend(std::iter::repeat_n(1, plan.atleast.saturating_sub(ndim)));
                        row_shape.extend(view.logical_shape(row));
                        *cursor += view.value_range(row).len();
                    }
                }
            }
        }
        valid.push(!null);
        if null {
            outer.push(None);
            lengths.push(pad);
            out_shapes.extend(std::iter::repeat_n(0, out_ndim));
            continue;
        }
        let o = row_runs(plan.axis, &shapes, &mut runs, &mut shape).map_err(|message| {
            in_function(TensorError::Data(format!(
                "{message} at row {row} of its batch"
            )))
        })?;
        for (piece, &run) in pieces[row * n..].iter_mut().zip(&runs) {
            piece.run = run;
        }
        outer.push(Some(o));
        lengths.push(o * runs.iter().sum::<usize>());
        out_shapes.extend(shape.iter().map(|&d| i32::try_from(d).unwrap_or(i32::MAX)));
    }
    if let AnyTensorType::Variable(t) = &plan.output {
        // A variable-shape result's size is known only now (a fixed one's was checked).
        crate::limits::ResultBudget::new(name, t.element_type(), &plan.limits)
            .add(lengths.iter().sum(), rows.saturating_sub(1))?;
    }
    let values: Vec<ArrayRef> = inputs
        .iter()
        .map(|input| match input {
            Input::Fixed { values, .. } | Input::Variable { values, .. } => Arc::clone(values),
        })
        .collect();
    let out = join_rows(&values, &outer, &pieces, pad).map_err(in_function)?;
    let nulls = valid
        .contains(&false)
        .then(|| arrow::buffer::NullBuffer::from(valid));
    match &plan.output {
        AnyTensorType::Fixed(t) => Ok(Arc::new(layout::tensor_array(t, out, nulls, rows)?)),
        AnyTensorType::Variable(t) => Ok(Arc::new(
            ragged::from_rows(t, out, &lengths, out_shapes, nulls).map_err(in_function)?,
        )),
    }
}

fn documentation(function: JoinFunction) -> Documentation {
    let (description, syntax, example, out, axis) = match function {
        JoinFunction::Stack => (
            "numpy's stack: the tensors, all of one shape, joined along a new axis (default 0). The result has numpy's common type of their element types and no dim_names. Shapes that differ are numpy's error: all input arrays must have the same shape (naming the row for variable-shape rows). A NULL in any argument gives a NULL row.",
            "tensor_stack(x, y [, ...] [, axis])",
            "tensor_stack(tensor([1, 2], [2]), tensor([3, 4], [2]), axis => 1)",
            "[[1, 3], [2, 4]]",
            Some(
                "A literal integer: the position of the new axis in the result (negative from the end); default 0. Given by name (axis => 1) or as the last argument.",
            ),
        ),
        JoinFunction::Concatenate | JoinFunction::Concat => (
            if function == JoinFunction::Concat {
                "The array API standard's concat (numpy's concatenate, as tensor_concatenate): the tensors joined along an existing axis (default 0), or, with axis NULL, flattened and joined. Every other dimension must match (numpy's error otherwise, naming the row for variable-shape rows). The result has numpy's common type of their element types; dim_names stay when every input has the same. A NULL in any argument gives a NULL row."
            } else {
                "numpy's concatenate: the tensors joined along an existing axis (default 0), or, with axis NULL, flattened and joined. Every other dimension must match (numpy's error otherwise, naming the row for variable-shape rows). The result has numpy's common type of their element types; dim_names stay when every input has the same. A NULL in any argument gives a NULL row."
            },
            if function == JoinFunction::Concat {
                "tensor_concat(x, y [, ...] [, axis])"
            } else {
                "tensor_concatenate(x, y [, ...] [, axis])"
            },
            if function == JoinFunction::Concat {
                "tensor_concat(tensor([1, 2, 3, 4], [2, 2]), tensor([5, 6], [1, 2]))"
            } else {
                "tensor_concatenate(tensor([1, 2, 3, 4], [2, 2]), tensor([5, 6], [1, 2]))"
            },
            "[[1, 2], [3, 4], [5, 6]]",
            Some(
                "A literal integer (negative from the end), default 0; NULL: the inputs flattened. Given by name (axis => 1) or as the last argument.",
            ),
        ),
        JoinFunction::HStack => (
            "numpy's hstack: the tensors joined along axis 1, or along axis 0 when they are 1-d (each read as numpy's atleast_1d: a 0-d tensor as one element). Every other dimension must match (numpy's concatenate error otherwise). The result has numpy's common type of their element types. A NULL in any argument gives a NULL row.",
            "tensor_hstack(x, y [, ...])",
            "tensor_hstack(tensor([1, 2, 3, 4], [2, 2]), tensor([5, 6], [2, 1]))",
            "[[1, 2, 5], [3, 4, 6]]",
            None,
        ),
        JoinFunction::VStack => (
            "numpy's vstack: the tensors joined along axis 0, each read as numpy's atleast_2d (a 1-d tensor of n elements as a 1 x n matrix, a 0-d one as 1 x 1). Every other dimension must match (numpy's concatenate error otherwise). The result has numpy's common type of their element types. A NULL in any argument gives a NULL row.",
            "tensor_vstack(x, y [, ...])",
            "tensor_vstack([1, 2], tensor([3, 4, 5, 6], [2, 2]))",
            "[[1, 2], [3, 4], [5, 6]]",
            None,
        ),
    };
    let builder = crate::udf::documented(
        description,
        syntax,
    )
    .with_sql_example(crate::udf::sql_example(example, out))
    .with_argument(
        "x, y, ...",
        "Tensors (fixed- or variable-shape, or list literals), each read in its logical layout; each variable-shape row in its own shape.",
    )
    ;
    match axis {
        Some(axis) => builder.with_argument("axis", axis).build(),
        None => builder.build(),
    }
}
