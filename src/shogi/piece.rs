//! Piece kinds and pieces (a kind with a side). The order of [`PieceKind`] is fixed: the
//! seven kinds that can be held in hand come first, so their discriminants index hands.

use std::fmt;

use super::Color;

/// The fourteen kinds of shogi piece.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[repr(u8)]
pub enum PieceKind {
    /// Pawn (fuhyo, CSA `FU`, SFEN `P`).
    Pawn = 0,
    /// Lance (kyosha, CSA `KY`, SFEN `L`).
    Lance,
    /// Knight (keima, CSA `KE`, SFEN `N`).
    Knight,
    /// Silver general (ginsho, CSA `GI`, SFEN `S`).
    Silver,
    /// Gold general (kinsho, CSA `KI`, SFEN `G`); it does not promote.
    Gold,
    /// Bishop (kakugyo, CSA `KA`, SFEN `B`).
    Bishop,
    /// Rook (hisha, CSA `HI`, SFEN `R`).
    Rook,
    /// King (gyoku or osho, CSA `OU`, SFEN `K`); it does not promote and is never held in
    /// hand.
    King,
    /// Promoted pawn (tokin, CSA `TO`, SFEN `+P`); moves as a gold.
    ProPawn,
    /// Promoted lance (CSA `NY`, SFEN `+L`); moves as a gold.
    ProLance,
    /// Promoted knight (CSA `NK`, SFEN `+N`); moves as a gold.
    ProKnight,
    /// Promoted silver (CSA `NG`, SFEN `+S`); moves as a gold.
    ProSilver,
    /// Promoted bishop (ryuma, CSA `UM`, SFEN `+B`): a bishop that also steps one square
    /// orthogonally.
    Horse,
    /// Promoted rook (ryuo, CSA `RY`, SFEN `+R`): a rook that also steps one square
    /// diagonally.
    Dragon,
}

const CSA: [&str; 14] = [
    "FU", "KY", "KE", "GI", "KI", "KA", "HI", "OU", "TO", "NY", "NK", "NG", "UM", "RY",
];
/// Kind index (`PieceKind as u8`) by CSA code: `[(first letter - 'A') * 26 + (second -
/// 'A')]`, 14 where no kind has that code.
static CSA_CODES: [u8; 26 * 26] = {
    let mut t = [14u8; 26 * 26];
    let mut k = 0;
    while k < 14 {
        let c = CSA[k].as_bytes();
        t[(c[0] - b'A') as usize * 26 + (c[1] - b'A') as usize] = k as u8;
        k += 1;
    }
    t
};
const USI: [char; 8] = ['P', 'L', 'N', 'S', 'G', 'B', 'R', 'K'];

impl PieceKind {
    /// All fourteen kinds in discriminant order.
    pub const ALL: [PieceKind; 14] = [
        PieceKind::Pawn,
        PieceKind::Lance,
        PieceKind::Knight,
        PieceKind::Silver,
        PieceKind::Gold,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::King,
        PieceKind::ProPawn,
        PieceKind::ProLance,
        PieceKind::ProKnight,
        PieceKind::ProSilver,
        PieceKind::Horse,
        PieceKind::Dragon,
    ];

    /// The kinds that can be held in hand: Pawn Lance Knight Silver Gold Bishop Rook.
    pub const HAND_KINDS: [PieceKind; 7] = [
        PieceKind::Pawn,
        PieceKind::Lance,
        PieceKind::Knight,
        PieceKind::Silver,
        PieceKind::Gold,
        PieceKind::Bishop,
        PieceKind::Rook,
    ];

    /// Discriminant 0..14.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Kind with discriminant `i` (0..14).
    #[inline(always)]
    pub const fn from_index(i: usize) -> Option<PieceKind> {
        if i < 14 {
            Some(PieceKind::ALL[i])
        } else {
            None
        }
    }

    /// Parse a two-letter CSA code (`FU` .. `RY`).
    #[inline]
    pub fn from_csa(code: &[u8]) -> Option<PieceKind> {
        let &[a, b] = code else { return None };
        let (a, b) = (a.wrapping_sub(b'A'), b.wrapping_sub(b'A'));
        if a >= 26 || b >= 26 {
            return None;
        }
        // One load instead of a chain of comparisons (record parsing does this per move).
        PieceKind::from_index(usize::from(CSA_CODES[usize::from(a) * 26 + usize::from(b)]))
    }

    /// The two-letter CSA code.
    pub const fn csa(self) -> &'static str {
        CSA[self as usize]
    }

    /// The USI letter of the unpromoted kind (upper case), e.g. `P` for a pawn or a tokin.
    pub const fn usi_letter(self) -> char {
        USI[self.unpromoted() as usize]
    }

    /// Parse an upper-case USI/SFEN letter of an unpromoted kind.
    pub fn from_usi_letter(c: char) -> Option<PieceKind> {
        USI.iter().position(|&u| u == c).map(|i| PieceKind::ALL[i])
    }

    /// The promoted kind, if this kind can promote.
    #[inline(always)]
    pub const fn promoted(self) -> Option<PieceKind> {
        match self {
            PieceKind::Pawn => Some(PieceKind::ProPawn),
            PieceKind::Lance => Some(PieceKind::ProLance),
            PieceKind::Knight => Some(PieceKind::ProKnight),
            PieceKind::Silver => Some(PieceKind::ProSilver),
            PieceKind::Bishop => Some(PieceKind::Horse),
            PieceKind::Rook => Some(PieceKind::Dragon),
            _ => None,
        }
    }

    /// True if the kind can promote.
    #[inline(always)]
    pub const fn can_promote(self) -> bool {
        self.promoted().is_some()
    }

    /// The kind it was before promotion (itself if not promoted).
    #[inline(always)]
    pub const fn unpromoted(self) -> PieceKind {
        match self {
            PieceKind::ProPawn => PieceKind::Pawn,
            PieceKind::ProLance => PieceKind::Lance,
            PieceKind::ProKnight => PieceKind::Knight,
            PieceKind::ProSilver => PieceKind::Silver,
            PieceKind::Horse => PieceKind::Bishop,
            PieceKind::Dragon => PieceKind::Rook,
            k => k,
        }
    }

    /// True for the six promoted kinds.
    #[inline(always)]
    pub const fn is_promoted(self) -> bool {
        (self as u8) >= PieceKind::ProPawn as u8
    }

    /// True for the kinds that can be held in hand (Pawn .. Rook).
    #[inline(always)]
    pub const fn is_hand_kind(self) -> bool {
        (self as u8) < PieceKind::King as u8
    }

    /// Entering-king value: 5 for rook, bishop, dragon and horse, 0 for the king, 1 otherwise.
    #[inline(always)]
    pub const fn points(self) -> i32 {
        match self {
            PieceKind::Rook | PieceKind::Bishop | PieceKind::Dragon | PieceKind::Horse => 5,
            PieceKind::King => 0,
            _ => 1,
        }
    }

    /// How many pieces of this unpromoted kind a full set holds (both sides together).
    pub const fn full_set_count(self) -> u32 {
        match self.unpromoted() {
            PieceKind::Pawn => 18,
            PieceKind::Bishop | PieceKind::Rook | PieceKind::King => 2,
            _ => 4,
        }
    }
}

impl fmt::Display for PieceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.csa())
    }
}

/// A piece: a kind with its side.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    /// The side that owns the piece.
    pub color: Color,
    /// The piece's kind, promoted or not.
    pub kind: PieceKind,
}

impl Piece {
    /// The piece of kind `kind` owned by `color`.
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece { color, kind }
    }

    /// Compact code used on the board array: 0 is empty, else `kind + 1 + 16 * color`.
    #[inline(always)]
    pub(crate) const fn code(self) -> u8 {
        self.kind as u8 + 1 + ((self.color as u8) << 4)
    }

    /// Inverse of [`Piece::code`]; `None` for 0 (empty).
    #[inline(always)]
    pub(crate) const fn from_code(c: u8) -> Option<Piece> {
        if c == 0 {
            None
        } else {
            let color = if c & 16 != 0 {
                Color::White
            } else {
                Color::Black
            };
            Some(Piece {
                color,
                kind: PieceKind::ALL[(c & 15) as usize - 1],
            })
        }
    }

    /// SFEN letters: upper case for Black, lower case for White, `+` before promoted kinds.
    pub fn sfen(self) -> String {
        self.sfen_str().to_string()
    }

    /// [`Piece::sfen`] without an allocation.
    pub const fn sfen_str(self) -> &'static str {
        const BLACK: [&str; 14] = [
            "P", "L", "N", "S", "G", "B", "R", "K", "+P", "+L", "+N", "+S", "+B", "+R",
        ];
        const WHITE: [&str; 14] = [
            "p", "l", "n", "s", "g", "b", "r", "k", "+p", "+l", "+n", "+s", "+b", "+r",
        ];
        match self.color {
            Color::Black => BLACK[self.kind as usize],
            Color::White => WHITE[self.kind as usize],
        }
    }
}

/// Each board code ([`Piece::code`]) as the CSA board prints its square: `+FU`, `-OU`,
/// ` * ` for an empty square (`???` for a code no piece has).
pub(crate) static CSA_CELLS: [[u8; 3]; 32] = {
    let mut cells = [*b"???"; 32];
    cells[0] = *b" * ";
    let mut c = 1;
    while c < 32 {
        let k = c & 15;
        if k >= 1 && k <= PieceKind::ALL.len() {
            let name = CSA[k - 1].as_bytes();
            cells[c] = [if c & 16 == 0 { b'+' } else { b'-' }, name[0], name[1]];
        }
        c += 1;
    }
    cells
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sfen_letters_follow_the_usi_letter_and_case() {
        for kind in PieceKind::ALL {
            for color in Color::ALL {
                let mut letter = kind.usi_letter();
                if color == Color::White {
                    letter = letter.to_ascii_lowercase();
                }
                let want = if kind.is_promoted() {
                    format!("+{letter}")
                } else {
                    letter.to_string()
                };
                assert_eq!(Piece::new(color, kind).sfen_str(), want);
            }
        }
    }

    #[test]
    fn csa_codes_and_promotion() {
        for k in PieceKind::ALL {
            assert_eq!(PieceKind::from_csa(k.csa().as_bytes()), Some(k));
            if let Some(p) = k.promoted() {
                assert_eq!(p.unpromoted(), k);
                assert!(p.is_promoted());
            }
        }
        assert_eq!(PieceKind::from_csa(b"XX"), None);
        // Every other pair of bytes is no code (the table has no stray entries).
        let named = (0..=255u8)
            .flat_map(|a| (0..=255u8).map(move |b| [a, b]))
            .filter_map(|c| PieceKind::from_csa(&c).map(|k| (c, k)))
            .inspect(|(c, k)| assert_eq!(c, k.csa().as_bytes()))
            .count();
        assert_eq!(named, 14);
        assert_eq!(PieceKind::from_csa(b"FUX"), None);
        assert_eq!(PieceKind::from_csa(b"F"), None);
        let total: i32 = PieceKind::HAND_KINDS
            .iter()
            .map(|k| k.points() * k.full_set_count() as i32)
            .sum();
        assert_eq!(total, super::super::TOTAL_OWNED_POINTS);
    }

    #[test]
    fn codes_round_trip() {
        for c in Color::ALL {
            for k in PieceKind::ALL {
                let p = Piece::new(c, k);
                assert_eq!(Piece::from_code(p.code()), Some(p));
            }
        }
    }
}
