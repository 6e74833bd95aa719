//! Table 9: a logistic regression of the declaration win, and of the move-limit end,
//! among the games of the ever-mutual cohort (table 7a's), on the rating difference, the
//! mean rating, the year, `'Max_Moves` and the time control, with standard errors
//! clustered by engine pair ([`crate::report::logit`]).

use std::collections::HashMap;

use polars::prelude::*;

use super::super::columns::*;
use super::super::config::ReportConfig;
use super::super::logit::{LogitError, LogitFit, fit_logit};
use super::super::stats::{Z95, ln_erfc};
use super::expr::*;
use super::frame::MUTUAL_PLY;

/// The covariates after the intercept, in the table's order.
pub const TERMS: [&str; 6] = [
    "rating_diff_100",
    "mean_rating_100",
    "year_2016",
    "max_moves_512",
    "log2_main_time_600",
    "fischer",
];

/// The main time (seconds) and whether the game is Fischer (`F`), from a game name
/// `floodgate-300-10F`; `None` when the name has no such fields.
pub fn time_control(name: &str) -> Option<(f64, bool)> {
    let mut fields = name.split('-');
    let main: f64 = fields.nth(1)?.parse().ok()?;
    let last = fields.next()?;
    (main > 0.0).then_some((main, last.ends_with('F')))
}

/// The model's data: one row per game with every covariate, the two outcomes and the
/// engine pair.
struct Design {
    x: Vec<Vec<f64>>,
    decl: Vec<bool>,
    limit: Vec<bool>,
    pair: Vec<usize>,
}

fn design(lf: LazyFrame) -> PolarsResult<Design> {
    let df = lf
        .filter(
            replayed()
                .and(col(MUTUAL_PLY).is_not_null())
                .and(col(BLACK_RATE).is_not_null())
                .and(col(WHITE_RATE).is_not_null())
                .and(col(YEAR).is_not_null())
                .and(
                    col(MAX_MOVES)
                        .eq(lit(256i64))
                        .or(col(MAX_MOVES).eq(lit(512i64))),
                )
                .fill_null(lit(false)),
        )
        .select([
            col(BLACK_RATE).cast(DataType::Float64),
            col(WHITE_RATE).cast(DataType::Float64),
            col(YEAR).cast(DataType::Float64),
            col(MAX_MOVES).cast(DataType::Int64),
            col(GAME_NAME).cast(DataType::String),
            col(BLACK).cast(DataType::String).fill_null(lit("")),
            col(WHITE).cast(DataType::String).fill_null(lit("")),
            declaration_win().alias("decl"),
            move_limit().alias("limit"),
        ])
        .collect()?;
    let f = |c: &str| -> PolarsResult<Float64Chunked> { Ok(df.column(c)?.f64()?.clone()) };
    let (br, wr, year) = (f(BLACK_RATE)?, f(WHITE_RATE)?, f(YEAR)?);
    let mm = df.column(MAX_MOVES)?.i64()?.clone();
    let s = |c: &str| -> PolarsResult<StringChunked> { Ok(df.column(c)?.str()?.clone()) };
    let (name, black, white) = (s(GAME_NAME)?, s(BLACK)?, s(WHITE)?);
    let b = |c: &str| -> PolarsResult<BooleanChunked> { Ok(df.column(c)?.bool()?.clone()) };
    let (decl, limit) = (b("decl")?, b("limit")?);
    let mut d = Design {
        x: Vec::new(),
        decl: Vec::new(),
        limit: Vec::new(),
        pair: Vec::new(),
    };
    let mut pairs: HashMap<(String, String), usize> = HashMap::new();
    for i in 0..df.height() {
        let (Some(br), Some(wr), Some(year), Some(mm)) =
            (br.get(i), wr.get(i), year.get(i), mm.get(i))
        else {
            continue;
        };
        let Some((main, fischer)) = name.get(i).and_then(time_control) else {
            continue;
        };
        d.x.push(vec![
            1.0,
            (br - wr).abs() / 100.0,
            ((br + wr) / 2.0 - 2000.0) / 100.0,
            year - 2016.0,
            f64::from(u8::from(mm == 512)),
            (main / 600.0).log2(),
            f64::from(u8::from(fischer)),
        ]);
        d.decl.push(decl.get(i) == Some(true));
        d.limit.push(limit.get(i) == Some(true));
        let (x, y) = (black.get(i).unwrap_or(""), white.get(i).unwrap_or(""));
        let key = if x <= y { (x, y) } else { (y, x) };
        let next = pairs.len();
        let id = *pairs
            .entry((key.0.to_string(), key.1.to_string()))
            .or_insert(next);
        d.pair.push(id);
    }
    Ok(d)
}

/// The design without the covariates constant in the data (their names returned): they
/// cannot be estimated, and are said in the table's note.
fn without_constant(x: &[Vec<f64>]) -> (Vec<Vec<f64>>, Vec<&'static str>, Vec<&'static str>) {
    let constant = |j: usize| x.iter().all(|r| r[j] == x[0][j]);
    let keep: Vec<usize> = (1..=TERMS.len())
        .filter(|&j| x.is_empty() || !constant(j))
        .collect();
    let dropped = (1..=TERMS.len())
        .filter(|j| !keep.contains(j))
        .map(|j| TERMS[j - 1])
        .collect();
    let mut names = vec!["intercept"];
    names.extend(keep.iter().map(|&j| TERMS[j - 1]));
    let rows = x
        .iter()
        .map(|r| {
            std::iter::once(r[0])
                .chain(keep.iter().map(|&j| r[j]))
                .collect()
        })
        .collect();
    (rows, names, dropped)
}

/// The table's rows under construction.
#[derive(Default)]
struct Rows {
    outcome: Vec<&'static str>,
    term: Vec<Option<&'static str>>,
    coef: Vec<Option<f64>>,
    se: Vec<Option<f64>>,
    z: Vec<Option<f64>>,
    p: Vec<Option<f64>>,
    odds: [Vec<Option<f64>>; 3],
    games: Vec<i64>,
    pairs: Vec<i64>,
    note: Vec<String>,
}

impl Rows {
    fn push_fit(
        &mut self,
        outcome: &'static str,
        names: &[&'static str],
        f: &LogitFit,
        note: &str,
    ) {
        for (j, name) in names.iter().enumerate() {
            let (b, se) = (f.coef[j], f.se[j]);
            let z = b / se;
            self.outcome.push(outcome);
            self.term.push(Some(name));
            self.coef.push(Some(b));
            self.se.push(Some(se));
            self.z.push(z.is_finite().then_some(z));
            self.p.push(
                z.is_finite()
                    .then(|| ln_erfc(z.abs() / std::f64::consts::SQRT_2).exp()),
            );
            for (v, x) in self.odds.iter_mut().zip([b, b - Z95 * se, b + Z95 * se]) {
                v.push(Some(x.exp()));
            }
            self.games.push(f.n as i64);
            self.pairs.push(f.clusters as i64);
            self.note.push(note.to_string());
        }
    }

    fn push_failure(&mut self, outcome: &'static str, games: usize, pairs: usize, e: &LogitError) {
        self.outcome.push(outcome);
        self.term.push(None);
        for v in [&mut self.coef, &mut self.se, &mut self.z, &mut self.p] {
            v.push(None);
        }
        for v in &mut self.odds {
            v.push(None);
        }
        self.games.push(games as i64);
        self.pairs.push(pairs as i64);
        self.note.push(format!("not fitted: {e}"));
    }

    fn frame(self) -> PolarsResult<DataFrame> {
        let [or, lo, hi] = self.odds;
        DataFrame::new_infer_height(vec![
            Column::new("outcome".into(), self.outcome),
            Column::new("term".into(), self.term),
            Column::new("coef".into(), self.coef),
            Column::new("se_clustered".into(), self.se),
            Column::new("z".into(), self.z),
            Column::new("test_p".into(), self.p),
            Column::new("odds_ratio".into(), or),
            Column::new("odds_ratio_lo".into(), lo),
            Column::new("odds_ratio_hi".into(), hi),
            Column::new("games".into(), self.games),
            Column::new("pairs".into(), self.pairs),
            Column::new("note".into(), self.note),
        ])
    }
}

pub(super) fn regression(lf: LazyFrame, _: &ReportConfig) -> PolarsResult<DataFrame> {
    let d = design(lf)?;
    let (x, names, dropped) = without_constant(&d.x);
    let note = if dropped.is_empty() {
        String::new()
    } else {
        format!("constant, left out: {}", dropped.join(", "))
    };
    let mut pairs = d.pair.clone();
    pairs.sort_unstable();
    pairs.dedup();
    let mut rows = Rows::default();
    for (outcome, y) in [("declaration_win", &d.decl), ("move_limit", &d.limit)] {
        let fitted = if x.is_empty() {
            Err(LogitError::TooFew {
                n: 0,
                k: names.len(),
            })
        } else {
            fit_logit(&x, y, &d.pair)
        };
        match fitted {
            Ok(f) => rows.push_fit(outcome, &names, &f, &note),
            Err(e) => rows.push_failure(outcome, y.len(), pairs.len(), &e),
        }
    }
    rows.frame()
}
