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

/// Seconds taken by `f` (CPU time when available) and the value it returned.
pub fn timed<T>(f: &mut impl FnMut() -> T) -> (f64, T) {
    let (c0, w0) = (cpu_seconds(), Instant::now());
    let v = f();
    let secs = match (c0, cpu_seconds()) {
        (Some(a), Some(b)) if b > a => b - a,
        _ => w0.elapsed().as_secs_f64(),
    };
    (secs, v)
}
