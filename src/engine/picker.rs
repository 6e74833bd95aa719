//! The staged move picker of the full-width search: a node's moves are generated only as
//! far as the search gets through them.
//!
//! Not in check, the stages are: the table move (checked for legality, nothing
//! generated); the captures that do not lose material by the exchange evaluation (taken
//! at pick time), by victim and then exchange value; the two killers (checked for
//! legality); the other moves, generated once and ordered with quiet promotions first
//! and the rest by history (read when the stage is reached); last the losing captures.
//! In check every evasion is generated at once and ordered as before (the table move,
//! captures by exchange value, the rest).
//!
//! Each legal move is yielded exactly once (`tests/engine/engine_search.rs` checks this against
//! the core's legal moves).
use super::eval;
use super::ordering::{Heuristics, history_index, see};
use crate::shogi::sets::{Pieces, captures};
use crate::shogi::{Move, MoveList, Position};

/// Ordering score of the table move.
pub const SCORE_TT: i32 = 1 << 30;
/// Ordering score base of a capture that does not lose material.
pub const SCORE_GOOD_CAPTURE: i32 = 1 << 28;
/// Ordering score of a quiet promotion.
pub const SCORE_PROMOTION: i32 = 1 << 27;
/// Ordering score of the first killer (the second is one lower).
pub const SCORE_KILLER: i32 = (1 << 26) + 1;
/// Ordering score base of a losing capture.
pub const SCORE_BAD_CAPTURE: i32 = -(1 << 20);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    TableMove,
    GenerateCaptures,
    GoodCaptures,
    Killers,
    GenerateRest,
    Rest,
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
    /// The other moves (or every evasion), with their scores.
    rest: Vec<(Move, i32)>,
    /// Scratch list for the generators.
    list: MoveList,
}

impl PickerBuffers {
    /// Empty buffers with room for a position's moves.
    pub fn new() -> PickerBuffers {
        PickerBuffers {
            good: Vec::with_capacity(64),
            bad: Vec::with_capacity(64),
            rest: Vec::with_capacity(crate::shogi::MAX_MOVES),
            list: MoveList::new(),
        }
    }
}

/// A staged move picker for one node.
#[derive(Debug)]
pub struct MovePicker {
    stage: Stage,
    tt_move: Option<Move>,
    killers: [Option<Move>; 2],
    /// Killers yielded by the killer stage (skipped later).
    killers_played: [Option<Move>; 2],
    /// Index of the next move in the current stage's list.
    next: usize,
    /// Moves yielded so far.
    yielded: usize,
    /// The continuation-history row of the previous move ([`Heuristics::continuation_row`]).
    continuation: Option<usize>,
}

/// Whether `m` captures a piece.
#[inline]
pub fn is_capture(pos: &Position, m: Move) -> bool {
    matches!(m, Move::Normal { to, .. } if pos.piece_at(to).is_some())
}

/// Ordering score of a capture: by victim, then exchange value, at or above
/// [`SCORE_GOOD_CAPTURE`] when the exchange does not lose material, else below every
/// quiet move.
#[inline]
fn capture_score(pos: &Position, m: Move) -> i32 {
    let v = see(pos, m);
    if v >= 0 {
        let victim = eval::piece_value(pos.kind_on(m.to().index()));
        SCORE_GOOD_CAPTURE + victim * 8 + v / 16
    } else {
        SCORE_BAD_CAPTURE + v
    }
}

/// Index of the first best entry of `list[from..]` (ties keep the earlier one).
#[inline]
fn best_from(list: &[(Move, i32)], from: usize) -> usize {
    let mut bi = from;
    for j in from + 1..list.len() {
        if list[j].1 > list[bi].1 {
            bi = j;
        }
    }
    bi
}

impl MovePicker {
    /// A picker for `pos` with the table's move and the ply's killers.
    pub fn new(pos: &Position, tt_move: Option<Move>, killers: [Option<Move>; 2]) -> MovePicker {
        MovePicker {
            stage: if pos.is_in_check() {
                Stage::GenerateEvasions
            } else {
                Stage::TableMove
            },
            tt_move,
            killers,
            killers_played: [None; 2],
            next: 0,
            yielded: 0,
            continuation: None,
        }
    }

    /// Order the quiet moves by the continuation history's `row` too (added to the
    /// history score).
    pub fn with_continuation(mut self, row: Option<usize>) -> MovePicker {
        self.continuation = row;
        self
    }

    /// How many moves the picker has yielded.
    pub fn yielded(&self) -> usize {
        self.yielded
    }

    /// The next move and its ordering score, or `None` when every legal move was yielded.
    /// `heur` gives the killers' and the quiet moves' history (read when the quiet stage
    /// is reached).
    pub fn next(
        &mut self,
        pos: &Position,
        heur: &Heuristics,
        buf: &mut PickerBuffers,
    ) -> Option<(Move, i32)> {
        let r = self.advance(pos, heur, buf);
        if r.is_some() {
            self.yielded += 1;
        }
        r
    }

    fn advance(
        &mut self,
        pos: &Position,
        heur: &Heuristics,
        buf: &mut PickerBuffers,
    ) -> Option<(Move, i32)> {
        loop {
            match self.stage {
                Stage::TableMove => {
                    self.stage = Stage::GenerateCaptures;
                    if let Some(m) = self.tt_move
                        && pos.is_legal(m)
                    {
                        return Some((m, SCORE_TT));
                    }
                    self.tt_move = None;
                }
                Stage::GenerateCaptures => {
                    buf.good.clear();
                    buf.bad.clear();
                    buf.list.clear();
                    captures(pos, &mut buf.list);
                    for &m in buf.list.iter() {
                        if Some(m) == self.tt_move || !pos.is_legal(m) {
                            continue;
                        }
                        let s = capture_score(pos, m);
                        if s >= SCORE_GOOD_CAPTURE {
                            buf.good.push((m, s));
                        } else {
                            buf.bad.push((m, s));
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
                    self.stage = Stage::Killers;
                }
                Stage::Killers => {
                    while self.next < 2 {
                        let i = self.next;
                        self.next += 1;
                        if let Some(k) = self.killers[i]
                            && Some(k) != self.tt_move
                            && (i == 0 || self.killers[0] != Some(k))
                            && !is_capture(pos, k)
                            && pos.is_legal(k)
                        {
                            self.killers_played[i] = Some(k);
                            return Some((k, SCORE_KILLER - i as i32));
                        }
                    }
                    self.stage = Stage::GenerateRest;
                }
                Stage::GenerateRest => {
                    buf.rest.clear();
                    buf.list.clear();
                    pos.generate_legal(&mut buf.list);
                    let us = pos.side_to_move();
                    let history = heur.history_table(us);
                    for &m in buf.list.iter() {
                        if Some(m) == self.tt_move
                            || Some(m) == self.killers_played[0]
                            || Some(m) == self.killers_played[1]
                        {
                            continue;
                        }
                        let s = if is_capture(pos, m) {
                            // The captures stage took the captures of its generator;
                            // the other forms (an optional non-promotion) come here.
                            if buf.good.iter().chain(buf.bad.iter()).any(|e| e.0 == m) {
                                continue;
                            }
                            see(pos, m) + SCORE_BAD_CAPTURE / 2
                        } else if matches!(m, Move::Normal { promote: true, .. }) {
                            SCORE_PROMOTION
                        } else {
                            let (kind, to) = history_index(pos, m);
                            history[kind * 81 + to] as i32
                                + heur.continuation(self.continuation, (kind, to))
                        };
                        buf.rest.push((m, s));
                    }
                    self.next = 0;
                    self.stage = Stage::Rest;
                }
                Stage::Rest => {
                    if self.next < buf.rest.len() {
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
                    buf.list.clear();
                    pos.generate_legal(&mut buf.list);
                    let us = pos.side_to_move();
                    for &m in buf.list.iter() {
                        let s = if Some(m) == self.tt_move {
                            SCORE_TT
                        } else if is_capture(pos, m) {
                            capture_score(pos, m)
                        } else if matches!(m, Move::Normal { promote: true, .. }) {
                            SCORE_PROMOTION
                        } else if self.killers[0] == Some(m) {
                            SCORE_KILLER
                        } else if self.killers[1] == Some(m) {
                            SCORE_KILLER - 1
                        } else {
                            let idx = history_index(pos, m);
                            heur.history(us, idx) + heur.continuation(self.continuation, idx)
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
/// empty history: for tests and tools.
pub fn all_picked(pos: &Position, tt_move: Option<Move>, killers: [Option<Move>; 2]) -> Vec<Move> {
    let heur = Heuristics::new(1);
    let mut buf = PickerBuffers::new();
    let mut p = MovePicker::new(pos, tt_move, killers);
    let mut out = Vec::new();
    while let Some((m, _)) = p.next(pos, &heur, &mut buf) {
        out.push(m);
    }
    out
}
