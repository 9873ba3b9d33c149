//! The documentation of the linear-algebra functions (`SHOW FUNCTIONS`, `\\h`).

use datafusion::logical_expr::Documentation;

use super::ContractFunction;

/// An operand numpy converts with `np.asarray`: a tensor, or a number.
const OPERAND: &str = "A tensor (arrow.fixed_shape_tensor, arrow.variable_shape_tensor or FixedSizeList) or a list literal, read in logical order (its permutation applied), each variable-shape row in its own shape; or a number (a literal, or a numeric or boolean column: one value per row), a 0-d operand of its own type as np.asarray makes it (3 is int64, 2.5 float64, CAST(3 AS TINYINT) int8).";

/// `tensor_matmul`'s operands: numbers are numpy's error.
const MATMUL_OPERAND: &str = "A tensor (arrow.fixed_shape_tensor, arrow.variable_shape_tensor or FixedSizeList) or a list literal, read in logical order (its permutation applied); each variable-shape row in its own shape. A number is numpy's error (matmul: Input operand does not have enough dimensions).";

/// The arguments of `tensor_trace` and `tensor_diagonal`.
const DIAGONAL: &[(&str, &str)] = &[
    (
        "a",
        "A tensor of at least two dimensions (see tensor_matmul); a number is numpy's error.",
    ),
    (
        "offset",
        "A literal integer: the diagonal above (positive) or below (negative) the main one; default 0.",
    ),
    (
        "axis1",
        "A literal integer: the first axis of the diagonal (default 0).",
    ),
    (
        "axis2",
        "A literal integer: the second axis of the diagonal (default 1).",
    ),
];

/// The documentation of each function.
pub fn documentation(function: ContractFunction) -> Documentation {
    const TYPES: &str = " The result type is numpy 2's result type of the operands (int32 @ int32 is int32, integers wrap around; int @ float per promotion; float16 is summed in float32; booleans give any(a and b)); a number operand counts with its own type, not as a weak scalar (int32 with 3 is int64, float32 with 2.5 float64, as np.dot gives). A NULL operand row (or NULL number) gives a NULL row; a shape mismatch is a plan error for fixed shapes, else an error naming the row.";
    let (description, syntax, example, shown, arguments) = text(function);
    let mut builder = crate::udf::documented(format!("{description}{TYPES}"), syntax)
        .with_sql_example(crate::udf::sql_example(example, shown));
    for (name, text) in arguments {
        builder = builder.with_argument(*name, *text);
    }
    builder.build()
}

/// A function's description, syntax, example and its result, and arguments.
type Text = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static [(&'static str, &'static str)],
);

fn text(function: ContractFunction) -> Text {
    use ContractFunction as F;
    let text: Text = match function {
        F::Matmul => (
            "numpy's matmul: the matrix product of the last two dimensions, the others broadcast as batch dimensions; a 1-d first operand is a row vector and a 1-d second one a column vector, their added dimension removed from the result.",
            "tensor_matmul(x1, x2)",
            "tensor_matmul(tensor([1, 2, 3, 4], [2, 2]), [1, 1])",
            "[3, 7]",
            &[("x1", MATMUL_OPERAND), ("x2", MATMUL_OPERAND)],
        ),
        F::Dot => (
            "numpy's dot: the sum over the last axis of a and the second-to-last of b (the only one of a 1-d b); a 0-d operand multiplies.",
            "tensor_dot(a, b)",
            "tensor_dot([1, 2, 3], [4, 5, 6])",
            "32",
            &[("a", OPERAND), ("b", OPERAND)],
        ),
        F::Inner => (
            "numpy's inner: the sum over the last axes of a and b; the result has a's other dimensions, then b's.",
            "tensor_inner(a, b)",
            "tensor_inner(tensor([1, 2, 3, 4], [2, 2]), [1, 10])",
            "[21, 43]",
            &[("a", OPERAND), ("b", OPERAND)],
        ),
        F::Outer => (
            "numpy's outer: every product of an element of a with one of b, both flattened: a (a.size, b.size) matrix.",
            "tensor_outer(a, b)",
            "tensor_outer([1, 2], [1, 10, 100])",
            "[[1, 10, 100], [2, 20, 200]]",
            &[("a", OPERAND), ("b", OPERAND)],
        ),
        F::Tensordot => (
            "numpy's tensordot: the sum over the last `axes` axes of a and the first of b, or over the axes paired in `axes`; the result has a's other dimensions, then b's.",
            "tensor_tensordot(a, b [, axes])",
            "tensor_tensordot(tensor([1, 2, 3, 4], [2, 2]), tensor([1, 0, 0, 1], [2, 2]), axes => [[0], [1]])",
            "[[1, 3], [2, 4]]",
            &[
                ("a", OPERAND),
                ("b", OPERAND),
                (
                    "axes",
                    "A literal integer (default 2: the last two axes of a with the first two of b), or a literal pair of axes or axis lists, e.g. [[1, 0], [0, 1]] or [1, 0].",
                ),
            ],
        ),
        F::Trace => (
            "numpy's trace: the sum of the diagonal of axis1 and axis2 at offset, in numpy's sum types (int64 for booleans and signed integers, uint64 for unsigned ones, floats their own).",
            "tensor_trace(a [, offset [, axis1 [, axis2]]])",
            "tensor_trace(tensor([1, 2, 3, 4], [2, 2]))",
            "5",
            DIAGONAL,
        ),
        F::Diagonal => (
            "numpy's diagonal: the diagonal of axis1 and axis2 at offset, as the last dimension after the others; a copy in the tensor's own type.",
            "tensor_diagonal(a [, offset [, axis1 [, axis2]]])",
            "tensor_diagonal(tensor([1, 2, 3, 4, 5, 6], [2, 3]), offset => 1)",
            "[2, 6]",
            DIAGONAL,
        ),
        F::Vecdot => (
            "numpy 2's vecdot (the array API standard's linalg.vecdot): the dot product of x1 and x2 along axis of each (the last by default), the other dimensions broadcast; in the operands' common type (numpy's sum of products: integers wrap, booleans are or of ands). Computed as tensor_einsum('...i,...i->...') of the operands with axis moved last (no value moves).",
            "tensor_vecdot(x1, x2 [, axis])",
            "tensor_vecdot(tensor([1, 2, 3, 4, 5, 6], [2, 3]), [1, 0, 2])",
            "[7, 16]",
            &[
                ("x1", OPERAND),
                ("x2", OPERAND),
                (
                    "axis",
                    "A literal integer: the axis of each operand the products are summed over (negative from the end); default -1.",
                ),
            ],
        ),
        F::Kron => (
            "numpy's kron: the Kronecker product, every product of an element of a with one of b, the shapes padded with 1s in front to one length, the result's dimension d a's times b's (block (i, j) is a[i, j] * b); in numpy's result type of the operands (integers wrap, booleans and).",
            "tensor_kron(a, b)",
            "tensor_kron(tensor([1, 10], [2]), tensor([1, 2, 3], [3]))",
            "[1, 2, 3, 10, 20, 30]",
            &[("a", OPERAND), ("b", OPERAND)],
        ),
        F::Einsum => (
            "numpy's einsum (optimize=False): numpy's subscripts grammar (labels per operand separated by commas, '->' and the output, or the implicit output: the labels appearing once, in alphabetical order; '...' broadcasts; a label repeated in an operand takes a diagonal; labels left out of the output are summed), parsed and planned once per query.",
            "tensor_einsum(subscripts, operand [, operand ...])",
            "tensor_einsum('ij,jk->ik', tensor([1, 2, 3, 4], [2, 2]), tensor([1, 0, 0, 1], [2, 2]))",
            "[[1, 2], [3, 4]]",
            &[
                (
                    "subscripts",
                    "A literal string such as 'ij,jk->ik', 'ii', '...i,...i'.",
                ),
                ("operand", OPERAND),
            ],
        ),
    };
    text
}
