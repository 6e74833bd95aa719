//! The two sides. Black (sente) moves first and plays up the board towards rank 1.

use std::fmt;

/// A side: Black moves first (toward rank 1), White second (toward rank 9).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[repr(u8)]
pub enum Color {
    /// Sente, the side that moves first; written `+` in CSA and upper case in SFEN.
    Black = 0,
    /// Gote, the side that moves second; written `-` in CSA and lower case in SFEN.
    White = 1,
}

impl Color {
    /// Both sides, Black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// The other side.
    #[inline(always)]
    pub const fn opposite(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The SFEN letter of the side to move: `b` or `w`.
    pub const fn sfen(self) -> char {
        match self {
            Color::Black => 'b',
            Color::White => 'w',
        }
    }

    /// The CSA sign: `+` for Black, `-` for White.
    pub const fn csa(self) -> char {
        match self {
            Color::Black => '+',
            Color::White => '-',
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        self.opposite()
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}
