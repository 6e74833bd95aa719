//! The two ways reading fails: an input that cannot be read to its end ([`SourceError`]),
//! and one entry whose bytes cannot be read ([`EntryError`]).
use std::io;

use super::MAX_ENTRY_BYTES;

/// An input that could not be read to its end.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{input}: {}{message}", context(entry, after))]
pub struct SourceError {
    /// The input, as named on the command line.
    pub input: String,
    /// The entry being read when the input broke (it was not delivered as an entry).
    pub entry: Option<String>,
    /// Whether `entry` was already reported as an [`Event::Unreadable`](super::Event) in
    /// its place (a reader that goes on past the break does so); if not, the consumer
    /// counts it.
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

    /// An error of the input as a whole (no entry being read).
    pub(super) fn new(input: &str, message: impl Into<String>) -> SourceError {
        SourceError::at(input, None, None, message)
    }

    /// The conversion of an I/O error of the input `input` as a whole, for `map_err`.
    pub(super) fn io(input: &str) -> impl FnOnce(io::Error) -> SourceError + '_ {
        move |e| SourceError::new(input, io_message(&e))
    }

    /// An error while reading `entry`, or after entry `after` (not yet reported).
    pub(super) fn at(
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

/// Why the bytes of one entry could not be read. Its text is the reason written in
/// `errors.csv`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EntryError {
    /// The entry is larger than [`MAX_ENTRY_BYTES`]: no game record is.
    #[error("entry larger than {} MiB, not a game record", MAX_ENTRY_BYTES >> 20)]
    TooLarge,
    /// The entry ends before the size its container gave it (a file cut short, or changed
    /// since it was listed).
    #[error("truncated: {present} of {size} bytes present")]
    Truncated {
        /// Bytes of the entry that could be read.
        present: u64,
        /// The size its container gave it.
        size: u64,
    },
    /// Reading failed; the I/O error in words.
    #[error("{0}")]
    Io(String),
    /// The entry was reported unreadable by its reader ([`Event::Unreadable`](super::Event)),
    /// with the reason it gave.
    #[error("{0}")]
    Reported(String),
}

impl From<io::Error> for EntryError {
    fn from(e: io::Error) -> EntryError {
        EntryError::Io(io_message(&e))
    }
}

/// An I/O error as a short sentence (the `Display` of `io::Error` without its debug noise).
pub(super) fn io_message(e: &io::Error) -> String {
    match e.kind() {
        io::ErrorKind::UnexpectedEof => format!("truncated: {e}"),
        _ => e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_names_input_and_entry() {
        let mut e = SourceError::new("a.7z", "bad crc");
        assert_eq!(e.to_string(), "a.7z: bad crc");
        e.after = Some("x.csa".into());
        assert_eq!(e.to_string(), "a.7z: after entry x.csa: bad crc");
        e.entry = Some("y.csa".into());
        assert_eq!(e.to_string(), "a.7z: y.csa: bad crc");
    }

    #[test]
    fn entry_errors_read_as_before() {
        assert_eq!(
            EntryError::TooLarge.to_string(),
            "entry larger than 64 MiB, not a game record"
        );
        let cut = EntryError::Truncated {
            present: 3,
            size: 10,
        };
        assert_eq!(cut.to_string(), "truncated: 3 of 10 bytes present");
        let eof = io::Error::new(io::ErrorKind::UnexpectedEof, "early end");
        assert_eq!(EntryError::from(eof).to_string(), "truncated: early end");
        let io = SourceError::io("a.tar")(io::Error::other("no such file"));
        assert_eq!(io.to_string(), "a.tar: no such file");
    }
}
