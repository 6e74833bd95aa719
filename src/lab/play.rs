//! Games of the built-in engine under the engine rules, on the referee's one game loop
//! ([`crate::referee::play`]): the engine that `replay` uses to continue the endings the
//! move limit cut off, and that `sprt`, `tune` and `validate` use for self-play. A game ends
//! by a declaration win, mate, repetition (the 4th occurrence, with perpetual check), the
//! try rule, a declared draw (24-point rules), or the ply limit.
use crate::engine::search::Config;
use crate::engine::time::Limits;
use crate::referee::{
    AutoDeclare, EnginePlayer, Game, GameError, NoObserver, Player, RefereeSettings, SideStats,
};
use crate::shogi::{EnteringKingRule, History, Position};

/// How the games are played.
#[derive(Debug, Clone)]
pub struct GameSettings {
    /// The entering-king rule of the game (both players search under it, whatever
    /// their [`Config`] says).
    pub rule: EnteringKingRule,
    /// Plies after which the game stops as [`crate::referee::Ending::Limit`].
    pub max_plies: u32,
    /// Limits of each move (nodes or depth: time limits make games irreproducible).
    pub per_move: Limits,
    /// Transposition table size of each player, in MB.
    pub hash_mb: usize,
}

impl GameSettings {
    /// How the referee judges these games: the rule and the ply limit; the built-in engine
    /// declares for itself.
    pub fn referee(&self) -> RefereeSettings {
        RefereeSettings {
            rule: self.rule,
            max_plies: self.max_plies,
            auto_declare: AutoDeclare::Off,
        }
    }

    /// A built-in player of `config` for these games.
    pub fn player(&self, config: &Config) -> EnginePlayer {
        EnginePlayer::new(
            config.clone(),
            self.hash_mb,
            self.per_move.clone(),
            self.rule,
        )
    }
}

/// Play a game from `start`: `players[0]` plays Black, `players[1]` White, each with a
/// searcher of its own.
pub fn play_game(start: &Position, players: [&Config; 2], settings: &GameSettings) -> Game {
    let [mut black, mut white] = players.map(|c| settings.player(c));
    play_builtin(
        start,
        History::new(start),
        [&mut black, &mut white],
        settings,
    )
}

/// Play a game of built-in players from `start`, reached through `history` (whose last
/// position is `start`; earlier positions count for repetitions).
pub fn play_builtin(
    start: &Position,
    history: History,
    players: [&mut EnginePlayer; 2],
    settings: &GameSettings,
) -> Game {
    let [b, w] = players;
    let players: [&mut dyn Player; 2] = [b, w];
    match crate::referee::play(
        start,
        history,
        players,
        &settings.referee(),
        &mut NoObserver,
    ) {
        Ok(g) => g,
        // The built-in players answer every question and nothing observes.
        Err(GameError::Interrupted | GameError::Observer(_)) => {
            unreachable!("a game of built-in players has no failure")
        }
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
    use crate::referee::Ending;
    use crate::shogi::Color;

    fn settings(rule: EnteringKingRule, max_plies: u32) -> GameSettings {
        GameSettings {
            rule,
            max_plies,
            per_move: Limits::nodes(300),
            hash_mb: 1,
        }
    }

    #[test]
    fn the_engine_declares_at_once_and_the_game_says_so() {
        // Black to move with its king and 10 pieces in the camp and 28+ points.
        let pos =
            Position::from_sfen("+R+B+S+S+S+SGGK/+N+N+N+N5/9/9/9/9/9/9/k8 b RB2G4L18P 1").unwrap();
        let c = Config::default();
        let g = play_game(&pos, [&c, &c], &settings(EnteringKingRule::CSARule27, 10));
        assert_eq!(g.ending, Ending::Declaration(Color::Black));
        assert_eq!(g.declarer, Some(crate::referee::Declarer::Engine));
        assert_eq!((g.plies, g.answers), (0, [0, 0]));
        assert_eq!(g.ending.winner(), Some(Color::Black));
    }

    #[test]
    fn a_game_stops_at_the_ply_limit_with_every_answer_counted() {
        let pos = Position::startpos();
        let g = play_game(
            &pos,
            [&Config::default(), &Config::default()],
            &settings(EnteringKingRule::CSARule27, 6),
        );
        assert_eq!(g.plies, 6);
        assert_eq!(g.ending, Ending::Limit);
        assert_eq!(g.answers, [3, 3]);
        assert!(g.nodes > 0);
    }
}
