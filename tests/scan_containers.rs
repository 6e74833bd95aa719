//! The same records give the same table whatever they are packed in, and whatever the
//! number of jobs.
mod scan_support;

use std::fs::File;

use scan_support::*;

#[test]
fn every_container_gives_the_same_table() {
    let dir = scratch("containers");
    let folder = scan(
        &dir.join("folder"),
        &["-q", fixture("records").to_str().unwrap()],
    );
    assert_eq!(folder.code, 0, "{}", folder.stderr);
    folder.assert_counted_once();
    assert_eq!(folder.count("games"), SYNTHETIC_GAMES);
    let expected = folder.games_without_source();
    for name in [
        "synthetic.tar",
        "synthetic.tar.gz",
        "synthetic.7z",
        "synthetic-blocks.7z",
        "synthetic.zip",
    ] {
        let run = scan(&dir.join(name), &["-q", fixture(name).to_str().unwrap()]);
        assert_eq!(run.code, 0, "{name}: {}", run.stderr);
        run.assert_counted_once();
        assert_eq!(run.games_without_source(), expected, "{name}");
        assert!(run.errors().is_empty(), "{name}");
    }
    for name in ["synthetic.tar", "synthetic.tar.gz"] {
        let stdin = File::open(fixture(name)).unwrap();
        let run = scan_with_stdin(&dir.join(format!("stdin-{name}")), &["-q", "-"], stdin);
        assert_eq!(run.code, 0, "stdin {name}: {}", run.stderr);
        assert_eq!(run.games_without_source(), expected, "stdin {name}");
    }
}

#[test]
fn entries_are_named_by_their_path_inside_the_container() {
    let dir = scratch("entry-names");
    let run = scan(&dir, &["-q", fixture("synthetic.7z").to_str().unwrap()]);
    let mut r = csv::Reader::from_path(dir.join("games.csv")).unwrap();
    let mut names = Vec::new();
    for rec in r.records() {
        let rec = rec.unwrap();
        assert_eq!(&rec[0], fixture("synthetic.7z").to_str().unwrap());
        names.push(rec[1].to_string());
    }
    assert_eq!(names.len() as u64, run.count("games"));
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted, "entries in the archive's (sorted) order");
    for n in &names {
        let (year, file) = n.split_once('/').expect("YYYY/<id>.csa");
        assert!(
            year.len() == 4 && year.bytes().all(|b| b.is_ascii_digit()),
            "{n}"
        );
        assert!(
            file.starts_with("wdoor+floodgate-") && file.ends_with(".csa"),
            "{n}"
        );
    }
}

#[test]
fn format_is_recognised_by_content_not_name() {
    let dir = scratch("by-content");
    let expected = scan(
        &dir.join("ref"),
        &["-q", fixture("synthetic.7z").to_str().unwrap()],
    )
    .games_without_source();
    for (name, renamed) in [
        ("synthetic.7z", "a.dat"),
        ("synthetic.tar.gz", "b.bin"),
        ("synthetic.zip", "c"),
        ("synthetic.tar", "d.tar.gz"),
    ] {
        let path = dir.join(renamed);
        std::fs::copy(fixture(name), &path).unwrap();
        let run = scan(
            &dir.join(format!("out-{renamed}")),
            &["-q", path.to_str().unwrap()],
        );
        assert_eq!(run.code, 0, "{name} as {renamed}: {}", run.stderr);
        assert_eq!(run.games_without_source(), expected, "{name} as {renamed}");
    }
}

#[test]
fn one_job_and_four_jobs_write_identical_files() {
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
    ];
    let args: Vec<&str> = inputs.iter().map(|p| p.to_str().unwrap()).collect();
    let mut runs = Vec::new();
    for jobs in ["1", "4"] {
        let mut a = vec!["-q", "--jobs", jobs];
        a.extend(&args);
        let run = scan(&dir.join(format!("j{jobs}")), &a);
        assert!(run.code == 0 || run.code == 1, "{}", run.stderr);
        run.assert_counted_once();
        assert_eq!(run.count("entries_seen"), 5 * SYNTHETIC_GAMES + 1);
        runs.push(run);
    }
    let mut files = vec!["games.csv", "errors.csv", "summary.json"];
    if runs[0].out.join("games.parquet").exists() {
        files.push("games.parquet");
    }
    for f in files {
        assert!(
            runs[0].file(f) == runs[1].file(f),
            "{f} differs between --jobs 1 and --jobs 4"
        );
    }
    // Rows follow the order of the inputs on the command line.
    let sources: Vec<String> = csv::Reader::from_path(runs[1].out.join("games.csv"))
        .unwrap()
        .records()
        .map(|r| r.unwrap()[0].to_string())
        .collect();
    let mut firsts: Vec<&String> = sources.iter().collect();
    firsts.dedup();
    assert_eq!(firsts.len(), 5, "each input's rows are contiguous");
    assert_eq!(firsts[0], args[0]);
    assert_eq!(firsts[1], args[2]);
    assert_eq!(firsts[4], args[5]);
}
