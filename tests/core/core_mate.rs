//! Mate in one against brute force: every mate returned is a legal move after which the
//! defender has no legal reply, and no mate is missed (brute force plays every legal move
//! and counts the defender's complete legal set). The in-place variant returns the same
//! answer and leaves the position exactly as it was. The solver that decides from attack
//! tables returns the very move of the reference that plays its candidates, on the bench
//! positions, on random games, on positions with many pieces in hand, on crowded king
//! zones built at random, and on each of these with the side to move passing (the
//! question a search asks after a null move).

use crate::core_support::{
    SplitMix64, bench_sfens, pos, random_playout, random_playout_with_checks,
};
use floodgate_scan::shogi::{
    Color, IllegalMoveKind, Move, MoveList, Piece, PieceKind, Position, Setup, is_mated,
    solve_mate_in_one, solve_mate_in_one_by_play, solve_mate_in_one_in_place,
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

/// The attack-table solver and the reference that plays its candidates give the same
/// answer, the same move included; the reference leaves the position as it was. Returns
/// whether a mate exists.
fn same_as_by_play(p: &Position) -> bool {
    let fast = solve_mate_in_one(p);
    let mut q = p.clone();
    let exact = solve_mate_in_one_by_play(&mut q);
    assert_eq!(q, *p, "by play: position restored");
    assert_eq!(
        fast.map(Move::to_usi),
        exact.map(Move::to_usi),
        "{}",
        p.to_sfen()
    );
    let mut r = p.clone();
    assert_eq!(solve_mate_in_one_in_place(&mut r), fast);
    assert_eq!(r, *p, "in place: position restored");
    fast.is_some()
}

/// The position with the other side to move (a pass), if that is legal: the side to move
/// must not be in check.
fn passed(p: &Position) -> Option<Position> {
    if p.is_in_check() {
        return None;
    }
    let mut q = p.clone();
    q.do_null_move();
    Some(q)
}

/// Tallies of one comparison run.
#[derive(Default, Debug)]
struct Tally {
    positions: usize,
    mates: usize,
    in_check: usize,
}

impl Tally {
    fn add(&mut self, p: &Position) {
        self.positions += 1;
        self.in_check += usize::from(p.is_in_check());
        self.mates += usize::from(same_as_by_play(p));
        if let Some(q) = passed(p) {
            self.positions += 1;
            self.mates += usize::from(same_as_by_play(&q));
        }
    }
}

#[test]
fn table_solver_equals_the_reference_on_bench_positions() {
    let sfens = bench_sfens();
    assert_eq!(sfens.len(), 1_000);
    let mut t = Tally::default();
    for s in &sfens {
        t.add(&pos(s));
    }
    eprintln!("bench: {t:?}");
    assert!(t.positions > 1_900, "{t:?}");
    assert!(t.mates > 0, "{t:?}");
}

#[test]
fn table_solver_equals_the_reference_on_random_games() {
    let mut rng = SplitMix64::new(21);
    let start = Position::startpos().to_sfen();
    let mut t = Tally::default();
    for game in 0..400 {
        let check_every = [0, 2, 3, 1][game % 4];
        let (sfens, _) = random_playout_with_checks(&start, 250, &mut rng, check_every);
        for s in sfens.iter().skip(10) {
            t.add(&pos(s));
        }
    }
    eprintln!("random games: {t:?}");
    assert!(t.positions > 100_000, "{t:?}");
    assert!(t.mates > 1_000, "{t:?}");
    assert!(t.in_check > 5_000, "{t:?}");
}

/// Every piece of the board but the kings goes, with probability `num / 8`, to the hand
/// of a random side (unpromoted): positions with many pieces in hand.
fn to_hands(p: &Position, num: usize, rng: &mut SplitMix64) -> Option<Position> {
    let mut s = p.to_setup();
    for sq in 0..81 {
        let Some(pc) = s.board[sq] else { continue };
        if pc.kind == PieceKind::King || rng.below(8) >= num {
            continue;
        }
        s.board[sq] = None;
        s.hands[rng.below(2)].add(pc.kind.unpromoted());
    }
    Position::from_setup(s).ok()
}

#[test]
fn table_solver_equals_the_reference_with_many_pieces_in_hand() {
    let mut rng = SplitMix64::new(22);
    let mut starts: Vec<String> = bench_sfens().into_iter().step_by(5).collect();
    starts.push(Position::startpos().to_sfen());
    let mut t = Tally::default();
    let mut big_hands = 0;
    for (i, start) in starts.iter().enumerate() {
        let (sfens, _) = random_playout_with_checks(start, 80, &mut rng, 1 + i % 3);
        for s in sfens.iter().step_by(2) {
            let num = 2 + rng.below(5);
            if let Some(p) = to_hands(&pos(s), num, &mut rng) {
                big_hands +=
                    usize::from(p.hand(Color::Black).total() + p.hand(Color::White).total() >= 10);
                t.add(&p);
                // A few checks from there, hands shrinking.
                let (line, _) = random_playout_with_checks(&p.to_sfen(), 6, &mut rng, 1);
                for s in line.iter().skip(1) {
                    t.add(&pos(s));
                }
            }
        }
    }
    eprintln!("many in hand: {t:?}, {big_hands} with ten or more in hand");
    assert!(t.positions > 20_000, "{t:?}");
    assert!(t.mates > 1_000, "{t:?}");
    assert!(big_hands > 2_000, "{big_hands}");
}

/// A random position built around the king of the side not to move: up to a dozen
/// pieces of both sides within two squares of it, a few anywhere, random hands. `None`
/// when the draw breaks a rule of the position.
fn crowded_king(rng: &mut SplitMix64) -> Option<Position> {
    const KINDS: [PieceKind; 13] = [
        PieceKind::Pawn,
        PieceKind::Lance,
        PieceKind::Knight,
        PieceKind::Silver,
        PieceKind::Gold,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::ProPawn,
        PieceKind::ProLance,
        PieceKind::ProKnight,
        PieceKind::ProSilver,
        PieceKind::Horse,
        PieceKind::Dragon,
    ];
    let mut s = Setup::empty();
    let us = if rng.below(2) == 0 {
        Color::Black
    } else {
        Color::White
    };
    s.side_to_move = us;
    let ek = rng.below(81);
    let near = |r: &mut SplitMix64| -> Option<usize> {
        let (f, k) = (
            (ek / 9) as i64 + r.below(5) as i64 - 2,
            (ek % 9) as i64 + r.below(5) as i64 - 2,
        );
        ((0..9).contains(&f) && (0..9).contains(&k)).then_some((f * 9 + k) as usize)
    };
    s.board[ek] = Some(Piece::new(!us, PieceKind::King));
    let mut uk = rng.below(81);
    while s.board[uk].is_some() {
        uk = rng.below(81);
    }
    s.board[uk] = Some(Piece::new(us, PieceKind::King));
    let crowd = 2 + rng.below(11);
    for i in 0..crowd + rng.below(5) {
        let sq = if i < crowd { near(rng)? } else { rng.below(81) };
        if s.board[sq].is_some() {
            continue;
        }
        let color = if rng.below(3) == 0 { !us } else { us };
        s.board[sq] = Some(Piece::new(color, KINDS[rng.below(KINDS.len())]));
    }
    for (side, most) in [(us, 3), (!us, 2)] {
        for k in PieceKind::HAND_KINDS {
            if rng.below(3) == 0 {
                for _ in 0..rng.below(most) {
                    s.hands[side as usize].add(k);
                }
            }
        }
    }
    Position::from_setup(s).ok()
}

#[test]
fn table_solver_equals_the_reference_around_crowded_kings() {
    let mut rng = SplitMix64::new(23);
    let mut t = Tally::default();
    let mut drawn = 0;
    while t.positions < 150_000 {
        drawn += 1;
        if let Some(p) = crowded_king(&mut rng) {
            t.add(&p);
        }
    }
    eprintln!("crowded kings: {t:?} from {drawn} draws");
    assert!(t.mates > 3_000, "{t:?}");
    assert!(t.in_check > 1_000, "{t:?}");
}

/// The answers of the table solver are mates and no mate by a check is missed: brute
/// force on a sample of the built positions (the reference is compared with brute force
/// above). A move that is no check but leaves the defender without a legal move (a loss
/// in shogi; bare positions like these have a few) is not a mate in one for the solvers:
/// such positions are counted, and compared on their checking moves only.
#[test]
fn table_solver_against_brute_force_around_crowded_kings() {
    let mut rng = SplitMix64::new(24);
    let (mut n, mut with_mate, mut stalemates) = (0, 0, 0);
    while n < 20_000 {
        let Some(p) = crowded_king(&mut rng) else {
            continue;
        };
        n += 1;
        let all = brute_force_mates(&p);
        let checking: Vec<Move> = all.iter().copied().filter(|&m| p.gives_check(m)).collect();
        stalemates += usize::from(checking.len() < all.len());
        let found = solve_mate_in_one(&p);
        match found {
            Some(m) => assert!(checking.contains(&m), "{}: {}", p.to_sfen(), m.to_usi()),
            None => assert!(checking.is_empty(), "{}: missed {checking:?}", p.to_sfen()),
        }
        with_mate += usize::from(found.is_some());
    }
    eprintln!(
        "{n} built positions, {with_mate} with a mate in one, {stalemates} with a move leaving no reply without check"
    );
    assert!(with_mate > 500, "{with_mate} of {n}");
}

/// Positions (found by random search) where, against a candidate check, the defender's
/// only interposition is a pawn dropped in front of the attacker's king: the table solver
/// leaves that candidate to the exact test, because such a drop is illegal when it mates.
/// In each of these the drop is legal (it does not mate), so the candidate is no mate.
#[test]
fn pawn_interposition_in_front_of_the_king_is_left_to_the_exact_test() {
    for (sfen, candidate) in [
        ("2+nk5/2n1+r4/+s1K1p4/9/2+n6/9/9/9/9 w Pbp 1", "B*5a"),
        ("3+p1k1G1/3G5/4P1K2/5+n1L1/9/9/9/9/9 b BNp 1", "B*2c"),
        ("3bk4/9/2+sK2+l2/1B7/3l1R3/9/9/9/9 b SNp 1", "8d7c"),
        ("2+b1k4/1+N3+bL2/2NK2n2/1r7/9/9/9/9/9 w P 1", "4b4a"),
    ] {
        let p = pos(sfen);
        let m = Move::from_usi(candidate).unwrap();
        assert!(p.is_legal(m) && p.gives_check(m), "{sfen}");
        let mut after = p.clone();
        after.play(m).unwrap();
        let replies = after.legal_moves();
        assert!(
            replies.iter().any(|r| matches!(
                r,
                Move::Drop {
                    kind: PieceKind::Pawn,
                    ..
                }
            )),
            "{sfen}: a pawn drop answers {candidate}"
        );
        assert_ne!(solve_mate_in_one(&p), Some(m), "{sfen}");
        check(sfen);
        same_as_by_play(&p);
    }
}

/// `generate_checks` against the definition: the legal moves that give check, each once,
/// and the moves already in the list kept.
fn checks_are_the_checking_legal_moves(p: &Position) -> usize {
    let sentinel = Move::from_usi("1a1b").unwrap();
    let mut got = MoveList::new();
    got.push(sentinel);
    p.generate_checks(&mut got);
    assert_eq!(
        got[0],
        sentinel,
        "{}: the list's moves are kept",
        p.to_sfen()
    );
    let mut got: Vec<String> = got[1..].iter().map(|m| m.to_usi()).collect();
    let n = got.len();
    got.sort();
    got.dedup();
    assert_eq!(got.len(), n, "{}: a check generated twice", p.to_sfen());
    let mut want: Vec<String> = p
        .legal_moves()
        .iter()
        .filter(|&&m| p.gives_check(m))
        .map(|m| m.to_usi())
        .collect();
    want.sort();
    assert_eq!(got, want, "{}", p.to_sfen());
    n
}

#[test]
fn generated_checks_are_exactly_the_checking_legal_moves() {
    let (mut positions, mut in_check, mut checks) = (0, 0, 0);
    let mut one = |p: &Position| {
        positions += 1;
        in_check += usize::from(p.is_in_check());
        checks += checks_are_the_checking_legal_moves(p);
        // And with the side to move passing (a null move), when not in check.
        if !p.is_in_check() {
            let mut q = p.clone();
            q.do_null_move();
            checks += checks_are_the_checking_legal_moves(&q);
        }
    };
    for sfen in [
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "4k4/9/4P4/9/9/9/9/9/4K4 b RBGSNLP 1",
        "8k/9/7PP/9/9/9/9/9/K8 b GSN2L 1",
        "k8/9/1P7/9/4b4/9/9/9/4K3R w rbgsnlp 1",
        // A pawn drop in front of the king that would mate is no check to generate.
        "3lkl3/9/3G1G3/9/9/9/9/9/4K4 b P 1",
    ] {
        one(&pos(sfen));
    }
    for s in bench_sfens() {
        one(&pos(&s));
    }
    let mut rng = SplitMix64::new(23);
    let start = Position::startpos().to_sfen();
    for game in 0..120 {
        let check_every = if game % 2 == 0 { 0 } else { 2 };
        let (sfens, _) = random_playout_with_checks(&start, 200, &mut rng, check_every);
        for s in sfens.iter().skip(10).step_by(3) {
            one(&pos(s));
        }
    }
    eprintln!("{positions} positions, {in_check} in check, {checks} checks");
    assert!(positions > 5_000, "{positions}");
    assert!(in_check > 300, "{in_check} of {positions}");
    assert!(checks > 20_000, "{checks}");
}
