//! CSA record text to a structured record: syntax only, never legality.
//!
//! The floodgate server has written its records for eighteen years with a handful of
//! quirks (moves before the position block, trailing text after moves, `T-1`, repeated
//! `%KACHI`, `%%TORYO` and blank lines, summaries that name the current player first,
//! rating lines before or after the summary, a trailer side-to-move that was always `+`).
//! [`read_record`] accepts all of them: it reads bytes (never requiring UTF-8), keeps every
//! line number, and turns the text into a [`Record`]. Replaying the moves and judging the
//! ending is the job of `crate::game`.

#![warn(missing_docs)]

mod header;
mod line;
mod reader;
mod special;
mod summary;
mod text;
mod trailer;

pub use header::{GameId, RatingLine, parse_rate_line};
pub use line::{LineKind, classify_line, is_move_text};
pub use reader::{
    MoveLine, PositionBlock, ReadError, Record, RecordBuffers, RejectedAction, Warning,
    WarningKind, read_record, read_record_reusing,
};
pub use special::{Special, SpecialKind};
pub use summary::{PlayerResult, Summary, SummaryOrder, parse_summary};
pub(crate) use text::utf8_lossy;
pub use text::{Comment, decode_text};
pub use trailer::Trailer;
