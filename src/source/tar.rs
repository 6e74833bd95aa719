//! Tar archives and gzip streams, read front to back without seeking: `.tar`, `.tar.gz`,
//! `.tgz`, a gzip-compressed single record, and the tar stream on standard input.
use std::io::{self, Cursor, Read};

use flate2::read::MultiGzDecoder;

use super::detect::{HEAD_LEN, looks_like_tar};
use super::{
    Event, Format, Sink, SourceError, clean_name, io_message, is_record_name, read_entry,
    read_record,
};

/// Read up to [`HEAD_LEN`] bytes and give them back in front of the rest of the stream.
type Peeked<R> = (Vec<u8>, io::Chain<Cursor<Vec<u8>>, R>);

fn peek<R: Read>(mut r: R) -> io::Result<Peeked<R>> {
    let mut head = Vec::with_capacity(HEAD_LEN);
    (&mut r).take(HEAD_LEN as u64).read_to_end(&mut head)?;
    Ok((head.clone(), Cursor::new(head).chain(r)))
}

/// Read a stream holding a tar archive, a gzip-compressed tar archive, or one
/// gzip-compressed record (`file_name` minus `.gz` names that record).
pub fn read_stream<R: Read>(
    input: &str,
    file_name: &str,
    r: R,
    sink: &mut Sink<'_>,
) -> Result<Format, SourceError> {
    let err = |message: String| SourceError {
        input: input.to_string(),
        entry: None,
        after: None,
        message,
    };
    let (head, r) = peek(r).map_err(|e| err(io_message(&e)))?;
    if head.starts_with(&[0x1f, 0x8b]) {
        let (inner, gz) =
            peek(MultiGzDecoder::new(r)).map_err(|e| err(format!("gzip: {}", io_message(&e))))?;
        if looks_like_tar(&inner) {
            read_tar(input, gz, sink)?;
        } else {
            let name = file_name
                .strip_suffix(".gz")
                .or_else(|| file_name.strip_suffix(".GZ"))
                .unwrap_or(file_name);
            read_record(name, gz, sink);
        }
        Ok(Format::Gzip)
    } else if looks_like_tar(&head) {
        read_tar(input, r, sink)?;
        Ok(Format::Tar)
    } else if let Some(f @ (Format::SevenZ | Format::Zip)) = super::detect(&head) {
        Err(err(format!(
            "a {} archive needs random access: give its path instead of a stream",
            f.name()
        )))
    } else if head.is_empty() {
        Err(err("empty stream, not a tar archive".into()))
    } else {
        Err(err(
            "not a tar archive (its first bytes match no tar or gzip header)".into(),
        ))
    }
}

fn read_tar<R: Read>(input: &str, r: R, sink: &mut Sink<'_>) -> Result<(), SourceError> {
    // The tar reader asks for one 512-byte header at a time: buffer the stream.
    let mut archive = tar::Archive::new(io::BufReader::with_capacity(1 << 18, r));
    let mut last: Option<String> = None;
    let fail = |entry: Option<String>, after: &Option<String>, message: String| SourceError {
        input: input.to_string(),
        after: if entry.is_none() { after.clone() } else { None },
        entry,
        message,
    };
    let entries = archive
        .entries()
        .map_err(|e| fail(None, &None, io_message(&e)))?;
    for entry in entries {
        let entry =
            entry.map_err(|e| fail(None, &last, format!("bad tar header: {}", io_message(&e))))?;
        let name = clean_name(&String::from_utf8_lossy(&entry.path_bytes()));
        let kind = entry.header().entry_type();
        if kind.is_dir() || kind.is_pax_global_extensions() || kind.is_pax_local_extensions() {
            continue;
        }
        if !kind.is_file() || !is_record_name(&name) {
            if !sink(Event::Skipped { name: name.clone() }) {
                return Ok(());
            }
            last = Some(name);
            continue;
        }
        let size = entry.size();
        let event = match read_entry(entry, size) {
            Ok(bytes) if (bytes.len() as u64) < size => {
                // The archive ended inside this entry: nothing after it can be read.
                return Err(fail(
                    Some(name),
                    &last,
                    format!("truncated: {} of {size} bytes present", bytes.len()),
                ));
            }
            Ok(bytes) => Event::Entry {
                name: name.clone(),
                bytes,
            },
            Err(reason) => return Err(fail(Some(name), &last, reason)),
        };
        if !sink(event) {
            return Ok(());
        }
        last = Some(name);
    }
    // Read what follows the end-of-archive blocks so that a gzip trailer (CRC, length) is
    // checked too.
    io::copy(&mut archive.into_inner(), &mut io::sink())
        .map_err(|e| fail(None, &last, io_message(&e)))?;
    Ok(())
}
