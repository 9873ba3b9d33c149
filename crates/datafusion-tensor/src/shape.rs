//! Shapes, strides and broadcasting: the one place every function takes them from.
//!
//! Shapes are `usize` per dimension, row-major (C order) unless a stride vector says otherwise.
//! Every product is checked: a shape whose element count overflows is an error, never a wrap.

use crate::error::TensorError;

/// numpy's limit on the number of dimensions of an array (`NPY_MAXDIMS`).
pub const MAX_NDIM: usize = 64;

/// Number of elements of `shape`, or an error when it has more than [`MAX_NDIM`] dimensions,
/// or when the product of its nonzero dimensions overflows `usize`. A session's element limit
/// is [`crate::limits::Limits::checked_size`].
///
/// The zeros are left out of the product as numpy leaves them out of its "array is too big"
/// check: a 0-size shape such as `[0, 2^62, 4]` still has strides and offsets computed from its
/// other dimensions (a permuted layout multiplies them in another order), and a dimension
/// counted as a number of choices is allocated for.
pub fn checked_size(shape: &[usize]) -> Result<usize, TensorError> {
    let nonzero = nonzero_size(shape)?;
    Ok(if shape.contains(&0) { 0 } else { nonzero })
}

/// The product of `shape`'s nonzero dimensions, with [`checked_size`]'s errors: what numpy's
/// "array is too big" check and the session's element limit count.
pub(crate) fn nonzero_size(shape: &[usize]) -> Result<usize, TensorError> {
    if shape.len() > MAX_NDIM {
        return Err(TensorError::Shape(format!(
            "maximum supported dimension for a tensor is currently {MAX_NDIM}, found {}",
            shape.len()
        )));
    }
    shape
        .iter()
        .filter(|&&d| d != 0)
        .try_fold(1usize, |acc, &d| acc.checked_mul(d))
        .ok_or_else(|| {
            TensorError::Shape(format!(
                "tensor shape {} has more elements than fit in memory (the product overflows)",
                format_shape(shape)
            ))
        })
}

/// Row-major (C order) element strides of `shape`.
///
/// Callers have validated the shape with [`checked_size`], so no product here can overflow: every
/// stride is at most the element count. A 0-size dimension makes the later strides irrelevant
/// (nothing is ever addressed through them), and they stay the plain products.
pub fn row_major_strides(shape: &[usize]) -> Vec<usize> {
    let mut strides = vec![1usize; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        strides[i] = strides[i + 1].saturating_mul(shape[i + 1]);
    }
    strides
}

/// numpy's broadcasting of several shapes into one.
///
/// Shapes are aligned at their trailing dimension; each dimension of the result is the one
/// size other than 1 found there (or 1). Any other disagreement is numpy's
/// "shape mismatch: objects cannot be broadcast to a single shape" error, which also names the
/// two shapes that clash, as numpy does (`arg 0`, `arg 1`, ... in the order given).
pub fn broadcast_shapes(shapes: &[&[usize]]) -> Result<Vec<usize>, TensorError> {
    let labels: Vec<String> = (0..shapes.len()).map(|i| format!("arg {i}")).collect();
    let labelled: Vec<(&str, &[usize])> = labels
        .iter()
        .map(String::as_str)
        .zip(shapes.iter().copied())
        .collect();
    broadcast_labelled(&labelled)
}

/// [`broadcast_shapes`] with a name for each shape, used in the error (`choice 0`, `a`).
pub fn broadcast_labelled(shapes: &[(&str, &[usize])]) -> Result<Vec<usize>, TensorError> {
    let ndim = shapes.iter().map(|(_, s)| s.len()).max().unwrap_or(0);
    let mut out = vec![1usize; ndim];
    // Which input set the dimension (for the error message).
    let mut owner: Vec<Option<usize>> = vec![None; ndim];
    for (which, (label, shape)) in shapes.iter().enumerate() {
        let pad = ndim - shape.len();
        for (axis, &dim) in shape.iter().enumerate() {
            let slot = pad + axis;
            match broadcast_dim(out[slot], dim) {
                Some(size) if size == out[slot] => {}
                Some(size) => {
                    out[slot] = size;
                    owner[slot] = Some(which);
                }
                None => {
                    let (other_label, other_shape) = shapes[owner[slot].unwrap_or(0)];
                    return Err(TensorError::Shape(format!(
                        "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between {other_label} with shape {} and {label} with shape {}.",
                        format_shape(other_shape),
                        format_shape(shape)
                    )));
                }
            }
        }
    }
    checked_size(&out)?;
    Ok(out)
}

/// numpy's rule for one dimension: equal sizes broadcast to themselves, a 1 stretches to the
/// other size (`1` and `0` give `0`); anything else does not broadcast.
fn broadcast_dim(a: usize, b: usize) -> Option<usize> {
    if a == b || b == 1 {
        Some(a)
    } else if a == 1 {
        Some(b)
    } else {
        None
    }
}

/// numpy's broadcast of dimensions known when a query is planned (`None`: differs between
/// rows), right-aligned: a dimension is known when every input's is, or when one input's is a
/// length other than 1 (the others must then be 1 or it, or the row fails). `None` when two
/// known lengths cannot broadcast.
pub fn known_broadcast(shapes: &[&[Option<usize>]]) -> Option<Vec<Option<usize>>> {
    let ndim = shapes.iter().map(|s| s.len()).max().unwrap_or(0);
    let mut out = Vec::with_capacity(ndim);
    for axis in 0..ndim {
        let dims = shapes
            .iter()
            .filter_map(|s| (axis + s.len()).checked_sub(ndim).map(|i| s[i]));
        let (mut known, mut unknown) = (1usize, false);
        for dim in dims {
            match dim {
                None => unknown = true,
                Some(1) => {}
                Some(d) if known == 1 || known == d => known = d,
                Some(_) => return None,
            }
        }
        out.push(if unknown && known == 1 {
            None
        } else {
            Some(known)
        });
    }
    Some(out)
}

/// numpy's `take_along_axis` / `put_along_axis` shape: `arr` and `indices` have the same
/// number of dimensions; off `axis` they broadcast, along it the result has `indices`' length.
///
/// A mismatch is numpy's fancy-indexing error, "shape mismatch: indexing arrays could not be
/// broadcast together with shapes (2, 3) (3, 1) " (trailing space included), naming both
/// shapes. The size of the result is not checked here: the output type built from it is.
pub fn broadcast_along_axis(
    arr: &[usize],
    indices: &[usize],
    axis: usize,
) -> Result<Vec<usize>, TensorError> {
    arr.iter()
        .zip(indices)
        .enumerate()
        .map(|(d, (&a, &i))| if d == axis { Some(i) } else { broadcast_dim(a, i) })
        .collect::<Option<Vec<usize>>>()
        .ok_or_else(|| {
            TensorError::Shape(format!(
                "shape mismatch: indexing arrays could not be broadcast together with shapes {} {} ",
                format_shape(arr),
                format_shape(indices)
            ))
        })
}

/// Element strides that read `shape` (row-major, `strides` per axis) as if it had been
/// broadcast to `target`: prepended and size-1 axes get stride 0.
///
/// `shape` must broadcast to `target` (see [`broadcast_shapes`]).
pub fn broadcast_strides(shape: &[usize], strides: &[usize], target: &[usize]) -> Vec<usize> {
    let pad = target.len() - shape.len();
    let mut out = vec![0usize; target.len()];
    for (axis, (&dim, &stride)) in shape.iter().zip(strides).enumerate() {
        if dim != 1 || target[pad + axis] == 1 {
            out[pad + axis] = stride;
        }
    }
    out
}

/// For every position of `target` (row-major), the offset of the element that an input of
/// `shape` laid out with `strides` broadcasts to it: the gather table of a broadcast, compiled
/// once and applied to every row.
///
/// `u32`, the kernels' table width: the offsets stay within one input tensor, whose size fits
/// an Arrow list size (`i32`, checked on [`crate::TensorType`]).
pub fn broadcast_offsets(shape: &[usize], strides: &[usize], target: &[usize]) -> Vec<u32> {
    strided_offsets(target, &broadcast_strides(shape, strides, target))
        .into_iter()
        .map(|o| o as u32)
        .collect()
}

/// Whether `shape` broadcasts to `target` unchanged (numpy's rule for assigned values).
pub fn broadcasts_to(shape: &[usize], target: &[usize]) -> bool {
    shape.len() <= target.len()
        && shape
            .iter()
            .rev()
            .zip(target.iter().rev())
            .all(|(&s, &t)| s == t || s == 1)
}

/// numpy's rule for assigned values (`x[idx] = y`, JAX's `x.at[idx].set(y)`): for every element
/// of a `target`-shaped selection, row-major, the offset of the element of a row-major `values`
/// tensor broadcast to it.
///
/// # Errors
/// numpy's assignment error when `values_shape` does not broadcast to `target`.
pub fn assignment_offsets(
    values_shape: &[usize],
    target: &[usize],
) -> Result<Vec<usize>, TensorError> {
    if !broadcasts_to(values_shape, target) {
        return Err(assignment_mismatch(values_shape, &format_shape(target)));
    }
    Ok(strided_offsets(
        target,
        &broadcast_strides(values_shape, &row_major_strides(values_shape), target),
    ))
}

/// numpy's words when assigned values do not broadcast to the selection they are assigned to
/// (`selection` written as numpy writes a shape, or with a symbolic axis such as `(m, 3)`).
pub fn assignment_mismatch(values_shape: &[usize], selection: &str) -> TensorError {
    TensorError::Shape(format!(
        "shape mismatch: value array of shape {} could not be broadcast to indexing result of shape {selection}",
        format_shape(values_shape)
    ))
}

/// For each element of a tensor of `shape`, in row-major order, the offset
/// `sum(index[i] * strides[i])`.
///
/// This is how a strided (permuted, broadcast, sliced) layout is compiled once into a plain
/// gather list that kernels then apply to every row.
pub fn strided_offsets(shape: &[usize], strides: &[usize]) -> Vec<usize> {
    let size: usize = shape.iter().product();
    let mut out = Vec::with_capacity(size);
    if size == 0 {
        return out;
    }
    if shape.is_empty() {
        out.push(0);
        return out;
    }
    // Odometer over all but the innermost axis; the innermost runs as a tight loop.
    let last = shape.len() - 1;
    let (inner_len, inner_stride) = (shape[last], strides[last]);
    let mut index = vec![0usize; last];
    let mut base = 0usize;
    loop {
        out.extend((0..inner_len).map(|k| base + k * inner_stride));
        let mut axis = last;
        loop {
            if axis == 0 {
                return out;
            }
            axis -= 1;
            index[axis] += 1;
            base += strides[axis];
            if index[axis] < shape[axis] {
                break;
            }
            base -= strides[axis] * shape[axis];
            index[axis] = 0;
        }
    }
}

/// For a permuted layout (logical `shape` read through `strides`), the row-major (logical)
/// offset of each stored offset: the inverse of [`strided_offsets`]. Offsets computed with the
/// stored strides map through it to a row-major copy's.
pub fn logical_of_stored(shape: &[usize], strides: &[usize]) -> Vec<usize> {
    let stored_of_logical = strided_offsets(shape, strides);
    let mut inverse = vec![0usize; stored_of_logical.len()];
    for (logical, &stored) in stored_of_logical.iter().enumerate() {
        inverse[stored] = logical;
    }
    inverse
}

/// `[2, 3]` as numpy prints a shape: `(2, 3)`, `(4,)`, `()`.
pub fn format_shape(shape: &[usize]) -> String {
    match shape {
        [] => "()".to_string(),
        [d] => format!("({d},)"),
        _ => {
            let dims: Vec<String> = shape.iter().map(ToString::to_string).collect();
            format!("({})", dims.join(", "))
        }
    }
}

/// numpy's `reshape` shape resolution: `requested` may hold one unknown (negative) dimension,
/// inferred from `size`. numpy's wording for every failure.
pub fn resolve_reshape(size: usize, requested: &[i64]) -> std::result::Result<Vec<usize>, String> {
    let requested_text = || {
        let dims: Vec<String> = requested.iter().map(ToString::to_string).collect();
        if dims.len() == 1 {
            format!("({},)", dims[0])
        } else {
            format!("({})", dims.join(", "))
        }
    };
    let cannot = || {
        format!(
            "cannot reshape array of size {size} into shape {}",
            requested_text()
        )
    };
    let unknown: Vec<usize> = (0..requested.len()).filter(|&i| requested[i] < 0).collect();
    if unknown.len() > 1 {
        return Err("can only specify one unknown dimension".to_string());
    }
    let mut known = 1usize;
    for &d in requested.iter().filter(|&&d| d >= 0) {
        let d = usize::try_from(d).map_err(|_| cannot())?;
        known = known.checked_mul(d).ok_or_else(cannot)?;
    }
    let mut shape: Vec<usize> = requested
        .iter()
        .map(|&d| usize::try_from(d).unwrap_or(0))
        .collect();
    match unknown.first() {
        Some(&axis) => {
            // numpy: the unknown dimension cannot be inferred next to a 0-size one.
            if known == 0 || !size.is_multiple_of(known) {
                return Err(cannot());
            }
            shape[axis] = size / known;
        }
        None if known != size => return Err(cannot()),
        None => {}
    }
    Ok(shape)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_overflow() {
        assert_eq!(checked_size(&[]).unwrap(), 1);
        assert_eq!(checked_size(&[2, 0, 3]).unwrap(), 0);
        assert_eq!(checked_size(&[2, 3, 4]).unwrap(), 24);
        let err = checked_size(&[usize::MAX, 2]).unwrap_err();
        assert!(err.to_string().contains("overflows"), "{err}");
    }

    #[test]
    fn strides() {
        assert_eq!(row_major_strides(&[2, 3, 4]), vec![12, 4, 1]);
        assert_eq!(row_major_strides(&[]), Vec::<usize>::new());
        assert_eq!(row_major_strides(&[5]), vec![1]);
    }

    #[test]
    fn broadcasting_follows_numpy() {
        // numpy: np.broadcast_shapes((2,1,1), (1,3,1), (1,1,5)) == (2, 3, 5)
        assert_eq!(
            broadcast_shapes(&[&[2, 1, 1], &[1, 3, 1], &[1, 1, 5]]).unwrap(),
            vec![2, 3, 5]
        );
        // np.broadcast_shapes((3,), (4, 1)) == (4, 3)
        assert_eq!(broadcast_shapes(&[&[3], &[4, 1]]).unwrap(), vec![4, 3]);
        // np.broadcast_shapes((0,), (1,)) == (0,)
        assert_eq!(broadcast_shapes(&[&[0], &[1]]).unwrap(), vec![0]);
        assert_eq!(broadcast_shapes(&[&[], &[2]]).unwrap(), vec![2]);
        let err = broadcast_shapes(&[&[2, 3], &[4]]).unwrap_err().to_string();
        assert_eq!(
            err,
            "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between arg 0 with shape (2, 3) and arg 1 with shape (4,)."
        );
    }

    #[test]
    fn along_axis_broadcasts_off_the_axis() {
        // np.take_along_axis(np.zeros((2, 3)), np.zeros((1, 5), int), 1).shape == (2, 5)
        assert_eq!(
            broadcast_along_axis(&[2, 3], &[1, 5], 1).unwrap(),
            vec![2, 5]
        );
        assert_eq!(
            broadcast_along_axis(&[1, 3], &[4, 2], 1).unwrap(),
            vec![4, 2]
        );
        assert_eq!(
            broadcast_along_axis(&[0, 3], &[1, 2], 1).unwrap(),
            vec![0, 2]
        );
        let err = broadcast_along_axis(&[2, 3], &[3, 1], 1)
            .unwrap_err()
            .to_string();
        assert_eq!(
            err,
            "shape mismatch: indexing arrays could not be broadcast together with shapes (2, 3) (3, 1) "
        );
    }

    #[test]
    fn offsets_of_strided_layouts() {
        // A [2, 3] row-major tensor read transposed: logical [3, 2], strides [1, 3].
        assert_eq!(strided_offsets(&[3, 2], &[1, 3]), vec![0, 3, 1, 4, 2, 5]);
        assert_eq!(strided_offsets(&[], &[]), vec![0]);
        assert_eq!(strided_offsets(&[2, 0], &[0, 1]), Vec::<usize>::new());
        // Broadcast of (3,) to (2, 3).
        let s = broadcast_strides(&[3], &[1], &[2, 3]);
        assert_eq!(s, vec![0, 1]);
        assert_eq!(strided_offsets(&[2, 3], &s), vec![0, 1, 2, 0, 1, 2]);
        assert_eq!(
            broadcast_offsets(&[3], &[1], &[2, 3]),
            vec![0, 1, 2, 0, 1, 2]
        );
        // The transposed [2, 3] above: stored offset 3 is logical position 1.
        assert_eq!(logical_of_stored(&[3, 2], &[1, 3]), vec![0, 2, 4, 1, 3, 5]);
    }

    #[test]
    fn shapes_print_like_numpy() {
        assert_eq!(format_shape(&[]), "()");
        assert_eq!(format_shape(&[4]), "(4,)");
        assert_eq!(format_shape(&[2, 3]), "(2, 3)");
    }

    #[test]
    fn reshape_shapes_follow_numpy() {
        // Expected values from numpy 2.4: np.arange(6).reshape(s).shape, or its ValueError.
        assert_eq!(resolve_reshape(6, &[2, -1]).unwrap(), vec![2, 3]);
        assert_eq!(resolve_reshape(6, &[-2, 3]).unwrap(), vec![2, 3]);
        assert_eq!(resolve_reshape(0, &[3, -1]).unwrap(), vec![3, 0]);
        assert_eq!(resolve_reshape(0, &[-1]).unwrap(), vec![0]);
        assert_eq!(resolve_reshape(1, &[]).unwrap(), Vec::<usize>::new());
        assert_eq!(
            resolve_reshape(6, &[4]).unwrap_err(),
            "cannot reshape array of size 6 into shape (4,)"
        );
        assert_eq!(
            resolve_reshape(6, &[-1, -1]).unwrap_err(),
            "can only specify one unknown dimension"
        );
        assert!(resolve_reshape(6, &[-1, 4]).is_err());
        assert!(resolve_reshape(0, &[0, -1]).is_err());
        assert!(resolve_reshape(6, &[i64::MAX, i64::MAX, 2]).is_err());
    }

    #[test]
    fn known_dimensions_broadcast() {
        let (a, b, c) = (
            [Some(3), None, Some(1)],
            [None, Some(1), Some(4)],
            [Some(5), Some(4)],
        );
        assert_eq!(
            known_broadcast(&[&a, &b]),
            Some(vec![Some(3), None, Some(4)])
        );
        // Right-aligned: c's 5 meets a's None and b's 1.
        assert_eq!(
            known_broadcast(&[&a, &b, &c]),
            Some(vec![Some(3), Some(5), Some(4)])
        );
        assert_eq!(known_broadcast(&[&[Some(2)], &[Some(3)]]), None);
    }
}
