//! The position core against an independent oracle (rsshogi) over thousands of seeded
//! random playouts and the 1,000 real entering-king positions of `aiiru_bench.tsv`.
//!
//! At every position: identical complete legal sets (non-promotions included), identical
//! check status and number of checkers, identical existence of a mate in one, SFEN equal
//! to the oracle's and round-tripping, incremental key equal to the recomputed key, and
//! for every legal move: `legality` accepts it, `gives_check` predicts the check, the child
//! key is consistent, and undo restores key, SFEN and check status. Random move probes
//! must be legal exactly when they are in the oracle's legal set. The declaration counts
//! and verdicts of the four point rules are compared with the oracle's as well, and the
//! columns of `aiiru_bench.tsv` are recomputed.

use crate::core_support::{
    SplitMix64, bench_sfens, code, named_sfens, our_legal_codes, pos, rs_legal_codes,
};
use floodgate_scan::shogi::{
    Color, DeclarationOutcome, EnteringKingRule, IllegalMoveKind, Move, PieceKind, Position,
    Square, evaluate_declaration, is_mated, solve_mate_in_one,
};

/// Counters, so a test can show it looked at what it claims to have looked at.
#[derive(Default, Debug)]
struct Seen {
    positions: usize,
    in_check: usize,
    mates_in_one: usize,
    promotion_choices: usize,
    drops: usize,
    illegal_probes: usize,
}

/// A random move, legal or not, over the whole move space.
fn random_move(rng: &mut SplitMix64) -> Move {
    let sq = |rng: &mut SplitMix64| Square::from_index(rng.below(81)).unwrap();
    if rng.below(3) == 0 {
        Move::Drop {
            kind: PieceKind::HAND_KINDS[rng.below(7)],
            to: sq(rng),
        }
    } else {
        Move::Normal {
            from: sq(rng),
            to: sq(rng),
            promote: rng.below(2) == 0,
        }
    }
}

/// Compare one position with the oracle; `p` is left exactly as it was.
fn check_position(
    p: &mut Position,
    rs: &rsshogi::board::Position,
    rng: &mut SplitMix64,
    seen: &mut Seen,
) {
    let sfen = p.to_sfen();
    seen.positions += 1;
    assert_eq!(sfen, rs.to_sfen(None), "SFEN differs from the oracle's");

    let ours = our_legal_codes(p);
    let theirs = rs_legal_codes(rs);
    assert!(
        ours == theirs,
        "{sfen}: legal sets differ: {}",
        crate::core_support::describe_diff(&ours, &theirs)
    );
    assert_eq!(p.is_in_check(), rs.is_in_check(), "{sfen}: in check");
    assert_eq!(
        p.checkers().count() as usize,
        rs.checkers().count() as usize,
        "{sfen}: number of checkers"
    );
    assert_eq!(is_mated(p), ours.is_empty(), "{sfen}: is_mated");
    seen.in_check += usize::from(p.is_in_check());

    let mate = solve_mate_in_one(p);
    let rs_mate = rsshogi::mate::solve_mate_in_one(rs);
    assert_eq!(
        mate.is_some(),
        rs_mate.is_some(),
        "{sfen}: mate in one ours {:?} oracle {:?}",
        mate.map(Move::to_usi),
        rs_mate.map(|m| m.to_usi())
    );
    seen.mates_in_one += usize::from(mate.is_some());

    // Key and SFEN round trip.
    let key = p.key();
    assert_eq!(key, p.compute_key(), "{sfen}: incremental key");
    let again = Position::from_sfen(&sfen).unwrap_or_else(|e| panic!("{sfen}: {e:?}"));
    assert_eq!(again.to_sfen(), sfen, "SFEN round trip");
    assert_eq!(again.key(), key, "{sfen}: key after SFEN round trip");

    // Every legal move: legality, gives_check, child key, undo.
    let in_check = p.is_in_check();
    let checkers = p.checkers().count();
    let legal = p.legal_moves();
    for &m in legal.iter() {
        assert_eq!(p.legality(m), Ok(()), "{sfen}: {}", m.to_usi());
        match m {
            Move::Normal { promote: true, .. } => seen.promotion_choices += 1,
            Move::Drop { .. } => seen.drops += 1,
            _ => {}
        }
        let gives = p.gives_check(m);
        let u = p.play_unchecked(m);
        assert_eq!(p.is_in_check(), gives, "{sfen}: gives_check {}", m.to_usi());
        assert_eq!(
            p.key(),
            p.compute_key(),
            "{sfen}: child key after {}",
            m.to_usi()
        );
        assert_ne!(p.key(), key, "{sfen}: {} changes the key", m.to_usi());
        p.undo(m, u);
        assert_eq!(p.key(), key, "{sfen}: undo {} restores the key", m.to_usi());
    }
    assert_eq!(p.to_sfen(), sfen, "undo restores the position");
    assert_eq!(
        our_legal_codes(p),
        ours,
        "{sfen}: undo restores the legal set"
    );
    assert_eq!(p.is_in_check(), in_check);
    assert_eq!(p.checkers().count(), checkers);

    // Random probes over the whole move space.
    for _ in 0..24 {
        let m = random_move(rng);
        let legal_here = ours.binary_search(&code(m)).is_ok();
        let verdict = p.legality(m);
        assert_eq!(
            verdict.is_ok(),
            legal_here,
            "{sfen}: legality({}) = {verdict:?}",
            m.to_usi()
        );
        assert_eq!(p.is_legal(m), legal_here);
        if let Err(kind) = verdict {
            seen.illegal_probes += 1;
            assert!(!kind.name().is_empty());
            if kind == IllegalMoveKind::IgnoredCheck {
                // Pseudo-legal but leaves the king attacked: the oracle agrees it is not legal.
                assert!(!legal_here);
            }
        }
    }
}

/// Random playouts: `games` games of up to `plies` plies from each start, walking the core
/// and the oracle in step.
fn playouts(starts: &[String], games: usize, plies: usize, seed: u64) -> Seen {
    let mut rng = SplitMix64::new(seed);
    let mut seen = Seen::default();
    for g in 0..games {
        let start = &starts[g % starts.len()];
        let mut p = pos(start);
        let mut rs = crate::core_support::rs_pos(start);
        for _ in 0..plies {
            check_position(&mut p, &rs, &mut rng, &mut seen);
            let legal = p.legal_moves();
            if legal.is_empty() {
                break;
            }
            // One move in three is a check when one exists, so that evasions, double
            // checks and mates are well represented; otherwise uniform.
            let checks: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|&m| p.gives_check(m))
                .collect();
            let m = if !checks.is_empty() && rng.below(3) == 0 {
                checks[rng.below(checks.len())]
            } else {
                legal[rng.below(legal.len())]
            };
            let u = m.to_usi();
            p.play(m)
                .unwrap_or_else(|k| panic!("{}: {u}: {k:?}", p.to_sfen()));
            crate::core_support::rs_play(&mut rs, &u);
        }
    }
    seen
}

fn valid_named() -> Vec<String> {
    named_sfens()
        .into_iter()
        .filter(|(n, _)| !n.starts_with("invalid"))
        .map(|(_, s)| s)
        .collect()
}

#[test]
fn oracle_random_playouts_from_startpos() {
    let starts = vec![Position::startpos().to_sfen()];
    let seen = playouts(&starts, 1_000, 160, 1);
    eprintln!("{seen:?}");
    assert!(seen.positions > 50_000, "{seen:?}");
    assert!(seen.in_check > 10_000, "{seen:?}");
    assert!(seen.mates_in_one > 100, "{seen:?}");
    assert!(seen.promotion_choices > 10_000, "{seen:?}");
}

#[test]
fn oracle_random_playouts_from_reference_positions() {
    let seen = playouts(&valid_named(), 1_200, 40, 2);
    eprintln!("{seen:?}");
    assert!(seen.positions > 30_000, "{seen:?}");
    assert!(seen.drops > 100_000, "{seen:?}");
}

#[test]
fn oracle_random_playouts_from_entering_king_positions() {
    let starts: Vec<String> = bench_sfens().into_iter().step_by(5).collect();
    let seen = playouts(&starts, 1_000, 30, 3);
    eprintln!("{seen:?}");
    assert!(seen.positions > 20_000, "{seen:?}");
}

#[test]
fn oracle_all_bench_positions() {
    let sfens = bench_sfens();
    assert_eq!(sfens.len(), 1_000);
    let mut rng = SplitMix64::new(4);
    let mut seen = Seen::default();
    for s in &sfens {
        let mut p = pos(s);
        let rs = crate::core_support::rs_pos(s);
        check_position(&mut p, &rs, &mut rng, &mut seen);
    }
    eprintln!("{seen:?}");
    assert_eq!(seen.positions, 1_000);
    assert!(seen.illegal_probes > 10_000, "{seen:?}");
}

/// Our declaration evaluation against rsshogi's under the four point rules: the same
/// declaration points, zone count, threshold (handicap adjustment included) and the same
/// verdict on a win (rsshogi has no 500-move clause, so the 24-point rules are compared
/// only while the clause holds). Returns the number of declaration wins seen.
fn compare_declarations(p: &Position, rs: &rsshogi::board::Position) -> usize {
    use rsshogi::board::position::DeclarationDetail;
    use rsshogi::types::EnteringKingRule as Rs;
    let sfen = p.to_sfen();
    let mut wins = 0;
    for (ours, theirs) in [
        (EnteringKingRule::CSARule24, Rs::Point24),
        (EnteringKingRule::CSARule24H, Rs::Point24Handicap),
        (EnteringKingRule::CSARule27, Rs::Point27),
        (EnteringKingRule::CSARule27H, Rs::Point27Handicap),
    ] {
        let e = evaluate_declaration(p, ours);
        let mut r = rs.clone();
        r.set_entering_king_rule(theirs);
        let t = r.evaluate_declaration();
        let DeclarationDetail::PointRule {
            not_in_check,
            king_in_enemy_camp,
            pieces_in_camp,
            points,
            required_points,
            ..
        } = t.detail
        else {
            panic!("{sfen} {ours}: oracle detail {:?}", t.detail);
        };
        assert_eq!(e.points, points, "{sfen} {ours}: points");
        assert_eq!(e.king_in_camp, king_in_enemy_camp, "{sfen} {ours}");
        assert_eq!(e.in_check, !not_in_check, "{sfen} {ours}");
        assert_eq!(
            e.zone_count,
            pieces_in_camp - i32::from(king_in_enemy_camp),
            "{sfen} {ours}: zone count"
        );
        assert_eq!(e.threshold, required_points, "{sfen} {ours}: threshold");
        if e.move_number_ok {
            assert_eq!(
                e.outcome == DeclarationOutcome::Win,
                t.can_declare,
                "{sfen} {ours}: {e:?} vs {t:?}"
            );
        }
        wins += usize::from(e.outcome == DeclarationOutcome::Win);
    }
    wins
}

/// Every column of `aiiru_bench.tsv` (move number, zone count and declaration points of
/// both sides, both kings in the camp) recomputed, and the declaration rules compared with
/// the oracle on the bench positions and on short playouts from them.
#[test]
fn bench_columns_and_oracle_declarations() {
    let text = crate::core_support::read_fixture("positions/aiiru_bench.tsv");
    let mut rows = 0;
    let mut wins = 0;
    let mut rng = SplitMix64::new(5);
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let c: Vec<&str> = line.split('\t').collect();
        let n = |i: usize| c[i].parse::<i32>().unwrap();
        let p = pos(c[0]);
        assert_eq!(p.move_number() as i32, n(1) + 1, "{}: ply column", c[0]);
        assert_eq!(p.zone_count(Color::Black), n(2), "{}", c[0]);
        assert_eq!(p.declaration_points(Color::Black), n(3), "{}", c[0]);
        assert_eq!(p.zone_count(Color::White), n(4), "{}", c[0]);
        assert_eq!(p.declaration_points(Color::White), n(5), "{}", c[0]);
        assert!(p.king_in_camp(Color::Black) && p.king_in_camp(Color::White));
        rows += 1;
        wins += compare_declarations(&p, &crate::core_support::rs_pos(c[0]));
        if rows % 4 == 0 {
            let (line, _) = crate::core_support::random_playout(c[0], 40, &mut rng);
            for s in line.iter().skip(1) {
                wins += compare_declarations(&pos(s), &crate::core_support::rs_pos(s));
            }
        }
    }
    assert_eq!(rows, 1_000);
    assert!(wins > 0, "some positions allow a winning declaration");
    eprintln!("declaration wins seen: {wins}");
}

/// CSA move text: every legal move written by the core equals the oracle's CSA text of the
/// same move and reads back to the same move; over the same positions, two positions
/// share a key exactly when board, hands and side to move are equal (no collision, and
/// the key does not depend on the move number or the path).
#[test]
fn csa_moves_and_key_identity() {
    use std::collections::HashMap;
    let mut rng = SplitMix64::new(6);
    let mut by_key: HashMap<u64, String> = HashMap::new();
    let mut by_board: HashMap<String, u64> = HashMap::new();
    let mut moves_checked = 0;
    let mut starts = valid_named();
    starts.extend(bench_sfens().into_iter().step_by(20));
    for (g, start) in starts.iter().cycle().take(400).enumerate() {
        let (line, _) = crate::core_support::random_playout(start, 60, &mut rng);
        for (i, s) in line.iter().enumerate() {
            let p = pos(s);
            let board = s.rsplit_once(' ').unwrap().0.to_string();
            if let Some(other) = by_key.insert(p.key(), board.clone()) {
                assert_eq!(other, board, "key collision");
            }
            if let Some(k) = by_board.insert(board.clone(), p.key()) {
                assert_eq!(k, p.key(), "{board}: one position, two keys");
            }
            if (g + i) % 4 != 0 {
                continue;
            }
            let rs = crate::core_support::rs_pos(s);
            for &m in p.legal_moves().iter() {
                let text = p.move_to_csa(m);
                let rs_move = rs
                    .move32_from_usi(&m.to_usi())
                    .expect("oracle reads the move");
                assert_eq!(Some(text.clone()), rs_move.to_csa(), "{s}: {}", m.to_usi());
                assert_eq!(
                    p.move_from_csa(text.as_bytes()).ok(),
                    Some(m),
                    "{s}: {text}"
                );
                moves_checked += 1;
            }
        }
    }
    assert!(by_key.len() > 10_000, "{}", by_key.len());
    assert!(moves_checked > 100_000, "{moves_checked}");
}
