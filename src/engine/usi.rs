//! The USI protocol: command parsing, options, and a session that runs searches on a
//! worker thread so that `stop` and `ponderhit` are heard while it thinks. Input lines come
//! from a reader thread through a channel; output goes through one shared writer so that
//! `info` and `bestmove` lines never interleave.
//!
//! Bad input never ends the session: an unreadable command, a bad option value, an
//! unreadable SFEN or an illegal move in `position` is answered with `info string ...`.
use std::io::{BufRead, Write};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, mpsc};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::decl24::Weights;
use super::mate::{self, MateLimits};
use super::search::{Config, Control, Decision, Info, Mode, Searcher};
use super::time::Limits;
use crate::shogi::{EnteringKingRule, Move, Position};

/// One parsed USI command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    Usi,
    IsReady,
    SetOption {
        name: String,
        value: String,
    },
    UsiNewGame,
    /// `position`: `sfen = None` for `startpos`; moves as written.
    Position {
        sfen: Option<String>,
        moves: Vec<String>,
    },
    Go(Limits),
    Stop,
    PonderHit,
    GameOver(String),
    Quit,
    /// A blank line.
    Empty,
}

/// Parse one line. `Err` names what could not be read.
pub fn parse_command(line: &str) -> Result<Command, String> {
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
        other => Err(format!("unknown command `{other}`")),
    }
}

fn parse_setoption(rest: &[&str]) -> Result<Command, String> {
    if rest.first() != Some(&"name") {
        return Err("setoption: expected `name`".into());
    }
    let value_at = rest.iter().position(|t| *t == "value");
    let name_end = value_at.unwrap_or(rest.len());
    let name = rest[1..name_end].join(" ");
    if name.is_empty() {
        return Err("setoption: empty name".into());
    }
    let value = match value_at {
        Some(i) => rest[i + 1..].join(" "),
        None => String::new(),
    };
    Ok(Command::SetOption { name, value })
}

fn parse_position(rest: &[&str]) -> Result<Command, String> {
    let moves_at = rest.iter().position(|t| *t == "moves");
    let head = &rest[..moves_at.unwrap_or(rest.len())];
    let moves = match moves_at {
        Some(i) => rest[i + 1..].iter().map(|s| s.to_string()).collect(),
        None => Vec::new(),
    };
    let sfen = match head.first() {
        Some(&"startpos") if head.len() == 1 => None,
        Some(&"startpos") => return Err("position startpos: unexpected tokens".into()),
        Some(&"sfen") if head.len() >= 4 => Some(head[1..].join(" ")),
        Some(&"sfen") => return Err("position sfen: incomplete SFEN".into()),
        _ => return Err("position: expected `startpos` or `sfen`".into()),
    };
    Ok(Command::Position { sfen, moves })
}

fn parse_go(rest: &[&str]) -> Result<Limits, String> {
    let mut l = Limits::default();
    let mut i = 0;
    let num = |i: usize, name: &str| -> Result<u64, String> {
        let t = rest
            .get(i + 1)
            .ok_or_else(|| format!("go: `{name}` needs a value"))?;
        t.parse::<i64>()
            .map(|v| v.max(0) as u64)
            .map_err(|_| format!("go: bad value `{t}` for `{name}`"))
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
                    Some(t) => t
                        .parse::<i64>()
                        .map(|v| v.max(0) as u64)
                        .map_err(|_| format!("go: bad value `{t}` for `mate`"))?,
                });
                if rest.get(i + 1).is_some() {
                    i += 1;
                }
            }
            other => return Err(format!("go: unknown token `{other}`")),
        }
        i += 1;
    }
    Ok(l)
}

/// Engine options settable with `setoption`.
#[derive(Debug, Clone)]
pub struct Options {
    pub hash_mb: usize,
    pub threads: usize,
    pub rule: EnteringKingRule,
    pub max_moves_to_draw: i32,
    pub mode: Mode,
    /// Weights file (empty = compiled-in defaults).
    pub weights_path: String,
    pub weights: Weights,
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
        }
    }

    /// The `option` lines of the `usi` answer.
    pub fn usi_lines(&self) -> Vec<String> {
        let rules: Vec<String> = EnteringKingRule::ALL
            .iter()
            .map(|r| format!(" var {r}"))
            .collect();
        vec![
            "option name USI_Hash type spin default 64 min 1 max 65536".into(),
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
        ]
    }

    /// Apply one `setoption`. `Err` says why the value was refused.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        let int = |v: &str| -> Result<i64, String> {
            v.trim()
                .parse::<i64>()
                .map_err(|_| format!("option {name}: bad number `{v}`"))
        };
        match name.to_ascii_lowercase().as_str() {
            "usi_hash" | "hash" => self.hash_mb = int(value)?.clamp(1, 65_536) as usize,
            "threads" => self.threads = int(value)?.clamp(1, 256) as usize,
            "usi_ponder" => {}
            "enteringkingrule" => {
                self.rule = value
                    .trim()
                    .parse()
                    .map_err(|_| format!("option {name}: unknown rule `{value}`"))?;
            }
            "maxmovestodraw" => self.max_moves_to_draw = int(value)?.clamp(0, 1_000_000) as i32,
            "mode" => self.mode = value.trim().parse()?,
            "weights" => {
                let path = value.trim();
                if path.is_empty() || path == "<empty>" {
                    self.weights_path.clear();
                    self.weights = Weights::default();
                } else {
                    let text = std::fs::read_to_string(path)
                        .map_err(|e| format!("option Weights: cannot read `{path}`: {e}"))?;
                    self.weights = Weights::parse(&text)
                        .map_err(|e| format!("option Weights: `{path}`: {e}"))?;
                    self.weights_path = path.to_string();
                }
            }
            _ => return Err(format!("unknown option `{name}`")),
        }
        Ok(())
    }
}

/// A position, the `(key, in check)` history of the positions before it, and a complaint.
pub type PositionState = (Position, Vec<(u64, bool)>, Option<String>);

/// Apply a `position` command. On an unreadable SFEN the position is unchanged; on an
/// illegal or unreadable move the moves before it are kept. Returns the new position,
/// the history of earlier positions (`(key, in check)`), and any complaint.
pub fn apply_position(sfen: Option<&str>, moves: &[String]) -> Result<PositionState, String> {
    let mut pos = match sfen {
        None => Position::startpos(),
        Some(s) => Position::from_sfen(s).map_err(|e| format!("position: bad SFEN `{s}`: {e}"))?,
    };
    let mut history = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        let m = match Move::from_usi(text) {
            Ok(m) => m,
            Err(e) => {
                return Ok((
                    pos,
                    history,
                    Some(format!(
                        "position: unreadable move `{text}` at ply {}: {e}",
                        i + 1
                    )),
                ));
            }
        };
        let entry = (pos.key(), pos.is_in_check());
        if let Err(kind) = pos.play(m) {
            return Ok((
                pos,
                history,
                Some(format!(
                    "position: illegal move `{text}` at ply {}: {}",
                    i + 1,
                    kind.name()
                )),
            ));
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

    /// Wait for a running search to finish (after `stop`) and take the searcher back.
    fn join(&mut self) {
        if let Some(r) = self.running.take() {
            r.control.stop.store(true, Ordering::SeqCst);
            match r.handle.join() {
                Ok(s) => self.searcher = Some(s),
                Err(_) => self.info_string("search thread failed"),
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
                self.info_string(&e);
                return true;
            }
        };
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
                            if self.options.hash_mb != old_hash
                                && let Some(s) = self.searcher.as_mut()
                            {
                                s.resize(self.options.hash_mb);
                            }
                        }
                        Err(e) => self.info_string(&e),
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
                            self.info_string(&c);
                        }
                    }
                    Err(e) => self.info_string(&e),
                }
            }
            Command::Go(limits) => {
                if self.running.is_some() {
                    self.info_string("go ignored: already searching");
                    return true;
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
            say(&out, &line);
            searcher
        });
        self.running = Some(Running { handle, control });
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
        let handle = std::thread::spawn(move || {
            let limits = MateLimits {
                deadline: (ms != u64::MAX)
                    .then(|| Instant::now() + Duration::from_millis(ms.max(1))),
                ..MateLimits::default()
            };
            let answer = mate::solve(&pos, limits, &c.stop);
            say(&out, &answer.to_usi());
            searcher
        });
        self.running = Some(Running { handle, control });
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
        assert!(parse_command("fly").unwrap_err().contains("fly"));
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
