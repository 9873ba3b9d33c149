//! Pass 2 of numpy's `choose`: the output values, each position reading the choice pass 1
//! numbered at the offset the plan compiled from the broadcast (an offset table per input, or
//! none when the input's row-major layout is the output's), and their validity; and the fused
//! single-pass loop ([`choose_dense`]) for inputs laid out as the output. Generic over the
//! element type only.

use arrow::buffer::{BooleanBuffer, NullBuffer};

use super::index::{ChooseMode, IndexNative};

/// Both passes in one loop, for the common case: `a` and every choice have the output's
/// row-major layout, and nothing is NULL. `out[e] = choices[choice(a[e])][e]`; no index
/// buffer. Returns the position of the first index `raise` rejects.
pub fn choose_dense<I: IndexNative, T: Copy>(
    a: &[I],
    choices: &[&[T]],
    mode: ChooseMode,
) -> Result<Vec<T>, usize> {
    match mode {
        ChooseMode::Raise => dense_mode::<I, T, 0>(a, choices),
        ChooseMode::Wrap => dense_mode::<I, T, 1>(a, choices),
        ChooseMode::Clip => dense_mode::<I, T, 2>(a, choices),
    }
}

fn dense_mode<I: IndexNative, T: Copy, const MODE: u8>(
    a: &[I],
    choices: &[&[T]],
) -> Result<Vec<T>, usize> {
    let n = choices.len() as u64;
    let mut out = Vec::with_capacity(a.len());
    // No early exit in the loop: a rejected index reads choice 0 and clears `ok`; the first
    // rejected position is looked up afterwards.
    let mut ok = true;
    out.extend(a.iter().enumerate().map(|(e, v)| {
        let choice = v.choice::<MODE>(n);
        ok &= choice.is_some();
        choices[choice.unwrap_or(0) as usize][e]
    }));
    if ok {
        Ok(out)
    } else {
        Err(a
            .iter()
            .position(|v| v.choice::<MODE>(n).is_none())
            .unwrap_or(0))
    }
}

/// Where one input's element for each output position lives.
#[derive(Debug, Clone, Copy)]
pub struct Source<'a, T> {
    /// The input's flat values for the whole batch.
    pub values: &'a [T],
    /// Elements per row in `values`; 0 when one literal serves every row.
    pub row_len: usize,
    /// Offset within the row for each output position; `None` when it is the position itself
    /// (the input's row-major shape is the output's). Scalars broadcast to a larger output
    /// have a table of zeros.
    pub offsets: Option<&'a [u32]>,
}

impl<T> Source<'_, T> {
    fn is_dense(&self, out_row_len: usize) -> bool {
        self.offsets.is_none() && self.row_len == out_row_len
    }

    /// One value per row (or one for all rows) read at every output position.
    fn is_scalar(&self, out_row_len: usize) -> bool {
        match self.offsets {
            Some(offsets) => self.row_len <= 1 && offsets.iter().all(|&o| o == 0),
            None => out_row_len <= 1,
        }
    }
}

/// Where `a`'s choice number for each output position lives (as [`Source`]: `offsets` `None`
/// is the identity).
#[derive(Debug, Clone, Copy)]
pub struct IndexLayout<'a> {
    /// Elements per row of `a`; 0 for one literal index.
    pub row_len: usize,
    /// Offset within the row for each output position; `None` for the position itself.
    pub offsets: Option<&'a [u32]>,
}

/// Pass 2: the output values, `rows * out_row_len` of them, row-major.
///
/// `indices` are pass 1's choice numbers (all `< choices.len()`). Three loops, chosen once:
/// - every input dense (same shape as the output, no broadcast): `out[e] = c[idx[e]][e]`;
/// - every choice a scalar per row (literals, numeric columns): a per-row lookup table;
/// - otherwise each element reads its chosen input through that input's offset table.
pub fn gather<T: Copy + Default>(
    indices: &[u32],
    index: IndexLayout<'_>,
    choices: &[Source<'_, T>],
    rows: usize,
    out_row_len: usize,
) -> Vec<T> {
    let total = rows * out_row_len;
    if total == 0 {
        return Vec::new();
    }
    let index_dense = index.offsets.is_none() && index.row_len == out_row_len;
    if index_dense && choices.iter().all(|c| c.is_dense(out_row_len)) {
        let slices: Vec<&[T]> = choices.iter().map(|c| c.values).collect();
        return indices
            .iter()
            .enumerate()
            .map(|(e, &i)| slices[i as usize][e])
            .collect();
    }
    let mut out = vec![T::default(); total];
    // Identity tables for dense inputs, so one loop serves every layout.
    let identity: Vec<u32> = (0..out_row_len as u32).collect();
    let index_offsets = index.offsets.unwrap_or(&identity);
    if choices.iter().all(|c| c.is_scalar(out_row_len)) {
        let mut lut = vec![T::default(); choices.len()];
        for (row, out_row) in out.chunks_exact_mut(out_row_len).enumerate() {
            for (slot, choice) in lut.iter_mut().zip(choices) {
                *slot = choice.values[row * choice.row_len];
            }
            let idx_row = &indices[row * index.row_len..];
            for (target, &k) in out_row.iter_mut().zip(index_offsets) {
                *target = lut[idx_row[k as usize] as usize];
            }
        }
        return out;
    }
    let tables: Vec<&[u32]> = choices
        .iter()
        .map(|c| c.offsets.unwrap_or(&identity))
        .collect();
    for (row, out_row) in out.chunks_exact_mut(out_row_len).enumerate() {
        let idx_row = &indices[row * index.row_len..];
        for (k, (target, &ik)) in out_row.iter_mut().zip(index_offsets).enumerate() {
            let i = idx_row[ik as usize] as usize;
            let choice = &choices[i];
            *target = choice.values[row * choice.row_len + tables[i][k] as usize];
        }
    }
    out
}

/// Per-row scalar choices from a list column: `out[row, k] = values[starts[row] + idx]`.
pub fn gather_list<T: Copy + Default>(
    indices: &[u32],
    index: IndexLayout<'_>,
    values: &[T],
    starts: &[usize],
    rows: usize,
    out_row_len: usize,
) -> Vec<T> {
    let mut out = vec![T::default(); rows * out_row_len];
    if out.is_empty() {
        return out;
    }
    let identity: Vec<u32> = (0..out_row_len as u32).collect();
    let index_offsets = index.offsets.unwrap_or(&identity);
    for (row, out_row) in out.chunks_exact_mut(out_row_len).enumerate() {
        let idx_row = &indices[row * index.row_len..];
        let start = starts[row];
        for (target, &ik) in out_row.iter_mut().zip(index_offsets) {
            // Empty lists only occur in rows that pass 1 rejected or skipped (NULL rows).
            *target = values
                .get(start + idx_row[ik as usize] as usize)
                .copied()
                .unwrap_or_default();
        }
    }
    out
}

/// Where one choice's element validity lives (as [`Source`], validity instead of values).
#[derive(Debug, Clone, Copy)]
pub struct ValiditySource<'a> {
    /// The choice's element validity; `None` when it has no NULL elements.
    pub valid: Option<&'a NullBuffer>,
    /// Elements per row; 0 for a literal.
    pub row_len: usize,
    /// Offsets within the row, `None` for the identity.
    pub offsets: Option<&'a [u32]>,
}

/// Element validity of the output when an input has NULL elements: an output element is
/// valid when its index element and the chosen element are.
pub fn gather_validity(
    indices: &[u32],
    index: IndexLayout<'_>,
    index_valid: Option<&NullBuffer>,
    choices: &[ValiditySource<'_>],
    rows: usize,
    out_row_len: usize,
) -> BooleanBuffer {
    index_validity(
        indices,
        index,
        index_valid,
        rows,
        out_row_len,
        |row, k, i| {
            let choice = choices[i];
            choice.valid.is_none_or(|v| {
                let offset = choice.offsets.map_or(k, |o| o[k] as usize);
                v.is_valid(row * choice.row_len + offset)
            })
        },
    )
}

/// The validity walk every gather shares: for each output element `(row, k)`, invalid when
/// its index element is, else whatever `chosen_valid(row, k, choice)` says of the element it
/// chose.
pub fn index_validity(
    indices: &[u32],
    index: IndexLayout<'_>,
    index_valid: Option<&NullBuffer>,
    rows: usize,
    out_row_len: usize,
    chosen_valid: impl Fn(usize, usize, usize) -> bool,
) -> BooleanBuffer {
    let identity: Vec<u32> = (0..out_row_len as u32).collect();
    let index_offsets = index.offsets.unwrap_or(&identity);
    BooleanBuffer::collect_bool(rows * out_row_len, |e| {
        let (row, k) = (e / out_row_len, e % out_row_len);
        let at = row * index.row_len + index_offsets[k] as usize;
        if index_valid.is_some_and(|v| !v.is_valid(at)) {
            return false;
        }
        chosen_valid(row, k, indices[at] as usize)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fused_loop_follows_numpy() {
        let dense = choose_dense(
            &[1i32, 0, 2],
            &[&[1.0f32, 2.0, 3.0][..], &[4.0, 5.0, 6.0], &[7.0, 8.0, 9.0]],
            ChooseMode::Raise,
        );
        assert_eq!(dense.unwrap(), vec![4.0, 2.0, 9.0]);
        let bad = choose_dense(
            &[1i32, 3, 2],
            &[&[1.0f32, 2.0, 3.0][..], &[4.0, 5.0, 6.0]],
            ChooseMode::Raise,
        );
        assert_eq!(bad.unwrap_err(), 1);
    }

    #[test]
    fn gathers_every_layout() {
        // Two rows of [3] outputs; choice 0 dense, choice 1 a literal, choice 2 broadcast [1].
        let c0 = [1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0];
        let c1 = [9.0f32];
        let c2 = [7.0f32, 8.0];
        let zeros = [0u32, 0, 0];
        let choices = [
            Source {
                values: &c0[..],
                row_len: 3,
                offsets: None,
            },
            Source {
                values: &c1[..],
                row_len: 0,
                offsets: Some(&zeros[..]),
            },
            Source {
                values: &c2[..],
                row_len: 1,
                offsets: Some(&zeros[..]),
            },
        ];
        let idx = [0u32, 1, 2, 2, 1, 0];
        let index = IndexLayout {
            row_len: 3,
            offsets: None,
        };
        assert_eq!(
            gather(&idx, index, &choices, 2, 3),
            vec![1.0, 9.0, 7.0, 8.0, 9.0, 6.0]
        );
        // All dense.
        let dense = [
            choices[0],
            Source {
                values: &c0[..],
                row_len: 3,
                offsets: None,
            },
        ];
        let idx = [1u32, 0, 1, 0, 0, 1];
        assert_eq!(
            gather(&idx, index, &dense, 2, 3),
            vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
        );
        // All scalar.
        let scalars = [choices[1], choices[2]];
        let idx = [0u32, 1, 0, 1, 1, 0];
        assert_eq!(
            gather(&idx, index, &scalars, 2, 3),
            vec![9.0, 7.0, 9.0, 8.0, 8.0, 9.0]
        );
    }
}
