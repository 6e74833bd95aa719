//! Search limits from the USI `go` command and the time plan derived from them: a soft
//! limit (do not start another iteration) and a hard limit (stop now), from the clock of
//! the side to move, its increment and the byoyomi.
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

/// Soft and hard time limits of one search (`None` = no limit).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimePlan {
    /// Do not start another iteration after this time.
    pub soft: Option<Duration>,
    /// Stop the search at this time.
    pub hard: Option<Duration>,
}

/// Time kept in reserve for transmission delays.
pub const MARGIN_MS: u64 = 120;
/// Least time spent on a move when the clock allows it.
const MIN_MS: u64 = 10;

/// The reserve kept out of `total` milliseconds available on a move: [`MARGIN_MS`], but
/// never more than a fifth of the move's time (a 200 ms byoyomi keeps 40 ms, not 120).
fn margin(total: u64) -> u64 {
    MARGIN_MS.min(total / 5)
}

/// The time plan for the side to move (`black` = Black to move) at SFEN move `ply`.
pub fn plan(limits: &Limits, black: bool, ply: u32) -> TimePlan {
    if limits.infinite {
        return TimePlan {
            soft: None,
            hard: None,
        };
    }
    if let Some(mt) = limits.movetime {
        let t = Duration::from_millis(mt.saturating_sub(margin(mt)).max(MIN_MS));
        return TimePlan {
            soft: Some(t),
            hard: Some(t),
        };
    }
    let (time, inc) = if black {
        (limits.btime, limits.binc)
    } else {
        (limits.wtime, limits.winc)
    };
    let byo = limits.byoyomi;
    let Some(time) = time else {
        if byo > 0 {
            let hard = byo.saturating_sub(margin(byo)).max(MIN_MS);
            return TimePlan {
                soft: Some(Duration::from_millis((hard as u128 * 7 / 10) as u64)),
                hard: Some(Duration::from_millis(hard)),
            };
        }
        return TimePlan {
            soft: None,
            hard: None,
        };
    };
    // Expect fewer moves to go as the game goes on, but never fewer than 20. Clock values
    // may be anything a `go` line can hold: the sums saturate rather than overflow.
    let moves_to_go = 50u64.saturating_sub(ply as u64 / 8).max(20);
    let base = (time / moves_to_go).saturating_add(inc).saturating_add(byo);
    // Never plan to use more than the clock can give on this move.
    let total = time.saturating_add(byo).saturating_add(inc);
    let available = total.saturating_sub(margin(total)).max(MIN_MS);
    let hard = base
        .saturating_mul(4)
        .min((time / 3).saturating_add(byo).saturating_add(inc))
        .min(available)
        .max(MIN_MS);
    let soft = base.min(hard);
    TimePlan {
        soft: Some(Duration::from_millis(soft)),
        hard: Some(Duration::from_millis(hard)),
    }
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
        assert_eq!(ms(p.hard), 1000 - MARGIN_MS);
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
    fn a_short_byoyomi_keeps_a_fifth() {
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
        assert_eq!(ms(p.hard), 160);
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
