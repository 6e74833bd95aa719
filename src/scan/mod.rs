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
mod model;
mod order;
mod stages;
mod stats;
mod work;
mod writer;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{SyncSender, sync_channel};
use std::sync::{Arc, Mutex};

pub use model::{
    ERRORS_CSV, GAMES_CSV, GAMES_PARQUET, InputSummary, PARQUET_AVAILABLE, Progress, SUMMARY_JSON,
    ScanConfig, ScanError, ScanReport, Summary,
};
pub use stages::StageTimes;
pub use stats::Stats;

use crate::interrupt;
use crate::outdir::OutDir;
use crate::source::{Event, Input, Part, SourceError, expand, read_part, weighed_parts};
use analysis::analyse;
use work::{ArenaPool, BATCH_BYTES, BATCH_JOBS, Item, Job, Msg, Stop, Work};

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
    let plan = Plan::new(&inputs, &names);
    let (result, worker_stats) = run_pipeline(&inputs, &names, &plan, &mut out, jobs, progress);
    let (inputs, mut totals, input_errors) = result?;
    totals.merge(&worker_stats);
    let summary = summarise(config, &mut out, inputs, totals);
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

/// Each input in its parts (one, but for a 7z file of several blocks), in order, and the
/// order the readers take them in.
struct Plan {
    parts: Vec<(usize, Part)>,
    schedule: Vec<usize>,
    /// The input of each part, and its name.
    part_input: Vec<usize>,
    part_names: Vec<String>,
}

impl Plan {
    fn new(inputs: &[Input], names: &[String]) -> Plan {
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
        let part_input: Vec<usize> = parts.iter().map(|(input, _)| *input).collect();
        Plan {
            schedule: schedule(&weights),
            part_names: part_input.iter().map(|&i| names[i].clone()).collect(),
            part_input,
            parts,
        }
    }
}

/// The readers, the workers and the ordered writer, run to their end: what the writer
/// wrote (or why the pipeline stopped) and the workers' counts.
fn run_pipeline(
    inputs: &[Input],
    names: &[String],
    plan: &Plan,
    out: &mut order::Outputs<'_>,
    jobs: usize,
    progress: &Progress,
) -> (Result<order::Written, ScanError>, Stats) {
    let readers = plan.parts.len().clamp(1, jobs.max(1));
    let (work_tx, work_rx) = sync_channel::<Work>(jobs * 4);
    let (msg_tx, msg_rx) = sync_channel::<Msg>(jobs * 8 + 16);
    let work_rx = Arc::new(Mutex::new(work_rx));
    let next_part = AtomicUsize::new(0);
    let pool = ArenaPool::default();
    let stop = Stop::default();

    // Every stage ends when the stage it feeds is gone (a send fails) or when `stop` is
    // set: no thread can wait for one that has died.
    std::thread::scope(|s| {
        for _ in 0..readers {
            let (work_tx, msg_tx) = (work_tx.clone(), msg_tx.clone());
            let (next_part, pool, stop) = (&next_part, &pool, &stop);
            let (parts, schedule) = (&plan.parts, &plan.schedule);
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
                let (names, pool, stop) = (&plan.part_names, &pool, &stop);
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
        let written = run_writer(msg_rx, names, &plan.part_input, out, progress, &stop);
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
    })
}

/// The ordered writer, on the calling thread. It owns the receiving end: if it stops
/// early, dropping it stops the rest. `None` when it stopped (the reason is in `stop`).
fn run_writer(
    msg_rx: std::sync::mpsc::Receiver<Msg>,
    names: &[String],
    part_input: &[usize],
    out: &mut order::Outputs<'_>,
    progress: &Progress,
    stop: &Stop,
) -> Option<order::Written> {
    let cpu = stages::ThreadCpu::now();
    let result = stop
        .guard("writer", || {
            order::write_in_order(msg_rx, names, part_input, out, progress, stop)
        })
        .unwrap_or_else(|| Err(ScanError::Internal("the writer stopped".into())));
    stages::add(&progress.stages.order, stages::ThreadCpu::now().since(&cpu));
    match result {
        Ok(v) => v,
        Err(e) => {
            stop.fail(e);
            None
        }
    }
}

/// The content of `summary.json`: the inputs' counts with their duplicates, the totals
/// (less the games left out as duplicates) and the samples.
fn summarise(
    config: &ScanConfig,
    out: &mut order::Outputs<'_>,
    mut inputs: Vec<InputSummary>,
    mut totals: Stats,
) -> Summary {
    totals.remove_games(&out.dups.dropped);
    for (summary, &d) in inputs.iter_mut().zip(&out.dups.per_input) {
        summary.duplicates = d;
        if config.dedupe {
            summary.games -= d;
        }
    }
    let duplicate_games = out.dups.total();
    let failed_inputs = inputs.iter().filter(|i| i.error.is_some()).count() as u64;
    Summary {
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
    }
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

    impl AsRef<[u8]> for Row {
        /// The encoded row.
        fn as_ref(&self) -> &[u8] {
            &self.row
        }
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

    /// The CSV lines of `rows`, by the hand-written writer the scan uses or (`by_crate`) by
    /// the `csv` crate's writer: the same bytes; what `benches/scan_output.rs` compares.
    pub fn csv_lines(rows: &[Row], by_crate: bool) -> std::io::Result<Vec<u8>> {
        writer::csv_lines(rows, by_crate)
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
            let job = job_of(event, &mut batch.arena);
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

/// The job of one event of a reader: a record's bytes are appended to the batch's `arena`.
fn job_of(event: Event<'_>, arena: &mut Vec<u8>) -> Job {
    match event {
        Event::Entry { name, bytes } => {
            let start = arena.len();
            arena.extend_from_slice(bytes);
            Job::Record {
                name,
                start,
                end: arena.len(),
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
