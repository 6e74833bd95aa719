//! Why a report could not be made: the one error type of the report's files.

use std::path::{Path, PathBuf};

use polars::prelude::PolarsError;

/// Why a report could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    // The cause is written into the message (and so not also a `source`, or error
    // chains would print it twice).
    /// A file could not be read or written.
    #[error("{path}: {cause}")]
    Io {
        /// The file or directory that could not be read or written.
        path: PathBuf,
        /// The operating system's error.
        cause: std::io::Error,
    },
    /// Polars failed while reading, computing or writing.
    #[error("{context}: {cause}")]
    Polars {
        /// What was being done: the path of the file read or written, `table NAME`,
        /// `plots`, or the `--game-name` filter.
        context: String,
        /// Polars' error.
        cause: PolarsError,
    },
    /// The games table lacks a column the report needs, or has it with another type.
    #[error("games table: column `{name}`: {problem}")]
    BadColumn {
        /// The column's name.
        name: String,
        /// What is wrong: `missing`, the type found instead of the one needed, or a name
        /// that is not a column of the per-game table.
        problem: String,
    },
    /// A table read back (a replay table) holds a word its column does not allow.
    #[error("{}:{line}: {cause}", path.display())]
    BadWord {
        /// The file read.
        path: PathBuf,
        /// Its 1-based line.
        line: u64,
        /// The word and the column's vocabulary.
        cause: crate::words::UnknownWord,
    },
    /// A configuration value is out of range.
    #[error("{0}")]
    Config(String),
    /// The output folder cannot be created or locked, or another run is writing it.
    #[error(transparent)]
    OutDir(#[from] crate::outdir::OutDirError),
}

impl ReportError {
    pub(crate) fn polars(context: impl Into<String>) -> impl FnOnce(PolarsError) -> ReportError {
        let context = context.into();
        move |cause| ReportError::Polars { context, cause }
    }
    pub(crate) fn io(path: &Path) -> impl FnOnce(std::io::Error) -> ReportError + '_ {
        move |cause| ReportError::Io {
            path: path.to_path_buf(),
            cause,
        }
    }
}
