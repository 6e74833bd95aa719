//! Where a scan's CPU time goes, one phase at a time: taking the records out of the input
//! (a folder's files opened, read and closed one by one, a `.tar` file's records read
//! where they lie, or an archive's entries read out of it) and nothing else; then, on records already in memory, reading the record text,
//! replaying it through the core, and the whole per-game analysis (replay, final board,
//! judge, row). One thread, so the figures are the per-game work itself (microseconds of
//! CPU a game, the kernel's part included).
//!
//! `cargo bench --bench scan_phases --no-default-features [-- INPUT]`: INPUT is any scan
//! input (folder, `.tar`, `.7z`, ...); without it, the fixtures built into the binary,
//! repeated until there are enough records to time. `BENCH_RUNS` (default 5) runs a phase,
//! the median is printed.

use std::hint::black_box;
use std::sync::atomic::AtomicU64;

#[path = "support/clock.rs"]
mod clock;

use clock::timed;
use floodgate_scan::csa::read_record;
use floodgate_scan::game::{analyze_record, replay};
use floodgate_scan::source::{Event, Input, bundled_inputs, read_input, with_file, with_span};

/// Run `f` on every event of reading `inputs` as a scan reads them.
fn each_event(inputs: &[Input], mut f: impl FnMut(Event<'_>)) {
    let counter = AtomicU64::new(0);
    for input in inputs {
        let mut sink = |e: Event<'_>| {
            f(e);
            true
        };
        if let Err(e) = read_input(input, &counter, &mut sink) {
            eprintln!("{e}");
        }
    }
}

/// `f` on the bytes of the record an event names, read as a worker reads them (a folder's
/// file, a `.tar` file's record where it lies); `None` for an event that is no record or a
/// record that cannot be read.
fn record<T>(e: Event<'_>, f: impl FnOnce(&[u8]) -> T) -> Option<(String, T)> {
    match e {
        Event::Entry { name, bytes } => Some((name, f(bytes))),
        Event::File { name, path } => with_file(&path, f).ok().map(|v| (name, v)),
        Event::Span {
            name,
            file,
            offset,
            len,
        } => with_span(&file, offset, len, f).ok().map(|v| (name, v)),
        Event::Unreadable { .. } | Event::Skipped { .. } => None,
    }
}

/// Every record of `inputs`, as (entry name, bytes).
fn load(inputs: &[Input]) -> Vec<(String, Vec<u8>)> {
    let mut records = Vec::new();
    each_event(inputs, |e| records.extend(record(e, <[u8]>::to_vec)));
    records
}

/// Take every record out of `inputs` as a scan does (a folder's files through the scan's
/// own file reader), analysing nothing: the bytes read.
fn input_only(inputs: &[Input]) -> usize {
    let mut total = 0usize;
    each_event(inputs, |e| {
        total += record(e, |b| black_box(b).len()).map_or(0, |(_, n)| n);
    });
    total
}

/// The reader thread's share of [`input_only`]: a folder's files and a `.tar` file's
/// records only listed (the workers read them), other archives' entries read out.
fn reader_only(inputs: &[Input]) -> usize {
    let mut total = 0usize;
    each_event(inputs, |e| {
        total += match e {
            Event::Entry { bytes, .. } => black_box(bytes).len(),
            Event::File { .. } | Event::Span { .. } => 1,
            Event::Unreadable { .. } | Event::Skipped { .. } => 0,
        };
    });
    total
}

/// Median CPU seconds of `runs` runs of `f` over all records.
fn time(runs: usize, records: &[(String, Vec<u8>)], f: impl Fn(&str, &[u8]) -> usize) -> f64 {
    let mut secs: Vec<f64> = (0..runs)
        .map(|_| {
            let (secs, sum) = timed(&mut || {
                records.iter().fold(0usize, |sum, (name, bytes)| {
                    sum.wrapping_add(f(name, bytes))
                })
            });
            black_box(sum);
            secs
        })
        .collect();
    secs.sort_by(f64::total_cmp);
    secs[secs.len() / 2]
}

fn main() {
    let arg = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let runs = std::env::var("BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5);
    let inputs = match &arg {
        Some(path) => vec![Input::from_arg(path)],
        None => bundled_inputs(),
    };
    let mut records = load(&inputs);
    let input_records = records.len().max(1);
    if arg.is_none() {
        let base = records.clone();
        while records.len() < 20_000 {
            records.extend(base.iter().cloned());
        }
    }
    let games = records.len();
    let bytes: usize = records.iter().map(|(_, b)| b.len()).sum();
    println!(
        "{games} records, {:.1} MB, median of {runs} runs",
        bytes as f64 / 1e6
    );

    // Taken out of the input once per run (the bundled records are counted once, however
    // often they are repeated below).
    let median_of_runs = |f: &dyn Fn() -> usize| {
        let mut secs: Vec<f64> = (0..runs).map(|_| timed(&mut || f()).0).collect();
        secs.sort_by(f64::total_cmp);
        secs[secs.len() / 2]
    };
    let reader_secs = median_of_runs(&|| reader_only(&inputs));
    let read_input_secs = median_of_runs(&|| input_only(&inputs));
    let read = time(runs, &records, |_, b| {
        read_record(b).map_or(0, |r| r.moves.len())
    });
    let replayed = time(runs, &records, |_, b| {
        let Ok(rec) = read_record(b) else { return 0 };
        let Ok(start) = replay::start_position(&rec) else {
            return 0;
        };
        replay::replay(start, &rec.moves, false).played
    });
    let analysed = time(runs, &records, |n, b| {
        analyze_record("bench", n, b).map_or(0, |r| r.plies as usize)
    });
    println!("| phase | CPU us / game | games/s on one core |");
    println!("|---|---|---|");
    for (phase, secs) in [
        (
            "take the records out of the input (nothing analysed)",
            read_input_secs,
        ),
        (
            "the reader thread's part of it (files and `.tar` records only listed)",
            reader_secs,
        ),
    ] {
        let per = secs / input_records as f64;
        println!("| {phase} | {:.2} | {:.0} |", per * 1e6, 1.0 / per);
    }
    for (phase, secs) in [
        ("read the record", read),
        ("read + replay", replayed),
        ("analyze_record (all)", analysed),
    ] {
        let per = secs / games as f64;
        println!("| {phase} | {:.2} | {:.0} |", per * 1e6, 1.0 / per);
    }
}
