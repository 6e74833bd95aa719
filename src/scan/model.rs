//! The scan's public types: what to scan ([`ScanConfig`]), the counters a caller may
//! watch ([`Progress`]), the files written, the summary and the errors.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicU64;

use serde::Serialize;

use super::stages::StageTimes;
use super::stats::Stats;
use crate::interrupt::Interrupted;
use crate::outdir::OutDirError;
use crate::source::{Input, SourceError};

/// What to scan and where to write.
#[derive(Debug, Clone)]
pub struct ScanConfig {
    /// Inputs, in the order their rows are written (a folder's records first, then each
    /// archive below it as an input of its own, in sorted path order).
    pub inputs: Vec<Input>,
    /// Output folder (created if missing).
    pub outdir: PathBuf,
    /// Worker threads analysing records (0 = one per core).
    pub jobs: usize,
    /// Write each game id once: a game whose id was already written (in output order) is
    /// left out of the table and of the totals, and counted in `duplicates_dropped`.
    pub dedupe: bool,
}

/// Counters the caller may watch while a scan runs (for a progress bar).
#[derive(Debug, Default)]
pub struct Progress {
    /// Bytes taken from the inputs (compressed bytes for archives).
    pub bytes_read: AtomicU64,
    /// Entries finished (games and unreadable entries).
    pub entries: AtomicU64,
    /// Games finished.
    pub games: AtomicU64,
    /// CPU time of each stage, added as the scan's threads end (`scan --timings`).
    pub stages: Arc<StageTimes>,
}

/// Names of the files a scan writes in its output folder.
pub const GAMES_CSV: &str = "games.csv";
/// The Parquet table (written only when built with the `report` feature).
pub const GAMES_PARQUET: &str = "games.parquet";
/// One line per unreadable entry or failed input.
pub const ERRORS_CSV: &str = "errors.csv";
/// Totals of the scan.
pub const SUMMARY_JSON: &str = "summary.json";

/// Is this build able to write `games.parquet`?
pub const PARQUET_AVAILABLE: bool = cfg!(feature = "report");

/// Per-input counts.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct InputSummary {
    /// The input as named on the command line.
    pub source: String,
    /// Its container, when it could be recognised.
    pub format: Option<&'static str>,
    /// Entries read (games + unreadable).
    pub entries: u64,
    /// Entries read as games (each a row of the table).
    pub games: u64,
    /// Entries whose bytes could not be read or were no record (each a row of
    /// `errors.csv`).
    pub unreadable: u64,
    /// Non-record files inside the archive (or folder).
    pub skipped: u64,
    /// Games whose id was already seen, in this input or an earlier one (in output order).
    pub duplicates: u64,
    /// Why the input could not be read to its end.
    pub error: Option<String>,
}

/// The content of `summary.json`.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct Summary {
    /// The counts of each input, in the order the inputs were read.
    pub inputs: Vec<InputSummary>,
    /// Inputs that could not be read to their end.
    pub failed_inputs: u64,
    /// The totals over every input, written at the top level of `summary.json`.
    #[serde(flatten)]
    pub totals: Stats,
    /// See [`Stats::final_board_match_rate`].
    pub final_board_match_rate: Option<f64>,
    /// See [`Stats::judge_agreement_rate`].
    pub judge_agreement_rate: Option<f64>,
    /// The first non-record files met inside archives (`source: name`), at most 100.
    pub skipped_sample: Vec<String>,
    /// Games whose id was already seen (the same archive named twice, an archive beside
    /// its extracted folder): every sighting after the first.
    pub duplicate_games: u64,
    /// Of those, the ones left out of the table and of the totals (`--dedupe`); they are
    /// still counted in `entries_seen`.
    pub duplicates_dropped: u64,
    /// The first few duplicates: `id (in SOURCE, again in SOURCE)`.
    pub duplicate_sample: Vec<String>,
    /// Whether `games.parquet` was written.
    pub parquet: bool,
}

/// The result of a completed scan.
#[derive(Debug, Clone)]
pub struct ScanReport {
    /// What `summary.json` holds.
    pub summary: Summary,
    /// Inputs that broke, with the archive and entry named.
    pub input_errors: Vec<SourceError>,
}

impl ScanReport {
    /// Every entry read and every input read to its end.
    pub fn complete(&self) -> bool {
        self.summary.totals.unreadable_entries == 0 && self.summary.failed_inputs == 0
    }
}

/// A problem that stops the scan: the output cannot be written, a thread broke, or a
/// signal came. The output folder's earlier files are left as they were.
#[derive(Debug, thiserror::Error)]
pub enum ScanError {
    /// The folder cannot be created or locked, or another run is writing it.
    #[error(transparent)]
    OutputDir(#[from] OutDirError),
    // The cause is written into the message (and so not also a `source`, or error
    // chains would print it twice).
    /// An output file could not be written.
    #[error("cannot write {}: {cause}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Why it could not be written.
        cause: std::io::Error,
    },
    /// A thread of the pipeline broke (a bug): what happened.
    #[error("{0}")]
    Internal(String),
    /// SIGINT or SIGTERM came: the scan stopped, and which signal it was.
    #[error("{0}")]
    Interrupted(Interrupted),
}
