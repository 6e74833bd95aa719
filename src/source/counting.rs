//! A reader that counts the bytes taken from the file or stream under it, for the
//! progress bar.
use std::io::{self, Read, Seek, SeekFrom};
use std::sync::atomic::{AtomicU64, Ordering};

/// Counts the bytes read from the underlying file or stream.
pub(super) struct Counting<'a, R> {
    inner: R,
    /// The counter shared with whoever watches the reading.
    pub(super) count: &'a AtomicU64,
    /// What this reader added to `count`.
    pub(super) counted: u64,
    /// Bytes read while set are not counted (an index that several parts read).
    pub(super) paused: bool,
}

impl<'a, R> Counting<'a, R> {
    pub(super) fn new(inner: R, count: &'a AtomicU64) -> Self {
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
