//! Where a scan's CPU time goes, stage by stage (`scan --timings`): each thread adds its
//! own CPU time to its stage when it ends, so the figures cost nothing while the scan runs.
//!
//! - read: the readers' time in the kernel (the input's bytes read from files);
//! - decode: the readers' own time (decompression, the container's format, records cut out);
//! - analyse: the workers (record read, replayed, judged, its row encoded; a folder's
//!   files are read by the workers, and their kernel time counts here);
//! - order: the ordered writer (results put in order, duplicates looked up, spill files);
//! - format: CSV lines and Parquet columns made, encoded and compressed;
//! - write: the finished pieces written to the files, in order.
//!
//! Thread CPU times are read from `/proc/thread-self` (Linux); elsewhere every figure is 0.
use std::sync::atomic::{AtomicU64, Ordering};

/// CPU nanoseconds per stage, summed over the stage's threads.
#[derive(Debug, Default)]
pub struct StageTimes {
    /// Readers, in the kernel.
    pub read: AtomicU64,
    /// Readers, in the program.
    pub decode: AtomicU64,
    /// Workers.
    pub analyse: AtomicU64,
    /// The ordered writer.
    pub order: AtomicU64,
    /// Formatting threads (and the compression they hand to the thread pool).
    pub format: AtomicU64,
    /// Writing the formatted pieces.
    pub write: AtomicU64,
}

impl StageTimes {
    /// `(stage, seconds)` in pipeline order.
    pub fn seconds(&self) -> [(&'static str, f64); 6] {
        let s = |a: &AtomicU64| a.load(Ordering::Relaxed) as f64 / 1e9;
        [
            ("read", s(&self.read)),
            ("decode", s(&self.decode)),
            ("analyse", s(&self.analyse)),
            ("order", s(&self.order)),
            ("format", s(&self.format)),
            ("write", s(&self.write)),
        ]
    }
}

/// Add `ns` to a stage.
pub fn add(stage: &AtomicU64, ns: u64) {
    stage.fetch_add(ns, Ordering::Relaxed);
}

/// The CPU time of the calling thread so far: total nanoseconds, and the share of it spent
/// in the kernel (from the user and system clock ticks).
#[derive(Debug, Clone, Copy, Default)]
pub struct ThreadCpu {
    pub ns: u64,
    user_ticks: u64,
    sys_ticks: u64,
}

impl ThreadCpu {
    /// Now (zero where the system does not say).
    pub fn now() -> ThreadCpu {
        read_thread_cpu().unwrap_or_default()
    }

    /// Nanoseconds since `earlier`.
    pub fn since(&self, earlier: &ThreadCpu) -> u64 {
        self.ns.saturating_sub(earlier.ns)
    }

    /// Nanoseconds since `earlier`, split into (kernel, user) by the ticks' shares.
    pub fn split_since(&self, earlier: &ThreadCpu) -> (u64, u64) {
        let ns = self.since(earlier);
        let user = self.user_ticks.saturating_sub(earlier.user_ticks);
        let sys = self.sys_ticks.saturating_sub(earlier.sys_ticks);
        if user + sys == 0 {
            return (0, ns);
        }
        let kernel = (ns as u128 * sys as u128 / (user + sys) as u128) as u64;
        (kernel, ns - kernel)
    }
}

#[cfg(target_os = "linux")]
fn read_thread_cpu() -> Option<ThreadCpu> {
    let sched = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns = sched.split_whitespace().next()?.parse().ok()?;
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // The fields after the command name (which may hold spaces), from field 3 on: utime
    // and stime are fields 14 and 15.
    let rest = &stat[stat.rfind(')')? + 1..];
    let mut fields = rest.split_whitespace().skip(11);
    let user_ticks = fields.next()?.parse().ok()?;
    let sys_ticks = fields.next()?.parse().ok()?;
    Some(ThreadCpu {
        ns,
        user_ticks,
        sys_ticks,
    })
}

#[cfg(not(target_os = "linux"))]
fn read_thread_cpu() -> Option<ThreadCpu> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The thread's clock advances while it works (however loaded the machine: the loop
    /// runs until it has, or for ten seconds), and the kernel/user split adds up.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_busy_thread_has_cpu_time() {
        let t0 = ThreadCpu::now();
        let mut x = 0u64;
        let start = std::time::Instant::now();
        let mut t1 = t0;
        while t1.since(&t0) < 20_000_000 && start.elapsed().as_secs() < 10 {
            for _ in 0..100_000 {
                x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
            }
            t1 = ThreadCpu::now();
        }
        assert!(t1.since(&t0) >= 20_000_000, "{t0:?} {t1:?}");
        let (kernel, user) = t1.split_since(&t0);
        assert_eq!(kernel + user, t1.since(&t0));
        assert_eq!(ThreadCpu::default().since(&t1), 0, "never negative");
    }
}
