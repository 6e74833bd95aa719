//! The output does not depend on the number of jobs: `--jobs 1`, `2` and `8` write the
//! same files byte for byte, rows in the order of the inputs on the command line (the rows
//! formatted by one thread, or three side by side).

use crate::scan_support::*;

#[test]
fn one_two_and_eight_jobs_write_identical_files() {
    let dir = scratch("jobs");
    // Several inputs read side by side, one of them with an unreadable entry and one a 7z
    // of several blocks read in parts side by side, so that the ordering across inputs and
    // parts and the errors file are exercised too.
    let empty = dir.join("empty.csa");
    std::fs::write(&empty, b"").unwrap();
    let inputs = [
        fixture("synthetic.7z"),
        empty,
        fixture("synthetic-blocks.7z"),
        fixture("synthetic.tar.gz"),
        fixture("records"),
        fixture("synthetic.zip"),
        fixture("synthetic.tar"),
    ];
    let args: Vec<&str> = inputs.iter().map(|p| p.to_str().unwrap()).collect();
    let mut runs = Vec::new();
    // (`--jobs 8` formats on three threads.)
    for jobs in ["1", "2", "8"] {
        let mut a = vec!["-q", "--jobs", jobs];
        a.extend(&args);
        let run = scan(&dir.join(format!("j{jobs}")), &a);
        // The empty record is an unreadable entry: exit 1, one errors.csv row.
        assert_eq!(run.code, 1, "{}", run.stderr);
        run.assert_counted_once();
        assert_eq!(run.count("unreadable_entries"), 1, "{}", run.stderr);
        assert_eq!(run.count("failed_inputs"), 0, "{}", run.stderr);
        assert_eq!(run.count("entries_seen"), 6 * SYNTHETIC_GAMES + 1);
        runs.push(run);
    }
    let mut files = vec!["games.csv", "errors.csv", "summary.json"];
    if runs[0].out.join("games.parquet").exists() {
        files.push("games.parquet");
    }
    for f in files {
        for other in &runs[1..] {
            assert!(
                runs[0].file(f) == other.file(f),
                "{f} differs between --jobs 1 and {}",
                other.out.display()
            );
        }
    }
    // Rows follow the order of the inputs on the command line.
    let sources: Vec<String> = csv::Reader::from_path(runs[1].out.join("games.csv"))
        .unwrap()
        .records()
        .map(|r| r.unwrap()[0].to_string())
        .collect();
    let mut firsts: Vec<&String> = sources.iter().collect();
    firsts.dedup();
    assert_eq!(firsts.len(), 6, "each input's rows are contiguous");
    assert_eq!(firsts[0], args[0]);
    assert_eq!(firsts[1], args[2]);
    assert_eq!(firsts[4], args[5]);
    assert_eq!(firsts[5], args[6]);
}
