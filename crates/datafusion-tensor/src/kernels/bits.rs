//! Booleans packed into Arrow's bitmaps, 64 at a time.
//!
//! A chunk of 64 elements is tested into 64 bytes (one vectorised pass) and the bytes are
//! folded into the word's bits eight at a time by one multiplication: 4-12x faster than
//! arrow's `collect_bool`, through which arrow's comparison kernels pack, so the tensor
//! comparisons use these (measured: docs/src/benchmarks/choices.md).

use arrow::buffer::{BooleanBuffer, Buffer};

/// Eight 0/1 bytes, the first at the lowest address, as the low eight bits of a `u64` (the
/// first byte the lowest bit): byte `i` of the product's top byte sums `b_i * 2^i`, and no
/// lower byte of the product exceeds 255, so nothing carries into it.
#[inline(always)]
fn byte_of(eight: [u8; 8]) -> u64 {
    u64::from_le_bytes(eight).wrapping_mul(0x0102_0408_1020_4080) >> 56
}

#[inline(always)]
fn word_of(flags: &[u8; 64]) -> u64 {
    let (eights, _) = flags.as_chunks::<8>();
    eights
        .iter()
        .enumerate()
        .fold(0, |word, (k, eight)| word | (byte_of(*eight) << (8 * k)))
}

/// The bits of fewer than 64 flags, one by one.
fn tail_word(flags: impl Iterator<Item = bool>) -> u64 {
    flags
        .enumerate()
        .fold(0, |word, (i, flag)| word | (u64::from(flag) << i))
}

fn finish(words: Vec<u64>, len: usize) -> BooleanBuffer {
    BooleanBuffer::new(Buffer::from_vec(words), 0, len)
}

/// `f` of each element of `x`, packed.
pub fn pack_map<T: Copy>(x: &[T], f: impl Fn(T) -> bool) -> BooleanBuffer {
    let (chunks, rest) = x.as_chunks::<64>();
    let mut words = Vec::with_capacity(x.len().div_ceil(64));
    words.extend(chunks.iter().map(|chunk| {
        let mut flags = [0u8; 64];
        for (flag, &v) in flags.iter_mut().zip(chunk) {
            *flag = u8::from(f(v));
        }
        word_of(&flags)
    }));
    if !rest.is_empty() {
        words.push(tail_word(rest.iter().map(|&v| f(v))));
    }
    finish(words, x.len())
}

/// `f` of the elements of `x` and `y` pairwise (as many as the shorter holds), packed.
pub fn pack_zip<T: Copy>(x: &[T], y: &[T], f: impl Fn(T, T) -> bool) -> BooleanBuffer {
    let len = x.len().min(y.len());
    let (xs, x_rest) = x[..len].as_chunks::<64>();
    let (ys, y_rest) = y[..len].as_chunks::<64>();
    let mut words = Vec::with_capacity(len.div_ceil(64));
    words.extend(xs.iter().zip(ys).map(|(cx, cy)| {
        let mut flags = [0u8; 64];
        for ((flag, &p), &q) in flags.iter_mut().zip(cx).zip(cy) {
            *flag = u8::from(f(p, q));
        }
        word_of(&flags)
    }));
    if !x_rest.is_empty() {
        words.push(tail_word(x_rest.iter().zip(y_rest).map(|(&p, &q)| f(p, q))));
    }
    finish(words, len)
}

/// Nonzero bytes as set bits.
pub fn pack_bytes(bytes: &[u8]) -> BooleanBuffer {
    pack_map(bytes, |b| b != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expected(flags: &[bool]) -> BooleanBuffer {
        BooleanBuffer::collect_bool(flags.len(), |i| flags[i])
    }

    #[test]
    fn packs_as_collect_bool_does() {
        // Lengths around the word and byte boundaries, flags from a scrambled pattern.
        for len in [0, 1, 7, 8, 9, 63, 64, 65, 127, 128, 200, 1000] {
            let x: Vec<u32> = (0..len as u32)
                .map(|i| i.wrapping_mul(2_654_435_761) >> 7)
                .collect();
            let flags: Vec<bool> = x.iter().map(|v| v % 3 == 0).collect();
            assert_eq!(pack_map(&x, |v| v % 3 == 0), expected(&flags), "{len}");
            let y: Vec<u32> = x.iter().rev().copied().collect();
            let pairs: Vec<bool> = x.iter().zip(&y).map(|(p, q)| p < q).collect();
            assert_eq!(pack_zip(&x, &y, |p, q| p < q), expected(&pairs), "{len}");
            let bytes: Vec<u8> = x.iter().map(|v| (v % 5) as u8).collect();
            let nonzero: Vec<bool> = bytes.iter().map(|&b| b != 0).collect();
            assert_eq!(pack_bytes(&bytes), expected(&nonzero), "{len}");
        }
        // The shorter operand bounds a zip.
        let packed = pack_zip(&[1, 2, 3], &[1, 2], |p, q| p == q);
        assert_eq!(packed, expected(&[true, true]));
    }
}
