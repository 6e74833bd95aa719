//! The fast evaluation against its definition: on the 1,000 real entering-king positions of
//! `aiiru_bench.tsv` and along random games (every position reached by play and again by
//! undo), the snapshot equals the one built through the core's public accessors, and the
//! fast evaluation (processor-specific and portable, on the snapshot and on the position
//! read in place) equals the plain reference; so do the static exchange evaluation and
//! the history slot of every legal move and the capture list.
mod core_support;

use core_support::{Rng, bench_sfens, pos};
use floodgate_scan::engine::board::{BISHOP, Board, PAWN, ROOK, captures};
use floodgate_scan::engine::eval::{evaluate, evaluate_portable, evaluate_reference};
use floodgate_scan::engine::ordering::{history_index, see, see_reference};
use floodgate_scan::shogi::{Move, MoveList, Position};

/// Check one position; returns its evaluation.
fn check(p: &Position) -> i32 {
    let fast = Board::new(p);
    let plain = Board::from_accessors(p);
    assert_eq!(fast, plain, "snapshot of {}", p.to_sfen());
    let want = evaluate_reference(&plain);
    assert_eq!(evaluate(&fast), want, "evaluate {}", p.to_sfen());
    assert_eq!(evaluate_portable(&fast), want, "portable {}", p.to_sfen());
    assert_eq!(evaluate(p), want, "evaluate in place {}", p.to_sfen());
    assert_eq!(
        evaluate_portable(p),
        want,
        "portable in place {}",
        p.to_sfen()
    );
    for &m in p.legal_moves().iter() {
        let want = see_reference(&plain, m);
        let what = || format!("exchange of {} in {}", m.to_usi(), p.to_sfen());
        assert_eq!(see(&fast, m), want, "{}", what());
        assert_eq!(see(p, m), want, "in place: {}", what());
        assert_eq!(history_index(p, m), history_index(&plain, m), "{}", what());
    }
    let (mut a, mut b) = (MoveList::new(), MoveList::new());
    captures(p, &mut a);
    captures(&plain, &mut b);
    assert_eq!(a.as_slice(), b.as_slice(), "captures in {}", p.to_sfen());
    check_captures(p, &plain, a.as_slice());
    want
}

/// The capture list against the core's legal moves: its legal members are exactly the
/// legal captures, less the non-promotions of pawns, bishops and rooks that could
/// promote; it runs by moving kind, origin, destination, promotion first.
fn check_captures(p: &Position, plain: &Board, caps: &[Move]) {
    let key = |m: Move| match m {
        Move::Normal { from, to, promote } => (
            plain.kind_at(from.index()),
            from.index(),
            to.index(),
            !promote,
        ),
        Move::Drop { .. } => unreachable!("a capture list holds no drop"),
    };
    assert!(
        caps.windows(2).all(|w| key(w[0]) < key(w[1])),
        "capture order in {}",
        p.to_sfen()
    );
    let mut got: Vec<Move> = caps.iter().copied().filter(|&m| p.is_legal(m)).collect();
    let legal = p.legal_moves();
    let mut want: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|&m| match m {
            Move::Normal { from, to, promote } => {
                p.piece_at(to).is_some()
                    && (promote
                        || !matches!(plain.kind_at(from.index()), PAWN | BISHOP | ROOK)
                        || !legal.contains(&Move::Normal {
                            from,
                            to,
                            promote: true,
                        }))
            }
            Move::Drop { .. } => false,
        })
        .collect();
    got.sort_by_key(|&m| key(m));
    want.sort_by_key(|&m| key(m));
    assert_eq!(got, want, "legal captures in {}", p.to_sfen());
}

/// Play a random game of up to `plies` from `start`, checking every position on the way
/// out and again on the way back (by undo); the values must agree both ways.
fn walk(start: &Position, plies: usize, rng: &mut Rng) -> usize {
    let mut p = start.clone();
    let mut path: Vec<(Move, _, i32)> = Vec::new();
    let mut seen = 1;
    let mut v = check(&p);
    for _ in 0..plies {
        let moves = p.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.below(moves.len())];
        let undo = p.play_unchecked(m);
        path.push((m, undo, v));
        v = check(&p);
        seen += 1;
    }
    while let Some((m, undo, before)) = path.pop() {
        p.undo(m, undo);
        assert_eq!(check(&p), before, "after undo of {}", m.to_usi());
    }
    assert_eq!(&p, start);
    seen
}

#[test]
fn fast_evaluation_equals_the_reference_on_entering_king_positions() {
    let mut rng = Rng::new(0x5eed_e7a1);
    let mut n = 0;
    for sfen in bench_sfens() {
        n += walk(&pos(&sfen), 24, &mut rng);
    }
    assert!(n > 20_000, "{n} positions checked");
}

#[test]
fn fast_evaluation_equals_the_reference_along_random_games() {
    let mut rng = Rng::new(42);
    let mut n = 0;
    for _ in 0..150 {
        n += walk(&Position::startpos(), 250, &mut rng);
    }
    assert!(n > 20_000, "{n} positions checked");
}
