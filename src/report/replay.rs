//! The replays in the report (`report --replay replay.csv`, one file per engine): how
//! each engine ended the mutual entering-king games the move limit cut off, by era and by
//! `'Max_Moves`, and, for two replays, how often their verdicts agree.
//!
//! A replay row is matched to its game by `id` (the game id `replay --games` writes);
//! rows of other positions are not counted in the endings table (the report says how
//! many). Two replays are compared on every position both played, by `id`, whether or not
//! it is a game of the table (a replay of a positions file has none). Every row counts
//! once, in one ending class: `declared_black`, `declared_white` (a declaration win),
//! `declared_draw`, `mate` (no legal move, or a resignation), `repetition` (perpetual
//! check included), `limit` (the replay's ply limit), `other` (the try rule, a position
//! past move 500 that was not played, and the failures of an outside engine).
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use polars::prelude::*;

use super::columns;
use super::error::ReportError;
use super::stats::wilson;
use super::tables::{ERAS, cut_mutual_games};
use crate::referee::ReplayEnding;

/// The ending classes, in table order.
pub const CLASSES: [&str; 8] = [
    "declared_black",
    "declared_white",
    "declared_draw",
    "mate",
    "resign",
    "repetition",
    "limit",
    "other",
];

/// A table made from replays, with its own name and caption.
#[derive(Debug, Clone)]
pub struct ExtraTable {
    /// File stem of the CSV and Parquet outputs.
    pub name: String,
    /// Heading in `report.md`.
    pub title: String,
    /// What is counted.
    pub caption: String,
    /// The rows.
    pub data: DataFrame,
}

/// One replay file: a label and each row's (id, ending class, winner).
#[derive(Debug, Clone)]
pub struct Replay {
    /// The engine (`engine_black`, or `BLACK vs WHITE` for a match), made unique with the
    /// file name when two replays share it.
    pub label: String,
    /// (id, class, winner) of every row.
    pub rows: Vec<(String, &'static str, String)>,
}

/// The ending class of a replay row.
pub fn class(ending: ReplayEnding, declared_by: &str) -> &'static str {
    use ReplayEnding as E;
    match ending {
        E::Declaration if declared_by == "black" => "declared_black",
        E::Declaration if declared_by == "white" => "declared_white",
        E::DeclaredDraw => "declared_draw",
        E::Mate => "mate",
        E::Resign => "resign",
        E::Repetition | E::PerpetualCheck => "repetition",
        E::Limit => "limit",
        E::Declaration | E::Try | E::Illegal | E::Timeout | E::EngineCrash | E::PastMove500 => {
            "other"
        }
    }
}

/// Read a replay table (`replay`'s CSV).
pub fn read_replay(path: &Path) -> Result<Replay, ReportError> {
    let err = |e: csv::Error| ReportError::Io {
        path: path.to_path_buf(),
        cause: std::io::Error::other(e),
    };
    let mut rdr = csv::Reader::from_path(path).map_err(err)?;
    let headers = rdr.headers().map_err(err)?.clone();
    let col = |name: &str| {
        headers
            .iter()
            .position(|h| h == name)
            .ok_or_else(|| ReportError::Config(format!("{}: no column `{name}`", path.display())))
    };
    let (id, ending, winner, by, eb, ew) = (
        col("id")?,
        col("ending")?,
        col("winner")?,
        col("declared_by")?,
        col("engine_black")?,
        col("engine_white")?,
    );
    let mut rows = Vec::new();
    let mut names: Option<(String, String)> = None;
    for rec in rdr.records() {
        let rec = rec.map_err(err)?;
        let get = |i: usize| rec.get(i).unwrap_or("").to_string();
        let kind = get(ending)
            .parse::<ReplayEnding>()
            .map_err(|cause| ReportError::BadWord {
                path: path.to_path_buf(),
                line: rec.position().map_or(0, |p| p.line()),
                cause,
            })?;
        rows.push((get(id), class(kind, &get(by)), get(winner)));
        names.get_or_insert((get(eb), get(ew)));
    }
    let label = match names {
        Some((b, w)) if b == w => b,
        Some((b, w)) => format!("{b} vs {w}"),
        None => file_label(path),
    };
    Ok(Replay { label, rows })
}

fn file_label(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Read every replay, labels made unique (`LABEL (FILE)` when two share one).
pub fn read_replays(paths: &[std::path::PathBuf]) -> Result<Vec<Replay>, ReportError> {
    let mut out: Vec<Replay> = paths
        .iter()
        .map(|p| read_replay(p))
        .collect::<Result<_, _>>()?;
    let labels: Vec<String> = out.iter().map(|r| r.label.clone()).collect();
    for (r, p) in out.iter_mut().zip(paths) {
        if labels.iter().filter(|l| **l == r.label).count() > 1 {
            r.label = format!("{} ({})", r.label, file_label(p));
        }
    }
    Ok(out)
}

/// The era and `'Max_Moves` of every cut mutual game ([`cut_mutual_games`]), by game id.
fn cut_games(games: &DataFrame) -> Result<HashMap<String, (Option<String>, String)>, ReportError> {
    let cut = cut_mutual_games(games.clone().lazy())
        .select([col("game_id"), col(columns::YEAR), col(columns::MAX_MOVES)])
        .collect()
        .map_err(ReportError::polars("cut mutual games"))?;
    let text = |name: &str| -> Result<Vec<Option<String>>, ReportError> {
        let c = cut
            .column(name)
            .and_then(|c| c.cast(&DataType::String))
            .map_err(ReportError::polars(name.to_string()))?;
        let s = c.str().map_err(ReportError::polars(name.to_string()))?;
        Ok(s.iter().map(|v| v.map(str::to_string)).collect())
    };
    let ids = text("game_id")?;
    let years = text(columns::YEAR)?;
    let max_moves = text(columns::MAX_MOVES)?;
    let mut out = HashMap::new();
    for i in 0..ids.len() {
        let Some(id) = &ids[i] else { continue };
        let era = years[i]
            .as_deref()
            .and_then(|y| y.parse::<i64>().ok())
            .and_then(|y| ERAS.iter().find(|e| e.1 <= y && y <= e.2))
            .map(|e| e.0.to_string());
        let mm = max_moves[i].clone().unwrap_or_else(|| "unknown".into());
        out.insert(id.clone(), (era, mm));
    }
    Ok(out)
}

fn rate_columns(cols: &mut Vec<Column>, name: &str, ks: &[u64], ns: &[u64]) {
    let rate: Vec<Option<f64>> = ks
        .iter()
        .zip(ns)
        .map(|(&k, &n)| (n > 0).then(|| k as f64 / n as f64))
        .collect();
    let ci: Vec<Option<(f64, f64)>> = ks.iter().zip(ns).map(|(&k, &n)| wilson(k, n)).collect();
    cols.push(Column::new(format!("{name}_rate").into(), rate));
    cols.push(Column::new(
        format!("{name}_rate_lo").into(),
        ci.iter().map(|c| c.map(|c| c.0)).collect::<Vec<_>>(),
    ));
    cols.push(Column::new(
        format!("{name}_rate_hi").into(),
        ci.iter().map(|c| c.map(|c| c.1)).collect::<Vec<_>>(),
    ));
}

/// The replay tables: endings by era and by `'Max_Moves` for every replay, and for two
/// replays the cross table of their ending classes and their agreement. Also returns a
/// note for each replay with rows that are not cut mutual games of `games`.
pub fn tables(
    games: &DataFrame,
    replays: &[Replay],
) -> Result<(Vec<ExtraTable>, Vec<String>), ReportError> {
    let cut = cut_games(games)?;
    let mut notes = Vec::new();
    let mut groups: Vec<Group> = Vec::new();
    for r in replays {
        groups.extend(replay_groups(r, &cut, &mut notes));
    }
    let mut out = vec![endings_table(&groups)?];
    // Two replays are compared on every position both played, matched by `id` (the game
    // ids of `replay --games`, or the ids of a positions file), cut games of this table or
    // not: a replay of a positions file has no game of the table.
    if let [ra, rb] = replays {
        out.extend(compare_two(ra, rb, &cut, &mut notes)?);
    }
    Ok((out, notes))
}

/// The cut games of the table: id -> (era, `'Max_Moves`).
type CutGames = HashMap<String, (Option<String>, String)>;

/// One row of `replay_endings`: (engine, by, group) and the counts per class.
type Group = (String, String, String, [u64; 8]);

/// One replay's rows counted per era, per `'Max_Moves` and over all; a note when some rows
/// are not cut games of this table.
fn replay_groups(r: &Replay, cut: &CutGames, notes: &mut Vec<String>) -> Vec<Group> {
    let mut by_era: BTreeMap<String, [u64; 8]> = BTreeMap::new();
    let mut by_mm: BTreeMap<(i64, String), [u64; 8]> = BTreeMap::new();
    let mut all = [0u64; 8];
    let mut unmatched = 0;
    for (id, cls, _) in &r.rows {
        let Some((era, mm)) = cut.get(id) else {
            unmatched += 1;
            continue;
        };
        let k = CLASSES.iter().position(|c| c == cls).unwrap_or(7);
        if let Some(e) = era {
            by_era.entry(e.clone()).or_default()[k] += 1;
        }
        let key = (mm.parse::<i64>().unwrap_or(i64::MAX), mm.clone());
        by_mm.entry(key).or_default()[k] += 1;
        all[k] += 1;
    }
    if unmatched > 0 {
        notes.push(format!(
            "Replay `{}`: {unmatched} of {} rows are not cut mutual games of this games table and are not counted.",
            r.label,
            r.rows.len()
        ));
    }
    let mut groups = Vec::new();
    for (e, c) in by_era {
        groups.push((r.label.clone(), "era".into(), e, c));
    }
    for ((_, m), c) in by_mm {
        groups.push((r.label.clone(), "max_moves".into(), m, c));
    }
    groups.push((r.label.clone(), "all".into(), "all".into(), all));
    groups
}

/// The table `replay_endings`: every group's counts per class and rates.
fn endings_table(groups: &[Group]) -> Result<ExtraTable, ReportError> {
    let n: Vec<u64> = groups.iter().map(|g| g.3.iter().sum()).collect();
    let count = |k: usize| -> Vec<u64> { groups.iter().map(|g| g.3[k]).collect() };
    let text = |f: fn(&Group) -> &String| groups.iter().map(f).cloned().collect::<Vec<_>>();
    let mut cols = vec![
        Column::new("engine".into(), text(|g| &g.0)),
        Column::new("by".into(), text(|g| &g.1)),
        Column::new("group".into(), text(|g| &g.2)),
        Column::new("games".into(), n.clone()),
    ];
    for (k, c) in CLASSES.iter().enumerate() {
        cols.push(Column::new((*c).into(), count(k)));
    }
    let decl: Vec<u64> = groups.iter().map(|g| g.3[0] + g.3[1]).collect();
    rate_columns(&mut cols, "declared", &decl, &n);
    rate_columns(&mut cols, "declared_draw", &count(2), &n);
    rate_columns(&mut cols, "mate", &count(3), &n);
    rate_columns(&mut cols, "resign", &count(4), &n);
    rate_columns(&mut cols, "repetition", &count(5), &n);
    rate_columns(&mut cols, "limit", &count(6), &n);
    let endings =
        DataFrame::new_infer_height(cols).map_err(ReportError::polars("table replay_endings"))?;
    Ok(ExtraTable {
        name: "replay_endings".into(),
        title: "The cut games replayed".into(),
        caption: "Mutual entering-king games the move limit cut off, continued from their final position by each replay \
(`report --replay`), counted by era, by `'Max_Moves` and over all: `declared_black` / `declared_white`: won by a declaration \
of that side; `declared_draw`: a declaration with the points of a draw (24-point rules); `mate`: no legal move; \
`resign`: a resignation; `repetition`: fourfold repetition, perpetual check included; `limit`: the replay's ply limit; `other`: the try \
rule, a position past move 500 not played, an outside engine's illegal move, timeout or crash. `declared_rate` is both \
sides' declaration wins over `games`; every rate with its 95% Wilson score interval (`*_lo`, `*_hi`)."
            .into(),
        data: endings,
    })
}

/// Two replays compared on the positions both played (with notes on those only one
/// played), or only a note when they share none.
fn compare_two(
    ra: &Replay,
    rb: &Replay,
    cut: &CutGames,
    notes: &mut Vec<String>,
) -> Result<Vec<ExtraTable>, ReportError> {
    let all = |r: &Replay| -> Verdicts {
        r.rows
            .iter()
            .map(|(id, cls, winner)| (id.clone(), (*cls, winner.clone())))
            .collect()
    };
    let (a, b) = (all(ra), all(rb));
    let shared = a.keys().filter(|id| b.contains_key(*id)).count();
    let only_a = a.len() - shared;
    let only_b = b.len() - shared;
    if shared == 0 {
        notes.push(format!(
            "Replays `{}` and `{}` have no position in common (by `id`): they are not compared.",
            ra.label, rb.label
        ));
        return Ok(Vec::new());
    }
    if only_a > 0 || only_b > 0 {
        notes.push(format!(
            "Replays `{}` and `{}` played different positions: they are compared on the {shared} both played; \
{only_a} only in `{}`, {only_b} only in `{}`.",
            ra.label, rb.label, ra.label, rb.label
        ));
    }
    let cut_shared = a
        .keys()
        .filter(|id| b.contains_key(*id) && cut.contains_key(*id))
        .count();
    agreement(&a, &b, &ra.label, &rb.label, shared, cut_shared)
}

type Verdicts = HashMap<String, (&'static str, String)>;

/// The cross table of two replays' ending classes, and their agreement.
fn agreement(
    a: &Verdicts,
    b: &Verdicts,
    la: &str,
    lb: &str,
    shared: usize,
    cut_shared: usize,
) -> Result<Vec<ExtraTable>, ReportError> {
    let mut cross = [[0u64; 8]; 8];
    let (mut n, mut same_class, mut same_winner) = (0u64, 0u64, 0u64);
    for (id, (ca, wa)) in a {
        let Some((cb, wb)) = b.get(id) else { continue };
        let i = CLASSES.iter().position(|c| c == ca).unwrap_or(7);
        let j = CLASSES.iter().position(|c| c == cb).unwrap_or(7);
        cross[i][j] += 1;
        n += 1;
        same_class += u64::from(i == j);
        same_winner += u64::from(wa == wb);
    }
    let cross_df = cross_frame(&cross, n)?;
    let agree_df = agreement_frame([same_class, same_winner], n)?;
    Ok(vec![
        ExtraTable {
            name: "replay_cross".into(),
            title: "Two replays of the cut games, ending against ending".into(),
            caption: format!(
                "The {shared} positions both replays played, matched by `id` (game ids of `replay --games` or the ids of a \
positions file; {cut_shared} of them are cut mutual games of this games table): rows are the ending class of `{la}`, columns that of \
`{lb}` (classes as in the table above)."
            ),
            data: cross_df,
        },
        ExtraTable {
            name: "replay_agreement".into(),
            title: "How often the two replays agree".into(),
            caption: format!(
                "Of the {shared} positions both replays played (`{la}`, `{lb}`; {cut_shared} cut mutual games of this games \
table): `same_ending`: the same ending class; `same_winner`: the same winner (or both a draw). Rates with their 95% Wilson score \
interval."
            ),
            data: agree_df,
        },
    ])
}

/// The cross table of the ending classes (rows: the first replay's), with totals.
fn cross_frame(cross: &[[u64; 8]; 8], n: u64) -> Result<DataFrame, ReportError> {
    let mut cols = vec![Column::new(
        "ending".into(),
        CLASSES
            .iter()
            .map(|c| c.to_string())
            .chain(["total".to_string()])
            .collect::<Vec<_>>(),
    )];
    for (j, c) in CLASSES.iter().enumerate() {
        let mut v: Vec<u64> = (0..8).map(|i| cross[i][j]).collect();
        v.push(v.iter().sum());
        cols.push(Column::new((*c).into(), v));
    }
    let mut totals: Vec<u64> = cross.iter().map(|r| r.iter().sum()).collect();
    totals.push(n);
    cols.push(Column::new("total".into(), totals));
    DataFrame::new_infer_height(cols).map_err(ReportError::polars("table replay_cross"))
}

/// How often the two replays agree: the same ending class, the same winner, of `n`.
fn agreement_frame(ks: [u64; 2], n: u64) -> Result<DataFrame, ReportError> {
    let ci: Vec<Option<(f64, f64)>> = ks.iter().map(|&k| wilson(k, n)).collect();
    DataFrame::new_infer_height(vec![
        Column::new("verdict".into(), ["same_ending", "same_winner"]),
        Column::new("agree".into(), ks.to_vec()),
        Column::new("games".into(), vec![n, n]),
        Column::new(
            "agree_rate".into(),
            ks.iter()
                .map(|&k| (n > 0).then(|| k as f64 / n as f64))
                .collect::<Vec<_>>(),
        ),
        Column::new(
            "agree_rate_lo".into(),
            ci.iter().map(|c| c.map(|c| c.0)).collect::<Vec<_>>(),
        ),
        Column::new(
            "agree_rate_hi".into(),
            ci.iter().map(|c| c.map(|c| c.1)).collect::<Vec<_>>(),
        ),
    ])
    .map_err(ReportError::polars("table replay_agreement"))
}
