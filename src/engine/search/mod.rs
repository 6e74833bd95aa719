//! The alpha-beta search: iterative deepening, principal-variation search with aspiration
//! windows, a transposition table, the selective prunings and reductions of a modern
//! engine (each a switch: [`Prunings`]), a quiescence search over captures and evasions,
//! move ordering by main, capture and continuation histories, killers and counter moves,
//! mate in one from the attack tables, and the engine rules as terminal nodes: repetition and
//! perpetual check against the game history plus the search path, the move limit, the try
//! rule and the declaration win of the side to move.
//!
//! Two objectives share the search: the normal evaluation ([`Mode::Search`]) and the
//! 24-point engine ([`Mode::Decl24`]), which scores closeness to a declaration win and
//! leaves the root to its mate guard ([`super::guard`]): a short mate is played, moves
//! that allow one are refused.
//!
//! The files, by concern: this one holds the public API (the configuration, the result,
//! the control flags); [`Searcher`] and its root (iterative deepening, aspiration, the
//! mate guard) are in `searcher.rs`, the interior nodes and quiescence in `alphabeta.rs`,
//! the engine rules read off the path of positions (repetition, perpetual check, move
//! limit, try rule, declarations) in `rules.rs`, and the USI words of what a search
//! reports in `info.rs`.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::eval::eval24::Weights;
use crate::shogi::{EnteringKingRule, Move};

mod alphabeta;
mod info;
mod rules;
mod searcher;
mod stack;

pub use info::{Info, score_usi};
pub use searcher::Searcher;
// The declaration predicates live with the rest of the rule facts in `shogi::rules`.
pub use crate::shogi::{can_declare_draw, can_declare_win};

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
    /// The learned linear evaluation used in [`Mode::Search`] (the `LinearWeights`
    /// option): by default the compiled-in correction of the hand-made evaluation
    /// ([`super::eval::linear::builtin`]); `None`: the hand-made evaluation alone.
    pub linear: Option<std::sync::Arc<super::eval::linear::LinearWeights>>,
    /// A learned correction of the 24-point evaluation, added to it in [`Mode::Decl24`]
    /// (the `LinearWeights24` option; `None` by default).
    pub linear24: Option<std::sync::Arc<super::eval::linear::LinearWeights>>,
    /// The king-relative piece evaluation added in [`Mode::Search`] (the `KingPieceWeights`
    /// option; `None` by default), kept up to date move by move
    /// ([`super::eval::king_piece`]).
    pub king_piece: Option<std::sync::Arc<super::eval::king_piece::KingPieceWeights>>,
    /// The full search's prunings and extensions (see [`Prunings`]).
    pub prunings: Prunings,
    /// The mate guard before the full search (the `RootGuard` option; the 24-point mode
    /// always has it): a short mate by checks is played at once, and root moves that
    /// allow a short mate are refused, within a tenth of the move's time.
    pub root_guard: bool,
    /// How far the root guard looks (the `GuardPlies`, `GuardEveryMovePlies`,
    /// `GuardBudget`, `GuardDfpnNodes` and `GuardDfpnPlies` options).
    pub guard: super::guard::GuardLimits,
    /// Quiescence choices under trial (see [`Tweaks`]).
    pub tweaks: Tweaks,
}

/// The full search's prunings and extensions, each a switch (and a USI option) so that a
/// match can set one build against itself (`floodgate-scan sprt`) and a test can check
/// each alone. The 24-point mode uses them too unless `Selective24` is off (then none).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Prunings {
    /// Razoring near the leaves (`Razoring`).
    pub razoring: bool,
    /// Reverse futility up to depth 8 (`ReverseFutility`).
    pub reverse_futility: bool,
    /// The null move at cut nodes, verified at high depth (`NullMove`).
    pub null_move: bool,
    /// ProbCut by captures (`ProbCut`).
    pub probcut: bool,
    /// Internal iterative reduction without a table move (`InternalIterativeReduction`).
    pub iir: bool,
    /// The singular extension of the table move, with its multi-cut
    /// (`SingularExtension`; off).
    pub singular: bool,
    /// Late-move reductions (`LateMoveReductions`).
    pub lmr: bool,
    /// Move-count pruning of late quiet moves (`MoveCountPruning`).
    pub move_count: bool,
    /// Futility of quiet moves and captures by the reduced depth (`Futility`).
    pub futility: bool,
    /// Exchange (SEE) pruning of captures, checks and quiet moves (`SeePruning`).
    pub see: bool,
    /// Pruning of quiet moves with a bad history (`HistoryPruning`).
    pub history: bool,
    /// Extend checks that the exchange does not lose (`CheckExtension`; off).
    pub check_extension: bool,
    /// Correct the static evaluation by what searches of positions with the same pawns
    /// found (`CorrectionHistory`).
    pub correction: bool,
}

/// A switch of [`Prunings`]: its USI option name and its field.
pub type PruningSwitch = (&'static str, fn(&mut Prunings) -> &mut bool);

impl Prunings {
    /// Every pruning and extension off: the plain alpha-beta.
    pub const NONE: Prunings = Prunings {
        razoring: false,
        reverse_futility: false,
        null_move: false,
        probcut: false,
        iir: false,
        singular: false,
        lmr: false,
        move_count: false,
        futility: false,
        see: false,
        history: false,
        check_extension: false,
        correction: false,
    };

    /// The USI option name of each switch, with a getter and setter.
    pub const SWITCHES: [PruningSwitch; 13] = [
        ("Razoring", |p| &mut p.razoring),
        ("ReverseFutility", |p| &mut p.reverse_futility),
        ("NullMove", |p| &mut p.null_move),
        ("ProbCut", |p| &mut p.probcut),
        ("InternalIterativeReduction", |p| &mut p.iir),
        ("SingularExtension", |p| &mut p.singular),
        ("LateMoveReductions", |p| &mut p.lmr),
        ("MoveCountPruning", |p| &mut p.move_count),
        ("Futility", |p| &mut p.futility),
        ("SeePruning", |p| &mut p.see),
        ("HistoryPruning", |p| &mut p.history),
        ("CheckExtension", |p| &mut p.check_extension),
        ("CorrectionHistory", |p| &mut p.correction),
    ];
}

impl Default for Prunings {
    /// Every pruning on; the singular extension (no gain shown: +4.1 Elo, -21.6 to +29.8,
    /// over 600 games at 10,000 nodes), the check extension and the correction history
    /// (+7.1 Elo, -7.0 to +21.3, over 2,000 games at 4,000 nodes) off.
    fn default() -> Self {
        Prunings {
            razoring: true,
            reverse_futility: true,
            null_move: true,
            probcut: true,
            iir: true,
            singular: false,
            lmr: true,
            move_count: true,
            futility: true,
            see: true,
            history: true,
            check_extension: false,
            correction: false,
        }
    }
}

/// Choices of the quiescence search under trial, each a USI option.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tweaks {
    /// Quiescence of the full search also tries pawn moves that promote without
    /// capturing, when the exchange on their square does not lose (the
    /// `QuiescencePromotions` option).
    pub quiescence_promotions: bool,
    /// Quiescence plies (from the first) at which the full search looks for the side to
    /// move's mate in one before its captures (the `QuiescenceMatePlies` option; 64:
    /// every ply).
    pub quiescence_mate_plies: u32,
    /// The 24-point mode extends a node in check by a ply (up to twice the root's
    /// depth; the `CheckExtension24` option).
    pub check_extension24: bool,
    /// In the 24-point mode, the longest mate by checks (plies, odd) the first
    /// quiescence ply looks for before its captures (1: mate in one, as with the threat
    /// tests; the `QuiescenceMatePlies24` option). Its attack nodes count as nodes.
    pub quiescence_mate_plies24: u32,
    /// The 24-point mode searches with the full search's prunings and reductions (its
    /// evaluation, quiescence, mate tests and check extension kept; the `Selective24`
    /// option).
    pub selective24: bool,
    /// The full search's move-count pruning limit in percent of `(3 + depth^2) / (2 -
    /// improving)`, the chess engines' rule (the `MoveCountPercent` option; shogi has
    /// about three times their moves a position). The 24-point mode keeps 100.
    pub move_count_percent: u32,
    /// The late-move reductions in percent of `ln(depth) ln(n) / 2.25` plies (the
    /// `LmrPercent` option).
    pub lmr_percent: u32,
    /// The quiet moves' futility margin in percent of `120 + 110 lmr_depth` (the
    /// `FutilityPercent` option).
    pub futility_percent: u32,
    /// The reverse futility margin in percent of `110 (depth - improving)` (the
    /// `ReverseFutilityPercent` option).
    pub reverse_futility_percent: u32,
}

impl Default for Tweaks {
    fn default() -> Self {
        Tweaks {
            quiescence_promotions: false,
            move_count_percent: 500,
            lmr_percent: 100,
            futility_percent: 100,
            reverse_futility_percent: 100,
            quiescence_mate_plies: 64,
            check_extension24: true,
            quiescence_mate_plies24: 1,
            selective24: true,
        }
    }
}

/// How the search treats a mate in one that the opponent threatens (tested by passing
/// in place and asking for the opponent's mate in one). At nodes of depth <= 2 a threat
/// turns off every pruning of the full search (the cuts before the moves and the move
/// loop's) and reduces late moves a ply less, so every defence is searched; a null move
/// that fails low to a mate marks its node the same way; in quiescence the stand-pat
/// score of a threatened side is lowered by `penalty` (at the first `quiescence_plies`
/// plies). The tests are a switch of each mode: off in the full search (at fixed time
/// they cost more than they find: `reports/engine.md`), on in the 24-point mode (its
/// guard against losing the king).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Threats {
    /// Test for threats in the full search (the `Threats` option).
    pub enabled: bool,
    /// Test for threats in the 24-point mode (the `Threats24` option).
    pub decl24: bool,
    /// Centipawns taken off a threatened side's stand pat in quiescence (the
    /// `ThreatPenalty` option).
    pub penalty: i32,
    /// Quiescence plies (from the first) at which the two mate-in-one tests run (the
    /// `ThreatQuiescencePlies` option).
    pub quiescence_plies: u32,
    /// In the 24-point mode, the longest mate by checks (plies, odd) the threat test
    /// looks for after the pass (1: mate in one only; the `ThreatPlies24` option).
    pub plies24: u32,
}

impl Default for Threats {
    fn default() -> Self {
        Threats {
            enabled: false,
            decl24: true,
            penalty: DEFAULT_THREAT_PENALTY,
            quiescence_plies: 1,
            plies24: 1,
        }
    }
}

impl Threats {
    /// Whether the tests run in `mode`.
    #[inline]
    pub fn on(&self, mode: Mode) -> bool {
        match mode {
            Mode::Search => self.enabled,
            Mode::Decl24 => self.decl24,
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
            linear: Some(super::eval::linear::builtin()),
            linear24: None,
            king_piece: None,
            prunings: Prunings::default(),
            root_guard: true,
            guard: super::guard::GuardLimits::default(),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mode_names() {
        assert_eq!("decl24".parse::<Mode>(), Ok(Mode::Decl24));
        assert_eq!("Search".parse::<Mode>(), Ok(Mode::Search));
        assert!("x".parse::<Mode>().is_err());
        assert_eq!(Mode::Decl24.to_string(), "decl24");
    }
}
