//! `floodgate-scan learn`: labelled training positions (`gen`) and the linear
//! evaluation fitted to them (`fit`).
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressStyle};

use floodgate_scan::engine::eval::king_piece::{KingPieceWeights, PairTable};
use floodgate_scan::engine::eval::linear::LinearWeights;
use floodgate_scan::lab::learn::fit::{self, FitSettings};
use floodgate_scan::lab::learn::generate::{
    self as generate, GenSettings, parse_mix, position_from_usi,
};
use floodgate_scan::lab::learn::king_fit::{self, KingBase, KingFitSettings};
use floodgate_scan::lab::learn::record::{self, Record, Source};
use floodgate_scan::lab::learn::teacher::TeacherSpec;
use floodgate_scan::shogi::Position;

#[derive(Debug, clap::Args)]
pub struct LearnArgs {
    #[command(subcommand)]
    pub command: LearnCommand,
}

#[derive(Debug, clap::Subcommand)]
pub enum LearnCommand {
    /// Play games and label their positions with an outside USI engine (resumable).
    Gen(GenArgs),
    /// Fit the linear evaluation to labelled positions.
    Fit(FitArgs),
    /// Fit the king-relative piece evaluation (KingPieceWeights) to labelled positions,
    /// as a correction of the default evaluation.
    KingFit(KingFitArgs),
    /// Print the records of a label file as tab-separated text: SFEN, teacher score, mate
    /// flag, result for the side to move, source, ply, unit.
    Dump(DumpArgs),
}

#[derive(Debug, clap::Args)]
pub struct DumpArgs {
    /// A label file made by `learn gen`.
    pub data: PathBuf,
    /// Print one record in this many.
    #[arg(long, default_value_t = 1)]
    pub every: usize,
    /// Print at most this many records.
    #[arg(long)]
    pub limit: Option<usize>,
}

#[derive(Debug, clap::Args)]
pub struct KingFitArgs {
    /// Label files made by `learn gen`.
    #[arg(required = true)]
    pub data: Vec<PathBuf>,
    /// Where to write the weights (binary, about 2.3 MB).
    #[arg(long, short, default_value = "weights/king-piece.bin")]
    pub out: PathBuf,
    /// Weight of the teacher's score in the target (the result has 1 - lambda).
    #[arg(long, default_value_t = 0.7)]
    pub lambda: f64,
    /// Scale K of the teacher's sigmoid (default: calibrated on the data).
    #[arg(long)]
    pub scale: Option<f64>,
    /// Scale of the model's sigmoid (default: the default evaluation's, calibrated on the
    /// data). Give the teacher's `--scale` here too to fit the teacher's score in its own
    /// units (the two scales differ where the results are noisy, and a correction fitted
    /// across two scales must also rescale the evaluation it corrects).
    #[arg(long)]
    pub model_scale: Option<f64>,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 10)]
    pub epochs: u32,
    /// Positions per step.
    #[arg(long, default_value_t = 1024)]
    pub batch: usize,
    /// Adam step size of the factors, centipawns (falls to a tenth by the last epoch).
    #[arg(long, default_value_t = 2.0)]
    pub lr: f64,
    /// The full entries' step as a share of --lr.
    #[arg(long, default_value_t = 0.1)]
    pub full_rate: f64,
    /// L2 pull of the full entries towards zero.
    #[arg(long, default_value_t = 1e-4)]
    pub l2_full: f64,
    /// The pair entries by square's step as a share of --lr (with --square-pairs).
    #[arg(long, default_value_t = 1.0)]
    pub square_rate: f64,
    /// L2 pull of the factors towards zero.
    #[arg(long, default_value_t = 0.0)]
    pub l2_factor: f64,
    /// Percent of the games held out for validation.
    #[arg(long, default_value_t = 10)]
    pub validation: u32,
    /// Seed of the split and the shuffles.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Fit on the positions of these sources only (comma-separated: selfplay, versus,
    /// aiiru, aiiru_replay, decl24_replay, outside; default all).
    #[arg(long, value_delimiter = ',')]
    pub sources: Vec<String>,
    /// Train only on positions the teacher scored below this size (centipawns; mate
    /// scores are above any): the decided positions leave the fit's steps to the balanced
    /// ones. The held-out positions stay as they are, so the agreement compares with a fit
    /// without it.
    #[arg(long, value_name = "CP")]
    pub train_below: Option<f32>,
    /// Leave out the pair table (pairs of pieces in each king's zone): the file then holds
    /// the king-relative tables alone, in the first format.
    #[arg(long, conflicts_with = "square_pairs")]
    pub no_pairs: bool,
    /// Learn the pair table by square: each pair of pieces in a king's zone by both
    /// kinds and both squares relative to that king (the entries by offset as their
    /// factor); the file is of the third format. A --start file with a table by offset
    /// starts the factor from it.
    #[arg(long)]
    pub square_pairs: bool,
    /// Correct the hand-made evaluation with this linear correction (a `learn fit
    /// --residual` file) instead of the compiled-in one: the term is then used with
    /// `LinearWeights=FILE`.
    #[arg(long)]
    pub base_weights: Option<PathBuf>,
    /// Fit the linear correction together with the term: the hand-made evaluation is the
    /// base, and the correction's weights (the compiled-in ones, or --base-weights) are
    /// learned from where they stand; the new correction is written to --linear-out
    /// (use both files: `LinearWeights=` and `KingPieceWeights=`).
    #[arg(long, requires = "linear_out")]
    pub joint: bool,
    /// Where a joint fit writes its linear correction (text).
    #[arg(long, requires = "joint")]
    pub linear_out: Option<PathBuf>,
    /// Start from these king-piece weights (`builtin` for the compiled-in ones) instead of
    /// zero, and keep their progress estimate: a fit on new labels goes on from what an
    /// earlier fit learned (the agreement at the start is printed).
    #[arg(long)]
    pub start: Option<String>,
}

#[derive(Debug, clap::Args)]
pub struct GenArgs {
    /// The label file (created, or resumed if it exists with the same settings).
    #[arg(long, short)]
    pub out: PathBuf,
    /// Units (games) the file is to hold.
    #[arg(long, default_value_t = 100)]
    pub units: u32,
    /// Seed of every random choice.
    #[arg(long, default_value_t = 20_261_204)]
    pub seed: u64,
    /// Games played at once (each with its own teacher process).
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// Nodes per move of the built-in engine.
    #[arg(long, default_value_t = 3_000)]
    pub nodes: u64,
    /// Random legal moves per game.
    #[arg(long, default_value_t = 2)]
    pub random_moves: u32,
    /// The random moves fall within this many plies of the opening.
    #[arg(long, default_value_t = 16)]
    pub random_plies: u32,
    /// Plies after which a game is stopped as a draw.
    #[arg(long, default_value_t = 256)]
    pub max_plies: u32,
    /// End a game when the teacher scores two labelled positions in a row at least this
    /// many centipawns (or mate) for the same side: the other side resigns. The labels go
    /// to positions still in play instead of lost ones. Part of the file's settings.
    #[arg(long, value_name = "CP")]
    pub adjudicate: Option<i32>,
    /// Label one position in this many, of both sides alike.
    #[arg(long, default_value_t = 3)]
    pub every: u32,
    /// Unit pattern: kind:count,... with kinds selfplay, versus (against the teacher),
    /// outside (against --opponent), aiiru, decl24 (the 24-point engine's games under the
    /// 24-point rule from the --aiiru positions, labelled by their results only).
    #[arg(long, default_value = "selfplay:2,versus:1,aiiru:1")]
    pub mix: String,
    /// Openings, one USI position per line (`startpos moves ...`); default the start.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Entering-king positions (SFEN in the first tab-separated column, `#` comments).
    #[arg(long)]
    pub aiiru: Option<PathBuf>,
    /// The teacher program.
    #[arg(long, default_value = "/usr/games/gpsusi")]
    pub teacher: String,
    /// Teacher options NAME=VALUE (repeatable).
    #[arg(long = "teacher-option", default_values_t = ["Thread=1".to_string(), "LimitDepth=4".to_string(), "BookDepth=0".to_string()])]
    pub teacher_options: Vec<String>,
    /// The teacher's go command.
    #[arg(long, default_value = "go byoyomi 20000")]
    pub go: String,
    /// The outside opponent of `outside` units (a USI engine: GPS Shogi, YaneuraOu,
    /// Fairy-Stockfish, ...; program and arguments).
    #[arg(long)]
    pub opponent: Option<String>,
    /// Opponent options NAME=VALUE (repeatable).
    #[arg(long = "opponent-option")]
    pub opponent_options: Vec<String>,
    /// The opponent's go command.
    #[arg(long, default_value = "go byoyomi 100")]
    pub opponent_go: String,
    /// Seconds before a teacher search is stopped.
    #[arg(long, default_value_t = 30.0)]
    pub timeout: f64,
    /// Seconds the teacher's (and the opponent's) start may take, from `usi` to
    /// `readyok`, at the start and at each restart (a restart is tried 3 times before
    /// the run stops). Raise it on a loaded machine.
    #[arg(long, default_value_t = floodgate_scan::lab::learn::teacher::DEFAULT_HANDSHAKE_S)]
    pub handshake_timeout: f64,
    /// Transposition table of the built-in engine, MB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// The built-in engine's evaluation in the games: `hand` (the hand-made evaluation,
    /// with which the committed weights' labels were played), `builtin` (the compiled-in
    /// correction) or a weights file from `learn fit`.
    #[arg(long, default_value = "hand")]
    pub engine_weights: String,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

#[derive(Debug, clap::Args)]
pub struct FitArgs {
    /// Label files made by `learn gen`.
    #[arg(required = true)]
    pub data: Vec<PathBuf>,
    /// Where to write the weights.
    #[arg(long, short, default_value = "weights/linear.txt")]
    pub out: PathBuf,
    /// Starting weights (default: material values).
    #[arg(long)]
    pub weights: Option<PathBuf>,
    /// Weight of the teacher's score in the target (the result has 1 - lambda).
    #[arg(long, default_value_t = 0.7)]
    pub lambda: f64,
    /// Scale K of the sigmoids (default: calibrated on the data).
    #[arg(long)]
    pub scale: Option<f64>,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 20)]
    pub epochs: u32,
    /// Positions per step.
    #[arg(long, default_value_t = 256)]
    pub batch: usize,
    /// Adam step size.
    #[arg(long, default_value_t = 1.0)]
    pub lr: f64,
    /// Percent of the games held out for validation.
    #[arg(long, default_value_t = 10)]
    pub validation: u32,
    /// Seed of the split and the shuffles.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// L2 pull of each weight towards its start, per step.
    #[arg(long, default_value_t = 0.0)]
    pub l2: f64,
    /// Scale of the model's sigmoid (default: the teacher's; with --residual, the
    /// hand-made evaluation's, calibrated on the data).
    #[arg(long)]
    pub model_scale: Option<f64>,
    /// Fit a correction of the hand-made evaluation (value = hand-made + linear), from zero
    /// weights unless --weights gives a correction to go on from.
    #[arg(long)]
    pub residual: bool,
    /// Fit a correction of the 24-point engine's evaluation instead (value = 24-point
    /// evaluation + linear; implies --residual), for its `LinearWeights24` option.
    #[arg(long)]
    pub decl24: bool,
    /// Fit on the positions of these sources only (comma-separated: selfplay, versus,
    /// aiiru, aiiru_replay, decl24_replay, outside; default all).
    #[arg(long, value_delimiter = ',')]
    pub sources: Vec<String>,
}

pub fn run(a: LearnArgs) -> anyhow::Result<ExitCode> {
    match a.command {
        LearnCommand::Gen(g) => run_gen(g),
        LearnCommand::Fit(f) => run_fit(f),
        LearnCommand::KingFit(f) => run_king_fit(f),
        LearnCommand::Dump(d) => run_dump(d),
    }
}

fn read_lines(path: &Path) -> anyhow::Result<Vec<String>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    Ok(text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect())
}

/// `NAME=VALUE` options of a USI engine.
fn name_values(flag: &str, values: &[String]) -> anyhow::Result<Vec<(String, String)>> {
    values
        .iter()
        .map(|o| match o.split_once('=') {
            Some((k, v)) => Ok((k.to_string(), v.to_string())),
            None => bail!("{flag} `{o}`: expected NAME=VALUE"),
        })
        .collect()
}

fn run_gen(a: GenArgs) -> anyhow::Result<ExitCode> {
    let settings = gen_settings(&a)?;
    floodgate_scan::interrupt::install();
    let bar = gen_bar(a.quiet, a.units);
    let started = Instant::now();
    let mut first = true;
    let result = generate::run(
        &settings,
        &a.out,
        a.jobs,
        &|| floodgate_scan::interrupt::received().is_some(),
        &mut |p| {
            if first {
                first = false;
                if p.resumed_units > 0 {
                    bar.println(format!(
                        "resuming {}: {} units, {} positions already there",
                        a.out.display(),
                        p.resumed_units,
                        p.records
                    ));
                }
            }
            bar.set_position(p.units_done as u64);
            let secs = started.elapsed().as_secs_f64().max(1e-3);
            bar.set_message(format!(
                "{} positions ({:.0}/h)",
                p.records,
                p.new_records as f64 * 3600.0 / secs
            ));
        },
    );
    bar.finish_and_clear();
    let p = result?;
    let secs = started.elapsed().as_secs_f64();
    println!(
        "{}: {} units, {} positions ({} new in {:.0} s, {:.0} positions/hour)",
        a.out.display(),
        p.units_done,
        p.records,
        p.new_records,
        secs,
        p.new_records as f64 * 3600.0 / secs.max(1e-3)
    );
    if let Some(i) = floodgate_scan::interrupt::received() {
        eprintln!("floodgate-scan: {i}; run the same command again to go on");
        return Ok(ExitCode::from(i.exit_code()));
    }
    Ok(ExitCode::SUCCESS)
}

/// The openings file: one USI position a line.
fn read_openings_file(path: Option<&Path>) -> anyhow::Result<Vec<Position>> {
    let Some(p) = path else {
        return Ok(Vec::new());
    };
    let mut openings = Vec::new();
    for (i, l) in read_lines(p)?.iter().enumerate() {
        match position_from_usi(l) {
            Some(pos) => openings.push(pos),
            None => bail!("{}: opening {} cannot be read: {l}", p.display(), i + 1),
        }
    }
    Ok(openings)
}

/// The entering-king positions file: SFEN in the first tab-separated column.
fn read_sfen_file(path: Option<&Path>) -> anyhow::Result<Vec<Position>> {
    let Some(p) = path else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for (i, l) in read_lines(p)?.iter().enumerate() {
        let sfen = l.split('\t').next().unwrap_or("");
        match Position::from_sfen(sfen) {
            Ok(pos) => out.push(pos),
            Err(e) => bail!("{}: position {} cannot be read: {e}", p.display(), i + 1),
        }
    }
    Ok(out)
}

/// A USI engine's spec from its command line (program and arguments), options and `go`.
fn usi_spec(
    command: &str,
    flag: &str,
    options: &[String],
    go: &str,
    timeout_s: f64,
    handshake_s: f64,
) -> anyhow::Result<TeacherSpec> {
    let mut words = command.split_whitespace().map(str::to_string);
    Ok(TeacherSpec {
        program: words.next().unwrap_or_default(),
        args: words.collect(),
        options: name_values(flag, options)?,
        go: go.to_string(),
        timeout_s,
        handshake_s,
    })
}

/// The built-in engine's evaluation in the games (`--engine-weights`).
fn engine_weights(value: &str) -> anyhow::Result<Option<(String, std::sync::Arc<LinearWeights>)>> {
    Ok(match value {
        "hand" => None,
        "builtin" => Some((
            "builtin".to_string(),
            floodgate_scan::engine::eval::linear::builtin(),
        )),
        path => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("--engine-weights {path}"))?;
            let w =
                LinearWeights::parse(&text).with_context(|| format!("--engine-weights {path}"))?;
            Some((path.to_string(), std::sync::Arc::new(w)))
        }
    })
}

/// `learn gen`'s settings from its flags (the files read, the mix checked against them).
fn gen_settings(a: &GenArgs) -> anyhow::Result<GenSettings> {
    let openings = read_openings_file(a.openings.as_deref())?;
    let aiiru = read_sfen_file(a.aiiru.as_deref())?;
    let mix = parse_mix(&a.mix)?;
    if mix.contains(&generate::UnitKind::Aiiru) && aiiru.is_empty() {
        bail!("the mix has aiiru units: give --aiiru");
    }
    let opponent = match &a.opponent {
        Some(o) => Some(usi_spec(
            o,
            "--opponent-option",
            &a.opponent_options,
            &a.opponent_go,
            a.timeout,
            a.handshake_timeout,
        )?),
        None => None,
    };
    if mix.contains(&generate::UnitKind::Outside) && opponent.is_none() {
        bail!("the mix has outside units: give --opponent");
    }
    Ok(GenSettings {
        seed: a.seed,
        units: a.units,
        nodes: a.nodes,
        random_moves: a.random_moves,
        random_plies: a.random_plies,
        max_plies: a.max_plies,
        adjudicate: a.adjudicate,
        every: a.every.max(1),
        mix,
        openings,
        aiiru,
        teacher: usi_spec(
            &a.teacher,
            "--teacher-option",
            &a.teacher_options,
            &a.go,
            a.timeout,
            a.handshake_timeout,
        )?,
        opponent,
        hash_mb: a.hash,
        engine_linear: engine_weights(&a.engine_weights)?,
    })
}

fn gen_bar(quiet: bool, units: u32) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let b = ProgressBar::new(units as u64);
    b.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {pos}/{len} units {msg} (eta {eta})",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    b
}

/// The records of label files (units renumbered so that different files are different
/// games), of the named sources only if any are named, each position once.
fn read_records(data: &[PathBuf], sources: &[String]) -> anyhow::Result<Vec<Record>> {
    let mut records = Vec::new();
    let mut units_offset = 0u32;
    for path in data {
        let (_, sum) = record::read_file(path)
            .with_context(|| format!("cannot read labels {}", path.display()))?;
        if sum.bad > 0 || sum.partial_bytes > 0 {
            eprintln!(
                "floodgate-scan: warning: {}: {} bad records skipped, {} trailing bytes",
                path.display(),
                sum.bad,
                sum.partial_bytes
            );
        }
        // Units of different files are different games.
        let max_unit = sum.records.iter().map(|r| r.unit).max().unwrap_or(0);
        for mut r in sum.records {
            r.unit = r.unit.wrapping_add(units_offset);
            records.push(r);
        }
        units_offset = units_offset.wrapping_add(max_unit + 1);
    }
    if !sources.is_empty() {
        let mut keep = Vec::new();
        for name in sources {
            match Source::ALL.iter().find(|s| s.name() == name.trim()) {
                Some(s) => keep.push(*s),
                None => bail!(
                    "--sources: unknown source `{name}` (selfplay, versus, aiiru, aiiru_replay, decl24_replay, outside)"
                ),
            }
        }
        records.retain(|r| keep.contains(&r.source));
    }
    // A position met again (the same packed board, hands and side to move) is a
    // duplicate: the first one read is kept.
    let before = records.len();
    let mut seen = std::collections::HashSet::with_capacity(records.len());
    records.retain(|r| seen.insert(r.position));
    if records.len() < before {
        println!(
            "{} duplicate positions left out (the first of each kept)",
            before - records.len()
        );
    }
    Ok(records)
}

/// The positions per source, `selfplay N, versus N, ...`.
fn source_counts(records: &[Record]) -> String {
    let per: Vec<String> = Source::ALL
        .iter()
        .zip(fit::count_sources(records))
        .map(|(s, n)| format!("{} {n}", s.name()))
        .collect();
    per.join(", ")
}

/// Print how many samples were made and how they split; an error if none.
fn split_line(what: &str, n: usize, n_val: usize, bad: usize, t: Instant) -> anyhow::Result<()> {
    println!(
        "{what} of {n} positions in {:.1} s ({bad} undecodable), {} training, {n_val} validation",
        t.elapsed().as_secs_f64(),
        n - n_val,
    );
    if n == 0 {
        bail!("no positions to fit");
    }
    Ok(())
}

fn run_fit(a: FitArgs) -> anyhow::Result<ExitCode> {
    let records = read_records(&a.data, &a.sources)?;
    let per = source_counts(&records);
    println!("{} positions ({per})", records.len());
    let t = Instant::now();
    let base = if a.decl24 {
        fit::Base::Decl24
    } else {
        fit::Base::Hand
    };
    let (samples, bad) = fit::samples_of(&records, a.seed, a.validation, base);
    let n_val = samples.iter().filter(|s| s.validation).count();
    split_line("features", samples.len(), n_val, bad, t)?;
    let scale = match a.scale {
        Some(k) => k,
        None => {
            let k = fit::calibrate_scale(&samples).unwrap_or(600.0);
            println!("teacher scale K = {k} (calibrated against the results)");
            k
        }
    };
    let start = fit_start(&a)?;
    let set = FitSettings {
        lambda: a.lambda,
        scale,
        model_scale: fit_model_scale(&a, start.residual, scale, &samples),
        epochs: a.epochs,
        batch: a.batch,
        learning_rate: a.lr,
        seed: a.seed,
        l2: a.l2,
        residual: start.residual,
    };
    let mut last = None;
    let w = fit::fit(&samples, &start, &set, &mut |e| {
        println!(
            "epoch {:>3}  train loss {:.5}  validation loss {:.5}  validation |value - teacher| {:.0}",
            e.epoch, e.train, e.validation, e.validation_mae
        );
        last = Some(*e);
    });
    let w = w.with_decl24(start.decl24);
    let comment = format!(
        "learn fit: {}{} positions ({}) from {}; lambda {}, K {}, model K {}, {} epochs, batch {}, lr {}, l2 {}, validation {}%, seed {}; last epoch: train loss {:.5}, validation loss {:.5} (the weights are the best validation epoch's)",
        if start.decl24 {
            "correction of the 24-point evaluation; "
        } else if start.residual {
            "correction of the hand-made evaluation; "
        } else {
            ""
        },
        records.len(),
        per,
        file_names(&a.data),
        a.lambda,
        scale,
        set.model_scale,
        a.epochs,
        a.batch,
        a.lr,
        a.l2,
        a.validation,
        a.seed,
        last.map_or(f64::NAN, |e| e.train),
        last.map_or(f64::NAN, |e| e.validation)
    );
    write_out(&a.out, w.to_text(&comment).as_bytes())?;
    Ok(ExitCode::SUCCESS)
}

/// The weights a fit starts from (`--weights`, or zero / material by the kind of fit),
/// checked against the kind of fit the flags ask for.
fn fit_start(a: &FitArgs) -> anyhow::Result<LinearWeights> {
    let start = match &a.weights {
        Some(p) => read_linear_weights(p, "weights")?,
        None if a.decl24 => LinearWeights::zero_residual().with_decl24(true),
        None if a.residual => LinearWeights::zero_residual(),
        None => LinearWeights::material(),
    };
    if a.decl24 != start.decl24 {
        bail!(
            "--decl24 and the starting weights disagree: a correction of the 24-point evaluation goes on only from one"
        );
    }
    if a.residual && !start.residual {
        bail!("--residual: the starting weights are not a correction of the hand-made evaluation");
    }
    Ok(start)
}

/// A linear weights file, the error naming the flag (`what`) and the file.
fn read_linear_weights(p: &Path, what: &str) -> anyhow::Result<LinearWeights> {
    let text = std::fs::read_to_string(p)
        .with_context(|| format!("cannot read {what} {}", p.display()))?;
    LinearWeights::parse(&text).with_context(|| format!("{what} {}", p.display()))
}

/// The model's own scale: `--model-scale`, the teacher's for a whole model, or that of
/// the evaluation a correction is added to, calibrated against the results.
fn fit_model_scale(a: &FitArgs, residual: bool, scale: f64, samples: &[fit::Sample]) -> f64 {
    match (a.model_scale, residual) {
        (Some(k), _) => k,
        (None, false) => scale,
        (None, true) => {
            let k = fit::calibrate_base_scale(samples).unwrap_or(scale);
            println!(
                "{} evaluation's scale = {k} (calibrated against the results)",
                if a.decl24 { "24-point" } else { "hand-made" }
            );
            k
        }
    }
}

/// The label files' names, for a weights file's comment.
fn file_names(data: &[PathBuf]) -> String {
    let files: Vec<String> = data.iter().map(|p| super::play::file_name(p)).collect();
    files.join(" ")
}

/// Write an output file, its folder made if needed.
fn write_out(out: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    if let Some(dir) = out.parent()
        && !dir.as_os_str().is_empty()
    {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    std::fs::write(out, bytes).with_context(|| format!("cannot write {}", out.display()))?;
    println!("wrote {}", out.display());
    Ok(())
}

fn run_king_fit(a: KingFitArgs) -> anyhow::Result<ExitCode> {
    if a.linear_out.as_ref() == Some(&a.out) {
        bail!(
            "--linear-out and -o are the same file ({}): a joint fit writes two",
            a.out.display()
        );
    }
    let records = read_records(&a.data, &a.sources)?;
    let per = source_counts(&records);
    println!("{} positions ({per})", records.len());
    let t = Instant::now();
    let from = match a.start.as_deref() {
        None => None,
        Some("builtin") => Some(KingPieceWeights::builtin()),
        Some(p) => Some(KingPieceWeights::load(Path::new(p)).context("--start")?),
    };
    let progress = match &from {
        Some(k) => k.progress,
        None => king_fit::fit_progress(&king_fit::progress_points(&records)),
    };
    println!(
        "progress = {:.1} + {:.2} in hand + {:.2} in the enemy camps + {:.2} promoted + {:.2} kings out of camp (of 256){}",
        progress.bias,
        progress.coef[0],
        progress.coef[1],
        progress.coef[2],
        progress.coef[3],
        if from.is_some() { ", from --start" } else { "" }
    );
    let linear = match &a.base_weights {
        None => None,
        Some(p) => {
            let w = read_linear_weights(p, "--base-weights")?;
            if w.decl24 || (a.joint && !w.residual) {
                bail!(
                    "--base-weights {}: not a correction of the hand-made evaluation",
                    p.display()
                );
            }
            Some(std::sync::Arc::new(w))
        }
    };
    let base = match (linear, a.joint) {
        (None, false) => KingBase::Default,
        (Some(w), false) => KingBase::Linear(w),
        (w, true) => {
            KingBase::Joint(w.unwrap_or_else(floodgate_scan::engine::eval::linear::builtin))
        }
    };
    let (mut samples, bad) = king_fit::samples_of(&records, &base, a.seed, a.validation);
    let n_val = samples.iter().filter(|s| s.validation).count();
    split_line("quiet leaves", samples.len(), n_val, bad, t)?;
    if let Some(cap) = a.train_below {
        let before = samples.len();
        samples.retain(|s| s.validation || (s.has_teacher && s.teacher.abs() < cap));
        println!(
            "--train-below {cap}: {} training positions left out, {} kept",
            before - samples.len(),
            samples.len() - n_val
        );
    }
    let start = king_fit::start_params(&base, None, true);
    let set = king_fit_settings(&a, &samples, &start, &progress);
    let e0 = king_fit::evaluate_fit(&samples, &start, &progress, &set);
    println!(
        "default evaluation alone: train loss {:.5}  validation loss {:.5}  teacher r {:.4}  |value - teacher| {:.0}",
        e0.train_loss, e0.validation_loss, e0.r, e0.mae
    );
    let start = match &from {
        None => start,
        Some(k) => {
            let start = king_fit::start_params(&base, Some(&**k), !a.no_pairs);
            let e = king_fit::evaluate_fit(&samples, &start, &progress, &set);
            println!(
                "with the --start weights: train loss {:.5}  validation loss {:.5}  teacher r {:.4}  |value - teacher| {:.0}",
                e.train_loss, e.validation_loss, e.r, e.mae
            );
            start
        }
    };
    let mut last = None;
    let t = Instant::now();
    let (w, _) = king_fit::fit(&samples, &progress, &set, start, &mut |epoch, e| {
        println!(
            "epoch {epoch:>3}  train loss {:.5}  validation loss {:.5}  teacher r {:.4}  |value - teacher| {:.0}  ({:.0} s)",
            e.train_loss,
            e.validation_loss,
            e.r,
            e.mae,
            t.elapsed().as_secs_f64()
        );
        last = Some(*e);
    });
    print_calibration(&king_fit::calibration(&samples, &w, &progress, &set));
    for (lo, hi, n, r, mae) in king_fit::agreement_by_band(&samples, &w, &progress, &set) {
        if r.is_nan() {
            println!("held out, teacher |score| {lo:.0} to {hi:.0}: {n} positions");
        } else {
            println!(
                "held out, teacher |score| {lo:.0} to {hi:.0}: {n} positions  teacher r {r:.4}  |value - teacher| {mae:.0}"
            );
        }
    }
    let comment = format!(
        "learn king-fit: correction of {}; {} positions ({}) from {}; lambda {}, K {}, model K {}, {} epochs, batch {}, lr {}, full rate {}, l2 full {}, l2 factor {}, validation {}%, seed {}, {}{}{}; last epoch: validation loss {:.5}, teacher r {:.4} (default alone {:.4}); the weights are the best validation epoch's",
        match (&a.linear_out, &a.base_weights) {
            (Some(l), _) => format!(
                "the hand-made evaluation with the linear correction {} (use the two together)",
                super::play::file_name(l)
            ),
            (None, None) => "the default evaluation".to_string(),
            (None, Some(p)) => format!(
                "the hand-made evaluation with the linear correction {}",
                super::play::file_name(p)
            ),
        },
        records.len(),
        per,
        file_names(&a.data),
        a.lambda,
        set.scale,
        set.model_scale,
        a.epochs,
        a.batch,
        a.lr,
        a.full_rate,
        a.l2_full,
        a.l2_factor,
        a.validation,
        a.seed,
        match (set.pairs, a.joint) {
            (PairTable::None, false) => "no pair table",
            (PairTable::Offset, false) => "with the pair table",
            (PairTable::Square, false) => "with the pair table by square",
            (PairTable::None, true) => "no pair table, fitted jointly with the linear correction",
            (PairTable::Offset, true) =>
                "with the pair table, fitted jointly with the linear correction",
            (PairTable::Square, true) =>
                "with the pair table by square, fitted jointly with the linear correction",
        },
        a.start.as_ref().map_or(String::new(), |f| format!(
            ", started from {}",
            super::play::file_name(Path::new(f))
        )),
        a.train_below
            .map_or(String::new(), |cp| format!(", trained below {cp}")),
        last.map_or(f64::NAN, |e| e.validation_loss),
        last.map_or(f64::NAN, |e| e.r),
        e0.r
    );
    if let Some(out) = &a.linear_out {
        let text = king_fit::linear_of(&w).to_text(&format!(
            "the linear correction of a joint fit with the king-piece term {}\n{comment}",
            super::play::file_name(&a.out)
        ));
        write_out(out, text.as_bytes())?;
    }
    write_out(
        &a.out,
        &king_fit::fold(&w, progress, comment, set.pairs).to_bytes(),
    )?;
    Ok(ExitCode::SUCCESS)
}

/// The king-piece fit's settings: the flags, with the teacher's and the default
/// evaluation's scales calibrated against the results where not given.
fn king_fit_settings(
    a: &KingFitArgs,
    samples: &[king_fit::KingSample],
    start: &[f32],
    progress: &floodgate_scan::engine::eval::king_piece::Progress,
) -> KingFitSettings {
    let scale = match a.scale {
        Some(k) => k,
        None => {
            let k = king_fit::calibrate(samples, |s| s.has_teacher.then_some(s.teacher as f64))
                .unwrap_or(600.0);
            println!("teacher scale K = {k} (calibrated against the results)");
            k
        }
    };
    let model_scale = match a.model_scale {
        Some(k) => k,
        None => {
            let k = king_fit::calibrate(samples, |s| {
                Some(king_fit::sample_value(s, start, progress, a.joint))
            })
            .unwrap_or(scale);
            println!("default evaluation's scale = {k} (calibrated against the results)");
            k
        }
    };
    KingFitSettings {
        lambda: a.lambda,
        scale,
        model_scale,
        epochs: a.epochs,
        batch: a.batch,
        lr: a.lr,
        full_rate: a.full_rate,
        square_rate: a.square_rate,
        l2_full: a.l2_full,
        l2_factor: a.l2_factor,
        seed: a.seed,
        pairs: if a.no_pairs {
            PairTable::None
        } else if a.square_pairs {
            PairTable::Square
        } else {
            PairTable::Offset
        },
        joint: a.joint,
    }
}

fn run_dump(a: DumpArgs) -> anyhow::Result<ExitCode> {
    let (_, sum) = record::read_file(&a.data)
        .with_context(|| format!("cannot read labels {}", a.data.display()))?;
    match dump(&a, &sum.records) {
        // A reader that stops early (`| head`) is not an error.
        Err(e)
            if e.downcast_ref::<std::io::Error>()
                .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe) =>
        {
            return Ok(ExitCode::SUCCESS);
        }
        r => r?,
    }
    if sum.bad > 0 || sum.partial_bytes > 0 {
        eprintln!(
            "floodgate-scan: warning: {}: {} bad records skipped, {} trailing bytes",
            a.data.display(),
            sum.bad,
            sum.partial_bytes
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn dump(a: &DumpArgs, records: &[Record]) -> anyhow::Result<()> {
    use std::io::Write as _;
    let out = std::io::stdout();
    let mut out = std::io::BufWriter::new(out.lock());
    writeln!(out, "sfen\tscore\tmate\tresult\tsource\tply\tunit")?;
    let every = a.every.max(1);
    for (i, r) in records
        .iter()
        .step_by(every)
        .take(a.limit.unwrap_or(usize::MAX))
        .enumerate()
    {
        let sfen = r.position().map(|p| p.to_sfen()).with_context(|| {
            format!(
                "{}: record {} does not decode",
                a.data.display(),
                i * every + 1
            )
        })?;
        writeln!(
            out,
            "{sfen}\t{}\t{}\t{}\t{}\t{}\t{}",
            r.score,
            r.mate as u8,
            r.outcome.value(),
            r.source.name(),
            r.ply,
            r.unit
        )?;
    }
    out.flush()?;
    Ok(())
}

/// The calibration table of `learn king-fit`.
fn print_calibration(bins: &[(usize, f64, f64)]) {
    println!(
        "calibration on the held-out games (predicted win probability: games, mean predicted, mean result):"
    );
    for (i, (n, q, r)) in bins.iter().enumerate() {
        if *n > 0 {
            println!(
                "  {:.1}-{:.1}: {n:>8}  {q:.3}  {r:.3}",
                i as f64 / 10.0,
                (i + 1) as f64 / 10.0
            );
        }
    }
}
