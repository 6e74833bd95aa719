//! The built-in engine as a [`Player`]: its searcher, in-process, under a per-move limit.
use std::time::Instant;

use super::game::{GameView, Player};
use super::usi::{Answer, BestMove, EngineFailure};
use crate::engine::search::{Config, Control, Decision, Searcher};
use crate::engine::time::Limits;
use crate::shogi::EnteringKingRule;

/// The built-in searcher playing with a limit on every move (nodes or depth keep games
/// reproducible).
pub struct EnginePlayer {
    /// The searcher (its table lives across the moves of a game).
    pub searcher: Searcher,
    /// The limit of every move.
    pub per_move: Limits,
    name: String,
}

impl EnginePlayer {
    /// A player with a fresh searcher of `config`, a table of `hash_mb`, searching under
    /// `rule` whatever `config` says (the game's rule).
    pub fn new(config: Config, hash_mb: usize, per_move: Limits, rule: EnteringKingRule) -> Self {
        let mut searcher = Searcher::new(hash_mb, config);
        searcher.config.rule = rule;
        EnginePlayer::with_searcher(searcher, per_move)
    }

    /// A player of a searcher made by the caller.
    pub fn with_searcher(searcher: Searcher, per_move: Limits) -> Self {
        EnginePlayer {
            searcher,
            per_move,
            name: String::new(),
        }
    }

    /// The same player under another name in the tables.
    pub fn named(mut self, name: &str) -> Self {
        self.name = name.to_string();
        self
    }

    /// The search's decision on the position of `game`.
    pub fn decide(&mut self, game: &GameView<'_>) -> (Decision, u64) {
        let prior = game.history.prior();
        let control = Control::new(false);
        let r = self
            .searcher
            .search(game.position, &prior, &self.per_move, &control, &mut |_| {});
        (r.decision, r.nodes)
    }
}

impl Player for EnginePlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self) -> Result<(), EngineFailure> {
        Ok(())
    }

    fn think(&mut self, game: &GameView<'_>) -> Result<Answer, EngineFailure> {
        let t0 = Instant::now();
        let (decision, nodes) = self.decide(game);
        let best = match decision {
            Decision::Move(m) => BestMove::Move(m.to_usi()),
            // A draw is declared as a win is, and the referee judges its points.
            Decision::Win | Decision::DeclareDraw => BestMove::Win,
            Decision::Resign => BestMove::Resign,
        };
        Ok(Answer {
            best,
            elapsed: t0.elapsed(),
            nodes,
            score: None,
        })
    }

    fn declares_at_once(&self) -> bool {
        true
    }
}
