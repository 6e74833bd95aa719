//! Timing for the benchmarks: thread CPU time where the system offers it, so that the
//! waiting a busy shared machine adds to wall time does not count.
use std::time::Instant;

/// Time spent running on the CPU by this thread, in seconds. Linux
/// (`/proc/thread-self/schedstat`); `None` elsewhere (the wall clock is used then).
pub fn cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns as f64 / 1e9)
}

/// The thread CPU clock of Linux advances in scheduler ticks (4 ms here): a measurement is
/// made of calls adding up to at least this long, so that a tick is at most 2% of it.
const MIN_SECONDS: f64 = 0.2;

/// Seconds one call of `f` takes (CPU time when available) and the value of its last call.
/// `f` is called as many times as it takes to run [`MIN_SECONDS`] (once for anything
/// longer); every call must do the same work.
pub fn timed<T>(f: &mut impl FnMut() -> T) -> (f64, T) {
    let (c0, w0) = (cpu_seconds(), Instant::now());
    let mut calls = 0u32;
    let v = loop {
        let v = f();
        calls += 1;
        if w0.elapsed().as_secs_f64() >= MIN_SECONDS {
            break v;
        }
    };
    let secs = match (c0, cpu_seconds()) {
        (Some(a), Some(b)) if b > a => b - a,
        _ => w0.elapsed().as_secs_f64(),
    };
    (secs / f64::from(calls), v)
}
