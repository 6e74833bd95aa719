//! A small client of an outside USI engine used as the teacher: start it, set its
//! options, and ask for the score (and best move) of one position at a time.
//!
//! The score is the last `info ... score cp N` or `score mate N` before `bestmove`. A
//! search that does not end within the time allowed is stopped (`stop`); an engine that
//! then still says nothing, or that dies, is restarted and the position gets no label.
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use super::record::MATE_SCORE;

/// How to start and drive the teacher.
#[derive(Debug, Clone, PartialEq)]
pub struct TeacherSpec {
    /// The program.
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// `setoption` pairs sent after `usi`.
    pub options: Vec<(String, String)>,
    /// The `go` command of each search (e.g. `go byoyomi 10000`).
    pub go: String,
    /// Seconds to wait for `bestmove` before sending `stop`.
    pub timeout_s: f64,
}

/// The teacher's answer for one position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    /// Score for the side to move on the teacher's scale; a mate in `n` is
    /// `±(MATE_SCORE - n)`.
    pub score: i32,
    /// Whether it is a mate score.
    pub mate: bool,
    /// The best move (`resign` and `win` included), as the teacher wrote it.
    pub best: String,
}

/// What the teacher failed at.
#[derive(Debug, thiserror::Error)]
pub enum TeacherError {
    /// The program cannot be started or written to.
    #[error("teacher: {0}")]
    Io(#[from] std::io::Error),
    /// No answer within the time allowed.
    #[error("teacher: no `{0}` in time")]
    Timeout(&'static str),
    /// The program ended.
    #[error("teacher: the program ended")]
    Ended,
}

/// A running teacher.
pub struct Teacher {
    spec: TeacherSpec,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Restarts after a timeout or a crash.
    pub restarts: u32,
}

/// Parse the score of one `info` line, if it has one.
pub fn parse_score(line: &str) -> Option<(i32, bool)> {
    let mut it = line.split_whitespace();
    if it.next()? != "info" {
        return None;
    }
    while let Some(t) = it.next() {
        if t == "score" {
            let kind = it.next()?;
            let v = it.next()?;
            return match kind {
                "cp" => v.parse::<i32>().ok().map(|x| (x, false)),
                "mate" => {
                    let negative = v.starts_with('-');
                    let n = v.trim_start_matches(['+', '-']).parse::<i32>().unwrap_or(0);
                    let m = MATE_SCORE - n.clamp(0, 1000);
                    Some((if negative { -m } else { m }, true))
                }
                _ => None,
            };
        }
    }
    None
}

impl Teacher {
    /// Start the program and wait for `usiok` and `readyok`.
    pub fn start(spec: &TeacherSpec) -> Result<Teacher, TeacherError> {
        let mut child = Command::new(&spec.program)
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let stdin = child.stdin.take().ok_or(TeacherError::Ended)?;
        let stdout = child.stdout.take().ok_or(TeacherError::Ended)?;
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut t = Teacher {
            spec: spec.clone(),
            child,
            stdin,
            lines: rx,
            restarts: 0,
        };
        t.send("usi")?;
        t.wait_for("usiok", Duration::from_secs(30))?;
        for (k, v) in spec.options.clone() {
            t.send(&format!("setoption name {k} value {v}"))?;
        }
        t.send("isready")?;
        t.wait_for("readyok", Duration::from_secs(60))?;
        t.send("usinewgame")?;
        Ok(t)
    }

    fn send(&mut self, s: &str) -> Result<(), TeacherError> {
        writeln!(self.stdin, "{s}")?;
        self.stdin.flush()?;
        Ok(())
    }

    fn wait_for(
        &mut self,
        word: &'static str,
        limit: Duration,
    ) -> Result<Vec<String>, TeacherError> {
        let end = Instant::now() + limit;
        let mut seen = Vec::new();
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    let first = l.split_whitespace().next() == Some(word);
                    seen.push(l);
                    if first {
                        return Ok(seen);
                    }
                }
                Err(RecvTimeoutError::Timeout) => return Err(TeacherError::Timeout(word)),
                Err(RecvTimeoutError::Disconnected) => return Err(TeacherError::Ended),
            }
        }
    }

    /// The teacher's label of the position given as USI text (`sfen ...` or
    /// `startpos ...`). `Ok(None)`: it gave no score (after a restart if it hung).
    pub fn label(&mut self, position: &str) -> Result<Option<Label>, TeacherError> {
        let go = self.spec.go.clone();
        let asked = self
            .send(&format!("position {position}"))
            .and_then(|_| self.send(&go));
        let limit = Duration::from_secs_f64(self.spec.timeout_s.max(0.1));
        let answer = match asked {
            Ok(()) => match self.wait_for("bestmove", limit) {
                Ok(lines) => Ok(lines),
                Err(TeacherError::Timeout(_)) => {
                    let _ = self.send("stop");
                    self.wait_for("bestmove", Duration::from_secs(5))
                }
                Err(e) => Err(e),
            },
            Err(e) => Err(e),
        };
        match answer {
            Ok(lines) => {
                let best = lines
                    .last()
                    .and_then(|l| l.split_whitespace().nth(1))
                    .unwrap_or("")
                    .to_string();
                let score =
                    lines
                        .iter()
                        .rev()
                        .find_map(|l| parse_score(l))
                        .or(match best.as_str() {
                            "resign" => Some((-MATE_SCORE, true)),
                            "win" => Some((MATE_SCORE, true)),
                            _ => None,
                        });
                Ok(score.map(|(score, mate)| Label { score, mate, best }))
            }
            Err(_) => {
                self.restart()?;
                Ok(None)
            }
        }
    }

    fn restart(&mut self) -> Result<(), TeacherError> {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let restarts = self.restarts + 1;
        *self = Teacher::start(&self.spec)?;
        self.restarts = restarts;
        Ok(())
    }
}

impl Drop for Teacher {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let end = Instant::now() + Duration::from_millis(500);
        while Instant::now() < end {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_are_read_from_info_lines() {
        assert_eq!(
            parse_score("info depth 4 seldepth 6 time 11 score cp 114 nodes 4250 pv 5g5f"),
            Some((114, false))
        );
        assert_eq!(
            parse_score("info score cp -2583 pv 4g3h"),
            Some((-2583, false))
        );
        assert_eq!(
            parse_score("info depth 3 score mate 5 pv x"),
            Some((29_995, true))
        );
        assert_eq!(parse_score("info score mate -2"), Some((-29_998, true)));
        assert_eq!(parse_score("info score mate +"), Some((30_000, true)));
        assert_eq!(parse_score("info score mate -"), Some((-30_000, true)));
        assert_eq!(parse_score("info depth 4 nodes 10"), None);
        assert_eq!(parse_score("bestmove 7g7f"), None);
        assert_eq!(parse_score("info score cp lots"), None);
    }
}
