//! `floodgate-scan sprt`: two configurations of the built-in engine, each set up with USI
//! options, played against each other in game pairs at fixed nodes until a sequential
//! probability ratio test decides (or the game limit is reached).
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

use floodgate_scan::engine::time::Limits;
use floodgate_scan::engine::tt::TranspositionTable;
use floodgate_scan::engine::usi::Options;
use floodgate_scan::lab::play::GameSettings;
use floodgate_scan::lab::sprt::{
    self, MatchReport, MatchSettings, Player, SprtParams, Tally, read_openings,
};
use floodgate_scan::shogi::EnteringKingRule;

use super::play::file_name;

#[derive(Debug, clap::Args)]
// A flag given twice takes its last value (`scripts/sprt.sh` passes defaults first).
#[command(args_override_self = true)]
pub struct SprtArgs {
    /// Start positions, one a line: `startpos moves ...`, `sfen ... moves ...` or a SFEN.
    #[arg(long)]
    pub positions: PathBuf,
    /// A USI option of engine A (the change), as NAME=VALUE; repeatable.
    #[arg(long = "a-opt", value_name = "NAME=VALUE")]
    pub a_opt: Vec<String>,
    /// A USI option of engine B (the reference), as NAME=VALUE; repeatable.
    #[arg(long = "b-opt", value_name = "NAME=VALUE")]
    pub b_opt: Vec<String>,
    /// A USI option of both engines (applied before --a-opt and --b-opt); repeatable.
    #[arg(long = "opt", value_name = "NAME=VALUE")]
    pub opt: Vec<String>,
    /// `USI_Hash` of both engines, in MB, set before the other options (a new table is
    /// made for every game: a small one is made quickly, and a few thousand nodes a move
    /// do not fill it).
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// Nodes per move.
    #[arg(long, default_value_t = 2_000)]
    pub nodes: u64,
    /// Milliseconds per move instead of nodes (`go movetime`): the test at fixed time, for
    /// a change that changes the engine's speed. Games at fixed time are not reproducible,
    /// and two games at once need two idle cores.
    #[arg(long, value_name = "MS", conflicts_with = "nodes")]
    pub movetime: Option<u64>,
    /// H0: A is no better than this many Elo.
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    pub elo0: f64,
    /// H1: A is better by at least this many Elo.
    #[arg(long, default_value_t = 10.0, allow_negative_numbers = true)]
    pub elo1: f64,
    /// Probability of keeping a change that is no better (accepting H1 under H0).
    #[arg(long, default_value_t = 0.05)]
    pub alpha: f64,
    /// Probability of rejecting a change that is better (accepting H0 under H1).
    #[arg(long, default_value_t = 0.05)]
    pub beta: f64,
    /// Most games played (whole pairs).
    #[arg(long, default_value_t = 2_000)]
    pub max_games: u64,
    /// Play all --max-games even after a bound is reached (a fixed-length match).
    #[arg(long)]
    pub no_stop: bool,
    /// Entering-king rule of the games.
    #[arg(long, default_value = "CSARule27")]
    pub rule: EnteringKingRule,
    /// Plies after which a game is a draw.
    #[arg(long, default_value_t = 256)]
    pub max_plies: u32,
    /// Random legal moves played after each start position (the same for both games of
    /// a pair), so that many pairs from few positions differ.
    #[arg(long, default_value_t = 0)]
    pub random_plies: u32,
    /// Seed of the random moves.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Write the settings, the summary and every game as JSON to this file.
    #[arg(long)]
    pub json: Option<PathBuf>,
}

/// The options of one engine: the defaults, `USI_Hash` = `hash`, then `common`, then
/// `own`, each applied as `setoption` applies it.
fn options(hash: usize, common: &[String], own: &[String], which: &str) -> anyhow::Result<Options> {
    let mut o = Options::default();
    o.set("USI_Hash", &hash.to_string())?;
    for spec in common.iter().chain(own) {
        let (name, value) = spec
            .split_once('=')
            .with_context(|| format!("engine {which}: option `{spec}` is not NAME=VALUE"))?;
        o.set(name.trim(), value.trim())
            .with_context(|| format!("engine {which}"))?;
    }
    TranspositionTable::try_new(o.hash_mb).with_context(|| format!("engine {which}: USI_Hash"))?;
    Ok(o)
}

#[derive(Serialize)]
struct JsonSettings<'a> {
    positions: String,
    openings: usize,
    a_options: &'a [String],
    b_options: &'a [String],
    common_options: &'a [String],
    hash_mb: usize,
    nodes: Option<u64>,
    movetime_ms: Option<u64>,
    rule: String,
    max_plies: u32,
    random_plies: u32,
    seed: u64,
    max_games: u64,
    stop_at_bound: bool,
    sprt: SprtParams,
    model: &'static str,
}

#[derive(Serialize)]
struct JsonOut<'a> {
    settings: JsonSettings<'a>,
    report: &'a MatchReport,
}

fn fmt_elo(e: f64) -> String {
    // `+ 0.0` turns -0 into 0.
    let e = e + 0.0;
    if e.is_finite() {
        format!("{e:+.1}")
    } else if e > 0.0 {
        "+inf".into()
    } else {
        "-inf".into()
    }
}

pub fn run(a: SprtArgs) -> anyhow::Result<ExitCode> {
    validate(&a)?;
    let openings = load_openings(&a)?;
    let player_a = Player::new(options(a.hash, &a.opt, &a.a_opt, "A")?);
    let player_b = Player::new(options(a.hash, &a.opt, &a.b_opt, "B")?);
    if let Some(j) = a.jobs {
        // Fails only if a pool was already built in this process: harmless.
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(j.max(1))
            .build_global();
    }
    let settings = match_settings(&a, player_a.options.hash_mb);
    let pb = progress_bar(a.max_games / 2 * 2);
    let on_game = |t: &Tally| {
        pb.inc(1);
        pb.set_message(format!("W {} D {} L {}", t.wins, t.draws, t.losses));
    };
    let started = std::time::Instant::now();
    let report = sprt::run_match([&player_a, &player_b], &openings, &settings, &on_game);
    let secs = started.elapsed().as_secs_f64();
    pb.finish_and_clear();
    print_report(&a, openings.len(), &report, secs);
    if let Some(path) = &a.json {
        write_json(path, &a, openings.len(), settings.sprt, &report)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The flags' values that make no test.
fn validate(a: &SprtArgs) -> anyhow::Result<()> {
    if !(a.alpha > 0.0 && a.alpha < 1.0 && a.beta > 0.0 && a.beta < 1.0) {
        bail!("--alpha and --beta must be between 0 and 1");
    }
    if a.elo1 <= a.elo0 {
        bail!("--elo1 must be greater than --elo0");
    }
    if a.max_games < 2 {
        bail!("--max-games must be at least 2 (one pair)");
    }
    Ok(())
}

/// The start positions (bad lines warned about; none at all is an error).
fn load_openings(a: &SprtArgs) -> anyhow::Result<Vec<sprt::Opening>> {
    let text = std::fs::read_to_string(&a.positions)
        .with_context(|| format!("cannot read positions {}", a.positions.display()))?;
    let (openings, bad) = read_openings(&text, &file_name(&a.positions));
    for b in &bad {
        eprintln!("floodgate-scan: warning: {b}");
    }
    if openings.is_empty() {
        bail!("{}: no start positions", a.positions.display());
    }
    if a.random_plies == 0 && a.max_games / 2 > openings.len() as u64 {
        eprintln!(
            "floodgate-scan: warning: {} start positions and no --random-plies: pairs repeat \
             after {} games",
            openings.len(),
            2 * openings.len()
        );
    }
    Ok(openings)
}

/// Each move's limit: `--movetime` if given, else `--nodes`.
fn per_move(a: &SprtArgs) -> Limits {
    match a.movetime {
        Some(ms) => Limits {
            movetime: Some(ms.max(1)),
            ..Limits::default()
        },
        None => Limits::nodes(a.nodes.max(1)),
    }
}

/// `--movetime` or `--nodes` as the summary says it.
fn per_move_words(a: &SprtArgs) -> String {
    match a.movetime {
        Some(ms) => format!("{ms} ms/move"),
        None => format!("{} nodes/move", a.nodes),
    }
}

/// How the match is played, from the flags.
fn match_settings(a: &SprtArgs, hash_mb: usize) -> MatchSettings {
    MatchSettings {
        game: GameSettings {
            rule: a.rule,
            max_plies: a.max_plies,
            per_move: per_move(a),
            hash_mb,
        },
        random_plies: a.random_plies,
        seed: a.seed,
        sprt: SprtParams {
            elo0: a.elo0,
            elo1: a.elo1,
            alpha: a.alpha,
            beta: a.beta,
        },
        max_games: a.max_games,
        stop_at_bound: !a.no_stop,
        batch_pairs: 2 * rayon::current_num_threads(),
    }
}

fn progress_bar(games: u64) -> ProgressBar {
    let pb = ProgressBar::new(games);
    if let Ok(style) =
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} games  {msg}")
    {
        pb.set_style(style.progress_chars("=> "));
    }
    pb
}

/// The match's summary on standard output (and a warning when A and B played alike).
fn print_report(a: &SprtArgs, openings: usize, report: &MatchReport, secs: f64) {
    let t = &report.tally;
    let show = |v: &[String]| {
        if v.is_empty() {
            "defaults".to_string()
        } else {
            v.join(" ")
        }
    };
    println!(
        "sprt: A [{}] vs B [{}]{}",
        show(&a.a_opt),
        show(&a.b_opt),
        if a.opt.is_empty() {
            String::new()
        } else {
            format!(" (both: {})", a.opt.join(" "))
        }
    );
    println!(
        "games: {}, {} MB tables, rule {}, {} plies max, {} start positions, {} \
         random plies, seed {}",
        per_move_words(a),
        a.hash,
        a.rule,
        a.max_plies,
        openings,
        a.random_plies,
        a.seed
    );
    println!(
        "result: {} games ({} pairs)  W {}  D {}  L {}  ({:.1} s, {:.2} games/s)",
        t.games(),
        t.pairs.iter().sum::<u64>(),
        t.wins,
        t.draws,
        t.losses,
        secs,
        t.games() as f64 / secs.max(1e-9)
    );
    let [a_ms, b_ms] = t.ms_per_move();
    println!("time: A {a_ms:.1} ms a move, B {b_ms:.1} ms a move");
    println!(
        "pairs by A's points (0, 1/2, 1, 3/2, 2): {} {} {} {} {}",
        t.pairs[0], t.pairs[1], t.pairs[2], t.pairs[3], t.pairs[4]
    );
    if let Some(e) = &report.estimate {
        println!(
            "score: {:.2}% (95% {:.2}-{:.2}%)  Elo {} (95% {} to {})",
            100.0 * e.score,
            100.0 * e.score_low,
            100.0 * e.score_high,
            fmt_elo(e.elo),
            fmt_elo(e.elo_low),
            fmt_elo(e.elo_high)
        );
    }
    println!(
        "LLR: {:.3} (bounds {:.3}, {:.3}; elo0 {}, elo1 {}, alpha {}, beta {}; pentanomial)",
        report.llr, report.lower, report.upper, a.elo0, a.elo1, a.alpha, a.beta
    );
    println!("verdict: {}", report.verdict.describe());
    let pairs = t.pairs.iter().sum::<u64>();
    println!(
        "same games: {} of {} pairs had the same moves in both games",
        t.same_games, pairs
    );
    if pairs > 0 && t.same_games == pairs {
        eprintln!(
            "warning: A and B played the same games in every pair: the change does not act \
             at these settings (more nodes a move may let it); the verdict says only that"
        );
    }
}

/// The settings and every game, as JSON.
fn write_json(
    path: &std::path::Path,
    a: &SprtArgs,
    openings: usize,
    sprt: SprtParams,
    report: &MatchReport,
) -> anyhow::Result<()> {
    let out = JsonOut {
        settings: JsonSettings {
            positions: file_name(&a.positions),
            openings,
            a_options: &a.a_opt,
            b_options: &a.b_opt,
            common_options: &a.opt,
            hash_mb: a.hash,
            nodes: a.movetime.is_none().then_some(a.nodes),
            movetime_ms: a.movetime,
            rule: a.rule.to_string(),
            max_plies: a.max_plies,
            random_plies: a.random_plies,
            seed: a.seed,
            max_games: a.max_games,
            stop_at_bound: !a.no_stop,
            sprt,
            model: "pentanomial game pairs, GSPRT (logistic Elo)",
        },
        report,
    };
    let file =
        std::fs::File::create(path).with_context(|| format!("cannot write {}", path.display()))?;
    serde_json::to_writer_pretty(std::io::BufWriter::new(file), &out)
        .with_context(|| format!("cannot write {}", path.display()))
}
