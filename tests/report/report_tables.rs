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
    // Three of the five ratings equal the threshold: with the ties counted as strong, four
    // of five (80%, not 25%) are at or above it.
    assert_eq!(int(&y, "pool_ties"), Some(3));
    assert_eq!(int(&y, "pool_at_or_above"), Some(4));
    assert!(close(float(&y, "pool_at_or_above_share"), 0.8));
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
    assert_eq!(int(&y, "pool_ties"), Some(0));
    assert_eq!(int(&y, "pool_at_or_above"), Some(1), "3000 only");
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
    // The scan's verdicts of the rules in each final position (27-point, 24-point,
    // impasse), as the core decides them (tested in `game::verdicts`).
    let judged = |mut g: GameRow, v: [&'static str; 3]| {
        g.rule27_final = v[0].into();
        g.rule24_final = v[1].into();
        g.impasse24_final = v[2].into();
        g
    };
    vec![
        // A: Black owns 35, 32 in the camp and hand, 11 pieces there: can declare.
        judged(
            cut(256, 256, (35, 32, 11), (19, 10, 3), false),
            ["black", "black", "black"],
        ),
        // B: Black owns 31 but only 25 declaration points (6 stranded); White 23.
        judged(
            cut(256, 256, (31, 25, 12), (23, 8, 2), false),
            ["none", "draw", "black"],
        ),
        // C: Black to move (even plies) and in check; past move 500.
        judged(
            cut(512, 512, (40, 35, 10), (14, 6, 1), true),
            ["none", "none", "none"],
        ),
        judged(not_mutual, ["black", "black", "black"]),
        judged(declared, ["black", "black", "black"]),
    ]
}

#[test]
fn funnel_per_game() {
    let mut rows = cut_rows();
    // D: a 27-27 game (neither side leads): it passes no stage.
    let mut tie = game(Some(2022), "mutual", Some("max_moves"));
    tie.max_moves = Some(256);
    tie.zone_black = 10;
    rows.push(tie);
    let r = report(&rows, &ReportConfig::default());
    let a = row(&r, "funnel", "all");
    assert_eq!(int(&a, "games"), Some(4));
    // Leading sides: A's Black 35, B's Black 31, C's Black 40; D none (27-27).
    assert_eq!(int(&a, "owned_over27"), Some(3));
    assert!(close(float(&a, "owned_over27_share"), 0.75));
    assert_eq!(int(&a, "owned31"), Some(3));
    assert!(close(float(&a, "owned31_share"), 0.75));
    assert_eq!(int(&a, "decl31"), Some(2), "A 32 and C 35; B 25");
    assert!(close(float(&a, "decl31_pass"), 2.0 / 3.0));
    // The study's third stage: 31 declaration points and 10 pieces in the zone.
    assert_eq!(int(&a, "decl31_zone10"), Some(2), "A 11 and C 10 pieces");
    assert!(close(float(&a, "decl31_zone10_share"), 0.5));
    assert!(close(float(&a, "decl31_zone10_pass"), 1.0));
    assert_eq!(int(&a, "declarable_board"), Some(1), "C is in check");
    assert!(close(float(&a, "declarable_board_pass"), 0.5));
    assert_eq!(int(&a, "declarable"), Some(1), "A at move 257");
    assert!(close(float(&a, "declarable_pass"), 1.0));
    // A game with a side >= 10 in the zone: A, B, C, and D's Black (10).
    assert_eq!(int(&a, "zone10"), Some(4));
    assert!(close(float(&a, "stranded_median"), 6.0));
    // Wilson over games: 3 of 4.
    let half = Z2.sqrt() / (1.0 + Z2 / 4.0) * (0.75 * 0.25 / 4.0 + Z2 / 64.0).sqrt();
    let centre = (0.75 + Z2 / 8.0) / (1.0 + Z2 / 4.0);
    assert!(close(float(&a, "owned31_share_lo"), centre - half));
    let m = row(&r, "funnel", "512");
    assert_eq!(int(&m, "games"), Some(1));
    assert_eq!(int(&m, "declarable"), Some(0));
    assert_eq!(float(&m, "stranded_median"), None);
    // Table 3a's low side (a side owning 23 or fewer) is the other side of owned31:
    // the same games (A's White 19, B's White 23, C's White 14).
    let y = row(&r, "strength_by_year", "2022");
    assert_eq!(int(&y, "raw_low_side"), Some(3));
    assert!(close(float(&y, "raw_low_side_share"), 0.75));
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
    assert_eq!(int(&a, "games"), Some(0));
    assert_eq!(r.plots.len(), 6);
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
    assert!(
        md.contains("| 50.0% ["),
        "shares as percentages with their interval: {md}"
    );
    assert!(md.contains("![") && md.contains("funnel.svg"));
    assert!(md.contains("Files: `funnel.svg`, `funnel.pdf`."), "{md}");
}

/// z^2 for the 95% interval, and the Wilson bounds written out by hand:
/// k = 0: [0, z^2 / (n + z^2)]; k = n: [n / (n + z^2), 1].
const Z2: f64 = 1.959_963_984_540_054 * 1.959_963_984_540_054;

#[test]
fn the_500_move_clause_on_a_512_era_cut_game() {
    // Black to move (even plies), not in check, king in camp, 12 pieces there, 35
    // declaration points: every board condition of a 24-point declaration win holds.
    let cut = |mm: i64, plies: i64| {
        let mut g = game(Some(2025), "mutual", Some("max_moves"));
        g.max_moves = Some(mm);
        g.plies = plies;
        (g.owned_black, g.decl_black, g.zone_black) = (40, 35, 12);
        (g.owned_white, g.decl_white, g.zone_white) = (14, 6, 1);
        g.king_in_camp_black = true;
        g.king_in_camp_white = true;
        g
    };
    // Cut at the 512 limit: move 513. At 499 plies: move 500, the last allowed. At 500: 501.
    let rows = vec![cut(512, 512), cut(256, 256), cut(512, 500)];
    let r = report(&rows, &ReportConfig::default());
    let m = row(&r, "funnel", "512");
    assert_eq!(int(&m, "games"), Some(2));
    assert_eq!(int(&m, "declarable_board"), Some(2));
    assert_eq!(int(&m, "declarable"), Some(0), "moves 513 and 501 > 500");
    assert!(close(float(&m, "declarable_pass"), 0.0));
    // 0 of 2: [0, z^2 / (2 + z^2)].
    assert!(close(float(&m, "declarable_pass_lo"), 0.0));
    assert!(close(float(&m, "declarable_pass_hi"), Z2 / (2.0 + Z2)));
    let m = row(&r, "funnel", "256");
    assert_eq!(int(&m, "declarable"), Some(1), "move 257");
    // 1 of 1: [1 / (1 + z^2), 1].
    assert!(close(float(&m, "declarable_pass_lo"), 1.0 / (1.0 + Z2)));
    assert!(close(float(&m, "declarable_pass_hi"), 1.0));
    // The 24-point re-scoring (table 5) reads the core's verdict, which applies the same
    // clause (`game::verdicts`).
    // The boundary: 499 plies, move 500, may still declare.
    let r = report(&[cut(512, 499)], &ReportConfig::default());
    assert_eq!(int(&row(&r, "funnel", "512"), "declarable"), Some(1));
}

#[test]
fn wilson_columns_with_zero_all_and_some_counts() {
    // 2020: four mutual games, all cut by the move limit; 2021: one of two declared.
    let mut rows: Vec<GameRow> = (0..4)
        .map(|_| game(Some(2020), "mutual", Some("max_moves")))
        .collect();
    rows.push(game(Some(2021), "mutual", Some("kachi")));
    rows.push(game(Some(2021), "mutual", Some("toryo")));
    let r = report(&rows, &ReportConfig::default());
    let y = row(&r, "endings_mutual_by_year", "2020");
    // 0 of 4: [0, z^2 / (4 + z^2)] (a normal interval would be [0, 0]).
    assert!(close(float(&y, "valid_decl_share"), 0.0));
    assert!(close(float(&y, "valid_decl_share_lo"), 0.0));
    assert!(close(float(&y, "valid_decl_share_hi"), Z2 / (4.0 + Z2)));
    // 4 of 4: [4 / (4 + z^2), 1].
    assert!(close(float(&y, "move_limit_share_lo"), 4.0 / (4.0 + Z2)));
    assert!(close(float(&y, "move_limit_share_hi"), 1.0));
    // 1 of 2: centre 0.5, half-width z / (1 + z^2/2) * sqrt(1/8 + z^2/16).
    let half = Z2.sqrt() / (1.0 + Z2 / 2.0) * (0.125 + Z2 / 16.0).sqrt();
    let y = row(&r, "strength_by_year", "2021");
    assert!(close(float(&y, "raw_decl_win_rate_lo"), 0.5 - half));
    assert!(close(float(&y, "raw_decl_win_rate_hi"), 0.5 + half));
    assert!(
        (float(&y, "raw_decl_win_rate_lo").unwrap() - 0.094531).abs() < 1e-5,
        "0.5 - 0.405469"
    );
    // No controlled game (no ratings): no rate and no interval.
    assert_eq!(float(&y, "decl_win_rate_lo"), None);
    let e = row(&r, "strength_by_era", "2008-2013");
    assert_eq!(float(&e, "raw_decl_win_rate_hi"), None, "zero games");
    // Counterfactual: 0 decisive of 4 cut games (no side meets any rule).
    let df = r.table("counterfactual").unwrap().clone();
    let mask = df.column("rule").unwrap().str().unwrap().equal("27-point")
        & df.column("max_moves").unwrap().str().unwrap().equal("all");
    let t = df.filter(&mask).unwrap();
    assert_eq!(int(&t, "decisive"), Some(0));
    assert!(close(float(&t, "decisive_share_hi"), Z2 / (4.0 + Z2)));
    // Every rate of tables 2-5 has both bounds.
    for t in &r.tables {
        if !["2", "3", "4", "5"]
            .iter()
            .any(|n| t.spec.number.starts_with(n))
        {
            continue;
        }
        let names: Vec<String> = t
            .data
            .get_column_names()
            .iter()
            .map(|c| c.to_string())
            .collect();
        for c in &names {
            if c.ends_with("_share") || c.ends_with("_rate") || c.ends_with("_pass") {
                assert!(
                    names.contains(&format!("{c}_lo")) && names.contains(&format!("{c}_hi")),
                    "{}: {c} without its interval",
                    t.spec.name
                );
            }
        }
    }
}

/// Cell A (2022, Max_Moves 256): 3 declaration wins and 7 move-limit endings, plus an
/// unrated declaration win; cell B (2025, Max_Moves 512): 10 declaration wins. Games in
/// the other Max_Moves of each period count in neither cell.
fn comparison_rows() -> Vec<GameRow> {
    let g = |year: i64, mm: i64, reason: &str, rating: Option<f64>| {
        let mut g = rated(game(Some(year), "mutual", Some(reason)), rating, rating);
        g.max_moves = Some(mm);
        g
    };
    let mut rows = Vec::new();
    rows.extend((0..3).map(|_| g(2022, 256, "kachi", Some(2000.0))));
    rows.extend((0..7).map(|_| g(2022, 256, "max_moves", Some(2000.0))));
    rows.push(g(2022, 256, "kachi", None));
    rows.extend((0..10).map(|_| g(2025, 512, "kachi", Some(2000.0))));
    rows.push(g(2022, 512, "max_moves", Some(2000.0)));
    rows.push(g(2025, 256, "max_moves", Some(2000.0)));
    rows
}

#[test]
fn era_comparison_score_test_interval_and_holm() {
    let r = report(&comparison_rows(), &ReportConfig::default());
    let df = r.table("era_comparison").unwrap();
    let pick = |measure: &str, population: &str| {
        let mask = df.column("measure").unwrap().str().unwrap().equal(measure)
            & df.column("population")
                .unwrap()
                .str()
                .unwrap()
                .equal(population);
        let out = df.filter(&mask).unwrap();
        assert_eq!(out.height(), 1);
        out
    };
    // Every rating is 2000: the threshold is 2000 and every rated game is controlled.
    let d = pick("decl_win_rate", "controlled");
    assert_eq!(
        (int(&d, "a_count"), int(&d, "a_games")),
        (Some(3), Some(10))
    );
    assert_eq!(
        (int(&d, "b_count"), int(&d, "b_games")),
        (Some(10), Some(10))
    );
    assert!(close(float(&d, "a_rate"), 0.3));
    assert!((float(&d, "a_rate_lo").unwrap() - 0.107791).abs() < 1e-5);
    assert!((float(&d, "a_rate_hi").unwrap() - 0.603222).abs() < 1e-5);
    assert!(close(float(&d, "b_rate_lo"), 10.0 / (10.0 + Z2)));
    assert!(close(float(&d, "b_rate_hi"), 1.0));
    assert!(close(float(&d, "rate_diff"), -0.7));
    // 3/10 against 10/10: an expected count of 3.5 (13 wins and 7 others over 20 games,
    // 10 a cell), below 5, so the exact pair: Boschloo's p from scipy's boschloo_exact,
    // Chan and Zhang's interval from the brute-force computation of
    // scripts/exact-reference.py.
    let near = |got: Option<f64>, want: f64| (got.unwrap() - want).abs() < 1e-6;
    assert!(close(float(&d, "expected_min"), 3.5));
    assert_eq!(strings(&d, "test"), ["boschloo"]);
    assert!(near(float(&d, "rate_diff_lo"), -0.933_260_488_822_266_4));
    assert!(near(float(&d, "rate_diff_hi"), -0.311_374_120_422_122_76));
    assert!(near(float(&d, "test_p"), 0.000_872_809_837_397_771_5));
    assert_eq!(float(&d, "score_z"), None, "no asymptotic statistic");
    assert_eq!(strings(&d, "role"), ["primary"]);
    assert_eq!(
        float(&d, "holm_p"),
        None,
        "the primary comparison is not adjusted"
    );
    assert_eq!(int(&d, "holm_family"), None);
    assert_eq!(boolean(&d, "few_games"), Some(false));
    let m = pick("move_limit_rate", "controlled");
    assert_eq!((int(&m, "a_count"), int(&m, "b_count")), (Some(7), Some(0)));
    assert!(close(float(&m, "rate_diff"), 0.7));
    // 7/10 against 0/10 is 3/10 against 10/10 with wins and others swapped.
    assert!(near(float(&m, "rate_diff_lo"), 0.311_374_120_422_122_76));
    assert!(near(float(&m, "rate_diff_hi"), 0.933_260_488_822_266_4));
    // Holm over the family of three secondary p-values 0.00087281, 0.0018927 (raw: 4/11
    // against 10/10, scipy), 0.0018927: 3 x the smallest, then 2 x the next (kept for the
    // largest, which is not larger).
    assert_eq!(strings(&m, "role"), ["secondary"]);
    assert_eq!(int(&m, "holm_family"), Some(3));
    assert!(near(float(&m, "holm_p"), 3.0 * 0.000_872_809_837_397_771_5));
    for measure in ["decl_win_rate", "move_limit_rate"] {
        let raw = pick(measure, "raw");
        assert_eq!(strings(&raw, "test"), ["boschloo"]);
        assert!(near(float(&raw, "test_p"), 0.001_892_669_820_098_665_7));
        assert!(near(
            float(&raw, "holm_p"),
            2.0 * 0.001_892_669_820_098_665_7
        ));
    }
    // Raw: the unrated game counts, 4 of 11.
    let raw = pick("decl_win_rate", "raw");
    assert_eq!(
        (int(&raw, "a_count"), int(&raw, "a_games")),
        (Some(4), Some(11))
    );
    // The headline of report.md states the controlled rows.
    let md = floodgate_scan::report::markdown::render(&r);
    assert!(md.contains("## Headline"), "{md}");
    assert!(
        md.contains("Max_Moves 256, 2021-2023 3/10 = 30.0% (95% CI 10.8%–60.3%;"),
        "{md}"
    );
    assert!(
        md.contains("difference -70.0 percentage points (95% exact Chan-Zhang CI -93.3 to -31.1), Boschloo's exact test p = 8.73e-4"),
        "{md}"
    );
    assert!(md.contains("Holm-adjusted p = 0.00262"), "{md}");
    assert!(md.contains("has 3 members"), "{md}");
    assert!(!md.contains("score test p"), "{md}");
    assert!(md.contains("- Primary — declaration-win rate"), "{md}");
    // The period x Max_Moves table reads the same cells directly.
    let t = r.table("strength_by_era_max_moves").unwrap();
    let mask = t.column("era").unwrap().str().unwrap().equal("2021-2023")
        & t.column("max_moves").unwrap().str().unwrap().equal("256");
    let c = t.filter(&mask).unwrap();
    assert_eq!(
        (int(&c, "decl_wins"), int(&c, "games")),
        (Some(3), Some(10))
    );
    assert_eq!(
        (int(&c, "raw_decl_wins"), int(&c, "raw_games")),
        (Some(4), Some(11))
    );
    assert!((float(&c, "decl_win_rate_lo").unwrap() - 0.107791).abs() < 1e-5);
    let keys: Vec<(String, String)> = strings(t, "era")
        .into_iter()
        .zip(strings(t, "max_moves"))
        .collect();
    assert_eq!(
        keys,
        [
            ("2021-2023".to_string(), "256".to_string()),
            ("2021-2023".to_string(), "512".to_string()),
            ("2024-2026".to_string(), "256".to_string()),
            ("2024-2026".to_string(), "512".to_string()),
        ]
    );
}

#[test]
fn comparison_without_games_has_counts_and_no_rates() {
    let r = report(&[], &ReportConfig::default());
    let df = r.table("era_comparison").unwrap();
    assert_eq!(df.height(), 4);
    assert_eq!(int(df, "a_games"), Some(0));
    assert_eq!(float(df, "a_rate"), None);
    assert_eq!(float(df, "test_p"), None);
    assert_eq!(strings(df, "test")[0], "none");
    assert_eq!(boolean(df, "few_games"), Some(true));
    // The headline says there is no game rather than printing 0/0.
    let md = floodgate_scan::report::markdown::render(&r);
    assert!(md.contains("no controlled game"), "{md}");
    assert!(!md.contains("0/0"), "{md}");
}

#[test]
fn few_games_are_flagged_in_the_comparison_and_the_headline() {
    // One controlled game in cell A, four in B (the bundled fixtures' shape).
    let g = |year: i64, mm: i64, reason: &str| {
        let mut g = rated(
            game(Some(year), "mutual", Some(reason)),
            Some(2000.0),
            Some(2000.0),
        );
        g.max_moves = Some(mm);
        g
    };
    let mut rows = vec![g(2022, 256, "max_moves")];
    rows.extend((0..4).map(|_| g(2025, 512, "toryo")));
    let r = report(&rows, &ReportConfig::default());
    let df = r.table("era_comparison").unwrap();
    assert!(df.column("few_games").unwrap().bool().unwrap().all());
    let md = floodgate_scan::report::markdown::render(&r);
    assert!(
        md.contains("**Few games** (a cell has fewer than 10)"),
        "{md}"
    );
    // 1/1 against 0/4: the score test would give p = 0.0455 and an interval [+2.0, +100.0]
    // excluding 0; the exact pair gives Boschloo's p = 0.16384 (4^4 / 5^5 twice, scipy
    // agrees) and Chan and Zhang's interval from (0.025 / 0.08192)^(1/5) - 1 = -21.1 pp.
    assert!(
        md.contains("(95% exact Chan-Zhang CI -21.1 to +100.0), Boschloo's exact test p = 0.164"),
        "{md}"
    );
    assert!(!md.contains("score test p"), "{md}");
    assert!(!md.contains("0.0455"), "{md}");
    let m = df
        .filter(
            &df.column("measure")
                .unwrap()
                .str()
                .unwrap()
                .equal("move_limit_rate"),
        )
        .unwrap();
    let ps: Vec<Option<f64>> = m.column("test_p").unwrap().f64().unwrap().iter().collect();
    assert!((ps[0].unwrap() - 0.16384).abs() < 1e-9, "{ps:?}");
}

#[test]
fn an_untestable_comparison_stays_in_the_holm_family() {
    // Cell A (2022, Max_Moves 256): 8 rated games, 6 declaration wins; cell B (2025,
    // Max_Moves 512): 10 unrated games, 2 declaration wins. No controlled game in B: the
    // two controlled comparisons cannot be tested; the two raw ones are (6/8 against 2/10,
    // exact: scipy's Boschloo p = 0.0286258). Holm over the family of 3 fixed in advance
    // (not over the 2 that could be tested): 3 x 0.0286258 for both.
    let g = |year: i64, mm: i64, reason: &str, rating: Option<f64>| {
        let mut g = rated(game(Some(year), "mutual", Some(reason)), rating, rating);
        g.max_moves = Some(mm);
        g
    };
    let mut rows = Vec::new();
    rows.extend((0..6).map(|_| g(2022, 256, "kachi", Some(2000.0))));
    rows.extend((0..2).map(|_| g(2022, 256, "max_moves", Some(2000.0))));
    rows.extend((0..2).map(|_| g(2025, 512, "kachi", None)));
    rows.extend((0..8).map(|_| g(2025, 512, "max_moves", None)));
    let r = report(&rows, &ReportConfig::default());
    let df = r.table("era_comparison").unwrap();
    assert_eq!(
        strings(df, "test"),
        ["none", "none", "boschloo", "boschloo"]
    );
    let family: Vec<Option<i64>> = df
        .column("holm_family")
        .unwrap()
        .i64()
        .unwrap()
        .iter()
        .collect();
    assert_eq!(family, [None, Some(3), Some(3), Some(3)]);
    let holm: Vec<Option<f64>> = df.column("holm_p").unwrap().f64().unwrap().iter().collect();
    assert_eq!(holm[1], None, "untested, not adjusted");
    for h in &holm[2..] {
        assert!(
            (h.unwrap() - 3.0 * 0.028_625_847_142_929_414).abs() < 1e-6,
            "{holm:?}"
        );
    }
    let md = floodgate_scan::report::markdown::render(&r);
    assert!(md.contains("has 3 members"), "{md}");
}

#[test]
fn large_cells_keep_the_score_test() {
    // 12/20 against 4/20: expected counts 8 and 12 a cell, 20 games each: the score test,
    // as stats::score_test computes it (checked there against mpmath).
    let g = |year: i64, mm: i64, reason: &str| {
        let mut g = rated(
            game(Some(year), "mutual", Some(reason)),
            Some(2000.0),
            Some(2000.0),
        );
        g.max_moves = Some(mm);
        g
    };
    let mut rows = Vec::new();
    rows.extend((0..12).map(|_| g(2022, 256, "kachi")));
    rows.extend((0..8).map(|_| g(2022, 256, "toryo")));
    rows.extend((0..4).map(|_| g(2025, 512, "kachi")));
    rows.extend((0..16).map(|_| g(2025, 512, "toryo")));
    let r = report(&rows, &ReportConfig::default());
    let df = r.table("era_comparison").unwrap();
    let t = floodgate_scan::report::stats::score_test(12, 20, 4, 20).unwrap();
    assert_eq!(strings(df, "test")[0], "score");
    assert!(close(float(df, "expected_min"), 8.0));
    assert!(close(float(df, "score_z"), t.z));
    assert!(close(float(df, "test_p"), t.ln_p.exp()));
    assert!(close(float(df, "rate_diff_lo"), t.lo));
    let md = floodgate_scan::report::markdown::render(&r);
    assert!(md.contains("score test p = "), "{md}");
}

/// Three rated players in 2021: A (1000, 1200, 1100 in three games: mean 1100), B (2000,
/// 2200: mean 2100), C (3000), and a rating without a player name.
fn player_rows() -> Vec<GameRow> {
    let g = |b: Option<&str>, br: f64, w: &str, wr: f64, name: &str| {
        let mut g = rated(
            game(Some(2021), "mutual", Some("kachi")),
            Some(br),
            Some(wr),
        );
        g.black = b.map(Into::into);
        g.white = Some(w.into());
        g.game_name = Some(name.into());
        g
    };
    vec![
        g(Some("A"), 1000.0, "B", 2000.0, "floodgate-300-10F"),
        g(Some("A"), 1200.0, "C", 3000.0, "floodgate-300-10F"),
        g(Some("A"), 1100.0, "B", 2200.0, "floodgate-600-10F"),
        g(None, 5000.0, "C", 3000.0, "wdoor-test-300"),
    ]
}

#[test]
fn players_pool_counts_each_player_once_at_their_mean() {
    let cfg = ReportConfig {
        pool: floodgate_scan::report::RatingPool::Players,
        ..ReportConfig::default()
    };
    let r = report(&player_rows(), &cfg);
    let y = row(&r, "strength_by_year", "2021");
    // Pool [1100, 2100, 3000] (C's two 3000s are one player; the unnamed 5000 is left
    // out): index 1.5 -> 2100 + 0.5 * 900.
    assert_eq!(int(&y, "pool_ratings"), Some(3));
    assert!(close(float(&y, "threshold"), 2550.0));
    assert_eq!(
        int(&y, "games"),
        Some(1),
        "only 5000 vs 3000 is at or above"
    );
    // The `year` pool counts every rating of every game: 8 ratings, index 5.25 of
    // [1000, 1100, 1200, 2000, 2200, 3000, 3000, 5000] -> 3000.
    let r = report(&player_rows(), &ReportConfig::default());
    let y = row(&r, "strength_by_year", "2021");
    assert_eq!(int(&y, "pool_ratings"), Some(8));
    assert!(close(float(&y, "threshold"), 3000.0));
    let md = floodgate_scan::report::markdown::render(&report(&player_rows(), &cfg));
    assert!(
        md.contains("the `players` pool (every rated player"),
        "caption names the pool"
    );
}

#[test]
fn game_name_filters_every_table_and_the_pool() {
    let cfg = ReportConfig {
        game_name: Some("^floodgate-300-".into()),
        ..ReportConfig::default()
    };
    let mut rows = player_rows();
    let mut unnamed = game(Some(2021), "none", Some("toryo"));
    unnamed.game_name = None;
    rows.push(unnamed);
    let r = report(&rows, &cfg);
    assert_eq!(int(&row(&r, "years", "all"), "games"), Some(2));
    assert_eq!(
        int(&row(&r, "endings_mutual_by_year", "2021"), "games"),
        Some(2)
    );
    let y = row(&r, "strength_by_year", "2021");
    // Pool of the two matching games: [1000, 1200, 2000, 3000] -> index 2.25 -> 2250.
    assert_eq!(int(&y, "pool_ratings"), Some(4));
    assert!(close(float(&y, "threshold"), 2250.0));
    let md = floodgate_scan::report::markdown::render(&r);
    assert!(
        md.contains("matches the regular expression `^floodgate-300-`"),
        "{md}"
    );
    for t in &r.tables {
        assert!(t.spec.caption_for(&r.config).contains("`^floodgate-300-`"));
    }
    // Without a filter every game counts; a bad expression is a configuration error.
    let r = report(&rows, &ReportConfig::default());
    assert_eq!(int(&row(&r, "years", "all"), "games"), Some(5));
    let bad = ReportConfig {
        game_name: Some("(".into()),
        ..ReportConfig::default()
    };
    assert!(build(&frame_from_rows(&rows).unwrap(), &bad).is_err());
}

#[test]
fn entering_board_match_rate_counts_entering_king_games_only() {
    let mut mismatch = game(Some(2020), "none", Some("toryo"));
    mismatch.final_board = "mismatch".into();
    let mut prelast = game(Some(2020), "black_only", Some("sennichite"));
    prelast.final_board = "prelast".into();
    let mut entering_mismatch = game(Some(2020), "mutual", Some("toryo"));
    entering_mismatch.final_board = "mismatch".into();
    let rows = vec![
        game(Some(2020), "mutual", Some("kachi")),
        prelast,
        entering_mismatch,
        mismatch,
        game(Some(2020), "none", Some("toryo")),
    ];
    let r = report(&rows, &ReportConfig::default());
    let y = row(&r, "years", "2020");
    assert_eq!(int(&y, "board_compared"), Some(5));
    assert!(close(float(&y, "board_match_rate"), 3.0 / 5.0));
    assert_eq!(int(&y, "entering_board_compared"), Some(3));
    assert!(close(float(&y, "entering_board_match_rate"), 2.0 / 3.0));
}

/// The `y` of the `<text>` element whose content is `label`, in an SVG from plotters.
fn text_y(svg: &str, label: &str) -> Option<f64> {
    let at = svg.find(&format!(">\n{label}\n</text>"))?;
    let start = svg[..at].rfind("<text ")?;
    let tag = &svg[start..at];
    let y = tag.split(" y=\"").nth(1)?.split('"').next()?;
    y.parse().ok()
}

#[test]
fn plots_have_round_ticks_error_bars_and_legends_below_the_data() {
    let r = report(&cut_rows(), &ReportConfig::default());
    let funnel = &r.plots.iter().find(|p| p.file == "funnel.svg").unwrap().svg;
    // Ticks every 20%, no odd steps.
    for tick in ["0%", "20%", "40%", "60%", "80%", "100%"] {
        assert!(text_y(funnel, tick).is_some(), "tick {tick}");
    }
    // The legend is below the x axis and its labels ("Max_Moves 256"), never on the bars.
    let axis = text_y(funnel, "Max_Moves 256 (n = 2)").unwrap();
    assert!(text_y(funnel, "Max_Moves 512 (n = 1)").is_some());
    assert!(
        text_y(funnel, "all").is_none(),
        "the regimes are not pooled"
    );
    let legend = text_y(funnel, "owned ≥ 31").unwrap();
    assert!(legend > axis, "legend at {legend}, axis labels at {axis}");
    assert!(text_y(funnel, "and every condition").unwrap() > axis);
    // Bar values are not written on the bars.
    assert!(text_y(funnel, "50.0%").is_none());
    // Error bars: a vertical black line between the interval's bounds for every share
    // with a denominator (8 here: 4 stages x 2 Max_Moves rows, the pooled row not drawn).
    let bars = funnel
        .split("<line ")
        .skip(1)
        .filter(|l| {
            let attr = |name: &str| -> f64 {
                l.split(&format!(" {name}=\""))
                    .nth(1)
                    .and_then(|v| v.split('"').next())
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(f64::NAN)
            };
            l.contains("stroke=\"#000000\"")
                && l.contains("opacity=\"1\"")
                && attr("x1") == attr("x2")
                && (attr("y2") - attr("y1")).abs() > 15.0
        })
        .count();
    assert_eq!(bars, 8, "error bars drawn");
    let rate = &r
        .plots
        .iter()
        .find(|p| p.file == "decl_rate_by_year.svg")
        .unwrap()
        .svg;
    assert!(text_y(rate, "strength-controlled").is_some());
    assert!(
        text_y(rate, "2022").is_some(),
        "the one year is a round tick"
    );
}

/// 1,610 declaration wins of 2,500 games (2022, Max_Moves 256) against 183 of 2,500 (2025,
/// Max_Moves 512), every player rated 2000 (so every game is controlled).
fn archive_scale_rows() -> Vec<GameRow> {
    let g = |year: i64, mm: i64, reason: &str| {
        let mut g = rated(
            game(Some(year), "mutual", Some(reason)),
            Some(2000.0),
            Some(2000.0),
        );
        g.max_moves = Some(mm);
        g
    };
    let mut rows = Vec::new();
    rows.extend((0..1610).map(|_| g(2022, 256, "kachi")));
    rows.extend((0..890).map(|_| g(2022, 256, "toryo")));
    rows.extend((0..183).map(|_| g(2025, 512, "kachi")));
    rows.extend((0..2317).map(|_| g(2025, 512, "toryo")));
    rows
}

#[test]
fn p_values_below_the_smallest_double_are_kept_and_printed() {
    let r = report(&archive_scale_rows(), &ReportConfig::default());
    let df = r.table("era_comparison").unwrap();
    let d = df.head(Some(1));
    assert_eq!(strings(&d, "measure"), ["decl_win_rate"]);
    assert_eq!(
        (int(&d, "a_count"), int(&d, "a_games")),
        (Some(1610), Some(2500))
    );
    let md = floodgate_scan::report::markdown::render(&r);
    // The score test: log10 p = -386.14248551326411 (mpmath).
    let l = float(&d, "test_p_log10").unwrap();
    assert!((l - -386.142_485_513_264_1).abs() < 1e-8, "{l}");
    assert_eq!(float(&d, "test_p"), Some(0.0));
    assert!(md.contains("p = 7.20e-387"), "{md}");
    assert!(!md.contains("p = 0."), "no p printed as 0");
}

#[test]
fn captions_ordinals_and_percentage_points() {
    let cfg = ReportConfig {
        percentile: 1.0,
        ..ReportConfig::default()
    };
    let r = report(&comparison_rows(), &cfg);
    let md = floodgate_scan::report::markdown::render(&r);
    assert!(md.contains("1st percentile"), "{md}");
    assert!(!md.contains("1th"), "{md}");
    for (p, want) in [
        (2.0, "2nd"),
        (3.0, "3rd"),
        (11.0, "11th"),
        (22.0, "22nd"),
        (75.0, "75th"),
    ] {
        assert_eq!(floodgate_scan::report::tables::ordinal(p), want);
    }
    // Table 3e's caption names the pool in one well-formed phrase.
    let spec = r
        .tables
        .iter()
        .find(|t| t.spec.name == "era_comparison")
        .unwrap()
        .spec;
    let caption = spec.caption_for(&r.config);
    assert!(
        caption.contains(
            "(both ratings at or above the 1st percentile of the `year` pool (both pre-game ratings"
        ),
        "{caption}"
    );
    assert!(!caption.contains("pool)"), "{caption}");
    // Differences are percentage points, not percentages.
    assert!(md.contains("| -70.0 pp ["), "{md}");
    assert!(!md.contains("| -70.0% |"), "{md}");
    // The headline with the entering pool reads as sentences, never `0/0 = –`.
    let cfg = ReportConfig {
        pool: RatingPool::Entering,
        ..ReportConfig::default()
    };
    let md = floodgate_scan::report::markdown::render(&report(&pool_rows(), &cfg));
    assert!(!md.contains("0/0"), "{md}");
    assert!(!md.contains("(–––)"), "{md}");
    assert!(md.contains("This is the reference study's pool."), "{md}");
    assert!(md.contains("a restriction, not an adjustment"), "{md}");
}

#[test]
fn a_game_not_replayed_to_its_end_is_counted_apart() {
    // A truncated record whose last position reached had both kings in camp.
    let mut cut_short = game(Some(2019), "mutual", Some("max_moves"));
    cut_short.status = "truncated".into();
    let rows = vec![
        game(Some(2019), "mutual", Some("kachi")),
        game(Some(2019), "none", Some("toryo")),
        cut_short,
    ];
    let r = report(&rows, &ReportConfig::default());
    let y = row(&r, "years", "2019");
    assert_eq!(int(&y, "games"), Some(3));
    assert_eq!(int(&y, "not_replayed"), Some(1));
    assert_eq!(
        int(&y, "mutual"),
        Some(1),
        "the truncated game is not mutual"
    );
    assert_eq!(int(&y, "no_entering"), Some(1));
    let classes: i64 = ["not_replayed", "mutual", "one_sided", "no_entering"]
        .iter()
        .map(|c| int(&y, c).unwrap())
        .sum();
    assert_eq!(classes, 3, "the four classes add up to the games");
    assert_eq!(
        int(&row(&r, "endings_mutual_by_year", "2019"), "games"),
        Some(1)
    );
    assert_eq!(int(&row(&r, "funnel", "all"), "games"), Some(0));
    // Board matches: the numerator is shown and the rate has its interval.
    assert_eq!(int(&y, "board_matched"), Some(3));
    assert!(close(float(&y, "board_match_rate_hi"), 1.0));
    assert!(close(float(&y, "board_match_rate_lo"), 3.0 / (3.0 + Z2)));
}

#[test]
fn match_rates_print_with_two_decimals_and_never_round_to_100() {
    // 399 matches of 400 (99.75%) and one mismatch.
    let mut rows: Vec<GameRow> = (0..399)
        .map(|_| game(Some(2019), "none", Some("toryo")))
        .collect();
    let mut bad = game(Some(2019), "none", Some("toryo"));
    bad.final_board = "mismatch".into();
    rows.push(bad);
    let r = report(&rows, &ReportConfig::default());
    let md = floodgate_scan::report::markdown::render(&r);
    assert!(md.contains("| 99.75% ["), "{md}");
    // 1,999 of 2,000 is 99.95%: printed with two decimals, not 100.00%.
    assert_eq!(
        floodgate_scan::report::format::cell(
            "board_match_rate",
            &polars::prelude::AnyValue::Float64(1999.0 / 2000.0)
        ),
        "99.95%"
    );
    assert_eq!(
        floodgate_scan::report::format::cell(
            "board_match_rate",
            &polars::prelude::AnyValue::Float64(39_999.0 / 40_000.0)
        ),
        ">99.99%"
    );
}

/// Both kings in camp; Black, to move, has 13 pieces in the enemy camp (9 pawns, 2 golds,
/// 2 silvers) and two rooks and two bishops in hand: 13 + 20 = 33 declaration points.
/// White has 9 pieces in its zone and nothing in hand.
const DECLARABLE_SFEN: &str = "4K4/PPPPPPPPP/GG5SS/9/9/9/ppppppppp/9/4k4 b 2R2B";

fn position_game(move_number: u32) -> GameRow {
    let mut g = game(Some(2025), "mutual", Some("max_moves"));
    g.mutual_sfen = Some(format!("{DECLARABLE_SFEN} {move_number}"));
    g
}

#[test]
fn table_6b_applies_every_condition_of_the_rule() {
    let sides = |move_number: u32| {
        let r = report(&[position_game(move_number)], &ReportConfig::default());
        let df = r.table("mutual_position_sides").unwrap().clone();
        let get = |rule: &str, c: &str| {
            let mask = df.column("rule").unwrap().str().unwrap().equal(rule);
            float(&df.filter(&mask).unwrap(), c)
        };
        (
            get("24-point", "points_share"),
            get("24-point", "declarable_share"),
            get("27-point", "declarable_share"),
        )
    };
    // Move 100: Black (one side of two) may declare under either rule.
    let (points, d24, d27) = sides(100);
    assert!(close(points, 0.5) && close(d24, 0.5) && close(d27, 0.5));
    // Move 500 is the last move of the 24-point rule's clause.
    assert!(close(sides(500).1, 0.5));
    // A 512-era position at move 501 or later: the points are there but the 24-point rule
    // no longer allows a declaration; the 27-point rule has no move clause.
    let (points, d24, d27) = sides(501);
    assert!(close(points, 0.5), "the points alone still count");
    assert!(close(d24, 0.0), "move 501 > 500");
    assert!(close(d27, 0.5));
}

#[test]
fn plots_break_lines_at_gaps_mark_zero_bars_and_show_the_headline() {
    // Mutual games in 2019 and 2021 but none in 2020: no line joins 2019 to 2021.
    let rows = vec![
        game(Some(2019), "mutual", Some("kachi")),
        game(Some(2020), "none", Some("toryo")),
        game(Some(2021), "mutual", Some("toryo")),
        game(Some(2022), "mutual", Some("kachi")),
    ];
    let r = report(&rows, &ReportConfig::default());
    let svg = &r
        .plots
        .iter()
        .find(|p| p.file == "decl_rate_by_year.svg")
        .unwrap()
        .svg;
    // Raw rates 2019 100%, 2021 0%, 2022 100%: one polyline for 2021-2022 only (2019
    // alone is a point), so exactly one raw polyline of two points.
    // (The legend strip, below y = 300, has its own short line.)
    let data_lines: Vec<Vec<(f64, f64)>> = svg
        .split("<polyline ")
        .skip(1)
        .map(|l| l.split('>').next().unwrap_or(""))
        .filter(|l| l.to_ascii_uppercase().contains("#08306B"))
        .map(|l| {
            let pts = l
                .split(" points=\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap();
            pts.split_whitespace()
                .map(|p| {
                    let (x, y) = p.split_once(',').unwrap();
                    (x.parse().unwrap(), y.parse().unwrap())
                })
                .collect()
        })
        .filter(|pts: &Vec<(f64, f64)>| pts.iter().all(|&(_, y)| y < 300.0))
        .collect();
    assert_eq!(data_lines.len(), 1, "{svg}");
    assert_eq!(data_lines[0].len(), 2, "2021 and 2022 only");
    // The controlled series is drawn with triangles (a polygon), the raw one with circles.
    assert!(svg.contains("<circle"));
    let owned = &r
        .plots
        .iter()
        .find(|p| p.file == "owned_points.svg")
        .unwrap()
        .svg;
    assert!(owned.contains("owned points (the other side: 54 minus)"));
    let headline = &r
        .plots
        .iter()
        .find(|p| p.file == "era_comparison.svg")
        .unwrap()
        .svg;
    assert!(headline.contains("(n = 0)"), "n shown: {headline}");
    // Max_Moves change lines only where the limit really changed: unknown years skipped.
    let mut a = game(Some(2019), "none", Some("toryo"));
    a.max_moves = Some(256);
    let b = game(Some(2020), "none", Some("toryo"));
    let mut c = game(Some(2021), "none", Some("toryo"));
    c.max_moves = Some(256);
    let mut d = game(Some(2022), "none", Some("toryo"));
    d.max_moves = Some(512);
    let df = frame_from_rows(&[a, b, c, d]).unwrap();
    let changes = floodgate_scan::report::plots::max_moves_changes(&df).unwrap();
    assert_eq!(changes, vec![(2022, Some(256), Some(512))]);
}

/// `replay --games` reads a games CSV with [`is_cut_mutual`] and a Parquet table with the
/// report's [`cut_mutual_games`]: both select the same games, for every combination of
/// the words (and a few words of no vocabulary).
#[test]
fn the_cut_mutual_selection_is_the_same_in_rust_and_in_the_report() {
    use floodgate_scan::game::words::{Entering, ServerReason, Status, is_cut_mutual};
    use floodgate_scan::report::tables::cut_mutual_games;
    let statuses: Vec<&str> = Status::NAMES.iter().copied().chain(["", "OK"]).collect();
    let enterings: Vec<&str> = Entering::NAMES.iter().copied().chain(["both"]).collect();
    let reasons: Vec<Option<&str>> = ServerReason::NAMES
        .iter()
        .map(|&r| Some(r))
        .chain([None, Some(""), Some("max_moves ")])
        .collect();
    let mut rows = Vec::new();
    let mut want = Vec::new();
    for &s in &statuses {
        for &e in &enterings {
            for &r in &reasons {
                let id = format!("g{}", rows.len());
                if is_cut_mutual(s, e, r) {
                    want.push(id.clone());
                }
                rows.push(GameRow {
                    game_id: id,
                    status: s.to_string().into(),
                    entering: e.to_string().into(),
                    summary_reason: r.map(str::to_string),
                    ..GameRow::default()
                });
            }
        }
    }
    // Three replayed statuses, mutual, two move-limit reasons.
    assert_eq!(want.len(), 6);
    let df = cut_mutual_games(frame_from_rows(&rows).unwrap().lazy())
        .collect()
        .unwrap();
    assert_eq!(strings(&df, "game_id"), want);
}

#[test]
fn strong_is_the_strength_condition_alone() {
    // 2022: the year pool [1000, 1000, 2000, 2000, 3000 x 4] (both ratings of every game);
    // its 75th percentile is at position 0.75 x 7 = 5.25, 3000 (numpy's linear). A mutual
    // game at 3000
    // is controlled; a game without entering kings at 3000 is strong but not mutual; a
    // mutual game at 2000 is neither.
    let rows = vec![
        rated(
            game(Some(2022), "mutual", Some("kachi")),
            Some(3000.0),
            Some(3000.0),
        ),
        rated(
            game(Some(2022), "none", Some("toryo")),
            Some(3000.0),
            Some(3000.0),
        ),
        rated(
            game(Some(2022), "mutual", Some("kachi")),
            Some(2000.0),
            Some(2000.0),
        ),
        rated(
            game(Some(2022), "none", Some("toryo")),
            Some(1000.0),
            Some(1000.0),
        ),
    ];
    let cfg = ReportConfig {
        per_game: true,
        ..ReportConfig::default()
    };
    let r = report(&rows, &cfg);
    let pg = r.per_game.as_ref().unwrap();
    let flags =
        |c: &str| -> Vec<Option<bool>> { pg.column(c).unwrap().bool().unwrap().iter().collect() };
    assert_eq!(
        flags("strong"),
        [Some(true), Some(true), Some(false), Some(false)]
    );
    assert_eq!(
        flags("mutual"),
        [Some(true), Some(false), Some(true), Some(false)]
    );
    assert!(close(float(pg, "threshold"), 3000.0));
    // The controlled columns count the games that are both.
    let y = row(&r, "strength_by_year", "2022");
    assert_eq!(int(&y, "games"), Some(1));
    assert_eq!(int(&y, "raw_games"), Some(2));
}

/// The polylines of `svg` drawn in `color` above the legend strip (y < 300), as points.
fn data_polylines(svg: &str, color: &str) -> Vec<Vec<(f64, f64)>> {
    svg.split("<polyline ")
        .skip(1)
        .map(|l| l.split('>').next().unwrap_or(""))
        .filter(|l| l.to_ascii_uppercase().contains(color))
        .map(|l| {
            let pts = l
                .split(" points=\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap();
            pts.split_whitespace()
                .map(|p| {
                    let (x, y) = p.split_once(',').unwrap();
                    (x.parse().unwrap(), y.parse().unwrap())
                })
                .collect()
        })
        .filter(|pts: &Vec<(f64, f64)>| pts.iter().all(|&(_, y)| y < 300.0))
        .collect()
}

#[test]
fn figures_break_at_a_limit_change_label_it_show_every_n_and_have_no_title() {
    // Mutual games every year 2022-2025 (two a year, rated, so both series have a value),
    // the limit 256 until 2023 and 512 from 2024: each series is two runs of two years,
    // never a line from 2023 to 2024.
    let mut rows = Vec::new();
    for year in 2022..=2025 {
        for _ in 0..2 {
            let mut g = rated(
                game(Some(year), "mutual", Some("kachi")),
                Some(2000.0),
                Some(2000.0),
            );
            g.max_moves = Some(if year < 2024 { 256 } else { 512 });
            rows.push(g);
        }
    }
    let r = report(&rows, &ReportConfig::default());
    let svg = &r
        .plots
        .iter()
        .find(|p| p.file == "decl_rate_by_year.svg")
        .unwrap()
        .svg;
    for color in ["#08306B", "#E69F00"] {
        let lines = data_polylines(svg, color);
        assert_eq!(lines.len(), 2, "{color}: {svg}");
        assert!(lines.iter().all(|l| l.len() == 2), "{color}: {lines:?}");
    }
    // The change line is labelled with the old and the new value.
    assert!(svg.contains("Max_Moves 256→512"), "{svg}");
    // n at every point: 2 raw and 2 controlled games a year, eight labels "2".
    let twos = svg
        .split("<text ")
        .skip(1)
        .filter(|t| {
            t.split_once('>')
                .and_then(|(_, body)| body.split("</text>").next())
                .map(str::trim)
                == Some("2")
        })
        .count();
    assert_eq!(twos, 8, "{svg}");
    // No title inside a figure: the caption is the paper's.
    assert!(!svg.contains("Declaration-win rate, mutual games"));
    for p in &r.plots {
        assert!(
            !p.svg.contains("font-size=\"21") && !p.svg.contains("font-size=\"19"),
            "{}: a title",
            p.file
        );
    }
    // Series told apart in greyscale: their colours' luma differ by at least 50.
    let luma = |hex: &str| {
        let v = |i: usize| f64::from(u8::from_str_radix(&hex[i..i + 2], 16).unwrap());
        0.299 * v(1) + 0.587 * v(3) + 0.114 * v(5)
    };
    assert!(luma("#E69F00") - luma("#08306B") > 50.0);
    let owned = &r
        .plots
        .iter()
        .find(|p| p.file == "owned_points.svg")
        .unwrap()
        .svg;
    assert!(
        owned.contains("31 owned (a win needs 31 decl. points)"),
        "{owned}"
    );
}

#[test]
fn engine_pairs_widen_the_comparison_by_their_design_effect() {
    // Cell A (2022, 256): X-Y play 6 games, all declaration wins; Z-W 6, none. Rate 0.5;
    // pair residuals +3, -3: clustered variance 2 x 18 / 144 = 0.25 against the binomial
    // 0.25 / 12, a design effect of 12. Cell B (2025, 512): four pairs of 3 games, two
    // winning all and two none: variance 4/3 x 9 / 144 = 1/12, design effect 4. The
    // difference 0 has the clustered interval -/+ 1.96 sqrt(0.25 + 1/12).
    let g = |year: i64, mm: i64, b: &str, w: &str, reason: &str| {
        let mut g = rated(
            game(Some(year), "mutual", Some(reason)),
            Some(2000.0),
            Some(2000.0),
        );
        g.max_moves = Some(mm);
        g.black = Some(b.into());
        g.white = Some(w.into());
        g
    };
    let mut rows = Vec::new();
    for i in 0..6 {
        // The same pair with colours swapped is the same pair.
        let (b, w) = if i % 2 == 0 { ("X", "Y") } else { ("Y", "X") };
        rows.push(g(2022, 256, b, w, "kachi"));
        rows.push(g(2022, 256, "Z", "W", "toryo"));
    }
    for p in 0..4 {
        for _ in 0..3 {
            let (b, w) = (format!("b{p}"), format!("w{p}"));
            rows.push(g(
                2025,
                512,
                &b,
                &w,
                if p % 2 == 0 { "kachi" } else { "toryo" },
            ));
        }
    }
    let r = report(&rows, &ReportConfig::default());
    let df = r.table("era_comparison").unwrap();
    let d = df
        .filter(
            &(df.column("measure")
                .unwrap()
                .str()
                .unwrap()
                .equal("decl_win_rate")
                & df.column("population")
                    .unwrap()
                    .str()
                    .unwrap()
                    .equal("controlled")),
        )
        .unwrap();
    assert_eq!(
        (int(&d, "a_engines"), int(&d, "a_pairs")),
        (Some(4), Some(2))
    );
    assert_eq!(
        (int(&d, "b_engines"), int(&d, "b_pairs")),
        (Some(8), Some(4))
    );
    let near = |got: Option<f64>, want: f64| (got.unwrap() - want).abs() < 1e-12;
    assert!(near(float(&d, "a_design_effect"), 12.0));
    assert!(near(float(&d, "b_design_effect"), 4.0));
    assert_eq!(float(&d, "a_rate_cl_lo"), Some(0.0));
    assert_eq!(float(&d, "a_rate_cl_hi"), Some(1.0));
    // B: 0.5 -/+ 1.96 sqrt(1/12) = 0.5 -/+ 0.566, kept inside [0, 1].
    assert_eq!(float(&d, "b_rate_cl_lo"), Some(0.0));
    let se = (0.25f64 + 1.0 / 12.0).sqrt();
    assert!(near(
        float(&d, "rate_diff_cl_lo"),
        -floodgate_scan::report::stats::Z95 * se
    ));
    assert!(near(
        float(&d, "rate_diff_cl_hi"),
        floodgate_scan::report::stats::Z95 * se
    ));
    let md = floodgate_scan::report::markdown::render(&r);
    assert!(
        md.contains("6/12 = 50.0% (95% CI 25.4%–74.6%; 4 engines, 2 pairs; clustered by engine pair 0.0%–100.0%, design effect 12.00)"),
        "{md}"
    );
}

#[test]
fn the_cohort_at_the_first_mutual_entry_and_its_cumulative_incidence() {
    // Fixture row 0's shape: 2020, Max_Moves 512, mutual at ply 249 (SFEN move number 250),
    // then won by declaration as black_only at ply 400: not mutual at its end, so the
    // final-position tables leave it out, the cohort keeps it, 151 plies after its entry.
    let mut a = game(Some(2020), "black_only", Some("kachi"));
    a.max_moves = Some(512);
    a.plies = 400;
    a.mutual_sfen = Some("4k4/9/9/9/9/9/9/9/4K4 w - 250".into());
    // 2022, Max_Moves 256: mutual from ply 100 to the limit at ply 256 (156 plies).
    let mut b = game(Some(2022), "mutual", Some("max_moves"));
    b.max_moves = Some(256);
    b.plies = 256;
    b.mutual_sfen = Some("4k4/9/9/9/9/9/9/9/4K4 b - 101".into());
    // Never mutual: not in the cohort.
    let c = game(Some(2022), "none", Some("toryo"));
    let r = report(&[a, b, c], &ReportConfig::default());
    let t = r.table("cohort_endings").unwrap();
    assert_eq!(strings(t, "era"), ["2018-2020", "2021-2023"]);
    assert_eq!(strings(t, "max_moves"), ["512", "256"]);
    let col =
        |c: &str| -> Vec<Option<i64>> { t.column(c).unwrap().i64().unwrap().iter().collect() };
    assert_eq!(col("games"), [Some(1), Some(1)]);
    assert_eq!(col("final_mutual"), [Some(0), Some(1)]);
    assert_eq!(col("declaration"), [Some(1), Some(0)]);
    assert_eq!(col("move_limit"), [Some(0), Some(1)]);
    let med: Vec<Option<f64>> = t
        .column("plies_after_entry_median")
        .unwrap()
        .f64()
        .unwrap()
        .iter()
        .collect();
    assert_eq!(med, [Some(151.0), Some(156.0)]);
    // The final-position table 3d has only the 2022 game.
    let d = r.table("strength_by_era_max_moves").unwrap();
    assert_eq!(strings(d, "era"), ["2021-2023"]);
    // Cumulative incidence: the declaration of the 512 game counts from 200 plies on (151),
    // the move limit of the 256 game from 200 on (156); before, both games are still going.
    let inc = r.table("cohort_incidence").unwrap();
    let pick = |era: &str, ending: &str, plies: i64| -> Option<f64> {
        let mask = inc.column("era").unwrap().str().unwrap().equal(era)
            & inc.column("ending").unwrap().str().unwrap().equal(ending)
            & inc.column("plies").unwrap().i64().unwrap().equal(plies);
        let row = inc.filter(&mask).unwrap();
        assert_eq!(row.height(), 1);
        float(&row, "incidence_share")
    };
    assert_eq!(pick("2018-2020", "declaration", 100), Some(0.0));
    assert_eq!(pick("2018-2020", "declaration", 200), Some(1.0));
    assert_eq!(pick("2021-2023", "move_limit", 100), Some(0.0));
    assert_eq!(pick("2021-2023", "move_limit", 500), Some(1.0));
    // Competing risks: at every number of plies the endings' incidences add up to at most
    // 1, and to 1 once every game has ended.
    for era in ["2018-2020", "2021-2023"] {
        for plies in floodgate_scan::report::tables::INCIDENCE_PLIES {
            let total: f64 = [
                "declaration",
                "invalid_declaration",
                "move_limit",
                "resignation",
                "repetition",
                "time",
                "other",
            ]
            .iter()
            .map(|e| pick(era, e, plies).unwrap())
            .sum();
            let want = if plies >= 200 { 1.0 } else { 0.0 };
            assert!((total - want).abs() < 1e-12, "{era} {plies}: {total}");
        }
    }
}

/// Three engines A, B, C in five games; `m` marks a game of the ever-mutual cohort (a first
/// mutual entry at ply 100).
fn player_games() -> Vec<GameRow> {
    let g = |year: i64, black: &str, white: &str, m: bool, reason: &str| {
        let mut g = game(Some(year), if m { "mutual" } else { "none" }, Some(reason));
        g.black = Some(black.into());
        g.white = Some(white.into());
        g.mutual_sfen = m.then(|| "4k4/9/9/9/9/9/9/9/4K4 b - 101".to_string());
        g
    };
    vec![
        g(2022, "A", "B", true, "kachi"),
        g(2022, "A", "B", true, "max_moves"),
        g(2022, "B", "A", false, "toryo"),
        g(2023, "A", "C", true, "kachi"),
        g(2023, "C", "B", false, "toryo"),
    ]
}

/// The Wilson interval of k of n, written out.
fn wilson_by_hand(k: f64, n: f64) -> (f64, f64) {
    let p = k / n;
    let centre = (p + Z2 / (2.0 * n)) / (1.0 + Z2 / n);
    let half = Z2.sqrt() / (1.0 + Z2 / n) * (p * (1.0 - p) / n + Z2 / (4.0 * n * n)).sqrt();
    (centre - half, centre + half)
}

#[test]
fn who_played_engines_pairs_and_years() {
    let r = report(&player_games(), &ReportConfig::default());
    // A: games 1-4, ever mutual 1, 2, 4, declared 1 and 4: 2 of 3.
    let a = row(&r, "engines", "A");
    assert_eq!(int(&a, "games"), Some(4));
    assert_eq!(int(&a, "ever_mutual"), Some(3));
    assert_eq!(int(&a, "decl_wins"), Some(2));
    assert!(close(float(&a, "ever_mutual_decl_rate"), 2.0 / 3.0));
    let (lo, hi) = wilson_by_hand(2.0, 3.0);
    assert!(close(float(&a, "ever_mutual_decl_rate_lo"), lo));
    assert!(close(float(&a, "ever_mutual_decl_rate_hi"), hi));
    // B: games 1, 2, 3, 5; ever mutual 1, 2; declared 1.
    let b = row(&r, "engines", "B");
    assert_eq!(
        (int(&b, "games"), int(&b, "ever_mutual")),
        (Some(4), Some(2))
    );
    assert!(close(float(&b, "ever_mutual_decl_rate"), 0.5));
    let c = row(&r, "engines", "C");
    assert_eq!((int(&c, "games"), int(&c, "decl_wins")), (Some(2), Some(1)));
    // Most games first, ties by name.
    let t = r.table("engines").unwrap();
    assert_eq!(strings(t, "engine"), ["A", "B", "C"]);
    // Pairs: A – B (games 1-3), A – C (4), B – C (5).
    let t = r.table("engine_pairs").unwrap();
    assert_eq!(strings(t, "pair"), ["A – B", "A – C", "B – C"]);
    let ab = row(&r, "engine_pairs", "A – B");
    assert_eq!(
        (
            int(&ab, "games"),
            int(&ab, "ever_mutual"),
            int(&ab, "decl_wins")
        ),
        (Some(3), Some(2), Some(1))
    );
    let bc = row(&r, "engine_pairs", "B – C");
    assert_eq!(
        float(&bc, "ever_mutual_decl_rate"),
        None,
        "no ever-mutual game"
    );
    // 2022: A and B; 2023: A, B and C.
    let y = row(&r, "engines_by_year", "2022");
    assert_eq!((int(&y, "games"), int(&y, "engines")), (Some(3), Some(2)));
    let y = row(&r, "engines_by_year", "2023");
    assert_eq!((int(&y, "games"), int(&y, "engines")), (Some(2), Some(3)));
}

#[test]
fn the_headline_by_time_control_and_across_pools_is_table_3j_recomputed() {
    // Table 3e's cells, every game in one of two time controls (alternately) and ever
    // mutual (a first mutual entry at ply 100), so table 3j's cells too.
    let mut rows = comparison_rows();
    for (i, g) in rows.iter_mut().enumerate() {
        g.game_name = Some(if i % 2 == 0 { "fast" } else { "slow" }.into());
        g.mutual_sfen = Some("4k4/9/9/9/9/9/9/9/4K4 b - 101".into());
    }
    let primary = |r: &Report, c: &str| {
        let df = r.table("era_comparison_ever_mutual").unwrap();
        let mask = df.column("role").unwrap().str().unwrap().equal("primary");
        float(&df.filter(&mask).unwrap(), c)
    };
    let r = report(&rows, &ReportConfig::default());
    for name in ["fast", "slow"] {
        // As `--game-name` computes it: the pool and the cells within the time control.
        let only = report(
            &rows,
            &ReportConfig {
                game_name: Some(format!("^{name}$")),
                ..ReportConfig::default()
            },
        );
        let t = row(&r, "headline_by_time_control", name);
        for c in ["a_rate", "b_rate", "rate_diff", "rate_diff_lo", "test_p"] {
            assert_eq!(float(&t, c), primary(&only, c), "{name} {c}");
        }
    }
    let t = r.table("headline_sensitivity").unwrap();
    assert_eq!(t.height(), 9, "three pools, three percentiles");
    let mask = t.column("pool").unwrap().str().unwrap().equal("year")
        & t.column("percentile").unwrap().str().unwrap().equal("75");
    let default = t.filter(&mask).unwrap();
    assert_eq!(float(&default, "a_rate"), primary(&r, "a_rate"));
    assert_eq!(float(&default, "test_p"), primary(&r, "test_p"));
    // Cell A: 3 of 10 controlled games declared; cell B: 10 of 10.
    assert!(close(float(&default, "a_rate"), 0.3));
    assert!(close(float(&default, "b_rate"), 1.0));
}

#[test]
fn the_model_says_why_it_is_not_fitted() {
    // Five games without ratings: no game enters the model, both fits are refused in words.
    let r = report(&player_games(), &ReportConfig::default());
    let t = r.table("regression").unwrap();
    assert_eq!(strings(t, "outcome"), ["declaration_win", "move_limit"]);
    for note in strings(t, "note") {
        assert_eq!(note, "not fitted: too few games (0 for 7 coefficients)");
    }
    assert_eq!(float(t, "coef"), None);
}

/// Four rated games (both ratings 2000, so every game is strong under any percentile) in
/// table 3e's cells, each with a first mutual entry: in each cell one mutual to its end
/// at the move limit, and one mutual at ply 249 (SFEN move number 250), then won by
/// declaration one-sided. A fifth game was never mutual.
fn ever_mutual_rows() -> Vec<GameRow> {
    let g = |year: i64, mm: i64, entering: &str, reason: &str, plies: i64, entry: i64| {
        let mut g = rated(
            game(Some(year), entering, Some(reason)),
            Some(2000.0),
            Some(2000.0),
        );
        g.max_moves = Some(mm);
        g.plies = plies;
        g.mutual_sfen = Some(format!("4k4/9/9/9/9/9/9/9/4K4 b - {entry}"));
        g
    };
    let mut never = rated(
        game(Some(2025), "none", Some("toryo")),
        Some(2000.0),
        Some(2000.0),
    );
    never.max_moves = Some(512);
    vec![
        g(2022, 256, "mutual", "max_moves", 256, 101),
        g(2022, 256, "black_only", "kachi", 250, 250),
        g(2025, 512, "mutual", "max_moves", 512, 101),
        g(2025, 512, "black_only", "kachi", 400, 250),
        never,
    ]
}

#[test]
fn a_game_mutual_at_ply_249_and_one_sided_at_its_end_is_in_the_ever_mutual_tables_only() {
    let r = report(&ever_mutual_rows(), &ReportConfig::default());
    // Final position (table 3a): the 2022 game mutual at its end only, 0 of 1 declared.
    let y = row(&r, "strength_by_year", "2022");
    assert_eq!((int(&y, "games"), int(&y, "decl_wins")), (Some(1), Some(0)));
    assert_eq!(int(&y, "raw_games"), Some(1));
    assert!(close(float(&y, "decl_win_rate"), 0.0));
    // Ever mutual (table 3f): both 2022 games, 1 of 2 declared and 1 of 2 at the limit,
    // with the Wilson interval of 1 of 2.
    let y = row(&r, "strength_ever_mutual_by_year", "2022");
    assert_eq!((int(&y, "games"), int(&y, "decl_wins")), (Some(2), Some(1)));
    assert_eq!(
        (int(&y, "raw_games"), int(&y, "move_limit")),
        (Some(2), Some(1))
    );
    assert!(close(float(&y, "decl_win_rate"), 0.5));
    assert!(close(float(&y, "move_limit_rate"), 0.5));
    let (lo, hi) = wilson_by_hand(1.0, 2.0);
    assert!((float(&y, "decl_win_rate_lo").unwrap() - lo).abs() < 1e-9);
    assert!((float(&y, "decl_win_rate_hi").unwrap() - hi).abs() < 1e-9);
    // The threshold is the same for both cohorts.
    assert_eq!(
        float(&row(&r, "strength_by_year", "2022"), "threshold"),
        float(&y, "threshold")
    );
    // By period (3b, 3g), by Max_Moves (3c, 3h), by both (3d, 3i).
    let e = row(&r, "strength_by_era", "2024-2026");
    assert_eq!((int(&e, "games"), int(&e, "decl_wins")), (Some(1), Some(0)));
    let e = row(&r, "strength_ever_mutual_by_era", "2024-2026");
    assert_eq!((int(&e, "games"), int(&e, "decl_wins")), (Some(2), Some(1)));
    let m = row(&r, "strength_ever_mutual_by_max_moves", "512");
    assert_eq!(
        (int(&m, "games"), int(&m, "move_limit")),
        (Some(2), Some(1))
    );
    let d = r.table("strength_ever_mutual_by_era_max_moves").unwrap();
    assert_eq!(strings(d, "era"), ["2021-2023", "2024-2026"]);
    assert_eq!(
        d.column("raw_games")
            .unwrap()
            .i64()
            .unwrap()
            .iter()
            .collect::<Vec<_>>(),
        [Some(2), Some(2)]
    );
    // The comparison: final position 0/1 against 0/1 (table 3e); ever mutual 1/2 against
    // 1/2 (table 3j), the exact test for its small cells, each game a pair of its own.
    let primary = |name: &str| {
        let df = r.table(name).unwrap();
        let mask = df.column("role").unwrap().str().unwrap().equal("primary");
        df.filter(&mask).unwrap()
    };
    let p = primary("era_comparison");
    assert_eq!((int(&p, "a_count"), int(&p, "a_games")), (Some(0), Some(1)));
    let p = primary("era_comparison_ever_mutual");
    assert_eq!((int(&p, "a_count"), int(&p, "a_games")), (Some(1), Some(2)));
    assert_eq!((int(&p, "b_count"), int(&p, "b_games")), (Some(1), Some(2)));
    assert!(close(float(&p, "rate_diff"), 0.0));
    assert_eq!(strings(&p, "test"), ["boschloo"]);
    assert_eq!(int(&p, "a_pairs"), Some(2));
    let holm = r.table("era_comparison_ever_mutual").unwrap();
    assert_eq!(
        holm.column("holm_family").unwrap().i64().unwrap().max(),
        Some(3)
    );
    // The long form names its table and has a row per cell and one for the difference.
    let t = r
        .tables
        .iter()
        .find(|t| t.spec.name == "era_comparison_ever_mutual")
        .unwrap();
    assert_eq!(t.spec.number, "3j");
    let long = floodgate_scan::report::tidy::long(t).unwrap();
    assert_eq!(long.height(), 12);
    assert!(
        strings(&long, "table")
            .iter()
            .all(|s| s == "era_comparison_ever_mutual")
    );
    // The headline is the ever-mutual comparison, the final position's below it.
    let md = floodgate_scan::report::markdown::render(&r);
    assert!(md.contains("## Headline: the 256 era against the 512 era, games ever mutual"));
    assert!(
        md.contains("- Primary — declaration-win rate of strength-controlled games ever mutual: Max_Moves 256, 2021-2023 1/2 = 50.0%"),
        "{md}"
    );
    assert!(
        md.contains("- Final position, primary — declaration-win rate of strength-controlled mutual entering-king games: Max_Moves 256, 2021-2023 0/1 = 0.0%"),
        "{md}"
    );
    assert!(md.contains("## Table 3e. The 256 era against the 512 era (final position)"));
    assert!(md.contains("## Table 3j. The 256 era against the 512 era, games ever mutual"));
}

#[test]
fn the_cumulative_incidence_figure_has_a_line_per_cell_n_and_both_formats() {
    let r = report(&ever_mutual_rows(), &ReportConfig::default());
    let p = r
        .plots
        .iter()
        .find(|p| p.file == "cohort_incidence.svg")
        .expect("the cumulative-incidence figure");
    assert_eq!(p.pdf_file(), "cohort_incidence.pdf");
    assert!(p.pdf.starts_with(b"%PDF"));
    let svg = &p.svg;
    // Two cells of two games each, named in the legend with their n.
    assert!(svg.contains("2021-23, 256 (n = 2)"), "{svg}");
    assert!(svg.contains("2024-26, 512 (n = 2)"), "{svg}");
    assert!(svg.contains("ended by declaration"), "{svg}");
    assert!(svg.contains("ended at the move limit"), "{svg}");
    // Each cell in its colour: a line through its points in both panels (the second cell
    // dashed, so in several pieces).
    assert!(!data_polylines(svg, "#08306B").is_empty(), "{svg}");
    assert!(!data_polylines(svg, "#E69F00").is_empty(), "{svg}");
    // No title, no `>=` in any figure.
    for p in &r.plots {
        assert!(!p.svg.contains("font-size=\"21"), "{}: a title", p.file);
        assert!(!p.svg.contains("&gt;="), "{}", p.file);
    }
    // The figure is listed in report.md with both files.
    let md = floodgate_scan::report::markdown::render(&r);
    assert!(
        md.contains("Files: `cohort_incidence.svg`, `cohort_incidence.pdf`."),
        "{md}"
    );
}
