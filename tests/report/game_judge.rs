//! The record judge on edited copies of server-written records: every way a record can
//! contradict the server's rules is detected and named.

use floodgate_scan::game::{GameRow, analyse_record};
use std::path::PathBuf;

fn fixture(prefix: &str) -> Vec<u8> {
    let d = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/csa/server");
    let path = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.file_name().unwrap().to_string_lossy().starts_with(prefix))
        .unwrap();
    std::fs::read(path).unwrap()
}

/// Replace the first `from` by `to` (records are bytes: comments may be EUC-JP).
fn replace(bytes: &[u8], from: &str, to: &str) -> Vec<u8> {
    let from = from.as_bytes();
    let i = bytes
        .windows(from.len())
        .position(|w| w == from)
        .expect("text to replace");
    [&bytes[..i], to.as_bytes(), &bytes[i + from.len()..]].concat()
}

fn edited(prefix: &str, from: &str, to: &str) -> GameRow {
    let text = replace(&fixture(prefix), from, to);
    analyse_record("t", "t.csa", &text).unwrap()
}

#[test]
fn toryo_with_the_wrong_loser_disagrees() {
    // 5 plies: White is to move and resigns; a summary naming Black the loser is wrong.
    let r = edited(
        "toryo--",
        "'summary:toryo:alice win:bob lose",
        "'summary:toryo:alice lose:bob win",
    );
    assert_eq!(r.judge_reason.as_deref(), Some("toryo"));
    assert_eq!(r.judge_agrees, Some(false));
    assert_eq!(r.winner, "white");
    assert!(
        r.judge_detail.contains("summary result white"),
        "{}",
        r.judge_detail
    );
}

#[test]
fn time_up_loser_is_the_side_to_move() {
    let r = edited("time_up--", "alice win:bob lose", "alice lose:bob win");
    assert_eq!(r.judge_reason.as_deref(), Some("time up"));
    assert_eq!(r.judge_agrees, Some(false));
}

#[test]
fn game_going_past_the_move_limit_disagrees() {
    let r = edited("max_moves--", "'Max_Moves:10", "'Max_Moves:8");
    assert_eq!(r.judge_reason.as_deref(), Some("max_moves"));
    assert_eq!(r.judge_agrees, Some(false));
    assert!(r.judge_detail.contains("ply 8"), "{}", r.judge_detail);
    // A limit the game did not reach: no evidence for max_moves.
    let r = edited("max_moves--", "'Max_Moves:10", "'Max_Moves:12");
    assert_eq!(r.judge_reason, None);
    assert_eq!(r.judge_agrees, Some(false));
    // The 2014 name of the same ending agrees.
    let r = edited(
        "max_moves--",
        "'summary:max_moves:",
        "'summary:max_moves_draw:",
    );
    assert_eq!(
        (r.judge_reason.as_deref(), r.judge_agrees),
        (Some("max_moves"), Some(true))
    );
}

#[test]
fn recorded_illegal_move_stops_the_replay() {
    // White's pawn cannot jump from 3c to 4d.
    let r = edited("toryo--", "-3334FU\n", "-3344FU\n");
    assert_eq!(r.status, "illegal_move");
    assert_eq!(r.illegal_ply, Some(2));
    assert_eq!(r.illegal_kind.as_deref(), Some("cannot_move"));
    assert_eq!(r.judge_reason.as_deref(), Some("illegal move"));
    assert_eq!(r.judge_agrees, Some(false));
    assert!(r.detail.contains("line"), "{}", r.detail);
}

#[test]
fn moves_of_the_wrong_side_or_piece() {
    let r = edited("toryo--", "-3334FU\n", "+3334FU\n");
    assert_eq!(r.illegal_kind.as_deref(), Some("wrong_side"));
    let r = edited("toryo--", "+7776FU\n", "+7776KA\n");
    assert_eq!(
        (r.illegal_ply, r.illegal_kind.as_deref()),
        (Some(1), Some("piece_mismatch"))
    );
}

#[test]
fn a_legal_rejected_action_is_reported() {
    let r = edited(
        "illegal_move--",
        "'ILLEGAL_MOVE(+7775FU)",
        "'ILLEGAL_MOVE(+2726FU)",
    );
    assert_eq!(r.judge_reason, None);
    assert_eq!(r.judge_agrees, Some(false));
    assert!(r.judge_detail.contains("legal move"), "{}", r.judge_detail);
    // The same move as an uchifuzume claim: wrong kind.
    let r = edited(
        "oute_kaihimore--",
        "'summary:oute_kaihimore:",
        "'summary:uchifuzume:",
    );
    assert_eq!(r.judge_reason.as_deref(), Some("oute_kaihimore"));
    assert_eq!(r.judge_agrees, Some(false));
}

#[test]
fn kachi_claimed_for_a_position_that_fails_the_rule() {
    let r = edited(
        "illegal_kachi--",
        "'summary:illegal kachi:alice lose:bob win",
        "'summary:kachi:alice win:bob lose",
    );
    assert_eq!(r.judge_reason.as_deref(), Some("illegal kachi"));
    assert_eq!(r.judge_agrees, Some(false));
    assert!(
        r.judge_detail.contains("declaration fails"),
        "{}",
        r.judge_detail
    );
}

#[test]
fn sennichite_without_a_repetition() {
    let r = edited(
        "toryo--",
        "'summary:toryo:alice win:bob lose",
        "'summary:sennichite:alice draw:bob draw",
    );
    // %TORYO is still the end marker.
    assert_eq!(r.judge_reason.as_deref(), Some("toryo"));
    assert_eq!(r.judge_agrees, Some(false));
    let r = edited("max_moves--", "'summary:max_moves:", "'summary:sennichite:");
    assert_eq!(r.judge_reason.as_deref(), Some("max_moves"));
    assert_eq!(r.judge_agrees, Some(false));
}

#[test]
fn repetition_rule_ends_the_game_at_the_fourth_occurrence() {
    // Remove the server's %SENNICHITE marker and append more moves: the game should
    // have ended at ply 13.
    let r = edited("sennichite--", "%SENNICHITE\n", "-5152OU\nT0\n");
    assert_eq!(r.judge_reason.as_deref(), Some("sennichite"));
    assert_eq!(r.judge_agrees, Some(false));
    assert!(r.judge_detail.contains("ply 13"), "{}", r.judge_detail);
}

#[test]
fn no_summary_and_no_moves() {
    let r = edited("toryo--", "'summary:toryo:alice win:bob lose\n", "");
    assert_eq!(r.status, "no_summary");
    assert_eq!((&*r.winner, r.judge_agrees), ("none", None));
    assert_eq!(r.judge_reason.as_deref(), Some("toryo"));
}

#[test]
fn trailer_checks() {
    // A modern record whose trailer gives the wrong side to move.
    let r = edited("toryo--", "\n'-\n'summary", "\n'+\n'summary");
    assert_eq!(r.final_board, "mismatch");
    assert!(r.detail.contains("trailer"), "{}", r.detail);
    // The same in a 2008 record: the always-'+' bug, not compared.
    let text = replace(&fixture("toryo--"), "\n'-\n'summary", "\n'+\n'summary");
    let text = replace(&text, "$START_TIME:2026", "$START_TIME:2008");
    let r = analyse_record("t", "t.csa", &text).unwrap();
    assert_eq!(r.final_board, "match");
    // A wrong piece in the trailer.
    let r = edited(
        "toryo--",
        "'P9+KY+KE+GI+KI+OU+KI+GI+KE+KY",
        "'P9+KY+KE+GI+KI+OU+KI+GI * +KY",
    );
    assert_eq!(r.final_board, "mismatch");
}

#[test]
fn bad_position_block() {
    let r = edited("toryo--", "P5 *  *  *  *  *  *  *  *  * \n", "");
    let r2 = edited(
        "toryo--",
        "P9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n",
        "P9+KY+KE+GI+KI * +KI+GI+KE+KY\n",
    );
    assert_eq!(r2.status, "bad_position", "{r2:?}");
    assert_eq!(r2.final_board, "unchecked");
    assert!(r2.detail.contains("line"), "{}", r2.detail);
    // A missing row: either rejected, or read as an empty row (then the game replays).
    assert!(["bad_position", "ok"].contains(&&*r.status), "{r:?}");
}

#[test]
fn game_id_from_the_entry_name_when_event_is_missing() {
    let text = replace(
        &fixture("toryo--"),
        "$EVENT:wdoor+test-300-10F+alice+bob+20261130020502\n",
        "",
    );
    let r = analyse_record("t", "2026/wdoor+x-1-0+a+b+20261130020502.csa", &text).unwrap();
    assert_eq!(r.game_id, "wdoor+x-1-0+a+b+20261130020502");
    assert_eq!(r.game_name.as_deref(), Some("x-1-0"));
}

#[test]
fn server_declaration_rule_equals_the_core_27_point_rule_along_a_game() {
    use floodgate_scan::csa::read_record;
    use floodgate_scan::game::judge::server_kachi;
    use floodgate_scan::game::playthrough::{parse_move, start_position};
    use floodgate_scan::shogi::{DeclarationOutcome, EnteringKingRule, evaluate_declaration};
    for prefix in ["kachi--", "uchifuzume--"] {
        let bytes = fixture(prefix);
        let rec = read_record(&bytes).unwrap();
        let mut pos = start_position(&rec).unwrap();
        for m in &rec.moves {
            let core = evaluate_declaration(&pos, EnteringKingRule::CSARule27).outcome;
            assert_eq!(
                server_kachi(&pos).is_ok(),
                core == DeclarationOutcome::Win,
                "{}",
                pos.to_sfen()
            );
            pos.play_unchecked(parse_move(&pos, m.text).unwrap());
        }
        assert!(server_kachi(&pos).is_ok() == (prefix == "kachi--"));
    }
}

#[test]
fn entries_that_are_not_records() {
    let e = analyse_record("t", "x.csa", b"\x7fELF\x02\x01\x01\0\0\0").unwrap_err();
    assert_eq!(e.line, Some(1));
    assert!(analyse_record("t", "x.csa", b"").is_err());
    // Header only, no position: a game row with a status, not an error.
    let r = analyse_record("t", "x.csa", b"V2\nN+a\nN-b\n").unwrap();
    assert_eq!(r.status, "bad_position");
    assert_eq!(r.black.as_deref(), Some("a"));
}

#[test]
fn empty_hand_lines_in_the_position_block_and_trailer() {
    // Other CSA writers put empty `P+`/`P-` lines in both places.
    let text = replace(
        &fixture("toryo--"),
        "P9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n+\n",
        "P9+KY+KE+GI+KI+OU+KI+GI+KE+KY\nP+\nP-\n+\n",
    );
    let text = replace(&text, "\n'-\n'summary", "\n'P+\n'P-\n'-\n'summary");
    let r = analyse_record("t", "t.csa", &text).unwrap();
    assert_eq!((&*r.status, &*r.final_board), ("ok", "match"), "{r:?}");
    assert_eq!(r.judge_agrees, Some(true));
}

#[test]
fn rejected_lines_with_text_after_the_move() {
    // Before 2020 the server ignored text after the move: the move decides the kind.
    let r = edited(
        "oute_kaihimore--",
        "'ILLEGAL_MOVE(+6877OU)",
        "'ILLEGAL_MOVE(+6877OU '* 12)",
    );
    assert_eq!(
        (r.judge_reason.as_deref(), r.judge_agrees),
        (Some("oute_kaihimore"), Some(true))
    );
    // A legal move with trailing text: rejected for its syntax (the 2020 strict check).
    let r = edited(
        "illegal_move--",
        "'ILLEGAL_MOVE(+7775FU)",
        "'ILLEGAL_MOVE(+2726FU junk)",
    );
    assert_eq!(
        (r.judge_reason.as_deref(), r.judge_agrees),
        (Some("illegal move"), Some(true))
    );
    // Junk and unsupported specials.
    let text = fixture("illegal_move--");
    let i = text.windows(7).position(|w| w == b"+7775FU").unwrap();
    let text = [&text[..i], b"\xff\xfe%CHUDAN", &text[i + 7..]].concat();
    let r = analyse_record("t", "t.csa", &text).unwrap();
    assert_eq!(
        (r.judge_reason.as_deref(), r.judge_agrees),
        (Some("illegal move"), Some(true))
    );
}
