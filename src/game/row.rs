//! The per-game table: one row per game read, its columns defined once.
//!
//! The `game_columns!` invocation below is the single definition of the table. It
//! generates the [`GameRow`] struct, the [`COLUMNS`] metadata (name, type, meaning) used
//! by the CSV and Parquet writers, the README table and the report reader, and
//! [`GameRow::cells`] for writers that go column by column.

/// The type of a column, as written to Parquet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColumnKind {
    /// UTF-8 text (never null; empty when unknown).
    Str,
    /// UTF-8 text or null.
    OptStr,
    /// 64-bit integer (never null).
    Int,
    /// 64-bit integer or null.
    OptInt,
    /// 64-bit float or null.
    OptFloat,
    /// Boolean (never null).
    Bool,
    /// Boolean or null.
    OptBool,
}

impl ColumnKind {
    /// A short name for documentation.
    pub fn name(self) -> &'static str {
        match self {
            ColumnKind::Str => "string",
            ColumnKind::OptStr => "string?",
            ColumnKind::Int => "int64",
            ColumnKind::OptInt => "int64?",
            ColumnKind::OptFloat => "float64?",
            ColumnKind::Bool => "bool",
            ColumnKind::OptBool => "bool?",
        }
    }
}

/// One column of the per-game table.
#[derive(Debug, Clone, Copy)]
pub struct Column {
    /// The column's name in the files, the same as the [`GameRow`] field.
    pub name: &'static str,
    /// The column's type.
    pub kind: ColumnKind,
    /// What the column holds, one sentence or a few (the field's doc comment).
    pub doc: &'static str,
}

/// A borrowed cell value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Cell<'a> {
    /// A text cell ([`ColumnKind::Str`] or [`ColumnKind::OptStr`]); `None` is null.
    Str(Option<&'a str>),
    /// An integer cell ([`ColumnKind::Int`] or [`ColumnKind::OptInt`]); `None` is null.
    Int(Option<i64>),
    /// A float cell ([`ColumnKind::OptFloat`]); `None` is null.
    Float(Option<f64>),
    /// A boolean cell ([`ColumnKind::Bool`] or [`ColumnKind::OptBool`]); `None` is null.
    Bool(Option<bool>),
}

/// Rust types allowed in a column.
pub trait ColumnValue {
    /// The column type a field of this Rust type has.
    const KIND: ColumnKind;
    /// The value as a borrowed cell.
    fn cell(&self) -> Cell<'_>;
}

/// Text of a column: a fixed word of the table's vocabulary (`ok`, `match`, `black`, ...)
/// costs no allocation; text from the record is owned.
pub type Text = std::borrow::Cow<'static, str>;

/// `s` as a column text: borrowed when it is one of `words`, owned otherwise.
pub fn word(s: &str, words: &[&'static str]) -> Text {
    match words.iter().find(|w| **w == s) {
        Some(w) => Text::Borrowed(w),
        None => Text::Owned(s.to_string()),
    }
}

/// Text columns: owned text (`String`) or a fixed word or owned text ([`Text`]).
macro_rules! text_column {
    ($($t:ty),*) => {$(
        impl ColumnValue for $t {
            const KIND: ColumnKind = ColumnKind::Str;
            fn cell(&self) -> Cell<'_> {
                Cell::Str(Some(self))
            }
        }
        impl ColumnValue for Option<$t> {
            const KIND: ColumnKind = ColumnKind::OptStr;
            fn cell(&self) -> Cell<'_> {
                Cell::Str(self.as_deref())
            }
        }
    )*};
}
text_column!(String, Text);

impl ColumnValue for i64 {
    const KIND: ColumnKind = ColumnKind::Int;
    fn cell(&self) -> Cell<'_> {
        Cell::Int(Some(*self))
    }
}
impl ColumnValue for Option<i64> {
    const KIND: ColumnKind = ColumnKind::OptInt;
    fn cell(&self) -> Cell<'_> {
        Cell::Int(*self)
    }
}
impl ColumnValue for Option<f64> {
    const KIND: ColumnKind = ColumnKind::OptFloat;
    fn cell(&self) -> Cell<'_> {
        Cell::Float(*self)
    }
}
impl ColumnValue for bool {
    const KIND: ColumnKind = ColumnKind::Bool;
    fn cell(&self) -> Cell<'_> {
        Cell::Bool(Some(*self))
    }
}
impl ColumnValue for Option<bool> {
    const KIND: ColumnKind = ColumnKind::OptBool;
    fn cell(&self) -> Cell<'_> {
        Cell::Bool(*self)
    }
}

macro_rules! game_columns {
    ($( #[doc = $doc:literal] $name:ident : $ty:ty ),* $(,)?) => {
        /// One game of the archive, as written to `games.csv` and `games.parquet`.
        #[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
        pub struct GameRow {
            $( #[doc = $doc] pub $name: $ty, )*
        }

        /// The number of columns.
        pub const COLUMN_COUNT: usize = COLUMNS.len();

        /// The columns of [`GameRow`], in order.
        pub const COLUMNS: &[Column] = &[
            $( Column { name: stringify!($name), kind: <$ty as ColumnValue>::KIND, doc: $doc }, )*
        ];

        impl GameRow {
            /// The cells of this row, in [`COLUMNS`] order.
            pub fn cells(&self) -> [Cell<'_>; COLUMN_COUNT] {
                [ $( ColumnValue::cell(&self.$name), )* ]
            }
        }
    };
}

game_columns! {
    /// Input the record came from (archive, folder or file, as given on the command line).
    source: String,
    /// Path of the record inside the source (the file name for a plain file).
    entry: String,
    /// Game id (`$EVENT`, else the entry's file name without `.csa`).
    game_id: String,
    /// Game name, the time control part of the id (e.g. `floodgate-300-10F`).
    game_name: Option<String>,
    /// Year of `$START_TIME` (else of the id's timestamp).
    year: Option<i64>,
    /// `$START_TIME` as written (`YYYY/MM/DD hh:mm:ss`, JST).
    start_time: Option<String>,
    /// `'$END_TIME` as written.
    end_time: Option<String>,
    /// Black's login name (`N+`).
    black: Option<String>,
    /// White's login name (`N-`).
    white: Option<String>,
    /// Black's pre-game rating (`'black_rate`).
    black_rate: Option<f64>,
    /// White's pre-game rating (`'white_rate`).
    white_rate: Option<f64>,
    /// `'Max_Moves` read from the record (0 = no limit; null when the record has no line).
    max_moves: Option<i64>,
    /// `'Least_Time_Per_Move` read from the record.
    least_time_per_move: Option<i64>,
    /// `'Increment` read from the record (Fischer games).
    increment: Option<i64>,
    /// Number of move lines replayed (plies).
    plies: i64,
    /// The end marker (`%TORYO`, `%KACHI`, ...) or null when the record has none.
    end_marker: Option<Text>,
    /// Reason of the server's `'summary` (`toryo`, `kachi`, `max_moves`, ...).
    summary_reason: Option<String>,
    /// Black's result from the summary (`win`/`lose`/`draw`), matched by name.
    black_result: Option<Text>,
    /// White's result from the summary.
    white_result: Option<Text>,
    /// Winner by the server's summary: `black`, `white`, `draw`, or `none` (no summary).
    winner: Text,
    /// `ok`, or why not: `illegal_move`, `truncated`, `no_moves`, `no_summary`, `bad_position`, ...
    status: Text,
    /// Human-readable detail for the status (line number and cause), empty when ok.
    detail: String,
    /// First ply (1-based) whose move is illegal by our replay.
    illegal_ply: Option<i64>,
    /// Kind of that illegal move (`two_pawns`, `drop_pawn_mate`, `ignored_check`, ...).
    illegal_kind: Option<Text>,
    /// Replayed final position vs the server's trailer: `match`, `mismatch`, `prelast`, `missing` (`unchecked`: no start position).
    final_board: Text,
    /// Black's owned points (all pieces on board and in hand; rook/bishop 5, others 1) in the replayed final position. Every final-position column (points, zone counts, kings in camp, check, `entering`, `final_sfen` and so the side to move) describes the position after the last move, also in a repetition, whose trailer shows the position before the repeating move (`final_board` `prelast`).
    owned_black: i64,
    /// White's owned points.
    owned_white: i64,
    /// Black's declaration points (pieces in the enemy camp + hand).
    decl_black: i64,
    /// White's declaration points.
    decl_white: i64,
    /// Black's non-king pieces in the enemy camp.
    zone_black: i64,
    /// White's non-king pieces in the enemy camp.
    zone_white: i64,
    /// Black's king on ranks 1-3 in the final position.
    king_in_camp_black: bool,
    /// White's king on ranks 7-9 in the final position.
    king_in_camp_white: bool,
    /// The side to move is in check in the replayed final position (after the last move; in a repetition, after the repeating move).
    in_check_final: bool,
    /// Entering kings in the final position: `mutual`, `black_only`, `white_only`, `none`.
    entering: Text,
    /// What a declaration under the 27-point rule would decide in the final position, either side declaring as if to move (the core's verdict): `black` or `white` (that side wins), `none` (no valid declaration); empty without a final position.
    rule27_final: Text,
    /// The same under the 24-point rule with its move clause (move number <= 500): `black`, `white`, `draw` (a side could declare only a draw, none a win) or `none`.
    rule24_final: Text,
    /// An impasse adjudicated in the final position under the 24-point rule (both kings in the enemy camp, the side to move not in check, 24 owned points to draw): `black` or `white` (only that side reaches 24), `draw` (both do) or `none` (no impasse).
    impasse24_final: Text,
    /// First ply after which both kings were in camp.
    first_mutual_ply: Option<i64>,
    /// SFEN of the position at `first_mutual_ply`.
    mutual_sfen: Option<String>,
    /// First ply after which Black, to move, could declare a win under the 27-point rule.
    first_decl27_ply_black: Option<i64>,
    /// Same for White under the 27-point rule.
    first_decl27_ply_white: Option<i64>,
    /// First ply after which Black, to move, could declare a win under the 24-point rule.
    first_decl24_ply_black: Option<i64>,
    /// Same for White under the 24-point rule.
    first_decl24_ply_white: Option<i64>,
    /// Our own verdict on the ending, in the server's vocabulary (`toryo`, `kachi`, ...).
    judge_reason: Option<Text>,
    /// Our verdict agrees with the server's summary (null when there is nothing to compare).
    judge_agrees: Option<bool>,
    /// Detail of the judgement: why it disagrees, or why a declaration failed (line numbers).
    judge_detail: String,
    /// SFEN of the replayed final position (after the last move; in a repetition, after the repeating move, not the trailer's position before it).
    final_sfen: Option<String>,
}

/// The column list as a Markdown table (name, type, meaning), as the README shows it.
pub fn columns_markdown() -> String {
    let mut out = String::from("| column | type | meaning |\n|---|---|---|\n");
    for c in COLUMNS {
        out.push_str(&format!(
            "| `{}` | {} | {} |\n",
            c.name,
            c.kind.name(),
            c.doc.trim()
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_match_struct_cells() {
        let row = GameRow::default();
        assert_eq!(row.cells().len(), COLUMNS.len());
        let mut names: Vec<_> = COLUMNS.iter().map(|c| c.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), COLUMNS.len(), "column names are unique");
    }
}
