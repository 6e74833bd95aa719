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

use polars::prelude::*;

use super::RatingPool;
use super::ReportConfig;
use super::columns::*;
use super::positions;
use super::stats::{holm_ln, score_test, wilson, with_intervals};
use crate::game::{Entering, FinalBoard, ServerReason, Status};
use crate::shogi::{
    Color, DECLARATION_ZONE_PIECES, EnteringKingRule, RULE24_DRAW_POINTS,
    RULE24_LAST_MOVE as RULE24_LAST_MOVE_NUMBER, RULE24_WIN_POINTS,
};

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

/// The games table with every used column typed and the derived side-to-move column.
pub fn prepared(games: &DataFrame) -> PolarsResult<LazyFrame> {
    let mut games = games.clone();
    let stm = side_to_move_column(&games)?;
    games.with_column(stm)?;
    Ok(games.lazy().with_columns(typed()))
}

/// Name of the derived column: Black is to move in the final position.
const BLACK_TO_MOVE: &str = "black_to_move_final";

/// Black to move in the final position: the side-to-move field of `final_sfen`, else
/// (no final position) Black after an even number of plies.
fn side_to_move_column(games: &DataFrame) -> PolarsResult<Column> {
    let sfen = games.column(FINAL_SFEN)?.cast(&DataType::String)?;
    let plies = games.column(PLIES)?.cast(&DataType::Int64)?;
    let (s, p) = (sfen.str()?, plies.i64()?);
    let v: Vec<Option<bool>> = (0..games.height())
        .map(
            |i| match s.get(i).and_then(|x| x.split_whitespace().nth(1)) {
                Some("b") => Some(true),
                Some("w") => Some(false),
                _ => p.get(i).map(|n| n % 2 == 0),
            },
        )
        .collect();
    Ok(Column::new(BLACK_TO_MOVE.into(), v))
}

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
        compute: years,
    },
    TableSpec {
        number: "2a",
        name: "endings_mutual_by_year",
        title: "Endings of mutual entering-king games, by year",
        caption: ENDINGS_CAPTION_MUTUAL,
        compute: |lf, _| endings(lf, Population::Mutual, col(YEAR), "year"),
    },
    TableSpec {
        number: "2b",
        name: "endings_mutual_by_max_moves",
        title: "Endings of mutual entering-king games, by Max_Moves",
        caption: ENDINGS_CAPTION_MUTUAL,
        compute: |lf, _| endings(lf, Population::Mutual, col(MAX_MOVES), "max_moves"),
    },
    TableSpec {
        number: "2c",
        name: "endings_one_sided_by_year",
        title: "Endings of one-sided entering-king games, by year",
        caption: ENDINGS_CAPTION_ONE_SIDED,
        compute: |lf, _| endings(lf, Population::OneSided, col(YEAR), "year"),
    },
    TableSpec {
        number: "2d",
        name: "endings_one_sided_by_max_moves",
        title: "Endings of one-sided entering-king games, by Max_Moves",
        caption: ENDINGS_CAPTION_ONE_SIDED,
        compute: |lf, _| endings(lf, Population::OneSided, col(MAX_MOVES), "max_moves"),
    },
    TableSpec {
        number: "3a",
        name: "strength_by_year",
        title: "Strength-controlled declaration rates, by year",
        caption: "Mutual entering-king games in which both players' pre-game ratings are at or above `threshold`, the {percentile} percentile \
(linear interpolation, as numpy's default) of the year's ratings in {pool}; missing ratings are left out of the pool, and a game with a missing \
rating is never strength-controlled. `pool_ratings`: number of ratings in the pool. \
`pool_at_or_above` / `pool_at_or_above_share`: ratings of the pool at or above `threshold`, over `pool_ratings`; ties at the threshold count as \
strong (>=), so where many ratings equal it this share is far above 100% minus the percentile (and a pool of a few ratings gives an \
unstable threshold). `pool_ties`: ratings equal to `threshold`. A controlled rate is a restriction to the games whose both players are strong, \
not an adjustment for strength. `games`: controlled games; `decl_wins` / `decl_win_rate`: \
those ending in a declaration win (`kachi`); `move_limit` / `move_limit_rate`: those cut by the move limit (`max_moves`, `max_moves_draw`); \
`low_side` / `low_side_share`: those move-limit games in which a side owns 23 points or fewer (it cannot reach even a 24-point draw), over \
`move_limit`; as owned points sum to 54, these are the games whose other side owns 31 or more (table 4's `owned31`). `few_games`: fewer than {min_games} controlled games (flagged, not dropped). `raw_*`: the same over all mutual entering-king games \
of the row, without strength control. Every rate has its 95% Wilson score interval (`*_lo`, `*_hi`).",
        compute: strength_by_year,
    },
    TableSpec {
        number: "3b",
        name: "strength_by_era",
        title: "Strength-controlled declaration rates, by period",
        caption: "As table 3a, pooled over fixed periods of years (each game judged against its own year's threshold): 2008-2013, \
2014-2017, 2018-2020, 2021-2023, 2024-2026. Periods without games are listed with zero games. The `all` row pools these periods only: games \
of years outside 2008-2026 are left out of it (table 3a's `all` row counts them).",
        compute: strength_by_era,
    },
    TableSpec {
        number: "3c",
        name: "strength_by_max_moves",
        title: "Strength-controlled declaration rates, by Max_Moves",
        caption: "As table 3a, grouped by the `'Max_Moves` value read from each record (each game judged against its own year's threshold); \
`0` = `'Max_Moves:0`, no move limit; `unknown` = no `'Max_Moves` line.",
        compute: strength_by_max_moves,
    },
    TableSpec {
        number: "3d",
        name: "strength_by_era_max_moves",
        title: "Strength-controlled declaration rates, by period and Max_Moves",
        caption: "As table 3a, one row per period of table 3b and `'Max_Moves` value read from the records, controlled and raw columns side by \
side (each game judged against its own year's threshold); combinations without a mutual entering-king game are left out. The reference \
study's cells are `2021-2023` x `256` and `2024-2026` x `512`.",
        compute: strength_by_era_max_moves,
    },
    TableSpec {
        number: "3e",
        name: "era_comparison",
        title: "The 256 era against the 512 era",
        caption: "The reference study's headline comparison, cell A = mutual entering-king games of 2021-2023 whose record reads `'Max_Moves:256`, \
cell B = those of 2024-2026 reading `'Max_Moves:512`; `controlled` rows count the strength-controlled games of table 3a (both ratings at or \
above the {percentile} percentile of {pool}), `raw` rows all mutual games of the cell. `*_count` of `*_games` games have the `measure` (`decl_win_rate`: \
declaration win; `move_limit_rate`: cut by the move limit), with the rate's 95% Wilson interval. `few_games`: a cell has fewer than {min_games} \
games. One inference throughout, the Miettinen-Nurminen score test of equal rates and the interval that inverts it: `rate_diff` = A's rate \
minus B's (percentage points), `rate_diff_lo` and `rate_diff_hi` the 95% score interval (every difference the test does not reject at 5%), \
`score_z` the statistic at no difference and `score_p` its two-sided p-value (the interval excludes 0 exactly when `score_p` < 0.05; \
`score_p_log10`: its base-10 logarithm, exact where the p-value is below the smallest double, about 1e-308). `role`: the `primary` comparison \
is the declaration-win rate of the controlled games, the study's question, tested at 5% as it stands; the three `secondary` ones have \
`holm_p`, Holm's adjustment over the three (`holm_p_log10` its logarithm). With few games the normal approximation of the test is rough: \
read such rows as descriptive.",
        compute: era_comparison,
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
        compute: mutual_position_sides,
    },
    TableSpec {
        number: "6c",
        name: "mutual_shortfall",
        title: "Distribution of the point shortfall at the first mutual entry",
        caption: "Number of sides of table 6b at each shortfall to the declaration-win threshold, under the 27-point rule (28/27) and \
the 24-point rule (31).",
        compute: mutual_shortfall,
    },
];

const ENDINGS_CAPTION_MUTUAL: &str = "Games whose final position has both kings in the enemy camp (`entering` = `mutual`), by the \
server's `'summary` reason: `valid_decl` = `kachi`, `invalid_decl` = `illegal kachi`, `move_limit` = `max_moves` or `max_moves_draw`, \
`resignation` = `toryo`, `repetition` = `sennichite` or `oute_sennichite`, `other` = anything else (time up, abnormal, illegal moves, \
no summary). Shares are of `games`, each with its 95% Wilson score interval (`*_lo`, `*_hi`). Max_Moves is read from each record; \
`unknown` = the record has no `'Max_Moves` line; `0` = the record reads `'Max_Moves:0`, no move limit.";

const ENDINGS_CAPTION_ONE_SIDED: &str = "As table 2a, for games whose final position has exactly one king in the enemy camp \
(`entering` = `black_only` or `white_only`).";

/// The study periods of table 3b: label, first year, last year.
pub const ERAS: &[(&str, i64, i64)] = &[
    ("2008-2013", 2008, 2013),
    ("2014-2017", 2014, 2017),
    ("2018-2020", 2018, 2020),
    ("2021-2023", 2021, 2023),
    ("2024-2026", 2024, 2026),
];

// ---------------------------------------------------------------- expression helpers

/// `name` equals the word of one of `values` (null is false).
fn is_one_of<W: Copy + Into<&'static str>>(name: &str, values: &[W]) -> Expr {
    values.iter().fold(lit(false), |acc, &v| {
        acc.or(col(name).eq(lit(v.into())).fill_null(lit(false)))
    })
}

/// Number of rows where `cond` holds (null counts as false).
fn count_if(cond: Expr) -> Expr {
    cond.fill_null(lit(false)).cast(DataType::Int64).sum()
}

/// `num / den` as a float, null when `den` is 0.
fn ratio(num: &str, den: &str, name: &str) -> Expr {
    when(col(den).gt(lit(0i64)))
        .then(col(num).cast(DataType::Float64) / col(den).cast(DataType::Float64))
        .otherwise(lit(NULL).cast(DataType::Float64))
        .alias(name)
}

fn games_count() -> Expr {
    len().cast(DataType::Int64).alias("games")
}

fn declaration_win() -> Expr {
    is_one_of(SUMMARY_REASON, &[ServerReason::Kachi])
}

fn move_limit() -> Expr {
    is_one_of(SUMMARY_REASON, &ServerReason::MOVE_LIMIT)
}

/// The record was replayed to its end (`status` `ok`, `illegal_move` or `no_summary`), so
/// its final position is the game's: only such a game has an entering class; a game not
/// replayed to its end is counted apart (table 1's `not_replayed`), never by the last
/// position reached.
fn replayed() -> Expr {
    is_one_of(STATUS, &Status::REPLAYED)
}

fn mutual() -> Expr {
    is_one_of(ENTERING, &[Entering::Mutual]).and(replayed())
}

/// A one-sided entering-king game: exactly one king in the enemy camp at the end.
fn one_sided() -> Expr {
    is_one_of(ENTERING, &Entering::ONE_SIDED).and(replayed())
}

/// An entering-king game: the final position is mutual or one-sided.
fn entering_king() -> Expr {
    is_one_of(ENTERING, &Entering::ENTERING_KING).and(replayed())
}

/// Black is to move in the final position.
fn black_to_move() -> Expr {
    col(BLACK_TO_MOVE).fill_null(lit(false))
}

/// Group by `key` (sorted, nulls last as `unknown`), add an `all` row, then add the
/// `finish` columns and order the columns as `order` (after the key).
fn keyed(
    lf: LazyFrame,
    key: Expr,
    key_name: &str,
    aggs: Vec<Expr>,
    finish: Vec<Expr>,
    order: &[&str],
) -> PolarsResult<DataFrame> {
    let groups = lf
        .clone()
        .group_by([key.alias(key_name)])
        .agg(aggs.clone())
        .sort(
            [key_name],
            SortMultipleOptions::default().with_nulls_last(true),
        )
        .with_column(
            col(key_name)
                .cast(DataType::String)
                .fill_null(lit("unknown")),
        );
    let mut total = vec![lit("all").alias(key_name)];
    total.extend(aggs);
    let total = lf.select(total);
    let mut select = vec![col(key_name)];
    select.extend(order.iter().map(|c| col(*c)));
    concat([groups, total], UnionArgs::default())?
        .with_columns(finish)
        .select(select)
        .collect()
}

// ---------------------------------------------------------------- table 1

fn years(lf: LazyFrame, _: &ReportConfig) -> PolarsResult<DataFrame> {
    let replayed = replayed();
    let has_final = col(FINAL_SFEN).is_not_null();
    let aggs = vec![
        games_count(),
        count_if(replayed.clone().not()).alias("not_replayed"),
        count_if(col(ILLEGAL_PLY).is_not_null()).alias("illegal_move"),
        count_if(mutual()).alias("mutual"),
        count_if(one_sided()).alias("one_sided"),
        count_if(is_one_of(ENTERING, &[Entering::Neither]).and(replayed.clone()))
            .alias("no_entering"),
        count_if(is_one_of(FINAL_BOARD, &FinalBoard::COMPARED)).alias("board_compared"),
        count_if(is_one_of(FINAL_BOARD, &FinalBoard::AGREED)).alias("board_matched"),
        count_if(entering_king().and(is_one_of(FINAL_BOARD, &FinalBoard::COMPARED)))
            .alias("entering_board_compared"),
        count_if(entering_king().and(is_one_of(FINAL_BOARD, &FinalBoard::AGREED)))
            .alias("entering_board_matched"),
        count_if(has_final.clone()).alias("points_checked"),
        count_if(has_final.and((col(OWNED_BLACK) + col(OWNED_WHITE)).neq(lit(54i64))))
            .alias("points_violations"),
        count_if(col(JUDGE_AGREES).is_not_null()).alias("judged"),
        count_if(col(JUDGE_AGREES).eq(lit(false))).alias("judge_disagreements"),
    ];
    let finish = vec![
        ratio("not_replayed", "games", "not_replayed_share"),
        ratio("mutual", "games", "mutual_share"),
        ratio("one_sided", "games", "one_sided_share"),
        ratio("no_entering", "games", "no_entering_share"),
        ratio("board_matched", "board_compared", "board_match_rate"),
        ratio(
            "entering_board_matched",
            "entering_board_compared",
            "entering_board_match_rate",
        ),
    ];
    let df = keyed(
        lf,
        col(YEAR),
        "year",
        aggs,
        finish,
        &[
            "games",
            "not_replayed",
            "not_replayed_share",
            "illegal_move",
            "mutual",
            "mutual_share",
            "one_sided",
            "one_sided_share",
            "no_entering",
            "no_entering_share",
            "board_compared",
            "board_matched",
            "board_match_rate",
            "entering_board_compared",
            "entering_board_matched",
            "entering_board_match_rate",
            "points_checked",
            "points_violations",
            "judged",
            "judge_disagreements",
        ],
    )?;
    with_intervals(
        df,
        &[
            ("board_matched", "board_compared", "board_match_rate"),
            (
                "entering_board_matched",
                "entering_board_compared",
                "entering_board_match_rate",
            ),
        ],
    )
}

// ---------------------------------------------------------------- table 2

#[derive(Clone, Copy)]
enum Population {
    Mutual,
    OneSided,
}

fn endings(lf: LazyFrame, pop: Population, key: Expr, key_name: &str) -> PolarsResult<DataFrame> {
    let filter = match pop {
        Population::Mutual => mutual(),
        Population::OneSided => one_sided(),
    };
    let valid = declaration_win();
    let invalid = is_one_of(SUMMARY_REASON, &[ServerReason::IllegalKachi]);
    let limit = move_limit();
    let resign = is_one_of(SUMMARY_REASON, &[ServerReason::Toryo]);
    let repetition = is_one_of(SUMMARY_REASON, &ServerReason::REPETITION);
    let known = valid
        .clone()
        .or(invalid.clone())
        .or(limit.clone())
        .or(resign.clone())
        .or(repetition.clone());
    let aggs = vec![
        games_count(),
        count_if(valid).alias("valid_decl"),
        count_if(invalid).alias("invalid_decl"),
        count_if(limit).alias("move_limit"),
        count_if(resign).alias("resignation"),
        count_if(repetition).alias("repetition"),
        count_if(known.not()).alias("other"),
    ];
    let finish = vec![
        ratio("valid_decl", "games", "valid_decl_share"),
        ratio("invalid_decl", "games", "invalid_decl_share"),
        ratio("move_limit", "games", "move_limit_share"),
    ];
    let df = keyed(
        lf.filter(filter),
        key,
        key_name,
        aggs,
        finish,
        &[
            "games",
            "valid_decl",
            "valid_decl_share",
            "invalid_decl",
            "invalid_decl_share",
            "move_limit",
            "move_limit_share",
            "resignation",
            "repetition",
            "other",
        ],
    )?;
    with_intervals(
        df,
        &[
            ("valid_decl", "games", "valid_decl_share"),
            ("invalid_decl", "games", "invalid_decl_share"),
            ("move_limit", "games", "move_limit_share"),
        ],
    )
}

// ---------------------------------------------------------------- table 3

/// Each year's strength threshold: the configured percentile of its rating pool.
/// Columns: `year`, `threshold`, `pool_ratings`, `pool_at_or_above` (ratings of the pool
/// at or above the threshold) and `pool_ties` (ratings equal to it).
pub fn thresholds(lf: LazyFrame, config: &ReportConfig) -> PolarsResult<LazyFrame> {
    let pool = match config.pool {
        RatingPool::Year | RatingPool::Players => lf,
        RatingPool::Entering => lf.filter(mutual()),
    };
    let rates = concat(
        [
            pool.clone().select([
                col(YEAR),
                col(BLACK).alias("player"),
                col(BLACK_RATE).alias("rate"),
            ]),
            pool.select([
                col(YEAR),
                col(WHITE).alias("player"),
                col(WHITE_RATE).alias("rate"),
            ]),
        ],
        UnionArgs::default(),
    )?
    .filter(col("rate").is_not_null().and(col(YEAR).is_not_null()));
    // One rating per player and year: the mean of their pre-game ratings that year.
    let rates = match config.pool {
        RatingPool::Players => rates
            .filter(col("player").is_not_null())
            .group_by([col(YEAR), col("player")])
            .agg([col("rate").mean()]),
        _ => rates,
    };
    let t = rates.clone().group_by([col(YEAR)]).agg([
        col("rate")
            .quantile(lit(config.percentile / 100.0), QuantileMethod::Linear)
            .alias("threshold"),
        len().cast(DataType::Int64).alias("pool_ratings"),
    ]);
    // How many ratings of the pool are at or above the threshold (strong, ties included)
    // and how many equal it.
    let ties = rates
        .join(
            t.clone(),
            [col(YEAR)],
            [col(YEAR)],
            JoinArgs::new(JoinType::Inner),
        )
        .group_by([col(YEAR)])
        .agg([
            count_if(col("rate").gt_eq(col("threshold"))).alias("pool_at_or_above"),
            count_if(col("rate").eq(col("threshold"))).alias("pool_ties"),
        ]);
    Ok(t.left_join(ties, col(YEAR), col(YEAR)))
}

/// Games with their year's threshold and a `strong` flag (mutual and both ratings at or
/// above the threshold).
fn with_strength(lf: LazyFrame, config: &ReportConfig) -> PolarsResult<LazyFrame> {
    let t = thresholds(lf.clone(), config)?;
    let strong = mutual()
        .and(col(BLACK_RATE).gt_eq(col("threshold")))
        .and(col(WHITE_RATE).gt_eq(col("threshold")))
        .fill_null(lit(false));
    Ok(lf
        .left_join(t, col(YEAR), col(YEAR))
        .with_column(strong.alias("strong")))
}

/// One row per game: `game_id` and `entry` where the games table has them, `year`,
/// `black_rate`, `white_rate`, the year's `threshold`, `mutual` and `strong` (a mutual
/// entering-king game whose two pre-game ratings are both at or above the threshold: the
/// games tables 3a-3e count as controlled).
pub fn per_game_strength(games: &DataFrame, config: &ReportConfig) -> PolarsResult<DataFrame> {
    let mut select: Vec<Expr> = ["game_id", "entry"]
        .iter()
        .filter(|c| games.column(c).is_ok())
        .map(|c| col(*c))
        .collect();
    select.extend([
        col(YEAR),
        col(BLACK_RATE),
        col(WHITE_RATE),
        col("threshold"),
        mutual().alias("mutual"),
        col("strong"),
    ]);
    with_strength(prepared(games)?, config)?
        .select(select)
        .collect()
}

fn strength_aggs() -> Vec<Expr> {
    let strong = col("strong");
    let low_side = col(OWNED_BLACK)
        .lt(lit(RULE24_DRAW))
        .or(col(OWNED_WHITE).lt(lit(RULE24_DRAW)));
    let mut aggs = Vec::new();
    for (prefix, sel) in [("", strong), ("raw_", mutual())] {
        aggs.push(count_if(sel.clone()).alias(format!("{prefix}games")));
        aggs.push(count_if(sel.clone().and(declaration_win())).alias(format!("{prefix}decl_wins")));
        aggs.push(count_if(sel.clone().and(move_limit())).alias(format!("{prefix}move_limit")));
        aggs.push(
            count_if(sel.and(move_limit()).and(low_side.clone()))
                .alias(format!("{prefix}low_side")),
        );
    }
    aggs
}

/// The rates of tables 3a-3d: (count, denominator, rate).
const STRENGTH_RATES: &[(&str, &str, &str)] = &[
    ("decl_wins", "games", "decl_win_rate"),
    ("move_limit", "games", "move_limit_rate"),
    ("low_side", "move_limit", "low_side_share"),
    ("raw_decl_wins", "raw_games", "raw_decl_win_rate"),
    ("raw_move_limit", "raw_games", "raw_move_limit_rate"),
    ("raw_low_side", "raw_move_limit", "raw_low_side_share"),
];

fn strength_finish(config: &ReportConfig) -> Vec<Expr> {
    let mut f = Vec::new();
    for p in ["", "raw_"] {
        f.push(ratio(
            &format!("{p}decl_wins"),
            &format!("{p}games"),
            &format!("{p}decl_win_rate"),
        ));
        f.push(ratio(
            &format!("{p}move_limit"),
            &format!("{p}games"),
            &format!("{p}move_limit_rate"),
        ));
        f.push(ratio(
            &format!("{p}low_side"),
            &format!("{p}move_limit"),
            &format!("{p}low_side_share"),
        ));
    }
    f.push(
        col("games")
            .lt(lit(i64::from(config.min_games)))
            .alias("few_games"),
    );
    f
}

const STRENGTH_ORDER: &[&str] = &[
    "games",
    "few_games",
    "decl_wins",
    "decl_win_rate",
    "move_limit",
    "move_limit_rate",
    "low_side",
    "low_side_share",
    "raw_games",
    "raw_decl_wins",
    "raw_decl_win_rate",
    "raw_move_limit",
    "raw_move_limit_rate",
    "raw_low_side",
    "raw_low_side_share",
];

fn strength_by_year(lf: LazyFrame, config: &ReportConfig) -> PolarsResult<DataFrame> {
    let lf = with_strength(lf, config)?;
    let mut aggs = vec![
        col("pool_ratings").first().fill_null(lit(0i64)),
        col("threshold").first(),
        col("pool_at_or_above").first().fill_null(lit(0i64)),
        col("pool_ties").first().fill_null(lit(0i64)),
    ];
    aggs.extend(strength_aggs());
    let mut finish = strength_finish(config);
    finish.push(ratio(
        "pool_at_or_above",
        "pool_ratings",
        "pool_at_or_above_share",
    ));
    let mut order = vec![
        "pool_ratings",
        "threshold",
        "pool_at_or_above",
        "pool_at_or_above_share",
        "pool_ties",
    ];
    order.extend_from_slice(STRENGTH_ORDER);
    let df = keyed(lf, col(YEAR), "year", aggs, finish, &order)?;
    // The total row has no single threshold or pool.
    let df = df
        .lazy()
        .with_columns([
            when(col("year").eq(lit("all")))
                .then(lit(NULL).cast(DataType::Float64))
                .otherwise(col("threshold"))
                .alias("threshold"),
            when(col("year").eq(lit("all")))
                .then(lit(NULL).cast(DataType::Int64))
                .otherwise(col("pool_ratings"))
                .alias("pool_ratings"),
            when(col("year").eq(lit("all")))
                .then(lit(NULL).cast(DataType::Int64))
                .otherwise(col("pool_at_or_above"))
                .alias("pool_at_or_above"),
            when(col("year").eq(lit("all")))
                .then(lit(NULL).cast(DataType::Float64))
                .otherwise(col("pool_at_or_above_share"))
                .alias("pool_at_or_above_share"),
            when(col("year").eq(lit("all")))
                .then(lit(NULL).cast(DataType::Int64))
                .otherwise(col("pool_ties"))
                .alias("pool_ties"),
        ])
        .collect()?;
    let df = with_intervals(df, STRENGTH_RATES)?;
    with_intervals(
        df,
        &[("pool_at_or_above", "pool_ratings", "pool_at_or_above_share")],
    )
}

fn era_label() -> Expr {
    ERAS.iter()
        .rev()
        .fold(lit(NULL).cast(DataType::String), |acc, (label, a, b)| {
            when(col(YEAR).gt_eq(lit(*a)).and(col(YEAR).lt_eq(lit(*b))))
                .then(lit(*label))
                .otherwise(acc)
        })
}

fn strength_by_era(lf: LazyFrame, config: &ReportConfig) -> PolarsResult<DataFrame> {
    let lf = with_strength(lf, config)?
        .with_column(era_label().alias("era"))
        .filter(col("era").is_not_null());
    let df = keyed(
        lf,
        col("era"),
        "era",
        strength_aggs(),
        strength_finish(config),
        STRENGTH_ORDER,
    )?;
    // Every period gets a row, with zero games when it has no data.
    let mut labels: Vec<&str> = ERAS.iter().map(|e| e.0).collect();
    labels.push("all");
    let frame = DataFrame::new_infer_height(vec![Column::new("era".into(), labels)])?;
    let counts = [
        "games",
        "decl_wins",
        "move_limit",
        "low_side",
        "raw_games",
        "raw_decl_wins",
        "raw_move_limit",
        "raw_low_side",
    ];
    let mut fill: Vec<Expr> = counts
        .iter()
        .map(|c| col(*c).fill_null(lit(0i64)))
        .collect();
    fill.push(
        col("games")
            .fill_null(lit(0i64))
            .lt(lit(i64::from(config.min_games)))
            .alias("few_games"),
    );
    let df = frame
        .lazy()
        .left_join(df.lazy(), col("era"), col("era"))
        .with_columns(fill)
        .collect()?;
    with_intervals(df, STRENGTH_RATES)
}

fn strength_by_max_moves(lf: LazyFrame, config: &ReportConfig) -> PolarsResult<DataFrame> {
    let lf = with_strength(lf, config)?;
    let df = keyed(
        lf,
        col(MAX_MOVES),
        "max_moves",
        strength_aggs(),
        strength_finish(config),
        STRENGTH_ORDER,
    )?;
    with_intervals(df, STRENGTH_RATES)
}

fn strength_by_era_max_moves(lf: LazyFrame, config: &ReportConfig) -> PolarsResult<DataFrame> {
    let lf = with_strength(lf, config)?
        .with_column(era_label().alias("era"))
        .filter(col("era").is_not_null());
    let mut select = vec![col("era"), col(MAX_MOVES)];
    select.extend(STRENGTH_ORDER.iter().map(|c| col(*c)));
    let df = lf
        .group_by([col("era"), col(MAX_MOVES)])
        .agg(strength_aggs())
        .filter(col("raw_games").gt(lit(0i64)))
        .sort(
            ["era", MAX_MOVES],
            SortMultipleOptions::default().with_nulls_last(true),
        )
        .with_column(
            col(MAX_MOVES)
                .cast(DataType::String)
                .fill_null(lit("unknown")),
        )
        .with_columns(strength_finish(config))
        .select(select)
        .collect()?;
    with_intervals(df, STRENGTH_RATES)
}

/// The cells of table 3e: label, first year, last year, `'Max_Moves` value.
pub const COMPARISON_CELLS: [(&str, i64, i64, i64); 2] = [
    ("Max_Moves 256, 2021-2023", 2021, 2023, 256),
    ("Max_Moves 512, 2024-2026", 2024, 2026, 512),
];

fn era_comparison(lf: LazyFrame, config: &ReportConfig) -> PolarsResult<DataFrame> {
    let lf = with_strength(lf, config)?;
    // Per cell and population: games, declaration wins, move-limit endings.
    let mut counts = Vec::new();
    for (_, first, last, mm) in COMPARISON_CELLS {
        let cell = col(YEAR)
            .gt_eq(lit(first))
            .and(col(YEAR).lt_eq(lit(last)))
            .and(col(MAX_MOVES).eq(lit(mm)))
            .fill_null(lit(false));
        let df = lf
            .clone()
            .select([
                count_if(cell.clone().and(col("strong"))).alias("c_games"),
                count_if(cell.clone().and(col("strong")).and(declaration_win())).alias("c_decl"),
                count_if(cell.clone().and(col("strong")).and(move_limit())).alias("c_limit"),
                count_if(cell.clone().and(mutual())).alias("r_games"),
                count_if(cell.clone().and(mutual()).and(declaration_win())).alias("r_decl"),
                count_if(cell.and(mutual()).and(move_limit())).alias("r_limit"),
            ])
            .collect()?;
        let get = |c: &str| -> PolarsResult<u64> {
            Ok(df.column(c)?.i64()?.get(0).unwrap_or(0).max(0) as u64)
        };
        counts.push([
            get("c_games")?,
            get("c_decl")?,
            get("c_limit")?,
            get("r_games")?,
            get("r_decl")?,
            get("r_limit")?,
        ]);
    }
    let rate = |k: u64, n: u64| (n > 0).then(|| k as f64 / n as f64);
    let (mut measures, mut populations, mut roles) = (Vec::new(), Vec::new(), Vec::new());
    let mut ints: [Vec<i64>; 4] = Default::default();
    let mut few = Vec::new();
    let mut floats: [Vec<Option<f64>>; 12] = Default::default();
    let mut ln_ps: Vec<Option<f64>> = Vec::new();
    for (population, base) in [("controlled", 0), ("raw", 3)] {
        for (measure, off) in [("decl_win_rate", 1), ("move_limit_rate", 2)] {
            let (na, ka) = (counts[0][base], counts[0][base + off]);
            let (nb, kb) = (counts[1][base], counts[1][base + off]);
            let (wa, wb) = (wilson(ka, na), wilson(kb, nb));
            let diff = rate(ka, na).zip(rate(kb, nb)).map(|(a, b)| a - b);
            let t = score_test(ka, na, kb, nb);
            measures.push(measure);
            populations.push(population);
            roles.push(if (population, measure) == PRIMARY_COMPARISON {
                "primary"
            } else {
                "secondary"
            });
            few.push(na.min(nb) < u64::from(config.min_games));
            for (v, x) in ints.iter_mut().zip([na, ka, nb, kb]) {
                v.push(x as i64);
            }
            ln_ps.push(t.map(|t| t.ln_p));
            let row = [
                rate(ka, na),
                wa.map(|w| w.0),
                wa.map(|w| w.1),
                rate(kb, nb),
                wb.map(|w| w.0),
                wb.map(|w| w.1),
                diff,
                t.map(|t| t.lo),
                t.map(|t| t.hi),
                t.map(|t| t.z),
                t.map(|t| t.ln_p.exp()),
                t.map(|t| t.ln_p / std::f64::consts::LN_10),
            ];
            for (v, x) in floats.iter_mut().zip(row) {
                v.push(x);
            }
        }
    }
    // Holm's adjustment over the secondary comparisons that have a test.
    let secondary: Vec<usize> = (0..roles.len())
        .filter(|&i| roles[i] == "secondary" && ln_ps[i].is_some())
        .collect();
    let adjusted = holm_ln(
        &secondary
            .iter()
            .filter_map(|&i| ln_ps[i])
            .collect::<Vec<_>>(),
    );
    let mut holm: Vec<Option<f64>> = vec![None; roles.len()];
    for (&i, a) in secondary.iter().zip(adjusted) {
        holm[i] = Some(a);
    }
    let n = measures.len();
    let [na, ka, nb, kb] = ints;
    let [
        ra,
        ra_lo,
        ra_hi,
        rb,
        rb_lo,
        rb_hi,
        d,
        d_lo,
        d_hi,
        z,
        p,
        p_log10,
    ] = floats;
    let f = |name: &str, v: Vec<Option<f64>>| Column::new(name.into(), v);
    DataFrame::new(
        n,
        vec![
            Column::new("measure".into(), measures),
            Column::new("population".into(), populations),
            Column::new("role".into(), roles),
            Column::new("a_cell".into(), vec![COMPARISON_CELLS[0].0; n]),
            Column::new("a_games".into(), na),
            Column::new("a_count".into(), ka),
            f("a_rate", ra),
            f("a_rate_lo", ra_lo),
            f("a_rate_hi", ra_hi),
            Column::new("b_cell".into(), vec![COMPARISON_CELLS[1].0; n]),
            Column::new("b_games".into(), nb),
            Column::new("b_count".into(), kb),
            f("b_rate", rb),
            f("b_rate_lo", rb_lo),
            f("b_rate_hi", rb_hi),
            Column::new("few_games".into(), few),
            f("rate_diff", d),
            f("rate_diff_lo", d_lo),
            f("rate_diff_hi", d_hi),
            f("score_z", z),
            f("score_p", p),
            f("score_p_log10", p_log10),
            f("holm_p", holm.iter().map(|h| h.map(f64::exp)).collect()),
            f(
                "holm_p_log10",
                holm.iter()
                    .map(|h| h.map(|l| l / std::f64::consts::LN_10))
                    .collect(),
            ),
        ],
    )
}

/// The comparison of table 3e that answers the study's question (population, measure);
/// the other three are secondary, with Holm-adjusted p-values.
pub const PRIMARY_COMPARISON: (&str, &str) = ("controlled", "decl_win_rate");

// ---------------------------------------------------------------- tables 4 and 5

/// Mutual entering-king games ended by the move limit.
pub fn cut_mutual_games(lf: LazyFrame) -> LazyFrame {
    lf.filter(mutual().and(move_limit()))
}

/// The 24-point rule's move-number clause: the SFEN move number is at most this.
pub const RULE24_LAST_MOVE: i64 = RULE24_LAST_MOVE_NUMBER as i64;

/// Declaration points that win under the 24-point rule (either side).
pub const RULE24_WIN: i64 = RULE24_WIN_POINTS as i64;

/// Own non-king pieces in the enemy camp a declaration needs.
pub const ZONE_PIECES: i64 = DECLARATION_ZONE_PIECES as i64;

/// Declaration points `side` needs to win under the 27-point rule.
fn rule27_win(side: Color) -> i64 {
    EnteringKingRule::CSARule27
        .base_threshold(side)
        .map_or(0, i64::from)
}

/// Owned points for a 24-point draw (and in an impasse under the 24-point rule).
pub const RULE24_DRAW: i64 = RULE24_DRAW_POINTS as i64;

/// Owned points of both sides together in a game with every piece (20 pieces at 1 and the
/// two rooks and two bishops at 5 each side): so at most one side owns more than half.
pub const TOTAL_POINTS: i64 = 54;

/// One row per cut mutual game (see [`cut_mutual_games`]), its *leading side*: the side
/// owning more points (Black on a 27-27 tie, which passes no stage). Columns `max_moves`,
/// `owned`, `decl`, `zone`, `king_in_camp`, `in_check`, `move_number` of that side, and
/// `zone10_any` (either side has 10 or more pieces in the enemy camp).
pub fn cut_games(lf: LazyFrame) -> LazyFrame {
    let black_leads = col(OWNED_BLACK)
        .fill_null(lit(0i64))
        .gt_eq(col(OWNED_WHITE).fill_null(lit(0i64)));
    let pick = |b: &str, w: &str| when(black_leads.clone()).then(col(b)).otherwise(col(w));
    let in_check = when(black_leads.clone())
        .then(col(IN_CHECK_FINAL).and(black_to_move()))
        .otherwise(col(IN_CHECK_FINAL).and(black_to_move().not()));
    cut_mutual_games(lf).select([
        col(MAX_MOVES),
        pick(OWNED_BLACK, OWNED_WHITE).alias("owned"),
        pick(DECL_BLACK, DECL_WHITE).alias("decl"),
        pick(ZONE_BLACK, ZONE_WHITE).alias("zone"),
        pick(KING_IN_CAMP_BLACK, KING_IN_CAMP_WHITE).alias("king_in_camp"),
        in_check.alias("in_check"),
        (col(PLIES) + lit(1i64)).alias("move_number"),
        col(ZONE_BLACK)
            .gt_eq(lit(ZONE_PIECES))
            .or(col(ZONE_WHITE).gt_eq(lit(ZONE_PIECES)))
            .fill_null(lit(false))
            .alias("zone10_any"),
    ])
}

fn funnel(lf: LazyFrame, _: &ReportConfig) -> PolarsResult<DataFrame> {
    let games = cut_games(lf);
    let half = TOTAL_POINTS / 2;
    let owned31 = col("owned").gt_eq(lit(RULE24_WIN));
    let decl31 = owned31.clone().and(col("decl").gt_eq(lit(RULE24_WIN)));
    let zone10 = decl31.clone().and(col("zone").gt_eq(lit(ZONE_PIECES)));
    let board = zone10
        .clone()
        .and(col("king_in_camp"))
        .and(col("in_check").not());
    let declarable = board
        .clone()
        .and(col("move_number").lt_eq(lit(RULE24_LAST_MOVE)));
    let stranded = owned31.clone().and(col("decl").lt(lit(RULE24_WIN)));
    let aggs = vec![
        games_count(),
        count_if(col("owned").gt(lit(half))).alias("owned_over27"),
        count_if(owned31).alias("owned31"),
        count_if(decl31).alias("decl31"),
        count_if(zone10).alias("decl31_zone10"),
        count_if(board).alias("declarable_board"),
        count_if(declarable).alias("declarable"),
        count_if(col("zone10_any")).alias("zone10"),
        (col("owned") - col("decl"))
            .filter(stranded)
            .median()
            .alias("stranded_median"),
    ];
    // (count, denominator, rate): shares of `games`, `*_pass` of the previous stage.
    let rates: &[(&str, &str, &str)] = &[
        ("owned_over27", "games", "owned_over27_share"),
        ("owned31", "games", "owned31_share"),
        ("decl31", "games", "decl31_share"),
        ("decl31", "owned31", "decl31_pass"),
        ("decl31_zone10", "games", "decl31_zone10_share"),
        ("decl31_zone10", "decl31", "decl31_zone10_pass"),
        ("declarable_board", "games", "declarable_board_share"),
        ("declarable_board", "decl31_zone10", "declarable_board_pass"),
        ("declarable", "games", "declarable_share"),
        ("declarable", "declarable_board", "declarable_pass"),
        ("zone10", "games", "zone10_share"),
    ];
    let finish = rates.iter().map(|&(k, n, r)| ratio(k, n, r)).collect();
    let df = keyed(
        games,
        col(MAX_MOVES),
        "max_moves",
        aggs,
        finish,
        &[
            "games",
            "owned_over27",
            "owned_over27_share",
            "owned31",
            "owned31_share",
            "decl31",
            "decl31_share",
            "decl31_pass",
            "decl31_zone10",
            "decl31_zone10_share",
            "decl31_zone10_pass",
            "declarable_board",
            "declarable_board_share",
            "declarable_board_pass",
            "declarable",
            "declarable_share",
            "declarable_pass",
            "zone10",
            "zone10_share",
            "stranded_median",
        ],
    )?;
    with_intervals(df, rates)
}

/// Whether one side may declare with at least `points` declaration points in the final
/// position.
fn can_declare(black: bool, min_points: i64) -> Expr {
    let (d, z, k) = if black {
        (DECL_BLACK, ZONE_BLACK, KING_IN_CAMP_BLACK)
    } else {
        (DECL_WHITE, ZONE_WHITE, KING_IN_CAMP_WHITE)
    };
    let to_move = if black {
        black_to_move()
    } else {
        black_to_move().not()
    };
    let in_check = col(IN_CHECK_FINAL).and(to_move);
    col(k)
        .and(in_check.not())
        .and(col(z).gt_eq(lit(ZONE_PIECES)))
        .and(col(d).gt_eq(lit(min_points)))
}

fn counterfactual(lf: LazyFrame, _: &ReportConfig) -> PolarsResult<DataFrame> {
    let cut = cut_mutual_games(lf);
    let within_500 = (col(PLIES) + lit(1i64)).lt_eq(lit(RULE24_LAST_MOVE));
    let impasse_ok = col(IN_CHECK_FINAL).not();
    let ob = || col(OWNED_BLACK).gt_eq(lit(RULE24_DRAW));
    let ow = || col(OWNED_WHITE).gt_eq(lit(RULE24_DRAW));
    // (rule, black wins, white wins, draw)
    let rules: Vec<(&str, Expr, Expr, Expr)> = vec![
        (
            "27-point",
            can_declare(true, rule27_win(Color::Black)),
            can_declare(false, rule27_win(Color::White)),
            lit(false),
        ),
        (
            "24-point",
            can_declare(true, RULE24_WIN).and(within_500.clone()),
            can_declare(false, RULE24_WIN).and(within_500.clone()),
            can_declare(true, RULE24_DRAW)
                .or(can_declare(false, RULE24_DRAW))
                .and(within_500)
                .and(can_declare(true, RULE24_WIN).not())
                .and(can_declare(false, RULE24_WIN).not()),
        ),
        (
            "impasse",
            impasse_ok.clone().and(ob()).and(ow().not()),
            impasse_ok.clone().and(ow()).and(ob().not()),
            impasse_ok.and(ob()).and(ow()),
        ),
    ];
    let mut out: Option<DataFrame> = None;
    for (rule, bw, ww, draw) in rules {
        let lf = cut.clone().with_columns([
            bw.fill_null(lit(false)).alias("bw"),
            ww.fill_null(lit(false)).alias("ww"),
            draw.fill_null(lit(false)).alias("dr"),
        ]);
        let aggs = vec![
            games_count(),
            count_if(col("bw")).alias("black_win"),
            count_if(col("ww")).alias("white_win"),
            count_if(col("dr")).alias("draw"),
            count_if(col("bw").or(col("ww")).or(col("dr")).not()).alias("unchanged"),
        ];
        let finish = vec![(col("black_win") + col("white_win")).alias("decisive")];
        let df = keyed(
            lf,
            col(MAX_MOVES),
            "max_moves",
            aggs,
            finish,
            &[
                "games",
                "black_win",
                "white_win",
                "decisive",
                "draw",
                "unchanged",
            ],
        )?
        .lazy()
        .with_columns([
            lit(rule).alias("rule"),
            ratio("decisive", "games", "decisive_share"),
        ])
        .select([
            col("max_moves"),
            col("rule"),
            col("games"),
            col("black_win"),
            col("white_win"),
            col("draw"),
            col("unchanged"),
            col("decisive"),
            col("decisive_share"),
        ])
        .collect()?;
        let df = with_intervals(df, &[("decisive", "games", "decisive_share")])?;
        out = Some(match out {
            None => df,
            Some(acc) => acc.vstack(&df)?,
        });
    }
    Ok(out.unwrap_or_default())
}

// ---------------------------------------------------------------- table 6

/// The counts of every parseable `mutual_sfen` (positions that do not parse are left out).
fn mutual_counts(lf: LazyFrame) -> PolarsResult<Vec<positions::PositionCounts>> {
    use rayon::prelude::*;
    let df = lf
        .filter(col(MUTUAL_SFEN).is_not_null())
        .select([col(MUTUAL_SFEN)])
        .collect()?;
    let ca = df.column(MUTUAL_SFEN)?.str()?;
    let sfens: Vec<&str> = (0..ca.len()).filter_map(|i| ca.get(i)).collect();
    Ok(sfens
        .par_iter()
        .filter_map(|s| crate::shogi::Position::from_sfen(s).ok())
        .map(|p| positions::counts(&p))
        .collect())
}

fn mutual_positions(lf: LazyFrame, _: &ReportConfig) -> PolarsResult<DataFrame> {
    let (p, _) = positions::frames(&mutual_counts(lf)?)?;
    positions::summary(&p)
}

fn mutual_position_sides(lf: LazyFrame, _: &ReportConfig) -> PolarsResult<DataFrame> {
    let (_, s) = positions::frames(&mutual_counts(lf)?)?;
    positions::sides_summary(&s)
}

fn mutual_shortfall(lf: LazyFrame, _: &ReportConfig) -> PolarsResult<DataFrame> {
    let (_, s) = positions::frames(&mutual_counts(lf)?)?;
    positions::shortfall_distribution(&s)
}
