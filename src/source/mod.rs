//! Where record bytes come from. The floodgate archive reaches users as yearly `.7z`
//! files, but also as extracted folders, `.tar`, `.tar.gz` and `.zip` bundles, single
//! `.csa` files, or a tar stream piped from another tool. This module turns each of those
//! into the same thing, a sequence of entries (name, bytes), read directly from the
//! container and never unpacked to disk.
//!
//! The container is recognised by its first bytes, not by its name: a `.7z` renamed to
//! `.dat` is still read as a 7z archive. A file that is no archive is read as one record.
//! A 7z file of several compression blocks can also be read in parts ([`parts`],
//! [`read_part`]), which separate threads decode side by side.
//!
//! Every entry read is reported exactly once, as an [`Event::Entry`] or an
//! [`Event::Shared`] (bytes to analyse, lent for the call or shared with a block of an
//! uncompressed `.tar` file), an [`Event::File`] or an [`Event::Span`] (a folder's record
//! file, or a record too large for a block of a `.tar` file, for whoever analyses it to
//! read), an [`Event::Unreadable`]
//! (with the reason) or an [`Event::Skipped`] (a file inside an archive whose name does not
//! end in `.csa`). A container that breaks part way through
//! keeps the entries already delivered and returns a [`SourceError`] naming the input and
//! the entry where it broke.
mod bundled;
mod detect;
mod dir;
mod sevenz;
mod stdin;
mod tar;
mod zip;

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

pub use bundled::bundled_inputs;
pub use detect::{Format, detect};

/// Largest entry read into memory. Real records are a few tens of kilobytes; anything
/// larger is not a game record and is reported as unreadable instead of exhausting memory.
pub const MAX_ENTRY_BYTES: u64 = 64 << 20;

/// One input as given on the command line.
#[derive(Debug, Clone)]
pub enum Input {
    /// A folder, a record file or an archive file. A folder holding archives is read as
    /// its records plus one input per archive ([`expand`]).
    Path(PathBuf),
    /// The record files of a folder (and its other files, skipped), without its archives,
    /// which [`expand`] made inputs of their own.
    FolderRecords(PathBuf),
    /// A tar stream (optionally gzip-compressed) on standard input, given as `-`.
    Stdin,
    /// Records held in memory, read like a folder (the fixtures built into the binary).
    EmbeddedRecords {
        /// Name used in the `source` column and in messages.
        name: &'static str,
        /// (entry name, bytes), in the order they are read.
        files: &'static [(&'static str, &'static [u8])],
    },
    /// An archive held in memory (the fixtures built into the binary).
    Embedded {
        /// Name used in the `source` column and in messages.
        name: &'static str,
        /// The archive bytes.
        bytes: &'static [u8],
    },
}

impl Input {
    /// Parse a command-line argument: `-` is standard input, anything else a path.
    pub fn from_arg(arg: &str) -> Input {
        if arg == "-" {
            Input::Stdin
        } else {
            Input::Path(PathBuf::from(arg))
        }
    }

    /// The name written in the `source` column and in messages.
    pub fn name(&self) -> String {
        match self {
            Input::Path(p) | Input::FolderRecords(p) => p.display().to_string(),
            Input::Stdin => "-".to_string(),
            Input::Embedded { name, .. } | Input::EmbeddedRecords { name, .. } => {
                (*name).to_string()
            }
        }
    }

    /// Bytes this input will deliver to its reader, when known in advance (for the
    /// progress bar): the file size, or the sum of the record sizes of a folder.
    pub fn size_hint(&self) -> Option<u64> {
        match self {
            Input::Path(p) => {
                let meta = std::fs::metadata(p).ok()?;
                if meta.is_dir() {
                    Some(dir::total_size(p))
                } else {
                    Some(meta.len())
                }
            }
            Input::FolderRecords(p) => Some(dir::total_size(p)),
            Input::Stdin => None,
            Input::Embedded { bytes, .. } => Some(bytes.len() as u64),
            Input::EmbeddedRecords { files, .. } => {
                Some(files.iter().map(|(_, b)| b.len() as u64).sum())
            }
        }
    }
}

/// What a reader reports for each entry of an input.
#[derive(Debug)]
pub enum Event<'a> {
    /// A record to analyse. The bytes are lent for the call: a reader reads every entry
    /// into the same buffer, and the consumer copies what it keeps.
    Entry { name: String, bytes: &'a [u8] },
    /// A record file of a folder, not read yet: whoever analyses it reads it with
    /// [`with_file`] or [`read_file`], so that the reading is spread over many threads. Its bytes are not
    /// counted in the reader's `bytes_read`.
    File { name: String, path: PathBuf },
    /// A record stored as it is inside an uncompressed `.tar` file, too large for the blocks
    /// that file is read in (no game record is), not read yet: its `len` bytes start at
    /// `offset` of `file`. Like a folder's [`Event::File`], whoever analyses
    /// it reads it ([`with_span`]), so that the reading is spread over many threads, and
    /// counts its bytes; the reader counts the rest of the archive (headers, padding).
    Span {
        name: String,
        file: Arc<File>,
        offset: u64,
        len: u64,
    },
    /// A record read as part of a larger block of its archive (an uncompressed `.tar` file
    /// is read a block at a time), shared with the other records of the block instead of
    /// copied out of it. Its bytes are counted in the reader's `bytes_read`.
    Shared { name: String, bytes: SharedBytes },
    /// An entry that exists but whose bytes could not be read.
    Unreadable { name: String, reason: String },
    /// A file inside an archive, or inside a folder, that is not a `.csa` record (nor, in a
    /// folder, an archive; directories are not reported).
    Skipped { name: String },
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
    /// by the reader, a folder's file, or a span of a `.tar` file); why they cannot be read,
    /// for an unreadable record; `None` for a file that is no record.
    pub fn with_record<T>(&self, f: impl FnOnce(&[u8]) -> T) -> Option<Result<T, String>> {
        match self {
            Event::Entry { bytes, .. } => Some(Ok(f(bytes))),
            Event::File { path, .. } => Some(with_file(path, f)),
            Event::Span {
                file, offset, len, ..
            } => Some(with_span(file, *offset, *len, f)),
            Event::Shared { bytes, .. } => Some(Ok(f(bytes.bytes()))),
            Event::Unreadable { reason, .. } => Some(Err(reason.clone())),
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

/// An input that could not be read to its end.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{input}: {}{message}", context(entry, after))]
pub struct SourceError {
    /// The input, as named on the command line.
    pub input: String,
    /// The entry being read when the input broke (it was not delivered as an entry).
    pub entry: Option<String>,
    /// Whether `entry` was already reported as an [`Event::Unreadable`] in its place (a
    /// reader that goes on past the break does so); if not, the consumer counts it.
    pub reported: bool,
    /// The last entry delivered before the input broke, when no entry was being read.
    pub after: Option<String>,
    /// What went wrong.
    pub message: String,
}

fn context(entry: &Option<String>, after: &Option<String>) -> String {
    match (entry, after) {
        (Some(e), _) => format!("{e}: "),
        (None, Some(a)) => format!("after entry {a}: "),
        (None, None) => String::new(),
    }
}

impl SourceError {
    /// The error without the input's name: the entry context and the message.
    pub fn reason(&self) -> String {
        format!("{}{}", context(&self.entry, &self.after), self.message)
    }

    fn new(input: &str, message: impl Into<String>) -> SourceError {
        SourceError::at(input, None, None, message)
    }

    /// An error while reading `entry`, or after entry `after` (not yet reported).
    fn at(
        input: &str,
        entry: Option<String>,
        after: Option<String>,
        message: impl Into<String>,
    ) -> SourceError {
        SourceError {
            input: input.to_string(),
            entry,
            reported: false,
            after,
            message: message.into(),
        }
    }
}

/// Receives the events of one input; returning `false` asks the reader to stop early
/// (the consumer has gone away).
pub type Sink<'a> = dyn FnMut(Event<'_>) -> bool + 'a;

/// A part of an input that can be read on its own, at the same time as the others: the
/// whole input, or a run of compression blocks of a 7z file (see [`parts`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part(PartKind);

#[derive(Debug, Clone, PartialEq, Eq)]
enum PartKind {
    Whole,
    SevenZ(sevenz::Blocks),
}

/// How `input` is read: in one part, or, when it is a 7z file of several compression
/// blocks, in parts (runs of blocks, at most about 16) that separate threads can decode
/// side by side. Reading every part with [`read_part`], the parts in the order given,
/// delivers the entries [`read_input`] delivers, in the same order.
pub fn parts(input: &Input) -> Vec<Part> {
    weighed_parts(input).into_iter().map(|(p, _)| p).collect()
}

/// [`parts`], each with the work of reading it, for scheduling the largest first: the
/// bytes of the records it delivers as far as they are known before reading (the unpacked
/// size of a 7z file's blocks, from its index; else the bytes of the file, or of a
/// folder's records).
pub fn weighed_parts(input: &Input) -> Vec<(Part, u64)> {
    let whole = |w: u64| vec![(Part(PartKind::Whole), w)];
    let Input::Path(path) = input else {
        return whole(input.size_hint().unwrap_or(0));
    };
    let Ok(mut file) = File::open(path) else {
        return whole(0);
    };
    let len = file.metadata().map_or(0, |m| m.len());
    let mut head = Vec::with_capacity(detect::HEAD_LEN);
    if (&mut file)
        .take(detect::HEAD_LEN as u64)
        .read_to_end(&mut head)
        .is_err()
        || detect(&head) != Some(Format::SevenZ)
        || file.seek(SeekFrom::Start(0)).is_err()
    {
        return whole(input.size_hint().unwrap_or(len));
    }
    match sevenz::plan(io::BufReader::new(file)) {
        Some((Some(blocks), _)) => blocks
            .into_iter()
            .map(|b| {
                let w = b.unpacked;
                (Part(PartKind::SevenZ(b)), w)
            })
            .collect(),
        Some((None, unpacked)) => whole(unpacked),
        None => whole(len),
    }
}

/// The inputs as they are read: a folder becomes its own records (an
/// [`Input::FolderRecords`], kept when it holds any file that is no archive, or nothing at
/// all) followed by one [`Input::Path`] per archive below it, in sorted path order, each
/// named by its path (the folder's path joined with its place in the folder). Other inputs
/// are kept as they are, in the order given. Expanding twice changes nothing.
pub fn expand(inputs: &[Input]) -> Vec<Input> {
    let mut out = Vec::with_capacity(inputs.len());
    for input in inputs {
        match input {
            Input::Path(path) if path.is_dir() => {
                let listing = dir::list(path);
                let own = !listing.records.is_empty()
                    || !listing.others.is_empty()
                    || !listing.broken.is_empty()
                    || listing.archives.is_empty();
                if own {
                    out.push(Input::FolderRecords(path.clone()));
                }
                out.extend(listing.archives.into_iter().map(|(_, p)| Input::Path(p)));
            }
            other => out.push(other.clone()),
        }
    }
    out
}

/// Why `input` cannot be read at all (a path that does not exist or cannot be opened),
/// checked before anything is written; `None` when it can be opened.
pub fn check_openable(input: &Input) -> Option<String> {
    let (Input::Path(path) | Input::FolderRecords(path)) = input else {
        return None;
    };
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) => return Some(format!("{}: {}", path.display(), io_message(&e))),
    };
    let opened = if meta.is_dir() {
        std::fs::read_dir(path).map(drop)
    } else {
        File::open(path).map(drop)
    };
    opened
        .err()
        .map(|e| format!("{}: {}", path.display(), io_message(&e)))
}

/// Read one part of `input` (one of [`parts`]) to its end, as [`read_input`] reads a whole
/// input. An error names the input; entries of other parts are not affected by it.
pub fn read_part(
    input: &Input,
    part: &Part,
    bytes_read: &AtomicU64,
    sink: &mut Sink<'_>,
) -> Result<Format, SourceError> {
    match (&part.0, input) {
        (PartKind::SevenZ(blocks), Input::Path(path)) => {
            let name = input.name();
            let file = File::open(path).map_err(|e| SourceError::new(&name, io_message(&e)))?;
            sevenz::read_part(&name, blocks, Counting::new(file, bytes_read), sink)
                .map(|()| Format::SevenZ)
        }
        _ => read_input(input, bytes_read, sink),
    }
}

/// Read one input to its end, reporting every entry to `sink` in the input's own order
/// (folders in sorted path order, archives in stored order).
///
/// `bytes_read` grows with the bytes taken from the underlying file or stream (compressed
/// bytes for archives), for progress reporting; a folder's files are only named
/// ([`Event::File`]), so whoever reads them counts their bytes.
pub fn read_input(
    input: &Input,
    bytes_read: &AtomicU64,
    sink: &mut Sink<'_>,
) -> Result<Format, SourceError> {
    let name = input.name();
    match input {
        Input::FolderRecords(path) => {
            std::fs::read_dir(path).map_err(|e| SourceError::new(&name, io_message(&e)))?;
            dir::read_dir(path, false, sink);
            Ok(Format::Folder)
        }
        Input::Path(path) => {
            let meta =
                std::fs::metadata(path).map_err(|e| SourceError::new(&name, io_message(&e)))?;
            if meta.is_dir() {
                // Not expanded: its archives are named as skipped, not lost without a word.
                dir::read_dir(path, true, sink);
                return Ok(Format::Folder);
            }
            let mut file = File::open(path).map_err(|e| SourceError::new(&name, io_message(&e)))?;
            if tar::is_plain_tar(&mut file).map_err(|e| SourceError::new(&name, io_message(&e)))? {
                return tar::read_tar_file(&name, file, tar::BLOCK, bytes_read, sink)
                    .map(|()| Format::Tar);
            }
            read_seekable(
                &name,
                file_name(path),
                Counting::new(file, bytes_read),
                sink,
            )
        }
        Input::Stdin => {
            let stdin = stdin::InterruptibleStdin::start()
                .map_err(|e| SourceError::new(&name, io_message(&e)))?;
            tar::read_stream(&name, "-", Counting::new(stdin, bytes_read), sink)
        }
        Input::EmbeddedRecords { files, .. } => {
            for (entry, bytes) in *files {
                bytes_read.fetch_add(bytes.len() as u64, Ordering::Relaxed);
                if !sink(Event::Entry {
                    name: (*entry).to_string(),
                    bytes,
                }) {
                    break;
                }
            }
            Ok(Format::Folder)
        }
        Input::Embedded { name: n, bytes } => read_bytes(&name, n, bytes, bytes_read, sink),
    }
}

/// Read the uncompressed `.tar` file `path` as [`read_input`] does, but in blocks of `block`
/// bytes instead of the scan's 1 MiB: for tests and fuzzing of the blocks' boundaries.
#[doc(hidden)]
pub fn read_tar_file_in_blocks(
    path: &Path,
    block: usize,
    bytes_read: &AtomicU64,
    sink: &mut Sink<'_>,
) -> Result<(), SourceError> {
    let name = path.display().to_string();
    let file = File::open(path).map_err(|e| SourceError::new(&name, io_message(&e)))?;
    tar::read_tar_file(&name, file, block, bytes_read, sink)
}

/// Read the archive or record held in `bytes` as [`read_input`] reads a file named `name`
/// (its type detected from the content, else from the name).
pub fn read_bytes(
    input: &str,
    name: &str,
    bytes: &[u8],
    bytes_read: &AtomicU64,
    sink: &mut Sink<'_>,
) -> Result<Format, SourceError> {
    read_seekable(
        input,
        name.rsplit('/').next().unwrap_or(name),
        Counting::new(io::Cursor::new(bytes), bytes_read),
        sink,
    )
}

/// Detect the format of a seekable input and read it. The first bytes, looked at for the
/// format and then read again from the start, are counted once.
fn read_seekable<R: Read + Seek>(
    input: &str,
    file_name: &str,
    mut r: Counting<'_, R>,
    sink: &mut Sink<'_>,
) -> Result<Format, SourceError> {
    let mut head = Vec::with_capacity(detect::HEAD_LEN);
    r.paused = true;
    (&mut r)
        .take(detect::HEAD_LEN as u64)
        .read_to_end(&mut head)
        .map_err(|e| SourceError::new(input, io_message(&e)))?;
    r.paused = false;
    r.seek(SeekFrom::Start(0))
        .map_err(|e| SourceError::new(input, io_message(&e)))?;
    let format = match detect(&head) {
        Some(f) => f,
        None => match detect::archive_extension(file_name) {
            Some(kind) if head.is_empty() => {
                return Err(SourceError::new(
                    input,
                    format!("empty file, not a {kind} archive"),
                ));
            }
            Some(kind) => {
                return Err(SourceError::new(
                    input,
                    format!("not a {kind} archive (its first bytes match no known container)"),
                ));
            }
            None => Format::Record,
        },
    };
    let read = match format {
        Format::Folder => unreachable_folder(input),
        Format::Record => {
            read_record(file_name, &mut r, sink);
            Ok(Format::Record)
        }
        Format::Tar | Format::Gzip => tar::read_stream(input, file_name, &mut r, sink),
        Format::SevenZ => sevenz::read(input, &mut r, sink).map(|()| Format::SevenZ),
        Format::Zip => zip::read(input, &mut r, sink).map(|()| Format::Zip),
    };
    // An archive read to its end counts its whole length, also the parts its reader went
    // past without reading (a zip member's local header, found through the directory).
    if read.is_ok()
        && let Ok(end) = r.seek(SeekFrom::End(0))
    {
        r.count
            .fetch_add(end.saturating_sub(r.counted), Ordering::Relaxed);
    }
    read
}

fn unreachable_folder(input: &str) -> Result<Format, SourceError> {
    // `detect` never answers `Folder` (a folder has no bytes); keep a typed error, not a panic.
    Err(SourceError::new(
        input,
        "internal: folder detected from file content",
    ))
}

/// A whole file (or decompressed stream) that is one record.
fn read_record<R: Read>(entry: &str, r: R, sink: &mut Sink<'_>) -> bool {
    let name = entry.to_string();
    with_entry(r, |read| match read {
        Ok(bytes) => sink(Event::Entry { name, bytes }),
        Err(reason) => sink(Event::Unreadable { name, reason }),
    })
}

/// Read a record file named by an [`Event::File`]; the reason when it cannot be read.
///
/// The file is read to its end into a buffer this thread keeps, then copied out at its
/// size: no `stat` call for the size and no zeroing of a new buffer per file (a folder of
/// records is tens of thousands of small files).
pub fn read_file(path: &Path) -> Result<Vec<u8>, String> {
    with_file(path, <[u8]>::to_vec)
}

/// Run `f` with this thread's kept read buffer (dropped after use when it grew past
/// [`FILE_BUFFER_KEEP`]).
fn with_file_buffer<T>(f: impl FnOnce(&mut Vec<u8>) -> T) -> T {
    FILE_BUFFER.with(|cell| {
        let mut buf = cell.take();
        let out = f(&mut buf);
        if buf.len() > FILE_BUFFER_KEEP {
            buf = Vec::new();
        }
        cell.set(buf);
        out
    })
}

/// Size of the per-thread file buffer, and the largest one kept after a big file.
const FILE_BUFFER_START: usize = 64 << 10;
const FILE_BUFFER_KEEP: usize = 1 << 20;

thread_local! {
    static FILE_BUFFER: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
}

/// Read `r` to its end into `buf` (grown as needed, never past [`MAX_ENTRY_BYTES`] + 1
/// bytes); the number of bytes read.
pub(crate) fn read_into<R: Read + ?Sized>(r: &mut R, buf: &mut Vec<u8>) -> Result<usize, String> {
    if buf.len() < FILE_BUFFER_START {
        buf.resize(FILE_BUFFER_START, 0);
    }
    let mut n = 0;
    loop {
        if n == buf.len() {
            if n as u64 > MAX_ENTRY_BYTES {
                return Err(too_large());
            }
            let grown = (2 * n).min(MAX_ENTRY_BYTES as usize + 1);
            buf.resize(grown, 0);
        }
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(io_message(&e)),
        }
    }
    Ok(n)
}

/// Run `f` on the bytes of the record file `path` (an [`Event::File`]), read into this
/// thread's kept buffer: no allocation and no copy beyond the read itself.
pub fn with_file<T>(path: &Path, f: impl FnOnce(&[u8]) -> T) -> Result<T, String> {
    let mut file = File::open(path).map_err(|e| io_message(&e))?;
    with_file_buffer(|buf| read_into(&mut file, buf).map(|n| f(&buf[..n])))
}

/// Read one entry fully, refusing entries larger than [`MAX_ENTRY_BYTES`], into this
/// thread's kept buffer, and run `f` on its bytes (or on the reason it could not be read).
/// The entry is read to its end, whatever size its container announced.
fn with_entry<R: Read, T>(mut r: R, f: impl FnOnce(Result<&[u8], String>) -> T) -> T {
    with_file_buffer(|buf| match read_into(&mut r, buf) {
        Ok(n) => f(Ok(&buf[..n])),
        Err(reason) => f(Err(reason)),
    })
}

/// Run `f` on the bytes of an archive member named by an [`Event::Span`], read into this
/// thread's kept buffer; the reason when they cannot all be read (the file was cut short
/// or changed since it was listed) or when the member is larger than [`MAX_ENTRY_BYTES`].
pub fn with_span<T>(
    file: &File,
    offset: u64,
    len: u64,
    f: impl FnOnce(&[u8]) -> T,
) -> Result<T, String> {
    if len > MAX_ENTRY_BYTES {
        return Err(too_large());
    }
    with_file_buffer(|buf| {
        let want = len as usize;
        if buf.len() < want {
            buf.resize(want.max(FILE_BUFFER_START), 0);
        }
        let mut n = 0;
        while n < want {
            match read_at(file, &mut buf[n..want], offset + n as u64) {
                Ok(0) => return Err(format!("truncated: {n} of {len} bytes present")),
                Ok(k) => n += k,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(io_message(&e)),
            }
        }
        Ok(f(&buf[..want]))
    })
}

#[cfg(unix)]
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    std::os::unix::fs::FileExt::read_at(file, buf, offset)
}

#[cfg(windows)]
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    std::os::windows::fs::FileExt::seek_read(file, buf, offset)
}

/// Elsewhere no span is ever handed out ([`tar::is_plain_tar`]).
#[cfg(not(any(unix, windows)))]
fn read_at(_: &File, _: &mut [u8], _: u64) -> io::Result<usize> {
    Err(io::Error::new(
        io::ErrorKind::Unsupported,
        "reading at an offset is not supported here",
    ))
}

fn too_large() -> String {
    format!(
        "entry larger than {} MiB, not a game record",
        MAX_ENTRY_BYTES >> 20
    )
}

/// Is this archive member a record (`*.csa`, any case)?
fn is_record_name(name: &str) -> bool {
    let n = name.as_bytes();
    n.len() > 4 && n[n.len() - 4..].eq_ignore_ascii_case(b".csa")
}

/// Entry names as stored, without a leading `./`.
fn clean_name(name: &str) -> String {
    let mut n = name;
    while let Some(rest) = n.strip_prefix("./") {
        n = rest;
    }
    n.to_string()
}

fn file_name(path: &Path) -> &str {
    path.file_name().and_then(|s| s.to_str()).unwrap_or("")
}

/// An I/O error as a short sentence (the `Display` of `io::Error` without its debug noise).
fn io_message(e: &io::Error) -> String {
    match e.kind() {
        io::ErrorKind::UnexpectedEof => format!("truncated: {e}"),
        _ => e.to_string(),
    }
}

/// Counts the bytes read from the underlying file or stream.
struct Counting<'a, R> {
    inner: R,
    count: &'a AtomicU64,
    /// What this reader added to `count`.
    counted: u64,
    /// Bytes read while set are not counted (an index that several parts read).
    paused: bool,
}

impl<'a, R> Counting<'a, R> {
    fn new(inner: R, count: &'a AtomicU64) -> Self {
        Counting {
            inner,
            count,
            counted: 0,
            paused: false,
        }
    }
}

impl<R: Read> Read for Counting<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if !self.paused {
            self.count.fetch_add(n as u64, Ordering::Relaxed);
            self.counted += n as u64;
        }
        Ok(n)
    }
}

impl<R: Seek> Seek for Counting<'_, R> {
    fn seek(&mut self, pos: SeekFrom) -> io::Result<u64> {
        self.inner.seek(pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that hands out at most `step` bytes a call and is interrupted once.
    struct Trickle<'a> {
        data: &'a [u8],
        step: usize,
        interrupted: bool,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            if !self.interrupted {
                self.interrupted = true;
                return Err(io::Error::new(io::ErrorKind::Interrupted, "signal"));
            }
            let n = self.data.len().min(self.step).min(out.len());
            out[..n].copy_from_slice(&self.data[..n]);
            self.data = &self.data[n..];
            Ok(n)
        }
    }

    /// The bytes `read` counts as read (the progress bar's position), a span's bytes counted
    /// where a worker would read them; and the number of events.
    fn counted(
        read: impl FnOnce(&AtomicU64, &mut Sink<'_>) -> Result<Format, SourceError>,
    ) -> (u64, usize) {
        let count = AtomicU64::new(0);
        let mut events = 0;
        let mut sink = |e: Event<'_>| {
            if let Event::Span { len, .. } = e {
                count.fetch_add(len, Ordering::Relaxed);
            }
            events += 1;
            true
        };
        read(&count, &mut sink).expect("the fixture reads");
        (count.into_inner(), events)
    }

    /// Every archive is counted as read once, byte for byte, from a file or from memory:
    /// the bytes looked at to tell its format are not counted a second time when it is read
    /// from the start, and a zip's local headers, which its reader seeks past, are counted.
    #[test]
    fn every_byte_of_an_archive_is_counted_once() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/synthetic");
        for name in [
            "synthetic.tar",
            "synthetic.tar.gz",
            "synthetic.zip",
            "synthetic.7z",
            "synthetic-blocks.7z",
        ] {
            let path = dir.join(name);
            let bytes = std::fs::read(&path).unwrap();
            let len = bytes.len() as u64;
            let from_file = counted(|c, sink| read_input(&Input::Path(path.clone()), c, sink));
            let in_memory = counted(|c, sink| read_bytes("fixture", name, &bytes, c, sink));
            assert!(from_file.1 > 100, "{name}: {from_file:?}");
            assert_eq!(from_file, (len, from_file.1), "{name}, from the file");
            assert_eq!(in_memory, (len, from_file.1), "{name}, from memory");
        }
    }

    #[test]
    fn files_are_read_whole_through_the_kept_buffer() {
        let data: Vec<u8> = (0..3 * FILE_BUFFER_START + 7)
            .map(|i| (i % 251) as u8)
            .collect();
        let mut buf = Vec::new();
        for len in [
            0,
            1,
            FILE_BUFFER_START - 1,
            FILE_BUFFER_START,
            FILE_BUFFER_START + 1,
            data.len(),
        ] {
            for step in [1 << 20, 4096, 1000] {
                let mut r = Trickle {
                    data: &data[..len],
                    step,
                    interrupted: false,
                };
                let n = read_into(&mut r, &mut buf).unwrap();
                assert_eq!(&buf[..n], &data[..len]);
            }
        }
        // The buffer grew for the largest file and stays (up to FILE_BUFFER_KEEP).
        assert!(buf.len() >= data.len());
        // Entries over the limit are refused, entries at the limit are read.
        let mut big = Vec::new();
        let mut over = io::repeat(b'x').take(MAX_ENTRY_BYTES + 1);
        let e = read_into(&mut over, &mut big).unwrap_err();
        assert!(e.contains("larger than 64 MiB"), "{e}");
        let mut at = io::repeat(b'x').take(MAX_ENTRY_BYTES);
        assert_eq!(
            read_into(&mut at, &mut big).unwrap() as u64,
            MAX_ENTRY_BYTES
        );
        let dir = std::env::temp_dir().join(format!("fs-read-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.csa");
        std::fs::write(&path, &data).unwrap();
        assert_eq!(read_file(&path).unwrap(), data);
        assert!(read_file(&dir.join("missing.csa")).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    fn fixture(name: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/synthetic")
            .join(name)
    }

    /// Every event of reading `input` part by part, parts in order, as (kind, name, bytes).
    fn events(input: &Input, parts: &[Part]) -> Vec<(&'static str, String, Vec<u8>)> {
        let count = AtomicU64::new(0);
        let mut got = Vec::new();
        let mut sink = |e: Event<'_>| {
            got.push(match e {
                Event::Entry { name, bytes } => ("entry", name, bytes.to_vec()),
                Event::File { name, .. } => ("file", name, Vec::new()),
                Event::Span {
                    name,
                    file,
                    offset,
                    len,
                } => (
                    "span",
                    name,
                    with_span(&file, offset, len, <[u8]>::to_vec).unwrap(),
                ),
                Event::Shared { name, bytes } => ("shared", name, bytes.bytes().to_vec()),
                Event::Unreadable { name, reason } => ("unreadable", name, reason.into_bytes()),
                Event::Skipped { name } => ("skipped", name, Vec::new()),
            });
            true
        };
        for part in parts {
            read_part(input, part, &count, &mut sink).unwrap();
        }
        got
    }

    #[test]
    fn a_7z_of_several_blocks_is_read_in_parts_that_together_read_it_whole() {
        // 150 records, 10 to a block: 15 blocks, in runs of about equal size.
        let input = Input::Path(fixture("synthetic-blocks.7z"));
        let split = parts(&input);
        assert!((2..=sevenz::MAX_PARTS).contains(&split.len()), "{split:?}");
        let mut next = 0;
        for (i, part) in split.iter().enumerate() {
            let PartKind::SevenZ(b) = &part.0 else {
                panic!("part {i} is not a run of blocks: {part:?}");
            };
            assert_eq!(b.blocks.start, next, "parts follow each other");
            assert!(b.blocks.end > b.blocks.start);
            assert_eq!(
                b.last,
                i + 1 == split.len(),
                "only the last part ends the archive"
            );
            next = b.blocks.end;
        }
        assert_eq!(next, 15, "every block in a part");
        let whole = [Part(PartKind::Whole)];
        let by_parts = events(&input, &split);
        assert_eq!(by_parts.len(), 150);
        assert_eq!(by_parts, events(&input, &whole));
        // The same entries, byte for byte, as the archive of one solid block.
        let solid = Input::Path(fixture("synthetic.7z"));
        assert_eq!(by_parts, events(&solid, &whole));
        // One block, or no 7z at all: one part, the whole input.
        for name in [
            "synthetic.7z",
            "synthetic.tar",
            "synthetic.zip",
            "records",
            "missing.7z",
        ] {
            assert_eq!(parts(&Input::Path(fixture(name))), whole, "{name}");
        }
    }

    #[test]
    fn a_part_goes_on_past_its_damaged_blocks() {
        // Blocks 3 and 11 damaged, read as one part: each entry a block fails in is
        // reported unreadable in its place, the other blocks are read, the first failure is
        // returned and the second counted in its message.
        let path = fixture("synthetic-blocks.7z");
        let archive =
            sevenz_rust2::Archive::read(&mut File::open(&path).unwrap(), &Default::default())
                .unwrap();
        let start = 32 + archive.pack_pos() as usize;
        let sizes = archive.pack_sizes();
        let mut bytes = std::fs::read(&path).unwrap();
        for k in [3, 11] {
            let at = start + sizes[..k].iter().sum::<u64>() as usize + sizes[k] as usize / 2;
            for b in &mut bytes[at..at + 16] {
                *b ^= 0x5a;
            }
        }
        let dir = std::env::temp_dir().join(format!("fs-damaged-7z-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let damaged = dir.join("d.7z");
        std::fs::write(&damaged, &bytes).unwrap();
        let input = Input::Path(damaged);
        let part = Part(PartKind::SevenZ(sevenz::Blocks::new(0..15, true)));
        let count = AtomicU64::new(0);
        let mut got = Vec::new();
        let mut sink = |e: Event<'_>| {
            got.push(match e {
                Event::Entry { name, .. } => (name, true),
                Event::Unreadable { name, .. } => (name, false),
                other => panic!("{other:?}"),
            });
            true
        };
        let e = read_part(&input, &part, &count, &mut sink).unwrap_err();
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(e.reported, "{e:?}");
        assert!(
            e.message.ends_with(" (and 1 more blocks that failed)"),
            "{e}"
        );
        let block = |name: &str| {
            let i = archive.files.iter().position(|f| f.name() == name).unwrap();
            archive.stream_map.file_block_index[i].unwrap()
        };
        let unreadable: Vec<&String> = got.iter().filter(|g| !g.1).map(|g| &g.0).collect();
        assert_eq!(unreadable.len(), 2, "{got:?}");
        assert_eq!(e.entry.as_ref(), Some(unreadable[0]));
        assert_eq!((block(unreadable[0]), block(unreadable[1])), (3, 11));
        // In archive order, and every entry of the sound blocks delivered.
        let blocks: Vec<usize> = got.iter().map(|g| block(&g.0)).collect();
        assert!(blocks.is_sorted(), "{blocks:?}");
        for b in (0..15).filter(|b| ![3, 11].contains(b)) {
            assert_eq!(blocks.iter().filter(|&&x| x == b).count(), 10, "block {b}");
        }
    }

    #[test]
    fn a_7z_with_a_block_more_than_it_was_planned_for_is_refused() {
        // The archive changed between planning and reading: a clear error, not a panic.
        let input = Input::Path(fixture("synthetic-blocks.7z"));
        let part = Part(PartKind::SevenZ(sevenz::Blocks::new(14..16, true)));
        let count = AtomicU64::new(0);
        let e = read_part(&input, &part, &count, &mut |_| true).unwrap_err();
        assert!(e.to_string().contains("changed while it was read"), "{e}");
    }

    #[test]
    fn record_names() {
        assert!(is_record_name("2024/a.csa"));
        assert!(is_record_name("A.CSA"));
        assert!(!is_record_name(".csa"));
        assert!(!is_record_name("readme.txt"));
        assert_eq!(clean_name("././2024/x.csa"), "2024/x.csa");
    }

    #[test]
    fn error_names_input_and_entry() {
        let mut e = SourceError::new("a.7z", "bad crc");
        assert_eq!(e.to_string(), "a.7z: bad crc");
        e.after = Some("x.csa".into());
        assert_eq!(e.to_string(), "a.7z: after entry x.csa: bad crc");
        e.entry = Some("y.csa".into());
        assert_eq!(e.to_string(), "a.7z: y.csa: bad crc");
    }
}
