//! USI sessions through the real binary: the handshake, options, positions, `go depth`,
//! `go infinite` + `stop`, bad input answered with `info string`, and `bestmove win`; a
//! session never hangs: a search that ended by itself is over (the next `go` and
//! `setoption` are heard), a table too large is refused, absurd clocks are no limit.
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use floodgate_scan::shogi::{Move, Position};

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_floodgate-scan"));
        cmd.arg("usi");
        Engine::spawn(cmd)
    }

    fn spawn(mut cmd: Command) -> Engine {
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("engine starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for l in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Lines up to and including the first that starts with `prefix`.
    fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut out = Vec::new();
        loop {
            let l = self
                .lines
                .recv_timeout(Duration::from_secs(60))
                .unwrap_or_else(|_| panic!("no `{prefix}` line; got {out:?}"));
            let done = l.starts_with(prefix);
            out.push(l);
            if done {
                return out;
            }
        }
    }

    /// The next line, which must come within `secs` seconds.
    fn next(&mut self, secs: u64) -> String {
        self.lines
            .recv_timeout(Duration::from_secs(secs))
            .expect("a line from the engine")
    }

    /// The info lines of a fresh search of `sfen` to `depth` (after `usinewgame`): depth,
    /// seldepth, score, nodes and pv of each, without the times.
    fn search_lines(&mut self, sfen: &str, depth: u32) -> Vec<String> {
        self.send("usinewgame");
        self.send(&format!("position sfen {sfen}"));
        self.send(&format!("go depth {depth}"));
        self.until("bestmove")
            .iter()
            .map(|l| {
                let t: Vec<&str> = l.split_whitespace().collect();
                let mut kept = Vec::new();
                let mut i = 0;
                while i < t.len() {
                    match t[i] {
                        "nps" | "time" | "hashfull" => i += 2,
                        w => {
                            kept.push(w);
                            i += 1;
                        }
                    }
                }
                kept.join(" ")
            })
            .collect()
    }

    fn quit(mut self) {
        self.send("quit");
        let status = self.child.wait().unwrap();
        assert!(status.success());
    }
}

fn bestmove(lines: &[String]) -> String {
    let last = lines.last().unwrap();
    last.split_whitespace().nth(1).unwrap().to_string()
}

#[test]
fn a_full_session_plays_legal_moves() {
    let mut e = Engine::start();
    e.send("usi");
    let hello = e.until("usiok");
    for name in [
        "USI_Hash",
        "Threads",
        "EnteringKingRule",
        "MaxMovesToDraw",
        "Mode",
        "Weights",
    ] {
        assert!(
            hello
                .iter()
                .any(|l| l.starts_with(&format!("option name {name} "))),
            "{name}: {hello:?}"
        );
    }
    assert!(
        hello
            .iter()
            .any(|l| l.contains("var CSARule27H") && l.contains("var TryRule"))
    );
    e.send("setoption name USI_Hash value 16");
    e.send("setoption name EnteringKingRule value CSARule27");
    e.send("isready");
    e.until("readyok");
    e.send("usinewgame");
    let mut pos = Position::startpos();
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..4 {
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        e.send("go depth 4");
        let out = e.until("bestmove");
        assert!(
            out.iter().any(|l| l.starts_with("info depth 4 ")
                && l.contains(" score ")
                && l.contains(" pv ")),
            "{out:?}"
        );
        let b = bestmove(&out);
        let m = Move::from_usi(&b).unwrap();
        assert!(pos.is_legal(m), "illegal bestmove {b}");
        pos.play(m).unwrap();
        moves.push(b);
    }
    e.quit();
}

#[test]
fn bad_input_is_answered_not_fatal() {
    let mut e = Engine::start();
    e.send("fly to the moon");
    assert!(e.until("info string")[0].contains("fly"));
    e.send("setoption name Colour value blue");
    e.until("info string");
    e.send("position sfen this is not shogi");
    e.until("info string");
    // An illegal move: the moves before it are kept.
    e.send("position startpos moves 7g7f 7g7f");
    let l = e.until("info string");
    assert!(l[0].contains("7g7f") && l[0].contains("ply 2"), "{l:?}");
    e.send("go depth 1");
    let b = bestmove(&e.until("bestmove"));
    let mut pos = Position::startpos();
    pos.play(Move::from_usi("7g7f").unwrap()).unwrap();
    assert!(
        pos.is_legal(Move::from_usi(&b).unwrap()),
        "White to move after 7g7f: {b}"
    );
    e.send("go nodes x");
    e.until("info string");
    e.send("isready");
    e.until("readyok");
    e.quit();
}

/// The info lines of a search of `sfen` to depth 3 by a new engine set to `mode` (under
/// the 24-point rule) before any search.
fn fresh_search_lines(mode: &str, sfen: &str) -> Vec<String> {
    let mut r = Engine::start();
    r.send(&format!("setoption name Mode value {mode}"));
    r.send("setoption name EnteringKingRule value CSARule24");
    r.send("isready");
    assert_eq!(r.until("readyok"), ["readyok"], "no option refused");
    let lines = r.search_lines(sfen, 3);
    r.quit();
    lines
}

/// `e` searches `sfen` as the 24-point engine does: the same lines as an engine set to
/// `decl24` before any search, and not those of the normal search (which differ there).
fn assert_searches_in_mode_decl24(e: &mut Engine, sfen: &str) {
    let here = e.search_lines(sfen, 3);
    let decl24 = fresh_search_lines("decl24", sfen);
    assert_ne!(
        decl24,
        fresh_search_lines("search", sfen),
        "the modes differ on {sfen}"
    );
    assert_eq!(here, decl24, "the search of the 24-point mode");
}

#[test]
fn stop_ends_an_infinite_search_and_win_is_declared() {
    let mut e = Engine::start();
    e.send("isready");
    e.until("readyok");
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    e.send("stop");
    let b = bestmove(&e.until("bestmove"));
    assert!(Position::startpos().is_legal(Move::from_usi(&b).unwrap()));
    // Ponder, then ponderhit with a short clock: a move comes.
    e.send("go ponder btime 0 wtime 0 byoyomi 300");
    std::thread::sleep(Duration::from_millis(100));
    e.send("ponderhit");
    e.until("bestmove");
    // A declaration win under the 24-point rule, in the 24-point mode. The options are
    // set right after the ponder search answered: they must take effect.
    e.send("setoption name Mode value decl24");
    e.send("setoption name EnteringKingRule value CSARule24");
    e.send("isready");
    assert_eq!(e.until("readyok"), ["readyok"], "no option refused");
    // The search is the 24-point engine's: the same lines as an engine set to it before
    // any search, and not those of the normal search.
    let probe = "RRBB+P+P+P+P1/+P8/4K4/9/9/9/8k/9/9 b 10P 1";
    assert_searches_in_mode_decl24(&mut e, probe);
    e.send("position sfen RRBB+P+P+P+P+P/+P8/4K4/9/9/9/8k/9/9 b 5P 1");
    e.send("go byoyomi 1000");
    assert_eq!(bestmove(&e.until("bestmove")), "win");
    // 30 points, all Black owns, nothing left to capture: a draw is declared (`win`,
    // which the 24-point rule makes a draw).
    e.send("position sfen RRBB+P+P+P+P+P/+P8/4K4/9/9/9/8k/9/9 b 4P 1");
    e.send("go depth 2");
    assert_eq!(bestmove(&e.until("bestmove")), "win");
    // The same 30 points with a 31st owned outside the camp: the win is in reach, no
    // declaration.
    e.send("position sfen RRBB+P+P+P+P+P/+P8/4K4/9/9/9/8k/9/P8 b 4P 1");
    e.send("go depth 2");
    assert_ne!(bestmove(&e.until("bestmove")), "win");
    e.quit();
}

#[test]
fn go_mate_answers_checkmate_and_gameover_is_accepted() {
    let mut e = Engine::start();
    e.send("isready");
    e.until("readyok");
    e.send("position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1");
    e.send("go mate 1000");
    assert_eq!(e.until("checkmate").last().unwrap(), "checkmate G*5b");
    // Black mates in 3 (no mate in 1): the answer is the whole line, ending in mate.
    let three = "l4p+L2/4K4/p2p2+P1s/2p1+B4/3S2Np1/PP3P2p/3P2kN1/2+p6/L1S1RGsG1 b RB2G2N6Pl 187";
    e.send(&format!("position sfen {three}"));
    e.send("go mate infinite");
    let line = e.until("checkmate").last().unwrap().clone();
    let moves: Vec<&str> = line.split_whitespace().skip(1).collect();
    assert_eq!(moves.len(), 3, "{line}");
    let mut pos = Position::from_sfen(three).unwrap();
    for m in moves {
        pos.play(Move::from_usi(m).unwrap()).unwrap();
    }
    assert!(pos.legal_moves().is_empty(), "{line}");
    e.send("position startpos");
    e.send("go mate 500");
    assert_eq!(e.until("checkmate").last().unwrap(), "checkmate nomate");
    e.send("gameover lose");
    e.send("isready");
    e.until("readyok");
    e.quit();
}

#[test]
fn a_game_is_played_to_its_end_against_a_scripted_opponent() {
    // Black (the engine, 24-point mode) has 9 pieces in the camp and 35 points; White (the
    // script) answers every move with its first legal move. The game ends when the engine
    // declares, or mates, within 20 moves.
    let start = "RRBB+P+P+P+P1/+P8/4K4/9/9/9/8k/9/9 b 10P 1";
    let mut e = Engine::start();
    e.send("setoption name Mode value decl24");
    e.send("setoption name EnteringKingRule value CSARule24");
    e.send("isready");
    assert_eq!(e.until("readyok"), ["readyok"], "no option refused");
    // The engine plays in the 24-point mode (an ignored option would leave it in the
    // normal search, whose lines differ from the start position on).
    assert_searches_in_mode_decl24(&mut e, start);
    e.send("usinewgame");
    let mut pos = Position::from_sfen(start).unwrap();
    let mut moves: Vec<String> = Vec::new();
    let mut ended = None;
    for _ in 0..20 {
        e.send(&format!("position sfen {start} moves {}", moves.join(" ")));
        e.send("go btime 0 wtime 0 byoyomi 200");
        let b = bestmove(&e.until("bestmove"));
        if b == "win" || b == "resign" {
            ended = Some(b);
            break;
        }
        let m = Move::from_usi(&b).unwrap();
        assert!(pos.is_legal(m), "illegal bestmove {b} at {}", pos.to_sfen());
        pos.play(m).unwrap();
        moves.push(b);
        let reply = pos.legal_moves().iter().next().copied();
        let Some(r) = reply else {
            ended = Some("mate".into());
            break;
        };
        pos.play(r).unwrap();
        moves.push(r.to_usi());
    }
    let ended = ended.expect("the game ended within 20 moves");
    assert!(ended == "win" || ended == "mate", "{ended}");
    if ended == "win" {
        let v = floodgate_scan::shogi::evaluate_declaration(
            &pos,
            floodgate_scan::shogi::EnteringKingRule::CSARule24,
        );
        assert_eq!(v.outcome, floodgate_scan::shogi::DeclarationOutcome::Win);
    }
    e.send("gameover win");
    e.send("isready");
    e.until("readyok");
    e.quit();
}

#[test]
fn a_search_that_ended_is_over_two_go_give_two_bestmoves() {
    let mut e = Engine::start();
    e.send("isready");
    e.until("readyok");
    e.send("position startpos moves 7g7f");
    e.send("go depth 2");
    let first = e.until("bestmove");
    // Again without a new `position`: a second answer, for the same position.
    e.send("go depth 2");
    let second = e.until("bestmove");
    assert!(
        !second.iter().any(|l| l.starts_with("info string")),
        "{second:?}"
    );
    let mut pos = Position::startpos();
    pos.play(Move::from_usi("7g7f").unwrap()).unwrap();
    for out in [&first, &second] {
        assert!(
            pos.is_legal(Move::from_usi(&bestmove(out)).unwrap()),
            "{out:?}"
        );
    }
    // A `setoption` after the search is applied, not refused.
    e.send("setoption name USI_Hash value 2");
    e.send("setoption name MaxMovesToDraw value 300");
    e.send("isready");
    assert_eq!(e.until("readyok"), ["readyok"]);
    // Two `go` sent together (the second during the first search): each is answered.
    e.send("go depth 3");
    e.send("go depth 1");
    e.until("bestmove");
    e.until("bestmove");
    e.send("go nodes 500");
    e.until("bestmove");
    e.send("isready");
    assert_eq!(e.until("readyok"), ["readyok"]);
    e.quit();
}

#[cfg(unix)]
#[test]
fn a_table_that_cannot_be_had_is_refused_and_the_old_one_kept() {
    // The address space is limited to 2 GiB, so the advertised maximum cannot be
    // allocated here whatever the machine's memory.
    let mut cmd = Command::new("sh");
    cmd.arg("-c").arg(format!(
        "ulimit -v 2097152 && exec '{}' usi",
        env!("CARGO_BIN_EXE_floodgate-scan")
    ));
    let mut e = Engine::spawn(cmd);
    e.send("usi");
    let hello = e.until("usiok");
    let line = hello
        .iter()
        .find(|l| l.starts_with("option name USI_Hash "))
        .unwrap();
    let max: u64 = line
        .split_whitespace()
        .skip_while(|w| *w != "max")
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    assert!((1024..=1 << 20).contains(&max), "{line}");
    e.send("setoption name USI_Hash value 3");
    e.send("isready");
    assert_eq!(e.until("readyok"), ["readyok"]);
    for value in [max.to_string(), "65536".into(), "99999999999".into()] {
        e.send(&format!("setoption name USI_Hash value {value}"));
        let l = e.next(60);
        assert!(
            l.starts_with("info string option USI_Hash: ")
                && l.contains("cannot be allocated")
                && l.ends_with("keeping 3 MB"),
            "{value}: {l}"
        );
    }
    // The session goes on with the old table.
    e.send("position startpos");
    e.send("go depth 3");
    let b = bestmove(&e.until("bestmove"));
    assert!(Position::startpos().is_legal(Move::from_usi(&b).unwrap()));
    e.send("setoption name USI_Hash value 4");
    e.send("isready");
    assert_eq!(e.until("readyok"), ["readyok"]);
    e.quit();
}

#[test]
fn absurd_clocks_are_no_limit_not_a_crash() {
    let mut e = Engine::start();
    e.send("position startpos");
    let max = u64::MAX;
    let big = i64::MAX;
    for go in [
        format!("go btime {big} wtime {big} binc {big} winc {big} byoyomi {big} depth 2"),
        format!("go btime {max} wtime {max} binc {max} winc {max} byoyomi {max} depth 2"),
        "go btime 99999999999999999999999 wtime 1 byoyomi 99999999999999999999 depth 2".into(),
        format!("go movetime {max} depth 2"),
        format!("go byoyomi {big} depth 2"),
    ] {
        e.send(&go);
        let out = e.until("bestmove");
        assert!(
            !out.iter().any(|l| l.starts_with("info string")),
            "{go}: {out:?}"
        );
        assert!(
            out.iter().any(|l| l.starts_with("info depth 2 ")),
            "{go}: {out:?}"
        );
        let b = bestmove(&out);
        assert!(
            Position::startpos().is_legal(Move::from_usi(&b).unwrap()),
            "{go}: {b}"
        );
    }
    e.send("position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1");
    e.send("go mate 99999999999999999999999");
    assert_eq!(e.until("checkmate").last().unwrap(), "checkmate G*5b");
    e.quit();
}
