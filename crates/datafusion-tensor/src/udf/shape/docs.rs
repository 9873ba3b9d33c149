//! The documentation of the one-tensor shape functions (`SHOW FUNCTIONS`, `\\h`).

use datafusion::logical_expr::{DocSection, Documentation};

use super::ShapeFunction;

const TENSOR: &str = "A tensor (arrow.fixed_shape_tensor, arrow.variable_shape_tensor or FixedSizeList) expression, read in its logical layout (its permutation applied); each variable-shape row in its own shape.";

/// The documentation of each function.
pub fn documentation(function: ShapeFunction) -> Documentation {
    use ShapeFunction as F;
    let (description, example_call, example_out) = match function {
        F::Transpose | F::PermuteDims => (
            "numpy's transpose / permute_dims: the dimensions in the order axes gives (reversed without axes). No value moves: the result has the input's values with a canonical permutation in its type (beyond numpy: no copy); dim_names follow their dimensions. Errors in numpy's words: axes don't match array, repeated axis in transpose.",
            "tensor_transpose(tensor([1, 2, 3, 4, 5, 6], [2, 3]))",
            "[[1, 4], [2, 5], [3, 6]]",
        ),
        F::Squeeze => (
            "numpy's squeeze: removes dimensions of length 1, those of axis or, without it, all of them (on a variable-shape tensor, without axis, which dimensions have length 1 must be known from its uniform_shape). A named dimension whose length is not 1 is numpy's error: cannot select an axis to squeeze out which has size not equal to one.",
            "tensor_squeeze(tensor([1, 2, 3], [1, 3, 1]))",
            "[1, 2, 3]",
        ),
        F::ExpandDims => (
            "numpy's expand_dims: inserts dimensions of length 1 at the positions axis gives (positions in the result). The result has no dim_names (the new dimensions have none).",
            "tensor_expand_dims(tensor([1, 2, 3], [3]), axis => 0)",
            "[[1, 2, 3]]",
        ),
        F::BroadcastTo => (
            "numpy's broadcast_to: the tensor repeated to a literal shape by numpy's broadcasting rules; a shape it does not broadcast to is numpy's error (operands could not be broadcast together with remapped shapes ...), naming the row for variable-shape rows. dim_names survive only when no dimension is added.",
            "tensor_broadcast_to(tensor([1, 2, 3], [3]), [2, 3])",
            "[[1, 2, 3], [1, 2, 3]]",
        ),
        F::Flatten => (
            "numpy's ravel: the elements in logical row-major (C) order, as a 1-d tensor.",
            "tensor_flatten(tensor([1, 2, 3, 4], [2, 2], NULL, [1, 0]))",
            "[1, 3, 2, 4]",
        ),
        F::Flip => (
            "numpy's flip: the elements in reverse order along axis (an integer or a list), or along every axis without it. dim_names stay.",
            "tensor_flip(tensor([1, 2, 3, 4, 5, 6], [2, 3]), axis => 1)",
            "[[3, 2, 1], [6, 5, 4]]",
        ),
        F::Moveaxis => (
            "numpy's moveaxis: the dimensions source (an integer or a list) moved to the positions destination gives, the others keeping their order. A transpose: no value moves (a permutation in the result's type).",
            "tensor_moveaxis(tensor([1, 2, 3, 4, 5, 6], [1, 2, 3]), 0, -1)",
            "[[[1], [2], [3]], [[4], [5], [6]]]",
        ),
        F::Swapaxes => (
            "numpy's swapaxes: dimensions axis1 and axis2 exchanged. A transpose: no value moves.",
            "tensor_swapaxes(tensor([1, 2, 3, 4, 5, 6], [2, 3]), 0, 1)",
            "[[1, 4], [2, 5], [3, 6]]",
        ),
        F::MatrixTranspose => (
            "numpy's matrix_transpose (the array API standard's): the last two dimensions exchanged, a stack of matrices transposed. A transpose: no value moves. Fewer than 2 dimensions is numpy's error.",
            "tensor_matrix_transpose(tensor([1, 2, 3, 4, 5, 6], [2, 3]))",
            "[[1, 4], [2, 5], [3, 6]]",
        ),
    };
    let name = function.function_name();
    let syntax = match function {
        F::Transpose | F::PermuteDims => format!("{name}(x [, axes])"),
        F::Squeeze | F::Flip => format!("{name}(x [, axis])"),
        F::ExpandDims => format!("{name}(x, axis)"),
        F::BroadcastTo => format!("{name}(x, shape)"),
        F::Flatten | F::MatrixTranspose => format!("{name}(x)"),
        F::Moveaxis => format!("{name}(x, source, destination)"),
        F::Swapaxes => format!("{name}(x, axis1, axis2)"),
    };
    let builder = Documentation::builder(
        DocSection {
            include: true,
            label: "Tensor Functions",
            description: None,
        },
        description,
        syntax,
    )
    .with_sql_example(format!(
        "```sql\n> SELECT {example_call};\n{example_out}\n```"
    ))
    .with_argument("x", TENSOR);
    let builder = match function {
        F::Transpose | F::PermuteDims => builder.with_argument(
            "axes",
            "A literal list of integers, a permutation of the dimensions (negative from the end), e.g. [1, 0]; NULL or omitted: reversed.",
        ),
        F::Squeeze => builder.with_argument(
            "axis",
            "A literal integer or list of integers (negative from the end); NULL or omitted: every dimension of length 1.",
        ),
        F::ExpandDims => builder.with_argument(
            "axis",
            "A literal integer or list of integers: positions of the new dimensions in the result (negative from the end).",
        ),
        F::BroadcastTo => builder.with_argument(
            "shape",
            "A literal list of non-negative integers, e.g. [4, 3].",
        ),
        F::Flatten | F::MatrixTranspose => builder,
        F::Moveaxis => builder
            .with_argument(
                "source",
                "A literal integer or list of integers: the dimensions to move (negative from the end).",
            )
            .with_argument(
                "destination",
                "A literal integer or list of integers, as many as source: where they go.",
            ),
        F::Swapaxes => builder
            .with_argument("axis1", "A literal integer (negative from the end).")
            .with_argument("axis2", "A literal integer (negative from the end)."),
        F::Flip => builder.with_argument(
            "axis",
            "A literal integer or list of integers (negative from the end); NULL or omitted: every axis.",
        ),
    };
    builder.build()
}
