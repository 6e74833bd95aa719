//! Compare the replayed final position with the board the server wrote in the trailer.
//!
//! The trailer shows the position after the last move, except for repetitions, where the
//! server rolls the repeating move back (`prelast`). Before 2008-03-16 (and on servers
//! that ran that code for months after) the trailer's side-to-move line was always `'+`,
//! so a `'+` from those years is not compared.

use crate::csa::{Record, Trailer};
use crate::shogi::{Color, PieceKind, Position, Setup, Square};

/// The outcome of the comparison, with the table's vocabulary in [`FinalBoard::name`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FinalBoard {
    /// Equals the replayed final position.
    Match,
    /// Equals the position before the last move (repetitions).
    Prelast,
    /// Differs from both.
    Mismatch,
    /// The record has no trailer board.
    Missing,
    /// No replay to compare with (bad starting position).
    Unchecked,
}

impl FinalBoard {
    pub fn name(self) -> &'static str {
        match self {
            FinalBoard::Match => "match",
            FinalBoard::Prelast => "prelast",
            FinalBoard::Mismatch => "mismatch",
            FinalBoard::Missing => "missing",
            FinalBoard::Unchecked => "unchecked",
        }
    }
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
    let mut row = [b' '; 29];
    row[0] = b'P';
    for rank in 1..=9u8 {
        row[1] = b'0' + rank;
        for (i, file) in (1..=9u8).rev().enumerate() {
            let cell = &mut row[2 + 3 * i..5 + 3 * i];
            match Square::new(file, rank).and_then(|sq| pos.piece_at(sq)) {
                Some(p) => {
                    cell[0] = if p.color == Color::Black { b'+' } else { b'-' };
                    cell[1..].copy_from_slice(p.kind.csa().as_bytes());
                }
                None => cell.copy_from_slice(b" * "),
            }
        }
        if trailer.rows[usize::from(rank - 1)] != Some(&row[..]) {
            return false;
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
    if prints_as(trailer, last, side) {
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
