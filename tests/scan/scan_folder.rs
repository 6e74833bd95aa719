//! A download folder is the input: every archive below a folder is read as an input of its
//! own (after the folder's own records, in sorted path order), other files are counted as
//! skipped, and the same game met twice is counted, warned about, and with `--dedupe`
//! written once.

use std::fs;
use std::path::{Path, PathBuf};

use crate::scan_support::*;

fn copy(from: &str, dir: &Path, to: &str) -> PathBuf {
    let p = dir.join(to);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::copy(fixture(from), &p).unwrap();
    p
}

/// One record of the fixture set: (name, bytes).
fn one_record() -> (String, Vec<u8>) {
    let mut files: Vec<PathBuf> = fs::read_dir(fixture("records").join("2009"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let p = &files[0];
    (
        p.file_name().unwrap().to_str().unwrap().to_string(),
        fs::read(p).unwrap(),
    )
}

/// The `source` column of `games.csv`, in order.
fn sources(run: &Run) -> Vec<String> {
    csv::Reader::from_path(run.out.join("games.csv"))
        .unwrap()
        .records()
        .map(|r| r.unwrap()[0].to_string())
        .collect()
}

/// A download folder: an archive of every kind (one in a subfolder, one renamed so that
/// only its content tells what it is), a record, and a stray text file.
fn download(dir: &Path) -> PathBuf {
    let dl = dir.join("dl");
    copy("synthetic.7z", &dl, "wdoor2009.7z");
    copy("synthetic-blocks.7z", &dl, "more/blocks.7z");
    copy("synthetic.tar", &dl, "c.tar");
    copy("synthetic.tar.gz", &dl, "d.tar.gz");
    copy("synthetic.tar.gz", &dl, "e.tgz");
    copy("synthetic.zip", &dl, "f.zip");
    copy("synthetic.zip", &dl, "renamed.dat");
    let (name, bytes) = one_record();
    fs::write(dl.join(name), bytes).unwrap();
    fs::write(dl.join("README.txt"), b"downloaded from the wdoor site\n").unwrap();
    dl
}

#[test]
fn a_folder_of_archives_reads_each_archive_as_its_own_source() {
    let dir = scratch("folder-of-archives");
    let dl = download(&dir);
    let d = dl.to_str().unwrap();
    let run = scan(&dir.join("out"), &["-q", d]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    run.assert_counted_once();
    let archives = [
        "c.tar",
        "d.tar.gz",
        "e.tgz",
        "f.zip",
        "more/blocks.7z",
        "renamed.dat",
        "wdoor2009.7z",
    ];
    let expected_sources: Vec<String> = std::iter::once(d.to_string())
        .chain(archives.iter().map(|a| format!("{d}/{a}")))
        .collect();
    let s = run.summary();
    let inputs = s["inputs"].as_array().unwrap();
    let listed: Vec<&str> = inputs
        .iter()
        .map(|i| i["source"].as_str().unwrap())
        .collect();
    assert_eq!(
        listed, expected_sources,
        "the folder's records, then each archive"
    );
    // The folder itself: its one record and the stray file, skipped (not silently lost).
    assert_eq!(inputs[0]["games"], 1);
    assert_eq!(inputs[0]["skipped"], 1);
    assert_eq!(inputs[0]["format"], "folder");
    assert_eq!(
        s["skipped_sample"][0].as_str().unwrap(),
        format!("{d}: README.txt")
    );
    for (i, kind) in inputs[1..]
        .iter()
        .zip(["tar", "gzip", "gzip", "zip", "7z", "zip", "7z"])
    {
        assert_eq!(i["games"], SYNTHETIC_GAMES, "{i}");
        assert_eq!(i["format"], kind, "{i}");
    }
    let total = 1 + 7 * SYNTHETIC_GAMES;
    assert_eq!(run.count("games"), total);
    // Every row names its archive, in the order of the inputs.
    let mut rows_sources = sources(&run);
    assert_eq!(rows_sources.len() as u64, total);
    rows_sources.dedup();
    assert_eq!(rows_sources, expected_sources);
    // The same games seven times over: counted and warned about, not dropped.
    assert_eq!(run.count("duplicate_games"), total - SYNTHETIC_GAMES);
    assert_eq!(run.count("duplicates_dropped"), 0);
    assert!(
        run.stderr.contains("already seen under the same id") && run.stderr.contains("--dedupe"),
        "{}",
        run.stderr
    );
    // No "no CSA record" warning for a folder that holds archives.
    assert!(!run.stderr.contains("no CSA record"), "{}", run.stderr);

    // Named one by one, in the same order: the same rows, byte for byte (the folder's
    // records aside, whose source is the folder).
    let named: Vec<String> = archives.iter().map(|a| format!("{d}/{a}")).collect();
    let mut args = vec!["-q"];
    args.extend(named.iter().map(String::as_str));
    let one_by_one = scan(&dir.join("out-named"), &args);
    assert_eq!(one_by_one.code, 0, "{}", one_by_one.stderr);
    let text = |run: &Run| String::from_utf8(run.file("games.csv")).unwrap();
    let folder_rows: Vec<String> = text(&run)
        .lines()
        .filter(|l| !l.starts_with(&format!("{d},")))
        .map(str::to_string)
        .collect();
    let named_rows: Vec<String> = text(&one_by_one).lines().map(str::to_string).collect();
    assert_eq!(folder_rows, named_rows);

    // Whatever the number of jobs (and so the order the archives are read in, the
    // largest first), the same bytes.
    for jobs in ["1", "3"] {
        let other = scan(
            &dir.join(format!("out-j{jobs}")),
            &["-q", "--jobs", jobs, d],
        );
        assert_eq!(other.code, 0, "{}", other.stderr);
        assert_eq!(
            other.file("games.csv"),
            run.file("games.csv"),
            "--jobs {jobs}"
        );
        assert_eq!(other.summary(), run.summary(), "--jobs {jobs}");
    }
}

#[test]
fn the_printed_summary_lists_each_archive_of_the_folder() {
    let dir = scratch("folder-printed");
    let dl = dir.join("dl");
    copy("synthetic.7z", &dl, "wdoor2009.7z");
    copy("synthetic.zip", &dl, "wdoor2010.zip");
    let run = scan(&dir.join("out"), &[dl.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("from 2 inputs"), "{}", run.stdout);
    for a in ["wdoor2009.7z", "wdoor2010.zip"] {
        let line = format!("{}: {SYNTHETIC_GAMES} games", dl.join(a).display());
        assert!(run.stdout.contains(&line), "{line:?} in:\n{}", run.stdout);
    }
    // Only archives: the folder is no source of its own.
    assert_eq!(run.summary()["inputs"].as_array().unwrap().len(), 2);
}

#[test]
fn the_same_archive_twice_is_counted_and_with_dedupe_written_once() {
    let dir = scratch("dedupe");
    let a = fixture("synthetic.7z");
    let a = a.to_str().unwrap();
    let single = scan(&dir.join("single"), &["-q", a]);
    assert_eq!(single.code, 0);

    let twice = scan(&dir.join("twice"), &["-q", a, a]);
    assert_eq!(twice.code, 0, "{}", twice.stderr);
    twice.assert_counted_once();
    assert_eq!(twice.count("games"), 2 * SYNTHETIC_GAMES);
    assert_eq!(twice.count("duplicate_games"), SYNTHETIC_GAMES);
    let s = twice.summary();
    assert_eq!(s["inputs"][0]["duplicates"], 0);
    assert_eq!(s["inputs"][1]["duplicates"], SYNTHETIC_GAMES);
    let first_id = csv::Reader::from_path(single.out.join("games.csv"))
        .unwrap()
        .records()
        .next()
        .unwrap()
        .unwrap()[2]
        .to_string();
    let sample = s["duplicate_sample"][0].as_str().unwrap();
    assert_eq!(sample, format!("{first_id} (twice in {a})"));
    assert!(
        twice.stderr.contains(&first_id) && twice.stderr.contains("150 games already seen"),
        "{}",
        twice.stderr
    );

    let deduped = scan(&dir.join("deduped"), &["-q", "--dedupe", a, a]);
    assert_eq!(deduped.code, 0, "{}", deduped.stderr);
    deduped.assert_counted_once();
    assert_eq!(deduped.file("games.csv"), single.file("games.csv"));
    assert_eq!(deduped.count("games"), SYNTHETIC_GAMES);
    assert_eq!(deduped.count("entries_seen"), 2 * SYNTHETIC_GAMES);
    assert_eq!(deduped.count("duplicates_dropped"), SYNTHETIC_GAMES);
    let (d, one) = (deduped.summary(), single.summary());
    for key in [
        "games_by_year",
        "games_by_status",
        "final_board",
        "points54_checked",
    ] {
        assert_eq!(d[key], one[key], "{key}: the totals are of the games kept");
    }
    assert_eq!(d["inputs"][1]["games"], 0);
    assert_eq!(d["inputs"][1]["entries"], SYNTHETIC_GAMES);
}

#[test]
fn an_archive_beside_its_extracted_folder_keeps_the_folder_s_rows_with_dedupe() {
    let dir = scratch("dedupe-beside");
    let dl = dir.join("dl");
    copy("synthetic.tar.gz", &dl, "wdoor.tar.gz");
    for e in walk(&fixture("records")) {
        let rel = e.strip_prefix(fixture("records")).unwrap();
        let to = dl.join("extracted").join(rel);
        fs::create_dir_all(to.parent().unwrap()).unwrap();
        fs::copy(&e, &to).unwrap();
    }
    let d = dl.to_str().unwrap();
    let run = scan(&dir.join("out"), &["-q", "--dedupe", d]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    run.assert_counted_once();
    assert_eq!(run.count("games"), SYNTHETIC_GAMES);
    assert_eq!(run.count("duplicates_dropped"), SYNTHETIC_GAMES);
    // The folder's records come first in the output: theirs are the rows kept.
    let mut kept = sources(&run);
    kept.dedup();
    assert_eq!(kept, [d]);
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}
