//! What a search reports, in USI words: the `info` of a completed iteration, a score as
//! `cp N` or `mate N`, and the decision as `bestmove`'s argument.

use std::time::Duration;

use super::{Decision, MATE, MATE_BOUND};
use crate::engine::tt::Bound;
use crate::shogi::Move;

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_words() {
        assert_eq!(score_usi(35), "cp 35");
        assert_eq!(score_usi(-35), "cp -35");
        assert_eq!(score_usi(MATE - 3), "mate 3");
        assert_eq!(score_usi(-MATE + 2), "mate -2");
    }
}
