//! Shared support of the position-core proof tests: fixture loading, a seeded random
//! generator, random playouts, and a bridge to the independent oracle (rsshogi) that maps
//! both libraries' moves to one canonical code so legal sets can be compared exactly.
#![allow(dead_code)] // each test file uses its own subset of these functions

use std::path::PathBuf;

use floodgate_scan::shogi::{Move, PieceKind, Position};

/// Path of a file under `fixtures/`.
pub fn fixture(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(rel)
}

/// Text of a file under `fixtures/`.
pub fn read_fixture(rel: &str) -> String {
    let path = fixture(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The named SFENs of `perft/sfen_positions.txt` (`name | sfen`).
pub fn named_sfens() -> Vec<(String, String)> {
    read_fixture("perft/sfen_positions.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (name, sfen) = l.split_once('|').expect("name | sfen");
            (name.trim().to_string(), sfen.trim().to_string())
        })
        .collect()
}

/// The SFEN of a named position of `perft/sfen_positions.txt`.
pub fn named_sfen(name: &str) -> String {
    named_sfens()
        .into_iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no position named {name}"))
        .1
}

/// The SFENs of `positions/aiiru_bench.tsv` (first column of every data row).
pub fn bench_sfens() -> Vec<String> {
    read_fixture("positions/aiiru_bench.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split('\t').next().unwrap().to_string())
        .collect()
}

/// The USI moves of a sequence of `perft/move_sequences.txt` (all from the start position).
pub fn sequence(name: &str) -> Vec<String> {
    let text = read_fixture("perft/move_sequences.txt");
    let line = text
        .lines()
        .find(|l| l.starts_with(name))
        .unwrap_or_else(|| panic!("no sequence {name}"));
    let (_, cmd) = line.split_once('|').unwrap();
    let rest = cmd
        .trim()
        .strip_prefix("position startpos moves ")
        .expect("sequences start from the start position");
    rest.split_whitespace().map(str::to_string).collect()
}

/// Parse a position the fixtures say is valid.
pub fn pos(sfen: &str) -> Position {
    Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e:?}"))
}

/// Parse a USI move the fixtures say is well formed.
pub fn usi(s: &str) -> Move {
    Move::from_usi(s).unwrap_or_else(|e| panic!("{s}: {e:?}"))
}

/// SplitMix64: a tiny deterministic generator, so every run sees the same positions.
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed ^ 0x9e37_79b9_7f4a_7c15)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// Canonical code of a square: (file - 1) * 9 + (rank - 1), the same for both libraries.
fn sq_code(file: u8, rank: u8) -> u32 {
    u32::from(file - 1) * 9 + u32::from(rank - 1)
}

/// USI letter of a droppable kind.
pub fn drop_letter(kind: PieceKind) -> u8 {
    match kind {
        PieceKind::Pawn => b'P',
        PieceKind::Lance => b'L',
        PieceKind::Knight => b'N',
        PieceKind::Silver => b'S',
        PieceKind::Gold => b'G',
        PieceKind::Bishop => b'B',
        PieceKind::Rook => b'R',
        other => panic!("{other:?} cannot be dropped"),
    }
}

/// Canonical code of one of our moves.
pub fn code(m: Move) -> u32 {
    match m {
        Move::Normal { from, to, promote } => {
            (1 << 20)
                | (sq_code(from.file(), from.rank()) << 8)
                | (sq_code(to.file(), to.rank()) << 1)
                | u32::from(promote)
        }
        Move::Drop { kind, to } => {
            (2 << 20) | (u32::from(drop_letter(kind)) << 8) | sq_code(to.file(), to.rank())
        }
    }
}

/// Canonical code of an rsshogi move.
pub fn rs_code(m: rsshogi::types::Move) -> u32 {
    let sq = |s: rsshogi::types::Square| {
        let r = u32::try_from(s.raw()).expect("a board square");
        // rsshogi: raw = file_index * 9 + rank_index, the same layout as `sq_code`.
        r
    };
    if let Some(pt) = m.dropped_piece() {
        let letter = match pt.raw() {
            1 => b'P',
            2 => b'L',
            3 => b'N',
            4 => b'S',
            5 => b'B',
            6 => b'R',
            7 => b'G',
            other => panic!("rsshogi drop of piece type {other}"),
        };
        (2 << 20) | (u32::from(letter) << 8) | sq(m.to_sq())
    } else {
        (1 << 20) | (sq(m.from_sq()) << 8) | (sq(m.to_sq()) << 1) | u32::from(m.is_promotion())
    }
}

/// Sorted canonical codes of our complete legal set.
pub fn our_legal_codes(p: &Position) -> Vec<u32> {
    let mut v: Vec<u32> = p.legal_moves().iter().map(|&m| code(m)).collect();
    v.sort_unstable();
    v
}

/// Sorted canonical codes of rsshogi's complete legal set (`LegalAll`: every non-promotion).
pub fn rs_legal_codes(p: &rsshogi::board::Position) -> Vec<u32> {
    let mut list = rsshogi::board::MoveList::new();
    rsshogi::movegen::generate_legal_all(p, &mut list);
    let mut v: Vec<u32> = list.iter().map(|&m| rs_code(m)).collect();
    v.sort_unstable();
    v
}

/// The oracle's view of the same position.
pub fn rs_pos(sfen: &str) -> rsshogi::board::Position {
    rsshogi::board::position_from_sfen(sfen).unwrap_or_else(|e| panic!("rsshogi {sfen}: {e:?}"))
}

/// Apply a move (given as USI) to the oracle's position.
pub fn rs_play(p: &mut rsshogi::board::Position, usi_move: &str) {
    let m = p
        .move32_from_usi(usi_move)
        .unwrap_or_else(|| panic!("rsshogi rejects {usi_move}"));
    p.apply_move32(m);
}

/// Readable difference between two sorted code lists (for failure messages).
pub fn describe_diff(ours: &[u32], theirs: &[u32]) -> String {
    let decode = |c: u32| -> String {
        let kind = c >> 20;
        let sq = |s: u32| format!("{}{}", s / 9 + 1, (b'a' + (s % 9) as u8) as char);
        if kind == 2 {
            format!("{}*{}", ((c >> 8) & 0xff) as u8 as char, sq(c & 0xff))
        } else {
            let promote = if c & 1 == 1 { "+" } else { "" };
            format!("{}{}{}", sq((c >> 8) & 0x7f), sq((c >> 1) & 0x7f), promote)
        }
    };
    let only_ours: Vec<String> = ours
        .iter()
        .filter(|c| theirs.binary_search(c).is_err())
        .map(|&c| decode(c))
        .collect();
    let only_theirs: Vec<String> = theirs
        .iter()
        .filter(|c| ours.binary_search(c).is_err())
        .map(|&c| decode(c))
        .collect();
    format!("only ours: {only_ours:?}; only the oracle's: {only_theirs:?}")
}

/// Play a random legal game of at most `plies` plies from `start`, returning every
/// position's SFEN along the way (start included) and the USI moves played.
pub fn random_playout(
    start: &str,
    plies: usize,
    rng: &mut SplitMix64,
) -> (Vec<String>, Vec<String>) {
    random_playout_with_checks(start, plies, rng, 0)
}

/// As [`random_playout`], but one move in `check_every` (when non-zero) is a checking move
/// whenever one exists, so that positions in check and mating nets are frequent.
pub fn random_playout_with_checks(
    start: &str,
    plies: usize,
    rng: &mut SplitMix64,
    check_every: usize,
) -> (Vec<String>, Vec<String>) {
    let mut p = pos(start);
    let mut sfens = vec![p.to_sfen()];
    let mut moves = Vec::new();
    for _ in 0..plies {
        let legal = p.legal_moves();
        if legal.is_empty() {
            break;
        }
        let checks: Vec<Move> = if check_every > 0 && rng.below(check_every) == 0 {
            legal
                .iter()
                .copied()
                .filter(|&m| p.gives_check(m))
                .collect()
        } else {
            Vec::new()
        };
        let m = if checks.is_empty() {
            legal[rng.below(legal.len())]
        } else {
            checks[rng.below(checks.len())]
        };
        moves.push(m.to_usi());
        p.play(m).expect("a generated move is legal");
        sfens.push(p.to_sfen());
    }
    (sfens, moves)
}
