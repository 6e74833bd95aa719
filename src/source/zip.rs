//! Zip archives, read through their central directory. A damaged entry (bad CRC, bad
//! compressed data) is reported as unreadable and the following entries are still read.
use std::io::{Read, Seek};

use ::zip::ZipArchive;

use super::{Event, Sink, SourceError, clean_name, is_record_name, with_entry};

pub fn read<R: Read + Seek>(input: &str, r: R, sink: &mut Sink<'_>) -> Result<(), SourceError> {
    let mut archive = ZipArchive::new(r).map_err(|e| SourceError {
        input: input.to_string(),
        entry: None,
        after: None,
        message: format!("cannot read the zip directory: {e}"),
    })?;
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
            Ok(file) => {
                if file.is_dir() {
                    continue;
                }
                if !is_record_name(&listed) {
                    sink(Event::Skipped { name: listed })
                } else {
                    with_entry(file, |read| match read {
                        Ok(bytes) => sink(Event::Entry {
                            name: listed,
                            bytes,
                        }),
                        Err(reason) => sink(Event::Unreadable {
                            name: listed,
                            reason,
                        }),
                    })
                }
            }
        };
        if !going {
            break;
        }
    }
    Ok(())
}
