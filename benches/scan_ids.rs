//! The table of game ids a scan keeps to count duplicates, alone: `IDS` distinct ids
//! (default 1,860,000: the 19 yearly archives of the 20,000-game bench corpus named 93
//! times, had every game its own id) looked up one after the other, as the ordered writer
//! looks up every game, then all of them once more (every game a duplicate). Prints the
//! heap the table holds at the end and at its peak (a counting allocator: the peak includes
//! the moment a growing table holds its old and new storage), bytes an id, the process's
//! peak resident memory before and after, and the time a look-up.
//!
//! `cargo bench --bench scan_ids --no-default-features`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use floodgate_scan::scan::output_stage::IdTable;

/// The system allocator, counting the bytes held now and at most.
struct Counting;

static HELD: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is passed on to the system allocator.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = HELD.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) };
        HELD.fetch_sub(layout.size(), Ordering::Relaxed);
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// A field of `/proc/self/status` in kB (`VmHWM`, `VmRSS`), 0 where it cannot be read.
fn status_kb(field: &str) -> usize {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix(field)?.strip_prefix(':').map(str::to_owned))
        })
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

fn main() {
    let n: usize = std::env::var("IDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_860_000);
    // Ids shaped like the archive's: event, players, start time.
    let id = |i: usize| {
        format!(
            "wdoor+floodgate-300-10F+player{}+player{}+{}",
            i % 997,
            i % 991,
            20_080_000_000_000u64 + i as u64
        )
    };
    let (hwm0, heap0) = (status_kb("VmHWM"), HELD.load(Ordering::Relaxed));
    PEAK.store(heap0, Ordering::Relaxed);
    let mut table = IdTable::new();
    let start = Instant::now();
    let mut first = 0usize;
    let mut text = String::new();
    for i in 0..n {
        text.clear();
        text.push_str(&id(i));
        first += usize::from(table.first_sighting(&text));
    }
    let insert = start.elapsed().as_secs_f64();
    let start = Instant::now();
    let mut again = 0usize;
    for i in 0..n {
        again += usize::from(!table.first_sighting(&id(i)));
    }
    let lookup = start.elapsed().as_secs_f64();
    assert_eq!((first, again), (n, n), "every id new once, then seen");
    let held = HELD.load(Ordering::Relaxed) - heap0;
    let peak = PEAK.load(Ordering::Relaxed) - heap0;
    let hwm = status_kb("VmHWM");
    drop(table);
    println!("id table: {n} distinct ids");
    println!(
        "| heap held (MB) | heap peak (MB) | bytes an id (held) | peak RSS before (MB) | peak RSS after (MB) | ns an insert | ns a look-up (seen) |"
    );
    println!("|---|---|---|---|---|---|---|");
    println!(
        "| {:.1} | {:.1} | {:.1} | {:.1} | {:.1} | {:.0} | {:.0} |",
        held as f64 / 1e6,
        peak as f64 / 1e6,
        held as f64 / n as f64,
        hwm0 as f64 * 1024.0 / 1e6,
        hwm as f64 * 1024.0 / 1e6,
        insert / n as f64 * 1e9,
        lookup / n as f64 * 1e9,
    );
}
