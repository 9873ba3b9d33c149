//! numpy's optional arguments of a reduction beyond the axes: `dtype` (the type the elements
//! are cast to and reduced in), `initial` (the value every output element starts from) and
//! `where` (a boolean mask broadcast to x: only the elements where it is true are reduced).
//! Planned from the call's arguments with numpy's checks and words; when the call runs, the
//! mask is laid out beside x's row-major values, one flag per element ([`align`]).

use arrow::array::{Array, ArrayRef, AsArray};
use arrow::buffer::NullBuffer;
use arrow::datatypes::DataType;
use datafusion::common::{ScalarValue, plan_err};
use datafusion::error::Result;

use super::ReduceFunction;
use super::args::Options;
use crate::error::TensorError;
use crate::kernels::reduce::{ReduceLayout, Reduction};
use crate::kernels::rows::RowTensor;
use crate::kernels::shape_plans::ShapePlans;
use crate::shape::{broadcast_offsets, broadcasts_to};
use crate::udf::math::dtype_name;
use crate::udf::{PlanArgs, tensor_array, variable_array};
use crate::variable_shape::{AnyTensorType, VariableShapeArray};

/// A call's `dtype`, `initial` and `where`, planned.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct PlanExtras {
    /// The type x's elements are cast to (numpy's `unsafe` casting) and reduced in; the
    /// result's element type.
    pub dtype: Option<DataType>,
    /// `initial`, a value of the result's element type.
    pub initial: Option<ScalarValue>,
    /// The `where` argument and its tensor type.
    pub mask: Option<(usize, AnyTensorType)>,
    /// What NaN is replaced by before the elements are cast to `dtype` (`nansum`: 0,
    /// `nanprod`: 1, as numpy's `_replace_nan` runs first), as bits.
    pub nan_fill: Option<u64>,
}

impl PlanExtras {
    /// `initial` as a one-value array of `data_type` (the kernel's result type, which the
    /// result's element type widens into).
    pub fn initial_array(&self, data_type: &DataType) -> crate::error::Result<Option<ArrayRef>> {
        let Some(initial) = &self.initial else {
            return Ok(None);
        };
        let array = initial
            .to_array()
            .map_err(|e| TensorError::Internal(format!("initial: {e}")))?;
        Ok(Some(arrow::compute::cast(&array, data_type)?))
    }
}

/// numpy's name of an element type.
fn numpy(data_type: &DataType) -> String {
    dtype_name(data_type).unwrap_or_else(|| data_type.to_string())
}

/// Plans a call's extras: `initial` converted to `result` (the result's element type) as
/// numpy converts a Python number, `where` checked against x (`input`).
pub(super) fn plan(
    name: &str,
    args: &PlanArgs<'_>,
    options: &Options,
    input: &AnyTensorType,
    (reduction_function, reduction): (ReduceFunction, Option<Reduction>),
    result: &DataType,
) -> Result<PlanExtras> {
    let initial = match &options.initial {
        Some(value) => Some(initial_value(name, value, result)?),
        None => None,
    };
    let mask = match options.mask {
        Some(i) => {
            let mask = args.any_tensor(i, "where")?;
            if *mask.element_type() != DataType::Boolean {
                // numpy: TypeError (its words for a where= array of another dtype)
                return plan_err!(
                    "{name}: argument where: Cannot cast array data from dtype('{}') to dtype('bool') according to the rule 'safe'",
                    numpy(mask.element_type())
                );
            }
            if let (AnyTensorType::Fixed(x), AnyTensorType::Fixed(m)) = (input, &mask) {
                mask_broadcast(&x.logical_shape(), &m.logical_shape()).map_err(|e| {
                    datafusion::error::DataFusionError::Plan(format!("{name}: {e}"))
                })?;
            }
            if initial.is_none()
                && let Some(ufunc) = reduction.and_then(no_identity)
            {
                return plan_err!(
                    "{name}: reduction operation '{ufunc}' does not have an identity, so to use a where mask one has to specify 'initial'"
                );
            }
            Some((i, mask))
        }
        None => None,
    };
    let nan_fill = match reduction_function {
        _ if options.dtype.is_none() => None,
        ReduceFunction::Reduce(Reduction::NanSum) => Some(0.0f64.to_bits()),
        ReduceFunction::Reduce(Reduction::NanProd) => Some(1.0f64.to_bits()),
        _ => None,
    };
    Ok(PlanExtras {
        dtype: options.dtype.clone(),
        initial,
        mask,
        nan_fill,
    })
}

/// The ufunc of a reduction that has no identity (`where` then needs `initial`).
fn no_identity(reduction: Reduction) -> Option<&'static str> {
    match reduction {
        Reduction::Min => Some("minimum"),
        Reduction::Max => Some("maximum"),
        Reduction::NanMin => Some("fmin"),
        Reduction::NanMax => Some("fmax"),
        _ => None,
    }
}

/// numpy's conversion of a Python number `value` to `to`: an integer out of the integer
/// type's range is its `OverflowError`; anything else is cast as `astype` casts (a float to an
/// integer truncated, a double rounded to float32).
fn initial_value(name: &str, value: &ScalarValue, to: &DataType) -> Result<ScalarValue> {
    if to.is_integer() && value.data_type().is_integer() {
        return match value.cast_to(to) {
            Ok(v) if !v.is_null() => Ok(v),
            _ => plan_err!(
                "{name}: argument initial: Python integer {value} out of bounds for {}",
                numpy(to)
            ),
        };
    }
    let array =
        crate::kernels::cast::astype(&value.to_array()?, to).map_err(|e| e.in_function(name))?;
    ScalarValue::try_from_array(&array, 0)
}

/// Checks that a mask of shape `mask` broadcasts to x's shape `x` unchanged
/// ([`broadcasts_to`]), with numpy's errors otherwise.
fn mask_broadcast(x: &[usize], mask: &[usize]) -> Result<(), String> {
    if mask.len() > x.len() {
        // numpy: ValueError (the reduction's iterator)
        return Err(
            "input operand has more dimensions than allowed by the axis remapping".to_string(),
        );
    }
    if broadcasts_to(mask, x) {
        return Ok(());
    }
    let shape = |s: &[usize]| {
        let dims: Vec<String> = s.iter().map(ToString::to_string).collect();
        if dims.len() == 1 {
            format!("({},)", dims[0])
        } else {
            format!("({})", dims.join(","))
        }
    };
    Err(format!(
        "operands could not be broadcast together with remapped shapes [original->remapped]: {} {}",
        shape(x),
        shape(mask)
    ))
}

/// The rows of x a mask is laid out beside.
pub(super) enum XRows<'a> {
    /// `rows` rows of one logical shape, NULL rows holding values too.
    Fixed {
        shape: &'a [usize],
        rows: usize,
        nulls: Option<&'a NullBuffer>,
    },
    /// Rows of their own shapes (NULL rows holding none).
    Variable(&'a VariableShapeArray<'a>),
}

impl XRows<'_> {
    fn len(&self) -> usize {
        match self {
            Self::Fixed { rows, .. } => *rows,
            Self::Variable(view) => view.len(),
        }
    }

    fn nulls(&self) -> Option<&NullBuffer> {
        match self {
            Self::Fixed { nulls, .. } => *nulls,
            Self::Variable(view) => view.nulls(),
        }
    }

    /// Row `row`'s logical shape, or `None` when it holds no values.
    fn shape(&self, row: usize, shape: &mut Vec<usize>) -> bool {
        shape.clear();
        match self {
            Self::Fixed { shape: s, .. } => {
                shape.extend_from_slice(s);
                true
            }
            Self::Variable(view) if view.is_null(row) => false,
            Self::Variable(view) => {
                shape.extend(view.logical_shape(row));
                true
            }
        }
    }
}

/// A mask laid out beside x's row-major values, and the reduction of each row.
#[derive(Debug, Default)]
pub(super) struct Aligned {
    /// One flag per value of x (false in the rows of a NULL mask or a NULL x).
    pub flags: Vec<bool>,
    /// Whether each flag is a NULL element of the mask (`None`: none is).
    pub flag_nulls: Option<Vec<bool>>,
    /// Each row's index into `layouts` (`None`: a variable-shape NULL row).
    pub each: Vec<Option<usize>>,
    /// Each row's reduction (x's shape's: numpy buffers a broadcast mask).
    pub layouts: Vec<ReduceLayout>,
    /// The rows NULL in x or in the mask.
    pub row_nulls: Option<NullBuffer>,
}

/// Lays out `mask` (the `where` argument's array, of type `tensor`) beside every row of `x`,
/// reduced over the axes where `reduced` is true.
pub(super) fn align(
    name: &str,
    tensor: &AnyTensorType,
    mask: &ArrayRef,
    x: &XRows<'_>,
    reduced: &[bool],
) -> Result<Aligned> {
    match tensor {
        AnyTensorType::Fixed(t) => {
            let list = tensor_array(name, mask)?;
            let rows = RowTensor::fixed(t, list, false).map_err(|e| e.in_function(name))?;
            lay_out(&rows, x, reduced).map_err(|e| e.in_function(name))
        }
        AnyTensorType::Variable(t) => {
            let view = variable_array(name, t, mask)?;
            let rows = RowTensor::variable(&view);
            lay_out(&rows, x, reduced).map_err(|e| e.in_function(name))
        }
    }
}

fn lay_out(mask: &RowTensor<'_>, x: &XRows<'_>, reduced: &[bool]) -> crate::error::Result<Aligned> {
    let values = mask.values().as_boolean_opt().ok_or_else(|| {
        TensorError::Internal(format!("a where mask of {}", mask.values().data_type()))
    })?;
    let value_nulls = values.nulls().filter(|n| n.null_count() > 0);
    let rows = x.len();
    let mut out = Aligned {
        flag_nulls: value_nulls.map(|_| Vec::new()),
        each: Vec::with_capacity(rows),
        row_nulls: NullBuffer::union(x.nulls(), mask.nulls()),
        ..Aligned::default()
    };
    // Each (x shape, mask shape) compiles once: its layout's index and the mask's offsets.
    let mut plans: ShapePlans<(usize, Vec<u32>)> = ShapePlans::default();
    let (mut shape, mut key) = (Vec::new(), Vec::new());
    for row in 0..rows {
        if !x.shape(row, &mut shape) {
            out.each.push(None);
            continue;
        }
        let size: usize = shape.iter().product();
        let null = out.row_nulls.as_ref().is_some_and(|n| n.is_null(row));
        key.clear();
        key.push(usize::from(null));
        key.extend_from_slice(&shape);
        if !null {
            mask.push_key(row, &mut key);
        }
        let layouts = &mut out.layouts;
        let (index, offsets) = plans.get(key.iter().copied(), |key| {
            let (x_shape, mut rest) = key[1..].split_at(shape.len());
            if null {
                layouts.push(ReduceLayout::new(x_shape, reduced));
                return Ok((layouts.len() - 1, Vec::new()));
            }
            let (m_shape, m_strides) = mask.layout(&mut rest);
            mask_broadcast(x_shape, &m_shape)
                .map_err(|e| TensorError::Data(format!("{e} at row {row} of its batch")))?;
            layouts.push(ReduceLayout::new(x_shape, reduced));
            let offsets = broadcast_offsets(&m_shape, &m_strides, x_shape);
            Ok((layouts.len() - 1, offsets))
        })?;
        out.each.push(Some(*index));
        if null {
            out.flags.extend(std::iter::repeat_n(false, size));
            if let Some(flag_nulls) = &mut out.flag_nulls {
                flag_nulls.extend(std::iter::repeat_n(false, size));
            }
            continue;
        }
        let start = mask.span(row).0;
        out.flags
            .extend(offsets.iter().map(|&o| values.value(start + o as usize)));
        if let (Some(flag_nulls), Some(nulls)) = (&mut out.flag_nulls, value_nulls) {
            flag_nulls.extend(offsets.iter().map(|&o| nulls.is_null(start + o as usize)));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mask_broadcasts_to_x_unchanged_in_numpys_words() {
        assert_eq!(mask_broadcast(&[2, 3], &[3]), Ok(()));
        assert_eq!(mask_broadcast(&[2, 3], &[2, 1]), Ok(()));
        assert_eq!(mask_broadcast(&[2, 3], &[]), Ok(()));
        let err = mask_broadcast(&[2, 3], &[2]).unwrap_err();
        assert!(err.ends_with("(2,3) (2,)"), "{err}");
        let err = mask_broadcast(&[3], &[2, 3]).unwrap_err();
        assert!(
            err.starts_with("input operand has more dimensions"),
            "{err}"
        );
    }
}
