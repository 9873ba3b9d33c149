//! The instruction sets the hot loops are compiled for, chosen at run time ([`Level`]), so the
//! default build (baseline x86-64: SSE2) and the Python wheels use AVX2 and AVX-512 where the
//! CPU has them, without `-C target-cpu=native`. A loop is written once, as plain Rust the
//! compiler vectorises, and compiled once per level ([`at_level`]): the same operations in the
//! same order at every level (no FMA), so every level gives the same bits, which the kernels'
//! tests check level by level. On aarch64, NEON is the baseline: `Portable` uses it.

/// The instruction set a loop runs with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Level {
    /// The build's own target.
    Portable,
    /// x86-64 with AVX2.
    #[cfg(target_arch = "x86_64")]
    Avx2,
    /// x86-64 with AVX-512F.
    #[cfg(target_arch = "x86_64")]
    Avx512,
}

impl Level {
    /// The best level this machine runs (detected once; `is_x86_feature_detected!` caches it).
    pub(crate) fn best() -> Self {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512f") {
                return Self::Avx512;
            }
            if std::arch::is_x86_feature_detected!("avx2") {
                return Self::Avx2;
            }
        }
        Self::Portable
    }

    /// Every level this machine runs (the tests run each).
    #[cfg(test)]
    pub(crate) fn available() -> Vec<Self> {
        let mut levels = vec![Self::Portable];
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                levels.push(Self::Avx2);
            }
            if std::arch::is_x86_feature_detected!("avx512f") {
                levels.push(Self::Avx512);
            }
        }
        levels
    }
}

/// `at_level!(level, fn(arg: Type, ...) -> Ret { body })`: the body, a function of the named
/// arguments (locals of the same names at the call), compiled once per [`Level`] and run at
/// `level`. The body is `#[inline(always)]`, so it and every `#[inline(always)]` function it
/// calls are compiled with the level's instructions.
macro_rules! at_level {
    ($level:expr, fn($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty $body:block) => {{
        #[inline(always)]
        fn body($($arg: $ty),*) -> $ret $body

        /// The body compiled with AVX2.
        ///
        /// # Safety
        /// The CPU must support AVX2.
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2")]
        unsafe fn avx2($($arg: $ty),*) -> $ret {
            body($($arg),*)
        }

        /// The body compiled with AVX-512F.
        ///
        /// # Safety
        /// The CPU must support AVX-512F.
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx512f")]
        unsafe fn avx512($($arg: $ty),*) -> $ret {
            body($($arg),*)
        }

        match $level {
            $crate::kernels::simd::Level::Portable => body($($arg),*),
            // SAFETY: `Avx2` is only chosen where the CPU has AVX2 (`Level::best`, `available`).
            #[cfg(target_arch = "x86_64")]
            $crate::kernels::simd::Level::Avx2 => unsafe { avx2($($arg),*) },
            // SAFETY: `Avx512` is only chosen where the CPU has AVX-512F.
            #[cfg(target_arch = "x86_64")]
            $crate::kernels::simd::Level::Avx512 => unsafe { avx512($($arg),*) },
        }
    }};
}
pub(crate) use at_level;

/// `out` extended by `f` of each value: a plain loop over the buffers, so that with `f` inlined
/// (an `#[inline(always)]` closure) the compiler vectorises it at the caller's level (through
/// `Vec::extend`'s iterator adapters the element function was called, not inlined).
#[inline(always)]
pub(crate) fn extend_map<A: Copy, O>(out: &mut Vec<O>, a: &[A], f: impl Fn(A) -> O) {
    let n = a.len();
    out.reserve(n);
    let len = out.len();
    for (o, &x) in out.spare_capacity_mut()[..n].iter_mut().zip(a) {
        o.write(f(x));
    }
    // SAFETY: the `n` values past the length were written just above.
    unsafe { out.set_len(len + n) };
}

/// `out` extended by `f` of each pair of values, as [`extend_map`] (as many as the shorter
/// buffer holds).
#[inline(always)]
pub(crate) fn extend_zip<A: Copy, B: Copy, O>(
    out: &mut Vec<O>,
    a: &[A],
    b: &[B],
    f: impl Fn(A, B) -> O,
) {
    let n = a.len().min(b.len());
    out.reserve(n);
    let len = out.len();
    for ((o, &x), &y) in out.spare_capacity_mut()[..n].iter_mut().zip(a).zip(b) {
        o.write(f(x, y));
    }
    // SAFETY: the `n` values past the length were written just above.
    unsafe { out.set_len(len + n) };
}
