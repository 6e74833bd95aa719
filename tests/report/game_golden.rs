//! Golden rows of every real and server-written record. The expected values were read
//! off the records themselves (names, summary, move count, trailer) and the server's own
//! result list (`fixtures/csa/server/00LIST.combined`), and the rules of the server; where
//! an old server judged differently from its current rules the disagreement is asserted.

use floodgate_scan::game::{GameRow, analyse_record};
use floodgate_scan::shogi::{Color, Position};
use std::path::PathBuf;

fn row(dir: &str, prefix: &str) -> GameRow {
    let path = crate::csa_support::fixture_path(dir, prefix);
    let entry = path.file_name().unwrap().to_string_lossy().into_owned();
    analyse_record("fixtures", &entry, &std::fs::read(&path).unwrap()).unwrap()
}

struct Expect {
    winner: &'static str,
    summary: Option<&'static str>,
    judge: Option<&'static str>,
    agrees: Option<bool>,
    final_board: &'static str,
    entering: &'static str,
    status: &'static str,
    plies: i64,
}

fn check(dir: &str, prefix: &str, e: Expect) -> GameRow {
    let r = row(dir, prefix);
    let ctx = format!("{dir}/{prefix}: {r:#?}");
    assert_eq!(r.winner, e.winner, "winner {ctx}");
    assert_eq!(
        r.summary_reason.as_deref(),
        e.summary,
        "summary_reason {ctx}"
    );
    assert_eq!(r.judge_reason.as_deref(), e.judge, "judge_reason {ctx}");
    assert_eq!(r.judge_agrees, e.agrees, "judge_agrees {ctx}");
    assert_eq!(r.final_board, e.final_board, "final_board {ctx}");
    assert_eq!(r.entering, e.entering, "entering {ctx}");
    assert_eq!(r.status, e.status, "status {ctx}");
    assert_eq!(r.plies, e.plies, "plies {ctx}");
    // No record the server wrote contains an illegal move.
    assert_eq!(
        (r.illegal_ply, r.illegal_kind.as_deref()),
        (None, None),
        "{ctx}"
    );
    if r.final_sfen.is_some() {
        assert_eq!(
            r.owned_black + r.owned_white,
            i64::from(floodgate_scan::shogi::TOTAL_OWNED_POINTS),
            "{ctx}"
        );
        assert!(
            r.zone_black <= r.decl_black && r.decl_black <= r.owned_black,
            "{ctx}"
        );
        assert!(
            r.zone_white <= r.decl_white && r.decl_white <= r.owned_white,
            "{ctx}"
        );
    }
    if let Some(sfen) = &r.mutual_sfen {
        let p = Position::from_sfen(sfen).unwrap();
        assert!(
            p.king_in_camp(Color::Black) && p.king_in_camp(Color::White),
            "{ctx}"
        );
        let ply = r.first_mutual_ply.unwrap();
        assert_eq!(i64::from(p.move_number()), ply + 1, "{ctx}");
    }
    r
}

const fn agree(
    winner: &'static str,
    reason: &'static str,
    final_board: &'static str,
    entering: &'static str,
    plies: i64,
) -> Expect {
    Expect {
        winner,
        summary: Some(reason),
        judge: Some(reason),
        agrees: Some(true),
        final_board,
        entering,
        status: "ok",
        plies,
    }
}

// ---- real records ----

#[test]
fn real_2006_illegal_kachi_that_the_current_rule_accepts() {
    // White (gps8_pgsklp) declared after 315 plies with both kings in camp; the 2006
    // server (side bug fixed 2006-04-28) called it illegal; Jishogi 1.1 accepts it.
    let r = check(
        "real",
        "wdoor+pgsklp_32-0-30",
        Expect {
            winner: "black",
            summary: Some("illegal kachi"),
            judge: Some("kachi"),
            agrees: Some(false),
            final_board: "match",
            entering: "mutual",
            status: "ok",
            plies: 315,
        },
    );
    assert!(r.king_in_camp_black && r.king_in_camp_white);
    assert!(r.zone_white >= 10 && r.decl_white >= 27, "{r:?}");
    // Black's king is in camp from ply 193 (+1423OU); White's enters 3g at ply 242 (-4637OU).
    assert_eq!(r.first_mutual_ply, Some(242));
    assert!(r.first_decl27_ply_white.is_some_and(|p| p <= 315));
    assert_eq!(r.end_marker.as_deref(), Some("%KACHI"));
    // The core's verdict in that final position: White's declaration wins under the
    // 27-point rule (White to move after 315 plies).
    assert_eq!(r.rule27_final, "white", "{r:?}");
}

#[test]
fn real_2007_sennichite_that_the_current_rule_calls_perpetual_check() {
    let r = check(
        "real",
        "wdoor+gps-1500-0",
        Expect {
            winner: "draw",
            summary: Some("sennichite"),
            judge: Some("oute_sennichite"),
            agrees: Some(false),
            final_board: "prelast",
            entering: "none",
            status: "ok",
            plies: 110,
        },
    );
    // Black gave the perpetual check: White wins by the current rule.
    assert!(
        r.judge_detail.contains("black gave perpetual check"),
        "{}",
        r.judge_detail
    );
    assert!(
        r.judge_detail.contains("the rules give white"),
        "{}",
        r.judge_detail
    );
    // Summary named White first (current player first): matched by name.
    assert_eq!(
        (r.black_result.as_deref(), r.white_result.as_deref()),
        (Some("draw"), Some("draw"))
    );
}

#[test]
fn real_2008_02_truncated() {
    let r = check(
        "real",
        "wdoor+floodgate-900-0+usapyon-on-note+gps_normal",
        Expect {
            winner: "none",
            summary: None,
            judge: None,
            agrees: None,
            final_board: "missing",
            // Black's king walked to 9c (rank 3); White's never left 5a.
            entering: "black_only",
            status: "truncated",
            plies: 113,
        },
    );
    assert!(r.detail.contains("line"), "{}", r.detail);
}

#[test]
fn real_2008_02_uchifuzume_without_its_rejected_line() {
    // The offending drop -0064FU was removed by the test author; the summary names White
    // (KShogi900) first. The position still offers White that pawn-drop mate.
    let r = check(
        "real",
        "wdoor+floodgate-900-0+usapyon-on-note+KShogi900",
        agree("black", "uchifuzume", "match", "none", 103),
    );
    assert!(r.judge_detail.contains("6d"), "{}", r.judge_detail);
    assert_eq!(
        (r.black_result.as_deref(), r.white_result.as_deref()),
        (Some("win"), Some("lose"))
    );
}

#[test]
fn real_2008_03_false_sennichite() {
    // The server of the time left the side to move out of its repetition key.
    let r = check(
        "real",
        "wdoor+floodgate-900-0+garyu+coredump",
        Expect {
            winner: "draw",
            summary: Some("sennichite"),
            judge: None,
            agrees: Some(false),
            final_board: "prelast",
            entering: "none",
            status: "ok",
            plies: 89,
        },
    );
    assert!(r.judge_detail.contains("ply 89"), "{}", r.judge_detail);
}

#[test]
fn real_2008_11_sennichite_that_the_current_rule_calls_perpetual_check() {
    let r = check(
        "real",
        "wdoor+ll1_22-0-30",
        Expect {
            winner: "draw",
            summary: Some("sennichite"),
            judge: Some("oute_sennichite"),
            agrees: Some(false),
            final_board: "prelast",
            entering: "none",
            status: "ok",
            plies: 135,
        },
    );
    // White gave the perpetual check here: Black wins by the current rule.
    assert!(
        r.judge_detail.contains("white gave perpetual check"),
        "{}",
        r.judge_detail
    );
    assert!(
        r.judge_detail.contains("the rules give black"),
        "{}",
        r.judge_detail
    );
}

#[test]
fn real_2009_sennichite_that_the_current_rule_calls_perpetual_check() {
    let r = check(
        "real",
        "wdoor+floodgate-900-0+usapyon+MyMove900",
        Expect {
            winner: "draw",
            summary: Some("sennichite"),
            judge: Some("oute_sennichite"),
            agrees: Some(false),
            final_board: "prelast",
            entering: "none",
            status: "ok",
            plies: 134,
        },
    );
    assert!(
        r.judge_detail.contains("black gave perpetual check"),
        "{}",
        r.judge_detail
    );
    assert!(
        r.judge_detail.contains("the rules give white"),
        "{}",
        r.judge_detail
    );
}

#[test]
fn real_2010_toryo() {
    check(
        "real",
        "wdoor+floodgate-900-0+gps_normal+gps_l",
        agree("white", "toryo", "match", "none", 158),
    );
}

#[test]
fn real_2015_toryo_with_rates() {
    let r = check(
        "real",
        "wdoor+floodgate-600-10+01WishBlue_07",
        agree("white", "toryo", "match", "none", 134),
    );
    assert_eq!((r.black_rate, r.white_rate), (Some(2769.0), Some(3049.0)));
    assert_eq!(r.max_moves, None);
    assert_eq!(r.game_name.as_deref(), Some("floodgate-600-10"));
    assert_eq!(r.year, Some(2015));
}

#[test]
fn real_2016_toryo_fischer() {
    let r = check(
        "real",
        "wdoor+floodgate-600-10F+Titanda_L",
        agree("white", "toryo", "match", "none", 196),
    );
    assert_eq!(
        (r.max_moves, r.least_time_per_move, r.increment),
        (Some(256), Some(0), Some(10))
    );
}

#[test]
fn real_2020_kachi_with_comment_time_and_repeat() {
    let r = check(
        "real",
        "dr1test1test0",
        agree("black", "kachi", "match", "black_only", 400),
    );
    assert_eq!(r.max_moves, Some(512));
    assert!(r.king_in_camp_black && !r.king_in_camp_white);
    assert!(
        r.first_decl27_ply_black
            .is_some_and(|p| p <= 400 && p % 2 == 0)
    );
    // White's king stood on 2g from ply 216 (-2627OU) to ply 396 (-3726OU); Black's king
    // reached 9c at ply 249 (+9493OU): mutual then, no longer at the end.
    assert_eq!(r.first_mutual_ply, Some(249));
    assert!(r.mutual_sfen.as_deref().is_some_and(|s| s.contains(" w ")));
}

// ---- server-written records (results also in 00LIST.combined) ----

#[test]
fn server_toryo_with_deferred_line() {
    check(
        "server",
        "toryo--",
        agree("black", "toryo", "match", "none", 5),
    );
}

#[test]
fn server_sennichite() {
    // A 4-ply king shuffle: the position after ply 1 recurs at plies 5, 9 and 13. Had the
    // start position counted, ply 12 would have been its 4th occurrence.
    check(
        "server",
        "sennichite--",
        agree("draw", "sennichite", "prelast", "none", 13),
    );
}

#[test]
fn server_illegal_move() {
    check(
        "server",
        "illegal_move--",
        agree("white", "illegal move", "match", "none", 2),
    );
}

#[test]
fn server_oute_kaihimore() {
    check(
        "server",
        "oute_kaihimore--",
        agree("white", "oute_kaihimore", "match", "none", 4),
    );
}

#[test]
fn server_client_chudan_is_an_illegal_move() {
    check(
        "server",
        "chudan--",
        agree("black", "illegal move", "match", "none", 3),
    );
}

#[test]
fn server_illegal_kachi() {
    check(
        "server",
        "illegal_kachi--",
        agree("white", "illegal kachi", "match", "none", 2),
    );
}

#[test]
fn server_time_up() {
    check(
        "server",
        "time_up--",
        agree("black", "time up", "match", "none", 1),
    );
}

#[test]
fn server_abnormal_on_and_off_turn() {
    check(
        "server",
        "abnormal--",
        agree("black", "abnormal", "match", "none", 3),
    );
    check(
        "server",
        "abnormal_off_turn--",
        agree("white", "abnormal", "match", "none", 4),
    );
}

#[test]
fn server_uchifuzume() {
    check(
        "server",
        "uchifuzume--",
        agree("black", "uchifuzume", "match", "none", 103),
    );
}

#[test]
fn server_oute_sennichite_three_ways() {
    check(
        "server",
        "oute_sennichite1--",
        agree("white", "oute_sennichite", "prelast", "none", 110),
    );
    check(
        "server",
        "oute_sennichite2--",
        agree("black", "oute_sennichite", "prelast", "none", 135),
    );
    check(
        "server",
        "oute_sennichite3--",
        agree("white", "oute_sennichite", "prelast", "none", 134),
    );
}

#[test]
fn server_max_moves() {
    let r = check(
        "server",
        "max_moves--",
        agree("draw", "max_moves", "match", "none", 10),
    );
    assert_eq!(r.max_moves, Some(10));
}

#[test]
fn server_kachi_valid_white_declaration() {
    let r = check(
        "server",
        "kachi--",
        agree("white", "kachi", "match", "mutual", 315),
    );
    assert!(r.decl_white >= 27 && r.zone_white >= 10);
}

#[test]
fn server_floodgate_race_move_before_position() {
    let r = check(
        "server",
        "floodgate_race_move_before_position--",
        agree("white", "toryo", "match", "none", 4),
    );
    assert_eq!(r.game_name.as_deref(), Some("floodgate-300-10F"));
}

#[test]
fn server_floodgate_simultaneous_ids() {
    let r = check(
        "server",
        "floodgate_abnormal_simultaneous_ids--",
        agree("black", "abnormal", "match", "none", 1),
    );
    assert_eq!(r.start_time.as_deref(), Some("2026/11/30 02:10:00"));
    assert_eq!(
        r.game_id,
        "wdoor+floodgate-300-10F+fgB0+fgA0+20261130021001"
    );
}

#[test]
fn server_2017_space_comment_and_illegal_kachi() {
    check(
        "server",
        "old20170902_space_comment_and_illegal_kachi--",
        agree("black", "illegal kachi", "match", "none", 3),
    );
}

#[test]
fn server_reject_has_no_game() {
    check(
        "server",
        "reject--",
        Expect {
            winner: "none",
            summary: None,
            judge: None,
            agrees: None,
            final_board: "missing",
            entering: "none",
            status: "no_moves",
            plies: 0,
        },
    );
}

#[test]
fn server_results_agree_with_00list() {
    // Every game of the server's own result list: reason and black's result.
    let list = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/csa/server/00LIST.combined"),
    )
    .unwrap();
    let mut seen = 0;
    for line in list.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        let (reason, black_result, path) = (f[1], f[2], f[6]);
        let id = path.rsplit('/').next().unwrap();
        let d = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/csa/server");
        let file = std::fs::read_dir(&d)
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.to_string_lossy().ends_with(id))
            .unwrap_or_else(|| panic!("no fixture for {id}"));
        let r = analyse_record("s", id, &std::fs::read(&file).unwrap()).unwrap();
        assert_eq!(r.summary_reason.as_deref(), Some(reason), "{id}");
        assert_eq!(r.judge_reason.as_deref(), Some(reason), "{id}");
        assert_eq!(r.black_result.as_deref(), Some(black_result), "{id}");
        seen += 1;
    }
    assert_eq!(seen, 16);
}

/// A worker analyses record after record in the same scratch memory: every row equals the
/// row of a fresh analysis, in any order, whatever the records before it left behind
/// (long games, repetitions, unreadable entries, an outsized entry).
#[test]
fn one_scratch_for_many_records_gives_the_rows_of_fresh_analyses() {
    use floodgate_scan::game::{Scratch, analyse_record_with};
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut files: Vec<PathBuf> = Vec::new();
    let mut dirs = vec![root.join("csa"), root.join("synthetic/records")];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "csa") {
                files.push(p);
            }
        }
    }
    files.sort();
    assert!(files.len() > 150, "{} records", files.len());
    let mut entries: Vec<(String, Vec<u8>)> = files
        .iter()
        .map(|p| (p.display().to_string(), std::fs::read(p).unwrap()))
        .collect();
    entries.push(("not a record".into(), b"hello\nworld\n".to_vec()));
    entries.push(("empty".into(), Vec::new()));
    let mut huge = b"V2\nPI\n+\n".to_vec();
    for _ in 0..20_000 {
        huge.extend_from_slice(b"+5958OU\nT1\n-5152OU\nT1\n+5859OU\nT1\n-5251OU\nT1\n");
    }
    entries.push(("outsized".into(), huge));
    let fresh: Vec<_> = entries
        .iter()
        .map(|(name, bytes)| analyse_record("s", name, bytes))
        .collect();
    let mut scratch = Scratch::default();
    for round in 0..2 {
        for (i, (name, bytes)) in entries.iter().enumerate() {
            let reused = analyse_record_with(&mut scratch, "s", name, bytes);
            assert_eq!(reused, fresh[i], "round {round}: {name}");
        }
        entries.reverse();
        let mut f = fresh.clone();
        f.reverse();
        let again: Vec<_> = entries
            .iter()
            .map(|(name, bytes)| analyse_record_with(&mut scratch, "s", name, bytes))
            .collect();
        assert_eq!(again, f, "round {round}, reversed");
        entries.reverse();
    }
}
