//! `floodgate-scan position` through the real binary: text and JSON output, moves
//! applied in order, and bad SFEN / move input refused with exit code 2 and a message
//! naming the bad token.

use std::process::{Command, Output};

use serde_json::Value;

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_floodgate-scan"))
        .arg("position")
        .args(args)
        .output()
        .expect("the binary runs")
}

fn json(args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.push("--json");
    let out = run(&all);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

#[test]
fn start_position_json() {
    let v = json(&[]);
    assert_eq!(
        v["sfen"],
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
    );
    let moves: Vec<&str> = v["legal_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(moves.len(), 30);
    let mut sorted = moves.clone();
    sorted.sort();
    assert_eq!(moves, sorted, "legal moves are sorted");
    assert!(moves.contains(&"7g7f") && moves.contains(&"2h1h"));
    assert_eq!(v["in_check"], false);
    assert_eq!(v["mate_in_one"], Value::Null);
    assert_eq!(v["owned"]["black"], 27);
    assert_eq!(v["owned"]["white"], 27);
    assert_eq!(v["declaration_points"]["black"], 0);
    assert_eq!(v["zone_count"]["white"], 0);
    let decl = v["declaration"].as_object().unwrap();
    assert_eq!(decl.len(), 6);
    for rule in [
        "NoEnteringKing",
        "CSARule24",
        "CSARule24H",
        "CSARule27",
        "CSARule27H",
        "TryRule",
    ] {
        assert!(decl.contains_key(rule), "{rule}");
    }
    assert_eq!(decl["CSARule24"]["outcome"], "declaring_loses");
    assert_eq!(decl["NoEnteringKing"]["outcome"], "not_applicable");
    assert_eq!(decl["CSARule27"]["threshold"], 28);
}

#[test]
fn moves_are_played_in_order() {
    let v = json(&["--moves", "7g7f", "3c3d", "8h2b+"]);
    assert_eq!(
        v["sfen"],
        "lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4"
    );
    assert_eq!(v["owned"]["black"], 32);
    assert_eq!(v["owned"]["white"], 22);
    // White's only legal replies include taking the horse back.
    let moves = v["legal_moves"].as_array().unwrap();
    assert!(moves.iter().any(|m| m == "3a2b"));
}

#[test]
fn mate_in_one_and_checkmate_reported() {
    // Black to move: G*5b mates the king on 5a (supported by the pawn on 5c).
    let v = json(&["--sfen", "4k4/9/4P4/9/9/9/9/9/4K4 b G 1"]);
    assert_eq!(v["mate_in_one"], "G*5b");
    assert_eq!(v["checkmate"], false);
    let v = json(&["--sfen", "4k4/9/4P4/9/9/9/9/9/4K4 b G 1", "--moves", "G*5b"]);
    assert_eq!(v["checkmate"], true);
    assert_eq!(v["in_check"], true);
    assert_eq!(v["legal_moves"].as_array().unwrap().len(), 0);
}

#[test]
fn declaration_evaluated_for_every_rule() {
    // Black: 31 points, 10 pieces in the camp, king in the camp (conformance row 1).
    let v = json(&["--sfen", "RRBB+P+P+P+P+P/+P8/4K4/9/9/9/8k/9/9 b 5P 1"]);
    assert_eq!(v["declaration_points"]["black"], 31);
    assert_eq!(v["zone_count"]["black"], 10);
    let d = &v["declaration"];
    assert_eq!(d["CSARule24"]["outcome"], "win");
    assert_eq!(d["CSARule27"]["outcome"], "win");
    assert_eq!(d["CSARule24"]["points"], 31);
    assert_eq!(d["CSARule24"]["threshold"], 31);
    assert_eq!(d["CSARule24"]["king_in_camp"], true);
    // 27 points: a draw under 24, still short of Black's 28 under 27.
    let v = json(&["--sfen", "RRBB+P+P+P+P+P/+P8/4K4/9/9/9/8k/9/9 b P 1"]);
    assert_eq!(v["declaration"]["CSARule24"]["outcome"], "draw");
    assert_eq!(v["declaration"]["CSARule27"]["outcome"], "declaring_loses");
}

#[test]
fn text_output_shows_board_and_verdicts() {
    let out = run(&["--moves", "7g7f"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("9  8  7  6  5  4  3  2  1"), "{text}");
    // Rank a of the start position, White's pieces in lower case.
    assert!(text.contains(" a  l  n  s  g  k  g  s  n  l"), "{text}");
    assert!(text.contains("legal moves (30):"), "{text}");
    assert!(text.contains("CSARule24"), "{text}");
    assert!(text.contains("side to move: white"), "{text}");
}

fn refused(args: &[&str], token: &str) {
    let out = run(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    assert!(out.stdout.is_empty(), "nothing on standard output");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(token), "{args:?}: {err}");
}

#[test]
fn bad_input_exits_2_naming_the_token() {
    refused(
        &[
            "--sfen",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNX b - 1",
        ],
        "LNSGKGSNX`",
    );
    refused(&["--sfen", "garbage"], "garbage");
    refused(&["--moves", "7g7f", "9z9y"], "9z9y");
    // Well formed but illegal: named with its reason.
    refused(&["--moves", "7g7f", "7g7f"], "7g7f");
    refused(&["--moves", "2h2c"], "cannot_move");
    // Not a valid position: two kings for Black; the reason is given.
    refused(&["--sfen", "4k4/9/9/9/9/9/9/9/3KK4 b - 1"], "king");
    // A position is refused before any move is looked at.
    refused(
        &["--sfen", "9/9/9/9/9/9/9/9/9 b - 1", "--moves", "7g7f"],
        "king",
    );
}

/// `--escapes`: every legal move sorted by whether the opponent then mates by checks. In
/// a position of an engine game 22 of the 23 moves lose to a mate by checks in at most 3
/// plies (one to a mate in 1); the 23rd, 3g4h, escapes those but not a longer mate: it
/// escapes with `--escape-plies 3` and is mated at the default length. From the start
/// every move escapes.
#[test]
fn escapes_sort_every_legal_move() {
    let sfen = "l4p+L2/4K4/p2p2+P1s/2p1+B4/3S2Np1/PP3P2p/3P2kN1/2+p2L3/L1S1R1sG1 w RB3G2N6P 184";
    let v = json(&["--sfen", sfen, "--escapes", "--escape-plies", "3"]);
    let e = &v["escapes"];
    let escape: Vec<&str> = e["escape"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    let mated = e["mated"].as_object().unwrap();
    assert_eq!(escape, ["3g4h"], "{e}");
    assert_eq!(mated.len(), 22, "{e}");
    assert_eq!(e["unknown"].as_array().unwrap().len(), 0);
    assert_eq!(mated.values().filter(|n| n.as_u64() == Some(1)).count(), 1);
    assert!(mated.values().all(|n| n.as_u64().unwrap() <= 3));
    let mut all = escape.clone();
    all.extend(mated.keys().map(String::as_str));
    all.sort();
    let legal: Vec<&str> = v["legal_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(all, legal);
    let deep = json(&["--sfen", sfen, "--escapes"]);
    assert_eq!(deep["escapes"]["escape"].as_array().unwrap().len(), 0);
    assert!(deep["escapes"]["mated"]["3g4h"].as_u64().unwrap() > 3);
    let start = json(&["--escapes"]);
    assert_eq!(start["escapes"]["escape"].as_array().unwrap().len(), 30);
    // Too few nodes to settle anything: no move is called an escape.
    let starved = json(&["--sfen", sfen, "--escapes", "--escape-nodes", "1"]);
    assert_eq!(starved["escapes"]["escape"].as_array().unwrap().len(), 0);
    let text = run(&["--sfen", sfen, "--escapes", "--escape-plies", "3"]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains("1 escape, 22 mated, 0 unknown, 0 net"),
        "{text}"
    );
}
