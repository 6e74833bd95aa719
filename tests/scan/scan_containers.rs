//! The same records give the same table whatever they are packed in (the number of jobs
//! has its own contract, `output_independent_of_jobs.rs`).

use std::fs::File;

use crate::scan_support::*;

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
