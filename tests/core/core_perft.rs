//! Perft contract of the position core: node counts of the complete legal set (every
//! optional non-promotion included) against published figures, the 593-move maximum
//! position, and the two reference move sequences whose last move is illegal (a
//! two-pawns drop, a pawn-drop mate) and must be refused with the right kind. (The third,
//! a fourfold repetition, is in `core_repetition.rs`.)
//!
//! Deep counts (start position depth 6, and the played-and-undone variant of the large
//! ones) are `#[ignore]`d here and run by `scripts/bench-core.sh`.

use crate::core_support::{named_sfen, pos, read_fixture, rs_pos, sequence, usi};
use floodgate_scan::shogi::{IllegalMoveKind, Position, perft, perft_bulk, perft_divide};

/// Entries above this many nodes run only the bulk-counting perft by default.
const PLAYED_LIMIT: u64 = 2_000_000;
/// Entries above this many nodes run only when asked (`--ignored`).
const DEFAULT_LIMIT: u64 = 100_000_000;

/// (name, sfen, depth, expected nodes) of every entry of `perft_expectations.json`.
fn expectations() -> Vec<(String, String, u32, u64)> {
    let json: serde_json::Value =
        serde_json::from_str(&read_fixture("perft/perft_expectations.json")).unwrap();
    let mut out = Vec::new();
    for (name, entry) in json.as_object().unwrap() {
        let sfen = entry["sfen"].as_str().unwrap().to_string();
        for (depth, nodes) in entry["depths"].as_object().unwrap() {
            out.push((
                name.clone(),
                sfen.clone(),
                depth.parse().unwrap(),
                nodes.as_u64().unwrap(),
            ));
        }
    }
    assert_eq!(out.len(), 15, "every entry of the fixture is read");
    out
}

fn check(filter: impl Fn(u64) -> bool, played: bool) {
    let mut ran = 0;
    for (name, sfen, depth, expected) in expectations() {
        if !filter(expected) {
            continue;
        }
        let mut p = pos(&sfen);
        let before = (p.to_sfen(), p.key());
        let got = if played {
            perft(&mut p, depth)
        } else {
            perft_bulk(&mut p, depth)
        };
        assert_eq!(
            got,
            expected,
            "{name} depth {depth} ({})",
            if played { "played" } else { "bulk" }
        );
        assert_eq!(
            (p.to_sfen(), p.key()),
            before,
            "{name}: perft restores the position"
        );
        ran += 1;
    }
    assert!(ran > 0);
}

#[test]
fn perft_small_entries_played_and_bulk() {
    check(|n| n <= PLAYED_LIMIT, true);
    check(|n| n <= PLAYED_LIMIT, false);
}

#[test]
fn perft_large_entries_bulk() {
    check(|n| n > PLAYED_LIMIT && n <= DEFAULT_LIMIT, false);
}

#[test]
#[ignore = "deep: run by scripts/bench-core.sh"]
fn perft_large_entries_played() {
    check(|n| n > PLAYED_LIMIT && n <= DEFAULT_LIMIT, true);
}

#[test]
#[ignore = "deep: run by scripts/bench-core.sh"]
fn perft_startpos_depth6_bulk() {
    check(|n| n > DEFAULT_LIMIT, false);
}

#[test]
#[ignore = "deep: run by scripts/bench-core.sh"]
fn perft_startpos_depth6_played() {
    check(|n| n > DEFAULT_LIMIT, true);
}

/// The split per first move sums to the total and equals the oracle's split.
#[test]
fn perft_divide_matches_oracle() {
    for (name, depth) in [
        ("pin_checker_test", 2),
        ("double_check", 2),
        ("bench_midgame1", 2),
        ("startpos", 3),
    ] {
        let sfen = named_sfen(name);
        let mut p = pos(&sfen);
        let mut ours: Vec<(String, u64)> = perft_divide(&mut p, depth)
            .into_iter()
            .map(|(m, n)| (m.to_usi(), n))
            .collect();
        ours.sort();
        let total: u64 = ours.iter().map(|(_, n)| n).sum();
        assert_eq!(total, perft(&mut p, depth), "{name}: divide sums to perft");
        let mut theirs: Vec<(String, u64)> =
            rsshogi::board::perft::perft_div(&rs_pos(&sfen), depth as u8)
                .unwrap()
                .into_iter()
                .map(|b| (b.mv.to_usi(), b.nodes))
                .collect();
        theirs.sort();
        assert_eq!(ours, theirs, "{name} depth {depth}: divide");
    }
}

#[test]
fn max_legal_moves_position_has_593() {
    let p = pos(&named_sfen("max_legal_moves"));
    let legal = p.legal_moves();
    assert_eq!(legal.len(), 593);
    let mut usis: Vec<String> = legal.iter().map(|m| m.to_usi()).collect();
    usis.sort();
    usis.dedup();
    assert_eq!(usis.len(), 593, "no duplicates");
    for &m in legal.iter() {
        assert!(p.is_legal(m), "{}", m.to_usi());
    }
}

/// Every move but the last is legal; the last is refused with `kind` and leaves the
/// position untouched.
fn last_move_refused(name: &str, kind: IllegalMoveKind) {
    let moves = sequence(name);
    let (last, body) = moves.split_last().unwrap();
    let mut p = Position::startpos();
    let mut oracle = rs_pos(&p.to_sfen());
    for (i, m) in body.iter().enumerate() {
        p.play(usi(m))
            .unwrap_or_else(|k| panic!("{name} ply {}: {m}: {k:?}", i + 1));
        crate::core_support::rs_play(&mut oracle, m);
    }
    let last_move = usi(last);
    assert_eq!(p.legality(last_move), Err(kind), "{name}: {last}");
    assert!(!p.is_legal(last_move));
    assert!(!p.legal_moves().contains(&last_move));
    let before = (p.to_sfen(), p.key());
    assert_eq!(p.play(last_move).err(), Some(kind));
    assert_eq!(
        (p.to_sfen(), p.key()),
        before,
        "a refused move changes nothing"
    );
    // The oracle agrees the move is illegal.
    let rs_move = rsshogi::types::Move::from_usi(last).unwrap();
    assert!(!oracle.is_legal_move(rs_move), "oracle: {last} is illegal");
}

#[test]
fn two_pawns_drop_is_refused() {
    last_move_refused("double_pawn_illegal", IllegalMoveKind::TwoPawns);
    assert_eq!(IllegalMoveKind::TwoPawns.name(), "two_pawns");
}

#[test]
fn pawn_drop_mate_is_refused() {
    last_move_refused("uchifuzume_illegal", IllegalMoveKind::DropPawnMate);
    assert_eq!(IllegalMoveKind::DropPawnMate.name(), "drop_pawn_mate");
}

#[test]
fn invalid_fixture_positions_are_rejected() {
    for name in ["invalid_too_many_pawns", "invalid_extra_lance"] {
        let sfen = named_sfen(name);
        assert!(
            Position::from_sfen(&sfen).is_err(),
            "{name} must be rejected"
        );
    }
    for name in [
        "zobrist_test1",
        "zobrist_test2",
        "startpos_white",
        "after_76fu",
    ] {
        let p = pos(&named_sfen(name));
        assert_eq!(p.key(), p.compute_key(), "{name}");
    }
    // Two positions differing only by the king's square have different keys.
    let a = pos(&named_sfen("zobrist_test1"));
    let b = pos(&named_sfen("zobrist_test2"));
    assert_ne!(a.key(), b.key());
}

/// Perft 2 of every entering-king position of `aiiru_bench.tsv` (and perft 3 of a few),
/// against the oracle's count: drops dominate these positions.
#[test]
fn perft_bench_positions_match_oracle() {
    let sfens = crate::core_support::bench_sfens();
    let mut total = 0;
    for (i, s) in sfens.iter().enumerate() {
        let depth = if i % 100 == 0 { 3 } else { 2 };
        let mut p = pos(s);
        let ours = perft_bulk(&mut p, depth);
        let theirs = rsshogi::board::perft::compute_perft(&mut rs_pos(s), depth as u8);
        assert_eq!(ours, theirs, "{s} depth {depth}");
        if i % 50 == 0 {
            assert_eq!(perft(&mut p, depth), ours, "{s}: played = bulk");
        }
        total += ours;
    }
    assert!(total > 10_000_000, "{total}");
}
