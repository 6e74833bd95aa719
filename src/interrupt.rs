//! Ctrl-C and `kill`: SIGINT and SIGTERM become a flag the long-running stages look at,
//! so that a scan stops within a moment, removes its temporaries and says how far it got,
//! instead of dying with its files half written.
//!
//! The handler only stores the signal's number (all a signal handler may safely do) and
//! gives the signal back its default action, so a second Ctrl-C ends the process at once.
//! Without [`install`] (every command but `scan`), the signals keep their default action;
//! an output folder's temporaries left that way are removed by the next run into it.
#![warn(missing_docs)]
use std::sync::atomic::{AtomicI32, Ordering};

/// The signal received (0: none).
static RECEIVED: AtomicI32 = AtomicI32::new(0);

/// SIGINT (the same number on every Unix).
pub const SIGINT: i32 = 2;
/// SIGTERM (the same number on every Unix).
pub const SIGTERM: i32 = 15;

/// The run was stopped by a signal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("interrupted by {}", signal_name(*.0))]
pub struct Interrupted(pub i32);

impl Interrupted {
    /// The shell's exit code of a process ended by this signal: 128 + its number.
    pub fn exit_code(self) -> u8 {
        u8::try_from(128 + self.0).unwrap_or(255)
    }
}

/// The usual name of a signal.
pub fn signal_name(signal: i32) -> String {
    match signal {
        SIGINT => "SIGINT".into(),
        SIGTERM => "SIGTERM".into(),
        n => format!("signal {n}"),
    }
}

/// The signal received since [`install`], if any.
pub fn received() -> Option<Interrupted> {
    match RECEIVED.load(Ordering::Relaxed) {
        0 => None,
        n => Some(Interrupted(n)),
    }
}

/// `Err` once a signal was received.
pub fn check() -> Result<(), Interrupted> {
    received().map_or(Ok(()), Err)
}

/// Catch SIGINT and SIGTERM from now on (Unix; elsewhere a no-op).
pub fn install() {
    #[cfg(unix)]
    unix::install();
}

#[cfg(unix)]
mod unix {
    use super::{RECEIVED, SIGINT, SIGTERM};
    use std::sync::atomic::Ordering;

    // `signal` of the C library the standard library already links (on Linux and the BSDs
    // it keeps the handler installed and restarts interrupted system calls).
    unsafe extern "C" {
        fn signal(signum: i32, handler: usize) -> usize;
    }
    const SIG_DFL: usize = 0;

    extern "C" fn on_signal(signum: i32) {
        RECEIVED
            .compare_exchange(0, signum, Ordering::Relaxed, Ordering::Relaxed)
            .ok();
        // The next one ends the process (async-signal-safe, as POSIX lists it).
        unsafe {
            signal(signum, SIG_DFL);
        }
    }

    pub fn install() {
        let handler = on_signal as extern "C" fn(i32) as usize;
        for s in [SIGINT, SIGTERM] {
            // SAFETY: the handler only touches an atomic and calls `signal`, both safe in a
            // signal handler.
            unsafe {
                signal(s, handler);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_are_128_plus_the_signal() {
        assert_eq!(Interrupted(SIGINT).exit_code(), 130);
        assert_eq!(Interrupted(SIGTERM).exit_code(), 143);
        assert_eq!(Interrupted(SIGTERM).to_string(), "interrupted by SIGTERM");
    }
}
