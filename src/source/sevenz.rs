//! 7z archives (the form of the yearly wdoor downloads), decoded entry by entry while
//! streaming through each compression block; nothing is unpacked to disk. A solid block
//! can only be decoded front to back, but separate blocks are independent: an archive of
//! several blocks is read in parts ([`plan`]), which separate threads decode side by side.
use std::io::{Read, Seek, SeekFrom};
use std::ops::Range;
use std::sync::{Arc, Mutex, PoisonError, Weak};

use sevenz_rust2::{Archive, ArchiveEntry, BlockDecoder, Password};

use super::buffer::read_into;
use super::counting::Counting;
use super::error::SourceError;
use super::event::{Event, Sink};
use super::names::{clean_name, is_record_name};

/// Most parts an archive is read in. A part may have to read the archive's index again
/// (see [`BlockRun`]), and an archive made without solid compression has one block per file:
/// its blocks are gathered into at most about this many runs of about equal unpacked size.
pub const MAX_PARTS: usize = 16;

/// A run of blocks of a 7z archive, read as one part of it. The index of a yearly archive
/// (a hundred thousand entries) takes tens of megabytes, so it is not kept for every
/// input planned: the parts of an archive share it while any of them is being read, and
/// read it again when none is.
#[derive(Clone)]
pub struct BlockRun {
    pub(super) blocks: Range<usize>,
    /// The last part also delivers the entries stored without data (empty files), which
    /// the archive lists apart from every block.
    pub(super) last: bool,
    /// Unpacked bytes of the run's blocks (the work of decoding and analysing them).
    pub(super) unpacked: u64,
    index: Arc<Mutex<Weak<Archive>>>,
}

impl PartialEq for BlockRun {
    fn eq(&self, other: &BlockRun) -> bool {
        (&self.blocks, self.last) == (&other.blocks, other.last)
    }
}

impl Eq for BlockRun {}

impl std::fmt::Debug for BlockRun {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BlockRun")
            .field("blocks", &self.blocks)
            .field("last", &self.last)
            .finish()
    }
}

#[cfg(test)]
impl BlockRun {
    pub(super) fn new(blocks: Range<usize>, last: bool) -> BlockRun {
        BlockRun {
            blocks,
            last,
            unpacked: 0,
            index: Arc::default(),
        }
    }
}

/// The parts of a 7z archive of several blocks, in archive order: every block in exactly
/// one part, consecutive blocks gathered into at most about [`MAX_PARTS`] runs of about
/// equal unpacked size (`None` when it has a single block), and the unpacked size of the
/// whole archive. `None` when the archive's index cannot be read (reading it whole then
/// says why).
pub fn plan<R: Read + Seek>(mut r: R) -> Option<(Option<Vec<BlockRun>>, u64)> {
    let archive = Archive::read(&mut r, &Password::empty()).ok()?;
    let sizes: Vec<u64> = archive.blocks.iter().map(|b| b.get_unpack_size()).collect();
    let total = sizes.iter().fold(0u64, |t, &s| t.saturating_add(s));
    let target = total.div_ceil(MAX_PARTS as u64).max(1);
    let mut runs = Vec::new();
    let mut start = 0;
    let mut size = 0u64;
    for (b, &block) in sizes.iter().enumerate() {
        size = size.saturating_add(block);
        if size >= target {
            runs.push(start..b + 1);
            start = b + 1;
            size = 0;
        }
    }
    if start < sizes.len() {
        runs.push(start..sizes.len());
    }
    if runs.len() < 2 {
        return Some((None, total));
    }
    let n = runs.len();
    let index = Arc::new(Mutex::new(Weak::new()));
    let runs = Some(
        runs.into_iter()
            .enumerate()
            .map(|(i, blocks)| BlockRun {
                unpacked: sizes[blocks.clone()]
                    .iter()
                    .fold(0u64, |t, &s| t.saturating_add(s)),
                blocks,
                last: i + 1 == n,
                index: Arc::clone(&index),
            })
            .collect(),
    );
    Some((runs, total))
}

/// Read a whole 7z archive.
pub fn read<R: Read + Seek>(input: &str, mut r: R, sink: &mut Sink<'_>) -> Result<(), SourceError> {
    let archive = match Archive::read(&mut r, &Password::empty()) {
        Ok(archive) => archive,
        Err(e) => {
            let message = match cut_short(&mut r) {
                Some(what) => format!(
                    "the archive is cut short ({what}): \
                     a 7z archive keeps its index at the end, so no entry can be read \
                     (an incomplete download?)"
                ),
                None => format!("cannot read the 7z header: {}", message(&e)),
            };
            return Err(SourceError::new(input, message));
        }
    };
    read_blocks(input, &archive, 0..archive.blocks.len(), true, r, sink)
}

/// Read one part of a 7z archive planned by [`plan`] from `r`, the archive from its start.
/// The index is not counted in `r`'s bytes: every part may read it.
pub fn read_part<R: Read + Seek>(
    input: &str,
    part: &BlockRun,
    mut r: Counting<'_, R>,
    sink: &mut Sink<'_>,
) -> Result<(), SourceError> {
    let archive = {
        let mut shared = part.index.lock().unwrap_or_else(PoisonError::into_inner);
        match shared.upgrade() {
            Some(archive) => archive,
            None => {
                r.paused = true;
                let archive = Archive::read(&mut r, &Password::empty()).map_err(|e| {
                    SourceError::new(
                        input,
                        format!("cannot read the 7z header again: {}", message(&e)),
                    )
                })?;
                r.paused = false;
                let archive = Arc::new(archive);
                *shared = Arc::downgrade(&archive);
                archive
            }
        }
    };
    if part.blocks.end > archive.blocks.len() {
        return Err(SourceError::new(
            input,
            "the archive changed while it was read",
        ));
    }
    read_blocks(input, &archive, part.blocks.clone(), part.last, r, sink)
}

/// Read the entries of `blocks`, then, when `last`, the entries without data. A block that
/// fails loses the entries after the failure, not those of the next blocks: the entry it
/// failed in is reported unreadable in its place and the reading goes on; the first
/// failure is returned at the end.
fn read_blocks<R: Read + Seek>(
    input: &str,
    archive: &Archive,
    blocks: Range<usize>,
    last: bool,
    mut r: R,
    sink: &mut Sink<'_>,
) -> Result<(), SourceError> {
    let password = Password::empty();
    let mut reading = Reading {
        pending: None,
        held: Vec::new(),
        last: None,
        stopped: false,
        entry_error: None,
    };
    let mut first: Option<SourceError> = None;
    let mut more = 0;
    for b in blocks {
        let decoder = BlockDecoder::new(1, b, archive, &password, &mut r);
        let result =
            decoder.for_each_entries(&mut |entry, reader| Ok(reading.entry(entry, reader, sink)));
        if reading.stopped {
            return Ok(());
        }
        let mut failure = match result {
            Err(e) => reading.failure(input, message(&e), sink),
            Ok(_) if reading.entry_error.is_some() => reading.failure(input, String::new(), sink),
            // The block ended cleanly: its last entry is checked.
            Ok(_) => {
                if !reading.deliver(sink) {
                    return Ok(());
                }
                continue;
            }
        };
        if let Some(name) = &failure.entry {
            failure.reported = true;
            let reason = failure.message.clone();
            if !sink(Event::Unreadable {
                name: name.clone(),
                reason,
            }) {
                return Ok(());
            }
        }
        if first.is_none() {
            first = Some(failure);
        } else {
            more += 1;
        }
    }
    if last {
        let empty = archive
            .files
            .iter()
            .zip(&archive.stream_map.file_block_index)
            .filter(|(_, block)| block.is_none());
        for (entry, _) in empty {
            let _ = reading.entry(entry, &mut [0u8; 0].as_slice(), sink);
            if reading.stopped || !reading.deliver(sink) {
                return Ok(());
            }
        }
    }
    match first {
        None => Ok(()),
        Some(mut e) => {
            if more > 0 {
                e.message
                    .push_str(&format!(" (and {more} more blocks that failed)"));
            }
            Err(e)
        }
    }
}

/// The state of a reading through the blocks. The decoder checks an entry's CRC only after
/// the callback returns, so each entry is held back until the next one starts (or its
/// block ends cleanly): a corrupt entry is then reported as unreadable, never analysed.
/// The held entry's bytes stay in `held`.
struct Reading {
    pending: Option<Held>,
    held: Vec<u8>,
    /// The last entry met.
    last: Option<String>,
    /// The consumer has gone away.
    stopped: bool,
    /// An entry whose bytes could not be read (name, reason).
    entry_error: Option<(String, String)>,
}

impl Reading {
    /// Pass on the held entry, if any; `false` when the consumer has gone away.
    fn deliver(&mut self, sink: &mut Sink<'_>) -> bool {
        if let Some(h) = self.pending.take()
            && !h.deliver(&self.held, sink)
        {
            self.stopped = true;
        }
        !self.stopped
    }

    /// The decoder's callback: pass on the entry before, hold this one back. `false` to
    /// stop (the consumer has gone away, or this entry's bytes cannot be read).
    fn entry(&mut self, entry: &ArchiveEntry, reader: &mut dyn Read, sink: &mut Sink<'_>) -> bool {
        if !self.deliver(sink) {
            return false;
        }
        if entry.is_directory() {
            return true;
        }
        let name = clean_name(entry.name());
        self.last = Some(name.clone());
        if !is_record_name(&name) {
            self.pending = Some(Held::Skipped(name));
            return true;
        }
        match read_into(reader, &mut self.held) {
            Ok(n) => self.pending = Some(Held::Entry(name, n)),
            Err(reason) => {
                self.entry_error = Some((name, reason.to_string()));
                return false;
            }
        }
        true
    }

    /// The error that ended a block (the decoder's `message`, unless an entry could not be
    /// read), given to the entry it belongs to.
    fn failure(&mut self, input: &str, message: String, sink: &mut Sink<'_>) -> SourceError {
        let err = |entry, after, message| SourceError::at(input, entry, after, message);
        if let Some((name, reason)) = self.entry_error.take() {
            return err(Some(name), None, reason);
        }
        // The failure belongs to the entry held back (its CRC or the data after it).
        match self.pending.take() {
            Some(Held::Entry(name, _)) => err(Some(name), None, message),
            Some(other) => {
                other.deliver(&self.held, sink);
                err(None, self.last.clone(), message)
            }
            None => err(None, self.last.clone(), message),
        }
    }
}

/// When a 7z archive ends before its start header does, or before the index the start
/// header points to (a partial download), what is missing, in words.
fn cut_short<R: Read + Seek>(r: &mut R) -> Option<String> {
    let len = r.seek(SeekFrom::End(0)).ok()?;
    r.seek(SeekFrom::Start(0)).ok()?;
    let mut head = Vec::with_capacity(32);
    r.by_ref().take(32).read_to_end(&mut head).ok()?;
    if !head.starts_with(&[b'7', b'z', 0xbc, 0xaf, 0x27, 0x1c]) {
        return None;
    }
    if head.len() < 32 {
        return Some(format!("{len} bytes, not even its 32-byte start header"));
    }
    let word = |at: usize| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&head[at..at + 8]);
        u64::from_le_bytes(w)
    };
    let needed = 32u64.saturating_add(word(12)).saturating_add(word(20));
    (needed > len).then(|| format!("{len} bytes; its index ends at byte {needed}"))
}

/// An entry held back until the decoder has checked it.
enum Held {
    /// A record (name, length of its bytes in the held buffer).
    Entry(String, usize),
    Skipped(String),
}

impl Held {
    fn deliver(self, held: &[u8], sink: &mut Sink<'_>) -> bool {
        match self {
            Held::Entry(name, n) => sink(Event::Entry {
                name,
                bytes: &held[..n],
            }),
            Held::Skipped(name) => sink(Event::Skipped { name }),
        }
    }
}

/// The decoder's error as a sentence (its `Display` is its debug form).
fn message(e: &sevenz_rust2::Error) -> String {
    use sevenz_rust2::Error;
    match e {
        Error::ChecksumVerificationFailed => "checksum mismatch (corrupt data)".into(),
        Error::NextHeaderCrcMismatch => "header checksum mismatch (corrupt archive)".into(),
        Error::BadSignature(_) => "bad 7z signature".into(),
        Error::PasswordRequired | Error::MaybeBadPassword(_) => {
            "encrypted archive (a password is needed)".into()
        }
        Error::UnsupportedCompressionMethod(m) => format!("unsupported compression method {m}"),
        Error::Other(s) | Error::Unsupported(s) => s.to_string(),
        Error::Io(io, ctx) if ctx.is_empty() => io.to_string(),
        Error::Io(io, ctx) => format!("{ctx}: {io}"),
        other => other.to_string(),
    }
}
