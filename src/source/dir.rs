//! Folders: every `*.csa` below the folder, in sorted path order (so that the output does
//! not depend on the order the file system lists names in). Other files are not entries.
use std::fs;
use std::path::{Path, PathBuf};

use super::{Event, Sink, io_message, is_record_name};

/// Record files (name, path) and folders that could not be listed (name, reason).
type Listing = (Vec<(String, PathBuf)>, Vec<(String, String)>);

/// Record files below `root`, as (relative name with `/` separators, path), sorted by name.
/// Folders that cannot be listed are returned as unreadable (name, reason).
fn list(root: &Path) -> Listing {
    let mut files = Vec::new();
    let mut broken = Vec::new();
    let mut stack = vec![(String::new(), root.to_path_buf())];
    while let Some((prefix, dir)) = stack.pop() {
        let entries = match fs::read_dir(&dir) {
            Ok(e) => e,
            Err(e) => {
                broken.push((prefix.trim_end_matches('/').to_string(), io_message(&e)));
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
                files.push((rel, entry.path()));
            }
        }
    }
    files.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    broken.sort();
    (files, broken)
}

/// Sum of the sizes of the record files below `root`.
pub fn total_size(root: &Path) -> u64 {
    list(root)
        .0
        .iter()
        .filter_map(|(_, p)| fs::metadata(p).ok())
        .map(|m| m.len())
        .sum()
}

pub fn read_dir(root: &Path, sink: &mut Sink<'_>) {
    let (files, broken) = list(root);
    for (name, reason) in broken {
        if !sink(Event::Unreadable {
            name,
            reason: format!("cannot list folder: {reason}"),
        }) {
            return;
        }
    }
    // The files are only named here: reading them is left to the caller's threads.
    for (name, path) in files {
        if !sink(Event::File { name, path }) {
            break;
        }
    }
}
