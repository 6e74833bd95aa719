//! The 81 squares. A square is named by file (1-9, right to left from Black's side) and
//! rank (1-9, top to bottom), as in CSA `77`; USI writes it `7g`. Internally the index is
//! `(file - 1) * 9 + (rank - 1)`, so each file is nine consecutive bits of a bitboard.
//!
//! The index is stored as a one-byte enum so that `Option<Square>` and moves stay small.

use std::fmt;

use super::Color;

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
#[rustfmt::skip]
enum Sq {
    S0,
    S1,
    S2,
    S3,
    S4,
    S5,
    S6,
    S7,
    S8,
    S9,
    S10,
    S11,
    S12,
    S13,
    S14,
    S15,
    S16,
    S17,
    S18,
    S19,
    S20,
    S21,
    S22,
    S23,
    S24,
    S25,
    S26,
    S27,
    S28,
    S29,
    S30,
    S31,
    S32,
    S33,
    S34,
    S35,
    S36,
    S37,
    S38,
    S39,
    S40,
    S41,
    S42,
    S43,
    S44,
    S45,
    S46,
    S47,
    S48,
    S49,
    S50,
    S51,
    S52,
    S53,
    S54,
    S55,
    S56,
    S57,
    S58,
    S59,
    S60,
    S61,
    S62,
    S63,
    S64,
    S65,
    S66,
    S67,
    S68,
    S69,
    S70,
    S71,
    S72,
    S73,
    S74,
    S75,
    S76,
    S77,
    S78,
    S79,
    S80
}

/// One of the 81 squares of the board.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(Sq);

impl Square {
    /// Every square in index order (1a, 1b, .., 1i, 2a, .., 9i).
    #[rustfmt::skip]
    pub const ALL: [Square; 81] = [Square(Sq::S0), Square(Sq::S1), Square(Sq::S2), Square(Sq::S3), Square(Sq::S4), Square(Sq::S5), Square(Sq::S6), Square(Sq::S7), Square(Sq::S8), Square(Sq::S9), Square(Sq::S10), Square(Sq::S11), Square(Sq::S12), Square(Sq::S13), Square(Sq::S14), Square(Sq::S15), Square(Sq::S16), Square(Sq::S17), Square(Sq::S18), Square(Sq::S19), Square(Sq::S20), Square(Sq::S21), Square(Sq::S22), Square(Sq::S23), Square(Sq::S24), Square(Sq::S25), Square(Sq::S26), Square(Sq::S27), Square(Sq::S28), Square(Sq::S29), Square(Sq::S30), Square(Sq::S31), Square(Sq::S32), Square(Sq::S33), Square(Sq::S34), Square(Sq::S35), Square(Sq::S36), Square(Sq::S37), Square(Sq::S38), Square(Sq::S39), Square(Sq::S40), Square(Sq::S41), Square(Sq::S42), Square(Sq::S43), Square(Sq::S44), Square(Sq::S45), Square(Sq::S46), Square(Sq::S47), Square(Sq::S48), Square(Sq::S49), Square(Sq::S50), Square(Sq::S51), Square(Sq::S52), Square(Sq::S53), Square(Sq::S54), Square(Sq::S55), Square(Sq::S56), Square(Sq::S57), Square(Sq::S58), Square(Sq::S59), Square(Sq::S60), Square(Sq::S61), Square(Sq::S62), Square(Sq::S63), Square(Sq::S64), Square(Sq::S65), Square(Sq::S66), Square(Sq::S67), Square(Sq::S68), Square(Sq::S69), Square(Sq::S70), Square(Sq::S71), Square(Sq::S72), Square(Sq::S73), Square(Sq::S74), Square(Sq::S75), Square(Sq::S76), Square(Sq::S77), Square(Sq::S78), Square(Sq::S79), Square(Sq::S80)];

    /// The square on `file` and `rank` (both 1..=9), or `None` outside the board.
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file >= 1 && file <= 9 && rank >= 1 && rank <= 9 {
            Some(Square::ALL[(file as usize - 1) * 9 + rank as usize - 1])
        } else {
            None
        }
    }

    /// The square with index `i` (0..81).
    #[inline]
    pub const fn from_index(i: usize) -> Option<Square> {
        if i < 81 { Some(Square::ALL[i]) } else { None }
    }

    /// The square with index `i`; `i` must be below 81 (panics otherwise).
    #[inline(always)]
    pub(crate) const fn from_index_unchecked(i: usize) -> Square {
        Square::ALL[i]
    }

    /// Index 0..81, `(file - 1) * 9 + (rank - 1)`.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File 1..=9.
    #[inline(always)]
    pub const fn file(self) -> u8 {
        self.0 as u8 / 9 + 1
    }

    /// Rank 1..=9.
    #[inline(always)]
    pub const fn rank(self) -> u8 {
        self.0 as u8 % 9 + 1
    }

    /// True if the square lies in the enemy camp of `c` (ranks 1-3 for Black, 7-9 for
    /// White), that is in the promotion zone of `c`.
    #[inline(always)]
    pub const fn in_camp_of(self, c: Color) -> bool {
        let r = self.rank();
        match c {
            Color::Black => r <= 3,
            Color::White => r >= 7,
        }
    }

    /// Rank counted from `c`'s side: 1 is the far rank for `c` (rank 1 for Black, 9 for White).
    #[inline(always)]
    pub const fn relative_rank(self, c: Color) -> u8 {
        match c {
            Color::Black => self.rank(),
            Color::White => 10 - self.rank(),
        }
    }

    /// USI name, e.g. `7g`.
    pub fn to_usi(self) -> String {
        self.to_string()
    }

    /// CSA name, e.g. `77`.
    pub fn to_csa(self) -> String {
        format!("{}{}", self.file(), self.rank())
    }

    /// Parse the USI name (`7g`).
    pub fn from_usi(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 || !(b'1'..=b'9').contains(&b[0]) || !(b'a'..=b'i').contains(&b[1]) {
            return None;
        }
        Square::new(b[0] - b'0', b[1] - b'a' + 1)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file(), (b'a' + self.rank() - 1) as char)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_file_rank_round_trip() {
        for (i, sq) in Square::ALL.iter().enumerate() {
            assert_eq!(sq.index(), i);
            assert_eq!(Square::new(sq.file(), sq.rank()), Some(*sq));
            assert_eq!(Square::from_usi(&sq.to_usi()), Some(*sq));
        }
        assert_eq!(Square::new(7, 7).unwrap().to_usi(), "7g");
        assert_eq!(Square::new(0, 1), None);
        assert_eq!(Square::new(1, 10), None);
        assert_eq!(Square::from_index(81), None);
        assert_eq!(std::mem::size_of::<Option<Square>>(), 1);
    }

    #[test]
    fn camp() {
        assert!(Square::new(5, 3).unwrap().in_camp_of(Color::Black));
        assert!(!Square::new(5, 4).unwrap().in_camp_of(Color::Black));
        assert!(Square::new(5, 7).unwrap().in_camp_of(Color::White));
        assert!(!Square::new(5, 6).unwrap().in_camp_of(Color::White));
    }
}
