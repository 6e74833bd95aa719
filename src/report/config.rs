//! The settings of a report: the strength threshold's percentile and rating pool, the
//! flag for small cells, the game-name filter and the optional outputs.

use super::error::ReportError;

/// Which ratings define a year's strength threshold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RatingPool {
    /// Both pre-game ratings of every rated game of the year (a player counted once per
    /// game they played).
    #[default]
    Year,
    /// Both pre-game ratings of the year's mutual entering-king games only (the reference
    /// study's definition, to reproduce it).
    Entering,
    /// Every rated player of the year counted once (by login name), at the mean of their
    /// pre-game ratings in that year's games.
    Players,
}

impl RatingPool {
    /// The name used on the command line and in captions.
    pub fn name(self) -> &'static str {
        match self {
            RatingPool::Year => "year",
            RatingPool::Entering => "entering",
            RatingPool::Players => "players",
        }
    }
}

/// Settings of a report.
#[derive(Debug, Clone, PartialEq)]
pub struct ReportConfig {
    /// Strength threshold percentile (0-100) of the year's rating pool.
    pub percentile: f64,
    /// Which ratings make the pool.
    pub pool: RatingPool,
    /// Strength-controlled rows with fewer games than this are flagged.
    pub min_games: u32,
    /// Only the games whose `game_name` matches this regular expression (every table and
    /// every rating pool); `None`: every game.
    pub game_name: Option<String>,
    /// Also write each table as a booktabs LaTeX file (`NAME.tex`).
    pub latex: bool,
    /// Also write `strength_per_game.parquet`: every game's year threshold, `mutual` and
    /// `strong` flags.
    pub per_game: bool,
}

impl Default for ReportConfig {
    fn default() -> Self {
        ReportConfig {
            percentile: 75.0,
            pool: RatingPool::Year,
            min_games: 10,
            game_name: None,
            latex: false,
            per_game: false,
        }
    }
}

impl ReportConfig {
    pub(crate) fn validate(&self) -> Result<(), ReportError> {
        if !(0.0..=100.0).contains(&self.percentile) || self.percentile.is_nan() {
            return Err(ReportError::Config(format!(
                "percentile must be between 0 and 100, got {}",
                self.percentile
            )));
        }
        self.game_name_regex()?;
        Ok(())
    }

    pub(crate) fn game_name_regex(&self) -> Result<Option<regex::Regex>, ReportError> {
        self.game_name
            .as_deref()
            .map(regex::Regex::new)
            .transpose()
            .map_err(|e| ReportError::Config(format!("--game-name: {e}")))
    }
}
