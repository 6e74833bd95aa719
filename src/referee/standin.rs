//! A scripted USI engine for tests: it answers each `go` with the next step of a script
//! (comma-separated, repeated from the start when it runs out), and so plays a fixed line,
//! declares, resigns, hangs or crashes on demand.
//!
//! Steps: `first` (the first legal move in generation order), `move=7g7f` (that text,
//! legal or not), `win`, `resign`, `hang` (never answer again), `crash` (end the process
//! at once, exit code 3), `garbage` (`bestmove` followed by no move), `sleep=MS` (wait,
//! then as `first`).
use std::io::{BufRead, Write};
use std::time::Duration;

use crate::shogi::{Move, Position};

/// One step of a script.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// The first legal move.
    First,
    /// This text as the move.
    Move(String),
    /// `bestmove win`.
    Win,
    /// `bestmove resign`.
    Resign,
    /// Never answer again.
    Hang,
    /// End the process.
    Crash,
    /// `bestmove` with no move.
    Garbage,
    /// Wait this many milliseconds, then play the first legal move.
    Sleep(u64),
}

/// Read a script (see the module's documentation).
pub fn parse_script(s: &str) -> Result<Vec<Step>, String> {
    let mut out = Vec::new();
    for item in s.split(',').map(str::trim).filter(|t| !t.is_empty()) {
        let step = match item.split_once('=') {
            Some(("move", m)) => Step::Move(m.to_string()),
            Some(("sleep", ms)) => Step::Sleep(
                ms.parse()
                    .map_err(|_| format!("sleep=`{ms}`: not a number"))?,
            ),
            Some(_) => return Err(format!("unknown step `{item}`")),
            None => match item {
                "first" => Step::First,
                "win" => Step::Win,
                "resign" => Step::Resign,
                "hang" => Step::Hang,
                "crash" => Step::Crash,
                "garbage" => Step::Garbage,
                _ => return Err(format!("unknown step `{item}`")),
            },
        };
        out.push(step);
    }
    if out.is_empty() {
        return Err("empty script".into());
    }
    Ok(out)
}

/// The position of a `position` command (None if it cannot be read).
fn read_position(line: &str) -> Option<Position> {
    let rest = line.strip_prefix("position")?.trim();
    let (mut pos, moves) = if let Some(r) = rest.strip_prefix("startpos") {
        (Position::startpos(), r)
    } else {
        let r = rest.strip_prefix("sfen")?.trim();
        let (sfen, moves) = match r.find(" moves") {
            Some(i) => (&r[..i], &r[i..]),
            None => (r, ""),
        };
        (Position::from_sfen(sfen.trim()).ok()?, moves)
    };
    let moves = moves.trim().strip_prefix("moves").unwrap_or("");
    for m in moves.split_whitespace() {
        pos.play(Move::from_usi(m).ok()?).ok()?;
    }
    Some(pos)
}

/// Speak USI on `input` and `output` following `script`, as the engine `name`. Returns
/// when `quit` is read or the input ends; a `crash` step ends the process.
pub fn run(
    name: &str,
    script: &[Step],
    input: impl BufRead,
    mut output: impl Write,
) -> std::io::Result<()> {
    let mut pos = Position::startpos();
    let mut next = 0usize;
    for line in input.lines() {
        let line = line?;
        let line = line.trim();
        let word = line.split_whitespace().next().unwrap_or("");
        match word {
            "usi" => writeln!(output, "id name {name}\nid author test\nusiok")?,
            "isready" => writeln!(output, "readyok")?,
            "position" => {
                if let Some(p) = read_position(line) {
                    pos = p;
                }
            }
            "go" => {
                let step = &script[next % script.len()];
                next += 1;
                let first = || {
                    pos.legal_moves()
                        .as_slice()
                        .first()
                        .map_or("resign".to_string(), |m| m.to_usi())
                };
                let answer = match step {
                    Step::First => first(),
                    Step::Move(m) => m.clone(),
                    Step::Win => "win".into(),
                    Step::Resign => "resign".into(),
                    Step::Garbage => String::new(),
                    Step::Sleep(ms) => {
                        std::thread::sleep(Duration::from_millis(*ms));
                        first()
                    }
                    Step::Hang => loop {
                        std::thread::sleep(Duration::from_secs(3600));
                    },
                    Step::Crash => std::process::exit(3),
                };
                writeln!(output, "info depth 1 score cp 0")?;
                if answer.is_empty() {
                    writeln!(output, "bestmove")?;
                } else {
                    writeln!(output, "bestmove {answer}")?;
                }
            }
            "quit" => return Ok(()),
            _ => {}
        }
        output.flush()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_are_read_and_answered_in_turn() {
        assert_eq!(
            parse_script("first, move=7g7f,win,sleep=5").unwrap(),
            [
                Step::First,
                Step::Move("7g7f".into()),
                Step::Win,
                Step::Sleep(5)
            ]
        );
        assert!(parse_script("fly").is_err());
        assert!(parse_script("").is_err());
        let script = parse_script("move=7g7f,win").unwrap();
        let input = "usi\nisready\nposition startpos\ngo\ngo\ngo\nquit\n";
        let mut out = Vec::new();
        run("S", &script, input.as_bytes(), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let best: Vec<&str> = text.lines().filter(|l| l.starts_with("bestmove")).collect();
        assert_eq!(best, ["bestmove 7g7f", "bestmove win", "bestmove 7g7f"]);
        assert!(text.starts_with("id name S\n"));
        let p = read_position("position startpos moves 7g7f 3c3d").unwrap();
        assert_eq!(p.move_number(), 3);
    }
}
