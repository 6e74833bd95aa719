//! The `scan` command line as a user meets it: default run, exit codes, messages.

use std::process::Command;

use crate::scan_support::*;

#[test]
fn no_input_scans_the_built_in_fixtures() {
    let dir = scratch("default-run");
    let out = dir.join("out");
    let output = Command::new(BIN)
        .current_dir(&dir)
        .args(["scan", "-o"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let csa = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/csa");
    let records = ["real", "server"]
        .iter()
        .flat_map(|d| std::fs::read_dir(csa.join(d)).unwrap())
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "csa")
        })
        .count() as u64;
    assert!(records >= 20);
    let run = Run {
        code: 0,
        stdout,
        stderr: String::new(),
        out,
    };
    assert!(
        run.stdout.contains(&format!(
            "{} entries read from 2 inputs",
            records + SYNTHETIC_GAMES
        )),
        "{}",
        run.stdout
    );
    run.assert_counted_once();
    let per_year: u64 = run.summary()["games_by_year"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(
        per_year,
        run.count("games"),
        "every game counted in one year"
    );
    // The built-in data is exactly the fixtures on disk.
    let on_disk = scan(
        &dir.join("disk"),
        &[
            "-q",
            csa.to_str().unwrap(),
            fixture("synthetic.7z").to_str().unwrap(),
        ],
    );
    assert_eq!(run.games_without_source(), on_disk.games_without_source());
}

#[test]
fn default_output_folder_is_created_in_the_working_directory() {
    let dir = scratch("default-outdir");
    let output = Command::new(BIN)
        .current_dir(&dir)
        .args(["scan", "-q"])
        .arg(fixture("synthetic.tar.gz"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert!(output.stdout.is_empty(), "--quiet prints no summary");
    for f in ["games.csv", "errors.csv", "summary.json"] {
        assert!(dir.join("floodgate-scan-out").join(f).is_file(), "{f}");
    }
}

#[test]
fn unwritable_output_folder_exits_2_with_a_clear_message() {
    let dir = scratch("unwritable");
    let blocker = dir.join("a-file");
    std::fs::write(&blocker, b"not a folder").unwrap();
    let run = scan(
        &blocker.join("out"),
        &["-q", fixture("synthetic.7z").to_str().unwrap()],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("a-file"),
        "message names the folder: {}",
        run.stderr
    );
    assert!(
        run.stderr.contains("cannot create output folder"),
        "{}",
        run.stderr
    );
    // One line, the folder and the cause said once each.
    assert_eq!(run.stderr.trim_end().lines().count(), 1, "{}", run.stderr);
    assert_eq!(run.stderr.matches("a-file").count(), 1, "{}", run.stderr);
    assert_eq!(run.stderr.matches("os error").count(), 1, "{}", run.stderr);
}

#[test]
fn bad_flags_exit_2() {
    let dir = scratch("bad-flags");
    for args in [
        &["--jobs", "0"][..],
        &["--jobs", "many"],
        &["--no-such-flag"],
    ] {
        let run = scan(&dir, args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(!run.stderr.is_empty());
    }
    let run = scan(&dir, &["-", "-"]);
    assert_eq!(run.code, 2, "stdin twice: {}", run.stderr);
}

/// A build without the report tables refuses `--report` before scanning anything (the
/// test command builds the default features; this runs with `--no-default-features`).
#[cfg(not(feature = "report"))]
#[test]
fn report_without_the_report_feature_exits_2_before_the_scan() {
    let dir = scratch("no-report-feature");
    let run = scan(&dir, &["--report", "-q"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("`report` feature"), "{}", run.stderr);
    assert!(
        !dir.join("games.csv").exists(),
        "the scan ran before the refusal"
    );
}

#[test]
fn missing_input_is_a_usage_error_before_anything_is_written() {
    // A typo in a path: exit 2, the path named, no output folder made (was: exit 1 and the
    // other inputs written).
    let dir = scratch("missing-input");
    let missing = dir.join("no-such.7z");
    let out = dir.join("out");
    let run = scan(
        &out,
        &[
            "-q",
            fixture("synthetic.tar.gz").to_str().unwrap(),
            missing.to_str().unwrap(),
        ],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("no-such.7z: ") && run.stderr.contains("nothing was written"),
        "{}",
        run.stderr
    );
    assert!(!out.exists(), "nothing written");
    // An input that exists but breaks while being read keeps exit 1, the rest read.
    let broken = dir.join("broken.7z");
    std::fs::write(&broken, b"7z\xBC\xAF\x27\x1C but nothing else").unwrap();
    let run = scan(
        &out,
        &[
            "-q",
            broken.to_str().unwrap(),
            fixture("synthetic.tar.gz").to_str().unwrap(),
        ],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(run.count("games"), SYNTHETIC_GAMES);
    assert_eq!(run.count("failed_inputs"), 1);
    run.assert_counted_once();
}

#[test]
fn printed_summary_gives_the_totals() {
    let dir = scratch("printed");
    let run = scan(&dir, &[fixture("synthetic.zip").to_str().unwrap()]);
    assert_eq!(run.code, 0);
    for needle in [
        "entries read from 1 input",
        "games:",
        "unreadable entries: 0",
        "per year:",
        "54-point violations",
        "wrote",
    ] {
        assert!(
            run.stdout.contains(needle),
            "{needle:?} missing from:\n{}",
            run.stdout
        );
    }
    assert!(
        !run.stderr.contains('\r'),
        "no progress bar when standard error is not a terminal"
    );
}

#[test]
fn inputs_without_a_record_are_complete_scans_with_a_warning() {
    let dir = scratch("no-record");
    let empty = dir.join("no-records");
    std::fs::create_dir_all(&empty).unwrap();
    let run = scan(&dir, &[empty.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    run.assert_counted_once();
    assert_eq!(run.summary()["entries_seen"], 0);
    let lines: Vec<&str> = run.stdout.lines().map(str::trim).collect();
    assert!(lines.contains(&"games: 0"), "{}", run.stdout);
    assert!(lines.contains(&"per year: none"), "{}", run.stdout);
    assert_eq!(run.errors().len(), 0);
    assert!(
        run.stderr.contains("warning: ") && run.stderr.contains("no-records: no CSA record found"),
        "{}",
        run.stderr
    );

    // An archive holding only other files names how many it skipped.
    let tar = dir.join("notes.tar");
    let mut b = tar::Builder::new(std::fs::File::create(&tar).unwrap());
    let text = b"not a record\n";
    let mut header = tar::Header::new_gnu();
    header.set_size(text.len() as u64);
    header.set_mode(0o644);
    b.append_data(&mut header, "notes.txt", &text[..]).unwrap();
    b.into_inner().unwrap();
    let run = scan(&dir, &[tar.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    run.assert_counted_once();
    assert_eq!(run.summary()["skipped_files"], 1);
    assert!(
        run.stderr
            .contains("notes.tar: no CSA record found (1 other file skipped)"),
        "{}",
        run.stderr
    );
}
