//! The staged move picker of the full-width search: a node's moves are generated only as
//! far as the search gets through them, and ordered by the search's statistics
//! ([`Histories`]).
//!
//! Not in check, the stages are: the table move (checked for legality, nothing
//! generated); the captures whose exchange does not lose material, by victim value and
//! capture history; the two killers and the counter move of the previous move (checked
//! for legality); the quiet moves, ordered by the main and continuation histories with a
//! bonus for checks that the exchange evaluation does not lose (skipped altogether once
//! the search asks for it: move-count pruning); last the losing captures. In check every
//! evasion is generated at once: the table move, captures by victim, the rest by history.
//!
//! The search never sees a move that is legal but useless: a pawn, bishop or rook that
//! could promote and does not ([`useless_non_promotion`]); every other legal move is
//! yielded exactly once (`tests/engine/engine_search.rs` checks this against the core's
//! legal moves).
use super::history::{ContinuationKeys, Histories, piece_to};
use super::ordering::{capture_value, see};
use crate::shogi::sets::{BISHOP, PAWN, Pieces, ROOK, captures, row_in_camp, row_of, sq_index};
use crate::shogi::{Move, MoveList, Position};

/// Ordering score of the table move.
pub const SCORE_TT: i32 = 1 << 30;
/// Ordering score base of a capture that does not lose material.
pub const SCORE_GOOD_CAPTURE: i32 = 1 << 28;
/// Ordering score of the first killer (the second is one lower, the counter move two).
pub const SCORE_KILLER: i32 = 1 << 26;
/// Ordering score of a quiet promotion (above the history scores).
pub const SCORE_PROMOTION: i32 = 1 << 24;
/// Ordering bonus of a quiet check the exchange evaluation does not lose.
pub const CHECK_BONUS: i32 = 8_000;
/// Ordering score base of a losing capture.
pub const SCORE_BAD_CAPTURE: i32 = -(1 << 28);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    TableMove,
    GenerateCaptures,
    GoodCaptures,
    Refutations,
    GenerateQuiets,
    Quiets,
    BadCaptures,
    GenerateEvasions,
    Evasions,
    Done,
}

/// The move lists of one picker, kept from node to node (per ply) so a node allocates
/// nothing.
#[derive(Debug, Default)]
pub struct PickerBuffers {
    /// Legal captures that do not lose material, with their scores.
    good: Vec<(Move, i32)>,
    /// Legal losing captures, with their scores.
    bad: Vec<(Move, i32)>,
    /// The quiet moves (or every evasion), with their scores.
    rest: Vec<(Move, i32)>,
}

impl PickerBuffers {
    /// Empty buffers with room for a position's moves.
    pub fn new() -> PickerBuffers {
        PickerBuffers {
            good: Vec::with_capacity(64),
            bad: Vec::with_capacity(64),
            rest: Vec::with_capacity(crate::shogi::MAX_MOVES),
        }
    }
}

/// What the picker knows of the node beyond the position.
#[derive(Debug, Clone, Copy, Default)]
pub struct PickerContext {
    /// The table's move, if any.
    pub tt_move: Option<Move>,
    /// The ply's killers.
    pub killers: [Option<Move>; 2],
    /// The counter move of the previous move.
    pub counter: Option<Move>,
    /// The previous moves the continuation histories follow.
    pub keys: ContinuationKeys,
}

/// A staged move picker for one node.
#[derive(Debug)]
pub struct MovePicker {
    stage: Stage,
    ctx: PickerContext,
    /// Refutations (killers, counter move) yielded by their stage (skipped later).
    refutations_played: [Option<Move>; 3],
    /// Index of the next move in the current stage's list.
    next: usize,
    /// Moves yielded so far.
    yielded: usize,
    /// The search no longer wants quiet moves (move-count pruning).
    skip_quiets: bool,
}

/// Whether `m` captures a piece.
#[inline]
pub fn is_capture(pos: &Position, m: Move) -> bool {
    matches!(m, Move::Normal { to, .. } if pos.piece_at(to).is_some())
}

/// Whether `m` is a pawn, bishop or rook move that could promote and does not: legal,
/// and never better than the promotion (the promoted piece moves wherever the plain one
/// does). The search skips these; perft and the legal move lists keep them.
#[inline]
pub fn useless_non_promotion(pos: &Position, m: Move) -> bool {
    match m {
        Move::Normal {
            from,
            to,
            promote: false,
        } => {
            let f = sq_index(from);
            let k = pos.kind_on(f);
            let c = pos.side_to_move().index();
            matches!(k, PAWN | BISHOP | ROOK)
                && (row_in_camp(c, row_of(f)) || row_in_camp(c, row_of(sq_index(to))))
        }
        _ => false,
    }
}

/// Ordering score of a capture by the victim's capture value and the capture history.
#[inline]
fn capture_order(pos: &Position, heur: &Histories, m: Move) -> i32 {
    let victim = pos.kind_on(sq_index(m.to()));
    8 * capture_value(victim) + heur.capture(piece_to(pos, m), victim) / 4
}

/// Index of the first best entry of `list[from..]` (ties keep the earlier one).
#[inline]
pub(crate) fn best_from(list: &[(Move, i32)], from: usize) -> usize {
    let mut bi = from;
    for j in from + 1..list.len() {
        if list[j].1 > list[bi].1 {
            bi = j;
        }
    }
    bi
}

impl MovePicker {
    /// A picker for `pos` with what the node knows.
    pub fn new(pos: &Position, ctx: PickerContext) -> MovePicker {
        let tt_move = ctx.tt_move.filter(|&m| !useless_non_promotion(pos, m));
        MovePicker {
            stage: if pos.is_in_check() {
                Stage::GenerateEvasions
            } else {
                Stage::TableMove
            },
            ctx: PickerContext { tt_move, ..ctx },
            refutations_played: [None; 3],
            next: 0,
            yielded: 0,
            skip_quiets: false,
        }
    }

    /// How many moves the picker has yielded.
    pub fn yielded(&self) -> usize {
        self.yielded
    }

    /// Yield no more quiet moves (killers, counter move and the quiet stage) when not in
    /// check; captures still come.
    pub fn skip_quiets(&mut self) {
        self.skip_quiets = true;
    }

    /// The next move and its ordering score, or `None` when every move was yielded (or
    /// skipped).
    pub fn next(
        &mut self,
        pos: &Position,
        heur: &Histories,
        buf: &mut PickerBuffers,
    ) -> Option<(Move, i32)> {
        let r = self.advance(pos, heur, buf);
        if r.is_some() {
            self.yielded += 1;
        }
        r
    }

    fn yielded_before(&self, m: Move) -> bool {
        Some(m) == self.ctx.tt_move || self.refutations_played.contains(&Some(m))
    }

    fn advance(
        &mut self,
        pos: &Position,
        heur: &Histories,
        buf: &mut PickerBuffers,
    ) -> Option<(Move, i32)> {
        loop {
            match self.stage {
                Stage::TableMove => {
                    self.stage = Stage::GenerateCaptures;
                    if let Some(m) = self.ctx.tt_move
                        && pos.is_legal(m)
                    {
                        return Some((m, SCORE_TT));
                    }
                    self.ctx.tt_move = None;
                }
                Stage::GenerateCaptures => {
                    buf.good.clear();
                    buf.bad.clear();
                    // The generators' list lives on the stack: kept in the buffers, it
                    // made every node copy it twice (the search moves a ply's buffers out
                    // and back).
                    let mut list = MoveList::new();
                    captures(pos, &mut list);
                    for &m in list.iter() {
                        if Some(m) == self.ctx.tt_move || !pos.is_legal(m) {
                            continue;
                        }
                        let order = capture_order(pos, heur, m);
                        let v = see(pos, m);
                        if v >= 0 {
                            buf.good.push((m, SCORE_GOOD_CAPTURE + order));
                        } else {
                            buf.bad.push((m, SCORE_BAD_CAPTURE + order + v));
                        }
                    }
                    self.next = 0;
                    self.stage = Stage::GoodCaptures;
                }
                Stage::GoodCaptures => {
                    if self.next < buf.good.len() {
                        let bi = best_from(&buf.good, self.next);
                        buf.good.swap(self.next, bi);
                        self.next += 1;
                        return Some(buf.good[self.next - 1]);
                    }
                    self.next = 0;
                    self.stage = Stage::Refutations;
                }
                Stage::Refutations => {
                    let candidates = [self.ctx.killers[0], self.ctx.killers[1], self.ctx.counter];
                    while self.next < 3 {
                        let i = self.next;
                        self.next += 1;
                        if self.skip_quiets {
                            continue;
                        }
                        if let Some(k) = candidates[i]
                            && !self.yielded_before(k)
                            && !is_capture(pos, k)
                            && !useless_non_promotion(pos, k)
                            && pos.is_legal(k)
                        {
                            self.refutations_played[i] = Some(k);
                            return Some((k, SCORE_KILLER - i as i32));
                        }
                    }
                    self.stage = Stage::GenerateQuiets;
                }
                Stage::GenerateQuiets => {
                    self.next = 0;
                    self.stage = Stage::Quiets;
                    buf.rest.clear();
                    if self.skip_quiets {
                        continue;
                    }
                    let mut list = MoveList::new();
                    pos.generate_legal(&mut list);
                    let us = pos.side_to_move();
                    let checks = pos.check_info();
                    for &m in list.iter() {
                        if is_capture(pos, m)
                            || self.yielded_before(m)
                            || useless_non_promotion(pos, m)
                        {
                            continue;
                        }
                        let s = if matches!(m, Move::Normal { promote: true, .. }) {
                            SCORE_PROMOTION
                        } else {
                            let pt = piece_to(pos, m);
                            let mut s = heur.quiet_score(us, m, pt, &self.ctx.keys);
                            if checks.gives_check(pos, m) && see(pos, m) >= 0 {
                                s += CHECK_BONUS;
                            }
                            s
                        };
                        buf.rest.push((m, s));
                    }
                }
                Stage::Quiets => {
                    if !self.skip_quiets && self.next < buf.rest.len() {
                        // The first few one at a time (a cutoff usually comes early),
                        // the rest sorted once.
                        if self.next < 3 {
                            let bi = best_from(&buf.rest, self.next);
                            buf.rest.swap(self.next, bi);
                        } else if self.next == 3 {
                            buf.rest[3..].sort_by_key(|e| std::cmp::Reverse(e.1));
                        }
                        self.next += 1;
                        return Some(buf.rest[self.next - 1]);
                    }
                    self.next = 0;
                    self.stage = Stage::BadCaptures;
                }
                Stage::BadCaptures => {
                    if self.next < buf.bad.len() {
                        let bi = best_from(&buf.bad, self.next);
                        buf.bad.swap(self.next, bi);
                        self.next += 1;
                        return Some(buf.bad[self.next - 1]);
                    }
                    self.stage = Stage::Done;
                }
                Stage::GenerateEvasions => {
                    buf.rest.clear();
                    let mut list = MoveList::new();
                    pos.generate_legal(&mut list);
                    let us = pos.side_to_move();
                    for &m in list.iter() {
                        if useless_non_promotion(pos, m) {
                            continue;
                        }
                        let s = if Some(m) == self.ctx.tt_move {
                            SCORE_TT
                        } else if is_capture(pos, m) {
                            SCORE_GOOD_CAPTURE + capture_order(pos, heur, m)
                        } else {
                            let pt = piece_to(pos, m);
                            heur.quiet_score(us, m, pt, &self.ctx.keys)
                        };
                        buf.rest.push((m, s));
                    }
                    self.next = 0;
                    self.stage = Stage::Evasions;
                }
                Stage::Evasions => {
                    if self.next < buf.rest.len() {
                        let bi = best_from(&buf.rest, self.next);
                        buf.rest.swap(self.next, bi);
                        self.next += 1;
                        return Some(buf.rest[self.next - 1]);
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }
}

/// Every move a fresh picker yields for `pos` (a table move and killers as given), with
/// empty statistics: for tests and tools.
pub fn all_picked(pos: &Position, tt_move: Option<Move>, killers: [Option<Move>; 2]) -> Vec<Move> {
    let heur = Histories::new(1);
    let mut buf = PickerBuffers::new();
    let ctx = PickerContext {
        tt_move,
        killers,
        counter: killers[1].or(tt_move),
        keys: [None; 3],
    };
    let mut p = MovePicker::new(pos, ctx);
    let mut out = Vec::new();
    while let Some((m, _)) = p.next(pos, &heur, &mut buf) {
        out.push(m);
    }
    out
}

/// The legal moves of `pos` the search considers: every legal move but the useless
/// non-promotions ([`useless_non_promotion`]).
pub fn search_moves(pos: &Position) -> Vec<Move> {
    pos.legal_moves()
        .iter()
        .copied()
        .filter(|&m| !useless_non_promotion(pos, m))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn useless_non_promotions_are_those_of_pawns_bishops_and_rooks() {
        // Black: a pawn on 5d steps into the camp, a lance on 9d, a bishop on 9i reaching
        // the camp, a rook inside it on 2b, a silver on 3d.
        let p = Position::from_sfen("4k4/7R1/9/L3P1S2/9/9/9/9/B3K4 b - 1").unwrap();
        let legal: Vec<Move> = p.legal_moves().iter().copied().collect();
        let searched = search_moves(&p);
        let m = |s: &str| Move::from_usi(s).unwrap();
        for (usi, useless) in [
            ("5d5c", true),
            ("5d5c+", false),
            ("9a9c", false),
            ("9i5e", false),
            ("9i3c", true),
            ("9i3c+", false),
            ("2b2a", true),
            ("2b2a+", false),
            ("2b2h", true),
            ("9d9c", false),
            ("3d3c", false),
            ("3d2c", false),
        ] {
            let mv = m(usi);
            if usi == "9a9c" {
                assert!(!legal.contains(&mv));
                continue;
            }
            assert!(legal.contains(&mv), "{usi} is legal");
            assert_eq!(useless_non_promotion(&p, mv), useless, "{usi}");
            assert_eq!(searched.contains(&mv), !useless, "{usi}");
        }
        assert_eq!(
            legal.len() - searched.len(),
            legal
                .iter()
                .filter(|&&x| useless_non_promotion(&p, x))
                .count()
        );
    }
}
