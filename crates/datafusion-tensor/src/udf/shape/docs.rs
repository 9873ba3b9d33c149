//! The documentation of the one-tensor shape functions (`SHOW FUNCTIONS`, `\\h`).

use datafusion::logical_expr::Documentation;

use super::ShapeFunction;

const TENSOR: &str = "A tensor (arrow.fixed_shape_tensor, arrow.variable_shape_tensor or FixedSizeList) expression, read in its logical layout (its permutation applied); each variable-shape row in its own shape.";

/// The documentation of each function.
#[allow(
    clippy::too_many_lines,
    reason = "one table of every function's text, arguments and example"
)]
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
        F::Roll => (
            "numpy's roll: the elements shifted along axis (an integer or a list, with shift an integer or a list as long), those pushed off one end coming back at the other; without axis, the flattened elements shifted and the shape kept. Shifts along one axis add up; a shift may exceed the axis's length.",
            "tensor_roll(tensor([1, 2, 3, 4, 5, 6], [2, 3]), 1, axis => 1)",
            "[[3, 1, 2], [6, 4, 5]]",
        ),
        F::Repeat => (
            "numpy's repeat: each element along axis repeated repeats times (an integer, or a list with one count per element); without axis, the flattened elements, as a 1-d tensor. Errors in numpy's words: negative dimensions are not allowed, repeats may not contain negative values, operands could not be broadcast together with shape ...",
            "tensor_repeat(tensor([1, 2, 3, 4], [2, 2]), [1, 2], axis => 0)",
            "[[1, 2], [3, 4], [3, 4]]",
        ),
        F::Tile => (
            "numpy's tile: the tensor repeated reps times along each axis (an integer or a list). A shorter reps is padded with ones in front, a shorter tensor gets leading dimensions of length 1, as numpy does.",
            "tensor_tile(tensor([1, 2], [2]), [2, 2])",
            "[[1, 2, 1, 2], [1, 2, 1, 2]]",
        ),
        F::Take => (
            "numpy's take (mode 'raise'): the elements at indices along axis (negative from the end), or of the flattened tensor without axis. A list of indices keeps the axis (its length becomes the list's), one integer drops it. An index out of bounds is numpy's error: index 5 is out of bounds for axis 0 with size 3. For indices that differ by row, use tensor_take_along_axis.",
            "tensor_take(tensor([1, 2, 3, 4, 5, 6], [2, 3]), [2, 0], axis => 1)",
            "[[3, 1], [6, 4]]",
        ),
        F::Pad => (
            "numpy's pad: pad_width elements before and after each axis, found by mode: 'constant' (constant_values, 0 by default, cast to the element type), 'edge', 'reflect', 'symmetric' or 'wrap'. numpy's statistic modes (mean, median, ...) and linear_ramp are refused. Extending an empty axis other than by 'constant' is numpy's error.",
            "tensor_pad(tensor([1, 2, 3], [3]), [2, 1], 'reflect')",
            "[3, 2, 1, 2, 3, 2]",
        ),
        F::Tril => (
            "numpy's tril: the lower triangle of each matrix (the last two dimensions), the elements above diagonal k set to zero (false for booleans). A 1-d tensor is broadcast to a square matrix first, as numpy does.",
            "tensor_tril(tensor([1, 2, 3, 4, 5, 6, 7, 8, 9], [3, 3]), -1)",
            "[[0, 0, 0], [4, 0, 0], [7, 8, 0]]",
        ),
        F::Triu => (
            "numpy's triu: the upper triangle of each matrix (the last two dimensions), the elements below diagonal k set to zero (false for booleans). A 1-d tensor is broadcast to a square matrix first, as numpy does.",
            "tensor_triu(tensor([1, 2, 3, 4, 5, 6, 7, 8, 9], [3, 3]))",
            "[[1, 2, 3], [0, 5, 6], [0, 0, 9]]",
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
        F::Roll => format!("{name}(x, shift [, axis])"),
        F::Repeat => format!("{name}(x, repeats [, axis])"),
        F::Tile => format!("{name}(x, reps)"),
        F::Take => format!("{name}(x, indices [, axis])"),
        F::Pad => format!("{name}(x, pad_width [, mode [, constant_values]])"),
        F::Tril | F::Triu => format!("{name}(x [, k])"),
    };
    let builder = crate::udf::documented(description, syntax)
        .with_sql_example(crate::udf::sql_example(example_call, example_out))
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
        F::Roll => builder
            .with_argument(
                "shift",
                "A literal integer or list of integers: how far along each axis (negative: backwards).",
            )
            .with_argument(
                "axis",
                "A literal integer or list of integers (negative from the end); NULL or omitted: the flattened tensor.",
            ),
        F::Repeat => builder
            .with_argument(
                "repeats",
                "A literal non-negative integer, or a list of them with one count per element along axis.",
            )
            .with_argument(
                "axis",
                "A literal integer (negative from the end); NULL or omitted: the flattened tensor.",
            ),
        F::Tile => builder.with_argument(
            "reps",
            "A literal non-negative integer or list of them: repetitions per axis, the last for the last axis.",
        ),
        F::Take => builder
            .with_argument(
                "indices",
                "A literal integer or list of integers (negative from the end).",
            )
            .with_argument(
                "axis",
                "A literal integer (negative from the end); NULL or omitted: the flattened tensor.",
            ),
        F::Pad => builder
            .with_argument(
                "pad_width",
                "A literal non-negative integer (every side), a pair [before, after] (every axis), or one pair per axis such as [[1, 1], [0, 2]].",
            )
            .with_argument(
                "mode",
                "'constant' (default), 'edge', 'reflect', 'symmetric' or 'wrap'.",
            )
            .with_argument(
                "constant_values",
                "A literal number for mode 'constant' (default 0), cast to the element type as numpy casts it.",
            ),
        F::Tril | F::Triu => builder.with_argument(
            "k",
            "A literal integer: the diagonal (0 the main one, positive above it); NULL or omitted: 0.",
        ),
    };
    builder.build()
}
