//! The types of an elementwise call, numpy 2's: the operands' common type by
//! `np.result_type` with number literals weak (NEP 50, through [`crate::dtype`]), the type
//! each ufunc computes in (`true_divide` of integers in float64, `floor_divide`, `remainder`
//! and `power` of booleans in int8), its result type (Boolean for comparisons and logical
//! ops), and the literals cast to the computing type, as numpy 2 checks them
//! (`Python integer 300 out of bounds for uint8`).

use arrow::datatypes::DataType;
use datafusion::common::{ScalarValue, plan_err};
use datafusion::error::Result;

use super::operands::Operand;
use crate::dtype::{LiteralKind, cast_literal, literal_kind, result_type};
use crate::kernels::elementwise::BinaryOp;

/// numpy's name of an element type (`uint8`, `float16`, `bool`).
pub(crate) fn numpy_name(data_type: &DataType) -> String {
    match data_type {
        DataType::Boolean => "bool".to_string(),
        DataType::Int8 => "int8".to_string(),
        DataType::Int16 => "int16".to_string(),
        DataType::Int32 => "int32".to_string(),
        DataType::Int64 => "int64".to_string(),
        DataType::UInt8 => "uint8".to_string(),
        DataType::UInt16 => "uint16".to_string(),
        DataType::UInt32 => "uint32".to_string(),
        DataType::UInt64 => "uint64".to_string(),
        DataType::Float16 => "float16".to_string(),
        DataType::Float32 => "float32".to_string(),
        DataType::Float64 => "float64".to_string(),
        other => other.to_string(),
    }
}

/// The common type of operands by numpy's `result_type`, literals weak; `Int64` when nothing
/// but NULLs decides it.
pub(crate) fn common_type(operands: &[&Operand]) -> DataType {
    let strong: Vec<DataType> = operands.iter().filter_map(|o| o.strong_type()).collect();
    let weak: Vec<_> = operands
        .iter()
        .filter_map(|o| match o {
            Operand::Literal(value) => literal_kind(value),
            _ => None,
        })
        .collect();
    result_type(&strong, &weak).unwrap_or(DataType::Int64)
}

/// A literal in the type an operation computes in, as numpy 2 converts a Python scalar: an
/// integer must fit an integer type (numpy's `OverflowError`); floats round, and overflow to
/// infinity as numpy's cast does.
pub(crate) fn cast_weak(
    name: &str,
    value: &ScalarValue,
    compute: &DataType,
) -> Result<ScalarValue> {
    if compute.is_floating() {
        return value.cast_to(compute);
    }
    match cast_literal(value, compute) {
        Some(cast) => Ok(cast),
        None => plan_err!(
            "{name}: Python integer {value} out of bounds for {}",
            numpy_name(compute)
        ),
    }
}

/// What a binary call computes: the (possibly rewritten) operation, the type each operand is
/// cast to (`None`: its own, for the logical operations' truth values), the result element
/// type, and the operands with their literals cast.
#[derive(Debug)]
pub(crate) struct BinaryTypes {
    pub op: BinaryOp,
    pub compute: Option<DataType>,
    pub result: DataType,
    pub operands: [Operand; 2],
}

/// The types of `op` on `a` and `b` (numpy 2's ufunc type resolution, NEP 50).
pub(crate) fn binary_types(
    name: &str,
    op: BinaryOp,
    a: &Operand,
    b: &Operand,
) -> Result<BinaryTypes> {
    if op.is_logical() {
        return Ok(BinaryTypes {
            op,
            compute: None,
            result: DataType::Boolean,
            operands: [a.clone(), b.clone()],
        });
    }
    if op.is_comparison() && signed_against_uint64(a, b) {
        // numpy 2 compares a signed integer with a uint64 exactly (its `qQ->?` loops), where
        // their common type, float64, would round both above 2^53: each keeps its type here
        // and the kernel compares them as integers.
        return Ok(BinaryTypes {
            op,
            compute: None,
            result: DataType::Boolean,
            operands: [a.clone(), b.clone()],
        });
    }
    let common = common_type(&[a, b]);
    let boolean = common == DataType::Boolean;
    let compute = match op {
        BinaryOp::Subtract if boolean => {
            return plan_err!(
                "{name}: numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` operator, or the logical_xor function instead."
            );
        }
        BinaryOp::Divide if !common.is_floating() => DataType::Float64,
        BinaryOp::FloatPower => DataType::Float64,
        op if op.is_float_only() && !common.is_floating() => float_loop(&[a, b]),
        op if op.is_bitwise() && common.is_floating() => {
            return plan_err!(
                "{name}: ufunc '{}' not supported for the input types, and the inputs could not be safely coerced to any supported types according to the casting rule ''safe''",
                numpy_ufunc(op)
            );
        }
        BinaryOp::FloorDivide
        | BinaryOp::Mod
        | BinaryOp::Power
        | BinaryOp::Fmod
        | BinaryOp::LeftShift
        | BinaryOp::RightShift
            if boolean =>
        {
            DataType::Int8
        }
        _ => common,
    };
    let result = if op.is_comparison() {
        DataType::Boolean
    } else {
        compute.clone()
    };
    let mut op = op;
    let mut operands = [a.clone(), b.clone()];
    for (k, operand) in operands.iter_mut().enumerate() {
        let Operand::Literal(value) = &*operand else {
            continue;
        };
        let cast = if op.is_comparison() && compute.is_integer() {
            // numpy 2 compares an integer array with any Python integer exactly: one out of
            // the type's range is above or below every element.
            let (rewritten, value) = comparison_literal(op, k == 0, value, &compute);
            op = rewritten;
            value
        } else {
            cast_weak(name, value, &compute)?
        };
        *operand = Operand::Literal(cast);
    }
    Ok(BinaryTypes {
        op,
        compute: Some(compute),
        result,
        operands,
    })
}

/// Whether one operand is a strong signed integer and the other a strong uint64.
fn signed_against_uint64(a: &Operand, b: &Operand) -> bool {
    let signed = |t: &DataType| {
        matches!(
            t,
            DataType::Int8 | DataType::Int16 | DataType::Int32 | DataType::Int64
        )
    };
    match (a.strong_type(), b.strong_type()) {
        (Some(x), Some(y)) => {
            (signed(&x) && y == DataType::UInt64) || (x == DataType::UInt64 && signed(&y))
        }
        _ => false,
    }
}

/// The float loop numpy's ufunc type resolution picks for integer or boolean operands of a
/// float-only ufunc: the first of float16, float32, float64 that every array operand casts to
/// safely (int8 and uint8 together: float16, where their common type int16 would give
/// float32). A weak integer literal takes the arrays' integer type, but is numpy's default
/// int64 beside booleans only (`np.arctan2(bool_array, 2)` is float64), as with no array.
fn float_loop(operands: &[&Operand]) -> DataType {
    let rank = |t: &DataType| match t {
        DataType::Float16 => 0,
        DataType::Float32 => 1,
        _ => 2,
    };
    let strong: Vec<DataType> = operands.iter().filter_map(|o| o.strong_type()).collect();
    let weak_int = operands.iter().any(
        |o| matches!(o, Operand::Literal(value) if literal_kind(value) == Some(LiteralKind::Int)),
    );
    let default_int = weak_int && strong.iter().all(|t| *t == DataType::Boolean);
    strong
        .iter()
        .chain(default_int.then_some(&DataType::Int64))
        .map(crate::kernels::unary::float_type)
        .max_by_key(rank)
        .unwrap_or(DataType::Float64)
}

/// numpy's name of a float-only or bitwise ufunc (its error messages name it).
fn numpy_ufunc(op: BinaryOp) -> &'static str {
    match op {
        BinaryOp::BitwiseAnd => "bitwise_and",
        BinaryOp::BitwiseOr => "bitwise_or",
        BinaryOp::BitwiseXor => "bitwise_xor",
        BinaryOp::LeftShift => "left_shift",
        _ => "right_shift",
    }
}

/// A comparison of an integer array with an integer literal as one on the literal in the
/// array's type: as it is when it fits, else against the type's bound with the operation
/// that gives the same answer for every element (`x < 300` on uint8 is `x <= 255`: always;
/// `x > 300` is `x > 255`: never).
fn comparison_literal(
    op: BinaryOp,
    literal_first: bool,
    value: &ScalarValue,
    compute: &DataType,
) -> (BinaryOp, ScalarValue) {
    if let Some(cast) = cast_literal(value, compute) {
        return (op, cast);
    }
    let min = match compute {
        DataType::Int8 => ScalarValue::Int8(Some(i8::MIN)),
        DataType::Int16 => ScalarValue::Int16(Some(i16::MIN)),
        DataType::Int32 => ScalarValue::Int32(Some(i32::MIN)),
        DataType::Int64 => ScalarValue::Int64(Some(i64::MIN)),
        other => match ScalarValue::new_zero(other) {
            Ok(zero) => zero,
            Err(_) => return (op, value.clone()),
        },
    };
    // Read as `x op literal`.
    let op_x = if literal_first { op.swapped() } else { op };
    let above = matches!(
        value.cast_to(&DataType::Float64),
        Ok(ScalarValue::Float64(Some(v))) if v > 0.0
    );
    let always = match op_x {
        BinaryOp::Less | BinaryOp::LessEqual => above,
        BinaryOp::Greater | BinaryOp::GreaterEqual => !above,
        BinaryOp::NotEqual => true,
        _ => false,
    };
    // `x >= MIN` always holds, `x < MIN` never does.
    let rewritten = if always {
        BinaryOp::GreaterEqual
    } else {
        BinaryOp::Less
    };
    let rewritten = if literal_first {
        rewritten.swapped()
    } else {
        rewritten
    };
    (rewritten, min)
}
