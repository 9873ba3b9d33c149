//! The labellings ([`Labelling`]) of numpy's products and diagonals, made from the operands'
//! logical shapes with numpy's checks and messages: `matmul`, `dot`, `inner`, `outer`,
//! `tensordot`, and `diagonal` (whose sum is `trace`).

use super::labelling::{Axis, Labelling};
use crate::error::{Result, TensorError};
use crate::index::wrap_index;
use crate::shape::broadcast_shapes;

/// A shape as numpy's linear-algebra messages print it: `(2,3)`, `(4,)`.
pub fn compact_shape(shape: &[usize]) -> String {
    match shape {
        [d] => format!("({d},)"),
        _ => {
            let dims: Vec<String> = shape.iter().map(ToString::to_string).collect();
            format!("({})", dims.join(","))
        }
    }
}

fn shape_error(message: String) -> TensorError {
    TensorError::Shape(message)
}

/// Adds an index of `size` and returns it.
fn label(sizes: &mut Vec<usize>, size: usize) -> usize {
    sizes.push(size);
    sizes.len() - 1
}

const MATMUL_SIGNATURE: &str = "(n?,k),(k,m?)->(n?,m?)";

/// numpy's `matmul`: a 1-d operand is a row (first) or column (second) vector whose added
/// dimension is removed from the result; the dimensions before the last two broadcast.
///
/// # Errors
/// numpy's messages: a 0-d operand, a core dimension mismatch, batch dimensions that do not
/// broadcast.
pub fn matmul(a: &[usize], b: &[usize]) -> Result<Labelling> {
    for (i, shape) in [a, b].iter().enumerate() {
        if shape.is_empty() {
            return Err(shape_error(format!(
                "matmul: Input operand {i} does not have enough dimensions (has 0, gufunc core with signature {MATMUL_SIGNATURE} requires 1)"
            )));
        }
    }
    let (a_core, b_core) = (a.len().min(2), b.len().min(2));
    let (a_batch, b_batch) = (&a[..a.len() - a_core], &b[..b.len() - b_core]);
    let core = a[a.len() - 1];
    let k_b = b[b.len() - b_core];
    if core != k_b {
        return Err(shape_error(format!(
            "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature {MATMUL_SIGNATURE} (size {k_b} is different from {core})"
        )));
    }
    let rows = (a_core == 2).then(|| a[a.len() - 2]);
    let cols = (b_core == 2).then(|| b[b.len() - 1]);
    let batch = broadcast_shapes(&[a_batch, b_batch]).map_err(|_| {
        let remapped = |shape: &[usize], batch: &[usize], core: usize| {
            let mut dims: Vec<String> = batch.iter().map(ToString::to_string).collect();
            dims.extend(std::iter::repeat_n("newaxis".to_string(), core));
            format!("{}->({})", compact_shape(shape), dims.join(","))
        };
        let requested: Vec<usize> = rows.into_iter().chain(cols).collect();
        shape_error(format!(
            "operands could not be broadcast together with remapped shapes [original->remapped]: {} {}  and requested shape {}",
            remapped(a, a_batch, a_core),
            remapped(b, b_batch, b_core),
            compact_shape(&requested)
        ))
    })?;
    let mut sizes = Vec::new();
    let batch_labels: Vec<usize> = batch.iter().map(|&d| label(&mut sizes, d)).collect();
    let aligned = |own: &[usize]| -> Vec<Axis> {
        let skip = batch.len() - own.len();
        batch_labels[skip..].iter().map(|&l| Axis::of(l)).collect()
    };
    let k_label = label(&mut sizes, core);
    let mut a_axes = aligned(a_batch);
    let mut b_axes = aligned(b_batch);
    let mut output = batch_labels.clone();
    if let Some(rows) = rows {
        let l = label(&mut sizes, rows);
        a_axes.push(Axis::of(l));
        output.push(l);
    }
    a_axes.push(Axis::of(k_label));
    b_axes.push(Axis::of(k_label));
    if let Some(cols) = cols {
        let l = label(&mut sizes, cols);
        b_axes.push(Axis::of(l));
        output.push(l);
    }
    Ok(Labelling {
        sizes,
        operands: vec![a_axes, b_axes],
        output,
    })
}

/// numpy's "shapes (2,3) and (4,) not aligned: 3 (dim 1) != 4 (dim 0)".
fn not_aligned(a: &[usize], b: &[usize], a_dim: usize, b_dim: usize) -> TensorError {
    shape_error(format!(
        "shapes {} and {} not aligned: {} (dim {a_dim}) != {} (dim {b_dim})",
        compact_shape(a),
        compact_shape(b),
        a[a_dim],
        b[b_dim]
    ))
}

/// Each dimension its own index, kept in the result: `a`'s then `b`'s (a product without a
/// sum: numpy's multiply of a 0-d operand, `outer`, `tensordot` with no axes).
fn free_product(a: &[usize], b: &[usize], summed: &[(usize, usize)]) -> Labelling {
    let mut sizes = Vec::new();
    let mut a_axes: Vec<Axis> = a.iter().map(|&d| Axis::of(label(&mut sizes, d))).collect();
    let mut b_axes: Vec<Option<Axis>> = vec![None; b.len()];
    for &(i, j) in summed {
        b_axes[j] = Some(a_axes[i]);
    }
    let b_axes: Vec<Axis> = b_axes
        .into_iter()
        .zip(b)
        .map(|(axis, &d)| axis.unwrap_or_else(|| Axis::of(label(&mut sizes, d))))
        .collect();
    let output = a_axes
        .iter_mut()
        .enumerate()
        .filter(|(i, _)| !summed.iter().any(|(s, _)| s == i))
        .map(|(_, axis)| axis.label)
        .chain(
            b_axes
                .iter()
                .enumerate()
                .filter(|(j, _)| !summed.iter().any(|(_, s)| s == j))
                .map(|(_, axis)| axis.label),
        )
        .collect();
    Labelling {
        sizes,
        operands: vec![a_axes, b_axes],
        output,
    }
}

/// numpy's `dot`: a 0-d operand multiplies; otherwise the sum over `a`'s last axis and `b`'s
/// second-to-last (its only one when 1-d); the result has `a`'s other dimensions, then `b`'s.
///
/// # Errors
/// numpy's "not aligned" message.
pub fn dot(a: &[usize], b: &[usize]) -> Result<Labelling> {
    if a.is_empty() || b.is_empty() {
        return Ok(free_product(a, b, &[]));
    }
    let a_dim = a.len() - 1;
    let b_dim = b.len().saturating_sub(2);
    if a[a_dim] != b[b_dim] {
        return Err(not_aligned(a, b, a_dim, b_dim));
    }
    Ok(free_product(a, b, &[(a_dim, b_dim)]))
}

/// numpy's `inner`: a 0-d operand multiplies; otherwise the sum over both last axes.
///
/// # Errors
/// numpy's "not aligned" message.
pub fn inner(a: &[usize], b: &[usize]) -> Result<Labelling> {
    if a.is_empty() || b.is_empty() {
        return Ok(free_product(a, b, &[]));
    }
    let (a_dim, b_dim) = (a.len() - 1, b.len() - 1);
    if a[a_dim] != b[b_dim] {
        return Err(not_aligned(a, b, a_dim, b_dim));
    }
    Ok(free_product(a, b, &[(a_dim, b_dim)]))
}

/// numpy's `outer`: every product of an element of `a` with one of `b`, both flattened; the
/// values are those of [`free_product`], the shape `(a.size, b.size)` ([`outer_shape`]).
pub fn outer(a: &[usize], b: &[usize]) -> Labelling {
    free_product(a, b, &[])
}

/// The shape of `outer(a, b)`.
pub fn outer_shape(a: &[usize], b: &[usize]) -> Vec<usize> {
    vec![a.iter().product(), b.iter().product()]
}

/// numpy's `kron`: the operands' shapes padded with 1s in front to one length, every product
/// of an element of `a` with one of `b`, laid out as `(a0, b0, a1, b1, ...)`: the values of
/// the result, whose shape is `(a0 * b0, a1 * b1, ...)` (returned beside the labelling).
pub fn kron(a: &[usize], b: &[usize]) -> (Labelling, Vec<usize>) {
    let mut labelling = free_product(a, b, &[]);
    let ndim = a.len().max(b.len());
    let (pad_a, pad_b) = (ndim - a.len(), ndim - b.len());
    let mut output = Vec::with_capacity(a.len() + b.len());
    let mut shape = Vec::with_capacity(ndim);
    for d in 0..ndim {
        let mut size = 1;
        // A padded dimension (1) has no index: it adds nothing to the layout.
        if let Some(axis) = d.checked_sub(pad_a).map(|i| labelling.operands[0][i]) {
            output.push(axis.label);
            size *= labelling.sizes[axis.label];
        }
        if let Some(axis) = d.checked_sub(pad_b).map(|j| labelling.operands[1][j]) {
            output.push(axis.label);
            size *= labelling.sizes[axis.label];
        }
        shape.push(size);
    }
    labelling.output = output;
    (labelling, shape)
}

/// The axes of `tensordot`, as numpy takes them.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum TensordotAxes {
    /// The last `n` axes of `a` with the first `n` of `b`.
    Count(i64),
    /// `a`'s axes with `b`'s, pairwise.
    Pairs(Vec<i64>, Vec<i64>),
}

/// numpy's `tensordot`: the sum over the paired axes; the result has `a`'s other dimensions,
/// then `b`'s.
///
/// # Errors
/// numpy's messages: "shape-mismatch for sum", "tuple index out of range".
pub fn tensordot(a: &[usize], b: &[usize], axes: &TensordotAxes) -> Result<Labelling> {
    let (a_axes, b_axes): (Vec<i64>, Vec<i64>) = match axes {
        // numpy indexes both shapes with axes_a = range(-n, 0), axes_b = range(0, n): an n
        // past either operand's dimensions fails there, before any list of n axes is made.
        TensordotAxes::Count(n) if usize::try_from(*n).is_ok_and(|n| n > a.len().min(b.len())) => {
            return Err(shape_error("tuple index out of range".to_string()));
        }
        TensordotAxes::Count(n) => ((-*n..0).collect(), (0..*n).collect()),
        TensordotAxes::Pairs(x, y) => (x.clone(), y.clone()),
    };
    if a_axes.len() != b_axes.len() {
        return Err(shape_error("shape-mismatch for sum".to_string()));
    }
    let mut pairs = Vec::with_capacity(a_axes.len());
    for (&i, &j) in a_axes.iter().zip(&b_axes) {
        let out_of_range = || shape_error("tuple index out of range".to_string());
        let i = wrap_index(i, a.len()).ok_or_else(out_of_range)?;
        let j = wrap_index(j, b.len()).ok_or_else(out_of_range)?;
        if a[i] != b[j] {
            return Err(shape_error("shape-mismatch for sum".to_string()));
        }
        if pairs.iter().any(|&(p, q)| p == i || q == j) {
            // numpy transposes by the summed axes, which fails on a repeated one.
            return Err(shape_error("repeated axis in transpose".to_string()));
        }
        pairs.push((i, j));
    }
    Ok(free_product(a, b, &pairs))
}

/// The diagonal of `axis1` and `axis2` at `offset` (numpy's `diagonal`): the other dimensions
/// first, in order, then the diagonal; `sum` (numpy's `trace`) sums the diagonal away.
///
/// # Errors
/// numpy's messages: fewer than two dimensions, an axis out of bounds, the same axis twice.
pub fn diagonal(
    shape: &[usize],
    offset: i64,
    axis1: i64,
    axis2: i64,
    sum: bool,
) -> Result<Labelling> {
    let ndim = shape.len();
    if ndim < 2 {
        return Err(shape_error(
            "diag requires an array of at least two dimensions".to_string(),
        ));
    }
    let normal = |axis: i64, which: &str| {
        wrap_index(axis, ndim).ok_or_else(|| {
            shape_error(format!(
                "{which}: axis {axis} is out of bounds for array of dimension {ndim}"
            ))
        })
    };
    let (first, second) = (normal(axis1, "axis1")?, normal(axis2, "axis2")?);
    if first == second {
        return Err(shape_error(
            "axis1 and axis2 cannot be the same".to_string(),
        ));
    }
    let (n1, n2) = (shape[first], shape[second]);
    let magnitude = usize::try_from(offset.unsigned_abs()).unwrap_or(usize::MAX);
    let (start1, start2, length) = if offset >= 0 {
        (0, magnitude, n1.min(n2.saturating_sub(magnitude)))
    } else {
        (magnitude, 0, n1.saturating_sub(magnitude).min(n2))
    };
    let mut sizes = Vec::new();
    let mut axes = vec![Axis::of(0); ndim];
    let mut output = Vec::new();
    for (d, &size) in shape.iter().enumerate() {
        if d != first && d != second {
            let l = label(&mut sizes, size);
            axes[d] = Axis::of(l);
            output.push(l);
        }
    }
    let diag = label(&mut sizes, length);
    // An empty diagonal reads nothing: its starts stay within the dimensions.
    let start = |s: usize| if length == 0 { 0 } else { s };
    axes[first] = Axis {
        label: diag,
        start: start(start1),
    };
    axes[second] = Axis {
        label: diag,
        start: start(start2),
    };
    if !sum {
        output.push(diag);
    }
    Ok(Labelling {
        sizes,
        operands: vec![axes],
        output,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(result: Result<Labelling>) -> String {
        result.unwrap_err().to_string()
    }

    #[test]
    fn numpy_messages() {
        assert_eq!(
            message(matmul(&[2, 3], &[4, 2])),
            "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature (n?,k),(k,m?)->(n?,m?) (size 4 is different from 3)"
        );
        assert_eq!(
            message(matmul(&[2, 2, 3], &[3, 3, 2])),
            "operands could not be broadcast together with remapped shapes [original->remapped]: (2,2,3)->(2,newaxis,newaxis) (3,3,2)->(3,newaxis,newaxis)  and requested shape (2,2)"
        );
        assert_eq!(
            message(dot(&[2, 3], &[4])),
            "shapes (2,3) and (4,) not aligned: 3 (dim 1) != 4 (dim 0)"
        );
        assert_eq!(
            message(diagonal(&[2, 3], 0, 0, 2, false)),
            "axis2: axis 2 is out of bounds for array of dimension 2"
        );
    }

    #[test]
    fn shapes() {
        assert_eq!(
            matmul(&[5, 1, 2, 3], &[3, 4]).unwrap().output_shape(),
            vec![5, 1, 2, 4]
        );
        assert_eq!(matmul(&[3], &[7, 3, 2]).unwrap().output_shape(), vec![7, 2]);
        assert_eq!(
            dot(&[2, 3, 4], &[5, 4, 6]).unwrap().output_shape(),
            vec![2, 3, 5, 6]
        );
        assert_eq!(
            tensordot(
                &[2, 3, 4],
                &[4, 3, 5],
                &TensordotAxes::Pairs(vec![1, 2], vec![1, 0])
            )
            .unwrap()
            .output_shape(),
            vec![2, 5]
        );
        assert_eq!(
            diagonal(&[2, 3, 4], 1, 0, 2, false).unwrap().output_shape(),
            vec![3, 2]
        );
        assert_eq!(
            diagonal(&[2, 3], 5, 0, 1, false).unwrap().output_shape(),
            vec![0]
        );
    }
}
