//! The expression builders of the functions of family Reductions (written by `render.rs`
//! from the registry: see the module docs of `expr_fn`). Do not edit.

// The docs are the SQL reference's words, in which function names are plain text.
#![allow(clippy::doc_markdown)]

use datafusion::logical_expr::Expr;

with_options! {
    /// numpy's sum along axes: int64 for booleans and signed integers, uint64 for unsigned ones
    /// (wrapping on overflow as numpy does), floats their own type, summed pairwise in numpy's
    /// order.
    ///
    /// SQL: `tensor_sum(x [, axis [, keepdims [, dtype [, initial [, where]]]]])`.
    tensor_sum(x) -> TensorSumCall {
        axis = "axis",
        keepdims = "keepdims",
        dtype = "dtype",
        initial = "initial",
        r#where = "where",
    }
}

with_options! {
    /// numpy's prod along axes, in the types of tensor_sum.
    ///
    /// SQL: `tensor_prod(x [, axis [, keepdims [, dtype [, initial [, where]]]]])`.
    tensor_prod(x) -> TensorProdCall {
        axis = "axis",
        keepdims = "keepdims",
        dtype = "dtype",
        initial = "initial",
        r#where = "where",
    }
}

with_options! {
    /// numpy's mean along axes: float64 for integers and booleans, float16 and float32 kept
    /// (float16 summed in float32).
    ///
    /// SQL: `tensor_mean(x [, axis [, keepdims [, where]]])`.
    tensor_mean(x) -> TensorMeanCall {
        axis = "axis",
        keepdims = "keepdims",
        r#where = "where",
    }
}

with_options! {
    /// numpy's min along axes (NaN propagates); an error over no elements: zero-size array to
    /// reduction operation minimum which has no identity.
    ///
    /// SQL: `tensor_min(x [, axis [, keepdims [, initial [, where]]]])`.
    tensor_min(x) -> TensorMinCall {
        axis = "axis",
        keepdims = "keepdims",
        initial = "initial",
        r#where = "where",
    }
}

with_options! {
    /// numpy's max along axes (NaN propagates); an error over no elements.
    ///
    /// SQL: `tensor_max(x [, axis [, keepdims [, initial [, where]]]])`.
    tensor_max(x) -> TensorMaxCall {
        axis = "axis",
        keepdims = "keepdims",
        initial = "initial",
        r#where = "where",
    }
}

with_options! {
    /// numpy's argmin: the int64 index of the first minimum along one axis, or in the flattened
    /// tensor without one (the first NaN wins).
    ///
    /// SQL: `tensor_argmin(x [, axis [, keepdims]])`.
    tensor_argmin(x) -> TensorArgminCall {
        axis = "axis",
        keepdims = "keepdims",
    }
}

with_options! {
    /// numpy's argmax: the int64 index of the first maximum along one axis, or in the flattened
    /// tensor without one (the first NaN wins).
    ///
    /// SQL: `tensor_argmax(x [, axis [, keepdims]])`.
    tensor_argmax(x) -> TensorArgmaxCall {
        axis = "axis",
        keepdims = "keepdims",
    }
}

with_options! {
    /// numpy's any along axes: whether any element is non-zero (NaN counts).
    ///
    /// SQL: `tensor_any(x [, axis [, keepdims [, where]]])`.
    tensor_any(x) -> TensorAnyCall {
        axis = "axis",
        keepdims = "keepdims",
        r#where = "where",
    }
}

with_options! {
    /// numpy's all along axes: whether every element is non-zero.
    ///
    /// SQL: `tensor_all(x [, axis [, keepdims [, where]]])`.
    tensor_all(x) -> TensorAllCall {
        axis = "axis",
        keepdims = "keepdims",
        r#where = "where",
    }
}

with_options! {
    /// numpy's var along axes: the mean of squared deviations from the mean, divided by count -
    /// ddof; float64 for integers and booleans, floats their own type.
    ///
    /// SQL: `tensor_var(x [, axis [, keepdims [, ddof [, correction [, where]]]]])`.
    tensor_var(x) -> TensorVarCall {
        axis = "axis",
        keepdims = "keepdims",
        ddof = "ddof",
        correction = "correction",
        r#where = "where",
    }
}

with_options! {
    /// numpy's std along axes: the square root of tensor_var.
    ///
    /// SQL: `tensor_std(x [, axis [, keepdims [, ddof [, correction [, where]]]]])`.
    tensor_std(x) -> TensorStdCall {
        axis = "axis",
        keepdims = "keepdims",
        ddof = "ddof",
        correction = "correction",
        r#where = "where",
    }
}

with_options! {
    /// numpy's cumsum along one axis (the flattened tensor without one), in the types of
    /// tensor_sum.
    ///
    /// SQL: `tensor_cumsum(x [, axis [, dtype]])`.
    tensor_cumsum(x) -> TensorCumsumCall {
        axis = "axis",
        dtype = "dtype",
    }
}

with_options! {
    /// numpy's cumprod along one axis (the flattened tensor without one), in the types of
    /// tensor_sum.
    ///
    /// SQL: `tensor_cumprod(x [, axis [, dtype]])`.
    tensor_cumprod(x) -> TensorCumprodCall {
        axis = "axis",
        dtype = "dtype",
    }
}

with_options! {
    /// The array API standard's cumulative_sum (numpy 2's): tensor_cumsum along axis, which a
    /// tensor of more than one dimension must give; include_initial =\> true starts each line with
    /// 0 (the axis one longer).
    ///
    /// SQL: `tensor_cumulative_sum(x [, axis [, include_initial [, dtype]]])`.
    tensor_cumulative_sum(x) -> TensorCumulativeSumCall {
        axis = "axis",
        include_initial = "include_initial",
        dtype = "dtype",
    }
}

with_options! {
    /// The array API standard's cumulative_prod (numpy 2's): tensor_cumprod along axis, which a
    /// tensor of more than one dimension must give; include_initial =\> true starts each line with
    /// 1 (the axis one longer).
    ///
    /// SQL: `tensor_cumulative_prod(x [, axis [, include_initial [, dtype]]])`.
    tensor_cumulative_prod(x) -> TensorCumulativeProdCall {
        axis = "axis",
        include_initial = "include_initial",
        dtype = "dtype",
    }
}

with_options! {
    /// numpy's nansum along axes: tensor_sum with NaN counted as 0.
    ///
    /// SQL: `tensor_nansum(x [, axis [, keepdims [, dtype [, initial [, where]]]]])`.
    tensor_nansum(x) -> TensorNansumCall {
        axis = "axis",
        keepdims = "keepdims",
        dtype = "dtype",
        initial = "initial",
        r#where = "where",
    }
}

with_options! {
    /// numpy's nanprod along axes: tensor_prod with NaN counted as 1.
    ///
    /// SQL: `tensor_nanprod(x [, axis [, keepdims [, dtype [, initial [, where]]]]])`.
    tensor_nanprod(x) -> TensorNanprodCall {
        axis = "axis",
        keepdims = "keepdims",
        dtype = "dtype",
        initial = "initial",
        r#where = "where",
    }
}

with_options! {
    /// numpy's nanmean along axes: the mean of the elements that are not NaN (their sum in the
    /// element type, divided by their count); NaN where every element is.
    ///
    /// SQL: `tensor_nanmean(x [, axis [, keepdims [, where]]])`.
    tensor_nanmean(x) -> TensorNanmeanCall {
        axis = "axis",
        keepdims = "keepdims",
        r#where = "where",
    }
}

with_options! {
    /// numpy's nanmin along axes: the minimum ignoring NaN; NaN where every element is; an error
    /// over no elements.
    ///
    /// SQL: `tensor_nanmin(x [, axis [, keepdims [, initial [, where]]]])`.
    tensor_nanmin(x) -> TensorNanminCall {
        axis = "axis",
        keepdims = "keepdims",
        initial = "initial",
        r#where = "where",
    }
}

with_options! {
    /// numpy's nanmax along axes: the maximum ignoring NaN; NaN where every element is; an error
    /// over no elements.
    ///
    /// SQL: `tensor_nanmax(x [, axis [, keepdims [, initial [, where]]]])`.
    tensor_nanmax(x) -> TensorNanmaxCall {
        axis = "axis",
        keepdims = "keepdims",
        initial = "initial",
        r#where = "where",
    }
}

with_options! {
    /// numpy's nanargmin: the index of the first minimum ignoring NaN, along one axis or in the
    /// flattened tensor; a slice of NaN only is numpy's error (All-NaN slice encountered), naming
    /// the row.
    ///
    /// SQL: `tensor_nanargmin(x [, axis [, keepdims]])`.
    tensor_nanargmin(x) -> TensorNanargminCall {
        axis = "axis",
        keepdims = "keepdims",
    }
}

with_options! {
    /// numpy's nanargmax: the index of the first maximum ignoring NaN, along one axis or in the
    /// flattened tensor; a slice of NaN only is numpy's error.
    ///
    /// SQL: `tensor_nanargmax(x [, axis [, keepdims]])`.
    tensor_nanargmax(x) -> TensorNanargmaxCall {
        axis = "axis",
        keepdims = "keepdims",
    }
}

with_options! {
    /// numpy's nanvar along axes: tensor_var of the elements that are not NaN, divided by their
    /// count - ddof; NaN where that is not positive.
    ///
    /// SQL: `tensor_nanvar(x [, axis [, keepdims [, ddof [, correction [, where]]]]])`.
    tensor_nanvar(x) -> TensorNanvarCall {
        axis = "axis",
        keepdims = "keepdims",
        ddof = "ddof",
        correction = "correction",
        r#where = "where",
    }
}

with_options! {
    /// numpy's nanstd along axes: the square root of tensor_nanvar.
    ///
    /// SQL: `tensor_nanstd(x [, axis [, keepdims [, ddof [, correction [, where]]]]])`.
    tensor_nanstd(x) -> TensorNanstdCall {
        axis = "axis",
        keepdims = "keepdims",
        ddof = "ddof",
        correction = "correction",
        r#where = "where",
    }
}

with_options! {
    /// numpy's ptp (peak to peak) along axes: maximum minus minimum in the element type (integers
    /// wrap, as numpy's subtract does; booleans are numpy's error); an error over no elements.
    ///
    /// SQL: `tensor_ptp(x [, axis [, keepdims]])`.
    tensor_ptp(x) -> TensorPtpCall {
        axis = "axis",
        keepdims = "keepdims",
    }
}

with_options! {
    /// numpy's diff: the n-th differences along axis (a\[i + 1\] - a\[i\], n times; integers wrap,
    /// booleans give not_equal).
    ///
    /// SQL: `tensor_diff(x [, n [, axis [, prepend [, append]]]])`.
    tensor_diff(x) -> TensorDiffCall {
        n = "n",
        axis = "axis",
        prepend = "prepend",
        append = "append",
    }
}
