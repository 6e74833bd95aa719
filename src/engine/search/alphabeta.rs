//! The interior nodes of the search: principal-variation alpha-beta, selective in the
//! modern way, and the quiescence search.
//!
//! A node, in order: the rules' verdicts (repetition, perpetual check, move limit,
//! declarations), mate-distance pruning, the table's cutoff; not in check, the side to
//! move's mate in one (from the attack tables; not repeated on a table hit), the static
//! evaluation (corrected by the table's bound) and whether it improves on the one two
//! plies earlier; the opponent's mate threat near the leaves (nothing is pruned then);
//! razoring, reverse futility, the null move (at cut nodes, reduced by depth and by the
//! margin over beta, verified at high depth), ProbCut and internal iterative reduction.
//! The move loop: move-count pruning growing with depth squared, futility by the reduced
//! depth, history pruning, exchange (SEE) pruning of captures, checks and quiet moves;
//! the singular extension of the table move (with its multi-cut); late-move reductions at
//! every depth >= 2 for every move after the first, adjusted by cut node, improving,
//! principal variation and the move's statistics; the histories updated on every cutoff.
//! No blanket check extension: with drops, checks go on and on (an extension for checks
//! the exchange does not lose is an option, off).
//!
//! Each pruning has a switch ([`super::Prunings`]); the 24-point mode keeps the plain
//! search it was tuned with (late-move reductions of late quiet moves only).

use super::rules::PathEntry;
use super::searcher::Searcher;
use super::stack::{FRAME_OFFSET, Frame, NO_SCORE, PlyScratch};
use super::{Control, MATE, MATE_BOUND, MAX_PLY, Mode, can_declare_draw, can_declare_win};
use crate::engine::history::{ContinuationKeys, piece_to, stat_bonus};
use crate::engine::ordering::{capture_value, see};
use crate::engine::picker::{
    MovePicker, PickerContext, SCORE_KILLER, best_from, is_capture, useless_non_promotion,
};
use crate::engine::tt::{Bound, pack_move, unpack_move};
use crate::shogi::sets::{Pieces, captures, pawn_promotions, sq_index};
use crate::shogi::{Move, MoveList, Position, solve_mate_in_one_in_place};

/// Captures the 24-point mode's quiescence search tries before it stands on the
/// evaluation (not in check): its evaluation already counts hanging pieces and capture
/// threats, and a longer capture sequence took most of its nodes and kept the search at
/// depth 1-2 within 5,000 nodes.
const DECL24_QUIESCENCE_PLIES: u32 = 1;

/// Nodes at depth <= this test whether the opponent threatens mate in one.
const THREAT_DEPTH: i32 = 2;

/// Attack nodes of one threat test beyond mate in one.
const THREAT_MATE_BUDGET: u64 = 300;

/// Razoring: at depth <= this, a node whose evaluation is far below alpha asks the
/// quiescence search whether anything lifts it.
const RAZOR_DEPTH: i32 = 3;
const fn razor_margin(depth: i32) -> i32 {
    300 + 250 * depth * depth
}

/// Reverse futility: a non-PV node at depth <= this whose evaluation exceeds beta by the
/// margin returns it.
const REVERSE_FUTILITY_DEPTH: i32 = 8;
const fn reverse_futility_margin(depth: i32, improving: bool) -> i32 {
    110 * (depth - improving as i32)
}

/// ProbCut: from this depth, a capture whose quiescence and reduced search beat beta by
/// [`PROBCUT_MARGIN`] cuts the node.
const PROBCUT_DEPTH: i32 = 5;
const PROBCUT_MARGIN: i32 = 200;

/// Singular extension of the table move from this depth.
const SINGULAR_DEPTH: i32 = 8;

/// Null-move searches from this depth are verified by a reduced search without it.
const NULL_VERIFY_DEPTH: i32 = 14;

/// Quiet moves searched at a node before move-count pruning skips the rest.
const fn move_count_limit(depth: i32, improving: bool, percent: u32) -> usize {
    ((3 + depth * depth) / (2 - improving as i32)) as usize * percent as usize / 100
}

/// Futility of a quiet move at a (reduced) depth: the evaluation plus this margin must
/// reach alpha.
const fn futility_margin(lmr_depth: i32) -> i32 {
    120 + 110 * lmr_depth
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
    /// Depth left.
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
    cut_node: bool,
    in_check: bool,
    /// The opponent threatens mate in one (found by a pass at shallow depth or by a
    /// null move that failed low to a mate): nothing is pruned.
    threatened: bool,
    improving: bool,
    /// The static evaluation before the correction history's correction (what the
    /// table keeps); [`NO_SCORE`] in check.
    raw_eval: i32,
    key: u64,
    /// What the table held: move, score (relative to this node), depth, bound, static
    /// evaluation.
    tt_hit: bool,
    tt_move: Option<Move>,
    tt_score: i32,
    tt_depth: i32,
    tt_bound: Bound,
    tt_eval: i32,
    /// The move a singular-extension search leaves out.
    excluded: Option<Move>,
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

/// Fold a child's score `s` for move `m` into a quiescence node's best score, alpha and
/// best move: `true` on a cutoff.
#[inline]
fn fold_score(
    s: i32,
    m: Move,
    beta: i32,
    best: &mut i32,
    alpha: &mut i32,
    best_move: &mut Option<Move>,
) -> bool {
    if s > *best {
        *best = s;
        if s > *alpha {
            *alpha = s;
            *best_move = Some(m);
            return s >= beta;
        }
    }
    false
}

/// Whether a stored score with `bound` decides a window `(alpha, beta)`.
#[inline]
fn bound_cuts(bound: Bound, s: i32, alpha: i32, beta: i32) -> bool {
    match bound {
        Bound::Exact => true,
        Bound::Lower => s >= beta,
        Bound::Upper => s <= alpha,
        Bound::None => false,
    }
}

impl Searcher {
    /// The threat test of this search: [`Searcher::threatened`], and in the 24-point mode
    /// with [`super::Threats::plies24`] above 1 a mate by checks of that length after the
    /// pass (its attack nodes counted as nodes).
    fn threat(&mut self, pos: &mut Position) -> bool {
        if Self::threatened(pos) {
            return true;
        }
        let plies = self.config.threats.plies24;
        if self.config.mode != Mode::Decl24 || plies < 3 {
            return false;
        }
        let undo = pos.do_null_move();
        self.threat_mates.restart(THREAT_MATE_BUDGET);
        let threat = self.threat_mates.mate(pos, plies).is_some();
        self.nodes += self.threat_mates.nodes();
        pos.undo_null_move(undo);
        threat
    }

    /// Whether the opponent would mate in one if the side to move (not in check) passed.
    #[inline]
    pub(super) fn threatened(pos: &mut Position) -> bool {
        let undo = pos.do_null_move();
        let threat = solve_mate_in_one_in_place(pos).is_some();
        pos.undo_null_move(undo);
        threat
    }

    /// The frame of `ply`.
    #[inline]
    pub(super) fn frame(&mut self, ply: usize) -> &mut Frame {
        &mut self.stack[ply + FRAME_OFFSET]
    }

    /// Record the move played from `ply` (its piece-to index; `None` for none).
    #[inline]
    fn set_moved(&mut self, ply: usize, moved: Option<u16>) {
        let f = self.frame(ply);
        f.moved = moved;
        f.null = false;
    }

    /// The previous moves the continuation histories at `ply` follow.
    #[inline]
    pub(super) fn continuation_keys(&self, ply: usize) -> ContinuationKeys {
        let i = ply + FRAME_OFFSET;
        [
            self.stack[i - 1].moved,
            self.stack[i - 2].moved,
            self.stack[i - 4].moved,
        ]
    }

    /// Whether the move loop and the prunings before it are selective: always in the
    /// full search, and in the 24-point one with `Selective24`.
    fn selective(&self) -> bool {
        self.config.mode == Mode::Search || self.config.tweaks.selective24
    }

    /// The late-move reduction of the `n`-th move (from 1) at `depth`.
    #[inline]
    pub(super) fn reduction(&self, depth: i32, n: usize) -> i32 {
        self.lmr[(depth.max(0) as usize).min(63)][n.min(63)] as i32
    }

    #[allow(clippy::too_many_arguments)] // the classical negamax signature
    pub(super) fn negamax(
        &mut self,
        pos: &mut Position,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        cut_node: bool,
        control: &Control,
    ) -> i32 {
        self.pv[ply].clear();
        if self.check_abort(control) {
            return 0;
        }
        let mut node = match self.enter_node(pos, depth, alpha, beta, ply, cut_node) {
            Entry::Score(s) => return s,
            Entry::Quiesce(alpha) => return self.qsearch(pos, alpha, beta, ply, 0, control),
            Entry::Search(node) => node,
        };
        // The static cuts come before any move is generated.
        let static_eval = match self.prune_before_moves(pos, &mut node, control) {
            Ok(e) => e,
            Err(s) => return s,
        };
        let mut scratch = std::mem::take(&mut self.scratch[ply]);
        let found = self.search_moves(pos, &mut node, &mut scratch, static_eval, control);
        self.scratch[ply] = scratch;
        let Some((best, best_move)) = found else {
            return 0;
        };
        if node.excluded.is_none() {
            self.update_correction(pos, &node, best, best_move, static_eval);
            self.store_node(&node, best, best_move, node.raw_eval);
        }
        best
    }

    /// The correction history's correction of the static evaluation of `pos` (0 when
    /// it is off).
    #[inline]
    fn correction(&self, pos: &Position) -> i32 {
        if self.config.prunings.correction && self.config.mode == Mode::Search {
            self.heur
                .correction(pos.side_to_move(), crate::engine::history::pawn_key(pos))
        } else {
            0
        }
    }

    /// Teach the correction history what the search of a node found beyond its static
    /// evaluation: not in check, not where the best move captures or promotes (the
    /// static evaluation does not see those), not for mate scores, and only where the
    /// bound says which way the evaluation was wrong.
    fn update_correction(
        &mut self,
        pos: &Position,
        node: &Node,
        best: i32,
        best_move: Option<Move>,
        static_eval: i32,
    ) {
        if !self.config.prunings.correction
            || self.config.mode != Mode::Search
            || static_eval == NO_SCORE
            || best.abs() >= MATE_BOUND
            || best_move.is_some_and(|m| {
                crate::engine::picker::is_capture(pos, m)
                    || matches!(m, Move::Normal { promote: true, .. })
            })
        {
            return;
        }
        let lower = best >= node.beta;
        let upper = best <= node.original_alpha;
        if let Some(diff) = correction_sample(best, static_eval, node.raw_eval, lower, upper) {
            self.heur.update_correction(
                pos.side_to_move(),
                crate::engine::history::pawn_key(pos),
                diff,
                node.depth,
            );
        }
    }

    /// The start of a node of [`Self::negamax`]: the rules' verdicts, mate-distance
    /// pruning, the draw floor, the step into quiescence and the table's cutoff. Counts
    /// the node when it is searched here.
    fn enter_node(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        cut_node: bool,
    ) -> Entry {
        let pv_node = beta - alpha > 1;
        let in_check = pos.is_in_check();
        let excluded = self.frame(ply).excluded;
        if ply > 0 && excluded.is_none() {
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
        // The 24-point mode keeps the check extension it was tuned with.
        let mut depth = depth;
        if self.config.mode == Mode::Decl24
            && self.config.tweaks.check_extension24
            && in_check
            && (ply as i32) < 2 * self.root_depth
        {
            depth += 1;
        }
        if depth <= 0 {
            return Entry::Quiesce(alpha);
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        let key = pos.key();
        let hit = if excluded.is_none() {
            self.tt.probe(key)
        } else {
            None
        };
        let tt_move = hit
            .and_then(|h| unpack_move(h.mv))
            .filter(|&m| !useless_non_promotion(pos, m));
        let tt_score = hit.map_or(NO_SCORE, |h| mate_from_tt(h.score, ply));
        if let Some(h) = hit
            && !pv_node
            && ply > 0
            && h.depth >= depth
            && bound_cuts(h.bound, tt_score, alpha, beta)
        {
            // A quiet table move that holds beta earns its statistics.
            if let Some(m) = tt_move
                && tt_score >= beta
                && !is_capture(pos, m)
                && pos.is_legal(m)
            {
                let keys = self.continuation_keys(ply);
                let us = pos.side_to_move();
                let pt = piece_to(pos, m);
                self.heur.update_quiet(us, m, pt, &keys, stat_bonus(depth));
            }
            return Entry::Score(tt_score);
        }
        Entry::Search(Node {
            depth,
            alpha,
            beta,
            original_alpha,
            floor,
            ply,
            pv_node,
            cut_node,
            in_check,
            threatened: false,
            improving: false,
            raw_eval: NO_SCORE,
            key,
            tt_hit: hit.is_some(),
            tt_move,
            tt_score,
            tt_depth: hit.map_or(-100, |h| h.depth),
            tt_bound: hit.map_or(Bound::None, |h| h.bound),
            tt_eval: hit.map_or(0, |h| h.eval),
            excluded,
        })
    }

    /// The cuts tried before any move is searched. `Err(score)` ends the node;
    /// `Ok(static evaluation)` ([`NO_SCORE`] in check) goes on to the moves.
    fn prune_before_moves(
        &mut self,
        pos: &mut Position,
        node: &mut Node,
        control: &Control,
    ) -> Result<i32, i32> {
        let ply = node.ply;
        if node.in_check {
            self.frame(ply).static_eval = NO_SCORE;
            return Ok(NO_SCORE);
        }
        let full = self.config.mode == Mode::Search;
        // The side to move's mate in one: at inner nodes with some depth left (everywhere
        // in the 24-point mode: its guard against losing the king); not again where the
        // table holds a search of the node to depth 2 or more (which tested it or searched
        // every move).
        if ply > 0
            && node.tt_depth < 2
            && node.excluded.is_none()
            && (node.depth >= 2 || !full)
            && let Some(m) = solve_mate_in_one_in_place(pos)
        {
            let s = MATE - ply as i32 - 1;
            self.tt.store(
                node.key,
                pack_move(m),
                mate_to_tt(s, ply),
                0,
                node.depth,
                Bound::Exact,
            );
            self.pv[ply].clear();
            self.pv[ply].push(m);
            return Err(s);
        }
        let raw = if node.tt_eval != 0 {
            node.tt_eval
        } else {
            self.evaluate(pos)
        };
        node.raw_eval = raw;
        let raw = raw + self.correction(pos);
        self.frame(ply).static_eval = raw;
        // The table's score bounds the evaluation better where its bound points the
        // right way.
        let mut eval = raw;
        if node.tt_hit && node.tt_score.abs() < MATE_BOUND {
            let better = match node.tt_bound {
                Bound::Lower => node.tt_score > eval,
                Bound::Upper => node.tt_score < eval,
                Bound::Exact => true,
                Bound::None => false,
            };
            if better {
                eval = node.tt_score;
            }
        }
        let i = ply + FRAME_OFFSET;
        let earlier = if self.stack[i - 2].static_eval != NO_SCORE {
            self.stack[i - 2].static_eval
        } else {
            self.stack[i - 4].static_eval
        };
        node.improving = earlier != NO_SCORE && raw > earlier;
        // Near the leaves: does the opponent threaten mate in one? Then every defence is
        // searched (no cut below, no pruning in the move loop).
        if self.threats_on && node.depth <= THREAT_DEPTH && ply > 0 && self.threat(pos) {
            node.threatened = true;
            return Ok(raw);
        }
        let selective = self.selective();
        if !selective || node.pv_node || ply == 0 || node.excluded.is_some() {
            return Ok(raw);
        }
        let p = self.config.prunings;
        let (depth, alpha, beta) = (node.depth, node.alpha, node.beta);
        let decisive = beta.abs() >= MATE_BOUND || alpha.abs() >= MATE_BOUND;
        // Razoring: far below alpha near the leaves, only captures can help.
        if p.razoring && depth <= RAZOR_DEPTH && !decisive && eval + razor_margin(depth) < alpha {
            let v = self.qsearch(pos, alpha - 1, alpha, ply, 0, control);
            if self.aborted {
                return Err(0);
            }
            if v < alpha {
                return Err(v);
            }
        }
        // Reverse futility: far above beta, the node stands.
        if p.reverse_futility
            && depth <= REVERSE_FUTILITY_DEPTH
            && !decisive
            && eval
                - reverse_futility_margin(depth, node.improving)
                    * self.config.tweaks.reverse_futility_percent as i32
                    / 100
                >= beta
        {
            return Err(beta + (eval - beta) / 3);
        }
        // The null move, at cut nodes above beta, played in place.
        if p.null_move
            && node.cut_node
            && depth >= 2
            && !decisive
            && eval >= beta
            && raw >= beta - 20 * depth
            && !self.stack[i - 1].null
            && ply >= self.null_min_ply
        {
            let r = (3 + depth / 3 + ((eval - beta) / 200).min(3)).min(depth);
            let undo = pos.do_null_move();
            self.path.push(PathEntry {
                key: pos.key(),
                in_check: false,
                null: true,
            });
            {
                let f = self.frame(ply);
                f.moved = None;
                f.null = true;
            }
            let s = -self.negamax(pos, depth - r, -beta, -beta + 1, ply + 1, false, control);
            self.frame(ply).null = false;
            self.path.pop();
            pos.undo_null_move(undo);
            if self.aborted {
                return Err(0);
            }
            if s >= beta && s < MATE_BOUND {
                if self.null_min_ply > 0 || depth < NULL_VERIFY_DEPTH {
                    return Err(s);
                }
                // Verified at high depth by a reduced search with no null move below
                // the plies it covers.
                self.null_min_ply = ply + (3 * (depth - r) / 4) as usize;
                let v = self.negamax(pos, depth - r, beta - 1, beta, ply, false, control);
                self.null_min_ply = 0;
                if self.aborted {
                    return Err(0);
                }
                if v >= beta {
                    return Err(s);
                }
            }
            if self.threats_on && s <= -MATE_BOUND {
                node.threatened = true;
                return Ok(raw);
            }
        }
        // ProbCut: a good capture whose reduced search beats beta by a margin.
        if p.probcut
            && depth >= PROBCUT_DEPTH
            && !decisive
            && !(node.tt_hit && node.tt_depth >= depth - 3 && node.tt_score < beta + PROBCUT_MARGIN)
            && let Some(s) = self.probcut(pos, node, raw, control)
        {
            return Err(s);
        }
        // Internal iterative reduction: no table move to start with, search shallower.
        if p.iir && node.tt_move.is_none() && depth >= 4 && node.cut_node {
            node.depth -= 1;
        }
        Ok(raw)
    }

    /// ProbCut's captures: `Some(score)` when one holds `beta + PROBCUT_MARGIN` in a
    /// search four plies shallower.
    fn probcut(
        &mut self,
        pos: &mut Position,
        node: &Node,
        static_eval: i32,
        control: &Control,
    ) -> Option<i32> {
        let ply = node.ply;
        let pb = node.beta + PROBCUT_MARGIN;
        let mut scratch = std::mem::take(&mut self.scratch[ply]);
        let list = &mut scratch.scored;
        list.clear();
        let mut caps = MoveList::new();
        captures(&*pos, &mut caps);
        for &m in caps.iter() {
            let s = see(&*pos, m);
            if s >= pb - static_eval && pos.is_legal(m) {
                list.push((m, s));
            }
        }
        list.sort_by_key(|e| std::cmp::Reverse(e.1));
        let mut result = None;
        for &(m, _) in list.iter() {
            let pt = piece_to(pos, m);
            let undo = self.play(pos, m);
            self.set_moved(ply, Some(pt));
            let mut v = -self.qsearch(pos, -pb, -pb + 1, ply + 1, 0, control);
            if v >= pb && !self.aborted {
                v = -self.negamax(
                    pos,
                    node.depth - 4,
                    -pb,
                    -pb + 1,
                    ply + 1,
                    !node.cut_node,
                    control,
                );
            }
            self.unplay(pos, m, undo);
            if self.aborted {
                break;
            }
            if v >= pb {
                self.tt.store(
                    node.key,
                    pack_move(m),
                    mate_to_tt(v, ply),
                    node.raw_eval,
                    node.depth - 3,
                    Bound::Lower,
                );
                result = Some(v - PROBCUT_MARGIN);
                break;
            }
        }
        self.scratch[ply] = scratch;
        if self.aborted { Some(0) } else { result }
    }

    /// The move loop of [`Self::negamax`] over the ordered moves. `None` when the search
    /// was aborted, else the best score and move.
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
            cut_node,
            in_check,
            improving,
            threatened,
            excluded,
            ..
        } = *node;
        let us = pos.side_to_move();
        let selective = self.selective();
        let p = self.config.prunings;
        let PlyScratch {
            picker: buffers,
            quiets: quiets_tried,
            captures: captures_tried,
            ..
        } = scratch;
        quiets_tried.clear();
        captures_tried.clear();
        let keys = self.continuation_keys(ply);
        let ctx = PickerContext {
            tt_move: node.tt_move,
            killers: self.heur.killers[ply],
            counter: self.heur.counter(us, keys[0]),
            keys,
        };
        let tt_capture = node.tt_move.is_some_and(|m| is_capture(pos, m));
        let mut picker = MovePicker::new(pos, ctx);

        let mut best = node.floor;
        let mut best_move = None;
        let mut move_count = 0usize;
        let prune = selective && ply > 0 && !in_check && !threatened;
        // The full search's move-count limit is scaled for shogi's move lists; the
        // 24-point mode keeps the chess engines' rule it was measured with.
        let mcp_percent = if self.config.mode == Mode::Search {
            self.config.tweaks.move_count_percent
        } else {
            100
        };
        let futility_percent = self.config.tweaks.futility_percent as i32;
        // Computed when the first move is looked at: a node without moves pays nothing.
        let mut checks: Option<crate::shogi::CheckInfo> = None;
        while let Some((m, order)) = picker.next(pos, &self.heur, buffers) {
            if Some(m) == excluded {
                continue;
            }
            move_count += 1;
            let capture = is_capture(pos, m);
            let promotion = matches!(m, Move::Normal { promote: true, .. });
            let quiet = !capture && !promotion;
            let gives_check = checks
                .get_or_insert_with(|| pos.check_info())
                .gives_check(pos, m);
            let pt = piece_to(pos, m);
            let victim = if capture {
                pos.kind_on(sq_index(m.to()))
            } else {
                0
            };
            let stat = if capture {
                self.heur.capture(pt, victim)
            } else {
                self.heur.main(us, m)
                    + self.heur.continuation_at(&keys, 0, pt)
                    + self.heur.continuation_at(&keys, 1, pt)
            };
            let mut new_depth = depth - 1;
            // Shallow pruning, once a move has kept the side from being mated.
            if prune && best > -MATE_BOUND {
                if p.move_count
                    && quiet
                    && move_count >= move_count_limit(depth, improving, mcp_percent)
                {
                    picker.skip_quiets();
                    continue;
                }
                let lmr_depth = new_depth - self.reduction(depth, move_count);
                if !quiet || gives_check {
                    if p.futility
                        && capture
                        && !gives_check
                        && lmr_depth < 7
                        && static_eval + 250 + 200 * lmr_depth + capture_value(victim) <= node.alpha
                    {
                        continue;
                    }
                    if p.see && see(&*pos, m) < -180 * depth {
                        continue;
                    }
                } else {
                    if p.history && lmr_depth < 4 && stat < -3_500 * depth {
                        continue;
                    }
                    let lmr_depth = (lmr_depth + stat / 7_000).max(0);
                    if p.futility
                        && lmr_depth < 10
                        && static_eval + futility_margin(lmr_depth) * futility_percent / 100
                            <= node.alpha
                    {
                        continue;
                    }
                    if p.see && see(&*pos, m) < -25 * lmr_depth * lmr_depth {
                        continue;
                    }
                }
            }
            // Extensions: the singular table move; checks that do not lose (an option).
            let mut extension = 0;
            if selective
                && p.singular
                && ply > 0
                && Some(m) == node.tt_move
                && excluded.is_none()
                && depth >= SINGULAR_DEPTH
                && matches!(node.tt_bound, Bound::Lower | Bound::Exact)
                && node.tt_depth >= depth - 3
                && node.tt_score.abs() < MATE_BOUND
            {
                let singular_beta = node.tt_score - 2 * depth;
                self.frame(ply).excluded = Some(m);
                let v = self.negamax(
                    pos,
                    (depth - 1) / 2,
                    singular_beta - 1,
                    singular_beta,
                    ply,
                    cut_node,
                    control,
                );
                self.frame(ply).excluded = None;
                if self.aborted {
                    return None;
                }
                if v < singular_beta {
                    extension = 1;
                } else if singular_beta >= beta {
                    // Multi-cut: more than one move holds beta.
                    return Some((singular_beta, None));
                } else if node.tt_score >= beta {
                    extension = -1;
                }
            } else if p.check_extension && gives_check && see(&*pos, m) >= 0 {
                extension = 1;
            }
            new_depth += extension;
            let alpha = node.alpha;
            let undo = self.play(pos, m);
            self.set_moved(ply, Some(pt));
            if new_depth > 1 || pos.is_in_check() {
                self.tt.prefetch(pos.key());
            }
            let mut s;
            let full_zero_window;
            let reduce = if selective {
                p.lmr && depth >= 2 && move_count > 1
            } else {
                depth >= 3 && move_count > 3 && quiet && !in_check && !threatened && !gives_check
            };
            if reduce {
                let mut r = self.reduction(depth, move_count);
                if selective {
                    if cut_node {
                        r += 2;
                    }
                    if pv_node {
                        r -= 1;
                    }
                    if !improving {
                        r += 1;
                    }
                    if in_check || threatened {
                        r -= 1;
                    }
                    if gives_check {
                        r -= 1;
                    }
                    if quiet {
                        if tt_capture {
                            r += 1;
                        }
                        if order >= SCORE_KILLER - 2 {
                            r -= 1;
                        }
                        r -= stat / 8_000;
                    } else {
                        r -= 1;
                    }
                } else if pv_node {
                    r -= 1;
                }
                let d = (new_depth - r).clamp(1, new_depth.max(1));
                s = -self.negamax(pos, d, -alpha - 1, -alpha, ply + 1, true, control);
                // A reduced move that beats alpha is searched again at full depth.
                full_zero_window = s > alpha && d < new_depth;
            } else {
                s = alpha + 1;
                full_zero_window = !pv_node || move_count > 1;
            }
            if full_zero_window {
                s = -self.negamax(
                    pos,
                    new_depth,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    !cut_node,
                    control,
                );
            }
            if pv_node && (move_count == 1 || (s > alpha && s < beta)) {
                s = -self.negamax(pos, new_depth, -beta, -alpha, ply + 1, false, control);
            }
            self.unplay(pos, m, undo);
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
                        let bonus = stat_bonus(depth + (s > beta + 100) as i32);
                        if capture {
                            self.heur.update_capture(pt, victim, bonus);
                        } else {
                            self.heur.update_quiet(us, m, pt, &keys, bonus);
                            self.heur.add_refutation(ply, us, keys[0], m);
                            for &(q, qpt) in quiets_tried.iter() {
                                self.heur.update_quiet(us, q, qpt, &keys, -bonus);
                            }
                        }
                        for &(cpt, v) in captures_tried.iter() {
                            self.heur.update_capture(cpt, v, -bonus);
                        }
                        break;
                    }
                }
            }
            if capture {
                captures_tried.push((pt, victim));
            } else {
                quiets_tried.push((m, pt));
            }
        }
        if move_count == 0 {
            // No legal move: the side to move has lost (checkmate, or no move at all);
            // in a singular search, only the excluded move.
            return Some((
                if excluded.is_some() {
                    node.alpha
                } else {
                    -MATE + ply as i32
                },
                None,
            ));
        }
        Some((best, best_move))
    }

    /// Store the node's result in the table, with its bound against the window it was
    /// searched with.
    fn store_node(&mut self, node: &Node, best: i32, best_move: Option<Move>, static_eval: i32) {
        let bound = if best >= node.beta {
            Bound::Lower
        } else if best > node.original_alpha && node.pv_node {
            Bound::Exact
        } else if best > node.original_alpha {
            Bound::Lower
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

    /// The quiescence search: captures that the exchange does not lose (with delta
    /// pruning), every evasion in check at any depth, the side to move's mate in one
    /// before it stands pat, the table probed and stored.
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
        // Checks and evasions may repeat (perpetual check).
        if in_check
            && qply > 0
            && let Some(s) = self.path.verdict(pos, ply, in_check, &self.config)
        {
            return s;
        }
        let pv_node = beta - alpha > 1;
        let original_alpha = alpha;
        let key = pos.key();
        let probe = self.config.quiescence_tt || self.config.mode == Mode::Search;
        let hit = if probe { self.tt.probe(key) } else { None };
        let tt_score = hit.map_or(NO_SCORE, |h| mate_from_tt(h.score, ply));
        if let Some(h) = hit
            && !pv_node
            && bound_cuts(h.bound, tt_score, alpha, beta)
        {
            return tt_score;
        }
        let tt_move = hit
            .and_then(|h| unpack_move(h.mv))
            .filter(|&m| !useless_non_promotion(pos, m));
        let mut raw = 0;
        let mut best;
        let mut futility_base = NO_SCORE;
        if in_check {
            best = -MATE + ply as i32;
            self.frame(ply).static_eval = NO_SCORE;
        } else {
            let threats = self.config.threats;
            let full = self.config.mode == Mode::Search;
            raw = match hit {
                Some(h) if h.eval != 0 => h.eval,
                _ => self.evaluate(pos),
            };
            let corrected = raw + self.correction(pos);
            self.frame(ply).static_eval = corrected;
            let mut stand = corrected;
            if let Some(h) = hit
                && tt_score.abs() < MATE_BOUND
                && match h.bound {
                    Bound::Lower => tt_score > stand,
                    Bound::Upper => tt_score < stand,
                    Bound::Exact => true,
                    Bound::None => false,
                }
            {
                stand = tt_score;
            }
            // A side that would be mated in one if it passed cannot stand pat at its
            // evaluation.
            if self.threats_on
                && qply < threats.quiescence_plies
                && stand > alpha
                && self.threat(pos)
            {
                stand -= threats.penalty;
            }
            if stand >= beta {
                if probe && hit.is_none() {
                    self.tt
                        .store(key, 0, mate_to_tt(stand, ply), raw, -1, Bound::Lower);
                }
                return stand;
            }
            // The side to move's own mate in one beats any stand pat (tested only where
            // the stand pat does not already hold beta).
            if ((full && qply < self.config.tweaks.quiescence_mate_plies)
                || (self.threats_on && qply < threats.quiescence_plies))
                && hit.is_none_or(|h| h.depth < 2)
                && let Some(m) = solve_mate_in_one_in_place(pos)
            {
                self.pv[ply].push(m);
                let s = MATE - ply as i32 - 1;
                if probe {
                    self.tt
                        .store(key, pack_move(m), mate_to_tt(s, ply), 0, 0, Bound::Exact);
                }
                return s;
            }
            // The 24-point mode may look further for its own mate by checks, at the
            // first quiescence ply.
            let plies24 = self.config.tweaks.quiescence_mate_plies24;
            if self.config.mode == Mode::Decl24
                && qply == 0
                && plies24 >= 3
                && hit.is_none_or(|h| h.depth < 2)
            {
                self.threat_mates.restart(THREAT_MATE_BUDGET);
                let found = self.threat_mates.mate(pos, plies24);
                self.nodes += self.threat_mates.nodes();
                if let Some(m) = found {
                    self.pv[ply].push(m);
                    // A mate within `plies24`: scored at that length, the longest.
                    let s = MATE - ply as i32 - plies24 as i32;
                    if probe {
                        self.tt
                            .store(key, pack_move(m), mate_to_tt(s, ply), 0, 0, Bound::Exact);
                    }
                    return s;
                }
            }
            if self.config.mode == Mode::Decl24 && qply >= DECL24_QUIESCENCE_PLIES {
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
            if full {
                futility_base = stand + 200;
            }
        }
        let mut scratch = std::mem::take(&mut self.scratch[ply]);
        let mut best_move = None;
        // The moves to try, with their order: every evasion in check (in the full
        // search's order), else the legal captures by victim and capture history.
        scratch.scored.clear();
        if in_check {
            let keys = self.continuation_keys(ply);
            let ctx = PickerContext {
                tt_move,
                killers: [None; 2],
                counter: None,
                keys,
            };
            let mut picker = MovePicker::new(pos, ctx);
            let mut order = 0;
            while let Some((m, _)) = picker.next(pos, &self.heur, &mut scratch.picker) {
                order -= 1;
                scratch.scored.push((m, order));
            }
        } else {
            let mut caps = MoveList::new();
            captures(&*pos, &mut caps);
            if self.config.tweaks.quiescence_promotions && self.config.mode == Mode::Search {
                pawn_promotions(&*pos, &mut caps);
            }
            for &m in caps.iter() {
                if !pos.is_legal(m) {
                    continue;
                }
                let victim = pos.kind_on(sq_index(m.to()));
                let order = if Some(m) == tt_move {
                    1 << 24
                } else {
                    8 * capture_value(victim) + self.heur.capture(piece_to(pos, m), victim) / 4
                };
                scratch.scored.push((m, order));
            }
        }
        let mut n = 0;
        while n < scratch.scored.len() {
            let bi = best_from(&scratch.scored, n);
            scratch.scored.swap(n, bi);
            let m = scratch.scored[n].0;
            n += 1;
            let capture = is_capture(pos, m);
            if in_check {
                // Once out of mate, quiet evasions after the second are not tried.
                if best > -MATE_BOUND && !capture && n > 2 {
                    continue;
                }
            } else {
                // Exchange pruning: never a capture that loses material.
                if see(&*pos, m) < 0 {
                    continue;
                }
                // Delta pruning: even the victim cannot lift the evaluation to alpha.
                if futility_base != NO_SCORE && !pos.gives_check(m) {
                    let victim = if capture {
                        pos.kind_on(sq_index(m.to()))
                    } else {
                        crate::shogi::sets::PAWN
                    };
                    let futility = futility_base + capture_value(victim);
                    if futility <= alpha {
                        best = best.max(futility);
                        continue;
                    }
                }
            }
            let Some(s) = self.qsearch_child(pos, m, alpha, beta, ply, qply, control) else {
                self.scratch[ply] = scratch;
                return 0;
            };
            if fold_score(s, m, beta, &mut best, &mut alpha, &mut best_move) {
                break;
            }
        }
        self.scratch[ply] = scratch;
        if probe {
            let bound = if best >= beta {
                Bound::Lower
            } else if pv_node && best > original_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.tt.store(
                key,
                best_move.map(pack_move).unwrap_or(0),
                mate_to_tt(best, ply),
                raw,
                if in_check { 0 } else { -1 },
                bound,
            );
        }
        best
    }

    /// Play `m` in quiescence, search the child and take the move back; the principal
    /// variation is extended when the child's score raises alpha. `None` when the search
    /// was aborted.
    #[allow(clippy::too_many_arguments)]
    fn qsearch_child(
        &mut self,
        pos: &mut Position,
        m: Move,
        alpha: i32,
        beta: i32,
        ply: usize,
        qply: u32,
        control: &Control,
    ) -> Option<i32> {
        let pt = piece_to(pos, m);
        let undo = self.play(pos, m);
        self.set_moved(ply, Some(pt));
        let s = -self.qsearch(pos, -beta, -alpha, ply + 1, qply + 1, control);
        self.unplay(pos, m, undo);
        if self.aborted {
            return None;
        }
        if s > alpha {
            let (head, tail) = self.pv.split_at_mut(ply + 1);
            head[ply].clear();
            head[ply].push(m);
            head[ply].extend_from_slice(&tail[0]);
        }
        Some(s)
    }
}

/// What a node's search of score `best` teaches the correction history: the score less
/// the evaluation before correction (`raw_eval`), so that an entry settles at the whole
/// bias it measures (less the corrected `static_eval`, it would settle at half); `None`
/// where the bound does not say which way the corrected evaluation was wrong (a fail
/// high, `lower`, at or below it; a fail low, `upper`, at or above it).
fn correction_sample(
    best: i32,
    static_eval: i32,
    raw_eval: i32,
    lower: bool,
    upper: bool,
) -> Option<i32> {
    if (lower && best <= static_eval) || (upper && best >= static_eval) {
        None
    } else {
        Some(best - raw_eval)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Config, Threats};
    use super::*;
    use crate::engine::time::Limits;

    /// Searches that keep finding 100 centipawns more than the evaluation before
    /// correction bring the correction to 100, not to half of it; a bound that does not
    /// say which way the evaluation was wrong teaches nothing.
    #[test]
    fn the_correction_settles_at_the_whole_bias() {
        let p = Position::startpos();
        let key = crate::engine::history::pawn_key(&p);
        let mut h = crate::engine::history::Histories::new(4);
        let raw = 40;
        for _ in 0..400 {
            let corrected = raw + h.correction(crate::shogi::Color::Black, key);
            let diff = correction_sample(raw + 100, corrected, raw, false, false).unwrap();
            h.update_correction(crate::shogi::Color::Black, key, diff, 12);
        }
        let c = h.correction(crate::shogi::Color::Black, key);
        assert!((97..=100).contains(&c), "settled at {c}");
        assert_eq!(
            correction_sample(50, 60, 40, true, false),
            None,
            "fail high below"
        );
        assert_eq!(
            correction_sample(70, 60, 40, false, true),
            None,
            "fail low above"
        );
        assert_eq!(correction_sample(70, 60, 40, true, false), Some(30));
        assert_eq!(correction_sample(50, 60, 40, false, true), Some(10));
    }

    /// White to move mates by G*1h; quiescence tries only captures, so only the mate test
    /// before the stand pat finds it. In the full search it runs at every quiescence
    /// node; in the 24-point mode on the first quiescence ply only (with threats on).
    #[test]
    fn quiescence_finds_the_side_to_moves_mate_in_one() {
        let p = Position::from_sfen("1k7/9/9/9/R3r4/7n1/9/9/8K w g 1").unwrap();
        let q = |mode: Mode, threats: Threats, qply: u32| {
            let mut s = Searcher::new(
                1,
                Config {
                    threats,
                    mode,
                    ..Config::default()
                },
            );
            let mut p = p.clone();
            s.start_search(&p.clone(), &[], &Limits::depth(1));
            s.qsearch(&mut p, -MATE, MATE, 0, qply, &Control::new(false))
        };
        let on = Threats {
            enabled: true,
            decl24: true,
            ..Threats::default()
        };
        let off = Threats {
            enabled: false,
            decl24: false,
            ..on
        };
        assert_eq!(q(Mode::Search, on, 0), MATE - 1);
        assert_eq!(q(Mode::Search, on, 3), MATE - 1, "at every quiescence node");
        assert_eq!(q(Mode::Search, off, 3), MATE - 1);
        assert_eq!(q(Mode::Decl24, on, 0), MATE - 1);
        assert!(
            q(Mode::Decl24, on, 1) < MATE_BOUND,
            "24-point: first ply only"
        );
        assert!(q(Mode::Decl24, off, 0) < MATE_BOUND);
        // The pass test itself: Black to move in the same position is threatened.
        let mut b = Position::from_sfen("1k7/9/9/9/R3r4/7n1/9/9/8K b g 1").unwrap();
        assert!(Searcher::threatened(&mut b));
        assert_eq!(b.to_sfen(), "1k7/9/9/9/R3r4/7n1/9/9/8K b g 1");
    }

    /// The first `aiiru_bench` position whose side to move (not in check) mates in 3 by
    /// checks but not in 1.
    fn mate_in_three_not_one() -> Option<Position> {
        include_str!("../../../fixtures/positions/aiiru_bench.tsv")
            .lines()
            .filter(|l| !l.starts_with('#'))
            .filter_map(|l| Position::from_sfen(l.split('\t').next()?).ok())
            .filter(|p| !p.is_in_check() && solve_mate_in_one_in_place(&mut p.clone()).is_none())
            .find(|p| {
                crate::engine::mate::MateSearch::new(100_000)
                    .mate(&mut p.clone(), 3)
                    .is_some()
            })
    }

    /// `QuiescenceMatePlies24`: the 24-point mode's first quiescence ply finds the side
    /// to move's mate in 3 by checks with the option at 3, not at 1 (nor deeper in
    /// quiescence, nor in the full search).
    #[test]
    fn the_24_point_quiescence_sees_its_own_mate_in_three_when_asked() {
        let p = mate_in_three_not_one().expect("a mate in 3 among the positions");
        let q = |mode: Mode, plies: u32, qply: u32| {
            let mut config = Config {
                mode,
                ..Config::default()
            };
            config.tweaks.quiescence_mate_plies24 = plies;
            let mut s = Searcher::new(1, config);
            s.start_search(&p, &[], &Limits::depth(1));
            let mut x = p.clone();
            let v = s.qsearch(&mut x, -MATE, MATE, 0, qply, &Control::new(false));
            assert_eq!(x.to_sfen(), p.to_sfen());
            v
        };
        assert_eq!(q(Mode::Decl24, 3, 0), MATE - 3);
        assert!(q(Mode::Decl24, 1, 0) < MATE_BOUND);
        assert!(q(Mode::Decl24, 3, 1) < MATE_BOUND);
        assert!(q(Mode::Search, 3, 0) < MATE_BOUND);
    }

    /// `ThreatPlies24`: in the 24-point mode the threat test also finds a mate by checks
    /// longer than one move after the pass (and counts its nodes); mate in one alone, or
    /// the full search, does not.
    #[test]
    fn the_24_point_threat_test_sees_a_mate_in_three_after_the_pass() {
        // A position whose side to move mates in 3 by checks but not in 1, with the
        // other side to move: that side is threatened, but not by a mate in one.
        let threatened = mate_in_three_not_one()
            .map(|mut p| {
                let _ = p.do_null_move();
                p
            })
            .expect("a mate in 3 among the positions");
        let test = |mode: Mode, plies24: u32| {
            let mut s = Searcher::new(
                1,
                Config {
                    threats: Threats {
                        plies24,
                        ..Threats::default()
                    },
                    mode,
                    ..Config::default()
                },
            );
            s.start_search(&threatened, &[], &Limits::depth(1));
            let mut p = threatened.clone();
            let t = s.threat(&mut p);
            assert_eq!(
                p.to_sfen(),
                threatened.to_sfen(),
                "the position is left as it was"
            );
            (t, s.nodes)
        };
        assert!(!Searcher::threatened(&mut threatened.clone()));
        assert_eq!(test(Mode::Decl24, 1), (false, 0));
        let (found, nodes) = test(Mode::Decl24, 3);
        assert!(found, "{}", threatened.to_sfen());
        assert!(nodes > 0, "the mate search's nodes are counted");
        assert_eq!(test(Mode::Search, 3), (false, 0));
    }

    /// In check, quiescence searches the evasions at any depth: a check deep in the
    /// capture sequence is answered, and a mate found, not the evaluation returned.
    #[test]
    fn quiescence_answers_checks_at_any_depth() {
        // Black is mated (the gold on 5b covered by the dragon: no escape, no capture).
        let p = Position::from_sfen("4k4/4G4/4+R4/9/9/9/9/9/4K4 w - 1").unwrap();
        assert!(p.is_in_check());
        let mut s = Searcher::new(1, Config::default());
        s.start_search(&p, &[], &Limits::depth(1));
        let mut q = p.clone();
        let v = s.qsearch(&mut q, -MATE, MATE, 10, 40, &Control::new(false));
        assert_eq!(v, -MATE + 10, "mated at ply 10, quiescence ply 40");
    }

    /// The reductions' scale reaches the search when the configuration changes between
    /// searches (the table is built anew), and a larger one searches fewer nodes to the
    /// same depth.
    #[test]
    fn the_reductions_follow_the_lmr_percent_of_each_search() {
        let p = Position::from_sfen(
            "ln1g1g1nl/1r1s1k3/p1pppsbpp/1p3pp2/7P1/2P6/PP1PPPP1P/1BK1SG1R1/LNSG3NL b - 15",
        )
        .unwrap();
        let nodes = |s: &mut Searcher| {
            s.clear();
            s.search(
                &p,
                &[],
                &Limits::depth(9),
                &Control::new(false),
                &mut |_| {},
            )
            .nodes
        };
        let mut s = Searcher::new(1, Config::default());
        let plain = nodes(&mut s);
        assert_eq!(s.lmr, super::super::searcher::reduction_table(100));
        s.config.tweaks.lmr_percent = 200;
        let more = nodes(&mut s);
        assert_eq!(s.lmr, super::super::searcher::reduction_table(200));
        assert!(s.lmr[20][20] > super::super::searcher::reduction_table(100)[20][20]);
        assert!(
            more < plain,
            "{more} nodes with twice the reductions, {plain} without"
        );
        s.config.tweaks.lmr_percent = 100;
        assert_eq!(nodes(&mut s), plain, "back to the default, the same search");
    }

    #[test]
    fn mate_scores_are_stored_relative_to_the_node() {
        let s = MATE - 7;
        assert_eq!(mate_from_tt(mate_to_tt(s, 4), 4), s);
        assert_eq!(mate_from_tt(mate_to_tt(s, 4), 2), s + 2);
        assert_eq!(mate_to_tt(123, 9), 123);
    }
}
