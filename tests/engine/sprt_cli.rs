//! `floodgate-scan sprt` through the real binary: a tiny match gives a complete summary
//! whose numbers agree with each other and with the games written as JSON, the engine
//! against itself is never accepted, and the result does not depend on the threads.
use std::path::{Path, PathBuf};
use std::process::Command;

use floodgate_scan::lab::sprt::llr_pentanomial;
use floodgate_scan::shogi::{Move, Position};

fn tmp(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("sprt_cli");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Two start positions: the first two lines of the real openings (a file of its own for
/// each test, which run in parallel).
fn two_openings(name: &str) -> PathBuf {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/openings/real12.txt"),
    )
    .unwrap();
    let two: Vec<&str> = text.lines().take(2).collect();
    let dir = tmp(&format!("{name}.d"));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("openings.txt");
    std::fs::write(&path, two.join("\n") + "\n").unwrap();
    path
}

/// Run `sprt` with these extra arguments; returns stdout and the JSON document.
fn sprt(args: &[&str], name: &str) -> (String, serde_json::Value) {
    let json = tmp(name);
    let out = Command::new(env!("CARGO_BIN_EXE_floodgate-scan"))
        .arg("sprt")
        .arg("--positions")
        .arg(two_openings(name))
        .args(if args.contains(&"--movetime") {
            &[][..]
        } else {
            &["--nodes", "150"][..]
        })
        .args(["--max-plies", "40", "--rule", "CSARule27"])
        .args(args)
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    (stdout, doc)
}

/// The number after `word` in `line`.
fn after(line: &str, word: &str) -> f64 {
    let t: Vec<&str> = line.split_whitespace().collect();
    let i = t
        .iter()
        .position(|w| *w == word)
        .unwrap_or_else(|| panic!("{word}: {line}"));
    t[i + 1].trim_end_matches([',', '(', ')']).parse().unwrap()
}

fn line<'a>(stdout: &'a str, prefix: &str) -> &'a str {
    stdout
        .lines()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no `{prefix}` line: {stdout}"))
}

/// The summary printed, the report in the JSON and the games in it agree.
fn check_consistent(stdout: &str, doc: &serde_json::Value) -> [u64; 5] {
    let result = line(stdout, "result:");
    let games = after(result, "result:") as u64;
    let (w, d, l) = (
        after(result, "W") as u64,
        after(result, "D") as u64,
        after(result, "L") as u64,
    );
    assert_eq!(w + d + l, games, "{result}");
    assert_eq!(games % 2, 0);
    let pairs_line = line(stdout, "pairs by A's points");
    let pairs: Vec<u64> = pairs_line
        .rsplit(':')
        .next()
        .unwrap()
        .split_whitespace()
        .map(|x| x.parse().unwrap())
        .collect();
    let pairs: [u64; 5] = pairs.try_into().unwrap();
    assert_eq!(pairs.iter().sum::<u64>() * 2, games);
    // Points from the pairs equal points from the games.
    let half_points: u64 = pairs.iter().enumerate().map(|(k, c)| k as u64 * c).sum();
    assert_eq!(half_points, 2 * w + d);
    let report = &doc["report"];
    let tally = &report["tally"];
    assert_eq!(tally["wins"].as_u64(), Some(w));
    assert_eq!(tally["draws"].as_u64(), Some(d));
    assert_eq!(tally["losses"].as_u64(), Some(l));
    let list = report["games"].as_array().unwrap();
    assert_eq!(list.len() as u64, games);
    // Each game: A's score agrees with the winner and A's colour; the moves replay
    // legally from the start position; the pairs are counted in order, colours swapped.
    let mut from_games = [0u64; 5];
    for (i, g) in list.iter().enumerate() {
        assert_eq!(g["pair"].as_u64(), Some(i as u64 / 2));
        let a_black = g["a_black"].as_bool().unwrap();
        assert_eq!(a_black, i % 2 == 0);
        let score = g["a_score"].as_f64().unwrap();
        let expected = match (g["winner"].as_str().unwrap(), a_black) {
            ("draw", _) => 0.5,
            ("black", true) | ("white", false) => 1.0,
            _ => 0.0,
        };
        assert_eq!(score, expected, "{g}");
        let mut pos = Position::from_sfen(g["start_sfen"].as_str().unwrap()).unwrap();
        let moves = g["moves"].as_array().unwrap();
        assert_eq!(moves.len() as u64, g["plies"].as_u64().unwrap());
        assert!(moves.len() <= 40);
        for m in moves {
            pos.play(Move::from_usi(m.as_str().unwrap()).unwrap())
                .unwrap();
        }
        if i % 2 == 1 {
            let prev = &list[i - 1];
            assert_eq!(prev["start_sfen"], g["start_sfen"]);
            let pair = prev["a_score"].as_f64().unwrap() + score;
            from_games[(pair * 2.0).round() as usize] += 1;
        }
    }
    assert_eq!(from_games, pairs);
    // The LLR printed is the pentanomial LLR of these pairs, and its verdict follows
    // from the bounds.
    let llr_line = line(stdout, "LLR:");
    let llr = after(llr_line, "LLR:");
    assert!(
        (llr - llr_pentanomial(0.0, 10.0, pairs)).abs() < 1e-3,
        "{llr_line}"
    );
    assert!((report["llr"].as_f64().unwrap() - llr).abs() < 1e-3);
    let verdict = line(stdout, "verdict:");
    let bound = 2.944;
    if llr <= -bound {
        assert!(verdict.contains("H0 accepted"), "{verdict}");
    } else if llr >= bound {
        assert!(verdict.contains("H1 accepted"), "{verdict}");
    } else {
        assert!(verdict.contains("inconclusive"), "{verdict}");
    }
    assert!(line(stdout, "score:").contains("Elo"));
    pairs
}

#[test]
fn the_engine_against_itself_is_never_accepted() {
    let (stdout, doc) = sprt(
        &["--random-plies", "2", "--max-games", "40", "--jobs", "2"],
        "self.json",
    );
    let pairs = check_consistent(&stdout, &doc);
    // The same engine on both sides of a pair, colours swapped, at fixed nodes: every
    // pair is split 1-1, which is evidence for H0 (about 0.03 a pair: 20 pairs are not
    // enough to decide), never for H1.
    assert_eq!(pairs, [0, 0, 20, 0, 0], "{stdout}");
    let llr = after(line(&stdout, "LLR:"), "LLR:");
    assert!((-0.6..-0.5).contains(&llr), "{stdout}");
    assert!(
        line(&stdout, "verdict:").contains("inconclusive"),
        "{stdout}"
    );
    assert_eq!(doc["report"]["verdict"], "inconclusive");
    // Both sides are the same engine: every pair is the same game twice, and the run
    // says so.
    assert!(
        stdout.contains("same games: 20 of 20 pairs had the same moves in both games"),
        "{stdout}"
    );
    assert_eq!(doc["report"]["tally"]["same_games"], 20);
}

#[test]
fn a_fixed_match_is_complete_and_the_same_on_any_number_of_threads() {
    // A differs from B (the 24-point engine against the normal search): a full match of
    // 8 games, not stopped at a bound.
    let args = |jobs: &'static str| {
        [
            "--a-opt",
            "Mode=decl24",
            "--random-plies",
            "3",
            "--seed",
            "5",
            "--max-games",
            "8",
            "--no-stop",
            "--jobs",
            jobs,
        ]
    };
    let (one, doc1) = sprt(&args("1"), "one.json");
    let (two, doc2) = sprt(&args("2"), "two.json");
    check_consistent(&one, &doc1);
    check_consistent(&two, &doc2);
    assert_eq!(after(line(&one, "result:"), "result:"), 8.0);
    // The same games, moves and nodes; only the time each side thought differs.
    let untimed = |doc: &serde_json::Value| {
        let mut games = doc["report"]["games"].clone();
        for g in games.as_array_mut().unwrap() {
            g.as_object_mut().unwrap().remove("think_ms");
        }
        games
    };
    assert_eq!(untimed(&doc1), untimed(&doc2));
    assert!(one.contains("A [Mode=decl24] vs B [defaults]"), "{one}");
    // Different engines play different games.
    assert!(one.contains("same games: 0 of 4 pairs"), "{one}");
    // The random moves make the pairs from one opening differ.
    let games = doc1["report"]["games"].as_array().unwrap();
    assert_eq!(games[0]["opening"], games[4]["opening"]);
    assert_ne!(games[0]["random_moves"], games[4]["random_moves"]);
}

#[test]
fn a_match_at_fixed_time_uses_the_time_and_says_how_much() {
    let (out, doc) = sprt(
        &[
            "--movetime",
            "30",
            "--max-games",
            "2",
            "--no-stop",
            "--jobs",
            "1",
        ],
        "movetime.json",
    );
    check_consistent(&out, &doc);
    assert!(out.contains("games: 30 ms/move,"), "{out}");
    assert_eq!(doc["settings"]["movetime_ms"], 30);
    assert!(doc["settings"]["nodes"].is_null());
    // Each side's time and moves, summed over the games, are the summary's.
    let tally = &doc["report"]["tally"];
    let games = doc["report"]["games"].as_array().unwrap();
    for side in 0..2 {
        let sum = |key: &str| -> u64 { games.iter().map(|g| g[key][side].as_u64().unwrap()).sum() };
        assert_eq!(tally["think_ms"][side].as_u64(), Some(sum("think_ms")));
        assert_eq!(tally["answers"][side].as_u64(), Some(sum("answers")));
        // A byoyomi-like clock is searched to its end, less a margin: a side that answers
        // in a few milliseconds (a node budget) fails this, whatever the machine's load.
        let ms = sum("think_ms") as f64 / sum("answers").max(1) as f64;
        assert!(ms >= 15.0, "side {side}: {ms} ms a move");
    }
    let line = line(&out, "time:");
    assert!(
        line.starts_with("time: A ") && line.contains(" ms a move, B "),
        "{line}"
    );
}

#[test]
fn bad_options_are_usage_errors() {
    for (args, says) in [
        (vec!["--a-opt", "Colour=blue"], "unknown option `Colour`"),
        (vec!["--b-opt", "USI_Hash"], "not NAME=VALUE"),
        (vec!["--elo0", "5", "--elo1", "5"], "--elo1"),
        (
            vec!["--nodes", "100", "--movetime", "50"],
            "cannot be used with",
        ),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_floodgate-scan"))
            .arg("sprt")
            .arg("--positions")
            .arg(two_openings("bad"))
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
    }
}
