//! `numpy.einsum`'s subscripts: parsed once ([`Subscripts::parse`]), then labelled against
//! the operands' shapes ([`Subscripts::labelling`]) with numpy's rules and messages: implicit
//! output (the labels that appear once, in alphabetical order, after the broadcast
//! dimensions), explicit `->`, `...` broadcasting (right-aligned, dimensions of 1 broadcast),
//! repeated labels in one operand (a diagonal), labels summed when the output leaves them out.

use std::fmt::Write;

use super::labelling::{Axis, Labelling};
use super::products::compact_shape;
use crate::error::{Result, TensorError};
use crate::shape::broadcast_shapes;

/// One subscript: a letter, or the `...` of broadcast dimensions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Term {
    /// A label.
    Label(char),
    /// The broadcast dimensions.
    Ellipsis,
}

/// Parsed subscripts.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Subscripts {
    /// One term list per operand.
    pub operands: Vec<Vec<Term>>,
    /// The output after `->` (`None`: implicit).
    pub output: Option<Vec<Term>>,
}

fn error(message: impl Into<String>) -> TensorError {
    TensorError::Shape(message.into())
}

/// The terms of one side (`operand`: its position, for messages; `None` for the output).
fn terms(text: &str, operand: Option<usize>) -> Result<Vec<Term>> {
    let mut out = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    let mut ellipsis = false;
    let place = || match operand {
        Some(k) => format!("in operand {k}"),
        None => "in the output".to_string(),
    };
    while i < chars.len() {
        let c = chars[i];
        if c == '.' {
            if chars.get(i + 1) != Some(&'.') || chars.get(i + 2) != Some(&'.') {
                return Err(error(format!(
                    "einstein sum subscripts string contains a '.' that is not part of an ellipsis ('...') {}",
                    place()
                )));
            }
            if ellipsis {
                return Err(error(format!(
                    "einstein sum subscripts string contains more than one ellipsis ('...') {}",
                    place()
                )));
            }
            ellipsis = true;
            out.push(Term::Ellipsis);
            i += 3;
            continue;
        }
        if c.is_ascii_alphabetic() {
            out.push(Term::Label(c));
        } else if c != ' ' {
            return Err(error(format!(
                "invalid subscript '{c}' in einstein sum subscripts string, subscripts must be letters"
            )));
        }
        i += 1;
    }
    Ok(out)
}

impl Subscripts {
    /// Parses `text` for `count` operands.
    ///
    /// # Errors
    /// numpy's messages for malformed subscripts and a wrong number of operands.
    pub fn parse(text: &str, count: usize) -> Result<Self> {
        if count == 0 {
            return Err(error(
                "must specify the einstein sum subscripts string and at least one operand",
            ));
        }
        let (inputs, output) = match text.split_once("->") {
            Some((inputs, output)) => (inputs, Some(output)),
            None => (text, None),
        };
        // numpy counts the commas of the whole string; its two messages say the opposite of
        // what happened (numpy 2.4: 'ij,jk' with one operand is "more operands provided").
        let specified = text.matches(',').count() + 1;
        if specified > count {
            return Err(error(
                "more operands provided to einstein sum function than specified in the subscripts string",
            ));
        }
        if specified < count {
            return Err(error(
                "fewer operands provided to einstein sum function than specified in the subscripts string",
            ));
        }
        if inputs.contains('-') {
            return Err(error(
                "einstein sum subscript string does not contain proper '->' output specified",
            ));
        }
        let operands = inputs
            .split(',')
            .enumerate()
            .map(|(k, part)| terms(part, Some(k)))
            .collect::<Result<Vec<_>>>()?;
        let output = match output {
            None => None,
            Some(text) => {
                // numpy checks the output character by character, in this order.
                for (i, c) in text.char_indices() {
                    if c.is_ascii_alphabetic() {
                        if text[i + 1..].contains(c) {
                            return Err(error(format!(
                                "einstein sum subscripts string includes output subscript '{c}' multiple times"
                            )));
                        }
                        if !operands.iter().any(|o| o.contains(&Term::Label(c))) {
                            return Err(error(format!(
                                "einstein sum subscripts string included output subscript '{c}' which never appeared in an input"
                            )));
                        }
                    } else if c != '.' && c != ' ' {
                        return Err(error(format!(
                            "invalid subscript '{c}' in einstein sum subscripts string, subscripts must be letters"
                        )));
                    }
                }
                Some(terms(text, None)?)
            }
        };
        Ok(Self { operands, output })
    }

    /// The labelling of these subscripts for operands of `shapes` (logical).
    ///
    /// # Errors
    /// numpy's messages: too many or too few subscripts for an operand, a repeated label over
    /// dimensions of different lengths, dimensions that do not broadcast.
    pub fn labelling(&self, shapes: &[&[usize]]) -> Result<Labelling> {
        // Each operand's broadcast (ellipsis) dimensions, and its labelled ones.
        let mut ellipses: Vec<&[usize]> = Vec::with_capacity(shapes.len());
        for (k, (terms, shape)) in self.operands.iter().zip(shapes).enumerate() {
            let labelled = terms.iter().filter(|t| **t != Term::Ellipsis).count();
            let has_ellipsis = terms.contains(&Term::Ellipsis);
            if labelled > shape.len() {
                return Err(error(format!(
                    "einstein sum subscripts string contains too many subscripts for operand {k}"
                )));
            }
            if labelled < shape.len() && !has_ellipsis {
                return Err(error(
                    "operand has more dimensions than subscripts given in einstein sum, but no '...' ellipsis provided to broadcast the extra dimensions.",
                ));
            }
            let before = terms
                .iter()
                .position(|t| *t == Term::Ellipsis)
                .unwrap_or(labelled);
            ellipses.push(&shape[before..before + shape.len() - labelled]);
        }
        let broadcast_ndim = ellipses.iter().map(|e| e.len()).max().unwrap_or(0);
        // The letters, in numpy's label order (ASCII: upper case first).
        let mut letters: Vec<char> = self
            .operands
            .iter()
            .flatten()
            .filter_map(|t| match t {
                Term::Label(c) => Some(*c),
                Term::Ellipsis => None,
            })
            .collect();
        letters.sort_unstable();
        letters.dedup();
        let output: Vec<Term> = match &self.output {
            Some(output) => {
                if broadcast_ndim > 0 && !output.contains(&Term::Ellipsis) {
                    return Err(error(
                        "output has more dimensions than subscripts given in einstein sum, but no '...' ellipsis provided to broadcast the extra dimensions.",
                    ));
                }
                output.clone()
            }
            None => std::iter::once(Term::Ellipsis)
                .chain(
                    letters
                        .iter()
                        .filter(|&&c| {
                            self.operands
                                .iter()
                                .flatten()
                                .filter(|t| **t == Term::Label(c))
                                .count()
                                == 1
                        })
                        .map(|&c| Term::Label(c)),
                )
                .collect(),
        };
        // Index ids: the broadcast dimensions first, then the letters.
        let letter_id =
            |c: char| broadcast_ndim + letters.iter().position(|&l| l == c).unwrap_or(0);
        let mut sizes = vec![1usize; broadcast_ndim + letters.len()];
        let mut operands = Vec::with_capacity(shapes.len());
        let mut mismatch = false;
        for (k, (terms, shape)) in self.operands.iter().zip(shapes).enumerate() {
            let ellipsis_len = ellipses[k].len();
            let mut axes = Vec::with_capacity(shape.len());
            let mut dims = shape.iter();
            let mut seen: Vec<(char, usize)> = Vec::new();
            for term in terms {
                match term {
                    Term::Ellipsis => {
                        for b in 0..ellipsis_len {
                            let id = broadcast_ndim - ellipsis_len + b;
                            let d = dims.next().copied().unwrap_or(1);
                            mismatch |= !merge(&mut sizes[id], d);
                            axes.push(Axis::of(id));
                        }
                    }
                    Term::Label(c) => {
                        let d = dims.next().copied().unwrap_or(1);
                        let id = letter_id(*c);
                        // A label repeated in one operand: its dimensions must be equal.
                        match seen.iter().find(|(l, _)| l == c) {
                            Some(&(_, previous)) if previous != d => {
                                return Err(error(format!(
                                    "dimensions in operand {k} for collapsing index '{c}' don't match ({previous} != {d})"
                                )));
                            }
                            Some(_) => {}
                            None => seen.push((*c, d)),
                        }
                        mismatch |= !merge(&mut sizes[id], d);
                        axes.push(Axis::of(id));
                    }
                }
            }
            operands.push(axes);
        }
        let output_ids: Vec<usize> = output
            .iter()
            .flat_map(|t| match t {
                Term::Ellipsis => (0..broadcast_ndim).collect::<Vec<_>>(),
                Term::Label(c) => vec![letter_id(*c)],
            })
            .collect();
        if mismatch || broadcast_shapes(&ellipses).is_err() {
            return Err(broadcast_error(shapes, &operands, &output_ids, &sizes));
        }
        Ok(Labelling {
            sizes,
            operands,
            output: output_ids,
        })
    }
}

/// numpy's iterator error when the operands' dimensions do not broadcast: each operand
/// remapped onto the iteration dimensions (the output's, then the summed ones).
fn broadcast_error(
    shapes: &[&[usize]],
    operands: &[Vec<Axis>],
    output: &[usize],
    sizes: &[usize],
) -> TensorError {
    let iteration: Vec<usize> = output
        .iter()
        .copied()
        .chain((0..sizes.len()).filter(|id| !output.contains(id)))
        .collect();
    let mut text = String::from(
        "operands could not be broadcast together with remapped shapes [original->remapped]: ",
    );
    for (shape, axes) in shapes.iter().zip(operands) {
        let mut remapped: Vec<String> = iteration
            .iter()
            .map(|id| {
                axes.iter()
                    .position(|a| a.label == *id)
                    .map_or_else(|| "newaxis".to_string(), |d| shape[d].to_string())
            })
            .collect();
        let leading = remapped.iter().take_while(|d| *d == "newaxis").count();
        remapped.drain(..leading);
        let _ = write!(text, "{}->({}) ", compact_shape(shape), remapped.join(","));
    }
    error(text)
}

/// Merges a dimension into an index's size (1 broadcasts); false when they differ.
fn merge(size: &mut usize, d: usize) -> bool {
    if *size == 1 {
        *size = d;
        true
    } else {
        d == 1 || d == *size
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape_of(text: &str, shapes: &[&[usize]]) -> std::result::Result<Vec<usize>, String> {
        Subscripts::parse(text, shapes.len())
            .and_then(|s| s.labelling(shapes))
            .map(|l| l.output_shape())
            .map_err(|e| e.to_string())
    }

    #[test]
    fn numpy_shapes() {
        assert_eq!(shape_of("ij,jk", &[&[2, 3], &[3, 4]]), Ok(vec![2, 4]));
        assert_eq!(shape_of("ij,jk->ki", &[&[2, 3], &[3, 4]]), Ok(vec![4, 2]));
        assert_eq!(shape_of("ii", &[&[3, 3]]), Ok(vec![]));
        assert_eq!(shape_of("ii->i", &[&[3, 3]]), Ok(vec![3]));
        assert_eq!(
            shape_of("...ij,...jk", &[&[5, 2, 3], &[3, 4]]),
            Ok(vec![5, 2, 4])
        );
        assert_eq!(shape_of("ba", &[&[2, 3]]), Ok(vec![3, 2]));
        assert_eq!(shape_of("i,i", &[&[1], &[3]]), Ok(vec![]));
    }

    #[test]
    fn numpy_messages() {
        assert_eq!(
            shape_of("ij,jk", &[&[2, 3], &[4, 2]]).unwrap_err(),
            "operands could not be broadcast together with remapped shapes [original->remapped]: (2,3)->(2,newaxis,3) (4,2)->(2,4) "
        );
        assert_eq!(
            shape_of("...i,...i", &[&[2, 3], &[3, 3]]).unwrap_err(),
            "operands could not be broadcast together with remapped shapes [original->remapped]: (2,3)->(2,3) (3,3)->(3,3) "
        );
        assert_eq!(
            shape_of("ii", &[&[2, 3]]).unwrap_err(),
            "dimensions in operand 0 for collapsing index 'i' don't match (2 != 3)"
        );
        assert_eq!(
            shape_of("ij,jk->ik", &[&[2, 3]]).unwrap_err(),
            "more operands provided to einstein sum function than specified in the subscripts string"
        );
        assert_eq!(
            shape_of("i2", &[&[2, 3]]).unwrap_err(),
            "invalid subscript '2' in einstein sum subscripts string, subscripts must be letters"
        );
    }
}
