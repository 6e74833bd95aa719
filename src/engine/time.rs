//! Search limits from the USI `go` command and the time plan derived from them: byoyomi,
//! increment and sudden death planned apart. A soft target (do not start another
//! iteration; moved by the best move's stability), a hard limit (stop now), and whether
//! time left unused is lost (a byoyomi alone: search to its end less a margin).
use std::time::Duration;

/// What a `go` command asked for. Times are in milliseconds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Limits {
    /// Black's remaining clock time (`btime`).
    pub btime: Option<u64>,
    /// White's remaining clock time (`wtime`).
    pub wtime: Option<u64>,
    /// Black's increment per move (`binc`; 0 if not given).
    pub binc: u64,
    /// White's increment per move (`winc`; 0 if not given).
    pub winc: u64,
    /// The byoyomi of each move (`byoyomi`; 0 if not given).
    pub byoyomi: u64,
    /// A fixed time for this move (`movetime`), less a safety margin.
    pub movetime: Option<u64>,
    /// The last iteration's depth (`depth`, 1 to 64).
    pub depth: Option<u32>,
    /// Stop the search after this many nodes (`nodes`, at least 1).
    pub nodes: Option<u64>,
    /// `go infinite`: no time limit; the answer waits for `stop`.
    pub infinite: bool,
    /// `go ponder`: think on the opponent's time; the answer waits for `ponderhit`
    /// (the clock then applies) or `stop`.
    pub ponder: bool,
    /// `go mate`: a mate search instead of a move, within this many milliseconds
    /// (`u64::MAX` for `go mate infinite`).
    pub mate: Option<u64>,
}

impl Limits {
    /// A depth-only limit.
    pub fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    /// A node-only limit.
    pub fn nodes(n: u64) -> Limits {
        Limits {
            nodes: Some(n),
            ..Limits::default()
        }
    }
}

/// The time plan of one search (`None` = no limit).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimePlan {
    /// The target: do not start another iteration after this time (scaled by the best
    /// move's stability, see [`start_iteration`]).
    pub soft: Option<Duration>,
    /// Stop the search at this time.
    pub hard: Option<Duration>,
    /// Time left unused on this move is lost (byoyomi alone, `movetime`): search to the
    /// hard limit, the unfinished iteration's result kept.
    pub use_all: bool,
}

/// Time kept in reserve for transmission delays.
pub const MARGIN_MS: u64 = 120;
/// Least time spent on a move when the clock allows it.
const MIN_MS: u64 = 10;

/// The reserve kept out of `total` milliseconds available on a move: [`MARGIN_MS`], but
/// never more than a twentieth of the move's time (a 150 ms byoyomi keeps 7 ms, not 120).
fn margin(total: u64) -> u64 {
    MARGIN_MS.min(total / 20)
}

fn millis(ms: u64) -> Option<Duration> {
    Some(Duration::from_millis(ms))
}

/// The time plan for the side to move (`black` = Black to move) at SFEN move `ply`.
///
/// - `movetime` and a byoyomi with no main time left: everything but the margin, to the
///   end ([`TimePlan::use_all`]).
/// - A main time (sudden death, increment, or byoyomi after it): a target of the main
///   time over the moves expected to go (50, falling to 20 as the game goes on) plus the
///   increment and the byoyomi, and never less than the byoyomi; a hard limit of four
///   targets, at most a third of the main time plus the increment and byoyomi, and never
///   more than the clock holds.
pub fn plan(limits: &Limits, black: bool, ply: u32) -> TimePlan {
    let none = TimePlan {
        soft: None,
        hard: None,
        use_all: false,
    };
    if limits.infinite {
        return none;
    }
    if let Some(mt) = limits.movetime {
        let t = millis(mt.saturating_sub(margin(mt)).max(MIN_MS));
        return TimePlan {
            soft: t,
            hard: t,
            use_all: true,
        };
    }
    let (time, inc) = if black {
        (limits.btime, limits.binc)
    } else {
        (limits.wtime, limits.winc)
    };
    let byo = limits.byoyomi;
    let byo_floor = byo.saturating_sub(margin(byo)).max(MIN_MS);
    let time = match time {
        Some(t) if t > 0 || inc > 0 => t,
        _ if byo > 0 => {
            return TimePlan {
                soft: millis(byo_floor),
                hard: millis(byo_floor),
                use_all: true,
            };
        }
        Some(_) => {
            return TimePlan {
                soft: millis(MIN_MS),
                hard: millis(MIN_MS),
                use_all: true,
            };
        }
        None => return none,
    };
    // Clock values may be anything a `go` line can hold: the sums saturate rather than
    // overflow.
    let moves_to_go = 50u64.saturating_sub(ply as u64 / 8).max(20);
    let base = (time / moves_to_go).saturating_add(inc).saturating_add(byo);
    let total = time.saturating_add(byo).saturating_add(inc);
    let available = total.saturating_sub(margin(total)).max(MIN_MS);
    let hard = base
        .saturating_mul(4)
        .min((time / 3).saturating_add(byo).saturating_add(inc))
        .min(available)
        .max(MIN_MS)
        .max(if byo > 0 { byo_floor } else { 0 });
    let soft = base.max(if byo > 0 { byo_floor } else { 0 }).min(hard);
    TimePlan {
        soft: millis(soft),
        hard: millis(hard),
        use_all: false,
    }
}

/// Whether the next iteration of the iterative deepening should start, `elapsed_ms` into
/// the search, when the last one took `last_ms` and the best move has stayed the same
/// for `stable` iterations (0: it changed in the last one).
///
/// Without a clock, always. When unused time is lost ([`TimePlan::use_all`]), until the
/// hard limit. Otherwise only an iteration that can finish (its predicted time, twice the
/// last one's, within the hard limit), and only before the target, which shrinks to 60%
/// when the best move has held for four iterations and grows to 150% when it just changed
/// (never beyond the hard limit).
pub fn start_iteration(plan: &TimePlan, elapsed_ms: u64, last_ms: u64, stable: u32) -> bool {
    let Some(hard) = plan.hard else {
        return true;
    };
    let hard = hard.as_millis() as u64;
    if plan.use_all {
        return elapsed_ms < hard;
    }
    let soft = plan.soft.map_or(hard, |s| s.as_millis() as u64);
    let target = match stable {
        0 => soft.saturating_mul(3) / 2,
        1..=3 => soft,
        _ => soft.saturating_mul(3) / 5,
    }
    .min(hard);
    elapsed_ms < target && elapsed_ms.saturating_add(last_ms.saturating_mul(2)) <= hard
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(d: Option<Duration>) -> u64 {
        d.unwrap().as_millis() as u64
    }

    #[test]
    fn infinite_and_depth_only_have_no_clock() {
        let p = plan(
            &Limits {
                infinite: true,
                btime: Some(1000),
                ..Limits::default()
            },
            true,
            1,
        );
        assert_eq!(p.hard, None);
        assert_eq!(plan(&Limits::depth(5), true, 1).hard, None);
    }

    #[test]
    fn movetime_keeps_a_margin() {
        let p = plan(
            &Limits {
                movetime: Some(1000),
                ..Limits::default()
            },
            true,
            1,
        );
        assert_eq!(ms(p.hard), 1000 - 50);
        assert!(p.use_all);
    }

    #[test]
    fn byoyomi_only_uses_most_of_the_byoyomi() {
        let p = plan(
            &Limits {
                btime: Some(0),
                wtime: Some(0),
                byoyomi: 5000,
                ..Limits::default()
            },
            false,
            80,
        );
        assert!(ms(p.hard) <= 5000 - MARGIN_MS && ms(p.hard) >= 4000);
        assert!(ms(p.soft) <= ms(p.hard));
    }

    #[test]
    fn a_short_byoyomi_keeps_a_twentieth_and_is_used_to_its_end() {
        let p = plan(
            &Limits {
                btime: Some(0),
                wtime: Some(0),
                byoyomi: 200,
                ..Limits::default()
            },
            true,
            30,
        );
        assert_eq!(ms(p.hard), 190);
        assert_eq!(p.soft, p.hard);
        assert!(p.use_all);
        // Every iteration may start until the hard limit, whatever the last one took.
        assert!(start_iteration(&p, 100, 1_000, 9));
        assert!(!start_iteration(&p, 190, 1, 0));
        // A main time of 0 with a byoyomi, or no main time at all: the same plan.
        let q = plan(
            &Limits {
                byoyomi: 200,
                ..Limits::default()
            },
            true,
            30,
        );
        assert_eq!(p, q);
    }

    #[test]
    fn byoyomi_after_the_main_time_is_never_less_than_the_byoyomi() {
        let p = plan(
            &Limits {
                btime: Some(1_000),
                byoyomi: 3_000,
                ..Limits::default()
            },
            true,
            60,
        );
        assert!(ms(p.soft) >= 2_850 && ms(p.hard) >= ms(p.soft), "{p:?}");
        assert!(ms(p.hard) <= 4_000 - 120, "{p:?}");
        assert!(!p.use_all);
    }

    #[test]
    fn an_iteration_starts_only_when_it_can_finish_and_stability_moves_the_target() {
        let p = plan(
            &Limits {
                btime: Some(60_000),
                wtime: Some(60_000),
                ..Limits::default()
            },
            true,
            1,
        );
        let (soft, hard) = (ms(p.soft), ms(p.hard));
        assert_eq!((soft, hard), (1_200, 4_800));
        // Early, a short last iteration: go on.
        assert!(start_iteration(&p, 100, 50, 2));
        // The prediction (twice the last iteration) would cross the hard limit.
        assert!(!start_iteration(&p, 100, 2_400, 2));
        // Past the target with a steady best move; before it when the move just changed.
        assert!(!start_iteration(&p, soft, 10, 2));
        assert!(start_iteration(&p, soft, 10, 0));
        assert!(!start_iteration(&p, soft * 3 / 2, 10, 0));
        // A best move steady for four iterations stops at 60% of the target.
        assert!(!start_iteration(&p, soft * 3 / 5, 10, 4));
        assert!(start_iteration(&p, soft * 3 / 5 - 1, 10, 4));
        // Without a clock, always.
        assert!(start_iteration(
            &plan(&Limits::depth(9), true, 1),
            1 << 40,
            1 << 40,
            0
        ));
    }

    #[test]
    fn sudden_death_never_overspends() {
        for time in [50u64, 300, 1000, 60_000, 600_000] {
            for ply in [1, 100, 400] {
                let p = plan(
                    &Limits {
                        btime: Some(time),
                        wtime: Some(time),
                        binc: 0,
                        winc: 0,
                        ..Limits::default()
                    },
                    true,
                    ply,
                );
                assert!(
                    ms(p.hard) <= time.max(MIN_MS),
                    "time {time} ply {ply}: {p:?}"
                );
                assert!(ms(p.soft) <= ms(p.hard));
            }
        }
    }

    #[test]
    fn absurd_clocks_saturate() {
        for big in [u64::MAX, u64::MAX / 2, i64::MAX as u64] {
            let l = Limits {
                btime: Some(big),
                wtime: Some(big),
                binc: big,
                winc: big,
                byoyomi: big,
                ..Limits::default()
            };
            for black in [true, false] {
                let p = plan(&l, black, 1);
                assert!(ms(p.soft) <= ms(p.hard), "{p:?}");
                // The sums saturate: a huge clock gives a huge plan, not a wrapped one.
                assert!(ms(p.soft) >= big / 100, "{big}: {p:?}");
            }
            for (movetime, byoyomi) in [(Some(big), 0), (None, big)] {
                let p = plan(
                    &Limits {
                        movetime,
                        byoyomi,
                        ..Limits::default()
                    },
                    true,
                    1,
                );
                assert!(ms(p.hard) >= big / 2, "{p:?}");
            }
        }
    }

    #[test]
    fn the_right_clock_is_used() {
        let l = Limits {
            btime: Some(600_000),
            wtime: Some(6_000),
            ..Limits::default()
        };
        assert!(ms(plan(&l, true, 10).soft) > ms(plan(&l, false, 10).soft) * 10);
    }

    #[test]
    fn increment_adds_time() {
        let mut l = Limits {
            btime: Some(10_000),
            ..Limits::default()
        };
        let without = ms(plan(&l, true, 10).soft);
        l.binc = 5_000;
        assert!(ms(plan(&l, true, 10).soft) >= without + 4_000);
    }
}
