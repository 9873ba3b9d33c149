//! `tensor_broadcast_arrays(x, y, ...)` and `tensor_meshgrid(x1, x2, ... [, indexing] [, sparse])`:
//! numpy's `broadcast_arrays` and `meshgrid` (the array API standard's both). numpy returns a
//! list of arrays; here the result is a struct with one tensor field per input, named `0`,
//! `1`, ... (`tensor_meshgrid(x, y)['1']` is numpy's `np.meshgrid(x, y)[1]`), as
//! `tensor_split`'s parts are, each part keeping its input's element type.
//!
//! Every part gathers its input: one layout per combination of row shapes
//! ([`gather_parts`]), so fixed-shape inputs compile once and variable-shape rows each in
//! their own shapes. A row NULL in any input is NULL in the struct and in every part, since
//! its shape is unknown.

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, StructArray, UInt32Array};
use arrow::compute::take;
use arrow::datatypes::{DataType, Field, FieldRef, Fields};
use datafusion::common::{ScalarValue, plan_err};
use datafusion::error::Result;
use datafusion::logical_expr::{ColumnarValue, Documentation};

use crate::error::TensorError;
use crate::kernels::broadcast::{PartLayout, gather_parts};
use crate::kernels::rows::RowTensor;
use crate::kernels::shape::union_nulls;
use crate::kernels::{layout, ragged, rows::pad_null_rows};
use crate::limits::Limits;
use crate::shape::{broadcast_offsets, broadcast_shapes, strided_offsets};
use crate::udf::rows::{broadcast_known, known_shape, output_of_known, row_tensor, view_of};
use crate::udf::{Parameters, PlanArgs, TensorFunction, map_arrays};
use crate::variable_shape::{AnyTensorType, VariableShapeArray};

/// The functions whose parts are their inputs gathered into one shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PartsFunction {
    /// `tensor_broadcast_arrays`: numpy's `broadcast_arrays`.
    BroadcastArrays,
    /// `tensor_meshgrid`: numpy's `meshgrid`.
    Meshgrid,
}

impl PartsFunction {
    fn name(self) -> &'static str {
        match self {
            Self::BroadcastArrays => "tensor_broadcast_arrays",
            Self::Meshgrid => "tensor_meshgrid",
        }
    }
}

/// `tensor_broadcast_arrays` or `tensor_meshgrid`.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct TensorParts {
    function: PartsFunction,
    documentation: Documentation,
}

impl TensorParts {
    /// The registered instance of `function`.
    pub fn new(function: PartsFunction) -> Self {
        Self {
            function,
            documentation: documentation(function),
        }
    }
}

/// How each input becomes its part.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Gather {
    /// Broadcast to the inputs' common shape.
    Broadcast,
    /// numpy's `meshgrid`: input `k` flattened onto axis `k` (the first two swapped for
    /// `'xy'` indexing), then broadcast (or left at length 1 elsewhere: `sparse`).
    Mesh { xy: bool, sparse: bool },
}

/// A compiled call.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct PartsPlan {
    data_args: usize,
    inputs: Vec<AnyTensorType>,
    parts: Vec<AnyTensorType>,
    fields: Fields,
    gather: Gather,
    limits: Limits,
}

impl TensorFunction for TensorParts {
    type Plan = PartsPlan;

    fn name(&self) -> &'static str {
        self.function.name()
    }

    fn parameters(&self) -> Parameters {
        match self.function {
            PartsFunction::BroadcastArrays => Parameters::Variadic { options: &[] },
            PartsFunction::Meshgrid => Parameters::Variadic {
                options: &["indexing", "sparse"],
            },
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
            // numpy returns an empty list, which has no struct of tensors to stand for it.
            return plan_err!("{}: needs at least one tensor", self.name());
        }
        Ok(arg_types.to_vec())
    }

    fn plan(&self, args: &PlanArgs<'_>) -> Result<PartsPlan> {
        let name = args.name;
        let types: Vec<DataType> = args.fields.iter().map(|f| f.data_type().clone()).collect();
        let n = self.data_args(&types);
        let inputs = (0..n)
            .map(|i| args.any_tensor(i, &(i + 1).to_string()))
            .collect::<Result<Vec<_>>>()?;
        let known: Vec<Vec<Option<usize>>> = inputs.iter().map(known_shape).collect();
        let (gather, shapes) = match self.function {
            PartsFunction::BroadcastArrays => (Gather::Broadcast, broadcast_plan(name, &known)?),
            PartsFunction::Meshgrid => {
                let (xy, sparse) = mesh_options(args, n)?;
                let lengths: Vec<Option<usize>> = known
                    .iter()
                    .map(|k| k.iter().copied().product::<Option<usize>>())
                    .collect();
                let shapes = (0..n)
                    .map(|k| mesh_shape(&lengths, k, xy, sparse, Some(1)))
                    .collect();
                (Gather::Mesh { xy, sparse }, shapes)
            }
        };
        let mut parts = Vec::with_capacity(n);
        let mut fields = Vec::with_capacity(n);
        for (k, (input, shape)) in inputs.iter().zip(&shapes).enumerate() {
            // dim_names stay on a part with the input's own axes (broadcast, no axis added).
            let names = match (gather, input) {
                (Gather::Broadcast, AnyTensorType::Fixed(t)) if t.ndim() == shape.len() => {
                    t.logical_dim_names()
                }
                (Gather::Broadcast, AnyTensorType::Variable(t)) if t.ndim() == shape.len() => {
                    t.logical_dim_names()
                }
                _ => None,
            };
            let part = output_of_known(input.element_type(), shape, names)
                .map_err(|e| crate::udf::name_plan_error(name, e))?;
            fields.push(Arc::new(part.to_field(k.to_string())) as FieldRef);
            parts.push(part);
        }
        Ok(PartsPlan {
            data_args: n,
            inputs,
            parts,
            fields: fields.into(),
            gather,
            limits: args.limits,
        })
    }

    fn return_field(&self, plan: &PartsPlan) -> FieldRef {
        Arc::new(Field::new(
            self.name(),
            DataType::Struct(plan.fields.clone()),
            true,
        ))
    }

    fn invoke(
        &self,
        plan: &PartsPlan,
        args: &[ColumnarValue],
        number_rows: usize,
    ) -> Result<ColumnarValue> {
        let name = self.name();
        let data: Vec<usize> = (0..plan.data_args).collect();
        map_arrays(args, &data, number_rows, |arrays| {
            gather_batch(name, plan, arrays)
        })
    }
}

impl TensorParts {
    /// How many leading arguments are data: all of `broadcast_arrays`'; `meshgrid`'s trailing
    /// strings (`indexing`) and booleans (`sparse`) are its options.
    fn data_args(&self, arg_types: &[DataType]) -> usize {
        match self.function {
            PartsFunction::BroadcastArrays => arg_types.len(),
            PartsFunction::Meshgrid => {
                let options = arg_types
                    .iter()
                    .rev()
                    .take(2)
                    .take_while(|t| {
                        matches!(
                            t,
                            DataType::Utf8
                                | DataType::LargeUtf8
                                | DataType::Utf8View
                                | DataType::Boolean
                        )
                    })
                    .count();
                arg_types.len() - options
            }
        }
    }
}

/// The parts' shapes of `broadcast_arrays`: the inputs' common shape, exactly when every
/// input's is known (numpy's error when they do not broadcast), else the dimensions every row
/// has.
fn broadcast_plan(name: &str, known: &[Vec<Option<usize>>]) -> Result<Vec<Vec<Option<usize>>>> {
    let shape = match known
        .iter()
        .map(|k| k.iter().copied().collect::<Option<Vec<usize>>>())
        .collect::<Option<Vec<Vec<usize>>>>()
    {
        Some(shapes) => {
            let refs: Vec<&[usize]> = shapes.iter().map(Vec::as_slice).collect();
            match broadcast_shapes(&refs) {
                Ok(shape) => shape.into_iter().map(Some).collect(),
                Err(e) => return plan_err!("{name}: {e}"),
            }
        }
        None => broadcast_known(name, known)?,
    };
    Ok(vec![shape; known.len()])
}

/// `meshgrid`'s options after its `n` data arguments: `indexing` (`'xy'`, the default, or
/// `'ij'`) and `sparse` (default false), told apart by type.
fn mesh_options(args: &PlanArgs<'_>, n: usize) -> Result<(bool, bool)> {
    let name = args.name;
    let (mut xy, mut sparse) = (None, None);
    for i in n..args.fields.len() {
        match (args.fields[i].data_type(), args.literal(i)) {
            (DataType::Boolean, Some(ScalarValue::Boolean(value))) if sparse.is_none() => {
                sparse = Some(value.unwrap_or(false));
            }
            (DataType::Boolean, _) if sparse.is_none() => {
                return plan_err!("{name}: argument sparse must be a literal boolean");
            }
            (DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View, literal)
                if xy.is_none() =>
            {
                let text = literal.and_then(|v| match v {
                    ScalarValue::Utf8(s) | ScalarValue::LargeUtf8(s) | ScalarValue::Utf8View(s) => {
                        s.as_deref()
                    }
                    _ => None,
                });
                xy = Some(match text {
                    Some("xy") => true,
                    Some("ij") => false,
                    // numpy's ValueError
                    _ => {
                        return plan_err!("{name}: Valid values for `indexing` are 'xy' and 'ij'.");
                    }
                });
            }
            (other, _) => {
                return plan_err!(
                    "{name}: unexpected argument {} of type {other}: the options are indexing (a string) and sparse (a boolean), each once, after the tensors",
                    i + 1
                );
            }
        }
    }
    Ok((xy.unwrap_or(true), sparse.unwrap_or(false)))
}

/// The axis input `k` of `n` lies along in `meshgrid`'s result: its own, the first two swapped
/// for `'xy'` indexing of at least two inputs.
fn mesh_axis(k: usize, n: usize, xy: bool) -> usize {
    match k {
        0 | 1 if xy && n > 1 => 1 - k,
        _ => k,
    }
}

/// Part `k`'s shape of `meshgrid` of inputs of `lengths` elements: every input's length on
/// its axis (or, `sparse`, input `k`'s alone, `one` elsewhere).
fn mesh_shape<T: Copy>(lengths: &[T], k: usize, xy: bool, sparse: bool, one: T) -> Vec<T> {
    let n = lengths.len();
    let mut shape = vec![one; n];
    for (j, &length) in lengths.iter().enumerate() {
        if !sparse || j == k {
            shape[mesh_axis(j, n, xy)] = length;
        }
    }
    shape
}

/// The parts' layouts in one combination of row shapes (`layouts`: each input's logical shape
/// and strides).
fn compile(
    gather: Gather,
    layouts: &[(Vec<usize>, Vec<usize>)],
    limits: &Limits,
) -> std::result::Result<Vec<PartLayout>, TensorError> {
    match gather {
        Gather::Broadcast => {
            let shapes: Vec<&[usize]> = layouts.iter().map(|(s, _)| s.as_slice()).collect();
            let shape = broadcast_shapes(&shapes)?;
            limits.checked_size(&shape)?;
            Ok(layouts
                .iter()
                .map(|(s, strides)| PartLayout {
                    offsets: broadcast_offsets(s, strides, &shape),
                    shape: shape.clone(),
                })
                .collect())
        }
        Gather::Mesh { xy, sparse } => {
            let n = layouts.len();
            let flat: Vec<Vec<usize>> = layouts
                .iter()
                .map(|(s, strides)| strided_offsets(s, strides))
                .collect();
            let lengths: Vec<usize> = flat.iter().map(Vec::len).collect();
            let full = mesh_shape(&lengths, 0, xy, false, 1);
            limits.checked_size(&full)?;
            Ok(flat
                .iter()
                .enumerate()
                .map(|(k, flat)| {
                    let shape = mesh_shape(&lengths, k, xy, sparse, 1);
                    // Input k as a tensor of length `lengths[k]` along its axis: element i at
                    // flat[i].
                    let mut own = vec![1; n];
                    let mut strides = vec![0; n];
                    own[mesh_axis(k, n, xy)] = lengths[k];
                    strides[mesh_axis(k, n, xy)] = 1;
                    let offsets = broadcast_offsets(&own, &strides, &shape)
                        .into_iter()
                        .map(|i| flat[i as usize] as u32)
                        .collect();
                    PartLayout { shape, offsets }
                })
                .collect())
        }
    }
}

/// One batch: every part gathered, as a struct.
fn gather_batch(name: &str, plan: &PartsPlan, arrays: &[ArrayRef]) -> Result<ArrayRef> {
    let rows = arrays.first().map_or(0, Array::len);
    let views: Vec<Option<VariableShapeArray<'_>>> = plan
        .inputs
        .iter()
        .zip(arrays)
        .map(|(t, a)| view_of(name, t, a))
        .collect::<Result<_>>()?;
    let readers: Vec<RowTensor<'_>> = plan
        .inputs
        .iter()
        .zip(arrays)
        .zip(&views)
        .map(|((t, a), v)| row_tensor(name, t, a, v.as_ref(), false))
        .collect::<Result<_>>()?;
    let nulls = union_nulls(readers.iter().map(RowTensor::nulls));
    let refs: Vec<&RowTensor<'_>> = readers.iter().collect();
    let ndims: Vec<usize> = plan.parts.iter().map(AnyTensorType::ndim).collect();
    let in_function = |e: TensorError| e.in_function(name);
    let gathered = gather_parts(&refs, nulls.as_ref(), rows, &ndims, |layouts| {
        compile(plan.gather, layouts, &plan.limits)
    })
    .map_err(in_function)?;
    let mut columns = Vec::with_capacity(gathered.len());
    for ((part, reader), output) in gathered.into_iter().zip(&readers).zip(&plan.parts) {
        let values = take(
            reader.values().as_ref(),
            &UInt32Array::from(part.positions),
            None,
        )?;
        let column: ArrayRef = match output {
            AnyTensorType::Fixed(output) => {
                let values = pad_null_rows(values, output.size(), rows, nulls.as_ref())
                    .map_err(in_function)?;
                Arc::new(layout::tensor_array(output, values, nulls.clone(), rows)?)
            }
            AnyTensorType::Variable(output) => Arc::new(
                ragged::from_rows(output, values, &part.lengths, part.shapes, nulls.clone())
                    .map_err(in_function)?,
            ),
        };
        columns.push(column);
    }
    let out = StructArray::try_new_with_length(plan.fields.clone(), columns, nulls, rows)?;
    Ok(Arc::new(out))
}

fn documentation(function: PartsFunction) -> Documentation {
    let (description, syntax, example, output) = match function {
        PartsFunction::BroadcastArrays => (
            "numpy's broadcast_arrays: every tensor broadcast to their common shape (numpy's broadcasting; numpy's error 'shape mismatch: objects cannot be broadcast to a single shape' otherwise, naming the row where the shapes vary by row). The result is a struct of the broadcast tensors, fields '0', '1', ..., each of its input's element type; fixed- and variable-shape, numbers as 0-d tensors. A row NULL in any input is NULL.",
            "tensor_broadcast_arrays(x1, x2, ...)",
            "tensor_broadcast_arrays(tensor([1, 2, 3], [1, 3]), tensor([10, 20], [2, 1]))['1']",
            "[[10, 10, 10], [20, 20, 20]]",
        ),
        PartsFunction::Meshgrid => (
            "numpy's meshgrid: coordinate tensors from coordinate vectors (each input flattened). With n inputs of lengths N1, ..., Nn, every part has shape (N2, N1, N3, ..., Nn) under 'xy' indexing (the default) or (N1, N2, ..., Nn) under 'ij'; part k repeats input k along its axis. sparse => true keeps each part at length 1 on the other axes. The result is a struct of the parts, fields '0', '1', ...; fixed- and variable-shape. A row NULL in any input is NULL.",
            "tensor_meshgrid(x1, x2, ... [, indexing] [, sparse])",
            "tensor_meshgrid([1, 2, 3], [4, 5])['0']",
            "[[1, 2, 3], [1, 2, 3]]",
        ),
    };
    let builder = crate::udf::tensor_documentation(description, syntax.to_string(), example, output)
        .with_argument(
            "x1, x2, ...",
            "Tensors (arrow.fixed_shape_tensor, arrow.variable_shape_tensor, FixedSizeList or list literals), read in their logical layouts.",
        );
    match function {
        PartsFunction::BroadcastArrays => builder.build(),
        PartsFunction::Meshgrid => builder
            .with_argument(
                "indexing",
                "'xy' (Cartesian, the default) or 'ij' (matrix), after the tensors (indexing => 'ij').",
            )
            .with_argument(
                "sparse",
                "A literal boolean, default false: each part of length 1 on every axis but its own.",
            )
            .build(),
    }
}
