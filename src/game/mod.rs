//! One record in, one checked verdict out: replay through the position core, judge the
//! ending against the server's `'summary`, and fill the per-game row.
//!
//! [`analyse_record`] is the whole step: read the bytes ([`crate::csa`]), replay the
//! moves ([`playthrough`]), compare the trailer ([`final_board`]), judge the ending
//! ([`judge`]) and describe the final position.

#![warn(missing_docs)]

pub mod final_board;
pub mod judge;
pub mod playthrough;
pub mod row;
pub mod server_repetition;
pub mod verdicts;
pub mod words;

pub use final_board::FinalBoard;
pub use judge::{Judgement, Outcome};
pub use row::{COLUMN_COUNT, COLUMNS, Cell, Column, ColumnKind, GameRow, Text};
pub use words::{Entering, ServerReason, Status};

use crate::csa::{GameId, Record, RecordBuffers, read_record_reusing};
use crate::shogi::{Color, Position, TOTAL_OWNED_POINTS};

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

/// The entry's file name without directories and `.csa`.
fn entry_stem(entry: &str) -> &str {
    let base = entry.rsplit(['/', '\\']).next().unwrap_or(entry);
    base.strip_suffix(".csa").unwrap_or(base)
}

/// The results a summary gives a player.
const RESULT_WORDS: &[&str] = &["win", "lose", "draw", ""];

/// Fill the columns that come from the record's text alone. The record's texts are moved
/// into the row, so this comes after everything else that reads the record.
fn header_columns(row: &mut GameRow, rec: &mut Record<'_>, entry: &str) {
    // The parts of the id come from the file name when `$EVENT` has none; the file name
    // stands in for `$EVENT` itself only when the record has none.
    let id = rec
        .game_id
        .take()
        .or_else(|| GameId::parse(entry_stem(entry)));
    row.game_id = rec
        .event
        .take()
        .unwrap_or_else(|| entry_stem(entry).to_string());
    row.end_time = rec.end_time.take();
    row.year = rec
        .start_time
        .as_deref()
        .and_then(|t| t.get(0..4))
        .and_then(|y| y.parse().ok())
        .or_else(|| id.as_ref().and_then(GameId::year));
    row.game_name = id.map(|g| g.game_name);
    row.start_time = rec.start_time.take();
    row.black = rec.black.take();
    row.white = rec.white.take();
    row.black_rate = rec.black_rate.as_ref().and_then(|r| r.rate);
    row.white_rate = rec.white_rate.as_ref().and_then(|r| r.rate);
    row.max_moves = rec.max_moves;
    row.least_time_per_move = rec.least_time_per_move;
    row.increment = rec.increment;
    row.plies = rec.moves.len() as i64;
    row.end_marker = rec.end_marker().map(|s| s.marker());
    row.winner = judge::summary_outcome(rec)
        .map_or("none", Outcome::name)
        .into();
    if let Some(s) = rec.summary.as_mut() {
        row.summary_reason = Some(std::mem::take(&mut s.reason));
        row.black_result = Some(row::word(s.black_result(), RESULT_WORDS));
        row.white_result = Some(row::word(s.white_result(), RESULT_WORDS));
    }
}

/// Fill the columns that describe the final position.
fn position_columns(row: &mut GameRow, pos: &Position) {
    let (b, w) = (Color::Black, Color::White);
    row.owned_black = i64::from(pos.owned_points(b));
    row.owned_white = i64::from(pos.owned_points(w));
    row.decl_black = i64::from(pos.declaration_points(b));
    row.decl_white = i64::from(pos.declaration_points(w));
    row.zone_black = i64::from(pos.zone_count(b));
    row.zone_white = i64::from(pos.zone_count(w));
    row.king_in_camp_black = pos.king_in_camp(b);
    row.king_in_camp_white = pos.king_in_camp(w);
    row.in_check_final = pos.is_in_check();
    row.entering = Entering::of(row.king_in_camp_black, row.king_in_camp_white)
        .name()
        .into();
    let v = verdicts::final_verdicts(pos);
    row.rule27_final = v.rule27.name().into();
    row.rule24_final = v.rule24.name().into();
    row.impasse24_final = v.impasse24.name().into();
    row.final_sfen = Some(pos.to_sfen());
}

/// The memory one worker reuses from record to record: the reader's lists and the
/// replay's repetition filter. Owned by whoever analyses many records in a row (a scan
/// keeps one per worker thread); [`analyse_record`] makes a new one for each call.
#[derive(Debug, Default)]
pub struct Scratch {
    records: RecordBuffers,
    seen: playthrough::SeenFilter,
}

/// Read one record's bytes and produce its checked row.
///
/// `source` and `entry` name where the bytes came from; they are copied into the row.
pub fn analyse_record(source: &str, entry: &str, bytes: &[u8]) -> Result<GameRow, UnreadableEntry> {
    analyse_record_with(&mut Scratch::default(), source, entry, bytes)
}

/// [`analyse_record`] in the memory of `scratch`, left ready for the next record.
pub fn analyse_record_with(
    scratch: &mut Scratch,
    source: &str,
    entry: &str,
    bytes: &[u8],
) -> Result<GameRow, UnreadableEntry> {
    let mut rec =
        read_record_reusing(bytes, &mut scratch.records).map_err(|e| UnreadableEntry {
            line: e.line,
            reason: e.reason,
        })?;
    let mut row = analyse_read(source, entry, &rec, &mut scratch.seen);
    header_columns(&mut row, &mut rec, entry);
    scratch.records.give_back(rec);
    Ok(row)
}

/// The row of a record already read.
fn analyse_read(
    source: &str,
    entry: &str,
    rec: &Record<'_>,
    seen: &mut playthrough::SeenFilter,
) -> GameRow {
    let mut row = GameRow {
        source: source.to_string(),
        entry: entry.to_string(),
        ..GameRow::default()
    };
    let mut details: Vec<String> = Vec::new();

    let start = match playthrough::start_position(rec) {
        Ok(p) => p,
        Err(why) => {
            row.status = Status::BadPosition.name().into();
            row.detail = why.to_string();
            row.final_board = FinalBoard::Unchecked.name().into();
            row.entering = Entering::Neither.name().into();
            return row;
        }
    };
    let claims_repetition = rec
        .summary
        .as_ref()
        .is_some_and(|s| s.reason.contains(ServerReason::Sennichite.name()));
    let r = playthrough::play_through_with(start, &rec.moves, claims_repetition, seen);
    position_columns(&mut row, &r.last);
    if let Some(ill) = &r.illegal {
        row.illegal_ply = Some(ill.ply as i64);
        row.illegal_kind = Some(ill.kind.clone().into());
        details.push(format!(
            "line {}: ply {} {} is illegal ({})",
            ill.line, ill.ply, ill.text, ill.kind
        ));
    }
    if let Some((ply, sfen)) = &r.first_mutual {
        row.first_mutual_ply = Some(*ply as i64);
        row.mutual_sfen = Some(sfen.clone());
    }
    let ply = |p: Option<usize>| p.map(|p| p as i64);
    row.first_decl27_ply_black = ply(r.first_decl27[Color::Black.index()]);
    row.first_decl27_ply_white = ply(r.first_decl27[Color::White.index()]);
    row.first_decl24_ply_black = ply(r.first_decl24[Color::Black.index()]);
    row.first_decl24_ply_white = ply(r.first_decl24[Color::White.index()]);

    let (board, why) = final_board::compare(rec, &r.last, || r.before_last());
    row.final_board = board.name().into();
    if !why.is_empty() {
        details.push(why);
    }

    let j = judge::judge(rec, &r);
    row.judge_reason = j.reason.map(|r| r.name().into());
    row.judge_agrees = j.agrees;
    row.judge_detail = j.detail;

    let sum = row.owned_black + row.owned_white;
    if sum != i64::from(TOTAL_OWNED_POINTS) {
        details.push(format!(
            "owned points sum to {sum}, not {TOTAL_OWNED_POINTS}"
        ));
    }
    row.status = status(rec, r.illegal.is_some(), &mut details).name().into();
    row.detail = details.join("; ");
    row
}

/// The record's status (a truncated record's line added to `details`).
fn status(rec: &Record<'_>, illegal: bool, details: &mut Vec<String>) -> Status {
    if illegal {
        Status::IllegalMove
    } else if rec.truncated {
        details.push(if rec.ends_mid_line {
            format!("line {}: the record ends mid-line", rec.line_count)
        } else {
            format!(
                "line {}: the record ends without '$END_TIME",
                rec.line_count
            )
        });
        Status::Truncated
    } else if rec.moves.is_empty() {
        Status::NoMoves
    } else if rec.summary.is_none() {
        Status::NoSummary
    } else {
        Status::Ok
    }
}
