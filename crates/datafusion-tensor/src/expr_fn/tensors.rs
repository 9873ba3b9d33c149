//! The expression builders of the functions of family Tensors (written by `render.rs`
//! from the registry: see the module docs of `expr_fn`). Do not edit.

// The docs are the SQL reference's words, in which function names are plain text.
#![allow(clippy::doc_markdown)]

use datafusion::logical_expr::Expr;

with_options! {
    /// Builds a tensor (arrow.fixed_shape_tensor) from a flat list of numbers or booleans per row,
    /// read in row-major order.
    ///
    /// SQL: `tensor(values, shape [, dim_names [, permutation]])`.
    tensor(values, shape) -> TensorCall {
        dim_names = "dim_names",
        permutation = "permutation",
    }
}

plain! {
    /// Returns the logical shape of a tensor (its permutation applied) as a list of integers.
    ///
    /// SQL: `tensor_shape(t)`.
    tensor_shape(t)
}

plain! {
    /// Returns the number of dimensions of a tensor.
    ///
    /// SQL: `tensor_ndim(t)`.
    tensor_ndim(t)
}

plain! {
    /// Returns the number of elements of a tensor (the product of its shape).
    ///
    /// SQL: `tensor_size(t)`.
    tensor_size(t)
}

plain! {
    /// Returns the type of an expression as a string, with its tensor metadata in full, for every
    /// row (NULL ones too): arrow.fixed_shape_tensor\<Float32, \[3, 2\], permutation \[1, 0\],
    /// dim_names \["H", "W"\]\> (the stored shape, as in the metadata; tensor_shape gives the
    /// logical one), arrow.variable_shape_tensor\<UInt8, ndim 3, uniform_shape \[3, null, null\]\>.
    ///
    /// SQL: `tensor_type(t)`.
    tensor_type(t)
}

plain! {
    /// Returns a tensor as nested lists in logical order (its permutation applied), as numpy's
    /// tolist(): a \[2, 3\] tensor becomes a list of two lists of three values; a 0-d tensor
    /// becomes its value; a variable-shape tensor's rows each in their own shape.
    ///
    /// SQL: `tensor_to_list(t)`.
    tensor_to_list(t)
}

plain! {
    /// Returns the tensor's elements, read in logical row-major order, in a new shape with the same
    /// number of elements (numpy reshape).
    ///
    /// SQL: `tensor_reshape(t, shape)`.
    tensor_reshape(t, shape)
}

plain! {
    /// Returns a tensor as nested text in logical order, as the CLI displays it: `\[\[1, 2, 3\],
    /// \[4, 5, 6\]\]`, NULL elements as `NULL`.
    ///
    /// SQL: `tensor_to_string(t)`.
    tensor_to_string(t)
}

plain! {
    /// Returns a tensor column as an arrow.variable_shape_tensor: each row with its own shape, here
    /// all the input's, which the type records as uniform (uniform_shape); element type, dim names
    /// and permutation kept.
    ///
    /// SQL: `tensor_to_variable(t)`.
    tensor_to_variable(t)
}

with_options! {
    /// Returns a variable-shape tensor column as an arrow.fixed_shape_tensor of one shape: `shape`
    /// (the logical shape), or the shape its type fixes in every row (uniform_shape) when `shape`
    /// is not given.
    ///
    /// SQL: `tensor_to_fixed(t [, shape])`.
    tensor_to_fixed(t) -> TensorToFixedCall {
        shape = "shape",
    }
}

plain! {
    /// Returns each tensor written out in its logical row-major order, as numpy's
    /// ascontiguousarray: the same values, shape and element type, stored without a permutation
    /// (dim names follow their dimensions).
    ///
    /// SQL: `tensor_ascontiguousarray(t)`.
    tensor_ascontiguousarray(t)
}

with_options! {
    /// numpy's zeros: a tensor of shape filled with 0 (float64 unless dtype says), the same for
    /// every row.
    ///
    /// SQL: `tensor_zeros(shape [, dtype])`.
    tensor_zeros(shape) -> TensorZerosCall {
        dtype = "dtype",
    }
}

with_options! {
    /// numpy's ones: a tensor of shape filled with 1 (float64 unless dtype says), the same for
    /// every row.
    ///
    /// SQL: `tensor_ones(shape [, dtype])`.
    tensor_ones(shape) -> TensorOnesCall {
        dtype = "dtype",
    }
}

with_options! {
    /// numpy's full: a tensor of shape filled with fill_value, in dtype or else fill_value's own
    /// type (an integer literal int64, a float literal float64, a boolean bool).
    ///
    /// SQL: `tensor_full(shape, fill_value [, dtype])`.
    tensor_full(shape, fill_value) -> TensorFullCall {
        dtype = "dtype",
    }
}

with_options! {
    /// numpy's eye (the array API standard's): an n_rows x n_cols matrix (n_cols default n_rows)
    /// with ones on the k-th diagonal (k \> 0 above the main one, k \< 0 below) and zeros
    /// elsewhere, float64 unless dtype says.
    ///
    /// SQL: `tensor_eye(n_rows [, n_cols [, k [, dtype]]])`.
    tensor_eye(n_rows) -> TensorEyeCall {
        n_cols = "n_cols",
        k = "k",
        dtype = "dtype",
    }
}

with_options! {
    /// numpy's arange: evenly spaced values from start (default 0: one argument is the stop) up to,
    /// not including, stop, by step (default 1); ceil((stop - start) / step) of them.
    ///
    /// SQL: `tensor_arange(start [, stop [, step [, dtype]]])`.
    tensor_arange(start) -> TensorArangeCall {
        stop = "stop",
        step = "step",
        dtype = "dtype",
    }
}

with_options! {
    /// numpy's linspace: num evenly spaced values from start to stop (included unless endpoint is
    /// false), computed in float64 as numpy computes them (the last value exactly stop); float64
    /// unless dtype says (an integer dtype floors first, as numpy does).
    ///
    /// SQL: `tensor_linspace(start, stop, num [, endpoint [, dtype]])`.
    tensor_linspace(start, stop, num) -> TensorLinspaceCall {
        endpoint = "endpoint",
        dtype = "dtype",
    }
}

with_options! {
    /// numpy's zeros_like: zeros of x's shape (each variable-shape row its own), dim names and
    /// element type (unless dtype says); NULL where x is NULL.
    ///
    /// SQL: `tensor_zeros_like(x [, dtype])`.
    tensor_zeros_like(x) -> TensorZerosLikeCall {
        dtype = "dtype",
    }
}

with_options! {
    /// numpy's ones_like: ones of x's shape, dim names and element type (unless dtype says); NULL
    /// where x is NULL.
    ///
    /// SQL: `tensor_ones_like(x [, dtype])`.
    tensor_ones_like(x) -> TensorOnesLikeCall {
        dtype = "dtype",
    }
}

with_options! {
    /// numpy's full_like: x's shape filled with fill_value cast to x's element type (unless dtype
    /// says), as numpy casts it; fill_value may be a column (each row its own); NULL where x or the
    /// fill is NULL.
    ///
    /// SQL: `tensor_full_like(x, fill_value [, dtype])`.
    tensor_full_like(x, fill_value) -> TensorFullLikeCall {
        dtype = "dtype",
    }
}
