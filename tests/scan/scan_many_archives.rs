//! A folder of several hundred small archives (the shape of a download kept as many small
//! files): every entry is read once, every game is written once, in the same order and
//! the same bytes whatever the number of jobs, and nothing is left in the output folder
//! but the scan's own files. The archives are made here: `.tar` files of the synthetic
//! records, each record's id made unique to its archive, and copies of the synthetic `.7z`
//! files (one solid block, and several blocks read in parts), whose games repeat.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::scan_support::*;

/// `.tar` archives made, and records in each.
const TARS: usize = 360;
const PER_TAR: usize = 100;
/// Copies of each synthetic `.7z`.
const SEVENZ_COPIES: usize = 20;

/// Every record file of the synthetic set, in path order.
fn records() -> Vec<(String, Vec<u8>)> {
    fn walk(dir: &Path, root: &Path, out: &mut Vec<(String, Vec<u8>)>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, root, out);
            } else if p.extension().is_some_and(|e| e == "csa") {
                let name = p.strip_prefix(root).unwrap().to_string_lossy().into_owned();
                out.push((name, std::fs::read(&p).unwrap()));
            }
        }
    }
    let root = fixture("records");
    let mut out = Vec::new();
    walk(&root, &root, &mut out);
    out
}

/// The record with its id (`$EVENT`, or the file name without one) made unique to
/// archive `n`.
fn unique(n: usize, name: &str, bytes: &[u8]) -> (String, Vec<u8>) {
    let text = String::from_utf8_lossy(bytes);
    if text.contains("$EVENT:") {
        let text = text.replace("$EVENT:", &format!("$EVENT:a{n}-"));
        (name.to_string(), text.into_bytes())
    } else {
        let (dir, file) = name.rsplit_once('/').unwrap_or(("", name));
        (format!("{dir}/a{n}-{file}"), bytes.to_vec())
    }
}

fn make_tar(path: &Path, entries: &[(String, Vec<u8>)]) {
    let mut b = tar::Builder::new(std::fs::File::create(path).unwrap());
    for (name, bytes) in entries {
        let mut h = tar::Header::new_gnu();
        h.set_size(bytes.len() as u64);
        h.set_mode(0o644);
        h.set_mtime(0);
        h.set_cksum();
        b.append_data(&mut h, name, bytes.as_slice()).unwrap();
    }
    b.finish().unwrap();
}

#[test]
fn hundreds_of_small_archives_are_each_read_once() {
    let dir = scratch("many-archives");
    let many = dir.join("many");
    std::fs::create_dir_all(&many).unwrap();
    let recs = records();
    assert!(recs.len() >= 100, "{} records", recs.len());
    for n in 0..TARS {
        let entries: Vec<(String, Vec<u8>)> = (0..PER_TAR)
            .map(|i| {
                let (name, bytes) = &recs[(n * 7 + i) % recs.len()];
                unique(n, name, bytes)
            })
            .collect();
        make_tar(&many.join(format!("t{n:04}.tar")), &entries);
    }
    for n in 0..SEVENZ_COPIES {
        for kind in ["synthetic.7z", "synthetic-blocks.7z"] {
            std::fs::copy(fixture(kind), many.join(format!("s{n:03}-{kind}"))).unwrap();
        }
    }
    let archives = TARS + 2 * SEVENZ_COPIES;
    let mut runs = Vec::new();
    for jobs in ["1", "8"] {
        let out = dir.join(format!("out-j{jobs}"));
        let run = scan(&out, &["-q", "--jobs", jobs, many.to_str().unwrap()]);
        assert!(run.code == 0 || run.code == 1, "{}", run.stderr);
        run.assert_counted_once();
        let s = run.summary();
        let seen = run.count("entries_seen");
        let sevenz = 2 * SEVENZ_COPIES as u64 * SYNTHETIC_GAMES;
        assert_eq!(seen, (TARS * PER_TAR) as u64 + sevenz, "{s}");
        let inputs = s["inputs"].as_array().unwrap();
        // Each archive (the folder, with no records of its own, is no input).
        assert_eq!(inputs.len(), archives);
        for i in inputs {
            let src = i["source"].as_str().unwrap();
            let want = if src.ends_with(".tar") {
                PER_TAR as u64
            } else {
                SYNTHETIC_GAMES
            };
            assert_eq!(i["entries"].as_u64(), Some(want), "{src}");
            assert!(i["error"].is_null(), "{src}: {}", i["error"]);
        }
        // Each game of the tar files once; those of the 7z copies once a copy.
        let mut r = csv::Reader::from_path(out.join("games.csv")).unwrap();
        let id_col = r.headers().unwrap().iter().position(|h| h == "game_id");
        let id_col = id_col.unwrap();
        let mut ids: HashMap<String, u64> = HashMap::new();
        for rec in r.records() {
            *ids.entry(rec.unwrap()[id_col].to_string()).or_default() += 1;
        }
        let games = run.count("games");
        let tar_games: u64 = ids
            .iter()
            .filter(|(id, _)| id.starts_with('a'))
            .map(|(_, &n)| n)
            .sum();
        assert!(
            ids.iter()
                .filter(|(id, _)| id.starts_with('a'))
                .all(|(_, &n)| n == 1)
        );
        assert_eq!(
            run.count("duplicate_games"),
            games - ids.len() as u64,
            "every repeated game is one of the 7z copies' games"
        );
        assert!(tar_games > 0 && tar_games < games);
        // Only the scan's files are left: no spill file, no temporary.
        let mut left: Vec<String> = std::fs::read_dir(&out)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        // (The lock file stays: see the output folder's contract.)
        let mut want = vec![
            ".floodgate-scan.lock",
            "errors.csv",
            "games.csv",
            "summary.json",
        ];
        if out.join("games.parquet").exists() {
            want.insert(3, "games.parquet");
        }
        assert_eq!(left, want);
        runs.push(run);
    }
    for f in ["games.csv", "games.parquet", "errors.csv", "summary.json"] {
        let path = runs[0].out.join(f);
        if path.exists() {
            assert!(
                runs[0].file(f) == runs[1].file(f),
                "{f} differs between --jobs 1 and --jobs 8"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
