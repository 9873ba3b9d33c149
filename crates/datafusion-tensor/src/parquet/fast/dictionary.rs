//! Dictionary-encoded data pages: the indices (RLE/bit-packed runs, read with [`runs`]) looked
//! up in the chunk's dictionary page, the whole page or the wanted values alone.

use super::levels::{Run, le_word, runs, unpack};

/// The entries of a dictionary. Its first 2^16 are also in a table that any 16-bit index
/// addresses (those past the dictionary's end hold a copy of entry 0 and are refused by
/// [`dictionary_values`]), so that a lookup of a narrow index needs no bounds check; a larger
/// dictionary (pyarrow's 1 MiB dictionary pages hold 262,144 float32s) is looked up in its
/// entries, checked.
pub(super) struct Dictionary<T> {
    table: Box<[T; 1 << 16]>,
    len: usize,
    /// Every entry, when there are more than 2^16 (empty otherwise).
    entries: Vec<T>,
}

impl<T: Copy + Default> Dictionary<T> {
    pub(super) fn new(entries: Vec<T>) -> Option<Self> {
        let fill = entries.first().copied().unwrap_or_default();
        let mut table: Box<[T; 1 << 16]> =
            vec![fill; 1 << 16].into_boxed_slice().try_into().ok()?;
        let head = entries.len().min(1 << 16);
        table[..head].copy_from_slice(&entries[..head]);
        Some(Self {
            table,
            len: entries.len(),
            entries: if entries.len() > 1 << 16 {
                entries
            } else {
                Vec::new()
            },
        })
    }
}

/// [`dictionary_values`] for indices of more than 16 bits, looked up in `entries` (checked).
///
/// Each run's indices are looked up with a clamped index and the largest checked after the
/// run: a checked lookup and a push per value (a capacity check each) took four times as long.
fn wide_dictionary_values<T: Copy>(
    data: &[u8],
    count: usize,
    width: u8,
    entries: &[T],
    out: &mut Vec<T>,
) -> bool {
    let Some(last) = entries.len().checked_sub(1) else {
        return count == 0;
    };
    let len = entries.len() as u64;
    runs(data, count, width, |run| match run {
        Run::Repeated { value, count } => {
            value < len && {
                out.extend(std::iter::repeat_n(entries[value as usize], count));
                true
            }
        }
        Run::Packed { bytes, count } => {
            let mask = (1u64 << width) - 1;
            let mut largest = 0u64;
            out.extend((0..count).map(|i| {
                // Index `i` from the little-endian word at its first byte (a whole word read
                // at once where the run holds one: `unpack` assembles it byte by byte).
                let bit = i * width as usize;
                let index = match bytes.get(bit / 8..bit / 8 + 8) {
                    Some(word) => {
                        (u64::from_le_bytes(word.try_into().unwrap_or_default()) >> (bit % 8))
                            & mask
                    }
                    None => unpack(bytes, i, width),
                };
                largest = largest.max(index);
                entries[(index as usize).min(last)]
            }));
            largest < len
        }
    })
}

/// The first `count` values of a dictionary-encoded page (`data`: the RLE/bit-packed runs of
/// `width`-bit indices) looked up in `dictionary`, appended to `out`; `false` when `data` holds
/// fewer values, an index is past the dictionary's end, or `width` is more than 32 bits.
///
/// Decoded and looked up in one pass, eight indices (one bit-packed group of `width` bytes)
/// at a time: a first version that decoded the indices into a buffer and then looked them up
/// spent most of a 28x28 uint8 image scan there.
pub(super) fn dictionary_values<T: Copy>(
    data: &[u8],
    count: usize,
    width: u8,
    dictionary: &Dictionary<T>,
    out: &mut Vec<T>,
) -> bool {
    if width > 32 {
        return false;
    }
    // Room for the page's values at once (bounded: `count` is the page header's word): grown
    // value by value, the buffer was reallocated through fresh memory, page faults that cost
    // a filtered scan more than the decoding.
    out.reserve(count.min(1 << 20));
    if width > 16 {
        return wide_dictionary_values(data, count, width, &dictionary.entries, out);
    }
    if width == 0 {
        out.extend(std::iter::repeat_n(dictionary.table[0], count));
        return dictionary.len > 0 || count == 0;
    }
    let table = &dictionary.table;
    let len = dictionary.len as u64;
    let mask = (1u64 << width) - 1;
    let w = width as usize;
    runs(data, count, width, |run| match run {
        Run::Repeated { value, count } => {
            out.extend(std::iter::repeat_n(table[value as u16 as usize], count));
            value < len
        }
        Run::Packed { bytes, count } => {
            let mut largest = 0u64;
            let groups = count / 8;
            let mut lookup = |index: u64| {
                largest = largest.max(index);
                table[index as u16 as usize]
            };
            for group in 0..groups {
                let at = group * w;
                // Eight `width`-bit indices in `width` bytes: one little-endian word (widths up
                // to 8), or two.
                let word = |at: usize| match bytes.get(at..at + 8) {
                    Some(b) => u64::from_le_bytes(b.try_into().unwrap_or_default()),
                    None => le_word(bytes.get(at..).unwrap_or_default()),
                };
                if w <= 8 {
                    let low = word(at);
                    out.extend((0..8).map(|i| lookup((low >> (i * w)) & mask)));
                } else {
                    let both = u128::from(word(at)) | (u128::from(word(at + 8)) << 64);
                    out.extend((0..8).map(|i| lookup((both >> (i * w)) as u64 & mask)));
                }
            }
            out.extend((groups * 8..count).map(|i| lookup(unpack(bytes, i, width))));
            largest < len
        }
    })
}

/// [`dictionary_values`] of the `wanted` values alone (ranges of the page's first `count`, in
/// order), appended to `out`: every index is still checked against the dictionary (as a full
/// decode would refuse the page), only the wanted ones looked up. A pyarrow float32 page's
/// dictionary is 1 MiB: its lookups miss the cache, and a 10% selection needs a tenth of them.
pub(super) fn selected_dictionary_values<T: Copy>(
    data: &[u8],
    count: usize,
    width: u8,
    dictionary: &Dictionary<T>,
    wanted: &[std::ops::Range<usize>],
    out: &mut Vec<T>,
) -> bool {
    if width > 32 {
        return false;
    }
    let len = dictionary.len as u64;
    // Only called with an index less than `len`.
    let entry = |index: u64| {
        if dictionary.entries.is_empty() {
            dictionary.table[index as usize]
        } else {
            dictionary.entries[index as usize]
        }
    };
    if width == 0 {
        let first = dictionary.table[0];
        out.extend(
            wanted
                .iter()
                .flat_map(|r| std::iter::repeat_n(first, r.len())),
        );
        return len > 0 || count == 0;
    }
    let mask = (1u64 << width) - 1;
    let w = width as usize;
    // The next wanted range, and the position of the run's first value in the page.
    let (mut next, mut at) = (0, 0);
    // The wanted values among the run's `count`, value `i` of the run being `value(i)`.
    let mut emit = |count: usize, out: &mut Vec<T>, value: &dyn Fn(usize) -> T| {
        let end = at + count;
        while let Some(range) = wanted.get(next) {
            if range.start >= end {
                break;
            }
            let (from, to) = (range.start.max(at), range.end.min(end));
            out.extend((from - at..to - at).map(value));
            if range.end > end {
                break;
            }
            next += 1;
        }
        at = end;
    };
    runs(data, count, width, |run| match run {
        Run::Repeated { value, count } => {
            if value >= len {
                return false;
            }
            let value = entry(value);
            emit(count, out, &|_| value);
            true
        }
        Run::Packed { bytes, count } => {
            // Value `i` of the run from the little-endian word at its first byte.
            let index = |i: usize| {
                let bit = i * w;
                match bytes.get(bit / 8..bit / 8 + 8) {
                    Some(word) => {
                        (u64::from_le_bytes(word.try_into().unwrap_or_default()) >> (bit % 8))
                            & mask
                    }
                    None => unpack(bytes, i, width),
                }
            };
            if (0..count).map(index).max().unwrap_or(0) >= len {
                return false;
            }
            emit(count, out, &|i| entry(index(i)));
            true
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `values` bit-packed at `width` bits each (least significant bit first), as one run of
    /// whole groups of 8.
    fn packed_values(values: &[u64], width: u8) -> Vec<u8> {
        let groups = values.len().div_ceil(8);
        let mut bits = vec![0u8; groups * width as usize];
        for (i, &v) in values.iter().enumerate() {
            for b in 0..width as usize {
                if v >> b & 1 == 1 {
                    let at = i * width as usize + b;
                    bits[at / 8] |= 1 << (at % 8);
                }
            }
        }
        let mut run = vec![(groups << 1 | 1) as u8];
        run.extend(bits);
        run
    }

    #[test]
    fn wide_dictionary_indices_are_looked_up_and_checked() {
        // 70,000 entries: 17-bit indices, past the 2^16 table.
        let entries: Vec<u32> = (0..70_000).map(|v| v * 3).collect();
        let dictionary = Dictionary::new(entries.clone()).unwrap();
        let indices = [
            0, 1, 69_999, 65_536, 4, 65_535, 12_345, 69_998, 7, 66_000, 3,
        ];
        let mut out = Vec::new();
        let data = packed_values(&indices, 17);
        assert!(dictionary_values(
            &data,
            indices.len(),
            17,
            &dictionary,
            &mut out
        ));
        let expected: Vec<u32> = indices.iter().map(|&i| entries[i as usize]).collect();
        assert_eq!(out, expected);
        // An RLE run of a wide index, then the packed run.
        let rle = [vec![6u8], 68_000u32.to_le_bytes()[..3].to_vec()].concat();
        out.clear();
        let data = [rle.clone(), packed_values(&indices, 17)].concat();
        assert!(dictionary_values(
            &data,
            3 + indices.len(),
            17,
            &dictionary,
            &mut out
        ));
        assert_eq!(out[..3], [204_000; 3]);
        assert_eq!(out[3..], expected);
        // An index past the end, packed (anywhere in the run) or repeated.
        for at in [0, 5, 10] {
            let mut bad = indices;
            bad[at] = 70_000;
            out.clear();
            let data = packed_values(&bad, 17);
            assert!(
                !dictionary_values(&data, bad.len(), 17, &dictionary, &mut out),
                "{at}"
            );
        }
        let rle = [vec![6u8], 70_000u32.to_le_bytes()[..3].to_vec()].concat();
        assert!(!dictionary_values(
            &rle,
            3,
            17,
            &dictionary,
            &mut Vec::new()
        ));
    }

    #[test]
    // Ranges of values, not vectors of integers.
    #[allow(clippy::single_range_in_vec_init)]
    fn selected_dictionary_values_are_those_of_the_whole_page() {
        // A narrow (10-bit) and a wide (17-bit) dictionary; an RLE run, then a packed one.
        for (entries, width) in [(1_000u32, 10u8), (70_000, 17)] {
            let entries: Vec<u32> = (0..entries).map(|v| v * 7 + 1).collect();
            let dictionary = Dictionary::new(entries.clone()).unwrap();
            let last = entries.len() as u64 - 1;
            let packed: Vec<u64> = (0..40).map(|i| (i * 7919) % (last + 1)).collect();
            // Five repeats of the last index, then the packed ones.
            let page = |packed: &[u64]| {
                let bytes = usize::from(width).div_ceil(8);
                [
                    vec![10u8],
                    (last as u32).to_le_bytes()[..bytes].to_vec(),
                    packed_values(packed, width),
                ]
                .concat()
            };
            let data = page(&packed);
            let count = 5 + packed.len();
            let mut whole = Vec::new();
            assert!(dictionary_values(
                &data,
                count,
                width,
                &dictionary,
                &mut whole
            ));
            // Ranges inside a run, across the two runs, and to the page's end.
            let cases: [&[std::ops::Range<usize>]; 5] = [
                &[],
                &[0..count],
                &[1..3],
                &[3..9, 12..13, 20..count],
                &[4..5, 5..6, 44..count],
            ];
            for wanted in cases {
                let mut out = Vec::new();
                assert!(selected_dictionary_values(
                    &data,
                    count,
                    width,
                    &dictionary,
                    wanted,
                    &mut out
                ));
                let expected: Vec<u32> = wanted
                    .iter()
                    .flat_map(|r| whole[r.clone()].to_vec())
                    .collect();
                assert_eq!(out, expected, "{width} {wanted:?}");
            }
            // An index past the end where no value is wanted still refuses the page.
            let mut bad = packed.clone();
            bad[30] = last + 1;
            let data = page(&bad);
            assert!(!selected_dictionary_values(
                &data,
                count,
                width,
                &dictionary,
                &[0..2],
                &mut Vec::new()
            ));
            let rle = [
                vec![10u8],
                ((last + 1) as u32).to_le_bytes()[..usize::from(width).div_ceil(8)].to_vec(),
            ]
            .concat();
            assert!(!selected_dictionary_values(
                &rle,
                5,
                width,
                &dictionary,
                &[],
                &mut Vec::new()
            ));
            // Data shorter than the page's values.
            assert!(!selected_dictionary_values(
                &data[..4],
                count,
                width,
                &dictionary,
                &[0..1],
                &mut Vec::new()
            ));
        }
        // Width 0: every index is 0.
        let dictionary = Dictionary::new(vec![9u32]).unwrap();
        let mut out = Vec::new();
        assert!(selected_dictionary_values(
            &[],
            6,
            0,
            &dictionary,
            &[1..3, 4..5],
            &mut out
        ));
        assert_eq!(out, [9, 9, 9]);
    }
}
