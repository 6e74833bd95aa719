//! Mate in one: a legal move after which the opponent has no legal reply.
//!
//! Candidates are drops first (every hand kind but the pawn, a pawn-drop mate being
//! illegal), then board moves that give check; when the side to move is in check only
//! its legal evasions that give check are tried. A drop is rejected without playing it
//! when the king keeps a flight square that nothing attacks and the dropped piece does
//! not cover (a drop only adds a blocker, so it cannot create another attack). Every
//! other candidate is played on the working position and confirmed by the defender
//! having no legal move at all (its complete legal set, non-promotions included), then
//! undone.

use super::attacks::{self, KING};
use super::bitboard::{FULL, lsb};
use super::{Move, MoveList, PieceKind, Position, Square};

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
        for drops in [true, false] {
            for &m in list.iter() {
                if m.is_drop() != drops
                    || matches!(
                        m,
                        Move::Drop {
                            kind: PieceKind::Pawn,
                            ..
                        }
                    )
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
    let occ = pos.occ();
    let hand = pos.hands[us as usize];
    if !hand.is_empty() {
        // Flight squares of the enemy king that nothing of ours attacks now.
        let occ_wo_king = occ ^ (1u128 << ek);
        let mut free = 0u128;
        let mut esc = KING[ek] & !pos.by_color[them as usize];
        while esc != 0 {
            let e = lsb(esc);
            esc &= esc - 1;
            if !pos.is_attacked(us, e, occ_wo_king) {
                free |= 1u128 << e;
            }
        }
        let empty = !occ & FULL;
        for kind in PieceKind::HAND_KINDS[1..].iter().copied() {
            if hand.count(kind) == 0 {
                continue;
            }
            let area = attacks::movable_area(kind, us);
            let mut t = attacks::piece_attacks(kind, them, ek, occ) & empty & area;
            while t != 0 {
                let to = lsb(t);
                t &= t - 1;
                let tb = 1u128 << to;
                // The dropped piece's attacks are taken with the king lifted: a slider
                // checking along a line also covers the square behind the king.
                if free & !tb & !attacks::piece_attacks(kind, us, to, occ_wo_king | tb) != 0 {
                    continue;
                }
                let m = Move::Drop {
                    kind,
                    to: Square::from_index_unchecked(to),
                };
                if mates(pos, m) {
                    return Some(m);
                }
            }
        }
    }
    let mut list = MoveList::new();
    pos.generate_check_candidates(&mut list);
    list.iter()
        .copied()
        .find(|&m| pos.gives_check(m) && mates(pos, m))
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
