//! Fuzz the container readers (tar, gzip, 7z, zip, a single record): any bytes, no panic,
//! and what comes out keeps the reader's promises: no entry larger than the limit, no
//! folder file from an archive, a reason for every failure, named after its input.
#![no_main]

use std::sync::atomic::AtomicU64;

use floodgate_scan::source::{Event, MAX_ENTRY_BYTES, read_bytes};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // The first byte picks the file name, as the type falls back on the extension.
    let Some((&pick, bytes)) = data.split_first() else {
        return;
    };
    let name = ["x.tar", "x.tar.gz", "x.7z", "x.zip", "x.csa", "x"][pick as usize % 6];
    let bytes_read = AtomicU64::new(0);
    let mut sink = |event: Event<'_>| {
        match event {
            Event::Entry { bytes, .. } => assert!(bytes.len() as u64 <= MAX_ENTRY_BYTES),
            Event::Unreadable { reason, .. } => assert!(!reason.is_empty()),
            Event::Skipped { .. } => {}
            Event::File { .. } => panic!("an archive names no file to read later"),
            Event::Span { .. } => panic!("an archive in memory names no span of a file"),
            Event::Shared { .. } => panic!("an archive in memory is not read in blocks"),
        }
        true
    };
    if let Err(e) = read_bytes("fuzz", name, bytes, &bytes_read, &mut sink) {
        assert!(!e.message.is_empty());
        assert_eq!(e.input, "fuzz");
    }
});
