//! One test per bug found, named after what broke, each asserting the fixed behaviour.
//! The commit that mended it, or the report that found it, is named above each test. A
//! new bug gets its test here, written before the fix.

use std::fs::File;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::scan_support::*;
use floodgate_scan::source::{Event, read_bytes};

/// Where the last member's data, padded to a 512-byte block, ends in the tar `tar`: what
/// follows is only the end-of-archive blocks.
fn end_of_last_member(tar: &[u8]) -> u64 {
    let mut archive = tar::Archive::new(tar);
    let mut end = 0;
    for entry in archive.entries().unwrap() {
        let entry = entry.unwrap();
        end = (entry.raw_file_position() + entry.size()).div_ceil(512) * 512;
    }
    end
}

/// Scan `bytes` written as a `.tar` file (read a block at a time, in place) and the same
/// bytes as a stream on standard input; both runs.
fn scan_file_and_stream(test: &str, bytes: &[u8]) -> (Run, Run) {
    let dir = scratch(test);
    let path = dir.join("cut.tar");
    std::fs::write(&path, bytes).unwrap();
    let file = scan(&dir.join("file"), &["-q", path.to_str().unwrap()]);
    let stream = scan_with_stdin(
        &dir.join("stream"),
        &["-q", "-"],
        File::open(&path).unwrap(),
    );
    file.assert_counted_once();
    stream.assert_counted_once();
    (file, stream)
}

/// 681c14a: the exact-count contract took a tar cut only in its end-of-archive blocks
/// (every member whole) for a cut member and expected exit 1. Every member is kept, from
/// a file and from a stream, and the input is not reported broken.
#[test]
fn a_tar_cut_inside_its_end_of_archive_blocks_keeps_every_member() {
    let tar = std::fs::read(fixture("synthetic.tar")).unwrap();
    let padded = end_of_last_member(&tar);
    assert!(
        (tar.len() as u64) > padded + 1024,
        "the fixture has end blocks"
    );
    for cut in [padded, padded + 512, tar.len() as u64 - 1] {
        let (file, stream) =
            scan_file_and_stream(&format!("end-blocks-{cut}"), &tar[..cut as usize]);
        for run in [&file, &stream] {
            assert_eq!(run.code, 0, "cut at {cut}: {}", run.stderr);
            assert_eq!(run.count("games"), SYNTHETIC_GAMES, "cut at {cut}");
            assert_eq!(run.count("unreadable_entries"), 0, "cut at {cut}");
        }
        assert_eq!(file.games_without_source(), stream.games_without_source());
    }
}

/// ffbe569 (found by the `tar_file` fuzz target, reports/fuzz.md): an archive read from
/// memory counted its first bytes twice (once to tell its format, once read from its
/// start), and a zip was counted short by the local headers its reader seeks past. Every
/// archive now counts exactly its length.
#[test]
fn an_archive_read_from_memory_counts_each_of_its_bytes_once() {
    for name in [
        "synthetic.tar",
        "synthetic.tar.gz",
        "synthetic.zip",
        "synthetic.7z",
    ] {
        let bytes = std::fs::read(fixture(name)).unwrap();
        let counted = AtomicU64::new(0);
        let mut records = 0;
        let mut sink = |e: Event<'_>| {
            if let Event::Span { len, .. } = e {
                counted.fetch_add(len, Ordering::Relaxed);
            }
            records += u64::from(matches!(e, Event::Entry { .. } | Event::Shared { .. }));
            true
        };
        read_bytes("fixture", name, &bytes, &counted, &mut sink).unwrap();
        assert_eq!(records, SYNTHETIC_GAMES, "{name}");
        assert_eq!(counted.into_inner(), bytes.len() as u64, "{name}");
    }
}
