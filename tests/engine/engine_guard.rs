//! The 24-point engine's mate guard against a brute-force mate search built here from the
//! core's legal moves, `gives_check` and mate in one only: the guard's checks-only mate in
//! 3 agrees with it on the 1,000 `aiiru_bench` positions, the engine plays the only move
//! that escapes a mate in 3, and it plays a mate in 3 when one is on the board.
use floodgate_scan::engine::guard::{self, GuardLimits, MateSearch, RootGuard};
use floodgate_scan::engine::mate::{Dfpn, Proof};
use floodgate_scan::engine::search::{Config, Control, Decision, MATE, Mode, Searcher, Tweaks};
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

/// Brute force of the mating-net level with nets of mate in 1: the side to move has a
/// quiet move to a square within two king steps of the enemy king after which the
/// defender cannot check, would be mated in 1 if it passed, and is mated in 1 after
/// every reply.
fn net_of_mate_in_one(pos: &Position) -> bool {
    let them = pos.side_to_move().opposite();
    let Some(king) = pos.king_square(them) else {
        return false;
    };
    if pos.is_in_check() {
        return false;
    }
    pos.legal_moves().iter().copied().any(|q| {
        let near = q.to().file().abs_diff(king.file()) <= guard::NET_RADIUS
            && q.to().rank().abs_diff(king.rank()) <= guard::NET_RADIUS;
        if !near || pos.gives_check(q) {
            return false;
        }
        let p = after(pos, q);
        let mut passed = p.clone();
        passed.do_null_move();
        let replies = p.legal_moves();
        solve_mate_in_one(&passed).is_some()
            && !replies.iter().any(|&r| p.gives_check(r))
            && replies
                .iter()
                .all(|&r| solve_mate_in_one(&after(&p, r)).is_some())
    })
}

/// Positions of the 24-point engine's self-play from `aiiru_bench` (5,000 nodes a move,
/// `replay`; the line of the start and the ply), each with the side to move holding a
/// mating net of mate in 1 or in 3.
const NET_POSITIONS: [&str; 12] = [
    // line 11, ply 3
    "l2n1g3/3+r3+P1/4sPK2/1p6l/p1P4+b1/1G4k2/PP4p1P/7P1/L7L w 4Prb2g3s3n4p 194",
    // line 52, ply 10
    "+P7+R/4RPP2/4n2KB/p1p6/7P1/P7p/4SkB2/9/L3G3L b 3G3S3N2L10P 229",
    // line 59, ply 27
    "4K2Gl/1+P3S3/+S8/2p1pp1pp/s3k4/2P2P2P/p2G3N1/2+p1S4/1N3G3 b 2R2BG2N3L4P3p 255",
    // line 98, ply 0
    "l1+R+P1l2l/3K1P1S1/pgS1p1+N2/5p+B1p/2+B3Rp1/PP1nNn3/4Pk+pPP/2+p6/4G1G1L b G2S4P 219",
    // line 197, ply 11
    "1K7/9/3+R3g1/p3pp3/1g3spP1/P2pP4/1+p3P1S1/3P5/LNR1Sk2+l b 2B2GS3NL4Pl3p 159",
    // line 271, ply 25
    "K7l/1S+b4g1/5N1pp/pP2bn3/P8/2PP5/3S1p2P/3+r4L/L+r4k2 w L3g2s2n9p 218",
    // line 364, ply 6
    "7nl/K3b2p1/3p4p/9/P2Pp4/1p5g1/+r4+b1kP/6p2/2P1+r4 w 3g4s3n3l8p 256",
    // line 377, ply 9
    "ln6+L/1r5sK/p1pp5/6p2/1pP6/4s2P1/PPS2+p1+r1/2g2k3/LN7 w 2b3gs2nl8p 192",
    // line 409, ply 9
    "4Bp2K/2s1p1+Rp1/1ps1g3P/2p2n3/PP1p1G3/4kP3/1G4p+R1/3+bP1PP1/1L1SN3L b GS2NL3Plp 249",
    // line 464, ply 39
    "l7+R/3K4+R/p3S4/9/2P6/PP7/3GP3+p/4s1+B1s/+b7k b 3GS4N3L12P 217",
    // line 568, ply 7
    "K1g3gnl/1+Pb4p1/8p/1SpPp1p2/GLb5P/P3P1P2/1r+n1+n1k2/7P1/L7L w 4Prg3sn2p 240",
    // line 599, ply 9
    "3+L4l/2g6/KP4+P2/1Np5p/G1P2p1p1/3S4P/3P3S1/2+p1+b+p1g1/1+rL3k2 w N4Prbg2s2nl3p 216",
];

/// The mating-net level's search of nets of mate in 1 agrees with the brute force above
/// on the `aiiru_bench` starts (where there are none) and on the game positions above,
/// and finds each of those positions' net of mate in 3; a side that may declare is in no
/// net, and a search with no nodes left answers "unknown".
#[test]
fn the_net_search_agrees_with_brute_force() {
    let starts = AIIRU_BENCH
        .lines()
        .filter(|l| !l.starts_with('#'))
        .take(200)
        .map(|l| l.split('\t').next().unwrap());
    let mut nets = 0;
    for sfen in starts.chain(NET_POSITIONS) {
        let pos = Position::from_sfen(sfen).unwrap();
        let want = net_of_mate_in_one(&pos);
        let mut search = MateSearch::new(0);
        let mut left = u64::MAX;
        let got = guard::allows_net(&mut pos.clone(), 1, &mut search, &mut left, &|_| false);
        assert_eq!(got, Some(want), "{sfen}");
        nets += want as u32;
    }
    assert!(nets >= 6, "{nets} nets of mate in 1");
    for sfen in NET_POSITIONS {
        let pos = Position::from_sfen(sfen).unwrap();
        let mut left = 10_000_000;
        let mut search = MateSearch::new(0);
        let got = guard::allows_net(&mut pos.clone(), 3, &mut search, &mut left, &|_| false);
        assert_eq!(got, Some(true), "{sfen}");
        // A side that may declare is caught in no net.
        let mut left = 10_000_000;
        let got = guard::allows_net(&mut pos.clone(), 3, &mut search, &mut left, &|_| true);
        assert_eq!(got, Some(false), "{sfen}");
        // With no nodes to spend the answer is unknown, never a net.
        let mut left = 0;
        let got = guard::allows_net(&mut pos.clone(), 3, &mut search, &mut left, &|_| false);
        assert_eq!(got, None, "{sfen}");
    }
}

/// The mating-net test of the chosen move: in a game of the engine (line 377, ply 8)
/// Black's king walked into a net (2c1b) at 5,000 nodes; the move does allow a net, and
/// with the test the engine plays another move, one that allows none. (The position is
/// lost whatever Black plays, to mates in 3 by checks, which the net test does not look
/// for: the test is of the mechanism.)
#[test]
fn the_net_test_refuses_a_move_into_a_mating_net() {
    let pos = Position::from_sfen(
        "ln6+L/1r5s1/p1pp3K1/6p2/1pP6/4s2P1/PPS2+p1+r1/2g2k3/LN7 b 2b3gs2nl8p 191",
    )
    .unwrap();
    let walked = Move::from_usi("2c1b").unwrap();
    let net_after = |m: Move| {
        let mut p = after(&pos, m);
        let mut left = 10_000_000;
        guard::allows_net(&mut p, 3, &mut MateSearch::new(0), &mut left, &|_| false)
    };
    assert_eq!(net_after(walked), Some(true));
    let play = |net_plies: u32| {
        let mut s = Searcher::new(
            4,
            Config {
                rule: EnteringKingRule::CSARule24,
                mode: Mode::Decl24,
                guard: GuardLimits {
                    net_plies,
                    ..GuardLimits::default()
                },
                // The plain 24-point search of the game the position comes from (the
                // selective one plays another move there).
                tweaks: Tweaks {
                    selective24: false,
                    ..Tweaks::default()
                },
                ..Config::default()
            },
        );
        s.search(
            &pos,
            &[],
            &Limits::nodes(5_000),
            &Control::new(false),
            &mut |_| {},
        )
        .decision
    };
    assert_eq!(
        play(0),
        Decision::Move(walked),
        "the engine's move without the test"
    );
    let Decision::Move(m) = play(3) else {
        panic!("a move expected")
    };
    assert_ne!(m, walked);
    assert_eq!(net_after(m), Some(false), "{}", m.to_usi());
}

/// Positions of the 24-point engine's self-play just after the loser's check (lines 130,
/// 390, 555 and 41 of `aiiru_bench`): the winner evades, and then every move of the
/// loser is mated by checks.
const DEEP_NETS: [&str; 4] = [
    "3p4l/2pK1nS2/5p2p/p3pLpp1/3P1N3/1P2B3P/5g1G1/+B3S1klS/4G4 b 2RGS2NL5P2p 257",
    "Kg2b4/3g5/4p1+R+S1/p2p1pp1p/1p1n5/P3SR+B1P/2P1P4/2+n2SP2/LN1+s1k2L b 2GN2L4P2p 179",
    "+S8/1n7/K1+P2s1S1/gp7/p1S3p+R1/P2P1P3/NP2PG+B2/2G6/L5k1+b b RG2N3L6P3p 149",
    "l4+Lg2/5K3/p2p2+P1s/2p1+B4/3S2Np1/PP3P2p/3P2kN1/2+p2L3/L1S1R1sG1 b RB2G2N7P 183",
];

/// The deep mating-net test finds each of those nets, and its net is real: one move of
/// the side to move after which a brute-force check of every reply finds the df-pn
/// mate. A side that may declare is in no net; with no nodes left the answer is
/// unknown; the start position holds none.
#[test]
fn the_deep_net_test_finds_the_nets_of_engine_games() {
    for sfen in DEEP_NETS {
        let pos = Position::from_sfen(sfen).unwrap();
        assert!(pos.is_in_check(), "{sfen}");
        let mut left = 100_000;
        let net = guard::allows_deep_net(&mut pos.clone(), 15, 1_000, &mut left, &|_| false);
        assert_eq!(net, Some(true), "{sfen}");
        // The net, found by brute force: an evasion after which every reply is mated.
        let real = pos.legal_moves().iter().any(|&q| {
            let p = after(&pos, q);
            let replies = p.legal_moves();
            !replies.is_empty()
                && replies.iter().all(|&r| {
                    matches!(
                        Dfpn::new(100_000, 15).prove(&mut after(&p, r)),
                        Proof::Mate(_)
                    )
                })
        });
        assert!(real, "{sfen}");
        let mut left = 100_000;
        let declaring = guard::allows_deep_net(&mut pos.clone(), 15, 1_000, &mut left, &|_| true);
        assert_eq!(declaring, Some(false), "{sfen}");
        let mut left = 0;
        let starved = guard::allows_deep_net(&mut pos.clone(), 15, 1_000, &mut left, &|_| false);
        assert_eq!(starved, None, "{sfen}");
    }
    let mut left = 100_000;
    let start = guard::allows_deep_net(&mut Position::startpos(), 15, 1_000, &mut left, &|_| false);
    assert_eq!(start, Some(false));
}
