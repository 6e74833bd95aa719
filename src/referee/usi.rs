//! An outside USI engine as a child process, spoken to with a deadline on every answer.
//!
//! The engine runs in a process group of its own (Unix): a Ctrl-C at the terminal reaches
//! only this program, which then ends every engine itself, and killing an engine ends the
//! whole group (an engine started through a shell script included). Its standard output
//! is read by a thread of its own, so that waiting for a line never blocks past a
//! deadline; its standard error is discarded. Dropping a [`UsiEngine`] kills the group
//! and reaps the process: no engine outlives its [`UsiEngine`].
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// Why an engine gave no usable answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineFailure {
    /// The process could not be started, ended, or closed its standard input or output.
    #[error("engine crashed: {0}")]
    Crash(String),
    /// No answer within the deadline (the engine is killed).
    #[error("engine timed out: {0}")]
    Timeout(String),
    /// The run was interrupted (SIGINT or SIGTERM) while waiting.
    #[error("interrupted")]
    Interrupted,
}

/// What a `go` was answered with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BestMove {
    /// `bestmove <move>`: the text after `bestmove` (not yet checked).
    Move(String),
    /// `bestmove win`: a declaration.
    Win,
    /// `bestmove resign`.
    Resign,
}

/// A player's answer to a position, and how long it thought: from the question (the
/// `go` written) to the answer (the `bestmove` read).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// The answer.
    pub best: BestMove,
    /// Time from the `go` to the `bestmove`.
    pub elapsed: Duration,
    /// Nodes searched, where the player counts them in-process (0 for outside engines).
    pub nodes: u64,
    /// The last score the engine gave before answering (`info ... score`), if any.
    pub score: Option<UsiScore>,
}

impl Answer {
    /// An answer with no count and no score.
    pub fn plain(best: BestMove, elapsed: Duration) -> Answer {
        Answer {
            best,
            elapsed,
            nodes: 0,
            score: None,
        }
    }
}

/// A score of an `info` line, for the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UsiScore {
    /// `score cp N`.
    Cp(i32),
    /// `score mate N`: mate in `plies` (0 when the engine wrote only the sign), won for
    /// the side to move when `wins`.
    Mate {
        /// Plies to the mate.
        plies: u32,
        /// Whether the side to move mates (`+`) or is mated (`-`).
        wins: bool,
    },
}

/// The score of one `info` line, if it has one (`score cp N`, `score mate [+-]N`,
/// `score mate +`, `score mate -`).
pub fn parse_info_score(line: &str) -> Option<UsiScore> {
    let mut it = line.split_whitespace();
    if it.next()? != "info" {
        return None;
    }
    while let Some(t) = it.next() {
        if t == "score" {
            let kind = it.next()?;
            let v = it.next()?;
            return match kind {
                "cp" => v.parse::<i32>().ok().map(UsiScore::Cp),
                "mate" => Some(UsiScore::Mate {
                    plies: v.trim_start_matches(['+', '-']).parse::<u32>().unwrap_or(0),
                    wins: !v.starts_with('-'),
                }),
                _ => None,
            };
        }
    }
    None
}

/// The search limit of a `go`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GoLimit {
    /// `go btime 0 wtime 0 byoyomi MS`.
    Byoyomi(u64),
    /// `go nodes N` (engines that support it).
    Nodes(u64),
    /// `go depth N` (engines that support it).
    Depth(u32),
    /// A `go` command as written (`go byoyomi 20000`, `go movetime 100`, ...).
    Command(String),
}

impl GoLimit {
    /// The `go` command.
    pub fn command(&self) -> String {
        match self {
            GoLimit::Byoyomi(ms) => format!("go btime 0 wtime 0 byoyomi {ms}"),
            GoLimit::Nodes(n) => format!("go nodes {n}"),
            GoLimit::Depth(d) => format!("go depth {d}"),
            GoLimit::Command(c) => c.clone(),
        }
    }
}

/// A USI engine process.
#[derive(Debug)]
pub struct UsiEngine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// `id name` as the engine gave it (the command when it gave none).
    pub name: String,
    /// How long to wait for any answer.
    pub timeout: Duration,
    /// Polled while waiting: true stops the wait with [`EngineFailure::Interrupted`].
    pub stop: fn() -> bool,
    reaped: bool,
}

fn never() -> bool {
    false
}

/// Split a command line at whitespace (no shell quoting).
pub fn split_command(command: &str) -> Vec<String> {
    command.split_whitespace().map(str::to_string).collect()
}

impl UsiEngine {
    /// Start `command` (split at whitespace), and do the handshake: `usi` .. `usiok`,
    /// every `setoption`, `isready` .. `readyok`. Each answer waits at most `timeout`.
    pub fn start(
        command: &str,
        options: &[(String, String)],
        timeout: Duration,
        stop: Option<fn() -> bool>,
    ) -> Result<UsiEngine, EngineFailure> {
        UsiEngine::start_argv(&split_command(command), options, timeout, stop)
    }

    /// [`UsiEngine::start`] with the program and its arguments given apart (a program
    /// whose path holds a space).
    pub fn start_argv(
        argv: &[String],
        options: &[(String, String)],
        timeout: Duration,
        stop: Option<fn() -> bool>,
    ) -> Result<UsiEngine, EngineFailure> {
        let command = argv.join(" ");
        let Some((program, args)) = argv.split_first() else {
            return Err(EngineFailure::Crash("empty engine command".into()));
        };
        let mut cmd = Command::new(program);
        cmd.args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt as _;
            cmd.process_group(0);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| EngineFailure::Crash(format!("cannot start `{command}`: {e}")))?;
        let stdout = child.stdout.take();
        let stdin = child.stdin.take();
        let (tx, rx) = channel();
        if let Some(out) = stdout {
            std::thread::spawn(move || {
                let mut r = BufReader::new(out);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match r.read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let line = String::from_utf8_lossy(&buf).trim().to_string();
                            if tx.send(line).is_err() {
                                break;
                            }
                        }
                    }
                }
            });
        }
        let mut e = UsiEngine {
            child,
            stdin,
            lines: rx,
            name: command.clone(),
            timeout,
            stop: stop.unwrap_or(never),
            reaped: false,
        };
        e.send("usi")?;
        loop {
            let line = e.read_line("usiok")?;
            if let Some(n) = line.strip_prefix("id name ") {
                e.name = n.trim().to_string();
            } else if line == "usiok" {
                break;
            }
        }
        for (name, value) in options {
            e.send(&format!("setoption name {name} value {value}"))?;
        }
        e.ready()?;
        Ok(e)
    }

    /// The engine's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Write one line.
    pub fn send(&mut self, line: &str) -> Result<(), EngineFailure> {
        let Some(w) = self.stdin.as_mut() else {
            return Err(EngineFailure::Crash("standard input closed".into()));
        };
        writeln!(w, "{line}")
            .and_then(|_| w.flush())
            .map_err(|e| EngineFailure::Crash(format!("writing `{line}`: {e}")))
    }

    /// The next line, waiting at most the timeout (`what`: the answer awaited, for the
    /// message).
    fn read_line(&mut self, what: &str) -> Result<String, EngineFailure> {
        let deadline = Instant::now() + self.timeout;
        loop {
            if (self.stop)() {
                return Err(EngineFailure::Interrupted);
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(EngineFailure::Timeout(format!(
                    "no {what} within {} ms",
                    self.timeout.as_millis()
                )));
            }
            let slice = (deadline - now).min(Duration::from_millis(50));
            match self.lines.recv_timeout(slice) {
                Ok(line) => return Ok(line),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    // The output closes as the process ends: end what is left of its
                    // group (the pid is not reaped yet, so it is still this engine's) and
                    // reap it, for its exit status.
                    kill_group(self.child.id());
                    let status = self
                        .child
                        .wait()
                        .map(|s| format!(" ({s})"))
                        .unwrap_or_default();
                    self.reaped = true;
                    return Err(EngineFailure::Crash(format!(
                        "output closed before {what}{status}"
                    )));
                }
            }
        }
    }

    /// `isready` .. `readyok`.
    pub fn ready(&mut self) -> Result<(), EngineFailure> {
        self.send("isready")?;
        while self.read_line("readyok")? != "readyok" {}
        Ok(())
    }

    /// `usinewgame` and `isready` .. `readyok`.
    pub fn new_game(&mut self) -> Result<(), EngineFailure> {
        self.send("usinewgame")?;
        self.ready()
    }

    /// Send the position (`sfen START moves ...`) and `go`, and wait for `bestmove`; the
    /// answer carries the last score of the `info` lines before it.
    pub fn think(
        &mut self,
        start_sfen: &str,
        moves: &[String],
        limit: &GoLimit,
    ) -> Result<Answer, EngineFailure> {
        let mut pos = format!("position sfen {start_sfen}");
        if !moves.is_empty() {
            pos.push_str(" moves ");
            pos.push_str(&moves.join(" "));
        }
        self.send(&pos)?;
        let t0 = Instant::now();
        self.send(&limit.command())?;
        let mut score = None;
        loop {
            let line = self.read_line("bestmove")?;
            let mut words = line.split_whitespace();
            if words.next() != Some("bestmove") {
                if let Some(s) = parse_info_score(&line) {
                    score = Some(s);
                }
                continue;
            }
            let elapsed = t0.elapsed();
            let best = match words.next() {
                Some("win") => BestMove::Win,
                Some("resign") => BestMove::Resign,
                Some(m) => BestMove::Move(m.to_string()),
                None => BestMove::Move(String::new()),
            };
            return Ok(Answer {
                best,
                elapsed,
                nodes: 0,
                score,
            });
        }
    }

    /// End the process group now and reap the process.
    pub fn kill(&mut self) {
        self.stdin = None;
        if self.reaped {
            return;
        }
        kill_group(self.child.id());
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.reaped = true;
    }

    /// Say `quit`, give the engine a moment to end, then end what is left of its group.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        self.stdin = None;
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                // Whatever the engine started in its group goes with it.
                kill_group(self.child.id());
                self.reaped = true;
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        // Drop kills it.
    }
}

/// SIGKILL to the process group `pid` leads (Unix; elsewhere nothing).
fn kill_group(pid: u32) {
    #[cfg(unix)]
    {
        unsafe extern "C" {
            fn kill(pid: i32, sig: i32) -> i32;
        }
        if let Ok(pid) = i32::try_from(pid)
            && pid > 0
        {
            // SAFETY: a plain system call on the group the engine leads.
            unsafe {
                kill(-pid, 9);
            }
        }
    }
    #[cfg(not(unix))]
    let _ = pid;
}

impl Drop for UsiEngine {
    fn drop(&mut self) {
        self.kill();
    }
}
