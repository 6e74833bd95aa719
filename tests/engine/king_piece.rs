//! The king-relative piece evaluation inside the search: the sums kept move by move
//! equal the sums from scratch at every node the search evaluates (checked at each node by
//! the searcher's debug assertion, which the test profile keeps), on `aiiru_bench`
//! positions (drops, promotions, captures, king moves) and from the start position, both
//! colours to move; the term changes the search's values, and zero weights change nothing.

use crate::core_support::{bench_sfens, pos};
use floodgate_scan::engine::eval::king_piece::{KingPieceWeights, evaluate};
use floodgate_scan::engine::search::{Config, Control, SearchResult, Searcher};
use floodgate_scan::engine::time::Limits;
use floodgate_scan::shogi::Position;
use std::sync::Arc;

fn random_weights(seed: u64) -> KingPieceWeights {
    let mut w = KingPieceWeights::zero();
    let mut rng = floodgate_scan::rng::XorShift64Star::new(seed);
    for v in w.w.iter_mut() {
        *v = rng.below(1601) as i16 - 800;
    }
    w
}

fn search(p: &Position, kp: Option<Arc<KingPieceWeights>>, nodes: u64) -> SearchResult {
    let config = Config {
        king_piece: kp,
        ..Config::default()
    };
    let mut s = Searcher::new(16, config);
    s.search(
        p,
        &[],
        &Limits::nodes(nodes),
        &Control::new(false),
        &mut |_| {},
    )
}

#[test]
fn the_sums_kept_by_the_search_equal_the_sums_from_scratch() {
    let w = Arc::new(random_weights(5));
    let mut starts: Vec<Position> = bench_sfens().iter().step_by(25).map(|s| pos(s)).collect();
    starts.push(Position::startpos());
    let mut differs = 0;
    for p in &starts {
        for q in [p.clone(), p.flipped()] {
            let with = search(&q, Some(w.clone()), 6_000);
            let without = search(&q, None, 6_000);
            differs += (with.score != without.score) as usize;
            // The flipped twin is the same game: the term scores it alike.
            assert_eq!(evaluate(&q, &w), evaluate(&q.flipped(), &w));
        }
    }
    assert!(differs > starts.len(), "the term moved {differs} scores");
}

#[test]
fn zero_weights_search_as_without_the_term() {
    let zero = Arc::new(KingPieceWeights::zero());
    for s in bench_sfens().iter().step_by(100) {
        let p = pos(s);
        let a = search(&p, Some(zero.clone()), 5_000);
        let b = search(&p, None, 5_000);
        assert_eq!(
            (format!("{:?}", a.decision), a.score, a.nodes),
            (format!("{:?}", b.decision), b.score, b.nodes),
            "{s}"
        );
    }
}
