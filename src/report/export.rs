//! Forms of the report's tables for a paper and for other tools: each table as a booktabs
//! LaTeX file (`report --latex`), and the report's settings, the tool's version and the
//! input's summary as `report.json` and as key-value metadata of every Parquet file (the
//! data files themselves are shaped in [`super::tidy`]).

use super::Report;

/// The count and denominator of a rate column with a Wilson interval (`NAME_lo`,
/// `NAME_hi`): every `(count, denominator, rate)` given to
/// [`super::stats::with_intervals`] and the cells of table 3e. `None` for a column that is
/// not such a rate.
pub fn rate_parts(rate: &str) -> Option<(&'static str, &'static str)> {
    Some(match rate {
        "not_replayed_share" => ("not_replayed", "games"),
        "board_match_rate" => ("board_matched", "board_compared"),
        "entering_board_match_rate" => ("entering_board_matched", "entering_board_compared"),
        "valid_decl_share" => ("valid_decl", "games"),
        "invalid_decl_share" => ("invalid_decl", "games"),
        "move_limit_share" => ("move_limit", "games"),
        "decl_win_rate" => ("decl_wins", "games"),
        "move_limit_rate" => ("move_limit", "games"),
        "low_side_share" => ("low_side", "move_limit"),
        "raw_decl_win_rate" => ("raw_decl_wins", "raw_games"),
        "raw_move_limit_rate" => ("raw_move_limit", "raw_games"),
        "raw_low_side_share" => ("raw_low_side", "raw_move_limit"),
        "pool_at_or_above_share" => ("pool_at_or_above", "pool_ratings"),
        "a_rate" => ("a_count", "a_games"),
        "b_rate" => ("b_count", "b_games"),
        "owned_over27_share" => ("owned_over27", "games"),
        "owned31_share" => ("owned31", "games"),
        "decl31_share" => ("decl31", "games"),
        "decl31_pass" => ("decl31", "owned31"),
        "decl31_zone10_share" => ("decl31_zone10", "games"),
        "decl31_zone10_pass" => ("decl31_zone10", "decl31"),
        "declarable_board_share" => ("declarable_board", "games"),
        "declarable_board_pass" => ("declarable_board", "decl31_zone10"),
        "declarable_share" => ("declarable", "games"),
        "declarable_pass" => ("declarable", "declarable_board"),
        "zone10_share" => ("zone10", "games"),
        "decisive_share" => ("decisive", "games"),
        "declaration_share" => ("declaration", "games"),
        "invalid_declaration_share" => ("invalid_declaration", "games"),
        "resignation_share" => ("resignation", "games"),
        "repetition_share" => ("repetition", "games"),
        "time_share" => ("time", "games"),
        "other_share" => ("other", "games"),
        "incidence_share" => ("ended", "games"),
        _ => return None,
    })
}

/// The settings, the tool's version and commit, the input's summary and the provenance
/// as key-value pairs, numbers as numbers (in every Parquet file's metadata too, under
/// these keys with a `floodgate_scan.` prefix, each value as its text or its JSON).
pub fn metadata(report: &Report) -> Vec<(String, serde_json::Value)> {
    let c = &report.config;
    let mut kv: Vec<(String, serde_json::Value)> = vec![
        ("tool".to_string(), "floodgate-scan".into()),
        ("version".to_string(), env!("CARGO_PKG_VERSION").into()),
        ("commit".to_string(), super::provenance::COMMIT.into()),
        ("percentile".to_string(), c.percentile.into()),
        ("pool".to_string(), c.pool.name().into()),
        ("min_games".to_string(), c.min_games.into()),
        ("game_name".to_string(), c.game_name.clone().into()),
    ];
    kv.extend(report.input.iter().cloned());
    kv.push(("provenance".to_string(), report.provenance.to_json()));
    kv
}

/// `report.json`: the metadata pairs, and the tables and plots written.
pub fn report_json(report: &Report, files: &[String]) -> String {
    let mut obj = serde_json::Map::new();
    for (k, v) in metadata(report) {
        obj.insert(k, v);
    }
    let tables: Vec<serde_json::Value> = report
        .tables
        .iter()
        .map(|t| {
            serde_json::json!({
                "number": t.spec.number,
                "name": t.spec.name,
                "title": t.spec.title,
                "rows": t.data.height(),
                "caption": t.spec.caption_for(&report.config),
            })
        })
        .collect();
    obj.insert("tables".into(), tables.into());
    obj.insert(
        "files".into(),
        files
            .iter()
            .map(|f| f.as_str().into())
            .collect::<Vec<serde_json::Value>>()
            .into(),
    );
    let mut text = serde_json::to_string_pretty(&serde_json::Value::Object(obj))
        .unwrap_or_else(|_| "{}".to_string());
    text.push('\n');
    text
}
