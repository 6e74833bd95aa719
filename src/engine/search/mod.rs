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
//!
//! The files, by concern: this one holds the public API (the configuration, the result,
//! the control flags); [`Searcher`] and its root (iterative deepening, aspiration, the
//! mate guard) are in `searcher.rs`, the interior nodes and quiescence in `alphabeta.rs`,
//! the engine rules read off the path of positions (repetition, perpetual check, move
//! limit, try rule, declarations) in `rules.rs`, and the USI words of what a search
//! reports in `info.rs`.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::eval24::Weights;
use crate::shogi::{EnteringKingRule, Move};

mod alphabeta;
mod info;
mod rules;
mod searcher;

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
    /// ([`super::learn::linear::builtin`]); `None`: the hand-made evaluation alone.
    pub linear: Option<std::sync::Arc<super::learn::linear::LinearWeights>>,
    /// A learned correction of the 24-point evaluation, added to it in [`Mode::Decl24`]
    /// (the `LinearWeights24` option; `None` by default).
    pub linear24: Option<std::sync::Arc<super::learn::linear::LinearWeights>>,
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
            linear: Some(super::learn::linear::builtin()),
            linear24: None,
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
