//! The ordered writer: puts results back in input order, then part and entry order,
//! whatever order the workers finish in. Results of the part whose turn it is are written
//! at once; those of later parts (read at the same time by other reader threads) wait in a
//! spill file in the output folder until their turn, so memory stays bounded by the
//! channel sizes.
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::Duration;

use super::dups::Duplicates;
use super::model::{ERRORS_CSV, GAMES_CSV, InputSummary, Progress, ScanError};
use super::stats::Stats;
use super::work::{Item, Msg, Stop};
use super::writer::{ErrorsCsv, GameTable};
use crate::outdir::{OutDir, OutFile};
use crate::source::SourceError;

/// How often the writer, waiting for results, looks whether the scan was stopped.
const STOP_POLL: Duration = Duration::from_millis(50);

const SKIPPED_SAMPLE: usize = 100;

/// What the writer gives back: the per-input summaries, the counts of unreadable entries
/// and skipped files, and the errors of the parts that could not be read to their end.
pub type Written = (Vec<InputSummary>, Stats, Vec<SourceError>);

/// The open output files (under their temporary names in `out`).
pub struct Outputs<'a> {
    out: &'a OutDir,
    dir: PathBuf,
    /// `games.csv` and `games.parquet`.
    games: GameTable,
    errors: ErrorsCsv,
    pub skipped_sample: Vec<String>,
    /// Game ids already written, and the duplicates met.
    pub dups: Duplicates,
}

/// The error of a failed write to `path`, the path copied only on an error (the writers
/// are called once a row).
fn write_err(path: &Path) -> impl FnOnce(io::Error) -> ScanError + '_ {
    move |cause| ScanError::Write {
        path: path.to_path_buf(),
        cause,
    }
}

/// [`write_err`] for the file `name` of `dir`, joined only on an error.
fn file_err<'a>(dir: &'a Path, name: &'a str) -> impl FnOnce(io::Error) -> ScanError + 'a {
    move |cause| ScanError::Write {
        path: dir.join(name),
        cause,
    }
}

impl<'a> Outputs<'a> {
    /// The output files of `out`, the games' rows formatted by `formatters` threads.
    pub fn create(
        out: &'a OutDir,
        dups: Duplicates,
        formatters: usize,
        stages: std::sync::Arc<super::stages::StageTimes>,
    ) -> Result<Outputs<'a>, ScanError> {
        let dir = out.path();
        let open = |name: &'a str| out.create(name).map_err(file_err(dir, name));
        let csv = open(GAMES_CSV)?;
        #[cfg(feature = "report")]
        let parquet = Some(open(super::model::GAMES_PARQUET)?);
        #[cfg(not(feature = "report"))]
        let parquet = None;
        let games = GameTable::new(Some(csv), parquet, formatters, stages)
            .map_err(file_err(dir, GAMES_CSV))?;
        let errors = ErrorsCsv::new(open(ERRORS_CSV)?).map_err(file_err(dir, ERRORS_CSV))?;
        Ok(Outputs {
            out,
            dir: dir.to_path_buf(),
            games,
            errors,
            skipped_sample: Vec::new(),
            dups,
        })
    }

    /// Write `item`, of input `input` (`names[input]`), in its place. A game's row, already
    /// encoded, is only handed on: the formatting threads make its CSV line and Parquet
    /// cells.
    pub(super) fn emit(
        &mut self,
        input: usize,
        names: &[String],
        item: Item,
    ) -> Result<(), ScanError> {
        let source = &names[input];
        match item {
            Item::Game { key, row } => {
                if !self.dups.keep_encoded(input, names, key, &row) {
                    return Ok(());
                }
                self.games
                    .push(row)
                    .map_err(file_err(&self.dir, GAMES_CSV))?;
            }
            Item::Unreadable {
                entry,
                line,
                reason,
            } => {
                self.errors
                    .write(source, &entry, line, &reason)
                    .map_err(file_err(&self.dir, ERRORS_CSV))?;
            }
            Item::Skipped(name) => {
                if self.skipped_sample.len() < SKIPPED_SAMPLE {
                    self.skipped_sample.push(format!("{source}: {name}"));
                }
            }
        }
        Ok(())
    }

    pub fn finish(self) -> Result<(), ScanError> {
        // Which of the two tables failed is not known here: the CSV is named.
        self.games
            .finish()
            .map_err(file_err(&self.dir, GAMES_CSV))?;
        self.errors
            .finish()
            .map_err(file_err(&self.dir, ERRORS_CSV))
    }
}

/// Where one part of an input stands.
#[derive(Default)]
struct PartState {
    /// Next sequence number to pass on.
    next: u64,
    /// Number of items of this part, once its reader is done.
    total: Option<u64>,
    /// Items that arrived ahead of `next`.
    pending: BTreeMap<u64, Item>,
    /// Items in order, waiting for this part's turn.
    spill: Option<Spill>,
    failure: Option<SourceError>,
}

impl PartState {
    fn finished(&self) -> bool {
        self.total == Some(self.next)
    }
}

/// Receive every result and write them in order. `names` are the inputs' names,
/// `part_input` the input of each part (in order). Returns the per-input summaries, the
/// counts of unreadable entries and skipped files, and the errors of the parts that could
/// not be read to their end; `None` when the scan was stopped (by another stage, which
/// holds the reason, or by a signal).
pub fn write_in_order(
    rx: Receiver<Msg>,
    names: &[String],
    part_input: &[usize],
    out: &mut Outputs<'_>,
    progress: &Progress,
    stop: &Stop,
) -> Result<Option<Written>, ScanError> {
    let mut summaries: Vec<InputSummary> = names
        .iter()
        .map(|n| InputSummary {
            source: n.clone(),
            ..InputSummary::default()
        })
        .collect();
    let mut states: Vec<PartState> = part_input.iter().map(|_| PartState::default()).collect();
    let mut stats = Stats::default();
    let mut current = 0;
    while current < states.len() {
        if stop.stopped() {
            return Ok(None);
        }
        let msg = match rx.recv_timeout(STOP_POLL) {
            Ok(msg) => Ok(msg),
            Err(RecvTimeoutError::Timeout) => continue,
            Err(RecvTimeoutError::Disconnected) => Err(()),
        };
        let Ok(msg) = msg else {
            // Every sender is gone before every part was done: a thread stopped unexpectedly.
            for &i in &part_input[current..] {
                summaries[i]
                    .error
                    .get_or_insert_with(|| format!("{}: reading stopped unexpectedly", names[i]));
            }
            break;
        };
        let part = match msg {
            Msg::Items { part, first, items } => {
                let summary = &mut summaries[part_input[part]];
                take_items(
                    &mut states[part],
                    summary,
                    &mut stats,
                    progress,
                    first,
                    items,
                );
                part
            }
            Msg::Done {
                part,
                total,
                format,
                failure,
            } => {
                let summary = &mut summaries[part_input[part]];
                part_done(&mut states[part], summary, total, format, failure);
                part
            }
        };
        pass_on(
            &mut states[part],
            part,
            part == current,
            names,
            part_input,
            out,
        )?;
        current = advance_turn(&mut states, current, names, part_input, out)?;
    }
    let errors = states.iter_mut().filter_map(|s| s.failure.take()).collect();
    Ok(Some((summaries, stats, errors)))
}

/// Pass on what is now in order for `part`: written when it is the current part
/// (`its_turn`), else spilled to disk until its turn.
fn pass_on(
    st: &mut PartState,
    part: usize,
    its_turn: bool,
    names: &[String],
    part_input: &[usize],
    out: &mut Outputs<'_>,
) -> Result<(), ScanError> {
    while let Some(item) = st.pending.remove(&st.next) {
        st.next += 1;
        if its_turn {
            out.emit(part_input[part], names, item)?;
        } else {
            let spill = match &mut st.spill {
                Some(s) => s,
                None => st.spill.insert(Spill::create(out.out, part)?),
            };
            spill.push(&item)?;
        }
    }
    if st.finished()
        && let Some(spill) = &mut st.spill
    {
        spill.close()?;
    }
    Ok(())
}

/// A part read to its end: its number of results, its container and its failure. An
/// input's container is known when any of its parts was read; its error lists every part
/// that failed.
fn part_done(
    st: &mut PartState,
    summary: &mut InputSummary,
    total: u64,
    format: Option<crate::source::Format>,
    failure: Option<SourceError>,
) {
    st.total = Some(total);
    summary.format = summary.format.or(format.map(|f| f.name()));
    if let Some(f) = &failure {
        summary.error = Some(match summary.error.take() {
            None => f.to_string(),
            Some(e) => format!("{e}; {}", f.reason()),
        });
    }
    st.failure = failure;
}

/// A batch of results of one part: counted, and held until their turn.
fn take_items(
    st: &mut PartState,
    summary: &mut InputSummary,
    stats: &mut Stats,
    progress: &Progress,
    first: u64,
    items: Vec<Item>,
) {
    for (seq, item) in (first..).zip(items) {
        match &item {
            Item::Game { .. } => {
                summary.entries += 1;
                summary.games += 1;
                progress.games.fetch_add(1, Ordering::Relaxed);
                progress.entries.fetch_add(1, Ordering::Relaxed);
            }
            Item::Unreadable { .. } => {
                summary.entries += 1;
                summary.unreadable += 1;
                stats.add_unreadable();
                progress.entries.fetch_add(1, Ordering::Relaxed);
            }
            Item::Skipped(_) => {
                summary.skipped += 1;
                stats.skipped_files += 1;
            }
        }
        st.pending.insert(seq, item);
    }
}

/// Move the turn on past every finished part (a failed input's error written, the next
/// part's spilled results written): the new current part.
fn advance_turn(
    states: &mut [PartState],
    mut current: usize,
    names: &[String],
    part_input: &[usize],
    out: &mut Outputs<'_>,
) -> Result<usize, ScanError> {
    while current < states.len() && states[current].finished() {
        let st = &mut states[current];
        let name = &names[part_input[current]];
        if let Some(SourceError { entry: None, .. }) = &st.failure {
            let e = st
                .failure
                .as_ref()
                .map(SourceError::reason)
                .unwrap_or_default();
            out.errors
                .write(name, "", None, &e)
                .map_err(file_err(&out.dir, ERRORS_CSV))?;
        }
        current += 1;
        if let Some(spill) = states.get_mut(current).and_then(|st| st.spill.take()) {
            let input = part_input[current];
            spill.replay(|item| out.emit(input, names, item))?;
        }
    }
    Ok(current)
}

/// Items of one input in order, on disk until the input's turn.
///
/// A part read ahead of its turn keeps its file open only while it is being read: once it
/// is read to its end the file is closed and its buffer freed, so that hundreds of small
/// archives finished ahead of a large one hold no memory (each held its megabyte of buffer
/// until its turn, and the memory of a scan of many archives grew with the archives read).
struct Spill {
    path: PathBuf,
    /// `None` once the part is read to its end.
    out: Option<BufWriter<OutFile>>,
}

/// The buffer of a spill file being written.
const SPILL_BUFFER: usize = 256 * 1024;

impl Spill {
    fn create(dir: &OutDir, part: usize) -> Result<Spill, ScanError> {
        let (file, path) =
            dir.scratch(&format!("spill-{part}"))
                .map_err(|cause| ScanError::Write {
                    path: dir.temp_path(&format!("spill-{part}")),
                    cause,
                })?;
        Ok(Spill {
            out: Some(BufWriter::with_capacity(SPILL_BUFFER, file)),
            path,
        })
    }

    /// The part is read to its end: write out the buffer and close the file.
    fn close(&mut self) -> Result<(), ScanError> {
        if let Some(out) = self.out.take() {
            out.into_inner().map_err(|e| ScanError::Write {
                path: self.path.clone(),
                cause: e.into_error(),
            })?;
        }
        Ok(())
    }

    fn push(&mut self, item: &Item) -> Result<(), ScanError> {
        let mut rec = Vec::new();
        match item {
            Item::Game { key, row } => {
                rec.push(0);
                match key {
                    Some(k) => {
                        rec.push(1);
                        rec.extend_from_slice(&k.to_le_bytes());
                    }
                    None => rec.push(0),
                }
                put_bytes(&mut rec, row);
            }
            Item::Unreadable {
                entry,
                line,
                reason,
            } => {
                rec.push(1);
                put_bytes(&mut rec, entry.as_bytes());
                rec.extend_from_slice(&line.map_or(0u64, |l| l as u64 + 1).to_le_bytes());
                put_bytes(&mut rec, reason.as_bytes());
            }
            Item::Skipped(name) => {
                rec.push(2);
                put_bytes(&mut rec, name.as_bytes());
            }
        }
        match &mut self.out {
            Some(out) => out.write_all(&rec).map_err(write_err(&self.path)),
            None => Err(ScanError::Internal(format!(
                "{}: written after its part was done",
                self.path.display()
            ))),
        }
    }

    /// Hand back every item in order, then delete the file.
    fn replay(
        mut self,
        mut emit: impl FnMut(Item) -> Result<(), ScanError>,
    ) -> Result<(), ScanError> {
        self.close()?;
        let path = self.path;
        let damaged = || ScanError::Internal(format!("{}: damaged spill file", path.display()));
        let file = File::open(&path).map_err(write_err(&path))?;
        let mut r = BufReader::with_capacity(1 << 20, file);
        loop {
            let mut kind = [0u8; 1];
            match r.read(&mut kind) {
                Ok(0) => break,
                Ok(_) => {}
                Err(e) => {
                    return Err(ScanError::Write {
                        path: path.clone(),
                        cause: e,
                    });
                }
            }
            let item = match kind[0] {
                0 => {
                    let mut has_key = [0u8; 1];
                    r.read_exact(&mut has_key).map_err(|_| damaged())?;
                    let key = match has_key[0] {
                        0 => None,
                        1 => {
                            let mut k = [0u8; 16];
                            r.read_exact(&mut k).map_err(|_| damaged())?;
                            Some(u128::from_le_bytes(k))
                        }
                        _ => return Err(damaged()),
                    };
                    let row = get_bytes(&mut r).ok_or_else(damaged)?;
                    Item::Game { key, row }
                }
                1 => {
                    let entry = get_string(&mut r).ok_or_else(damaged)?;
                    let mut line = [0u8; 8];
                    r.read_exact(&mut line).map_err(|_| damaged())?;
                    let line = u64::from_le_bytes(line).checked_sub(1).map(|l| l as usize);
                    let reason = get_string(&mut r).ok_or_else(damaged)?;
                    Item::Unreadable {
                        entry,
                        line,
                        reason,
                    }
                }
                2 => Item::Skipped(get_string(&mut r).ok_or_else(damaged)?),
                _ => return Err(damaged()),
            };
            emit(item)?;
        }
        drop(r);
        let _ = std::fs::remove_file(&path);
        Ok(())
    }
}

fn put_bytes(rec: &mut Vec<u8>, bytes: &[u8]) {
    rec.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
    rec.extend_from_slice(bytes);
}

fn get_bytes(r: &mut impl Read) -> Option<Vec<u8>> {
    let mut len = [0u8; 8];
    r.read_exact(&mut len).ok()?;
    let mut bytes = vec![0u8; usize::try_from(u64::from_le_bytes(len)).ok()?];
    r.read_exact(&mut bytes).ok()?;
    Some(bytes)
}

fn get_string(r: &mut impl Read) -> Option<String> {
    String::from_utf8(get_bytes(r)?).ok()
}
