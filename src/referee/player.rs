//! An outside USI engine as a [`Player`]: the command that starts it, its options and the
//! limit of every `go`, started on first use and afresh after a crash or a timeout.
use std::time::Duration;

use super::game::{GameResult, GameView, Player};
use super::usi::{Answer, EngineFailure, GoLimit, UsiEngine};

/// How to start an outside engine and how it thinks.
#[derive(Debug, Clone)]
pub struct EngineSpec {
    /// The command line (split at whitespace).
    pub command: String,
    /// `setoption` pairs, in order.
    pub options: Vec<(String, String)>,
    /// The limit of every `go`.
    pub limit: GoLimit,
    /// How long any answer may take before the engine is killed.
    pub timeout: Duration,
}

/// An outside engine as a [`Player`]: started on first use, and started afresh after a
/// crash or a timeout (the failed process is killed).
#[derive(Debug)]
pub struct UsiPlayer {
    spec: EngineSpec,
    engine: Option<UsiEngine>,
    name: String,
    stop: Option<fn() -> bool>,
    /// Processes started so far.
    pub starts: u32,
    /// Time spent starting processes and getting them ready (`usi` .. `readyok`, and
    /// `usinewgame` .. `readyok` before each game): the engine's own, not thinking.
    pub startup: Duration,
}

impl UsiPlayer {
    /// A player of `spec`; `stop` is polled while waiting for an answer.
    pub fn new(spec: EngineSpec, stop: Option<fn() -> bool>) -> UsiPlayer {
        let name = spec.command.clone();
        UsiPlayer {
            spec,
            engine: None,
            name,
            stop,
            starts: 0,
            startup: Duration::ZERO,
        }
    }

    /// Start the engine now if it is not running (to check the command before a run).
    pub fn ensure_started(&mut self) -> Result<&mut UsiEngine, EngineFailure> {
        if self.engine.is_none() {
            self.starts += 1;
            let t0 = std::time::Instant::now();
            let e = UsiEngine::start(
                &self.spec.command,
                &self.spec.options,
                self.spec.timeout,
                self.stop,
            );
            self.startup += t0.elapsed();
            let e = e?;
            self.name = e.name.clone();
            self.engine = Some(e);
        }
        Ok(self.engine.as_mut().expect("started above"))
    }

    /// The running process's id, if any.
    pub fn pid(&self) -> Option<u32> {
        self.engine.as_ref().map(UsiEngine::pid)
    }

    /// End the process (politely, then by force).
    pub fn quit(&mut self) {
        if let Some(e) = self.engine.take() {
            e.quit();
        }
    }

    /// Answer the position reached from `start_sfen` by `moves` (USI).
    pub fn think_usi(
        &mut self,
        start_sfen: &str,
        moves: &[String],
    ) -> Result<Answer, EngineFailure> {
        let limit = self.spec.limit.clone();
        let r = self
            .ensure_started()
            .and_then(|e| e.think(start_sfen, moves, &limit));
        self.on_failure(r)
    }

    fn on_failure<T>(&mut self, r: Result<T, EngineFailure>) -> Result<T, EngineFailure> {
        if r.is_err() {
            // Killed on drop: a fresh process for the next game.
            self.engine = None;
        }
        r
    }
}

impl Player for UsiPlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self) -> Result<(), EngineFailure> {
        let r = self.ensure_started().map(|e| {
            let t0 = std::time::Instant::now();
            let r = e.new_game();
            (r, t0.elapsed())
        });
        let r = r.and_then(|(r, t)| {
            self.startup += t;
            r
        });
        self.on_failure(r)
    }

    fn think(&mut self, game: &GameView<'_>) -> Result<Answer, EngineFailure> {
        self.think_usi(game.start_sfen, game.usi_moves)
    }

    fn game_over(&mut self, result: GameResult) {
        // Some engines keep a game's state until they are told it ended.
        if let Some(e) = self.engine.as_mut() {
            let r = e.send(&format!("gameover {}", result.word()));
            let _ = self.on_failure(r);
        }
    }
}
