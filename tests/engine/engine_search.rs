//! The search's building blocks against their definitions: the staged move picker yields
//! exactly the legal moves less the useless non-promotions (a pawn, bishop or rook that
//! could promote and does not), each once, whatever table move, killers and counter move
//! it is given (legal, illegal, useless, captures, repeated); the in-place null move equals the position rebuilt with
//! the other side to move, and undoes exactly. On the 1,000 real entering-king positions
//! of `aiiru_bench.tsv` and along random games (with full hands).

use crate::core_support::{SplitMix64, bench_sfens, pos};
use floodgate_scan::engine::picker::{all_picked, search_moves, useless_non_promotion};
use floodgate_scan::shogi::{Move, Position};

/// The positions of a random game from `start` (at most `plies` plies).
fn random_game(start: &Position, plies: usize, rng: &mut SplitMix64) -> Vec<Position> {
    let mut p = start.clone();
    let mut out = vec![p.clone()];
    for _ in 0..plies {
        let moves = p.legal_moves();
        if moves.is_empty() {
            break;
        }
        // Prefer captures half the time, so hands fill up.
        let caps: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| p.captured_by(*m).is_some())
            .collect();
        let m = if !caps.is_empty() && rng.below(2) == 0 {
            caps[rng.below(caps.len())]
        } else {
            moves.as_slice()[rng.below(moves.len())]
        };
        p.play(m).unwrap();
        out.push(p.clone());
    }
    out
}

/// Check the picker on `p` with a table move and killers drawn from its legal moves, from
/// another position's moves (likely illegal here) or none.
fn check_picker(p: &Position, foreign: &[Move], rng: &mut SplitMix64) {
    let legal: Vec<Move> = p.legal_moves().iter().copied().collect();
    let draw = |rng: &mut SplitMix64| -> Option<Move> {
        match rng.below(3) {
            0 if !legal.is_empty() => Some(legal[rng.below(legal.len())]),
            1 if !foreign.is_empty() => Some(foreign[rng.below(foreign.len())]),
            _ => None,
        }
    };
    for _ in 0..3 {
        let tt = draw(rng);
        let k0 = draw(rng);
        let k1 = if rng.below(4) == 0 { k0 } else { draw(rng) };
        let picked = all_picked(p, tt, [k0, k1]);
        let mut a: Vec<String> = picked.iter().map(|m| m.to_usi()).collect();
        // The search's moves: the legal ones less the useless non-promotions, which are
        // exactly those whose promotion is also legal.
        let searched = search_moves(p);
        for m in &legal {
            if useless_non_promotion(p, *m) {
                let Move::Normal { from, to, .. } = *m else {
                    panic!("a drop is never a non-promotion")
                };
                let promoted = Move::Normal {
                    from,
                    to,
                    promote: true,
                };
                assert!(legal.contains(&promoted), "{}: {}", p.to_sfen(), m.to_usi());
                assert!(!searched.contains(m));
            }
        }
        let mut b: Vec<String> = searched.iter().map(|m| m.to_usi()).collect();
        a.sort();
        b.sort();
        assert_eq!(
            a.len(),
            picked.len(),
            "{}: {} moves picked",
            p.to_sfen(),
            picked.len()
        );
        let mut dedup = a.clone();
        dedup.dedup();
        assert_eq!(dedup.len(), a.len(), "{}: a move picked twice", p.to_sfen());
        assert_eq!(a, b, "{}: tt {tt:?} killers {k0:?} {k1:?}", p.to_sfen());
        if let Some(t) = tt
            && searched.contains(&t)
        {
            assert_eq!(picked[0], t, "the table move comes first");
        }
    }
}

fn check_null_move(p: &Position) {
    if p.is_in_check() {
        return;
    }
    let mut q = p.clone();
    let undo = q.do_null_move();
    let mut s = p.to_setup();
    s.side_to_move = s.side_to_move.opposite();
    s.move_number += 1;
    let rebuilt = Position::from_setup(s).expect("a pass from a legal position is legal");
    assert_eq!(q.to_sfen(), rebuilt.to_sfen());
    assert_eq!(q.key(), rebuilt.key(), "{}", p.to_sfen());
    assert_eq!(q.key(), q.compute_key());
    assert_eq!(q.is_in_check(), rebuilt.is_in_check());
    assert_eq!(q.legal_moves().len(), rebuilt.legal_moves().len());
    q.undo_null_move(undo);
    assert_eq!(q.to_sfen(), p.to_sfen());
    assert_eq!(q.key(), p.key());
}

#[test]
fn the_picker_yields_every_legal_move_once_on_the_bench_positions() {
    let mut rng = SplitMix64::new(0x5eed_0001);
    let sfens = bench_sfens();
    assert_eq!(sfens.len(), 1000);
    let mut foreign: Vec<Move> = Vec::new();
    for s in &sfens {
        let p = pos(s);
        check_picker(&p, &foreign, &mut rng);
        check_null_move(&p);
        foreign = p.legal_moves().iter().copied().collect();
    }
}

#[test]
fn the_picker_yields_every_legal_move_once_along_random_games() {
    let mut rng = SplitMix64::new(0x5eed_0002);
    let mut foreign: Vec<Move> = Vec::new();
    let mut positions = 0;
    let mut in_check = 0;
    for g in 0..60 {
        let start = if g % 2 == 0 {
            Position::startpos()
        } else {
            pos(&bench_sfens()[g * 7 % 1000])
        };
        for p in random_game(&start, 160, &mut rng) {
            check_picker(&p, &foreign, &mut rng);
            check_null_move(&p);
            positions += 1;
            in_check += p.is_in_check() as usize;
            foreign = p.legal_moves().iter().copied().collect();
        }
    }
    // The walk really covers evasions too.
    assert!(positions > 3000 && in_check > 50, "{positions} {in_check}");
}

/// White threatens G*1h mate (the knight on 2f
/// supports the drop; the king on 1i has no flight square the gold does not cover).
const THREATENED: &str = "1k7/9/9/9/R3r4/7n1/9/9/8K b g 1";

fn best_move_at_depth(sfen: &str, depth: u32, threats: bool) -> Move {
    use floodgate_scan::engine::search::{Config, Control, Decision, Searcher, Threats};
    use floodgate_scan::engine::time::Limits;
    let config = Config {
        threats: Threats {
            enabled: threats,
            ..Threats::default()
        },
        ..Config::default()
    };
    let mut s = Searcher::new(1, config);
    let r = s.search(
        &pos(sfen),
        &[],
        &Limits::depth(depth),
        &Control::new(false),
        &mut |_| {},
    );
    match r.decision {
        Decision::Move(m) => m,
        d => panic!("{d:?}"),
    }
}

#[test]
fn a_shallow_search_does_not_allow_the_threatened_mate() {
    let p = pos(THREATENED);
    // The threat is real: after a pass White mates in one.
    let mut passed = p.clone();
    let u = passed.do_null_move();
    assert!(floodgate_scan::shogi::solve_mate_in_one(&passed).is_some());
    passed.undo_null_move(u);
    for depth in [1, 2] {
        let m = best_move_at_depth(THREATENED, depth, true);
        let mut after = p.clone();
        after.play(m).unwrap();
        assert!(
            floodgate_scan::shogi::solve_mate_in_one(&after).is_none(),
            "depth {depth}: {} allows mate in one",
            m.to_usi()
        );
    }
}
