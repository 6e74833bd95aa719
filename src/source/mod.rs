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
//! read into its [`ReadBuffer`]), an [`Event::Unreadable`] (with the reason) or an
//! [`Event::Skipped`] (a file inside an archive whose name does not end in `.csa`). A
//! container that breaks part way through keeps the entries already delivered and returns
//! a [`SourceError`] naming the input and the entry where it broke.
//!
//! This file only dispatches an input to the reader of its container. The rest is one
//! concern a file: the inputs ([`Input`], `input.rs`), the events ([`Event`], `event.rs`),
//! the errors (`error.rs`), the memory entries are read into (`buffer.rs`), the byte count
//! (`counting.rs`), entry names (`names.rs`), the parts of an input (`parts.rs`), standard
//! input read so that a signal can end the wait for it (`stdin.rs`), and one file per
//! container.
#![warn(missing_docs)]
mod buffer;
mod bundled;
mod counting;
mod detect;
mod dir;
mod error;
mod event;
mod input;
mod names;
mod parts;
mod sevenz;
mod stdin;
mod tar;
mod zip;

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
#[cfg(fuzzing)]
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

pub use buffer::{MAX_ENTRY_BYTES, ReadBuffer, read_file};
pub use bundled::bundled_inputs;
pub use detect::{Format, detect};
pub use error::{EntryError, SourceError};
pub use event::{Event, SharedBytes, Sink};
pub use input::{Input, check_openable, expand};
pub use parts::{Part, parts, weighed_parts};

use counting::Counting;
use names::file_name;
use parts::PartKind;

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
            let file = File::open(path).map_err(SourceError::io(&name))?;
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
    // The memory this reading decodes archive members into, one after the other.
    let mut buffer = ReadBuffer::default();
    match input {
        Input::FolderRecords(path) => {
            std::fs::read_dir(path).map_err(SourceError::io(&name))?;
            dir::read_dir(path, false, sink);
            Ok(Format::Folder)
        }
        Input::Path(path) => {
            let meta = std::fs::metadata(path).map_err(SourceError::io(&name))?;
            if meta.is_dir() {
                // Not expanded: its archives are named as skipped, not lost without a word.
                dir::read_dir(path, true, sink);
                return Ok(Format::Folder);
            }
            let mut file = File::open(path).map_err(SourceError::io(&name))?;
            if tar::is_plain_tar(&mut file).map_err(SourceError::io(&name))? {
                return tar::read_tar_file(&name, file, tar::BLOCK, bytes_read, sink)
                    .map(|()| Format::Tar);
            }
            read_seekable(
                &name,
                file_name(path),
                Counting::new(file, bytes_read),
                &mut buffer,
                sink,
            )
        }
        Input::Stdin => {
            let stdin = stdin::InterruptibleStdin::start().map_err(SourceError::io(&name))?;
            tar::read_stream(
                &name,
                "-",
                Counting::new(stdin, bytes_read),
                &mut buffer,
                sink,
            )
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
/// bytes instead of the scan's 1 MiB, so that the fuzz target `tar_file` puts the blocks'
/// ends inside headers and records. Built only for fuzzing (`--cfg fuzzing`, which
/// cargo-fuzz sets); the unit tests of `tar` call the reader with small blocks directly.
#[cfg(fuzzing)]
pub fn read_tar_file_in_blocks(
    path: &Path,
    block: usize,
    bytes_read: &AtomicU64,
    sink: &mut Sink<'_>,
) -> Result<(), SourceError> {
    let name = path.display().to_string();
    let file = File::open(path).map_err(SourceError::io(&name))?;
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
        &mut ReadBuffer::default(),
        sink,
    )
}

/// Detect the format of a seekable input and read it. The first bytes, looked at for the
/// format and then read again from the start, are counted once.
fn read_seekable<R: Read + Seek>(
    input: &str,
    file_name: &str,
    mut r: Counting<'_, R>,
    buffer: &mut ReadBuffer,
    sink: &mut Sink<'_>,
) -> Result<Format, SourceError> {
    let mut head = Vec::with_capacity(detect::HEAD_LEN);
    r.paused = true;
    (&mut r)
        .take(detect::HEAD_LEN as u64)
        .read_to_end(&mut head)
        .map_err(SourceError::io(input))?;
    r.paused = false;
    r.seek(SeekFrom::Start(0)).map_err(SourceError::io(input))?;
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
            read_record(file_name, &mut r, buffer, sink);
            Ok(Format::Record)
        }
        Format::Tar | Format::Gzip => tar::read_stream(input, file_name, &mut r, buffer, sink),
        Format::SevenZ => sevenz::read(input, &mut r, sink).map(|()| Format::SevenZ),
        Format::Zip => zip::read(input, &mut r, buffer, sink).map(|()| Format::Zip),
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
pub(super) fn read_record<R: Read>(
    entry: &str,
    r: R,
    buffer: &mut ReadBuffer,
    sink: &mut Sink<'_>,
) -> bool {
    let name = entry.to_string();
    buffer.read_entry(r, |read| match read {
        Ok(bytes) => sink(Event::Entry { name, bytes }),
        Err(e) => sink(Event::Unreadable {
            name,
            reason: e.to_string(),
        }),
    })
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::*;

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

    fn fixture(name: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/synthetic")
            .join(name)
    }

    /// Every event of reading `input` part by part, parts in order, as (kind, name, bytes).
    fn events(input: &Input, parts: &[Part]) -> Vec<(&'static str, String, Vec<u8>)> {
        let count = AtomicU64::new(0);
        let mut buffer = ReadBuffer::default();
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
                    buffer
                        .with_span(&file, offset, len, <[u8]>::to_vec)
                        .unwrap(),
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
        let part = Part(PartKind::SevenZ(sevenz::BlockRun::new(0..15, true)));
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
        let part = Part(PartKind::SevenZ(sevenz::BlockRun::new(14..16, true)));
        let count = AtomicU64::new(0);
        let e = read_part(&input, &part, &count, &mut |_| true).unwrap_err();
        assert!(e.to_string().contains("changed while it was read"), "{e}");
    }
}
