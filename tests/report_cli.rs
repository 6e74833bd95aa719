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
    let _ = std::fs::remove_dir_all(&dir);
}
