//! `floodgate-scan report` on the command line: defaults, outputs, and errors.
#![cfg(feature = "report")]

use std::path::PathBuf;
use std::process::Command;

use floodgate_scan::game::row::GameRow;
use floodgate_scan::report::columns::frame_from_rows;
use floodgate_scan::report::tables::TABLES;
use polars::prelude::*;

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("floodgate-scan-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_floodgate-scan"))
}

fn write_games(dir: &std::path::Path) {
    let rows = vec![
        GameRow {
            year: Some(2024),
            entering: "mutual".into(),
            summary_reason: Some("kachi".into()),
            max_moves: Some(512),
            status: "ok".into(),
            ..GameRow::default()
        };
        3
    ];
    let mut df = frame_from_rows(&rows).unwrap();
    let f = std::fs::File::create(dir.join("games.parquet")).unwrap();
    ParquetWriter::new(f).finish(&mut df).unwrap();
    std::fs::write(
        dir.join("errors.csv"),
        "source,entry,line,reason\na,b,1,bad\n",
    )
    .unwrap();
}

#[test]
fn default_input_and_output_folder() {
    let dir = scratch("cli-default");
    let scan = dir.join("floodgate-scan-out");
    std::fs::create_dir_all(&scan).unwrap();
    write_games(&scan);
    let out = bin().arg("report").current_dir(&dir).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rep = scan.join("report");
    for t in TABLES {
        assert!(rep.join(format!("{}.csv", t.name)).exists(), "{}", t.name);
        assert!(
            rep.join(format!("{}.parquet", t.name)).exists(),
            "{}",
            t.name
        );
    }
    for svg in ["decl_rate_by_year.svg", "funnel.svg", "owned_points.svg"] {
        let s = std::fs::read_to_string(rep.join(svg)).unwrap();
        assert!(
            s.starts_with("<svg") && s.trim_end().ends_with("</svg>"),
            "{svg}"
        );
    }
    let md = std::fs::read_to_string(rep.join("report.md")).unwrap();
    assert!(md.contains("Unreadable entries"), "errors.csv counted");
    assert!(md.contains(": 1."), "one unreadable entry");
    let csv = std::fs::read_to_string(rep.join("endings_mutual_by_max_moves.csv")).unwrap();
    assert!(csv.lines().any(|l| l.starts_with("512,3,3,")), "{csv}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn explicit_paths_and_settings() {
    let dir = scratch("cli-explicit");
    write_games(&dir);
    let out = bin()
        .arg("report")
        .arg(dir.join("games.parquet"))
        .args(["-o"])
        .arg(dir.join("r"))
        .args([
            "--percentile",
            "50",
            "--pool",
            "entering",
            "--min-games",
            "2",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let md = std::fs::read_to_string(dir.join("r/report.md")).unwrap();
    assert!(md.contains("50th percentile of the `entering` rating pool"));
    assert!(md.contains("fewer than 2 controlled games"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn errors_exit_2() {
    let dir = scratch("cli-errors");
    let out = bin()
        .arg("report")
        .arg(dir.join("nope.parquet"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("nope.parquet"));
    write_games(&dir);
    let out = bin()
        .arg("report")
        .arg(dir.join("games.parquet"))
        .args(["--percentile", "101"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    std::fs::write(dir.join("junk.parquet"), b"not parquet").unwrap();
    let out = bin()
        .arg("report")
        .arg(dir.join("junk.parquet"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = bin().args(["report", "--pool", "galaxy"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = bin()
        .arg("report")
        .arg(dir.join("games.parquet"))
        .args(["--game-name", "floodgate-(300"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--game-name"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn game_name_and_players_pool_on_the_command_line() {
    let dir = scratch("cli-game-name");
    let game = |name: &str, player: &str, rate: f64| GameRow {
        year: Some(2024),
        game_name: Some(name.into()),
        black: Some(player.into()),
        white: Some("Z".into()),
        black_rate: Some(rate),
        white_rate: Some(3000.0),
        entering: "mutual".into(),
        summary_reason: Some("kachi".into()),
        max_moves: Some(512),
        status: "ok".into(),
        ..GameRow::default()
    };
    let rows = vec![
        game("floodgate-300-10F", "A", 1000.0),
        game("floodgate-300-10F", "A", 2000.0),
        game("floodgate-600-10F", "B", 2500.0),
    ];
    let mut df = frame_from_rows(&rows).unwrap();
    let f = std::fs::File::create(dir.join("games.parquet")).unwrap();
    ParquetWriter::new(f).finish(&mut df).unwrap();
    let out = bin()
        .arg("report")
        .arg(dir.join("games.parquet"))
        .args(["--game-name", "300-10F$", "--pool", "players", "-o"])
        .arg(dir.join("r"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("3 games (2 with a matching game name)"),
        "{stdout}"
    );
    let md = std::fs::read_to_string(dir.join("r/report.md")).unwrap();
    assert!(md.contains("`players` rating pool"), "{md}");
    assert!(
        md.contains("matches the regular expression `300-10F$`"),
        "{md}"
    );
    // Players A (mean 1500) and Z (3000): 1500 + 0.75 * 1500 = 2625.
    let csv = std::fs::read_to_string(dir.join("r/strength_by_year.csv")).unwrap();
    assert!(
        csv.lines().any(|l| l.starts_with("2024,2,2625.0,0,")),
        "{csv}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
