//! Normalising a parsed index against a tensor's logical shape: numpy's rules, numpy's errors.
//!
//! The result, [`Selection`], says which input element every output element is: the output
//! shape, and a list of components whose odometer yields the input offsets in output order.
//! Applying it to data is the plan's business ([`super::plan`]); nothing here sees Arrow.

use super::parse::{IndexArray, IndexExpr, IndexItem};
use crate::error::{Result, TensorError};
use crate::limits::Limits;
use crate::shape::format_shape;

/// One output dimension group and how it walks the input.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Component {
    /// One output dimension of `len`, stepping `step` elements through the input from `start`
    /// (a slice, or a new axis with `len` 1 and step 0).
    Strided {
        /// Output length of the dimension.
        len: usize,
        /// Input offset of its first element.
        start: usize,
        /// Input offset between consecutive elements (negative for reversed slices).
        step: isize,
    },
    /// The advanced-index block: its output dimensions (`shape`), and for each of its
    /// elements, row-major, the input offset it contributes.
    Advanced {
        /// The broadcast shape of the index arrays.
        shape: Vec<usize>,
        /// Input offset per element of the block.
        offsets: Vec<usize>,
    },
}

/// Which input element each output element is.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Selection {
    /// The output shape.
    pub shape: Vec<usize>,
    /// The input offset that every output element starts from (integer indices).
    pub base: usize,
    /// Output components in order; their odometer gives the offsets.
    pub components: Vec<Component>,
    /// For each output dimension, the input (logical) dimension it is, if it is exactly one
    /// (slices); `None` for new axes and advanced-index dimensions. Used for dim names.
    pub source_axes: Vec<Option<usize>>,
    /// Whether an integer index outside the advanced block was out of bounds and the rule
    /// dropped it: then every output element is [`DROPPED`].
    pub dropped: bool,
}

/// The offset of an output element whose index the bounds rule dropped (JAX's `drop`/`fill`
/// modes): it reads or writes nothing.
pub const DROPPED: usize = usize::MAX;

impl Selection {
    /// Number of output elements.
    pub fn size(&self) -> usize {
        self.shape.iter().product()
    }

    /// The input offset of every output element, row-major; [`DROPPED`] for elements whose
    /// index the bounds rule dropped (never with numpy's rule).
    pub fn offsets(&self) -> Vec<usize> {
        let total = self.size();
        let mut out = Vec::with_capacity(total);
        if total == 0 {
            return out;
        }
        walk(&self.components, self.base as isize, self.dropped, &mut out);
        out
    }
}

/// Appends the offsets of `components` starting from `base`, row-major (all [`DROPPED`] when
/// `dropped`).
fn walk(components: &[Component], base: isize, dropped: bool, out: &mut Vec<usize>) {
    let Some((first, rest)) = components.split_first() else {
        // Every offset that is not dropped is a valid input position (checked when
        // normalising).
        out.push(if dropped { DROPPED } else { base as usize });
        return;
    };
    match first {
        Component::Strided { len, start, step } => {
            for j in 0..*len {
                walk(
                    rest,
                    base + *start as isize + j as isize * step,
                    dropped,
                    out,
                );
            }
        }
        Component::Advanced { offsets, .. } => {
            for &o in offsets {
                if o == DROPPED {
                    walk(rest, base, true, out);
                } else {
                    walk(rest, base + o as isize, dropped, out);
                }
            }
        }
    }
}

fn err<T>(message: String) -> Result<T> {
    Err(TensorError::Index(message))
}

/// numpy's words for an index of more axes than the tensor has.
pub fn too_many_indices(ndim: usize, indexed: usize) -> TensorError {
    TensorError::Index(format!(
        "too many indices for tensor: tensor is {ndim}-dimensional, but {indexed} were indexed"
    ))
}

/// Python's `slice(start, stop, step).indices(len)`, as (start, count, step).
pub fn slice_indices(
    start: Option<i64>,
    stop: Option<i64>,
    step: Option<i64>,
    len: usize,
) -> Result<(usize, usize, i64)> {
    let step = step.unwrap_or(1);
    if step == 0 {
        return err("slice step cannot be zero".to_string());
    }
    let len = len as i128;
    let clamp = |v: Option<i64>, default: i128, low: i128, high: i128| -> i128 {
        match v {
            None => default,
            Some(v) => {
                let v = i128::from(v);
                let v = if v < 0 { v + len } else { v };
                v.clamp(low, high)
            }
        }
    };
    let (start, stop) = if step > 0 {
        (clamp(start, 0, 0, len), clamp(stop, len, 0, len))
    } else {
        (
            clamp(start, len - 1, -1, len - 1),
            clamp(stop, -1, -1, len - 1),
        )
    };
    let step_i = i128::from(step);
    let count = if step > 0 {
        if stop > start {
            (stop - start + step_i - 1) / step_i
        } else {
            0
        }
    } else if start > stop {
        (start - stop + (-step_i) - 1) / (-step_i)
    } else {
        0
    };
    // With count > 0, start is a valid index in [0, len).
    let start = if count > 0 { start as usize } else { 0 };
    Ok((start, count as usize, step))
}

/// `value` as a position on an axis of length `dim`: negative values count from the end
/// (wrapped once); `None` when out of bounds. The one bounds rule every index follows.
pub fn wrap_index(value: i64, dim: usize) -> Option<usize> {
    let adjusted = if value < 0 {
        i128::from(value) + dim as i128
    } else {
        i128::from(value)
    };
    // In [0, dim), so it fits a usize.
    (0..dim as i128)
        .contains(&adjusted)
        .then_some(adjusted as usize)
}

/// What an out-of-bounds integer index does (JAX's `GatherScatterMode`, and numpy's error).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OutOfBounds {
    /// numpy: an `IndexError`.
    Raise,
    /// Clamped to the nearest valid position.
    Clip,
    /// The whole window the index selects is left out (JAX `drop`; `fill` for gathers).
    Drop,
}

/// How integer index values map to positions on an axis.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BoundsRule {
    /// Negative values count from the end, wrapped once (`-n - 1` stays out of bounds);
    /// otherwise every negative value is out of bounds.
    pub wrap_negative: bool,
    /// What an out-of-bounds value does.
    pub out_of_bounds: OutOfBounds,
}

impl BoundsRule {
    /// numpy's rule: wrap negatives once, raise beyond.
    pub const NUMPY: Self = Self {
        wrap_negative: true,
        out_of_bounds: OutOfBounds::Raise,
    };

    /// `value` on an axis of length `dim`. An empty axis has no position to clip to: clipping
    /// there drops.
    pub fn resolve(self, value: i64, dim: usize) -> Resolved {
        let position = if self.wrap_negative {
            wrap_index(value, dim)
        } else {
            usize::try_from(value).ok().filter(|&v| v < dim)
        };
        match (position, self.out_of_bounds) {
            (Some(position), _) => Resolved::At(position),
            (None, OutOfBounds::Raise) => Resolved::OutOfBounds,
            (None, OutOfBounds::Drop) => Resolved::Dropped,
            (None, OutOfBounds::Clip) => {
                if dim == 0 {
                    return Resolved::Dropped;
                }
                // JAX clips after wrapping: -7 on an axis of 5 wraps to -2, then clips to 0.
                let wrapped = if self.wrap_negative && value < 0 {
                    i128::from(value) + dim as i128
                } else {
                    i128::from(value)
                };
                Resolved::At(wrapped.clamp(0, dim as i128 - 1) as usize)
            }
        }
    }
}

/// An integer index value under a [`BoundsRule`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resolved {
    /// This position.
    At(usize),
    /// Left out (its window is dropped or filled).
    Dropped,
    /// Out of bounds, and the rule raises.
    OutOfBounds,
}

/// An index value against an axis under `rule`: its position, `None` when dropped, or
/// numpy's error.
fn normalize_int(rule: BoundsRule, value: i64, axis: usize, dim: usize) -> Result<Option<usize>> {
    match rule.resolve(value, dim) {
        Resolved::At(position) => Ok(Some(position)),
        Resolved::Dropped => Ok(None),
        Resolved::OutOfBounds => Err(TensorError::OutOfBounds {
            value,
            axis,
            size: dim,
            row: None,
        }),
    }
}

/// One advanced index: its shape, and for each input axis it indexes, the normalised values
/// (a boolean mask indexes several axes).
type AdvancedArray = (Vec<usize>, Vec<(usize, Vec<i64>)>);

/// An item bound to input axes, after ellipsis expansion.
enum Bound {
    Int {
        axis: usize,
        value: i64,
    },
    Slice {
        axis: usize,
        start: Option<i64>,
        stop: Option<i64>,
        step: Option<i64>,
    },
    NewAxis,
    /// An integer array over one axis, or a boolean mask's nonzero arrays over several.
    Array {
        axes: Vec<usize>,
        arrays: Vec<IndexArray<i64>>,
    },
}

/// Normalises `index` against a tensor of `shape` (logical) whose dimension `i` is `strides[i]`
/// elements apart, with numpy's bounds rule; the index arrays' broadcast and the result may
/// have no more elements than `limits` allow.
pub fn normalize(
    index: &IndexExpr,
    shape: &[usize],
    strides: &[usize],
    limits: &Limits,
) -> Result<Selection> {
    normalize_with(index, shape, strides, BoundsRule::NUMPY, limits)
}

/// What an index asks of a tensor's number of dimensions alone, whatever its shape: at most
/// one `...`, and no more axes indexed than `ndim` (numpy's `IndexError`). Returns the number
/// of axes it indexes.
pub fn check_axes(index: &IndexExpr, ndim: usize) -> Result<usize> {
    let consumed: usize = index
        .items
        .iter()
        .map(|item| match item {
            IndexItem::Int(_) | IndexItem::Slice { .. } | IndexItem::IntArray(_) => 1,
            IndexItem::BoolArray(a) => a.shape.len(),
            IndexItem::Ellipsis | IndexItem::NewAxis => 0,
        })
        .sum();
    let ellipses = index
        .items
        .iter()
        .filter(|i| matches!(i, IndexItem::Ellipsis))
        .count();
    if ellipses > 1 {
        return err("an index can only have a single ellipsis ('...')".to_string());
    }
    if consumed > ndim {
        return Err(too_many_indices(ndim, consumed));
    }
    Ok(consumed)
}

/// [`normalize`] with another bounds rule for integer indices (JAX's modes); slices always
/// clamp and boolean masks always fit, as in JAX.
#[allow(
    clippy::too_many_lines,
    reason = "numpy's indexing rules in the order numpy applies them (count, bind to axes, \
              normalise each item, place the advanced block, check the size): each step reads \
              the state the previous one left, and the numpy wording of each error sits where \
              numpy raises it"
)]
pub fn normalize_with(
    index: &IndexExpr,
    shape: &[usize],
    strides: &[usize],
    rule: BoundsRule,
    limits: &Limits,
) -> Result<Selection> {
    let ndim = shape.len();
    let consumed = check_axes(index, ndim)?;
    let ellipses = index
        .items
        .iter()
        .filter(|i| matches!(i, IndexItem::Ellipsis))
        .count();

    // Bind items to axes; `...` (or the end) takes the axes left over.
    let mut bound = Vec::new();
    // Positions in `bound` where a `...` standing for no axes sits: numpy still counts it as
    // separating the advanced indices on either side (`x[:, [0, 1], ..., 0]` on a 3-d `x` puts
    // the advanced dimensions first).
    let mut gaps: Vec<usize> = Vec::new();
    let mut axis = 0usize;
    let full = |axis| Bound::Slice {
        axis,
        start: None,
        stop: None,
        step: None,
    };
    for item in &index.items {
        match item {
            IndexItem::Int(value) => {
                bound.push(Bound::Int {
                    axis,
                    value: *value,
                });
                axis += 1;
            }
            IndexItem::Slice { start, stop, step } => {
                bound.push(Bound::Slice {
                    axis,
                    start: *start,
                    stop: *stop,
                    step: *step,
                });
                axis += 1;
            }
            IndexItem::Ellipsis => {
                if ndim == consumed {
                    gaps.push(bound.len());
                }
                for _ in 0..ndim - consumed {
                    bound.push(full(axis));
                    axis += 1;
                }
            }
            IndexItem::NewAxis => bound.push(Bound::NewAxis),
            IndexItem::IntArray(array) => {
                bound.push(Bound::Array {
                    axes: vec![axis],
                    arrays: vec![array.clone()],
                });
                axis += 1;
            }
            IndexItem::BoolArray(mask) if mask.shape.is_empty() => {
                // numpy: a scalar boolean is a 0-d mask; it adds one axis, of length 1 for True
                // and 0 for False, as an advanced index over no input axis.
                let values = if mask.values.first() == Some(&true) {
                    vec![0]
                } else {
                    vec![]
                };
                bound.push(Bound::Array {
                    axes: vec![usize::MAX],
                    arrays: vec![IndexArray {
                        shape: vec![values.len()],
                        values,
                    }],
                });
            }
            IndexItem::BoolArray(mask) => {
                let k = mask.shape.len();
                for (j, (&want, &have)) in mask.shape.iter().zip(&shape[axis..axis + k]).enumerate()
                {
                    if want != have {
                        return err(format!(
                            "boolean index did not match indexed array along axis {}; size of axis is {have} but size of corresponding boolean axis is {want}",
                            axis + j
                        ));
                    }
                }
                // The mask's nonzero positions, one integer array per masked axis.
                let mask_strides = crate::shape::row_major_strides(&mask.shape);
                let hits: Vec<usize> = (0..mask.values.len()).filter(|&i| mask.values[i]).collect();
                let arrays = (0..k)
                    .map(|j| IndexArray {
                        shape: vec![hits.len()],
                        values: hits
                            .iter()
                            .map(|&flat| ((flat / mask_strides[j]) % mask.shape[j]) as i64)
                            .collect(),
                    })
                    .collect();
                bound.push(Bound::Array {
                    axes: (axis..axis + k).collect(),
                    arrays,
                });
                axis += k;
            }
        }
    }
    if ellipses == 0 {
        while axis < ndim {
            bound.push(full(axis));
            axis += 1;
        }
    }

    // Integer scalars are advanced indices as soon as any array index is present.
    let advanced_present = bound.iter().any(|b| matches!(b, Bound::Array { .. }));
    let is_advanced = |b: &Bound| {
        matches!(b, Bound::Array { .. }) || (advanced_present && matches!(b, Bound::Int { .. }))
    };

    let mut base = 0usize;
    let mut dropped = false;
    let mut components = Vec::new();
    let mut source_axes = Vec::new();
    let mut out_shape = Vec::new();
    let mut advanced: Vec<AdvancedArray> = Vec::new();
    let positions: Vec<usize> = (0..bound.len())
        .filter(|&i| is_advanced(&bound[i]))
        .collect();
    let adjacent = positions
        .windows(2)
        .all(|w| w[1] == w[0] + 1 && !gaps.contains(&w[1]));
    let mut advanced_slot: Option<usize> = None; // index into components where the block goes
    for (i, b) in bound.iter().enumerate() {
        if is_advanced(b) {
            if advanced_slot.is_none() {
                advanced_slot = Some(if adjacent { components.len() } else { 0 });
            }
            match b {
                // An integer is bounds-checked here, as numpy does; the values of index arrays
                // once the arrays have broadcast (below): numpy reports a shape mismatch first,
                // and checks no array value when the broadcast is empty.
                Bound::Int { axis, value } => {
                    // A dropped value is marked -1 (valid positions are non-negative).
                    let v =
                        normalize_int(rule, *value, *axis, shape[*axis])?.map_or(-1, |v| v as i64);
                    advanced.push((vec![], vec![(*axis, vec![v])]));
                }
                Bound::Array { axes, arrays } => {
                    let parts = axes
                        .iter()
                        .zip(arrays)
                        .map(|(&axis, array)| (axis, array.values.clone()))
                        .collect();
                    advanced.push((arrays[0].shape.clone(), parts));
                }
                _ => {}
            }
            let _ = i;
            continue;
        }
        match b {
            Bound::Int { axis, value } => match normalize_int(rule, *value, *axis, shape[*axis])? {
                Some(position) => base += position * strides[*axis],
                None => dropped = true,
            },
            Bound::Slice {
                axis,
                start,
                stop,
                step,
            } => {
                let (first, len, step) = slice_indices(*start, *stop, *step, shape[*axis])?;
                // With two or more elements |step| < the axis length, so the product fits;
                // with fewer the step is never taken (and may be as large as i64::MAX).
                let step = if len > 1 {
                    step as isize * strides[*axis] as isize
                } else {
                    0
                };
                components.push(Component::Strided {
                    len,
                    start: first * strides[*axis],
                    step,
                });
                source_axes.push(Some(*axis));
                out_shape.push(len);
            }
            Bound::NewAxis => {
                components.push(Component::Strided {
                    len: 1,
                    start: 0,
                    step: 0,
                });
                source_axes.push(None);
                out_shape.push(1);
            }
            Bound::Array { .. } => {}
        }
    }

    if let Some(slot) = advanced_slot {
        // Broadcast the index arrays together (numpy's wording on mismatch).
        let block_shape = broadcast_index_shapes(&advanced)?;
        let block_size = limits
            .checked_size(&block_shape)
            .map_err(|e| TensorError::Index(e.to_string()))?;
        if block_size > 0 {
            // The arrays' values (integers, of shape [], are checked already).
            for (_, parts) in advanced.iter_mut().filter(|(shape, _)| !shape.is_empty()) {
                for (axis, values) in parts.iter_mut().filter(|(axis, _)| *axis != usize::MAX) {
                    for v in values.iter_mut() {
                        *v = normalize_int(rule, *v, *axis, shape[*axis])?.map_or(-1, |p| p as i64);
                    }
                }
            }
        }
        let mut offsets = vec![0usize; block_size];
        for (array_shape, parts) in &advanced {
            let array_strides = crate::shape::row_major_strides(array_shape);
            let bstrides =
                crate::shape::broadcast_strides(array_shape, &array_strides, &block_shape);
            let positions = crate::shape::strided_offsets(&block_shape, &bstrides);
            for (axis, values) in parts {
                // The 0-d boolean's new axis has length 1 and stride 0.
                let stride = if *axis == usize::MAX {
                    0
                } else {
                    strides[*axis]
                };
                for (offset, &p) in offsets.iter_mut().zip(&positions) {
                    if values[p] < 0 || *offset == DROPPED {
                        *offset = DROPPED;
                    } else {
                        *offset += values[p] as usize * stride;
                    }
                }
            }
        }
        // Components before `slot` precede the block in the output.
        let dims_before: usize = components[..slot]
            .iter()
            .map(|c| match c {
                Component::Strided { .. } => 1,
                Component::Advanced { shape, .. } => shape.len(),
            })
            .sum();
        for (k, &d) in block_shape.iter().enumerate() {
            out_shape.insert(dims_before + k, d);
            source_axes.insert(dims_before + k, None);
        }
        components.insert(
            slot,
            Component::Advanced {
                shape: block_shape,
                offsets,
            },
        );
    }
    if out_shape.len() > crate::shape::MAX_NDIM {
        return err(format!(
            "number of dimensions must be within [0, {}], indexing result would have {}",
            crate::shape::MAX_NDIM,
            out_shape.len()
        ));
    }
    limits
        .checked_size(&out_shape)
        .map_err(|e| TensorError::Index(e.to_string()))?;
    Ok(Selection {
        shape: out_shape,
        base,
        components,
        source_axes,
        dropped,
    })
}

/// numpy's broadcast of index arrays, with its error: "shape mismatch: indexing arrays could
/// not be broadcast together with shapes (2,) (3,) ". As numpy lists them: every index array
/// (a k-d boolean mask as its k arrays of nonzero positions), integer scalars left out, shapes
/// written without spaces.
fn broadcast_index_shapes(advanced: &[AdvancedArray]) -> Result<Vec<usize>> {
    let shapes: Vec<&[usize]> = advanced.iter().map(|(s, _)| s.as_slice()).collect();
    crate::shape::broadcast_shapes(&shapes).map_err(|_| {
        let listed: Vec<String> = advanced
            .iter()
            .filter(|(shape, _)| !shape.is_empty())
            .flat_map(|(shape, parts)| {
                let text = format_shape(shape).replace(", ", ",");
                std::iter::repeat_n(text, parts.len())
            })
            .collect();
        TensorError::Index(format!(
            "shape mismatch: indexing arrays could not be broadcast together with shapes {} ",
            listed.join(" ")
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::parse::parse_index;

    fn select(index: &str) -> Result<Selection> {
        normalize(
            &parse_index(index).unwrap(),
            &[2, 3, 4],
            &[12, 4, 1],
            &Limits::default(),
        )
    }

    #[test]
    fn bounds_rules_follow_jax_modes() {
        let rule = |wrap_negative, out_of_bounds| BoundsRule {
            wrap_negative,
            out_of_bounds,
        };
        let clip = rule(true, OutOfBounds::Clip);
        // JAX wraps, then clips: -7 on 5 -> -2 -> 0; 20 -> 4.
        assert_eq!(clip.resolve(-7, 5), Resolved::At(0));
        assert_eq!(clip.resolve(20, 5), Resolved::At(4));
        assert_eq!(clip.resolve(-1, 5), Resolved::At(4));
        assert_eq!(
            rule(false, OutOfBounds::Clip).resolve(-1, 5),
            Resolved::At(0)
        );
        assert_eq!(clip.resolve(0, 0), Resolved::Dropped);
        let drop = rule(true, OutOfBounds::Drop);
        assert_eq!(drop.resolve(-5, 5), Resolved::At(0));
        assert_eq!(drop.resolve(-6, 5), Resolved::Dropped);
        assert_eq!(
            rule(false, OutOfBounds::Drop).resolve(-1, 5),
            Resolved::Dropped
        );
        assert_eq!(BoundsRule::NUMPY.resolve(5, 5), Resolved::OutOfBounds);
        assert_eq!(
            BoundsRule::NUMPY.resolve(i64::MIN, 5),
            Resolved::OutOfBounds
        );
    }

    #[test]
    fn dropped_indices_drop_their_whole_window() {
        let drop = BoundsRule {
            wrap_negative: true,
            out_of_bounds: OutOfBounds::Drop,
        };
        let index = parse_index(":, [0, 9]").unwrap();
        let s = normalize_with(&index, &[2, 3], &[3, 1], drop, &Limits::default()).unwrap();
        assert_eq!(s.shape, vec![2, 2]);
        assert_eq!(s.offsets(), vec![0, DROPPED, 3, DROPPED]);
        // An out-of-bounds basic integer drops everything.
        let index = parse_index("5, :").unwrap();
        let s = normalize_with(&index, &[2, 3], &[3, 1], drop, &Limits::default()).unwrap();
        assert_eq!(s.offsets(), vec![DROPPED; 3]);
    }

    #[test]
    #[allow(clippy::too_many_lines, reason = "a table of numpy's results")]
    fn offsets_match_numpy() {
        // Expected: numpy 2.4, y = np.arange(24).reshape(2, 3, 4); y[index].shape and
        // y[index].ravel() (on arange the values are the offsets).
        let cases: Vec<(&str, Vec<usize>, Vec<usize>)> = vec![
            (
                "1",
                vec![3, 4],
                vec![12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23],
            ),
            (
                "-1",
                vec![3, 4],
                vec![12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23],
            ),
            (
                "1:3",
                vec![1, 3, 4],
                vec![12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23],
            ),
            (
                ":, 1:3, ::2",
                vec![2, 2, 2],
                vec![4, 6, 8, 10, 16, 18, 20, 22],
            ),
            (
                "..., ::-1",
                vec![2, 3, 4],
                vec![
                    3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12, 19, 18, 17, 16, 23, 22,
                    21, 20,
                ],
            ),
            (
                "::-1, ::-2",
                vec![2, 2, 4],
                vec![20, 21, 22, 23, 12, 13, 14, 15, 8, 9, 10, 11, 0, 1, 2, 3],
            ),
            (
                "None, 1",
                vec![1, 3, 4],
                vec![12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23],
            ),
            ("0, None, :, -1", vec![1, 3], vec![3, 7, 11]),
            (
                "[0, 1]",
                vec![2, 3, 4],
                vec![
                    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
                    22, 23,
                ],
            ),
            (
                "[1, 0], [2, 0]",
                vec![2, 4],
                vec![20, 21, 22, 23, 0, 1, 2, 3],
            ),
            ("0, :, [1, 2]", vec![2, 3], vec![1, 5, 9, 2, 6, 10]),
            ("[0], None, [1]", vec![1, 1, 4], vec![4, 5, 6, 7]),
            (":, [0, 1], [0, 1]", vec![2, 2], vec![0, 5, 12, 17]),
            (
                "[[0, 1], [1, 0]]",
                vec![2, 2, 3, 4],
                vec![
                    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
                    22, 23, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 0, 1, 2, 3, 4, 5, 6, 7,
                    8, 9, 10, 11,
                ],
            ),
            (
                "[True, False]",
                vec![1, 3, 4],
                vec![0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
            ),
            (
                ":, [True, False, True]",
                vec![2, 2, 4],
                vec![0, 1, 2, 3, 8, 9, 10, 11, 12, 13, 14, 15, 20, 21, 22, 23],
            ),
            (
                "1, [[True, False, True, False], [False, True, True, False], [True, True, True, True]]",
                vec![8],
                vec![12, 14, 17, 18, 20, 21, 22, 23],
            ),
            (
                "True",
                vec![1, 2, 3, 4],
                vec![
                    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
                    22, 23,
                ],
            ),
            ("False", vec![0, 2, 3, 4], vec![]),
            ("1:1", vec![0, 3, 4], vec![]),
            ("5:", vec![0, 3, 4], vec![]),
            (
                "-100:100",
                vec![2, 3, 4],
                vec![
                    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
                    22, 23,
                ],
            ),
            ("::3, ..., 1", vec![1, 3], vec![1, 5, 9]),
            ("[]", vec![0, 3, 4], vec![]),
            (
                "..., [2, 2]",
                vec![2, 3, 2],
                vec![2, 2, 6, 6, 10, 10, 14, 14, 18, 18, 22, 22],
            ),
            (
                ":, :, None",
                vec![2, 3, 1, 4],
                vec![
                    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
                    22, 23,
                ],
            ),
            ("[-1, -2], 1", vec![2, 4], vec![16, 17, 18, 19, 4, 5, 6, 7]),
            (
                ":, [[True, False, True, False], [False, True, True, False], [True, True, True, True]]",
                vec![2, 8],
                vec![0, 2, 5, 6, 8, 9, 10, 11, 12, 14, 17, 18, 20, 21, 22, 23],
            ),
            (
                "()",
                vec![2, 3, 4],
                vec![
                    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
                    22, 23,
                ],
            ),
        ];
        for (index, shape, offsets) in cases {
            let selection = select(index).unwrap_or_else(|e| panic!("{index}: {e}"));
            assert_eq!(selection.shape, shape, "{index}");
            assert_eq!(selection.offsets(), offsets, "{index}");
        }
    }

    #[test]
    fn errors_use_numpy_wording() {
        let cases = [
            (
                "0, 0, 0, 0",
                "too many indices for tensor: tensor is 3-dimensional, but 4 were indexed",
            ),
            ("2", "index 2 is out of bounds for axis 0 with size 2"),
            ("-3", "index -3 is out of bounds for axis 0 with size 2"),
            (":, [4]", "index 4 is out of bounds for axis 1 with size 3"),
            (
                "..., ...",
                "an index can only have a single ellipsis ('...')",
            ),
            ("::0", "slice step cannot be zero"),
            (
                "[True, False, True]",
                "boolean index did not match indexed array along axis 0; size of axis is 2 but size of corresponding boolean axis is 3",
            ),
            (
                "[0, 1], [0, 1, 2]",
                "shape mismatch: indexing arrays could not be broadcast together with shapes (2,) (3,) ",
            ),
        ];
        for (index, message) in cases {
            assert_eq!(select(index).unwrap_err().to_string(), message, "{index}");
        }
    }

    #[test]
    fn python_slice_clamping() {
        // Python: slice(start, stop, step).indices(5) -> range length
        assert_eq!(slice_indices(None, None, Some(-1), 5).unwrap(), (4, 5, -1));
        assert_eq!(
            slice_indices(Some(-100), Some(100), None, 5).unwrap(),
            (0, 5, 1)
        );
        assert_eq!(slice_indices(Some(3), Some(1), None, 5).unwrap(), (0, 0, 1));
        assert_eq!(
            slice_indices(Some(3), Some(1), Some(-1), 5).unwrap(),
            (3, 2, -1)
        );
        assert_eq!(
            slice_indices(Some(i64::MIN), Some(i64::MAX), Some(i64::MAX), 5).unwrap(),
            (0, 1, i64::MAX)
        );
        assert_eq!(
            slice_indices(None, None, Some(i64::MIN), 5).unwrap(),
            (4, 1, i64::MIN)
        );
        assert_eq!(slice_indices(None, None, None, 0).unwrap(), (0, 0, 1));
    }
}
