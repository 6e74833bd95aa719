//! What a replayed game ends with, whichever engines played it (every game is played by
//! [`super::play`]): the ending's word in the replay table ([`ReplayEnding`]) and each
//! side's entering-king counts ([`SideStats`]).

use crate::shogi::{Color, Position};

/// Entering-king counts of one side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SideStats {
    /// Non-king pieces in the enemy camp.
    pub zone: i32,
    /// Declaration points (camp + hand).
    pub points: i32,
    /// Owned points (board + hand).
    pub owned: i32,
    /// Whether the king stands in the enemy camp.
    pub king_in_camp: bool,
}

impl SideStats {
    /// The counts of side `c` in `pos`.
    pub fn of(pos: &Position, c: Color) -> SideStats {
        SideStats {
            zone: pos.zone_count(c),
            points: pos.declaration_points(c),
            owned: pos.owned_points(c),
            king_in_camp: pos.king_in_camp(c),
        }
    }
}

crate::words::word_enum! {
    /// How a replayed game ended, as the replay table (`ending`) names it: the words of
    /// [`super::Ending`], a start position not played included.
    pub enum ReplayEnding("replay ending") {
        /// A declaration win.
        Declaration => "declaration",
        /// A declaration with the points of a draw (24-point rules).
        DeclaredDraw => "declared_draw",
        /// No legal move.
        Mate => "mate",
        /// A resignation (outside engines).
        Resign => "resign",
        /// Fourfold repetition, drawn.
        Repetition => "repetition",
        /// Fourfold repetition with continuous checks.
        PerpetualCheck => "perpetual_check",
        /// The try rule.
        Try => "try",
        /// The replay's ply limit.
        Limit => "limit",
        /// An illegal or unreadable move, or an illegal declaration (outside engines).
        Illegal => "illegal",
        /// An outside engine did not answer in time.
        Timeout => "timeout",
        /// An outside engine ended or could not be started.
        EngineCrash => "engine_crash",
        /// Not played: a 24-point rule allows no declaration past move 500.
        PastMove500 => "past_move_500",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replay_endings_round_trip_and_reject_unknown_words() {
        for &e in ReplayEnding::ALL {
            assert_eq!(e.name().parse::<ReplayEnding>(), Ok(e));
        }
        let mut names = ReplayEnding::NAMES.to_vec();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), ReplayEnding::ALL.len());
        let e = "declared".parse::<ReplayEnding>().unwrap_err();
        assert_eq!((e.what, e.word.as_str()), ("replay ending", "declared"));
        // A game names its endings through the table.
        assert_eq!(
            super::super::Ending::Crash(Color::White).name(),
            "engine_crash"
        );
        assert_eq!(
            super::super::Ending::PerpetualCheck(Color::Black).kind(),
            ReplayEnding::PerpetualCheck
        );
    }
}
