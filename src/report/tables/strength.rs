//! Tables 3a-3j: the strength-controlled entering-king games (both pre-game ratings at or
//! above the year's threshold) by year, era and `'Max_Moves`, and the comparison of the
//! two eras, over one of two cohorts ([`Cohort`]): the games mutual in their final
//! position (tables 3a-3e) or the games ever mutual (tables 3f-3j, table 7a's cohort).

use polars::prelude::*;

use super::super::columns::*;
use super::super::config::{RatingPool, ReportConfig};
use super::super::exact::{MIN_EXPECTED, exact_comparison, min_expected};
use super::super::stats::Z95;
use super::super::stats::{ClusteredRate, clustered_rate, holm_ln, score_test, wilson};
use super::cut::RULE24_DRAW;
use super::expr::*;
use super::frame::{ERAS, era_label, prepared};

/// The games a strength table counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cohort {
    /// Mutual in the final position (tables 3a-3e): selected on the outcome, for the move
    /// limit changes how a game ends.
    FinalMutual,
    /// Ever mutual (tables 3f-3j): replayed to the end with a first mutual entry, whatever
    /// the final position; fixed before the outcome.
    EverMutual,
}

impl Cohort {
    /// The condition a game of the cohort meets.
    fn games(self) -> Expr {
        match self {
            Cohort::FinalMutual => mutual(),
            Cohort::EverMutual => ever_mutual(),
        }
    }
}

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

/// Games with their year's threshold, a `strong` flag (both pre-game ratings at or above
/// it: the strength condition alone) and a `controlled` flag (in the cohort and strong:
/// the games the strength-controlled columns count). The threshold does not depend on the
/// cohort.
fn with_strength(lf: LazyFrame, config: &ReportConfig, cohort: Cohort) -> PolarsResult<LazyFrame> {
    let t = thresholds(lf.clone(), config)?;
    let strong = col(BLACK_RATE)
        .gt_eq(col("threshold"))
        .and(col(WHITE_RATE).gt_eq(col("threshold")))
        .fill_null(lit(false));
    Ok(lf
        .left_join(t, col(YEAR), col(YEAR))
        .with_column(strong.alias("strong"))
        .with_column(cohort.games().and(col("strong")).alias("controlled")))
}

/// One row per game: `game_id` and `entry` where the games table has them, `year`,
/// `black_rate`, `white_rate`, the year's `threshold`, `mutual` (a mutual entering-king
/// game) and `strong` (both pre-game ratings at or above the threshold, whatever the
/// ending): tables 3a-3e count as controlled the games that are both.
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
    with_strength(prepared(games)?, config, Cohort::FinalMutual)?
        .select(select)
        .collect()
}

/// The counts and rates of tables 3a-3d (3f-3i), for the controlled games (`strong`) and,
/// with the prefix `raw_`, for every game of the cohort.
fn family(cohort: Cohort) -> Family {
    let low_side = col(OWNED_BLACK)
        .lt(lit(RULE24_DRAW))
        .or(col(OWNED_WHITE).lt(lit(RULE24_DRAW)));
    let mut columns = Vec::new();
    let mut rates = Vec::new();
    for (prefix, sel) in [("", col("controlled")), ("raw_", cohort.games())] {
        let n = |s: &str| format!("{prefix}{s}");
        columns.push((n("games"), count_if(sel.clone())));
        columns.push((n("decl_wins"), count_if(sel.clone().and(declaration_win()))));
        columns.push((n("move_limit"), count_if(sel.clone().and(move_limit()))));
        columns.push((
            n("low_side"),
            count_if(sel.and(move_limit()).and(low_side.clone())),
        ));
        rates.push(Rate::new(&n("decl_wins"), &n("games"), &n("decl_win_rate")));
        rates.push(Rate::new(
            &n("move_limit"),
            &n("games"),
            &n("move_limit_rate"),
        ));
        rates.push(Rate::new(
            &n("low_side"),
            &n("move_limit"),
            &n("low_side_share"),
        ));
    }
    Family { columns, rates }
}

/// `few_games`: fewer controlled games than `--min-games` (flagged, not dropped).
fn few_games(config: &ReportConfig) -> Expr {
    col("games")
        .lt(lit(i64::from(config.min_games)))
        .alias("few_games")
}

/// The rate columns and `few_games`.
fn strength_finish(f: &Family, config: &ReportConfig) -> Vec<Expr> {
    let mut out = f.finish();
    out.push(few_games(config));
    out
}

/// The family's column order with `few_games` after `games`.
fn strength_order(f: &Family) -> Vec<&str> {
    let mut order = f.order();
    order.insert(1, "few_games");
    order
}

/// The rating pool columns of table 3a.
fn pool_family() -> Family {
    Family {
        columns: vec![
            (
                "pool_ratings".into(),
                col("pool_ratings").first().fill_null(lit(0i64)),
            ),
            ("threshold".into(), col("threshold").first()),
            (
                "pool_at_or_above".into(),
                col("pool_at_or_above").first().fill_null(lit(0i64)),
            ),
            (
                "pool_ties".into(),
                col("pool_ties").first().fill_null(lit(0i64)),
            ),
        ],
        rates: vec![Rate::new(
            "pool_at_or_above",
            "pool_ratings",
            "pool_at_or_above_share",
        )],
    }
}

pub(super) fn strength_by_year(
    lf: LazyFrame,
    config: &ReportConfig,
    cohort: Cohort,
) -> PolarsResult<DataFrame> {
    let lf = with_strength(lf, config, cohort)?;
    let (f, pool) = (family(cohort), pool_family());
    let mut aggs = pool.aggs();
    aggs.extend(f.aggs());
    let mut finish = strength_finish(&f, config);
    finish.extend(pool.finish());
    let mut order = pool.order();
    order.extend(strength_order(&f));
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
    let df = f.with_intervals(df)?;
    pool.with_intervals(df)
}

pub(super) fn strength_by_era(
    lf: LazyFrame,
    config: &ReportConfig,
    cohort: Cohort,
) -> PolarsResult<DataFrame> {
    let lf = with_strength(lf, config, cohort)?
        .with_column(era_label().alias("era"))
        .filter(col("era").is_not_null());
    let f = family(cohort);
    let df = keyed(
        lf,
        col("era"),
        "era",
        f.aggs(),
        strength_finish(&f, config),
        &strength_order(&f),
    )?;
    // Every period gets a row, with zero games when it has no data.
    let mut labels: Vec<&str> = ERAS.iter().map(|e| e.0).collect();
    labels.push("all");
    let frame = DataFrame::new_infer_height(vec![Column::new("era".into(), labels)])?;
    let mut fill: Vec<Expr> = f
        .names()
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
    f.with_intervals(df)
}

pub(super) fn strength_by_max_moves(
    lf: LazyFrame,
    config: &ReportConfig,
    cohort: Cohort,
) -> PolarsResult<DataFrame> {
    let lf = with_strength(lf, config, cohort)?;
    let f = family(cohort);
    let df = keyed(
        lf,
        col(MAX_MOVES),
        "max_moves",
        f.aggs(),
        strength_finish(&f, config),
        &strength_order(&f),
    )?;
    f.with_intervals(df)
}

pub(super) fn strength_by_era_max_moves(
    lf: LazyFrame,
    config: &ReportConfig,
    cohort: Cohort,
) -> PolarsResult<DataFrame> {
    let lf = with_strength(lf, config, cohort)?
        .with_column(era_label().alias("era"))
        .filter(col("era").is_not_null());
    let f = family(cohort);
    let mut select = vec![col("era"), col(MAX_MOVES)];
    select.extend(strength_order(&f).iter().map(|c| col(*c)));
    let df = lf
        .group_by([col("era"), col(MAX_MOVES)])
        .agg(f.aggs())
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
        .with_columns(strength_finish(&f, config))
        .select(select)
        .collect()?;
    f.with_intervals(df)
}

/// The cells of table 3e: label, first year, last year, `'Max_Moves` value.
pub const COMPARISON_CELLS: [(&str, i64, i64, i64); 2] = [
    ("Max_Moves 256, 2021-2023", 2021, 2023, 256),
    ("Max_Moves 512, 2024-2026", 2024, 2026, 512),
];

pub(super) fn era_comparison(
    lf: LazyFrame,
    config: &ReportConfig,
    cohort: Cohort,
) -> PolarsResult<DataFrame> {
    comparisons(lf, config, cohort, false)
}

/// Table 3j's primary comparison alone (its one row, on the games ever mutual), as tables
/// 8d and 8e recompute it: the secondary rows' tests (an exact test on large cells is
/// slow) are not made.
pub(super) fn primary_comparison(lf: LazyFrame, config: &ReportConfig) -> PolarsResult<DataFrame> {
    comparisons(lf, config, Cohort::EverMutual, true)
}

fn comparisons(
    lf: LazyFrame,
    config: &ReportConfig,
    cohort: Cohort,
    primary_only: bool,
) -> PolarsResult<DataFrame> {
    let lf = with_strength(lf, config, cohort)?;
    // Per cell and population: games, declaration wins, move-limit endings; and each
    // cell's games of the cohort with their players, for the intervals clustered by engine
    // pair.
    let mut counts = Vec::new();
    let mut cell_games = Vec::new();
    for (_, first, last, mm) in COMPARISON_CELLS {
        let (c, g) = comparison_cell(&lf, (first, last, mm), cohort)?;
        counts.push(c);
        cell_games.push(g);
    }
    let mut rows = Vec::new();
    for (population, base) in [("controlled", 0), ("raw", 3)] {
        for (measure, off) in [("decl_win_rate", 1), ("move_limit_rate", 2)] {
            if primary_only && (population, measure) != PRIMARY_COMPARISON {
                continue;
            }
            let cell = |i: usize| (counts[i][base], counts[i][base + off]);
            let clusters = [
                pair_counts(&cell_games[0], population == "controlled", off == 1)?,
                pair_counts(&cell_games[1], population == "controlled", off == 1)?,
            ];
            let (a, b) = (cell(0), cell(1));
            rows.push(ComparisonRow::new(
                (population, measure),
                a,
                b,
                &clusters,
                config,
            ));
        }
    }
    comparison_frame(&rows)
}

/// One cell of table 3e (3j): its counts (controlled games, declaration wins, move-limit
/// endings, then the same over every game of the cohort) and its games of the cohort with
/// their players, flags and endings.
fn comparison_cell(
    lf: &LazyFrame,
    (first, last, mm): (i64, i64, i64),
    cohort: Cohort,
) -> PolarsResult<([u64; 6], DataFrame)> {
    let cell = col(YEAR)
        .gt_eq(lit(first))
        .and(col(YEAR).lt_eq(lit(last)))
        .and(col(MAX_MOVES).eq(lit(mm)))
        .fill_null(lit(false));
    let controlled = cell.clone().and(col("controlled"));
    let raw = cell.clone().and(cohort.games());
    let df = lf
        .clone()
        .select([
            count_if(controlled.clone()).alias("c_games"),
            count_if(controlled.clone().and(declaration_win())).alias("c_decl"),
            count_if(controlled.and(move_limit())).alias("c_limit"),
            count_if(raw.clone()).alias("r_games"),
            count_if(raw.clone().and(declaration_win())).alias("r_decl"),
            count_if(raw.and(move_limit())).alias("r_limit"),
        ])
        .collect()?;
    let get = |c: &str| -> PolarsResult<u64> {
        Ok(df.column(c)?.i64()?.get(0).unwrap_or(0).max(0) as u64)
    };
    let games = lf
        .clone()
        .filter(cell.and(cohort.games()))
        .select([
            col(BLACK).cast(DataType::String),
            col(WHITE).cast(DataType::String),
            col("controlled").fill_null(lit(false)),
            declaration_win().alias("decl"),
            move_limit().alias("limit"),
        ])
        .collect()?;
    let counts = [
        get("c_games")?,
        get("c_decl")?,
        get("c_limit")?,
        get("r_games")?,
        get("r_decl")?,
        get("r_limit")?,
    ];
    Ok((counts, games))
}

/// One comparison of table 3e (a measure in a population, cell A against cell B): the
/// counts, the intervals, the clusters and the test chosen.
struct ComparisonRow {
    population: &'static str,
    measure: &'static str,
    /// Games and games with the measure, in cell A and in cell B.
    na: u64,
    ka: u64,
    nb: u64,
    kb: u64,
    few: bool,
    expected: Option<f64>,
    /// Intervals clustered by engine pair, of A, of B, and of the difference.
    ca: Option<ClusteredRate>,
    cb: Option<ClusteredRate>,
    cdiff: Option<(f64, f64)>,
    /// Engines and pairs of A, then of B.
    structure: [i64; 4],
    test: &'static str,
    z: Option<f64>,
    ln_p: Option<f64>,
    lo: Option<f64>,
    hi: Option<f64>,
}

impl ComparisonRow {
    fn new(
        (population, measure): (&'static str, &'static str),
        (na, ka): (u64, u64),
        (nb, kb): (u64, u64),
        clusters: &[PairCounts; 2],
        config: &ReportConfig,
    ) -> ComparisonRow {
        let few = na.min(nb) < u64::from(config.min_games);
        let (ca, cb) = (
            clustered_rate(&clusters[0].pairs),
            clustered_rate(&clusters[1].pairs),
        );
        let cdiff = ca.zip(cb).map(|(a, b)| {
            let se = (a.se * a.se + b.se * b.se).sqrt();
            (a.rate - b.rate - Z95 * se, a.rate - b.rate + Z95 * se)
        });
        let expected = min_expected(ka, na, kb, nb);
        let small = few || expected.is_some_and(|e| e < MIN_EXPECTED);
        let (test, z, ln_p, lo, hi) = comparison_test(expected.is_some(), small, ka, na, kb, nb);
        ComparisonRow {
            population,
            measure,
            na,
            ka,
            nb,
            kb,
            few,
            expected,
            ca,
            cb,
            cdiff,
            structure: [
                clusters[0].engines,
                clusters[0].pairs.len() as i64,
                clusters[1].engines,
                clusters[1].pairs.len() as i64,
            ],
            test,
            z,
            ln_p,
            lo,
            hi,
        }
    }

    fn role(&self) -> &'static str {
        if (self.population, self.measure) == PRIMARY_COMPARISON {
            "primary"
        } else {
            "secondary"
        }
    }

    fn rate_a(&self) -> Option<f64> {
        (self.na > 0).then(|| self.ka as f64 / self.na as f64)
    }

    fn rate_b(&self) -> Option<f64> {
        (self.nb > 0).then(|| self.kb as f64 / self.nb as f64)
    }
}

/// (test, z, ln p, lo, hi): the score test where every expected count is 5 or more and
/// neither cell has few games (not `small`), else the exact pair, else none (`testable`
/// false: no expected count, an empty cell).
fn comparison_test(
    testable: bool,
    small: bool,
    ka: u64,
    na: u64,
    kb: u64,
    nb: u64,
) -> (
    &'static str,
    Option<f64>,
    Option<f64>,
    Option<f64>,
    Option<f64>,
) {
    let none = (TEST_NONE, None, None, None, None);
    match (testable, small) {
        (false, _) => none,
        (true, false) => match score_test(ka, na, kb, nb) {
            Some(t) => (TEST_SCORE, Some(t.z), Some(t.ln_p), Some(t.lo), Some(t.hi)),
            None => none,
        },
        (true, true) => match exact_comparison(ka, na, kb, nb) {
            Some(e) => (TEST_EXACT, None, Some(e.ln_p), Some(e.lo), Some(e.hi)),
            None => none,
        },
    }
}

/// Holm's adjustment over the family fixed in advance, every secondary comparison: an
/// untestable one stays in it (as p = 1, which ranks last and so changes no multiplier
/// of the others) and gets no adjusted p. The adjusted ln p of each row, and the family's
/// size on the secondary rows.
fn holm_adjusted(rows: &[ComparisonRow]) -> (Vec<Option<f64>>, Vec<Option<i64>>) {
    let secondary: Vec<usize> = (0..rows.len())
        .filter(|&i| rows[i].role() == "secondary")
        .collect();
    let adjusted = holm_ln(
        &secondary
            .iter()
            .map(|&i| rows[i].ln_p.unwrap_or(0.0))
            .collect::<Vec<_>>(),
    );
    let mut holm: Vec<Option<f64>> = vec![None; rows.len()];
    for (&i, a) in secondary.iter().zip(adjusted) {
        holm[i] = rows[i].ln_p.map(|_| a);
    }
    let family = rows
        .iter()
        .map(|r| (r.role() == "secondary").then_some(secondary.len() as i64))
        .collect();
    (holm, family)
}

/// Table 3e's columns, one row per comparison.
fn comparison_frame(rows: &[ComparisonRow]) -> PolarsResult<DataFrame> {
    use std::f64::consts::LN_10;
    type Get<T> = dyn Fn(&ComparisonRow) -> T;
    let n = rows.len();
    let (holm, family) = holm_adjusted(rows);
    let f = |name: &str, get: &Get<Option<f64>>| {
        Column::new(name.into(), rows.iter().map(get).collect::<Vec<_>>())
    };
    let i = |name: &str, get: &Get<i64>| {
        Column::new(name.into(), rows.iter().map(get).collect::<Vec<_>>())
    };
    let s = |name: &str, get: &Get<&'static str>| {
        Column::new(name.into(), rows.iter().map(get).collect::<Vec<_>>())
    };
    let diff = |r: &ComparisonRow| r.rate_a().zip(r.rate_b()).map(|(a, b)| a - b);
    DataFrame::new(
        n,
        vec![
            s("measure", &|r| r.measure),
            s("population", &|r| r.population),
            s("role", &|r| r.role()),
            Column::new("a_cell".into(), vec![COMPARISON_CELLS[0].0; n]),
            i("a_games", &|r| r.na as i64),
            i("a_count", &|r| r.ka as i64),
            f("a_rate", &|r| r.rate_a()),
            f("a_rate_lo", &|r| wilson(r.ka, r.na).map(|w| w.0)),
            f("a_rate_hi", &|r| wilson(r.ka, r.na).map(|w| w.1)),
            i("a_engines", &|r| r.structure[0]),
            i("a_pairs", &|r| r.structure[1]),
            f("a_rate_cl_lo", &|r| r.ca.map(|c| c.lo)),
            f("a_rate_cl_hi", &|r| r.ca.map(|c| c.hi)),
            f("a_design_effect", &|r| r.ca.and_then(|c| c.design_effect)),
            Column::new("b_cell".into(), vec![COMPARISON_CELLS[1].0; n]),
            i("b_games", &|r| r.nb as i64),
            i("b_count", &|r| r.kb as i64),
            f("b_rate", &|r| r.rate_b()),
            f("b_rate_lo", &|r| wilson(r.kb, r.nb).map(|w| w.0)),
            f("b_rate_hi", &|r| wilson(r.kb, r.nb).map(|w| w.1)),
            i("b_engines", &|r| r.structure[2]),
            i("b_pairs", &|r| r.structure[3]),
            f("b_rate_cl_lo", &|r| r.cb.map(|c| c.lo)),
            f("b_rate_cl_hi", &|r| r.cb.map(|c| c.hi)),
            f("b_design_effect", &|r| r.cb.and_then(|c| c.design_effect)),
            Column::new(
                "few_games".into(),
                rows.iter().map(|r| r.few).collect::<Vec<_>>(),
            ),
            f("expected_min", &|r| r.expected),
            s("test", &|r| r.test),
            f("rate_diff", &diff),
            f("rate_diff_lo", &|r| r.lo),
            f("rate_diff_hi", &|r| r.hi),
            f("rate_diff_cl_lo", &|r| r.cdiff.map(|d| d.0)),
            f("rate_diff_cl_hi", &|r| r.cdiff.map(|d| d.1)),
            f("score_z", &|r| r.z),
            f("test_p", &|r| r.ln_p.map(f64::exp)),
            f("test_p_log10", &|r| r.ln_p.map(|l| l / LN_10)),
            Column::new("holm_family".into(), family),
            Column::new(
                "holm_p".into(),
                holm.iter().map(|h| h.map(f64::exp)).collect::<Vec<_>>(),
            ),
            Column::new(
                "holm_p_log10".into(),
                holm.iter()
                    .map(|h| h.map(|l| l / LN_10))
                    .collect::<Vec<_>>(),
            ),
        ],
    )
}

/// A cell's games of one population grouped by engine pair.
struct PairCounts {
    /// (games, games with the measure) per unordered pair of player names.
    pairs: Vec<(u64, u64)>,
    /// The distinct player names.
    engines: i64,
}

/// The games of `df` (a cell's mutual games: `black`, `white`, `controlled`, `decl`,
/// `limit`), the controlled ones only when `controlled_only`, grouped by the unordered
/// pair of player names (a game without a name is a pair of its own: an unknown player is
/// never merged with another), counting declaration wins (`decl`) or move-limit endings.
fn pair_counts(df: &DataFrame, controlled_only: bool, decl: bool) -> PolarsResult<PairCounts> {
    use std::collections::{BTreeMap, BTreeSet};
    let (b, w) = (df.column(BLACK)?.str()?, df.column(WHITE)?.str()?);
    let keep = df.column("controlled")?.bool()?;
    let hit = df.column(if decl { "decl" } else { "limit" })?.bool()?;
    let mut pairs: BTreeMap<(String, String), (u64, u64)> = BTreeMap::new();
    let mut engines = BTreeSet::new();
    for i in 0..df.height() {
        if controlled_only && keep.get(i) != Some(true) {
            continue;
        }
        let key = match (b.get(i), w.get(i)) {
            (Some(x), Some(y)) => {
                engines.insert(x.to_string());
                engines.insert(y.to_string());
                if x <= y {
                    (x.to_string(), y.to_string())
                } else {
                    (y.to_string(), x.to_string())
                }
            }
            _ => (format!("\u{0}game {i}"), String::new()),
        };
        let e = pairs.entry(key).or_default();
        e.0 += 1;
        e.1 += u64::from(hit.get(i) == Some(true));
    }
    Ok(PairCounts {
        pairs: pairs.into_values().collect(),
        engines: engines.len() as i64,
    })
}

/// Table 3e's `test` of a comparison with a cell of few games or an expected count below
/// 5: Boschloo's exact test with Chan and Zhang's interval.
pub const TEST_EXACT: &str = "boschloo";
/// Table 3e's `test` of the other comparisons: the Miettinen-Nurminen score test and the
/// interval that inverts it.
pub const TEST_SCORE: &str = "score";
/// Table 3e's `test` of a comparison that cannot be tested (a cell without games, or too
/// many games for the exact computation where it is needed).
pub const TEST_NONE: &str = "none";

/// The comparison of table 3e that answers the study's question (population, measure);
/// the other three are secondary, with Holm-adjusted p-values.
pub const PRIMARY_COMPARISON: (&str, &str) = ("controlled", "decl_win_rate");
