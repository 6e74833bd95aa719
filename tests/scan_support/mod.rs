//! Helpers shared by the scan integration tests: run the real binary, read its outputs.
#![allow(dead_code)] // each test file uses a different subset

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

pub const BIN: &str = env!("CARGO_BIN_EXE_floodgate-scan");

/// The synthetic fixture set (records folder and packed forms).
pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/synthetic")
        .join(name)
}

/// Number of records in the synthetic fixture set.
pub const SYNTHETIC_GAMES: u64 = 150;

/// A fresh, empty scratch folder for one test.
pub fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("scan-tests")
        .join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
    pub out: PathBuf,
}

impl Run {
    pub fn summary(&self) -> serde_json::Value {
        let text =
            std::fs::read_to_string(self.out.join("summary.json")).expect("summary.json written");
        serde_json::from_str(&text).expect("summary.json is JSON")
    }

    pub fn count(&self, key: &str) -> u64 {
        self.summary()[key]
            .as_u64()
            .unwrap_or_else(|| panic!("summary has no count {key}"))
    }

    pub fn file(&self, name: &str) -> Vec<u8> {
        std::fs::read(self.out.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
    }

    /// `errors.csv` rows as (source, entry, line, reason).
    pub fn errors(&self) -> Vec<[String; 4]> {
        let mut r = csv::Reader::from_path(self.out.join("errors.csv")).unwrap();
        r.records()
            .map(|rec| {
                let rec = rec.unwrap();
                [0, 1, 2, 3].map(|i| rec.get(i).unwrap_or("").to_string())
            })
            .collect()
    }

    /// `games.csv` without its `source` column (which names the container), as text.
    pub fn games_without_source(&self) -> Vec<Vec<String>> {
        let mut r = csv::Reader::from_path(self.out.join("games.csv")).unwrap();
        let headers = r.headers().unwrap().clone();
        assert_eq!(&headers[0], "source");
        r.records()
            .map(|rec| rec.unwrap().iter().skip(1).map(str::to_string).collect())
            .collect()
    }

    /// The contract every run keeps: each entry read is a game or an unreadable entry,
    /// and the per-input counts add up to the totals.
    pub fn assert_counted_once(&self) {
        let s = self.summary();
        let seen = s["entries_seen"].as_u64().unwrap();
        let games = s["games"].as_u64().unwrap();
        let unreadable = s["unreadable_entries"].as_u64().unwrap();
        // Games left out as duplicates (--dedupe) are entries read, counted apart.
        let dropped = s["duplicates_dropped"].as_u64().unwrap_or(0);
        assert_eq!(games + unreadable + dropped, seen, "{s}");
        let inputs = s["inputs"].as_array().unwrap();
        let sum = |k: &str| inputs.iter().map(|i| i[k].as_u64().unwrap()).sum::<u64>();
        assert_eq!(sum("entries"), seen);
        assert_eq!(sum("games"), games);
        if dropped > 0 {
            assert_eq!(sum("duplicates"), dropped);
        }
        assert_eq!(sum("unreadable"), unreadable);
        let rows = csv::Reader::from_path(self.out.join("games.csv"))
            .unwrap()
            .records()
            .count() as u64;
        assert_eq!(rows, games, "one table row per game");
        let failed = s["failed_inputs"].as_u64().unwrap();
        let error_rows = self.errors().len() as u64;
        let failed_without_entry = self.errors().iter().filter(|e| e[1].is_empty()).count() as u64;
        assert_eq!(
            error_rows,
            unreadable + failed_without_entry,
            "one errors.csv row per unreadable entry or failed input"
        );
        assert!(failed_without_entry <= failed);
    }
}

/// Run `floodgate-scan scan ARGS -o OUT` (quiet unless `args` says otherwise).
pub fn scan(out: &Path, args: &[&str]) -> Run {
    scan_with_stdin(out, args, Stdio::null())
}

pub fn scan_with_stdin(out: &Path, args: &[&str], stdin: impl Into<Stdio>) -> Run {
    let output: Output = Command::new(BIN)
        .arg("scan")
        .args(args)
        .arg("-o")
        .arg(out)
        .stdin(stdin)
        .output()
        .expect("run floodgate-scan");
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        out: out.to_path_buf(),
    }
}
