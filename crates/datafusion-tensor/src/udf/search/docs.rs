//! The documentation of the searching, top-k and set functions.

use datafusion::logical_expr::Documentation;

use super::SearchFunction;
use crate::udf::tensor_documentation;

const X: &str = "A tensor (fixed- or variable-shape, or a list literal), read in its logical layout; each variable-shape row in its own shape.";

#[allow(
    clippy::too_many_lines,
    reason = "one description and example per function"
)]
pub(super) fn documentation(function: SearchFunction) -> Documentation {
    let (description, syntax, call, out) = match function {
        SearchFunction::TopK => (
            "The k largest elements along an axis (largest => false: the k smallest) and their indices, in order, as torch.topk(x, k, dim=axis, largest, sorted=True) returns them: a struct {values, indices} of two tensors of x's shape with the axis k long (indices int64). The order is tensor_sort's with descending => largest: NaN counts as the largest, equal elements keep their order (the lower index first, as jax.lax.top_k), an element NULL counts as larger than NaN. Each line is partly selected, not sorted whole. A k longer than the axis is an error (naming the row for variable-shape rows).",
            "tensor_topk(x, k [, axis [, largest]])",
            "tensor_topk(tensor([3, 1, 4, 1, 5, 9], [2, 3]), 2)",
            "{values: [[4, 3], [9, 5]], indices: [[2, 0], [2, 1]]}",
        ),
        SearchFunction::Argpartition => (
            "numpy's argpartition along axis (default -1): int64 indices of x's shape that put each kth element (an integer or a list, negative from the end) where a sort would put it, every element before it not greater and every one after it not smaller, in numpy's order (NaN last, an element NULL after NaN). numpy promises only the partition: the order within each part is this function's, not numpy's introselect's. A kth out of the axis is numpy's error (naming the row for variable-shape rows).",
            "tensor_argpartition(x, kth [, axis])",
            "tensor_argpartition([3, 1, 2], 0)",
            "[1, 0, 2]",
        ),
        SearchFunction::Nonzero => (
            "numpy's nonzero: the indices of the elements that are not zero (NaN is not zero), as one int64 variable-shape tensor of shape [ndim, count] per row: numpy's tuple of ndim index arrays stacked in order (tensor_get(tensor_nonzero(x), 0) is numpy's nonzero(x)[0]; tensor_transpose of it is numpy's argwhere). A 0-d x is numpy's error. A row holding an element NULL is NULL.",
            "tensor_nonzero(x)",
            "tensor_nonzero(tensor([0, 1, 2, 0], [2, 2]))",
            "[[0, 1], [1, 0]]",
        ),
        SearchFunction::Searchsorted => (
            "numpy's searchsorted: for each element of x2, the index where it would be inserted into the sorted 1-d x1 to keep it sorted (side 'left': before equal elements; 'right': after them), by binary search in numpy's sort order (NaN last). The result is int64 of x2's shape (a plain int64 for a number x2). Both are compared in numpy's common type of their element types (a literal number counts as int64 or float64, as numpy's asarray makes it). x1 is taken as sorted, as numpy takes it. An element NULL of x2 gives a NULL index.",
            "tensor_searchsorted(x1, x2 [, side])",
            "tensor_searchsorted([1, 2, 2, 3], [2, 0, 9], side => 'right')",
            "[3, 0, 4]",
        ),
        SearchFunction::UniqueValues => (
            "The array API standard's unique_values (numpy 2's): the distinct elements of x flattened, as a 1-d variable-shape tensor, sorted in np.unique's order. NaNs are distinct (equal_nan=False, as numpy 2's unique_* compute them); -0.0 equals 0.0 (the first occurrence is kept); element NULLs are one value, after every number.",
            "tensor_unique_values(x)",
            "tensor_unique_values(tensor([3, 1, 3, 2, 1, 1], [2, 3]))",
            "[1, 2, 3]",
        ),
        SearchFunction::UniqueCounts => (
            "The array API standard's unique_counts (numpy 2's): a struct {values, counts}, the distinct elements of x flattened (as tensor_unique_values) and how many times each occurs (int64), both 1-d variable-shape tensors.",
            "tensor_unique_counts(x)",
            "tensor_unique_counts([3, 1, 3, 2, 1, 1])",
            "{values: [1, 2, 3], counts: [3, 1, 2]}",
        ),
        SearchFunction::UniqueInverse => (
            "The array API standard's unique_inverse (numpy 2's): a struct {values, inverse_indices}, the distinct elements of x flattened (as tensor_unique_values) and, for each element of x, its index into them (int64, of x's shape, as numpy 2 returns it).",
            "tensor_unique_inverse(x)",
            "tensor_unique_inverse(tensor([3, 1, 3, 2], [2, 2]))",
            "{values: [1, 2, 3], inverse_indices: [[2, 0], [2, 1]]}",
        ),
        SearchFunction::UniqueAll => (
            "The array API standard's unique_all (numpy 2's): a struct {values, indices, inverse_indices, counts}: the distinct elements of x flattened (as tensor_unique_values), the index of each one's first occurrence in x flattened, each element's index into them (of x's shape) and how many times each occurs (all int64).",
            "tensor_unique_all(x)",
            "tensor_unique_all([3, 1, 3, 2])",
            "{values: [1, 2, 3], indices: [1, 3, 0], inverse_indices: [2, 0, 2, 1], counts: [1, 1, 2]}",
        ),
        SearchFunction::Bincount => (
            "numpy's bincount: how many times each value 0, 1, ..., max(x) occurs in the 1-d row x of non-negative integers (int64), or with weights the sum of the weights at each value (float64): a 1-d variable-shape tensor of max(x) + 1 elements, at least minlength. A negative value is numpy's error (naming the row); a row holding an element NULL is NULL.",
            "tensor_bincount(x [, weights [, minlength]])",
            "tensor_bincount([1, 1, 3])",
            "[0, 2, 0, 1]",
        ),
        SearchFunction::OneHot => (
            "jax.nn.one_hot: each integer of x (a tensor or a number) as a new last axis of num_classes elements, 1 at its value and 0 elsewhere (all 0 for a value outside 0 .. num_classes - 1, as JAX gives); float32 unless dtype says (JAX's default). An element NULL gives a line of NULLs.",
            "tensor_one_hot(x, num_classes [, dtype])",
            "tensor_one_hot([0, 2, 5], 3)",
            "[[1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 0.0, 0.0]]",
        ),
    };
    let builder =
        tensor_documentation(description, syntax.to_string(), call, out).with_argument("x", X);
    match function {
        SearchFunction::TopK => builder
            .with_argument(
                "k",
                "A literal non-negative integer: how many elements each line keeps.",
            )
            .with_argument(
                "axis",
                "A literal integer (negative from the end); default -1.",
            )
            .with_argument(
                "largest",
                "A literal boolean: the largest (true, the default) or the smallest elements.",
            )
            .build(),
        SearchFunction::Argpartition => builder
            .with_argument(
                "kth",
                "A literal integer or list of integers: the positions each put in its sorted place.",
            )
            .with_argument("axis", "A literal integer (negative from the end); default -1.")
            .build(),
        SearchFunction::Searchsorted => {
            tensor_documentation(description, syntax.to_string(), call, out)
                .with_argument(
                    "x1",
                    "A sorted 1-d tensor (fixed- or variable-shape, or a list literal).",
                )
                .with_argument(
                    "x2",
                    "The values to insert: a tensor of any shape, a list literal or a number.",
                )
                .with_argument("side", "'left' (the default) or 'right'.")
                .build()
        }
        SearchFunction::Bincount => builder
            .with_argument(
                "weights",
                "A 1-d tensor of x's length (or NULL): summed in place of counts.",
            )
            .with_argument(
                "minlength",
                "A literal non-negative integer: the least length of the result; default 0.",
            )
            .build(),
        SearchFunction::OneHot => builder
            .with_argument(
                "num_classes",
                "A literal non-negative integer: the new axis's length.",
            )
            .with_argument(
                "dtype",
                "numpy's dtype name of the result; default 'float32'.",
            )
            .build(),
        _ => builder.build(),
    }
}
