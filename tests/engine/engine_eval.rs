//! The fast evaluation against its definition: on the 1,000 real entering-king positions of
//! `aiiru_bench.tsv` and along random games (every position reached by play and again by
//! undo), the position read in place agrees with a plain snapshot built through the core's
//! public accessors, and the fast evaluation (processor-specific and portable, in place
//! and on the snapshot) equals the plain reference; so do the static exchange evaluation
//! and the history slot of every legal move, the capture list, and the 24-point
//! evaluation read in place and from the snapshot. The castle term, which the fast
//! evaluation and the reference share, is checked apart against its definition.

use crate::core_support::{SplitMix64, bench_sfens, pos};
use floodgate_scan::engine::eval::eval24::{self, Weights};
use floodgate_scan::engine::eval::{castle_term, evaluate, evaluate_portable, evaluate_reference};
use floodgate_scan::engine::ordering::{history_index, see, see_reference};
use floodgate_scan::shogi::sets::{
    BISHOP, EMPTY, KIND_LIST, KINDS, PAWN, Pieces, ROOK, SquareSet, attack_map, captures, squares,
};
use floodgate_scan::shogi::{
    Bitboard, Color, EnteringKingRule, Move, MoveList, PieceKind, Position, attacks_from,
};

/// A plain snapshot of a position, built piece by piece through the core's public
/// accessors: the reference the in-place reading is checked against.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Plain {
    pieces: [[SquareSet; KINDS]; 2],
    by_color: [SquareSet; 2],
    piece: [u8; 81],
    hands: [[i32; 7]; 2],
    king: [Option<usize>; 2],
    side: usize,
}

impl Plain {
    fn new(pos: &Position) -> Plain {
        let mut b = Plain {
            pieces: [[0; KINDS]; 2],
            by_color: [0; 2],
            piece: [EMPTY; 81],
            hands: [[0; 7]; 2],
            king: [None; 2],
            side: pos.side_to_move().index(),
        };
        for c in Color::ALL {
            let ci = c.index();
            for sq in pos.pieces_of(c).iter() {
                b.by_color[ci] |= 1u128 << sq.index();
            }
            for (k, kind) in KIND_LIST.iter().enumerate() {
                for sq in pos.pieces(c, *kind).iter() {
                    b.pieces[ci][k] |= 1u128 << sq.index();
                    b.piece[sq.index()] = (ci as u8) << 4 | k as u8;
                }
            }
            b.king[ci] = pos.king_square(c).map(|s| s.index());
            for (k, kind) in KIND_LIST.iter().take(7).enumerate() {
                b.hands[ci][k] = pos.hand(c).count(*kind) as i32;
            }
        }
        b
    }

    /// The same snapshot read back through the [`Pieces`] trait of `p`.
    fn read<P: Pieces>(p: &P) -> Plain {
        Plain {
            pieces: std::array::from_fn(|c| std::array::from_fn(|k| p.set(c, k))),
            by_color: [p.color_set(0), p.color_set(1)],
            piece: std::array::from_fn(|sq| p.piece_code_at(sq)),
            hands: std::array::from_fn(|c| std::array::from_fn(|k| p.hand_count(c, k))),
            king: [p.king_of(0), p.king_of(1)],
            side: p.to_move(),
        }
    }

    fn kind_at(&self, sq: usize) -> usize {
        (self.piece[sq] & 0x0f) as usize
    }
}

impl Pieces for Plain {
    fn set(&self, c: usize, k: usize) -> SquareSet {
        self.pieces[c][k]
    }
    fn color_set(&self, c: usize) -> SquareSet {
        self.by_color[c]
    }
    fn occupancy(&self) -> SquareSet {
        self.by_color[0] | self.by_color[1]
    }
    fn piece_code_at(&self, sq: usize) -> u8 {
        self.piece[sq]
    }
    fn hand_count(&self, c: usize, k: usize) -> i32 {
        self.hands[c][k]
    }
    fn king_of(&self, c: usize) -> Option<usize> {
        self.king[c]
    }
    fn to_move(&self) -> usize {
        self.side
    }
}

/// Check one position; returns its evaluation.
fn check(p: &Position) -> i32 {
    let plain = Plain::new(p);
    assert_eq!(Plain::read(p), plain, "in-place reading of {}", p.to_sfen());
    let want = evaluate_reference(&plain);
    assert_eq!(evaluate(&plain), want, "evaluate {}", p.to_sfen());
    assert_eq!(evaluate_portable(&plain), want, "portable {}", p.to_sfen());
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
        assert_eq!(see(&plain, m), want, "{}", what());
        assert_eq!(see(p, m), want, "in place: {}", what());
        assert_eq!(history_index(p, m), history_index(&plain, m), "{}", what());
    }
    let (mut a, mut b) = (MoveList::new(), MoveList::new());
    captures(p, &mut a);
    captures(&plain, &mut b);
    assert_eq!(a.as_slice(), b.as_slice(), "captures in {}", p.to_sfen());
    check_captures(p, &plain, a.as_slice());
    check_attack_maps(p, &plain);
    for c in Color::ALL {
        let want = castle_by_definition(p, c);
        let what = || format!("castle term of {c:?} in {}", p.to_sfen());
        assert_eq!(castle_term(p, c.index()), want, "{}", what());
        assert_eq!(castle_term(&plain, c.index()), want, "snapshot: {}", what());
    }
    let w = Weights::default();
    for rule in [EnteringKingRule::CSARule24, EnteringKingRule::CSARule27] {
        assert_eq!(
            eval24::evaluate(p, &w, rule),
            eval24::evaluate(&plain, &w, rule),
            "24-point evaluation of {} under {rule:?}",
            p.to_sfen()
        );
    }
    want
}

/// The castle term of the king of `c` from its definition, through the core's public
/// accessors and attack sets (not the evaluation's tables): 25 for each gold, silver or
/// promoted minor piece of `c` next to the king, 12 for each two squares away; less 3/2 of
/// the square of the danger units (at most 40): the enemy's hits on the squares next to
/// the king (each attacking piece, not a king, once per square), 2 for each of those
/// squares the enemy attacks and no piece of `c` but the king guards, and the enemy's
/// hand (pawn 1, lance 1, knight 2, silver 2, gold 3, bishop 3, rook 4 for each kind held)
/// times the empty unguarded squares next to the king (at most 4), halved; the units
/// halved again when the enemy has nothing in hand and fewer than two attacking pieces.
fn castle_by_definition(p: &Position, c: Color) -> i32 {
    let Some(king) = p.king_square(c) else {
        return 0;
    };
    let dist = |a: usize, b: usize| {
        let (ra, fa, rb, fb) = (a / 9, a % 9, b / 9, b % 9);
        ra.abs_diff(rb).max(fa.abs_diff(fb))
    };
    let all = floodgate_scan::shogi::Square::ALL;
    let next: Vec<_> = all
        .iter()
        .copied()
        .filter(|s| dist(s.index(), king.index()) == 1)
        .collect();
    let castle_kinds = [
        PieceKind::Gold,
        PieceKind::Silver,
        PieceKind::ProPawn,
        PieceKind::ProLance,
        PieceKind::ProKnight,
        PieceKind::ProSilver,
    ];
    let sheltering = |d: usize| {
        all.iter()
            .filter(|s| dist(s.index(), king.index()) == d)
            .filter(|&&s| {
                p.piece_at(s)
                    .is_some_and(|pc| pc.color == c && castle_kinds.contains(&pc.kind))
            })
            .count() as i32
    };
    let shelter = 25 * sheltering(1) + 12 * sheltering(2);
    let attacks = |side: Color| -> Vec<Bitboard> {
        KIND_LIST
            .iter()
            .filter(|&&k| k != PieceKind::King)
            .flat_map(|&k| {
                p.pieces(side, k)
                    .iter()
                    .map(move |sq| attacks_from(k, side, sq, p.occupied()))
            })
            .collect()
    };
    let guarded = attacks(c).into_iter().fold(Bitboard::EMPTY, |a, b| a | b);
    let enemy = attacks(!c);
    let enemy_map = enemy.iter().fold(Bitboard::EMPTY, |a, &b| a | b);
    let on = |b: Bitboard, s| !(b & Bitboard::from_square(s)).is_empty();
    let hits: i32 = enemy
        .iter()
        .map(|&a| next.iter().filter(|&&s| on(a, s)).count() as i32)
        .sum();
    let attackers = enemy
        .iter()
        .filter(|&&a| next.iter().any(|&s| on(a, s)))
        .count();
    let weak = next
        .iter()
        .filter(|&&s| on(enemy_map, s) && !on(guarded, s))
        .count() as i32;
    let empty_unguarded = next
        .iter()
        .filter(|&&s| p.piece_at(s).is_none() && !on(guarded, s))
        .count() as i32;
    let weights = [
        (PieceKind::Pawn, 1),
        (PieceKind::Lance, 1),
        (PieceKind::Knight, 2),
        (PieceKind::Silver, 2),
        (PieceKind::Gold, 3),
        (PieceKind::Bishop, 3),
        (PieceKind::Rook, 4),
    ];
    let hand = p.hand(!c);
    let drop: i32 = weights
        .iter()
        .filter(|(k, _)| hand.count(*k) > 0)
        .map(|(_, w)| w)
        .sum();
    let mut units = hits + 2 * weak + drop * empty_unguarded.min(4) / 2;
    if attackers < 2 && drop == 0 {
        units /= 2;
    }
    let units = units.min(40);
    shelter - units * units * 3 / 2
}

/// The attack map of each side against the union of the core's public attack sets.
fn check_attack_maps(p: &Position, plain: &Plain) {
    for c in Color::ALL {
        let mut want = Bitboard::EMPTY;
        for kind in KIND_LIST {
            for sq in p.pieces(c, kind).iter() {
                want |= attacks_from(kind, c, sq, p.occupied());
            }
        }
        let got = attack_map(p, c.index());
        assert_eq!(
            Bitboard::EMPTY,
            want ^ bits(got),
            "attack map in {}",
            p.to_sfen()
        );
        assert_eq!(attack_map(plain, c.index()), got);
    }
}

/// The set of square indices of `b` as a bitboard.
fn bits(b: SquareSet) -> Bitboard {
    squares(b).fold(Bitboard::EMPTY, |acc, i| {
        acc | Bitboard::from_square(floodgate_scan::shogi::Square::ALL[i])
    })
}

/// The capture list against the core's legal moves: its legal members are exactly the
/// legal captures, less the non-promotions of pawns, bishops and rooks that could
/// promote; it runs by moving kind, origin, destination, promotion first.
fn check_captures(p: &Position, plain: &Plain, caps: &[Move]) {
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
fn walk(start: &Position, plies: usize, rng: &mut SplitMix64) -> usize {
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
    let mut rng = SplitMix64::new(0x5eed_e7a1);
    let mut n = 0;
    for sfen in bench_sfens() {
        n += walk(&pos(&sfen), 24, &mut rng);
    }
    assert!(n > 20_000, "{n} positions checked");
}

#[test]
fn fast_evaluation_equals_the_reference_along_random_games() {
    let mut rng = SplitMix64::new(42);
    let mut n = 0;
    for _ in 0..150 {
        n += walk(&Position::startpos(), 250, &mut rng);
    }
    assert!(n > 20_000, "{n} positions checked");
}
