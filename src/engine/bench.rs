//! The fixed benchmark: a set of positions searched to a fixed depth from an empty table.
//! The total node count is a signature that changes only when search behaviour changes;
//! nodes per second measure speed.
use std::time::{Duration, Instant};

use super::search::{Config, Control, Mode, Searcher};
use super::time::Limits;
use crate::shogi::{
    EnteringKingRule, IllegalMoveKind, Move, Position, PositionParseError, UsiMoveError,
};

/// Default depth of `bench` in the full search.
pub const DEFAULT_DEPTH: u32 = 12;
/// Default depth of `bench` in the 24-point mode (10 since it takes the full search's
/// prunings, `Selective24`; the plain search took depth 5).
pub const DEFAULT_DEPTH_DECL24: u32 = 10;

/// The bench positions: the start position, positions reached by fixed openings, and
/// entering-king positions of real games (first ply of mutual entering king).
pub const POSITIONS: &[(&str, &str)] = &[
    ("startpos", ""),
    (
        "startpos",
        "7g7f 3c3d 2g2f 4c4d 3i4h 3a4b 5i6h 5a6b 6h7h 4b4c 5g5f 7a7b",
    ),
    (
        "startpos",
        "2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 2e2d 2c2d 2h2d 8e8f 8g8f 8b8f",
    ),
    (
        "startpos",
        "7g7f 8c8d 2h7h 8d8e 8h7g 3c3d 7i6h 7a6b 5i4h 5a4b 4h3h 4b3b",
    ),
    (
        "l7l/3+S1+N+RS1/1G1pp1KP1/p4p1G1/2p3p1p/PP1P5/5kP1P/5+p1r1/LNs4NL w B2GN4Pbs 162",
        "",
    ),
    (
        "2+L3+BRS/l5+P1+P/pG+P2p2K/4n3P/3+s5/1Pp6/P3p1+r2/1+p1+p5/2kP4L w B3GS3NL5Ps 226",
        "",
    ),
    (
        "7+R1/6+R1+P/K+P+N1+P4/2+BP5/1SG3G2/P1P4g1/2+p+b2+p+n+p/7k1/5+p2+s w 2SLPg2n3l7p 232",
        "",
    ),
];

/// Result of a bench run.
#[derive(Debug, Clone)]
pub struct BenchResult {
    /// Positions searched.
    pub positions: usize,
    /// Depth each was searched to.
    pub depth: u32,
    /// Total nodes: the signature.
    pub nodes: u64,
    /// Wall-clock time of all the searches (setting the positions up excluded).
    pub time: Duration,
}

impl BenchResult {
    /// Nodes per second over the whole run.
    pub fn nps(&self) -> u64 {
        let us = self.time.as_micros().max(1) as u64;
        self.nodes * 1_000_000 / us
    }
}

/// A bench position that cannot be set up (the SFEN or move at fault, and why).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BenchError {
    /// The SFEN cannot be read or describes an illegal position.
    #[error("{sfen}: {error}")]
    Sfen {
        /// The SFEN as given.
        sfen: String,
        /// What is wrong with it.
        error: PositionParseError,
    },
    /// A move that is not USI move text.
    #[error("{text}: {error}")]
    UnreadableMove {
        /// The move as written.
        text: String,
        /// Why it cannot be read.
        error: UsiMoveError,
    },
    /// A move that is illegal where it is played.
    #[error("{text}: {}", .kind.name())]
    IllegalMove {
        /// The move as written.
        text: String,
        /// Why it is illegal.
        kind: IllegalMoveKind,
    },
}

/// A bench position as a [`Position`] (`Err` names what could not be read).
pub fn position(sfen: &str, moves: &str) -> Result<Position, BenchError> {
    let mut pos = if sfen == "startpos" {
        Position::startpos()
    } else {
        Position::from_sfen(sfen).map_err(|error| BenchError::Sfen {
            sfen: sfen.to_string(),
            error,
        })?
    };
    for t in moves.split_whitespace() {
        let m = Move::from_usi(t).map_err(|error| BenchError::UnreadableMove {
            text: t.to_string(),
            error,
        })?;
        pos.play(m).map_err(|kind| BenchError::IllegalMove {
            text: t.to_string(),
            kind,
        })?;
    }
    Ok(pos)
}

/// Run the bench at `depth` in `mode` with a `hash_mb` table per position.
pub fn run(depth: u32, mode: Mode, hash_mb: usize) -> Result<BenchResult, BenchError> {
    let config = Config {
        mode,
        ..Config::default()
    };
    run_with(depth, config, hash_mb)
}

/// Run the bench at `depth` with `config` (its rule is set to the 24-point rule and its
/// move limit cleared, as in [`run`]) and a `hash_mb` table per position.
pub fn run_with(depth: u32, mut config: Config, hash_mb: usize) -> Result<BenchResult, BenchError> {
    config.rule = EnteringKingRule::CSARule24;
    config.max_moves_to_draw = 0;
    let positions: Vec<Position> = POSITIONS
        .iter()
        .map(|(s, m)| position(s, m))
        .collect::<Result<_, _>>()?;
    let mut nodes = 0;
    let start = Instant::now();
    for pos in &positions {
        let mut searcher = Searcher::new(hash_mb, config.clone());
        let control = Control::new(false);
        let r = searcher.search(pos, &[], &Limits::depth(depth), &control, &mut |_| {});
        nodes += r.nodes;
    }
    Ok(BenchResult {
        positions: positions.len(),
        depth,
        nodes,
        time: start.elapsed(),
    })
}
