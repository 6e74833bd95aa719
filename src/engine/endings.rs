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
use serde::Serialize;

use super::play::{Ending, GameRecord, GameSettings, SideStats, play_game};
use super::search::Config;
use crate::shogi::{Color, Position};

/// A start position read from a positions file.
#[derive(Debug, Clone)]
pub struct StartPosition {
    /// Where it came from (`file:line` or a game id).
    pub id: String,
    /// The SFEN as read (the line's first column).
    pub sfen: String,
}

/// Read a positions file: SFEN in the first tab-separated column, `#` comments, blank
/// lines skipped. Returns the positions and the lines that could not be read.
pub fn read_positions(text: &str, name: &str) -> (Vec<(StartPosition, Position)>, Vec<String>) {
    let mut out = Vec::new();
    let mut bad = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let sfen = t.split('\t').next().unwrap_or("").trim();
        match Position::from_sfen(sfen) {
            Ok(p) => out.push((
                StartPosition {
                    id: format!("{name}:{}", i + 1),
                    sfen: sfen.to_string(),
                },
                p,
            )),
            Err(e) => bad.push(format!("{name}:{}: {e}", i + 1)),
        }
    }
    (out, bad)
}

/// One row of the replay table.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ReplayRow {
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
    /// after move 500).
    pub ending: String,
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
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// The table row of a finished game.
pub fn row(start: &StartPosition, g: &GameRecord) -> ReplayRow {
    let better = match g.start[0].owned.cmp(&g.start[1].owned) {
        std::cmp::Ordering::Greater => "black",
        std::cmp::Ordering::Less => "white",
        std::cmp::Ordering::Equal => "",
    };
    ReplayRow {
        id: start.id.clone(),
        start_sfen: start.sfen.clone(),
        start_zone_black: g.start[0].zone,
        start_points_black: g.start[0].points,
        start_owned_black: g.start[0].owned,
        start_zone_white: g.start[1].zone,
        start_points_white: g.start[1].points,
        start_owned_white: g.start[1].owned,
        better: better.to_string(),
        ending: ending_name(g).to_string(),
        winner: g
            .ending
            .winner()
            .map(color_name)
            .unwrap_or("draw")
            .to_string(),
        declared_by: match g.ending {
            Ending::Declaration(c) | Ending::DeclaredDraw(c) => color_name(c).to_string(),
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
    }
}

fn ending_name(g: &GameRecord) -> &'static str {
    if g.past_move_limit {
        "past_move_500"
    } else {
        g.ending.name()
    }
}

/// Whether a declaration is impossible from `pos` on under `settings`' rule: a 24-point
/// rule and a move number past 500.
pub fn past_move_500(pos: &Position, settings: &GameSettings) -> bool {
    settings.rule.is_24() && pos.move_number() > 500
}

/// The record of a position not played because no declaration is possible from it.
fn not_played(p: &Position) -> GameRecord {
    let stats = [
        SideStats::of(p, Color::Black),
        SideStats::of(p, Color::White),
    ];
    let ten = |c: Color| (p.zone_count(c) >= 10).then_some(0);
    GameRecord {
        start: stats,
        end: stats,
        ending: Ending::Limit,
        plies: 0,
        first_ten: [ten(Color::Black), ten(Color::White)],
        moves: Vec::new(),
        nodes: 0,
        past_move_limit: true,
    }
}

/// Replay every position in parallel; `on_done` is called after each game. Positions past
/// move 500 under a 24-point rule are not played (see the module text).
pub fn replay(
    starts: &[(StartPosition, Position)],
    config: &Config,
    settings: &GameSettings,
    on_done: &(dyn Fn() + Sync),
) -> Vec<ReplayRow> {
    starts
        .par_iter()
        .map(|(s, p)| {
            let g = if past_move_500(p, settings) {
                not_played(p)
            } else {
                play_game(p, [config, config], settings)
            };
            on_done();
            row(s, &g)
        })
        .collect()
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
    let decl: Vec<&ReplayRow> = rows.iter().filter(|r| r.ending == "declaration").collect();
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
        declared_draws: rows.iter().filter(|r| r.ending == "declared_draw").count(),
        mates: rows.iter().filter(|r| r.ending == "mate").count(),
        repetitions: rows
            .iter()
            .filter(|r| r.ending == "repetition" || r.ending == "perpetual_check")
            .count(),
        limits: rows.iter().filter(|r| r.ending == "limit").count(),
        past_move_500: rows.iter().filter(|r| r.ending == "past_move_500").count(),
        median_plies_to_ten: median(to_ten),
        median_plies_to_declaration: median(decl.iter().map(|r| r.plies as f64).collect()),
        with_better_side: with_better.len(),
        better_side_won: with_better.iter().filter(|r| r.winner == r.better).count(),
        better_side_lost: with_better
            .iter()
            .filter(|r| r.winner != r.better && r.winner != "draw")
            .count(),
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
