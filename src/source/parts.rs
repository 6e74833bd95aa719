//! How an input is split into parts that separate threads read side by side.
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};

use super::detect::{self, Format, detect};
use super::input::Input;
use super::sevenz;

/// A part of an input that can be read on its own, at the same time as the others: the
/// whole input, or a run of compression blocks of a 7z file (see [`parts`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part(pub(super) PartKind);

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum PartKind {
    Whole,
    SevenZ(sevenz::BlockRun),
}

/// How `input` is read: in one part, or, when it is a 7z file of several compression
/// blocks, in parts (runs of blocks, at most about 16) that separate threads can decode
/// side by side. Reading every part with [`read_part`](super::read_part), the parts in the
/// order given, delivers the entries [`read_input`](super::read_input) delivers, in the
/// same order.
pub fn parts(input: &Input) -> Vec<Part> {
    weighed_parts(input).into_iter().map(|(p, _)| p).collect()
}

/// [`parts`], each with the work of reading it, for scheduling the largest first: the
/// bytes of the records it delivers as far as they are known before reading (the unpacked
/// size of a 7z file's blocks, from its index; else the bytes of the file, or of a
/// folder's records).
pub fn weighed_parts(input: &Input) -> Vec<(Part, u64)> {
    let whole = |w: u64| vec![(Part(PartKind::Whole), w)];
    let Input::Path(path) = input else {
        return whole(input.size_hint().unwrap_or(0));
    };
    let Ok(mut file) = File::open(path) else {
        return whole(0);
    };
    let len = file.metadata().map_or(0, |m| m.len());
    let mut head = Vec::with_capacity(detect::HEAD_LEN);
    if (&mut file)
        .take(detect::HEAD_LEN as u64)
        .read_to_end(&mut head)
        .is_err()
        || detect(&head) != Some(Format::SevenZ)
        || file.seek(SeekFrom::Start(0)).is_err()
    {
        return whole(input.size_hint().unwrap_or(len));
    }
    match sevenz::plan(io::BufReader::new(file)) {
        Some((Some(blocks), _)) => blocks
            .into_iter()
            .map(|b| {
                let w = b.unpacked;
                (Part(PartKind::SevenZ(b)), w)
            })
            .collect(),
        Some((None, unpacked)) => whole(unpacked),
        None => whole(len),
    }
}
