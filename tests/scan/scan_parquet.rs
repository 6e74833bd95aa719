//! `games.parquet` holds the same table as `games.csv`: same columns in the same order,
//! same row count, same entries in the same order, written in row groups.
#![cfg(feature = "report")]

use crate::scan_support::*;
use polars::prelude::*;

#[test]
fn parquet_and_csv_hold_the_same_table() {
    let dir = scratch("parquet");
    let run = scan(
        &dir,
        &[
            "-q",
            fixture("synthetic.7z").to_str().unwrap(),
            fixture("records").to_str().unwrap(),
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let file = std::fs::File::open(dir.join("games.parquet")).unwrap();
    let df = ParquetReader::new(file).finish().unwrap();
    let names: Vec<String> = df
        .get_column_names()
        .iter()
        .map(|s| s.to_string())
        .collect();
    let expected: Vec<String> = floodgate_scan::game::COLUMNS
        .iter()
        .map(|c| c.name.to_string())
        .collect();
    assert_eq!(names, expected);
    assert_eq!(df.height() as u64, 2 * SYNTHETIC_GAMES);
    let mut csv_entries = Vec::new();
    let mut r = csv::Reader::from_path(dir.join("games.csv")).unwrap();
    for rec in r.records() {
        csv_entries.push(rec.unwrap()[1].to_string());
    }
    let entries = df.column("entry").unwrap().str().unwrap();
    let pq_entries: Vec<String> = (0..entries.len())
        .map(|i| entries.get(i).unwrap_or("").to_string())
        .collect();
    assert_eq!(pq_entries, csv_entries);
    for c in floodgate_scan::game::COLUMNS {
        let col = df.column(c.name).unwrap();
        let ok =
            match c.kind {
                floodgate_scan::game::ColumnKind::Str
                | floodgate_scan::game::ColumnKind::OptStr => col.dtype() == &DataType::String,
                floodgate_scan::game::ColumnKind::Int
                | floodgate_scan::game::ColumnKind::OptInt => col.dtype() == &DataType::Int64,
                floodgate_scan::game::ColumnKind::OptFloat => col.dtype() == &DataType::Float64,
                floodgate_scan::game::ColumnKind::Bool
                | floodgate_scan::game::ColumnKind::OptBool => col.dtype() == &DataType::Boolean,
            };
        assert!(ok, "{}: {:?}", c.name, col.dtype());
    }
}
