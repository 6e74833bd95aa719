//! Tar archives and gzip streams, read front to back without seeking: `.tar`, `.tar.gz`,
//! `.tgz`, a gzip-compressed single record, and the tar stream on standard input.
use std::io::{self, BufRead, BufReader, Cursor, Read, Seek, SeekFrom};

use flate2::read::MultiGzDecoder;

use super::detect::{HEAD_LEN, looks_like_tar};
use super::{
    Event, Format, Sink, SourceError, clean_name, io_message, is_record_name, read_record,
    with_entry,
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
    let err = |message: String| SourceError::new(input, message);
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
    let fail = |entry: Option<String>, after: &Option<String>, message: String| {
        let after = if entry.is_none() { after.clone() } else { None };
        SourceError::at(input, entry, after, message)
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
        let going = with_entry(entry, |read| match read {
            Ok(bytes) if (bytes.len() as u64) < size => {
                // The archive ended inside this entry: nothing after it can be read.
                Err(format!(
                    "truncated: {} of {size} bytes present",
                    bytes.len()
                ))
            }
            Ok(bytes) => Ok(sink(Event::Entry {
                name: name.clone(),
                bytes,
            })),
            Err(reason) => Err(reason),
        })
        .map_err(|reason| fail(Some(name.clone()), &last, reason))?;
        if !going {
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
                got.push((name, bytes.to_vec()));
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
}
