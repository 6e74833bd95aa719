//! The output stage of a scan alone: rows already analysed and encoded, as the workers hand
//! them on, go through the ordered writer's side of the pipeline (duplicate look-up, row
//! groups to the formatting threads, CSV lines and Parquet columns made, encoded,
//! compressed and written in order), and the rows a second it sustains are printed. The
//! scan's workers produce rows at about `jobs / analyse-CPU-a-game`; the output keeps up
//! while this figure is above that.
//!
//! `cargo bench --bench scan_output [-- INPUT]`: the rows are those of INPUT's games (any
//! scan input), or of the fixtures built into the binary, repeated up to `ROWS` rows
//! (default 300,000). `FORMATTERS` (default: the number of cores) formatting threads,
//! `BENCH_RUNS` (default 3) runs, the median printed. Written into a temporary folder
//! removed at the end.
//!
//! A second table times the CSV lines alone, on one thread, made by the scan's hand-written
//! writer and by the `csv` crate's writer (the two must give the same bytes, checked), in
//! nanoseconds a row, the runs interleaved; `BENCH_ONLY=csv` prints that table alone.

use std::sync::atomic::AtomicU64;
use std::time::Instant;

use floodgate_scan::game::analyse_record;
use floodgate_scan::scan::output_stage::{self, Row};
use floodgate_scan::source::{Event, Input, ReadBuffer, bundled_inputs, read_input};

fn env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The encoded rows of every game of `inputs`.
fn rows_of(inputs: &[Input]) -> Vec<Row> {
    let counter = AtomicU64::new(0);
    let mut buffer = ReadBuffer::default();
    let mut rows = Vec::new();
    for input in inputs {
        let mut sink = |e: Event<'_>| {
            let name = e.name().to_string();
            let source = input.name();
            if let Some(Ok(Ok(game))) =
                e.with_record(&mut buffer, |b| analyse_record(&source, &name, b))
            {
                rows.push(Row::new(&game));
            }
            true
        };
        if let Err(e) = read_input(input, &counter, &mut sink) {
            eprintln!("{e}");
        }
    }
    rows
}

/// The CSV lines alone: the hand-written writer beside the `csv` crate's, interleaved.
fn csv_table(rows: &[Row], runs: usize) {
    let mut hand = Vec::new();
    let mut by_crate = Vec::new();
    for _ in 0..runs {
        for (by, times) in [(false, &mut hand), (true, &mut by_crate)] {
            let cpu = process_cpu();
            let wall = Instant::now();
            let bytes = output_stage::csv_lines(rows, by).expect("csv lines");
            let wall = wall.elapsed().as_secs_f64();
            let cpu = process_cpu() - cpu;
            std::hint::black_box(&bytes);
            times.push((wall, cpu, bytes.len()));
        }
    }
    let same = output_stage::csv_lines(rows, false).unwrap()
        == output_stage::csv_lines(rows, true).unwrap();
    assert!(same, "the two writers differ");
    let median = |v: &mut Vec<(f64, f64, usize)>| {
        v.sort_by(|a, b| a.0.total_cmp(&b.0));
        v[v.len() / 2]
    };
    let (h, c) = (median(&mut hand), median(&mut by_crate));
    let n = rows.len() as f64;
    println!(
        "CSV lines alone: {} rows, one thread, median of {runs} (wall), same bytes: {same}",
        rows.len()
    );
    println!("| writer | ns a row (wall) | CPU (s) | MB |");
    println!("|---|---|---|---|");
    println!(
        "| hand-written | {:.0} | {:.3} | {:.1} |",
        h.0 / n * 1e9,
        h.1,
        h.2 as f64 / 1e6
    );
    println!(
        "| csv crate | {:.0} | {:.3} | {:.1} |",
        c.0 / n * 1e9,
        c.1,
        c.2 as f64 / 1e6
    );
    println!("csv crate / hand-written: {:.2}", c.0 / h.0);
}

fn main() {
    let arg = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let inputs = match &arg {
        Some(path) => vec![Input::from_arg(path)],
        None => bundled_inputs(),
    };
    let base = rows_of(&inputs);
    assert!(!base.is_empty(), "no game in the input");
    let want = env("ROWS", 300_000);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let formatters = env("FORMATTERS", cores);
    let runs = env("BENCH_RUNS", 3);
    if std::env::var("BENCH_ONLY").is_ok_and(|v| v == "csv") {
        let rows: Vec<Row> = base.iter().cycle().take(want).cloned().collect();
        csv_table(&rows, runs);
        return;
    }
    let out = std::env::temp_dir().join(format!("floodgate-scan-output-{}", std::process::id()));
    let mut walls = Vec::new();
    let mut cpus = Vec::new();
    for _ in 0..runs {
        let rows: Vec<Row> = base.iter().cycle().take(want).cloned().collect();
        let (wall, cpu) = (Instant::now(), process_cpu());
        output_stage::write(&out, rows, formatters, false).expect("the output stage failed");
        walls.push(wall.elapsed().as_secs_f64());
        cpus.push(process_cpu() - cpu);
    }
    let bytes = |name: &str| std::fs::metadata(out.join(name)).map_or(0, |m| m.len());
    let (csv, parquet) = (bytes("games.csv"), bytes("games.parquet"));
    let _ = std::fs::remove_dir_all(&out);
    walls.sort_by(f64::total_cmp);
    cpus.sort_by(f64::total_cmp);
    let (wall, cpu) = (walls[runs / 2], cpus[runs / 2]);
    println!(
        "output stage: {want} rows ({} distinct), {formatters} formatting threads, {cores} cores, \
         median of {runs}",
        base.len()
    );
    println!(
        "| rows/s (wall) | wall (s) | CPU (s) | CPU us a row | games.csv (MB) | games.parquet (MB) |"
    );
    println!("|---|---|---|---|---|---|");
    println!(
        "| {:.0} | {wall:.3} | {cpu:.3} | {:.2} | {:.1} | {:.1} |",
        want as f64 / wall,
        cpu / want as f64 * 1e6,
        csv as f64 / 1e6,
        parquet as f64 / 1e6
    );
    let rows: Vec<Row> = base.iter().cycle().take(want).cloned().collect();
    csv_table(&rows, runs);
}

/// CPU seconds of the whole process so far (user + system), from `/proc/self/stat`; 0
/// where it cannot be read.
fn process_cpu() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    let Some(rest) = stat.rfind(')').map(|i| &stat[i + 1..]) else {
        return 0.0;
    };
    let ticks: Vec<f64> = rest
        .split_whitespace()
        .skip(11)
        .take(2)
        .filter_map(|v| v.parse().ok())
        .collect();
    ticks.iter().sum::<f64>() / 100.0
}
