//! Statistics of entering-king positions: how many pieces stand on the board and in hand,
//! how many legal moves there are and how few of them capture, and how far each side is
//! from the declaration thresholds. Used for table 6 (the positions where both kings had
//! first entered, from the games table) and by `floodgate-scan positions` (a file of
//! SFENs).
//!
//! The point shortfall of a side is `max(0, threshold - declaration points)`: 28 for Black
//! and 27 for White under the 27-point rule, 31 for both under the 24-point rule. A
//! 20-slot input encoding of the shortfall (such as dlshogi's entering-king feature planes)
//! cannot represent a shortfall of 20 or more.

pub use crate::shogi::positions_file::BadLine;
use crate::shogi::positions_file::read_positions_file;
use polars::prelude::*;

use crate::shogi::{
    Color, DeclarationOutcome, EnteringKingRule, Move, Position, Square, evaluate_declaration,
};

/// One position's counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct PositionCounts {
    /// Pieces on the board, kings included.
    pub board_pieces: u32,
    /// Pieces in both hands.
    pub hand_pieces: u32,
    /// Legal moves of the side to move (the complete set, every optional non-promotion
    /// included).
    pub legal_moves: u32,
    /// Legal moves that capture.
    pub captures: u32,
    /// Legal moves that drop a piece from hand.
    pub drops: u32,
    /// Per side (index 0 Black, 1 White): own non-king pieces in the enemy camp.
    pub zone: [i32; 2],
    /// Per side: declaration points (own non-king pieces in the enemy camp plus hand;
    /// rook, bishop, dragon and horse 5, others 1).
    pub declaration_points: [i32; 2],
    /// Per side: owned points (every own non-king piece on the board and in hand, counted
    /// as for declaration points).
    pub owned_points: [i32; 2],
    /// Per side: a declaration by that side would win under the 27-point rule
    /// ([`EnteringKingRule::CSARule27`]) and under the 24-point rule
    /// ([`EnteringKingRule::CSARule24`]): every condition of [`evaluate_declaration`]
    /// (king in the enemy camp, not in check, 10 pieces there, the points, and for the
    /// 24-point rule the SFEN move number at most 500), judged as if that side were to move.
    #[serde(skip)]
    pub declares_win: [[bool; 2]; 2],
}

/// Whether `c` would win by declaring now under `rule`: the position as it is when `c` is
/// to move, else the same board with `c` to move (the side not to move is never in check
/// in a legal position, so nothing else changes).
pub fn declares_win(pos: &Position, c: Color, rule: EnteringKingRule) -> bool {
    let judged = if pos.side_to_move() == c {
        evaluate_declaration(pos, rule)
    } else {
        let mut setup = pos.to_setup();
        setup.side_to_move = c;
        match Position::from_setup(setup) {
            Ok(p) => evaluate_declaration(&p, rule),
            Err(_) => return false,
        }
    };
    judged.outcome == DeclarationOutcome::Win
}

/// Count one position.
pub fn counts(pos: &Position) -> PositionCounts {
    let board_pieces = Square::ALL
        .iter()
        .filter(|&&sq| pos.piece_at(sq).is_some())
        .count() as u32;
    let hand_pieces = pos.hand(Color::Black).total() + pos.hand(Color::White).total();
    let moves = pos.legal_moves();
    let mut captures = 0;
    let mut drops = 0;
    for m in moves.iter() {
        match *m {
            Move::Drop { .. } => drops += 1,
            Move::Normal { to, .. } => {
                if pos.piece_at(to).is_some() {
                    captures += 1;
                }
            }
        }
    }
    let per_side = |f: &dyn Fn(Color) -> i32| [f(Color::Black), f(Color::White)];
    PositionCounts {
        board_pieces,
        hand_pieces,
        legal_moves: moves.len() as u32,
        captures,
        drops,
        zone: per_side(&|c| pos.zone_count(c)),
        declaration_points: per_side(&|c| pos.declaration_points(c)),
        owned_points: per_side(&|c| pos.owned_points(c)),
        declares_win: [Color::Black, Color::White].map(|c| {
            [EnteringKingRule::CSARule27, EnteringKingRule::CSARule24]
                .map(|rule| declares_win(pos, c, rule))
        }),
    }
}

/// Points a side needs to declare a win: (27-point rule, 24-point rule), from
/// [`EnteringKingRule::base_threshold`].
pub fn thresholds(c: Color) -> (i32, i32) {
    let t = |rule: EnteringKingRule| rule.base_threshold(c).unwrap_or(0);
    (
        t(EnteringKingRule::CSARule27),
        t(EnteringKingRule::CSARule24),
    )
}

/// The per-position table (one row per position) and per-side table (two rows per
/// position: `is_black`, `zone`, `decl`, `owned`, `shortfall27`, `shortfall24`,
/// `declares27`, `declares24`).
pub fn frames(all: &[PositionCounts]) -> PolarsResult<(DataFrame, DataFrame)> {
    let col_u32 = |name: &'static str, f: &dyn Fn(&PositionCounts) -> u32| {
        Column::new(
            name.into(),
            all.iter().map(|c| i64::from(f(c))).collect::<Vec<i64>>(),
        )
    };
    let positions = DataFrame::new(
        all.len(),
        vec![
            col_u32("board_pieces", &|c| c.board_pieces),
            col_u32("hand_pieces", &|c| c.hand_pieces),
            col_u32("legal_moves", &|c| c.legal_moves),
            col_u32("captures", &|c| c.captures),
            col_u32("drops", &|c| c.drops),
        ],
    )?;
    let mut is_black = Vec::new();
    let mut zone = Vec::new();
    let mut decl = Vec::new();
    let mut owned = Vec::new();
    let mut s27 = Vec::new();
    let mut s24 = Vec::new();
    let (mut d27, mut d24) = (Vec::new(), Vec::new());
    for c in all {
        for (i, color) in [Color::Black, Color::White].into_iter().enumerate() {
            let (t27, t24) = thresholds(color);
            is_black.push(i == 0);
            zone.push(i64::from(c.zone[i]));
            decl.push(i64::from(c.declaration_points[i]));
            owned.push(i64::from(c.owned_points[i]));
            s27.push(i64::from((t27 - c.declaration_points[i]).max(0)));
            s24.push(i64::from((t24 - c.declaration_points[i]).max(0)));
            d27.push(c.declares_win[i][0]);
            d24.push(c.declares_win[i][1]);
        }
    }
    let sides = DataFrame::new(
        is_black.len(),
        vec![
            Column::new("is_black".into(), is_black),
            Column::new("zone".into(), zone),
            Column::new("decl".into(), decl),
            Column::new("owned".into(), owned),
            Column::new("shortfall27".into(), s27),
            Column::new("shortfall24".into(), s24),
            Column::new("declares27".into(), d27),
            Column::new("declares24".into(), d24),
        ],
    )?;
    Ok((positions, sides))
}

/// Median and range of each count: columns `metric`, `positions`, `median`, `min`,
/// `max`, `mean`, and `legal_share` (the metric's total over all legal moves, for
/// captures and drops).
pub fn summary(positions: &DataFrame) -> PolarsResult<DataFrame> {
    let metrics = [
        "board_pieces",
        "hand_pieces",
        "legal_moves",
        "captures",
        "drops",
    ];
    let mut out: Option<DataFrame> = None;
    for m in metrics {
        let share = if m == "captures" || m == "drops" {
            when(col("legal_moves").sum().gt(lit(0i64)))
                .then(
                    col(m).sum().cast(DataType::Float64)
                        / col("legal_moves").sum().cast(DataType::Float64),
                )
                .otherwise(lit(NULL).cast(DataType::Float64))
        } else {
            lit(NULL).cast(DataType::Float64)
        };
        let df = positions
            .clone()
            .lazy()
            .select([
                lit(m).alias("metric"),
                len().cast(DataType::Int64).alias("positions"),
                col(m).median().alias("median"),
                col(m).min().alias("min"),
                col(m).max().alias("max"),
                col(m).mean().alias("mean"),
                share.alias("legal_share"),
            ])
            .collect()?;
        out = Some(match out {
            None => df,
            Some(acc) => acc.vstack(&df)?,
        });
    }
    Ok(out.unwrap_or_default())
}

/// Per rule, over sides: columns `rule`, `sides`, `zone10_share` (>= 10 pieces in the
/// enemy camp), `points_share` (declaration points at or above the rule's threshold),
/// `declarable_share` (every condition of the rule, see
/// [`PositionCounts::declares_win`]), `shortfall_median`, `shortfall20_share`.
pub fn sides_summary(sides: &DataFrame) -> PolarsResult<DataFrame> {
    let mut out: Option<DataFrame> = None;
    for (rule, s, d) in [
        ("27-point", "shortfall27", "declares27"),
        ("24-point", "shortfall24", "declares24"),
    ] {
        let share = |cond: Expr| {
            when(len().gt(lit(0)))
                .then(cond.cast(DataType::Float64).sum() / len().cast(DataType::Float64))
                .otherwise(lit(NULL).cast(DataType::Float64))
        };
        let zone10 = col("zone").gt_eq(lit(10i64));
        let points = col(s).eq(lit(0i64));
        let df = sides
            .clone()
            .lazy()
            .select([
                lit(rule).alias("rule"),
                len().cast(DataType::Int64).alias("sides"),
                share(zone10.clone()).alias("zone10_share"),
                share(points.clone()).alias("points_share"),
                share(col(d)).alias("declarable_share"),
                col(s).median().alias("shortfall_median"),
                share(col(s).gt_eq(lit(20i64))).alias("shortfall20_share"),
            ])
            .collect()?;
        out = Some(match out {
            None => df,
            Some(acc) => acc.vstack(&df)?,
        });
    }
    Ok(out.unwrap_or_default())
}

/// Number of sides at each shortfall value: columns `shortfall`, `sides_27_point`,
/// `sides_24_point` (every value from 0 to the largest seen).
pub fn shortfall_distribution(sides: &DataFrame) -> PolarsResult<DataFrame> {
    let s27 = sides.column("shortfall27")?.i64()?.clone();
    let s24 = sides.column("shortfall24")?.i64()?.clone();
    let max = s27.max().unwrap_or(0).max(s24.max().unwrap_or(0)).max(0) as usize;
    let mut c27 = vec![0i64; max + 1];
    let mut c24 = vec![0i64; max + 1];
    for v in (0..s27.len()).filter_map(|i| s27.get(i)) {
        c27[v.max(0) as usize] += 1;
    }
    for v in (0..s24.len()).filter_map(|i| s24.get(i)) {
        c24[v.max(0) as usize] += 1;
    }
    DataFrame::new(
        max + 1,
        vec![
            Column::new("shortfall".into(), (0..=max as i64).collect::<Vec<i64>>()),
            Column::new("sides_27_point".into(), c27),
            Column::new("sides_24_point".into(), c24),
        ],
    )
}

/// Read a positions file ([`crate::shogi::positions_file`]): the counts of every readable
/// position and the lines that could not be read.
pub fn read_positions(text: &str) -> (Vec<PositionCounts>, Vec<BadLine>) {
    let (lines, bad) = read_positions_file(text);
    (lines.iter().map(|l| counts(&l.position)).collect(), bad)
}

/// The three tables of a set of positions: [`summary`], [`sides_summary`] and
/// [`shortfall_distribution`].
pub fn tables(all: &[PositionCounts]) -> PolarsResult<[DataFrame; 3]> {
    let (p, s) = frames(all)?;
    Ok([
        summary(&p)?,
        sides_summary(&s)?,
        shortfall_distribution(&s)?,
    ])
}

/// A table as a JSON array of objects (column name -> value).
pub fn frame_json(df: &DataFrame) -> serde_json::Value {
    let cols = df.columns();
    let rows = (0..df.height())
        .map(|i| {
            let mut obj = serde_json::Map::new();
            for c in cols {
                let v = match c.get(i).unwrap_or(AnyValue::Null) {
                    AnyValue::Null => serde_json::Value::Null,
                    AnyValue::Boolean(b) => b.into(),
                    AnyValue::String(s) => s.into(),
                    AnyValue::Int64(x) => x.into(),
                    AnyValue::Int32(x) => x.into(),
                    AnyValue::UInt32(x) => x.into(),
                    AnyValue::Float64(x) => serde_json::Number::from_f64(x)
                        .map_or(serde_json::Value::Null, serde_json::Value::Number),
                    other => other.to_string().into(),
                };
                obj.insert(c.name().to_string(), v);
            }
            serde_json::Value::Object(obj)
        })
        .collect();
    serde_json::Value::Array(rows)
}
