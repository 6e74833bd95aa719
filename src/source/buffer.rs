//! Reading one entry's bytes into memory that the thread reading them owns and reuses
//! from entry to entry: an archive's reader for the members it decodes, a scan's worker
//! for the record files and spans it is handed.
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use super::error::EntryError;

/// Largest entry read into memory. Real records are a few tens of kilobytes; anything
/// larger is not a game record and is reported as unreadable instead of exhausting memory.
pub const MAX_ENTRY_BYTES: u64 = 64 << 20;

/// Size a read buffer starts at, and the largest one kept after a big entry.
const START: usize = 64 << 10;
const KEEP: usize = 1 << 20;

/// The memory one thread reads entries into, one after the other: grown for a large entry,
/// given back after it (beyond 1 MiB), so that reading tens of thousands of small records
/// allocates and zeroes nothing per record. Whoever reads owns one and passes it in.
#[derive(Debug, Default)]
pub struct ReadBuffer(Vec<u8>);

impl ReadBuffer {
    /// Run `f` on the buffer, then give back the memory a large entry made it grow to.
    fn with<T>(&mut self, f: impl FnOnce(&mut Vec<u8>) -> T) -> T {
        let out = f(&mut self.0);
        if self.0.len() > KEEP {
            self.0 = Vec::new();
        }
        out
    }

    /// Read `r` to its end, refusing entries larger than [`MAX_ENTRY_BYTES`], and run `f`
    /// on its bytes (or on the reason they could not be read). The entry is read to its
    /// end, whatever size its container announced.
    pub(super) fn read_entry<R: Read, T>(
        &mut self,
        mut r: R,
        f: impl FnOnce(Result<&[u8], EntryError>) -> T,
    ) -> T {
        self.with(|buf| match read_into(&mut r, buf) {
            Ok(n) => f(Ok(&buf[..n])),
            Err(e) => f(Err(e)),
        })
    }

    /// Run `f` on the bytes of the record file `path` (an
    /// [`Event::File`](super::Event::File)): no allocation and no copy beyond the read
    /// itself, and no `stat` call for the size.
    pub fn with_file<T>(
        &mut self,
        path: &Path,
        f: impl FnOnce(&[u8]) -> T,
    ) -> Result<T, EntryError> {
        let mut file = File::open(path)?;
        self.with(|buf| read_into(&mut file, buf).map(|n| f(&buf[..n])))
    }

    /// Run `f` on the `len` bytes at `offset` of `file` (an archive member named by an
    /// [`Event::Span`](super::Event::Span)); the reason when they cannot all be read (the
    /// file was cut short or changed since it was listed) or when the member is larger
    /// than [`MAX_ENTRY_BYTES`].
    pub fn with_span<T>(
        &mut self,
        file: &File,
        offset: u64,
        len: u64,
        f: impl FnOnce(&[u8]) -> T,
    ) -> Result<T, EntryError> {
        if len > MAX_ENTRY_BYTES {
            return Err(EntryError::TooLarge);
        }
        self.with(|buf| {
            let want = len as usize;
            if buf.len() < want {
                buf.resize(want.max(START), 0);
            }
            let mut n = 0;
            while n < want {
                match read_at(file, &mut buf[n..want], offset + n as u64) {
                    Ok(0) => {
                        return Err(EntryError::Truncated {
                            present: n as u64,
                            size: len,
                        });
                    }
                    Ok(k) => n += k,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(e.into()),
                }
            }
            Ok(f(&buf[..want]))
        })
    }
}

/// Read a record file named by an [`Event::File`](super::Event::File) into a vector of its
/// size; the reason when it cannot be read. A thread reading many files keeps a
/// [`ReadBuffer`] and calls [`ReadBuffer::with_file`] instead.
pub fn read_file(path: &Path) -> Result<Vec<u8>, EntryError> {
    ReadBuffer::default().with_file(path, <[u8]>::to_vec)
}

/// Read `r` to its end into `buf` (grown as needed, never past [`MAX_ENTRY_BYTES`] + 1
/// bytes); the number of bytes read.
pub(super) fn read_into<R: Read + ?Sized>(
    r: &mut R,
    buf: &mut Vec<u8>,
) -> Result<usize, EntryError> {
    if buf.len() < START {
        buf.resize(START, 0);
    }
    let mut n = 0;
    loop {
        if n == buf.len() {
            if n as u64 > MAX_ENTRY_BYTES {
                return Err(EntryError::TooLarge);
            }
            let grown = (2 * n).min(MAX_ENTRY_BYTES as usize + 1);
            buf.resize(grown, 0);
        }
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e.into()),
        }
    }
    Ok(n)
}

/// Read the bytes of `file` at `offset` into `buf`, without moving a file position that
/// other threads share.
#[cfg(unix)]
pub(super) fn read_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    std::os::unix::fs::FileExt::read_at(file, buf, offset)
}

/// Read the bytes of `file` at `offset` into `buf`.
#[cfg(windows)]
pub(super) fn read_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    std::os::windows::fs::FileExt::seek_read(file, buf, offset)
}

/// Elsewhere no span is ever handed out ([`super::tar::is_plain_tar`]).
#[cfg(not(any(unix, windows)))]
pub(super) fn read_at(_: &File, _: &mut [u8], _: u64) -> io::Result<usize> {
    Err(io::Error::new(
        io::ErrorKind::Unsupported,
        "reading at an offset is not supported here",
    ))
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

    #[test]
    fn files_are_read_whole_through_the_kept_buffer() {
        let data: Vec<u8> = (0..3 * START + 7).map(|i| (i % 251) as u8).collect();
        let mut buf = Vec::new();
        for len in [0, 1, START - 1, START, START + 1, data.len()] {
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
        // The buffer grew for the largest file and stays (up to KEEP).
        assert!(buf.len() >= data.len());
        // Entries over the limit are refused, entries at the limit are read.
        let mut big = Vec::new();
        let mut over = io::repeat(b'x').take(MAX_ENTRY_BYTES + 1);
        let e = read_into(&mut over, &mut big).unwrap_err();
        assert!(e.to_string().contains("larger than 64 MiB"), "{e}");
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

    #[test]
    fn a_buffer_gives_back_what_a_large_entry_made_it_grow_to() {
        let mut buf = ReadBuffer::default();
        let small = vec![7u8; 1000];
        buf.read_entry(&small[..], |r| assert_eq!(r.unwrap(), &small[..]));
        assert_eq!(buf.0.len(), START, "a small entry keeps the starting size");
        let large = vec![9u8; 2 * KEEP];
        buf.read_entry(&large[..], |r| assert_eq!(r.unwrap().len(), large.len()));
        assert!(buf.0.is_empty(), "the grown memory was given back");
    }
}
