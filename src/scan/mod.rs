//! The scan pipeline: from the inputs to the per-game table, in parallel, in a fixed order.
//!
//! ```text
//! readers (one part each) --batches of entries--> workers (analyse_record, row encoded)
//!        |                                                 | batches of rows / errors
//!        '------------------ end of part ------------> ordered writer
//!                                                          | row groups, in order
//!                                   formatting threads (CSV lines, Parquet columns)
//!                                                          | pieces, written in order
//!                                                          v
//!                                          games.csv, games.parquet (errors.csv: the writer)
//! ```
//!
//! Record files of a folder are only listed by the reader thread and read by the workers,
//! so that opening twenty thousand small files is shared out like the analysis. An
//! uncompressed `.tar` file is read by its reader a block (1 MiB) at a time, one read a
//! block, and its records go to the workers as ranges of the block, not copied.
//! Several inputs are read at the same time, one per reader thread. An input is read as
//! one part, except a 7z file of several compression blocks: a solid block can only be
//! decoded front to back, but separate blocks can, so such an archive is read in parts
//! (runs of blocks), side by side like separate archives. Entries go, 64
//! at a time, through a bounded channel to a pool of workers that read, replay and judge
//! each record and encode its row; an archive's records travel in one arena per batch,
//! which the worker gives back to a pool for the readers to fill again (no allocation per
//! record). The ordered writer puts the results back in a deterministic order, input order
//! first, then part order and each part's own entry order, so the output is byte for byte
//! the same for any number of jobs. Rows of a part that finishes ahead of its turn wait in
//! a spill file in the output folder, not in memory, closed once the part is read: memory
//! does not grow with the archive, nor with the number of archives. The ordered writer
//! does not format rows: it looks each game's id up (duplicates), and hands the rows, a
//! Parquet row group at a time, to a few formatting threads, which make the group's CSV
//! lines and its Parquet columns (encoded and compressed side by side) and write them in
//! group order (see the `writer` module). Its serial work is about half a microsecond a
//! game (the results taken in, put in order, counted), a tenth of what formatting costs.
#![warn(missing_docs)]
mod analysis;
mod dups;
mod encode;
mod order;
mod stages;
mod stats;
mod writer;

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{SyncSender, sync_channel};
use std::sync::{Arc, Mutex};

use serde::Serialize;

pub use stages::StageTimes;
pub use stats::Stats;

use crate::interrupt::{self, Interrupted};
use crate::outdir::{OutDir, OutDirError};
use crate::source::{
    Event, Format, Input, Part, SharedBytes, SourceError, expand, read_part, weighed_parts,
};
use analysis::analyse;

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

/// Stops every stage of the pipeline: the first failure of any thread, or a signal.
#[derive(Default)]
struct Stop {
    stopped: AtomicBool,
    first: Mutex<Option<ScanError>>,
}

impl Stop {
    /// Record a failure (the first one is the one reported) and stop the other stages.
    fn fail(&self, e: ScanError) {
        if let Ok(mut first) = self.first.lock()
            && first.is_none()
        {
            *first = Some(e);
        }
        self.stopped.store(true, Ordering::Relaxed);
    }

    fn stopped(&self) -> bool {
        self.stopped.load(Ordering::Relaxed) || interrupt::received().is_some()
    }

    /// Why the pipeline stopped, if it did.
    fn reason(&self) -> Option<ScanError> {
        let first = self.first.lock().ok().and_then(|mut f| f.take());
        first.or_else(|| interrupt::received().map(ScanError::Interrupted))
    }

    /// Run one stage's body; a panic in it stops the pipeline with a message instead of
    /// leaving the other stages waiting for it.
    fn guard<T>(&self, stage: &str, body: impl FnOnce() -> T) -> Option<T> {
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(body)) {
            Ok(v) => Some(v),
            Err(payload) => {
                let what = payload
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "unknown cause".into());
                self.fail(ScanError::Internal(format!(
                    "internal error: the {stage} thread panicked ({what})"
                )));
                None
            }
        }
    }
}

/// Consecutive entries of one part of an input, handed to a worker together (one channel
/// message and one wake-up for many records).
struct Work {
    part: usize,
    /// Sequence number of the first job.
    first: u64,
    jobs: Vec<Job>,
    /// The bytes of the batch's records, one after another ([`Job::Record`] ranges).
    arena: Vec<u8>,
}

enum Job {
    /// A record to analyse: its bytes are `arena[start..end]` of the batch.
    Record {
        name: String,
        start: usize,
        end: usize,
    },
    /// A record file to read, then analyse (folders: the workers share the reading).
    File { name: String, path: PathBuf },
    /// A record lying in an uncompressed tar file, too large for a block, to read, then
    /// analyse (the same).
    Span {
        name: String,
        file: Arc<std::fs::File>,
        offset: u64,
        len: u64,
    },
    /// A record inside a block of an uncompressed tar file, shared with the block's other
    /// records (already read and counted by the reader).
    Shared { name: String, bytes: SharedBytes },
    /// A result already known (unreadable or skipped entry), passed through in order.
    Known(Item),
}

/// Entries per batch, and bytes per batch.
const BATCH_JOBS: usize = 64;
const BATCH_BYTES: usize = 1 << 20;

/// Batch arenas given back by the workers for the readers to fill again: their memory
/// stays mapped and warm instead of being allocated for every batch. At most
/// [`POOL_KEEP`] are kept, none grown past [`ARENA_KEEP`] bytes (an outsized record).
#[derive(Default)]
struct ArenaPool(Mutex<Vec<Vec<u8>>>);

const POOL_KEEP: usize = 64;
const ARENA_KEEP: usize = 4 * BATCH_BYTES;

impl ArenaPool {
    fn take(&self) -> Vec<u8> {
        self.0
            .lock()
            .ok()
            .and_then(|mut p| p.pop())
            // A new arena is made at a batch's size: growing it would copy it over and over.
            .unwrap_or_else(|| Vec::with_capacity(BATCH_BYTES + BATCH_BYTES / 4))
    }

    fn give_back(&self, mut arena: Vec<u8>) {
        if arena.capacity() > ARENA_KEEP {
            return;
        }
        arena.clear();
        if let Ok(mut p) = self.0.lock()
            && p.len() < POOL_KEEP
        {
            p.push(arena);
        }
    }
}

/// A result for the writer.
enum Item {
    /// A game: its table row, encoded ([`encode`]), and the key of its id
    /// ([`dups::key`]; `None` without an id).
    Game {
        key: Option<u128>,
        row: Vec<u8>,
    },
    Unreadable {
        entry: String,
        line: Option<usize>,
        reason: String,
    },
    Skipped(String),
}

enum Msg {
    /// Results of one [`Work`] batch, in order from sequence number `first`.
    Items {
        part: usize,
        first: u64,
        items: Vec<Item>,
    },
    /// A part is read to its end: `total` items were sent for it.
    Done {
        part: usize,
        total: u64,
        format: Option<Format>,
        failure: Option<SourceError>,
    },
}

/// Run a scan: read every input, analyse every record, write the outputs in
/// `config.outdir`, and return the summary (also written to `summary.json`).
///
/// The outputs are written under temporary names and put into place together at the end
/// (see [`crate::outdir`]): on any error, or on SIGINT or SIGTERM once
/// [`interrupt::install`] was called, the scan stops every thread, removes its
/// temporaries and returns the error, the folder's earlier files untouched.
pub fn scan(config: &ScanConfig, progress: &Progress) -> Result<ScanReport, ScanError> {
    let dir = OutDir::open(&config.outdir)?;

    let jobs = if config.jobs == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        config.jobs
    };
    // A folder's archives are inputs of their own, after the folder's records.
    let inputs = expand(&config.inputs);
    let names: Vec<String> = inputs.iter().map(Input::name).collect();
    let dups = dups::Duplicates::new(config.dedupe, names.len());
    let stage_times = Arc::clone(&progress.stages);
    let mut out = order::Outputs::create(&dir, dups, writer::formatters(jobs), stage_times)?;
    // Each input in its parts (one, but for a 7z file of several blocks), in order.
    let planned: Vec<Vec<(Part, u64)>> = {
        use rayon::prelude::*;
        inputs.par_iter().map(weighed_parts).collect()
    };
    let mut weights = Vec::new();
    let parts: Vec<(usize, Part)> = planned
        .into_iter()
        .enumerate()
        .flat_map(|(input, ps)| ps.into_iter().map(move |p| (input, p)))
        .map(|(input, (part, weight))| {
            weights.push(weight);
            (input, part)
        })
        .collect();
    let schedule = schedule(&weights);
    let part_input: Vec<usize> = parts.iter().map(|(input, _)| *input).collect();
    let part_names: Vec<String> = part_input.iter().map(|&i| names[i].clone()).collect();
    let readers = parts.len().clamp(1, jobs.max(1));

    let (work_tx, work_rx) = sync_channel::<Work>(jobs * 4);
    let (msg_tx, msg_rx) = sync_channel::<Msg>(jobs * 8 + 16);
    let work_rx = Arc::new(Mutex::new(work_rx));
    let next_part = AtomicUsize::new(0);
    let pool = ArenaPool::default();
    let stop = Stop::default();

    // Every stage ends when the stage it feeds is gone (a send fails) or when `stop` is
    // set: no thread can wait for one that has died.
    let (result, worker_stats) = std::thread::scope(|s| {
        for _ in 0..readers {
            let (work_tx, msg_tx) = (work_tx.clone(), msg_tx.clone());
            let (next_part, pool, stop) = (&next_part, &pool, &stop);
            let (inputs, parts, schedule) = (&inputs, &parts, &schedule);
            s.spawn(move || {
                let cpu = stages::ThreadCpu::now();
                stop.guard("reader", || {
                    read_parts(
                        inputs, parts, schedule, next_part, &work_tx, &msg_tx, pool, progress, stop,
                    )
                });
                let (kernel, user) = stages::ThreadCpu::now().split_since(&cpu);
                stages::add(&progress.stages.read, kernel);
                stages::add(&progress.stages.decode, user);
            });
        }
        drop(work_tx);
        let workers: Vec<_> = (0..jobs)
            .map(|_| {
                let (work_rx, msg_tx) = (Arc::clone(&work_rx), msg_tx.clone());
                let (names, pool, stop) = (&part_names, &pool, &stop);
                s.spawn(move || {
                    let cpu = stages::ThreadCpu::now();
                    let stats = stop.guard("worker", || {
                        analyse(&work_rx, &msg_tx, names, pool, progress, stop)
                    });
                    let ns = stages::ThreadCpu::now().since(&cpu);
                    stages::add(&progress.stages.analyse, ns);
                    stats
                })
            })
            .collect();
        // The workers hold the receiving end: once they are gone, the readers' sends fail.
        drop(work_rx);
        drop(msg_tx);
        // The writer owns the receiving end: if it stops early, dropping it stops the rest.
        let cpu = stages::ThreadCpu::now();
        let result = stop
            .guard("writer", || {
                order::write_in_order(msg_rx, &names, &part_input, &mut out, progress, &stop)
            })
            .unwrap_or_else(|| Err(ScanError::Internal("the writer stopped".into())));
        stages::add(&progress.stages.order, stages::ThreadCpu::now().since(&cpu));
        let written = match result {
            Ok(v) => v,
            Err(e) => {
                stop.fail(e);
                None
            }
        };
        let mut stats = Stats::default();
        for w in workers {
            if let Ok(Some(s)) = w.join() {
                stats.merge(&s);
            }
        }
        let outcome = match stop.reason() {
            Some(e) => Err(e),
            None => written.ok_or_else(|| ScanError::Internal("the writer stopped".into())),
        };
        (outcome, stats)
    });
    let (mut inputs, mut totals, input_errors) = result?;
    totals.merge(&worker_stats);
    totals.remove_games(&out.dups.dropped);
    for (summary, &d) in inputs.iter_mut().zip(&out.dups.per_input) {
        summary.duplicates = d;
        if config.dedupe {
            summary.games -= d;
        }
    }
    let duplicate_games = out.dups.total();
    let failed_inputs = inputs.iter().filter(|i| i.error.is_some()).count() as u64;
    let summary = Summary {
        inputs,
        failed_inputs,
        final_board_match_rate: totals.final_board_match_rate(),
        judge_agreement_rate: totals.judge_agreement_rate(),
        totals,
        skipped_sample: std::mem::take(&mut out.skipped_sample),
        duplicate_games,
        duplicates_dropped: if config.dedupe { duplicate_games } else { 0 },
        duplicate_sample: std::mem::take(&mut out.dups.sample),
        parquet: PARQUET_AVAILABLE,
    };
    out.finish()?;
    write_summary(&dir, &summary)?;
    // The last moment to stop: from here on the renames run to their end.
    interrupt::check().map_err(ScanError::Interrupted)?;
    let obsolete: &[&str] = if PARQUET_AVAILABLE {
        &[]
    } else {
        &[GAMES_PARQUET]
    };
    dir.commit(obsolete)?;
    Ok(ScanReport {
        summary,
        input_errors,
    })
}

/// The output stage alone, fed rows already analysed: what its benchmark times
/// (`benches/scan_output.rs`). Not a stable interface.
#[doc(hidden)]
pub mod output_stage {
    use super::*;
    use crate::game::GameRow;

    /// A game's row as a worker hands it to the ordered writer.
    #[derive(Clone)]
    pub struct Row {
        key: Option<u128>,
        row: Vec<u8>,
    }

    impl Row {
        /// The row of `game`, encoded as a worker encodes it.
        pub fn new(game: &GameRow) -> Row {
            let mut row = Vec::with_capacity(1024);
            encode::encode_row(game, &mut row);
            row.shrink_to_fit();
            Row {
                key: dups::id_key(&game.game_id),
                row,
            }
        }
    }

    /// Hand `rows` to the output stage in order, as the ordered writer does, with
    /// `formatters` formatting threads, and write the tables into `outdir`
    /// (`games.csv`, `games.parquet` and an empty `errors.csv`).
    pub fn write(
        outdir: &std::path::Path,
        rows: Vec<Row>,
        formatters: usize,
        dedupe: bool,
    ) -> Result<(), ScanError> {
        let dir = OutDir::open(outdir)?;
        let names = vec![String::from("bench")];
        let dups = dups::Duplicates::new(dedupe, 1);
        let mut out = order::Outputs::create(&dir, dups, formatters, Arc::default())?;
        for Row { key, row } in rows {
            out.emit(0, &names, Item::Game { key, row })?;
        }
        out.finish()?;
        dir.commit(&[])?;
        Ok(())
    }

    /// The table of game ids the ordered writer keeps to find duplicates, alone: what
    /// `benches/scan_ids.rs` measures.
    pub struct IdTable(dups::Duplicates);

    impl IdTable {
        /// An empty table, as a scan of one input starts with.
        #[allow(clippy::new_without_default)]
        pub fn new() -> IdTable {
            IdTable(dups::Duplicates::new(false, 1))
        }

        /// Look `id` up as the ordered writer does; `true` when it was not seen before
        /// (it is remembered from now on).
        pub fn first_sighting(&mut self, id: &str) -> bool {
            dups::id_key(id).is_none_or(|k| self.0.first_seen(0, k).is_none())
        }
    }
}

fn write_summary(dir: &OutDir, summary: &Summary) -> Result<(), ScanError> {
    use std::io::Write as _;
    let mut text =
        serde_json::to_string_pretty(summary).map_err(|e| ScanError::Internal(e.to_string()))?;
    text.push('\n');
    dir.create(SUMMARY_JSON)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .map_err(|cause| ScanError::Write {
            path: dir.final_path(SUMMARY_JSON),
            cause,
        })
}

/// The order the parts are read in: the largest first (ties in output order), so that the
/// readers, each taking the next part when done with one, finish at about the same time
/// instead of one decoding the largest archive alone at the end. The output order does not
/// change: parts read ahead of their turn wait in spill files.
fn schedule(weights: &[u64]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..weights.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(weights[i]));
    order
}

/// A reader thread: take the next unread part of an input (in `schedule` order), read it
/// to its end, repeat.
#[allow(clippy::too_many_arguments)] // the pipeline's shared state, one argument each
fn read_parts(
    inputs: &[Input],
    parts: &[(usize, Part)],
    schedule: &[usize],
    next_part: &AtomicUsize,
    work_tx: &SyncSender<Work>,
    msg_tx: &SyncSender<Msg>,
    pool: &ArenaPool,
    progress: &Progress,
    stop: &Stop,
) {
    loop {
        if stop.stopped() {
            return;
        }
        let Some(&part) = schedule.get(next_part.fetch_add(1, Ordering::Relaxed)) else {
            return;
        };
        let (input, piece) = &parts[part];
        let source = &inputs[*input];
        let mut batch = Batch {
            part,
            next: 0,
            jobs: Vec::new(),
            arena: pool.take(),
            pool,
        };
        let mut sink = |event: Event<'_>| {
            if stop.stopped() {
                return false;
            }
            let job = match event {
                Event::Entry { name, bytes } => {
                    let start = batch.arena.len();
                    batch.arena.extend_from_slice(bytes);
                    Job::Record {
                        name,
                        start,
                        end: batch.arena.len(),
                    }
                }
                Event::File { name, path } => Job::File { name, path },
                Event::Span {
                    name,
                    file,
                    offset,
                    len,
                } => Job::Span {
                    name,
                    file,
                    offset,
                    len,
                },
                Event::Shared { name, bytes } => Job::Shared { name, bytes },
                Event::Unreadable { name, reason } => Job::Known(Item::Unreadable {
                    entry: name,
                    line: None,
                    reason,
                }),
                Event::Skipped { name } => Job::Known(Item::Skipped(name)),
            };
            batch.push(job, work_tx)
        };
        let result = read_part(source, piece, &progress.bytes_read, &mut sink);
        if stop.stopped() {
            // Cut short: what was read is not a result.
            return;
        }
        let (format, failure) = match result {
            Ok(format) => (Some(format), None),
            Err(e) => (None, Some(e)),
        };
        if let Some(SourceError {
            entry: Some(entry),
            reported: false,
            message,
            ..
        }) = &failure
        {
            // The entry being read when the input broke is counted as unreadable.
            let item = Item::Unreadable {
                entry: entry.clone(),
                line: None,
                reason: message.clone(),
            };
            batch.push(Job::Known(item), work_tx);
        }
        batch.flush(work_tx);
        pool.give_back(std::mem::take(&mut batch.arena));
        let seq = batch.next;
        if msg_tx
            .send(Msg::Done {
                part,
                total: seq,
                format,
                failure,
            })
            .is_err()
        {
            return;
        }
    }
}

/// The batch a reader is filling.
struct Batch<'p> {
    part: usize,
    /// Sequence number of the next job.
    next: u64,
    jobs: Vec<Job>,
    arena: Vec<u8>,
    pool: &'p ArenaPool,
}

impl Batch<'_> {
    /// Add a job (its bytes already in the arena); send the batch when it is full.
    /// `false` when the workers are gone.
    fn push(&mut self, job: Job, work_tx: &SyncSender<Work>) -> bool {
        self.jobs.push(job);
        self.next += 1;
        if self.jobs.len() >= BATCH_JOBS || self.arena.len() >= BATCH_BYTES {
            self.flush(work_tx)
        } else {
            true
        }
    }

    fn flush(&mut self, work_tx: &SyncSender<Work>) -> bool {
        if self.jobs.is_empty() {
            return true;
        }
        let jobs = std::mem::take(&mut self.jobs);
        let first = self.next - jobs.len() as u64;
        let arena = std::mem::replace(&mut self.arena, self.pool.take());
        work_tx
            .send(Work {
                part: self.part,
                first,
                jobs,
                arena,
            })
            .is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_arena_pool_keeps_cleared_arenas_up_to_its_limits() {
        let pool = ArenaPool::default();
        let fresh = pool.take();
        assert!(
            fresh.is_empty() && fresh.capacity() > BATCH_BYTES,
            "a new arena"
        );
        let mut a = Vec::with_capacity(1000);
        a.extend_from_slice(b"record bytes");
        let at = a.as_ptr();
        pool.give_back(a);
        let b = pool.take();
        assert!(b.is_empty() && b.capacity() >= 1000);
        assert_eq!(b.as_ptr(), at, "the same memory comes back");
        // Outsized arenas are freed, and the pool holds at most POOL_KEEP.
        pool.give_back(Vec::with_capacity(ARENA_KEEP + 1));
        assert!(
            pool.take().capacity() <= ARENA_KEEP,
            "the outsized arena was freed"
        );
        for _ in 0..POOL_KEEP + 5 {
            pool.give_back(Vec::with_capacity(16));
        }
        assert_eq!(pool.0.lock().unwrap().len(), POOL_KEEP);
    }
}
