//! The pairs kept per group: a pair is dropped only when `k` pairs of its group offered
//! before it are known to rank before it (`row_number()`) or strictly before it (`rank()`).

use std::collections::BinaryHeap;

/// A rank-space key, lower is better: a class (0: NULL first, 1: a value, 2: NULL last) above
/// the value's bits in IEEE 754's total order, which DataFusion's sort uses (NaN included).
pub type Key = u128;

/// No threshold yet (fewer than `k` pairs in the group).
const OPEN: Key = Key::MAX;

/// The key of rank-space value `rank`.
#[inline]
pub fn value_key(rank: f64) -> Key {
    let bits = rank.to_bits();
    let ordered = if bits >> 63 == 1 {
        !bits
    } else {
        bits | (1 << 63)
    };
    (1 << 64) | Key::from(ordered)
}

/// The rank-space value of a key of class 1 (a value), or `None` for NULL classes and
/// [`OPEN`].
pub fn key_value(key: Key) -> Option<f64> {
    if key >> 64 != 1 {
        return None;
    }
    #[allow(clippy::cast_possible_truncation)]
    let ordered = key as u64;
    let bits = if ordered >> 63 == 1 {
        ordered & !(1 << 63)
    } else {
        !ordered
    };
    Some(f64::from_bits(bits))
}

/// The key of a NULL value.
pub fn null_key(nulls_first: bool) -> Key {
    if nulls_first { 0 } else { 2 << 64 }
}

/// How many pairs of each group the window keeps, and how it treats ties.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ranking {
    /// The largest number the filter keeps (`rn <= k`).
    pub k: usize,
    /// Every pair tying the `k`-th is kept (`rank()`); otherwise (`row_number()`) ties go
    /// to the pair offered first.
    pub ties: bool,
}

/// A pair kept: its lower key, its build row and its item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Candidate {
    /// The lower end of its interval.
    pub lo: Key,
    /// The build side's row.
    pub build: u32,
    /// The item (the stream side's row, numbered by the caller).
    pub item: u64,
}

#[derive(Debug, Default)]
struct Group {
    /// The upper ends of the `k` best pairs so far (a max-heap).
    best: BinaryHeap<Key>,
    candidates: Vec<Candidate>,
    /// The length at which the candidates are pruned next.
    prune_at: usize,
}

/// The pairs kept so far, per group of build rows.
#[derive(Debug)]
pub struct Selection {
    ranking: Ranking,
    group_of: Vec<u32>,
    groups: Vec<Group>,
    /// Per group: the upper end of the `k`-th best pair, or [`OPEN`].
    thresholds: Vec<Key>,
}

impl Selection {
    /// A selection for build rows in the groups `group_of` (each below `groups`).
    pub fn new(ranking: Ranking, group_of: Vec<u32>, groups: usize) -> Self {
        let floor = 2 * ranking.k.min(1 << 16) + 64;
        Self {
            ranking,
            group_of,
            groups: (0..groups)
                .map(|_| Group {
                    prune_at: floor,
                    ..Group::default()
                })
                .collect(),
            thresholds: vec![OPEN; groups],
        }
    }

    /// Whether a pair of build row `build` whose lower key is `lo` is kept.
    #[inline]
    pub fn admits(&self, build: usize, lo: Key) -> bool {
        let threshold = self.thresholds[self.group_of[build] as usize];
        if self.ranking.ties {
            lo <= threshold
        } else {
            lo < threshold
        }
    }

    /// The group of build row `build`.
    pub fn group_of(&self, build: usize) -> usize {
        self.group_of[build] as usize
    }

    /// Group `g`'s threshold: the upper key of its `k`-th best pair so far, or `Key::MAX`.
    pub fn threshold(&self, g: usize) -> Key {
        self.thresholds[g]
    }

    /// Offers the pair of build row `build` and `item`, its interval `[lo, hi]`; returns
    /// whether its group's threshold changed.
    pub fn offer(&mut self, build: usize, lo: Key, hi: Key, item: u64) -> bool {
        if !self.admits(build, lo) {
            return false;
        }
        let g = self.group_of[build] as usize;
        let k = self.ranking.k;
        let group = &mut self.groups[g];
        if group.best.len() < k {
            group.best.push(hi);
        } else if group.best.peek().is_some_and(|&top| hi < top) {
            group.best.pop();
            group.best.push(hi);
        }
        let mut changed = false;
        if group.best.len() >= k
            && let Some(&top) = group.best.peek()
        {
            changed = self.thresholds[g] != top;
            self.thresholds[g] = top;
        }
        #[allow(clippy::cast_possible_truncation)]
        group.candidates.push(Candidate {
            lo,
            build: build as u32,
            item,
        });
        if group.candidates.len() >= group.prune_at {
            let threshold = self.thresholds[g];
            group.candidates.retain(|c| c.lo <= threshold);
            let floor = 2 * k.min(1 << 16) + 64;
            group.prune_at = floor.max(2 * group.candidates.len());
        }
        changed
    }

    /// Drops the candidates past their group's threshold (as they will be at the end).
    pub fn prune(&mut self) {
        for (group, &threshold) in self.groups.iter_mut().zip(&self.thresholds) {
            group.candidates.retain(|c| c.lo <= threshold);
        }
    }

    /// Every candidate's item, in place (to renumber them).
    pub fn items_mut(&mut self) -> impl Iterator<Item = &mut u64> {
        self.groups
            .iter_mut()
            .flat_map(|g| g.candidates.iter_mut().map(|c| &mut c.item))
    }

    /// The number of candidates.
    pub fn len(&self) -> usize {
        self.groups.iter().map(|g| g.candidates.len()).sum()
    }

    /// Whether no pair is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The pairs kept, pruned, as `(item, build)` in item order, then build row order.
    pub fn finish(&mut self) -> Vec<(u64, u32)> {
        self.prune();
        let mut pairs: Vec<(u64, u32)> = self
            .groups
            .iter()
            .flat_map(|g| g.candidates.iter().map(|c| (c.item, c.build)))
            .collect();
        pairs.sort_unstable();
        pairs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_follow_the_total_order() {
        let values = [
            f64::from_bits(0xfff8_0000_0000_0000),
            f64::NEG_INFINITY,
            -1.0,
            -0.0,
            0.0,
            1e-300,
            2.0,
            f64::INFINITY,
            f64::NAN,
        ];
        for pair in values.windows(2) {
            assert!(value_key(pair[0]) < value_key(pair[1]), "{pair:?}");
            assert_eq!(pair[0].total_cmp(&pair[1]), std::cmp::Ordering::Less);
        }
        for &v in &values {
            assert_eq!(key_value(value_key(v)).map(f64::to_bits), Some(v.to_bits()));
        }
        assert!(null_key(true) < value_key(f64::from_bits(u64::MAX)));
        assert!(null_key(false) > value_key(f64::from_bits(0x7fff_ffff_ffff_ffff)));
    }

    /// Exact keys (lo == hi), one group: the kept pairs hold the k best, ties to the first.
    #[test]
    fn keeps_the_k_best_and_first_ties() {
        let values = [5.0, 3.0, 9.0, 3.0, 1.0, 7.0, 3.0, 0.5, 8.0, 3.0];
        for (ties, expected) in [
            (false, vec![1, 4, 7]),
            // rank(): every pair tying the third (3.0) too.
            (true, vec![1, 3, 4, 6, 7, 9]),
        ] {
            let mut selection = Selection::new(Ranking { k: 3, ties }, vec![0], 1);
            for (item, &v) in values.iter().enumerate() {
                let key = value_key(v);
                selection.offer(0, key, key, item as u64);
            }
            let kept: Vec<u64> = selection.finish().into_iter().map(|(i, _)| i).collect();
            // The three best are 0.5 (7), 1.0 (4) and 3.0 (1, the first 3.0).
            assert!(
                [1, 4, 7].iter().all(|i| kept.contains(i)),
                "{ties}: {kept:?}"
            );
            if ties {
                assert_eq!(kept, expected);
            } else {
                assert!(!kept.contains(&9) && !kept.contains(&8), "{kept:?}");
            }
        }
    }

    /// Wide intervals keep every pair that could be among the best; groups are apart.
    #[test]
    fn intervals_and_groups() {
        // Two build rows in one group, one in another.
        let mut selection = Selection::new(Ranking { k: 1, ties: false }, vec![0, 0, 1], 2);
        // Group 0: [1, 3] then [2.5, 4] (may be better than 3: kept) then [3.5, 5] (not).
        selection.offer(0, value_key(1.0), value_key(3.0), 0);
        selection.offer(1, value_key(2.5), value_key(4.0), 1);
        selection.offer(0, value_key(3.5), value_key(5.0), 2);
        // Group 1: its own first pair, whatever group 0 holds.
        selection.offer(2, value_key(100.0), value_key(101.0), 3);
        let kept = selection.finish();
        assert_eq!(kept, vec![(0, 0), (1, 1), (3, 2)]);
    }
}
