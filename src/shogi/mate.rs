//! Mate in one: a legal move after which the opponent has no legal reply.
//!
//! Candidates are drops first (every hand kind but the pawn, a pawn-drop mate being
//! illegal), then board moves; when the side to move is in check only its legal evasions
//! that give check are tried. Each candidate is played on the working position and
//! confirmed by the defender having no legal move at all (its complete legal set,
//! non-promotions included), then undone.

use super::attacks;
use super::bitboard::FULL;
use super::{Move, Position};

/// A mate-in-one move of the side to move, if any; the position is unchanged.
pub fn solve_mate_in_one(pos: &Position) -> Option<Move> {
    let mut p = pos.clone();
    solve_mate_in_one_in_place(&mut p)
}

/// As [`solve_mate_in_one`], playing and undoing candidates on `pos` itself; `pos` is left
/// exactly as it was.
pub fn solve_mate_in_one_in_place(pos: &mut Position) -> Option<Move> {
    let us = pos.side;
    let them = !us;
    let ek = pos.king[them as usize] as usize;
    if pos.is_in_check() {
        let list = pos.legal_moves();
        for pass in [true, false] {
            for &m in list.iter() {
                if m.is_drop() != pass
                    || m == (Move::Drop {
                        kind: super::PieceKind::Pawn,
                        to: m.to(),
                    })
                {
                    continue;
                }
                if pos.gives_check(m) && mates(pos, m) {
                    return Some(m);
                }
            }
        }
        return None;
    }
    // Drops next to or aiming at the king, on empty squares. Quick filter: the king must
    // have no free escape square that the dropped piece does not cover.
    let empty = !pos.occ() & FULL;
    let hand = pos.hands[us as usize];
    if !hand.is_empty() {
        for kind in super::PieceKind::HAND_KINDS[1..].iter().copied() {
            if hand.count(kind) == 0 {
                continue;
            }
            let area = attacks::movable_area(kind, us);
            let mut t = attacks::piece_attacks(kind, them, ek, pos.occ()) & empty & area;
            while t != 0 {
                let to = super::bitboard::lsb(t);
                t &= t - 1;
                let m = Move::Drop {
                    kind,
                    to: super::Square::from_index_unchecked(to),
                };
                if mates(pos, m) {
                    return Some(m);
                }
            }
        }
    }
    let list = pos.legal_moves();
    for &m in list.iter() {
        if m.is_drop() {
            continue;
        }
        // A move that lands far from the king can only mate by discovery or a slide.
        if pos.gives_check(m) && mates(pos, m) {
            return Some(m);
        }
    }
    None
}

/// Play `m` (legal), test that the defender has no legal move, undo.
#[inline]
fn mates(pos: &mut Position, m: Move) -> bool {
    let u = pos.play_unchecked(m);
    let mated = !pos.has_legal_move();
    pos.undo(m, u);
    mated
}

/// True if the side to move has no legal move (in shogi that side has lost).
pub fn is_mated(pos: &Position) -> bool {
    !pos.has_legal_move()
}
