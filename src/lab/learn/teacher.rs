//! The teacher: an outside USI engine (spoken to through the referee's one USI client,
//! [`crate::referee::usi::UsiEngine`]) asked for the score and best move of one position at
//! a time.
//!
//! The score is the last `info ... score cp N` or `score mate N` before `bestmove`. An
//! engine that does not answer within the time allowed, or that dies, is started afresh
//! and the position gets no label.
use std::time::Duration;

use super::record::MATE_SCORE;
use crate::referee::usi::{Answer, BestMove, EngineFailure, GoLimit, UsiEngine, UsiScore};

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
    /// Seconds the handshake (`usi` .. `usiok`, `isready` .. `readyok`) may take, at the
    /// start and at every restart ([`DEFAULT_HANDSHAKE_S`]).
    pub handshake_s: f64,
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

/// What the teacher failed at: it could not be started (again).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("teacher `{program}`: {failure}")]
pub struct TeacherError {
    /// The program.
    pub program: String,
    /// Why.
    pub failure: EngineFailure,
}

/// A running teacher.
pub struct Teacher {
    spec: TeacherSpec,
    engine: UsiEngine,
    /// The last position asked and its answer: a position asked twice in a row (labelled,
    /// then played from) costs one search.
    last: Option<(String, Option<Answer>)>,
    /// Restarts after a timeout or a crash.
    pub restarts: u32,
}

/// The score of a teacher's answer on the label scale: a mate in `n` is
/// `±(MATE_SCORE - n)`; an answer without a score but `resign` or `win` scores as a mate.
pub fn label_of(answer: &Answer) -> Option<Label> {
    let best = match &answer.best {
        BestMove::Move(m) => m.clone(),
        BestMove::Win => "win".into(),
        BestMove::Resign => "resign".into(),
    };
    let (score, mate) = match answer.score {
        Some(UsiScore::Cp(x)) => (x, false),
        Some(UsiScore::Mate { plies, wins }) => {
            let m = MATE_SCORE - plies.min(1000) as i32;
            (if wins { m } else { -m }, true)
        }
        None => match answer.best {
            BestMove::Resign => (-MATE_SCORE, true),
            BestMove::Win => (MATE_SCORE, true),
            BestMove::Move(_) => return None,
        },
    };
    Some(Label { score, mate, best })
}

/// How long the handshake (`usi` .. `usiok`, `isready` .. `readyok`) may take unless
/// the spec says otherwise, seconds.
pub const DEFAULT_HANDSHAKE_S: f64 = 60.0;

/// Starts tried when a teacher is restarted before the run is given up: a machine
/// loaded for a while may starve one start (a long labelling run should not end on it).
pub const RESTART_TRIES: u32 = 3;

/// The pause between two tries of a restart.
const RESTART_PAUSE: Duration = Duration::from_secs(2);

/// A limit in seconds as a duration: at least a tenth of a second, at most a year (an
/// absurd value, infinity or NaN included, never panics).
fn seconds(s: f64) -> Duration {
    Duration::from_secs_f64(if s.is_nan() {
        0.1
    } else {
        s.clamp(0.1, 31_536_000.0)
    })
}

impl Teacher {
    /// Start the program, set its options, and begin a game (`usinewgame`).
    pub fn start(spec: &TeacherSpec) -> Result<Teacher, TeacherError> {
        let fail = |failure| TeacherError {
            program: spec.program.clone(),
            failure,
        };
        let argv: Vec<String> = std::iter::once(spec.program.clone())
            .chain(spec.args.iter().cloned())
            .collect();
        let handshake = seconds(spec.handshake_s);
        let mut engine =
            UsiEngine::start_argv(&argv, &spec.options, handshake, None).map_err(fail)?;
        engine.new_game().map_err(fail)?;
        engine.timeout = seconds(spec.timeout_s);
        Ok(Teacher {
            spec: spec.clone(),
            engine,
            last: None,
            restarts: 0,
        })
    }

    /// The teacher's answer for the position of `sfen` (its best move and last score).
    /// `Ok(None)`: it gave no answer in time or ended (it has been started afresh).
    pub fn answer(&mut self, sfen: &str) -> Result<Option<Answer>, TeacherError> {
        if let Some((asked, answer)) = &self.last
            && asked == sfen
        {
            return Ok(answer.clone());
        }
        let go = GoLimit::Command(self.spec.go.clone());
        let answer = match self.engine.think(sfen, &[], &go) {
            Ok(a) => Some(a),
            Err(_) => {
                self.restart()?;
                None
            }
        };
        self.last = Some((sfen.to_string(), answer.clone()));
        Ok(answer)
    }

    /// The teacher's label of the position of `sfen`. `Ok(None)`: it gave no score (or
    /// no answer: it has been started afresh).
    pub fn label(&mut self, sfen: &str) -> Result<Option<Label>, TeacherError> {
        Ok(self.answer(sfen)?.as_ref().and_then(label_of))
    }

    /// Start the program afresh (the old process killed first), trying up to
    /// [`RESTART_TRIES`] times; the last failure is the error.
    fn restart(&mut self) -> Result<(), TeacherError> {
        let restarts = self.restarts + 1;
        self.engine.kill();
        let mut tries = 1;
        loop {
            match Teacher::start(&self.spec) {
                Ok(t) => {
                    *self = t;
                    self.restarts = restarts;
                    return Ok(());
                }
                Err(e) if tries >= RESTART_TRIES => return Err(e),
                Err(_) => {
                    tries += 1;
                    std::thread::sleep(RESTART_PAUSE);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::usi::parse_info_score;

    fn label(line: &str, best: BestMove) -> Option<(i32, bool)> {
        let answer = Answer {
            best,
            elapsed: Duration::ZERO,
            nodes: 0,
            score: parse_info_score(line),
        };
        label_of(&answer).map(|l| (l.score, l.mate))
    }

    #[test]
    fn limits_in_seconds_never_panic() {
        assert_eq!(seconds(2.5), Duration::from_millis(2500));
        assert_eq!(seconds(0.0), Duration::from_millis(100));
        assert_eq!(seconds(-3.0), Duration::from_millis(100));
        assert_eq!(seconds(f64::NAN), Duration::from_millis(100));
        assert_eq!(seconds(f64::INFINITY), Duration::from_secs(31_536_000));
    }

    #[test]
    fn scores_are_read_from_info_lines() {
        let mv = || BestMove::Move("7g7f".into());
        assert_eq!(
            label(
                "info depth 4 seldepth 6 time 11 score cp 114 nodes 4250 pv 5g5f",
                mv()
            ),
            Some((114, false))
        );
        assert_eq!(
            label("info score cp -2583 pv 4g3h", mv()),
            Some((-2583, false))
        );
        assert_eq!(
            label("info depth 3 score mate 5 pv x", mv()),
            Some((29_995, true))
        );
        assert_eq!(label("info score mate -2", mv()), Some((-29_998, true)));
        assert_eq!(label("info score mate +", mv()), Some((30_000, true)));
        assert_eq!(label("info score mate -", mv()), Some((-30_000, true)));
        assert_eq!(label("info depth 4 nodes 10", mv()), None);
        assert_eq!(label("bestmove 7g7f", mv()), None);
        assert_eq!(label("info score cp lots", mv()), None);
        // No score, but a resignation or a declaration.
        assert_eq!(
            label("info depth 1", BestMove::Resign),
            Some((-30_000, true))
        );
        assert_eq!(label("", BestMove::Win), Some((30_000, true)));
    }
}
