"""Type stub of datafusion_tensor.functions (written by python/tools/make_stubs.py)."""

from typing import Any

from ._internal import Expr as Expr, SortExpr as SortExpr

ExprLike = Expr | None | bool | int | float | str | list[Any]

SIGNATURES: list[tuple[str, str, list[str], int, str]]

def col(name: str) -> Expr: ...
def lit(value: Any) -> Expr: ...
def call(name: str, *args: ExprLike, distinct: bool = ..., **options: ExprLike) -> Expr: ...
def count(expr: ExprLike = ..., distinct: bool = ...) -> Expr: ...
def sum(expr: ExprLike, distinct: bool = ...) -> Expr: ...
def avg(expr: ExprLike, distinct: bool = ...) -> Expr: ...
def mean(expr: ExprLike, distinct: bool = ...) -> Expr: ...
def min(expr: ExprLike) -> Expr: ...
def max(expr: ExprLike) -> Expr: ...
def array_agg(expr: ExprLike, distinct: bool = ...) -> Expr: ...

def tensor(values: ExprLike, shape: ExprLike, dim_names: ExprLike = ..., permutation: ExprLike = ...) -> Expr:
    """Builds a tensor (arrow.fixed_shape_tensor) from a flat list of numbers or booleans per row, read in row-major order."""

def tensor_shape(t: ExprLike) -> Expr:
    """Returns the logical shape of a tensor (its permutation applied) as a list of integers."""

def tensor_ndim(t: ExprLike) -> Expr:
    """Returns the number of dimensions of a tensor."""

def tensor_size(t: ExprLike) -> Expr:
    """Returns the number of elements of a tensor (the product of its shape)."""

def tensor_type(t: ExprLike) -> Expr:
    """Returns the type of an expression as a string, with its tensor metadata in full, for every row (NULL ones too): arrow.fixed_shape_tensor<Float32, [3, 2], permutation [1, 0], dim_names ["H", "W"]> (the stored shape, as in the metadata; tensor_shape gives the logical one), arrow.variable_shape_tensor<UInt8, ndim 3, uniform_shape [3, null, null]>."""

def tensor_to_list(t: ExprLike) -> Expr:
    """Returns a tensor as nested lists in logical order (its permutation applied), as numpy's tolist(): a [2, 3] tensor becomes a list of two lists of three values; a 0-d tensor becomes its value; a variable-shape tensor's rows each in their own shape."""

def tensor_reshape(t: ExprLike, shape: ExprLike) -> Expr:
    """Returns the tensor's elements, read in logical row-major order, in a new shape with the same number of elements (numpy reshape)."""

def tensor_to_string(t: ExprLike) -> Expr:
    """Returns a tensor as nested text in logical order, as the CLI displays it: `[[1, 2, 3], [4, 5, 6]]`, NULL elements as `NULL`."""

def tensor_to_variable(t: ExprLike) -> Expr:
    """Returns a tensor column as an arrow.variable_shape_tensor: each row with its own shape, here all the input's, which the type records as uniform (uniform_shape); element type, dim names and permutation kept."""

def tensor_to_fixed(t: ExprLike, shape: ExprLike = ...) -> Expr:
    """Returns a variable-shape tensor column as an arrow.fixed_shape_tensor of one shape: `shape` (the logical shape), or the shape its type fixes in every row (uniform_shape) when `shape` is not given."""

def tensor_ascontiguousarray(t: ExprLike) -> Expr:
    """Returns each tensor written out in its logical row-major order, as numpy's ascontiguousarray: the same values, shape and element type, stored without a permutation (dim names follow their dimensions)."""

def tensor_zeros(shape: ExprLike, dtype: ExprLike = ...) -> Expr:
    """numpy's zeros: a tensor of shape filled with 0 (float64 unless dtype says), the same for every row."""

def tensor_ones(shape: ExprLike, dtype: ExprLike = ...) -> Expr:
    """numpy's ones: a tensor of shape filled with 1 (float64 unless dtype says), the same for every row."""

def tensor_full(shape: ExprLike, fill_value: ExprLike, dtype: ExprLike = ...) -> Expr:
    """numpy's full: a tensor of shape filled with fill_value, in dtype or else fill_value's own type (an integer literal int64, a float literal float64, a boolean bool)."""

def tensor_eye(n_rows: ExprLike, n_cols: ExprLike = ..., k: ExprLike = ..., dtype: ExprLike = ...) -> Expr:
    """numpy's eye (the array API standard's): an n_rows x n_cols matrix (n_cols default n_rows) with ones on the k-th diagonal (k > 0 above the main one, k < 0 below) and zeros elsewhere, float64 unless dtype says."""

def tensor_arange(start: ExprLike, stop: ExprLike = ..., step: ExprLike = ..., dtype: ExprLike = ...) -> Expr:
    """numpy's arange: evenly spaced values from start (default 0: one argument is the stop) up to, not including, stop, by step (default 1); ceil((stop - start) / step) of them."""

def tensor_linspace(start: ExprLike, stop: ExprLike, num: ExprLike, endpoint: ExprLike = ..., dtype: ExprLike = ...) -> Expr:
    """numpy's linspace: num evenly spaced values from start to stop (included unless endpoint is false), computed in float64 as numpy computes them (the last value exactly stop); float64 unless dtype says (an integer dtype floors first, as numpy does)."""

def tensor_zeros_like(x: ExprLike, dtype: ExprLike = ...) -> Expr:
    """numpy's zeros_like: zeros of x's shape (each variable-shape row its own), dim names and element type (unless dtype says); NULL where x is NULL."""

def tensor_ones_like(x: ExprLike, dtype: ExprLike = ...) -> Expr:
    """numpy's ones_like: ones of x's shape, dim names and element type (unless dtype says); NULL where x is NULL."""

def tensor_full_like(x: ExprLike, fill_value: ExprLike, dtype: ExprLike = ...) -> Expr:
    """numpy's full_like: x's shape filled with fill_value cast to x's element type (unless dtype says), as numpy casts it; fill_value may be a column (each row its own); NULL where x or the fill is NULL."""

def tensor_get(*args: ExprLike) -> Expr:
    """numpy indexing and slicing, as copies (MegEngine semantics)."""

def tensor_take_along_axis(t: ExprLike, idx: ExprLike, axis: ExprLike) -> Expr:
    """numpy's take_along_axis (MegEngine's gather): along `axis`, the elements of `t` that `idx` names; off the axis, `t` and `idx` broadcast."""

def tensor_put_along_axis(t: ExprLike, idx: ExprLike, values: ExprLike, axis: ExprLike) -> Expr:
    """numpy's put_along_axis (MegEngine's scatter), as a copy: `t` with the elements that `idx` names along `axis` replaced by `values` (broadcast to idx's shape)."""

def tensor_at_set(x: ExprLike, idx: ExprLike, y: ExprLike, mode: ExprLike = ..., wrap_negative_indices: ExprLike = ..., indices_are_sorted: ExprLike = ..., unique_indices: ExprLike = ...) -> Expr:
    """JAX's x.at[idx].set(y): a copy of x with the elements idx names replaced by y (broadcast to x[idx]'s shape)."""

def tensor_at_add(x: ExprLike, idx: ExprLike, y: ExprLike, mode: ExprLike = ..., wrap_negative_indices: ExprLike = ..., indices_are_sorted: ExprLike = ..., unique_indices: ExprLike = ...) -> Expr:
    """JAX's x.at[idx].add(y): a copy of x with y added at the elements idx names; every occurrence of a duplicate index adds (unlike numpy's x[idx] += y)."""

def tensor_at_subtract(x: ExprLike, idx: ExprLike, y: ExprLike, mode: ExprLike = ..., wrap_negative_indices: ExprLike = ..., indices_are_sorted: ExprLike = ..., unique_indices: ExprLike = ...) -> Expr:
    """JAX's x.at[idx].subtract(y): y subtracted at the elements idx names, every occurrence."""

def tensor_at_multiply(x: ExprLike, idx: ExprLike, y: ExprLike, mode: ExprLike = ..., wrap_negative_indices: ExprLike = ..., indices_are_sorted: ExprLike = ..., unique_indices: ExprLike = ...) -> Expr:
    """JAX's x.at[idx].multiply(y): the elements idx names multiplied by y, every occurrence."""

def tensor_at_divide(x: ExprLike, idx: ExprLike, y: ExprLike, mode: ExprLike = ..., wrap_negative_indices: ExprLike = ..., indices_are_sorted: ExprLike = ..., unique_indices: ExprLike = ...) -> Expr:
    """JAX's x.at[idx].divide(y): the elements idx names divided by y (true division: an integer x gives Float64); duplicate divisors multiply."""

def tensor_at_power(x: ExprLike, idx: ExprLike, y: ExprLike, mode: ExprLike = ..., wrap_negative_indices: ExprLike = ..., indices_are_sorted: ExprLike = ..., unique_indices: ExprLike = ...) -> Expr:
    """JAX's x.at[idx].power(y): the elements idx names raised to y; duplicate exponents multiply."""

def tensor_at_min(x: ExprLike, idx: ExprLike, y: ExprLike, mode: ExprLike = ..., wrap_negative_indices: ExprLike = ..., indices_are_sorted: ExprLike = ..., unique_indices: ExprLike = ...) -> Expr:
    """JAX's x.at[idx].min(y): the elements idx names replaced by the minimum of themselves and y (NaN propagates)."""

def tensor_at_max(x: ExprLike, idx: ExprLike, y: ExprLike, mode: ExprLike = ..., wrap_negative_indices: ExprLike = ..., indices_are_sorted: ExprLike = ..., unique_indices: ExprLike = ...) -> Expr:
    """JAX's x.at[idx].max(y): the elements idx names replaced by the maximum of themselves and y (NaN propagates)."""

def tensor_at_get(x: ExprLike, idx: ExprLike, mode: ExprLike = ..., fill_value: ExprLike = ..., wrap_negative_indices: ExprLike = ..., indices_are_sorted: ExprLike = ..., unique_indices: ExprLike = ...) -> Expr:
    """JAX's x.at[idx].get(): x[idx], with JAX's out-of-bounds modes: by default an out-of-bounds index is clamped; mode => 'fill' returns fill_value there (default NaN, the minimum for signed integers, the maximum for unsigned, true)."""

def tensor_add(x1: ExprLike, x2: ExprLike) -> Expr:
    """numpy's add (x1 + x2; integers wrap around; booleans: or), elementwise."""

def tensor_subtract(x1: ExprLike, x2: ExprLike) -> Expr:
    """numpy's subtract (x1 - x2; integers wrap around; booleans are refused), elementwise."""

def tensor_multiply(x1: ExprLike, x2: ExprLike) -> Expr:
    """numpy's multiply (x1 * x2; integers wrap around; booleans: and), elementwise."""

def tensor_divide(x1: ExprLike, x2: ExprLike) -> Expr:
    """numpy's true_divide (x1 / x2): integers give Float64; IEEE values for a zero divisor, elementwise."""

def tensor_floor_divide(x1: ExprLike, x2: ExprLike) -> Expr:
    """numpy's floor_divide (x1 // x2): rounds towards negative infinity; an integer divided by 0 gives 0, elementwise."""

def tensor_mod(x1: ExprLike, x2: ExprLike) -> Expr:
    """numpy's remainder (x1 % x2): the sign of the divisor; an integer modulo 0 gives 0, elementwise."""

def tensor_power(x1: ExprLike, x2: ExprLike) -> Expr:
    """numpy's power (x1 ** x2): integers wrap around; an integer to a negative integer power is an error, elementwise."""

def tensor_maximum(x1: ExprLike, x2: ExprLike) -> Expr:
    """numpy's maximum: the larger element (NaN propagates), elementwise."""

def tensor_minimum(x1: ExprLike, x2: ExprLike) -> Expr:
    """numpy's minimum: the smaller element (NaN propagates), elementwise."""

def tensor_equal(x1: ExprLike, x2: ExprLike) -> Expr:
    """numpy's equal (x1 = x2), a Boolean tensor, elementwise."""

def tensor_not_equal(x1: ExprLike, x2: ExprLike) -> Expr:
    """numpy's not_equal (x1 <> x2), a Boolean tensor, elementwise."""

def tensor_less(x1: ExprLike, x2: ExprLike) -> Expr:
    """numpy's less (x1 < x2), a Boolean tensor, elementwise."""

def tensor_less_equal(x1: ExprLike, x2: ExprLike) -> Expr:
    """numpy's less_equal (x1 <= x2), a Boolean tensor, elementwise."""

def tensor_greater(x1: ExprLike, x2: ExprLike) -> Expr:
    """numpy's greater (x1 > x2), a Boolean tensor, elementwise."""

def tensor_greater_equal(x1: ExprLike, x2: ExprLike) -> Expr:
    """numpy's greater_equal (x1 >= x2), a Boolean tensor, elementwise."""

def tensor_logical_and(x1: ExprLike, x2: ExprLike) -> Expr:
    """numpy's logical_and of the elements' truth values (non-zero is true), a Boolean tensor, elementwise."""

def tensor_logical_or(x1: ExprLike, x2: ExprLike) -> Expr:
    """numpy's logical_or of the elements' truth values, a Boolean tensor, elementwise."""

def tensor_logical_xor(x1: ExprLike, x2: ExprLike) -> Expr:
    """numpy's logical_xor of the elements' truth values, a Boolean tensor, elementwise."""

def tensor_arctan2(x1: ExprLike, x2: ExprLike) -> Expr:
    """numpy's arctan2 (the array API standard's atan2): the angle of the point (x2, x1), in a float type (integers as in the unary float functions), elementwise."""

def tensor_hypot(x1: ExprLike, x2: ExprLike) -> Expr:
    """numpy's hypot: sqrt(x1 ** 2 + x2 ** 2) without overflow, in a float type, elementwise."""

def tensor_copysign(x1: ExprLike, x2: ExprLike) -> Expr:
    """numpy's copysign: x1's magnitude with x2's sign bit, in a float type, elementwise."""

def tensor_logaddexp(x1: ExprLike, x2: ExprLike) -> Expr:
    """numpy's logaddexp: log(exp(x1) + exp(x2)) without overflow, in a float type, elementwise."""

def tensor_logaddexp2(x1: ExprLike, x2: ExprLike) -> Expr:
    """numpy's logaddexp2: log2(2 ** x1 + 2 ** x2) without overflow, in a float type, elementwise."""

def tensor_nextafter(x1: ExprLike, x2: ExprLike) -> Expr:
    """numpy's nextafter: the next float after x1 towards x2, in a float type, elementwise."""

def tensor_float_power(x1: ExprLike, x2: ExprLike) -> Expr:
    """numpy's float_power: x1 ** x2 in float64 whatever the operands, elementwise."""

def tensor_fmod(x1: ExprLike, x2: ExprLike) -> Expr:
    """numpy's fmod: C's remainder, with the dividend's sign (tensor_mod takes the divisor's); an integer modulo 0 gives 0, elementwise."""

def tensor_bitwise_and(x1: ExprLike, x2: ExprLike) -> Expr:
    """numpy's bitwise_and (x1 & x2) of integers and booleans, elementwise."""

def tensor_bitwise_or(x1: ExprLike, x2: ExprLike) -> Expr:
    """numpy's bitwise_or (x1 | x2) of integers and booleans, elementwise."""

def tensor_bitwise_xor(x1: ExprLike, x2: ExprLike) -> Expr:
    """numpy's bitwise_xor (x1 ^ x2) of integers and booleans, elementwise."""

def tensor_left_shift(x1: ExprLike, x2: ExprLike) -> Expr:
    """numpy's left_shift (x1 << x2) of integers (the standard's bitwise_left_shift): bits shifted out are lost; a shift by the width or more, or a negative one, gives 0, elementwise."""

def tensor_right_shift(x1: ExprLike, x2: ExprLike) -> Expr:
    """numpy's right_shift (x1 >> x2) of integers (the standard's bitwise_right_shift): arithmetic for signed types; a shift by the width or more gives 0, or -1 for a negative x1, elementwise."""

def tensor_atan2(x1: ExprLike, x2: ExprLike) -> Expr:
    """numpy's arctan2 (the array API standard's atan2): the angle of the point (x2, x1), in a float type (integers as in the unary float functions) (tensor_atan2 is another name of tensor_arctan2), elementwise."""

def tensor_pow(x1: ExprLike, x2: ExprLike) -> Expr:
    """numpy's power (x1 ** x2): integers wrap around; an integer to a negative integer power is an error (tensor_pow is another name of tensor_power), elementwise."""

def tensor_remainder(x1: ExprLike, x2: ExprLike) -> Expr:
    """numpy's remainder (x1 % x2): the sign of the divisor; an integer modulo 0 gives 0 (tensor_remainder is another name of tensor_mod), elementwise."""

def tensor_bitwise_left_shift(x1: ExprLike, x2: ExprLike) -> Expr:
    """numpy's left_shift (x1 << x2) of integers (the standard's bitwise_left_shift): bits shifted out are lost; a shift by the width or more, or a negative one, gives 0 (tensor_bitwise_left_shift is another name of tensor_left_shift), elementwise."""

def tensor_bitwise_right_shift(x1: ExprLike, x2: ExprLike) -> Expr:
    """numpy's right_shift (x1 >> x2) of integers (the standard's bitwise_right_shift): arithmetic for signed types; a shift by the width or more gives 0, or -1 for a negative x1 (tensor_bitwise_right_shift is another name of tensor_right_shift), elementwise."""

def tensor_divmod(x1: ExprLike, x2: ExprLike) -> Expr:
    """numpy's divmod: floor_divide and remainder of the same operands, as a struct {quotient, remainder} (numpy's tuple; read one with ['quotient'])."""

def tensor_where(condition: ExprLike, x: ExprLike, y: ExprLike) -> Expr:
    """numpy's where: the element of x where condition is true (non-zero), of y elsewhere."""

def tensor_astype(x: ExprLike, dtype: ExprLike) -> Expr:
    """numpy's astype with its default (unsafe) casting: each element converted to dtype."""

def tensor_sum(x: ExprLike, axis: ExprLike = ..., keepdims: ExprLike = ..., dtype: ExprLike = ..., initial: ExprLike = ..., where: ExprLike = ...) -> Expr:
    """numpy's sum along axes: int64 for booleans and signed integers, uint64 for unsigned ones (wrapping on overflow as numpy does), floats their own type, summed pairwise in numpy's order."""

def tensor_prod(x: ExprLike, axis: ExprLike = ..., keepdims: ExprLike = ..., dtype: ExprLike = ..., initial: ExprLike = ..., where: ExprLike = ...) -> Expr:
    """numpy's prod along axes, in the types of tensor_sum."""

def tensor_mean(x: ExprLike, axis: ExprLike = ..., keepdims: ExprLike = ..., where: ExprLike = ...) -> Expr:
    """numpy's mean along axes: float64 for integers and booleans, float16 and float32 kept (float16 summed in float32)."""

def tensor_min(x: ExprLike, axis: ExprLike = ..., keepdims: ExprLike = ..., initial: ExprLike = ..., where: ExprLike = ...) -> Expr:
    """numpy's min along axes (NaN propagates); an error over no elements: zero-size array to reduction operation minimum which has no identity."""

def tensor_max(x: ExprLike, axis: ExprLike = ..., keepdims: ExprLike = ..., initial: ExprLike = ..., where: ExprLike = ...) -> Expr:
    """numpy's max along axes (NaN propagates); an error over no elements."""

def tensor_argmin(x: ExprLike, axis: ExprLike = ..., keepdims: ExprLike = ...) -> Expr:
    """numpy's argmin: the int64 index of the first minimum along one axis, or in the flattened tensor without one (the first NaN wins)."""

def tensor_argmax(x: ExprLike, axis: ExprLike = ..., keepdims: ExprLike = ...) -> Expr:
    """numpy's argmax: the int64 index of the first maximum along one axis, or in the flattened tensor without one (the first NaN wins)."""

def tensor_any(x: ExprLike, axis: ExprLike = ..., keepdims: ExprLike = ..., where: ExprLike = ...) -> Expr:
    """numpy's any along axes: whether any element is non-zero (NaN counts)."""

def tensor_all(x: ExprLike, axis: ExprLike = ..., keepdims: ExprLike = ..., where: ExprLike = ...) -> Expr:
    """numpy's all along axes: whether every element is non-zero."""

def tensor_var(x: ExprLike, axis: ExprLike = ..., keepdims: ExprLike = ..., ddof: ExprLike = ..., correction: ExprLike = ..., where: ExprLike = ...) -> Expr:
    """numpy's var along axes: the mean of squared deviations from the mean, divided by count - ddof; float64 for integers and booleans, floats their own type."""

def tensor_std(x: ExprLike, axis: ExprLike = ..., keepdims: ExprLike = ..., ddof: ExprLike = ..., correction: ExprLike = ..., where: ExprLike = ...) -> Expr:
    """numpy's std along axes: the square root of tensor_var."""

def tensor_cumsum(x: ExprLike, axis: ExprLike = ..., dtype: ExprLike = ...) -> Expr:
    """numpy's cumsum along one axis (the flattened tensor without one), in the types of tensor_sum."""

def tensor_cumprod(x: ExprLike, axis: ExprLike = ..., dtype: ExprLike = ...) -> Expr:
    """numpy's cumprod along one axis (the flattened tensor without one), in the types of tensor_sum."""

def tensor_cumulative_sum(x: ExprLike, axis: ExprLike = ..., include_initial: ExprLike = ..., dtype: ExprLike = ...) -> Expr:
    """The array API standard's cumulative_sum (numpy 2's): tensor_cumsum along axis, which a tensor of more than one dimension must give; include_initial => true starts each line with 0 (the axis one longer)."""

def tensor_cumulative_prod(x: ExprLike, axis: ExprLike = ..., include_initial: ExprLike = ..., dtype: ExprLike = ...) -> Expr:
    """The array API standard's cumulative_prod (numpy 2's): tensor_cumprod along axis, which a tensor of more than one dimension must give; include_initial => true starts each line with 1 (the axis one longer)."""

def tensor_nansum(x: ExprLike, axis: ExprLike = ..., keepdims: ExprLike = ..., dtype: ExprLike = ..., initial: ExprLike = ..., where: ExprLike = ...) -> Expr:
    """numpy's nansum along axes: tensor_sum with NaN counted as 0."""

def tensor_nanprod(x: ExprLike, axis: ExprLike = ..., keepdims: ExprLike = ..., dtype: ExprLike = ..., initial: ExprLike = ..., where: ExprLike = ...) -> Expr:
    """numpy's nanprod along axes: tensor_prod with NaN counted as 1."""

def tensor_nanmean(x: ExprLike, axis: ExprLike = ..., keepdims: ExprLike = ..., where: ExprLike = ...) -> Expr:
    """numpy's nanmean along axes: the mean of the elements that are not NaN (their sum in the element type, divided by their count); NaN where every element is."""

def tensor_nanmin(x: ExprLike, axis: ExprLike = ..., keepdims: ExprLike = ..., initial: ExprLike = ..., where: ExprLike = ...) -> Expr:
    """numpy's nanmin along axes: the minimum ignoring NaN; NaN where every element is; an error over no elements."""

def tensor_nanmax(x: ExprLike, axis: ExprLike = ..., keepdims: ExprLike = ..., initial: ExprLike = ..., where: ExprLike = ...) -> Expr:
    """numpy's nanmax along axes: the maximum ignoring NaN; NaN where every element is; an error over no elements."""

def tensor_nanargmin(x: ExprLike, axis: ExprLike = ..., keepdims: ExprLike = ...) -> Expr:
    """numpy's nanargmin: the index of the first minimum ignoring NaN, along one axis or in the flattened tensor; a slice of NaN only is numpy's error (All-NaN slice encountered), naming the row."""

def tensor_nanargmax(x: ExprLike, axis: ExprLike = ..., keepdims: ExprLike = ...) -> Expr:
    """numpy's nanargmax: the index of the first maximum ignoring NaN, along one axis or in the flattened tensor; a slice of NaN only is numpy's error."""

def tensor_nanvar(x: ExprLike, axis: ExprLike = ..., keepdims: ExprLike = ..., ddof: ExprLike = ..., correction: ExprLike = ..., where: ExprLike = ...) -> Expr:
    """numpy's nanvar along axes: tensor_var of the elements that are not NaN, divided by their count - ddof; NaN where that is not positive."""

def tensor_nanstd(x: ExprLike, axis: ExprLike = ..., keepdims: ExprLike = ..., ddof: ExprLike = ..., correction: ExprLike = ..., where: ExprLike = ...) -> Expr:
    """numpy's nanstd along axes: the square root of tensor_nanvar."""

def tensor_ptp(x: ExprLike, axis: ExprLike = ..., keepdims: ExprLike = ...) -> Expr:
    """numpy's ptp (peak to peak) along axes: maximum minus minimum in the element type (integers wrap, as numpy's subtract does; booleans are numpy's error); an error over no elements."""

def tensor_count_nonzero(x: ExprLike, axis: ExprLike = ..., keepdims: ExprLike = ...) -> Expr:
    """numpy's count_nonzero along axes: how many elements are not zero (NaN counts; booleans: how many are true), as int64."""

def tensor_vector_norm(x: ExprLike, axis: ExprLike = ..., keepdims: ExprLike = ..., ord: ExprLike = ...) -> Expr:
    """The array API standard's linalg.vector_norm (numpy 2's) over axes (NULL: every axis, the tensor flattened; a list: those axes together): ord 2 (the default) sqrt(sum(x * x)), 1 sum(|x|), 'inf' max(|x|), '-inf' min(|x|), 0 how many are not zero, any other p sum(|x| ** p) ** (1 / p)."""

def tensor_sort(x: ExprLike, axis: ExprLike = ..., descending: ExprLike = ..., stable: ExprLike = ...) -> Expr:
    """The array API standard's sort (numpy's sort, kind='stable'): the values along one axis in order, NaN last (first when descending), equal elements in their original order (the sort is always stable)."""

def tensor_argsort(x: ExprLike, axis: ExprLike = ..., descending: ExprLike = ..., stable: ExprLike = ...) -> Expr:
    """The array API standard's argsort (numpy's argsort, kind='stable'): the int64 indices along one axis that sort it, NaN last (first when descending), equal elements in their original order."""

def tensor_diff(x: ExprLike, n: ExprLike = ..., axis: ExprLike = ..., prepend: ExprLike = ..., append: ExprLike = ...) -> Expr:
    """numpy's diff: the n-th differences along axis (a[i + 1] - a[i], n times; integers wrap, booleans give not_equal)."""

def tensor_topk(x: ExprLike, k: ExprLike, axis: ExprLike = ..., largest: ExprLike = ...) -> Expr:
    """The k largest elements along an axis (largest => false: the k smallest) and their indices, in order, as torch.topk(x, k, dim=axis, largest, sorted=True) returns them: a struct {values, indices} of two tensors of x's shape with the axis k long (indices int64)."""

def tensor_argpartition(x: ExprLike, kth: ExprLike, axis: ExprLike = ...) -> Expr:
    """numpy's argpartition along axis (default -1): int64 indices of x's shape that put each kth element (an integer or a list, negative from the end) where a sort would put it, every element before it not greater and every one after it not smaller, in numpy's order (NaN last, an element NULL after NaN)."""

def tensor_nonzero(x: ExprLike) -> Expr:
    """numpy's nonzero: the indices of the elements that are not zero (NaN is not zero), as one int64 variable-shape tensor of shape [ndim, count] per row: numpy's tuple of ndim index arrays stacked in order (tensor_get(tensor_nonzero(x), 0) is numpy's nonzero(x)[0]; tensor_transpose of it is numpy's argwhere)."""

def tensor_searchsorted(x1: ExprLike, x2: ExprLike, side: ExprLike = ...) -> Expr:
    """numpy's searchsorted: for each element of x2, the index where it would be inserted into the sorted 1-d x1 to keep it sorted (side 'left': before equal elements; 'right': after them), by binary search in numpy's sort order (NaN last)."""

def tensor_unique_values(x: ExprLike) -> Expr:
    """The array API standard's unique_values (numpy 2's): the distinct elements of x flattened, as a 1-d variable-shape tensor, sorted in np.unique's order."""

def tensor_unique_counts(x: ExprLike) -> Expr:
    """The array API standard's unique_counts (numpy 2's): a struct {values, counts}, the distinct elements of x flattened (as tensor_unique_values) and how many times each occurs (int64), both 1-d variable-shape tensors."""

def tensor_unique_inverse(x: ExprLike) -> Expr:
    """The array API standard's unique_inverse (numpy 2's): a struct {values, inverse_indices}, the distinct elements of x flattened (as tensor_unique_values) and, for each element of x, its index into them (int64, of x's shape, as numpy 2 returns it)."""

def tensor_unique_all(x: ExprLike) -> Expr:
    """The array API standard's unique_all (numpy 2's): a struct {values, indices, inverse_indices, counts}: the distinct elements of x flattened (as tensor_unique_values), the index of each one's first occurrence in x flattened, each element's index into them (of x's shape) and how many times each occurs (all int64)."""

def tensor_bincount(x: ExprLike, weights: ExprLike = ..., minlength: ExprLike = ...) -> Expr:
    """numpy's bincount: how many times each value 0, 1, ..., max(x) occurs in the 1-d row x of non-negative integers (int64), or with weights the sum of the weights at each value (float64): a 1-d variable-shape tensor of max(x) + 1 elements, at least minlength."""

def tensor_one_hot(x: ExprLike, num_classes: ExprLike, dtype: ExprLike = ...) -> Expr:
    """jax.nn.one_hot: each integer of x (a tensor or a number) as a new last axis of num_classes elements, 1 at its value and 0 elsewhere (all 0 for a value outside 0 ."""

def tensor_negative(x: ExprLike) -> Expr:
    """numpy's negative: -x (integers wrap; not for booleans), element by element, in numpy 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64)."""

def tensor_abs(x: ExprLike) -> Expr:
    """numpy's absolute: |x| (integers wrap: abs of int8 -128 is -128), element by element, in numpy 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64)."""

def tensor_sign(x: ExprLike) -> Expr:
    """numpy's sign: -1, 0 or 1 in x's type, NaN for NaN (not for booleans), element by element, in numpy 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64)."""

def tensor_square(x: ExprLike) -> Expr:
    """numpy's square: x * x (integers wrap; booleans give int8), element by element, in numpy 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64)."""

def tensor_sqrt(x: ExprLike) -> Expr:
    """numpy's sqrt, element by element, in numpy 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64)."""

def tensor_exp(x: ExprLike) -> Expr:
    """numpy's exp, element by element, in numpy 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64)."""

def tensor_log(x: ExprLike) -> Expr:
    """numpy's log (natural), element by element, in numpy 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64)."""

def tensor_log1p(x: ExprLike) -> Expr:
    """numpy's log1p: log(1 + x), element by element, in numpy 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64)."""

def tensor_expm1(x: ExprLike) -> Expr:
    """numpy's expm1: exp(x) - 1, element by element, in numpy 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64)."""

def tensor_sin(x: ExprLike) -> Expr:
    """numpy's sin, element by element, in numpy 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64)."""

def tensor_cos(x: ExprLike) -> Expr:
    """numpy's cos, element by element, in numpy 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64)."""

def tensor_tan(x: ExprLike) -> Expr:
    """numpy's tan, element by element, in numpy 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64)."""

def tensor_tanh(x: ExprLike) -> Expr:
    """numpy's tanh, element by element, in numpy 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64)."""

def tensor_arctan(x: ExprLike) -> Expr:
    """numpy's arctan, element by element, in numpy 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64)."""

def tensor_arcsin(x: ExprLike) -> Expr:
    """numpy's arcsin (NaN outside [-1, 1]), element by element, in numpy 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64)."""

def tensor_arccos(x: ExprLike) -> Expr:
    """numpy's arccos (NaN outside [-1, 1]), element by element, in numpy 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64)."""

def tensor_arcsinh(x: ExprLike) -> Expr:
    """numpy's arcsinh, element by element, in numpy 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64)."""

def tensor_arccosh(x: ExprLike) -> Expr:
    """numpy's arccosh (NaN below 1), element by element, in numpy 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64)."""

def tensor_arctanh(x: ExprLike) -> Expr:
    """numpy's arctanh (NaN outside [-1, 1], infinite at -1 and 1), element by element, in numpy 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64)."""

def tensor_sinh(x: ExprLike) -> Expr:
    """numpy's sinh, element by element, in numpy 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64)."""

def tensor_cosh(x: ExprLike) -> Expr:
    """numpy's cosh, element by element, in numpy 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64)."""

def tensor_log2(x: ExprLike) -> Expr:
    """numpy's log2, element by element, in numpy 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64)."""

def tensor_log10(x: ExprLike) -> Expr:
    """numpy's log10, element by element, in numpy 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64)."""

def tensor_asin(x: ExprLike) -> Expr:
    """numpy's asin (the array API standard's name of tensor_arcsin), element by element, in numpy 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64)."""

def tensor_acos(x: ExprLike) -> Expr:
    """numpy's acos (the array API standard's name of tensor_arccos), element by element, in numpy 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64)."""

def tensor_atan(x: ExprLike) -> Expr:
    """numpy's atan (the array API standard's name of tensor_arctan), element by element, in numpy 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64)."""

def tensor_asinh(x: ExprLike) -> Expr:
    """numpy's asinh (the array API standard's name of tensor_arcsinh), element by element, in numpy 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64)."""

def tensor_acosh(x: ExprLike) -> Expr:
    """numpy's acosh (the array API standard's name of tensor_arccosh), element by element, in numpy 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64)."""

def tensor_atanh(x: ExprLike) -> Expr:
    """numpy's atanh (the array API standard's name of tensor_arctanh), element by element, in numpy 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64)."""

def tensor_rint(x: ExprLike) -> Expr:
    """numpy's rint: to the nearest integer, ties to even, as a float (integers in their float type), element by element, in numpy 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64)."""

def tensor_trunc(x: ExprLike) -> Expr:
    """numpy's trunc: towards zero (integers and booleans kept as they are), element by element, in numpy 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64)."""

def tensor_positive(x: ExprLike) -> Expr:
    """numpy's positive: +x, a copy (not for booleans), element by element, in numpy 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64)."""

def tensor_reciprocal(x: ExprLike) -> Expr:
    """numpy's reciprocal: 1 / x (integers: 1.0 / x cast back, as numpy does: 0 for |x| > 1, and 1 / 0 the cast of infinity; booleans give int8), element by element, in numpy 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64)."""

def tensor_signbit(x: ExprLike) -> Expr:
    """numpy's signbit: whether the sign bit is set (true for -0.0 and a negative NaN), element by element, in numpy 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64)."""

def tensor_invert(x: ExprLike) -> Expr:
    """numpy's invert: ~x, bitwise not of integers, logical not of booleans (not for floats), element by element, in numpy 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64)."""

def tensor_bitwise_invert(x: ExprLike) -> Expr:
    """numpy's bitwise_invert (the array API standard's name of tensor_invert): ~x, element by element, in numpy 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64)."""

def tensor_floor(x: ExprLike) -> Expr:
    """numpy's floor (integers and booleans kept as they are), element by element, in numpy 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64)."""

def tensor_ceil(x: ExprLike) -> Expr:
    """numpy's ceil (integers and booleans kept as they are), element by element, in numpy 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64)."""

def tensor_round(x: ExprLike, decimals: ExprLike = ...) -> Expr:
    """numpy's round(x, decimals): to the nearest multiple of 10^-decimals, ties to even, in x's type, element by element, in numpy 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64)."""

def tensor_clip(x: ExprLike, min: ExprLike = ..., max: ExprLike = ...) -> Expr:
    """numpy's clip(x, min, max): x limited to [min, max] (NULL: no bound), NaN propagating; the type of x with the bounds as weak Python scalars (a float bound makes an integer x float64), element by element, in numpy 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64)."""

def tensor_isnan(x: ExprLike) -> Expr:
    """numpy's isnan: whether each element is NaN, element by element, in numpy 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64)."""

def tensor_isinf(x: ExprLike) -> Expr:
    """numpy's isinf: whether each element is infinite, element by element, in numpy 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64)."""

def tensor_isfinite(x: ExprLike) -> Expr:
    """numpy's isfinite: whether each element is finite, element by element, in numpy 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64)."""

def tensor_logical_not(x: ExprLike) -> Expr:
    """numpy's logical_not: whether each element is zero (false), element by element, in numpy 2's result type (the float functions of int8, uint8 and booleans in float16, of 16-bit integers in float32, of wider integers in float64)."""

def tensor_transpose(x: ExprLike, axes: ExprLike = ...) -> Expr:
    """numpy's transpose / permute_dims: the dimensions in the order axes gives (reversed without axes)."""

def tensor_permute_dims(x: ExprLike, axes: ExprLike = ...) -> Expr:
    """numpy's transpose / permute_dims: the dimensions in the order axes gives (reversed without axes)."""

def tensor_squeeze(x: ExprLike, axis: ExprLike = ...) -> Expr:
    """numpy's squeeze: removes dimensions of length 1, those of axis or, without it, all of them (on a variable-shape tensor, without axis, which dimensions have length 1 must be known from its uniform_shape)."""

def tensor_expand_dims(x: ExprLike, axis: ExprLike) -> Expr:
    """numpy's expand_dims: inserts dimensions of length 1 at the positions axis gives (positions in the result)."""

def tensor_broadcast_to(x: ExprLike, shape: ExprLike) -> Expr:
    """numpy's broadcast_to: the tensor repeated to a literal shape by numpy's broadcasting rules; a shape it does not broadcast to is numpy's error (operands could not be broadcast together with remapped shapes ...), naming the row for variable-shape rows."""

def tensor_flatten(x: ExprLike) -> Expr:
    """numpy's ravel: the elements in logical row-major (C) order, as a 1-d tensor."""

def tensor_flip(x: ExprLike, axis: ExprLike = ...) -> Expr:
    """numpy's flip: the elements in reverse order along axis (an integer or a list), or along every axis without it."""

def tensor_moveaxis(x: ExprLike, source: ExprLike, destination: ExprLike) -> Expr:
    """numpy's moveaxis: the dimensions source (an integer or a list) moved to the positions destination gives, the others keeping their order."""

def tensor_swapaxes(x: ExprLike, axis1: ExprLike, axis2: ExprLike) -> Expr:
    """numpy's swapaxes: dimensions axis1 and axis2 exchanged."""

def tensor_matrix_transpose(x: ExprLike) -> Expr:
    """numpy's matrix_transpose (the array API standard's): the last two dimensions exchanged, a stack of matrices transposed."""

def tensor_roll(x: ExprLike, shift: ExprLike, axis: ExprLike = ...) -> Expr:
    """numpy's roll: the elements shifted along axis (an integer or a list, with shift an integer or a list as long), those pushed off one end coming back at the other; without axis, the flattened elements shifted and the shape kept."""

def tensor_repeat(x: ExprLike, repeats: ExprLike, axis: ExprLike = ...) -> Expr:
    """numpy's repeat: each element along axis repeated repeats times (an integer, or a list with one count per element); without axis, the flattened elements, as a 1-d tensor."""

def tensor_tile(x: ExprLike, reps: ExprLike) -> Expr:
    """numpy's tile: the tensor repeated reps times along each axis (an integer or a list)."""

def tensor_take(x: ExprLike, indices: ExprLike, axis: ExprLike = ...) -> Expr:
    """numpy's take (mode 'raise'): the elements at indices along axis (negative from the end), or of the flattened tensor without axis."""

def tensor_pad(x: ExprLike, pad_width: ExprLike, mode: ExprLike = ..., constant_values: ExprLike = ...) -> Expr:
    """numpy's pad: pad_width elements before and after each axis, found by mode: 'constant' (constant_values, 0 by default, cast to the element type), 'edge', 'reflect', 'symmetric' or 'wrap'."""

def tensor_tril(x: ExprLike, k: ExprLike = ...) -> Expr:
    """numpy's tril: the lower triangle of each matrix (the last two dimensions), the elements above diagonal k set to zero (false for booleans)."""

def tensor_triu(x: ExprLike, k: ExprLike = ...) -> Expr:
    """numpy's triu: the upper triangle of each matrix (the last two dimensions), the elements below diagonal k set to zero (false for booleans)."""

def tensor_split(x: ExprLike, indices_or_sections: ExprLike, axis: ExprLike = ...) -> Expr:
    """numpy's split: x divided along axis (default 0) into equal sections (an integer: numpy's error 'array split does not result in an equal division' otherwise) or at indices (a list: Python's slices between them)."""

def tensor_array_split(x: ExprLike, indices_or_sections: ExprLike, axis: ExprLike = ...) -> Expr:
    """numpy's array_split: tensor_split, but a number of sections need not divide the axis (the first n % sections parts are one element longer)."""

def tensor_unstack(x: ExprLike, axis: ExprLike = ...) -> Expr:
    """The array API standard's unstack (numpy 2.1's): one part per element along axis (default 0), the axis dropped, as a struct with fields '0', '1', ...; the axis's length must be known when the query is planned."""

def tensor_broadcast_arrays(*args: ExprLike) -> Expr:
    """numpy's broadcast_arrays: every tensor broadcast to their common shape (numpy's broadcasting; numpy's error 'shape mismatch: objects cannot be broadcast to a single shape' otherwise, naming the row where the shapes vary by row)."""

def tensor_matmul(x1: ExprLike, x2: ExprLike) -> Expr:
    """numpy's matmul: the matrix product of the last two dimensions, the others broadcast as batch dimensions; a 1-d first operand is a row vector and a 1-d second one a column vector, their added dimension removed from the result."""

def tensor_dot(a: ExprLike, b: ExprLike) -> Expr:
    """numpy's dot: the sum over the last axis of a and the second-to-last of b (the only one of a 1-d b); a 0-d operand multiplies."""

def tensor_inner(a: ExprLike, b: ExprLike) -> Expr:
    """numpy's inner: the sum over the last axes of a and b; the result has a's other dimensions, then b's."""

def tensor_outer(a: ExprLike, b: ExprLike) -> Expr:
    """numpy's outer: every product of an element of a with one of b, both flattened: a (a.size, b.size) matrix."""

def tensor_tensordot(a: ExprLike, b: ExprLike, axes: ExprLike = ...) -> Expr:
    """numpy's tensordot: the sum over the last `axes` axes of a and the first of b, or over the axes paired in `axes`; the result has a's other dimensions, then b's."""

def tensor_trace(a: ExprLike, offset: ExprLike = ..., axis1: ExprLike = ..., axis2: ExprLike = ...) -> Expr:
    """numpy's trace: the sum of the diagonal of axis1 and axis2 at offset, in numpy's sum types (int64 for booleans and signed integers, uint64 for unsigned ones, floats their own)."""

def tensor_diagonal(a: ExprLike, offset: ExprLike = ..., axis1: ExprLike = ..., axis2: ExprLike = ...) -> Expr:
    """numpy's diagonal: the diagonal of axis1 and axis2 at offset, as the last dimension after the others; a copy in the tensor's own type."""

def tensor_einsum(*args: ExprLike) -> Expr:
    """numpy's einsum (optimize=False): numpy's subscripts grammar (labels per operand separated by commas, '->' and the output, or the implicit output: the labels appearing once, in alphabetical order; '...' broadcasts; a label repeated in an operand takes a diagonal; labels left out of the output are summed), parsed and planned once per query."""

def tensor_vecdot(x1: ExprLike, x2: ExprLike, axis: ExprLike = ...) -> Expr:
    """numpy 2's vecdot (the array API standard's linalg.vecdot): the dot product of x1 and x2 along axis of each (the last by default), the other dimensions broadcast; in the operands' common type (numpy's sum of products: integers wrap, booleans are or of ands)."""

def tensor_kron(a: ExprLike, b: ExprLike) -> Expr:
    """numpy's kron: the Kronecker product, every product of an element of a with one of b, the shapes padded with 1s in front to one length, the result's dimension d a's times b's (block (i, j) is a[i, j] * b); in numpy's result type of the operands (integers wrap, booleans and)."""

def tensor_inner_product(a: ExprLike, b: ExprLike, axis: ExprLike = ...) -> Expr:
    """The inner product sum(a * b) along the last axis (or `axis`) of a and b, broadcast by numpy's rules."""

def tensor_l2_distance(a: ExprLike, b: ExprLike, axis: ExprLike = ...) -> Expr:
    """The Euclidean distance sqrt(sum((a - b)^2)) along the last axis (or `axis`) of a and b, broadcast by numpy's rules."""

def tensor_cosine_similarity(a: ExprLike, b: ExprLike, axis: ExprLike = ...) -> Expr:
    """The cosine similarity sum(a * b) / (sqrt(sum(a * a)) * sqrt(sum(b * b))) (NaN for a zero vector) along the last axis (or `axis`) of a and b, broadcast by numpy's rules."""

def tensor_cosine_distance(a: ExprLike, b: ExprLike, axis: ExprLike = ...) -> Expr:
    """The cosine distance 1 - tensor_cosine_similarity(a, b) (DuckDB's array_cosine_distance; NaN for a zero vector) along the last axis (or `axis`) of a and b, broadcast by numpy's rules."""

def tensor_norm(x: ExprLike, ord: ExprLike = ..., axis: ExprLike = ..., keepdims: ExprLike = ...) -> Expr:
    """numpy's linalg.norm of each row."""

def tensor_matrix_norm(x: ExprLike, keepdims: ExprLike = ..., ord: ExprLike = ...) -> Expr:
    """The array API's linalg.matrix_norm: tensor_norm over the last two axes (numpy's norm(x, ord, axis=(-2, -1), keepdims)); ord 'fro' by default, or 'nuc', 1, -1, 2, -2, inf, -inf (as strings 'inf', '-inf' too)."""

def tensor_cross(x1: ExprLike, x2: ExprLike, axis: ExprLike = ...) -> Expr:
    """numpy 2's linalg.cross (the array API standard's): the cross product of the 3-vectors along axis of x1 and x2 (default -1, the last), the other dimensions broadcast; the result holds the vectors at axis."""

def tensor_det(x: ExprLike) -> Expr:
    """numpy's linalg.det: the determinant of each matrix (from its LU factorisation, as sign * exp(logabsdet))."""

def tensor_slogdet(x: ExprLike) -> Expr:
    """numpy's linalg.slogdet: a struct {sign, logabsdet} per row; sign 0 and logabsdet -inf for a singular matrix."""

def tensor_inv(x: ExprLike) -> Expr:
    """numpy's linalg.inv: the inverse of each matrix; numpy's error Singular matrix (naming the row) where a pivot is exactly zero."""

def tensor_solve(a: ExprLike, b: ExprLike) -> Expr:
    """numpy's linalg.solve: x with a @ x = b."""

def tensor_cholesky(x: ExprLike, upper: ExprLike = ...) -> Expr:
    """numpy's linalg.cholesky: the lower-triangular L with L @ L.T = x, read from x's lower triangle (upper => true: L.T)."""

def tensor_qr(x: ExprLike, mode: ExprLike = ...) -> Expr:
    """numpy's linalg.qr: a struct {Q, R} (mode 'reduced', the default: Q m x k, R k x n with k = min(m, n); 'complete': Q m x m, R m x n), or R alone (mode 'r')."""

def tensor_eigh(x: ExprLike, uplo: ExprLike = ...) -> Expr:
    """numpy's linalg.eigh: a struct {eigenvalues (ascending), eigenvectors (columns)} of each symmetric matrix, read from its lower triangle (uplo 'L', the default) or upper ('U')."""

def tensor_eigvalsh(x: ExprLike, uplo: ExprLike = ...) -> Expr:
    """numpy's linalg.eigvalsh: the eigenvalues (ascending) of each symmetric matrix, read from one triangle (uplo 'L' or 'U')."""

def tensor_eig(x: ExprLike) -> Expr:
    """numpy's linalg.eig of a real spectrum: a struct {eigenvalues, eigenvectors (unit columns)}."""

def tensor_eigvals(x: ExprLike) -> Expr:
    """numpy's linalg.eigvals of a real spectrum (complex eigenvalues are refused, as tensor_eig)."""

def tensor_svd(x: ExprLike, full_matrices: ExprLike = ..., compute_uv: ExprLike = ..., hermitian: ExprLike = ...) -> Expr:
    """numpy's linalg.svd: a struct {U, S, Vh} with x = U @ diag(S) @ Vh, S descending (full_matrices => false: U m x k and Vh k x n); compute_uv => false gives S alone; hermitian => true works through eigh as numpy."""

def tensor_svdvals(x: ExprLike) -> Expr:
    """The array API's linalg.svdvals (numpy's svd(x, compute_uv=False)): the singular values, descending."""

def tensor_pinv(x: ExprLike, rcond: ExprLike = ..., hermitian: ExprLike = ..., rtol: ExprLike = ...) -> Expr:
    """numpy's linalg.pinv: the Moore-Penrose pseudo-inverse (n x m) through the SVD, singular values at or below rcond times the largest dropped (rcond 1e-15 by default, numpy's; rtol is the same cutoff, and both may not be given)."""

def tensor_matrix_rank(x: ExprLike, tol: ExprLike = ..., hermitian: ExprLike = ..., rtol: ExprLike = ...) -> Expr:
    """numpy's linalg.matrix_rank (int64): the count of singular values above tol, or above rtol times the largest (by default max(m, n) * eps of the result type)."""

def tensor_lstsq(a: ExprLike, b: ExprLike, rcond: ExprLike = ...) -> Expr:
    """numpy's linalg.lstsq of a 2-d a: a struct {x (the minimum-norm least-squares solution), residuals (the squared residual per column of b, empty unless the rank is n and m > n; variable-shape), rank (int64), s (the singular values)}."""

def tensor_matrix_power(x: ExprLike, n: ExprLike) -> Expr:
    """numpy's linalg.matrix_power: each square matrix to the integer power n, by numpy's repeated squaring in the element type (integers wrap, booleans are OR of ANDs); n = 0 gives the identity, a negative n the inverse's power (float)."""

def tensor_choose(*args: ExprLike, mode: ExprLike = ...) -> Expr:
    """numpy's choose: builds a tensor from an index tensor `a` and a set of choices."""

def tensor_at_apply(x: ExprLike, idx: ExprLike, fn: ExprLike, mode: ExprLike = ..., wrap_negative_indices: ExprLike = ..., indices_are_sorted: ExprLike = ..., unique_indices: ExprLike = ...) -> Expr:
    """JAX's x.at[idx].apply(fn) (numpy's ufunc.at): fn applied to the elements idx names, once per occurrence."""

def tensor_map(x: ExprLike, fn: ExprLike) -> Expr:
    """A SQL lambda applied to every element of a tensor, numpy's `np.vectorize(f)(x)`: the result has x's shape, dim names and NULL rows, and the lambda's element type (`v -> v > 0` gives a Boolean tensor)."""

def tensor_concatenate(*args: ExprLike, axis: ExprLike = ...) -> Expr:
    """numpy's concatenate: the tensors joined along an existing axis (default 0), or, with axis NULL, flattened and joined."""

def tensor_concat(*args: ExprLike, axis: ExprLike = ...) -> Expr:
    """The array API standard's concat (numpy's concatenate, as tensor_concatenate): the tensors joined along an existing axis (default 0), or, with axis NULL, flattened and joined."""

def tensor_stack(*args: ExprLike, axis: ExprLike = ...) -> Expr:
    """numpy's stack: the tensors, all of one shape, joined along a new axis (default 0)."""

def tensor_hstack(*args: ExprLike) -> Expr:
    """numpy's hstack: the tensors joined along axis 1, or along axis 0 when they are 1-d (each read as numpy's atleast_1d: a 0-d tensor as one element)."""

def tensor_vstack(*args: ExprLike) -> Expr:
    """numpy's vstack: the tensors joined along axis 0, each read as numpy's atleast_2d (a 1-d tensor of n elements as a 1 x n matrix, a 0-d one as 1 x 1)."""

def tensor_meshgrid(*args: ExprLike, indexing: ExprLike = ..., sparse: ExprLike = ...) -> Expr:
    """numpy's meshgrid: coordinate tensors from coordinate vectors (each input flattened)."""

def tensor_agg_sum(x: ExprLike, *, distinct: bool = ...) -> Expr:
    """Aggregate: numpy's sum(np.stack(rows), axis=0) over a group's non-NULL tensors, element by element: int64 for booleans and signed integers, uint64 for unsigned ones (wrapping on overflow as numpy does), floats their own type, added in row order as numpy does."""

def tensor_agg_mean(x: ExprLike, *, distinct: bool = ...) -> Expr:
    """Aggregate: numpy's mean over a group's non-NULL tensors, element by element: float64 for integers and booleans, float16 and float32 kept (float16 summed in float32)."""

def tensor_agg_min(x: ExprLike, *, distinct: bool = ...) -> Expr:
    """Aggregate: numpy's min over a group's non-NULL tensors, element by element, in their type (NaN propagates)."""

def tensor_agg_max(x: ExprLike, *, distinct: bool = ...) -> Expr:
    """Aggregate: numpy's max over a group's non-NULL tensors, element by element, in their type (NaN propagates)."""

def tensor_agg_prod(x: ExprLike, *, distinct: bool = ...) -> Expr:
    """Aggregate: numpy's prod over a group's non-NULL tensors, element by element, in the types of tensor_agg_sum."""

def tensor_agg_var(x: ExprLike, ddof: ExprLike = ..., *, distinct: bool = ...) -> Expr:
    """Aggregate: numpy's var(np.stack(rows), axis=0, ddof=ddof) over a group's non-NULL tensors: float64 for integers and booleans, floats their own type; computed in float64 (Welford, merged with Chan's formula), within float tolerance of numpy's two-pass result."""

def tensor_agg_std(x: ExprLike, ddof: ExprLike = ..., *, distinct: bool = ...) -> Expr:
    """Aggregate: numpy's std over a group's non-NULL tensors: the square root of tensor_agg_var."""

def tensor_agg_stack(x: ExprLike, *, distinct: bool = ...) -> Expr:
    """Aggregate: numpy's stack of a group's non-NULL tensors, in the order of the call's ORDER BY: a variable-shape tensor whose leading dimension is the number of rows."""

def tensor_agg_cov(x: ExprLike, ddof: ExprLike = ..., *, distinct: bool = ...) -> Expr:
    """Aggregate: numpy's cov(np.stack(rows), rowvar=False, ddof=ddof) over a group's non-NULL rows, each row one observation of the variables along its one dimension: a [d, d] float64 tensor (variable-shape for variable-shape or list rows; a plain number for 0-d rows)."""

def tensor_agg_corrcoef(x: ExprLike, *, distinct: bool = ...) -> Expr:
    """Aggregate: numpy's corrcoef(np.stack(rows), rowvar=False): tensor_agg_cov divided by the variables' standard deviations and clipped to [-1, 1], as numpy computes it (NaN for a constant variable)."""
