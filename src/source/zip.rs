//! Zip archives, read through their central directory. A damaged entry (bad CRC, bad
//! compressed data) is reported as unreadable and the following entries are still read.
//! An archive whose directory cannot be found (a partial download: the directory is at
//! the end) is read front to back from the entries' own headers, so the entries before
//! the cut are kept, and the input is still reported as broken.
use std::io::{BufReader, Read, Seek, SeekFrom};

use ::zip::ZipArchive;
use ::zip::read::{ZipFile, read_zipfile_from_stream};

use super::buffer::ReadBuffer;
use super::error::SourceError;
use super::event::{Event, Sink};
use super::names::{clean_name, is_record_name};

pub fn read<R: Read + Seek>(
    input: &str,
    mut r: R,
    buffer: &mut ReadBuffer,
    sink: &mut Sink<'_>,
) -> Result<(), SourceError> {
    let err = |entry, after, message| SourceError::at(input, entry, after, message);
    let mut archive = match ZipArchive::new(&mut r) {
        Ok(archive) => archive,
        Err(e) => {
            let directory = format!("cannot read the zip directory ({e}; an incomplete download?)");
            r.seek(SeekFrom::Start(0))
                .map_err(|e| err(None, None, format!("{directory}; {e}")))?;
            return read_front_to_back(BufReader::with_capacity(1 << 16, r), buffer, sink).map_err(
                |stop| {
                    err(
                        stop.entry,
                        stop.after,
                        format!("{directory}; {}", stop.what),
                    )
                },
            );
        }
    };
    for i in 0..archive.len() {
        let listed = archive
            .name_for_index(i)
            .and_then(|n| n.ok())
            .map(|n| clean_name(&n))
            .unwrap_or_else(|| format!("#{i}"));
        let going = match archive.by_index(i) {
            Err(e) => sink(Event::Unreadable {
                name: listed,
                reason: e.to_string(),
            }),
            Ok(file) if file.is_dir() => continue,
            Ok(file) => deliver(listed, file, buffer, sink),
        };
        if !going {
            break;
        }
    }
    Ok(())
}

/// Hand one archive member to `sink`: a record's bytes (or why they could not be read), or
/// the name of a file that is not a record.
fn deliver<R: Read>(
    name: String,
    file: ZipFile<'_, R>,
    buffer: &mut ReadBuffer,
    sink: &mut Sink<'_>,
) -> bool {
    if !is_record_name(&name) {
        return sink(Event::Skipped { name });
    }
    buffer.read_entry(file, |read| match read {
        Ok(bytes) => sink(Event::Entry { name, bytes }),
        Err(e) => sink(Event::Unreadable {
            name,
            reason: e.to_string(),
        }),
    })
}

/// Where and why reading a zip front to back stopped (at the damaged directory, or where
/// the bytes stopped making sense).
#[derive(Debug)]
struct FrontToBackStop {
    /// The entry whose data broke off (not delivered), if the break came inside one.
    entry: Option<String>,
    /// The last entry delivered, if the break came between entries.
    after: Option<String>,
    /// What happened: how many members were read, and what ended the reading.
    what: String,
}

/// Read the members one after the other from their local headers, up to the directory or
/// the point where the bytes stop making sense. Always an error (the archive has no
/// readable directory) unless `sink` asks to stop first.
fn read_front_to_back<R: Read>(
    mut r: R,
    buffer: &mut ReadBuffer,
    sink: &mut Sink<'_>,
) -> Result<(), FrontToBackStop> {
    let mut read = 0usize;
    let mut last: Option<String> = None;
    loop {
        let file = match read_zipfile_from_stream(&mut r) {
            Ok(Some(file)) => file,
            Ok(None) => {
                return Err(FrontToBackStop {
                    entry: None,
                    after: None,
                    what: format!(
                        "read front to back: {read} members, up to the damaged directory"
                    ),
                });
            }
            Err(e) => {
                let what = match &e {
                    ::zip::result::ZipError::Io(io)
                        if io.kind() == std::io::ErrorKind::UnexpectedEof =>
                    {
                        "the file ends".to_string()
                    }
                    other => other.to_string(),
                };
                return Err(FrontToBackStop {
                    entry: None,
                    after: last,
                    what: format!("read front to back: {read} members, then {what}"),
                });
            }
        };
        if file.is_dir() {
            continue;
        }
        let name = clean_name(&crate::csa::utf8_lossy(file.name_raw()));
        // The data of a member cut short fails its own read: it is the broken entry.
        let mut failed = None;
        let going = if is_record_name(&name) {
            buffer.read_entry(file, |bytes| match bytes {
                Ok(bytes) => sink(Event::Entry {
                    name: name.clone(),
                    bytes,
                }),
                Err(reason) => {
                    failed = Some(reason);
                    true
                }
            })
        } else {
            sink(Event::Skipped { name: name.clone() })
        };
        if let Some(reason) = failed {
            return Err(FrontToBackStop {
                entry: Some(name),
                after: None,
                what: format!("read front to back: {read} members, then {reason}"),
            });
        }
        read += 1;
        last = Some(name);
        if !going {
            return Ok(());
        }
    }
}
