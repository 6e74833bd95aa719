//! The report's Parquet files read from Python (pyarrow) with typed columns: counts as
//! int64, shares as double, flags as bool, keys as string.
#![cfg(feature = "report")]

use std::path::PathBuf;
use std::process::Command;

use floodgate_scan::game::row::GameRow;
use floodgate_scan::report::columns::frame_from_rows;
use floodgate_scan::report::{ReportConfig, build, write};

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("floodgate-scan-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

const SCRIPT: &str = r#"
import sys, glob, os
import pyarrow.parquet as pq
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.parquet"))):
    t = pq.read_table(path)
    name = os.path.basename(path)[:-8]
    for f in t.schema:
        print(name, f.name, f.type, t.num_rows)
"#;

#[test]
fn parquet_tables_read_from_python_with_types() {
    let rows: Vec<GameRow> = (0..4)
        .map(|i| GameRow {
            year: Some(2020 + i % 2),
            entering: if i < 3 { "mutual" } else { "none" }.into(),
            summary_reason: Some(if i == 0 { "kachi" } else { "max_moves" }.into()),
            max_moves: Some(256),
            black_rate: Some(2000.0 + i as f64),
            white_rate: Some(2100.0),
            owned_black: 30,
            owned_white: 24,
            status: "ok".into(),
            ..GameRow::default()
        })
        .collect();
    let df = frame_from_rows(&rows).unwrap();
    let report = build(&df, &ReportConfig::default()).unwrap();
    let dir = scratch("python");
    write(&report, &dir).unwrap();
    let out = Command::new("python3")
        .arg("-c")
        .arg(SCRIPT)
        .arg(&dir)
        .output()
        .expect("python3 must be installed to run this test");
    assert!(
        out.status.success(),
        "python3 with pyarrow (pip install pyarrow) failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let ty = |table: &str, column: &str| -> String {
        text.lines()
            .map(|l| l.split(' ').collect::<Vec<_>>())
            .find(|f| f[0] == table && f[1] == column)
            .unwrap_or_else(|| panic!("{table}.{column} not read from Python:\n{text}"))[2]
            .to_string()
    };
    // Every table of the registry was written and read.
    for t in &report.tables {
        assert!(
            text.lines()
                .any(|l| l.starts_with(&format!("{} ", t.spec.name))),
            "{}",
            t.spec.name
        );
    }
    assert!(["string", "large_string", "string_view"].contains(&ty("years", "year").as_str()));
    assert_eq!(ty("years", "games"), "int64");
    assert_eq!(ty("years", "mutual_share"), "double");
    assert_eq!(ty("strength_by_year", "threshold"), "double");
    assert_eq!(ty("strength_by_year", "few_games"), "bool");
    assert_eq!(ty("funnel", "stranded_median"), "double");
    assert_eq!(ty("counterfactual", "black_win"), "int64");
    // Row counts survive: years 2020, 2021, all.
    let years_rows = text.lines().find(|l| l.starts_with("years year ")).unwrap();
    assert!(years_rows.ends_with(" 3"), "{years_rows}");
    let _ = std::fs::remove_dir_all(&dir);
}
