//! USI command text to typed commands ([`parse_command`]), and a `position` command's
//! SFEN and moves to a position with the history of the positions before it
//! ([`apply_position`]).

use crate::engine::time::Limits;
use crate::shogi::{IllegalMoveKind, Move, Position, PositionParseError, UsiMoveError};

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
}
