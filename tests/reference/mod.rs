//! A deliberately simple reference for the property tests: numpy indexing, numpy `choose`,
//! numpy `take_along_axis` / `put_along_axis` and JAX's `x.at[idx].op(y)`, element by element, on logical row-major tensors of `i64` (or
//! `f64`) values with `Option` for NULL elements. Nothing here is shared with the crate: the
//! index is the generator's structured items, not a parsed string, and every output element is
//! found by decoding its multi-index and walking the rules one by one.

#![allow(dead_code)]

use std::fmt;

/// One index item, as the generator builds it (rendered to numpy syntax for SQL).
#[derive(Debug, Clone)]
pub enum Item {
    Int(i64),
    Slice(Option<i64>, Option<i64>, Option<i64>),
    Ellipsis,
    NewAxis,
    /// An integer array of `shape` (1-d or 2-d), row-major values.
    Ints(Vec<usize>, Vec<i64>),
    /// A 1-d boolean mask.
    Bools(Vec<bool>),
}

impl fmt::Display for Item {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let opt = |v: &Option<i64>| v.map(|v| v.to_string()).unwrap_or_default();
        match self {
            Item::Int(i) => write!(f, "{i}"),
            Item::Slice(a, b, None) => write!(f, "{}:{}", opt(a), opt(b)),
            Item::Slice(a, b, c) => write!(f, "{}:{}:{}", opt(a), opt(b), opt(c)),
            Item::Ellipsis => write!(f, "..."),
            Item::NewAxis => write!(f, "None"),
            Item::Ints(shape, values) if shape.len() == 1 => write!(f, "{values:?}"),
            Item::Ints(shape, values) => {
                let rows: Vec<String> = values
                    .chunks(shape[1].max(1))
                    .take(shape[0])
                    .map(|r| format!("{r:?}"))
                    .collect();
                if shape[1] == 0 {
                    write!(f, "[{}]", vec!["[]"; shape[0]].join(", "))
                } else {
                    write!(f, "[{}]", rows.join(", "))
                }
            }
            Item::Bools(mask) => {
                let words: Vec<&str> = mask
                    .iter()
                    .map(|&b| if b { "True" } else { "False" })
                    .collect();
                write!(f, "[{}]", words.join(", "))
            }
        }
    }
}

/// The numpy-syntax string of an index (`()`, numpy's empty tuple, for no items: Python has no
/// empty index `x[]`).
pub fn render(items: &[Item]) -> String {
    if items.is_empty() {
        return "()".to_string();
    }
    items
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Which of numpy's errors (the key words of its message).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Error {
    TooManyIndices,
    SingleEllipsis,
    ZeroStep,
    BooleanMismatch,
    OutOfBounds,
    BroadcastMismatch,
    InvalidChoice,
    Overflow,
    NdimMismatch,
    AxisNoneNdim,
    NegativePower,
    /// numpy's `choose` with no choices.
    NoChoices,
}

impl Error {
    /// Words numpy's message (and so the crate's) contains.
    pub fn words(self) -> &'static str {
        match self {
            Error::TooManyIndices => "too many indices",
            Error::SingleEllipsis => "single ellipsis",
            Error::ZeroStep => "slice step cannot be zero",
            Error::BooleanMismatch => "boolean index did not match",
            Error::OutOfBounds => "out of bounds",
            Error::BroadcastMismatch => "be broadcast",
            Error::InvalidChoice => "invalid entry in choice array",
            Error::Overflow => "overflow",
            Error::NdimMismatch => "must have the same number of dimensions",
            Error::NegativePower => "Integers to negative integer powers are not allowed",
            Error::AxisNoneNdim => "when axis=None, `indices` must have a single dimension",
            Error::NoChoices => "0-length sequence",
        }
    }
}

pub fn size(shape: &[usize]) -> usize {
    shape.iter().product()
}

/// The multi-index of flat position `flat` in a row-major `shape`.
pub fn unravel(mut flat: usize, shape: &[usize]) -> Vec<usize> {
    let mut index = vec![0; shape.len()];
    for axis in (0..shape.len()).rev() {
        index[axis] = flat % shape[axis];
        flat /= shape[axis];
    }
    index
}

/// The flat row-major position of `index` in `shape`.
pub fn ravel(index: &[usize], shape: &[usize]) -> usize {
    index.iter().zip(shape).fold(0, |acc, (&i, &d)| acc * d + i)
}

/// numpy's broadcast of several shapes.
pub fn broadcast(shapes: &[Vec<usize>]) -> Option<Vec<usize>> {
    let ndim = shapes.iter().map(Vec::len).max().unwrap_or(0);
    let mut out = vec![1; ndim];
    for shape in shapes {
        for (k, &d) in shape.iter().enumerate() {
            let axis = ndim - shape.len() + k;
            if out[axis] == 1 {
                out[axis] = d;
            } else if d != 1 && d != out[axis] {
                return None;
            }
        }
    }
    Some(out)
}

/// The position in a tensor of `shape` that the element at `index` of its broadcast to
/// `target` reads.
pub fn broadcast_position(index: &[usize], shape: &[usize], target: &[usize]) -> usize {
    let lead = target.len() - shape.len();
    let own: Vec<usize> = shape
        .iter()
        .enumerate()
        .map(|(k, &d)| if d == 1 { 0 } else { index[lead + k] })
        .collect();
    ravel(&own, shape)
}

/// Python's `slice(start, stop, step).indices(len)`, listed.
pub fn slice_positions(
    start: Option<i64>,
    stop: Option<i64>,
    step: Option<i64>,
    len: usize,
) -> Vec<usize> {
    let len = len as i64;
    let step = step.unwrap_or(1);
    let (lower, upper) = if step < 0 { (-1, len - 1) } else { (0, len) };
    let clamp = |v: i64| {
        if v < 0 {
            (v + len).max(lower)
        } else {
            v.min(upper)
        }
    };
    let start = start.map_or(if step < 0 { upper } else { lower }, clamp);
    let stop = stop.map_or(if step < 0 { lower } else { upper }, clamp);
    let mut out = Vec::new();
    let mut i = start;
    while (step > 0 && i < stop) || (step < 0 && i > stop) {
        out.push(i as usize);
        i += step;
    }
    out
}

/// How an integer index out of `[-dim, dim)` is treated: numpy raises; JAX's modes clip or
/// drop; `wrap_negative` says whether negatives count from the end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bounds {
    Raise,
    Clip,
    Drop,
}

/// A resolved integer index: a position, or dropped.
fn resolve(
    value: i64,
    dim: usize,
    bounds: Bounds,
    wrap_negative: bool,
) -> Result<Option<usize>, Error> {
    let d = dim as i64;
    let v = if wrap_negative && value < 0 {
        value + d
    } else {
        value
    };
    if (0..d).contains(&v) {
        return Ok(Some(v as usize));
    }
    match bounds {
        Bounds::Raise => Err(Error::OutOfBounds),
        Bounds::Drop => Ok(None),
        Bounds::Clip if dim == 0 => Ok(None),
        Bounds::Clip => Ok(Some(v.clamp(0, d - 1) as usize)),
    }
}

/// numpy's `x[items]` on a tensor of logical `shape`: the output shape and, per output element
/// row-major, the input position it reads (`None`: dropped by a JAX mode). An invalid index
/// gives every error that applies (numpy reports one of them; which one depends on the order
/// of its checks, which this reference does not model).
#[allow(
    clippy::too_many_lines,
    reason = "a reference model written straight from numpy's documented rules, one step after \
              another, to be read against them rather than against the crate's structure"
)]
pub fn index(
    shape: &[usize],
    items: &[Item],
    bounds: Bounds,
    wrap_negative: bool,
) -> Result<(Vec<usize>, Vec<Option<usize>>), Vec<Error>> {
    let ndim = shape.len();
    if items.iter().filter(|i| matches!(i, Item::Ellipsis)).count() > 1 {
        return Err(vec![Error::SingleEllipsis]);
    }
    let consumed = items
        .iter()
        .filter(|i| !matches!(i, Item::Ellipsis | Item::NewAxis))
        .count();
    if consumed > ndim {
        return Err(vec![Error::TooManyIndices]);
    }
    let mut errors = Vec::new();
    // Expand the ellipsis (or the implicit one at the end) into full slices.
    let mut expanded = Vec::new();
    let mut seen = false;
    // Where an ellipsis standing for no axes sits: numpy still counts it as separating the
    // advanced indices on either side.
    let mut gaps = Vec::new();
    for item in items {
        if matches!(item, Item::Ellipsis) {
            seen = true;
            if ndim == consumed {
                gaps.push(expanded.len());
            }
            expanded.extend((0..ndim - consumed).map(|_| Item::Slice(None, None, None)));
        } else {
            expanded.push(item.clone());
        }
    }
    if !seen {
        expanded.extend((0..ndim - consumed).map(|_| Item::Slice(None, None, None)));
    }
    let advanced_present = expanded
        .iter()
        .any(|i| matches!(i, Item::Ints(..) | Item::Bools(_)));

    // Each item: its input axis, and what it becomes.
    enum Part {
        Basic(Vec<usize>, Option<usize>), // slice positions; input axis (None: new axis)
        Fixed(usize, Option<usize>),      // an integer outside advanced indexing
        Adv(usize, Vec<usize>, Vec<Option<usize>>), // input axis, array shape, positions
    }
    let mut parts = Vec::new();
    // Index arrays' values are checked only when their broadcast is not empty (numpy).
    let mut array_errors = Vec::new();
    let mut axis = 0;
    for item in &expanded {
        match item {
            Item::Slice(a, b, c) => {
                if *c == Some(0) {
                    errors.push(Error::ZeroStep);
                    parts.push(Part::Basic(vec![], Some(axis)));
                } else {
                    parts.push(Part::Basic(
                        slice_positions(*a, *b, *c, shape[axis]),
                        Some(axis),
                    ));
                }
                axis += 1;
            }
            Item::NewAxis => parts.push(Part::Basic(vec![0], None)),
            Item::Int(v) => {
                let p = resolve(*v, shape[axis], bounds, wrap_negative).unwrap_or_else(|e| {
                    errors.push(e);
                    None
                });
                if advanced_present {
                    parts.push(Part::Adv(axis, vec![], vec![p]));
                } else {
                    parts.push(Part::Fixed(axis, p));
                }
                axis += 1;
            }
            Item::Ints(s, values) => {
                let p = values
                    .iter()
                    .map(|&v| {
                        resolve(v, shape[axis], bounds, wrap_negative).unwrap_or_else(|e| {
                            array_errors.push(e);
                            None
                        })
                    })
                    .collect();
                parts.push(Part::Adv(axis, s.clone(), p));
                axis += 1;
            }
            Item::Bools(mask) => {
                if mask.len() != shape[axis] {
                    errors.push(Error::BooleanMismatch);
                }
                let p: Vec<Option<usize>> = mask
                    .iter()
                    .enumerate()
                    .filter(|(_, b)| **b)
                    .map(|(k, _)| Some(k))
                    .collect();
                parts.push(Part::Adv(axis, vec![p.len()], p));
                axis += 1;
            }
            Item::Ellipsis => unreachable!(),
        }
    }
    let adv_shapes: Vec<Vec<usize>> = parts
        .iter()
        .filter_map(|p| {
            if let Part::Adv(_, s, _) = p {
                Some(s.clone())
            } else {
                None
            }
        })
        .collect();
    let Some(block) = broadcast(&adv_shapes) else {
        errors.push(Error::BroadcastMismatch);
        return Err(errors);
    };
    if size(&block) > 0 {
        errors.extend(array_errors);
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let adv_at: Vec<usize> = parts
        .iter()
        .enumerate()
        .filter(|(_, p)| matches!(p, Part::Adv(..)))
        .map(|(k, _)| k)
        .collect();
    let adjacent = adv_at
        .windows(2)
        .all(|w| w[1] == w[0] + 1 && !gaps.contains(&w[1]));

    // Output dims: basic parts in order, the advanced block in place (adjacent) or first.
    enum Dim {
        Basic(usize), // index into parts
        Block,
    }
    let mut dims = Vec::new();
    if !adv_at.is_empty() && !adjacent {
        dims.push(Dim::Block);
    }
    for (k, p) in parts.iter().enumerate() {
        match p {
            Part::Basic(..) => dims.push(Dim::Basic(k)),
            Part::Adv(..) if adjacent && k == adv_at[0] => dims.push(Dim::Block),
            _ => {}
        }
    }
    let mut out_shape = Vec::new();
    for d in &dims {
        match d {
            Dim::Basic(k) => {
                let Part::Basic(pos, _) = &parts[*k] else {
                    unreachable!()
                };
                out_shape.push(pos.len());
            }
            Dim::Block => out_shape.extend(&block),
        }
    }

    let in_strides: Vec<usize> = (0..ndim).map(|a| size(&shape[a + 1..])).collect();
    let mut positions = Vec::new();
    for flat in 0..size(&out_shape) {
        let out_index = unravel(flat, &out_shape);
        let mut coords: Vec<Option<usize>> = vec![Some(0); ndim];
        let mut o = 0;
        let mut block_index = Vec::new();
        for d in &dims {
            match d {
                Dim::Basic(k) => {
                    let Part::Basic(pos, axis) = &parts[*k] else {
                        unreachable!()
                    };
                    if let Some(a) = axis {
                        coords[*a] = Some(pos[out_index[o]]);
                    }
                    o += 1;
                }
                Dim::Block => {
                    block_index = out_index[o..o + block.len()].to_vec();
                    o += block.len();
                }
            }
        }
        for p in &parts {
            match p {
                Part::Fixed(a, v) => coords[*a] = *v,
                Part::Adv(a, s, values) => {
                    coords[*a] = values[broadcast_position(&block_index, s, &block)];
                }
                Part::Basic(..) => {}
            }
        }
        positions.push(
            coords
                .iter()
                .zip(&in_strides)
                .try_fold(0, |acc, (c, s)| c.map(|c| acc + c * s)),
        );
    }
    Ok((out_shape, positions))
}

/// numpy's `choose(a, choices, mode)` on logical tensors (`a` and each choice a shape and its
/// values); `mode` is `raise`, `wrap` or `clip`.
pub fn choose(
    a: (&[usize], &[Option<i64>]),
    choices: &[(Vec<usize>, Vec<Option<i64>>)],
    mode: &str,
) -> Result<(Vec<usize>, Vec<Option<i64>>), Error> {
    let mut shapes = vec![a.0.to_vec()];
    shapes.extend(choices.iter().map(|c| c.0.clone()));
    let shape = broadcast(&shapes).ok_or(Error::BroadcastMismatch)?;
    let n = choices.len() as i64;
    let mut out = Vec::new();
    for flat in 0..size(&shape) {
        let index = unravel(flat, &shape);
        let Some(k) = a.1[broadcast_position(&index, a.0, &shape)] else {
            out.push(None);
            continue;
        };
        let k = match mode {
            "wrap" => k.rem_euclid(n),
            "clip" => k.clamp(0, n - 1),
            _ if (0..n).contains(&k) => k,
            _ => return Err(Error::InvalidChoice),
        };
        let (s, values) = &choices[k as usize];
        out.push(values[broadcast_position(&index, s, &shape)]);
    }
    Ok((shape, out))
}

/// JAX's update ops, applied once per occurrence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Set,
    Add,
    Subtract,
    Multiply,
    Min,
    Max,
}

impl Op {
    pub fn name(self) -> &'static str {
        match self {
            Op::Set => "set",
            Op::Add => "add",
            Op::Subtract => "subtract",
            Op::Multiply => "multiply",
            Op::Min => "min",
            Op::Max => "max",
        }
    }
}

/// A number of the tensor's element type: integers exact (checked against the type's range
/// after every step), floats rounded to the type after every step.
pub trait Num: Copy + PartialEq + fmt::Debug {
    fn apply(self, op: Op, y: Self) -> Result<Self, Error>;
}

/// An integer element type by its range.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Int {
    pub value: i128,
    pub min: i128,
    pub max: i128,
}

impl Num for Int {
    fn apply(self, op: Op, y: Self) -> Result<Self, Error> {
        let v = match op {
            Op::Set => y.value,
            Op::Add => self.value + y.value,
            Op::Subtract => self.value - y.value,
            Op::Multiply => self.value * y.value,
            Op::Min => self.value.min(y.value),
            Op::Max => self.value.max(y.value),
        };
        if v < self.min || v > self.max {
            return Err(Error::Overflow);
        }
        Ok(Int { value: v, ..self })
    }
}

/// A float element type: `single` rounds to f32 after every step.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Float {
    pub value: f64,
    pub single: bool,
}

impl Num for Float {
    fn apply(self, op: Op, y: Self) -> Result<Self, Error> {
        let v = match op {
            Op::Set => y.value,
            Op::Add => self.value + y.value,
            Op::Subtract => self.value - y.value,
            Op::Multiply => self.value * y.value,
            Op::Min => self.value.min(y.value),
            Op::Max => self.value.max(y.value),
        };
        let v = if self.single { f64::from(v as f32) } else { v };
        Ok(Float { value: v, ..self })
    }
}

/// JAX's `x.at[items].op(y)` on one row (logical values): occurrences in row-major order of
/// `x[items]`, each applied in turn with `y(k)` for the k-th element of `x[items]` (`None`: a
/// NULL y element); NULL elements stay NULL except under `set`, and a NULL y makes NULL.
pub fn at<T: Num>(
    shape: &[usize],
    x: &[Option<T>],
    items: &[Item],
    op: Op,
    y: &dyn Fn(usize) -> Option<T>,
    bounds: Bounds,
    wrap_negative: bool,
) -> Result<Vec<Option<T>>, Vec<Error>> {
    let (_, positions) = index(shape, items, bounds, wrap_negative)?;
    let mut out = x.to_vec();
    for (k, p) in positions.into_iter().enumerate() {
        let Some(p) = p else { continue };
        out[p] = match (out[p], op, y(k)) {
            (_, Op::Set, y) => y,
            (None, _, _) | (_, _, None) => None,
            (Some(v), _, Some(y)) => Some(v.apply(op, y).map_err(|e| vec![e])?),
        };
    }
    Ok(out)
}

/// What `take_along_axis` / `put_along_axis` index: `t`'s logical shape (flattened for
/// `axis=None`), the axis, and the shape the index broadcasts to (the take's result).
#[derive(Debug, Clone)]
pub struct AlongAxis {
    pub input: Vec<usize>,
    pub axis: usize,
    pub shape: Vec<usize>,
}

/// numpy's checks, in its order: `axis=None` wants a 1-d index, the index has `t`'s number
/// of dimensions, the axis is in range, off the axis `t` and the index broadcast.
pub fn along_axis(
    t_shape: &[usize],
    idx_shape: &[usize],
    axis: Option<i64>,
) -> Result<AlongAxis, Error> {
    let input = match axis {
        None if idx_shape.len() != 1 => return Err(Error::AxisNoneNdim),
        None => vec![size(t_shape)],
        Some(_) => t_shape.to_vec(),
    };
    let ndim = input.len();
    if idx_shape.len() != ndim {
        return Err(Error::NdimMismatch);
    }
    let axis = match axis {
        None => 0,
        Some(a) => {
            let a = if a < 0 { a + ndim as i64 } else { a };
            if a < 0 || a >= ndim as i64 {
                return Err(Error::OutOfBounds);
            }
            a as usize
        }
    };
    let mut shape = Vec::new();
    for d in 0..ndim {
        let (t, i) = (input[d], idx_shape[d]);
        shape.push(match () {
            () if d == axis => i,
            () if t == i || i == 1 => t,
            () if t == 1 => i,
            () => return Err(Error::BroadcastMismatch),
        });
    }
    Ok(AlongAxis { input, axis, shape })
}

/// For each position of the broadcast index, in row-major order, the flat position in `t`'s
/// (logical, row-major) values that it names: the index value along the axis (negative from
/// the end), the position itself off it.
pub fn along_axis_positions(
    geometry: &AlongAxis,
    idx_shape: &[usize],
    idx: &[i64],
) -> Result<Vec<usize>, Error> {
    let dim = geometry.input[geometry.axis] as i64;
    let mut out = Vec::new();
    for flat in 0..size(&geometry.shape) {
        let at = unravel(flat, &geometry.shape);
        let own = |shape: &[usize]| -> Vec<usize> {
            at.iter()
                .zip(shape)
                .map(|(&i, &d)| if d == 1 { 0 } else { i })
                .collect()
        };
        let value = idx[ravel(&own(idx_shape), idx_shape)];
        let value = if value < 0 { value + dim } else { value };
        if value < 0 || value >= dim {
            return Err(Error::OutOfBounds);
        }
        let mut position = own(&geometry.input);
        position[geometry.axis] = value as usize;
        out.push(ravel(&position, &geometry.input));
    }
    Ok(out)
}

/// JAX's `x.at[..].divide(y)`, `.power(y)` or `.apply(f)` (`op`: `divide`, `power`, or the
/// function `negative`, `square`, `abs`) on one row of logical values, the index's
/// `positions` given (`None`: dropped). divide/power: each position's factor is `y` to the
/// number of its occurrences, multiplied out step by step (integers checked against
/// `range`); where it is not 1, `x / factor` (integers: as f64) or `x ** factor`. apply: `f`
/// once per occurrence. NULL elements stay NULL. Float results are f64 here; the caller
/// rounds to f32 where the type is.
#[allow(clippy::float_cmp)] // a factor of exactly 1 leaves x as it is, as in the crate
pub fn at_arith(
    values: &[Option<i64>],
    positions: &[Option<usize>],
    op: &str,
    y: i64,
    float: bool,
    single: bool,
    range: (i128, i128),
) -> Result<Vec<Option<f64>>, Error> {
    let in_range = |v: i128| -> Result<i128, Error> {
        if v < range.0 || v > range.1 {
            Err(Error::Overflow)
        } else {
            Ok(v)
        }
    };
    let round = |v: f64| if single { f64::from(v as f32) } else { v };
    let mut count = vec![0u32; values.len()];
    for p in positions.iter().flatten() {
        count[*p] += 1;
    }
    let mut out = Vec::new();
    for (&value, &n) in values.iter().zip(&count) {
        let Some(v) = value else {
            out.push(None);
            continue;
        };
        let result = match op {
            "divide" | "power" if float => {
                let mut factor = 1.0;
                for _ in 0..n {
                    factor = round(factor * y as f64);
                }
                let x = v as f64;
                match op {
                    _ if factor == 1.0 => x,
                    "divide" => x / factor,
                    _ if single => f64::from((x as f32).powf(factor as f32)),
                    _ => x.powf(factor),
                }
            }
            "divide" | "power" => {
                let mut factor: i128 = 1;
                for _ in 0..n {
                    factor = in_range(factor * i128::from(y))?;
                }
                match op {
                    _ if factor == 1 => v as f64,
                    "divide" => v as f64 / factor as f64,
                    _ if factor < 0 => return Err(Error::NegativePower),
                    _ if factor == 0 => 1.0,
                    // |v| <= 1 keeps its size under any exponent.
                    _ if v == -1 => {
                        if factor % 2 == 0 {
                            1.0
                        } else {
                            -1.0
                        }
                    }
                    _ if v == 0 || v == 1 => v as f64,
                    _ => {
                        // |v| >= 2 leaves every integer range within 128 steps.
                        let mut p: i128 = 1;
                        for _ in 0..factor.min(128) {
                            p = in_range(p * i128::from(v))?;
                        }
                        p as f64
                    }
                }
            }
            f => {
                let mut x = v as f64;
                for _ in 0..n {
                    x = match f {
                        "negative" => -x,
                        "square" => x * x,
                        _ => x.abs(),
                    };
                    x = if float {
                        round(x)
                    } else {
                        in_range(x as i128)? as f64
                    };
                }
                x
            }
        };
        out.push(Some(result));
    }
    Ok(out)
}
