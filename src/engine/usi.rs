//! The USI protocol: command parsing, options, and a session that runs searches on a
//! worker thread so that `stop` and `ponderhit` are heard while it thinks. Input lines come
//! from a reader thread through a channel; output goes through one shared writer so that
//! `info` and `bestmove` lines never interleave.
//!
//! Bad input never ends the session: an unreadable command, a bad option value, an
//! unreadable SFEN or an illegal move in `position` is answered with `info string ...`.
//! Nor does it hang a GUI: a search that has answered is over (the next `go` or
//! `setoption` is heard as between searches), a `go` during a search stops that search
//! (which answers) before starting, a table that cannot be allocated is refused with the
//! old one kept, and clock values too large for the arithmetic saturate.
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::eval24::{Weights, WeightsError};
use super::learn::linear::{LinearWeights, WeightsError as LinearWeightsError};
use super::mate::{self, MateLimits};
use super::search::{
    Config, Control, Decision, Info, Mode, Searcher, Threats, Tweaks, UnknownMode,
};
use super::time::Limits;
use super::tt::TranspositionTable;
use crate::shogi::{
    EnteringKingRule, IllegalMoveKind, Move, Position, PositionParseError, UsiMoveError,
};

/// One parsed USI command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `usi`: answered with the engine's name and options, then `usiok`.
    Usi,
    /// `isready`: answered with `readyok` (the table is allocated first if there is none).
    IsReady,
    /// `setoption name <name> [value <value>]`.
    SetOption {
        /// The option's name (its words joined by single spaces).
        name: String,
        /// The value (its words joined by single spaces; empty without `value`).
        value: String,
    },
    /// `usinewgame`: stop any running search and clear the table and the ordering
    /// heuristics.
    UsiNewGame,
    /// `position`: `sfen = None` for `startpos`; moves as written.
    Position {
        /// The SFEN after `sfen`.
        sfen: Option<String>,
        /// The moves after `moves`, as written.
        moves: Vec<String>,
    },
    /// `go` and its limits.
    Go(Limits),
    /// `stop`: end the running search; its `bestmove` follows.
    Stop,
    /// `ponderhit`: the expected move was played; the ponder search goes on under the
    /// clock.
    PonderHit,
    /// `gameover` and its result word (`win`, `lose`, `draw`; empty if none).
    GameOver(String),
    /// `quit`: stop any running search and end the session.
    Quit,
    /// A blank line.
    Empty,
}

/// A command line that cannot be read; its text is the `info string` the session answers.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// The first token is no USI command.
    #[error("unknown command `{0}`")]
    UnknownCommand(String),
    /// `setoption` not followed by `name`.
    #[error("setoption: expected `name`")]
    SetOptionNoName,
    /// `setoption name` with no name before `value` (or the end).
    #[error("setoption: empty name")]
    SetOptionEmptyName,
    /// `position startpos` followed by something other than `moves`.
    #[error("position startpos: unexpected tokens")]
    StartposTokens,
    /// `position sfen` with fewer than the four SFEN fields.
    #[error("position sfen: incomplete SFEN")]
    IncompleteSfen,
    /// `position` followed by neither `startpos` nor `sfen`.
    #[error("position: expected `startpos` or `sfen`")]
    PositionStart,
    /// A `go` limit (`btime`, `depth`, ...) at the end of the line, without its value.
    #[error("go: `{0}` needs a value")]
    GoMissingValue(String),
    /// A `go` limit whose value is not an integer.
    #[error("go: bad value `{value}` for `{name}`")]
    GoBadValue {
        /// The limit (`btime`, `mate`, ...).
        name: String,
        /// The token given as its value.
        value: String,
    },
    /// A `go` token that is no limit.
    #[error("go: unknown token `{0}`")]
    GoUnknownToken(String),
}

/// Parse one line. `Err` names what could not be read.
pub fn parse_command(line: &str) -> Result<Command, CommandError> {
    let mut tokens = line.split_whitespace();
    let Some(head) = tokens.next() else {
        return Ok(Command::Empty);
    };
    let rest: Vec<&str> = tokens.collect();
    match head {
        "usi" => Ok(Command::Usi),
        "isready" => Ok(Command::IsReady),
        "usinewgame" => Ok(Command::UsiNewGame),
        "stop" => Ok(Command::Stop),
        "ponderhit" => Ok(Command::PonderHit),
        "quit" => Ok(Command::Quit),
        "gameover" => Ok(Command::GameOver(rest.first().unwrap_or(&"").to_string())),
        "setoption" => parse_setoption(&rest),
        "position" => parse_position(&rest),
        "go" => parse_go(&rest).map(Command::Go),
        other => Err(CommandError::UnknownCommand(other.to_string())),
    }
}

fn parse_setoption(rest: &[&str]) -> Result<Command, CommandError> {
    if rest.first() != Some(&"name") {
        return Err(CommandError::SetOptionNoName);
    }
    let value_at = rest.iter().position(|t| *t == "value");
    let name_end = value_at.unwrap_or(rest.len());
    let name = rest[1..name_end].join(" ");
    if name.is_empty() {
        return Err(CommandError::SetOptionEmptyName);
    }
    let value = match value_at {
        Some(i) => rest[i + 1..].join(" "),
        None => String::new(),
    };
    Ok(Command::SetOption { name, value })
}

fn parse_position(rest: &[&str]) -> Result<Command, CommandError> {
    let moves_at = rest.iter().position(|t| *t == "moves");
    let head = &rest[..moves_at.unwrap_or(rest.len())];
    let moves = match moves_at {
        Some(i) => rest[i + 1..].iter().map(|s| s.to_string()).collect(),
        None => Vec::new(),
    };
    let sfen = match head.first() {
        Some(&"startpos") if head.len() == 1 => None,
        Some(&"startpos") => return Err(CommandError::StartposTokens),
        Some(&"sfen") if head.len() >= 4 => Some(head[1..].join(" ")),
        Some(&"sfen") => return Err(CommandError::IncompleteSfen),
        _ => return Err(CommandError::PositionStart),
    };
    Ok(Command::Position { sfen, moves })
}

fn parse_go(rest: &[&str]) -> Result<Limits, CommandError> {
    let mut l = Limits::default();
    let mut i = 0;
    let bad_value = |name: &str, t: &str| CommandError::GoBadValue {
        name: name.to_string(),
        value: t.to_string(),
    };
    let num = |i: usize, name: &str| -> Result<u64, CommandError> {
        let t = rest
            .get(i + 1)
            .ok_or_else(|| CommandError::GoMissingValue(name.to_string()))?;
        go_number(t).ok_or_else(|| bad_value(name, t))
    };
    while i < rest.len() {
        let t = rest[i];
        match t {
            "infinite" => l.infinite = true,
            "ponder" => l.ponder = true,
            "btime" | "wtime" | "binc" | "winc" | "byoyomi" | "movetime" | "depth" | "nodes" => {
                let v = num(i, t)?;
                match t {
                    "btime" => l.btime = Some(v),
                    "wtime" => l.wtime = Some(v),
                    "binc" => l.binc = v,
                    "winc" => l.winc = v,
                    "byoyomi" => l.byoyomi = v,
                    "movetime" => l.movetime = Some(v),
                    "depth" => l.depth = Some(v.clamp(1, 64) as u32),
                    _ => l.nodes = Some(v.max(1)),
                }
                i += 1;
            }
            "mate" => {
                // `go mate <ms>` or `go mate infinite`: a mate search, answered with
                // `checkmate ...`.
                l.mate = Some(match rest.get(i + 1) {
                    None | Some(&"infinite") => u64::MAX,
                    Some(t) => go_number(t).ok_or_else(|| bad_value("mate", t))?,
                });
                if rest.get(i + 1).is_some() {
                    i += 1;
                }
            }
            other => return Err(CommandError::GoUnknownToken(other.to_string())),
        }
        i += 1;
    }
    Ok(l)
}

/// A `go` number: an integer, negative ones read as 0 and ones too large for 64 bits as
/// the largest (a clock that absurd is the same as no limit); `None` if it is no integer.
fn go_number(t: &str) -> Option<u64> {
    let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if t.starts_with('-') {
        return Some(0);
    }
    Some(digits.parse::<u64>().unwrap_or(u64::MAX))
}

/// A `setoption` the options refuse; its text is the `info string` the session answers.
#[derive(Debug, thiserror::Error)]
pub enum OptionError {
    /// A number option (`USI_Hash`, `Threads`, `MaxMovesToDraw`) given a non-integer.
    #[error("option {name}: bad number `{value}`")]
    BadNumber {
        /// The option's name as written.
        name: String,
        /// The value as written.
        value: String,
    },
    /// `EnteringKingRule` given no rule's name.
    #[error("option {name}: unknown rule `{value}`")]
    UnknownRule {
        /// The option's name as written.
        name: String,
        /// The value as written.
        value: String,
    },
    /// `Mode` given neither `search` nor `decl24`.
    #[error(transparent)]
    Mode(#[from] UnknownMode),
    /// The `Weights` file cannot be read.
    #[error("option Weights: cannot read `{path}`: {error}")]
    WeightsUnreadable {
        /// The file's path.
        path: String,
        /// Why it cannot be read.
        error: std::io::Error,
    },
    /// The `Weights` file is read but is no weights file.
    #[error("option Weights: `{path}`: {error}")]
    WeightsInvalid {
        /// The file's path.
        path: String,
        /// The line at fault and what is wrong with it.
        error: WeightsError,
    },
    /// The `LinearWeights` file cannot be read.
    #[error("option LinearWeights: cannot read `{path}`: {error}")]
    LinearUnreadable {
        /// The file's path.
        path: String,
        /// Why it cannot be read.
        error: std::io::Error,
    },
    /// The `LinearWeights` file is read but is no linear weights file.
    #[error("option LinearWeights: `{path}`: {error}")]
    LinearInvalid {
        /// The file's path.
        path: String,
        /// What is wrong with it.
        error: LinearWeightsError,
    },
    /// No option of that name.
    #[error("unknown option `{0}`")]
    UnknownOption(String),
}

/// The largest `USI_Hash` (MB) offered: 32 GiB. A size the machine cannot give is refused
/// when it is set (`info string`), and the table in use is kept.
pub const MAX_HASH_MB: usize = 32_768;

/// Engine options settable with `setoption`.
#[derive(Debug, Clone)]
pub struct Options {
    /// `USI_Hash`: transposition table size in MB (1 to [`MAX_HASH_MB`]).
    pub hash_mb: usize,
    /// `Threads` (1 to 256): accepted and kept; the search runs on one thread.
    pub threads: usize,
    /// `EnteringKingRule`: the rule of declarations and the try rule.
    pub rule: EnteringKingRule,
    /// `MaxMovesToDraw`: plies after which the game is a draw (0 = no limit).
    pub max_moves_to_draw: i32,
    /// `Mode`: the normal search or the 24-point engine.
    pub mode: Mode,
    /// Weights file (empty = compiled-in defaults).
    pub weights_path: String,
    /// The 24-point weights read from `weights_path` (or the defaults).
    pub weights: Weights,
    /// `Threats` and `ThreatPenalty`: how the search treats mate threats at the leaves.
    pub threats: Threats,
    /// `QuiescenceTT`: quiescence takes the table's score where its bound allows.
    pub quiescence_tt: bool,
    /// `LinearWeights`: a file of the learned linear evaluation (`learn fit`); empty =
    /// the hand-made evaluation.
    pub linear_path: String,
    /// The learned weights read from `linear_path`.
    pub linear: Option<Arc<LinearWeights>>,
    /// `ContinuationHistory`, `RootReductions`, `LateMoveDepth`: the search's choices
    /// under trial.
    pub tweaks: Tweaks,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mb: 64,
            threads: 1,
            rule: EnteringKingRule::CSARule24,
            max_moves_to_draw: 0,
            mode: Mode::Search,
            weights_path: String::new(),
            weights: Weights::default(),
            threats: Threats::default(),
            quiescence_tt: Config::default().quiescence_tt,
            linear_path: String::new(),
            linear: None,
            tweaks: Tweaks::default(),
        }
    }
}

impl Options {
    /// The search configuration these options describe.
    pub fn config(&self) -> Config {
        Config {
            rule: self.rule,
            max_moves_to_draw: self.max_moves_to_draw,
            mode: self.mode,
            weights: self.weights.clone(),
            threats: self.threats,
            quiescence_tt: self.quiescence_tt,
            linear: self.linear.clone(),
            tweaks: self.tweaks,
        }
    }

    /// The `option` lines of the `usi` answer.
    pub fn usi_lines(&self) -> Vec<String> {
        let rules: Vec<String> = EnteringKingRule::ALL
            .iter()
            .map(|r| format!(" var {r}"))
            .collect();
        vec![
            format!("option name USI_Hash type spin default 64 min 1 max {MAX_HASH_MB}"),
            "option name USI_Ponder type check default false".into(),
            "option name Threads type spin default 1 min 1 max 256".into(),
            format!(
                "option name EnteringKingRule type combo default {}{}",
                EnteringKingRule::CSARule24,
                rules.concat()
            ),
            "option name MaxMovesToDraw type spin default 0 min 0 max 100000".into(),
            "option name Mode type combo default search var search var decl24".into(),
            "option name Weights type string default <empty>".into(),
            "option name LinearWeights type string default <empty>".into(),
            format!(
                "option name QuiescenceTT type check default {}",
                Config::default().quiescence_tt
            ),
            format!(
                "option name Threats type check default {}",
                Threats::default().enabled
            ),
            format!(
                "option name ThreatPenalty type spin default {} min 0 max 5000",
                Threats::default().penalty
            ),
            format!(
                "option name ThreatQuiescencePlies type spin default {} min 0 max 64",
                Threats::default().quiescence_plies
            ),
            format!(
                "option name ContinuationHistory type check default {}",
                Tweaks::default().continuation_history
            ),
            format!(
                "option name RootReductions type check default {}",
                Tweaks::default().root_reductions
            ),
            format!(
                "option name LateMoveDepth type spin default {} min 0 max 64",
                Tweaks::default().late_move_depth
            ),
            format!(
                "option name QuiescencePromotions type check default {}",
                Tweaks::default().quiescence_promotions
            ),
        ]
    }

    /// Apply one `setoption`. `Err` says why the value was refused.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        let int = |v: &str| -> Result<i64, OptionError> {
            v.trim().parse::<i64>().map_err(|_| OptionError::BadNumber {
                name: name.to_string(),
                value: v.to_string(),
            })
        };
        let check = |v: &str| -> Result<bool, OptionError> {
            match v.trim().to_ascii_lowercase().as_str() {
                "true" => Ok(true),
                "false" => Ok(false),
                _ => Err(OptionError::BadNumber {
                    name: name.to_string(),
                    value: v.to_string(),
                }),
            }
        };
        match name.to_ascii_lowercase().as_str() {
            "usi_hash" | "hash" => self.hash_mb = int(value)?.clamp(1, MAX_HASH_MB as i64) as usize,
            "threads" => self.threads = int(value)?.clamp(1, 256) as usize,
            "usi_ponder" => {}
            "enteringkingrule" => {
                self.rule = value.trim().parse().map_err(|_| OptionError::UnknownRule {
                    name: name.to_string(),
                    value: value.to_string(),
                })?;
            }
            "maxmovestodraw" => self.max_moves_to_draw = int(value)?.clamp(0, 1_000_000) as i32,
            "mode" => self.mode = value.trim().parse()?,
            "weights" => {
                let path = value.trim();
                if path.is_empty() || path == "<empty>" {
                    self.weights_path.clear();
                    self.weights = Weights::default();
                } else {
                    let text = std::fs::read_to_string(path).map_err(|error| {
                        OptionError::WeightsUnreadable {
                            path: path.to_string(),
                            error,
                        }
                    })?;
                    self.weights =
                        Weights::parse(&text).map_err(|error| OptionError::WeightsInvalid {
                            path: path.to_string(),
                            error,
                        })?;
                    self.weights_path = path.to_string();
                }
            }
            "linearweights" => {
                let path = value.trim();
                if path.is_empty() || path == "<empty>" {
                    self.linear_path.clear();
                    self.linear = None;
                } else {
                    let text = std::fs::read_to_string(path).map_err(|error| {
                        OptionError::LinearUnreadable {
                            path: path.to_string(),
                            error,
                        }
                    })?;
                    let w = LinearWeights::parse(&text).map_err(|error| {
                        OptionError::LinearInvalid {
                            path: path.to_string(),
                            error,
                        }
                    })?;
                    self.linear = Some(Arc::new(w));
                    self.linear_path = path.to_string();
                }
            }
            "threats" => self.threats.enabled = check(value)?,
            "quiescencett" => self.quiescence_tt = check(value)?,
            "threatpenalty" => self.threats.penalty = int(value)?.clamp(0, 5_000) as i32,
            "threatquiescenceplies" => {
                self.threats.quiescence_plies = int(value)?.clamp(0, 64) as u32
            }
            "continuationhistory" => self.tweaks.continuation_history = check(value)?,
            "rootreductions" => self.tweaks.root_reductions = check(value)?,
            "quiescencepromotions" => self.tweaks.quiescence_promotions = check(value)?,
            "latemovedepth" => self.tweaks.late_move_depth = int(value)?.clamp(0, 64) as i32,
            _ => return Err(OptionError::UnknownOption(name.to_string())),
        }
        Ok(())
    }
}

/// What is wrong with a `position` command's SFEN or moves; its text is the `info string`
/// the session answers.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionCommandError {
    /// The SFEN cannot be read or describes an illegal position (the whole command is
    /// refused).
    #[error("position: bad SFEN `{sfen}`: {error}")]
    BadSfen {
        /// The SFEN as given.
        sfen: String,
        /// What is wrong with it.
        error: PositionParseError,
    },
    /// A move that is not USI move text (the moves before it are kept).
    #[error("position: unreadable move `{text}` at ply {ply}: {error}")]
    UnreadableMove {
        /// The move as written.
        text: String,
        /// Its number in the move list, from 1.
        ply: usize,
        /// Why it cannot be read.
        error: UsiMoveError,
    },
    /// A move that is illegal where it is played (the moves before it are kept).
    #[error("position: illegal move `{text}` at ply {ply}: {}", .kind.name())]
    IllegalMove {
        /// The move as written.
        text: String,
        /// Its number in the move list, from 1.
        ply: usize,
        /// Why it is illegal.
        kind: IllegalMoveKind,
    },
}

/// A position, the `(key, in check)` history of the positions before it, and a complaint
/// about a move that was not played ([`PositionCommandError::UnreadableMove`] or
/// [`PositionCommandError::IllegalMove`]).
pub type PositionState = (Position, Vec<(u64, bool)>, Option<PositionCommandError>);

/// Apply a `position` command. On an unreadable SFEN the position is unchanged; on an
/// illegal or unreadable move the moves before it are kept. Returns the new position,
/// the history of earlier positions (`(key, in check)`), and any complaint.
pub fn apply_position(
    sfen: Option<&str>,
    moves: &[String],
) -> Result<PositionState, PositionCommandError> {
    let mut pos = match sfen {
        None => Position::startpos(),
        Some(s) => Position::from_sfen(s).map_err(|error| PositionCommandError::BadSfen {
            sfen: s.to_string(),
            error,
        })?,
    };
    let mut history = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        let m = match Move::from_usi(text) {
            Ok(m) => m,
            Err(error) => {
                let complaint = PositionCommandError::UnreadableMove {
                    text: text.clone(),
                    ply: i + 1,
                    error,
                };
                return Ok((pos, history, Some(complaint)));
            }
        };
        let entry = (pos.key(), pos.is_in_check());
        if let Err(kind) = pos.play(m) {
            let complaint = PositionCommandError::IllegalMove {
                text: text.clone(),
                ply: i + 1,
                kind,
            };
            return Ok((pos, history, Some(complaint)));
        }
        history.push(entry);
    }
    Ok((pos, history, None))
}

/// Shared output.
type Out<W> = Arc<Mutex<W>>;

fn say<W: Write>(out: &Out<W>, line: &str) {
    if let Ok(mut w) = out.lock() {
        let _ = writeln!(w, "{line}");
        let _ = w.flush();
    }
}

/// The `info` line of a completed iteration.
pub fn info_line(info: &Info) -> String {
    let pv: Vec<String> = info.pv.iter().map(|m| m.to_usi()).collect();
    format!(
        "info depth {} seldepth {} score {} nodes {} nps {} time {} hashfull {} pv {}",
        info.depth,
        info.seldepth,
        info.score_usi(),
        info.nodes,
        info.nps(),
        info.time.as_millis(),
        info.hashfull,
        pv.join(" ")
    )
}

struct Running {
    handle: JoinHandle<Searcher>,
    control: Arc<Control>,
    /// Set by the search thread just before it writes its answer: from then on the
    /// search is over and only the thread's return is left.
    answered: Arc<AtomicBool>,
}

/// One USI session.
pub struct Session<W: Write + Send + 'static> {
    out: Out<W>,
    options: Options,
    position: Position,
    history: Vec<(u64, bool)>,
    searcher: Option<Searcher>,
    running: Option<Running>,
}

impl<W: Write + Send + 'static> Session<W> {
    /// A session writing to `out`.
    pub fn new(out: W) -> Session<W> {
        Session {
            out: Arc::new(Mutex::new(out)),
            options: Options::default(),
            position: Position::startpos(),
            history: Vec::new(),
            searcher: None,
            running: None,
        }
    }

    /// The shared output (for tests).
    pub fn output(&self) -> Out<W> {
        self.out.clone()
    }

    fn info_string(&self, text: &str) {
        say(&self.out, &format!("info string {text}"));
    }

    /// Take the searcher back from a search that has answered by itself (its `bestmove`
    /// or `checkmate` is written), so that the next `go` or `setoption` is not taken for
    /// one arriving during a search. A search still thinking is left alone.
    fn reap(&mut self) {
        if self
            .running
            .as_ref()
            .is_some_and(|r| r.answered.load(Ordering::SeqCst) || r.handle.is_finished())
        {
            self.join();
        }
    }

    /// Stop a running search, wait for it to answer, and take the searcher back.
    fn join(&mut self) {
        if let Some(r) = self.running.take() {
            r.control.stop.store(true, Ordering::SeqCst);
            match r.handle.join() {
                Ok(s) => self.searcher = Some(s),
                Err(_) => self.info_string("search thread failed"),
            }
        }
    }

    /// Apply a new `USI_Hash`: the table is allocated now, the old one kept if the new
    /// one cannot be had (and the option goes back to the old size).
    fn apply_hash(&mut self, old_mb: usize) {
        let mb = self.options.hash_mb;
        match TranspositionTable::try_new(mb) {
            Ok(table) => match self.searcher.as_mut() {
                Some(s) => s.tt = table,
                None => {
                    let mut s = Searcher::new(1, self.options.config());
                    s.tt = table;
                    self.searcher = Some(s);
                }
            },
            Err(e) => {
                self.options.hash_mb = old_mb;
                self.info_string(&format!("option USI_Hash: {e}; keeping {old_mb} MB"));
            }
        }
    }

    fn searcher(&mut self) -> &mut Searcher {
        let config = self.options.config();
        let mb = self.options.hash_mb;
        let s = self
            .searcher
            .get_or_insert_with(|| Searcher::new(mb, config.clone()));
        s.config = config;
        s
    }

    /// Handle one input line. Returns `false` after `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let cmd = match parse_command(line) {
            Ok(c) => c,
            Err(e) => {
                self.info_string(&e.to_string());
                return true;
            }
        };
        self.reap();
        match cmd {
            Command::Empty => {}
            Command::Usi => {
                say(
                    &self.out,
                    &format!("id name floodgate-scan {}", env!("CARGO_PKG_VERSION")),
                );
                say(&self.out, "id author floodgate-scan authors");
                for l in self.options.usi_lines() {
                    say(&self.out, &l);
                }
                say(&self.out, "usiok");
            }
            Command::IsReady => {
                // Allocate the table now rather than at the first `go`.
                if self.running.is_none() && self.searcher.is_none() {
                    self.searcher =
                        Some(Searcher::new(self.options.hash_mb, self.options.config()));
                }
                say(&self.out, "readyok");
            }
            Command::SetOption { name, value } => {
                if self.running.is_some() {
                    self.info_string("setoption ignored while searching");
                } else {
                    let old_hash = self.options.hash_mb;
                    match self.options.set(&name, &value) {
                        Ok(()) => {
                            if self.options.hash_mb != old_hash {
                                self.apply_hash(old_hash);
                            }
                        }
                        Err(e) => self.info_string(&e.to_string()),
                    }
                }
            }
            Command::UsiNewGame => {
                self.join();
                if let Some(s) = self.searcher.as_mut() {
                    s.clear();
                }
            }
            Command::Position { sfen, moves } => {
                if self.running.is_some() {
                    self.join();
                }
                match apply_position(sfen.as_deref(), &moves) {
                    Ok((pos, history, complaint)) => {
                        self.position = pos;
                        self.history = history;
                        if let Some(c) = complaint {
                            self.info_string(&c.to_string());
                        }
                    }
                    Err(e) => self.info_string(&e.to_string()),
                }
            }
            Command::Go(limits) => {
                // A `go` during a search (a GUI that did not wait for `bestmove`): the
                // running search is stopped and answers first, so every `go` gets its
                // answer.
                if self.running.is_some() {
                    self.info_string("go during a search: stopping it first");
                    self.join();
                }
                self.go(limits);
            }
            Command::Stop => self.join(),
            Command::PonderHit => {
                if let Some(r) = &self.running {
                    r.control.ponderhit();
                }
            }
            Command::GameOver(_) => self.join(),
            Command::Quit => {
                self.join();
                return false;
            }
        }
        true
    }

    fn go(&mut self, limits: Limits) {
        if let Some(ms) = limits.mate {
            self.go_mate(ms);
            return;
        }
        let mut searcher = {
            self.searcher();
            self.searcher.take().expect("searcher just made")
        };
        let control = Arc::new(Control::new(limits.ponder));
        let out = self.out.clone();
        let pos = self.position.clone();
        let history = self.history.clone();
        let c = control.clone();
        let answered = Arc::new(AtomicBool::new(false));
        let done = answered.clone();
        let handle = std::thread::spawn(move || {
            let result = searcher.search(&pos, &history, &limits, &c, &mut |info| {
                say(&out, &info_line(info));
            });
            // In infinite or ponder mode the answer waits for `stop` (or `ponderhit`).
            while (limits.infinite || c.pondering.load(Ordering::SeqCst))
                && !c.stop.load(Ordering::SeqCst)
            {
                std::thread::sleep(Duration::from_millis(1));
            }
            let line = match (result.decision, result.ponder) {
                (Decision::Move(m), Some(p)) => {
                    format!("bestmove {} ponder {}", m.to_usi(), p.to_usi())
                }
                (d, _) => format!("bestmove {}", d.to_usi()),
            };
            done.store(true, Ordering::SeqCst);
            say(&out, &line);
            searcher
        });
        self.running = Some(Running {
            handle,
            control,
            answered,
        });
    }
}

impl<W: Write + Send + 'static> Session<W> {
    /// `go mate`: the mate solver on its own thread, answering `checkmate <moves>`,
    /// `checkmate nomate` or `checkmate timeout`; `stop` ends it (with `timeout` unless a
    /// mate was already proven).
    fn go_mate(&mut self, ms: u64) {
        let searcher = {
            self.searcher();
            self.searcher.take().expect("searcher just made")
        };
        let control = Arc::new(Control::new(false));
        let out = self.out.clone();
        let pos = self.position.clone();
        let c = control.clone();
        let answered = Arc::new(AtomicBool::new(false));
        let done = answered.clone();
        let handle = std::thread::spawn(move || {
            let limits = MateLimits {
                // A time too far to be represented is no limit.
                deadline: (ms != u64::MAX)
                    .then(|| Instant::now().checked_add(Duration::from_millis(ms.max(1))))
                    .flatten(),
                ..MateLimits::default()
            };
            let answer = mate::solve(&pos, limits, &c.stop);
            done.store(true, Ordering::SeqCst);
            say(&out, &answer.to_usi());
            searcher
        });
        self.running = Some(Running {
            handle,
            control,
            answered,
        });
    }
}

/// Run a session: a reader thread feeds lines from `input`; the session handles them
/// until `quit` or the end of input.
pub fn run<R, W>(input: R, out: W)
where
    R: BufRead + Send + 'static,
    W: Write + Send + 'static,
{
    let (tx, rx) = mpsc::channel::<String>();
    std::thread::spawn(move || {
        for line in input.lines() {
            match line {
                Ok(l) => {
                    if tx.send(l).is_err() {
                        break;
                    }
                }
                Err(_) => break,
            }
        }
    });
    let mut session = Session::new(out);
    while let Ok(line) = rx.recv() {
        if !session.handle(&line) {
            return;
        }
    }
    // End of input: finish as if `quit` had been sent.
    session.handle("quit");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_limits_parse() {
        let c = parse_command("go btime 1000 wtime 2000 binc 10 winc 20 byoyomi 3000").unwrap();
        let Command::Go(l) = c else { panic!("{c:?}") };
        assert_eq!(l.btime, Some(1000));
        assert_eq!(l.wtime, Some(2000));
        assert_eq!((l.binc, l.winc, l.byoyomi), (10, 20, 3000));
        assert_eq!(
            parse_command("go depth 4 nodes 500").unwrap(),
            Command::Go(Limits {
                depth: Some(4),
                nodes: Some(500),
                ..Limits::default()
            })
        );
        let Command::Go(l) = parse_command("go ponder infinite movetime 5").unwrap() else {
            panic!()
        };
        assert!(l.ponder && l.infinite);
        assert_eq!(l.movetime, Some(5));
        assert!(parse_command("go depth").is_err());
        assert!(parse_command("go depth x").is_err());
        assert!(parse_command("go sideways").is_err());
        // Negative clocks are read as zero, not refused.
        let Command::Go(l) = parse_command("go btime -5").unwrap() else {
            panic!()
        };
        assert_eq!(l.btime, Some(0));
        // Clocks beyond 64 bits saturate instead of being refused or wrapping.
        let Command::Go(l) =
            parse_command("go btime 99999999999999999999999 wtime -99999999999999999999 byoyomi 18446744073709551615")
                .unwrap()
        else {
            panic!()
        };
        assert_eq!(
            (l.btime, l.wtime, l.byoyomi),
            (Some(u64::MAX), Some(0), u64::MAX)
        );
        assert!(parse_command("go btime 12x").is_err());
        assert!(parse_command("go btime -").is_err());
    }

    #[test]
    fn position_parse() {
        assert_eq!(
            parse_command("position startpos moves 7g7f 3c3d").unwrap(),
            Command::Position {
                sfen: None,
                moves: vec!["7g7f".into(), "3c3d".into()]
            }
        );
        assert_eq!(
            parse_command("position sfen 4k4/9/9/9/9/9/9/9/4K4 b G 1").unwrap(),
            Command::Position {
                sfen: Some("4k4/9/9/9/9/9/9/9/4K4 b G 1".into()),
                moves: vec![]
            }
        );
        assert!(parse_command("position").is_err());
        assert!(parse_command("position sfen 9/9 b").is_err());
        assert!(parse_command("position startpos 7g7f").is_err());
        assert!(parse_command("position banana").is_err());
    }

    /// The search's check options take `true` / `false` only and reach the configuration.
    #[test]
    fn search_feature_options() {
        let mut o = Options::default();
        let c = o.config();
        assert!(c.threats.enabled && !c.quiescence_tt);
        o.set("Threats", "false").unwrap();
        o.set("QuiescenceTT", "TRUE").unwrap();
        o.set("ThreatPenalty", "250").unwrap();
        o.set("ThreatQuiescencePlies", "3").unwrap();
        let c = o.config();
        assert!(!c.threats.enabled && c.quiescence_tt);
        assert_eq!((c.threats.penalty, c.threats.quiescence_plies), (250, 3));
        assert!(o.set("QuiescenceTT", "yes").is_err());
        assert!(o.config().quiescence_tt, "a refused value changes nothing");
        let d = Tweaks::default();
        assert_eq!(o.config().tweaks, d);
        o.set("ContinuationHistory", "true").unwrap();
        o.set("RootReductions", "true").unwrap();
        o.set("LateMoveDepth", "6").unwrap();
        o.set("QuiescencePromotions", "true").unwrap();
        let t = o.config().tweaks;
        assert!(t.continuation_history && t.root_reductions && t.late_move_depth == 6);
        assert!(t.quiescence_promotions);
        assert!(o.set("LateMoveDepth", "deep").is_err());
        o.set("LateMoveDepth", "1000").unwrap();
        assert_eq!(
            o.config().tweaks.late_move_depth,
            64,
            "clamped to the advertised max"
        );
        for line in [
            "Threats",
            "ThreatPenalty",
            "ThreatQuiescencePlies",
            "QuiescenceTT",
            "ContinuationHistory",
            "RootReductions",
            "LateMoveDepth",
            "QuiescencePromotions",
        ] {
            let name = format!("option name {line} type");
            assert!(o.usi_lines().iter().any(|l| l.starts_with(&name)), "{line}");
        }
    }

    /// `LinearWeights` loads the learned evaluation into the search configuration, and a
    /// file that is missing or no weights file is refused with the old weights kept.
    #[test]
    fn linear_weights_option() {
        let mut o = Options::default();
        assert!(o.config().linear.is_none());
        o.set("LinearWeights", "weights/linear.txt").unwrap();
        let w = o.config().linear.expect("loaded");
        let text = std::fs::read_to_string("weights/linear.txt").unwrap();
        assert_eq!(*w, LinearWeights::parse(&text).unwrap());
        let e = o.set("LinearWeights", "no/such/file.txt").unwrap_err();
        assert!(matches!(e, OptionError::LinearUnreadable { .. }), "{e}");
        let e = o.set("LinearWeights", "Cargo.toml").unwrap_err();
        assert!(matches!(e, OptionError::LinearInvalid { .. }), "{e}");
        assert!(o.config().linear.is_some(), "the loaded weights are kept");
        o.set("LinearWeights", "<empty>").unwrap();
        assert!(o.config().linear.is_none());
    }

    #[test]
    fn setoption_parse() {
        assert_eq!(
            parse_command("setoption name USI_Hash value 128").unwrap(),
            Command::SetOption {
                name: "USI_Hash".into(),
                value: "128".into()
            }
        );
        assert_eq!(
            parse_command("setoption name Weights value my weights.txt").unwrap(),
            Command::SetOption {
                name: "Weights".into(),
                value: "my weights.txt".into()
            }
        );
        assert_eq!(
            parse_command("setoption name USI_Ponder").unwrap(),
            Command::SetOption {
                name: "USI_Ponder".into(),
                value: "".into()
            }
        );
        assert!(parse_command("setoption USI_Hash 1").is_err());
    }

    #[test]
    fn simple_commands() {
        for (text, c) in [
            ("usi", Command::Usi),
            ("isready", Command::IsReady),
            ("usinewgame", Command::UsiNewGame),
            ("stop", Command::Stop),
            ("ponderhit", Command::PonderHit),
            ("quit", Command::Quit),
            ("   ", Command::Empty),
            ("gameover win", Command::GameOver("win".into())),
        ] {
            assert_eq!(parse_command(text).unwrap(), c, "{text}");
        }
        assert!(
            parse_command("fly")
                .unwrap_err()
                .to_string()
                .contains("fly")
        );
    }

    #[test]
    fn errors_read_as_before() {
        let text = |line: &str| parse_command(line).unwrap_err().to_string();
        assert_eq!(text("fly"), "unknown command `fly`");
        assert_eq!(text("setoption USI_Hash"), "setoption: expected `name`");
        assert_eq!(text("setoption name value 1"), "setoption: empty name");
        assert_eq!(
            text("position startpos 7g7f"),
            "position startpos: unexpected tokens"
        );
        assert_eq!(
            text("position sfen 9/9 b"),
            "position sfen: incomplete SFEN"
        );
        assert_eq!(
            text("position banana"),
            "position: expected `startpos` or `sfen`"
        );
        assert_eq!(text("go depth"), "go: `depth` needs a value");
        assert_eq!(text("go btime x"), "go: bad value `x` for `btime`");
        assert_eq!(text("go mate soon"), "go: bad value `soon` for `mate`");
        assert_eq!(text("go sideways"), "go: unknown token `sideways`");

        let mut o = Options::default();
        let refusal =
            |o: &mut Options, name: &str, value: &str| o.set(name, value).unwrap_err().to_string();
        assert_eq!(
            refusal(&mut o, "USI_Hash", "lots"),
            "option USI_Hash: bad number `lots`"
        );
        assert_eq!(
            refusal(&mut o, "EnteringKingRule", "Rule99"),
            "option EnteringKingRule: unknown rule `Rule99`"
        );
        assert_eq!(
            refusal(&mut o, "Mode", "chess"),
            "unknown mode `chess` (search, decl24)"
        );
        assert_eq!(refusal(&mut o, "Colour", "blue"), "unknown option `Colour`");
        let missing = refusal(&mut o, "Weights", "/nonexistent/weights.txt");
        assert!(
            missing.starts_with("option Weights: cannot read `/nonexistent/weights.txt`: "),
            "{missing}"
        );

        let bad_sfen = apply_position(Some("9/9 b - 1"), &[]).unwrap_err();
        assert!(
            bad_sfen
                .to_string()
                .starts_with("position: bad SFEN `9/9 b - 1`: "),
            "{bad_sfen}"
        );
        let complaint = |moves: &[&str]| {
            let moves: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
            let (_, history, c) = apply_position(None, &moves).unwrap();
            (history.len(), c.unwrap().to_string())
        };
        assert_eq!(
            complaint(&["7g7f", "zz"]),
            (
                1,
                "position: unreadable move `zz` at ply 2: invalid USI move `zz`".to_string()
            )
        );
        let (kept, illegal) = complaint(&["7g7f", "3c3d", "5e5d"]);
        assert_eq!(kept, 2);
        assert!(
            illegal.starts_with("position: illegal move `5e5d` at ply 3: "),
            "{illegal}"
        );
    }

    #[test]
    fn options_apply_and_refuse() {
        let mut o = Options::default();
        o.set("USI_Hash", "16").unwrap();
        assert_eq!(o.hash_mb, 16);
        o.set("MaxMovesToDraw", "256").unwrap();
        assert_eq!(o.max_moves_to_draw, 256);
        o.set("Mode", "decl24").unwrap();
        assert_eq!(o.mode, Mode::Decl24);
        assert!(o.set("Mode", "chess").is_err());
        assert!(o.set("USI_Hash", "lots").is_err());
        assert!(o.set("Colour", "blue").is_err());
        assert!(o.set("Weights", "/nonexistent/weights.txt").is_err());
        o.set("Weights", "<empty>").unwrap();
        assert_eq!(o.weights, Weights::default());
        o.set("Threads", "0").unwrap();
        assert_eq!(o.threads, 1);
    }
}
