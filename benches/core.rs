//! Speed of the position core beside rsshogi, measured in one run on the same machine:
//! perft 5 from the start position with every leaf played and undone, bulk-counting
//! perft 5, complete legal move generation (the 593-move position and the 1,000
//! entering-king positions of `fixtures/positions/aiiru_bench.tsv`) and mate in one on the
//! same positions. Each measure is the median of several runs, the two sides interleaved
//! and timed by thread CPU time where the system offers it (a busy shared machine inflates
//! wall time unevenly); the table prints the ratio ours / rsshogi next to its target.
//!
//! A second table times the core's mate in one decided from attack tables against the
//! reference that plays its candidates (`solve_mate_in_one_by_play`), in nanoseconds per
//! call, on the bench positions, on positions of random games and on positions with many
//! pieces in hand, each also with the side to move passing (the question a search asks
//! after a null move); both must give the same answers.
//!
//! `cargo bench --bench core --no-default-features` (env `BENCH_RUNS`, default 5;
//! `BENCH_ONLY=mate` for the second table alone).

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

/// The positions every measure runs on, in both cores' types.
struct Positions {
    start: Position,
    rs_start: rsshogi::board::Position,
    /// The 593-move position.
    max: Position,
    rs_max: rsshogi::board::Position,
    /// The 1,000 entering-king positions of `fixtures/positions/aiiru_bench.tsv`.
    bench: Vec<Position>,
    rs_bench: Vec<rsshogi::board::Position>,
}

fn positions() -> Positions {
    let bench_path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/positions/aiiru_bench.tsv"
    );
    let sfens: Vec<String> = std::fs::read_to_string(bench_path)
        .expect("fixtures/positions/aiiru_bench.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split('\t').next().unwrap().to_string())
        .collect();
    Positions {
        start: Position::startpos(),
        rs_start: rsshogi::board::hirate_position(),
        max: Position::from_sfen(MAX_MOVES_SFEN).unwrap(),
        rs_max: rsshogi::board::position_from_sfen(MAX_MOVES_SFEN).unwrap(),
        bench: sfens
            .iter()
            .map(|s| Position::from_sfen(s).expect("bench position"))
            .collect(),
        rs_bench: sfens
            .iter()
            .map(|s| rsshogi::board::position_from_sfen(s).expect("bench position"))
            .collect(),
    }
}

/// Perft 5 from the start, every node played and undone.
fn perft_played(runs: usize, p: &Positions) -> Row {
    let (t_ours, n_ours, t_rs, n_rs) = compare(
        runs,
        || shogi::perft(&mut p.start.clone(), 5),
        || {
            let mut pos = p.rs_start.clone();
            pos.init_stack();
            let mut bufs: Vec<Move32List> = (0..5).map(|_| Move32List::new()).collect();
            rs_perft_played(&mut pos, 5, &mut bufs)
        },
    );
    assert_eq!(n_ours, 19_861_490);
    assert_eq!(n_rs, 19_861_490);
    Row {
        name: "perft 5 played+undone",
        unit: "M nodes/s",
        ours: n_ours as f64 / t_ours / 1e6,
        theirs: n_rs as f64 / t_rs / 1e6,
        target: 1.0,
    }
}

/// Perft 5 from the start, bulk counting at the leaves.
fn perft_bulk(runs: usize, p: &Positions) -> Row {
    let (t_ours, n_ours, t_rs, n_rs) = compare(
        runs,
        || shogi::perft_bulk(&mut p.start.clone(), 5),
        || {
            let mut pos = p.rs_start.clone();
            pos.init_stack();
            rsshogi::board::perft::compute_perft(&mut pos, 5)
        },
    );
    assert_eq!(n_ours, 19_861_490);
    assert_eq!(n_rs, 19_861_490);
    Row {
        name: "perft 5 bulk",
        unit: "M leaves/s",
        ours: n_ours as f64 / t_ours / 1e6,
        theirs: n_rs as f64 / t_rs / 1e6,
        target: 0.8,
    }
}

/// Legal generation on the 593-move position.
fn legal_on_max(runs: usize, p: &Positions) -> Row {
    let reps = 100_000;
    let (t_ours, n_ours, t_rs, n_rs) = compare(
        runs,
        || {
            let mut total = 0;
            for _ in 0..reps {
                total += black_box(black_box(&p.max).legal_moves()).len();
            }
            total
        },
        || {
            let mut total = 0;
            let mut list = MoveList::new();
            for _ in 0..reps {
                list.clear();
                generate_legal_all(black_box(&p.rs_max), &mut list);
                total += black_box(&list).len();
            }
            total
        },
    );
    assert_eq!(n_ours, 593 * reps);
    assert_eq!(n_rs, 593 * reps);
    Row {
        name: "legal moves, 593-move position",
        unit: "K pos/s",
        ours: reps as f64 / t_ours / 1e3,
        theirs: reps as f64 / t_rs / 1e3,
        target: 1.0,
    }
}

/// Legal generation over the 1,000 entering-king positions.
fn legal_on_bench(runs: usize, p: &Positions) -> Row {
    let passes = 100;
    let (t_ours, n_ours, t_rs, n_rs) = compare(
        runs,
        || {
            let mut total = 0;
            for _ in 0..passes {
                for pos in &p.bench {
                    total += black_box(black_box(pos).legal_moves()).len();
                }
            }
            total
        },
        || {
            let mut total = 0;
            let mut list = MoveList::new();
            for _ in 0..passes {
                for pos in &p.rs_bench {
                    list.clear();
                    generate_legal_all(black_box(pos), &mut list);
                    total += black_box(&list).len();
                }
            }
            total
        },
    );
    assert_eq!(n_ours, n_rs, "same legal move totals");
    let positions = (passes * p.bench.len()) as f64;
    Row {
        name: "legal moves, 1,000 bench positions",
        unit: "K pos/s",
        ours: positions / t_ours / 1e3,
        theirs: positions / t_rs / 1e3,
        target: 1.0,
    }
}

/// Mate in one on the entering-king positions and the 593-move one.
fn mate_in_one(runs: usize, p: &Positions) -> Row {
    let passes = 20;
    let (t_ours, n_ours, t_rs, n_rs) = compare(
        runs,
        || {
            let mut found = 0;
            for _ in 0..passes {
                for pos in p.bench.iter().chain(std::iter::once(&p.max)) {
                    found += usize::from(shogi::solve_mate_in_one(black_box(pos)).is_some());
                }
            }
            found
        },
        || {
            let mut found = 0;
            for _ in 0..passes {
                for pos in p.rs_bench.iter().chain(std::iter::once(&p.rs_max)) {
                    found +=
                        usize::from(rsshogi::mate::solve_mate_in_one(black_box(pos)).is_some());
                }
            }
            found
        },
    );
    assert_eq!(n_ours, n_rs, "same number of mates found");
    let positions = (passes * (p.bench.len() + 1)) as f64;
    Row {
        name: "mate in one, 1,001 positions",
        unit: "K pos/s",
        ours: positions / t_ours / 1e3,
        theirs: positions / t_rs / 1e3,
        target: 0.0,
    }
}

/// SplitMix64 ([`floodgate_scan::rng`]): the positions of random games are the same on
/// every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        let (state, z) = floodgate_scan::rng::splitmix64(self.0);
        self.0 = state;
        (z % n as u64) as usize
    }
}

/// `p` and, when its side to move is not in check, the same position with the other
/// side to move.
fn with_pass(p: Position, out: &mut Vec<Position>) {
    if !p.is_in_check() {
        let mut s = p.to_setup();
        s.side_to_move = !s.side_to_move;
        if let Ok(q) = Position::from_setup(s) {
            out.push(q);
        }
    }
    out.push(p);
}

/// Every second position of `games` random games of up to 200 plies from `start` (one
/// move in three a check when there is one).
fn random_games(start: &Position, games: usize, rng: &mut Rng) -> Vec<Position> {
    let mut out = Vec::new();
    for _ in 0..games {
        let mut p = start.clone();
        for ply in 0..200 {
            let legal = p.legal_moves();
            if legal.is_empty() {
                break;
            }
            let checks: Vec<_> = legal
                .iter()
                .copied()
                .filter(|&m| p.gives_check(m))
                .collect();
            let m = if !checks.is_empty() && rng.below(3) == 0 {
                checks[rng.below(checks.len())]
            } else {
                legal[rng.below(legal.len())]
            };
            p.play(m).unwrap();
            if ply % 2 == 1 {
                with_pass(p.clone(), &mut out);
            }
        }
    }
    out
}

/// `p` with each piece but the kings sent, one time in two, to a random side's hand.
fn to_hands(p: &Position, rng: &mut Rng) -> Option<Position> {
    let mut s = p.to_setup();
    for sq in 0..81 {
        if let Some(pc) = s.board[sq]
            && pc.kind != shogi::PieceKind::King
            && rng.below(2) == 0
        {
            s.board[sq] = None;
            s.hands[rng.below(2)].add(pc.kind.unpromoted());
        }
    }
    Position::from_setup(s).ok()
}

/// Nanoseconds per call of the table solver and of the reference on `set`.
fn mate_tables_vs_play(
    runs: usize,
    name: &'static str,
    set: &[Position],
) -> (String, f64, f64, usize) {
    let passes = (200_000 / set.len()).max(1);
    let answers = |solve: fn(&mut Position) -> Option<shogi::Move>| {
        let mut work = set.to_vec();
        move || {
            let mut found = 0usize;
            let mut sum = 0u64;
            for _ in 0..passes {
                for p in work.iter_mut() {
                    if let Some(m) = solve(black_box(p)) {
                        found += 1;
                        sum = sum.wrapping_mul(31).wrapping_add(m.to_usi().len() as u64);
                    }
                }
            }
            (found, sum)
        }
    };
    let (t_fast, a_fast, t_play, a_play) = compare(
        runs,
        answers(shogi::solve_mate_in_one_in_place),
        answers(shogi::solve_mate_in_one_by_play),
    );
    assert_eq!(a_fast, a_play, "{name}: same answers");
    let calls = (passes * set.len()) as f64;
    (
        format!("{name} ({} positions)", set.len()),
        t_fast / calls * 1e9,
        t_play / calls * 1e9,
        a_fast.0 / passes,
    )
}

fn print_mate_table(runs: usize, p: &Positions) {
    let mut rng = Rng(7);
    let mut bench = Vec::new();
    for q in &p.bench {
        with_pass(q.clone(), &mut bench);
    }
    let games = random_games(&Position::startpos(), 40, &mut rng);
    let mut hands = Vec::new();
    for q in games.iter().step_by(3) {
        if let Some(h) = to_hands(q, &mut rng) {
            with_pass(h, &mut hands);
        }
    }
    println!("\nmate in one: attack tables vs playing the candidates, median of {runs} runs");
    println!(
        "| positions | with a mate | tables ns/call | by play ns/call | speed-up |\n|---|---:|---:|---:|---:|"
    );
    for (name, set) in [
        ("bench and passes", &bench),
        ("random games and passes", &games),
        ("many in hand and passes", &hands),
    ] {
        let (label, fast, play, mates) = mate_tables_vs_play(runs, name, set);
        println!(
            "| {label} | {mates} | {fast:.0} | {play:.0} | {:.2}x |",
            play / fast
        );
    }
}

fn print_table(runs: usize, rows: &[Row]) {
    let clock = if cpu_seconds().is_some() {
        "thread CPU time"
    } else {
        "wall time"
    };
    println!("position core vs rsshogi, median of {runs} interleaved runs ({clock})");
    println!(
        "| measure | unit | floodgate-scan | rsshogi | ratio | target |\n|---|---|---:|---:|---:|---:|"
    );
    for r in rows {
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

fn main() {
    let runs: usize = std::env::var("BENCH_RUNS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5)
        .max(1);
    rsshogi::board::init();
    let p = positions();
    if std::env::var("BENCH_ONLY").is_ok_and(|v| v == "mate") {
        print_mate_table(runs, &p);
        return;
    }
    let rows = [
        perft_played(runs, &p),
        perft_bulk(runs, &p),
        legal_on_max(runs, &p),
        legal_on_bench(runs, &p),
        mate_in_one(runs, &p),
    ];
    print_table(runs, &rows);
    print_mate_table(runs, &p);
}
