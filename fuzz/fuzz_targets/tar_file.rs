//! Fuzz the two ways a `.tar` is read against each other: any bytes, written to a file
//! named `x.tar` and read as a scan reads a file (an uncompressed tar is then read a block
//! at a time, its records shared with the block, or read where they lie when larger than a
//! block), and the same bytes read as a stream. Both must give the same events (names,
//! record bytes, reasons), the same format, the same error (entry, last entry, message,
//! whether reported) and, when nothing failed, the same byte count; and neither may panic.
//! A tar file is also read in blocks of a few hundred bytes (chosen by the input's length),
//! so that the blocks' ends fall inside headers and records, and must read the same.
#![no_main]

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use floodgate_scan::source::{
    Event, Format, Input, ReadBuffer, SourceError, detect, read_bytes, read_input,
    read_tar_file_in_blocks,
};
use libfuzzer_sys::fuzz_target;

/// One event as comparable values: the entry's name, and the record's bytes or why they
/// could not be read (`None` for a file that is no record).
type Seen = (String, Option<Result<Vec<u8>, String>>);

/// What one way of reading gave: the events, the bytes counted, and the format or the
/// error's parts other than the input's name (which differs between the two ways).
struct Outcome {
    events: Vec<Seen>,
    counted: u64,
    result: Result<Format, (Option<String>, bool, Option<String>, String)>,
}

fn outcome(
    read: impl FnOnce(&AtomicU64, &mut dyn FnMut(Event<'_>) -> bool) -> Result<Format, SourceError>,
) -> Outcome {
    let counted = AtomicU64::new(0);
    let mut events = Vec::new();
    let mut buffer = ReadBuffer::default();
    let mut sink = |e: Event<'_>| {
        // A span's bytes are not counted by the reader: the worker that reads them counts
        // them, as here.
        if let Event::Span { len, .. } = e {
            counted.fetch_add(len, Ordering::Relaxed);
        }
        let record = e
            .with_record(&mut buffer, <[u8]>::to_vec)
            .map(|r| r.map_err(|reason| reason.to_string()));
        events.push((e.name().to_string(), record));
        true
    };
    let result = read(&counted, &mut sink).map_err(|e| {
        assert!(!e.message.is_empty(), "an error without a message");
        (e.entry, e.reported, e.after, e.message)
    });
    Outcome {
        events,
        counted: counted.into_inner(),
        result,
    }
}

/// The file the bytes are written to, in a folder of this process's own.
fn scratch() -> &'static std::path::Path {
    static PATH: OnceLock<std::path::PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("fuzz-tar-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a scratch folder");
        dir.join("x.tar")
    })
}

fuzz_target!(|data: &[u8]| {
    let path = scratch();
    std::fs::write(path, data).expect("the scratch file written");
    let input = Input::Path(path.to_path_buf());
    let on_disk = outcome(|counted, sink| read_input(&input, counted, sink));
    let stream = outcome(|counted, sink| read_bytes("x.tar", "x.tar", data, counted, sink));
    assert_eq!(on_disk.events, stream.events, "events");
    assert_eq!(on_disk.result, stream.result, "format or error");
    if on_disk.result.is_ok() {
        assert_eq!(on_disk.counted, stream.counted, "bytes counted");
    }
    if detect(data) == Some(Format::Tar) {
        let block = 300 + data.len() % 1500;
        let small = outcome(|counted, sink| {
            read_tar_file_in_blocks(path, block, counted, sink).map(|()| Format::Tar)
        });
        assert_eq!(small.events, stream.events, "events, blocks of {block}");
        assert_eq!(
            small.result, stream.result,
            "format or error, blocks of {block}"
        );
        if small.result.is_ok() {
            assert_eq!(
                small.counted, stream.counted,
                "bytes counted, blocks of {block}"
            );
        }
    }
});
