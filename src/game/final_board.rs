//! Compare the replayed final position with the board the server wrote in the trailer.
//!
//! The trailer shows the position after the last move, except for repetitions, where the
//! server rolls the repeating move back (`prelast`). Before 2008-03-16 (and on servers
//! that ran that code for months after) the trailer's side-to-move line was always `'+`,
//! so a `'+` from those years is not compared.

use crate::csa::{Record, Trailer};
use crate::shogi::{Color, PieceKind, Position, Setup};

crate::words::word_enum! {
    /// The outcome of the comparison (`final_board`), with the table's vocabulary in
    /// [`FinalBoard::name`].
    pub enum FinalBoard("final board") {
        /// Equals the replayed final position.
        Match => "match",
        /// Equals the position before the last move (repetitions).
        Prelast => "prelast",
        /// Differs from both.
        Mismatch => "mismatch",
        /// The record has no trailer board.
        Missing => "missing",
        /// No replay to compare with (bad starting position).
        Unchecked => "unchecked",
    }
}

impl FinalBoard {
    /// The outcomes that compared a board: `match`, `mismatch`, `prelast`.
    pub const COMPARED: [FinalBoard; 3] =
        [FinalBoard::Match, FinalBoard::Mismatch, FinalBoard::Prelast];
    /// The outcomes where the trailer agrees with the replay: `match`, `prelast`.
    pub const AGREED: [FinalBoard; 2] = [FinalBoard::Match, FinalBoard::Prelast];
}

/// Whether the trailer's side-to-move line can be trusted for this record: not a `'+`
/// written by a server of 2008 or earlier (the always-`'+` bug and its deployment lag).
pub fn trailer_side_reliable(rec: &Record<'_>, trailer: &Trailer<'_>) -> bool {
    if trailer.side != Some(b'+') {
        return true;
    }
    match rec
        .start_time
        .as_deref()
        .and_then(|t| t.get(0..4))
        .and_then(|y| y.parse::<u32>().ok())
    {
        Some(year) => year >= 2009,
        None => false,
    }
}

fn same(a: &Setup, b: &Setup, compare_side: bool) -> bool {
    a.board
        .iter()
        .zip(b.board.iter())
        .all(|(x, y)| match (x, y) {
            (Some(x), Some(y)) => x.color == y.color && x.kind == y.kind,
            (None, None) => true,
            _ => false,
        })
        && Color::ALL.iter().all(|&c| {
            let (ha, hb) = (&a.hands[c.index()], &b.hands[c.index()]);
            PieceKind::HAND_KINDS
                .iter()
                .all(|&k| ha.count(k) == hb.count(k))
        })
        && (!compare_side || a.side_to_move == b.side_to_move)
}

/// Whether the trailer is exactly `pos` as the server prints it (the common case, checked
/// without parsing); `false` sends the caller to the full comparison.
fn prints_as(trailer: &Trailer<'_>, pos: &Position, compare_side: bool) -> bool {
    for rank in 0..9 {
        // `P1-KY-KE...`: the row's number, then the squares from file 9 to file 1.
        let Some(row) = trailer.rows[rank] else {
            return false;
        };
        if row.len() != 29 || row[..2] != [b'P', b'1' + rank as u8] {
            return false;
        }
        for (i, file) in (0..9).rev().enumerate() {
            if row[2 + 3 * i..5 + 3 * i] != pos.csa_cell(file * 9 + rank)[..] {
                return false;
            }
        }
    }
    for c in Color::ALL {
        let mut counts = [0u32; 7];
        if let Some(line) = trailer.hands[c.index()] {
            let groups = &line[2..];
            if !groups.len().is_multiple_of(4) {
                return false;
            }
            for g in groups.chunks(4) {
                let kind = PieceKind::from_csa(&g[2..4]);
                match PieceKind::HAND_KINDS.iter().position(|&k| Some(k) == kind) {
                    Some(i) if &g[..2] == b"00" => counts[i] += 1,
                    _ => return false,
                }
            }
        }
        let hand = pos.hand(c);
        if PieceKind::HAND_KINDS
            .iter()
            .zip(counts)
            .any(|(&k, n)| hand.count(k) != n)
        {
            return false;
        }
    }
    let side = if pos.side_to_move() == Color::Black {
        b'+'
    } else {
        b'-'
    };
    !compare_side || trailer.side == Some(side)
}

/// Compare; the `String` explains a mismatch or an unreadable trailer.
pub fn compare(
    rec: &Record<'_>,
    last: &Position,
    before_last: impl FnOnce() -> Option<Position>,
) -> (FinalBoard, String) {
    compare_with(rec, last, before_last, true)
}

/// [`compare`] without its quick path (the trailer's text checked against the server's
/// printing of the position): the trailer is always parsed and its board, hands and side
/// compared. The verdict and the explanation must be [`compare`]'s; the `csa_reader` fuzz
/// target holds the two to that.
pub fn compare_parsed(
    rec: &Record<'_>,
    last: &Position,
    before_last: impl FnOnce() -> Option<Position>,
) -> (FinalBoard, String) {
    compare_with(rec, last, before_last, false)
}

fn compare_with(
    rec: &Record<'_>,
    last: &Position,
    before_last: impl FnOnce() -> Option<Position>,
    quick: bool,
) -> (FinalBoard, String) {
    let Some(trailer) = rec.trailer.as_ref() else {
        return (FinalBoard::Missing, String::new());
    };
    if !trailer.is_complete() {
        return (
            FinalBoard::Missing,
            format!("line {}: incomplete trailer board", trailer.line),
        );
    }
    let side = trailer_side_reliable(rec, trailer);
    if quick && prints_as(trailer, last, side) {
        return (FinalBoard::Match, String::new());
    }
    let parsed = match Setup::from_csa_lines(trailer.position_lines()) {
        Ok(s) => s,
        Err(e) => {
            return (
                FinalBoard::Mismatch,
                format!("line {}: unreadable trailer board: {e}", trailer.line),
            );
        }
    };
    if same(&parsed, &last.to_setup(), side) {
        return (FinalBoard::Match, String::new());
    }
    if before_last().is_some_and(|prev| same(&parsed, &prev.to_setup(), side)) {
        return (FinalBoard::Prelast, String::new());
    }
    (
        FinalBoard::Mismatch,
        format!(
            "line {}: trailer board differs from the replayed final position",
            trailer.line
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::csa::read_record;
    use crate::game::playthrough::{play_through, start_position};
    use std::path::Path;

    /// The quick comparison recognises the server's own printing of the final board: for
    /// every fixture record, it finds the trailer equal to the replayed position exactly
    /// when the full comparison (trailer parsed, boards and hands compared) does; a trailer
    /// with one square or one hand piece changed is no longer equal.
    #[test]
    fn the_quick_comparison_agrees_with_the_full_one() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/csa");
        let (mut equal, mut differ) = (0, 0);
        for sub in ["real", "server"] {
            for entry in std::fs::read_dir(dir.join(sub)).unwrap() {
                let path = entry.unwrap().path();
                if path.extension().is_none_or(|e| e != "csa") {
                    continue;
                }
                let bytes = std::fs::read(&path).unwrap();
                let rec = read_record(&bytes).unwrap();
                let Some(trailer) = rec.trailer.as_ref().filter(|t| t.is_complete()) else {
                    continue;
                };
                let r = play_through(start_position(&rec).unwrap(), &rec.moves, false);
                assert_eq!(
                    compare(&rec, &r.last, || r.before_last()),
                    compare_parsed(&rec, &r.last, || r.before_last()),
                    "{}",
                    path.display()
                );
                let side = trailer_side_reliable(&rec, trailer);
                let parsed = Setup::from_csa_lines(trailer.position_lines()).unwrap();
                let full = same(&parsed, &r.last.to_setup(), side);
                assert_eq!(
                    prints_as(trailer, &r.last, side),
                    full,
                    "{}",
                    path.display()
                );
                if !full {
                    differ += 1;
                    continue;
                }
                equal += 1;
                // One square changed: the 5th row's first square, empty or not.
                let mut row = trailer.rows[4].unwrap().to_vec();
                let other: &[u8; 3] = if &row[2..5] == b" * " { b"+FU" } else { b" * " };
                row[2..5].copy_from_slice(other);
                let mut changed = trailer.clone();
                changed.rows[4] = Some(&row);
                assert!(!prints_as(&changed, &r.last, side), "{}", path.display());
                // One pawn more in Black's hand.
                let hand = [trailer.hands[0].unwrap_or(b"P+"), b"00FU"].concat();
                let mut changed = trailer.clone();
                changed.hands[0] = Some(&hand);
                assert!(!prints_as(&changed, &r.last, side), "{}", path.display());
            }
        }
        // Repetitions end on the position before the last move: those differ here.
        assert!(equal >= 20 && differ >= 3, "{equal} equal, {differ} differ");
    }
}
