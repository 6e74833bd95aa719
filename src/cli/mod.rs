//! The command line, part of the binary, not of the library: the only layer that knows
//! flags, standard error, exit codes, progress bars and `anyhow`. Each subcommand lives in
//! its own file with the same shape: arguments -> configuration -> library call ->
//! summary (`play.rs` holds what the self-play subcommands share; the library side of
//! those is [`floodgate_scan::lab`]).
//!
//! Exit codes: 0 success (every entry read), 1 partial failure (some input could not be
//! read; the rest was processed and written), 2 usage or fatal error (bad flag, bad
//! SFEN or move, unwritable output, an output folder another run is writing, an internal
//! error), 130 and 143 a scan stopped by SIGINT (Ctrl-C) or SIGTERM.
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod bench;
mod learn;
mod perft;
mod play;
mod position;
mod positions;
mod replay;
mod report;
mod scan;
mod sprt;
mod standin;
mod tune;
mod usi;
mod validate;

/// Exit code for a partial failure: some input was unreadable, the rest was written.
pub const EXIT_PARTIAL: u8 = 1;
/// Exit code for a usage error or a fatal error.
pub const EXIT_USAGE: u8 = 2;

#[derive(Debug, Parser)]
#[command(
    name = "floodgate-scan",
    version,
    about = "Read, replay and audit the floodgate shogi archive; entering-king report tables; a USI engine",
    long_about = None
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Count the leaf nodes of the legal move tree (perft), optionally split per move.
    Perft(perft::PerftArgs),
    /// Show a position: legal moves, check, mate in one, points and declaration verdicts.
    Position(position::PositionArgs),
    /// Read CSA records (folders, .csa, .tar, .tar.gz, .7z, .zip, or - for a tar stream),
    /// replay and audit every game, and write the per-game table.
    Scan(scan::ScanArgs),
    /// Make the tables and plots of an entering-king study from a scan's games.parquet.
    Report(report::ReportArgs),
    /// Position statistics over a file of SFENs (first column of each line).
    Positions(positions::PositionsArgs),
    /// Speak the USI protocol on standard input and output (the built-in engine).
    Usi(usi::UsiArgs),
    /// Search a fixed set of positions and print the node-count signature and nodes/s.
    Bench(bench::BenchArgs),
    /// Continue the mutual entering-king games the move limit cut off with the built-in
    /// engine or outside USI engines, refereed with the core's rules.
    Replay(Box<replay::ReplayArgs>),
    /// Tune the 24-point engine's weights by SPSA self-play.
    Tune(tune::TuneArgs),
    /// Play tuned against default weights on held-out positions.
    Validate(validate::ValidateArgs),
    /// Test a change by self-play: two sets of USI options, game pairs at fixed nodes, and
    /// a sequential probability ratio test (SPRT) that stops when it can decide.
    Sprt(sprt::SprtArgs),
    /// A scripted USI engine for the referee's tests.
    #[command(hide = true)]
    UsiStandin(standin::StandinArgs),
    /// The learned evaluation: label training positions (gen), fit the weights (fit).
    Learn(learn::LearnArgs),
}

/// Parse the command line, run the subcommand, and map errors to exit codes.
pub fn run() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_USAGE } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    // A panic is a bug; it still ends with a message and the fatal error's code, and the
    // output folder's temporaries are removed on the way out.
    let result = std::panic::catch_unwind(|| dispatch(cli)).unwrap_or_else(|_| {
        Err(anyhow::anyhow!(
            "internal error: the program panicked (the message above says where)"
        ))
    });
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("floodgate-scan: error: {e:#}");
            ExitCode::from(EXIT_USAGE)
        }
    }
}

fn dispatch(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Perft(a) => perft::run(a),
        Command::Position(a) => position::run(a),
        Command::Scan(a) => scan::run(a),
        Command::Report(a) => report::run(a),
        Command::Positions(a) => positions::run(a),
        Command::Usi(a) => usi::run(a),
        Command::Bench(a) => bench::run(a),
        Command::Replay(a) => replay::run(*a),
        Command::Tune(a) => tune::run(a),
        Command::Validate(a) => validate::run(a),
        Command::Sprt(a) => sprt::run(a),
        Command::UsiStandin(a) => standin::run(a),
        Command::Learn(a) => learn::run(a),
    }
}
