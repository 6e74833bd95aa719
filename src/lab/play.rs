//! Engine-versus-engine games from a start position under the engine rules: the engine
//! that `replay` uses to continue the endings the move limit cut off, and that `tune` and
//! `validate` use for self-play. A game ends by a declaration win, mate, repetition (the
//! 4th occurrence, with perpetual check), the try rule, a declared draw (24-point rules),
//! or the ply limit.
use crate::engine::search::{Config, Control, Decision, Searcher, can_declare_win};
use crate::engine::time::Limits;
use crate::referee::{ReplayEnding, SideStats};
use crate::shogi::{Color, EnteringKingRule, Move, Position, try_rule_reached};

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// The side to move declared a win.
    Declaration(Color),
    /// The side to move declared with 24-30 points under a 24-point rule: a draw.
    DeclaredDraw(Color),
    /// The side to move had no legal move; the other side won.
    Mate(Color),
    /// Fourfold repetition, drawn.
    Repetition,
    /// Fourfold repetition with continuous checks: the checking side lost.
    PerpetualCheck(Color),
    /// The try rule: this side's king reached the try square.
    Try(Color),
    /// The ply limit of the replay.
    Limit,
}

impl Ending {
    /// The winner, if any.
    pub fn winner(self) -> Option<Color> {
        match self {
            Ending::Declaration(c) | Ending::Try(c) => Some(c),
            Ending::Mate(loser) | Ending::PerpetualCheck(loser) => Some(loser.opposite()),
            Ending::DeclaredDraw(_) | Ending::Repetition | Ending::Limit => None,
        }
    }

    /// The ending's word in the tables.
    pub fn kind(self) -> ReplayEnding {
        match self {
            Ending::Declaration(_) => ReplayEnding::Declaration,
            Ending::DeclaredDraw(_) => ReplayEnding::DeclaredDraw,
            Ending::Mate(_) => ReplayEnding::Mate,
            Ending::Repetition => ReplayEnding::Repetition,
            Ending::PerpetualCheck(_) => ReplayEnding::PerpetualCheck,
            Ending::Try(_) => ReplayEnding::Try,
            Ending::Limit => ReplayEnding::Limit,
        }
    }

    /// Short name for tables ([`ReplayEnding::name`] of [`Ending::kind`]).
    pub fn name(self) -> &'static str {
        self.kind().name()
    }
}

/// A finished game.
#[derive(Debug, Clone)]
pub struct GameRecord {
    /// Both sides' counts at the start ([`Color::index`] order: Black, White).
    pub start: [SideStats; 2],
    /// Both sides' counts at the end.
    pub end: [SideStats; 2],
    /// How the game ended.
    pub ending: Ending,
    /// Plies played.
    pub plies: u32,
    /// First ply (0 = the start) at which each side had 10 pieces in the camp.
    pub first_ten: [Option<u32>; 2],
    /// The moves played, from the start.
    pub moves: Vec<Move>,
    /// Nodes searched by both sides over the game.
    pub nodes: u64,
    /// Not played: no declaration is possible from the start position (a 24-point rule
    /// past move 500; set by `replay`).
    pub past_move_limit: bool,
    /// Each side's searches, timed and summed (Black, White).
    pub think: [std::time::Duration; 2],
    /// Each side's searches (Black, White).
    pub answers: [u32; 2],
}

/// How the games are played.
#[derive(Debug, Clone)]
pub struct GameSettings {
    /// The entering-king rule of the game (both players search under it, whatever
    /// their [`Config`] says).
    pub rule: EnteringKingRule,
    /// Plies after which the game stops as [`Ending::Limit`].
    pub max_plies: u32,
    /// Limits of each move (nodes or depth: time limits make games irreproducible).
    pub per_move: Limits,
    /// Transposition table size of each player, in MB.
    pub hash_mb: usize,
}

/// A fourfold repetition after the last move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Repetition {
    Draw,
    /// The side that just moved gave check at every move of the cycle: it loses.
    JustMovedLoses,
    /// The side to move gave check at every move of the cycle: it loses.
    ToMoveLoses,
}

/// Repetition status after the last move (`history[k]`: key, side to move in check).
fn repetition(history: &[(u64, bool)]) -> Option<Repetition> {
    let top = history.len() - 1;
    let key = history[top].0;
    let mut count = 1;
    let mut i = top;
    let mut earliest = top;
    while i >= 2 {
        i -= 2;
        if history[i].0 == key {
            count += 1;
            earliest = i;
            if count == 4 {
                break;
            }
        }
    }
    if count < 4 {
        return None;
    }
    // Entries top, top-2, ... belong to the side to move now; the others to the side that
    // just moved.
    let to_move_checked = (earliest..=top).step_by(2).all(|k| history[k].1);
    let just_moved_checked = (earliest + 1..top).step_by(2).all(|k| history[k].1);
    Some(if to_move_checked {
        Repetition::JustMovedLoses
    } else if just_moved_checked {
        Repetition::ToMoveLoses
    } else {
        Repetition::Draw
    })
}

/// Play a game from `start`: `players[0]` plays Black, `players[1]` White.
pub fn play_game(start: &Position, players: [&Config; 2], settings: &GameSettings) -> GameRecord {
    let [mut black, mut white] = [
        Searcher::new(settings.hash_mb, players[0].clone()),
        Searcher::new(settings.hash_mb, players[1].clone()),
    ];
    play_game_with(start, &[], [&mut black, &mut white], settings)
}

/// Play a game from `start`, reached through the positions `prior` (`(key, in check)`,
/// oldest first; they count for repetitions), with searchers made by the caller (each
/// with its own table and configuration): `searchers[0]` plays Black, `searchers[1]`
/// White. Both search under the game's rule.
pub fn play_game_with(
    start: &Position,
    prior: &[(u64, bool)],
    mut searchers: [&mut Searcher; 2],
    settings: &GameSettings,
) -> GameRecord {
    for s in &mut searchers {
        s.config.rule = settings.rule;
    }
    let mut pos = start.clone();
    let mut history: Vec<(u64, bool)> = prior.to_vec();
    history.push((pos.key(), pos.is_in_check()));
    let start_stats = [
        SideStats::of(&pos, Color::Black),
        SideStats::of(&pos, Color::White),
    ];
    let mut first_ten = [None, None];
    let mut moves = Vec::new();
    let mut nodes = 0;
    let mut think = [std::time::Duration::ZERO; 2];
    let mut answers = [0u32; 2];
    let note_ten = |pos: &Position, ply: u32, first_ten: &mut [Option<u32>; 2]| {
        for c in Color::ALL {
            if first_ten[c.index()].is_none()
                && pos.zone_count(c) >= crate::shogi::DECLARATION_ZONE_PIECES
            {
                first_ten[c.index()] = Some(ply);
            }
        }
    };
    note_ten(&pos, 0, &mut first_ten);
    let ending = loop {
        let ply = moves.len() as u32;
        let us = pos.side_to_move();
        if !pos.is_in_check() && can_declare_win(&pos, settings.rule) {
            break Ending::Declaration(us);
        }
        if ply >= settings.max_plies {
            break Ending::Limit;
        }
        let prior = &history[..history.len() - 1];
        let control = Control::new(false);
        let t0 = std::time::Instant::now();
        let result =
            searchers[us.index()].search(&pos, prior, &settings.per_move, &control, &mut |_| {});
        think[us.index()] += t0.elapsed();
        answers[us.index()] += 1;
        nodes += result.nodes;
        let m = match result.decision {
            Decision::Move(m) => m,
            Decision::Win => break Ending::Declaration(us),
            Decision::DeclareDraw => break Ending::DeclaredDraw(us),
            Decision::Resign => break Ending::Mate(us),
        };
        if pos.play(m).is_err() {
            // The search only plays legal moves; treat anything else as a loss.
            break Ending::Mate(us);
        }
        moves.push(m);
        history.push((pos.key(), pos.is_in_check()));
        note_ten(&pos, ply + 1, &mut first_ten);
        if let Some(r) = repetition(&history) {
            break match r {
                Repetition::Draw => Ending::Repetition,
                Repetition::JustMovedLoses => Ending::PerpetualCheck(us),
                Repetition::ToMoveLoses => Ending::PerpetualCheck(us.opposite()),
            };
        }
        if settings.rule == EnteringKingRule::TryRule && try_rule_reached(&pos, us) {
            break Ending::Try(us);
        }
    };
    GameRecord {
        start: start_stats,
        end: [
            SideStats::of(&pos, Color::Black),
            SideStats::of(&pos, Color::White),
        ],
        ending,
        plies: moves.len() as u32,
        first_ten,
        moves,
        nodes,
        past_move_limit: false,
        think,
        answers,
    }
}

/// Progress towards a declaration at the end of a game, in [0, 1] (zone count towards 10
/// and declaration points towards the target, averaged).
pub fn progress(s: &SideStats, target: i32) -> f64 {
    let ten = crate::shogi::DECLARATION_ZONE_PIECES;
    (s.zone.min(ten) as f64 / ten as f64 + s.points.min(target) as f64 / target as f64) / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endings_are_named_through_the_replay_table() {
        // The refereed games' side and the table's own words: `crate::referee::outcome`.
        assert_eq!(Ending::Declaration(Color::Black).name(), "declaration");
        assert_eq!(Ending::Limit.kind(), ReplayEnding::Limit);
    }

    #[test]
    fn fourfold_repetition_and_perpetual_check() {
        // Keys cycle A B C D A B C D ...; nobody in check: a draw at the 4th A.
        let mut h = Vec::new();
        for i in 0..13 {
            h.push(([1u64, 2, 3, 4][i % 4], false));
            let r = repetition(&h);
            if i < 12 {
                assert_eq!(r, None, "ply {i}");
            } else {
                assert_eq!(r, Some(Repetition::Draw));
            }
        }
        // The side to move at A (and C) was in check every time: the other side checked
        // perpetually and, having just moved, loses.
        let h: Vec<(u64, bool)> = (0..13)
            .map(|i| ([1u64, 2, 3, 4][i % 4], i % 2 == 0))
            .collect();
        assert_eq!(repetition(&h), Some(Repetition::JustMovedLoses));
        // The side that just moved was in check at every one of its turns: the side to move
        // checked perpetually and loses.
        let h: Vec<(u64, bool)> = (0..13)
            .map(|i| ([1u64, 2, 3, 4][i % 4], i % 2 == 1))
            .collect();
        assert_eq!(repetition(&h), Some(Repetition::ToMoveLoses));
    }

    #[test]
    fn winners() {
        assert_eq!(Ending::Mate(Color::Black).winner(), Some(Color::White));
        assert_eq!(
            Ending::Declaration(Color::White).winner(),
            Some(Color::White)
        );
        assert_eq!(
            Ending::PerpetualCheck(Color::White).winner(),
            Some(Color::Black)
        );
        assert_eq!(Ending::Limit.winner(), None);
    }
}
