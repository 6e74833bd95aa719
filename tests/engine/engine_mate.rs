//! The mate solver behind `go mate`: the lines it gives are forced mates (every attacker
//! move a check, the last position mate, no shorter mate for the side to move), a position
//! with no mate is proven so, and the limits end a search with `timeout`.
use std::sync::atomic::AtomicBool;

use floodgate_scan::engine::mate::{Dfpn, MateAnswer, MateLimits, Proof, solve};
use floodgate_scan::shogi::{Position, solve_mate_in_one};

/// Black to move mates in 3, no mate in 1 (the position of the guard tests).
const MATE_IN_THREE: &str =
    "l4p+L2/4K4/p2p2+P1s/2p1+B4/3S2Np1/PP3P2p/3P2kN1/2+p6/L1S1RGsG1 b RB2G2N6Pl 187";

fn assert_mating_line(sfen: &str, answer: &MateAnswer, plies: usize) {
    let MateAnswer::Mate(line) = answer else {
        panic!("{sfen}: {answer:?}")
    };
    assert_eq!(line.len(), plies, "{sfen}: {}", answer.to_usi());
    let mut p = Position::from_sfen(sfen).unwrap();
    for (i, &m) in line.iter().enumerate() {
        assert!(p.is_legal(m), "{sfen}: move {i} {} illegal", m.to_usi());
        p.play(m).unwrap();
        if i % 2 == 0 {
            assert!(p.is_in_check(), "{sfen}: {} is no check", m.to_usi());
        }
    }
    assert!(
        p.legal_moves().is_empty(),
        "{sfen}: the line does not end in mate"
    );
}

#[test]
fn mate_in_one_and_three_are_solved_with_their_lines() {
    let stop = AtomicBool::new(false);
    let one = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1";
    assert_mating_line(
        one,
        &solve(
            &Position::from_sfen(one).unwrap(),
            MateLimits::default(),
            &stop,
        ),
        1,
    );
    let pos = Position::from_sfen(MATE_IN_THREE).unwrap();
    assert!(solve_mate_in_one(&pos).is_none());
    let answer = solve(&pos, MateLimits::default(), &stop);
    assert_mating_line(MATE_IN_THREE, &answer, 3);
}

#[test]
fn no_mate_is_proven_and_limits_time_out() {
    let stop = AtomicBool::new(false);
    // One pawn against a king between its golds: one check, refuted, no check left.
    let p = Position::from_sfen("3gkg3/9/9/9/9/9/9/9/4K4 b P 1").unwrap();
    assert_eq!(solve(&p, MateLimits::default(), &stop), MateAnswer::NoMate);
    // No checks at all.
    assert_eq!(
        solve(&Position::startpos(), MateLimits::default(), &stop),
        MateAnswer::NoMate
    );
    // Full hands against a bare king: far too many checks for 50 nodes.
    let p = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b 2G2S2N2L 1").unwrap();
    let tiny = MateLimits {
        nodes: 50,
        ..MateLimits::default()
    };
    assert_eq!(solve(&p, tiny, &stop), MateAnswer::Timeout);
    // A raised stop flag ends the search too.
    let stopped = AtomicBool::new(true);
    let many = MateLimits {
        nodes: u64::MAX,
        ..MateLimits::default()
    };
    assert_eq!(solve(&p, many, &stopped), MateAnswer::Timeout);
}

const AIIRU_BENCH: &str = include_str!("../../fixtures/positions/aiiru_bench.tsv");

/// Brute force over the core's moves: the side to move mates by checks within `plies`.
fn brute_mate(pos: &Position, plies: u32) -> bool {
    if solve_mate_in_one(pos).is_some() {
        return true;
    }
    if plies < 3 {
        return false;
    }
    pos.legal_moves()
        .iter()
        .filter(|&&m| pos.gives_check(m))
        .any(|&m| {
            let mut p = pos.clone();
            p.play(m).unwrap();
            let ev = p.legal_moves();
            !ev.is_empty()
                && ev.iter().all(|&e| {
                    let mut q = p.clone();
                    q.play(e).unwrap();
                    brute_mate(&q, plies - 2)
                })
        })
}

#[test]
fn dfpn_proves_known_mates_with_forced_lines() {
    let one = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1";
    for (sfen, plies) in [(one, 1), (MATE_IN_THREE, 3)] {
        let pos = Position::from_sfen(sfen).unwrap();
        let mut d = Dfpn::new(100_000, 31);
        assert_eq!(
            d.prove(&mut pos.clone()),
            Proof::Mate(plies as u32),
            "{sfen}"
        );
        let line = d.line(&pos, 63);
        assert_mating_line(sfen, &MateAnswer::Mate(line), plies);
    }
}

#[test]
fn dfpn_refutes_non_mates_and_respects_its_budget() {
    let mut d = Dfpn::new(100_000, 31);
    let p = Position::from_sfen("3gkg3/9/9/9/9/9/9/9/4K4 b P 1").unwrap();
    assert_eq!(d.prove(&mut p.clone()), Proof::NoMate);
    assert_eq!(
        Dfpn::new(100_000, 31).prove(&mut Position::startpos()),
        Proof::NoMate
    );
    let p = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b 2G2S2N2L 1").unwrap();
    let mut tiny = Dfpn::new(20, 31);
    assert_eq!(tiny.prove(&mut p.clone()), Proof::Unknown);
    assert!(tiny.nodes() <= 20);
}

/// On the `aiiru_bench` positions (every 4th, the side to move not in check): a df-pn
/// limited to 3 plies proves exactly the mates in 3 of the brute force; a df-pn limited
/// to 15 plies proves a mate in 3 or less exactly where the brute force finds one, and
/// every proof's line is as long as the proof says and replays as a forced mate by checks
/// through the core's legal moves.
#[test]
fn dfpn_agrees_with_brute_force_on_aiiru_bench() {
    let (mut positions, mut mates, mut long) = (0, 0, 0);
    for line in AIIRU_BENCH
        .lines()
        .filter(|l| !l.starts_with('#'))
        .step_by(4)
    {
        let sfen = line.split('\t').next().unwrap();
        let Ok(pos) = Position::from_sfen(sfen) else {
            continue;
        };
        if pos.is_in_check() {
            continue;
        }
        positions += 1;
        let want = brute_mate(&pos, 3);
        let mut d = Dfpn::new(200_000, 3);
        let got = d.prove(&mut pos.clone());
        assert_ne!(got, Proof::Unknown, "{sfen}");
        assert_eq!(matches!(got, Proof::Mate(_)), want, "{sfen}");
        mates += want as usize;
        let mut d = Dfpn::new(20_000, 15);
        match d.prove(&mut pos.clone()) {
            Proof::Mate(n) => {
                assert_eq!(n <= 3, want, "{sfen}: a mate in {n}");
                if n > 3 {
                    long += 1;
                }
                let line = d.line(&pos, 63);
                assert!(!line.is_empty(), "{sfen}: no line from the proof");
                assert_mating_line(sfen, &MateAnswer::Mate(line), n as usize);
            }
            other => assert!(!want, "{sfen}: a mate in 3 missed ({other:?})"),
        }
    }
    assert!(positions > 200, "{positions}");
    assert!(mates > 0 && long > 0, "{mates} mates in 3, {long} longer");
}
