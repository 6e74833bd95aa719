//! Golden reports of the bundled fixtures: scanning the fixture archive built into the
//! program and making the report with the default settings must reproduce the committed
//! files under `reports/fixtures/` (regenerate with `scripts/regen-reports.sh`).
#![cfg(feature = "report")]

use std::path::{Path, PathBuf};
use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_floodgate-scan"))
}

#[test]
fn fixture_reports_match_the_goldens() {
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports/fixtures");
    let tmp: PathBuf =
        std::env::temp_dir().join(format!("floodgate-scan-golden-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    // Relative paths in the temporary folder, as scripts/regen-reports.sh runs them: the
    // report records its command line and the paths it read.
    std::fs::create_dir_all(&tmp).unwrap();
    let out = bin()
        .args(["scan", "--quiet", "-o", "scan"])
        .current_dir(&tmp)
        .output()
        .unwrap();
    assert!(
        out.status.code().is_some_and(|c| c <= 1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rep = tmp.join("report");
    let out = bin()
        .args(["report", "scan/games.parquet", "-o", "report"])
        .current_dir(&tmp)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut compared = 0;
    for entry in std::fs::read_dir(&golden).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        // Bytes, not text: the PDF files open with a binary comment line.
        let want = std::fs::read(&path).unwrap();
        let got = std::fs::read(rep.join(&name)).unwrap_or_else(|_| panic!("{name} not produced"));
        assert!(
            got == want,
            "{name} differs from its golden (scripts/regen-reports.sh):\n{}",
            String::from_utf8_lossy(&got)
        );
        compared += 1;
    }
    assert!(compared >= 10, "goldens present: {compared}");
    assert!(golden.join("report.md").exists());
    let _ = std::fs::remove_dir_all(&tmp);
}
