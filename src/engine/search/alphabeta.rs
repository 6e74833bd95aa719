//! The interior nodes of the search: principal-variation alpha-beta with its cuts (the
//! rules' verdicts, mate-distance pruning, the table, mate in one, threat tests, reverse
//! futility, the null move, futility and move-count pruning, late-move reductions) and
//! the quiescence search over captures.

use super::rules::PathEntry;
use super::searcher::Searcher;
use super::{Control, MATE, MATE_BOUND, MAX_PLY, Mode, can_declare_draw, can_declare_win};
use crate::engine::ordering::{history_index, see};
use crate::engine::picker::{MovePicker, PickerBuffers, SCORE_KILLER, is_capture};
use crate::engine::tt::{Bound, pack_move, unpack_move};
use crate::shogi::sets::{captures, pawn_promotions};
use crate::shogi::{Move, MoveList, Position, solve_mate_in_one_in_place};

/// A score no search returns: the static evaluation was not needed.
const NO_SCORE: i32 = i32::MIN / 2;

/// Captures the 24-point mode's quiescence search tries before it stands on the
/// evaluation (not in check): its evaluation already counts hanging pieces and capture
/// threats, and a longer capture sequence took most of its nodes and kept the search at
/// depth 1-2 within 5,000 nodes.
const DECL24_QUIESCENCE_PLIES: u32 = 1;

/// Reverse futility in the full search: a non-PV node at depth <= this, not in check,
/// whose static evaluation exceeds beta by [`REVERSE_FUTILITY_MARGIN`] per ply of depth,
/// returns at once.
const REVERSE_FUTILITY_DEPTH: i32 = 3;
/// Nodes at depth <= this test whether the opponent threatens mate in one.
const THREAT_DEPTH: i32 = 2;
const REVERSE_FUTILITY_MARGIN: i32 = 120;
/// Futility in the full search: at depth <= this, a quiet move is not searched when the
/// static evaluation plus `FUTILITY_BASE + FUTILITY_MARGIN * depth` stays at or below
/// alpha.
const FUTILITY_DEPTH: i32 = 2;
const FUTILITY_BASE: i32 = 100;
const FUTILITY_MARGIN: i32 = 120;

/// How many moves a shallow node of the full search tries before it prunes late quiet
/// ones: 10 at depth 1, 22 at depth 2, 42 at depth 3 (shogi positions have 80-200 moves).
const fn late_move_limit(depth: i32) -> usize {
    (6 + 4 * depth * depth) as usize
}

/// The move lists of one ply, kept from node to node so a node allocates nothing.
#[derive(Debug, Default)]
pub(super) struct PlyScratch {
    /// The move picker's lists.
    picker: PickerBuffers,
    /// Moves with their ordering scores (quiescence).
    scored: Vec<(Move, i32)>,
    /// History slots of the quiet moves tried so far.
    quiets: Vec<(usize, usize)>,
}

impl PlyScratch {
    /// Lists with room for a position's moves.
    pub(super) fn new() -> PlyScratch {
        PlyScratch {
            picker: PickerBuffers::new(),
            scored: Vec::with_capacity(crate::shogi::MAX_MOVES),
            quiets: Vec::with_capacity(crate::shogi::MAX_MOVES),
        }
    }
}

/// What the start of a node decided ([`Searcher::enter_node`]).
enum Entry {
    /// The node's score is known without searching it.
    Score(i32),
    /// No depth left: quiescence search with this alpha.
    Quiesce(i32),
    /// Search the moves.
    Search(Node),
}

/// The state of a node of the full-width search while its moves are searched.
#[derive(Debug, Clone, Copy)]
struct Node {
    /// Depth left, the check extension included.
    depth: i32,
    /// The window's lower bound, raised by the draw floor and by every better move.
    alpha: i32,
    beta: i32,
    /// Alpha as the node was entered (before the draw floor): the bound stored is
    /// relative to it.
    original_alpha: i32,
    /// The least the node is worth (0 when the side to move may declare a draw).
    floor: i32,
    ply: usize,
    pv_node: bool,
    in_check: bool,
    /// The opponent threatens mate in one (found by a pass at shallow depth or by a
    /// null move that failed low to a mate): nothing is pruned or reduced.
    threatened: bool,
    key: u64,
    /// The static evaluation the table holds for the position (0: none).
    tt_eval: i32,
    tt_move: Option<Move>,
}

fn mate_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn mate_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

impl Searcher {
    /// Whether the opponent would mate in one if the side to move (not in check) passed.
    #[inline]
    pub(super) fn threatened(pos: &mut Position) -> bool {
        let undo = pos.do_null_move();
        let threat = solve_mate_in_one_in_place(pos).is_some();
        pos.undo_null_move(undo);
        threat
    }

    #[allow(clippy::too_many_arguments)] // the classical negamax signature
    pub(super) fn negamax(
        &mut self,
        pos: &mut Position,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        null_ok: bool,
        control: &Control,
    ) -> i32 {
        self.pv[ply].clear();
        if self.check_abort(control) {
            return 0;
        }
        let mut node = match self.enter_node(pos, depth, alpha, beta, ply) {
            Entry::Score(s) => return s,
            Entry::Quiesce(alpha) => return self.qsearch(pos, alpha, beta, ply, 0, control),
            Entry::Search(node) => node,
        };
        // The static cuts come before any move is generated.
        let static_eval = match self.prune_before_moves(pos, &mut node, null_ok, control) {
            Ok(e) => e,
            Err(s) => return s,
        };
        let mut scratch = std::mem::take(&mut self.scratch[ply]);
        let found = self.search_moves(pos, &mut node, &mut scratch, static_eval, control);
        self.scratch[ply] = scratch;
        let Some((best, best_move)) = found else {
            return 0;
        };
        self.store_node(&node, best, best_move, static_eval);
        best
    }

    /// The start of a node of [`Self::negamax`]: the rules' verdicts, mate-distance
    /// pruning, the draw floor, the check extension, the step into quiescence and the
    /// table's cutoff. Counts the node when it is searched here.
    fn enter_node(
        &mut self,
        pos: &Position,
        mut depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> Entry {
        let pv_node = beta - alpha > 1;
        let in_check = pos.is_in_check();
        if ply > 0 {
            if let Some(s) = self.path.verdict(pos, ply, in_check, &self.config) {
                return Entry::Score(s);
            }
            // Mate distance pruning.
            let a = alpha.max(-MATE + ply as i32);
            let b = beta.min(MATE - ply as i32 - 1);
            if a >= b {
                return Entry::Score(a);
            }
        }
        if ply >= MAX_PLY - 2 {
            return Entry::Score(self.evaluate(pos));
        }
        // A side that may declare a draw is worth at least the draw.
        let original_alpha = alpha;
        let mut floor = -MATE - 1;
        if ply > 0 && !in_check && can_declare_draw(pos, self.config.rule) {
            if beta <= 0 {
                return Entry::Score(0);
            }
            floor = 0;
            alpha = alpha.max(0);
        }
        if in_check && (ply as i32) < 2 * self.root_depth {
            depth += 1;
        }
        if depth <= 0 {
            return Entry::Quiesce(alpha);
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        let key = pos.key();
        let hit = self.tt.probe(key);
        let tt_move = hit.and_then(|h| unpack_move(h.mv));
        if let Some(h) = hit
            && !pv_node
            && ply > 0
            && h.depth >= depth
        {
            let s = mate_from_tt(h.score, ply);
            let usable = match h.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
                Bound::None => false,
            };
            if usable {
                return Entry::Score(s);
            }
        }
        Entry::Search(Node {
            depth,
            alpha,
            beta,
            original_alpha,
            floor,
            ply,
            pv_node,
            in_check,
            threatened: false,
            key,
            tt_eval: hit.map_or(0, |h| h.eval),
            tt_move,
        })
    }

    /// The cuts tried before any move is searched: mate in one and the null move.
    /// `Err(score)` ends the node; `Ok(static evaluation)` (or [`NO_SCORE`] when it was
    /// not needed) goes on to the moves.
    fn prune_before_moves(
        &mut self,
        pos: &mut Position,
        node: &mut Node,
        null_ok: bool,
        control: &Control,
    ) -> Result<i32, i32> {
        let Node {
            depth,
            beta,
            ply,
            pv_node,
            in_check,
            key,
            ..
        } = *node;
        let null_candidate = !pv_node
            && null_ok
            && !in_check
            && depth >= 3
            && self.config.mode == Mode::Search
            && beta.abs() < MATE_BOUND;
        // In the full search a node this close to the leaves whose static evaluation is
        // far above beta is cut at once (reverse futility).
        let futile_candidate = !pv_node
            && !in_check
            && depth <= REVERSE_FUTILITY_DEPTH
            && self.config.mode == Mode::Search
            && beta.abs() < MATE_BOUND;
        // The static evaluation is needed for the null move and the shallow prunings
        // (here and in the move loop).
        let static_eval = if !null_candidate && !futile_candidate {
            NO_SCORE
        } else if node.tt_eval != 0 {
            node.tt_eval
        } else {
            self.evaluate(pos)
        };
        // Mate in one where it pays: at inner nodes with some depth left, and everywhere
        // in the 24-point mode (its guard against losing the king).
        if !in_check
            && ply > 0
            && (depth >= 2 || self.config.mode == Mode::Decl24)
            && let Some(m) = solve_mate_in_one_in_place(pos)
        {
            let s = MATE - ply as i32 - 1;
            self.tt.store(
                key,
                pack_move(m),
                mate_to_tt(s, ply),
                static_eval,
                depth,
                Bound::Exact,
            );
            self.pv[ply].clear();
            self.pv[ply].push(m);
            return Err(s);
        }
        // Near the leaves: does the opponent threaten mate in one? Then every defence is
        // searched (no cut below, no pruning or reduction in the move loop).
        if self.config.threats.enabled
            && !in_check
            && depth <= THREAT_DEPTH
            && ply > 0
            && Self::threatened(pos)
        {
            node.threatened = true;
            return Ok(static_eval);
        }
        let margin = REVERSE_FUTILITY_MARGIN * depth;
        if futile_candidate && static_eval - margin >= beta {
            return Err(static_eval - margin);
        }
        // Null move, played in place.
        if null_candidate && static_eval >= beta {
            let r = 3 + depth / 6;
            let undo = pos.do_null_move();
            self.path.push(PathEntry {
                key: pos.key(),
                in_check: false,
                null: true,
                moved: None,
            });
            let s = -self.negamax(
                pos,
                depth - 1 - r,
                -beta,
                -beta + 1,
                ply + 1,
                false,
                control,
            );
            self.path.pop();
            pos.undo_null_move(undo);
            if self.aborted {
                return Err(0);
            }
            if s >= beta {
                return Err(if s >= MATE_BOUND { beta } else { s });
            }
            if self.config.threats.enabled && s <= -MATE_BOUND {
                node.threatened = true;
            }
        }
        Ok(static_eval)
    }

    /// The move loop of [`Self::negamax`] over the ordered moves: selection, late-move
    /// reductions, the principal-variation re-searches, killers and history on a cutoff.
    /// `None` when the search was aborted, else the best score and move.
    fn search_moves(
        &mut self,
        pos: &mut Position,
        node: &mut Node,
        scratch: &mut PlyScratch,
        static_eval: i32,
        control: &Control,
    ) -> Option<(i32, Option<Move>)> {
        let Node {
            depth,
            beta,
            ply,
            pv_node,
            in_check,
            ..
        } = *node;
        let us = pos.side_to_move();
        let PlyScratch {
            picker: buffers,
            quiets: quiets_tried,
            ..
        } = scratch;
        quiets_tried.clear();
        let row = self.heur.continuation_row(us, self.path.last_moved());
        let mut picker =
            MovePicker::new(pos, node.tt_move, self.heur.killers[ply]).with_continuation(row);

        let mut best = node.floor;
        let mut best_move = None;
        let threatened = node.threatened;
        let shallow = self.config.mode == Mode::Search
            && !pv_node
            && !in_check
            && !threatened
            && depth <= self.config.tweaks.late_move_depth;
        while let Some((m, order)) = picker.next(pos, &self.heur, buffers) {
            let n = picker.yielded() - 1;
            let capture = is_capture(pos, m);
            let quiet = !capture && !matches!(m, Move::Normal { promote: true, .. });
            // Shallow pruning in the full search, once a move has kept the side from
            // being mated: late quiet moves (move-count pruning) and quiet moves that
            // cannot lift a static evaluation far below alpha to it (futility), unless
            // they check. The table move, killers and history leaders are never pruned.
            if shallow
                && quiet
                && best > -MATE_BOUND
                && order < SCORE_KILLER - 1
                && (n >= late_move_limit(depth)
                    || (depth <= FUTILITY_DEPTH
                        && static_eval != NO_SCORE
                        && static_eval + FUTILITY_BASE + FUTILITY_MARGIN * depth <= node.alpha))
                && !pos.gives_check(m)
            {
                continue;
            }
            // Late-move reduction for quiet moves that do not check.
            let mut reduction = 0;
            let lmr_candidate = depth >= 3
                && n >= 3
                && quiet
                && !in_check
                && !threatened
                && order < SCORE_KILLER - 1;
            if lmr_candidate && !pos.gives_check(m) {
                reduction = self.lmr[(depth as usize).min(63)][n.min(63)] as i32;
                if pv_node {
                    reduction -= 1;
                }
                reduction = reduction.clamp(0, depth - 2);
            }
            let alpha = node.alpha;
            let undo = self.play(pos, m);
            if depth > 1 || pos.is_in_check() {
                // The child probes the table (a child at depth 0 goes to quiescence).
                self.tt.prefetch(pos.key());
            }
            let mut s;
            if n == 0 {
                s = -self.negamax(pos, depth - 1, -beta, -alpha, ply + 1, true, control);
            } else {
                s = -self.negamax(
                    pos,
                    depth - 1 - reduction,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    true,
                    control,
                );
                if s > alpha && reduction > 0 {
                    s = -self.negamax(pos, depth - 1, -alpha - 1, -alpha, ply + 1, true, control);
                }
                if s > alpha && s < beta {
                    s = -self.negamax(pos, depth - 1, -beta, -alpha, ply + 1, true, control);
                }
            }
            self.path.pop();
            pos.undo(m, undo);
            if self.aborted {
                return None;
            }
            if s > best {
                best = s;
                if s > alpha {
                    best_move = Some(m);
                    node.alpha = s;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(m);
                    head[ply].extend_from_slice(&tail[0]);
                    if s >= beta {
                        if quiet {
                            self.heur.add_killer(ply, m);
                            self.heur
                                .reward(us, history_index(&*pos, m), quiets_tried, depth, row);
                        }
                        break;
                    }
                }
            }
            if quiet {
                quiets_tried.push(history_index(&*pos, m));
            }
        }
        if picker.yielded() == 0 {
            // No legal move: the side to move has lost (checkmate, or no move at all).
            return Some((-MATE + ply as i32, None));
        }
        Some((best, best_move))
    }

    /// Store the node's result in the table, with its bound against the window it was
    /// searched with.
    fn store_node(&mut self, node: &Node, best: i32, best_move: Option<Move>, static_eval: i32) {
        let bound = if best >= node.beta {
            Bound::Lower
        } else if best > node.original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let stored_eval = if static_eval == NO_SCORE {
            0
        } else {
            static_eval
        };
        self.tt.store(
            node.key,
            best_move.map(pack_move).unwrap_or(0),
            mate_to_tt(best, node.ply),
            stored_eval,
            node.depth,
            bound,
        );
    }

    pub(super) fn qsearch(
        &mut self,
        pos: &mut Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qply: u32,
        control: &Control,
    ) -> i32 {
        self.pv[ply].clear();
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.check_abort(control) {
            return 0;
        }
        let in_check = pos.is_in_check();
        if qply > 0 && !in_check && can_declare_win(pos, self.config.rule) {
            return MATE - ply as i32;
        }
        if ply >= MAX_PLY - 2 {
            return self.evaluate(pos);
        }
        if self.config.quiescence_tt
            && beta - alpha == 1
            && let Some(h) = self.tt.probe(pos.key())
        {
            let s = mate_from_tt(h.score, ply);
            let usable = match h.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
                Bound::None => false,
            };
            if usable {
                return s;
            }
        }
        let mut scratch = std::mem::take(&mut self.scratch[ply]);
        let scored = &mut scratch.scored;
        scored.clear();
        let best_start = if in_check {
            // Every evasion; none means mate.
            let moves = pos.legal_moves();
            if moves.is_empty() {
                self.scratch[ply] = scratch;
                return -MATE + ply as i32;
            }
            if qply >= 6 {
                self.scratch[ply] = scratch;
                return self.evaluate(pos);
            }
            for &m in moves.iter() {
                let s = if is_capture(pos, m) {
                    see(&*pos, m) + 10_000
                } else {
                    0
                };
                scored.push((m, s));
            }
            -MATE + ply as i32
        } else {
            let threats = self.config.threats;
            let test = threats.enabled && qply < threats.quiescence_plies;
            // The side to move's own mate in one beats any stand pat.
            if test && let Some(m) = solve_mate_in_one_in_place(pos) {
                self.scratch[ply] = scratch;
                self.pv[ply].push(m);
                return MATE - ply as i32 - 1;
            }
            let mut stand = self.evaluate(pos);
            // A side that would be mated in one if it passed cannot stand pat at its
            // evaluation.
            if test && stand > alpha && Self::threatened(pos) {
                stand -= threats.penalty;
            }
            if stand >= beta {
                self.scratch[ply] = scratch;
                return stand;
            }
            if self.config.mode == Mode::Decl24 && qply >= DECL24_QUIESCENCE_PLIES {
                self.scratch[ply] = scratch;
                return stand;
            }
            alpha = alpha.max(stand);
            let mut caps = MoveList::new();
            captures(&*pos, &mut caps);
            for &m in caps.iter() {
                let v = see(&*pos, m);
                if v >= 0 && pos.is_legal(m) {
                    scored.push((m, v));
                }
            }
            if self.config.tweaks.quiescence_promotions && self.config.mode == Mode::Search {
                caps.clear();
                pawn_promotions(&*pos, &mut caps);
                for &m in caps.iter() {
                    let v = see(&*pos, m);
                    if v >= 0 && pos.is_legal(m) {
                        scored.push((m, v));
                    }
                }
            }
            stand
        };
        let mut best = best_start;
        for n in 0..scored.len() {
            let mut bi = n;
            for j in n + 1..scored.len() {
                if scored[j].1 > scored[bi].1 {
                    bi = j;
                }
            }
            scored.swap(n, bi);
            let m = scored[n].0;
            let undo = self.play(pos, m);
            let s = -self.qsearch(pos, -beta, -alpha, ply + 1, qply + 1, control);
            self.path.pop();
            pos.undo(m, undo);
            if self.aborted {
                self.scratch[ply] = scratch;
                return 0;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(m);
                    head[ply].extend_from_slice(&tail[0]);
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        self.scratch[ply] = scratch;
        best
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Config, Threats};
    use super::*;
    use crate::engine::time::Limits;

    /// White to move mates by G*1h; quiescence tries only captures, so only the mate test
    /// before the stand pat finds it; the test runs on the first quiescence ply only by
    /// default.
    #[test]
    fn quiescence_finds_the_side_to_moves_mate_in_one() {
        let p = Position::from_sfen("1k7/9/9/9/R3r4/7n1/9/9/8K w g 1").unwrap();
        let q = |threats: Threats, qply: u32| {
            let mut s = Searcher::new(
                1,
                Config {
                    threats,
                    ..Config::default()
                },
            );
            let mut p = p.clone();
            s.start_search(&p.clone(), &[], &Limits::depth(1));
            s.qsearch(&mut p, -MATE, MATE, 0, qply, &Control::new(false))
        };
        let on = Threats::default();
        assert_eq!(q(on, 0), MATE - 1);
        assert!(q(on, 1) < MATE_BOUND, "only the first quiescence ply tests");
        let off = Threats {
            enabled: false,
            ..on
        };
        assert!(q(off, 0) < MATE_BOUND);
        // The pass test itself: Black to move in the same position is threatened.
        let mut b = Position::from_sfen("1k7/9/9/9/R3r4/7n1/9/9/8K b g 1").unwrap();
        assert!(Searcher::threatened(&mut b));
        assert_eq!(b.to_sfen(), "1k7/9/9/9/R3r4/7n1/9/9/8K b g 1");
    }

    #[test]
    fn mate_scores_are_stored_relative_to_the_node() {
        let s = MATE - 7;
        assert_eq!(mate_from_tt(mate_to_tt(s, 4), 4), s);
        assert_eq!(mate_from_tt(mate_to_tt(s, 4), 2), s + 2);
        assert_eq!(mate_to_tt(123, 9), 123);
    }
}
