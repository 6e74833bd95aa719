//! `floodgate-scan scan`: arguments -> [`ScanConfig`] -> [`scan`] -> printed summary.
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::Context;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::cli::{EXIT_PARTIAL, EXIT_USAGE};
use floodgate_scan::scan::{
    ERRORS_CSV, GAMES_CSV, GAMES_PARQUET, PARQUET_AVAILABLE, Progress, SUMMARY_JSON, ScanConfig,
    ScanError, ScanReport, scan,
};
use floodgate_scan::source::{Input, bundled_inputs, check_openable, expand};

#[derive(Debug, clap::Args)]
pub struct ScanArgs {
    /// Folders, .csa files, .tar, .tar.gz/.tgz, .7z or .zip archives (recognised by
    /// content), or - for a tar (or gzip-compressed tar) stream on standard input. A folder
    /// is searched recursively: its *.csa files are read as one input, and every archive in
    /// it (a download folder of yearly .7z files) as an input of its own, in sorted path
    /// order; other files are counted as skipped. A path that does not exist or cannot be
    /// opened is an error (exit 2) before anything is written. With no input, the fixture
    /// archive built into the program is scanned.
    #[arg(value_name = "INPUT")]
    pub inputs: Vec<String>,
    /// Output folder for games.parquet, games.csv, errors.csv and summary.json.
    #[arg(
        short = 'o',
        long = "out",
        value_name = "OUTDIR",
        default_value = "floodgate-scan-out"
    )]
    pub outdir: PathBuf,
    /// Worker threads (default: one per core). The output does not depend on it.
    #[arg(short = 'j', long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
    /// No progress bar and no printed summary (errors are still reported).
    #[arg(short, long)]
    pub quiet: bool,
    /// Then make the report tables from the scan's games.parquet.
    #[arg(long)]
    pub report: bool,
    /// Write each game id once: when the same game is met again (the same archive named
    /// twice, an archive beside its extracted folder), keep the first in output order and
    /// count the others apart (duplicates_dropped). Without it, duplicates are written,
    /// counted and warned about.
    #[arg(long)]
    pub dedupe: bool,
    /// Print the CPU time of each stage of the scan (read, decode, analyse, order, format,
    /// write) to standard error at its end.
    #[arg(long)]
    pub timings: bool,
}

/// Every named input must exist and open: a typo is a usage error (exit 2), said before
/// anything is written, not an empty result after the others were read.
fn check_inputs(inputs: &[Input]) -> Result<(), Vec<String>> {
    let problems: Vec<String> = inputs
        .iter()
        .filter_map(|input| check_openable(input).err())
        .map(|e| e.to_string())
        .collect();
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}

/// `--timings`: each stage's CPU seconds, and its share of the wall time (1.00: one core
/// busy the whole scan).
fn print_timings(progress: &Progress, elapsed: std::time::Duration) {
    let wall = elapsed.as_secs_f64().max(1e-9);
    eprintln!("stage     CPU (s)  cores busy");
    for (stage, secs) in progress.stages.seconds() {
        eprintln!("{stage:<8} {secs:8.3}  {:10.2}", secs / wall);
    }
    eprintln!("wall     {wall:8.3}");
}

/// The ids seen more than once, said on standard error with the first few.
fn warn_duplicates(report: &ScanReport, dedupe: bool) {
    let s = &report.summary;
    if s.duplicate_games == 0 {
        return;
    }
    let what = if dedupe {
        "left out (--dedupe)"
    } else {
        "written again (use --dedupe to keep the first only)"
    };
    eprintln!(
        "floodgate-scan: warning: {} game{} already seen under the same id, {what}:",
        s.duplicate_games,
        if s.duplicate_games == 1 { "" } else { "s" },
    );
    for d in s.duplicate_sample.iter().take(5) {
        eprintln!("  {d}");
    }
    if s.duplicate_games > 5 {
        eprintln!("  ... (see duplicate_sample in {SUMMARY_JSON})");
    }
}

/// One line per input when there are several: each archive of a folder is its own source.
fn print_inputs(report: &ScanReport) {
    let inputs = &report.summary.inputs;
    if inputs.len() < 2 {
        return;
    }
    println!("  per input:");
    for i in inputs {
        let mut line = format!("    {}: {} games", i.source, i.games);
        for (n, what) in [
            (i.unreadable, "unreadable"),
            (i.skipped, "skipped"),
            (i.duplicates, "duplicates"),
        ] {
            if n > 0 {
                line.push_str(&format!(", {n} {what}"));
            }
        }
        if i.error.is_some() {
            line.push_str(" (failed)");
        }
        println!("{line}");
    }
}

pub fn run(a: ScanArgs) -> anyhow::Result<ExitCode> {
    let config = match config_of(&a)? {
        Ok(config) => config,
        Err(code) => return Ok(code),
    };
    floodgate_scan::interrupt::install();
    let progress = Progress::default();
    let started = Instant::now();
    let report = match scan_with_bar(&config, &progress, !a.quiet) {
        Ok(r) => r,
        Err(ScanError::Interrupted(i)) => {
            return Ok(interrupted(i, &progress, &a.outdir, started.elapsed()));
        }
        Err(e) => return Err(e.into()),
    };
    let elapsed = started.elapsed();
    if a.timings {
        print_timings(&progress, elapsed);
    }
    for e in &report.input_errors {
        eprintln!("floodgate-scan: {e}");
    }
    warn_empty_inputs(&report);
    warn_duplicates(&report, a.dedupe);
    if !a.quiet {
        print_summary(&report, &a.outdir, elapsed);
        print_inputs(&report);
    }
    if a.report {
        if let Some(i) = floodgate_scan::interrupt::received() {
            eprintln!(
                "floodgate-scan: {i} after the scan: its result is complete in {}; the report was not made",
                a.outdir.display()
            );
            return Ok(ExitCode::from(i.exit_code()));
        }
        crate::cli::report::run_after_scan(&a.outdir)
            .with_context(|| format!("report from {}", a.outdir.join(GAMES_PARQUET).display()))?;
    }
    Ok(if report.complete() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_PARTIAL)
    })
}

/// The scan's configuration from the flags, or the exit code of inputs that cannot be
/// read (each problem printed); an error for flags that cannot go together.
fn config_of(a: &ScanArgs) -> anyhow::Result<Result<ScanConfig, ExitCode>> {
    // Said before the scan, not after an hour of it.
    if a.report && !PARQUET_AVAILABLE {
        anyhow::bail!(
            "--report: this build has no `report` feature (polars), which the report tables \
             need; rebuild with default features, or scan without --report"
        );
    }
    let bundled = a.inputs.is_empty();
    let inputs: Vec<Input> = if bundled {
        bundled_inputs()
    } else {
        a.inputs.iter().map(|s| Input::from_arg(s)).collect()
    };
    if inputs.iter().filter(|i| matches!(i, Input::Stdin)).count() > 1 {
        anyhow::bail!("standard input (-) can be given only once");
    }
    if let Err(problems) = check_inputs(&inputs) {
        for p in problems {
            eprintln!("floodgate-scan: error: {p}");
        }
        eprintln!("floodgate-scan: nothing was written (check the input paths)");
        return Ok(Err(ExitCode::from(EXIT_USAGE)));
    }
    if bundled && !a.quiet {
        eprintln!(
            "floodgate-scan: no input given; scanning the fixture archive built into the program"
        );
    }
    Ok(Ok(ScanConfig {
        inputs,
        outdir: a.outdir.clone(),
        jobs: a.jobs.map_or(0, usize::from),
        dedupe: a.dedupe,
    }))
}

/// Run the scan, with a progress bar when `verbose` and on a terminal.
fn scan_with_bar(
    config: &ScanConfig,
    progress: &Progress,
    verbose: bool,
) -> Result<floodgate_scan::scan::ScanReport, ScanError> {
    let show_bar = verbose && std::io::stderr().is_terminal();
    let done = AtomicBool::new(false);
    std::thread::scope(|s| {
        if show_bar {
            let total: Option<u64> = expand(&config.inputs).iter().map(Input::size_hint).sum();
            let done = &done;
            s.spawn(move || draw_progress(progress, total, done));
        }
        let r = scan(config, progress);
        done.store(true, Ordering::Relaxed);
        r
    })
}

/// An input read to its end without a record is most often a wrong path or level: say so
/// (not for a folder of archives, which has no records of its own).
fn warn_empty_inputs(report: &floodgate_scan::scan::ScanReport) {
    let inputs = &report.summary.inputs;
    for i in inputs {
        let prefix = format!(
            "{}{}",
            i.source.trim_end_matches('/'),
            std::path::MAIN_SEPARATOR
        );
        let holds_archives = inputs.iter().any(|o| o.source.starts_with(&prefix));
        if i.error.is_none() && i.entries == 0 && !holds_archives {
            let others = match i.skipped {
                0 => String::new(),
                1 => " (1 other file skipped)".to_string(),
                n => format!(" ({n} other files skipped)"),
            };
            eprintln!(
                "floodgate-scan: warning: {}: no CSA record found{others}",
                i.source
            );
        }
    }
}

/// Say how far an interrupted scan got; its exit code (130 for SIGINT, 143 for SIGTERM).
fn interrupted(
    i: floodgate_scan::interrupt::Interrupted,
    progress: &Progress,
    outdir: &std::path::Path,
    elapsed: Duration,
) -> ExitCode {
    let entries = progress.entries.load(Ordering::Relaxed);
    let bytes = progress.bytes_read.load(Ordering::Relaxed);
    eprintln!(
        "floodgate-scan: {i} after {:.1} s: {entries} entries done, {:.1} MB read; \
         nothing written, {} keeps its earlier files",
        elapsed.as_secs_f64(),
        bytes as f64 / 1e6,
        outdir.display()
    );
    ExitCode::from(i.exit_code())
}

fn draw_progress(progress: &Progress, total: Option<u64>, done: &AtomicBool) {
    let bar = match total {
        Some(t) => ProgressBar::with_draw_target(Some(t), ProgressDrawTarget::stderr()),
        None => ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()),
    };
    let template = if total.is_some() {
        "{elapsed_precise} [{wide_bar}] {bytes}/{total_bytes} {msg} ETA {eta}"
    } else {
        "{elapsed_precise} {spinner} {bytes} {msg}"
    };
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style.progress_chars("=> "));
    }
    let started = Instant::now();
    while !done.load(Ordering::Relaxed) {
        let games = progress.games.load(Ordering::Relaxed);
        let secs = started.elapsed().as_secs_f64().max(1e-3);
        bar.set_position(progress.bytes_read.load(Ordering::Relaxed));
        bar.set_message(format!("{games} games, {:.0} games/s", games as f64 / secs));
        std::thread::sleep(Duration::from_millis(100));
    }
    bar.finish_and_clear();
}

fn print_summary(report: &ScanReport, outdir: &std::path::Path, elapsed: Duration) {
    let s = &report.summary;
    let t = &s.totals;
    let secs = elapsed.as_secs_f64();
    println!(
        "{} entries read from {} input{} in {secs:.1} s ({:.0} games/s)",
        t.entries_seen,
        s.inputs.len(),
        if s.inputs.len() == 1 { "" } else { "s" },
        t.games as f64 / secs.max(1e-3)
    );
    let statuses: Vec<String> = t
        .games_by_status
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    if statuses.is_empty() {
        println!("  games: {}", t.games);
    } else {
        println!("  games: {} ({})", t.games, statuses.join(", "));
    }
    println!(
        "  unreadable entries: {}   failed inputs: {}   non-record files skipped: {}",
        t.unreadable_entries, s.failed_inputs, t.skipped_files
    );
    let years: Vec<String> = t
        .games_by_year
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    println!(
        "  per year: {}",
        if years.is_empty() {
            "none".to_string()
        } else {
            years.join(", ")
        }
    );
    let pct = |r: Option<f64>| r.map_or("n/a".to_string(), |r| format!("{:.2}%", 100.0 * r));
    println!(
        "  final board agrees with trailer: {}   54-point violations: {} of {}   judge agrees with summary: {}",
        pct(s.final_board_match_rate),
        t.points54_violations,
        t.points54_checked,
        pct(s.judge_agreement_rate)
    );
    let mut files = vec![GAMES_CSV, ERRORS_CSV, SUMMARY_JSON];
    if PARQUET_AVAILABLE {
        files.insert(0, GAMES_PARQUET);
    }
    println!("  wrote {} in {}", files.join(", "), outdir.display());
    if !PARQUET_AVAILABLE {
        println!(
            "  ({GAMES_PARQUET} needs a build with the `report` feature; games.csv has the same columns)"
        );
    }
}
