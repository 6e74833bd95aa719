//! The per-record side of the scan: a worker takes batches of entries, reads each record
//! (from the batch's arena, its own file or a tar span), replays and judges it
//! ([`crate::game::analyse_record_with`]), counts it in its [`Stats`] and encodes its row
//! for the writer. The pipeline around it (readers, channels, the ordered writer) is the
//! parent module's.

use std::sync::Mutex;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{Receiver, SyncSender};

use super::model::Progress;
use super::stats::Stats;
use super::work::{ArenaPool, Item, Job, Msg, Stop, Work};
use super::{dups, encode};
use crate::game::{Scratch, analyse_record_with};
use crate::source::ReadBuffer;

/// A worker thread: analyse records until the readers are done.
pub(super) fn analyse(
    work_rx: &Mutex<Receiver<Work>>,
    msg_tx: &SyncSender<Msg>,
    names: &[String],
    pool: &ArenaPool,
    progress: &Progress,
    stop: &Stop,
) -> Stats {
    let mut stats = Stats::default();
    let mut scratch = Scratch::default();
    // The memory this worker reads a folder's record files and a tar file's spans into.
    let mut buffer = ReadBuffer::default();
    loop {
        if stop.stopped() {
            return stats;
        }
        let work = match work_rx.lock() {
            Ok(rx) => rx.recv(),
            Err(_) => return stats,
        };
        let Ok(Work {
            part,
            first,
            jobs,
            arena,
        }) = work
        else {
            return stats;
        };
        let source = names.get(part).map_or("", String::as_str);
        let items = jobs
            .into_iter()
            .map(|job| {
                let mine = Mine {
                    stats: &mut stats,
                    scratch: &mut scratch,
                    buffer: &mut buffer,
                };
                analyse_one(source, job, &arena, mine, progress)
            })
            .collect();
        pool.give_back(arena);
        if msg_tx.send(Msg::Items { part, first, items }).is_err() {
            return stats;
        }
    }
}

/// What a worker owns and reuses from record to record.
struct Mine<'w> {
    stats: &'w mut Stats,
    scratch: &'w mut Scratch,
    buffer: &'w mut ReadBuffer,
}

fn analyse_one(source: &str, job: Job, arena: &[u8], mine: Mine<'_>, progress: &Progress) -> Item {
    let Mine {
        stats,
        scratch,
        buffer,
    } = mine;
    // A folder's records are read into the worker's buffer and analysed there; an
    // archive's are in the batch's arena: no allocation per record.
    let (name, result) = match job {
        Job::Known(item) => return item,
        Job::Record { name, start, end } => {
            let item = analyse_bytes(source, &name, &arena[start..end], stats, scratch);
            (name, Ok(item))
        }
        Job::Shared { name, bytes } => {
            let item = analyse_bytes(source, &name, bytes.bytes(), stats, scratch);
            (name, Ok(item))
        }
        Job::File { name, path } => {
            let result = buffer.with_file(&path, |bytes| {
                progress
                    .bytes_read
                    .fetch_add(bytes.len() as u64, Ordering::Relaxed);
                analyse_bytes(source, &name, bytes, stats, scratch)
            });
            (name, result)
        }
        Job::Span {
            name,
            file,
            offset,
            len,
        } => {
            progress.bytes_read.fetch_add(len, Ordering::Relaxed);
            let result = buffer.with_span(&file, offset, len, |bytes| {
                analyse_bytes(source, &name, bytes, stats, scratch)
            });
            (name, result)
        }
    };
    match result {
        Ok(Analysed::Game { key, row }) => Item::Game { key, row },
        Ok(Analysed::Unreadable { line, reason }) => Item::Unreadable {
            entry: name,
            line,
            reason,
        },
        Err(e) => Item::Unreadable {
            entry: name,
            line: None,
            reason: e.to_string(),
        },
    }
}

/// What became of a record's bytes.
enum Analysed {
    /// The encoded table row, and the key of the game's id.
    Game {
        key: Option<u128>,
        row: Vec<u8>,
    },
    Unreadable {
        line: Option<usize>,
        reason: String,
    },
}

fn analyse_bytes(
    source: &str,
    name: &str,
    bytes: &[u8],
    stats: &mut Stats,
    scratch: &mut Scratch,
) -> Analysed {
    let analysed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        analyse_record_with(scratch, source, name, bytes)
    }));
    match analysed {
        Ok(Ok(row)) => {
            stats.add_game(&row);
            let mut buf = Vec::with_capacity(1024);
            encode::encode_row(&row, &mut buf);
            // The row waits in channels and in a row group (32,768 rows): at its own size
            // (about half the kilobyte reserved), not at the capacity it was written with.
            buf.shrink_to_fit();
            Analysed::Game {
                key: dups::id_key(&row.game_id),
                row: buf,
            }
        }
        Ok(Err(e)) => Analysed::Unreadable {
            line: e.line,
            reason: e.reason,
        },
        Err(_) => {
            // The scratch memory may be left mid-record: start the next one afresh.
            *scratch = Scratch::default();
            Analysed::Unreadable {
                line: None,
                reason: "internal error: the record reader panicked".into(),
            }
        }
    }
}
