//! `replay`: continue entering-king endings with the engine playing both sides, one table
//! row per start position, and a summary (share converted to a declaration, plies to the
//! 10-piece condition and to the declaration, how often the better side won).
//!
//! The "better" side of a start position is the side owning more points (a declaration
//! win needs 31 owned points under the 24-point rule, and owned points move only by
//! captures); positions where both own the same have no better side.
//!
//! Under a 24-point rule nothing can be declared after move 500 (the rule's own limit): a
//! start position past it cannot be settled by a declaration, so it is not played out; its
//! row says `past_move_500` and the summary counts such positions apart. Declared draws
//! (24-30 points) are counted apart from the games the ply limit stopped.
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use super::play::{GameSettings, play_game};
use crate::engine::search::Config;
use crate::referee::usi::EngineFailure;
use crate::referee::{
    self, Declarer, Ending, EngineSpec, Game, NoObserver, Player as _, RefereeSettings,
    ReplayEnding, SideStats, UsiPlayer,
};
use crate::shogi::positions_file::{BadLine, read_positions_file};
use crate::shogi::{Color, History, Position};

/// A start position read from a positions file.
#[derive(Debug, Clone)]
pub struct StartPosition {
    /// Where it came from (`file:line` or a game id).
    pub id: String,
    /// The SFEN as read (the line's first column).
    pub sfen: String,
}

/// Read a positions file ([`crate::shogi::positions_file`]): the positions, each with the
/// id `NAME:LINE`, and the lines that could not be read.
pub fn read_positions(text: &str, name: &str) -> (Vec<(StartPosition, Position)>, Vec<BadLine>) {
    let (lines, bad) = read_positions_file(text);
    let out = lines
        .into_iter()
        .map(|l| {
            (
                StartPosition {
                    id: format!("{name}:{}", l.line),
                    sfen: l.sfen,
                },
                l.position,
            )
        })
        .collect();
    (out, bad)
}

/// One row of the replay table.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ReplayRow {
    /// The start position's place (from 0) in the run's list of start positions (the
    /// whole list, before `--shard` takes its share).
    pub index: usize,
    /// The start position's id ([`StartPosition::id`]).
    pub id: String,
    /// The start position's SFEN.
    pub start_sfen: String,
    /// Black's non-king pieces in the enemy camp at the start.
    pub start_zone_black: i32,
    /// Black's declaration points (camp + hand) at the start.
    pub start_points_black: i32,
    /// Black's owned points (board + hand) at the start.
    pub start_owned_black: i32,
    /// White's non-king pieces in the enemy camp at the start.
    pub start_zone_white: i32,
    /// White's declaration points (camp + hand) at the start.
    pub start_points_white: i32,
    /// White's owned points (board + hand) at the start.
    pub start_owned_white: i32,
    /// `black`, `white` or empty.
    pub better: String,
    /// `declaration`, `declared_draw`, `mate`, `repetition`, `perpetual_check`, `try`,
    /// `limit`, or `past_move_500` (not played: a 24-point rule allows no declaration
    /// after move 500); with outside engines also `resign`, and the failures `illegal`
    /// (an illegal or unreadable move, or an illegal declaration), `timeout` and
    /// `engine_crash`, each a loss of the side that failed.
    pub ending: ReplayEnding,
    /// `black`, `white` or `draw`.
    pub winner: String,
    /// Who declared (a win or a draw; empty otherwise).
    pub declared_by: String,
    /// Plies played (0 for a position not played).
    pub plies: u32,
    /// First ply (0 = the start) at which Black had 10 pieces in the enemy camp.
    pub first_ten_black: Option<u32>,
    /// First ply (0 = the start) at which White had 10 pieces in the enemy camp.
    pub first_ten_white: Option<u32>,
    /// Black's non-king pieces in the enemy camp at the end.
    pub end_zone_black: i32,
    /// Black's declaration points at the end.
    pub end_points_black: i32,
    /// Black's owned points at the end.
    pub end_owned_black: i32,
    /// White's non-king pieces in the enemy camp at the end.
    pub end_zone_white: i32,
    /// White's declaration points at the end.
    pub end_points_white: i32,
    /// White's owned points at the end.
    pub end_owned_white: i32,
    /// Nodes searched by both sides over the game.
    pub nodes: u64,
    /// The moves played, in USI.
    pub moves: String,
    /// Black's engine (`id name`).
    pub engine_black: String,
    /// White's engine.
    pub engine_white: String,
    /// Who made the declaration of a declaration ending: `engine` or `referee`
    /// (`--auto-declare`); empty otherwise.
    pub declarer: String,
    /// Black's mean time a move (from `go` to `bestmove`, or the built-in search), in
    /// milliseconds; empty without a move or with `--no-times`.
    pub ms_per_move_black: Option<f64>,
    /// White's mean time a move, in milliseconds.
    pub ms_per_move_white: Option<f64>,
    /// What went wrong in a failure or an illegal declaration.
    pub note: String,
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

fn better_side(start: &[SideStats; 2]) -> &'static str {
    match start[0].owned.cmp(&start[1].owned) {
        std::cmp::Ordering::Greater => "black",
        std::cmp::Ordering::Less => "white",
        std::cmp::Ordering::Equal => "",
    }
}

/// Mean milliseconds a move (None without a move, or when times are not kept).
fn ms_per_move(think: Duration, answers: u32, times: bool) -> Option<f64> {
    (times && answers > 0)
        .then(|| (think.as_secs_f64() * 1000.0 / answers as f64 * 10.0).round() / 10.0)
}

/// How a replay's rows are labelled.
#[derive(Debug, Clone)]
pub struct RowLabels {
    /// The engines' names (Black, White).
    pub names: [String; 2],
    /// Whether to write the measured times (false: the time columns stay empty, and
    /// tables of the same games compare byte for byte).
    pub times: bool,
}

/// The table row of a finished game, whoever played it; `index` is the start position's
/// place in the run's list.
pub fn row(index: usize, start: &StartPosition, g: &Game, labels: &RowLabels) -> ReplayRow {
    ReplayRow {
        index,
        id: start.id.clone(),
        start_sfen: start.sfen.clone(),
        start_zone_black: g.start[0].zone,
        start_points_black: g.start[0].points,
        start_owned_black: g.start[0].owned,
        start_zone_white: g.start[1].zone,
        start_points_white: g.start[1].points,
        start_owned_white: g.start[1].owned,
        better: better_side(&g.start).to_string(),
        ending: g.ending.kind(),
        winner: g
            .ending
            .winner()
            .map(color_name)
            .unwrap_or("draw")
            .to_string(),
        declared_by: match g.ending {
            Ending::Declaration(c) | Ending::DeclaredDraw(c) => color_name(c).to_string(),
            Ending::Illegal(c) if g.declarer.is_some() => color_name(c).to_string(),
            _ => String::new(),
        },
        plies: g.plies,
        first_ten_black: g.first_ten[0],
        first_ten_white: g.first_ten[1],
        end_zone_black: g.end[0].zone,
        end_points_black: g.end[0].points,
        end_owned_black: g.end[0].owned,
        end_zone_white: g.end[1].zone,
        end_points_white: g.end[1].points,
        end_owned_white: g.end[1].owned,
        nodes: g.nodes,
        moves: g
            .moves
            .iter()
            .map(|m| m.to_usi())
            .collect::<Vec<_>>()
            .join(" "),
        engine_black: labels.names[0].clone(),
        engine_white: labels.names[1].clone(),
        declarer: match g.declarer {
            Some(Declarer::Engine) => "engine".into(),
            Some(Declarer::Referee) => "referee".into(),
            None => String::new(),
        },
        ms_per_move_black: ms_per_move(g.think[0], g.answers[0], labels.times),
        ms_per_move_white: ms_per_move(g.think[1], g.answers[1], labels.times),
        note: g.note.clone(),
    }
}

/// Whether a declaration is impossible from `pos` on under `settings`' rule: a 24-point
/// rule and a move number past 500.
pub fn past_move_500(pos: &Position, settings: &GameSettings) -> bool {
    past_move_500_under(pos, settings.rule)
}

/// [`past_move_500`] for a rule.
pub fn past_move_500_under(pos: &Position, rule: crate::shogi::EnteringKingRule) -> bool {
    crate::shogi::past_last_declaration_move(pos, rule)
}

/// Replay every position in parallel; `on_done` is called after each game. Positions past
/// move 500 under a 24-point rule are not played (see the module text).
pub fn replay(
    starts: &[(usize, StartPosition, Position)],
    config: &Config,
    settings: &GameSettings,
    labels: &RowLabels,
    on_done: &(dyn Fn() + Sync),
) -> Vec<ReplayRow> {
    starts
        .par_iter()
        .map(|(i, s, p)| {
            let g = if past_move_500(p, settings) {
                Game::not_played(p, labels.names.clone())
            } else {
                play_game(p, [config, config], settings)
            };
            on_done();
            row(*i, s, &g, labels)
        })
        .collect()
}

/// Why a replay with outside engines stopped before its end.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RefereeRunError {
    /// An engine could not be started at all (before any game).
    #[error("cannot start engine `{command}`: {cause}")]
    Start {
        /// Its command.
        command: String,
        /// Why.
        cause: String,
    },
    /// The run was interrupted (every engine process has been ended).
    #[error("interrupted")]
    Interrupted,
}

/// Replay every position with outside engines (`specs`: Black's, White's), `jobs` games
/// side by side, each worker with its own two engine processes (started afresh after a
/// crash or a timeout), refereed under `settings`. Positions past move 500 under a
/// 24-point rule are not played. `stop` is polled while waiting for an engine: once it
/// says true, every engine is ended and the run returns
/// [`RefereeRunError::Interrupted`]. Rows come in the order of `starts`; also returned:
/// the engines' thinking time and the workers' busy time ([`RunTimes`]).
pub fn replay_referee(
    starts: &[(usize, StartPosition, Position)],
    specs: &[EngineSpec; 2],
    settings: &RefereeSettings,
    jobs: usize,
    times: bool,
    stop: Option<fn() -> bool>,
    on_done: &(dyn Fn() + Sync),
) -> Result<(Vec<ReplayRow>, RunTimes), RefereeRunError> {
    let pool = RefereePool {
        starts,
        specs,
        settings,
        times,
        stop,
        next: AtomicUsize::new(0),
        failed: AtomicBool::new(false),
        slots: Mutex::new(vec![None; starts.len()]),
        run_times: Mutex::new(RunTimes::default()),
    };
    let results: Vec<Result<(), RefereeRunError>> = std::thread::scope(|sc| {
        let handles: Vec<_> = (0..jobs.max(1))
            .map(|_| {
                sc.spawn(|| {
                    let r = pool.work(on_done);
                    if r.is_err() {
                        pool.failed.store(true, Ordering::Relaxed);
                    }
                    r
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or(Err(RefereeRunError::Interrupted)))
            .collect()
    });
    if let Some(e) = results.into_iter().find_map(Result::err) {
        return Err(e);
    }
    let rows: Vec<ReplayRow> = into_inner(pool.slots).into_iter().flatten().collect();
    if rows.len() != starts.len() {
        return Err(RefereeRunError::Interrupted);
    }
    Ok((rows, into_inner(pool.run_times)))
}

fn into_inner<T>(m: Mutex<T>) -> T {
    m.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// What the workers of a refereed replay share: the positions, taken in turn, and the
/// rows and times they leave.
struct RefereePool<'a> {
    starts: &'a [(usize, StartPosition, Position)],
    specs: &'a [EngineSpec; 2],
    settings: &'a RefereeSettings,
    times: bool,
    stop: Option<fn() -> bool>,
    next: AtomicUsize,
    failed: AtomicBool,
    slots: Mutex<Vec<Option<ReplayRow>>>,
    run_times: Mutex<RunTimes>,
}

impl RefereePool<'_> {
    /// One worker: its own two engine processes, games until the positions run out.
    fn work(&self, on_done: &(dyn Fn() + Sync)) -> Result<(), RefereeRunError> {
        let t0 = std::time::Instant::now();
        let mut players = [
            UsiPlayer::new(self.specs[0].clone(), self.stop),
            UsiPlayer::new(self.specs[1].clone(), self.stop),
        ];
        let start_wall = std::time::Instant::now();
        start_both(&mut players, self.specs)?;
        // What this worker waits for the engines: the side-by-side start, then every
        // readying and restart (one engine at a time).
        let start_wall = start_wall.elapsed();
        let initial = players[0].startup + players[1].startup;
        let labels = RowLabels {
            names: [players[0].name(), players[1].name()],
            times: self.times,
        };
        let mut thought = Duration::ZERO;
        while !self.failed.load(Ordering::Relaxed) {
            let k = self.next.fetch_add(1, Ordering::Relaxed);
            let Some((i, s, p)) = self.starts.get(k) else {
                break;
            };
            let g = if past_move_500_under(p, self.settings.rule) {
                Game::not_played(p, labels.names.clone())
            } else {
                let [b, w] = &mut players;
                let g = referee::play(p, History::new(p), [b, w], self.settings, &mut NoObserver)
                    .map_err(|_| RefereeRunError::Interrupted)?;
                thought += g.think[0] + g.think[1];
                g
            };
            if let Ok(mut v) = self.slots.lock() {
                v[k] = Some(row(*i, s, &g, &labels));
            }
            on_done();
        }
        if let Ok(mut t) = self.run_times.lock() {
            t.think += thought;
            t.busy += t0.elapsed();
            t.startup += start_wall + (players[0].startup + players[1].startup - initial);
        }
        for p in &mut players {
            p.quit();
        }
        Ok(())
    }
}

/// Start both engines side by side (some take seconds to load); a failure names the
/// command that failed.
fn start_both(
    players: &mut [UsiPlayer; 2],
    specs: &[EngineSpec; 2],
) -> Result<(), RefereeRunError> {
    let started: Vec<Result<(), EngineFailure>> = std::thread::scope(|sc| {
        let hs: Vec<_> = players
            .iter_mut()
            .map(|p| sc.spawn(move || p.ensure_started().map(|_| ())))
            .collect();
        hs.into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or(Err(EngineFailure::Crash("start-up panicked".into())))
            })
            .collect()
    });
    for (r, spec) in started.into_iter().zip(specs) {
        r.map_err(|e| match e {
            EngineFailure::Interrupted => RefereeRunError::Interrupted,
            e => RefereeRunError::Start {
                command: spec.command.clone(),
                cause: e.to_string(),
            },
        })?;
    }
    Ok(())
}

/// Where the time of a refereed replay went.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RunTimes {
    /// The engines' thinking, from each `go` to its `bestmove`, summed over every game.
    pub think: Duration,
    /// The workers' time from their start (the engines' start-up included) to the end of
    /// their last game, summed.
    pub busy: Duration,
    /// The time the workers waited for the engines' start-up and readying (`usi` ..
    /// `readyok`, `usinewgame` .. `readyok`), summed. What is neither thinking nor
    /// start-up of the busy time is the referee's overhead.
    pub startup: Duration,
}

/// The summary of a replay.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Summary {
    /// Start positions in the table (rows).
    pub positions: usize,
    /// Games won by a declaration.
    pub declarations: usize,
    /// Declaration wins of Black.
    pub declarations_black: usize,
    /// Declaration wins of White.
    pub declarations_white: usize,
    /// `declarations` over `positions` (0 for an empty table).
    pub declaration_share: f64,
    /// Draws declared with 24-30 points (24-point rules).
    pub declared_draws: usize,
    /// Games ended by mate.
    pub mates: usize,
    /// Games ended by fourfold repetition, perpetual check included.
    pub repetitions: usize,
    /// Games the ply limit stopped.
    pub limits: usize,
    /// Positions past move 500 under a 24-point rule: not played, no declaration possible.
    pub past_move_500: usize,
    /// Median plies from the start to the first 10-piece position, over the sides that
    /// reached it during the game (sides already there at the start are not counted).
    pub median_plies_to_ten: Option<f64>,
    /// Median plies of the games won by a declaration.
    pub median_plies_to_declaration: Option<f64>,
    /// Positions with a better side (one side owning more points at the start).
    pub with_better_side: usize,
    /// Of those, the games the better side won.
    pub better_side_won: usize,
    /// Of those, the games the other side won (draws are neither).
    pub better_side_lost: usize,
    /// Games a side resigned.
    pub resigns: usize,
    /// Games the try rule ended.
    pub tries: usize,
    /// Games a side lost by an illegal move, an unreadable answer or an illegal
    /// declaration.
    pub illegal: usize,
    /// Games a side lost by not answering in time.
    pub timeouts: usize,
    /// Games a side lost because its engine ended.
    pub engine_crashes: usize,
    /// Declarations (wins and draws) the referee made for a side (`--auto-declare`).
    pub referee_declarations: usize,
    /// Black's engine (the name of the first row; `several` when rows differ).
    pub engine_black: String,
    /// White's engine.
    pub engine_white: String,
    /// Black's time a move in milliseconds, the mean over the games with one.
    pub ms_per_move_black: Option<f64>,
    /// White's time a move in milliseconds, the mean over the games with one.
    pub ms_per_move_white: Option<f64>,
}

fn common_name(names: impl Iterator<Item = String>) -> String {
    let mut out: Option<String> = None;
    for n in names {
        match &out {
            None => out = Some(n),
            Some(o) if *o != n => return "several".into(),
            _ => {}
        }
    }
    out.unwrap_or_default()
}

fn mean_ms(v: impl Iterator<Item = Option<f64>>) -> Option<f64> {
    let v: Vec<f64> = v.flatten().collect();
    (!v.is_empty()).then(|| (v.iter().sum::<f64>() / v.len() as f64 * 10.0).round() / 10.0)
}

fn median(mut v: Vec<f64>) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    Some(if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    })
}

/// Summarise a replay table.
pub fn summarize(rows: &[ReplayRow]) -> Summary {
    let decl: Vec<&ReplayRow> = rows
        .iter()
        .filter(|r| r.ending == ReplayEnding::Declaration)
        .collect();
    let mut to_ten = Vec::new();
    for r in rows {
        if let Some(p) = r.first_ten_black
            && p > 0
        {
            to_ten.push(p as f64);
        }
        if let Some(p) = r.first_ten_white
            && p > 0
        {
            to_ten.push(p as f64);
        }
    }
    let with_better: Vec<&ReplayRow> = rows.iter().filter(|r| !r.better.is_empty()).collect();
    let count = |e: ReplayEnding| rows.iter().filter(|r| r.ending == e).count();
    Summary {
        positions: rows.len(),
        declarations: decl.len(),
        declarations_black: decl.iter().filter(|r| r.declared_by == "black").count(),
        declarations_white: decl.iter().filter(|r| r.declared_by == "white").count(),
        declaration_share: if rows.is_empty() {
            0.0
        } else {
            decl.len() as f64 / rows.len() as f64
        },
        declared_draws: count(ReplayEnding::DeclaredDraw),
        mates: count(ReplayEnding::Mate),
        repetitions: count(ReplayEnding::Repetition) + count(ReplayEnding::PerpetualCheck),
        limits: count(ReplayEnding::Limit),
        past_move_500: count(ReplayEnding::PastMove500),
        median_plies_to_ten: median(to_ten),
        median_plies_to_declaration: median(decl.iter().map(|r| r.plies as f64).collect()),
        with_better_side: with_better.len(),
        better_side_won: with_better.iter().filter(|r| r.winner == r.better).count(),
        better_side_lost: with_better
            .iter()
            .filter(|r| r.winner != r.better && r.winner != "draw")
            .count(),
        resigns: count(ReplayEnding::Resign),
        tries: count(ReplayEnding::Try),
        illegal: count(ReplayEnding::Illegal),
        timeouts: count(ReplayEnding::Timeout),
        engine_crashes: count(ReplayEnding::EngineCrash),
        referee_declarations: rows.iter().filter(|r| r.declarer == "referee").count(),
        engine_black: common_name(rows.iter().map(|r| r.engine_black.clone())),
        engine_white: common_name(rows.iter().map(|r| r.engine_white.clone())),
        ms_per_move_black: mean_ms(rows.iter().map(|r| r.ms_per_move_black)),
        ms_per_move_white: mean_ms(rows.iter().map(|r| r.ms_per_move_white)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians() {
        assert_eq!(median(vec![]), None);
        assert_eq!(median(vec![3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(vec![4.0, 1.0, 2.0, 3.0]), Some(2.5));
    }
}
