//! The mate solver behind `go mate`: the lines it gives are forced mates (every attacker
//! move a check, the last position mate, no shorter mate for the side to move), a position
//! with no mate is proven so, and the limits end a search with `timeout`.
use std::sync::atomic::AtomicBool;

use floodgate_scan::engine::mate::{MateAnswer, MateLimits, solve};
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
