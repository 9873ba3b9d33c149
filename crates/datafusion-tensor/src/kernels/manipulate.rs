//! The gathers of numpy's manipulation functions `roll`, `repeat`, `tile`, `take`, `pad`,
//! `tril` and `triu`, for [`super::shape::ShapeOp`]: for one logical input shape (and the
//! strides that read it from a row's stored values) the output shape and the stored offset of
//! each output element, [`DROPPED`] where the output is a fill value (`pad`'s constant,
//! the zeros of `tril`/`triu`).
//!
//! Most of them map each output axis to its input axis independently (`roll` shifts an
//! index, `repeat` and `tile` repeat it, `take` picks it, `pad` reflects or drops it): such a
//! layout is one table of input positions per axis ([`AxisMap`]), summed over an odometer.
//! The forms without an axis (numpy's `axis=None`) work on the flattened order instead.

use crate::index::DROPPED;
use crate::index::wrap_index;
use crate::shape::strided_offsets;

/// `pad`'s modes (numpy's names).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PadMode {
    /// `'constant'`: the fill value.
    Constant,
    /// `'edge'`: the edge element repeated.
    Edge,
    /// `'reflect'`: mirrored about the edge element (not repeating it).
    Reflect,
    /// `'symmetric'`: mirrored including the edge element.
    Symmetric,
    /// `'wrap'`: the other end's elements.
    Wrap,
}

impl PadMode {
    /// The mode numpy's `mode` string names; numpy's error otherwise.
    pub fn parse(mode: &str) -> Result<Self, String> {
        Ok(match mode {
            "constant" => Self::Constant,
            "edge" => Self::Edge,
            "reflect" => Self::Reflect,
            "symmetric" => Self::Symmetric,
            "wrap" => Self::Wrap,
            _ => return Err(format!("mode '{mode}' is not supported")),
        })
    }
}

/// One of the manipulation gathers, its axes normalised against the input's `ndim`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Manipulation {
    /// `roll(shift, axis)`: the shift of each axis (the sum of its shifts), or `flat`: the
    /// flattened elements shifted by one amount (numpy's `axis=None`).
    Roll {
        /// Per axis.
        shifts: Vec<i64>,
        /// `axis=None`'s one shift.
        flat: Option<i64>,
    },
    /// `repeat(repeats, axis)`: each element along `axis` (of the flattened tensor when
    /// `None`) repeated, one count for all or one per element.
    Repeat {
        /// One count, or one per element.
        repeats: Vec<usize>,
        /// The axis; `None`: the flattened tensor.
        axis: Option<usize>,
    },
    /// `tile(reps)`: `reps` already as long as the result's dimensions (numpy prepends ones
    /// to the shorter of the two).
    Tile(Vec<usize>),
    /// `take(indices, axis)`: the elements at `indices` along `axis` (of the flattened tensor
    /// when `None`); `scalar`: one integer index, whose axis is dropped.
    Take {
        /// The indices, negative from the end.
        indices: Vec<i64>,
        /// One integer rather than a list.
        scalar: bool,
        /// The axis; `None`: the flattened tensor.
        axis: Option<usize>,
    },
    /// `pad(pad_width, mode)`: elements before and after each axis.
    Pad {
        /// (before, after) per axis.
        widths: Vec<(usize, usize)>,
        /// How the new elements are found.
        mode: PadMode,
    },
    /// One part of numpy's `split` / `array_split` along `axis`: the elements of the range
    /// `division` gives part `part` of each row's length there.
    Part {
        /// How the axis is divided.
        division: Division,
        /// Which part.
        part: usize,
        /// The axis.
        axis: usize,
    },
    /// `tril(k)` (`lower`) or `triu(k)`: the elements off the triangle zeroed; a 1-d input is
    /// numpy's broadcast of it to a square matrix.
    Triangle {
        /// The diagonal, above the main one when positive.
        k: i64,
        /// `tril` rather than `triu`.
        lower: bool,
    },
}

/// How numpy's `split` and `array_split` divide an axis.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Division {
    /// `count` parts: of equal length (`split`, whose error it is otherwise) or, for
    /// `array_split`, the first `n % count` one element longer.
    Sections {
        /// How many parts (at least 1).
        count: usize,
        /// `split`: the parts must be equal.
        equal: bool,
    },
    /// Python's slices between `[0, *indices, n]` (negative from the end, clamped, empty
    /// where one ends before it starts).
    Indices(Vec<i64>),
}

impl Division {
    /// The number of parts.
    pub fn parts(&self) -> usize {
        match self {
            Self::Sections { count, .. } => *count,
            Self::Indices(indices) => indices.len() + 1,
        }
    }

    /// The range of part `part` of an axis of `n` elements, numpy's error where `split` does
    /// not divide it equally.
    pub fn range(&self, part: usize, n: usize) -> Result<(usize, usize), String> {
        match self {
            Self::Sections { count, equal } => {
                let count = (*count).max(1);
                if *equal && !n.is_multiple_of(count) {
                    return Err("array split does not result in an equal division".to_string());
                }
                let (each, extras) = (n / count, n % count);
                let start = part * each + part.min(extras);
                Ok((start, start + each + usize::from(part < extras)))
            }
            Self::Indices(indices) => {
                let clamp = |i: i64| -> usize {
                    if i < 0 {
                        usize::try_from(i.saturating_add(n as i64)).unwrap_or(0)
                    } else {
                        usize::try_from(i).map_or(n, |i| i.min(n))
                    }
                };
                let start = part.checked_sub(1).map_or(0, |k| clamp(indices[k]));
                let end = indices.get(part).map_or(n, |&i| clamp(i));
                Ok((start, end.max(start)))
            }
        }
    }
}

/// For one output axis: the input position of each index along it ([`DROPPED`]: a fill),
/// and the stride of the input axis.
struct AxisMap {
    positions: Vec<usize>,
    stride: usize,
}

impl Manipulation {
    /// The number of output dimensions on `ndim` input dimensions.
    pub fn out_ndim(&self, ndim: usize) -> usize {
        match self {
            Self::Roll { .. } | Self::Pad { .. } | Self::Part { .. } => ndim,
            Self::Repeat { axis, .. } => axis.map_or(1, |_| ndim),
            Self::Tile(reps) => reps.len().max(ndim),
            Self::Take { scalar, axis, .. } => match axis {
                None => usize::from(!scalar),
                Some(_) => ndim - usize::from(*scalar),
            },
            Self::Triangle { .. } => ndim.max(2),
        }
    }

    /// For each output axis, the input axis it is (dim names follow it), if it is one.
    pub fn sources(&self, ndim: usize) -> Vec<Option<usize>> {
        match self {
            Self::Triangle { .. } if ndim == 1 => vec![None, Some(0)],
            Self::Roll { .. }
            | Self::Pad { .. }
            | Self::Part { .. }
            | Self::Repeat { axis: Some(_), .. }
            | Self::Triangle { .. } => (0..ndim).map(Some).collect(),
            Self::Repeat { axis: None, .. } => vec![(ndim == 1).then_some(0)],
            Self::Tile(reps) => {
                let added = reps.len().saturating_sub(ndim);
                (0..reps.len().max(ndim))
                    .map(|k| k.checked_sub(added))
                    .collect()
            }
            Self::Take {
                scalar, axis: None, ..
            } => {
                if *scalar {
                    vec![]
                } else {
                    vec![(ndim == 1).then_some(0)]
                }
            }
            Self::Take {
                scalar,
                axis: Some(axis),
                ..
            } => (0..ndim)
                .filter(|a| !(*scalar && a == axis))
                .map(Some)
                .collect(),
        }
    }

    /// Each output dimension where the input's `known` dimensions fix it (a variable-shape
    /// input's uniform ones).
    pub fn known_shape(&self, known: &[Option<usize>]) -> Vec<Option<usize>> {
        let flat = || known.iter().copied().product::<Option<usize>>();
        match self {
            Self::Triangle { .. } if known.len() == 1 => vec![known[0]; 2],
            Self::Roll { .. } | Self::Triangle { .. } => known.to_vec(),
            Self::Part {
                division,
                part,
                axis,
            } => {
                let mut out = known.to_vec();
                out[*axis] = known[*axis]
                    .and_then(|n| division.range(*part, n).ok())
                    .map(|(start, end)| end - start);
                out
            }
            Self::Repeat { repeats, axis } => {
                // A dimension past `usize` is left unknown: each row's layout refuses it.
                let along = |n: Option<usize>| match repeats.as_slice() {
                    [r] => n.and_then(|n| n.checked_mul(*r)),
                    many => many.iter().try_fold(0usize, |t, &r| t.checked_add(r)),
                };
                match axis {
                    None => vec![along(flat())],
                    Some(a) => {
                        let mut out = known.to_vec();
                        out[*a] = along(known[*a]);
                        out
                    }
                }
            }
            Self::Tile(reps) => {
                let d = reps.len().max(known.len());
                let mut dims = vec![Some(1); d - known.len()];
                dims.extend_from_slice(known);
                dims.iter()
                    .zip(reps)
                    .map(|(n, r)| n.and_then(|n| n.checked_mul(*r)))
                    .collect()
            }
            Self::Take {
                indices,
                scalar,
                axis,
            } => match axis {
                None if *scalar => vec![],
                None => vec![Some(indices.len())],
                Some(a) => {
                    let mut out = known.to_vec();
                    if *scalar {
                        out.remove(*a);
                    } else {
                        out[*a] = Some(indices.len());
                    }
                    out
                }
            },
            Self::Pad { widths, .. } => known
                .iter()
                .zip(widths)
                .map(|(n, (b, a))| n.and_then(|n| n.checked_add(*b)?.checked_add(*a)))
                .collect(),
        }
    }

    /// The output shape, and the stored offset of each output element ([`DROPPED`]: the
    /// fill value), for an input of logical `shape` read through `strides`; numpy's message
    /// where numpy refuses the shape. `check` sees the output shape before any offset is
    /// allocated (the element limit).
    pub fn layout(
        &self,
        shape: &[usize],
        strides: &[usize],
        check: impl Fn(&[usize]) -> Result<(), String>,
    ) -> Result<(Vec<usize>, Vec<usize>), String> {
        let flat_len: usize = shape.iter().product();
        match self {
            Self::Part {
                division,
                part,
                axis,
            } => {
                // The part's range along the axis, taken as `take` takes it.
                let (start, end) = division.range(*part, shape[*axis])?;
                let take = Self::Take {
                    indices: (start as i64..end as i64).collect(),
                    scalar: false,
                    axis: Some(*axis),
                };
                take.layout(shape, strides, check)
            }
            Self::Roll {
                flat: Some(shift), ..
            } => {
                let flat = strided_offsets(shape, strides);
                let start = rolled_start(*shift, flat_len);
                let offsets = (0..flat_len).map(|i| flat[(i + start) % flat_len]);
                Ok((shape.to_vec(), offsets.collect()))
            }
            Self::Repeat { repeats, axis: None } => {
                let out_len = repeated_len(repeats, flat_len)?;
                check(&[out_len])?;
                let counts = repeat_counts(repeats, flat_len)?;
                let flat = strided_offsets(shape, strides);
                let offsets = flat
                    .iter()
                    .zip(counts)
                    .flat_map(|(&o, count)| std::iter::repeat_n(o, count));
                Ok((vec![out_len], offsets.collect()))
            }
            Self::Take {
                indices,
                scalar,
                axis: None,
            } => {
                let flat = strided_offsets(shape, strides);
                let picked = take_positions(indices, 0, flat_len)?;
                let out_shape = if *scalar { vec![] } else { vec![picked.len()] };
                Ok((out_shape, picked.iter().map(|&p| flat[p]).collect()))
            }
            Self::Triangle { k, lower } => {
                let (square, square_strides): (Vec<usize>, Vec<usize>) = match shape {
                    [] => return Err("tri() missing 1 required positional argument: 'N'".into()),
                    [n] => (vec![*n, *n], vec![0, strides[0]]),
                    _ => (shape.to_vec(), strides.to_vec()),
                };
                check(&square)?;
                let mut offsets = strided_offsets(&square, &square_strides);
                let (rows, cols) = (square[square.len() - 2], square[square.len() - 1]);
                for (e, offset) in offsets.iter_mut().enumerate() {
                    let (i, j) = (((e / cols.max(1)) % rows.max(1)) as i64, (e % cols) as i64);
                    let kept = if *lower { j - i <= *k } else { j - i >= *k };
                    if !kept {
                        *offset = DROPPED;
                    }
                }
                Ok((square, offsets))
            }
            _ => {
                // The shape first: the limit sees it before any table is allocated (a
                // `tile` by 10^12 would otherwise ask for its positions here).
                let out_shape = self.separable_shape(shape)?;
                check(&out_shape)?;
                let maps = self.axis_maps(shape, strides)?;
                Ok((out_shape, separable_offsets(&maps)))
            }
        }
    }

    /// The output shape of the ops laid out axis by axis, with numpy's errors for shapes it
    /// refuses (`repeat`'s counts, `pad`'s empty axes) and dimensions past `usize`.
    fn separable_shape(&self, shape: &[usize]) -> Result<Vec<usize>, String> {
        let too_big = || "array is too big; the result's dimensions overflow".to_string();
        Ok(match self {
            Self::Repeat {
                repeats,
                axis: Some(axis),
            } => {
                let mut out = shape.to_vec();
                out[*axis] = repeated_len(repeats, shape[*axis])?;
                out
            }
            Self::Tile(reps) => {
                let mut dims = vec![1; reps.len() - shape.len()];
                dims.extend_from_slice(shape);
                dims.iter()
                    .zip(reps)
                    .map(|(&n, &r)| n.checked_mul(r).ok_or_else(too_big))
                    .collect::<Result<_, _>>()?
            }
            Self::Take {
                indices,
                scalar,
                axis: Some(axis),
            } => {
                let mut out = shape.to_vec();
                if *scalar {
                    out.remove(*axis);
                } else {
                    out[*axis] = indices.len();
                }
                out
            }
            Self::Pad { widths, mode } => {
                let mut out = Vec::with_capacity(shape.len());
                for (a, (&n, &(before, after))) in shape.iter().zip(widths).enumerate() {
                    if n == 0 && (before > 0 || after > 0) && *mode != PadMode::Constant {
                        return Err(format!(
                            "can't extend empty axis {a} using modes other than 'constant' or 'empty'"
                        ));
                    }
                    let len = n.checked_add(before).and_then(|l| l.checked_add(after));
                    out.push(len.ok_or_else(too_big)?);
                }
                out
            }
            _ => shape.to_vec(),
        })
    }

    /// The per-axis tables of the ops that map each output axis on its own.
    fn axis_maps(&self, shape: &[usize], strides: &[usize]) -> Result<Vec<AxisMap>, String> {
        let map = |positions: Vec<usize>, stride: usize| AxisMap { positions, stride };
        let identity = |a: usize| map((0..shape[a]).collect(), strides[a]);
        Ok(match self {
            Self::Roll { shifts, .. } => (0..shape.len())
                .map(|a| {
                    let n = shape[a];
                    let start = rolled_start(shifts[a], n);
                    map((0..n).map(|i| (i + start) % n).collect(), strides[a])
                })
                .collect(),
            Self::Repeat {
                repeats,
                axis: Some(axis),
            } => {
                let counts = repeat_counts(repeats, shape[*axis])?;
                (0..shape.len())
                    .map(|a| {
                        if a != *axis {
                            return identity(a);
                        }
                        let positions = counts
                            .iter()
                            .enumerate()
                            .flat_map(|(i, &count)| std::iter::repeat_n(i, count));
                        map(positions.collect(), strides[a])
                    })
                    .collect()
            }
            Self::Tile(reps) => {
                // `reps` is at least as long as the shape (the caller pads it with ones).
                let new_axes = reps.len() - shape.len();
                let mut maps: Vec<AxisMap> = Vec::with_capacity(reps.len());
                for (k, &r) in reps.iter().enumerate() {
                    if k < new_axes {
                        maps.push(map(vec![0; r], 0));
                    } else {
                        let a = k - new_axes;
                        let n = shape[a];
                        maps.push(map((0..n * r).map(|i| i % n).collect(), strides[a]));
                    }
                }
                maps
            }
            Self::Take {
                indices,
                axis: Some(axis),
                ..
            } => {
                let picked = take_positions(indices, *axis, shape[*axis])?;
                // A scalar index's axis is one position long here, dropped from the shape.
                (0..shape.len())
                    .map(|a| {
                        if a == *axis {
                            map(picked.clone(), strides[a])
                        } else {
                            identity(a)
                        }
                    })
                    .collect()
            }
            Self::Pad { widths, mode } => {
                let mut maps = Vec::with_capacity(shape.len());
                for (a, &(before, after)) in widths.iter().enumerate() {
                    let n = shape[a];
                    let positions = (0..before + n + after)
                        .map(|i| pad_position(i as i64 - before as i64, n, *mode))
                        .collect();
                    maps.push(map(positions, strides[a]));
                }
                maps
            }
            Self::Repeat { .. } | Self::Take { .. } | Self::Triangle { .. } | Self::Part { .. } => {
                return Err("internal: this manipulation is laid out as a whole".to_string());
            }
        })
    }
}

/// The input position of the first output element of a roll by `shift` over `n` elements.
fn rolled_start(shift: i64, n: usize) -> usize {
    if n == 0 {
        return 0;
    }
    let n = n as i64;
    (n - shift.rem_euclid(n)).rem_euclid(n) as usize
}

/// `repeats` against `n` elements: one count for each, numpy's broadcast error otherwise.
fn repeat_counts(repeats: &[usize], n: usize) -> Result<Vec<usize>, String> {
    match repeats {
        [r] => Ok(vec![*r; n]),
        many if many.len() == n => Ok(many.to_vec()),
        many => Err(format!(
            "operands could not be broadcast together with shape ({n},) ({},)",
            many.len()
        )),
    }
}

/// The length of `n` elements repeated by `repeats` (checked as [`repeat_counts`] checks
/// them), without building the counts.
fn repeated_len(repeats: &[usize], n: usize) -> Result<usize, String> {
    let total = match repeats {
        [r] => n.checked_mul(*r),
        many if many.len() == n => many.iter().try_fold(0usize, |t, &r| t.checked_add(r)),
        many => return repeat_counts(many, n).map(|_| 0),
    };
    total.ok_or_else(|| "array is too big; the result's dimensions overflow".to_string())
}

/// `take`'s indices along an axis of length `n`, negative from the end; numpy's
/// `IndexError` otherwise.
fn take_positions(indices: &[i64], axis: usize, n: usize) -> Result<Vec<usize>, String> {
    if n == 0 && !indices.is_empty() {
        return Err("cannot do a non-empty take from an empty axes.".into());
    }
    indices
        .iter()
        .map(|&i| {
            wrap_index(i, n)
                .ok_or_else(|| format!("index {i} is out of bounds for axis {axis} with size {n}"))
        })
        .collect()
}

/// The input position `pad` reads for position `i` (negative: before the input) along an
/// axis of `n` elements ([`DROPPED`]: the constant). numpy pads `reflect` and `symmetric`
/// by reflecting over and over, which is this periodic extension; `reflect` of one element
/// is its edge (numpy's legacy behaviour).
fn pad_position(i: i64, n: usize, mode: PadMode) -> usize {
    let len = n as i64;
    if (0..len).contains(&i) {
        return i as usize;
    }
    let position = match mode {
        PadMode::Constant => return DROPPED,
        PadMode::Edge => i.clamp(0, len - 1),
        PadMode::Wrap => i.rem_euclid(len),
        PadMode::Reflect if len == 1 => 0,
        PadMode::Reflect => {
            let p = i.rem_euclid(2 * (len - 1));
            if p < len { p } else { 2 * (len - 1) - p }
        }
        PadMode::Symmetric => {
            let p = i.rem_euclid(2 * len);
            if p < len { p } else { 2 * len - 1 - p }
        }
    };
    position as usize
}

/// For each element of the output (row-major over the maps' lengths), the sum of its
/// positions times strides; [`DROPPED`] where any axis drops it.
fn separable_offsets(maps: &[AxisMap]) -> Vec<usize> {
    let mut out: Vec<usize> = vec![0];
    for m in maps {
        let mut next = Vec::with_capacity(out.len() * m.positions.len());
        for &base in &out {
            for &p in &m.positions {
                next.push(if base == DROPPED || p == DROPPED {
                    DROPPED
                } else {
                    base + p * m.stride
                });
            }
        }
        out = next;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::row_major_strides;

    fn offsets(op: &Manipulation, shape: &[usize]) -> (Vec<usize>, Vec<usize>) {
        op.layout(shape, &row_major_strides(shape), |_| Ok(()))
            .unwrap()
    }

    #[test]
    fn roll_shifts_each_axis_or_the_flat_order() {
        // np.roll(np.arange(6).reshape(2, 3), 1, axis=1).ravel() == [2, 0, 1, 5, 3, 4]
        let op = Manipulation::Roll {
            shifts: vec![0, 1],
            flat: None,
        };
        assert_eq!(offsets(&op, &[2, 3]).1, [2, 0, 1, 5, 3, 4]);
        // np.roll(np.arange(6).reshape(2, 3), -2).ravel() == [2, 3, 4, 5, 0, 1]
        let op = Manipulation::Roll {
            shifts: vec![],
            flat: Some(-2),
        };
        assert_eq!(offsets(&op, &[2, 3]).1, [2, 3, 4, 5, 0, 1]);
    }

    #[test]
    fn pad_modes_follow_numpy() {
        // np.pad(np.arange(3), 7, mode=...)
        for (mode, expected) in [
            (PadMode::Reflect, [1, 2, 1, 0, 1, 2, 1, 0, 1, 2, 1, 0, 1, 2, 1, 0, 1]),
            (PadMode::Symmetric, [0, 0, 1, 2, 2, 1, 0, 0, 1, 2, 2, 1, 0, 0, 1, 2, 2]),
            (PadMode::Wrap, [2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0]),
        ] {
            let op = Manipulation::Pad {
                widths: vec![(7, 7)],
                mode,
            };
            assert_eq!(offsets(&op, &[3]).1, expected, "{mode:?}");
        }
    }

    #[test]
    fn tril_of_a_vector_is_a_square() {
        // np.tril(np.arange(3)) == [[0, 0, 0], [0, 1, 0], [0, 1, 2]]
        let op = Manipulation::Triangle { k: 0, lower: true };
        let (shape, o) = offsets(&op, &[3]);
        assert_eq!(shape, [3, 3]);
        let d = DROPPED;
        assert_eq!(o, [0, d, d, 0, 1, d, 0, 1, 2]);
    }
}
