//! Property tests of the position core (proptest; failures are kept in
//! `proptest-regressions/core_properties.txt` and replayed first on every run).
//!
//! Random legal games from varied starts: play then undo in reverse restores every
//! position; the incremental key always equals the recomputed key; SFEN and `Setup`
//! round-trip; the legal set equals the oracle's; owned points of a full-set game always
//! sum to 54 and each count is bounded by the next. Arbitrary or mutated SFEN and USI text
//! never panics.

use crate::core_support::{
    SplitMix64, bench_sfens, named_sfens, our_legal_codes, pos, rs_legal_codes,
};
use floodgate_scan::shogi::{Color, Move, Position, Setup};
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;

/// `cases` per property, or `PROPTEST_CASES` when set (deep runs).
fn config(cases: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(cases);
    ProptestConfig {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "proptest-regressions/core_properties.txt",
        ))),
        ..ProptestConfig::default()
    }
}

/// Starting points: the start position, the reference perft positions and a sample of the
/// entering-king positions.
fn starts() -> Vec<String> {
    let mut v: Vec<String> = named_sfens()
        .into_iter()
        .filter(|(n, _)| !n.starts_with("invalid"))
        .map(|(_, s)| s)
        .collect();
    v.extend(bench_sfens().into_iter().step_by(50));
    v
}

/// Whether the position holds the complete set of 40 pieces (board + hands).
fn full_set(p: &Position) -> bool {
    let on_board = floodgate_scan::shogi::Square::ALL
        .iter()
        .filter(|&&s| p.piece_at(s).is_some())
        .count() as u32;
    on_board + p.hand(Color::Black).total() + p.hand(Color::White).total() == 40
}

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn play_undo_restores_everything(start in 0usize..64, seed in any::<u64>(), plies in 1usize..120) {
        let starts = starts();
        let start = &starts[start % starts.len()];
        let mut rng = SplitMix64::new(seed);
        let mut p = pos(start);
        let full = full_set(&p);
        let mut trail: Vec<(Move, _, String, u64)> = Vec::new();
        for _ in 0..plies {
            let legal = p.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = legal[rng.below(legal.len())];
            let before = (p.to_sfen(), p.key());
            let u = p.play_unchecked(m);
            prop_assert_eq!(p.key(), p.compute_key(), "after {} from {}", m.to_usi(), &before.0);
            for c in Color::ALL {
                prop_assert!(p.zone_count(c) <= p.declaration_points(c));
                prop_assert!(p.declaration_points(c) <= p.owned_points(c));
            }
            if full {
                prop_assert_eq!(p.owned_points(Color::Black) + p.owned_points(Color::White), 54);
            }
            trail.push((m, u, before.0, before.1));
        }
        // The final position: SFEN and Setup round trips, oracle legal set.
        let sfen = p.to_sfen();
        let again = Position::from_sfen(&sfen).unwrap();
        prop_assert_eq!(again.to_sfen(), sfen.clone());
        prop_assert_eq!(again.key(), p.key());
        prop_assert_eq!(p.to_setup().to_sfen(), sfen.clone());
        prop_assert_eq!(Setup::from_sfen(&sfen).unwrap().to_sfen(), sfen.clone());
        let rs = crate::core_support::rs_pos(&sfen);
        prop_assert_eq!(our_legal_codes(&p), rs_legal_codes(&rs), "{}", &sfen);
        // Undo in reverse order.
        while let Some((m, u, before_sfen, before_key)) = trail.pop() {
            p.undo(m, u);
            prop_assert_eq!(p.key(), before_key);
            prop_assert_eq!(p.to_sfen(), before_sfen);
        }
        prop_assert_eq!(p.to_sfen(), start.clone());
    }

    #[test]
    fn arbitrary_sfen_text_never_panics(s in "\\PC{0,80}") {
        if let Ok(p) = Position::from_sfen(&s) {
            let again = Position::from_sfen(&p.to_sfen()).unwrap();
            prop_assert_eq!(again.to_sfen(), p.to_sfen());
        }
        let _ = Setup::from_sfen(&s);
    }

    #[test]
    fn mutated_sfen_never_panics(start in 0usize..64, at in any::<prop::sample::Index>(),
                                 ch in prop::sample::select(
                                     "0123456789/+-bwkKpPlLnNsSgGrRbBx ".chars().collect::<Vec<_>>()),
                                 delete in any::<bool>()) {
        let starts = starts();
        let mut s: Vec<char> = starts[start % starts.len()].chars().collect();
        let i = at.index(s.len());
        if delete { s.remove(i); } else { s[i] = ch; }
        let s: String = s.into_iter().collect();
        if let Ok(p) = Position::from_sfen(&s) {
            prop_assert_eq!(p.key(), p.compute_key());
            let again = Position::from_sfen(&p.to_sfen()).unwrap();
            prop_assert_eq!(again.to_sfen(), p.to_sfen());
            // Every generated move of an accepted position is playable.
            let mut q = p.clone();
            for &m in p.legal_moves().iter() {
                let u = q.play_unchecked(m);
                q.undo(m, u);
            }
            prop_assert_eq!(q.to_sfen(), p.to_sfen());
        }
    }

    #[test]
    fn usi_moves_round_trip(s in "[1-9PLNSGBRK*][a-i1-9*][1-9][a-i][+]?|\\PC{0,6}") {
        if let Ok(m) = Move::from_usi(&s) {
            prop_assert_eq!(Move::from_usi(&m.to_usi()).unwrap(), m);
        }
    }
}
