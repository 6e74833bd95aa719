//! The inputs a scan is given, and how a folder of archives becomes several of them.
use std::fs::File;
use std::path::PathBuf;

use super::dir;
use super::error::SourceError;

/// One input as given on the command line.
#[derive(Debug, Clone)]
pub enum Input {
    /// A folder, a record file or an archive file. A folder holding archives is read as
    /// its records plus one input per archive ([`expand`]).
    Path(PathBuf),
    /// The record files of a folder (and its other files, skipped), without its archives,
    /// which [`expand`] made inputs of their own.
    FolderRecords(PathBuf),
    /// A tar stream (optionally gzip-compressed) on standard input, given as `-`.
    Stdin,
    /// Records held in memory, read like a folder (the fixtures built into the binary).
    EmbeddedRecords {
        /// Name used in the `source` column and in messages.
        name: &'static str,
        /// (entry name, bytes), in the order they are read.
        files: &'static [(&'static str, &'static [u8])],
    },
    /// An archive held in memory (the fixtures built into the binary).
    Embedded {
        /// Name used in the `source` column and in messages.
        name: &'static str,
        /// The archive bytes.
        bytes: &'static [u8],
    },
}

impl Input {
    /// Parse a command-line argument: `-` is standard input, anything else a path.
    pub fn from_arg(arg: &str) -> Input {
        if arg == "-" {
            Input::Stdin
        } else {
            Input::Path(PathBuf::from(arg))
        }
    }

    /// The name written in the `source` column and in messages.
    pub fn name(&self) -> String {
        match self {
            Input::Path(p) | Input::FolderRecords(p) => p.display().to_string(),
            Input::Stdin => "-".to_string(),
            Input::Embedded { name, .. } | Input::EmbeddedRecords { name, .. } => {
                (*name).to_string()
            }
        }
    }

    /// Bytes this input will deliver to its reader, when known in advance (for the
    /// progress bar): the file size, or the sum of the record sizes of a folder.
    pub fn size_hint(&self) -> Option<u64> {
        match self {
            Input::Path(p) => {
                let meta = std::fs::metadata(p).ok()?;
                if meta.is_dir() {
                    Some(dir::total_size(p))
                } else {
                    Some(meta.len())
                }
            }
            Input::FolderRecords(p) => Some(dir::total_size(p)),
            Input::Stdin => None,
            Input::Embedded { bytes, .. } => Some(bytes.len() as u64),
            Input::EmbeddedRecords { files, .. } => {
                Some(files.iter().map(|(_, b)| b.len() as u64).sum())
            }
        }
    }
}

/// The inputs as they are read: a folder becomes its own records (an
/// [`Input::FolderRecords`], kept when it holds any file that is no archive, or nothing at
/// all) followed by one [`Input::Path`] per archive below it, in sorted path order, each
/// named by its path (the folder's path joined with its place in the folder). Other inputs
/// are kept as they are, in the order given. Expanding twice changes nothing.
pub fn expand(inputs: &[Input]) -> Vec<Input> {
    let mut out = Vec::with_capacity(inputs.len());
    for input in inputs {
        match input {
            Input::Path(path) if path.is_dir() => {
                let listing = dir::list(path);
                let own = !listing.records.is_empty()
                    || !listing.others.is_empty()
                    || !listing.broken.is_empty()
                    || listing.archives.is_empty();
                if own {
                    out.push(Input::FolderRecords(path.clone()));
                }
                out.extend(listing.archives.into_iter().map(|(_, p)| Input::Path(p)));
            }
            other => out.push(other.clone()),
        }
    }
    out
}

/// Whether `input` can be read at all, checked before anything is written: `Err` for a
/// path that does not exist or cannot be opened (the path and the I/O error in words).
/// Standard input and embedded inputs always can.
pub fn check_openable(input: &Input) -> Result<(), SourceError> {
    let (Input::Path(path) | Input::FolderRecords(path)) = input else {
        return Ok(());
    };
    let name = path.display().to_string();
    let meta = std::fs::metadata(path).map_err(SourceError::io(&name))?;
    let opened = if meta.is_dir() {
        std::fs::read_dir(path).map(drop)
    } else {
        File::open(path).map(drop)
    };
    opened.map_err(SourceError::io(&name))
}
