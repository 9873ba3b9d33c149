//! The expression builders of the functions of family Searching (written by `render.rs`
//! from the registry: see the module docs of `expr_fn`). Do not edit.

// The docs are the SQL reference's words, in which function names are plain text.
#![allow(clippy::doc_markdown)]

use datafusion::logical_expr::Expr;

with_options! {
    /// numpy's count_nonzero along axes: how many elements are not zero (NaN counts; booleans: how
    /// many are true), as int64.
    ///
    /// SQL: `tensor_count_nonzero(x [, axis [, keepdims]])`.
    tensor_count_nonzero(x) -> TensorCountNonzeroCall {
        axis = "axis",
        keepdims = "keepdims",
    }
}

with_options! {
    /// The array API standard's sort (numpy's sort, kind='stable'): the values along one axis in
    /// order, NaN last (first when descending), equal elements in their original order (the sort is
    /// always stable).
    ///
    /// SQL: `tensor_sort(x [, axis [, descending [, stable]]])`.
    tensor_sort(x) -> TensorSortCall {
        axis = "axis",
        descending = "descending",
        stable = "stable",
    }
}

with_options! {
    /// The array API standard's argsort (numpy's argsort, kind='stable'): the int64 indices along
    /// one axis that sort it, NaN last (first when descending), equal elements in their original
    /// order.
    ///
    /// SQL: `tensor_argsort(x [, axis [, descending [, stable]]])`.
    tensor_argsort(x) -> TensorArgsortCall {
        axis = "axis",
        descending = "descending",
        stable = "stable",
    }
}

with_options! {
    /// The k largest elements along an axis (largest =\> false: the k smallest) and their indices,
    /// in order, as torch.topk(x, k, dim=axis, largest, sorted=True) returns them: a struct
    /// {values, indices} of two tensors of x's shape with the axis k long (indices int64).
    ///
    /// SQL: `tensor_topk(x, k [, axis [, largest]])`.
    tensor_topk(x, k) -> TensorTopkCall {
        axis = "axis",
        largest = "largest",
    }
}

with_options! {
    /// numpy's argpartition along axis (default -1): int64 indices of x's shape that put each kth
    /// element (an integer or a list, negative from the end) where a sort would put it, every
    /// element before it not greater and every one after it not smaller, in numpy's order (NaN
    /// last, an element NULL after NaN).
    ///
    /// SQL: `tensor_argpartition(x, kth [, axis])`.
    tensor_argpartition(x, kth) -> TensorArgpartitionCall {
        axis = "axis",
    }
}

plain! {
    /// numpy's nonzero: the indices of the elements that are not zero (NaN is not zero), as one
    /// int64 variable-shape tensor of shape \[ndim, count\] per row: numpy's tuple of ndim index
    /// arrays stacked in order (tensor_get(tensor_nonzero(x), 0) is numpy's nonzero(x)\[0\];
    /// tensor_transpose of it is numpy's argwhere).
    ///
    /// SQL: `tensor_nonzero(x)`.
    tensor_nonzero(x)
}

with_options! {
    /// numpy's searchsorted: for each element of x2, the index where it would be inserted into the
    /// sorted 1-d x1 to keep it sorted (side 'left': before equal elements; 'right': after them),
    /// by binary search in numpy's sort order (NaN last).
    ///
    /// SQL: `tensor_searchsorted(x1, x2 [, side])`.
    tensor_searchsorted(x1, x2) -> TensorSearchsortedCall {
        side = "side",
    }
}

plain! {
    /// The array API standard's unique_values (numpy 2's): the distinct elements of x flattened, as
    /// a 1-d variable-shape tensor, sorted in np.unique's order.
    ///
    /// SQL: `tensor_unique_values(x)`.
    tensor_unique_values(x)
}

plain! {
    /// The array API standard's unique_counts (numpy 2's): a struct {values, counts}, the distinct
    /// elements of x flattened (as tensor_unique_values) and how many times each occurs (int64),
    /// both 1-d variable-shape tensors.
    ///
    /// SQL: `tensor_unique_counts(x)`.
    tensor_unique_counts(x)
}

plain! {
    /// The array API standard's unique_inverse (numpy 2's): a struct {values, inverse_indices}, the
    /// distinct elements of x flattened (as tensor_unique_values) and, for each element of x, its
    /// index into them (int64, of x's shape, as numpy 2 returns it).
    ///
    /// SQL: `tensor_unique_inverse(x)`.
    tensor_unique_inverse(x)
}

plain! {
    /// The array API standard's unique_all (numpy 2's): a struct {values, indices, inverse_indices,
    /// counts}: the distinct elements of x flattened (as tensor_unique_values), the index of each
    /// one's first occurrence in x flattened, each element's index into them (of x's shape) and how
    /// many times each occurs (all int64).
    ///
    /// SQL: `tensor_unique_all(x)`.
    tensor_unique_all(x)
}

with_options! {
    /// numpy's bincount: how many times each value 0, 1, ..., max(x) occurs in the 1-d row x of
    /// non-negative integers (int64), or with weights the sum of the weights at each value
    /// (float64): a 1-d variable-shape tensor of max(x) + 1 elements, at least minlength.
    ///
    /// SQL: `tensor_bincount(x [, weights [, minlength]])`.
    tensor_bincount(x) -> TensorBincountCall {
        weights = "weights",
        minlength = "minlength",
    }
}

with_options! {
    /// jax.nn.one_hot: each integer of x (a tensor or a number) as a new last axis of num_classes
    /// elements, 1 at its value and 0 elsewhere (all 0 for a value outside 0 .. num_classes - 1, as
    /// JAX gives); float32 unless dtype says (JAX's default).
    ///
    /// SQL: `tensor_one_hot(x, num_classes [, dtype])`.
    tensor_one_hot(x, num_classes) -> TensorOneHotCall {
        dtype = "dtype",
    }
}
