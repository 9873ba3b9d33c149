//! The expression builders of the functions of family Shapes (written by `render.rs`
//! from the registry: see the module docs of `expr_fn`). Do not edit.

// The docs are the SQL reference's words, in which function names are plain text.
#![allow(clippy::doc_markdown)]

use datafusion::logical_expr::Expr;

with_options! {
    /// numpy's transpose / permute_dims: the dimensions in the order axes gives (reversed without
    /// axes).
    ///
    /// SQL: `tensor_transpose(x [, axes])`.
    tensor_transpose(x) -> TensorTransposeCall {
        axes = "axes",
    }
}

with_options! {
    /// numpy's transpose / permute_dims: the dimensions in the order axes gives (reversed without
    /// axes).
    ///
    /// SQL: `tensor_permute_dims(x [, axes])`.
    tensor_permute_dims(x) -> TensorPermuteDimsCall {
        axes = "axes",
    }
}

with_options! {
    /// numpy's squeeze: removes dimensions of length 1, those of axis or, without it, all of them
    /// (on a variable-shape tensor, without axis, which dimensions have length 1 must be known from
    /// its uniform_shape).
    ///
    /// SQL: `tensor_squeeze(x [, axis])`.
    tensor_squeeze(x) -> TensorSqueezeCall {
        axis = "axis",
    }
}

plain! {
    /// numpy's expand_dims: inserts dimensions of length 1 at the positions axis gives (positions
    /// in the result).
    ///
    /// SQL: `tensor_expand_dims(x, axis)`.
    tensor_expand_dims(x, axis)
}

plain! {
    /// numpy's broadcast_to: the tensor repeated to a literal shape by numpy's broadcasting rules;
    /// a shape it does not broadcast to is numpy's error (operands could not be broadcast together
    /// with remapped shapes ...), naming the row for variable-shape rows.
    ///
    /// SQL: `tensor_broadcast_to(x, shape)`.
    tensor_broadcast_to(x, shape)
}

plain! {
    /// numpy's ravel: the elements in logical row-major (C) order, as a 1-d tensor.
    ///
    /// SQL: `tensor_flatten(x)`.
    tensor_flatten(x)
}

with_options! {
    /// numpy's flip: the elements in reverse order along axis (an integer or a list), or along
    /// every axis without it.
    ///
    /// SQL: `tensor_flip(x [, axis])`.
    tensor_flip(x) -> TensorFlipCall {
        axis = "axis",
    }
}

plain! {
    /// numpy's moveaxis: the dimensions source (an integer or a list) moved to the positions
    /// destination gives, the others keeping their order.
    ///
    /// SQL: `tensor_moveaxis(x, source, destination)`.
    tensor_moveaxis(x, source, destination)
}

plain! {
    /// numpy's swapaxes: dimensions axis1 and axis2 exchanged.
    ///
    /// SQL: `tensor_swapaxes(x, axis1, axis2)`.
    tensor_swapaxes(x, axis1, axis2)
}

plain! {
    /// numpy's matrix_transpose (the array API standard's): the last two dimensions exchanged, a
    /// stack of matrices transposed.
    ///
    /// SQL: `tensor_matrix_transpose(x)`.
    tensor_matrix_transpose(x)
}

with_options! {
    /// numpy's roll: the elements shifted along axis (an integer or a list, with shift an integer
    /// or a list as long), those pushed off one end coming back at the other; without axis, the
    /// flattened elements shifted and the shape kept.
    ///
    /// SQL: `tensor_roll(x, shift [, axis])`.
    tensor_roll(x, shift) -> TensorRollCall {
        axis = "axis",
    }
}

with_options! {
    /// numpy's repeat: each element along axis repeated repeats times (an integer, or a list with
    /// one count per element); without axis, the flattened elements, as a 1-d tensor.
    ///
    /// SQL: `tensor_repeat(x, repeats [, axis])`.
    tensor_repeat(x, repeats) -> TensorRepeatCall {
        axis = "axis",
    }
}

plain! {
    /// numpy's tile: the tensor repeated reps times along each axis (an integer or a list).
    ///
    /// SQL: `tensor_tile(x, reps)`.
    tensor_tile(x, reps)
}

with_options! {
    /// numpy's take (mode 'raise'): the elements at indices along axis (negative from the end), or
    /// of the flattened tensor without axis.
    ///
    /// SQL: `tensor_take(x, indices [, axis])`.
    tensor_take(x, indices) -> TensorTakeCall {
        axis = "axis",
    }
}

with_options! {
    /// numpy's pad: pad_width elements before and after each axis, found by mode: 'constant'
    /// (constant_values, 0 by default, cast to the element type), 'edge', 'reflect', 'symmetric' or
    /// 'wrap'.
    ///
    /// SQL: `tensor_pad(x, pad_width [, mode [, constant_values]])`.
    tensor_pad(x, pad_width) -> TensorPadCall {
        mode = "mode",
        constant_values = "constant_values",
    }
}

with_options! {
    /// numpy's tril: the lower triangle of each matrix (the last two dimensions), the elements
    /// above diagonal k set to zero (false for booleans).
    ///
    /// SQL: `tensor_tril(x [, k])`.
    tensor_tril(x) -> TensorTrilCall {
        k = "k",
    }
}

with_options! {
    /// numpy's triu: the upper triangle of each matrix (the last two dimensions), the elements
    /// below diagonal k set to zero (false for booleans).
    ///
    /// SQL: `tensor_triu(x [, k])`.
    tensor_triu(x) -> TensorTriuCall {
        k = "k",
    }
}

with_options! {
    /// numpy's split: x divided along axis (default 0) into equal sections (an integer: numpy's
    /// error 'array split does not result in an equal division' otherwise) or at indices (a list:
    /// Python's slices between them).
    ///
    /// SQL: `tensor_split(x, indices_or_sections [, axis])`.
    tensor_split(x, indices_or_sections) -> TensorSplitCall {
        axis = "axis",
    }
}

with_options! {
    /// numpy's array_split: tensor_split, but a number of sections need not divide the axis (the
    /// first n % sections parts are one element longer).
    ///
    /// SQL: `tensor_array_split(x, indices_or_sections [, axis])`.
    tensor_array_split(x, indices_or_sections) -> TensorArraySplitCall {
        axis = "axis",
    }
}

with_options! {
    /// The array API standard's unstack (numpy 2.1's): one part per element along axis (default 0),
    /// the axis dropped, as a struct with fields '0', '1', ...; the axis's length must be known
    /// when the query is planned.
    ///
    /// SQL: `tensor_unstack(x [, axis])`.
    tensor_unstack(x) -> TensorUnstackCall {
        axis = "axis",
    }
}

list! {
    /// numpy's broadcast_arrays: every tensor broadcast to their common shape (numpy's
    /// broadcasting; numpy's error 'shape mismatch: objects cannot be broadcast to a single shape'
    /// otherwise, naming the row where the shapes vary by row).
    ///
    /// SQL: `tensor_broadcast_arrays(x1, x2, ...)`.
    tensor_broadcast_arrays
}

with_options! {
    /// numpy's concatenate: the tensors joined along an existing axis (default 0), or, with axis
    /// NULL, flattened and joined.
    ///
    /// SQL: `tensor_concatenate(x, y [, ...] [, axis])`.
    tensor_concatenate(..) -> TensorConcatenateCall {
        axis = "axis",
    }
}

with_options! {
    /// The array API standard's concat (numpy's concatenate, as tensor_concatenate): the tensors
    /// joined along an existing axis (default 0), or, with axis NULL, flattened and joined.
    ///
    /// SQL: `tensor_concat(x, y [, ...] [, axis])`.
    tensor_concat(..) -> TensorConcatCall {
        axis = "axis",
    }
}

with_options! {
    /// numpy's stack: the tensors, all of one shape, joined along a new axis (default 0).
    ///
    /// SQL: `tensor_stack(x, y [, ...] [, axis])`.
    tensor_stack(..) -> TensorStackCall {
        axis = "axis",
    }
}

list! {
    /// numpy's hstack: the tensors joined along axis 1, or along axis 0 when they are 1-d (each
    /// read as numpy's atleast_1d: a 0-d tensor as one element).
    ///
    /// SQL: `tensor_hstack(x, y [, ...])`.
    tensor_hstack
}

list! {
    /// numpy's vstack: the tensors joined along axis 0, each read as numpy's atleast_2d (a 1-d
    /// tensor of n elements as a 1 x n matrix, a 0-d one as 1 x 1).
    ///
    /// SQL: `tensor_vstack(x, y [, ...])`.
    tensor_vstack
}

with_options! {
    /// numpy's meshgrid: coordinate tensors from coordinate vectors (each input flattened).
    ///
    /// SQL: `tensor_meshgrid(x1, x2, ... [, indexing] [, sparse])`.
    tensor_meshgrid(..) -> TensorMeshgridCall {
        indexing = "indexing",
        sparse = "sparse",
    }
}
