//! The searcher: its state kept from one search to the next (the table, the ordering
//! heuristics), the per-search state, and the root: the declarations and the mate guard
//! before any search, then iterative deepening with aspiration windows over the root moves.

use std::sync::atomic::Ordering;

use super::rules::{Path, PathEntry, draw_is_best};
use super::stack::{FRAME_OFFSET, Frame, PlyScratch};
use super::{Config, Control, Decision, Info, MATE, MATE_BOUND, MAX_DEPTH, MAX_PLY, Mode};
use super::{SearchResult, can_declare_draw, can_declare_win};
use crate::engine::eval;
use crate::engine::eval::eval24;
use crate::engine::eval::king_piece::{Accumulator, Delta, KingPieceWeights};
use crate::engine::eval::linear::{self, LinearWeights, PairSums};
use crate::engine::guard;
use crate::engine::history::{Histories, piece_to};
use crate::engine::picker::{is_capture, useless_non_promotion};
use crate::engine::time::{Limits, TimePlan, plan, start_iteration};
use crate::engine::tt::TranspositionTable;
use crate::shogi::sets::Pieces;
use crate::shogi::{Color, Move, Position};

/// How many chosen moves the tests of the chosen move may refuse in one search
/// ([`crate::engine::guard::GuardLimits`]: `verify_budget`, `deep_net_budget`,
/// `net_plies`).
const NET_RETRIES: u32 = 3;

/// The deep mating-net test may spend this many times its per-proof budget.
const DEEP_NET_PROOFS: u64 = 100;

/// The searcher: owns the transposition table and the ordering heuristics, which survive
/// from one search to the next.
#[derive(Debug)]
pub struct Searcher {
    /// The transposition table, kept between searches.
    pub tt: TranspositionTable,
    /// The rules and mode of the next search (may change between searches).
    pub config: Config,
    pub(super) heur: Histories,
    /// The frames of the current line, [`FRAME_OFFSET`] of them before the root.
    pub(super) stack: Vec<Frame>,
    /// No null move below this ply (0: anywhere): set while a null move is verified.
    pub(super) null_min_ply: usize,
    /// Whether this search runs the threat tests: the option of its mode, or a root
    /// that may declare a draw (set by [`Searcher::start_search`] and the root).
    pub(super) threats_on: bool,
    /// The threat test's mate search beyond mate in one ([`super::Threats::plies24`]).
    pub(super) threat_mates: crate::engine::mate::MateSearch<'static>,
    /// The positions behind the node being searched (for the rules: repetitions).
    pub(super) path: Path,
    pub(super) pv: Vec<Vec<Move>>,
    pub(super) nodes: u64,
    pub(super) seldepth: usize,
    node_limit: u64,
    plan: TimePlan,
    pub(super) aborted: bool,
    pub(super) root_depth: i32,
    /// The side to move at the root: the side whose king the 24-point evaluation guards.
    root_side: Color,
    /// Late-move reductions by depth and move number, for `lmr_percent`.
    pub(super) lmr: Vec<[u8; 64]>,
    lmr_percent: u32,
    pub(super) scratch: Vec<PlyScratch>,
    /// Static evaluations of this search (see [`crate::engine::eval::cache`]).
    eval_cache: crate::engine::eval::cache::EvalCache,
    /// The king-relative accumulators of the current line, the root's first (only with
    /// [`Config::king_piece`]).
    king_piece: KingPieceStack,
}

/// The incremental sums of the search's line (the king-relative accumulators and the
/// pair group's sums of the linear correction), updated lazily: a move pushes its change
/// only, and the sums are brought up to date when the position is evaluated or a move is
/// played from it. A node that is never evaluated and never searched further (a table
/// cut, a repetition, an evaluation found in the cache) costs no update. Every entry
/// below the top is up to date.
#[derive(Debug, Default)]
pub(super) struct KingPieceStack {
    entries: Vec<StackEntry>,
}

/// One position's sums, or the change that leads to them from the entry below.
#[derive(Debug, Clone, Copy)]
struct StackEntry {
    acc: Accumulator,
    pairs: PairSums,
    pending: Option<Change>,
}

/// A move's change: the king-relative items, and the squares it changed with the piece
/// code each held before (one for a drop, two for a board move).
#[derive(Debug, Clone, Copy)]
struct Change {
    delta: Delta,
    squares: [(u8, u8); 2],
    len: u8,
}

impl Change {
    fn of(pos: &Position, m: Move) -> Change {
        let delta = Delta::of(pos, m);
        match m {
            Move::Normal { from, to, .. } => {
                let (f, t) = (from.index(), to.index());
                Change {
                    delta,
                    squares: [
                        (f as u8, pos.piece_code_at(f)),
                        (t as u8, pos.piece_code_at(t)),
                    ],
                    len: 2,
                }
            }
            Move::Drop { to, .. } => Change {
                delta,
                squares: [(to.index() as u8, crate::shogi::sets::EMPTY); 2],
                len: 1,
            },
        }
    }
}

impl KingPieceStack {
    fn with_capacity(n: usize) -> KingPieceStack {
        KingPieceStack {
            entries: Vec::with_capacity(n),
        }
    }

    fn clear(&mut self) {
        self.entries.clear();
    }

    fn start(&mut self, acc: Accumulator, pairs: PairSums) {
        self.entries.clear();
        self.entries.push(StackEntry {
            acc,
            pairs,
            pending: None,
        });
    }

    fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Record `m`, about to be played from `pos`, to be applied when needed.
    #[inline]
    fn push(&mut self, pos: &Position, m: Move) {
        self.entries.push(StackEntry {
            acc: Accumulator::default(),
            pairs: PairSums::default(),
            pending: Some(Change::of(pos, m)),
        });
    }

    #[inline]
    fn pop(&mut self) {
        self.entries.pop();
    }

    /// The sums of the top entry, `pos` being its position: applied now if pending
    /// (the pair sums only with `linear`).
    #[inline]
    fn top(
        &mut self,
        pos: &Position,
        w: &KingPieceWeights,
        linear: Option<&LinearWeights>,
    ) -> Option<(&Accumulator, &PairSums)> {
        let n = self.entries.len();
        if n >= 2
            && let Some(ch) = self.entries[n - 1].pending.take()
        {
            let below = self.entries[n - 2];
            self.entries[n - 1].acc = below.acc.update(&ch.delta, pos, w);
            if let Some(lw) = linear {
                self.entries[n - 1].pairs =
                    below.pairs.change(pos, &ch.squares[..ch.len as usize], lw);
            }
        }
        self.entries.last().map(|e| (&e.acc, &e.pairs))
    }
}

impl Searcher {
    /// A searcher with a table of `hash_mb` megabytes.
    pub fn new(hash_mb: usize, config: Config) -> Searcher {
        let lmr_percent = config.tweaks.lmr_percent;
        let lmr = reduction_table(lmr_percent);
        Searcher {
            tt: TranspositionTable::new(hash_mb),
            config,
            heur: Histories::new(MAX_PLY),
            stack: vec![Frame::default(); MAX_PLY + FRAME_OFFSET + 4],
            null_min_ply: 0,
            threats_on: false,
            threat_mates: crate::engine::mate::MateSearch::new(0),
            path: Path::new(),
            pv: (0..MAX_PLY + 2)
                .map(|_| Vec::with_capacity(MAX_PLY))
                .collect(),
            nodes: 0,
            seldepth: 0,
            node_limit: u64::MAX,
            plan: TimePlan {
                soft: None,
                hard: None,
                use_all: false,
            },
            aborted: false,
            root_depth: 1,
            root_side: Color::Black,
            lmr,
            lmr_percent,
            scratch: (0..MAX_PLY + 2).map(|_| PlyScratch::new()).collect(),
            eval_cache: Default::default(),
            king_piece: KingPieceStack::with_capacity(MAX_PLY + 8),
        }
    }

    /// Forget everything learnt (new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.heur.clear();
    }

    /// Resize the table.
    pub fn resize(&mut self, hash_mb: usize) {
        self.tt = TranspositionTable::new(hash_mb);
    }

    /// The static evaluation by the objective of the mode (both read the position in
    /// place). The learned evaluation goes through the evaluation cache, which made
    /// `bench` about 5% faster with it; the hand-made one measured no faster with it.
    pub(super) fn evaluate(&mut self, pos: &Position) -> i32 {
        match self.config.mode {
            Mode::Search => {
                let Some(w) = &self.config.king_piece else {
                    return match &self.config.linear {
                        Some(w) => self
                            .eval_cache
                            .get_or(pos.key(), || linear::evaluate_total(pos, w)),
                        None => eval::evaluate(pos),
                    };
                };
                // The sums are brought up to date only when the cache misses.
                let stack = &mut self.king_piece;
                let linear = self.config.linear.as_deref();
                self.eval_cache.get_or(pos.key(), || {
                    let Some((acc, pairs)) = stack.top(pos, w, linear) else {
                        return match linear {
                            Some(lw) => linear::evaluate_total(pos, lw),
                            None => eval::evaluate(pos),
                        };
                    };
                    debug_assert_eq!(
                        *acc,
                        Accumulator::full(pos, w),
                        "the incremental sums of {}",
                        pos.to_sfen()
                    );
                    let kp = acc.value(pos, w);
                    match linear {
                        Some(lw) => {
                            debug_assert_eq!(
                                *pairs,
                                linear::pair_sums(pos, lw),
                                "the pair sums of {}",
                                pos.to_sfen()
                            );
                            linear::evaluate_total_with_pairs(pos, lw, pairs) + kp
                        }
                        None => eval::evaluate(pos) + kp,
                    }
                })
            }
            Mode::Decl24 => {
                let v = eval24::evaluate_for(
                    pos,
                    &self.config.weights,
                    self.config.rule,
                    Some(self.root_side.index()),
                );
                match &self.config.linear24 {
                    Some(w) => crate::engine::eval::linear::evaluate_decl24(pos, v, w),
                    None => v,
                }
            }
        }
    }

    /// Play `m` and record the new position on the search path (for repetitions).
    #[inline]
    pub(super) fn play(&mut self, pos: &mut Position, m: Move) -> crate::shogi::UndoInfo {
        if let Some(w) = &self.config.king_piece
            && !self.king_piece.is_empty()
        {
            // The position the move is played from is brought up to date first.
            self.king_piece.top(&*pos, w, self.config.linear.as_deref());
            self.king_piece.push(&*pos, m);
        }
        let undo = pos.play_unchecked(m);
        self.path.push(PathEntry {
            key: pos.key(),
            in_check: pos.is_in_check(),
            null: false,
        });
        undo
    }

    /// Take back `m` (played by [`Searcher::play`]) and its entry on the search path.
    #[inline]
    pub(super) fn unplay(&mut self, pos: &mut Position, m: Move, undo: crate::shogi::UndoInfo) {
        self.path.pop();
        pos.undo(m, undo);
        if self.config.king_piece.is_some() {
            self.king_piece.pop();
        }
    }

    fn time_up(&self, control: &Control) -> bool {
        Self::past(self.plan.hard, control)
    }

    /// Whether `limit` (counted from the start, or from `ponderhit` when pondering was
    /// converted) has passed; never while pondering.
    fn past(limit: Option<std::time::Duration>, control: &Control) -> bool {
        if control.pondering.load(Ordering::Relaxed) {
            return false;
        }
        limit.is_some_and(|limit| {
            let since = (control.elapsed().as_millis() as u64)
                .saturating_sub(control.ponderhit_ms.load(Ordering::Relaxed));
            since >= limit.as_millis() as u64
        })
    }

    #[inline]
    pub(super) fn check_abort(&mut self, control: &Control) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes >= self.node_limit
            || (self.nodes & 1023 == 0
                && (control.stop.load(Ordering::Relaxed) || self.time_up(control)))
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// Search `root` (reached through the positions `history`: `(key, side to move in
    /// check)` of every earlier position of the game, oldest first) under `limits`.
    /// `on_info` is called after every completed iteration.
    ///
    /// A side that may declare a draw at the root searches with the threat tests on
    /// ([`super::Threats`]), whatever the option says: a quiet mate must not be given
    /// away for a draw.
    pub fn search(
        &mut self,
        root: &Position,
        history: &[(u64, bool)],
        limits: &Limits,
        control: &Control,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let mut pos = root.clone();
        self.start_search(&pos, history, limits);
        let finish = |decision, score, depth, nodes, pv: Vec<Move>| SearchResult {
            decision,
            ponder: pv.get(1).copied(),
            score,
            depth,
            nodes,
            time: control.elapsed(),
            pv,
        };
        let root_in_check = pos.is_in_check();
        if !root_in_check && can_declare_win(&pos, self.config.rule) {
            return finish(Decision::Win, MATE, 0, 0, Vec::new());
        }
        let root_draw = !root_in_check && can_declare_draw(&pos, self.config.rule);
        self.threats_on |= root_draw;
        let all = pos.legal_moves();
        if all.is_empty() {
            return finish(
                if root_draw {
                    Decision::DeclareDraw
                } else {
                    Decision::Resign
                },
                if root_draw { 0 } else { -MATE },
                0,
                0,
                Vec::new(),
            );
        }
        let all: Vec<Move> = all
            .iter()
            .copied()
            .filter(|&m| !useless_non_promotion(&pos, m))
            .collect();
        let guarded = if self.config.root_guard || self.config.mode == Mode::Decl24 {
            self.guard_root_moves(&mut pos, all, control)
        } else {
            Ok(all)
        };
        let mut root_moves = match guarded {
            Ok(moves) => moves,
            Err((m, plies)) => {
                let score = MATE - plies as i32;
                on_info(&Info {
                    depth: plies,
                    seldepth: plies,
                    score,
                    bound: None,
                    nodes: 0,
                    time: control.elapsed(),
                    hashfull: self.tt.hashfull(),
                    pv: vec![m],
                });
                return finish(Decision::Move(m), score, plies, 0, vec![m]);
            }
        };
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let (mut best_move, mut best_score, mut best_pv, mut completed) =
            self.iterate(&mut pos, &mut root_moves, max_depth, control, on_info);
        // The tests of the move chosen (a mate by checks found by df-pn, mating nets):
        // a move refused is dropped and the rest searched again (at most `NET_RETRIES`
        // times), with half the node allowance again; with no time left the next move of
        // the last iteration's order is taken.
        let mut retries = 0;
        let guard = self.config.guard;
        while (guard.net_plies > 0 || guard.verify_budget > 0 || guard.deep_net_budget > 0)
            && root_moves.len() > 1
            && retries < NET_RETRIES
            && self.refuted(&mut pos, best_move)
        {
            retries += 1;
            root_moves.retain(|&m| m != best_move);
            if let Some(n) = limits.nodes {
                self.node_limit = self.nodes.saturating_add((n / 2).max(1));
            }
            self.aborted = false;
            (best_move, best_score, best_pv, completed) =
                self.iterate(&mut pos, &mut root_moves, max_depth, control, on_info);
        }
        if best_pv.first() != Some(&best_move) {
            best_pv = vec![best_move];
        }
        if root_draw && completed > 0 && draw_is_best(&pos, self.config.rule, best_score, &best_pv)
        {
            return finish(Decision::DeclareDraw, 0, completed, self.nodes, Vec::new());
        }
        finish(
            Decision::Move(best_move),
            best_score,
            completed,
            self.nodes,
            best_pv,
        )
    }

    /// Reset the per-search state and put the game history and the root on the path.
    pub(super) fn start_search(
        &mut self,
        pos: &Position,
        history: &[(u64, bool)],
        limits: &Limits,
    ) {
        self.nodes = 0;
        self.seldepth = 0;
        self.aborted = false;
        self.eval_cache.clear();
        self.root_side = pos.side_to_move();
        self.node_limit = limits.nodes.unwrap_or(u64::MAX).max(1);
        self.plan = plan(
            limits,
            pos.side_to_move() == Color::Black,
            pos.move_number(),
        );
        self.tt.new_search();
        self.heur.age();
        self.stack.fill(Frame::default());
        self.null_min_ply = 0;
        self.threats_on = self.config.threats.on(self.config.mode);
        if self.lmr_percent != self.config.tweaks.lmr_percent {
            self.lmr_percent = self.config.tweaks.lmr_percent;
            self.lmr = reduction_table(self.lmr_percent);
        }
        self.path.start(history, pos);
        self.king_piece.clear();
        if let Some(w) = &self.config.king_piece {
            let pairs = match self.config.linear.as_deref() {
                Some(lw) => linear::pair_sums(pos, lw),
                None => PairSums::default(),
            };
            self.king_piece.start(Accumulator::full(pos, w), pairs);
        }
    }

    /// Whether the opponent, after `m`, is proven to mate by checks (df-pn within the
    /// guard's `verify_budget`) or to build a mating net ([`guard::allows_deep_net`]
    /// within `deep_net_budget` a proof, [`guard::allows_net`] within `net_budget`). The
    /// tests' nodes count as nodes.
    fn refuted(&mut self, pos: &mut Position, m: Move) -> bool {
        let limits = self.config.guard;
        let rule = self.config.rule;
        let undo = pos.play_unchecked(m);
        let mut refuted = false;
        if limits.verify_budget > 0 {
            let mut dfpn = crate::engine::mate::Dfpn::new(limits.verify_budget, limits.dfpn_plies);
            refuted = matches!(dfpn.prove(pos), crate::engine::mate::Proof::Mate(_));
            self.nodes += dfpn.nodes();
        }
        if !refuted && limits.deep_net_budget > 0 {
            let total = limits.deep_net_budget.saturating_mul(DEEP_NET_PROOFS);
            let mut left = total;
            let net = guard::allows_deep_net(
                pos,
                limits.dfpn_plies,
                limits.deep_net_budget,
                &mut left,
                &|p| can_declare_win(p, rule),
            );
            self.nodes += total - left;
            refuted = net == Some(true);
        }
        if !refuted && limits.net_plies > 0 {
            let mut left = limits.net_budget;
            let mut search = guard::MateSearch::new(left);
            let net = guard::allows_net(pos, limits.net_plies, &mut search, &mut left, &|p| {
                can_declare_win(p, rule)
            });
            self.nodes += limits.net_budget - left;
            refuted = net == Some(true);
        }
        pos.undo(m, undo);
        refuted
    }

    /// The mate guard, in both modes: take a short mate (`Err((move, plies))`), never
    /// allow one when it can be avoided (`Ok(the moves kept)`). The guard's time counts
    /// against the move's hard limit like the search's; in the full search it may take
    /// at most a tenth of it, the rest is the search's.
    fn guard_root_moves(
        &self,
        pos: &mut Position,
        moves: Vec<Move>,
        control: &Control,
    ) -> Result<Vec<Move>, (Move, u32)> {
        let hard = match self.config.mode {
            Mode::Decl24 => self.plan.hard,
            Mode::Search => self.plan.hard.map(|h| h / 10),
        };
        let out_of_time = || control.stop.load(Ordering::Relaxed) || Self::past(hard, control);
        match guard::guard_root_until(pos, &moves, self.config.guard, &out_of_time) {
            guard::RootGuard::Mate(m, plies) => Err((m, plies)),
            guard::RootGuard::Moves(safe, _) => Ok(safe),
        }
    }

    /// Iterative deepening over `root_moves` up to `max_depth` or the time plan. Returns
    /// the best move, its score, its principal variation and the last completed depth.
    ///
    /// An iteration cut off by time keeps what it found: its first move searched in full,
    /// or any later move that beat it (each is proved better than the previous best at
    /// the new depth).
    fn iterate(
        &mut self,
        pos: &mut Position,
        root_moves: &mut [Move],
        max_depth: u32,
        control: &Control,
        on_info: &mut dyn FnMut(&Info),
    ) -> (Move, i32, Vec<Move>, u32) {
        let mut best_move = root_moves[0];
        let mut best_score = -MATE;
        let mut best_pv = vec![best_move];
        let mut completed = 0;
        let mut prev_score: i32 = 0;
        let mut stable = 0u32;
        let mut last_ms = 0u64;
        for depth in 1..=max_depth {
            let started = control.elapsed().as_millis() as u64;
            let (score, mv, pv) = self.aspiration(pos, root_moves, depth, prev_score, control);
            if self.aborted {
                if let Some(m) = mv
                    && completed > 0
                {
                    best_move = m;
                    best_pv = pv;
                    best_score = score;
                }
                break;
            }
            if let Some(m) = mv {
                stable = if m == best_move { stable + 1 } else { 0 };
                best_move = m;
                best_pv = pv;
            }
            best_score = score;
            prev_score = score;
            completed = depth;
            on_info(&Info {
                depth,
                seldepth: self.seldepth as u32,
                score,
                bound: None,
                nodes: self.nodes,
                time: control.elapsed(),
                hashfull: self.tt.hashfull(),
                pv: best_pv.clone(),
            });
            if score.abs() >= MATE_BOUND && (MATE - score.abs()) as u32 <= depth {
                break;
            }
            let now = control.elapsed().as_millis() as u64;
            last_ms = now.saturating_sub(started).max(last_ms / 2);
            if control.stop.load(Ordering::Relaxed)
                || (!control.pondering.load(Ordering::Relaxed)
                    && !start_iteration(
                        &self.plan,
                        now.saturating_sub(control.ponderhit_ms.load(Ordering::Relaxed)),
                        last_ms,
                        stable,
                    ))
            {
                break;
            }
        }
        (best_move, best_score, best_pv, completed)
    }

    /// One iteration at `depth` in an aspiration window around `prev_score` (from depth
    /// 4, 30 wide, widened by half again and more on every failure).
    fn aspiration(
        &mut self,
        pos: &mut Position,
        root_moves: &mut [Move],
        depth: u32,
        prev_score: i32,
        control: &Control,
    ) -> (i32, Option<Move>, Vec<Move>) {
        let mut window = if depth >= 4 && prev_score.abs() < MATE_BOUND {
            30
        } else {
            MATE * 2
        };
        let (mut alpha, mut beta) = (
            (prev_score - window).max(-MATE - 1),
            (prev_score + window).min(MATE + 1),
        );
        loop {
            self.root_depth = depth as i32;
            let (s, m, pv) = self.root(pos, root_moves, depth as i32, alpha, beta, control);
            if self.aborted {
                return (s, m, pv);
            }
            if s <= alpha && alpha > -MATE - 1 {
                beta = (alpha + beta) / 2;
                window += window / 2 + 20;
                alpha = (s - window).max(-MATE - 1);
            } else if s >= beta && beta < MATE + 1 {
                window += window / 2 + 20;
                beta = (s + window).min(MATE + 1);
            } else {
                return (s, m, pv);
            }
        }
    }

    /// One root iteration over `moves` (reordered: best first). Returns the score, the best
    /// move (if one beat alpha) and its principal variation.
    fn root(
        &mut self,
        pos: &mut Position,
        moves: &mut [Move],
        depth: i32,
        mut alpha: i32,
        beta: i32,
        control: &Control,
    ) -> (i32, Option<Move>, Vec<Move>) {
        self.nodes += 1;
        let mut best = -MATE - 1;
        let mut best_move = None;
        let mut best_pv = Vec::new();
        let mut best_index = 0;
        let root_lmr = self.config.mode == Mode::Search
            && self.config.prunings.lmr
            && depth >= 3
            && !pos.is_in_check();
        for (n, &m) in moves.iter().enumerate() {
            // Late quiet root moves that do not check are searched shallower first (two
            // plies less than an interior node's reduction).
            let reduction = if root_lmr
                && n >= 3
                && !is_capture(pos, m)
                && !matches!(m, Move::Normal { promote: true, .. })
                && !pos.gives_check(m)
            {
                (self.reduction(depth, n + 1) - 2).clamp(0, depth - 2)
            } else {
                0
            };
            let pt = piece_to(pos, m);
            let undo = self.play(pos, m);
            self.stack[FRAME_OFFSET].moved = Some(pt);
            self.stack[FRAME_OFFSET].null = false;
            let mut s;
            if n == 0 {
                s = -self.negamax(pos, depth - 1, -beta, -alpha, 1, false, control);
            } else {
                s = -self.negamax(
                    pos,
                    depth - 1 - reduction,
                    -alpha - 1,
                    -alpha,
                    1,
                    true,
                    control,
                );
                if s > alpha && reduction > 0 && !self.aborted {
                    s = -self.negamax(pos, depth - 1, -alpha - 1, -alpha, 1, true, control);
                }
                if s > alpha && s < beta && !self.aborted {
                    s = -self.negamax(pos, depth - 1, -beta, -alpha, 1, false, control);
                }
            }
            self.unplay(pos, m, undo);
            if self.aborted {
                break;
            }
            if s > best {
                best = s;
            }
            if s > alpha {
                alpha = s;
                best_move = Some(m);
                best_index = n;
                best_pv.clear();
                best_pv.push(m);
                best_pv.extend_from_slice(&self.pv[1]);
                if s >= beta {
                    break;
                }
            }
        }
        if best_index > 0 {
            moves[..=best_index].rotate_right(1);
        }
        (best, best_move, best_pv)
    }

    /// Nodes searched by the last search.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }
}

/// The late-move reductions by depth and move number: `0.5 + ln(depth) ln(n) / 2.25`
/// plies, the product scaled by `percent` (the `LmrPercent` option).
pub(super) fn reduction_table(percent: u32) -> Vec<[u8; 64]> {
    let scale = percent as f64 / 100.0;
    let mut lmr = vec![[0u8; 64]; 64];
    for (d, row) in lmr.iter_mut().enumerate().skip(1) {
        for (n, r) in row.iter_mut().enumerate().skip(1) {
            *r = (0.5 + (d as f64).ln() * (n as f64).ln() * scale / 2.25) as u8;
        }
    }
    lmr
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Linear weights with every group, the pairs' included, random.
    fn random_linear(seed: u64) -> LinearWeights {
        let mut rng = crate::rng::XorShift64Star::new(seed);
        let v = (0..linear::STAGES * linear::N_FEATURES)
            .map(|_| rng.below(2001) as f32 / 10.0 - 100.0)
            .collect();
        LinearWeights::from_values(v).with_residual(true)
    }

    /// Walk a random tree the way the search does (a move played from a position whose
    /// sums may still be pending, taken back, another tried), asking for the sums at some
    /// nodes only: whenever asked, the king-relative sums and the pair sums equal those
    /// computed from scratch.
    #[test]
    fn the_lazy_sums_equal_the_full_sums_wherever_they_are_asked() {
        let w = KingPieceWeights::builtin();
        let lw = random_linear(23);
        assert!(lw.has_pairs());
        let mut rng = crate::rng::XorShift64Star::new(17);
        let mut asked = 0;
        let mut skipped = 0;
        let mut captures = 0;
        for _ in 0..20 {
            let mut pos = Position::startpos();
            let mut stack = KingPieceStack::with_capacity(64);
            stack.start(Accumulator::full(&pos, &w), linear::pair_sums(&pos, &lw));
            let mut line: Vec<(Move, crate::shogi::UndoInfo)> = Vec::new();
            for _ in 0..400 {
                let moves = pos.legal_moves();
                // Go down (mostly) or back up a ply.
                if !moves.is_empty() && (line.len() < 2 || rng.below(3) != 0) && line.len() < 60 {
                    let m = moves[rng.below(moves.len() as u64) as usize];
                    if let Move::Normal { to, .. } = m {
                        captures += usize::from(pos.piece_at(to).is_some());
                    }
                    stack.top(&pos, &w, Some(&lw));
                    stack.push(&pos, m);
                    let undo = pos.play_unchecked(m);
                    line.push((m, undo));
                } else if let Some((m, undo)) = line.pop() {
                    stack.pop();
                    pos.undo(m, undo);
                }
                if rng.below(3) == 0 {
                    let (acc, pairs) = stack.top(&pos, &w, Some(&lw)).expect("a root entry");
                    assert_eq!(*acc, Accumulator::full(&pos, &w), "at {}", pos.to_sfen());
                    assert_eq!(*pairs, linear::pair_sums(&pos, &lw), "at {}", pos.to_sfen());
                    assert_eq!(
                        linear::evaluate_total_with_pairs(&pos, &lw, pairs),
                        linear::evaluate_total(&pos, &lw)
                    );
                    asked += 1;
                } else {
                    skipped += 1;
                }
            }
        }
        assert!(
            asked > 2000 && skipped > 4000 && captures > 100,
            "{asked} asked, {skipped} skipped, {captures} captures"
        );
    }
}
