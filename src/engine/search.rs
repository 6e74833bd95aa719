//! The alpha-beta search: iterative deepening, principal-variation search with aspiration
//! windows, a transposition table, null-move pruning, late-move reductions, quiescence
//! search over captures with static exchange pruning, killer and history ordering, mate in
//! one at the nodes where it pays, and the engine rules as terminal nodes: repetition and
//! perpetual check against the game history plus the search path, the move limit, the try
//! rule and the declaration win of the side to move.
//!
//! Two objectives share the search: the normal evaluation ([`Mode::Search`]) and the
//! 24-point engine ([`Mode::Decl24`]), which scores closeness to a declaration win and
//! leaves the root to its mate guard ([`super::guard`]): a short mate is played, moves
//! that allow one are refused.
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::eval;
use super::eval24::{self, Weights};
use super::guard;
use super::ordering::{Heuristics, history_index, see};
use super::picker::{MovePicker, PickerBuffers, SCORE_KILLER, is_capture};
use super::time::{Limits, TimePlan, plan};
use super::tt::{Bound, TranspositionTable, pack_move, unpack_move};
use crate::shogi::sets::{captures, pawn_promotions};
use crate::shogi::{
    Color, EnteringKingRule, Move, MoveList, Position, evaluate_declaration,
    solve_mate_in_one_in_place, try_rule_reached,
};

/// Score of a won game at the root (mate or declaration); wins nearer the root score higher.
pub const MATE: i32 = 30_000;
/// Scores at or beyond this magnitude are mates.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// Deepest ply the search reaches.
pub const MAX_PLY: usize = 120;
/// Deepest nominal depth of an iteration.
pub const MAX_DEPTH: u32 = 64;

/// What the search tries to achieve.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Win the game by any means (the normal evaluation).
    Search,
    /// Win by declaration: the 24-point engine's evaluation and mate guard.
    Decl24,
}

/// A mode name that is neither `search` nor `decl24` (the text as given).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown mode `{0}` (search, decl24)")]
pub struct UnknownMode(pub String);

impl std::str::FromStr for Mode {
    type Err = UnknownMode;
    fn from_str(s: &str) -> Result<Mode, UnknownMode> {
        match s.to_ascii_lowercase().as_str() {
            "search" => Ok(Mode::Search),
            "decl24" => Ok(Mode::Decl24),
            _ => Err(UnknownMode(s.to_string())),
        }
    }
}

impl std::fmt::Display for Mode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Mode::Search => "search",
            Mode::Decl24 => "decl24",
        })
    }
}

/// The rules and objective of a search.
#[derive(Debug, Clone)]
pub struct Config {
    /// The entering-king rule: when a side may declare, and the try rule.
    pub rule: EnteringKingRule,
    /// Plies after which the game is a draw (unless in check); 0 = no limit.
    pub max_moves_to_draw: i32,
    /// What the search plays for, and with which evaluation.
    pub mode: Mode,
    /// The 24-point evaluation's weights (used in [`Mode::Decl24`]).
    pub weights: Weights,
    /// Mate threats at the leaves (see [`Threats`]).
    pub threats: Threats,
    /// Quiescence nodes outside the principal variation take a score the table holds for
    /// their position when its bound allows (the `QuiescenceTT` option; off by default:
    /// 1,000 games at fixed nodes showed no gain, `reports/engine.md`).
    pub quiescence_tt: bool,
    /// The learned linear evaluation used instead of the hand-made one in
    /// [`Mode::Search`] (the `LinearWeights` option); `None`: the hand-made evaluation.
    pub linear: Option<std::sync::Arc<super::learn::linear::LinearWeights>>,
    /// Pruning and ordering choices under trial (see [`Tweaks`]).
    pub tweaks: Tweaks,
}

/// Choices of the full search's pruning and move ordering, each a USI option so that a
/// match can set one build against itself (`floodgate-scan sprt`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tweaks {
    /// Order quiet moves by the continuation history too (the previous move -> this
    /// move; the `ContinuationHistory` option).
    pub continuation_history: bool,
    /// Reduce late quiet root moves (the `RootReductions` option).
    pub root_reductions: bool,
    /// Move-count pruning at nodes of depth <= this (the `LateMoveDepth` option): quiet
    /// moves after the first `late_move_limit` of them are not searched.
    pub late_move_depth: i32,
    /// Quiescence of the full search also tries pawn moves that promote without
    /// capturing, when the exchange on their square does not lose (the
    /// `QuiescencePromotions` option).
    pub quiescence_promotions: bool,
}

impl Default for Tweaks {
    fn default() -> Self {
        Tweaks {
            continuation_history: false,
            root_reductions: false,
            late_move_depth: 3,
            quiescence_promotions: false,
        }
    }
}

/// How the search treats a mate in one that the opponent threatens (tested by passing
/// in place and asking for the opponent's mate in one). At nodes of depth <= 2 a threat
/// turns off reverse futility, futility, move-count pruning and late-move reductions, so
/// every defence is searched; a null move that fails low to a mate marks its node the
/// same way; in quiescence the stand-pat score of a threatened side is lowered by
/// `penalty`, and the side to move's own mate in one is found before it stands pat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Threats {
    /// Test for threats at all (the `Threats` option).
    pub enabled: bool,
    /// Centipawns taken off a threatened side's stand pat in quiescence (the
    /// `ThreatPenalty` option).
    pub penalty: i32,
    /// Quiescence plies (from the first) at which the two mate-in-one tests run (the
    /// `ThreatQuiescencePlies` option).
    pub quiescence_plies: u32,
}

impl Default for Threats {
    fn default() -> Self {
        Threats {
            enabled: true,
            penalty: DEFAULT_THREAT_PENALTY,
            quiescence_plies: 1,
        }
    }
}

/// The stand-pat penalty of a threatened side in quiescence, in centipawns.
pub const DEFAULT_THREAT_PENALTY: i32 = 600;

impl Default for Config {
    fn default() -> Self {
        Config {
            rule: EnteringKingRule::CSARule27,
            max_moves_to_draw: 0,
            mode: Mode::Search,
            weights: Weights::default(),
            threats: Threats::default(),
            quiescence_tt: false,
            linear: None,
            tweaks: Tweaks::default(),
        }
    }
}

/// The move a search decided on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// Play this move (`bestmove <move>`).
    Move(Move),
    /// Declare a win (`bestmove win`).
    Win,
    /// Declare under a 24-point rule with 24-30 points (`bestmove win`, which the rule
    /// makes a draw): the search found no way to the win's points and nothing better by
    /// playing on.
    DeclareDraw,
    /// No legal move (`bestmove resign`).
    Resign,
}

impl Decision {
    /// USI text of the decision.
    pub fn to_usi(self) -> String {
        match self {
            Decision::Move(m) => m.to_usi(),
            Decision::Win | Decision::DeclareDraw => "win".to_string(),
            Decision::Resign => "resign".to_string(),
        }
    }
}

/// One completed iteration, as reported in `info` lines.
#[derive(Debug, Clone)]
pub struct Info {
    /// The iteration's depth (for a mate the guard found: the mate's length in plies).
    pub depth: u32,
    /// The deepest ply reached, quiescence search included.
    pub seldepth: u32,
    /// The score for the side to move (see [`score_usi`]).
    pub score: i32,
    /// `Some(bound)` when the score is only a bound (aspiration failure).
    pub bound: Option<Bound>,
    /// Nodes searched so far by this search.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Per-mille of the transposition table used by this search.
    pub hashfull: u32,
    /// The principal variation, from the root.
    pub pv: Vec<Move>,
}

impl Info {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        let ms = (self.time.as_millis() as u64).max(1);
        self.nodes * 1000 / ms
    }

    /// The score in USI words: `cp N` or `mate N` (plies, negative when mated).
    pub fn score_usi(&self) -> String {
        score_usi(self.score)
    }
}

/// A score in USI words.
pub fn score_usi(score: i32) -> String {
    if score >= MATE_BOUND {
        format!("mate {}", MATE - score)
    } else if score <= -MATE_BOUND {
        format!("mate -{}", MATE + score)
    } else {
        format!("cp {score}")
    }
}

/// The result of a search.
#[derive(Debug, Clone)]
pub struct SearchResult {
    /// What to answer (`bestmove`).
    pub decision: Decision,
    /// The expected reply (the principal variation's second move), to ponder on.
    pub ponder: Option<Move>,
    /// The score for the side to move, as in [`Info::score`] ([`MATE`] for a declaration
    /// win).
    pub score: i32,
    /// The depth of the last completed iteration (the mate's length in plies for a
    /// mate the guard found; 0 when the root needed no search).
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time the search took.
    pub time: Duration,
    /// The principal variation, starting with the move played (empty unless the
    /// decision is a move).
    pub pv: Vec<Move>,
}

/// Shared flags between a running search and whoever controls it.
#[derive(Debug)]
pub struct Control {
    /// Set to stop the search at its next check (`stop`, and the USI commands that end a
    /// running search).
    pub stop: AtomicBool,
    /// Set while pondering: no time limit applies until [`Control::ponderhit`]
    /// clears it.
    pub pondering: AtomicBool,
    /// Milliseconds after the start when pondering ended (`ponderhit`).
    pub ponderhit_ms: AtomicU64,
    start: Instant,
}

impl Default for Control {
    fn default() -> Self {
        Control::new(false)
    }
}

impl Control {
    /// Flags for a new search, pondering or not; its clock starts now.
    pub fn new(pondering: bool) -> Control {
        Control {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(pondering),
            ponderhit_ms: AtomicU64::new(0),
            start: Instant::now(),
        }
    }

    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Turn pondering into a normal search whose clock starts now.
    pub fn ponderhit(&self) {
        self.ponderhit_ms
            .store(self.start.elapsed().as_millis() as u64, Ordering::SeqCst);
        self.pondering.store(false, Ordering::SeqCst);
    }
}

#[derive(Debug, Clone, Copy)]
struct StackEntry {
    key: u64,
    in_check: bool,
    /// Reached by a null move: repetitions are not searched across it.
    null: bool,
    /// The move that reached this position, as a [`history_index`] (`None` after a null
    /// move, at the root and in the game's history).
    moved: Option<(usize, usize)>,
}

const NO_SCORE: i32 = i32::MIN / 2;

/// Buckets of the repetition filter.
const KEY_BUCKETS: usize = 4096;

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

/// Bucket of a position key in the repetition filter (its top bits).
#[inline(always)]
fn key_bucket(key: u64) -> usize {
    (key >> 52) as usize
}

/// The move lists of one ply, kept from node to node so a node allocates nothing.
#[derive(Debug, Default)]
struct PlyScratch {
    /// The move picker's lists.
    picker: PickerBuffers,
    /// Moves with their ordering scores (quiescence).
    scored: Vec<(Move, i32)>,
    /// History slots of the quiet moves tried so far.
    quiets: Vec<(usize, usize)>,
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

/// The searcher: owns the transposition table and the ordering heuristics, which survive
/// from one search to the next.
#[derive(Debug)]
pub struct Searcher {
    /// The transposition table, kept between searches.
    pub tt: TranspositionTable,
    /// The rules and mode of the next search (may change between searches).
    pub config: Config,
    heur: Heuristics,
    stack: Vec<StackEntry>,
    /// How many entries of `stack` have each value of [`key_bucket`]: a position whose
    /// bucket holds only itself cannot be a repetition, so its scan is skipped.
    key_counts: Vec<u16>,
    root_index: usize,
    pv: Vec<Vec<Move>>,
    nodes: u64,
    seldepth: usize,
    node_limit: u64,
    plan: TimePlan,
    aborted: bool,
    root_depth: i32,
    /// The side to move at the root: the side whose king the 24-point evaluation guards.
    root_side: Color,
    lmr: Vec<[u8; 64]>,
    scratch: Vec<PlyScratch>,
    /// Static evaluations of this search (see [`super::eval_cache`]).
    eval_cache: super::eval_cache::EvalCache,
}

// The declaration predicates live with the rest of the rule facts in `shogi::rules`.
pub use crate::shogi::{can_declare_draw, can_declare_win};

/// Whether playing `pv` from `pos` brings the side to move's owned points to `target`
/// (captures are the only way owned points grow).
fn pv_reaches(pos: &Position, pv: &[Move], target: i32) -> bool {
    let us = pos.side_to_move();
    let mut p = pos.clone();
    for &m in pv {
        if p.play(m).is_err() {
            break;
        }
        if p.owned_points(us) >= target {
            return true;
        }
    }
    false
}

/// Under the try rule: whether the side that just moved has its king on the try square.
fn try_rule_lost(pos: &Position) -> bool {
    try_rule_reached(pos, pos.side_to_move().opposite())
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
    /// A searcher with a table of `hash_mb` megabytes.
    pub fn new(hash_mb: usize, config: Config) -> Searcher {
        let mut lmr = vec![[0u8; 64]; 64];
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (n, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.5 + (d as f64).ln() * (n as f64).ln() / 2.25) as u8;
            }
        }
        Searcher {
            tt: TranspositionTable::new(hash_mb),
            config,
            heur: Heuristics::new(MAX_PLY),
            stack: Vec::with_capacity(1024),
            key_counts: vec![0; KEY_BUCKETS],
            root_index: 0,
            pv: (0..MAX_PLY + 2)
                .map(|_| Vec::with_capacity(MAX_PLY))
                .collect(),
            nodes: 0,
            seldepth: 0,
            node_limit: u64::MAX,
            plan: TimePlan {
                soft: None,
                hard: None,
            },
            aborted: false,
            root_depth: 1,
            root_side: Color::Black,
            lmr,
            scratch: (0..MAX_PLY + 2)
                .map(|_| PlyScratch {
                    picker: PickerBuffers::new(),
                    scored: Vec::with_capacity(crate::shogi::MAX_MOVES),
                    quiets: Vec::with_capacity(crate::shogi::MAX_MOVES),
                })
                .collect(),
            eval_cache: Default::default(),
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
    fn evaluate(&mut self, pos: &Position) -> i32 {
        match self.config.mode {
            Mode::Search => match &self.config.linear {
                Some(w) => self
                    .eval_cache
                    .get_or(pos.key(), || super::learn::linear::evaluate(pos, w)),
                None => eval::evaluate(pos),
            },
            Mode::Decl24 => eval24::evaluate_for(
                pos,
                &self.config.weights,
                self.config.rule,
                Some(self.root_side.index()),
            ),
        }
    }

    /// Play `m` and record the new position on the search path (for repetitions).
    #[inline]
    fn play(&mut self, pos: &mut Position, m: Move) -> crate::shogi::UndoInfo {
        let moved = history_index(&*pos, m);
        let undo = pos.play_unchecked(m);
        self.push_entry(StackEntry {
            key: pos.key(),
            in_check: pos.is_in_check(),
            null: false,
            moved: Some(moved),
        });
        undo
    }

    fn time_up(&self, control: &Control) -> bool {
        Self::past(self.plan.hard, control)
    }

    fn soft_time_up(&self, control: &Control) -> bool {
        Self::past(self.plan.soft, control)
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
    fn check_abort(&mut self, control: &Control) -> bool {
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

    /// Put a position on the path.
    #[inline(always)]
    fn push_entry(&mut self, e: StackEntry) {
        self.key_counts[key_bucket(e.key)] += 1;
        self.stack.push(e);
    }

    /// Take the last position off the path.
    #[inline(always)]
    fn pop_entry(&mut self) {
        if let Some(e) = self.stack.pop() {
            self.key_counts[key_bucket(e.key)] -= 1;
        }
    }

    /// Terminal status of the node on top of the stack from the rules (not mate):
    /// `Some(score)` for the side to move.
    fn rules_terminal(&self, pos: &Position, ply: usize, in_check: bool) -> Option<i32> {
        let top = self.stack.len() - 1;
        let key = self.stack[top].key;
        // Repetition: same side to move, so every second entry (none can match when the
        // key's bucket holds only this entry).
        let mut i = if self.key_counts[key_bucket(key)] > 1 {
            top
        } else {
            0
        };
        let mut occurrences = 1;
        let mut first_in_path = None;
        while i >= 2 {
            if self.stack[i].null || self.stack[i - 1].null {
                break;
            }
            i -= 2;
            if self.stack[i].key == key {
                occurrences += 1;
                if i >= self.root_index && first_in_path.is_none() {
                    first_in_path = Some(i);
                }
                if first_in_path.is_none() && occurrences >= 4 {
                    first_in_path = Some(i);
                    break;
                }
                if first_in_path.is_some() {
                    break;
                }
            }
        }
        if let Some(j) = first_in_path {
            // Over the cycle j..=top: who was in check at every one of their turns?
            let us_always_checked = (j..=top).step_by(2).all(|k| self.stack[k].in_check);
            let them_always_checked = (j + 1..top).step_by(2).all(|k| self.stack[k].in_check);
            if us_always_checked && top > j {
                return Some(MATE - ply as i32);
            }
            if them_always_checked && top > j + 1 {
                return Some(-MATE + ply as i32);
            }
            return Some(0);
        }
        let max = self.config.max_moves_to_draw;
        if max > 0 && pos.move_number() as i64 > max as i64 && !in_check {
            return Some(0);
        }
        let rule = self.config.rule;
        if rule == EnteringKingRule::TryRule && try_rule_lost(pos) {
            return Some(-MATE + ply as i32);
        }
        if !in_check && can_declare_win(pos, rule) {
            return Some(MATE - ply as i32);
        }
        None
    }

    /// Whether the opponent would mate in one if the side to move (not in check) passed.
    #[inline]
    fn threatened(pos: &mut Position) -> bool {
        let undo = pos.do_null_move();
        let threat = solve_mate_in_one_in_place(pos).is_some();
        pos.undo_null_move(undo);
        threat
    }

    #[allow(clippy::too_many_arguments)] // the classical negamax signature
    fn negamax(
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
            if let Some(s) = self.rules_terminal(pos, ply, in_check) {
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
            self.push_entry(StackEntry {
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
            self.pop_entry();
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
        let row = self
            .heur
            .continuation_row(us, self.stack.last().and_then(|e| e.moved));
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
            self.pop_entry();
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

    fn qsearch(
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
            self.pop_entry();
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

    /// Search `root` (reached through the positions `history`: `(key, side to move in
    /// check)` of every earlier position of the game, oldest first) under `limits`.
    /// `on_info` is called after every completed iteration.
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
        let all: Vec<Move> = all.iter().copied().collect();
        let mut root_moves = match self.guard_root_moves(&mut pos, all, control) {
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
        let (best_move, best_score, mut best_pv, completed) =
            self.iterate(&mut pos, &mut root_moves, max_depth, control, on_info);
        if best_pv.first() != Some(&best_move) {
            best_pv = vec![best_move];
        }
        if root_draw && completed > 0 && self.draw_is_best(&pos, best_score, &best_pv) {
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
    fn start_search(&mut self, pos: &Position, history: &[(u64, bool)], limits: &Limits) {
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
        self.heur
            .enable_continuation(self.config.tweaks.continuation_history);
        self.stack.clear();
        self.key_counts.fill(0);
        for &(key, in_check) in history {
            self.push_entry(StackEntry {
                key,
                in_check,
                null: false,
                moved: None,
            });
        }
        self.root_index = self.stack.len();
        self.push_entry(StackEntry {
            key: pos.key(),
            in_check: pos.is_in_check(),
            null: false,
            moved: None,
        });
    }

    /// The mate guard, in both modes: take a short mate (`Err((move, plies))`), never
    /// allow one when it can be avoided (`Ok(the moves kept)`). The guard's time counts
    /// against the move's hard limit like the search's; in the full search it may take
    /// at most half of it, the rest is the search's.
    fn guard_root_moves(
        &self,
        pos: &mut Position,
        moves: Vec<Move>,
        control: &Control,
    ) -> Result<Vec<Move>, (Move, u32)> {
        let hard = match self.config.mode {
            Mode::Decl24 => self.plan.hard,
            Mode::Search => self.plan.hard.map(|h| h / 2),
        };
        let out_of_time = || control.stop.load(Ordering::Relaxed) || Self::past(hard, control);
        match guard::guard_root_until(pos, &moves, guard::GuardLimits::default(), &out_of_time) {
            guard::RootGuard::Mate(m, plies) => Err((m, plies)),
            guard::RootGuard::Moves(safe, _) => Ok(safe),
        }
    }

    /// Iterative deepening over `root_moves` up to `max_depth` or the time plan. Returns
    /// the best move, its score, its principal variation and the last completed depth.
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
        for depth in 1..=max_depth {
            let (score, mv, pv) = self.aspiration(pos, root_moves, depth, prev_score, control);
            if self.aborted {
                // Keep a move of the unfinished iteration only if it beat the old best.
                if let Some(m) = mv
                    && score > best_score
                    && completed > 0
                {
                    best_move = m;
                    best_pv = pv;
                }
                break;
            }
            if let Some(m) = mv {
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
            if self.soft_time_up(control) || control.stop.load(Ordering::Relaxed) {
                break;
            }
        }
        (best_move, best_score, best_pv, completed)
    }

    /// One iteration at `depth` in an aspiration window around `prev_score` (from depth
    /// 4, 40 wide, widened three times over on every failure).
    fn aspiration(
        &mut self,
        pos: &mut Position,
        root_moves: &mut [Move],
        depth: u32,
        prev_score: i32,
        control: &Control,
    ) -> (i32, Option<Move>, Vec<Move>) {
        let mut window = if depth >= 4 && prev_score.abs() < MATE_BOUND {
            40
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
                window *= 3;
                alpha = (s - window).max(-MATE - 1);
            } else if s >= beta && beta < MATE + 1 {
                window *= 3;
                beta = (s + window).min(MATE + 1);
            } else {
                return (s, m, pv);
            }
        }
    }

    /// The draw declaration, under a 24-point rule: only when the side owns fewer points
    /// than a win needs (owned points grow only by captures) and the search found no win
    /// (no mate, no line capturing its way to the points); never while a win is in
    /// reach. Being mated is worse than the draw.
    fn draw_is_best(&self, pos: &Position, best_score: i32, best_pv: &[Move]) -> bool {
        let target = evaluate_declaration(pos, self.config.rule).threshold;
        let us = pos.side_to_move();
        let no_win = best_score < MATE_BOUND
            && pos.owned_points(us) < target
            && !pv_reaches(pos, best_pv, target);
        no_win || best_score <= -MATE_BOUND
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
        let root_lmr = self.config.tweaks.root_reductions
            && self.config.mode == Mode::Search
            && depth >= 3
            && !pos.is_in_check();
        for (n, &m) in moves.iter().enumerate() {
            // Late quiet root moves that do not check are searched shallower first (by
            // one ply less than an interior node's reduction).
            let reduction = if root_lmr
                && n >= 4
                && !is_capture(pos, m)
                && !matches!(m, Move::Normal { promote: true, .. })
                && !pos.gives_check(m)
            {
                (self.lmr[(depth as usize).min(63)][n.min(63)] as i32 - 1).clamp(0, depth - 2)
            } else {
                0
            };
            let undo = self.play(pos, m);
            let mut s;
            if n == 0 {
                s = -self.negamax(pos, depth - 1, -beta, -alpha, 1, true, control);
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
                    s = -self.negamax(pos, depth - 1, -beta, -alpha, 1, true, control);
                }
            }
            self.pop_entry();
            pos.undo(m, undo);
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

#[cfg(test)]
mod tests {
    use super::*;

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
    fn score_words() {
        assert_eq!(score_usi(35), "cp 35");
        assert_eq!(score_usi(-35), "cp -35");
        assert_eq!(score_usi(MATE - 3), "mate 3");
        assert_eq!(score_usi(-MATE + 2), "mate -2");
    }

    #[test]
    fn mode_names() {
        assert_eq!("decl24".parse::<Mode>(), Ok(Mode::Decl24));
        assert_eq!("Search".parse::<Mode>(), Ok(Mode::Search));
        assert!("x".parse::<Mode>().is_err());
        assert_eq!(Mode::Decl24.to_string(), "decl24");
    }

    #[test]
    fn the_repetition_filter_changes_no_verdict() {
        // Random paths over a few keys (two of them share a filter bucket without being
        // equal), with checks and null moves: the verdict with the filter equals the one of
        // the full scan (forced by marking every bucket as shared).
        let pos = Position::startpos();
        let keys = [
            0x1000_0000_0000_0001u64,
            0x1000_0000_0000_0002,
            0x2000_0000_0000_0003,
            0x3000_0000_0000_0004,
            0x4000_0000_0000_0005,
        ];
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        let mut s = Searcher::new(1, Config::default());
        let mut repetitions = 0;
        for _ in 0..5_000 {
            s.stack.clear();
            s.key_counts.fill(0);
            let len = 1 + next(40) as usize;
            s.root_index = next(len as u64) as usize;
            for _ in 0..len {
                s.push_entry(StackEntry {
                    key: keys[next(keys.len() as u64) as usize],
                    in_check: next(3) == 0,
                    null: next(23) == 0,
                    moved: None,
                });
            }
            let ply = 1 + next(10) as usize;
            let got = s.rules_terminal(&pos, ply, false);
            s.key_counts.fill(u16::MAX / 2);
            let want = s.rules_terminal(&pos, ply, false);
            assert_eq!(got, want);
            repetitions += want.is_some() as u32;
        }
        assert!(repetitions > 500, "{repetitions} repetitions seen");
    }

    #[test]
    fn mate_scores_are_stored_relative_to_the_node() {
        let s = MATE - 7;
        assert_eq!(mate_from_tt(mate_to_tt(s, 4), 4), s);
        assert_eq!(mate_from_tt(mate_to_tt(s, 4), 2), s + 2);
        assert_eq!(mate_to_tt(123, 9), 123);
    }
}
