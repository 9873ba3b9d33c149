//! Where each input element of a reduction goes: a row's logical shape cut into contiguous
//! blocks, each folded into one output element (the last axes reduced) or added element by
//! element into a run of outputs (the last axes kept).
//!
//! This is numpy's iteration order: `np.add.reduce` walks a C-contiguous array in C order,
//! after coalescing neighbouring axes that are both reduced or both kept and dropping axes of
//! length 1 (`npyiter_coalesce_axes`); its inner loop is the last coalesced axis, a reduction
//! (numpy's `IS_BINARY_REDUCE`, pairwise for sums) when that axis is reduced, an elementwise
//! step otherwise. Summing in any other order would change float results.

use std::ops::Range;

/// One contiguous block of a row's input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Block {
    /// Its first element in the row's row-major input.
    pub input: usize,
    /// Its first output element.
    pub output: usize,
    /// Its first element's row-major position among the reduced axes (what `argmin` returns).
    pub position: usize,
}

/// A reduction of one logical shape over some of its axes.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ReduceLayout {
    /// Elements of a row.
    pub in_size: usize,
    /// Elements of a row's result.
    pub out_size: usize,
    /// Elements folded into each output element.
    pub count: usize,
    /// Elements of each block.
    pub inner: usize,
    /// Whether a block folds into one output element (else it steps over `inner` of them).
    pub inner_reduced: bool,
    /// The blocks, in numpy's order.
    pub blocks: Vec<Block>,
}

impl ReduceLayout {
    /// The reduction of a row of logical shape `shape` over the axes where `reduced` is true.
    ///
    /// A `where` mask does not change it: numpy's buffered iterator copies a broadcast mask
    /// into its buffer rather than keep x's axes apart (measured against numpy 2.4: a
    /// `[4, 3, 20]` float32 sum under a `[3, 20]` mask sums runs of all 240 elements).
    pub fn new(shape: &[usize], reduced: &[bool]) -> Self {
        let in_size: usize = shape.iter().product();
        let out_size: usize = shape
            .iter()
            .zip(reduced)
            .filter(|&(_, &r)| !r)
            .map(|(&d, _)| d)
            .product();
        let count: usize = shape
            .iter()
            .zip(reduced)
            .filter(|&(_, &r)| r)
            .map(|(&d, _)| d)
            .product();
        // Runs of neighbouring axes of one kind, axes of length 1 dropped.
        let mut runs: Vec<(usize, bool)> = Vec::new();
        for (&d, &r) in shape.iter().zip(reduced) {
            if d == 1 {
                continue;
            }
            match runs.last_mut() {
                Some((len, kind)) if *kind == r => *len *= d,
                _ => runs.push((d, r)),
            }
        }
        let (inner, inner_reduced) = runs.pop().unwrap_or((1, false));
        let mut blocks = Vec::new();
        if in_size > 0 {
            let outer: usize = runs.iter().map(|&(d, _)| d).product();
            blocks.reserve(outer);
            // The strides of each outer run in the output and among the reduced positions.
            let mut out_strides = vec![0; runs.len()];
            let mut pos_strides = vec![0; runs.len()];
            let (mut out_stride, mut pos_stride) = if inner_reduced {
                (1, inner)
            } else {
                (inner, 1)
            };
            for (k, &(d, r)) in runs.iter().enumerate().rev() {
                if r {
                    pos_strides[k] = pos_stride;
                    pos_stride *= d;
                } else {
                    out_strides[k] = out_stride;
                    out_stride *= d;
                }
            }
            let mut index = vec![0; runs.len()];
            for b in 0..outer {
                let output = index.iter().zip(&out_strides).map(|(i, s)| i * s).sum();
                let position = index.iter().zip(&pos_strides).map(|(i, s)| i * s).sum();
                blocks.push(Block {
                    input: b * inner,
                    output,
                    position,
                });
                // The next index in C order.
                for k in (0..runs.len()).rev() {
                    index[k] += 1;
                    if index[k] < runs[k].0 {
                        break;
                    }
                    index[k] = 0;
                }
            }
        }
        Self {
            in_size,
            out_size,
            count,
            inner,
            inner_reduced,
            blocks,
        }
    }

    /// The output elements block `block` feeds.
    pub fn outputs(&self, block: &Block) -> Range<usize> {
        if self.inner_reduced {
            block.output..block.output + 1
        } else {
            block.output..block.output + self.inner
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trailing_reduced_axes_are_one_block_per_output() {
        let layout = ReduceLayout::new(&[2, 3, 4], &[false, true, true]);
        assert_eq!((layout.out_size, layout.count, layout.inner), (2, 12, 12));
        assert!(layout.inner_reduced);
        assert_eq!(layout.blocks.len(), 2);
        assert_eq!(layout.blocks[1].input, 12);
        assert_eq!(layout.blocks[1].output, 1);
    }

    #[test]
    fn leading_reduced_axes_step_over_the_kept_ones() {
        let layout = ReduceLayout::new(&[2, 3, 4], &[true, false, false]);
        assert!(!layout.inner_reduced);
        assert_eq!(layout.inner, 12);
        assert_eq!(layout.blocks.len(), 2);
        assert_eq!(layout.blocks[1].position, 1);
        assert_eq!(layout.blocks[1].output, 0);
    }

    #[test]
    fn alternating_axes_and_length_one_axes() {
        // [2, 1, 3, 4] over axes 0 and 3: the 1 is dropped, runs R2 K3 R4.
        let layout = ReduceLayout::new(&[2, 1, 3, 4], &[true, false, false, true]);
        assert!(layout.inner_reduced);
        let outputs: Vec<usize> = layout.blocks.iter().map(|b| b.output).collect();
        let positions: Vec<usize> = layout.blocks.iter().map(|b| b.position).collect();
        assert_eq!(outputs, [0, 1, 2, 0, 1, 2]);
        assert_eq!(positions, [0, 0, 0, 4, 4, 4]);
        let empty = ReduceLayout::new(&[2, 0], &[false, true]);
        assert_eq!((empty.out_size, empty.count, empty.blocks.len()), (2, 0, 0));
    }
}
