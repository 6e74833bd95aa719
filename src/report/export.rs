//! Forms of the report's tables for a paper and for other tools: each table as a booktabs
//! LaTeX file (`report --latex`), and the report's settings, the tool's version and the
//! input's summary as `report.json` and as key-value metadata of every Parquet file (the
//! data files themselves are shaped in [`super::tidy`]).

use super::model::Report;

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
