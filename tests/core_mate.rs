//! Mate in one against brute force: every mate returned is a legal move after which the
//! defender has no legal reply, and no mate is missed (brute force plays every legal move
//! and counts the defender's complete legal set). The in-place variant returns the same
//! answer and leaves the position exactly as it was.

mod core_support;

use core_support::{SplitMix64, bench_sfens, pos, random_playout, random_playout_with_checks};
use floodgate_scan::shogi::{
    IllegalMoveKind, Move, Position, is_mated, solve_mate_in_one, solve_mate_in_one_in_place,
};

/// Every legal move that leaves the opponent without a legal reply.
fn brute_force_mates(p: &Position) -> Vec<Move> {
    let mut work = p.clone();
    let mut mates = Vec::new();
    for &m in p.legal_moves().iter() {
        let u = work.play_unchecked(m);
        if work.legal_moves().is_empty() {
            mates.push(m);
        }
        work.undo(m, u);
    }
    mates
}

/// Returns whether the position has a mate in one.
fn check(sfen: &str) -> bool {
    let p = pos(sfen);
    let mates = brute_force_mates(&p);
    let found = solve_mate_in_one(&p);
    assert_eq!(
        p.to_sfen(),
        sfen,
        "solve_mate_in_one leaves its input unchanged"
    );
    match found {
        Some(m) => {
            assert!(p.is_legal(m), "{sfen}: {} is not legal", m.to_usi());
            assert!(mates.contains(&m), "{sfen}: {} is not a mate", m.to_usi());
            let mut after = p.clone();
            after.play(m).unwrap();
            assert!(
                after.legal_moves().is_empty(),
                "{sfen}: reply after {}",
                m.to_usi()
            );
            assert!(is_mated(&after));
            assert!(after.is_in_check(), "{sfen}: a mate gives check");
        }
        None => assert!(
            mates.is_empty(),
            "{sfen}: missed mate(s) {:?}",
            mates.iter().map(|m| m.to_usi()).collect::<Vec<_>>()
        ),
    }
    // The in-place variant agrees and restores the position exactly.
    let mut q = p.clone();
    let key = q.key();
    let in_place = solve_mate_in_one_in_place(&mut q);
    assert_eq!(q.to_sfen(), sfen, "in place: position restored");
    assert_eq!(q.key(), key, "in place: key restored");
    assert_eq!(q.key(), q.compute_key());
    assert_eq!(q.is_in_check(), p.is_in_check());
    assert_eq!(
        in_place.is_some(),
        found.is_some(),
        "{sfen}: in place vs copy"
    );
    if let Some(m) = in_place {
        assert!(
            mates.contains(&m),
            "{sfen}: in place {} is not a mate",
            m.to_usi()
        );
    }
    !mates.is_empty()
}

#[test]
fn mate_in_one_on_bench_positions() {
    let mut with_mate = 0;
    for s in bench_sfens() {
        with_mate += usize::from(check(&s));
    }
    assert!(
        with_mate > 0,
        "some entering-king positions have a mate in one"
    );
}

#[test]
fn mate_in_one_on_random_positions() {
    let mut rng = SplitMix64::new(11);
    let start = Position::startpos().to_sfen();
    let (mut positions, mut with_mate, mut in_check) = (0, 0, 0);
    for game in 0..300 {
        // Half the games check often, so that evasions and mating nets are frequent.
        let check_every = if game % 2 == 0 { 0 } else { 2 };
        let (sfens, _) = random_playout_with_checks(&start, 200, &mut rng, check_every);
        for s in sfens.iter().skip(20).step_by(2) {
            positions += 1;
            with_mate += usize::from(check(s));
            in_check += usize::from(pos(s).is_in_check());
        }
    }
    assert!(positions > 10_000, "{positions}");
    eprintln!("{positions} positions, {in_check} in check, {with_mate} with a mate in one");
    assert!(with_mate > 300, "{with_mate} of {positions}");
    assert!(in_check > 1_000, "{in_check} of {positions}");
}

#[test]
fn mate_in_one_on_random_entering_king_positions() {
    let mut rng = SplitMix64::new(12);
    let sfens = bench_sfens();
    let mut with_mate = 0;
    for start in sfens.iter().step_by(4) {
        let (line, _) = random_playout(start, 30, &mut rng);
        for s in line.iter().skip(1).step_by(3) {
            with_mate += usize::from(check(s));
        }
    }
    assert!(with_mate > 0);
}

/// A pawn drop that would mate is not a mate in one (it is illegal); a checking pawn
/// drop that is not mate stays legal.
#[test]
fn pawn_drop_mate_is_never_the_answer() {
    // White king on 1a boxed in by its own knight and pawn; a Black pawn drop on 1b,
    // supported by the silver on 1c, would mate: it is illegal.
    let sfen = "7nk/7p1/8S/9/9/9/9/9/4K4 b P 1";
    let p = pos(sfen);
    let drop = Move::from_usi("P*1b").unwrap();
    assert_eq!(p.legality(drop), Err(IllegalMoveKind::DropPawnMate));
    assert_eq!(solve_mate_in_one(&p), None);
    assert!(brute_force_mates(&p).is_empty());
    // With a gold in hand instead, G*1b is mate.
    let p = pos("7nk/7p1/8S/9/9/9/9/9/4K4 b G 1");
    let m = solve_mate_in_one(&p).expect("gold drop mates");
    assert_eq!(m.to_usi(), "G*1b");
}

/// Regression: a drop prefilter that left the king on its square saw a flight square
/// behind the king as safe (the dropped rook's line runs through the king), and missed
/// the mate R*6a here. Found by `mate_in_one_on_random_positions`.
#[test]
fn regression_drop_mate_with_line_through_the_king() {
    let sfen = "2s2k1n1/2P6/l2s1G3/pp1G2pp1/P1N3+B1l/3bP1P1P/L4K1G1/1P2SPR2/1NG+n3SL b R7P 177";
    assert!(check(sfen), "a mate exists");
    let p = pos(sfen);
    assert!(brute_force_mates(&p).iter().any(|m| m.to_usi() == "R*6a"));
    assert!(solve_mate_in_one(&p).is_some());
}
