//! A call of the family planned: its options read into a [`MatrixOp`] (literals, numpy's
//! defaults and errors), the result type (numpy's `_commonType`: float32 stays float32,
//! everything else is float64, float16 refused), and the layout of a row's matrices
//! ([`layout`]), checked when the query is planned for fixed shapes and per row shape for
//! variable ones.

use arrow::datatypes::DataType;
use datafusion::common::{ScalarValue, plan_err};
use datafusion::error::{DataFusionError, Result};

use super::{DecomposeFunction, DecomposePlan, Part};
use crate::kernels::decompose::{MatrixOp, QrMode, Real, Tolerance};
use crate::shape::{broadcast_labelled, broadcast_strides, strided_offsets};
use crate::tensor_type::TensorType;
use crate::udf::PlanArgs;
use crate::udf::linalg::args::{asarray, integer, is_default, string};
use crate::variable_shape::{AnyTensorType, VariableShapeType};

/// What each matrix of a call computes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Operation {
    /// A float64 operation of the kernel.
    Matrix(MatrixOp),
    /// `matrix_power` by this exponent (negative: of the inverse).
    Power(i64),
    /// `matrix_rank` of a tensor of fewer than two dimensions: 1 unless every element is 0.
    RankOfVector,
}

/// One operand matrix of a row: its size, strides, and where each matrix of the result's
/// batch starts in it (row-major over the batch; its batch dimensions broadcast).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Matrix {
    pub rows: usize,
    pub cols: usize,
    pub row_stride: usize,
    pub col_stride: usize,
    pub offsets: Vec<usize>,
}

/// The matrices of a row and the shapes of its result's parts.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Layout {
    /// The result's batch shape (the operands' leading dimensions broadcast).
    pub batch: Vec<usize>,
    pub a: Matrix,
    pub b: Option<Matrix>,
    /// Each part's shape for the whole row (`batch` then the part's own); `lstsq`'s
    /// residuals at their longest.
    pub parts: Vec<Vec<usize>>,
}

/// numpy's `_assert_stacked_2d` / `_assert_2d` message.
fn dimensions_error(ndim: usize, exactly: bool) -> String {
    format!(
        "{ndim}-dimensional array given. Array must be {}two-dimensional",
        if exactly { "" } else { "at least " }
    )
}

/// The layout of a row whose operands have these logical shapes and strides; an error is
/// numpy's message.
#[allow(
    clippy::many_single_char_names,
    reason = "numpy's names: d dimensions, an m x n matrix a, b of k columns"
)]
pub fn layout(
    op: &Operation,
    operands: &[(Vec<usize>, Vec<usize>)],
) -> std::result::Result<Layout, String> {
    let (shape, strides) = &operands[0];
    let lstsq = matches!(op, Operation::Matrix(MatrixOp::Lstsq { .. }));
    let square = match op {
        Operation::Matrix(op) => op.square(),
        Operation::Power(_) => true,
        Operation::RankOfVector => {
            return Ok(Layout {
                batch: Vec::new(),
                a: matrix(shape, strides, &[], 0),
                b: None,
                parts: vec![Vec::new()],
            });
        }
    };
    let d = shape.len();
    if d < 2 || (lstsq && d != 2) {
        return Err(dimensions_error(d, lstsq));
    }
    let (m, n) = (shape[d - 2], shape[d - 1]);
    if square && m != n {
        return Err("Last 2 dimensions of the array must be square".to_string());
    }
    let a_batch = &shape[..d - 2];
    let (batch, b, k) = match operands.get(1) {
        None => (a_batch.to_vec(), None, 0),
        Some((b_shape, b_strides)) => {
            let vector = b_shape.len() == 1;
            let e = b_shape.len();
            if lstsq && e > 2 {
                return Err(dimensions_error(e, true));
            }
            if e == 0 {
                return Err(if lstsq {
                    dimensions_error(0, true)
                } else {
                    "solve: Input operand 1 does not have enough dimensions (has 0, gufunc core with signature (m,m),(m,n)->(m,n) requires 2)".to_string()
                });
            }
            let (rows, core) = if vector { (e - 1, e) } else { (e - 2, e - 1) };
            let b_rows = b_shape[rows];
            if b_rows != m {
                return Err(if lstsq {
                    "Incompatible dimensions".to_string()
                } else if vector {
                    format!(
                        "solve1: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature (m,m),(m)->(m) (size {b_rows} is different from {m})"
                    )
                } else {
                    format!(
                        "solve: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature (m,m),(m,n)->(m,n) (size {b_rows} is different from {m})"
                    )
                });
            }
            let b_batch = &b_shape[..rows];
            let batch =
                broadcast_labelled(&[("a", a_batch), ("b", b_batch)]).map_err(|e| e.to_string())?;
            let (k, col_stride) = if vector {
                (1, 0)
            } else {
                (b_shape[core], b_strides[core])
            };
            let b = Matrix {
                rows: m,
                cols: k,
                row_stride: b_strides[rows],
                col_stride,
                offsets: batch_offsets(b_batch, &b_strides[..rows], &batch),
            };
            (batch, Some(b), k)
        }
    };
    let a = matrix(shape, strides, &batch, d - 2);
    let parts = match op {
        Operation::Matrix(op) => op.parts(m, n, k),
        _ => vec![vec![m, m]],
    };
    let parts = parts
        .into_iter()
        .map(|part| batch.iter().copied().chain(part).collect())
        .collect();
    Ok(Layout { batch, a, b, parts })
}

/// Where each matrix of a batch of shape `batch` starts in an operand whose batch
/// dimensions (`shape`, read at `strides`) broadcast to it.
fn batch_offsets(shape: &[usize], strides: &[usize], batch: &[usize]) -> Vec<usize> {
    strided_offsets(batch, &broadcast_strides(shape, strides, batch))
}

/// Operand `a`'s last two axes as a matrix, its leading `lead` axes broadcast to `batch`.
fn matrix(shape: &[usize], strides: &[usize], batch: &[usize], lead: usize) -> Matrix {
    let d = shape.len();
    let (rows, cols, row_stride, col_stride) = if d >= 2 {
        (shape[d - 2], shape[d - 1], strides[d - 2], strides[d - 1])
    } else {
        (0, 0, 0, 0)
    };
    Matrix {
        rows,
        cols,
        row_stride,
        col_stride,
        offsets: batch_offsets(&shape[..lead.min(d)], &strides[..lead.min(d)], batch),
    }
}

/// A literal boolean option (`default` when absent or NULL).
fn flag(args: &PlanArgs<'_>, i: usize, option: &str, default: bool) -> Result<bool> {
    if is_default(args, i) {
        return Ok(default);
    }
    match args.literal(i) {
        Some(ScalarValue::Boolean(Some(b))) => Ok(*b),
        _ => plan_err!("{}: argument {option} must be a literal boolean", args.name),
    }
}

/// A literal number option (`None` when absent or NULL).
fn number(args: &PlanArgs<'_>, i: usize, option: &str) -> Result<Option<f64>> {
    if is_default(args, i) {
        return Ok(None);
    }
    let value = args.literal(i).filter(|v| v.data_type().is_numeric());
    match value.map(|v| v.cast_to(&DataType::Float64)) {
        Some(Ok(ScalarValue::Float64(Some(x)))) => Ok(Some(x)),
        _ => plan_err!(
            "{}: argument {option} must be a literal number or NULL",
            args.name
        ),
    }
}

/// A literal string option (`None` when absent or NULL).
fn text<'a>(args: &'a PlanArgs<'_>, i: usize, option: &str) -> Result<Option<&'a str>> {
    if is_default(args, i) {
        return Ok(None);
    }
    match args.literal(i).and_then(string) {
        Some(s) => Ok(Some(s)),
        None => plan_err!("{}: argument {option} must be a literal string", args.name),
    }
}

/// The operation a call computes, from its options.
fn operation(
    function: DecomposeFunction,
    args: &PlanArgs<'_>,
    operands: &[AnyTensorType],
    float: &DataType,
) -> Result<Operation> {
    let name = args.name;
    let ndim = |i: usize| operands.get(i).map_or(0, AnyTensorType::ndim);
    let op = match function {
        DecomposeFunction::Det => MatrixOp::Det,
        DecomposeFunction::Slogdet => MatrixOp::Slogdet,
        DecomposeFunction::Inv => MatrixOp::Inv,
        DecomposeFunction::Solve => MatrixOp::Solve {
            vector: ndim(1) == 1,
        },
        DecomposeFunction::Cholesky => MatrixOp::Cholesky {
            upper: flag(args, 1, "upper", false)?,
        },
        DecomposeFunction::Qr => MatrixOp::Qr(match text(args, 1, "mode")? {
            None | Some("reduced" | "full" | "f") => QrMode::Reduced,
            Some("complete") => QrMode::Complete,
            Some("r") => QrMode::R,
            Some(mode @ ("raw" | "economic" | "e")) => {
                return plan_err!(
                    "{name}: mode '{mode}' returns LAPACK's Householder reflectors, which this function does not offer: use 'reduced', 'complete' or 'r'"
                );
            }
            Some(mode) => return plan_err!("{name}: Unrecognized mode '{mode}'"),
        }),
        DecomposeFunction::Eigh | DecomposeFunction::Eigvalsh => {
            let upper = match text(args, 1, "uplo")?.map(str::to_uppercase).as_deref() {
                None | Some("L") => false,
                Some("U") => true,
                Some(_) => return plan_err!("{name}: UPLO argument must be 'L' or 'U'"),
            };
            MatrixOp::Eigh {
                upper,
                vectors: function == DecomposeFunction::Eigh,
            }
        }
        DecomposeFunction::Eig => MatrixOp::Eig { vectors: true },
        DecomposeFunction::Eigvals => MatrixOp::Eig { vectors: false },
        DecomposeFunction::Svd => MatrixOp::Svd {
            full: flag(args, 1, "full_matrices", true)?,
            vectors: flag(args, 2, "compute_uv", true)?,
            hermitian: flag(args, 3, "hermitian", false)?,
        },
        DecomposeFunction::Svdvals => MatrixOp::Svd {
            full: false,
            vectors: false,
            hermitian: false,
        },
        DecomposeFunction::Pinv => {
            let rcond = match (number(args, 1, "rcond")?, number(args, 3, "rtol")?) {
                (Some(_), Some(_)) => {
                    return plan_err!("{name}: `rtol` and `rcond` can't be both set.");
                }
                (Some(r), None) | (None, Some(r)) => r,
                // numpy's `pinv` keeps its old default (not the standard's max(m, n) * eps).
                (None, None) => 1e-15,
            };
            MatrixOp::Pinv {
                rcond: Real(rcond),
                hermitian: flag(args, 2, "hermitian", false)?,
            }
        }
        DecomposeFunction::MatrixRank => {
            let tol = match (number(args, 1, "tol")?, number(args, 3, "rtol")?) {
                (Some(_), Some(_)) => {
                    return plan_err!("{name}: `tol` and `rtol` can't be both set.");
                }
                (Some(t), None) => Tolerance::Absolute(Real(t)),
                (None, Some(r)) => Tolerance::Relative(Real(r)),
                (None, None) => Tolerance::Default(Real(if *float == DataType::Float32 {
                    f64::from(f32::EPSILON)
                } else {
                    f64::EPSILON
                })),
            };
            if ndim(0) < 2 {
                return Ok(Operation::RankOfVector);
            }
            MatrixOp::MatrixRank {
                tol,
                hermitian: flag(args, 2, "hermitian", false)?,
            }
        }
        DecomposeFunction::Lstsq => MatrixOp::Lstsq {
            rcond: number(args, 2, "rcond")?.map(Real),
            vector: ndim(1) == 1,
        },
        DecomposeFunction::MatrixPower => {
            let Some(n) = args.literal(1).and_then(integer) else {
                return plan_err!(
                    "{name}: argument n must be a literal integer (exponent must be an integer)"
                );
            };
            return Ok(Operation::Power(n));
        }
    };
    Ok(Operation::Matrix(op))
}

/// The names of a result's parts (numpy's named-tuple fields; one unnamed part).
fn part_names(function: DecomposeFunction, op: &Operation) -> &'static [&'static str] {
    match (function, op) {
        (DecomposeFunction::Slogdet, _) => &["sign", "logabsdet"],
        (DecomposeFunction::Qr, Operation::Matrix(MatrixOp::Qr(QrMode::R))) => &[""],
        (DecomposeFunction::Qr, _) => &["Q", "R"],
        (DecomposeFunction::Eigh | DecomposeFunction::Eig, _) => &["eigenvalues", "eigenvectors"],
        (DecomposeFunction::Svd, Operation::Matrix(MatrixOp::Svd { vectors: true, .. })) => {
            &["U", "S", "Vh"]
        }
        (DecomposeFunction::Lstsq, _) => &["x", "residuals", "rank", "s"],
        _ => &[""],
    }
}

/// Plans a call.
pub(super) fn plan(function: DecomposeFunction, args: &PlanArgs<'_>) -> Result<DecomposePlan> {
    let name = args.name;
    // Numbers are 0-d operands (numpy's `asarray`): numpy's error, or `matrix_rank`'s 0/1.
    let mut operands = Vec::new();
    for (&i, arg) in function.operands().iter().zip(["a", "b"]) {
        let arg = if function.operands().len() == 1 {
            "x"
        } else {
            arg
        };
        match asarray(args, i, arg)? {
            Some(operand) => operands.push(operand),
            None => operands.push(args.any_tensor(i, arg)?),
        }
    }
    let elements: Vec<&DataType> = operands.iter().map(AnyTensorType::element_type).collect();
    // numpy's `_commonType`: float32 only if every operand is.
    let float = if elements.iter().all(|t| **t == DataType::Float32) {
        DataType::Float32
    } else {
        DataType::Float64
    };
    let op = operation(function, args, &operands, &float)?;
    let needs_linalg = !matches!(op, Operation::Power(n) if n >= 0);
    if needs_linalg && elements.contains(&&DataType::Float16) {
        return plan_err!("{name}: array type float16 is unsupported in linalg");
    }
    let variable = operands
        .iter()
        .any(|o| matches!(o, AnyTensorType::Variable(_)));
    // Each part's element type.
    let names = part_names(function, &op);
    let types: Vec<DataType> = names
        .iter()
        .map(|part| match (*part, op) {
            ("rank", _)
            | (_, Operation::RankOfVector | Operation::Matrix(MatrixOp::MatrixRank { .. })) => {
                DataType::Int64
            }
            (_, Operation::Power(n)) if n >= 0 => elements[0].clone(),
            _ => float.clone(),
        })
        .collect();
    let in_function = |e: crate::error::TensorError| e.in_function(name);
    let parts: Vec<(&'static str, Part)> = if variable {
        // Each part's dimensions: the batch's (the operands' leading ones, broadcast) and
        // the part's own.
        let a_batch = operands[0].ndim().saturating_sub(2);
        let batch = match (op, operands.get(1)) {
            (Operation::Matrix(MatrixOp::Solve { vector }), Some(b)) => {
                a_batch.max(b.ndim().saturating_sub(if vector { 1 } else { 2 }))
            }
            (Operation::RankOfVector, _) => 0,
            _ => a_batch,
        };
        let own = match op {
            Operation::Matrix(op) => op.parts(1, 1, 1),
            Operation::Power(_) => vec![vec![1, 1]],
            Operation::RankOfVector => vec![vec![]],
        };
        let mut parts = Vec::new();
        for ((part, own), element) in names.iter().zip(own).zip(types) {
            let ndim = batch + own.len();
            let part_type = if *part == "residuals" || ndim > 0 {
                Part::Variable(VariableShapeType::new(element, ndim.max(1)).map_err(in_function)?)
            } else {
                Part::Number(element)
            };
            parts.push((*part, part_type));
        }
        parts
    } else {
        let shapes: Vec<(Vec<usize>, Vec<usize>)> = operands
            .iter()
            .map(|o| match o {
                AnyTensorType::Fixed(t) => {
                    let shape = t.logical_shape();
                    let strides = crate::shape::row_major_strides(&shape);
                    (shape, strides)
                }
                AnyTensorType::Variable(_) => (Vec::new(), Vec::new()),
            })
            .collect();
        let layout =
            layout(&op, &shapes).map_err(|e| DataFusionError::Plan(format!("{name}: {e}")))?;
        let mut parts = Vec::new();
        for ((part, shape), element) in names.iter().zip(layout.parts).zip(types) {
            args.limits.checked_size(&shape).map_err(in_function)?;
            let part_type = if *part == "residuals" {
                Part::Variable(VariableShapeType::new(element, 1).map_err(in_function)?)
            } else if shape.is_empty() {
                Part::Number(element)
            } else {
                Part::Fixed(TensorType::new(element, shape).map_err(in_function)?)
            };
            parts.push((*part, part_type));
        }
        parts
    };
    Ok(DecomposePlan {
        operands,
        operation: op,
        parts,
        float,
        limits: args.limits,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row_major(shape: &[usize]) -> (Vec<usize>, Vec<usize>) {
        (shape.to_vec(), crate::shape::row_major_strides(shape))
    }

    #[test]
    fn layouts_broadcast_and_check_as_numpy() {
        let solve = Operation::Matrix(MatrixOp::Solve { vector: false });
        let l = layout(&solve, &[row_major(&[2, 1, 3, 3]), row_major(&[4, 3, 2])]).unwrap();
        assert_eq!(l.batch, [2, 4]);
        assert_eq!(l.parts, [vec![2, 4, 3, 2]]);
        // a's batch strides [9, 0], b's [0, 6], over the batch [2, 4].
        assert_eq!(l.a.offsets, [0, 0, 0, 0, 9, 9, 9, 9]);
        assert_eq!(l.b.unwrap().offsets, [0, 6, 12, 18, 0, 6, 12, 18]);
        let det = Operation::Matrix(MatrixOp::Det);
        assert_eq!(
            layout(&det, &[row_major(&[2, 3])]).unwrap_err(),
            "Last 2 dimensions of the array must be square"
        );
        assert_eq!(
            layout(&det, &[row_major(&[3])]).unwrap_err(),
            "1-dimensional array given. Array must be at least two-dimensional"
        );
        let vector = Operation::Matrix(MatrixOp::Solve { vector: true });
        assert!(
            layout(&vector, &[row_major(&[2, 2]), row_major(&[3])])
                .unwrap_err()
                .starts_with("solve1: Input operand 1 has a mismatch")
        );
    }
}
