//! Counts over the scan, kept per worker and merged at the end. Every field is a sum (or a
//! map of sums), so merging is commutative and the totals do not depend on how the work
//! was split between threads.
use std::collections::BTreeMap;

use serde::Serialize;

use crate::game::{COLUMNS, Cell, GameRow};

/// Where the columns the counts look at are in a row's cells.
struct Columns {
    status: usize,
    year: usize,
    final_board: usize,
    final_sfen: usize,
    game_name: usize,
    owned_black: usize,
    owned_white: usize,
    judge_agrees: usize,
}

fn columns() -> &'static Columns {
    static COLS: std::sync::OnceLock<Columns> = std::sync::OnceLock::new();
    COLS.get_or_init(|| {
        let at = |name: &str| {
            COLUMNS
                .iter()
                .position(|c| c.name == name)
                .unwrap_or(usize::MAX)
        };
        Columns {
            status: at("status"),
            year: at("year"),
            final_board: at("final_board"),
            final_sfen: at("final_sfen"),
            game_name: at("game_name"),
            owned_black: at("owned_black"),
            owned_white: at("owned_white"),
            judge_agrees: at("judge_agrees"),
        }
    })
}

fn text<'a>(cells: &[Cell<'a>], i: usize) -> Option<&'a str> {
    match cells.get(i) {
        Some(Cell::Str(s)) => *s,
        _ => None,
    }
}

fn int(cells: &[Cell<'_>], i: usize) -> Option<i64> {
    match cells.get(i) {
        Some(Cell::Int(v)) => *v,
        _ => None,
    }
}

/// Additive counts of a scan (or of part of one).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Stats {
    /// Entries read: every one is a game or an unreadable entry.
    pub entries_seen: u64,
    /// Entries read as games (one row each in the table).
    pub games: u64,
    /// Entries that could not be read as games (one row each in `errors.csv`).
    pub unreadable_entries: u64,
    /// Files inside archives that are not `.csa` records (not entries; listed by name).
    pub skipped_files: u64,
    /// Games per `status`.
    pub games_by_status: BTreeMap<String, u64>,
    /// Games per year (`unknown` when the record gives none).
    pub games_by_year: BTreeMap<String, u64>,
    /// Games per `final_board` value.
    pub final_board: BTreeMap<String, u64>,
    /// Games from the full set of 40 pieces whose owned points were checked.
    pub points54_checked: u64,
    /// Of those, games whose owned points do not sum to 54.
    pub points54_violations: u64,
    /// Games where our judgement could be compared with the server's summary.
    pub judge_compared: u64,
    /// Of those, games where they agree.
    pub judge_agreed: u64,
}

/// Count one more under `key` (the key is copied only the first time it is seen).
fn bump(counts: &mut BTreeMap<String, u64>, key: &str) {
    match counts.get_mut(key) {
        Some(n) => *n += 1,
        None => {
            counts.insert(key.to_string(), 1);
        }
    }
}

impl Stats {
    /// Count one game.
    pub fn add_game(&mut self, row: &GameRow) {
        self.add_cells(&row.cells());
    }

    /// Count one game from the cells of its row (as [`GameRow::cells`] gives them, or as
    /// the writer reads them back).
    pub fn add_cells(&mut self, cells: &[Cell<'_>]) {
        let c = columns();
        self.entries_seen += 1;
        self.games += 1;
        bump(
            &mut self.games_by_status,
            text(cells, c.status).unwrap_or(""),
        );
        match int(cells, c.year) {
            Some(y) => bump(&mut self.games_by_year, &y.to_string()),
            None => bump(&mut self.games_by_year, "unknown"),
        }
        bump(
            &mut self.final_board,
            text(cells, c.final_board).unwrap_or(""),
        );
        if text(cells, c.final_sfen).is_some() && full_set(text(cells, c.game_name)) {
            self.points54_checked += 1;
            let owned =
                int(cells, c.owned_black).unwrap_or(0) + int(cells, c.owned_white).unwrap_or(0);
            if owned != i64::from(crate::shogi::TOTAL_OWNED_POINTS) {
                self.points54_violations += 1;
            }
        }
        if let Some(Cell::Bool(Some(agrees))) = cells.get(c.judge_agrees) {
            self.judge_compared += 1;
            self.judge_agreed += u64::from(*agrees);
        }
    }

    /// Take the games counted in `other` off these counts (games left out of the table as
    /// duplicates); they stay counted in `entries_seen`, as entries read.
    pub fn remove_games(&mut self, other: &Stats) {
        self.games = self.games.saturating_sub(other.games);
        for (mine, theirs) in [
            (&mut self.games_by_status, &other.games_by_status),
            (&mut self.games_by_year, &other.games_by_year),
            (&mut self.final_board, &other.final_board),
        ] {
            for (k, v) in theirs {
                if let Some(n) = mine.get_mut(k) {
                    *n = n.saturating_sub(*v);
                    if *n == 0 {
                        mine.remove(k);
                    }
                }
            }
        }
        self.points54_checked = self.points54_checked.saturating_sub(other.points54_checked);
        self.points54_violations = self
            .points54_violations
            .saturating_sub(other.points54_violations);
        self.judge_compared = self.judge_compared.saturating_sub(other.judge_compared);
        self.judge_agreed = self.judge_agreed.saturating_sub(other.judge_agreed);
    }

    /// Count one unreadable entry.
    pub fn add_unreadable(&mut self) {
        self.entries_seen += 1;
        self.unreadable_entries += 1;
    }

    /// Add `other` into `self`.
    pub fn merge(&mut self, other: &Stats) {
        self.entries_seen += other.entries_seen;
        self.games += other.games;
        self.unreadable_entries += other.unreadable_entries;
        self.skipped_files += other.skipped_files;
        for (mine, theirs) in [
            (&mut self.games_by_status, &other.games_by_status),
            (&mut self.games_by_year, &other.games_by_year),
            (&mut self.final_board, &other.final_board),
        ] {
            for (k, v) in theirs {
                *mine.entry(k.clone()).or_default() += v;
            }
        }
        self.points54_checked += other.points54_checked;
        self.points54_violations += other.points54_violations;
        self.judge_compared += other.judge_compared;
        self.judge_agreed += other.judge_agreed;
    }

    /// Share of games with a trailer board whose replayed final position agrees with it
    /// (`match`, or `prelast`: the position before the last move, which the server writes
    /// on purpose after a repetition).
    pub fn final_board_match_rate(&self) -> Option<f64> {
        use crate::game::FinalBoard;
        let get = |k: FinalBoard| self.final_board.get(k.name()).copied().unwrap_or(0);
        let agree = get(FinalBoard::Match) + get(FinalBoard::Prelast);
        let compared = agree + get(FinalBoard::Mismatch);
        ratio(agree, compared)
    }

    /// Share of compared games where our judgement agrees with the server's summary.
    pub fn judge_agreement_rate(&self) -> Option<f64> {
        ratio(self.judge_agreed, self.judge_compared)
    }
}

fn ratio(num: u64, den: u64) -> Option<f64> {
    (den > 0).then(|| num as f64 / den as f64)
}

/// Does a game of this name start from the full set of 40 pieces? Handicap games
/// (`hc...`) and games from a set position (`buoy_...`) do not.
fn full_set(game_name: Option<&str>) -> bool {
    game_name.is_none_or(|n| !n.starts_with("hc") && !n.starts_with("buoy_"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(
        status: &str,
        year: Option<i64>,
        board: &str,
        owned: (i64, i64),
        agrees: Option<bool>,
    ) -> GameRow {
        GameRow {
            status: status.to_string().into(),
            year,
            final_board: board.to_string().into(),
            owned_black: owned.0,
            owned_white: owned.1,
            final_sfen: Some("x".into()),
            judge_agrees: agrees,
            ..GameRow::default()
        }
    }

    #[test]
    fn merge_is_order_free_and_counts_once() {
        let rows = [
            game("ok", Some(2024), "match", (30, 24), Some(true)),
            game("ok", Some(2025), "prelast", (27, 27), Some(false)),
            game("illegal_move", None, "mismatch", (30, 25), None),
        ];
        let mut a = Stats::default();
        a.add_game(&rows[0]);
        a.add_unreadable();
        let mut b = Stats::default();
        b.add_game(&rows[1]);
        b.add_game(&rows[2]);
        let mut ab = a.clone();
        ab.merge(&b);
        let mut ba = b.clone();
        ba.merge(&a);
        assert_eq!(ab, ba);
        assert_eq!(ab.entries_seen, 4);
        assert_eq!(ab.games + ab.unreadable_entries, ab.entries_seen);
        assert_eq!(ab.points54_violations, 1);
        assert_eq!(ab.games_by_year["unknown"], 1);
        assert_eq!(ab.final_board_match_rate(), Some(2.0 / 3.0));
        assert_eq!(ab.judge_agreement_rate(), Some(0.5));
    }
}
