//! The referee: games between two players that are outside USI engines (or anything that
//! answers a position with a move), judged move by move with the core's rules.
//!
//! - [`usi::UsiEngine`]: one engine process with a deadline on every answer.
//! - [`UsiPlayer`]: an engine command that is started again after a crash or a timeout.
//! - [`play`]: one game from a start position, to its end: a declaration (judged under
//!   the rule: a win, a declared draw under a 24-point rule, or an illegal declaration,
//!   the 500-move clause included), mate (no legal move), resignation, fourfold
//!   repetition and perpetual check, the try rule, the ply limit, and the failures of a
//!   player: an illegal or unreadable move (`illegal`), no answer in time (`timeout`), a
//!   process that ended (`engine_crash`). Each failure loses for the side that failed.
//! - With [`AutoDeclare`], the referee declares for the side to move at the first moment
//!   its declaration would win (or draw), so that an engine that does not know the rule
//!   still gets the ending the rule gives it; the game says who declared.
mod outcome;
pub mod standin;
pub mod usi;

use std::time::Duration;

use crate::shogi::{
    Color, DeclarationOutcome, EnteringKingRule, History, Move, Position, RepetitionStatus,
    evaluate_declaration, try_rule_reached,
};
pub use outcome::{ReplayEnding, SideStats};
use usi::{Answer, BestMove, EngineFailure, GoLimit, UsiEngine};

/// Something that answers positions: an outside engine, or a test's stand-in.
pub trait Player {
    /// The name for the tables (the engine's `id name`).
    fn name(&self) -> String;
    /// Get ready for a new game.
    fn new_game(&mut self) -> Result<(), EngineFailure>;
    /// Answer the position reached from `start_sfen` by `moves` (USI).
    fn think(&mut self, start_sfen: &str, moves: &[String]) -> Result<Answer, EngineFailure>;
    /// The game it played is over, with this result for it (USI `gameover`).
    fn game_over(&mut self, _result: GameResult) {}
}

/// A game's result for one player (USI `gameover win|lose|draw`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameResult {
    /// It won.
    Win,
    /// It lost.
    Lose,
    /// A draw (or no result: the ply limit).
    Draw,
}

impl GameResult {
    /// The word of the `gameover` command.
    pub fn word(self) -> &'static str {
        match self {
            GameResult::Win => "win",
            GameResult::Lose => "lose",
            GameResult::Draw => "draw",
        }
    }
}

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

    fn think(&mut self, start_sfen: &str, moves: &[String]) -> Result<Answer, EngineFailure> {
        let limit = self.spec.limit;
        let r = self
            .ensure_started()
            .and_then(|e| e.think(start_sfen, moves, limit));
        self.on_failure(r)
    }

    fn game_over(&mut self, result: GameResult) {
        // Some engines keep a game's state until they are told it ended.
        if let Some(e) = self.engine.as_mut() {
            let r = e.send(&format!("gameover {}", result.word()));
            let _ = self.on_failure(r);
        }
    }
}

/// When the referee declares for a side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AutoDeclare {
    /// Never: only the players declare.
    #[default]
    Off,
    /// At the first moment a declaration would win.
    Win,
    /// At the first moment a declaration would win or draw (24-point rules).
    Draw,
}

/// How the referee's games are played.
#[derive(Debug, Clone)]
pub struct RefereeSettings {
    /// The entering-king rule the game is judged under.
    pub rule: EnteringKingRule,
    /// Plies after which the game stops as [`Ending::Limit`].
    pub max_plies: u32,
    /// Whether and when the referee declares for a side.
    pub auto_declare: AutoDeclare,
}

/// How a refereed game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// This side declared a win.
    Declaration(Color),
    /// This side declared with the points of a draw (24-point rules).
    DeclaredDraw(Color),
    /// This side, to move, had no legal move.
    Mate(Color),
    /// This side resigned.
    Resign(Color),
    /// Fourfold repetition, drawn.
    Repetition,
    /// Fourfold repetition with this side checking on every move: it loses.
    PerpetualCheck(Color),
    /// The try rule: this side's king reached the try square.
    Try(Color),
    /// The ply limit.
    Limit,
    /// This side played an illegal move, an unreadable line, or an illegal declaration.
    Illegal(Color),
    /// This side did not answer in time.
    Timeout(Color),
    /// This side's engine ended or could not be started.
    Crash(Color),
}

impl Ending {
    /// The winner, if any (a failing side loses).
    pub fn winner(self) -> Option<Color> {
        match self {
            Ending::Declaration(c) | Ending::Try(c) => Some(c),
            Ending::Mate(l)
            | Ending::Resign(l)
            | Ending::PerpetualCheck(l)
            | Ending::Illegal(l)
            | Ending::Timeout(l)
            | Ending::Crash(l) => Some(l.opposite()),
            Ending::DeclaredDraw(_) | Ending::Repetition | Ending::Limit => None,
        }
    }

    /// The ending's word in the tables.
    pub fn kind(self) -> ReplayEnding {
        match self {
            Ending::Declaration(_) => ReplayEnding::Declaration,
            Ending::DeclaredDraw(_) => ReplayEnding::DeclaredDraw,
            Ending::Mate(_) => ReplayEnding::Mate,
            Ending::Resign(_) => ReplayEnding::Resign,
            Ending::Repetition => ReplayEnding::Repetition,
            Ending::PerpetualCheck(_) => ReplayEnding::PerpetualCheck,
            Ending::Try(_) => ReplayEnding::Try,
            Ending::Limit => ReplayEnding::Limit,
            Ending::Illegal(_) => ReplayEnding::Illegal,
            Ending::Timeout(_) => ReplayEnding::Timeout,
            Ending::Crash(_) => ReplayEnding::EngineCrash,
        }
    }

    /// The name in the tables ([`ReplayEnding::name`] of [`Ending::kind`]).
    pub fn name(self) -> &'static str {
        self.kind().name()
    }
}

/// Who made a declaration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Declarer {
    /// The player (`bestmove win`).
    Engine,
    /// The referee ([`AutoDeclare`]).
    Referee,
}

/// A refereed game.
#[derive(Debug, Clone)]
pub struct RefereeGame {
    /// Both sides' counts at the start (Black, White).
    pub start: [SideStats; 2],
    /// Both sides' counts at the end.
    pub end: [SideStats; 2],
    /// How it ended.
    pub ending: Ending,
    /// Who declared, for a declaration ending (a win, a draw or an illegal one).
    pub declarer: Option<Declarer>,
    /// Plies played.
    pub plies: u32,
    /// First ply (0 = the start) at which each side had 10 pieces in the camp.
    pub first_ten: [Option<u32>; 2],
    /// The moves played.
    pub moves: Vec<Move>,
    /// Each side's time from `go` to `bestmove`, summed.
    pub think: [Duration; 2],
    /// Each side's answers (`bestmove` lines read).
    pub answers: [u32; 2],
    /// The players' names (Black, White).
    pub names: [String; 2],
    /// What went wrong, for a failure or an illegal declaration (empty otherwise).
    pub note: String,
}

/// The run was interrupted: the game has no ending.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("interrupted")]
pub struct Interrupted;

fn note_ten(pos: &Position, ply: u32, first_ten: &mut [Option<u32>; 2]) {
    for c in Color::ALL {
        if first_ten[c.index()].is_none() && pos.zone_count(c) >= 10 {
            first_ten[c.index()] = Some(ply);
        }
    }
}

fn stats(pos: &Position) -> [SideStats; 2] {
    [
        SideStats::of(pos, Color::Black),
        SideStats::of(pos, Color::White),
    ]
}

/// Play a game from `start`: `players[0]` plays Black, `players[1]` White (they may be
/// the same player). Every failure of a player ends the game with its ending; only an
/// interruption (the players' `stop`) returns an error.
pub fn play(
    start: &Position,
    players: [&mut dyn Player; 2],
    settings: &RefereeSettings,
) -> Result<RefereeGame, Interrupted> {
    let start_sfen = start.to_sfen();
    let mut pos = start.clone();
    let mut history = History::new(&pos);
    let mut first_ten = [None, None];
    note_ten(&pos, 0, &mut first_ten);
    let mut moves: Vec<Move> = Vec::new();
    let mut usi_moves: Vec<String> = Vec::new();
    let mut think = [Duration::ZERO; 2];
    let mut answers = [0u32; 2];
    let mut declarer = None;
    let mut note = String::new();
    let mut ready = [false, false];
    let rule = settings.rule;
    let ending = 'game: loop {
        let us = pos.side_to_move();
        let ply = moves.len() as u32;
        if settings.auto_declare != AutoDeclare::Off && rule.has_declaration() {
            match evaluate_declaration(&pos, rule).outcome {
                DeclarationOutcome::Win => {
                    declarer = Some(Declarer::Referee);
                    break Ending::Declaration(us);
                }
                DeclarationOutcome::Draw if settings.auto_declare == AutoDeclare::Draw => {
                    declarer = Some(Declarer::Referee);
                    break Ending::DeclaredDraw(us);
                }
                _ => {}
            }
        }
        if !pos.has_legal_move() {
            break Ending::Mate(us);
        }
        if ply >= settings.max_plies {
            break Ending::Limit;
        }
        let i = us.index();
        if !ready[i] {
            match players[i].new_game() {
                Ok(()) => ready[i] = true,
                Err(f) => match failure(f, us, &mut note) {
                    Some(e) => break 'game e,
                    None => return Err(Interrupted),
                },
            }
        }
        let answer = match players[i].think(&start_sfen, &usi_moves) {
            Ok(a) => a,
            Err(f) => match failure(f, us, &mut note) {
                Some(e) => break 'game e,
                None => return Err(Interrupted),
            },
        };
        think[i] += answer.elapsed;
        answers[i] += 1;
        match answer.best {
            BestMove::Resign => break Ending::Resign(us),
            BestMove::Win => {
                declarer = Some(Declarer::Engine);
                let e = evaluate_declaration(&pos, rule);
                match e.outcome {
                    DeclarationOutcome::Win => break Ending::Declaration(us),
                    DeclarationOutcome::Draw => break Ending::DeclaredDraw(us),
                    DeclarationOutcome::Illegal | DeclarationOutcome::NotApplicable => {
                        note = format!(
                            "illegal declaration under {rule}: {} pieces in the camp, {} points{}{}{}",
                            e.zone_count,
                            e.points,
                            if e.king_in_camp {
                                ""
                            } else {
                                ", king outside the camp"
                            },
                            if e.in_check { ", in check" } else { "" },
                            if e.move_number_ok {
                                ""
                            } else {
                                ", past move 500"
                            },
                        );
                        break Ending::Illegal(us);
                    }
                }
            }
            BestMove::Move(text) => {
                let m = match Move::from_usi(&text) {
                    Ok(m) => m,
                    Err(_) if text.is_empty() => {
                        note = "`bestmove` without a move".into();
                        break Ending::Illegal(us);
                    }
                    Err(_) => {
                        note = format!("unreadable move `{text}`");
                        break Ending::Illegal(us);
                    }
                };
                if let Err(kind) = pos.play(m) {
                    note = format!("illegal move {text}: {kind:?}");
                    break Ending::Illegal(us);
                }
                moves.push(m);
                usi_moves.push(m.to_usi());
                history.push(&pos);
                note_ten(&pos, ply + 1, &mut first_ten);
                match history.repetition() {
                    RepetitionStatus::None => {}
                    RepetitionStatus::Draw => break Ending::Repetition,
                    RepetitionStatus::PerpetualCheckLoss(c) => break Ending::PerpetualCheck(c),
                }
                if rule == EnteringKingRule::TryRule && try_rule_reached(&pos, us) {
                    break Ending::Try(us);
                }
            }
        }
    };
    for c in Color::ALL {
        if ready[c.index()] {
            players[c.index()].game_over(match ending.winner() {
                Some(w) if w == c => GameResult::Win,
                Some(_) => GameResult::Lose,
                None => GameResult::Draw,
            });
        }
    }
    Ok(RefereeGame {
        start: stats(start),
        end: stats(&pos),
        ending,
        declarer,
        plies: moves.len() as u32,
        first_ten,
        moves,
        think,
        answers,
        names: [players[0].name(), players[1].name()],
        note,
    })
}

/// The ending of a player's failure (None: interrupted).
fn failure(f: EngineFailure, us: Color, note: &mut String) -> Option<Ending> {
    match f {
        EngineFailure::Interrupted => None,
        EngineFailure::Timeout(m) => {
            *note = m;
            Some(Ending::Timeout(us))
        }
        EngineFailure::Crash(m) => {
            *note = m;
            Some(Ending::Crash(us))
        }
    }
}
