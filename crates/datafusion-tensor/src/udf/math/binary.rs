//! `tensor_add`, `tensor_subtract`, ... `tensor_logical_xor`: numpy's binary ufuncs (spec.md §9),
//! one [`TensorFunction`] parameterised by the operation. Operands are tensors (fixed-shape,
//! any permutation), list literals (arrays), numeric columns (strong 0-d arrays) or number
//! literals (weak, NEP 50); shapes broadcast by numpy's rules when the query is planned, and
//! the result types are numpy 2's ([`super::promote`]). The result is row-major, NULL where
//! an operand's row is.

use std::sync::Arc;

use arrow::array::{ArrayRef, AsArray, FixedSizeListArray, new_null_array};
use arrow::buffer::NullBuffer;
use arrow::datatypes::{DataType, Field, FieldRef};
use datafusion::error::Result;
use datafusion::logical_expr::{ColumnarValue, Documentation};

use super::operands::{Operand, all_scalar, batch_input, broadcast, finish, result_dim_names};
use super::promote::binary_types;
use super::ragged;
use crate::kernels::elementwise::{self, BinaryOp, Runs};
use crate::kernels::layout::output_rows;
use crate::limits::Limits;
use crate::tensor_type::TensorType;
use crate::udf::{Parameters, PlanArgs, TensorFunction};
use crate::variable_shape::VariableShapeType;
use datafusion::common::{ScalarValue, exec_err};

/// Every binary operation, in the order they are registered.
pub const BINARY_OPS: [BinaryOp; 31] = [
    BinaryOp::Add,
    BinaryOp::Subtract,
    BinaryOp::Multiply,
    BinaryOp::Divide,
    BinaryOp::FloorDivide,
    BinaryOp::Mod,
    BinaryOp::Power,
    BinaryOp::Maximum,
    BinaryOp::Minimum,
    BinaryOp::Equal,
    BinaryOp::NotEqual,
    BinaryOp::Less,
    BinaryOp::LessEqual,
    BinaryOp::Greater,
    BinaryOp::GreaterEqual,
    BinaryOp::LogicalAnd,
    BinaryOp::LogicalOr,
    BinaryOp::LogicalXor,
    BinaryOp::Arctan2,
    BinaryOp::Hypot,
    BinaryOp::Copysign,
    BinaryOp::Logaddexp,
    BinaryOp::Logaddexp2,
    BinaryOp::Nextafter,
    BinaryOp::FloatPower,
    BinaryOp::Fmod,
    BinaryOp::BitwiseAnd,
    BinaryOp::BitwiseOr,
    BinaryOp::BitwiseXor,
    BinaryOp::LeftShift,
    BinaryOp::RightShift,
];

/// The functions registered under a second name: the array API standard's where numpy's
/// differs (`atan2`, `pow`, `bitwise_left_shift`, `bitwise_right_shift`), and numpy's
/// `remainder` beside `tensor_mod`.
pub const BINARY_ALIASES: [(&str, BinaryOp); 5] = [
    ("tensor_atan2", BinaryOp::Arctan2),
    ("tensor_pow", BinaryOp::Power),
    ("tensor_remainder", BinaryOp::Mod),
    ("tensor_bitwise_left_shift", BinaryOp::LeftShift),
    ("tensor_bitwise_right_shift", BinaryOp::RightShift),
];

/// The SQL name of `op`'s function, and numpy's ufunc it follows.
pub fn function_name(op: BinaryOp) -> &'static str {
    match op {
        BinaryOp::Add => "tensor_add",
        BinaryOp::Subtract => "tensor_subtract",
        BinaryOp::Multiply => "tensor_multiply",
        BinaryOp::Divide => "tensor_divide",
        BinaryOp::FloorDivide => "tensor_floor_divide",
        BinaryOp::Mod => "tensor_mod",
        BinaryOp::Power => "tensor_power",
        BinaryOp::Maximum => "tensor_maximum",
        BinaryOp::Minimum => "tensor_minimum",
        BinaryOp::Equal => "tensor_equal",
        BinaryOp::NotEqual => "tensor_not_equal",
        BinaryOp::Less => "tensor_less",
        BinaryOp::LessEqual => "tensor_less_equal",
        BinaryOp::Greater => "tensor_greater",
        BinaryOp::GreaterEqual => "tensor_greater_equal",
        BinaryOp::LogicalAnd => "tensor_logical_and",
        BinaryOp::LogicalOr => "tensor_logical_or",
        BinaryOp::LogicalXor => "tensor_logical_xor",
        BinaryOp::Arctan2 => "tensor_arctan2",
        BinaryOp::Hypot => "tensor_hypot",
        BinaryOp::Copysign => "tensor_copysign",
        BinaryOp::Logaddexp => "tensor_logaddexp",
        BinaryOp::Logaddexp2 => "tensor_logaddexp2",
        BinaryOp::Nextafter => "tensor_nextafter",
        BinaryOp::FloatPower => "tensor_float_power",
        BinaryOp::Fmod => "tensor_fmod",
        BinaryOp::BitwiseAnd => "tensor_bitwise_and",
        BinaryOp::BitwiseOr => "tensor_bitwise_or",
        BinaryOp::BitwiseXor => "tensor_bitwise_xor",
        BinaryOp::LeftShift => "tensor_left_shift",
        BinaryOp::RightShift => "tensor_right_shift",
    }
}

/// numpy's parameter names (`np.add(x1, x2)`).
pub const BINARY_PARAMETERS: &[&str] = &["x1", "x2"];

/// A binary elementwise function.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct TensorBinary {
    op: BinaryOp,
    /// [`function_name`], or one of [`BINARY_ALIASES`].
    name: &'static str,
    documentation: Documentation,
}

impl TensorBinary {
    /// The registered instance of `op`.
    pub fn new(op: BinaryOp) -> Self {
        Self {
            op,
            name: function_name(op),
            documentation: documentation(op, function_name(op)),
        }
    }

    /// `op` registered under the second name `name` (one of [`BINARY_ALIASES`]).
    pub fn alias(name: &'static str, op: BinaryOp) -> Self {
        Self {
            op,
            name,
            documentation: documentation(op, name),
        }
    }

    /// The operation.
    pub fn op(&self) -> BinaryOp {
        self.op
    }
}

/// A compiled binary call.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct BinaryPlan {
    op: BinaryOp,
    operands: [Operand; 2],
    /// The type both operands are cast to (`None`: each its own, for truth values).
    compute: Option<DataType>,
    /// The result element type.
    element: DataType,
    /// The result shape; `[]` gives a plain value.
    shape: Vec<usize>,
    runs: Runs,
    /// The result tensor type (`None` for 0-d results).
    output: Option<TensorType>,
    /// The result type when an operand is variable-shape (broadcast row by row).
    variable: Option<VariableShapeType>,
    /// The session's limits, which each row's broadcast shape is checked against.
    limits: Limits,
}

impl BinaryPlan {
    /// The result's field, named `name`.
    pub(super) fn output_field(&self, name: &str) -> Field {
        if let Some(variable) = &self.variable {
            return variable.to_field(name);
        }
        match &self.output {
            Some(tensor) => tensor.to_field(name),
            None => Field::new(name, self.element.clone(), true),
        }
    }

    /// The length a list column operand must have: the other operand must fix it (a last
    /// dimension of 1 would let each row's list decide the result's shape).
    pub(super) fn list_column_length(&self) -> Option<usize> {
        self.shape.last().copied().filter(|&n| n != 1)
    }

    fn output_type(&self) -> DataType {
        if let Some(variable) = &self.variable {
            return variable.storage_type();
        }
        match &self.output {
            Some(tensor) => tensor.storage_type(),
            None => self.element.clone(),
        }
    }
}

/// Plans a call of `op` on arguments 0 and 1.
pub(crate) fn plan_binary(args: &PlanArgs<'_>, op: BinaryOp) -> Result<BinaryPlan> {
    let a = Operand::plan(args, 0, BINARY_PARAMETERS[0])?;
    let b = Operand::plan(args, 1, BINARY_PARAMETERS[1])?;
    let types = binary_types(args.name, op, &a, &b)?;
    let [a, b] = types.operands;
    if ragged::any_variable(&[&a, &b]) {
        let variable = ragged::output_type(args.name, types.result.clone(), &[&a, &b])?;
        return Ok(BinaryPlan {
            op: types.op,
            operands: [a, b],
            compute: types.compute,
            element: types.result,
            shape: Vec::new(),
            runs: ragged::element_runs(2),
            output: None,
            variable: Some(variable),
            limits: args.limits,
        });
    }
    let (shape, runs) = broadcast(args.name, &[&a, &b], &args.limits)?;
    let output = if shape.is_empty() {
        None
    } else {
        let names = result_dim_names(&[&a, &b], &shape);
        Some(
            TensorType::new(types.result.clone(), shape.clone())
                .and_then(|t| t.with_dim_names(names))
                .map_err(|e| e.in_function(args.name))?,
        )
    };
    Ok(BinaryPlan {
        op: types.op,
        operands: [a, b],
        compute: types.compute,
        element: types.result,
        shape,
        runs,
        output,
        variable: None,
        limits: args.limits,
    })
}

/// Runs a planned binary call over one batch.
pub(crate) fn invoke_binary(
    name: &str,
    plan: &BinaryPlan,
    args: &[ColumnarValue],
    number_rows: usize,
) -> Result<ColumnarValue> {
    let scalar = all_scalar(&args[..2]);
    let rows = if scalar { 1 } else { number_rows };
    if plan.operands.contains(&Operand::Null) {
        return finish(new_null_array(&plan.output_type(), rows), scalar);
    }
    if let Some(variable) = &plan.variable {
        let [a, b] = &plan.operands;
        let compute = plan.compute.as_ref();
        let gathered = ragged::gather(
            name,
            &[a, b],
            &args[..2],
            rows,
            &[compute, compute],
            variable.ndim(),
            &plan.limits,
        )?;
        let [a, b] = &gathered.inputs[..] else {
            return exec_err!("{name}: two operands expected");
        };
        let total = gathered.lengths.iter().sum();
        let values = elementwise::binary(plan.op, &plan.runs, total, a, b, None)
            .map_err(|e| gathered.name_row(e).in_function(name))?;
        return finish(gathered.finish(variable, values)?, scalar);
    }
    let (a, a_nulls) = batch_input(
        name,
        &plan.operands[0],
        &args[0],
        rows,
        plan.compute.as_ref(),
    )?;
    let (b, b_nulls) = batch_input(
        name,
        &plan.operands[1],
        &args[1],
        rows,
        plan.compute.as_ref(),
    )?;
    let nulls = NullBuffer::union(a_nulls.as_ref(), b_nulls.as_ref());
    let values = elementwise::binary(plan.op, &plan.runs, rows, &a, &b, nulls.as_ref())
        .map_err(|e| e.in_function(name))?;
    let out = output_rows(plan.output.as_ref(), values, nulls, rows)?;
    finish(out, scalar)
}

impl TensorFunction for TensorBinary {
    type Plan = BinaryPlan;

    fn name(&self) -> &'static str {
        self.name
    }

    fn parameters(&self) -> Parameters {
        Parameters::Fixed {
            names: BINARY_PARAMETERS,
            required: 2,
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
        vec![0, 1]
    }

    fn list_column_length(&self, plan: &BinaryPlan, _i: usize) -> Option<usize> {
        plan.list_column_length()
    }

    fn plan(&self, args: &PlanArgs<'_>) -> Result<BinaryPlan> {
        plan_binary(args, self.op)
    }

    fn return_field(&self, plan: &BinaryPlan) -> FieldRef {
        Arc::new(plan.output_field(self.name()))
    }

    fn invoke(
        &self,
        plan: &BinaryPlan,
        args: &[ColumnarValue],
        number_rows: usize,
    ) -> Result<ColumnarValue> {
        invoke_binary(self.name(), plan, args, number_rows)
    }

    fn invoke_owned(
        &self,
        plan: &BinaryPlan,
        mut args: Vec<ColumnarValue>,
        number_rows: usize,
    ) -> Result<ColumnarValue> {
        if let Some(out) = in_place(self.name(), plan, &mut args, number_rows)? {
            return Ok(ColumnarValue::Array(out));
        }
        invoke_binary(self.name(), plan, &args, number_rows)
    }
}

/// The call's result written over a tensor column operand's values where nothing else holds
/// them (another operator's result) and the kernel can ([`elementwise::binary_in_place`]);
/// `None` otherwise, with `args` as they were.
fn in_place(
    name: &str,
    plan: &BinaryPlan,
    args: &mut [ColumnarValue],
    rows: usize,
) -> Result<Option<ArrayRef>> {
    let Some(compute) = plan.compute.as_ref() else {
        return Ok(None);
    };
    if plan.variable.is_some() || *compute != plan.element || all_scalar(&args[..2]) {
        return Ok(None);
    }
    for k in 0..2 {
        let (Operand::Tensor(_), ColumnarValue::Array(array)) = (&plan.operands[k], &args[k])
        else {
            continue;
        };
        // A column of the batch is held by the batch too: only a result nothing else holds.
        if Arc::strong_count(array) != 1 {
            continue;
        }
        let Some(list) = array.as_fixed_size_list_opt() else {
            continue;
        };
        if list.values().data_type() != compute {
            continue;
        }
        let list = list.clone();
        args[k] = ColumnarValue::Scalar(ScalarValue::Null);
        let (field, size, values, row_nulls) = list.into_parts();
        let (other, other_nulls) = batch_input(
            name,
            &plan.operands[1 - k],
            &args[1 - k],
            rows,
            Some(compute),
        )?;
        match elementwise::binary_in_place(plan.op, &plan.runs, rows, k, values, &other) {
            Ok(values) => {
                let nulls = NullBuffer::union(row_nulls.as_ref(), other_nulls.as_ref());
                return Ok(Some(output_rows(
                    plan.output.as_ref(),
                    values,
                    nulls,
                    rows,
                )?));
            }
            Err(values) => {
                let list = FixedSizeListArray::try_new(field, size, values, row_nulls)?;
                args[k] = ColumnarValue::Array(Arc::new(list));
            }
        }
    }
    Ok(None)
}

/// `SHOW FUNCTIONS` documentation of `op`'s function.
#[allow(
    clippy::too_many_lines,
    reason = "a table: each function's words and example"
)]
fn documentation(op: BinaryOp, name: &str) -> Documentation {
    let (what, example, shown) = match op {
        BinaryOp::Add => (
            "numpy's add (x1 + x2; integers wrap around; booleans: or)",
            "tensor_add(tensor([1, 2, 3, 4, 5, 6], [2, 3]), [10, 20, 30])",
            "[[11, 22, 33], [14, 25, 36]]",
        ),
        BinaryOp::Subtract => (
            "numpy's subtract (x1 - x2; integers wrap around; booleans are refused)",
            "tensor_subtract(tensor([1, 2, 3], [3]), 1)",
            "[0, 1, 2]",
        ),
        BinaryOp::Multiply => (
            "numpy's multiply (x1 * x2; integers wrap around; booleans: and)",
            "tensor_multiply(tensor([1.0, 2.0], [2]), 2.5)",
            "[2.5, 5.0]",
        ),
        BinaryOp::Divide => (
            "numpy's true_divide (x1 / x2): integers give Float64; IEEE values for a zero divisor",
            "tensor_divide(tensor([1, 2, 3], [3]), 2)",
            "[0.5, 1.0, 1.5]",
        ),
        BinaryOp::FloorDivide => (
            "numpy's floor_divide (x1 // x2): rounds towards negative infinity; an integer divided by 0 gives 0",
            "tensor_floor_divide(tensor([-7, 7], [2]), 2)",
            "[-4, 3]",
        ),
        BinaryOp::Mod => (
            "numpy's remainder (x1 % x2): the sign of the divisor; an integer modulo 0 gives 0",
            "tensor_mod(tensor([-7, 7], [2]), 3)",
            "[2, 1]",
        ),
        BinaryOp::Power => (
            "numpy's power (x1 ** x2): integers wrap around; an integer to a negative integer power is an error",
            "tensor_power(tensor([1, 2, 3], [3]), 2)",
            "[1, 4, 9]",
        ),
        BinaryOp::Maximum => (
            "numpy's maximum: the larger element (NaN propagates)",
            "tensor_maximum(tensor([1, 5, 3], [3]), 2)",
            "[2, 5, 3]",
        ),
        BinaryOp::Minimum => (
            "numpy's minimum: the smaller element (NaN propagates)",
            "tensor_minimum(tensor([1, 5, 3], [3]), 2)",
            "[1, 2, 2]",
        ),
        BinaryOp::Equal => (
            "numpy's equal (x1 = x2), a Boolean tensor",
            "tensor_equal(tensor([1, 2, 3], [3]), 2)",
            "[false, true, false]",
        ),
        BinaryOp::NotEqual => (
            "numpy's not_equal (x1 <> x2), a Boolean tensor",
            "tensor_not_equal(tensor([1, 2, 3], [3]), 2)",
            "[true, false, true]",
        ),
        BinaryOp::Less => (
            "numpy's less (x1 < x2), a Boolean tensor",
            "tensor_less(tensor([1, 2, 3], [3]), 2)",
            "[true, false, false]",
        ),
        BinaryOp::LessEqual => (
            "numpy's less_equal (x1 <= x2), a Boolean tensor",
            "tensor_less_equal(tensor([1, 2, 3], [3]), 2)",
            "[true, true, false]",
        ),
        BinaryOp::Greater => (
            "numpy's greater (x1 > x2), a Boolean tensor",
            "tensor_greater(tensor([1, 2, 3], [3]), 2)",
            "[false, false, true]",
        ),
        BinaryOp::GreaterEqual => (
            "numpy's greater_equal (x1 >= x2), a Boolean tensor",
            "tensor_greater_equal(tensor([1, 2, 3], [3]), 2)",
            "[false, true, true]",
        ),
        BinaryOp::LogicalAnd => (
            "numpy's logical_and of the elements' truth values (non-zero is true), a Boolean tensor",
            "tensor_logical_and(tensor([0, 1, 2], [3]), true)",
            "[false, true, true]",
        ),
        BinaryOp::LogicalOr => (
            "numpy's logical_or of the elements' truth values, a Boolean tensor",
            "tensor_logical_or(tensor([0, 1, 0], [3]), tensor([0, 0, 3], [3]))",
            "[false, true, true]",
        ),
        BinaryOp::LogicalXor => (
            "numpy's logical_xor of the elements' truth values, a Boolean tensor",
            "tensor_logical_xor(tensor([0, 1, 2], [3]), 1)",
            "[true, false, false]",
        ),
        BinaryOp::Arctan2 => (
            "numpy's arctan2 (the array API standard's atan2): the angle of the point (x2, x1), in a float type (integers as in the unary float functions)",
            "tensor_arctan2(tensor([1.0, -1.0], [2]), 0.0)",
            "[1.5707963267948966, -1.5707963267948966]",
        ),
        BinaryOp::Hypot => (
            "numpy's hypot: sqrt(x1 ** 2 + x2 ** 2) without overflow, in a float type",
            "tensor_hypot(tensor([3.0, 5.0], [2]), 4.0)",
            "[5.0, 6.4031242374328485]",
        ),
        BinaryOp::Copysign => (
            "numpy's copysign: x1's magnitude with x2's sign bit, in a float type",
            "tensor_copysign(tensor([1.0, 2.0], [2]), -0.0)",
            "[-1.0, -2.0]",
        ),
        BinaryOp::Logaddexp => (
            "numpy's logaddexp: log(exp(x1) + exp(x2)) without overflow, in a float type",
            "tensor_logaddexp(tensor([0.0, 1000.0], [2]), 0.0)",
            "[0.6931471805599453, 1000.0]",
        ),
        BinaryOp::Logaddexp2 => (
            "numpy's logaddexp2: log2(2 ** x1 + 2 ** x2) without overflow, in a float type",
            "tensor_logaddexp2(tensor([1.0, 3.0], [2]), 1.0)",
            "[2.0, 3.321928094887362]",
        ),
        BinaryOp::Nextafter => (
            "numpy's nextafter: the next float after x1 towards x2, in a float type",
            "tensor_nextafter(tensor([1.0, 0.0], [2]), 2.0)",
            "[1.0000000000000002, 5e-324]",
        ),
        BinaryOp::FloatPower => (
            "numpy's float_power: x1 ** x2 in float64 whatever the operands",
            "tensor_float_power(tensor([2, 3], [2]), -1)",
            "[0.5, 0.3333333333333333]",
        ),
        BinaryOp::Fmod => (
            "numpy's fmod: C's remainder, with the dividend's sign (tensor_mod takes the divisor's); an integer modulo 0 gives 0",
            "tensor_fmod(tensor([-7, 7], [2]), 3)",
            "[-1, 1]",
        ),
        BinaryOp::BitwiseAnd => (
            "numpy's bitwise_and (x1 & x2) of integers and booleans",
            "tensor_bitwise_and(tensor([12, 10], [2]), 6)",
            "[4, 2]",
        ),
        BinaryOp::BitwiseOr => (
            "numpy's bitwise_or (x1 | x2) of integers and booleans",
            "tensor_bitwise_or(tensor([12, 10], [2]), 6)",
            "[14, 14]",
        ),
        BinaryOp::BitwiseXor => (
            "numpy's bitwise_xor (x1 ^ x2) of integers and booleans",
            "tensor_bitwise_xor(tensor([12, 10], [2]), 6)",
            "[10, 12]",
        ),
        BinaryOp::LeftShift => (
            "numpy's left_shift (x1 << x2) of integers (the standard's bitwise_left_shift): bits shifted out are lost; a shift by the width or more, or a negative one, gives 0",
            "tensor_left_shift(tensor([1, 3], [2]), 4)",
            "[16, 48]",
        ),
        BinaryOp::RightShift => (
            "numpy's right_shift (x1 >> x2) of integers (the standard's bitwise_right_shift): arithmetic for signed types; a shift by the width or more gives 0, or -1 for a negative x1",
            "tensor_right_shift(tensor([16, -16], [2]), 2)",
            "[4, -4]",
        ),
    };
    let alias = if name == function_name(op) {
        String::new()
    } else {
        format!(" ({name} is another name of {})", function_name(op))
    };
    let description = format!(
        "{what}{alias}, elementwise. Operands are tensors, list literals (arrays), numeric columns or number literals, broadcast by numpy's rules; the result type is numpy 2's (number literals are weak: a UInt8 tensor times 2 stays UInt8, and a literal that does not fit is an error). A NULL operand row gives a NULL row."
    );
    crate::udf::documented(description, format!("{name}(x1, x2)"))
        .with_sql_example(crate::udf::sql_example(
            &example.replacen(function_name(op), name, 1),
            shown,
        ))
        .with_argument("x1", "A tensor, list, numeric column or number.")
        .with_argument("x2", "A tensor, list, numeric column or number.")
        .build()
}
