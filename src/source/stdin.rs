//! Standard input read so that a signal can end the wait for it.
//!
//! A read of a pipe that gives nothing blocks, and the signal handler of
//! [`crate::interrupt`] restarts it: a scan of `-` whose writer has gone quiet would then
//! never notice Ctrl-C. So standard input is read by a thread of its own that hands the
//! bytes over in chunks, and the reader of the scan waits for the next chunk a short while
//! at a time, looking between waits whether a signal came. That thread is not joined: once
//! the scan gave up on the input, it ends with the process.
use std::io::{self, Read};
use std::sync::mpsc::{Receiver, RecvTimeoutError, sync_channel};
use std::time::Duration;

/// How long one wait for the next chunk lasts before the signal flag is looked at.
const POLL: Duration = Duration::from_millis(50);
/// Bytes a chunk holds at most.
const CHUNK: usize = 1 << 16;
/// Chunks read ahead of the scan.
const AHEAD: usize = 8;

/// Standard input, read ahead by its own thread (see the module docs).
pub struct InterruptibleStdin {
    chunks: Receiver<io::Result<Vec<u8>>>,
    current: Vec<u8>,
    at: usize,
    done: bool,
}

impl InterruptibleStdin {
    /// Start reading standard input.
    pub fn start() -> io::Result<InterruptibleStdin> {
        let (tx, rx) = sync_channel(AHEAD);
        std::thread::Builder::new()
            .name("stdin".into())
            .spawn(move || {
                let mut stdin = io::stdin().lock();
                loop {
                    let mut chunk = vec![0; CHUNK];
                    match stdin.read(&mut chunk) {
                        Ok(0) => return,
                        Ok(n) => {
                            chunk.truncate(n);
                            if tx.send(Ok(chunk)).is_err() {
                                return;
                            }
                        }
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                        Err(e) => {
                            let _ = tx.send(Err(e));
                            return;
                        }
                    }
                }
            })?;
        Ok(InterruptibleStdin {
            chunks: rx,
            current: Vec::new(),
            at: 0,
            done: false,
        })
    }
}

impl Read for InterruptibleStdin {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.at == self.current.len() {
            if self.done {
                return Ok(0);
            }
            if let Some(signal) = crate::interrupt::received() {
                return Err(io::Error::other(signal));
            }
            match self.chunks.recv_timeout(POLL) {
                Ok(chunk) => {
                    self.current = chunk?;
                    self.at = 0;
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => self.done = true,
            }
        }
        let n = buf.len().min(self.current.len() - self.at);
        buf[..n].copy_from_slice(&self.current[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}
