//! `tensor_split(x, indices_or_sections [, axis])`, `tensor_array_split(...)` and
//! `tensor_unstack(x [, axis])`: numpy's `split`, `array_split` and (numpy 2.1, the array API
//! standard's) `unstack`. numpy returns a list of arrays; here the result is a struct with one
//! tensor field per part, named `0`, `1`, ... (`tensor_split(x, 2)['1']` is numpy's
//! `np.split(x, 2)[1]`), so each part keeps its own shape and type. The number of parts is
//! the call's (sections, indices) or, for `unstack`, the length of the axis, which must then
//! be known when the query is planned.
//!
//! Each part is a [`Manipulation`] compiled as the one-tensor shape functions compile theirs
//! (a gather once per shape; variable-shape rows each in their own shape, where `split`'s
//! equal division is checked row by row).

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, StructArray};
use arrow::datatypes::{DataType, Field, FieldRef, Fields};
use datafusion::common::plan_err;
use datafusion::error::Result;
use datafusion::logical_expr::{ColumnarValue, Documentation};

use super::args::{AxisArg, axis_arg, literal_integer, normalize_axis};
use super::{ShapeCall, plan_fixed, run_call, variable};
use crate::kernels::manipulate::{Division, Manipulation};
use crate::kernels::shape::ShapeOp;
use crate::udf::{Parameters, PlanArgs, TensorFunction, literal_int_list, map_arrays};
use crate::variable_shape::AnyTensorType;

/// The most parts a call may have (a struct field each).
const MAX_PARTS: usize = 10_000;

/// The functions that split a tensor into parts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SplitFunction {
    /// `tensor_split`: numpy's `split` (equal sections, or at indices).
    Split,
    /// `tensor_array_split`: numpy's `array_split` (the first sections one longer).
    ArraySplit,
    /// `tensor_unstack`: the array API standard's `unstack` (one part per element along
    /// the axis, the axis dropped).
    Unstack,
}

impl SplitFunction {
    /// Every function, in registration order.
    pub const ALL: [Self; 3] = [Self::Split, Self::ArraySplit, Self::Unstack];

    fn name(self) -> &'static str {
        match self {
            Self::Split => "tensor_split",
            Self::ArraySplit => "tensor_array_split",
            Self::Unstack => "tensor_unstack",
        }
    }
}

/// A splitting function.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct TensorSplit {
    function: SplitFunction,
    documentation: Documentation,
}

impl TensorSplit {
    /// The registered instance of `function`.
    pub fn new(function: SplitFunction) -> Self {
        Self {
            function,
            documentation: documentation(function),
        }
    }
}

/// A compiled call: one shape call per part.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct SplitPlan {
    parts: Vec<ShapeCall>,
    fields: Fields,
}

impl TensorFunction for TensorSplit {
    type Plan = SplitPlan;

    fn name(&self) -> &'static str {
        self.function.name()
    }

    fn parameters(&self) -> Parameters {
        match self.function {
            SplitFunction::Unstack => Parameters::Fixed {
                names: &["x", "axis"],
                required: 1,
            },
            _ => Parameters::Fixed {
                names: &["x", "indices_or_sections", "axis"],
                required: 2,
            },
        }
    }

    fn documentation(&self) -> Option<&Documentation> {
        Some(&self.documentation)
    }

    fn tensor_arguments(&self, _arg_types: &[DataType]) -> Vec<usize> {
        vec![0]
    }

    fn plan(&self, args: &PlanArgs<'_>) -> Result<SplitPlan> {
        let name = args.name;
        let input = args.any_tensor(0, "x")?;
        let ndim = input.ndim();
        let known = match &input {
            AnyTensorType::Fixed(t) => t.logical_shape().into_iter().map(Some).collect(),
            AnyTensorType::Variable(t) => t.logical_uniform_shape(),
        };
        let axis_at = if self.function == SplitFunction::Unstack {
            1
        } else {
            2
        };
        if ndim == 0 {
            return match self.function {
                // numpy: ValueError
                SplitFunction::Unstack => plan_err!("{name}: Input array must be at least 1-d."),
                // numpy: IndexError (ary.shape[axis] of a 0-d array)
                _ => plan_err!("{name}: tuple index out of range"),
            };
        }
        let axis = match axis_arg(args, axis_at, "axis", false)? {
            AxisArg::Omitted => 0,
            // numpy's split reads `ary.shape[axis]`: IndexError
            AxisArg::One(a) if self.function != SplitFunction::Unstack => {
                match crate::index::wrap_index(a, ndim) {
                    Some(a) => a,
                    None => return plan_err!("{name}: tuple index out of range"),
                }
            }
            AxisArg::One(a) => normalize_axis(name, a, ndim)?,
            AxisArg::List(_) => {
                return plan_err!("{name}: argument axis must be a literal integer");
            }
        };
        let manipulations: Vec<Manipulation> = match self.function {
            SplitFunction::Unstack => {
                let Some(n) = known[axis] else {
                    return plan_err!(
                        "{name}: the length of axis {axis} varies by row (the variable-shape tensor's uniform_shape does not fix it), but the result has one field per element along it: give it with tensor_to_fixed, or use tensor_split"
                    );
                };
                parts_check(name, n)?;
                (0..n as i64)
                    .map(|k| Manipulation::Take {
                        indices: vec![k],
                        scalar: true,
                        axis: Some(axis),
                    })
                    .collect()
            }
            _ => {
                let division = division(self.function, args)?;
                parts_check(name, division.parts())?;
                (0..division.parts())
                    .map(|part| Manipulation::Part {
                        division: division.clone(),
                        part,
                        axis,
                    })
                    .collect()
            }
        };
        let mut parts = Vec::with_capacity(manipulations.len());
        let mut fields = Vec::with_capacity(manipulations.len());
        for (k, m) in manipulations.into_iter().enumerate() {
            let op = ShapeOp::Manipulate(m);
            let call = match &input {
                AnyTensorType::Fixed(t) => plan_fixed(name, t.clone(), &op, &args.limits, None)?,
                AnyTensorType::Variable(t) => ShapeCall::Variable(variable::plan(
                    name,
                    t.clone(),
                    op,
                    &known,
                    args.limits,
                    None,
                )?),
            };
            let field: FieldRef = Arc::new(match &call {
                ShapeCall::Fixed { output, .. } => output.to_field(k.to_string()),
                ShapeCall::Variable(plan) => plan.output.to_field(k.to_string()),
                ShapeCall::Relabel { output, .. } => output.to_field(k.to_string()),
            });
            fields.push(field);
            parts.push(call);
        }
        Ok(SplitPlan {
            parts,
            fields: fields.into(),
        })
    }

    fn return_field(&self, plan: &SplitPlan) -> FieldRef {
        Arc::new(Field::new(
            self.name(),
            DataType::Struct(plan.fields.clone()),
            true,
        ))
    }

    fn invoke(
        &self,
        plan: &SplitPlan,
        args: &[ColumnarValue],
        number_rows: usize,
    ) -> Result<ColumnarValue> {
        let name = self.name();
        map_arrays(args, &[0], number_rows, |arrays| {
            let columns = plan
                .parts
                .iter()
                .map(|call| run_call(name, call, &arrays[0]))
                .collect::<Result<Vec<ArrayRef>>>()?;
            let nulls = arrays[0].logical_nulls();
            let out = StructArray::try_new_with_length(
                plan.fields.clone(),
                columns,
                nulls,
                arrays[0].len(),
            )?;
            Ok(Arc::new(out) as ArrayRef)
        })
    }
}

/// numpy's parts limit: a struct of more fields than [`MAX_PARTS`] is refused.
fn parts_check(name: &str, parts: usize) -> Result<()> {
    if parts > MAX_PARTS {
        return plan_err!(
            "{name}: {parts} parts is more than the {MAX_PARTS} fields a result may have"
        );
    }
    Ok(())
}

/// `indices_or_sections` (argument 1): an integer number of sections, or a list of indices.
fn division(function: SplitFunction, args: &PlanArgs<'_>) -> Result<Division> {
    let name = args.name;
    let literal = args.literal(1);
    if let Some(count) = literal.and_then(literal_integer) {
        if count == 0 && function == SplitFunction::Split {
            // numpy's split takes `N % sections` first: ZeroDivisionError
            return plan_err!("{name}: integer modulo by zero");
        }
        if count <= 0 {
            // numpy: ValueError
            return plan_err!("{name}: number sections must be larger than 0.");
        }
        return Ok(Division::Sections {
            count: usize::try_from(count).unwrap_or(usize::MAX),
            equal: function == SplitFunction::Split,
        });
    }
    if let Some(indices) = literal.and_then(literal_int_list) {
        return Ok(Division::Indices(indices));
    }
    plan_err!(
        "{name}: argument indices_or_sections must be a literal integer or a literal list of integers"
    )
}

fn documentation(function: SplitFunction) -> Documentation {
    let (description, syntax, example, output) = match function {
        SplitFunction::Split => (
            "numpy's split: x divided along axis (default 0) into equal sections (an integer: numpy's error 'array split does not result in an equal division' otherwise) or at indices (a list: Python's slices between them). The result is a struct of the parts, fields '0', '1', ..., each a tensor of its own shape; fixed- and variable-shape (each row divided in its own shape).",
            "tensor_split(x, indices_or_sections [, axis])",
            "tensor_split(tensor([1, 2, 3, 4, 5, 6], [6]), [1, 4])['1']",
            "[2, 3, 4]",
        ),
        SplitFunction::ArraySplit => (
            "numpy's array_split: tensor_split, but a number of sections need not divide the axis (the first n % sections parts are one element longer).",
            "tensor_array_split(x, indices_or_sections [, axis])",
            "tensor_array_split(tensor([1, 2, 3, 4, 5], [5]), 3)['0']",
            "[1, 2]",
        ),
        SplitFunction::Unstack => (
            "The array API standard's unstack (numpy 2.1's): one part per element along axis (default 0), the axis dropped, as a struct with fields '0', '1', ...; the axis's length must be known when the query is planned.",
            "tensor_unstack(x [, axis])",
            "tensor_unstack(tensor([1, 2, 3, 4, 5, 6], [2, 3]), 1)['2']",
            "[3, 6]",
        ),
    };
    let builder = crate::udf::tensor_documentation(description, syntax.to_string(), example, output)
        .with_argument(
            "x",
            "A tensor (arrow.fixed_shape_tensor, arrow.variable_shape_tensor or FixedSizeList), read in its logical layout.",
        );
    let builder = if function == SplitFunction::Unstack {
        builder
    } else {
        builder.with_argument(
            "indices_or_sections",
            "A literal integer (the number of sections, at least 1) or a literal list of indices along axis (negative from the end).",
        )
    };
    builder
        .with_argument(
            "axis",
            "A literal integer (negative from the end); default 0.",
        )
        .build()
}
