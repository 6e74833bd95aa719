//! Hand-checkable report tables on small synthetic games tables: every expected number
//! below can be recomputed by hand from the rows built in the test.
#![cfg(feature = "report")]

use floodgate_scan::game::row::GameRow;
use floodgate_scan::report::columns::frame_from_rows;
use floodgate_scan::report::{RatingPool, Report, ReportConfig, build};
use polars::prelude::*;

/// A replayed game with a summary, both sides at 27 owned points.
fn game(year: Option<i64>, entering: &str, reason: Option<&str>) -> GameRow {
    GameRow {
        source: "synthetic".into(),
        entry: "g.csa".into(),
        game_id: "g".into(),
        year,
        plies: 100,
        summary_reason: reason.map(Into::into),
        winner: "black".into(),
        status: "ok".into(),
        final_board: "match".into(),
        owned_black: 27,
        owned_white: 27,
        entering: entering.to_string().into(),
        judge_agrees: Some(true),
        final_sfen: Some("4k4/9/9/9/9/9/9/9/4K4 b - 1".into()),
        ..GameRow::default()
    }
}

fn rated(mut g: GameRow, black: Option<f64>, white: Option<f64>) -> GameRow {
    g.black_rate = black;
    g.white_rate = white;
    g
}

fn report(rows: &[GameRow], config: &ReportConfig) -> Report {
    let df = frame_from_rows(rows).unwrap();
    build(&df, config).unwrap()
}

/// The row of `table` whose first (key) column is `key`.
fn row(r: &Report, table: &str, key: &str) -> DataFrame {
    let df = r.table(table).unwrap_or_else(|| panic!("no table {table}"));
    let key_col = df.get_column_names()[0].clone();
    let mask = df.column(&key_col).unwrap().str().unwrap().equal(key);
    let out = df.filter(&mask).unwrap();
    assert_eq!(out.height(), 1, "{table}: one row for {key}: {df}");
    out
}

fn int(df: &DataFrame, c: &str) -> Option<i64> {
    df.column(c)
        .unwrap()
        .cast(&DataType::Int64)
        .unwrap()
        .i64()
        .unwrap()
        .get(0)
}

fn float(df: &DataFrame, c: &str) -> Option<f64> {
    df.column(c).unwrap().f64().unwrap().get(0)
}

fn boolean(df: &DataFrame, c: &str) -> Option<bool> {
    df.column(c).unwrap().bool().unwrap().get(0)
}

fn strings(df: &DataFrame, c: &str) -> Vec<String> {
    let ca = df.column(c).unwrap().str().unwrap();
    (0..ca.len())
        .map(|i| ca.get(i).unwrap_or("").to_string())
        .collect()
}

fn close(a: Option<f64>, b: f64) -> bool {
    a.is_some_and(|a| (a - b).abs() < 1e-9)
}

#[test]
fn years_counts_classes_boards_points_and_judge() {
    let mut bad = game(None, "none", None);
    bad.status = "bad_position".into();
    bad.final_board = "missing".into();
    bad.final_sfen = None;
    bad.owned_black = 0;
    bad.owned_white = 0;
    bad.judge_agrees = None;
    let mut odd = game(Some(2020), "none", Some("toryo"));
    odd.owned_black = 26;
    odd.illegal_ply = Some(5);
    odd.status = "illegal_move".into();
    odd.final_board = "mismatch".into();
    odd.judge_agrees = Some(false);
    let mut rep = game(Some(2020), "none", Some("sennichite"));
    rep.final_board = "prelast".into();
    let rows = vec![
        game(Some(2019), "mutual", Some("kachi")),
        game(Some(2019), "black_only", Some("toryo")),
        game(Some(2019), "none", Some("toryo")),
        odd,
        rep,
        bad,
    ];
    let r = report(&rows, &ReportConfig::default());
    let y = row(&r, "years", "2019");
    assert_eq!(int(&y, "games"), Some(3));
    assert_eq!(int(&y, "mutual"), Some(1));
    assert_eq!(int(&y, "one_sided"), Some(1));
    assert_eq!(int(&y, "no_entering"), Some(1));
    assert!(close(float(&y, "mutual_share"), 1.0 / 3.0));
    assert!(close(float(&y, "board_match_rate"), 1.0));
    assert_eq!(int(&y, "points_violations"), Some(0));
    let y = row(&r, "years", "2020");
    assert_eq!(int(&y, "games"), Some(2));
    assert_eq!(int(&y, "illegal_move"), Some(1));
    assert_eq!(int(&y, "not_replayed"), Some(0), "illegal_move is replayed");
    assert_eq!(int(&y, "board_compared"), Some(2));
    assert!(
        close(float(&y, "board_match_rate"), 0.5),
        "prelast agrees, mismatch not"
    );
    assert_eq!(int(&y, "points_checked"), Some(2));
    assert_eq!(int(&y, "points_violations"), Some(1));
    assert_eq!(int(&y, "judged"), Some(2));
    assert_eq!(int(&y, "judge_disagreements"), Some(1));
    let u = row(&r, "years", "unknown");
    assert_eq!(int(&u, "games"), Some(1));
    assert_eq!(int(&u, "not_replayed"), Some(1));
    assert_eq!(
        int(&u, "points_checked"),
        Some(0),
        "no final position, no 54 check"
    );
    assert_eq!(float(&u, "board_match_rate"), None, "no trailer compared");
    let all = row(&r, "years", "all");
    assert_eq!(int(&all, "games"), Some(6));
    assert_eq!(int(&all, "judge_disagreements"), Some(1));
    // Years sorted, unknown then all last.
    let keys = strings(r.table("years").unwrap(), "year");
    assert_eq!(keys, ["2019", "2020", "unknown", "all"]);
}

#[test]
fn endings_use_the_summary_and_the_recorded_max_moves() {
    let with_mm = |reason: Option<&str>, mm: Option<i64>| {
        let mut g = game(Some(2020), "mutual", reason);
        g.max_moves = mm;
        g
    };
    let rows = vec![
        with_mm(Some("kachi"), Some(256)),
        with_mm(Some("illegal kachi"), Some(256)),
        with_mm(Some("max_moves"), Some(256)),
        with_mm(Some("max_moves_draw"), None),
        with_mm(Some("toryo"), Some(512)),
        with_mm(Some("sennichite"), Some(512)),
        with_mm(Some("oute_sennichite"), Some(512)),
        with_mm(Some("time up"), Some(512)),
        with_mm(None, Some(512)),
        // Not mutual: only in the one-sided tables.
        game(Some(2020), "white_only", Some("kachi")),
        game(Some(2020), "none", Some("kachi")),
    ];
    let r = report(&rows, &ReportConfig::default());
    let y = row(&r, "endings_mutual_by_year", "2020");
    assert_eq!(int(&y, "games"), Some(9));
    assert_eq!(int(&y, "valid_decl"), Some(1));
    assert_eq!(int(&y, "invalid_decl"), Some(1));
    assert_eq!(int(&y, "move_limit"), Some(2));
    assert_eq!(int(&y, "resignation"), Some(1));
    assert_eq!(int(&y, "repetition"), Some(2));
    assert_eq!(int(&y, "other"), Some(2), "time up and no summary");
    assert!(close(float(&y, "move_limit_share"), 2.0 / 9.0));
    let m = row(&r, "endings_mutual_by_max_moves", "256");
    assert_eq!(int(&m, "games"), Some(3));
    assert_eq!(int(&m, "move_limit"), Some(1));
    // The record without a Max_Moves line is unknown, not guessed from its year.
    let m = row(&r, "endings_mutual_by_max_moves", "unknown");
    assert_eq!(int(&m, "games"), Some(1));
    assert_eq!(int(&m, "move_limit"), Some(1));
    let m = row(&r, "endings_mutual_by_max_moves", "512");
    assert_eq!(int(&m, "games"), Some(5));
    let o = row(&r, "endings_one_sided_by_year", "2020");
    assert_eq!(int(&o, "games"), Some(1));
    assert_eq!(int(&o, "valid_decl"), Some(1));
}

/// Pool of 2021: ratings 2000, 2000 (mutual, kachi), 3000 and a missing one (mutual,
/// move limit), 1000, 2000 (not entering), and a game without ratings.
fn pool_rows() -> Vec<GameRow> {
    let mut ml = game(Some(2021), "mutual", Some("max_moves"));
    ml.owned_black = 20;
    ml.owned_white = 34;
    vec![
        rated(
            game(Some(2021), "mutual", Some("kachi")),
            Some(2000.0),
            Some(2000.0),
        ),
        rated(ml, Some(3000.0), None),
        rated(
            game(Some(2021), "none", Some("toryo")),
            Some(1000.0),
            Some(2000.0),
        ),
        rated(game(Some(2021), "none", Some("toryo")), None, None),
    ]
}

#[test]
fn year_pool_threshold_interpolates_and_ties_are_in() {
    // Pool [1000, 2000, 2000, 2000, 3000]: 75th percentile at index 3 = 2000.
    let r = report(&pool_rows(), &ReportConfig::default());
    let y = row(&r, "strength_by_year", "2021");
    assert_eq!(
        int(&y, "pool_ratings"),
        Some(5),
        "missing ratings are not in the pool"
    );
    assert!(close(float(&y, "threshold"), 2000.0));
    assert_eq!(
        int(&y, "games"),
        Some(1),
        "2000/2000 ties the threshold and counts"
    );
    assert!(close(float(&y, "decl_win_rate"), 1.0));
    assert!(close(float(&y, "move_limit_rate"), 0.0));
    assert_eq!(boolean(&y, "few_games"), Some(true));
    assert_eq!(int(&y, "raw_games"), Some(2));
    assert!(close(float(&y, "raw_decl_win_rate"), 0.5));
    assert!(close(float(&y, "raw_move_limit_rate"), 0.5));
    assert!(
        close(float(&y, "raw_low_side_share"), 1.0),
        "20 owned points <= 23"
    );
    // 90th percentile: index 3.6 -> 2000 + 0.6 * 1000.
    let cfg = ReportConfig {
        percentile: 90.0,
        ..ReportConfig::default()
    };
    let r = report(&pool_rows(), &cfg);
    let y = row(&r, "strength_by_year", "2021");
    assert!(close(float(&y, "threshold"), 2600.0));
    assert_eq!(int(&y, "games"), Some(0));
    assert_eq!(
        float(&y, "decl_win_rate"),
        None,
        "no controlled game, no rate"
    );
}

#[test]
fn entering_pool_uses_only_mutual_games() {
    // Pool [2000, 2000, 3000]: index 1.5 -> 2500; the 2000/2000 game drops out.
    let cfg = ReportConfig {
        pool: RatingPool::Entering,
        ..ReportConfig::default()
    };
    let r = report(&pool_rows(), &cfg);
    let y = row(&r, "strength_by_year", "2021");
    assert_eq!(int(&y, "pool_ratings"), Some(3));
    assert!(close(float(&y, "threshold"), 2500.0));
    assert_eq!(int(&y, "games"), Some(0));
    assert_eq!(
        int(&y, "raw_games"),
        Some(2),
        "raw rates do not depend on the pool"
    );
}

#[test]
fn a_year_with_one_game_and_eras_without_data() {
    let rows = vec![rated(
        game(Some(2015), "mutual", Some("kachi")),
        Some(1500.0),
        Some(1600.0),
    )];
    let r = report(
        &rows,
        &ReportConfig {
            min_games: 1,
            ..ReportConfig::default()
        },
    );
    let y = row(&r, "strength_by_year", "2015");
    // Pool [1500, 1600]: 1500 + 0.75 * 100.
    assert!(close(float(&y, "threshold"), 1575.0));
    assert_eq!(
        int(&y, "games"),
        Some(0),
        "Black's 1500 is below the threshold"
    );
    assert_eq!(boolean(&y, "few_games"), Some(true));
    assert!(close(float(&y, "raw_decl_win_rate"), 1.0));
    let era = r.table("strength_by_era").unwrap();
    let keys = strings(era, "era");
    assert_eq!(
        keys,
        [
            "2008-2013",
            "2014-2017",
            "2018-2020",
            "2021-2023",
            "2024-2026",
            "all"
        ]
    );
    let e = row(&r, "strength_by_era", "2014-2017");
    assert_eq!(int(&e, "raw_games"), Some(1));
    let e = row(&r, "strength_by_era", "2021-2023");
    assert_eq!(int(&e, "games"), Some(0));
    assert_eq!(int(&e, "raw_games"), Some(0));
    assert_eq!(float(&e, "raw_decl_win_rate"), None);
    assert_eq!(boolean(&e, "few_games"), Some(true));
    // Both ratings at the top: controlled, and one game is enough with --min-games 1.
    let rows = vec![rated(
        game(Some(2015), "mutual", Some("kachi")),
        Some(1600.0),
        Some(1600.0),
    )];
    let r = report(
        &rows,
        &ReportConfig {
            min_games: 1,
            ..ReportConfig::default()
        },
    );
    let y = row(&r, "strength_by_year", "2015");
    assert_eq!(int(&y, "games"), Some(1));
    assert_eq!(boolean(&y, "few_games"), Some(false));
    let m = row(&r, "strength_by_max_moves", "unknown");
    assert_eq!(int(&m, "games"), Some(1));
}

/// Three mutual games cut by the move limit, plus games that must not count.
fn cut_rows() -> Vec<GameRow> {
    let cut = |mm: i64, plies: i64, b: (i64, i64, i64), w: (i64, i64, i64), check: bool| {
        let mut g = game(Some(2022), "mutual", Some("max_moves"));
        g.max_moves = Some(mm);
        g.plies = plies;
        (g.owned_black, g.decl_black, g.zone_black) = b;
        (g.owned_white, g.decl_white, g.zone_white) = w;
        g.king_in_camp_black = true;
        g.king_in_camp_white = true;
        g.in_check_final = check;
        g
    };
    let mut not_mutual = cut(256, 256, (40, 40, 12), (14, 5, 2), false);
    not_mutual.entering = "black_only".into();
    let mut declared = cut(256, 200, (40, 40, 12), (14, 5, 2), false);
    declared.summary_reason = Some("kachi".into());
    vec![
        // A: Black owns 35, 32 in the camp and hand, 11 pieces there: can declare.
        cut(256, 256, (35, 32, 11), (19, 10, 3), false),
        // B: Black owns 31 but only 25 declaration points (6 stranded); White 23.
        cut(256, 256, (31, 25, 12), (23, 8, 2), false),
        // C: Black to move (even plies) and in check; past move 500.
        cut(512, 512, (40, 35, 10), (14, 6, 1), true),
        not_mutual,
        declared,
    ]
}

#[test]
fn funnel_per_side() {
    let r = report(&cut_rows(), &ReportConfig::default());
    let a = row(&r, "funnel", "all");
    assert_eq!(int(&a, "games"), Some(3));
    assert_eq!(int(&a, "sides"), Some(6));
    assert_eq!(int(&a, "owned31"), Some(3));
    assert!(close(float(&a, "owned31_share"), 0.5));
    assert_eq!(int(&a, "decl31"), Some(2));
    assert!(close(float(&a, "decl31_pass"), 2.0 / 3.0));
    assert_eq!(int(&a, "declarable"), Some(1), "C is in check");
    assert!(close(float(&a, "declarable_pass"), 0.5));
    assert_eq!(int(&a, "zone10"), Some(3));
    assert!(close(float(&a, "stranded_median"), 6.0));
    let m = row(&r, "funnel", "512");
    assert_eq!(int(&m, "games"), Some(1));
    assert_eq!(int(&m, "declarable"), Some(0));
    assert_eq!(float(&m, "stranded_median"), None);
}

#[test]
fn counterfactual_rules() {
    let r = report(&cut_rows(), &ReportConfig::default());
    let df = r.table("counterfactual").unwrap().clone();
    let get = |rule: &str| {
        let mask = df.column("rule").unwrap().str().unwrap().equal(rule)
            & df.column("max_moves").unwrap().str().unwrap().equal("all");
        df.filter(&mask).unwrap()
    };
    let t = get("27-point");
    assert_eq!(int(&t, "games"), Some(3));
    assert_eq!(
        int(&t, "black_win"),
        Some(1),
        "A only: B has 25 < 28, C in check"
    );
    assert_eq!(int(&t, "unchanged"), Some(2));
    let t = get("24-point");
    assert_eq!(int(&t, "black_win"), Some(1), "A: 32 >= 31 at move 257");
    assert_eq!(int(&t, "draw"), Some(1), "B: 25 points declare a draw");
    assert_eq!(
        int(&t, "unchanged"),
        Some(1),
        "C: in check and past move 500"
    );
    let t = get("impasse");
    assert_eq!(int(&t, "black_win"), Some(2), "A 35/19 and B 31/23");
    assert_eq!(int(&t, "white_win"), Some(0));
    assert_eq!(int(&t, "unchanged"), Some(1), "C: side to move in check");
    assert!(close(float(&t, "decisive_share"), 2.0 / 3.0));
}

#[test]
fn empty_table_gives_empty_groups_and_zero_totals() {
    let r = report(&[], &ReportConfig::default());
    let a = row(&r, "years", "all");
    assert_eq!(int(&a, "games"), Some(0));
    assert_eq!(float(&a, "mutual_share"), None);
    let a = row(&r, "funnel", "all");
    assert_eq!(int(&a, "sides"), Some(0));
    assert_eq!(r.plots.len(), 3);
}

#[test]
fn bad_percentile_is_an_error() {
    let df = frame_from_rows(&[]).unwrap();
    let cfg = ReportConfig {
        percentile: 120.0,
        ..ReportConfig::default()
    };
    assert!(build(&df, &cfg).is_err());
}

#[test]
fn markdown_has_every_table_with_its_caption() {
    let r = report(&cut_rows(), &ReportConfig::default());
    let md = floodgate_scan::report::markdown::render(&r);
    for t in &r.tables {
        assert!(md.contains(&format!("## Table {}. {}", t.spec.number, t.spec.title)));
        assert!(md.contains(&t.spec.caption_for(&r.config)));
    }
    assert!(md.contains("75th percentile"));
    assert!(md.contains("| 50.0% |"), "shares as percentages: {md}");
    assert!(md.contains("![") && md.contains("funnel.svg"));
}
