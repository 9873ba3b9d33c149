//! How each element type multiplies and adds in numpy's products (`matmul`, `dot`, `einsum`):
//! integers wrap around in their own width, float16 is worked in float32 and rounded once per
//! result element (numpy's half loops convert to float and back: `np.ones(4096, float16) @
//! np.ones(4096, float16)` is 4096, not the 2048 a float16 accumulator would stop at), float32
//! and float64 in their own type, and booleans as logic (`any(a & b)`).

use half::f16;

/// An element type of the products, with the type its sums run in.
pub trait Element: Copy + Default + Send + Sync + 'static {
    /// The type products and sums are worked in.
    type Acc: Copy;
    /// The sum of nothing.
    fn zero() -> Self::Acc;
    /// An element in the working type.
    fn widen(self) -> Self::Acc;
    /// `a * b` (`and` for booleans).
    fn mul(a: Self::Acc, b: Self::Acc) -> Self::Acc;
    /// `a + b` (`or` for booleans).
    fn add(a: Self::Acc, b: Self::Acc) -> Self::Acc;
    /// A result back in the element type.
    fn narrow(acc: Self::Acc) -> Self;
}

macro_rules! integer_element {
    ($($t:ty),*) => {$(
        impl Element for $t {
            type Acc = $t;
            #[inline]
            fn zero() -> $t {
                0
            }
            #[inline]
            fn widen(self) -> $t {
                self
            }
            #[inline]
            fn mul(a: $t, b: $t) -> $t {
                a.wrapping_mul(b)
            }
            #[inline]
            fn add(a: $t, b: $t) -> $t {
                a.wrapping_add(b)
            }
            #[inline]
            fn narrow(acc: $t) -> $t {
                acc
            }
        }
    )*};
}

integer_element!(i8, i16, i32, i64, u8, u16, u32, u64);

macro_rules! float_element {
    ($($t:ty),*) => {$(
        impl Element for $t {
            type Acc = $t;
            #[inline]
            fn zero() -> $t {
                0.0
            }
            #[inline]
            fn widen(self) -> $t {
                self
            }
            #[inline]
            fn mul(a: $t, b: $t) -> $t {
                a * b
            }
            #[inline]
            fn add(a: $t, b: $t) -> $t {
                a + b
            }
            #[inline]
            fn narrow(acc: $t) -> $t {
                acc
            }
        }
    )*};
}

float_element!(f32, f64);

impl Element for f16 {
    type Acc = f32;
    #[inline]
    fn zero() -> f32 {
        0.0
    }
    #[inline]
    fn widen(self) -> f32 {
        self.to_f32()
    }
    #[inline]
    fn mul(a: f32, b: f32) -> f32 {
        a * b
    }
    #[inline]
    fn add(a: f32, b: f32) -> f32 {
        a + b
    }
    #[inline]
    fn narrow(acc: f32) -> f16 {
        f16::from_f32(acc)
    }
}

impl Element for bool {
    type Acc = bool;
    #[inline]
    fn zero() -> bool {
        false
    }
    #[inline]
    fn widen(self) -> bool {
        self
    }
    #[inline]
    fn mul(a: bool, b: bool) -> bool {
        a && b
    }
    #[inline]
    fn add(a: bool, b: bool) -> bool {
        a || b
    }
    #[inline]
    fn narrow(acc: bool) -> bool {
        acc
    }
}
