//! Where a scan's CPU time goes, one phase at a time: taking the records out of the input
//! (a folder's files opened, read and closed one by one, a `.tar` file read a block at a
//! time, or an archive's entries read out of it) and nothing else; then, on
//! records already in memory, reading the record text, replaying it through the core, and
//! the whole per-game analysis (replay, final board, judge, row). One thread, so the
//! figures are the per-game work itself (microseconds of CPU a game, the kernel's part
//! included).
//!
//! Then two floors, the least the first two phases could cost: the records only split at
//! their newlines (no record built), and the games' moves, parsed beforehand, only played
//! through the core, or checked and played (no move text read, no repetition count, no
//! entering-king test).
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
use floodgate_scan::game::{analyse_record, playthrough};
use floodgate_scan::shogi::{Move, Position};
use floodgate_scan::source::{Event, Input, ReadBuffer, bundled_inputs, read_input};

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
/// file, a record of a `.tar` file's block); `None` for an event that is no record or a
/// record that cannot be read.
fn record<T>(
    e: Event<'_>,
    buffer: &mut ReadBuffer,
    f: impl FnOnce(&[u8]) -> T,
) -> Option<(String, T)> {
    let v = e.with_record(buffer, f)?.ok()?;
    Some((e.name().to_string(), v))
}

/// Every record of `inputs`, as (entry name, bytes).
fn load(inputs: &[Input]) -> Vec<(String, Vec<u8>)> {
    let mut records = Vec::new();
    let mut buffer = ReadBuffer::default();
    each_event(inputs, |e| {
        records.extend(record(e, &mut buffer, <[u8]>::to_vec))
    });
    records
}

/// Take every record out of `inputs` as a scan does (a folder's files through the scan's
/// own file reader), analysing nothing: the bytes read.
fn input_only(inputs: &[Input]) -> usize {
    let mut total = 0usize;
    let mut buffer = ReadBuffer::default();
    each_event(inputs, |e| {
        total += record(e, &mut buffer, |b| black_box(b).len()).map_or(0, |(_, n)| n);
    });
    total
}

/// The reader thread's share of [`input_only`]: a folder's files only listed (the workers
/// read them), a `.tar` file's blocks and other archives' entries read out.
fn reader_only(inputs: &[Input]) -> usize {
    let mut total = 0usize;
    each_event(inputs, |e| {
        total += match e {
            Event::Entry { bytes, .. } => black_box(bytes).len(),
            Event::Shared { bytes, .. } => black_box(bytes.bytes()).len(),
            Event::File { .. } | Event::Span { .. } => 1,
            Event::Unreadable { .. } | Event::Skipped { .. } => 0,
        };
    });
    total
}

/// The least a reader must do: split a record at its newlines and look at the first byte
/// of each line, keeping the move lines. No record is built; a floor for "read the record".
fn split_lines(bytes: &[u8], moves: &mut Vec<usize>) -> usize {
    moves.clear();
    let mut start = 0;
    let mut kinds = 0usize;
    for end in memchr::memchr_iter(b'\n', bytes) {
        let line = &bytes[start..end];
        match line.first() {
            Some(b'+' | b'-') if line.len() >= 7 => moves.push(start),
            Some(&b) => kinds = kinds.wrapping_add(usize::from(b)),
            None => {}
        }
        start = end + 1;
    }
    moves.len().wrapping_add(kinds)
}

/// Each record's starting position and its legal moves as the core's moves, parsed once
/// (untimed): the input of the replay floors.
fn parsed_games(records: &[(String, Vec<u8>)]) -> Vec<(Position, Vec<Move>)> {
    records
        .iter()
        .filter_map(|(_, b)| {
            let rec = read_record(b).ok()?;
            let start = playthrough::start_position(&rec).ok()?;
            let mut pos = start.clone();
            let mut moves = Vec::with_capacity(rec.moves.len());
            for ml in &rec.moves {
                let Ok(m) = playthrough::parse_move(&pos, ml.text) else {
                    break;
                };
                if pos.legality(m).is_err() {
                    break;
                }
                pos.play_unchecked(m);
                moves.push(m);
            }
            Some((start, moves))
        })
        .collect()
}

/// Median CPU seconds of `runs` runs of `f` (its result kept from the optimiser).
fn median<T>(runs: usize, mut f: impl FnMut() -> T) -> f64 {
    let mut secs: Vec<f64> = (0..runs)
        .map(|_| {
            let (secs, v) = timed(&mut f);
            black_box(v);
            secs
        })
        .collect();
    secs.sort_by(f64::total_cmp);
    secs[secs.len() / 2]
}

/// Median CPU seconds of `runs` runs of `f` over all records.
fn time(runs: usize, records: &[(String, Vec<u8>)], f: impl Fn(&str, &[u8]) -> usize) -> f64 {
    median(runs, || {
        records.iter().fold(0usize, |sum, (name, bytes)| {
            sum.wrapping_add(f(name, bytes))
        })
    })
}

/// Median CPU seconds of `runs` runs of `f` on every move of the parsed games, each game
/// from its start.
fn time_games(
    runs: usize,
    games: &[(Position, Vec<Move>)],
    f: impl Fn(&mut Position, Move) -> u64,
) -> f64 {
    median(runs, || {
        games.iter().fold(0u64, |sum, (start, moves)| {
            let mut pos = start.clone();
            moves
                .iter()
                .fold(sum, |sum, &m| sum.wrapping_add(f(&mut pos, m)))
        })
    })
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
    let reader_secs = median(runs, || reader_only(&inputs));
    let read_input_secs = median(runs, || input_only(&inputs));
    let read = time(runs, &records, |_, b| {
        read_record(b).map_or(0, |r| r.moves.len())
    });
    let replayed = time(runs, &records, |_, b| {
        let Ok(rec) = read_record(b) else { return 0 };
        let Ok(start) = playthrough::start_position(&rec) else {
            return 0;
        };
        playthrough::play_through(start, &rec.moves, false).played
    });
    let analysed = time(runs, &records, |n, b| {
        analyse_record("bench", n, b).map_or(0, |r| r.plies as usize)
    });
    // Floors: the least each of the first two phases could cost.
    let split = {
        let moves = std::cell::RefCell::new(Vec::with_capacity(512));
        time(runs, &records, |_, b| {
            split_lines(b, &mut moves.borrow_mut())
        })
    };
    let parsed = parsed_games(&records);
    let plies: usize = parsed.iter().map(|(_, m)| m.len()).sum();
    let played = time_games(runs, &parsed, |pos, m| {
        pos.play_unchecked(m);
        pos.key()
    });
    let checked = time_games(runs, &parsed, |pos, m| {
        let ok = pos.legality(m).is_ok();
        pos.play_unchecked(m);
        pos.key() ^ u64::from(ok)
    });
    println!("| phase | CPU us / game | games/s on one core |");
    println!("|---|---|---|");
    for (phase, secs) in [
        (
            "take the records out of the input (nothing analysed)",
            read_input_secs,
        ),
        (
            "the reader thread's part of it (a folder's files only listed)",
            reader_secs,
        ),
    ] {
        let per = secs / input_records as f64;
        println!("| {phase} | {:.2} | {:.0} |", per * 1e6, 1.0 / per);
    }
    for (phase, secs) in [
        ("read the record", read),
        ("read + replay", replayed),
        ("analyse_record (all)", analysed),
        (
            "floor of reading: lines split at newlines, first byte looked at, no record built",
            split,
        ),
    ] {
        let per = secs / games as f64;
        println!("| {phase} | {:.2} | {:.0} |", per * 1e6, 1.0 / per);
    }
    // The replay floors are over the games whose start position could be read; per game of
    // those, and per ply.
    let (n, plies) = (parsed.len().max(1) as f64, plies.max(1) as f64);
    for (phase, secs) in [
        (
            "floor of replay: the moves, parsed beforehand, only played",
            played,
        ),
        (
            "floor of replay: the moves, parsed beforehand, checked and played",
            checked,
        ),
    ] {
        println!(
            "| {phase} ({:.0} ns a ply) | {:.2} | {:.0} |",
            secs / plies * 1e9,
            secs / n * 1e6,
            n / secs
        );
    }
}
