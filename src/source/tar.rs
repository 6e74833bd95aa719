//! Tar archives and gzip streams, read front to back without seeking: `.tar`, `.tar.gz`,
//! `.tgz`, a gzip-compressed single record, and the tar stream on standard input.
use std::cell::RefCell;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Cursor, Read, Seek, SeekFrom};
use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use flate2::read::MultiGzDecoder;

use super::buffer::{ReadBuffer, read_at};
use super::detect::{HEAD_LEN, detect, looks_like_tar};
use super::error::{EntryError, SourceError};
use super::event::{Event, SharedBytes, Sink};
use super::names::{clean_name, is_record_name};
use super::{Format, read_record};

/// Read up to [`HEAD_LEN`] bytes and give them back in front of the rest of the stream.
type Peeked<R> = (Vec<u8>, io::Chain<Cursor<Vec<u8>>, R>);

fn peek<R: Read>(mut r: R) -> io::Result<Peeked<R>> {
    let mut head = Vec::with_capacity(HEAD_LEN);
    (&mut r).take(HEAD_LEN as u64).read_to_end(&mut head)?;
    Ok((head.clone(), Cursor::new(head).chain(r)))
}

/// Read a stream holding a tar archive, a gzip-compressed tar archive, or one
/// gzip-compressed record (`file_name` minus `.gz` names that record).
pub fn read_stream<R: Read>(
    input: &str,
    file_name: &str,
    r: R,
    buffer: &mut ReadBuffer,
    sink: &mut Sink<'_>,
) -> Result<Format, SourceError> {
    let err = |message: String| SourceError::new(input, message);
    let (head, r) = peek(r).map_err(SourceError::io(input))?;
    if head.starts_with(&[0x1f, 0x8b]) {
        let (inner, gz) = peek(MultiGzDecoder::new(r))
            .map_err(|e| err(format!("gzip: {}", EntryError::from(e))))?;
        if looks_like_tar(&inner) {
            read_tar(input, gz, buffer, sink)?;
        } else {
            let name = file_name
                .strip_suffix(".gz")
                .or_else(|| file_name.strip_suffix(".GZ"))
                .unwrap_or(file_name);
            read_record(name, gz, buffer, sink);
        }
        Ok(Format::Gzip)
    } else if looks_like_tar(&head) {
        read_tar(input, r, buffer, sink)?;
        Ok(Format::Tar)
    } else if let Some(f @ (Format::SevenZ | Format::Zip)) = super::detect(&head) {
        Err(err(format!(
            "a {} archive needs random access: give its path instead of a stream",
            f.name()
        )))
    } else if head.is_empty() {
        Err(err("empty stream, not a tar archive".into()))
    } else {
        Err(err(
            "not a tar archive (its first bytes match no tar or gzip header)".into(),
        ))
    }
}

/// A buffered stream that "seeks" forward by consuming its buffer. The tar reader asks
/// for one 512-byte header at a time (hence the buffer) and skips each entry's padding:
/// given a seekable stream it seeks, otherwise it reads the padding through a 32 KiB
/// scratch buffer that it zeroes for every entry, a large share of a scan's work
/// (`reports/bench-scan-history.md`).
struct SkipForward<R> {
    inner: BufReader<R>,
    /// Bytes consumed since the start of the stream.
    pos: u64,
}

impl<R: Read> Read for SkipForward<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.pos += n as u64;
        Ok(n)
    }
}

impl<R: Read> Seek for SkipForward<R> {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let target = forward_target(self.pos, to)?;
        while self.pos < target {
            let buf = self.inner.fill_buf()?;
            if buf.is_empty() {
                return Err(ends_inside_an_entry());
            }
            let n = buf
                .len()
                .min(usize::try_from(target - self.pos).unwrap_or(usize::MAX));
            self.inner.consume(n);
            self.pos += n as u64;
        }
        Ok(self.pos)
    }
}

/// Where a seek from `pos` lands: the tar reader only ever skips forward.
fn forward_target(pos: u64, to: SeekFrom) -> io::Result<u64> {
    match to {
        SeekFrom::Current(d) if d >= 0 => Ok(pos.saturating_add(d as u64)),
        SeekFrom::Start(p) if p >= pos => Ok(p),
        _ => Err(io::Error::new(
            io::ErrorKind::Unsupported,
            "a stream cannot seek backwards",
        )),
    }
}

/// A skip past the end of the archive.
fn ends_inside_an_entry() -> io::Error {
    io::Error::new(
        io::ErrorKind::UnexpectedEof,
        "the archive ends inside an entry",
    )
}

fn read_tar<R: Read>(
    input: &str,
    r: R,
    buffer: &mut ReadBuffer,
    sink: &mut Sink<'_>,
) -> Result<(), SourceError> {
    let mut archive = tar::Archive::new(SkipForward {
        inner: BufReader::with_capacity(1 << 18, r),
        pos: 0,
    });
    let ControlFlow::Continue(last) =
        each_entry(input, &mut archive, sink, |entry, name, sink| {
            let size = entry.size();
            buffer.read_entry(entry, |read| match read {
                Ok(bytes) if (bytes.len() as u64) < size => {
                    Err(cut_short(bytes.len() as u64, size))
                }
                Ok(bytes) => Ok(sink(Event::Entry { name, bytes })),
                Err(reason) => Err(reason),
            })
        })?
    else {
        return Ok(());
    };
    // Read what follows the end-of-archive blocks so that a gzip trailer (CRC, length) is
    // checked too.
    io::copy(&mut archive.into_inner(), &mut io::sink())
        .map_err(|e| SourceError::at(input, None, last, EntryError::from(e).to_string()))?;
    Ok(())
}

/// The archive ended inside a record: nothing after it can be read.
fn cut_short(present: u64, size: u64) -> EntryError {
    EntryError::Truncated { present, size }
}

/// Go through the entries of a tar archive: folders and extension headers passed over,
/// members that are not records reported as skipped, and each record given to `record`
/// (with its name), which tells whether to go on or why the archive cannot be read past
/// it. Stops early (`Break`) when the sink wants no more; at the end of the archive, the
/// name of the last entry reported.
fn each_entry<R: Read + Seek>(
    input: &str,
    archive: &mut tar::Archive<R>,
    sink: &mut Sink<'_>,
    mut record: impl FnMut(tar::Entry<'_, R>, String, &mut Sink<'_>) -> Result<bool, EntryError>,
) -> Result<ControlFlow<(), Option<String>>, SourceError> {
    let mut last: Option<String> = None;
    let fail = |entry: Option<String>, after: &Option<String>, message: String| {
        let after = if entry.is_none() { after.clone() } else { None };
        SourceError::at(input, entry, after, message)
    };
    let entries = archive
        .entries_with_seek()
        .map_err(|e| fail(None, &None, EntryError::from(e).to_string()))?;
    for entry in entries {
        let entry = entry.map_err(|e| {
            fail(
                None,
                &last,
                format!("bad tar header: {}", EntryError::from(e)),
            )
        })?;
        let name = clean_name(&crate::csa::utf8_lossy(&entry.path_bytes()));
        let kind = entry.header().entry_type();
        if kind.is_dir() || kind.is_pax_global_extensions() || kind.is_pax_local_extensions() {
            continue;
        }
        if !kind.is_file() || !is_record_name(&name) {
            if !sink(Event::Skipped { name: name.clone() }) {
                return Ok(ControlFlow::Break(()));
            }
            last = Some(name);
            continue;
        }
        let going = record(entry, name.clone(), sink)
            .map_err(|reason| fail(Some(name.clone()), &last, reason.to_string()))?;
        if !going {
            return Ok(ControlFlow::Break(()));
        }
        last = Some(name);
    }
    Ok(ControlFlow::Continue(last))
}

/// Is `file` a regular file holding an uncompressed tar archive, one whose records can
/// be read where they lie ([`read_tar_file`])? Leaves the file at its start.
pub fn is_plain_tar(file: &mut File) -> io::Result<bool> {
    if !cfg!(any(unix, windows)) || !file.metadata()?.is_file() {
        return Ok(false);
    }
    let mut head = Vec::with_capacity(HEAD_LEN);
    file.take(HEAD_LEN as u64).read_to_end(&mut head)?;
    file.seek(SeekFrom::Start(0))?;
    Ok(detect(&head) == Some(Format::Tar))
}

/// An uncompressed tar file on disk, read as [`read_tar`] reads a stream, except that it is
/// read in blocks of `block` bytes, one positional read each, and its records are not
/// copied out of them: each is reported as an [`Event::Shared`], a range of the block the
/// workers then share. A record larger than a block (no real game record is) is reported
/// as an [`Event::Span`] instead, for whoever analyses it to read where it lies. So the
/// archive is copied from the kernel once, one read a block, where reading each header and
/// each record where it lies took two reads a record.
///
/// `block` is the size of a block: [`BLOCK`] for a scan, smaller in tests (at least 1).
pub fn read_tar_file(
    input: &str,
    file: File,
    block: usize,
    bytes_read: &AtomicU64,
    sink: &mut Sink<'_>,
) -> Result<(), SourceError> {
    let block = block.max(1);
    let len = file.metadata().map_err(SourceError::io(input))?.len();
    let file = Arc::new(file);
    let blocks = RefCell::new(BlockCache::new(&file, len, block));
    let mut archive = tar::Archive::new(BlockReader(&blocks));
    // Bytes of the archive accounted for: counted here, or handed out in a span.
    let mut counted = 0u64;
    let read = each_entry(input, &mut archive, sink, |entry, name, sink| {
        let (offset, size) = (entry.raw_file_position(), entry.size());
        if offset.saturating_add(size) > len {
            return Err(cut_short(len.saturating_sub(offset), size));
        }
        // A span's own bytes are counted by whoever reads it; the rest, here.
        let (event, counted_to) = if size > block as u64 {
            let span = Event::Span {
                name,
                file: Arc::clone(&file),
                offset,
                len: size,
            };
            (span, offset)
        } else {
            let bytes = blocks.borrow_mut().record(offset, size)?;
            (Event::Shared { name, bytes }, offset + size)
        };
        bytes_read.fetch_add(counted_to.saturating_sub(counted), Ordering::Relaxed);
        counted = offset + size;
        Ok(sink(event))
    })?;
    if read.is_continue() {
        bytes_read.fetch_add(len.saturating_sub(counted), Ordering::Relaxed);
    }
    Ok(())
}

/// Bytes of a `.tar` file read at a time by a scan.
pub const BLOCK: usize = 1 << 20;

/// Blocks kept for reuse once every record read from them has been analysed.
const BLOCKS_KEPT: usize = 16;

/// The block of a tar file in memory, and blocks to fill again. The tar reader's header
/// reads and the records are served from the block; a position outside it loads the block
/// that starts there.
struct BlockCache<'a> {
    file: &'a File,
    /// The file's length when the reading began: seeks past it fail as a stream's do
    /// ([`SkipForward`]), so that an archive cut inside an entry's padding is cut short.
    len: u64,
    /// The tar reader's position.
    pos: u64,
    /// The block, `filled` bytes of the file from `start`.
    block: Arc<[u8]>,
    start: u64,
    filled: usize,
    /// Blocks handed out with records: each is filled again once no record holds it.
    spare: Vec<Arc<[u8]>>,
    /// Bytes of a block.
    size: usize,
}

impl<'a> BlockCache<'a> {
    fn new(file: &'a File, len: u64, size: usize) -> BlockCache<'a> {
        BlockCache {
            file,
            len,
            size,
            pos: 0,
            block: Arc::from(Vec::new()),
            start: 0,
            filled: 0,
            spare: Vec::new(),
        }
    }

    /// Whether the block holds the `n` bytes at `at`.
    fn holds(&self, at: u64, n: u64) -> bool {
        at >= self.start && at.saturating_add(n) <= self.start + self.filled as u64
    }

    /// Make the block the file's bytes from `at` (fewer at the end of the file), in a block
    /// no record holds any more.
    fn load(&mut self, at: u64) -> io::Result<()> {
        let mut block = std::mem::replace(&mut self.block, Arc::from(Vec::new()));
        if Arc::get_mut(&mut block).is_none_or(|b| b.len() != self.size) {
            if block.len() == self.size && self.spare.len() < BLOCKS_KEPT {
                self.spare.push(block);
            }
            block = match self.spare.iter().position(|b| Arc::strong_count(b) == 1) {
                Some(i) => self.spare.swap_remove(i),
                None => Arc::from(Vec::new()),
            };
        }
        self.filled = 0;
        let filled = match Arc::get_mut(&mut block) {
            Some(buf) if buf.len() == self.size => self.fill(buf, at),
            // No block to fill again: a new one.
            _ => {
                let mut buf = vec![0; self.size];
                let filled = self.fill(&mut buf, at);
                block = Arc::from(buf);
                filled
            }
        };
        self.block = block;
        self.start = at;
        self.filled = filled?;
        Ok(())
    }

    /// Read the file's bytes from `at` into `buf`, up to its end: how many there were.
    fn fill(&self, buf: &mut [u8], at: u64) -> io::Result<usize> {
        let mut n = 0;
        while n < buf.len() {
            match read_at(self.file, &mut buf[n..], at + n as u64) {
                Ok(0) => break,
                Ok(k) => n += k,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(n)
    }

    /// The record of `size` bytes at `offset` (at most a block), shared with the block.
    fn record(&mut self, offset: u64, size: u64) -> Result<SharedBytes, EntryError> {
        if !self.holds(offset, size) {
            self.load(offset)?;
            if !self.holds(offset, size) {
                // The file is shorter than when the reading began.
                let present = (self.start + self.filled as u64).saturating_sub(offset);
                return Err(cut_short(present, size));
            }
        }
        // Inside the block's `filled` bytes, as just checked.
        let start = (offset - self.start) as usize;
        Ok(SharedBytes::new(
            Arc::clone(&self.block),
            start..start + size as usize,
        ))
    }
}

/// The tar reader's view of [`BlockCache`]: reads served from the block, seeks forward only.
struct BlockReader<'b, 'a>(&'b RefCell<BlockCache<'a>>);

impl Read for BlockReader<'_, '_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut b = self.0.borrow_mut();
        let pos = b.pos;
        if pos >= b.len || buf.is_empty() {
            return Ok(0);
        }
        if !b.holds(pos, 1) {
            b.load(pos)?;
        }
        let from = (pos - b.start) as usize;
        let n = buf.len().min(b.filled - from);
        buf[..n].copy_from_slice(&b.block[from..from + n]);
        b.pos += n as u64;
        Ok(n)
    }
}

impl Seek for BlockReader<'_, '_> {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let mut b = self.0.borrow_mut();
        let target = forward_target(b.pos, to)?;
        if target > b.len {
            return Err(ends_inside_an_entry());
        }
        b.pos = target;
        Ok(target)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn forward(bytes: &[u8], capacity: usize) -> SkipForward<&[u8]> {
        SkipForward {
            inner: BufReader::with_capacity(capacity, bytes),
            pos: 0,
        }
    }

    #[test]
    fn forward_skips_like_reading_and_tracks_the_position() {
        let data: Vec<u8> = (0..=255u8).cycle().take(5000).collect();
        // A buffer smaller than the skips, so that skipping refills it.
        let mut f = forward(&data, 64);
        let mut b = [0u8; 3];
        f.read_exact(&mut b).unwrap();
        assert_eq!(f.seek(SeekFrom::Current(1000)).unwrap(), 1003);
        f.read_exact(&mut b).unwrap();
        assert_eq!(b, [data[1003], data[1004], data[1005]]);
        assert_eq!(f.stream_position().unwrap(), 1006);
        assert_eq!(f.seek(SeekFrom::Start(4000)).unwrap(), 4000);
        f.read_exact(&mut b).unwrap();
        assert_eq!(b, [data[4000], data[4001], data[4002]]);
        assert_eq!(
            f.seek(SeekFrom::Start(10)).unwrap_err().kind(),
            io::ErrorKind::Unsupported
        );
        assert_eq!(
            f.seek(SeekFrom::Current(-1)).unwrap_err().kind(),
            io::ErrorKind::Unsupported
        );
        let e = f.seek(SeekFrom::Current(2000)).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::UnexpectedEof);
        assert_eq!(f.pos, 5000);
    }

    #[test]
    fn entries_after_padded_ones_are_read_whole() {
        // Entries whose sizes are not multiples of 512 leave padding to skip.
        let mut builder = tar::Builder::new(Vec::new());
        let bodies: Vec<Vec<u8>> = (0..6)
            .map(|i| format!("V2\n'entry {i}\n").repeat(10 + 37 * i).into_bytes())
            .collect();
        for (i, body) in bodies.iter().enumerate() {
            let mut h = tar::Header::new_gnu();
            h.set_size(body.len() as u64);
            h.set_mode(0o644);
            h.set_cksum();
            builder
                .append_data(&mut h, format!("d/{i}.csa"), body.as_slice())
                .unwrap();
        }
        let tar = builder.into_inner().unwrap();
        let mut got = Vec::new();
        let mut sink = |e: Event| {
            if let Event::Entry { name, bytes } = e {
                got.push((name, bytes.to_vec()));
            }
            true
        };
        let mut buffer = ReadBuffer::default();
        read_stream("t.tar", "t.tar", tar.as_slice(), &mut buffer, &mut sink).unwrap();
        assert_eq!(got.len(), bodies.len());
        for (i, (name, bytes)) in got.iter().enumerate() {
            assert_eq!(name, &format!("d/{i}.csa"));
            assert_eq!(bytes, &bodies[i]);
        }
    }

    /// A tar of record members (some padded, one under a name too long for the header, one
    /// empty), a folder, a non-record file, a symbolic link and a hard link.
    fn sample_tar() -> Vec<u8> {
        let mut builder = tar::Builder::new(Vec::new());
        let mut dir = tar::Header::new_gnu();
        dir.set_entry_type(tar::EntryType::Directory);
        dir.set_size(0);
        dir.set_mode(0o755);
        dir.set_cksum();
        builder.append_data(&mut dir, "d/", io::empty()).unwrap();
        let long = format!("d/{}/long.csa", "x".repeat(120));
        let names: Vec<String> = (0..5)
            .map(|i| format!("d/{i}.csa"))
            .chain([long, "d/notes.txt".into(), "d/empty.csa".into()])
            .collect();
        for (i, name) in names.iter().enumerate() {
            let body = if name.ends_with("empty.csa") {
                Vec::new()
            } else {
                format!("V2\n'entry {i}\n").repeat(3 + 41 * i).into_bytes()
            };
            let mut h = tar::Header::new_gnu();
            h.set_size(body.len() as u64);
            h.set_mode(0o644);
            h.set_cksum();
            builder.append_data(&mut h, name, body.as_slice()).unwrap();
        }
        // A symbolic link, then a hard link: what `tar` stores for a second name of a file
        // already in the archive, a header naming the first, no content.
        for (kind, mode, name, target) in [
            (tar::EntryType::Symlink, 0o777, "d/link.csa", "0.csa"),
            (tar::EntryType::Link, 0o644, "d/again.csa", "d/1.csa"),
        ] {
            let mut link = tar::Header::new_gnu();
            link.set_entry_type(kind);
            link.set_size(0);
            link.set_mode(mode);
            builder.append_link(&mut link, name, target).unwrap();
        }
        builder.into_inner().unwrap()
    }

    /// What reading `bytes` gives: every event as (kind, name, bytes or reason; a span's
    /// bytes read where it points), the bytes counted as read, and the error's parts.
    type Outcome = (
        Vec<(&'static str, String, Vec<u8>)>,
        u64,
        Option<(Option<String>, Option<String>, String)>,
    );

    fn outcome(read: impl FnOnce(&AtomicU64, &mut Sink<'_>) -> Result<(), SourceError>) -> Outcome {
        let counted = AtomicU64::new(0);
        let mut buffer = ReadBuffer::default();
        let mut got = Vec::new();
        let mut sink = |e: Event<'_>| {
            if let Event::Span { len, .. } = e {
                counted.fetch_add(len, Ordering::Relaxed);
            }
            got.push(match (e.with_record(&mut buffer, <[u8]>::to_vec), &e) {
                (Some(Ok(bytes)), _) => ("entry", e.name().to_string(), bytes),
                (Some(Err(reason)), Event::Unreadable { .. }) => (
                    "unreadable",
                    e.name().to_string(),
                    reason.to_string().into_bytes(),
                ),
                (Some(Err(reason)), _) => panic!("{}: {reason}", e.name()),
                (None, _) => ("skipped", e.name().to_string(), Vec::new()),
            });
            true
        };
        let error = read(&counted, &mut sink)
            .err()
            .map(|e| (e.entry, e.after, e.message));
        (got, counted.into_inner(), error)
    }

    /// A tar file read where its records lie gives the events, the errors and the byte count
    /// that the same bytes read as a stream give: whole, and cut at every 512-byte block
    /// and inside headers, records and padding.
    #[test]
    fn a_tar_file_read_in_place_reads_like_the_stream() {
        let tar = sample_tar();
        let dir = std::env::temp_dir().join(format!("fs-tar-spans-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.tar");
        let mut cuts: Vec<usize> = (0..=tar.len()).step_by(512).collect();
        cuts.extend((0..tar.len()).step_by(97));
        cuts.push(tar.len());
        let mut whole = None;
        let mut messages = Vec::new();
        for cut in cuts {
            let bytes = &tar[..cut];
            let stream = outcome(|counted, sink| {
                read_tar(
                    "t.tar",
                    super::super::counting::Counting::new(bytes, counted),
                    &mut ReadBuffer::default(),
                    sink,
                )
            });
            std::fs::write(&path, bytes).unwrap();
            let mut file = File::open(&path).unwrap();
            if cut < HEAD_LEN.min(tar.len()) && !is_plain_tar(&mut file).unwrap() {
                // Too short to be recognised as a tar file: not read in place at all.
                continue;
            }
            assert!(is_plain_tar(&mut file).unwrap(), "cut {cut}");
            // Also in blocks smaller than the archive's headers and records.
            for block in [700, 1300] {
                let file = File::open(&path).unwrap();
                let small =
                    outcome(|counted, sink| read_tar_file("t.tar", file, block, counted, sink));
                assert_eq!(small.0, stream.0, "events, blocks of {block}, cut at {cut}");
                assert_eq!(small.2, stream.2, "error, blocks of {block}, cut at {cut}");
                if small.2.is_none() {
                    assert_eq!(
                        small.1, cut as u64,
                        "counted, blocks of {block}, cut at {cut}"
                    );
                }
            }
            let in_place =
                outcome(|counted, sink| read_tar_file("t.tar", file, BLOCK, counted, sink));
            assert_eq!(in_place.0, stream.0, "events, cut at {cut}");
            assert_eq!(in_place.2, stream.2, "error, cut at {cut}");
            match &in_place.2 {
                None => assert_eq!(in_place.1, cut as u64, "every byte counted, cut at {cut}"),
                Some((_, _, message)) => messages.push(message.clone()),
            }
            if cut == tar.len() {
                whole = Some(in_place);
            }
        }
        // The cuts fell inside a record, inside a header, and inside a record's padding.
        for kind in [
            "bytes present",
            "bad tar header",
            "the archive ends inside an entry",
        ] {
            assert!(
                messages.iter().any(|m| m.contains(kind)),
                "{kind}: {messages:?}"
            );
        }
        let (events, _, error) = whole.unwrap();
        assert_eq!(error, None);
        let kinds: Vec<(&str, &str)> = events.iter().map(|(k, n, _)| (*k, n.as_str())).collect();
        assert_eq!(kinds.len(), 10, "{kinds:?}");
        assert!(kinds[..5].iter().all(|(k, _)| *k == "entry"), "{kinds:?}");
        assert!(
            kinds[5].1.ends_with("/long.csa") && kinds[5].1.len() > 120,
            "{kinds:?}"
        );
        assert_eq!(kinds[6], ("skipped", "d/notes.txt"));
        assert_eq!(kinds[7], ("entry", "d/empty.csa"));
        assert_eq!(kinds[8], ("skipped", "d/link.csa"));
        assert_eq!(kinds[9], ("skipped", "d/again.csa"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A tar file of several blocks: records cut by a block's end are read whole from the
    /// next block, a record larger than a block is left where it lies (a span), and a block
    /// is filled again only once no record read from it is held (here records of the first
    /// blocks are held to the end, the others for the next 40 records). With the scan's
    /// blocks, and with blocks smaller than a header (so that headers, too, are cut).
    #[test]
    fn records_across_blocks_read_whole_and_held_ones_stay_intact() {
        for block in [BLOCK, 5000, 700, 300] {
            records_across_blocks(block);
        }
    }

    /// A tar archive of 300 records sized for blocks of `block` bytes, and their bodies.
    fn tar_of_records(block: usize) -> (Vec<u8>, Vec<Vec<u8>>) {
        let mut builder = tar::Builder::new(Vec::new());
        let mut bodies = Vec::new();
        for i in 0..300usize {
            // Sizes that fall on every alignment to the blocks, and one outsized record.
            let len = if i == 150 {
                block + 1000
            } else {
                block / 300 + (i * 7919) % (block / 20)
            };
            let body: Vec<u8> = (0..len).map(|k| b'a' + ((k + i) % 26) as u8).collect();
            let mut h = tar::Header::new_gnu();
            h.set_size(len as u64);
            h.set_mode(0o644);
            h.set_cksum();
            builder
                .append_data(&mut h, format!("d/{i}.csa"), body.as_slice())
                .unwrap();
            bodies.push(body);
        }
        (builder.into_inner().unwrap(), bodies)
    }

    /// Read the archive of [`tar_of_records`] in blocks of `block` bytes and check each record.
    fn records_across_blocks(block: usize) {
        let (tar, bodies) = tar_of_records(block);
        let dir =
            std::env::temp_dir().join(format!("fs-tar-blocks-{}-{block}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.tar");
        std::fs::write(&path, &tar).unwrap();

        let counted = AtomicU64::new(0);
        let mut buffer = ReadBuffer::default();
        let (mut shared, mut spans, mut held) = (0, 0, Vec::new());
        // The last records read, held a while as the records waiting for the workers are.
        let mut recent = std::collections::VecDeque::new();
        let mut got = Vec::new();
        let mut sink = |e: Event<'_>| {
            match &e {
                Event::Shared { name, bytes } => {
                    shared += 1;
                    // Held: records of the first blocks; the later blocks are filled again.
                    if shared % 3 == 0 && shared < 150 {
                        held.push((name.clone(), bytes.clone()));
                    }
                    recent.push_back(bytes.clone());
                    if recent.len() > 40 {
                        recent.pop_front();
                    }
                }
                Event::Span { len, .. } => {
                    spans += 1;
                    counted.fetch_add(*len, Ordering::Relaxed);
                }
                other => panic!("{other:?}"),
            }
            let bytes = e.with_record(&mut buffer, <[u8]>::to_vec).unwrap().unwrap();
            got.push((e.name().to_string(), bytes));
            true
        };
        let file = File::open(&path).unwrap();
        read_tar_file("t.tar", file, block, &counted, &mut sink).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();

        assert!(tar.len() > 7 * block, "block {block}: {}", tar.len());
        assert_eq!(
            counted.into_inner(),
            tar.len() as u64,
            "block {block}: every byte counted once"
        );
        assert_eq!((spans, shared), (1, bodies.len() - 1), "block {block}");
        assert_eq!(got.len(), bodies.len());
        for (k, (name, bytes)) in got.iter().enumerate() {
            assert_eq!(name, &format!("d/{k}.csa"));
            assert!(bytes == &bodies[k], "block {block}: record {k}");
        }
        assert_eq!(held.len(), 49);
        for (name, bytes) in &held {
            let k: usize = name[2..name.len() - 4].parse().unwrap();
            assert!(
                bytes.bytes() == bodies[k].as_slice(),
                "block {block}: held record {k}"
            );
        }
    }

    /// A record read where it lies fails with a reason, never short, when the file no longer
    /// holds it (cut after it was listed), and is refused past the size limit.
    #[test]
    fn a_span_past_the_end_of_its_file_is_truncated() {
        let dir = std::env::temp_dir().join(format!("fs-tar-span-cut-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.tar");
        std::fs::write(&path, vec![7u8; 3000]).unwrap();
        let file = File::open(&path).unwrap();
        let mut buffer = ReadBuffer::default();
        let mut span = |offset, len| buffer.with_span(&file, offset, len, <[u8]>::to_vec);
        assert_eq!(span(1000, 2000).unwrap(), vec![7u8; 2000]);
        assert_eq!(
            span(1000, 2500).unwrap_err().to_string(),
            "truncated: 2000 of 2500 bytes present"
        );
        assert_eq!(
            span(5000, 1).unwrap_err().to_string(),
            "truncated: 0 of 1 bytes present"
        );
        let e = span(0, super::super::MAX_ENTRY_BYTES + 1).unwrap_err();
        assert_eq!(e, EntryError::TooLarge);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
