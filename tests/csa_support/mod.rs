//! Shared by the CSA record tests: finding a bundled record by its file-name prefix.
use std::path::PathBuf;

/// The one record in `fixtures/csa/DIR` whose name starts with `prefix`.
pub fn fixture_path(dir: &str, prefix: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/csa")
        .join(dir);
    let mut hits: Vec<_> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy().into_owned();
            n.starts_with(prefix) && n.ends_with(".csa")
        })
        .collect();
    assert_eq!(hits.len(), 1, "exactly one fixture {dir}/{prefix}*");
    hits.pop().unwrap()
}
