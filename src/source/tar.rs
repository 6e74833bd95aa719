//! Tar archives and gzip streams: `.tar`, `.tar.gz`, `.tgz`, a gzip-compressed single
//! record, and the tar stream on standard input, read front to back without seeking; and
//! a plain `.tar` file on disk, whose headers are read here while its records are read
//! by whoever analyses them ([`read_file`]).
use std::fs::File;
use std::io::{self, BufRead, BufReader, Cursor, Read, Seek, SeekFrom};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use flate2::read::MultiGzDecoder;

use super::detect::{HEAD_LEN, looks_like_tar};
use super::{
    Event, Format, MAX_ENTRY_BYTES, Sink, SourceError, clean_name, io_message, is_record_name,
    read_entry, read_record,
};

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
    sink: &mut Sink<'_>,
) -> Result<Format, SourceError> {
    let err = |message: String| SourceError {
        input: input.to_string(),
        entry: None,
        after: None,
        message,
    };
    let (head, r) = peek(r).map_err(|e| err(io_message(&e)))?;
    if head.starts_with(&[0x1f, 0x8b]) {
        let (inner, gz) =
            peek(MultiGzDecoder::new(r)).map_err(|e| err(format!("gzip: {}", io_message(&e))))?;
        if looks_like_tar(&inner) {
            read_tar(input, gz, sink)?;
        } else {
            let name = file_name
                .strip_suffix(".gz")
                .or_else(|| file_name.strip_suffix(".GZ"))
                .unwrap_or(file_name);
            read_record(name, gz, sink);
        }
        Ok(Format::Gzip)
    } else if looks_like_tar(&head) {
        read_tar(input, r, sink)?;
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
/// scratch buffer that it zeroes for every entry (about a tenth of a scan's instructions).
struct Forward<R> {
    inner: BufReader<R>,
    /// Bytes consumed since the start of the stream.
    pos: u64,
}

impl<R: Read> Read for Forward<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.pos += n as u64;
        Ok(n)
    }
}

impl<R: Read> Seek for Forward<R> {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let target = match to {
            SeekFrom::Current(d) if d >= 0 => self.pos.saturating_add(d as u64),
            SeekFrom::Start(p) if p >= self.pos => p,
            _ => {
                return Err(io::Error::new(
                    io::ErrorKind::Unsupported,
                    "a stream cannot seek backwards",
                ));
            }
        };
        while self.pos < target {
            let buf = self.inner.fill_buf()?;
            if buf.is_empty() {
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "the archive ends inside an entry",
                ));
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

fn read_tar<R: Read>(input: &str, r: R, sink: &mut Sink<'_>) -> Result<(), SourceError> {
    let mut archive = tar::Archive::new(Forward {
        inner: BufReader::with_capacity(1 << 18, r),
        pos: 0,
    });
    let mut last: Option<String> = None;
    let fail = |entry: Option<String>, after: &Option<String>, message: String| SourceError {
        input: input.to_string(),
        after: if entry.is_none() { after.clone() } else { None },
        entry,
        message,
    };
    let entries = archive
        .entries_with_seek()
        .map_err(|e| fail(None, &None, io_message(&e)))?;
    for entry in entries {
        let entry =
            entry.map_err(|e| fail(None, &last, format!("bad tar header: {}", io_message(&e))))?;
        let name = clean_name(&crate::csa::lossy(&entry.path_bytes()));
        let kind = entry.header().entry_type();
        if kind.is_dir() || kind.is_pax_global_extensions() || kind.is_pax_local_extensions() {
            continue;
        }
        if !kind.is_file() || !is_record_name(&name) {
            if !sink(Event::Skipped { name: name.clone() }) {
                return Ok(());
            }
            last = Some(name);
            continue;
        }
        let size = entry.size();
        let event = match read_entry(entry) {
            Ok(bytes) if (bytes.len() as u64) < size => {
                // The archive ended inside this entry: nothing after it can be read.
                return Err(fail(
                    Some(name),
                    &last,
                    format!("truncated: {} of {size} bytes present", bytes.len()),
                ));
            }
            Ok(bytes) => Event::Entry {
                name: name.clone(),
                bytes,
            },
            Err(reason) => return Err(fail(Some(name), &last, reason)),
        };
        if !sink(event) {
            return Ok(());
        }
        last = Some(name);
    }
    // Read what follows the end-of-archive blocks so that a gzip trailer (CRC, length) is
    // checked too.
    io::copy(&mut archive.into_inner(), &mut io::sink())
        .map_err(|e| fail(None, &last, io_message(&e)))?;
    Ok(())
}

/// A tar archive on disk read through positioned reads: the tar reader takes its 512-byte
/// headers here, and skipping an entry's data moves the position without a system call
/// (and without copying the data through this thread).
struct Positioned<'a> {
    file: &'a File,
    len: u64,
    pos: u64,
    bytes_read: &'a AtomicU64,
}

impl Read for Positioned<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = super::read_at(self.file, buf, self.pos)?;
        self.pos += n as u64;
        self.bytes_read.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

impl Seek for Positioned<'_> {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let target = match to {
            SeekFrom::Start(p) => Some(p),
            SeekFrom::Current(d) => self.pos.checked_add_signed(d),
            SeekFrom::End(d) => self.len.checked_add_signed(d),
        };
        match target {
            Some(t) if t <= self.len => {
                self.pos = t;
                Ok(t)
            }
            // As the streamed reader says when an entry's data runs past the end.
            Some(_) => Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "the archive ends inside an entry",
            )),
            None => Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "seek before the start of the archive",
            )),
        }
    }
}

/// Read a plain (uncompressed) tar archive on disk. Each record is reported as an
/// [`Event::Slice`] (where its bytes lie), so that the bytes are read once, by the thread
/// that analyses them, into memory it keeps; entries are checked against the file's size
/// here, so that a truncated archive fails on the same entry, with the same message, as
/// when it is streamed.
pub fn read_file(
    input: &str,
    file: File,
    bytes_read: &AtomicU64,
    sink: &mut Sink<'_>,
) -> Result<(), SourceError> {
    let fail = |entry: Option<String>, after: &Option<String>, message: String| SourceError {
        input: input.to_string(),
        after: if entry.is_none() { after.clone() } else { None },
        entry,
        message,
    };
    let len = file
        .metadata()
        .map_err(|e| fail(None, &None, io_message(&e)))?
        .len();
    let file = Arc::new(file);
    let mut archive = tar::Archive::new(Positioned {
        file: &file,
        len,
        pos: 0,
        bytes_read,
    });
    let mut last: Option<String> = None;
    let entries = archive
        .entries_with_seek()
        .map_err(|e| fail(None, &None, io_message(&e)))?;
    for entry in entries {
        let entry =
            entry.map_err(|e| fail(None, &last, format!("bad tar header: {}", io_message(&e))))?;
        let name = clean_name(&crate::csa::lossy(&entry.path_bytes()));
        let kind = entry.header().entry_type();
        if kind.is_dir() || kind.is_pax_global_extensions() || kind.is_pax_local_extensions() {
            continue;
        }
        if !kind.is_file() || !is_record_name(&name) {
            if !sink(Event::Skipped { name: name.clone() }) {
                return Ok(());
            }
            last = Some(name);
            continue;
        }
        let (offset, size) = (entry.raw_file_position(), entry.size());
        if size > MAX_ENTRY_BYTES {
            return Err(fail(Some(name), &last, super::too_large()));
        }
        let present = len.saturating_sub(offset);
        if present < size {
            return Err(fail(
                Some(name),
                &last,
                format!("truncated: {present} of {size} bytes present"),
            ));
        }
        let event = Event::Slice {
            name: name.clone(),
            file: Arc::clone(&file),
            offset,
            len: size as usize,
        };
        if !sink(event) {
            return Ok(());
        }
        last = Some(name);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn forward(bytes: &[u8], capacity: usize) -> Forward<&[u8]> {
        Forward {
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
                got.push((name, bytes));
            }
            true
        };
        read_stream("t.tar", "t.tar", tar.as_slice(), &mut sink).unwrap();
        assert_eq!(got.len(), bodies.len());
        for (i, (name, bytes)) in got.iter().enumerate() {
            assert_eq!(name, &format!("d/{i}.csa"));
            assert_eq!(bytes, &bodies[i]);
        }
    }

    /// A tar file written to a fresh scratch path.
    fn scratch_tar(tag: &str, bytes: &[u8]) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("fgs-tar-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.tar");
        std::fs::write(&path, bytes).unwrap();
        path
    }

    /// Entries (name, bytes) and the error, reading `bytes` as a stream and as a file.
    type Read2 = (Vec<(String, Vec<u8>)>, Option<SourceError>);

    fn read_both(tag: &str, bytes: &[u8]) -> (Read2, Read2) {
        let mut streamed = Vec::new();
        let mut sink = |e: Event| {
            match e {
                Event::Entry { name, bytes } => streamed.push((name, bytes)),
                Event::Skipped { name } => streamed.push((name, b"skipped".to_vec())),
                other => panic!("unexpected event {other:?}"),
            }
            true
        };
        let e1 = read_stream("t.tar", "t.tar", bytes, &mut sink).err();
        let path = scratch_tar(tag, bytes);
        let counted = AtomicU64::new(0);
        let mut sliced = Vec::new();
        let mut sink = |e: Event| {
            match e {
                Event::Slice {
                    name,
                    file,
                    offset,
                    len,
                } => {
                    let b = super::super::with_slice(&file, offset, len, <[u8]>::to_vec).unwrap();
                    sliced.push((name, b));
                }
                Event::Skipped { name } => sliced.push((name, b"skipped".to_vec())),
                other => panic!("unexpected event {other:?}"),
            }
            true
        };
        let file = File::open(&path).unwrap();
        let e2 = read_file("t.tar", file, &counted, &mut sink).err();
        std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
        ((streamed, e1), (sliced, e2))
    }

    fn sample_tar() -> Vec<u8> {
        let mut builder = tar::Builder::new(Vec::new());
        for i in 0..5usize {
            let body = format!("V2\n'entry {i}\n").repeat(3 + 41 * i).into_bytes();
            let mut h = tar::Header::new_gnu();
            h.set_size(body.len() as u64);
            h.set_mode(0o644);
            h.set_cksum();
            // A long name (a GNU long-name block before the header) and a non-record file.
            let name = if i == 2 {
                format!("{}/{i}.csa", "d".repeat(150))
            } else if i == 3 {
                format!("d/{i}.txt")
            } else {
                format!("d/{i}.csa")
            };
            builder.append_data(&mut h, name, body.as_slice()).unwrap();
        }
        builder.into_inner().unwrap()
    }

    #[test]
    fn a_tar_file_read_in_place_gives_what_the_stream_gives() {
        let tar = sample_tar();
        let (streamed, sliced) = read_both("whole", &tar);
        assert_eq!(streamed.0.len(), 5);
        assert!(streamed.0[2].0.len() > 150 && streamed.0[3].1 == b"skipped");
        assert_eq!(streamed, sliced);
    }

    #[test]
    fn a_cut_tar_file_fails_where_and_as_the_stream_does() {
        let tar = sample_tar();
        // Cuts inside a header, inside an entry's data, inside its padding, and at the
        // end-of-archive blocks (a file shorter than one header is no tar to either).
        for cut in [
            600,
            1500,
            1800,
            2600,
            3300,
            4500,
            tar.len() - 1024,
            tar.len() - 1,
        ] {
            let (streamed, sliced) = read_both(&format!("cut{cut}"), &tar[..cut]);
            assert_eq!(streamed, sliced, "cut at {cut}");
            if cut == 1800 {
                // Inside the second record's data: the first is kept, the second named.
                let e = sliced.1.unwrap();
                assert_eq!(sliced.0.len(), 1);
                assert_eq!(e.entry.as_deref(), Some("d/1.csa"));
                assert_eq!(e.message, "truncated: 264 of 528 bytes present");
            }
        }
    }

    #[test]
    fn positioned_reads_seek_without_moving_past_the_end() {
        let path = scratch_tar("pos", b"0123456789");
        let file = File::open(&path).unwrap();
        let counted = AtomicU64::new(0);
        let mut p = Positioned {
            file: &file,
            len: 10,
            pos: 0,
            bytes_read: &counted,
        };
        let mut b = [0u8; 3];
        p.read_exact(&mut b).unwrap();
        assert_eq!(p.seek(SeekFrom::Current(4)).unwrap(), 7);
        p.read_exact(&mut b).unwrap();
        assert_eq!(&b, b"789");
        assert_eq!(p.read(&mut b).unwrap(), 0);
        assert_eq!(p.seek(SeekFrom::Start(2)).unwrap(), 2);
        assert_eq!(p.seek(SeekFrom::End(-1)).unwrap(), 9);
        let past = p.seek(SeekFrom::Current(5)).unwrap_err();
        assert_eq!(past.kind(), io::ErrorKind::UnexpectedEof);
        assert!(p.seek(SeekFrom::Current(-20)).is_err());
        assert_eq!(counted.load(Ordering::Relaxed), 6);
        drop(file);
        std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
    }

    #[test]
    fn a_slice_past_the_end_of_its_file_is_truncated() {
        let path = scratch_tar("short", b"V2\nN+a\n");
        let file = File::open(&path).unwrap();
        let got = super::super::with_slice(&file, 3, 10, <[u8]>::len);
        assert_eq!(got, Err("truncated: 4 of 10 bytes present".to_string()));
        assert_eq!(
            super::super::with_slice(&file, 3, 4, <[u8]>::to_vec),
            Ok(b"N+a\n".to_vec())
        );
        drop(file);
        std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
    }
}
