//! `report --replay`: the table of how two small replays ended the cut mutual games, by
//! era and by Max_Moves, and their cross table, checked against counts made by hand.
#![cfg(feature = "report")]
use std::collections::HashMap;
use std::path::Path;
use std::process::Command;

use floodgate_scan::game::row::GameRow;
use floodgate_scan::report::columns::frame_from_rows;
use floodgate_scan::report::stats::wilson;
use polars::prelude::*;

fn game(id: &str, year: i64, max_moves: Option<i64>, reason: &str) -> GameRow {
    GameRow {
        game_id: id.into(),
        year: Some(year),
        entering: "mutual".into(),
        summary_reason: Some(reason.into()),
        max_moves,
        status: "ok".into(),
        ..GameRow::default()
    }
}

fn write_replay(path: &Path, engine: &str, rows: &[(&str, &str, &str, &str)]) {
    let mut text = String::from("id,ending,winner,declared_by,engine_black,engine_white\n");
    for (id, ending, winner, by) in rows {
        text.push_str(&format!("{id},{ending},{winner},{by},{engine},{engine}\n"));
    }
    std::fs::write(path, text).unwrap();
}

fn read(path: &Path) -> Vec<HashMap<String, String>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let h = r.headers().unwrap().clone();
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            h.iter()
                .zip(rec.iter())
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect()
        })
        .collect()
}

#[test]
fn two_replays_counted_by_era_and_max_moves_and_crossed() {
    let dir = std::env::temp_dir().join(format!("fs-report-replay-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let games = vec![
        game("g1", 2010, Some(256), "max_moves"),
        game("g2", 2010, Some(256), "max_moves_draw"),
        game("g3", 2019, Some(512), "max_moves"),
        game("g4", 2019, Some(512), "max_moves"),
        // Not cut by the move limit: its replay row is not counted.
        game("g5", 2019, Some(512), "kachi"),
        game("g6", 2024, None, "max_moves"),
    ];
    let mut df = frame_from_rows(&games).unwrap();
    ParquetWriter::new(std::fs::File::create(dir.join("games.parquet")).unwrap())
        .finish(&mut df)
        .unwrap();
    write_replay(
        &dir.join("a.csv"),
        "A",
        &[
            ("g1", "declaration", "black", "black"),
            ("g2", "declared_draw", "draw", "white"),
            ("g3", "mate", "white", ""),
            ("g4", "declaration", "white", "white"),
            ("g5", "declaration", "black", "black"),
            ("g6", "limit", "draw", ""),
            ("study.tsv:3", "mate", "black", ""),
        ],
    );
    write_replay(
        &dir.join("b.csv"),
        "B",
        &[
            ("g1", "declaration", "black", "black"),
            ("g2", "limit", "draw", ""),
            ("g3", "resign", "white", ""),
            ("g4", "repetition", "draw", ""),
            ("g6", "limit", "draw", ""),
        ],
    );
    let out = dir.join("report");
    let o = Command::new(env!("CARGO_BIN_EXE_floodgate-scan"))
        .arg("report")
        .arg(dir.join("games.parquet"))
        .arg("-o")
        .arg(&out)
        .arg("--replay")
        .arg(dir.join("a.csv"))
        .arg("--replay")
        .arg(dir.join("b.csv"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));

    // Counts by hand: engine, by, group -> games, declared_black, declared_white,
    // declared_draw, mate, repetition, limit, other.
    let want: &[(&str, &str, &str, [u64; 9])] = &[
        ("A", "era", "2008-2013", [2, 1, 0, 1, 0, 0, 0, 0, 0]),
        ("A", "era", "2018-2020", [2, 0, 1, 0, 1, 0, 0, 0, 0]),
        ("A", "era", "2024-2026", [1, 0, 0, 0, 0, 0, 0, 1, 0]),
        ("A", "max_moves", "256", [2, 1, 0, 1, 0, 0, 0, 0, 0]),
        ("A", "max_moves", "512", [2, 0, 1, 0, 1, 0, 0, 0, 0]),
        ("A", "max_moves", "unknown", [1, 0, 0, 0, 0, 0, 0, 1, 0]),
        ("A", "all", "all", [5, 1, 1, 1, 1, 0, 0, 1, 0]),
        ("B", "era", "2008-2013", [2, 1, 0, 0, 0, 0, 0, 1, 0]),
        ("B", "era", "2018-2020", [2, 0, 0, 0, 0, 1, 1, 0, 0]),
        ("B", "era", "2024-2026", [1, 0, 0, 0, 0, 0, 0, 1, 0]),
        ("B", "max_moves", "256", [2, 1, 0, 0, 0, 0, 0, 1, 0]),
        ("B", "max_moves", "512", [2, 0, 0, 0, 0, 1, 1, 0, 0]),
        ("B", "max_moves", "unknown", [1, 0, 0, 0, 0, 0, 0, 1, 0]),
        ("B", "all", "all", [5, 1, 0, 0, 0, 1, 1, 2, 0]),
    ];
    let cols = [
        "games",
        "declared_black",
        "declared_white",
        "declared_draw",
        "mate",
        "resign",
        "repetition",
        "limit",
        "other",
    ];
    let got = read(&out.join("replay_endings.csv"));
    assert_eq!(got.len(), want.len());
    for (r, (engine, by, group, counts)) in got.iter().zip(want) {
        assert_eq!(
            (&r["engine"][..], &r["by"][..], &r["group"][..]),
            (*engine, *by, *group)
        );
        for (c, n) in cols.iter().zip(counts) {
            assert_eq!(r[*c], n.to_string(), "{engine} {by} {group} {c}");
        }
    }
    // A's declaration wins over all: 2 of 5, with the Wilson interval.
    let all_a = &got[6];
    let (lo, hi) = wilson(2, 5).unwrap();
    assert_eq!(all_a["declared_rate"].parse::<f64>().unwrap(), 0.4);
    assert!((all_a["declared_rate_lo"].parse::<f64>().unwrap() - lo).abs() < 1e-9);
    assert!((all_a["declared_rate_hi"].parse::<f64>().unwrap() - hi).abs() < 1e-9);

    // The cross table: rows A's class, columns B's; g1 declared_black both, g2
    // declared_draw / limit, g3 mate / resign, g4 declared_white / repetition, g6 limit
    // both.
    let cross = read(&out.join("replay_cross.csv"));
    let cell = |a: &str, b: &str| -> String {
        cross.iter().find(|r| r["ending"] == a).unwrap()[b].clone()
    };
    assert_eq!(cell("declared_black", "declared_black"), "1");
    assert_eq!(cell("declared_draw", "limit"), "1");
    assert_eq!(cell("mate", "resign"), "1");
    assert_eq!(cell("mate", "mate"), "0");
    assert_eq!(cell("declared_white", "repetition"), "1");
    assert_eq!(cell("limit", "limit"), "1");
    assert_eq!(cell("total", "total"), "5");
    assert_eq!(cell("declared_black", "limit"), "0");
    let agree = read(&out.join("replay_agreement.csv"));
    assert_eq!(
        (
            &agree[0]["verdict"][..],
            &agree[0]["agree"][..],
            &agree[0]["games"][..]
        ),
        ("same_ending", "2", "5")
    );
    // Winners: g1 black, g2 draw, g3 white, g6 draw agree; g4 white / draw does not.
    assert_eq!(
        (&agree[1]["verdict"][..], &agree[1]["agree"][..]),
        ("same_winner", "4")
    );
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("## The cut games replayed"), "{md}");
    assert!(md.contains("How often the two replays agree"));
    assert!(md.contains("Replay `A`: 2 of 7 rows are not cut mutual games"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_unknown_ending_word_is_an_error_naming_the_file_and_line() {
    let dir = std::env::temp_dir().join(format!("fs-report-replay-bad-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut df = frame_from_rows(&[game("g1", 2010, Some(256), "max_moves")]).unwrap();
    ParquetWriter::new(std::fs::File::create(dir.join("games.parquet")).unwrap())
        .finish(&mut df)
        .unwrap();
    let bad = dir.join("bad.csv");
    write_replay(
        &bad,
        "A",
        &[
            ("g1", "declaration", "black", "black"),
            ("g1", "declared", "black", "black"),
        ],
    );
    let o = Command::new(env!("CARGO_BIN_EXE_floodgate-scan"))
        .arg("report")
        .arg(dir.join("games.parquet"))
        .arg("-o")
        .arg(dir.join("report"))
        .arg("--replay")
        .arg(&bad)
        .output()
        .unwrap();
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(&format!(
            "{}:3: unknown replay ending `declared`",
            bad.display()
        )),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Two replays of a positions file (ids that are no game of the table): compared on the
/// positions both played, with a note when their positions differ, and none when they
/// share no position.
#[test]
fn replays_of_a_positions_file_are_compared_and_different_positions_said() {
    let dir = std::env::temp_dir().join(format!("fs-report-replay-pos-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut df = frame_from_rows(&[game("g1", 2010, Some(256), "max_moves")]).unwrap();
    ParquetWriter::new(std::fs::File::create(dir.join("games.parquet")).unwrap())
        .finish(&mut df)
        .unwrap();
    // Positions 1-3 in both; 4 only in A. Same ending at 1 and 3, same winner at 1-3.
    write_replay(
        &dir.join("a.csv"),
        "A",
        &[
            ("pos.tsv:1", "declaration", "black", "black"),
            ("pos.tsv:2", "mate", "white", ""),
            ("pos.tsv:3", "limit", "draw", ""),
            ("pos.tsv:4", "limit", "draw", ""),
        ],
    );
    write_replay(
        &dir.join("b.csv"),
        "B",
        &[
            ("pos.tsv:1", "declaration", "black", "black"),
            ("pos.tsv:2", "resign", "white", ""),
            ("pos.tsv:3", "limit", "draw", ""),
        ],
    );
    write_replay(
        &dir.join("c.csv"),
        "C",
        &[("other.tsv:1", "limit", "draw", "")],
    );
    let run = |a: &str, b: &str, out: &str| {
        let o = Command::new(env!("CARGO_BIN_EXE_floodgate-scan"))
            .arg("report")
            .arg(dir.join("games.parquet"))
            .arg("-o")
            .arg(dir.join(out))
            .arg("--replay")
            .arg(dir.join(a))
            .arg("--replay")
            .arg(dir.join(b))
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        dir.join(out)
    };
    let out = run("a.csv", "b.csv", "ab");
    let agree = read(&out.join("replay_agreement.csv"));
    assert_eq!((&agree[0]["agree"][..], &agree[0]["games"][..]), ("2", "3"));
    assert_eq!(&agree[1]["agree"][..], "3");
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        md.contains("Replays `A` and `B` played different positions: they are compared on the 3 both played; 1 only in `A`, 0 only in `B`."),
        "{md}"
    );
    assert!(
        md.contains("Of the 3 positions both replays played"),
        "{md}"
    );
    // No position in common: said, and no agreement table.
    let out = run("a.csv", "c.csv", "ac");
    assert!(!out.join("replay_agreement.csv").exists());
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("have no position in common"), "{md}");
    std::fs::remove_dir_all(&dir).unwrap();
}
