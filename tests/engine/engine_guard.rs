//! The 24-point engine's mate guard against a brute-force mate search built here from the
//! core's legal moves, `gives_check` and mate in one only: the guard's checks-only mate in
//! 3 agrees with it on the 1,000 `aiiru_bench` positions, the engine plays the only move
//! that escapes a mate in 3, and it plays a mate in 3 when one is on the board.
use floodgate_scan::engine::guard::{self, GuardLimits, MateSearch, RootGuard};
use floodgate_scan::engine::mate::{Dfpn, Proof};
use floodgate_scan::engine::search::{Config, Control, Decision, MATE, Mode, Searcher};
use floodgate_scan::engine::time::Limits;
use floodgate_scan::shogi::{EnteringKingRule, Move, Position, solve_mate_in_one};

const AIIRU_BENCH: &str = include_str!("../../fixtures/positions/aiiru_bench.tsv");

/// A position of an engine game (aiiru_bench line 41, 8 moves later): White to move, its
/// king on 3g among Black's pieces, Black holding R B 3G 2N 6P.
const ONE_ESCAPE: &str =
    "l4p+L2/4K4/p2p2+P1s/2p1+B4/3S2Np1/PP3P2p/3P2kN1/2+p2L3/L1S1R1sG1 w RB3G2N6P 184";

/// Three plies later in the same game: Black to move mates in 3 (no mate in 1).
const MATE_IN_THREE: &str =
    "l4p+L2/4K4/p2p2+P1s/2p1+B4/3S2Np1/PP3P2p/3P2kN1/2+p6/L1S1RGsG1 b RB2G2N6Pl 187";

fn after(pos: &Position, m: Move) -> Position {
    let mut p = pos.clone();
    p.play(m).unwrap();
    p
}

/// Brute force: the side to move mates in 1, or in 3 with a check answered by every
/// evasion with a mate in 1.
fn mates_within_three(pos: &Position) -> bool {
    solve_mate_in_one(pos).is_some() || first_moves_of_mate_in_three(pos).next().is_some()
}

fn first_moves_of_mate_in_three(pos: &Position) -> impl Iterator<Item = Move> + '_ {
    pos.legal_moves()
        .iter()
        .copied()
        .filter(|&m| pos.gives_check(m))
        .filter(|&m| {
            let p = after(pos, m);
            p.legal_moves()
                .iter()
                .all(|&e| solve_mate_in_one(&after(&p, e)).is_some())
        })
        .collect::<Vec<_>>()
        .into_iter()
}

fn decl24(pos: &Position, limits: &Limits) -> (Decision, i32) {
    let mut s = Searcher::new(
        4,
        Config {
            rule: EnteringKingRule::CSARule24,
            mode: Mode::Decl24,
            ..Config::default()
        },
    );
    let r = s.search(pos, &[], limits, &Control::new(false), &mut |_| {});
    (r.decision, r.score)
}

#[test]
fn the_mate_search_agrees_with_brute_force_on_aiiru_bench() {
    let mut positions = 0;
    let mut with_mate = 0;
    for line in AIIRU_BENCH.lines().filter(|l| !l.starts_with('#')) {
        let sfen = line.split('\t').next().unwrap();
        let Ok(pos) = Position::from_sfen(sfen) else {
            continue;
        };
        positions += 1;
        let want = mates_within_three(&pos);
        let mut s = MateSearch::new(1_000_000);
        let got = s.mate(&mut pos.clone(), 3);
        assert!(!s.exhausted(), "{sfen}");
        assert_eq!(got.is_some(), want, "{sfen}");
        if let Some(m) = got {
            with_mate += 1;
            // The move itself is a mate in 1 or the start of a mate in 3.
            let p = after(&pos, m);
            let forced = p
                .legal_moves()
                .iter()
                .all(|&e| solve_mate_in_one(&after(&p, e)).is_some());
            assert!(forced, "{sfen}: {}", m.to_usi());
        }
    }
    assert_eq!(positions, 1000);
    // Enough mates to make the comparison mean something.
    assert!(with_mate >= 10, "{with_mate}");
}

#[test]
fn the_only_move_that_escapes_a_mate_in_three_is_played() {
    let pos = Position::from_sfen(ONE_ESCAPE).unwrap();
    let moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
    let mate_in_one: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|&m| solve_mate_in_one(&after(&pos, m)).is_some())
        .collect();
    let escapes: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|&m| !mates_within_three(&after(&pos, m)))
        .collect();
    // The threat is real: of the 23 moves one loses to a mate in 1 and 21 to a mate in 3
    // by checks; one escapes.
    assert_eq!(moves.len(), 23);
    assert_eq!(mate_in_one.len(), 1);
    assert_eq!(escapes.len(), 1, "{escapes:?}");
    // The guard keeps exactly that move, and the engine plays it at any depth.
    let g = guard::guard_root(
        &mut pos.clone(),
        &moves,
        GuardLimits {
            max_plies: 3,
            ..GuardLimits::default()
        },
    );
    assert_eq!(g, RootGuard::Moves(escapes.clone(), 3));
    for limits in [Limits::depth(1), Limits::nodes(5_000)] {
        let (d, _) = decl24(&pos, &limits);
        assert_eq!(d, Decision::Move(escapes[0]));
    }
}

#[test]
fn a_mate_in_three_is_played() {
    let pos = Position::from_sfen(MATE_IN_THREE).unwrap();
    assert!(solve_mate_in_one(&pos).is_none());
    let mating: Vec<Move> = first_moves_of_mate_in_three(&pos).collect();
    assert!(!mating.is_empty());
    for limits in [Limits::depth(1), Limits::nodes(5_000)] {
        let (d, score) = decl24(&pos, &limits);
        let Decision::Move(m) = d else {
            panic!("{d:?}")
        };
        assert!(mating.contains(&m), "{}", m.to_usi());
        assert_eq!(score, MATE - 3);
    }
    // Played out by the engine on both sides, the game ends in mate two moves later.
    let mut p = pos.clone();
    for _ in 0..3 {
        let (d, _) = decl24(&p, &Limits::depth(1));
        let Decision::Move(m) = d else {
            panic!("{d:?}")
        };
        p.play(m).unwrap();
    }
    assert!(p.legal_moves().is_empty(), "{}", p.to_sfen());
}

#[test]
fn a_threat_of_mate_in_seven_is_answered() {
    // aiiru_bench line 16, 31 moves into an engine game: White's king on 3g; 2h3i lets
    // Black mate in 7 by checks (as played in an earlier version of the engine).
    let pos = Position::from_sfen(
        "1B4+R2/3K+PS3/4P3+R/9/4G2pp/1SNp1PG2/4+p1+lkP/6pg1/5+b3 w G2S3N3L2P7p 226",
    )
    .unwrap();
    let bad = Move::from_usi("2h3i").unwrap();
    assert!(pos.is_legal(bad));
    let mut s = MateSearch::new(guard::DEFAULT_BUDGET);
    assert!(s.mate(&mut after(&pos, bad), 7).is_some());
    // No mate in 1 or 3 after it: only the deeper levels exclude it.
    assert!(!mates_within_three(&after(&pos, bad)));
    let moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
    let RootGuard::Moves(kept, plies) =
        guard::guard_root(&mut pos.clone(), &moves, GuardLimits::default())
    else {
        panic!("no mate for White here")
    };
    assert_eq!(plies, 7);
    assert!(!kept.contains(&bad));
    assert!(!kept.is_empty() && kept.len() < moves.len());
}

#[test]
fn out_of_time_the_guard_keeps_the_mate_in_one_level() {
    let mut pos = Position::from_sfen(ONE_ESCAPE).unwrap();
    let mut moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
    // The one move that escapes a mate in 3 goes first.
    let escape = moves
        .iter()
        .copied()
        .find(|&m| !mates_within_three(&after(&pos, m)))
        .unwrap();
    moves.sort_by_key(|&m| m != escape);
    let safe_from_one: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|&m| solve_mate_in_one(&after(&pos, m)).is_none())
        .collect();
    assert_eq!(safe_from_one.len(), 22);
    // No time at all: only the mate-in-1 level, which is always completed.
    let g = guard::guard_root_until(&mut pos, &moves, GuardLimits::default(), &|| true);
    assert_eq!(g, RootGuard::Moves(safe_from_one.clone(), 1));
    // Time runs out in the mate-in-3 level right after the escaping move was tested: the
    // unfinished level is abandoned, not cut short to that move. The guard asks before
    // its own mate searches of 3, 5 and 7 plies, at the level's start, and before each
    // move of the level.
    let asked = std::cell::Cell::new(0);
    let out_of_time = || {
        asked.set(asked.get() + 1);
        asked.get() > 3 + 1 + 1
    };
    let g = guard::guard_root_until(&mut pos, &moves, GuardLimits::default(), &out_of_time);
    assert_eq!(g, RootGuard::Moves(safe_from_one, 1));
    // Time enough: the same answer as without a limit.
    let unlimited = guard::guard_root(&mut pos.clone(), &moves, GuardLimits::default());
    assert!(
        matches!(&unlimited, RootGuard::Moves(v, p) if *v == [escape] && *p >= 3),
        "{unlimited:?}"
    );
    let g = guard::guard_root_until(&mut pos, &moves, GuardLimits::default(), &|| false);
    assert_eq!(g, unlimited);
    assert_eq!(
        pos.to_sfen(),
        Position::from_sfen(ONE_ESCAPE).unwrap().to_sfen()
    );
}

#[test]
fn the_dfpn_level_refuses_a_move_that_allows_a_mate_in_seven() {
    // The position above, with the iterative levels stopped at 3 plies: only the df-pn
    // level can see the mate in 7 that 2h3i allows.
    let pos = Position::from_sfen(
        "1B4+R2/3K+PS3/4P3+R/9/4G2pp/1SNp1PG2/4+p1+lkP/6pg1/5+b3 w G2S3N3L2P7p 226",
    )
    .unwrap();
    let bad = Move::from_usi("2h3i").unwrap();
    let mut d = Dfpn::new(50_000, 15);
    assert!(matches!(d.prove(&mut after(&pos, bad)), Proof::Mate(n) if n <= 7));
    let moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
    let shallow = GuardLimits {
        max_plies: 3,
        every_move_plies: 3,
        ..GuardLimits::default()
    };
    let RootGuard::Moves(without, _) = guard::guard_root(&mut pos.clone(), &moves, shallow) else {
        panic!("no mate for White here")
    };
    assert!(without.contains(&bad));
    let deep = GuardLimits {
        dfpn_budget: 5_000,
        ..shallow
    };
    let RootGuard::Moves(kept, plies) = guard::guard_root(&mut pos.clone(), &moves, deep) else {
        panic!("no mate for White here")
    };
    assert_eq!(plies, deep.dfpn_plies);
    assert!(!kept.contains(&bad));
    assert!(!kept.is_empty());
    // Every move the level kept is one after which the solver found no mate.
    for &m in &kept {
        let mut d = Dfpn::new(5_000, deep.dfpn_plies);
        assert!(!matches!(d.prove(&mut after(&pos, m)), Proof::Mate(_)));
    }
}
