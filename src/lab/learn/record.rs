//! The labelled-position file of `learn gen`: a header, then fixed-size records.
//!
//! Header: the 8 bytes `FSLEARN1`, a little-endian `u32` length `n`, then `n` bytes of
//! UTF-8 text, one `key=value` per line, naming the settings that made the file (a run
//! resumes a file only when the text is the same).
//!
//! Record ([`RECORD_BYTES`] = 52 bytes, little-endian):
//!
//! | bytes  | content |
//! |--------|---------|
//! | 0..41  | the position, bit-packed (below) |
//! | 41     | bits 0-1 the game's result for the side to move (0 loss, 1 draw, 2 win), bit 2 the score is a mate score, bit 3 the last record of its unit, bits 4-6 the source ([`Source`]) |
//! | 42..44 | the teacher's score, `i16`, for the side to move, on the teacher's own scale; a mate score is `±(30000 - plies)` |
//! | 44..46 | ply of the position in its game, `u16` |
//! | 46..50 | unit (game) number, `u32` |
//! | 50..52 | check: FNV-1a of bytes 0..50, folded to 16 bits |
//!
//! Position packing, bit by bit from the least significant bit of byte 0: 81 occupancy
//! bits (square index order: 9i..9i+8 is file 9-i... as [`crate::shogi::Square::index`]),
//! then 5 bits per occupied square in index order (bit 4 the colour, bits 0-3 the kind
//! index 0..13), then each side's hand (Black, White) as pawn 5 bits, lance, knight,
//! silver, gold 3 bits each, bishop and rook 2 bits each, then 1 bit for the side to move
//! (1: White). At most 40 pieces stand on a board: 324 bits at most.
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;

use crate::shogi::sets::{EMPTY, Pieces};
use crate::shogi::{Color, Hand, Piece, PieceKind, Position, Setup, Square};

/// Bytes of one record.
pub const RECORD_BYTES: usize = 52;
/// Bytes of a packed position.
pub const POSITION_BYTES: usize = 41;
/// The file's first bytes.
pub const MAGIC: &[u8; 8] = b"FSLEARN1";
/// Magnitude of a mate score at zero plies (a mate in `n` is `30000 - n`).
pub const MATE_SCORE: i32 = 30_000;

/// Where a labelled position comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Source {
    /// Self-play of the built-in engine from a real opening, with early random moves.
    SelfPlay = 0,
    /// The built-in engine against the outside engine.
    Versus = 1,
    /// An entering-king benchmark position itself.
    Aiiru = 2,
    /// A position of the self-play replay from an entering-king benchmark position.
    AiiruReplay = 3,
    /// A position of the 24-point engine's self-play under the 24-point rule from an
    /// entering-king position: labelled by the game's result only (the teacher is not
    /// asked; its score is written as 0 and [`Source::has_teacher`] is false).
    Decl24Replay = 4,
    /// The built-in engine against an outside engine other than the teacher (`--opponent`),
    /// labelled by the teacher.
    Outside = 5,
}

impl Source {
    /// All sources, in code order.
    pub const ALL: [Source; 6] = [
        Source::SelfPlay,
        Source::Versus,
        Source::Aiiru,
        Source::AiiruReplay,
        Source::Decl24Replay,
        Source::Outside,
    ];
    /// Whether positions of this source carry the teacher's score.
    pub fn has_teacher(self) -> bool {
        self != Source::Decl24Replay
    }
    /// The source of a code (0..5).
    pub fn from_code(c: u8) -> Option<Source> {
        Source::ALL.get(c as usize).copied()
    }
    /// Short name for tables.
    pub fn name(self) -> &'static str {
        match self {
            Source::SelfPlay => "selfplay",
            Source::Versus => "versus",
            Source::Aiiru => "aiiru",
            Source::AiiruReplay => "aiiru_replay",
            Source::Decl24Replay => "decl24_replay",
            Source::Outside => "outside",
        }
    }
}

/// The game's result for the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The side to move lost the game.
    Loss = 0,
    /// Drawn (or stopped by the ply limit).
    Draw = 1,
    /// The side to move won.
    Win = 2,
}

impl Outcome {
    /// 0, 1/2 or 1.
    pub fn value(self) -> f64 {
        self as u8 as f64 / 2.0
    }
}

/// One labelled position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// The packed position ([`pack`]).
    pub position: [u8; POSITION_BYTES],
    /// The teacher's score for the side to move.
    pub score: i16,
    /// Whether [`Record::score`] is a mate score.
    pub mate: bool,
    /// The game's result for the side to move.
    pub outcome: Outcome,
    /// Where the position comes from.
    pub source: Source,
    /// Ply of the position in its game.
    pub ply: u16,
    /// The unit (game) that made it.
    pub unit: u32,
    /// Whether this is the last record of its unit.
    pub last: bool,
}

/// Why a record cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// The check bytes do not match the content.
    #[error("record check mismatch")]
    Check,
    /// The result field is 3.
    #[error("bad result code")]
    Result,
    /// The source field is above 3.
    #[error("bad source code")]
    Source,
    /// The packed position does not decode to a legal setup.
    #[error("bad packed position: {0}")]
    Position(String),
}

fn fnv16(bytes: &[u8]) -> u16 {
    let mut h: u32 = 0x811c_9dc5;
    for &b in bytes {
        h ^= b as u32;
        h = h.wrapping_mul(0x0100_0193);
    }
    ((h >> 16) ^ (h & 0xffff)) as u16
}

impl Record {
    /// The 52 bytes of this record.
    pub fn to_bytes(&self) -> [u8; RECORD_BYTES] {
        let mut b = [0u8; RECORD_BYTES];
        b[..POSITION_BYTES].copy_from_slice(&self.position);
        b[41] = self.outcome as u8
            | (self.mate as u8) << 2
            | (self.last as u8) << 3
            | (self.source as u8) << 4;
        b[42..44].copy_from_slice(&self.score.to_le_bytes());
        b[44..46].copy_from_slice(&self.ply.to_le_bytes());
        b[46..50].copy_from_slice(&self.unit.to_le_bytes());
        let c = fnv16(&b[..50]);
        b[50..52].copy_from_slice(&c.to_le_bytes());
        b
    }

    /// Read 52 bytes (the position is not decoded: see [`unpack`]).
    pub fn from_bytes(b: &[u8; RECORD_BYTES]) -> Result<Record, RecordError> {
        if fnv16(&b[..50]) != u16::from_le_bytes([b[50], b[51]]) {
            return Err(RecordError::Check);
        }
        let outcome = match b[41] & 3 {
            0 => Outcome::Loss,
            1 => Outcome::Draw,
            2 => Outcome::Win,
            _ => return Err(RecordError::Result),
        };
        let source = Source::from_code((b[41] >> 4) & 7).ok_or(RecordError::Source)?;
        let mut position = [0u8; POSITION_BYTES];
        position.copy_from_slice(&b[..POSITION_BYTES]);
        Ok(Record {
            position,
            score: i16::from_le_bytes([b[42], b[43]]),
            mate: b[41] & 4 != 0,
            outcome,
            source,
            ply: u16::from_le_bytes([b[44], b[45]]),
            unit: u32::from_le_bytes([b[46], b[47], b[48], b[49]]),
            last: b[41] & 8 != 0,
        })
    }

    /// The position, decoded and validated.
    pub fn position(&self) -> Result<Position, RecordError> {
        unpack(&self.position)
    }
}

struct BitWriter<'a> {
    out: &'a mut [u8],
    bit: usize,
}

impl BitWriter<'_> {
    fn put(&mut self, value: u32, bits: usize) {
        for i in 0..bits {
            if value >> i & 1 != 0 {
                self.out[self.bit / 8] |= 1 << (self.bit % 8);
            }
            self.bit += 1;
        }
    }
}

struct BitReader<'a> {
    data: &'a [u8],
    bit: usize,
}

impl BitReader<'_> {
    fn get(&mut self, bits: usize) -> Option<u32> {
        let mut v = 0;
        for i in 0..bits {
            let byte = *self.data.get(self.bit / 8)?;
            if byte >> (self.bit % 8) & 1 != 0 {
                v |= 1 << i;
            }
            self.bit += 1;
        }
        Some(v)
    }
}

/// Bits of each hand kind's count (pawn, lance, knight, silver, gold, bishop, rook).
const HAND_BITS: [usize; 7] = [5, 3, 3, 3, 3, 2, 2];

/// Pack a position (41 bytes). A position with more than 40 pieces on the board cannot
/// occur in a game; its extra pieces are left out.
pub fn pack(pos: &Position) -> [u8; POSITION_BYTES] {
    let mut out = [0u8; POSITION_BYTES];
    let mut w = BitWriter {
        out: &mut out,
        bit: 0,
    };
    let occ = pos.occupancy();
    let occupied: Vec<usize> = (0..81).filter(|&i| occ >> i & 1 != 0).take(40).collect();
    let mut mask = 0u128;
    for &i in &occupied {
        mask |= 1 << i;
    }
    for i in 0..81 {
        w.put((mask >> i & 1) as u32, 1);
    }
    for &i in &occupied {
        let code = pos.piece_code_at(i);
        debug_assert_ne!(code, EMPTY);
        w.put((code & 0x0f) as u32 | ((code >> 4) as u32 & 1) << 4, 5);
    }
    for c in 0..2 {
        for (k, &bits) in HAND_BITS.iter().enumerate() {
            let n = (pos.hand_count(c, k) as u32).min((1 << bits) - 1);
            w.put(n, bits);
        }
    }
    w.put(pos.to_move() as u32, 1);
    out
}

/// Decode a packed position and validate it (move number 1).
pub fn unpack(bytes: &[u8; POSITION_BYTES]) -> Result<Position, RecordError> {
    let bad = |s: &str| RecordError::Position(s.to_string());
    let mut r = BitReader {
        data: bytes,
        bit: 0,
    };
    let mut occ = 0u128;
    for i in 0..81 {
        occ |= (r.get(1).ok_or_else(|| bad("short"))? as u128) << i;
    }
    if occ.count_ones() > 40 {
        return Err(bad("more than 40 pieces"));
    }
    let mut s = Setup::empty();
    for i in 0..81 {
        if occ >> i & 1 == 0 {
            continue;
        }
        let v = r.get(5).ok_or_else(|| bad("short"))?;
        let kind = PieceKind::from_index((v & 0x0f) as usize).ok_or_else(|| bad("kind"))?;
        let color = if v & 0x10 != 0 {
            Color::White
        } else {
            Color::Black
        };
        s.board[Square::ALL[i].index()] = Some(Piece::new(color, kind));
    }
    for c in 0..2 {
        let mut h = Hand::EMPTY;
        for (k, &bits) in HAND_BITS.iter().enumerate() {
            let n = r.get(bits).ok_or_else(|| bad("short"))?;
            let kind = PieceKind::HAND_KINDS[k];
            for _ in 0..n {
                h.add(kind);
            }
        }
        s.hands[c] = h;
    }
    s.side_to_move = if r.get(1).ok_or_else(|| bad("short"))? == 1 {
        Color::White
    } else {
        Color::Black
    };
    Position::from_setup(s).map_err(|e| RecordError::Position(e.to_string()))
}

/// What reading a label file found.
#[derive(Debug, Default)]
pub struct ReadSummary {
    /// Records read whole and valid.
    pub records: Vec<Record>,
    /// Trailing bytes that do not make a whole record.
    pub partial_bytes: usize,
    /// Records whose check or fields were bad (skipped).
    pub bad: usize,
}

/// Why a label file cannot be read at all.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// Reading failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The file does not start with the magic bytes and a header.
    #[error("not a labelled-position file (no FSLEARN1 header)")]
    NotLabels,
}

/// Read the header text of a label file, and leave `r` at the first record.
pub fn read_header<R: Read>(r: &mut R) -> Result<String, FileError> {
    let mut magic = [0u8; 8];
    r.read_exact(&mut magic).map_err(|_| FileError::NotLabels)?;
    if &magic != MAGIC {
        return Err(FileError::NotLabels);
    }
    let mut len = [0u8; 4];
    r.read_exact(&mut len).map_err(|_| FileError::NotLabels)?;
    let len = u32::from_le_bytes(len) as usize;
    if len > 1 << 20 {
        return Err(FileError::NotLabels);
    }
    let mut text = vec![0u8; len];
    r.read_exact(&mut text).map_err(|_| FileError::NotLabels)?;
    String::from_utf8(text).map_err(|_| FileError::NotLabels)
}

/// The header bytes for `text`.
pub fn header_bytes(text: &str) -> Vec<u8> {
    let mut v = MAGIC.to_vec();
    v.extend_from_slice(&(text.len() as u32).to_le_bytes());
    v.extend_from_slice(text.as_bytes());
    v
}

/// Read every record of a label file: the header text and the records (bad ones counted
/// and skipped, a partial tail counted).
pub fn read_file(path: &Path) -> Result<(String, ReadSummary), FileError> {
    let mut f = std::io::BufReader::new(std::fs::File::open(path)?);
    let header = read_header(&mut f)?;
    let mut sum = ReadSummary::default();
    let mut buf = [0u8; RECORD_BYTES];
    loop {
        let mut got = 0;
        while got < RECORD_BYTES {
            let n = f.read(&mut buf[got..])?;
            if n == 0 {
                break;
            }
            got += n;
        }
        if got == 0 {
            break;
        }
        if got < RECORD_BYTES {
            sum.partial_bytes = got;
            break;
        }
        match Record::from_bytes(&buf) {
            Ok(r) => sum.records.push(r),
            Err(_) => sum.bad += 1,
        }
    }
    Ok((header, sum))
}

/// Where an interrupted file resumes: the byte length to keep (the header and every
/// record up to the last record that ends a unit, all valid) and the next unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResumePoint {
    /// Bytes to keep.
    pub keep_bytes: u64,
    /// Records kept.
    pub records: u64,
    /// The first unit not in the kept part.
    pub next_unit: u32,
}

/// Find the resume point of an existing label file whose header must equal `header`.
pub fn resume_point(path: &Path, header: &str) -> Result<ResumePoint, ResumeError> {
    let mut f = std::fs::File::open(path).map_err(FileError::Io)?;
    let found = read_header(&mut f)?;
    if found != header {
        return Err(ResumeError::Settings { found });
    }
    let start = f.stream_position().map_err(FileError::Io)?;
    let mut r = std::io::BufReader::new(f);
    let mut buf = [0u8; RECORD_BYTES];
    let mut point = ResumePoint {
        keep_bytes: start,
        records: 0,
        next_unit: 0,
    };
    let mut count = 0u64;
    loop {
        if r.read_exact(&mut buf).is_err() {
            break;
        }
        let Ok(rec) = Record::from_bytes(&buf) else {
            break;
        };
        count += 1;
        if rec.last {
            point = ResumePoint {
                keep_bytes: start + count * RECORD_BYTES as u64,
                records: count,
                next_unit: rec.unit + 1,
            };
        }
    }
    Ok(point)
}

/// Why a file cannot be resumed.
#[derive(Debug, thiserror::Error)]
pub enum ResumeError {
    /// The file cannot be read.
    #[error(transparent)]
    File(#[from] FileError),
    /// It was made with other settings.
    #[error("the file was made with other settings:\n{found}")]
    Settings {
        /// The header text found.
        found: String,
    },
}

/// Open `path` for appending at a resume point (truncating anything after it).
pub fn open_at(path: &Path, point: &ResumePoint) -> std::io::Result<std::fs::File> {
    let mut f = std::fs::OpenOptions::new().write(true).open(path)?;
    f.set_len(point.keep_bytes)?;
    f.seek(SeekFrom::End(0))?;
    Ok(f)
}

/// Create `path` with the header.
pub fn create(path: &Path, header: &str) -> std::io::Result<std::fs::File> {
    let mut f = std::fs::File::create(path)?;
    f.write_all(&header_bytes(header))?;
    f.flush()?;
    Ok(f)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_round_trip() {
        for sfen in [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "l7l/3+S1+N+RS1/1G1pp1KP1/p4p1G1/2p3p1p/PP1P5/5kP1P/5+p1r1/LNs4NL w B2GN4Pbs 1",
            "4k4/9/9/9/9/9/9/9/4K4 b RB2G2S2N2L9Prb2g2s2n2l9p 1",
        ] {
            let p = Position::from_sfen(sfen).unwrap();
            let q = unpack(&pack(&p)).unwrap();
            assert_eq!(q.to_sfen(), p.to_sfen());
        }
    }

    #[test]
    fn records_round_trip_and_a_flipped_bit_is_caught() {
        let p = Position::startpos();
        let r = Record {
            position: pack(&p),
            score: -1234,
            mate: true,
            outcome: Outcome::Win,
            source: Source::AiiruReplay,
            ply: 77,
            unit: 123_456,
            last: true,
        };
        let b = r.to_bytes();
        assert_eq!(Record::from_bytes(&b).unwrap(), r);
        for i in 0..50 {
            let mut c = b;
            c[i] ^= 0x10;
            assert!(Record::from_bytes(&c).is_err(), "byte {i}");
        }
    }
}
