//! 7z archives (the form of the yearly wdoor downloads), decoded entry by entry while
//! streaming through each compression block; nothing is unpacked to disk. A solid block
//! can only be decoded front to back, so one archive is one decoder thread.
use std::io::{Read, Seek, SeekFrom};

use sevenz_rust2::{ArchiveReader, Password};

use super::{Event, Sink, SourceError, clean_name, is_record_name, read_into};

pub fn read<R: Read + Seek>(input: &str, mut r: R, sink: &mut Sink<'_>) -> Result<(), SourceError> {
    let err = |entry: Option<String>, after: Option<String>, message: String| SourceError {
        input: input.to_string(),
        entry,
        after,
        message,
    };
    let mut archive = match ArchiveReader::new(&mut r, Password::empty()) {
        Ok(archive) => archive,
        Err(e) => {
            let message = match cut_short(&mut r) {
                Some(what) => format!(
                    "the archive is cut short ({what}): \
                     a 7z archive keeps its index at the end, so no entry can be read \
                     (an incomplete download?)"
                ),
                None => format!("cannot read the 7z header: {}", message(&e)),
            };
            return Err(err(None, None, message));
        }
    };
    archive.set_thread_count(1);
    // The decoder checks an entry's CRC only after the callback returns, so each entry is
    // held back until the next one starts (or the archive ends cleanly): a corrupt entry is
    // then reported as unreadable, never analysed. The held entry's bytes stay in `held`.
    let mut pending: Option<Held> = None;
    let mut held: Vec<u8> = Vec::new();
    let mut last: Option<String> = None;
    let mut stopped = false;
    let mut entry_error: Option<(String, String)> = None;
    let result = archive.for_each_entries(|entry, reader| {
        if let Some(h) = pending.take()
            && !h.deliver(&held, sink)
        {
            stopped = true;
            return Ok(false);
        }
        if entry.is_directory() {
            return Ok(true);
        }
        let name = clean_name(entry.name());
        last = Some(name.clone());
        if !is_record_name(&name) {
            pending = Some(Held::Skipped(name));
            return Ok(true);
        }
        match read_into(reader, &mut held) {
            Ok(n) => pending = Some(Held::Entry(name, n)),
            Err(reason) => {
                entry_error = Some((name, reason.clone()));
                return Err(sevenz_rust2::Error::Other(reason.into()));
            }
        }
        Ok(true)
    });
    if stopped {
        return Ok(());
    }
    match result {
        Ok(()) => {
            if let Some(h) = pending.take() {
                h.deliver(&held, sink);
            }
            Ok(())
        }
        Err(e) => {
            if let Some((name, reason)) = entry_error {
                return Err(err(Some(name), None, reason));
            }
            // The failure belongs to the entry held back (its CRC or the data after it).
            match pending.take() {
                Some(Held::Entry(name, _)) => Err(err(Some(name), None, message(&e))),
                Some(other) => {
                    other.deliver(&held, sink);
                    Err(err(None, last, message(&e)))
                }
                None => Err(err(None, last, message(&e))),
            }
        }
    }
}

/// When a 7z archive ends before its start header does, or before the index the start
/// header points to (a partial download), what is missing, in words.
fn cut_short<R: Read + Seek>(r: &mut R) -> Option<String> {
    let len = r.seek(SeekFrom::End(0)).ok()?;
    r.seek(SeekFrom::Start(0)).ok()?;
    let mut head = Vec::with_capacity(32);
    r.by_ref().take(32).read_to_end(&mut head).ok()?;
    if !head.starts_with(&[b'7', b'z', 0xbc, 0xaf, 0x27, 0x1c]) {
        return None;
    }
    if head.len() < 32 {
        return Some(format!("{len} bytes, not even its 32-byte start header"));
    }
    let word = |at: usize| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&head[at..at + 8]);
        u64::from_le_bytes(w)
    };
    let needed = 32u64.saturating_add(word(12)).saturating_add(word(20));
    (needed > len).then(|| format!("{len} bytes; its index ends at byte {needed}"))
}

/// An entry held back until the decoder has checked it.
enum Held {
    /// A record (name, length of its bytes in the held buffer).
    Entry(String, usize),
    Skipped(String),
}

impl Held {
    fn deliver(self, held: &[u8], sink: &mut Sink<'_>) -> bool {
        match self {
            Held::Entry(name, n) => sink(Event::Entry {
                name,
                bytes: &held[..n],
            }),
            Held::Skipped(name) => sink(Event::Skipped { name }),
        }
    }
}

/// The decoder's error as a sentence (its `Display` is its debug form).
fn message(e: &sevenz_rust2::Error) -> String {
    use sevenz_rust2::Error;
    match e {
        Error::ChecksumVerificationFailed => "checksum mismatch (corrupt data)".into(),
        Error::NextHeaderCrcMismatch => "header checksum mismatch (corrupt archive)".into(),
        Error::BadSignature(_) => "bad 7z signature".into(),
        Error::PasswordRequired | Error::MaybeBadPassword(_) => {
            "encrypted archive (a password is needed)".into()
        }
        Error::UnsupportedCompressionMethod(m) => format!("unsupported compression method {m}"),
        Error::Other(s) | Error::Unsupported(s) => s.to_string(),
        Error::Io(io, ctx) if ctx.is_empty() => io.to_string(),
        Error::Io(io, ctx) => format!("{ctx}: {io}"),
        other => other.to_string(),
    }
}
