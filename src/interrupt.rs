//! Ctrl-C and `kill`: SIGINT and SIGTERM become a flag the long-running stages look at,
//! so that a scan stops within a moment, removes its temporaries and says how far it got,
//! instead of dying with its files half written.
//!
//! The handlers are `signal-hook`'s: the first signal of a kind sets its flag, a second
//! one (a second Ctrl-C) takes the signal's default action and ends the process at once.
//! Without [`install`] (every command but the long ones), the signals keep their default
//! action; an output folder's temporaries left that way are removed by the next run into
//! it.
#![warn(missing_docs)]
use std::sync::Arc;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

/// SIGINT (the same number on every Unix).
pub const SIGINT: i32 = 2;
/// SIGTERM (the same number on every Unix).
pub const SIGTERM: i32 = 15;

/// The flags of SIGINT and SIGTERM, set by their handlers.
fn flags() -> &'static [(i32, Arc<AtomicBool>); 2] {
    static FLAGS: OnceLock<[(i32, Arc<AtomicBool>); 2]> = OnceLock::new();
    FLAGS.get_or_init(|| {
        [
            (SIGINT, Arc::new(AtomicBool::new(false))),
            (SIGTERM, Arc::new(AtomicBool::new(false))),
        ]
    })
}

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

/// The signal received since [`install`], if any (SIGINT first if both came).
pub fn received() -> Option<Interrupted> {
    flags()
        .iter()
        .find(|(_, f)| f.load(Ordering::Relaxed))
        .map(|(s, _)| Interrupted(*s))
}

/// `Err` once a signal was received.
pub fn check() -> Result<(), Interrupted> {
    received().map_or(Ok(()), Err)
}

/// Catch SIGINT and SIGTERM from now on (Unix; elsewhere a no-op). A handler that cannot
/// be installed leaves that signal its default action.
pub fn install() {
    #[cfg(unix)]
    for (s, f) in flags() {
        // The order matters: the conditional default first, so that the first signal
        // (flag still clear) only sets the flag and the second ends the process.
        let _ = signal_hook::flag::register_conditional_default(*s, Arc::clone(f));
        let _ = signal_hook::flag::register(*s, Arc::clone(f));
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
