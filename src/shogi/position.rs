//! The playable position: board array plus bitboards per side and per kind, hands, side
//! to move, incremental Zobrist key and the current checkers. Built only through
//! [`Position::from_setup`], which checks every rule a position must satisfy, so the
//! move generator may rely on exactly one king per side and no stuck pieces. Its CSA
//! move notation is in [`super::notation`].

use std::fmt;

use super::attacks::{
    self, BISHOP_PSEUDO, GOLD, IN_ZONE, KNIGHT, PAWN, ROOK_PSEUDO, SILVER, ZONE, between, bit, line,
};
use super::bitboard::{FULL, lsb};
use super::zobrist;
use super::{Bitboard, Color, Hand, Move, Piece, PieceKind, Setup, SfenError, Square};

/// One reason a setup is not a legal shogi position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A side does not have exactly one king on the board.
    #[error("{color} has {count} kings (exactly one is needed)")]
    KingCount {
        /// The side with the wrong number of kings.
        color: Color,
        /// How many kings of that side stand on the board (0, or 2 and more).
        count: u32,
    },
    /// A side has two or more unpromoted pawns on one file (nifu).
    #[error("{color} has two unpromoted pawns on file {file}")]
    TwoPawns {
        /// The side owning the pawns.
        color: Color,
        /// The file, 1 to 9 (CSA numbering, file 1 on Black's right).
        file: u8,
    },
    /// A pawn or lance on the last rank, or a knight on the last two ranks, as seen from
    /// its owner: it has no square to move to, ever.
    #[error("{piece:?} on {square} can never move")]
    StuckPiece {
        /// The square the piece stands on.
        square: Square,
        /// The piece that cannot move.
        piece: Piece,
    },
    /// The board and both hands hold more pieces of one kind than a full set has.
    #[error("{count} pieces of kind {kind} (a full set has {max})")]
    TooManyPieces {
        /// The unpromoted kind; promoted pieces on the board count as their base kind.
        kind: PieceKind,
        /// Pieces of that kind on the board and in both hands together.
        count: u32,
        /// How many a full set has (18 pawns; 4 lances, knights, silvers and golds; 2
        /// bishops and rooks).
        max: u32,
    },
    /// The side that has just moved (the one not to move) has its king attacked, so the
    /// side to move could capture it.
    #[error("the side not to move ({0}) is in check")]
    OpponentInCheck(Color),
    /// The move number is 0; move numbers start at 1.
    #[error("move number 0 (numbering starts at 1)")]
    MoveNumberZero,
}

/// Every reason a setup was refused (never empty).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PositionErrors(pub Vec<PositionError>);

impl fmt::Display for PositionErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("illegal position: ")?;
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for PositionErrors {}

/// SFEN text that is unreadable or describes an illegal position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionParseError {
    /// The text is not well-formed SFEN.
    #[error(transparent)]
    Sfen(#[from] SfenError),
    /// The text is well-formed SFEN, but the position it describes breaks a rule.
    #[error(transparent)]
    Position(#[from] PositionErrors),
}

/// What [`Position::undo_null_move`] needs to take a null move back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NullUndo {
    key: u64,
    checkers: u128,
}

/// What [`Position::undo`] needs to take a move back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UndoInfo {
    pub(crate) captured: u8,
    pub(crate) checkers: u128,
    pub(crate) key: u64,
}

impl UndoInfo {
    /// The piece the move captured, if any.
    pub fn captured(&self) -> Option<Piece> {
        Piece::from_code(self.captured)
    }
}

/// The enemy king's exposure to the side to move, for testing many moves for check
/// ([`Position::check_info`]).
#[derive(Debug, Clone, Copy)]
pub struct CheckInfo {
    /// For each piece kind, the squares from which such a piece of the side to move
    /// attacks the enemy king.
    direct: [u128; 14],
    /// Pieces of the side to move whose leaving the line to the enemy king uncovers a
    /// check by one of its sliders.
    discoverers: u128,
    /// The enemy king's square (none: no king, no check).
    ksq: Option<usize>,
}

/// The kind index of the piece of code `pc` (not empty) after a move that promotes it
/// or not.
#[inline(always)]
fn kind_after(pc: u8, promote: bool) -> usize {
    let kind = (pc & 15) as usize - 1;
    if promote {
        PROMOTED_KIND[kind] as usize
    } else {
        kind
    }
}

impl CheckInfo {
    /// Whether `m`, legal in `pos` (the position this was computed for), gives check:
    /// the same answer as [`Position::gives_check`].
    #[inline]
    pub fn gives_check(&self, pos: &Position, m: Move) -> bool {
        let Some(ksq) = self.ksq else {
            return false;
        };
        match m {
            Move::Drop { kind, to } => self.direct[kind as usize] & (1u128 << to.index()) != 0,
            Move::Normal { from, to, promote } => {
                let (f, t) = (from.index(), to.index());
                let pc = pos.board[f];
                if pc == 0 {
                    return false;
                }
                let nk = kind_after(pc, promote);
                self.direct[nk] & (1u128 << t) != 0
                    || (self.discoverers & (1u128 << f) != 0 && line(ksq, f) & (1u128 << t) == 0)
            }
        }
    }
}

pub(super) const PROMOTED_KIND: [u8; 14] = [8, 9, 10, 11, 4, 12, 13, 7, 8, 9, 10, 11, 12, 13];
const UNPROMOTED_KIND: [u8; 14] = [0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 5, 6];

/// A legal shogi position.
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    pub(crate) board: [u8; 81],
    pub(crate) by_color: [u128; 2],
    pub(crate) by_kind: [u128; 14],
    pub(crate) hands: [Hand; 2],
    pub(crate) side: Color,
    pub(crate) move_number: u32,
    pub(crate) king: [u8; 2],
    pub(crate) key: u64,
    pub(crate) checkers: u128,
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_sfen())
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::startpos()
    }
}

impl Position {
    /// The even-game start position.
    pub fn startpos() -> Position {
        static START: std::sync::LazyLock<Position> = std::sync::LazyLock::new(|| {
            Position::from_setup(Setup::hirate()).expect("the start position is legal")
        });
        START.clone()
    }

    /// Read SFEN and validate.
    pub fn from_sfen(s: &str) -> Result<Position, PositionParseError> {
        Ok(Position::from_setup(Setup::from_sfen(s)?)?)
    }

    /// Validate a setup; on failure list every reason at once.
    pub fn from_setup(s: Setup) -> Result<Position, PositionErrors> {
        let mut errors = Vec::new();
        let mut pos = Position {
            board: [0; 81],
            by_color: [0; 2],
            by_kind: [0; 14],
            hands: s.hands,
            side: s.side_to_move,
            move_number: s.move_number,
            king: [81; 2],
            key: 0,
            checkers: 0,
        };
        if s.move_number == 0 {
            errors.push(PositionError::MoveNumberZero);
        }
        let mut kings = [0u32; 2];
        let mut counts = [0u32; 8];
        for sq in Square::ALL {
            let Some(p) = s.board[sq.index()] else {
                continue;
            };
            let i = sq.index();
            pos.board[i] = p.code();
            pos.by_color[p.color.index()] |= 1u128 << i;
            pos.by_kind[p.kind.index()] |= 1u128 << i;
            counts[p.kind.unpromoted().index()] += 1;
            if p.kind == PieceKind::King {
                kings[p.color.index()] += 1;
                pos.king[p.color.index()] = i as u8;
            }
            let area = attacks::movable_area(p.kind, p.color);
            if area & (1u128 << i) == 0 {
                errors.push(PositionError::StuckPiece {
                    square: sq,
                    piece: p,
                });
            }
        }
        for c in Color::ALL {
            if kings[c.index()] != 1 {
                errors.push(PositionError::KingCount {
                    color: c,
                    count: kings[c.index()],
                });
            }
            let pawns = pos.by_kind[0] & pos.by_color[c.index()];
            for file in 1..=9u8 {
                let m = attacks::file_mask((file as usize - 1) * 9);
                if (pawns & m).count_ones() > 1 {
                    errors.push(PositionError::TwoPawns { color: c, file });
                }
            }
        }
        for k in PieceKind::HAND_KINDS {
            let n = counts[k.index()] + s.hands[0].count(k) + s.hands[1].count(k);
            if n > k.full_set_count() {
                errors.push(PositionError::TooManyPieces {
                    kind: k,
                    count: n,
                    max: k.full_set_count(),
                });
            }
        }
        // The check test needs only the king of the side not to move.
        let them = pos.side.opposite();
        if kings[them.index()] == 1
            && pos.attackers_to(pos.side, pos.king[them.index()] as usize, pos.occ()) != 0
        {
            errors.push(PositionError::OpponentInCheck(them));
        }
        if !errors.is_empty() {
            return Err(PositionErrors(errors));
        }
        pos.key = pos.compute_key();
        pos.checkers = pos.compute_checkers();
        Ok(pos)
    }

    /// The unvalidated form of this position.
    pub fn to_setup(&self) -> Setup {
        let mut board = [None; 81];
        for (i, b) in board.iter_mut().enumerate() {
            *b = Piece::from_code(self.board[i]);
        }
        Setup {
            board,
            hands: self.hands,
            side_to_move: self.side,
            move_number: self.move_number,
        }
    }

    /// The colour-flipped twin: the board turned half a circle, every piece and hand
    /// given to the other side, the other side to move. A position and its twin are the
    /// same game seen from the other chair, so every evaluation must score them alike.
    pub fn flipped(&self) -> Position {
        let s = self.to_setup();
        let mut board = [None; 81];
        for (i, b) in board.iter_mut().enumerate() {
            *b = s.board[80 - i].map(|p| Piece {
                color: p.color.opposite(),
                kind: p.kind,
            });
        }
        let twin = Setup {
            board,
            hands: [s.hands[1], s.hands[0]],
            side_to_move: s.side_to_move.opposite(),
            move_number: s.move_number,
        };
        Position::from_setup(twin).expect("the twin of a legal position is legal")
    }

    /// SFEN text.
    pub fn to_sfen(&self) -> String {
        super::setup::sfen(
            |i| Piece::from_code(self.board[i]),
            &self.hands,
            self.side,
            self.move_number,
        )
    }

    /// Side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// SFEN move number: 1 at the start of a game, +1 per ply.
    #[inline(always)]
    pub fn move_number(&self) -> u32 {
        self.move_number
    }

    /// The piece on `sq`.
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        Piece::from_code(self.board[sq.index()])
    }

    /// The hand of `c`.
    #[inline(always)]
    pub fn hand(&self, c: Color) -> &Hand {
        &self.hands[c.index()]
    }

    /// Square of the king of `c` (always present in a validated position).
    #[inline(always)]
    pub fn king_square(&self, c: Color) -> Option<Square> {
        Square::from_index(self.king[c.index()] as usize)
    }

    /// Zobrist key over board, hands and side to move (kept incrementally).
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        Bitboard(self.occ())
    }

    /// The squares of `c`'s pieces.
    #[inline(always)]
    pub fn pieces_of(&self, c: Color) -> Bitboard {
        Bitboard(self.by_color[c.index()])
    }

    /// The squares of `c`'s pieces of kind `k`.
    #[inline(always)]
    pub fn pieces(&self, c: Color, k: PieceKind) -> Bitboard {
        Bitboard(self.by_color[c.index()] & self.by_kind[k.index()])
    }

    #[inline(always)]
    pub(crate) fn occ(&self) -> u128 {
        self.by_color[0] | self.by_color[1]
    }

    #[inline(always)]
    pub(crate) fn kind_bb(&self, k: PieceKind) -> u128 {
        self.by_kind[k as usize]
    }

    /// Pieces that move like a gold.
    #[inline(always)]
    pub(crate) fn golds(&self) -> u128 {
        self.by_kind[PieceKind::Gold as usize]
            | self.by_kind[PieceKind::ProPawn as usize]
            | self.by_kind[PieceKind::ProLance as usize]
            | self.by_kind[PieceKind::ProKnight as usize]
            | self.by_kind[PieceKind::ProSilver as usize]
    }

    /// The Zobrist key recomputed from scratch.
    pub fn compute_key(&self) -> u64 {
        let mut k = 0u64;
        for (i, &c) in self.board.iter().enumerate() {
            k ^= zobrist::BOARD[i][c as usize];
        }
        for c in 0..2 {
            for h in 0..7 {
                k ^= zobrist::HAND[c][h][self.hands[c].count_index(h) as usize];
            }
        }
        if self.side == Color::White {
            k ^= zobrist::WHITE_TO_MOVE;
        }
        k
    }

    /// Pieces of `c` attacking square `sq` with occupancy `occ`.
    #[inline]
    pub(crate) fn attackers_to(&self, c: Color, sq: usize, occ: u128) -> u128 {
        let them = !c;
        let ti = them as usize;
        let kd = self.kind_bb(PieceKind::King)
            | self.kind_bb(PieceKind::Horse)
            | self.kind_bb(PieceKind::Dragon);
        let a = (PAWN[ti][sq] & self.kind_bb(PieceKind::Pawn))
            | (KNIGHT[ti][sq] & self.kind_bb(PieceKind::Knight))
            | (SILVER[ti][sq] & (self.kind_bb(PieceKind::Silver) | kd))
            | (GOLD[ti][sq] & (self.golds() | kd))
            | (attacks::lance(them, sq, occ) & self.kind_bb(PieceKind::Lance))
            | (attacks::bishop(sq, occ)
                & (self.kind_bb(PieceKind::Bishop) | self.kind_bb(PieceKind::Horse)))
            | (attacks::rook(sq, occ)
                & (self.kind_bb(PieceKind::Rook) | self.kind_bb(PieceKind::Dragon)));
        a & self.by_color[c as usize]
    }

    /// True if `c` attacks `sq` with occupancy `occ` (early exit).
    #[inline]
    pub(crate) fn is_attacked(&self, c: Color, sq: usize, occ: u128) -> bool {
        let them = !c;
        let ti = them as usize;
        let own = self.by_color[c as usize];
        let kd = self.kind_bb(PieceKind::King)
            | self.kind_bb(PieceKind::Horse)
            | self.kind_bb(PieceKind::Dragon);
        if ((PAWN[ti][sq] & self.kind_bb(PieceKind::Pawn))
            | (KNIGHT[ti][sq] & self.kind_bb(PieceKind::Knight))
            | (SILVER[ti][sq] & (self.kind_bb(PieceKind::Silver) | kd))
            | (GOLD[ti][sq] & (self.golds() | kd)))
            & own
            != 0
        {
            return true;
        }
        let bh = (self.kind_bb(PieceKind::Bishop) | self.kind_bb(PieceKind::Horse)) & own;
        if BISHOP_PSEUDO[sq] & bh != 0 && attacks::bishop(sq, occ) & bh != 0 {
            return true;
        }
        let rd = (self.kind_bb(PieceKind::Rook) | self.kind_bb(PieceKind::Dragon)) & own;
        if ROOK_PSEUDO[sq] & rd != 0 && attacks::rook(sq, occ) & rd != 0 {
            return true;
        }
        let l = self.kind_bb(PieceKind::Lance) & own;
        l != 0 && attacks::lance(them, sq, occ) & l != 0
    }

    /// Sliders of `c` that attack `sq` with occupancy `occ`.
    #[inline]
    pub(crate) fn slider_attackers(&self, c: Color, sq: usize, occ: u128) -> u128 {
        self.slider_attackers_among(c, self.by_color[c as usize], sq, occ)
    }

    /// Sliders among `own` (pieces of `c`) that attack `sq` with occupancy `occ`.
    #[inline]
    fn slider_attackers_among(&self, c: Color, own: u128, sq: usize, occ: u128) -> u128 {
        let mut a = 0;
        let bh = (self.kind_bb(PieceKind::Bishop) | self.kind_bb(PieceKind::Horse)) & own;
        if BISHOP_PSEUDO[sq] & bh != 0 {
            a |= attacks::bishop(sq, occ) & bh;
        }
        let rd = (self.kind_bb(PieceKind::Rook) | self.kind_bb(PieceKind::Dragon)) & own;
        if ROOK_PSEUDO[sq] & rd != 0 {
            a |= attacks::rook(sq, occ) & rd;
        }
        let l = self.kind_bb(PieceKind::Lance) & own;
        if attacks::lance_pseudo(!c, sq) & l != 0 {
            a |= attacks::lance(!c, sq, occ) & l;
        }
        a
    }

    fn compute_checkers(&self) -> u128 {
        let us = self.side;
        self.attackers_to(!us, self.king[us as usize] as usize, self.occ())
    }

    /// True if the side to move is in check.
    #[inline(always)]
    pub fn is_in_check(&self) -> bool {
        self.checkers != 0
    }

    /// The pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        Bitboard(self.checkers)
    }

    /// Pieces of `c` pinned against `c`'s own king (they may move only along the pin line).
    #[inline]
    pub(crate) fn pinned(&self, c: Color) -> u128 {
        let ksq = self.king[c as usize] as usize;
        self.sole_blockers(c, ksq) & self.by_color[c as usize]
    }

    /// The pieces (of either side) standing alone between square `ksq`, where side
    /// `king_side`'s king stands, and a slider of the other side that has it on one of
    /// its lines: the pieces pinned to that king, and the other side's pieces whose
    /// leaving the line gives check.
    pub(crate) fn sole_blockers(&self, king_side: Color, ksq: usize) -> u128 {
        let snipers = self.by_color[!king_side as usize]
            & ((ROOK_PSEUDO[ksq]
                & (self.kind_bb(PieceKind::Rook) | self.kind_bb(PieceKind::Dragon)))
                | (BISHOP_PSEUDO[ksq]
                    & (self.kind_bb(PieceKind::Bishop) | self.kind_bb(PieceKind::Horse)))
                | (attacks::lance_pseudo(king_side, ksq) & self.kind_bb(PieceKind::Lance)));
        let occ = self.occ();
        let mut blockers = 0;
        let mut s = snipers;
        while s != 0 {
            let sq = lsb(s);
            s &= s - 1;
            let b = between(ksq, sq) & occ;
            if b != 0 && b & (b - 1) == 0 {
                blockers |= b;
            }
        }
        blockers
    }

    /// Pieces of `c` pinned against its king (public form).
    pub fn pinned_pieces(&self, c: Color) -> Bitboard {
        Bitboard(self.pinned(c))
    }

    /// True if the move (assumed legal) checks the opponent.
    pub fn gives_check(&self, m: Move) -> bool {
        let us = self.side;
        let ksq = self.king[!us as usize] as usize;
        match m {
            Move::Drop { kind, to } => {
                let occ = self.occ() | (1u128 << to.index());
                attacks::piece_attacks(kind, us, to.index(), occ) & (1u128 << ksq) != 0
            }
            Move::Normal { from, to, promote } => {
                let (f, t) = (from.index(), to.index());
                let pc = self.board[f];
                if pc == 0 {
                    return false;
                }
                let occ = (self.occ() & !(1u128 << f)) | (1u128 << t);
                let nk = PieceKind::ALL[kind_after(pc, promote)];
                if attacks::piece_attacks(nk, us, t, occ) & (1u128 << ksq) != 0 {
                    return true;
                }
                line(ksq, f) != 0
                    && line(ksq, f) & (1u128 << t) == 0
                    && self.slider_attackers(us, ksq, occ) & line(ksq, f) & !(1u128 << t) != 0
            }
        }
    }

    /// What [`CheckInfo::gives_check`] needs to tell, for many moves of this position,
    /// whether each gives check: computed once, it answers each move with a few bit tests.
    pub fn check_info(&self) -> CheckInfo {
        let us = self.side;
        let them = !us;
        let Some(k) = self.king_square(them) else {
            return CheckInfo {
                direct: [0; 14],
                discoverers: 0,
                ksq: None,
            };
        };
        let ksq = k.index();
        let occ = self.occ();
        // A piece of ours attacks the king from exactly the squares that the same piece
        // of theirs attacks from the king's square. The occupancy before the move serves
        // for every move: a piece whose from-square stood between its to-square and the
        // king on one of its lines would already have given check.
        let mut direct = [0u128; 14];
        for (i, d) in direct.iter_mut().enumerate() {
            *d = attacks::piece_attacks(PieceKind::ALL[i], them, ksq, occ);
        }
        // Our pieces standing alone between the king and one of our sliders.
        let ours = self.by_color[us as usize];
        let discoverers = self.sole_blockers(them, ksq);
        CheckInfo {
            direct,
            discoverers: discoverers & ours,
            ksq: Some(ksq),
        }
    }

    /// Play a move known to be legal (from the legal list or checked by
    /// [`Position::legality`]). An illegal move leaves the position inconsistent.
    #[inline]
    pub fn play_unchecked(&mut self, m: Move) -> UndoInfo {
        let us = self.side;
        let ui = us as usize;
        let ti = ui ^ 1;
        let mut undo = UndoInfo {
            captured: 0,
            checkers: self.checkers,
            key: self.key,
        };
        let mut key = self.key;
        let eksq = self.king[ti] as usize;
        // Occupancy and own pieces are kept in registers: reading the bitboards back
        // right after writing them would stall on store forwarding.
        let occ0 = self.by_color[0] | self.by_color[1];
        let own0 = self.by_color[ui];
        let checkers;
        match m {
            Move::Normal { from, to, promote } => {
                let (f, t) = (from.index(), to.index());
                let (fb, tb) = (bit(f), bit(t));
                let pc = self.board[f];
                let kind = (pc & 15) as usize - 1;
                let cap = self.board[t];
                if cap != 0 {
                    let ck = (cap & 15) as usize - 1;
                    self.by_color[ti] ^= tb;
                    self.by_kind[ck] ^= tb;
                    key ^= zobrist::BOARD[t][cap as usize];
                    let hk = UNPROMOTED_KIND[ck] as usize;
                    let n = self.hands[ui].count_index(hk) as usize;
                    key ^= zobrist::HAND[ui][hk][n] ^ zobrist::HAND[ui][hk][n + 1];
                    self.hands[ui].add_index(hk);
                    undo.captured = cap;
                }
                let nk = if promote {
                    PROMOTED_KIND[kind] as usize
                } else {
                    kind
                };
                let npc = pc + (nk - kind) as u8;
                self.board[f] = 0;
                self.board[t] = npc;
                self.by_color[ui] ^= fb | tb;
                self.by_kind[kind] ^= fb;
                self.by_kind[nk] ^= tb;
                key ^= zobrist::BOARD[f][pc as usize] ^ zobrist::BOARD[t][npc as usize];
                if kind == PieceKind::King as usize {
                    self.king[ui] = t as u8;
                }
                let occ = (occ0 & !fb) | tb;
                let own = own0 ^ fb ^ tb;
                let mut c = if attacks::reaches(PieceKind::ALL[nk], us, t, eksq, occ) {
                    tb
                } else {
                    0
                };
                let l = line(eksq, f);
                if l != 0 && l & tb == 0 {
                    c |= self.slider_attackers_among(us, own, eksq, occ) & l;
                }
                checkers = c;
            }
            Move::Drop { kind, to } => {
                let t = to.index();
                let tb = bit(t);
                let hk = kind as usize;
                let n = self.hands[ui].count_index(hk) as usize;
                key ^= zobrist::HAND[ui][hk][n] ^ zobrist::HAND[ui][hk][n - 1];
                self.hands[ui].remove_index(hk);
                let pc = hk as u8 + 1 + ((ui as u8) << 4);
                self.board[t] = pc;
                self.by_color[ui] |= tb;
                self.by_kind[hk] |= tb;
                key ^= zobrist::BOARD[t][pc as usize];
                let occ = occ0 | tb;
                checkers = if attacks::reaches(kind, us, t, eksq, occ) {
                    tb
                } else {
                    0
                };
            }
        }
        self.side = !us;
        self.key = key ^ zobrist::WHITE_TO_MOVE;
        self.move_number = self.move_number.saturating_add(1);
        self.checkers = checkers;
        undo
    }

    /// Take back `m`, which must be the last move played, with its [`UndoInfo`].
    #[inline]
    pub fn undo(&mut self, m: Move, u: UndoInfo) {
        let us = !self.side;
        let ui = us as usize;
        let ti = ui ^ 1;
        self.side = us;
        self.move_number = self.move_number.saturating_sub(1);
        self.key = u.key;
        self.checkers = u.checkers;
        match m {
            Move::Normal { from, to, promote } => {
                let (f, t) = (from.index(), to.index());
                let (fb, tb) = (bit(f), bit(t));
                let npc = self.board[t];
                let nk = (npc & 15) as usize - 1;
                let kind = if promote {
                    UNPROMOTED_KIND[nk] as usize
                } else {
                    nk
                };
                let pc = npc - (nk - kind) as u8;
                self.board[f] = pc;
                self.board[t] = u.captured;
                self.by_color[ui] ^= fb | tb;
                self.by_kind[nk] ^= tb;
                self.by_kind[kind] ^= fb;
                if u.captured != 0 {
                    let ck = (u.captured & 15) as usize - 1;
                    self.by_color[ti] |= tb;
                    self.by_kind[ck] |= tb;
                    self.hands[ui].remove_index(UNPROMOTED_KIND[ck] as usize);
                }
                if kind == PieceKind::King as usize {
                    self.king[ui] = f as u8;
                }
            }
            Move::Drop { kind, to } => {
                let t = to.index();
                let tb = bit(t);
                self.board[t] = 0;
                self.by_color[ui] ^= tb;
                self.by_kind[kind as usize] ^= tb;
                self.hands[ui].add_index(kind as usize);
            }
        }
    }

    /// Pass: hand the move to the other side in place (a null move, for the search's
    /// null-move pruning and threat tests). The side to move must not be in check, so the
    /// side that moves next is not in check either. Undone by [`Position::undo_null_move`].
    #[inline]
    pub fn do_null_move(&mut self) -> NullUndo {
        debug_assert!(self.checkers == 0, "a null move while in check");
        let undo = NullUndo {
            key: self.key,
            checkers: self.checkers,
        };
        self.side = !self.side;
        self.key ^= zobrist::WHITE_TO_MOVE;
        self.move_number = self.move_number.saturating_add(1);
        self.checkers = 0;
        undo
    }

    /// Take back [`Position::do_null_move`].
    #[inline]
    pub fn undo_null_move(&mut self, u: NullUndo) {
        self.side = !self.side;
        self.key = u.key;
        self.move_number = self.move_number.saturating_sub(1);
        self.checkers = u.checkers;
    }

    /// The piece `m` would capture, if any.
    #[inline]
    pub fn captured_by(&self, m: Move) -> Option<Piece> {
        match m {
            Move::Normal { to, .. } => self.piece_at(to),
            Move::Drop { .. } => None,
        }
    }

    /// The mover's piece as it stands after `m` (promoted if `m` promotes), if the origin
    /// holds a piece (or, for a drop, always).
    pub fn piece_after(&self, m: Move) -> Option<Piece> {
        match m {
            Move::Drop { kind, .. } => Some(Piece::new(self.side, kind)),
            Move::Normal { from, promote, .. } => self.piece_at(from).map(|p| {
                let kind = if promote {
                    p.kind.promoted().unwrap_or(p.kind)
                } else {
                    p.kind
                };
                Piece::new(p.color, kind)
            }),
        }
    }

    /// Check `m` and play it; an illegal move leaves the position unchanged.
    pub fn play(&mut self, m: Move) -> Result<(), super::IllegalMoveKind> {
        self.legality(m)?;
        self.play_unchecked(m);
        Ok(())
    }

    /// Owned points of `c` (所有点数): every own non-king piece on the board and in hand.
    pub fn owned_points(&self, c: Color) -> i32 {
        self.points_in(c, FULL) + self.hands[c as usize].points()
    }

    /// Declaration points of `c` (宣言点数): own non-king pieces in the enemy camp plus hand.
    pub fn declaration_points(&self, c: Color) -> i32 {
        self.points_in(c, ZONE[c as usize]) + self.hands[c as usize].points()
    }

    /// Number of own non-king pieces of `c` in the enemy camp (hand not counted).
    pub fn zone_count(&self, c: Color) -> i32 {
        (self.by_color[c as usize] & ZONE[c as usize] & !self.kind_bb(PieceKind::King)).count_ones()
            as i32
    }

    /// True if the king of `c` stands in the enemy camp.
    pub fn king_in_camp(&self, c: Color) -> bool {
        IN_ZONE[c as usize][usize::from(self.king[c as usize] & 127)]
    }

    fn points_in(&self, c: Color, area: u128) -> i32 {
        let own = self.by_color[c as usize] & area & !self.kind_bb(PieceKind::King);
        let big = (self.kind_bb(PieceKind::Bishop)
            | self.kind_bb(PieceKind::Rook)
            | self.kind_bb(PieceKind::Horse)
            | self.kind_bb(PieceKind::Dragon))
            & own;
        own.count_ones() as i32 + 4 * big.count_ones() as i32
    }
}
