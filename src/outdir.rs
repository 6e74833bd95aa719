//! All-or-nothing output folders: a run's files are written under temporary names and
//! renamed into place only when every one of them is complete, so a failed, interrupted
//! or killed run leaves the folder's earlier files as they were.
//!
//! - A run takes the folder's lock file, [`LOCK_FILE`], for its whole length (an
//!   operating-system lock, released by the system even when the process is killed): a
//!   second run into the same folder is refused at once instead of interleaving with it.
//! - Every file is created as `.partial-PID-NAME` in the folder itself (so the final
//!   rename stays on one file system and is atomic).
//! - [`OutDir::commit`] flushes the files to disk, removes the earlier copy of the last
//!   file (the one that vouches for the others: `summary.json`, `report.md`), renames the
//!   files into place in the order they were created, that last file at the very end, and
//!   removes earlier files the run makes obsolete. A folder holding that last file holds
//!   a complete result.
//! - A run that stops without committing removes its temporaries (dropping the
//!   [`OutDir`]); those of a killed run are removed by the next run into the folder.
//!
//! For testing the fault handling, the environment variable
//! `FLOODGATE_SCAN_FAULT_DISK_BYTES=N` makes the folder behave as a disk with `N` bytes
//! free: a write past them fails with "No space left on device".
#![warn(missing_docs)]
use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// The lock file every run keeps in its output folder (it stays after the run; the lock
/// itself is held only while a run is going).
pub const LOCK_FILE: &str = ".floodgate-scan.lock";
/// The start of every temporary's name.
pub const TEMP_PREFIX: &str = ".partial-";
/// The environment variable of the simulated free space (see the module's documentation).
pub const FAULT_DISK_BYTES: &str = "FLOODGATE_SCAN_FAULT_DISK_BYTES";

/// Why an output folder could not be used.
#[derive(Debug, thiserror::Error)]
pub enum OutDirError {
    // The cause is written into the message (and so not also a `source`).
    /// The folder could not be created.
    #[error("cannot create output folder {}: {cause}", path.display())]
    Create {
        /// The folder.
        path: PathBuf,
        /// Why it could not be created.
        cause: io::Error,
    },
    /// The folder's lock file could not be opened or locked.
    #[error("cannot lock output folder {}: {cause}", path.display())]
    Lock {
        /// The lock file.
        path: PathBuf,
        /// Why it could not be locked.
        cause: io::Error,
    },
    /// Another run holds the folder's lock.
    #[error(
        "output folder {} is being written by another floodgate-scan run{}; wait for it to \
         end or choose another folder",
        path.display(),
        holder.as_ref().map(|h| format!(" ({h})")).unwrap_or_default()
    )]
    Busy {
        /// The folder.
        path: PathBuf,
        /// The run holding the lock, as it wrote itself into the lock file, when known.
        holder: Option<String>,
    },
    /// A file of the folder could not be written, renamed into place or removed.
    #[error("cannot write {}: {cause}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Why it could not be written.
        cause: io::Error,
    },
}

/// An output folder, locked, with the temporaries of this run.
#[derive(Debug)]
pub struct OutDir {
    dir: PathBuf,
    _lock: File,
    /// Files to commit, in creation order: (temporary, final name).
    files: Mutex<Vec<(PathBuf, String)>>,
    /// Scratch files of this run (never committed), removed on drop if still there.
    scratch: Mutex<Vec<PathBuf>>,
    budget: Option<Arc<AtomicU64>>,
    committed: bool,
}

impl OutDir {
    /// Create `dir` if needed, take its lock, and remove the temporaries a killed run left.
    pub fn open(dir: &Path) -> Result<OutDir, OutDirError> {
        std::fs::create_dir_all(dir).map_err(|cause| OutDirError::Create {
            path: dir.to_path_buf(),
            cause,
        })?;
        let lock_path = dir.join(LOCK_FILE);
        let lock_err = |cause| OutDirError::Lock {
            path: dir.to_path_buf(),
            cause,
        };
        let mut lock = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&lock_path)
            .map_err(lock_err)?;
        match lock.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                let holder = std::fs::read_to_string(&lock_path)
                    .ok()
                    .map(|t| t.trim().to_string())
                    .filter(|t| !t.is_empty());
                return Err(OutDirError::Busy {
                    path: dir.to_path_buf(),
                    holder,
                });
            }
            Err(std::fs::TryLockError::Error(cause)) => return Err(lock_err(cause)),
        }
        // Who holds the lock, for the message of a refused run (best effort).
        let _ = lock.set_len(0);
        let _ = writeln!(lock, "process {}", std::process::id());
        remove_stale(dir);
        let budget = std::env::var(FAULT_DISK_BYTES)
            .ok()
            .and_then(|v| v.trim().parse::<u64>().ok())
            .map(|n| Arc::new(AtomicU64::new(n)));
        Ok(OutDir {
            dir: dir.to_path_buf(),
            _lock: lock,
            files: Mutex::new(Vec::new()),
            scratch: Mutex::new(Vec::new()),
            budget,
            committed: false,
        })
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// Where `name` will be once committed (for messages).
    pub fn final_path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// The temporary name of `name` in this run.
    pub fn temp_path(&self, name: &str) -> PathBuf {
        self.dir
            .join(format!("{TEMP_PREFIX}{}-{name}", std::process::id()))
    }

    /// Create the output file `name` (under its temporary name until [`OutDir::commit`]).
    /// Files are renamed into place in the order they were created.
    pub fn create(&self, name: &str) -> io::Result<OutFile> {
        let tmp = self.temp_path(name);
        let file = File::create(&tmp)?;
        if let Ok(mut files) = self.files.lock() {
            files.retain(|(_, n)| n != name);
            files.push((tmp, name.to_string()));
        }
        Ok(OutFile {
            file,
            budget: self.budget.clone(),
        })
    }

    /// Create a scratch file of this run (never committed; removed when the [`OutDir`] is
    /// dropped, if its user has not removed it before). Returns the file and its path.
    pub fn scratch(&self, name: &str) -> io::Result<(OutFile, PathBuf)> {
        let path = self.temp_path(name);
        let file = File::create(&path)?;
        if let Ok(mut s) = self.scratch.lock() {
            s.push(path.clone());
        }
        let out = OutFile {
            file,
            budget: self.budget.clone(),
        };
        Ok((out, path))
    }

    /// Put every file created into place (see the module's documentation), then remove the
    /// earlier files named in `obsolete` (outputs this run does not make).
    pub fn commit(mut self, obsolete: &[&str]) -> Result<(), OutDirError> {
        let files = std::mem::take(self.files.get_mut().unwrap_or_else(|e| e.into_inner()));
        let write_err = |path: &Path| {
            let path = path.to_path_buf();
            move |cause| OutDirError::Write { path, cause }
        };
        // On disk before they replace anything.
        for (tmp, name) in &files {
            File::open(tmp)
                .and_then(|f| f.sync_all())
                .map_err(write_err(&self.dir.join(name)))?;
        }
        if let Some((_, last)) = files.last() {
            let path = self.dir.join(last);
            match std::fs::remove_file(&path) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(cause) => return Err(OutDirError::Write { path, cause }),
            }
        }
        for name in obsolete {
            if files.iter().all(|(_, n)| n != name) {
                let _ = std::fs::remove_file(self.dir.join(name));
            }
        }
        for (i, (tmp, name)) in files.iter().enumerate() {
            let path = self.dir.join(name);
            if let Err(cause) = std::fs::rename(tmp, &path) {
                // What was not renamed is still a temporary: leave nothing half done.
                for (t, _) in &files[i..] {
                    let _ = std::fs::remove_file(t);
                }
                return Err(OutDirError::Write { path, cause });
            }
        }
        // The renames themselves on disk (best effort: not every system syncs a folder).
        if let Ok(d) = File::open(&self.dir) {
            let _ = d.sync_all();
        }
        self.committed = true;
        Ok(())
    }
}

impl Drop for OutDir {
    fn drop(&mut self) {
        let files = std::mem::take(self.files.get_mut().unwrap_or_else(|e| e.into_inner()));
        if !self.committed {
            for (tmp, _) in files {
                let _ = std::fs::remove_file(tmp);
            }
        }
        let scratch = std::mem::take(self.scratch.get_mut().unwrap_or_else(|e| e.into_inner()));
        for path in scratch {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// Remove the temporaries of earlier runs (they hold nothing: a committed file has its
/// final name). Called with the folder's lock held, so no running scan owns them.
fn remove_stale(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        // `.spill-PID-PART.tmp`: the scratch files of earlier versions.
        let ours = name.starts_with(TEMP_PREFIX)
            || (name.starts_with(".spill-") && name.ends_with(".tmp"));
        if ours && entry.file_type().is_ok_and(|t| t.is_file()) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// An output file: a [`File`], and the simulated free space when one is set.
#[derive(Debug)]
pub struct OutFile {
    file: File,
    budget: Option<Arc<AtomicU64>>,
}

impl From<File> for OutFile {
    /// A plain file, outside any output folder.
    fn from(file: File) -> OutFile {
        OutFile { file, budget: None }
    }
}

impl OutFile {
    /// Ask for `n` bytes of the simulated free space: how many may be written.
    fn allowance(&self, n: usize) -> usize {
        let Some(budget) = &self.budget else {
            return n;
        };
        let mut left = budget.load(Ordering::Relaxed);
        loop {
            let take = left.min(n as u64);
            match budget.compare_exchange(left, left - take, Ordering::Relaxed, Ordering::Relaxed) {
                Ok(_) => return take as usize,
                Err(now) => left = now,
            }
        }
    }
}

/// The error a full disk gives.
fn no_space() -> io::Error {
    #[cfg(unix)]
    {
        io::Error::from_raw_os_error(28)
    }
    #[cfg(not(unix))]
    {
        io::Error::new(io::ErrorKind::StorageFull, "No space left on device")
    }
}

impl Write for OutFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        let n = self.allowance(buf.len());
        if n == 0 {
            return Err(no_space());
        }
        self.file.write(&buf[..n])
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "floodgate-scan-outdir-{}-{name}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n != LOCK_FILE)
            .collect();
        v.sort();
        v
    }

    #[test]
    fn files_appear_only_when_committed_and_replace_the_earlier_ones() {
        let dir = scratch_dir("commit");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("a.csv"), "old a").unwrap();
        std::fs::write(dir.join("summary.json"), "old summary").unwrap();
        std::fs::write(dir.join("gone.parquet"), "old").unwrap();
        let out = OutDir::open(&dir).unwrap();
        out.create("a.csv").unwrap().write_all(b"new a").unwrap();
        out.create("summary.json")
            .unwrap()
            .write_all(b"new summary")
            .unwrap();
        assert_eq!(std::fs::read_to_string(dir.join("a.csv")).unwrap(), "old a");
        out.commit(&["gone.parquet"]).unwrap();
        assert_eq!(names(&dir), ["a.csv", "summary.json"]);
        assert_eq!(std::fs::read_to_string(dir.join("a.csv")).unwrap(), "new a");
        assert_eq!(
            std::fs::read_to_string(dir.join("summary.json")).unwrap(),
            "new summary"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_run_dropped_before_its_commit_leaves_the_folder_as_it_was() {
        let dir = scratch_dir("drop");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("a.csv"), "old a").unwrap();
        // A temporary of a killed run is removed by the next one.
        std::fs::write(dir.join(format!("{TEMP_PREFIX}1-a.csv")), "stale").unwrap();
        let out = OutDir::open(&dir).unwrap();
        assert_eq!(names(&dir), ["a.csv"]);
        out.create("a.csv").unwrap().write_all(b"new").unwrap();
        let (_, spill) = out.scratch("spill-0").unwrap();
        assert!(spill.exists());
        assert_eq!(names(&dir).len(), 3);
        drop(out);
        assert_eq!(names(&dir), ["a.csv"]);
        assert_eq!(std::fs::read_to_string(dir.join("a.csv")).unwrap(), "old a");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_second_run_into_a_locked_folder_is_refused() {
        let dir = scratch_dir("lock");
        let first = OutDir::open(&dir).unwrap();
        let e = OutDir::open(&dir).unwrap_err();
        assert!(matches!(e, OutDirError::Busy { .. }), "{e}");
        let text = e.to_string();
        assert!(text.contains("another floodgate-scan run"), "{text}");
        assert!(
            text.contains(&format!("process {}", std::process::id())),
            "{text}"
        );
        drop(first);
        let again = OutDir::open(&dir).expect("the lock is released with the run");
        drop(again);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_simulated_disk_fills_up() {
        let mut f = OutFile {
            file: tempfile_in(&scratch_dir("budget")),
            budget: Some(Arc::new(AtomicU64::new(10))),
        };
        let e = f.write_all(b"0123456789abc").unwrap_err();
        assert_eq!(e.raw_os_error(), if cfg!(unix) { Some(28) } else { None });
        assert!(e.to_string().contains("No space left"), "{e}");
    }

    fn tempfile_in(dir: &Path) -> File {
        std::fs::create_dir_all(dir).unwrap();
        File::create(dir.join("f")).unwrap()
    }
}
