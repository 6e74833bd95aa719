//! Position statistics (table 6 and `floodgate-scan positions`): hand-counted small
//! positions, and the 1,000 entering-king positions of the bundled bench file checked
//! against the zone counts and declaration points recorded in its own columns.
#![cfg(feature = "report")]

use std::process::Command;

use floodgate_scan::report::positions::{counts, read_positions, tables};
use floodgate_scan::shogi::Position;
use polars::prelude::*;

const BENCH: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/fixtures/positions/aiiru_bench.tsv"
);

fn count(sfen: &str) -> floodgate_scan::report::positions::PositionCounts {
    counts(&Position::from_sfen(sfen).unwrap())
}

#[test]
fn bare_kings() {
    let c = count("4k4/9/9/9/9/9/9/9/4K4 b - 1");
    assert_eq!((c.board_pieces, c.hand_pieces), (2, 0));
    assert_eq!(c.legal_moves, 5, "king on 5i: 4h 5h 6h 4i 6i");
    assert_eq!((c.captures, c.drops), (0, 0));
    assert_eq!(c.declaration_points, [0, 0]);
}

#[test]
fn rook_in_hand_drops_everywhere_and_counts_five_points() {
    let c = count("4k4/9/9/9/9/9/9/9/4K4 b R 1");
    assert_eq!(c.hand_pieces, 1);
    assert_eq!(c.drops, 79, "every empty square");
    assert_eq!(c.legal_moves, 84);
    assert_eq!(c.declaration_points, [5, 0]);
    assert_eq!(c.owned_points, [5, 0]);
    assert_eq!(c.zone, [0, 0]);
    let (_, sides) = floodgate_scan::report::positions::frames(&[c]).unwrap();
    let ints = |c: &str| -> Vec<i64> {
        let ca = sides.column(c).unwrap().i64().unwrap();
        (0..ca.len()).filter_map(|i| ca.get(i)).collect()
    };
    let s27 = ints("shortfall27");
    let s24 = ints("shortfall24");
    assert_eq!(s27, [23, 27], "28 - 5 for Black, 27 - 0 for White");
    assert_eq!(s24, [26, 31]);
}

#[test]
fn capturing_the_checking_pawn() {
    // White pawn on 5h checks the king on 5i; the king takes it or steps aside.
    let c = count("4k4/9/9/9/9/9/9/4p4/4K4 b - 1");
    assert_eq!(c.captures, 1);
    assert_eq!(c.legal_moves, 5);
}

#[test]
fn comments_blank_lines_and_bad_lines() {
    let text = "# header\n\n4k4/9/9/9/9/9/9/9/4K4 b - 1\t12\tx\nnot-a-sfen\t1\n";
    let (ok, bad) = read_positions(text);
    assert_eq!(ok.len(), 1);
    assert_eq!(bad.len(), 1);
    assert_eq!(bad[0].line, 4);
}

#[test]
fn bench_positions_agree_with_their_recorded_counts() {
    let text = std::fs::read_to_string(BENCH).unwrap();
    let (all, bad) = read_positions(&text);
    assert!(bad.is_empty(), "{bad:?}");
    assert_eq!(all.len(), 1000);
    let rows: Vec<Vec<&str>> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split('\t').collect())
        .collect();
    for (c, r) in all.iter().zip(&rows) {
        let n = |i: usize| r[i].parse::<i32>().unwrap();
        assert_eq!(c.zone, [n(2), n(4)], "{}", r[0]);
        assert_eq!(c.declaration_points, [n(3), n(5)], "{}", r[0]);
        assert_eq!(c.board_pieces + c.hand_pieces, 40, "full set: {}", r[0]);
        assert_eq!(c.owned_points[0] + c.owned_points[1], 54, "{}", r[0]);
        assert!(c.captures + c.drops <= c.legal_moves);
    }
    let [summary, sides, shortfall] = tables(&all).unwrap();
    assert_eq!(summary.height(), 5);
    assert_eq!(sides.height(), 2);
    let total: i64 = shortfall
        .column("sides_24_point")
        .unwrap()
        .i64()
        .unwrap()
        .sum()
        .unwrap();
    assert_eq!(total, 2000, "two sides a position");
}

#[test]
fn positions_command_json() {
    let out = Command::new(env!("CARGO_BIN_EXE_floodgate-scan"))
        .args(["positions", BENCH, "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["positions"], 1000);
    assert_eq!(v["summary"][0]["metric"], "board_pieces");
    assert_eq!(v["sides"][1]["rule"], "24-point");
    let out = Command::new(env!("CARGO_BIN_EXE_floodgate-scan"))
        .args(["positions", "/nonexistent/positions.tsv"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn table_6_reads_mutual_sfen_from_the_games_table() {
    use floodgate_scan::game::row::GameRow;
    use floodgate_scan::report::{ReportConfig, build, columns::frame_from_rows};
    let rows = vec![
        GameRow {
            mutual_sfen: Some("4k4/9/9/9/9/9/9/9/4K4 b R 1".into()),
            ..GameRow::default()
        },
        GameRow {
            mutual_sfen: Some("4k4/9/9/9/9/9/9/9/4K4 b - 1".into()),
            ..GameRow::default()
        },
        GameRow {
            mutual_sfen: Some("garbage".into()),
            ..GameRow::default()
        },
        GameRow::default(),
    ];
    let r = build(&frame_from_rows(&rows).unwrap(), &ReportConfig::default()).unwrap();
    let p = r.table("mutual_positions").unwrap();
    let legal = p
        .filter(
            &p.column("metric")
                .unwrap()
                .str()
                .unwrap()
                .equal("legal_moves"),
        )
        .unwrap();
    assert_eq!(
        legal.column("positions").unwrap().i64().unwrap().get(0),
        Some(2)
    );
    assert_eq!(
        legal.column("median").unwrap().f64().unwrap().get(0),
        Some(44.5),
        "(5 + 84) / 2"
    );
    assert_eq!(legal.column("max").unwrap().i64().unwrap().get(0), Some(84));
    let drops = p
        .filter(&p.column("metric").unwrap().str().unwrap().equal("drops"))
        .unwrap();
    let share = drops
        .column("legal_share")
        .unwrap()
        .f64()
        .unwrap()
        .get(0)
        .unwrap();
    assert!((share - 79.0 / 89.0).abs() < 1e-12);
    let s = r.table("mutual_position_sides").unwrap();
    assert_eq!(s.column("sides").unwrap().i64().unwrap().get(0), Some(4));
    let d = r.table("mutual_shortfall").unwrap();
    let n = |col: &str, shortfall: usize| d.column(col).unwrap().i64().unwrap().get(shortfall);
    assert_eq!(n("sides_27_point", 23), Some(1));
    assert_eq!(n("sides_27_point", 27), Some(2), "both Whites");
    assert_eq!(n("sides_24_point", 31), Some(3));
}

/// `positions` and `replay --positions` read one format: an indented `# comment` is a
/// comment for both (it used to be a bad line for `positions`), and both name the same
/// bad lines.
#[test]
fn an_indented_comment_is_a_comment_for_both_commands() {
    use floodgate_scan::lab::endings;
    let text = "  # indented\n4k4/9/9/9/9/9/9/9/4K4 b - 1\n\t#tab\nnot-a-sfen\n";
    let (counted, bad) = read_positions(text);
    let (starts, bad_replay) = endings::read_positions(text, "f.tsv");
    assert_eq!(counted.len(), 1);
    assert_eq!(starts.len(), 1);
    assert_eq!(starts[0].0.id, "f.tsv:2");
    assert_eq!(bad, bad_replay);
    assert_eq!(bad.iter().map(|b| b.line).collect::<Vec<_>>(), [4]);
}
