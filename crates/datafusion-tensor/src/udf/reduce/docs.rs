//! The documentation of the reductions (`SHOW FUNCTIONS`, `\\h`).

use datafusion::logical_expr::Documentation;

use super::ReduceFunction;
use crate::kernels::reduce::Reduction;

/// The documentation of each function.
#[allow(
    clippy::too_many_lines,
    reason = "a table: each function's words and example"
)]
pub fn documentation(function: ReduceFunction) -> Documentation {
    use ReduceFunction as F;
    let (description, example_call, example_out) = match function {
        F::Reduce(Reduction::Sum) => (
            "numpy's sum along axes: int64 for booleans and signed integers, uint64 for unsigned ones (wrapping on overflow as numpy does), floats their own type, summed pairwise in numpy's order. 0 over no elements.",
            "tensor_sum(tensor([1, 2, 3, 4, 5, 6], [2, 3]), axis => 0)",
            "[5, 7, 9]",
        ),
        F::Reduce(Reduction::Prod) => (
            "numpy's prod along axes, in the types of tensor_sum. 1 over no elements.",
            "tensor_prod(tensor([1, 2, 3, 4, 5, 6], [2, 3]), axis => 1)",
            "[6, 120]",
        ),
        F::Reduce(Reduction::Mean) => (
            "numpy's mean along axes: float64 for integers and booleans, float16 and float32 kept (float16 summed in float32). NaN over no elements.",
            "tensor_mean(tensor([1, 2, 3, 4, 5, 6], [2, 3]), axis => 0)",
            "[2.5, 3.5, 4.5]",
        ),
        F::Reduce(Reduction::Min) => (
            "numpy's min along axes (NaN propagates); an error over no elements: zero-size array to reduction operation minimum which has no identity.",
            "tensor_min(tensor([3, 1, 2, 6, 5, 4], [2, 3]), axis => 1)",
            "[1, 4]",
        ),
        F::Reduce(Reduction::Max) => (
            "numpy's max along axes (NaN propagates); an error over no elements.",
            "tensor_max(tensor([3, 1, 2, 6, 5, 4], [2, 3]), axis => 1)",
            "[3, 6]",
        ),
        F::Reduce(Reduction::ArgMin) => (
            "numpy's argmin: the int64 index of the first minimum along one axis, or in the flattened tensor without one (the first NaN wins).",
            "tensor_argmin(tensor([3, 1, 2, 6, 5, 4], [2, 3]), axis => 1)",
            "[1, 2]",
        ),
        F::Reduce(Reduction::ArgMax) => (
            "numpy's argmax: the int64 index of the first maximum along one axis, or in the flattened tensor without one (the first NaN wins).",
            "tensor_argmax(tensor([3, 1, 2, 6, 5, 4], [2, 3]))",
            "3",
        ),
        F::Reduce(Reduction::Any) => (
            "numpy's any along axes: whether any element is non-zero (NaN counts). false over no elements.",
            "tensor_any(tensor([0, 0, 0, 1], [2, 2]), axis => 1)",
            "[false, true]",
        ),
        F::Reduce(Reduction::All) => (
            "numpy's all along axes: whether every element is non-zero. true over no elements.",
            "tensor_all(tensor([0, 1, 1, 1], [2, 2]), axis => 1)",
            "[false, true]",
        ),
        F::Reduce(Reduction::Var { .. }) => (
            "numpy's var along axes: the mean of squared deviations from the mean, divided by count - ddof; float64 for integers and booleans, floats their own type.",
            "tensor_var(tensor([1.0, 2.0, 3.0, 4.0], [4]), ddof => 1)",
            "1.6666666666666667",
        ),
        F::Reduce(Reduction::Std { .. }) => (
            "numpy's std along axes: the square root of tensor_var.",
            "tensor_std(tensor([1.0, 2.0, 3.0, 4.0], [2, 2]), axis => 0)",
            "[1.0, 1.0]",
        ),
        F::Reduce(Reduction::NanSum) => (
            "numpy's nansum along axes: tensor_sum with NaN counted as 0.",
            "tensor_nansum(tensor([1.0, 'NaN', 3.0, 4.0], [2, 2]), axis => 1)",
            "[1.0, 7.0]",
        ),
        F::Reduce(Reduction::NanProd) => (
            "numpy's nanprod along axes: tensor_prod with NaN counted as 1.",
            "tensor_nanprod(tensor([2.0, 'NaN', 3.0, 4.0], [2, 2]), axis => 1)",
            "[2.0, 12.0]",
        ),
        F::Reduce(Reduction::NanMean) => (
            "numpy's nanmean along axes: the mean of the elements that are not NaN (their sum in the element type, divided by their count); NaN where every element is.",
            "tensor_nanmean(tensor([1.0, 'NaN', 3.0, 4.0], [2, 2]), axis => 1)",
            "[1.0, 3.5]",
        ),
        F::Reduce(Reduction::NanMin) => (
            "numpy's nanmin along axes: the minimum ignoring NaN; NaN where every element is; an error over no elements.",
            "tensor_nanmin(tensor([1.0, 'NaN', 'NaN', 'NaN'], [2, 2]), axis => 1)",
            "[1.0, NaN]",
        ),
        F::Reduce(Reduction::NanMax) => (
            "numpy's nanmax along axes: the maximum ignoring NaN; NaN where every element is; an error over no elements.",
            "tensor_nanmax(tensor([1.0, 'NaN', 3.0, 4.0], [2, 2]), axis => 1)",
            "[1.0, 4.0]",
        ),
        F::Reduce(Reduction::NanArgMin) => (
            "numpy's nanargmin: the index of the first minimum ignoring NaN, along one axis or in the flattened tensor; a slice of NaN only is numpy's error (All-NaN slice encountered), naming the row.",
            "tensor_nanargmin(tensor(['NaN', 2.0, 1.0, 4.0], [2, 2]), axis => 1)",
            "[1, 0]",
        ),
        F::Reduce(Reduction::NanArgMax) => (
            "numpy's nanargmax: the index of the first maximum ignoring NaN, along one axis or in the flattened tensor; a slice of NaN only is numpy's error.",
            "tensor_nanargmax(tensor(['NaN', 2.0, 1.0, 4.0], [2, 2]))",
            "3",
        ),
        F::Reduce(Reduction::NanVar { .. }) => (
            "numpy's nanvar along axes: tensor_var of the elements that are not NaN, divided by their count - ddof; NaN where that is not positive.",
            "tensor_nanvar(tensor([1.0, 'NaN', 3.0, 5.0], [4]), ddof => 1)",
            "4.0",
        ),
        F::Reduce(Reduction::NanStd { .. }) => (
            "numpy's nanstd along axes: the square root of tensor_nanvar.",
            "tensor_nanstd(tensor([1.0, 'NaN', 3.0, 5.0], [4]))",
            "1.632993161855452",
        ),
        F::Reduce(Reduction::Ptp) => (
            "numpy's ptp (peak to peak) along axes: maximum minus minimum in the element type (integers wrap, as numpy's subtract does; booleans are numpy's error); an error over no elements.",
            "tensor_ptp(tensor([3, 1, 2, 6, 5, 9], [2, 3]), axis => 1)",
            "[2, 4]",
        ),
        F::Reduce(Reduction::CountNonzero) => (
            "numpy's count_nonzero along axes: how many elements are not zero (NaN counts; booleans: how many are true), as int64. 0 over no elements.",
            "tensor_count_nonzero(tensor([0, 1, 2, 0, 0, 3], [2, 3]), axis => 1)",
            "[2, 1]",
        ),
        F::Reduce(Reduction::VectorNorm { .. }) => (
            "The array API standard's linalg.vector_norm (numpy 2's) over axes (NULL: every axis, the tensor flattened; a list: those axes together): ord 2 (the default) sqrt(sum(x * x)), 1 sum(|x|), 'inf' max(|x|), '-inf' min(|x|), 0 how many are not zero, any other p sum(|x| ** p) ** (1 / p). Integers and booleans in float64, floats in their own type, summed in numpy's pairwise order. 'inf' and '-inf' over no elements are numpy's error.",
            "tensor_vector_norm(tensor([3, 4, 0, 12], [2, 2]), axis => 1)",
            "[5.0, 12.0]",
        ),
        F::Sort => (
            "The array API standard's sort (numpy's sort, kind='stable'): the values along one axis in order, NaN last (first when descending), equal elements in their original order (the sort is always stable). Element NULLs sort after NaN.",
            "tensor_sort(tensor([3, 1, 2, 6, 5, 4], [2, 3]), descending => true)",
            "[[3, 2, 1], [6, 5, 4]]",
        ),
        F::ArgSort => (
            "The array API standard's argsort (numpy's argsort, kind='stable'): the int64 indices along one axis that sort it, NaN last (first when descending), equal elements in their original order.",
            "tensor_argsort(tensor([3, 1, 2, 6, 5, 4], [2, 3]), axis => 0)",
            "[[0, 0, 0], [1, 1, 1]]",
        ),
        F::CumSum => (
            "numpy's cumsum along one axis (the flattened tensor without one), in the types of tensor_sum.",
            "tensor_cumsum(tensor([1, 2, 3, 4, 5, 6], [2, 3]), axis => 1)",
            "[[1, 3, 6], [4, 9, 15]]",
        ),
        F::CumProd => (
            "numpy's cumprod along one axis (the flattened tensor without one), in the types of tensor_sum.",
            "tensor_cumprod(tensor([1, 2, 3, 4, 5, 6], [2, 3]), axis => 1)",
            "[[1, 2, 6], [4, 20, 120]]",
        ),
        F::CumulativeSum => (
            "The array API standard's cumulative_sum (numpy 2's): tensor_cumsum along axis, which a tensor of more than one dimension must give; include_initial => true starts each line with 0 (the axis one longer).",
            "tensor_cumulative_sum(tensor([1, 2, 3, 4, 5, 6], [2, 3]), axis => 1, include_initial => true)",
            "[[0, 1, 3, 6], [0, 4, 9, 15]]",
        ),
        F::CumulativeProd => (
            "The array API standard's cumulative_prod (numpy 2's): tensor_cumprod along axis, which a tensor of more than one dimension must give; include_initial => true starts each line with 1 (the axis one longer).",
            "tensor_cumulative_prod(tensor([1, 2, 3, 4, 5, 6], [2, 3]), axis => 1, include_initial => true)",
            "[[1, 1, 2, 6], [1, 4, 20, 120]]",
        ),
    };
    let name = function.function_name();
    // `name(x [, axis [, keepdims ...]])`, from the parameter names.
    let options = &function.parameter_names()[1..];
    let syntax = format!(
        "{name}(x{}{})",
        options
            .iter()
            .map(|o| format!(" [, {o}"))
            .collect::<Vec<_>>()
            .concat(),
        "]".repeat(options.len())
    );
    let mut builder = crate::udf::tensor_documentation(description, syntax, example_call, example_out)
        .with_argument(
        "x",
        "A tensor (arrow.fixed_shape_tensor, arrow.variable_shape_tensor or FixedSizeList), reduced over its logical axes (its permutation applied); each variable-shape row in its own shape.",
    );
    builder = match function {
        F::Sort | F::ArgSort => builder
            .with_argument(
                "axis",
                "A literal integer (negative from the end); default -1 (NULL too).",
            )
            .with_argument("descending", "true: largest first (default false).")
            .with_argument(
                "stable",
                "A literal boolean (default true); the sort is stable either way.",
            ),
        F::Reduce(
            Reduction::ArgMin | Reduction::ArgMax | Reduction::NanArgMin | Reduction::NanArgMax,
        )
        | F::CumSum
        | F::CumProd => builder.with_argument(
            "axis",
            "A literal integer (negative from the end), or NULL / omitted: the flattened tensor.",
        ),
        F::CumulativeSum | F::CumulativeProd => builder
            .with_argument(
                "axis",
                "A literal integer (negative from the end); NULL or omitted: the only axis of a 1-d tensor.",
            )
            .with_argument(
                "include_initial",
                "A literal boolean: true starts each line with the empty sum (0) or product (1) (default false).",
            ),
        F::Reduce(_) => builder.with_argument(
            "axis",
            "A literal integer or list of integers (negative from the end), or NULL / omitted: every axis, and the result is a plain value.",
        ),
    };
    if function.takes_keepdims() {
        builder = builder.with_argument(
            "keepdims",
            "true: the reduced axes stay, of length 1 (default false).",
        );
    }
    if matches!(function, F::Reduce(Reduction::VectorNorm { .. })) {
        builder = builder.with_argument(
            "ord",
            "A literal number (2 by default; 1, 0, any p), or 'inf' / '-inf'.",
        );
    }
    if function.takes_ddof() {
        builder = builder
            .with_argument(
                "ddof",
                "Delta degrees of freedom: the divisor is count - ddof (default 0).",
            )
            .with_argument(
                "correction",
                "The array API standard's name for ddof (numpy 2 takes either, not both).",
            );
    }
    // numpy's dtype, initial and where, in the order of the parameter names.
    for name in function.parameter_names() {
        builder = match *name {
            "dtype" => builder.with_argument(
                "dtype",
                "numpy's dtype name ('bool', 'int8' ... 'float64'): the elements are cast to it (numpy's unsafe casting) and reduced in it, and the result has it (integers wrap; bool sums are logical_or, products logical_and). NaN-aware forms replace NaN first.",
            ),
            "initial" => builder.with_argument(
                "initial",
                "A literal number or boolean ('nan', 'inf', '-inf' for those floats) every output element starts from, converted to the result type as numpy converts a Python number (an integer out of range is numpy's OverflowError). A reduction over nothing gives it (min and max included).",
            ),
            "where" => builder.with_argument(
                "where",
                "A boolean tensor (a column, list literal or number) broadcast to x: only the elements where it is true are reduced (numpy's masked order, bit-exact). min and max need initial with it. A NULL mask row gives a NULL row; a NULL mask element a NULL output element.",
            ),
            _ => builder,
        };
    }
    builder.build()
}
