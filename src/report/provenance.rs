//! Where a report comes from: the files it read (path as given, size, SHA-256), the
//! inputs of the scan that made its games table (carried from the `summary.json` beside
//! it), the tool's version and commit, and the command line; written to `report.json`, to
//! every Parquet file's metadata and as a paragraph of `report.md`, so that a reader can
//! check that a table was made from the archive they hold.

use std::io::Read as _;
use std::path::Path;

use sha2::{Digest, Sha256};

use super::error::ReportError;

/// The commit the tool was built from, when the build named it (environment variable
/// `FLOODGATE_SCAN_COMMIT` at build time).
pub const COMMIT: Option<&str> = option_env!("FLOODGATE_SCAN_COMMIT");

/// One file the report read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileRecord {
    /// What the file is: `games`, `summary`, `errors` or `replay`.
    pub role: String,
    /// Its path as given on the command line (or beside the games table).
    pub path: String,
    /// Its size in bytes.
    pub bytes: u64,
    /// Its SHA-256, in lower-case hexadecimal.
    pub sha256: String,
}

/// A report's provenance (empty for a report built from a table in memory).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Provenance {
    /// The command line, the program named `floodgate-scan`.
    pub command_line: Vec<String>,
    /// The files read.
    pub files: Vec<FileRecord>,
    /// The scan's inputs, as `summary.json` lists them (source, format, entries, games...).
    pub scan_inputs: Vec<serde_json::Value>,
}

/// The size and SHA-256 of the file at `path`, read in blocks.
pub fn file_record(role: &str, path: &Path) -> Result<FileRecord, ReportError> {
    let io = |cause| ReportError::Io {
        path: path.to_path_buf(),
        cause,
    };
    let mut file = std::fs::File::open(path).map_err(io)?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    let mut bytes = 0u64;
    loop {
        let n = file.read(&mut buf).map_err(io)?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
        bytes += n as u64;
    }
    let sha256 = hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    Ok(FileRecord {
        role: role.to_string(),
        path: path.display().to_string(),
        bytes,
        sha256,
    })
}

/// The `inputs` list of a scan's `summary.json`.
pub fn scan_inputs(summary: &Path) -> Result<Vec<serde_json::Value>, ReportError> {
    let text = std::fs::read_to_string(summary).map_err(|cause| ReportError::Io {
        path: summary.to_path_buf(),
        cause,
    })?;
    let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| ReportError::Io {
        path: summary.to_path_buf(),
        cause: std::io::Error::new(std::io::ErrorKind::InvalidData, e),
    })?;
    Ok(value
        .get("inputs")
        .and_then(|v| v.as_array())
        .cloned()
        .unwrap_or_default())
}

impl Provenance {
    /// As JSON: `version`, `commit` (null when unknown), `command_line`, `files` and
    /// `scan_inputs`.
    pub fn to_json(&self) -> serde_json::Value {
        let files: Vec<serde_json::Value> = self
            .files
            .iter()
            .map(|f| {
                serde_json::json!({
                    "role": f.role,
                    "path": f.path,
                    "bytes": f.bytes,
                    "sha256": f.sha256,
                })
            })
            .collect();
        serde_json::json!({
            "tool": "floodgate-scan",
            "version": env!("CARGO_PKG_VERSION"),
            "commit": COMMIT,
            "command_line": self.command_line,
            "files": files,
            "scan_inputs": self.scan_inputs,
        })
    }

    /// The reproducibility paragraph of `report.md`.
    pub fn paragraph(&self) -> String {
        let mut out = format!(
            "Reproducibility: made by floodgate-scan {} (commit {})",
            env!("CARGO_PKG_VERSION"),
            COMMIT.unwrap_or("not recorded")
        );
        if !self.command_line.is_empty() {
            out.push_str(&format!(" with `{}`", self.command_line.join(" ")));
        }
        if self.files.is_empty() {
            out.push_str(", from a games table in memory.");
            return out;
        }
        let files: Vec<String> = self
            .files
            .iter()
            .map(|f| {
                format!(
                    "`{}` ({}, {} bytes, SHA-256 `{}`)",
                    f.path, f.role, f.bytes, f.sha256
                )
            })
            .collect();
        out.push_str(&format!(", from {}", files.join(", ")));
        if !self.scan_inputs.is_empty() {
            let inputs: Vec<String> = self
                .scan_inputs
                .iter()
                .map(|i| {
                    let s = |k: &str| {
                        i.get(k)
                            .map(|v| v.to_string().trim_matches('"').to_string())
                    };
                    format!(
                        "`{}` ({}, {} games)",
                        s("source").unwrap_or_default(),
                        s("format").unwrap_or_default(),
                        s("games").unwrap_or_default()
                    )
                })
                .collect();
            out.push_str(&format!(
                "; the games table was scanned from {}",
                inputs.join(", ")
            ));
        }
        out.push('.');
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_of_a_file_matches_the_standard_test_vectors() {
        let dir = std::env::temp_dir().join(format!("floodgate-scan-sha-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // FIPS 180-2, appendix B.1 ("abc") and the empty message.
        let abc = dir.join("abc");
        std::fs::write(&abc, b"abc").unwrap();
        let r = file_record("games", &abc).unwrap();
        assert_eq!(r.bytes, 3);
        assert_eq!(
            r.sha256,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        let empty = dir.join("empty");
        std::fs::write(&empty, b"").unwrap();
        assert_eq!(
            file_record("games", &empty).unwrap().sha256,
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        // A file longer than one read block (65,536 bytes): one million 'a', appendix B.3.
        let million = dir.join("million");
        std::fs::write(&million, vec![b'a'; 1_000_000]).unwrap();
        assert_eq!(
            file_record("games", &million).unwrap().sha256,
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        );
        assert!(file_record("games", &dir.join("missing")).is_err());
        let bad = dir.join("summary.json");
        std::fs::write(&bad, b"{not json").unwrap();
        assert!(
            scan_inputs(&bad).is_err(),
            "bad JSON is an error, not a panic"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
