//! Contract: no input, however broken, makes `scan` panic. Truncated and corrupt archives,
//! random bytes as archives and as records, broken compression, wrong encodings, empty
//! files, nested folders and non-record files are all counted: every entry read is a game
//! or an unreadable entry (never both, never lost), the entries read before a break are
//! kept, messages name the archive and the entry, and the exit code says whether
//! everything was read (0) or not (1): each test states the code its input fixes.

use std::fs;
use std::path::{Path, PathBuf};

use crate::scan_support::*;

/// Deterministic pseudo-random bytes, so failures reproduce.
fn noise(len: usize, seed: u64) -> Vec<u8> {
    let mut rng = floodgate_scan::rng::XorShift64Star::new(seed);
    (0..len).map(|_| rng.next_u64() as u8).collect()
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.join(name);
    if let Some(parent) = p.parent() {
        fs::create_dir_all(parent).unwrap();
    }
    fs::write(&p, bytes).unwrap();
    p
}

/// Scan `input` alone: no panic, every entry counted once, and the exit code `want`
/// (`None` where the input leaves it to what was read), which must say whether
/// everything was read: 0 with no unreadable entry and no failed input, else 1.
fn run_one(test: &str, input: &Path, want: Option<i32>) -> Run {
    let dir = scratch(test);
    let run = scan(&dir.join("out"), &["-q", input.to_str().unwrap()]);
    assert!(!run.stderr.contains("panicked"), "{test}: {}", run.stderr);
    if let Some(want) = want {
        assert_eq!(run.code, want, "{test} (a panic is 101): {}", run.stderr);
    }
    run.assert_counted_once();
    let all_read = run.count("unreadable_entries") == 0 && run.count("failed_inputs") == 0;
    assert_eq!(
        run.code,
        if all_read { 0 } else { 1 },
        "{test}: the exit code says whether everything was read: {}",
        run.summary()
    );
    run
}

fn truncated(name: &str, keep: f64) -> Vec<u8> {
    let bytes = fs::read(fixture(name)).unwrap();
    bytes[..(bytes.len() as f64 * keep) as usize].to_vec()
}

/// Scan `fixture` cut to `keep` of its length (as `out`): the run fails (exit 1), the
/// games before the cut are kept, and the one error names the archive and the record being
/// read at the cut. The run, its game count and that error.
fn cut_keeps_earlier_entries(
    test: &str,
    fixture: &str,
    out: &str,
    keep: f64,
) -> (Run, u64, [String; 4]) {
    let dir = scratch(&format!("{test}-in"));
    let p = write(&dir, out, &truncated(fixture, keep));
    let run = run_one(test, &p, Some(1));
    assert_eq!(run.code, 1);
    let games = run.count("games");
    assert!(
        games > 30 && games < SYNTHETIC_GAMES,
        "entries before the cut are kept: {games}"
    );
    let mut errors = run.errors();
    assert_eq!(errors.len(), 1, "{errors:?}");
    let error = errors.remove(0);
    assert!(
        error[0].ends_with(out) && error[1].ends_with(".csa"),
        "{error:?}"
    );
    (run, games, error)
}

#[test]
fn truncated_tar_keeps_earlier_entries_and_names_the_broken_one() {
    let (run, _, _) = cut_keeps_earlier_entries("trunc-tar", "synthetic.tar", "cut.tar", 0.5);
    assert!(
        run.stderr.contains("cut.tar: ") && run.stderr.contains(".csa: "),
        "{}",
        run.stderr
    );
}

#[test]
fn truncated_tar_gz_keeps_earlier_entries() {
    let dir = scratch("trunc-tgz-in");
    let p = write(&dir, "cut.tar.gz", &truncated("synthetic.tar.gz", 0.6));
    let run = run_one("trunc-tgz", &p, Some(1));
    assert_eq!(run.code, 1);
    let games = run.count("games");
    assert!(games > 30 && games < SYNTHETIC_GAMES, "{games}");
    assert!(run.stderr.contains("cut.tar.gz: "), "{}", run.stderr);
}

#[test]
fn truncated_7z_fails_saying_it_is_cut_short() {
    // A 7z archive keeps its index at the end: a partial download has no readable entry,
    // and the message says why (anywhere in the packed data, or inside the start header).
    let dir = scratch("trunc-7z-in");
    for keep in [0.7, 0.0001] {
        let p = write(&dir, "cut.7z", &truncated("synthetic.7z", keep));
        let run = run_one("trunc-7z", &p, Some(1));
        assert_eq!(run.code, 1, "{keep}");
        assert_eq!(run.count("failed_inputs"), 1, "{keep}");
        assert_eq!(run.count("entries_seen"), 0, "{keep}");
        assert!(
            run.stderr.contains("cut.7z: the archive is cut short (")
                && run.stderr.contains("incomplete download"),
            "{keep}: {}",
            run.stderr
        );
    }
}

#[test]
fn truncated_zip_keeps_earlier_entries_and_names_the_broken_one() {
    // No directory at the end: the members are read from their own headers up to the cut.
    let (run, games, error) =
        cut_keeps_earlier_entries("trunc-zip", "synthetic.zip", "cut.zip", 0.71);
    assert_eq!(run.count("failed_inputs"), 1);
    assert!(
        error[3].contains("cannot read the zip directory")
            && error[3].contains(&format!("read front to back: {games} members")),
        "{error:?}"
    );
    let dir = scratch("trunc-zip-in");
    // Cut right after a member: the records before it are all read, none is unreadable.
    let bytes = fs::read(fixture("synthetic.zip")).unwrap();
    let members = zip_members(&bytes);
    let cut = 40;
    let records = members[..cut]
        .iter()
        .filter(|m| m.0.ends_with(".csa"))
        .count() as u64;
    let p = write(&dir, "edge.zip", &bytes[..members[cut - 1].2]);
    let run = run_one("trunc-zip-edge", &p, Some(1));
    assert_eq!(run.code, 1);
    assert_eq!(
        (run.count("games"), run.count("unreadable_entries")),
        (records, 0)
    );
    assert!(
        run.stderr.contains(&format!(
            "read front to back: {records} members, then the file ends"
        )),
        "{}",
        run.stderr
    );
    // Cut inside the first local header: nothing to read, the input is still named.
    let p = write(&dir, "stub.zip", &truncated("synthetic.zip", 0.00002));
    let run = run_one("trunc-zip-stub", &p, Some(1));
    assert_eq!((run.code, run.count("entries_seen")), (1, 0));
    assert!(run.stderr.contains("stub.zip: "), "{}", run.stderr);
}

#[test]
fn zip_with_a_damaged_directory_is_read_from_its_local_headers() {
    // Every member is intact, the end-of-directory record is not: all games are read,
    // and the input is still reported as broken.
    let dir = scratch("eocd-zip-in");
    let mut bytes = fs::read(fixture("synthetic.zip")).unwrap();
    let eocd = bytes
        .windows(4)
        .rposition(|w| w == b"PK\x05\x06")
        .expect("end of central directory record");
    bytes[eocd..eocd + 4].copy_from_slice(b"XXXX");
    let p = write(&dir, "eocd.zip", &bytes);
    let run = run_one("eocd-zip", &p, Some(1));
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(run.count("failed_inputs"), 1);
    assert_eq!(run.count("unreadable_entries"), 0);
    assert_eq!(run.count("games"), SYNTHETIC_GAMES);
    assert!(
        run.stderr.contains("up to the damaged directory"),
        "{}",
        run.stderr
    );
}

#[test]
fn corrupt_7z_data_is_reported_never_analysed_silently() {
    let dir = scratch("corrupt-7z-in");
    let mut bytes = fs::read(fixture("synthetic.7z")).unwrap();
    // Damage the packed stream in the middle of the solid block (the header is at the end).
    let mid = bytes.len() / 2;
    for b in &mut bytes[mid..mid + 16] {
        *b ^= 0x5a;
    }
    let p = write(&dir, "bad.7z", &bytes);
    let run = run_one("corrupt-7z", &p, Some(1));
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("bad.7z: "), "{}", run.stderr);
    assert!(run.count("games") < SYNTHETIC_GAMES);
}

#[test]
fn a_corrupt_block_of_a_7z_loses_only_its_own_entries() {
    // A 7z of 15 blocks (10 records each): damage the packed data of some blocks. The entry
    // each failed in is named and the run fails, but every other block is read all the same.
    let path = fixture("synthetic-blocks.7z");
    let archive =
        sevenz_rust2::Archive::read(&mut fs::File::open(&path).unwrap(), &Default::default())
            .unwrap();
    assert_eq!(archive.blocks.len(), 15);
    let start = 32 + archive.pack_pos() as usize;
    let sizes = archive.pack_sizes();
    let block_of = &archive.stream_map.file_block_index;
    for damaged in [vec![7], vec![3, 11]] {
        let mut bytes = fs::read(&path).unwrap();
        for &k in &damaged {
            let at = start + sizes[..k].iter().sum::<u64>() as usize + sizes[k] as usize / 2;
            for b in &mut bytes[at..at + 16] {
                *b ^= 0x5a;
            }
        }
        let test = format!("corrupt-blocks-{damaged:?}");
        let p = write(&scratch(&format!("{test}-in")), "blocks.7z", &bytes);
        let run = run_one(&test, &p, Some(1));
        assert_eq!(run.code, 1, "{}", run.stderr);
        assert!(run.stderr.contains("blocks.7z: "), "{}", run.stderr);
        let games = run.count("games");
        let lost = 10 * damaged.len() as u64;
        assert!(
            (SYNTHETIC_GAMES - lost..SYNTHETIC_GAMES).contains(&games),
            "{damaged:?}: {games} games"
        );
        // Every entry of the other blocks, before and after a damaged one, has its row;
        // each entry named unreadable is one of a damaged block's, in archive order.
        let rows: std::collections::HashSet<String> =
            csv::Reader::from_path(run.out.join("games.csv"))
                .unwrap()
                .records()
                .map(|r| r.unwrap()[1].to_string())
                .collect();
        for (file, block) in archive.files.iter().zip(block_of) {
            if let Some(b) = block
                && !damaged.contains(b)
            {
                assert!(
                    rows.contains(file.name()),
                    "{damaged:?}: {} of block {b}",
                    file.name()
                );
            }
        }
        let named: Vec<Option<usize>> = run
            .errors()
            .iter()
            .map(|e| {
                let i = archive.files.iter().position(|f| f.name() == e[1]);
                i.and_then(|i| block_of[i])
            })
            .collect();
        assert_eq!(named, damaged.iter().map(|&k| Some(k)).collect::<Vec<_>>());
    }
}

/// The members of a zip written without data descriptors, from their local headers:
/// (name, where the data starts, where it ends). A header is 30 bytes, then the name and
/// the extra field; a folder member has no data.
fn zip_members(bytes: &[u8]) -> Vec<(String, usize, usize)> {
    let le16 = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]) as usize;
    let mut members = Vec::new();
    let mut at = 0;
    while bytes[at..at + 4] == *b"PK\x03\x04" {
        let compressed = u32::from_le_bytes(bytes[at + 18..at + 22].try_into().unwrap()) as usize;
        let (name_len, extra_len) = (le16(at + 26), le16(at + 28));
        let name = String::from_utf8(bytes[at + 30..at + 30 + name_len].to_vec()).unwrap();
        let data = at + 30 + name_len + extra_len;
        members.push((name, data, data + compressed));
        at = data + compressed;
    }
    members
}

#[test]
fn corrupt_zip_entry_is_unreadable_and_the_others_are_read() {
    let dir = scratch("corrupt-zip-in");
    let mut bytes = fs::read(fixture("synthetic.zip")).unwrap();
    let (first_name, data, _) = zip_members(&bytes)
        .into_iter()
        .find(|m| m.0.ends_with(".csa"))
        .unwrap();
    for b in &mut bytes[data + 20..data + 40] {
        *b ^= 0xff;
    }
    let p = write(&dir, "bad.zip", &bytes);
    let run = run_one("corrupt-zip", &p, Some(1));
    assert_eq!(run.code, 1);
    assert_eq!(run.count("unreadable_entries"), 1);
    assert_eq!(run.count("games"), SYNTHETIC_GAMES - 1);
    let errors = run.errors();
    assert_eq!(errors[0][1], first_name, "{errors:?}");
}

#[test]
fn random_bytes_as_archives_fail_cleanly() {
    let dir = scratch("noise-archives-in");
    for (i, name) in [
        "noise.7z",
        "noise.zip",
        "noise.tar",
        "noise.tar.gz",
        "noise.tgz",
    ]
    .into_iter()
    .enumerate()
    {
        let p = write(&dir, name, &noise(20_000, i as u64 + 1));
        let run = run_one(&format!("noise-{name}"), &p, Some(1));
        assert_eq!(run.code, 1, "{name}");
        assert_eq!(run.count("entries_seen"), 0, "{name}");
        assert!(run.stderr.contains(name), "{name}: {}", run.stderr);
    }
}

#[test]
fn archives_with_a_real_signature_and_garbage_after_it() {
    let dir = scratch("bad-body-in");
    let mut seven = b"7z\xBC\xAF\x27\x1C\x00\x04".to_vec();
    seven.extend(noise(5000, 7));
    let mut gz = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3];
    gz.extend(noise(5000, 8));
    let mut zip = b"PK\x03\x04".to_vec();
    zip.extend(noise(5000, 9));
    for (name, bytes) in [("sig.7z", seven), ("sig.tar.gz", gz), ("sig.zip", zip)] {
        let p = write(&dir, name, &bytes);
        let run = run_one(&format!("sig-{name}"), &p, Some(1));
        assert_eq!(run.code, 1, "{name}");
        assert!(run.stderr.contains(name), "{name}: {}", run.stderr);
    }
}

#[test]
fn random_bytes_on_standard_input() {
    let dir = scratch("noise-stdin");
    let p = write(&dir, "in.bin", &noise(4096, 3));
    let run = scan_with_stdin(&dir.join("out"), &["-q", "-"], fs::File::open(&p).unwrap());
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.contains("-: not a tar archive"),
        "{}",
        run.stderr
    );
    run.assert_counted_once();
}

#[test]
fn odd_records_in_a_nested_folder_are_each_counted_once() {
    let dir = scratch("odd-folder-in");
    let root = dir.join("tree");
    let good = fs::read_dir(fixture("records/2009"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let good = fs::read(good).unwrap();
    write(&root, "a/b/c/deep.csa", &good);
    write(&root, "empty.csa", b"");
    write(&root, "noise.csa", &noise(3000, 11));
    write(&root, "nul.csa", &[0u8; 700]);
    // A record in a legacy encoding: comment bytes that are not UTF-8 (EUC-JP / Shift_JIS).
    let mut legacy = good.clone();
    legacy.extend_from_slice(b"'\xa4\xb3\xa4\xf3\xa4\xcb\xa4\xc1\xa4\xcf\n'\x82\xb1\x82\xf1\n");
    write(&root, "legacy.csa", &legacy);
    write(&root, "cut.csa", &good[..good.len() / 3]);
    write(&root, "README.txt", b"not a record");
    write(&root, "x/notes.md", b"# notes");
    fs::create_dir_all(root.join("empty-dir")).unwrap();
    let run = run_one("odd-folder", &root, Some(1));
    assert_eq!(run.count("entries_seen"), 6, "only *.csa files are entries");
    // Other files in a folder are no entries, but counted as skipped (not silently lost).
    assert_eq!(run.count("skipped_files"), 2);
    let sample = &run.summary()["skipped_sample"];
    assert_eq!(
        (sample[0].as_str().unwrap(), sample[1].as_str().unwrap()),
        (
            format!("{}: README.txt", root.display()).as_str(),
            format!("{}: x/notes.md", root.display()).as_str()
        )
    );
    // Each entry appears once, as a row or as an error, whatever its verdict.
    let mut names: Vec<String> = csv::Reader::from_path(run.out.join("games.csv"))
        .unwrap()
        .records()
        .map(|r| r.unwrap()[1].to_string())
        .collect();
    names.extend(run.errors().into_iter().map(|e| e[1].clone()));
    names.sort();
    assert_eq!(
        names,
        [
            "a/b/c/deep.csa",
            "cut.csa",
            "empty.csa",
            "legacy.csa",
            "noise.csa",
            "nul.csa"
        ]
    );
}

#[test]
fn non_record_files_inside_archives_are_skipped_and_listed() {
    let dir = scratch("tar-extra-in");
    let good = fs::read(
        fixture("records")
            .join("2009")
            .read_dir()
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
            .path(),
    )
    .unwrap();
    let mut builder = tar::Builder::new(Vec::new());
    let mut add = |name: &str, data: &[u8]| {
        let mut h = tar::Header::new_ustar();
        h.set_size(data.len() as u64);
        h.set_mode(0o644);
        h.set_cksum();
        builder.append_data(&mut h, name, data).unwrap();
    };
    add("2024/one.csa", &good);
    add("2024/README", b"hello");
    add("./2024/two.CSA", &good);
    add("2024/empty.csa", b"");
    let bytes = builder.into_inner().unwrap();
    let p = write(&dir, "extra.tar", &bytes);
    let run = run_one("tar-extra", &p, Some(1));
    assert_eq!(run.count("entries_seen"), 3);
    assert_eq!(run.count("skipped_files"), 1);
    let s = run.summary();
    assert_eq!(
        s["skipped_sample"][0].as_str().unwrap(),
        format!("{}: 2024/README", p.display())
    );
    let mut names: Vec<String> = csv::Reader::from_path(run.out.join("games.csv"))
        .unwrap()
        .records()
        .map(|r| r.unwrap()[1].to_string())
        .collect();
    names.extend(run.errors().into_iter().map(|e| e[1].clone()));
    names.sort();
    assert_eq!(names, ["2024/empty.csa", "2024/one.csa", "2024/two.CSA"]);
}

#[test]
fn empty_files_of_every_kind() {
    let dir = scratch("empty-in");
    for name in ["e.7z", "e.zip", "e.tar", "e.tar.gz"] {
        let p = write(&dir, name, b"");
        let run = run_one(&format!("empty-{name}"), &p, Some(1));
        assert_eq!(run.code, 1, "{name}");
        assert!(
            run.stderr.contains(name) && run.stderr.contains("empty"),
            "{name}: {}",
            run.stderr
        );
    }
    let p = write(&dir, "e.csa", b"");
    let run = run_one("empty-csa", &p, Some(1));
    assert_eq!(run.count("entries_seen"), 1);
}

#[test]
fn gzip_of_a_single_record_is_read_as_that_record() {
    let dir = scratch("gz-record-in");
    let good = fs::read(
        fixture("records")
            .join("2009")
            .read_dir()
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
            .path(),
    )
    .unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut gz, &good).unwrap();
    let p = write(&dir, "game.csa.gz", &gz.finish().unwrap());
    let run = run_one("gz-record", &p, Some(0));
    assert_eq!(run.count("entries_seen"), 1);
    let mut names: Vec<String> = csv::Reader::from_path(run.out.join("games.csv"))
        .unwrap()
        .records()
        .map(|r| r.unwrap()[1].to_string())
        .collect();
    names.extend(run.errors().into_iter().map(|e| e[1].clone()));
    assert_eq!(names, ["game.csa"]);
}

#[test]
fn seven_zip_on_standard_input_is_refused_with_a_reason() {
    let dir = scratch("7z-stdin");
    let run = scan_with_stdin(
        &dir,
        &["-q", "-"],
        fs::File::open(fixture("synthetic.7z")).unwrap(),
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.contains("-: a 7z archive needs random access"),
        "{}",
        run.stderr
    );
    run.assert_counted_once();
}

// Exact counts under damage. For every container, cut at many points and corrupted with
// several seeds: the games kept are exactly the entries the damaged container still holds
// whole (computed here from the container's own structure), each counted once, rows equal
// to those of the sound container; nothing before the damage is lost.

/// A point in `0..n` drawn from `seed` (the same xorshift as [`noise`]).
fn pick(n: usize, seed: u64) -> usize {
    let b = noise(8, seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    (u64::from_le_bytes(b.try_into().unwrap()) % n as u64) as usize
}

/// Record members of a tar held in `bytes`: (name, where its data starts, where it ends).
fn tar_members(bytes: &[u8]) -> Vec<(String, usize, usize)> {
    let mut a = tar::Archive::new(bytes);
    a.entries()
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let name = e.path().unwrap().to_string_lossy().into_owned();
            let start = e.raw_file_position() as usize;
            (name, start, start + e.size() as usize)
        })
        .filter(|m| m.0.ends_with(".csa"))
        .collect()
}

/// The rows of the sound fixture `name`, keyed by entry (without the `source` column).
fn sound_rows(name: &str) -> std::collections::HashMap<String, Vec<String>> {
    let run = scan(
        &scratch(&format!("sound-{name}")),
        &["-q", fixture(name).to_str().unwrap()],
    );
    assert_eq!(run.code, 0);
    run.games_without_source()
        .into_iter()
        .map(|row| (row[0].clone(), row))
        .collect()
}

/// Scan `bytes` written as `file`: every entry counted once, the exit code `want` (see
/// [`run_one`]), and the kept entries exactly `expected` (in order), each row the sound
/// archive's. Returns the run.
fn exact(
    test: &str,
    file: &str,
    bytes: &[u8],
    expected: &[String],
    sound: &std::collections::HashMap<String, Vec<String>>,
    want: Option<i32>,
) -> Run {
    let p = write(&scratch(&format!("{test}-in")), file, bytes);
    let run = run_one(test, &p, want);
    let rows = run.games_without_source();
    let kept: Vec<&String> = rows.iter().map(|r| &r[0]).collect();
    assert_eq!(
        kept,
        expected.iter().collect::<Vec<_>>(),
        "{test}: the entries kept"
    );
    for r in &rows {
        assert_eq!(
            Some(r),
            sound.get(&r[0]),
            "{test}: {} as in the sound archive",
            r[0]
        );
    }
    let s = run.summary();
    assert_eq!(run.count("games"), expected.len() as u64, "{test}: {s}");
    run
}

/// Cut points for a container whose members are `members`, of length `len`: at a member's
/// data end (the member whole, nothing after), one byte short of it, at the start of a
/// member's data (its header whole), inside a header, and random points.
fn cuts(members: &[(String, usize, usize)], len: usize, seeds: std::ops::Range<u64>) -> Vec<usize> {
    let mut out = Vec::new();
    for seed in seeds {
        let m = &members[pick(members.len(), seed)];
        out.extend([
            m.2,
            m.2 - 1,
            m.1,
            m.1.saturating_sub(40),
            pick(len, seed + 100),
        ]);
    }
    out.extend([0, 1, len - 1]);
    out
}

#[test]
fn cut_tar_and_zip_keep_exactly_the_entries_wholly_before_the_cut() {
    for name in ["synthetic.tar", "synthetic.zip"] {
        let bytes = fs::read(fixture(name)).unwrap();
        let members = if name.ends_with(".tar") {
            tar_members(&bytes)
        } else {
            zip_members(&bytes)
                .into_iter()
                .filter(|m| m.0.ends_with(".csa"))
                .collect()
        };
        assert_eq!(members.len() as u64, SYNTHETIC_GAMES);
        let sound = sound_rows(name);
        for cut in cuts(&members, bytes.len(), 1..6) {
            let expected: Vec<String> = members
                .iter()
                .filter(|m| m.2 <= cut)
                .map(|m| m.0.trim_start_matches("./").to_string())
                .collect();
            let test = format!("exact-{name}-{cut}");
            // A member lost: exit 1. Only the end-of-archive part cut, every member whole:
            // the exit code says whether the reader saw the cut (checked in `run_one`).
            let want = (expected.len() < members.len()).then_some(1);
            let run = exact(&test, name, &bytes[..cut], &expected, &sound, want);
            // A member whose data the cut falls in is named unreadable, once.
            let inside = members.iter().find(|m| m.1 < cut && cut < m.2);
            let unreadable = run.count("unreadable_entries");
            match inside {
                Some(m) => {
                    assert_eq!(unreadable, 1, "{test}");
                    assert_eq!(run.errors()[0][1], m.0.trim_start_matches("./"), "{test}");
                }
                None => assert!(unreadable <= 1, "{test}: {unreadable}"),
            }
        }
    }
}

#[test]
fn cut_tar_gz_keeps_exactly_the_entries_its_stream_still_holds() {
    use std::io::Read;
    let bytes = fs::read(fixture("synthetic.tar.gz")).unwrap();
    let mut tar_bytes = Vec::new();
    flate2::read::GzDecoder::new(&bytes[..])
        .read_to_end(&mut tar_bytes)
        .unwrap();
    let members = tar_members(&tar_bytes);
    let sound = sound_rows("synthetic.tar.gz");
    for seed in 1..9 {
        let cut = 20 + pick(bytes.len() - 20, seed);
        // What the cut stream still decodes to: every byte the decoder gives before it
        // runs out of input.
        let mut prefix = Vec::new();
        let mut d = flate2::read::GzDecoder::new(&bytes[..cut]);
        let mut buf = [0u8; 4096];
        while let Ok(n) = d.read(&mut buf) {
            if n == 0 {
                break;
            }
            prefix.extend_from_slice(&buf[..n]);
        }
        let expected: Vec<String> = members
            .iter()
            .filter(|m| m.2 <= prefix.len())
            .map(|m| m.0.trim_start_matches("./").to_string())
            .collect();
        let test = format!("exact-tgz-{cut}");
        let run = exact(
            &test,
            "cut.tar.gz",
            &bytes[..cut],
            &expected,
            &sound,
            Some(1),
        );
        assert_eq!(run.code, 1, "{test}");
        assert!(run.count("unreadable_entries") <= 1, "{test}");
    }
}

/// The packed data of each block of a 7z: (start, length) in the file.
fn packed_blocks(path: &Path) -> (sevenz_rust2::Archive, Vec<(usize, usize)>) {
    let archive =
        sevenz_rust2::Archive::read(&mut fs::File::open(path).unwrap(), &Default::default())
            .unwrap();
    let mut at = 32 + archive.pack_pos() as usize;
    let blocks = archive
        .pack_sizes()
        .iter()
        .map(|&s| {
            let b = (at, s as usize);
            at += s as usize;
            b
        })
        .collect();
    (archive, blocks)
}

#[test]
fn a_cut_7z_holds_no_entry_and_says_so() {
    // The index is at the end: any cut leaves exactly nothing to read, single or multi-block.
    for name in ["synthetic.7z", "synthetic-blocks.7z"] {
        let bytes = fs::read(fixture(name)).unwrap();
        for seed in 1..5 {
            let cut = pick(bytes.len(), seed);
            let test = format!("exact-cut-{name}-{cut}");
            let run = exact(
                &test,
                "cut.7z",
                &bytes[..cut],
                &[],
                &Default::default(),
                Some(1),
            );
            assert_eq!(run.code, 1, "{test}");
            assert_eq!(run.count("entries_seen"), 0, "{test}");
            assert_eq!(run.count("failed_inputs"), 1, "{test}");
        }
    }
}

#[test]
fn a_damaged_7z_block_loses_exactly_its_own_entries() {
    // Damage at the start of a block's packed data: its first entry fails, and with it the
    // rest of that solid block; every entry of every other block is kept. 15 blocks of 10.
    let path = fixture("synthetic-blocks.7z");
    let (archive, blocks) = packed_blocks(&path);
    let sound = sound_rows("synthetic-blocks.7z");
    let block_of = &archive.stream_map.file_block_index;
    let names: Vec<String> = archive.files.iter().map(|f| f.name().to_string()).collect();
    for seed in 1..6 {
        let mut damaged: Vec<usize> = (0..1 + pick(3, seed))
            .map(|i| pick(15, seed * 7 + i as u64))
            .collect();
        damaged.sort_unstable();
        damaged.dedup();
        let mut bytes = fs::read(&path).unwrap();
        for &k in &damaged {
            let (start, _) = blocks[k];
            for (b, n) in bytes[start..start + 16].iter_mut().zip(noise(16, seed)) {
                *b ^= n | 1;
            }
        }
        let expected: Vec<String> = names
            .iter()
            .zip(block_of)
            .filter(|(_, b)| b.is_some_and(|b| !damaged.contains(&b)))
            .map(|(n, _)| n.clone())
            .collect();
        assert_eq!(expected.len(), 150 - 10 * damaged.len());
        let test = format!("exact-block-{seed}-{damaged:?}");
        let run = exact(&test, "blocks.7z", &bytes, &expected, &sound, Some(1));
        assert_eq!(run.code, 1, "{test}");
        // One unreadable entry a damaged block: its first.
        let named: Vec<String> = run.errors().iter().map(|e| e[1].clone()).collect();
        let firsts: Vec<String> = damaged
            .iter()
            .map(|&k| names[block_of.iter().position(|&b| b == Some(k)).unwrap()].clone())
            .collect();
        assert_eq!(named, firsts, "{test}");
    }
}

#[test]
fn damage_inside_a_solid_7z_keeps_every_entry_before_it() {
    // Damage at a random point of the one solid block: the entries kept are a run from the
    // archive's start, the entry after them is named unreadable, once, and no other entry
    // is reported (a solid block cannot be decoded past a break).
    let path = fixture("synthetic.7z");
    let (archive, blocks) = packed_blocks(&path);
    let sound = sound_rows("synthetic.7z");
    let names: Vec<String> = archive
        .files
        .iter()
        .filter(|f| !f.is_directory())
        .map(|f| f.name().to_string())
        .collect();
    let (start, len) = blocks[0];
    let mut lengths = Vec::new();
    for seed in 1..6 {
        let at = start + 64 + pick(len - 128, seed);
        let mut bytes = fs::read(&path).unwrap();
        for (b, n) in bytes[at..at + 8].iter_mut().zip(noise(8, seed)) {
            *b ^= n | 1;
        }
        let test = format!("exact-solid-{seed}");
        let p = write(&scratch(&format!("{test}-in")), "solid.7z", &bytes);
        let run = run_one(&test, &p, Some(1));
        assert_eq!(run.code, 1, "{test}");
        let kept: Vec<String> = run
            .games_without_source()
            .into_iter()
            .map(|r| r[0].clone())
            .collect();
        let k = kept.len();
        assert_eq!(kept[..], names[..k], "{test}: a run from the start");
        let expected = names[..k].to_vec();
        exact(
            &format!("{test}-again"),
            "solid.7z",
            &bytes,
            &expected,
            &sound,
            Some(1),
        );
        let named: Vec<String> = run.errors().iter().map(|e| e[1].clone()).collect();
        assert_eq!(
            named,
            [names[k].clone()],
            "{test}: the entry the damage is in"
        );
        assert_eq!(run.count("entries_seen"), k as u64 + 1, "{test}");
        lengths.push(k);
    }
    // Later damage keeps more: the count follows where the damage is.
    let ats: Vec<usize> = (1..6).map(|s| pick(len - 128, s)).collect();
    for i in 0..ats.len() {
        for j in 0..ats.len() {
            if ats[i] < ats[j] {
                assert!(lengths[i] <= lengths[j], "{ats:?} {lengths:?}");
            }
        }
    }
}

#[test]
fn a_folder_of_damaged_archives_counts_each_exactly() {
    // Cut and damaged archives side by side in one folder: each is its own source, with
    // the count it has when named alone.
    let dir = scratch("exact-folder-in");
    let dl = dir.join("dl");
    let tar = fs::read(fixture("synthetic.tar")).unwrap();
    let tar_members = tar_members(&tar);
    let tar_cut = tar_members[57].2;
    write(&dl, "a-cut.tar", &tar[..tar_cut]);
    let zip = fs::read(fixture("synthetic.zip")).unwrap();
    let zip_cut = zip_members(&zip)
        .into_iter()
        .filter(|m| m.0.ends_with(".csa"))
        .nth(99)
        .unwrap()
        .2;
    write(&dl, "b-cut.zip", &zip[..zip_cut]);
    let path = fixture("synthetic-blocks.7z");
    let (_, blocks) = packed_blocks(&path);
    let mut seven = fs::read(&path).unwrap();
    for b in &mut seven[blocks[4].0..blocks[4].0 + 16] {
        *b ^= 0x5a;
    }
    write(&dl, "c-damaged.7z", &seven);
    write(
        &dl,
        "d.tar.gz",
        &fs::read(fixture("synthetic.tar.gz")).unwrap(),
    );
    let run = scan(&dir.join("out"), &["-q", dl.to_str().unwrap()]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    run.assert_counted_once();
    let s = run.summary();
    let games: Vec<u64> = s["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["games"].as_u64().unwrap())
        .collect();
    assert_eq!(games, [58, 100, 140, SYNTHETIC_GAMES]);
    assert_eq!(run.count("failed_inputs"), 3);
    assert_eq!(run.count("games"), 58 + 100 + 140 + SYNTHETIC_GAMES);
}
