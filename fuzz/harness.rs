//! What the fuzz targets run, shared by `cargo fuzz` (fuzz/fuzz_targets/*.rs) and by
//! `cargo test`'s replay of the committed regression corpus (tests/integration/fuzz_replay.rs).
//!
//! Each target turns the fuzzer's bytes into inputs deterministically: [`parse_index`] into an
//! index string (parsed, printed back and parsed again, then normalised against a small shape
//! under every bounds rule), the SQL targets into a small in-memory table (random element type,
//! shape up to 6 dims with 0-size dims, permutation, NULL rows and elements, extreme values,
//! and a variable-shape column made from it)
//! and a few queries built from the function's argument forms with random pieces (index
//! strings, literals, columns, modes, options, raw text). A query may succeed or fail with an
//! error; the process must not panic (cargo fuzz builds with debug assertions and overflow
//! checks, so an arithmetic overflow is a panic too) and must not allocate without bound.

#![allow(dead_code, clippy::pedantic)]

use std::sync::Arc;

use arrow::array::{
    Array, ArrayRef, AsArray, FixedSizeListArray, Float64Array, Int64Array, ListArray, RecordBatch,
    UInt32Array,
};
use arrow::buffer::{NullBuffer, OffsetBuffer};
use arrow::datatypes::{DataType, Field, Schema};
use datafusion::prelude::SessionContext;
use datafusion_tensor::index::normalize::{BoundsRule, DROPPED, OutOfBounds, normalize_with};
use datafusion_tensor::index::parse::parse_index as parse;
use datafusion_tensor::limits::Limits;
use datafusion_tensor::{TensorType, VariableShapeType};

/// The fuzzer's bytes, read front to back; zeros once they run out.
pub struct Bytes<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Bytes<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Self { data, pos: 0 }
    }

    pub fn byte(&mut self) -> u8 {
        let b = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }

    pub fn exhausted(&self) -> bool {
        self.pos >= self.data.len()
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        usize::from(self.byte()) % n
    }

    pub fn flag(&mut self) -> bool {
        self.byte() & 1 == 1
    }

    pub fn pick<T: Copy>(&mut self, options: &[T]) -> T {
        options[self.below(options.len())]
    }

    /// Mostly small integers, sometimes the edges of the integer types.
    pub fn int(&mut self) -> i64 {
        match self.byte() {
            0..=199 => i64::from(self.byte() % 9) - 4,
            200..=219 => i64::from(self.byte()) - 128,
            220 => i64::MAX,
            221 => i64::MIN,
            222 => i64::from(i32::MAX),
            223 => i64::from(i32::MIN),
            224 => 1 << 32,
            225 => i64::from(u8::MAX) + 1,
            226 => -(1 << 53),
            227 => i64::from(i16::MAX) + 1,
            _ => i64::from(self.byte() % 5),
        }
    }

    /// Raw text: up to `max` bytes, lossily UTF-8.
    pub fn text(&mut self, max: usize) -> String {
        let len = self.below(max + 1);
        let start = self.pos.min(self.data.len());
        let end = (start + len).min(self.data.len());
        self.pos += len;
        String::from_utf8_lossy(&self.data[start..end]).into_owned()
    }
}

/// An index string: mostly well-formed numpy syntax, sometimes raw text.
pub fn index_string(b: &mut Bytes) -> String {
    if b.byte() < 24 {
        return b.text(24);
    }
    let items = 1 + b.below(4);
    let mut parts = Vec::new();
    for _ in 0..items {
        let part = match b.below(10) {
            0 | 1 => b.int().to_string(),
            2 | 3 => {
                let mut s = String::new();
                if b.flag() {
                    s += &b.int().to_string();
                }
                s.push(':');
                if b.flag() {
                    s += &b.int().to_string();
                }
                if b.flag() {
                    s.push(':');
                    if b.flag() {
                        s += &b.int().to_string();
                    }
                }
                s
            }
            4 => "...".into(),
            5 => b
                .pick(&["None", "newaxis", "np.newaxis", "True", "False"])
                .into(),
            6 | 7 => {
                let depth = 1 + b.below(3);
                int_list(b, depth)
            }
            8 => {
                let n = b.below(5);
                let v: Vec<&str> = (0..n).map(|_| b.pick(&["True", "False"])).collect();
                format!("[{}]", v.join(", "))
            }
            _ => b.text(6),
        };
        parts.push(part);
    }
    parts.join(b.pick(&[", ", ",", " , "]))
}

/// A (possibly ragged) nested integer list of depth `depth`.
pub fn int_list(b: &mut Bytes, depth: usize) -> String {
    let n = b.below(4);
    let items: Vec<String> = (0..n)
        .map(|_| {
            if depth <= 1 {
                b.int().to_string()
            } else {
                int_list(b, depth - 1)
            }
        })
        .collect();
    format!("[{}]", items.join(", "))
}

/// The parser target: any text parses or fails cleanly; what parses prints back to text that
/// parses to the same expression; normalising it against a small shape under numpy's and JAX's
/// bounds rules fails cleanly or gives offsets inside the tensor.
pub fn parse_index(data: &[u8]) {
    let mut b = Bytes::new(data);
    let ndim = b.below(5);
    let shape: Vec<usize> = (0..ndim).map(|_| b.below(5)).collect();
    let text = if b.flag() {
        String::from_utf8_lossy(&data[b.pos.min(data.len())..]).into_owned()
    } else {
        index_string(&mut b)
    };
    let Ok(expr) = parse(&text) else { return };
    let printed = expr.to_string();
    let reparsed = parse(&printed)
        .unwrap_or_else(|e| panic!("{text:?} printed as {printed:?}, which does not parse: {e}"));
    assert_eq!(reparsed, expr, "{text:?} printed as {printed:?}");

    let size: usize = shape.iter().product();
    let mut strides = vec![1; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        strides[i] = strides[i + 1] * shape[i + 1];
    }
    let rules = [
        BoundsRule::NUMPY,
        BoundsRule {
            wrap_negative: true,
            out_of_bounds: OutOfBounds::Clip,
        },
        BoundsRule {
            wrap_negative: false,
            out_of_bounds: OutOfBounds::Drop,
        },
    ];
    for rule in rules {
        if let Ok(selection) = normalize_with(&expr, &shape, &strides, rule, &Limits::default()) {
            let offsets = selection.offsets();
            assert_eq!(offsets.len(), selection.size(), "{text:?} on {shape:?}");
            for &o in &offsets {
                assert!(
                    o == DROPPED || o < size,
                    "{text:?} on {shape:?}: offset {o}"
                );
            }
        }
    }
}

/// Which function family a SQL target exercises.
#[derive(Debug, Clone, Copy)]
pub enum Family {
    Choose,
    Get,
    At,
    Math,
    Aggregate,
}

const ELEMENT_TYPES: &[DataType] = &[
    DataType::Int8,
    DataType::Int16,
    DataType::Int32,
    DataType::Int64,
    DataType::UInt8,
    DataType::UInt16,
    DataType::UInt32,
    DataType::UInt64,
    DataType::Float16,
    DataType::Float32,
    DataType::Float64,
    DataType::Boolean,
];

/// A tensor column of `rows` rows: element type, shape and permutation from the bytes (or the
/// ones given), values from the bytes, some NULL rows and NULL elements.
fn tensor_column(
    b: &mut Bytes,
    rows: usize,
    element: Option<DataType>,
    shape: Option<Vec<usize>>,
) -> (Field, ArrayRef) {
    let element = element.unwrap_or_else(|| ELEMENT_TYPES[b.below(ELEMENT_TYPES.len())].clone());
    let shape = shape.unwrap_or_else(|| {
        let ndim = match b.byte() {
            0..=9 => 0,
            10..=249 => 1 + b.below(3),
            _ => 4 + b.below(3),
        };
        (0..ndim)
            .map(|_| if b.byte() < 16 { 0 } else { 1 + b.below(4) })
            .collect()
    });
    let mut tensor = TensorType::new(element.clone(), shape.clone()).expect("small shape");
    if shape.len() > 1 && b.flag() {
        let mut perm: Vec<usize> = (0..shape.len()).collect();
        for i in (1..perm.len()).rev() {
            let j = b.below(i + 1);
            perm.swap(i, j);
        }
        tensor = tensor.with_permutation(Some(perm)).expect("a permutation");
    }
    let size = tensor.size();
    let values: Vec<Option<i64>> = (0..rows * size)
        .map(|_| if b.byte() < 8 { None } else { Some(b.int()) })
        .collect();
    let child: ArrayRef = if element.is_floating() {
        Arc::new(Float64Array::from(
            values
                .iter()
                .map(|v| v.map(|v| v as f64 / 2.0))
                .collect::<Vec<_>>(),
        ))
    } else {
        Arc::new(Int64Array::from(values))
    };
    let child = arrow::compute::cast(&child, &element).expect("cast");
    let nulls = NullBuffer::from((0..rows).map(|_| b.byte() >= 16).collect::<Vec<_>>());
    let field = tensor.to_field("t");
    let DataType::FixedSizeList(item, _) = tensor.storage_type() else {
        unreachable!()
    };
    let array = FixedSizeListArray::new(item, size as i32, child, Some(nulls));
    (field, Arc::new(array))
}

/// A variable-shape column made from `x` without reading more bytes: row `r` has `x`'s
/// physical shape with its first dimension one shorter when `r` is odd (and it is not 0),
/// the first values of `x`'s row, `x`'s permutation and NULL rows.
fn ragged_column(x_type: &TensorType, x: &FixedSizeListArray) -> (Field, ArrayRef) {
    let physical = x_type.physical_shape();
    let v_type = VariableShapeType::new(x_type.element_type().clone(), physical.len())
        .expect("an element type")
        .with_permutation(x_type.permutation().map(<[usize]>::to_vec))
        .expect("x's permutation");
    let size = x_type.size();
    let (mut shapes, mut lengths, mut positions) = (Vec::new(), Vec::new(), Vec::new());
    for r in 0..x.len() {
        let mut shape = physical.to_vec();
        if let Some(first) = shape.first_mut() {
            *first = first.saturating_sub(r % 2);
        }
        let len: usize = shape.iter().product();
        positions.extend((r * size..r * size + len).map(|i| i as u32));
        shapes.extend(shape.iter().map(|&d| d as i32));
        lengths.push(len);
    }
    let values = arrow::compute::take(x.values(), &UInt32Array::from(positions), None)
        .expect("positions within x");
    let nulls = x.nulls().cloned();
    let array =
        datafusion_tensor::kernels::ragged::from_rows(&v_type, values, &lengths, shapes, nulls)
            .expect("a consistent variable-shape column");
    (v_type.to_field("v"), Arc::new(array))
}

fn int_column(b: &mut Bytes, rows: usize) -> ArrayRef {
    Arc::new(Int64Array::from(
        (0..rows)
            .map(|_| if b.byte() < 16 { None } else { Some(b.int()) })
            .collect::<Vec<_>>(),
    ))
}

fn list_column(b: &mut Bytes, rows: usize) -> ArrayRef {
    let mut lens = Vec::new();
    let mut values = Vec::new();
    for _ in 0..rows {
        let n = b.below(5);
        lens.push(n);
        values.extend((0..n).map(|_| b.int()));
    }
    let field = Arc::new(Field::new("item", DataType::Int64, true));
    Arc::new(ListArray::new(
        field,
        OffsetBuffer::from_lengths(lens),
        Arc::new(Int64Array::from(values)),
        None,
    ))
}

/// The table every query reads: `x`, `c` (a second tensor, same or other shape), `a` (an
/// integer tensor of `x`'s logical shape, small values), `idx` (an integer tensor [m] or
/// [m, k]), `i`, `j` (integer columns), `y` (Float64), `l` (a list of integers per row), `v`
/// (a variable-shape tensor made from `x`).
pub fn table(b: &mut Bytes) -> RecordBatch {
    let rows = b.below(5);
    let (xf, x) = tensor_column(b, rows, None, None);
    let x_type = TensorType::from_field(&xf).unwrap().unwrap();
    let (vf, v) = ragged_column(&x_type, x.as_fixed_size_list());
    let (cf, c) = if b.flag() {
        tensor_column(
            b,
            rows,
            Some(x_type.element_type().clone()),
            Some(x_type.logical_shape()),
        )
    } else {
        tensor_column(b, rows, None, None)
    };
    let a_type = [
        DataType::Int8,
        DataType::Int32,
        DataType::Int64,
        DataType::UInt8,
    ][b.below(4)]
    .clone();
    let (af, a) = tensor_column(b, rows, Some(a_type), Some(x_type.logical_shape()));
    let idx_shape = if b.flag() {
        vec![b.below(4)]
    } else {
        vec![b.below(4), 1 + b.below(3)]
    };
    let (idxf, idx) = tensor_column(b, rows, Some(DataType::Int64), Some(idx_shape));
    let y: ArrayRef = Arc::new(Float64Array::from(
        (0..rows)
            .map(|_| {
                if b.byte() < 16 {
                    None
                } else {
                    Some(b.int() as f64)
                }
            })
            .collect::<Vec<_>>(),
    ));
    let fields = vec![
        xf.with_name("x"),
        cf.with_name("c"),
        af.with_name("a"),
        idxf.with_name("idx"),
        Field::new("i", DataType::Int64, true),
        Field::new("j", DataType::Int64, true),
        Field::new("y", DataType::Float64, true),
        Field::new("l", DataType::new_list(DataType::Int64, true), true),
        vf,
    ];
    let i = int_column(b, rows);
    let j = int_column(b, rows);
    let l = list_column(b, rows);
    RecordBatch::try_new(
        Arc::new(Schema::new(fields)),
        vec![x, c, a, idx, i, j, y, l, v],
    )
    .expect("a consistent batch")
}

fn number(b: &mut Bytes) -> String {
    match b.below(8) {
        0 => "NULL".into(),
        1 => format!("{}.5", b.int()),
        2 => "1e308".into(),
        3 => "'nan'::double".into(),
        4 => "true".into(),
        _ => b.int().to_string(),
    }
}

fn mode(b: &mut Bytes, modes: &[&str]) -> String {
    match b.below(6) {
        0 => String::new(),
        1 => ", NULL".into(),
        2 => format!(", '{}'", b.text(8).replace('\'', "")),
        3 => format!(", mode => '{}'", b.pick(modes)),
        _ => format!(", '{}'", b.pick(modes)),
    }
}

fn tensor_arg(b: &mut Bytes) -> String {
    b.pick(&[
        "x", "c", "a", "idx", "i", "y", "l", "NULL", "1", "[1, 2]", "v",
    ])
    .into()
}

fn index_arg(b: &mut Bytes) -> String {
    match b.below(8) {
        0 => b.int().to_string(),
        1 => int_list(b, 1),
        2 => int_list(b, 2),
        3 => b.pick(&["i", "l", "idx", "a", "x", "NULL", "y"]).into(),
        _ => format!("'{}'", index_string(b).replace('\'', "")),
    }
}

/// The queries of one input.
pub fn queries(b: &mut Bytes, family: Family) -> Vec<String> {
    let count = 1 + b.below(3);
    (0..count)
        .map(|_| {
            let call = match family {
                Family::Choose => {
                    let a = b.pick(&["a", "a", "x", "i", "idx", "2", "NULL", "c", "[0, 1]", "v"]);
                    let n = if b.byte() == 255 { 300 } else { 1 + b.below(4) };
                    let choices: Vec<String> = (0..n)
                        .map(|_| match b.below(3) {
                            0 => number(b),
                            _ => tensor_arg(b),
                        })
                        .collect();
                    format!(
                        "tensor_choose({a}, {}{})",
                        choices.join(", "),
                        mode(b, &["raise", "wrap", "clip"])
                    )
                }
                Family::Get => match b.below(9) {
                    0..=2 => format!(
                        "tensor_get({}, '{}')",
                        tensor_arg(b),
                        index_string(b).replace('\'', "")
                    ),
                    3 => {
                        let n = 1 + b.below(3);
                        let args: Vec<String> = (0..n)
                            .map(|_| b.pick(&["i", "j", "NULL", "y", "0", "-1", "l"]).to_string())
                            .collect();
                        format!("tensor_get({}, {})", tensor_arg(b), args.join(", "))
                    }
                    4 => format!(
                        "tensor_take_along_axis({}, {}, {})",
                        tensor_arg(b),
                        tensor_arg(b),
                        b.pick(&[
                            "0",
                            "1",
                            "-1",
                            "2",
                            "NULL",
                            "i",
                            "99",
                            "-9223372036854775808"
                        ])
                    ),
                    5 => format!(
                        "tensor_put_along_axis({}, {}, {}, {})",
                        tensor_arg(b),
                        tensor_arg(b),
                        number(b),
                        b.pick(&["0", "1", "-1", "NULL", "3"])
                    ),
                    6 => format!("tensor_reshape({}, {})", tensor_arg(b), int_list(b, 1)),
                    7 => format!(
                        "tensor({}, {})",
                        b.pick(&["l", "[1, 2, 3, 4]", "[]", "NULL"]),
                        int_list(b, 1)
                    ),
                    _ => format!(
                        "{}({})",
                        b.pick(&[
                            "tensor_to_list",
                            "tensor_to_string",
                            "tensor_shape",
                            "tensor_ndim",
                            "tensor_size",
                            "tensor_to_variable",
                            "tensor_to_fixed"
                        ]),
                        tensor_arg(b)
                    ),
                },
                Family::At => {
                    let op = b.pick(&[
                        "set", "add", "subtract", "multiply", "divide", "power", "min", "max",
                        "get", "apply",
                    ]);
                    let x = b.pick(&["x", "x", "c", "a", "NULL", "i"]);
                    let idx = index_arg(b);
                    let modes = ["promise_in_bounds", "clip", "drop", "fill", "raise"];
                    let m = mode(b, &modes);
                    let tail = match b.below(4) {
                        0 => format!(
                            ", {}, {}",
                            b.pick(&["true", "false", "NULL"]),
                            b.pick(&["true", "false", "NULL", "1"])
                        ),
                        _ => String::new(),
                    };
                    let opts = if m.is_empty() {
                        String::new()
                    } else {
                        format!("{m}{tail}")
                    };
                    match op {
                        "get" => {
                            let fill = if m.is_empty() || !b.flag() {
                                String::new()
                            } else if m.contains("=>") {
                                format!(", fill_value => {}", number(b))
                            } else {
                                format!(", {}", number(b))
                            };
                            format!("tensor_at_get({x}, {idx}{m}{fill})")
                        }
                        "apply" => {
                            let f = b.pick(&[
                                "'negative'",
                                "'abs'",
                                "'square'",
                                "'sqrt'",
                                "'log'",
                                "'exp'",
                                "'round'",
                                "v -> v * 2",
                                "v -> v + y",
                                "'nope'",
                                "NULL",
                            ]);
                            let m = m.replace("mode => ", "");
                            format!("tensor_at_apply({x}, {idx}, {f}{m})")
                        }
                        _ => {
                            let y = match b.below(3) {
                                0 => number(b),
                                _ => tensor_arg(b),
                            };
                            format!("tensor_at_{op}({x}, {idx}, {y}{opts})")
                        }
                    }
                }
                Family::Math => math_call(b),
                Family::Aggregate => return aggregate_query(b),
            };
            format!("SELECT {call} FROM t")
        })
        .collect()
}

/// An operand of an elementwise function: a tensor, a column, a list, a number.
fn math_operand(b: &mut Bytes) -> String {
    match b.below(4) {
        0 => number(b),
        _ => tensor_arg(b),
    }
}

/// An `axis` argument: an integer (maybe out of bounds or repeated), a list, NULL, a column.
fn axis_arg(b: &mut Bytes) -> String {
    match b.below(6) {
        0 => "NULL".into(),
        1 => int_list(b, 1),
        2 => b.pick(&["i", "y", "'0'", "1.5"]).into(),
        _ => (b.below(7) as i64 - 3).to_string(),
    }
}

/// A call of the tensor math (spec.md §9): operators, binary and unary functions, reductions,
/// casts, lambdas and shape functions, with random operands and options.
fn math_call(b: &mut Bytes) -> String {
    match b.below(13) {
        0 | 1 => {
            let op = b.pick(&["+", "-", "*", "/", "%", "=", "<>", "<", "<=", ">", ">="]);
            format!("{} {op} {}", math_operand(b), math_operand(b))
        }
        2 => {
            let f = b.pick(&[
                "add",
                "subtract",
                "multiply",
                "divide",
                "floor_divide",
                "mod",
                "power",
                "maximum",
                "minimum",
                "equal",
                "not_equal",
                "less",
                "less_equal",
                "greater",
                "greater_equal",
                "logical_and",
                "logical_or",
                "logical_xor",
            ]);
            format!("tensor_{f}({}, {})", math_operand(b), math_operand(b))
        }
        3 => format!(
            "tensor_where({}, {}, {})",
            math_operand(b),
            math_operand(b),
            math_operand(b)
        ),
        4 => {
            let f = b.pick(&[
                "negative",
                "abs",
                "sign",
                "square",
                "sqrt",
                "exp",
                "log",
                "log1p",
                "expm1",
                "sin",
                "cos",
                "tan",
                "tanh",
                "arctan",
                "floor",
                "ceil",
                "isnan",
                "isinf",
                "isfinite",
                "logical_not",
            ]);
            format!("tensor_{f}({})", tensor_arg(b))
        }
        5 => match b.below(3) {
            0 => format!("tensor_round({}, {})", tensor_arg(b), number(b)),
            1 => format!(
                "tensor_clip({}, {}, {})",
                tensor_arg(b),
                number(b),
                number(b)
            ),
            _ => format!(
                "tensor_astype({}, '{}')",
                tensor_arg(b),
                b.pick(&[
                    "bool",
                    "int8",
                    "int16",
                    "int32",
                    "int64",
                    "uint8",
                    "uint16",
                    "uint32",
                    "uint64",
                    "float16",
                    "float32",
                    "float64",
                    "complex64",
                    "nope"
                ])
            ),
        },
        6 | 7 => {
            let f = b.pick(&[
                "sum", "prod", "mean", "min", "max", "argmin", "argmax", "any", "all", "var",
                "std", "cumsum", "cumprod",
            ]);
            match b.below(4) {
                0 => format!("tensor_{f}({})", tensor_arg(b)),
                1 => format!("tensor_{f}({}, {})", tensor_arg(b), axis_arg(b)),
                2 => format!(
                    "tensor_{f}({}, axis => {}, keepdims => {})",
                    tensor_arg(b),
                    axis_arg(b),
                    b.pick(&["true", "false", "NULL"])
                ),
                _ => format!(
                    "tensor_{f}({}, {}, {}, {})",
                    tensor_arg(b),
                    axis_arg(b),
                    b.pick(&["true", "false"]),
                    number(b)
                ),
            }
        }
        8 => match b.below(6) {
            0 => format!("tensor_transpose({})", tensor_arg(b)),
            1 => format!("tensor_transpose({}, {})", tensor_arg(b), int_list(b, 1)),
            2 => format!(
                "tensor_{}({}, {})",
                b.pick(&["squeeze", "expand_dims", "flip"]),
                tensor_arg(b),
                axis_arg(b)
            ),
            3 => format!("tensor_broadcast_to({}, {})", tensor_arg(b), int_list(b, 1)),
            4 => {
                let n = 1 + b.below(3);
                let args: Vec<String> = (0..n).map(|_| tensor_arg(b)).collect();
                format!(
                    "tensor_{}({}, axis => {})",
                    b.pick(&["concatenate", "stack"]),
                    args.join(", "),
                    axis_arg(b)
                )
            }
            _ => format!("tensor_flatten({})", tensor_arg(b)),
        },
        10 => linalg_call(b),
        11 | 12 => array_api_call(b),
        _ => match b.below(3) {
            0 => format!(
                "CAST({} AS {})",
                tensor_arg(b),
                b.pick(&[
                    "DOUBLE",
                    "REAL",
                    "INT",
                    "TINYINT",
                    "BOOLEAN",
                    "SMALLINT UNSIGNED"
                ])
            ),
            _ => format!(
                "tensor_map({}, {})",
                tensor_arg(b),
                b.pick(&[
                    "v -> v * 2",
                    "v -> v + y",
                    "v -> -v",
                    "v -> v / 0",
                    "'abs'",
                    "NULL"
                ])
            ),
        },
    }
}

/// A query of the aggregates over rows (spec.md §10): every `tensor_agg_*` on a random
/// argument, with `ddof`, `FILTER`, `ORDER BY` in the call, `DISTINCT`, `GROUP BY` and window
/// frames (running and sliding).
fn aggregate_query(b: &mut Bytes) -> String {
    let f = b.pick(&[
        "sum", "mean", "min", "max", "prod", "var", "std", "stack", "cov", "corrcoef",
    ]);
    let arg = tensor_arg(b);
    let call = match b.below(6) {
        0 => format!("tensor_agg_{f}({arg}, {})", number(b)),
        1 => format!("tensor_agg_{f}(DISTINCT {arg})"),
        2 => format!(
            "tensor_agg_{f}({arg} ORDER BY {} DESC)",
            b.pick(&["i", "j", "y"])
        ),
        3 => format!("tensor_agg_{f}({arg}) FILTER (WHERE i > {})", b.int()),
        _ => format!("tensor_agg_{f}({arg})"),
    };
    match b.below(5) {
        0 => format!("SELECT i, {call} FROM t GROUP BY i"),
        1 => format!("SELECT {call} OVER (PARTITION BY j ORDER BY i) FROM t"),
        2 => format!(
            "SELECT {call} OVER (ORDER BY i ROWS BETWEEN {} PRECEDING AND CURRENT ROW) FROM t",
            b.below(3)
        ),
        _ => format!("SELECT {call} FROM t"),
    }
}

/// A call of the linear algebra (spec.md §10): products, diagonals, einsum, norms, the vector
/// measures and numpy.linalg's per-matrix functions, with random operands (numbers too) and
/// options.
fn linalg_call(b: &mut Bytes) -> String {
    match b.below(7) {
        0 => format!(
            "tensor_{}({}, {})",
            b.pick(&["matmul", "dot", "inner", "outer"]),
            tensor_arg(b),
            math_operand(b)
        ),
        1 => format!(
            "tensor_tensordot({}, {}, {})",
            tensor_arg(b),
            tensor_arg(b),
            b.pick(&[
                "0",
                "1",
                "2",
                "-1",
                "[1, 0]",
                "[[0, 1], [1, 0]]",
                "[[0], [5]]",
                "NULL"
            ])
        ),
        2 => format!(
            "tensor_{}({}, {}, {}, {})",
            b.pick(&["trace", "diagonal"]),
            tensor_arg(b),
            b.below(7) as i64 - 3,
            b.below(5) as i64 - 2,
            b.below(5) as i64 - 2
        ),
        3 => {
            let subscripts = b.pick(&[
                "ij,jk->ik",
                "...i,...i",
                "ii",
                "i,j",
                "bij,bjk->bik",
                "ij->ji",
                "i...->...",
                "ij,jk",
                "->",
                "i,i->i",
            ]);
            let n = 1 + b.below(3);
            let args: Vec<String> = (0..n).map(|_| tensor_arg(b)).collect();
            format!("tensor_einsum('{subscripts}', {})", args.join(", "))
        }
        4 => format!(
            "tensor_norm({}, {}, {}, {})",
            tensor_arg(b),
            b.pick(&[
                "NULL", "1", "2", "-1", "-2", "0", "'inf'", "'-inf'", "'fro'", "'nuc'", "0.5", "3",
                "'x'"
            ]),
            axis_arg(b),
            b.pick(&["true", "false", "NULL"])
        ),
        5 => decompose_call(b),
        _ => format!(
            "tensor_{}({}, {}, {})",
            b.pick(&["inner_product", "l2_distance", "cosine_similarity"]),
            tensor_arg(b),
            tensor_arg(b),
            axis_arg(b)
        ),
    }
}

/// A call of the array API standard's functions added beside numpy's older ones: the
/// manipulations, cumulative functions, diff, divmod, vecdot, cross, kron, searching, top-k,
/// sets, counting, joining, splitting, broadcasting (`broadcast_arrays`, `meshgrid`) and
/// creation functions, with random operands and options (of any shape
/// and type, so that their errors are drawn too).
fn array_api_call(b: &mut Bytes) -> String {
    let option = |b: &mut Bytes| -> String {
        b.pick(&[
            "0",
            "1",
            "-1",
            "2",
            "7",
            "-100",
            "NULL",
            "[1, 2]",
            "[0, -1]",
            "[[1, 0], [2, 1]]",
            "1000000000000",
            "2.5",
            "true",
            "'x'",
            "[]",
        ])
        .into()
    };
    match b.below(11) {
        0 => format!(
            "tensor_{}({}, {}, {})",
            b.pick(&[
                "roll",
                "repeat",
                "take",
                "pad",
                "tile",
                "diff",
                "topk",
                "split",
                "array_split"
            ]),
            tensor_arg(b),
            option(b),
            option(b)
        ),
        1 => format!(
            "tensor_pad({}, {}, {}, {})",
            tensor_arg(b),
            option(b),
            b.pick(&[
                "'constant'",
                "'edge'",
                "'reflect'",
                "'symmetric'",
                "'wrap'",
                "'mean'"
            ]),
            option(b)
        ),
        2 => format!(
            "tensor_{}({}, {}, {})",
            b.pick(&[
                "tril",
                "triu",
                "cumulative_sum",
                "cumulative_prod",
                "nonzero"
            ]),
            tensor_arg(b),
            option(b),
            b.pick(&["true", "false", "NULL"])
        ),
        3 => format!(
            "tensor_{}({}, {})",
            b.pick(&[
                "divmod",
                "vecdot",
                "searchsorted",
                "hstack",
                "vstack",
                "concat",
                "cross",
                "kron",
                "broadcast_arrays",
                "meshgrid"
            ]),
            tensor_arg(b),
            tensor_arg(b)
        ),
        4 => format!(
            "tensor_{}({})",
            b.pick(&[
                "unique_values",
                "unique_counts",
                "unique_inverse",
                "unique_all",
                "nonzero",
                "bincount",
                "zeros_like",
                "ones_like",
                "unstack",
                "meshgrid"
            ]),
            tensor_arg(b)
        ),
        5 => format!(
            "tensor_topk({}, {}, {}, {})",
            tensor_arg(b),
            option(b),
            option(b),
            b.pick(&["true", "false", "NULL", "1"])
        ),
        6 => format!(
            "tensor_{}({}, {})",
            b.pick(&["bincount", "one_hot", "full_like", "searchsorted"]),
            tensor_arg(b),
            option(b)
        ),
        7 => format!(
            "tensor_{}({}, {})",
            b.pick(&["zeros", "ones", "full", "eye", "arange"]),
            option(b),
            option(b)
        ),
        8 => format!(
            "tensor_{}({}, {}, {})",
            b.pick(&["arange", "linspace", "eye", "full"]),
            option(b),
            option(b),
            option(b)
        ),
        9 => reduction_options_call(b, &option),
        10 if b.flag() => format!(
            "tensor_meshgrid({}, {}, {}, {})",
            tensor_arg(b),
            tensor_arg(b),
            b.pick(&["'xy'", "'ij'", "'x'", "NULL"]),
            b.pick(&["true", "false", "NULL"])
        ),
        _ => format!(
            "tensor_searchsorted({}, {}, {})",
            tensor_arg(b),
            tensor_arg(b),
            b.pick(&["'left'", "'right'", "'middle'", "NULL", "1"])
        ),
    }
}

/// A reduction with numpy's `dtype`, `initial` and `where` (positional, in each function's
/// order), drawn from any operand, option and mask.
fn reduction_options_call(b: &mut Bytes, option: &dyn Fn(&mut Bytes) -> String) -> String {
    let dtype = |b: &mut Bytes| -> String {
        b.pick(&[
            "'bool'",
            "'int8'",
            "'uint64'",
            "'float16'",
            "'float64'",
            "'x'",
            "NULL",
            "1",
        ])
        .into()
    };
    let mask = |b: &mut Bytes| -> String {
        match b.below(3) {
            0 => tensor_arg(b),
            _ => b
                .pick(&[
                    "true",
                    "false",
                    "NULL",
                    "[true, false]",
                    "[[true], [NULL]]",
                    "tensor_greater(x, 0)",
                    "[1, 0]",
                ])
                .into(),
        }
    };
    let x = tensor_arg(b);
    let axis = option(b);
    match b.below(4) {
        0 => format!(
            "tensor_{}({x}, {axis}, NULL, {}, {}, {})",
            b.pick(&["sum", "prod", "nansum", "nanprod"]),
            dtype(b),
            option(b),
            mask(b)
        ),
        1 => format!(
            "tensor_{}({x}, {axis}, {}, {}, {})",
            b.pick(&["min", "max", "nanmin", "nanmax"]),
            b.pick(&["true", "NULL"]),
            b.pick(&["0", "-1.5", "'nan'", "'inf'", "1000", "NULL", "true"]),
            mask(b)
        ),
        2 => format!(
            "tensor_{}({x}, {axis}, NULL, {})",
            b.pick(&["mean", "nanmean", "any", "all"]),
            mask(b)
        ),
        _ => format!(
            "tensor_{}({x}, {axis}, {})",
            b.pick(&["cumsum", "cumprod"]),
            dtype(b)
        ),
    }
}

/// A call of numpy.linalg's per-matrix functions (`tensor_det` ... `tensor_matrix_power`):
/// random operands (of any shape, so that numpy's shape errors are drawn too) and options.
fn decompose_call(b: &mut Bytes) -> String {
    // The table's columns, and square matrices: singular, with a NaN, huge, a batch, empty.
    let tensor_arg = |b: &mut Bytes| -> String {
        match b.below(3) {
            0 => tensor_arg(b),
            _ => b
                .pick(&[
                    "[[1.0, 2.0], [3.0, 4.0]]",
                    "[[1, 2, 3], [4, 5, 6], [7, 8, 9]]",
                    "tensor([1.0, CAST('NaN' AS DOUBLE), 0.0, 1.0], [2, 2])",
                    "tensor([1e308, 1e308, 1e308, -1e308], [2, 2])",
                    "tensor([2.0, 0.0, 0.0, 2.0, 1.0, 1.0, 1.0, 1.0], [2, 2, 2])",
                    "tensor(arrow_cast([], 'List(Float64)'), [0, 0])",
                    "[[true, false], [false, true]]",
                    "[1.0, 2.0]",
                ])
                .into(),
        }
    };
    match b.below(4) {
        0 => format!(
            "tensor_{}({})",
            b.pick(&[
                "det", "slogdet", "inv", "eig", "eigvals", "svdvals", "cholesky", "eigvalsh"
            ]),
            tensor_arg(b)
        ),
        1 => format!(
            "tensor_{}({}, {})",
            b.pick(&["solve", "lstsq"]),
            tensor_arg(b),
            tensor_arg(b)
        ),
        2 => format!(
            "tensor_matrix_power({}, {})",
            tensor_arg(b),
            b.pick(&["0", "1", "2", "3", "-1", "-2", "7", "2.5", "NULL"])
        ),
        _ => format!(
            "tensor_{}({}, {})",
            b.pick(&["qr", "svd", "eigh", "pinv", "matrix_rank"]),
            tensor_arg(b),
            b.pick(&[
                "'reduced'",
                "'complete'",
                "'r'",
                "'raw'",
                "'U'",
                "'L'",
                "true",
                "false",
                "NULL",
                "0.5",
                "1e-300"
            ])
        ),
    }
}

thread_local! {
    static RUNTIME: tokio::runtime::Runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a tokio runtime");
    static CONTEXT: SessionContext = {
        let config = datafusion_tensor::session_config().with_target_partitions(1);
        datafusion_tensor::tensor_session_context_with_config(config).expect("a context")
    };
}

/// The SQL targets: the table and queries of `data`, each run to a result or an error.
/// Returns each query with its outcome (`Ok` row count or the error's text), for the replay.
pub fn run_sql(data: &[u8], family: Family) -> Vec<(String, Result<usize, String>)> {
    let mut b = Bytes::new(data);
    let batch = table(&mut b);
    let queries = queries(&mut b, family);
    if std::env::var_os("FUZZ_SHOW").is_some() {
        // What an input means: FUZZ_SHOW=1 cargo test --test fuzz_replay
        eprintln!("{batch:?}\n{queries:#?}");
    }
    CONTEXT.with(|ctx| {
        RUNTIME.with(|rt| {
            let _ = ctx.deregister_table("t");
            ctx.register_batch("t", batch).expect("register the table");
            queries
                .into_iter()
                .map(|sql| {
                    let outcome = rt.block_on(async {
                        let df = ctx.sql(&sql).await?;
                        let batches = df.collect().await?;
                        Ok::<_, datafusion::error::DataFusionError>(
                            batches.iter().map(RecordBatch::num_rows).sum(),
                        )
                    });
                    (sql, outcome.map_err(|e| e.to_string()))
                })
                .collect()
        })
    })
}

/// The tensor file readers (`read_npy`, `read_npz`, `read_safetensors`) on the file whose
/// bytes follow the first (which picks the format): every row and column read. A bad file
/// must be an error, never a panic or an allocation the file's bytes do not bound.
pub fn tensor_files(data: &[u8]) -> Vec<(String, Result<usize, String>)> {
    let Some((&pick, bytes)) = data.split_first() else {
        return Vec::new();
    };
    let (function, extension) = [
        ("read_npy", "npy"),
        ("read_npz", "npz"),
        ("read_safetensors", "safetensors"),
    ][usize::from(pick) % 3];
    let path = std::env::temp_dir().join(format!(
        "datafusion-tensor-fuzz-{}-{:?}.{extension}",
        std::process::id(),
        std::thread::current().id()
    ));
    std::fs::write(&path, bytes).expect("write the input file");
    let location = path.display().to_string();
    let queries = [
        format!("SELECT * FROM {function}('{location}')"),
        format!("SELECT count(*) FROM {function}('{location}')"),
    ];
    let results = run_queries(queries);
    let _ = std::fs::remove_file(&path);
    results
}

/// `read_zarr` on a store made of the input: its first byte picks Zarr v3 or v2 (bit 0) and
/// the dimensions of chunk 0's key (1, 2 or 3: the rest divided by 2, modulo 3), the bytes up
/// to the next 0 are the array's metadata (`zarr.json` or `.zarray`), the rest chunk 0's
/// bytes. Rows are read up to a `LIMIT` (a shape
/// may declare any number of chunks never written) and counted. Bad metadata or chunks must be
/// an error, never a panic.
pub fn zarr_store(data: &[u8]) -> Vec<(String, Result<usize, String>)> {
    let Some((&pick, rest)) = data.split_first() else {
        return Vec::new();
    };
    let (metadata, chunk) = match rest.iter().position(|&b| b == 0) {
        Some(at) => (&rest[..at], &rest[at + 1..]),
        None => (rest, &[][..]),
    };
    let dir = std::env::temp_dir().join(format!(
        "datafusion-tensor-fuzz-zarr-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    let (name, keys) = if pick % 2 == 0 {
        ("zarr.json", ["c/0", "c/0/0", "c/0/0/0"])
    } else {
        (".zarray", ["0", "0.0", "0.0.0"])
    };
    let key = dir.join(keys[usize::from(pick / 2) % 3]);
    std::fs::create_dir_all(key.parent().expect("a parent")).expect("make the store");
    std::fs::write(dir.join(name), metadata).expect("write the metadata");
    std::fs::write(&key, chunk).expect("write the chunk");
    let location = dir.display().to_string();
    let queries = [
        format!("SELECT * FROM read_zarr('{location}') LIMIT 64"),
        format!("SELECT count(*) FROM read_zarr('{location}')"),
    ];
    let results = run_queries(queries);
    let _ = std::fs::remove_dir_all(&dir);
    results
}

/// Each query's rows, or its error, run in this thread's context.
fn run_queries(queries: impl IntoIterator<Item = String>) -> Vec<(String, Result<usize, String>)> {
    CONTEXT.with(|ctx| {
        RUNTIME.with(|rt| {
            queries
                .into_iter()
                .map(|sql| {
                    let outcome = rt.block_on(async {
                        let batches = ctx.sql(&sql).await?.collect().await?;
                        Ok::<_, datafusion::error::DataFusionError>(
                            batches.iter().map(RecordBatch::num_rows).sum(),
                        )
                    });
                    (sql, outcome.map_err(|e| e.to_string()))
                })
                .collect()
        })
    })
}
