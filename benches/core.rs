//! Speed of the position core beside rsshogi, measured in one run on the same machine:
//! perft 5 from the start position with every leaf played and undone, bulk-counting
//! perft 5, complete legal move generation (the 593-move position and the 1,000
//! entering-king positions of `fixtures/positions/aiiru_bench.tsv`) and mate in one on the
//! same positions. Each measure is the median of several runs, the two sides interleaved
//! and timed by thread CPU time where the system offers it (a busy shared machine inflates
//! wall time unevenly); the table prints the ratio ours / rsshogi next to its target.
//!
//! `cargo bench --bench core --no-default-features` (env `BENCH_RUNS`, default 5).

use std::hint::black_box;
#[path = "support/clock.rs"]
mod clock;

use clock::{cpu_seconds, timed};

use floodgate_scan::shogi::{self, Position};
use rsshogi::board::{Move32List, MoveList};
use rsshogi::movegen::{generate_legal_all, generate_legal_all_move32};

const MAX_MOVES_SFEN: &str = "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1";

/// rsshogi perft with every move played and undone, leaves included (no bulk counting).
fn rs_perft_played(p: &mut rsshogi::board::Position, depth: u32, bufs: &mut [Move32List]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (list, rest) = bufs.split_first_mut().unwrap();
    list.clear();
    generate_legal_all_move32(p, list);
    let mut nodes = 0;
    for i in 0..list.len() {
        let m = list[i];
        p.apply_move32(m);
        nodes += rs_perft_played(p, depth - 1, rest);
        // SAFETY: undoes the move applied just above, as rsshogi's own perft does.
        unsafe { p.undo_move32_unchecked(m) };
    }
    nodes
}

/// Median seconds of `runs` runs of `ours` and of `theirs`, interleaved (alternating which
/// goes first) so that load changes on the machine hit both sides alike.
fn compare<T: PartialEq + std::fmt::Debug>(
    runs: usize,
    mut ours: impl FnMut() -> T,
    mut theirs: impl FnMut() -> T,
) -> (f64, T, f64, T) {
    let (mut to, mut tt) = (Vec::new(), Vec::new());
    let (mut vo, mut vt) = (None, None);
    for i in 0..runs {
        for side in [i % 2, 1 - i % 2] {
            if side == 0 {
                let (t, v) = timed(&mut ours);
                to.push(t);
                if let Some(prev) = &vo {
                    assert_eq!(prev, &v, "every run computes the same thing");
                }
                vo = Some(v);
            } else {
                let (t, v) = timed(&mut theirs);
                tt.push(t);
                vt = Some(v);
            }
        }
    }
    to.sort_by(f64::total_cmp);
    tt.sort_by(f64::total_cmp);
    (to[runs / 2], vo.unwrap(), tt[runs / 2], vt.unwrap())
}

struct Row {
    name: &'static str,
    unit: &'static str,
    ours: f64,
    theirs: f64,
    target: f64,
}

fn main() {
    let runs: usize = std::env::var("BENCH_RUNS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5)
        .max(1);
    rsshogi::board::init();
    let bench_path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/positions/aiiru_bench.tsv"
    );
    let bench: Vec<String> = std::fs::read_to_string(bench_path)
        .expect("fixtures/positions/aiiru_bench.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split('\t').next().unwrap().to_string())
        .collect();
    let ours_bench: Vec<Position> = bench
        .iter()
        .map(|s| Position::from_sfen(s).expect("bench position"))
        .collect();
    let rs_bench: Vec<rsshogi::board::Position> = bench
        .iter()
        .map(|s| rsshogi::board::position_from_sfen(s).expect("bench position"))
        .collect();
    let start = Position::startpos();
    let rs_start = rsshogi::board::hirate_position();
    let mut rows = Vec::new();

    // 1. Perft 5, every node played and undone.
    let (t_ours, n_ours, t_rs, n_rs) = compare(
        runs,
        || shogi::perft(&mut start.clone(), 5),
        || {
            let mut p = rs_start.clone();
            p.init_stack();
            let mut bufs: Vec<Move32List> = (0..5).map(|_| Move32List::new()).collect();
            rs_perft_played(&mut p, 5, &mut bufs)
        },
    );
    assert_eq!(n_ours, 19_861_490);
    assert_eq!(n_rs, 19_861_490);
    rows.push(Row {
        name: "perft 5 played+undone",
        unit: "M nodes/s",
        ours: n_ours as f64 / t_ours / 1e6,
        theirs: n_rs as f64 / t_rs / 1e6,
        target: 1.0,
    });

    // 2. Perft 5, bulk counting at the leaves.
    let (t_ours, n_ours, t_rs, n_rs) = compare(
        runs,
        || shogi::perft_bulk(&mut start.clone(), 5),
        || {
            let mut p = rs_start.clone();
            p.init_stack();
            rsshogi::board::perft::compute_perft(&mut p, 5)
        },
    );
    assert_eq!(n_ours, 19_861_490);
    assert_eq!(n_rs, 19_861_490);
    rows.push(Row {
        name: "perft 5 bulk",
        unit: "M leaves/s",
        ours: n_ours as f64 / t_ours / 1e6,
        theirs: n_rs as f64 / t_rs / 1e6,
        target: 0.8,
    });

    // 3. Legal generation on the 593-move position.
    let reps = 100_000;
    let max_ours = Position::from_sfen(MAX_MOVES_SFEN).unwrap();
    let max_rs = rsshogi::board::position_from_sfen(MAX_MOVES_SFEN).unwrap();
    let (t_ours, n_ours, t_rs, n_rs) = compare(
        runs,
        || {
            let mut total = 0;
            for _ in 0..reps {
                total += black_box(black_box(&max_ours).legal_moves()).len();
            }
            total
        },
        || {
            let mut total = 0;
            let mut list = MoveList::new();
            for _ in 0..reps {
                list.clear();
                generate_legal_all(black_box(&max_rs), &mut list);
                total += black_box(&list).len();
            }
            total
        },
    );
    assert_eq!(n_ours, 593 * reps);
    assert_eq!(n_rs, 593 * reps);
    rows.push(Row {
        name: "legal moves, 593-move position",
        unit: "K pos/s",
        ours: reps as f64 / t_ours / 1e3,
        theirs: reps as f64 / t_rs / 1e3,
        target: 1.0,
    });

    // 4. Legal generation over the 1,000 entering-king positions.
    let passes = 100;
    let (t_ours, n_ours, t_rs, n_rs) = compare(
        runs,
        || {
            let mut total = 0;
            for _ in 0..passes {
                for p in &ours_bench {
                    total += black_box(black_box(p).legal_moves()).len();
                }
            }
            total
        },
        || {
            let mut total = 0;
            let mut list = MoveList::new();
            for _ in 0..passes {
                for p in &rs_bench {
                    list.clear();
                    generate_legal_all(black_box(p), &mut list);
                    total += black_box(&list).len();
                }
            }
            total
        },
    );
    assert_eq!(n_ours, n_rs, "same legal move totals");
    let positions = (passes * bench.len()) as f64;
    rows.push(Row {
        name: "legal moves, 1,000 bench positions",
        unit: "K pos/s",
        ours: positions / t_ours / 1e3,
        theirs: positions / t_rs / 1e3,
        target: 1.0,
    });

    // 5. Mate in one on the same positions (and the 593-move one).
    let passes = 20;
    let (t_ours, n_ours, t_rs, n_rs) = compare(
        runs,
        || {
            let mut found = 0;
            for _ in 0..passes {
                for p in ours_bench.iter().chain(std::iter::once(&max_ours)) {
                    found += usize::from(shogi::solve_mate_in_one(black_box(p)).is_some());
                }
            }
            found
        },
        || {
            let mut found = 0;
            for _ in 0..passes {
                for p in rs_bench.iter().chain(std::iter::once(&max_rs)) {
                    found += usize::from(rsshogi::mate::solve_mate_in_one(black_box(p)).is_some());
                }
            }
            found
        },
    );
    assert_eq!(n_ours, n_rs, "same number of mates found");
    let positions = (passes * (bench.len() + 1)) as f64;
    rows.push(Row {
        name: "mate in one, 1,001 positions",
        unit: "K pos/s",
        ours: positions / t_ours / 1e3,
        theirs: positions / t_rs / 1e3,
        target: 0.0,
    });

    let clock = if cpu_seconds().is_some() {
        "thread CPU time"
    } else {
        "wall time"
    };
    println!("position core vs rsshogi, median of {runs} interleaved runs ({clock})");
    println!(
        "| measure | unit | floodgate-scan | rsshogi | ratio | target |\n|---|---|---:|---:|---:|---:|"
    );
    for r in &rows {
        let ratio = r.ours / r.theirs;
        let target = if r.target > 0.0 {
            format!(
                ">= {:.1}x {}",
                r.target,
                if ratio >= r.target { "met" } else { "MISSED" }
            )
        } else {
            "-".to_string()
        };
        println!(
            "| {} | {} | {:.2} | {:.2} | {:.2}x | {} |",
            r.name, r.unit, r.ours, r.theirs, ratio, target
        );
    }
}
