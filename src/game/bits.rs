//! Bit sets for boards of every supported size: `u64` serves boards of up
//! to 64 cells (the hot path), `u128` up to 128, [`Wide`] up to 256. Rules
//! code generic over [`Bits`] (Breakthrough, Connect Four) gets its own
//! monomorphised, branch-free code for each size; each game chooses its
//! own cell layout.

use std::fmt::Debug;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of board cells as an unsigned integer (`u64`, or a wider type for
/// boards of more than 64 cells).
pub trait Bits:
    Copy
    + Eq
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// Number of cells the type can hold.
    const CELLS: usize;
    /// The empty set.
    const ZERO: Self;

    /// The set holding only `index`.
    fn bit(index: usize) -> Self;
    /// Shifts towards higher indices; `n < CELLS`.
    fn shl(self, n: usize) -> Self;
    /// Shifts towards lower indices; `n < CELLS`.
    fn shr(self, n: usize) -> Self;
    /// Cells in the set.
    fn count(self) -> u32;
    /// Index of the lowest set bit; the set must not be empty.
    fn lowest(self) -> usize;
    /// Index of the highest set bit; the set must not be empty.
    fn highest(self) -> usize;
    /// The set without its lowest bit.
    fn without_lowest(self) -> Self;

    /// Whether the set is empty.
    fn is_empty(self) -> bool {
        self == Self::ZERO
    }

    /// Whether the set holds `index`.
    fn has(self, index: usize) -> bool {
        !(self & Self::bit(index)).is_empty()
    }

    /// The set cells, lowest first.
    fn squares(self) -> Squares<Self> {
        Squares(self)
    }
}

/// Iterator over the cells of a set, lowest first.
pub struct Squares<B>(B);

impl<B: Bits> Iterator for Squares<B> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0.is_empty() {
            return None;
        }
        let sq = self.0.lowest();
        self.0 = self.0.without_lowest();
        Some(sq)
    }
}

macro_rules! native_bits {
    ($t:ty) => {
        impl Bits for $t {
            const CELLS: usize = <$t>::BITS as usize;
            const ZERO: Self = 0;

            #[inline]
            fn bit(index: usize) -> Self {
                1 << index
            }
            #[inline]
            fn shl(self, n: usize) -> Self {
                self << n
            }
            #[inline]
            fn shr(self, n: usize) -> Self {
                self >> n
            }
            #[inline]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline]
            fn lowest(self) -> usize {
                self.trailing_zeros() as usize
            }
            #[inline]
            fn highest(self) -> usize {
                (<$t>::BITS - 1 - self.leading_zeros()) as usize
            }
            #[inline]
            fn without_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }
        }
    };
}

native_bits!(u64);
native_bits!(u128);

/// 256 cells in four words, least significant word first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Wide(pub [u64; 4]);

impl BitAnd for Wide {
    type Output = Wide;
    #[inline]
    fn bitand(self, o: Wide) -> Wide {
        Wide(std::array::from_fn(|i| self.0[i] & o.0[i]))
    }
}

impl BitOr for Wide {
    type Output = Wide;
    #[inline]
    fn bitor(self, o: Wide) -> Wide {
        Wide(std::array::from_fn(|i| self.0[i] | o.0[i]))
    }
}

impl BitXor for Wide {
    type Output = Wide;
    #[inline]
    fn bitxor(self, o: Wide) -> Wide {
        Wide(std::array::from_fn(|i| self.0[i] ^ o.0[i]))
    }
}

impl Not for Wide {
    type Output = Wide;
    #[inline]
    fn not(self) -> Wide {
        Wide(self.0.map(|w| !w))
    }
}

impl BitAndAssign for Wide {
    #[inline]
    fn bitand_assign(&mut self, o: Wide) {
        *self = *self & o;
    }
}

impl BitOrAssign for Wide {
    #[inline]
    fn bitor_assign(&mut self, o: Wide) {
        *self = *self | o;
    }
}

impl BitXorAssign for Wide {
    #[inline]
    fn bitxor_assign(&mut self, o: Wide) {
        *self = *self ^ o;
    }
}

impl Bits for Wide {
    const CELLS: usize = 256;
    const ZERO: Self = Wide([0; 4]);

    #[inline]
    fn bit(index: usize) -> Self {
        let mut w = [0; 4];
        w[index / 64] = 1 << (index % 64);
        Wide(w)
    }

    fn shl(self, n: usize) -> Self {
        let (words, bits) = (n / 64, n % 64);
        let a = self.0;
        Wide(std::array::from_fn(|i| {
            if i < words {
                return 0;
            }
            let mut w = a[i - words] << bits;
            if bits > 0 && i > words {
                w |= a[i - words - 1] >> (64 - bits);
            }
            w
        }))
    }

    fn shr(self, n: usize) -> Self {
        let (words, bits) = (n / 64, n % 64);
        let a = self.0;
        Wide(std::array::from_fn(|i| {
            if i + words >= 4 {
                return 0;
            }
            let mut w = a[i + words] >> bits;
            if bits > 0 && i + words + 1 < 4 {
                w |= a[i + words + 1] << (64 - bits);
            }
            w
        }))
    }

    #[inline]
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    #[inline]
    fn lowest(self) -> usize {
        let i = self.0.iter().position(|&w| w != 0).unwrap_or(3);
        i * 64 + self.0[i].trailing_zeros() as usize
    }

    #[inline]
    fn highest(self) -> usize {
        let i = self.0.iter().rposition(|&w| w != 0).unwrap_or(0);
        i * 64 + 63 - self.0[i].leading_zeros() as usize
    }

    #[inline]
    fn without_lowest(self) -> Self {
        let mut w = self.0;
        if let Some(i) = w.iter().position(|&x| x != 0) {
            w[i] &= w[i] - 1;
        }
        Wide(w)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Wide must agree with u128 on the low 128 bits.
    fn low(w: Wide) -> u128 {
        w.0[0] as u128 | (w.0[1] as u128) << 64
    }

    #[test]
    fn wide_shifts_carry_across_words() {
        let x = Wide::bit(63) | Wide::bit(5) | Wide::bit(100);
        let y: u128 = (1 << 63) | (1 << 5) | (1 << 100);
        for n in [1, 7, 8, 9, 17, 63, 64, 65] {
            assert_eq!(low(x.shl(n)), y << n, "shl {n}");
            assert_eq!(low(x.shr(n)), y >> n, "shr {n}");
        }
        assert_eq!(Wide::bit(255).shl(1), Wide::ZERO, "bits fall off the top");
        assert_eq!(Wide::bit(200).shr(136), Wide::bit(64));
        assert_eq!(Wide::bit(3).shl(200), Wide::bit(203));
    }

    #[test]
    fn wide_scans() {
        let x = Wide::bit(70) | Wide::bit(199) | Wide::bit(250);
        assert_eq!(x.lowest(), 70);
        assert_eq!(x.highest(), 250);
        assert_eq!(x.count(), 3);
        assert_eq!(x.squares().collect::<Vec<_>>(), vec![70, 199, 250]);
        assert_eq!(0b1010u64.squares().collect::<Vec<_>>(), vec![1, 3]);
        assert_eq!((1u128 << 127).highest(), 127);
    }
}
