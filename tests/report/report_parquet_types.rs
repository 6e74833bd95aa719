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
    assert_eq!(ty("years", "year"), "int64");
    assert_eq!(ty("years", "games"), "int64");
    assert_eq!(ty("years", "mutual_share"), "double");
    assert_eq!(ty("strength_by_year", "threshold"), "double");
    assert_eq!(ty("strength_by_year", "few_games"), "bool");
    assert_eq!(ty("funnel", "stranded_median"), "double");
    assert_eq!(ty("counterfactual", "black_win"), "int64");
    // Row counts survive: years 2020 and 2021 (the total row in years_total).
    let years_rows = text.lines().find(|l| l.starts_with("years year ")).unwrap();
    assert!(years_rows.ends_with(" 2"), "{years_rows}");
    let _ = std::fs::remove_dir_all(&dir);
}

const TIDY_SCRIPT: &str = r#"
import sys, glob, os, json
import pyarrow as pa, pyarrow.parquet as pq, pyarrow.csv as pc_csv, pyarrow.compute as pc
out = {}
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.parquet")) + glob.glob(os.path.join(sys.argv[1], "*.csv"))):
    name = os.path.basename(path)
    t = pq.read_table(path) if path.endswith(".parquet") else pc_csv.read_csv(path, convert_options=pc_csv.ConvertOptions(strings_can_be_null=True))
    info = {"rows": t.num_rows, "types": {f.name: str(f.type) for f in t.schema}, "text": {}}
    for f in t.schema:
        if pa.types.is_string(f.type) or pa.types.is_large_string(f.type):
            # pyarrow compares the column with a scalar (it cannot on string_view).
            pc.equal(t[f.name], "all")
            info["text"][f.name] = sorted({v for v in t[f.name].to_pylist() if v is not None})
    keys = [c for c in ("year", "max_moves", "era", "rule", "population", "measure", "cell", "metric", "role", "ending", "plies",
                        "engine", "pair", "game_name", "pool", "percentile", "outcome", "term")
            if c in t.column_names]
    rows = list(zip(*[t[c].to_pylist() for c in keys])) if keys else []
    info["unique_keys"] = len(rows) == len(set(rows))
    out[name] = info
print(json.dumps(out))
"#;

#[test]
fn tidy_files_read_back_with_typed_keys_and_plain_strings() {
    let g =
        |year: i64, mm: Option<i64>, entering: &'static str, reason: &'static str, rate: f64| {
            GameRow {
                year: Some(year),
                entering: entering.into(),
                summary_reason: Some(reason.into()),
                max_moves: mm,
                black_rate: Some(rate),
                white_rate: Some(rate),
                owned_black: 30,
                owned_white: 24,
                status: "ok".into(),
                ..GameRow::default()
            }
        };
    let rows = vec![
        g(2022, Some(256), "mutual", "kachi", 2000.0),
        g(2022, Some(256), "mutual", "max_moves", 1000.0),
        g(2025, Some(512), "mutual", "kachi", 2000.0),
        g(2025, None, "mutual", "toryo", 2000.0),
        g(2025, Some(512), "none", "toryo", 1500.0),
    ];
    let df = frame_from_rows(&rows).unwrap();
    let report = build(&df, &ReportConfig::default()).unwrap();
    let dir = scratch("tidy");
    write(&report, &dir).unwrap();
    let out = Command::new("python3")
        .arg("-c")
        .arg(TIDY_SCRIPT)
        .arg(&dir)
        .output()
        .expect("python3 must be installed to run this test");
    assert!(
        out.status.success(),
        "python3 with pyarrow failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let files: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let files = files.as_object().unwrap();
    let ty = |file: &str, column: &str| -> String {
        files[file]["types"][column]
            .as_str()
            .unwrap_or_else(|| panic!("{file}: no column {column}: {}", files[file]))
            .to_string()
    };
    let text = |file: &str, column: &str| -> Vec<String> {
        files[file]["text"][column]
            .as_array()
            .unwrap_or_else(|| panic!("{file}: no text column {column}"))
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect()
    };
    for (name, info) in files {
        // Plain strings everywhere, no total row among the data, one row per key.
        for (column, t) in info["types"].as_object().unwrap() {
            assert_ne!(t, "string_view", "{name}.{column}");
        }
        for (column, values) in info["text"].as_object().unwrap() {
            assert!(
                !values.as_array().unwrap().iter().any(|v| v == "all"),
                "{name}.{column} holds a total row"
            );
        }
        assert_eq!(info["unique_keys"], true, "{name}: keys repeat");
        // Codes are not packed into measures.
        if name.contains("_long.") {
            assert!(info["types"].get("group").is_none(), "{name}");
            for m in text(name, "measure") {
                assert!(!m.starts_with("raw_"), "{name}: {m}");
            }
        }
    }
    for ext in ["parquet", "csv"] {
        let f = |stem: &str| format!("{stem}.{ext}");
        // Years and Max_Moves are integers, in the tables and their long forms.
        assert_eq!(ty(&f("years"), "year"), "int64");
        assert_eq!(ty(&f("years_long"), "year"), "int64");
        assert_eq!(ty(&f("strength_by_year"), "year"), "int64");
        assert_eq!(ty(&f("endings_mutual_by_max_moves"), "max_moves"), "int64");
        assert_eq!(ty(&f("counterfactual_long"), "max_moves"), "int64");
        assert_eq!(
            text(&f("counterfactual_long"), "rule"),
            ["24-point", "27-point", "impasse"]
        );
        // The totals in their own files, one row, without the key.
        assert_eq!(files[&f("years_total")]["rows"], 1);
        assert!(files[&f("years_total")]["types"].get("year").is_none());
        assert_eq!(ty(&f("years_total"), "games"), "int64");
        assert_eq!(files[&f("years")]["rows"], 2, "2022 and 2025");
        // Controlled and raw in a column of their own.
        assert_eq!(
            text(&f("strength_by_era_long"), "population"),
            ["controlled", "raw"]
        );
        assert_eq!(
            text(&f("strength_by_era_long"), "measure"),
            ["decl_win_rate", "low_side_share", "move_limit_rate"]
        );
        // Table 3e: a row per cell and one for the difference with its test.
        let c = f("era_comparison_long");
        assert_eq!(text(&c, "cell"), ["a", "a_minus_b", "b"]);
        assert_eq!(text(&c, "era"), ["2021-2023", "2024-2026"]);
        assert_eq!(ty(&c, "max_moves"), "int64");
        assert_eq!(ty(&c, "p"), "double");
        assert_eq!(files[&c]["rows"], 12);
    }
    // The Parquet text columns are plain strings (large_string), the CSV ones string.
    assert_eq!(ty("years_long.parquet", "measure"), "large_string");
    let _ = std::fs::remove_dir_all(&dir);
}
