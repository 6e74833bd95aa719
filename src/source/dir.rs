//! Folders: every file below the folder, in sorted path order (so that the output does not
//! depend on the order the file system lists names in). A `*.csa` file is a record of the
//! folder; an archive (`.7z`, `.zip`, `.tar`, `.tar.gz`, recognised by its first bytes, as
//! a named input is) is an input of its own ([`super::expand`]); any other file is
//! reported as skipped.
use std::fs::{self, File};
use std::io::Read;
use std::path::{Path, PathBuf};

use super::detect::{self, Format};
use super::error::io_message;
use super::event::{Event, Sink};
use super::names::is_record_name;

/// What a folder holds, each list sorted by relative name (`/` separators).
#[derive(Debug, Default)]
pub struct Listing {
    /// Record files (name, path).
    pub records: Vec<(String, PathBuf)>,
    /// Archives (name, path), each read as an input of its own.
    pub archives: Vec<(String, PathBuf)>,
    /// Files that are neither (names).
    pub others: Vec<String>,
    /// Folders that could not be listed and files that could not be opened (name, reason).
    pub broken: Vec<(String, String)>,
}

/// The container `path` holds, by its first bytes (`None`: not an archive).
fn archive_kind(path: &Path) -> std::io::Result<Option<Format>> {
    let mut head = Vec::with_capacity(detect::HEAD_LEN);
    File::open(path).and_then(|f| f.take(detect::HEAD_LEN as u64).read_to_end(&mut head))?;
    Ok(detect::detect(&head))
}

/// Everything below `root`. A `*.csa` file is taken for a record without being opened (a
/// folder of records is tens of thousands of them); any other file is opened to tell
/// whether it is an archive.
pub fn list(root: &Path) -> Listing {
    let mut out = Listing::default();
    let mut stack = vec![(String::new(), root.to_path_buf())];
    while let Some((prefix, dir)) = stack.pop() {
        let entries = match fs::read_dir(&dir) {
            Ok(e) => e,
            Err(e) => {
                out.broken.push((
                    prefix.trim_end_matches('/').to_string(),
                    format!("cannot list folder: {}", io_message(&e)),
                ));
                continue;
            }
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let rel = format!("{prefix}{name}");
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            // Symbolic links to folders are not followed (no cycles); links to files are.
            if kind.is_dir() {
                stack.push((format!("{rel}/"), entry.path()));
            } else if is_record_name(&name) {
                out.records.push((rel, entry.path()));
            } else if kind.is_symlink() && entry.path().is_dir() {
                // A link to a folder: not followed, not a file either.
            } else {
                match archive_kind(&entry.path()) {
                    Ok(Some(_)) => out.archives.push((rel, entry.path())),
                    Ok(None) => out.others.push(rel),
                    Err(e) => out.broken.push((rel, io_message(&e))),
                }
            }
        }
    }
    out.records.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    out.archives.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    out.others.sort_unstable();
    out.broken.sort();
    out
}

/// Sum of the sizes of the record files below `root` (its archives are inputs of their
/// own).
pub fn total_size(root: &Path) -> u64 {
    list(root)
        .records
        .iter()
        .filter_map(|(_, p)| fs::metadata(p).ok())
        .map(|m| m.len())
        .sum()
}

/// Report the folder's own entries: what could not be listed or opened, the files that are
/// neither records nor archives (skipped), then the record files. Its archives are not
/// reported here: [`super::expand`] makes each an input of its own (with
/// `archives_skipped`, for a folder read without being expanded, they are reported as
/// skipped files).
pub fn read_dir(root: &Path, archives_skipped: bool, sink: &mut Sink<'_>) {
    let mut listing = list(root);
    if archives_skipped {
        listing
            .others
            .extend(listing.archives.drain(..).map(|(name, _)| name));
        listing.others.sort_unstable();
    }
    for (name, reason) in listing.broken {
        if !sink(Event::Unreadable { name, reason }) {
            return;
        }
    }
    for name in listing.others {
        if !sink(Event::Skipped { name }) {
            return;
        }
    }
    // The files are only named here: reading them is left to the caller's threads.
    for (name, path) in listing.records {
        if !sink(Event::File { name, path }) {
            break;
        }
    }
}
