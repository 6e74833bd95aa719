//! What the pipeline's stages hand each other: batches of entries ([`Work`], [`Job`])
//! with their arenas ([`ArenaPool`]), results ([`Item`], [`Msg`]), and the shared stop
//! ([`Stop`]).

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use super::model::ScanError;
use crate::interrupt;
use crate::source::{Format, SharedBytes, SourceError};

/// Stops every stage of the pipeline: the first failure of any thread, or a signal.
#[derive(Default)]
pub(super) struct Stop {
    stopped: AtomicBool,
    first: Mutex<Option<ScanError>>,
}

impl Stop {
    /// Record a failure (the first one is the one reported) and stop the other stages.
    pub(super) fn fail(&self, e: ScanError) {
        if let Ok(mut first) = self.first.lock()
            && first.is_none()
        {
            *first = Some(e);
        }
        self.stopped.store(true, Ordering::Relaxed);
    }

    pub(super) fn stopped(&self) -> bool {
        self.stopped.load(Ordering::Relaxed) || interrupt::received().is_some()
    }

    /// Why the pipeline stopped, if it did.
    pub(super) fn reason(&self) -> Option<ScanError> {
        let first = self.first.lock().ok().and_then(|mut f| f.take());
        first.or_else(|| interrupt::received().map(ScanError::Interrupted))
    }

    /// Run one stage's body; a panic in it stops the pipeline with a message instead of
    /// leaving the other stages waiting for it.
    pub(super) fn guard<T>(&self, stage: &str, body: impl FnOnce() -> T) -> Option<T> {
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
pub(super) struct Work {
    pub(super) part: usize,
    /// Sequence number of the first job.
    pub(super) first: u64,
    pub(super) jobs: Vec<Job>,
    /// The bytes of the batch's records, one after another ([`Job::Record`] ranges).
    pub(super) arena: Vec<u8>,
}

pub(super) enum Job {
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
pub(super) const BATCH_JOBS: usize = 64;
pub(super) const BATCH_BYTES: usize = 1 << 20;

/// Batch arenas given back by the workers for the readers to fill again: their memory
/// stays mapped and warm instead of being allocated for every batch. At most
/// [`POOL_KEEP`] are kept, none grown past [`ARENA_KEEP`] bytes (an outsized record).
#[derive(Default)]
pub(super) struct ArenaPool(Mutex<Vec<Vec<u8>>>);

const POOL_KEEP: usize = 64;
const ARENA_KEEP: usize = 4 * BATCH_BYTES;

impl ArenaPool {
    pub(super) fn take(&self) -> Vec<u8> {
        self.0
            .lock()
            .ok()
            .and_then(|mut p| p.pop())
            // A new arena is made at a batch's size: growing it would copy it over and over.
            .unwrap_or_else(|| Vec::with_capacity(BATCH_BYTES + BATCH_BYTES / 4))
    }

    pub(super) fn give_back(&self, mut arena: Vec<u8>) {
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
pub(super) enum Item {
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

pub(super) enum Msg {
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
