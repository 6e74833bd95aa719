//! Legal move generation and the single-move legality check.
//!
//! Generation is pin-aware and never plays a move to test it: when not in check every
//! piece move is generated against the pinned set (a pinned piece stays on its line),
//! king moves are tested against enemy attacks with the king lifted off the board, and
//! drops are legal except a pawn-drop mate, tested directly. In check, only evasions are
//! generated: king moves, and against a single checker captures and interpositions.
//! The list is complete: every optional non-promotion is included.

use super::attacks::{self, KING, KNIGHT_AREA, PAWN_AREA, ZONE, between, bit, line};
use super::bitboard::{FULL, lsb};
use super::moves::Sink;
use super::{Color, Move, MoveList, PieceKind, Position, Square};

/// Why a move is illegal in a position.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum IllegalMoveKind {
    /// The origin is empty or holds an enemy piece.
    NotOwnPiece,
    /// The piece cannot move so (wrong pattern or a blocked slide).
    CannotMove,
    /// The destination holds one of the mover's pieces.
    OwnPieceOnDestination,
    /// Promotion impossible (kind or zone), or a compulsory promotion missing.
    BadPromotion,
    /// The dropped kind is not in hand (or cannot be held at all).
    NotInHand,
    /// Drop onto an occupied square.
    DropOnOccupied,
    /// Two unpromoted pawns of one side on a file (二歩, nifu).
    TwoPawns,
    /// Drop where the piece could never move (pawn or lance on the last rank, knight on the last two).
    DropStuck,
    /// Pawn-drop mate (打ち歩詰め, uchifuzume).
    DropPawnMate,
    /// The mover's king is left or put in check.
    IgnoredCheck,
}

impl IllegalMoveKind {
    /// Every kind, in declaration order.
    pub const ALL: [IllegalMoveKind; 10] = [
        IllegalMoveKind::NotOwnPiece,
        IllegalMoveKind::CannotMove,
        IllegalMoveKind::OwnPieceOnDestination,
        IllegalMoveKind::BadPromotion,
        IllegalMoveKind::NotInHand,
        IllegalMoveKind::DropOnOccupied,
        IllegalMoveKind::TwoPawns,
        IllegalMoveKind::DropStuck,
        IllegalMoveKind::DropPawnMate,
        IllegalMoveKind::IgnoredCheck,
    ];

    /// snake_case name used in tables: `not_own_piece`, `two_pawns`, `drop_pawn_mate`, ...
    pub const fn name(self) -> &'static str {
        match self {
            IllegalMoveKind::NotOwnPiece => "not_own_piece",
            IllegalMoveKind::CannotMove => "cannot_move",
            IllegalMoveKind::OwnPieceOnDestination => "own_piece_on_destination",
            IllegalMoveKind::BadPromotion => "bad_promotion",
            IllegalMoveKind::NotInHand => "not_in_hand",
            IllegalMoveKind::DropOnOccupied => "drop_on_occupied",
            IllegalMoveKind::TwoPawns => "two_pawns",
            IllegalMoveKind::DropStuck => "drop_stuck",
            IllegalMoveKind::DropPawnMate => "drop_pawn_mate",
            IllegalMoveKind::IgnoredCheck => "ignored_check",
        }
    }
}

impl std::fmt::Display for IllegalMoveKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::error::Error for IllegalMoveKind {}

#[inline(always)]
fn sq(i: usize) -> Square {
    Square::from_index_unchecked(i)
}

/// Pawn, lance or knight move: promotion when entering the zone, non-promotion only where
/// the piece can still move (`area`).
#[inline(always)]
fn push_pawn_like(list: &mut Sink<'_>, from: usize, to: usize, zone: u128, area: u128) {
    let tb = 1u128 << to;
    if tb & zone != 0 {
        list.push(Move::Normal {
            from: sq(from),
            to: sq(to),
            promote: true,
        });
    }
    if tb & area != 0 {
        list.push(Move::Normal {
            from: sq(from),
            to: sq(to),
            promote: false,
        });
    }
}

/// Silver, bishop or rook moves: promotion optional whenever origin or destination is in the zone.
#[inline(always)]
fn push_optional(list: &mut Sink<'_>, from: usize, mut t: u128, zone: u128) {
    let f = sq(from);
    if (1u128 << from) & zone != 0 {
        while t != 0 {
            let to = sq(lsb(t));
            t &= t - 1;
            list.push(Move::Normal {
                from: f,
                to,
                promote: true,
            });
            list.push(Move::Normal {
                from: f,
                to,
                promote: false,
            });
        }
    } else {
        while t != 0 {
            let to = lsb(t);
            t &= t - 1;
            if (1u128 << to) & zone != 0 {
                list.push(Move::Normal {
                    from: f,
                    to: sq(to),
                    promote: true,
                });
            }
            list.push(Move::Normal {
                from: f,
                to: sq(to),
                promote: false,
            });
        }
    }
}

/// Moves of pieces that never promote.
#[inline(always)]
fn push_plain(list: &mut Sink<'_>, from: usize, t: u128) {
    list.push_targets(sq(from), t);
}

impl Position {
    /// The complete set of legal moves (with every optional non-promotion).
    #[inline]
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_legal(&mut list);
        list
    }

    /// Append the complete set of legal moves to `list`.
    #[inline]
    pub fn generate_legal(&self, list: &mut MoveList) {
        self.generate_legal_into(&mut list.sink());
    }

    fn generate_legal_into(&self, list: &mut Sink<'_>) {
        let us = self.side;
        let ui = us as usize;
        let ksq = self.king[ui] as usize;
        let own = self.by_color[ui];
        let occ = self.occ();
        if self.checkers == 0 {
            let pinned = self.pinned(us);
            self.gen_board(list, !own & FULL, pinned, ksq);
            self.gen_drops(list, !occ & FULL);
            self.gen_king(list, ksq, !own & FULL);
        } else {
            self.gen_king(list, ksq, !own & FULL);
            let c = self.checkers;
            if c & (c - 1) == 0 {
                let pinned = self.pinned(us);
                let block = between(ksq, lsb(c));
                self.gen_board(list, block | c, pinned, ksq);
                self.gen_drops(list, block);
            }
        }
    }

    /// Append every legal move of the side to move that gives check, each once: in check,
    /// the legal evasions that give check (in generation order); otherwise the checking
    /// drops (by hand kind, on the squares from which the dropped piece attacks the enemy
    /// king), then the checking board moves (the check candidates
    /// filtered by [`Position::gives_check`]). The order is fixed: the mate searches try
    /// the checks in it.
    pub fn generate_checks(&self, list: &mut MoveList) {
        let start = list.len();
        if self.checkers != 0 {
            self.generate_legal(list);
            list.retain_from(start, |m| self.gives_check(m));
            return;
        }
        let us = self.side;
        let them = !us;
        let Some(king) = self.king_square(them) else {
            return;
        };
        let occ = self.occ();
        let hand = self.hands[us as usize];
        if !hand.is_empty() {
            let empty = !occ & FULL;
            for kind in PieceKind::HAND_KINDS {
                if hand.count(kind) == 0 {
                    continue;
                }
                // A piece of ours attacks the king from exactly the squares that the same
                // piece of theirs would attack from the king's square.
                let mut t = attacks::piece_attacks(kind, them, king.index(), occ)
                    & empty
                    & attacks::movable_area(kind, us);
                while t != 0 {
                    let to = lsb(t);
                    t &= t - 1;
                    let m = Move::Drop { kind, to: sq(to) };
                    // Not in check, a drop is legal but for the two pawn rules.
                    if self.is_legal(m) {
                        list.push(m);
                    }
                }
            }
        }
        let board = list.len();
        self.generate_check_candidates(list);
        let checks = self.check_info();
        list.retain_from(board, |m| checks.gives_check(self, m));
    }

    /// Append legal board moves (no drops) of a side not in check that may give check: a
    /// superset of the checking board moves (moves of a piece that uncovers a slider on
    /// the enemy king, and moves to a square from which the piece, promoted or not,
    /// attacks the enemy king). Callers filter with [`Position::gives_check`].
    pub(crate) fn generate_check_candidates(&self, list: &mut MoveList) {
        self.check_candidates_into(&mut list.sink());
    }

    fn check_candidates_into(&self, list: &mut Sink<'_>) {
        let us = self.side;
        let them = !us;
        let ui = us as usize;
        let ksq = self.king[ui] as usize;
        let ek = self.king[them as usize] as usize;
        let own = self.by_color[ui];
        let occ = self.occ();
        let zone = ZONE[ui];
        let pinned = self.pinned(us);
        // Own pieces standing alone between an own slider and the enemy king.
        let discoverers = self.sole_blockers(them, ek) & own;
        let mut pcs = own & !(1u128 << ksq);
        while pcs != 0 {
            let from = lsb(pcs);
            pcs &= pcs - 1;
            let fb = 1u128 << from;
            let kind = PieceKind::ALL[(self.board[from] & 15) as usize - 1];
            let mut t = attacks::piece_attacks(kind, us, from, occ) & !own;
            if pinned & fb != 0 {
                t &= line(ksq, from);
            }
            if discoverers & fb == 0 {
                let occf = occ & !fb;
                let mut m = attacks::piece_attacks(kind, them, ek, occf);
                if let Some(pk) = kind.promoted() {
                    let promo_area = if fb & zone != 0 { FULL } else { zone };
                    m |= attacks::piece_attacks(pk, them, ek, occf) & promo_area;
                }
                t &= m;
            }
            match kind {
                PieceKind::Pawn | PieceKind::Lance => {
                    let mut t = t;
                    while t != 0 {
                        let to = lsb(t);
                        t &= t - 1;
                        push_pawn_like(list, from, to, zone, PAWN_AREA[ui]);
                    }
                }
                PieceKind::Knight => {
                    let mut t = t;
                    while t != 0 {
                        let to = lsb(t);
                        t &= t - 1;
                        push_pawn_like(list, from, to, zone, KNIGHT_AREA[ui]);
                    }
                }
                PieceKind::Silver | PieceKind::Bishop | PieceKind::Rook => {
                    push_optional(list, from, t, zone)
                }
                _ => push_plain(list, from, t),
            }
        }
        if discoverers & (1u128 << ksq) != 0 {
            self.gen_king(list, ksq, !own & FULL);
        }
    }

    /// True if the side to move has at least one legal move.
    pub fn has_legal_move(&self) -> bool {
        let us = self.side;
        let ui = us as usize;
        let ksq = self.king[ui] as usize;
        let own = self.by_color[ui];
        let occ_wo_king = self.occ() ^ (1u128 << ksq);
        let mut t = KING[ksq] & !own;
        while t != 0 {
            let to = lsb(t);
            t &= t - 1;
            if !self.is_attacked(!us, to, occ_wo_king) {
                return true;
            }
        }
        let c = self.checkers;
        if c & c.wrapping_sub(1) != 0 {
            return false;
        }
        let mut store = MoveList::new();
        let mut list = store.sink();
        if c == 0 {
            let pinned = self.pinned(us);
            self.gen_board(&mut list, !own & FULL, pinned, ksq);
            if list.len() > 0 {
                return true;
            }
            self.gen_drops(&mut list, !self.occ() & FULL);
        } else {
            let pinned = self.pinned(us);
            let block = between(ksq, lsb(c));
            self.gen_board(&mut list, block | c, pinned, ksq);
            if list.len() > 0 {
                return true;
            }
            self.gen_drops(&mut list, block);
        }
        list.len() > 0
    }

    #[inline(always)]
    fn gen_king(&self, list: &mut Sink<'_>, ksq: usize, target: u128) {
        let them = !self.side;
        let occ = self.occ() ^ (1u128 << ksq);
        let mut t = KING[ksq] & target;
        while t != 0 {
            let to = lsb(t);
            t &= t - 1;
            if !self.is_attacked(them, to, occ) {
                list.push(Move::Normal {
                    from: sq(ksq),
                    to: sq(to),
                    promote: false,
                });
            }
        }
    }

    /// Moves of every non-king piece to `target`, pinned pieces kept on their line.
    #[inline(always)]
    fn gen_board(&self, list: &mut Sink<'_>, target: u128, pinned: u128, ksq: usize) {
        let us = self.side;
        let ui = us as usize;
        let occ = self.occ();
        let zone = ZONE[ui];
        let own = self.by_color[ui];
        let restrict = |from: usize, t: u128| -> u128 {
            if pinned & (1u128 << from) != 0 {
                t & line(ksq, from)
            } else {
                t
            }
        };

        // Pawns: unpinned ones by a shift of the whole set.
        let pawns = own & self.kind_bb(PieceKind::Pawn);
        let area = PAWN_AREA[ui];
        let free = pawns & !pinned;
        let mut t = match us {
            Color::Black => free >> 1,
            Color::White => free << 1,
        } & target;
        while t != 0 {
            let to = lsb(t);
            t &= t - 1;
            let from = if us == Color::Black { to + 1 } else { to - 1 };
            push_pawn_like(list, from, to, zone, area);
        }
        let mut pp = pawns & pinned;
        while pp != 0 {
            let from = lsb(pp);
            pp &= pp - 1;
            let mut t = restrict(from, attacks::PAWN[ui][from] & target);
            while t != 0 {
                let to = lsb(t);
                t &= t - 1;
                push_pawn_like(list, from, to, zone, area);
            }
        }

        let mut ls = own & self.kind_bb(PieceKind::Lance);
        while ls != 0 {
            let from = lsb(ls);
            ls &= ls - 1;
            let mut t = restrict(from, attacks::lance(us, from, occ) & target);
            while t != 0 {
                let to = lsb(t);
                t &= t - 1;
                push_pawn_like(list, from, to, zone, area);
            }
        }

        // A pinned knight can never stay on its line.
        let mut ns = own & self.kind_bb(PieceKind::Knight) & !pinned;
        let narea = KNIGHT_AREA[ui];
        while ns != 0 {
            let from = lsb(ns);
            ns &= ns - 1;
            let mut t = attacks::KNIGHT[ui][from] & target;
            while t != 0 {
                let to = lsb(t);
                t &= t - 1;
                push_pawn_like(list, from, to, zone, narea);
            }
        }

        let mut ss = own & self.kind_bb(PieceKind::Silver);
        while ss != 0 {
            let from = lsb(ss);
            ss &= ss - 1;
            let t = restrict(from, attacks::SILVER[ui][from] & target);
            push_optional(list, from, t, zone);
        }

        let mut gs = own & self.golds();
        while gs != 0 {
            let from = lsb(gs);
            gs &= gs - 1;
            let t = restrict(from, attacks::GOLD[ui][from] & target);
            push_plain(list, from, t);
        }

        let mut bs = own & self.kind_bb(PieceKind::Bishop);
        while bs != 0 {
            let from = lsb(bs);
            bs &= bs - 1;
            let t = restrict(from, attacks::bishop(from, occ) & target);
            push_optional(list, from, t, zone);
        }

        let mut rs = own & self.kind_bb(PieceKind::Rook);
        while rs != 0 {
            let from = lsb(rs);
            rs &= rs - 1;
            let t = restrict(from, attacks::rook(from, occ) & target);
            push_optional(list, from, t, zone);
        }

        let mut hs = own & self.kind_bb(PieceKind::Horse);
        while hs != 0 {
            let from = lsb(hs);
            hs &= hs - 1;
            let t = restrict(from, (attacks::bishop(from, occ) | KING[from]) & target);
            push_plain(list, from, t);
        }

        let mut ds = own & self.kind_bb(PieceKind::Dragon);
        while ds != 0 {
            let from = lsb(ds);
            ds &= ds - 1;
            let t = restrict(from, (attacks::rook(from, occ) | KING[from]) & target);
            push_plain(list, from, t);
        }
    }

    /// Files (as full file masks) holding an unpromoted pawn of `c`.
    #[inline(always)]
    pub(crate) fn pawn_files(&self, c: Color) -> u128 {
        let mut p = self.by_color[c as usize] & self.kind_bb(PieceKind::Pawn);
        let mut files = 0;
        while p != 0 {
            let s = lsb(p);
            let m = attacks::file_mask(s);
            files |= m;
            p &= !m;
        }
        files
    }

    /// Drops onto `target` (empty squares).
    #[inline(always)]
    fn gen_drops(&self, list: &mut Sink<'_>, target: u128) {
        let ui = self.side as usize;
        let hand = self.hands[ui];
        if hand.is_empty() || target == 0 {
            return;
        }
        if hand.count_index(0) > 0 {
            let mut t = target & PAWN_AREA[ui] & !self.pawn_files(self.side);
            if t != 0 {
                if let Some(pd) = self.pawn_drop_check_square()
                    && t & (1u128 << pd) != 0
                    && self.is_pawn_drop_mate(pd)
                {
                    t &= !(1u128 << pd);
                }
                list.push_drops(t, &[PieceKind::Pawn]);
            }
        }
        // Other kinds: squares outer, kinds inner, in three bands of ranks.
        let mut kinds = [PieceKind::Rook; 6];
        let mut n = 0;
        for k in [
            PieceKind::Silver,
            PieceKind::Gold,
            PieceKind::Bishop,
            PieceKind::Rook,
        ] {
            if hand.count_index(k as usize) > 0 {
                kinds[n] = k;
                n += 1;
            }
        }
        // Last rank: only the kinds that can move from anywhere.
        list.push_drops(target & !PAWN_AREA[ui], &kinds[..n]);
        if hand.count_index(PieceKind::Lance as usize) > 0 {
            kinds[n] = PieceKind::Lance;
            n += 1;
        }
        // Second rank from the end: add the lance.
        list.push_drops(target & PAWN_AREA[ui] & !KNIGHT_AREA[ui], &kinds[..n]);
        if hand.count_index(PieceKind::Knight as usize) > 0 {
            kinds[n] = PieceKind::Knight;
            n += 1;
        }
        list.push_drops(target & KNIGHT_AREA[ui], &kinds[..n]);
    }

    /// The square where a pawn of the side to move would check the enemy king.
    #[inline(always)]
    fn pawn_drop_check_square(&self) -> Option<usize> {
        let ek = self.king[!self.side as usize] as usize;
        match self.side {
            Color::Black => (ek % 9 != 8).then_some(ek + 1),
            Color::White => (!ek.is_multiple_of(9)).then(|| ek - 1),
        }
    }

    /// True if a pawn of the side to move dropped on `to` (checking the enemy king)
    /// would be mate: no capture of the pawn and no king escape.
    pub(crate) fn is_pawn_drop_mate(&self, to: usize) -> bool {
        let us = self.side;
        let them = !us;
        let ti = them as usize;
        let ek = self.king[ti] as usize;
        let tb = 1u128 << to;
        let occ = self.occ() | tb;
        let mut capturers = self.attackers_to(them, to, occ) & !(1u128 << ek);
        if capturers != 0 {
            let pinned = self.pinned(them);
            while capturers != 0 {
                let c = lsb(capturers);
                capturers &= capturers - 1;
                if pinned & (1u128 << c) == 0 || line(ek, c) & tb != 0 {
                    return false;
                }
            }
        }
        let occ_wo_king = occ ^ (1u128 << ek);
        let mut esc = KING[ek] & !self.by_color[ti];
        while esc != 0 {
            let s = lsb(esc);
            esc &= esc - 1;
            if !self.is_attacked(us, s, occ_wo_king) {
                return false;
            }
        }
        true
    }

    /// Why `m` is illegal here, or `Ok(())`.
    pub fn legality(&self, m: Move) -> Result<(), IllegalMoveKind> {
        let us = self.side;
        let ui = us as usize;
        let occ = self.occ();
        match m {
            Move::Normal { from, to, promote } => {
                let (f, t) = (from.index(), to.index());
                let Some(p) = self.piece_at(from).filter(|p| p.color == us) else {
                    return Err(IllegalMoveKind::NotOwnPiece);
                };
                if !attacks::reaches(p.kind, us, f, t, occ) {
                    return Err(IllegalMoveKind::CannotMove);
                }
                if self.by_color[ui] & bit(t) != 0 {
                    return Err(IllegalMoveKind::OwnPieceOnDestination);
                }
                if promote {
                    if !p.kind.can_promote() || !(from.in_camp_of(us) || to.in_camp_of(us)) {
                        return Err(IllegalMoveKind::BadPromotion);
                    }
                } else if attacks::movable_area(p.kind, us) & bit(t) == 0 {
                    return Err(IllegalMoveKind::BadPromotion);
                }
                let ksq = self.king[ui] as usize;
                let occ2 = (occ & !bit(f)) | bit(t);
                let attacked = if f == ksq {
                    self.is_attacked(!us, t, occ2)
                } else if self.checkers == 0 {
                    // Not in check: only a piece leaving the line between the king and
                    // an enemy slider can expose the king.
                    let l = line(ksq, f);
                    l != 0
                        && l & bit(t) == 0
                        && self.slider_attackers(!us, ksq, occ2) & l & !bit(t) != 0
                } else {
                    self.attackers_to(!us, ksq, occ2) & !bit(t) != 0
                };
                if attacked {
                    return Err(IllegalMoveKind::IgnoredCheck);
                }
                Ok(())
            }
            Move::Drop { kind, to } => {
                let t = to.index();
                if !kind.is_hand_kind() || self.hands[ui].count(kind) == 0 {
                    return Err(IllegalMoveKind::NotInHand);
                }
                if occ & bit(t) != 0 {
                    return Err(IllegalMoveKind::DropOnOccupied);
                }
                if attacks::movable_area(kind, us) & bit(t) == 0 {
                    return Err(IllegalMoveKind::DropStuck);
                }
                if kind == PieceKind::Pawn && self.pawn_files(us) & bit(t) != 0 {
                    return Err(IllegalMoveKind::TwoPawns);
                }
                let ksq = self.king[ui] as usize;
                // A drop never exposes the king: it matters only when in check.
                if self.checkers != 0 && self.attackers_to(!us, ksq, occ | bit(t)) != 0 {
                    return Err(IllegalMoveKind::IgnoredCheck);
                }
                if kind == PieceKind::Pawn
                    && self.pawn_drop_check_square() == Some(t)
                    && self.is_pawn_drop_mate(t)
                {
                    return Err(IllegalMoveKind::DropPawnMate);
                }
                Ok(())
            }
        }
    }

    /// True if `m` is legal here.
    #[inline]
    pub fn is_legal(&self, m: Move) -> bool {
        self.legality(m).is_ok()
    }
}
