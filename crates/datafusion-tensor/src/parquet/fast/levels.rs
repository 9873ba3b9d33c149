//! The fast reader's ([`super`]) check that a page's repetition and definition levels are
//! those of full tensors, done on their RLE/bit-packed hybrid encoding without decoding them.
//!
//! A tensor column of `size` elements is a Parquet list: a page holds full tensors when every
//! definition level is the maximum (no NULL tensor, no NULL element) and the repetition level is
//! 0 exactly at the start of every `size` levels (every list has the tensor's length). A run of
//! the maximum definition level is one comparison; bit-packed repetition levels are compared
//! with the mask of list starts 64 at a time.
//!
//! A variable-shape tensor's `data` column is a list of another length in each row: there the
//! lists' starts are found in the repetition levels run by run ([`list_starts`]), to become the
//! list offsets.

/// Whether `levels` levels at chunk positions `start..` (repetition levels `rep`, one bit each;
/// definition levels `def`) are those of full tensors of `size` elements: every definition
/// level `max_def`, every repetition level 0 exactly at the multiples of `size`.
pub(super) fn full_tensor_levels(
    rep: &[u8],
    def: &[u8],
    levels: usize,
    start: u64,
    size: u64,
    max_def: i16,
) -> bool {
    if !all_max_def(def, levels, max_def) {
        return false;
    }
    // The position within its list of the next level (0: it must start a list). Kept by
    // addition: a division per run cost more than the rest of the check.
    let mut phase = start % size;
    runs(rep, levels, 1, |run| match run {
        Run::Repeated {
            value: 1, count, ..
        } => {
            let end = phase + count as u64;
            let ok = phase != 0 && end <= size;
            phase = if end == size { 0 } else { end };
            ok
        }
        Run::Repeated {
            value: 0, count, ..
        } => {
            let ok = phase == 0 && (count == 1 || size == 1);
            phase = u64::from(size != 1);
            ok
        }
        Run::Repeated { .. } => false,
        Run::Packed { bytes, count, .. } => {
            let ok = zeros_every(bytes, phase, count, size);
            let next = phase + count as u64;
            phase = if next < size {
                next
            } else if next < 2 * size {
                next - size
            } else {
                next % size
            };
            ok
        }
    })
}

/// Whether the first `levels` definition levels of `def` are all `max_def` (no NULL and no
/// empty list at any level of the column's nesting).
fn all_max_def(def: &[u8], levels: usize, max_def: i16) -> bool {
    let def_width = (16 - max_def.leading_zeros()) as u8;
    let max_def = max_def as u64;
    runs(def, levels, def_width, |run| match run {
        Run::Repeated { value, .. } => value == max_def,
        Run::Packed { bytes, count, .. } => {
            (0..count).all(|i| unpack(bytes, i, def_width) == max_def)
        }
    })
}

/// Whether `levels` levels at chunk positions `start..` (repetition levels `rep`, one bit each;
/// definition levels `def`) are those of lists of one or more non-NULL elements (every
/// definition level `max_def`): the positions of the lists' starts (repetition level 0)
/// appended to `starts`; `false` too when there would be more than `max_starts` of them.
/// (Whether the chunk's first level starts a list is the caller's to check.)
///
/// Decoded run by run, never level by level: a run of 1s lengthens the current list by its
/// count, a run of 0s starts that many lists, and a bit-packed run's 0s are found 64 levels
/// at a time (the set bits of the complemented word). A variable-shape image's levels are a
/// bit-packed group holding its 0 and a long run of 1s.
pub(super) fn list_starts(
    rep: &[u8],
    def: &[u8],
    levels: usize,
    start: u64,
    max_def: i16,
    starts: &mut Vec<u64>,
    max_starts: usize,
) -> bool {
    if !all_max_def(def, levels, max_def) {
        return false;
    }
    let mut at = start;
    runs(rep, levels, 1, |run| match run {
        Run::Repeated {
            value: 1, count, ..
        } => {
            at += count as u64;
            true
        }
        Run::Repeated {
            value: 0, count, ..
        } => {
            if starts.len().saturating_add(count) > max_starts {
                return false;
            }
            starts.extend(at..at + count as u64);
            at += count as u64;
            true
        }
        Run::Repeated { .. } => false,
        Run::Packed { bytes, count } => {
            for (word, first) in (0..count).step_by(64).enumerate() {
                let valid = (count - first).min(64);
                let Some(chunk) = bytes.get(word * 8..(word * 8 + valid.div_ceil(8))) else {
                    return false;
                };
                let mask = if valid == 64 {
                    u64::MAX
                } else {
                    (1u64 << valid) - 1
                };
                let mut zeros = !le_word(chunk) & mask;
                if starts.len().saturating_add(zeros.count_ones() as usize) > max_starts {
                    return false;
                }
                while zeros != 0 {
                    starts.push(at + first as u64 + u64::from(zeros.trailing_zeros()));
                    zeros &= zeros - 1;
                }
            }
            at += count as u64;
            true
        }
    })
}

/// The first `count` values of an RLE/bit-packed hybrid run sequence of `width`-bit values
/// (here 1-bit booleans), each less than `bound`, appended to `out`; `false` when `data`
/// holds fewer values or one not less than `bound`.
pub(super) fn hybrid_values(
    data: &[u8],
    count: usize,
    width: u8,
    bound: u64,
    out: &mut Vec<u32>,
) -> bool {
    if width > 32 {
        return false;
    }
    if width == 0 {
        out.extend(std::iter::repeat_n(0, count));
        return bound > 0 || count == 0;
    }
    runs(data, count, width, |run| match run {
        Run::Repeated { value, count } => {
            out.extend(std::iter::repeat_n(value as u32, count));
            value < bound
        }
        Run::Packed { bytes, count } => {
            let start = out.len();
            out.extend((0..count).map(|i| unpack(bytes, i, width) as u32));
            out[start..].iter().all(|&v| u64::from(v) < bound)
        }
    })
}

/// One run of an RLE/bit-packed hybrid level encoding: `count` levels, the next of the page.
pub(super) enum Run<'a> {
    Repeated {
        value: u64,
        count: usize,
    },
    /// Bit-packed levels: value `i` of `bytes` is the run's level `i`.
    Packed {
        bytes: &'a [u8],
        count: usize,
    },
}

/// The run header (an unsigned LEB128 varint) at `data[*pos..]`, `*pos` moved past it: its
/// value, of its first nine bytes as arrow-rs reads them, and its length in bytes, read up to
/// an eleventh byte (past arrow-rs's limit of ten). `None` when `data` ends inside it.
#[inline(always)]
fn run_header(data: &[u8], pos: &mut usize) -> Option<(u64, usize)> {
    let (mut header, mut length) = (0u64, 0usize);
    loop {
        let byte = *data.get(*pos)?;
        *pos += 1;
        length += 1;
        if length <= 9 {
            header |= u64::from(byte & 0x7f) << (7 * (length - 1));
        }
        if byte & 0x80 == 0 || length > 10 {
            return Some((header, length));
        }
    }
}

/// Whether `check` holds for every run of the first `levels` levels of `data` (levels of
/// `width` bits), and `data` holds that many levels.
pub(super) fn runs(
    data: &[u8],
    levels: usize,
    width: u8,
    mut check: impl FnMut(Run) -> bool,
) -> bool {
    let (mut pos, mut at) = (0, 0);
    while at < levels {
        // At most six bytes (35 bits of a count, then a byte that ends the header).
        let header = match run_header(data, &mut pos) {
            Some((header, length)) if length <= 6 => header,
            _ => return false,
        };
        let run = if header & 1 == 1 {
            let groups = (header >> 1) as usize;
            let Some(bytes) = data.get(pos..pos + groups * width as usize) else {
                return false;
            };
            pos += bytes.len();
            let count = (groups * 8).min(levels - at);
            Run::Packed { bytes, count }
        } else {
            let width_bytes = (width as usize).div_ceil(8);
            let Some(bytes) = data.get(pos..pos + width_bytes) else {
                return false;
            };
            pos += width_bytes;
            let value = le_word(bytes);
            let count = ((header >> 1) as usize).min(levels - at);
            Run::Repeated { value, count }
        };
        let count = match run {
            Run::Repeated { count, .. } | Run::Packed { count, .. } => count,
        };
        if count == 0 || !check(run) {
            return false;
        }
        at += count;
    }
    true
}

/// Whether a run header among the runs of the first `levels` levels of `data` (levels of
/// `width` bits) is a varint of more than 10 bytes. arrow-rs's RLE decoder (its level reader,
/// and its reader of dictionary indices) asserts that a header is at most 10 bytes, and
/// panics on one longer: [`runs`] refuses any header past 35 bits, and this tells such a
/// page apart from one that merely holds anything but full tensors. Walks the run headers
/// alone (called once a page, when [`runs`] refused it or before arrow-rs reads it).
pub(super) fn overlong_run_header(data: &[u8], levels: usize, width: u8) -> bool {
    let (mut pos, mut at) = (0usize, 0u64);
    while at < levels as u64 {
        let header = match run_header(data, &mut pos) {
            None => return false,
            Some((_, length)) if length > 10 => return true,
            Some((header, _)) => header,
        };
        let (bytes, count) = if header & 1 == 1 {
            let groups = header >> 1;
            (
                groups.saturating_mul(u64::from(width)),
                groups.saturating_mul(8),
            )
        } else if header == 0 {
            // arrow-rs ends the runs at a header of 0.
            return false;
        } else {
            (u64::from(width).div_ceil(8), header >> 1)
        };
        pos = match usize::try_from(bytes).ok().and_then(|b| pos.checked_add(b)) {
            Some(end) if end <= data.len() => end,
            _ => return false,
        };
        at = at.saturating_add(count);
    }
    false
}

/// Whether `data` holds fewer than `levels` levels of `width` bits as arrow-rs's RLE decoder
/// reads them: its runs end early (a header of 0 ends them there; so does the data), an RLE
/// run's value is cut, or a bit-packed run is cut before enough levels. Such a page is corrupt
/// whatever it was meant to hold: arrow-rs's reader fails on it ("insufficient levels"), and
/// its skip of records (a row selection: DataFusion's reader taking a row group over from a
/// row past its first) spins forever on repetition levels that end early. Walks the run
/// headers alone; called once a page, when [`runs`] refused it.
pub(super) fn short_levels(data: &[u8], levels: usize, width: u8) -> bool {
    let (mut pos, mut read) = (0usize, 0u64);
    let width = u64::from(width);
    while read < levels as u64 {
        let header = match run_header(data, &mut pos) {
            Some((header, length)) if length <= 10 => header,
            _ => return true,
        };
        if header == 0 {
            return true;
        }
        let left = (data.len() - pos) as u64;
        if header & 1 == 1 {
            // arrow-rs counts a bit-packed run's levels in 32 bits, and reads as many of them
            // as its bytes hold.
            let count = u64::from((header >> 1).wrapping_mul(8) as u32);
            let bytes = (header >> 1).saturating_mul(width).min(left);
            let held = (bytes * 8).checked_div(width).unwrap_or(count);
            read = read.saturating_add(count.min(held));
            pos += bytes as usize;
        } else {
            let value_bytes = width.div_ceil(8);
            if value_bytes > left {
                return true;
            }
            read = read.saturating_add(u64::from((header >> 1) as u32));
            pos += value_bytes as usize;
        }
    }
    false
}

/// The little-endian word of the first (up to 8) bytes of `bytes`, the missing high bytes 0.
///
/// Assembled by shifts: a copy into a stack word (a memcpy call, then a load the stores cannot
/// forward to) was half of [`zeros_every`]'s time, most of its runs being a short tail.
pub(super) fn le_word(bytes: &[u8]) -> u64 {
    bytes[..bytes.len().min(8)]
        .iter()
        .rev()
        .fold(0u64, |word, &byte| (word << 8) | u64::from(byte))
}

/// Value `i` of bit-packed `bytes` of `width` bits each (least significant bit first).
pub(super) fn unpack(bytes: &[u8], i: usize, width: u8) -> u64 {
    let bit = i * width as usize;
    let word = le_word(bytes.get(bit / 8..).unwrap_or_default());
    (word >> (bit % 8)) & ((1u64 << width) - 1)
}

/// Whether the first `count` one-bit levels of `bytes`, the first at position `phase` of its
/// list, are 0 exactly where a list of `size` starts: 64 levels at a time, against the mask of
/// list starts (the same mask for every word when `size` divides 64).
fn zeros_every(bytes: &[u8], phase: u64, count: usize, size: u64) -> bool {
    // The list starts among `valid` levels from position `phase`, as set bits.
    let starts = |phase: u64, valid: usize| {
        let mut mask = 0u64;
        let mut j = if phase == 0 { 0 } else { size - phase };
        while j < valid as u64 {
            mask |= 1 << j;
            j += size;
        }
        mask
    };
    let full = count / 64;
    let Some(full_bytes) = bytes.get(..full * 8) else {
        return false;
    };
    let (words, _) = full_bytes.as_chunks::<8>();
    let mut phase = phase;
    if size.is_power_of_two() && size <= 64 {
        let expected = !starts(phase, 64);
        if !words.iter().all(|w| u64::from_le_bytes(*w) == expected) {
            return false;
        }
    } else {
        for w in words {
            if u64::from_le_bytes(*w) != !starts(phase, 64) {
                return false;
            }
            phase = (phase + 64) % size;
        }
    }
    let rest = count - full * 64;
    if rest == 0 {
        return true;
    }
    let Some(tail) = bytes.get(full * 8..full * 8 + rest.div_ceil(8)) else {
        return false;
    };
    let word = le_word(tail);
    let valid_mask = (1u64 << rest) - 1;
    !word & valid_mask == starts(phase, rest)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One-bit levels packed least significant bit first.
    fn pack(levels: &[u8]) -> Vec<u8> {
        let mut bytes = vec![0u8; levels.len().div_ceil(8)];
        for (i, &level) in levels.iter().enumerate() {
            bytes[i / 8] |= level << (i % 8);
        }
        bytes
    }

    /// Repetition levels of lists of the given lengths.
    fn lists(lengths: &[usize]) -> Vec<u8> {
        lengths
            .iter()
            .flat_map(|&n| (0..n).map(|i| u8::from(i > 0)))
            .collect()
    }

    /// A bit-packed run of one-bit levels (padded to a multiple of 8 with `pad`).
    fn packed_run(levels: &[u8], pad: u8) -> Vec<u8> {
        let mut padded = levels.to_vec();
        padded.resize(levels.len().div_ceil(8) * 8, pad);
        let mut run = vec![((padded.len() / 8) << 1 | 1) as u8];
        run.extend(pack(&padded));
        run
    }

    /// An RLE run: the varint header and the value in `width_bytes` bytes.
    fn rle_run(count: usize, value: u8, width_bytes: usize) -> Vec<u8> {
        let mut header = (count as u64) << 1;
        let mut run = Vec::new();
        loop {
            let byte = (header & 0x7f) as u8;
            header >>= 7;
            if header == 0 {
                run.push(byte);
                break;
            }
            run.push(byte | 0x80);
        }
        run.push(value);
        run.extend(std::iter::repeat_n(0, width_bytes - 1));
        run
    }

    #[test]
    fn zeros_must_fall_on_every_list_start() {
        for size in [1usize, 2, 3, 4, 16, 63, 64, 65, 100] {
            let good = lists(&[size; 7]);
            assert!(
                zeros_every(&pack(&good), 0, good.len(), size as u64),
                "{size}"
            );
            // Started mid-chunk: the first list began `size - 1` levels before this page.
            if size > 1 {
                assert!(
                    zeros_every(&pack(&good[1..]), 1, good.len() - 1, size as u64),
                    "{size}"
                );
                assert!(!zeros_every(
                    &pack(&good[1..]),
                    0,
                    good.len() - 1,
                    size as u64
                ));
            }
            // One list a level short, the next a level long: same total, same zero count.
            let mut lengths = vec![size; 7];
            if size > 1 {
                lengths[2] -= 1;
                lengths[3] += 1;
                let bad = lists(&lengths);
                assert!(
                    !zeros_every(&pack(&bad), 0, bad.len(), size as u64),
                    "{size}"
                );
            }
            // Fewer bytes than levels.
            assert!(!zeros_every(&pack(&good)[..1], 0, good.len(), size as u64) || good.len() <= 8);
        }
    }

    #[test]
    fn levels_of_full_tensors_pass_and_others_do_not() {
        let def_full = rle_run(8, 3, 1);
        // Bit-packed repetition levels, padding after the last level ignored.
        // A page may end inside a list (version-1 pages): the next page goes on at position 7
        // (and a chunk that ends there has fewer values than its rows need).
        let rep = packed_run(&lists(&[4, 3]), 1);
        assert!(full_tensor_levels(&rep, &def_full, 7, 0, 4, 3));
        assert!(full_tensor_levels(&rle_run(1, 1, 1), &def_full, 1, 7, 4, 3));
        assert!(!full_tensor_levels(
            &rle_run(1, 0, 1),
            &def_full,
            1,
            7,
            4,
            3
        ));
        let rep = packed_run(&lists(&[4, 4]), 0);
        assert!(full_tensor_levels(&rep, &def_full, 8, 0, 4, 3));
        // The same as RLE runs: 0, three 1s, 0, three 1s.
        let rle: Vec<u8> = [
            rle_run(1, 0, 1),
            rle_run(3, 1, 1),
            rle_run(1, 0, 1),
            rle_run(3, 1, 1),
        ]
        .concat();
        assert!(full_tensor_levels(&rle, &def_full, 8, 0, 4, 3));
        // A list of 5 then 3.
        let rle5: Vec<u8> = [
            rle_run(1, 0, 1),
            rle_run(4, 1, 1),
            rle_run(1, 0, 1),
            rle_run(2, 1, 1),
        ]
        .concat();
        assert!(!full_tensor_levels(&rle5, &def_full, 8, 0, 4, 3));
        // Two zeros in a row: an empty or one-element list, unless the size is 1.
        assert!(!full_tensor_levels(
            &rle_run(8, 0, 1),
            &def_full,
            8,
            0,
            4,
            3
        ));
        assert!(full_tensor_levels(&rle_run(8, 0, 1), &def_full, 8, 0, 1, 3));
        // A NULL element (definition level 2) in a bit-packed run of 2-bit levels.
        let def_null = vec![0x03, 0b1011_1111, 0xff];
        let def_all = vec![0x03, 0xff, 0xff];
        assert!(full_tensor_levels(&rep, &def_all, 8, 0, 4, 3));
        assert!(!full_tensor_levels(&rep, &def_null, 8, 0, 4, 3));
        // A NULL tensor: an RLE run of a lower definition level.
        let def_low = [rle_run(4, 3, 1), rle_run(4, 0, 1)].concat();
        assert!(!full_tensor_levels(&rep, &def_low, 8, 0, 4, 3));
        // Level data shorter than the page's levels, or cut inside a run.
        assert!(!full_tensor_levels(&rep, &def_full, 9, 0, 4, 3));
        assert!(!full_tensor_levels(&rep[..1], &def_full, 8, 0, 4, 3));
        assert!(!full_tensor_levels(&rep, &def_full[..1], 8, 0, 4, 3));
        assert!(!full_tensor_levels(&[], &[], 1, 0, 4, 3));
        // A zero-length run would never end.
        assert!(!full_tensor_levels(&rep, &[0x00, 0x03], 8, 0, 4, 3));
        // A multi-byte run header: one list of 201 levels.
        let long = [rle_run(1, 0, 1), rle_run(200, 1, 1)].concat();
        assert_eq!(long.len(), 5);
        assert!(full_tensor_levels(
            &long,
            &rle_run(201, 3, 1),
            201,
            0,
            201,
            3
        ));
        assert!(!full_tensor_levels(
            &long,
            &rle_run(201, 3, 1),
            201,
            0,
            200,
            3
        ));
        // A header varint that never ends.
        assert!(!full_tensor_levels(&[0xff; 9], &def_full, 8, 0, 4, 3));
    }

    #[test]
    fn levels_arrow_rs_cannot_read_are_told_apart() {
        let full = [rle_run(1, 0, 1), rle_run(3, 1, 1)].concat();
        assert!(!short_levels(&full, 4, 1));
        assert!(!overlong_run_header(&full, 4, 1));
        // Nothing, a header of 0, runs that end early, an RLE value cut, a bit-packed run
        // cut before the levels (arrow-rs reads what its bytes hold), 2^30 groups.
        assert!(short_levels(&[], 4, 1));
        assert!(short_levels(&[0, 0], 4, 1));
        assert!(short_levels(&full, 5, 1));
        assert!(short_levels(&[8], 4, 1));
        assert!(short_levels(&[0x11, 0xee], 64, 1));
        assert!(!short_levels(&[0x11, 0xee], 8, 1));
        let huge = [vec![0x81, 0x80, 0x80, 0x80, 0x08], vec![0xee; 8]].concat();
        assert!(short_levels(&huge, 64, 1));
        // A header of 11 bytes (arrow-rs asserts at most 10); one of 10 is only short.
        let long = [vec![0xff; 10], vec![0x01, 0x00]].concat();
        assert!(overlong_run_header(&long, 4, 1));
        assert!(short_levels(&long, 4, 1));
        let ten = [vec![0xff; 9], vec![0x01]].concat();
        assert!(!overlong_run_header(&ten, 4, 1));
    }

    #[test]
    fn list_starts_are_found_run_by_run() {
        let def_full = rle_run(300, 3, 1);
        // Lists of 3, 1, 1, 70 and 2 levels as one bit-packed run (the 70 crosses a word).
        let lengths = [3, 1, 1, 70, 2];
        let rep = packed_run(&lists(&lengths), 1);
        let mut starts = Vec::new();
        assert!(list_starts(&rep, &def_full, 77, 0, 3, &mut starts, 10));
        assert_eq!(starts, [0, 3, 4, 5, 75]);
        // Started mid-chunk: positions from `start`, and a page that starts inside a list.
        starts.clear();
        assert!(list_starts(
            &rep[..],
            &def_full,
            77,
            1000,
            3,
            &mut starts,
            10
        ));
        assert_eq!(starts, [1000, 1003, 1004, 1005, 1075]);
        // The same lists as RLE runs: 0, 1 1, 0, 0, 0, 69 1s, 0, 1.
        let rle: Vec<u8> = [
            rle_run(1, 0, 1),
            rle_run(2, 1, 1),
            rle_run(3, 0, 1),
            rle_run(69, 1, 1),
            rle_run(1, 0, 1),
            rle_run(1, 1, 1),
        ]
        .concat();
        starts.clear();
        assert!(list_starts(&rle, &def_full, 77, 0, 3, &mut starts, 10));
        assert_eq!(starts, [0, 3, 4, 5, 75]);
        // More lists than allowed, a NULL or empty list (a lower definition level), a
        // repetition level past 1, levels missing.
        starts.clear();
        assert!(!list_starts(&rle, &def_full, 77, 0, 3, &mut starts, 4));
        let def_low = [rle_run(10, 3, 1), rle_run(1, 2, 1), rle_run(66, 3, 1)].concat();
        assert!(!list_starts(&rle, &def_low, 77, 0, 3, &mut Vec::new(), 10));
        assert!(!list_starts(
            &rle_run(4, 2, 1),
            &def_full,
            4,
            0,
            3,
            &mut Vec::new(),
            10
        ));
        assert!(!list_starts(&rle, &def_full, 78, 0, 3, &mut Vec::new(), 10));
        assert!(!list_starts(
            &rep[..3],
            &def_full,
            77,
            0,
            3,
            &mut Vec::new(),
            10
        ));
    }
}
