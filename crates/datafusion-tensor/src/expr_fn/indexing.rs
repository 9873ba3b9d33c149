//! The expression builders of the functions of family Indexing (written by `render.rs`
//! from the registry: see the module docs of `expr_fn`). Do not edit.

// The docs are the SQL reference's words, in which function names are plain text.
#![allow(clippy::doc_markdown)]

use datafusion::logical_expr::Expr;

list! {
    /// numpy indexing and slicing, as copies (MegEngine semantics).
    ///
    /// SQL: `tensor_get(t, index) | tensor_get(t, i [, j, ...])`.
    tensor_get
}

plain! {
    /// numpy's take_along_axis (MegEngine's gather): along `axis`, the elements of `t` that `idx`
    /// names; off the axis, `t` and `idx` broadcast.
    ///
    /// SQL: `tensor_take_along_axis(t, idx, axis)`.
    tensor_take_along_axis(t, idx, axis)
}

plain! {
    /// numpy's put_along_axis (MegEngine's scatter), as a copy: `t` with the elements that `idx`
    /// names along `axis` replaced by `values` (broadcast to idx's shape).
    ///
    /// SQL: `tensor_put_along_axis(t, idx, values, axis)`.
    tensor_put_along_axis(t, idx, values, axis)
}

with_options! {
    /// JAX's x.at\[idx\].set(y): a copy of x with the elements idx names replaced by y (broadcast
    /// to x\[idx\]'s shape).
    ///
    /// SQL: `tensor_at_set(x, idx, y [, mode [, wrap_negative_indices [, indices_are_sorted [, unique_indices]]]])`.
    tensor_at_set(x, idx, y) -> TensorAtSetCall {
        mode = "mode",
        wrap_negative_indices = "wrap_negative_indices",
        indices_are_sorted = "indices_are_sorted",
        unique_indices = "unique_indices",
    }
}

with_options! {
    /// JAX's x.at\[idx\].add(y): a copy of x with y added at the elements idx names; every
    /// occurrence of a duplicate index adds (unlike numpy's x\[idx\] += y).
    ///
    /// SQL: `tensor_at_add(x, idx, y [, mode [, wrap_negative_indices [, indices_are_sorted [, unique_indices]]]])`.
    tensor_at_add(x, idx, y) -> TensorAtAddCall {
        mode = "mode",
        wrap_negative_indices = "wrap_negative_indices",
        indices_are_sorted = "indices_are_sorted",
        unique_indices = "unique_indices",
    }
}

with_options! {
    /// JAX's x.at\[idx\].subtract(y): y subtracted at the elements idx names, every occurrence.
    ///
    /// SQL: `tensor_at_subtract(x, idx, y [, mode [, wrap_negative_indices [, indices_are_sorted [, unique_indices]]]])`.
    tensor_at_subtract(x, idx, y) -> TensorAtSubtractCall {
        mode = "mode",
        wrap_negative_indices = "wrap_negative_indices",
        indices_are_sorted = "indices_are_sorted",
        unique_indices = "unique_indices",
    }
}

with_options! {
    /// JAX's x.at\[idx\].multiply(y): the elements idx names multiplied by y, every occurrence.
    ///
    /// SQL: `tensor_at_multiply(x, idx, y [, mode [, wrap_negative_indices [, indices_are_sorted [, unique_indices]]]])`.
    tensor_at_multiply(x, idx, y) -> TensorAtMultiplyCall {
        mode = "mode",
        wrap_negative_indices = "wrap_negative_indices",
        indices_are_sorted = "indices_are_sorted",
        unique_indices = "unique_indices",
    }
}

with_options! {
    /// JAX's x.at\[idx\].divide(y): the elements idx names divided by y (true division: an integer
    /// x gives Float64); duplicate divisors multiply.
    ///
    /// SQL: `tensor_at_divide(x, idx, y [, mode [, wrap_negative_indices [, indices_are_sorted [, unique_indices]]]])`.
    tensor_at_divide(x, idx, y) -> TensorAtDivideCall {
        mode = "mode",
        wrap_negative_indices = "wrap_negative_indices",
        indices_are_sorted = "indices_are_sorted",
        unique_indices = "unique_indices",
    }
}

with_options! {
    /// JAX's x.at\[idx\].power(y): the elements idx names raised to y; duplicate exponents
    /// multiply.
    ///
    /// SQL: `tensor_at_power(x, idx, y [, mode [, wrap_negative_indices [, indices_are_sorted [, unique_indices]]]])`.
    tensor_at_power(x, idx, y) -> TensorAtPowerCall {
        mode = "mode",
        wrap_negative_indices = "wrap_negative_indices",
        indices_are_sorted = "indices_are_sorted",
        unique_indices = "unique_indices",
    }
}

with_options! {
    /// JAX's x.at\[idx\].min(y): the elements idx names replaced by the minimum of themselves and y
    /// (NaN propagates).
    ///
    /// SQL: `tensor_at_min(x, idx, y [, mode [, wrap_negative_indices [, indices_are_sorted [, unique_indices]]]])`.
    tensor_at_min(x, idx, y) -> TensorAtMinCall {
        mode = "mode",
        wrap_negative_indices = "wrap_negative_indices",
        indices_are_sorted = "indices_are_sorted",
        unique_indices = "unique_indices",
    }
}

with_options! {
    /// JAX's x.at\[idx\].max(y): the elements idx names replaced by the maximum of themselves and y
    /// (NaN propagates).
    ///
    /// SQL: `tensor_at_max(x, idx, y [, mode [, wrap_negative_indices [, indices_are_sorted [, unique_indices]]]])`.
    tensor_at_max(x, idx, y) -> TensorAtMaxCall {
        mode = "mode",
        wrap_negative_indices = "wrap_negative_indices",
        indices_are_sorted = "indices_are_sorted",
        unique_indices = "unique_indices",
    }
}

with_options! {
    /// JAX's x.at\[idx\].get(): x\[idx\], with JAX's out-of-bounds modes: by default an
    /// out-of-bounds index is clamped; mode =\> 'fill' returns fill_value there (default NaN, the
    /// minimum for signed integers, the maximum for unsigned, true).
    ///
    /// SQL: `tensor_at_get(x, idx [, mode [, fill_value [, wrap_negative_indices [, indices_are_sorted [, unique_indices]]]]])`.
    tensor_at_get(x, idx) -> TensorAtGetCall {
        mode = "mode",
        fill_value = "fill_value",
        wrap_negative_indices = "wrap_negative_indices",
        indices_are_sorted = "indices_are_sorted",
        unique_indices = "unique_indices",
    }
}

with_options! {
    /// numpy's choose: builds a tensor from an index tensor `a` and a set of choices.
    ///
    /// SQL: `tensor_choose(a, choice0, choice1 [, ...] [, mode])`.
    tensor_choose(..) -> TensorChooseCall {
        mode = "mode",
    }
}

with_options! {
    /// JAX's x.at\[idx\].apply(fn) (numpy's ufunc.at): fn applied to the elements idx names, once
    /// per occurrence.
    ///
    /// SQL: `tensor_at_apply(x, idx, fn [, mode [, wrap_negative_indices [, indices_are_sorted [, unique_indices]]]])`.
    tensor_at_apply(x, idx, r#fn) -> TensorAtApplyCall {
        mode = "mode",
        wrap_negative_indices = "wrap_negative_indices",
        indices_are_sorted = "indices_are_sorted",
        unique_indices = "unique_indices",
    }
}
