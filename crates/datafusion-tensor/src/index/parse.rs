//! The index-expression parser: numpy's indexing grammar in a string, into plain data.
//!
//! ```text
//! index  := items | '(' [items] ')'                 (numpy's tuple: x[(1, 0)] is x[1, 0])
//! items  := item (',' item)* [',']
//! item   := '...' | 'None' | 'newaxis' | 'np.newaxis' | 'True' | 'False'
//!         | int | [int] ':' [int] [':' [int]] | list | '(' item ')'
//! list   := '[' [elem (',' elem)* [',']] ']' | tuple  (nested: multi-dimensional arrays)
//! tuple  := '(' [elem ',' [elem (',' elem)* [',']]] ')'  (a sequence, as a list)
//! elem   := int | 'True' | 'False' | list | '(' elem ')'
//! int    := ['+' | '-'] digits                    (no leading zeros, as in Python)
//! ```
//!
//! As in Python, parentheses group (`(1)` is `1`) and a comma makes a tuple; the outermost
//! tuple is the index itself, a tuple inside it is a sequence (numpy reads `x[0, (1, 2)]` as
//! `x[0, [1, 2]]`). A list mixing integers and booleans is an integer array, booleans 0 and 1
//! (`np.array([True, 0])`). Python's own syntax errors stay errors: the empty index (`x[]`),
//! leading zeros (`01`), a slice in parentheses, a comma with nothing before it.
//!
//! Whitespace is free between tokens. A malformed string is an error that names the offending
//! character by position and shows it with a caret under the string.

use std::fmt;

use crate::error::{Result, TensorError};

/// One item of an index expression, as written (not yet checked against a shape).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum IndexItem {
    /// An integer, negative from the end: removes the axis.
    Int(i64),
    /// `start:stop:step`, any part omitted: keeps the axis.
    Slice {
        /// First index (default: the start in the direction of `step`).
        start: Option<i64>,
        /// One past the last index (default: the end in the direction of `step`).
        stop: Option<i64>,
        /// Stride (default 1; never 0 once normalised).
        step: Option<i64>,
    },
    /// `...`: as many `:` as needed.
    Ellipsis,
    /// `None` / `newaxis`: a new axis of length 1.
    NewAxis,
    /// An integer array (advanced index), possibly multi-dimensional.
    IntArray(IndexArray<i64>),
    /// A boolean array (a mask over as many axes as it has dimensions); a bare `True` / `False`
    /// is a 0-d one.
    BoolArray(IndexArray<bool>),
}

/// A rectangular nested list, flattened row-major.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct IndexArray<T> {
    /// Its shape (`[]` for a bare `True` / `False`).
    pub shape: Vec<usize>,
    /// Its values, row-major.
    pub values: Vec<T>,
}

/// A parsed index expression: the items in order.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct IndexExpr {
    /// The items, in order.
    pub items: Vec<IndexItem>,
}

struct Parser<'a> {
    input: &'a str,
    chars: Vec<char>,
    pos: usize,
    /// Inside parentheses, where Python allows no slice.
    no_slices: bool,
    /// How many parentheses that only group enclose the item being read.
    groups: usize,
}

/// How deep lists and parentheses may nest (numpy allows 32 dimensions' worth in practice, and
/// the parser recurses once per level).
const MAX_NESTING: usize = 32;

impl Parser<'_> {
    fn error(&self, message: impl Into<String>) -> TensorError {
        TensorError::Parse {
            position: self.pos,
            message: message.into(),
            input: self.input.to_string(),
        }
    }

    fn skip_ws(&mut self) {
        while self.chars.get(self.pos).is_some_and(|c| c.is_whitespace()) {
            self.pos += 1;
        }
    }

    fn peek(&mut self) -> Option<char> {
        self.skip_ws();
        self.chars.get(self.pos).copied()
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn keyword(&mut self, word: &str) -> bool {
        self.skip_ws();
        let len = word.chars().count();
        let matches = self
            .chars
            .get(self.pos..self.pos + len)
            .is_some_and(|s| s.iter().copied().eq(word.chars()));
        // A whole word: not followed by an identifier character.
        let whole = !self
            .chars
            .get(self.pos + len)
            .is_some_and(|c| c.is_alphanumeric() || *c == '_' || *c == '.');
        if matches && whole {
            self.pos += len;
            true
        } else {
            false
        }
    }

    /// Whether the digits just read go on as a float literal (`1.5`, `1.`, `1e3`; not `1..`).
    fn float_follows(&self) -> bool {
        match self.chars.get(self.pos) {
            Some('.') => self.chars.get(self.pos + 1) != Some(&'.'),
            Some('e' | 'E') => self
                .chars
                .get(self.pos + 1)
                .is_some_and(|c| c.is_ascii_digit() || *c == '+' || *c == '-'),
            _ => false,
        }
    }

    /// The position after the float literal whose digits end at `self.pos`.
    fn float_end(&self) -> usize {
        let mut end = self.pos;
        let digits = |end: &mut usize| {
            while self.chars.get(*end).is_some_and(char::is_ascii_digit) {
                *end += 1;
            }
        };
        if self.chars.get(end) == Some(&'.') {
            end += 1;
            digits(&mut end);
        }
        if matches!(self.chars.get(end), Some('e' | 'E')) {
            end += 1;
            if matches!(self.chars.get(end), Some('+' | '-')) {
                end += 1;
            }
            digits(&mut end);
        }
        end
    }

    /// An integer, if one starts here. A float is numpy's error: in a slice (`in_slice`, or
    /// a start followed by `:`) Python's `TypeError`, elsewhere numpy's `IndexError`.
    fn int(&mut self, in_slice: bool) -> Result<Option<i64>> {
        self.skip_ws();
        let start = self.pos;
        let mut negative = false;
        if let Some(sign @ ('+' | '-')) = self.chars.get(self.pos).copied() {
            negative = sign == '-';
            self.pos += 1;
            self.skip_ws();
        }
        let digits_start = self.pos;
        while self.chars.get(self.pos).is_some_and(char::is_ascii_digit) {
            self.pos += 1;
        }
        if self.pos == digits_start {
            if self.pos != start {
                return Err(self.error("expected digits after the sign"));
            }
            return Ok(None);
        }
        if self.float_follows() {
            let mut after = self.float_end();
            while self.chars.get(after).is_some_and(|c| c.is_whitespace()) {
                after += 1;
            }
            self.pos = start;
            return Err(self.error(if in_slice || self.chars.get(after) == Some(&':') {
                "slice indices must be integers or None or have an __index__ method"
            } else {
                "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean arrays are valid indices"
            }));
        }
        let digits: String = self.chars[digits_start..self.pos].iter().collect();
        if digits.len() > 1 && digits.starts_with('0') && digits.contains(|c| c != '0') {
            self.pos = digits_start;
            return Err(self.error(
                "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers",
            ));
        }
        let text = if negative {
            format!("-{digits}")
        } else {
            digits
        };
        match text.parse::<i64>() {
            Ok(v) => Ok(Some(v)),
            // Python clamps slice bounds of any size to the axis: `0:10**20` is the whole axis
            // (the clamped value gives the same slice, and a step of that size one element).
            Err(_) if in_slice || self.peek() == Some(':') => {
                Ok(Some(if negative { -i64::MAX } else { i64::MAX }))
            }
            Err(_) => {
                self.pos = start;
                Err(self.error(format!("integer {text} does not fit a 64-bit index")))
            }
        }
    }

    fn item(&mut self) -> Result<IndexItem> {
        if self.peek() == Some('.') {
            if self.chars.get(self.pos..self.pos + 3) == Some(&['.', '.', '.']) {
                self.pos += 3;
                return Ok(IndexItem::Ellipsis);
            }
            return Err(self.error("expected '...'"));
        }
        if self.keyword("None") || self.keyword("newaxis") || self.keyword("np.newaxis") {
            // `None:2` is a slice whose start is omitted, as in Python.
            if self.no_slices && self.peek() == Some(':') {
                return Err(self.error("invalid syntax: a slice cannot stand in parentheses"));
            }
            if self.eat(':') {
                return self.slice_rest(None);
            }
            return Ok(IndexItem::NewAxis);
        }
        if self.keyword("True") {
            return Ok(IndexItem::BoolArray(IndexArray {
                shape: vec![],
                values: vec![true],
            }));
        }
        if self.keyword("False") {
            return Ok(IndexItem::BoolArray(IndexArray {
                shape: vec![],
                values: vec![false],
            }));
        }
        if self.peek() == Some('[') {
            return self.list();
        }
        if self.peek() == Some('(') {
            return self.parenthesized();
        }
        let start = self.int(false)?;
        if self.no_slices && self.peek() == Some(':') {
            return Err(self.error("invalid syntax: a slice cannot stand in parentheses"));
        }
        if !self.eat(':') {
            return match start {
                Some(v) => Ok(IndexItem::Int(v)),
                None => {
                    Err(self
                        .error("expected an integer, a slice, '...', None, True, False or a list"))
                }
            };
        }
        self.slice_rest(start)
    }

    /// An item in parentheses: one item grouped (`(1)`, `(...)`), or a tuple, which numpy
    /// reads as a sequence (`(1, 2)` is `[1, 2]`).
    fn parenthesized(&mut self) -> Result<IndexItem> {
        let open = self.pos;
        let tuple = close_of(&self.chars, open).is_none_or(|(_, comma)| comma);
        if tuple {
            return self.list();
        }
        if self.groups >= MAX_NESTING {
            return Err(self.error("index lists nest at most 32 deep"));
        }
        self.pos += 1;
        self.groups += 1;
        let no_slices = std::mem::replace(&mut self.no_slices, true);
        let item = self.item()?;
        self.no_slices = no_slices;
        self.groups -= 1;
        if !self.eat(')') {
            return Err(self.error("expected ')'"));
        }
        Ok(item)
    }

    /// The rest of a slice after its start and first `:`.
    fn slice_rest(&mut self, start: Option<i64>) -> Result<IndexItem> {
        let stop = self.slice_bound()?;
        let step = if self.eat(':') {
            self.slice_bound()?
        } else {
            None
        };
        Ok(IndexItem::Slice { start, stop, step })
    }

    /// A slice's stop or step: an integer, `None` (omitted, as in Python) or nothing.
    fn slice_bound(&mut self) -> Result<Option<i64>> {
        if self.keyword("None") {
            return Ok(None);
        }
        self.int(true)
    }

    fn list(&mut self) -> Result<IndexItem> {
        let node = self.node(0)?;
        // Shape from the first element at each depth; then every list must agree.
        let mut shape = Vec::new();
        let mut probe = &node;
        while let Node::List(children, _) = probe {
            shape.push(children.len());
            match children.first() {
                Some(first) => probe = first,
                None => break,
            }
        }
        let mut values = Vec::new();
        self.flatten(&node, 0, &shape, &mut values)?;
        if values.iter().all(|v| matches!(v, Node::Bool(..))) && !values.is_empty() {
            let bools = values
                .iter()
                .map(|v| matches!(v, Node::Bool(true, _)))
                .collect();
            return Ok(IndexItem::BoolArray(IndexArray {
                shape,
                values: bools,
            }));
        }
        // Integers, or integers and booleans mixed: an integer array, booleans 0 and 1, as
        // numpy's np.array([True, 0]). An empty list `[]` is an (empty) integer array, as
        // numpy's np.array([], intp).
        let ints = values
            .iter()
            .map(|v| match v {
                Node::Int(i, _) => *i,
                Node::Bool(b, _) => i64::from(*b),
                Node::List(..) => 0,
            })
            .collect();
        Ok(IndexItem::IntArray(IndexArray {
            shape,
            values: ints,
        }))
    }

    /// A list or element, with the position where it starts.
    fn node(&mut self, depth: usize) -> Result<Node> {
        self.skip_ws();
        let here = self.pos;
        if self.eat('[') {
            let (children, _) = self.sequence(']', depth, here)?;
            return Ok(Node::List(children, here));
        }
        if self.eat('(') {
            // A tuple is a sequence, as a list; `(x)` without a comma is `x`.
            let (mut children, comma) = self.sequence(')', depth, here)?;
            if children.len() == 1 && !comma {
                return Ok(children.remove(0));
            }
            return Ok(Node::List(children, here));
        }
        if self.keyword("True") {
            return Ok(Node::Bool(true, here));
        }
        if self.keyword("False") {
            return Ok(Node::Bool(false, here));
        }
        match self.int(false)? {
            Some(v) => Ok(Node::Int(v, here)),
            None => Err(self.error("expected an integer, True, False or a list")),
        }
    }

    /// The elements of a list or tuple opened at `here`, up to `close`, and whether a comma
    /// separated them (a trailing one included).
    fn sequence(&mut self, close: char, depth: usize, here: usize) -> Result<(Vec<Node>, bool)> {
        if depth >= MAX_NESTING {
            self.pos = here;
            return Err(self.error("index lists nest at most 32 deep"));
        }
        let mut children = Vec::new();
        let mut comma = false;
        loop {
            if self.eat(close) {
                break;
            }
            if !children.is_empty() {
                if !self.eat(',') {
                    return Err(self.error(format!("expected ',' or '{close}'")));
                }
                comma = true;
                if self.eat(close) {
                    break;
                }
            }
            children.push(self.node(depth + 1)?);
        }
        Ok((children, comma))
    }

    /// The elements of a rectangular `node` of `shape`, row-major, into `values`.
    fn flatten(
        &mut self,
        node: &Node,
        depth: usize,
        shape: &[usize],
        values: &mut Vec<Node>,
    ) -> Result<()> {
        let at = match node {
            Node::List(children, at) => {
                if depth >= shape.len() || children.len() != shape[depth] {
                    self.pos = *at;
                    return Err(self.error(format!(
                        "index list is not rectangular: expected {} here",
                        shape
                            .get(depth)
                            .map_or_else(|| "a number".to_string(), |n| format!("a list of {n}"))
                    )));
                }
                for child in children {
                    self.flatten(child, depth + 1, shape, values)?;
                }
                return Ok(());
            }
            Node::Int(_, at) | Node::Bool(_, at) => *at,
        };
        if depth != shape.len() {
            self.pos = at;
            return Err(self.error(format!(
                "index list is not rectangular: expected a list of {} here",
                shape[depth]
            )));
        }
        values.push(node.clone());
        Ok(())
    }
}

/// A parsed list before it is checked to be rectangular.
#[derive(Clone)]
enum Node {
    List(Vec<Node>, usize),
    Int(i64, usize),
    Bool(bool, usize),
}

/// Parses an index expression such as `"1:3, ..., ::2"` or `"[0, 2], None"`.
pub fn parse_index(input: &str) -> Result<IndexExpr> {
    let mut parser = Parser {
        input,
        chars: input.chars().collect(),
        pos: 0,
        no_slices: false,
        groups: 0,
    };
    if parser.peek().is_none() {
        return Err(parser.error(
            "invalid syntax: the index is empty (Python's x[]); write '()' or '...' for the whole tensor",
        ));
    }
    // The index as one tuple in parentheses, `(1, 0)`, maybe grouped again, `((1, 0))`: the
    // parentheses become spaces (positions in errors stay the input's), and the tuple's items
    // are the index's.
    let mut stripped = 0;
    while let Some(open) = parser.peek().filter(|&c| c == '(').map(|_| parser.pos) {
        if stripped == MAX_NESTING {
            return Err(parser.error("index lists nest at most 32 deep"));
        }
        stripped += 1;
        let Some((close, comma)) = close_of(&parser.chars, open) else {
            break;
        };
        let last =
            |chars: &[char], end: usize| chars[..end].iter().rposition(|c| !c.is_whitespace());
        if last(&parser.chars, parser.chars.len()) != Some(close) {
            break;
        }
        let inner = parser.chars[open + 1..close]
            .iter()
            .position(|c| !c.is_whitespace())
            .map(|i| open + 1 + i);
        let tuple = comma || inner.is_none();
        let grouped_tuple = inner.is_some_and(|i| {
            parser.chars[i] == '('
                && close_of(&parser.chars, i).map(|(c, _)| c) == last(&parser.chars, close)
        });
        if !tuple && !grouped_tuple {
            // `(item)`: the item's own parentheses, read by `item`.
            break;
        }
        parser.chars[open] = ' ';
        parser.chars[close] = ' ';
        parser.no_slices = true;
        if inner.is_none() {
            // `()`: the empty tuple, the whole tensor.
            return Ok(IndexExpr { items: vec![] });
        }
        if tuple {
            break;
        }
    }
    let mut items = Vec::new();
    loop {
        items.push(parser.item()?);
        match parser.peek() {
            None => break,
            Some(',') => {
                parser.pos += 1;
                if parser.peek().is_none() {
                    break;
                }
            }
            Some(c) => return Err(parser.error(format!("unexpected '{c}'"))),
        }
    }
    Ok(IndexExpr { items })
}

/// The position of the `)` that closes the `(` at `open`, and whether a comma stands directly
/// inside the pair (a tuple); `None` when it is not closed.
fn close_of(chars: &[char], open: usize) -> Option<(usize, bool)> {
    let mut depth = 0usize;
    let mut comma = false;
    for (i, &c) in chars.iter().enumerate().skip(open) {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return (c == ')').then_some((i, comma));
                }
            }
            ',' if depth == 1 => comma = true,
            _ => {}
        }
    }
    None
}

fn write_array<T: Copy>(
    f: &mut fmt::Formatter<'_>,
    shape: &[usize],
    values: &[T],
    write: &dyn Fn(&mut fmt::Formatter<'_>, T) -> fmt::Result,
) -> fmt::Result {
    match shape.split_first() {
        None => match values.first() {
            Some(&v) => write(f, v),
            None => Ok(()),
        },
        Some((&len, rest)) => {
            let inner: usize = rest.iter().product();
            f.write_str("[")?;
            for i in 0..len {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write_array(f, rest, &values[i * inner..(i + 1) * inner], write)?;
            }
            f.write_str("]")
        }
    }
}

impl fmt::Display for IndexItem {
    /// numpy syntax: `1`, `1:3`, `::-1`, `...`, `None`, `[0, 2]`, `[True, False]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Int(v) => write!(f, "{v}"),
            Self::Slice { start, stop, step } => {
                if let Some(v) = start {
                    write!(f, "{v}")?;
                }
                f.write_str(":")?;
                if let Some(v) = stop {
                    write!(f, "{v}")?;
                }
                if let Some(v) = step {
                    write!(f, ":{v}")?;
                }
                Ok(())
            }
            Self::Ellipsis => f.write_str("..."),
            Self::NewAxis => f.write_str("None"),
            Self::IntArray(a) => write_array(f, &a.shape, &a.values, &|f, v| write!(f, "{v}")),
            Self::BoolArray(a) => write_array(f, &a.shape, &a.values, &|f, v| {
                f.write_str(if v { "True" } else { "False" })
            }),
        }
    }
}

impl fmt::Display for IndexExpr {
    /// The expression in numpy syntax, items separated by `, `.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, item) in self.items.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{item}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(input: &str) -> String {
        parse_index(input).unwrap().to_string()
    }

    #[test]
    fn slice_bounds_may_be_none_or_any_size() {
        // numpy: x[1:None] == x[1:], x[None:2] == x[:2], x[::None] == x[:]; bounds beyond
        // 64 bits clamp (Python slices take integers of any size).
        assert_eq!(round_trip("1:None"), "1:");
        assert_eq!(round_trip("None:2"), ":2");
        assert_eq!(round_trip("None : None : None"), ":");
        assert_eq!(
            round_trip("0:99999999999999999999"),
            format!("0:{}", i64::MAX)
        );
        assert_eq!(
            round_trip("-99999999999999999999:"),
            format!("{}:", -i64::MAX)
        );
        assert_eq!(
            round_trip("::-99999999999999999999"),
            format!("::{}", -i64::MAX)
        );
        assert_eq!(round_trip("None, 1"), "None, 1");
    }

    #[test]
    fn parses_every_form() {
        assert_eq!(round_trip("1:3, ..., ::2"), "1:3, ..., ::2");
        assert_eq!(round_trip(" -1 , :-2 , ::-1 "), "-1, :-2, ::-1");
        assert_eq!(round_trip("None, newaxis, np.newaxis"), "None, None, None");
        assert_eq!(round_trip("[0, 2], [[1], [-1]]"), "[0, 2], [[1], [-1]]");
        assert_eq!(round_trip("[True, False, True]"), "[True, False, True]");
        assert_eq!(round_trip("True"), "True");
        assert_eq!(round_trip("1:"), "1:");
        assert_eq!(round_trip(":"), ":");
        assert_eq!(round_trip("::"), ":");
        assert_eq!(round_trip("0,"), "0");
        assert_eq!(round_trip("()"), "");
        // numpy's tuple spelling: the outer tuple is the index; inner ones are sequences.
        assert_eq!(round_trip("(1, 0)"), round_trip("1, 0"));
        assert_eq!(round_trip("((1, 0))"), round_trip("1, 0"));
        assert_eq!(round_trip("(..., 1)"), round_trip("..., 1"));
        assert_eq!(round_trip("(1,)"), round_trip("1"));
        assert_eq!(round_trip("(1)"), round_trip("1"));
        assert_eq!(round_trip("0, (...)"), round_trip("0, ..."));
        assert_eq!(round_trip("0, (1, 2)"), round_trip("0, [1, 2]"));
        assert_eq!(round_trip("(0, 1),"), round_trip("[0, 1]"));
        assert_eq!(
            round_trip("[(0, 1), (1, 0)]"),
            round_trip("[[0, 1], [1, 0]]")
        );
        // Integers and booleans mixed: an integer array (np.array([True, 0]) is [1, 0]).
        assert_eq!(round_trip("[True, 0]"), round_trip("[1, 0]"));
        assert_eq!(round_trip("00"), round_trip("0"));
        assert_eq!(round_trip("[]"), "[]");
        assert_eq!(round_trip("[[], []]"), "[[], []]");
        assert_eq!(round_trip("+3"), "3");
        let parsed = parse_index("[[0, 1], [2, 3]]").unwrap();
        assert_eq!(
            parsed.items,
            vec![IndexItem::IntArray(IndexArray {
                shape: vec![2, 2],
                values: vec![0, 1, 2, 3]
            })]
        );
    }

    #[test]
    fn errors_point_at_the_character() {
        let cases = [
            ("1:2:3:", 5, "unexpected ':'"),
            ("1;2", 1, "unexpected ';'"),
            ("[1, 2", 5, "expected ',' or ']'"),
            ("[[1, 2], [3]]", 9, "not rectangular"),
            ("[[1, 2], 3]", 9, "not rectangular"),
            // Python's own syntax errors.
            ("", 0, "the index is empty"),
            ("  ", 2, "the index is empty"),
            (
                "01",
                0,
                "leading zeros in decimal integer literals are not permitted",
            ),
            ("1, -007", 4, "leading zeros"),
            ("(1:2)", 2, "a slice cannot stand in parentheses"),
            ("(1:2, 0)", 2, "a slice cannot stand in parentheses"),
            ("(None:2,)", 5, "a slice cannot stand in parentheses"),
            ("(,)", 1, "expected an integer"),
            (",", 0, "expected an integer"),
            ("0,,", 2, "expected an integer"),
            ("(1, 0", 5, "expected ',' or ')'"),
            // Nesting is bounded (the parser recurses once per level).
            (&"(".repeat(10_000), 32, "nest at most 32 deep"),
            ("abc", 0, "expected an integer"),
            ("1..", 1, "unexpected '.'"),
            ("..", 0, "expected '...'"),
            ("99999999999999999999", 0, "does not fit"),
            ("-", 1, "expected digits"),
            ("0.0", 0, "only integers, slices (`:`), ellipsis"),
            ("0, -1.4", 3, "only integers, slices (`:`), ellipsis"),
            ("[1, 2.5]", 4, "only integers, slices (`:`), ellipsis"),
            ("1e3", 0, "only integers, slices (`:`), ellipsis"),
            ("0.0 :", 0, "slice indices must be integers"),
            (":, 0:4.0:2", 5, "slice indices must be integers"),
            ("::1.", 2, "slice indices must be integers"),
            ("Nonesuch", 0, "expected an integer"),
            ("1:Nonesuch", 2, "unexpected 'N'"),
        ];
        for (input, position, message) in cases {
            let err = parse_index(input).unwrap_err();
            let TensorError::Parse {
                position: at,
                message: what,
                ..
            } = &err
            else {
                panic!("{input}: not a parse error: {err}");
            };
            assert_eq!(*at, position, "{input}: {err}");
            assert!(what.contains(message), "{input}: {err}");
        }
        let shown = parse_index("1;2").unwrap_err().to_string();
        assert!(shown.ends_with("1;2\n   ^"), "{shown}");
    }
}
