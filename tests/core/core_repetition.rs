//! Repetition and perpetual check on a key history.
//!
//! A fourfold repetition where every move of one side gave check is a loss for that side,
//! whichever side is to move at the fourth occurrence (the seed design only caught the
//! case where the side in check is to move). Both variants are built here, for a Black
//! and for a White checker, next to a plain repetition without checks, and the reference
//! fourfold-repetition game of `fixtures/perft/move_sequences.txt`.

use crate::core_support::{pos, sequence, usi};
use floodgate_scan::shogi::{Color, History, Position, RepetitionStatus};

/// Board, hands and side to move: the SFEN without its move number.
fn sfen_key(sfen: &str) -> String {
    sfen.rsplit_once(' ').unwrap().0.to_string()
}

#[test]
fn fourfold_repetition_found_at_the_right_ply() {
    let moves = sequence("repetition_4fold");
    // Independent count: occurrences of each SFEN (without move number) along the game.
    let mut p = Position::startpos();
    let mut counts = std::collections::HashMap::new();
    *counts.entry(sfen_key(&p.to_sfen())).or_insert(0) += 1;
    let mut fourth = None;
    for (i, m) in moves.iter().enumerate() {
        p.play(usi(m)).unwrap();
        let c = counts.entry(sfen_key(&p.to_sfen())).or_insert(0);
        *c += 1;
        if *c == 4 && fourth.is_none() {
            fourth = Some(i + 1);
        }
    }
    let fourth = fourth.expect("the sequence repeats a position four times");
    assert_eq!(
        fourth,
        moves.len(),
        "the last move makes the fourth occurrence"
    );

    let mut p = Position::startpos();
    let mut h = History::new(&p);
    for (i, m) in moves.iter().enumerate() {
        p.play(usi(m))
            .unwrap_or_else(|k| panic!("ply {}: {m}: {k:?}", i + 1));
        h.push(&p);
        let status = h.repetition();
        if i + 1 < fourth {
            assert_eq!(status, RepetitionStatus::None, "ply {}: {m}", i + 1);
        } else {
            assert_eq!(status, RepetitionStatus::Draw, "ply {}: {m}", i + 1);
        }
    }
    // Taking the last move back leaves a position seen only three times.
    h.pop();
    assert_eq!(h.repetition(), RepetitionStatus::None);
}

/// Play `cycle` `times` times from `sfen`, returning the status after every ply.
fn statuses(sfen: &str, cycle: &[&str], times: usize) -> Vec<RepetitionStatus> {
    let mut p = pos(sfen);
    let mut h = History::new(&p);
    let mut out = Vec::new();
    for _ in 0..times {
        for m in cycle {
            p.play(usi(m))
                .unwrap_or_else(|k| panic!("{sfen}: {m}: {k:?}"));
            h.push(&p);
            out.push(h.repetition());
        }
    }
    out
}

/// The last ply of three cycles is the fourth occurrence of the start position; nothing
/// before it ends the game.
fn assert_ends_with(all: &[RepetitionStatus], last: RepetitionStatus) {
    let (end, before) = all.split_last().unwrap();
    for (i, s) in before.iter().enumerate() {
        assert_eq!(*s, RepetitionStatus::None, "ply {}", i + 1);
    }
    assert_eq!(*end, last);
}

const BLACK_CHECKS: &str = "8k/R8/9/9/9/9/9/9/4K4 b - 1";

/// Black checks with the rook on every move; at the fourth occurrence Black (the checker)
/// is to move. The seed design calls it a draw: it is Black's loss.
#[test]
fn perpetual_check_checker_to_move_black() {
    let s = statuses(BLACK_CHECKS, &["9b9a", "1a1b", "9a9b", "1b1a"], 3);
    assert_eq!(s.len(), 12);
    assert_ends_with(&s, RepetitionStatus::PerpetualCheckLoss(Color::Black));
}

/// The same cycle entered one ply later: White (in check) is to move at the fourth
/// occurrence. Still Black's loss.
#[test]
fn perpetual_check_checked_side_to_move_black() {
    let s = statuses(
        "R7k/9/9/9/9/9/9/9/4K4 w - 2",
        &["1a1b", "9a9b", "1b1a", "9b9a"],
        3,
    );
    assert_ends_with(&s, RepetitionStatus::PerpetualCheckLoss(Color::Black));
}

/// The board turned round: White checks, White to move at the fourth occurrence.
#[test]
fn perpetual_check_checker_to_move_white() {
    let s = statuses(
        "4k4/9/9/9/9/9/9/8r/K8 w - 1",
        &["1h1i", "9i9h", "1i1h", "9h9i"],
        3,
    );
    assert_ends_with(&s, RepetitionStatus::PerpetualCheckLoss(Color::White));
}

/// White checks, Black (in check) to move at the fourth occurrence.
#[test]
fn perpetual_check_checked_side_to_move_white() {
    let s = statuses(
        "4k4/9/9/9/9/9/9/9/K7r b - 2",
        &["9i9h", "1i1h", "9h9i", "1h1i"],
        3,
    );
    assert_ends_with(&s, RepetitionStatus::PerpetualCheckLoss(Color::White));
}

/// The same king walk without checks is a plain draw at the fourth occurrence.
#[test]
fn repetition_without_checks_is_a_draw() {
    // The rook stays on file 9 away from the White king's ranks: no move checks.
    let s = statuses(
        "8k/9/9/9/R8/9/9/9/4K4 b - 1",
        &["9e9f", "1a1b", "9f9e", "1b1a"],
        3,
    );
    assert_ends_with(&s, RepetitionStatus::Draw);
}

/// Checks by one side only on some moves of the cycle are not perpetual: a draw.
#[test]
fn intermittent_checks_are_a_draw() {
    // 9c9a checks the king on 1a along rank a; 9a9c does not reach the king on 1b.
    let s = statuses(
        "8k/9/R8/9/9/9/9/9/4K4 b - 1",
        &["9c9a", "1a1b", "9a9c", "1b1a"],
        3,
    );
    assert_ends_with(&s, RepetitionStatus::Draw);
}

/// Undoing the repeating move undoes the verdict.
#[test]
fn pop_restores_the_previous_status() {
    let mut p = pos(BLACK_CHECKS);
    let mut h = History::new(&p);
    let cycle = ["9b9a", "1a1b", "9a9b", "1b1a"];
    for _ in 0..3 {
        for m in cycle {
            p.play(usi(m)).unwrap();
            h.push(&p);
        }
    }
    assert_eq!(
        h.repetition(),
        RepetitionStatus::PerpetualCheckLoss(Color::Black)
    );
    h.pop();
    assert_eq!(h.repetition(), RepetitionStatus::None);
}
