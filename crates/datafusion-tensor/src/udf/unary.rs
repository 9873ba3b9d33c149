//! numpy's elementwise unary functions (spec.md §9): `tensor_negative`, `tensor_abs`,
//! `tensor_sign`, `tensor_square`, `tensor_sqrt`, `tensor_exp`, `tensor_log`, `tensor_log1p`,
//! `tensor_expm1`, `tensor_sin`, `tensor_cos`, `tensor_tan`, `tensor_tanh`, `tensor_arctan`,
//! `tensor_floor`, `tensor_ceil`, `tensor_round(x, decimals)`, `tensor_clip(x, min, max)`,
//! `tensor_isnan`, `tensor_isinf`, `tensor_isfinite`, `tensor_logical_not`; the inverse and
//! hyperbolic functions (`tensor_arcsin` ... `tensor_arctanh`, `tensor_sinh`, `tensor_cosh`,
//! with the array API standard's names `tensor_asin` ... `tensor_atanh` beside numpy's),
//! `tensor_log2`, `tensor_log10`, `tensor_rint`, `tensor_trunc`, `tensor_positive`,
//! `tensor_reciprocal`, `tensor_signbit` and `tensor_invert` (`tensor_bitwise_invert`).
//!
//! The result has the input's shape, dim names and permutation (the values are mapped where
//! they are stored), numpy 2's element type; on a variable-shape tensor each row keeps its
//! shape. The element loops are [`crate::kernels::unary`]'s.

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, AsArray, ListArray, StructArray};
use arrow::datatypes::{DataType, Field, FieldRef};
use datafusion::common::{ScalarValue, exec_err, plan_err};
use datafusion::error::Result;
use datafusion::logical_expr::{ColumnarValue, Documentation};

use super::{Parameters, PlanArgs, TensorFunction, map_arrays, tensor_array};
use crate::dtype::{LiteralKind, literal_kind, result_type};
use crate::kernels::layout;
use crate::kernels::unary::{Bound, UnaryOp, apply};
use crate::tensor_type::{ITEM_FIELD_NAME, is_element_type};
use crate::variable_shape::AnyTensorType;

/// The SQL functions of this family: name, numpy's name, description.
const FUNCTIONS: [(&str, &str); 44] = [
    (
        "tensor_negative",
        "negative: -x (integers wrap; not for booleans)",
    ),
    (
        "tensor_abs",
        "absolute: |x| (integers wrap: abs of int8 -128 is -128)",
    ),
    (
        "tensor_sign",
        "sign: -1, 0 or 1 in x's type, NaN for NaN (not for booleans)",
    ),
    (
        "tensor_square",
        "square: x * x (integers wrap; booleans give int8)",
    ),
    ("tensor_sqrt", "sqrt"),
    ("tensor_exp", "exp"),
    ("tensor_log", "log (natural)"),
    ("tensor_log1p", "log1p: log(1 + x)"),
    ("tensor_expm1", "expm1: exp(x) - 1"),
    ("tensor_sin", "sin"),
    ("tensor_cos", "cos"),
    ("tensor_tan", "tan"),
    ("tensor_tanh", "tanh"),
    ("tensor_arctan", "arctan"),
    ("tensor_arcsin", "arcsin (NaN outside [-1, 1])"),
    ("tensor_arccos", "arccos (NaN outside [-1, 1])"),
    ("tensor_arcsinh", "arcsinh"),
    ("tensor_arccosh", "arccosh (NaN below 1)"),
    (
        "tensor_arctanh",
        "arctanh (NaN outside [-1, 1], infinite at -1 and 1)",
    ),
    ("tensor_sinh", "sinh"),
    ("tensor_cosh", "cosh"),
    ("tensor_log2", "log2"),
    ("tensor_log10", "log10"),
    (
        "tensor_asin",
        "asin (the array API standard's name of tensor_arcsin)",
    ),
    (
        "tensor_acos",
        "acos (the array API standard's name of tensor_arccos)",
    ),
    (
        "tensor_atan",
        "atan (the array API standard's name of tensor_arctan)",
    ),
    (
        "tensor_asinh",
        "asinh (the array API standard's name of tensor_arcsinh)",
    ),
    (
        "tensor_acosh",
        "acosh (the array API standard's name of tensor_arccosh)",
    ),
    (
        "tensor_atanh",
        "atanh (the array API standard's name of tensor_arctanh)",
    ),
    (
        "tensor_rint",
        "rint: to the nearest integer, ties to even, as a float (integers in their float type)",
    ),
    (
        "tensor_trunc",
        "trunc: towards zero (integers and booleans kept as they are)",
    ),
    ("tensor_positive", "positive: +x, a copy (not for booleans)"),
    (
        "tensor_reciprocal",
        "reciprocal: 1 / x (integers: 1.0 / x cast back, as numpy does: 0 for |x| > 1, and 1 / 0 the cast of infinity; booleans give int8)",
    ),
    (
        "tensor_signbit",
        "signbit: whether the sign bit is set (true for -0.0 and a negative NaN)",
    ),
    (
        "tensor_invert",
        "invert: ~x, bitwise not of integers, logical not of booleans (not for floats)",
    ),
    (
        "tensor_bitwise_invert",
        "bitwise_invert (the array API standard's name of tensor_invert): ~x",
    ),
    (
        "tensor_floor",
        "floor (integers and booleans kept as they are)",
    ),
    (
        "tensor_ceil",
        "ceil (integers and booleans kept as they are)",
    ),
    (
        "tensor_round",
        "round(x, decimals): to the nearest multiple of 10^-decimals, ties to even, in x's type",
    ),
    (
        "tensor_clip",
        "clip(x, min, max): x limited to [min, max] (NULL: no bound), NaN propagating; the type of x with the bounds as weak Python scalars (a float bound makes an integer x float64)",
    ),
    ("tensor_isnan", "isnan: whether each element is NaN"),
    ("tensor_isinf", "isinf: whether each element is infinite"),
    (
        "tensor_isfinite",
        "isfinite: whether each element is finite",
    ),
    (
        "tensor_logical_not",
        "logical_not: whether each element is zero (false)",
    ),
];

/// A unary function; `index` into [`FUNCTIONS`].
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct TensorUnary {
    index: usize,
    documentation: Documentation,
}

impl TensorUnary {
    /// Every function of the family, registered instances.
    pub fn all() -> Vec<Self> {
        (0..FUNCTIONS.len())
            .map(|index| Self {
                index,
                documentation: documentation(index),
            })
            .collect()
    }
}

/// The parameter names of the function `name`.
pub fn parameter_names(name: &str) -> &'static [&'static str] {
    match name {
        "tensor_round" => &["x", "decimals"],
        "tensor_clip" => &["x", "min", "max"],
        _ => &["x"],
    }
}

/// What each function's documented example shows (the CLI's tests run it).
fn example_output(name: &str) -> &'static str {
    match name {
        "tensor_round" => "[0.5, 1.5, 2.7]",
        "tensor_clip" => "[2, 5, 6]",
        "tensor_abs" | "tensor_positive" | "tensor_trunc" | "tensor_ceil" | "tensor_floor" => {
            "[1, 4, 9]"
        }
        "tensor_negative" => "[-1, -4, -9]",
        "tensor_sign" => "[1, 1, 1]",
        "tensor_sqrt" => "[1.0, 2.0, 3.0]",
        "tensor_exp" => "[2.718281828459045, 54.598150033144236, 8103.083927575384]",
        "tensor_log" => "[0.0, 1.3862943611198906, 2.1972245773362196]",
        "tensor_square" => "[1, 16, 81]",
        "tensor_cos" => "[0.5403023058681398, -0.6536436208636119, -0.9111302618846769]",
        "tensor_log1p" => "[0.6931471805599453, 1.6094379124341003, 2.302585092994046]",
        "tensor_sin" => "[0.8414709848078965, -0.7568024953079282, 0.4121184852417566]",
        "tensor_expm1" => "[1.718281828459045, 53.598150033144236, 8102.083927575384]",
        "tensor_tan" => "[1.5574077246549023, 1.1578212823495775, -0.45231565944180985]",
        "tensor_tanh" => "[0.7615941559557649, 0.999329299739067, 0.999999969540041]",
        "tensor_arcsin" | "tensor_asin" => "[0.0, 0.5235987755982989, 1.5707963267948966]",
        "tensor_arctan" | "tensor_atan" => {
            "[0.7853981633974483, 1.3258176636680326, 1.460139105621001]"
        }
        "tensor_arcsinh" | "tensor_asinh" => {
            "[0.881373587019543, 2.0947125472611012, 2.8934439858858716]"
        }
        "tensor_arccosh" | "tensor_acosh" => "[0.0, 2.0634370688955608, 2.8872709503576206]",
        "tensor_arccos" | "tensor_acos" => "[1.5707963267948966, 1.0471975511965979, 0.0]",
        "tensor_arctanh" | "tensor_atanh" => "[0.0, 0.5493061443340548, inf]",
        "tensor_sinh" => "[1.1752011936438014, 27.28991719712775, 4051.54190208279]",
        "tensor_log2" => "[0.0, 2.0, 3.169925001442312]",
        "tensor_log10" => "[0.0, 0.6020599913279624, 0.9542425094393249]",
        "tensor_cosh" => "[1.5430806348152437, 27.308232836016487, 4051.5420254925943]",
        "tensor_rint" => "[1.0, 4.0, 9.0]",
        "tensor_reciprocal" => "[1, 0, 0]",
        "tensor_signbit" | "tensor_logical_not" => "[true, false]",
        "tensor_invert" | "tensor_bitwise_invert" => "[-1, -2, 1]",
        "tensor_isfinite" => "[true, true]",
        "tensor_isinf" | "tensor_isnan" => "[false, false]",
        _ => "",
    }
}

fn documentation(index: usize) -> Documentation {
    let (name, what) = FUNCTIONS[index];
    let syntax = match name {
        "tensor_round" => format!("{name}(x [, decimals])"),
        "tensor_clip" => format!("{name}(x, min, max)"),
        _ => format!("{name}(x)"),
    };
    let call = match name {
        "tensor_round" => "tensor_round(tensor([0.5, 1.5, 2.675], [3]), 1)".to_string(),
        "tensor_clip" => "tensor_clip(tensor([1, 5, 9], [3]), 2, 6)".to_string(),
        "tensor_isnan" | "tensor_isinf" | "tensor_isfinite" | "tensor_logical_not"
        | "tensor_signbit" => format!("{name}(tensor([-0.0, 1.0], [2]))"),
        "tensor_arcsin" | "tensor_arccos" | "tensor_arctanh" | "tensor_asin" | "tensor_acos"
        | "tensor_atanh" => format!("{name}(tensor([0.0, 0.5, 1.0], [3]))"),
        "tensor_invert" | "tensor_bitwise_invert" => format!("{name}(tensor([0, 1, -2], [3]))"),
        _ => format!("{name}(tensor([1, 4, 9], [3]))"),
    };
    let mut builder = crate::udf::documented(
        format!(
            "numpy's {what}, element by element, in numpy 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64). The result keeps x's shape, dim names and permutation."
        ),
        syntax,
    )
    .with_sql_example(super::sql_example(&call, example_output(name)))
    .with_argument(
        "x",
        "A tensor (arrow.fixed_shape_tensor, arrow.variable_shape_tensor or FixedSizeList).",
    );
    if name == "tensor_round" {
        builder = builder.with_argument(
            "decimals",
            "A literal integer (default 0; negative: tens, hundreds, ...).",
        );
    }
    if name == "tensor_clip" {
        builder = builder
            .with_argument(
                "min",
                "A number: a literal (weak, kept exactly), NULL (no lower bound), a numeric column or a typed literal such as CAST('NaN' AS DOUBLE) (strong: numpy 2's result type of x and the bound; a NULL row gives NULL).",
            )
            .with_argument(
                "max",
                "A number: a literal, NULL (no upper bound), a numeric column or a typed literal, as min.",
            );
    }
    builder.build()
}

/// The operation of the function `name`, one without arguments but `x`.
fn simple_op(name: &str) -> UnaryOp {
    match name {
        "tensor_negative" => UnaryOp::Negative,
        "tensor_abs" => UnaryOp::Abs,
        "tensor_sign" => UnaryOp::Sign,
        "tensor_square" => UnaryOp::Square,
        "tensor_sqrt" => UnaryOp::Sqrt,
        "tensor_exp" => UnaryOp::Exp,
        "tensor_log" => UnaryOp::Log,
        "tensor_log1p" => UnaryOp::Log1p,
        "tensor_expm1" => UnaryOp::Expm1,
        "tensor_sin" => UnaryOp::Sin,
        "tensor_cos" => UnaryOp::Cos,
        "tensor_tan" => UnaryOp::Tan,
        "tensor_tanh" => UnaryOp::Tanh,
        "tensor_arctan" | "tensor_atan" => UnaryOp::Arctan,
        "tensor_arcsin" | "tensor_asin" => UnaryOp::Arcsin,
        "tensor_arccos" | "tensor_acos" => UnaryOp::Arccos,
        "tensor_arcsinh" | "tensor_asinh" => UnaryOp::Arcsinh,
        "tensor_arccosh" | "tensor_acosh" => UnaryOp::Arccosh,
        "tensor_arctanh" | "tensor_atanh" => UnaryOp::Arctanh,
        "tensor_sinh" => UnaryOp::Sinh,
        "tensor_cosh" => UnaryOp::Cosh,
        "tensor_log2" => UnaryOp::Log2,
        "tensor_log10" => UnaryOp::Log10,
        "tensor_rint" => UnaryOp::Rint,
        "tensor_trunc" => UnaryOp::Trunc,
        "tensor_positive" => UnaryOp::Positive,
        "tensor_reciprocal" => UnaryOp::Reciprocal,
        "tensor_signbit" => UnaryOp::Signbit,
        "tensor_invert" | "tensor_bitwise_invert" => UnaryOp::Invert,
        "tensor_floor" => UnaryOp::Floor,
        "tensor_ceil" => UnaryOp::Ceil,
        "tensor_isnan" => UnaryOp::IsNan,
        "tensor_isinf" => UnaryOp::IsInf,
        "tensor_isfinite" => UnaryOp::IsFinite,
        _ => UnaryOp::LogicalNot,
    }
}

/// A compiled call.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct UnaryPlan {
    op: UnaryOp,
    operand: UnaryOperand,
}

/// What a call maps: a tensor, or a plain number (a 0-d array, as `np.asarray(1.0)`).
#[derive(Debug, PartialEq, Eq, Hash)]
enum UnaryOperand {
    Tensor {
        input: AnyTensorType,
        output: AnyTensorType,
    },
    /// A numeric or Boolean column or literal of element type `input` (a SQL integer literal
    /// is an Int64 and a float one a Float64: numpy's types of Python's numbers).
    Number { input: DataType, output: DataType },
    /// `tensor_clip` with a bound that is a column or a typed literal: numpy's two binary
    /// steps ([`crate::udf::math::plan_clip`]).
    Clipped(Box<crate::udf::math::ClipSteps>),
}

/// The element types of a call that maps no values.
static NO_TYPE: DataType = DataType::Null;

impl UnaryPlan {
    fn element_types(&self) -> (&DataType, &DataType) {
        match &self.operand {
            UnaryOperand::Tensor { input, output } => (input.element_type(), output.element_type()),
            UnaryOperand::Number { input, output } => (input, output),
            // Run by its steps ([`TensorUnary::invoke`]), never mapped.
            UnaryOperand::Clipped(_) => (&NO_TYPE, &NO_TYPE),
        }
    }
}

fn integer_literal(value: &ScalarValue) -> Option<i64> {
    if !value.data_type().is_integer() {
        return None;
    }
    match value.cast_to(&DataType::Int64).ok()? {
        ScalarValue::Int64(v) => v,
        _ => None,
    }
}

/// A `clip` bound: a literal number (kept exactly) or NULL.
fn bound(
    name: &str,
    arg: &str,
    args: &PlanArgs<'_>,
    i: usize,
) -> Result<Option<(Bound, LiteralKind)>> {
    let null_type = args
        .fields
        .get(i)
        .is_none_or(|f| *f.data_type() == DataType::Null);
    let value = args.literal(i);
    if null_type || value.is_some_and(ScalarValue::is_null) {
        return Ok(None);
    }
    let Some(value) = value else {
        return plan_err!("{name}: argument {arg} must be a literal number or NULL");
    };
    let kind = literal_kind(value);
    let exact = match kind {
        Some(LiteralKind::Int | LiteralKind::Bool) => value
            .cast_to(&DataType::Decimal128(38, 0))
            .ok()
            .and_then(|v| match v {
                ScalarValue::Decimal128(Some(v), _, _) => Some(Bound::Int(v)),
                _ => None,
            }),
        Some(LiteralKind::Float) => match value.cast_to(&DataType::Float64).ok() {
            Some(ScalarValue::Float64(Some(v))) => Some(Bound::Float(v.to_bits())),
            _ => None,
        },
        None => None,
    };
    match (exact, kind) {
        (Some(bound), Some(kind)) => Ok(Some((bound, kind))),
        _ => plan_err!(
            "{name}: argument {arg} must be a literal number or NULL, got {}",
            value.data_type()
        ),
    }
}

impl TensorFunction for TensorUnary {
    type Plan = UnaryPlan;

    fn name(&self) -> &'static str {
        FUNCTIONS[self.index].0
    }

    fn parameters(&self) -> Parameters {
        // numpy 2: `round(a, decimals=0)`, `clip(a, min=None, max=None)` (either bound alone, as
        // `tensor_clip(x, max => 6)`; a skipped one is NULL: no bound).
        Parameters::Fixed {
            names: parameter_names(self.name()),
            required: 1,
        }
    }

    fn documentation(&self) -> Option<&Documentation> {
        Some(&self.documentation)
    }

    /// Numbers are read as this function's own operands.
    fn numbers_as_tensors(&self) -> bool {
        false
    }

    fn tensor_arguments(&self, _arg_types: &[DataType]) -> Vec<usize> {
        vec![0]
    }

    fn plan(&self, args: &PlanArgs<'_>) -> Result<UnaryPlan> {
        let name = self.name();
        let number = args
            .fields
            .first()
            .map(|f| f.data_type().clone())
            .filter(|t| is_element_type(t) && args.fields[0].metadata().is_empty());
        let input = match &number {
            Some(_) => None,
            None => Some(args.any_tensor(0, "x")?),
        };
        let element = match (&input, number) {
            (Some(input), _) => input.element_type().clone(),
            (None, Some(number)) => number,
            (None, None) => return plan_err!("{name}: argument x is missing"),
        };
        let op = match name {
            "tensor_round" => {
                let decimals = match args.literal(1) {
                    None if args.fields.len() < 2 => 0,
                    Some(v) if v.is_null() => 0,
                    Some(v) => match integer_literal(v) {
                        Some(d) => d,
                        None => {
                            return plan_err!(
                                "{name}: argument decimals must be a literal integer"
                            );
                        }
                    },
                    None if *args.fields[1].data_type() == DataType::Null => 0,
                    None => {
                        return plan_err!("{name}: argument decimals must be a literal integer");
                    }
                };
                UnaryOp::Round(decimals)
            }
            "tensor_clip" => {
                if let Some(steps) = crate::udf::math::plan_clip(args)? {
                    return Ok(UnaryPlan {
                        op: UnaryOp::Clip(None, None),
                        operand: UnaryOperand::Clipped(Box::new(steps)),
                    });
                }
                let lo = bound(name, "min", args, 1)?;
                let hi = bound(name, "max", args, 2)?;
                UnaryOp::Clip(lo.map(|b| b.0), hi.map(|b| b.0))
            }
            other => simple_op(other),
        };
        let result = if let UnaryOp::Clip(..) = op {
            let kinds: Vec<LiteralKind> = [1, 2]
                .iter()
                .filter_map(|&i| bound(name, "min", args, i).ok().flatten().map(|b| b.1))
                .collect();
            match result_type(std::slice::from_ref(&element), &kinds) {
                Some(t) => t,
                None => return plan_err!("{name}: no common type of {element} and the bounds"),
            }
        } else {
            match op.result_type(&element) {
                Ok(t) => t,
                Err(message) => return plan_err!("{name}: {message}"),
            }
        };
        let operand = match input {
            Some(input) => UnaryOperand::Tensor {
                output: input.with_element_type(result)?,
                input,
            },
            None => UnaryOperand::Number {
                input: element,
                output: result,
            },
        };
        Ok(UnaryPlan { op, operand })
    }

    fn return_field(&self, plan: &UnaryPlan) -> FieldRef {
        match &plan.operand {
            UnaryOperand::Tensor { output, .. } => Arc::new(output.to_field(self.name())),
            UnaryOperand::Number { output, .. } => {
                Arc::new(Field::new(self.name(), output.clone(), true))
            }
            UnaryOperand::Clipped(steps) => Arc::new(steps.output_field(self.name())),
        }
    }

    fn invoke(
        &self,
        plan: &UnaryPlan,
        args: &[ColumnarValue],
        number_rows: usize,
    ) -> Result<ColumnarValue> {
        let name = self.name();
        if let UnaryOperand::Clipped(steps) = &plan.operand {
            return steps.invoke(name, args, number_rows);
        }
        let (element, result) = plan.element_types();
        let map = |values: &ArrayRef| {
            apply(plan.op, element, values, result).map_err(|e| e.in_function(name))
        };
        map_arrays(args, &[0], number_rows, |arrays| match &plan.operand {
            UnaryOperand::Tensor { output, .. } => map_tensor_values(name, output, &arrays[0], map),
            // A column of numbers is its own values buffer (its NULLs the elements').
            UnaryOperand::Number { .. } => map(&arrays[0]),
            UnaryOperand::Clipped(_) => exec_err!("{name}: a clip with column bounds has steps"),
        })
    }
}

/// `array` (a tensor column) with its element values mapped by `map` into `output`'s element
/// type: a fixed-shape tensor's values buffer, or a variable-shape tensor's data list values
/// (offsets, shapes and NULLs kept). The elementwise functions of one argument share it.
pub(crate) fn map_tensor_values(
    name: &str,
    output: &AnyTensorType,
    array: &ArrayRef,
    map: impl Fn(&ArrayRef) -> Result<ArrayRef>,
) -> Result<ArrayRef> {
    let arrays = std::slice::from_ref(array);
    match output {
        AnyTensorType::Fixed(output) => {
            let input = tensor_array(name, &arrays[0])?;
            let out = map(input.values())?;
            Ok(Arc::new(layout::tensor_array(
                output,
                out,
                input.nulls().cloned(),
                input.len(),
            )?) as ArrayRef)
        }
        AnyTensorType::Variable(output) => {
            // The data list's values mapped, its offsets, the shapes and NULLs kept.
            let Some(storage) = arrays[0].as_struct_opt() else {
                return exec_err!(
                    "{name}: expected a variable-shape tensor's storage, got {}",
                    arrays[0].data_type()
                );
            };
            let (Some(data), Some(shape), DataType::Struct(fields)) = (
                storage
                    .column_by_name("data")
                    .and_then(|c| c.as_list_opt::<i32>()),
                storage.column_by_name("shape"),
                output.storage_type(),
            ) else {
                return exec_err!(
                    "{name}: expected a variable-shape tensor's storage, got {}",
                    arrays[0].data_type()
                );
            };
            let values = map(data.values())?;
            variable_storage(
                fields,
                data.offsets().clone(),
                values,
                data.nulls().cloned(),
                shape,
                storage.nulls().cloned(),
            )
        }
    }
}

/// A variable-shape tensor column's storage of `fields` from its data list's parts (its
/// values of any element type) and its shape column, cast to the shape type `fields` name (a
/// Parquet file's list may call its items `element`).
pub(crate) fn variable_storage(
    fields: arrow::datatypes::Fields,
    offsets: arrow::buffer::OffsetBuffer<i32>,
    values: ArrayRef,
    data_nulls: Option<arrow::buffer::NullBuffer>,
    shape: &ArrayRef,
    nulls: Option<arrow::buffer::NullBuffer>,
) -> Result<ArrayRef> {
    let data = ListArray::try_new(
        Arc::new(Field::new(
            ITEM_FIELD_NAME,
            values.data_type().clone(),
            true,
        )),
        offsets,
        values,
        data_nulls,
    )?;
    let shape = match fields.iter().find(|f| f.name() == "shape") {
        Some(field) => arrow::compute::cast(shape, field.data_type())?,
        None => Arc::clone(shape),
    };
    Ok(Arc::new(StructArray::try_new(
        fields,
        vec![Arc::new(data), shape],
        nulls,
    )?) as ArrayRef)
}
