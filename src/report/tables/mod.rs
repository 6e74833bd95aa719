//! The table registry: every report table defined once, with its caption and the polars
//! query that computes it.
//!
//! Vocabulary used by every caption (the server's verdict, never the end marker):
//! - *declaration win*: `summary_reason` is `kachi`;
//! - *invalid declaration*: `summary_reason` is `illegal kachi`;
//! - *move limit*: `summary_reason` is `max_moves` or `max_moves_draw`;
//! - *entering-king game*: `entering` is `mutual` (both kings in the enemy camp in the final
//!   position), `black_only` or `white_only` (one-sided);
//! - *Max_Moves*: the `'Max_Moves` value read from each record; a record without the line
//!   is `unknown`, never a guessed value.
//!
//! Group keys are written as text: a year or a Max_Moves value, `unknown` for a missing
//! value, and `all` for the total row.

//!
//! Each table family has its file, its columns made from one list of counts and rates
//! (`expr::Family`): `years` (table 1), `endings` (2a-2d), `strength` (3a-3j), `cut` (the
//! cut mutual games and table 4), `counterfactual` (5), `positions` (6a-6c), `cohort`
//! (7a-7b), `players` (8a-8e), `regression` (9).

use polars::prelude::*;

use super::columns::*;
use super::config::{RatingPool, ReportConfig};

mod cohort;
mod counterfactual;
mod cut;
mod endings;
mod expr;
mod frame;
mod players;
mod positions;
mod regression;
mod strength;
mod years;

pub use cohort::INCIDENCE_PLIES;
use cohort::{cohort_endings, cohort_incidence};
use counterfactual::counterfactual;
use cut::funnel;
pub use cut::{
    RULE24_DRAW, RULE24_LAST_MOVE, RULE24_WIN, TOTAL_POINTS, ZONE_PIECES, cut_games,
    cut_mutual_games,
};
use endings::{Population, endings};
pub use frame::{ERAS, prepared};
use players::{
    engine_pairs, engines, engines_by_year, headline_by_time_control, headline_sensitivity,
};
use positions::{mutual_position_sides, mutual_positions, mutual_shortfall};
use regression::regression;
pub use strength::{
    COMPARISON_CELLS, PRIMARY_COMPARISON, TEST_EXACT, TEST_NONE, TEST_SCORE, per_game_strength,
    thresholds,
};
use strength::{
    Cohort, era_comparison, strength_by_era, strength_by_era_max_moves, strength_by_max_moves,
    strength_by_year,
};
use years::years;

/// One report table: its file name, title, caption and computation.
pub struct TableSpec {
    /// Number in `report.md` (e.g. `3b`).
    pub number: &'static str,
    /// File stem of the CSV and Parquet outputs.
    pub name: &'static str,
    /// Heading of the table in `report.md` (after `Table <number>.`).
    pub title: &'static str,
    /// What exactly is counted. `{percentile}`, `{pool}` and `{min_games}` are replaced by
    /// the report's settings.
    pub caption: &'static str,
    /// The main measures, the columns `report.md` and LaTeX show (a rate brings its
    /// interval); empty: every column. The files have every column.
    pub shown: &'static [&'static str],
    compute: fn(LazyFrame, &ReportConfig) -> PolarsResult<DataFrame>,
}

impl std::fmt::Debug for TableSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TableSpec")
            .field("name", &self.name)
            .finish()
    }
}

impl TableSpec {
    /// The caption with the settings filled in.
    pub fn caption_for(&self, config: &ReportConfig) -> String {
        let pool = format!(
            "the `{}` pool ({})",
            config.pool.name(),
            pool_sentence(config.pool)
        );
        let mut caption = self
            .caption
            .replace("{percentile}", &ordinal(config.percentile))
            .replace("{pool}", &pool)
            .replace("{min_games}", &config.min_games.to_string());
        caption.push(' ');
        caption.push_str(&population(config));
        caption
    }
}

/// The sentence every caption ends with: which games the tables count.
pub fn population(config: &ReportConfig) -> String {
    match &config.game_name {
        None => {
            "Population: every game of the games table (all rooms and time controls).".to_string()
        }
        Some(re) => format!(
            "Population: the games whose `game_name` matches the regular expression `{re}` (a game without a name is left out); \
the rating pools are taken from these games only."
        ),
    }
}

/// A percentile as an English ordinal: `1st`, `2nd`, `3rd`, `11th`, `75th`, `22.5th`.
pub fn ordinal(x: f64) -> String {
    if x.fract() != 0.0 {
        return format!("{x}th");
    }
    let n = x as i64;
    let suffix = match (n % 100, n % 10) {
        (11..=13, _) => "th",
        (_, 1) => "st",
        (_, 2) => "nd",
        (_, 3) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// Which ratings a pool holds, in a few words.
pub fn pool_sentence(pool: RatingPool) -> &'static str {
    match pool {
        RatingPool::Year => {
            "both pre-game ratings of every rated game of the year, a player counted once per game"
        }
        RatingPool::Entering => {
            "both pre-game ratings of the year's mutual entering-king games only, the reference study's pool"
        }
        RatingPool::Players => {
            "every rated player of the year counted once, at the mean of their pre-game ratings that year"
        }
    }
}

/// How a pool differs from the reference study's (`entering`).
pub fn pool_difference(pool: RatingPool) -> &'static str {
    match pool {
        RatingPool::Entering => "This is the reference study's pool.",
        RatingPool::Year => {
            "The reference study took the ratings of the year's mutual entering-king games only (`--pool entering` reproduces it); the \
`year` pool takes the whole rated field, so its threshold does not move with who reaches entering-king endings."
        }
        RatingPool::Players => {
            "The reference study took the ratings of the year's mutual entering-king games only (`--pool entering` reproduces it); the \
`players` pool takes the whole rated field with each player once, so frequent players do not weigh more."
        }
    }
}

/// Compute one table from the games table.
pub fn compute(
    spec: &TableSpec,
    games: &DataFrame,
    config: &ReportConfig,
) -> PolarsResult<DataFrame> {
    (spec.compute)(prepared(games)?, config)
}

/// The tables comparing the two eras' cells (tables 3j and 3e): the headline's, on the
/// games ever mutual, first.
pub const COMPARISON_TABLES: [&str; 2] = ["era_comparison_ever_mutual", "era_comparison"];

/// Every table of the report, in order.
pub const TABLES: &[TableSpec] = &[
    TableSpec {
        number: "1",
        name: "years",
        title: "Games by year",
        caption: "One row per `year` of the record's start time. `games`: rows of the per-game table. \
`not_replayed`: games whose `status` is not `ok`, `illegal_move` or `no_summary` (the record could not be replayed to its end). \
`illegal_move`: games with an illegal ply by our replay. `mutual` / `one_sided` / `no_entering`: the `entering` class of the final position \
of the games replayed to their end (both kings in the enemy camp / exactly one / neither), with shares of `games`; a game not replayed to its \
end is counted apart, in `not_replayed` only (never by the last position reached), so `not_replayed`, `mutual`, `one_sided` and `no_entering` \
add up to `games`, and no other table counts it as an entering-king game. `board_matched` / `board_match_rate`: games whose replayed final \
position equals the server's trailer (`final_board` `match`, or `prelast` where the server writes the position before the last move), over \
games with a trailer (`board_compared`). `entering_board_compared`, `entering_board_matched` and `entering_board_match_rate`: the same over \
entering-king games only (final position mutual or one-sided; the reference study's denominator). Match rates have two decimals and their 95% \
Wilson interval (`*_lo`, `*_hi`); a rate below 100% never prints as 100%. `points_checked`: games with a replayed final position \
(`final_sfen`), whose owned points are checked; `points_violations`: those whose two sides' owned points do not total 54 (a handicap game, or \
an error). `judge_disagreements`: games where our verdict differs from the server's `'summary` (`judge_agrees` false), out of `judged`.",
        shown: &[
            "year",
            "games",
            "not_replayed",
            "mutual",
            "one_sided",
            "no_entering",
            "board_match_rate",
            "entering_board_match_rate",
            "points_violations",
            "judge_disagreements",
        ],
        compute: years,
    },
    TableSpec {
        number: "2a",
        name: "endings_mutual_by_year",
        title: "Endings of mutual entering-king games, by year",
        caption: ENDINGS_CAPTION_MUTUAL,
        shown: ENDINGS_SHOWN,
        compute: |lf, _| endings(lf, Population::Mutual, col(YEAR), "year"),
    },
    TableSpec {
        number: "2b",
        name: "endings_mutual_by_max_moves",
        title: "Endings of mutual entering-king games, by Max_Moves",
        caption: ENDINGS_CAPTION_MUTUAL,
        shown: ENDINGS_SHOWN,
        compute: |lf, _| endings(lf, Population::Mutual, col(MAX_MOVES), "max_moves"),
    },
    TableSpec {
        number: "2c",
        name: "endings_one_sided_by_year",
        title: "Endings of one-sided entering-king games, by year",
        caption: ENDINGS_CAPTION_ONE_SIDED,
        shown: ENDINGS_SHOWN,
        compute: |lf, _| endings(lf, Population::OneSided, col(YEAR), "year"),
    },
    TableSpec {
        number: "2d",
        name: "endings_one_sided_by_max_moves",
        title: "Endings of one-sided entering-king games, by Max_Moves",
        caption: ENDINGS_CAPTION_ONE_SIDED,
        shown: ENDINGS_SHOWN,
        compute: |lf, _| endings(lf, Population::OneSided, col(MAX_MOVES), "max_moves"),
    },
    TableSpec {
        number: "3a",
        name: "strength_by_year",
        title: "Strength-controlled declaration rates, by year (final position)",
        caption: "Final position: mutual entering-king games (both kings in the enemy camp at the end) in which both players' pre-game ratings are at or above `threshold`, the {percentile} percentile \
(linear interpolation, as numpy's default) of the year's ratings in {pool}; missing ratings are left out of the pool, and a game with a missing \
rating is never strength-controlled. `pool_ratings`: number of ratings in the pool. \
`pool_at_or_above` / `pool_at_or_above_share`: ratings of the pool at or above `threshold`, over `pool_ratings`; ties at the threshold count as \
strong (>=), so where many ratings equal it this share is far above 100% minus the percentile (and a pool of a few ratings gives an \
unstable threshold). `pool_ties`: ratings equal to `threshold`. A controlled rate is a restriction to the games whose both players are strong, \
not an adjustment for strength. `games`: controlled games; `decl_wins` / `decl_win_rate`: \
those ending in a declaration win (`kachi`); `move_limit` / `move_limit_rate`: those cut by the move limit (`max_moves`, `max_moves_draw`); \
`low_side` / `low_side_share`: those move-limit games in which a side owns 23 points or fewer (it cannot reach even a 24-point draw), over \
`move_limit`; as owned points sum to 54, these are the games whose other side owns 31 or more (table 4's `owned31`). `few_games`: fewer than {min_games} controlled games (flagged, not dropped). `raw_*`: the same over all mutual entering-king games \
of the row, without strength control. Every rate has its 95% Wilson score interval (`*_lo`, `*_hi`). A game mutual at some ply but not \
at its end is not counted here: table 3f counts the games ever mutual.",
        shown: &[
            "year",
            "pool_ratings",
            "threshold",
            "games",
            "decl_win_rate",
            "move_limit_rate",
            "raw_games",
            "raw_decl_win_rate",
            "raw_move_limit_rate",
            "few_games",
        ],
        compute: |lf, c| strength_by_year(lf, c, Cohort::FinalMutual),
    },
    TableSpec {
        number: "3b",
        name: "strength_by_era",
        title: "Strength-controlled declaration rates, by period (final position)",
        caption: "As table 3a, pooled over fixed periods of years (each game judged against its own year's threshold): 2008-2013, \
2014-2017, 2018-2020, 2021-2023, 2024-2026. Periods without games are listed with zero games. The `all` row pools these periods only: games \
of years outside 2008-2026 are left out of it (table 3a's `all` row counts them).",
        shown: STRENGTH_SHOWN,
        compute: |lf, c| strength_by_era(lf, c, Cohort::FinalMutual),
    },
    TableSpec {
        number: "3c",
        name: "strength_by_max_moves",
        title: "Strength-controlled declaration rates, by Max_Moves (final position)",
        caption: "As table 3a, grouped by the `'Max_Moves` value read from each record (each game judged against its own year's threshold); \
`0` = `'Max_Moves:0`, no move limit; `unknown` = no `'Max_Moves` line.",
        shown: STRENGTH_SHOWN,
        compute: |lf, c| strength_by_max_moves(lf, c, Cohort::FinalMutual),
    },
    TableSpec {
        number: "3d",
        name: "strength_by_era_max_moves",
        title: "Strength-controlled declaration rates, by period and Max_Moves (final position)",
        caption: "As table 3a, one row per period of table 3b and `'Max_Moves` value read from the records, controlled and raw columns side by \
side (each game judged against its own year's threshold); combinations without a mutual entering-king game are left out. The reference \
study's cells are `2021-2023` x `256` and `2024-2026` x `512`.",
        shown: STRENGTH_SHOWN,
        compute: |lf, c| strength_by_era_max_moves(lf, c, Cohort::FinalMutual),
    },
    TableSpec {
        number: "3e",
        name: "era_comparison",
        title: "The 256 era against the 512 era (final position)",
        caption: "The reference study's comparison, on the final position (table 3j makes it on the games ever mutual, the \
report's headline): cell A = mutual entering-king games of 2021-2023 whose record reads `'Max_Moves:256`, \
cell B = those of 2024-2026 reading `'Max_Moves:512`; `controlled` rows count the strength-controlled games of table 3a (both ratings at or \
above the {percentile} percentile of {pool}), `raw` rows all mutual games of the cell. `*_count` of `*_games` games have the `measure` (`decl_win_rate`: \
declaration win; `move_limit_rate`: cut by the move limit), with the rate's 95% Wilson interval. `few_games`: a cell has fewer than {min_games} \
games. `expected_min`: the smallest expected count of the comparison's 2x2 table under equal rates. `test` says which inference \
a row has, fixed by a rule stated in advance: a comparison with a cell of fewer than {min_games} games or an expected count below 5 is \
`boschloo` (Boschloo's exact unconditional test, two-sided as twice the smaller one-sided p-value, with Chan and Zhang's exact 95% interval \
of the difference), the others `score` (the Miettinen-Nurminen score test and the interval that inverts it, which excludes 0 exactly when \
the p-value is below 0.05), and a comparison with a cell without games, or needing the exact methods on more than 5,000 games, `none` \
(no test, no interval). `rate_diff` = A's rate minus B's (percentage points), `rate_diff_lo` and `rate_diff_hi` the 95% interval of \
the row's `test`, `score_z` the score statistic at no difference (score rows only), `test_p` the two-sided p-value (`test_p_log10`: \
its base-10 logarithm, exact where the p-value is below the smallest double, about 1e-308). `role`: the `primary` comparison is the \
declaration-win rate of the controlled games, the study's question, tested at 5% as it stands; the three `secondary` ones form a \
family fixed in advance (`holm_family`, its size) with `holm_p`, Holm's adjustment over it (`holm_p_log10` its logarithm); an \
untestable comparison stays in the family, untested, and so keeps the others' adjustment as strict as planned. The same \
engines play many games, so games are not independent trials: `*_engines` and `*_pairs` count the distinct players and the unordered \
pairs of players a cell's games rest on (a game without both names is a pair of its own), `*_rate_cl_lo` and `*_rate_cl_hi` are the 95% \
interval of the rate clustered by engine pair (the sandwich estimator of a proportion, rate -/+ 1.96 clustered standard errors, none \
with fewer than two pairs), `*_design_effect` the clustered variance over the binomial one, and `rate_diff_cl_lo` and `rate_diff_cl_hi` \
the clustered interval of the difference (the two cells' clustered variances added). The primary interval is the test's (exact or \
score), over games; the clustered one is reported beside it, and where the design effect is well above 1 it is the one to read.",
        shown: COMPARISON_SHOWN,
        compute: |lf, c| era_comparison(lf, c, Cohort::FinalMutual),
    },
    TableSpec {
        number: "3f",
        name: "strength_ever_mutual_by_year",
        title: "Strength-controlled declaration rates of games ever mutual, by year",
        caption: EVER_MUTUAL_CAPTION,
        shown: &[
            "year",
            "threshold",
            "games",
            "decl_win_rate",
            "move_limit_rate",
            "raw_games",
            "raw_decl_win_rate",
            "raw_move_limit_rate",
            "few_games",
        ],
        compute: |lf, c| strength_by_year(lf, c, Cohort::EverMutual),
    },
    TableSpec {
        number: "3g",
        name: "strength_ever_mutual_by_era",
        title: "Strength-controlled declaration rates of games ever mutual, by period",
        caption: "As table 3b, over the games ever mutual of table 3f.",
        shown: STRENGTH_SHOWN,
        compute: |lf, c| strength_by_era(lf, c, Cohort::EverMutual),
    },
    TableSpec {
        number: "3h",
        name: "strength_ever_mutual_by_max_moves",
        title: "Strength-controlled declaration rates of games ever mutual, by Max_Moves",
        caption: "As table 3c, over the games ever mutual of table 3f.",
        shown: STRENGTH_SHOWN,
        compute: |lf, c| strength_by_max_moves(lf, c, Cohort::EverMutual),
    },
    TableSpec {
        number: "3i",
        name: "strength_ever_mutual_by_era_max_moves",
        title: "Strength-controlled declaration rates of games ever mutual, by period and Max_Moves",
        caption: "As table 3d, over the games ever mutual of table 3f; combinations without a game of the cohort are left out.",
        shown: STRENGTH_SHOWN,
        compute: |lf, c| strength_by_era_max_moves(lf, c, Cohort::EverMutual),
    },
    TableSpec {
        number: "3j",
        name: "era_comparison_ever_mutual",
        title: "The 256 era against the 512 era, games ever mutual (the headline)",
        caption: "The report's headline comparison: table 3e's, made on the games ever mutual of table 3f (cell A = those of \
2021-2023 whose record reads `'Max_Moves:256`, cell B = those of 2024-2026 reading `'Max_Moves:512`), a cohort fixed at the first \
mutual entry, before the outcome. `controlled` rows count the strength-controlled games (both ratings at or above the {percentile} \
percentile of {pool}, the same thresholds as table 3a), `raw` rows every game of the cohort in the cell. The columns, the test chosen \
by the same rule fixed in advance (`boschloo` where a cell has fewer than {min_games} games or an expected count is below 5, else \
`score`, `none` where untestable), the intervals clustered by engine pair with their design effect and the Holm family of the three \
secondary rows are as in table 3e.",
        shown: COMPARISON_SHOWN,
        compute: |lf, c| era_comparison(lf, c, Cohort::EverMutual),
    },
    TableSpec {
        number: "4",
        name: "funnel",
        title: "Funnel of mutual games cut by the move limit",
        caption: "Mutual entering-king games ended by the move limit (`max_moves`, `max_moves_draw`), counted per game, in the final \
position. The two sides' owned points (all own pieces on the board and in hand; rook and bishop 5, others 1) sum to 54 in a game with every \
piece (table 1's `points_violations` counts exceptions), so at most one side a game can own more than 27 or at least 31 points, have 31 \
declaration points or be able to declare: each stage is a property of the game's *leading side* (the side owning more points). \
`owned_over27`: the leading side owns more than 27 (every game but a 27-27 tie). `owned31`: it owns >= 31 points. `decl31`: of those, it has \
>= 31 declaration points (pieces in the enemy camp + hand). `decl31_zone10`: of those, it also has >= 10 pieces in the enemy camp (the \
reference study's third stage). `declarable_board`: of those, its king is in the enemy camp and it is not in check (only the side to move, \
read from `final_sfen`, can be in check). `declarable`: of those, the move-number clause holds too (the SFEN move number, plies + 1, at most \
500), so every condition of the 24-point rule: at `'Max_Moves:512` every game cut at the limit is at move 513 and no side can declare. \
Shares are of `games`; `*_pass` rates are of the previous stage. `zone10`: games in which a side (either) has >= 10 pieces in the enemy camp, \
whatever its points. `stranded_median`: median of owned minus declaration points of the leading side over games where it owns >= 31 but has \
fewer than 31 declaration points. Every rate has its 95% Wilson score interval (`*_lo`, `*_hi`), over games, which are independent. The \
`all` row pools regimes that differ in the move clause (a game cut at 256 ends at move 257, within it; at 512, at move 513, past it): read \
the rows per Max_Moves (the plot shows them only).",
        shown: &[
            "max_moves",
            "games",
            "owned31_share",
            "decl31_share",
            "decl31_zone10_share",
            "declarable_board_share",
            "declarable_share",
            "zone10_share",
            "stranded_median",
        ],
        compute: funnel,
    },
    TableSpec {
        number: "5",
        name: "counterfactual",
        title: "Counterfactual re-scoring at the move limit",
        caption: "The games of table 4, judged in their final position as if adjudicated there (both sides' standing counted). \
`27-point`: a side wins if its king is in the enemy camp, it is not in check, it has >= 10 pieces there and >= 28 (Black) / 27 (White) \
declaration points. `24-point`: the same with >= 31 points for a win and 24-30 for a declared draw, only while the SFEN move number \
(plies + 1) is at most 500. `impasse`: both kings in camp and the side to move not in check, a side owning >= 24 points while the other owns \
fewer wins, both >= 24 is a draw. `unchanged`: no verdict under the rule (the game stays a move-limit draw). `decisive`: wins; \
`decisive_share`: wins over games, with its 95% Wilson score interval. As in table 4, the `all` row pools Max_Moves regimes that differ in the \
24-point rule's move clause.",
        shown: &[
            "max_moves",
            "rule",
            "games",
            "black_win",
            "white_win",
            "draw",
            "unchanged",
            "decisive_share",
        ],
        compute: counterfactual,
    },
    TableSpec {
        number: "6a",
        name: "mutual_positions",
        title: "Positions at the first mutual entry",
        caption: "One position per game that has a `mutual_sfen` (the position after the first ply at which both kings stood in the \
enemy camp; the final position need not be mutual). `board_pieces` counts kings; `legal_moves` is the complete legal set of the side to \
move, every optional non-promotion included; `captures` and `drops` are legal moves that capture or drop, and `legal_share` is their \
total over all legal moves. Median, range and mean over positions.",
        shown: &[],
        compute: mutual_positions,
    },
    TableSpec {
        number: "6b",
        name: "mutual_position_sides",
        title: "Sides at the first mutual entry against the declaration thresholds",
        caption: "The positions of table 6a, per side (two a position). `zone10_share`: >= 10 pieces in the enemy camp. \
`points_share`: declaration points (pieces in the enemy camp + hand) at or above the rule's win threshold (27-point rule: 28 Black, 27 White; \
24-point rule: 31), whatever else holds. `declarable_share`: sides that would win by declaring, every condition of the rule applied as in \
tables 4 and 5: the king in the enemy camp, not in check (judged as if the side were to move), >= 10 pieces there, the points, and under the \
24-point rule the SFEN move number at most 500 (a position first reached after move 500, possible only where the limit is 512, never counts). Shortfall = max(0, threshold - declaration points); `shortfall20_share`: sides 20 or more short, which \
a 20-slot shortfall encoding (such as dlshogi's entering-king input planes) cannot represent.",
        shown: &[],
        compute: mutual_position_sides,
    },
    TableSpec {
        number: "6c",
        name: "mutual_shortfall",
        title: "Distribution of the point shortfall at the first mutual entry",
        caption: "Number of sides of table 6b at each shortfall to the declaration-win threshold, under the 27-point rule (28/27) and \
the 24-point rule (31).",
        shown: &[],
        compute: mutual_shortfall,
    },
    TableSpec {
        number: "7a",
        name: "cohort_endings",
        title: "Games ever mutual, from the first mutual entry to the end",
        caption: "The cohort fixed before the outcome: every game replayed to its end that has a first mutual entry (`mutual_sfen`, \
the first ply at which both kings stood in the enemy camps), whatever its final position, by period (table 3b's) and the \
`'Max_Moves` read from the record. Comparing limits on the final position selects on the outcome, for the limit changes how games \
end: a game mutual at ply 249 and won by declaration one-sided at ply 400 under a 512 limit would have been a mutual move-limit game \
under 256. `final_mutual`: games still mutual in the final position (those of tables 2a-2b and 3a-3e, which stay as the final-position \
tables; tables 3f-3j count this cohort). How each game ended, by the server's `'summary` reason: `declaration` (`kachi`), `invalid_declaration` (`illegal kachi`), \
`move_limit`, `resignation` (`toryo`), `repetition`, `time` \
(`time up`), `other`; each with its share of `games` and 95% Wilson interval. `plies_after_entry_median`: median plies from the \
first mutual entry to the end.",
        shown: &[
            "era",
            "max_moves",
            "games",
            "final_mutual",
            "declaration_share",
            "move_limit_share",
            "resignation_share",
            "plies_after_entry_median",
        ],
        compute: cohort_endings,
    },
    TableSpec {
        number: "7b",
        name: "cohort_incidence",
        title: "Cumulative incidence of the endings after the first mutual entry",
        caption: "The games of table 7a, per period and `'Max_Moves`: `incidence` is the share of the cell's `games` that had ended \
by `ending` within `plies` plies of their first mutual entry (`ended` games; `incidence_share`), with its 95% Wilson interval. Every game has ended (there \
is no censoring), so this empirical share is the competing-risks cumulative incidence (Aalen-Johansen), and at each `plies` the \
endings' incidences and the share still going add up to 1.",
        shown: &[
            "era",
            "max_moves",
            "ending",
            "plies",
            "games",
            "incidence_share",
        ],
        compute: cohort_incidence,
    },
    TableSpec {
        number: "8a",
        name: "engines",
        title: "The engines with the most games",
        caption: "The 20 engines (login names) with the most games, as Black or as White: `games`; `ever_mutual`: their games of \
the ever-mutual cohort (table 7a's: replayed to the end with a first mutual entry, whatever the final position); `decl_wins`: \
those that ended in a declaration win (either side's); `ever_mutual_decl_rate`: `decl_wins` over `ever_mutual`, with its 95% \
Wilson interval. A game counts once for each of its two engines.",
        shown: &[],
        compute: engines,
    },
    TableSpec {
        number: "8b",
        name: "engine_pairs",
        title: "The engine pairs with the most games",
        caption: "As table 8a, for the 20 unordered pairs of engines (`A – B`, names in sorting order) with the most games: the \
clusters of the intervals clustered by engine pair (tables 3a-3e).",
        shown: &[],
        compute: engine_pairs,
    },
    TableSpec {
        number: "8c",
        name: "engines_by_year",
        title: "Distinct engines by year",
        caption: "The games of each year and the distinct engines (login names, as Black or as White) that played them.",
        shown: &[],
        compute: engines_by_year,
    },
    TableSpec {
        number: "8d",
        name: "headline_by_time_control",
        title: "The headline by time control",
        caption: "Table 3j's primary comparison, the headline (the strength-controlled declaration-win rate of the games ever \
mutual, cell A against cell B), within each of the 8 time controls (`game_name`, e.g. `floodgate-300-10F`) with the most games, each with its \
own rating pool and threshold (the {percentile} of {pool}), as `report --game-name` would compute it: the games, the count and the \
rate of each cell with its 95% Wilson interval, the difference with its interval, the test and its p-value (table 3e's rule). \
Empty when neither cell has a game ever mutual.",
        shown: &[],
        compute: headline_by_time_control,
    },
    TableSpec {
        number: "8e",
        name: "headline_sensitivity",
        title: "The headline across rating pools and percentiles",
        caption: "Table 3j's primary comparison under each rating pool (`year`: both ratings of every rated game of the year; \
`entering`: those of the year's mutual entering-king games; `players`: each player once at their mean rating) and each threshold \
percentile (50th, 75th, 90th), the other settings as in this report; columns as in table 8d (empty as it).",
        shown: &[],
        compute: headline_sensitivity,
    },
    TableSpec {
        number: "9",
        name: "regression",
        title: "A model of the declaration win and of the move-limit end",
        caption: "Logistic regressions, among the games of the ever-mutual cohort (table 7a's) with both pre-game ratings, \
`'Max_Moves` 256 or 512 and a game name giving the time control, of the declaration win (`outcome` `declaration_win`) and of the \
move-limit end (`move_limit`) on: `rating_diff_100`, the two ratings' absolute difference in hundreds; `mean_rating_100`, their mean \
less 2000, in hundreds; `year_2016`, the year less 2016; `max_moves_512`, 1 under `'Max_Moves` 512; `log2_main_time_600`, the \
base-2 logarithm of the main time over 600 s (`floodgate-300-10F`: 300); `fischer`, 1 for a Fischer increment (`F`). Fitted by \
Newton's method; `se_clustered`: standard errors clustered by engine pair (unordered login names; the sandwich with the small-sample \
factor G/(G-1)·(N-1)/(N-K)); `odds_ratio` with its 95% interval, `z` and its two-sided normal `test_p`; `games` and `pairs` in the \
fit. A covariate constant in the data is left out (`note`); a model that cannot be fitted (too few games, one outcome only, fewer \
than two pairs, collinear covariates, or separation: a combination of covariates that predicts the outcome exactly) is said in \
`note`, without estimates.",
        shown: &[],
        compute: regression,
    },
];

/// The main measures of tables 2a-2d (the keys first: `year` or `max_moves`).
const ENDINGS_SHOWN: &[&str] = &[
    "year",
    "max_moves",
    "games",
    "valid_decl_share",
    "invalid_decl_share",
    "move_limit_share",
    "resignation",
    "repetition",
    "other",
];

/// The main measures of tables 3e and 3j.
const COMPARISON_SHOWN: &[&str] = &[
    "measure",
    "population",
    "role",
    "a_games",
    "a_pairs",
    "a_rate",
    "a_design_effect",
    "b_games",
    "b_pairs",
    "b_rate",
    "b_design_effect",
    "rate_diff",
    "test",
    "test_p",
    "holm_p",
];

/// The caption of table 3f.
const EVER_MUTUAL_CAPTION: &str = "As table 3a (the same thresholds, pools and columns), over the games ever mutual: every game \
replayed to its end that has a first mutual entry (`mutual_sfen`, the first ply at which both kings stood in the enemy camps), whatever \
its final position, table 7a's cohort. The cohort is fixed before the outcome, so a comparison of limits on it does not select on how \
the games ended: a game mutual at ply 249 and won by declaration one-sided at ply 400 counts here, not in table 3a. `games`: the \
strength-controlled games of the cohort; `raw_*`: every game of the cohort in the row. `low_side` counts the move-limit games in \
which a side owns 23 points or fewer in the final position. Every rate has its 95% Wilson score interval (`*_lo`, `*_hi`).";

/// The main measures of tables 3b-3d and 3g-3i.
const STRENGTH_SHOWN: &[&str] = &[
    "era",
    "max_moves",
    "games",
    "decl_win_rate",
    "move_limit_rate",
    "low_side_share",
    "raw_games",
    "raw_decl_win_rate",
    "raw_move_limit_rate",
    "few_games",
];

const ENDINGS_CAPTION_MUTUAL: &str = "Games whose final position has both kings in the enemy camp (`entering` = `mutual`), by the \
server's `'summary` reason: `valid_decl` = `kachi`, `invalid_decl` = `illegal kachi`, `move_limit` = `max_moves` or `max_moves_draw`, \
`resignation` = `toryo`, `repetition` = `sennichite` or `oute_sennichite`, `other` = anything else (time up, abnormal, illegal moves, \
no summary). Shares are of `games`, each with its 95% Wilson score interval (`*_lo`, `*_hi`). Max_Moves is read from each record; \
`unknown` = the record has no `'Max_Moves` line; `0` = the record reads `'Max_Moves:0`, no move limit.";

const ENDINGS_CAPTION_ONE_SIDED: &str = "As table 2a, for games whose final position has exactly one king in the enemy camp \
(`entering` = `black_only` or `white_only`).";
