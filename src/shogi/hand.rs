//! Pieces in hand, packed into one `u32` (a field per hand kind) so that a hand is cheap
//! to copy, compare and hash.

use super::PieceKind;

const SHIFT: [u32; 7] = [0, 8, 12, 16, 20, 24, 28];
const MASK: [u32; 7] = [0x1f, 0x7, 0x7, 0x7, 0x7, 0x3, 0x3];

/// The pieces one side holds in hand.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Hand(u32);

impl Hand {
    /// An empty hand.
    pub const EMPTY: Hand = Hand(0);

    /// How many pieces of kind `k` (a promoted kind counts as its unpromoted kind; the king 0).
    #[inline(always)]
    pub fn count(&self, k: PieceKind) -> u32 {
        let k = k.unpromoted();
        if !k.is_hand_kind() {
            return 0;
        }
        let i = k as usize;
        (self.0 >> SHIFT[i]) & MASK[i]
    }

    /// Add one piece of kind `k` (promoted kinds are added unpromoted; kings are ignored).
    /// Counts saturate at the field width (more than a full set is rejected by validation).
    #[inline(always)]
    pub fn add(&mut self, k: PieceKind) {
        let k = k.unpromoted();
        if k.is_hand_kind() {
            let i = k as usize;
            if (self.0 >> SHIFT[i]) & MASK[i] != MASK[i] {
                self.0 += 1 << SHIFT[i];
            }
        }
    }

    /// Remove one piece of kind `k`; does nothing if there is none.
    #[inline(always)]
    pub fn remove(&mut self, k: PieceKind) {
        if self.count(k) > 0 {
            self.0 -= 1 << SHIFT[k.unpromoted() as usize];
        }
    }

    /// Add `k` whose index is known to be a hand kind (hot path).
    #[inline(always)]
    pub(crate) fn add_index(&mut self, i: usize) {
        self.0 += 1 << SHIFT[i];
    }

    /// Remove `k` whose index is known to be a hand kind present in hand (hot path).
    #[inline(always)]
    pub(crate) fn remove_index(&mut self, i: usize) {
        self.0 -= 1 << SHIFT[i];
    }

    /// Count by hand-kind index (hot path).
    #[inline(always)]
    pub(crate) fn count_index(&self, i: usize) -> u32 {
        (self.0 >> SHIFT[i]) & MASK[i]
    }

    /// True if the hand holds nothing.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.0 == 0
    }

    /// Number of pieces held.
    pub fn total(&self) -> u32 {
        (0..7).map(|i| self.count_index(i)).sum()
    }

    /// Entering-king points of the hand (5 for bishop and rook, 1 otherwise).
    pub fn points(&self) -> i32 {
        PieceKind::HAND_KINDS
            .iter()
            .map(|&k| k.points() * self.count(k) as i32)
            .sum()
    }

    /// True if this hand holds at least as many of every kind as `other`.
    pub fn dominates(&self, other: &Hand) -> bool {
        (0..7).all(|i| self.count_index(i) >= other.count_index(i))
    }

    /// The packed value (stable only within one build).
    pub fn bits(&self) -> u32 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn add_remove_count() {
        let mut h = Hand::EMPTY;
        assert!(h.is_empty());
        for _ in 0..18 {
            h.add(PieceKind::Pawn);
        }
        h.add(PieceKind::Dragon);
        h.add(PieceKind::King);
        assert_eq!(h.count(PieceKind::Pawn), 18);
        assert_eq!(h.count(PieceKind::Rook), 1);
        assert_eq!(h.count(PieceKind::King), 0);
        assert_eq!(h.total(), 19);
        assert_eq!(h.points(), 23);
        h.remove(PieceKind::Rook);
        h.remove(PieceKind::Rook);
        assert_eq!(h.count(PieceKind::Rook), 0);
        assert_eq!(h.count(PieceKind::Pawn), 18);
        for _ in 0..4 {
            h.add(PieceKind::Gold);
        }
        assert_eq!(h.count(PieceKind::Gold), 4);
        assert!(h.dominates(&Hand::EMPTY));
    }
}
