//! The expression builders of the functions of family Elementwise (written by `render.rs`
//! from the registry: see the module docs of `expr_fn`). Do not edit.

// The docs are the SQL reference's words, in which function names are plain text.
#![allow(clippy::doc_markdown)]

use datafusion::logical_expr::Expr;

plain! {
    /// numpy's add (x1 + x2; integers wrap around; booleans: or), elementwise.
    ///
    /// SQL: `tensor_add(x1, x2)`.
    tensor_add(x1, x2)
}

plain! {
    /// numpy's subtract (x1 - x2; integers wrap around; booleans are refused), elementwise.
    ///
    /// SQL: `tensor_subtract(x1, x2)`.
    tensor_subtract(x1, x2)
}

plain! {
    /// numpy's multiply (x1 * x2; integers wrap around; booleans: and), elementwise.
    ///
    /// SQL: `tensor_multiply(x1, x2)`.
    tensor_multiply(x1, x2)
}

plain! {
    /// numpy's true_divide (x1 / x2): integers give Float64; IEEE values for a zero divisor,
    /// elementwise.
    ///
    /// SQL: `tensor_divide(x1, x2)`.
    tensor_divide(x1, x2)
}

plain! {
    /// numpy's floor_divide (x1 // x2): rounds towards negative infinity; an integer divided by 0
    /// gives 0, elementwise.
    ///
    /// SQL: `tensor_floor_divide(x1, x2)`.
    tensor_floor_divide(x1, x2)
}

plain! {
    /// numpy's remainder (x1 % x2): the sign of the divisor; an integer modulo 0 gives 0,
    /// elementwise.
    ///
    /// SQL: `tensor_mod(x1, x2)`.
    tensor_mod(x1, x2)
}

plain! {
    /// numpy's power (x1 ** x2): integers wrap around; an integer to a negative integer power is an
    /// error, elementwise.
    ///
    /// SQL: `tensor_power(x1, x2)`.
    tensor_power(x1, x2)
}

plain! {
    /// numpy's maximum: the larger element (NaN propagates), elementwise.
    ///
    /// SQL: `tensor_maximum(x1, x2)`.
    tensor_maximum(x1, x2)
}

plain! {
    /// numpy's minimum: the smaller element (NaN propagates), elementwise.
    ///
    /// SQL: `tensor_minimum(x1, x2)`.
    tensor_minimum(x1, x2)
}

plain! {
    /// numpy's equal (x1 = x2), a Boolean tensor, elementwise.
    ///
    /// SQL: `tensor_equal(x1, x2)`.
    tensor_equal(x1, x2)
}

plain! {
    /// numpy's not_equal (x1 \<\> x2), a Boolean tensor, elementwise.
    ///
    /// SQL: `tensor_not_equal(x1, x2)`.
    tensor_not_equal(x1, x2)
}

plain! {
    /// numpy's less (x1 \< x2), a Boolean tensor, elementwise.
    ///
    /// SQL: `tensor_less(x1, x2)`.
    tensor_less(x1, x2)
}

plain! {
    /// numpy's less_equal (x1 \<= x2), a Boolean tensor, elementwise.
    ///
    /// SQL: `tensor_less_equal(x1, x2)`.
    tensor_less_equal(x1, x2)
}

plain! {
    /// numpy's greater (x1 \> x2), a Boolean tensor, elementwise.
    ///
    /// SQL: `tensor_greater(x1, x2)`.
    tensor_greater(x1, x2)
}

plain! {
    /// numpy's greater_equal (x1 \>= x2), a Boolean tensor, elementwise.
    ///
    /// SQL: `tensor_greater_equal(x1, x2)`.
    tensor_greater_equal(x1, x2)
}

plain! {
    /// numpy's logical_and of the elements' truth values (non-zero is true), a Boolean tensor,
    /// elementwise.
    ///
    /// SQL: `tensor_logical_and(x1, x2)`.
    tensor_logical_and(x1, x2)
}

plain! {
    /// numpy's logical_or of the elements' truth values, a Boolean tensor, elementwise.
    ///
    /// SQL: `tensor_logical_or(x1, x2)`.
    tensor_logical_or(x1, x2)
}

plain! {
    /// numpy's logical_xor of the elements' truth values, a Boolean tensor, elementwise.
    ///
    /// SQL: `tensor_logical_xor(x1, x2)`.
    tensor_logical_xor(x1, x2)
}

plain! {
    /// numpy's arctan2 (the array API standard's atan2): the angle of the point (x2, x1), in a
    /// float type (integers as in the unary float functions), elementwise.
    ///
    /// SQL: `tensor_arctan2(x1, x2)`.
    tensor_arctan2(x1, x2)
}

plain! {
    /// numpy's hypot: sqrt(x1 ** 2 + x2 ** 2) without overflow, in a float type, elementwise.
    ///
    /// SQL: `tensor_hypot(x1, x2)`.
    tensor_hypot(x1, x2)
}

plain! {
    /// numpy's copysign: x1's magnitude with x2's sign bit, in a float type, elementwise.
    ///
    /// SQL: `tensor_copysign(x1, x2)`.
    tensor_copysign(x1, x2)
}

plain! {
    /// numpy's logaddexp: log(exp(x1) + exp(x2)) without overflow, in a float type, elementwise.
    ///
    /// SQL: `tensor_logaddexp(x1, x2)`.
    tensor_logaddexp(x1, x2)
}

plain! {
    /// numpy's logaddexp2: log2(2 ** x1 + 2 ** x2) without overflow, in a float type, elementwise.
    ///
    /// SQL: `tensor_logaddexp2(x1, x2)`.
    tensor_logaddexp2(x1, x2)
}

plain! {
    /// numpy's nextafter: the next float after x1 towards x2, in a float type, elementwise.
    ///
    /// SQL: `tensor_nextafter(x1, x2)`.
    tensor_nextafter(x1, x2)
}

plain! {
    /// numpy's float_power: x1 ** x2 in float64 whatever the operands, elementwise.
    ///
    /// SQL: `tensor_float_power(x1, x2)`.
    tensor_float_power(x1, x2)
}

plain! {
    /// numpy's fmod: C's remainder, with the dividend's sign (tensor_mod takes the divisor's); an
    /// integer modulo 0 gives 0, elementwise.
    ///
    /// SQL: `tensor_fmod(x1, x2)`.
    tensor_fmod(x1, x2)
}

plain! {
    /// numpy's bitwise_and (x1 & x2) of integers and booleans, elementwise.
    ///
    /// SQL: `tensor_bitwise_and(x1, x2)`.
    tensor_bitwise_and(x1, x2)
}

plain! {
    /// numpy's bitwise_or (x1 | x2) of integers and booleans, elementwise.
    ///
    /// SQL: `tensor_bitwise_or(x1, x2)`.
    tensor_bitwise_or(x1, x2)
}

plain! {
    /// numpy's bitwise_xor (x1 ^ x2) of integers and booleans, elementwise.
    ///
    /// SQL: `tensor_bitwise_xor(x1, x2)`.
    tensor_bitwise_xor(x1, x2)
}

plain! {
    /// numpy's left_shift (x1 \<\< x2) of integers (the standard's bitwise_left_shift): bits
    /// shifted out are lost; a shift by the width or more, or a negative one, gives 0, elementwise.
    ///
    /// SQL: `tensor_left_shift(x1, x2)`.
    tensor_left_shift(x1, x2)
}

plain! {
    /// numpy's right_shift (x1 \>\> x2) of integers (the standard's bitwise_right_shift):
    /// arithmetic for signed types; a shift by the width or more gives 0, or -1 for a negative x1,
    /// elementwise.
    ///
    /// SQL: `tensor_right_shift(x1, x2)`.
    tensor_right_shift(x1, x2)
}

plain! {
    /// numpy's arctan2 (the array API standard's atan2): the angle of the point (x2, x1), in a
    /// float type (integers as in the unary float functions) (tensor_atan2 is another name of
    /// tensor_arctan2), elementwise.
    ///
    /// SQL: `tensor_atan2(x1, x2)`.
    tensor_atan2(x1, x2)
}

plain! {
    /// numpy's power (x1 ** x2): integers wrap around; an integer to a negative integer power is an
    /// error (tensor_pow is another name of tensor_power), elementwise.
    ///
    /// SQL: `tensor_pow(x1, x2)`.
    tensor_pow(x1, x2)
}

plain! {
    /// numpy's remainder (x1 % x2): the sign of the divisor; an integer modulo 0 gives 0
    /// (tensor_remainder is another name of tensor_mod), elementwise.
    ///
    /// SQL: `tensor_remainder(x1, x2)`.
    tensor_remainder(x1, x2)
}

plain! {
    /// numpy's left_shift (x1 \<\< x2) of integers (the standard's bitwise_left_shift): bits
    /// shifted out are lost; a shift by the width or more, or a negative one, gives 0
    /// (tensor_bitwise_left_shift is another name of tensor_left_shift), elementwise.
    ///
    /// SQL: `tensor_bitwise_left_shift(x1, x2)`.
    tensor_bitwise_left_shift(x1, x2)
}

plain! {
    /// numpy's right_shift (x1 \>\> x2) of integers (the standard's bitwise_right_shift):
    /// arithmetic for signed types; a shift by the width or more gives 0, or -1 for a negative x1
    /// (tensor_bitwise_right_shift is another name of tensor_right_shift), elementwise.
    ///
    /// SQL: `tensor_bitwise_right_shift(x1, x2)`.
    tensor_bitwise_right_shift(x1, x2)
}

plain! {
    /// numpy's divmod: floor_divide and remainder of the same operands, as a struct {quotient,
    /// remainder} (numpy's tuple; read one with \['quotient'\]).
    ///
    /// SQL: `tensor_divmod(x1, x2)`.
    tensor_divmod(x1, x2)
}

plain! {
    /// numpy's where: the element of x where condition is true (non-zero), of y elsewhere.
    ///
    /// SQL: `tensor_where(condition, x, y)`.
    tensor_where(condition, x, y)
}

plain! {
    /// numpy's astype with its default (unsafe) casting: each element converted to dtype.
    ///
    /// SQL: `tensor_astype(x, dtype)`.
    tensor_astype(x, dtype)
}

plain! {
    /// numpy's negative: -x (integers wrap; not for booleans), element by element, in numpy 2's
    /// result type (the float functions of int8, uint8 and booleans in float16, of 16-bit integers
    /// in float32, of wider integers in float64).
    ///
    /// SQL: `tensor_negative(x)`.
    tensor_negative(x)
}

plain! {
    /// numpy's absolute: |x| (integers wrap: abs of int8 -128 is -128), element by element, in
    /// numpy 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit
    /// integers in float32, of wider integers in float64).
    ///
    /// SQL: `tensor_abs(x)`.
    tensor_abs(x)
}

plain! {
    /// numpy's sign: -1, 0 or 1 in x's type, NaN for NaN (not for booleans), element by element, in
    /// numpy 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit
    /// integers in float32, of wider integers in float64).
    ///
    /// SQL: `tensor_sign(x)`.
    tensor_sign(x)
}

plain! {
    /// numpy's square: x * x (integers wrap; booleans give int8), element by element, in numpy 2's
    /// result type (the float functions of int8, uint8 and booleans in float16, of 16-bit integers
    /// in float32, of wider integers in float64).
    ///
    /// SQL: `tensor_square(x)`.
    tensor_square(x)
}

plain! {
    /// numpy's sqrt, element by element, in numpy 2's result type (the float functions of int8,
    /// uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64).
    ///
    /// SQL: `tensor_sqrt(x)`.
    tensor_sqrt(x)
}

plain! {
    /// numpy's exp, element by element, in numpy 2's result type (the float functions of int8,
    /// uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64).
    ///
    /// SQL: `tensor_exp(x)`.
    tensor_exp(x)
}

plain! {
    /// numpy's log (natural), element by element, in numpy 2's result type (the float functions of
    /// int8, uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in
    /// float64).
    ///
    /// SQL: `tensor_log(x)`.
    tensor_log(x)
}

plain! {
    /// numpy's log1p: log(1 + x), element by element, in numpy 2's result type (the float functions
    /// of int8, uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in
    /// float64).
    ///
    /// SQL: `tensor_log1p(x)`.
    tensor_log1p(x)
}

plain! {
    /// numpy's expm1: exp(x) - 1, element by element, in numpy 2's result type (the float functions
    /// of int8, uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in
    /// float64).
    ///
    /// SQL: `tensor_expm1(x)`.
    tensor_expm1(x)
}

plain! {
    /// numpy's sin, element by element, in numpy 2's result type (the float functions of int8,
    /// uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64).
    ///
    /// SQL: `tensor_sin(x)`.
    tensor_sin(x)
}

plain! {
    /// numpy's cos, element by element, in numpy 2's result type (the float functions of int8,
    /// uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64).
    ///
    /// SQL: `tensor_cos(x)`.
    tensor_cos(x)
}

plain! {
    /// numpy's tan, element by element, in numpy 2's result type (the float functions of int8,
    /// uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64).
    ///
    /// SQL: `tensor_tan(x)`.
    tensor_tan(x)
}

plain! {
    /// numpy's tanh, element by element, in numpy 2's result type (the float functions of int8,
    /// uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64).
    ///
    /// SQL: `tensor_tanh(x)`.
    tensor_tanh(x)
}

plain! {
    /// numpy's arctan, element by element, in numpy 2's result type (the float functions of int8,
    /// uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64).
    ///
    /// SQL: `tensor_arctan(x)`.
    tensor_arctan(x)
}

plain! {
    /// numpy's arcsin (NaN outside \[-1, 1\]), element by element, in numpy 2's result type (the
    /// float functions of int8, uint8 and booleans in float16, of 16-bit integers in float32, of
    /// wider integers in float64).
    ///
    /// SQL: `tensor_arcsin(x)`.
    tensor_arcsin(x)
}

plain! {
    /// numpy's arccos (NaN outside \[-1, 1\]), element by element, in numpy 2's result type (the
    /// float functions of int8, uint8 and booleans in float16, of 16-bit integers in float32, of
    /// wider integers in float64).
    ///
    /// SQL: `tensor_arccos(x)`.
    tensor_arccos(x)
}

plain! {
    /// numpy's arcsinh, element by element, in numpy 2's result type (the float functions of int8,
    /// uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64).
    ///
    /// SQL: `tensor_arcsinh(x)`.
    tensor_arcsinh(x)
}

plain! {
    /// numpy's arccosh (NaN below 1), element by element, in numpy 2's result type (the float
    /// functions of int8, uint8 and booleans in float16, of 16-bit integers in float32, of wider
    /// integers in float64).
    ///
    /// SQL: `tensor_arccosh(x)`.
    tensor_arccosh(x)
}

plain! {
    /// numpy's arctanh (NaN outside \[-1, 1\], infinite at -1 and 1), element by element, in numpy
    /// 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit
    /// integers in float32, of wider integers in float64).
    ///
    /// SQL: `tensor_arctanh(x)`.
    tensor_arctanh(x)
}

plain! {
    /// numpy's sinh, element by element, in numpy 2's result type (the float functions of int8,
    /// uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64).
    ///
    /// SQL: `tensor_sinh(x)`.
    tensor_sinh(x)
}

plain! {
    /// numpy's cosh, element by element, in numpy 2's result type (the float functions of int8,
    /// uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64).
    ///
    /// SQL: `tensor_cosh(x)`.
    tensor_cosh(x)
}

plain! {
    /// numpy's log2, element by element, in numpy 2's result type (the float functions of int8,
    /// uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64).
    ///
    /// SQL: `tensor_log2(x)`.
    tensor_log2(x)
}

plain! {
    /// numpy's log10, element by element, in numpy 2's result type (the float functions of int8,
    /// uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64).
    ///
    /// SQL: `tensor_log10(x)`.
    tensor_log10(x)
}

plain! {
    /// numpy's asin (the array API standard's name of tensor_arcsin), element by element, in numpy
    /// 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit
    /// integers in float32, of wider integers in float64).
    ///
    /// SQL: `tensor_asin(x)`.
    tensor_asin(x)
}

plain! {
    /// numpy's acos (the array API standard's name of tensor_arccos), element by element, in numpy
    /// 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit
    /// integers in float32, of wider integers in float64).
    ///
    /// SQL: `tensor_acos(x)`.
    tensor_acos(x)
}

plain! {
    /// numpy's atan (the array API standard's name of tensor_arctan), element by element, in numpy
    /// 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit
    /// integers in float32, of wider integers in float64).
    ///
    /// SQL: `tensor_atan(x)`.
    tensor_atan(x)
}

plain! {
    /// numpy's asinh (the array API standard's name of tensor_arcsinh), element by element, in
    /// numpy 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit
    /// integers in float32, of wider integers in float64).
    ///
    /// SQL: `tensor_asinh(x)`.
    tensor_asinh(x)
}

plain! {
    /// numpy's acosh (the array API standard's name of tensor_arccosh), element by element, in
    /// numpy 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit
    /// integers in float32, of wider integers in float64).
    ///
    /// SQL: `tensor_acosh(x)`.
    tensor_acosh(x)
}

plain! {
    /// numpy's atanh (the array API standard's name of tensor_arctanh), element by element, in
    /// numpy 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit
    /// integers in float32, of wider integers in float64).
    ///
    /// SQL: `tensor_atanh(x)`.
    tensor_atanh(x)
}

plain! {
    /// numpy's rint: to the nearest integer, ties to even, as a float (integers in their float
    /// type), element by element, in numpy 2's result type (the float functions of int8, uint8 and
    /// booleans in float16, of 16-bit integers in float32, of wider integers in float64).
    ///
    /// SQL: `tensor_rint(x)`.
    tensor_rint(x)
}

plain! {
    /// numpy's trunc: towards zero (integers and booleans kept as they are), element by element, in
    /// numpy 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit
    /// integers in float32, of wider integers in float64).
    ///
    /// SQL: `tensor_trunc(x)`.
    tensor_trunc(x)
}

plain! {
    /// numpy's positive: +x, a copy (not for booleans), element by element, in numpy 2's result
    /// type (the float functions of int8, uint8 and booleans in float16, of 16-bit integers in
    /// float32, of wider integers in float64).
    ///
    /// SQL: `tensor_positive(x)`.
    tensor_positive(x)
}

plain! {
    /// numpy's reciprocal: 1 / x (integers: 1.0 / x cast back, as numpy does: 0 for |x| \> 1, and 1
    /// / 0 the cast of infinity; booleans give int8), element by element, in numpy 2's result type
    /// (the float functions of int8, uint8 and booleans in float16, of 16-bit integers in float32,
    /// of wider integers in float64).
    ///
    /// SQL: `tensor_reciprocal(x)`.
    tensor_reciprocal(x)
}

plain! {
    /// numpy's signbit: whether the sign bit is set (true for -0.0 and a negative NaN), element by
    /// element, in numpy 2's result type (the float functions of int8, uint8 and booleans in
    /// float16, of 16-bit integers in float32, of wider integers in float64).
    ///
    /// SQL: `tensor_signbit(x)`.
    tensor_signbit(x)
}

plain! {
    /// numpy's invert: ~x, bitwise not of integers, logical not of booleans (not for floats),
    /// element by element, in numpy 2's result type (the float functions of int8, uint8 and
    /// booleans in float16, of 16-bit integers in float32, of wider integers in float64).
    ///
    /// SQL: `tensor_invert(x)`.
    tensor_invert(x)
}

plain! {
    /// numpy's bitwise_invert (the array API standard's name of tensor_invert): ~x, element by
    /// element, in numpy 2's result type (the float functions of int8, uint8 and booleans in
    /// float16, of 16-bit integers in float32, of wider integers in float64).
    ///
    /// SQL: `tensor_bitwise_invert(x)`.
    tensor_bitwise_invert(x)
}

plain! {
    /// numpy's floor (integers and booleans kept as they are), element by element, in numpy 2's
    /// result type (the float functions of int8, uint8 and booleans in float16, of 16-bit integers
    /// in float32, of wider integers in float64).
    ///
    /// SQL: `tensor_floor(x)`.
    tensor_floor(x)
}

plain! {
    /// numpy's ceil (integers and booleans kept as they are), element by element, in numpy 2's
    /// result type (the float functions of int8, uint8 and booleans in float16, of 16-bit integers
    /// in float32, of wider integers in float64).
    ///
    /// SQL: `tensor_ceil(x)`.
    tensor_ceil(x)
}

with_options! {
    /// numpy's round(x, decimals): to the nearest multiple of 10^-decimals, ties to even, in x's
    /// type, element by element, in numpy 2's result type (the float functions of int8, uint8 and
    /// booleans in float16, of 16-bit integers in float32, of wider integers in float64).
    ///
    /// SQL: `tensor_round(x [, decimals])`.
    tensor_round(x) -> TensorRoundCall {
        decimals = "decimals",
    }
}

with_options! {
    /// numpy's clip(x, min, max): x limited to \[min, max\] (NULL: no bound), NaN propagating; the
    /// type of x with the bounds as weak Python scalars (a float bound makes an integer x float64),
    /// element by element, in numpy 2's result type (the float functions of int8, uint8 and
    /// booleans in float16, of 16-bit integers in float32, of wider integers in float64).
    ///
    /// SQL: `tensor_clip(x, min, max)`.
    tensor_clip(x) -> TensorClipCall {
        min = "min",
        max = "max",
    }
}

plain! {
    /// numpy's isnan: whether each element is NaN, element by element, in numpy 2's result type
    /// (the float functions of int8, uint8 and booleans in float16, of 16-bit integers in float32,
    /// of wider integers in float64).
    ///
    /// SQL: `tensor_isnan(x)`.
    tensor_isnan(x)
}

plain! {
    /// numpy's isinf: whether each element is infinite, element by element, in numpy 2's result
    /// type (the float functions of int8, uint8 and booleans in float16, of 16-bit integers in
    /// float32, of wider integers in float64).
    ///
    /// SQL: `tensor_isinf(x)`.
    tensor_isinf(x)
}

plain! {
    /// numpy's isfinite: whether each element is finite, element by element, in numpy 2's result
    /// type (the float functions of int8, uint8 and booleans in float16, of 16-bit integers in
    /// float32, of wider integers in float64).
    ///
    /// SQL: `tensor_isfinite(x)`.
    tensor_isfinite(x)
}

plain! {
    /// numpy's logical_not: whether each element is zero (false), element by element, in numpy 2's
    /// result type (the float functions of int8, uint8 and booleans in float16, of 16-bit integers
    /// in float32, of wider integers in float64).
    ///
    /// SQL: `tensor_logical_not(x)`.
    tensor_logical_not(x)
}

plain! {
    /// A SQL lambda applied to every element of a tensor, numpy's `np.vectorize(f)(x)`: the result
    /// has x's shape, dim names and NULL rows, and the lambda's element type (`v -\> v \> 0` gives
    /// a Boolean tensor).
    ///
    /// SQL: `tensor_map(x, v -> v * 2 + 1)`.
    tensor_map(x, r#fn)
}
