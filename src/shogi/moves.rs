//! Moves and the fixed-capacity move list. A move says only what the mover does (origin,
//! destination, promotion; or the dropped kind and square); what it captures is read from
//! the position. USI text (`7g7f`, `8h2b+`, `P*5e`) is parsed here; CSA text needs the
//! position (the piece is named after the move) and lives with [`super::Position`].

use std::fmt;
use std::mem::MaybeUninit;
use std::ops::{Deref, DerefMut};

use super::{PieceKind, Square};

/// A move: a board move (with or without promotion) or a drop from hand.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    /// A piece on the board moves from one square to another, capturing whatever stands
    /// on the destination.
    Normal {
        /// The square the piece leaves.
        from: Square,
        /// The square the piece arrives on.
        to: Square,
        /// True when the piece promotes on this move.
        promote: bool,
    },
    /// A piece from the mover's hand is put on an empty square.
    Drop {
        /// The kind dropped, one of the seven unpromoted kinds that can be held in hand.
        kind: PieceKind,
        /// The empty square the piece is dropped on.
        to: Square,
    },
}

/// A USI move string that cannot be a move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid USI move `{0}`")]
pub struct UsiMoveError(pub String);

impl Move {
    /// The destination square.
    #[inline(always)]
    pub fn to(self) -> Square {
        match self {
            Move::Normal { to, .. } | Move::Drop { to, .. } => to,
        }
    }

    /// The origin square of a board move.
    #[inline(always)]
    pub fn from(self) -> Option<Square> {
        match self {
            Move::Normal { from, .. } => Some(from),
            Move::Drop { .. } => None,
        }
    }

    /// True for a drop.
    #[inline(always)]
    pub fn is_drop(self) -> bool {
        matches!(self, Move::Drop { .. })
    }

    /// True for a promoting board move.
    #[inline(always)]
    pub fn is_promotion(self) -> bool {
        matches!(self, Move::Normal { promote: true, .. })
    }

    /// Parse USI: `7g7f`, `8h2b+`, `P*5e`.
    pub fn from_usi(s: &str) -> Result<Move, UsiMoveError> {
        let err = || UsiMoveError(s.to_string());
        let b = s.as_bytes();
        if b.len() == 4 && b[1] == b'*' {
            let kind = PieceKind::from_usi_letter(b[0] as char)
                .filter(|k| k.is_hand_kind())
                .ok_or_else(err)?;
            let to = Square::from_usi(&s[2..4]).ok_or_else(err)?;
            return Ok(Move::Drop { kind, to });
        }
        if (b.len() == 4 || (b.len() == 5 && b[4] == b'+')) && s.is_char_boundary(2) {
            let from = Square::from_usi(&s[0..2]).ok_or_else(err)?;
            let to = Square::from_usi(&s[2..4]).ok_or_else(err)?;
            if from == to {
                return Err(err());
            }
            return Ok(Move::Normal {
                from,
                to,
                promote: b.len() == 5,
            });
        }
        Err(err())
    }

    /// USI text.
    pub fn to_usi(self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::Normal { from, to, promote } => {
                write!(f, "{from}{to}{}", if promote { "+" } else { "" })
            }
            Move::Drop { kind, to } => write!(f, "{}*{to}", kind.usi_letter()),
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The most legal moves any shogi position has is 593; the list holds a little more.
pub const MAX_MOVES: usize = 600;

/// A fixed-capacity list of moves (no heap allocation, no initialisation of unused slots).
pub struct MoveList {
    moves: [MaybeUninit<Move>; MAX_MOVES],
    len: usize,
}

/// A writer appending to a [`MoveList`] with the length kept in a local (a register)
/// instead of being reloaded from the list after every store; dropping the writer stores
/// the length back into the list.
pub(crate) struct Sink<'a> {
    moves: &'a mut [MaybeUninit<Move>; MAX_MOVES],
    list_len: &'a mut usize,
    len: usize,
}

impl Drop for Sink<'_> {
    #[inline(always)]
    fn drop(&mut self) {
        *self.list_len = self.len;
    }
}

impl Sink<'_> {
    /// Number of moves in the list so far.
    #[inline(always)]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Append a move (panics beyond the capacity, which legal generation never reaches).
    #[inline(always)]
    pub(crate) fn push(&mut self, m: Move) {
        self.moves[self.len] = MaybeUninit::new(m);
        self.len += 1;
    }

    /// Append a drop of each of `kinds` on every square of the raw bitboard `targets`.
    #[inline(always)]
    pub(crate) fn push_drops(&mut self, targets: u128, kinds: &[PieceKind]) {
        let k = kinds.len();
        if k == 0 {
            return;
        }
        let base = self.len;
        let n = targets.count_ones() as usize * k;
        let slots = &mut self.moves[base..base + n];
        for (chunk, to) in slots.chunks_exact_mut(k).zip(super::BitIter(targets)) {
            for (slot, &kind) in chunk.iter_mut().zip(kinds) {
                *slot = MaybeUninit::new(Move::Drop { kind, to });
            }
        }
        self.len = base + n;
    }

    /// Append a non-promoting move from `from` to every square of the raw bitboard `targets`.
    #[inline(always)]
    pub(crate) fn push_targets(&mut self, from: Square, targets: u128) {
        let base = self.len;
        let n = targets.count_ones() as usize;
        let slots = &mut self.moves[base..base + n];
        for (slot, to) in slots.iter_mut().zip(super::BitIter(targets)) {
            *slot = MaybeUninit::new(Move::Normal {
                from,
                to,
                promote: false,
            });
        }
        self.len = base + n;
    }
}

impl Clone for MoveList {
    fn clone(&self) -> MoveList {
        let mut l = MoveList::new();
        for &m in self.iter() {
            l.push(m);
        }
        l
    }
}

impl MoveList {
    /// An empty list.
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList {
            moves: [const { MaybeUninit::uninit() }; MAX_MOVES],
            len: 0,
        }
    }

    /// Append a move. Generation never exceeds the capacity (593 is the proven maximum);
    /// pushing beyond it panics.
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        self.moves[self.len] = MaybeUninit::new(m);
        self.len += 1;
    }

    /// A writer appending to this list (the list's length is updated when it is dropped).
    #[inline(always)]
    pub(crate) fn sink(&mut self) -> Sink<'_> {
        let len = self.len;
        Sink {
            moves: &mut self.moves,
            list_len: &mut self.len,
            len,
        }
    }

    /// Remove every move.
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// True if `m` is in the list.
    pub fn contains(&self, m: &Move) -> bool {
        self.as_slice().contains(m)
    }

    /// The moves as a slice.
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        let init = &self.moves[..self.len];
        // SAFETY: slots 0..len were all written: `len` grows only in `push` and in a
        // `Sink` (which starts from `len`, writes every slot it counts, and stores its
        // count back when dropped), and `retain` only moves initialised slots below len.
        // `MaybeUninit<Move>` has the same layout as `Move`, so the initialised prefix
        // may be viewed as `[Move]`.
        unsafe { &*(init as *const [MaybeUninit<Move>] as *const [Move]) }
    }

    /// The moves as a mutable slice.
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        let init = &mut self.moves[..self.len];
        // SAFETY: as in `as_slice`: the prefix 0..len is initialised and layouts match;
        // writes through the slice store valid `Move`s, keeping the prefix initialised.
        unsafe { &mut *(init as *mut [MaybeUninit<Move>] as *mut [Move]) }
    }

    /// Keep the first `start` moves, and of the others only those for which `f` is true.
    pub fn retain_from(&mut self, start: usize, mut f: impl FnMut(Move) -> bool) {
        let mut j = start;
        for i in start..self.len {
            let m = self.as_slice()[i];
            if f(m) {
                self.moves[j] = MaybeUninit::new(m);
                j += 1;
            }
        }
        self.len = j;
    }

    /// Keep only the moves for which `f` is true.
    pub fn retain(&mut self, mut f: impl FnMut(Move) -> bool) {
        let mut j = 0;
        for i in 0..self.len {
            let m = self.as_slice()[i];
            if f(m) {
                self.moves[j] = MaybeUninit::new(m);
                j += 1;
            }
        }
        self.len = j;
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl Deref for MoveList {
    type Target = [Move];
    #[inline(always)]
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl DerefMut for MoveList {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [Move] {
        self.as_mut_slice()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usi_round_trip() {
        for s in ["7g7f", "8h2b+", "P*5e", "R*1a", "1i1a+"] {
            assert_eq!(Move::from_usi(s).unwrap().to_usi(), s);
        }
        for s in [
            "", "7g7", "7g7g", "K*5e", "+*5e", "7g7f=", "0a1b", "P*5j", "7g7f++", "あい",
        ] {
            assert!(Move::from_usi(s).is_err(), "{s}");
        }
        assert!(std::mem::size_of::<Move>() <= 4);
    }

    #[test]
    fn list() {
        let mut l = MoveList::new();
        l.push(Move::from_usi("7g7f").unwrap());
        l.push(Move::from_usi("P*5e").unwrap());
        assert_eq!(l.len(), 2);
        assert!(l.contains(&Move::from_usi("P*5e").unwrap()));
        l.retain(|m| m.is_drop());
        assert_eq!(l.len(), 1);
        assert_eq!(l[0].to_usi(), "P*5e");
        l[0] = Move::from_usi("R*1a").unwrap();
        let c = l.clone();
        assert_eq!(c.as_slice(), &[Move::from_usi("R*1a").unwrap()]);
        l.clear();
        assert!(l.is_empty());
        // Fill to capacity: every slot readable.
        let m = Move::from_usi("1a1b").unwrap();
        for _ in 0..MAX_MOVES {
            l.push(m);
        }
        assert!(l.iter().all(|&x| x == m));
        assert_eq!(l.len(), MAX_MOVES);
        // A sink appends after what is there and stores its length back when dropped.
        l.clear();
        l.push(m);
        {
            let mut s = l.sink();
            s.push_targets(Square::ALL[0], 0b110);
            s.push_drops(0b1000, &[PieceKind::Gold, PieceKind::Rook]);
            assert_eq!(s.len(), 5);
        }
        let usi: Vec<String> = l.iter().map(|m| m.to_usi()).collect();
        assert_eq!(usi, ["1a1b", "1a1b", "1a1c", "G*1d", "R*1d"]);
    }
}
