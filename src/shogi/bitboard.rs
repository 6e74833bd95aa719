//! A set of squares as 81 bits of a `u128` (bit `i` is the square with index `i`). Each
//! file is nine consecutive bits, which makes file masks and lance rays simple.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use super::Square;

/// The 81 board bits.
pub(crate) const FULL: u128 = (1u128 << 81) - 1;

/// A set of squares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub(crate) u128);

impl Bitboard {
    /// No square.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// Every square.
    pub const FULL: Bitboard = Bitboard(FULL);

    /// The set with one square.
    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u128 << sq.index())
    }

    /// Number of squares in the set.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// True if the set holds `sq`.
    #[inline(always)]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1u128 << sq.index()) != 0
    }

    /// True if the set is empty.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True if the set holds more than one square.
    #[inline(always)]
    pub const fn has_more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The square of lowest index, if any.
    #[inline(always)]
    pub fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_unchecked(lsb(self.0)))
        }
    }

    /// Iterate over the squares in index order.
    #[inline(always)]
    pub fn iter(self) -> BitIter {
        BitIter(self.0)
    }
}

/// Index of the lowest set bit; `b` must not be 0.
#[inline(always)]
pub(crate) const fn lsb(b: u128) -> usize {
    let lo = b as u64;
    if lo != 0 {
        lo.trailing_zeros() as usize
    } else {
        64 + ((b >> 64) as u64).trailing_zeros() as usize
    }
}

/// Index of the highest set bit; `b` must not be 0.
#[inline(always)]
pub(crate) const fn msb(b: u128) -> usize {
    let hi = (b >> 64) as u64;
    if hi != 0 {
        127 - hi.leading_zeros() as usize
    } else {
        63 - (b as u64).leading_zeros() as usize
    }
}

/// Iterator over the set bits of a raw bitboard, lowest first.
pub struct BitIter(pub(crate) u128);

impl Iterator for BitIter {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let i = lsb(self.0);
        self.0 &= self.0 - 1;
        Some(Square::from_index_unchecked(i))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for BitIter {}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = BitIter;
    fn into_iter(self) -> BitIter {
        BitIter(self.0)
    }
}

impl BitAnd for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn bitand(self, o: Bitboard) -> Bitboard {
        Bitboard(self.0 & o.0)
    }
}
impl BitOr for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn bitor(self, o: Bitboard) -> Bitboard {
        Bitboard(self.0 | o.0)
    }
}
impl BitXor for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn bitxor(self, o: Bitboard) -> Bitboard {
        Bitboard(self.0 ^ o.0)
    }
}
impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & FULL)
    }
}
impl BitAndAssign for Bitboard {
    #[inline(always)]
    fn bitand_assign(&mut self, o: Bitboard) {
        self.0 &= o.0
    }
}
impl BitOrAssign for Bitboard {
    #[inline(always)]
    fn bitor_assign(&mut self, o: Bitboard) {
        self.0 |= o.0
    }
}
impl BitXorAssign for Bitboard {
    #[inline(always)]
    fn bitxor_assign(&mut self, o: Bitboard) {
        self.0 ^= o.0
    }
}

impl std::fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations() {
        let a = Bitboard::from_square(Square::new(1, 1).unwrap());
        let b = Bitboard::from_square(Square::new(9, 9).unwrap());
        let ab = a | b;
        assert_eq!(ab.count(), 2);
        assert!(ab.contains(Square::new(9, 9).unwrap()));
        assert_eq!(ab.iter().collect::<Vec<_>>().len(), 2);
        assert_eq!((!ab).count(), 79);
        assert!(ab.has_more_than_one());
        assert!(!a.has_more_than_one());
        assert_eq!(msb(ab.0), 80);
        assert_eq!(lsb(ab.0), 0);
        assert_eq!(lsb(1u128 << 70), 70);
        assert_eq!(msb(1u128 << 3), 3);
    }
}
