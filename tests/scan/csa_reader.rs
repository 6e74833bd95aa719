//! Contract of the CSA record reader on the real and server-written records and on the
//! quirks of every era of the server.

use floodgate_scan::csa::{SpecialKind, SummaryOrder, WarningKind, read_record};
use std::path::PathBuf;

fn fixture(dir: &str, prefix: &str) -> Vec<u8> {
    std::fs::read(crate::csa_support::fixture_path(dir, prefix)).unwrap()
}

fn all_fixtures() -> Vec<(String, Vec<u8>)> {
    let mut v = Vec::new();
    for dir in ["real", "server"] {
        let d = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/csa")
            .join(dir);
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "csa") {
                v.push((p.display().to_string(), std::fs::read(&p).unwrap()));
            }
        }
    }
    v.sort();
    v
}

fn count_move_lines(bytes: &[u8]) -> usize {
    bytes
        .split(|&b| b == b'\n')
        .filter(|l| l.len() >= 7 && (l[0] == b'+' || l[0] == b'-') && l[1].is_ascii_digit())
        .count()
}

#[test]
fn every_fixture_reads_with_all_its_moves_and_times() {
    let all = all_fixtures();
    assert_eq!(all.len(), 11 + 19);
    for (name, bytes) in &all {
        let rec = read_record(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(rec.moves.len(), count_move_lines(bytes), "{name}");
        assert!(
            rec.position.as_ref().is_some_and(|p| p.lines.len() == 9),
            "{name}"
        );
        assert_eq!(rec.version, Some(&b"2"[..]), "{name}");
        assert!(rec.black.is_some() && rec.white.is_some(), "{name}");
        assert!(rec.game_id.is_some(), "{name}");
        assert!(rec.start_time.is_some(), "{name}");
        if !rec.truncated {
            assert!(
                rec.moves.iter().all(|m| m.time.is_some()),
                "{name}: a move without T"
            );
        }
        assert!(
            rec.warnings
                .iter()
                .all(|w| w.kind != WarningKind::UnknownLine),
            "{name}: {:?}",
            rec.warnings
        );
    }
}

#[test]
fn kachi_with_comment_time_and_repeat_2020() {
    let b = fixture("real", "dr1test1test0");
    let rec = read_record(&b).unwrap();
    assert_eq!(rec.max_moves, Some(512));
    assert_eq!(rec.least_time_per_move, Some(0));
    assert_eq!(rec.increment, Some(5));
    assert_eq!(rec.game_name(), Some("tu-1_aobazero_viper-300-5F"));
    assert_eq!(rec.game_id.as_ref().unwrap().event, "dr1test1test0");
    assert_eq!(rec.moves.len(), 400);
    assert_eq!(rec.specials.len(), 2);
    assert!(
        rec.specials
            .iter()
            .all(|s| s.kind == SpecialKind::Kachi && s.after_plies == 400)
    );
    assert_eq!(rec.specials[0].raw, b"%KACHI,'* -5000 win");
    assert_eq!(rec.specials[0].time, Some(10));
    assert_eq!(rec.specials[1].time, None);
    assert_eq!(rec.end_marker().unwrap().marker(), "%KACHI");
    let s = rec.summary.as_ref().unwrap();
    assert_eq!(s.reason, "kachi");
    assert_eq!(s.order, SummaryOrder::BlackFirst);
    assert_eq!((s.black_result(), s.white_result()), ("win", "lose"));
    let t = rec.trailer.as_ref().unwrap();
    assert!(t.is_complete());
    assert_eq!(t.hands[1], None, "White's hand is empty, no 'P- line");
    assert_eq!(rec.end_time.as_deref(), Some("2020/07/19 20:56:29"));
    assert!(!rec.truncated);
}

#[test]
fn floodgate_race_move_before_position_block() {
    let b = fixture("server", "floodgate_race_move_before_position");
    let rec = read_record(&b).unwrap();
    assert_eq!(rec.moves.len(), 4);
    assert!(rec.moves[0].before_position);
    assert!(rec.moves[1..].iter().all(|m| !m.before_position));
    assert_eq!(rec.moves[0].line, 9);
    let p = rec.position.as_ref().unwrap();
    assert_eq!(p.line, 12);
    assert_eq!(p.side, Some((21, b'+')));
    assert_eq!(rec.black_rate.as_ref().unwrap().rate, Some(3012.0));
    assert_eq!(rec.white_rate.as_ref().unwrap().rate, Some(2875.0));
    assert_eq!(rec.end_marker().unwrap().kind, SpecialKind::Toryo);
}

#[test]
fn move_line_with_trailing_comment_2017_server() {
    let b = fixture("server", "old20170902");
    let rec = read_record(&b).unwrap();
    assert_eq!(rec.moves[0].text, b"+7776FU");
    assert_eq!(rec.moves[0].as_str(), "+7776FU");
    assert_eq!(rec.moves[0].trailing, b" '* 30 -3334FU");
    assert_eq!(rec.moves[0].time, Some(0));
    assert_eq!(rec.specials.len(), 2);
    assert_eq!(rec.specials[0].time, Some(0));
}

#[test]
fn old_summary_names_the_current_player_first() {
    let b = fixture("real", "wdoor+floodgate-900-0+usapyon-on-note+KShogi900");
    let rec = read_record(&b).unwrap();
    let s = rec.summary.as_ref().unwrap();
    assert_eq!(s.order, SummaryOrder::WhiteFirst);
    assert_eq!((s.black_result(), s.white_result()), ("win", "lose"));
    // 'rating after the summary
    assert!(rec.rating.is_some());
    assert!(rec.summary.as_ref().unwrap().line < 338);
    assert_eq!(rec.trailer.as_ref().unwrap().side, Some(b'+'));
    // Shift_JIS comment bytes are kept verbatim.
    assert!(
        rec.comments
            .iter()
            .any(|c| c.bytes.iter().any(|&b| b >= 0x80))
    );
}

#[test]
fn draw_rating_garbage_and_sennichite_without_marker() {
    let b = fixture("real", "wdoor+floodgate-900-0+garyu+coredump");
    let rec = read_record(&b).unwrap();
    assert!(
        rec.rating
            .unwrap()
            .starts_with(b"#<ShogiServer::GameResultDraw")
    );
    assert!(rec.specials.is_empty());
    assert_eq!(rec.summary.as_ref().unwrap().reason, "sennichite");
    assert_eq!(rec.black_rate, None);
}

#[test]
fn truncated_record_keeps_what_was_read() {
    let b = fixture("real", "wdoor+floodgate-900-0+usapyon-on-note+gps_normal");
    let rec = read_record(&b).unwrap();
    assert!(rec.truncated);
    assert!(rec.summary.is_none() && rec.trailer.is_none() && rec.end_time.is_none());
    assert_eq!(rec.moves.len(), 113);
    // Cut mid-line: the same record loses its last line but keeps the moves before.
    let cut = &b[..b.len() - 40];
    let rec = read_record(cut).unwrap();
    assert!(rec.truncated && rec.ends_mid_line);
    assert_eq!(rec.moves.len(), 113);
}

#[test]
fn rejected_actions_are_not_moves() {
    let rec_bytes = fixture("server", "illegal_move");
    let rec = read_record(&rec_bytes).unwrap();
    assert_eq!(rec.moves.len(), 2);
    let r = rec.rejected.unwrap();
    assert_eq!((r.raw, r.after_plies, r.line), (&b"+7775FU"[..], 2, 25));
    let rec_bytes = fixture("server", "chudan");
    let rec = read_record(&rec_bytes).unwrap();
    assert_eq!(rec.rejected.unwrap().raw, b"%CHUDAN");
    assert!(
        rec.specials.is_empty(),
        "the client's %CHUDAN is not an end marker"
    );
}

#[test]
fn rejected_game_is_header_only() {
    let b = fixture("server", "reject");
    let rec = read_record(&b).unwrap();
    assert!(rec.moves.is_empty() && rec.summary.is_none() && rec.trailer.is_none());
    assert!(rec.end_time.is_some());
    assert!(!rec.truncated);
    assert_eq!(rec.max_moves, Some(256));
}

#[test]
fn deferred_lines_are_comments() {
    let b = fixture("server", "toryo");
    let rec = read_record(&b).unwrap();
    assert_eq!(rec.moves.len(), 5);
    assert!(
        rec.comments
            .iter()
            .any(|c| c.bytes == b"Deferred +2625FU" && c.line == 31)
    );
}

const QUIRKS: &[u8] = b"'comment before anything\r\nV2\r\nN+a\r\nN-b\r\n$EVENT:wdoor+floodgate-900-0+a+b+20081001000000\r\n\
$START_TIME:2008/10/01 00:00:00\r\nP1-KY-KE-GI-KI-OU-KI-GI-KE-KY\r\nP2 * -HI *  *  *  *  * -KA * \r\n\
P3-FU-FU-FU-FU-FU-FU-FU-FU-FU\r\nP4 *  *  *  *  *  *  *  *  * \r\nP5 *  *  *  *  *  *  *  *  * \r\n\
P6 *  *  *  *  *  *  *  *  * \r\nP7+FU+FU+FU+FU+FU+FU+FU+FU+FU\r\nP8 * +KA *  *  *  *  * +HI * \r\n\
P9+KY+KE+GI+KI+OU+KI+GI+KE+KY\r\n+\r\n+7776FU\r\nT-1\r\nT5\r\n-3334FU\r\nTx\r\n%%TORYO\r\n\r\n\
'P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\r\n'P+00KA00FU\r\n'+\r\n\r\n'summary:toryo:b win:a lose\r\n\
'rating:#<ShogiServer::GameResultDraw:0x0>\r\n'$END_TIME:2008/10/01 00:10:00\r\n+2726FU\r\n";

#[test]
fn every_era_quirk_in_one_record() {
    let rec = read_record(QUIRKS).unwrap();
    assert_eq!(rec.moves.len(), 2, "the move after the trailer is ignored");
    assert_eq!(rec.moves[0].time, Some(-1));
    assert_eq!(rec.moves[1].time, None);
    let kinds: Vec<_> = rec.warnings.iter().map(|w| (w.line, w.kind)).collect();
    assert!(kinds.contains(&(19, WarningKind::OrphanTime)));
    assert!(kinds.contains(&(21, WarningKind::BadTime)));
    assert!(kinds.contains(&(23, WarningKind::BlankLine)));
    assert!(kinds.contains(&(31, WarningKind::MoveAfterTrailer)));
    let sp = &rec.specials[0];
    assert_eq!(
        (sp.kind, sp.doubled, sp.after_plies),
        (SpecialKind::Toryo, true, 2)
    );
    let t = rec.trailer.as_ref().unwrap();
    assert_eq!(t.hands[0], Some(&b"P+00KA00FU"[..]));
    assert_eq!(t.side, Some(b'+'));
    let s = rec.summary.as_ref().unwrap();
    assert_eq!(s.order, SummaryOrder::WhiteFirst);
    assert_eq!(s.black_result(), "lose");
    assert_eq!(rec.comments[0].bytes, b"comment before anything");
    assert_eq!(rec.game_id.as_ref().unwrap().year(), Some(2008));
    assert!(!rec.truncated);
}

#[test]
fn not_csa_at_all_is_an_error_with_a_line() {
    let e = read_record(b"").unwrap_err();
    assert_eq!(e.line, None);
    let e = read_record(b"\x89PNG\r\n\x1a\n\0\0\0").unwrap_err();
    assert_eq!(e.line, Some(1));
    let e = read_record(b"\n\nhello world\n").unwrap_err();
    assert_eq!(e.line, Some(3));
    assert!(read_record(b"'only a comment\n'another\n").is_err());
    assert!(read_record(b"\n\n\n").is_err());
    // A bare header is a record (of a game with no moves).
    assert!(read_record(b"V2\n").is_ok());
}
