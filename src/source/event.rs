//! What a reader reports for each entry of an input, and where it reports it.
use std::fs::File;
use std::path::PathBuf;
use std::sync::Arc;

use super::buffer::ReadBuffer;
use super::error::EntryError;

/// What a reader reports for each entry of an input.
#[derive(Debug)]
pub enum Event<'a> {
    /// A record to analyse. The bytes are lent for the call: a reader reads every entry
    /// into the same buffer, and the consumer copies what it keeps.
    Entry {
        /// The entry's name inside its input.
        name: String,
        /// The record's bytes.
        bytes: &'a [u8],
    },
    /// A record file of a folder, not read yet: whoever analyses it reads it with
    /// [`ReadBuffer::with_file`], so that the reading is spread over many threads. Its
    /// bytes are not counted in the reader's `bytes_read`.
    File {
        /// The file's path relative to the folder, with `/` separators.
        name: String,
        /// Where the file is.
        path: PathBuf,
    },
    /// A record stored as it is inside an uncompressed `.tar` file, too large for the blocks
    /// that file is read in (no game record is), not read yet: its `len` bytes start at
    /// `offset` of `file`. Like a folder's [`Event::File`], whoever analyses
    /// it reads it ([`ReadBuffer::with_span`]), so that the reading is spread over many
    /// threads, and counts its bytes; the reader counts the rest of the archive (headers,
    /// padding).
    Span {
        /// The entry's name inside the archive.
        name: String,
        /// The archive file.
        file: Arc<File>,
        /// Where the record's bytes start in the file.
        offset: u64,
        /// The record's length in bytes.
        len: u64,
    },
    /// A record read as part of a larger block of its archive (an uncompressed `.tar` file
    /// is read a block at a time), shared with the other records of the block instead of
    /// copied out of it. Its bytes are counted in the reader's `bytes_read`.
    Shared {
        /// The entry's name inside the archive.
        name: String,
        /// The record's bytes, inside the block.
        bytes: SharedBytes,
    },
    /// An entry that exists but whose bytes could not be read.
    Unreadable {
        /// The entry's name inside its input.
        name: String,
        /// Why its bytes could not be read.
        reason: String,
    },
    /// A file inside an archive, or inside a folder, that is not a `.csa` record (nor, in a
    /// folder, an archive; directories are not reported).
    Skipped {
        /// The file's name inside its input.
        name: String,
    },
}

impl Event<'_> {
    /// The entry's name.
    pub fn name(&self) -> &str {
        match self {
            Event::Entry { name, .. }
            | Event::File { name, .. }
            | Event::Span { name, .. }
            | Event::Shared { name, .. }
            | Event::Unreadable { name, .. }
            | Event::Skipped { name } => name,
        }
    }

    /// `f` on the bytes of the record this event names, read as a worker reads them (lent
    /// by the reader, or a folder's file or a span of a `.tar` file read into `buffer`);
    /// why they cannot be read, for an unreadable record; `None` for a file that is no
    /// record.
    pub fn with_record<T>(
        &self,
        buffer: &mut ReadBuffer,
        f: impl FnOnce(&[u8]) -> T,
    ) -> Option<Result<T, EntryError>> {
        match self {
            Event::Entry { bytes, .. } => Some(Ok(f(bytes))),
            Event::File { path, .. } => Some(buffer.with_file(path, f)),
            Event::Span {
                file, offset, len, ..
            } => Some(buffer.with_span(file, *offset, *len, f)),
            Event::Shared { bytes, .. } => Some(Ok(f(bytes.bytes()))),
            Event::Unreadable { reason, .. } => Some(Err(EntryError::Reported(reason.clone()))),
            Event::Skipped { .. } => None,
        }
    }
}

/// A record's bytes inside a block read from its archive, which the block's other records
/// share: handed from thread to thread without a copy.
#[derive(Clone)]
pub struct SharedBytes {
    block: Arc<[u8]>,
    range: std::ops::Range<usize>,
}

impl SharedBytes {
    /// The bytes `range` of `block` (a range inside it).
    pub(super) fn new(block: Arc<[u8]>, range: std::ops::Range<usize>) -> SharedBytes {
        debug_assert!(range.end <= block.len());
        SharedBytes { block, range }
    }

    /// The record's bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.block[self.range.clone()]
    }
}

impl std::fmt::Debug for SharedBytes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SharedBytes({} bytes)", self.range.len())
    }
}

/// Receives the events of one input; returning `false` asks the reader to stop early
/// (the consumer has gone away).
pub type Sink<'a> = dyn FnMut(Event<'_>) -> bool + 'a;
